/*
 * gota.h -- the public C API of the Gods of the Arena simulator.
 *
 * This header is exactly what cffi's cdef reads (the build drops the include
 * guard and #include lines), so it holds only plain declarations.
 *
 * Units: world positions are int32 world units, 60,000 per tile, origin at the
 * map centre; x grows east, z grows south (tile row). Time is in ticks, 24 per
 * second. Every function returns GOTA_OK (0) or a negative GOTA_ERR_* code;
 * gota_error_text() names it. Nothing here aborts the process on bad input.
 *
 * Ownership: a GotaMatch owns all of its state. Buffers passed in are owned by
 * the caller and only read or written during the call. Pointers handed out
 * (gota_match_units) stay valid until the next call that changes the match.
 */
#ifndef GOTA_H_INCLUDED
#define GOTA_H_INCLUDED
#include <stdint.h>

/* ---- error codes ------------------------------------------------------ */
#define GOTA_OK 0
#define GOTA_ERR_NULL -1          /* a required pointer (handle, buffer) is NULL */
#define GOTA_ERR_UNKNOWN_KEY -2   /* config key not known */
#define GOTA_ERR_RANGE -3         /* a value is outside its allowed range */
#define GOTA_ERR_BUFFER -4        /* a caller buffer is too small */
#define GOTA_ERR_OVER -5          /* the match is over; reset it before stepping */
#define GOTA_ERR_NOMEM -6         /* allocation failed */
#define GOTA_ERR_INTERNAL -7      /* an internal invariant failed; reset the match */
#define GOTA_ERR_INDEX -8         /* an index (unit, seat, tile) is out of range */
#define GOTA_ERR_CONFLICT -9      /* config values that contradict each other (a class on two seats) */

/* ---- constants -------------------------------------------------------- */
#define GOTA_TILE 60000           /* world units per tile */
#define GOTA_MAP_TILES 116        /* the map is 116 x 116 tiles */
#define GOTA_TICKS_PER_SECOND 24
#define GOTA_MAX_BATTLE_TICKS 28800
#define GOTA_MAX_UNITS 768        /* unit slots of one match */

/* unit kinds (the BASIC object kinds of docs/rules.md section 9) */
#define GOTA_KIND_NONE 0
#define GOTA_KIND_GOD 1
#define GOTA_KIND_HERO 2
#define GOTA_KIND_CREEP 3
#define GOTA_KIND_TOWER 4
#define GOTA_KIND_BARRACKS 5
#define GOTA_KIND_NEUTRAL 6

/* teams */
#define GOTA_TEAM_RED 0
#define GOTA_TEAM_BLUE 1
#define GOTA_TEAM_NEUTRAL 2

/* tower tiers (GotaUnit.sub for towers) */
#define GOTA_TIER_OUTER 0
#define GOTA_TIER_INNER 1
#define GOTA_TIER_GATE 2
#define GOTA_TIER_GUARD 3

/* creep kinds (GotaUnit.sub for creeps) */
#define GOTA_CREEP_MELEE 0
#define GOTA_CREEP_RANGED 1

/* event types */
#define GOTA_EVENT_SPAWN 1        /* unit = spawned unit */
#define GOTA_EVENT_DEATH 2        /* unit = victim, other = killer id (-1 none) */
#define GOTA_EVENT_STRUCTURE 3    /* a structure destroyed: unit, other = killer */
#define GOTA_EVENT_WAVE 4         /* a creep wave spawned; value = creeps spawned */
#define GOTA_EVENT_EXPOSED 5      /* a structure became damageable */
#define GOTA_EVENT_GAME_OVER 6    /* value = winner team, or -1 draw / timeout */

/* match outcome (GotaMatchInfo.result) */
#define GOTA_RESULT_RUNNING 0
#define GOTA_RESULT_WIN 1         /* winner holds the team */
#define GOTA_RESULT_DRAW 2        /* both gods fell on the same tick */
#define GOTA_RESULT_TIMEOUT 3     /* battle tick reached max_ticks */

/* ---- configuration ---------------------------------------------------- */
typedef struct {
    int64_t seed;           /* match seed, int32 range, default 2026 */
    int64_t max_ticks;      /* battle ticks before a timeout, 1..28,800 */
    int64_t wave_interval;  /* ticks between creep waves, 24..28,800, default 480 */
    int64_t heroes;         /* 1: ten heroes (default); 0: a creep-only match */
    int64_t upkeep;         /* 1: the simulator does every external seat's upkeep,
                               as the original's policy.bas does for a learner:
                               ability points (R > W > E > Q), shopping in the
                               keep (potions, class gear), buyback after a long
                               death; 0 (default): the seat's commands only */
    int64_t hero_class[10]; /* keys class_0..class_9: the seat's class 0..9, or -1
                               (default) for the seeded role draft to choose */
    int64_t bot[10];        /* keys bot_0..bot_9: GOTA_BOT_* playing the seat inside
                               the tick; 0 (default) = an external seat; GOTA_BOT_SCRIPT
                               for a seat played by its BASIC script */
} GotaConfig;

/* bundled bots (config keys bot_0..bot_9; docs/bots.md) */
#define GOTA_BOT_EXTERNAL 0      /* no bot: the seat is driven by gota_match_command */
#define GOTA_BOT_IDLE 1          /* does nothing; stays in its spawn room */
#define GOTA_BOT_RANDOM 2        /* random commands from its own seeded stream */
#define GOTA_BOT_BASE 3          /* base.bas: nearest enemy, potions, class gear */
#define GOTA_BOT_RUSHER 4        /* rusher.bas: the team gathers and rushes the god */
#define GOTA_BOT_BASELINE 5      /* baseline.bas: base plus its W strike */
#define GOTA_BOT_PULLER 6        /* puller.bas: lanes, last hits, spells, retreats, camp pulls */
#define GOTA_BOTS 7
#define GOTA_BOT_SCRIPT 7        /* a BASIC script (gota_match_set_script; docs/basic.md): not
                                    one of the GOTA_BOTS bundled bots; without a script it idles */

/* The name of bot id 0..7 ("external", "idle", "random", "base", "rusher",
 * "baseline", "puller", "script"); NULL for another id. */
const char *gota_bot_name(int32_t bot);

/* Fill cfg with the defaults. */
int gota_config_default(GotaConfig *cfg);
/* Set one key by name; GOTA_ERR_UNKNOWN_KEY or GOTA_ERR_RANGE on bad input. */
int gota_config_set(GotaConfig *cfg, const char *key, int64_t value);
/* Read one key by name into *value. */
int gota_config_get(const GotaConfig *cfg, const char *key, int64_t *value);
/* Space-separated list of the known keys. */
const char *gota_config_keys(void);
/* The allowed range of one key, for error messages. */
int gota_config_range(const char *key, int64_t *lo, int64_t *hi);

/* ---- one match -------------------------------------------------------- */
typedef struct GotaMatch GotaMatch;

typedef struct {
    int32_t id;          /* unique within a match, never reused */
    int32_t x, z;        /* world units, origin at the map centre */
    int32_t hp, max_hp;
    int32_t target_id;   /* id of the current attack target, -1 for none */
    int32_t facing;      /* binary angle, 65,536 per turn, 0 = +x, 16,384 = +z */
    int32_t damage;      /* damage per hit (0 for buildings that never attack) */
    int32_t range;       /* attack range in world units */
    int16_t kind;        /* GOTA_KIND_* (GOTA_KIND_NONE: free slot) */
    int16_t team;        /* GOTA_TEAM_* */
    int16_t sub;         /* tower tier, creep kind, neutral tier, hero class */
    int16_t lane;        /* lane 0..2, -1 for none */
    int8_t alive;        /* 1 while alive */
    int8_t exposed;      /* structures: 1 when damageable */
    int8_t radius_q;     /* body radius in 1/100 tile (0 for buildings) */
    int8_t pad;
} GotaUnit;

typedef struct {
    int32_t tick;        /* ticks since reset (battle ticks) */
    int32_t result;      /* GOTA_RESULT_* */
    int32_t winner;      /* winning team for GOTA_RESULT_WIN, else -1 */
    int32_t god_hp[2];   /* red, blue */
    int32_t unit_count;  /* slots in use (including corpses) */
    int32_t nav_revision;/* bumps when a building footprint appears or vanishes */
    int32_t max_ticks;
    int64_t seed;
} GotaMatchInfo;

typedef struct {
    int32_t tick;
    int32_t type;        /* GOTA_EVENT_* */
    int32_t unit;        /* unit id */
    int32_t other;       /* killer id or -1 */
    int32_t kind;        /* the unit's GOTA_KIND_* */
    int32_t team;        /* the unit's team */
    int32_t value;       /* event specific */
    int32_t x, z;        /* where it happened */
} GotaEvent;

/* Create a match and reset it to battle tick 0. On failure returns NULL and
 * writes the error code to *err (err may be NULL). */
GotaMatch *gota_match_new(const GotaConfig *cfg, int *err);
/* Free a match. NULL is accepted and ignored. */
void gota_match_free(GotaMatch *m);
/* Restart the match with a seed (int32 range). */
int gota_match_reset(GotaMatch *m, int64_t seed);
/* Advance up to `ticks` ticks (>= 1), stopping early when the match ends.
 * Writes the ticks actually run to *ran (may be NULL). GOTA_ERR_OVER if the
 * match had already ended. */
int gota_match_step(GotaMatch *m, int32_t ticks, int32_t *ran);
int gota_match_info(const GotaMatch *m, GotaMatchInfo *out);
/* The config the match was created with (the seed and bot keys as played). */
int gota_match_config(const GotaMatch *m, GotaConfig *out);
/* 64-bit hash of every authoritative field, folded field by field. */
int gota_match_hash(const GotaMatch *m, uint64_t *out);
/* Zero-copy view of the unit table: *units points at GOTA_MAX_UNITS slots,
 * *count is the number of slots in use (free slots have kind NONE). */
int gota_match_units(const GotaMatch *m, const GotaUnit **units, int32_t *count);
/* Copy events with sequence number >= first into out (cap entries); writes the
 * number copied and the next sequence number. The log keeps the newest 4,096. */
int gota_match_events(const GotaMatch *m, int64_t first, GotaEvent *out,
                      int32_t cap, int32_t *written, int64_t *next);
/* Team vision: out gets GOTA_MAP_TILES^2 bytes, 1 where `team` sees the tile.
 * GOTA_ERR_INDEX for a team other than red or blue. */
int gota_match_vision(const GotaMatch *m, int32_t team, uint8_t *out, int32_t cap);
/* 1 if `team` currently sees unit slot `index`. */
int gota_match_unit_visible(const GotaMatch *m, int32_t team, int32_t index, int32_t *out);
/* Live walkability (static terrain and living building footprints), one byte
 * per tile. */
int gota_match_walkable(const GotaMatch *m, uint8_t *out, int32_t cap);
/* Set a living unit's hit points (tests and scenario set-up): hp >= 1, clamped
 * to max_hp; GOTA_ERR_INDEX for a free slot or a dead unit. */
int gota_match_debug_set_hp(GotaMatch *m, int32_t index, int32_t hp);
/* Find a path from (sx,sz) to (gx,gz) with the match's navigation, writing the
 * waypoints as x,z pairs into out_xz (cap counts int32 values, so at least
 * 2 * NAV_MAX_PATH = 48 is always enough; a shorter one gives GOTA_ERR_BUFFER);
 * *count = waypoints, 0 when unreachable. */
int gota_match_find_path(GotaMatch *m, int32_t sx, int32_t sz, int32_t gx, int32_t gz,
                         int32_t *out_xz, int32_t cap, int32_t *count);

/* ---- heroes: seats, commands, stats ------------------------------------ */
/* Seats 0-4 are red, 5-9 blue; the hero of seat s has unit id 100 + s. */
#define GOTA_SEATS 10
#define GOTA_SEATS_PER_TEAM 5    /* seat s plays for team s / GOTA_SEATS_PER_TEAM */

/* command verbs (docs/rules.md section 9) */
#define GOTA_CMD_NOOP 0
#define GOTA_CMD_STOP 1          /* drop orders and target */
#define GOTA_CMD_WALK 2          /* walk to x,z; no fighting on the way */
#define GOTA_CMD_ATTACK_MOVE 3   /* walk to x,z, fighting what comes in reach */
#define GOTA_CMD_ATTACK 4        /* attack unit id `target` (0 clears the target) */
#define GOTA_CMD_CAST_TARGET 5   /* ability `slot` (0..3) at unit id `target` (self-casts: any) */
#define GOTA_CMD_CAST_POINT 6    /* ability `slot` at x,z */
#define GOTA_CMD_USE_ITEM 7      /* inventory `slot` (0..5) */
#define GOTA_CMD_USE_ITEM_AT 8   /* inventory `slot` at x,z (portal scroll) */
#define GOTA_CMD_BUY 9           /* item id `item` (1..22) */
#define GOTA_CMD_LEVEL 10        /* spend a point on ability `slot` */
#define GOTA_CMD_BUYBACK 11      /* respawn now for gold, while dead */
#define GOTA_CMD_VERBS 12

/* action errors: the game's answer to a command, kept per seat */
#define GOTA_ACT_OK 0
#define GOTA_ACT_BAD_VERB 1
#define GOTA_ACT_DEAD 2
#define GOTA_ACT_ALIVE 3
#define GOTA_ACT_CHANNELING 4
#define GOTA_ACT_STUNNED 5
#define GOTA_ACT_ROOTED 6
#define GOTA_ACT_SILENCED 7
#define GOTA_ACT_BAD_SLOT 8
#define GOTA_ACT_NOT_LEARNED 9
#define GOTA_ACT_TOO_MANY_SPELLS 10
#define GOTA_ACT_COOLDOWN 11
#define GOTA_ACT_NO_CHARGES 12
#define GOTA_ACT_NO_MANA 13
#define GOTA_ACT_FULL 14
#define GOTA_ACT_BAD_TARGET 15
#define GOTA_ACT_NOT_VISIBLE 16
#define GOTA_ACT_OUT_OF_RANGE 17
#define GOTA_ACT_BAD_POINT 18
#define GOTA_ACT_NOT_IN_SHOP 19
#define GOTA_ACT_NO_GOLD 20
#define GOTA_ACT_INVENTORY_FULL 21
#define GOTA_ACT_DUPLICATE 22
#define GOTA_ACT_BAD_ITEM 23
#define GOTA_ACT_EMPTY_SLOT 24
#define GOTA_ACT_ITEM_COOLDOWN 25
#define GOTA_ACT_NO_POINTS 26
#define GOTA_ACT_MAX_RANK 27
#define GOTA_ACT_LEVEL_TOO_LOW 28
#define GOTA_ACT_MATCH_OVER 29
#define GOTA_ACT_NO_TOWER 30
#define GOTA_ACT_NO_HERO 31
#define GOTA_ACT_INVALID_DECODE 32   /* action heads that decode to no command */
#define GOTA_ACT_CODES 33

typedef struct {
    int32_t verb;        /* GOTA_CMD_* */
    int32_t target;      /* unit id */
    int32_t x, z;        /* world units */
    int32_t slot;        /* ability 0..3 or inventory 0..5 */
    int32_t item;        /* item id for GOTA_CMD_BUY */
} GotaCommand;

/* Per-seat statistics, cumulative since reset (in the order of the original's
 * per-seat training statistics). */
typedef struct {
    int64_t score;            /* leaderboard score: max(0, XP - 200 per battle minute) */
    int64_t outcome;          /* +1 won, -1 lost, 0 running / draw / timeout */
    int64_t xp, gold_earned, kills, assists, deaths, last_hits, neutral_kills;
    int64_t tower_damage;     /* damage to towers and barracks */
    int64_t structure_kills, hero_damage, damage_taken;
    int64_t push_depth;       /* furthest advance past the centre line, milli-tiles */
    int64_t god_damage, level, gold, team, hero_class, alive;
    int64_t commands;         /* commands issued */
    int64_t invalid_actions;  /* commands answered with an action error */
    int64_t script_errors;    /* BASIC runtime errors (each disables the seat's script; docs/basic.md) */
    int64_t healing;          /* HP the seat's heal abilities restored to heroes of its team (itself
                                 included), overhealing not counted. A reward signal, not state: the
                                 simulation never reads it and the state hash leaves it out */
} GotaSeatStats;

/* A hero's details beyond its GotaUnit. */
typedef struct {
    int32_t seat, unit_index, hero_class, level, xp, gold, mana, max_mana, points;
    int32_t rank[4], charges[4], cooldown[4], recharge[4];
    int32_t item[6], item_count[6];
    int32_t hp_item_cooldown, mana_item_cooldown, portal_cooldown, channel;
    int32_t stun, root, silence, deaths, respawn_ticks, buyback_price, last_error;
    int32_t order, order_x, order_z, move_speed, attack_period;
} GotaHero;

/* A pending spell: what a warning shows. */
typedef struct {
    int32_t caster_id, team, hero_class, ability;   /* ability slot 0..3 */
    int32_t x, z;              /* current centre (projectiles: where it flies now) */
    int32_t aim_x, aim_z;      /* locked aim point */
    int32_t dir_x, dir_z;      /* unit vector of the spell's forward axis, Q16 (65,536 = 1) */
    int32_t impact_tick;       /* battle tick of impact */
    int32_t shape;             /* 0 single target, else the area shape 1..5 */
    int32_t radius, inner, width, angle;
    int32_t harmful;           /* 1 for damage, 0 for heals */
} GotaSpell;

/* Issue a command for a seat's hero now (between ticks). Returns GOTA_OK when
 * the call was well formed, with the game's answer in *action_error (may be
 * NULL); GOTA_ERR_INDEX for a bad seat, GOTA_ERR_NULL for NULL pointers. */
int gota_match_command(GotaMatch *m, int32_t seat, const GotaCommand *cmd, int32_t *action_error);
int gota_match_seat_stats(const GotaMatch *m, int32_t seat, GotaSeatStats *out);
int gota_match_hero(const GotaMatch *m, int32_t seat, GotaHero *out);
/* Pending spells visible to `team` (-1: all), up to cap. */
int gota_match_spells(const GotaMatch *m, int32_t team, GotaSpell *out, int32_t cap, int32_t *count);
/* The leaderboard score of a team (docs/rules.md section 8): mean of its heroes' scores;
 * glory: the score for the winners of a finished match, else 0. */
int gota_match_team_score(const GotaMatch *m, int32_t team, int64_t *score, int64_t *glory);
const char *gota_action_error_text(int code);
/* Names, for tools: class 0..9, item 1..22, ability (class, slot). */
const char *gota_class_name(int32_t hero_class);
const char *gota_item_name(int32_t item);
const char *gota_ability_name(int32_t hero_class, int32_t slot);

/* ---- frames for viewers (native/sim/frames.c; docs/viewer.md) ------------ */
/* What a replay viewer draws at one tick, in one call: every unit slot in use
 * (corpses included), the spells in flight, the ten heroes' panels and both
 * teams' fog. Read-only; costs a few microseconds, so a whole match can be
 * exported every few ticks. */
#define GOTA_FRAME_ALIVE 1          /* GotaFrameUnit.flags */
#define GOTA_FRAME_SEEN_RED 2       /* red sees the unit this tick (its own always) */
#define GOTA_FRAME_SEEN_BLUE 4      /* blue sees it */
#define GOTA_FRAME_EXPOSED 8        /* structures: damageable */
#define GOTA_FRAME_STUNNED 16
#define GOTA_FRAME_ROOTED 32
#define GOTA_FRAME_SILENCED 64
#define GOTA_FRAME_CHANNELING 128   /* a hero channeling a portal scroll */
#define GOTA_FRAME_RETURNING 256    /* a neutral walking home (untargetable) */
#define GOTA_FRAME_SWINGING 512     /* a basic attack is winding up */
#define GOTA_FRAME_FOG_BYTES 1682   /* one team's visible tiles: bit tz * 116 + tx, LSB first */

typedef struct {
    int32_t id, slot;
    int32_t x, z;                   /* world units */
    int32_t hp, max_hp;
    int32_t target_id;              /* -1 for none */
    uint16_t facing;                /* binary angle, 65,536 per turn */
    uint16_t flags;                 /* GOTA_FRAME_* */
    int8_t kind, team, sub, lane;   /* as GotaUnit (sub: tier, creep kind, neutral tier, hero class) */
    int8_t seat;                    /* heroes: seat 0..9, else -1 */
    int8_t level;                   /* heroes: level 1..20, else 0 */
    int16_t pad;
} GotaFrameUnit;

/* GotaFrameSpell.cast */
#define GOTA_FRAME_CAST_MELEE 1     /* an instant strike, resolving at its impact tick */
#define GOTA_FRAME_CAST_PROJECTILE 2 /* x,z is where it flies now */
#define GOTA_FRAME_CAST_AREA 3      /* shape around x,z along dir (see gota_match_spells) */

typedef struct {
    int32_t caster_id, team, hero_class, ability;
    int32_t cast;                   /* GOTA_FRAME_CAST_* */
    int32_t shape;                  /* 0 single target, else the area shape 1..5 */
    int32_t radius, inner, width, angle;
    int32_t x, z, aim_x, aim_z, origin_x, origin_z;
    int32_t dir_x, dir_z;           /* Q16 unit vector of the forward axis */
    int32_t cast_tick, impact_tick;
    int32_t target_id;              /* homing target, -1 for ground spells */
    int32_t harmful;                /* 1 damage, 0 heal */
    int32_t seen;                   /* bit 0 red, bit 1 blue: the team's own, or its aim point visible */
} GotaFrameSpell;

typedef struct {
    int32_t seat, unit_id, hero_class, level, xp, gold, mana, max_mana;
    int32_t kills, deaths, assists, last_hits, respawn_ticks;
    int32_t item[6], item_count[6];
    int64_t score;
} GotaFrameHero;

/* Caller-owned buffers; a NULL buffer (cap 0) skips that part. Counts are written
 * back; GOTA_ERR_BUFFER when a part does not fit (units: GOTA_MAX_UNITS always
 * do, spells: 512, heroes: 10, fog: 2 * GOTA_FRAME_FOG_BYTES, red then blue). */
typedef struct {
    int32_t tick, result, winner;   /* out */
    GotaFrameUnit *units; int32_t units_cap, unit_count;
    GotaFrameSpell *spells; int32_t spells_cap, spell_count;
    GotaFrameHero *heroes; int32_t heroes_cap, hero_count;
    uint8_t *fog; int32_t fog_cap;
} GotaFrame;

int gota_match_frame(const GotaMatch *m, GotaFrame *frame);

/* ---- the observation and action contract (docs/contract.md) ------------- */
/* the five action heads, in the order of an action's int32 values */
#define GOTA_CONTRACT_HEAD_VERB 0
#define GOTA_CONTRACT_HEAD_TARGET 1
#define GOTA_CONTRACT_HEAD_POINT 2
#define GOTA_CONTRACT_HEAD_ABILITY 3
#define GOTA_CONTRACT_HEAD_ITEM 4
#define GOTA_CONTRACT_HEADS 5
/* values of the verb head (not the GOTA_CMD_* they decode to) */
#define GOTA_CONTRACT_VERB_NOOP 0
#define GOTA_CONTRACT_VERB_WALK 1
#define GOTA_CONTRACT_VERB_ATTACK_MOVE 2
#define GOTA_CONTRACT_VERB_ATTACK_TARGET 3
#define GOTA_CONTRACT_VERB_CAST_TARGET 4
#define GOTA_CONTRACT_VERB_CAST_POINT 5
#define GOTA_CONTRACT_VERB_USE_ITEM 6
#define GOTA_CONTRACT_VERB_USE_ITEM_AT 7
#define GOTA_CONTRACT_VERBS 8
/* rows of the mask block "mask.target_rows" */
#define GOTA_CONTRACT_ROW_ATTACK 0       /* attackTarget */
#define GOTA_CONTRACT_ROW_CAST 1         /* 1..4: castTarget, one row per ability */
#define GOTA_CONTRACT_ROW_CAST_POINT 5   /* castPoint anchors */
#define GOTA_CONTRACT_ROW_ITEM_AT 6      /* useItemAt anchors */
#define GOTA_CONTRACT_ROWS 7

/* What one verb of the verb head reads (gota_contract_verb). */
typedef struct {
    const char *name;         /* "noop", "walk", "attackMove", ... as docs/contract.md names them */
    int32_t heads;            /* bit h set: the decoder reads head h (bit 0, the verb head, always) */
    int32_t target_row;       /* the mask.target_rows row of its target head (castTarget: plus the
                                 ability), -1 when it reads no target */
} GotaContractVerb;

typedef struct {
    int32_t version;
    int32_t obs_size, mask_size, mask_flat_size;
    int32_t heads, logits;
    int32_t verbs, targets, points, abilities, items;
    int32_t entries;          /* rows of gota_contract_entry */
    uint64_t hash;            /* FNV-1a 64 of the layout, names and decoding constants */
} GotaContractInfo;

typedef struct {
    const char *name;
    int32_t offset, count, width;
} GotaContractEntry;

int gota_contract_info(GotaContractInfo *out);
/* Layout row `index` (0..entries-1); GOTA_ERR_INDEX past the end. */
int gota_contract_entry(int32_t index, GotaContractEntry *out);
/* The layout row named `name` ("obs.object", "mask.target_rows", ...); GOTA_ERR_INDEX when none. */
int gota_contract_find(const char *name, GotaContractEntry *out);
/* Name of feature `feature` of layout row `index`, NULL when it has none. */
const char *gota_contract_feature(int32_t index, int32_t feature);
/* What verb 0..GOTA_CONTRACT_VERBS-1 reads; GOTA_ERR_INDEX for another verb. */
int gota_contract_verb(int32_t verb, GotaContractVerb *out);
/* OBS_SIZE floats for a seat (cap counts floats). */
int gota_match_observe(const GotaMatch *m, int32_t seat, float *obs, int32_t cap);
/* MASK_SIZE bytes, conditional form (cap counts bytes). */
int gota_match_mask(const GotaMatch *m, int32_t seat, uint8_t *mask, int32_t cap);
/* MASK_FLAT_SIZE bytes, flat form. */
int gota_match_mask_flat(const GotaMatch *m, int32_t seat, uint8_t *flat, int32_t cap);
/* Decode only (BC labels, tools): *invalid = 1 for an invalid decode (may be NULL). */
int gota_match_decode(const GotaMatch *m, int32_t seat, const int32_t *heads, GotaCommand *out, int32_t *invalid);
/* Decode and issue five heads; *action_error = the GOTA_ACT_* answer, or
 * GOTA_ACT_INVALID_DECODE for an invalid decode (counted in stats.invalid_actions). */
int gota_match_act(GotaMatch *m, int32_t seat, const int32_t *heads, int32_t *action_error);

/* ---- the shared map --------------------------------------------------- */
/* terrain materials */
#define GOTA_MAT_GRASS 1
#define GOTA_MAT_ROAD 2
#define GOTA_MAT_ROCK 3
#define GOTA_MAT_TREES 4
#define GOTA_MAT_TRAIL 5
#define GOTA_MAT_WALL 6
#define GOTA_MAT_WATER 7

typedef struct {
    int8_t level;        /* -1 lake, 0 low, 1 high ground, 2 castle */
    uint8_t material;    /* GOTA_MAT_* */
    uint8_t walkable;    /* static walkability */
    uint8_t region;      /* GOTA_REGION_* bit set */
} GotaTile;

#define GOTA_REGION_RED_KEEP 1
#define GOTA_REGION_BLUE_KEEP 2
#define GOTA_REGION_RED_SPAWN 4
#define GOTA_REGION_BLUE_SPAWN 8
#define GOTA_REGION_LANE 16
#define GOTA_REGION_CAMP 32

/* Copy the map's tiles (row-major, z rows of x) into out. */
int gota_map_tiles(GotaTile *out, int32_t cap);
/* Lane route waypoints of lane 0..2 as x,z pairs in world units, red end first;
 * cap counts int32 values; GOTA_ERR_INDEX for another lane. */
int gota_map_lane(int32_t lane, int32_t *out_xz, int32_t cap, int32_t *count);
/* Neutral camps: x,z (world) and tier, 3 ints per camp; cap counts int32 values. */
int gota_map_camps(int32_t *out, int32_t cap, int32_t *count);

/* ---- BASIC scripts (docs/basic.md; docs/rules.md section 9) ------------
 * Opponent scripts in GotA BASIC. A compiled program is immutable and
 * reference-counted: any number of matches and lanes may share it; each seat
 * that plays it gets its own VM (variables, arrays, log) inside the match. */
typedef struct GotaBasicProgram GotaBasicProgram;

/* runtime error kinds of a script (GotaScriptStatus.error_code) */
#define GOTA_SCRIPT_ERR_NONE 0
#define GOTA_SCRIPT_ERR_INSTRUCTIONS 1   /* instruction limit of one decision */
#define GOTA_SCRIPT_ERR_WORK 2           /* work-unit limit of one decision */
#define GOTA_SCRIPT_ERR_DEPTH 3          /* call depth */
#define GOTA_SCRIPT_ERR_DIVZERO 4        /* division by zero */
#define GOTA_SCRIPT_ERR_RANGE 5          /* an integer does not fit, an array index out of bounds */
#define GOTA_SCRIPT_ERR_NOT_INTEGER 6    /* a fraction where an exact integer is needed */
#define GOTA_SCRIPT_ERR_PRINT 7          /* print limits of one decision */
#define GOTA_SCRIPT_ERR_HOST 8           /* a host function refused its arguments */
#define GOTA_SCRIPT_ERR_INTERNAL 9
#define GOTA_SCRIPT_ERRORS 10
/* The name of error kind 0..GOTA_SCRIPT_ERRORS-1 ("none", "instruction limit", ...,
 * as runtime error messages say it); NULL for another code. */
const char *gota_script_error_name(int32_t code);

/* The answers a script's command gets (lastActionError(), the Action*
 * constants of docs/basic.md in the original's numbering): 0 accepted,
 * 1..GOTA_SCRIPT_ACTION_ERRORS-1 the reasons a command was refused. */
#define GOTA_SCRIPT_ACTION_ERRORS 36
/* The constant's name of answer 0..GOTA_SCRIPT_ACTION_ERRORS-1 ("NoActionError",
 * "ActionNotAlive", ..., as docs/basic.md spells it); NULL for another code. */
const char *gota_script_action_error_name(int32_t code);

typedef struct {
    int32_t instructions;     /* counted instructions (at most 20,000) */
    int32_t ops;              /* bytecode operations of any kind */
    int32_t globals, arrays, elements, subs;
    int32_t source_bytes;
    int64_t memory;           /* logical VM memory, 16 bytes a value cell (at most 2 MiB) */
    uint64_t source_hash;     /* FNV-1a 64 of the source */
} GotaBasicInfo;

/* Compile `len` bytes of source (len -1: NUL-terminated) named `name` (the
 * file name of diagnostics). GOTA_OK and *out (the caller's reference, freed
 * with gota_basic_free); else GOTA_ERR_RANGE with "name:line:col: what was
 * expected" in err (errcap bytes, NUL-terminated), GOTA_ERR_NULL, GOTA_ERR_NOMEM. */
int gota_basic_compile(const char *source, int64_t len, const char *name, GotaBasicProgram **out,
                       char *err, int32_t errcap);
/* Drop the caller's reference; matches and batches keep their own. NULL is ignored. */
void gota_basic_free(GotaBasicProgram *p);
int gota_basic_info(const GotaBasicProgram *p, GotaBasicInfo *out);
/* The source the program was compiled from (replay files carry it): its
 * source_bytes bytes into out, not NUL-terminated; *len = source_bytes.
 * GOTA_ERR_BUFFER (nothing copied) when cap is smaller. */
int gota_basic_source(const GotaBasicProgram *p, char *out, int32_t cap, int32_t *len);

/* Play `seat` with a fresh VM of program p (NULL: the seat becomes external
 * again). The seat's bot key becomes GOTA_BOT_SCRIPT; the script decides every
 * tick from the next one on. The draft happens at reset: to let the script
 * pick its hero, set the scripts and then gota_match_reset. Scripts stay
 * attached across resets (each reset starts their VMs afresh). */
int gota_match_set_script(GotaMatch *m, int32_t seat, GotaBasicProgram *p);

typedef struct {
    int32_t active;           /* 1 when a script plays the seat */
    int32_t disabled;         /* 1 after a runtime error: the seat idles for the rest of the match */
    int32_t error_code;       /* the error's kind, GOTA_SCRIPT_ERR_* (gota_script_error_name), 0 none */
    int32_t last_instructions, last_work;   /* of the latest decision */
    int64_t decisions;        /* decisions run (every tick, dead or alive, and the draft's) */
    int64_t instructions;     /* counted instructions run */
    int64_t log_bytes;        /* bytes ever written to the private log */
    /* the commands it issued (every command and draftHero call, the draft's
     * included) and those refused, by reason (refused_by[lastActionError code],
     * gota_script_action_error_name; [0] stays 0). Since the reset; not match
     * state: the state hash leaves them out. */
    int64_t commands, refused;
    int64_t refused_by[GOTA_SCRIPT_ACTION_ERRORS];
    char error[256];          /* "file:line:col: runtime error: ..." */
    char program[128];        /* the program's name */
} GotaScriptStatus;
int gota_match_script_status(const GotaMatch *m, int32_t seat, GotaScriptStatus *out);
/* The program playing `seat`, as a new reference the caller frees with
 * gota_basic_free; *out = NULL for a seat without a script. */
int gota_match_script_program(const GotaMatch *m, int32_t seat, GotaBasicProgram **out);
/* The seat's private log (PRINT output, runtime errors; the newest 8 KiB):
 * up to cap bytes, not NUL-terminated; *len = bytes written. */
int gota_match_script_log(const GotaMatch *m, int32_t seat, char *out, int32_t cap, int32_t *len);

/* ---- errors ----------------------------------------------------------- */
const char *gota_error_text(int code);


/* ---- lockstep batch (native/batch/batch.c; docs/arena.md) -------------------
 * N lanes, each one match, stepped together: every agent (a hero driven by the
 * policy) gets five action heads per decision, then each lane runs action_ticks
 * ticks. Lane i of reset(seed) plays seed * lanes + i; seed -1 continues each
 * lane's own sequence (its seed + lanes, mod 2^31). A lane with seed s puts the learner on
 * team (s mod 10) div 5 (0-4 red, 5-9 blue); without self-play the other team is
 * played by the bot opponents[(s div 10) mod opponent_count]. A lane that ends
 * is restarted inside the same step with its next seed; the observations then
 * already belong to the new episode. Agents are lane-major; within a lane the
 * learner team's seats in seat order, then (self-play) the other team's.
 * Results are identical for any thread count and any grouping of lanes. */
typedef struct GotaBatch GotaBatch;

/* reward signal fields, per lane and team (signals[lane][team][GOTA_SIGNALS];
 * docs/plugins.md). Fields 6.. are sums over the team's five heroes of their
 * GotaSeatStats counters, cumulative since the match began (0 at its start):
 * a reward per step is the change from the last step. */
#define GOTA_SIGNAL_TEAM_XP 0     /* total XP of the team's heroes */
#define GOTA_SIGNAL_TEAM_SCORE 1  /* team leaderboard score (docs/rules.md section 8) */
#define GOTA_SIGNAL_TOWER_HP 2    /* sum of the HP of the team's living towers (guards included) */
#define GOTA_SIGNAL_GOD_HP 3      /* the team's god HP */
#define GOTA_SIGNAL_OUTCOME 4     /* +1 won, -1 lost / draw / timeout on the finishing step, else 0 */
#define GOTA_SIGNAL_DONE 5        /* 1 on the step the lane finished */
#define GOTA_SIGNAL_GOLD_EARNED 6 /* gold earned: last hits, kills, structures (not the start gold;
                                     spending does not lower it) */
#define GOTA_SIGNAL_LAST_HITS 7   /* lane creeps killed by the team's heroes (there are no denies) */
#define GOTA_SIGNAL_NEUTRAL_KILLS 8 /* neutrals killed by the team's heroes */
#define GOTA_SIGNAL_KILLS 9       /* enemy heroes killed by the team's heroes (tower and creep kills
                                     credit no hero) */
#define GOTA_SIGNAL_DEATHS 10     /* deaths of the team's heroes, whoever killed them */
#define GOTA_SIGNAL_ASSISTS 11    /* assists of the team's heroes (docs/rules.md section 4) */
#define GOTA_SIGNAL_HERO_DAMAGE 12 /* damage the team's heroes dealt to enemy heroes (HP removed by
                                     attacks, spells and poison; overkill not counted) */
#define GOTA_SIGNAL_STRUCTURE_DAMAGE 13 /* the same to enemy towers, guards, barracks and the god */
#define GOTA_SIGNAL_HEALING 14    /* HP their heal abilities restored to the team's heroes */
#define GOTA_SIGNALS 15
#define GOTA_BATCH_MAX_LANES 65536
#define GOTA_BATCH_MAX_ACTION_TICKS 24

/* Stats of a lane for one step: all zero unless the lane finished in this step,
 * then the finished episode's values, from the learner team's side. */
typedef struct {
    int32_t finished;         /* 1 if the lane finished (and restarted) this step */
    int32_t outcome;          /* +1 win, -1 loss, draw or timeout */
    int32_t ticks;            /* battle ticks of the finished episode */
    int32_t result;           /* GOTA_RESULT_* */
    int32_t learner_team;     /* GOTA_TEAM_* of the learner */
    int32_t opponent;         /* GOTA_BOT_* of the other team (0: its rows were agents) */
    int64_t seed;             /* the finished episode's seed */
    int64_t potential;        /* learner team glory (its score if it won, else 0) */
    int64_t score;            /* learner team score */
    int64_t xp;               /* learner team total XP */
    int64_t kills;            /* learner team hero kills */
    int64_t towers_destroyed; /* enemy towers destroyed */
} GotaLaneStats;

/* Caller-owned output buffers of reset and step; caps count elements. */
typedef struct {
    float *obs;               /* [agents][OBS_SIZE] */
    int64_t obs_cap;
    uint8_t *masks;           /* [agents][MASK_SIZE] */
    int64_t masks_cap;
    uint8_t *terminals;       /* [agents]: 1 on the step the lane finished */
    int64_t terminals_cap;
    uint8_t *truncations;     /* [agents]: 1 when that finish was a timeout */
    int64_t truncations_cap;
    GotaLaneStats *stats;     /* [lanes] */
    int64_t stats_cap;
    int64_t *signals;         /* [lanes][2][GOTA_SIGNALS] */
    int64_t signals_cap;
} GotaBatchBuffers;

typedef struct {
    int32_t lanes, agents, agents_per_lane, action_ticks, self_play, threads, opponent_count;
    int32_t obs_size, mask_size, heads, signals;
} GotaBatchInfo;

typedef struct {
    int64_t seed;             /* the lane's current episode seed */
    int32_t learner_team, opponent, tick, result;
} GotaBatchLane;

/* Create a batch of `lanes` lanes from a base config (its seed and bot keys are
 * replaced per lane), seeded as reset(0). threads 0 = the usable cores (the
 * process's CPU affinity where the system tells, else the online cores); never
 * more threads than cores or lanes. opponents: opponent_count bot ids (1..6),
 * at least one. NULL on failure with the code in *err (err may be NULL). */
GotaBatch *gota_batch_new(const GotaConfig *base, int32_t lanes, int32_t action_ticks, int32_t self_play,
                          int32_t threads, const int32_t *opponents, int32_t opponent_count, int *err);
/* The bytes gota_batch_new(..., lanes, ..., self_play, threads, ...) allocates:
 * sizeof its matches and lane tables (the bulk: a lane is ~0.7 MB), the path
 * search scratch of its threads; not the caller's buffers, thread stacks, BASIC
 * VMs of script seats or the map and vision tables every match shares. For a
 * memory check before creating a large batch. GOTA_ERR_RANGE for arguments
 * gota_batch_new refuses (lanes outside 1..GOTA_BATCH_MAX_LANES, self_play not
 * 0/1, threads < 0). */
int gota_batch_bytes(int32_t lanes, int32_t self_play, int32_t threads, int64_t *bytes);
/* Free a batch and stop its threads. NULL is accepted and ignored. */
void gota_batch_free(GotaBatch *b);
int gota_batch_info(const GotaBatch *b, GotaBatchInfo *out);
/* Rebuild every lane (seed >= 0, or -1 to continue) and write observations,
 * masks and signals; terminals, truncations and stats are zeroed. */
int gota_batch_reset(GotaBatch *b, int64_t seed, const GotaBatchBuffers *io);
/* One decision for every lane: actions are [agents][5] heads (verb 0..7,
 * target 0..24, point 0..48, ability 0..3, item 0..5; checked before anything
 * runs, GOTA_ERR_RANGE otherwise); actions_cap counts int32 values. */
int gota_batch_step(GotaBatch *b, const int32_t *actions, int64_t actions_cap, const GotaBatchBuffers *io);
int gota_batch_lane(const GotaBatch *b, int32_t lane, GotaBatchLane *out);
/* The opponent of the lane's later episodes, from its next start (the restart
 * after it finishes, or a reset) on: a bot id 1..6, 0 (external: the other
 * team's rows are agents; self-play batches only) or -1 (the default: external
 * with self-play, else the seed's rotation). A self-play lane whose opponent is
 * a bot keeps its 10 rows: the bot's rows observe zeros, allow only noop and
 * their actions are ignored. GOTA_ERR_RANGE for another value. */
int gota_batch_set_opponent(GotaBatch *b, int32_t lane, int32_t bot);
/* The learner team's bot from the lane's next start on: 1..6, or 0 (default:
 * the learner team's rows are agents). Its rows then observe zeros, allow
 * only noop and their actions are ignored. For evaluation: bot against bot,
 * or a bot against a Python policy playing the other team. */
int gota_batch_set_learner_bot(GotaBatch *b, int32_t lane, int32_t bot);
/* The seed of the lane's next start (its restart after it finishes, or a
 * reset), once; -1 withdraws it. 0..INT32_MAX. */
int gota_batch_set_next_seed(GotaBatch *b, int32_t lane, int64_t seed);
/* A BASIC script for the other team's five seats from the lane's next start
 * on, like gota_batch_set_opponent with a bot (p NULL: back to the default).
 * The lane keeps its own reference; each start gives the seats fresh VMs and
 * lets the script draft. Lane stats name the opponent GOTA_BOT_SCRIPT. */
int gota_batch_set_opponent_script(GotaBatch *b, int32_t lane, GotaBasicProgram *p);
/* The same for the learner team (evaluation): p NULL gives the rows back to agents. */
int gota_batch_set_learner_script(GotaBatch *b, int32_t lane, GotaBasicProgram *p);
/* The reward signals of a match as the arena computes them for a lane
 * (GOTA_SIGNAL_*): out[team * GOTA_SIGNALS + field], team 0 red, 1 blue; cap
 * counts int64 values (at least 2 * GOTA_SIGNALS). A match without heroes has
 * zeros in the hero fields. */
int gota_match_signals(const GotaMatch *m, int64_t *out, int64_t cap);
/* The learner team (GOTA_TEAM_RED or GOTA_TEAM_BLUE) of a lane playing seed
 * `seed`: (seed mod 10) div 5; -1 for a negative seed. */
int32_t gota_batch_seed_team(int64_t seed);
/* The state hash of a lane's current match. */
int gota_batch_lane_hash(const GotaBatch *b, int32_t lane, uint64_t *out);
/* The agent's lane and seat: GOTA_ERR_INDEX past the end. */
int gota_batch_agent_seat(const GotaBatch *b, int32_t agent, int32_t *lane, int32_t *seat);
/* The lane's match, read-only, valid until the next reset or step. */
int gota_batch_lane_match(const GotaBatch *b, int32_t lane, const GotaMatch **out);

#endif
