/*
 * collide.c -- body collision (docs/rules.md section 6): the relaxation
 * passes that push overlapping bodies apart, never through walls (a step is
 * allowed when nav_move_ok says so).
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
 * Ownership: the pair lists live in the match's Nav and are only touched by
 * that match's thread. MapData is shared and read-only. No global mutable
 * state, no allocation, integer arithmetic only.
 */
#include "collide.h"
#include <string.h>
#include "nav.h"
#include "fixmath.h"

_Static_assert(NAV_MAX_BODIES < 32767, "collision lists are int16");

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
    if (!nav_move_ok(nav, map, b->x, b->z, nx, nz)) return 0;
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
    int ok_a = stay_a || nav_move_ok(nav, map, a->x, a->z, na_x, na_z);
    int ok_b = stay_b || nav_move_ok(nav, map, b->x, b->z, nb_x, nb_z);
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
 * x stays on the body's tile, which is not on the map's edge (so nav_move_ok
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
