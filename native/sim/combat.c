/*
 * combat.c -- simultaneous combat resolution (docs/rules.md section 7).
 *
 * During a tick every hit is only queued. Resolution sorts the queue by
 * target id, then by a hash of (match seed, tick, attacker id, target id), and
 * applies the hits in that order: damage to an unexposed structure is ignored;
 * the hit that takes a unit to 0 HP earns the kill; later hits on it are
 * dropped. Deaths are settled after every hit, so two units can kill each
 * other on the same tick, and the order in which hits were queued (unit
 * storage order) never changes the outcome.
 */
#include <stdlib.h>
#include "world.h"
#include "rng.h"

void combat_queue_hit(GotaMatch *m, int attacker, int target, int32_t damage, int source, int stun, int root,
                      int silence)
{
    if (m->hit_n >= HIT_QUEUE_MAX || damage <= 0) return;
    Hit *h = &m->hit[m->hit_n++];
    h->attacker = attacker;
    h->target = target;
    h->damage = damage;
    h->source = (int16_t)source;
    h->stun = (int16_t)stun;
    h->root = (int16_t)root;
    h->silence = (int16_t)silence;
    h->order = rng_mix((uint64_t)m->cfg.seed, (uint64_t)m->tick, (uint64_t)m->unit[attacker].id,
                       (uint64_t)m->unit[target].id);
}

void combat_queue(GotaMatch *m, int attacker, int target, int32_t damage)
{
    combat_queue_hit(m, attacker, target, damage, HIT_ATTACK, 0, 0, 0);
}

/* Controls keep the later expiry; buildings take none. */
static void apply_controls(GotaMatch *m, const Hit *h)
{
    int seat = hero_seat_of_slot(m, h->target);
    if (seat >= 0) {
        HeroState *t = &m->hero[seat];
        if (h->stun > t->stun) t->stun = h->stun;
        if (h->root > t->root) t->root = h->root;
        if (h->silence > t->silence) t->silence = h->silence;
        if ((h->stun || h->root) && t->channel) t->channel = 0;   /* interrupts a portal */
        return;
    }
    int kind = m->unit[h->target].kind;
    if (kind == GOTA_KIND_CREEP || kind == GOTA_KIND_NEUTRAL) {
        UnitState *s = &m->st[h->target];
        if (h->stun > s->stun) s->stun = h->stun;
        if (h->root > s->root) s->root = h->root;
        if (h->stun) s->swing = -1;
    }
}

/* Bookkeeping of a hit that dealt damage: stats, assists, cancelled potions,
 * controls, provoked camps. */
static void hit_landed(GotaMatch *m, const Hit *h, int32_t dealt)
{
    int a_seat = hero_seat_of_slot(m, h->attacker), t_seat = hero_seat_of_slot(m, h->target);
    int kind = m->unit[h->target].kind;
    if (a_seat >= 0) {
        GotaSeatStats *st = &m->hero[a_seat].stats;
        if (h->source == HIT_ATTACK) scripts_attack_landed(m, a_seat);
        if (kind == GOTA_KIND_HERO) st->hero_damage += dealt;
        else if (kind == GOTA_KIND_TOWER || kind == GOTA_KIND_BARRACKS) st->tower_damage += dealt;
        else if (kind == GOTA_KIND_GOD) st->god_damage += dealt;
    }
    if (t_seat >= 0) {
        m->hero[t_seat].stats.damage_taken += dealt;
        if (a_seat >= 0) m->hero[t_seat].damaged_at[a_seat] = m->tick;
        economy_hero_damaged(m, t_seat);
    }
    if (h->stun || h->root || h->silence) apply_controls(m, h);
    if (kind == GOTA_KIND_NEUTRAL) camp_member_hit(m, h->target, h->attacker);
}

typedef struct { int32_t target_id, attacker_id; uint32_t order; int32_t index; } HitKey;

static int hit_key_cmp(const void *pa, const void *pb)
{
    const HitKey *a = pa, *b = pb;
    if (a->target_id != b->target_id) return a->target_id < b->target_id ? -1 : 1;
    if (a->order != b->order) return a->order < b->order ? -1 : 1;
    if (a->attacker_id != b->attacker_id) return a->attacker_id < b->attacker_id ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void unit_dies(GotaMatch *m, int slot)
{
    GotaUnit *u = &m->unit[slot];
    int killer = m->killer[slot];
    u->alive = 0;
    u->target_id = -1;
    m->st[slot].target = -1;
    m->st[slot].swing = -1;
    m->st[slot].died_tick = m->tick;
    if (u->kind == GOTA_KIND_CREEP) m->lane_creeps--;
    match_event(m, GOTA_EVENT_DEATH, slot, killer >= 0 ? m->unit[killer].id : -1, 0);
    if (u->kind == GOTA_KIND_TOWER || u->kind == GOTA_KIND_BARRACKS || u->kind == GOTA_KIND_GOD)
        structure_destroyed(m, slot, killer);
    int seat = hero_seat_of_slot(m, slot);
    if (seat >= 0) hero_died(m, seat, killer);
}

void combat_resolve(GotaMatch *m)
{
    int n = m->hit_n;
    if (n == 0) return;
    HitKey key[HIT_QUEUE_MAX];
    for (int i = 0; i < n; i++) {
        const Hit *h = &m->hit[i];
        key[i] = (HitKey){m->unit[h->target].id, m->unit[h->attacker].id, h->order, i};
    }
    qsort(key, (size_t)n, sizeof key[0], hit_key_cmp);

    /* apply: HP changes only; the dead stay "alive" until every hit is in */
    int dead[HIT_QUEUE_MAX], dead_n = 0;
    for (int k = 0; k < n; k++) {
        const Hit *h = &m->hit[key[k].index];
        GotaUnit *t = &m->unit[h->target];
        if (!unit_attackable(m, h->target) || t->hp <= 0) continue;
        t->hp -= h->damage;
        hit_landed(m, h, h->damage + (t->hp < 0 ? t->hp : 0));
        if (t->hp <= 0) {
            t->hp = 0;
            m->killer[h->target] = h->attacker;
            dead[dead_n++] = h->target;
        }
    }
    m->hit_n = 0;

    /* deaths in target-id order (the sort order), then their rewards */
    for (int i = 0; i < dead_n; i++) unit_dies(m, dead[i]);
    for (int i = 0; i < dead_n; i++) economy_on_death(m, dead[i], m->killer[dead[i]]);
}
