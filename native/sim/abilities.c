/*
 * abilities.c -- casting the 40 abilities and resolving the spells in flight
 * (docs/rules.md section 3.2).
 *
 * Units: world units (60,000 per tile), ticks (24 per second), directions as
 * Q16 unit vectors (65,536 = 1), facings as binary angles (65,536 per turn),
 * terrain heights in 1/8 tile (7,500 world units). Numbers: content.c
 * (AbilityDef) and spell.h (SPELL_*); projectiles fly 45,000 units per tick.
 *
 * Casting (ability_cast_target / ability_cast_point, called between ticks):
 *   the state checks are ability_cast_check, the one answer to "can this hero
 *   cast this ability now" (the action mask and the observation's castable
 *   feature ask it too): seat without a hero -> NO_HERO; a finished match ->
 *   MATCH_OVER (match_command answers so first); ability slot outside 0..3 ->
 *   BAD_SLOT (checked before any per-slot field, so no bad index is ever
 *   read); then the rules' order: DEAD, CHANNELING, STUNNED, SILENCED,
 *   NOT_LEARNED (rank 0), TOO_MANY_SPELLS (512 live), COOLDOWN, NO_CHARGES,
 *   NO_MANA; self-casts then FULL (Heal at full HP, Restore at full mana).
 *   The aim checks of an object target are ability_target_check's (the mask
 *   asks it per target slot). Object targets: BAD_TARGET
 *   (no unit with that id, dead, unexposed structure, returning neutral),
 *   NOT_VISIBLE, BAD_TARGET (an ally for a strike; anything but an allied hero
 *   for a heal), OUT_OF_RANGE (centre to centre, current positions). Ground
 *   points: BAD_POINT outside the map (rim margin kept), pulled back to range
 *   along the line from the caster, NOT_VISIBLE unless the final point's tile
 *   is visible to the team. An accepted cast pays mana, spends a charge
 *   (starting the recharge timer if idle), sets the cooldown, turns the caster
 *   to the aim, resets its swing and appends a Spell (self-casts apply at once).
 *
 * Resolution (spells_update, after the unit phase, before combat): a spell
 * resolves on the first tick with m->tick >= impact_tick. Damage is queued
 * (combat_queue_hit, HIT_ABILITY, with the ability's stun/root/silence); heals
 * apply directly. Positions are the tick's snapshot (snap_x/snap_z) for mobile
 * units, the fixed centre for buildings and gods. Spells keep their order in
 * m->spell (stable compaction), so resolution is deterministic.
 *
 * Shapes are tested in the spell frame: z forward along dir, x lateral, both
 * (offset . dir) / 65,536 rounded to the nearest world unit, so every test is
 * exact integer arithmetic on small numbers. Circle: d^2 <= r^2; ring:
 * inner^2 <= d^2 <= outer^2 (d exact, unrounded); sector: d^2 <= r^2, z >= 0
 * and |angle| <= angle/2 tested as q x^2 <= p z^2 with tan^2(angle/2) = p/q
 * (90 deg: 1/1, 120 deg: 3/1, exact; other angles hit nothing -- the content
 * uses only these two, a test checks it); line: 2|x| <= width, 0 <= z <=
 * length; capsule: distance to the segment z in [0, length] <= width/2.
 * Area occupants must also stand within 60,000 world units of height (tile
 * terrain) of the spell's centre.
 *
 * Choices where the rules are silent:
 * - BAD_SLOT comes first of all (a malformed command), before DEAD.
 * - The 512-spell limit is checked for self-casts too (the rules' order),
 *   though they create no spell.
 * - Abilities with cast range 0 (self-casts, and the shapes centred on the
 *   caster: Inferno Aegis, Dark Eclipse) take no aim: any target id and any
 *   point are accepted and ignored.
 * - The caster's own units are always visible to it (also before the first
 *   tick's vision); an ally hero or the caster itself is a valid heal target.
 * - Every accepted cast resets the caster's swing (self-casts too) but keeps
 *   its attack target and orders. Self-casts do not turn the caster.
 * - An aim on the caster's own position takes the caster's facing as the
 *   direction (CORDIC, below).
 * - Rings aimed at a point or unit (Bound Void, Void Portal) shift their centre
 *   back toward the caster by (inner + outer) / 2, for cast_point too, so the
 *   aim always sits in the band.
 * - Area spells lock centre, direction and height at cast; the centre's height
 *   is that of its tile (clamped to the map).
 * - Targeted projectiles keep their impact tick from the cast and home on the
 *   target's snapshot position; a target that died, left (slot reused) or
 *   became unattackable takes nothing and the projectile vanishes at impact.
 * - Ground-aimed projectiles and melee strikes start at the caster's position
 *   at cast (origin); the first sweep happens on the tick after the cast. A
 *   sweep's candidates are every non-allied attackable unit, building and god
 *   whose centre is within 15,000 of the segment flown this tick; the one
 *   nearest to the tick's start point is hit (equal distances: lower id). No
 *   height test for sweeps and single-target strikes.
 * - A dead caster's spells stay in flight and resolve normally; the hits are
 *   still credited to its hero slot.
 */
#include <string.h>
#include "world.h"
#include "fixmath.h"

#define Q16 65536
#define HEIGHT8_WORLD 7500      /* world units per 1/8 tile of height */
#define BOX_MARGIN 1024         /* candidate box slack over the frame rounding */

static const AbilityDef *spell_ability(const Spell *s)
{
    return &HERO_CLASS[s->cls].ability[s->ability];
}

/* min(a, b) where the smaller one fits int32 */
static int32_t lesser(int64_t a, int64_t b)
{
    return (int32_t)(a < b ? a : b);
}

/* ceil(sqrt(v)) */
static int64_t ceil_sqrt(uint64_t v)
{
    uint64_t r = fx_isqrt64(v);
    return (int64_t)(r * r < v ? r + 1 : r);
}

/* v / 65,536 rounded to nearest, halves away from zero (symmetric). */
static int64_t q16_round(int64_t v)
{
    return v >= 0 ? (v + Q16 / 2) / Q16 : -((-v + Q16 / 2) / Q16);
}

/* Q16 unit vector of a binary angle: CORDIC in rotation mode, 16 steps, gain
 * pre-applied (0.60725 * 65,536); good to a few units of 65,536. */
static void dir_of_angle(int32_t angle, int32_t *dx, int32_t *dz)
{
    /* atan(2^-i) in binary angle units * 256 */
    static const int32_t atan_tab[16] = {
        2097152, 1238021, 654136, 332050, 166669, 83416, 41718, 20860,
        10430, 5215, 2608, 1304, 652, 326, 163, 81 };
    int32_t a = angle & 0xFFFF, flip = 0;
    if (a >= 16384 && a < 49152) {   /* rotate by half a turn into [-90, 90] degrees */
        a -= 32768;
        flip = 1;
    } else if (a >= 49152) {
        a -= 65536;
    }
    int64_t x = 39797, z = 0, rest = (int64_t)a * 256;
    for (int i = 0; i < 16; i++) {
        int64_t sx = x / ((int64_t)1 << i), sz = z / ((int64_t)1 << i);
        if (rest >= 0) { x -= sz; z += sx; rest -= atan_tab[i]; }
        else { x += sz; z -= sx; rest += atan_tab[i]; }
    }
    *dx = (int32_t)(flip ? -x : x);
    *dz = (int32_t)(flip ? -z : z);
}

/* ---- geometry ------------------------------------------------------------ */
typedef struct { int64_t x, z; } Frame;   /* lateral, forward; world units */

static Frame frame_at(int32_t ox, int32_t oz, int32_t dir_x, int32_t dir_z, int32_t px, int32_t pz)
{
    int64_t rx = (int64_t)px - ox, rz = (int64_t)pz - oz;
    return (Frame){q16_round(rz * dir_x - rx * dir_z), q16_round(rx * dir_x + rz * dir_z)};
}

/* Within width/2 of the frame segment z in [z0, z1] on the axis. */
static int capsule_has(Frame f, int64_t z0, int64_t z1, int64_t width)
{
    int64_t dz = f.z < z0 ? f.z - z0 : (f.z > z1 ? f.z - z1 : 0);
    return 4 * (f.x * f.x + dz * dz) <= width * width;
}

/* tan^2 of half the sector angle as p / q, for the angles with an exact form. */
static int sector_tan2(int32_t angle, int64_t *p, int64_t *q)
{
    switch (angle) {
    case 90: *p = 1; *q = 1; return 1;    /* tan 45 = 1 */
    case 120: *p = 3; *q = 1; return 1;   /* tan 60 = sqrt 3 */
    default: return 0;
    }
}

int ability_shape_contains(const Spell *s, const AbilityDef *a, int32_t x, int32_t z)
{
    int64_t d2 = fx_dist2(s->x, s->z, x, z), r2 = (int64_t)a->radius * a->radius;
    Frame f = frame_at(s->x, s->z, s->dir_x, s->dir_z, x, z);
    int64_t p, q;
    switch (a->shape) {
    case SHAPE_CIRCLE: return d2 <= r2;
    case SHAPE_RING: return d2 <= r2 && d2 >= (int64_t)a->inner * a->inner;
    case SHAPE_SECTOR:
        return d2 <= r2 && f.z >= 0 && sector_tan2(a->angle, &p, &q) && q * f.x * f.x <= p * f.z * f.z;
    case SHAPE_LINE: return f.z >= 0 && f.z <= a->radius && 2 * (f.x < 0 ? -f.x : f.x) <= a->width;
    case SHAPE_CAPSULE: return capsule_has(f, 0, a->radius, a->width);
    default: return 0;
    }
}

/* Distance from the centre that bounds the shape. */
static int32_t shape_reach(const AbilityDef *a)
{
    return a->shape == SHAPE_LINE || a->shape == SHAPE_CAPSULE ? a->radius + a->width / 2 : a->radius;
}

static int32_t height8_at(const GotaMatch *m, int32_t x, int32_t z)
{
    int tx = map_tile_of(x), tz = map_tile_of(z);
    tx = tx < 0 ? 0 : (tx >= MAP_N ? MAP_N - 1 : tx);
    tz = tz < 0 ? 0 : (tz >= MAP_N ? MAP_N - 1 : tz);
    return m->map->height8[map_index(tx, tz)];
}

static int height_ok(const GotaMatch *m, const Spell *s, int32_t x, int32_t z)
{
    int32_t dh = (height8_at(m, x, z) - s->height8) * HEIGHT8_WORLD;
    return dh <= SPELL_HEIGHT_TOLERANCE && dh >= -SPELL_HEIGHT_TOLERANCE;
}

/* ---- candidates ---------------------------------------------------------- */
typedef struct { int32_t slot, x, z; } Cand;
#define CAND_MAX (GOTA_MAX_UNITS + MAP_BUILDINGS)

static int bucket_coord(int32_t v)
{
    int b = map_tile_of(v) / BUCKET_TILES;
    return b < 0 ? 0 : (b >= BUCKET_N ? BUCKET_N - 1 : b);
}

/* Units that may lie in the box: the living mobile units of the snapshot's
 * buckets (at their snapshot positions; units spawned after the snapshot are
 * not there yet), then every living building and god. */
static int gather(const GotaMatch *m, int64_t x0, int64_t z0, int64_t x1, int64_t z1, Cand *out)
{
    int n = 0;
    int bx0 = bucket_coord((int32_t)(x0 < -MAP_HALF_WORLD ? -MAP_HALF_WORLD : x0));
    int bx1 = bucket_coord((int32_t)(x1 > MAP_HALF_WORLD ? MAP_HALF_WORLD : x1));
    int bz0 = bucket_coord((int32_t)(z0 < -MAP_HALF_WORLD ? -MAP_HALF_WORLD : z0));
    int bz1 = bucket_coord((int32_t)(z1 > MAP_HALF_WORLD ? MAP_HALF_WORLD : z1));
    for (int bz = bz0; bz <= bz1; bz++)
        for (int bx = bx0; bx <= bx1; bx++) {
            int b = bz * BUCKET_N + bx;
            for (int k = m->bucket_start[b]; k < m->bucket_end[b]; k++) {
                int j = m->bucket_item[k];
                if (m->unit[j].alive) out[n++] = (Cand){j, m->snap_x[j], m->snap_z[j]};
            }
        }
    for (int i = 0; i < m->map->building_n; i++) {
        int j = m->building_slot[i];
        if (m->unit[j].alive) out[n++] = (Cand){j, m->unit[j].x, m->unit[j].z};
    }
    return n;
}

/* Enemy or neutral, alive and damageable. */
static int strike_ok(const GotaMatch *m, const Spell *s, int slot)
{
    return m->unit[slot].team != s->team && unit_attackable(m, slot);
}

static void strike(GotaMatch *m, const Spell *s, const AbilityDef *a, int target)
{
    combat_queue_hit(m, s->caster, target, s->amount, HIT_ABILITY, a->stun, a->root, a->silence);
}

/* Heal adds HP, Restore mana; both capped at the maximum. The HP a heal
 * adds counts in the healer's stats.healing (a reward signal, not state). */
static void restore(GotaMatch *m, int healer, int seat, int effect, int32_t amount)
{
    HeroState *h = &m->hero[seat];
    GotaUnit *u = &m->unit[m->hero_slot[seat]];
    if (effect == EFFECT_RESTORE) {
        h->mana = lesser((int64_t)h->mana + amount, h->max_mana);
    } else {
        int32_t before = u->hp;
        u->hp = lesser((int64_t)u->hp + amount, u->max_hp);
        m->hero[healer].stats.healing += u->hp - before;
    }
}

/* The homing target still names the same living, attackable unit. */
static int target_live(const GotaMatch *m, const Spell *s)
{
    int t = s->target;
    return t >= 0 && t < GOTA_MAX_UNITS && m->unit[t].id == s->target_id && unit_attackable(m, t);
}

/* ---- resolution ---------------------------------------------------------- */
static void area_resolve(GotaMatch *m, const Spell *s, const AbilityDef *a)
{
    if (a->effect != EFFECT_DAMAGE) {   /* heals: allied heroes inside */
        for (int seat = 0; seat < SEATS; seat++) {
            int j = m->hero_slot[seat];
            if (hero_seat_of_slot(m, j) != seat || m->unit[j].team != s->team || !m->unit[j].alive) continue;
            if (height_ok(m, s, m->snap_x[j], m->snap_z[j]) && ability_shape_contains(s, a, m->snap_x[j], m->snap_z[j]))
                restore(m, s->seat, seat, a->effect, s->amount);
        }
        return;
    }
    Cand c[CAND_MAX];
    int64_t reach = shape_reach(a) + BOX_MARGIN;
    int n = gather(m, s->x - reach, s->z - reach, s->x + reach, s->z + reach, c);
    for (int k = 0; k < n; k++)
        if (strike_ok(m, s, c[k].slot) && height_ok(m, s, c[k].x, c[k].z) && ability_shape_contains(s, a, c[k].x, c[k].z))
            strike(m, s, a, c[k].slot);
}

/* The enemy nearest to frame point (0, z_near) inside the capsule of `width`
 * around the flight segment [z0, z1] from the origin; -1 when none. */
static int first_in_capsule(const GotaMatch *m, const Spell *s, int64_t z0, int64_t z1, int64_t width)
{
    int64_t reach = z1 + width / 2 + BOX_MARGIN;
    Cand c[CAND_MAX];
    int n = gather(m, s->origin_x - reach, s->origin_z - reach, s->origin_x + reach, s->origin_z + reach, c);
    Nearest best = {-1, 0};
    for (int k = 0; k < n; k++) {
        if (!strike_ok(m, s, c[k].slot)) continue;
        Frame f = frame_at(s->origin_x, s->origin_z, s->dir_x, s->dir_z, c[k].x, c[k].z);
        if (capsule_has(f, z0, z1, width)) nearest_offer(m, &best, c[k].slot, f.x * f.x + (f.z - z0) * (f.z - z0));
    }
    return best.slot;
}

/* Ground-aimed projectile: one tick of flight along origin -> aim. */
static int sweep_step(GotaMatch *m, Spell *s, const AbilityDef *a)
{
    int64_t len = ceil_sqrt((uint64_t)fx_dist2(s->origin_x, s->origin_z, s->aim_x, s->aim_z));
    int64_t t = (int64_t)m->tick - s->cast_tick;
    int due = m->tick >= s->impact_tick;
    int64_t z0 = lesser(len, PROJECTILE_SPEED * (t - 1)), z1 = due ? len : lesser(len, PROJECTILE_SPEED * t);
    if (z0 < 0) z0 = 0;
    if (len > 0) {
        s->x = s->origin_x + (int32_t)(((int64_t)s->aim_x - s->origin_x) * z1 / len);
        s->z = s->origin_z + (int32_t)(((int64_t)s->aim_z - s->origin_z) * z1 / len);
    }
    int hit = first_in_capsule(m, s, z0, z1, 2 * SPELL_SWEEP_RADIUS);
    if (hit >= 0) strike(m, s, a, hit);
    return hit >= 0 || due;
}

/* Targeted projectile: home on the target, hit at impact. */
static int homing_step(GotaMatch *m, Spell *s, const AbilityDef *a)
{
    int live = target_live(m, s);
    if (m->tick >= s->impact_tick) {
        if (live) strike(m, s, a, s->target);
        return 1;
    }
    if (live) {
        int32_t tx = m->snap_x[s->target], tz = m->snap_z[s->target];
        int64_t d2 = fx_dist2(s->x, s->z, tx, tz);
        if (d2 <= (int64_t)PROJECTILE_SPEED * PROJECTILE_SPEED) {
            s->x = tx;
            s->z = tz;
        } else {
            int64_t d = fx_isqrt64((uint64_t)d2);
            s->x += (int32_t)(((int64_t)tx - s->x) * PROJECTILE_SPEED / d);
            s->z += (int32_t)(((int64_t)tz - s->z) * PROJECTILE_SPEED / d);
        }
    }
    return 0;
}

/* One tick of a spell; 1 when it is done. */
static int spell_step(GotaMatch *m, Spell *s)
{
    const AbilityDef *a = spell_ability(s);
    if (a->cast == CAST_PROJECTILE) return s->target >= 0 ? homing_step(m, s, a) : sweep_step(m, s, a);
    if (m->tick < s->impact_tick) return 0;
    if (a->cast == CAST_AREA) {
        area_resolve(m, s, a);
    } else if (s->target >= 0) {   /* targeted melee */
        if (target_live(m, s)) strike(m, s, a, s->target);
    } else {                       /* ground-aimed melee: nearest enemy to the caster */
        int64_t len = ceil_sqrt((uint64_t)fx_dist2(s->origin_x, s->origin_z, s->aim_x, s->aim_z));
        int hit = first_in_capsule(m, s, 0, len, SPELL_GROUND_MELEE_WIDTH);
        if (hit >= 0) strike(m, s, a, hit);
    }
    return 1;
}

void spells_update(GotaMatch *m)
{
    int kept = 0;
    for (int i = 0; i < m->spell_n; i++) {
        if (spell_step(m, &m->spell[i])) continue;
        if (kept != i) m->spell[kept] = m->spell[i];
        kept++;
    }
    m->spell_n = kept;
}

/* ---- casting ------------------------------------------------------------- */
typedef struct {
    int seat, slot, caster;
    HeroState *h;
    GotaUnit *u;
    const AbilityDef *a;
} Caster;

int ability_cast_check(const GotaMatch *m, int seat, int slot)
{
    if (!m || seat < 0 || seat >= SEATS || hero_seat_of_slot(m, m->hero_slot[seat]) != seat) return GOTA_ACT_NO_HERO;
    if (m->result != GOTA_RESULT_RUNNING) return GOTA_ACT_MATCH_OVER;
    if (slot < 0 || slot >= HERO_ABILITIES) return GOTA_ACT_BAD_SLOT;
    const HeroState *h = &m->hero[seat];
    const GotaUnit *u = &m->unit[m->hero_slot[seat]];
    const AbilityDef *a = &HERO_CLASS[h->cls].ability[slot];
    if (!u->alive) return GOTA_ACT_DEAD;
    if (h->channel > 0) return GOTA_ACT_CHANNELING;
    if (h->stun > 0) return GOTA_ACT_STUNNED;
    if (h->silence > 0) return GOTA_ACT_SILENCED;
    if (h->rank[slot] < 1) return GOTA_ACT_NOT_LEARNED;
    if (m->spell_n >= SPELL_MAX) return GOTA_ACT_TOO_MANY_SPELLS;
    if (h->cooldown[slot] > 0) return GOTA_ACT_COOLDOWN;
    if (h->charges[slot] <= 0) return GOTA_ACT_NO_CHARGES;
    if (h->mana < a->mana) return GOTA_ACT_NO_MANA;
    if (a->cast == CAST_SELF && (a->effect == EFFECT_RESTORE ? h->mana >= h->max_mana : u->hp >= u->max_hp))
        return GOTA_ACT_FULL;
    return GOTA_ACT_OK;
}

/* The checks of an aim at unit slot t (-1: no such unit) by caster unit u
 * with ability a, in the rules' order. */
static int aim_check(const GotaMatch *m, const GotaUnit *u, const AbilityDef *a, int t)
{
    if (t < 0 || !unit_attackable(m, t)) return GOTA_ACT_BAD_TARGET;
    const GotaUnit *tu = &m->unit[t];
    if (tu->team != u->team && !unit_visible_to(m, u->team, t)) return GOTA_ACT_NOT_VISIBLE;
    int fits = a->effect == EFFECT_DAMAGE ? tu->team != u->team : tu->team == u->team && tu->kind == GOTA_KIND_HERO;
    if (!fits) return GOTA_ACT_BAD_TARGET;
    if (fx_dist2(u->x, u->z, tu->x, tu->z) > (int64_t)a->range * a->range) return GOTA_ACT_OUT_OF_RANGE;
    return GOTA_ACT_OK;
}

int ability_target_check(const GotaMatch *m, int seat, int slot, int t)
{
    const AbilityDef *a = &HERO_CLASS[m->hero[seat].cls].ability[slot];
    if (a->cast == CAST_SELF || a->range == 0) return GOTA_ACT_OK;   /* no aim: any target is ignored */
    return aim_check(m, &m->unit[m->hero_slot[seat]], a, t < m->unit_n ? t : -1);
}

/* ability_cast_check, then the caster's parts for the cast. */
static int cast_begin(GotaMatch *m, int seat, int slot, Caster *c)
{
    int err = ability_cast_check(m, seat, slot);
    if (err != GOTA_ACT_OK) return err;
    c->seat = seat;
    c->slot = slot;
    c->caster = m->hero_slot[seat];
    c->h = &m->hero[seat];
    c->u = &m->unit[c->caster];
    c->a = &HERO_CLASS[c->h->cls].ability[slot];
    return GOTA_ACT_OK;
}

/* Mana, a charge (the recharge timer starts if idle), the cooldown; the swing
 * restarts. */
static void pay(GotaMatch *m, const Caster *c)
{
    HeroState *h = c->h;
    h->mana -= c->a->mana;
    h->charges[c->slot]--;
    if (h->recharge[c->slot] == 0) h->recharge[c->slot] = c->a->recharge;
    h->cooldown[c->slot] = c->a->cooldown;
    unit_stop_swing(m, c->caster);
}

static int self_cast(GotaMatch *m, const Caster *c)
{
    pay(m, c);
    restore(m, c->seat, c->seat, c->a->effect, ability_scaled(c->a->amount, c->h->rank[c->slot]));
    return GOTA_ACT_OK;
}

/* Create the spell aimed at (ax, az); target: homing slot or -1. */
static int launch(GotaMatch *m, const Caster *c, int32_t ax, int32_t az, int target)
{
    const AbilityDef *a = c->a;
    GotaUnit *u = c->u;
    nav_facing_settle(&u->facing, &m->st[c->caster].face);
    Spell *s = &m->spell[m->spell_n++];
    memset(s, 0, sizeof *s);
    int64_t dx = (int64_t)ax - u->x, dz = (int64_t)az - u->z;
    int64_t d2 = dx * dx + dz * dz;
    if (d2 > 0) {
        int64_t len = fx_isqrt64((uint64_t)d2);   /* >= |dx|, |dz|: components stay within 65,536 */
        s->dir_x = (int32_t)(dx * Q16 / len);
        s->dir_z = (int32_t)(dz * Q16 / len);
        unit_set_facing(m, c->caster, fx_atan2(dz, dx));
    } else {
        dir_of_angle(u->facing, &s->dir_x, &s->dir_z);
    }
    s->caster = c->caster;
    s->caster_id = u->id;
    s->team = u->team;
    s->seat = c->seat;
    s->cls = c->h->cls;
    s->ability = c->slot;
    s->rank = c->h->rank[c->slot];
    s->target = target;
    s->target_id = target >= 0 ? m->unit[target].id : -1;
    s->aim_x = ax;
    s->aim_z = az;
    s->origin_x = u->x;
    s->origin_z = u->z;
    s->amount = ability_scaled(a->amount, s->rank);
    s->cast_tick = m->tick;
    s->impact_tick = m->tick + a->delay;
    if (a->cast == CAST_PROJECTILE) {
        int64_t flight = (ceil_sqrt((uint64_t)d2) + PROJECTILE_SPEED - 1) / PROJECTILE_SPEED;
        s->impact_tick += (int32_t)(flight < 1 ? 1 : flight);
        s->x = u->x;   /* a projectile starts at the caster */
        s->z = u->z;
    } else if (a->cast == CAST_AREA && a->anchor == ANCHOR_CASTER) {
        s->x = u->x;
        s->z = u->z;
    } else if (a->cast == CAST_AREA && a->anchor == ANCHOR_AIM && a->shape == SHAPE_RING) {
        int64_t back = ((int64_t)a->inner + a->radius) / 2;
        s->x = ax - (int32_t)(back * s->dir_x / Q16);
        s->z = az - (int32_t)(back * s->dir_z / Q16);
    } else {   /* melee strikes, shapes at the aim, lines going away from it */
        s->x = ax;
        s->z = az;
    }
    s->height8 = height8_at(m, s->x, s->z);
    pay(m, c);
    return GOTA_ACT_OK;
}

int ability_cast_target(GotaMatch *m, int seat, int slot, int32_t target_id)
{
    Caster c;
    int err = cast_begin(m, seat, slot, &c);
    if (err != GOTA_ACT_OK) return err;
    if (c.a->cast == CAST_SELF) return self_cast(m, &c);
    if (c.a->range == 0) return launch(m, &c, c.u->x, c.u->z, -1);
    int t = unit_slot_of_id(m, target_id);
    err = aim_check(m, c.u, c.a, t);
    if (err != GOTA_ACT_OK) return err;
    return launch(m, &c, m->unit[t].x, m->unit[t].z, c.a->cast == CAST_AREA ? -1 : t);
}

int ability_cast_point(GotaMatch *m, int seat, int slot, int32_t x, int32_t z)
{
    Caster c;
    int err = cast_begin(m, seat, slot, &c);
    if (err != GOTA_ACT_OK) return err;
    if (c.a->cast == CAST_SELF) return self_cast(m, &c);
    if (c.a->range == 0) return launch(m, &c, c.u->x, c.u->z, -1);
    if (!map_world_inside(x, z)) return GOTA_ACT_BAD_POINT;
    int64_t range = c.a->range, d2 = fx_dist2(c.u->x, c.u->z, x, z);
    if (d2 > range * range) {   /* ceil keeps the pulled point within range */
        int64_t len = ceil_sqrt((uint64_t)d2);
        x = c.u->x + (int32_t)(((int64_t)x - c.u->x) * range / len);
        z = c.u->z + (int32_t)(((int64_t)z - c.u->z) * range / len);
    }
    if (!vision_sees_point(&m->vision, c.u->team, x, z)) return GOTA_ACT_NOT_VISIBLE;
    return launch(m, &c, x, z, -1);
}
