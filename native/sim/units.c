/*
 * units.c -- what every unit kind shares: slots and ids, the event log, the
 * per-tick snapshot with its spatial buckets, hostile scans, attack reach
 * (docs/rules.md section 3.1: centre range for units, max(range, 105,000) to the
 * nearest point of a tower or barracks footprint, 255,000 to a god's centre),
 * the swing counter, and path following for mobile units (docs/rules.md section 6:
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
    uint32_t b = (uint32_t)w / BUCKET_SPAN;
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
_Static_assert(((BUCKET_N - 1) << 7 | 31 << 2 | 3) <= INT16_MAX, "a bucket key fits int16_t");

enum { BUCKETS = BUCKET_N * BUCKET_N };   /* bucket index BUCKETS: "not bucketed", past every bucket */

/* bucket_key's bucket: BUCKETS for 0 */
static int bucket_of_key(int key)
{
    return key ? (key >> 7) * BUCKET_N + (key >> 2 & 31) : BUCKETS;
}

static int bucket_occupied(const GotaMatch *m, int b)
{
    return m->bucket_rows[3][b / BUCKET_N] >> (b % BUCKET_N) & 1u;
}

/* The first occupied bucket after b, BUCKETS when none. */
static int bucket_next(const GotaMatch *m, int b)
{
    b++;
    for (int bz = b / BUCKET_N; bz < BUCKET_N; bz++) {
        uint32_t used = m->bucket_rows[3][bz];
        if (bz == b / BUCKET_N) used &= ~0u << (b % BUCKET_N);
        if (used) return bz * BUCKET_N + __builtin_ctz(used);
    }
    return BUCKETS;
}

/* Moves the bounds of every occupied bucket strictly between lo and hi. */
static void bucket_shift(GotaMatch *m, int lo, int hi, int delta)
{
    for (int b = bucket_next(m, lo); b < hi; b = bucket_next(m, b)) {
        m->bucket_start[b] = (int16_t)(m->bucket_start[b] + delta);
        m->bucket_end[b] = (int16_t)(m->bucket_end[b] + delta);
    }
}

static void bucket_set_occupied(GotaMatch *m, int b, int occupied)
{
    uint32_t bit = 1u << (b % BUCKET_N);
    uint32_t *row = &m->bucket_rows[3][b / BUCKET_N];
    *row = occupied ? *row | bit : *row & ~bit;
    if (!occupied) m->bucket_start[b] = m->bucket_end[b] = 0;
}

/* Slot i from bucket a to bucket b (a != b, either may be BUCKETS), keeping
 * the layout a counting sort of the bucketed slots would make: only the
 * items between i's old and new places shift, and the buckets between. */
static void bucket_move(GotaMatch *m, int i, int a, int b)
{
    int16_t *start = m->bucket_start, *end = m->bucket_end;
    int32_t *item = m->bucket_item;
    int total = m->bucket_total;
    int p = total;                      /* i's place now: past the end when not bucketed */
    if (a < BUCKETS)
        for (p = start[a]; item[p] != i; p++) {}
    int g = total;                      /* i's place in b, counted in the old order */
    int b_occupied = b < BUCKETS && bucket_occupied(m, b);
    if (b_occupied) {
        for (g = start[b]; g < end[b] && item[g] < i; g++) {}
    } else if (b < BUCKETS) {
        int next = bucket_next(m, b);
        g = next < BUCKETS ? start[next] : total;
    }
    if (a < b) {
        memmove(&item[p], &item[p + 1], (size_t)(g - 1 - p) * sizeof *item);
        item[g - 1] = i;
        if (--end[a] == start[a]) bucket_set_occupied(m, a, 0);
        bucket_shift(m, a, b, -1);
        if (b == BUCKETS) {
            m->bucket_total--;
        } else if (b_occupied) {
            start[b]--;
        } else {
            start[b] = (int16_t)(g - 1);
            end[b] = (int16_t)g;
            bucket_set_occupied(m, b, 1);
        }
    } else {
        memmove(&item[g + 1], &item[g], (size_t)(p - g) * sizeof *item);
        item[g] = i;
        if (a == BUCKETS) m->bucket_total++;
        else if (++start[a] == end[a]) bucket_set_occupied(m, a, 0);
        bucket_shift(m, b, a, 1);
        if (b_occupied) {
            end[b]++;
        } else {
            start[b] = (int16_t)g;
            end[b] = (int16_t)(g + 1);
            bucket_set_occupied(m, b, 1);
        }
    }
}

/* bucket_near of one row: the class's rows bz - 2 .. bz + 2 OR-ed, then
 * widened by 2 buckets each way along x (64 bits: nothing shifts out) */
static uint32_t bucket_near_row(const uint32_t *rows, int bz)
{
    uint64_t v = 0;
    for (int r = bz - 2; r <= bz + 2; r++)
        if (r >= 0 && r < BUCKET_N) v |= rows[r];
    uint64_t w = v | v << 1;            /* v shifted by 0..1 */
    w |= w << 2 | v << 4;               /* 0..4 */
    return (uint32_t)(w >> 2);
}

/* Row bz's hostile masks from its units' classes; returns the classes whose
 * mask changed (bit c). */
static unsigned bucket_row_classes(GotaMatch *m, int bz)
{
    uint32_t has[3] = {0, 0, 0};
    for (uint32_t used = m->bucket_rows[3][bz]; used; used &= used - 1) {
        int bx = __builtin_ctz(used), b = bz * BUCKET_N + bx;
        for (int k = m->bucket_start[b]; k < m->bucket_end[b]; k++)
            has[(m->bucket_key[m->bucket_item[k]] & 3) - 1] |= 1u << bx;
    }
    uint32_t hostile[3] = {has[1] | has[2], has[0] | has[2], has[0] | has[1]};
    unsigned changed = 0;
    for (int c = 0; c < 3; c++) {
        changed |= (unsigned)(hostile[c] != m->bucket_rows[c][bz]) << c;
        m->bucket_rows[c][bz] = hostile[c];
    }
    return changed;
}

/* Slot i's new bucket_key: its move in the layout; returns the rows touched.
 * Out of line: the build's loop stays small for the many units that stay. */
__attribute__((noinline)) static uint32_t bucket_rekey(GotaMatch *m, int i, int key)
{
    int old = m->bucket_key[i];
    int a = bucket_of_key(old), b = bucket_of_key(key);
    if (a != b) bucket_move(m, i, a, b);
    m->bucket_key[i] = (int16_t)key;
    return (old ? 1u << (old >> 7) : 0) | (key ? 1u << (key >> 7) : 0);
}

/* The snapshot: every slot's position, and over them the living mobile units
 * by bucket, the row masks of the buckets holding each class's hostiles, and
 * bucket_near, in the same pass. A unit moves in the layout only when its
 * bucket or class changed since the last build (a few a tick); masks are
 * redone for the rows such a change touched. */
void match_snapshot(GotaMatch *m)
{
    uint32_t touched = 0;               /* bit bz: row bz gained or lost a unit */
    int n = m->unit_n;
    for (int i = 0; i < n; i++) {
        const GotaUnit *u = &m->unit[i];
        int32_t x = u->x, z = u->z;
        m->snap_x[i] = x;
        m->snap_z[i] = z;
        int key = 0;
        if (u->alive && is_mobile(u->kind))
            key = bucket_coord(z) << 7 | bucket_coord(x) << 2 | (team_class(u->team) + 1);
        if (key != m->bucket_key[i]) touched |= bucket_rekey(m, i, key);
    }
    for (int i = n; i < m->bucket_slots; i++)
        if (m->bucket_key[i]) touched |= bucket_rekey(m, i, 0);
    m->bucket_slots = n;
    uint32_t near_dirty[3] = {0, 0, 0};    /* per class, bit bz: bucket_near row to redo */
    for (; touched; touched &= touched - 1) {
        int bz = __builtin_ctz(touched);
        unsigned changed = bucket_row_classes(m, bz);
        uint32_t around = (uint32_t)((uint64_t)0x1F << bz >> 2);   /* rows bz - 2 .. bz + 2 */
        for (int c = 0; c < 3; c++)
            if (changed >> c & 1u) near_dirty[c] |= around;
    }
    for (int c = 0; c < 3; c++)
        for (uint32_t rows = near_dirty[c] & (uint32_t)(((uint64_t)1 << BUCKET_N) - 1); rows; rows &= rows - 1) {
            int bz = __builtin_ctz(rows);
            m->bucket_near[c][bz] = bucket_near_row(m->bucket_rows[c], bz);
        }
}

/* Distance from v to the world span of bucket row/column c along one axis;
 * the edge buckets also hold everything beyond the map (bucket_coord clamps). */
static int64_t bucket_gap(int32_t v, int c)
{
    const int32_t span = BUCKET_SPAN;
    int64_t lo = (int64_t)c * span - MAP_HALF_WORLD, hi = lo + span;
    if (c > 0 && v < lo) return lo - v;
    if (c < BUCKET_N - 1 && v >= hi) return (int64_t)v - hi + 1;   /* nearest member is at hi - 1 */
    return 0;
}

/* scan's loop over the occupied buckets of rows bz0..bz1 and columns `cols`
 * in bucket order: skips buckets wholly beyond the radius and, when
 * `hostile`, the units of from's team. Out of line: its setup is paid only
 * by the scans that have such a bucket. */
__attribute__((noinline)) static void scan_buckets(const GotaMatch *m, int from, int32_t radius, int hostile, const uint32_t *rows, int bz0,
                         int bz1, uint32_t cols, unit_visit_fn visit, void *ctx)
{
    int32_t x = m->snap_x[from], z = m->snap_z[from];
    int64_t r2 = (int64_t)radius * radius;
    int team = m->unit[from].team;
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

/* Bucket scan over the buckets the radius' square covers; when `hostile`,
 * only those holding another class than from's (which is one team). Most
 * find no such bucket there: that answer comes before scan_buckets' setup. */
static void scan(const GotaMatch *m, int from, int32_t radius, int hostile, unit_visit_fn visit, void *ctx)
{
    int32_t x = m->snap_x[from], z = m->snap_z[from];
    const uint32_t *rows = m->bucket_rows[hostile ? team_class(m->unit[from].team) : 3];
    int bz0 = bucket_coord(z - radius), bz1 = bucket_coord(z + radius);
    uint32_t any = 0;
    for (int bz = bz0; bz <= bz1; bz++) any |= rows[bz];
    if (!any) return;
    int bx0 = bucket_coord(x - radius), bx1 = bucket_coord(x + radius);
    uint32_t cols = (uint32_t)(((uint64_t)2 << bx1) - ((uint64_t)1 << bx0));   /* bits bx0..bx1 */
    if (any & cols) scan_buckets(m, from, radius, hostile, rows, bz0, bz1, cols, visit, ctx);
}

void match_scan(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx)
{
    scan(m, from, radius, 0, visit, ctx);
}

void match_scan_hostile_full(const GotaMatch *m, int from, int32_t radius, unit_visit_fn visit, void *ctx)
{
    /* match_scan_hostile's early answer for a unit not bucketed (a building,
     * or one spawned after the build): from its snapshot position's bucket */
    if (!m->bucket_key[from] && radius < 2 * BUCKET_SPAN && radius > -2 * BUCKET_SPAN) {
        int bx = bucket_coord(m->snap_x[from]), bz = bucket_coord(m->snap_z[from]);
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

/* The tiles of a filled box make one closed rectangle: its nearest point lies
 * in some tile, which no tile beats, so the distance to the box is the minimum. */
int64_t unit_building_dist2(const GotaMatch *m, int i, int32_t x, int32_t z)
{
    if (!m->map->building[i].box_filled) return unit_footprint_dist2(&m->map->building[i], x, z);
    return unit_building_box_dist2(m, i, x, z);
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

/* Follow a path toward (gx, gz), replanning under the rules of docs/rules.md section 6. */
void unit_move_toward(GotaMatch *m, int slot, int32_t gx, int32_t gz)
{
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    /* the cheap tests first: the goal's tile (divisions) is looked up only
     * when nothing else already asks for a replan */
    if (m->tick >= s->replan_tick &&
        (s->path_i >= s->path.n || s->path_revision != m->nav.revision || s->stuck >= CREEP_STUCK_TICKS ||
         unit_goal_tile_changed(gx, gz, s->goal_x, s->goal_z)))
        plan(m, slot, gx, gz);
    if (s->path_i >= s->path.n) return;
    int32_t px = u->x, pz = u->z;
    int32_t wx = s->path.x[s->path_i], wz = s->path.z[s->path_i];
    if (nav_steer(&m->nav, m->map, &u->x, &u->z, &u->facing, &s->face, wx, wz, s->speed)) s->path_i++;
    s->stuck = (u->x == px && u->z == pz) ? s->stuck + 1 : 0;
}
