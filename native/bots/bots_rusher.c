/*
 * bots_rusher.c -- the `rusher` bot (docs/rules.md section 9: the original's
 * rusher.bas, meant for all five seats of a team; docs/bots.md).
 *
 * Every think: spend points R > W > E > Q. The team's centre is the mean
 * position of its living heroes. When two of them stand more than 10 tiles
 * apart the team gathers: each walks to the centre, until all are within
 * 8 tiles of each other (BotState.gather keeps the state between thinks).
 * Otherwise it attacks the visible enemy within 20 tiles of the centre that
 * is closest to the centre; with none, it attack-moves to the map centre, and
 * once it has been there (within 3 tiles; BotState.mode 1) to the enemy god.
 * Allies of any kind (bots or not) count for the centre.
 */
#include "sim/world.h"
#include "sim/fixmath.h"

static const int LEVEL_ORDER[4] = {3, 1, 2, 0};
#define GATHER_APART (10 * GOTA_TILE)
#define GATHER_DONE (8 * GOTA_TILE)
#define ENGAGE (20 * GOTA_TILE)
#define CENTRE_REACHED (3 * GOTA_TILE)

void bot_rusher_think(GotaMatch *m, int seat)
{
    bot_level(m, seat, LEVEL_ORDER);
    BotState *b = &m->bot[seat];
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    const HeroState *h = &m->hero[seat];
    if (!me->alive || h->channel > 0 || h->stun > 0) return;
    bot_base_economy(m, seat, 0);
    int team = me->team, first = team * SEATS_PER_TEAM;
    int64_t sx = 0, sz = 0, spread = 0;
    int n = 0;
    for (int a = first; a < first + SEATS_PER_TEAM; a++) {
        const GotaUnit *u = &m->unit[m->hero_slot[a]];
        if (!u->alive) continue;
        sx += u->x;
        sz += u->z;
        n++;
        for (int c = a + 1; c < first + SEATS_PER_TEAM; c++) {
            const GotaUnit *v = &m->unit[m->hero_slot[c]];
            if (!v->alive) continue;
            int64_t d = fx_dist2(u->x, u->z, v->x, v->z);
            if (d > spread) spread = d;
        }
    }
    int32_t cx = (int32_t)(sx / n), cz = (int32_t)(sz / n);   /* n >= 1: this hero lives */
    if (spread > (int64_t)GATHER_APART * GATHER_APART) b->gather = 1;
    else if (spread <= (int64_t)GATHER_DONE * GATHER_DONE) b->gather = 0;
    if (b->gather) {
        bot_move(m, seat, GOTA_CMD_WALK, cx, cz);
        return;
    }
    int best = -1;
    int64_t best_d = (int64_t)ENGAGE * ENGAGE;
    for (int i = 0; i < m->unit_n; i++) {
        if (!bot_enemy_ok(m, team, i, 0)) continue;
        int64_t d = fx_dist2(cx, cz, m->unit[i].x, m->unit[i].z);
        if (d <= best_d && (best < 0 || d < best_d)) {
            best = i;
            best_d = d;
        }
    }
    if (best >= 0) {
        bot_attack(m, seat, best);
        return;
    }
    if (b->mode == 0 && fx_dist2(me->x, me->z, 0, 0) <= (int64_t)CENTRE_REACHED * CENTRE_REACHED) b->mode = 1;
    if (b->mode == 0) {
        bot_move(m, seat, GOTA_CMD_ATTACK_MOVE, 0, 0);
    } else {
        int32_t gx, gz;
        bot_building_spot(m, MAP_IDX_GOD(1 - team), &gx, &gz);
        bot_move(m, seat, GOTA_CMD_ATTACK_MOVE, gx, gz);
    }
}
