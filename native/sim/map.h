/*
 * map.h -- the immutable Competition map, built once and shared by every match.
 *
 * Layout facts come from docs/rules.md section 2 (116 x 116 tiles, 180-degree point
 * symmetry about the centre, three lanes, a river on the other diagonal with
 * four trail crossings, castles with keep and spawn room, 18 lane towers,
 * 4 god guards, 12 barracks, 2 gods, 14 camps in 7 mirrored pairs, forest
 * elsewhere). The builder is our own small deterministic integer program: no
 * floating point, so every machine builds the same bytes.
 *
 * Coordinates: tile (tx, tz), tx = column (east), tz = row (south). Tile index
 * = tz * GOTA_MAP_TILES + tx. World units: the centre of tile (tx, tz) is at
 * x = (tx - 58) * 60000 + 30000, z likewise. Red's base is the north-east
 * corner (high x, low z), Blue's the south-west (low x, high z); a point
 * (tx, tz) mirrors to (115 - tx, 115 - tz), a world point (x, z) to (-x, -z).
 *
 * Building footprints are listed as tile indices; those tiles are walkable in
 * the static data and blocked at run time only while the building lives
 * (nav.h keeps the live occupancy per match).
 */
#ifndef GOTA_MAP_H
#define GOTA_MAP_H
#include <stdint.h>
#include "gota.h"

#define MAP_N GOTA_MAP_TILES
#define MAP_TILES (MAP_N * MAP_N)
#define MAP_HALF_WORLD (MAP_N / 2 * GOTA_TILE)   /* 3,480,000 */
#define MAP_MAX_WAYPOINTS 32
#define MAP_MAX_FOOTPRINT 32
#define MAP_BUILDINGS 38                          /* capacity; the Competition map uses 36 (below) */
#define MAP_CAMPS 14
#define MAP_MAX_CAMP_MEMBERS 5

/* static vision blocker heights, in 1/8 tile (docs/rules.md section 5) */
#define MAP_BLOCK_TREES 24
#define MAP_BLOCK_BUILDING 28
#define MAP_BLOCK_GOD 32

/* edge flags (MapData.edges) */
#define MAP_EDGE_E 1   /* can step from this tile to (tx+1, tz) and back */
#define MAP_EDGE_S 2   /* can step from this tile to (tx, tz+1) and back */

typedef struct {
    int16_t kind;          /* GOTA_KIND_GOD, GOTA_KIND_TOWER, GOTA_KIND_BARRACKS */
    int16_t team;          /* GOTA_TEAM_RED / GOTA_TEAM_BLUE */
    int16_t lane;          /* 0..2, -1 for gods and guards */
    int16_t tier;          /* towers: GOTA_TIER_*; barracks: side 0/1; gods: 0 */
    int32_t x, z;          /* centre, world units */
    int32_t hp, damage, range;   /* docs/rules.md section 3.4 */
    int32_t sight_tiles;   /* vision radius in tiles */
    int32_t eye8;          /* eye height, 1/8 tile */
    int32_t blocker8;      /* vision blocker height while alive, 1/8 tile */
    int32_t footprint_n;   /* tiles blocked while alive (0 for gods) */
    uint16_t footprint[MAP_MAX_FOOTPRINT];
    /* barracks: where its creeps appear (world units) */
    int32_t spawn_x, spawn_z;
    /* barracks: lateral unit vector of the road at the spawn, Q16 */
    int32_t side_x, side_z;
    /* the footprint's bounding box in world units (x0, z0, x1, z1: tile
     * edges) and whether its tiles fill that box exactly (map_building_box) */
    int32_t box[4];
    int32_t box_filled;
} MapBuilding;

typedef struct {
    int32_t x, z;          /* camp centre, world units */
    int32_t tier;          /* 1..3 */
    int32_t members;       /* 1..5 */
    int32_t pair;          /* index of its mirror camp */
    int32_t member_x[MAP_MAX_CAMP_MEMBERS], member_z[MAP_MAX_CAMP_MEMBERS];
} MapCamp;

typedef struct {
    /* per tile */
    int8_t level[MAP_TILES];       /* -1 lake, 0 low, 1 high, 2 castle */
    uint8_t material[MAP_TILES];   /* GOTA_MAT_* */
    uint8_t walkable[MAP_TILES];   /* static: not trees/walls/rock, not deep water */
    uint8_t edges[MAP_TILES];      /* MAP_EDGE_* (cliffs removed, ramps kept) */
    int16_t height8[MAP_TILES];    /* terrain height, 1/8 tile (level * 8) */
    uint8_t blocker8[MAP_TILES];   /* static vision blocker: trees/rocks 24 */
    uint8_t region[MAP_TILES];     /* GOTA_REGION_* bits */

    /* lanes: route from the red gate point (index 0) to the blue gate point */
    int32_t lane_n[3];
    int32_t lane_x[3][MAP_MAX_WAYPOINTS], lane_z[3][MAP_MAX_WAYPOINTS];

    /* buildings: index 0 red god, 1 blue god, then towers, guards, barracks;
     * building_n = 36 = 2 gods + 18 lane towers + 4 god guards + 12 barracks.
     * Order (team 0 = Red before team 1 = Blue everywhere):
     *   0, 1                      gods (Red, Blue)
     *   2 + lane*6 + team*3 + tier   lane towers, tier 0 outer, 1 inner, 2 gate (2..19)
     *   20 + team*2 + j           god guards, j 0/1 (20..23)
     *   24 + lane*4 + team*2 + side  barracks, side 0 = left of the road when
     *                             facing out of the own gate, 1 = right (24..35)
     * Building i mirrors to the same kind/tier/side of the other team on lane
     * 2 - lane (MAP_IDX_* below). */
    int32_t building_n;
    MapBuilding building[MAP_BUILDINGS];
    /* per team and lane, in building order: the team's barracks of that lane
     * and its god guards (structure_next_enemy's candidates when the team is
     * the enemy) */
    uint8_t next_enemy_cand[2][3][MAP_BUILDINGS];
    uint8_t next_enemy_cand_n[2][3];

    MapCamp camp[MAP_CAMPS];

    int32_t hero_spawn_x[2], hero_spawn_z[2];   /* spawn room centre per team */
} MapData;

/* building indices of the Competition map (see MapData.building) */
#define MAP_BUILDING_COUNT 36
#define MAP_IDX_GOD(team) (team)
#define MAP_IDX_TOWER(lane, team, tier) (2 + (lane) * 6 + (team) * 3 + (tier))
#define MAP_IDX_GUARD(team, j) (20 + (team) * 2 + (j))
#define MAP_IDX_BARRACKS(lane, team, side) (24 + (lane) * 4 + (team) * 2 + (side))

/* The shared map; built on first use (thread-safe), never modified after. */
const MapData *map_get(void);
/* b->box and b->box_filled from b's footprint (the map build calls it; a test
 * that alters a footprint calls it again). */
void map_building_box(MapBuilding *b);

/* tile helpers */
static inline int map_tile_of(int32_t world) { return (world + MAP_HALF_WORLD) / GOTA_TILE; }
static inline int32_t map_tile_centre(int t) { return (t - MAP_N / 2) * GOTA_TILE + GOTA_TILE / 2; }
static inline int map_in_bounds(int tx, int tz) { return tx >= 0 && tz >= 0 && tx < MAP_N && tz < MAP_N; }
static inline int map_index(int tx, int tz) { return tz * MAP_N + tx; }
/* The key that breaks a tie between tiles in a search around tile `around`:
 * the tile index in the frame of the half of the map `around` lies in. On
 * blue's half (column below row, or on that diagonal below the centre) the
 * index is mirrored, MAP_TILES - 1 - t; so a search and its mirror image
 * (around rotated by 180 degrees) pick mirrored tiles. */
static inline int map_tie_key(int around, int t)
{
    int ax = around % MAP_N, az = around / MAP_N;
    return ax < az || (ax == az && ax < MAP_N / 2) ? MAP_TILES - 1 - t : t;
}
static inline int map_index_of(int32_t x, int32_t z) { return map_index(map_tile_of(x), map_tile_of(z)); }
/* world position inside the map with the rim margin kept (18,000 units) */
static inline int map_world_inside(int32_t x, int32_t z)
{
    const int32_t lim = MAP_HALF_WORLD - 18000;
    return x >= -lim && x <= lim && z >= -lim && z <= lim;
}

#endif
