/*
 * test_bots.c -- the bundled bots (bot.h): config keys and names, the draft
 * pick rule (a bot takes the first free class whose role its team lacks, the
 * seeded draw still made), every bot answered through the command path with
 * its commands counted, idle never acting and staying home, the bots' state
 * in the hash, determinism, a match of external seats unchanged by the
 * bot code, and mirror matches that stay point-symmetric.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sim/world.h"
#include "sim/rng.h"
#include "check.h"

static GotaMatch *make(int64_t seed, const int bots[SEATS])
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.seed = seed;
    for (int s = 0; bots && s < SEATS; s++) cfg.bot[s] = bots[s];
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

static void test_config(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    int64_t v = -1;
    CHECK_EQ(gota_config_get(&cfg, "bot_0", &v), GOTA_OK);
    CHECK_EQ(v, GOTA_BOT_EXTERNAL);
    CHECK_EQ(gota_config_set(&cfg, "bot_9", GOTA_BOT_PULLER), GOTA_OK);
    CHECK_EQ(cfg.bot[9], GOTA_BOT_PULLER);
    CHECK_EQ(gota_config_set(&cfg, "bot_3", GOTA_BOT_SCRIPT), GOTA_OK);   /* a script seat (idles without one) */
    CHECK_EQ(gota_config_set(&cfg, "bot_3", GOTA_BOT_SCRIPT + 1), GOTA_ERR_RANGE);
    CHECK_EQ(gota_config_set(&cfg, "bot_3", -1), GOTA_ERR_RANGE);
    CHECK_EQ(gota_config_set(&cfg, "bot_10", 1), GOTA_ERR_UNKNOWN_KEY);
    CHECK(strstr(gota_config_keys(), "bot_0 ") != NULL);
    CHECK(strstr(gota_config_keys(), "bot_9") != NULL);
    static const char *names[GOTA_BOTS] = {"external", "idle", "random", "base", "rusher", "baseline", "puller"};
    for (int b = 0; b < GOTA_BOTS; b++) CHECK(gota_bot_name(b) && strcmp(gota_bot_name(b), names[b]) == 0);
    CHECK(gota_bot_name(-1) == NULL);
    CHECK(gota_bot_name(GOTA_BOT_SCRIPT) && strcmp(gota_bot_name(GOTA_BOT_SCRIPT), "script") == 0);
    CHECK(gota_bot_name(GOTA_BOT_SCRIPT + 1) == NULL);
}

/* The draft rebuilt from the rules: seeded order, random picks for external
 * seats, the first free class of a missing role for bot seats. */
static void expected_draft(int64_t seed, const int bots[SEATS], int cls[SEATS])
{
    uint64_t rng;
    rng_seed(&rng, seed);
    int taken[HERO_CLASSES] = {0}, has[2][ROLES] = {{0}};
    int first = (int)rng_below(&rng, 2);
    for (int k = 0; k < SEATS; k++) {
        int team = (k & 1) ? 1 - first : first, seat = team * SEATS_PER_TEAM + k / 2;
        int pool[HERO_CLASSES], n = 0;
        for (int c = 0; c < HERO_CLASSES; c++)
            if (!taken[c] && !has[team][HERO_CLASS[c].role]) pool[n++] = c;
        int draw = (int)rng_below(&rng, (uint32_t)n);
        int c = bots[seat] ? pool[0] : pool[draw];
        cls[seat] = c;
        taken[c] = 1;
        has[team][HERO_CLASS[c].role] = 1;
    }
}

static void test_draft(void)
{
    int mixes[3][SEATS] = {
        {3, 3, 3, 3, 3, 6, 6, 6, 6, 6},
        {6, 0, 0, 0, 0, 0, 0, 0, 0, 1},
        {0, 2, 0, 4, 0, 5, 0, 6, 0, 3},
    };
    for (int k = 0; k < 3; k++)
        for (int64_t seed = 1; seed <= 6; seed++) {
            GotaMatch *m = make(seed, mixes[k]);
            if (!m) continue;
            int want[SEATS];
            expected_draft(seed, mixes[k], want);
            int roles[2] = {0, 0};
            for (int s = 0; s < SEATS; s++) {
                CHECK_EQ(m->hero[s].cls, want[s]);
                roles[hero_team(s)] |= 1 << HERO_CLASS[m->hero[s].cls].role;
            }
            CHECK_EQ(roles[0], 31);   /* each team: one hero of each role */
            CHECK_EQ(roles[1], 31);
            gota_match_free(m);
        }
    /* a configured class wins over the bot's pick */
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.bot[0] = GOTA_BOT_BASE;
    cfg.hero_class[0] = 9;
    int err;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK(m != NULL);
    if (m) {
        CHECK_EQ(m->hero[0].cls, 9);
        gota_match_free(m);
    }
}

static int in_own_base(const GotaMatch *m, int seat)
{
    const GotaUnit *u = &m->unit[m->hero_slot[seat]];
    int bits = hero_team(seat) == GOTA_TEAM_RED ? GOTA_REGION_RED_KEEP | GOTA_REGION_RED_SPAWN
                                                : GOTA_REGION_BLUE_KEEP | GOTA_REGION_BLUE_SPAWN;
    return (m->map->region[map_index_of(u->x, u->z)] & bits) != 0;
}

/* Every bot kind on the board: every command is answered through the one
 * command path (counted, a known answer), idle issues none and stays home. */
static void test_bots_play(void)
{
    int bots[SEATS] = {GOTA_BOT_IDLE, GOTA_BOT_RANDOM, GOTA_BOT_BASE, GOTA_BOT_RUSHER, GOTA_BOT_PULLER,
                       GOTA_BOT_BASELINE, GOTA_BOT_PULLER, GOTA_BOT_BASE, GOTA_BOT_RANDOM, GOTA_BOT_IDLE};
    for (int64_t seed = 1; seed <= 3; seed++) {
        GotaMatch *m = make(seed, bots);
        if (!m) continue;
        int home = 1;
        for (int k = 0; k < 120 && m->result == GOTA_RESULT_RUNNING; k++) {
            int32_t ran = 0;
            CHECK_EQ(gota_match_step(m, 60, &ran), GOTA_OK);
            for (int s = 0; s < SEATS; s++) {
                CHECK(m->hero[s].last_error >= 0 && m->hero[s].last_error < GOTA_ACT_CODES);
                if (bots[s] == GOTA_BOT_IDLE && m->unit[m->hero_slot[s]].alive) home &= in_own_base(m, s);
            }
        }
        CHECK(home);
        for (int s = 0; s < SEATS; s++) {
            const GotaSeatStats *st = &m->hero[s].stats;
            if (bots[s] == GOTA_BOT_IDLE) CHECK_EQ(st->commands, 0);
            else CHECK(st->commands > 0);
            CHECK(st->invalid_actions <= st->commands);
            /* the scripted bots check before they act: few refusals */
            if (bots[s] == GOTA_BOT_BASE || bots[s] == GOTA_BOT_PULLER || bots[s] == GOTA_BOT_RUSHER)
                CHECK(st->invalid_actions * 10 <= st->commands);
        }
        CHECK(m->tick > 0);
        gota_match_free(m);
    }
}

static uint64_t play_hash(int64_t seed, const int bots[SEATS], int ticks)
{
    GotaMatch *m = make(seed, bots);
    if (!m) return 0;
    gota_match_step(m, ticks, NULL);
    uint64_t h = 0;
    gota_match_hash(m, &h);
    gota_match_free(m);
    return h;
}

static void test_determinism(void)
{
    int bots[SEATS] = {6, 6, 6, 6, 6, 2, 2, 3, 3, 5};
    uint64_t a = play_hash(11, bots, 3000), b = play_hash(11, bots, 3000), c = play_hash(12, bots, 3000);
    CHECK(a == b);
    CHECK(a != c);
    /* reset replays the same match */
    GotaMatch *m = make(11, bots);
    if (m) {
        gota_match_step(m, 1234, NULL);
        gota_match_reset(m, 11);
        gota_match_step(m, 3000, NULL);
        uint64_t h = 0;
        gota_match_hash(m, &h);
        CHECK(h == a);
        /* the bot state is in the hash */
        gota_match_hash(m, &h);
        uint64_t before = h;
        m->bot[0].mode ^= 1;
        gota_match_hash(m, &h);
        CHECK(h != before);
        m->bot[0].mode ^= 1;
        gota_match_free(m);
    }
    /* without bots, the bot fields are not part of the hash */
    int none[SEATS] = {0};
    GotaMatch *x = make(11, none);
    if (x) {
        uint64_t h1 = 0, h2 = 0;
        gota_match_hash(x, &h1);
        x->bot[0].mode = 77;
        gota_match_hash(x, &h2);
        CHECK(h1 == h2);
        gota_match_free(x);
    }
}

/* Bots and external seats on one team: the external seats' commands go
 * through as before, the bots play on. */
static void test_mixed(void)
{
    int bots[SEATS] = {GOTA_BOT_PULLER, 0, GOTA_BOT_BASE, 0, 0, 0, GOTA_BOT_BASE, 0, 0, GOTA_BOT_RUSHER};
    GotaMatch *m = make(5, bots);
    if (!m) return;
    for (int k = 0; k < 40; k++) {
        GotaCommand c = {GOTA_CMD_ATTACK_MOVE, 0, 0, 0, 0, 0};
        int32_t answer = -1;
        CHECK_EQ(gota_match_command(m, 1, &c, &answer), GOTA_OK);
        CHECK_EQ(answer, GOTA_ACT_OK);
        gota_match_step(m, 24, NULL);
    }
    CHECK_EQ(m->hero[1].stats.commands, 40);
    CHECK_EQ(m->hero[3].stats.commands, 0);
    CHECK(m->hero[0].stats.commands > 0);
    CHECK(m->hero[9].stats.commands > 0);
    gota_match_free(m);
}

/* upkeep=1: external seats spend their points, shop in the keep and keep
 * every command of their own; upkeep=0 leaves them untouched. */
static void test_upkeep(void)
{
    for (int upkeep = 0; upkeep < 2; upkeep++) {
        GotaConfig cfg;
        gota_config_default(&cfg);
        cfg.seed = 5;
        cfg.upkeep = upkeep;
        int err = GOTA_OK;
        GotaMatch *m = gota_match_new(&cfg, &err);
        CHECK(m != NULL);
        if (!m) return;
        CHECK_EQ(gota_match_step(m, 24 * 60, NULL), GOTA_OK);
        int ranks = 0, items = 0;
        for (int s = 0; s < SEATS; s++) {
            for (int a = 0; a < 4; a++) ranks += m->hero[s].rank[a];
            for (int i = 0; i < HERO_ITEM_SLOTS; i++) items += m->hero[s].item[i] != 0;
        }
        if (upkeep) {
            CHECK(ranks >= SEATS);   /* every hero has learned something */
            CHECK(items >= SEATS);   /* and bought at least a potion in the keep */
        } else {
            CHECK_EQ(ranks, 0);
            CHECK_EQ(items, 0);
        }
        gota_match_free(m);
    }
}

/* Mirror matches: bot b on all ten seats, red playing one class set and blue
 * the other, then the same with the sets swapped. The second match is the
 * first rotated by 180 degrees with the teams swapped, unit for unit, until
 * the first creep waves meet (about tick 540): the map, the waves, the
 * spawns, the paths and the bots' turns are point-symmetric. */
typedef struct { int32_t kind, team, x, z, hp, sub; } MirrorKey;

static int mirror_key_cmp(const void *pa, const void *pb)
{
    const int32_t *a = pa, *b = pb;
    for (int k = 0; k < 6; k++)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* living heroes and creeps as sorted keys, rotated and team-swapped when `mirror` */
static int mirror_keys(const GotaMatch *m, int mirror, MirrorKey *out)
{
    int n = 0;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (!u->alive || (u->kind != GOTA_KIND_HERO && u->kind != GOTA_KIND_CREEP)) continue;
        int s = mirror ? -1 : 1;
        out[n++] = (MirrorKey){u->kind, mirror ? 1 - u->team : u->team, s * u->x, s * u->z, u->hp, u->sub};
    }
    qsort(out, (size_t)n, sizeof *out, mirror_key_cmp);
    return n;
}

static void test_mirror(void)
{
    static const int set_a[SEATS_PER_TEAM] = {0, 2, 4, 6, 8}, set_b[SEATS_PER_TEAM] = {1, 3, 5, 7, 9};
    static const int bots[] = {GOTA_BOT_BASE, GOTA_BOT_BASELINE, GOTA_BOT_RUSHER, GOTA_BOT_PULLER};
    static MirrorKey ka[GOTA_MAX_UNITS], kb[GOTA_MAX_UNITS];
    for (size_t b = 0; b < sizeof bots / sizeof bots[0]; b++) {
        GotaMatch *m[2];
        for (int swap = 0; swap < 2; swap++) {
            GotaConfig cfg;
            gota_config_default(&cfg);
            cfg.seed = 7000000;
            for (int s = 0; s < SEATS; s++) {
                cfg.bot[s] = bots[b];
                cfg.hero_class[s] = (s < SEATS_PER_TEAM) != swap ? set_a[s % 5] : set_b[s % 5];
            }
            int err = -99;
            m[swap] = gota_match_new(&cfg, &err);
            CHECK_EQ(err, GOTA_OK);
        }
        int same = 1, tick = 0;
        for (; tick < 500 && same; tick++) {
            int32_t ran;
            gota_match_step(m[0], 1, &ran);
            gota_match_step(m[1], 1, &ran);
            int na = mirror_keys(m[0], 0, ka), nb = mirror_keys(m[1], 1, kb);
            same = na == nb && memcmp(ka, kb, (size_t)na * sizeof ka[0]) == 0;
        }
        if (!same) fprintf(stderr, "bot %d: the mirror match differs at tick %d\n", bots[b], tick);
        CHECK(same);
        gota_match_free(m[0]);
        gota_match_free(m[1]);
    }
}

int main(void)
{
    test_config();
    test_draft();
    test_bots_play();
    test_determinism();
    test_mixed();
    test_upkeep();
    test_mirror();
    return check_report("test_bots");
}
