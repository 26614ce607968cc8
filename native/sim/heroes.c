/*
 * heroes.c -- the ten heroes: draft, spawn, stats, timers, death and respawn,
 * and their orders in the unit phase (docs/rules.md sections 3.1, 4 and 7).
 *
 * Units: world units (60,000 per tile), ticks (24 per second), hit points and
 * mana as integers. Seats 0-4 are red (team 0), 5-9 blue (team 1); the hero of
 * seat s has id 100 + s and keeps unit slot m->hero_slot[s] for the match.
 *
 * Draft: a seat whose config class_s is 0..9 gets that class (the config check
 * has already refused a class on two seats). The other seats are filled by the
 * seeded role draft: the first team is rng below(2) (always drawn, so the
 * stream does not depend on the config), then the teams alternate, each in
 * seat order (first team's first seat, other team's first seat, ...). A free
 * seat draws below(n) over the available classes, in class order, whose role
 * its team still lacks; configured classes count as taken and their roles as
 * held from the start. When the config makes that impossible (every class of
 * each missing role is taken), the seat draws from all free classes, preferring
 * those whose role the other team does not still need: the ten classes stay
 * distinct and the draft never fails. A bot seat (config bot_s, bot.h) picks
 * instead the first class of that same pool (in class order): the first free
 * class whose role its team lacks. Its below(n) is still drawn and dropped, so
 * the stream draws the same number of values whoever plays the seats.
 *
 * Spawn: the five heroes of a team stand on the five open tiles of the team's
 * spawn room nearest the map's hero spawn point (ties by tile index, mirrored
 * for blue, so blue's spots are red's rotated), in seat order, at tile centres,
 * facing the map centre. A hero keeps that spot for every respawn.
 *
 * Per tick (heroes_timers, after tick + 1), for a living hero: ability
 * cooldowns and recharges tick (a recharge that expires adds a charge and
 * restarts while charges are below the maximum), controls tick, +1 mana when
 * tick % 6 == 0, spawn-room recovery (at cycle position k = tick % 120 the hero
 * gets floor(max*(k+1)/120) - floor(max*k/120) HP and mana, i.e. max/5 per
 * second spread exactly). A dead hero respawns when tick >= respawn_at. Then
 * economy_hero_tick runs for every hero, dead or alive (economy.h: potion and
 * portal cooldowns keep running while dead; running potions end).
 *
 * Orders (heroes_update, against the snapshot), for a living hero that is not
 * stunned or channeling (those drop their swing and do nothing): a target is
 * kept while attackable (exposed / not returning), hostile and visible; a lost
 * target is cleared, an explicit attack order becomes idle, and the chase path
 * is dropped (an attack-move replans toward its point at once: one path serves
 * both chasing and walking). With no target the hero acquires the nearest
 * visible attackable enemy (mobile units, and exposed buildings and gods from
 * the building table) within 480,000 (melee) or its range (ranged / magic)
 * when attack-moving, 150,000 / its range when idle, nothing while walking;
 * resting camps only when attack-moving. Distance: centre to centre, to the
 * nearest footprint point for towers and barracks. Ties: team-relative z, then
 * x (blue compares both negated), then id. In reach the hero swings (hit at
 * windup = period * 45 / 100); out of reach it paths toward the target unless
 * rooted, and its swing resets. Walk and attack-move orders without a target
 * path to the order point and become idle on arrival: within 1/3 tile of the
 * point (of the nearest open tile's centre when the point's tile is blocked, as
 * the navigation does), or at once when no path exists.
 *
 * Choices where the rules are silent: an acquired target is as sticky as an
 * explicit one (kept while valid, chased while out of reach); a new order or
 * target plans its path at once, later goal moves follow the creeps' replan
 * rules (at most every 6 ticks); level-ups and items raise a dead hero's
 * maxima only (respawn fills them); controls count down after the unit phase,
 * so a 24-tick stun blocks 24 unit phases (and commands until then), as for
 * creeps and neutrals; spawn and respawn emit
 * GOTA_EVENT_SPAWN with the class as value.
 */
#include "world.h"
#include "fixmath.h"
#include "rng.h"

int hero_team(int seat)
{
    return seat < SEATS_PER_TEAM ? GOTA_TEAM_RED : GOTA_TEAM_BLUE;
}

int hero_seat_of_slot(const GotaMatch *m, int slot)
{
    if (slot < 0 || slot >= m->unit_n) return -1;
    const GotaUnit *u = &m->unit[slot];
    int seat = u->id - HERO_ID_BASE;
    if (u->kind != GOTA_KIND_HERO || seat < 0 || seat >= SEATS || m->hero_slot[seat] != slot) return -1;
    return seat;
}

/* The seat's hero slot, or -1 when the match has none (or a test removed it). */
static int hero_slot_of(const GotaMatch *m, int seat)
{
    int slot = m->hero_slot[seat];
    return hero_seat_of_slot(m, slot) == seat ? slot : -1;
}

/* ---- draft -------------------------------------------------------------- */
static void draft(GotaMatch *m, int cls[SEATS])
{
    int taken[HERO_CLASSES] = {0}, has_role[2][ROLES] = {{0}};
    for (int s = 0; s < SEATS; s++) {
        int64_t c = m->cfg.hero_class[s];
        cls[s] = c >= 0 && c < HERO_CLASSES ? (int)c : -1;
        if (cls[s] >= 0) {
            taken[cls[s]] = 1;
            has_role[hero_team(s)][HERO_CLASS[cls[s]].role] = 1;
        }
    }
    int first = (int)rng_below(&m->rng, 2);
    for (int k = 0; k < SEATS; k++) {
        int team = (k & 1) ? 1 - first : first;
        int seat = team * SEATS_PER_TEAM + k / 2;
        if (cls[seat] >= 0) continue;
        int pool[HERO_CLASSES], n = 0;
        for (int c = 0; c < HERO_CLASSES; c++)
            if (!taken[c] && !has_role[team][HERO_CLASS[c].role]) pool[n++] = c;
        /* no role-complete pick left: any free class, sparing the other team's needs */
        for (int c = 0; n == 0 && c < HERO_CLASSES; c++)
            if (!taken[c] && has_role[1 - team][HERO_CLASS[c].role]) pool[n++] = c;
        for (int c = 0; n == 0 && c < HERO_CLASSES; c++)
            if (!taken[c]) pool[n++] = c;
        int c = pool[rng_below(&m->rng, (uint32_t)n)];
        if (m->cfg.bot[seat] == GOTA_BOT_SCRIPT) {   /* a script picks any free class; none: the draw's */
            int pick = script_draft(m, seat, cls);
            if (pick >= 0 && pick < HERO_CLASSES && !taken[pick]) c = pick;
        } else if (m->cfg.bot[seat] != GOTA_BOT_EXTERNAL) {
            c = pool[0];   /* a bot's pick; the draw keeps the stream */
        }
        cls[seat] = c;
        taken[c] = 1;
        has_role[team][HERO_CLASS[c].role] = 1;
    }
}

/* ---- spawn -------------------------------------------------------------- */
/* The five spawn spots of a team: open own-spawn-room tiles nearest the spawn
 * point, ties by tile index (mirrored index for blue). Falls back to any open
 * tile, then to the spawn point itself, so it never fails. */
static void spawn_spots(const GotaMatch *m, int team, int32_t x[SEATS_PER_TEAM], int32_t z[SEATS_PER_TEAM])
{
    const MapData *map = m->map;
    int cx = map_tile_of(map->hero_spawn_x[team]), cz = map_tile_of(map->hero_spawn_z[team]);
    uint8_t room = team == GOTA_TEAM_RED ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
    int used[SEATS_PER_TEAM], n = 0;
    for (int pass = 0; pass < 2 && n < SEATS_PER_TEAM; pass++)
        while (n < SEATS_PER_TEAM) {
            int best = -1, best_d = 0, best_key = 0;
            for (int dz = -NAV_GOAL_SEARCH; dz <= NAV_GOAL_SEARCH; dz++)
                for (int dx = -NAV_GOAL_SEARCH; dx <= NAV_GOAL_SEARCH; dx++) {
                    int tx = cx + dx, tz = cz + dz;
                    if (!map_in_bounds(tx, tz)) continue;
                    int t = map_index(tx, tz);
                    if (!nav_open(&m->nav, map, t) || (pass == 0 && !(map->region[t] & room))) continue;
                    int dup = 0;
                    for (int k = 0; k < n; k++) dup |= used[k] == t;
                    if (dup) continue;
                    int d = dx * dx + dz * dz, key = team == GOTA_TEAM_RED ? t : MAP_TILES - 1 - t;
                    if (best < 0 || d < best_d || (d == best_d && key < best_key)) {
                        best = t;
                        best_d = d;
                        best_key = key;
                    }
                }
            if (best < 0) break;
            used[n++] = best;
        }
    for (int k = 0; k < SEATS_PER_TEAM; k++) {
        x[k] = k < n ? map_tile_centre(used[k] % MAP_N) : map->hero_spawn_x[team];
        z[k] = k < n ? map_tile_centre(used[k] / MAP_N) : map->hero_spawn_z[team];
    }
}

static int32_t facing_to_centre(int32_t x, int32_t z)
{
    return fx_atan2(-(int64_t)z, -(int64_t)x);
}

static void clear_path(UnitState *s)
{
    s->path.n = 0;
    s->path_i = 0;
}

static void hero_spawn_one(GotaMatch *m, int seat, int cls, int32_t x, int32_t z)
{
    const HeroClassDef *c = &HERO_CLASS[cls];
    int slot = unit_alloc(m);
    if (slot < 0) return;   /* cannot happen: heroes spawn right after the 36 buildings */
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    HeroState *h = &m->hero[seat];
    *u = (GotaUnit){0};
    *s = (UnitState){0};
    *h = (HeroState){0};
    u->id = HERO_ID_BASE + seat;
    u->x = x;
    u->z = z;
    u->hp = u->max_hp = c->hp;
    u->target_id = -1;
    unit_set_facing(m, slot, facing_to_centre(x, z));
    u->damage = c->damage;
    u->range = c->range;
    u->kind = GOTA_KIND_HERO;
    u->team = (int16_t)hero_team(seat);
    u->sub = (int16_t)cls;
    u->lane = -1;
    u->alive = 1;
    u->radius_q = HERO_RADIUS_Q;
    s->speed = c->move;
    s->period = c->period;
    s->windup = c->period * 45 / 100;
    s->swing = -1;
    s->target = -1;
    s->building = -1;
    s->camp = -1;
    s->path_revision = -1;
    h->seat = seat;
    h->cls = cls;
    h->level = 1;
    h->gold = HERO_START_GOLD;
    h->mana = h->max_mana = c->mana;
    h->move_speed = c->move;
    h->points = 1;
    h->order = ORDER_IDLE;
    h->channel_tower = -1;
    h->spawn_x = x;
    h->spawn_z = z;
    for (int k = 0; k < SEATS; k++) h->damaged_at[k] = -1;
    h->stats.team = hero_team(seat);
    h->stats.hero_class = cls;
    m->hero_slot[seat] = slot;
    match_event(m, GOTA_EVENT_SPAWN, slot, -1, cls);
}

int heroes_spawn(GotaMatch *m)
{
    int cls[SEATS];
    draft(m, cls);
    for (int team = 0; team < 2; team++) {
        int32_t x[SEATS_PER_TEAM], z[SEATS_PER_TEAM];
        spawn_spots(m, team, x, z);
        for (int k = 0; k < SEATS_PER_TEAM; k++) {
            int seat = team * SEATS_PER_TEAM + k;
            hero_spawn_one(m, seat, cls[seat], x[k], z[k]);
        }
    }
    for (int s = 0; s < SEATS; s++)
        if (m->hero_slot[s] < 0) return GOTA_ERR_INTERNAL;
    return GOTA_OK;
}

/* ---- stats -------------------------------------------------------------- */
void hero_refresh_stats(GotaMatch *m, int seat)
{
    int slot = hero_slot_of(m, seat);
    if (slot < 0) return;
    HeroState *h = &m->hero[seat];
    GotaUnit *u = &m->unit[slot];
    const HeroClassDef *c = &HERO_CLASS[h->cls];
    int32_t up = h->level - 1;
    int32_t hp = c->hp + up * c->hp_per_level, mana = c->mana + up * c->mana_per_level;
    int32_t damage = c->damage + up * c->damage_per_level, move = c->move + up * c->move_per_level;
    for (int i = 0; i < HERO_ITEM_SLOTS; i++) {
        int id = h->item[i];
        if (id < 1 || id >= ITEM_KINDS || ITEM[id].kind != ITEM_EQUIPMENT) continue;
        hp += ITEM[id].hp;
        mana += ITEM[id].mana;
        damage += ITEM[id].damage;
        move += ITEM[id].move;
    }
    if (u->alive) {   /* a dead hero's HP stays 0; respawn fills both */
        if (hp > u->max_hp) u->hp += hp - u->max_hp;
        if (mana > h->max_mana) h->mana += mana - h->max_mana;
    }
    u->max_hp = hp;
    h->max_mana = mana;
    if (u->hp > hp) u->hp = hp;
    if (h->mana > mana) h->mana = mana;
    u->damage = damage;
    h->move_speed = move;
    m->st[slot].speed = move;
}

/* ---- timers, death, respawn --------------------------------------------- */
static void clear_orders(GotaMatch *m, int seat, int slot)
{
    HeroState *h = &m->hero[seat];
    h->order = ORDER_IDLE;
    h->order_x = h->order_z = 0;
    m->unit[slot].target_id = -1;
    m->st[slot].target = -1;
    unit_stop_swing(m, slot);
    clear_path(&m->st[slot]);
}

void hero_respawn(GotaMatch *m, int seat)
{
    int slot = hero_slot_of(m, seat);
    if (slot < 0) return;
    HeroState *h = &m->hero[seat];
    GotaUnit *u = &m->unit[slot];
    const HeroClassDef *c = &HERO_CLASS[h->cls];
    clear_orders(m, seat, slot);
    u->alive = 1;
    u->hp = u->max_hp;
    h->mana = h->max_mana;
    u->x = h->spawn_x;
    u->z = h->spawn_z;
    unit_set_facing(m, slot, facing_to_centre(u->x, u->z));
    for (int a = 0; a < HERO_ABILITIES; a++) {
        h->cooldown[a] = 0;
        h->recharge[a] = 0;
        h->charges[a] = h->rank[a] > 0 ? c->ability[a].charges : 0;
    }
    h->stun = h->root = h->silence = 0;
    h->channel = 0;
    h->respawn_at = 0;
    match_event(m, GOTA_EVENT_SPAWN, slot, -1, h->cls);
}

void hero_died(GotaMatch *m, int seat, int killer_slot)
{
    (void)killer_slot;   /* kills, XP and gold are economy_on_death's */
    int slot = hero_slot_of(m, seat);
    if (slot < 0) return;
    HeroState *h = &m->hero[seat];
    h->deaths++;
    int32_t delay = HERO_RESPAWN_BASE + HERO_RESPAWN_PER_DEATH * (h->deaths - 1);
    if (delay > HERO_RESPAWN_MAX) delay = HERO_RESPAWN_MAX;
    h->respawn_at = m->tick + delay;
    h->buyback_price = HERO_BUYBACK_PER_DEATH * h->deaths;
    clear_orders(m, seat, slot);
    h->stun = h->root = h->silence = 0;
    h->channel = 0;
    h->hp_regen_total = h->hp_regen_elapsed = h->hp_regen_given = 0;
    h->mana_regen_total = h->mana_regen_elapsed = h->mana_regen_given = 0;
    h->stats.deaths++;
}

/* The exact 1/120 share of `total` at cycle position k. */
static int32_t cycle_share(int32_t total, int32_t k)
{
    return (int32_t)((int64_t)total * (k + 1) / RECOVERY_CYCLE - (int64_t)total * k / RECOVERY_CYCLE);
}

static void hero_tick_alive(GotaMatch *m, int seat, int slot)
{
    HeroState *h = &m->hero[seat];
    GotaUnit *u = &m->unit[slot];
    const HeroClassDef *c = &HERO_CLASS[h->cls];
    for (int a = 0; a < HERO_ABILITIES; a++) {
        if (h->cooldown[a] > 0) h->cooldown[a]--;
        if (h->recharge[a] > 0 && --h->recharge[a] == 0) {
            int32_t max = c->ability[a].charges;
            if (h->charges[a] < max) h->charges[a]++;
            if (h->charges[a] < max) h->recharge[a] = c->ability[a].recharge;
        }
    }
    if (m->tick % HERO_MANA_REGEN_EVERY == 0 && h->mana < h->max_mana) h->mana++;
    uint8_t room = u->team == GOTA_TEAM_RED ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
    if (m->map->region[map_index_of(u->x, u->z)] & room) {
        int32_t k = m->tick % RECOVERY_CYCLE;
        u->hp += cycle_share(u->max_hp, k);
        if (u->hp > u->max_hp) u->hp = u->max_hp;
        h->mana += cycle_share(h->max_mana, k);
        if (h->mana > h->max_mana) h->mana = h->max_mana;
    }
}

/* Push depth: the furthest a living hero has stood past the centre line (the
 * map's centre, across the own god -> enemy god axis), in milli-tiles. The map
 * is point-symmetric about its centre, so the axis is minus the own god's spot. */
static void hero_push_depth(GotaMatch *m, int seat, int slot)
{
    const GotaUnit *u = &m->unit[slot], *god = &m->unit[m->god_slot[u->team]];
    int64_t gx = god->x, gz = god->z, len = fx_isqrt64((uint64_t)(gx * gx + gz * gz));
    if (len == 0) return;
    int64_t along = -((int64_t)u->x * gx + (int64_t)u->z * gz) / len;
    int64_t depth = along * 1000 / GOTA_TILE;
    if (depth > m->hero[seat].stats.push_depth) m->hero[seat].stats.push_depth = depth;
}

void heroes_timers(GotaMatch *m)
{
    for (int seat = 0; seat < SEATS; seat++) {
        int slot = hero_slot_of(m, seat);
        if (slot < 0) continue;
        if (m->unit[slot].alive) {
            hero_tick_alive(m, seat, slot);
            hero_push_depth(m, seat, slot);
        }
        else if (m->tick >= m->hero[seat].respawn_at) hero_respawn(m, seat);
        economy_hero_tick(m, seat);   /* every hero: potion cooldowns also run while dead */
    }
}

/* ---- orders ------------------------------------------------------------- */
int hero_goal_point(const GotaMatch *m, int32_t x, int32_t z, int32_t *gx, int32_t *gz)
{
    if (!map_world_inside(x, z)) return 0;
    int tx = map_tile_of(x), tz = map_tile_of(z);
    if (map_in_bounds(tx, tz) && nav_open(&m->nav, m->map, map_index(tx, tz))) {
        *gx = x;
        *gz = z;
        return 1;
    }
    /* the nearest open tile (squared distance, then map_tie_key) in the window:
     * searched in square rings outward, every tile of ring r at least r*r
     * away, so once r*r passes the best distance no later ring can win */
    int best = -1, best_d = 0, best_key = 0, around = map_index(tx, tz);
    for (int r = 1; r <= NAV_GOAL_SEARCH && (best < 0 || r * r <= best_d); r++)
        for (int dz = -r; dz <= r; dz++) {
            int step = dz == -r || dz == r ? 1 : 2 * r;   /* inner rows: the two ends only */
            for (int dx = -r; dx <= r; dx += step) {
                int nx = tx + dx, nz = tz + dz;
                if (!map_in_bounds(nx, nz)) continue;
                int t = map_index(nx, nz), d = dx * dx + dz * dz;
                if (!nav_open(&m->nav, m->map, t)) continue;
                int key = map_tie_key(around, t);
                if (best < 0 || d < best_d || (d == best_d && key < best_key)) {
                    best = t;
                    best_d = d;
                    best_key = key;
                }
            }
        }
    if (best < 0) return 0;
    *gx = map_tile_centre(best % MAP_N);
    *gz = map_tile_centre(best / MAP_N);
    return 1;
}

void hero_order(GotaMatch *m, int seat, int order, int32_t x, int32_t z, int target)
{
    int slot = hero_slot_of(m, seat);
    if (slot < 0) return;
    HeroState *h = &m->hero[seat];
    if (order == ORDER_ATTACK && target >= 0 && unit_target_slot(m, slot) == target) {
        h->order = ORDER_ATTACK;   /* the same target again: the swing goes on */
        return;
    }
    clear_orders(m, seat, slot);
    h->order = order;
    if (order == ORDER_WALK || order == ORDER_ATTACK_MOVE) {
        h->order_x = x;
        h->order_z = z;
    } else if (order == ORDER_ATTACK && target >= 0) {
        m->st[slot].target = target;
        m->unit[slot].target_id = m->unit[target].id;
    } else {
        h->order = ORDER_IDLE;
    }
    m->st[slot].replan_tick = m->tick;   /* a new order plans its path at once */
}

/* Kept while attackable (exposed, not returning), hostile and visible. */
static int target_valid(const GotaMatch *m, int slot, int t)
{
    return t >= 0 && unit_attackable(m, t) && unit_hostile(m, slot, t) && unit_visible_to(m, m->unit[slot].team, t);
}

/* Acquisition: nearest, then team-relative (z, x), then id. */
typedef struct {
    int slot;
    int64_t d2;
    int32_t kz, kx;
    int team, attack_move;
    int64_t r2;
} Acquire;

static void acquire_offer(const GotaMatch *m, Acquire *a, int j, int64_t d2, int32_t x, int32_t z)
{
    int32_t kz = a->team == GOTA_TEAM_RED ? z : -z, kx = a->team == GOTA_TEAM_RED ? x : -x;
    int better = a->slot < 0 || d2 < a->d2;
    if (!better && d2 == a->d2) {
        if (kz != a->kz) better = kz < a->kz;
        else if (kx != a->kx) better = kx < a->kx;
        else better = m->unit[j].id < m->unit[a->slot].id;
    }
    if (better) {
        a->slot = j;
        a->d2 = d2;
        a->kz = kz;
        a->kx = kx;
    }
}

static void acquire_visit(const GotaMatch *m, int from, int j, int64_t d2, void *ctx)
{
    Acquire *a = ctx;
    if (!target_valid(m, from, j)) return;
    if (m->unit[j].kind == GOTA_KIND_NEUTRAL && !a->attack_move && !camp_fighting(m, j)) return;
    acquire_offer(m, a, j, d2, m->snap_x[j], m->snap_z[j]);
}

void hero_enemy_buildings(const GotaMatch *m, HeroEnemyBuildings *out)
{
    const MapData *map = m->map;
    int n[2] = {0, 0};
    for (int i = 0; i < map->building_n; i++) {
        const GotaUnit *bu = &m->unit[m->building_slot[i]];
        if (!bu->exposed) continue;   /* unexposed buildings fail target_valid */
        for (int team = 0; team < 2; team++)
            if (map->building[i].team != team && bu->team != team) out->building[team][n[team]++] = (uint8_t)i;
    }
    out->n[0] = (uint8_t)n[0];
    out->n[1] = (uint8_t)n[1];
}

int hero_acquire(const GotaMatch *m, int slot, int attack_move, const HeroEnemyBuildings *enemy)
{
    const GotaUnit *u = &m->unit[slot];
    int32_t radius = HERO_CLASS[u->sub].style != STYLE_MELEE ? u->range
                     : attack_move                           ? HERO_ACQUIRE_MELEE_ATTACK_MOVE
                                                             : HERO_ACQUIRE_MELEE_IDLE;
    Acquire a = {-1, 0, 0, 0, u->team, attack_move, (int64_t)radius * radius};
    match_scan_hostile(m, slot, radius, acquire_visit, &a);
    int32_t x = m->snap_x[slot], z = m->snap_z[slot];
    int team = u->team;   /* a hero's team is red or blue */
    for (int k = 0; k < enemy->n[team]; k++) {
        int i = enemy->building[team][k];
        int b = m->building_slot[i];
        const GotaUnit *bu = &m->unit[b];
        /* the distance first (pure, like target_valid), which rules out most,
         * the footprint's box first (never farther than the footprint) */
        int god = bu->kind == GOTA_KIND_GOD;
        if (!god && unit_building_box_dist2(m, i, x, z) > a.r2) continue;
        int64_t d2 = god ? fx_dist2(x, z, bu->x, bu->z) : unit_building_dist2(m, i, x, z);
        if (d2 <= a.r2 && target_valid(m, slot, b)) acquire_offer(m, &a, b, d2, bu->x, bu->z);
    }
    return a.slot;
}

/* Path toward (x,z); 1 once there (or when no path exists). */
static int hero_walk(GotaMatch *m, int seat, int slot, int32_t x, int32_t z)
{
    HeroState *h = &m->hero[seat];
    if (!h->walk_cached || h->walk_x != x || h->walk_z != z || h->walk_revision != m->nav.revision) {
        /* a blocked point searches the tiles around it: once per point and revision */
        h->walk_ok = (int8_t)hero_goal_point(m, x, z, &h->walk_gx, &h->walk_gz);
        h->walk_x = x;
        h->walk_z = z;
        h->walk_revision = m->nav.revision;
        h->walk_cached = 1;
    }
    if (!h->walk_ok) return 1;
    unit_move_toward(m, slot, x, z);
    const GotaUnit *u = &m->unit[slot];
    return m->st[slot].path.n == 0 ||
           fx_dist2(u->x, u->z, h->walk_gx, h->walk_gz) <= (int64_t)NAV_REACH * NAV_REACH;
}

static void hero_update(GotaMatch *m, int seat, int slot, const HeroEnemyBuildings *enemy)
{
    HeroState *h = &m->hero[seat];
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    if (h->stun > 0 || h->channel > 0) {
        unit_stop_swing(m, slot);
        return;
    }
    int t = h->order == ORDER_WALK ? -1 : unit_target_slot(m, slot);
    if (t >= 0 && !target_valid(m, slot, t)) {
        u->target_id = -1;
        s->target = -1;
        unit_stop_swing(m, slot);
        if (h->order == ORDER_ATTACK) h->order = ORDER_IDLE;
        /* the chase path is dropped; an attack-move replans to its point at once */
        clear_path(s);
        s->replan_tick = m->tick;
        t = -1;
    }
    if (t < 0 && h->order != ORDER_WALK) {
        t = hero_acquire(m, slot, h->order == ORDER_ATTACK_MOVE, enemy);
        if (t >= 0) {
            s->target = t;
            u->target_id = m->unit[t].id;
            unit_stop_swing(m, slot);
            s->replan_tick = m->tick;
        }
    }
    if (t >= 0) {
        if (unit_attack_reach_ok(m, slot, t, m->snap_x[slot], m->snap_z[slot])) {
            unit_swing(m, slot, t);
        } else {
            unit_stop_swing(m, slot);
            if (h->root == 0) unit_move_toward(m, slot, m->snap_x[t], m->snap_z[t]);
        }
        return;
    }
    u->target_id = -1;
    s->target = -1;
    unit_stop_swing(m, slot);
    if ((h->order == ORDER_WALK || h->order == ORDER_ATTACK_MOVE) && h->root == 0 &&
        hero_walk(m, seat, slot, h->order_x, h->order_z)) {
        h->order = ORDER_IDLE;
        clear_path(s);
    }
}

void heroes_update(GotaMatch *m)
{
    HeroEnemyBuildings enemy;   /* once a phase: nothing in it exposes or hides a building */
    hero_enemy_buildings(m, &enemy);
    for (int seat = 0; seat < SEATS; seat++) {
        int slot = hero_slot_of(m, seat);
        if (slot < 0 || !m->unit[slot].alive) continue;
        hero_update(m, seat, slot, &enemy);
        /* controls count down after the unit phase: N ticks block N unit phases */
        HeroState *h = &m->hero[seat];
        if (h->stun > 0) h->stun--;
        if (h->root > 0) h->root--;
        if (h->silence > 0) h->silence--;
    }
}
