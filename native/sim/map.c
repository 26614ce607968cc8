/*
 * map.c -- builds the Competition map (map.h) once and serves it read-only.
 *
 * What it models (docs/rules.md section 2): our own small,
 * deterministic map from the published layout facts, not the original's float
 * editor generator. 116 x 116 tiles, exact 180-degree point symmetry (tile
 * (tx, tz) <-> (115 - tx, 115 - tz), world (x, z) <-> (-x, -z)), three lanes,
 * a river on the other diagonal with the mid ford and four trail crossings,
 * two walled castles (keep, spawn room, gate towers, barracks, god guards,
 * god), 18 lane towers, 14 neutral camps in 7 mirrored pairs, forest
 * elsewhere. docs/map.md explains every choice and shows an ASCII render.
 *
 * Units: the builder draws in "q" units, a quarter tile of continuous tile
 * coordinates (tile t spans q = 4t .. 4t + 4; its centre is 4t + 2; a point q
 * mirrors to 464 - q). One q is 15,000 world units. Lane routes, buildings
 * and camps are stored in world units (map.h). Heights are levels (-1 lake,
 * 0 low, 1 high ground, 2 castle), height8 = 8 * level.
 *
 * Parameters: the layout table below (road, trail, river, castle sizes, lane
 * and trail polylines, camp anchors, structure stats). The camp member draw
 * uses its own SplitMix64 stream seeded with the map preset seed 54.
 *
 * Method: every feature is "carved" as a flag set on the tiles near a segment
 * or disc, always together with its mirror image (the geometry tests are exact
 * integers and negation-symmetric, so the result is exactly symmetric). One
 * pass then resolves flags into level, material, walkability, blockers and
 * regions, and a second derives the edge links (cliff unless same level or a
 * road/trail ramp). Buildings of Blue (or of lane 0) are computed and Red's
 * (or lane 2's) are their mirrors.
 *
 * Ownership: map.c owns one static MapData, written once inside pthread_once
 * and never modified afterwards; callers get a const pointer. No other
 * process-global mutable state. Integer arithmetic only.
 */
#include <pthread.h>
#include <string.h>

#include "fixmath.h"
#include "map.h"
#include "rng.h"

/* ---- layout table --------------------------------------------------------- */
#define Q 4                          /* q units per tile */
#define QN (MAP_N * Q)               /* 464; a point q mirrors to QN - q */
#define QWORLD (GOTA_TILE / Q)       /* 15,000 world units per q */
#define TP(x, z) { (x) * Q, (z) * Q }              /* continuous point (tile corner) */
#define TC(tx, tz) { (tx) * Q + Q / 2, (tz) * Q + Q / 2 }   /* centre of tile */

#define ROAD_HALF (3 * Q)            /* roads 6 tiles wide */
#define TRAIL_HALF 5                 /* trails 2.5 tiles wide (2-3 tiles) */
#define RIVER_HALF 18                /* river 9 tiles wide */
#define CAMP_RADIUS 14               /* camp clearing radius 3.5 tiles */
#define TOWER_CLEAR_RADIUS (5 * Q)   /* lane tower clearing radius 5 tiles */
#define TOWER_SIDE_OFFSET 270000     /* lane tower centre: 4.5 tiles off the road centre line */
#define WAYPOINT_STEP (10 * GOTA_TILE)

#define INNER_LO 15                  /* tiles 15..100 (inside the lane ring) are high ground */
#define INNER_HI (MAP_N - 1 - INNER_LO)

/* castle, in the team frame: u = tiles from the own west/east map edge,
 * v = tiles from the own south/north map edge (Blue: u = tx, v = 115 - tz) */
#define CASTLE_SIDE 33               /* platform u, v <= 33 ... */
#define CASTLE_DIAG 50               /* ... and u + v <= 50 (diagonal front) */
#define SPAWN_SIDE 8                 /* spawn room u, v <= 8 */

#define MAP_PRESET_SEED 54

/* river: the main diagonal from (31,31) to (85,85) (self-mirrored) */
static const int32_t RIVER_A = 31 * Q, RIVER_B = 85 * Q;

typedef struct { int32_t x, z; } QPt;

/* Lane 0 road centre line, Blue's keep to Red's keep (3-tile stubs inside the
 * castles). Lane 2 is its mirror. The route proper runs gate point to gate
 * point: (12,85) Blue, (85,12) Red. */
static const QPt LANE0_ROAD[] = { TP(12, 88), TP(12, 12), TP(88, 12) };
static const QPt LANE0_ROUTE_BLUE_FIRST[] = { TP(12, 85), TP(12, 12), TP(85, 12) };

/* Mid: Blue's half as (k, w): k diagonal steps from the centre toward Blue,
 * w the lateral wobble in q along (1,1); point = (232 - 4k + w, 232 + 4k + w).
 * w is odd about the centre, so mirroring the half gives Red's half. */
static const int32_t MID_K[] = { 37, 35, 26, 17, 8, 0 };
static const int32_t MID_W[] = { 0, 0, -5, 0, 6, 0 };
#define MID_N 6                      /* MID_K[1] (k 35) is Blue's gate point */

/* per-team castle geometry, Blue's (Red = mirror); index = lane */
static const QPt GATE_POINT_BLUE[3] = { TP(12, 85), TP(23, 93), TP(31, 104) };
static const QPt BARRACKS_LEFT_OFFSET[3] = { { -20, 0 }, { -16, -16 }, { 0, -20 } };   /* from the gate point */
static const QPt GATE_OUT_DIR[3] = { { 0, -1 }, { 1, -1 }, { 1, 0 } };                /* out of the gate */
static const int GATE_TOWER_BLUE[3][2] = { { 4, 87 }, { 18, 97 }, { 28, 111 } };    /* tiles */
static const int GUARD_BLUE[2][2] = { { 9, 100 }, { 16, 107 } };
static const int GOD_BLUE[2] = { 10, 105 };
static const int HERO_SPAWN_BLUE[2] = { 4, 111 };

/* lane tower stations along the route measured from Blue's gate point, in
 * 1/10,000 of its length; team of each (lane 0: Blue 13.75/30 %, Red 54/81 %;
 * mid: Blue 21/37 %, Red = mirror) */
static const int32_t LANE0_STATION[4] = { 1375, 3000, 5400, 8100 };
static const int LANE0_STATION_TEAM[4] = { GOTA_TEAM_BLUE, GOTA_TEAM_BLUE, GOTA_TEAM_RED, GOTA_TEAM_RED };
static const int32_t MID_STATION_BLUE[2] = { 2100, 3700 };

/* camps 0..6: anchors (editor coords x 0.116, rounded to tiles); 7..13 mirrors */
static const int CAMP_TILE[7][2] = {
    { 24, 25 }, { 45, 24 }, { 24, 47 }, { 24, 70 }, { 37, 90 }, { 52, 87 }, { 57, 35 } };

/* jungle trails (each also carved mirrored): segments between camps, junctions,
 * lanes and the river crossing ends */
static const QPt TRAIL_SEG[][2] = {
    /* west jungle (Blue, between lane 0 and mid) */
    { TC(24, 25), TC(24, 47) },  { TC(24, 47), TP(24, 56) }, { TP(24, 56), TC(24, 70) },
    { TC(24, 47), TP(30, 46) },  { TP(24, 56), TP(40, 56) },
    { TC(24, 25), TP(12, 24) },  { TP(24, 56), TP(12, 56) }, { TC(24, 70), TP(28, 86) },
    /* south jungle (Blue, between mid and lane 2) */
    { TC(37, 90), TP(31, 86) },  { TC(37, 90), TC(52, 87) }, { TC(52, 87), TC(58, 80) },
    { TC(58, 80), TP(60, 76) },  { TC(52, 87), TC(70, 91) }, { TC(70, 91), TP(70, 86) },
    { TC(70, 91), TP(84, 95) },  { TP(84, 95), TC(91, 90) },
    { TC(37, 90), TP(40, 104) }, { TC(70, 91), TP(80, 104) },
    /* river crossings at the diagonal points 38 and 48 (mirrors: 78 and 68) */
    { TP(30, 46), TP(46, 30) },  { TP(40, 56), TP(56, 40) },
};
#define TRAIL_SEG_N ((int)(sizeof TRAIL_SEG / sizeof TRAIL_SEG[0]))

/* structure stats by tower tier (docs/rules.md section 3.4) */
typedef struct { int32_t hp, damage, range, sight, radius; } TowerStats;
static const TowerStats TOWER_STATS[4] = {
    { 1900, 36, 300000, 7, 63000 },   /* outer */
    { 2600, 48, 330000, 7, 75000 },   /* inner */
    { 3900, 60, 360000, 8, 99000 },   /* gate */
    { 3900, 60, 360000, 8, 99000 },   /* god guard */
};
#define TOWER_EYE8 24
#define BARRACKS_HP 950
#define BARRACKS_SIGHT 7
#define BARRACKS_HALF_ALONG 50400    /* along the road */
#define BARRACKS_HALF_ACROSS 39000   /* across the road */
#define BARRACKS_SPAWN_OFFSET 90000  /* spawn: 1.5 tiles from the gate point toward the barracks */
#define GOD_HP 400
#define GOD_SIGHT 14
#define GOD_EYE8 28


/* camp member ring offsets (world units, ~1 tile), by member count */
static const int32_t RING[6][5][2] = {
    { { 0, 0 } },
    { { 0, 0 } },
    { { 0, -60000 }, { 0, 60000 } },
    { { 0, -60000 }, { 51962, 30000 }, { -51962, 30000 } },
    { { 0, -60000 }, { 60000, 0 }, { 0, 60000 }, { -60000, 0 } },
    { { 0, -60000 }, { 57063, -18541 }, { 35267, 48541 }, { -35267, 48541 }, { -57063, -18541 } },
};

/* ---- build state ------------------------------------------------------------ */
enum {
    F_ROAD = 1, F_TRAIL = 2, F_RIVER = 4, F_CAMP = 8, F_CLEAR = 16, F_CASTLE = 32,
    F_WALL = 64, F_SPAWN = 128, F_RED = 256, F_INNER = 512, F_BORDER = 1024
};

typedef struct {
    uint16_t flag[MAP_TILES];
    QPt tower_q[2][3][3];            /* [team][lane][station 0,1 or gate 2] tile centres */
} Builder;

static MapData g_map;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* ---- small geometry helpers ------------------------------------------------- */
static QPt mirror_q(QPt p) { QPt r = { QN - p.x, QN - p.z }; return r; }
static int32_t q_to_world(int32_t q) { return (q - QN / 2) * QWORLD; }
static QPt tile_centre_q(int tx, int tz) { QPt r = { tx * Q + Q / 2, tz * Q + Q / 2 }; return r; }
static QPt mid_point_q(int i)
{
    QPt r = { QN / 2 - Q * MID_K[i] + MID_W[i], QN / 2 + Q * MID_K[i] + MID_W[i] };
    return r;
}

/* 1 when the point (px, pz) lies within r of the segment a-b (exact integers) */
static int near_segment(int32_t px, int32_t pz, QPt a, QPt b, int32_t r)
{
    int64_t dx = b.x - a.x, dz = b.z - a.z, ex = px - a.x, ez = pz - a.z;
    int64_t len2 = dx * dx + dz * dz, dot = ex * dx + ez * dz, r2 = (int64_t)r * r;
    if (len2 == 0 || dot <= 0) return ex * ex + ez * ez <= r2;
    if (dot >= len2) {
        int64_t fx = px - b.x, fz = pz - b.z;
        return fx * fx + fz * fz <= r2;
    }
    int64_t cross = ex * dz - ez * dx;
    return cross * cross <= r2 * len2;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void carve_segment_one(Builder *b, QPt a, QPt c, int32_t r, uint16_t flag)
{
    int x0 = clampi(((a.x < c.x ? a.x : c.x) - r) / Q - 1, 0, MAP_N - 1);
    int x1 = clampi(((a.x > c.x ? a.x : c.x) + r) / Q + 1, 0, MAP_N - 1);
    int z0 = clampi(((a.z < c.z ? a.z : c.z) - r) / Q - 1, 0, MAP_N - 1);
    int z1 = clampi(((a.z > c.z ? a.z : c.z) + r) / Q + 1, 0, MAP_N - 1);
    for (int tz = z0; tz <= z1; tz++)
        for (int tx = x0; tx <= x1; tx++)
            if (near_segment(tx * Q + Q / 2, tz * Q + Q / 2, a, c, r)) b->flag[map_index(tx, tz)] |= flag;
}

/* carve a segment and its mirror image */
static void carve_segment(Builder *b, QPt a, QPt c, int32_t r, uint16_t flag)
{
    carve_segment_one(b, a, c, r, flag);
    carve_segment_one(b, mirror_q(a), mirror_q(c), r, flag);
}

static void carve_disc(Builder *b, QPt c, int32_t r, uint16_t flag) { carve_segment(b, c, c, r, flag); }

static void carve_road(Builder *b, const QPt *pts, int n)
{
    for (int i = 0; i + 1 < n; i++) carve_segment(b, pts[i], pts[i + 1], ROAD_HALF, F_ROAD);
}

/* unit vector of (dx, dz) in Q16 */
static void unit_q16(int64_t dx, int64_t dz, int32_t *ux, int32_t *uz)
{
    int64_t sx = dx * 65536, sz = dz * 65536;
    int64_t len = (int64_t)fx_isqrt64((uint64_t)(sx * sx + sz * sz));
    if (len == 0) { *ux = 65536; *uz = 0; return; }
    *ux = (int32_t)(sx * 65536 / len);
    *uz = (int32_t)(sz * 65536 / len);
}

/* The point `station` / 10,000 of the way along the polyline (q points), moved
 * TOWER_SIDE_OFFSET to the side (dz, -dx) of the walking direction, snapped to
 * the centre of the tile holding it. */
static QPt station_tile(const QPt *pts, int n, int32_t station)
{
    int64_t len[8] = { 0 }, total = 0;
    for (int i = 0; i + 1 < n; i++) {
        int64_t dx = (int64_t)(pts[i + 1].x - pts[i].x) * QWORLD, dz = (int64_t)(pts[i + 1].z - pts[i].z) * QWORLD;
        len[i] = fx_isqrt64((uint64_t)(dx * dx + dz * dz));
        total += len[i];
    }
    int64_t want = total * station / 10000, acc = 0;
    int i = 0;
    while (i + 2 < n && acc + len[i] < want) acc += len[i++];
    int64_t ax = q_to_world(pts[i].x), az = q_to_world(pts[i].z);
    int64_t dx = (int64_t)(pts[i + 1].x - pts[i].x) * QWORLD, dz = (int64_t)(pts[i + 1].z - pts[i].z) * QWORLD;
    int64_t t = want - acc, seg = len[i] > 0 ? len[i] : 1;
    int64_t x = ax + dx * t / seg + dz * TOWER_SIDE_OFFSET / seg;
    int64_t z = az + dz * t / seg - dx * TOWER_SIDE_OFFSET / seg;
    return tile_centre_q(map_tile_of((int32_t)x), map_tile_of((int32_t)z));
}

/* ---- terrain ------------------------------------------------------------------ */
/* castle membership of a tile in a team frame (u, v) */
static void castle_flags(Builder *b, int tx, int tz, int u, int v, uint16_t team_flag)
{
    if (u > CASTLE_SIDE || v > CASTLE_SIDE || u + v > CASTLE_DIAG) return;
    uint16_t f = F_CASTLE | team_flag;
    if (u == 0 || v == 0 || u == CASTLE_SIDE || v == CASTLE_SIDE || u + v >= CASTLE_DIAG - 1) f |= F_WALL;
    else if (u <= SPAWN_SIDE && v <= SPAWN_SIDE) f |= F_SPAWN;
    b->flag[map_index(tx, tz)] |= f;
}

static void carve_base(Builder *b)
{
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            uint16_t *f = &b->flag[map_index(tx, tz)];
            if (tx >= INNER_LO && tx <= INNER_HI && tz >= INNER_LO && tz <= INNER_HI) *f |= F_INNER;
            if (tx == 0 || tz == 0 || tx == MAP_N - 1 || tz == MAP_N - 1) *f |= F_BORDER;
            castle_flags(b, tx, tz, tx, MAP_N - 1 - tz, 0);          /* Blue, south-west */
            castle_flags(b, tx, tz, MAP_N - 1 - tx, tz, F_RED);      /* Red, north-east */
        }
}

static void carve_lanes(Builder *b)
{
    QPt mid[MID_N];
    carve_road(b, LANE0_ROAD, (int)(sizeof LANE0_ROAD / sizeof LANE0_ROAD[0]));   /* + mirror = lane 2 */
    for (int i = 0; i < MID_N; i++) mid[i] = mid_point_q(i);
    carve_road(b, mid, MID_N);                                                   /* + mirror = Red's half */
}

static void carve_jungle(Builder *b)
{
    QPt ra = { RIVER_A, RIVER_A }, rb = { RIVER_B, RIVER_B };
    carve_segment(b, ra, rb, RIVER_HALF, F_RIVER);
    for (int i = 0; i < TRAIL_SEG_N; i++) carve_segment(b, TRAIL_SEG[i][0], TRAIL_SEG[i][1], TRAIL_HALF, F_TRAIL);
    for (int i = 0; i < 7; i++) carve_disc(b, tile_centre_q(CAMP_TILE[i][0], CAMP_TILE[i][1]), CAMP_RADIUS, F_CAMP);
    for (int team = 0; team < 2; team++)
        for (int lane = 0; lane < 3; lane++)
            for (int s = 0; s < 2; s++) carve_disc(b, b->tower_q[team][lane][s], TOWER_CLEAR_RADIUS, F_CLEAR);
}

/* flags -> level, material, walkability, blockers, regions */
static void resolve_tiles(const Builder *b, MapData *m)
{
    for (int i = 0; i < MAP_TILES; i++) {
        uint16_t f = b->flag[i];
        int level = (f & F_INNER) ? 1 : 0, mat;
        uint8_t region = 0;
        if (f & F_CASTLE) {
            level = 2;
            mat = (f & F_ROAD) ? GOTA_MAT_ROAD : (f & F_WALL) ? GOTA_MAT_WALL : GOTA_MAT_GRASS;
            if (mat != GOTA_MAT_WALL) {
                region |= (f & F_RED) ? GOTA_REGION_RED_KEEP : GOTA_REGION_BLUE_KEEP;
                if (f & F_SPAWN) region |= (f & F_RED) ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
            }
        } else if (f & F_BORDER) {
            mat = GOTA_MAT_TREES;
        } else if (f & F_ROAD) {
            mat = GOTA_MAT_ROAD;
            level = (f & F_RIVER) ? -1 : 0;
        } else if (f & F_RIVER) {
            mat = (f & F_TRAIL) ? GOTA_MAT_TRAIL : GOTA_MAT_WATER;
            level = -1;
        } else if (f & F_CAMP) {
            mat = GOTA_MAT_GRASS;
            region |= GOTA_REGION_CAMP;
        } else if (f & F_TRAIL) {
            mat = GOTA_MAT_TRAIL;
        } else if (f & F_CLEAR) {
            mat = GOTA_MAT_GRASS;
            level = 0;
        } else {
            mat = GOTA_MAT_TREES;
        }
        if (mat == GOTA_MAT_ROAD) region |= GOTA_REGION_LANE;
        int walk = mat != GOTA_MAT_TREES && mat != GOTA_MAT_WALL && mat != GOTA_MAT_ROCK;
        m->level[i] = (int8_t)level;
        m->height8[i] = (int16_t)(level * 8);
        m->material[i] = (uint8_t)mat;
        m->walkable[i] = (uint8_t)walk;
        m->blocker8[i] = walk ? 0 : MAP_BLOCK_TREES;
        m->region[i] = region;
    }
}

static int ramp_material(uint8_t mat) { return mat == GOTA_MAT_ROAD || mat == GOTA_MAT_TRAIL; }

static int linked(const MapData *m, int a, int c)
{
    if (!m->walkable[a] || !m->walkable[c]) return 0;
    return m->level[a] == m->level[c] || (ramp_material(m->material[a]) && ramp_material(m->material[c]));
}

static void build_edges(MapData *m)
{
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            int i = map_index(tx, tz);
            uint8_t e = 0;
            if (tx + 1 < MAP_N && linked(m, i, i + 1)) e |= MAP_EDGE_E;
            if (tz + 1 < MAP_N && linked(m, i, i + MAP_N)) e |= MAP_EDGE_S;
            m->edges[i] = e;
        }
}

/* ---- buildings ---------------------------------------------------------------- */
static void mirror_building(const MapBuilding *src, MapBuilding *dst, int lane)
{
    *dst = *src;
    dst->team = (int16_t)(1 - src->team);
    dst->lane = (int16_t)lane;
    dst->x = -src->x;
    dst->z = -src->z;
    dst->spawn_x = -src->spawn_x;
    dst->spawn_z = -src->spawn_z;
    dst->side_x = -src->side_x;
    dst->side_z = -src->side_z;
    for (int k = 0; k < src->footprint_n; k++) dst->footprint[k] = (uint16_t)(MAP_TILES - 1 - src->footprint[k]);
}

/* footprint: tiles whose centre lies within r of the building centre */
static void footprint_disc(MapBuilding *bd, int32_t r)
{
    int cx = map_tile_of(bd->x), cz = map_tile_of(bd->z);
    bd->footprint_n = 0;
    for (int tz = cz - 3; tz <= cz + 3; tz++)
        for (int tx = cx - 3; tx <= cx + 3; tx++) {
            if (!map_in_bounds(tx, tz)) continue;
            if (fx_dist2(map_tile_centre(tx), map_tile_centre(tz), bd->x, bd->z) <= (int64_t)r * r &&
                bd->footprint_n < MAP_MAX_FOOTPRINT)
                bd->footprint[bd->footprint_n++] = (uint16_t)map_index(tx, tz);
        }
    if (bd->footprint_n == 0) bd->footprint[bd->footprint_n++] = (uint16_t)map_index(cx, cz);
}

/* footprint: tiles whose centre lies in the rectangle along (ux, uz) (Q16) */
static void footprint_rect(MapBuilding *bd, int32_t ux, int32_t uz)
{
    int cx = map_tile_of(bd->x), cz = map_tile_of(bd->z);
    bd->footprint_n = 0;
    for (int tz = cz - 3; tz <= cz + 3; tz++)
        for (int tx = cx - 3; tx <= cx + 3; tx++) {
            if (!map_in_bounds(tx, tz)) continue;
            int64_t ox = (int64_t)map_tile_centre(tx) - bd->x, oz = (int64_t)map_tile_centre(tz) - bd->z;
            int64_t along = ox * ux + oz * uz, across = ox * uz - oz * ux;
            if (along < 0) along = -along;
            if (across < 0) across = -across;
            if (along <= (int64_t)BARRACKS_HALF_ALONG * 65536 && across <= (int64_t)BARRACKS_HALF_ACROSS * 65536 &&
                bd->footprint_n < MAP_MAX_FOOTPRINT)
                bd->footprint[bd->footprint_n++] = (uint16_t)map_index(tx, tz);
        }
    if (bd->footprint_n == 0) bd->footprint[bd->footprint_n++] = (uint16_t)map_index(cx, cz);
}

static void set_tower(MapBuilding *bd, int team, int lane, int tier, QPt q)
{
    const TowerStats *s = &TOWER_STATS[tier];
    memset(bd, 0, sizeof *bd);
    bd->kind = GOTA_KIND_TOWER;
    bd->team = (int16_t)team;
    bd->lane = (int16_t)lane;
    bd->tier = (int16_t)tier;
    bd->x = q_to_world(q.x);
    bd->z = q_to_world(q.z);
    bd->hp = s->hp;
    bd->damage = s->damage;
    bd->range = s->range;
    bd->sight_tiles = s->sight;
    bd->eye8 = TOWER_EYE8;
    bd->blocker8 = MAP_BLOCK_BUILDING;
    footprint_disc(bd, s->radius);
}

/* tower tile centres: lane 0 (both teams) and Blue's mid computed, the rest mirrored */
static void place_towers(Builder *b)
{
    QPt mid_route[2 * MID_N - 3];
    int n = 0;
    for (int i = 1; i < MID_N; i++) mid_route[n++] = mid_point_q(i);                 /* Blue gate .. centre */
    for (int i = MID_N - 2; i >= 1; i--) mid_route[n++] = mirror_q(mid_point_q(i));   /* .. Red gate */
    int lane0_n = (int)(sizeof LANE0_ROUTE_BLUE_FIRST / sizeof LANE0_ROUTE_BLUE_FIRST[0]);
    int used[2] = { 0, 0 };
    for (int s = 0; s < 4; s++) {
        int team = LANE0_STATION_TEAM[s];
        b->tower_q[team][0][used[team]++] = station_tile(LANE0_ROUTE_BLUE_FIRST, lane0_n, LANE0_STATION[s]);
    }
    for (int s = 0; s < 2; s++) b->tower_q[GOTA_TEAM_BLUE][1][s] = station_tile(mid_route, n, MID_STATION_BLUE[s]);
    for (int lane = 0; lane < 3; lane++)
        b->tower_q[GOTA_TEAM_BLUE][lane][2] = tile_centre_q(GATE_TOWER_BLUE[lane][0], GATE_TOWER_BLUE[lane][1]);
    /* Red's lane 0 gate tower mirrors Blue's lane 2 one; Red's mid mirrors Blue's mid;
     * lane 2 (both teams) mirrors lane 0 */
    b->tower_q[GOTA_TEAM_RED][0][2] = mirror_q(b->tower_q[GOTA_TEAM_BLUE][2][2]);
    b->tower_q[GOTA_TEAM_RED][2][2] = mirror_q(b->tower_q[GOTA_TEAM_BLUE][0][2]);
    for (int s = 0; s < 3; s++) {
        b->tower_q[GOTA_TEAM_RED][1][s] = mirror_q(b->tower_q[GOTA_TEAM_BLUE][1][s]);
        if (s < 2) {
            b->tower_q[GOTA_TEAM_RED][2][s] = mirror_q(b->tower_q[GOTA_TEAM_BLUE][0][s]);
            b->tower_q[GOTA_TEAM_BLUE][2][s] = mirror_q(b->tower_q[GOTA_TEAM_RED][0][s]);
        }
    }
}

static void build_god(MapBuilding *bd, int team)
{
    memset(bd, 0, sizeof *bd);
    bd->kind = GOTA_KIND_GOD;
    bd->team = (int16_t)team;
    bd->lane = -1;
    bd->x = map_tile_centre(GOD_BLUE[0]);
    bd->z = map_tile_centre(GOD_BLUE[1]);
    if (team == GOTA_TEAM_RED) { bd->x = -bd->x; bd->z = -bd->z; }
    bd->hp = GOD_HP;
    bd->sight_tiles = GOD_SIGHT;
    bd->eye8 = GOD_EYE8;
    bd->blocker8 = MAP_BLOCK_GOD;
}

static void build_buildings(const Builder *b, MapData *m)
{
    MapBuilding *B = m->building;
    build_god(&B[0], GOTA_TEAM_RED);
    build_god(&B[1], GOTA_TEAM_BLUE);
    /* lane towers: per lane and team, the three sorted by distance from the own
     * god, farthest first (outer, inner, gate) */
    for (int lane = 0; lane < 3; lane++)
        for (int team = 0; team < 2; team++) {
            const MapBuilding *god = &B[team == GOTA_TEAM_RED ? 0 : 1];
            int order[3] = { 0, 1, 2 };
            int64_t d[3];
            for (int s = 0; s < 3; s++)
                d[s] = fx_dist2(q_to_world(b->tower_q[team][lane][s].x), q_to_world(b->tower_q[team][lane][s].z),
                                god->x, god->z);
            for (int i = 0; i < 3; i++)
                for (int j = i + 1; j < 3; j++)
                    if (d[order[j]] > d[order[i]]) { int t = order[i]; order[i] = order[j]; order[j] = t; }
            for (int tier = 0; tier < 3; tier++)
                set_tower(&B[MAP_IDX_TOWER(lane, team, tier)], team, lane, tier, b->tower_q[team][lane][order[tier]]);
        }
    /* god guards: Blue's from the table, Red's mirrored */
    for (int j = 0; j < 2; j++) {
        set_tower(&B[MAP_IDX_GUARD(GOTA_TEAM_BLUE, j)], GOTA_TEAM_BLUE, -1, GOTA_TIER_GUARD,
                  tile_centre_q(GUARD_BLUE[j][0], GUARD_BLUE[j][1]));
        mirror_building(&B[MAP_IDX_GUARD(GOTA_TEAM_BLUE, j)], &B[MAP_IDX_GUARD(GOTA_TEAM_RED, j)], -1);
    }
    /* barracks: Blue's per lane, one each side of the road just inside the gate;
     * side 0 = left when facing out of the gate. Red's lane L mirrors Blue's 2 - L. */
    for (int lane = 0; lane < 3; lane++) {
        int32_t ux, uz;
        unit_q16(GATE_OUT_DIR[lane].x, GATE_OUT_DIR[lane].z, &ux, &uz);
        for (int side = 0; side < 2; side++) {
            MapBuilding *bd = &B[MAP_IDX_BARRACKS(lane, GOTA_TEAM_BLUE, side)];
            int sign = side == 0 ? 1 : -1;
            QPt g = GATE_POINT_BLUE[lane];
            QPt c = { g.x + sign * BARRACKS_LEFT_OFFSET[lane].x, g.z + sign * BARRACKS_LEFT_OFFSET[lane].z };
            int32_t sx, sz;
            unit_q16(sign * BARRACKS_LEFT_OFFSET[lane].x, sign * BARRACKS_LEFT_OFFSET[lane].z, &sx, &sz);
            memset(bd, 0, sizeof *bd);
            bd->kind = GOTA_KIND_BARRACKS;
            bd->team = GOTA_TEAM_BLUE;
            bd->lane = (int16_t)lane;
            bd->tier = (int16_t)side;
            bd->x = q_to_world(c.x);
            bd->z = q_to_world(c.z);
            bd->hp = BARRACKS_HP;
            bd->sight_tiles = BARRACKS_SIGHT;
            bd->eye8 = TOWER_EYE8;
            bd->blocker8 = MAP_BLOCK_BUILDING;
            bd->side_x = sx;
            bd->side_z = sz;
            bd->spawn_x = q_to_world(g.x) + (int32_t)((int64_t)sx * BARRACKS_SPAWN_OFFSET / 65536);
            bd->spawn_z = q_to_world(g.z) + (int32_t)((int64_t)sz * BARRACKS_SPAWN_OFFSET / 65536);
            footprint_rect(bd, ux, uz);
        }
    }
    for (int lane = 0; lane < 3; lane++)
        for (int side = 0; side < 2; side++)
            mirror_building(&B[MAP_IDX_BARRACKS(2 - lane, GOTA_TEAM_BLUE, side)],
                            &B[MAP_IDX_BARRACKS(lane, GOTA_TEAM_RED, side)], lane);
    m->building_n = MAP_BUILDING_COUNT;
}

/* ---- lane routes ---------------------------------------------------------------- */
/* Append the polyline pts (q) sampled at most every WAYPOINT_STEP, without its
 * last point, to the waypoint list (world units). */
static void sample_polyline(const QPt *pts, int n, int32_t *xs, int32_t *zs, int *count)
{
    for (int i = 0; i + 1 < n; i++) {
        int64_t ax = q_to_world(pts[i].x), az = q_to_world(pts[i].z);
        int64_t dx = q_to_world(pts[i + 1].x) - ax, dz = q_to_world(pts[i + 1].z) - az;
        int64_t len = fx_isqrt64((uint64_t)(dx * dx + dz * dz));
        int64_t pieces = (len + WAYPOINT_STEP - 1) / WAYPOINT_STEP;
        if (pieces < 1) pieces = 1;
        for (int64_t k = 0; k < pieces && *count < MAP_MAX_WAYPOINTS; k++) {
            xs[*count] = (int32_t)(ax + dx * k / pieces);
            zs[*count] = (int32_t)(az + dz * k / pieces);
            (*count)++;
        }
    }
}

static void build_lanes(MapData *m)
{
    /* lane 0, red end first: reverse of the blue-first route */
    QPt l0[4];
    int n0 = (int)(sizeof LANE0_ROUTE_BLUE_FIRST / sizeof LANE0_ROUTE_BLUE_FIRST[0]);
    for (int i = 0; i < n0; i++) l0[i] = LANE0_ROUTE_BLUE_FIRST[n0 - 1 - i];
    int n = 0;
    sample_polyline(l0, n0, m->lane_x[0], m->lane_z[0], &n);
    m->lane_x[0][n] = q_to_world(l0[n0 - 1].x);
    m->lane_z[0][n] = q_to_world(l0[n0 - 1].z);
    m->lane_n[0] = n + 1;
    /* lane 2: lane 0 mirrored and reversed */
    m->lane_n[2] = m->lane_n[0];
    for (int i = 0; i < m->lane_n[0]; i++) {
        m->lane_x[2][i] = -m->lane_x[0][m->lane_n[0] - 1 - i];
        m->lane_z[2][i] = -m->lane_z[0][m->lane_n[0] - 1 - i];
    }
    /* mid: Red's half (red gate .. centre), then the mirror of it reversed */
    QPt half[MID_N - 1];
    for (int i = 1; i < MID_N; i++) half[i - 1] = mirror_q(mid_point_q(i));
    n = 0;
    sample_polyline(half, MID_N - 1, m->lane_x[1], m->lane_z[1], &n);
    m->lane_x[1][n] = 0;   /* the centre */
    m->lane_z[1][n] = 0;
    for (int i = n - 1; i >= 0; i--) {
        m->lane_x[1][2 * n - i] = -m->lane_x[1][i];
        m->lane_z[1][2 * n - i] = -m->lane_z[1][i];
    }
    m->lane_n[1] = 2 * n + 1;
}

/* ---- camps ------------------------------------------------------------------------ */
static void build_camps(MapData *m)
{
    int64_t dist[7];
    int rank[7];
    for (int i = 0; i < 7; i++) {
        MapCamp *c = &m->camp[i];
        memset(c, 0, sizeof *c);
        c->x = map_tile_centre(CAMP_TILE[i][0]);
        c->z = map_tile_centre(CAMP_TILE[i][1]);
        int64_t dr = fx_dist2(c->x, c->z, m->building[0].x, m->building[0].z);
        int64_t db = fx_dist2(c->x, c->z, m->building[1].x, m->building[1].z);
        dist[i] = dr < db ? dr : db;
    }
    /* tier by rank of the distance to the nearest god (ties: lower index first) */
    for (int i = 0; i < 7; i++) {
        rank[i] = 0;
        for (int j = 0; j < 7; j++)
            if (dist[j] < dist[i] || (dist[j] == dist[i] && j < i)) rank[i]++;
    }
    uint64_t rng;
    rng_seed(&rng, MAP_PRESET_SEED);
    for (int i = 0; i < 7; i++) {
        MapCamp *c = &m->camp[i], *p = &m->camp[i + 7];
        c->tier = rank[i] < 3 ? 1 : rank[i] < 5 ? 2 : 3;
        c->members = c->tier == 1 ? 1 + (int32_t)rng_below(&rng, 2)
                   : c->tier == 2 ? 2 + (int32_t)rng_below(&rng, 2)
                                  : 3 + (int32_t)rng_below(&rng, 3);
        c->pair = i + 7;
        for (int k = 0; k < c->members; k++) {
            c->member_x[k] = c->x + RING[c->members][k][0];
            c->member_z[k] = c->z + RING[c->members][k][1];
        }
        *p = *c;
        p->pair = i;
        p->x = -c->x;
        p->z = -c->z;
        for (int k = 0; k < c->members; k++) {
            p->member_x[k] = -c->member_x[k];
            p->member_z[k] = -c->member_z[k];
        }
    }
}

_Static_assert(MAP_BUILDINGS <= UINT8_MAX, "building indices fit uint8_t");

void map_building_box(MapBuilding *b)
{
    int tx0 = MAP_N, tz0 = MAP_N, tx1 = -1, tz1 = -1;
    for (int k = 0; k < b->footprint_n; k++) {
        int tx = b->footprint[k] % MAP_N, tz = b->footprint[k] / MAP_N;
        tx0 = tx < tx0 ? tx : tx0;
        tx1 = tx > tx1 ? tx : tx1;
        tz0 = tz < tz0 ? tz : tz0;
        tz1 = tz > tz1 ? tz : tz1;
    }
    b->box_filled = 0;
    if (b->footprint_n == 0) return;
    b->box[0] = (tx0 - MAP_N / 2) * GOTA_TILE;
    b->box[1] = (tz0 - MAP_N / 2) * GOTA_TILE;
    b->box[2] = (tx1 - MAP_N / 2) * GOTA_TILE + GOTA_TILE;
    b->box[3] = (tz1 - MAP_N / 2) * GOTA_TILE + GOTA_TILE;
    /* it fills the box when its tiles are distinct and as many as the box's */
    int w = tx1 - tx0 + 1, area = w * (tz1 - tz0 + 1);
    if (area != b->footprint_n) return;
    uint8_t hit[MAP_MAX_FOOTPRINT] = {0};
    int distinct = 1;
    for (int k = 0; k < b->footprint_n; k++) {
        int c = (b->footprint[k] / MAP_N - tz0) * w + b->footprint[k] % MAP_N - tx0;
        distinct &= !hit[c];
        hit[c] = 1;
    }
    b->box_filled = distinct;
}

/* footprint boxes and structure_next_enemy's candidate lists (MapData) */
static void index_buildings(MapData *m)
{
    for (int i = 0; i < m->building_n; i++) {
        MapBuilding *b = &m->building[i];
        map_building_box(b);
        for (int l = 0; l < 3; l++)
            if ((b->team == GOTA_TEAM_RED || b->team == GOTA_TEAM_BLUE) &&
                ((b->kind == GOTA_KIND_BARRACKS && b->lane == l) ||
                 (b->kind == GOTA_KIND_TOWER && b->tier == GOTA_TIER_GUARD)))
                m->next_enemy_cand[b->team][l][m->next_enemy_cand_n[b->team][l]++] = (uint8_t)i;
    }
}

/* ---- the shared map ------------------------------------------------------------ */
static void build_map(void)
{
    Builder b;   /* scratch flags (27 KB), on the building thread's stack */
    MapData *m = &g_map;
    memset(&b, 0, sizeof b);
    memset(m, 0, sizeof *m);
    carve_base(&b);
    carve_lanes(&b);
    place_towers(&b);
    carve_jungle(&b);
    resolve_tiles(&b, m);
    build_edges(m);
    build_buildings(&b, m);
    index_buildings(m);
    build_lanes(m);
    build_camps(m);
    m->hero_spawn_x[GOTA_TEAM_BLUE] = map_tile_centre(HERO_SPAWN_BLUE[0]);
    m->hero_spawn_z[GOTA_TEAM_BLUE] = map_tile_centre(HERO_SPAWN_BLUE[1]);
    m->hero_spawn_x[GOTA_TEAM_RED] = -m->hero_spawn_x[GOTA_TEAM_BLUE];
    m->hero_spawn_z[GOTA_TEAM_RED] = -m->hero_spawn_z[GOTA_TEAM_BLUE];
}

const MapData *map_get(void)
{
    pthread_once(&g_once, build_map);
    return &g_map;
}

int gota_map_tiles(GotaTile *out, int32_t cap)
{
    if (!out) return GOTA_ERR_NULL;
    if (cap < MAP_TILES) return GOTA_ERR_BUFFER;
    const MapData *m = map_get();
    for (int i = 0; i < MAP_TILES; i++) {
        out[i].level = m->level[i];
        out[i].material = m->material[i];
        out[i].walkable = m->walkable[i];
        out[i].region = m->region[i];
    }
    return GOTA_OK;
}

int gota_map_lane(int32_t lane, int32_t *out_xz, int32_t cap, int32_t *count)
{
    if (!out_xz || !count) return GOTA_ERR_NULL;
    if (lane < 0 || lane > 2) return GOTA_ERR_INDEX;
    const MapData *m = map_get();
    int32_t n = m->lane_n[lane];
    if (cap < 2 * n) return GOTA_ERR_BUFFER;
    for (int32_t i = 0; i < n; i++) {
        out_xz[2 * i] = m->lane_x[lane][i];
        out_xz[2 * i + 1] = m->lane_z[lane][i];
    }
    *count = n;
    return GOTA_OK;
}

int gota_map_camps(int32_t *out, int32_t cap, int32_t *count)
{
    if (!out || !count) return GOTA_ERR_NULL;
    if (cap < 3 * MAP_CAMPS) return GOTA_ERR_BUFFER;
    const MapData *m = map_get();
    for (int i = 0; i < MAP_CAMPS; i++) {
        out[3 * i] = m->camp[i].x;
        out[3 * i + 1] = m->camp[i].z;
        out[3 * i + 2] = m->camp[i].tier;
    }
    *count = MAP_CAMPS;
    return GOTA_OK;
}
