/*
 * seats.c -- the public view of heroes: per-seat stats, hero details, spell
 * warnings, team scores (docs/rules.md section 8) and names for tools. Read-only:
 * nothing here changes a match. Derived values (score, outcome, level, gold,
 * alive) are computed when read, so they are never stale.
 */
#include <string.h>
#include "world.h"

static int seat_ok(const GotaMatch *m, int32_t seat)
{
    return seat >= 0 && seat < SEATS && m->hero_slot[seat] >= 0;
}

int gota_match_seat_stats(const GotaMatch *m, int32_t seat, GotaSeatStats *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (!seat_ok(m, seat)) return GOTA_ERR_INDEX;
    const HeroState *h = &m->hero[seat];
    int team = hero_team(seat);
    *out = h->stats;
    out->score = economy_hero_score(m, seat);
    out->outcome = m->result == GOTA_RESULT_WIN ? (m->winner == team ? 1 : -1) : 0;
    out->xp = h->xp;
    out->level = h->level;
    out->gold = h->gold;
    out->team = team;
    out->hero_class = h->cls;
    out->alive = m->unit[m->hero_slot[seat]].alive;
    out->deaths = h->deaths;
    return GOTA_OK;
}

int gota_match_hero(const GotaMatch *m, int32_t seat, GotaHero *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (!seat_ok(m, seat)) return GOTA_ERR_INDEX;
    const HeroState *h = &m->hero[seat];
    memset(out, 0, sizeof *out);
    out->seat = seat;
    out->unit_index = m->hero_slot[seat];
    out->hero_class = h->cls;
    out->level = h->level;
    out->xp = h->xp;
    out->gold = h->gold;
    out->mana = h->mana;
    out->max_mana = h->max_mana;
    out->points = h->points;
    for (int a = 0; a < HERO_ABILITIES; a++) {
        out->rank[a] = h->rank[a];
        out->charges[a] = h->charges[a];
        out->cooldown[a] = h->cooldown[a];
        out->recharge[a] = h->recharge[a];
    }
    for (int i = 0; i < HERO_ITEM_SLOTS; i++) {
        out->item[i] = h->item[i];
        out->item_count[i] = h->item_count[i];
    }
    out->hp_item_cooldown = h->hp_item_cd;
    out->mana_item_cooldown = h->mana_item_cd;
    out->portal_cooldown = h->portal_cd;
    out->channel = h->channel;
    out->stun = h->stun;
    out->root = h->root;
    out->silence = h->silence;
    out->deaths = h->deaths;
    out->respawn_ticks = h->respawn_at > m->tick ? h->respawn_at - m->tick : 0;
    out->buyback_price = h->buyback_price;
    out->last_error = h->last_error;
    out->order = h->order;
    out->order_x = h->order_x;
    out->order_z = h->order_z;
    out->move_speed = h->move_speed;
    out->attack_period = m->st[m->hero_slot[seat]].period;
    return GOTA_OK;
}

/* A team sees an enemy spell when its aim point is visible (docs/rules.md section 5). */
int gota_match_spells(const GotaMatch *m, int32_t team, GotaSpell *out, int32_t cap, int32_t *count)
{
    if (!m || !out || !count) return GOTA_ERR_NULL;
    if (team < -1 || team > 1) return GOTA_ERR_INDEX;
    if (cap < 0) return GOTA_ERR_RANGE;
    int32_t n = 0;
    for (int i = 0; i < m->spell_n; i++) {
        const Spell *s = &m->spell[i];
        if (team >= 0 && s->team != team && !vision_sees_point(&m->vision, team, s->aim_x, s->aim_z)) continue;
        if (n >= cap) return GOTA_ERR_BUFFER;
        const AbilityDef *a = &HERO_CLASS[s->cls].ability[s->ability];
        int own_or_seen = team < 0 || s->team == team || m->seen[team][s->caster];
        out[n] = (GotaSpell){own_or_seen ? s->caster_id : -1, s->team, s->cls, s->ability, s->x, s->z,
                             s->aim_x, s->aim_z, s->dir_x, s->dir_z, s->impact_tick,
                             a->cast == CAST_AREA ? a->shape : 0,
                             a->radius, a->inner, a->width, a->angle, a->effect == EFFECT_DAMAGE};
        n++;
    }
    *count = n;
    return GOTA_OK;
}

int gota_match_team_score(const GotaMatch *m, int32_t team, int64_t *score, int64_t *glory)
{
    if (!m || !score || !glory) return GOTA_ERR_NULL;
    if (team != GOTA_TEAM_RED && team != GOTA_TEAM_BLUE) return GOTA_ERR_INDEX;
    int64_t sum = 0;
    int n = 0;
    for (int s = 0; s < SEATS; s++)
        if (hero_team(s) == team && m->hero_slot[s] >= 0) {
            sum += economy_hero_score(m, s);
            n++;
        }
    *score = n ? sum / n : 0;
    *glory = m->result == GOTA_RESULT_WIN && m->winner == team ? *score : 0;
    return GOTA_OK;
}

const char *gota_action_error_text(int code)
{
    static const char *const text[GOTA_ACT_CODES] = {
        "ok", "unknown command verb", "the hero is dead", "the hero is alive", "the hero is channeling",
        "the hero is stunned", "the hero is rooted", "the hero is silenced", "no such ability or item slot",
        "the ability is not learned", "too many spells in flight", "the ability is cooling down",
        "no charges left", "not enough mana", "already at full health or mana", "not a valid target",
        "the target is not visible", "the target is out of range", "not a valid point",
        "not inside the own keep or spawn room", "not enough gold", "the inventory is full",
        "that equipment is already owned", "no such item", "that inventory slot is empty",
        "the item is cooling down", "no ability points to spend", "the ability is at its highest rank",
        "the hero's level is too low for the next rank", "the match is over",
        "no living allied tower covers that point", "this match has no heroes",
        "the action heads decode to no command (a bad head, an empty slot or a dead seat)",
    };
    return code >= 0 && code < GOTA_ACT_CODES ? text[code] : "unknown action error";
}

const char *gota_class_name(int32_t hero_class)
{
    return hero_class >= 0 && hero_class < HERO_CLASSES ? HERO_CLASS[hero_class].name : NULL;
}

const char *gota_item_name(int32_t item)
{
    return item >= 1 && item < ITEM_KINDS ? ITEM[item].name : NULL;
}

const char *gota_ability_name(int32_t hero_class, int32_t slot)
{
    if (hero_class < 0 || hero_class >= HERO_CLASSES || slot < 0 || slot >= HERO_ABILITIES) return NULL;
    return HERO_CLASS[hero_class].ability[slot].name;
}
