/*
 * frames.c -- what a replay viewer draws at one tick (gota_match_frame).
 *
 * One read-only call copies the whole visible state of a match into caller
 * buffers as fixed-size records: every unit slot in use (corpses and dead
 * heroes and structures included, free slots not), the spells in flight with
 * their area shapes, the ten heroes' panels, and both teams' fog as bit maps.
 * Nothing is computed that the match does not already hold, so the cost is a
 * copy of about 200 records: a 28,800-tick match exported every 6 ticks is a
 * few milliseconds of C (docs/viewer.md, benchmarks/bench_viewer.py).
 *
 * Choices:
 * - Seen flags are the match's own per-tick visibility (m->seen: what
 *   gota_match_unit_visible answers, own units always seen), not recomputed.
 * - A spell is seen by its own team always and by the other team when its aim
 *   point is visible (as gota_match_spells filters); both bits are given so a
 *   viewer can switch fog per team without asking again.
 * - Controls come from the hero state for heroes and the unit state for
 *   creeps and neutrals (where the rules keep them).
 */
#include <string.h>
#include "world.h"
#include "frames.h"

static uint16_t unit_flags(const GotaMatch *m, int slot, int seat)
{
    const GotaUnit *u = &m->unit[slot];
    const UnitState *s = &m->st[slot];
    unsigned f = 0;
    if (u->alive) f |= GOTA_FRAME_ALIVE;
    if (m->seen[GOTA_TEAM_RED][slot]) f |= GOTA_FRAME_SEEN_RED;
    if (m->seen[GOTA_TEAM_BLUE][slot]) f |= GOTA_FRAME_SEEN_BLUE;
    if (u->exposed) f |= GOTA_FRAME_EXPOSED;
    int stun = s->stun, root = s->root, silence = 0;
    if (seat >= 0) {
        const HeroState *h = &m->hero[seat];
        stun = h->stun;
        root = h->root;
        silence = h->silence;
        if (h->channel > 0) f |= GOTA_FRAME_CHANNELING;
    }
    if (stun > 0) f |= GOTA_FRAME_STUNNED;
    if (root > 0) f |= GOTA_FRAME_ROOTED;
    if (silence > 0) f |= GOTA_FRAME_SILENCED;
    if (u->kind == GOTA_KIND_NEUTRAL && u->alive && camp_returning(m, slot)) f |= GOTA_FRAME_RETURNING;
    if (u->alive && s->swing >= 0 && s->target >= 0 && u->kind != GOTA_KIND_TOWER) f |= GOTA_FRAME_SWINGING;
    return (uint16_t)f;
}

static int frame_units(const GotaMatch *m, GotaFrame *fr)
{
    int32_t n = 0;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->kind == GOTA_KIND_NONE) continue;
        if (n >= fr->units_cap) return GOTA_ERR_BUFFER;
        int seat = hero_seat_of_slot(m, i);
        GotaFrameUnit *o = &fr->units[n++];
        memset(o, 0, sizeof *o);
        o->id = u->id;
        o->slot = i;
        o->x = u->x;
        o->z = u->z;
        o->hp = u->hp;
        o->max_hp = u->max_hp;
        o->target_id = u->target_id;
        o->facing = (uint16_t)(nav_facing_of(u->facing, &m->st[i].face) & 0xFFFF);
        o->flags = unit_flags(m, i, seat);
        o->kind = (int8_t)u->kind;
        o->team = (int8_t)u->team;
        o->sub = (int8_t)u->sub;
        o->lane = (int8_t)u->lane;
        o->seat = (int8_t)seat;
        o->level = (int8_t)(seat >= 0 ? m->hero[seat].level : 0);
    }
    fr->unit_count = n;
    return GOTA_OK;
}

static int frame_spells(const GotaMatch *m, GotaFrame *fr)
{
    int32_t n = 0;
    for (int i = 0; i < m->spell_n; i++) {
        const Spell *s = &m->spell[i];
        if (n >= fr->spells_cap) return GOTA_ERR_BUFFER;
        const AbilityDef *a = &HERO_CLASS[s->cls].ability[s->ability];
        int seen = 0;
        for (int team = 0; team < 2; team++)
            if (s->team == team || vision_sees_point(&m->vision, team, s->aim_x, s->aim_z)) seen |= 1 << team;
        int cast = a->cast == CAST_AREA ? GOTA_FRAME_CAST_AREA
                 : a->cast == CAST_PROJECTILE ? GOTA_FRAME_CAST_PROJECTILE : GOTA_FRAME_CAST_MELEE;
        fr->spells[n++] = (GotaFrameSpell){
            .caster_id = s->caster_id, .team = s->team, .hero_class = s->cls, .ability = s->ability,
            .cast = cast, .shape = a->cast == CAST_AREA ? a->shape : 0,
            .radius = a->radius, .inner = a->inner, .width = a->width, .angle = a->angle,
            .x = s->x, .z = s->z, .aim_x = s->aim_x, .aim_z = s->aim_z,
            .origin_x = s->origin_x, .origin_z = s->origin_z, .dir_x = s->dir_x, .dir_z = s->dir_z,
            .cast_tick = s->cast_tick, .impact_tick = s->impact_tick, .target_id = s->target_id,
            .harmful = a->effect == EFFECT_DAMAGE, .seen = seen,
        };
    }
    fr->spell_count = n;
    return GOTA_OK;
}

static int frame_heroes(const GotaMatch *m, GotaFrame *fr)
{
    int32_t n = 0;
    for (int seat = 0; seat < SEATS; seat++) {
        int slot = m->hero_slot[seat];
        if (slot < 0) continue;
        if (n >= fr->heroes_cap) return GOTA_ERR_BUFFER;
        const HeroState *h = &m->hero[seat];
        GotaFrameHero *o = &fr->heroes[n++];
        memset(o, 0, sizeof *o);
        o->seat = seat;
        o->unit_id = m->unit[slot].id;
        o->hero_class = h->cls;
        o->level = h->level;
        o->xp = h->xp;
        o->gold = h->gold;
        o->mana = h->mana;
        o->max_mana = h->max_mana;
        o->kills = (int32_t)h->stats.kills;
        o->deaths = h->deaths;
        o->assists = (int32_t)h->stats.assists;
        o->last_hits = (int32_t)h->stats.last_hits;
        o->respawn_ticks = h->respawn_at > m->tick ? h->respawn_at - m->tick : 0;
        for (int k = 0; k < HERO_ITEM_SLOTS; k++) {
            o->item[k] = h->item[k];
            o->item_count[k] = h->item_count[k];
        }
        o->score = economy_hero_score(m, seat);
    }
    fr->hero_count = n;
    return GOTA_OK;
}

void frames_fog_bits(const Vision *v, int team, uint8_t *out)
{
    memset(out, 0, GOTA_FRAME_FOG_BYTES);
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++)
            if (vision_tile(v, team, tx, tz)) {
                int bit = map_index(tx, tz);
                out[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            }
}

int gota_match_frame(const GotaMatch *m, GotaFrame *fr)
{
    if (!m || !fr) return GOTA_ERR_NULL;
    if ((fr->units_cap && !fr->units) || (fr->spells_cap && !fr->spells) || (fr->heroes_cap && !fr->heroes)
        || (fr->fog_cap && !fr->fog))
        return GOTA_ERR_NULL;
    if (fr->units_cap < 0 || fr->spells_cap < 0 || fr->heroes_cap < 0 || fr->fog_cap < 0) return GOTA_ERR_RANGE;
    fr->tick = m->tick;
    fr->result = m->result;
    fr->winner = m->result == GOTA_RESULT_WIN ? m->winner : -1;
    fr->unit_count = fr->spell_count = fr->hero_count = 0;
    int code;
    if (fr->units && (code = frame_units(m, fr)) != GOTA_OK) return code;
    if (fr->spells && (code = frame_spells(m, fr)) != GOTA_OK) return code;
    if (fr->heroes && (code = frame_heroes(m, fr)) != GOTA_OK) return code;
    if (fr->fog) {
        if (fr->fog_cap < 2 * GOTA_FRAME_FOG_BYTES) return GOTA_ERR_BUFFER;
        frames_fog_bits(&m->vision, GOTA_TEAM_RED, fr->fog);
        frames_fog_bits(&m->vision, GOTA_TEAM_BLUE, fr->fog + GOTA_FRAME_FOG_BYTES);
    }
    return GOTA_OK;
}
