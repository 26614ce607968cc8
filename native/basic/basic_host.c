/*
 * basic_host.c -- the GotA host of BASIC scripts (docs/rules.md section 9;
 * docs/basic.md): the read-only values, constants, queries and commands a
 * script sees, the seat's VM inside the match (bot phase, draft, state hash),
 * and the public API of gota.h's "BASIC scripts" section.
 *
 * A script seat is a bot seat of kind GOTA_BOT_SCRIPT with a VM
 * (GotaMatch.script[seat]). It decides every tick, dead or alive, in the bot
 * phase (seats in the bots' rotating order), and at its draft turn (up to
 * SCRIPT_DRAFT_TRIES decisions with `drafting` = 1) when it calls draftHero
 * (a script that cannot pick first runs at tick 0). It sees what the C bots
 * see and acts only through match_command:
 *   - self values are sampled at the start of each decision (a purchase does
 *     not change selfGold until the next decision); inventory, abilities,
 *     canShop, buybackPrice and lastActionError read the live state;
 *   - the object list of a team is built once per tick, at its first use,
 *     after the observation snapshot: the team's own units (dead heroes
 *     included) and the living units it sees; destroyed buildings and corpses
 *     leave it. Order: gods, towers and barracks, heroes, creeps, neutrals;
 *     within each, the observer's team first, then team-relative tile row,
 *     column (Blue counts both from the far corner) and id;
 *   - the spell list of a team: its own spells and the enemy spells whose aim
 *     point it sees, by impact tick, hostile first, team-relative tile,
 *     ability, caster id;
 *   - coordinates are absolute tiles (X = column, Y = row; 0..115); at an
 *     exact tile boundary Red reads the higher tile, Blue the lower one.
 *     Commands take tiles too, decimals allowed (walkTo(x + 0.25, y)): an
 *     integer names a tile centre.
 * Work costs per call (charged before the call): walkTo, attackMove,
 * useItemAt 800; casts 80; other commands 20; terrain 32; extended object
 * queries, spell queries, draftedClass, heroAvailable 16; other queries 4;
 * objectCount 2; floor, sqrt, exp, blobCreate, blobClear 1; read-only
 * values 0.
 *
 * The newest original's structured queries (selfInfo, objectInfo,
 * abilityInfo, spellInfo, matchInfo) give positions, velocities, ranges and
 * radii as Q16.16 tiles from the map centre (world units * 65536 / 60000,
 * truncated), flags as -1/0, counts and ticks as integers; floor, sqrt and
 * exp are its numeric built-ins (exp computed in integers, rounded as the
 * original rounds its float64 result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"

#define SCRIPT_DRAFT_TRIES 20   /* one decision per 12 ticks of a 240-tick pick (docs/rules.md section 7) */

/* ---- the host table ------------------------------------------------------------ */
enum {
    D_SELF_ID, D_SELF_TEAM, D_SELF_CLASS, D_SELF_X, D_SELF_Y, D_SELF_HP, D_SELF_MAX_HP, D_SELF_MANA,
    D_SELF_MAX_MANA, D_SELF_GOLD, D_SELF_LEVEL, D_WORLD_TICK, D_SELF_LAYER, D_SELF_MOVE_SPEED,
    D_SELF_ATTACK_RANGE, D_SELF_ATTACK_DAMAGE, D_SELF_TARGET, D_SELF_ATTACK_COOLDOWN, D_SELF_ATTACKS_LANDED,
    D_SELF_PORTAL_COOLDOWN, D_SELF_CHANNEL_TICKS, D_SELF_STUN_TICKS, D_SELF_ROOT_TICKS, D_SELF_SILENCE_TICKS,
    D_SELF_DEATHS, D_SELF_RESPAWN_TICKS, D_DRAFTING, D_DRAFT_TURN_ID, D_DRAFT_MODE, D_COUNT
};

enum {
    F_DRAFT_HERO, F_DRAFTED_CLASS, F_HERO_AVAILABLE, F_HERO_ROLE, F_DRAFT_PLAYER_COUNT, F_DRAFT_PLAYER_ID,
    F_DRAFT_PLAYER_TEAM,
    F_OBJECT_COUNT, F_OBJECT_ID, F_OBJECT_KIND, F_OBJECT_TEAM, F_OBJECT_CLASS, F_OBJECT_X, F_OBJECT_Y,
    F_OBJECT_HP, F_OBJECT_ALIVE, F_OBJECT_LEVEL, F_OBJECT_MANA, F_OBJECT_ITEM_ID, F_OBJECT_ITEM_COUNT,
    F_OBJECT_FACING_X, F_OBJECT_FACING_Y, F_OBJECT_TARGET, F_OBJECT_VEL_X, F_OBJECT_VEL_Y,
    F_OBJECT_STUN_TICKS, F_OBJECT_SILENCE_TICKS, F_OBJECT_ROOT_TICKS, F_OBJECT_CAMP, F_OBJECT_LEADER,
    F_OBJECT_RETURNING,
    F_CAMP_COUNT, F_CAMP_X, F_CAMP_Y, F_CAMP_TIER,
    F_SPELL_COUNT, F_SPELL_ABILITY, F_SPELL_CASTER_ID, F_SPELL_X, F_SPELL_Y, F_SPELL_IMPACT_TICK,
    F_WALK_TO, F_ATTACK_MOVE, F_ATTACK_TARGET,
    F_ITEM_ID, F_ITEM_COUNT, F_ITEM_COOLDOWN, F_CAN_SHOP, F_IN_OWN_SPAWN, F_BUY_ITEM, F_USE_ITEM,
    F_USE_ITEM_AT, F_BUYBACK_PRICE, F_BUYBACK,
    F_LEVEL_ABILITY, F_ABILITY_POINTS, F_ABILITY_LEVEL, F_ABILITY_MAX_LEVEL, F_ABILITY_REQUIRED_LEVEL,
    F_CAN_LEVEL_ABILITY, F_ABILITY_DAMAGE, F_ABILITY_HEAL, F_ABILITY_RESTORE, F_ABILITY_MANA_COST,
    F_CAST_TARGET, F_CAST_POINT, F_ABILITY_CHARGES, F_ABILITY_COOLDOWN, F_ABILITY_RECHARGE,
    F_LAST_ACTION_ERROR,
    F_TERRAIN_KIND, F_TERRAIN_WALKABLE, F_TERRAIN_HEIGHT, F_TERRAIN_WATER_DEPTH,
    F_TERRAIN_KIND_AT, F_TERRAIN_WALKABLE_AT, F_TERRAIN_HEIGHT_AT, F_TERRAIN_WATER_DEPTH_AT,
    /* the original's newest additions: math built-ins, structured queries, blobs */
    F_FLOOR, F_SQRT, F_EXP, F_SELF_INFO, F_OBJECT_INFO, F_ABILITY_INFO, F_SPELL_INFO, F_MATCH_INFO,
    F_BLOB_CREATE, F_BLOB_CLEAR,
    F_COUNT
};

/* the original's action error numbering (lastActionError and the Action* constants), in
 * order: the enum, the host constants and gota_script_action_error_name all come from it */
#define ACTION_ERRORS(X) \
    X(AE_NONE, "NoActionError") \
    X(AE_NOT_ALIVE, "ActionNotAlive") \
    X(AE_INVALID_SLOT, "ActionInvalidSlot") \
    X(AE_UNKNOWN_ITEM, "ActionUnknownItem") \
    X(AE_INSUFFICIENT_GOLD, "ActionInsufficientGold") \
    X(AE_ALREADY_EQUIPPED, "ActionAlreadyEquipped") \
    X(AE_STACK_FULL, "ActionStackFull") \
    X(AE_INVENTORY_FULL, "ActionInventoryFull") \
    X(AE_EMPTY_SLOT, "ActionEmptySlot") \
    X(AE_NOT_CONSUMABLE, "ActionNotConsumable") \
    X(AE_FULL_HEALTH, "ActionFullHealth") \
    X(AE_FULL_MANA, "ActionFullMana") \
    X(AE_TARGET_UNAVAILABLE, "ActionTargetUnavailable") \
    X(AE_OUT_OF_RANGE, "ActionOutOfRange") \
    X(AE_NO_ROUTE, "ActionNoRoute") \
    X(AE_INVALID_POINT, "ActionInvalidPoint") \
    X(AE_COOLDOWN, "ActionCooldown") \
    X(AE_NO_CHARGES, "ActionNoCharges") \
    X(AE_INSUFFICIENT_MANA, "ActionInsufficientMana") \
    X(AE_SPELL_LIMIT, "ActionSpellLimit") \
    X(AE_CHANNELING, "ActionChanneling") \
    X(AE_STUNNED, "ActionStunned") \
    X(AE_ROOTED, "ActionRooted") \
    X(AE_OUTSIDE_KEEP, "ActionOutsideKeep") \
    X(AE_ABILITY_LOCKED, "ActionAbilityLocked") \
    X(AE_NO_ABILITY_POINTS, "ActionNoAbilityPoints") \
    X(AE_ABILITY_MAX_LEVEL, "ActionAbilityMaxLevel") \
    X(AE_HERO_LEVEL_REQUIRED, "ActionHeroLevelRequired") \
    X(AE_NOT_DEAD, "ActionNotDead") \
    X(AE_MATCH_ENDED, "ActionMatchEnded") \
    X(AE_DRAFTING, "ActionDrafting") \
    X(AE_NOT_DRAFTING, "ActionNotDrafting") \
    X(AE_NOT_DRAFT_TURN, "ActionNotDraftTurn") \
    X(AE_UNKNOWN_HERO, "ActionUnknownHero") \
    X(AE_HERO_TAKEN, "ActionHeroTaken") \
    X(AE_SILENCED, "ActionSilenced")

enum {
#define AE_ENUM(id, name) id,
    ACTION_ERRORS(AE_ENUM)
#undef AE_ENUM
    AE_COUNT
};
_Static_assert(AE_COUNT == GOTA_SCRIPT_ACTION_ERRORS, "gota.h's GOTA_SCRIPT_ACTION_ERRORS counts the AE_* codes");

static const char *const ACTION_ERROR_NAME[AE_COUNT] = {
#define AE_NAME(id, name) name,
    ACTION_ERRORS(AE_NAME)
#undef AE_NAME
};

const char *gota_script_action_error_name(int32_t code)
{
    return code >= 0 && code < AE_COUNT ? ACTION_ERROR_NAME[code] : NULL;
}

#define C(n, v) {n, BASIC_SYM_CONST, 0, 0, v}
#define D(n, id) {n, BASIC_SYM_DATA, 0, id, 0}
#define F(n, argc, id, cost) {n, BASIC_SYM_FUNC, argc, id, cost}
static const BasicHostSym GOTA_SYMS[] = {
    /* constants */
    C("true", -1), C("false", 0),
    C("mapwidth", GOTA_MAP_TILES), C("mapheight", GOTA_MAP_TILES), C("maplayers", 4),
    C("worldscale", GOTA_TILE), C("tickrate", GOTA_TICKS_PER_SECOND),
    C("groundlayer", 0), C("redfortlayer", 1), C("bluefortlayer", 2), C("waterlayer", 3),
    C("terrainnone", 0), C("terraingrass", 1), C("terrainroad", 2), C("terrainrock", 3), C("terraintrees", 4),
    C("terrainmarsh", 5), C("terrainwall", 6), C("terrainwater", 7),
    C("vanguardknight", 0), C("ranger", 1), C("arcanist", 2), C("druidwarden", 3), C("demonhunter", 4),
    C("deathknight", 5), C("crossbowman", 6), C("lich", 7), C("warlock", 8), C("berserker", 9),
#define AE_CONST(id, name) C(name, id),
    ACTION_ERRORS(AE_CONST)   /* names in any case: the compiler lower-cases host names */
#undef AE_CONST
    /* read-only values */
    D("selfid", D_SELF_ID), D("selfteam", D_SELF_TEAM), D("selfclass", D_SELF_CLASS), D("selfx", D_SELF_X),
    D("selfy", D_SELF_Y), D("selfhp", D_SELF_HP), D("selfmaxhp", D_SELF_MAX_HP), D("selfmana", D_SELF_MANA),
    D("selfmaxmana", D_SELF_MAX_MANA), D("selfgold", D_SELF_GOLD), D("selflevel", D_SELF_LEVEL),
    D("worldtick", D_WORLD_TICK), D("selflayer", D_SELF_LAYER), D("selfmovespeed", D_SELF_MOVE_SPEED),
    D("selfattackrange", D_SELF_ATTACK_RANGE), D("selfattackdamage", D_SELF_ATTACK_DAMAGE),
    D("selftarget", D_SELF_TARGET), D("selfattackcooldown", D_SELF_ATTACK_COOLDOWN),
    D("selfattackslanded", D_SELF_ATTACKS_LANDED), D("selfportalcooldown", D_SELF_PORTAL_COOLDOWN),
    D("selfchannelticks", D_SELF_CHANNEL_TICKS), D("selfstunticks", D_SELF_STUN_TICKS),
    D("selfrootticks", D_SELF_ROOT_TICKS), D("selfsilenceticks", D_SELF_SILENCE_TICKS),
    D("selfdeaths", D_SELF_DEATHS), D("selfrespawnticks", D_SELF_RESPAWN_TICKS), D("drafting", D_DRAFTING),
    D("draftturnid", D_DRAFT_TURN_ID), D("draftmode", D_DRAFT_MODE),
    /* functions: name, arguments, id, work cost */
    F("drafthero", 1, F_DRAFT_HERO, 20), F("draftedclass", 1, F_DRAFTED_CLASS, 16),
    F("heroavailable", 1, F_HERO_AVAILABLE, 16), F("herorole", 1, F_HERO_ROLE, 4),
    F("draftplayercount", 0, F_DRAFT_PLAYER_COUNT, 4), F("draftplayerid", 1, F_DRAFT_PLAYER_ID, 4),
    F("draftplayerteam", 1, F_DRAFT_PLAYER_TEAM, 4),
    F("objectcount", 0, F_OBJECT_COUNT, 2), F("objectid", 1, F_OBJECT_ID, 4), F("objectkind", 1, F_OBJECT_KIND, 4),
    F("objectteam", 1, F_OBJECT_TEAM, 4), F("objectclass", 1, F_OBJECT_CLASS, 4), F("objectx", 1, F_OBJECT_X, 4),
    F("objecty", 1, F_OBJECT_Y, 4), F("objecthp", 1, F_OBJECT_HP, 4), F("objectalive", 1, F_OBJECT_ALIVE, 4),
    F("objectlevel", 1, F_OBJECT_LEVEL, 16), F("objectmana", 1, F_OBJECT_MANA, 16),
    F("objectitemid", 2, F_OBJECT_ITEM_ID, 16), F("objectitemcount", 2, F_OBJECT_ITEM_COUNT, 16),
    F("objectfacingx", 1, F_OBJECT_FACING_X, 16), F("objectfacingy", 1, F_OBJECT_FACING_Y, 16),
    F("objecttarget", 1, F_OBJECT_TARGET, 16), F("objectvelx", 1, F_OBJECT_VEL_X, 16),
    F("objectvely", 1, F_OBJECT_VEL_Y, 16), F("objectstunticks", 1, F_OBJECT_STUN_TICKS, 16),
    F("objectsilenceticks", 1, F_OBJECT_SILENCE_TICKS, 16), F("objectrootticks", 1, F_OBJECT_ROOT_TICKS, 16),
    F("objectcamp", 1, F_OBJECT_CAMP, 16), F("objectleader", 1, F_OBJECT_LEADER, 16),
    F("objectreturning", 1, F_OBJECT_RETURNING, 16),
    F("campcount", 0, F_CAMP_COUNT, 4), F("campx", 1, F_CAMP_X, 4), F("campy", 1, F_CAMP_Y, 4),
    F("camptier", 1, F_CAMP_TIER, 4),
    F("spellcount", 0, F_SPELL_COUNT, 16), F("spellability", 1, F_SPELL_ABILITY, 16),
    F("spellcasterid", 1, F_SPELL_CASTER_ID, 16), F("spellx", 1, F_SPELL_X, 16), F("spelly", 1, F_SPELL_Y, 16),
    F("spellimpacttick", 1, F_SPELL_IMPACT_TICK, 16),
    F("walkto", 2, F_WALK_TO, 800), F("attackmove", 2, F_ATTACK_MOVE, 800), F("attacktarget", 1, F_ATTACK_TARGET, 20),
    F("itemid", 1, F_ITEM_ID, 4), F("itemcount", 1, F_ITEM_COUNT, 4), F("itemcooldown", 1, F_ITEM_COOLDOWN, 4),
    F("canshop", 0, F_CAN_SHOP, 4), F("inownspawn", 0, F_IN_OWN_SPAWN, 4), F("buyitem", 1, F_BUY_ITEM, 20),
    F("useitem", 1, F_USE_ITEM, 20), F("useitemat", 3, F_USE_ITEM_AT, 800),
    F("buybackprice", 0, F_BUYBACK_PRICE, 4), F("buyback", 0, F_BUYBACK, 20),
    F("levelability", 1, F_LEVEL_ABILITY, 20), F("abilitypoints", 0, F_ABILITY_POINTS, 4),
    F("abilitylevel", 1, F_ABILITY_LEVEL, 4), F("abilitymaxlevel", 1, F_ABILITY_MAX_LEVEL, 4),
    F("abilityrequiredlevel", 1, F_ABILITY_REQUIRED_LEVEL, 4), F("canlevelability", 1, F_CAN_LEVEL_ABILITY, 4),
    F("abilitydamage", 1, F_ABILITY_DAMAGE, 4), F("abilityheal", 1, F_ABILITY_HEAL, 4),
    F("abilityrestore", 1, F_ABILITY_RESTORE, 4), F("abilitymanacost", 1, F_ABILITY_MANA_COST, 4),
    F("casttarget", 2, F_CAST_TARGET, 80), F("castpoint", 3, F_CAST_POINT, 80),
    F("abilitycharges", 1, F_ABILITY_CHARGES, 4), F("abilitycooldown", 1, F_ABILITY_COOLDOWN, 4),
    F("abilityrecharge", 1, F_ABILITY_RECHARGE, 4), F("lastactionerror", 0, F_LAST_ACTION_ERROR, 4),
    F("terrainkind", 2, F_TERRAIN_KIND, 32), F("terrainwalkable", 2, F_TERRAIN_WALKABLE, 32),
    F("terrainheight", 2, F_TERRAIN_HEIGHT, 32), F("terrainwaterdepth", 2, F_TERRAIN_WATER_DEPTH, 32),
    F("terrainkindat", 3, F_TERRAIN_KIND_AT, 32), F("terrainwalkableat", 3, F_TERRAIN_WALKABLE_AT, 32),
    F("terrainheightat", 3, F_TERRAIN_HEIGHT_AT, 32), F("terrainwaterdepthat", 3, F_TERRAIN_WATER_DEPTH_AT, 32),
    F("floor", 1, F_FLOOR, 1), F("sqrt", 1, F_SQRT, 1), F("exp", 1, F_EXP, 1),
    F("selfinfo", 1, F_SELF_INFO, 4), F("objectinfo", 2, F_OBJECT_INFO, 4), F("abilityinfo", 2, F_ABILITY_INFO, 4),
    F("spellinfo", 2, F_SPELL_INFO, 4), F("matchinfo", 1, F_MATCH_INFO, 4),
    F("blobcreate", 0, F_BLOB_CREATE, 1), F("blobclear", 1, F_BLOB_CLEAR, 1),
};
#undef C
#undef D
#undef F

const BasicHostTable GOTA_BASIC_HOST = {GOTA_SYMS, (int32_t)(sizeof GOTA_SYMS / sizeof GOTA_SYMS[0]), D_COUNT};

/* ---- per-tick views of each team ------------------------------------------------- */
struct ScriptView {
    int32_t obj_tick[2];                      /* tick the object list was built for, -1 never */
    int32_t obj_n[2];
    int16_t obj[2][GOTA_MAX_UNITS];           /* unit slots in list order */
    int32_t obj_id[2][GOTA_MAX_UNITS];        /* their ids (a reused slot is a new unit) */
    uint64_t obj_key[GOTA_MAX_UNITS];         /* scratch */
    uint32_t mark[GOTA_MAX_UNITS], stamp;     /* scratch: slots already listed */
    int32_t spell_tick[2];
    int32_t spell_n[2];
    int16_t spell[2][SPELL_MAX];
    int32_t vel_x[GOTA_MAX_UNITS], vel_z[GOTA_MAX_UNITS];   /* displacement over the last tick */
    int8_t building_at[MAP_TILES];            /* footprint tile -> building index, -1 */
    /* the draft of a script seat in progress */
    const int *draft_cls;                     /* picks so far, -1 none */
    int draft_seat;
};

typedef struct {
    GotaMatch *m;
    int seat, team, slot;    /* slot: the hero's unit slot, -1 in the draft */
    int drafting;
    int pick;                /* the draft decision's accepted pick, -1 */
} HostCtx;

/* 16 * sin(k * 90 / 64 degrees) * 4096, k = 0..64 */
static const int32_t SIN_Q16[65] = {
    0, 1608, 3216, 4821, 6424, 8022, 9616, 11204, 12785, 14359, 15924, 17479, 19024, 20557, 22078, 23586,
    25080, 26558, 28020, 29466, 30893, 32303, 33692, 35062, 36410, 37736, 39040, 40320, 41576, 42806, 44011,
    45190, 46341, 47464, 48559, 49624, 50660, 51665, 52639, 53581, 54491, 55368, 56212, 57022, 57798, 58538,
    59244, 59914, 60547, 61145, 61705, 62228, 62714, 63162, 63572, 63944, 64277, 64571, 64827, 65043, 65220,
    65358, 65457, 65516, 65536,
};

/* sin of a binary angle (65,536 per turn) in Q16, linear between table points */
static int32_t sin_q16(int32_t angle)
{
    angle &= 0xFFFF;
    int half = angle >= 32768;
    if (half) angle -= 32768;
    if (angle > 16384) angle = 32768 - angle;
    int k = angle >> 8, f = angle & 255;
    int32_t v = k >= 64 ? SIN_Q16[64] : SIN_Q16[k] + (((SIN_Q16[k + 1] - SIN_Q16[k]) * f + 128) >> 8);
    return half ? -v : v;
}

static int64_t floor_div64(int64_t n, int64_t d)
{
    int64_t q = n / d;
    if ((n % d) != 0 && n < 0) q--;
    return q;
}

/* The tile of a world coordinate as a team reads it: at an exact boundary Red takes the higher tile, Blue the lower. */
static int32_t team_tile(int team, int32_t w)
{
    int64_t v = (int64_t)w + MAP_HALF_WORLD - (team == GOTA_TEAM_BLUE ? 1 : 0);
    if (v >= 0 && v <= UINT32_MAX) return (int32_t)((uint32_t)v / GOTA_TILE);   /* the map: a division by a constant */
    return (int32_t)floor_div64(v, GOTA_TILE);
}

static int tile_layer(const MapData *map, int t)
{
    uint8_t r = map->region[t];
    if (r & (GOTA_REGION_RED_KEEP | GOTA_REGION_RED_SPAWN)) return 1;
    if (r & (GOTA_REGION_BLUE_KEEP | GOTA_REGION_BLUE_SPAWN)) return 2;
    if (map->material[t] == GOTA_MAT_WATER) return 3;
    return 0;
}

static struct ScriptView *view_new(const GotaMatch *m)
{
    struct ScriptView *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->obj_tick[0] = v->obj_tick[1] = v->spell_tick[0] = v->spell_tick[1] = -1;
    memset(v->building_at, -1, sizeof v->building_at);
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        for (int k = 0; k < mb->footprint_n; k++) v->building_at[mb->footprint[k]] = (int8_t)b;
    }
    v->draft_seat = -1;
    return v;
}

/* ---- the object list -------------------------------------------------------------- */
static int object_group(int kind)
{
    switch (kind) {
    case GOTA_KIND_GOD: return 0;
    case GOTA_KIND_TOWER: case GOTA_KIND_BARRACKS: return 1;
    case GOTA_KIND_HERO: return 2;
    case GOTA_KIND_CREEP: return 3;
    default: return 4;
    }
}

static int listed(const GotaMatch *m, int team, int i)
{
    const GotaUnit *u = &m->unit[i];
    if (u->kind == GOTA_KIND_NONE || !m->seen[team][i]) return 0;
    return u->alive || (u->kind == GOTA_KIND_HERO && u->team == team);
}

static uint64_t object_key(const GotaMatch *m, int team, int i)
{
    const GotaUnit *u = &m->unit[i];
    int32_t tx = team_tile(team, u->x), tz = team_tile(team, u->z);
    if (team == GOTA_TEAM_BLUE) {
        tx = MAP_N - 1 - tx;
        tz = MAP_N - 1 - tz;
    }
    if (tx < 0) tx = 0;
    if (tx > 127) tx = 127;
    if (tz < 0) tz = 0;
    if (tz > 127) tz = 127;
    return (uint64_t)object_group(u->kind) << 48 | (uint64_t)(u->team != team) << 47 | (uint64_t)tz << 40 |
           (uint64_t)tx << 33 | (uint32_t)u->id;
}

/* Built at the first use in a tick; the last tick's order is the starting
 * point, so the insertion sort does little work. */
static void build_objects(HostCtx *c)
{
    GotaMatch *m = c->m;
    struct ScriptView *v = m->script_view;
    int team = c->team;
    if (c->drafting) {
        v->obj_n[team] = 0;
        v->obj_tick[team] = -1;
        return;
    }
    if (v->obj_tick[team] == m->tick) return;
    uint32_t stamp = ++v->stamp;
    if (stamp == 0) {
        memset(v->mark, 0, sizeof v->mark);
        stamp = v->stamp = 1;
    }
    int16_t *obj = v->obj[team];
    int32_t *ids = v->obj_id[team];
    int n = 0, old = v->obj_tick[team] < 0 ? 0 : v->obj_n[team];
    for (int k = 0; k < old; k++) {
        int i = obj[k];
        if (i < m->unit_n && m->unit[i].id == ids[k] && listed(m, team, i)) {
            obj[n] = (int16_t)i;
            ids[n] = m->unit[i].id;
            v->mark[i] = stamp;
            n++;
        }
    }
    for (int i = 0; i < m->unit_n; i++) {
        if (v->mark[i] == stamp || !listed(m, team, i)) continue;
        obj[n] = (int16_t)i;
        ids[n] = m->unit[i].id;
        n++;
    }
    uint64_t *key = v->obj_key;
    for (int k = 0; k < n; k++) key[k] = object_key(m, team, obj[k]);
    for (int k = 1; k < n; k++) {
        uint64_t kk = key[k];
        int16_t s = obj[k];
        int32_t id = ids[k];
        int j = k - 1;
        while (j >= 0 && key[j] > kk) {
            key[j + 1] = key[j];
            obj[j + 1] = obj[j];
            ids[j + 1] = ids[j];
            j--;
        }
        key[j + 1] = kk;
        obj[j + 1] = s;
        ids[j + 1] = id;
    }
    v->obj_n[team] = n;
    v->obj_tick[team] = m->tick;
}

static void build_spells(HostCtx *c)
{
    GotaMatch *m = c->m;
    struct ScriptView *v = m->script_view;
    int team = c->team;
    if (v->spell_tick[team] == m->tick && !c->drafting) return;
    uint64_t key[SPELL_MAX];
    int16_t *sp = v->spell[team];
    int n = 0;
    for (int i = 0; i < m->spell_n && !c->drafting; i++) {
        const Spell *s = &m->spell[i];
        if (s->team != team && !vision_sees_point(&m->vision, team, s->aim_x, s->aim_z)) continue;
        int32_t tx = team_tile(team, s->aim_x), tz = team_tile(team, s->aim_z);
        if (team == GOTA_TEAM_BLUE) {
            tx = MAP_N - 1 - tx;
            tz = MAP_N - 1 - tz;
        }
        tx = tx < 0 ? 0 : tx > 127 ? 127 : tx;
        tz = tz < 0 ? 0 : tz > 127 ? 127 : tz;
        uint64_t k = (uint64_t)(s->impact_tick & 0xFFFFF) << 44 | (uint64_t)(s->team == team) << 43 |
                     (uint64_t)tz << 36 | (uint64_t)tx << 29 | (uint64_t)(s->cls * HERO_ABILITIES + s->ability) << 22 |
                     (uint64_t)(s->caster_id & 0x3FFFFF);
        int j = n - 1;
        while (j >= 0 && key[j] > k) {
            key[j + 1] = key[j];
            sp[j + 1] = sp[j];
            j--;
        }
        key[j + 1] = k;
        sp[j + 1] = (int16_t)i;
        n++;
    }
    v->spell_n[team] = n;
    v->spell_tick[team] = c->drafting ? -1 : m->tick;
}

/* ---- arguments -------------------------------------------------------------------- */
static const char *fn_name(int id)
{
    for (size_t k = 0; k < sizeof GOTA_SYMS / sizeof GOTA_SYMS[0]; k++)
        if (GOTA_SYMS[k].kind == BASIC_SYM_FUNC && GOTA_SYMS[k].id == id) return GOTA_SYMS[k].name;
    return "?";
}

static int int_arg(BasicVM *vm, int id, const BasicValue *args, int k, int32_t *out)
{
    if (basic_to_int(args[k], out) == BASIC_OK) return BASIC_OK;
    char buf[32];
    basic_format(args[k], buf, sizeof buf);
    return basic_vm_fail_text(vm, "%s: argument %d is %s; ids, slots, indices and terrain tiles need exact integers",
                              fn_name(id), k + 1, buf);
}

/* A tile coordinate (an integer names a tile centre; decimals allowed) to world units. */
static int32_t world_of(BasicValue v)
{
    int64_t q = v.fx ? (int64_t)v.v : (int64_t)v.v * 65536;
    int64_t w = floor_div64(q * GOTA_TILE + 32768, 65536) - (int64_t)(MAP_N / 2) * GOTA_TILE + GOTA_TILE / 2;
    if (w > (1 << 30)) w = 1 << 30;
    if (w < -(1 << 30)) w = -(1 << 30);
    return (int32_t)w;
}

static BasicValue I(int32_t v) { return (BasicValue){v, 0}; }
static BasicValue B(int truth) { return (BasicValue){truth ? -1 : 0, 0}; }   /* the original's Nim booleans */
static BasicValue FX(int32_t q16) { return (BasicValue){q16, 1}; }

/* World units (from the map centre) to Q16.16 tiles, truncated like the original's worldToTiles. */
static BasicValue tiles_of(int32_t w) { return FX((int32_t)(((int64_t)w * 65536) / GOTA_TILE)); }

/* ---- numeric built-ins ------------------------------------------------------------- */
/* A number as Q16.16 (integers must fit -32768 .. 32767), else a refused call. */
static int fixed_arg(BasicVM *vm, const char *fn, BasicValue a, int32_t *out)
{
    if (a.fx) {
        *out = a.v;
        return BASIC_OK;
    }
    if (a.v < -32768 || a.v > 32767)
        return basic_vm_fail_text(vm, "%s: %d does not fit a decimal (-32768 .. 32767)", fn, a.v);
    *out = a.v * 65536;
    return BASIC_OK;
}

static uint64_t isqrt64(uint64_t v)
{
    if (v < 2) return v;
    int bits = 0;
    for (uint64_t t = v; t; t >>= 1) bits++;
    uint64_t r = (uint64_t)1 << ((bits + 1) / 2), n;   /* above the root: Newton descends to its floor */
    while ((n = (r + v / r) / 2) < r) r = n;
    return r;
}

/* floor(a * b / 2^s) of a 128-bit product, 0 < s < 64, for results below 2^64 */
static uint64_t mul_shift(uint64_t a, uint64_t b, int s)
{
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    uint64_t lo = (mid << 32) | (ll & 0xFFFFFFFFu), hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return (hi << (64 - s)) | (lo >> s);
}

/* e^n = m * 2^p, m in [1, 2) as Q60, for n = -12 .. 10 */
static const struct { uint64_t m; int p; } EXP_INT[23] = {
    {1856974238783408882ull, -18}, {1261944832300377092ull, -16}, {1715160853079956124ull, -15},
    {1165572644952889745ull, -13}, {1584177470262193340ull, -12}, {2153120415233969836ull, -11},
    {1463197024803673560ull, -9},  {1988690941989582364ull, -8},  {1351455612507845752ull, -6},
    {1836818616724532937ull, -5},  {1248247667004394400ull, -3},  {1696544475317221319ull, -2},
    {1152921504606846976ull, 0},   {1566982787806226771ull, 1},   {2129750418800881100ull, 2},
    {1447315465644869107ull, 4},   {1967105665155094632ull, 5},   {1336786896062484255ull, 7},
    {1816881764044410680ull, 8},   {1234699170915134063ull, 10},  {1678130159956028913ull, 11},
    {2280815359798772163ull, 12},  {1549974736652820383ull, 14},
};

/* round(e^(v / 65536) * 65536), halves up, in integers; -1 when it exceeds int32 */
static int64_t exp_q16(int32_t v)
{
    if (v < -12 * 65536) return 0;   /* below 0.5 / 65536 */
    int32_t n = (int32_t)floor_div64(v, 65536);
    if (n > 10) return -1;
    uint64_t f = (uint64_t)(v - n * 65536) << 44;   /* Q60 in [0, 1) */
    uint64_t sum = (uint64_t)1 << 60, term = sum;
    for (uint64_t k = 1; term; k++) {
        term = mul_shift(term, f, 60) / k;
        sum += term;
    }
    uint64_t prod = mul_shift(sum, EXP_INT[n + 12].m, 60);   /* Q60, in [1, 2e) */
    int shift = 44 - EXP_INT[n + 12].p;                      /* 30 .. 62 */
    uint64_t r = (prod + ((uint64_t)1 << (shift - 1))) >> shift;
    return r > INT32_MAX ? -1 : (int64_t)r;
}

static int math_call(BasicVM *vm, int id, BasicValue a, BasicValue *out)
{
    int32_t q = 0;
    int e;
    switch (id) {
    case F_FLOOR:   /* an integer as it is; a decimal to the integer below it */
        *out = a.fx ? I((int32_t)floor_div64(a.v, 65536)) : a;
        return BASIC_OK;
    case F_SQRT:   /* rounded down; 0 for negative numbers */
        if ((e = fixed_arg(vm, "sqrt", a, &q)) != BASIC_OK) return e;
        *out = FX(q <= 0 ? 0 : (int32_t)isqrt64((uint64_t)q << 16));
        return BASIC_OK;
    default: {   /* exp */
        if ((e = fixed_arg(vm, "exp", a, &q)) != BASIC_OK) return e;
        int64_t r = q > 11 * 65536 ? -1 : exp_q16(q);
        if (r < 0) {
            char buf[32];
            basic_format(a, buf, sizeof buf);
            return basic_vm_fail_text(vm, "exp(%s) is outside the decimals (exp of at most 10.39 fits)", buf);
        }
        *out = FX((int32_t)r);
        return BASIC_OK;
    }
    }
}

/* ---- commands --------------------------------------------------------------------- */
static int32_t map_error(int verb, int code, const GotaMatch *m, int seat, int32_t slot, int32_t x, int32_t z)
{
    switch (code) {
    case GOTA_ACT_OK: return AE_NONE;
    case GOTA_ACT_DEAD: case GOTA_ACT_NO_HERO: return AE_NOT_ALIVE;
    case GOTA_ACT_ALIVE: return AE_NOT_DEAD;
    case GOTA_ACT_CHANNELING: return AE_CHANNELING;
    case GOTA_ACT_STUNNED: return AE_STUNNED;
    case GOTA_ACT_ROOTED: return AE_ROOTED;
    case GOTA_ACT_SILENCED: return AE_SILENCED;
    case GOTA_ACT_BAD_SLOT: return AE_INVALID_SLOT;
    case GOTA_ACT_NOT_LEARNED: return AE_ABILITY_LOCKED;
    case GOTA_ACT_TOO_MANY_SPELLS: return AE_SPELL_LIMIT;
    case GOTA_ACT_COOLDOWN: case GOTA_ACT_ITEM_COOLDOWN: return AE_COOLDOWN;
    case GOTA_ACT_NO_CHARGES: return AE_NO_CHARGES;
    case GOTA_ACT_NO_MANA: return AE_INSUFFICIENT_MANA;
    case GOTA_ACT_FULL: {
        if (verb == GOTA_CMD_USE_ITEM && slot >= 0 && slot < HERO_ITEM_SLOTS) {
            int u = ITEM[m->hero[seat].item[slot]].use;
            if (u == USE_MANA_NOW || u == USE_MANA_OVER_TIME) return AE_FULL_MANA;
        }
        if (verb == GOTA_CMD_CAST_TARGET || verb == GOTA_CMD_CAST_POINT) {
            const HeroState *h = &m->hero[seat];
            if (slot >= 0 && slot < HERO_ABILITIES && HERO_CLASS[h->cls].ability[slot].effect == EFFECT_RESTORE)
                return AE_FULL_MANA;
        }
        return AE_FULL_HEALTH;
    }
    case GOTA_ACT_BAD_TARGET: case GOTA_ACT_NOT_VISIBLE: return AE_TARGET_UNAVAILABLE;
    case GOTA_ACT_OUT_OF_RANGE: return AE_OUT_OF_RANGE;
    case GOTA_ACT_BAD_POINT:
        if ((verb == GOTA_CMD_WALK || verb == GOTA_CMD_ATTACK_MOVE) && map_world_inside(x, z)) return AE_NO_ROUTE;
        return AE_INVALID_POINT;
    case GOTA_ACT_NOT_IN_SHOP: return AE_OUTSIDE_KEEP;
    case GOTA_ACT_NO_GOLD: return AE_INSUFFICIENT_GOLD;
    case GOTA_ACT_INVENTORY_FULL: return AE_INVENTORY_FULL;
    case GOTA_ACT_DUPLICATE: return AE_ALREADY_EQUIPPED;
    case GOTA_ACT_BAD_ITEM: return verb == GOTA_CMD_BUY ? AE_UNKNOWN_ITEM : AE_NOT_CONSUMABLE;
    case GOTA_ACT_EMPTY_SLOT: return AE_EMPTY_SLOT;
    case GOTA_ACT_NO_POINTS: return AE_NO_ABILITY_POINTS;
    case GOTA_ACT_MAX_RANK: return AE_ABILITY_MAX_LEVEL;
    case GOTA_ACT_LEVEL_TOO_LOW: return AE_HERO_LEVEL_REQUIRED;
    case GOTA_ACT_MATCH_OVER: return AE_MATCH_ENDED;
    case GOTA_ACT_NO_TOWER: return AE_TARGET_UNAVAILABLE;   /* no tower offers a landing, as the original says */
    default: return AE_INVALID_SLOT;
    }
}

static const BasicHostOps GOTA_OPS;

/* A command's answer: lastActionError(), and the seat's command counters (status
 * only, so they stay out of the state hash). 1 when accepted. */
static int answer(BasicVM *vm, int32_t error)
{
    vm->last_action_error = error;
    vm->commands++;
    if (error != AE_NONE) {
        vm->refused++;
        vm->refused_by[error]++;
    }
    return error == AE_NONE;
}

static BasicValue command(HostCtx *c, BasicVM *vm, int verb, int32_t target, int32_t x, int32_t z, int32_t slot,
                          int32_t item)
{
    basic_vm_sample_all(vm, &GOTA_OPS, c);   /* the decision's values stay those of its start */
    if (c->drafting) return I(answer(vm, AE_DRAFTING));
    GotaCommand cmd = {verb, target, x, z, slot, item};
    int code = match_command(c->m, c->seat, &cmd);
    return I(answer(vm, map_error(verb, code, c->m, c->seat, slot, x, z)));
}

static int draft_hero(HostCtx *c, BasicVM *vm, int32_t cls)
{
    if (!c->drafting) return answer(vm, AE_NOT_DRAFTING);
    if (c->pick >= 0) return answer(vm, AE_NOT_DRAFT_TURN);   /* one pick per turn */
    if (cls < 0 || cls >= HERO_CLASSES) return answer(vm, AE_UNKNOWN_HERO);
    const int *picked = c->m->script_view->draft_cls;
    for (int s = 0; s < SEATS; s++)
        if (picked[s] == cls) return answer(vm, AE_HERO_TAKEN);
    c->pick = cls;
    return answer(vm, AE_NONE);
}

/* ---- the sampled values ------------------------------------------------------------ */
static int32_t attack_cooldown(const UnitState *st)
{
    if (st->swing < 0) return st->windup;
    return st->swing < st->windup ? st->windup - st->swing : st->period - st->swing + st->windup;
}

static BasicValue sample(void *vctx, int k)
{
    HostCtx *c = vctx;
    const GotaMatch *m = c->m;
    switch (k) {
    case D_SELF_ID: return I(HERO_ID_BASE + c->seat);
    case D_SELF_TEAM: return I(c->team);
    case D_WORLD_TICK: return I(m->tick);
    case D_DRAFTING: return I(c->drafting);
    case D_DRAFT_TURN_ID: return I(c->drafting ? HERO_ID_BASE + c->seat : 0);
    case D_DRAFT_MODE: return I(0);   /* unique draft: a class plays on one seat of the match */
    default: break;
    }
    if (c->slot < 0) return I(k == D_SELF_CLASS ? -1 : 0);
    const GotaUnit *u = &m->unit[c->slot];
    const HeroState *h = &m->hero[c->seat];
    switch (k) {
    case D_SELF_CLASS: return I(h->cls);
    case D_SELF_X: return I(team_tile(c->team, u->x));
    case D_SELF_Y: return I(team_tile(c->team, u->z));
    case D_SELF_HP: return I(u->hp);
    case D_SELF_MAX_HP: return I(u->max_hp);
    case D_SELF_MANA: return I(h->mana);
    case D_SELF_MAX_MANA: return I(h->max_mana);
    case D_SELF_GOLD: return I(h->gold);
    case D_SELF_LEVEL: return I(h->level);
    case D_SELF_LAYER: return I(tile_layer(m->map, map_index_of(u->x, u->z)));
    case D_SELF_MOVE_SPEED: return I(h->move_speed);
    case D_SELF_ATTACK_RANGE: return I(u->range);
    case D_SELF_ATTACK_DAMAGE: return I(u->damage);
    case D_SELF_TARGET: return I(u->target_id > 0 ? u->target_id : 0);
    case D_SELF_ATTACK_COOLDOWN: return I(attack_cooldown(&m->st[c->slot]));
    case D_SELF_ATTACKS_LANDED: return I(m->script[c->seat] ? m->script[c->seat]->attacks_landed : 0);
    case D_SELF_PORTAL_COOLDOWN: return I(h->portal_cd);
    case D_SELF_CHANNEL_TICKS: return I(h->channel);
    case D_SELF_STUN_TICKS: return I(h->stun);
    case D_SELF_ROOT_TICKS: return I(h->root);
    case D_SELF_SILENCE_TICKS: return I(h->silence);
    case D_SELF_DEATHS: return I(h->deaths);
    case D_SELF_RESPAWN_TICKS: return I(!u->alive && h->respawn_at > m->tick ? h->respawn_at - m->tick : 0);
    default: return I(0);
    }
}

/* ---- queries ------------------------------------------------------------------------ */
/* Alive as the original's object list says it: a building or a god only while
 * it stands exposed (attackable); its hit points still show it standing. */
static int object_alive(const GotaUnit *u)
{
    if (u->kind == GOTA_KIND_TOWER || u->kind == GOTA_KIND_BARRACKS || u->kind == GOTA_KIND_GOD)
        return u->alive && u->exposed;
    return u->alive ? 1 : 0;
}

static int object_slot(HostCtx *c, int32_t i)
{
    build_objects(c);
    const struct ScriptView *v = c->m->script_view;
    return i >= 0 && i < v->obj_n[c->team] ? v->obj[c->team][i] : -1;
}

static int32_t object_query(HostCtx *c, int id, int32_t i, int32_t slot_arg)
{
    const GotaMatch *m = c->m;
    int s = object_slot(c, i);
    if (s < 0) return 0;
    const GotaUnit *u = &m->unit[s];
    const UnitState *st = &m->st[s];
    int hseat = u->kind == GOTA_KIND_HERO ? hero_seat_of_slot(m, s) : -1;
    const HeroState *h = hseat >= 0 ? &m->hero[hseat] : NULL;
    switch (id) {
    case F_OBJECT_ID: return u->id;
    case F_OBJECT_KIND: return u->kind;
    case F_OBJECT_TEAM: return u->team;
    case F_OBJECT_CLASS:
        if (u->kind == GOTA_KIND_HERO || u->kind == GOTA_KIND_CREEP) return u->sub;
        if (u->kind == GOTA_KIND_NEUTRAL && st->camp >= 0 && st->camp < MAP_CAMPS) return m->map->camp[st->camp].tier;
        return -1;
    case F_OBJECT_X: return team_tile(c->team, u->x);
    case F_OBJECT_Y: return team_tile(c->team, u->z);
    case F_OBJECT_HP: return u->hp;
    case F_OBJECT_ALIVE: return object_alive(u);
    case F_OBJECT_LEVEL: return h ? h->level : 0;
    case F_OBJECT_MANA: return h ? h->mana : 0;
    case F_OBJECT_ITEM_ID: return h && slot_arg >= 0 && slot_arg < HERO_ITEM_SLOTS ? h->item[slot_arg] : 0;
    case F_OBJECT_ITEM_COUNT: return h && slot_arg >= 0 && slot_arg < HERO_ITEM_SLOTS ? h->item_count[slot_arg] : 0;
    case F_OBJECT_FACING_X: return (int32_t)(((int64_t)sin_q16(nav_facing_of(u->facing, &st->face) + 16384) * GOTA_TILE + 32768) >> 16);
    case F_OBJECT_FACING_Y: return (int32_t)(((int64_t)sin_q16(nav_facing_of(u->facing, &st->face)) * GOTA_TILE + 32768) >> 16);
    case F_OBJECT_TARGET: {
        int t = unit_target_slot(m, s);
        return t >= 0 && m->seen[c->team][t] ? m->unit[t].id : 0;
    }
    case F_OBJECT_VEL_X: return m->script_view->vel_x[s];
    case F_OBJECT_VEL_Y: return m->script_view->vel_z[s];
    case F_OBJECT_STUN_TICKS: return h ? h->stun : (u->kind == GOTA_KIND_CREEP || u->kind == GOTA_KIND_NEUTRAL) ? st->stun : 0;
    case F_OBJECT_ROOT_TICKS: return h ? h->root : (u->kind == GOTA_KIND_CREEP || u->kind == GOTA_KIND_NEUTRAL) ? st->root : 0;
    case F_OBJECT_SILENCE_TICKS: return h ? h->silence : 0;
    case F_OBJECT_CAMP: return u->kind == GOTA_KIND_NEUTRAL ? st->camp : -1;
    case F_OBJECT_LEADER:
        return u->kind == GOTA_KIND_NEUTRAL && st->camp >= 0 && st->camp < MAP_CAMPS &&
               m->camp[st->camp].member[0] == s && m->map->camp[st->camp].members > 1;
    case F_OBJECT_RETURNING: return u->kind == GOTA_KIND_NEUTRAL && camp_returning(m, s);
    default: return 0;
    }
}

static int32_t spell_query(HostCtx *c, int id, int32_t i)
{
    const GotaMatch *m = c->m;
    build_spells(c);
    const struct ScriptView *v = m->script_view;
    if (i < 0 || i >= v->spell_n[c->team]) return id == F_SPELL_ABILITY ? -1 : 0;
    const Spell *s = &m->spell[v->spell[c->team][i]];
    int area = HERO_CLASS[s->cls].ability[s->ability].cast == CAST_AREA;
    int32_t x = area ? s->x : s->aim_x, z = area ? s->z : s->aim_z;
    switch (id) {
    case F_SPELL_ABILITY: return s->cls * HERO_ABILITIES + s->ability;
    case F_SPELL_CASTER_ID: return s->team == c->team || (s->caster >= 0 && m->seen[c->team][s->caster]) ? s->caster_id : 0;
    case F_SPELL_X: return team_tile(c->team, x);
    case F_SPELL_Y: return team_tile(c->team, z);
    case F_SPELL_IMPACT_TICK: return s->impact_tick;
    default: return 0;
    }
}

static int32_t terrain_query(HostCtx *c, int id, int32_t x, int32_t y, int32_t layer, int at)
{
    const GotaMatch *m = c->m;
    if (!map_in_bounds(x, y)) return 0;
    int t = map_index(x, y);
    if (at && layer != tile_layer(m->map, t)) return 0;
    switch (id) {
    case F_TERRAIN_KIND: case F_TERRAIN_KIND_AT: return m->map->material[t];
    case F_TERRAIN_HEIGHT: case F_TERRAIN_HEIGHT_AT: return m->map->height8[t];
    case F_TERRAIN_WATER_DEPTH: case F_TERRAIN_WATER_DEPTH_AT: return m->map->material[t] == GOTA_MAT_WATER ? 8 : 0;
    default: {
        if (!m->map->walkable[t]) return 0;
        int b = m->script_view->building_at[t];
        if (b < 0) return 1;
        int standing = m->map->building[b].team == c->team ? m->building_alive[b] : !m->seen_destroyed[c->team][b];
        return !standing;
    }
    }
}

static int item_cooldown(const HeroState *h, int32_t slot)
{
    if (slot < 0 || slot >= HERO_ITEM_SLOTS || h->item[slot] <= 0 || h->item_count[slot] <= 0) return 0;
    switch (ITEM[h->item[slot]].use) {
    case USE_HEAL_OVER_TIME: case USE_HEAL_NOW: return h->hp_item_cd;
    case USE_MANA_NOW: case USE_MANA_OVER_TIME: return h->mana_item_cd;
    case USE_PORTAL: return h->portal_cd;
    default: return 0;
    }
}

static int in_own_spawn(const GotaMatch *m, int seat, int slot)
{
    const GotaUnit *u = &m->unit[slot];
    int bit = hero_team(seat) == GOTA_TEAM_RED ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
    return u->alive && (m->map->region[map_index_of(u->x, u->z)] & bit) != 0;
}

static int32_t ability_query(HostCtx *c, int id, int32_t a)
{
    const GotaMatch *m = c->m;
    if (a < 0 || a >= HERO_ABILITIES || c->slot < 0) return 0;
    const HeroState *h = &m->hero[c->seat];
    const AbilityDef *d = &HERO_CLASS[h->cls].ability[a];
    int32_t rank = h->rank[a];
    switch (id) {
    case F_ABILITY_LEVEL: return rank;
    case F_ABILITY_MAX_LEVEL: return ability_max_rank(a);
    case F_ABILITY_REQUIRED_LEVEL: return rank >= ability_max_rank(a) ? 0 : ability_required_level(a, rank + 1);
    case F_CAN_LEVEL_ABILITY:
        return m->unit[c->slot].alive && h->points > 0 && rank < ability_max_rank(a) &&
               h->level >= ability_required_level(a, rank + 1);
    case F_ABILITY_DAMAGE: return d->effect == EFFECT_DAMAGE ? ability_scaled(d->amount, rank) : 0;
    case F_ABILITY_HEAL: return d->effect == EFFECT_HEAL ? ability_scaled(d->amount, rank) : 0;
    case F_ABILITY_RESTORE: return d->effect == EFFECT_RESTORE ? ability_scaled(d->amount, rank) : 0;
    case F_ABILITY_MANA_COST: return d->mana;
    case F_ABILITY_CHARGES: return h->charges[a];
    case F_ABILITY_COOLDOWN: return h->cooldown[a];
    case F_ABILITY_RECHARGE: return h->recharge[a];
    default: return 0;
    }
}

/* ---- the newest original's structured queries ------------------------------------------ */
static BasicValue self_info(HostCtx *c, int32_t k)
{
    const GotaMatch *m = c->m;
    if (c->slot < 0) return I(0);   /* in the draft: no hero yet */
    const GotaUnit *u = &m->unit[c->slot];
    const HeroState *h = &m->hero[c->seat];
    int64_t l = h->level - 1, reached = 100 * l + 75 * l * (l - 1) / 2;   /* lifetime XP of the level */
    switch (k) {
    case 0: return tiles_of(u->x);
    case 1: return tiles_of(u->z);
    case 2: return I((int32_t)(h->xp - reached));   /* XP into the current level */
    case 3: return I(xp_to_next(h->level));
    case 4: return I(h->xp);
    case 5: return B(u->alive && (h->order == ORDER_WALK || h->order == ORDER_ATTACK_MOVE));
    case 6: return I(HERO_CLASS[h->cls].role);
    case 7: return B(in_own_spawn(m, c->seat, c->slot));
    case 8: return B(u->alive && bot_in_shop(m, c->seat));
    case 9: return I(h->points);
    case 10: return I((int32_t)economy_hero_score(m, c->seat));
    case 11: return I((int32_t)h->stats.kills);
    case 12: return I((int32_t)h->stats.assists);
    case 13: return tiles_of(m->script_view->vel_x[c->slot]);
    case 14: return tiles_of(m->script_view->vel_z[c->slot]);
    case 15: return tiles_of(u->range);
    case 16: return tiles_of(h->move_speed);
    case 17: return tiles_of(m->map->building[1 - c->team].x);   /* the enemy god */
    case 18: return tiles_of(m->map->building[1 - c->team].z);
    default: return I(0);
    }
}

static BasicValue object_info(HostCtx *c, int32_t i, int32_t k)
{
    const GotaMatch *m = c->m;
    int s = object_slot(c, i);
    if (s < 0) return I(0);
    const GotaUnit *u = &m->unit[s];
    int32_t face = nav_facing_of(u->facing, &m->st[s].face);
    switch (k) {
    case 0: return tiles_of(u->x);
    case 1: return tiles_of(u->z);
    case 2: return I(u->max_hp);
    case 3: return B(object_alive(u));
    case 4: return FX(sin_q16(face + 16384));   /* the facing as a unit vector */
    case 5: return FX(sin_q16(face));
    case 6: return tiles_of(m->script_view->vel_x[s]);
    case 7: return tiles_of(m->script_view->vel_z[s]);
    default: return I(0);
    }
}

static BasicValue ability_info(HostCtx *c, int32_t a, int32_t k)
{
    if (a < 0 || a >= HERO_ABILITIES || c->slot < 0) return I(0);
    const AbilityDef *d = &HERO_CLASS[c->m->hero[c->seat].cls].ability[a];
    switch (k) {
    case 0: return tiles_of(d->range);
    case 1: return I(d->cast);   /* 0 self, 1 melee, 2 projectile, 3 area */
    case 2: return tiles_of(d->shape == SHAPE_NONE ? 0 : d->radius);
    case 3: return I(d->effect);   /* 0 strike, 1 heal, 2 restore */
    default: return I(0);
    }
}

static BasicValue spell_info(HostCtx *c, int32_t i, int32_t k)
{
    const GotaMatch *m = c->m;
    build_spells(c);
    const struct ScriptView *v = m->script_view;
    if (i < 0 || i >= v->spell_n[c->team]) return I(0);
    const Spell *s = &m->spell[v->spell[c->team][i]];
    const AbilityDef *d = &HERO_CLASS[s->cls].ability[s->ability];
    int area = d->cast == CAST_AREA;
    switch (k) {
    case 0: return tiles_of(area ? s->x : s->aim_x);
    case 1: return tiles_of(area ? s->z : s->aim_z);
    case 2: return B(s->team != c->team);
    case 3: return B(d->effect != EFFECT_DAMAGE || d->amount == 0);   /* harmless: heals, restores */
    default: return I(0);
    }
}

static BasicValue match_info(HostCtx *c, int32_t k)
{
    const GotaMatch *m = c->m;
    int32_t wave = m->cfg.wave_interval > 0 ? (int32_t)m->cfg.wave_interval : 1;
    switch (k) {
    case 0: return I(m->tick);
    case 1: return I((int32_t)m->cfg.max_ticks);
    case 2: return I((int32_t)m->cfg.seed);
    case 3: return I(wave - m->tick % wave);   /* ticks to the next creep wave */
    case 4: return I(wave);
    case 5: return I(MAP_N / 2);
    case 6: return I(MAP_N);
    case 7: return I(m->result != GOTA_RESULT_RUNNING);
    default: break;
    }
    if (k < 8 || k > 15) return I(0);
    /* 8..15: own towers alive, all; own barracks alive, all; enemy towers known standing, all; enemy barracks */
    int field = k - 8, enemy = field >= 4, barracks = (field % 4) >= 2, all = field % 2;
    int32_t n = 0;
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        if (mb->kind == GOTA_KIND_GOD || (mb->team != c->team) != enemy || (mb->kind == GOTA_KIND_BARRACKS) != barracks)
            continue;
        if (all || (enemy ? !m->seen_destroyed[c->team][b] : m->building_alive[b])) n++;
    }
    return I(n);
}

#define BLOB_MAX 256   /* the original's native buffers per VM */

static int blob_call(HostCtx *c, BasicVM *vm, int id, int32_t handle, BasicValue *out)
{
    (void)c;
    int32_t cell = vm->prog->blob_cell;
    if (cell < 0) return basic_vm_fail_text(vm, "blob functions need the program's blob counter");
    BasicValue *count = &vm->cells[cell];
    if (id == F_BLOB_CREATE) {
        if (count->fx || count->v >= BLOB_MAX)
            return basic_vm_fail_text(vm, "blobCreate: at most %d blobs per script", BLOB_MAX);
        count->v++;
        *out = I(count->v);
        return BASIC_OK;
    }
    if (handle < 1 || count->fx || handle > count->v)
        return basic_vm_fail_text(vm, "blobClear: %d is not a blob of this script (blobCreate returns its handles)",
                                  handle);
    *out = I(0);
    return BASIC_OK;
}

static int host_call(void *vctx, BasicVM *vm, int id, const BasicValue *args, int argc, BasicValue *out)
{
    HostCtx *c = vctx;
    GotaMatch *m = c->m;
    int32_t a0 = 0, a1 = 0, a2 = 0;
    int e;
    /* exact integer arguments, except the coordinates of moves, casts at a point and scrolls and
     * the numbers of the math built-ins */
    if (id == F_FLOOR || id == F_SQRT || id == F_EXP) return math_call(vm, id, args[0], out);
    int coords = id == F_WALK_TO || id == F_ATTACK_MOVE;
    for (int k = 0; k < argc; k++) {
        if (coords || ((id == F_CAST_POINT || id == F_USE_ITEM_AT) && k > 0)) continue;
        int32_t v;
        if ((e = int_arg(vm, id, args, k, &v)) != BASIC_OK) return e;
        if (k == 0) a0 = v;
        else if (k == 1) a1 = v;
        else a2 = v;
    }
    const HeroState *h = &m->hero[c->seat];
    int alive_hero = c->slot >= 0;
    *out = I(0);
    switch (id) {
    /* draft */
    case F_DRAFT_HERO: *out = I(draft_hero(c, vm, a0)); return BASIC_OK;
    case F_DRAFTED_CLASS: {
        int seat = a0 - HERO_ID_BASE;
        if (seat < 0 || seat >= SEATS) *out = I(-1);
        else if (c->drafting) *out = I(m->script_view->draft_cls[seat]);
        else *out = I(m->hero_slot[seat] >= 0 ? m->hero[seat].cls : -1);
        return BASIC_OK;
    }
    case F_HERO_AVAILABLE: {
        int ok = a0 >= 0 && a0 < HERO_CLASSES && c->drafting;
        for (int s = 0; ok && s < SEATS; s++) ok = m->script_view->draft_cls[s] != a0;
        *out = I(ok);
        return BASIC_OK;
    }
    case F_HERO_ROLE: *out = I(a0 >= 0 && a0 < HERO_CLASSES ? HERO_CLASS[a0].role : -1); return BASIC_OK;
    case F_DRAFT_PLAYER_COUNT: *out = I(SEATS); return BASIC_OK;
    case F_DRAFT_PLAYER_ID: *out = I(a0 >= 0 && a0 < SEATS ? HERO_ID_BASE + a0 : 0); return BASIC_OK;
    case F_DRAFT_PLAYER_TEAM: *out = I(a0 >= 0 && a0 < SEATS ? hero_team(a0) : -1); return BASIC_OK;
    /* objects */
    case F_OBJECT_COUNT:
        build_objects(c);
        *out = I(m->script_view->obj_n[c->team]);
        return BASIC_OK;
    case F_OBJECT_ID: case F_OBJECT_KIND: case F_OBJECT_TEAM: case F_OBJECT_CLASS: case F_OBJECT_X: case F_OBJECT_Y:
    case F_OBJECT_HP: case F_OBJECT_ALIVE: case F_OBJECT_LEVEL: case F_OBJECT_MANA: case F_OBJECT_ITEM_ID:
    case F_OBJECT_ITEM_COUNT: case F_OBJECT_FACING_X: case F_OBJECT_FACING_Y: case F_OBJECT_TARGET:
    case F_OBJECT_VEL_X: case F_OBJECT_VEL_Y: case F_OBJECT_STUN_TICKS: case F_OBJECT_SILENCE_TICKS:
    case F_OBJECT_ROOT_TICKS: case F_OBJECT_CAMP: case F_OBJECT_LEADER: case F_OBJECT_RETURNING:
        *out = I(object_query(c, id, a0, a1));
        if (id == F_OBJECT_CAMP && object_slot(c, a0) < 0) *out = I(-1);
        return BASIC_OK;
    /* camps */
    case F_CAMP_COUNT: *out = I(MAP_CAMPS); return BASIC_OK;
    case F_CAMP_X: *out = I(a0 >= 0 && a0 < MAP_CAMPS ? team_tile(c->team, m->map->camp[a0].x) : 0); return BASIC_OK;
    case F_CAMP_Y: *out = I(a0 >= 0 && a0 < MAP_CAMPS ? team_tile(c->team, m->map->camp[a0].z) : 0); return BASIC_OK;
    case F_CAMP_TIER: *out = I(a0 >= 0 && a0 < MAP_CAMPS ? m->map->camp[a0].tier : 0); return BASIC_OK;
    /* spells */
    case F_SPELL_COUNT:
        build_spells(c);
        *out = I(m->script_view->spell_n[c->team]);
        return BASIC_OK;
    case F_SPELL_ABILITY: case F_SPELL_CASTER_ID: case F_SPELL_X: case F_SPELL_Y: case F_SPELL_IMPACT_TICK:
        *out = I(spell_query(c, id, a0));
        return BASIC_OK;
    /* orders */
    case F_WALK_TO: case F_ATTACK_MOVE:
        *out = command(c, vm, id == F_WALK_TO ? GOTA_CMD_WALK : GOTA_CMD_ATTACK_MOVE, 0, world_of(args[0]),
                       world_of(args[1]), 0, 0);
        return BASIC_OK;
    case F_ATTACK_TARGET: *out = command(c, vm, GOTA_CMD_ATTACK, a0, 0, 0, 0, 0); return BASIC_OK;
    /* items */
    case F_ITEM_ID: *out = I(alive_hero && a0 >= 0 && a0 < HERO_ITEM_SLOTS ? h->item[a0] : 0); return BASIC_OK;
    case F_ITEM_COUNT: *out = I(alive_hero && a0 >= 0 && a0 < HERO_ITEM_SLOTS ? h->item_count[a0] : 0); return BASIC_OK;
    case F_ITEM_COOLDOWN: *out = I(alive_hero ? item_cooldown(h, a0) : 0); return BASIC_OK;
    case F_CAN_SHOP: *out = I(alive_hero && !c->drafting && bot_in_shop(m, c->seat)); return BASIC_OK;
    case F_IN_OWN_SPAWN: *out = I(alive_hero && in_own_spawn(m, c->seat, c->slot)); return BASIC_OK;
    case F_BUY_ITEM: *out = command(c, vm, GOTA_CMD_BUY, 0, 0, 0, 0, a0); return BASIC_OK;
    case F_USE_ITEM: *out = command(c, vm, GOTA_CMD_USE_ITEM, 0, 0, 0, a0, 0); return BASIC_OK;
    case F_USE_ITEM_AT:
        *out = command(c, vm, GOTA_CMD_USE_ITEM_AT, 0, world_of(args[1]), world_of(args[2]), a0, 0);
        return BASIC_OK;
    case F_BUYBACK_PRICE:
        *out = I(alive_hero && !m->unit[c->slot].alive && m->result == GOTA_RESULT_RUNNING ? h->buyback_price : 0);
        return BASIC_OK;
    case F_BUYBACK: *out = command(c, vm, GOTA_CMD_BUYBACK, 0, 0, 0, 0, 0); return BASIC_OK;
    /* abilities */
    case F_LEVEL_ABILITY: *out = command(c, vm, GOTA_CMD_LEVEL, 0, 0, 0, a0, 0); return BASIC_OK;
    case F_ABILITY_POINTS: *out = I(alive_hero ? h->points : 0); return BASIC_OK;
    case F_ABILITY_LEVEL: case F_ABILITY_MAX_LEVEL: case F_ABILITY_REQUIRED_LEVEL: case F_CAN_LEVEL_ABILITY:
    case F_ABILITY_DAMAGE: case F_ABILITY_HEAL: case F_ABILITY_RESTORE: case F_ABILITY_MANA_COST:
    case F_ABILITY_CHARGES: case F_ABILITY_COOLDOWN: case F_ABILITY_RECHARGE:
        *out = I(ability_query(c, id, a0));
        return BASIC_OK;
    case F_CAST_TARGET: *out = command(c, vm, GOTA_CMD_CAST_TARGET, a1, 0, 0, a0, 0); return BASIC_OK;
    case F_CAST_POINT:
        *out = command(c, vm, GOTA_CMD_CAST_POINT, 0, world_of(args[1]), world_of(args[2]), a0, 0);
        return BASIC_OK;
    case F_LAST_ACTION_ERROR: *out = I(vm->last_action_error); return BASIC_OK;
    /* terrain */
    case F_TERRAIN_KIND: case F_TERRAIN_WALKABLE: case F_TERRAIN_HEIGHT: case F_TERRAIN_WATER_DEPTH:
        *out = I(terrain_query(c, id, a0, a1, 0, 0));
        return BASIC_OK;
    case F_TERRAIN_KIND_AT: case F_TERRAIN_WALKABLE_AT: case F_TERRAIN_HEIGHT_AT: case F_TERRAIN_WATER_DEPTH_AT:
        *out = I(terrain_query(c, id, a0, a1, a2, 1));
        return BASIC_OK;
    /* the newest original's structured queries and blobs */
    case F_SELF_INFO: *out = self_info(c, a0); return BASIC_OK;
    case F_OBJECT_INFO: *out = object_info(c, a0, a1); return BASIC_OK;
    case F_ABILITY_INFO: *out = ability_info(c, a0, a1); return BASIC_OK;
    case F_SPELL_INFO: *out = spell_info(c, a0, a1); return BASIC_OK;
    case F_MATCH_INFO: *out = match_info(c, a0); return BASIC_OK;
    case F_BLOB_CREATE: case F_BLOB_CLEAR: return blob_call(c, vm, id, a0, out);
    default: return basic_vm_fail_text(vm, "unknown host function %d", id);
    }
}

static const BasicHostOps GOTA_OPS = {sample, host_call};

/* ---- the match side ------------------------------------------------------------------ */
static void ctx_init(HostCtx *c, GotaMatch *m, int seat, int drafting)
{
    c->m = m;
    c->seat = seat;
    c->team = hero_team(seat);
    c->drafting = drafting;
    c->pick = -1;
    c->slot = drafting ? -1 : m->hero_slot[seat];
    if (c->slot >= 0 && hero_seat_of_slot(m, c->slot) != seat) c->slot = -1;
}

static void script_failed(GotaMatch *m, int seat)
{
    if (m->hero_slot[seat] >= 0) m->hero[seat].stats.script_errors++;
}

void script_decide(GotaMatch *m, int seat)
{
    BasicVM *vm = m->script[seat];
    if (!vm || vm->disabled || !m->script_view) return;
    HostCtx c;
    ctx_init(&c, m, seat, 0);
    if (c.slot < 0) return;
    if (basic_vm_run(vm, &GOTA_OPS, &c) != BASIC_OK) script_failed(m, seat);
}

int script_draft(GotaMatch *m, int seat, const int cls[SEATS])
{
    BasicVM *vm = m->script[seat];
    if (!vm || vm->disabled || !m->script_view) return -1;
    /* The original runs the picking seat's script through its pick; a script that
     * cannot pick (no draftHero: written before the draft existed) would only see
     * a hero that does not exist yet, so it first runs at tick 0 */
    if (!vm->prog->uses_draft) return -1;
    HostCtx c;
    ctx_init(&c, m, seat, 1);
    m->script_view->draft_cls = cls;
    m->script_view->draft_seat = seat;
    int pick = -1;
    for (int k = 0; k < SCRIPT_DRAFT_TRIES && pick < 0 && !vm->disabled; k++) {
        c.pick = -1;
        if (basic_vm_run(vm, &GOTA_OPS, &c) != BASIC_OK) script_failed(m, seat);
        else pick = c.pick;
    }
    m->script_view->draft_cls = NULL;
    m->script_view->draft_seat = -1;
    return pick;
}

void scripts_reset(GotaMatch *m)
{
    for (int s = 0; s < SEATS; s++) basic_vm_reset(m->script[s]);
    struct ScriptView *v = m->script_view;
    if (v) {
        v->obj_tick[0] = v->obj_tick[1] = v->spell_tick[0] = v->spell_tick[1] = -1;
        v->obj_n[0] = v->obj_n[1] = v->spell_n[0] = v->spell_n[1] = 0;
        memset(v->vel_x, 0, sizeof v->vel_x);
        memset(v->vel_z, 0, sizeof v->vel_z);
    }
}

void scripts_after_draft(GotaMatch *m)
{
    for (int s = 0; s < SEATS; s++)   /* a VM disabled by now failed in the draft */
        if (m->script[s] && m->script[s]->disabled && m->hero_slot[s] >= 0) m->hero[s].stats.script_errors = 1;
}

void scripts_snapshot(GotaMatch *m)
{
    struct ScriptView *v = m->script_view;
    if (!v) return;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        int32_t dx = u->x - m->snap_x[i], dz = u->z - m->snap_z[i];
        if (!u->alive || dx > GOTA_TILE || dx < -GOTA_TILE || dz > GOTA_TILE || dz < -GOTA_TILE) dx = dz = 0;
        v->vel_x[i] = dx;
        v->vel_z[i] = dz;
    }
}

void scripts_attack_landed(GotaMatch *m, int seat)
{
    if (seat >= 0 && seat < SEATS && m->script[seat]) m->script[seat]->attacks_landed++;
}

void scripts_free(GotaMatch *m)
{
    for (int s = 0; s < SEATS; s++) {
        basic_vm_free(m->script[s]);
        m->script[s] = NULL;
    }
    free(m->script_view);
    m->script_view = NULL;
}

/* ---- the public API --------------------------------------------------------------------- */
int gota_basic_compile(const char *source, int64_t len, const char *name, GotaBasicProgram **out, char *err,
                       int32_t errcap)
{
    return basic_compile(source, len, name, &GOTA_BASIC_HOST, out, err, errcap > 0 ? (size_t)errcap : 0);
}

void gota_basic_free(GotaBasicProgram *p)
{
    basic_program_release(p);
}

int gota_basic_info(const GotaBasicProgram *p, GotaBasicInfo *out)
{
    if (!p || !out) return GOTA_ERR_NULL;
    memset(out, 0, sizeof *out);
    out->instructions = p->counted;
    out->ops = p->code_n;
    out->globals = p->globals;
    out->arrays = p->arrays;
    out->elements = p->cells - p->globals;
    out->subs = p->routines - 1;
    out->source_bytes = p->source_bytes;
    out->memory = (int64_t)BASIC_CELL_BYTES * (p->cells + p->max_stack + (int64_t)(BASIC_MAX_DEPTH + 1) * (p->max_locals + 1));
    out->source_hash = p->source_hash;
    return GOTA_OK;
}

int gota_basic_source(const GotaBasicProgram *p, char *out, int32_t cap, int32_t *len)
{
    if (!p || !out || !len) return GOTA_ERR_NULL;
    *len = p->source_bytes;
    if (cap < p->source_bytes) return GOTA_ERR_BUFFER;
    memcpy(out, p->source, (size_t)p->source_bytes);
    return GOTA_OK;
}

int gota_match_set_script(GotaMatch *m, int32_t seat, GotaBasicProgram *p)
{
    if (!m) return GOTA_ERR_NULL;
    if (seat < 0 || seat >= SEATS) return GOTA_ERR_INDEX;
    BasicVM *vm = NULL;
    if (p) {
        if (!m->script_view && !(m->script_view = view_new(m))) return GOTA_ERR_NOMEM;
        if (!(vm = basic_vm_new(p))) return GOTA_ERR_NOMEM;
    }
    basic_vm_free(m->script[seat]);
    m->script[seat] = vm;
    m->cfg.bot[seat] = p ? GOTA_BOT_SCRIPT : GOTA_BOT_EXTERNAL;
    m->bot[seat].kind = (int32_t)m->cfg.bot[seat];
    return GOTA_OK;
}

int gota_match_script_status(const GotaMatch *m, int32_t seat, GotaScriptStatus *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (seat < 0 || seat >= SEATS) return GOTA_ERR_INDEX;
    memset(out, 0, sizeof *out);
    const BasicVM *vm = m->script[seat];
    if (!vm) return GOTA_OK;
    out->active = 1;
    out->disabled = vm->disabled;
    out->error_code = vm->error_code;
    out->last_instructions = vm->instructions;
    out->last_work = vm->work;
    out->decisions = vm->decisions;
    out->instructions = vm->instructions_total;
    out->log_bytes = vm->log_total;
    out->commands = vm->commands;
    out->refused = vm->refused;
    memcpy(out->refused_by, vm->refused_by, sizeof out->refused_by);
    snprintf(out->error, sizeof out->error, "%.255s", vm->error);
    snprintf(out->program, sizeof out->program, "%.127s", vm->prog->name);
    return GOTA_OK;
}

int gota_match_script_program(const GotaMatch *m, int32_t seat, GotaBasicProgram **out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    *out = NULL;
    if (seat < 0 || seat >= SEATS) return GOTA_ERR_INDEX;
    if (!m->script[seat]) return GOTA_OK;
    basic_program_retain(m->script[seat]->prog);
    *out = (GotaBasicProgram *)m->script[seat]->prog;
    return GOTA_OK;
}

int gota_match_script_log(const GotaMatch *m, int32_t seat, char *out, int32_t cap, int32_t *len)
{
    if (!m || !out || !len) return GOTA_ERR_NULL;
    if (seat < 0 || seat >= SEATS) return GOTA_ERR_INDEX;
    if (cap < 0) return GOTA_ERR_RANGE;
    *len = basic_vm_log_copy(m->script[seat], out, cap);
    return GOTA_OK;
}
