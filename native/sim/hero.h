/*
 * hero.h -- the ten heroes of a match: per-seat state and what heroes.c does
 * with it (docs/rules.md sections 3.1, 4 and 7).
 *
 * Seats 0-4 are red, 5-9 blue; the hero of seat s has id 100 + s and keeps its
 * unit slot for the whole match (dead heroes keep the slot, alive = 0). Hit
 * points, position, facing, damage and range live in the hero's GotaUnit; the
 * rest of a hero lives here. Orders (walk, attack-move, attack target) are
 * carried out in the unit phase every tick; commands (gota_match_command)
 * change orders, cast, shop and level at once.
 */
#ifndef GOTA_HERO_H
#define GOTA_HERO_H
#include <stdint.h>
#include "gota.h"
#include "content.h"

#define SEATS GOTA_SEATS
#define SEATS_PER_TEAM GOTA_SEATS_PER_TEAM
#define HERO_ID_BASE 100
#define HERO_ITEM_SLOTS 6
#define HERO_STACK 8                       /* consumables stack to 8 per slot */
#define HERO_RADIUS_Q 28                   /* body radius 0.28 tile */
#define HERO_SIGHT_TILES 10
#define HERO_START_GOLD 150
#define HERO_MANA_REGEN_EVERY 6            /* +1 mana when tick % 6 == 0 */
#define HERO_ACQUIRE_MELEE_ATTACK_MOVE 480000
#define HERO_ACQUIRE_MELEE_IDLE 150000
#define HERO_ASSIST_WINDOW 240             /* ticks: damage within this makes an assist */
#define HERO_RESPAWN_MAX 1440              /* 60 s */
#define HERO_RESPAWN_BASE 216              /* 1 s death animation + 8 s */
#define HERO_RESPAWN_PER_DEATH 120         /* + 5 s for each death after the first */
#define HERO_BUYBACK_PER_DEATH 100
#define RECOVERY_CYCLE 120                 /* spawn-room recovery: max/5 per second, split over 120 ticks */

enum { ORDER_IDLE = 0, ORDER_WALK, ORDER_ATTACK_MOVE, ORDER_ATTACK };

typedef struct {
    int32_t seat, cls;                     /* class id, HERO_CLASS[cls] */
    int32_t level;                         /* 1..20 */
    int32_t xp;                            /* lifetime XP, keeps counting at the cap */
    int32_t xp_frac;                       /* carried XP fraction, 1/6000 units */
    int32_t gold;
    int32_t mana, max_mana;
    int32_t move_speed;                    /* world units per tick, items included */
    int32_t points;                        /* unspent ability points */
    int32_t rank[HERO_ABILITIES];
    int32_t charges[HERO_ABILITIES];
    int32_t cooldown[HERO_ABILITIES];      /* ticks left */
    int32_t recharge[HERO_ABILITIES];      /* ticks to the next charge, 0 = idle */

    int32_t order;                         /* ORDER_* */
    int32_t order_x, order_z;              /* walk / attack-move destination */

    int32_t stun, root, silence;           /* control ticks left */

    int32_t deaths, respawn_at;            /* tick of respawn while dead, else 0 */
    int32_t buyback_price;                 /* fixed for the current death */

    int32_t item[HERO_ITEM_SLOTS];         /* item id, 0 = empty */
    int32_t item_count[HERO_ITEM_SLOTS];
    int32_t hp_item_cd, mana_item_cd;      /* shared potion cooldowns, ticks left */
    int32_t hp_regen_total, hp_regen_elapsed, hp_regen_given;      /* Health Potion in progress */
    int32_t mana_regen_total, mana_regen_elapsed, mana_regen_given; /* Mana Potion in progress */
    int32_t portal_cd;                     /* ticks left */
    int32_t channel;                       /* portal channel ticks left, 0 = none */
    int32_t channel_x, channel_z;          /* where the portal lands */
    int32_t channel_tower;                 /* slot of the tower the portal depends on */

    int32_t spawn_x, spawn_z;              /* this hero's fixed spot in its spawn room */
    int32_t damaged_at[SEATS];             /* last tick each enemy seat damaged this hero, -1 never */
    int32_t last_error;                    /* GOTA_ACT_* of the last command */
    GotaSeatStats stats;
    /* hero_walk's open goal point for the order point, kept while the point and
     * the navigation revision stay the same (a cache: not state, not hashed) */
    int32_t walk_x, walk_z, walk_revision, walk_gx, walk_gz;
    int8_t walk_cached, walk_ok;
} HeroState;

struct GotaMatch;

/* heroes.c */
/* Draft (config classes, else the seeded role draft) and spawn the ten heroes. */
int heroes_spawn(struct GotaMatch *m);
/* Phase "cooldowns": cooldowns, recharges, controls, mana regen, potions over
 * time, spawn-room recovery, portal channel, respawns. */
void heroes_timers(struct GotaMatch *m);
/* Phase "units": orders, auto-acquire, basic attacks, movement. */
void heroes_update(struct GotaMatch *m);
/* Max HP/mana, damage, move speed from class, level and items (keeps the
 * current HP/mana, raising them by any increase of the maximum). */
void hero_refresh_stats(struct GotaMatch *m, int seat);
/* Bring a dead hero back at its spawn: full HP/mana, cooldowns reset, charges
 * of learned abilities refilled, orders and controls cleared (timed respawn
 * and buyback both use it). */
void hero_respawn(struct GotaMatch *m, int seat);
/* A hero died this tick (called by combat after all hits). */
void hero_died(struct GotaMatch *m, int seat, int killer_slot);
int hero_seat_of_slot(const struct GotaMatch *m, int slot);   /* -1 if not a hero */
/* Give a new order (ORDER_*; x,z for walk/attack-move, target slot for
 * attack): clears the old target, swing and path, and plans at once. The same
 * attack target again keeps the running swing. */
void hero_order(struct GotaMatch *m, int seat, int order, int32_t x, int32_t z, int target);
/* Where a walk to (x,z) ends: the point, or the centre of the nearest open
 * tile within +-8 when its tile is blocked (as nav does); 0 when there is none
 * or the point is outside the map. */
int hero_goal_point(const struct GotaMatch *m, int32_t x, int32_t z, int32_t *gx, int32_t *gz);
int hero_team(int seat);

#endif
