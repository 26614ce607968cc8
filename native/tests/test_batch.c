/* test_batch.c -- the lockstep batch: agent counts, seeds, sides and
 * opponents, lane restarts and stats, lane isolation, thread independence,
 * bad inputs, and settled facings in a handed-out lane match. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "gota.h"
#include "sim/world.h"
#include "contract/contract.h"
#include "batch/batch.h"

typedef struct {
    GotaBatchBuffers io;
    int32_t *actions;
    int64_t actions_n;
} Bufs;

static void bufs_alloc(Bufs *f, const GotaBatch *b)
{
    GotaBatchInfo info;
    gota_batch_info(b, &info);
    int64_t a = info.agents, l = info.lanes;
    memset(f, 0, sizeof *f);
    f->io.obs = calloc((size_t)(a * OBS_SIZE), sizeof(float));
    f->io.obs_cap = a * OBS_SIZE;
    f->io.masks = calloc((size_t)(a * MASK_SIZE), 1);
    f->io.masks_cap = a * MASK_SIZE;
    f->io.terminals = calloc((size_t)a, 1);
    f->io.terminals_cap = a;
    f->io.truncations = calloc((size_t)a, 1);
    f->io.truncations_cap = a;
    f->io.stats = calloc((size_t)l, sizeof(GotaLaneStats));
    f->io.stats_cap = l;
    f->io.signals = calloc((size_t)(l * 2 * GOTA_SIGNALS), sizeof(int64_t));
    f->io.signals_cap = l * 2 * GOTA_SIGNALS;
    f->actions_n = a * CONTRACT_HEADS;
    f->actions = calloc((size_t)f->actions_n, sizeof(int32_t));
}

static void bufs_free(Bufs *f)
{
    free(f->io.obs);
    free(f->io.masks);
    free(f->io.terminals);
    free(f->io.truncations);
    free(f->io.stats);
    free(f->io.signals);
    free(f->actions);
}

static uint64_t rng_state;
static int32_t rnd(int32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int32_t)((rng_state >> 33) % (uint64_t)n);
}

/* Random heads for `agents` agents into out (mostly walks and attacks). */
static void random_actions(int32_t *out, int64_t agents)
{
    static const int32_t n[5] = { CONTRACT_VERBS, CONTRACT_TARGETS, CONTRACT_POINTS, CONTRACT_ABILITIES,
                                  CONTRACT_ITEMS };
    for (int64_t a = 0; a < agents; a++)
        for (int h = 0; h < 5; h++) out[a * 5 + h] = rnd(n[h]);
}

static GotaBatch *make(int32_t lanes, int32_t action_ticks, int32_t self_play, int32_t threads,
                       const int32_t *opp, int32_t nopp, int64_t max_ticks)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.max_ticks = max_ticks;
    int err = 0;
    GotaBatch *b = gota_batch_new(&cfg, lanes, action_ticks, self_play, threads, opp, nopp, &err);
    CHECK_EQ(err, GOTA_OK);
    CHECK(b != NULL);
    return b;
}

static const int32_t BASE[1] = { GOTA_BOT_BASE };

static void test_counts(void)
{
    GotaBatch *b = make(3, 4, 0, 0, BASE, 1, 2400);
    GotaBatchInfo info;
    CHECK_EQ(gota_batch_info(b, &info), GOTA_OK);
    CHECK_EQ(info.agents, 15);
    CHECK_EQ(info.agents_per_lane, 5);
    CHECK(info.threads >= 1 && info.threads <= 3);
    gota_batch_free(b);
    b = make(3, 4, 1, 0, BASE, 1, 2400);
    gota_batch_info(b, &info);
    CHECK_EQ(info.agents, 30);
    /* lane 0 has seed 0 (learner red): agents 0..4 seats 0..4, then 5..9 */
    int32_t lane = -1, seat = -1;
    CHECK_EQ(gota_batch_agent_seat(b, 7, &lane, &seat), GOTA_OK);
    CHECK_EQ(lane, 0);
    CHECK_EQ(seat, 7);
    CHECK_EQ(gota_batch_agent_seat(b, 12, &lane, &seat), GOTA_OK);
    CHECK_EQ(lane, 1);
    CHECK_EQ(seat, 2);
    CHECK_EQ(gota_batch_agent_seat(b, 30, &lane, &seat), GOTA_ERR_INDEX);
    gota_batch_free(b);
}

static void test_seeds(void)
{
    const int32_t opp[2] = { GOTA_BOT_BASE, GOTA_BOT_RUSHER };
    GotaBatch *b = make(1, 4, 0, 1, opp, 2, 2400);
    Bufs f;
    bufs_alloc(&f, b);
    GotaBatchLane ln;
    const GotaMatch *m = NULL;
    int32_t lane, seat;

    CHECK_EQ(gota_batch_seed_team(5), GOTA_TEAM_BLUE);
    CHECK_EQ(gota_batch_seed_team(14), GOTA_TEAM_RED);
    CHECK_EQ(gota_batch_seed_team(-1), -1);
    CHECK_EQ(gota_batch_reset(b, 5, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.seed, 5);
    CHECK_EQ(ln.learner_team, GOTA_TEAM_BLUE);
    CHECK_EQ(ln.opponent, GOTA_BOT_BASE);
    gota_batch_agent_seat(b, 0, &lane, &seat);
    CHECK_EQ(seat, 5);
    gota_batch_lane_match(b, 0, &m);
    CHECK_EQ(m->cfg.seed, 5);
    for (int k = 0; k < 10; k++) CHECK_EQ(m->cfg.bot[k], k < 5 ? GOTA_BOT_BASE : GOTA_BOT_EXTERNAL);
    /* the observation is blue's: the team feature says blue */
    CHECK(f.io.obs[OBS_SELF + OS_TEAM] != 0.0f || f.io.obs[OBS_SELF + OS_ALIVE] != 0.0f);

    CHECK_EQ(gota_batch_reset(b, 14, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.learner_team, GOTA_TEAM_RED);
    CHECK_EQ(ln.opponent, GOTA_BOT_RUSHER);
    gota_batch_lane_match(b, 0, &m);
    for (int k = 0; k < 10; k++) CHECK_EQ(m->cfg.bot[k], k < 5 ? GOTA_BOT_EXTERNAL : GOTA_BOT_RUSHER);
    CHECK_EQ(gota_batch_reset(b, 25, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.learner_team, GOTA_TEAM_BLUE);
    CHECK_EQ(ln.opponent, GOTA_BOT_BASE);
    CHECK_EQ(gota_batch_reset(b, -1, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.seed, 26);
    bufs_free(&f);
    gota_batch_free(b);

    b = make(3, 4, 1, 2, opp, 2, 2400);
    bufs_alloc(&f, b);
    CHECK_EQ(gota_batch_reset(b, 2, &f.io), GOTA_OK);
    for (int i = 0; i < 3; i++) {
        gota_batch_lane(b, i, &ln);
        CHECK_EQ(ln.seed, 6 + i);
        CHECK_EQ(ln.learner_team, GOTA_TEAM_BLUE);
        CHECK_EQ(ln.opponent, GOTA_BOT_EXTERNAL);   /* self-play: no bot */
        gota_batch_lane_match(b, i, &m);
        for (int k = 0; k < 10; k++) CHECK_EQ(m->cfg.bot[k], 0);
    }
    gota_batch_agent_seat(b, 10, &lane, &seat);
    CHECK_EQ(seat, 5);
    gota_batch_agent_seat(b, 15, &lane, &seat);
    CHECK_EQ(seat, 0);
    CHECK_EQ(gota_batch_reset(b, -1, &f.io), GOTA_OK);
    for (int i = 0; i < 3; i++) {
        gota_batch_lane(b, i, &ln);
        CHECK_EQ(ln.seed, 9 + i);
    }
    bufs_free(&f);
    gota_batch_free(b);
}

static void test_restart(void)
{
    GotaBatch *b = make(2, 24, 0, 2, BASE, 1, 240);
    Bufs f;
    bufs_alloc(&f, b);
    CHECK_EQ(gota_batch_reset(b, 0, &f.io), GOTA_OK);
    rng_state = 11;
    int finishes = 0;
    int64_t expect_seed[2] = { 0, 1 };
    for (int step = 0; step < 25; step++) {
        random_actions(f.actions, 10);
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_OK);
        for (int i = 0; i < 2; i++) {
            const GotaLaneStats *st = &f.io.stats[i];
            const int64_t *sig = f.io.signals + i * 2 * GOTA_SIGNALS;
            GotaBatchLane ln;
            gota_batch_lane(b, i, &ln);
            if ((step + 1) % 10 == 0) {
                finishes++;
                CHECK_EQ(st->finished, 1);
                CHECK_EQ(st->ticks, 240);
                CHECK_EQ(st->result, GOTA_RESULT_TIMEOUT);
                CHECK_EQ(st->outcome, -1);
                CHECK_EQ(st->potential, 0);
                CHECK_EQ(st->seed, expect_seed[i]);
                CHECK_EQ(st->learner_team, (expect_seed[i] % 10) / 5);
                CHECK_EQ(st->opponent, GOTA_BOT_BASE);
                CHECK(st->xp >= 0);
                CHECK(st->towers_destroyed >= 0 && st->towers_destroyed <= 11);
                CHECK_EQ(sig[GOTA_SIGNAL_OUTCOME], -1);
                CHECK_EQ(sig[GOTA_SIGNALS + GOTA_SIGNAL_OUTCOME], -1);
                CHECK_EQ(sig[GOTA_SIGNAL_DONE], 1);
                for (int j = 0; j < 5; j++) {
                    CHECK_EQ(f.io.terminals[i * 5 + j], 1);
                    CHECK_EQ(f.io.truncations[i * 5 + j], 1);
                }
                expect_seed[i] += 2;
                CHECK_EQ(ln.seed, expect_seed[i]);
                CHECK_EQ(ln.tick, 0);   /* restarted inside the step */
            } else {
                CHECK_EQ(st->finished, 0);
                CHECK_EQ(st->ticks, 0);
                CHECK_EQ(sig[GOTA_SIGNAL_DONE], 0);
                CHECK_EQ(f.io.terminals[i * 5], 0);
                CHECK_EQ(ln.tick, ((step + 1) % 10) * 24);
                CHECK(sig[GOTA_SIGNAL_GOD_HP] > 0);
                CHECK(sig[GOTA_SIGNAL_TOWER_HP] > 0);
            }
        }
    }
    CHECK(finishes >= 4);
    bufs_free(&f);
    gota_batch_free(b);
}

/* Everything a step writes for lane `i` of f equals lane 0 of g. */
/* What a step writes for lane `i` of f equals lane 0 of g (obs: observations
 * and masks too). */
static int same_lane(const Bufs *f, int i, const Bufs *g, int apl, int obs)
{
    int ok = 1;
    if (obs) {
        ok &= !memcmp(f->io.obs + (int64_t)i * apl * OBS_SIZE, g->io.obs, sizeof(float) * apl * OBS_SIZE);
        ok &= !memcmp(f->io.masks + (int64_t)i * apl * MASK_SIZE, g->io.masks, (size_t)apl * MASK_SIZE);
    }
    ok &= !memcmp(f->io.terminals + i * apl, g->io.terminals, (size_t)apl);
    ok &= !memcmp(f->io.truncations + i * apl, g->io.truncations, (size_t)apl);
    ok &= !memcmp(f->io.stats + i, g->io.stats, sizeof(GotaLaneStats));
    ok &= !memcmp(f->io.signals + i * 2 * GOTA_SIGNALS, g->io.signals, sizeof(int64_t) * 2 * GOTA_SIGNALS);
    return ok;
}

static void test_isolation(int32_t self_play)
{
    const int32_t opp[2] = { GOTA_BOT_PULLER, GOTA_BOT_BASE };
    int apl = self_play ? 10 : 5;
    GotaBatch *big = make(3, 8, self_play, 3, opp, 2, 480);
    GotaBatch *one[3];
    Bufs fb, f1[3];
    bufs_alloc(&fb, big);
    CHECK_EQ(gota_batch_reset(big, 4, &fb.io), GOTA_OK);   /* seeds 12, 13, 14 */
    for (int i = 0; i < 3; i++) {
        one[i] = make(1, 8, self_play, 1, opp, 2, 480);
        bufs_alloc(&f1[i], one[i]);
        CHECK_EQ(gota_batch_reset(one[i], 12 + i, &f1[i].io), GOTA_OK);
        CHECK(same_lane(&fb, i, &f1[i], apl, 1));
    }
    rng_state = 99;
    int mismatch = 0, restarts = 0;
    for (int step = 0; step < 70; step++) {
        random_actions(fb.actions, 3 * apl);
        CHECK_EQ(gota_batch_step(big, fb.actions, fb.actions_n, &fb.io), GOTA_OK);
        for (int i = 0; i < 3; i++) {
            memcpy(f1[i].actions, fb.actions + i * apl * 5, sizeof(int32_t) * apl * 5);
            CHECK_EQ(gota_batch_step(one[i], f1[i].actions, f1[i].actions_n, &f1[i].io), GOTA_OK);
            int finished = fb.io.stats[i].finished;
            if (finished) {
                /* the lanes continue with different seeds (seed + lanes): the
                 * finish must agree, then the single lane follows the big one */
                if (!same_lane(&fb, i, &f1[i], apl, 0)) mismatch++;
                GotaBatchLane ln;
                gota_batch_lane(big, i, &ln);
                restarts++;
                CHECK_EQ(ln.seed, 12 + i + 3);
                CHECK_EQ(gota_batch_reset(one[i], ln.seed, &f1[i].io), GOTA_OK);
            }
            uint64_t h1 = 0, h2 = 1;
            gota_batch_lane_hash(big, i, &h1);
            gota_batch_lane_hash(one[i], 0, &h2);
            if (h1 != h2 || (!finished && !same_lane(&fb, i, &f1[i], apl, 1)) ||
                (finished && (memcmp(fb.io.obs + (int64_t)i * apl * OBS_SIZE, f1[i].io.obs,
                                     sizeof(float) * apl * OBS_SIZE) ||
                              memcmp(fb.io.masks + (int64_t)i * apl * MASK_SIZE, f1[i].io.masks,
                                     (size_t)apl * MASK_SIZE)))) {
                if (!mismatch) fprintf(stderr, "step %d lane %d hash %d\n", step, i, h1 != h2);
                mismatch++;
            }
        }
    }
    CHECK_EQ(mismatch, 0);
    CHECK_EQ(restarts, 3);   /* 70 steps x 8 ticks = 560 > 480: one restart per lane */
    for (int i = 0; i < 3; i++) {
        bufs_free(&f1[i]);
        gota_batch_free(one[i]);
    }
    bufs_free(&fb);
    gota_batch_free(big);
}

/* The rows a lane writes from its teams' shared knowledge equal each seat's
 * own observation and mask of the lane's current state (a team's knowledge
 * must not leak into the other team's rows or outlive its state). */
static void test_rows_match_seats(int32_t self_play)
{
    const int32_t opp[1] = { GOTA_BOT_PULLER };
    GotaBatch *b = make(2, 5, self_play, 2, opp, 1, 400);
    Bufs f;
    bufs_alloc(&f, b);
    CHECK_EQ(gota_batch_reset(b, 7, &f.io), GOTA_OK);
    static float obs[OBS_SIZE];
    uint8_t mask[MASK_SIZE];
    int apl = b->agents_per_lane, bad = 0, rows = 0;
    rng_state = 5;
    for (int step = 0; step < 100; step++) {
        random_actions(f.actions, (int64_t)b->lanes * apl);
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_OK);
        for (int i = 0; i < b->lanes; i++) {
            const BatchLane *L = &b->lane[i];
            for (int j = 0; j < apl; j++) {
                int team = j < 5 ? L->learner_team : 1 - L->learner_team, seat = team * 5 + j % 5;
                int64_t a = (int64_t)i * apl + j;
                contract_observe(L->match, seat, obs);
                contract_mask(L->match, seat, mask);
                bad += memcmp(obs, f.io.obs + a * OBS_SIZE, sizeof obs) != 0;
                bad += memcmp(mask, f.io.masks + a * MASK_SIZE, MASK_SIZE) != 0;
                rows++;
            }
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(rows, 100 * 2 * apl);
    bufs_free(&f);
    gota_batch_free(b);
}

static void test_threads(void)
{
    const int32_t opp[3] = { GOTA_BOT_BASE, GOTA_BOT_PULLER, GOTA_BOT_RUSHER };
    GotaBatch *a = make(5, 6, 0, 1, opp, 3, 300);
    GotaBatch *c = make(5, 6, 0, 4, opp, 3, 300);
    Bufs fa, fc;
    bufs_alloc(&fa, a);
    bufs_alloc(&fc, c);
    CHECK_EQ(gota_batch_reset(a, 3, &fa.io), GOTA_OK);
    CHECK_EQ(gota_batch_reset(c, 3, &fc.io), GOTA_OK);
    rng_state = 5;
    int mismatch = 0;
    for (int step = 0; step < 60; step++) {
        random_actions(fa.actions, 25);
        memcpy(fc.actions, fa.actions, sizeof(int32_t) * 125);
        CHECK_EQ(gota_batch_step(a, fa.actions, fa.actions_n, &fa.io), GOTA_OK);
        CHECK_EQ(gota_batch_step(c, fc.actions, fc.actions_n, &fc.io), GOTA_OK);
        for (int i = 0; i < 5; i++) {
            uint64_t h1 = 0, h2 = 1;
            gota_batch_lane_hash(a, i, &h1);
            gota_batch_lane_hash(c, i, &h2);
            if (h1 != h2) mismatch++;
        }
        if (memcmp(fa.io.obs, fc.io.obs, sizeof(float) * 25 * OBS_SIZE) ||
            memcmp(fa.io.masks, fc.io.masks, 25 * MASK_SIZE) ||
            memcmp(fa.io.terminals, fc.io.terminals, 25) || memcmp(fa.io.truncations, fc.io.truncations, 25) ||
            memcmp(fa.io.stats, fc.io.stats, sizeof(GotaLaneStats) * 5) ||
            memcmp(fa.io.signals, fc.io.signals, sizeof(int64_t) * 5 * 2 * GOTA_SIGNALS))
            mismatch++;
    }
    CHECK_EQ(mismatch, 0);
    bufs_free(&fa);
    bufs_free(&fc);
    gota_batch_free(a);
    gota_batch_free(c);
}

static void test_bad_inputs(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    int err = 0;
    const int32_t bad_opp[2] = { GOTA_BOT_BASE, GOTA_BOTS };
    const int32_t ext_opp[1] = { GOTA_BOT_EXTERNAL };
    CHECK(gota_batch_new(NULL, 1, 4, 0, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_NULL);
    CHECK(gota_batch_new(&cfg, 1, 4, 0, 1, NULL, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_NULL);
    CHECK(gota_batch_new(&cfg, 0, 4, 0, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 0, 0, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 25, 0, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 4, 2, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 4, 0, -1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 4, 0, 1, BASE, 0, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 4, 0, 1, bad_opp, 2, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    CHECK(gota_batch_new(&cfg, 1, 4, 0, 1, ext_opp, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    GotaConfig bad = cfg;
    bad.max_ticks = 0;
    CHECK(gota_batch_new(&bad, 1, 4, 0, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
    bad = cfg;
    bad.heroes = 0;
    CHECK(gota_batch_new(&bad, 1, 4, 0, 1, BASE, 1, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_CONFLICT);
    gota_batch_free(NULL);

    GotaBatch *b = make(2, 4, 0, 2, BASE, 1, 2400);
    Bufs f;
    bufs_alloc(&f, b);
    CHECK_EQ(gota_batch_reset(NULL, 0, &f.io), GOTA_ERR_NULL);
    CHECK_EQ(gota_batch_reset(b, 0, NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_batch_reset(b, -2, &f.io), GOTA_ERR_RANGE);
    CHECK_EQ(gota_batch_reset(b, (int64_t)INT32_MAX, &f.io), GOTA_ERR_RANGE);
    CHECK_EQ(gota_batch_step(b, NULL, f.actions_n, &f.io), GOTA_ERR_NULL);
    CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n - 1, &f.io), GOTA_ERR_BUFFER);
    GotaBatchBuffers io = f.io;
    io.obs_cap--;
    CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &io), GOTA_ERR_BUFFER);
    io = f.io;
    io.signals = NULL;
    CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &io), GOTA_ERR_NULL);
    io = f.io;
    io.stats_cap = 1;
    CHECK_EQ(gota_batch_reset(b, 0, &io), GOTA_ERR_BUFFER);
    uint64_t h0 = 0, h1 = 0;
    gota_batch_lane_hash(b, 0, &h0);
    static const int32_t limit[5] = { 8, 25, 49, 4, 6 };
    for (int h = 0; h < 5; h++) {
        memset(f.actions, 0, sizeof(int32_t) * (size_t)f.actions_n);
        f.actions[5 * 7 + h] = limit[h];
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_ERR_RANGE);
        f.actions[5 * 7 + h] = -1;
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_ERR_RANGE);
    }
    gota_batch_lane_hash(b, 0, &h1);
    CHECK(h0 == h1);   /* nothing ran */
    GotaBatchLane ln;
    CHECK_EQ(gota_batch_lane(b, 0, &ln), GOTA_OK);
    CHECK_EQ(ln.tick, 0);
    CHECK_EQ(gota_batch_lane_hash(b, 2, &h0), GOTA_ERR_INDEX);
    CHECK_EQ(gota_batch_lane_hash(b, -1, &h0), GOTA_ERR_INDEX);
    CHECK_EQ(gota_batch_lane_hash(b, 0, NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_batch_lane(b, 5, &ln), GOTA_ERR_INDEX);
    CHECK_EQ(gota_batch_info(NULL, NULL), GOTA_ERR_NULL);
    memset(f.actions, 0, sizeof(int32_t) * (size_t)f.actions_n);
    CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_OK);
    bufs_free(&f);
    gota_batch_free(b);
}

/* A self-play lane set to a bot: the bot plays the other team from the next
 * start, its rows observe zeros and allow only noop; -1 restores external. */
static void test_set_opponent(void)
{
    const int32_t opp[1] = { GOTA_BOT_BASE };
    GotaBatch *b = make(2, 4, 1, 1, opp, 1, 2400);
    Bufs f;
    bufs_alloc(&f, b);
    GotaBatchLane ln;
    const GotaMatch *m = NULL;
    CHECK_EQ(gota_batch_set_opponent(b, 1, GOTA_BOT_PULLER), GOTA_OK);
    CHECK_EQ(gota_batch_set_opponent(b, 2, GOTA_BOT_PULLER), GOTA_ERR_INDEX);
    CHECK_EQ(gota_batch_set_opponent(b, 0, GOTA_BOTS), GOTA_ERR_RANGE);
    CHECK_EQ(gota_batch_reset(b, 0, &f.io), GOTA_OK);
    gota_batch_lane(b, 1, &ln);
    CHECK_EQ(ln.opponent, GOTA_BOT_PULLER);
    gota_batch_lane_match(b, 1, &m);
    for (int k = 0; k < 10; k++)
        CHECK_EQ(m->cfg.bot[k], k / 5 == ln.learner_team ? GOTA_BOT_EXTERNAL : GOTA_BOT_PULLER);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.opponent, GOTA_BOT_EXTERNAL);
    int64_t row = 1 * 10 + 5;   /* lane 1, first row of the other team */
    float obs_sum = 0.0f;
    for (int k = 0; k < OBS_SIZE; k++) obs_sum += f.io.obs[row * OBS_SIZE + k] != 0.0f;
    CHECK_EQ((int)obs_sum, 0);
    int mask_sum = 0;
    for (int k = 0; k < MASK_SIZE; k++) mask_sum += f.io.masks[row * MASK_SIZE + k];
    CHECK_EQ(mask_sum, 1);
    CHECK_EQ(f.io.masks[row * MASK_SIZE + MASK_VERB + VERB_NOOP], 1);
    CHECK_EQ(gota_batch_set_opponent(b, 1, -1), GOTA_OK);
    CHECK_EQ(gota_batch_reset(b, -1, &f.io), GOTA_OK);
    gota_batch_lane(b, 1, &ln);
    CHECK_EQ(ln.opponent, GOTA_BOT_EXTERNAL);
    bufs_free(&f);
    gota_batch_free(b);

    b = make(1, 4, 0, 1, opp, 1, 2400);
    CHECK_EQ(gota_batch_set_opponent(b, 0, GOTA_BOT_EXTERNAL), GOTA_ERR_RANGE);
    CHECK_EQ(gota_batch_set_opponent(b, 0, GOTA_BOT_IDLE), GOTA_OK);
    bufs_alloc(&f, b);
    CHECK_EQ(gota_batch_reset(b, 0, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.opponent, GOTA_BOT_IDLE);
    bufs_free(&f);
    gota_batch_free(b);
}

/* A bot on the learner team and a chosen next seed: bot against bot, on the
 * seed asked for, once. */
static void test_learner_bot_and_seed(void)
{
    const int32_t opp[1] = { GOTA_BOT_BASE };
    GotaBatch *b = make(2, 24, 1, 1, opp, 1, 240);
    Bufs f;
    bufs_alloc(&f, b);
    GotaBatchLane ln;
    const GotaMatch *m = NULL;
    CHECK_EQ(gota_batch_set_learner_bot(b, 0, GOTA_BOTS), GOTA_ERR_RANGE);
    CHECK_EQ(gota_batch_set_next_seed(b, 0, -2), GOTA_ERR_RANGE);
    CHECK_EQ(gota_batch_set_learner_bot(b, 0, GOTA_BOT_IDLE), GOTA_OK);
    CHECK_EQ(gota_batch_set_opponent(b, 0, GOTA_BOT_BASE), GOTA_OK);
    CHECK_EQ(gota_batch_set_next_seed(b, 0, 1234), GOTA_OK);
    CHECK_EQ(gota_batch_reset(b, 0, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.seed, 1234);
    gota_batch_lane_match(b, 0, &m);
    for (int k = 0; k < 10; k++)
        CHECK_EQ(m->cfg.bot[k], k / 5 == ln.learner_team ? GOTA_BOT_IDLE : GOTA_BOT_BASE);
    int mask_sum = 0;
    for (int k = 0; k < 10 * MASK_SIZE; k++) mask_sum += f.io.masks[k];
    CHECK_EQ(mask_sum, 10);   /* every row of lane 0 is a bot's: noop only */
    gota_batch_lane(b, 1, &ln);
    CHECK_EQ(ln.seed, 1);
    CHECK_EQ(gota_batch_set_next_seed(b, 1, 77), GOTA_OK);
    int32_t *actions = calloc((size_t)20 * CONTRACT_HEADS, sizeof *actions);
    for (int s = 0; s < 10; s++) CHECK_EQ(gota_batch_step(b, actions, 20 * CONTRACT_HEADS, &f.io), GOTA_OK);
    CHECK_EQ(f.io.stats[1].finished, 1);
    gota_batch_lane(b, 1, &ln);
    CHECK_EQ(ln.seed, 77);        /* the restart took the chosen seed */
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.seed, 1234 + 2);  /* no seed chosen: the lane's own sequence */
    free(actions);
    bufs_free(&f);
    gota_batch_free(b);
}

/* A lane started near the top of the seed range (found by benchmarks/soak.py):
 * its own sequence wraps mod 2^31 at the restart inside a step and at
 * reset(-1), where the step used to fail with GOTA_ERR_RANGE after the other
 * lanes had moved, and every later step failed again. */
static void test_seed_wraps(void)
{
    GotaBatch *b = make(2, 24, 1, 1, BASE, 1, 48);
    Bufs f;
    bufs_alloc(&f, b);
    GotaBatchLane ln;
    CHECK_EQ(gota_batch_set_next_seed(b, 0, INT32_MAX), GOTA_OK);
    CHECK_EQ(gota_batch_reset(b, 0, &f.io), GOTA_OK);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.seed, INT32_MAX);
    int32_t *actions = calloc((size_t)20 * CONTRACT_HEADS, sizeof *actions);
    for (int s = 0; s < 2; s++) CHECK_EQ(gota_batch_step(b, actions, 20 * CONTRACT_HEADS, &f.io), GOTA_OK);
    CHECK_EQ(f.io.stats[0].finished, 1);
    CHECK_EQ(f.io.stats[0].seed, INT32_MAX);
    gota_batch_lane(b, 0, &ln);
    CHECK_EQ(ln.seed, 1);            /* INT32_MAX + 2 - 2^31 */
    CHECK_EQ(ln.tick, 0);
    gota_batch_lane(b, 1, &ln);
    CHECK_EQ(ln.seed, 3);
    CHECK_EQ(gota_batch_set_next_seed(b, 1, INT32_MAX - 1), GOTA_OK);
    CHECK_EQ(gota_batch_reset(b, -1, &f.io), GOTA_OK);
    CHECK_EQ(gota_batch_reset(b, -1, &f.io), GOTA_OK);
    gota_batch_lane(b, 1, &ln);
    CHECK_EQ(ln.seed, 0);            /* INT32_MAX - 1 + 2 - 2^31 */
    free(actions);
    bufs_free(&f);
    gota_batch_free(b);
}

/* Units of lane i whose facing steering left lazy (GotaUnit.facing stale). */
static int lane_lazy_facings(const GotaBatch *b, int32_t i)
{
    const GotaMatch *m = b->lane[i].match;
    int n = 0;
    for (int k = 0; k < m->unit_n; k++) n += m->st[k].face.lazy;
    return n;
}

/* Lanes step without writing facings back (match_step_lazy); a handed-out
 * match must read like one stepped by gota_match_step: with noop actions
 * against plain matches of the same seeds, then after random actions against
 * the facings nav_facing_of gave before the hand-out, the lane hash unchanged. */
static void test_lane_match_settled(void)
{
    enum { LANES = 2, TICKS = 4 };
    GotaBatch *b = make(LANES, TICKS, 1, 1, BASE, 1, 2400);
    Bufs f;
    bufs_alloc(&f, b);
    CHECK_EQ(gota_batch_reset(b, 4, &f.io), GOTA_OK);
    GotaMatch *plain[LANES];
    for (int32_t i = 0; i < LANES; i++) {
        GotaConfig cfg = b->base;
        cfg.seed = b->lane[i].seed;
        for (int k = 0; k < GOTA_SEATS; k++) cfg.bot[k] = GOTA_BOT_EXTERNAL;
        int err = -99;
        plain[i] = gota_match_new(&cfg, &err);
        CHECK_EQ(err, GOTA_OK);
    }
    for (int step = 0; step < 40; step++) {
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_OK);   /* all noops */
        for (int32_t i = 0; i < LANES; i++) CHECK_EQ(gota_match_step(plain[i], TICKS, NULL), GOTA_OK);
    }
    for (int32_t i = 0; i < LANES; i++) {
        CHECK(lane_lazy_facings(b, i) > 0);
        const GotaMatch *m = NULL;
        CHECK_EQ(gota_batch_lane_match(b, i, &m), GOTA_OK);
        CHECK_EQ(lane_lazy_facings(b, i), 0);
        const GotaUnit *lu = NULL, *pu = NULL;
        int32_t ln = 0, pn = -1;
        CHECK_EQ(gota_match_units(m, &lu, &ln), GOTA_OK);
        CHECK_EQ(gota_match_units(plain[i], &pu, &pn), GOTA_OK);
        CHECK_EQ(ln, pn);
        int differ = 0;
        for (int k = 0; k < ln && k < pn; k++)
            differ += lu[k].id != pu[k].id || lu[k].x != pu[k].x || lu[k].z != pu[k].z || lu[k].facing != pu[k].facing;
        CHECK_EQ(differ, 0);
        gota_match_free(plain[i]);
    }
    rng_state = 11;
    for (int step = 0; step < 30; step++) {
        random_actions(f.actions, LANES * 10);
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_OK);
    }
    for (int32_t i = 0; i < LANES; i++) {
        const GotaMatch *lane = b->lane[i].match;
        int32_t facing[GOTA_MAX_UNITS];
        for (int k = 0; k < lane->unit_n; k++) facing[k] = nav_facing_of(lane->unit[k].facing, &lane->st[k].face);
        CHECK(lane_lazy_facings(b, i) > 0);
        uint64_t before = 0, after = 1;
        CHECK_EQ(gota_batch_lane_hash(b, i, &before), GOTA_OK);
        const GotaMatch *m = NULL;
        CHECK_EQ(gota_batch_lane_match(b, i, &m), GOTA_OK);
        CHECK_EQ(lane_lazy_facings(b, i), 0);
        int differ = 0;
        for (int k = 0; k < m->unit_n; k++) differ += m->unit[k].facing != facing[k];
        CHECK_EQ(differ, 0);
        CHECK_EQ(gota_batch_lane_hash(b, i, &after), GOTA_OK);
        CHECK(before == after);
    }
    bufs_free(&f);
    gota_batch_free(b);
}

/* The reward signals: each lane's are gota_match_signals of its match, the
 * hero fields are the team's sums of the seats' stats, and the cumulative
 * ones never go down within an episode; over bot-played episodes every
 * counter moves. */
static void test_signals(void)
{
    static const int counters[] = {
        GOTA_SIGNAL_TEAM_XP, GOTA_SIGNAL_GOLD_EARNED, GOTA_SIGNAL_LAST_HITS, GOTA_SIGNAL_NEUTRAL_KILLS,
        GOTA_SIGNAL_KILLS, GOTA_SIGNAL_DEATHS, GOTA_SIGNAL_ASSISTS, GOTA_SIGNAL_HERO_DAMAGE,
        GOTA_SIGNAL_STRUCTURE_DAMAGE, GOTA_SIGNAL_HEALING};
    const int nc = (int)(sizeof counters / sizeof counters[0]);
    const int32_t opp[1] = { GOTA_BOT_RUSHER };
    GotaBatch *b = make(2, 24, 0, 1, opp, 1, 4800);
    Bufs f;
    bufs_alloc(&f, b);
    for (int i = 0; i < 2; i++) CHECK_EQ(gota_batch_set_learner_bot(b, i, GOTA_BOT_PULLER), GOTA_OK);
    CHECK_EQ(gota_batch_reset(b, 0, &f.io), GOTA_OK);
    int64_t last[2][2 * GOTA_SIGNALS], most[GOTA_SIGNALS] = {0};
    memcpy(last, f.io.signals, sizeof last);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < nc; k++) CHECK_EQ(last[i][counters[k]] + last[i][GOTA_SIGNALS + counters[k]], 0);
    int64_t small[2 * GOTA_SIGNALS - 1];
    const GotaMatch *m = NULL;
    gota_batch_lane_match(b, 0, &m);
    CHECK_EQ(gota_match_signals(m, small, 2 * GOTA_SIGNALS - 1), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_match_signals(NULL, small, 2 * GOTA_SIGNALS), GOTA_ERR_NULL);
    for (int step = 0; step < 450; step++) {
        CHECK_EQ(gota_batch_step(b, f.actions, f.actions_n, &f.io), GOTA_OK);
        for (int i = 0; i < 2; i++) {
            const int64_t *sig = f.io.signals + i * 2 * GOTA_SIGNALS;
            for (int t = 0; t < 2; t++)
                for (int k = 0; k < nc; k++) {
                    int c = counters[k];
                    CHECK(sig[t * GOTA_SIGNALS + c] >= last[i][t * GOTA_SIGNALS + c]);
                    if (sig[t * GOTA_SIGNALS + c] > most[c]) most[c] = sig[t * GOTA_SIGNALS + c];
                }
            if (f.io.stats[i].finished) {   /* restarted: the next episode's start values are 0 */
                memset(last[i], 0, sizeof last[i]);
                continue;
            }
            memcpy(last[i], sig, sizeof last[i]);
            int64_t mine[2 * GOTA_SIGNALS];
            gota_batch_lane_match(b, i, &m);
            CHECK_EQ(gota_match_signals(m, mine, 2 * GOTA_SIGNALS), GOTA_OK);
            CHECK(memcmp(mine, sig, sizeof mine) == 0);
            for (int t = 0; t < 2; t++) {
                int64_t want[GOTA_SIGNALS] = {0};
                for (int s = t * GOTA_SEATS_PER_TEAM; s < (t + 1) * GOTA_SEATS_PER_TEAM; s++) {
                    GotaSeatStats st;
                    CHECK_EQ(gota_match_seat_stats(m, s, &st), GOTA_OK);
                    want[GOTA_SIGNAL_TEAM_XP] += st.xp;
                    want[GOTA_SIGNAL_GOLD_EARNED] += st.gold_earned;
                    want[GOTA_SIGNAL_LAST_HITS] += st.last_hits;
                    want[GOTA_SIGNAL_NEUTRAL_KILLS] += st.neutral_kills;
                    want[GOTA_SIGNAL_KILLS] += st.kills;
                    want[GOTA_SIGNAL_DEATHS] += st.deaths;
                    want[GOTA_SIGNAL_ASSISTS] += st.assists;
                    want[GOTA_SIGNAL_HERO_DAMAGE] += st.hero_damage;
                    want[GOTA_SIGNAL_STRUCTURE_DAMAGE] += st.tower_damage + st.god_damage;
                    want[GOTA_SIGNAL_HEALING] += st.healing;
                }
                for (int k = 0; k < nc; k++) CHECK_EQ(sig[t * GOTA_SIGNALS + counters[k]], want[counters[k]]);
            }
        }
    }
    for (int k = 0; k < nc; k++) CHECK(most[counters[k]] > 0);
    printf("  signals: most gold %lld, last hits %lld, neutrals %lld, kills %lld, deaths %lld, assists %lld, "
           "hero damage %lld, structure damage %lld, healing %lld\n", (long long)most[GOTA_SIGNAL_GOLD_EARNED],
           (long long)most[GOTA_SIGNAL_LAST_HITS], (long long)most[GOTA_SIGNAL_NEUTRAL_KILLS],
           (long long)most[GOTA_SIGNAL_KILLS], (long long)most[GOTA_SIGNAL_DEATHS], (long long)most[GOTA_SIGNAL_ASSISTS],
           (long long)most[GOTA_SIGNAL_HERO_DAMAGE], (long long)most[GOTA_SIGNAL_STRUCTURE_DAMAGE],
           (long long)most[GOTA_SIGNAL_HEALING]);
    bufs_free(&f);
    gota_batch_free(b);
}

int main(void)
{
    test_counts();
    test_seeds();
    test_restart();
    test_isolation(0);
    test_isolation(1);
    test_rows_match_seats(1);
    test_rows_match_seats(0);
    test_threads();
    test_bad_inputs();
    test_set_opponent();
    test_learner_bot_and_seed();
    test_seed_wraps();
    test_lane_match_settled();
    test_signals();
    return check_report("test_batch");
}
