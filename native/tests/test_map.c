/* test_map.c -- the shared Competition map: symmetry, structures, connectivity,
 * river access, camps, lane routes and the public gota_map_* calls. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "sim/map.h"

#define MIRROR(i) (MAP_TILES - 1 - (i))

static int is_ramp(const MapData *m, int i)
{
    return m->material[i] == GOTA_MAT_ROAD || m->material[i] == GOTA_MAT_TRAIL;
}

static int swap_team_regions(int r)
{
    int out = r & (GOTA_REGION_LANE | GOTA_REGION_CAMP);
    if (r & GOTA_REGION_RED_KEEP) out |= GOTA_REGION_BLUE_KEEP;
    if (r & GOTA_REGION_BLUE_KEEP) out |= GOTA_REGION_RED_KEEP;
    if (r & GOTA_REGION_RED_SPAWN) out |= GOTA_REGION_BLUE_SPAWN;
    if (r & GOTA_REGION_BLUE_SPAWN) out |= GOTA_REGION_RED_SPAWN;
    return out;
}

/* BFS over edges from tile `start`; blocked[] tiles are closed (may be NULL).
 * dist[] gets -1 for unreached tiles. */
static void bfs(const MapData *m, int start, const uint8_t *blocked, int *dist)
{
    static int queue[MAP_TILES];
    for (int i = 0; i < MAP_TILES; i++) dist[i] = -1;
    if (!m->walkable[start] || (blocked && blocked[start])) return;
    int head = 0, tail = 0;
    queue[tail++] = start;
    dist[start] = 0;
    while (head < tail) {
        int t = queue[head++], tx = t % MAP_N, tz = t / MAP_N;
        int nb[4] = { -1, -1, -1, -1 };
        if (m->edges[t] & MAP_EDGE_E) nb[0] = t + 1;
        if (m->edges[t] & MAP_EDGE_S) nb[1] = t + MAP_N;
        if (tx > 0 && (m->edges[t - 1] & MAP_EDGE_E)) nb[2] = t - 1;
        if (tz > 0 && (m->edges[t - MAP_N] & MAP_EDGE_S)) nb[3] = t - MAP_N;
        for (int k = 0; k < 4; k++) {
            int n = nb[k];
            if (n < 0 || dist[n] >= 0 || (blocked && blocked[n])) continue;
            dist[n] = dist[t] + 1;
            queue[tail++] = n;
        }
    }
}

static void test_tiles(const MapData *m)
{
    int asym = 0, bad_height = 0, bad_block = 0, bad_edge = 0, bad_link = 0;
    for (int i = 0; i < MAP_TILES; i++) {
        int j = MIRROR(i);
        if (m->level[i] != m->level[j] || m->material[i] != m->material[j] || m->walkable[i] != m->walkable[j] ||
            m->height8[i] != m->height8[j] || m->blocker8[i] != m->blocker8[j] ||
            m->region[j] != swap_team_regions(m->region[i]))
            asym++;
        if (m->height8[i] != 8 * m->level[i] || m->level[i] < -1 || m->level[i] > 2) bad_height++;
        if (m->walkable[i] ? m->blocker8[i] != 0 : m->blocker8[i] != MAP_BLOCK_TREES) bad_block++;
        if (m->walkable[i] != (m->material[i] != GOTA_MAT_TREES && m->material[i] != GOTA_MAT_WALL &&
                               m->material[i] != GOTA_MAT_ROCK))
            bad_block++;
        int tx = i % MAP_N, tz = i / MAP_N;
        /* edge flags mirror: E of (tx,tz) <-> E of (114-tx,115-tz); S likewise */
        if (tx + 1 < MAP_N && !!(m->edges[i] & MAP_EDGE_E) != !!(m->edges[MIRROR(i + 1)] & MAP_EDGE_E)) bad_edge++;
        if (tz + 1 < MAP_N && !!(m->edges[i] & MAP_EDGE_S) != !!(m->edges[MIRROR(i + MAP_N)] & MAP_EDGE_S)) bad_edge++;
        if (tx + 1 == MAP_N && (m->edges[i] & MAP_EDGE_E)) bad_edge++;
        if (tz + 1 == MAP_N && (m->edges[i] & MAP_EDGE_S)) bad_edge++;
        /* links: both walkable and same level or a road/trail ramp */
        for (int d = 0; d < 2; d++) {
            int n = d == 0 ? i + 1 : i + MAP_N;
            if ((d == 0 && tx + 1 >= MAP_N) || (d == 1 && tz + 1 >= MAP_N)) continue;
            int want = m->walkable[i] && m->walkable[n] &&
                       (m->level[i] == m->level[n] || (is_ramp(m, i) && is_ramp(m, n)));
            if (want != !!(m->edges[i] & (d == 0 ? MAP_EDGE_E : MAP_EDGE_S))) bad_link++;
        }
        /* the border ring is trees or walls */
        if ((tx == 0 || tz == 0 || tx == MAP_N - 1 || tz == MAP_N - 1) && m->walkable[i]) bad_block++;
    }
    CHECK_EQ(asym, 0);
    CHECK_EQ(bad_height, 0);
    CHECK_EQ(bad_block, 0);
    CHECK_EQ(bad_edge, 0);
    CHECK_EQ(bad_link, 0);
    /* the spawn rooms and the hero spawns */
    int bs = map_index_of(m->hero_spawn_x[GOTA_TEAM_BLUE], m->hero_spawn_z[GOTA_TEAM_BLUE]);
    int rs = map_index_of(m->hero_spawn_x[GOTA_TEAM_RED], m->hero_spawn_z[GOTA_TEAM_RED]);
    CHECK_EQ(bs, map_index(4, 111));
    CHECK_EQ(rs, map_index(111, 4));
    CHECK(m->region[bs] & GOTA_REGION_BLUE_SPAWN);
    CHECK(m->region[rs] & GOTA_REGION_RED_SPAWN);
    CHECK_EQ(m->level[bs], 2);
    CHECK_EQ(m->hero_spawn_x[GOTA_TEAM_RED], -m->hero_spawn_x[GOTA_TEAM_BLUE]);
    CHECK_EQ(m->hero_spawn_z[GOTA_TEAM_RED], -m->hero_spawn_z[GOTA_TEAM_BLUE]);
    int spawn_n = 0, keep_n = 0;
    for (int i = 0; i < MAP_TILES; i++) {
        if (m->region[i] & GOTA_REGION_BLUE_SPAWN) spawn_n++;
        if (m->region[i] & GOTA_REGION_BLUE_KEEP) keep_n++;
        if (m->region[i] & (GOTA_REGION_BLUE_KEEP | GOTA_REGION_RED_KEEP)) CHECK(m->level[i] == 2 && m->walkable[i]);
        if (m->region[i] & GOTA_REGION_LANE) CHECK(m->material[i] == GOTA_MAT_ROAD);
    }
    CHECK(spawn_n >= 50 && spawn_n <= 100);
    CHECK(keep_n > 500);
}

/* building index helpers (the order documented in map.h) */
static int idx_tower(int lane, int team, int tier) { return 2 + lane * 6 + team * 3 + tier; }
static int idx_guard(int team, int j) { return 20 + team * 2 + j; }
static int idx_barracks(int lane, int team, int side) { return 24 + lane * 4 + team * 2 + side; }

static void test_index_macros(void)
{
    CHECK_EQ(MAP_IDX_GOD(GOTA_TEAM_RED), 0);
    CHECK_EQ(MAP_IDX_GOD(GOTA_TEAM_BLUE), 1);
    for (int lane = 0; lane < 3; lane++)
        for (int team = 0; team < 2; team++) {
            for (int tier = 0; tier < 3; tier++) CHECK_EQ(MAP_IDX_TOWER(lane, team, tier), idx_tower(lane, team, tier));
            for (int side = 0; side < 2; side++) CHECK_EQ(MAP_IDX_BARRACKS(lane, team, side), idx_barracks(lane, team, side));
        }
    for (int team = 0; team < 2; team++)
        for (int j = 0; j < 2; j++) CHECK_EQ(MAP_IDX_GUARD(team, j), idx_guard(team, j));
    CHECK_EQ(MAP_IDX_BARRACKS(2, 1, 1) + 1, MAP_BUILDING_COUNT);
}

static int mirror_building_index(int i)
{
    if (i < 2) return 1 - i;
    if (i < 20) { int k = i - 2; return idx_tower(2 - k / 6, 1 - (k / 3) % 2, k % 3); }
    if (i < 24) { int k = i - 20; return idx_guard(1 - k / 2, k % 2); }
    int k = i - 24;
    return idx_barracks(2 - k / 4, 1 - (k / 2) % 2, k % 2);
}

static void test_buildings(const MapData *m)
{
    CHECK_EQ(m->building_n, MAP_BUILDING_COUNT);
    CHECK(m->building_n <= MAP_BUILDINGS);
    const MapBuilding *B = m->building;
    /* gods */
    CHECK_EQ(B[0].kind, GOTA_KIND_GOD);
    CHECK_EQ(B[0].team, GOTA_TEAM_RED);
    CHECK_EQ(B[1].kind, GOTA_KIND_GOD);
    CHECK_EQ(B[1].team, GOTA_TEAM_BLUE);
    CHECK_EQ(map_index_of(B[1].x, B[1].z), map_index(10, 105));
    CHECK_EQ(map_index_of(B[0].x, B[0].z), map_index(105, 10));
    for (int g = 0; g < 2; g++) {
        CHECK_EQ(B[g].hp, 400);
        CHECK_EQ(B[g].footprint_n, 0);
        CHECK_EQ(B[g].sight_tiles, 14);
        CHECK_EQ(B[g].eye8, 28);
        CHECK_EQ(B[g].blocker8, 32);
        CHECK_EQ(B[g].lane, -1);
    }
    /* counts per kind / team / tier */
    int towers[2][3][3] = { { { 0 } } }, guards[2] = { 0 }, barracks[2][3][2] = { { { 0 } } };
    static const int32_t hp[4] = { 1900, 2600, 3900, 3900 }, dmg[4] = { 36, 48, 60, 60 };
    static const int32_t range[4] = { 300000, 330000, 360000, 360000 }, sight[4] = { 7, 7, 8, 8 };
    static const int32_t radius[4] = { 63000, 75000, 99000, 99000 };
    for (int i = 2; i < m->building_n; i++) {
        const MapBuilding *b = &B[i];
        CHECK(b->team == GOTA_TEAM_RED || b->team == GOTA_TEAM_BLUE);
        CHECK_EQ(b->eye8, 24);
        CHECK_EQ(b->blocker8, 28);
        CHECK(b->footprint_n >= 1 && b->footprint_n <= MAP_MAX_FOOTPRINT);
        if (b->kind == GOTA_KIND_TOWER) {
            CHECK(b->tier >= 0 && b->tier <= 3);
            CHECK_EQ(b->hp, hp[b->tier]);
            CHECK_EQ(b->damage, dmg[b->tier]);
            CHECK_EQ(b->range, range[b->tier]);
            CHECK_EQ(b->sight_tiles, sight[b->tier]);
            if (b->tier == GOTA_TIER_GUARD) {
                CHECK(i >= 20 && i < 24);
                CHECK_EQ(b->lane, -1);
                guards[b->team]++;
            } else {
                CHECK(i >= 2 && i < 20);
                CHECK(b->lane >= 0 && b->lane <= 2);
                CHECK_EQ(i, idx_tower(b->lane, b->team, b->tier));
                towers[b->team][b->lane][b->tier]++;
            }
            /* footprint = tiles whose centre is within the radius, at least the centre tile */
            int n = 0, has_centre = 0;
            for (int t = 0; t < MAP_TILES; t++) {
                int64_t dx = map_tile_centre(t % MAP_N) - b->x, dz = map_tile_centre(t / MAP_N) - b->z;
                if (dx * dx + dz * dz <= (int64_t)radius[b->tier] * radius[b->tier]) n++;
            }
            for (int k = 0; k < b->footprint_n; k++) has_centre |= b->footprint[k] == map_index_of(b->x, b->z);
            CHECK_EQ(b->footprint_n, n > 0 ? n : 1);
            CHECK(has_centre);
        } else {
            CHECK_EQ(b->kind, GOTA_KIND_BARRACKS);
            CHECK(i >= 24 && i < 36);
            CHECK_EQ(b->hp, 950);
            CHECK_EQ(b->damage, 0);
            CHECK_EQ(b->range, 0);
            CHECK_EQ(b->sight_tiles, 7);
            CHECK(b->lane >= 0 && b->lane <= 2 && (b->tier == 0 || b->tier == 1));
            CHECK_EQ(i, idx_barracks(b->lane, b->team, b->tier));
            barracks[b->team][b->lane][b->tier]++;
            /* spawn on a walkable road tile, side vector a unit vector toward the barracks */
            int st = map_index_of(b->spawn_x, b->spawn_z);
            CHECK(m->walkable[st] && m->material[st] == GOTA_MAT_ROAD);
            int64_t len2 = (int64_t)b->side_x * b->side_x + (int64_t)b->side_z * b->side_z;
            CHECK(len2 > (int64_t)65400 * 65400 && len2 < (int64_t)65600 * 65600);
            int64_t dot = (int64_t)(b->x - b->spawn_x) * b->side_x + (int64_t)(b->z - b->spawn_z) * b->side_z;
            CHECK(dot > 0);
        }
    }
    for (int team = 0; team < 2; team++) {
        CHECK_EQ(guards[team], 2);
        for (int lane = 0; lane < 3; lane++) {
            for (int tier = 0; tier < 3; tier++) CHECK_EQ(towers[team][lane][tier], 1);
            CHECK_EQ(barracks[team][lane][0], 1);
            CHECK_EQ(barracks[team][lane][1], 1);
            /* outer farthest from the own god, then inner, then gate */
            const MapBuilding *god = &B[team == GOTA_TEAM_RED ? 0 : 1];
            int64_t d[3];
            for (int tier = 0; tier < 3; tier++) {
                const MapBuilding *t = &B[idx_tower(lane, team, tier)];
                d[tier] = (int64_t)(t->x - god->x) * (t->x - god->x) + (int64_t)(t->z - god->z) * (t->z - god->z);
            }
            CHECK(d[0] > d[1] && d[1] > d[2]);
            /* the gate tower stands in the own keep */
            const MapBuilding *gt = &B[idx_tower(lane, team, GOTA_TIER_GATE)];
            CHECK(m->region[map_index_of(gt->x, gt->z)] &
                  (team == GOTA_TEAM_RED ? GOTA_REGION_RED_KEEP : GOTA_REGION_BLUE_KEEP));
        }
    }
    /* guards near the god: Blue's at about (9,100) and (16,107) */
    CHECK_EQ(map_index_of(B[idx_guard(GOTA_TEAM_BLUE, 0)].x, B[idx_guard(GOTA_TEAM_BLUE, 0)].z), map_index(9, 100));
    CHECK_EQ(map_index_of(B[idx_guard(GOTA_TEAM_BLUE, 1)].x, B[idx_guard(GOTA_TEAM_BLUE, 1)].z), map_index(16, 107));
    /* point symmetry of the building list */
    for (int i = 0; i < m->building_n; i++) {
        const MapBuilding *a = &B[i], *b = &B[mirror_building_index(i)];
        CHECK(a->kind == b->kind && a->team == 1 - b->team && a->tier == b->tier);
        CHECK(a->lane == (b->lane < 0 ? -1 : 2 - b->lane));
        CHECK(a->x == -b->x && a->z == -b->z && a->hp == b->hp && a->damage == b->damage && a->range == b->range);
        CHECK(a->sight_tiles == b->sight_tiles && a->eye8 == b->eye8 && a->blocker8 == b->blocker8);
        CHECK(a->spawn_x == -b->spawn_x && a->spawn_z == -b->spawn_z);
        CHECK(a->side_x == -b->side_x && a->side_z == -b->side_z);
        CHECK_EQ(a->footprint_n, b->footprint_n);
        int same = 1;
        for (int k = 0; k < a->footprint_n; k++) {
            int found = 0;
            for (int q = 0; q < b->footprint_n; q++) found |= b->footprint[q] == MIRROR(a->footprint[k]);
            same &= found;
        }
        CHECK(same);
    }
    /* footprints statically walkable and disjoint */
    static uint8_t owner[MAP_TILES];
    memset(owner, 0, sizeof owner);
    int overlap = 0, unwalkable = 0;
    for (int i = 0; i < m->building_n; i++)
        for (int k = 0; k < B[i].footprint_n; k++) {
            int t = B[i].footprint[k];
            if (owner[t]) overlap++;
            owner[t] = 1;
            if (!m->walkable[t]) unwalkable++;
        }
    CHECK_EQ(overlap, 0);
    CHECK_EQ(unwalkable, 0);
}

static int lane_tile(const MapData *m, int lane, int k) { return map_index_of(m->lane_x[lane][k], m->lane_z[lane][k]); }

static void test_connectivity(const MapData *m)
{
    static int from_blue[MAP_TILES], from_red[MAP_TILES], free_blue[MAP_TILES];
    static uint8_t blocked[MAP_TILES];
    memset(blocked, 0, sizeof blocked);
    for (int i = 0; i < m->building_n; i++)
        for (int k = 0; k < m->building[i].footprint_n; k++) blocked[m->building[i].footprint[k]] = 1;
    int bs = map_index_of(m->hero_spawn_x[GOTA_TEAM_BLUE], m->hero_spawn_z[GOTA_TEAM_BLUE]);
    int rs = map_index_of(m->hero_spawn_x[GOTA_TEAM_RED], m->hero_spawn_z[GOTA_TEAM_RED]);
    bfs(m, bs, blocked, from_blue);
    bfs(m, rs, blocked, from_red);
    bfs(m, bs, NULL, free_blue);
    CHECK(from_blue[rs] > 0);
    CHECK(from_red[bs] > 0);
    /* every lane waypoint (gate points included) from both spawns, with every
     * footprint blocked */
    int missing = 0;
    for (int lane = 0; lane < 3; lane++)
        for (int k = 0; k < m->lane_n[lane]; k++) {
            int t = lane_tile(m, lane, k);
            if (from_blue[t] < 0 || from_red[t] < 0) missing++;
        }
    CHECK_EQ(missing, 0);
    /* every camp centre and member */
    for (int c = 0; c < MAP_CAMPS; c++) {
        int t = map_index_of(m->camp[c].x, m->camp[c].z);
        CHECK(from_blue[t] >= 0 && from_red[t] >= 0);
        for (int k = 0; k < m->camp[c].members; k++) {
            int mt = map_index_of(m->camp[c].member_x[k], m->camp[c].member_z[k]);
            CHECK(from_blue[mt] >= 0 && (m->region[mt] & GOTA_REGION_CAMP));
        }
    }
    /* the barracks spawn points */
    for (int i = 24; i < m->building_n; i++) {
        int t = map_index_of(m->building[i].spawn_x, m->building[i].spawn_z);
        CHECK(from_blue[t] >= 0 && from_red[t] >= 0);
    }
    /* with no buildings every walkable tile is reachable (no stray pockets),
     * and with all buildings standing, every free one */
    int pockets = 0, pockets_blocked = 0;
    for (int i = 0; i < MAP_TILES; i++) {
        if (m->walkable[i] && free_blue[i] < 0) pockets++;
        if (m->walkable[i] && !blocked[i] && from_blue[i] < 0) pockets_blocked++;
    }
    CHECK_EQ(pockets, 0);
    CHECK_EQ(pockets_blocked, 0);
}

static void test_river(const MapData *m)
{
    int bad = 0, water = 0, ford_road = 0;
    static int comp[MAP_TILES];
    for (int i = 0; i < MAP_TILES; i++) {
        int tx = i % MAP_N, tz = i / MAP_N;
        if (m->material[i] == GOTA_MAT_WATER) {
            water++;
            if (m->level[i] != -1 || !m->walkable[i]) bad++;
            if (tx > tz ? tx - tz > 8 : tz - tx > 8) bad++;   /* on the main diagonal, ~9 wide */
        }
        if (m->level[i] == -1 && m->material[i] == GOTA_MAT_ROAD) ford_road++;
        /* a link between the river level and another level only between road/trail tiles */
        for (int d = 0; d < 2; d++) {
            int n = d == 0 ? i + 1 : i + MAP_N;
            if ((d == 0 && tx + 1 >= MAP_N) || (d == 1 && tz + 1 >= MAP_N)) continue;
            if (!(m->edges[i] & (d == 0 ? MAP_EDGE_E : MAP_EDGE_S))) continue;
            if ((m->level[i] == -1) != (m->level[n] == -1) && !(is_ramp(m, i) && is_ramp(m, n))) bad++;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK(water > 300);
    CHECK(ford_road > 0);
    /* the mid road fords the river at the centre */
    CHECK_EQ(m->material[map_index(57, 57)], GOTA_MAT_ROAD);
    CHECK_EQ(m->level[map_index(57, 57)], -1);
    CHECK_EQ(m->material[map_index(58, 58)], GOTA_MAT_ROAD);
    /* entry points: river-level road/trail tiles linked to a higher tile; group them
     * by 8-neighbourhood into crossings: 1 road ford (2 banks) + 4 trail fords (2 banks each) */
    for (int i = 0; i < MAP_TILES; i++) comp[i] = -1;
    int groups[2] = { 0, 0 };   /* road, trail */
    for (int i = 0; i < MAP_TILES; i++) {
        if (m->level[i] != -1 || !is_ramp(m, i) || comp[i] >= 0) continue;
        /* flood the ford (river-level tiles of the same material) */
        static int stack[MAP_TILES];
        int sp = 0;
        stack[sp++] = i;
        comp[i] = i;
        while (sp) {
            int t = stack[--sp], tx = t % MAP_N, tz = t / MAP_N;
            for (int dz = -1; dz <= 1; dz++)
                for (int dx = -1; dx <= 1; dx++) {
                    if (!map_in_bounds(tx + dx, tz + dz)) continue;
                    int n = map_index(tx + dx, tz + dz);
                    if (comp[n] >= 0 || m->level[n] != -1 || m->material[n] != m->material[i]) continue;
                    comp[n] = i;
                    stack[sp++] = n;
                }
        }
        groups[m->material[i] == GOTA_MAT_ROAD ? 0 : 1]++;
    }
    CHECK_EQ(groups[0], 1);
    CHECK_EQ(groups[1], 4);
    /* the trail fords sit on the diagonal, two on each side of the centre, mirrored */
    int on_diag = 0;
    for (int t = 0; t < MAP_N; t++) {
        int i = map_index(t, t);
        if (m->material[i] == GOTA_MAT_TRAIL && m->level[i] == -1) on_diag++;
    }
    CHECK(on_diag >= 4);
}

static void test_camps(const MapData *m)
{
    int tiers[4] = { 0 };
    for (int i = 0; i < MAP_CAMPS; i++) {
        const MapCamp *c = &m->camp[i], *p = &m->camp[c->pair];
        CHECK(c->pair >= 0 && c->pair < MAP_CAMPS && c->pair != i);
        CHECK_EQ(p->pair, i);
        CHECK(p->x == -c->x && p->z == -c->z && p->tier == c->tier && p->members == c->members);
        CHECK(c->tier >= 1 && c->tier <= 3);
        tiers[c->tier]++;
        static const int lo[4] = { 0, 1, 2, 3 }, hi[4] = { 0, 2, 3, 5 };
        CHECK(c->members >= lo[c->tier] && c->members <= hi[c->tier]);
        int t = map_index_of(c->x, c->z);
        CHECK(m->walkable[t] && (m->region[t] & GOTA_REGION_CAMP) && m->material[t] == GOTA_MAT_GRASS);
        for (int k = 0; k < c->members; k++) {
            CHECK(p->member_x[k] == -c->member_x[k] && p->member_z[k] == -c->member_z[k]);
            int64_t dx = c->member_x[k] - c->x, dz = c->member_z[k] - c->z;
            CHECK(dx * dx + dz * dz <= (int64_t)GOTA_TILE * GOTA_TILE + 100000);
        }
        /* an intact clearing (off roads, river and tower clearings) within 3 tiles */
        int intact = 1;
        for (int dz = -3; dz <= 3; dz++)
            for (int dx = -3; dx <= 3; dx++) {
                int tx = map_tile_of(c->x) + dx, tz = map_tile_of(c->z) + dz;
                if (dx * dx + dz * dz > 9) continue;
                int n = map_index(tx, tz);
                intact &= map_in_bounds(tx, tz) && m->material[n] == GOTA_MAT_GRASS &&
                          (m->region[n] & GOTA_REGION_CAMP) && m->level[n] == 1;
            }
        CHECK(intact);
    }
    CHECK_EQ(tiers[1], 6);
    CHECK_EQ(tiers[2], 4);
    CHECK_EQ(tiers[3], 4);
    /* tier follows the distance to the nearest god */
    for (int i = 0; i < MAP_CAMPS; i++)
        for (int j = 0; j < MAP_CAMPS; j++) {
            int64_t di = 0, dj = 0;
            for (int g = 0; g < 2; g++) {
                int64_t a = (int64_t)(m->camp[i].x - m->building[g].x) * (m->camp[i].x - m->building[g].x) +
                            (int64_t)(m->camp[i].z - m->building[g].z) * (m->camp[i].z - m->building[g].z);
                int64_t b = (int64_t)(m->camp[j].x - m->building[g].x) * (m->camp[j].x - m->building[g].x) +
                            (int64_t)(m->camp[j].z - m->building[g].z) * (m->camp[j].z - m->building[g].z);
                if (g == 0 || a < di) di = a;
                if (g == 0 || b < dj) dj = b;
            }
            if (di < dj) CHECK(m->camp[i].tier <= m->camp[j].tier);
        }
}

static void test_lanes(const MapData *m)
{
    for (int lane = 0; lane < 3; lane++) {
        int n = m->lane_n[lane];
        CHECK(n >= 2 && n <= MAP_MAX_WAYPOINTS);
        for (int k = 0; k < n; k++) {
            int t = lane_tile(m, lane, k);
            CHECK(m->walkable[t] && m->material[t] == GOTA_MAT_ROAD && (m->region[t] & GOTA_REGION_LANE));
            if (k + 1 < n) {
                int64_t dx = m->lane_x[lane][k + 1] - m->lane_x[lane][k], dz = m->lane_z[lane][k + 1] - m->lane_z[lane][k];
                CHECK(dx * dx + dz * dz <= (int64_t)10 * GOTA_TILE * 10 * GOTA_TILE);
                CHECK(dx * dx + dz * dz >= (int64_t)GOTA_TILE * GOTA_TILE);
            }
        }
        /* ends: the gate points, midpoints of the lane's two barracks, red first */
        for (int team = 0; team < 2; team++) {
            const MapBuilding *b0 = &m->building[idx_barracks(lane, team, 0)];
            const MapBuilding *b1 = &m->building[idx_barracks(lane, team, 1)];
            int k = team == GOTA_TEAM_RED ? 0 : n - 1;
            CHECK_EQ(m->lane_x[lane][k], (b0->x + b1->x) / 2);
            CHECK_EQ(m->lane_z[lane][k], (b0->z + b1->z) / 2);
        }
    }
    /* lane 2 is lane 0 mirrored; mid is its own mirror */
    CHECK_EQ(m->lane_n[2], m->lane_n[0]);
    for (int k = 0; k < m->lane_n[0]; k++) {
        int j = m->lane_n[0] - 1 - k;
        CHECK(m->lane_x[2][k] == -m->lane_x[0][j] && m->lane_z[2][k] == -m->lane_z[0][j]);
    }
    int nm = m->lane_n[1];
    CHECK(nm % 2 == 1);
    for (int k = 0; k < nm; k++) CHECK(m->lane_x[1][k] == -m->lane_x[1][nm - 1 - k] && m->lane_z[1][k] == -m->lane_z[1][nm - 1 - k]);
    CHECK(m->lane_x[1][nm / 2] == 0 && m->lane_z[1][nm / 2] == 0);
    /* lane 0 runs along the low-x edge then the low-z edge, through the (12,12) corner */
    int corner = 0;
    for (int k = 0; k < m->lane_n[0]; k++) {
        int tx = map_tile_of(m->lane_x[0][k]), tz = map_tile_of(m->lane_z[0][k]);
        CHECK(tx <= 18 || tz <= 18);
        if (tx <= 18 && tz <= 18) corner++;
    }
    CHECK(corner >= 1);
    /* the blue gate point lies in Blue's keep */
    CHECK(m->region[lane_tile(m, 0, m->lane_n[0] - 1)] & GOTA_REGION_BLUE_KEEP);
    CHECK(m->region[lane_tile(m, 0, 0)] & GOTA_REGION_RED_KEEP);
}

static void test_api(const MapData *m)
{
    static GotaTile tiles[MAP_TILES];
    int32_t buf[2 * MAP_MAX_WAYPOINTS + 8], count = -1;
    CHECK_EQ(gota_map_tiles(NULL, MAP_TILES), GOTA_ERR_NULL);
    CHECK_EQ(gota_map_tiles(tiles, MAP_TILES - 1), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_map_tiles(tiles, -5), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_map_tiles(tiles, MAP_TILES), GOTA_OK);
    int same = 1;
    for (int i = 0; i < MAP_TILES; i++)
        same &= tiles[i].level == m->level[i] && tiles[i].material == m->material[i] &&
                tiles[i].walkable == m->walkable[i] && tiles[i].region == m->region[i];
    CHECK(same);

    CHECK_EQ(gota_map_lane(0, NULL, 64, &count), GOTA_ERR_NULL);
    CHECK_EQ(gota_map_lane(0, buf, 64, NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_map_lane(-1, buf, 64, &count), GOTA_ERR_INDEX);
    CHECK_EQ(gota_map_lane(3, buf, 64, &count), GOTA_ERR_INDEX);
    CHECK_EQ(gota_map_lane(1, buf, 2 * m->lane_n[1] - 1, &count), GOTA_ERR_BUFFER);
    for (int lane = 0; lane < 3; lane++) {
        count = -1;
        CHECK_EQ(gota_map_lane(lane, buf, 2 * m->lane_n[lane], &count), GOTA_OK);
        CHECK_EQ(count, m->lane_n[lane]);
        CHECK(buf[0] == m->lane_x[lane][0] && buf[1] == m->lane_z[lane][0]);
        CHECK(buf[2 * count - 2] == m->lane_x[lane][count - 1] && buf[2 * count - 1] == m->lane_z[lane][count - 1]);
    }

    int32_t camps[3 * MAP_CAMPS];
    CHECK_EQ(gota_map_camps(NULL, 3 * MAP_CAMPS, &count), GOTA_ERR_NULL);
    CHECK_EQ(gota_map_camps(camps, 3 * MAP_CAMPS, NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_map_camps(camps, 3 * MAP_CAMPS - 1, &count), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_map_camps(camps, 3 * MAP_CAMPS, &count), GOTA_OK);
    CHECK_EQ(count, MAP_CAMPS);
    for (int i = 0; i < MAP_CAMPS; i++)
        CHECK(camps[3 * i] == m->camp[i].x && camps[3 * i + 1] == m->camp[i].z && camps[3 * i + 2] == m->camp[i].tier);
}

static void *get_map_thread(void *arg)
{
    (void)arg;
    return (void *)map_get();
}

int main(void)
{
    /* first use from several threads at once: one build, one pointer */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[4];
    void *res[4];
    for (int i = 0; i < 4; i++) CHECK_EQ(pthread_create(&th[i], NULL, get_map_thread, NULL), 0);
    for (int i = 0; i < 4; i++) pthread_join(th[i], &res[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const MapData *m = map_get();
    for (int i = 0; i < 4; i++) CHECK(res[i] == (const void *)m);
    long long us = (long long)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000;
    CHECK(us < 200000);   /* about 1 ms at -O2; generous for sanitizer builds */

    test_index_macros();
    test_tiles(m);
    test_buildings(m);
    test_connectivity(m);
    test_river(m);
    test_camps(m);
    test_lanes(m);
    test_api(m);
    return check_report("test_map");
}
