/*
 * hash.c -- the match state hash: 64-bit FNV-1a folded over every
 * authoritative field, one named field at a time (never raw struct bytes, so
 * padding and layout cannot leak in). Two matches with equal hashes evolve
 * identically. Sequences are length-prefixed. Bot state (bot.h) is folded
 * for bot seats only. Counters kept only for rewards (GotaSeatStats.healing)
 * are left out.
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
    fold(s, u->target_id); fold(s, nav_facing_of(u->facing, &st->face)); fold(s, u->damage); fold(s, u->range);
    fold(s, u->kind); fold(s, u->team); fold(s, u->sub); fold(s, u->lane);
    fold(s, u->alive); fold(s, u->exposed); fold(s, u->radius_q);
    fold(s, st->speed); fold(s, st->period); fold(s, st->windup); fold(s, st->swing);
    fold(s, st->target); fold(s, st->building); fold(s, st->waypoint); fold(s, st->died_tick);
    fold(s, st->camp); fold(s, st->stun); fold(s, st->root);
    fold(s, st->path.n);
    for (int k = 0; k < st->path.n; k++) { fold(s, st->path.x[k]); fold(s, st->path.z[k]); }
    fold(s, st->path_i); fold(s, st->goal_x); fold(s, st->goal_z); fold(s, st->path_revision);
    fold(s, st->replan_tick); fold(s, st->stuck);
}

static void fold_hero(Hasher *s, const HeroState *h)
{
    fold(s, h->seat); fold(s, h->cls); fold(s, h->spawn_x); fold(s, h->spawn_z); fold(s, h->level); fold(s, h->xp); fold(s, h->xp_frac);
    fold(s, h->gold); fold(s, h->mana); fold(s, h->max_mana); fold(s, h->move_speed); fold(s, h->points);
    for (int a = 0; a < HERO_ABILITIES; a++) {
        fold(s, h->rank[a]); fold(s, h->charges[a]); fold(s, h->cooldown[a]); fold(s, h->recharge[a]);
    }
    fold(s, h->order); fold(s, h->order_x); fold(s, h->order_z);
    fold(s, h->stun); fold(s, h->root); fold(s, h->silence);
    fold(s, h->deaths); fold(s, h->respawn_at); fold(s, h->buyback_price);
    for (int i = 0; i < HERO_ITEM_SLOTS; i++) { fold(s, h->item[i]); fold(s, h->item_count[i]); }
    fold(s, h->hp_item_cd); fold(s, h->mana_item_cd);
    fold(s, h->hp_regen_total); fold(s, h->hp_regen_elapsed); fold(s, h->hp_regen_given);
    fold(s, h->mana_regen_total); fold(s, h->mana_regen_elapsed); fold(s, h->mana_regen_given);
    fold(s, h->portal_cd); fold(s, h->channel); fold(s, h->channel_x); fold(s, h->channel_z);
    fold(s, h->channel_tower);
    for (int i = 0; i < SEATS; i++) fold(s, h->damaged_at[i]);
    fold(s, h->last_error);
    /* every statistic but healing, a reward signal the simulation never reads:
     * it took the place of a reserved slot that was always 0, and is folded as
     * that 0, so the hashes (and golden hashes) of every match stay as they were */
    const int64_t *stat = &h->stats.score;
    for (size_t i = 0; i < sizeof h->stats / sizeof *stat; i++) fold(s, stat + i == &h->stats.healing ? 0 : stat[i]);
}

static void fold_spell(Hasher *s, const Spell *p)
{
    fold(s, p->caster); fold(s, p->caster_id); fold(s, p->team); fold(s, p->seat); fold(s, p->cls);
    fold(s, p->ability); fold(s, p->rank); fold(s, p->target); fold(s, p->target_id);
    fold(s, p->x); fold(s, p->z); fold(s, p->aim_x); fold(s, p->aim_z); fold(s, p->dir_x); fold(s, p->dir_z);
    fold(s, p->height8); fold(s, p->cast_tick); fold(s, p->impact_tick); fold(s, p->amount);
    fold(s, p->origin_x); fold(s, p->origin_z);
}

static void fold_camp(Hasher *s, const CampState *c)
{
    fold(s, c->state);
    for (int i = 0; i < 5; i++) fold(s, c->member[i]);
    fold(s, c->target); fold(s, c->target_id); fold(s, c->target_seen_tick); fold(s, c->respawn_at);
    fold(s, c->seen_x); fold(s, c->seen_z);
}

static void fold_bot(Hasher *s, const BotState *b)
{
    fold(s, b->kind); fold(s, (int64_t)b->rng); fold(s, b->mode); fold(s, b->mode_until);
    fold(s, b->gather); fold(s, b->lane); fold(s, b->camp); fold(s, b->last_hp);
    for (int i = 0; i < BOT_ENEMY_HEROES; i++) {
        fold(s, b->enemy_x[i]); fold(s, b->enemy_z[i]); fold(s, b->enemy_tick[i]);
    }
}

static void fold_script(Hasher *s, int seat, const BasicVM *vm)
{
    const BasicProgram *p = vm->prog;
    fold(s, seat); fold(s, (int64_t)p->source_hash); fold(s, p->cells);
    for (int32_t i = 0; i < p->cells; i++) { fold(s, vm->cells[i].v); fold(s, vm->cells[i].fx); }
    fold(s, vm->disabled); fold(s, vm->error_code); fold(s, vm->decisions); fold(s, vm->last_action_error);
    fold(s, vm->attacks_landed);
}

uint64_t match_hash(const GotaMatch *m)
{
    Hasher s = {0xCBF29CE484222325ull};
    fold(&s, m->cfg.seed); fold(&s, m->cfg.max_ticks); fold(&s, m->cfg.wave_interval);
    if (m->cfg.upkeep) fold(&s, m->cfg.upkeep);   /* only when on: older golden hashes stay valid */
    fold(&s, m->tick); fold(&s, m->result); fold(&s, m->winner);
    fold(&s, (int64_t)m->rng); fold(&s, m->next_id); fold(&s, m->lane_creeps);
    fold(&s, m->nav.revision); fold(&s, m->event_next);
    fold(&s, m->map->building_n);
    for (int i = 0; i < m->map->building_n; i++) {
        fold(&s, m->building_alive[i]);
        fold(&s, m->seen_destroyed[0][i]);
        fold(&s, m->seen_destroyed[1][i]);
    }
    for (int i = 0; i < SEATS; i++) {
        fold(&s, m->hero_slot[i]);
        if (m->hero_slot[i] >= 0) fold_hero(&s, &m->hero[i]);
    }
    fold(&s, m->spell_n);
    for (int i = 0; i < m->spell_n; i++) fold_spell(&s, &m->spell[i]);
    for (int i = 0; i < MAP_CAMPS; i++) fold_camp(&s, &m->camp[i]);
    /* bot seats only, so a match of external seats hashes as it always did */
    for (int i = 0; i < SEATS; i++)
        if (m->cfg.bot[i] != GOTA_BOT_EXTERNAL) {
            fold(&s, i);
            fold_bot(&s, &m->bot[i]);
        }
    /* script seats: the VM state that steers play (variables, arrays, status) */
    for (int i = 0; i < SEATS; i++)
        if (m->script[i]) fold_script(&s, i, m->script[i]);
    fold(&s, m->unit_n);
    for (int i = 0; i < m->unit_n; i++) {
        fold(&s, m->unit[i].kind);
        if (m->unit[i].kind != GOTA_KIND_NONE) fold_unit(&s, &m->unit[i], &m->st[i]);
    }
    return s.h;
}
