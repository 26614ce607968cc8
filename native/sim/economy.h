/*
 * economy.h -- XP, levels, gold, kills and assists, the shop, items, potions,
 * the portal scroll and buyback, the score (docs/rules.md sections 4 and 8).
 *
 * XP: a lane creep's death shares a pool of 15 among the enemy heroes alive
 * within 6 tiles (same layer), the last hitter among them first taking 15 %;
 * fractions carry in 1/6000 XP. Neutrals share their tier pool among the
 * killer's team the same way. Hero kill: 150 XP to the killer. Structure last
 * hit: 200 XP. God destroyed: 1,000 XP to every hero of the winning team.
 * Gold: 150 at start; lane creep last hit 15, neutral 10/20/30 (x2 leader),
 * hero kill 100 (a hero's kill only), building last hit 75.
 * Score: max(0, XP * 1440 - 200 * ticks) / 1440 per hero; a team's score is the
 * mean of its heroes'; Glory = the team score for the winners, else 0.
 */
#ifndef GOTA_ECONOMY_H
#define GOTA_ECONOMY_H
#include <stdint.h>

#define XP_FRACTION 6000
#define XP_CREEP_POOL 15
#define XP_SHARE_RANGE (6 * 60000)
#define XP_LAST_HIT_PERCENT 15
#define XP_HERO_KILL 150
#define XP_STRUCTURE 200
#define XP_GOD 1000
#define GOLD_CREEP 15
#define GOLD_HERO_KILL 100
#define GOLD_BUILDING 75
#define POTION_COOLDOWN 240
#define POTION_DURATION 240
#define PORTAL_CHANNEL 72
#define PORTAL_COOLDOWN 1440
#define SCORE_TICKS_PER_MINUTE 1440
#define SCORE_PER_MINUTE 200

struct GotaMatch;

/* A unit died this tick with `killer` (slot, -1 none): XP, gold, kills,
 * assists, last hits, structure kills. Called by combat after all hits. */
void economy_on_death(struct GotaMatch *m, int victim, int killer);
/* The god of `loser` fell (winner may be both on a draw). */
void economy_god_destroyed(struct GotaMatch *m, int winner_team);
/* XP in 1/6000 units, with level-ups (HP/mana rise with the maximum). */
void economy_add_xp(struct GotaMatch *m, int seat, int64_t xp_fraction);
void economy_add_gold(struct GotaMatch *m, int seat, int32_t gold);
int64_t economy_hero_score(const struct GotaMatch *m, int seat);
/* Commands; each returns a GOTA_ACT_* code. */
int economy_buy(struct GotaMatch *m, int seat, int item);
int economy_use_item(struct GotaMatch *m, int seat, int slot, int at_point, int32_t x, int32_t z);
/* 1 when a portal of `team` aimed anywhere inside the map has a landing now */
int economy_portal_possible(const struct GotaMatch *m, int team);
int economy_level_ability(struct GotaMatch *m, int seat, int slot);
int economy_buyback(struct GotaMatch *m, int seat);
/* Potions over time, the portal channel: once per tick for each hero. */
void economy_hero_tick(struct GotaMatch *m, int seat);
/* Damage taken cancels the running regenerations. */
void economy_hero_damaged(struct GotaMatch *m, int seat);

#endif
