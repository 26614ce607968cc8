/*
 * creeps.c -- lane creep waves and their AI (docs/rules.md section 3.3).
 *
 * Every wave_interval ticks (Competition 480) each living barracks spawns
 * 3 melee + 1 ranged creep at its spawn point, sideways offsets -2, -1, 0 and
 * +1 tiles (melee first), each snapped to the centre of the nearest open tile
 * (search +-8; ties by tile index). Both steps are worked in the spawning
 * team's frame (blue's is red's rotated by 180 degrees), so a blue wave stands
 * exactly where red's mirrored would: a barracks spawn point lies on a tile
 * edge, and in the map frame both teams' points would snap to the tile on the
 * edge's high side, one tile apart in mirror terms (blue's lane 2 waves a tile
 * ahead of red's lane 0 ones, red's lane 2 waves a tile ahead of blue's lane 0
 * ones). A wave is skipped when the living lane creeps plus the new ones
 * would exceed 480. Red creeps walk their lane's waypoints forward, blue ones
 * backward; a waypoint counts as reached within 6 tiles.
 *
 * Each tick, against the pre-update snapshot, a creep
 *   1. keeps its target while hostile, visible and within 8 tiles (a building:
 *      exposed, visible, within 11.2 tiles);
 *   2. else takes the nearest visible hostile creep (fighting neutrals count as
 *      creeps) or enemy hero within 5 tiles (a hero must be strictly closer to
 *      win a tie);
 *   3. else the lane's next enemy structure, if visible within 7 tiles;
 *   4. else the enemy god, if exposed, visible and within 255,000;
 *   5. else marches: lane waypoints, then toward the next enemy structure/god.
 * In reach it swings (period 32, hit at 14, damage 12); otherwise it paths
 * toward the target, which resets the swing. Corpses vanish 84 ticks after death.
 * A stunned creep does nothing; a rooted one fights but does not move.
 */
#include "world.h"
#include "fixmath.h"

/* The centre of the open tile nearest (x, z) within +-NAV_GOAL_SEARCH, ties by
 * tile index. Worked in the team's frame (blue's is red's rotated by 180
 * degrees: point (-x, -z), tile index MAP_TILES - 1 - t), so a blue spawn is
 * the exact mirror of the red one: a point on a tile edge, and a tie, fall on
 * the mirrored side for both teams. */
static int creep_open_tile_near(const GotaMatch *m, int team, int32_t x, int32_t z, int32_t *ox, int32_t *oz)
{
    int flip = team == GOTA_TEAM_BLUE;
    int tx = map_tile_of(flip ? -x : x), tz = map_tile_of(flip ? -z : z);
    int best = -1;
    int64_t best_d = INT64_MAX;
    for (int dz = -NAV_GOAL_SEARCH; dz <= NAV_GOAL_SEARCH; dz++)
        for (int dx = -NAV_GOAL_SEARCH; dx <= NAV_GOAL_SEARCH; dx++) {
            int nx = tx + dx, nz = tz + dz;
            if (!map_in_bounds(nx, nz)) continue;
            int t = map_index(nx, nz);   /* in the team's frame */
            if (!nav_open(&m->nav, m->map, flip ? MAP_TILES - 1 - t : t)) continue;
            int64_t d = (int64_t)dx * dx + (int64_t)dz * dz;
            if (d < best_d || (d == best_d && t < best)) { best_d = d; best = t; }
        }
    if (best < 0) return 0;
    if (flip) best = MAP_TILES - 1 - best;
    *ox = map_tile_centre(best % MAP_N);
    *oz = map_tile_centre(best / MAP_N);
    return 1;
}

static int creep_first_waypoint(const GotaMatch *m, int team, int lane)
{
    return team == GOTA_TEAM_RED ? 0 : m->map->lane_n[lane] - 1;
}

static void creep_spawn(GotaMatch *m, const MapBuilding *b, int offset, int sub)
{
    /* in the team's frame (creep_open_tile_near): the shift rounds the same way for both teams */
    int sign = b->team == GOTA_TEAM_BLUE ? -1 : 1;
    int32_t x = sign * (sign * b->spawn_x + (int32_t)(((int64_t)sign * b->side_x * offset * GOTA_TILE) >> 16));
    int32_t z = sign * (sign * b->spawn_z + (int32_t)(((int64_t)sign * b->side_z * offset * GOTA_TILE) >> 16));
    int slot = unit_alloc(m);
    if (slot < 0 || !creep_open_tile_near(m, b->team, x, z, &x, &z)) return;
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    *u = (GotaUnit){0};
    *s = (UnitState){0};
    u->id = m->next_id++;
    u->x = x;
    u->z = z;
    u->hp = u->max_hp = CREEP_HP;
    u->target_id = -1;
    u->damage = CREEP_DAMAGE;
    u->range = sub == GOTA_CREEP_MELEE ? CREEP_MELEE_RANGE : CREEP_RANGED_RANGE;
    u->kind = GOTA_KIND_CREEP;
    u->team = b->team;
    u->sub = (int16_t)sub;
    u->lane = b->lane;
    u->alive = 1;
    u->radius_q = 22;
    s->speed = CREEP_SPEED;
    s->period = CREEP_PERIOD;
    s->windup = CREEP_HIT_TICK;
    s->swing = -1;
    s->target = -1;
    s->building = -1;
    s->camp = -1;
    s->waypoint = creep_first_waypoint(m, b->team, b->lane);
    s->path_revision = -1;
    int w = s->waypoint;
    unit_set_facing(m, slot, fx_atan2((int64_t)m->map->lane_z[b->lane][w] - z, (int64_t)m->map->lane_x[b->lane][w] - x));
    m->lane_creeps++;
    match_event(m, GOTA_EVENT_SPAWN, slot, -1, sub);
}

void creeps_spawn_wave(GotaMatch *m)
{
    const MapData *map = m->map;
    int barracks = 0;
    for (int i = 0; i < map->building_n; i++)
        if (m->building_alive[i] && map->building[i].kind == GOTA_KIND_BARRACKS) barracks++;
    int incoming = barracks * (WAVE_SPAWNS_PER_BARRACKS_MELEE + WAVE_SPAWNS_PER_BARRACKS_RANGED);
    if (incoming == 0 || m->lane_creeps + incoming > CREEP_CAP) return;
    int before = m->lane_creeps;
    for (int i = 0; i < map->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        if (!m->building_alive[i] || b->kind != GOTA_KIND_BARRACKS) continue;
        for (int k = 0; k < WAVE_SPAWNS_PER_BARRACKS_MELEE; k++) creep_spawn(m, b, k - 2, GOTA_CREEP_MELEE);
        creep_spawn(m, b, 1, GOTA_CREEP_RANGED);
    }
    match_event(m, GOTA_EVENT_WAVE, -1, -1, m->lane_creeps - before);
}

static int creep_target_valid(const GotaMatch *m, int c, int t)
{
    if (t < 0 || !unit_attackable(m, t) || !unit_hostile(m, c, t) || !unit_visible_to(m, m->unit[c].team, t))
        return 0;
    int kind = m->unit[t].kind;
    if (kind == GOTA_KIND_NEUTRAL && !camp_fighting(m, t)) return 0;
    int building = kind == GOTA_KIND_TOWER || kind == GOTA_KIND_BARRACKS || kind == GOTA_KIND_GOD;
    int64_t keep = building ? CREEP_KEEP_BUILDING : CREEP_KEEP_TARGET;
    return fx_dist2(m->snap_x[c], m->snap_z[c], m->snap_x[t], m->snap_z[t]) <= keep * keep;
}

/* Creep candidates: the nearest visible hostile creep and enemy hero. */
typedef struct { Nearest creep, hero; } CreepPick;

static void creep_visit(const GotaMatch *m, int from, int j, int64_t d2, void *ctx)
{
    CreepPick *p = ctx;
    const GotaUnit *u = &m->unit[j];
    if (!unit_hostile(m, from, j) || !unit_attackable(m, j) || !unit_visible_to(m, m->unit[from].team, j))
        return;
    if (u->kind == GOTA_KIND_CREEP || (u->kind == GOTA_KIND_NEUTRAL && camp_fighting(m, j)))
        nearest_offer(m, &p->creep, j, d2);
    else if (u->kind == GOTA_KIND_HERO) nearest_offer(m, &p->hero, j, d2);
}

static int creep_acquire(const GotaMatch *m, int c)
{
    CreepPick pick = {{-1, 0}, {-1, 0}};
    match_scan_hostile(m, c, CREEP_ACQUIRE, creep_visit, &pick);
    if (pick.hero.slot < 0) return pick.creep.slot;
    if (pick.creep.slot < 0) return pick.hero.slot;
    return pick.hero.d2 < pick.creep.d2 ? pick.hero.slot : pick.creep.slot;   /* a hero must be strictly closer */
}

static int creep_structure_target(const GotaMatch *m, int c)
{
    const GotaUnit *u = &m->unit[c];
    int32_t x = m->snap_x[c], z = m->snap_z[c];
    /* the distance first: it fails for most creeps, and the tests are pure */
    int s = structure_next_enemy(m, u->team, u->lane, x, z);
    if (s >= 0 &&
        fx_dist2(x, z, m->unit[s].x, m->unit[s].z) <= (int64_t)CREEP_STRUCTURE_ACQUIRE * CREEP_STRUCTURE_ACQUIRE &&
        unit_attackable(m, s) && unit_visible_to(m, u->team, s))
        return s;
    int god = m->god_slot[1 - u->team];
    if (fx_dist2(x, z, m->unit[god].x, m->unit[god].z) <= (int64_t)GOD_REACH * GOD_REACH &&
        unit_attackable(m, god) && unit_visible_to(m, u->team, god))
        return god;
    return -1;
}

/* No target: walk the lane, then toward the next enemy structure or god. */
static void creep_march(GotaMatch *m, int c)
{
    const GotaUnit *u = &m->unit[c];
    const MapData *map = m->map;
    int lane = u->lane, step = u->team == GOTA_TEAM_RED ? 1 : -1, n = map->lane_n[lane];
    const int32_t *lane_x = map->lane_x[lane], *lane_z = map->lane_z[lane];
    int w = m->st[c].waypoint;
    while (w >= 0 && w < n &&
           fx_dist2(u->x, u->z, lane_x[w], lane_z[w]) <= (int64_t)CREEP_WAYPOINT_REACH * CREEP_WAYPOINT_REACH)
        w += step;
    m->st[c].waypoint = w;
    int32_t gx, gz;
    if (w >= 0 && w < n) {
        gx = lane_x[w];
        gz = lane_z[w];
    } else {
        int t = structure_next_enemy(m, u->team, u->lane, u->x, u->z);
        if (t < 0) t = m->god_slot[1 - u->team];
        gx = m->unit[t].x;
        gz = m->unit[t].z;
    }
    unit_move_toward(m, c, gx, gz);
}

void creeps_update(GotaMatch *m)
{
    for (int c = 0; c < m->unit_n; c++) {
        GotaUnit *u = &m->unit[c];
        if (!u->alive || u->kind != GOTA_KIND_CREEP) continue;
        UnitState *s = &m->st[c];
        int rooted = s->root > 0;   /* a control of N ticks blocks N unit phases */
        if (s->root > 0) s->root--;
        if (s->stun > 0) {          /* stunned: no target, no swing, no step */
            s->stun--;
            unit_stop_swing(m, c);
            continue;
        }
        int t = unit_target_slot(m, c);
        if (!creep_target_valid(m, c, t)) t = creep_acquire(m, c);
        if (t < 0) t = creep_structure_target(m, c);
        if (t < 0) {
            s->target = -1;
            u->target_id = -1;
            unit_stop_swing(m, c);
            if (!rooted) creep_march(m, c);
            continue;
        }
        s->target = t;
        if (unit_attack_reach_ok(m, c, t, m->snap_x[c], m->snap_z[c])) {
            unit_swing(m, c, t);
        } else {
            u->target_id = m->unit[t].id;
            unit_stop_swing(m, c);
            if (!rooted) unit_move_toward(m, c, m->snap_x[t], m->snap_z[t]);
        }
    }
}
