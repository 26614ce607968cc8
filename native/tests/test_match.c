/*
 * test_match.c -- the rules of part 1 with the numbers of docs/rules.md: exposure chain,
 * tower fire and target priority, creep waves, creep attacks, simultaneous
 * combat resolution, structure destruction, game end, determinism and lane
 * isolation, and bad input to every entry point.
 */
#include <stdlib.h>
#include <string.h>
#include "sim/world.h"
#include "check.h"
#include "scenario.h"

static GotaMatch *new_match(int64_t seed, int64_t max_ticks, int64_t wave_interval)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "seed", seed);
    gota_config_set(&cfg, "max_ticks", max_ticks);
    gota_config_set(&cfg, "wave_interval", wave_interval);
    gota_config_set(&cfg, "heroes", 0);   /* the rules of part 1: structures and creeps */
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

static int building_slot(const GotaMatch *m, int kind, int team, int lane, int tier)
{
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        if (b->kind == kind && b->team == team && b->lane == lane && b->tier == tier) return m->building_slot[i];
    }
    return -1;
}

static void remove_mobile_units(GotaMatch *m)
{
    for (int i = 0; i < m->unit_n; i++)
        if (m->unit[i].kind == GOTA_KIND_CREEP || m->unit[i].kind == GOTA_KIND_HERO) {
            memset(&m->unit[i], 0, sizeof m->unit[i]);
            memset(&m->st[i], 0, sizeof m->st[i]);
        }
    m->lane_creeps = 0;
}

/* A test unit: a creep (sub = melee/ranged) or a stand-in hero body. */
static int put_unit(GotaMatch *m, int kind, int team, int sub, int32_t x, int32_t z)
{
    int slot = scenario_unit(m, kind, team, x, z, kind == GOTA_KIND_CREEP ? CREEP_HP : 500);
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    u->damage = CREEP_DAMAGE;
    u->range = sub == GOTA_CREEP_RANGED ? CREEP_RANGED_RANGE : CREEP_MELEE_RANGE;
    u->sub = (int16_t)sub;
    u->lane = 1;
    u->radius_q = 22;
    s->speed = kind == GOTA_KIND_CREEP ? CREEP_SPEED : 0;
    s->period = CREEP_PERIOD;
    s->windup = CREEP_HIT_TICK;
    s->waypoint = team == GOTA_TEAM_RED ? m->map->lane_n[1] : -1;   /* done marching */
    s->path_revision = -1;
    if (kind == GOTA_KIND_CREEP) m->lane_creeps++;
    return slot;
}

/* An open tile centre at least `clear` tiles from every building. */
static void open_spot(const GotaMatch *m, int clear, int32_t *x, int32_t *z)
{
    for (int tz = 20; tz < MAP_N - 20; tz++)
        for (int tx = 20; tx < MAP_N - 20; tx++) {
            int ok = 1;
            for (int dz = -2; dz <= 2 && ok; dz++)
                for (int dx = -2; dx <= 2 && ok; dx++)
                    ok = nav_open(&m->nav, m->map, map_index(tx + dx, tz + dz)) &&
                         m->map->level[map_index(tx + dx, tz + dz)] == m->map->level[map_index(tx, tz)];
            int32_t cx = map_tile_centre(tx), cz = map_tile_centre(tz);
            for (int i = 0; i < m->map->building_n && ok; i++) {
                int64_t dx = m->map->building[i].x - cx, dz = m->map->building[i].z - cz;
                ok = dx * dx + dz * dz > (int64_t)clear * GOTA_TILE * clear * GOTA_TILE;
            }
            for (int i = 0; i < MAP_CAMPS && ok; i++) {   /* and out of the camps' reach */
                int64_t dx = m->map->camp[i].x - cx, dz = m->map->camp[i].z - cz;
                ok = dx * dx + dz * dz > (int64_t)clear * GOTA_TILE * clear * GOTA_TILE;
            }
            if (ok) { *x = cx; *z = cz; return; }
        }
    *x = *z = 0;
}

static void test_config(void)
{
    GotaConfig cfg;
    CHECK_EQ(gota_config_default(&cfg), GOTA_OK);
    CHECK_EQ(cfg.seed, 2026);
    CHECK_EQ(cfg.max_ticks, 28800);
    CHECK_EQ(cfg.wave_interval, 480);
    CHECK_EQ(gota_config_set(&cfg, "sed", 1), GOTA_ERR_UNKNOWN_KEY);
    CHECK_EQ(gota_config_set(&cfg, "max_ticks", 0), GOTA_ERR_RANGE);
    CHECK_EQ(gota_config_set(&cfg, "max_ticks", 28801), GOTA_ERR_RANGE);
    CHECK_EQ(gota_config_set(&cfg, "seed", (int64_t)INT32_MAX + 1), GOTA_ERR_RANGE);
    CHECK_EQ(gota_config_set(&cfg, "seed", INT32_MIN), GOTA_OK);
    CHECK_EQ(gota_config_set(NULL, "seed", 1), GOTA_ERR_NULL);
    CHECK_EQ(gota_config_set(&cfg, NULL, 1), GOTA_ERR_NULL);
    int64_t lo, hi;
    CHECK_EQ(gota_config_range("wave_interval", &lo, &hi), GOTA_OK);
    CHECK_EQ(lo, 24);
    CHECK_EQ(hi, 28800);
    CHECK_EQ(gota_config_range("nope", &lo, &hi), GOTA_ERR_UNKNOWN_KEY);
    cfg.max_ticks = -5;   /* a struct filled by hand is checked too */
    int err = 0;
    CHECK(gota_match_new(&cfg, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_match_new(NULL, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_NULL);
}

static void test_bad_input(void)
{
    GotaMatch *m = new_match(1, 100, 480);
    GotaMatchInfo info;
    uint64_t h;
    const GotaUnit *units;
    int32_t n, ran;
    int64_t next;
    GotaEvent ev[4];
    uint8_t grid[MAP_TILES];
    int32_t xz[8];
    CHECK_EQ(gota_match_step(NULL, 1, &ran), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_step(m, 0, &ran), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_step(m, -3, &ran), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_reset(NULL, 1), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_reset(m, (int64_t)INT32_MAX + 1), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_info(NULL, &info), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_info(m, NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_hash(NULL, &h), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_units(NULL, &units, &n), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_events(m, 0, ev, -1, &n, &next), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_events(m, -1, ev, 4, &n, &next), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_events(NULL, 0, ev, 4, &n, &next), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_vision(m, 2, grid, MAP_TILES), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_vision(m, 0, grid, MAP_TILES - 1), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_match_walkable(m, grid, 10), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_match_unit_visible(m, 0, 100000, &n), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_debug_set_hp(m, -1, 5), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_debug_set_hp(m, 0, 0), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_find_path(m, 0, 0, 10 * MAP_HALF_WORLD, 0, xz, 8, &n), GOTA_ERR_RANGE);
    CHECK_EQ(gota_match_step(m, 1000, &ran), GOTA_OK);
    CHECK_EQ(ran, 100);
    CHECK_EQ(gota_match_step(m, 1, &ran), GOTA_ERR_OVER);
    gota_match_free(NULL);
    gota_match_free(m);
}

static void test_structures_at_start(void)
{
    GotaMatch *m = new_match(3, 28800, 480);
    int kinds[8] = {0}, exposed = 0;
    for (int i = 0; i < m->unit_n; i++) {
        kinds[m->unit[i].kind]++;
        exposed += m->unit[i].exposed;
    }
    CHECK_EQ(kinds[GOTA_KIND_GOD], 2);
    CHECK_EQ(kinds[GOTA_KIND_TOWER], 22);
    CHECK_EQ(kinds[GOTA_KIND_BARRACKS], 12);
    CHECK_EQ(exposed, 6);   /* only the outer towers */
    for (int team = 0; team < 2; team++)
        for (int lane = 0; lane < 3; lane++) {
            int o = building_slot(m, GOTA_KIND_TOWER, team, lane, GOTA_TIER_OUTER);
            int in = building_slot(m, GOTA_KIND_TOWER, team, lane, GOTA_TIER_INNER);
            int g = building_slot(m, GOTA_KIND_TOWER, team, lane, GOTA_TIER_GATE);
            CHECK(o >= 0 && in >= 0 && g >= 0);
            CHECK_EQ(m->unit[o].hp, 1900); CHECK_EQ(m->unit[o].damage, 36); CHECK_EQ(m->unit[o].range, 300000);
            CHECK_EQ(m->unit[in].hp, 2600); CHECK_EQ(m->unit[in].damage, 48); CHECK_EQ(m->unit[in].range, 330000);
            CHECK_EQ(m->unit[g].hp, 3900); CHECK_EQ(m->unit[g].damage, 60); CHECK_EQ(m->unit[g].range, 360000);
            CHECK(m->unit[o].exposed && !m->unit[in].exposed && !m->unit[g].exposed);
        }
    CHECK_EQ(m->unit[m->god_slot[0]].hp, 400);
    CHECK(!m->unit[m->god_slot[0]].exposed);
    gota_match_free(m);
}

/* Kill a structure through the hit queue, as combat would. */
static void kill(GotaMatch *m, int attacker, int slot)
{
    combat_queue(m, attacker, slot, m->unit[slot].hp);
    combat_resolve(m);
    structures_sync(m);
}

static void test_exposure_chain(void)
{
    GotaMatch *m = new_match(4, 28800, 480);
    const int blue = GOTA_TEAM_BLUE, lane = 0;
    int attacker = m->god_slot[GOTA_TEAM_RED];
    int outer = building_slot(m, GOTA_KIND_TOWER, blue, lane, GOTA_TIER_OUTER);
    int inner = building_slot(m, GOTA_KIND_TOWER, blue, lane, GOTA_TIER_INNER);
    int gate = building_slot(m, GOTA_KIND_TOWER, blue, lane, GOTA_TIER_GATE);
    int guard = building_slot(m, GOTA_KIND_TOWER, blue, -1, GOTA_TIER_GUARD);
    int barracks = building_slot(m, GOTA_KIND_BARRACKS, blue, lane, 0);
    int god = m->god_slot[blue];
    /* hits on an unexposed structure are ignored */
    combat_queue(m, attacker, inner, 100);
    combat_resolve(m);
    CHECK_EQ(m->unit[inner].hp, 2600);
    kill(m, attacker, outer);
    CHECK(!m->unit[outer].alive);
    CHECK(m->unit[inner].exposed && !m->unit[gate].exposed && !m->unit[barracks].exposed);
    kill(m, attacker, inner);
    CHECK(m->unit[gate].exposed && !m->unit[barracks].exposed && !m->unit[guard].exposed);
    kill(m, attacker, gate);
    CHECK(m->unit[barracks].exposed && m->unit[guard].exposed && !m->unit[god].exposed);
    /* the other lanes' barracks stay protected */
    CHECK(!m->unit[building_slot(m, GOTA_KIND_BARRACKS, blue, 1, 0)].exposed);
    kill(m, attacker, guard);
    CHECK(!m->unit[god].exposed);
    int guard2 = -1;
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        if (b->team == blue && b->tier == GOTA_TIER_GUARD && m->building_alive[i]) guard2 = m->building_slot[i];
    }
    CHECK(guard2 >= 0);
    kill(m, attacker, guard2);
    CHECK(m->unit[god].exposed);
    gota_match_free(m);
}

static void test_destroyed_tower_frees_tiles(void)
{
    GotaMatch *m = new_match(5, 28800, 480);
    int outer = building_slot(m, GOTA_KIND_TOWER, GOTA_TEAM_RED, 1, GOTA_TIER_OUTER);
    const MapBuilding *b = &m->map->building[m->st[outer].building];
    CHECK(b->footprint_n > 0);
    for (int k = 0; k < b->footprint_n; k++) CHECK(!nav_open(&m->nav, m->map, b->footprint[k]));
    int rev = m->nav.revision;
    kill(m, m->god_slot[GOTA_TEAM_BLUE], outer);
    CHECK(m->nav.revision > rev);
    for (int k = 0; k < b->footprint_n; k++) CHECK(nav_open(&m->nav, m->map, b->footprint[k]));
    int64_t next;
    int32_t n;
    GotaEvent ev[64];
    gota_match_events(m, 0, ev, 64, &n, &next);
    int found = 0;
    for (int i = 0; i < n; i++)
        if (ev[i].type == GOTA_EVENT_STRUCTURE && ev[i].unit == m->unit[outer].id) found = 1;
    CHECK(found);
    gota_match_free(m);
}

static void test_wave(void)
{
    GotaMatch *m = new_match(6, 28800, 480);
    int32_t ran;
    gota_match_step(m, 1, &ran);
    int count[2][3][2] = {{{0}}};
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->kind == GOTA_KIND_CREEP) {
            count[u->team][u->lane][u->sub]++;
            CHECK_EQ(u->hp, 60);
            CHECK_EQ(u->damage, 12);
            CHECK_EQ(u->range, u->sub == GOTA_CREEP_MELEE ? 54000 : 240000);
        }
    }
    for (int t = 0; t < 2; t++)
        for (int l = 0; l < 3; l++) {
            CHECK_EQ(count[t][l][GOTA_CREEP_MELEE], 6);
            CHECK_EQ(count[t][l][GOTA_CREEP_RANGED], 2);
        }
    CHECK_EQ(m->lane_creeps, 48);
    /* the next wave comes 480 ticks later: the tick that ends at battle tick 481 */
    gota_match_step(m, 478, &ran);
    int before = m->lane_creeps, next_id = m->next_id;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(m->next_id, next_id);
    gota_match_step(m, 1, &ran);
    CHECK_EQ(m->tick, 481);
    CHECK_EQ(m->next_id, next_id + 48);
    CHECK(m->lane_creeps >= before + 48 - 8);
    /* the cap: no wave when 480 + 48 would be exceeded */
    m->lane_creeps = CREEP_CAP - 47;
    int id = m->next_id;
    creeps_spawn_wave(m);
    CHECK_EQ(m->next_id, id);
    /* marching: after 20 s every lane's creeps have left their spawn */
    gota_match_free(m);
}

/* A wave is point-symmetric: every creep of one team has its mirror image
 * (-x, -z, same kind, lane 2 - lane) on the other team, on the tick it spawns. */
static void test_wave_mirrored(void)
{
    GotaMatch *m = new_match(6, 28800, 480);
    int32_t ran;
    gota_match_step(m, 1, &ran);
    int creeps = 0, unmatched = 0;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->kind != GOTA_KIND_CREEP) continue;
        creeps++;
        int found = 0;
        for (int j = 0; j < m->unit_n; j++) {
            const GotaUnit *v = &m->unit[j];
            found |= v->kind == GOTA_KIND_CREEP && v->team == 1 - u->team && v->lane == 2 - u->lane &&
                     v->sub == u->sub && v->x == -u->x && v->z == -u->z;
        }
        unmatched += !found;
    }
    CHECK_EQ(creeps, 48);
    CHECK_EQ(unmatched, 0);
    gota_match_free(m);
}

static void test_creep_attack_timing(void)
{
    GotaMatch *m = new_match(7, 28800, 28800);
    int32_t ran, x, z;
    gota_match_step(m, 1, &ran);
    remove_mobile_units(m);
    open_spot(m, 14, &x, &z);
    CHECK(x != 0 || z != 0);
    int a = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_MELEE, x, z);
    int b = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_RANGED, x + 3 * GOTA_TILE, z);
    m->st[b].speed = 0;   /* hold still: the ranged creep is in its range, the melee one walks in */
    /* ranged creep: 3 tiles <= 4 tiles range, first in-range tick = next tick, hit 14 ticks later */
    int hp_log[80];
    for (int t = 0; t < 80; t++) {
        gota_match_step(m, 1, &ran);
        hp_log[t] = m->unit[a].hp;
    }
    CHECK_EQ(hp_log[13], 60);
    CHECK_EQ(hp_log[14], 48);
    CHECK_EQ(hp_log[14 + 31], 48);
    CHECK_EQ(hp_log[14 + 32], 36);
    CHECK_EQ(hp_log[14 + 64], 24);
    gota_match_free(m);
}

static void test_mutual_kill_and_order(void)
{
    GotaMatch *m = new_match(8, 28800, 28800);
    int32_t ran, x, z;
    gota_match_step(m, 1, &ran);
    remove_mobile_units(m);
    open_spot(m, 14, &x, &z);
    int a = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, 0, x, z);
    int b = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, 0, x + 40000, z);
    m->unit[a].hp = 5;
    m->unit[b].hp = 5;
    combat_queue(m, a, b, 12);
    combat_queue(m, b, a, 12);
    combat_resolve(m);
    CHECK(!m->unit[a].alive && !m->unit[b].alive);
    CHECK_EQ(m->lane_creeps, 0);
    /* the kill goes to the hit that takes HP to 0, whatever the queue order */
    int c = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, 0, x, z + 2 * GOTA_TILE);
    int d = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, 0, x, z + 3 * GOTA_TILE);
    int v = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, 0, x + GOTA_TILE, z + 2 * GOTA_TILE);
    m->unit[v].hp = 12;
    GotaMatch *m2 = malloc(sizeof *m2);
    memcpy(m2, m, sizeof *m);
    combat_queue(m, c, v, 12);
    combat_queue(m, d, v, 12);
    combat_queue(m2, d, v, 12);
    combat_queue(m2, c, v, 12);
    combat_resolve(m);
    combat_resolve(m2);
    CHECK_EQ(m->killer[v], m2->killer[v]);
    CHECK(m->killer[v] == c || m->killer[v] == d);
    CHECK_EQ(match_hash(m), match_hash(m2));
    free(m2);
    gota_match_free(m);
}

static void test_tower_priority_and_damage(void)
{
    GotaMatch *m = new_match(9, 28800, 28800);
    int32_t ran;
    gota_match_step(m, 1, &ran);
    remove_mobile_units(m);
    int tower = building_slot(m, GOTA_KIND_TOWER, GOTA_TEAM_RED, 1, GOTA_TIER_OUTER);
    int32_t tx = m->unit[tower].x, tz = m->unit[tower].z;
    /* find two open spots in range: hero nearer than the creep */
    int32_t hx = 0, hz = 0, cx = 0, cz = 0;
    int found = 0;
    for (int r = 2; r <= 4 && found < 2; r++)
        for (int dz = -r; dz <= r && found < 2; dz++)
            for (int dx = -r; dx <= r && found < 2; dx++) {
                int32_t px = tx + dx * GOTA_TILE, pz = tz + dz * GOTA_TILE;
                if (!nav_open(&m->nav, m->map, map_index_of(px, pz))) continue;
                if (found == 0 && r == 2) { hx = px; hz = pz; found = 1; }
                else if (found == 1 && r == 4 && dx * dx + dz * dz <= 16) { cx = px; cz = pz; found = 2; }
            }
    CHECK_EQ(found, 2);
    int hero = put_unit(m, GOTA_KIND_HERO, GOTA_TEAM_BLUE, 0, hx, hz);
    int creep = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, 0, cx, cz);
    m->st[creep].speed = 0;
    m->unit[creep].damage = 0;   /* keep the tower's HP out of the picture */
    m->unit[hero].damage = 0;
    m->unit[creep].hp = m->unit[creep].max_hp = 1000;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(m->unit[tower].target_id, m->unit[creep].id);
    gota_match_step(m, 23, &ran);
    CHECK_EQ(m->unit[creep].hp, 1000);
    gota_match_step(m, 1, &ran);
    CHECK_EQ(m->unit[creep].hp, 1000 - 36);
    gota_match_step(m, 24, &ran);
    CHECK_EQ(m->unit[creep].hp, 1000 - 72);
    CHECK_EQ(m->unit[hero].hp, 500);
    /* with the creep gone the tower turns to the hero */
    memset(&m->unit[creep], 0, sizeof m->unit[creep]);
    m->lane_creeps = 0;
    gota_match_step(m, 25, &ran);
    CHECK_EQ(m->unit[tower].target_id, m->unit[hero].id);
    CHECK_EQ(m->unit[hero].hp, 500 - 36);
    gota_match_free(m);
}

static void test_game_end(void)
{
    GotaMatch *m = new_match(10, 28800, 480);
    int32_t ran;
    m->unit[m->god_slot[0]].exposed = 1;
    m->unit[m->god_slot[1]].exposed = 1;
    /* both gods on the same tick: a draw */
    GotaMatch *m2 = malloc(sizeof *m2);
    memcpy(m2, m, sizeof *m);
    combat_queue(m, m->god_slot[0], m->god_slot[1], 400);
    combat_queue(m, m->god_slot[1], m->god_slot[0], 400);
    combat_resolve(m);
    gota_match_step(m, 1, &ran);
    GotaMatchInfo info;
    gota_match_info(m, &info);
    CHECK_EQ(info.result, GOTA_RESULT_DRAW);
    CHECK_EQ(info.winner, -1);
    CHECK_EQ(gota_match_step(m, 1, &ran), GOTA_ERR_OVER);
    /* one god: the other team wins */
    combat_queue(m2, m2->god_slot[0], m2->god_slot[1], 400);
    combat_resolve(m2);
    gota_match_step(m2, 1, &ran);
    gota_match_info(m2, &info);
    CHECK_EQ(info.result, GOTA_RESULT_WIN);
    CHECK_EQ(info.winner, GOTA_TEAM_RED);
    free(m2);
    /* timeout at max_ticks */
    gota_match_reset(m, 11);
    m->cfg.max_ticks = 50;
    CHECK_EQ(gota_match_step(m, 1000, &ran), GOTA_OK);
    CHECK_EQ(ran, 50);
    gota_match_info(m, &info);
    CHECK_EQ(info.result, GOTA_RESULT_TIMEOUT);
    gota_match_free(m);
}

static void test_corpses(void)
{
    GotaMatch *m = new_match(12, 28800, 28800);
    int32_t ran, x, z;
    gota_match_step(m, 1, &ran);
    remove_mobile_units(m);
    open_spot(m, 14, &x, &z);
    int a = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, 0, x, z);
    int id = m->unit[a].id;
    combat_queue(m, m->god_slot[1], a, 60);
    combat_resolve(m);
    CHECK(!m->unit[a].alive);
    gota_match_step(m, CREEP_CORPSE_TICKS - 1, &ran);
    CHECK_EQ(m->unit[a].id, id);
    gota_match_step(m, 1, &ran);
    CHECK(m->unit[a].id != id);
    gota_match_free(m);
}

static void test_determinism_and_isolation(void)
{
    GotaMatch *a = new_match(13, 28800, 480);
    GotaMatch *b = new_match(13, 28800, 480);
    GotaMatch *other = new_match(99, 28800, 480);
    int32_t ran;
    for (int t = 0; t < 3000; t++) {
        gota_match_step(a, 1, &ran);
        gota_match_step(other, 1, &ran);
    }
    gota_match_step(b, 3000, &ran);
    uint64_t ha, hb, ho;
    gota_match_hash(a, &ha);
    gota_match_hash(b, &hb);
    gota_match_hash(other, &ho);
    CHECK(ha == hb);
    CHECK(ha != ho);
    /* reset restores the start state exactly */
    GotaMatch *c = new_match(13, 28800, 480);
    gota_match_reset(a, 13);
    gota_match_hash(a, &ha);
    gota_match_hash(c, &hb);
    CHECK(ha == hb);
    gota_match_free(a);
    gota_match_free(b);
    gota_match_free(c);
    gota_match_free(other);
}

/* match_renew (a lane's restart) gives the match gota_match_new gives: same
 * hash, config and play, whatever the match played before, with its script
 * seats' VMs gone; a refused config changes nothing. */
static void test_renew(void)
{
    GotaConfig played, next;
    gota_config_default(&played);
    played.seed = 5;
    for (int k = 0; k < 10; k++) played.bot[k] = k < 5 ? GOTA_BOT_BASE : GOTA_BOT_RANDOM;
    next = played;
    next.seed = 8;
    next.max_ticks = 4000;
    next.upkeep = 1;
    for (int k = 0; k < 10; k++) next.bot[k] = k % 3 == 0 ? GOTA_BOT_EXTERNAL : GOTA_BOT_BASE;
    int err;
    GotaMatch *a = gota_match_new(&played, &err);
    GotaMatch *fresh = gota_match_new(&next, &err);
    int32_t ran;
    gota_match_step(a, 2500, &ran);
    uint64_t ha, hf;
    GotaConfig bad = next;
    bad.max_ticks = 0;
    gota_match_hash(a, &hf);
    CHECK_EQ(match_renew(a, &bad), GOTA_ERR_RANGE);
    gota_match_hash(a, &ha);
    CHECK(ha == hf);
    CHECK_EQ(match_renew(a, &next), GOTA_OK);
    gota_match_hash(a, &ha);
    gota_match_hash(fresh, &hf);
    CHECK(ha == hf);
    GotaConfig ca, cf;
    gota_match_config(a, &ca);
    gota_match_config(fresh, &cf);
    CHECK(memcmp(&ca, &cf, sizeof ca) == 0);
    for (int k = 0; k < 10; k++) CHECK(a->script[k] == NULL);
    gota_match_step(a, 3000, &ran);
    gota_match_step(fresh, 3000, &ran);
    gota_match_hash(a, &ha);
    gota_match_hash(fresh, &hf);
    CHECK(ha == hf);
    gota_match_free(a);
    gota_match_free(fresh);
}

static void test_creeps_push(void)
{
    /* creep-only match: waves meet, fight and push; structures fall over time */
    GotaMatch *m = new_match(14, 28800, 480);
    int32_t ran;
    gota_match_step(m, 4800, &ran);
    int64_t next;
    int32_t n;
    GotaEvent ev[EVENT_LOG];
    gota_match_events(m, 0, ev, EVENT_LOG, &n, &next);
    int deaths = 0;
    for (int i = 0; i < n; i++) deaths += ev[i].type == GOTA_EVENT_DEATH && ev[i].kind == GOTA_KIND_CREEP;
    CHECK(deaths > 100);
    CHECK(m->lane_creeps < 480);
    gota_match_free(m);
}

/* Steering keeps facings lazily within a step; every step ends with
 * GotaUnit.facing written back, so readers of the public units see it. */
static void test_facings_settled_after_steps(void)
{
    GotaMatch *m = new_match(3, 28800, 480);
    int32_t ran, lazy = 0, moved = 0;
    for (int step = 0; step < 300; step++) {
        gota_match_step(m, 7, &ran);
        for (int i = 0; i < m->unit_n; i++) {
            lazy += m->st[i].face.lazy;
            moved += m->st[i].face.known;
        }
    }
    CHECK_EQ(lazy, 0);
    CHECK(moved > 1000);        /* facings were kept (and settled) */
    gota_match_free(m);
}

/* Lane creeps and towers fight neutrals only while their camp fights. */
static void test_creeps_and_fighting_neutrals(void)
{
    GotaMatch *m = new_match(15, 28800, 28800);
    int32_t ran;
    gota_match_step(m, 1, &ran);   /* camps spawn on the first battle tick */
    remove_mobile_units(m);
    int member = m->camp[0].member[0];
    CHECK(member >= 0 && m->unit[member].kind == GOTA_KIND_NEUTRAL);
    CHECK_EQ(m->camp[0].state, CAMP_RESTING);
    /* a creep 3 tiles away: out of provoking reach, and a resting camp is no target */
    int32_t x = m->unit[member].x, z = m->unit[member].z, cx = 0, cz = 0;
    for (int k = 0; k < 8 && !(cx || cz); k++) {
        static const int dir[8][2] = {{3, 0}, {-3, 0}, {0, 3}, {0, -3}, {2, 2}, {-2, 2}, {2, -2}, {-2, -2}};
        int32_t px = x + dir[k][0] * GOTA_TILE, pz = z + dir[k][1] * GOTA_TILE;
        if (nav_open(&m->nav, m->map, map_index_of(px, pz))) { cx = px; cz = pz; }
    }
    CHECK(cx || cz);
    int c = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_RANGED, cx, cz);
    m->st[c].speed = 0;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(m->camp[0].state, CAMP_RESTING);
    CHECK_EQ(m->unit[c].target_id, -1);
    /* a hit provokes the camp; from then on the creep takes a neutral as a target */
    combat_queue(m, c, member, 1);
    combat_resolve(m);
    camps_after_combat(m);
    CHECK_EQ(m->camp[0].state, CAMP_FIGHTING);
    gota_match_step(m, 1, &ran);
    CHECK(m->unit[c].target_id >= 0);
    CHECK_EQ(m->unit[unit_target_slot(m, c)].kind, GOTA_KIND_NEUTRAL);
    gota_match_free(m);
}

/* A stunned creep neither moves nor swings; a rooted one does not move. */
static void test_creep_controls(void)
{
    GotaMatch *m = new_match(16, 28800, 28800);
    int32_t ran, x, z;
    gota_match_step(m, 1, &ran);
    remove_mobile_units(m);
    open_spot(m, 14, &x, &z);
    int a = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_MELEE, x, z);
    int b = put_unit(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_MELEE, x + 3 * GOTA_TILE, z);
    m->st[b].speed = 0;
    m->unit[b].damage = 0;
    m->st[a].root = 10;
    gota_match_step(m, 10, &ran);
    CHECK_EQ(m->unit[a].x, x);   /* rooted: it has a target but stays */
    CHECK_EQ(m->st[a].root, 0);
    m->st[a].stun = 5;
    gota_match_step(m, 5, &ran);
    CHECK_EQ(m->unit[a].x, x);
    CHECK_EQ(m->unit[a].target_id, m->unit[b].id);
    gota_match_step(m, 5, &ran);
    CHECK(m->unit[a].x > x);     /* free again: it walks to its target */
    gota_match_free(m);
}

/* Seen flags by the rules, tile by tile: own units; a unit whose tile (both
 * tiles on an edge) is visible; a building when a tile of its footprint is. */
static int plain_seen(const GotaMatch *m, int team, int slot)
{
    const GotaUnit *u = &m->unit[slot];
    if (u->kind == GOTA_KIND_NONE) return 0;
    if (u->team == team) return 1;
    int64_t ux = (int64_t)u->x + MAP_HALF_WORLD, uz = (int64_t)u->z + MAP_HALF_WORLD;
    int tx = (int)(ux / GOTA_TILE), tz = (int)(uz / GOTA_TILE);
    for (int zz = uz % GOTA_TILE == 0 ? tz - 1 : tz; zz <= tz; zz++)
        for (int xx = ux % GOTA_TILE == 0 ? tx - 1 : tx; xx <= tx; xx++)
            if (map_in_bounds(xx, zz) && vision_tile(&m->vision, team, xx, zz)) return 1;
    int b = m->st[slot].building;
    for (int k = 0; b >= 0 && k < m->map->building[b].footprint_n; k++) {
        int t = m->map->building[b].footprint[k];
        if (vision_tile(&m->vision, team, t % MAP_N, t / MAP_N)) return 1;
    }
    return 0;
}

/* match_update_seen (row masks for buildings, inline tile tests) agrees with
 * the rules over every tick of a full match with heroes. The flags are
 * recomputed on each tick's end state and put back, so the match plays on
 * unchanged. */
static void test_seen_flags(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "seed", 1);
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    uint8_t kept[2][GOTA_MAX_UNITS];
    int32_t ran;
    long bad = 0, checked = 0, seen_buildings = 0;
    while (m->result == GOTA_RESULT_RUNNING && gota_match_step(m, 1, &ran) == GOTA_OK) {
        memcpy(kept, m->seen, sizeof kept);
        match_update_seen(m);
        for (int i = 0; i < m->unit_n; i++)
            for (int team = 0; team < 2; team++) {
                int want = plain_seen(m, team, i);
                bad += m->seen[team][i] != want;
                seen_buildings += want && m->st[i].building >= 0 && m->unit[i].team != team;
                checked++;
            }
        memcpy(m->seen, kept, sizeof kept);
    }
    CHECK_EQ(bad, 0);
    CHECK(checked > 1000000);
    CHECK(seen_buildings > 1000);   /* the enemy's buildings were in sight */
    CHECK(m->result != GOTA_RESULT_RUNNING);
    gota_match_free(m);
}

int main(void)
{
    test_config();
    test_bad_input();
    test_structures_at_start();
    test_exposure_chain();
    test_destroyed_tower_frees_tiles();
    test_wave();
    test_wave_mirrored();
    test_creep_attack_timing();
    test_mutual_kill_and_order();
    test_tower_priority_and_damage();
    test_game_end();
    test_corpses();
    test_determinism_and_isolation();
    test_renew();
    test_creeps_push();
    test_facings_settled_after_steps();
    test_creeps_and_fighting_neutrals();
    test_creep_controls();
    test_seen_flags();
    return check_report("test_match");
}
