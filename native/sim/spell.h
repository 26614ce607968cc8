/*
 * spell.h -- casting abilities and the spells in flight (docs/rules.md section 3.2).
 *
 * A cast is validated in the rules' order (alive, not channeling, not stunned,
 * not silenced, rank >= 1, fewer than 512 live spells, cooldown 0, charges > 0,
 * mana >= cost; self-casts refuse at full HP or mana; object targets must exist,
 * live, be exposed / not returning, be visible, hostile for strikes or allied
 * for heals, and in range; ground points beyond range are pulled back to range
 * and must be visible). An accepted cast pays mana, spends a charge, sets the
 * cooldown, turns the caster to the aim and creates a Spell that resolves at
 * its impact tick: cast tick + delay (+ ceil(distance / 45,000), at least 1,
 * for projectiles). Self-casts (Heal/Restore on the caster) take effect at once.
 *
 * Area spells lock their centre at cast; at impact a strike queues a hit on
 * every non-allied unit, building or god inside (unexposed ones are immune),
 * a heal restores allied heroes inside. Shapes are tested in the spell frame
 * (z forward along caster -> aim, x lateral) with |height difference| <= 60,000.
 * Targeted melee and projectiles home on their target; ground-aimed melee hits
 * the enemy nearest the caster in a 30,000-wide capsule to the aim; ground-aimed
 * projectiles sweep a 15,000-radius capsule each tick and stop at the first
 * (nearest) enemy, else expire at the aim point.
 */
#ifndef GOTA_SPELL_H
#define GOTA_SPELL_H
#include <stdint.h>
#include "content.h"

#define SPELL_MAX 512
#define SPELL_HEIGHT_TOLERANCE 60000
#define SPELL_GROUND_MELEE_WIDTH 30000
#define SPELL_SWEEP_RADIUS 15000

typedef struct {
    int32_t caster;            /* slot */
    int32_t caster_id, team, seat, cls, ability, rank;
    int32_t target, target_id; /* homing target (slot, id), -1 for ground spells */
    int32_t x, z;              /* area centre, or a projectile's current position */
    int32_t aim_x, aim_z;      /* locked aim point */
    int32_t dir_x, dir_z;      /* unit vector caster -> aim, Q16 (65,536 = 1) */
    int32_t height8;           /* terrain height at the centre, 1/8 tile */
    int32_t cast_tick, impact_tick;
    int32_t amount;            /* damage or heal, rank-scaled */
    int32_t origin_x, origin_z;/* caster position at cast: start of flights and ground strikes */
} Spell;

struct GotaMatch;

/* abilities.c: both return a GOTA_ACT_* code */
int ability_cast_target(struct GotaMatch *m, int seat, int slot, int32_t target_id);
int ability_cast_point(struct GotaMatch *m, int seat, int slot, int32_t x, int32_t z);
/* "Can this seat's hero cast this ability now": the one test behind both
 * casts, the action mask and the observation's castable feature. GOTA_ACT_OK,
 * else the first refusal in the rules' order: NO_HERO, MATCH_OVER (as
 * match_command answers every verb of a finished match), BAD_SLOT, DEAD,
 * CHANNELING, STUNNED, SILENCED, NOT_LEARNED, TOO_MANY_SPELLS, COOLDOWN,
 * NO_CHARGES, NO_MANA, FULL (a self heal at full HP, a self restore at full
 * mana). Reads only; m may be NULL (NO_HERO). */
int ability_cast_check(const struct GotaMatch *m, int seat, int slot);
/* The aim checks of a castTarget at unit slot t (-1: no unit), for an ability
 * that ability_cast_check accepts: GOTA_ACT_OK, BAD_TARGET, NOT_VISIBLE or
 * OUT_OF_RANGE, as ability_cast_target answers. Self-casts and abilities of
 * cast range 0 take no aim and accept any t. Reads only. */
int ability_target_check(const struct GotaMatch *m, int seat, int slot, int t);
/* Phase "spells": move projectiles, resolve the spells whose impact is due. */
void spells_update(struct GotaMatch *m);
/* 1 if world point (x, z) lies inside the area shape of a spell with this
 * centre and direction (geometry only: no height, team or life test). */
int ability_shape_contains(const Spell *s, const AbilityDef *a, int32_t x, int32_t z);

#endif
