/*
 * observe.c -- the observation of a seat (contract.h, docs/contract.md): the
 * object/target slot table, the OBS_SIZE float features, the layout table
 * with feature names, and the contract hash.
 *
 * Only the seat's team's knowledge is read: own units always; other units
 * while m->seen[team][slot] (set by the vision phase of the last tick, the
 * same test the engine applies to commands); pending spells of the own team,
 * and enemy ones whose aim point the team sees (seats.c's rule; the caster is
 * never named); enemy buildings count as standing until the team has seen
 * them fall (m->seen_destroyed); terrain is static walkability minus the
 * footprints of buildings the team believes standing.
 *
 * Team frame: s = +1 red, -1 blue. Positions, offsets, velocities and facings
 * are multiplied by s (the map is point-symmetric about the centre, so this is
 * blue's 180-degree rotation); grid cells and snapped points are computed in
 * the team frame and mirrored back, so mirrored situations give identical bytes.
 *
 * Floats: each value is (float)((double)a / (double)b) of exact integers, then
 * clamped; no libm call, so every IEEE machine gives the same bits.
 *
 * What only depends on the team (the living seen creeps and neutrals, the
 * known heroes, gods, forward tower and enemy structures, the summary's team
 * features, the ghost footprints) is gathered once per team and state by
 * contract_team; a batch lane shares it between the team's seats, the
 * single-seat entry points fill it for the one seat.
 */
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "contract.h"

_Static_assert(OS_COUNT == OBS_SELF_SIZE, "self block size");
_Static_assert(OA_COUNT == OBS_ABILITY_WIDTH, "ability width");
_Static_assert(OI_COUNT == OBS_ITEM_WIDTH && OI_COUNT_F == ITEM_KINDS, "item width");
_Static_assert(OO_COUNT == OBS_OBJECT_WIDTH, "object width");
_Static_assert(OW_COUNT == OBS_WARNING_WIDTH, "warning width");
_Static_assert(OM_COUNT == OBS_SUMMARY_SIZE, "summary size");
_Static_assert(OBS_SIZE == 1407, "section 3 size");
_Static_assert(OBS_ABILITY_COUNT == HERO_ABILITIES && OBS_ITEM_COUNT == HERO_ITEM_SLOTS, "hero slots");
_Static_assert(CONTRACT_SLOTS == CSLOT_NEUTRAL + CSLOT_NEUTRALS, "slot table");
_Static_assert(CONTRACT_BUILDINGS >= MAP_BUILDINGS && GOTA_SEATS == SEATS, "team knowledge sizes");
_Static_assert(OBS_OBJECT + OBS_OBJECT_SIZE == OBS_WARNING && OBS_WARNING + OBS_WARNING_SIZE == OBS_SUMMARY &&
               OBS_SUMMARY + OBS_SUMMARY_SIZE == OBS_TERRAIN && OBS_TERRAIN + OBS_TERRAIN_SIZE == OBS_GOAL,
               "contract_observe_team zeroes all blocks but objects, summary and terrain");
_Static_assert(CONTRACT_TEAM_BLOCKS <= INT16_MAX, "block index");

/* ---- float helpers ------------------------------------------------------- */
static float q(int64_t num, int64_t den)
{
    return den ? (float)((double)num / (double)den) : 0.0f;
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

#define TILES16 ((int64_t)16 * GOTA_TILE)

/* ---- slot table ---------------------------------------------------------- */
static int seat_hero(const GotaMatch *m, int seat)
{
    if (!m || seat < 0 || seat >= SEATS) return -1;
    int slot = m->hero_slot[seat];
    return hero_seat_of_slot(m, slot) == seat ? slot : -1;
}

/* a before b: nearer, equal distances to the lower id */
static int nearer(const GotaMatch *m, int64_t da, int a, int64_t db, int b)
{
    return da < db || (da == db && m->unit[a].id < m->unit[b].id);
}

static void observe_summary_team(const GotaMatch *m, int team, float *o);

void contract_team(const GotaMatch *m, int team, ContractTeam *ct)
{
    int enemy = 1 - team;
    const uint8_t *seen = m->seen[team];
    ct->team = team;
    for (int q2 = 0; q2 < SEATS; q2++) {
        int j = seat_hero(m, q2);
        ct->hero[q2] = j >= 0 && m->unit[j].alive && (hero_team(q2) == team || seen[j]) ? j : -1;
    }
    int g = m->god_slot[team];
    ct->own_god = g >= 0 && m->unit[g].alive ? g : -1;
    g = m->god_slot[enemy];
    ct->enemy_god = g >= 0 && m->unit[g].alive && seen[g] ? g : -1;
    /* creeps from the front, neutrals from the back: the selection is by
     * (distance, id), so the order of the candidates does not matter */
    int nc = 0, top = GOTA_MAX_UNITS;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (!u->alive || !seen[i]) continue;
        int at;
        if (u->kind == GOTA_KIND_CREEP) at = nc++;
        else if (u->kind == GOTA_KIND_NEUTRAL) at = --top;
        else continue;
        ContractCandidate *c = &ct->candidate[at];
        c->slot = i;
        c->id = u->id;
        c->x = u->x;
        c->z = u->z;
    }
    ct->creep_n = nc;
    ct->neutral_n = GOTA_MAX_UNITS - top;
    /* own forward tower: the living allied tower nearest the enemy god */
    const MapBuilding *eg = &m->map->building[MAP_IDX_GOD(enemy)];
    int best = -1, ns = 0, ng = 0;
    int64_t best_d = 0;
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        int j = m->building_slot[b];
        if (!m->building_alive[b] && mb->team != team && !m->seen_destroyed[team][b] && mb->footprint_n > 0)
            ct->ghost[ng++] = b;
        if (j < 0 || !m->unit[j].alive) continue;
        if (mb->team == team && mb->kind == GOTA_KIND_TOWER) {
            int64_t d = fx_dist2(eg->x, eg->z, m->unit[j].x, m->unit[j].z);
            if (best < 0 || nearer(m, d, j, best_d, best)) { best = j; best_d = d; }
        } else if (mb->team == enemy && (mb->kind == GOTA_KIND_TOWER || mb->kind == GOTA_KIND_BARRACKS) && seen[j]) {
            ContractCandidate *c = &ct->structure[ns++];
            c->slot = j;
            c->id = m->unit[j].id;
            c->x = m->unit[j].x;
            c->z = m->unit[j].z;
        }
    }
    ct->own_tower = best;
    ct->structure_n = ns;
    ct->ghost_n = ng;
    observe_summary_team(m, team, ct->summary);
    memset(ct->block_of, 0xff, sizeof ct->block_of);   /* -1: no object block yet */
    ct->block_n = 0;
}

/* The (up to) k candidates nearest (x, z), sorted by distance, then id. */
static void nearest_by_id(const ContractCandidate *c, int n, int32_t x, int32_t z, int k, int32_t *out)
{
    int64_t d2[CSLOT_CREEPS > CSLOT_NEUTRALS ? CSLOT_CREEPS : CSLOT_NEUTRALS];
    int32_t id[sizeof d2 / sizeof d2[0]];
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        int64_t d = fx_dist2(x, z, c[i].x, c[i].z);
        int32_t ci = c[i].id;
        /* most candidates are farther than the k-th: one test */
        if (cnt == k && (d > d2[k - 1] || (d == d2[k - 1] && ci > id[k - 1]))) continue;
        int at = cnt < k ? cnt : k - 1;   /* a full list drops its last */
        while (at > 0 && (d < d2[at - 1] || (d == d2[at - 1] && ci < id[at - 1]))) {
            d2[at] = d2[at - 1];
            id[at] = id[at - 1];
            out[at] = out[at - 1];
            at--;
        }
        d2[at] = d;
        id[at] = ci;
        out[at] = c[i].slot;
        if (cnt < k) cnt++;
    }
}

/* nearest_by_id with one 64-bit key per candidate, (squared distance,
 * index), so that a test or a shift moves one value: squared distances on
 * the map are below 2^53 (asserted) and indexes below 2^10. The index stands
 * in for the id, which is only right when no two candidates that matter are
 * at the same distance: the kept ones among themselves, and the last kept
 * one against the nearest of the others. Such a tie (rare: stacked units)
 * falls back to nearest_by_id. */
#define NEAREST_INDEX_BITS 10
_Static_assert(GOTA_MAX_UNITS <= 1 << NEAREST_INDEX_BITS, "candidate index bits");
_Static_assert((int64_t)MAP_HALF_WORLD * MAP_HALF_WORLD * 8 < (int64_t)1 << (63 - NEAREST_INDEX_BITS),
               "squared distance bits");
static void nearest(const ContractCandidate *c, int n, int32_t x, int32_t z, int k, int32_t *out)
{
    /* key[-1] = 0, below every key, ends the insertion loop without an index test */
    uint64_t keys[1 + (CSLOT_CREEPS > CSLOT_NEUTRALS ? CSLOT_CREEPS : CSLOT_NEUTRALS)] = {0};
    uint64_t *key = keys + 1;
    uint64_t lost = UINT64_MAX;   /* the least key left out */
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        uint64_t v = (uint64_t)fx_dist2(x, z, c[i].x, c[i].z) << NEAREST_INDEX_BITS | (uint64_t)i;
        /* most candidates are farther than the k-th: one test */
        if (cnt == k && v > key[k - 1]) {
            lost = v < lost ? v : lost;
            continue;
        }
        uint64_t *at = key + cnt;
        if (cnt == k) {   /* a full list drops its last */
            lost = key[k - 1] < lost ? key[k - 1] : lost;
            at--;
        } else {
            cnt++;
        }
        /* a pointer, not an int index: under -fwrapv (Python's build flags)
         * an int index is sign-extended again at every step */
        while (v < at[-1]) {
            at[0] = at[-1];
            at--;
        }
        *at = v;
    }
    for (int i = 0; i < cnt; i++) {
        uint64_t d = key[i] >> NEAREST_INDEX_BITS;
        if (d == (i + 1 < cnt ? key[i + 1] : lost) >> NEAREST_INDEX_BITS) {
            nearest_by_id(c, n, x, z, k, out);
            return;
        }
        out[i] = c[key[i] & ((1u << NEAREST_INDEX_BITS) - 1)].slot;
    }
}

static void slots_clear(ContractSlots *cs)
{
    for (int k = 0; k < CONTRACT_SLOTS; k++) cs->unit[k] = -1;
    cs->self = -1;
    cs->team = GOTA_TEAM_RED;
    cs->s = 1;
}

int contract_slots_team(const GotaMatch *m, const ContractTeam *ct, int seat, ContractSlots *cs)
{
    slots_clear(cs);
    int self = seat_hero(m, seat);
    if (self < 0) return -1;
    int team = hero_team(seat);
    cs->team = team;
    cs->s = team == GOTA_TEAM_RED ? 1 : -1;
    cs->self = self;
    cs->unit[CSLOT_SELF] = self;
    const GotaUnit *me = &m->unit[self];
    int ally = CSLOT_ALLY, foe = CSLOT_ENEMY_HERO;
    for (int q2 = 0; q2 < SEATS; q2++) {
        if (q2 == seat) continue;
        if (hero_team(q2) == team) cs->unit[ally++] = ct->hero[q2];
        else cs->unit[foe++] = ct->hero[q2];
    }
    nearest(ct->candidate, ct->creep_n, me->x, me->z, CSLOT_CREEPS, &cs->unit[CSLOT_CREEP]);
    nearest(ct->candidate + GOTA_MAX_UNITS - ct->neutral_n, ct->neutral_n, me->x, me->z, CSLOT_NEUTRALS,
            &cs->unit[CSLOT_NEUTRAL]);
    cs->unit[CSLOT_OWN_GOD] = ct->own_god;
    cs->unit[CSLOT_ENEMY_GOD] = ct->enemy_god;
    cs->unit[CSLOT_OWN_TOWER] = ct->own_tower;
    int foe_best = -1;
    int64_t foe_d = 0;
    for (int b = 0; b < ct->structure_n; b++) {
        const ContractCandidate *c = &ct->structure[b];
        int64_t d = fx_dist2(me->x, me->z, c->x, c->z);
        if (foe_best < 0 || nearer(m, d, c->slot, foe_d, foe_best)) { foe_best = c->slot; foe_d = d; }
    }
    cs->unit[CSLOT_ENEMY_STRUCTURE] = foe_best;
    return 0;
}

int contract_slots(const GotaMatch *m, int seat, ContractSlots *cs)
{
    if (seat_hero(m, seat) < 0) {
        slots_clear(cs);
        return -1;
    }
    ContractTeam ct;
    contract_team(m, hero_team(seat), &ct);
    return contract_slots_team(m, &ct, seat, cs);
}

int contract_slot_unit(const GotaMatch *m, int seat, int slot)
{
    if (slot < 0 || slot >= CONTRACT_SLOTS) return -1;
    ContractSlots cs;
    if (contract_slots(m, seat, &cs) < 0) return -1;
    return cs.unit[slot];
}

/* ---- features ------------------------------------------------------------ */
/* Q16 sine of a binary angle (65,536 per turn), quarter table + linear
 * interpolation; round(65536 * sin(i * 90 deg / 64)). */
static int32_t sin_q16(int32_t angle)
{
    static const int32_t quarter[65] = {
        0, 1608, 3216, 4821, 6424, 8022, 9616, 11204, 12785, 14359, 15924, 17479, 19024, 20557,
        22078, 23586, 25080, 26558, 28020, 29466, 30893, 32303, 33692, 35062, 36410, 37736, 39040,
        40320, 41576, 42806, 44011, 45190, 46341, 47464, 48559, 49624, 50660, 51665, 52639, 53581,
        54491, 55368, 56212, 57022, 57798, 58538, 59244, 59914, 60547, 61145, 61705, 62228, 62714,
        63162, 63572, 63944, 64277, 64571, 64827, 65043, 65220, 65358, 65457, 65516, 65536 };
    int32_t a = angle & 0xFFFF, sign = 1;
    if (a >= 32768) { a -= 32768; sign = -1; }
    if (a > 16384) a = 32768 - a;
    int32_t i = a >> 8, f = a & 255;
    int32_t v = i >= 64 ? quarter[64] : quarter[i] + (((quarter[i + 1] - quarter[i]) * f + 128) >> 8);
    return sign * v;
}

/* Displacement over the last tick, tiles per tick * 10 in the team frame;
 * 0 before the first tick and for jumps over a tile (respawn, portal). */
static void velocity(const GotaMatch *m, int j, int s, float *vx, float *vz)
{
    *vx = *vz = 0.0f;
    if (m->tick <= 0) return;
    int64_t dx = (int64_t)m->unit[j].x - m->snap_x[j], dz = (int64_t)m->unit[j].z - m->snap_z[j];
    if (dx > GOTA_TILE || dx < -GOTA_TILE || dz > GOTA_TILE || dz < -GOTA_TILE) return;
    *vx = clampf(q(dx * s * 10, GOTA_TILE), -4.0f, 4.0f);
    *vz = clampf(q(dz * s * 10, GOTA_TILE), -4.0f, 4.0f);
}

static int64_t xp_at_level(int32_t level)
{
    int64_t t = 0;
    for (int32_t l = 1; l < level; l++) t += xp_to_next(l);
    return t;
}

static int own_spawn_bits(int team)
{
    return team == GOTA_TEAM_RED ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
}

static int own_shop_bits(int team)
{
    return team == GOTA_TEAM_RED ? GOTA_REGION_RED_KEEP | GOTA_REGION_RED_SPAWN
                                 : GOTA_REGION_BLUE_KEEP | GOTA_REGION_BLUE_SPAWN;
}

static int region_at(const GotaMatch *m, int32_t x, int32_t z)
{
    int tx = map_tile_of(x), tz = map_tile_of(z);
    return map_in_bounds(tx, tz) ? m->map->region[map_index(tx, tz)] : 0;
}

static void observe_self(const GotaMatch *m, const ContractSlots *cs, int seat, float *o)
{
    const HeroState *h = &m->hero[seat];
    const GotaUnit *u = &m->unit[cs->self];
    const UnitState *st = &m->st[cs->self];
    int s = cs->s;
    o[OS_ALIVE] = u->alive ? 1.0f : 0.0f;
    o[OS_HP_FRAC] = clampf(q(u->hp, u->max_hp), 0.0f, 1.0f);
    o[OS_MANA_FRAC] = clampf(q(h->mana, h->max_mana), 0.0f, 1.0f);
    o[OS_MAX_HP] = q(u->max_hp, 2000);
    o[OS_MAX_MANA] = q(h->max_mana, 1000);
    o[OS_GOLD] = q(h->gold, 1000);
    o[OS_LEVEL] = q(h->level, 20);
    o[OS_XP_PROGRESS] = h->level >= HERO_MAX_LEVEL ? 1.0f
                        : clampf(q(h->xp - xp_at_level(h->level), xp_to_next(h->level)), 0.0f, 1.0f);
    o[OS_XP_TOTAL] = q(h->xp, 20000);
    o[OS_X] = q((int64_t)u->x * s, (int64_t)64 * GOTA_TILE);
    o[OS_Z] = q((int64_t)u->z * s, (int64_t)64 * GOTA_TILE);
    o[OS_TEAM] = (float)cs->team;
    o[OS_TIME] = clampf(q(m->tick, m->cfg.max_ticks), 0.0f, 1.0f);
    int32_t cd = st->swing >= 0 ? st->period - 1 - st->swing : 0;
    o[OS_ATTACK_COOLDOWN] = clampf(q(cd, 48), 0.0f, 2.0f);
    o[OS_ATTACK_RANGE] = q(u->range, (int64_t)10 * GOTA_TILE);
    o[OS_ATTACK_DAMAGE] = q(u->damage, 200);
    o[OS_SPEED] = q((int64_t)h->move_speed * GOTA_TICKS_PER_SECOND, (int64_t)5 * GOTA_TILE);
    o[OS_HAS_TARGET] = u->target_id >= 0 ? 1.0f : 0.0f;
    o[OS_STUN] = clampf(q(h->stun, 72), 0.0f, 2.0f);
    o[OS_ROOT] = clampf(q(h->root, 72), 0.0f, 2.0f);
    o[OS_SILENCE] = clampf(q(h->silence, 72), 0.0f, 2.0f);
    o[OS_CHANNEL] = clampf(q(h->channel, 72), 0.0f, 2.0f);
    o[OS_PORTAL_COOLDOWN] = clampf(q(h->portal_cd, 1440), 0.0f, 2.0f);
    int32_t respawn = !u->alive && h->respawn_at > m->tick ? h->respawn_at - m->tick : 0;
    o[OS_RESPAWN] = clampf(q(respawn, 1440), 0.0f, 2.0f);
    o[OS_POINTS] = q(h->points, 4);
    int region = region_at(m, u->x, u->z);
    o[OS_IN_SPAWN] = u->alive && (region & own_spawn_bits(cs->team)) ? 1.0f : 0.0f;
    o[OS_CAN_SHOP] = u->alive && (region & own_shop_bits(cs->team)) ? 1.0f : 0.0f;
    o[OS_DEATHS] = q(h->deaths, 10);
    o[OS_LAST_ERROR] = h->last_error != GOTA_ACT_OK ? 1.0f : 0.0f;
    o[OS_BUYBACK] = !u->alive && m->result == GOTA_RESULT_RUNNING && h->gold >= h->buyback_price ? 1.0f : 0.0f;
    if (h->cls >= 0 && h->cls < HERO_CLASSES) {
        o[OS_CLASS + h->cls] = 1.0f;
        o[OS_ROLE + HERO_CLASS[h->cls].role] = 1.0f;
    }
    velocity(m, cs->self, s, &o[OS_VEL_X], &o[OS_VEL_Z]);
    o[OS_HAS_MOVE] = h->order == ORDER_WALK || h->order == ORDER_ATTACK_MOVE ? 1.0f : 0.0f;
}

static void observe_abilities(const GotaMatch *m, int seat, float *o)
{
    const HeroState *h = &m->hero[seat];
    for (int a = 0; a < HERO_ABILITIES; a++, o += OBS_ABILITY_WIDTH) {
        const AbilityDef *d = &HERO_CLASS[h->cls].ability[a];
        int32_t rank = h->rank[a], shown = rank > 0 ? rank : 1;
        int32_t amount = ability_scaled(d->amount, shown);
        o[OA_RANK] = q(rank, ability_max_rank(a));
        o[OA_LEARNED] = rank > 0 ? 1.0f : 0.0f;
        o[OA_COOLDOWN] = clampf(q(h->cooldown[a], 240), 0.0f, 2.0f);
        o[OA_CHARGES] = q(h->charges[a], 3);
        o[OA_RECHARGE] = clampf(q(h->recharge[a], 240), 0.0f, 2.0f);
        o[OA_MANA_COST] = q(d->mana, 200);
        o[OA_CASTABLE] = ability_cast_check(m, seat, a) == GOTA_ACT_OK ? 1.0f : 0.0f;   /* the command's test */
        o[OA_DAMAGE] = d->effect == EFFECT_DAMAGE ? q(amount, 300) : 0.0f;
        o[OA_HEAL] = d->effect == EFFECT_HEAL ? q(amount, 300) : 0.0f;
        o[OA_RESTORE] = d->effect == EFFECT_RESTORE ? q(amount, 200) : 0.0f;
        o[OA_RANGE] = q(d->range, (int64_t)10 * GOTA_TILE);
        if (d->cast <= CAST_AREA) o[OA_CAST_KIND + d->cast] = 1.0f;
        o[OA_AREA_RADIUS] = d->cast == CAST_AREA ? q(d->radius, (int64_t)3 * GOTA_TILE) : 0.0f;
    }
}

static void observe_items(const GotaMatch *m, int seat, float *o)
{
    const HeroState *h = &m->hero[seat];
    for (int i = 0; i < HERO_ITEM_SLOTS; i++, o += OBS_ITEM_WIDTH) {
        int item = h->item[i], count = h->item_count[i];
        if (item < 1 || item >= ITEM_KINDS || count <= 0) {
            o[OI_ONE_HOT] = 1.0f;   /* none */
            continue;
        }
        o[OI_ONE_HOT + item] = 1.0f;
        o[OI_COUNT_F] = q(count, 4);
        int32_t cd = 0;
        switch (ITEM[item].use) {
        case USE_HEAL_OVER_TIME: case USE_HEAL_NOW: cd = h->hp_item_cd; break;
        case USE_MANA_NOW: case USE_MANA_OVER_TIME: cd = h->mana_item_cd; break;
        case USE_PORTAL: cd = h->portal_cd; break;
        default: break;
        }
        o[OI_COOLDOWN] = clampf(q(cd, 240), 0.0f, 2.0f);
    }
}

/* The features of object j that are the same for every seat of the team
 * (all OBS_OBJECT_WIDTH floats; the seat's own features are left zero). */
static void object_team(const GotaMatch *m, int team, int j, float *o)
{
    const GotaUnit *u = &m->unit[j];
    int s = team == GOTA_TEAM_RED ? 1 : -1;
    memset(o, 0, sizeof(float) * OBS_OBJECT_WIDTH);
    o[OO_PRESENT] = 1.0f;
    o[OO_HP_FRAC] = clampf(q(u->hp, u->max_hp), 0.0f, 1.0f);
    o[OO_HP] = q(u->hp, 2000);
    o[OO_FACTION] = u->team == team ? 1.0f : (u->team == GOTA_TEAM_NEUTRAL ? 0.0f : -1.0f);
    if (u->kind >= GOTA_KIND_GOD && u->kind <= GOTA_KIND_NEUTRAL) o[OO_KIND + u->kind - GOTA_KIND_GOD] = 1.0f;
    o[OO_ALIVE] = u->alive ? 1.0f : 0.0f;
    int hs = u->kind == GOTA_KIND_HERO ? hero_seat_of_slot(m, j) : -1;   /* -1 for any other kind */
    if (hs >= 0) {
        const HeroState *h = &m->hero[hs];
        o[OO_LEVEL] = q(h->level, 20);
        o[OO_MANA] = q(h->mana, 1000);
        o[OO_STUN] = clampf(q(h->stun, 72), 0.0f, 2.0f);
        o[OO_ROOT] = clampf(q(h->root, 72), 0.0f, 2.0f);
        o[OO_SILENCE] = clampf(q(h->silence, 72), 0.0f, 2.0f);
        if (h->cls >= 0 && h->cls < HERO_CLASSES) o[OO_CLASS + h->cls] = 1.0f;
    } else {
        o[OO_STUN] = clampf(q(m->st[j].stun, 72), 0.0f, 2.0f);
        o[OO_ROOT] = clampf(q(m->st[j].root, 72), 0.0f, 2.0f);
    }
    int ts = u->target_id - HERO_ID_BASE;
    o[OO_TARGETS_ALLY] = ts >= 0 && ts < SEATS && hero_team(ts) == team ? 1.0f : 0.0f;
    velocity(m, j, s, &o[OO_VEL_X], &o[OO_VEL_Z]);
    int32_t facing = nav_facing_of(u->facing, &m->st[j].face);
    int32_t fs = sin_q16(facing), fc = sin_q16(facing + 16384);
    o[OO_FACING_X] = q((int64_t)fc * s, CONTRACT_Q16);
    o[OO_FACING_Z] = q((int64_t)fs * s, CONTRACT_Q16);
    if (u->kind == GOTA_KIND_NEUTRAL) {
        o[OO_RETURNING] = camp_returning(m, j) ? 1.0f : 0.0f;
        o[OO_SUB] = q(u->sub, 3);
    } else if (u->kind == GOTA_KIND_CREEP) {
        o[OO_SUB] = (float)u->sub;
    } else if (u->kind == GOTA_KIND_TOWER) {
        o[OO_SUB] = q(u->sub, 3);
    }
}

/* What the object features of a seat read of its own hero, taken once per
 * seat (the engine call between slots would make the compiler load them
 * again). */
typedef struct {
    int32_t slot, x, z, id, target_id, damage, alive, s;
} Viewer;

/* Object slot k of a seat: the team's block of the unit (built at its first
 * use by any seat of the team), then the seat's own features. Writes all
 * OBS_OBJECT_WIDTH floats, zeros for an empty slot. */
static void observe_object(const GotaMatch *m, ContractTeam *ct, const ContractSlots *cs, const Viewer *v, int k,
                           float *o)
{
    int j = cs->unit[k];
    if (j < 0) {
        memset(o, 0, sizeof(float) * OBS_OBJECT_WIDTH);
        return;
    }
    int b = ct->block_of[j];
    if (b >= 0) {
        memcpy(o, ct->block[b], sizeof(float) * OBS_OBJECT_WIDTH);
    } else if (ct->block_n < CONTRACT_TEAM_BLOCKS) {
        b = ct->block_n++;
        ct->block_of[j] = (int16_t)b;
        object_team(m, ct->team, j, ct->block[b]);
        memcpy(o, ct->block[b], sizeof(float) * OBS_OBJECT_WIDTH);
    } else {
        object_team(m, ct->team, j, o);   /* more units than a team's seats can show: not kept */
    }
    const GotaUnit *u = &m->unit[j];
    int64_t dx = (int64_t)u->x - v->x, dz = (int64_t)u->z - v->z;
    o[OO_DX] = clampf(q(dx * v->s, TILES16), -4.0f, 4.0f);
    o[OO_DZ] = clampf(q(dz * v->s, TILES16), -4.0f, 4.0f);
    o[OO_DIST] = clampf(q(fx_isqrt64((uint64_t)(dx * dx + dz * dz)), TILES16), 0.0f, 8.0f);
    /* the hero's relations to itself stay the block's zeros */
    if (k == CSLOT_SELF) return;
    o[OO_TARGETS_ME] = u->target_id == v->id ? 1.0f : 0.0f;
    o[OO_IS_MY_TARGET] = v->target_id == u->id ? 1.0f : 0.0f;
    o[OO_KILLABLE] = u->hp <= v->damage ? 1.0f : 0.0f;
    o[OO_IN_RANGE] = v->alive && unit_attack_reach_ok(m, v->slot, j, v->x, v->z) ? 1.0f : 0.0f;
}

/* A pending spell the team may know of. */
static int spell_known(const GotaMatch *m, int team, const Spell *sp)
{
    return sp->impact_tick >= m->tick &&
           (sp->team == team || vision_sees_point(&m->vision, team, sp->aim_x, sp->aim_z));
}

static void observe_warnings(const GotaMatch *m, const ContractSlots *cs, float *o)
{
    const GotaUnit *me = &m->unit[cs->self];
    int32_t pick[OBS_WARNING_COUNT];
    int64_t pick_d[OBS_WARNING_COUNT];
    int n = 0;
    for (int i = 0; i < m->spell_n; i++) {
        const Spell *sp = &m->spell[i];
        if (!spell_known(m, cs->team, sp)) continue;
        int64_t d = fx_dist2(me->x, me->z, sp->aim_x, sp->aim_z);
        /* sorted by impact tick, then distance, then spell order */
        int at = n;
        while (at > 0) {
            const Spell *o2 = &m->spell[pick[at - 1]];
            if (sp->impact_tick < o2->impact_tick || (sp->impact_tick == o2->impact_tick && d < pick_d[at - 1])) at--;
            else break;
        }
        if (at >= OBS_WARNING_COUNT) continue;
        int last = n < OBS_WARNING_COUNT ? n : OBS_WARNING_COUNT - 1;
        for (int k = last; k > at; k--) { pick[k] = pick[k - 1]; pick_d[k] = pick_d[k - 1]; }
        pick[at] = i;
        pick_d[at] = d;
        if (n < OBS_WARNING_COUNT) n++;
    }
    for (int k = 0; k < n; k++, o += OBS_WARNING_WIDTH) {
        const Spell *sp = &m->spell[pick[k]];
        int64_t dx = (int64_t)sp->aim_x - me->x, dz = (int64_t)sp->aim_z - me->z;
        const AbilityDef *d = &HERO_CLASS[sp->cls].ability[sp->ability];
        o[OW_PRESENT] = 1.0f;
        o[OW_DX] = clampf(q(dx * cs->s, TILES16), -4.0f, 4.0f);
        o[OW_DZ] = clampf(q(dz * cs->s, TILES16), -4.0f, 4.0f);
        o[OW_DIST] = clampf(q(fx_isqrt64((uint64_t)pick_d[k]), TILES16), 0.0f, 8.0f);
        o[OW_TICKS] = clampf(q(sp->impact_tick - m->tick, 72), 0.0f, 4.0f);
        o[OW_HOSTILE] = sp->team != cs->team ? 1.0f : 0.0f;
        o[OW_HARMLESS] = d->effect != EFFECT_DAMAGE ? 1.0f : 0.0f;
        o[OW_ABILITY] = q(sp->cls * HERO_ABILITIES + sp->ability, HERO_CLASSES * HERO_ABILITIES);
    }
}

/* An enemy building the team still believes standing. */
static int believed_standing(const GotaMatch *m, int team, int b)
{
    return m->building_alive[b] || (m->map->building[b].team != team && !m->seen_destroyed[team][b]);
}

/* The summary features that are the same for every seat of the team. */
static void observe_summary_team(const GotaMatch *m, int team, float *o)
{
    int enemy = 1 - team;
    memset(o, 0, sizeof(float) * OBS_SUMMARY_SIZE);
    int own_t = 0, own_tn = 0, own_b = 0, own_bn = 0, en_t = 0, en_tn = 0, en_b = 0, en_bn = 0;
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        if (mb->kind != GOTA_KIND_TOWER && mb->kind != GOTA_KIND_BARRACKS) continue;
        int tower = mb->kind == GOTA_KIND_TOWER;
        if (mb->team == team) {
            if (tower) { own_tn++; own_t += m->building_alive[b] != 0; }
            else { own_bn++; own_b += m->building_alive[b] != 0; }
        } else {
            int up = believed_standing(m, team, b);
            if (tower) { en_tn++; en_t += up; }
            else { en_bn++; en_b += up; }
        }
    }
    int g = m->god_slot[team];
    if (g >= 0) {
        o[OM_OWN_GOD_HP] = clampf(q(m->unit[g].hp, m->unit[g].max_hp), 0.0f, 1.0f);
        o[OM_OWN_GOD_EXPOSED] = m->unit[g].exposed ? 1.0f : 0.0f;
    }
    o[OM_OWN_TOWERS] = q(own_t, own_tn);
    o[OM_OWN_BARRACKS] = q(own_b, own_bn);
    o[OM_ENEMY_TOWERS] = q(en_t, en_tn);
    o[OM_ENEMY_BARRACKS] = q(en_b, en_bn);
    g = m->god_slot[enemy];
    o[OM_ENEMY_GOD_HP] = g >= 0 && m->seen[team][g] ? clampf(q(m->unit[g].hp, m->unit[g].max_hp), 0.0f, 1.0f) : -1.0f;
    int alive = 0, visible = 0, own_levels = 0, foe_levels = 0;
    for (int q2 = 0; q2 < SEATS; q2++) {
        int j = seat_hero(m, q2);
        if (j < 0) continue;
        if (hero_team(q2) == team) {
            alive += m->unit[j].alive != 0;
            own_levels += m->hero[q2].level;
        } else if (m->unit[j].alive && m->seen[team][j]) {
            visible++;
            foe_levels += m->hero[q2].level;
        }
    }
    o[OM_OWN_ALIVE] = q(alive, SEATS_PER_TEAM);
    o[OM_ENEMIES_VISIBLE] = q(visible, SEATS_PER_TEAM);
    int64_t wave = m->cfg.wave_interval > 0 ? m->cfg.wave_interval : 1;
    o[OM_WAVE] = q(m->tick % wave, wave);
    o[OM_OWN_LEVELS] = q(own_levels, 50);
    o[OM_ENEMY_LEVELS] = q(foe_levels, 50);
}

static void observe_summary(const GotaMatch *m, const ContractTeam *ct, int seat, float *o)
{
    memcpy(o, ct->summary, sizeof(float) * OBS_SUMMARY_SIZE);
    o[OM_SCORE] = q(economy_hero_score(m, seat), 5000);
    o[OM_KILLS] = q(m->hero[seat].stats.kills, 10);
    o[OM_ASSISTS] = q(m->hero[seat].stats.assists, 10);
    o[OM_RESERVED] = 0.0f;
}

static int32_t clamp_world(int64_t v, int32_t lim)
{
    return (int32_t)(v < -lim ? -lim : (v > lim ? lim : v));
}

/* The window cells [*lo, *hi) whose tile first + c * step is on the map
 * (a contiguous run: the tiles are monotonic in c). */
static void terrain_run(int first, int step, int *lo, int *hi)
{
    int a = 0, b = OBS_TERRAIN_SIDE;
    while (a < b && (first + a * step < 0 || first + a * step >= MAP_N)) a++;
    while (b > a && (first + (b - 1) * step < 0 || first + (b - 1) * step >= MAP_N)) b--;
    *lo = a;
    *hi = b;
}

/* The window cell of tile coordinate t along one axis, -1 when none. */
static int terrain_cell(int t, int first, int step)
{
    int off = (t - first) * (step > 0 ? 1 : -1);
    return off >= 0 && off % OBS_TERRAIN_STEP == 0 && off / OBS_TERRAIN_STEP < OBS_TERRAIN_SIDE
               ? off / OBS_TERRAIN_STEP : -1;
}

static void observe_terrain(const GotaMatch *m, const ContractTeam *ct, const ContractSlots *cs, float *o)
{
    const GotaUnit *me = &m->unit[cs->self];
    int s = cs->s;
    /* the hero's tile in the team frame; cells step by +-OBS_TERRAIN_STEP
     * tiles from the first one in world tiles (mirrored for blue) */
    int tx0 = map_tile_of(clamp_world((int64_t)me->x * s, MAP_HALF_WORLD - 1));
    int tz0 = map_tile_of(clamp_world((int64_t)me->z * s, MAP_HALF_WORLD - 1));
    const int half = OBS_TERRAIN_SIDE / 2 * OBS_TERRAIN_STEP;
    const int step = s > 0 ? OBS_TERRAIN_STEP : -OBS_TERRAIN_STEP;
    int tx_first = s > 0 ? tx0 - half : MAP_N - 1 - (tx0 - half);
    int tz_first = s > 0 ? tz0 - half : MAP_N - 1 - (tz0 - half);
    /* off-map cells stay 0; on-map ones are nav_open */
    memset(o, 0, sizeof(float) * OBS_TERRAIN_SIZE);
    int c0, c1, r0, r1;
    terrain_run(tx_first, step, &c0, &c1);
    terrain_run(tz_first, step, &r0, &r1);
    const uint8_t *walk = m->map->walkable, *occ = m->nav.occupied;
    for (int r = r0; r < r1; r++) {
        float *row = o + r * OBS_TERRAIN_SIDE;
        int t = map_index(tx_first + c0 * step, tz_first + r * step);
        for (int c = c0; c < c1; c++, t += step) row[c] = walk[t] && !occ[t] ? 1.0f : 0.0f;
    }
    /* footprints of fallen enemy buildings the team has not seen fall are
     * closed: their tiles that are window cells */
    for (int k = 0; k < ct->ghost_n; k++) {
        const MapBuilding *mb = &m->map->building[ct->ghost[k]];
        for (int f = 0; f < mb->footprint_n; f++) {
            int c = terrain_cell(mb->footprint[f] % MAP_N, tx_first, step);
            int r = terrain_cell(mb->footprint[f] / MAP_N, tz_first, step);
            if (c >= 0 && r >= 0) o[r * OBS_TERRAIN_SIDE + c] = 0.0f;
        }
    }
}

void contract_observe_team(const GotaMatch *m, ContractTeam *ct, const ContractSlots *cs, int seat, float *obs)
{
    if (cs->self < 0) {
        memset(obs, 0, sizeof(float) * OBS_SIZE);
        return;
    }
    /* zeros where features are written only when set; the object, summary
     * and terrain blocks are written whole */
    memset(obs, 0, sizeof(float) * OBS_OBJECT);
    memset(obs + OBS_WARNING, 0, sizeof(float) * OBS_WARNING_SIZE);
    memset(obs + OBS_GOAL, 0, sizeof(float) * OBS_GOAL_SIZE);
    observe_self(m, cs, seat, obs + OBS_SELF);
    observe_abilities(m, seat, obs + OBS_ABILITY);
    observe_items(m, seat, obs + OBS_ITEM);
    const GotaUnit *me = &m->unit[cs->self];
    Viewer v = {cs->self, me->x, me->z, me->id, me->target_id, me->damage, me->alive, cs->s};
    for (int k = 0; k < CONTRACT_SLOTS; k++) observe_object(m, ct, cs, &v, k, obs + OBS_OBJECT + k * OBS_OBJECT_WIDTH);
    observe_warnings(m, cs, obs + OBS_WARNING);
    observe_summary(m, ct, seat, obs + OBS_SUMMARY);
    observe_terrain(m, ct, cs, obs + OBS_TERRAIN);
    /* OBS_GOAL: zeros; the trainer writes the seat's goal weights there */
}

void contract_observe_slots(const GotaMatch *m, const ContractSlots *cs, int seat, float *obs)
{
    if (cs->self < 0) {
        memset(obs, 0, sizeof(float) * OBS_SIZE);
        return;
    }
    ContractTeam ct;
    contract_team(m, cs->team, &ct);
    contract_observe_team(m, &ct, cs, seat, obs);
}

int contract_observe(const GotaMatch *m, int seat, float *obs)
{
    ContractSlots cs;
    ContractTeam ct;
    if (seat_hero(m, seat) < 0) {
        memset(obs, 0, sizeof(float) * OBS_SIZE);
        return -1;
    }
    contract_team(m, hero_team(seat), &ct);
    contract_slots_team(m, &ct, seat, &cs);
    contract_observe_team(m, &ct, &cs, seat, obs);
    return 0;
}

/* ---- layout table, feature names, hash ----------------------------------- */
static const ContractEntry ENTRIES[] = {
    {"obs", 0, 1, OBS_SIZE},
    {"obs.self", OBS_SELF, 1, OBS_SELF_SIZE},
    {"obs.ability", OBS_ABILITY, OBS_ABILITY_COUNT, OBS_ABILITY_WIDTH},
    {"obs.item", OBS_ITEM, OBS_ITEM_COUNT, OBS_ITEM_WIDTH},
    {"obs.object", OBS_OBJECT, OBS_OBJECT_COUNT, OBS_OBJECT_WIDTH},
    {"obs.warning", OBS_WARNING, OBS_WARNING_COUNT, OBS_WARNING_WIDTH},
    {"obs.summary", OBS_SUMMARY, 1, OBS_SUMMARY_SIZE},
    {"obs.terrain", OBS_TERRAIN, OBS_TERRAIN_SIDE, OBS_TERRAIN_SIDE},
    {"obs.goal", OBS_GOAL, 1, OBS_GOAL_SIZE},
    {"head.verb", MASK_FLAT_VERB, 1, CONTRACT_VERBS},
    {"head.target", MASK_FLAT_TARGET, 1, CONTRACT_TARGETS},
    {"head.point", MASK_FLAT_POINT, 1, CONTRACT_POINTS},
    {"head.ability", MASK_FLAT_ABILITY, 1, CONTRACT_ABILITIES},
    {"head.item", MASK_FLAT_ITEM, 1, CONTRACT_ITEMS},
    {"logits", 0, 1, CONTRACT_LOGITS},
    {"mask", 0, 1, MASK_SIZE},
    {"mask.verb", MASK_VERB, 1, MASK_VERB_SIZE},
    {"mask.cast_target_ability", MASK_CAST_TARGET_ABILITY, 1, CONTRACT_ABILITIES},
    {"mask.target_rows", MASK_ROWS, MASK_ROW_COUNT, CONTRACT_TARGETS},
    {"mask.cast_point_ability", MASK_CAST_POINT_ABILITY, 1, CONTRACT_ABILITIES},
    {"mask.use_item", MASK_USE_ITEM, 1, CONTRACT_ITEMS},
    {"mask.use_item_at", MASK_USE_ITEM_AT, 1, CONTRACT_ITEMS},
    {"mask_flat", 0, 1, MASK_FLAT_SIZE},
    {"slot.self", CSLOT_SELF, 1, 1},
    {"slot.ally", CSLOT_ALLY, 1, 4},
    {"slot.enemy_hero", CSLOT_ENEMY_HERO, 1, 5},
    {"slot.creep", CSLOT_CREEP, 1, CSLOT_CREEPS},
    {"slot.own_god", CSLOT_OWN_GOD, 1, 1},
    {"slot.enemy_god", CSLOT_ENEMY_GOD, 1, 1},
    {"slot.own_tower", CSLOT_OWN_TOWER, 1, 1},
    {"slot.enemy_structure", CSLOT_ENEMY_STRUCTURE, 1, 1},
    {"slot.neutral", CSLOT_NEUTRAL, 1, CSLOT_NEUTRALS},
};
#define ENTRY_N ((int32_t)(sizeof ENTRIES / sizeof ENTRIES[0]))

/* Names carry the normalisation ("/2000": divided by 2000; "[0,2]": clamped). */
static const char *const SELF_NAMES[OBS_SELF_SIZE] = {
    "alive", "hp_frac", "mana_frac", "max_hp/2000", "max_mana/1000", "gold/1000", "level/20",
    "xp_progress[0,1]", "xp_total/20000", "x*s/64tiles", "z*s/64tiles", "team(0red,1blue)",
    "tick/max_ticks", "attack_cooldown/48[0,2]", "attack_range/10tiles", "attack_damage/200",
    "speed_tiles_per_s/5", "has_attack_target", "stun/72[0,2]", "root/72[0,2]", "silence/72[0,2]",
    "channel/72[0,2]", "portal_cooldown/1440[0,2]", "respawn/1440[0,2]", "ability_points/4",
    "in_own_spawn", "can_shop", "deaths/10", "last_command_error", "buyback_affordable",
    "class0", "class1", "class2", "class3", "class4", "class5", "class6", "class7", "class8", "class9",
    "role_frontline", "role_carry", "role_mage", "role_support", "role_fighter",
    "vel_x*s*10tiles/tick[-4,4]", "vel_z*s*10tiles/tick[-4,4]", "has_move_order",
};
static const char *const ABILITY_NAMES[OBS_ABILITY_WIDTH] = {
    "rank/max", "learned", "cooldown/240[0,2]", "charges/3", "recharge/240[0,2]", "mana_cost/200",
    "castable", "damage/300", "heal/300", "restore/200", "range/10tiles", "cast_self", "cast_melee",
    "cast_projectile", "cast_area", "area_radius/3tiles",
};
static const char *const ITEM_NAMES[OBS_ITEM_WIDTH] = {
    "item0_none", "item1", "item2", "item3", "item4", "item5", "item6", "item7", "item8", "item9",
    "item10", "item11", "item12", "item13", "item14", "item15", "item16", "item17", "item18",
    "item19", "item20", "item21", "item22", "count/4", "cooldown/240[0,2]",
};
static const char *const OBJECT_NAMES[OBS_OBJECT_WIDTH] = {
    "present", "dx*s/16tiles[-4,4]", "dz*s/16tiles[-4,4]", "dist/16tiles[0,8]", "hp_frac", "hp/2000",
    "faction(+1own,-1enemy,0neutral)", "kind_god", "kind_hero", "kind_creep", "kind_tower",
    "kind_barracks", "kind_neutral", "alive", "level/20", "mana/1000", "targets_me", "is_my_target",
    "targets_allied_hero", "stun/72[0,2]", "root/72[0,2]", "silence/72[0,2]",
    "vel_x*s*10tiles/tick[-4,4]", "vel_z*s*10tiles/tick[-4,4]", "facing_x*s", "facing_z*s",
    "in_my_attack_reach", "hp<=my_damage", "returning", "creep_kind|tier/3", "class0", "class1",
    "class2", "class3", "class4", "class5", "class6", "class7", "class8", "class9",
};
static const char *const WARNING_NAMES[OBS_WARNING_WIDTH] = {
    "present", "aim_dx*s/16tiles[-4,4]", "aim_dz*s/16tiles[-4,4]", "aim_dist/16tiles[0,8]",
    "ticks_to_impact/72[0,4]", "hostile", "harmless", "ability_id/40",
};
static const char *const SUMMARY_NAMES[OBS_SUMMARY_SIZE] = {
    "own_god_hp_frac", "own_god_exposed", "own_towers_alive_frac", "own_barracks_alive_frac",
    "enemy_towers_known_alive_frac", "enemy_barracks_known_alive_frac", "enemy_god_hp_frac|-1",
    "own_heroes_alive/5", "visible_enemy_heroes/5", "wave_timer_frac", "own_level_sum/50",
    "visible_enemy_level_sum/50", "score/5000", "kills/10", "assists/10", "reserved0",
};
static const char *const GOAL_NAMES[OBS_GOAL_SIZE] = {
    "w_score", "w_win", "w_xp", "w_gold", "w_hero_kill", "w_assist", "w_death", "w_last_hit",
    "w_neutral_kill", "w_tower_damage", "w_structure_kill", "w_hero_damage", "w_damage_taken",
    "w_push_depth", "w_god_damage", "w_reserved",
};

int32_t contract_entries(void) { return ENTRY_N; }

const ContractEntry *contract_entry(int32_t i)
{
    return i >= 0 && i < ENTRY_N ? &ENTRIES[i] : NULL;
}

int32_t contract_find(const char *name)
{
    if (!name) return -1;
    for (int32_t i = 0; i < ENTRY_N; i++)
        if (strcmp(ENTRIES[i].name, name) == 0) return i;
    return -1;
}

const char *contract_feature(int32_t i, int32_t f)
{
    if (i < 0 || i >= ENTRY_N || f < 0 || f >= ENTRIES[i].width) return NULL;
    const char *n = ENTRIES[i].name;
    if (!strcmp(n, "obs.self")) return SELF_NAMES[f];
    if (!strcmp(n, "obs.ability")) return ABILITY_NAMES[f];
    if (!strcmp(n, "obs.item")) return ITEM_NAMES[f];
    if (!strcmp(n, "obs.object")) return OBJECT_NAMES[f];
    if (!strcmp(n, "obs.warning")) return WARNING_NAMES[f];
    if (!strcmp(n, "obs.summary")) return SUMMARY_NAMES[f];
    if (!strcmp(n, "obs.goal")) return GOAL_NAMES[f];
    return NULL;
}

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv_bytes(h, s, strlen(s) + 1);
}

/* int32 as 4 little-endian bytes, so the hash does not depend on the host */
static uint64_t fnv_i32(uint64_t h, int32_t v)
{
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
    return fnv_bytes(h, b, 4);
}

uint64_t contract_hash(void)
{
    uint64_t h = 14695981039346656037ull;
    h = fnv_str(h, "gota-contract");
    h = fnv_i32(h, CONTRACT_VERSION);
    for (int32_t i = 0; i < ENTRY_N; i++) {
        h = fnv_str(h, ENTRIES[i].name);
        h = fnv_i32(h, ENTRIES[i].offset);
        h = fnv_i32(h, ENTRIES[i].count);
        h = fnv_i32(h, ENTRIES[i].width);
        for (int32_t f = 0; f < ENTRIES[i].width; f++) {
            const char *n = contract_feature(i, f);
            if (n) h = fnv_str(h, n);
        }
    }
    /* decoding constants */
    for (int k = 0; k < CONTRACT_DIRS; k++) {
        int32_t c, s;
        contract_direction(k, &c, &s);
        h = fnv_i32(h, c);
        h = fnv_i32(h, s);
    }
    static const int32_t rings[6] = {RING_MOVE_0, RING_MOVE_1, RING_MOVE_2, RING_AIM_0, RING_AIM_1, RING_AIM_2};
    for (int k = 0; k < 6; k++) h = fnv_i32(h, rings[k]);
    h = fnv_i32(h, GOTA_TILE);
    h = fnv_i32(h, CONTRACT_RIM);
    h = fnv_i32(h, OBS_TERRAIN_STEP);
    return h;
}
