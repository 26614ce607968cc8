/*
 * test_camps.c -- neutral camps with the numbers of docs/rules.md section 3.5: spawn on
 * the first battle tick with the map's member counts and tier stats, provocation
 * by proximity (2 tiles, line of sight) and by damage, the attack cadence
 * (hit 14 ticks after coming in reach, then every 32), stun and root, the leash
 * (target dragged out, a member strayed, target unseen for 3 s), returning
 * members untargetable and undamageable, homecoming with a full heal, respawn
 * after 1,440 ticks unless a living hero is within 10 tiles, determinism.
 *
 * The matches run without heroes and creeps (the wave interval is the maximum
 * and the first wave is removed); stand-in hero bodies (kind hero, ids from
 * 1000, so no seat) stand where each test needs them.
 */
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "check.h"
#include "scenario.h"

#define T GOTA_TILE
#define CAMP_T2 2   /* tier 2, three members, in a clearing with a trail north */
#define CAMP_T1 4   /* tier 1, one member */
#define CAMP_T1L 3  /* tier 1, two members: a leader */

static const int32_t HP[4] = { 0, 100, 180, 300 };
static const int32_t DMG[4] = { 0, 8, 14, 20 };

static GotaMatch *new_match(int heroes)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "heroes", heroes);
    if (!heroes) gota_config_set(&cfg, "wave_interval", GOTA_MAX_BATTLE_TICKS);
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

static void step(GotaMatch *m, int n)
{
    int32_t ran = 0;
    CHECK_EQ(gota_match_step(m, n, &ran), GOTA_OK);
    CHECK_EQ(ran, n);
}

/* A match at battle tick 1 (camps spawned) with no creeps left. */
static GotaMatch *quiet_match(void)
{
    GotaMatch *m = new_match(0);
    step(m, 1);
    for (int i = 0; i < m->unit_n; i++)
        if (m->unit[i].kind == GOTA_KIND_CREEP) {
            memset(&m->unit[i], 0, sizeof m->unit[i]);
            memset(&m->st[i], 0, sizeof m->st[i]);
        }
    m->lane_creeps = 0;
    return m;
}

static int put_hero(GotaMatch *m, int team, int32_t x, int32_t z)
{
    int slot = scenario_unit(m, GOTA_KIND_HERO, team, x, z, 100000);
    m->unit[slot].lane = -1;
    m->unit[slot].radius_q = HERO_RADIUS_Q;
    return slot;
}

/* A melee lane creep that holds still (speed 0, done marching). */
static int put_creep(GotaMatch *m, int team, int32_t x, int32_t z)
{
    int slot = put_hero(m, team, x, z);
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    u->kind = GOTA_KIND_CREEP;
    u->sub = GOTA_CREEP_MELEE;
    u->hp = u->max_hp = CREEP_HP;
    u->damage = CREEP_DAMAGE;
    u->range = CREEP_MELEE_RANGE;
    u->lane = 0;
    u->radius_q = 22;
    s->period = CREEP_PERIOD;
    s->windup = CREEP_HIT_TICK;
    s->waypoint = team == GOTA_TEAM_RED ? m->map->lane_n[0] : -1;
    s->path_revision = -1;
    m->lane_creeps++;
    return slot;
}

static void place(GotaMatch *m, int slot, int32_t x, int32_t z)
{
    m->unit[slot].x = x;
    m->unit[slot].z = z;
}

static int member(const GotaMatch *m, int c, int k) { return m->camp[c].member[k]; }

static int64_t dist_home(const GotaMatch *m, int c, int k)
{
    int s = member(m, c, k);
    const MapCamp *mc = &m->map->camp[c];
    return fx_isqrt64((uint64_t)fx_dist2(m->unit[s].x, m->unit[s].z, mc->member_x[k], mc->member_z[k]));
}

/* Kill member k at once (white box: a hit resolved between ticks). */
static void kill_member(GotaMatch *m, int c, int k, int by)
{
    combat_queue(m, by, member(m, c, k), 100000);
    combat_resolve(m);
    camps_after_combat(m);
}

/* A walkable tile centre 12.5..13.5 tiles from the camp centre, reachable from
 * the camp and at least 10 tiles from every tower and barracks. */
static void far_spot(GotaMatch *m, int c, int32_t *x, int32_t *z)
{
    const MapCamp *mc = &m->map->camp[c];
    for (int t = 0; t < MAP_TILES; t++) {
        int32_t px = map_tile_centre(t % MAP_N), pz = map_tile_centre(t / MAP_N);
        int64_t d = fx_dist2(px, pz, mc->x, mc->z);
        if (!m->map->walkable[t] || d < (int64_t)(25 * T / 2) * (25 * T / 2) || d > (int64_t)(27 * T / 2) * (27 * T / 2))
            continue;
        int ok = 1;
        for (int b = 2; b < m->map->building_n && ok; b++)
            ok = fx_dist2(px, pz, m->map->building[b].x, m->map->building[b].z) > (int64_t)(10 * T) * (10 * T);
        NavPath path;
        if (!ok || !nav_find_path(&m->nav, m->map, px, pz, mc->x, mc->z, &path)) continue;
        *x = px;
        *z = pz;
        return;
    }
    CHECK(0);
}

/* A tree tile 4..10 tiles from the camp centre whose 8 neighbours are trees:
 * every ray from outside crosses a tree cell, so no member can see it. */
static void hidden_spot(const GotaMatch *m, int c, int32_t *x, int32_t *z)
{
    const MapCamp *mc = &m->map->camp[c];
    for (int t = 0; t < MAP_TILES; t++) {
        int tx = t % MAP_N, tz = t / MAP_N;
        int32_t px = map_tile_centre(tx), pz = map_tile_centre(tz);
        int64_t d = fx_dist2(px, pz, mc->x, mc->z);
        if (d < (int64_t)(4 * T) * (4 * T) || d > (int64_t)(10 * T) * (10 * T)) continue;
        int ok = 1;
        for (int dz = -1; dz <= 1 && ok; dz++)
            for (int dx = -1; dx <= 1 && ok; dx++)
                ok = map_in_bounds(tx + dx, tz + dz) && m->map->blocker8[map_index(tx + dx, tz + dz)] >= MAP_BLOCK_TREES;
        if (!ok) continue;
        *x = px;
        *z = pz;
        return;
    }
    CHECK(0);
}

static void test_spawn(void)
{
    GotaMatch *m = new_match(0);
    for (int i = 0; i < m->unit_n; i++) CHECK(m->unit[i].kind != GOTA_KIND_NEUTRAL);
    step(m, 1);
    int neutrals = 0, expected = 0;
    for (int i = 0; i < m->unit_n; i++) neutrals += m->unit[i].kind == GOTA_KIND_NEUTRAL;
    for (int c = 0; c < MAP_CAMPS; c++) {
        const MapCamp *mc = &m->map->camp[c];
        expected += mc->members;
        CHECK_EQ(m->camp[c].state, CAMP_RESTING);
        CHECK(mc->tier >= 1 && mc->tier <= 3);
        for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) {
            int s = member(m, c, k);
            if (k >= mc->members) {
                CHECK_EQ(s, -1);
                continue;
            }
            CHECK(s >= 0);
            const GotaUnit *u = &m->unit[s];
            int leader = k == 0 && mc->members > 1;
            CHECK_EQ(u->kind, GOTA_KIND_NEUTRAL);
            CHECK_EQ(u->team, GOTA_TEAM_NEUTRAL);
            CHECK_EQ(u->sub, mc->tier);
            CHECK_EQ(u->lane, -1);
            CHECK_EQ(u->alive, 1);
            CHECK_EQ(m->st[s].camp, c);
            CHECK_EQ(u->x, mc->member_x[k]);
            CHECK_EQ(u->z, mc->member_z[k]);
            CHECK_EQ(u->max_hp, HP[mc->tier] * (leader ? 2 : 1));
            CHECK_EQ(u->hp, u->max_hp);
            CHECK_EQ(u->damage, leader ? DMG[mc->tier] * 3 / 2 : DMG[mc->tier]);
            CHECK_EQ(u->range, 54000);
            CHECK_EQ(u->radius_q, leader ? 30 : 22);
            CHECK_EQ(m->st[s].period, 32);
            CHECK_EQ(m->st[s].windup, 14);
            CHECK_EQ(m->st[s].speed, 5500);
            CHECK(unit_attackable(m, s));
            CHECK(!camp_fighting(m, s) && !camp_returning(m, s));
        }
    }
    CHECK_EQ(neutrals, expected);
    CHECK(expected >= 14 && expected <= 70);
    /* mirrored camps stand and face mirrored: member k of a camp at the mirror
     * image of member k of its pair, facing half a turn apart */
    int standing_on_centre = 0;
    for (int c = 0; c < MAP_CAMPS; c++) {
        const MapCamp *mc = &m->map->camp[c];
        int p = mc->pair;
        for (int k = 0; k < mc->members; k++) {
            const GotaUnit *u = &m->unit[member(m, c, k)], *v = &m->unit[member(m, p, k)];
            CHECK(u->x == -v->x && u->z == -v->z);
            CHECK_EQ((u->facing - v->facing) & 0xFFFF, 0x8000);
            standing_on_centre += u->x == mc->x && u->z == mc->z;
        }
    }
    CHECK(standing_on_centre > 0);
    /* the leaders of this map: 360 HP / 21 damage (tier 2), 600 / 30 (tier 3) */
    CHECK_EQ(m->map->camp[CAMP_T2].tier, 2);
    CHECK_EQ(m->map->camp[CAMP_T2].members, 3);
    CHECK_EQ(m->unit[member(m, CAMP_T2, 0)].max_hp, 360);
    CHECK_EQ(m->unit[member(m, CAMP_T2, 0)].damage, 21);
    CHECK_EQ(m->unit[member(m, CAMP_T2, 1)].damage, 14);
    CHECK_EQ(m->map->camp[0].tier, 3);
    CHECK_EQ(m->unit[member(m, 0, 0)].max_hp, 600);
    CHECK_EQ(m->unit[member(m, 0, 0)].damage, 30);
    /* camps do not spawn again on later ticks */
    int first_id = m->unit[member(m, 0, 0)].id;
    step(m, 5);
    CHECK_EQ(m->unit[member(m, 0, 0)].id, first_id);
    gota_match_free(m);
}

static void test_provoke_by_proximity(void)
{
    GotaMatch *m = quiet_match();
    const MapCamp *mc = &m->map->camp[CAMP_T2];
    int32_t lx = mc->member_x[0], lz = mc->member_z[0];   /* the leader, north of the centre */
    int h = put_hero(m, GOTA_TEAM_RED, lx, lz - 3 * T);   /* 3 tiles: too far */
    step(m, 3);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RESTING);
    place(m, h, lx, lz - 2 * T);                        /* exactly 2 tiles */
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    CHECK_EQ(m->camp[CAMP_T2].target, h);
    CHECK_EQ(m->camp[CAMP_T2].target_id, m->unit[h].id);
    CHECK_EQ(m->camp[CAMP_T2].target_seen_tick, m->tick);
    for (int k = 0; k < 3; k++) CHECK(camp_fighting(m, member(m, CAMP_T2, k)));
    for (int c = 0; c < MAP_CAMPS; c++)
        if (c != CAMP_T2) CHECK_EQ(m->camp[c].state, CAMP_RESTING);
    /* the members close in on the hero */
    int64_t before = fx_dist2(m->unit[member(m, CAMP_T2, 1)].x, m->unit[member(m, CAMP_T2, 1)].z, lx, lz - 2 * T);
    step(m, 24);
    int64_t after = fx_dist2(m->unit[member(m, CAMP_T2, 1)].x, m->unit[member(m, CAMP_T2, 1)].z, lx, lz - 2 * T);
    CHECK(after < before);
    gota_match_free(m);

    /* a lane creep within 2 tiles provokes a camp too, and is hit for 8 */
    m = quiet_match();
    mc = &m->map->camp[CAMP_T1];
    int cr = put_creep(m, GOTA_TEAM_BLUE, mc->member_x[0] - 42000, mc->member_z[0]);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T1].state, CAMP_FIGHTING);
    CHECK_EQ(m->camp[CAMP_T1].target, cr);
    step(m, 13);
    CHECK_EQ(m->unit[cr].hp, CREEP_HP);
    step(m, 1);
    CHECK_EQ(m->unit[cr].hp, CREEP_HP - 8);
    gota_match_free(m);

    /* within 2 tiles but hidden behind trees: no provocation */
    m = quiet_match();
    int32_t hx = 0, hz = 0;
    hidden_spot(m, CAMP_T2, &hx, &hz);
    /* a stand-in right next to the hidden tile's tree ring is still hidden from
     * every member; then move a member within 2 tiles of it */
    h = put_hero(m, GOTA_TEAM_RED, hx, hz);
    int s1 = member(m, CAMP_T2, 1);
    place(m, s1, hx + 2 * T, hz);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RESTING);
    gota_match_free(m);
}

static void test_provoke_by_damage(void)
{
    GotaMatch *m = quiet_match();
    const MapCamp *mc = &m->map->camp[CAMP_T2];
    int far = put_hero(m, GOTA_TEAM_BLUE, mc->x, mc->z - 6 * T);
    int near = put_hero(m, GOTA_TEAM_RED, mc->x, mc->z - 5 * T);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RESTING);
    int s1 = member(m, CAMP_T2, 1);
    /* two attackers in one tick: the one nearer the centre becomes the target */
    combat_queue(m, far, s1, 5);
    combat_queue(m, near, s1, 7);
    combat_resolve(m);
    camps_after_combat(m);
    CHECK_EQ(m->unit[s1].hp, 180 - 12);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    CHECK_EQ(m->camp[CAMP_T2].target, near);
    CHECK_EQ(m->camp[CAMP_T2].target_id, m->unit[near].id);
    /* a fighting camp keeps its target when someone else hits it */
    combat_queue(m, far, s1, 5);
    combat_resolve(m);
    camps_after_combat(m);
    CHECK_EQ(m->camp[CAMP_T2].target, near);
    CHECK_EQ(m->unit[s1].hp, 180 - 17);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    gota_match_free(m);
}

/* Hit points of `h` after each of the next n ticks. */
static void record_hp(GotaMatch *m, int h, int n, int32_t *hp)
{
    for (int i = 0; i < n; i++) {
        step(m, 1);
        hp[i] = m->unit[h].hp;
    }
}

static void test_attack_cadence(void)
{
    /* one tier-1 member, the hero already in reach: hits at +14, +46, +78 */
    GotaMatch *m = quiet_match();
    const MapCamp *mc = &m->map->camp[CAMP_T1];
    CHECK_EQ(mc->tier, 1);
    CHECK_EQ(mc->members, 1);
    int h = put_hero(m, GOTA_TEAM_RED, mc->member_x[0] + 42000, mc->member_z[0]);
    step(m, 1);   /* provoked and in reach: swing 0 */
    int32_t t0 = m->tick;
    CHECK_EQ(m->camp[CAMP_T1].state, CAMP_FIGHTING);
    CHECK_EQ(m->st[member(m, CAMP_T1, 0)].swing, 0);
    int32_t hp[80];
    record_hp(m, h, 80, hp);   /* hp[i] after tick t0 + 1 + i */
    CHECK_EQ(hp[12], 100000);        /* t0 + 13 */
    CHECK_EQ(hp[13], 100000 - 8);    /* t0 + 14 */
    CHECK_EQ(hp[44], 100000 - 8);    /* t0 + 45 */
    CHECK_EQ(hp[45], 100000 - 16);   /* t0 + 46 */
    CHECK_EQ(hp[76], 100000 - 16);
    CHECK_EQ(hp[77], 100000 - 24);   /* t0 + 78 */
    CHECK_EQ(m->tick, t0 + 80);
    gota_match_free(m);

    /* the hero 1.5 tiles away: the member walks up; the first hit lands 14
     * ticks after the first tick in reach */
    m = quiet_match();
    int s = member(m, CAMP_T1, 0);
    h = put_hero(m, GOTA_TEAM_RED, mc->member_x[0] + 90000, mc->member_z[0]);
    int32_t reach_tick = -1, hit_tick = -1;
    for (int i = 0; i < 120 && hit_tick < 0; i++) {
        step(m, 1);
        if (reach_tick < 0 && m->st[s].swing == 0) reach_tick = m->tick;
        if (m->unit[h].hp < 100000) hit_tick = m->tick;
    }
    CHECK(reach_tick > 2);
    CHECK_EQ(hit_tick, reach_tick + 14);
    CHECK_EQ(m->unit[h].hp, 100000 - 8);
    CHECK(fx_dist2(m->unit[s].x, m->unit[s].z, m->unit[h].x, m->unit[h].z) <= (int64_t)54000 * 54000);
    gota_match_free(m);

    /* a leader hits for 8 * 3 / 2 = 12; a stunned member does nothing and
     * counts its stun down, a rooted one does not move */
    m = quiet_match();
    mc = &m->map->camp[CAMP_T1L];
    CHECK_EQ(mc->members, 2);
    int lead = member(m, CAMP_T1L, 0), other = member(m, CAMP_T1L, 1);
    m->st[other].stun = 100;
    h = put_hero(m, GOTA_TEAM_RED, mc->member_x[0], mc->member_z[0] - 42000);
    int32_t ox = m->unit[other].x, oz = m->unit[other].z;
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T1L].state, CAMP_FIGHTING);
    record_hp(m, h, 46, hp);
    CHECK_EQ(hp[12], 100000);
    CHECK_EQ(hp[13], 100000 - 12);
    CHECK_EQ(hp[45], 100000 - 24);
    CHECK_EQ(m->st[other].stun, 100 - 47);
    CHECK_EQ(m->unit[other].x, ox);
    CHECK_EQ(m->unit[other].z, oz);
    CHECK_EQ(m->st[other].swing, -1);
    m->st[other].stun = 0;
    m->st[other].root = 30;
    step(m, 20);
    CHECK_EQ(m->st[other].root, 10);
    CHECK_EQ(m->unit[other].x, ox);
    CHECK_EQ(m->unit[other].z, oz);
    step(m, 40);   /* root over: it walks to the hero */
    CHECK(fx_dist2(m->unit[other].x, m->unit[other].z, ox, oz) > (int64_t)30000 * 30000);
    CHECK(m->unit[lead].alive);
    gota_match_free(m);
}

/* Step until the camp rests again (at most `limit` ticks); returns the ticks. */
static int until_resting(GotaMatch *m, int c, int limit)
{
    for (int i = 1; i <= limit; i++) {
        step(m, 1);
        if (m->camp[c].state == CAMP_RESTING) return i;
    }
    return -1;
}

static void check_home_and_healed(const GotaMatch *m, int c)
{
    for (int k = 0; k < m->map->camp[c].members; k++) {
        int s = member(m, c, k);
        CHECK_EQ(m->unit[s].hp, m->unit[s].max_hp);
        CHECK(dist_home(m, c, k) <= 30000);
        CHECK(unit_attackable(m, s));
    }
}

static void test_leash(void)
{
    GotaMatch *m = quiet_match();
    const MapCamp *mc = &m->map->camp[CAMP_T2];
    int32_t fx = 0, fz = 0;
    far_spot(m, CAMP_T2, &fx, &fz);
    int h = put_hero(m, GOTA_TEAM_RED, mc->member_x[0], mc->member_z[0] - 2 * T);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    step(m, 30);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    for (int k = 0; k < 3; k++) m->unit[member(m, CAMP_T2, k)].hp = 50;
    m->st[member(m, CAMP_T2, 2)].root = 500;
    m->st[member(m, CAMP_T2, 1)].stun = 500;
    /* the target is dragged beyond 12 tiles: the camp returns */
    place(m, h, fx, fz);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RETURNING);
    CHECK_EQ(m->camp[CAMP_T2].target, -1);
    for (int k = 0; k < 3; k++) {
        int s = member(m, CAMP_T2, k);
        CHECK(!unit_attackable(m, s));
        CHECK(camp_returning(m, s));
        CHECK(!camp_fighting(m, s));
        CHECK_EQ(m->st[s].stun, 0);
        CHECK_EQ(m->st[s].root, 0);
        CHECK_EQ(m->unit[s].target_id, -1);
    }
    /* returning members take no damage */
    int s0 = member(m, CAMP_T2, 0);
    combat_queue(m, h, s0, 40);
    combat_resolve(m);
    camps_after_combat(m);
    CHECK_EQ(m->unit[s0].hp, 50);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RETURNING);
    int took = until_resting(m, CAMP_T2, 240);
    CHECK(took > 0);
    check_home_and_healed(m, CAMP_T2);
    gota_match_free(m);

    /* a member strays over 12 tiles from the centre: the camp returns and it
     * walks all the way home */
    m = quiet_match();
    h = put_hero(m, GOTA_TEAM_RED, mc->member_x[0], mc->member_z[0] - 2 * T);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    int s2 = member(m, CAMP_T2, 2);
    place(m, s2, fx, fz);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RETURNING);
    place(m, h, mc->member_x[0], mc->member_z[0] - 4 * T);   /* out of provoking range */
    took = until_resting(m, CAMP_T2, 900);
    CHECK(took > 13 * T / 5500);   /* 13 tiles at 5,500 per tick: at least 141 ticks */
    check_home_and_healed(m, CAMP_T2);
    /* back within 2 tiles: the rested camp is provoked again */
    place(m, h, mc->member_x[0], mc->member_z[0] - 2 * T);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    gota_match_free(m);

    /* the target dies: the camp returns */
    m = quiet_match();
    h = put_hero(m, GOTA_TEAM_RED, mc->member_x[0], mc->member_z[0] - 2 * T);
    step(m, 30);   /* the members leave their spots */
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    m->unit[h].alive = 0;
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RETURNING);
    gota_match_free(m);
}

static void test_unseen(void)
{
    GotaMatch *m = quiet_match();
    const MapCamp *mc = &m->map->camp[CAMP_T2];
    int32_t hx = 0, hz = 0;
    hidden_spot(m, CAMP_T2, &hx, &hz);
    int32_t vx = mc->member_x[0], vz = mc->member_z[0] - 2 * T;
    int h = put_hero(m, GOTA_TEAM_RED, vx, vz);
    step(m, 1);
    int32_t t0 = m->tick;
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    /* hidden for 60 ticks, then seen again: the clock restarts */
    place(m, h, hx, hz);
    step(m, 60);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    CHECK_EQ(m->camp[CAMP_T2].target_seen_tick, t0);
    CHECK_EQ(m->camp[CAMP_T2].seen_x, vx);
    CHECK_EQ(m->camp[CAMP_T2].seen_z, vz);
    place(m, h, vx, vz);
    step(m, 1);
    int32_t t1 = m->tick;
    CHECK_EQ(m->camp[CAMP_T2].target_seen_tick, t1);
    /* hidden again: 71 ticks later still fighting, at 72 the camp returns */
    place(m, h, hx, hz);
    step(m, 70);
    CHECK_EQ(m->tick, t1 + 70);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_FIGHTING);
    step(m, 1);
    CHECK_EQ(m->tick, t1 + 72);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RETURNING);
    CHECK(until_resting(m, CAMP_T2, 240) > 0);
    check_home_and_healed(m, CAMP_T2);
    gota_match_free(m);
}

static void test_respawn(void)
{
    GotaMatch *m = quiet_match();
    const MapCamp *mc = &m->map->camp[CAMP_T2];
    int h = put_hero(m, GOTA_TEAM_RED, mc->x, mc->z - 6 * T);
    step(m, 1);
    int old_id = m->unit[member(m, CAMP_T2, 0)].id;
    /* two of three dead: the camp lives on */
    kill_member(m, CAMP_T2, 1, h);
    kill_member(m, CAMP_T2, 2, h);
    CHECK(m->camp[CAMP_T2].state != CAMP_EMPTY);
    step(m, 10);
    kill_member(m, CAMP_T2, 0, h);
    int32_t died = m->tick;
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_EMPTY);
    CHECK_EQ(m->camp[CAMP_T2].respawn_at, died + 1440);
    place(m, h, mc->x + 20 * T, mc->z);   /* out of the way */
    step(m, 1439);
    CHECK_EQ(m->tick, died + 1439);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_EMPTY);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RESTING);
    for (int k = 0; k < 3; k++) {
        int s = member(m, CAMP_T2, k);
        CHECK(m->unit[s].alive);
        CHECK_EQ(m->unit[s].hp, m->unit[s].max_hp);
        CHECK_EQ(m->unit[s].x, mc->member_x[k]);
        CHECK_EQ(m->unit[s].z, mc->member_z[k]);
    }
    CHECK(m->unit[member(m, CAMP_T2, 0)].id > old_id);
    CHECK_EQ(m->unit[member(m, CAMP_T2, 0)].max_hp, 360);

    /* a living hero within 10 tiles delays the respawn; a dead one does not */
    for (int k = 0; k < 3; k++) kill_member(m, CAMP_T2, k, h);
    died = m->tick;
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_EMPTY);
    place(m, h, mc->x, mc->z - 9 * T);
    step(m, 1440 + 100);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_EMPTY);
    m->unit[h].alive = 0;
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RESTING);
    for (int k = 0; k < 3; k++) kill_member(m, CAMP_T2, k, h);
    m->unit[h].alive = 1;
    step(m, 1440);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_EMPTY);
    place(m, h, mc->x, mc->z - 11 * T);
    step(m, 1);
    CHECK_EQ(m->camp[CAMP_T2].state, CAMP_RESTING);
    gota_match_free(m);
}

static void test_determinism(void)
{
    GotaMatch *a = new_match(1), *b = new_match(1);
    /* walking creeps of both teams next to every camp: fights, leashes, deaths */
    GotaMatch *both[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        step(both[i], 1);
        for (int c = 0; c < MAP_CAMPS; c++) {
            const MapCamp *mc = &a->map->camp[c];
            for (int team = 0; team < 2; team++) {
                int cr = put_creep(both[i], team, mc->x + (team ? T : -T), mc->z + T);
                both[i]->st[cr].speed = CREEP_SPEED;
            }
        }
    }
    step(a, 2999);
    step(b, 999);
    step(b, 2000);
    uint64_t ha = 0, hb = 1;
    CHECK_EQ(gota_match_hash(a, &ha), GOTA_OK);
    CHECK_EQ(gota_match_hash(b, &hb), GOTA_OK);
    CHECK(ha == hb);
    CHECK(memcmp(a->camp, b->camp, sizeof a->camp) == 0);
    int neutrals = 0;
    for (int i = 0; i < a->unit_n; i++) neutrals += a->unit[i].kind == GOTA_KIND_NEUTRAL && a->unit[i].alive;
    CHECK(neutrals > 0);
    gota_match_free(a);
    gota_match_free(b);
}

int main(void)
{
    test_spawn();
    test_provoke_by_proximity();
    test_provoke_by_damage();
    test_attack_cadence();
    test_leash();
    test_unseen();
    test_respawn();
    test_determinism();
    return check_report("test_camps");
}
