/*
 * contract.h -- the observation and action contract of a seat, modelled on the
 * original's native training environment (docs/contract.md is the reference).
 *
 * Observation: OBS_SIZE float32 per seat, ego-centric, in the team frame
 * (s = +1 red, -1 blue; blue sees the map rotated 180 degrees, which on this
 * point-symmetric map is the negation of world x and z), built only from what
 * the seat's team knows (m->seen, visible spell aim points, seen_destroyed).
 * The floats are output only: they are computed from the integer state and
 * never read back by the simulation. Every value is an IEEE-754 correctly
 * rounded quotient of exact integers, so the bytes are the same on every
 * machine and build.
 *
 * Action: five int32 heads (verb, target slot, point, ability, item), decoded
 * into one GotaCommand with integer arithmetic only (a Q16 direction table).
 * Masks say, per head and conditionally, which choices the engine accepts.
 *
 * Every block, offset and size is a #define here and a row of the layout
 * table (contract_entry), so Python reads them from C; contract_hash() is a
 * 64-bit FNV-1a over that table, the feature names and the decoding constants.
 *
 * Nothing here allocates or keeps process-global mutable state; a call reads
 * (observe, mask, decode) or changes (act) only the match it is given.
 */
#ifndef GOTA_CONTRACT_H
#define GOTA_CONTRACT_H
#include <stdint.h>
#include "gota.h"

#define CONTRACT_VERSION 1

/* ---- observation layout (floats) --------------------------------------- */
#define OBS_SELF 0
#define OBS_SELF_SIZE 48
#define OBS_ABILITY (OBS_SELF + OBS_SELF_SIZE)                 /* 48 */
#define OBS_ABILITY_COUNT 4
#define OBS_ABILITY_WIDTH 16
#define OBS_ABILITY_SIZE (OBS_ABILITY_COUNT * OBS_ABILITY_WIDTH)
#define OBS_ITEM (OBS_ABILITY + OBS_ABILITY_SIZE)              /* 112 */
#define OBS_ITEM_COUNT 6
#define OBS_ITEM_WIDTH 25
#define OBS_ITEM_SIZE (OBS_ITEM_COUNT * OBS_ITEM_WIDTH)
#define OBS_OBJECT (OBS_ITEM + OBS_ITEM_SIZE)                  /* 262 */
#define OBS_OBJECT_COUNT 25
#define OBS_OBJECT_WIDTH 40
#define OBS_OBJECT_SIZE (OBS_OBJECT_COUNT * OBS_OBJECT_WIDTH)
#define OBS_WARNING (OBS_OBJECT + OBS_OBJECT_SIZE)             /* 1262 */
#define OBS_WARNING_COUNT 4
#define OBS_WARNING_WIDTH 8
#define OBS_WARNING_SIZE (OBS_WARNING_COUNT * OBS_WARNING_WIDTH)
#define OBS_SUMMARY (OBS_WARNING + OBS_WARNING_SIZE)           /* 1294 */
#define OBS_SUMMARY_SIZE 16
#define OBS_TERRAIN (OBS_SUMMARY + OBS_SUMMARY_SIZE)           /* 1310 */
#define OBS_TERRAIN_SIDE 9
#define OBS_TERRAIN_STEP 2                                      /* tiles between cells */
#define OBS_TERRAIN_SIZE (OBS_TERRAIN_SIDE * OBS_TERRAIN_SIDE)
#define OBS_GOAL (OBS_TERRAIN + OBS_TERRAIN_SIZE)              /* 1391 */
#define OBS_GOAL_SIZE 16
#define OBS_SIZE (OBS_GOAL + OBS_GOAL_SIZE)                    /* 1407 */

/* self features (OBS_SELF + i) */
enum {
    OS_ALIVE, OS_HP_FRAC, OS_MANA_FRAC, OS_MAX_HP, OS_MAX_MANA, OS_GOLD, OS_LEVEL, OS_XP_PROGRESS,
    OS_XP_TOTAL, OS_X, OS_Z, OS_TEAM, OS_TIME, OS_ATTACK_COOLDOWN, OS_ATTACK_RANGE, OS_ATTACK_DAMAGE,
    OS_SPEED, OS_HAS_TARGET, OS_STUN, OS_ROOT, OS_SILENCE, OS_CHANNEL, OS_PORTAL_COOLDOWN, OS_RESPAWN,
    OS_POINTS, OS_IN_SPAWN, OS_CAN_SHOP, OS_DEATHS, OS_LAST_ERROR, OS_BUYBACK, OS_CLASS,
    OS_ROLE = OS_CLASS + 10, OS_VEL_X = OS_ROLE + 5, OS_VEL_Z, OS_HAS_MOVE, OS_COUNT
};
/* ability features (OBS_ABILITY + a * OBS_ABILITY_WIDTH + i) */
enum {
    OA_RANK, OA_LEARNED, OA_COOLDOWN, OA_CHARGES, OA_RECHARGE, OA_MANA_COST, OA_CASTABLE, OA_DAMAGE,
    OA_HEAL, OA_RESTORE, OA_RANGE, OA_CAST_KIND, OA_AREA_RADIUS = OA_CAST_KIND + 4, OA_COUNT
};
/* item features: one-hot over the 23 item ids (0 = none), then these */
enum { OI_ONE_HOT = 0, OI_COUNT_F = 23, OI_COOLDOWN, OI_COUNT };
/* object features (OBS_OBJECT + slot * OBS_OBJECT_WIDTH + i) */
enum {
    OO_PRESENT, OO_DX, OO_DZ, OO_DIST, OO_HP_FRAC, OO_HP, OO_FACTION, OO_KIND,
    OO_ALIVE = OO_KIND + 6, OO_LEVEL, OO_MANA, OO_TARGETS_ME, OO_IS_MY_TARGET, OO_TARGETS_ALLY,
    OO_STUN, OO_ROOT, OO_SILENCE, OO_VEL_X, OO_VEL_Z, OO_FACING_X, OO_FACING_Z, OO_IN_RANGE,
    OO_KILLABLE, OO_RETURNING, OO_SUB, OO_CLASS, OO_COUNT = OO_CLASS + 10
};
/* warning features */
enum { OW_PRESENT, OW_DX, OW_DZ, OW_DIST, OW_TICKS, OW_HOSTILE, OW_HARMLESS, OW_ABILITY, OW_COUNT };
/* summary features */
enum {
    OM_OWN_GOD_HP, OM_OWN_GOD_EXPOSED, OM_OWN_TOWERS, OM_OWN_BARRACKS, OM_ENEMY_TOWERS,
    OM_ENEMY_BARRACKS, OM_ENEMY_GOD_HP, OM_OWN_ALIVE, OM_ENEMIES_VISIBLE, OM_WAVE, OM_OWN_LEVELS,
    OM_ENEMY_LEVELS, OM_SCORE, OM_KILLS, OM_ASSISTS, OM_RESERVED, OM_COUNT
};

/* ---- object slots = target slots ---------------------------------------- */
#define CONTRACT_SLOTS 25
#define CSLOT_SELF 0
#define CSLOT_ALLY 1            /* 1..4: allies in seat order */
#define CSLOT_ENEMY_HERO 5      /* 5..9: enemy heroes in seat order */
#define CSLOT_CREEP 10          /* 10..16: nearest visible living lane creeps */
#define CSLOT_CREEPS 7
#define CSLOT_OWN_GOD 17
#define CSLOT_ENEMY_GOD 18
#define CSLOT_OWN_TOWER 19      /* own forward tower */
#define CSLOT_ENEMY_STRUCTURE 20
#define CSLOT_NEUTRAL 21        /* 21..24: nearest visible living neutrals */
#define CSLOT_NEUTRALS 4

/* The slot table of one seat at one decision: unit slot per object slot. */
typedef struct {
    int32_t team;                   /* GOTA_TEAM_RED / GOTA_TEAM_BLUE */
    int32_t s;                      /* +1 red, -1 blue */
    int32_t self;                   /* the hero's unit slot */
    int32_t unit[CONTRACT_SLOTS];   /* unit slot, -1 when the object slot is empty */
} ContractSlots;

/* What one team knows at one decision, shared by its seats (contract_team):
 * filled once per team and decision so that five seats do not each scan
 * every unit and building; the per-seat work is then distances and features.
 * Read only while the match is unchanged since contract_team. */
#define CONTRACT_BUILDINGS 38   /* >= MAP_BUILDINGS (observe.c asserts it) */
#define CONTRACT_TEAM_BLOCKS (5 * CONTRACT_SLOTS)   /* the distinct objects of a team's five seats */
typedef struct {
    int32_t slot, id, x, z;
} ContractCandidate;
typedef struct {
    int32_t team;
    int32_t hero[GOTA_SEATS];       /* seat's hero slot when alive (and seen, for enemies), else -1 */
    int32_t own_god, enemy_god;     /* slot when alive (and seen), else -1 */
    int32_t own_tower;              /* CSLOT_OWN_TOWER: seat independent */
    int32_t creep_n, neutral_n, structure_n, ghost_n;
    /* living seen lane creeps in [0, creep_n), neutrals in [GOTA_MAX_UNITS - neutral_n, GOTA_MAX_UNITS) */
    ContractCandidate candidate[GOTA_MAX_UNITS];
    ContractCandidate structure[CONTRACT_BUILDINGS];   /* living seen enemy towers and barracks */
    int32_t ghost[CONTRACT_BUILDINGS];   /* fallen enemy buildings with a footprint, believed standing */
    float summary[OBS_SUMMARY_SIZE];     /* the team's summary features (the seat's are written per seat) */
    /* object features that do not depend on the seat, built at a unit's
     * first object slot in any of the team's seats (contract_observe_team) */
    int16_t block_of[GOTA_MAX_UNITS];    /* index into block, -1 = none yet */
    int32_t block_n;
    float block[CONTRACT_TEAM_BLOCKS][OBS_OBJECT_WIDTH];
} ContractTeam;

/* ---- action heads (their numbers are public: gota.h GOTA_CONTRACT_*) ------ */
#define CONTRACT_HEADS GOTA_CONTRACT_HEADS
#define HEAD_VERB GOTA_CONTRACT_HEAD_VERB
#define HEAD_TARGET GOTA_CONTRACT_HEAD_TARGET
#define HEAD_POINT GOTA_CONTRACT_HEAD_POINT
#define HEAD_ABILITY GOTA_CONTRACT_HEAD_ABILITY
#define HEAD_ITEM GOTA_CONTRACT_HEAD_ITEM
#define CONTRACT_VERBS GOTA_CONTRACT_VERBS
#define CONTRACT_TARGETS CONTRACT_SLOTS
#define CONTRACT_POINTS 49        /* 0 = centre, else 1 + ring * 16 + dir */
#define CONTRACT_RINGS 3
#define CONTRACT_DIRS 16
#define CONTRACT_ABILITIES 4
#define CONTRACT_ITEMS 6
#define CONTRACT_LOGITS (CONTRACT_VERBS + CONTRACT_TARGETS + CONTRACT_POINTS + CONTRACT_ABILITIES + CONTRACT_ITEMS)

enum {
    VERB_NOOP = GOTA_CONTRACT_VERB_NOOP, VERB_WALK = GOTA_CONTRACT_VERB_WALK,
    VERB_ATTACK_MOVE = GOTA_CONTRACT_VERB_ATTACK_MOVE, VERB_ATTACK_TARGET = GOTA_CONTRACT_VERB_ATTACK_TARGET,
    VERB_CAST_TARGET = GOTA_CONTRACT_VERB_CAST_TARGET, VERB_CAST_POINT = GOTA_CONTRACT_VERB_CAST_POINT,
    VERB_USE_ITEM = GOTA_CONTRACT_VERB_USE_ITEM, VERB_USE_ITEM_AT = GOTA_CONTRACT_VERB_USE_ITEM_AT
};

/* ring radii in world units: walk / attack-move (self-centred, snapped to a
 * tile centre) and cast-point / use-item-at (object-centred, fractional) */
#define RING_MOVE_0 (2 * GOTA_TILE)
#define RING_MOVE_1 (5 * GOTA_TILE)
#define RING_MOVE_2 (12 * GOTA_TILE)
#define RING_AIM_0 (GOTA_TILE / 2)
#define RING_AIM_1 (GOTA_TILE * 5 / 4)
#define RING_AIM_2 (GOTA_TILE * 5 / 2)
#define CONTRACT_Q16 65536
/* points are clamped to the map with the engine's rim margin */
#define CONTRACT_RIM 18000

/* ---- masks (bytes, 1 = allowed) ----------------------------------------- */
#define MASK_VERB 0
#define MASK_VERB_SIZE CONTRACT_VERBS
#define MASK_CAST_TARGET_ABILITY (MASK_VERB + MASK_VERB_SIZE)          /* 8 */
#define MASK_ROWS (MASK_CAST_TARGET_ABILITY + CONTRACT_ABILITIES)       /* 12 */
#define MASK_ROW_COUNT GOTA_CONTRACT_ROWS
#define MASK_ROW_ATTACK GOTA_CONTRACT_ROW_ATTACK           /* row 0: attackTarget */
#define MASK_ROW_CAST GOTA_CONTRACT_ROW_CAST               /* rows 1..4: castTarget per ability */
#define MASK_ROW_CAST_POINT GOTA_CONTRACT_ROW_CAST_POINT   /* castPoint anchors */
#define MASK_ROW_ITEM_AT GOTA_CONTRACT_ROW_ITEM_AT         /* useItemAt anchors */
#define MASK_ROWS_SIZE (MASK_ROW_COUNT * CONTRACT_TARGETS)
#define MASK_CAST_POINT_ABILITY (MASK_ROWS + MASK_ROWS_SIZE)            /* 187 */
#define MASK_USE_ITEM (MASK_CAST_POINT_ABILITY + CONTRACT_ABILITIES)    /* 191 */
#define MASK_USE_ITEM_AT (MASK_USE_ITEM + CONTRACT_ITEMS)               /* 197 */
#define MASK_SIZE (MASK_USE_ITEM_AT + CONTRACT_ITEMS)                   /* 203 */
/* flat (static, PufferLib-style) form: one mask per head, concatenated in head order */
#define MASK_FLAT_VERB 0
#define MASK_FLAT_TARGET (MASK_FLAT_VERB + CONTRACT_VERBS)              /* 8 */
#define MASK_FLAT_POINT (MASK_FLAT_TARGET + CONTRACT_TARGETS)           /* 33 */
#define MASK_FLAT_ABILITY (MASK_FLAT_POINT + CONTRACT_POINTS)           /* 82 */
#define MASK_FLAT_ITEM (MASK_FLAT_ABILITY + CONTRACT_ABILITIES)         /* 86 */
#define MASK_FLAT_SIZE (MASK_FLAT_ITEM + CONTRACT_ITEMS)                /* 92 */

/* contract_decode results; contract_act's answer for an invalid decode */
#define CONTRACT_DECODE_OK 0
#define CONTRACT_DECODE_INVALID 1
#define CONTRACT_ACT_INVALID GOTA_ACT_INVALID_DECODE

/* ---- the layout table --------------------------------------------------- */
typedef struct {
    const char *name;   /* "obs.self", "mask.verb", "head.point", ... */
    int32_t offset;     /* floats (obs.*), bytes (mask.*, mask_flat), logits (head.*) */
    int32_t count;      /* rows */
    int32_t width;      /* values per row; size = count * width */
} ContractEntry;

/* Number of layout entries; entry i (NULL past the end). */
int32_t contract_entries(void);
const ContractEntry *contract_entry(int32_t i);
/* The index of the entry with this name, -1 when none. */
int32_t contract_find(const char *name);
/* Name of feature f of the rows of entry i (obs blocks with named features), else NULL. */
const char *contract_feature(int32_t i, int32_t f);
uint64_t contract_hash(void);

/* Q16 direction k (k * 22.5 degrees from +x toward +z, the simulator's angle sense). */
void contract_direction(int k, int32_t *cos_q16, int32_t *sin_q16);

struct GotaMatch;

/* ---- observation (observe.c) -------------------------------------------- */
/* The slot table of a seat: 0, or -1 (all empty) for a bad seat or a seat without a hero. */
int contract_slots(const struct GotaMatch *m, int seat, ContractSlots *out);
/* Unit slot behind object slot `slot` of a seat, -1 when empty or out of range. */
int contract_slot_unit(const struct GotaMatch *m, int seat, int slot);
/* The shared knowledge of `team` (GOTA_TEAM_RED/BLUE) in the current state. */
void contract_team(const struct GotaMatch *m, int team, ContractTeam *ct);
/* contract_slots / contract_observe_slots with `ct` filled by contract_team
 * for the seat's team in this very state: the same results, less work
 * (contract_observe_team keeps the object features it builds in ct). */
int contract_slots_team(const struct GotaMatch *m, const ContractTeam *ct, int seat, ContractSlots *out);
void contract_observe_team(const struct GotaMatch *m, ContractTeam *ct, const ContractSlots *cs, int seat,
                           float *obs);
/* Write OBS_SIZE floats: 0, or -1 (zeros written) for a seat without a hero. */
int contract_observe(const struct GotaMatch *m, int seat, float *obs);
/* The same with a slot table already computed for this seat and decision. */
void contract_observe_slots(const struct GotaMatch *m, const ContractSlots *cs, int seat, float *obs);

/* ---- actions and masks (actions.c) -------------------------------------- */
/* Decode five heads into *out. CONTRACT_DECODE_OK, or CONTRACT_DECODE_INVALID
 * when a non-noop verb decoded to a noop (out->verb is then GOTA_CMD_NOOP). */
int contract_decode(const struct GotaMatch *m, int seat, const int32_t heads[CONTRACT_HEADS], GotaCommand *out);
int contract_decode_slots(const struct GotaMatch *m, const ContractSlots *cs, int seat,
                          const int32_t heads[CONTRACT_HEADS], GotaCommand *out);
/* Decode and issue: the engine's GOTA_ACT_* answer (GOTA_ACT_OK for a noop,
 * which issues nothing), or CONTRACT_ACT_INVALID for an invalid decode, which
 * is counted in the seat's stats.invalid_actions. */
int contract_act(struct GotaMatch *m, int seat, const int32_t heads[CONTRACT_HEADS]);
/* The same against a slot table taken from the current state. */
int contract_act_slots(struct GotaMatch *m, const ContractSlots *cs, int seat, const int32_t heads[CONTRACT_HEADS]);
/* MASK_SIZE bytes (conditional form). A seat without a hero gets noop only. */
void contract_mask(const struct GotaMatch *m, int seat, uint8_t *mask);
void contract_mask_slots(const struct GotaMatch *m, const ContractSlots *cs, int seat, uint8_t *mask);
/* Fold a conditional mask into the flat form (MASK_FLAT_SIZE bytes). */
void contract_mask_flatten(const uint8_t *mask, uint8_t *flat);
/* What verb v reads (heads, target row), NULL for another verb: the public
 * gota_contract_verb; the decoder reads exactly these heads (tests check it). */
const GotaContractVerb *contract_verb(int32_t v);

/* The public API (gota_contract_*, gota_match_observe/mask/act) is in gota.h. */

#endif
