/* test_nav.c -- navigation: segment tests, A*, string pulling, the path cache,
 * footprints, steering and collision, all on synthetic maps built here (the
 * real map is not needed). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim/nav.h"
#include "sim/collide.h"
#include "sim/fixmath.h"
#include "check.h"

/* ---- synthetic maps ------------------------------------------------------ */

static MapData *field(void)
{
    MapData *m = calloc(1, sizeof *m);
    if (!m) { fprintf(stderr, "out of memory\n"); exit(2); }
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            int t = map_index(tx, tz);
            m->walkable[t] = 1;
            m->edges[t] = (uint8_t)((tx + 1 < MAP_N ? MAP_EDGE_E : 0) | (tz + 1 < MAP_N ? MAP_EDGE_S : 0));
        }
    return m;
}

static Nav *new_nav(void)
{
    Nav *n = calloc(1, sizeof *n);
    if (!n) { fprintf(stderr, "out of memory\n"); exit(2); }
    nav_init(n);
    return n;
}

static void wall(MapData *m, int tx, int tz) { m->walkable[map_index(tx, tz)] = 0; }
static int32_t C(int t) { return map_tile_centre(t); }
static int32_t E(int t) { return (t - MAP_N / 2) * GOTA_TILE; }   /* low edge of tile t */

/* wall along column `col` over all rows except the listed gap rows */
static void wall_column(MapData *m, int col, const int *gaps, int ngaps)
{
    for (int tz = 0; tz < MAP_N; tz++) {
        int gap = 0;
        for (int k = 0; k < ngaps; k++) gap |= gaps[k] == tz;
        if (!gap) wall(m, col, tz);
    }
}

/* every leg from the start through each waypoint is a clear line */
static int path_clear(const Nav *nav, const MapData *m, int32_t sx, int32_t sz, const NavPath *p)
{
    int32_t x = sx, z = sz;
    for (int i = 0; i < p->n; i++) {
        if (!nav_line_clear(nav, m, x, z, p->x[i], p->z[i])) return 0;
        x = p->x[i]; z = p->z[i];
    }
    return 1;
}

/* the row at which the path crosses column `col` (sampled; -1 if it doesn't) */
static int crossing_row(int32_t sx, int32_t sz, const NavPath *p, int col)
{
    int32_t x = sx, z = sz;
    for (int i = 0; i < p->n; i++) {
        for (int k = 0; k <= 4096; k++) {
            int64_t px = x + ((int64_t)p->x[i] - x) * k / 4096;
            int64_t pz = z + ((int64_t)p->z[i] - z) * k / 4096;
            if (map_tile_of((int32_t)px) == col) return map_tile_of((int32_t)pz);
        }
        x = p->x[i]; z = p->z[i];
    }
    return -1;
}

static int same_path(const NavPath *a, const NavPath *b)
{
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (a->x[i] != b->x[i] || a->z[i] != b->z[i]) return 0;
    return 1;
}

static void print_path(const char *what, const NavPath *p)
{
    printf("  %s: n=%d", what, p->n);
    for (int i = 0; i < p->n; i++)
        printf(" (%d,%d)", map_tile_of(p->x[i]), map_tile_of(p->z[i]));
    printf("\n");
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static uint32_t lcg_state = 12345;
static uint32_t lcg(void) { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state >> 8; }

/* ---- tests --------------------------------------------------------------- */

static void test_line_clear(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    /* open field */
    CHECK(nav_line_clear(nav, m, C(10), C(10), C(90), C(70)));
    CHECK(nav_line_clear(nav, m, C(10), C(10), C(10), C(10)));
    /* outside the map */
    CHECK(!nav_line_clear(nav, m, C(10), C(10), MAP_HALF_WORLD + 5, C(10)));
    CHECK(!nav_line_clear(nav, m, -MAP_HALF_WORLD - 1, C(10), C(10), C(10)));
    CHECK(nav_line_clear(nav, m, -MAP_HALF_WORLD, C(10), C(10), C(10)));

    /* wall tile (50,50) */
    wall(m, 50, 50);
    CHECK(!nav_line_clear(nav, m, C(45), C(50), C(55), C(50)));
    CHECK(!nav_line_clear(nav, m, C(50), C(50), C(55), C(50)));      /* from inside a wall */
    CHECK(nav_line_clear(nav, m, C(45), C(49), C(55), C(49)));
    /* exact diagonal through the corner (50,50)-(51,51): one side tile is the wall */
    CHECK(!nav_line_clear(nav, m, C(49), C(51), C(51), C(49)));
    CHECK(!nav_line_clear(nav, m, C(49), C(49), C(51), C(51)));      /* through the wall itself */
    /* diagonal through corner point (51,50): tiles (50,49),(51,49),(50,50),(51,50): (50,50) is a wall */
    CHECK(!nav_line_clear(nav, m, C(50), C(49), C(51), C(50)));
    CHECK(!nav_line_clear(nav, m, C(51), C(50), C(50), C(49)));
    CHECK(!nav_line_clear(nav, m, C(51), C(49), C(50), C(50)));
    /* the same corner crossing elsewhere in the open is fine */
    CHECK(nav_line_clear(nav, m, C(60), C(60), C(61), C(61)));
    CHECK(nav_line_clear(nav, m, C(61), C(60), C(60), C(61)));
    /* the wall occupies [E(50), E(51)) in x and z. Lines x + z = const near
     * its corner (E(50), E(50)): clipping it by one unit, through the exact
     * corner point (conservative: blocked), missing it by one unit */
    CHECK(!nav_line_clear(nav, m, E(50) - 30000, E(50) + 30001, E(50) + 30000, E(50) - 29999));
    CHECK(!nav_line_clear(nav, m, E(50) - 30000, E(50) + 30000, E(50) + 30000, E(50) - 30000));
    CHECK(nav_line_clear(nav, m, E(50) - 30000, E(50) + 29999, E(50) + 30000, E(50) - 30001));
    CHECK(nav_line_clear(nav, m, E(50) + 30000, E(50) - 30001, E(50) - 30000, E(50) + 29999));
    /* along the wall's left boundary line x = E(50): points on it belong to
     * column 50 (half-open tiles), so it is blocked; one unit left is clear */
    CHECK(!nav_line_clear(nav, m, E(50), C(45), E(50), C(55)));
    CHECK(nav_line_clear(nav, m, E(50) - 1, C(45), E(50) - 1, C(55)));
    /* along the wall's right boundary x = E(51) is column 51: clear */
    CHECK(nav_line_clear(nav, m, E(51), C(45), E(51), C(55)));

    /* missing link between open tiles (70,70)-(71,70) */
    m->edges[map_index(70, 70)] &= (uint8_t)~MAP_EDGE_E;
    CHECK(!nav_line_clear(nav, m, C(69), C(70), C(72), C(70)));
    CHECK(!nav_line_clear(nav, m, C(72), C(70), C(69), C(70)));
    CHECK(nav_line_clear(nav, m, C(69), C(71), C(72), C(71)));
    /* corner crossing next to a missing link: (70,69)->(71,70) diagonally via corner (71,70) */
    CHECK(!nav_line_clear(nav, m, C(70), C(69), C(71), C(70)));
    CHECK(nav_line_clear(nav, m, C(70), C(71), C(71), C(72)));
    CHECK(!nav_line_clear(nav, m, C(70), C(70), C(71), C(71)));
    /* missing S link (80,80)-(80,81) */
    m->edges[map_index(80, 80)] &= (uint8_t)~MAP_EDGE_S;
    CHECK(!nav_line_clear(nav, m, C(80), C(79), C(80), C(82)));
    CHECK(!nav_line_clear(nav, m, C(79), C(80), C(81), C(81)));

    /* symmetry on a random map */
    MapData *r = field();
    lcg_state = 99;
    for (int i = 0; i < 1500; i++) wall(r, (int)(lcg() % MAP_N), (int)(lcg() % MAP_N));
    for (int i = 0; i < 800; i++) {
        int t = (int)(lcg() % MAP_TILES);
        r->edges[t] &= (uint8_t)~(1u + (lcg() & 1));
    }
    int asym = 0, clear = 0;
    for (int i = 0; i < 20000; i++) {
        int32_t ax = (int32_t)(lcg() % (2u * MAP_HALF_WORLD)) - MAP_HALF_WORLD;
        int32_t az = (int32_t)(lcg() % (2u * MAP_HALF_WORLD)) - MAP_HALF_WORLD;
        int32_t bx = ax + (int32_t)(lcg() % 600000) - 300000;
        int32_t bz = az + (int32_t)(lcg() % 600000) - 300000;
        if (i % 3 == 0) { ax = C(map_tile_of(ax)); az = C(map_tile_of(az)); bx = C(map_tile_of(bx)); bz = C(map_tile_of(bz)); }
        int a = nav_line_clear(nav, r, ax, az, bx, bz), b = nav_line_clear(nav, r, bx, bz, ax, az);
        asym += a != b;
        clear += a;
    }
    CHECK_EQ(asym, 0);
    CHECK(clear > 1000);
    free(r);
    free(m);
    nav_release(nav);
    free(nav);
}

/* A field with `walls` random walls and `cuts` random missing links (lcg). */
static MapData *rough_field(int walls, int cuts)
{
    MapData *m = field();
    for (int i = 0; i < walls; i++) wall(m, (int)(lcg() % MAP_N), (int)(lcg() % MAP_N));
    for (int i = 0; i < cuts; i++) m->edges[lcg() % MAP_TILES] &= (uint8_t)~(1u + (lcg() & 1));
    return m;
}

/* 200 random tiles occupied by footprints, none other (lcg). */
static void scatter_footprints(Nav *nav)
{
    memset(nav->occupied, 0, sizeof nav->occupied);
    for (int k = 0; k < 200; k++) nav->occupied[lcg() % MAP_TILES] = 1;
}

/* nav_line_clear as first written (bounds-checked tile and link reads,
 * crossing products multiplied afresh): the oracle for the walk in nav.c */
static int open_xy_plain(const Nav *nav, const MapData *map, int tx, int tz)
{
    return map_in_bounds(tx, tz) && nav_open(nav, map, map_index(tx, tz));
}

static int link_x_plain(const MapData *map, int tx, int tz, int sx)
{
    int ax = sx > 0 ? tx : tx - 1;
    if (ax < 0 || ax + 1 >= MAP_N || tz < 0 || tz >= MAP_N) return 0;
    return (map->edges[map_index(ax, tz)] & MAP_EDGE_E) != 0;
}

static int link_z_plain(const MapData *map, int tx, int tz, int sz)
{
    int az = sz > 0 ? tz : tz - 1;
    if (az < 0 || az + 1 >= MAP_N || tx < 0 || tx >= MAP_N) return 0;
    return (map->edges[map_index(tx, az)] & MAP_EDGE_S) != 0;
}

static int64_t abs64_plain(int64_t v) { return v < 0 ? -v : v; }

static int line_clear_plain(const Nav *nav, const MapData *map, int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    const int64_t T = GOTA_TILE, W = (int64_t)MAP_N * GOTA_TILE;
    int64_t X0 = (int64_t)x0 + MAP_HALF_WORLD, Z0 = (int64_t)z0 + MAP_HALF_WORLD;
    int64_t X1 = (int64_t)x1 + MAP_HALF_WORLD, Z1 = (int64_t)z1 + MAP_HALF_WORLD;
    if (X0 < 0 || Z0 < 0 || X1 < 0 || Z1 < 0 || X0 >= W || Z0 >= W || X1 >= W || Z1 >= W) return 0;
    int tx = (int)(X0 / T), tz = (int)(Z0 / T);
    int ex = (int)(X1 / T), ez = (int)(Z1 / T);
    if (!open_xy_plain(nav, map, tx, tz)) return 0;
    int64_t dx = X1 - X0, dz = Z1 - Z0;
    int64_t adx = abs64_plain(dx), adz = abs64_plain(dz);
    int sx = dx > 0 ? 1 : -1, sz = dz > 0 ? 1 : -1;
    int nx = ex > tx ? ex - tx : tx - ex;
    int nz = ez > tz ? ez - tz : tz - ez;
    while (nx > 0 || nz > 0) {
        int step;
        if (nz == 0) step = 1;
        else if (nx == 0) step = 2;
        else {
            int64_t bx = sx > 0 ? (int64_t)(tx + 1) * T : (int64_t)tx * T;
            int64_t bz = sz > 0 ? (int64_t)(tz + 1) * T : (int64_t)tz * T;
            int64_t ax = abs64_plain(bx - X0) * adz, az = abs64_plain(bz - Z0) * adx;
            step = ax < az ? 1 : ax > az ? 2 : 3;
        }
        if (step == 1) {
            if (!link_x_plain(map, tx, tz, sx) || !open_xy_plain(nav, map, tx + sx, tz)) return 0;
            tx += sx; nx--;
        } else if (step == 2) {
            if (!link_z_plain(map, tx, tz, sz) || !open_xy_plain(nav, map, tx, tz + sz)) return 0;
            tz += sz; nz--;
        } else {
            if (!open_xy_plain(nav, map, tx + sx, tz) || !open_xy_plain(nav, map, tx, tz + sz) ||
                !open_xy_plain(nav, map, tx + sx, tz + sz)) return 0;
            if (!link_x_plain(map, tx, tz, sx) || !link_z_plain(map, tx + sx, tz, sz)) return 0;
            if (!link_z_plain(map, tx, tz, sz) || !link_x_plain(map, tx, tz + sz, sx)) return 0;
            tx += sx; tz += sz; nx--; nz--;
        }
    }
    return 1;
}

/* nav_line_clear against the plain walk on random maps (walls, missing
 * links, footprints; sparse to dense): random segments of every length,
 * tile-centre ones, ones through exact tile corners, ones along tile edges
 * and ones ending off the map */
static void test_line_clear_reference(void)
{
    Nav *nav = new_nav();
    lcg_state = 4242;
    long differ = 0, clear = 0, n = 0;
    for (int round = 0; round < 6; round++) {
        MapData *m = rough_field(200 + 700 * round, 100 + 400 * round);
        scatter_footprints(nav);
        for (int i = 0; i < 60000; i++, n++) {
            int32_t span = (int32_t)(i % 4 == 0 ? 2 * MAP_HALF_WORLD : (i % 4 == 1 ? 1200000 : 300000));
            int32_t ax = (int32_t)(lcg() % (2u * MAP_HALF_WORLD)) - MAP_HALF_WORLD;
            int32_t az = (int32_t)(lcg() % (2u * MAP_HALF_WORLD)) - MAP_HALF_WORLD;
            int32_t bx = ax + (int32_t)(lcg() % (uint32_t)span) - span / 2;
            int32_t bz = az + (int32_t)(lcg() % (uint32_t)span) - span / 2;
            switch (i % 7) {
            case 0:     /* tile centres */
                ax = C(map_tile_of(ax)); az = C(map_tile_of(az)); bx = C(map_tile_of(bx)); bz = C(map_tile_of(bz));
                break;
            case 1: {   /* through exact corners: a diagonal from a tile corner */
                int k = (int)(lcg() % 20) - 10;
                ax = E(map_tile_of(ax)); az = E(map_tile_of(az));
                bx = ax + k * GOTA_TILE; bz = az + (lcg() & 1 ? k : -k) * GOTA_TILE;
                break;
            }
            case 2: {   /* through corners at other slopes: k:j in whole tiles from a tile corner */
                int k = (int)(lcg() % 9) - 4, j = (int)(lcg() % 9) - 4;
                ax = E(map_tile_of(ax)) + (lcg() & 1 ? 0 : GOTA_TILE / 2); az = E(map_tile_of(az));
                bx = ax + k * GOTA_TILE / 2; bz = az + j * GOTA_TILE;
                break;
            }
            case 3:     /* along a tile edge */
                ax = E(map_tile_of(ax)); bx = ax;
                break;
            default: break;
            }
            int a = nav_line_clear(nav, m, ax, az, bx, bz), b = line_clear_plain(nav, m, ax, az, bx, bz);
            differ += a != b;
            clear += a;
        }
        free(m);
    }
    CHECK_EQ(differ, 0);
    CHECK(clear > n / 10);
    CHECK(clear < n - n / 10);
    nav_release(nav);
    free(nav);
}

/* nav_centres_clear, the walk string pulling takes between tile centres,
 * against the plain walk between the same centres on random maps: pairs at
 * random offsets, on exact diagonals (through tile corners), in one row or
 * column, and at small slopes (the crossing order decides) */
static void test_centres_clear_reference(void)
{
    Nav *nav = new_nav();
    lcg_state = 777;
    long differ = 0, clear = 0, n = 0;
    for (int round = 0; round < 6; round++) {
        MapData *m = rough_field(100 + 500 * round, 100 + 400 * round);
        scatter_footprints(nav);
        for (int i = 0; i < 60000; i++, n++) {
            int ax = (int)(lcg() % MAP_N), az = (int)(lcg() % MAP_N), bx, bz;
            int span = i % 3 == 0 ? MAP_N : 12;
            int kx = (int)(lcg() % (unsigned)(2 * span + 1)) - span, kz = (int)(lcg() % (unsigned)(2 * span + 1)) - span;
            switch (i % 5) {
            case 0: kz = lcg() & 1 ? kx : -kx; break;        /* exact diagonal */
            case 1: if (lcg() & 1) kx = 0; else kz = 0; break;   /* one row or column */
            case 2: kz = kx + (lcg() & 1 ? 1 : -1); break;    /* almost diagonal */
            default: break;
            }
            bx = ax + kx; bz = az + kz;
            if (!map_in_bounds(bx, bz)) { n--; continue; }
            int a = map_index(ax, az), b = map_index(bx, bz);
            int fast = nav_centres_clear(nav, m, a, b);
            int plain = line_clear_plain(nav, m, C(ax), C(az), C(bx), C(bz));
            differ += fast != plain;
            differ += fast != nav_line_clear(nav, m, C(ax), C(az), C(bx), C(bz));
            clear += fast;
        }
        free(m);
    }
    CHECK_EQ(differ, 0);
    CHECK(clear > n / 10);
    CHECK(clear < n - n / 10);
    nav_release(nav);
    free(nav);
}

static void test_shortcut_and_wall(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    NavPath p;
    /* straight line shortcut */
    CHECK_EQ(nav_find_path(nav, m, C(10), C(10), C(40) + 123, C(12) - 77, &p), 1);
    CHECK_EQ(p.x[0], C(40) + 123);
    CHECK_EQ(p.z[0], C(12) - 77);

    /* wall on column 30 with a gap at row 60 */
    int gap = 60;
    wall_column(m, 30, &gap, 1);
    int32_t sx = C(20) + 1000, sz = C(50) - 2000, gx = C(40) - 500, gz = C(50) + 700;
    int n = nav_find_path(nav, m, sx, sz, gx, gz, &p);
    print_path("wall+gap", &p);
    CHECK(n >= 2 && n <= 4);
    CHECK_EQ(p.n, n);
    CHECK_EQ(p.x[n - 1], gx);
    CHECK_EQ(p.z[n - 1], gz);
    CHECK(path_clear(nav, m, sx, sz, &p));
    CHECK_EQ(crossing_row(sx, sz, &p, 30), 60);
    /* the first corner is pulled tight to the gap; waypoints other than the
     * goal are tile centres */
    CHECK(map_tile_of(p.x[0]) >= 29 && map_tile_of(p.x[0]) <= 31);
    CHECK(map_tile_of(p.z[0]) >= 59 && map_tile_of(p.z[0]) <= 61);
    for (int i = 0; i + 1 < n; i++) {
        CHECK_EQ(p.x[i], C(map_tile_of(p.x[i])));
        CHECK_EQ(p.z[i], C(map_tile_of(p.z[i])));
    }
    /* string pulling: no waypoint can be skipped */
    for (int i = 0; i + 1 < n; i++) {
        int32_t px = i ? p.x[i - 1] : sx, pz = i ? p.z[i - 1] : sz;
        CHECK(!nav_line_clear(nav, m, px, pz, p.x[i + 1], p.z[i + 1]));
    }
    /* no waypoint can be dropped: the start cannot see the second waypoint */
    if (n >= 2) CHECK(!nav_line_clear(nav, m, sx, sz, p.x[1], p.z[1]));
    free(m);
    nav_release(nav);
    free(nav);
}

static void test_cliff_ramp(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    /* low ground x < 50, plateau x >= 50 (one level up), cliff between
     * columns 49 and 50 except a ramp at row 80 */
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 50; tx < MAP_N; tx++) m->height8[map_index(tx, tz)] = 8;
    for (int tz = 0; tz < MAP_N; tz++)
        if (tz != 80) m->edges[map_index(49, tz)] &= (uint8_t)~MAP_EDGE_E;
    m->height8[map_index(49, 80)] = 4;   /* ramp tiles half way */
    m->height8[map_index(50, 80)] = 6;
    NavPath p;
    int32_t sx = C(45), sz = C(20), gx = C(55), gz = C(20);
    CHECK(!nav_line_clear(nav, m, sx, sz, gx, gz));
    int n = nav_find_path(nav, m, sx, sz, gx, gz, &p);
    print_path("cliff+ramp", &p);
    CHECK(n >= 2);
    CHECK(path_clear(nav, m, sx, sz, &p));
    CHECK_EQ(crossing_row(sx, sz, &p, 50), 80);
    CHECK_EQ(p.x[n - 1], gx);
    /* without the ramp the plateau is unreachable */
    m->edges[map_index(49, 80)] &= (uint8_t)~MAP_EDGE_E;
    nav_release(nav);
    nav_init(nav);
    CHECK_EQ(nav_find_path(nav, m, sx, sz, gx, gz, &p), 0);
    CHECK_EQ(p.n, 0);
    free(m);
    nav_release(nav);
    free(nav);
}

static void test_costs_and_ties(void)
{
    /* wall column 30, two gaps: row 50 over a hill and row 56 flat; start and
     * goal on row 40, so neither gap is on the straight line */
    MapData *m = field();
    Nav *nav = new_nav();
    int gaps[2] = { 50, 56 };
    wall_column(m, 30, gaps, 2);
    m->height8[map_index(30, 50)] = 60;   /* +240 path units up and down: 480 extra */
    NavPath p;
    int32_t sx = C(20), sz = C(40), gx = C(40), gz = C(40);
    /* via row 50: 40 steps + 480 = 1760; via row 56: 52 steps = 1664 */
    nav_find_path(nav, m, sx, sz, gx, gz, &p);
    print_path("hill 60", &p);
    CHECK_EQ(crossing_row(sx, sz, &p, 30), 56);
    /* a lower hill: 1280 + 64 = 1344 < 1664 */
    m->height8[map_index(30, 50)] = 8;
    nav_release(nav);
    nav_init(nav);
    nav_find_path(nav, m, sx, sz, gx, gz, &p);
    print_path("hill 8", &p);
    CHECK_EQ(crossing_row(sx, sz, &p, 30), 50);
    free(m);

    /* two symmetric gaps: the choice is deterministic */
    m = field();
    sz = gz = C(50);
    int sym[2] = { 46, 54 };
    wall_column(m, 30, sym, 2);
    nav_release(nav);
    nav_init(nav);
    NavPath a, b;
    nav_find_path(nav, m, sx, sz, gx, gz, &a);
    print_path("tie", &a);
    int row = crossing_row(sx, sz, &a, 30);
    CHECK(row == 46 || row == 54);
    for (int i = 0; i < 5; i++) {
        Nav *other = new_nav();
        nav_find_path(other, m, sx, sz, gx, gz, &b);
        CHECK(same_path(&a, &b));
        nav_release(other);
        free(other);
        nav_find_path(nav, m, sx, sz, gx, gz, &b);
        CHECK(same_path(&a, &b));
    }
    free(m);
    nav_release(nav);
    free(nav);
}

static void test_blocked_goal_and_unreachable(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    NavPath p;
    for (int tz = 50; tz <= 52; tz++)
        for (int tx = 50; tx <= 52; tx++) wall(m, tx, tz);
    /* goal in the middle of the block: nearest open at squared distance 4:
     * (51,49) (49,51) (53,51) (51,53); (51,51) lies on blue's half of the map
     * (column not above row, below the centre), where ties take the highest
     * index: (51,53) */
    int n = nav_find_path(nav, m, C(51), C(60), C(51) + 9000, C(51) - 3000, &p);
    CHECK_EQ(n, 1);
    CHECK_EQ(p.x[0], C(51));
    CHECK_EQ(p.z[0], C(53));
    /* from the other side the same target tile is chosen (path goes around) */
    n = nav_find_path(nav, m, C(51), C(40), C(51), C(51), &p);
    CHECK(n >= 2);
    CHECK_EQ(p.x[n - 1], C(51));
    CHECK_EQ(p.z[n - 1], C(53));
    CHECK(path_clear(nav, m, C(51), C(40), &p));
    /* the mirror image: a block around (64,64), on red's half, gives the
     * lowest index, (64,62), the mirror of (51,53) */
    for (int tz = 63; tz <= 65; tz++)
        for (int tx = 63; tx <= 65; tx++) wall(m, tx, tz);
    n = nav_find_path(nav, m, C(64), C(55), C(64), C(64), &p);
    CHECK(n >= 1);
    CHECK_EQ(p.x[n - 1], C(64));
    CHECK_EQ(p.z[n - 1], C(62));

    /* walled-in goal: unreachable */
    MapData *r = field();
    for (int k = 60; k <= 70; k++) { wall(r, k, 60); wall(r, k, 70); wall(r, 60, k); wall(r, 70, k); }
    nav_release(nav);
    nav_init(nav);
    CHECK_EQ(nav_find_path(nav, r, C(20), C(20), C(65), C(65), &p), 0);
    CHECK_EQ(p.n, 0);
    CHECK_EQ(nav_find_path(nav, r, C(20), C(20), C(65), C(65), &p), 0);   /* cached miss too */
    CHECK_EQ(nav_find_path(nav, r, C(65), C(65), C(67), C(62), &p), 1);
    /* nothing open within +-8 of the goal */
    for (int tz = 0; tz < 30; tz++)
        for (int tx = 80; tx < MAP_N; tx++) wall(r, tx, tz);
    CHECK_EQ(nav_find_path(nav, r, C(20), C(20), C(100), C(10), &p), 0);
    free(r);
    free(m);
    nav_release(nav);
    free(nav);
}

static void test_footprint_and_cache(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    NavPath p, q;
    MapBuilding b;
    memset(&b, 0, sizeof b);
    b.footprint_n = 1;
    b.footprint[0] = (uint16_t)map_index(30, 20);

    /* a footprint on the straight line */
    CHECK_EQ(nav_find_path(nav, m, C(20), C(20), C(40), C(20), &p), 1);
    CHECK_EQ(nav->revision, 0);
    nav_set_footprint(nav, &b, 1);
    CHECK_EQ(nav->revision, 1);
    CHECK_EQ(nav->occupied[map_index(30, 20)], 1);
    CHECK(!nav_open(nav, m, map_index(30, 20)));
    int n = nav_find_path(nav, m, C(20), C(20), C(40), C(20), &p);
    CHECK(n >= 2);
    CHECK(path_clear(nav, m, C(20), C(20), &p));
    /* overlapping footprints count */
    nav_set_footprint(nav, &b, 1);
    CHECK_EQ(nav->occupied[map_index(30, 20)], 2);
    nav_set_footprint(nav, &b, 0);
    CHECK_EQ(nav->occupied[map_index(30, 20)], 1);
    CHECK(!nav_open(nav, m, map_index(30, 20)));
    nav_set_footprint(nav, &b, 0);
    CHECK_EQ(nav->revision, 4);
    CHECK(nav_open(nav, m, map_index(30, 20)));
    CHECK_EQ(nav_find_path(nav, m, C(20), C(20), C(40), C(20), &p), 1);

    /* a cached path is not reused across revisions: block the only gap */
    int gap = 60;
    wall_column(m, 30, &gap, 1);
    nav_release(nav);
    nav_init(nav);
    n = nav_find_path(nav, m, C(20), C(50), C(40), C(50), &p);
    CHECK(n >= 2);
    b.footprint[0] = (uint16_t)map_index(30, 60);
    nav_set_footprint(nav, &b, 1);
    CHECK_EQ(nav_find_path(nav, m, C(20), C(50), C(40), C(50), &q), 0);
    nav_set_footprint(nav, &b, 0);
    CHECK_EQ(nav_find_path(nav, m, C(20), C(50), C(40), C(50), &q), n);
    CHECK(same_path(&p, &q));

    /* a unit standing on a footprint can still leave it */
    b.footprint_n = 4;
    b.footprint[0] = (uint16_t)map_index(20, 30);
    b.footprint[1] = (uint16_t)map_index(21, 30);
    b.footprint[2] = (uint16_t)map_index(20, 31);
    b.footprint[3] = (uint16_t)map_index(21, 31);
    nav_set_footprint(nav, &b, 1);
    n = nav_find_path(nav, m, E(21) + 100, E(31) + 100, C(25), C(50), &p);
    print_path("blocked start", &p);
    CHECK(n >= 1);
    CHECK_EQ(p.x[n - 1], C(25));
    CHECK_EQ(p.z[n - 1], C(50));
    nav_set_footprint(nav, &b, 0);
    free(m);
    nav_release(nav);
    free(nav);
}

static void test_cache_transparency(void)
{
    MapData *m = field();
    int gaps[3] = { 20, 60, 95 };
    wall_column(m, 40, gaps, 3);
    wall_column(m, 75, gaps + 1, 1);
    lcg_state = 7;
    for (int i = 0; i < 600; i++) wall(m, (int)(lcg() % MAP_N), (int)(lcg() % MAP_N));
    for (int k = 30; k < 90; k++) m->height8[map_index(k, 50)] = (int16_t)(k % 3 * 4);
    Nav *warm = new_nav(), *cold = new_nav();
    enum { N = 300 };
    static int32_t q[N][4];
    for (int i = 0; i < N; i++) {
        /* starts and goals drawn from a few tiles so the cache gets hits */
        int st = (int)(lcg() % 12), gt = (int)(lcg() % 6);
        q[i][0] = C(5 + st * 3) + (int32_t)(lcg() % 50000) - 25000;
        q[i][1] = C(10 + st * 7) + (int32_t)(lcg() % 50000) - 25000;
        q[i][2] = C(100 + gt) + (int32_t)(lcg() % 50000) - 25000;
        q[i][3] = C(30 + gt * 9) + (int32_t)(lcg() % 50000) - 25000;
    }
    int diff = 0, found = 0, clear_bad = 0;
    NavPath a, b;
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < N; i++) {
            nav_find_path(warm, m, q[i][0], q[i][1], q[i][2], q[i][3], &a);
            nav_release(cold);
            nav_init(cold);
            nav_find_path(cold, m, q[i][0], q[i][1], q[i][2], q[i][3], &b);
            diff += !same_path(&a, &b);
            found += a.n > 0;
            if (a.n > 0 && a.n < NAV_MAX_PATH && !path_clear(warm, m, q[i][0], q[i][1], &a)) clear_bad++;
        }
    CHECK_EQ(diff, 0);
    CHECK(found > N);
    /* start tile walls can make a leg unclear only from a blocked start */
    CHECK_EQ(clear_bad, 0);
    int used = 0;
    for (int i = 0; i < NAV_CACHE_SIZE; i++) used += warm->cache[i].start >= 0;
    printf("  cache transparency: %d queries, %d found, %d cache entries\n", 2 * N, found, used);
    free(m);
    nav_release(warm);
    nav_release(cold);
    free(warm);
    free(cold);
}

/* Cached paths carried across footprint changes (nav_set_footprint keeps
 * those whose computation read no tile of the footprint): every answer of a
 * warm nav, through many changes, equals a cold nav's at the same occupancy.
 * Footprints land on and beside the searched region, so both kinds occur. */
static void test_cache_carry(void)
{
    MapData *m = field();
    int gaps[3] = { 20, 60, 95 };
    wall_column(m, 40, gaps, 3);
    wall_column(m, 75, gaps + 1, 1);
    lcg_state = 31;
    for (int i = 0; i < 500; i++) wall(m, (int)(lcg() % MAP_N), (int)(lcg() % MAP_N));
    for (int i = 0; i < 300; i++) m->edges[lcg() % MAP_TILES] &= (uint8_t)~(1u + (lcg() & 1));
    Nav *warm = new_nav(), *cold = new_nav();
    enum { NB = 24, NQ = 40 };
    MapBuilding b[NB];
    int alive[NB];
    memset(b, 0, sizeof b);
    for (int k = 0; k < NB; k++) {
        /* 1x1 to 3x2 blocks, many around the gaps and the lanes between starts and goals */
        int w = 1 + (int)(lcg() % 3), h = 1 + (int)(lcg() % 2);
        int bx = k % 3 == 0 ? 38 + (int)(lcg() % 5) : 2 + (int)(lcg() % (MAP_N - 6));
        int bz = k % 3 == 0 ? gaps[lcg() % 3] - 1 : 2 + (int)(lcg() % (MAP_N - 6));
        b[k].footprint_n = w * h;
        for (int i = 0; i < w * h; i++) b[k].footprint[i] = (uint16_t)map_index(bx + i % w, bz + i / w);
        alive[k] = 0;
    }
    static int32_t q[NQ][4];
    for (int i = 0; i < NQ; i++) {
        int st = (int)(lcg() % 10), gt = (int)(lcg() % 5);
        q[i][0] = C(5 + st * 3) + (int32_t)(lcg() % 50000) - 25000;
        q[i][1] = C(10 + st * 9) + (int32_t)(lcg() % 50000) - 25000;
        q[i][2] = C(100 + gt * 2) + (int32_t)(lcg() % 50000) - 25000;
        q[i][3] = C(10 + gt * 20) + (int32_t)(lcg() % 50000) - 25000;
    }
    int diff = 0, found = 0, carried = 0, dropped = 0;
    NavPath pa, pb;
    for (int round = 0; round < 60; round++) {
        int k = (int)(lcg() % NB);
        alive[k] = !alive[k];
        int before = 0;
        for (int i = 0; i < NAV_CACHE_SIZE; i++) before += warm->cache[i].start >= 0 && warm->cache[i].revision == warm->revision;
        nav_set_footprint(warm, &b[k], alive[k]);
        int after = 0;
        for (int i = 0; i < NAV_CACHE_SIZE; i++) after += warm->cache[i].start >= 0 && warm->cache[i].revision == warm->revision;
        carried += after;
        dropped += before - after;
        for (int i = 0; i < NQ; i++) {
            nav_find_path(warm, m, q[i][0], q[i][1], q[i][2], q[i][3], &pa);
            nav_release(cold);
            nav_init(cold);
            memcpy(cold->occupied, warm->occupied, sizeof cold->occupied);
            cold->revision = warm->revision;
            nav_find_path(cold, m, q[i][0], q[i][1], q[i][2], q[i][3], &pb);
            diff += !same_path(&pa, &pb);
            found += pa.n > 0;
        }
    }
    CHECK_EQ(diff, 0);
    CHECK(found > 60 * NQ / 2);
    CHECK(carried > 100);
    CHECK(dropped > 100);
    printf("  cache carry: %d entries carried over footprint changes, %d dropped\n", carried, dropped);
    free(m);

    /* a tile the search only looked at: a walled pocket whose one exit, on
     * the side away from the goal, a footprint closes; opening it must drop
     * the cached "unreachable" */
    m = field();
    nav_release(warm);
    nav_init(warm);
    for (int k = 9; k <= 13; k++) { wall(m, k, 49); wall(m, k, 53); wall(m, 9, k + 40); wall(m, 13, k + 40); }
    m->walkable[map_index(9, 51)] = 1;
    MapBuilding door;
    memset(&door, 0, sizeof door);
    door.footprint_n = 1;
    door.footprint[0] = (uint16_t)map_index(9, 51);
    nav_set_footprint(warm, &door, 1);
    CHECK_EQ(nav_find_path(warm, m, C(11), C(51), C(100), C(51), &pa), 0);
    nav_set_footprint(warm, &door, 0);
    CHECK(nav_find_path(warm, m, C(11), C(51), C(100), C(51), &pa) > 0);
    free(m);
    nav_release(warm);
    nav_release(cold);
    free(warm);
    free(cold);
}

static void test_search_speed(void)
{
    MapData *m = field();
    int gap = 90;
    wall_column(m, 58, &gap, 1);
    lcg_state = 3;
    for (int i = 0; i < 400; i++) {
        int tx = (int)(lcg() % MAP_N), tz = (int)(lcg() % MAP_N);
        if (tx != 58) wall(m, tx, tz);
    }
    Nav *nav = new_nav();
    NavPath p;
    /* long paths: from column 30 to column 85, detour through the gap at row 90 */
    enum { N = 2000 };
    int ok = 0;
    double t0 = now_us();
    for (int i = 0; i < N; i++) {
        int row = 40 + i % 40;
        ok += nav_find_path(nav, m, C(30) + (i / 40) * 100, C(row), C(85), C(70), &p) > 0;
    }
    double t1 = now_us();
    for (int i = 0; i < N; i++) {
        int row = 40 + i % 40;
        nav_find_path(nav, m, C(30) + (i / 40) * 100, C(row), C(85), C(70), &p);
    }
    double t2 = now_us();
    CHECK(ok > N / 2);
    /* cold: distinct starts miss the cache for each new (start tile, revision) */
    int n = 0;
    double t3 = now_us();
    for (int i = 0; i < N; i++) {
        MapBuilding b;
        memset(&b, 0, sizeof b);
        nav_set_footprint(nav, &b, 1);     /* empty footprint: bumps the revision */
        n += nav_find_path(nav, m, C(30), C(40 + i % 40), C(85), C(70), &p) > 0;
    }
    double t4 = now_us();
    /* a typical ~60-tile path, always cold: scattered rocks and a short wall */
    for (int tz = 0; tz < MAP_N; tz++) m->walkable[map_index(58, tz)] = 1;
    for (int tz = 44; tz <= 56; tz++) wall(m, 50, tz);
    int n2 = 0, len = 0;
    double t5 = now_us();
    for (int i = 0; i < N; i++) {
        MapBuilding b;
        memset(&b, 0, sizeof b);
        nav_set_footprint(nav, &b, 1);
        n2 += nav_find_path(nav, m, C(20), C(40 + i % 20), C(80), C(50), &p) > 0;
        len += p.n;
    }
    double t6 = now_us();
    CHECK(n2 > N / 2);
    printf("  search ~60 tiles (rocks + short wall), cold: %.1f us/path (%.1f waypoints)\n",
           (t6 - t5) / N, (double)len / N);
    printf("  search ~125 tiles around a long wall: %.1f us/path first pass, %.1f us/path warm cache, "
           "%.1f us/path always cold\n", (t1 - t0) / N, (t2 - t1) / N, (t4 - t3) / N);
    CHECK(n > N / 2);
    free(m);
    nav_release(nav);
    free(nav);
}

/* A* written plainly (the open list scanned for the lowest f, then discovery
 * order): the oracle for the search behind nav_find_path */
static int astar_plain(const Nav *nav, const MapData *m, int start, int goal, int32_t *out)
{
    static int32_t g[MAP_TILES], order[MAP_TILES], parent[MAP_TILES], f[MAP_TILES], open[MAP_TILES];
    static uint8_t state[MAP_TILES];    /* 0 unseen, 1 open, 2 closed */
    memset(state, 0, sizeof state);
    int gx = goal % MAP_N, gz = goal / MAP_N, n_open = 0, n_order = 0;
    int32_t hg = m->height8[goal] * 4;
#define H(t) (32 * (abs((t) % MAP_N - gx) + abs((t) / MAP_N - gz)) + abs(m->height8[t] * 4 - hg))
    g[start] = 0; f[start] = H(start); order[start] = n_order++; parent[start] = -1;
    state[start] = 1; open[n_open++] = start;
    while (n_open > 0) {
        int best = 0;
        for (int k = 1; k < n_open; k++) {
            int a = open[k], b = open[best];
            if (f[a] < f[b] || (f[a] == f[b] && order[a] < order[b])) best = k;
        }
        int t = open[best];
        open[best] = open[--n_open];
        if (t == goal) {
            int len = 0;
            for (int u = goal; u >= 0; u = parent[u]) len++;
            int i = len;
            for (int u = goal; u >= 0; u = parent[u]) out[--i] = u;
            return len;
        }
        state[t] = 2;
        int tx = t % MAP_N, tz = t / MAP_N;
        int nb[4] = {
            tx + 1 < MAP_N && (m->edges[t] & MAP_EDGE_E) ? t + 1 : -1,
            tx > 0 && (m->edges[t - 1] & MAP_EDGE_E) ? t - 1 : -1,
            tz + 1 < MAP_N && (m->edges[t] & MAP_EDGE_S) ? t + MAP_N : -1,
            tz > 0 && (m->edges[t - MAP_N] & MAP_EDGE_S) ? t - MAP_N : -1,
        };
        for (int k = 0; k < 4; k++) {
            int v = nb[k];
            if (v < 0 || state[v] == 2 || !nav_open(nav, m, v)) continue;
            int32_t ng = g[t] + 32 + abs(m->height8[v] * 4 - m->height8[t] * 4);
            if (state[v] == 0) {
                state[v] = 1; order[v] = n_order++; open[n_open++] = v;
            } else if (ng >= g[v]) {
                continue;
            }
            g[v] = ng; f[v] = ng + H(v); parent[v] = t;
        }
    }
#undef H
    return 0;
}

/* the bucketed A* against the plain one on random maps: walls, cliffs,
 * footprints, and heights from gentle (many ties) to steep (f values of open
 * tiles more than NAV_BUCKETS apart, sharing buckets) */
static void test_search_reference(void)
{
    static int32_t fast[MAP_TILES], plain[MAP_TILES];
    Nav *nav = new_nav();
    lcg_state = 11;
    int differ = 0, found = 0, searches = 0;
    for (int round = 0; round < 6; round++) {
        MapData *m = field();
        int steep = round >= 4;
        for (int t = 0; t < MAP_TILES; t++) {
            if (lcg() % 5 == 0) m->walkable[t] = 0;
            if (lcg() % 9 == 0) m->edges[t] &= (uint8_t)~(lcg() % 2 ? MAP_EDGE_E : MAP_EDGE_S);
            m->height8[t] = (int16_t)(steep ? (int)(lcg() % 256) : 8 * (int)(lcg() % 4) - 8);
        }
        memset(nav->occupied, 0, sizeof nav->occupied);
        for (int k = 0; k < 300; k++) nav->occupied[lcg() % MAP_TILES] = 1;
        for (int q = 0; q < 25; q++) {
            int start = (int)(lcg() % MAP_TILES), goal;
            do goal = (int)(lcg() % MAP_TILES); while (!nav_open(nav, m, goal));
            int a = nav_search_tiles(nav, m, start, goal, fast);
            int b = astar_plain(nav, m, start, goal, plain);
            differ += a != b || memcmp(fast, plain, (size_t)a * sizeof fast[0]) != 0;
            found += a > 0;
            searches++;
        }
        free(m);
    }
    CHECK_EQ(differ, 0);
    CHECK(found > searches / 2);
    nav_release(nav);
    free(nav);
}

/* nav_find_path between tile centres (where it returns the canonical path
 * itself) against string pulling written plainly over the plain A* path,
 * with the plain walk: the farthest path tile clear from the current one.
 * Random maps from open to crowded with walls, cut links and footprints,
 * where many candidate lines fail: the pulling's skip of lines touching the
 * last failure is checked here. */
static void test_pulling_reference(void)
{
    static int32_t tiles[MAP_TILES];
    lcg_state = 99;
    int differ = 0, paths = 0, turns = 0;
    for (int round = 0; round < 8; round++) {
        MapData *m = rough_field(300 + 500 * round, 200 + 800 * round);
        Nav *nav = new_nav();
        for (int w = 0; w < 6; w++) {           /* wall segments with gaps: long detours */
            int x = (int)(lcg() % MAP_N), z = (int)(lcg() % MAP_N), len = 10 + (int)(lcg() % 40);
            for (int k = 0; k < len; k++)
                if (lcg() % 8) {
                    if (w & 1) { if (x + k < MAP_N) wall(m, x + k, z); }
                    else if (z + k < MAP_N) wall(m, x, z + k);
                }
        }
        for (int k = 0; k < 200; k++) nav->occupied[lcg() % MAP_TILES] = 1;
        for (int q = 0; q < 60; q++) {
            int start, goal;
            do start = (int)(lcg() % MAP_TILES); while (!nav_open(nav, m, start));
            do goal = (int)(lcg() % MAP_TILES); while (!nav_open(nav, m, goal));
            int sx = start % MAP_N, sz = start / MAP_N, gx = goal % MAP_N, gz = goal / MAP_N;
            NavPath want = { 0 }, got;
            if (line_clear_plain(nav, m, C(sx), C(sz), C(gx), C(gz))) {
                want.x[0] = C(gx); want.z[0] = C(gz); want.n = 1;
            } else {
                int len = astar_plain(nav, m, start, goal, tiles), i = 0;
                while (len > 1 && i < len - 1 && want.n < NAV_MAX_PATH) {
                    int j = len - 1;
                    int32_t cx = C(tiles[i] % MAP_N), cz = C(tiles[i] / MAP_N);
                    for (; j > i + 1; j--)
                        if (line_clear_plain(nav, m, cx, cz, C(tiles[j] % MAP_N), C(tiles[j] / MAP_N))) break;
                    want.x[want.n] = C(tiles[j] % MAP_N); want.z[want.n] = C(tiles[j] / MAP_N); want.n++;
                    i = j;
                }
            }
            nav_find_path(nav, m, C(sx), C(sz), C(gx), C(gz), &got);
            differ += !same_path(&want, &got);
            paths += want.n > 0;
            turns += want.n;
        }
        free(m);
        nav_release(nav);
        free(nav);
    }
    CHECK_EQ(differ, 0);
    CHECK(paths > 300);
    CHECK(turns > 3 * paths);
}

/* fx_atan2 as first written, a loop over the table: the oracle for the
 * written-out steps in fixmath.h */
static int32_t atan2_loop(int64_t dz, int64_t dx)
{
    static const int32_t atan_tab[16] = {
        2097152, 1238021, 654136, 332050, 166669, 83416, 41718, 20860,
        10430, 5215, 2608, 1304, 652, 326, 163, 81 };
    if (dx == 0 && dz == 0) return 0;
    int32_t angle = 0;
    if (dx < 0) { dx = -dx; dz = -dz; angle = 32768 * 256; }
    while (dx > ((int64_t)1 << 40) || dz > ((int64_t)1 << 40) || dz < -((int64_t)1 << 40)) { dx >>= 1; dz >>= 1; }
    dx *= 65536; dz *= 65536;
    for (int i = 0; i < 16; i++) {
        int64_t neg = -(int64_t)(dz <= 0);
        int64_t nx = dx + (((dz >> i) ^ neg) - neg);
        int64_t nz = dz - (((dx >> i) ^ neg) - neg);
        angle += (atan_tab[i] ^ (int32_t)neg) - (int32_t)neg;
        dx = nx; dz = nz;
    }
    int32_t a = (angle + 128) >> 8;
    return a & 0xFFFF;
}

/* every vector with components up to +-700, then random ones of every size
 * (up to 2^46, past the scaling threshold) and both signs */
static void test_atan2_reference(void)
{
    long differ = 0, n = 0;
    for (int64_t dz = -700; dz <= 700; dz++)
        for (int64_t dx = -700; dx <= 700; dx++, n++)
            differ += fx_atan2(dz, dx) != atan2_loop(dz, dx);
    uint64_t r = 99;
    for (int i = 0; i < 4000000; i++, n++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int bx = (int)(r >> 58) % 47, bz = (int)(r >> 52 & 63) % 47;
        uint64_t q = r * 0x9E3779B97F4A7C15ull;
        int64_t dx = (int64_t)((q >> 8) & ((1ull << bx) - 1)), dz = (int64_t)((q >> 12) * 2654435761u & ((1ull << bz) - 1));
        if (r & 1) dx = -dx;
        if (r & 2) dz = -dz;
        if ((r & 60) == 0) dz = r & 64 ? dx : -dx;    /* the diagonals */
        differ += fx_atan2(dz, dx) != atan2_loop(dz, dx);
    }
    CHECK_EQ(differ, 0);
    CHECK(n > 5000000);
}

/* nav_steer with nothing kept between calls: the plain rule (an atan2
 * every tick), which the tests set facings for directly */
static int steer(const Nav *nav, const MapData *m, int32_t *x, int32_t *z, int32_t *f,
                 int32_t tx, int32_t tz, int32_t speed)
{
    NavFacing face = {0};
    int reached = nav_steer(nav, m, x, z, f, &face, tx, tz, speed);
    nav_facing_settle(f, &face);
    return reached;
}

static void test_steer(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    /* turning: facing +x, target along +z (16,384 units): ceil(16384/3651) = 5 */
    int32_t x = C(50), z = C(50), f = 0;
    int first_step = 0;
    for (int tick = 1; tick <= 10 && !first_step; tick++) {
        int32_t ox = x, oz = z;
        steer(nav, m, &x, &z, &f, C(50), C(60), 3000);
        if (x != ox || z != oz) first_step = tick;
    }
    CHECK_EQ(first_step, 5);
    CHECK_EQ(f, 16384);
    CHECK_EQ(x, C(50));
    CHECK_EQ(z, C(50) + 3000);
    /* an angle that is an exact multiple: 3 * 3651 */
    x = C(50); z = C(50); f = (16384 - 3 * NAV_TURN_RATE) & 0xFFFF; first_step = 0;
    for (int tick = 1; tick <= 10 && !first_step; tick++) {
        int32_t oz = z;
        steer(nav, m, &x, &z, &f, C(50), C(60), 3000);
        if (z != oz) first_step = tick;
    }
    CHECK_EQ(first_step, 3);
    /* turning the other way (clockwise) */
    x = C(50); z = C(50); f = 0; first_step = 0;
    for (int tick = 1; tick <= 10 && !first_step; tick++) {
        int32_t oz = z;
        steer(nav, m, &x, &z, &f, C(50), C(40), 3000);
        if (z != oz) first_step = tick;
    }
    CHECK_EQ(first_step, 5);
    CHECK_EQ(f, 65536 - 16384);
    /* already facing: step = speed, exact direction */
    x = C(50); z = C(50); f = 0;
    CHECK_EQ(steer(nav, m, &x, &z, &f, C(55), C(50), 2500), 0);
    CHECK_EQ(x, C(50) + 2500);
    CHECK_EQ(z, C(50));
    /* diagonal 3-4-5: step 5000 -> (3000, 4000) */
    x = C(50); z = C(50);
    f = fx_atan2(400000, 300000);
    steer(nav, m, &x, &z, &f, C(50) + 300000, C(50) + 400000, 5000);
    CHECK_EQ(x, C(50) + 3000);
    CHECK_EQ(z, C(50) + 4000);
    /* no overshoot; reach reported */
    x = C(50); z = C(50); f = 0;
    CHECK_EQ(steer(nav, m, &x, &z, &f, C(50) + 1000, C(50), 3000), 1);
    CHECK_EQ(x, C(50) + 1000);
    CHECK_EQ(steer(nav, m, &x, &z, &f, C(50) + 1000, C(50), 3000), 1);
    CHECK_EQ(x, C(50) + 1000);
    /* within NAV_REACH without getting there */
    x = C(50); z = C(50); f = 0;
    CHECK_EQ(steer(nav, m, &x, &z, &f, C(50) + 3000 + NAV_REACH, C(50), 3000), 1);
    CHECK_EQ(steer(nav, m, &x, &z, &f, C(50) + 3000 + NAV_REACH + 1, C(50) - 10, 0), 0);

    /* sliding along a wall: wall on column 60 */
    wall_column(m, 60, NULL, 0);
    x = E(60) - 1000; z = C(50);
    int32_t tx = C(62), tz = C(53);
    f = fx_atan2((int64_t)tz - z, (int64_t)tx - x);
    int32_t oz = z;
    steer(nav, m, &x, &z, &f, tx, tz, 3000);
    CHECK(z > oz);                                  /* slid along z */
    CHECK(x < E(60));                               /* not into the wall */
    for (int i = 0; i < 200; i++) steer(nav, m, &x, &z, &f, tx, tz, 3000);
    CHECK(x < E(60));
    CHECK(nav_open(nav, m, map_index_of(x, z)));
    /* blocked straight ahead with no component allowed: stays */
    x = E(60) - 500; z = C(50); f = 0;
    steer(nav, m, &x, &z, &f, C(65), C(50), 3000);
    CHECK_EQ(x, E(60) - 500);
    CHECK_EQ(z, C(50));

    /* stays inside the map rim */
    const int32_t lim = MAP_HALF_WORLD - 18000;
    x = lim - 1000; z = 0; f = 0;
    for (int i = 0; i < 20; i++) steer(nav, m, &x, &z, &f, MAP_HALF_WORLD + 100000, 0, 3000);
    CHECK(map_world_inside(x, z));
    CHECK_EQ(x, lim - 1000);
    /* sliding along the rim */
    x = lim - 1000; z = 0; f = fx_atan2(200000, 200000);
    steer(nav, m, &x, &z, &f, x + 200000, z + 200000, 3000);
    CHECK(map_world_inside(x, z));
    CHECK(z > 0);
    free(m);
    nav_release(nav);
    free(nav);
}

/* sin of a binary angle in Q16, to within 0.2 % (Bhaskara's formula):
 * enough to aim test targets */
static int32_t rough_sin_q16(int32_t angle)
{
    int64_t a = angle & 0xFFFF, sign = 1;
    if (a >= 32768) { a -= 32768; sign = -1; }
    int64_t p = a * (32768 - a);
    return (int32_t)(sign * 65536 * 16 * p / (5 * (int64_t)32768 * 32768 - 4 * p));
}

/* A body that keeps its NavFacing from tick to tick (the atan2 skipped
 * while the direction barely turns) moves and faces exactly as the plain
 * rule, on random walks whose targets swing by up to 0.5 rad around the
 * snap limit and now and then turn around. */
static void test_steer_lazy_facing(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    uint64_t r = 7;
    int lazy_ticks = 0, turn_ticks = 0, ticks = 0;
    for (int walk = 0; walk < 400; walk++) {
        int32_t x = C(50), z = C(50), f = 0, px = x, pz = z, pf = 0;
        NavFacing face = {0};
        int32_t speed = 1000 + (int32_t)(walk % 7) * 700;
        for (int t = 0; t < 200; t++, ticks++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int32_t heading = nav_facing_of(f, &face);
            /* a target 0.5..3 tiles ahead, off the facing by up to +-5,200 units, or anywhere */
            int32_t off = (int32_t)(r >> 40 & 0x3FFF) * 10400 / 0x3FFF - 5200;
            int32_t ang = (r & 0xF0) == 0 ? (int32_t)(r >> 20 & 0xFFFF) : heading + off;
            int32_t dist = 30000 + (int32_t)(r >> 28 & 0x3FFFF) % 150000;
            int32_t tx = x + (int32_t)(((int64_t)rough_sin_q16(ang + 16384) * dist) >> 16);
            int32_t tz = z + (int32_t)(((int64_t)rough_sin_q16(ang) * dist) >> 16);
            if (tx < C(20) || tx > C(80) || tz < C(20) || tz > C(80)) { tx = C(50); tz = C(50); }
            int reached = nav_steer(nav, m, &x, &z, &f, &face, tx, tz, speed);
            int plain = steer(nav, m, &px, &pz, &pf, tx, tz, speed);
            lazy_ticks += face.lazy;
            turn_ticks += !face.known;
            CHECK_EQ(reached, plain);
            CHECK_EQ(x, px);
            CHECK_EQ(z, pz);
            CHECK_EQ(nav_facing_of(f, &face), pf);
            if (x != px || z != pz || nav_facing_of(f, &face) != pf) { walk = 400; break; }   /* one report is enough */
        }
        nav_facing_settle(&f, &face);
        CHECK_EQ(f, pf);
        CHECK_EQ(face.lazy, 0);
    }
    CHECK(lazy_ticks > ticks / 5);      /* both ways were taken often */
    CHECK(turn_ticks > ticks / 5);
    free(m);
    nav_release(nav);
    free(nav);
}

static void test_collide(void)
{
    MapData *m = field();
    Nav *nav = new_nav();
    NavBody b[4];
    memset(b, 0, sizeof b);
    /* two heroes (radius 16,800) 20,000 apart: overlap 13,600, half each */
    b[0] = (NavBody){ C(50), C(50), 16800, 1, 0 };
    b[1] = (NavBody){ C(50) + 20000, C(50), 16800, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[0].x, C(50) - 6800);
    CHECK_EQ(b[1].x, C(50) + 20000 + 6800);
    CHECK_EQ(b[0].z, C(50));
    /* pinned body does not move */
    b[0] = (NavBody){ C(50), C(50), 16800, 1, 1 };
    b[1] = (NavBody){ C(50), C(50) + 20000, 16800, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[0].x, C(50));
    CHECK_EQ(b[0].z, C(50));
    CHECK_EQ(b[1].z, C(50) + 33600);
    /* both pinned: nothing */
    b[0].pinned = b[1].pinned = 1;
    b[1].z = C(50) + 1000;
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[1].z, C(50) + 1000);
    /* inactive bodies take no part */
    b[0] = (NavBody){ C(50), C(50), 16800, 0, 0 };
    b[1] = (NavBody){ C(50) + 1000, C(50), 16800, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[0].x, C(50));
    CHECK_EQ(b[1].x, C(50) + 1000);
    /* coincident: apart along the line through the map centre, the lower index
     * toward it; C(50) = -450,000: 13,200 each along the diagonal is 9,333 per axis
     * (a second pass gives the higher index the unit the rounding left) */
    b[0] = (NavBody){ C(50), C(50), 13200, 1, 0 };
    b[1] = (NavBody){ C(50), C(50), 13200, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[0].x, C(50) + 9333);
    CHECK_EQ(b[0].z, C(50) + 9333);
    CHECK_EQ(b[1].x, C(50) - 9334);
    CHECK_EQ(b[1].z, C(50) - 9334);
    /* the mirrored pair parts mirrored */
    b[0] = (NavBody){ -C(50), -C(50), 13200, 1, 0 };
    b[1] = (NavBody){ -C(50), -C(50), 13200, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[0].x, -C(50) - 9333);
    CHECK_EQ(b[0].z, -C(50) - 9333);
    CHECK_EQ(b[1].x, -C(50) + 9334);
    CHECK_EQ(b[1].z, -C(50) + 9334);
    /* at the map centre: along x, the lower index goes -x */
    b[0] = (NavBody){ 0, 0, 13200, 1, 0 };
    b[1] = (NavBody){ 0, 0, 13200, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[0].x, -13200);
    CHECK_EQ(b[1].x, 13200);
    CHECK_EQ(b[0].z, 0);
    CHECK_EQ(b[1].z, 0);

    /* never pushed into a wall: wall on column 60; body 1 hugs it */
    wall_column(m, 60, NULL, 0);
    b[0] = (NavBody){ E(60) - 25000, C(50), 16800, 1, 0 };
    b[1] = (NavBody){ E(60) - 5000, C(50), 16800, 1, 0 };
    nav_collide(nav, m, b, 2);
    CHECK_EQ(b[1].x, E(60) - 5000);
    CHECK_EQ(b[0].x, E(60) - 5000 - 33600);  /* took the whole overlap */
    CHECK(nav_open(nav, m, map_index_of(b[1].x, b[1].z)));
    /* both against walls in a one-tile corridor along x: pushes along z blocked */
    MapData *c = field();
    for (int tx = 0; tx < MAP_N; tx++) { wall(c, tx, 49); wall(c, tx, 51); }
    b[0] = (NavBody){ C(50), C(50) - 25000, 16800, 1, 0 };
    b[1] = (NavBody){ C(50), C(50) + 25000, 16800, 1, 0 };
    b[1].z = C(50) + 5000; b[0].z = C(50) - 5000;   /* 10,000 apart along z */
    nav_collide(nav, c, b, 2);
    CHECK(nav_open(nav, c, map_index_of(b[0].x, b[0].z)));
    CHECK(nav_open(nav, c, map_index_of(b[1].x, b[1].z)));
    CHECK(b[1].z - b[0].z >= 10000);
    free(c);

    /* a crowd: deterministic, fast, nobody in a wall, overlaps reduced */
    enum { NB = 300 };
    static NavBody crowd[NB], copy[NB];
    lcg_state = 42;
    for (int i = 0; i < NB; i++) {
        crowd[i].x = C(40) + (int32_t)(lcg() % 900000);
        crowd[i].z = C(40) + (int32_t)(lcg() % 900000);
        if (map_tile_of(crowd[i].x) == 60) crowd[i].x -= GOTA_TILE;
        crowd[i].radius = i % 3 == 0 ? 16800 : 13200;
        crowd[i].active = i % 17 != 0;
        crowd[i].pinned = i % 11 == 0;
    }
    memcpy(copy, crowd, sizeof crowd);
    int64_t before = 0, after = 0;
    for (int i = 0; i < NB; i++)
        for (int j = i + 1; j < NB; j++) {
            if (!crowd[i].active || !crowd[j].active) continue;
            int64_t R = crowd[i].radius + crowd[j].radius, d2 = fx_dist2(crowd[i].x, crowd[i].z, crowd[j].x, crowd[j].z);
            if (d2 < R * R) before += R - fx_isqrt64((uint64_t)d2);
        }
    static NavBody scratch[NB];
    enum { REPS = 200 };
    double t0 = now_us();
    for (int r = 0; r < REPS; r++) {
        memcpy(scratch, copy, sizeof copy);
        nav_collide(nav, m, scratch, NB);
    }
    double t1 = now_us();
    nav_collide(nav, m, crowd, NB);
    nav_collide(nav, m, copy, NB);
    CHECK(memcmp(crowd, copy, sizeof crowd) == 0);
    int bad = 0;
    for (int i = 0; i < NB; i++) bad += !nav_open(nav, m, map_index_of(crowd[i].x, crowd[i].z));
    CHECK_EQ(bad, 0);
    for (int i = 0; i < NB; i++)
        for (int j = i + 1; j < NB; j++) {
            if (!crowd[i].active || !crowd[j].active) continue;
            int64_t R = crowd[i].radius + crowd[j].radius, d2 = fx_dist2(crowd[i].x, crowd[i].z, crowd[j].x, crowd[j].z);
            if (d2 < R * R) after += R - fx_isqrt64((uint64_t)d2);
        }
    CHECK(after < before / 4);
    /* the same bodies spread over 90 x 90 tiles */
    for (int i = 0; i < NB; i++) {
        copy[i].x = C(10) + (int32_t)(lcg() % (90u * GOTA_TILE));
        copy[i].z = C(10) + (int32_t)(lcg() % (90u * GOTA_TILE));
        if (map_tile_of(copy[i].x) == 60) copy[i].x -= GOTA_TILE;
    }
    double t2 = now_us();
    for (int r = 0; r < REPS; r++) {
        memcpy(scratch, copy, sizeof copy);
        nav_collide(nav, m, scratch, NB);
    }
    double t3 = now_us();
    printf("  collide 300 bodies: dense crowd (15x15 tiles) %.1f us/call, spread (90x90 tiles) %.1f us/call\n",
           (t1 - t0) / REPS, (t3 - t2) / REPS);
    printf("  collide dense crowd: total overlap %lld -> %lld\n", (long long)before, (long long)after);
    free(m);
    nav_release(nav);
    free(nav);
}

/* nav_collide against the plain all-pairs passes: crowds packed tight enough
 * that bodies stray past the listing margin, pinned and inactive bodies, walls,
 * and one crowd with more close pairs than a list holds */
static void test_collide_reference(void)
{
    MapData *m = field();
    wall_column(m, 60, NULL, 0);
    Nav *nav = new_nav();
    enum { NB = 400 };
    static NavBody fast[NB], plain[NB];
    lcg_state = 7;
    int differ = 0;
    for (int round = 0; round < 40; round++) {
        int n = round == 0 ? NB : 2 + (int)(lcg() % (NB - 1));
        uint32_t spread = round == 0 ? 1000u : 20000u + (uint32_t)(lcg() % (20u * GOTA_TILE));
        for (int i = 0; i < n; i++) {
            fast[i].x = C(58) + (int32_t)(lcg() % spread) - (int32_t)spread / 2;
            fast[i].z = C(50) + (int32_t)(lcg() % spread) - (int32_t)spread / 2;
            if (map_tile_of(fast[i].x) == 60) fast[i].x -= GOTA_TILE;
            fast[i].radius = (int32_t[]){13200, 16800, 18000}[lcg() % 3];
            fast[i].active = lcg() % 13 != 0;
            fast[i].pinned = lcg() % 9 == 0;
        }
        memcpy(plain, fast, (size_t)n * sizeof fast[0]);
        nav_collide(nav, m, fast, n);
        nav_collide_reference(nav, m, plain, n);
        differ += memcmp(fast, plain, (size_t)n * sizeof fast[0]) != 0;
    }
    CHECK_EQ(differ, 0);
    free(m);
    nav_release(nav);
    free(nav);
}

/* nav_collide keeps its pair list from call to call: ticks of one crowd where
 * bodies walk (slow and past the keep margin), vanish, appear (in the middle
 * of the array, shifting the rest), teleport, change radius, get pinned and
 * freed, must each match the plain passes */
static void test_collide_ticks(void)
{
    MapData *m = field();
    wall_column(m, 60, NULL, 0);
    Nav *nav = new_nav();
    enum { NB = 300, TICKS = 400 };
    static NavBody fast[NB], plain[NB];
    static int32_t vx[NB], vz[NB];
    lcg_state = 11;
    int n = 200, differ = 0;
    for (int i = 0; i < NB; i++) {
        fast[i].x = C(58) + (int32_t)(lcg() % 600000) - 300000;
        fast[i].z = C(50) + (int32_t)(lcg() % 600000) - 300000;
        fast[i].radius = (int32_t[]){13200, 16800, 18000}[lcg() % 3];
        fast[i].active = 1;
        int32_t v = i % 10 == 0 ? 5500 : 300;   /* most mill about, a few walk */
        vx[i] = (int32_t)(lcg() % (2u * v + 1)) - v;
        vz[i] = (int32_t)(lcg() % (2u * v + 1)) - v;
    }
    for (int t = 0; t < TICKS; t++) {
        for (int i = 0; i < n; i++) {
            /* walk toward the centre of the crowd, so it stays packed */
            fast[i].x += vx[i] - (fast[i].x - C(58)) / 400;
            fast[i].z += vz[i] - (fast[i].z - C(50)) / 400;
            if (map_tile_of(fast[i].x) == 60) fast[i].x -= GOTA_TILE;
            if (lcg() % 5000 == 0) fast[i].x += (int32_t)(lcg() % 500000) - 250000;   /* teleport */
            if (lcg() % 20 == 0) fast[i].pinned ^= 1;
            if (lcg() % 5000 == 0) fast[i].active ^= 1;
        }
        if (t % 7 == 3 && n > 2) {          /* one dies: the rest shift down */
            int k = (int)(lcg() % (uint32_t)n);
            memmove(&fast[k], &fast[k + 1], (size_t)(n - k - 1) * sizeof fast[0]);
            n--;
        }
        if (t % 5 == 1 && n < NB) {         /* one appears in the middle */
            int k = (int)(lcg() % (uint32_t)n);
            memmove(&fast[k + 1], &fast[k], (size_t)(n - k) * sizeof fast[0]);
            fast[k] = fast[(k + 1) % n];    /* right on top of a neighbour */
            fast[k].radius = 13200;
            n++;
        }
        if (t % 10 == 5) fast[t % n].radius += 5 * GOTA_TILE;   /* more than the kept margin */
        if (t % 10 == 6) fast[(t - 1) % n].radius -= 5 * GOTA_TILE;
        /* the last body gone for one tick, then back where it was */
        int gone = t % 9 == 4 ? 1 : 0;
        n -= gone;
        memcpy(plain, fast, (size_t)n * sizeof fast[0]);
        nav_collide(nav, m, fast, n);
        nav_collide_reference(nav, m, plain, n);
        differ += memcmp(fast, plain, (size_t)n * sizeof fast[0]) != 0;
        memcpy(fast, plain, (size_t)n * sizeof fast[0]);
        n += gone;
    }
    CHECK_EQ(differ, 0);
    free(m);
    nav_release(nav);
    free(nav);
}

static void reverse_array(NavBody *b, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        NavBody t = b[i];
        b[i] = b[j];
        b[j] = t;
    }
}

/* nav_collide_reversed is nav_collide of the reversed array: ticks of a
 * packed, milling crowd (some die, the rest shift down) taking one or the
 * other by a coin, each kept list serving its own kind, must each match the
 * plain passes over the array in that order; and the two orders differ. */
static void test_collide_reversed(void)
{
    MapData *m = field();
    wall_column(m, 60, NULL, 0);
    Nav *nav = new_nav();
    enum { NB = 200, TICKS = 300 };
    static NavBody fast[NB], plain[NB], other[NB];
    static int32_t vx[NB], vz[NB];
    lcg_state = 23;
    int n = NB, differ = 0, reversed = 0, orders_differ = 0;
    for (int i = 0; i < NB; i++) {
        fast[i].x = C(58) + (int32_t)(lcg() % 500000) - 250000;
        fast[i].z = C(50) + (int32_t)(lcg() % 500000) - 250000;
        fast[i].radius = (int32_t[]){13200, 16800, 18000}[lcg() % 3];
        fast[i].active = 1;
        fast[i].pinned = lcg() % 9 == 0;
        vx[i] = (int32_t)(lcg() % 601) - 300;
        vz[i] = (int32_t)(lcg() % 601) - 300;
    }
    for (int t = 0; t < TICKS; t++) {
        for (int i = 0; i < n; i++) {
            fast[i].x += vx[i] - (fast[i].x - C(58)) / 400;
            fast[i].z += vz[i] - (fast[i].z - C(50)) / 400;
            if (map_tile_of(fast[i].x) == 60) fast[i].x -= GOTA_TILE;
        }
        if (t % 11 == 5 && n > 2) {
            int k = (int)(lcg() % (uint32_t)n);
            memmove(&fast[k], &fast[k + 1], (size_t)(n - k - 1) * sizeof fast[0]);
            n--;
        }
        int rev = (int)(lcg() % 2);
        reversed += rev;
        memcpy(plain, fast, (size_t)n * sizeof fast[0]);
        memcpy(other, fast, (size_t)n * sizeof fast[0]);
        if (rev) {
            nav_collide_reversed(nav, m, fast, n);
            reverse_array(plain, n);
            nav_collide_reference(nav, m, plain, n);
            reverse_array(plain, n);
            nav_collide_reference(nav, m, other, n);
        } else {
            nav_collide(nav, m, fast, n);
            nav_collide_reference(nav, m, plain, n);
            reverse_array(other, n);
            nav_collide_reference(nav, m, other, n);
            reverse_array(other, n);
        }
        differ += memcmp(fast, plain, (size_t)n * sizeof fast[0]) != 0;
        orders_differ += memcmp(plain, other, (size_t)n * sizeof fast[0]) != 0;
        memcpy(fast, plain, (size_t)n * sizeof fast[0]);
    }
    CHECK_EQ(differ, 0);
    CHECK(reversed > TICKS / 3 && reversed < 2 * TICKS / 3);
    CHECK(orders_differ > TICKS / 2);
    free(m);
    nav_release(nav);
    free(nav);
}

/* Ticks of a crowd that only loses bodies (units die, the rest shift down),
 * so the kept pair list is carried over by renumbering: every tick must
 * match the plain passes, and the kept list must stay in pass order and hold
 * every pair that overlapped at the call's start. */
static void test_collide_deaths(void)
{
    MapData *m = field();
    wall_column(m, 60, NULL, 0);
    Nav *nav = new_nav();
    enum { NB = 300, TICKS = 300 };
    static NavBody fast[NB], plain[NB], start[NB];
    static int32_t vx[NB];
    lcg_state = 5;
    int n = NB, differ = 0, renumbered = 0, missing = 0, disorder = 0;
    for (int i = 0; i < NB; i++) {
        fast[i].x = C(58) + (int32_t)(lcg() % 700000) - 350000;
        fast[i].z = C(50) + (int32_t)(lcg() % 700000) - 350000;
        if (map_tile_of(fast[i].x) == 60) fast[i].x -= GOTA_TILE;
        fast[i].radius = (int32_t[]){13200, 16800}[lcg() % 2];
        fast[i].active = 1;
        fast[i].pinned = lcg() % 15 == 0;
        vx[i] = i % 60 == 7 ? 3000 : 0;  /* a few walk through the crowd, past the kept margin */
    }
    for (int t = 0; t < TICKS && n > 2; t++) {
        for (int i = 0; i < n; i++) {
            if (t % 60 == 30) vx[i] = -vx[i];
            fast[i].x += vx[i] + (int32_t)(lcg() % 601) - 300;
            fast[i].z += (int32_t)(lcg() % 601) - 300;
            if (map_tile_of(fast[i].x) == 60) fast[i].x -= GOTA_TILE;
        }
        int deaths = t % 3 == 0 ? (int)(lcg() % 4) : 0;
        for (int d = 0; d < deaths && n > 2; d++) {
            int k = (int)(lcg() % (uint32_t)n);
            memmove(&fast[k], &fast[k + 1], (size_t)(n - k - 1) * sizeof fast[0]);
            memmove(&vx[k], &vx[k + 1], (size_t)(n - k - 1) * sizeof vx[0]);
            n--;
        }
        int kept_n = nav->pairs.np >= 0 ? nav->pairs.n : -1;
        memcpy(plain, fast, (size_t)n * sizeof fast[0]);
        memcpy(start, fast, (size_t)n * sizeof fast[0]);
        nav_collide(nav, m, fast, n);
        nav_collide_reference(nav, m, plain, n);
        differ += memcmp(fast, plain, (size_t)n * sizeof fast[0]) != 0;
        const NavPairs *kp = &nav->pairs;
        if (kp->np < 0) continue;
        CHECK_EQ(kp->n, n);
        int moved_base = 0, strayed = 0;
        for (int i = 0; i < n; i++) {
            moved_base |= kp->base_x[i] != start[i].x || kp->base_z[i] != start[i].z;
            /* each body stood within NAV_KEEP_STRAY (1.4 tiles) of its kept
             * base and was as large */
            strayed += fx_dist2(kp->base_x[i], kp->base_z[i], start[i].x, start[i].z) > 84000LL * 84000 ||
                       kp->radius[i] != start[i].radius;
        }
        CHECK_EQ(strayed, 0);
        renumbered += kept_n > n && moved_base;     /* served, not swept again */
        for (int q = 0; q < kp->np; q++) {
            disorder += kp->pi[q] < 0 || kp->pi[q] >= kp->pj[q] || kp->pj[q] >= n;
            if (q > 0) disorder += kp->pi[q - 1] > kp->pi[q] || (kp->pi[q - 1] == kp->pi[q] && kp->pj[q - 1] >= kp->pj[q]);
        }
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                int64_t R = (int64_t)start[i].radius + start[j].radius;
                if (fx_dist2(start[i].x, start[i].z, start[j].x, start[j].z) >= R * R) continue;
                int found = 0;
                for (int q = 0; q < kp->np && !found; q++) found = kp->pi[q] == i && kp->pj[q] == j;
                missing += !found;
            }
    }
    /* an active body of negative radius in a kept list, inactive (with a
     * real radius) the next tick: it must take no part */
    static NavBody odd[3];
    odd[0] = (NavBody){ C(50), C(50), -1, 1, 0 };
    odd[1] = (NavBody){ C(50) + 20000, C(50), 16800, 1, 0 };
    odd[2] = (NavBody){ C(50) + 200000, C(50), 16800, 1, 0 };
    nav_collide(nav, m, odd, 3);
    odd[0].active = 0;
    odd[0].radius = 16800;
    memcpy(plain, odd, sizeof odd);
    nav_collide(nav, m, odd, 3);
    nav_collide_reference(nav, m, plain, 3);
    differ += memcmp(odd, plain, sizeof odd) != 0;
    CHECK_EQ(differ, 0);
    CHECK_EQ(disorder, 0);
    CHECK_EQ(missing, 0);
    CHECK(renumbered >= 10);
    printf("  collide deaths: %d of %d ticks served by a renumbered kept list\n", renumbered, TICKS);
    free(m);
    nav_release(nav);
    free(nav);
}

/* The kept list's own bound: it serves while every body stands within
 * NAV_KEEP_STRAY (84,000 units) of where it was listed, also when a body died
 * and the rest are matched to kept ones, and is swept again once one strays
 * a unit farther; each tick matches the plain passes. */
static void test_collide_kept_bound(void)
{
    MapData *m = field();
    const int32_t stray = 84000, R = 2 * 16800;
    int differ = 0;
    for (int dies = 0; dies < 2; dies++)
        for (int over = 0; over < 2; over++) {
            Nav *nav = new_nav();
            NavBody b[3], plain[3];
            b[0] = (NavBody){ C(50), C(50), 16800, 1, 0 };
            b[1] = (NavBody){ C(50), C(50) + 10 * GOTA_TILE, 13200, 1, 0 };     /* far off */
            b[2] = (NavBody){ C(50) + R + 3 * GOTA_TILE, C(50), 16800, 1, 0 };  /* just past R + NAV_KEEP_MARGIN of b[0] */
            nav_collide(nav, m, b, 3);
            CHECK_EQ(nav->pairs.np, 0);
            int32_t x2 = b[2].x;
            b[0].x += stray;
            b[2].x -= stray + over;         /* now R + NAV_MARGIN - over apart */
            if (dies) b[1] = b[2];          /* body 1 died, body 2 shifted down */
            int n = 3 - dies;
            memcpy(plain, b, sizeof b);
            nav_collide(nav, m, b, n);
            nav_collide_reference(nav, m, plain, n);
            differ += memcmp(b, plain, sizeof b) != 0;
            /* served (renumbered when one died): the bases of then and no
             * pair; swept again: the positions now and the pair, now near */
            CHECK_EQ(nav->pairs.n, n);
            CHECK_EQ(nav->pairs.base_x[0], over ? C(50) + stray : C(50));
            CHECK_EQ(nav->pairs.base_x[n - 1], over ? b[n - 1].x : x2);
            CHECK_EQ(nav->pairs.np, over);
            nav_release(nav);
            free(nav);
        }
    CHECK_EQ(differ, 0);
    free(m);
}

/* A body that strays within a call is listed again from the kept list only
 * while every body still stands within NAV_KEEP_STRAY of its kept base. A
 * pinned giant throws a small body 3.95 tiles, next to a body it was not kept
 * with (5.6 tiles off at the keep): that pair must be listed (by a sweep) and
 * resolved as the plain passes do. Then ticks of small bodies milling among
 * pinned giants, thrown far or near, listed again from the kept list or by a
 * sweep, each matching the plain passes. */
static void test_collide_kept_relist(void)
{
    MapData *m = field();
    const int32_t T = GOTA_TILE;
    Nav *nav = new_nav();
    NavBody b[3], plain[3], start[3];
    start[0] = (NavBody){ C(50), C(50), 6 * T, 1, 1 };                  /* pinned giant */
    start[1] = (NavBody){ C(50) + T, C(50), T / 4, 1, 0 };              /* inside it */
    start[2] = (NavBody){ C(50) + 66 * T / 10, C(50), T / 4, 1, 0 };    /* 5.6 tiles from start[1] */
    memcpy(b, start, sizeof b);
    nav_collide(nav, m, b, 3);
    CHECK_EQ(nav->pairs.np, 2);         /* (0, 1) and (0, 2) kept, not (1, 2) */
    memcpy(b, start, sizeof b);
    b[1].x += 13 * T / 10;              /* 1.3 tiles from its kept base: the kept list serves */
    memcpy(plain, b, sizeof b);
    nav_collide(nav, m, b, 3);
    nav_collide_reference(nav, m, plain, 3);
    CHECK(memcmp(b, plain, sizeof b) == 0);
    CHECK(b[2].x > start[2].x);         /* body 1 landed on body 2 and pushed it */
    CHECK_EQ(nav->pairs.base_x[1], start[1].x);    /* served, not swept again */
    nav_release(nav);
    free(nav);

    nav = new_nav();
    enum { NB = 160, TICKS = 300 };
    static NavBody fast[NB], ref[NB];
    lcg_state = 31;
    for (int i = 0; i < NB; i++) {
        int giant = i % 16 == 0;
        fast[i].x = C(50) + (int32_t)(lcg() % (12u * T)) - 6 * T;
        fast[i].z = C(50) + (int32_t)(lcg() % (12u * T)) - 6 * T;
        fast[i].radius = giant ? T + (int32_t)(lcg() % (3u * T)) : (int32_t[]){13200, 16800, 18000}[lcg() % 3];
        fast[i].active = 1;
        fast[i].pinned = giant;
    }
    int differ = 0;
    for (int t = 0; t < TICKS; t++) {
        for (int i = 0; i < NB; i++) {
            if (fast[i].pinned) continue;
            /* mill about, drawn to the centre; now and then a jump (within
             * the kept bound or past it) into a giant */
            fast[i].x += (int32_t)(lcg() % 4001) - 2000 - (fast[i].x - C(50)) / 100;
            fast[i].z += (int32_t)(lcg() % 4001) - 2000 - (fast[i].z - C(50)) / 100;
            if (lcg() % 40 == 0) {
                const NavBody *g = &fast[16 * (int)(lcg() % (NB / 16))];
                fast[i].x = g->x + (int32_t)(lcg() % (uint32_t)g->radius) - g->radius / 2;
                fast[i].z = g->z + (int32_t)(lcg() % (uint32_t)g->radius) - g->radius / 2;
            }
        }
        memcpy(ref, fast, sizeof fast);
        nav_collide(nav, m, fast, NB);
        nav_collide_reference(nav, m, ref, NB);
        differ += memcmp(fast, ref, sizeof fast) != 0;
        memcpy(fast, ref, sizeof fast);
    }
    CHECK_EQ(differ, 0);
    nav_release(nav);
    free(nav);
    free(m);
}

/* nav_collide's 32-bit fast path (push_fast, step_in_tile) against the plain
 * passes where it must hand over: crowds at the map's corners and rim tiles,
 * pressed on tile edges and walls, coincident centres, pinned bodies and
 * radii on both sides of NAV_FAST_R */
static void test_collide_edges(void)
{
    MapData *m = field();
    wall_column(m, 60, NULL, 0);
    wall(m, 2, 2); wall(m, MAP_N - 3, 1);
    Nav *nav = new_nav();
    enum { NB = 120 };
    static NavBody fast[NB], plain[NB];
    const int32_t lo = -MAP_HALF_WORLD, hi = MAP_HALF_WORLD - 1;
    const int32_t at[][2] = {
        { lo, lo }, { hi, hi }, { lo, hi }, { hi, 0 }, { 0, lo },           /* map corners and rims */
        { lo + GOTA_TILE, lo + GOTA_TILE }, { hi - GOTA_TILE, lo + GOTA_TILE },   /* rim tile corners */
        { E(60), C(50) }, { E(30), E(40) }, { C(3), C(3) }, { C(MAP_N - 3), C(2) },
    };
    lcg_state = 23;
    int differ = 0, rounds = 0;
    for (int round = 0; round < 220; round++) {
        int k = round % (int)(sizeof at / sizeof at[0]);
        int n = 2 + (int)(lcg() % (NB - 1));
        uint32_t spread = 2000u + (uint32_t)(lcg() % 300000u);
        for (int i = 0; i < n; i++) {
            int64_t x = (int64_t)at[k][0] + (int64_t)(lcg() % spread) - (int64_t)spread / 2;
            int64_t z = (int64_t)at[k][1] + (int64_t)(lcg() % spread) - (int64_t)spread / 2;
            if (lcg() % 4 == 0) x = x / GOTA_TILE * GOTA_TILE + (int64_t)(lcg() % 3) - 1;   /* on a tile edge */
            if (lcg() % 8 == 0 && i > 0) { x = fast[i - 1].x; z = fast[i - 1].z; }   /* coincident */
            if (x < lo) x = lo;
            if (x > hi) x = hi;
            if (z < lo) z = lo;
            if (z > hi) z = hi;
            fast[i].x = (int32_t)x;
            fast[i].z = (int32_t)z;
            fast[i].radius = (int32_t[]){13200, 16800, 18000, 32767, 32768, 40000, 1, 0}[lcg() % 8];
            fast[i].active = lcg() % 13 != 0;
            fast[i].pinned = lcg() % 9 == 0;
        }
        memcpy(plain, fast, (size_t)n * sizeof fast[0]);
        nav_collide(nav, m, fast, n);
        nav_collide_reference(nav, m, plain, n);
        differ += memcmp(fast, plain, (size_t)n * sizeof fast[0]) != 0;
        rounds++;
    }
    CHECK_EQ(rounds, 220);
    CHECK_EQ(differ, 0);
    free(m);
    nav_release(nav);
    free(nav);
}

int main(void)
{
    test_line_clear();
    test_line_clear_reference();
    test_centres_clear_reference();
    test_shortcut_and_wall();
    test_cliff_ramp();
    test_costs_and_ties();
    test_blocked_goal_and_unreachable();
    test_footprint_and_cache();
    test_cache_transparency();
    test_cache_carry();
    test_search_speed();
    test_search_reference();
    test_pulling_reference();
    test_atan2_reference();
    test_steer();
    test_steer_lazy_facing();
    test_collide();
    test_collide_reference();
    test_collide_ticks();
    test_collide_reversed();
    test_collide_edges();
    test_collide_deaths();
    test_collide_kept_bound();
    test_collide_kept_relist();
    return check_report("test_nav");
}
