/*
 * bot.h -- the bundled bots: C players compiled into the simulator
 * (docs/rules.md section 9; docs/bots.md).
 *
 * A seat whose config key bot_s is not GOTA_BOT_EXTERNAL is played by a bot.
 * Bots run inside the tick, in the bot phase right after the snapshot
 * (docs/rules.md section 7: the VMs run after the observation is frozen,
 * before camps and units): script seats every tick, in rotating order starting at seat
 * tick % 10, then the bots whose turn it is. A bot:
 *   - sees only what its team sees: units with m->seen[team][slot] (own units
 *     always), hostile spells only when their aim point is visible, its own
 *     hero's state, and the public map (terrain, lanes, camps, building
 *     spots; an enemy building counts as standing until the team has seen it
 *     fall, m->seen_destroyed);
 *   - acts only through match_command, the function gota_match_command uses,
 *     so it gets the same GOTA_ACT_* answers and its commands and invalid
 *     actions are counted in the seat's stats like anyone's;
 *   - thinks every BOT_THINK_EVERY ticks: seat k of each team (seats k and
 *     k + 5) on the ticks where (tick + k) % BOT_THINK_EVERY == 0, so the
 *     five pairs are staggered over the ticks (the work spreads) and the two
 *     seats of a pair think on the same tick, taking turns at going first:
 *     red's seat when tick / BOT_THINK_EVERY is even, blue's when it is odd.
 *     (Staggered by seat, (tick + seat) % 6, blue's seat k + 5 thought one
 *     tick after red's seat k, every time: seeing one tick more of the
 *     other's moves and answering them within a tick, where red needed five.
 *     In one tick a command applies at once, so the seat that goes second
 *     sees what the first did: the turns share that evenly.) One think reads
 *     the unit table once and allocates nothing;
 *   - draws its random choices from its own SplitMix64 stream (BotState.rng),
 *     seeded at reset with rng_mix(match seed, seat, bot id, 0x807) (rng.h),
 *     so a bot never moves the match stream m->rng and the stream of one seat
 *     does not depend on the others.
 * The draft (heroes.c) gives a bot seat the first free class, in class order,
 * whose role its team lacks, at the bot's turn of the seeded draft order.
 *
 * Every BotState field is folded into the state hash for the bot seats
 * (hash.c); a match without bots hashes exactly as before.
 *
 * Files: bots.c (phase, shared helpers, idle, random), bots_base.c (base and
 * baseline), bots_rusher.c, bots_puller.c. What each bot does: docs/bots.md.
 */
#ifndef GOTA_BOT_H
#define GOTA_BOT_H
#include <stdint.h>
#include "gota.h"

#define BOT_THINK_EVERY 6
#define BOT_ENEMY_HEROES 5

/* puller modes */
enum { PULL_LANE = 0, PULL_RETREAT, PULL_PULL, PULL_PUSH };

typedef struct {
    int32_t kind;           /* GOTA_BOT_*; 0 for an external seat */
    uint64_t rng;           /* the bot's own SplitMix64 stream */
    int32_t mode;           /* rusher: 0 to the centre, 1 to the god; puller: PULL_* */
    int32_t mode_until;     /* puller: tick the current mode times out */
    int32_t gather;         /* rusher: 1 while the team gathers */
    int32_t lane;           /* puller: the lane it plays before level 6 */
    int32_t camp;           /* puller: the camp being pulled, -1 */
    int32_t last_hp;        /* own HP at the previous think */
    int32_t enemy_x[BOT_ENEMY_HEROES], enemy_z[BOT_ENEMY_HEROES];   /* puller: enemy heroes last seen */
    int32_t enemy_tick[BOT_ENEMY_HEROES];                           /* ... on this tick, 0 never */
} BotState;

struct GotaMatch;

/* bots.c */
/* Set up the bot of every seat from the config (after the heroes spawn). */
void bots_reset(struct GotaMatch *m);
/* The bot phase of the tick. */
void bots_run(struct GotaMatch *m);

/* Per-bot thinks (bots_base.c, bots_rusher.c, bots_puller.c). */
void bot_base_think(struct GotaMatch *m, int seat);
void bot_baseline_think(struct GotaMatch *m, int seat);
void bot_rusher_think(struct GotaMatch *m, int seat);
void bot_puller_think(struct GotaMatch *m, int seat);

/* ---- helpers the bots share (bots.c) ------------------------------------ */
/* One command through match_command; returns the GOTA_ACT_* answer. */
int bot_command(struct GotaMatch *m, int seat, int verb, int32_t target, int32_t x, int32_t z, int32_t slot,
                int32_t item);
/* Walk or attack-move (GOTA_CMD_WALK / GOTA_CMD_ATTACK_MOVE) to (x, z) unless
 * the hero already has that order to within a tile of it, or is attack-moving
 * and fighting on the way (a new order would reset its swing). */
void bot_move(struct GotaMatch *m, int seat, int verb, int32_t x, int32_t z);
/* Attack unit slot t unless it is already the hero's target. */
void bot_attack(struct GotaMatch *m, int seat, int t);
/* Spend the ability points in the priority order of `order` (4 slots). */
void bot_level(struct GotaMatch *m, int seat, const int order[4]);
/* Inventory slot holding item id `item`, -1 none; bot_item_count: how many. */
int bot_item_slot(const struct GotaMatch *m, int seat, int item);
int bot_item_count(const struct GotaMatch *m, int seat, int item);
int bot_free_slots(const struct GotaMatch *m, int seat);
/* Buy `item` if affordable and it fits (checked first); 1 when bought. */
int bot_buy(struct GotaMatch *m, int seat, int item);
/* 1 when the hero stands in its own keep or spawn room (where it can shop). */
int bot_in_shop(const struct GotaMatch *m, int seat);
/* Use the first inventory slot holding one of `items` (n ids). 1 if used. */
int bot_use_first(struct GotaMatch *m, int seat, const int *items, int n);
/* A unit the team sees and may attack: alive, hostile, visible, exposed /
 * not returning; resting neutral camps count only when `neutrals`. */
int bot_enemy_ok(const struct GotaMatch *m, int team, int slot, int neutrals);
/* The base economy: potions by thresholds, poison on the target, the keep's
 * shop (stock and class gear); `casts`: the bot spends mana (stocks mana). */
void bot_base_economy(struct GotaMatch *m, int seat, int casts);
/* The base shopping alone: in the keep or spawn room, a health and a poison
 * potion (casts: a mana potion too), then class gear in order. */
void bot_shop(struct GotaMatch *m, int seat, int casts);
/* The world position of building index b of the shared map. */
void bot_building_spot(const struct GotaMatch *m, int b, int32_t *x, int32_t *z);
/* A random draw below n from the bot's stream. */
uint32_t bot_rand(struct GotaMatch *m, int seat, uint32_t n);

#endif
