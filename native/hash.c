/*
 * hash.c -- the match state hash: 64-bit FNV-1a folded over every
 * authoritative field, one named field at a time (never raw struct bytes, so
 * padding and layout cannot leak in). Two matches with equal hashes evolve
 * identically. Sequences are length-prefixed.
 */
#include "world.h"

typedef struct { uint64_t h; } Hasher;

static void fold(Hasher *s, int64_t v)
{
    uint64_t u = (uint64_t)v;
    for (int i = 0; i < 8; i++) {
        s->h ^= (u >> (8 * i)) & 0xFFu;
        s->h *= 0x100000001B3ull;
    }
}

static void fold_unit(Hasher *s, const GotaUnit *u, const UnitState *st)
{
    fold(s, u->id); fold(s, u->x); fold(s, u->z); fold(s, u->hp); fold(s, u->max_hp);
    fold(s, u->target_id); fold(s, u->facing); fold(s, u->damage); fold(s, u->range);
    fold(s, u->kind); fold(s, u->team); fold(s, u->sub); fold(s, u->lane);
    fold(s, u->alive); fold(s, u->exposed); fold(s, u->radius_q);
    fold(s, st->speed); fold(s, st->period); fold(s, st->windup); fold(s, st->swing);
    fold(s, st->target); fold(s, st->building); fold(s, st->waypoint); fold(s, st->died_tick);
    fold(s, st->path.n);
    for (int k = 0; k < st->path.n; k++) { fold(s, st->path.x[k]); fold(s, st->path.z[k]); }
    fold(s, st->path_i); fold(s, st->goal_x); fold(s, st->goal_z); fold(s, st->path_revision);
    fold(s, st->replan_tick); fold(s, st->stuck);
}

uint64_t match_hash(const GotaMatch *m)
{
    Hasher s = {0xCBF29CE484222325ull};
    fold(&s, m->cfg.seed); fold(&s, m->cfg.max_ticks); fold(&s, m->cfg.wave_interval);
    fold(&s, m->tick); fold(&s, m->result); fold(&s, m->winner);
    fold(&s, (int64_t)m->rng); fold(&s, m->next_id); fold(&s, m->lane_creeps);
    fold(&s, m->nav.revision); fold(&s, m->event_next);
    fold(&s, m->map->building_n);
    for (int i = 0; i < m->map->building_n; i++) {
        fold(&s, m->building_alive[i]);
        fold(&s, m->seen_destroyed[0][i]);
        fold(&s, m->seen_destroyed[1][i]);
    }
    fold(&s, m->unit_n);
    for (int i = 0; i < m->unit_n; i++) {
        fold(&s, m->unit[i].kind);
        if (m->unit[i].kind != GOTA_KIND_NONE) fold_unit(&s, &m->unit[i], &m->st[i]);
    }
    return s.h;
}
