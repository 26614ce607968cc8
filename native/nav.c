/*
 * nav.c -- per-match navigation (docs/rules.md section 6): live building occupancy,
 * exact segment-versus-grid tests, tile A* with string-pulling and a path
 * cache, integer steering and body collision.
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
 * nav_collide runs up to NAV_COLLIDE_PASSES Gauss-Seidel passes over the pairs
 * in index order (i ascending, then j ascending); nav_collide_reversed runs
 * them as if the bodies were numbered backwards (the last body is index 0),
 * keeping a pair list of its own. A match takes one or the other for each
 * second of play by a seeded coin (match.c): in one fixed order a pass
 * settles the contacts of the early bodies first, and red's heroes always
 * had the lower slots. Overlap is split half/half
 * (the odd unit to the higher index), all of it to the free body when the
 * other is pinned. A share that would move a body out of the rim margin, into
 * a non-open tile or across a missing link is dropped for that body, and the
 * other (unpinned) body then takes the whole overlap if it can. Coincident
 * centres separate along the line through the map centre, the lower index
 * toward it, so that two such pairs at mirrored points part mirrored (at the
 * map centre itself along x, the lower index going -x). Passes stop early when a
 * pass moves nothing. nav_collide_reference does exactly this over all pairs;
 * nav_collide gives bit-identical results faster: it lists once per tick the
 * pairs within R + NAV_MARGIN (a sweep over rows of bodies sorted by column;
 * crowds with more close pairs than NAV_PAIR_CAP are listed body by body from
 * a cell grid and cut), evaluates only those, skips a pair whose two bodies have not moved since its last
 * evaluation (the same inputs give the same no-op), and lists again from the
 * current pair on if a body strays more than NAV_MARGIN / 2 from where it was
 * listed (only then could an unlisted pair overlap). These lists (the
 * tick's and one after a stray) come from a wider one (R + NAV_KEEP_MARGIN)
 * kept in the Nav from call to call, filtered, while it still holds every
 * pair that matters (kept_valid at the call's start: when bodies left the
 * array, the rest are matched to kept ones in order and the kept list
 * renumbered; kept_now after a stray, the passes having moved bodies);
 * a sweep lists only when it does not. Two free bodies with R <= NAV_FAST_R whose
 * steps each stay on one inner tile take push_fast: push_apart's arithmetic
 * in 32 bits, where it cannot overflow (the tile of each body is kept, from
 * the listing or its last move off it); any other pair takes push_apart.
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
_Static_assert(NAV_MAX_BODIES < 32767, "collision lists are int16");
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

/* a body may move from (x0,z0) to (x1,z1) in one straight step */
static inline int move_ok(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    if (!map_world_inside(x1, z1)) return 0;
    /* most steps stay on one tile: walk() crosses nothing then and only asks
     * that the start lie on the map (an off-map start wraps past W here) */
    const uint32_t W = (uint32_t)MAP_N * GOTA_TILE;
    uint32_t X0 = (uint32_t)((int64_t)x0 + MAP_HALF_WORLD), Z0 = (uint32_t)((int64_t)z0 + MAP_HALF_WORLD);
    uint32_t X1 = (uint32_t)(x1 + MAP_HALF_WORLD), Z1 = (uint32_t)(z1 + MAP_HALF_WORLD);
    if (X0 < W && Z0 < W && X0 / GOTA_TILE == X1 / GOTA_TILE && Z0 / GOTA_TILE == Z1 / GOTA_TILE) return 1;
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
                if (move_ok(nav, map, *x, *z, nx, nz)) { *x = nx; *z = nz; }
                else if (nx != *x && move_ok(nav, map, *x, *z, nx, *z)) { *x = nx; }
                else if (nz != *z && move_ok(nav, map, *x, *z, *x, nz)) { *z = nz; }
            }
        }
    }
    return fx_dist2(*x, *z, tx, tz) <= (int64_t)NAV_REACH * NAV_REACH;
}

/* ---- collision ----------------------------------------------------------- */

#define NAV_CHAINS 1024             /* cell chains, by cell index mod 1024 (a 3 x 3 block never shares one) */
#define NAV_MARGIN (GOTA_TILE / 5)   /* pairs are listed within R + 0.2 tile (even, so NAV_MARGIN / 2 is exact) */
#define NAV_KEEP_MARGIN (3 * GOTA_TILE)   /* kept pairs: within R + 3 tiles (a sweep costs as much as filtering them for several ticks) */
/* a kept list serves while no body strays farther from where it was listed */
#define NAV_KEEP_STRAY ((NAV_KEEP_MARGIN - NAV_MARGIN) / 2)
_Static_assert(NAV_CHAINS > 2 * (MAP_N + 1), "neighbouring cells land in different chains");

/* displacement of `share` along (dx,dz)/d; along +x when d == 0 */
static void share_vec(int64_t dx, int64_t dz, int64_t d, int64_t share, int32_t *ox, int32_t *oz)
{
    if (d == 0) { *ox = (int32_t)share; *oz = 0; return; }
    *ox = (int32_t)(dx * share / d);
    *oz = (int32_t)(dz * share / d);
}

/* share_vec of s = overlap / 2 (to a) and of overlap - s (to b) with one
 * division per axis. For the odd unit: dx * (s + 1) = q * d + (r + dx), where
 * q, r and dx share a sign and |r + dx| < 2d (d >= |dx|), so the truncated
 * quotient is q, or q + sign(dx) once |r + dx| >= d. */
static void share_halves(int64_t dx, int64_t dz, int64_t d, int64_t overlap,
                         int32_t *ax, int32_t *az, int32_t *bx, int32_t *bz)
{
    int64_t s = overlap / 2;
    if (d == 0) { *ax = (int32_t)s; *az = 0; *bx = (int32_t)(overlap - s); *bz = 0; return; }
    int64_t qx = dx * s / d, rx = dx * s % d, qz = dz * s / d, rz = dz * s % d;
    *ax = (int32_t)qx; *az = (int32_t)qz;
    if (overlap & 1) {
        int64_t tx = rx + dx, tz = rz + dz;
        qx += tx >= d ? 1 : tx <= -d ? -1 : 0;
        qz += tz >= d ? 1 : tz <= -d ? -1 : 0;
    }
    *bx = (int32_t)qx; *bz = (int32_t)qz;
}

/* try to move body b by (ox,oz); 1 if it moved or needed no move. Sets
 * `bit` in *moved when it moved. */
static int try_push(const Nav *nav, const MapData *map, NavBody *b, int32_t ox, int32_t oz, int *moved, int bit)
{
    if (ox == 0 && oz == 0) return 1;
    int32_t nx = b->x + ox, nz = b->z + oz;
    if (!move_ok(nav, map, b->x, b->z, nx, nz)) return 0;
    b->x = nx; b->z = nz;
    *moved |= bit;
    return 1;
}

/* a and b act on each other: not both pinned and closer than R = the sum of
 * their radii; (dx, dz) = b - a, d2 = its squared length */
static inline int in_contact(const NavBody *a, const NavBody *b, int64_t R, int64_t d2)
{
    return R > 0 && d2 < R * R && !(a->pinned && b->pinned);
}

/* Push a pair in contact apart. Returns which moved: 1 = a, 2 = b. */
static int push_apart(const Nav *nav, const MapData *map, NavBody *a, NavBody *b, int64_t R,
                      int64_t dx, int64_t dz, int64_t d2)
{
    int64_t d = fx_isqrt64((uint64_t)d2);
    int64_t overlap = R - d;
    if (d == 0 && (a->x != 0 || a->z != 0)) {
        /* on one point: apart along the line through the map centre, a toward
         * it, so that mirrored pairs part mirrored (the centre itself: along x) */
        dx = a->x;
        dz = a->z;
        d = fx_isqrt64((uint64_t)(dx * dx + dz * dz));
    }
    int32_t ax = 0, az = 0, bx = 0, bz = 0;     /* a pinned body's share is 0 */
    if (a->pinned) share_vec(dx, dz, d, overlap, &bx, &bz);
    else if (b->pinned) share_vec(dx, dz, d, overlap, &ax, &az);
    else share_halves(dx, dz, d, overlap, &ax, &az, &bx, &bz);
    ax = -ax; az = -az;
    int32_t na_x = a->x + ax, na_z = a->z + az, nb_x = b->x + bx, nb_z = b->z + bz;
    int stay_a = ax == 0 && az == 0, stay_b = bx == 0 && bz == 0;
    int ok_a = stay_a || move_ok(nav, map, a->x, a->z, na_x, na_z);
    int ok_b = stay_b || move_ok(nav, map, b->x, b->z, nb_x, nb_z);
    int moved = 0;
    if (ok_a && ok_b) {
        /* both steps were just checked and neither depends on the other body */
        if (!stay_a) { a->x = na_x; a->z = na_z; moved |= 1; }
        if (!stay_b) { b->x = nb_x; b->z = nb_z; moved |= 2; }
    } else if (!ok_a && ok_b) {
        int32_t fx, fz;
        share_vec(dx, dz, d, overlap, &fx, &fz);
        if (b->pinned || !try_push(nav, map, b, fx, fz, &moved, 2)) try_push(nav, map, b, bx, bz, &moved, 2);
    } else if (ok_a && !ok_b) {
        int32_t fx, fz;
        share_vec(dx, dz, d, overlap, &fx, &fz);
        if (a->pinned || !try_push(nav, map, a, -fx, -fz, &moved, 1)) try_push(nav, map, a, ax, az, &moved, 1);
    }
    return moved;
}

/* Bodies closer than this (sum of radii) take push_fast: every product and
 * quotient of push_apart then fits 32 bits (|dx|, |dz| <= d < R, overlap
 * <= R - d, so |dx * overlap| <= R^2 / 4 < 2^31), and 32-bit division costs
 * fewer cycles than 64-bit. */
#define NAV_FAST_R 65535

/* push_fast's step test, one number per body and axis: the step by o along
 * x stays on the body's tile, which is not on the map's edge (so move_ok
 * would say 1: the rim margin lies within the edge tiles), iff
 * (uint32_t)(x + o) - box < GOTA_TILE, box = the tile's low edge in world
 * units. On an edge tile (or off the map: unsigned, an off-map start wraps to
 * an edge or an outside tile) box = x + 2^31, which fails every step with
 * |o| < 2^31 - GOTA_TILE; push_apart then decides. A body keeps its box while
 * it moves inside its tile; any other move sets it again. */
static inline uint32_t tile_box(int32_t x)
{
    uint32_t X = (uint32_t)x + MAP_HALF_WORLD, t = X / GOTA_TILE;
    return t - 1 < MAP_N - 2 ? t * GOTA_TILE - MAP_HALF_WORLD : (uint32_t)x + 0x80000000u;
}

static inline int box_holds(uint32_t box, int32_t x)
{
    return (uint32_t)x - box < GOTA_TILE;
}

/* push_apart for two free bodies with 0 < R <= NAV_FAST_R and d2 < R * R,
 * when d > 0 and each body's step stays in its box (tile_box; a body
 * that does not move always does, but on an edge tile): the same shares
 * (share_halves in 32 bits) and the same moves. Returns which moved, or -1
 * when it does not apply (push_apart then decides). */
static inline int push_fast(NavBody *a, NavBody *b, const uint32_t *bx, const uint32_t *bz,
                            int i, int j, int32_t R, int32_t dx, int32_t dz, uint32_t d2)
{
    int32_t d = (int32_t)fx_isqrt64(d2);
    if (d == 0) return -1;
    int32_t overlap = R - d, s = overlap >> 1;      /* d < R: overlap > 0 */
    int32_t px = dx * s, pz = dz * s;
    int32_t qx = px / d, qz = pz / d, rx = px % d, rz = pz % d;
    int32_t ax = a->x - qx, az = a->z - qz;
    if (overlap & 1) {
        int32_t tx = rx + dx, tz = rz + dz;
        qx += (tx >= d) - (tx <= -d);
        qz += (tz >= d) - (tz <= -d);
    }
    int32_t nbx = b->x + qx, nbz = b->z + qz;
    if (!(box_holds(bx[i], ax) & box_holds(bz[i], az) & box_holds(bx[j], nbx) & box_holds(bz[j], nbz)))
        return -1;
    int ma = ax != a->x || az != a->z, mb = (qx | qz) != 0;
    a->x = ax; a->z = az;
    b->x = nbx; b->z = nbz;
    return ma | mb << 1;
}

/* one pair of a pass: sets *moved when a body moved */
static void resolve_pair(const Nav *nav, const MapData *map, NavBody *a, NavBody *b, int *moved)
{
    int64_t R = (int64_t)a->radius + b->radius;
    int64_t dx = (int64_t)b->x - a->x, dz = (int64_t)b->z - a->z, d2 = dx * dx + dz * dz;
    if (in_contact(a, b, R, d2) && push_apart(nav, map, a, b, R, dx, dz, d2)) *moved = 1;
}

/* cell coordinate of a position: floor((v + half map) / cs) clamped to
 * [0, side) (below 0 clamps to 0 anyway, so no floor for negatives) */
static int cell_coord(int32_t v, uint32_t cs, int side)
{
    int64_t u = (int64_t)v + MAP_HALF_WORLD;          /* < 2^32 */
    if (u < 0) return 0;
    uint32_t c = (uint32_t)u / cs;
    return c >= (uint32_t)side ? side - 1 : (int)c;
}

/* The pairs a tick's passes evaluate, in pass order (i ascending, then j
 * ascending): every pair within R + NAV_MARGIN of each other when the list was
 * built. While no body strays more than NAV_MARGIN / 2 from where it stood at
 * the build, a pair left out cannot overlap, so resolving only the listed
 * pairs moves every body exactly as resolving all pairs would. */
typedef struct {
    NavBody *b;
    int n, side;
    int64_t cs;
    int32_t base_x[NAV_MAX_BODIES], base_z[NAV_MAX_BODIES];   /* positions at the build */
    uint32_t box_x[NAV_MAX_BODIES], box_z[NAV_MAX_BODIES];    /* tile_box of each active body */
    int16_t pi[NAV_PAIR_CAP], pj[NAV_PAIR_CAP];
    uint32_t tested[NAV_PAIR_CAP];      /* sequence number of the pair's last evaluation, 0: none */
    int64_t rr[NAV_PAIR_CAP];           /* R^2 of each listed pair (pair_sizes) */
    int32_t fast_r[NAV_PAIR_CAP];       /* R when push_fast may take the pair, else 0 */
    uint32_t moved_at[NAV_MAX_BODIES];  /* sequence number of the body's last move */
    int np;
    int from_start;                     /* the list starts at the first pair */
    int complete;                       /* the list ends at the last pair (did not hit NAV_PAIR_CAP) */
    int16_t head[NAV_CHAINS], next[NAV_MAX_BODIES];   /* bodies chained by cell index mod NAV_CHAINS */
    int32_t cell[NAV_MAX_BODIES];
    int16_t cellx[NAV_MAX_BODIES], cellz[NAV_MAX_BODIES];
    int16_t near[NAV_MAX_BODIES];       /* one body's partners, while listing */
    int16_t renum[NAV_MAX_BODIES];      /* kept_valid's renumbering */
    int64_t reach;                      /* the farthest a listed pair can be apart: 2 * largest radius + NAV_MARGIN (-1: not sized yet) */
    uint32_t key[NAV_MAX_BODIES];       /* sweep key: row << 16 | column (128 units) */
    uint32_t skey[NAV_MAX_BODIES];      /* the keys in sweep order */
    int16_t order[NAV_MAX_BODIES], spare[NAV_MAX_BODIES];   /* active bodies by key */
} Collide;

/* reach, cells of one tile or wider if a listed pair could span more; only
 * listing uses them, and most calls list nothing (kept lists serve) */
static void collide_size(Collide *c)
{
    if (c->reach >= 0) return;
    int64_t rmax = 0;
    for (int i = 0; i < c->n; i++)
        if (c->b[i].active && c->b[i].radius > rmax) rmax = c->b[i].radius;
    c->reach = 2 * rmax + NAV_MARGIN;
    c->cs = c->reach > GOTA_TILE ? c->reach : GOTA_TILE;
    if (c->cs > (int64_t)MAP_N * GOTA_TILE) c->cs = (int64_t)MAP_N * GOTA_TILE;
    c->side = (int)(((int64_t)MAP_N * GOTA_TILE + c->cs - 1) / c->cs);    /* <= MAP_N */
}

/* within R + margin (pinned or not) */
static inline int near_pair(const NavBody *a, const NavBody *b, int64_t margin)
{
    int64_t R = (int64_t)a->radius + b->radius;
    if (R <= 0) return 0;
    int64_t dx = (int64_t)b->x - a->x, dz = (int64_t)b->z - a->z, r = R + margin;
    return dx * dx + dz * dz < r * r;
}

static inline int listed(const NavBody *a, const NavBody *b)
{
    return !(a->pinned && b->pinned) && near_pair(a, b, NAV_MARGIN);   /* resolve_pair leaves pinned pairs alone */
}

/* rr and fast_r of listed pair q (radii and pins do not change within a
 * call): push_fast needs two free bodies with R <= NAV_FAST_R */
static inline void pair_sizes(Collide *c, int q)
{
    const NavBody *a = &c->b[c->pi[q]], *b = &c->b[c->pj[q]];
    int64_t R = (int64_t)a->radius + b->radius;
    c->rr[q] = R * R;
    c->fast_r[q] = R <= NAV_FAST_R && !a->pinned && !b->pinned ? (int32_t)R : 0;
}

/* The pairs body by body in index order, from a cell grid, cut at
 * NAV_PAIR_CAP: for crowds with more close pairs than a list holds. */
static void list_by_body(Collide *c, int fi, int fj)
{
    collide_size(c);
    NavBody *b = c->b;
    for (int k = 0; k < NAV_CHAINS; k++) c->head[k] = -1;
    for (int i = 0; i < c->n; i++) {
        if (!b[i].active) continue;
        int cx = cell_coord(b[i].x, (uint32_t)c->cs, c->side), cz = cell_coord(b[i].z, (uint32_t)c->cs, c->side);
        c->cell[i] = cz * c->side + cx;
        c->cellx[i] = (int16_t)cx; c->cellz[i] = (int16_t)cz;
    }
    /* chains in descending index order (pushed from the lowest index up),
     * so a walk for body i stops at the first j <= i */
    for (int i = 0; i < c->n; i++) {
        if (!b[i].active) continue;
        int h = c->cell[i] & (NAV_CHAINS - 1);
        c->next[i] = c->head[h];
        c->head[h] = (int16_t)i;
    }
    c->np = 0;
    c->from_start = fi < 0;
    c->complete = 1;
    for (int i = fi < 0 ? 0 : fi; i < c->n && c->complete; i++) {
        if (!b[i].active) continue;
        int16_t *out = c->near;
        int nc = 0;
        int z0 = c->cellz[i] > 0 ? c->cellz[i] - 1 : 0, z1 = c->cellz[i] + 1 < c->side ? c->cellz[i] + 1 : c->side - 1;
        int x0 = c->cellx[i] > 0 ? c->cellx[i] - 1 : 0, x1 = c->cellx[i] + 1 < c->side ? c->cellx[i] + 1 : c->side - 1;
        for (int cz = z0; cz <= z1; cz++)
            for (int cx = x0; cx <= x1; cx++) {
                int k = cz * c->side + cx;
                for (int j = c->head[k & (NAV_CHAINS - 1)]; j > i; j = c->next[j])
                    if (c->cell[j] == k && (i != fi || j > fj) && listed(&b[i], &b[j])) out[nc++] = (int16_t)j;
            }
        /* insertion sort: pairs in index order */
        for (int a = 1; a < nc; a++) {
            int16_t v = out[a];
            int k = a - 1;
            while (k >= 0 && out[k] > v) { out[k + 1] = out[k]; k--; }
            out[k + 1] = v;
        }
        if (nc > NAV_PAIR_CAP - c->np) {    /* a cut list is a prefix of the pass order */
            nc = NAV_PAIR_CAP - c->np;
            c->complete = 0;
        }
        for (int q = 0; q < nc; q++) {
            c->pj[c->np + q] = out[q];
            c->pi[c->np + q] = (int16_t)i;
            c->tested[c->np + q] = 0;
        }
        c->np += nc;
    }
}

/* The pairs by a sweep: the bodies sorted by row (rows as tall as `reach`),
 * then by column; each pair is found once, from its earlier body in that
 * order, in its own row to the right or in the next row nearby. Then put in
 * pass order into pi, pj. keep = 0: the pairs after (fi, fj) that listed()
 * takes; keep = 1: all pairs within R + NAV_KEEP_MARGIN (a list to keep).
 * Returns their number, -1 when they do not all fit NAV_PAIR_CAP. */
static int list_by_sweep(Collide *c, int keep, int fi, int fj, int16_t *pi, int16_t *pj)
{
    collide_size(c);
    const NavBody *b = c->b;
    const int64_t reach = keep ? c->reach - NAV_MARGIN + NAV_KEEP_MARGIN : c->reach;
    const uint32_t band = (uint32_t)(reach >> 7) + 1;    /* columns a listed pair can be apart */
    int m = 0, rlo = 255, rhi = 0;
    for (int i = 0; i < c->n; i++) {
        if (!b[i].active) continue;
        int64_t ux = (int64_t)b[i].x + MAP_HALF_WORLD, uz = (int64_t)b[i].z + MAP_HALF_WORLD;
        int64_t col = ux < 0 ? 0 : ux >> 7, row = uz < 0 ? 0 : uz / reach;
        int r = row > 255 ? 255 : (int)row;
        if (r < rlo) rlo = r;
        if (r > rhi) rhi = r;
        c->key[i] = (uint32_t)r << 16 | (uint32_t)(col > 65535 ? 65535 : col);
        c->spare[m++] = (int16_t)i;
    }
    /* by row (a counting sort over the rows in use), then by column within
     * the row (rows hold few bodies) */
    int count[257], first[256];
    for (int r = rlo; r <= rhi + 1; r++) count[r] = 0;
    for (int q = 0; q < m; q++) count[(c->key[c->spare[q]] >> 16) + 1]++;
    for (int r = rlo; r <= rhi; r++) { count[r + 1] += count[r]; first[r] = count[r]; }
    for (int q = 0; q < m; q++) {
        int i = c->spare[q];
        uint32_t k = c->key[i];
        int at = count[k >> 16]++;
        while (at > first[k >> 16] && c->skey[at - 1] > k) {
            c->skey[at] = c->skey[at - 1];
            c->order[at] = c->order[at - 1];
            at--;
        }
        c->skey[at] = k;
        c->order[at] = (int16_t)i;
    }
    const int16_t *ord = c->order;
    const uint32_t *sk = c->skey;
    int np = 0, below = 0;  /* below: first body of the next row not left of the current one's band */
    for (int p = 0; p < m; p++) {
        int i = ord[p];
        uint32_t k = c->key[i], col = k & 0xFFFF;
        uint32_t own_end = k + band;    /* own row: columns up to col + band */
        uint32_t next_lo = (k | 0xFFFF) + 1 + (col > band ? col - band : 0), next_hi = (k | 0xFFFF) + 1 + col + band;
        while (below < m && sk[below] < next_lo) below++;
        for (int pass = 0; pass < 2; pass++) {
            int q = pass == 0 ? p + 1 : (below > p ? below : p + 1);
            uint32_t end = pass == 0 ? (own_end < (k | 0xFFFF) ? own_end : (k | 0xFFFF)) : next_hi;
            if (pass == 1 && (k >> 16) == 255) break;   /* no next row */
            for (; q < m && sk[q] <= end; q++) {
                int j = ord[q], lo = i < j ? i : j, hi = i < j ? j : i;
                if (lo < fi || (lo == fi && hi <= fj)) continue;
                if (keep ? !near_pair(&b[lo], &b[hi], NAV_KEEP_MARGIN) : !listed(&b[lo], &b[hi])) continue;
                if (np == NAV_PAIR_CAP) return -1;
                c->tested[np++] = (uint32_t)lo << 16 | (uint32_t)hi;
            }
        }
    }
    /* pass order: counting sort by the first body, then the second within it */
    int16_t *start = c->near;           /* n <= NAV_MAX_BODIES counters */
    memset(start, 0, (size_t)c->n * sizeof *start);
    for (int q = 0; q < np; q++) start[c->tested[q] >> 16]++;
    int sum = 0;
    for (int i = 0; i < c->n; i++) { int k = start[i]; start[i] = (int16_t)sum; sum += k; }
    for (int q = 0; q < np; q++) {
        int at = start[c->tested[q] >> 16]++;
        pi[at] = (int16_t)(c->tested[q] >> 16);
        pj[at] = (int16_t)(c->tested[q] & 0xFFFF);
    }
    for (int a = 1; a < np; a++) {      /* second body ascending within each first body */
        int16_t v = pj[a];
        int k = a - 1;
        while (k >= 0 && pi[k] == pi[a] && pj[k] > v) { pj[k + 1] = pj[k]; k--; }
        pj[k + 1] = v;
    }
    for (int q = 0; q < np; q++) c->tested[q] = 0;
    return np;
}

/* kept body o (of nav->pairs) stands for body b now: as active and as large
 * as then, and within NAV_KEEP_STRAY of where it was listed. An active body
 * of negative radius never fits, then or now (keep_list), so the bodies of a
 * kept pair are active and R > 0 while the list serves. */
static inline int kept_fits(const NavBody *b, const NavPairs *kp, int o)
{
    const int64_t s2 = (int64_t)NAV_KEEP_STRAY * NAV_KEEP_STRAY;
    int32_t r = b->active ? b->radius : -1;
    if (kp->radius[o] != r || (r < 0 && b->active)) return 0;
    int64_t dx = (int64_t)b->x - kp->base_x[o], dz = (int64_t)b->z - kp->base_z[o];
    return !b->active || dx * dx + dz * dz <= s2;
}

/* The pairs kept from an earlier call (nav->pairs) hold every pair within
 * R + NAV_MARGIN of each other now while each body now fits (kept_fits) a
 * kept body of its own: a pair left out was R + NAV_KEEP_MARGIN apart then,
 * so is at least R + NAV_MARGIN apart now. Which unit a body is does not
 * matter. Body i fits kept body i when there are as many bodies as then;
 * when there are fewer (units died, the rest shifted down), body i takes the
 * first kept body from where body i - 1 took one (i when i = 0) that it
 * fits, skipping at most the difference in all: the kept list is then
 * renumbered in place (pairs of skipped bodies dropped; an increasing
 * renumbering keeps the pass order). 0: the kept list does not serve. */
static int kept_valid(Collide *c, NavPairs *kp)
{
    if (kp->np < 0 || kp->n < c->n) return 0;
    if (kp->n == c->n) {
        for (int i = 0; i < c->n; i++)
            if (!kept_fits(&c->b[i], kp, i)) return 0;
        return 1;
    }
    int16_t *to = c->renum;             /* kept body -> body now, -1: skipped */
    int skip = kp->n - c->n, o = 0;
    for (int i = 0; i < c->n; i++, o++) {
        while (!kept_fits(&c->b[i], kp, o)) {   /* o <= i + skip < kp->n */
            to[o++] = -1;
            if (--skip < 0) return 0;
        }
        to[o] = (int16_t)i;
    }
    for (; o < kp->n; o++) to[o] = -1;
    for (o = 0; o < kp->n; o++) {       /* to[o] <= o: moving down in place */
        int i = to[o];
        if (i < 0) continue;
        kp->base_x[i] = kp->base_x[o];
        kp->base_z[i] = kp->base_z[o];
        kp->radius[i] = kp->radius[o];
    }
    int np = 0;
    for (int q = 0; q < kp->np; q++) {
        int i = to[kp->pi[q]], j = to[kp->pj[q]];
        if (i < 0 || j < 0) continue;
        kp->pi[np] = (int16_t)i;
        kp->pj[np++] = (int16_t)j;
    }
    kp->np = np;
    kp->n = c->n;
    return 1;
}

/* List the pairs within R + NAV_KEEP_MARGIN now into nav->pairs (np = -1
 * when they do not fit) */
static void keep_list(Collide *c, NavPairs *kp)
{
    for (int i = 0; i < c->n; i++) {
        kp->base_x[i] = c->b[i].x;
        kp->base_z[i] = c->b[i].z;
        /* -1: inactive; INT32_MIN, which no body fits: active with a
         * negative radius (it could not be told from an inactive one) */
        kp->radius[i] = !c->b[i].active ? -1 : c->b[i].radius < 0 ? INT32_MIN : c->b[i].radius;
    }
    kp->n = c->n;
    kp->np = list_by_sweep(c, 1, -1, -1, kp->pi, kp->pj);
}

/* collide_list from a kept list that holds every pair listed() takes now:
 * the same pairs after (fi, fj) in the same order, without a sweep */
static void list_from_kept(Collide *c, const NavPairs *kp, int fi, int fj)
{
    const NavBody *b = c->b;
    int q = 0, np = 0;
    while (fi >= 0 && q < kp->np && (kp->pi[q] < fi || (kp->pi[q] == fi && kp->pj[q] <= fj))) q++;
    /* listed(), knowing R > 0: a kept pair had it (near_pair) and kept_valid
     * saw both bodies active and as large */
    for (; q < kp->np; q++) {
        int i = kp->pi[q], j = kp->pj[q];
        int64_t R = (int64_t)b[i].radius + b[j].radius, r = R + NAV_MARGIN;
        int64_t dx = (int64_t)b[j].x - b[i].x, dz = (int64_t)b[j].z - b[i].z;
        if (dx * dx + dz * dz >= r * r || (b[i].pinned && b[j].pinned)) continue;
        c->pi[np] = (int16_t)i;
        c->pj[np] = (int16_t)j;
        c->tested[np] = 0;
        c->rr[np] = R * R;
        c->fast_r[np++] = R <= NAV_FAST_R && !b[i].pinned && !b[j].pinned ? (int32_t)R : 0;
    }
    c->np = np;
    c->from_start = fi < 0;
    c->complete = 1;
}

/* The kept list when it still holds every pair listed() takes now, during a
 * call whose start it served (so as many bodies, as large and as active):
 * while every body fits its kept one, also after the passes moved it; else
 * NULL (a sweep lists). */
static const NavPairs *kept_now(const Collide *c, const NavPairs *kp)
{
    if (kp->np < 0) return NULL;
    for (int i = 0; i < c->n; i++)
        if (!kept_fits(&c->b[i], kp, i)) return NULL;
    return kp;
}

/* List the pairs after (fi, fj) in pass order from the bodies' current
 * positions (fi = -1: from the first pair), up to NAV_PAIR_CAP of them: from
 * the kept list kp when it holds every pair that listed() takes now
 * (kept_now), else (kp NULL) by a sweep. */
static void collide_list(Collide *c, const NavPairs *kp, int fi, int fj)
{
    for (int i = 0; i < c->n; i++) {
        c->base_x[i] = c->b[i].x;
        c->base_z[i] = c->b[i].z;
        c->box_x[i] = tile_box(c->b[i].x);
        c->box_z[i] = tile_box(c->b[i].z);
    }
    if (kp) {
        list_from_kept(c, kp, fi, fj);
        return;
    }
    int np = list_by_sweep(c, 0, fi, fj, c->pi, c->pj);
    if (np < 0) {
        list_by_body(c, fi, fj);
    } else {
        c->np = np;
        c->from_start = fi < 0;
        c->complete = 1;
    }
    for (int q = 0; q < c->np; q++) pair_sizes(c, q);
}

static int strayed(const Collide *c, int i)
{
    int64_t dx = (int64_t)c->b[i].x - c->base_x[i], dz = (int64_t)c->b[i].z - c->base_z[i];
    return dx * dx + dz * dz > (int64_t)(NAV_MARGIN / 2) * (NAV_MARGIN / 2);
}

void nav_collide_reference(const Nav *nav, const MapData *map, NavBody *bodies, int n)
{
    if (n > NAV_MAX_BODIES) n = NAV_MAX_BODIES;
    for (int pass = 0; pass < NAV_COLLIDE_PASSES; pass++) {
        int moved = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (bodies[i].active && bodies[j].active) resolve_pair(nav, map, &bodies[i], &bodies[j], &moved);
        if (!moved) break;
    }
}

/* The pairs of the list from s on, in order, until a moved body strays:
 * returns that pair's index (the list is to be built again after it), or -1
 * at the end of the list. *moved is set when a body moved. */
static int collide_run(const Nav *nav, const MapData *map, Collide *c, int s, uint32_t *seqp, int *moved)
{
    NavBody *bodies = c->b;
    uint32_t seq = *seqp;
    int np = c->np, stray = -1;
    for (; s < np; s++) {
        int i = c->pi[s], j = c->pj[s];
        /* the same two positions as at its last evaluation: the same no-op */
        /* (tested 0: never evaluated, and no moved_at is below 0) */
        uint32_t t = c->tested[s];
        if (c->moved_at[i] < t && c->moved_at[j] < t) continue;
        c->tested[s] = ++seq;
        NavBody *a = &bodies[i], *b = &bodies[j];
        int64_t dx = (int64_t)b->x - a->x, dz = (int64_t)b->z - a->z, d2 = dx * dx + dz * dz;
        /* a listed pair has R > 0 and is not both pinned (listed()): in_contact is d2 < R^2 */
        if (d2 >= c->rr[s]) continue;
        int hit = -1;
        if (c->fast_r[s])
            hit = push_fast(a, b, c->box_x, c->box_z, i, j, c->fast_r[s], (int32_t)dx, (int32_t)dz, (uint32_t)d2);
        if (hit < 0) {
            hit = push_apart(nav, map, a, b, (int64_t)a->radius + b->radius, dx, dz, d2);
            /* it may have left its tile */
            if (hit & 1) { c->box_x[i] = tile_box(a->x); c->box_z[i] = tile_box(a->z); }
            if (hit & 2) { c->box_x[j] = tile_box(b->x); c->box_z[j] = tile_box(b->z); }
        }
        if (!hit) continue;
        *moved = 1;
        seq++;
        if (hit & 1) c->moved_at[i] = seq;
        if (hit & 2) c->moved_at[j] = seq;
        if (((hit & 1) && strayed(c, i)) || ((hit & 2) && strayed(c, j))) { stray = s; break; }
    }
    *seqp = seq;
    return stray;
}

/* nav_collide with kp as the kept pair list */
static void collide_kept(Nav *nav, const MapData *map, NavBody *bodies, int n, NavPairs *kp)
{
    Collide c;
    c.b = bodies;
    c.n = n;
    c.reach = -1;                       /* collide_size, once a listing needs it */
    memset(c.moved_at, 0, (size_t)n * sizeof c.moved_at[0]);
    uint32_t seq = 0;
    if (!kept_valid(&c, kp)) keep_list(&c, kp);
    collide_list(&c, kp->np >= 0 ? kp : NULL, -1, -1);     /* kept_valid or keep_list: it holds */
    for (int pass = 0; pass < NAV_COLLIDE_PASSES; pass++) {
        if (!c.from_start || !c.complete) collide_list(&c, kept_now(&c, kp), -1, -1);
        int moved = 0;
        for (;;) {
            int s = collide_run(nav, map, &c, 0, &seq, &moved);
            if (s >= 0) collide_list(&c, kept_now(&c, kp), c.pi[s], c.pj[s]);     /* new positions, same pass, from the next pair on */
            else if (c.complete) break;
            else collide_list(&c, kept_now(&c, kp), c.pi[c.np - 1], c.pj[c.np - 1]);     /* the rest of the pass */
        }
        if (!moved) break;
    }
}

void nav_collide(Nav *nav, const MapData *map, NavBody *bodies, int n)
{
    if (n > NAV_MAX_BODIES) n = NAV_MAX_BODIES;
    if (n < 2) return;
    collide_kept(nav, map, bodies, n, &nav->pairs);
}

static void reverse_bodies(NavBody *bodies, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        NavBody t = bodies[i];
        bodies[i] = bodies[j];
        bodies[j] = t;
    }
}

void nav_collide_reversed(Nav *nav, const MapData *map, NavBody *bodies, int n)
{
    if (n > NAV_MAX_BODIES) n = NAV_MAX_BODIES;
    if (n < 2) return;
    reverse_bodies(bodies, n);
    collide_kept(nav, map, bodies, n, &nav->pairs_reversed);
    reverse_bodies(bodies, n);
}
