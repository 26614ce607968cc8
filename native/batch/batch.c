/*
 * batch.c -- the lockstep batch: N lanes of one match each, stepped together
 * by a persistent thread pool (batch.h; docs/arena.md).
 *
 * Per lane and step: the acting agents' heads go through the contract
 * (contract_act issues a command once, a noop issues nothing, the order is
 * held between decisions), the match runs action_ticks ticks (fewer when it
 * ends), the per-team reward signals are written (the rewards are Python's:
 * gota_arena.rewards turns the signals into the reward mode's rewards), a
 * finished lane records its stats and restarts with its next seed, and the
 * observations and masks of the new state are written. A restart renews the
 * lane's match in place from the lane's config (seed, bot seats; match_renew),
 * so a restarted lane is byte-identical to a fresh match with that seed and
 * an episode allocates nothing.
 *
 * Lanes step with match_step_lazy: the observations read facings through
 * nav_facing_of, so the write-back of every moving unit's facing is paid only
 * when gota_batch_lane_match hands a match out (the lane hash reads through
 * nav_facing_of as well).
 */
#ifdef __linux__
#define _GNU_SOURCE     /* sched_getaffinity: the cores this process may run on */
#endif
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "batch.h"
#include "sim/world.h"
#include "contract/contract.h"
#include "basic/basic.h"

#define BATCH_WORKER_STACK (2u << 20)   /* bytes */
/* how long the caller polls for the workers' last lanes before it sleeps:
 * about one lane's step, less than the wake-up of a sleeping thread costs */
#define BATCH_CALLER_SPIN_NS 200000

/* ---- lanes ------------------------------------------------------------- */
int32_t gota_batch_seed_team(int64_t seed)
{
    return seed < 0 ? -1 : (int32_t)((seed % GOTA_SEATS) / GOTA_SEATS_PER_TEAM);
}

/* Seat of agent j (0..agents_per_lane-1) of a lane: the learner team's seats
 * first, then the other team's. */
static int32_t lane_seat(const BatchLane *L, int32_t j)
{
    int32_t team = j < 5 ? L->learner_team : 1 - L->learner_team;
    return team * 5 + j % 5;
}

static int64_t lane_team_score(const GotaMatch *m, int32_t team, int64_t *glory)
{
    int64_t score = 0, g = 0;
    if (gota_match_team_score(m, team, &score, &g) != GOTA_OK) score = g = 0;
    if (glory) *glory = g;
    return score;
}

/* (Re)start a lane with `seed`: a new match from the base config with the
 * lane's seed and bot seats; the old match is freed only on success. */
static int lane_start(GotaBatch *b, BatchLane *L, int64_t seed)
{
    if (seed < 0 || seed > INT32_MAX) return GOTA_ERR_RANGE;
    GotaConfig cfg = b->base;
    int32_t learner = gota_batch_seed_team(seed);
    int32_t opponent = L->opponent_override >= 0 ? L->opponent_override
                     : b->self_play              ? GOTA_BOT_EXTERNAL
                                                 : b->opponents[(seed / 10) % b->opponent_count];
    cfg.seed = seed;
    for (int k = 0; k < GOTA_SEATS; k++)
        cfg.bot[k] = k / 5 == learner ? L->learner_bot : opponent;
    int err = GOTA_OK;
    /* a restart renews the lane's match in place: no allocator churn per episode */
    GotaMatch *m = L->match;
    if (m) err = match_renew(m, &cfg);
    else if (!(m = gota_match_new(&cfg, &err))) return err != GOTA_OK ? err : GOTA_ERR_INTERNAL;
    if (err == GOTA_OK && (opponent == GOTA_BOT_SCRIPT || L->learner_bot == GOTA_BOT_SCRIPT)) {
        /* script seats: a VM each, then the reset again so the scripts draft */
        for (int k = 0; k < GOTA_SEATS && err == GOTA_OK; k++)
            if (cfg.bot[k] == GOTA_BOT_SCRIPT)
                err = gota_match_set_script(m, k, k / 5 == learner ? L->learner_script : L->opponent_script);
        if (err == GOTA_OK) err = gota_match_reset(m, seed);
    }
    if (err != GOTA_OK) {
        if (m != L->match) gota_match_free(m);
        return err;
    }
    L->match = m;
    nav_lend_search(&m->nav, L->search);
    L->seed = seed;
    L->learner_team = learner;
    L->opponent = opponent;
    L->learner_bot_now = L->learner_bot;
    L->slots_ready = 0;
    return GOTA_OK;
}

static int64_t lane_tower_hp(const GotaMatch *m, int32_t team)
{
    int64_t sum = 0;
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *mb = &m->map->building[i];
        int slot = m->building_slot[i];
        if (mb->kind != GOTA_KIND_TOWER || mb->team != team || !m->building_alive[i] || slot < 0) continue;
        if (m->unit[slot].alive) sum += m->unit[slot].hp;
    }
    return sum;
}

static int64_t lane_towers_destroyed(const GotaMatch *m, int32_t team)
{
    int64_t n = 0;
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *mb = &m->map->building[i];
        if (mb->kind == GOTA_KIND_TOWER && mb->team == team && !m->building_alive[i]) n++;
    }
    return n;
}

static int32_t lane_outcome(const GotaMatch *m, int32_t team)
{
    if (m->result == GOTA_RESULT_RUNNING) return 0;
    return m->result == GOTA_RESULT_WIN && m->winner == team ? 1 : -1;
}

/* The signals of both teams (GOTA_SIGNAL_*); the hero counters are the
 * seats' GotaSeatStats, kept where the events happen (combat.c, economy.c,
 * heroes.c, abilities.c), summed here. */
static void lane_signals(const GotaMatch *m, int64_t *out /* [2][GOTA_SIGNALS] */)
{
    for (int32_t t = 0; t < 2; t++) {
        int64_t *s = out + t * GOTA_SIGNALS;
        memset(s, 0, GOTA_SIGNALS * sizeof *s);
        for (int k = t * SEATS_PER_TEAM; k < (t + 1) * SEATS_PER_TEAM; k++) {
            if (m->hero_slot[k] < 0) continue;   /* a match without heroes */
            const HeroState *h = &m->hero[k];
            const GotaSeatStats *st = &h->stats;
            s[GOTA_SIGNAL_TEAM_XP] += h->xp;
            s[GOTA_SIGNAL_GOLD_EARNED] += st->gold_earned;
            s[GOTA_SIGNAL_LAST_HITS] += st->last_hits;
            s[GOTA_SIGNAL_NEUTRAL_KILLS] += st->neutral_kills;
            s[GOTA_SIGNAL_KILLS] += st->kills;
            s[GOTA_SIGNAL_DEATHS] += h->deaths;
            s[GOTA_SIGNAL_ASSISTS] += st->assists;
            s[GOTA_SIGNAL_HERO_DAMAGE] += st->hero_damage;
            s[GOTA_SIGNAL_STRUCTURE_DAMAGE] += st->tower_damage + st->god_damage;
            s[GOTA_SIGNAL_HEALING] += st->healing;
        }
        s[GOTA_SIGNAL_TEAM_SCORE] = lane_team_score(m, t, NULL);
        s[GOTA_SIGNAL_TOWER_HP] = lane_tower_hp(m, t);
        s[GOTA_SIGNAL_GOD_HP] = m->unit[m->god_slot[t]].alive ? m->unit[m->god_slot[t]].hp : 0;
        s[GOTA_SIGNAL_OUTCOME] = lane_outcome(m, t);
        s[GOTA_SIGNAL_DONE] = m->result != GOTA_RESULT_RUNNING;
    }
}

int gota_match_signals(const GotaMatch *m, int64_t *out, int64_t cap)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (cap < 2 * GOTA_SIGNALS) return GOTA_ERR_BUFFER;
    lane_signals(m, out);
    return GOTA_OK;
}

static void lane_finish_stats(const BatchLane *L, GotaLaneStats *st)
{
    const GotaMatch *m = L->match;
    int32_t t = L->learner_team;
    int64_t glory = 0;
    st->finished = 1;
    st->outcome = lane_outcome(m, t);
    st->ticks = m->tick;
    st->result = m->result;
    st->learner_team = t;
    st->opponent = L->opponent;
    st->seed = L->seed;
    st->score = lane_team_score(m, t, &glory);
    st->potential = glory;
    for (int k = t * 5; k < t * 5 + 5; k++) {
        GotaSeatStats ss;
        if (gota_match_seat_stats(m, k, &ss) == GOTA_OK) {
            st->xp += ss.xp;
            st->kills += ss.kills;
        }
    }
    st->towers_destroyed = lane_towers_destroyed(m, 1 - t);
}

/* Agent j of a lane is played by a bot: an other-team row of a self-play lane
 * whose opponent was set to a bot (gota_batch_set_opponent), or a learner-team
 * row while the lane's learner team is a bot (gota_batch_set_learner_bot). */
static int lane_row_is_bot(const BatchLane *L, int32_t j)
{
    return (j >= 5 ? L->opponent : L->learner_bot_now) != GOTA_BOT_EXTERNAL;
}

/* Observations and masks of every agent of lane i for the current state; a
 * bot's row is zeros with only noop allowed. The slot tables are kept: the
 * next decisions are decoded against the very table their observation showed. */
static void lane_observe(GotaBatch *b, int32_t i)
{
    BatchLane *L = &b->lane[i];
    /* each team's shared knowledge, filled at its first agent row (stack: no
     * allocation, nothing kept past this state) */
    ContractTeam team[2];
    int have[2] = {0, 0};
    for (int32_t j = 0; j < b->agents_per_lane; j++) {
        int64_t a = (int64_t)i * b->agents_per_lane + j;
        int32_t seat = lane_seat(L, j);
        float *obs = b->io.obs + a * OBS_SIZE;
        uint8_t *mask = b->io.masks + a * MASK_SIZE;
        if (lane_row_is_bot(L, j)) {
            memset(obs, 0, OBS_SIZE * sizeof *obs);
            memset(mask, 0, MASK_SIZE);
            mask[MASK_VERB + VERB_NOOP] = 1;
            continue;
        }
        ContractSlots *cs = &L->slots[j];
        int t = hero_team(seat);
        if (!have[t]) {
            contract_team(L->match, t, &team[t]);
            have[t] = 1;
        }
        if (contract_slots_team(L->match, &team[t], seat, cs) == 0) {
            contract_observe_team(L->match, &team[t], cs, seat, obs);
            contract_mask_slots(L->match, cs, seat, mask);
        } else {
            contract_observe(L->match, seat, obs);
            contract_mask(L->match, seat, mask);
        }
    }
    L->slots_ready = 1;
}

static void lane_zero_outputs(const GotaBatch *b, int32_t i)
{
    int64_t a0 = (int64_t)i * b->agents_per_lane;
    for (int32_t j = 0; j < b->agents_per_lane; j++) {
        b->io.terminals[a0 + j] = 0;
        b->io.truncations[a0 + j] = 0;
    }
    memset(&b->io.stats[i], 0, sizeof b->io.stats[i]);
}

/* The seed a lane continues with by itself: its seed + lanes, wrapping past
 * INT32_MAX to the bottom of the range (mod 2^31). A lane that started near the
 * top (set_next_seed, reset with a large seed) must restart inside a step like
 * any other, not fail it after the other lanes moved. */
static int64_t lane_next_seed(const GotaBatch *b, const BatchLane *L)
{
    int64_t seed = L->seed + b->lanes;
    return seed > INT32_MAX ? seed - ((int64_t)INT32_MAX + 1) : seed;
}

static int lane_reset(GotaBatch *b, int32_t i)
{
    BatchLane *L = &b->lane[i];
    int64_t seed = L->next_seed >= 0 ? L->next_seed : b->job_seed < 0 ? lane_next_seed(b, L) : b->job_seed * b->lanes + i;
    L->next_seed = -1;
    int err = lane_start(b, L, seed);
    lane_zero_outputs(b, i);
    if (err != GOTA_OK) return err;
    lane_signals(L->match, b->io.signals + (int64_t)i * 2 * GOTA_SIGNALS);
    lane_observe(b, i);
    return GOTA_OK;
}

static int lane_step(GotaBatch *b, int32_t i)
{
    BatchLane *L = &b->lane[i];
    GotaMatch *m = L->match;
    int64_t a0 = (int64_t)i * b->agents_per_lane;
    lane_zero_outputs(b, i);
    if (m->result == GOTA_RESULT_RUNNING) {
        for (int32_t j = 0; j < b->agents_per_lane; j++) {
            int32_t seat = lane_seat(L, j);
            int slot = m->hero_slot[seat];
            if (slot < 0 || !m->unit[slot].alive || lane_row_is_bot(L, j)) continue;   /* not acting: ignored */
            const int32_t *heads = b->job_actions + (a0 + j) * CONTRACT_HEADS;
            if (L->slots_ready)
                contract_act_slots(m, &L->slots[j], seat, heads);
            else
                contract_act(m, seat, heads);
        }
        int err = match_step_lazy(m, b->action_ticks, NULL);
        if (err != GOTA_OK) return err;
    }
    int finished = m->result != GOTA_RESULT_RUNNING;
    lane_signals(m, b->io.signals + (int64_t)i * 2 * GOTA_SIGNALS);
    int truncated = m->result == GOTA_RESULT_TIMEOUT;
    for (int32_t j = 0; j < b->agents_per_lane; j++) {
        b->io.terminals[a0 + j] = (uint8_t)finished;
        b->io.truncations[a0 + j] = (uint8_t)truncated;
    }
    if (finished) {
        lane_finish_stats(L, &b->io.stats[i]);
        int64_t seed = L->next_seed >= 0 ? L->next_seed : lane_next_seed(b, L);
        L->next_seed = -1;
        int err = lane_start(b, L, seed);
        if (err != GOTA_OK) return err;
    }
    lane_observe(b, i);
    return GOTA_OK;
}

/* Run a job on lane i with the thread's A* scratch lent to the lane's match
 * (and to the match a restart makes), taken back before the lane is left. */
static int lane_run_job(GotaBatch *b, int job, int32_t i, NavSearch *search)
{
    BatchLane *L = &b->lane[i];
    L->search = search;
    if (L->match) nav_lend_search(&L->match->nav, search);
    int err = job == BATCH_JOB_RESET ? lane_reset(b, i) : lane_step(b, i);
    if (L->match) nav_lend_search(&L->match->nav, NULL);
    L->search = NULL;
    return err;
}

/* ---- the thread pool ---------------------------------------------------- */
static int64_t clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Take lanes until none is left, timing each one when other threads share the
 * job (the next job's order). Called and returns with the pool mutex held. */
static void pool_drain(GotaBatch *b, NavSearch *search)
{
    BatchPool *p = &b->pool;
    int job = p->job, timed = p->workers > 0;
    while (p->next_lane < b->lanes) {
        int32_t i = p->turn[p->next_lane++].lane;
        pthread_mutex_unlock(&p->mu);
        int64_t start = timed ? clock_ns() : 0;
        b->lane[i].err = lane_run_job(b, job, i, search);
        if (timed) b->lane[i].cost_ns = clock_ns() - start;
        pthread_mutex_lock(&p->mu);
    }
}

/* longest last job first; lane order among equals */
static int turn_before(const void *x, const void *y)
{
    const BatchTurn *a = x, *b = y;
    if (a->cost_ns != b->cost_ns) return a->cost_ns > b->cost_ns ? -1 : 1;
    return (a->lane > b->lane) - (a->lane < b->lane);
}

/* The hand-out order of the next job. Which thread runs a lane never changes
 * what the lane writes, so the order is free to follow the clock. */
static void pool_order(GotaBatch *b)
{
    BatchPool *p = &b->pool;
    for (int32_t i = 0; i < b->lanes; i++) {
        p->turn[i].lane = i;
        p->turn[i].cost_ns = b->lane[i].cost_ns;
    }
    if (p->workers > 0) qsort(p->turn, (size_t)b->lanes, sizeof *p->turn, turn_before);
}

typedef struct {
    GotaBatch *b;
    NavSearch *search;
} WorkerArg;

static void *pool_worker(void *arg)
{
    GotaBatch *b = arg;
    BatchPool *p = &b->pool;
    uint64_t seen = 0;   /* the generation at creation: jobs may start before this thread runs */
    pthread_mutex_lock(&p->mu);
    NavSearch *search = &p->search[1 + p->started++];
    for (;;) {
        while (p->generation == seen) pthread_cond_wait(&p->wake, &p->mu);
        seen = p->generation;
        if (p->job == BATCH_JOB_EXIT) break;
        pool_drain(b, search);
        if (atomic_fetch_sub(&p->busy, 1) == 1) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The cores this process may use: its CPU affinity where the system tells
 * (taskset, container CPU sets), else the online cores. */
static int32_t usable_cores(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 1) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int32_t)n;
}

static int pool_start(GotaBatch *b)
{
    BatchPool *p = &b->pool;
    if (pthread_mutex_init(&p->mu, NULL) != 0) return GOTA_ERR_NOMEM;
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        return GOTA_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        return GOTA_ERR_NOMEM;
    }
    b->pool_ready = 1;
    p->search = calloc((size_t)b->threads, sizeof *p->search);
    p->turn = malloc((size_t)b->lanes * sizeof *p->turn);
    if (!p->search || !p->turn) return GOTA_ERR_NOMEM;
    int32_t want = b->threads - 1;
    if (want > 0) {
        p->worker = calloc((size_t)want, sizeof *p->worker);
        if (!p->worker) return GOTA_ERR_NOMEM;
        /* lane_observe keeps two teams' knowledge on the stack (~70 KiB): ask
         * for a stack that holds it where the default is small (musl: 128 KiB) */
        pthread_attr_t attr;
        int sized = pthread_attr_init(&attr) == 0;
        if (sized && pthread_attr_setstacksize(&attr, BATCH_WORKER_STACK) != 0) {
            pthread_attr_destroy(&attr);
            sized = 0;
        }
        pthread_mutex_lock(&p->mu);
        for (int32_t k = 0; k < want; k++) {
            if (pthread_create(&p->worker[k], sized ? &attr : NULL, pool_worker, b) != 0) break;
            p->workers++;
        }
        pthread_mutex_unlock(&p->mu);
        if (sized) pthread_attr_destroy(&attr);
        if (p->workers < want) return GOTA_ERR_NOMEM;
    }
    return GOTA_OK;
}

static void pool_stop(GotaBatch *b)
{
    BatchPool *p = &b->pool;
    if (!b->pool_ready) return;
    pthread_mutex_lock(&p->mu);
    p->job = BATCH_JOB_EXIT;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int32_t k = 0; k < p->workers; k++) pthread_join(p->worker[k], NULL);
    free(p->worker);
    free(p->search);
    free(p->turn);
    p->worker = NULL;
    p->search = NULL;
    p->turn = NULL;
    p->workers = p->started = 0;
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    b->pool_ready = 0;
}

/* Run a job over every lane on the caller and the workers; the first lane's
 * error in lane order (so the code does not depend on scheduling). */
static int pool_run(GotaBatch *b, int job)
{
    BatchPool *p = &b->pool;
    pool_order(b);
    pthread_mutex_lock(&p->mu);
    p->job = job;
    p->next_lane = 0;
    atomic_store(&p->busy, p->workers);
    p->generation++;
    if (p->workers) pthread_cond_broadcast(&p->wake);
    pool_drain(b, &p->search[0]);
    if (atomic_load(&p->busy) > 0) {
        /* the workers are on their last lanes: poll a while, unlocked (they
         * take the mutex to finish), before paying for a wake-up */
        pthread_mutex_unlock(&p->mu);
        int64_t until = clock_ns() + BATCH_CALLER_SPIN_NS;
        while (atomic_load(&p->busy) > 0 && clock_ns() < until) sched_yield();
        pthread_mutex_lock(&p->mu);
    }
    while (atomic_load(&p->busy) > 0) pthread_cond_wait(&p->done, &p->mu);
    p->job = BATCH_JOB_NONE;
    pthread_mutex_unlock(&p->mu);
    for (int32_t i = 0; i < b->lanes; i++)
        if (b->lane[i].err != GOTA_OK) return b->lane[i].err;
    return GOTA_OK;
}

/* ---- the public API ----------------------------------------------------- */
void gota_batch_free(GotaBatch *b)
{
    if (!b) return;
    pool_stop(b);
    if (b->lane)
        for (int32_t i = 0; i < b->lanes; i++) {
            gota_match_free(b->lane[i].match);
            basic_program_release(b->lane[i].opponent_script);
            basic_program_release(b->lane[i].learner_script);
        }
    free(b->lane);
    free(b->slots);
    free(b->opponents);
    free(b);
}

/* The threads a batch of `lanes` lanes runs: `threads` (0 = the usable cores),
 * never more than the cores or the lanes, at least one. */
static int32_t batch_threads(int32_t threads, int32_t lanes)
{
    int32_t cores = usable_cores();
    int32_t t = threads == 0 ? cores : threads;
    if (t > cores) t = cores;
    if (t > lanes) t = lanes;
    return t < 1 ? 1 : t;
}

int gota_batch_bytes(int32_t lanes, int32_t self_play, int32_t threads, int64_t *bytes)
{
    if (!bytes) return GOTA_ERR_NULL;
    if (lanes < 1 || lanes > GOTA_BATCH_MAX_LANES || (self_play != 0 && self_play != 1) || threads < 0)
        return GOTA_ERR_RANGE;
    int64_t agents_per_lane = self_play ? 10 : 5;
    int64_t lane = (int64_t)sizeof(GotaMatch) + (int64_t)sizeof(BatchLane) + (int64_t)sizeof(BatchTurn)
                 + agents_per_lane * (int64_t)sizeof(ContractSlots);
    *bytes = (int64_t)sizeof(GotaBatch) + (int64_t)batch_threads(threads, lanes) * (int64_t)sizeof(NavSearch)
           + (int64_t)lanes * lane;
    return GOTA_OK;
}

GotaBatch *gota_batch_new(const GotaConfig *base, int32_t lanes, int32_t action_ticks, int32_t self_play,
                          int32_t threads, const int32_t *opponents, int32_t opponent_count, int *err)
{
    int code = GOTA_OK;
    GotaBatch *b = NULL;
    if (!base || !opponents) code = GOTA_ERR_NULL;
    else if (lanes < 1 || lanes > GOTA_BATCH_MAX_LANES || action_ticks < 1 ||
             action_ticks > GOTA_BATCH_MAX_ACTION_TICKS || (self_play != 0 && self_play != 1) ||
             threads < 0 || opponent_count < 1 || opponent_count > 1024)
        code = GOTA_ERR_RANGE;
    else if (!base->heroes) code = GOTA_ERR_CONFLICT;   /* agents are heroes */
    else {
        for (int32_t k = 0; k < opponent_count; k++)
            if (opponents[k] <= GOTA_BOT_EXTERNAL || opponents[k] >= GOTA_BOTS) code = GOTA_ERR_RANGE;
    }
    if (code == GOTA_OK && !(b = calloc(1, sizeof *b))) code = GOTA_ERR_NOMEM;
    if (code == GOTA_OK) {
        b->base = *base;
        b->lanes = lanes;
        b->action_ticks = action_ticks;
        b->self_play = self_play;
        b->agents_per_lane = self_play ? 10 : 5;
        b->agents = lanes * b->agents_per_lane;
        b->threads = batch_threads(threads, lanes);
        b->opponent_count = opponent_count;
        b->opponents = malloc((size_t)opponent_count * sizeof *b->opponents);
        b->lane = calloc((size_t)lanes, sizeof *b->lane);
        b->slots = calloc((size_t)b->agents, sizeof *b->slots);
        if (!b->opponents || !b->lane || !b->slots) code = GOTA_ERR_NOMEM;
    }
    if (code == GOTA_OK) {
        memcpy(b->opponents, opponents, (size_t)opponent_count * sizeof *b->opponents);
        /* seeded as reset(0); serial, so the shared map is built before any worker runs */
        for (int32_t i = 0; i < lanes && code == GOTA_OK; i++) {
            b->lane[i].opponent_override = -1;
            b->lane[i].next_seed = -1;
            b->lane[i].slots = b->slots + (int64_t)i * b->agents_per_lane;
            code = lane_start(b, &b->lane[i], i);
        }
    }
    if (code == GOTA_OK) code = pool_start(b);
    if (code != GOTA_OK) {
        gota_batch_free(b);
        b = NULL;
    }
    if (err) *err = code;
    return b;
}

int gota_batch_info(const GotaBatch *b, GotaBatchInfo *out)
{
    if (!b || !out) return GOTA_ERR_NULL;
    out->lanes = b->lanes;
    out->agents = b->agents;
    out->agents_per_lane = b->agents_per_lane;
    out->action_ticks = b->action_ticks;
    out->self_play = b->self_play;
    out->threads = b->threads;
    out->opponent_count = b->opponent_count;
    out->obs_size = OBS_SIZE;
    out->mask_size = MASK_SIZE;
    out->heads = CONTRACT_HEADS;
    out->signals = GOTA_SIGNALS;
    return GOTA_OK;
}

static int check_buffers(const GotaBatch *b, const GotaBatchBuffers *io)
{
    if (!io || !io->obs || !io->masks || !io->terminals || !io->truncations || !io->stats || !io->signals)
        return GOTA_ERR_NULL;
    int64_t agents = b->agents, lanes = b->lanes;
    if (io->obs_cap < agents * OBS_SIZE || io->masks_cap < agents * MASK_SIZE ||
        io->terminals_cap < agents || io->truncations_cap < agents || io->stats_cap < lanes ||
        io->signals_cap < lanes * 2 * GOTA_SIGNALS)
        return GOTA_ERR_BUFFER;
    return GOTA_OK;
}

int gota_batch_reset(GotaBatch *b, int64_t seed, const GotaBatchBuffers *io)
{
    if (!b) return GOTA_ERR_NULL;
    int err = check_buffers(b, io);
    if (err != GOTA_OK) return err;
    if (seed < -1 || (seed >= 0 && seed > ((int64_t)INT32_MAX - (b->lanes - 1)) / b->lanes)) return GOTA_ERR_RANGE;
    b->job_seed = seed;
    b->io = *io;
    return pool_run(b, BATCH_JOB_RESET);
}

int gota_batch_step(GotaBatch *b, const int32_t *actions, int64_t actions_cap, const GotaBatchBuffers *io)
{
    static const int32_t head_n[CONTRACT_HEADS] = {
        CONTRACT_VERBS, CONTRACT_TARGETS, CONTRACT_POINTS, CONTRACT_ABILITIES, CONTRACT_ITEMS
    };
    if (!b || !actions) return GOTA_ERR_NULL;
    int err = check_buffers(b, io);
    if (err != GOTA_OK) return err;
    int64_t n = (int64_t)b->agents * CONTRACT_HEADS;
    if (actions_cap < n) return GOTA_ERR_BUFFER;
    for (int64_t k = 0; k < n; k++)
        if (actions[k] < 0 || actions[k] >= head_n[k % CONTRACT_HEADS]) return GOTA_ERR_RANGE;
    for (int32_t i = 0; i < b->lanes; i++)
        if (!b->lane[i].match) return GOTA_ERR_INTERNAL;
    b->job_actions = actions;
    b->io = *io;
    err = pool_run(b, BATCH_JOB_STEP);
    b->job_actions = NULL;
    return err;
}

int gota_batch_lane(const GotaBatch *b, int32_t lane, GotaBatchLane *out)
{
    if (!b || !out) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    const BatchLane *L = &b->lane[lane];
    out->seed = L->seed;
    out->learner_team = L->learner_team;
    out->opponent = L->opponent;
    out->tick = L->match ? L->match->tick : 0;
    out->result = L->match ? L->match->result : GOTA_RESULT_RUNNING;
    return GOTA_OK;
}

int gota_batch_set_opponent(GotaBatch *b, int32_t lane, int32_t bot)
{
    if (!b) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    if (bot < -1 || bot >= GOTA_BOTS || (bot == GOTA_BOT_EXTERNAL && !b->self_play)) return GOTA_ERR_RANGE;
    b->lane[lane].opponent_override = bot;
    return GOTA_OK;
}

int gota_batch_set_learner_bot(GotaBatch *b, int32_t lane, int32_t bot)
{
    if (!b) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    if (bot < GOTA_BOT_EXTERNAL || bot >= GOTA_BOTS) return GOTA_ERR_RANGE;
    b->lane[lane].learner_bot = bot;
    return GOTA_OK;
}

static void swap_script(GotaBasicProgram **slot, GotaBasicProgram *p)
{
    basic_program_retain(p);
    basic_program_release(*slot);
    *slot = p;
}

int gota_batch_set_opponent_script(GotaBatch *b, int32_t lane, GotaBasicProgram *p)
{
    if (!b) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    BatchLane *L = &b->lane[lane];
    swap_script(&L->opponent_script, p);
    L->opponent_override = p ? GOTA_BOT_SCRIPT : -1;
    return GOTA_OK;
}

int gota_batch_set_learner_script(GotaBatch *b, int32_t lane, GotaBasicProgram *p)
{
    if (!b) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    BatchLane *L = &b->lane[lane];
    swap_script(&L->learner_script, p);
    L->learner_bot = p ? GOTA_BOT_SCRIPT : GOTA_BOT_EXTERNAL;
    return GOTA_OK;
}

int gota_batch_set_next_seed(GotaBatch *b, int32_t lane, int64_t seed)
{
    if (!b) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    if (seed < -1 || seed > INT32_MAX) return GOTA_ERR_RANGE;
    b->lane[lane].next_seed = seed;
    return GOTA_OK;
}

int gota_batch_lane_hash(const GotaBatch *b, int32_t lane, uint64_t *out)
{
    if (!b || !out) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    if (!b->lane[lane].match) return GOTA_ERR_INTERNAL;
    return gota_match_hash(b->lane[lane].match, out);
}

int gota_batch_agent_seat(const GotaBatch *b, int32_t agent, int32_t *lane, int32_t *seat)
{
    if (!b || !lane || !seat) return GOTA_ERR_NULL;
    if (agent < 0 || agent >= b->agents) return GOTA_ERR_INDEX;
    *lane = agent / b->agents_per_lane;
    *seat = lane_seat(&b->lane[*lane], agent % b->agents_per_lane);
    return GOTA_OK;
}

int gota_batch_lane_match(const GotaBatch *b, int32_t lane, const GotaMatch **out)
{
    if (!b || !out) return GOTA_ERR_NULL;
    if (lane < 0 || lane >= b->lanes) return GOTA_ERR_INDEX;
    GotaMatch *m = b->lane[lane].match;
    if (!m) return GOTA_ERR_INTERNAL;
    match_settle_facings(m);   /* lanes step lazily: GotaUnit.facing is read from here on */
    *out = m;
    return GOTA_OK;
}
