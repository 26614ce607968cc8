/*
 * nav.c -- per-match navigation (docs/rules.md section 6): live building occupancy,
 * exact segment-versus-grid tests, tile A* with string-pulling and a path
 * cache, integer steering. Body collision is in collide.c.
 *
 * Units. Positions are int32 world units (60,000 per tile, origin at the map
 * centre). A* costs are path units (1/32 tile): a step costs 32 + |height
 * change| where a tile's height in path units is MapData.height8 * 4 (a level
 * = 8 eighths = 32 path units). Angles are binary angles (65,536 per turn).
 *
 * Tiles are half-open squares [tx*T, (tx+1)*T) in map-corner coordinates, so a
 * point belongs to exactly the tile map_tile_of() names.
 *
 * nav_line_clear walks every tile the segment passes through (exact integer
 * crossing order by cross-multiplication, no rounding). Each tile must be open
 * (static walkable and no footprint) and every step between 4-neighbours must
 * use a present link (MapData.edges). When the segment passes exactly through
 * a tile corner, both L-shaped detours (both side tiles and all four links)
 * must be valid. A segment with an end outside the map tiles is not clear.
 * String pulling asks it between tile centres only: nav_centres_clear takes
 * the same walk from tile indices, its crossing parameters scaled down to
 * small integers in the same order (no world-unit set-up). Such a walk fails
 * exactly when its segment touches the closed square of a tile that is not
 * open or the side between two tiles whose link is missing, so the pulling
 * keeps the last failure's square or side and fails without a walk any later
 * line that touches it (an exact segment-versus-box test in half tiles).
 *
 * nav_find_path. Cache design (transparent by construction):
 *   - First, if nav_line_clear(start point, goal point) the result is [goal].
 *   - Otherwise a CANONICAL path is computed for the key (start tile, goal
 *     tile, revision): A* from the start tile to the goal tile (or the open
 *     tile chosen for a blocked goal), string-pulled from the start TILE
 *     CENTRE to the goal TILE CENTRE, at most NAV_MAX_PATH waypoints. It is a
 *     pure function of the key and of the occupancy at that revision, so it is
 *     cached in the NAV_CACHE_SIZE table and a hit is bit-identical to a fresh
 *     computation. More exactly it is a function of the occupancy of the
 *     tiles it reads, all inside a box kept with the entry (the expanded
 *     tiles and the goal, grown by one): a footprint change that touches no
 *     tile of the box carries the entry to the new revision.
 *   - The returned path is then derived from the canonical one and the exact
 *     points, again with no dependence on cache history: the canonical goal
 *     centre is replaced by the exact goal point (when the goal tile is open
 *     and the canonical path is complete); the first waypoint is re-pulled from
 *     the exact start point (the farthest canonical waypoint it sees clearly;
 *     if it sees none, the start tile centre is visited first, or, from a
 *     blocked start tile, the canonical path is followed as is); if the last
 *     leg to the exact goal is not clear, the goal tile centre is put before it.
 *   So a cold and a warm cache always give identical paths; the cache only
 *   saves the A* and the string pulling.
 *   Start and goal points are first clamped into the map's rim margin.
 *   A blocked start tile may be left (its neighbours must be open); a blocked
 *   goal tile is replaced by the nearest open tile within +-NAV_GOAL_SEARCH
 *   (squared tile distance, then map_tie_key: the tile index, mirrored on
 *   blue's half of the map, so a goal and its mirror image resolve to
 *   mirrored tiles). A* ties are broken by discovery
 *   order (first discovery; a node keeps its order when its cost improves).
 *   Neighbours are expanded in the order +x, -x, +z, -z. The open list is a
 *   bucket queue: a bucket per f value, each a list in discovery order, so
 *   taking the best tile is reading the head of the lowest non-empty bucket;
 *   seen/closed use a per-search stamp (no clearing).
 *
 * nav_steer turns by at most NAV_TURN_RATE per tick and steps only on a tick
 * where it ends exactly facing the target; the step keeps the exact (dx, dz)
 * direction, is at most `speed` and never passes the target. A blocked step
 * slides: x-only component, else z-only component, else no move. A blocked
 * step means: leaves the rim margin, or the straight move enters a non-open
 * tile or crosses a missing link (the tile the body stands on may itself be
 * blocked, so a body pushed onto a footprint can walk off it).
 * The atan2 is skipped while the direction to the waypoint stays within
 * 0.2497 rad of the one the body last snapped to (NavFacing in nav.h): the
 * rule snaps then for sure, and the facing is computed when read.
 *
 * Ownership: a Nav belongs to one match and is only touched by that match's
 * thread. MapData is shared and read-only. No global mutable state, no
 * allocation, integer arithmetic only.
 */
#include "nav.h"
#include <stdlib.h>
#include <string.h>
#include "fixmath.h"

#define NAV_PROBE 8                 /* cache slots probed per key */

_Static_assert(MAP_TILES < 32767, "parent/next/prev are int16");
_Static_assert((NAV_CACHE_SIZE & (NAV_CACHE_SIZE - 1)) == 0, "cache size is a power of two");

/* ---- occupancy ----------------------------------------------------------- */

void nav_init(Nav *nav)
{
    memset(nav, 0, sizeof *nav);
    for (int i = 0; i < NAV_CACHE_SIZE; i++) nav->cache[i].start = -1;
    nav->pairs.np = -1;
    nav->pairs_reversed.np = -1;
}

void nav_release(Nav *nav)
{
    free(nav->own_search);
    nav->own_search = nav->search = NULL;
}

void nav_lend_search(Nav *nav, NavSearch *search)
{
    nav->search = search ? search : nav->own_search;
}

void nav_set_footprint(Nav *nav, const MapBuilding *b, int alive)
{
    int n = b->footprint_n;
    if (n > MAP_MAX_FOOTPRINT) n = MAP_MAX_FOOTPRINT;
    for (int i = 0; i < n; i++) {
        int t = b->footprint[i];
        if (t < 0 || t >= MAP_TILES) continue;
        if (alive) {
            if (nav->occupied[t] < 255) nav->occupied[t]++;
        } else if (nav->occupied[t] > 0) {
            nav->occupied[t]--;
        }
    }
    /* A cached path whose computation read no tile of this footprint would
     * be computed again exactly as it is (a pure function of the tiles it
     * read): carry it to the new revision. The others go stale. */
    for (int k = 0; k < NAV_CACHE_SIZE; k++) {
        NavCacheEntry *e = &nav->cache[k];
        if (e->start < 0 || e->revision != nav->revision) continue;
        int touched = 0;
        for (int i = 0; i < n && !touched; i++) {
            int t = b->footprint[i];
            if (t < 0 || t >= MAP_TILES) continue;
            int tx = t % MAP_N, tz = t / MAP_N;
            touched = tx >= e->x0 && tx <= e->x1 && tz >= e->z0 && tz <= e->z1;
        }
        if (!touched) e->revision = nav->revision + 1;
    }
    nav->revision++;
}

/* ---- segment walk -------------------------------------------------------- */

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* The steps of a segment walk from tile t: nx, nz tile crossings along x
 * and z in directions sx, sz (+-1); ax, az: the first crossing parameters
 * along x and z, each scaled by the same positive factor, growing by dax,
 * daz per crossing (only their order matters). 1 if every tile entered is
 * open and every step uses a link. Every tile and link visited lies between
 * the two end tiles, so it needs no bounds checks. On failure *block (when
 * not NULL) names what failed: tile * 4 + 0 (a tile not open), + 1 (its
 * missing link to +x), + 2 (its missing link to +z). */
__attribute__((always_inline))
static inline int walk_steps(const Nav *nav, const MapData *map, int t, int nx, int nz, int sx, int sz,
                             int64_t ax, int64_t az, int64_t dax, int64_t daz, int *block)
{
    const uint8_t *walkable = map->walkable, *occupied = nav->occupied, *edges = map->edges;
    int oz = sz * MAP_N;                        /* index step along z */
    int lx = sx > 0 ? 0 : -1, lz = sz > 0 ? 0 : -MAP_N;   /* the tile holding the crossed link's flag */
#define OPEN_AT(i) (walkable[i] && !occupied[i])
#define FAIL(what) do { if (block) *block = (what); return 0; } while (0)
#define STEP_X(u) do { if (!(edges[(u) + lx] & MAP_EDGE_E)) FAIL(((u) + lx) * 4 + 1); \
                       if (!OPEN_AT((u) + sx)) FAIL(((u) + sx) * 4); } while (0)
#define STEP_Z(u) do { if (!(edges[(u) + lz] & MAP_EDGE_S)) FAIL(((u) + lz) * 4 + 2); \
                       if (!OPEN_AT((u) + oz)) FAIL(((u) + oz) * 4); } while (0)
    /* while both axes have crossings left, the nearer crossing goes first */
    while (nx > 0 && nz > 0) {
        if (ax < az) {
            STEP_X(t);
            t += sx; nx--; ax += dax;
        } else if (ax > az) {
            STEP_Z(t);
            t += oz; nz--; az += daz;
        } else {
            /* exact corner: both L-shaped detours must be valid */
            STEP_X(t); STEP_Z(t + sx); STEP_Z(t); STEP_X(t + oz);
            t += sx + oz; nx--; nz--; ax += dax; az += daz;
        }
    }
    /* the rest lies in one row or column (so do most body steps): no
     * crossings to order */
    for (; nx > 0; nx--, t += sx) STEP_X(t);
    for (; nz > 0; nz--, t += oz) STEP_Z(t);
#undef STEP_Z
#undef STEP_X
#undef FAIL
#undef OPEN_AT
    return 1;
}

/* Walk the tiles of segment (x0,z0)-(x1,z1); 1 if every tile after the first
 * is open and every step uses a link. need_start: the first tile must be
 * open too. Both ends must lie on map tiles. The crossing parameters
 * t = |b - p0| / |d| are compared as |b - p0| * |d'|; they grow by T * |d'|
 * per crossing (the same values as multiplying afresh). */
static int walk(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1,
                int need_start)
{
    const int64_t T = GOTA_TILE, W = (int64_t)MAP_N * GOTA_TILE;
    int64_t X0 = (int64_t)x0 + MAP_HALF_WORLD, Z0 = (int64_t)z0 + MAP_HALF_WORLD;
    int64_t X1 = (int64_t)x1 + MAP_HALF_WORLD, Z1 = (int64_t)z1 + MAP_HALF_WORLD;
    if (X0 < 0 || Z0 < 0 || X1 < 0 || Z1 < 0 || X0 >= W || Z0 >= W || X1 >= W || Z1 >= W) return 0;
    /* all four are in [0, W), W < 2^32: 32-bit divisions */
    int tx = (int)((uint32_t)X0 / GOTA_TILE), tz = (int)((uint32_t)Z0 / GOTA_TILE);
    int ex = (int)((uint32_t)X1 / GOTA_TILE), ez = (int)((uint32_t)Z1 / GOTA_TILE);
    int t = map_index(tx, tz);
    if (need_start && !nav_open(nav, map, t)) return 0;
    int64_t dx = X1 - X0, dz = Z1 - Z0;
    int64_t adx = abs64(dx), adz = abs64(dz);
    int sx = dx > 0 ? 1 : -1, sz = dz > 0 ? 1 : -1;
    int nx = ex > tx ? ex - tx : tx - ex;
    int nz = ez > tz ? ez - tz : tz - ez;
    int64_t ax = 0, az = 0;     /* one row or column: no crossings to order */
    if (nx > 0 && nz > 0) {
        ax = (sx > 0 ? (int64_t)(tx + 1) * T - X0 : X0 - (int64_t)tx * T) * adz;
        az = (sz > 0 ? (int64_t)(tz + 1) * T - Z0 : Z0 - (int64_t)tz * T) * adx;
    }
    return walk_steps(nav, map, t, nx, nz, sx, sz, ax, az, T * adz, T * adx, NULL);
}

/* walk() between the centres of tiles a and b: with (nx, nz) whole tiles to
 * cross, its crossing parameters (T / 2) * T * nz and (T / 2) * T * nx,
 * growing by T * T * nz and T * T * nx, are in the same order as nz and nx
 * growing by 2 nz and 2 nx; the 64-bit set-up goes. *block as walk_steps. */
__attribute__((always_inline))
static inline int centres_clear(const Nav *nav, const MapData *map, int a, int b, int *block)
{
    if (!nav_open(nav, map, a)) { *block = a * 4; return 0; }
    int tz = a / MAP_N, tx = a - tz * MAP_N, ez = b / MAP_N, ex = b - ez * MAP_N;
    int nx = ex > tx ? ex - tx : tx - ex;
    int nz = ez > tz ? ez - tz : tz - ez;
    return walk_steps(nav, map, a, nx, nz, ex > tx ? 1 : -1, ez > tz ? 1 : -1, nz, nx, 2 * nz, 2 * nx, block);
}

int nav_centres_clear(const Nav *nav, const MapData *map, int a, int b)
{
    int block;
    return centres_clear(nav, map, a, b, &block);
}

/* What made a centre-to-centre walk fail, as a closed box in half tiles
 * (tile i spans [2i, 2i + 2], its centre is 2i + 1): the tile's square, or
 * the side it shares with the neighbour a missing link leads to. Such a
 * walk visits every tile whose closed square its segment touches (through a
 * tile corner it visits all four) and crosses every side it touches (through
 * a corner, all four links there are checked), so any other such segment
 * that touches the box fails too. */
typedef struct { int x0, z0, x1, z1; } HalfBox;

static HalfBox block_box(int block)
{
    int t = block >> 2, tz = t / MAP_N, tx = t - tz * MAP_N;
    HalfBox h = { 2 * tx, 2 * tz, 2 * tx + 2, 2 * tz + 2 };
    if ((block & 3) == 1) h.x0 = h.x1;          /* the side toward +x */
    else if ((block & 3) == 2) h.z0 = h.z1;     /* the side toward +z */
    return h;
}

/* the segment between the centres of tiles a and b touches box h: the
 * boxes overlap and h's corners are not all strictly on one side of the
 * segment's line (separating axes; exact in small integers) */
static int segment_touches(int a, int b, const HalfBox *h)
{
    int az = a / MAP_N, ax = a - az * MAP_N, bz = b / MAP_N, bx = b - bz * MAP_N;
    int x0 = 2 * ax + 1, z0 = 2 * az + 1, x1 = 2 * bx + 1, z1 = 2 * bz + 1;
    if ((x0 < h->x0 && x1 < h->x0) || (x0 > h->x1 && x1 > h->x1)) return 0;
    if ((z0 < h->z0 && z1 < h->z0) || (z0 > h->z1 && z1 > h->z1)) return 0;
    int dx = x1 - x0, dz = z1 - z0;
    int c0 = dx * (h->z0 - z0) - dz * (h->x0 - x0), c1 = dx * (h->z0 - z0) - dz * (h->x1 - x0);
    int c2 = dx * (h->z1 - z0) - dz * (h->x0 - x0), c3 = dx * (h->z1 - z0) - dz * (h->x1 - x0);
    return !((c0 > 0 && c1 > 0 && c2 > 0 && c3 > 0) || (c0 < 0 && c1 < 0 && c2 < 0 && c3 < 0));
}

int nav_line_clear(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    return walk(nav, map, x0, z0, x1, z1, 1);
}

int nav_step_clear(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    return walk(nav, map, x0, z0, x1, z1, 0);
}

/* ---- A* ------------------------------------------------------------------ */

static int32_t tile_h(const MapData *map, int t) { return (int32_t)map->height8[t] * 4; }

static int32_t heur(const MapData *map, int t, int goal)
{
    int dx = t % MAP_N - goal % MAP_N, dz = t / MAP_N - goal / MAP_N;
    int32_t dh = tile_h(map, t) - tile_h(map, goal);
    return 32 * ((dx < 0 ? -dx : dx) + (dz < 0 ? -dz : dz)) + (dh < 0 ? -dh : dh);
}

_Static_assert(MAP_TILES <= 65536, "discovery order fits the key's low 16 bits");
_Static_assert((NAV_BUCKETS & (NAV_BUCKETS - 1)) == 0, "bucket count is a power of two");

/* Link t (its key set) into its bucket at its place in key order: the
 * general insertion, a walk from the bucket's head. */
static void open_insert_sorted(NavSearch *s, int t)
{
    uint64_t k = s->key[t];
    int b = (int)(k >> 16) & (NAV_BUCKETS - 1);
    int p = -1, q = s->head[b] - 1;
    while (q >= 0 && s->key[q] < k) { p = q; q = s->next[q]; }
    s->next[t] = (int16_t)q;
    if (p >= 0) s->next[p] = (int16_t)t; else s->head[b] = (int16_t)(t + 1);
    if (q < 0) s->tail[b] = (int16_t)t;
}

/* Open tile t's g improves to ng through tile `from`: unlink it (a walk from
 * its bucket's head to its predecessor), lower its key by the gain and link
 * it again. It keeps its discovery order. Rare: not worth a back link per
 * tile. */
static void open_improve(NavSearch *s, int t, int from, int32_t ng)
{
    int b = (int)(s->key[t] >> 16) & (NAV_BUCKETS - 1);
    int p = -1, q = s->head[b] - 1;
    while (q != t) { p = q; q = s->next[q]; }
    if (p >= 0) s->next[p] = s->next[t]; else s->head[b] = (int16_t)(s->next[t] + 1);
    if (s->tail[b] == t) s->tail[b] = (int16_t)p;
    s->key[t] -= (uint64_t)(s->g[t] - ng) << 16;
    s->g[t] = ng;
    s->parent[t] = (int16_t)from;
    open_insert_sorted(s, t);
}

/* one search's constants and counters */
typedef struct {
    NavSearch *s;
    const Nav *occ;
    const MapData *map;
    uint32_t open_mark;
    uint32_t order;
    int32_t gh;                     /* the goal's height in eighths */
    int32_t fmax;                   /* largest f opened: the open list is empty once the scan passes it */
} AStar;

/* tile box, inclusive */
typedef struct { int x0, z0, x1, z1; } TileBox;

/* Offer neighbour nb of the expanded tile t (g gt, height ht in eighths): a
 * new tile opens with the next discovery order, an open one keeps its order
 * when its g improves. A blocked tile is marked closed on first sight (it
 * never opens), so later offers of it stop at the mark. (mx, mz): nb's column
 * and row, for the heuristic's tables. A new tile has the largest key of its
 * f, so it goes last in its bucket unless the bucket also holds a larger f
 * (one NAV_BUCKETS higher). */
/* always inlined: called out of line it costs about half the search again */
__attribute__((always_inline))
static inline void relax(AStar *a, int t, int32_t gt, int32_t ht, int nb, int mx, int mz)
{
    NavSearch *s = a->s;
    uint32_t mk = s->mark[nb];
    if (mk == a->open_mark + 1) return;
    int32_t hn = a->map->height8[nb];
    int32_t dh = hn - ht;
    int32_t ng = gt + 32 + 4 * (dh < 0 ? -dh : dh);
    if (mk == a->open_mark) {
        if (ng < s->g[nb]) open_improve(s, nb, t, ng);
        return;
    }
    if (!nav_open(a->occ, a->map, nb)) {
        s->mark[nb] = a->open_mark + 1;
        return;
    }
    int32_t dg = hn - a->gh;
    int32_t f = ng + s->hx[mx] + s->hz[mz] + 4 * (dg < 0 ? -dg : dg);
    uint64_t k = (uint64_t)f << 16 | a->order++;
    s->mark[nb] = a->open_mark;
    s->g[nb] = ng;
    s->parent[nb] = (int16_t)t;
    s->key[nb] = k;
    if (f > a->fmax) a->fmax = f;
    int b = f & (NAV_BUCKETS - 1);
    if (!s->head[b]) {
        s->head[b] = (int16_t)(nb + 1);
    } else {
        int last = s->tail[b];
        if (s->key[last] > k) { open_insert_sorted(s, nb); return; }
        s->next[last] = (int16_t)nb;
    }
    s->next[nb] = -1;
    s->tail[b] = (int16_t)nb;
}

/* A* from start to goal (goal open). On success the tile path start..goal is
 * written to nav->path[0..len-1] and len returned; 0 when unreachable.
 * Tiles are expanded in key order: f, then discovery order (unique). The
 * heuristic is consistent (a step changes it by at most the step's cost), so
 * no tile opens (or improves) below the f last expanded: the scan for the
 * next non-empty bucket only moves up, and once it passes the largest f
 * opened the open list is empty. A tile keeps its discovery order when its
 * g improves. *box gets the expanded tiles and the goal, grown by one: every
 * tile whose occupancy the search read (relax reads the neighbours). */
static int astar(const Nav *occ, NavSearch *nav, const MapData *map, int start, int goal, TileBox *box)
{
    nav->stamp += 2;
    if (nav->stamp < 2) {           /* wrapped: old marks could read as this search's */
        memset(nav->mark, 0, sizeof nav->mark);
        nav->stamp = 2;
    }
    const int gx = goal % MAP_N, gz = goal / MAP_N;
    for (int k = 0; k < MAP_N; k++) {
        nav->hx[k] = 32 * (k < gx ? gx - k : k - gx);
        nav->hz[k] = 32 * (k < gz ? gz - k : k - gz);
    }
    AStar a = { nav, occ, map, nav->stamp, 0, map->height8[goal], 0 };
    nav->mark[start] = a.open_mark;
    nav->g[start] = 0;
    nav->parent[start] = -1;
    int32_t f = heur(map, start, goal);
    nav->key[start] = (uint64_t)f << 16 | a.order++;
    a.fmax = f;
    nav->next[start] = -1;
    nav->head[f & (NAV_BUCKETS - 1)] = (int16_t)(start + 1);
    nav->tail[f & (NAV_BUCKETS - 1)] = (int16_t)start;
    int found = 0;
    uint32_t fcur = (uint32_t)f;
    int bx0 = gx, bz0 = gz, bx1 = gx, bz1 = gz;
    for (;;) {
        /* the lowest key: the head of the first bucket holding f = fcur */
        int b = (int)(fcur & (NAV_BUCKETS - 1));
        int h = nav->head[b];
        if (!h || (uint32_t)(nav->key[h - 1] >> 16) != fcur) {
            if (fcur >= (uint32_t)a.fmax) break;
            fcur++;
            continue;
        }
        int t = h - 1;
        nav->head[b] = (int16_t)(nav->next[t] + 1);
        if (t == goal) { found = 1; break; }
        nav->mark[t] = a.open_mark + 1;
        int tz = (int)((unsigned)t / MAP_N), tx = t - tz * MAP_N;
        if (tx < bx0) bx0 = tx;
        if (tx > bx1) bx1 = tx;
        if (tz < bz0) bz0 = tz;
        if (tz > bz1) bz1 = tz;
        int32_t gt = nav->g[t], ht = map->height8[t];
        uint8_t ed = map->edges[t];
        if ((ed & MAP_EDGE_E) && tx + 1 < MAP_N) relax(&a, t, gt, ht, t + 1, tx + 1, tz);
        if (tx > 0 && (map->edges[t - 1] & MAP_EDGE_E)) relax(&a, t, gt, ht, t - 1, tx - 1, tz);
        if ((ed & MAP_EDGE_S) && tz + 1 < MAP_N) relax(&a, t, gt, ht, t + MAP_N, tx, tz + 1);
        if (tz > 0 && (map->edges[t - MAP_N] & MAP_EDGE_S)) relax(&a, t, gt, ht, t - MAP_N, tx, tz - 1);
    }
    box->x0 = bx0 - 1; box->z0 = bz0 - 1; box->x1 = bx1 + 1; box->z1 = bz1 + 1;
    if (!found) return 0;           /* every bucket was emptied */
    /* empty the buckets still holding open tiles (all f from fcur to fmax) */
    for (int32_t k = (int32_t)fcur; k <= a.fmax && k < (int32_t)fcur + NAV_BUCKETS; k++)
        nav->head[k & (NAV_BUCKETS - 1)] = 0;
    int len = 0;
    for (int t = goal; t >= 0; t = nav->parent[t]) len++;
    int i = len;
    for (int t = goal; t >= 0; t = nav->parent[t]) nav->path[--i] = t;
    return len;
}

/* the scratch to search with: the lent one, else the match's own (made on first use) */
static NavSearch *search_of(Nav *nav)
{
    if (!nav->search) nav->search = nav->own_search = calloc(1, sizeof *nav->own_search);
    return nav->search;
}

int nav_search_tiles(Nav *nav, const MapData *map, int start, int goal, int32_t *tiles)
{
    NavSearch *search = search_of(nav);
    if (!search) return 0;
    TileBox box;
    int len = astar(nav, search, map, start, goal, &box);
    memcpy(tiles, search->path, (size_t)len * sizeof *tiles);
    return len;
}

/* nearest open tile to `goal` within +-NAV_GOAL_SEARCH, -1 if none; ties by
 * map_tie_key, so the mirror image of a goal gets the mirrored tile */
static int nearest_open(const Nav *nav, const MapData *map, int goal)
{
    int gx = goal % MAP_N, gz = goal / MAP_N, best = -1, best_d = 0, best_key = 0;
    for (int dz = -NAV_GOAL_SEARCH; dz <= NAV_GOAL_SEARCH; dz++) {
        for (int dx = -NAV_GOAL_SEARCH; dx <= NAV_GOAL_SEARCH; dx++) {
            int x = gx + dx, z = gz + dz;
            if (!map_in_bounds(x, z)) continue;
            int t = map_index(x, z);
            if (!nav_open(nav, map, t)) continue;
            int d = dx * dx + dz * dz, key = map_tie_key(goal, t);
            if (best < 0 || d < best_d || (d == best_d && key < best_key)) { best = t; best_d = d; best_key = key; }
        }
    }
    return best;
}

static int32_t cx_of(int t) { return map_tile_centre(t % MAP_N); }
static int32_t cz_of(int t) { return map_tile_centre(t / MAP_N); }

/* Canonical path for (start tile, goal tile) at the current occupancy: A*
 * then string-pulled from the start tile centre; all waypoints are tile
 * centres. Sets *complete when the last waypoint is the goal tile, and *box
 * to a tile box holding every tile whose occupancy it read: A* reads the
 * expanded tiles' neighbours, and each pulling segment runs between two
 * path tiles (expanded, or the goal), so its tiles lie in their box (a line
 * failed without a walk is failed by a tile or link an earlier walk read). */
static void canonical_path(Nav *nav, const MapData *map, int start, int goal, NavPath *out, int32_t *complete,
                           TileBox *box)
{
    out->n = 0;
    *complete = 0;
    box->x0 = box->z0 = 0;
    box->x1 = box->z1 = MAP_N - 1;
    NavSearch *search = search_of(nav);
    if (!search) return;   /* out of memory: unreachable this time, never a crash */
    int len = astar(nav, search, map, start, goal, box);
    if (len == 0) return;
    const int32_t *p = search->path;
    if (len == 1) {
        out->x[0] = cx_of(start); out->z[0] = cz_of(start); out->n = 1;
        *complete = 1;
        return;
    }
    /* the last walk's failure: a segment touching it fails without a walk */
    HalfBox last_block = { 1, 1, -1, -1 };      /* empty */
    int i = 0;
    while (i < len - 1 && out->n < NAV_MAX_PATH) {
        int j = len - 1;
        for (; j > i + 1; j--) {
            if (segment_touches(p[i], p[j], &last_block)) continue;
            int block;
            if (centres_clear(nav, map, p[i], p[j], &block)) break;
            last_block = block_box(block);
        }
        /* j == i + 1: a neighbour step, taken even from a blocked start */
        out->x[out->n] = cx_of(p[j]); out->z[out->n] = cz_of(p[j]); out->n++;
        i = j;
    }
    *complete = i == len - 1;
}

static uint32_t cache_hash(int start, int goal)
{
    uint32_t h = (uint32_t)start * 2654435761u ^ ((uint32_t)goal * 2246822519u);
    h ^= h >> 15;
    return h;
}

/* cached canonical path, computed on a miss */
static const NavCacheEntry *cache_get(Nav *nav, const MapData *map, int start, int goal)
{
    uint32_t h = cache_hash(start, goal);
    int victim = -1;
    for (int k = 0; k < NAV_PROBE; k++) {
        int slot = (int)((h + (uint32_t)k) & (NAV_CACHE_SIZE - 1));
        NavCacheEntry *e = &nav->cache[slot];
        if (e->start == start && e->goal == goal && e->revision == nav->revision) {
            e->last_use = ++nav->clock;
            return e;
        }
        if (victim < 0) { victim = slot; continue; }
        const NavCacheEntry *v = &nav->cache[victim];
        int e_free = e->start < 0 || e->revision != nav->revision;
        int v_free = v->start < 0 || v->revision != nav->revision;
        if (v_free) continue;
        if (e_free || e->last_use < v->last_use) victim = slot;
    }
    NavCacheEntry *e = &nav->cache[victim];
    e->start = start;
    e->goal = goal;
    e->revision = nav->revision;
    e->last_use = ++nav->clock;
    TileBox box;
    canonical_path(nav, map, start, goal, &e->path, &e->complete, &box);
    e->x0 = (int16_t)box.x0; e->z0 = (int16_t)box.z0;
    e->x1 = (int16_t)box.x1; e->z1 = (int16_t)box.z1;
    return e;
}

static int32_t clamp_inside(int32_t v)
{
    const int32_t lim = MAP_HALF_WORLD - 18000;
    return v < -lim ? -lim : v > lim ? lim : v;
}

int nav_find_path(Nav *nav, const MapData *map, int32_t sx, int32_t sz, int32_t gx, int32_t gz,
                  NavPath *out)
{
    out->n = 0;
    sx = clamp_inside(sx); sz = clamp_inside(sz);
    gx = clamp_inside(gx); gz = clamp_inside(gz);
    int start = map_index_of(sx, sz);
    int goal_raw = map_index_of(gx, gz);
    int goal = goal_raw;
    if (!nav_open(nav, map, goal)) {
        goal = nearest_open(nav, map, goal_raw);
        if (goal < 0) return 0;
        gx = cx_of(goal); gz = cz_of(goal);
    }
    /* shortcut: what string pulling from the start point gives anyway */
    if (nav_line_clear(nav, map, sx, sz, gx, gz)) {
        out->x[0] = gx; out->z[0] = gz; out->n = 1;
        return 1;
    }
    const NavCacheEntry *e = cache_get(nav, map, start, goal);
    const NavPath *c = &e->path;
    int n = c->n;
    if (n == 0) return 0;
    /* candidate waypoints: the canonical ones, exact goal last when complete */
    int32_t qx[NAV_MAX_PATH], qz[NAV_MAX_PATH];
    for (int i = 0; i < n; i++) { qx[i] = c->x[i]; qz[i] = c->z[i]; }
    int goal_swapped = 0;
    if (e->complete && (qx[n - 1] != gx || qz[n - 1] != gz)) {
        qx[n - 1] = gx; qz[n - 1] = gz;
        goal_swapped = 1;
    }
    /* re-pull the first waypoint from the exact start point (the full
     * candidate list's last entry was tested by the shortcut when complete) */
    int k = e->complete ? n - 2 : n - 1;
    for (; k >= 0; k--)
        if (nav_line_clear(nav, map, sx, sz, qx[k], qz[k])) break;
    int m = 0;
    if (k < 0) {
        k = 0;
        int32_t c0x = cx_of(start), c0z = cz_of(start);
        if (nav_open(nav, map, start) && (c0x != sx || c0z != sz)) {
            out->x[m] = c0x; out->z[m] = c0z; m++;
        }
    }
    for (int i = k; i < n && m < NAV_MAX_PATH; i++) { out->x[m] = qx[i]; out->z[m] = qz[i]; m++; }
    /* last leg into an exact goal point that the previous point cannot see */
    if (goal_swapped && m > 0 && out->x[m - 1] == gx && out->z[m - 1] == gz) {
        int32_t px = m > 1 ? out->x[m - 2] : sx, pz = m > 1 ? out->z[m - 2] : sz;
        if (!nav_line_clear(nav, map, px, pz, gx, gz)) {
            if (m < NAV_MAX_PATH) {
                out->x[m] = gx; out->z[m] = gz;
                out->x[m - 1] = cx_of(goal); out->z[m - 1] = cz_of(goal);
                m++;
            } else {
                out->x[m - 1] = cx_of(goal); out->z[m - 1] = cz_of(goal);
            }
        }
    }
    out->n = m;
    return m;
}

/* ---- steering ------------------------------------------------------------ */

/* Directions nav_steer keeps: components below 2^24 in size (a waypoint
 * and a body on the map are at most 6,960,000 units apart), so that the
 * products of close_directions fit 64 bits. */
static inline int dir_fits(int64_t dx, int64_t dz)
{
    const int64_t lim = (int64_t)1 << 24;
    return dx > -lim && dx < lim && dz > -lim && dz < lim;
}

/* the kept direction (ax, az) and the fitting (bx, bz) are less than 0.2497
 * rad (2,604 binary-angle units) apart: a positive dot product and |cross|
 * < 0.255 dot (tan 0.2497 rad) */
static inline int close_directions(int64_t ax, int64_t az, int64_t bx, int64_t bz)
{
    int64_t dot = ax * bx + az * bz, cross = ax * bz - az * bx;
    return dot > 0 && (cross < 0 ? -cross : cross) * 1000 < dot * 255;
}

int nav_steer(const Nav *nav, const MapData *map, int32_t *x, int32_t *z, int32_t *facing, NavFacing *face,
              int32_t tx, int32_t tz, int32_t speed)
{
    int64_t dx = (int64_t)tx - *x, dz = (int64_t)tz - *z;
    if (dx == 0 && dz == 0) {
        if (!face->lazy) *facing &= 0xFFFF;
    } else {
        int snap;
        int fits = dir_fits(dx, dz);
        if (face->known && fits && close_directions(face->dx, face->dz, dx, dz)) {
            snap = 1;                   /* the facing is fx_atan2(dz, dx): read when needed */
            face->lazy = 1;
        } else {
            int32_t f = nav_facing_of(*facing, face) & 0xFFFF;
            int32_t ang = fx_atan2(dz, dx);
            int32_t diff = fx_angle_diff(f, ang);
            snap = diff >= -NAV_TURN_RATE && diff <= NAV_TURN_RATE;
            if (snap) *facing = ang;
            else *facing = (diff > 0 ? f + NAV_TURN_RATE : f - NAV_TURN_RATE) & 0xFFFF;
            face->lazy = 0;
        }
        face->known = (uint8_t)(snap && fits);
        if (snap) {
            face->dx = (int32_t)(fits ? dx : 0);
            face->dz = (int32_t)(fits ? dz : 0);
            if (speed > 0) {
                int64_t dist = fx_isqrt64((uint64_t)(dx * dx + dz * dz));
                int32_t nx, nz;
                if (dist <= speed) { nx = tx; nz = tz; }
                else {
                    nx = (int32_t)(*x + dx * speed / dist);
                    nz = (int32_t)(*z + dz * speed / dist);
                }
                if (nav_move_ok(nav, map, *x, *z, nx, nz)) { *x = nx; *z = nz; }
                else if (nx != *x && nav_move_ok(nav, map, *x, *z, nx, *z)) { *x = nx; }
                else if (nz != *z && nav_move_ok(nav, map, *x, *z, *x, nz)) { *z = nz; }
            }
        }
    }
    return fx_dist2(*x, *z, tx, tz) <= (int64_t)NAV_REACH * NAV_REACH;
}
