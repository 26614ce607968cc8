/*
 * vision.h -- per-team fog of war on the tile grid (docs/rules.md section 5).
 *
 * A tile is visible to a team when some source of that team has it within its
 * circle (dx^2 + dz^2 <= r^2, in tiles) and the straight ray is not blocked:
 * n = max(|dx|, |dz|) steps, intermediate cells at the rounded (dx*i/n, dz*i/n)
 * (ties away from zero), ray height interpolated from (source terrain + eye) to
 * (target terrain + 3), blocked if an intermediate cell's terrain + blocker >=
 * the ray height. Heights are in 1/8 tile; terrain = MapData.height8; blockers
 * are trees/rocks (24, static) and living towers/barracks (28) and gods (32) on
 * their footprint tiles (a god on its centre tile).
 *
 * Sources: heroes r 10 eye 14; lane creeps r 5 eye 12; buildings their own
 * sight and eye (MapBuilding). Neutrals give no vision.
 *
 * Speed: line of sight from every walkable tile is precomputed once per source
 * kind (shared, immutable) twice: with every building standing and with none.
 * Where the two agree nothing is traced at run time; where they differ the
 * buildings on the ray decide (all standing: hidden, all fallen: visible) and
 * only a ray with both is traced against the buildings alive now. A team grid
 * is updated only when one of its source tiles or a building's life changed,
 * and then only in the rows under the windows of the sources that changed
 * (all of it when a building's life changed).
 */
#ifndef GOTA_VISION_H
#define GOTA_VISION_H
#include <stddef.h>
#include <stdint.h>
#include "map.h"

#define VISION_WORDS 2                 /* 116 bits of a row in two uint64 */
#define VISION_MAX_SOURCES 640
#define VISION_KEPT_SOURCES 256         /* sources a team's grid remembers to update by difference */
#define VISION_MAX_RADIUS 15            /* sight radii are clamped to this (window rows fit 32 bits) */

enum { VISION_HERO = 0, VISION_CREEP = 1, VISION_KINDS = 2 };

typedef struct {
    int16_t tile;                      /* source tile index */
    int16_t kind;                      /* VISION_HERO / VISION_CREEP */
} VisionSource;

/* A unit source as a 16-bit key (vision_update_keys). */
static inline uint16_t vision_key(int tile, int kind)
{
    return (uint16_t)(tile * VISION_KINDS + kind);
}

/* Immutable line-of-sight tables of one map (opaque). */
typedef struct VisionTables VisionTables;

/* Tables of the shared map_get() map: built on first use (thread-safe). */
const VisionTables *vision_tables_get(void);
/* Tables of any map (tests build small maps); free with vision_tables_free. */
VisionTables *vision_tables_build(const MapData *map);
void vision_tables_free(VisionTables *t);
/* Heap bytes held by the tables (struct plus per-tile windows); 0 for NULL. */
size_t vision_tables_bytes(const VisionTables *t);

/* The grid words holding the tiles that show one building standing at its
 * map spot (those under its centre, as vision_sees_point, and its
 * footprint): each word's index in a team grid (row * VISION_WORDS + word)
 * and its bits, at most one word per tile; one AND per word. */
#define VISION_SHOW_WORDS (MAP_MAX_FOOTPRINT + 4)   /* a word per tile: footprint plus up to 4 under a centre */
typedef struct {
    int32_t n;
    uint16_t word[VISION_SHOW_WORDS];
    uint64_t mask[VISION_SHOW_WORDS];
} VisionShow;

typedef struct {
    const VisionTables *tables;
    /* the tables' per-building show words, for the inline
     * vision_sees_building (set by vision_init; NULL and 0 without tables) */
    const VisionShow *show;
    int32_t building_n;
    uint64_t grid[2][MAP_N][VISION_WORDS];   /* per team, bit tx of row tz */
    /* per team, the sight of its living buildings alone (it changes only when
     * a building dies): rebuilt when balive or btables differ */
    uint64_t bgrid[2][MAP_N][VISION_WORDS];
    uint64_t balive[2];
    const VisionTables *btables[2];           /* NULL: not built */
    /* per team, the unit sources of the grid (vision_key, in the caller's
     * order); src_n -1: not kept, the next update ORs all */
    uint16_t src_key[2][VISION_KEPT_SOURCES];
    int32_t src_n[2];
} Vision;

/* Reset: no tile visible, caches invalid. */
void vision_init(Vision *v, const VisionTables *tables);
/* Bring `team`'s grid to its unit sources plus its living buildings
 * (building_alive[i] for MapData.building[i], all teams, since every living
 * building blocks sight). Redoes only the rows under sources that came or
 * went since the last update (none when nothing changed). */
void vision_update(Vision *v, int team, const VisionSource *src, int n,
                   const uint8_t *building_alive);
/* The same with the sources as keys, each of a tile on the map and a kind
 * (the tick's sources come so from the unit pass: no second pass over them
 * to check and convert). */
void vision_update_keys(Vision *v, int team, const uint16_t *key, int n,
                        const uint8_t *building_alive);
static inline int vision_tile(const Vision *v, int team, int tx, int tz)
{
    return (int)((v->grid[team][tz][tx >> 6] >> (tx & 63)) & 1u);
}
/* vision_sees_point for both teams (bit 0 red, bit 1 blue), any point. */
unsigned vision_point_teams_slow(const Vision *v, int32_t x, int32_t z);
/* The tile (*tx, *tz) of a point strictly inside one tile of the map; 0 for
 * a point on a tile edge or off the map. Inline for the fast paths below (a
 * unit's seen flags are asked of every unit every tick). */
static inline int vision_inner_tile(int32_t x, int32_t z, int *tx, int *tz)
{
    /* wraps off-map points (either side) to X >= MAP_N * GOTA_TILE */
    uint32_t X = (uint32_t)x + (uint32_t)MAP_HALF_WORLD, Z = (uint32_t)z + (uint32_t)MAP_HALF_WORLD;
    uint32_t qx = X / GOTA_TILE, qz = Z / GOTA_TILE;
    *tx = (int)qx;
    *tz = (int)qz;
    return qx < MAP_N && qz < MAP_N && X % GOTA_TILE != 0 && Z % GOTA_TILE != 0;
}
/* A unit at world (x, z) is seen when its tile is visible; a unit exactly on a
 * tile edge counts as standing on both adjacent tiles. */
static inline int vision_sees_point(const Vision *v, int team, int32_t x, int32_t z)
{
    int tx, tz;
    if ((unsigned)team >= 2u)
        return 0;
    if (vision_inner_tile(x, z, &tx, &tz))
        return vision_tile(v, team, tx, tz);
    return (int)(vision_point_teams_slow(v, x, z) >> team & 1u);
}
/* vision_sees_point for both teams: bit 0 red, bit 1 blue. */
static inline unsigned vision_point_teams(const Vision *v, int32_t x, int32_t z)
{
    int tx, tz;
    if (vision_inner_tile(x, z, &tx, &tz))
        return (unsigned)vision_tile(v, 0, tx, tz) | (unsigned)vision_tile(v, 1, tx, tz) << 1;
    return vision_point_teams_slow(v, x, z);
}
/* Whether `team` sees MapData.building[b] standing at its map spot: any tile
 * under its centre (as vision_sees_point) or of its footprint visible, tested
 * a grid word at a time against the tables' show masks. Inline: the seen
 * flags ask it of every building every tick. */
static inline int vision_sees_building(const Vision *v, int team, int b)
{
    if ((unsigned)team >= 2u || (unsigned)b >= (unsigned)v->building_n)
        return 0;
    const uint64_t *g = (const uint64_t *)v->grid[team];   /* row-major words */
    const VisionShow *s = &v->show[b];
    uint64_t any = 0;
    for (int k = 0; k < s->n; k++)   /* a few words: no early exit */
        any |= g[s->word[k]] & s->mask[k];
    return any != 0;
}

#endif
