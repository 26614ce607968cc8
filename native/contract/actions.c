/*
 * actions.c -- the action side of the contract (contract.h, docs/contract.md):
 * decoding five heads into a GotaCommand, issuing it through match_command
 * (the path gota_match_command and the bots use), and the action masks.
 *
 * Decoding (integer only): an out-of-range head, an empty target slot or a
 * dead seat (or one without a hero) decodes to a noop; a non-noop verb that
 * decodes to a noop is invalid and counted in stats.invalid_actions. Points:
 * 0 = the centre, else 1 + ring * 16 + dir with dir k at k * 22.5 degrees from
 * team +x toward team +z (the simulator's angle sense); the offset is
 * round(radius * Q16 direction / 65,536), half away from zero, so it negates
 * exactly between the frames. Walk and attack-move points are self-centred
 * and snapped to a tile centre (point 0 = stop); cast-point and use-item-at
 * points are centred on the target slot's object (point 0 = the object
 * itself). Both are built in the team frame and mirrored back to world units.
 *
 * Masks ask the engine's own checks where it has them as functions (casts:
 * ability_cast_check and ability_target_check, abilities.c) and repeat them
 * otherwise (commands.c, economy.c) on the same state, so every action the
 * conditional mask allows decodes to a command; attackTarget, castTarget and
 * useItem are accepted with GOTA_ACT_OK.
 * What a mask cannot know, because the point head is not masked: castPoint
 * may be refused NOT_VISIBLE (the pulled-back point in fog), useItemAt
 * BAD_POINT (an offset point outside the map's rim margin), walk and
 * attack-move ROOTED (a rooted hero may still stop: point 0) or BAD_POINT (no
 * open tile within 8 of a far point).
 */
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "contract.h"

/* (cos, sin) of k * 22.5 degrees in Q16: round(65536 * cos), round(65536 * sin) */
static const int32_t DIR16[CONTRACT_DIRS][2] = {
    {65536, 0}, {60547, 25080}, {46341, 46341}, {25080, 60547},
    {0, 65536}, {-25080, 60547}, {-46341, 46341}, {-60547, 25080},
    {-65536, 0}, {-60547, -25080}, {-46341, -46341}, {-25080, -60547},
    {0, -65536}, {25080, -60547}, {46341, -46341}, {60547, -25080},
};
static const int32_t RING_MOVE[CONTRACT_RINGS] = {RING_MOVE_0, RING_MOVE_1, RING_MOVE_2};
static const int32_t RING_AIM[CONTRACT_RINGS] = {RING_AIM_0, RING_AIM_1, RING_AIM_2};

_Static_assert(CONTRACT_POINTS == 1 + CONTRACT_RINGS * CONTRACT_DIRS, "point head");
_Static_assert(MASK_SIZE == 203 && MASK_FLAT_SIZE == CONTRACT_LOGITS, "mask sizes");

void contract_direction(int k, int32_t *cos_q16, int32_t *sin_q16)
{
    k &= CONTRACT_DIRS - 1;
    *cos_q16 = DIR16[k][0];
    *sin_q16 = DIR16[k][1];
}

/* radius * q / 65,536 rounded to nearest, halves away from zero */
static int64_t scale_q16(int32_t radius, int32_t q)
{
    int64_t v = (int64_t)radius * q;
    return v >= 0 ? (v + CONTRACT_Q16 / 2) / CONTRACT_Q16 : -((-v + CONTRACT_Q16 / 2) / CONTRACT_Q16);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Team-frame offset of point p (1..48) on the given rings. */
static void point_offset(int p, const int32_t *rings, int64_t *ox, int64_t *oz)
{
    int ring = (p - 1) / CONTRACT_DIRS, dir = (p - 1) % CONTRACT_DIRS;
    *ox = scale_q16(rings[ring], DIR16[dir][0]);
    *oz = scale_q16(rings[ring], DIR16[dir][1]);
}

/* Self-centred move point: tile centre in the team frame, mirrored back. */
static void move_point(int32_t x, int32_t z, int s, int p, int32_t *wx, int32_t *wz)
{
    int64_t ox, oz;
    point_offset(p, RING_MOVE, &ox, &oz);
    const int64_t lo = -(int64_t)MAP_HALF_WORLD, hi = (int64_t)MAP_HALF_WORLD - 1;
    int64_t fx = clamp64((int64_t)x * s + ox, lo, hi), fz = clamp64((int64_t)z * s + oz, lo, hi);
    int tx = (int)((fx + MAP_HALF_WORLD) / GOTA_TILE), tz = (int)((fz + MAP_HALF_WORLD) / GOTA_TILE);
    *wx = map_tile_centre(tx) * s;
    *wz = map_tile_centre(tz) * s;
}

/* Object-centred aim point: fractional, clamped inside the map rim. */
static void aim_point(int32_t x, int32_t z, int s, int p, int32_t *wx, int32_t *wz)
{
    int64_t ox = 0, oz = 0;
    if (p > 0) point_offset(p, RING_AIM, &ox, &oz);
    const int64_t lim = (int64_t)MAP_HALF_WORLD - CONTRACT_RIM;
    *wx = (int32_t)(clamp64((int64_t)x * s + ox, -lim, lim) * s);
    *wz = (int32_t)(clamp64((int64_t)z * s + oz, -lim, lim) * s);
}

static const int32_t HEAD_SIZE[CONTRACT_HEADS] = {
    CONTRACT_VERBS, CONTRACT_TARGETS, CONTRACT_POINTS, CONTRACT_ABILITIES, CONTRACT_ITEMS};

/* The heads each verb reads and the target row of its target head, as
 * contract_decode_slots below reads them (the tests change every other head
 * and see the same command). */
#define USES(h) (1 << (h))
static const GotaContractVerb VERB[CONTRACT_VERBS] = {
    [VERB_NOOP] = {"noop", USES(HEAD_VERB), -1},
    [VERB_WALK] = {"walk", USES(HEAD_VERB) | USES(HEAD_POINT), -1},
    [VERB_ATTACK_MOVE] = {"attackMove", USES(HEAD_VERB) | USES(HEAD_POINT), -1},
    [VERB_ATTACK_TARGET] = {"attackTarget", USES(HEAD_VERB) | USES(HEAD_TARGET), MASK_ROW_ATTACK},
    [VERB_CAST_TARGET] = {"castTarget", USES(HEAD_VERB) | USES(HEAD_TARGET) | USES(HEAD_ABILITY), MASK_ROW_CAST},
    [VERB_CAST_POINT] = {"castPoint", USES(HEAD_VERB) | USES(HEAD_TARGET) | USES(HEAD_POINT) | USES(HEAD_ABILITY),
                         MASK_ROW_CAST_POINT},
    [VERB_USE_ITEM] = {"useItem", USES(HEAD_VERB) | USES(HEAD_ITEM), -1},
    [VERB_USE_ITEM_AT] = {"useItemAt", USES(HEAD_VERB) | USES(HEAD_TARGET) | USES(HEAD_POINT) | USES(HEAD_ITEM),
                          MASK_ROW_ITEM_AT},
};
#undef USES

const GotaContractVerb *contract_verb(int32_t v)
{
    return v >= 0 && v < CONTRACT_VERBS ? &VERB[v] : NULL;
}

int contract_decode_slots(const GotaMatch *m, const ContractSlots *cs, int seat,
                          const int32_t heads[CONTRACT_HEADS], GotaCommand *out)
{
    memset(out, 0, sizeof *out);
    out->verb = GOTA_CMD_NOOP;
    int32_t verb = heads[HEAD_VERB];
    int invalid = verb != VERB_NOOP ? CONTRACT_DECODE_INVALID : CONTRACT_DECODE_OK;
    for (int k = 0; k < CONTRACT_HEADS; k++)
        if (heads[k] < 0 || heads[k] >= HEAD_SIZE[k]) return invalid;
    (void)seat;
    if (verb == VERB_NOOP || cs->self < 0 || !m->unit[cs->self].alive) return invalid;
    const GotaUnit *me = &m->unit[cs->self];
    int32_t target = heads[HEAD_TARGET], point = heads[HEAD_POINT];
    int anchor = cs->unit[target];
    switch (verb) {
    case VERB_WALK:
    case VERB_ATTACK_MOVE:
        if (point == 0) {
            out->verb = GOTA_CMD_STOP;
        } else {
            out->verb = verb == VERB_WALK ? GOTA_CMD_WALK : GOTA_CMD_ATTACK_MOVE;
            move_point(me->x, me->z, cs->s, point, &out->x, &out->z);
        }
        return CONTRACT_DECODE_OK;
    case VERB_ATTACK_TARGET:
        if (target == CSLOT_SELF || anchor < 0) return invalid;
        out->verb = GOTA_CMD_ATTACK;
        out->target = m->unit[anchor].id;
        return CONTRACT_DECODE_OK;
    case VERB_CAST_TARGET:
        if (anchor < 0) return invalid;
        out->verb = GOTA_CMD_CAST_TARGET;
        out->target = m->unit[anchor].id;
        out->slot = heads[HEAD_ABILITY];
        return CONTRACT_DECODE_OK;
    case VERB_CAST_POINT:
    case VERB_USE_ITEM_AT:
        if (anchor < 0) return invalid;
        out->verb = verb == VERB_CAST_POINT ? GOTA_CMD_CAST_POINT : GOTA_CMD_USE_ITEM_AT;
        out->slot = verb == VERB_CAST_POINT ? heads[HEAD_ABILITY] : heads[HEAD_ITEM];
        aim_point(m->unit[anchor].x, m->unit[anchor].z, cs->s, point, &out->x, &out->z);
        return CONTRACT_DECODE_OK;
    case VERB_USE_ITEM:
        out->verb = GOTA_CMD_USE_ITEM;
        out->slot = heads[HEAD_ITEM];
        return CONTRACT_DECODE_OK;
    default:
        return invalid;
    }
}

int contract_decode(const GotaMatch *m, int seat, const int32_t heads[CONTRACT_HEADS], GotaCommand *out)
{
    ContractSlots cs;
    contract_slots(m, seat, &cs);
    return contract_decode_slots(m, &cs, seat, heads, out);
}

int contract_act(GotaMatch *m, int seat, const int32_t heads[CONTRACT_HEADS])
{
    ContractSlots cs;
    contract_slots(m, seat, &cs);
    return contract_act_slots(m, &cs, seat, heads);
}

int contract_act_slots(GotaMatch *m, const ContractSlots *cs, int seat, const int32_t heads[CONTRACT_HEADS])
{
    GotaCommand cmd;
    if (contract_decode_slots(m, cs, seat, heads, &cmd) == CONTRACT_DECODE_INVALID) {
        if (cs->self >= 0) m->hero[seat].stats.invalid_actions++;
        return CONTRACT_ACT_INVALID;
    }
    if (cmd.verb == GOTA_CMD_NOOP) return GOTA_ACT_OK;   /* a noop issues nothing */
    return match_command(m, seat, &cmd);
}

/* ---- masks --------------------------------------------------------------- */
/* economy_use_item's checks without a point (potions, poison) */
static int item_usable(const GotaMatch *m, int seat, int self, int i)
{
    const HeroState *h = &m->hero[seat];
    const GotaUnit *u = &m->unit[self];
    int item = h->item[i];
    if (item < 1 || item >= ITEM_KINDS || h->item_count[i] <= 0) return 0;
    const ItemDef *d = &ITEM[item];
    if (d->kind != ITEM_CONSUMABLE || !u->alive || h->stun > 0 || h->channel > 0) return 0;
    switch (d->use) {
    case USE_HEAL_OVER_TIME:
    case USE_HEAL_NOW: return h->hp_item_cd == 0 && u->hp < u->max_hp;
    case USE_MANA_NOW:
    case USE_MANA_OVER_TIME: return h->mana_item_cd == 0 && h->mana < h->max_mana;
    case USE_POISON: {
        int t = unit_target_slot(m, self);
        if (t < 0 || !unit_attackable(m, t) || !unit_hostile(m, self, t) || !unit_visible_to(m, hero_team(seat), t))
            return 0;
        const GotaUnit *tu = &m->unit[t];
        if (tu->kind == GOTA_KIND_TOWER || tu->kind == GOTA_KIND_BARRACKS || tu->kind == GOTA_KIND_GOD)
            return unit_attack_reach_ok(m, self, t, u->x, u->z);
        return fx_dist2(u->x, u->z, tu->x, tu->z) <= (int64_t)u->range * u->range;
    }
    default: return 0;   /* the portal needs a point */
    }
}

static int portal_usable(const GotaMatch *m, int seat, int self, int i)
{
    const HeroState *h = &m->hero[seat];
    int item = h->item[i];
    if (item < 1 || item >= ITEM_KINDS || h->item_count[i] <= 0 || ITEM[item].use != USE_PORTAL) return 0;
    return m->unit[self].alive && h->stun == 0 && h->channel == 0 && h->portal_cd == 0 && h->root == 0;
}

static int any(const uint8_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i]) return 1;
    return 0;
}

void contract_mask_slots(const GotaMatch *m, const ContractSlots *cs, int seat, uint8_t *mask)
{
    memset(mask, 0, MASK_SIZE);
    mask[MASK_VERB + VERB_NOOP] = 1;
    if (cs->self < 0 || m->result != GOTA_RESULT_RUNNING) return;
    const GotaUnit *me = &m->unit[cs->self];
    const HeroState *h = &m->hero[seat];
    /* orders (commands.c order_blocked, without root), casts and items all
     * refuse a channeling or stunned hero; neither counter goes below 0, so
     * past this the hero takes orders */
    if (!me->alive || h->channel > 0 || h->stun > 0) return;
    int team = cs->team;
    uint8_t *row = mask + MASK_ROWS;
    /* row 0: attackTarget (cmd_attack) */
    int attack_any = 0;
    for (int k = 1; k < CONTRACT_SLOTS; k++) {
        int t = cs->unit[k];
        if (t >= 0 && m->unit[t].alive && unit_hostile(m, cs->self, t) && m->seen[team][t] && unit_attackable(m, t)) {
            row[MASK_ROW_ATTACK * CONTRACT_TARGETS + k] = 1;
            attack_any = 1;
        }
    }
    /* rows 1..4: castTarget per ability; castPoint abilities */
    int cast_any = 0, cast_target_any = 0;
    for (int a = 0; a < CONTRACT_ABILITIES; a++) {
        if (ability_cast_check(m, seat, a) != GOTA_ACT_OK) continue;
        cast_any = 1;
        mask[MASK_CAST_POINT_ABILITY + a] = 1;
        const AbilityDef *d = &HERO_CLASS[h->cls].ability[a];
        uint8_t *r = row + (MASK_ROW_CAST + a) * CONTRACT_TARGETS;
        int r_any = 0;
        if (d->cast == CAST_SELF || d->range == 0) {
            r[CSLOT_SELF] = 1;   /* the target is ignored: self stands for it */
            r_any = 1;
        } else {
            for (int k = 0; k < CONTRACT_SLOTS; k++)
                if (cs->unit[k] >= 0 && ability_target_check(m, seat, a, cs->unit[k]) == GOTA_ACT_OK) {
                    r[k] = 1;
                    r_any = 1;
                }
        }
        mask[MASK_CAST_TARGET_ABILITY + a] = (uint8_t)r_any;
        cast_target_any |= r_any;
    }
    /* row 5: castPoint anchors: every present object */
    if (cast_any)
        for (int k = 0; k < CONTRACT_SLOTS; k++)
            if (cs->unit[k] >= 0) row[MASK_ROW_CAST_POINT * CONTRACT_TARGETS + k] = 1;
    /* items */
    int use_any = 0, portal_any = 0;
    uint8_t portal[CONTRACT_ITEMS];
    for (int i = 0; i < CONTRACT_ITEMS; i++) {
        int usable = item_usable(m, seat, cs->self, i);
        mask[MASK_USE_ITEM + i] = (uint8_t)usable;
        use_any |= usable;
        portal[i] = (uint8_t)portal_usable(m, seat, cs->self, i);
        portal_any |= portal[i];
    }
    /* row 6: useItemAt anchors inside the map, while some allied tower offers a landing */
    int at_any = 0;
    if (portal_any && economy_portal_possible(m, team))
        for (int k = 0; k < CONTRACT_SLOTS; k++) {
            int t = cs->unit[k];
            if (t >= 0 && map_world_inside(m->unit[t].x, m->unit[t].z)) {
                row[MASK_ROW_ITEM_AT * CONTRACT_TARGETS + k] = 1;
                at_any = 1;
            }
        }
    if (at_any) memcpy(mask + MASK_USE_ITEM_AT, portal, CONTRACT_ITEMS);
    mask[MASK_VERB + VERB_WALK] = 1;
    mask[MASK_VERB + VERB_ATTACK_MOVE] = 1;
    mask[MASK_VERB + VERB_ATTACK_TARGET] = (uint8_t)attack_any;
    mask[MASK_VERB + VERB_CAST_TARGET] = (uint8_t)cast_target_any;
    mask[MASK_VERB + VERB_CAST_POINT] = (uint8_t)cast_any;
    mask[MASK_VERB + VERB_USE_ITEM] = (uint8_t)use_any;
    mask[MASK_VERB + VERB_USE_ITEM_AT] = (uint8_t)at_any;   /* at_any implies portal_any */
}

void contract_mask(const GotaMatch *m, int seat, uint8_t *mask)
{
    ContractSlots cs;
    contract_slots(m, seat, &cs);
    contract_mask_slots(m, &cs, seat, mask);
}

void contract_mask_flatten(const uint8_t *mask, uint8_t *flat)
{
    memset(flat, 0, MASK_FLAT_SIZE);
    memcpy(flat + MASK_FLAT_VERB, mask + MASK_VERB, CONTRACT_VERBS);
    const uint8_t *row = mask + MASK_ROWS;
    for (int k = 0; k < CONTRACT_TARGETS; k++) {
        int on = 0;
        if (mask[MASK_VERB + VERB_ATTACK_TARGET]) on |= row[MASK_ROW_ATTACK * CONTRACT_TARGETS + k];
        for (int a = 0; a < CONTRACT_ABILITIES; a++)
            if (mask[MASK_CAST_TARGET_ABILITY + a]) on |= row[(MASK_ROW_CAST + a) * CONTRACT_TARGETS + k];
        if (mask[MASK_VERB + VERB_CAST_POINT]) on |= row[MASK_ROW_CAST_POINT * CONTRACT_TARGETS + k];
        if (mask[MASK_VERB + VERB_USE_ITEM_AT]) on |= row[MASK_ROW_ITEM_AT * CONTRACT_TARGETS + k];
        flat[MASK_FLAT_TARGET + k] = (uint8_t)(on != 0);
    }
    /* walk, attack-move and useItem take no target: slot 0 keeps the head non-empty */
    if (!any(flat + MASK_FLAT_TARGET, CONTRACT_TARGETS)) flat[MASK_FLAT_TARGET + CSLOT_SELF] = 1;
    memset(flat + MASK_FLAT_POINT, 1, CONTRACT_POINTS);
    for (int a = 0; a < CONTRACT_ABILITIES; a++)
        flat[MASK_FLAT_ABILITY + a] = (uint8_t)(mask[MASK_CAST_TARGET_ABILITY + a] || mask[MASK_CAST_POINT_ABILITY + a]);
    if (!any(flat + MASK_FLAT_ABILITY, CONTRACT_ABILITIES)) flat[MASK_FLAT_ABILITY] = 1;
    for (int i = 0; i < CONTRACT_ITEMS; i++)
        flat[MASK_FLAT_ITEM + i] = (uint8_t)(mask[MASK_USE_ITEM + i] || mask[MASK_USE_ITEM_AT + i]);
    if (!any(flat + MASK_FLAT_ITEM, CONTRACT_ITEMS)) flat[MASK_FLAT_ITEM] = 1;
}
