/* test_units.c -- the shortcuts of target acquisition against plain
 * computations: match_scan_hostile's early answer (bucket_near) against every
 * unit tested one by one, the buckets kept from build to build against the
 * definitions, structure_next_enemy's candidate lists against a
 * loop over every building, unit_building_dist2's boxes against the
 * footprint's tiles, structures_sync's early return against full runs,
 * unit_move_toward's goal tile test against the divisions, and
 * unit_attack_reach_ok's box answer against the footprint's tiles. */
#include <stdlib.h>
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "check.h"

static uint64_t rng_state = 12345;
static int32_t rnd(int32_t lo, int32_t hi)   /* inclusive */
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (int32_t)((rng_state >> 33) % (uint64_t)(hi - lo + 1));
}

typedef struct { int n; int slot[GOTA_MAX_UNITS]; } Visits;

static void collect(const GotaMatch *m, int from, int j, int64_t d2, void *ctx)
{
    (void)m; (void)from; (void)d2;
    Visits *v = ctx;
    v->slot[v->n++] = j;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int is_mobile(int kind)
{
    return kind == GOTA_KIND_HERO || kind == GOTA_KIND_CREEP || kind == GOTA_KIND_NEUTRAL;
}

/* The hostile scan as a plain loop: every other living mobile unit of another
 * team within radius (snapshot positions), in slot order. */
static void plain_scan(const GotaMatch *m, int from, int32_t radius, Visits *v)
{
    v->n = 0;
    int64_t r2 = (int64_t)radius * radius;
    for (int j = 0; j < m->unit_n; j++) {
        const GotaUnit *u = &m->unit[j];
        if (j == from || !u->alive || !is_mobile(u->kind) || u->team == m->unit[from].team) continue;
        if (fx_dist2(m->snap_x[from], m->snap_z[from], m->snap_x[j], m->snap_z[j]) <= r2) v->slot[v->n++] = j;
    }
}

static void compare_scans(GotaMatch *m)
{
    static const int32_t radii[] = {0, 1, 60000, 119999, 120000, 239999, 240000, 300000, 360000,
                                    479999, 480000, 480001, 700000};
    static Visits a, b;
    for (int from = 0; from < m->unit_n; from++) {
        if (m->unit[from].kind == GOTA_KIND_NONE) continue;
        for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
            a.n = 0;
            match_scan_hostile(m, from, radii[k], collect, &a);
            plain_scan(m, from, radii[k], &b);
            qsort(a.slot, (size_t)a.n, sizeof a.slot[0], cmp_int);
            CHECK_EQ(a.n, b.n);
            if (a.n != b.n) fprintf(stderr, "from %d kind %d radius %d\n", from, m->unit[from].kind, radii[k]);
            if (a.n == b.n) CHECK(memcmp(a.slot, b.slot, sizeof a.slot[0] * (size_t)a.n) == 0);
        }
    }
}

static void snapshot(GotaMatch *m)
{
    match_snapshot(m);
}

/* Real matches at several moments, then the same units scattered: clusters,
 * map edges and beyond the map (the edge buckets clamp). */
static void test_scan_shortcut(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    for (int seed = 1; seed <= 3; seed++) {
        cfg.seed = seed;
        GotaMatch *m = gota_match_new(&cfg, NULL);
        CHECK(m != NULL);
        if (!m) return;
        for (int round = 0; round < 8; round++) {
            int32_t ran;
            gota_match_step(m, 300, &ran);
            snapshot(m);
            compare_scans(m);
        }
        for (int round = 0; round < 6; round++) {
            int32_t cx = rnd(-MAP_HALF_WORLD, MAP_HALF_WORLD), cz = rnd(-MAP_HALF_WORLD, MAP_HALF_WORLD);
            int32_t spread = round % 2 ? 600000 : 2 * MAP_HALF_WORLD;
            for (int i = 0; i < m->unit_n; i++) {
                if (!is_mobile(m->unit[i].kind)) continue;
                m->unit[i].x = cx + rnd(-spread, spread);
                m->unit[i].z = cz + rnd(-spread, spread);
                if (round >= 4) m->unit[i].alive = (int8_t)rnd(0, 1);
            }
            snapshot(m);
            compare_scans(m);
            /* a unit spawned after the build (not bucketed): the slow way */
            int n = m->unit_n;
            if (n < GOTA_MAX_UNITS) {
                m->unit[n] = m->unit[0];
                m->unit[n].team = GOTA_TEAM_NEUTRAL;
                m->snap_x[n] = rnd(-MAP_HALF_WORLD, MAP_HALF_WORLD);
                m->snap_z[n] = rnd(-MAP_HALF_WORLD, MAP_HALF_WORLD);
                m->unit_n = n + 1;
                static Visits a, b;
                for (int32_t r = 60000; r < 480000; r += 60000) {
                    a.n = 0;
                    match_scan_hostile(m, n, r, collect, &a);
                    plain_scan(m, n, r, &b);
                    CHECK_EQ(a.n, b.n);
                }
                m->unit_n = n;
                memset(&m->unit[n], 0, sizeof m->unit[n]);
            }
        }
        gota_match_free(m);
    }
}

/* The buckets as a fresh build would make them, from the definitions: the
 * living mobile slots below unit_n by bucket (index order), slot order within
 * one; each class's hostile rows; bucket_near bit bx of row bz set when a
 * hostile bucket lies within 2 buckets on both axes (bits past the map too). */
static void compare_buckets(const GotaMatch *m)
{
    static int16_t start[BUCKET_N * BUCKET_N], end[BUCKET_N * BUCKET_N];
    static int32_t item[GOTA_MAX_UNITS];
    int key[GOTA_MAX_UNITS], n = 0;
    uint32_t has[3][BUCKET_N] = {{0}};
    for (int i = 0; i < GOTA_MAX_UNITS; i++) {
        const GotaUnit *u = &m->unit[i];
        key[i] = 0;
        if (i >= m->unit_n || !u->alive || !is_mobile(u->kind)) continue;
        int bx = map_tile_of(m->snap_x[i]) / BUCKET_TILES, bz = map_tile_of(m->snap_z[i]) / BUCKET_TILES;
        bx = bx < 0 ? 0 : bx >= BUCKET_N ? BUCKET_N - 1 : bx;
        bz = bz < 0 ? 0 : bz >= BUCKET_N ? BUCKET_N - 1 : bz;
        int class = u->team == GOTA_TEAM_RED ? 0 : u->team == GOTA_TEAM_BLUE ? 1 : 2;
        key[i] = bz << 7 | bx << 2 | (class + 1);
        has[class][bz] |= 1u << bx;
    }
    for (int b = 0; b < BUCKET_N * BUCKET_N; b++) {
        int first = n;
        for (int i = 0; i < GOTA_MAX_UNITS; i++)
            if (key[i] && (key[i] >> 7) * BUCKET_N + (key[i] >> 2 & 31) == b) item[n++] = i;
        start[b] = (int16_t)(n > first ? first : 0);
        end[b] = (int16_t)(n > first ? n : 0);
    }
    int same_keys = 1;
    for (int i = 0; i < GOTA_MAX_UNITS; i++) same_keys &= m->bucket_key[i] == key[i];
    CHECK(same_keys);
    CHECK_EQ(m->bucket_total, n);
    CHECK(memcmp(m->bucket_item, item, sizeof item[0] * (size_t)n) == 0);
    CHECK(memcmp(m->bucket_start, start, sizeof start) == 0);
    CHECK(memcmp(m->bucket_end, end, sizeof end) == 0);
    uint32_t rows[4][BUCKET_N];
    for (int c = 0; c < 4; c++) {
        for (int bz = 0; bz < BUCKET_N; bz++) {
            rows[c][bz] = 0;
            for (int k = 0; k < 3; k++)
                if (k != c) rows[c][bz] |= has[k][bz];
        }
        CHECK(memcmp(m->bucket_rows[c], rows[c], sizeof rows[c]) == 0);
    }
    for (int c = 0; c < 3; c++)
        for (int bz = 0; bz < BUCKET_N; bz++) {
            uint32_t near = 0;
            for (int bx = 0; bx < 32; bx++)
                for (int z = bz - 2; z <= bz + 2; z++)
                    for (int x = bx - 2; x <= bx + 2; x++)
                        if (z >= 0 && z < BUCKET_N && x >= 0 && x < BUCKET_N && (rows[c][z] >> x & 1u))
                            near |= 1u << bx;
            CHECK_EQ(m->bucket_near[c][bz], near);
        }
}

/* The kept buckets against compare_buckets after every build: real matches a
 * tick at a time (the build in the step, then one more after the tick's
 * deaths and moves), then outside edits between builds: moves within a bucket
 * and across the map and past its edges, deaths and revivals, team and kind
 * changes, unit_n shrinking over bucketed slots and growing again, a reset. */
static void test_buckets_kept(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    for (int seed = 1; seed <= 2; seed++) {
        cfg.seed = seed;
        GotaMatch *m = gota_match_new(&cfg, NULL);
        CHECK(m != NULL);
        if (!m) return;
        snapshot(m);                    /* the first build, from the cleared match's empty layout */
        compare_buckets(m);
        for (int tick = 0; tick < 1500; tick++) {
            int32_t ran;
            gota_match_step(m, 1, &ran);
            snapshot(m);
            if (tick % 5 == 0) compare_buckets(m);
        }
        for (int round = 0; round < 400; round++) {
            int n = m->unit_n;
            for (int k = rnd(0, 6); k > 0; k--) {
                int i = rnd(0, n - 1);
                GotaUnit *u = &m->unit[i];
                switch (rnd(0, 7)) {
                case 0: u->x += rnd(-30000, 30000); break;
                case 1: u->x = rnd(-MAP_HALF_WORLD - 300000, MAP_HALF_WORLD + 300000);
                        u->z = rnd(-MAP_HALF_WORLD - 300000, MAP_HALF_WORLD + 300000); break;
                case 2: u->z += rnd(-300000, 300000); break;
                case 3: u->alive ^= 1; break;
                case 4: u->team = (int16_t)rnd(-1, 3); break;
                case 5: u->kind = (int16_t)rnd(GOTA_KIND_NONE, GOTA_KIND_NEUTRAL); break;
                case 6: if (round % 3 == 0) m->unit_n = rnd(n / 2, n); break;
                default: m->unit_n = rnd(n, n + 20 < GOTA_MAX_UNITS ? n + 20 : n); break;
                }
            }
            snapshot(m);
            compare_buckets(m);
        }
        gota_match_reset(m, seed + 10);
        snapshot(m);
        compare_buckets(m);
        gota_match_free(m);
    }
}

/* structure_next_enemy written over every building. */
static int plain_next_enemy(const GotaMatch *m, int team, int lane, int32_t x, int32_t z)
{
    const MapData *map = m->map;
    int enemy = 1 - team;
    if (m->lane_front[enemy][lane] >= 0) return m->lane_front[enemy][lane];
    int best_barracks = -1, best_guard = -1;
    int64_t d_barracks = INT64_MAX, d_guard = INT64_MAX;
    for (int i = 0; i < map->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        if (!m->building_alive[i] || b->team != enemy) continue;
        int slot = m->building_slot[i];
        if (b->kind == GOTA_KIND_BARRACKS && b->lane == lane) {
            int64_t d = fx_dist2(x, z, b->x, b->z);
            if (d < d_barracks) { d_barracks = d; best_barracks = slot; }
        } else if (b->kind == GOTA_KIND_TOWER && b->tier == GOTA_TIER_GUARD && m->unit[slot].exposed) {
            int64_t d = fx_dist2(x, z, b->x, b->z);
            if (d < d_guard) { d_guard = d; best_guard = slot; }
        }
    }
    return best_barracks >= 0 ? best_barracks : best_guard;
}

/* a match of the default map without heroes */
static GotaMatch *creeps_only_match(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.heroes = 0;
    return gota_match_new(&cfg, NULL);
}

static void test_next_enemy(void)
{
    GotaMatch *m = creeps_only_match();
    CHECK(m != NULL);
    if (!m) return;
    const MapData *map = m->map;
    for (int round = 0; round < 400; round++) {
        for (int i = 0; i < map->building_n; i++) {
            int kill = rnd(0, 99) < (round % 10) * 10;
            m->building_alive[i] = (uint8_t)!kill;
            m->unit[m->building_slot[i]].alive = (int8_t)!kill;
        }
        structures_sync(m);
        for (int i = 0; i < map->building_n; i++)   /* exposure flips the sync would not make */
            if (rnd(0, 9) == 0) m->unit[m->building_slot[i]].exposed ^= 1;
        for (int k = 0; k < 20; k++) {
            int32_t x = rnd(-MAP_HALF_WORLD, MAP_HALF_WORLD), z = rnd(-MAP_HALF_WORLD, MAP_HALF_WORLD);
            if (k == 0) x = z = 0;   /* the centre: equal distances to mirrored buildings */
            for (int team = 0; team < 2; team++)
                for (int lane = 0; lane < 3; lane++)
                    CHECK_EQ(structure_next_enemy(m, team, lane, x, z), plain_next_enemy(m, team, lane, x, z));
        }
    }
    gota_match_free(m);
}

static void compare_building_dists(const GotaMatch *m)
{
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        for (int k = 0; k < 400; k++) {
            int32_t x, z;
            if (k < 200) {   /* near the building, tile corners and edges included */
                x = b->x + rnd(-5, 5) * GOTA_TILE / 2 + (k % 3 ? 0 : rnd(-1000, 1000));
                z = b->z + rnd(-5, 5) * GOTA_TILE / 2 + (k % 5 ? 0 : rnd(-1000, 1000));
            } else {
                x = rnd(-MAP_HALF_WORLD - 100000, MAP_HALF_WORLD + 100000);
                z = rnd(-MAP_HALF_WORLD - 100000, MAP_HALF_WORLD + 100000);
            }
            int64_t plain = unit_footprint_dist2(b, x, z);
            CHECK_EQ(unit_building_dist2(m, i, x, z), plain);
            CHECK(unit_building_box_dist2(m, i, x, z) <= plain);
        }
    }
}

/* unit_building_dist2 against the tile loop: on the real buildings, and on
 * footprints made into rectangles, rectangles with a hole, and duplicates. */
static void test_building_dist(void)
{
    GotaMatch *m = creeps_only_match();
    CHECK(m != NULL);
    if (!m) return;
    int rects = 0;
    for (int i = 0; i < m->map->building_n; i++) rects += m->map->building[i].box_filled;
    CHECK(rects > 0);
    compare_building_dists(m);
    static MapData map;
    const MapData *real = m->map;
    map = *real;
    for (int i = 0; i < map.building_n; i++) {
        MapBuilding *b = &map.building[i];
        int t0 = map_index_of(b->x, b->z), w = 1 + i % 4, h = 1 + i % 3, n = 0;
        for (int dz = 0; dz < h; dz++)
            for (int dx = 0; dx < w; dx++) b->footprint[n++] = (uint16_t)(t0 + dz * MAP_N + dx);
        if (i % 5 == 1 && n > 1) b->footprint[n - 1] = b->footprint[0];              /* a duplicate */
        if (i % 5 == 2 && n > 2) { b->footprint[1] = b->footprint[n - 1]; n--; }      /* a hole */
        if (i % 5 == 3) b->footprint[n++] = (uint16_t)(t0 + 3 * MAP_N + 6);          /* a stray tile */
        b->footprint_n = i % 7 == 6 ? 0 : n;
        map_building_box(b);
    }
    m->map = &map;
    rects = 0;
    for (int i = 0; i < map.building_n; i++) rects += map.building[i].box_filled;
    CHECK(rects > 0 && rects < map.building_n);
    compare_building_dists(m);
    m->map = real;
    gota_match_free(m);
}

/* structures_sync's early return against a full run on a copy, through
 * deaths, revivals and outside writes to exposed and lane_front. */
static void test_sync_skip(void)
{
    GotaMatch *m = creeps_only_match(), *full = malloc(sizeof *full);
    CHECK(m != NULL && full != NULL);
    if (!m || !full) { gota_match_free(m); free(full); return; }
    const MapData *map = m->map;
    for (int round = 0; round < 3000; round++) {
        int what = rnd(0, 9);
        int i = rnd(0, map->building_n - 1), slot = m->building_slot[i];
        if (what == 0) { m->building_alive[i] = 0; m->unit[slot].alive = 0; }
        else if (what == 1) { m->building_alive[i] = 1; m->unit[slot].alive = 1; }
        else if (what == 2) m->unit[slot].exposed ^= 1;
        else if (what == 3) m->lane_front[rnd(0, 1)][rnd(0, 2)] = rnd(-1, 40);
        else if (what == 4) m->unit[slot].alive ^= 1;
        memcpy(full, m, sizeof *full);
        full->sync_map = NULL;
        structures_sync(m);
        structures_sync(full);
        CHECK(memcmp(m->lane_front, full->lane_front, sizeof m->lane_front) == 0);
        for (int k = 0; k < map->building_n; k++)
            CHECK_EQ(m->unit[m->building_slot[k]].exposed, full->unit[full->building_slot[k]].exposed);
        CHECK_EQ(m->event_next, full->event_next);
        CHECK(memcmp(m->event, full->event, sizeof m->event) == 0);
        if (round % 500 == 499)   /* everything back, as at the start */
            for (int k = 0; k < map->building_n; k++) {
                m->building_alive[k] = 1;
                m->unit[m->building_slot[k]].alive = 1;
            }
    }
    free(full);
    gota_match_free(m);
}

/* unit_goal_tile_changed against the plain tile comparison: random points,
 * points on one tile, across tile edges, sharing one coordinate, equal. */
static void test_goal_tile(void)
{
    const int32_t lo = -MAP_HALF_WORLD, hi = MAP_HALF_WORLD - 1;
    for (int round = 0; round < 200000; round++) {
        int32_t gx = rnd(lo, hi), gz = rnd(lo, hi), ox, oz;
        switch (round % 5) {
        case 0: ox = rnd(lo, hi); oz = rnd(lo, hi); break;
        case 1: ox = gx + rnd(-GOTA_TILE, GOTA_TILE); oz = gz + rnd(-GOTA_TILE, GOTA_TILE); break;
        case 2: ox = gx; oz = gz + rnd(-2 * GOTA_TILE, 2 * GOTA_TILE); break;
        case 3: ox = gx + rnd(-2 * GOTA_TILE, 2 * GOTA_TILE); oz = gz; break;
        default: ox = gx; oz = gz; break;
        }
        if (ox < lo || ox > hi) ox = gx;
        if (oz < lo || oz > hi) oz = gz;
        CHECK_EQ(unit_goal_tile_changed(gx, gz, ox, oz), map_index_of(gx, gz) != map_index_of(ox, oz));
    }
}

/* unit_attack_reach_ok (a building's box answers most "out of reach") against
 * the rule measured plainly: a god's centre, every footprint tile of a tower
 * or barracks, a unit's snapshot centre; random ranges, attackers around
 * every structure and creep. */
static void test_attack_reach(void)
{
    GotaMatch *m = creeps_only_match();
    CHECK(m != NULL);
    if (!m) return;
    gota_match_step(m, 600, NULL);      /* creeps in the lanes */
    int attacker = -1, reached[3] = {0, 0, 0}, missed[3] = {0, 0, 0};
    for (int i = 0; i < m->unit_n && attacker < 0; i++)
        if (m->unit[i].kind == GOTA_KIND_CREEP && m->unit[i].alive) attacker = i;
    CHECK(attacker >= 0);
    if (attacker < 0) { gota_match_free(m); return; }
    for (int t = 0; t < m->unit_n; t++) {
        const GotaUnit *u = &m->unit[t];
        if (!u->alive || u->kind == GOTA_KIND_NONE || t == attacker) continue;
        int c = u->kind == GOTA_KIND_GOD ? 0 : u->kind == GOTA_KIND_TOWER || u->kind == GOTA_KIND_BARRACKS ? 1 : 2;
        for (int k = 0; k < 300; k++) {
            int32_t range = rnd(20000, 420000), spread = rnd(100000, 700000);
            int32_t x = u->x + rnd(-spread, spread), z = u->z + rnd(-spread, spread);
            m->unit[attacker].range = range;
            int64_t r, d2;
            if (c == 0) {
                r = range > GOD_REACH ? range : GOD_REACH;
                d2 = fx_dist2(x, z, u->x, u->z);
            } else if (c == 1) {
                r = range > BUILDING_MIN_REACH ? range : BUILDING_MIN_REACH;
                d2 = unit_footprint_dist2(&m->map->building[m->st[t].building], x, z);
            } else {
                r = range;
                d2 = fx_dist2(x, z, m->snap_x[t], m->snap_z[t]);
            }
            int plain = d2 <= r * r;
            CHECK_EQ(unit_attack_reach_ok(m, attacker, t, x, z), plain);
            if (plain) reached[c]++;
            else missed[c]++;
        }
    }
    for (int c = 0; c < 3; c++) CHECK(reached[c] > 100 && missed[c] > 100);
    gota_match_free(m);
}

int main(void)
{
    test_attack_reach();
    test_goal_tile();
    test_sync_skip();
    test_building_dist();
    test_scan_shortcut();
    test_buckets_kept();
    test_next_enemy();
    return check_report("test_units");
}
