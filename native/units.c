/*
 * units.c -- what every unit kind shares: slots and ids, the event log, the
 * per-tick spatial buckets and hostile scans, attack reach
 * (rules section 3.1: centre range for units, max(range, 105,000) to the
 * nearest point of a tower or barracks footprint, 255,000 to a god's centre),
 * the swing counter, and path following for mobile units (rules section 6:
 * replan at most every 6 ticks on a goal change, 24 ticks after a failed
 * search, or after 24 stuck ticks).
 *
 * All positions are world units; all decisions read the pre-update snapshot
 * (snap_x/snap_z) so the order in which units are updated never matters.
 */
#include <string.h>
#include "world.h"
#include "fixmath.h"

int unit_alloc(GotaMatch *m)
{
    for (int i = 0; i < m->unit_n; i++)
        if (m->unit[i].kind == GOTA_KIND_NONE) return i;
    if (m->unit_n >= GOTA_MAX_UNITS) return -1;
    return m->unit_n++;
}

void match_event(GotaMatch *m, int type, int slot, int other_id, int value)
{
    GotaEvent *e = &m->event[m->event_next % EVENT_LOG];
    const GotaUnit *u = slot >= 0 ? &m->unit[slot] : NULL;
    e->tick = m->tick;
    e->type = type;
    e->unit = u ? u->id : -1;
    e->other = other_id;
    e->kind = u ? u->kind : GOTA_KIND_NONE;
    e->team = u ? u->team : -1;
    e->value = value;
    e->x = u ? u->x : 0;
    e->z = u ? u->z : 0;
    m->event_next++;
}

/* map_tile_of(v) / BUCKET_TILES, clamped: one division (both truncate, and
 * every negative quotient clamps to 0 either way) */
static int bucket_coord(int32_t v)
{
    /* unsigned: a negative w wraps to a quotient far above BUCKET_N */
    int32_t w = v + MAP_HALF_WORLD;
    uint32_t b = (uint32_t)w / (BUCKET_TILES * GOTA_TILE);
    return b < BUCKET_N ? (int)b : (w < 0 ? 0 : BUCKET_N - 1);
}

static int is_mobile(int kind)
{
    return kind == GOTA_KIND_HERO || kind == GOTA_KIND_CREEP || kind == GOTA_KIND_NEUTRAL;
}

/* class of a mobile unit's team: red 0, blue 1, neutral 2 (the camps' team,
 * the only other one a mobile unit has) */
static int team_class(int team)
{
    _Static_assert(GOTA_TEAM_RED == 0 && GOTA_TEAM_BLUE == 1, "team classes are the team numbers");
    return (unsigned)team < 2 ? team : 2;
}

_Static_assert(BUCKET_N <= 32, "a bucket row fits 32 bits");
_Static_assert(GOTA_MAX_UNITS <= INT16_MAX, "bucket bounds fit int16_t");

_Static_assert(BUCKET_N + 4 <= 64, "a widened bucket row fits 64 bits");

/* Counting sort of the living mobile units by bucket, in slot order, the row
 * masks of the buckets holding each class's hostiles, and bucket_near. Only
 * occupied buckets are touched (last tick's to empty them, this tick's to
 * fill them), not all BUCKET_N * BUCKET_N. */
void match_buckets_build(GotaMatch *m)
{
    int16_t *start = m->bucket_start, *end = m->bucket_end;
    for (int bz = 0; bz < BUCKET_N; bz++) {
        for (uint32_t used = m->bucket_rows[3][bz]; used; used &= used - 1) {
            int b = bz * BUCKET_N + __builtin_ctz(used);
            start[b] = end[b] = 0;
        }
    }
    uint32_t rows[3][BUCKET_N];         /* per class: bit bx = bucket holds one */
    memset(rows, 0, sizeof rows);
    int16_t list[GOTA_MAX_UNITS], list_b[GOTA_MAX_UNITS];   /* bucketed slots, slot order, and their buckets */
    int n = 0;
    m->bucket_units = m->unit_n;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        m->bucket_bz[i] = 0xFF;
        if (!u->alive || !is_mobile(u->kind)) continue;
        int bx = bucket_coord(m->snap_x[i]), bz = bucket_coord(m->snap_z[i]);
        int b = bz * BUCKET_N + bx;
        m->bucket_bx[i] = (uint8_t)bx;
        m->bucket_bz[i] = (uint8_t)bz;
        list[n] = (int16_t)i;
        list_b[n++] = (int16_t)b;
        end[b]++;                       /* the count, for now */
        rows[team_class(u->team)][bz] |= 1u << bx;
    }
    int16_t next = 0;
    memset(m->bucket_rows_used, 0, sizeof m->bucket_rows_used);
    for (int bz = 0; bz < BUCKET_N; bz++) {
        m->bucket_rows[0][bz] = rows[1][bz] | rows[2][bz];
        m->bucket_rows[1][bz] = rows[0][bz] | rows[2][bz];
        m->bucket_rows[2][bz] = rows[0][bz] | rows[1][bz];
        m->bucket_rows[3][bz] = rows[0][bz] | rows[1][bz] | rows[2][bz];
        for (int c = 0; c < 4; c++) m->bucket_rows_used[c] |= (uint32_t)(m->bucket_rows[c][bz] != 0) << bz;
        for (uint32_t used = m->bucket_rows[3][bz]; used; used &= used - 1) {
            int b = bz * BUCKET_N + __builtin_ctz(used);
            start[b] = next;
            next = (int16_t)(next + end[b]);
            end[b] = start[b];          /* the fill point: ends at start + count */
        }
    }
    for (int k = 0; k < n; k++) m->bucket_item[end[list_b[k]]++] = list[k];
    /* bucket_near: each class's rows OR-ed over rows bz - 2 .. bz + 2, then
     * widened by 2 buckets each way along x (64 bits: nothing shifts out) */
    for (int c = 0; c < 3; c++) {
        uint64_t p[BUCKET_N + 4];       /* row bz at p[bz + 2], zero rows around */
        p[0] = p[1] = p[BUCKET_N + 2] = p[BUCKET_N + 3] = 0;
        for (int bz = 0; bz < BUCKET_N; bz++) p[bz + 2] = m->bucket_rows[c][bz];
        for (int bz = 0; bz < BUCKET_N; bz++) {
            uint64_t v = p[bz] | p[bz + 1] | p[bz + 2] | p[bz + 3] | p[bz + 4];
            uint64_t w = v | v << 1;    /* v shifted by 0..1 */
            w |= w << 2 | v << 4;       /* 0..4 */
            m->bucket_near[c][bz] = (uint32_t)(w >> 2);
        }
    }
}

/* Distance from v to the world span of bucket row/column c along one axis;
 * the edge buckets also hold everything beyond the map (bucket_coord clamps). */
static int64_t bucket_gap(int32_t v, int c)
{
    const int32_t span = BUCKET_TILES * GOTA_TILE;
    int64_t lo = (int64_t)c * span - MAP_HALF_WORLD, hi = lo + span;
    if (c > 0 && v < lo) return lo - v;
    if (c < BUCKET_N - 1 && v >= hi) return (int64_t)v - hi + 1;   /* nearest member is at hi - 1 */
    return 0;
}

/* Bucket scan in bucket order over the occupied buckets only; skips buckets
 * wholly beyond the radius and, when `hostile`, the units of from's team (and
 * buckets holding only its own team's class, which is that one team). */
static void scan(const GotaMatch *m, int from, int32_t radius, int hostile, unit_visit_fn visit, void *ctx)
{
    int32_t x = m->snap_x[from], z = m->snap_z[from];
    int64_t r2 = (int64_t)radius * radius;
    int team = m->unit[from].team;
    int class = hostile ? team_class(team) : 3;
    const uint32_t *rows = m->bucket_rows[class];
    int bz0 = bucket_coord(z - radius), bz1 = bucket_coord(z + radius);
    uint32_t used = m->bucket_rows_used[class] & (uint32_t)(((uint64_t)2 << bz1) - ((uint64_t)1 << bz0));
    if (!used) return;
    int bx0 = bucket_coord(x - radius), bx1 = bucket_coord(x + radius);
    uint32_t cols = (uint32_t)(((uint64_t)2 << bx1) - ((uint64_t)1 << bx0));   /* bits bx0..bx1 */
    for (int bz = bz0; bz <= bz1; bz++) {
        uint32_t occupied = rows[bz] & cols;
        if (!occupied) continue;
        int64_t gz = bucket_gap(z, bz);
        for (; occupied; occupied &= occupied - 1) {
            int bx = __builtin_ctz(occupied);
            int64_t gx = bucket_gap(x, bx);
            if (gx * gx + gz * gz > r2) continue;
            int b = bz * BUCKET_N + bx;
            for (int k = m->bucket_start[b]; k < m->bucket_end[b]; k++) {
                int j = m->bucket_item[k];
                if (j == from || (hostile && m->unit[j].team == team)) continue;
                int64_t d = fx_dist2(x, z, m->snap_x[j], m->snap_z[j]);
                if (d <= r2) visit(m, from, j, d, ctx);
            }
        }
    }
}

void match_scan(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx)
{
    scan(m, from, radius, 0, visit, ctx);
}

void match_scan_hostile(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx)
{
    /* Most scans find no hostile near: answer those here, before scan's
     * setup. A visited unit is within |radius| < 2 spans of from, so its
     * bucket is within 2 buckets of from's on both axes (bucket_coord is a
     * clamped floor), where bucket_near marks every hostile bucket. */
    if (radius < 2 * BUCKET_TILES * GOTA_TILE && radius > -2 * BUCKET_TILES * GOTA_TILE) {
        int bx, bz;
        if (from < m->bucket_units && m->bucket_bz[from] != 0xFF) {
            bx = m->bucket_bx[from];
            bz = m->bucket_bz[from];
        } else {
            bx = bucket_coord(m->snap_x[from]);
            bz = bucket_coord(m->snap_z[from]);
        }
        if (!(m->bucket_near[team_class(m->unit[from].team)][bz] >> bx & 1u)) return;
    }
    scan(m, from, radius, 1, visit, ctx);
}

void nearest_offer(const GotaMatch *m, Nearest *n, int j, int64_t d2)
{
    /* equal distances: the lower id wins (ids grow with spawn order) */
    if (n->slot < 0 || d2 < n->d2 || (d2 == n->d2 && m->unit[j].id < m->unit[n->slot].id)) {
        n->slot = j;
        n->d2 = d2;
    }
}

int unit_slot_of_id(const GotaMatch *m, int32_t id)
{
    if (id >= HERO_ID_BASE && id < HERO_ID_BASE + SEATS) {   /* heroes keep their slots */
        int slot = m->hero_slot[id - HERO_ID_BASE];
        return hero_seat_of_slot(m, slot) == id - HERO_ID_BASE ? slot : -1;
    }
    for (int i = 0; i < m->unit_n; i++)
        if (m->unit[i].kind != GOTA_KIND_NONE && m->unit[i].id == id) return i;
    return -1;
}

int64_t unit_footprint_dist2(const MapBuilding *b, int32_t x, int32_t z)
{
    int64_t best = INT64_MAX;
    for (int k = 0; k < b->footprint_n; k++) {
        int t = b->footprint[k];
        int32_t x0 = (t % MAP_N - MAP_N / 2) * GOTA_TILE, z0 = (t / MAP_N - MAP_N / 2) * GOTA_TILE;
        int32_t cx = x < x0 ? x0 : (x > x0 + GOTA_TILE ? x0 + GOTA_TILE : x);
        int32_t cz = z < z0 ? z0 : (z > z0 + GOTA_TILE ? z0 + GOTA_TILE : z);
        int64_t d = fx_dist2(x, z, cx, cz);
        if (d < best) best = d;
    }
    return best;
}

int64_t unit_building_box_dist2(const GotaMatch *m, int i, int32_t x, int32_t z)
{
    const MapBuilding *b = &m->map->building[i];
    if (b->footprint_n == 0) return INT64_MAX;
    const int32_t *box = b->box;
    int32_t cx = x < box[0] ? box[0] : (x > box[2] ? box[2] : x);
    int32_t cz = z < box[1] ? box[1] : (z > box[3] ? box[3] : z);
    return fx_dist2(x, z, cx, cz);
}

/* The tiles of a filled box make one closed rectangle: its nearest point lies
 * in some tile, which no tile beats, so the distance to the box is the minimum. */
int64_t unit_building_dist2(const GotaMatch *m, int i, int32_t x, int32_t z)
{
    if (!m->map->building[i].box_filled) return unit_footprint_dist2(&m->map->building[i], x, z);
    return unit_building_box_dist2(m, i, x, z);
}

int unit_attack_reach_ok(const GotaMatch *m, int attacker, int target, int32_t ax, int32_t az)
{
    const GotaUnit *t = &m->unit[target];
    int32_t range = m->unit[attacker].range;
    if (t->kind == GOTA_KIND_GOD) {
        int64_t r = range > GOD_REACH ? range : GOD_REACH;
        return fx_dist2(ax, az, t->x, t->z) <= r * r;
    }
    if (t->kind == GOTA_KIND_TOWER || t->kind == GOTA_KIND_BARRACKS) {
        int64_t r = range > BUILDING_MIN_REACH ? range : BUILDING_MIN_REACH;
        return unit_building_dist2(m, m->st[target].building, ax, az) <= r * r;
    }
    return fx_dist2(ax, az, m->snap_x[target], m->snap_z[target]) <= (int64_t)range * range;
}

void unit_stop_swing(GotaMatch *m, int slot)
{
    m->st[slot].swing = -1;
}

/* One tick of attacking `target`, in reach: the counter starts at 0 on the
 * first tick, the hit lands when it reaches the windup, a new swing starts
 * when it reaches the period. */
void unit_swing(GotaMatch *m, int slot, int target)
{
    UnitState *s = &m->st[slot];
    if (m->unit[slot].target_id != m->unit[target].id) {
        m->unit[slot].target_id = m->unit[target].id;
        s->swing = -1;
    }
    if (s->swing < 0) s->swing = 0;
    else if (++s->swing >= s->period) s->swing = 0;
    if (s->swing == s->windup) combat_queue(m, slot, target, m->unit[slot].damage);
}

static void plan(GotaMatch *m, int slot, int32_t gx, int32_t gz)
{
    UnitState *s = &m->st[slot];
    nav_find_path(&m->nav, m->map, m->unit[slot].x, m->unit[slot].z, gx, gz, &s->path);
    s->path_i = 0;
    s->goal_x = gx;
    s->goal_z = gz;
    s->path_revision = m->nav.revision;
    s->stuck = 0;
    s->replan_tick = m->tick + (s->path.n ? CREEP_REPLAN_GOAL : CREEP_REPLAN_FAILED);
}

/* Follow a path toward (gx, gz), replanning under the section 6 rules. */
void unit_move_toward(GotaMatch *m, int slot, int32_t gx, int32_t gz)
{
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    /* the cheap tests first: the goal's tile (two divisions) is looked up
     * only when nothing else already asks for a replan */
    if (m->tick >= s->replan_tick &&
        (s->path_i >= s->path.n || s->path_revision != m->nav.revision || s->stuck >= CREEP_STUCK_TICKS ||
         map_index_of(gx, gz) != map_index_of(s->goal_x, s->goal_z)))
        plan(m, slot, gx, gz);
    if (s->path_i >= s->path.n) return;
    int32_t px = u->x, pz = u->z;
    int32_t wx = s->path.x[s->path_i], wz = s->path.z[s->path_i];
    if (nav_steer(&m->nav, m->map, &u->x, &u->z, &u->facing, &s->face, wx, wz, s->speed)) s->path_i++;
    s->stuck = (u->x == px && u->z == pz) ? s->stuck + 1 : 0;
}
