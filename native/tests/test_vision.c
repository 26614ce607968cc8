/*
 * test_vision.c -- fog of war (vision.c) against hand-computed cases on small
 * synthetic maps and against a plain brute-force ray trace written here.
 *
 * Heights are in 1/8 tile. Ray rule (docs/rules.md section 5): n = max(|dx|,|dz|),
 * step i in 1..n-1 is blocked when (terrain + blocker) * n >= h0*(n-i) + h1*i,
 * h0 = source terrain + eye, h1 = target terrain + 3. Hero r 10 eye 14, creep
 * r 5 eye 12.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/vision.h"
#include "check.h"

/* ---- helpers ----------------------------------------------------------- */

static MapData *new_map(void)
{
    MapData *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(m->walkable, 1, sizeof m->walkable);
    return m;
}

static void set_tree(MapData *m, int tx, int tz)
{
    m->blocker8[map_index(tx, tz)] = MAP_BLOCK_TREES;
    m->walkable[map_index(tx, tz)] = 0;
}

/* A building with a w x h footprint at (tx0, tz0); w = 0 gives a god (no
 * footprint, centre on tile (tx0, tz0)). Centre = middle of the footprint. */
static int add_building(MapData *m, int kind, int team, int tx0, int tz0, int w, int h,
                        int sight, int eye, int blocker)
{
    int i = m->building_n++;
    MapBuilding *b = &m->building[i];
    memset(b, 0, sizeof *b);
    b->kind = (int16_t)kind;
    b->team = (int16_t)team;
    b->lane = -1;
    b->sight_tiles = sight;
    b->eye8 = eye;
    b->blocker8 = blocker;
    if (w == 0) {
        b->x = map_tile_centre(tx0);
        b->z = map_tile_centre(tz0);
        b->footprint_n = 0;
    } else {
        /* centre of the rectangle in world units */
        b->x = map_tile_centre(tx0) - GOTA_TILE / 2 + w * GOTA_TILE / 2;
        b->z = map_tile_centre(tz0) - GOTA_TILE / 2 + h * GOTA_TILE / 2;
        for (int dz = 0; dz < h; dz++)
            for (int dx = 0; dx < w; dx++)
                b->footprint[b->footprint_n++] = (uint16_t)map_index(tx0 + dx, tz0 + dz);
    }
    return i;
}

static VisionSource src_at(int tx, int tz, int kind)
{
    VisionSource s;
    s.tile = (int16_t)map_index(tx, tz);
    s.kind = (int16_t)kind;
    return s;
}

static int vis(const Vision *v, int team, int tx, int tz)
{
    return vision_tile(v, team, tx, tz);
}

static int count_visible(const Vision *v, int team)
{
    int c = 0;
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++)
            c += vis(v, team, tx, tz);
    return c;
}

static uint64_t rng_state;
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rng_below(int n) { return (int)(((rng_next() >> 32) * (uint64_t)n) >> 32); }

/* ---- brute force -------------------------------------------------------- */

/* dx*i/n rounded, ties away from zero, written as quotient + remainder. */
static int bf_round(int q, int n)
{
    int base = q / n, rem = q % n;           /* C truncates toward zero */
    if (2 * (rem < 0 ? -rem : rem) >= n)
        base += q < 0 ? -1 : 1;
    return base;
}

/* blocker height grid: static plus the alive buildings except `skip` */
static void bf_blockers(const MapData *m, const uint8_t *alive, int skip, int *out)
{
    for (int c = 0; c < MAP_TILES; c++)
        out[c] = m->blocker8[c];
    for (int i = 0; i < m->building_n; i++) {
        const MapBuilding *b = &m->building[i];
        if (i == skip || !alive[i])
            continue;
        if (b->footprint_n == 0) {
            int c = map_index_of(b->x, b->z);
            if (b->blocker8 > out[c])
                out[c] = b->blocker8;
        }
        for (int k = 0; k < b->footprint_n; k++)
            if (b->blocker8 > out[b->footprint[k]])
                out[b->footprint[k]] = b->blocker8;
    }
}

static void bf_source(const MapData *m, const int *blk, int sx, int sz, int r, int eye,
                      uint8_t *seen)
{
    int h0 = m->height8[map_index(sx, sz)] + eye;
    for (int tz = 0; tz < MAP_N; tz++) {
        for (int tx = 0; tx < MAP_N; tx++) {
            int dx = tx - sx, dz = tz - sz;
            if (dx * dx + dz * dz > r * r)
                continue;
            int adx = dx < 0 ? -dx : dx, adz = dz < 0 ? -dz : dz;
            int n = adx > adz ? adx : adz;
            int h1 = m->height8[map_index(tx, tz)] + 3;
            int clear = 1;
            for (int i = 1; i < n && clear; i++) {
                int cx = sx + bf_round(dx * i, n), cz = sz + bf_round(dz * i, n);
                int c = map_index(cx, cz);
                long lhs = (long)(m->height8[c] + blk[c]) * n;
                long rhs = (long)h0 * (n - i) + (long)h1 * i;
                if (lhs >= rhs)
                    clear = 0;
            }
            if (clear)
                seen[map_index(tx, tz)] = 1;
        }
    }
}

static void bf_team(const MapData *m, int team, const VisionSource *src, int n,
                    const uint8_t *alive, uint8_t *seen)
{
    static int blk[MAP_TILES];
    static const int radius[2] = {10, 5}, eye[2] = {14, 12};
    memset(seen, 0, MAP_TILES);
    bf_blockers(m, alive, -1, blk);
    for (int i = 0; i < n; i++)
        bf_source(m, blk, src[i].tile % MAP_N, src[i].tile / MAP_N, radius[src[i].kind],
                  eye[src[i].kind], seen);
    for (int i = 0; i < m->building_n; i++) {
        const MapBuilding *b = &m->building[i];
        if (!alive[i] || b->team != team)
            continue;
        bf_blockers(m, alive, i, blk);
        bf_source(m, blk, map_tile_of(b->x), map_tile_of(b->z), b->sight_tiles, b->eye8, seen);
    }
}

static int compare_grid(const Vision *v, int team, const uint8_t *seen)
{
    int bad = 0;
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++)
            if (vis(v, team, tx, tz) != seen[map_index(tx, tz)])
                bad++;
    return bad;
}

/* ---- tests -------------------------------------------------------------- */

static void test_open_field(void)
{
    MapData *m = new_map();
    VisionTables *t = vision_tables_build(m);
    CHECK(t != NULL);
    Vision v;
    vision_init(&v, t);
    CHECK_EQ(count_visible(&v, 0), 0);
    VisionSource s = src_at(50, 50, VISION_HERO);
    vision_update(&v, 0, &s, 1, NULL);
    /* flat ground: terrain*n = 0 is never >= a positive ray height */
    CHECK(vis(&v, 0, 60, 50));          /* 10^2 = 100 */
    CHECK(vis(&v, 0, 56, 58));          /* 6^2 + 8^2 = 100 */
    CHECK(vis(&v, 0, 44, 42));          /* (-6, -8) */
    CHECK(!vis(&v, 0, 58, 57));         /* 8^2 + 7^2 = 113 */
    CHECK(!vis(&v, 0, 61, 50));
    int bad = 0;
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            int dx = tx - 50, dz = tz - 50;
            bad += vis(&v, 0, tx, tz) != (dx * dx + dz * dz <= 100);
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(count_visible(&v, 1), 0);

    s = src_at(50, 50, VISION_CREEP);
    vision_update(&v, 1, &s, 1, NULL);
    CHECK(vis(&v, 1, 55, 50));
    CHECK(vis(&v, 1, 53, 54));          /* 9 + 16 = 25 */
    CHECK(!vis(&v, 1, 54, 54));         /* 32 */
    CHECK(!vis(&v, 1, 56, 50));
    bad = 0;
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            int dx = tx - 50, dz = tz - 50;
            bad += vis(&v, 1, tx, tz) != (dx * dx + dz * dz <= 25);
        }
    CHECK_EQ(bad, 0);

    /* windows clipped at the map edges, including the 64-bit word boundary */
    VisionSource corner[3] = {src_at(0, 0, VISION_HERO), src_at(115, 115, VISION_HERO),
                              src_at(63, 5, VISION_CREEP)};
    vision_update(&v, 0, corner, 3, NULL);
    CHECK(vis(&v, 0, 0, 0) && vis(&v, 0, 10, 0) && vis(&v, 0, 0, 10) && !vis(&v, 0, 11, 0));
    CHECK(vis(&v, 0, 115, 115) && vis(&v, 0, 105, 115) && !vis(&v, 0, 104, 115));
    CHECK(vis(&v, 0, 58, 5) && vis(&v, 0, 63, 5) && vis(&v, 0, 64, 5) && vis(&v, 0, 68, 5));
    CHECK(!vis(&v, 0, 57, 5) && !vis(&v, 0, 69, 5));
    CHECK_EQ(count_visible(&v, 0), 2 * 90 + 81);  /* a quarter disc of r 10 holds 90 tiles */
    vision_tables_free(t);
    free(m);
}

static void test_trees(void)
{
    MapData *m = new_map();
    for (int tz = 40; tz <= 60; tz++)
        set_tree(m, 55, tz);
    VisionTables *t = vision_tables_build(m);
    Vision v;
    vision_init(&v, t);
    VisionSource s = src_at(50, 50, VISION_HERO);
    vision_update(&v, 0, &s, 1, NULL);
    /* (55,50): n = 5, cells x 51..54 bare -> visible; the tree tile itself shows */
    CHECK(vis(&v, 0, 55, 50));
    CHECK(vis(&v, 0, 54, 50));
    /* (56,50): n = 6, tree at i = 5: 24*6 = 144 >= 14*1 + 3*5 = 29 -> hidden */
    CHECK(!vis(&v, 0, 56, 50));
    /* (57,50): tree at i = 5 of 7: 168 >= 14*2 + 3*5 = 43 -> hidden */
    CHECK(!vis(&v, 0, 57, 50));
    CHECK(!vis(&v, 0, 60, 50));
    CHECK(!vis(&v, 0, 58, 55));
    /* (56,57): n = 7, cells (round(6i/7), i): (51,51) (52,52) (53,53) (53,54)
     * (54,55) (55,56); (55,56) is a tree here -> hidden */
    CHECK(!vis(&v, 0, 56, 57));
    vision_tables_free(t);
    free(m);

    /* the same line ending at row 55: the ray passes x 55 at z 56 -> clear */
    m = new_map();
    for (int tz = 40; tz <= 55; tz++)
        set_tree(m, 55, tz);
    t = vision_tables_build(m);
    vision_init(&v, t);
    vision_update(&v, 0, &s, 1, NULL);
    CHECK(vis(&v, 0, 56, 57));          /* the ray crosses x 55 at z 56: clear */
    CHECK(!vis(&v, 0, 56, 50));
    vision_tables_free(t);
    free(m);
}

static void test_heights(void)
{
    /* columns x >= 51 are castle level (16), x <= 50 low ground (0) */
    MapData *m = new_map();
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 51; tx < MAP_N; tx++)
            m->height8[map_index(tx, tz)] = 16;
    set_tree(m, 49, 50);
    VisionTables *t = vision_tables_build(m);
    Vision v;
    vision_init(&v, t);

    /* low source (50,60) eye 14 (h0 = 14) looking east up the cliff; the first
     * plateau cell x 51 is step 1 of n, h1 = 19:
     *   (52,60) n 2: 16*2 = 32 vs 14*1 + 19*1 = 33 -> visible
     *   (53,60) n 3: 16*3 = 48 vs 14*2 + 19 = 47 -> hidden
     *   (58,60) n 8: 128 vs 14*7 + 19 = 117 -> hidden */
    VisionSource s = src_at(50, 60, VISION_HERO);
    vision_update(&v, 0, &s, 1, NULL);
    CHECK(vis(&v, 0, 51, 60));
    CHECK(vis(&v, 0, 52, 60));
    CHECK(!vis(&v, 0, 53, 60));
    CHECK(!vis(&v, 0, 58, 60));
    CHECK(!vis(&v, 0, 60, 60));
    CHECK(vis(&v, 0, 40, 60));          /* flat low ground westwards */

    /* high source (51,50) on the edge, h0 = 16 + 14 = 30, sees down westwards;
     * a tree (0 + 24) stands at (49,50), step 2:
     *   (47,50) n 4: 24*4 = 96 vs 30*2 + 3*2 = 66 -> hidden (right behind it)
     *   (42,50) n 9: 24*9 = 216 vs 30*7 + 3*2 = 216 -> hidden (tie blocks)
     *   (41,50) n 10: 240 vs 30*8 + 6 = 246 -> visible over the tree */
    s = src_at(51, 50, VISION_HERO);
    vision_update(&v, 0, &s, 1, NULL);
    CHECK(vis(&v, 0, 50, 50));
    CHECK(vis(&v, 0, 49, 50));
    CHECK(!vis(&v, 0, 47, 50));
    CHECK(!vis(&v, 0, 42, 50));
    CHECK(vis(&v, 0, 41, 50));
    vision_tables_free(t);

    /* the same tree seen from low ground (h0 = 14) keeps (41,50) hidden:
     * 240 vs 14*8 + 6 = 118 */
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 51; tx < MAP_N; tx++)
            m->height8[map_index(tx, tz)] = 0;
    t = vision_tables_build(m);
    vision_init(&v, t);
    vision_update(&v, 0, &s, 1, NULL);
    CHECK(!vis(&v, 0, 41, 50));
    CHECK(!vis(&v, 0, 47, 50));
    CHECK(vis(&v, 0, 49, 50));
    vision_tables_free(t);
    free(m);
}

static void test_buildings(void)
{
    MapData *m = new_map();
    /* red tower A: footprint (60..61, 49..50), centre on the tile corner ->
     * source tile (61,50), sight 7; blue tower B: footprint (53..54, 49..50),
     * source tile (54,50), sight 3 */
    int a = add_building(m, GOTA_KIND_TOWER, GOTA_TEAM_RED, 60, 49, 2, 2, 7, 24, MAP_BLOCK_BUILDING);
    int b = add_building(m, GOTA_KIND_TOWER, GOTA_TEAM_BLUE, 53, 49, 2, 2, 3, 24, MAP_BLOCK_BUILDING);
    CHECK_EQ(map_tile_of(m->building[a].x), 61);
    CHECK_EQ(map_tile_of(m->building[a].z), 50);
    CHECK_EQ(map_tile_of(m->building[b].x), 54);
    VisionTables *t = vision_tables_build(m);
    Vision v;
    vision_init(&v, t);
    uint8_t alive[2] = {1, 1};

    /* blue hero at (57,50) between the towers; blue also owns B's sight */
    VisionSource s = src_at(57, 50, VISION_HERO);
    vision_update(&v, 1, &s, 1, alive);
    /* (64,50): n 7, A's cell (60,50) at i 3: 28*7 = 196 >= 14*4 + 3*3 = 65 */
    CHECK(!vis(&v, 1, 64, 50));
    /* (61,50): n 4, (60,50) at i 3: 112 >= 14 + 9 */
    CHECK(!vis(&v, 1, 61, 50));
    CHECK(vis(&v, 1, 60, 50));          /* the front footprint tile shows */
    /* (49,50): n 8, B's cell (54,50) at i 3: 224 >= 14*5 + 9; out of B's r 3 */
    CHECK(!vis(&v, 1, 49, 50));
    /* (51,50): hidden from the hero by B, seen by B from its top: its own
     * cell (53,50) is skipped on its ray */
    CHECK(vis(&v, 1, 51, 50));
    CHECK(!vis(&v, 1, 50, 50));

    /* A dies (B stands): the hero window differs on both sides, so the rays
     * are traced against the live buildings */
    alive[a] = 0;
    vision_update(&v, 1, &s, 1, alive);
    CHECK(vis(&v, 1, 64, 50));
    CHECK(vis(&v, 1, 61, 50));
    CHECK(!vis(&v, 1, 49, 50));
    /* only B dies: A blocks again, the west opens, B's own sight is gone */
    alive[a] = 1;
    alive[b] = 0;
    vision_update(&v, 1, &s, 1, alive);
    CHECK(!vis(&v, 1, 64, 50));
    CHECK(vis(&v, 1, 49, 50));
    CHECK(vis(&v, 1, 50, 50));
    /* both dead: the hero's open disc only */
    alive[a] = 0;
    vision_update(&v, 1, &s, 1, alive);
    CHECK(vis(&v, 1, 64, 50) && vis(&v, 1, 49, 50));
    CHECK_EQ(count_visible(&v, 1), 317);  /* disc of radius 10 */

    /* red: only tower A's own sight, radius 7 from (61,50), while alive */
    alive[a] = 1;
    alive[b] = 1;
    vision_update(&v, 0, NULL, 0, alive);
    CHECK(vis(&v, 0, 68, 50));
    CHECK(!vis(&v, 0, 69, 50));
    CHECK(vis(&v, 0, 60, 49));          /* its own footprint */
    /* (54,50): n 7, cells (60..55, 50). Without skipping its own cell (60,50)
     * at i 1 would block: 28*7 = 196 >= 24*6 + 3 = 147. Skipped -> visible */
    CHECK(vis(&v, 0, 54, 50));
    CHECK(vis(&v, 0, 56, 50));
    alive[a] = 0;
    vision_update(&v, 0, NULL, 0, alive);
    CHECK_EQ(count_visible(&v, 0), 0);
    vision_tables_free(t);
    free(m);
}

static void test_teams_and_cache(void)
{
    MapData *m = new_map();
    add_building(m, GOTA_KIND_TOWER, GOTA_TEAM_RED, 30, 30, 2, 2, 7, 24, MAP_BLOCK_BUILDING);
    VisionTables *t = vision_tables_build(m);
    Vision v;
    vision_init(&v, t);
    uint8_t alive[1] = {1};
    VisionSource red = src_at(20, 20, VISION_HERO);
    VisionSource blue = src_at(90, 90, VISION_CREEP);
    vision_update(&v, 0, &red, 1, alive);
    vision_update(&v, 1, &blue, 1, alive);
    CHECK(vis(&v, 0, 20, 20) && !vis(&v, 1, 20, 20));
    CHECK(vis(&v, 1, 90, 90) && !vis(&v, 0, 90, 90));
    CHECK(vis(&v, 0, 31, 31) && !vis(&v, 1, 31, 31));   /* red tower sight */
    int red_count = count_visible(&v, 0);
    CHECK_EQ(count_visible(&v, 1), 81);

    /* unchanged inputs: nothing rebuilt (a poked bit survives) */
    v.grid[0][100][1] |= 1;             /* tile (64,100), not visible to red */
    vision_update(&v, 0, &red, 1, alive);
    CHECK(vis(&v, 0, 64, 100));
    CHECK_EQ(count_visible(&v, 0), red_count + 1);
    /* a changed source updates (only the rows near it, so the poke goes first) */
    v.grid[0][100][1] &= ~(uint64_t)1;
    VisionSource red2 = src_at(21, 20, VISION_HERO);
    vision_update(&v, 0, &red2, 1, alive);
    CHECK(vis(&v, 0, 31, 20) && !vis(&v, 0, 9, 20));
    /* back to the first source: updated to the same grid */
    vision_update(&v, 0, &red, 1, alive);
    CHECK_EQ(count_visible(&v, 0), red_count);
    /* a changed kind rebuilds */
    VisionSource red3 = src_at(20, 20, VISION_CREEP);
    vision_update(&v, 0, &red3, 1, alive);
    CHECK(!vis(&v, 0, 30, 20));
    /* a building's death rebuilds (its sight goes) */
    vision_update(&v, 0, &red, 1, alive);
    alive[0] = 0;
    vision_update(&v, 0, &red, 1, alive);
    CHECK(!vis(&v, 0, 37, 31));
    CHECK(vis(&v, 0, 20, 20));
    /* team 1 untouched throughout */
    CHECK_EQ(count_visible(&v, 1), 81);
    /* vision_init clears everything */
    vision_init(&v, t);
    CHECK_EQ(count_visible(&v, 0) + count_visible(&v, 1), 0);
    vision_tables_free(t);
    free(m);
}

static void set_vis(Vision *v, int team, int tx, int tz)
{
    v->grid[team][tz][tx >> 6] |= (uint64_t)1 << (tx & 63);
}

static void test_sees_point(void)
{
    Vision v;
    vision_init(&v, NULL);
    set_vis(&v, 0, 10, 10);
    int32_t c10 = map_tile_centre(10), c11 = map_tile_centre(11), c9 = map_tile_centre(9);
    int32_t edge_10_11 = c10 + GOTA_TILE / 2;   /* shared edge of tiles 10 and 11 */
    int32_t edge_9_10 = c10 - GOTA_TILE / 2;
    CHECK(vision_sees_point(&v, 0, c10, c10));
    CHECK(!vision_sees_point(&v, 1, c10, c10));
    CHECK(vision_sees_point(&v, 0, c10 + 29999, c10 - 30000));
    CHECK(!vision_sees_point(&v, 0, c11, c10));
    CHECK(vision_sees_point(&v, 0, edge_10_11, c10));       /* on the east edge */
    CHECK(!vision_sees_point(&v, 0, edge_10_11 + 1, c10));  /* just past it */
    CHECK(vision_sees_point(&v, 0, edge_9_10, c10));         /* west edge */
    CHECK(!vision_sees_point(&v, 0, edge_9_10 - 1, c10));
    CHECK(vision_sees_point(&v, 0, c10, edge_10_11));        /* south edge */
    CHECK(vision_sees_point(&v, 0, c10, edge_9_10));         /* north edge */
    CHECK(vision_sees_point(&v, 0, edge_10_11, edge_10_11)); /* corner of (11,11) */
    CHECK(vision_sees_point(&v, 0, edge_9_10, edge_9_10));   /* corner of (9,9) */
    CHECK(!vision_sees_point(&v, 0, edge_10_11 + GOTA_TILE, edge_10_11));
    CHECK(!vision_sees_point(&v, 0, c9, c11));
    CHECK(!vision_sees_point(&v, 0, edge_9_10 - 1, edge_9_10 - 1));
    /* map rim: the outer edges have only one side */
    set_vis(&v, 1, 0, 5);
    set_vis(&v, 1, 115, 7);
    CHECK(vision_sees_point(&v, 1, -MAP_HALF_WORLD, map_tile_centre(5)));
    CHECK(vision_sees_point(&v, 1, MAP_HALF_WORLD, map_tile_centre(7)));
    CHECK(vision_sees_point(&v, 1, MAP_HALF_WORLD - 1, map_tile_centre(7)));
    CHECK(!vision_sees_point(&v, 1, MAP_HALF_WORLD + 1, map_tile_centre(7)));
    CHECK(!vision_sees_point(&v, 1, -MAP_HALF_WORLD - 1, map_tile_centre(5)));
    CHECK(!vision_sees_point(&v, 1, MAP_HALF_WORLD, map_tile_centre(8)));
    CHECK(vision_sees_point(&v, 1, MAP_HALF_WORLD, map_tile_centre(8) - GOTA_TILE / 2));
    CHECK(!vision_sees_point(&v, 2, 0, 0));
}

/* A rough random map: terraces, trees, towers, barracks, gods. */
static MapData *random_map(void)
{
    MapData *m = new_map();
    int8_t lvl[MAP_TILES];
    for (int c = 0; c < MAP_TILES; c++)
        lvl[c] = 0;
    for (int k = 0; k < 40; k++) {      /* rectangles of raised or sunk ground */
        int x0 = rng_below(MAP_N), z0 = rng_below(MAP_N);
        int w = 3 + rng_below(20), h = 3 + rng_below(20);
        int8_t l = (int8_t)(rng_below(4) - 1);
        for (int tz = z0; tz < z0 + h && tz < MAP_N; tz++)
            for (int tx = x0; tx < x0 + w && tx < MAP_N; tx++)
                lvl[map_index(tx, tz)] = l;
    }
    for (int c = 0; c < MAP_TILES; c++) {
        m->level[c] = lvl[c];
        m->height8[c] = (int16_t)(lvl[c] * 8 + (rng_below(8) == 0 ? 4 : 0));  /* some ramps */
        if (rng_below(7) == 0) {
            m->blocker8[c] = MAP_BLOCK_TREES;
            m->walkable[c] = 0;
        }
    }
    for (int i = 0; i < 2; i++)         /* gods */
        add_building(m, GOTA_KIND_GOD, i, 10 + rng_below(96), 10 + rng_below(96), 0, 0,
                     14, 28, MAP_BLOCK_GOD);
    for (int i = 0; i < 14; i++) {      /* towers and barracks */
        int w = 2 + rng_below(3), h = 2 + rng_below(3);
        add_building(m, i < 10 ? GOTA_KIND_TOWER : GOTA_KIND_BARRACKS, i & 1,
                     5 + rng_below(100), 5 + rng_below(100), w, h,
                     i < 10 ? 7 + rng_below(2) : 7, 24, MAP_BLOCK_BUILDING);
    }
    return m;
}

static int random_sources(const MapData *m, VisionSource *src, int max)
{
    int n = rng_below(max + 1);
    for (int i = 0; i < n; i++) {
        int tx, tz;
        if (m->building_n > 0 && rng_below(2)) {   /* near a building */
            const MapBuilding *b = &m->building[rng_below(m->building_n)];
            tx = map_tile_of(b->x) + rng_below(21) - 10;
            tz = map_tile_of(b->z) + rng_below(21) - 10;
            if (tx < 0) tx = 0;
            if (tz < 0) tz = 0;
            if (tx >= MAP_N) tx = MAP_N - 1;
            if (tz >= MAP_N) tz = MAP_N - 1;
        } else {
            tx = rng_below(MAP_N);
            tz = rng_below(MAP_N);
        }
        src[i] = src_at(tx, tz, rng_below(3) == 0 ? VISION_CREEP : VISION_HERO);
    }
    return n;
}

static void random_alive(const MapData *m, uint8_t *alive)
{
    int mode = rng_below(4);
    for (int i = 0; i < m->building_n; i++)
        alive[i] = (uint8_t)(mode == 0 ? 1 : mode == 1 ? 0 : (rng_below(3) != 0));
}

/* precomputed + runtime vs brute force on map m, `trials` random set-ups */
static int compare_random(const MapData *m, const VisionTables *t, int trials, int max_src)
{
    static uint8_t seen[MAP_TILES];
    static VisionSource src[VISION_MAX_SOURCES];
    uint8_t alive[MAP_BUILDINGS];
    Vision *v = malloc(sizeof *v);
    if (!v)
        return -1;
    vision_init(v, t);
    int bad_trials = 0;
    for (int k = 0; k < trials; k++) {
        random_alive(m, alive);
        for (int team = 0; team < 2; team++) {
            int n = random_sources(m, src, max_src);
            vision_update(v, team, src, n, alive);
            bf_team(m, team, src, n, alive, seen);
            int bad = compare_grid(v, team, seen);
            if (bad) {
                if (bad_trials < 3)
                    fprintf(stderr, "trial %d team %d: %d tiles differ\n", k, team, bad);
                bad_trials++;
            }
        }
    }
    free(v);
    return bad_trials;
}

static void test_random_vs_brute(void)
{
    rng_state = 12345;
    for (int mi = 0; mi < 4; mi++) {
        MapData *m = random_map();
        VisionTables *t = vision_tables_build(m);
        CHECK(t != NULL);
        CHECK_EQ(compare_random(m, t, 40, 40), 0);
        vision_tables_free(t);
        free(m);
    }
}

/* The valid sources of src[0..n) as keys, in order (what the match hands
 * vision_update_keys); returns how many. */
static int keys_of(const VisionSource *src, int n, uint16_t *key)
{
    int kn = 0;
    for (int i = 0; i < n; i++)
        if (src[i].tile >= 0 && src[i].tile < MAP_TILES && src[i].kind >= 0 && src[i].kind < VISION_KINDS)
            key[kn++] = vision_key(src[i].tile, src[i].kind);
    return kn;
}

/* Updates by difference (sources stepping to a neighbour tile or jumping,
 * coming and going anywhere in the list, trading places, doubled, out of
 * range; buildings falling) end on the grid a fresh Vision builds from
 * scratch, and the same updates given as keys (vision_update_keys) on the
 * same grid. */
static void test_incremental(void)
{
    enum { STEPS = 800, MAX_SRC = 80 };
    rng_state = 4242;
    MapData *m = random_map();
    VisionTables *t = vision_tables_build(m);
    Vision *v = malloc(sizeof *v), *fresh = malloc(sizeof *fresh), *keyed = malloc(sizeof *keyed);
    CHECK(t != NULL && v != NULL && fresh != NULL && keyed != NULL);
    if (!t || !v || !fresh || !keyed)
        return;
    static VisionSource src[2][MAX_SRC];
    static uint16_t key[MAX_SRC];
    int n[2];
    uint8_t alive[MAP_BUILDINGS];
    memset(alive, 1, sizeof alive);
    for (int team = 0; team < 2; team++)
        n[team] = 20 + random_sources(m, src[team], 30);
    src[1][3].tile = -1;                /* out of range: ignored */
    vision_init(v, t);
    vision_init(keyed, t);
    int bad = 0, bad_keyed = 0;
    for (int step = 0; step < STEPS; step++) {
        for (int team = 0; team < 2; team++) {
            VisionSource *s = src[team];
            for (int k = rng_below(4); k > 0 && n[team] > 0; k--) {
                VisionSource *p = &s[rng_below(n[team])];
                int tx = p->tile % MAP_N + rng_below(3) - 1, tz = p->tile / MAP_N + rng_below(3) - 1;
                if (p->tile >= 0 && tx >= 0 && tx < MAP_N && tz >= 0 && tz < MAP_N)
                    p->tile = (int16_t)map_index(tx, tz);
            }
            for (int e = rng_below(4); e > 0; e--) {
                int ev = rng_below(5), at = rng_below(n[team] + 1);
                if ((ev == 0 || ev == 1) && n[team] < MAX_SRC) {    /* one comes, or a double */
                    VisionSource x = ev == 0 ? src_at(rng_below(MAP_N), rng_below(MAP_N), rng_below(2))
                                             : s[rng_below(n[team])];
                    memmove(s + at + 1, s + at, (size_t)(n[team] - at) * sizeof *s);
                    s[at] = x;
                    n[team]++;
                } else if (ev == 2 && at < n[team]) {              /* one goes */
                    memmove(s + at, s + at + 1, (size_t)(n[team] - at - 1) * sizeof *s);
                    n[team]--;
                } else if (ev == 3 && at < n[team]) {              /* two trade places */
                    int b = rng_below(n[team]);
                    VisionSource x = s[at];
                    s[at] = s[b];
                    s[b] = x;
                } else if (ev == 4 && at < n[team]) {              /* one jumps anywhere */
                    s[at].tile = (int16_t)rng_below(MAP_TILES);
                }
            }
        }
        if (rng_below(80) == 0)
            alive[rng_below(m->building_n)] = 0;
        vision_init(fresh, t);
        for (int team = 0; team < 2; team++) {
            vision_update(v, team, src[team], n[team], alive);
            vision_update(fresh, team, src[team], n[team], alive);
            vision_update_keys(keyed, team, key, keys_of(src[team], n[team], key), alive);
        }
        if (memcmp(v->grid, fresh->grid, sizeof v->grid) != 0 && bad++ < 3)
            fprintf(stderr, "incremental: step %d differs from a fresh build\n", step);
        if (memcmp(v->grid, keyed->grid, sizeof v->grid) != 0 && bad_keyed++ < 3)
            fprintf(stderr, "incremental: step %d differs given as keys\n", step);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(bad_keyed, 0);
    free(keyed);
    free(fresh);
    free(v);
    vision_tables_free(t);
    free(m);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_shared_map(void)
{
    const MapData *m = map_get();
    CHECK(m != NULL);
    if (!m)
        return;
    double t0 = now_s();
    const VisionTables *t = vision_tables_get();
    double t1 = now_s();
    CHECK(t != NULL);
    CHECK(vision_tables_get() == t);
    if (!t)
        return;
    printf("test_vision: shared map tables %zu bytes (%.2f MB), built in %.1f ms, %d buildings\n",
           vision_tables_bytes(t), (double)vision_tables_bytes(t) / 1048576.0,
           (t1 - t0) * 1e3, m->building_n);
    rng_state = 777;
    CHECK_EQ(compare_random(m, t, 20, 60), 0);

    /* update cost: 60 sources per team, all buildings alive; a rebuild every
     * call (one source changes each time) */
    static VisionSource src[60];
    uint8_t alive[MAP_BUILDINGS];
    memset(alive, 1, sizeof alive);
    int nsrc = 0;
    while (nsrc < 60) {
        int c = rng_below(MAP_TILES);
        if (m->walkable[c]) {
            src[nsrc] = src_at(c % MAP_N, c / MAP_N, nsrc < 10 ? VISION_HERO : VISION_CREEP);
            nsrc++;
        }
    }
    Vision *v = malloc(sizeof *v);
    if (!v)
        return;
    vision_init(v, t);
    const int reps = 20000;
    double a0 = now_s();
    for (int r = 0; r < reps; r++) {
        src[r % 60].tile = (int16_t)(src[r % 60].tile ^ 1);
        vision_update(v, r & 1, src, 60, alive);
    }
    double a1 = now_s();
    for (int i = 0; i < m->building_n; i++)
        alive[i] = (uint8_t)(i % 3 != 0);
    double b0 = now_s();
    for (int r = 0; r < reps; r++) {
        src[r % 60].tile = (int16_t)(src[r % 60].tile ^ 1);
        vision_update(v, r & 1, src, 60, alive);
    }
    double b1 = now_s();
    double c0 = now_s();
    for (int r = 0; r < reps; r++)
        vision_update(v, r & 1, src, 60, alive);
    double c1 = now_s();
    printf("test_vision: update of 60 sources: %.2f us (all alive), %.2f us (a third dead), "
           "%.3f us (cached)\n", (a1 - a0) * 1e6 / reps, (b1 - b0) * 1e6 / reps,
           (c1 - c0) * 1e6 / reps);
    free(v);
}

/* More sources than a grid keeps for updates by difference (256): every
 * window ORed, and back and forth across that bound, still brute force's,
 * and the same given as keys. */
static void test_many_sources(void)
{
    rng_state = 5150;
    MapData *m = random_map();
    VisionTables *t = vision_tables_build(m);
    static VisionSource src[400];
    static uint16_t key[400];
    static uint8_t seen[MAP_TILES];
    uint8_t alive[MAP_BUILDINGS];
    Vision *v = malloc(sizeof *v), *keyed = malloc(sizeof *keyed);
    CHECK(t != NULL && v != NULL && keyed != NULL);
    if (!t || !v || !keyed)
        return;
    int got = 0;
    while (got < 400)
        got += random_sources(m, src + got, 400 - got);
    memset(alive, 1, sizeof alive);
    vision_init(v, t);
    vision_init(keyed, t);
    static const int counts[] = {256, 257, 300, 256, 100, 257, 400, 255};
    int bad = 0;
    for (int c = 0; c < (int)(sizeof counts / sizeof counts[0]); c++) {
        src[rng_below(400)].tile = (int16_t)rng_below(MAP_TILES);   /* and one moves */
        if (c == 5)
            alive[0] = 0;
        for (int team = 0; team < 2; team++) {
            vision_update(v, team, src + team, counts[c] - team, alive);
            bf_team(m, team, src + team, counts[c] - team, alive, seen);
            bad += compare_grid(v, team, seen) != 0;
            vision_update_keys(keyed, team, key, keys_of(src + team, counts[c] - team, key), alive);
            bad += memcmp(keyed->grid[team], v->grid[team], sizeof v->grid[team]) != 0;
        }
    }
    CHECK_EQ(bad, 0);
    free(keyed);
    free(v);
    vision_tables_free(t);
    free(m);
}

/* Any nonzero alive flag means standing (flags are read eight at a time):
 * random flag bytes give the grid their 0/1 version gives, with the flags
 * in a heap array of exactly building_n bytes (ASan sees an over-read). */
static void test_alive_bytes(void)
{
    const VisionTables *t = vision_tables_get();
    const MapData *m = map_get();
    CHECK(t != NULL && m != NULL);
    if (!t || !m)
        return;
    rng_state = 99;
    static VisionSource src[60];
    int n = random_sources(m, src, 60);
    Vision *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    uint8_t *raw = malloc((size_t)m->building_n), one[MAP_BUILDINGS];
    CHECK(a != NULL && b != NULL && raw != NULL);
    if (!a || !b || !raw)
        return;
    int bad = 0;
    for (int trial = 0; trial < 40; trial++) {
        for (int i = 0; i < m->building_n; i++) {
            int r = rng_below(4);
            raw[i] = (uint8_t)(r == 0 ? 0 : r == 1 ? 1 : r == 2 ? 0x80 : 1 + rng_below(255));
            one[i] = raw[i] != 0;
        }
        vision_init(a, t);
        vision_init(b, t);
        for (int team = 0; team < 2; team++) {
            vision_update(a, team, src, n, raw);
            vision_update(b, team, src, n, one);
        }
        bad += memcmp(a->grid, b->grid, sizeof a->grid) != 0;
    }
    CHECK_EQ(bad, 0);
    free(raw);
    free(b);
    free(a);
}

/* vision_sees_building (the tables' show words, read inline) against the
 * rule: a tile under the building's centre (as vision_sees_point) or of its
 * footprint visible. Sparse random grids and single tiles on a random map
 * and on the shared map; no tables, a bad team or index: never seen. */
static int plain_sees_building(const Vision *v, const MapData *m, int team, int b)
{
    const MapBuilding *mb = &m->building[b];
    if (vision_sees_point(v, team, mb->x, mb->z))
        return 1;
    for (int k = 0; k < mb->footprint_n; k++)
        if (vis(v, team, mb->footprint[k] % MAP_N, mb->footprint[k] / MAP_N))
            return 1;
    return 0;
}

static int compare_sees_building(const Vision *v, const MapData *m)
{
    int bad = 0;
    for (int team = 0; team < 2; team++)
        for (int b = 0; b < m->building_n; b++)
            bad += vision_sees_building(v, team, b) != plain_sees_building(v, m, team, b);
    return bad;
}

static void test_sees_building(void)
{
    rng_state = 777;
    MapData *rm = random_map();
    VisionTables *rt = vision_tables_build(rm);
    const MapData *maps[2] = {rm, map_get()};
    const VisionTables *tables[2] = {rt, vision_tables_get()};
    Vision *v = malloc(sizeof *v);
    CHECK(rt != NULL && tables[1] != NULL && v != NULL);
    if (!rt || !tables[1] || !v)
        return;
    int bad = 0, seen = 0;
    for (int k = 0; k < 2; k++) {
        const MapData *m = maps[k];
        vision_init(v, tables[k]);
        for (int trial = 0; trial < 200; trial++) {     /* sparse random grids */
            memset(v->grid, 0, sizeof v->grid);
            for (int c = 0; c < MAP_TILES / 16; c++)
                set_vis(v, rng_below(2), rng_below(MAP_N), rng_below(MAP_N));
            bad += compare_sees_building(v, m);
        }
        for (int b = 0; b < m->building_n; b++) {       /* one tile at a time around each */
            int bx = map_tile_of(m->building[b].x), bz = map_tile_of(m->building[b].z);
            for (int dz = -3; dz <= 3; dz++)
                for (int dx = -3; dx <= 3; dx++) {
                    if (!map_in_bounds(bx + dx, bz + dz))
                        continue;
                    memset(v->grid, 0, sizeof v->grid);
                    set_vis(v, 1, bx + dx, bz + dz);
                    bad += compare_sees_building(v, m);
                    seen += vision_sees_building(v, 1, b);
                }
        }
        memset(v->grid, 0xFF, sizeof v->grid);
        CHECK(!vision_sees_building(v, 2, 0) && !vision_sees_building(v, -1, 0));
        CHECK(!vision_sees_building(v, 0, m->building_n) && !vision_sees_building(v, 0, -1));
    }
    CHECK_EQ(bad, 0);
    CHECK(seen > 100);
    vision_init(v, NULL);                               /* no tables: no building */
    memset(v->grid, 0xFF, sizeof v->grid);
    CHECK(!vision_sees_building(v, 0, 0));
    free(v);
    vision_tables_free(rt);
    free(rm);
}

int main(void)
{
    test_open_field();
    test_trees();
    test_heights();
    test_buildings();
    test_teams_and_cache();
    test_sees_point();
    test_random_vs_brute();
    test_incremental();
    test_shared_map();
    test_alive_bytes();
    test_many_sources();
    test_sees_building();
    return check_report("test_vision");
}
