/*
 * bots_base.c -- the `base` and `baseline` bots (docs/rules.md section 9: the
 * original's base.bas and baseline.bas; docs/bots.md).
 *
 * base, every think: spend points R > W > E > Q; the base economy (bots.c:
 * HP items under 60 % HP, mana items under 40 % mana, poison whenever the
 * target is in reach; in the keep, stock a health potion and a poison potion,
 * then buy class gear in order, saving up for the next piece); attack the
 * nearest enemy the team sees (units and exposed buildings, distance centre to
 * centre; resting neutral camps are left alone); with none visible, walk to
 * the map centre.
 * baseline: base, plus its W (slot 1) at that nearest enemy whenever W is
 * learned, has a charge, no cooldown, the mana and the range. A W that heals
 * (the Druid's Healing Bloom) lands on the bot itself when it is hurt.
 */
#include "sim/world.h"
#include "sim/fixmath.h"

static const int LEVEL_ORDER[4] = {3, 1, 2, 0};

/* The nearest enemy the team sees, -1 none. */
static int nearest_enemy(const GotaMatch *m, int seat)
{
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    int best = -1;
    int64_t best_d = 0;
    for (int i = 0; i < m->unit_n; i++) {
        if (!bot_enemy_ok(m, me->team, i, 0)) continue;
        int64_t d = fx_dist2(me->x, me->z, m->unit[i].x, m->unit[i].z);
        if (best < 0 || d < best_d) {
            best = i;
            best_d = d;
        }
    }
    return best;
}

static void cast_w(GotaMatch *m, int seat, int t)
{
    const HeroState *h = &m->hero[seat];
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    const AbilityDef *a = &HERO_CLASS[h->cls].ability[1];
    if (h->rank[1] < 1 || h->charges[1] < 1 || h->cooldown[1] > 0 || h->mana < a->mana || h->silence > 0) return;
    if (a->effect != EFFECT_DAMAGE) {
        if (me->hp * 100 < me->max_hp * 80) bot_command(m, seat, GOTA_CMD_CAST_POINT, 0, me->x, me->z, 1, 0);
        return;
    }
    if (t < 0 || fx_dist2(me->x, me->z, m->unit[t].x, m->unit[t].z) > (int64_t)a->range * a->range) return;
    bot_command(m, seat, GOTA_CMD_CAST_TARGET, m->unit[t].id, 0, 0, 1, 0);
}

static void think(GotaMatch *m, int seat, int baseline)
{
    bot_level(m, seat, LEVEL_ORDER);
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    const HeroState *h = &m->hero[seat];
    if (!me->alive || h->channel > 0 || h->stun > 0) return;
    bot_base_economy(m, seat, baseline);
    int t = nearest_enemy(m, seat);
    if (t >= 0) {
        bot_attack(m, seat, t);
        if (baseline) cast_w(m, seat, t);
    } else {
        if (baseline) cast_w(m, seat, -1);
        bot_move(m, seat, GOTA_CMD_WALK, 0, 0);
    }
}

void bot_base_think(GotaMatch *m, int seat)
{
    think(m, seat, 0);
}

void bot_baseline_think(GotaMatch *m, int seat)
{
    think(m, seat, 1);
}
