/*
 * test_commands.c -- gota_match_command (commands.c) against plain
 * computations: a walk or attack-move is refused BAD_POINT exactly when
 * hero_goal_point finds no goal (its ring search, checked against the plain
 * window scan in test_heroes, decides the command too).
 *
 * White box: blocks of tiles are marked occupied by hand so that points deep
 * inside, at the edge of the +-NAV_GOAL_SEARCH window and near the map rim
 * are all probed.
 */
#include <stdio.h>
#include "sim/world.h"
#include "check.h"

#define TILE_C(t) ((t) * GOTA_TILE - MAP_HALF_WORLD + GOTA_TILE / 2)

static GotaMatch *new_match(int64_t seed)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.seed = seed;
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

static void occupy(GotaMatch *m, int tx0, int tz0, int tx1, int tz1)
{
    for (int tz = tz0; tz <= tz1; tz++)
        for (int tx = tx0; tx <= tx1; tx++)
            if (map_in_bounds(tx, tz)) m->nav.occupied[map_index(tx, tz)] = 1;
}

/* Probe (x, z) with both move verbs; returns 1 when hero_goal_point refuses it. */
static int probe(GotaMatch *m, int seat, int32_t x, int32_t z)
{
    int32_t gx, gz;
    int ok = hero_goal_point(m, x, z, &gx, &gz);
    for (int v = 0; v < 2; v++) {
        GotaCommand c = {0};
        c.verb = v ? GOTA_CMD_ATTACK_MOVE : GOTA_CMD_WALK;
        c.x = x;
        c.z = z;
        int32_t answer = -1;
        CHECK_EQ(gota_match_command(m, seat, &c, &answer), GOTA_OK);
        CHECK_EQ(answer, ok ? GOTA_ACT_OK : GOTA_ACT_BAD_POINT);
    }
    return !ok;
}

static void test_move_points(void)
{
    GotaMatch *m = new_match(3);
    int seat = 2, slot = m->hero_slot[seat];
    CHECK(slot >= 0 && m->unit[slot].alive);
    int refused = 0, probes = 0;
    /* the open map: every tile centre, and off-centre points around the rim */
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            refused += probe(m, seat, TILE_C(tx), TILE_C(tz));
            probes++;
        }
    for (int32_t d = -40000; d <= 40000; d += 7919) {
        const int32_t lim = MAP_HALF_WORLD - 18000;
        refused += probe(m, seat, lim + d, d * 37) + probe(m, seat, -lim + d, d * 41);
        refused += probe(m, seat, d * 43, lim + d) + probe(m, seat, d * 47, -lim + d);
        probes += 4;
    }
    /* blocked squares: one in the middle, one touching each side of the map */
    const int blocks[][4] = {
        {20, 20, 45, 45}, {0, 10, 20, 40}, {MAP_N - 21, 25, MAP_N - 1, 55}, {10, 0, 40, 19}, {25, MAP_N - 22, 55, MAP_N - 1},
    };
    int refused_blocked = 0;
    for (unsigned b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        GotaMatch *c = new_match(3);
        occupy(c, blocks[b][0], blocks[b][1], blocks[b][2], blocks[b][3]);
        for (int tz = blocks[b][1] - 10; tz <= blocks[b][3] + 10; tz++)
            for (int tx = blocks[b][0] - 10; tx <= blocks[b][2] + 10; tx++) {
                int r = probe(c, seat, TILE_C(tx), TILE_C(tz));
                refused_blocked += r;
                refused += r;
                probes++;
            }
        gota_match_free(c);
    }
    CHECK(refused_blocked > 0);
    printf("  move points: %d probed, %d refused BAD_POINT (%d in blocked squares)\n", probes, refused, refused_blocked);
    gota_match_free(m);
}

int main(void)
{
    test_move_points();
    return check_report("test_commands");
}
