/*
 * test_heroes.c -- heroes and commands with the numbers of docs/rules.md: the draft,
 * spawn stats, level growth, mana regen, spawn-room recovery, death, respawn
 * and buyback price, basic attack timing, auto-acquire radii and tie order,
 * ranged attacks, auto-acquire with its per-phase building lists (against a
 * plain loop over every unit), walking, the nearest open tile to a blocked
 * goal (against the plain window scan), refused attacks, every command verb
 * with bad arguments, and a determinism fuzz over 20,000 random commands.
 */
#include <stdint.h>
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "check.h"

#define T GOTA_TILE

/* A match with heroes; classes[s] >= 0 fixes seat s (NULL: the draft). With
 * no_waves the creep cap is filled so no wave ever spawns. */
static GotaMatch *make(int64_t seed, const int *classes, int no_waves)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "seed", seed);
    for (int s = 0; classes && s < SEATS; s++) cfg.hero_class[s] = classes[s];
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    if (m && no_waves) m->lane_creeps = CREEP_CAP;
    return m;
}

static int slot_of(const GotaMatch *m, int seat) { return m->hero_slot[seat]; }

/* centre of tile (tx, tz) */
static int32_t wc(int t) { return map_tile_centre(t); }

/* The test strip: row 62 is open from tile 43 to 68, away from every tower. */
#define STRIP_Z 62

static void place(GotaMatch *m, int seat, int32_t x, int32_t z)
{
    int s = slot_of(m, seat);
    m->unit[s].x = m->snap_x[s] = x;
    m->unit[s].z = m->snap_z[s] = z;
    m->st[s].path.n = 0;
    m->st[s].path_i = 0;
}

/* A hero that stands still and never fights back (a long stun). */
static void dummy(GotaMatch *m, int seat, int32_t x, int32_t z)
{
    place(m, seat, x, z);
    m->hero[seat].stun = 1000000;
}

static void step(GotaMatch *m, int n) { gota_match_step(m, n, NULL); }

static int cmd(GotaMatch *m, int seat, int verb, int32_t target, int32_t x, int32_t z)
{
    GotaCommand c = {verb, target, x, z, 0, 0};
    int32_t answer = -1;
    int rc = gota_match_command(m, seat, &c, &answer);
    CHECK_EQ(rc, GOTA_OK);
    return answer;
}

/* ---- draft ------------------------------------------------------------- */
static void draft_props(const GotaMatch *m)
{
    int seen[HERO_CLASSES] = {0}, roles[2][ROLES] = {{0}};
    for (int s = 0; s < SEATS; s++) {
        int c = m->hero[s].cls;
        CHECK(c >= 0 && c < HERO_CLASSES);
        if (c < 0 || c >= HERO_CLASSES) continue;
        seen[c]++;
        roles[hero_team(s)][HERO_CLASS[c].role]++;
        CHECK_EQ(m->unit[slot_of(m, s)].sub, c);
    }
    for (int c = 0; c < HERO_CLASSES; c++) CHECK_EQ(seen[c], 1);
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < ROLES; r++) CHECK_EQ(roles[t][r], 1);
}

static void test_draft(void)
{
    int first[SEATS], differs = 0;
    for (int seed = 1; seed <= 40; seed++) {
        GotaMatch *a = make(seed, NULL, 1), *b = make(seed, NULL, 1);
        draft_props(a);
        for (int s = 0; s < SEATS; s++) CHECK_EQ(a->hero[s].cls, b->hero[s].cls);
        for (int s = 0; s < SEATS; s++) {
            if (seed == 1) first[s] = a->hero[s].cls;
            else differs |= first[s] != a->hero[s].cls;
        }
        /* a reset with the same seed drafts the same again */
        int before[SEATS];
        for (int s = 0; s < SEATS; s++) before[s] = a->hero[s].cls;
        gota_match_reset(a, seed);
        for (int s = 0; s < SEATS; s++) CHECK_EQ(a->hero[s].cls, before[s]);
        gota_match_free(a);
        gota_match_free(b);
    }
    CHECK(differs);

    /* config classes are honoured, the rest stays role-complete */
    int cls[SEATS] = {6, -1, -1, -1, -1, -1, -1, 2, -1, -1};
    for (int seed = 1; seed <= 10; seed++) {
        GotaMatch *m = make(seed, cls, 1);
        CHECK_EQ(m->hero[0].cls, 6);
        CHECK_EQ(m->hero[7].cls, 2);
        draft_props(m);
        gota_match_free(m);
    }
    /* a full config */
    int full[SEATS] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    GotaMatch *m = make(3, full, 1);
    for (int s = 0; s < SEATS; s++) CHECK_EQ(m->hero[s].cls, full[s]);
    gota_match_free(m);

    /* red takes both carries: no role-complete draft exists; still ten distinct classes */
    int greedy[SEATS] = {1, 6, -1, -1, -1, -1, -1, -1, -1, -1};
    for (int seed = 1; seed <= 10; seed++) {
        m = make(seed, greedy, 1);
        int seen[HERO_CLASSES] = {0};
        for (int s = 0; s < SEATS; s++) seen[m->hero[s].cls]++;
        for (int c = 0; c < HERO_CLASSES; c++) CHECK_EQ(seen[c], 1);
        CHECK_EQ(m->hero[0].cls, 1);
        CHECK_EQ(m->hero[1].cls, 6);
        gota_match_free(m);
    }

    /* a class on two seats is refused */
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.hero_class[2] = 4;
    cfg.hero_class[8] = 4;
    int err = 0;
    CHECK(gota_match_new(&cfg, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_CONFLICT);
    /* a class outside 0..9 is a range error */
    gota_config_default(&cfg);
    CHECK_EQ(gota_config_set(&cfg, "class_3", 10), GOTA_ERR_RANGE);
    cfg.hero_class[3] = 12;
    CHECK(gota_match_new(&cfg, &err) == NULL);
    CHECK_EQ(err, GOTA_ERR_RANGE);
}

/* ---- spawn ------------------------------------------------------------- */
static void test_spawn(void)
{
    int cls[SEATS] = {0, 6, 4, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    const GotaUnit *u = &m->unit[slot_of(m, 0)];
    const UnitState *s = &m->st[slot_of(m, 0)];
    const HeroState *h = &m->hero[0];
    /* Vanguard Knight: 330 HP, 110 mana, 25 damage, 5800 move, 70,000 range, period 24 */
    CHECK_EQ(u->id, 100);
    CHECK_EQ(u->kind, GOTA_KIND_HERO);
    CHECK_EQ(u->sub, 0);
    CHECK_EQ(u->team, GOTA_TEAM_RED);
    CHECK_EQ(u->lane, -1);
    CHECK_EQ(u->radius_q, 28);
    CHECK_EQ(u->alive, 1);
    CHECK_EQ(u->hp, 330);
    CHECK_EQ(u->max_hp, 330);
    CHECK_EQ(h->mana, 110);
    CHECK_EQ(h->max_mana, 110);
    CHECK_EQ(u->damage, 25);
    CHECK_EQ(u->range, 70000);
    CHECK_EQ(h->move_speed, 5800);
    CHECK_EQ(s->speed, 5800);
    CHECK_EQ(s->period, 24);
    CHECK_EQ(s->windup, 10);
    CHECK_EQ(s->swing, -1);
    CHECK_EQ(u->target_id, -1);
    CHECK_EQ(h->level, 1);
    CHECK_EQ(h->xp, 0);
    CHECK_EQ(h->gold, 150);
    CHECK_EQ(h->points, 1);
    for (int a = 0; a < HERO_ABILITIES; a++) {
        CHECK_EQ(h->rank[a], 0);
        CHECK_EQ(h->charges[a], 0);
        CHECK_EQ(h->cooldown[a], 0);
    }
    for (int k = 0; k < SEATS; k++) CHECK_EQ(h->damaged_at[k], -1);
    CHECK_EQ(h->stats.team, 0);
    CHECK_EQ(h->stats.hero_class, 0);
    /* Crossbowman: 230 / 80 / 58, 6000, 390,000, period 36 -> windup 16 */
    u = &m->unit[slot_of(m, 1)];
    CHECK_EQ(u->hp, 230);
    CHECK_EQ(m->hero[1].mana, 80);
    CHECK_EQ(u->damage, 58);
    CHECK_EQ(m->st[slot_of(m, 1)].speed, 6000);
    CHECK_EQ(u->range, 390000);
    CHECK_EQ(m->st[slot_of(m, 1)].windup, 16);
    /* Demon Hunter: period 16 -> windup 7, move 7600 */
    CHECK_EQ(m->st[slot_of(m, 2)].windup, 7);
    CHECK_EQ(m->st[slot_of(m, 2)].speed, 7600);

    /* ids, slots, distinct tiles inside the own spawn room, blue mirrors red */
    for (int seat = 0; seat < SEATS; seat++) {
        int sl = slot_of(m, seat);
        CHECK(sl >= 0);
        CHECK_EQ(m->unit[sl].id, 100 + seat);
        CHECK_EQ(hero_seat_of_slot(m, sl), seat);
        CHECK_EQ(m->unit[sl].team, hero_team(seat));
        int t = map_index_of(m->unit[sl].x, m->unit[sl].z);
        int room = hero_team(seat) == 0 ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
        CHECK(m->map->region[t] & room);
        CHECK(nav_open(&m->nav, m->map, t));
        for (int o = 0; o < seat; o++)
            CHECK(t != map_index_of(m->unit[slot_of(m, o)].x, m->unit[slot_of(m, o)].z));
        if (seat < 5) {
            CHECK_EQ(m->unit[sl].x, -m->unit[slot_of(m, seat + 5)].x);
            CHECK_EQ(m->unit[sl].z, -m->unit[slot_of(m, seat + 5)].z);
            /* red (north-east) faces south-west toward the centre, blue the opposite */
            CHECK(m->unit[sl].facing > 16384 && m->unit[sl].facing < 32768);
            CHECK(m->unit[slot_of(m, seat + 5)].facing > 49152);
        }
    }
    CHECK_EQ(hero_seat_of_slot(m, 0), -1);   /* a building */
    CHECK_EQ(hero_seat_of_slot(m, -1), -1);
    CHECK_EQ(hero_seat_of_slot(m, GOTA_MAX_UNITS), -1);
    CHECK_EQ(hero_team(4), 0);
    CHECK_EQ(hero_team(5), 1);

    /* no heroes: hero_slot stays -1 */
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.heroes = 0;
    GotaMatch *none = gota_match_new(&cfg, NULL);
    for (int seat = 0; seat < SEATS; seat++) CHECK_EQ(none->hero_slot[seat], -1);
    gota_match_free(none);
    gota_match_free(m);
}

/* ---- stats ------------------------------------------------------------- */
static void test_level_stats(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    GotaUnit *u = &m->unit[slot_of(m, 0)];
    HeroState *h = &m->hero[0];
    u->hp = 300;
    h->mana = 100;
    h->level = 5;
    hero_refresh_stats(m, 0);
    CHECK_EQ(u->max_hp, 330 + 4 * 60);
    CHECK_EQ(u->hp, 300 + 4 * 60);        /* current HP rises by the same delta */
    CHECK_EQ(h->max_mana, 110 + 4 * 8);
    CHECK_EQ(h->mana, 100 + 4 * 8);
    CHECK_EQ(u->damage, 25 + 4 * 5);
    CHECK_EQ(h->move_speed, 5800 + 4 * 60);
    CHECK_EQ(m->st[slot_of(m, 0)].speed, 5800 + 4 * 60);
    /* equipment: Ranger Boots +800 move, Knight Armor +120 HP, Arcane Spellbook +30 mana +12 dmg;
     * a consumable adds nothing */
    h->item[0] = 8;
    h->item[1] = 16;
    h->item[2] = 20;
    h->item[3] = 1;
    h->item_count[0] = h->item_count[1] = h->item_count[2] = h->item_count[3] = 1;
    hero_refresh_stats(m, 0);
    CHECK_EQ(h->move_speed, 6040 + 800);
    CHECK_EQ(u->max_hp, 570 + 120);
    CHECK_EQ(u->hp, 540 + 120);
    CHECK_EQ(h->max_mana, 142 + 30);
    CHECK_EQ(h->mana, 132 + 30);
    CHECK_EQ(u->damage, 45 + 12);
    /* refreshing again changes nothing; never above max */
    hero_refresh_stats(m, 0);
    CHECK_EQ(u->hp, 660);
    u->hp = u->max_hp;
    hero_refresh_stats(m, 0);
    CHECK_EQ(u->hp, u->max_hp);
    /* losing an item lowers the maximum and clamps */
    h->item[1] = 0;
    hero_refresh_stats(m, 0);
    CHECK_EQ(u->max_hp, 570);
    CHECK_EQ(u->hp, 570);
    gota_match_free(m);
}

/* ---- regen and recovery ------------------------------------------------ */
static void test_regen(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    GotaUnit *u = &m->unit[slot_of(m, 0)];
    HeroState *h = &m->hero[0];
    /* outside the spawn room: +1 mana every 6 ticks (4 per second), no HP */
    place(m, 0, wc(60), wc(STRIP_Z));
    u->hp = 100;
    h->mana = 10;
    step(m, 24);
    CHECK_EQ(h->mana, 14);
    CHECK_EQ(u->hp, 100);
    step(m, 120);
    CHECK_EQ(h->mana, 34);
    CHECK_EQ(u->hp, 100);
    /* full mana stays full */
    h->mana = 110;
    step(m, 12);
    CHECK_EQ(h->mana, 110);

    /* inside: max/5 per second, i.e. 66 HP and 22 mana (+4 regen) per 24 ticks */
    place(m, 0, h->spawn_x, h->spawn_z);
    step(m, 120 - m->tick % 120);   /* align to a cycle */
    CHECK_EQ(m->tick % 120, 0);
    u->hp = 1;
    h->mana = 0;
    for (int w = 1; w <= 4; w++) {
        step(m, 24);
        CHECK_EQ(u->hp, 1 + 66 * w);
        CHECK_EQ(h->mana, w * (22 + 4));
    }
    step(m, 48);
    CHECK_EQ(u->hp, 330);                 /* never above the maximum */
    CHECK_EQ(h->mana, 110);
    /* an odd maximum: two half cycles add up to exactly the maximum */
    u->max_hp = 1003;
    step(m, 120 - m->tick % 120);
    int32_t got = 0;
    for (int half = 0; half < 2; half++) {
        u->hp = 1;
        step(m, 60);
        got += u->hp - 1;
    }
    CHECK_EQ(got, 1003);
    gota_match_free(m);
}

static void test_recharge(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    HeroState *h = &m->hero[0];
    /* a W strike with one charge left: recharge 288 per charge, restarting below 3 */
    h->rank[1] = 1;
    h->charges[1] = 1;
    h->cooldown[1] = 48;
    h->recharge[1] = 288;
    step(m, 48);
    CHECK_EQ(h->cooldown[1], 0);
    CHECK_EQ(h->recharge[1], 240);
    step(m, 240);
    CHECK_EQ(h->charges[1], 2);
    CHECK_EQ(h->recharge[1], 288);
    step(m, 288);
    CHECK_EQ(h->charges[1], 3);
    CHECK_EQ(h->recharge[1], 0);
    step(m, 300);
    CHECK_EQ(h->charges[1], 3);
    /* a one-charge ability: recharge = cooldown */
    h->rank[0] = 1;
    h->charges[0] = 0;
    h->cooldown[0] = h->recharge[0] = 192;
    step(m, 191);
    CHECK_EQ(h->charges[0], 0);
    CHECK_EQ(h->cooldown[0], 1);
    step(m, 1);
    CHECK_EQ(h->charges[0], 1);
    CHECK_EQ(h->cooldown[0], 0);
    CHECK_EQ(h->recharge[0], 0);
    /* controls tick down */
    h->stun = 5;
    h->root = 7;
    h->silence = 9;
    step(m, 6);
    CHECK_EQ(h->stun, 0);
    CHECK_EQ(h->root, 1);
    CHECK_EQ(h->silence, 3);
    gota_match_free(m);
}

/* ---- death, respawn, buyback price ------------------------------------ */
static void kill(GotaMatch *m, int seat, int killer_seat)
{
    int s = slot_of(m, seat);
    m->unit[s].hp = 1;
    combat_queue(m, slot_of(m, killer_seat), s, 5);
    combat_resolve(m);
}

static void test_respawn(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    GotaUnit *u = &m->unit[slot_of(m, 0)];
    HeroState *h = &m->hero[0];
    step(m, 10);
    place(m, 0, wc(60), wc(STRIP_Z));
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(50), wc(STRIP_Z)), GOTA_ACT_OK);
    step(m, 3);
    CHECK_EQ(m->st[slot_of(m, 0)].face.known, 1);   /* walking west: steering keeps its direction */
    h->rank[1] = 1;
    h->charges[1] = 0;
    h->cooldown[1] = 30;
    h->recharge[1] = 100;
    h->stun = 50;
    h->mana = 3;
    cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0);   /* stunned: refused, but harmless */
    h->stun = 0;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(50), wc(STRIP_Z)), GOTA_ACT_OK);
    h->root = 10;
    int32_t expect[] = {216, 336, 456, 576};
    for (int d = 1; d <= 4; d++) {
        int32_t t0 = m->tick;
        kill(m, 0, 5);
        CHECK_EQ(u->alive, 0);
        CHECK_EQ(h->deaths, d);
        CHECK_EQ(h->stats.deaths, d);
        CHECK_EQ(h->respawn_at, t0 + expect[d - 1]);
        CHECK_EQ(h->buyback_price, 100 * d);
        CHECK_EQ(h->order, ORDER_IDLE);
        CHECK_EQ(h->root, 0);
        CHECK_EQ(u->target_id, -1);
        GotaHero view;
        CHECK_EQ(gota_match_hero(m, 0, &view), GOTA_OK);
        CHECK_EQ(view.respawn_ticks, expect[d - 1]);
        CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(50), wc(STRIP_Z)), GOTA_ACT_DEAD);
        step(m, expect[d - 1] - 1);
        CHECK_EQ(u->alive, 0);
        CHECK_EQ(h->cooldown[1], 30);    /* cooldowns do not run while dead */
        step(m, 1);
        CHECK_EQ(u->alive, 1);
        CHECK_EQ(u->hp, u->max_hp);
        CHECK_EQ(h->mana, h->max_mana);
        CHECK_EQ(u->x, h->spawn_x);
        CHECK_EQ(u->z, h->spawn_z);
        CHECK_EQ(m->st[slot_of(m, 0)].face.known, 0);   /* the facing to the centre, not the old direction */
        CHECK_EQ(h->cooldown[1], 0);
        CHECK_EQ(h->recharge[1], 0);
        CHECK_EQ(h->charges[1], 3);      /* learned W refilled */
        CHECK_EQ(h->charges[0], 0);      /* unlearned stays empty */
        CHECK_EQ(h->respawn_at, 0);
        h->charges[1] = 0;
        h->cooldown[1] = 30;
    }
    /* the cap: 216 + 120 * 11 = 1,536 > 1,440 */
    h->deaths = 11;
    int32_t t0 = m->tick;
    kill(m, 0, 5);
    CHECK_EQ(h->deaths, 12);
    CHECK_EQ(h->respawn_at, t0 + 1440);
    CHECK_EQ(h->buyback_price, 1200);
    h->deaths = 10;   /* the 11th death: 216 + 1,200 = 1,416 */
    hero_respawn(m, 0);
    t0 = m->tick;
    kill(m, 0, 5);
    CHECK_EQ(h->respawn_at, t0 + 1416);
    gota_match_free(m);
}

/* ---- basic attacks ----------------------------------------------------- */
static void test_attack_timing(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, 5, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    int a = slot_of(m, 0), v = slot_of(m, 5);
    place(m, 0, wc(58), wc(STRIP_Z));
    dummy(m, 5, wc(58) + 50000, wc(STRIP_Z));
    m->unit[v].hp = m->unit[v].max_hp = 5000;
    int32_t hp0 = 5000, hits_at[3] = {0}, n = 0, last = hp0;
    for (int k = 1; k <= 60; k++) {
        step(m, 1);
        if (m->unit[v].hp != last) {
            CHECK_EQ(last - m->unit[v].hp, 25);
            if (n < 3) hits_at[n] = k;
            n++;
            last = m->unit[v].hp;
        }
    }
    CHECK_EQ(m->unit[a].target_id, 105);
    CHECK_EQ(n, 3);
    CHECK_EQ(hits_at[0], 11);   /* swing 0 on tick 1, hit at windup 10 */
    CHECK_EQ(hits_at[1], 35);   /* then every 24 ticks */
    CHECK_EQ(hits_at[2], 59);
    CHECK_EQ(m->unit[a].x, wc(58));   /* in reach: no step */

    /* a walk order resets the swing; attacking again starts from 0 */
    step(m, 1);   /* tick 61: swing 12 (the hit landed at 10 on tick 59) */
    CHECK_EQ(m->st[a].swing, 12);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(56), wc(STRIP_Z)), GOTA_ACT_OK);
    CHECK_EQ(m->st[a].swing, -1);
    CHECK_EQ(m->unit[a].target_id, -1);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(m->hero[0].order, ORDER_ATTACK);
    last = m->unit[v].hp;
    step(m, 10);
    CHECK_EQ(m->unit[v].hp, last);
    step(m, 1);   /* the 11th tick after the order */
    CHECK_EQ(m->unit[v].hp, last - 25);
    /* the same attack order again keeps the swing going */
    step(m, 5);
    int32_t sw = m->st[a].swing;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(m->st[a].swing, sw);
    step(m, 24 - 5 - 1);
    CHECK_EQ(m->unit[v].hp, last - 25);
    step(m, 1);
    CHECK_EQ(m->unit[v].hp, last - 50);

    /* a stun resets the swing: 3 stunned unit phases, then a fresh swing */
    step(m, 3);
    m->hero[0].stun = 3;
    last = m->unit[v].hp;
    step(m, 2);
    CHECK_EQ(m->st[a].swing, -1);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_STUNNED);
    step(m, 1);   /* the third stunned phase */
    CHECK_EQ(m->st[a].swing, -1);
    CHECK_EQ(m->hero[0].stun, 0);
    step(m, 1);   /* free: swing 0 */
    CHECK_EQ(m->st[a].swing, 0);
    step(m, 9);
    CHECK_EQ(m->unit[v].hp, last);
    step(m, 1);
    CHECK_EQ(m->unit[v].hp, last - 25);
    CHECK_EQ(hp0 - m->unit[v].hp, 25 * 6);
    gota_match_free(m);
}

static void test_acquire(void)
{
    int cls[SEATS] = {0, 1, -1, -1, -1, 5, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    int a = slot_of(m, 0);
    /* tile 60: the blue mid outer tower's footprint is more than 8 tiles away */
    int32_t x0 = wc(60), z0 = wc(STRIP_Z);
    /* idle melee: 150,000 */
    place(m, 0, x0, z0);
    dummy(m, 5, x0 + 160000, z0);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, -1);
    CHECK_EQ(m->unit[a].x, x0);
    dummy(m, 5, x0 + 150000, z0);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, 105);
    /* it chases what it acquired: out of reach, it moves */
    step(m, 10);
    CHECK(m->unit[a].x > x0);

    /* walking acquires nothing */
    place(m, 0, x0, z0);
    dummy(m, 5, x0 + 100000, z0);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, x0, z0 + 2 * T), GOTA_ACT_OK);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, -1);
    CHECK_EQ(m->hero[0].order, ORDER_WALK);

    /* attack-move melee: 480,000 */
    place(m, 0, x0, z0);
    dummy(m, 5, x0 + 470000, z0);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK_MOVE, 0, x0 - T, z0), GOTA_ACT_OK);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, 105);
    CHECK_EQ(m->hero[0].order, ORDER_ATTACK_MOVE);
    place(m, 0, x0, z0);
    dummy(m, 5, x0 + 490000, z0);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK_MOVE, 0, x0 - T, z0), GOTA_ACT_OK);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, -1);
    /* ... and arrives, then stands idle */
    step(m, 60);
    CHECK_EQ(m->hero[0].order, ORDER_IDLE);
    CHECK(fx_dist2(m->unit[a].x, m->unit[a].z, x0 - T, z0) <= (int64_t)NAV_REACH * NAV_REACH);

    /* ties: red takes the lower z, blue the higher z */
    place(m, 0, x0, z0);
    m->hero[0].stun = 0;
    cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0);
    dummy(m, 5, x0, z0 - 100000);
    dummy(m, 6, x0, z0 + 100000);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, 105);
    place(m, 1, m->hero[1].spawn_x, m->hero[1].spawn_z);   /* far away: not in the blue test */
    dummy(m, 0, x0, z0 - 100000);
    dummy(m, 2, x0, z0 + 100000);
    place(m, 5, x0, z0);
    m->hero[5].stun = 0;
    cmd(m, 5, GOTA_CMD_STOP, 0, 0, 0);
    m->hero[6].stun = 1000000;
    place(m, 6, wc(40), wc(40));
    step(m, 1);
    CHECK_EQ(m->unit[slot_of(m, 5)].target_id, 102);
    gota_match_free(m);

    /* a ranged hero (Ranger, range 330,000) attacks from its range without moving */
    int rcls[SEATS] = {1, -1, -1, -1, -1, 5, -1, -1, -1, -1};
    m = make(6, rcls, 1);
    a = slot_of(m, 0);
    int v = slot_of(m, 5);
    place(m, 0, x0, z0);
    dummy(m, 5, x0 + 340000, z0);
    step(m, 1);
    CHECK_EQ(m->unit[a].target_id, -1);   /* idle ranged: own range only */
    dummy(m, 5, x0 + 330000, z0);
    CHECK(m->seen[0][v]);
    int32_t hp = m->unit[v].hp;
    step(m, 8);
    CHECK_EQ(m->unit[v].hp, hp);
    step(m, 1);   /* windup 18 * 45 / 100 = 8: the 9th tick */
    CHECK_EQ(m->unit[v].hp, hp - 25);
    step(m, 18);
    CHECK_EQ(m->unit[v].hp, hp - 50);
    CHECK_EQ(m->unit[a].x, x0);
    CHECK_EQ(m->unit[a].z, z0);
    /* buildings: the exposed outer tower is acquired by its footprint distance, the
     * unexposed inner one never (both from an open tile next to the footprint:
     * a tower's own footprint hides its centre tile from farther away) */
    int outer = -1, inner = -1;
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        if (b->kind == GOTA_KIND_TOWER && b->team == GOTA_TEAM_BLUE && b->lane == 1 && b->tier == GOTA_TIER_OUTER)
            outer = m->building_slot[i];
        if (b->kind == GOTA_KIND_TOWER && b->team == GOTA_TEAM_BLUE && b->lane == 1 && b->tier == GOTA_TIER_INNER)
            inner = m->building_slot[i];
    }
    place(m, 5, m->hero[5].spawn_x, m->hero[5].spawn_z);
    int towers[2] = {outer, inner};
    for (int k = 0; k < 2; k++) {
        int tw = towers[k], ttx = map_tile_of(m->unit[tw].x), ttz = map_tile_of(m->unit[tw].z), spot = -1;
        for (int dz = -2; dz <= 2 && spot < 0; dz++)
            for (int dx = -2; dx <= 2 && spot < 0; dx++)
                if (nav_open(&m->nav, m->map, map_index(ttx + dx, ttz + dz))) spot = map_index(ttx + dx, ttz + dz);
        CHECK(spot >= 0);
        place(m, 0, wc(spot % MAP_N), wc(spot / MAP_N));
        cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0);
        step(m, 2);
        CHECK(m->seen[0][tw]);
        if (k == 0) {
            CHECK_EQ(m->unit[a].target_id, m->unit[outer].id);
            CHECK_EQ(m->st[a].swing, 1);
        } else {
            CHECK(m->unit[a].target_id != m->unit[inner].id);
            CHECK_EQ(m->unit[inner].hp, m->unit[inner].max_hp);
        }
    }
    /* a rooted hero keeps attacking but does not chase */
    place(m, 0, x0, z0);
    cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0);
    dummy(m, 5, x0 + 400000, z0);
    step(m, 1);
    m->hero[0].root = 30;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_OK);
    step(m, 10);
    CHECK_EQ(m->unit[a].x, x0);
    CHECK_EQ(m->st[a].swing, -1);
    step(m, 30);
    CHECK(m->unit[a].x > x0);
    gota_match_free(m);
}

static void test_walk(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    int a = slot_of(m, 0);
    place(m, 0, wc(56), wc(STRIP_Z));
    int32_t gx = wc(62) + 7000, gz = wc(STRIP_Z) - 3000;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, gx, gz), GOTA_ACT_OK);
    CHECK_EQ(m->hero[0].order, ORDER_WALK);
    CHECK_EQ(m->hero[0].order_x, gx);
    step(m, 1);
    CHECK(m->st[a].path.n > 0);           /* planned at once */
    int k = 0;
    while (m->hero[0].order == ORDER_WALK && k < 400) {
        step(m, 1);
        k++;
    }
    CHECK_EQ(m->hero[0].order, ORDER_IDLE);
    CHECK(fx_dist2(m->unit[a].x, m->unit[a].z, gx, gz) <= (int64_t)NAV_REACH * NAV_REACH);
    /* 6 tiles at 5,800 per tick take at least 62 ticks */
    CHECK(k >= 60);
    /* a walk into a wall ends at the nearest open tile */
    int32_t bx = wc(75), bz = wc(STRIP_Z);   /* row 62 is blocked at tile 69.. */
    CHECK(!nav_open(&m->nav, m->map, map_index_of(bx, bz)));
    int32_t ox, oz;
    CHECK(hero_goal_point(m, bx, bz, &ox, &oz));
    CHECK(nav_open(&m->nav, m->map, map_index_of(ox, oz)));
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, bx, bz), GOTA_ACT_OK);
    for (k = 0; m->hero[0].order == ORDER_WALK && k < 600; k++) step(m, 1);
    CHECK_EQ(m->hero[0].order, ORDER_IDLE);
    CHECK(fx_dist2(m->unit[a].x, m->unit[a].z, ox, oz) <= (int64_t)NAV_REACH * NAV_REACH);
    gota_match_free(m);
}

/* hero_goal_point's plain form: every tile of the +-NAV_GOAL_SEARCH window,
 * nearest by squared distance, then by tile index (mirrored on blue's half of
 * the map: map_tie_key) */
static int plain_goal_point(const GotaMatch *m, int32_t x, int32_t z, int32_t *gx, int32_t *gz)
{
    if (!map_world_inside(x, z)) return 0;
    int tx = map_tile_of(x), tz = map_tile_of(z);
    if (map_in_bounds(tx, tz) && nav_open(&m->nav, m->map, map_index(tx, tz))) {
        *gx = x;
        *gz = z;
        return 1;
    }
    int best = -1, best_d = 0;
    int flip = tx < tz || (tx == tz && tx < MAP_N / 2);   /* blue's half */
    for (int dz = -NAV_GOAL_SEARCH; dz <= NAV_GOAL_SEARCH; dz++)
        for (int dx = -NAV_GOAL_SEARCH; dx <= NAV_GOAL_SEARCH; dx++) {
            int nx = tx + dx, nz = tz + dz;
            if (!map_in_bounds(nx, nz)) continue;
            int t = map_index(nx, nz), d = dx * dx + dz * dz;
            int tie = best >= 0 && d == best_d && (flip ? t > best : t < best);
            if (nav_open(&m->nav, m->map, t) && (best < 0 || d < best_d || tie)) {
                best = t;
                best_d = d;
            }
        }
    if (best < 0) return 0;
    *gx = map_tile_centre(best % MAP_N);
    *gz = map_tile_centre(best / MAP_N);
    return 1;
}

/* 1 when hero_goal_point and the plain search agree at (x,z) */
static int goal_point_same(const GotaMatch *m, int32_t x, int32_t z)
{
    int32_t ax = -1, az = -1, bx = -1, bz = -1;
    int a = hero_goal_point(m, x, z, &ax, &az), b = plain_goal_point(m, x, z, &bx, &bz);
    return a == b && ax == bx && az == bz;
}

/* The ring search of hero_goal_point against the plain window scan: at every
 * tile of the map (off-centre points too), then inside hand-blocked squares of
 * every size up to past the window, where the answer sits on the outer rings
 * or does not exist. */
static void test_goal_point(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    int bad = 0, blocked = 0;
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) {
            if (!nav_open(&m->nav, m->map, map_index(tx, tz))) blocked++;
            bad += !goal_point_same(m, wc(tx), wc(tz));
            bad += !goal_point_same(m, wc(tx) - T / 2 + 1, wc(tz) + T / 2 - 1);
        }
    CHECK(blocked > 0);
    CHECK_EQ(bad, 0);
    static const int centre[][2] = {{64, 64}, {40, 90}, {100, 30}, {3, 5}, {120, 122}};
    int none = 0;
    for (size_t c = 0; c < sizeof centre / sizeof centre[0]; c++)
        for (int half = 0; half <= NAV_GOAL_SEARCH + 1; half++) {
            uint8_t keep[MAP_TILES];
            memcpy(keep, m->nav.occupied, sizeof keep);
            int cx = centre[c][0] % MAP_N, cz = centre[c][1] % MAP_N;
            for (int z = cz - half; z <= cz + half; z++)
                for (int x = cx - half + (int)c % 2; x <= cx + half; x++)   /* odd centres: off by one */
                    if (map_in_bounds(x, z)) m->nav.occupied[map_index(x, z)] = 1;
            for (int dz = -half; dz <= half; dz++)
                for (int dx = -half; dx <= half; dx++) {
                    bad += !goal_point_same(m, wc(cx + dx), wc(cz + dz));
                    int32_t gx, gz;
                    none += !hero_goal_point(m, wc(cx + dx), wc(cz + dz), &gx, &gz);
                }
            memcpy(m->nav.occupied, keep, sizeof keep);
        }
    CHECK_EQ(bad, 0);
    CHECK(none > 0);   /* the largest squares leave no open tile in the window */
    gota_match_free(m);
}

/* ---- commands ---------------------------------------------------------- */
static int building_slot(const GotaMatch *m, int team, int lane, int tier)
{
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        if (b->kind == GOTA_KIND_TOWER && b->team == team && b->lane == lane && b->tier == tier)
            return m->building_slot[i];
    }
    return -1;
}

static void test_commands(void)
{
    int cls[SEATS] = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(5, cls, 1);
    HeroState *h = &m->hero[0];
    GotaCommand c = {GOTA_CMD_NOOP, 0, 0, 0, 0, 0};
    int32_t ans = -1;
    CHECK_EQ(gota_match_command(NULL, 0, &c, &ans), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_command(m, 0, NULL, &ans), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_command(m, -1, &c, &ans), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_command(m, 10, &c, &ans), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_command(m, INT32_MIN, &c, &ans), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_command(m, 0, &c, NULL), GOTA_OK);
    CHECK_EQ(gota_match_command(m, 0, &c, &ans), GOTA_OK);
    CHECK_EQ(ans, GOTA_ACT_OK);
    CHECK_EQ(h->stats.commands, 2);
    CHECK_EQ(h->stats.invalid_actions, 0);

    CHECK_EQ(cmd(m, 0, 99, 0, 0, 0), GOTA_ACT_BAD_VERB);
    CHECK_EQ(cmd(m, 0, -1, 0, 0, 0), GOTA_ACT_BAD_VERB);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_VERBS, 0, 0, 0), GOTA_ACT_BAD_VERB);
    CHECK_EQ(h->last_error, GOTA_ACT_BAD_VERB);
    CHECK_EQ(h->stats.invalid_actions, 3);
    CHECK_EQ(h->stats.commands, 5);

    step(m, 2);
    place(m, 0, wc(58), wc(STRIP_Z));
    step(m, 1);
    /* points outside the map */
    int32_t bad[][2] = {{INT32_MAX, 0}, {0, INT32_MIN}, {MAP_HALF_WORLD, 0}, {0, -MAP_HALF_WORLD + 17999},
                        {INT32_MIN, INT32_MIN}};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, bad[i][0], bad[i][1]), GOTA_ACT_BAD_POINT);
        CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK_MOVE, 0, bad[i][0], bad[i][1]), GOTA_ACT_BAD_POINT);
    }
    CHECK_EQ(h->order, ORDER_IDLE);
    CHECK_EQ(h->last_error, GOTA_ACT_BAD_POINT);
    /* a point inside the map with no open tile within 8 (the forest north of the strip) */
    int32_t fx = 0, fz = 0, found = 0;
    for (int tz = 10; tz < 106 && !found; tz++)
        for (int tx = 10; tx < 106 && !found; tx++) {
            int32_t gx, gz;
            if (!hero_goal_point(m, wc(tx), wc(tz), &gx, &gz)) {
                fx = wc(tx);
                fz = wc(tz);
                found = 1;
            }
        }
    if (found) CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, fx, fz), GOTA_ACT_BAD_POINT);

    /* ATTACK: unknown ids, allies, self, not visible, unexposed structures */
    int32_t ids[] = {999999, -1, INT32_MIN, INT32_MAX, 99, 110, 1000000};
    for (int i = 0; i < 7; i++) CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, ids[i], 0, 0), GOTA_ACT_BAD_TARGET);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 101, 0, 0), GOTA_ACT_BAD_TARGET);   /* ally */
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 100, 0, 0), GOTA_ACT_BAD_TARGET);   /* self */
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, m->unit[m->god_slot[0]].id, 0, 0), GOTA_ACT_BAD_TARGET);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 107, 0, 0), GOTA_ACT_NOT_VISIBLE); /* enemy in its base */
    int inner = building_slot(m, GOTA_TEAM_BLUE, 1, GOTA_TIER_INNER);
    int outer = building_slot(m, GOTA_TEAM_BLUE, 1, GOTA_TIER_OUTER);
    m->seen[0][inner] = 0;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, m->unit[inner].id, 0, 0), GOTA_ACT_NOT_VISIBLE);
    m->seen[0][inner] = 1;
    m->seen[0][outer] = 1;
    CHECK_EQ(m->unit[inner].exposed, 0);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, m->unit[inner].id, 0, 0), GOTA_ACT_BAD_TARGET);   /* unexposed */
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, m->unit[m->god_slot[1]].id, 0, 0), GOTA_ACT_NOT_VISIBLE);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, m->unit[outer].id, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->order, ORDER_ATTACK);
    CHECK_EQ(m->unit[slot_of(m, 0)].target_id, m->unit[outer].id);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 0, 0, 0), GOTA_ACT_OK);            /* 0 clears */
    CHECK_EQ(h->order, ORDER_IDLE);
    CHECK_EQ(m->unit[slot_of(m, 0)].target_id, -1);
    /* a visible enemy hero */
    dummy(m, 5, wc(60), wc(STRIP_Z));
    step(m, 1);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->order, ORDER_IDLE);
    CHECK_EQ(m->unit[slot_of(m, 0)].target_id, -1);

    /* controls */
    h->stun = 5;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_STUNNED);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK_MOVE, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_STUNNED);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_STUNNED);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0), GOTA_ACT_STUNNED);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_NOOP, 0, 0, 0), GOTA_ACT_OK);
    h->stun = 0;
    h->root = 5;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_ROOTED);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK_MOVE, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_ROOTED);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_OK);         /* rooted heroes still attack */
    h->root = 0;
    h->channel = 10;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_CHANNELING);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_CHANNELING);
    h->channel = 0;

    /* verbs handed to abilities.c and economy.c answer with their codes and never crash */
    int32_t ext[] = {INT32_MIN, -1, 4, 6, 99, INT32_MAX};
    for (int i = 0; i < 6; i++) {
        GotaCommand e = {GOTA_CMD_CAST_TARGET, ext[i], ext[i], ext[i], ext[i], ext[i]};
        for (int verb = GOTA_CMD_CAST_TARGET; verb <= GOTA_CMD_LEVEL; verb++) {
            e.verb = verb;
            ans = -1;
            CHECK_EQ(gota_match_command(m, 0, &e, &ans), GOTA_OK);
            CHECK(ans > GOTA_ACT_OK && ans < GOTA_ACT_CODES);
        }
    }
    CHECK_EQ(cmd(m, 0, GOTA_CMD_BUYBACK, 0, 0, 0), GOTA_ACT_ALIVE);

    /* dead */
    kill(m, 0, 5);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_WALK, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_DEAD);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK_MOVE, 0, wc(60), wc(STRIP_Z)), GOTA_ACT_DEAD);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_ATTACK, 105, 0, 0), GOTA_ACT_DEAD);
    CHECK_EQ(cmd(m, 0, GOTA_CMD_STOP, 0, 0, 0), GOTA_ACT_DEAD);
    m->hero[5].stun = 0;
    CHECK_EQ(cmd(m, 5, GOTA_CMD_ATTACK, 100, 0, 0), GOTA_ACT_BAD_TARGET);  /* a dead enemy */
    h->gold = 50;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_BUYBACK, 0, 0, 0), GOTA_ACT_NO_GOLD);
    h->gold = 150;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_BUYBACK, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->gold, 50);
    CHECK_EQ(m->unit[slot_of(m, 0)].alive, 1);
    CHECK_EQ(m->unit[slot_of(m, 0)].x, h->spawn_x);

    /* stats: every command counted, invalid ones too */
    GotaSeatStats st;
    CHECK_EQ(gota_match_seat_stats(m, 0, &st), GOTA_OK);
    CHECK(st.commands > 60);
    CHECK(st.invalid_actions > 40 && st.invalid_actions < st.commands);

    /* a finished match answers MATCH_OVER to everything */
    m->result = GOTA_RESULT_TIMEOUT;
    CHECK_EQ(cmd(m, 0, GOTA_CMD_NOOP, 0, 0, 0), GOTA_ACT_MATCH_OVER);
    CHECK_EQ(cmd(m, 0, 99, 0, 0, 0), GOTA_ACT_MATCH_OVER);
    CHECK_EQ(cmd(m, 3, GOTA_CMD_WALK, 0, 0, 0), GOTA_ACT_MATCH_OVER);
    gota_match_free(m);

    /* a match without heroes */
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.heroes = 0;
    m = gota_match_new(&cfg, NULL);
    for (int verb = -2; verb < 14; verb++) CHECK_EQ(cmd(m, 4, verb, 100, 0, 0), GOTA_ACT_NO_HERO);
    step(m, 5);
    gota_match_free(m);
}

/* ---- fuzz -------------------------------------------------------------- */
static uint64_t fuzz_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int32_t fuzz_int(uint64_t *s, int32_t lo, int32_t hi)
{
    static const int32_t extreme[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
    uint64_t r = fuzz_next(s);
    if (r % 16 == 0) return extreme[(r >> 8) % 7];
    return lo + (int32_t)((r >> 16) % (uint64_t)((int64_t)hi - lo + 1));
}

static void fuzz_command(uint64_t *s, const GotaMatch *m, int32_t *seat, GotaCommand *c)
{
    *seat = (int32_t)(fuzz_next(s) % 64 == 0 ? fuzz_int(s, -3, 13) : (int32_t)(fuzz_next(s) % 10));
    c->verb = fuzz_int(s, -5, 20);
    uint64_t pick = fuzz_next(s) % 4;
    if (pick == 0 && m->unit_n > 0) c->target = m->unit[fuzz_next(s) % (uint64_t)m->unit_n].id;
    else if (pick == 1) c->target = fuzz_int(s, 100, 109);
    else c->target = fuzz_int(s, -10, 2000);
    c->x = fuzz_int(s, -MAP_HALF_WORLD - T, MAP_HALF_WORLD + T);
    c->z = fuzz_int(s, -MAP_HALF_WORLD - T, MAP_HALF_WORLD + T);
    c->slot = fuzz_int(s, -2, 8);
    c->item = fuzz_int(s, -2, 25);
}

static void test_fuzz(void)
{
    GotaMatch *a = make(77, NULL, 0), *b = make(77, NULL, 0);
    for (int s = 0; s < SEATS; s++) {
        a->hero[s].gold = b->hero[s].gold = 3000;
        economy_add_xp(a, s, (int64_t)400 * s * XP_FRACTION);
        economy_add_xp(b, s, (int64_t)400 * s * XP_FRACTION);
    }
    uint64_t rs = 0x9E3779B97F4A7C15ull;
    int mismatch = 0, bad_rc = 0, over = 0;
    for (int i = 0; i < 20000; i++) {
        int32_t seat;
        GotaCommand c;
        fuzz_command(&rs, a, &seat, &c);
        int32_t ea = -7, eb = -7;
        int ra = gota_match_command(a, seat, &c, &ea), rb = gota_match_command(b, seat, &c, &eb);
        int seat_ok = seat >= 0 && seat < SEATS;
        if (ra != rb || ea != eb) mismatch++;
        if (ra != (seat_ok ? GOTA_OK : GOTA_ERR_INDEX)) bad_rc++;
        if (seat_ok && (ea < 0 || ea >= GOTA_ACT_CODES)) bad_rc++;
        if (i % 16 == 15) {
            if (a->result != GOTA_RESULT_RUNNING) {
                over++;
                gota_match_reset(a, 77 + i);
                gota_match_reset(b, 77 + i);
            }
            step(a, 1);
            step(b, 1);
        }
        if (i % 2000 == 1999) {
            uint64_t ha = 0, hb = 1;
            gota_match_hash(a, &ha);
            gota_match_hash(b, &hb);
            if (ha != hb) mismatch++;
        }
    }
    CHECK_EQ(mismatch, 0);
    CHECK_EQ(bad_rc, 0);
    /* the heroes' state stays sane */
    for (int s = 0; s < SEATS; s++) {
        const GotaUnit *u = &a->unit[slot_of(a, s)];
        const HeroState *h = &a->hero[s];
        CHECK(u->hp >= 0 && u->hp <= u->max_hp);
        CHECK(h->mana >= 0 && h->mana <= h->max_mana);
        CHECK(u->alive || h->respawn_at > a->tick);
        CHECK(h->stats.commands > 0);
        CHECK(map_world_inside(u->x, u->z));
    }
    CHECK(a->tick > 0 || over > 0);
    gota_match_free(a);
    gota_match_free(b);

    /* the same fuzz seed on a fresh pair reproduces the same final hash */
    uint64_t h1 = 0, h2 = 0;
    for (int run = 0; run < 2; run++) {
        GotaMatch *m = make(91, NULL, 0);
        uint64_t r2 = 12345;
        for (int i = 0; i < 3000; i++) {
            int32_t seat;
            GotaCommand c;
            fuzz_command(&r2, m, &seat, &c);
            gota_match_command(m, seat, &c, NULL);
            if (i % 8 == 7 && m->result == GOTA_RESULT_RUNNING) step(m, 1);
        }
        gota_match_hash(m, run ? &h2 : &h1);
        gota_match_free(m);
    }
    CHECK(h1 == h2);
}

/* ---- a whole match: everyone attack-moves to the enemy god ------------- */
static void test_skirmish(void)
{
    GotaMatch *m = make(2026, NULL, 0);
    int died = 0;
    for (int k = 0; k < 3000 && m->result == GOTA_RESULT_RUNNING; k++) {
        if (k % 48 == 0)
            for (int s = 0; s < SEATS; s++) {
                const GotaUnit *god = &m->unit[m->god_slot[1 - hero_team(s)]];
                cmd(m, s, GOTA_CMD_ATTACK_MOVE, 0, god->x, god->z);
                cmd(m, s, GOTA_CMD_BUYBACK, 0, 0, 0);
            }
        step(m, 1);
        for (int s = 0; s < SEATS; s++) {
            const GotaUnit *u = &m->unit[slot_of(m, s)];
            if (u->hp > u->max_hp || u->hp < 0 || m->hero[s].mana > m->hero[s].max_mana) died = -1000;
        }
    }
    for (int s = 0; s < SEATS; s++) died += m->hero[s].deaths;
    CHECK(died >= 0);
    int64_t damage = 0, xp = 0;
    for (int s = 0; s < SEATS; s++) {
        GotaSeatStats st;
        gota_match_seat_stats(m, s, &st);
        damage += st.hero_damage + st.tower_damage;
        xp += st.xp;
    }
    CHECK(xp > 0);       /* heroes met creeps */
    CHECK(damage > 0);   /* and fought */
    gota_match_free(m);
}

/* Push depth: milli-tiles past the centre line toward the enemy god, kept at its maximum. */
static void test_push_depth(void)
{
    int cls[SEATS] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    GotaMatch *m = make(9, cls, 1);
    CHECK_EQ(m->hero[0].stats.push_depth, 0);
    const GotaUnit *god = &m->unit[m->god_slot[GOTA_TEAM_RED]];
    /* one tile past the centre along red's axis (red's god is at (+x, -z)) */
    int64_t gx = god->x, gz = god->z, len = fx_isqrt64((uint64_t)(gx * gx + gz * gz));
    int32_t px = (int32_t)(-gx * GOTA_TILE / len), pz = (int32_t)(-gz * GOTA_TILE / len);
    place(m, 0, px, pz);
    step(m, 1);
    int64_t depth = m->hero[0].stats.push_depth;
    CHECK(depth >= 995 && depth <= 1000);
    place(m, 0, 0, 0);     /* back at the centre: the maximum stays */
    step(m, 1);
    CHECK_EQ(m->hero[0].stats.push_depth, depth);
    gota_match_free(m);
}

/* hero_acquire as a plain loop over every unit slot and building (the
 * offers' order is a total one: nearest, team-relative z then x, then id). */
static int plain_acquire(const GotaMatch *m, int slot, int attack_move)
{
    const GotaUnit *u = &m->unit[slot];
    int32_t radius = HERO_CLASS[u->sub].style != STYLE_MELEE ? u->range
                     : attack_move                           ? HERO_ACQUIRE_MELEE_ATTACK_MOVE
                                                             : HERO_ACQUIRE_MELEE_IDLE;
    int64_t r2 = (int64_t)radius * radius, best_d2 = 0;
    int best = -1, flip = u->team == GOTA_TEAM_RED ? 1 : -1;
    int32_t x = m->snap_x[slot], z = m->snap_z[slot], best_kz = 0, best_kx = 0;
    for (int j = 0; j < m->unit_n; j++) {
        const GotaUnit *t = &m->unit[j];
        if (j == slot || t->kind == GOTA_KIND_NONE || !t->alive) continue;
        if (!unit_attackable(m, j) || !unit_hostile(m, slot, j) || !unit_visible_to(m, u->team, j)) continue;
        int building = m->st[j].building;
        int64_t d2;
        int32_t tx, tz;
        if (t->kind == GOTA_KIND_GOD) { d2 = fx_dist2(x, z, t->x, t->z); tx = t->x; tz = t->z; }
        else if (building >= 0) { d2 = unit_building_dist2(m, building, x, z); tx = t->x; tz = t->z; }
        else {
            if (t->kind == GOTA_KIND_NEUTRAL && !attack_move && !camp_fighting(m, j)) continue;
            d2 = fx_dist2(x, z, m->snap_x[j], m->snap_z[j]);
            tx = m->snap_x[j];
            tz = m->snap_z[j];
        }
        if (d2 > r2) continue;
        int32_t kz = tz * flip, kx = tx * flip;
        if (best < 0 || d2 < best_d2 ||
            (d2 == best_d2 && (kz != best_kz ? kz < best_kz : kx != best_kx ? kx < best_kx : t->id < m->unit[best].id))) {
            best = j;
            best_d2 = d2;
            best_kz = kz;
            best_kx = kx;
        }
    }
    return best;
}

/* hero_acquire's per-phase building lists against the plain loop: heroes
 * and units scattered around random buildings, random exposure and sight. */
static void test_acquire_lists(void)
{
    uint64_t r = 99;
    int found_building = 0, found_any = 0;
    for (int game = 0; game < 4; game++) {
        GotaMatch *m = make(40 + game, NULL, 0);
        if (!m) return;
        step(m, 700 + 300 * game);
        const MapData *map = m->map;
        for (int round = 0; round < 400; round++) {
            for (int i = 0; i < map->building_n; i++)
                m->unit[m->building_slot[i]].exposed = (int8_t)(fuzz_next(&r) % 3 != 0);
            const MapBuilding *near = &map->building[fuzz_next(&r) % (uint64_t)map->building_n];
            for (int j = 0; j < m->unit_n; j++) {
                if (m->st[j].building < 0 && m->unit[j].kind != GOTA_KIND_GOD && fuzz_next(&r) % 2) {
                    m->unit[j].x = near->x + (int32_t)(fuzz_next(&r) % 1200001) - 600000;
                    m->unit[j].z = near->z + (int32_t)(fuzz_next(&r) % 1200001) - 600000;
                }
                m->seen[0][j] = (uint8_t)(fuzz_next(&r) % 4 != 0);
                m->seen[1][j] = (uint8_t)(fuzz_next(&r) % 4 != 0);
            }
            match_snapshot(m);
            HeroEnemyBuildings lists;
            hero_enemy_buildings(m, &lists);
            for (int seat = 0; seat < SEATS; seat++)
                for (int am = 0; am < 2; am++) {
                    int slot = slot_of(m, seat), want = plain_acquire(m, slot, am);
                    CHECK_EQ(hero_acquire(m, slot, am, &lists), want);
                    found_any += want >= 0;
                    found_building += want >= 0 && m->st[want].building >= 0;
                }
        }
        gota_match_free(m);
    }
    CHECK(found_building > 1000);
    CHECK(found_any > found_building);
}

int main(void)
{
    test_acquire_lists();
    test_push_depth();
    test_draft();
    test_spawn();
    test_level_stats();
    test_regen();
    test_recharge();
    test_respawn();
    test_attack_timing();
    test_acquire();
    test_walk();
    test_goal_point();
    test_commands();
    test_fuzz();
    test_skirmish();
    return check_report("test_heroes");
}
