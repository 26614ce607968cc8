/*
 * vision.c -- per-team fog of war on the tile grid (docs/rules.md section 5).
 *
 * What it models: a tile T is visible from a source on tile S (radius r tiles,
 * eye height e) when dx^2 + dz^2 <= r^2 and the straight ray is clear. The ray
 * takes n = max(|dx|, |dz|) steps; step i (1..n-1) visits the cell at the
 * rounded (dx*i/n, dz*i/n) (ties away from zero) and is blocked when
 *     (terrain(cell) + blocker(cell)) * n >= h0 * (n - i) + h1 * i
 * with h0 = terrain(S) + e and h1 = terrain(T) + 3. The source tile is always
 * visible. All heights are in 1/8 tile (terrain = MapData.height8); blockers
 * are the static trees/rocks (MapData.blocker8) and, while alive, each
 * building's blocker8 on its footprint tiles (a building without a footprint,
 * i.e. a god, on the tile of its centre); where several apply the maximum
 * counts. Only integers are used, so every machine computes the same bits.
 *
 * Sources: VISION_HERO (r 10, eye 14), VISION_CREEP (r 5, eye 12), and each
 * living building with its own sight_tiles / eye8 from the tile of its centre.
 * A building does not block its own sight: cells covered by the source
 * building itself are skipped while tracing its rays (a tower sees from its
 * top). Radii are clamped to VISION_MAX_RADIUS (15) so a window row fits 32
 * bits.
 *
 * Tables (VisionTables, immutable after vision_tables_build): for each unit
 * kind and every tile, and for each building, a window of (2r+1) rows of
 * (2r+1) bits, twice: `all` (visible with every building standing) and `diff`
 * (visible with no building standing but not with all of them). Blocking is
 * monotonic in the blocker heights, so visible(all) is a subset of visible(any
 * alive set), which is a subset of visible(none). Each window also keeps a
 * 64-bit mask of the buildings lying on its `diff` rays: at run time a window
 * whose masked buildings all stand uses `all`, one whose masked buildings are
 * all dead uses `all | diff`, and only the rest looks at its `diff` bits one
 * by one, with the same test on the buildings of that one ray (kept as a byte
 * index into a small table of distinct building sets); only a ray crossing
 * both standing and fallen buildings is traced. Memory for the 116 x 116 map
 * is about 4.1 MB (3.9 MiB, see vision_tables_bytes), built in well under
 * 0.1 s at -O2.
 *
 * Cache: the grid starts from the team's buildings' grid, kept (exactly
 * keyed by the alive mask and the tables) until a building's life changes.
 * While that grid stays, an update compares the sources with the last
 * update's (src_key) and redoes only the boxes under the windows of the
 * sources that went or came (nearly equal boxes merged), ORing each window
 * that meets a box in those boxes' rows only, so unchanged inputs touch no
 * row; otherwise, or with more than VISION_KEPT_SOURCES sources, it ORs
 * every window. (A hash of all inputs to skip unchanged updates went: it
 * matched on 6 % of the updates of a match and cost more than it saved.)
 * A NULL building_alive means every building stands. vision_update ignores
 * sources with an out-of-range tile or kind; the tick hands its sources to
 * vision_update_keys as keys, checked and converted in its own pass over
 * the units.
 *
 * Ownership: vision_tables_build returns a heap object owned by the caller
 * (free with vision_tables_free); it copies everything it needs from the
 * MapData, so the map may go away afterwards. vision_tables_get builds the
 * tables of map_get() once (pthread_once) and keeps them for the life of the
 * process; that pointer is the only process-global state, never mutated after.
 * A Vision is plain caller-owned memory that points at (does not own) tables;
 * vision_update allocates nothing.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "vision.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define VR VISION_MAX_RADIUS
#define VW (2 * VR + 1)                         /* widest window, 31 */
#define RAY_DIRS (VW * VW)
#define RAY_CELL_CAP (RAY_DIRS * VR)           /* bound on intermediate cells */
#define RAY_SETS 256                            /* distinct building sets of diff rays (uint8 index) */

_Static_assert(MAP_BUILDINGS <= 64, "building masks are 64-bit");
_Static_assert(VW <= 32, "window rows are 32-bit");
_Static_assert(MAP_N <= 64 * VISION_WORDS, "a row fits VISION_WORDS words");
_Static_assert(MAP_TILES * VISION_KINDS <= 65536, "source keys are 16-bit");

static const int kind_radius[VISION_KINDS] = {10, 5};
static const int kind_eye[VISION_KINDS] = {14, 12};

typedef struct {
    int32_t tx, tz;            /* source tile (centre) */
    int32_t team;
    int32_t radius, eye;
    int32_t blocker;
    uint64_t mask;             /* buildings on the diff rays */
    uint32_t ray_at;           /* its diff rays' sets from ray_idx[ray_at] */
    uint32_t all[VW], diff[VW];
} VisionBuilding;

typedef struct {
    int32_t radius, eye, rows;
    uint32_t *win;             /* per tile: rows `all` then rows `diff` */
    uint64_t *mask;            /* per tile */
    uint32_t *ray_at;          /* per tile: its diff rays' sets from ray_idx[ray_at] */
} VisionKind;

struct VisionTables {
    int16_t terrain[MAP_TILES];
    uint8_t sblock[MAP_TILES];
    /* buildings covering each tile: cover_list[cover_start[t] .. cover_start[t+1]) */
    int32_t cover_start[MAP_TILES + 1];
    uint8_t cover_list[MAP_BUILDINGS * (MAP_MAX_FOOTPRINT + 1)];
    int32_t building_n;
    VisionBuilding bld[MAP_BUILDINGS];
    /* ray cells per direction (dx, dz), |dx|,|dz| <= VR: n - 1 pairs from
     * ray_start[(dz + VR) * VW + dx + VR] */
    int32_t ray_start[RAY_DIRS];
    int8_t ray_cell[RAY_CELL_CAP][2];
    VisionKind kind[VISION_KINDS];
    /* the buildings on each diff ray, as ray_set[ray_idx[k]] for the k-th
     * diff bit of a window (rows in order, bits low to high); entry 0 is
     * every building, given to the rays met once the other entries are taken
     * (such a ray is always traced) */
    uint64_t ray_set[RAY_SETS];
    int32_t ray_set_n;
    uint8_t *ray_idx;
    VisionShow show[MAP_BUILDINGS];   /* per building (vision.h) */
    size_t bytes;
};

/* ---- ray tracing ------------------------------------------------------ */

static int iabs_(int a) { return a < 0 ? -a : a; }

/* q / n rounded to nearest, ties away from zero (n > 0). */
static int round_div(int q, int n)
{
    int a = iabs_(q);
    int r = (2 * a + n) / (2 * n);
    return q < 0 ? -r : r;
}

static void build_rays(VisionTables *t)
{
    int used = 0;
    for (int dz = -VR; dz <= VR; dz++) {
        for (int dx = -VR; dx <= VR; dx++) {
            int n = iabs_(dx) > iabs_(dz) ? iabs_(dx) : iabs_(dz);
            t->ray_start[(dz + VR) * VW + dx + VR] = used;
            for (int i = 1; i < n; i++) {
                t->ray_cell[used][0] = (int8_t)round_div(dx * i, n);
                t->ray_cell[used][1] = (int8_t)round_div(dz * i, n);
                used++;
            }
        }
    }
}

/* Blocker height of tile c with the buildings of the alive mask, ignoring `skip`. */
static int cell_blocker(const VisionTables *t, int c, uint64_t alive, int skip)
{
    int b = t->sblock[c];
    for (int k = t->cover_start[c]; k < t->cover_start[c + 1]; k++) {
        int bi = t->cover_list[k];
        if (bi != skip && ((alive >> bi) & 1u) && t->bld[bi].blocker > b)
            b = t->bld[bi].blocker;
    }
    return b;
}

/* 1 when the ray from (sx, sz) with ray start height h0 to the tile at offset
 * (dx, dz) is clear (target and intermediate cells inside the map). */
static int ray_clear(const VisionTables *t, int sx, int sz, int h0, int dx, int dz,
                     uint64_t alive, int skip)
{
    int n = iabs_(dx) > iabs_(dz) ? iabs_(dx) : iabs_(dz);
    if (n <= 1)
        return 1;
    int h1 = t->terrain[map_index(sx + dx, sz + dz)] + 3;
    const int8_t (*cell)[2] = &t->ray_cell[t->ray_start[(dz + VR) * VW + dx + VR]];
    for (int i = 1; i < n; i++) {
        int c = map_index(sx + cell[i - 1][0], sz + cell[i - 1][1]);
        int h = t->terrain[c] + cell_blocker(t, c, alive, skip);
        if (h * n >= h0 * (n - i) + h1 * i)
            return 0;
    }
    return 1;
}

/* Build-only scratch of index_rays: the buildings covering each tile as a
 * mask, and a hash of ray_set (value -> index, 0 empty) so that finding a
 * set costs a probe or two, not a walk over up to RAY_SETS entries. */
#define RAY_HASH 1024                          /* power of two, over 2 * RAY_SETS */
_Static_assert(RAY_HASH == 1024 && RAY_HASH >= 2 * RAY_SETS, "ray_set_index hashes to 10 bits");
typedef struct {
    uint64_t cover[MAP_TILES];
    uint16_t slot[RAY_HASH];
} RayScratch;

/* Buildings (other than skip) covering an intermediate cell of the ray. */
static uint64_t ray_buildings(const VisionTables *t, const RayScratch *rs, int sx, int sz, int dx,
                              int dz, int skip)
{
    int n = iabs_(dx) > iabs_(dz) ? iabs_(dx) : iabs_(dz);
    uint64_t m = 0;
    const int8_t (*cell)[2] = &t->ray_cell[t->ray_start[(dz + VR) * VW + dx + VR]];
    for (int i = 1; i < n; i++)
        m |= rs->cover[map_index(sx + cell[i - 1][0], sz + cell[i - 1][1])];
    return skip >= 0 ? m & ~((uint64_t)1 << skip) : m;
}

/* Build-time trace of one ray against two height grids at once (terrain +
 * blockers with no building / every building standing, hall >= hnone):
 * 0 hidden even with no building, 1 visible only without buildings, 2 visible
 * with all of them. Same rule as ray_clear, with the ray height
 * h0 * (n - i) + h1 * i kept as a running sum and the cells as linear offsets
 * (off: this direction's cells, dz * MAP_N + dx) from the source tile s. */
static int ray_class(const int16_t *hnone, const int16_t *hall, const int16_t *off,
                     int s, int h0, int h1, int n)
{
    int cls = 2;
    int ray = h0 * n;
    for (int i = 1; i < n; i++) {
        ray += h1 - h0;
        int c = s + off[i - 1];
        if (hall[c] * n >= ray) {
            if (hnone[c] * n >= ray)
                return 0;
            cls = 1;
        }
    }
    return cls;
}

/* Fill one window (rows 2r+1) for a source at (sx, sz); hnone / hall are the
 * height grids of ray_class for this source (skip already left out); roff is
 * ray_cell as linear offsets. */
static void build_window(const VisionTables *t, const int16_t *hnone, const int16_t *hall,
                         const int16_t *roff, int sx, int sz, int r, int eye,
                         uint32_t *all, uint32_t *diff)
{
    int s = map_index(sx, sz);
    int h0 = t->terrain[s] + eye;
    for (int dz = -r; dz <= r; dz++) {
        uint32_t a = 0, d = 0;
        int tz = sz + dz;
        if (tz >= 0 && tz < MAP_N) {
            for (int dx = -r; dx <= r; dx++) {
                int tx = sx + dx;
                if (tx < 0 || tx >= MAP_N || dx * dx + dz * dz > r * r)
                    continue;
                int n = iabs_(dx) > iabs_(dz) ? iabs_(dx) : iabs_(dz);
                int cls = n <= 1 ? 2
                          : ray_class(hnone, hall, roff + t->ray_start[(dz + VR) * VW + dx + VR], s, h0,
                                      t->terrain[map_index(tx, tz)] + 3, n);
                if (cls == 0)
                    continue;
                uint32_t bit = (uint32_t)1 << (dx + r);
                if (cls == 2) {
                    a |= bit;
                } else {
                    d |= bit;
                }
            }
        }
        all[dz + r] = a;
        diff[dz + r] = d;
    }
}

static uint8_t ray_set_index(VisionTables *t, RayScratch *rs, uint64_t set)
{
    unsigned h = (unsigned)((set * 0x9E3779B97F4A7C15ull) >> 54);   /* 10 bits: RAY_HASH */
    for (; rs->slot[h]; h = (h + 1) & (RAY_HASH - 1))
        if (t->ray_set[rs->slot[h]] == set)
            return (uint8_t)rs->slot[h];
    if (t->ray_set_n == RAY_SETS)
        return 0;
    rs->slot[h] = (uint16_t)t->ray_set_n;
    t->ray_set[t->ray_set_n] = set;
    return (uint8_t)t->ray_set_n++;
}

/* Record the building set (all but skip) of each diff ray of a window at
 * ray_idx[*at ..] and return their union. */
static uint64_t index_rays(VisionTables *t, RayScratch *rs, int sx, int sz, int r, int skip,
                           const uint32_t *diff, uint32_t *at)
{
    uint64_t mask = 0;
    for (int j = 0; j < 2 * r + 1; j++) {
        for (uint32_t d = diff[j]; d; d &= d - 1) {
            uint64_t set = ray_buildings(t, rs, sx, sz, __builtin_ctz(d) - r, j - r, skip);
            mask |= set;
            t->ray_idx[(*at)++] = ray_set_index(t, rs, set);
        }
    }
    return mask;
}

/* ---- tables ----------------------------------------------------------- */

static int clamp_radius(int r)
{
    return r < 0 ? 0 : (r > VR ? VR : r);
}

static void show_tile(VisionTables *t, int i, int tx, int tz)
{
    VisionShow *s = &t->show[i];
    int k = 0, word = tz * VISION_WORDS + (tx >> 6);
    while (k < s->n && s->word[k] != word)
        k++;
    if (k == s->n) {
        s->n++;
        s->word[k] = (uint16_t)word;
    }
    s->mask[k] |= (uint64_t)1 << (tx & 63);
}

/* The tiles whose sight shows building i (see VisionShow). */
static void build_show(VisionTables *t, int i, const MapBuilding *b)
{
    int64_t ux = (int64_t)b->x + MAP_HALF_WORLD, uz = (int64_t)b->z + MAP_HALF_WORLD;
    const int64_t span = (int64_t)MAP_N * GOTA_TILE;
    if (ux >= 0 && uz >= 0 && ux <= span && uz <= span) {
        int tx = (int)(ux / GOTA_TILE), tz = (int)(uz / GOTA_TILE);
        for (int zz = uz % GOTA_TILE == 0 ? tz - 1 : tz; zz <= tz; zz++)
            for (int xx = ux % GOTA_TILE == 0 ? tx - 1 : tx; xx <= tx; xx++)
                if (map_in_bounds(xx, zz))
                    show_tile(t, i, xx, zz);
    }
    int fn = b->footprint_n < 0 ? 0 : (b->footprint_n > MAP_MAX_FOOTPRINT ? MAP_MAX_FOOTPRINT : b->footprint_n);
    for (int k = 0; k < fn; k++)
        if (b->footprint[k] < MAP_TILES)
            show_tile(t, i, b->footprint[k] % MAP_N, b->footprint[k] / MAP_N);
}

VisionTables *vision_tables_build(const MapData *map)
{
    if (!map || map->building_n < 0 || map->building_n > MAP_BUILDINGS)
        return NULL;
    VisionTables *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->bytes = sizeof *t;
    memcpy(t->terrain, map->height8, sizeof t->terrain);
    memcpy(t->sblock, map->blocker8, sizeof t->sblock);
    build_rays(t);

    /* buildings and the tiles they cover (counting sort by tile) */
    t->building_n = map->building_n;
    int32_t count[MAP_TILES + 1];
    memset(count, 0, sizeof count);
    for (int i = 0; i < t->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        VisionBuilding *vb = &t->bld[i];
        vb->tx = map_tile_of(b->x);
        vb->tz = map_tile_of(b->z);
        if (!map_in_bounds(vb->tx, vb->tz)) {   /* off-map building: no sight */
            vb->tx = vb->tz = -1;
        }
        vb->team = b->team;
        vb->radius = clamp_radius(b->sight_tiles);
        vb->eye = b->eye8;
        vb->blocker = b->blocker8 < 0 ? 0 : (b->blocker8 > 255 ? 255 : b->blocker8);
        int fn = b->footprint_n < 0 ? 0 : (b->footprint_n > MAP_MAX_FOOTPRINT ? MAP_MAX_FOOTPRINT : b->footprint_n);
        if (fn == 0) {
            if (vb->tx >= 0)
                count[map_index(vb->tx, vb->tz) + 1]++;
        } else {
            for (int k = 0; k < fn; k++)
                if (b->footprint[k] < MAP_TILES)
                    count[b->footprint[k] + 1]++;
        }
    }
    for (int c = 0; c < MAP_TILES; c++)
        count[c + 1] += count[c];
    memcpy(t->cover_start, count, sizeof t->cover_start);
    for (int i = 0; i < t->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        int fn = b->footprint_n < 0 ? 0 : (b->footprint_n > MAP_MAX_FOOTPRINT ? MAP_MAX_FOOTPRINT : b->footprint_n);
        if (fn == 0) {
            if (t->bld[i].tx >= 0)
                t->cover_list[count[map_index(t->bld[i].tx, t->bld[i].tz)]++] = (uint8_t)i;
        } else {
            for (int k = 0; k < fn; k++)
                if (b->footprint[k] < MAP_TILES)
                    t->cover_list[count[b->footprint[k]]++] = (uint8_t)i;
        }
    }

    for (int i = 0; i < t->building_n; i++)
        build_show(t, i, &map->building[i]);

    /* build-only height grids: terrain + blockers with none / all standing,
     * and the ray cells as linear tile offsets */
    int16_t *hnone = malloc((3u * MAP_TILES + RAY_CELL_CAP) * sizeof *hnone);
    if (!hnone) {
        vision_tables_free(t);
        return NULL;
    }
    int16_t *hall = hnone + MAP_TILES, *hown = hnone + 2 * MAP_TILES, *roff = hnone + 3 * MAP_TILES;
    for (int k = 0; k < RAY_CELL_CAP; k++)
        roff[k] = (int16_t)map_index(t->ray_cell[k][0], t->ray_cell[k][1]);
    const uint64_t alive_all = ~(uint64_t)0;
    for (int c = 0; c < MAP_TILES; c++) {
        hnone[c] = (int16_t)(t->terrain[c] + t->sblock[c]);
        hall[c] = (int16_t)(t->terrain[c] + cell_blocker(t, c, alive_all, -1));
    }

    for (int i = 0; i < t->building_n; i++) {
        VisionBuilding *vb = &t->bld[i];
        if (vb->tx < 0)
            continue;
        for (int c = 0; c < MAP_TILES; c++)   /* all standing but itself */
            hown[c] = t->cover_start[c] == t->cover_start[c + 1] ? hall[c]
                      : (int16_t)(t->terrain[c] + cell_blocker(t, c, alive_all, i));
        build_window(t, hnone, hown, roff, vb->tx, vb->tz, vb->radius, vb->eye, vb->all, vb->diff);
    }

    for (int k = 0; k < VISION_KINDS; k++) {
        VisionKind *vk = &t->kind[k];
        vk->radius = kind_radius[k];
        vk->eye = kind_eye[k];
        vk->rows = 2 * vk->radius + 1;
        vk->win = malloc((size_t)MAP_TILES * 2u * (size_t)vk->rows * sizeof *vk->win);
        vk->mask = malloc((size_t)MAP_TILES * sizeof *vk->mask);
        vk->ray_at = malloc((size_t)MAP_TILES * sizeof *vk->ray_at);
        if (!vk->win || !vk->mask || !vk->ray_at) {
            free(hnone);
            vision_tables_free(t);
            return NULL;
        }
        t->bytes += (size_t)MAP_TILES * (2u * (size_t)vk->rows * sizeof *vk->win + sizeof *vk->mask
                                         + sizeof *vk->ray_at);
        for (int s = 0; s < MAP_TILES; s++) {
            uint32_t *w = vk->win + (size_t)s * 2u * (size_t)vk->rows;
            build_window(t, hnone, hall, roff, s % MAP_N, s / MAP_N, vk->radius, vk->eye,
                         w, w + vk->rows);
        }
    }
    free(hnone);

    /* the building sets of the diff rays, and each window's mask (their union) */
    size_t rays = 0;
    for (int i = 0; i < t->building_n; i++)
        for (int j = 0; t->bld[i].tx >= 0 && j < 2 * t->bld[i].radius + 1; j++)
            rays += (size_t)__builtin_popcount(t->bld[i].diff[j]);
    for (int k = 0; k < VISION_KINDS; k++) {
        const VisionKind *vk = &t->kind[k];
        for (int s = 0; s < MAP_TILES; s++)
            for (int j = 0; j < vk->rows; j++)
                rays += (size_t)__builtin_popcount(vk->win[((size_t)s * 2u + 1u) * (size_t)vk->rows + (size_t)j]);
    }
    t->ray_idx = malloc(rays ? rays : 1);
    if (!t->ray_idx) {
        vision_tables_free(t);
        return NULL;
    }
    t->bytes += rays;
    RayScratch *rs = calloc(1, sizeof *rs);
    if (!rs) {
        vision_tables_free(t);
        return NULL;
    }
    for (int c = 0; c < MAP_TILES; c++)
        for (int k = t->cover_start[c]; k < t->cover_start[c + 1]; k++)
            rs->cover[c] |= (uint64_t)1 << t->cover_list[k];
    t->ray_set[0] = ~(uint64_t)0;
    t->ray_set_n = 1;
    uint32_t at = 0;
    for (int i = 0; i < t->building_n; i++) {
        VisionBuilding *vb = &t->bld[i];
        if (vb->tx < 0)
            continue;
        vb->ray_at = at;
        vb->mask = index_rays(t, rs, vb->tx, vb->tz, vb->radius, i, vb->diff, &at);
    }
    for (int k = 0; k < VISION_KINDS; k++) {
        VisionKind *vk = &t->kind[k];
        for (int s = 0; s < MAP_TILES; s++) {
            vk->ray_at[s] = at;
            vk->mask[s] = index_rays(t, rs, s % MAP_N, s / MAP_N, vk->radius, -1,
                                     vk->win + ((size_t)s * 2u + 1u) * (size_t)vk->rows, &at);
        }
    }
    free(rs);
    return t;
}

void vision_tables_free(VisionTables *t)
{
    if (!t)
        return;
    for (int k = 0; k < VISION_KINDS; k++) {
        free(t->kind[k].win);
        free(t->kind[k].mask);
        free(t->kind[k].ray_at);
    }
    free(t->ray_idx);
    free(t);
}

size_t vision_tables_bytes(const VisionTables *t)
{
    return t ? t->bytes : 0;
}

static pthread_once_t g_tables_once = PTHREAD_ONCE_INIT;
static const VisionTables *g_tables;

static void build_shared_tables(void)
{
    g_tables = vision_tables_build(map_get());
}

const VisionTables *vision_tables_get(void)
{
    pthread_once(&g_tables_once, build_shared_tables);
    return g_tables;
}

/* ---- run time --------------------------------------------------------- */

void vision_init(Vision *v, const VisionTables *tables)
{
    memset(v, 0, sizeof *v);
    v->tables = tables;
    if (tables) {
        v->show = tables->show;
        v->building_n = tables->building_n;
    }
}

/* The buildings alive now and those fallen (bit i: MapData.building[i]). */
typedef struct {
    uint64_t alive_mask, dead_mask;
} Live;

/* One window of the tables and where it stands (skip = the source building,
 * -1 for units). */
typedef struct {
    int sx, sz, r, eye, skip;
    const uint32_t *all, *diff;
    uint64_t mask;
    const uint8_t *ray_idx;
} Window;

static Window unit_window(const VisionTables *t, int key)
{
    int tile = key / VISION_KINDS;
    const VisionKind *vk = &t->kind[key % VISION_KINDS];
    const uint32_t *w = vk->win + (size_t)tile * 2u * (size_t)vk->rows;
    return (Window){tile % MAP_N, tile / MAP_N, vk->radius, vk->eye, -1, w, w + vk->rows,
                    vk->mask[tile], t->ray_idx + vk->ray_at[tile]};
}

static Window building_window(const VisionTables *t, int i)
{
    const VisionBuilding *vb = &t->bld[i];
    return (Window){vb->tx, vb->tz, vb->radius, vb->eye, i, vb->all, vb->diff, vb->mask,
                    t->ray_idx + vb->ray_at};
}

/* The window's rows j0..j1 with its diff bits resolved for the buildings
 * alive now: `all` itself when every building on a diff ray stands, else
 * `out`. */
static const uint32_t *resolve_window(const VisionTables *t, const Live *live, const Window *w,
                                      int j0, int j1, uint32_t *out)
{
    if ((w->mask & live->dead_mask) == 0)
        return w->all;
    if ((w->mask & live->alive_mask) == 0) {    /* all of them fell: every diff bit is clear */
        for (int j = j0; j <= j1; j++)
            out[j] = w->all[j] | w->diff[j];
        return out;
    }
    /* the same per diff ray; trace the mixed ones */
    const uint8_t *ray_idx = w->ray_idx;
    for (int j = 0; j < j0; j++)     /* the sets of the rows above j0 */
        ray_idx += __builtin_popcount(w->diff[j]);
    int h0 = t->terrain[map_index(w->sx, w->sz)] + w->eye;
    for (int j = j0; j <= j1; j++) {    /* rows off the map hold no diff bits */
        out[j] = w->all[j];
        for (uint32_t d = w->diff[j]; d; d &= d - 1) {
            uint64_t set = t->ray_set[*ray_idx++];
            int b = __builtin_ctz(d);
            if ((set & live->dead_mask) != 0 &&
                ((set & live->alive_mask) == 0 ||
                 ray_clear(t, w->sx, w->sz, h0, b - w->r, j - w->r, live->alive_mask, w->skip)))
                out[j] |= (uint32_t)1 << b;
        }
    }
    return out;
}

/* The window's rows on the map: j0..j1 of 0..2r. */
static void window_rows(const Window *w, int *j0, int *j1)
{
    *j0 = w->sz - w->r < 0 ? w->r - w->sz : 0;
    *j1 = w->sz + w->r >= MAP_N ? MAP_N - 1 - w->sz + w->r : 2 * w->r;
}

/* OR n window rows of `width` bits into grid rows g[0..n), window bit b on
 * column c0 + b of the 116-bit row (columns off the map are never set in a
 * window). One loop per placement keeps each to a load, a shift and an OR
 * or two per row. */
static inline void or_rows(uint64_t (*g)[VISION_WORDS], const uint32_t *bits, int n, int c0,
                           int width)
{
    if (c0 < 0) {                       /* left edge: all in word 0 */
        int sh = -c0;
        for (int k = 0; k < n; k++)
            g[k][0] |= (uint64_t)bits[k] >> sh;
    } else if (c0 >= 64 || c0 + width <= 64) {  /* inside one word */
        int wd = c0 >> 6, sh = c0 & 63;
        for (int k = 0; k < n; k++)
            g[k][wd] |= (uint64_t)bits[k] << sh;
    } else {                            /* across columns 63 | 64 (0 < c0 < 64) */
        int sh = c0;
        for (int k = 0; k < n; k++) {
            g[k][0] |= (uint64_t)bits[k] << sh;
            g[k][1] |= (uint64_t)bits[k] >> (64 - sh);
        }
    }
}

/* OR one window's rows that fall on grid rows zlo..zhi into a team grid. */
static void apply_window(const VisionTables *t, const Live *live, const Window *w,
                         uint64_t (*grid)[VISION_WORDS], int zlo, int zhi)
{
    int j0, j1, top = w->sz - w->r;
    window_rows(w, &j0, &j1);
    j0 = zlo - top > j0 ? zlo - top : j0;
    j1 = zhi - top < j1 ? zhi - top : j1;
    if (j0 > j1)
        return;
    uint32_t resolved[VW];
    const uint32_t *bits = resolve_window(t, live, w, j0, j1, resolved) + j0;
    or_rows(&grid[top + j0], bits, j1 - j0 + 1, w->sx - w->r, 2 * w->r + 1);
}

/* The unit sources that went away or came between old[0..on) and
 * cur[0..cn), as multisets, into changed[]; returns how many. A walk over
 * both lists in order (the caller's order barely changes from one update to
 * the next) pairs most of them, then equal keys among the rest cancel. */
static int source_changes(const uint16_t *old, int on, const uint16_t *cur, int cn,
                          uint16_t *changed)
{
    uint16_t came[VISION_KEPT_SOURCES];
    int gn = 0, an = 0, i = 0, j = 0;
    while (i < on || j < cn) {
        if (i + 4 <= on && j + 4 <= cn && memcmp(old + i, cur + j, 4 * sizeof *cur) == 0) {
            i += 4, j += 4;             /* a run of four in place: one compare */
        } else if (i < on && j < cn && old[i] == cur[j]) {
            i++, j++;
        } else if (i + 1 < on && j < cn && old[i + 1] == cur[j]) {
            changed[gn++] = old[i++];
        } else if (j + 1 < cn && i < on && old[i] == cur[j + 1]) {
            came[an++] = cur[j++];
        } else {
            if (i < on)
                changed[gn++] = old[i++];
            if (j < cn)
                came[an++] = cur[j++];
        }
    }
    int n = gn;
    for (int a = 0; a < an; a++) {
        int g = 0;
        while (g < gn && changed[g] != came[a])
            g++;
        if (g < gn) {                   /* only its place in the list changed */
            changed[g] = changed[--gn];
            changed[gn] = changed[--n];
        } else {
            changed[n++] = came[a];
        }
    }
    return n;
}

/* Bit i set when building_alive[i] != 0 (all bn set for NULL). Eight flags
 * at a time: each byte's "nonzero" lands on its top bit, and one multiply
 * gathers the eight top bits into the top byte. */
static uint64_t alive_bits(const uint8_t *building_alive, int bn)
{
    if (!building_alive)
        return bn == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bn) - 1);
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, hi = 0x8080808080808080ull;
    uint64_t mask = 0;
    int i = 0;
    for (; i + 8 <= bn; i += 8) {
        const uint8_t *a = building_alive + i;   /* byte k at bits 8k (one load on x86) */
        uint64_t x = (uint64_t)a[0] | (uint64_t)a[1] << 8 | (uint64_t)a[2] << 16 |
                     (uint64_t)a[3] << 24 | (uint64_t)a[4] << 32 | (uint64_t)a[5] << 40 |
                     (uint64_t)a[6] << 48 | (uint64_t)a[7] << 56;
        uint64_t nz = (((x & lo7) + lo7) | x) & hi;
        mask |= ((nz >> 7) * 0x0102040810204080ull >> 56) << i;
    }
    for (; i < bn; i++)
        if (building_alive[i])
            mask |= (uint64_t)1 << i;
    return mask;
}

/* A source's key; -1 for an out-of-range tile or kind (ignored). */
static int source_key(const VisionSource *s)
{
    int tile = s->tile, k = s->kind;
    return tile < 0 || tile >= MAP_TILES || k < 0 || k >= VISION_KINDS ? -1 : vision_key(tile, k);
}

/* The update for the sources cur[0..cn) (keys, every source valid), all of
 * them there when cn <= VISION_KEPT_SOURCES. More are ORed from src[0..n)
 * (VisionSource, the invalid ones skipped) when src is given, else from
 * cur. */
static void update_grid(Vision *v, int team, const uint16_t *cur, int cn, const VisionSource *src,
                        int n, const uint8_t *building_alive)
{
    const VisionTables *t = v->tables;
    int bn = t ? t->building_n : 0;
    uint64_t alive_mask = alive_bits(building_alive, bn);

    uint64_t (*grid)[VISION_WORDS] = v->grid[team];
    if (!t) {
        memset(grid, 0, sizeof v->grid[team]);
        v->src_n[team] = -1;
        return;
    }
    uint64_t all_bits = bn == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bn) - 1);
    Live live = {alive_mask, all_bits & ~alive_mask};

    /* the buildings' part (OR is order-free, so it can be laid down first) */
    uint64_t (*bgrid)[VISION_WORDS] = v->bgrid[team];
    int full = v->src_n[team] < 0;
    if (v->btables[team] != t || v->balive[team] != alive_mask) {
        memset(bgrid, 0, sizeof v->bgrid[team]);
        for (int i = 0; i < bn; i++) {
            if (((alive_mask >> i) & 1u) && t->bld[i].team == team && t->bld[i].tx >= 0) {
                Window w = building_window(t, i);
                apply_window(t, &live, &w, bgrid, 0, MAP_N - 1);
            }
        }
        v->btables[team] = t;
        v->balive[team] = alive_mask;
        full = 1;
    }

    if (cn > VISION_KEPT_SOURCES) {     /* too many to keep: OR them all */
        memcpy(grid, bgrid, sizeof v->grid[team]);
        for (int i = 0; i < (src ? n : cn); i++) {
            int key = src ? source_key(&src[i]) : cur[i];
            if (key >= 0) {
                Window w = unit_window(t, key);
                apply_window(t, &live, &w, grid, 0, MAP_N - 1);
            }
        }
        v->src_n[team] = -1;
        return;
    }
    if (full) {
        memcpy(grid, bgrid, sizeof v->grid[team]);
        for (int i = 0; i < cn; i++) {
            Window w = unit_window(t, cur[i]);
            apply_window(t, &live, &w, grid, 0, MAP_N - 1);
        }
    } else {
        /* Only tiles under a window that went or came can change: their
         * boxes start over from the buildings' grid, then every window that
         * overlaps a box is ORed again in the rows of the boxes it meets
         * (elsewhere it adds nothing new). A box is merged into an earlier
         * one when their bounding box is no bigger than the two (a source
         * that moved a tile gives two nearly equal boxes): fewer boxes to
         * test each source against, and no more rows to redo. */
        uint16_t changed[2 * VISION_KEPT_SOURCES];
        int box[2 * VISION_KEPT_SOURCES][4];    /* x0, x1, z0, z1 on the map */
        int ch = source_changes(v->src_key[team], v->src_n[team], cur, cn, changed), nb = 0;
        for (int c = 0; c < ch; c++) {
            int tile = changed[c] / VISION_KINDS, r = t->kind[changed[c] % VISION_KINDS].radius;
            int sx = tile % MAP_N, sz = tile / MAP_N;
            int x0 = sx - r < 0 ? 0 : sx - r, x1 = sx + r >= MAP_N ? MAP_N - 1 : sx + r;
            int z0 = sz - r < 0 ? 0 : sz - r, z1 = sz + r >= MAP_N ? MAP_N - 1 : sz + r;
            int area = (x1 - x0 + 1) * (z1 - z0 + 1), q = nb - 1;
            for (; q >= 0 && q >= nb - 8; q--) {   /* the last few boxes only: bounded work */
                int ux0 = x0 < box[q][0] ? x0 : box[q][0], ux1 = x1 > box[q][1] ? x1 : box[q][1];
                int uz0 = z0 < box[q][2] ? z0 : box[q][2], uz1 = z1 > box[q][3] ? z1 : box[q][3];
                int qa = (box[q][1] - box[q][0] + 1) * (box[q][3] - box[q][2] + 1);
                if ((ux1 - ux0 + 1) * (uz1 - uz0 + 1) <= area + qa) {
                    box[q][0] = ux0, box[q][1] = ux1, box[q][2] = uz0, box[q][3] = uz1;
                    break;
                }
            }
            if (q < 0 || q < nb - 8) {
                box[nb][0] = x0, box[nb][1] = x1, box[nb][2] = z0, box[nb][3] = z1;
                nb++;
            }
        }
        /* each box grown by each kind's radius: a source meets box c when
         * its tile lies in its kind's grown box (one unsigned compare a side) */
        struct { int x0, z0; unsigned w, h; } grown[VISION_KINDS][2 * VISION_KEPT_SOURCES];
        for (int k = 0; k < VISION_KINDS; k++) {
            int r = t->kind[k].radius;
            for (int c = 0; c < nb; c++) {
                grown[k][c].x0 = box[c][0] - r, grown[k][c].z0 = box[c][2] - r;
                grown[k][c].w = (unsigned)(box[c][1] - box[c][0] + 2 * r);
                grown[k][c].h = (unsigned)(box[c][3] - box[c][2] + 2 * r);
            }
        }
        for (int c = 0; c < nb; c++) {
            int x0 = box[c][0], x1 = box[c][1];
            uint64_t cols[VISION_WORDS];
            for (int k = 0; k < VISION_WORDS; k++) {
                int a = x0 > 64 * k ? x0 - 64 * k : 0, b = x1 < 64 * k + 63 ? x1 - 64 * k : 63;
                cols[k] = a > b ? 0 : (~(uint64_t)0 >> (63 - b)) & (~(uint64_t)0 << a);
            }
            for (int z = box[c][2]; z <= box[c][3]; z++)
                for (int k = 0; k < VISION_WORDS; k++)
                    grid[z][k] = (grid[z][k] & ~cols[k]) | (bgrid[z][k] & cols[k]);
        }
        for (int i = 0; nb && i < cn; i++) {
            int tile = cur[i] / VISION_KINDS, kind = cur[i] % VISION_KINDS, r = t->kind[kind].radius;
            int sx = tile % MAP_N, sz = tile / MAP_N, zlo = MAP_N, zhi = -1;
            for (int c = 0; c < nb; c++) {
                if ((unsigned)(sx - grown[kind][c].x0) <= grown[kind][c].w &&
                    (unsigned)(sz - grown[kind][c].z0) <= grown[kind][c].h) {
                    zlo = box[c][2] < zlo ? box[c][2] : zlo;
                    zhi = box[c][3] > zhi ? box[c][3] : zhi;
                }
            }
            if (zhi < 0)
                continue;
            const VisionKind *vk = &t->kind[kind];
            if ((vk->mask[tile] & live.dead_mask) == 0) {   /* the usual case: rows `all` as they are */
                int top = sz - r, j0 = zlo - top > 0 ? zlo - top : 0;
                int j1 = zhi - top < 2 * r ? zhi - top : 2 * r;   /* boxes lie on the map */
                const uint32_t *all = vk->win + (size_t)tile * 2u * (size_t)vk->rows;
                or_rows(&grid[top + j0], all + j0, j1 - j0 + 1, sx - r, 2 * r + 1);
            } else {
                Window w = unit_window(t, cur[i]);
                apply_window(t, &live, &w, grid, zlo, zhi);
            }
        }
    }
    memcpy(v->src_key[team], cur, (size_t)cn * sizeof *cur);
    v->src_n[team] = cn;
}

void vision_update_keys(Vision *v, int team, const uint16_t *key, int n,
                        const uint8_t *building_alive)
{
    if (team < 0 || team > 1)
        return;
    update_grid(v, team, key, n < 0 || !key ? 0 : n, NULL, 0, building_alive);
}

void vision_update(Vision *v, int team, const VisionSource *src, int n,
                   const uint8_t *building_alive)
{
    if (team < 0 || team > 1)
        return;
    if (n < 0 || !src)
        n = 0;
    /* the valid sources as keys, all of them counted in cn */
    uint16_t cur[VISION_KEPT_SOURCES];
    int cn = 0;
    for (int i = 0; i < n; i++) {
        int key = source_key(&src[i]);
        if (key < 0)
            continue;
        if (cn < VISION_KEPT_SOURCES)
            cur[cn] = (uint16_t)key;
        cn++;
    }
    update_grid(v, team, cur, cn, src, n, building_alive);
}

unsigned vision_point_teams_slow(const Vision *v, int32_t x, int32_t z)
{
    int64_t ux = (int64_t)x + MAP_HALF_WORLD, uz = (int64_t)z + MAP_HALF_WORLD;
    const int64_t span = (int64_t)MAP_N * GOTA_TILE;
    if (ux < 0 || uz < 0 || ux > span || uz > span)
        return 0;
    uint32_t X = (uint32_t)ux, Z = (uint32_t)uz;      /* 0..span: 32-bit division */
    int tx = (int)(X / GOTA_TILE), tz = (int)(Z / GOTA_TILE);
    int tx0 = (X % GOTA_TILE == 0) ? tx - 1 : tx;   /* on an edge: both sides */
    int tz0 = (Z % GOTA_TILE == 0) ? tz - 1 : tz;
    unsigned seen = 0;
    for (int zz = tz0; zz <= tz; zz++)
        for (int xx = tx0; xx <= tx; xx++)
            if (map_in_bounds(xx, zz))
                seen |= (unsigned)vision_tile(v, 0, xx, zz) | (unsigned)vision_tile(v, 1, xx, zz) << 1;
    return seen;
}
