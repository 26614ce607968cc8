/*
 * test_frames.c -- gota_match_frame: the viewer's records agree with the match
 * (units, seen flags, controls, spells, heroes, fog), the call changes nothing,
 * and bad input is refused.
 */
#include <stdlib.h>
#include <string.h>
#include "sim/world.h"
#include "sim/frames.h"
#include "check.h"

static GotaMatch *bot_match(int64_t seed)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "seed", seed);
    static const int bots[10] = {GOTA_BOT_PULLER, GOTA_BOT_BASELINE, GOTA_BOT_PULLER, GOTA_BOT_BASE, GOTA_BOT_PULLER,
                                 GOTA_BOT_BASELINE, GOTA_BOT_PULLER, GOTA_BOT_RUSHER, GOTA_BOT_PULLER, GOTA_BOT_BASE};
    char key[16];
    for (int s = 0; s < 10; s++) {
        snprintf(key, sizeof key, "bot_%d", s);
        gota_config_set(&cfg, key, bots[s]);
    }
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

typedef struct {
    GotaFrameUnit units[GOTA_MAX_UNITS];
    GotaFrameSpell spells[SPELL_MAX];
    GotaFrameHero heroes[SEATS];
    uint8_t fog[2 * GOTA_FRAME_FOG_BYTES];
    GotaFrame fr;
} Buffers;

static void attach(Buffers *b)
{
    memset(&b->fr, 0, sizeof b->fr);
    b->fr.units = b->units;
    b->fr.units_cap = GOTA_MAX_UNITS;
    b->fr.spells = b->spells;
    b->fr.spells_cap = SPELL_MAX;
    b->fr.heroes = b->heroes;
    b->fr.heroes_cap = SEATS;
    b->fr.fog = b->fog;
    b->fr.fog_cap = (int32_t)sizeof b->fog;
}

/* Every record against the match's own state. */
static void compare(const GotaMatch *m, const Buffers *b, int *spells_seen, int *controls_seen)
{
    const GotaFrame *fr = &b->fr;
    CHECK_EQ(fr->tick, m->tick);
    CHECK_EQ(fr->result, m->result);
    int n = 0;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->kind == GOTA_KIND_NONE) continue;
        const GotaFrameUnit *o = &fr->units[n++];
        CHECK_EQ(o->slot, i);
        CHECK_EQ(o->id, u->id);
        CHECK_EQ(o->x, u->x);
        CHECK_EQ(o->z, u->z);
        CHECK_EQ(o->hp, u->hp);
        CHECK_EQ(o->max_hp, u->max_hp);
        CHECK_EQ(o->target_id, u->target_id);
        CHECK_EQ(o->kind, u->kind);
        CHECK_EQ(o->team, u->team);
        CHECK_EQ(o->sub, u->sub);
        CHECK_EQ(o->lane, u->lane);
        CHECK_EQ(!!(o->flags & GOTA_FRAME_ALIVE), !!u->alive);
        CHECK_EQ(!!(o->flags & GOTA_FRAME_SEEN_RED), m->seen[0][i]);
        CHECK_EQ(!!(o->flags & GOTA_FRAME_SEEN_BLUE), m->seen[1][i]);
        CHECK_EQ(!!(o->flags & GOTA_FRAME_EXPOSED), !!u->exposed);
        int seat = hero_seat_of_slot(m, i);
        CHECK_EQ(o->seat, seat);
        if (seat >= 0) {
            CHECK_EQ(o->level, m->hero[seat].level);
            CHECK_EQ(!!(o->flags & GOTA_FRAME_STUNNED), m->hero[seat].stun > 0);
            CHECK_EQ(!!(o->flags & GOTA_FRAME_SILENCED), m->hero[seat].silence > 0);
        } else {
            CHECK_EQ(o->level, 0);
            CHECK_EQ(!!(o->flags & GOTA_FRAME_STUNNED), m->st[i].stun > 0);
        }
        if (o->flags & (GOTA_FRAME_STUNNED | GOTA_FRAME_ROOTED | GOTA_FRAME_SILENCED)) (*controls_seen)++;
    }
    CHECK_EQ(fr->unit_count, n);
    CHECK_EQ(fr->spell_count, m->spell_n);
    for (int i = 0; i < fr->spell_count && i < m->spell_n; i++) {
        const GotaFrameSpell *o = &fr->spells[i];
        const Spell *s = &m->spell[i];
        CHECK_EQ(o->caster_id, s->caster_id);
        CHECK_EQ(o->x, s->x);
        CHECK_EQ(o->aim_z, s->aim_z);
        CHECK_EQ(o->impact_tick, s->impact_tick);
        CHECK(o->cast >= GOTA_FRAME_CAST_MELEE && o->cast <= GOTA_FRAME_CAST_AREA);
        CHECK(o->seen & (1 << s->team));
        (*spells_seen)++;
    }
    CHECK_EQ(fr->hero_count, SEATS);
    for (int k = 0; k < fr->hero_count; k++) {
        const GotaFrameHero *h = &fr->heroes[k];
        GotaSeatStats st;
        CHECK_EQ(gota_match_seat_stats(m, h->seat, &st), GOTA_OK);
        CHECK_EQ(h->seat, k);
        CHECK_EQ(h->level, st.level);
        CHECK_EQ(h->xp, st.xp);
        CHECK_EQ(h->kills, st.kills);
        CHECK_EQ(h->deaths, st.deaths);
        CHECK_EQ(h->score, st.score);
        CHECK_EQ(h->unit_id, HERO_ID_BASE + k);
    }
    uint8_t grid[MAP_TILES];
    for (int team = 0; team < 2; team++) {
        CHECK_EQ(gota_match_vision(m, team, grid, MAP_TILES), GOTA_OK);
        int wrong = 0;
        for (int t = 0; t < MAP_TILES; t++)
            wrong += ((b->fog[team * GOTA_FRAME_FOG_BYTES + (t >> 3)] >> (t & 7)) & 1) != grid[t];
        CHECK_EQ(wrong, 0);
    }
}

static void test_agrees_with_match(void)
{
    GotaMatch *m = bot_match(5);
    Buffers *b = calloc(1, sizeof *b);
    int spells = 0, controls = 0, creeps = 0;
    for (int round = 0; round < 60 && m->result == GOTA_RESULT_RUNNING; round++) {
        int32_t ran = 0;
        CHECK_EQ(gota_match_step(m, 60, &ran), GOTA_OK);
        attach(b);
        uint64_t before = 0, after = 0;
        gota_match_hash(m, &before);
        CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_OK);
        gota_match_hash(m, &after);
        CHECK(before == after);
        compare(m, b, &spells, &controls);
        for (int i = 0; i < b->fr.unit_count; i++) creeps += b->units[i].kind == GOTA_KIND_CREEP;
    }
    CHECK(spells > 0);     /* the bots cast */
    CHECK(creeps > 0);
    (void)controls;
    free(b);
    gota_match_free(m);
}

static void test_parts_and_errors(void)
{
    GotaMatch *m = bot_match(2);
    Buffers *b = calloc(1, sizeof *b);
    int32_t ran;
    gota_match_step(m, 200, &ran);
    CHECK_EQ(gota_match_frame(NULL, &b->fr), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_frame(m, NULL), GOTA_ERR_NULL);
    /* units only: the other parts are skipped */
    memset(&b->fr, 0, sizeof b->fr);
    b->fr.units = b->units;
    b->fr.units_cap = GOTA_MAX_UNITS;
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_OK);
    CHECK(b->fr.unit_count > 36 + 10);
    CHECK_EQ(b->fr.hero_count, 0);
    /* too small */
    b->fr.units_cap = 5;
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_ERR_BUFFER);
    b->fr.units_cap = -1;
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_ERR_RANGE);
    /* a cap without a buffer */
    memset(&b->fr, 0, sizeof b->fr);
    b->fr.heroes_cap = SEATS;
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_ERR_NULL);
    memset(&b->fr, 0, sizeof b->fr);
    b->fr.fog = b->fog;
    b->fr.fog_cap = GOTA_FRAME_FOG_BYTES;   /* one team only: too small */
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_ERR_BUFFER);
    memset(&b->fr, 0, sizeof b->fr);
    b->fr.heroes = b->heroes;
    b->fr.heroes_cap = 3;
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_ERR_BUFFER);
    /* nothing asked: only the tick */
    memset(&b->fr, 0, sizeof b->fr);
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_OK);
    CHECK_EQ(b->fr.tick, 200);
    CHECK_EQ(b->fr.winner, -1);
    free(b);
    gota_match_free(m);
}

/* A creep-only match has no heroes: zero hero records, units still there. */
static void test_without_heroes(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "heroes", 0);
    int err;
    GotaMatch *m = gota_match_new(&cfg, &err);
    Buffers *b = calloc(1, sizeof *b);
    int32_t ran;
    gota_match_step(m, 100, &ran);
    attach(b);
    CHECK_EQ(gota_match_frame(m, &b->fr), GOTA_OK);
    CHECK_EQ(b->fr.hero_count, 0);
    CHECK(b->fr.unit_count >= 36);
    for (int i = 0; i < b->fr.unit_count; i++) CHECK_EQ(b->units[i].seat, -1);
    free(b);
    gota_match_free(m);
}

int main(void)
{
    test_agrees_with_match();
    test_parts_and_errors();
    test_without_heroes();
    return check_report("test_frames");
}
