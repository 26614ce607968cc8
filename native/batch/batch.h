/*
 * batch.h -- the lockstep batch (internal; the public API is the "lockstep
 * batch" section of gota.h; docs/arena.md).
 *
 * A GotaBatch owns N lanes, each one GotaMatch plus its episode bookkeeping,
 * and a persistent pool of worker threads. A step hands the lanes out one at a
 * time (a counter under the pool mutex), the lanes that took longest in the
 * last job first, so the threads finish together; each lane touches only its own match
 * and its own slices of the caller's buffers, so the bytes written do not
 * depend on which thread ran which lane, or on how many threads there are.
 */
#ifndef GOTA_BATCH_H
#define GOTA_BATCH_H
#include <stdint.h>
#include <stdatomic.h>
#include <pthread.h>
#include "gota.h"
#include "sim/nav.h"
#include "contract/contract.h"

typedef struct {
    GotaMatch *match;
    int64_t seed;             /* seed of the current episode */
    int32_t learner_team;     /* GOTA_TEAM_* */
    int32_t opponent;         /* GOTA_BOT_* of the other team, 0 when its rows are agents */
    int32_t opponent_override;/* gota_batch_set_opponent: the bot of later starts, -1 = default */
    int32_t learner_bot;      /* gota_batch_set_learner_bot: the learner team's bot, 0 = agents */
    int32_t learner_bot_now;  /* the learner team's bot in the running episode */
    int64_t next_seed;        /* gota_batch_set_next_seed: the next start's seed once, -1 = default */
    GotaBasicProgram *opponent_script;   /* gota_batch_set_opponent_script (opponent_override GOTA_BOT_SCRIPT) */
    GotaBasicProgram *learner_script;    /* gota_batch_set_learner_script (learner_bot GOTA_BOT_SCRIPT) */
    int err;                  /* this lane's code of the current job */
    NavSearch *search;        /* the A* scratch lent while a thread runs the lane's job */
    ContractSlots *slots;     /* per agent row: the slot table of the last observation */
    int slots_ready;          /* slots were written for the running match's current state */
    int64_t cost_ns;          /* wall time of this lane's last job (pools with workers only) */
} BatchLane;

/* a lane in the hand-out order of a job */
typedef struct {
    int64_t cost_ns;
    int32_t lane;
} BatchTurn;

enum { BATCH_JOB_NONE = 0, BATCH_JOB_RESET, BATCH_JOB_STEP, BATCH_JOB_EXIT };

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t wake;      /* workers wait here for a new job generation */
    pthread_cond_t done;      /* the caller waits here for the job to finish */
    pthread_t *worker;
    NavSearch *search;        /* A* scratch per thread: [0] the caller's, [1 + k] worker k's */
    int32_t workers;          /* threads started (threads - 1: the caller works too) */
    int32_t started;          /* workers that took their scratch */
    uint64_t generation;      /* bumps once per job */
    int job;                  /* BATCH_JOB_* */
    BatchTurn *turn;          /* the lanes in hand-out order: longest last job first */
    int32_t next_lane;        /* next turn to hand out */
    atomic_int busy;          /* workers still inside the current job (written under mu) */
} BatchPool;

struct GotaBatch {
    GotaConfig base;
    int32_t lanes, action_ticks, self_play, threads, agents_per_lane, agents;
    int32_t opponent_count;
    int32_t *opponents;
    BatchLane *lane;
    ContractSlots *slots;     /* agents entries: the lanes' slot tables */
    /* the current job's arguments */
    int64_t job_seed;
    const int32_t *job_actions;
    GotaBatchBuffers io;
    BatchPool pool;
    int pool_ready;
};

#endif
