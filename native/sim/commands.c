/*
 * commands.c -- gota_match_command: one command for a seat's hero, applied at
 * once between ticks (the BASIC actions of docs/rules.md section 9).
 *
 * Every well-formed call returns GOTA_OK with the game's answer (GOTA_ACT_*)
 * in *action_error; only a NULL match or command (GOTA_ERR_NULL) and a seat
 * outside 0..9 (GOTA_ERR_INDEX) are call errors. The answer is kept in the
 * hero's last_error; stats.commands counts every command, stats.invalid_actions
 * those answered with anything but GOTA_ACT_OK. A match without heroes answers
 * GOTA_ACT_NO_HERO and records nothing; a finished match answers
 * GOTA_ACT_MATCH_OVER to every verb. The body is match_command (world.h),
 * which the bundled bots (bot.h) call too: one path for every seat.
 *
 * Verbs and their checks, in this order:
 *   NOOP          always ok.
 *   STOP          dead, channeling, stunned; then drops orders and target.
 *   WALK, ATTACK_MOVE
 *                 dead, channeling, stunned, rooted; the point must lie inside
 *                 the map (rim margin kept) and have an open tile within +-8
 *                 of it, else BAD_POINT; then the order replaces the old one,
 *                 clears the target and resets the swing.
 *   ATTACK        dead, channeling, stunned; target 0 clears the target (an
 *                 explicit attack order becomes idle); otherwise the id must
 *                 name a living hostile unit (BAD_TARGET), visible to the team
 *                 (NOT_VISIBLE), attackable: exposed, not a returning neutral
 *                 (BAD_TARGET). A rooted hero may attack what it reaches. The
 *                 same target again keeps the running swing.
 *   CAST_TARGET, CAST_POINT   abilities.c (all checks there).
 *   USE_ITEM, USE_ITEM_AT, BUY, LEVEL, BUYBACK   economy.c.
 *   anything else BAD_VERB.
 * Choices where the rules are silent: STOP obeys the same state checks as the
 * other orders; a walk to a point with no open tile near it is refused rather
 * than accepted and abandoned.
 */
#include "world.h"

/* The state checks shared by orders: dead, channeling, stunned (and rooted for movement). */
static int order_blocked(const GotaMatch *m, int seat, int slot, int movement)
{
    const HeroState *h = &m->hero[seat];
    if (!m->unit[slot].alive) return GOTA_ACT_DEAD;
    if (h->channel > 0) return GOTA_ACT_CHANNELING;
    if (h->stun > 0) return GOTA_ACT_STUNNED;
    if (movement && h->root > 0) return GOTA_ACT_ROOTED;
    return GOTA_ACT_OK;
}

static int cmd_move(GotaMatch *m, int seat, int slot, int order, int32_t x, int32_t z)
{
    int err = order_blocked(m, seat, slot, 1);
    if (err != GOTA_ACT_OK) return err;
    int32_t gx, gz;
    if (!hero_goal_point(m, x, z, &gx, &gz)) return GOTA_ACT_BAD_POINT;   /* outside, or no open tile near */
    hero_order(m, seat, order, x, z, -1);
    return GOTA_ACT_OK;
}

static int cmd_attack(GotaMatch *m, int seat, int slot, int32_t id)
{
    int err = order_blocked(m, seat, slot, 0);
    if (err != GOTA_ACT_OK) return err;
    if (id == 0) {
        if (m->hero[seat].order == ORDER_ATTACK) hero_order(m, seat, ORDER_IDLE, 0, 0, -1);
        else {
            m->unit[slot].target_id = -1;
            m->st[slot].target = -1;
            unit_stop_swing(m, slot);
        }
        return GOTA_ACT_OK;
    }
    int t = unit_slot_of_id(m, id);
    if (t < 0 || !m->unit[t].alive || !unit_hostile(m, slot, t)) return GOTA_ACT_BAD_TARGET;
    if (!unit_visible_to(m, m->unit[slot].team, t)) return GOTA_ACT_NOT_VISIBLE;
    if (!unit_attackable(m, t)) return GOTA_ACT_BAD_TARGET;
    hero_order(m, seat, ORDER_ATTACK, 0, 0, t);
    return GOTA_ACT_OK;
}

static int cmd_stop(GotaMatch *m, int seat, int slot)
{
    int err = order_blocked(m, seat, slot, 0);
    if (err == GOTA_ACT_OK) hero_order(m, seat, ORDER_IDLE, 0, 0, -1);
    return err;
}

static int dispatch(GotaMatch *m, int seat, int slot, const GotaCommand *c)
{
    switch (c->verb) {
    case GOTA_CMD_NOOP: return GOTA_ACT_OK;
    case GOTA_CMD_STOP: return cmd_stop(m, seat, slot);
    case GOTA_CMD_WALK: return cmd_move(m, seat, slot, ORDER_WALK, c->x, c->z);
    case GOTA_CMD_ATTACK_MOVE: return cmd_move(m, seat, slot, ORDER_ATTACK_MOVE, c->x, c->z);
    case GOTA_CMD_ATTACK: return cmd_attack(m, seat, slot, c->target);
    case GOTA_CMD_CAST_TARGET: return ability_cast_target(m, seat, c->slot, c->target);
    case GOTA_CMD_CAST_POINT: return ability_cast_point(m, seat, c->slot, c->x, c->z);
    case GOTA_CMD_USE_ITEM: return economy_use_item(m, seat, c->slot, 0, 0, 0);
    case GOTA_CMD_USE_ITEM_AT: return economy_use_item(m, seat, c->slot, 1, c->x, c->z);
    case GOTA_CMD_BUY: return economy_buy(m, seat, c->item);
    case GOTA_CMD_LEVEL: return economy_level_ability(m, seat, c->slot);
    case GOTA_CMD_BUYBACK: return economy_buyback(m, seat);
    default: return GOTA_ACT_BAD_VERB;
    }
}

int match_command(GotaMatch *m, int seat, const GotaCommand *cmd)
{
    int slot = m->hero_slot[seat];
    if (hero_seat_of_slot(m, slot) != seat) return GOTA_ACT_NO_HERO;
    int answer = m->result != GOTA_RESULT_RUNNING ? GOTA_ACT_MATCH_OVER : dispatch(m, seat, slot, cmd);
    HeroState *h = &m->hero[seat];
    h->last_error = answer;
    h->stats.commands++;
    if (answer != GOTA_ACT_OK) h->stats.invalid_actions++;
    return answer;
}

int gota_match_command(GotaMatch *m, int32_t seat, const GotaCommand *cmd, int32_t *action_error)
{
    if (!m || !cmd) return GOTA_ERR_NULL;
    if (seat < 0 || seat >= SEATS) return GOTA_ERR_INDEX;
    int answer = match_command(m, seat, cmd);
    if (action_error) *action_error = answer;
    return GOTA_OK;
}
