/*
 * structures.c -- lane towers, god guards, barracks and gods (docs/rules.md
 * section 3.4).
 *
 * Every map building becomes a unit at reset and keeps its slot for the whole
 * match. Exposure: a lane tower is damageable once every lower tier of its lane
 * and team is dead; barracks once all three towers of its lane are dead; god
 * guards once any lane of their team has lost all three towers; the god once
 * both guards are dead. Towers fire one shot per 24 ticks: they keep a valid
 * target (alive, hostile, visible, within range centre to centre), else take
 * the nearest visible hostile creep (lane creeps and fighting neutrals), and
 * only with none the nearest enemy hero.
 * A new target restarts the counter; the shot lands when it reaches 24.
 * Destroying a building frees its footprint (nav revision bumps) and stops
 * that barracks' waves. Barracks and gods never attack.
 */
#include <string.h>
#include "world.h"
#include "fixmath.h"

static int is_structure(int kind)
{
    return kind == GOTA_KIND_TOWER || kind == GOTA_KIND_BARRACKS || kind == GOTA_KIND_GOD;
}

void structures_spawn(GotaMatch *m)
{
    const MapData *map = m->map;
    for (int i = 0; i < map->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        int slot = unit_alloc(m);
        GotaUnit *u = &m->unit[slot];
        UnitState *s = &m->st[slot];
        u->id = m->next_id++;
        u->x = b->x;
        u->z = b->z;
        u->hp = u->max_hp = b->hp;
        u->target_id = -1;
        u->damage = b->damage;
        u->range = b->range;
        u->kind = b->kind;
        u->team = b->team;
        u->sub = b->tier;
        u->lane = b->lane;
        u->alive = 1;
        s->building = i;
        s->camp = -1;
        s->period = TOWER_PERIOD;
        s->windup = TOWER_PERIOD;
        s->swing = -1;
        s->target = -1;
        m->building_slot[i] = slot;
        m->building_alive[i] = 1;
        if (b->kind == GOTA_KIND_GOD) m->god_slot[b->team] = slot;
        nav_set_footprint(&m->nav, b, 1);
    }
}

/* Exposure of every building from the current deaths; emits EXPOSED events. */
void structures_sync(GotaMatch *m)
{
    const MapData *map = m->map;
    /* exposure and lane fronts follow from building_alive alone (the map
     * fixed); unchanged, with our last writes intact, a run changes nothing */
    if (m->sync_map == map && memcmp(m->sync_alive, m->building_alive, sizeof m->sync_alive) == 0 &&
        memcmp(m->sync_front, m->lane_front, sizeof m->sync_front) == 0) {
        int same = 1;
        for (int i = 0; i < map->building_n; i++) same &= m->unit[m->building_slot[i]].exposed == m->sync_exposed[i];
        if (same) return;
    }
    int lane_towers_dead[2][3] = {{0}}, tier_dead[2][3][3] = {{{0}}}, guards_dead[2] = {0};
    for (int i = 0; i < map->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        if (m->building_alive[i] || b->kind != GOTA_KIND_TOWER) continue;
        if (b->tier == GOTA_TIER_GUARD) guards_dead[b->team]++;
        else {
            lane_towers_dead[b->team][b->lane]++;
            tier_dead[b->team][b->lane][b->tier] = 1;
        }
    }
    int front_tier[2][3];
    for (int t = 0; t < 2; t++)
        for (int l = 0; l < 3; l++) {
            m->lane_front[t][l] = -1;
            front_tier[t][l] = 99;
        }
    for (int i = 0; i < map->building_n; i++) {
        const MapBuilding *b = &map->building[i];
        GotaUnit *u = &m->unit[m->building_slot[i]];
        if (m->building_alive[i] && b->kind == GOTA_KIND_TOWER && b->tier != GOTA_TIER_GUARD &&
            b->tier < front_tier[b->team][b->lane]) {
            front_tier[b->team][b->lane] = b->tier;
            m->lane_front[b->team][b->lane] = m->building_slot[i];
        }
        int exposed = 0;
        if (b->kind == GOTA_KIND_GOD) exposed = guards_dead[b->team] == 2;
        else if (b->kind == GOTA_KIND_BARRACKS) exposed = lane_towers_dead[b->team][b->lane] == 3;
        else if (b->tier == GOTA_TIER_GUARD)
            exposed = lane_towers_dead[b->team][0] == 3 || lane_towers_dead[b->team][1] == 3 ||
                      lane_towers_dead[b->team][2] == 3;
        else {
            exposed = 1;
            for (int t = 0; t < b->tier; t++) exposed &= tier_dead[b->team][b->lane][t];
        }
        if (exposed && !u->exposed && u->alive) match_event(m, GOTA_EVENT_EXPOSED, m->building_slot[i], -1, 0);
        u->exposed = (int8_t)exposed;
        m->sync_exposed[i] = (int8_t)exposed;
    }
    m->sync_map = map;
    memcpy(m->sync_alive, m->building_alive, sizeof m->sync_alive);
    memcpy(m->sync_front, m->lane_front, sizeof m->sync_front);
}

/* structure_next_enemy (world.h) once the lane has no standing tower. */
int structure_past_front(const GotaMatch *m, int team, int lane, int32_t x, int32_t z)
{
    const MapData *map = m->map;
    int enemy = 1 - team;
    if (m->lane_front[enemy][lane] >= 0) return m->lane_front[enemy][lane];
    int best_barracks = -1, best_guard = -1;
    int64_t d_barracks = INT64_MAX, d_guard = INT64_MAX;
    /* only the lane's barracks and the guards can win: the rest of the
     * buildings are skipped without changing the order of the others */
    for (int k = 0; k < map->next_enemy_cand_n[enemy][lane]; k++) {
        int i = map->next_enemy_cand[enemy][lane][k];
        const MapBuilding *b = &map->building[i];
        if (!m->building_alive[i] || b->team != enemy) continue;
        int slot = m->building_slot[i];
        if (b->kind == GOTA_KIND_BARRACKS && b->lane == lane) {
            int64_t d = fx_dist2(x, z, b->x, b->z);
            if (d < d_barracks) { d_barracks = d; best_barracks = slot; }
        } else if (b->kind == GOTA_KIND_TOWER && b->tier == GOTA_TIER_GUARD && m->unit[slot].exposed) {
            int64_t d = fx_dist2(x, z, b->x, b->z);
            if (d < d_guard) { d_guard = d; best_guard = slot; }
        }
    }
    return best_barracks >= 0 ? best_barracks : best_guard;
}

/* Tower candidates: the nearest visible hostile creep and the nearest hero. */
typedef struct { Nearest creep, hero; } TowerPick;

static void tower_visit(const GotaMatch *m, int from, int j, int64_t d2, void *ctx)
{
    TowerPick *p = ctx;
    const GotaUnit *u = &m->unit[j];
    if (!unit_hostile(m, from, j) || !unit_visible_to(m, m->unit[from].team, j)) return;
    if (u->kind == GOTA_KIND_CREEP || (u->kind == GOTA_KIND_NEUTRAL && camp_fighting(m, j)))
        nearest_offer(m, &p->creep, j, d2);
    else if (u->kind == GOTA_KIND_HERO) nearest_offer(m, &p->hero, j, d2);
}

static int tower_target_valid(const GotaMatch *m, int tower, int t)
{
    const GotaUnit *u = &m->unit[tower];
    return t >= 0 && unit_attackable(m, t) && unit_hostile(m, tower, t) &&
           (m->unit[t].kind != GOTA_KIND_NEUTRAL || camp_fighting(m, t)) &&
           unit_visible_to(m, u->team, t) && !is_structure(m->unit[t].kind) &&
           fx_dist2(u->x, u->z, m->snap_x[t], m->snap_z[t]) <= (int64_t)u->range * u->range;
}

void towers_update(GotaMatch *m)
{
    for (int i = 0; i < m->map->building_n; i++) {
        int slot = m->building_slot[i];
        GotaUnit *u = &m->unit[slot];
        UnitState *s = &m->st[slot];
        if (!u->alive || u->kind != GOTA_KIND_TOWER) continue;
        int t = unit_target_slot(m, slot);
        if (!tower_target_valid(m, slot, t)) {
            TowerPick pick = {{-1, 0}, {-1, 0}};
            match_scan_hostile(m, slot, u->range, tower_visit, &pick);
            t = pick.creep.slot >= 0 ? pick.creep.slot : pick.hero.slot;
            if (t >= 0) {
                s->target = t;
                u->target_id = m->unit[t].id;
                s->swing = 0;
                continue;
            }
            s->target = -1;
            u->target_id = -1;
            s->swing = -1;
            continue;
        }
        if (++s->swing >= TOWER_PERIOD) {
            combat_queue(m, slot, t, u->damage);
            s->swing = 0;
        }
    }
}

void structure_destroyed(GotaMatch *m, int slot, int killer)
{
    int i = m->st[slot].building;
    m->building_alive[i] = 0;
    nav_set_footprint(&m->nav, &m->map->building[i], 0);
    match_event(m, GOTA_EVENT_STRUCTURE, slot, killer >= 0 ? m->unit[killer].id : -1, m->unit[slot].sub);
}
