/*
 * nav.h -- per-match navigation: live occupancy, A* with string-pulling, a
 * path cache and steering (docs/rules.md section 6); body collision, whose
 * pair lists a Nav keeps, is in collide.h.
 *
 * Grid A* over tiles with 4-neighbour links taken from MapData.edges (cliffs
 * are missing links, ramps are present). Step cost 32 + |height change| in
 * path units (1/32 tile; a level is 32 path units); heuristic Manhattan * 32 +
 * |height difference|; ties broken by discovery order. The tile path is then
 * string-pulled: from the current point, jump to the farthest path tile that a
 * straight line reaches without crossing a blocked tile or a missing link.
 *
 * Walkable = MapData.walkable AND no living building footprint on the tile.
 * nav_set_footprint() adds or removes a footprint and bumps `revision`, which
 * invalidates every cached path (cache key: start tile, goal tile, revision)
 * except those whose computation read no tile of that footprint: they are
 * carried to the new revision unchanged (the same reads give the same path).
 *
 * Steering: a body turns toward its next waypoint at up to NAV_TURN_RATE
 * binary-angle units per tick (0.35 rad) and steps, at most `speed` world
 * units and never past the waypoint, only on a tick where it ends fully facing
 * it; a blocked step slides along the blocking tile edge.
 *
 * Everything is integer arithmetic. A Nav belongs to exactly one match.
 */
#ifndef GOTA_NAV_H
#define GOTA_NAV_H
#include <stdint.h>
#include "map.h"
#include "fixmath.h"
#include "collide.h"

#define NAV_TURN_RATE 3651          /* 0.35 rad in binary angle units (65,536 per turn) */
#define NAV_REACH 20000             /* a waypoint is reached within 1/3 tile */
#define NAV_MAX_PATH 24             /* string-pulled waypoints kept per path */
#define NAV_CACHE_SIZE 256          /* cached paths per match */
#define NAV_GOAL_SEARCH 8           /* a blocked goal moves to the nearest open tile within +-8 */
#define NAV_BUCKETS 1024            /* A* open-list buckets (f values in use span far fewer) */

typedef struct {
    int32_t n;                      /* waypoints, 0 = unreachable */
    int32_t x[NAV_MAX_PATH], z[NAV_MAX_PATH];
} NavPath;

typedef struct {
    int32_t start, goal, revision;  /* key; start = -1 for an empty entry */
    uint32_t last_use;
    int32_t complete;               /* path ends at the goal (not cut at NAV_MAX_PATH) */
    int16_t x0, z0, x1, z1;         /* tile box holding every tile whose occupancy the path's computation read */
    NavPath path;                   /* canonical path: pulled from the start tile centre */
} NavCacheEntry;

/* A* scratch, reused across searches (the stamp avoids clearing); about
 * 320 KiB, so lanes share one per thread instead of carrying one each. */
typedef struct {
    uint32_t stamp;                 /* even; a search's tiles are marked stamp (open) or stamp + 1 (closed) */
    uint32_t mark[MAP_TILES];       /* below stamp: not seen in this search */
    int32_t g[MAP_TILES];
    int16_t parent[MAP_TILES];
    int32_t path[MAP_TILES];        /* after a search: the tile path, start first */
    int32_t hx[MAP_N], hz[MAP_N];   /* a search's heuristic parts: 32 * columns, rows from the goal */
    /* open list: a bucket per f (mod NAV_BUCKETS), each a singly linked list
     * in key order; key = f << 16 | discovery order (the tie-break) */
    uint64_t key[MAP_TILES];
    int16_t next[MAP_TILES];        /* -1 ends a list */
    int16_t head[NAV_BUCKETS];      /* first tile + 1, 0 = empty (all empty between searches) */
    int16_t tail[NAV_BUCKETS];      /* last tile (valid while the bucket is not empty) */
} NavSearch;

/* Tagged: collide.h names it (struct Nav) before this header defines it. */
typedef struct Nav {
    uint8_t occupied[MAP_TILES];    /* living building footprints covering the tile */
    int32_t revision;
    uint32_t clock;                 /* cache use counter */
    NavCacheEntry cache[NAV_CACHE_SIZE];
    /* A* scratch: not state. A batch lends each lane its worker thread's
     * scratch for the duration of a job (nav_lend_search); otherwise the
     * match allocates its own on its first search (freed by nav_release). */
    NavSearch *search;
    NavSearch *own_search;
    NavPairs pairs;                 /* collision pairs of the last nav_collide (collide.h) */
    NavPairs pairs_reversed;        /* those of the last nav_collide_reversed */
} Nav;

/* The direction a body last snapped its facing to, kept so that nav_steer
 * can skip the atan2 while the direction to its waypoint barely turns: when
 * the new direction is less than 0.2497 rad from the kept one, the rule is
 * known to snap (CORDIC is good to 1 unit: 2,604 + 2 < NAV_TURN_RATE), so
 * the facing becomes fx_atan2 of the new direction, computed only when read.
 * known: the facing equals fx_atan2(dz, dx); lazy: and the int32 facing
 * stored with it is stale (nav_facing_of reads it, nav_facing_settle writes
 * it back). All zero: nothing kept. */
typedef struct {
    int32_t dx, dz;
    uint8_t known, lazy;
} NavFacing;

/* Reset to the static map with no footprints, revision 0, empty cache. */
void nav_init(Nav *nav);
/* Free the match's own search scratch (if it made one). */
void nav_release(Nav *nav);
/* Search with `search` (a thread's scratch) until the next call; NULL: the
 * match's own, allocated on first use. Results never depend on which. */
void nav_lend_search(Nav *nav, NavSearch *search);
/* Add (alive = 1) or remove (alive = 0) a building's footprint; bumps revision. */
void nav_set_footprint(Nav *nav, const MapBuilding *b, int alive);
/* Tile open to walking right now. */
static inline int nav_open(const Nav *nav, const MapData *map, int tile)
{
    return map->walkable[tile] && !nav->occupied[tile];
}
/* 1 if a straight segment crosses only open tiles through present links. */
int nav_line_clear(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1);
/* nav_line_clear between the centres of tiles a and b (both on the map):
 * string pulling's question, without the world-unit set-up. */
int nav_centres_clear(const Nav *nav, const MapData *map, int a, int b);
/* Path from (sx,sz) to (gx,gz); the last waypoint is the goal point (or the
 * centre of the open tile chosen for a blocked goal). Uses the cache.
 * Returns out->n (0 when no path exists). */
int nav_find_path(Nav *nav, const MapData *map, int32_t sx, int32_t sz, int32_t gx, int32_t gz,
                  NavPath *out);
/* The A* tile path from tile start to tile goal (open), start first, into
 * tiles[] (room for MAP_TILES); returns its length, 0 when unreachable. The
 * search nav_find_path runs on a cache miss; exposed for the tests. */
int nav_search_tiles(Nav *nav, const MapData *map, int start, int goal, int32_t *tiles);
/* nav_line_clear without asking the first tile to be open: a body standing
 * on a blocked tile (pushed onto a footprint) may step off it. */
int nav_step_clear(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1);
/* A body may move from (x0,z0) to (x1,z1) in one straight step (steering,
 * collision). Inline: collision asks it for nearly every push. */
static inline int nav_move_ok(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    if (!map_world_inside(x1, z1)) return 0;
    /* most steps stay on one tile: the walk crosses nothing then and only
     * asks that the start lie on the map (an off-map start wraps past W here) */
    const uint32_t W = (uint32_t)MAP_N * GOTA_TILE;
    uint32_t X0 = (uint32_t)((int64_t)x0 + MAP_HALF_WORLD), Z0 = (uint32_t)((int64_t)z0 + MAP_HALF_WORLD);
    uint32_t X1 = (uint32_t)(x1 + MAP_HALF_WORLD), Z1 = (uint32_t)(z1 + MAP_HALF_WORLD);
    if (X0 < W && Z0 < W && X0 / GOTA_TILE == X1 / GOTA_TILE && Z0 / GOTA_TILE == Z1 / GOTA_TILE) return 1;
    return nav_step_clear(nav, map, x0, z0, x1, z1);
}
/* Turn toward (tx,tz) and step if facing it. Updates x, z and the facing
 * (*facing, or *face: see NavFacing). Returns 1 when the body is within
 * NAV_REACH of (tx,tz) after the tick. */
int nav_steer(const Nav *nav, const MapData *map, int32_t *x, int32_t *z, int32_t *facing, NavFacing *face,
              int32_t tx, int32_t tz, int32_t speed);
/* The facing a (facing, face) pair stands for, and writing it back. */
static inline int32_t nav_facing_of(int32_t facing, const NavFacing *face)
{
    return face->lazy ? fx_atan2(face->dz, face->dx) : facing;
}
static inline void nav_facing_settle(int32_t *facing, NavFacing *face)
{
    if (face->lazy) { *facing = fx_atan2(face->dz, face->dx); face->lazy = 0; }
}

#endif
