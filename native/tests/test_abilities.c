/*
 * test_abilities.c -- casting and spells (docs/rules.md section 3.2) with its
 * numbers: the validation order, charges and recharge, rank scaling, mana,
 * self-casts, projectile flight time, every area shape's edges, allies and
 * unexposed towers spared, heals on allied heroes only, height, controls,
 * ground-aimed projectiles and strikes, the public spell view, bad input.
 *
 * White box: the match has the ten classes on seats 0..9 (class = seat: red
 * Vanguard, Ranger, Arcanist, Druid, Demon Hunter; blue Death Knight,
 * Crossbowman, Lich, Warlock, Berserker). Scenes are built on a flat stretch
 * of low ground (tiles 30..50 x 8..14); everything is visible unless a test
 * hides a tile. Ticks are driven by hand (snapshot, spells, combat) so no
 * other rule (towers, orders, camps) interferes; one test runs the real tick.
 */
#include <stdio.h>
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "check.h"
#include "scenario.h"

#define TILE_X(tx) ((tx) * GOTA_TILE - MAP_HALF_WORLD + GOTA_TILE / 2)
#define BX TILE_X(38)   /* the scene's base point, tile (38, 11) */
#define BZ TILE_X(11)

enum { VANGUARD = 0, RANGER = 1, ARCANIST = 2, DRUID = 3, HUNTER = 4,
       DEATH_KNIGHT = 5, CROSSBOW = 6, LICH = 7, WARLOCK = 8, BERSERKER = 9 };
enum { Q = 0, W = 1, E = 2, R = 3 };

static void see_everything(GotaMatch *m)
{
    for (int t = 0; t < 2; t++) {
        for (int tz = 0; tz < MAP_N; tz++) {
            m->vision.grid[t][tz][0] = ~0ull;
            m->vision.grid[t][tz][1] = (1ull << (MAP_N - 64)) - 1;
        }
        for (int i = 0; i < GOTA_MAX_UNITS; i++) m->seen[t][i] = 1;
    }
}

static void hide_tile(GotaMatch *m, int team, int32_t x, int32_t z)
{
    int tx = map_tile_of(x), tz = map_tile_of(z);
    m->vision.grid[team][tz][tx >> 6] &= ~(1ull << (tx & 63));
}

static GotaMatch *new_match(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    for (int s = 0; s < SEATS; s++) {
        char key[24];
        snprintf(key, sizeof key, "class_%d", s);
        gota_config_set(&cfg, key, s);
    }
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    if (m) see_everything(m);
    return m;
}

static int hero(const GotaMatch *m, int seat) { return m->hero_slot[seat]; }

/* Put a hero at (x, z), alive, full HP and mana, no controls. */
static void place_hero(GotaMatch *m, int seat, int32_t x, int32_t z)
{
    int s = hero(m, seat);
    GotaUnit *u = &m->unit[s];
    HeroState *h = &m->hero[seat];
    u->x = m->snap_x[s] = x;
    u->z = m->snap_z[s] = z;
    u->alive = 1;
    u->hp = u->max_hp;
    u->facing = 0;
    h->mana = h->max_mana;
    h->stun = h->root = h->silence = h->channel = 0;
    h->respawn_at = 0;
}

/* Learn ability `ab` at `rank` with full charges, no timers and full mana. */
static void learn(GotaMatch *m, int seat, int ab, int rank)
{
    HeroState *h = &m->hero[seat];
    h->mana = h->max_mana;
    h->rank[ab] = rank;
    h->charges[ab] = HERO_CLASS[h->cls].ability[ab].charges;
    h->cooldown[ab] = 0;
    h->recharge[ab] = 0;
}

/* A sturdy stand-in unit: a lane creep (or a neutral) with 1,000 HP. */
static int put_unit(GotaMatch *m, int kind, int team, int32_t x, int32_t z)
{
    int slot = scenario_unit(m, kind, team, x, z, 1000);
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    m->snap_x[slot] = x;
    m->snap_z[slot] = z;
    u->damage = CREEP_DAMAGE;
    u->range = CREEP_MELEE_RANGE;
    u->lane = kind == GOTA_KIND_CREEP ? 1 : -1;
    u->radius_q = 22;
    s->speed = CREEP_SPEED;
    s->period = CREEP_PERIOD;
    s->windup = CREEP_HIT_TICK;
    s->waypoint = m->map->lane_n[1];
    if (kind == GOTA_KIND_CREEP) m->lane_creeps++;
    m->seen[0][slot] = m->seen[1][slot] = 1;
    return slot;
}

static int creep(GotaMatch *m, int team, int32_t dx, int32_t dz)
{
    return put_unit(m, GOTA_KIND_CREEP, team, BX + dx, BZ + dz);
}

static int32_t lost(const GotaMatch *m, int slot) { return m->unit[slot].max_hp - m->unit[slot].hp; }

/* One tick of the phases that matter here: snapshot, spells, combat. */
static void spell_tick(GotaMatch *m)
{
    m->tick++;
    match_snapshot(m);
    spells_update(m);
    combat_resolve(m);
}

static void spell_ticks(GotaMatch *m, int n)
{
    for (int i = 0; i < n; i++) spell_tick(m);
}

static int building_slot_of(const GotaMatch *m, int kind, int team, int lane, int tier)
{
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        if (b->kind == kind && b->team == team && b->lane == lane && b->tier == tier) return m->building_slot[i];
    }
    return -1;
}

/* ---- tests ---------------------------------------------------------------- */
static void test_scene_is_flat(void)
{
    const MapData *map = map_get();
    int flat = 1;
    for (int tz = 8; tz <= 14; tz++)
        for (int tx = 30; tx <= 50; tx++) flat &= map->height8[map_index(tx, tz)] == 0;
    CHECK(flat);
    /* every sector in the content has an exact angle test */
    for (int c = 0; c < HERO_CLASSES; c++)
        for (int a = 0; a < HERO_ABILITIES; a++) {
            const AbilityDef *d = &HERO_CLASS[c].ability[a];
            if (d->shape != SHAPE_SECTOR) continue;
            Spell s = {.dir_x = 65536, .dir_z = 0};
            CHECK(ability_shape_contains(&s, d, d->radius / 2, 0));
        }
}

static void test_validation_order(void)
{
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    place_hero(m, DEATH_KNIGHT, BX + 60000, BZ);
    int target = m->unit[hero(m, DEATH_KNIGHT)].id;
    HeroState *h = &m->hero[VANGUARD];
    GotaUnit *u = &m->unit[hero(m, VANGUARD)];

    CHECK_EQ(ability_cast_target(NULL, VANGUARD, W, target), GOTA_ACT_NO_HERO);
    CHECK_EQ(ability_cast_target(m, -1, W, target), GOTA_ACT_NO_HERO);
    CHECK_EQ(ability_cast_point(m, SEATS, W, BX, BZ), GOTA_ACT_NO_HERO);
    /* a bad slot first of all, even for a dead hero */
    u->alive = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, -1, target), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(ability_cast_target(m, VANGUARD, 4, target), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(ability_cast_point(m, VANGUARD, 1000, BX, BZ), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(ability_cast_point(m, VANGUARD, -2147483647 - 1, BX, BZ), GOTA_ACT_BAD_SLOT);

    /* every state problem at once; each answer is the first in the rules' order */
    h->channel = 10;
    h->stun = 10;
    h->silence = 10;
    h->rank[W] = 0;
    h->cooldown[W] = 10;
    h->charges[W] = 0;
    h->mana = 0;
    m->spell_n = SPELL_MAX;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_DEAD);
    u->alive = 1;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_CHANNELING);
    h->channel = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_STUNNED);
    h->stun = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_SILENCED);   /* not NO_MANA */
    CHECK_EQ(ability_cast_point(m, VANGUARD, W, BX, BZ), GOTA_ACT_SILENCED);
    h->silence = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_NOT_LEARNED);
    h->rank[W] = 1;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_TOO_MANY_SPELLS);
    m->spell_n = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_COOLDOWN);
    h->cooldown[W] = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_NO_CHARGES);
    h->charges[W] = 3;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_NO_MANA);
    h->mana = 19;   /* Firebrand Sword costs 20 */
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, target), GOTA_ACT_NO_MANA);
    h->mana = 20;

    /* object targets: exists, alive / attackable, visible, hostile, in range */
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, 999999), GOTA_ACT_BAD_TARGET);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, 0), GOTA_ACT_BAD_TARGET);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, -5), GOTA_ACT_BAD_TARGET);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, 100 + RANGER), GOTA_ACT_BAD_TARGET);   /* an ally */
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, 100 + VANGUARD), GOTA_ACT_BAD_TARGET);  /* itself */
    int dead = creep(m, GOTA_TEAM_BLUE, 30000, 0);
    m->unit[dead].alive = 0;
    m->seen[0][dead] = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, m->unit[dead].id), GOTA_ACT_BAD_TARGET);
    int hidden = creep(m, GOTA_TEAM_BLUE, 30000, 0);
    m->seen[0][hidden] = 0;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, m->unit[hidden].id), GOTA_ACT_NOT_VISIBLE);
    int inner = building_slot_of(m, GOTA_KIND_TOWER, GOTA_TEAM_BLUE, 0, GOTA_TIER_INNER);
    CHECK_EQ(m->unit[inner].exposed, 0);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, m->unit[inner].id), GOTA_ACT_BAD_TARGET);
    int far = creep(m, GOTA_TEAM_BLUE, 90001, 0);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, m->unit[far].id), GOTA_ACT_OUT_OF_RANGE);
    int edge = put_unit(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, BX, BZ - 90000);   /* neutrals are fair game */

    /* nothing was paid for any refusal */
    CHECK_EQ(h->mana, 20);
    CHECK_EQ(h->charges[W], 3);
    CHECK_EQ(h->cooldown[W], 0);
    CHECK_EQ(h->recharge[W], 0);
    CHECK_EQ(m->spell_n, 0);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, m->unit[edge].id), GOTA_ACT_OK);

    /* heals: an allied hero only (the caster too) */
    place_hero(m, DRUID, BX, BZ + 60000);
    learn(m, DRUID, W, 1);   /* Healing Bloom, range 240,000 */
    CHECK_EQ(ability_cast_target(m, DRUID, W, target), GOTA_ACT_BAD_TARGET);
    int ally_creep = creep(m, GOTA_TEAM_RED, 0, 30000);
    CHECK_EQ(ability_cast_target(m, DRUID, W, m->unit[ally_creep].id), GOTA_ACT_BAD_TARGET);
    place_hero(m, RANGER, BX + 300001, BZ + 60000);
    CHECK_EQ(ability_cast_target(m, DRUID, W, 100 + RANGER), GOTA_ACT_OUT_OF_RANGE);
    m->seen[GOTA_TEAM_RED][hero(m, RANGER)] = 0;   /* an ally is always visible to its team */
    place_hero(m, RANGER, BX + 240000, BZ + 60000);
    CHECK_EQ(ability_cast_target(m, DRUID, W, 100 + RANGER), GOTA_ACT_OK);
    learn(m, DRUID, W, 1);
    CHECK_EQ(ability_cast_target(m, DRUID, W, 100 + DRUID), GOTA_ACT_OK);

    /* ground points: inside the map, visible after the pull-back */
    learn(m, DRUID, W, 1);
    CHECK_EQ(ability_cast_point(m, DRUID, W, MAP_HALF_WORLD, BZ), GOTA_ACT_BAD_POINT);
    CHECK_EQ(ability_cast_point(m, DRUID, W, -2147483647 - 1, 2147483647), GOTA_ACT_BAD_POINT);
    hide_tile(m, GOTA_TEAM_RED, BX + 120000, BZ + 60000);
    CHECK_EQ(ability_cast_point(m, DRUID, W, BX + 120000, BZ + 60000), GOTA_ACT_NOT_VISIBLE);
    /* beyond range: pulled back to 240,000 along the line */
    int n = m->spell_n;
    CHECK_EQ(ability_cast_point(m, DRUID, W, BX + 1000000, BZ + 60000), GOTA_ACT_OK);
    CHECK_EQ(m->spell[n].aim_x, BX + 240000);
    CHECK_EQ(m->spell[n].aim_z, BZ + 60000);
    /* a pull-back onto a hidden tile is refused */
    learn(m, DRUID, W, 1);
    hide_tile(m, GOTA_TEAM_RED, BX, BZ + 60000 + 240000);
    CHECK_EQ(ability_cast_point(m, DRUID, W, BX, BZ + 60000 + 900000), GOTA_ACT_NOT_VISIBLE);
    gota_match_free(m);
}

static void test_accept_pays(void)
{
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    place_hero(m, DEATH_KNIGHT, BX, BZ + 80000);   /* straight "south" (+z) */
    learn(m, VANGUARD, W, 1);
    HeroState *h = &m->hero[VANGUARD];
    int caster = hero(m, VANGUARD);
    m->st[caster].swing = 5;
    int32_t mana = h->mana;
    m->tick = 100;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, 100 + DEATH_KNIGHT), GOTA_ACT_OK);
    CHECK_EQ(h->mana, mana - 20);
    CHECK_EQ(h->charges[W], 2);
    CHECK_EQ(h->cooldown[W], 48);
    CHECK_EQ(h->recharge[W], 288);
    CHECK_EQ(m->st[caster].swing, -1);
    CHECK(m->unit[caster].facing >= 16384 - 2 && m->unit[caster].facing <= 16384 + 2);
    CHECK_EQ(m->spell_n, 1);
    const Spell *s = &m->spell[0];
    CHECK_EQ(s->caster, caster);
    CHECK_EQ(s->caster_id, 100 + VANGUARD);
    CHECK_EQ(s->team, GOTA_TEAM_RED);
    CHECK_EQ(s->ability, W);
    CHECK_EQ(s->amount, 40);
    CHECK_EQ(s->target, hero(m, DEATH_KNIGHT));
    CHECK_EQ(s->target_id, 100 + DEATH_KNIGHT);
    CHECK_EQ(s->cast_tick, 100);
    CHECK_EQ(s->impact_tick, 100);   /* melee: no delay; resolves on the next tick */
    CHECK_EQ(s->dir_x, 0);
    CHECK_EQ(s->dir_z, 65536);
    spell_tick(m);
    CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), 40);
    CHECK_EQ(m->spell_n, 0);
    CHECK_EQ(m->hero[VANGUARD].stats.hero_damage, 40);
    gota_match_free(m);
}

static void timers(GotaMatch *m, int n)
{
    for (int i = 0; i < n; i++) {
        m->tick++;
        heroes_timers(m);
    }
}

static void test_charges(void)
{
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    place_hero(m, DEATH_KNIGHT, BX + 60000, BZ);
    learn(m, VANGUARD, W, 1);
    HeroState *h = &m->hero[VANGUARD];
    const AbilityDef *fire = &HERO_CLASS[VANGUARD].ability[W];
    CHECK_EQ(fire->charges, 3);
    CHECK_EQ(fire->cooldown, 48);
    CHECK_EQ(fire->recharge, 288);
    int t = 100 + DEATH_KNIGHT;
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_OK);   /* 2 left, recharge 288 */
    timers(m, 47);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_COOLDOWN);
    timers(m, 1);
    CHECK_EQ(h->recharge[W], 240);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_OK);   /* 1 left; the timer runs on */
    CHECK_EQ(h->recharge[W], 240);
    CHECK_EQ(h->charges[W], 1);
    timers(m, 48);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_OK);   /* 0 left */
    CHECK_EQ(h->charges[W], 0);
    timers(m, 48);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_NO_CHARGES);
    timers(m, 143);   /* 287 ticks since the first cast */
    CHECK_EQ(h->charges[W], 0);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_NO_CHARGES);
    timers(m, 1);     /* 288: one charge back, the timer restarts */
    CHECK_EQ(h->charges[W], 1);
    CHECK_EQ(h->recharge[W], 288);
    CHECK_EQ(ability_cast_target(m, VANGUARD, W, t), GOTA_ACT_OK);
    CHECK_EQ(h->charges[W], 0);
    CHECK_EQ(h->recharge[W], 288);

    /* a one-charge ability: recharge = cooldown */
    place_hero(m, ARCANIST, BX, BZ);
    learn(m, ARCANIST, E, 1);
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, BX + 200000, BZ), GOTA_ACT_OK);
    CHECK_EQ(m->hero[ARCANIST].charges[E], 0);
    CHECK_EQ(m->hero[ARCANIST].cooldown[E], 216);
    CHECK_EQ(m->hero[ARCANIST].recharge[E], 216);
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, BX + 200000, BZ), GOTA_ACT_COOLDOWN);
    timers(m, 216);
    CHECK_EQ(m->hero[ARCANIST].charges[E], 1);
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, BX + 200000, BZ), GOTA_ACT_OK);
    gota_match_free(m);
}

static void test_rank_scaling(void)
{
    for (int c = 0; c < HERO_CLASSES; c++)
        for (int a = 0; a < HERO_ABILITIES; a++) {
            int32_t base = HERO_CLASS[c].ability[a].amount;
            for (int r = 1; r <= 4; r++) CHECK_EQ(ability_scaled(base, r), base * (r + 1) / 2);
        }
    static const int32_t fire[5] = {0, 40, 60, 80, 100};   /* x1, x1.5, x2, x2.5 */
    static const int32_t blade[4] = {0, 72, 108, 144};
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    for (int r = 1; r <= 4; r++) {
        place_hero(m, DEATH_KNIGHT, BX + 60000, BZ);
        learn(m, VANGUARD, W, r);
        CHECK_EQ(ability_cast_target(m, VANGUARD, W, 100 + DEATH_KNIGHT), GOTA_ACT_OK);
        CHECK_EQ(m->spell[0].rank, r);
        CHECK_EQ(m->spell[0].amount, fire[r]);
        spell_tick(m);
        CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), fire[r]);
    }
    for (int r = 1; r <= 3; r++) {
        place_hero(m, DEATH_KNIGHT, BX + 60000, BZ);
        learn(m, VANGUARD, R, r);
        CHECK_EQ(ability_cast_target(m, VANGUARD, R, 100 + DEATH_KNIGHT), GOTA_ACT_OK);
        CHECK_EQ(m->spell[0].amount, blade[r]);
        spell_ticks(m, 6);
        CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), blade[r]);
    }
    gota_match_free(m);
}

static void test_self_casts(void)
{
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    learn(m, VANGUARD, Q, 1);   /* Lion Guard: heal 28, cd 192 */
    GotaUnit *u = &m->unit[hero(m, VANGUARD)];
    HeroState *h = &m->hero[VANGUARD];
    CHECK_EQ(ability_cast_target(m, VANGUARD, Q, -1), GOTA_ACT_FULL);
    CHECK_EQ(h->cooldown[Q], 0);
    CHECK_EQ(h->charges[Q], 1);
    u->hp = u->max_hp - 100;
    CHECK_EQ(ability_cast_point(m, VANGUARD, Q, 2147483647, -2147483647), GOTA_ACT_OK);   /* any point */
    CHECK_EQ(u->hp, u->max_hp - 72);
    CHECK_EQ(h->stats.healing, 28);
    CHECK_EQ(h->cooldown[Q], 192);
    CHECK_EQ(h->charges[Q], 0);
    CHECK_EQ(m->spell_n, 0);   /* applied at once */
    learn(m, VANGUARD, Q, 3);  /* 56 at rank 3, capped at max */
    u->hp = u->max_hp - 10;
    CHECK_EQ(ability_cast_target(m, VANGUARD, Q, 123456), GOTA_ACT_OK);
    CHECK_EQ(u->hp, u->max_hp);
    CHECK_EQ(h->stats.healing, 28 + 10);   /* what the heal added, not its 56 */

    place_hero(m, ARCANIST, BX, BZ + 60000);
    learn(m, ARCANIST, Q, 1);   /* Mana Crystal: restore 28 */
    HeroState *a = &m->hero[ARCANIST];
    CHECK_EQ(ability_cast_target(m, ARCANIST, Q, 0), GOTA_ACT_FULL);
    a->mana = 10;
    CHECK_EQ(ability_cast_target(m, ARCANIST, Q, 0), GOTA_ACT_OK);
    CHECK_EQ(a->mana, 38);
    CHECK_EQ(a->cooldown[Q], 144);
    CHECK_EQ(a->stats.healing, 0);   /* a mana restore heals nothing */
    gota_match_free(m);
}

static void test_projectile(void)
{
    GotaMatch *m = new_match();
    place_hero(m, RANGER, BX, BZ);
    place_hero(m, DEATH_KNIGHT, BX + 200000, BZ);
    learn(m, RANGER, W, 1);   /* Verdant Arrow: 32, 360,000, 45,000 a tick */
    m->tick = 50;
    CHECK_EQ(ability_cast_target(m, RANGER, W, 100 + DEATH_KNIGHT), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].impact_tick, 55);   /* ceil(200,000 / 45,000) = 5 */
    spell_tick(m);
    CHECK_EQ(m->spell[0].x, BX + 45000);
    spell_ticks(m, 3);
    CHECK_EQ(m->tick, 54);
    CHECK_EQ(m->spell[0].x, BX + 180000);
    CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), 0);
    /* homing: the target steps away; no range recheck */
    m->unit[hero(m, DEATH_KNIGHT)].x = BX + 500000;
    spell_tick(m);
    CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), 32);
    CHECK_EQ(m->spell_n, 0);

    /* flight time at the boundaries: 180,000 -> 4 ticks, 180,001 -> 5, 0 -> 1 */
    int a = creep(m, GOTA_TEAM_BLUE, 180000, 0), b = creep(m, GOTA_TEAM_BLUE, 0, 180001);
    learn(m, RANGER, W, 1);
    CHECK_EQ(ability_cast_target(m, RANGER, W, m->unit[a].id), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].impact_tick, m->tick + 4);
    m->hero[RANGER].cooldown[W] = 0;
    CHECK_EQ(ability_cast_target(m, RANGER, W, m->unit[b].id), GOTA_ACT_OK);
    CHECK_EQ(m->spell[1].impact_tick, m->tick + 5);
    int c = creep(m, GOTA_TEAM_BLUE, 0, 0);
    m->hero[RANGER].cooldown[W] = 0;
    CHECK_EQ(ability_cast_target(m, RANGER, W, m->unit[c].id), GOTA_ACT_OK);
    CHECK_EQ(m->spell[2].impact_tick, m->tick + 1);
    /* the second target dies before impact: the arrow vanishes */
    m->unit[b].alive = 0;
    spell_ticks(m, 5);
    CHECK_EQ(lost(m, a), 32);
    CHECK_EQ(lost(m, b), 0);
    CHECK_EQ(lost(m, c), 32);
    CHECK_EQ(m->spell_n, 0);
    gota_match_free(m);
}

static void test_ground_projectile(void)
{
    GotaMatch *m = new_match();
    place_hero(m, RANGER, BX, BZ);
    learn(m, RANGER, W, 1);
    int ally = creep(m, GOTA_TEAM_RED, 50000, 0);
    int near = creep(m, GOTA_TEAM_BLUE, 106000, 10000);   /* 18,868 from the end of tick 2's segment */
    int line = creep(m, GOTA_TEAM_BLUE, 110000, 0);
    int later = creep(m, GOTA_TEAM_BLUE, 200000, 0);
    CHECK_EQ(ability_cast_point(m, RANGER, W, BX + 300000, BZ), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].impact_tick, m->tick + 7);
    spell_ticks(m, 2);   /* segments [0, 45k], [45k, 90k]: only the ally, passed through */
    CHECK_EQ(m->spell_n, 1);
    CHECK_EQ(m->spell[0].x, BX + 90000);
    spell_tick(m);       /* [90k, 135k]: both enemies inside, the nearer to 90k (18,868 vs 20,000) is hit */
    CHECK_EQ(lost(m, near), 32);
    CHECK_EQ(lost(m, line), 0);
    CHECK_EQ(lost(m, ally), 0);
    CHECK_EQ(m->spell_n, 0);
    spell_ticks(m, 5);
    CHECK_EQ(lost(m, later), 0);

    /* nobody on the line: it flies to the aim and expires there */
    GotaMatch *m2 = new_match();
    place_hero(m2, RANGER, BX, BZ);
    learn(m2, RANGER, W, 1);
    int aside = creep(m2, GOTA_TEAM_BLUE, 150000, 15001);
    int beyond = creep(m2, GOTA_TEAM_BLUE, 315001, 0);
    CHECK_EQ(ability_cast_point(m2, RANGER, W, BX + 300000, BZ), GOTA_ACT_OK);
    spell_ticks(m2, 6);
    CHECK_EQ(m2->spell_n, 1);
    CHECK_EQ(m2->spell[0].x, BX + 270000);
    spell_tick(m2);
    CHECK_EQ(m2->spell_n, 0);
    CHECK_EQ(lost(m2, aside), 0);
    CHECK_EQ(lost(m2, beyond), 0);
    /* the sweep's edges: 15,000 aside and 15,000 past the aim are inside */
    int edge = creep(m2, GOTA_TEAM_BLUE, 150000, -15000);
    m2->hero[RANGER].cooldown[W] = 0;
    CHECK_EQ(ability_cast_point(m2, RANGER, W, BX + 300000, BZ), GOTA_ACT_OK);
    spell_ticks(m2, 7);
    CHECK_EQ(lost(m2, edge), 32);
    int cap = creep(m2, GOTA_TEAM_BLUE, 0, 315000);
    m2->hero[RANGER].cooldown[W] = 0;
    CHECK_EQ(ability_cast_point(m2, RANGER, W, BX, BZ + 300000), GOTA_ACT_OK);
    spell_ticks(m2, 7);
    CHECK_EQ(lost(m2, cap), 32);
    gota_match_free(m2);
    gota_match_free(m);
}

static void test_ground_melee(void)
{
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    learn(m, VANGUARD, W, 1);   /* Firebrand Sword on the ground: 30,000-wide capsule to the aim */
    int wide = creep(m, GOTA_TEAM_BLUE, 30000, 15001);
    int ahead = creep(m, GOTA_TEAM_BLUE, 70000, 0);
    int near = creep(m, GOTA_TEAM_BLUE, 40000, 15000);
    int ally = creep(m, GOTA_TEAM_RED, 20000, 0);
    CHECK_EQ(ability_cast_point(m, VANGUARD, W, BX + 200000, BZ), GOTA_ACT_OK);   /* pulled back to 90,000 */
    CHECK_EQ(m->spell[0].aim_x, BX + 90000);
    spell_tick(m);
    CHECK_EQ(lost(m, near), 40);
    CHECK_EQ(lost(m, ahead), 0);
    CHECK_EQ(lost(m, wide), 0);
    CHECK_EQ(lost(m, ally), 0);
    CHECK_EQ(m->spell_n, 0);
    gota_match_free(m);
}

static void test_circle(void)
{
    GotaMatch *m = new_match();
    place_hero(m, ARCANIST, BX, BZ);
    learn(m, ARCANIST, E, 1);   /* Meteor Strike: circle 120,000 at the aim, 70, delay 48 */
    const int32_t cx = 300000;
    int edge = creep(m, GOTA_TEAM_BLUE, cx + 120000, 0);
    int diag = creep(m, GOTA_TEAM_BLUE, cx - 84852, -84853);
    int out = creep(m, GOTA_TEAM_BLUE, cx, 120001);
    int ally = creep(m, GOTA_TEAM_RED, cx, 0);
    int neutral = put_unit(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, BX + cx, BZ - 60000);
    place_hero(m, DEATH_KNIGHT, BX + cx + 10000, BZ);
    place_hero(m, RANGER, BX + cx - 10000, BZ);   /* an allied hero */
    m->tick = 1000;
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, BX + cx, BZ), GOTA_ACT_OK);
    CHECK_EQ(m->hero[ARCANIST].mana, m->hero[ARCANIST].max_mana - 53);
    CHECK_EQ(m->spell[0].impact_tick, 1048);
    CHECK_EQ(m->spell[0].x, BX + cx);
    spell_ticks(m, 47);
    CHECK_EQ(lost(m, edge), 0);
    CHECK_EQ(m->spell_n, 1);
    spell_tick(m);
    CHECK_EQ(lost(m, edge), 70);
    CHECK_EQ(lost(m, diag), 70);
    CHECK_EQ(lost(m, out), 0);
    CHECK_EQ(lost(m, ally), 0);
    CHECK_EQ(lost(m, neutral), 70);
    CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), 70);
    CHECK_EQ(lost(m, hero(m, RANGER)), 0);
    CHECK_EQ(m->spell_n, 0);

    /* cast at a unit: the circle is centred where it stood at cast */
    learn(m, ARCANIST, E, 1);
    CHECK_EQ(ability_cast_target(m, ARCANIST, E, m->unit[out].id), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].x, BX + cx);
    CHECK_EQ(m->spell[0].z, BZ + 120001);
    m->unit[out].x += 200000;   /* it walks out before impact */
    spell_ticks(m, 48);
    CHECK_EQ(lost(m, out), 0);
    CHECK_EQ(lost(m, edge), 70);   /* 169,706 from the new centre: only the first hit */
    gota_match_free(m);
}

static void test_sectors(void)
{
    GotaMatch *m = new_match();
    place_hero(m, VANGUARD, BX, BZ);
    learn(m, VANGUARD, R, 1);   /* Blazing Blade: 120 degrees, 110,000, 72, delay 6, stun 24 */
    int in59 = creep(m, GOTA_TEAM_BLUE, 50000, 86000);
    int out61 = creep(m, GOTA_TEAM_BLUE, 50000, -87000);
    int rim_in = creep(m, GOTA_TEAM_BLUE, 40000, 69282);    /* 3 x 40,000^2 >= 69,282^2 */
    int rim_out = creep(m, GOTA_TEAM_BLUE, 40000, -69283);
    int tip = creep(m, GOTA_TEAM_BLUE, 110000, 0);
    int past = creep(m, GOTA_TEAM_BLUE, 110001, 0);
    int behind = creep(m, GOTA_TEAM_BLUE, -1000, 0);
    place_hero(m, DEATH_KNIGHT, BX + 60000, BZ);
    CHECK_EQ(ability_cast_point(m, VANGUARD, R, BX + 500000, BZ), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].x, BX);   /* drawn from the caster */
    CHECK_EQ(m->spell[0].dir_x, 65536);
    spell_ticks(m, 6);
    CHECK_EQ(lost(m, in59), 72);
    CHECK_EQ(lost(m, out61), 0);
    CHECK_EQ(lost(m, rim_in), 72);
    CHECK_EQ(lost(m, rim_out), 0);
    CHECK_EQ(lost(m, tip), 72);
    CHECK_EQ(lost(m, past), 0);
    CHECK_EQ(lost(m, behind), 0);
    /* the stun is applied by combat from the hit */
    CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), 72);
    CHECK_EQ(m->hero[DEATH_KNIGHT].stun, 24);
    CHECK_EQ(m->st[in59].stun, 24);
    learn(m, DEATH_KNIGHT, W, 1);
    CHECK_EQ(ability_cast_target(m, DEATH_KNIGHT, W, 100 + VANGUARD), GOTA_ACT_STUNNED);

    /* 90 degrees (Crossbowman's Lodestone Surge, 360,000), aimed diagonally */
    GotaMatch *m2 = new_match();
    place_hero(m2, CROSSBOW, BX, BZ);
    learn(m2, CROSSBOW, E, 1);
    int on45 = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 100000, BZ + 100000);
    int off45 = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 100000, BZ - 100001);
    CHECK_EQ(ability_cast_point(m2, CROSSBOW, E, BX + 200000, BZ), GOTA_ACT_OK);
    learn(m2, CROSSBOW, E, 1);
    /* aimed at 45 degrees: (5,000, 150,000) is 43.1 degrees off, (-5,000, 150,000) 46.9 */
    int in43 = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 5000, BZ + 150000);
    int out47 = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX - 5000, BZ + 150000);
    CHECK_EQ(ability_cast_point(m2, CROSSBOW, E, BX + 200000, BZ + 200000), GOTA_ACT_OK);
    spell_ticks(m2, 12);
    CHECK_EQ(lost(m2, on45), 68 + 68);   /* on the first's edge, on the second's axis */
    CHECK_EQ(lost(m2, off45), 0);
    CHECK_EQ(lost(m2, in43), 68);
    CHECK_EQ(lost(m2, out47), 0);
    gota_match_free(m2);
    gota_match_free(m);
}

static void test_line_and_capsule(void)
{
    GotaMatch *m = new_match();
    place_hero(m, RANGER, BX, BZ);
    learn(m, RANGER, R, 1);   /* Storm Eagle: line 90,000 x 480,000 from the caster, 95, delay 24 */
    int far_side = creep(m, GOTA_TEAM_BLUE, 480000, 45000);
    int past = creep(m, GOTA_TEAM_BLUE, 480001, 0);
    int wide = creep(m, GOTA_TEAM_BLUE, 240000, -45001);
    int behind = creep(m, GOTA_TEAM_BLUE, -1, 0);
    int start = creep(m, GOTA_TEAM_BLUE, 0, 30000);
    int corner = creep(m, GOTA_TEAM_BLUE, -20000, 10000);   /* in a capsule's end cap, not in a line */
    CHECK_EQ(ability_cast_point(m, RANGER, R, BX + 200000, BZ), GOTA_ACT_OK);
    spell_ticks(m, 24);
    CHECK_EQ(lost(m, far_side), 95);
    CHECK_EQ(lost(m, past), 0);
    CHECK_EQ(lost(m, wide), 0);
    CHECK_EQ(lost(m, behind), 0);
    CHECK_EQ(lost(m, start), 95);
    CHECK_EQ(lost(m, corner), 0);

    GotaMatch *m2 = new_match();
    place_hero(m2, CROSSBOW, BX, BZ);
    learn(m2, CROSSBOW, R, 1);   /* Clockwork Charge: capsule 90,000 x 450,000, 115, delay 24 */
    int back = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX - 45000, BZ);
    int back_out = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX - 45001, BZ + 1);
    int cap_in = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX - 30000, BZ + 33000);
    int tip = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 495000, BZ);
    int tip_out = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 495001, BZ);
    int tip_corner = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 480000, BZ + 34000);
    int side = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 200000, BZ - 45000);
    int side_out = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 200000, BZ + 45001);
    int ally = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, BX + 200000, BZ);
    CHECK_EQ(ability_cast_point(m2, CROSSBOW, R, BX + 900000, BZ), GOTA_ACT_OK);
    spell_ticks(m2, 24);
    CHECK_EQ(lost(m2, back), 115);
    CHECK_EQ(lost(m2, back_out), 0);
    CHECK_EQ(lost(m2, cap_in), 115);
    CHECK_EQ(lost(m2, tip), 115);
    CHECK_EQ(lost(m2, tip_out), 0);
    CHECK_EQ(lost(m2, tip_corner), 0);   /* 30,000 past the end and 34,000 aside: 45,354 from the tip */
    CHECK_EQ(lost(m2, side), 115);
    CHECK_EQ(lost(m2, side_out), 0);
    CHECK_EQ(lost(m2, ally), 0);
    gota_match_free(m2);
    gota_match_free(m);
}

static void test_rings(void)
{
    GotaMatch *m = new_match();
    place_hero(m, DEATH_KNIGHT, BX, BZ);
    learn(m, DEATH_KNIGHT, R, 1);   /* Dark Eclipse: ring 40,000..140,000 on the caster, 110, delay 12 */
    int hole = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 39999, BZ);
    int inner = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 40000, BZ);
    int outer = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX, BZ + 140000);
    int out = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX - 140001, BZ);
    int diag = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX - 98000, BZ - 99000);
    /* no aim: any target id is accepted */
    CHECK_EQ(ability_cast_target(m, DEATH_KNIGHT, R, 424242), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].x, BX);
    CHECK_EQ(m->spell[0].impact_tick, m->tick + 12);
    m->unit[hero(m, DEATH_KNIGHT)].x += 300000;   /* the ring stays where it was cast */
    spell_ticks(m, 12);
    CHECK_EQ(lost(m, hole), 0);
    CHECK_EQ(lost(m, inner), 110);
    CHECK_EQ(lost(m, outer), 110);
    CHECK_EQ(lost(m, out), 0);
    CHECK_EQ(lost(m, diag), 110);

    /* Bound Void (Lich): a targeted ring, shifted back 80,000 so the target sits in the band */
    GotaMatch *m2 = new_match();
    place_hero(m2, LICH, BX, BZ);
    learn(m2, LICH, R, 1);   /* 125, inner 40,000, outer 120,000, delay 24 */
    int target = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 200000, BZ);
    int centre = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 120000, BZ);
    int rim = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 240000, BZ);
    int rim_out = put_unit(m2, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 240001, BZ);
    CHECK_EQ(ability_cast_target(m2, LICH, R, m2->unit[target].id), GOTA_ACT_OK);
    CHECK_EQ(m2->spell[0].x, BX + 120000);
    CHECK_EQ(m2->spell[0].z, BZ);
    CHECK_EQ(m2->spell[0].aim_x, BX + 200000);
    spell_ticks(m2, 24);
    CHECK_EQ(lost(m2, target), 125);
    CHECK_EQ(lost(m2, centre), 0);
    CHECK_EQ(lost(m2, rim), 125);
    CHECK_EQ(lost(m2, rim_out), 0);
    gota_match_free(m2);
    gota_match_free(m);
}

static void test_dread_totem(void)
{
    GotaMatch *m = new_match();
    place_hero(m, WARLOCK, BX, BZ);
    learn(m, WARLOCK, E, 1);   /* line 60,000 x 240,000 from the aim, away; 70, delay 24, silence 48 */
    int before = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 199999, BZ);
    int between = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 100000, BZ);
    int at_aim = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 200000, BZ);
    int end = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 440000, BZ + 30000);
    int past = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 440001, BZ);
    int wide = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, BX + 300000, BZ - 30001);
    place_hero(m, HUNTER, BX + 300000, BZ);
    CHECK_EQ(ability_cast_point(m, WARLOCK, E, BX + 200000, BZ), GOTA_ACT_OK);
    CHECK_EQ(m->spell[0].x, BX + 200000);
    spell_ticks(m, 24);
    CHECK_EQ(lost(m, before), 0);
    CHECK_EQ(lost(m, between), 0);
    CHECK_EQ(lost(m, at_aim), 70);
    CHECK_EQ(lost(m, end), 70);
    CHECK_EQ(lost(m, past), 0);
    CHECK_EQ(lost(m, wide), 0);
    CHECK_EQ(lost(m, hero(m, HUNTER)), 70);
    CHECK_EQ(m->hero[HUNTER].silence, 48);
    learn(m, HUNTER, W, 1);
    m->hero[HUNTER].mana = 0;
    CHECK_EQ(ability_cast_target(m, HUNTER, W, 100 + WARLOCK), GOTA_ACT_SILENCED);
    gota_match_free(m);
}

static void test_root(void)
{
    GotaMatch *m = new_match();
    place_hero(m, DRUID, BX, BZ);
    learn(m, DRUID, R, 1);   /* Golem Seed: circle 120,000 at the aim, 68, range 200,000, delay 24, root 48 */
    place_hero(m, BERSERKER, BX + 150000, BZ);
    int c = creep(m, GOTA_TEAM_BLUE, 150000, 50000);
    CHECK_EQ(ability_cast_target(m, DRUID, R, 100 + BERSERKER), GOTA_ACT_OK);
    spell_ticks(m, 24);
    CHECK_EQ(lost(m, hero(m, BERSERKER)), 68);
    CHECK_EQ(m->hero[BERSERKER].root, 48);
    CHECK_EQ(m->st[c].root, 48);
    CHECK_EQ(m->hero[BERSERKER].stun, 0);
    gota_match_free(m);
}

static void test_heals(void)
{
    GotaMatch *m = new_match();
    place_hero(m, DRUID, BX, BZ);
    learn(m, DRUID, W, 1);   /* Healing Bloom: circle 120,000 at the aim, heal 55, delay 12 */
    place_hero(m, VANGUARD, BX + 200000, BZ);
    place_hero(m, RANGER, BX + 200000, BZ + 60000);
    place_hero(m, ARCANIST, BX + 200000, BZ + 120001);   /* just outside */
    place_hero(m, DEATH_KNIGHT, BX + 200000, BZ - 60000); /* an enemy inside */
    int ally_creep = creep(m, GOTA_TEAM_RED, 200000, 0);
    const int seats[4] = {VANGUARD, RANGER, ARCANIST, DEATH_KNIGHT};
    for (int k = 0; k < 4; k++) m->unit[hero(m, seats[k])].hp -= 100;
    m->unit[hero(m, RANGER)].hp += 80;   /* 20 below max: capped */
    m->unit[ally_creep].hp -= 100;
    CHECK_EQ(ability_cast_point(m, DRUID, W, BX + 200000, BZ), GOTA_ACT_OK);
    spell_ticks(m, 11);
    CHECK_EQ(lost(m, hero(m, VANGUARD)), 100);
    spell_tick(m);
    CHECK_EQ(lost(m, hero(m, VANGUARD)), 45);
    CHECK_EQ(lost(m, hero(m, RANGER)), 0);
    CHECK_EQ(lost(m, hero(m, ARCANIST)), 100);
    CHECK_EQ(lost(m, hero(m, DEATH_KNIGHT)), 100);
    CHECK_EQ(lost(m, ally_creep), 100);
    CHECK_EQ(m->hero[DRUID].stats.healing, 55 + 20);   /* the caster's count: the HP its allies gained */
    CHECK_EQ(m->hero[VANGUARD].stats.healing, 0);

    /* Inferno Aegis: circle 140,000 on the caster (no aim), heals the caster too */
    place_hero(m, VANGUARD, BX, BZ + 60000);
    learn(m, VANGUARD, E, 2);   /* 50 x 1.5 = 75 */
    m->unit[hero(m, VANGUARD)].hp -= 100;
    m->unit[hero(m, DRUID)].hp -= 100;
    CHECK_EQ(ability_cast_point(m, VANGUARD, E, 2147483647, 2147483647), GOTA_ACT_OK);
    CHECK_EQ(m->hero[VANGUARD].mana, m->hero[VANGUARD].max_mana - 35);
    spell_ticks(m, 12);
    CHECK_EQ(lost(m, hero(m, VANGUARD)), 25);
    CHECK_EQ(lost(m, hero(m, DRUID)), 25);
    CHECK_EQ(m->hero[VANGUARD].stats.healing, 75 + 75);   /* itself and the druid */
    CHECK_EQ(m->hero[DRUID].stats.healing, 75);
    /* the counter is no state: the hash leaves it out, and the seat's stats show it */
    uint64_t before, after;
    gota_match_hash(m, &before);
    m->hero[DRUID].stats.healing += 1000;
    gota_match_hash(m, &after);
    CHECK(before == after);
    GotaSeatStats st;
    CHECK_EQ(gota_match_seat_stats(m, DRUID, &st), GOTA_OK);
    CHECK_EQ(st.healing, 1075);
    gota_match_free(m);
}

static void test_structures_and_height(void)
{
    GotaMatch *m = new_match();
    /* Withering Idol (Death Knight, circle 120,000 at the aim, 60) on red's top-lane towers */
    int outer = building_slot_of(m, GOTA_KIND_TOWER, GOTA_TEAM_RED, 0, GOTA_TIER_OUTER);
    int inner = building_slot_of(m, GOTA_KIND_TOWER, GOTA_TEAM_RED, 0, GOTA_TIER_INNER);
    CHECK_EQ(m->unit[outer].exposed, 1);
    CHECK_EQ(m->unit[inner].exposed, 0);
    const GotaUnit *o = &m->unit[outer], *in = &m->unit[inner];
    place_hero(m, DEATH_KNIGHT, o->x, o->z + 100000);
    learn(m, DEATH_KNIGHT, E, 1);
    CHECK_EQ(ability_cast_target(m, DEATH_KNIGHT, E, o->id), GOTA_ACT_OK);
    spell_ticks(m, 24);
    CHECK_EQ(lost(m, outer), 60);
    CHECK_EQ(m->hero[DEATH_KNIGHT].stats.tower_damage, 60);
    place_hero(m, DEATH_KNIGHT, in->x, in->z + 100000);
    learn(m, DEATH_KNIGHT, E, 1);
    CHECK_EQ(ability_cast_target(m, DEATH_KNIGHT, E, in->id), GOTA_ACT_BAD_TARGET);
    CHECK_EQ(ability_cast_point(m, DEATH_KNIGHT, E, in->x, in->z), GOTA_ACT_OK);
    spell_ticks(m, 24);
    CHECK_EQ(lost(m, inner), 0);
    CHECK_EQ(m->hero[DEATH_KNIGHT].stats.tower_damage, 60);

    /* height: one level (60,000) is within reach, two are not */
    const MapData *map = m->map;
    int tx = -1, tz = -1;
    for (int z = 0; z < MAP_N && tx < 0; z++)
        for (int x = 1; x + 1 < MAP_N; x++) {
            int t = map_index(x, z);
            if (map->height8[t] == 0 && map->height8[t - 1] == 0 && map->height8[t + 1] == 16) {
                tx = x;
                tz = z;
                break;
            }
        }
    CHECK(tx >= 0);
    if (tx >= 0) {
        int32_t x = map_tile_centre(tx), z = map_tile_centre(tz);
        int low = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, x - GOTA_TILE, z);
        int high = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, x + GOTA_TILE, z);
        place_hero(m, ARCANIST, x, z);
        learn(m, ARCANIST, E, 1);
        CHECK_EQ(ability_cast_point(m, ARCANIST, E, x, z), GOTA_ACT_OK);
        spell_ticks(m, 48);
        CHECK_EQ(lost(m, low), 70);
        CHECK_EQ(lost(m, high), 0);
    }
    int32_t x = BX, z = TILE_X(14);   /* tile (38, 14) is low ground, (38, 15) high */
    CHECK_EQ(map->height8[map_index(38, 14)], 0);
    CHECK_EQ(map->height8[map_index(38, 15)], 8);
    int up = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, x, z + GOTA_TILE);
    place_hero(m, ARCANIST, x, z);
    learn(m, ARCANIST, E, 1);
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, x, z), GOTA_ACT_OK);
    spell_ticks(m, 48);
    CHECK_EQ(lost(m, up), 70);
    gota_match_free(m);
}

static void test_spell_view(void)
{
    GotaMatch *m = new_match();
    place_hero(m, ARCANIST, BX, BZ);
    place_hero(m, RANGER, BX, BZ + 60000);
    learn(m, ARCANIST, E, 1);
    learn(m, RANGER, W, 1);
    m->tick = 10;
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, BX + 300000, BZ), GOTA_ACT_OK);
    CHECK_EQ(ability_cast_point(m, RANGER, W, BX + 90000, BZ + 60000), GOTA_ACT_OK);
    GotaSpell out[8];
    int32_t n = -1;
    CHECK_EQ(gota_match_spells(m, -1, out, 8, &n), GOTA_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].caster_id, 100 + ARCANIST);
    CHECK_EQ(out[0].impact_tick, 58);
    CHECK_EQ(out[0].shape, SHAPE_CIRCLE);
    CHECK_EQ(out[0].radius, 120000);
    CHECK_EQ(out[0].harmful, 1);
    CHECK_EQ(out[0].x, BX + 300000);
    CHECK_EQ(out[1].impact_tick, 12);   /* 90,000 / 45,000 */
    CHECK_EQ(out[1].shape, 0);
    CHECK_EQ(out[1].x, BX);
    CHECK_EQ(out[1].aim_x, BX + 90000);
    /* blue sees a red spell only where its aim is visible */
    hide_tile(m, GOTA_TEAM_BLUE, BX + 300000, BZ);
    CHECK_EQ(gota_match_spells(m, GOTA_TEAM_BLUE, out, 8, &n), GOTA_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(out[0].impact_tick, 12);
    CHECK_EQ(gota_match_spells(m, GOTA_TEAM_RED, out, 8, &n), GOTA_OK);
    CHECK_EQ(n, 2);
    spell_ticks(m, 2);
    CHECK_EQ(gota_match_spells(m, -1, out, 8, &n), GOTA_OK);
    CHECK_EQ(n, 1);
    gota_match_free(m);
}

/* The aim on the caster's own spot: the facing gives the direction. */
static void test_facing_direction(void)
{
    GotaMatch *m = new_match();
    place_hero(m, RANGER, BX, BZ);
    learn(m, RANGER, R, 1);
    m->unit[hero(m, RANGER)].facing = 16384;   /* +z */
    int south = creep(m, GOTA_TEAM_BLUE, 0, 180000);
    int east = creep(m, GOTA_TEAM_BLUE, 180000, 0);
    CHECK_EQ(ability_cast_point(m, RANGER, R, BX, BZ), GOTA_ACT_OK);
    CHECK(m->spell[0].dir_x >= -3 && m->spell[0].dir_x <= 3);
    CHECK(m->spell[0].dir_z >= 65530 && m->spell[0].dir_z <= 65540);
    CHECK_EQ(m->unit[hero(m, RANGER)].facing, 16384);
    spell_ticks(m, 24);
    CHECK_EQ(lost(m, south), 95);
    CHECK_EQ(lost(m, east), 0);
    const int32_t angles[5] = {0, 8192, 32768, 40000, 65535};
    for (int k = 0; k < 5; k++) {
        learn(m, RANGER, R, 1);
        m->unit[hero(m, RANGER)].facing = angles[k];
        CHECK_EQ(ability_cast_point(m, RANGER, R, BX, BZ), GOTA_ACT_OK);
        const Spell *s = &m->spell[m->spell_n - 1];
        int64_t len2 = (int64_t)s->dir_x * s->dir_x + (int64_t)s->dir_z * s->dir_z;
        CHECK(len2 > (int64_t)65530 * 65530 && len2 <= (int64_t)65540 * 65540);
        int32_t back = fx_atan2(s->dir_z, s->dir_x);
        CHECK(fx_angle_diff(angles[k], back) >= -4 && fx_angle_diff(angles[k], back) <= 4);
    }
    gota_match_free(m);
}

/* A dead caster's spell still lands. */
static void test_dead_caster(void)
{
    GotaMatch *m = new_match();
    place_hero(m, ARCANIST, BX, BZ);
    learn(m, ARCANIST, E, 1);
    int c = creep(m, GOTA_TEAM_BLUE, 300000, 0);
    CHECK_EQ(ability_cast_point(m, ARCANIST, E, BX + 300000, BZ), GOTA_ACT_OK);
    m->unit[hero(m, ARCANIST)].alive = 0;
    m->hero[ARCANIST].respawn_at = 1 << 30;
    spell_ticks(m, 48);
    CHECK_EQ(lost(m, c), 70);
    gota_match_free(m);
}

/* The real tick: level, cast through gota_match_command, step. */
static void test_through_commands(void)
{
    GotaMatch *m = new_match();
    int32_t err = -1;
    gota_match_step(m, 1, NULL);
    GotaCommand lvl = {.verb = GOTA_CMD_LEVEL, .slot = W};
    CHECK_EQ(gota_match_command(m, VANGUARD, &lvl, &err), GOTA_OK);
    CHECK_EQ(err, GOTA_ACT_OK);
    CHECK_EQ(m->hero[VANGUARD].charges[W], 3);
    const GotaUnit *u = &m->unit[hero(m, VANGUARD)];
    GotaCommand cast = {.verb = GOTA_CMD_CAST_POINT, .slot = W, .x = u->x, .z = u->z};
    CHECK_EQ(gota_match_command(m, VANGUARD, &cast, &err), GOTA_OK);
    CHECK_EQ(err, GOTA_ACT_OK);
    CHECK_EQ(m->spell_n, 1);
    CHECK_EQ(m->hero[VANGUARD].cooldown[W], 48);
    gota_match_step(m, 1, NULL);
    CHECK_EQ(m->spell_n, 0);
    CHECK_EQ(m->hero[VANGUARD].cooldown[W], 47);
    cast.slot = 7;
    CHECK_EQ(gota_match_command(m, VANGUARD, &cast, &err), GOTA_OK);
    CHECK_EQ(err, GOTA_ACT_BAD_SLOT);
    gota_match_free(m);
}

/* Any input gets an answer in range and nothing breaks. */
static void test_fuzz(void)
{
    GotaMatch *m = new_match();
    uint64_t r = 12345;
    for (int s = 0; s < SEATS; s++) {
        place_hero(m, s, BX + (s % 5) * 60000, BZ + (s / 5) * 120000 - 60000);
        for (int a = 0; a < HERO_ABILITIES; a++) learn(m, s, a, a == R ? 3 : 4);
        m->unit[hero(m, s)].hp = m->unit[hero(m, s)].max_hp / 2;
    }
    for (int k = 0; k < 20; k++) creep(m, k & 1, (k * 37000) % 400000 - 200000, (k * 23000) % 300000 - 150000);
    const int32_t wild[6] = {0, -1, 2147483647, -2147483647 - 1, 3480000, -3462000};
    for (int i = 0; i < 4000; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int seat = (int)((r >> 33) % 12) - 1, slot = (int)((r >> 40) % 7) - 1;
        int32_t x = (r >> 20) & 1 ? wild[(r >> 50) % 6] : BX + (int32_t)((r >> 8) % 800000) - 400000;
        int32_t z = (r >> 21) & 1 ? wild[(r >> 53) % 6] : BZ + (int32_t)((r >> 28) % 300000) - 150000;
        int32_t id = (r >> 22) & 1 ? (int32_t)((r >> 35) % 1100) : wild[(r >> 45) % 6];
        int code = (r >> 23) & 1 ? ability_cast_target(m, seat, slot, id) : ability_cast_point(m, seat, slot, x, z);
        CHECK(code >= 0 && code < GOTA_ACT_CODES);
        if (i % 8 == 0) spell_tick(m);
        if (i % 50 == 0)
            for (int s = 0; s < SEATS; s++) {
                place_hero(m, s, m->unit[hero(m, s)].x, m->unit[hero(m, s)].z);
                for (int a = 0; a < HERO_ABILITIES; a++) m->hero[s].cooldown[a] = 0;
            }
    }
    spell_ticks(m, 100);
    CHECK_EQ(m->spell_n, 0);
    gota_match_free(m);
}

int main(void)
{
    test_scene_is_flat();
    test_validation_order();
    test_accept_pays();
    test_charges();
    test_rank_scaling();
    test_self_casts();
    test_projectile();
    test_ground_projectile();
    test_ground_melee();
    test_circle();
    test_sectors();
    test_line_and_capsule();
    test_rings();
    test_dread_totem();
    test_root();
    test_heals();
    test_structures_and_height();
    test_spell_view();
    test_facing_direction();
    test_dead_caster();
    test_through_commands();
    test_fuzz();
    return check_report("test_abilities");
}
