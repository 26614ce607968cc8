/*
 * world.h -- the state of one match (internal; Python sees gota.h only).
 *
 * A GotaMatch owns everything that changes during a battle: the unit table,
 * per-unit movement and attack state, live navigation, team vision, the RNG,
 * the hit queue of the current tick and the event log. Shared data (map,
 * line-of-sight tables) is immutable and only pointed to.
 *
 * Units live in fixed slots (GOTA_MAX_UNITS); a slot is reused only after its
 * corpse is removed, and every unit gets a fresh id. Positions and stats are
 * integers (world units, ticks, hit points).
 */
#ifndef GOTA_WORLD_H
#define GOTA_WORLD_H
#include <stdint.h>
#include "gota.h"
#include "map.h"
#include "nav.h"
#include "vision.h"
#include "content.h"
#include "hero.h"
#include "spell.h"
#include "camp.h"
#include "economy.h"
#include "bots/bot.h"
#include "basic/basic.h"
#include "fixmath.h"

/* ---- rule numbers (docs/rules.md sections 3.3, 3.4 and 7) -------------- */
#define CREEP_HP 60
#define CREEP_DAMAGE 12
#define CREEP_MELEE_RANGE 54000
#define CREEP_RANGED_RANGE 240000
#define CREEP_PERIOD 32
#define CREEP_HIT_TICK 14
#define CREEP_SPEED 5500
#define CREEP_RADIUS 13200            /* 0.22 tile */
#define CREEP_CAP 480                 /* a wave is skipped past this many lane creeps */
#define CREEP_KEEP_TARGET (8 * GOTA_TILE)
#define CREEP_KEEP_BUILDING (112 * GOTA_TILE / 10)   /* 11.2 tiles */
#define CREEP_ACQUIRE (5 * GOTA_TILE)
#define CREEP_STRUCTURE_ACQUIRE (7 * GOTA_TILE)
#define CREEP_WAYPOINT_REACH (6 * GOTA_TILE)
#define CREEP_CORPSE_TICKS (24 + 60)
#define CREEP_REPLAN_GOAL 6           /* replan at most every 6 ticks on goal change */
#define CREEP_REPLAN_FAILED 24        /* after a failed search */
#define CREEP_STUCK_TICKS 24
#define BUILDING_MIN_REACH 105000     /* attacks on towers/barracks: max(range, this) to the footprint */
#define GOD_REACH 255000              /* anyone may hit a god from here */
#define TOWER_PERIOD 24
#define WAVE_SPAWNS_PER_BARRACKS_MELEE 3
#define WAVE_SPAWNS_PER_BARRACKS_RANGED 1

#define HIT_QUEUE_MAX 4096
#define EVENT_LOG 4096
#define BUCKET_TILES 4                /* spatial buckets of 4 x 4 tiles */
#define BUCKET_N ((MAP_N + BUCKET_TILES - 1) / BUCKET_TILES)
#define BUCKET_SPAN (BUCKET_TILES * GOTA_TILE)   /* world units */

/* ---- per-unit state beyond the public GotaUnit ------------------------- */
typedef struct {
    int32_t speed;          /* world units per tick */
    int32_t period;         /* ticks per attack */
    int32_t windup;         /* swing count at which the hit lands */
    int32_t swing;          /* attack counter, -1 when not swinging */
    int32_t target;         /* slot of GotaUnit.target_id, -1 for none */
    int32_t building;       /* MapData building index, -1 for mobile units */
    int32_t waypoint;       /* creeps: next lane waypoint index in walking order */
    int32_t camp;           /* neutrals: camp index, -1 otherwise */
    int32_t stun, root;     /* creeps and neutrals: control ticks left (heroes: HeroState) */
    int32_t died_tick;      /* tick of death, for corpse removal */
    /* path following */
    NavPath path;
    int32_t path_i;         /* next waypoint in path */
    int32_t goal_x, goal_z; /* goal the path was planned for */
    int32_t path_revision;  /* nav revision the path was planned under */
    int32_t replan_tick;    /* earliest tick a new plan may be made */
    int32_t stuck;          /* ticks without progress */
    NavFacing face;         /* with GotaUnit.facing: the steering direction (nav_steer); */
                            /* GotaUnit.facing is up to date at the end of gota_match_step */
                            /* (a lane's match: once handed out, see match_step_lazy) */
} UnitState;

enum { HIT_ATTACK = 0, HIT_ABILITY = 1, HIT_ITEM = 2 };

typedef struct {
    int32_t target;         /* slot */
    int32_t attacker;       /* slot */
    int32_t damage;
    uint32_t order;         /* seeded hash: the tie-break within one target */
    int16_t source;         /* HIT_* */
    int16_t stun, root, silence;   /* controls a damaging hit applies */
} Hit;

struct GotaMatch {
    GotaConfig cfg;
    const MapData *map;
    int32_t tick;                 /* battle ticks run since reset */
    int32_t result, winner;
    uint64_t rng;                 /* SplitMix64 state */
    int32_t next_id;
    int32_t unit_n;               /* slots in use: [0, unit_n) */
    int32_t lane_creeps;          /* living lane creeps */
    int32_t god_slot[2];
    int32_t building_slot[MAP_BUILDINGS];
    uint8_t building_alive[MAP_BUILDINGS];
    uint8_t seen_destroyed[2][MAP_BUILDINGS];   /* enemy destruction a team has seen */
    int32_t lane_front[2][3];     /* per team and lane: lowest standing tower tier's slot, -1 none */
    /* structures_sync's inputs and outputs at its last full run: while they
     * all still hold, a run would write the same values and emit nothing */
    const MapData *sync_map;            /* NULL: no run yet */
    uint8_t sync_alive[MAP_BUILDINGS];
    int8_t sync_exposed[MAP_BUILDINGS];
    int32_t sync_front[2][3];

    GotaUnit unit[GOTA_MAX_UNITS];
    UnitState st[GOTA_MAX_UNITS];
    int32_t snap_x[GOTA_MAX_UNITS], snap_z[GOTA_MAX_UNITS];  /* pre-update positions */
    uint8_t seen[2][GOTA_MAX_UNITS];   /* this tick: team sees the unit (own units always) */
    int32_t killer[GOTA_MAX_UNITS];    /* this tick: slot whose hit took the unit to 0 HP, -1 none */

    /* spatial buckets over the snapshot (match_snapshot): units of bucket b are
     * bucket_item[bucket_start[b] .. bucket_end[b]) in slot order, the buckets
     * in index order; both 0 for an empty bucket. Kept from build to build
     * (a build moves only the units whose bucket or class changed); the
     * cleared match is the empty layout. */
    int16_t bucket_start[BUCKET_N * BUCKET_N], bucket_end[BUCKET_N * BUCKET_N];
    int32_t bucket_item[GOTA_MAX_UNITS];
    int32_t bucket_total;               /* bucket_item[0 .. bucket_total) in use */
    /* per row, bit bx: bucket holds a unit not red [0], not blue [1], not
     * neutral [2] (the hostile ones of each team), or any unit [3] */
    uint32_t bucket_rows[4][BUCKET_N];
    /* per hostile class 0..2, bit bx of row bz: some bucket of bucket_rows[c]
     * lies within 2 buckets (both axes) of bucket (bx, bz); a scan of radius
     * under 2 bucket spans from a bucket without it visits nothing */
    uint32_t bucket_near[3][BUCKET_N];
    /* each slot at the last build: 0 not bucketed, else bz << 7 | bx << 2 |
     * (class + 1), the class of its team: red 0, blue 1, neutral 2 */
    int16_t bucket_key[GOTA_MAX_UNITS];
    int32_t bucket_slots;               /* unit_n at the last build: no slot from there is bucketed */

    Hit hit[HIT_QUEUE_MAX];
    int32_t hit_n;

    GotaEvent event[EVENT_LOG];   /* ring */
    int64_t event_next;           /* sequence number of the next event */

    HeroState hero[SEATS];
    int32_t hero_slot[SEATS];     /* unit slot of each seat's hero, -1 without heroes */
    Spell spell[SPELL_MAX];
    int32_t spell_n;
    CampState camp[MAP_CAMPS];
    BotState bot[SEATS];          /* the bot of each seat (kind 0: an external seat) */
    BasicVM *script[SEATS];       /* the VM of each script seat (GOTA_BOT_SCRIPT), NULL none; kept
                                     across resets, which restart it (basic_host.c) */
    struct ScriptView *script_view;   /* per-tick object and spell lists of the scripts; NULL without */

    Nav nav;
    Vision vision;
    uint32_t source_stamp;              /* vision source de-duplication (not state) */
    uint32_t source_tile[MAP_TILES];
};

/* ---- shared helpers between the rule files ----------------------------- */
/* units.c */
typedef void (*unit_visit_fn)(const GotaMatch *m, int from, int candidate, int64_t d2, void *ctx);
int unit_alloc(GotaMatch *m);
/* Every facing set outside steering goes through here: it drops the
 * direction nav_steer kept for the old one (UnitState.face). */
static inline void unit_set_facing(GotaMatch *m, int slot, int32_t facing)
{
    m->unit[slot].facing = facing;
    m->st[slot].face = (NavFacing){0};
}
/* Visit every living mobile unit other than `from` within radius of it
 * (snapshot positions), with its squared distance, in bucket order. */
void match_scan(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx);
/* match_scan_hostile past its inline early answer */
void match_scan_hostile_full(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx);
/* The same as match_scan, visiting only the units of another team than
 * `from`'s. Most such scans find no hostile near: they are answered here,
 * inline, from the scanning unit's bucket. A visited unit is within |radius|
 * < 2 spans of it, so its bucket is within 2 buckets of the scanner's on both
 * axes (buckets clamp at the map's edges), where bucket_near marks every
 * hostile bucket. */
static inline void match_scan_hostile(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx)
{
    int key = m->bucket_key[from];
    if (key && radius < 2 * BUCKET_SPAN && radius > -2 * BUCKET_SPAN) {
        _Static_assert(GOTA_TEAM_RED == 0 && GOTA_TEAM_BLUE == 1, "team classes are the team numbers");
        unsigned team = (unsigned)m->unit[from].team, class = team < 2 ? team : 2;
        if (!(m->bucket_near[class][key >> 7] >> (key >> 2 & 31) & 1u)) return;
    }
    match_scan_hostile_full(m, from, radius, visit, ctx);
}
/* The nearest of the offered units; equal distances go to the lower id. */
typedef struct { int slot; int64_t d2; } Nearest;
void nearest_offer(const GotaMatch *m, Nearest *n, int j, int64_t d2);
void match_event(GotaMatch *m, int type, int slot, int other_id, int value);
/* snap_x/snap_z from the units' positions, and the buckets over them */
void match_snapshot(GotaMatch *m);
/* m->seen from the current team grids (phase_vision; tests compare it). */
void match_update_seen(GotaMatch *m);
/* gota_match_step without writing back the facings steering keeps lazily:
 * for the arena's lanes, whose observations read facings through
 * nav_facing_of; whoever hands such a match out calls match_settle_facings
 * first, so GotaUnit.facing is right wherever the match is seen from outside. */
int match_step_lazy(GotaMatch *m, int32_t ticks, int32_t *ran);
/* gota_match_new(cfg) in the memory of m: the same bytes as a new match,
 * without script VMs (as new) and without freeing or allocating the match.
 * An error leaves m as it was when cfg is refused, else freshly reset. */
int match_renew(GotaMatch *m, const GotaConfig *cfg);
void match_settle_facings(GotaMatch *m);
/* Squared distance from (x,z) to the nearest point of a building's footprint tiles. */
int64_t unit_footprint_dist2(const MapBuilding *b, int32_t x, int32_t z);
/* The same for map building i, from the box when the footprint fills it. */
int64_t unit_building_dist2(const GotaMatch *m, int i, int32_t x, int32_t z);
/* Squared distance to building i's footprint box: never more than
 * unit_footprint_dist2 (INT64_MAX without a footprint, as there). Inline:
 * the heroes' acquisition tests every exposed enemy building with it. */
static inline int64_t unit_building_box_dist2(const GotaMatch *m, int i, int32_t x, int32_t z)
{
    const MapBuilding *b = &m->map->building[i];
    if (b->footprint_n == 0) return INT64_MAX;
    const int32_t *box = b->box;
    int32_t cx = x < box[0] ? box[0] : (x > box[2] ? box[2] : x);
    int32_t cz = z < box[1] ? box[1] : (z > box[3] ? box[3] : z);
    return fx_dist2(x, z, cx, cz);
}
/* Attacker in reach of target from (ax, az) (docs/rules.md section 3.1): a god by its
 * centre (max(range, GOD_REACH)), a tower or barracks by its footprint
 * (max(range, BUILDING_MIN_REACH)), any other unit by its snapshot centre.
 * Inline: acquisition loops and every observed object ask it. */
static inline int unit_attack_reach_ok(const GotaMatch *m, int attacker, int target, int32_t ax, int32_t az)
{
    const GotaUnit *t = &m->unit[target];
    int32_t range = m->unit[attacker].range;
    if (t->kind == GOTA_KIND_GOD) {
        int64_t r = range > GOD_REACH ? range : GOD_REACH;
        return fx_dist2(ax, az, t->x, t->z) <= r * r;
    }
    if (t->kind == GOTA_KIND_TOWER || t->kind == GOTA_KIND_BARRACKS) {
        int64_t r = range > BUILDING_MIN_REACH ? range : BUILDING_MIN_REACH;
        int b = m->st[target].building;
        /* no footprint tile is nearer than the footprint's box: most answers
         * are "out of reach" without measuring the tiles */
        if (unit_building_box_dist2(m, b, ax, az) > r * r) return 0;
        return unit_building_dist2(m, b, ax, az) <= r * r;
    }
    return fx_dist2(ax, az, m->snap_x[target], m->snap_z[target]) <= (int64_t)range * range;
}
/* Slot of the unit with this id, -1 when none (free slots never match). */
int unit_slot_of_id(const GotaMatch *m, int32_t id);
/* Visibility, hostility and attackability: the tests of every acquisition
 * loop, inline (called about a million times a match). */
static inline int unit_visible_to(const GotaMatch *m, int team, int slot)
{
    return team >= 0 && team < 2 && m->seen[team][slot];
}

static inline int unit_hostile(const GotaMatch *m, int a, int b)
{
    return m->unit[a].team != m->unit[b].team;
}

static inline int unit_attackable(const GotaMatch *m, int slot)
{
    const GotaUnit *u = &m->unit[slot];
    if (!u->alive) return 0;
    if (u->kind == GOTA_KIND_TOWER || u->kind == GOTA_KIND_BARRACKS || u->kind == GOTA_KIND_GOD)
        return u->exposed;
    if (u->kind == GOTA_KIND_NEUTRAL) return !camp_returning(m, slot);
    return 1;
}
/* unit_move_toward's replan test: the goal (gx, gz) lies on another tile than
 * the planned one (ox, oz). Goals mostly repeat exactly (a waypoint, a
 * standing target): equal points skip the divisions. */
static inline int unit_goal_tile_changed(int32_t gx, int32_t gz, int32_t ox, int32_t oz)
{
    return (gx != ox || gz != oz) && map_index_of(gx, gz) != map_index_of(ox, oz);
}
void unit_move_toward(GotaMatch *m, int slot, int32_t gx, int32_t gz);
void unit_swing(GotaMatch *m, int slot, int target);
static inline void unit_stop_swing(GotaMatch *m, int slot)
{
    m->st[slot].swing = -1;
}

/* structures.c */
void structures_spawn(GotaMatch *m);
/* The lane's next enemy structure for a creep of `team`: the lowest standing
 * tower tier of the lane, then the nearest lane barracks, then the nearest
 * exposed guard. -1 when none stands. */
int structure_past_front(const GotaMatch *m, int team, int lane, int32_t x, int32_t z);
static inline int structure_next_enemy(const GotaMatch *m, int team, int lane, int32_t x, int32_t z)
{
    int front = m->lane_front[1 - team][lane];   /* the common answer, inline */
    return front >= 0 ? front : structure_past_front(m, team, lane, x, z);
}
/* Slot of `slot`'s target if it still names the same unit, else -1. */
static inline int unit_target_slot(const GotaMatch *m, int slot)
{
    int t = m->st[slot].target;
    if (t < 0 || m->unit[slot].target_id < 0 || m->unit[t].id != m->unit[slot].target_id) return -1;
    return t;
}
void structures_sync(GotaMatch *m);
void towers_update(GotaMatch *m);
void structure_destroyed(GotaMatch *m, int slot, int killer);

/* heroes.c */
/* The buildings each team's heroes may acquire, for one heroes phase (none
 * is exposed or hidden during it): in building order, the exposed ones whose
 * map side and unit team both differ from the team. */
typedef struct {
    uint8_t n[2];
    uint8_t building[2][MAP_BUILDINGS];
} HeroEnemyBuildings;
void hero_enemy_buildings(const GotaMatch *m, HeroEnemyBuildings *out);
/* Auto-acquire of a red or blue hero: the nearest valid hostile unit within
 * its radius (snapshot positions) or building of `enemy`; -1 when none. */
int hero_acquire(const GotaMatch *m, int slot, int attack_move, const HeroEnemyBuildings *enemy);

/* creeps.c */
void creeps_spawn_wave(GotaMatch *m);
void creeps_update(GotaMatch *m);

/* combat.c */
void combat_queue(GotaMatch *m, int attacker, int target, int32_t damage);
/* A hit with its source and the controls it applies if it lands. */
void combat_queue_hit(GotaMatch *m, int attacker, int target, int32_t damage, int source,
                      int stun, int root, int silence);
void combat_resolve(GotaMatch *m);

/* commands.c */
/* One command for a seat's hero (gota_match_command's body, also the bots'
 * only way to act): the GOTA_ACT_* answer, recorded in the hero's last_error
 * and stats; GOTA_ACT_NO_HERO when the seat has no hero. seat must be 0..9. */
int match_command(GotaMatch *m, int seat, const GotaCommand *cmd);

/* hash.c */
uint64_t match_hash(const GotaMatch *m);

#endif
