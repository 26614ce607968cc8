/*
 * camps.c -- the 14 neutral camps (docs/rules.md section 3.5).
 *
 * What it models: each camp of MapData.camp[] holds 1..5 neutrals (kind
 * GOTA_KIND_NEUTRAL, team GOTA_TEAM_NEUTRAL, sub = tier, lane -1,
 * UnitState.camp = camp index). Member k stands at MapCamp.member_x/z[k]; in a
 * camp of more than one, member 0 is the leader (HP x2, damage x3/2, radius
 * 0.30 tile; others 0.22). Tier stats: HP 100/180/300, damage 8/14/20, melee
 * reach 54,000, attack period 32 with the hit at 14. Camps spawn on the first
 * battle tick. A camp is EMPTY, RESTING, FIGHTING or RETURNING:
 *   - resting -> fighting: a living hero or lane creep within 2 tiles of a
 *     member that the member sees, and within 12 tiles of the camp centre (the
 *     nearest such unit over all members becomes the camp target), or a member
 *     is damaged (the attacker becomes the target);
 *   - fighting: each member chases and hits the nearest hero or lane creep it
 *     sees inside the leash (12-tile sight for the camp target, 5 otherwise);
 *   - fighting -> returning: a member over 12 tiles from the centre, the target
 *     dead or over 12 tiles from the centre, or the target unseen by every
 *     member for 72 ticks (3 s). Returning members walk home, cannot be
 *     targeted or damaged (unit_attackable) and lose their controls;
 *   - returning -> resting: every living member within 0.5 tile of its home:
 *     full heal;
 *   - all members dead -> empty; respawn 1,440 ticks (60 s) after the last
 *     death, delayed while a living hero is within 10 tiles of the centre.
 * Units: world units (60,000 per tile), ticks (24 per second), hit points.
 *
 * Phases (match_tick): camps_update before the units (spawns, provocation by
 * proximity, leash, homecoming), camps_units in the unit phase (attacks and
 * movement against the snapshot), camp_member_hit during combat resolution,
 * camps_after_combat after it (deaths, provocation by damage).
 *
 * Choices where the rules are silent:
 *   - Move speed 5,500 units per tick (2.2 tiles/s), as lane creeps.
 *   - A member's sight is its own line of sight, not a team grid (neutrals have
 *     none): the rule of vision.c traced from the member's tile with a creep's
 *     eye height (12/8 tile) to the target's tile; blockers are trees/rocks
 *     (MapData.blocker8), living tower/barracks footprints (28, from the nav
 *     occupancy) and living gods (32) on their centre tile. A unit counts on the
 *     one tile that holds its position.
 *   - Provocation by proximity: the nearest qualifying unit measured from the
 *     member that sees it; ties to the lower id.
 *   - Provocation by damage: only a hero or a lane creep can become the target
 *     (towers never hit resting camps anyway); of several in one tick, the one
 *     nearest the camp centre, ties to the lower id; an attacker that died the
 *     same tick provokes nothing. A fighting camp keeps its target when hit.
 *   - A fighting member that sees no enemy walks to where the camp target was
 *     last seen (CampState.seen_x/z) until the 3 s rule sends the camp home.
 *   - The leash and homecoming are judged before the units move (snapshot
 *     positions); a camp that comes home may be provoked again the same tick.
 *   - Controls: a stun of N ticks costs N ticks of action (a stunned member
 *     also counts its root down); a rooted member attacks in reach but does not
 *     move. Both count down here, in camps_units.
 *   - Spawned members get fresh slots (unit_alloc); since they appear after the
 *     snapshot, their snapshot is their spawn point and no team sees them on
 *     that tick. If no slot is free the camp stays empty and retries each tick.
 *   - Leader damage is damage * 3 / 2 in integers: 12, 21, 30.
 *   - A spawned member faces its camp's centre; one standing on the centre
 *     (atan2 of a zero vector is +x, the same on both halves of the map)
 *     faces the map centre, so mirrored camps face mirrored ways and their
 *     first steps toward a provoker take as long.
 *
 * State: camp.h's CampState, one per camp, inside the match. No process-global
 * state.
 */
#include "world.h"
#include "fixmath.h"

#define CAMP_SPEED 5500     /* world units per tick: a lane creep's pace (rules are silent) */
#define CAMP_EYE8 12        /* members' eye height for their line of sight, 1/8 tile */

static const int32_t TIER_HP[4] = { 0, 100, 180, 300 };
static const int32_t TIER_DAMAGE[4] = { 0, 8, 14, 20 };

/* ---- lookups ------------------------------------------------------------ */
static inline int camp_of(const GotaMatch *m, int slot)
{
    if (!m || slot < 0 || slot >= GOTA_MAX_UNITS || m->unit[slot].kind != GOTA_KIND_NEUTRAL) return -1;
    int c = m->st[slot].camp;
    return c >= 0 && c < MAP_CAMPS ? c : -1;
}

/* Slot of member k while it lives (its slot may have been freed and reused). */
static inline int member_slot(const GotaMatch *m, int c, int k)
{
    int slot = m->camp[c].member[k];
    if (slot < 0 || slot >= GOTA_MAX_UNITS || camp_of(m, slot) != c || !m->unit[slot].alive) return -1;
    return slot;
}

static int camp_target_slot(const GotaMatch *m, const CampState *cs)
{
    int t = cs->target;
    if (t < 0 || t >= GOTA_MAX_UNITS || !m->unit[t].alive || m->unit[t].id != cs->target_id) return -1;
    return t;
}

static int prey(const GotaMatch *m, int slot)
{
    int kind = m->unit[slot].kind;
    return m->unit[slot].alive && (kind == GOTA_KIND_HERO || kind == GOTA_KIND_CREEP);
}

static int in_leash(const GotaMatch *m, int c, int32_t x, int32_t z)
{
    const MapCamp *mc = &m->map->camp[c];
    return fx_dist2(x, z, mc->x, mc->z) <= (int64_t)CAMP_LEASH * CAMP_LEASH;
}

/* ---- line of sight -------------------------------------------------------- */
/* q / n rounded to nearest, ties away from zero (n > 0), as vision.c. */
static int round_div(int q, int n)
{
    int a = q < 0 ? -q : q;
    int r = (2 * a + n) / (2 * n);
    return q < 0 ? -r : r;
}

static int cell_blocker(const GotaMatch *m, int cell)
{
    int b = m->map->blocker8[cell];
    if (m->nav.occupied[cell] && b < MAP_BLOCK_BUILDING) b = MAP_BLOCK_BUILDING;
    for (int team = 0; team < 2; team++) {
        const MapBuilding *g = &m->map->building[MAP_IDX_GOD(team)];
        if (m->building_alive[MAP_IDX_GOD(team)] && map_index_of(g->x, g->z) == cell && b < g->blocker8)
            b = g->blocker8;
    }
    return b;
}

/* The ray rule of docs/rules.md section 5 from (sx, sz)'s tile, eye CAMP_EYE8, to
 * (x, z)'s tile. */
static int camp_los(const GotaMatch *m, int32_t sx, int32_t sz, int32_t x, int32_t z)
{
    int ax = map_tile_of(sx), az = map_tile_of(sz), bx = map_tile_of(x), bz = map_tile_of(z);
    if (!map_in_bounds(ax, az) || !map_in_bounds(bx, bz)) return 0;
    int dx = bx - ax, dz = bz - az;
    int adx = dx < 0 ? -dx : dx, adz = dz < 0 ? -dz : dz;
    int n = adx > adz ? adx : adz;
    if (n <= 1) return 1;
    const MapData *map = m->map;
    int h0 = map->height8[map_index(ax, az)] + CAMP_EYE8, h1 = map->height8[map_index(bx, bz)] + 3;
    for (int i = 1; i < n; i++) {
        int cell = map_index(ax + round_div(dx * i, n), az + round_div(dz * i, n));
        if ((map->height8[cell] + cell_blocker(m, cell)) * n >= h0 * (n - i) + h1 * i) return 0;
    }
    return 1;
}

/* Member `from` sees unit `t` within `radius` (snapshot positions). */
static int member_sees(const GotaMatch *m, int from, int t, int32_t radius)
{
    int32_t x = m->snap_x[from], z = m->snap_z[from];
    return fx_dist2(x, z, m->snap_x[t], m->snap_z[t]) <= (int64_t)radius * radius &&
           camp_los(m, x, z, m->snap_x[t], m->snap_z[t]);
}

/* ---- state changes -------------------------------------------------------- */
static void camp_spawn(GotaMatch *m, int c)
{
    const MapCamp *mc = &m->map->camp[c];
    CampState *cs = &m->camp[c];
    int tier = mc->tier < 1 ? 1 : mc->tier > 3 ? 3 : mc->tier;
    int n = mc->members < MAP_MAX_CAMP_MEMBERS ? mc->members : MAP_MAX_CAMP_MEMBERS;
    *cs = (CampState){0};
    cs->state = CAMP_RESTING;
    cs->target = cs->target_id = cs->provoker = -1;
    for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) cs->member[k] = -1;
    for (int k = 0; k < n; k++) {
        int slot = unit_alloc(m);
        if (slot < 0) break;
        int leader = k == 0 && n > 1;
        GotaUnit *u = &m->unit[slot];
        UnitState *s = &m->st[slot];
        *u = (GotaUnit){0};
        *s = (UnitState){0};
        u->id = m->next_id++;
        u->x = mc->member_x[k];
        u->z = mc->member_z[k];
        u->hp = u->max_hp = TIER_HP[tier] * (leader ? 2 : 1);
        u->target_id = -1;
        int64_t fx = (int64_t)mc->x - u->x, fz = (int64_t)mc->z - u->z;
        if (fx == 0 && fz == 0) { fx = -(int64_t)u->x; fz = -(int64_t)u->z; }   /* on the centre: the map centre */
        unit_set_facing(m, slot, fx_atan2(fz, fx));
        u->damage = leader ? TIER_DAMAGE[tier] * 3 / 2 : TIER_DAMAGE[tier];
        u->range = CAMP_MELEE_RANGE;
        u->kind = GOTA_KIND_NEUTRAL;
        u->team = GOTA_TEAM_NEUTRAL;
        u->sub = (int16_t)tier;
        u->lane = -1;
        u->alive = 1;
        u->radius_q = leader ? CAMP_LEADER_RADIUS_Q : CAMP_MEMBER_RADIUS_Q;
        s->speed = CAMP_SPEED;
        s->period = CAMP_PERIOD;
        s->windup = CAMP_HIT_TICK;
        s->swing = -1;
        s->target = -1;
        s->building = -1;
        s->waypoint = -1;
        s->camp = c;
        s->path_revision = -1;
        /* spawned after the snapshot: it stands where it is, unseen this tick */
        m->snap_x[slot] = u->x;
        m->snap_z[slot] = u->z;
        m->seen[0][slot] = m->seen[1][slot] = 0;
        m->killer[slot] = -1;
        cs->member[k] = slot;
        match_event(m, GOTA_EVENT_SPAWN, slot, -1, tier);
    }
    if (cs->member[0] < 0) {   /* no free slot: try again next tick */
        cs->state = CAMP_EMPTY;
        cs->respawn_at = m->tick + 1;
    }
}

static void camp_provoke(GotaMatch *m, int c, int t)
{
    CampState *cs = &m->camp[c];
    cs->state = CAMP_FIGHTING;
    cs->target = t;
    cs->target_id = m->unit[t].id;
    cs->target_seen_tick = m->tick;
    cs->seen_x = m->unit[t].x;
    cs->seen_z = m->unit[t].z;
}

static void camp_return(GotaMatch *m, int c)
{
    CampState *cs = &m->camp[c];
    cs->state = CAMP_RETURNING;
    cs->target = cs->target_id = -1;
    for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) {
        int slot = member_slot(m, c, k);
        if (slot < 0) continue;
        UnitState *s = &m->st[slot];
        s->stun = s->root = 0;
        s->swing = -1;
        s->target = -1;
        m->unit[slot].target_id = -1;
    }
}

static int living_hero_near(const GotaMatch *m, int c)
{
    const MapCamp *mc = &m->map->camp[c];
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->kind == GOTA_KIND_HERO && u->alive &&
            fx_dist2(u->x, u->z, mc->x, mc->z) <= (int64_t)CAMP_RESPAWN_BLOCK * CAMP_RESPAWN_BLOCK)
            return 1;
    }
    return 0;
}

static int at_home(const GotaMatch *m, int c, int k, int slot)
{
    const MapCamp *mc = &m->map->camp[c];
    return fx_dist2(m->snap_x[slot], m->snap_z[slot], mc->member_x[k], mc->member_z[k]) <=
           (int64_t)CAMP_HOME_REACH * CAMP_HOME_REACH;
}

/* ---- phase "camps" before the units -------------------------------------- */
/* Leash of a fighting camp; refreshes when its target was last seen. */
static void camp_leash(GotaMatch *m, int c)
{
    CampState *cs = &m->camp[c];
    int t = camp_target_slot(m, cs);
    int home = t < 0 || !in_leash(m, c, m->snap_x[t], m->snap_z[t]);
    int seen = 0;
    for (int k = 0; k < MAP_MAX_CAMP_MEMBERS && !home; k++) {
        int slot = member_slot(m, c, k);
        if (slot < 0) continue;
        if (!in_leash(m, c, m->snap_x[slot], m->snap_z[slot])) home = 1;
        else if (!seen) seen = member_sees(m, slot, t, CAMP_TARGET_SIGHT);
    }
    if (home) {
        camp_return(m, c);
    } else if (seen) {
        cs->target_seen_tick = m->tick;
        cs->seen_x = m->snap_x[t];
        cs->seen_z = m->snap_z[t];
    } else if (m->tick - cs->target_seen_tick >= CAMP_UNSEEN_TICKS) {
        camp_return(m, c);
    }
}

static void camp_homecoming(GotaMatch *m, int c)
{
    for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) {
        int slot = member_slot(m, c, k);
        if (slot >= 0 && !at_home(m, c, k, slot)) return;
    }
    for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) {
        int slot = member_slot(m, c, k);
        if (slot >= 0) m->unit[slot].hp = m->unit[slot].max_hp;
    }
    m->camp[c].state = CAMP_RESTING;
}

typedef struct { int camp; Nearest best; } CampScan;

/* Provocation candidates: heroes and lane creeps the member sees, inside the leash. */
static void provoke_visit(const GotaMatch *m, int from, int j, int64_t d2, void *ctx)
{
    CampScan *p = ctx;
    if (!prey(m, j) || !in_leash(m, p->camp, m->snap_x[j], m->snap_z[j])) return;
    if (!camp_los(m, m->snap_x[from], m->snap_z[from], m->snap_x[j], m->snap_z[j])) return;
    nearest_offer(m, &p->best, j, d2);
}

static void camp_watch(GotaMatch *m, int c)
{
    CampScan p = { c, { -1, 0 } };
    for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) {
        int slot = member_slot(m, c, k);
        if (slot >= 0) match_scan_hostile(m, slot, CAMP_PROVOKE_RANGE, provoke_visit, &p);
    }
    if (p.best.slot >= 0) camp_provoke(m, c, p.best.slot);
}

void camps_update(GotaMatch *m)
{
    if (m->tick == 1)
        for (int c = 0; c < MAP_CAMPS; c++) camp_spawn(m, c);
    for (int c = 0; c < MAP_CAMPS; c++) {
        CampState *cs = &m->camp[c];
        if (cs->state == CAMP_EMPTY) {
            if (m->tick >= cs->respawn_at && !living_hero_near(m, c)) camp_spawn(m, c);
            continue;
        }
        if (cs->state == CAMP_FIGHTING) camp_leash(m, c);
        if (cs->state == CAMP_RETURNING) camp_homecoming(m, c);
        if (cs->state == CAMP_RESTING) camp_watch(m, c);
    }
}

/* ---- unit phase ------------------------------------------------------------ */
/* Attack candidates: attackable heroes and lane creeps within 5 tiles that the
 * member sees, inside the leash. */
static void attack_visit(const GotaMatch *m, int from, int j, int64_t d2, void *ctx)
{
    CampScan *p = ctx;
    if (!prey(m, j) || !unit_attackable(m, j) || !in_leash(m, p->camp, m->snap_x[j], m->snap_z[j])) return;
    if (!camp_los(m, m->snap_x[from], m->snap_z[from], m->snap_x[j], m->snap_z[j])) return;
    nearest_offer(m, &p->best, j, d2);
}

/* The nearest seen enemy of a fighting member (the camp target counts within 12 tiles). */
static int member_pick(const GotaMatch *m, int c, int slot)
{
    CampScan p = { c, { -1, 0 } };
    match_scan_hostile(m, slot, CAMP_SIGHT, attack_visit, &p);
    int t = camp_target_slot(m, &m->camp[c]);
    if (t >= 0 && prey(m, t) && unit_attackable(m, t) && in_leash(m, c, m->snap_x[t], m->snap_z[t]) &&
        member_sees(m, slot, t, CAMP_TARGET_SIGHT))
        nearest_offer(m, &p.best, t, fx_dist2(m->snap_x[slot], m->snap_z[slot], m->snap_x[t], m->snap_z[t]));
    return p.best.slot;
}

static void member_fight(GotaMatch *m, int c, int slot, int rooted)
{
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    int t = member_pick(m, c, slot);
    if (t < 0) {
        const CampState *cs = &m->camp[c];
        s->target = -1;
        u->target_id = -1;
        unit_stop_swing(m, slot);
        if (!rooted) unit_move_toward(m, slot, cs->seen_x, cs->seen_z);
        return;
    }
    s->target = t;
    if (unit_attack_reach_ok(m, slot, t, m->snap_x[slot], m->snap_z[slot])) {
        unit_swing(m, slot, t);
    } else {
        u->target_id = m->unit[t].id;
        unit_stop_swing(m, slot);
        if (!rooted) unit_move_toward(m, slot, m->snap_x[t], m->snap_z[t]);
    }
}

void camps_units(GotaMatch *m)
{
    for (int c = 0; c < MAP_CAMPS; c++) {
        const MapCamp *mc = &m->map->camp[c];
        int state = m->camp[c].state;
        for (int k = 0; k < MAP_MAX_CAMP_MEMBERS; k++) {
            int slot = member_slot(m, c, k);
            if (slot < 0) continue;
            UnitState *s = &m->st[slot];
            if (s->stun > 0) {
                s->stun--;
                if (s->root > 0) s->root--;
                unit_stop_swing(m, slot);
                continue;
            }
            int rooted = s->root > 0;
            if (rooted) s->root--;
            if (state == CAMP_FIGHTING) member_fight(m, c, slot, rooted);
            else if (state == CAMP_RETURNING && !at_home(m, c, k, slot))
                unit_move_toward(m, slot, mc->member_x[k], mc->member_z[k]);
        }
    }
}

/* ---- combat ------------------------------------------------------------------ */
void camp_member_hit(GotaMatch *m, int neutral_slot, int attacker_slot)
{
    int c = camp_of(m, neutral_slot);
    if (c < 0 || attacker_slot < 0 || attacker_slot >= GOTA_MAX_UNITS || !prey(m, attacker_slot)) return;
    CampState *cs = &m->camp[c];
    if (cs->state != CAMP_RESTING) return;
    int p = cs->provoker;
    if (p >= 0 && p < GOTA_MAX_UNITS && prey(m, p)) {
        const MapCamp *mc = &m->map->camp[c];
        int64_t dp = fx_dist2(m->unit[p].x, m->unit[p].z, mc->x, mc->z);
        int64_t da = fx_dist2(m->unit[attacker_slot].x, m->unit[attacker_slot].z, mc->x, mc->z);
        if (da > dp || (da == dp && m->unit[attacker_slot].id >= m->unit[p].id)) return;
    }
    cs->provoker = attacker_slot;
}

void camps_after_combat(GotaMatch *m)
{
    for (int c = 0; c < MAP_CAMPS; c++) {
        CampState *cs = &m->camp[c];
        int p = cs->provoker;
        cs->provoker = -1;
        if (cs->state == CAMP_EMPTY) continue;
        int living = 0;   /* one living member is enough to tell */
        for (int k = 0; k < MAP_MAX_CAMP_MEMBERS && !living; k++) living = member_slot(m, c, k) >= 0;
        if (!living) {
            cs->state = CAMP_EMPTY;
            cs->target = cs->target_id = -1;
            cs->respawn_at = m->tick + CAMP_RESPAWN_TICKS;
        } else if (cs->state == CAMP_RESTING && p >= 0 && p < GOTA_MAX_UNITS && prey(m, p)) {
            camp_provoke(m, c, p);
        }
    }
}

/* ---- queries ------------------------------------------------------------------ */
int camp_fighting(const GotaMatch *m, int neutral_slot)
{
    int c = camp_of(m, neutral_slot);
    return c >= 0 && m->camp[c].state == CAMP_FIGHTING;
}

int camp_returning(const GotaMatch *m, int neutral_slot)
{
    int c = camp_of(m, neutral_slot);
    return c >= 0 && m->camp[c].state == CAMP_RETURNING;
}
