/* test_economy.c -- XP, levels, gold, kills, assists, score, shop, potions,
 * poison, portal, ability ranks and buyback (docs/rules.md sections 4 and 8).
 * White-box: matches from gota_match_new (ten heroes, classes 0..9 on seats
 * 0..9), state set up directly through world.h, economy functions called
 * directly so other phases never interfere. */
#include <string.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "check.h"

#define TILE GOTA_TILE
#define U XP_FRACTION

static GotaMatch *new_match(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.heroes = 1;
    for (int s = 0; s < SEATS; s++) cfg.hero_class[s] = s;
    int err = 0;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

static GotaUnit *hero_unit(GotaMatch *m, int seat) { return &m->unit[m->hero_slot[seat]]; }

static void place(GotaMatch *m, int seat, int32_t x, int32_t z)
{
    int slot = m->hero_slot[seat];
    m->unit[slot].x = m->snap_x[slot] = x;
    m->unit[slot].z = m->snap_z[slot] = z;
}

/* level 1, no XP, no gold, one point, clean stats */
static void fresh(GotaMatch *m, int seat)
{
    HeroState *h = &m->hero[seat];
    h->level = 1;
    h->xp = h->xp_frac = h->gold = 0;
    h->points = 1;
    memset(&h->stats, 0, sizeof h->stats);
    hero_refresh_stats(m, seat);
}

/* A dead mobile unit (the victim of a white-box economy_on_death). */
static int corpse(GotaMatch *m, int kind, int team, int sub, int32_t x, int32_t z)
{
    int slot = unit_alloc(m);
    GotaUnit *u = &m->unit[slot];
    memset(u, 0, sizeof *u);
    memset(&m->st[slot], 0, sizeof m->st[slot]);
    u->id = m->next_id++;
    u->kind = (int16_t)kind;
    u->team = (int16_t)team;
    u->sub = (int16_t)sub;
    u->x = x;
    u->z = z;
    u->target_id = -1;
    u->lane = -1;
    m->st[slot].camp = -1;
    m->st[slot].building = -1;
    m->st[slot].target = -1;
    return slot;
}

static int64_t units_of(const GotaMatch *m, int seat)
{
    return (int64_t)m->hero[seat].xp * U + m->hero[seat].xp_frac;
}

/* ---- XP curve -------------------------------------------------------------- */
static void test_xp_curve(void)
{
    GotaMatch *m = new_match();
    fresh(m, 0);
    const HeroClassDef *c = &HERO_CLASS[0];
    CHECK_EQ(hero_unit(m, 0)->max_hp, c->hp);
    /* the lifetime XP at which each level is reached: 100, 275, 525, ... */
    int32_t reach[HERO_MAX_LEVEL + 1] = {0};
    int32_t level_at = 1;
    for (int32_t xp = 1; xp <= 14725; xp++) {
        economy_add_xp(m, 0, U);
        if (m->hero[0].level != level_at) {
            CHECK_EQ(m->hero[0].level, level_at + 1);
            level_at = m->hero[0].level;
            reach[level_at] = xp;
        }
    }
    CHECK_EQ(reach[2], 100);
    CHECK_EQ(reach[3], 275);
    CHECK_EQ(reach[4], 525);
    int32_t total = 0;
    for (int l = 2; l <= HERO_MAX_LEVEL; l++) {
        total += 100 + 75 * (l - 2);
        CHECK_EQ(reach[l], total);
    }
    CHECK_EQ(reach[20], 14725);
    CHECK_EQ(m->hero[0].level, 20);
    CHECK_EQ(m->hero[0].points, 20);
    CHECK_EQ(hero_unit(m, 0)->max_hp, c->hp + 19 * c->hp_per_level);
    CHECK_EQ(m->hero[0].max_mana, c->mana + 19 * c->mana_per_level);
    /* capped: the level stays, lifetime XP keeps counting */
    economy_add_xp(m, 0, 10000LL * U);
    CHECK_EQ(m->hero[0].level, 20);
    CHECK_EQ(m->hero[0].points, 20);
    CHECK_EQ(m->hero[0].xp, 24725);

    /* a level-up raises current HP with the maximum; fractions carry */
    fresh(m, 1);
    GotaUnit *u = hero_unit(m, 1);
    u->hp = 100;
    economy_add_xp(m, 1, 99LL * U + 5999);
    CHECK_EQ(m->hero[1].level, 1);
    CHECK_EQ(m->hero[1].xp, 99);
    CHECK_EQ(m->hero[1].xp_frac, 5999);
    economy_add_xp(m, 1, 1);
    CHECK_EQ(m->hero[1].xp, 100);
    CHECK_EQ(m->hero[1].xp_frac, 0);
    CHECK_EQ(m->hero[1].level, 2);
    CHECK_EQ(m->hero[1].points, 2);
    CHECK_EQ(u->max_hp, HERO_CLASS[1].hp + HERO_CLASS[1].hp_per_level);
    CHECK_EQ(u->hp, 100 + HERO_CLASS[1].hp_per_level);
    /* gold */
    economy_add_gold(m, 1, 37);
    CHECK_EQ(m->hero[1].gold, 37);
    CHECK_EQ(m->hero[1].stats.gold_earned, 37);
    gota_match_free(m);
}

/* ---- lane creeps ---------------------------------------------------------- */
static void test_creep_xp(void)
{
    GotaMatch *m = new_match();
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    /* blue creep at (120k, 0); red 0 and 1 in range, red 2 just outside 6 tiles,
     * red 3 dead in range, blue 5 in range (the creep's ally) */
    int32_t cx = 120000, cz = 0;
    place(m, 0, 0, 0);
    place(m, 1, 60000, 0);
    place(m, 2, cx + XP_SHARE_RANGE + 1, cz);
    place(m, 3, cx, 60000);
    hero_unit(m, 3)->alive = 0;
    place(m, 5, cx, -60000);
    int creep = corpse(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_MELEE, cx, cz);
    economy_on_death(m, creep, m->hero_slot[0]);
    /* 15 XP = 90,000 units: the last hitter 15 % (13,500) + half of 85 % (38,250) */
    CHECK_EQ(units_of(m, 0), 13500 + 38250);
    CHECK_EQ(m->hero[0].xp, 8);
    CHECK_EQ(m->hero[0].xp_frac, 3750);
    CHECK_EQ(units_of(m, 1), 38250);
    CHECK_EQ(m->hero[1].xp, 6);
    CHECK_EQ(m->hero[1].xp_frac, 2250);
    CHECK_EQ(units_of(m, 2), 0);
    CHECK_EQ(units_of(m, 3), 0);
    CHECK_EQ(units_of(m, 5), 0);
    CHECK_EQ(m->hero[0].gold, GOLD_CREEP);
    CHECK_EQ(m->hero[0].stats.last_hits, 1);
    CHECK_EQ(m->hero[1].gold, 0);
    CHECK_EQ(m->hero[1].stats.last_hits, 0);
    /* a second one: the fractions carry exactly */
    creep = corpse(m, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_MELEE, cx, cz);
    economy_on_death(m, creep, m->hero_slot[0]);
    CHECK_EQ(m->hero[0].xp, 17);
    CHECK_EQ(m->hero[0].xp_frac, 1500);
    CHECK_EQ(m->hero[1].xp, 12);
    CHECK_EQ(m->hero[1].xp_frac, 4500);

    /* exactly 6 tiles is in range; a creep's kill shares equally, pays no gold */
    GotaMatch *n = new_match();
    for (int s = 0; s < SEATS; s++) fresh(n, s);
    place(n, 0, 0, 0);
    place(n, 1, XP_SHARE_RANGE, 0);
    int red_creep = corpse(n, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_MELEE, 0, 60000);
    n->unit[red_creep].alive = 1;
    int victim = corpse(n, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_RANGED, 0, 0);
    economy_on_death(n, victim, red_creep);
    CHECK_EQ(units_of(n, 0), 45000);
    CHECK_EQ(units_of(n, 1), 45000);
    CHECK_EQ(n->hero[0].gold + n->hero[1].gold, 0);
    /* no killer at all: shared the same way */
    victim = corpse(n, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_RANGED, 0, 0);
    economy_on_death(n, victim, -1);
    CHECK_EQ(units_of(n, 0), 90000);
    CHECK_EQ(units_of(n, 1), 90000);
    /* a last hitter out of range: gold and the last hit, no XP; the others split all of it */
    place(n, 2, 0, 20 * TILE);
    victim = corpse(n, GOTA_KIND_CREEP, GOTA_TEAM_BLUE, GOTA_CREEP_RANGED, 0, 0);
    economy_on_death(n, victim, n->hero_slot[2]);
    CHECK_EQ(units_of(n, 0), 135000);
    CHECK_EQ(units_of(n, 1), 135000);
    CHECK_EQ(units_of(n, 2), 0);
    CHECK_EQ(n->hero[2].gold, GOLD_CREEP);
    CHECK_EQ(n->hero[2].stats.last_hits, 1);
    /* blue heroes get a red creep's XP */
    place(n, 5, 0, -TILE);
    victim = corpse(n, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_MELEE, 0, 0);
    economy_on_death(n, victim, n->hero_slot[5]);
    CHECK_EQ(units_of(n, 5), 90000);
    CHECK_EQ(units_of(n, 0), 135000);
    gota_match_free(n);
    gota_match_free(m);
}

/* ---- neutrals --------------------------------------------------------------- */
static void test_neutral_xp(void)
{
    GotaMatch *m = new_match();
    int multi = -1, single = -1;
    for (int c = 0; c < MAP_CAMPS; c++) {
        if (m->map->camp[c].members > 1 && multi < 0) multi = c;
        if (m->map->camp[c].members == 1 && single < 0) single = c;
    }
    CHECK(multi >= 0);
    static const int32_t pool[4] = {0, 20, 35, 50}, gold[4] = {0, 10, 20, 30};
    for (int tier = 1; tier <= 3; tier++)
        for (int leader = 0; leader <= 1; leader++) {
            for (int s = 0; s < SEATS; s++) fresh(m, s);
            place(m, 5, 0, 0);
            place(m, 6, TILE, 0);
            place(m, 0, 0, TILE);   /* red, in range: not the killer's team */
            int v = corpse(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, tier, 0, 0);
            m->st[v].camp = multi;
            m->camp[multi].member[0] = leader ? v : -1;
            m->camp[multi].member[1] = leader ? -1 : v;
            economy_on_death(m, v, m->hero_slot[5]);
            int64_t p = (int64_t)pool[tier] * (leader ? 2 : 1) * U;
            CHECK_EQ(units_of(m, 5), p * 15 / 100 + (p - p * 15 / 100) / 2);
            CHECK_EQ(units_of(m, 6), (p - p * 15 / 100) / 2);
            CHECK_EQ(units_of(m, 0), 0);
            CHECK_EQ(m->hero[5].gold, gold[tier] * (leader ? 2 : 1));
            CHECK_EQ(m->hero[5].stats.neutral_kills, 1);
            CHECK_EQ(m->hero[6].gold, 0);
        }
    /* tier 2 leader, killer alone: 70 XP, 40 gold */
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    place(m, 6, 30 * TILE, 0);
    int v = corpse(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, 2, 0, 0);
    m->st[v].camp = multi;
    m->camp[multi].member[0] = v;
    economy_on_death(m, v, m->hero_slot[5]);
    CHECK_EQ(m->hero[5].xp, 70);
    CHECK_EQ(m->hero[5].xp_frac, 0);
    CHECK_EQ(m->hero[5].gold, 40);
    /* member 0 of a one-member camp is no leader */
    if (single >= 0) {
        fresh(m, 5);
        v = corpse(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, 1, 0, 0);
        m->st[v].camp = single;
        m->camp[single].member[0] = v;
        economy_on_death(m, v, m->hero_slot[5]);
        CHECK_EQ(m->hero[5].xp, 20);
        CHECK_EQ(m->hero[5].gold, 10);
    }
    /* a red creep's kill: red heroes nearby share, no gold, no neutral kill */
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    int creep = corpse(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_MELEE, TILE, 0);
    m->unit[creep].alive = 1;
    v = corpse(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, 3, 0, 0);
    economy_on_death(m, v, creep);
    CHECK_EQ(m->hero[0].xp, 50);
    CHECK_EQ(m->hero[0].gold, 0);
    CHECK_EQ(m->hero[0].stats.neutral_kills, 0);
    CHECK_EQ(m->hero[5].xp, 0);
    gota_match_free(m);
}

/* ---- heroes, assists ------------------------------------------------------ */
static void test_hero_kill(void)
{
    GotaMatch *m = new_match();
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    m->tick = 1000;
    place(m, 0, 0, 0);
    place(m, 5, TILE, 0);
    HeroState *v = &m->hero[0];
    v->damaged_at[5] = 999;   /* the killer: no assist */
    v->damaged_at[6] = 900;
    v->damaged_at[7] = 1000 - HERO_ASSIST_WINDOW;       /* just too old */
    v->damaged_at[8] = 1000 - HERO_ASSIST_WINDOW + 1;   /* just in time */
    /* through combat: the killing hit, then deaths, then rewards */
    combat_queue(m, m->hero_slot[5], m->hero_slot[0], hero_unit(m, 0)->hp);
    combat_resolve(m);
    CHECK_EQ(hero_unit(m, 0)->alive, 0);
    CHECK_EQ(m->hero[5].xp, XP_HERO_KILL);
    CHECK_EQ(m->hero[5].gold, GOLD_HERO_KILL);
    CHECK_EQ(m->hero[5].stats.kills, 1);
    CHECK_EQ(m->hero[5].stats.assists, 0);
    CHECK_EQ(m->hero[6].stats.assists, 1);
    CHECK_EQ(m->hero[7].stats.assists, 0);
    CHECK_EQ(m->hero[8].stats.assists, 1);
    CHECK_EQ(m->hero[9].stats.assists, 0);
    CHECK_EQ(m->hero[6].xp + m->hero[6].gold, 0);   /* assists are a stat only */
    CHECK_EQ(m->hero[0].deaths, 1);
    CHECK_EQ(v->damaged_at[6], -1);                  /* cleared with the death */

    /* a tower's kill: no seat is paid, recent damage still makes assists */
    fresh(m, 1);
    m->hero[1].damaged_at[9] = 990;
    int tower = m->building_slot[MAP_IDX_TOWER(0, GOTA_TEAM_BLUE, GOTA_TIER_OUTER)];
    hero_unit(m, 1)->alive = 0;
    economy_on_death(m, m->hero_slot[1], tower);
    CHECK_EQ(m->hero[9].stats.assists, 1);
    CHECK_EQ(m->hero[9].stats.kills, 0);
    for (int s = 5; s < SEATS; s++) CHECK_EQ(m->hero[s].stats.kills, s == 5 ? 1 : 0);
    CHECK_EQ(m->hero[9].xp + m->hero[9].gold, 0);
    /* a neutral's kill: only a death, no assist */
    m->hero[2].damaged_at[9] = 995;
    int neutral = corpse(m, GOTA_KIND_NEUTRAL, GOTA_TEAM_NEUTRAL, 1, 0, 0);
    m->unit[neutral].alive = 1;
    hero_unit(m, 2)->alive = 0;
    economy_on_death(m, m->hero_slot[2], neutral);
    CHECK_EQ(m->hero[9].stats.assists, 1);
    gota_match_free(m);
}

/* ---- structures and gods -------------------------------------------------- */
static void test_structures_and_gods(void)
{
    GotaMatch *m = new_match();
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    int tower = m->building_slot[MAP_IDX_TOWER(1, GOTA_TEAM_BLUE, GOTA_TIER_OUTER)];
    int barracks = m->building_slot[MAP_IDX_BARRACKS(1, GOTA_TEAM_BLUE, 0)];
    int guard = m->building_slot[MAP_IDX_GUARD(GOTA_TEAM_BLUE, 0)];
    place(m, 1, m->unit[tower].x, m->unit[tower].z);   /* nearby heroes share nothing */
    economy_on_death(m, tower, m->hero_slot[0]);
    CHECK_EQ(m->hero[0].xp, XP_STRUCTURE);
    CHECK_EQ(m->hero[0].gold, GOLD_BUILDING);
    CHECK_EQ(m->hero[0].stats.structure_kills, 1);
    CHECK_EQ(m->hero[1].xp, 0);
    economy_on_death(m, barracks, m->hero_slot[0]);
    economy_on_death(m, guard, m->hero_slot[0]);
    CHECK_EQ(m->hero[0].xp, 3 * XP_STRUCTURE);
    CHECK_EQ(m->hero[0].gold, 3 * GOLD_BUILDING);
    CHECK_EQ(m->hero[0].stats.structure_kills, 3);
    /* a creep's last hit pays nobody */
    int creep = corpse(m, GOTA_KIND_CREEP, GOTA_TEAM_RED, GOTA_CREEP_MELEE, m->unit[tower].x, m->unit[tower].z);
    m->unit[creep].alive = 1;
    int tower2 = m->building_slot[MAP_IDX_TOWER(1, GOTA_TEAM_BLUE, GOTA_TIER_INNER)];
    economy_on_death(m, tower2, creep);
    int64_t xp = 0, gold = 0;
    for (int s = 0; s < SEATS; s++) {
        xp += units_of(m, s);
        gold += m->hero[s].gold;
    }
    CHECK_EQ(xp, 3LL * XP_STRUCTURE * U);
    CHECK_EQ(gold, 3 * GOLD_BUILDING);

    /* god: 1,000 XP to every hero of the winning team, dead ones too */
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    hero_unit(m, 7)->alive = 0;
    economy_god_destroyed(m, GOTA_TEAM_BLUE);
    for (int s = 0; s < SEATS; s++) CHECK_EQ(m->hero[s].xp, s >= 5 ? XP_GOD : 0);
    CHECK_EQ(m->hero[5].level, 5);   /* 1,000 XP: 850 reaches level 5, 1,250 level 6 */
    /* a draw: match.c calls it for both teams */
    for (int s = 0; s < SEATS; s++) fresh(m, s);
    economy_god_destroyed(m, GOTA_TEAM_RED);
    economy_god_destroyed(m, GOTA_TEAM_BLUE);
    for (int s = 0; s < SEATS; s++) CHECK_EQ(m->hero[s].xp, XP_GOD);
    gota_match_free(m);
}

/* ---- score ---------------------------------------------------------------- */
static void test_score(void)
{
    GotaMatch *m = new_match();
    fresh(m, 0);
    m->hero[0].xp = 2000;
    m->tick = 7200;
    CHECK_EQ(economy_hero_score(m, 0), 1000);
    m->tick = 7201;   /* 1,439,800 / 1,440 floors to 999 */
    CHECK_EQ(economy_hero_score(m, 0), 999);
    m->hero[0].xp = 0;
    m->tick = 1;
    CHECK_EQ(economy_hero_score(m, 0), 0);
    m->hero[0].xp = 10;
    m->tick = 28800;
    CHECK_EQ(economy_hero_score(m, 0), 0);   /* never negative */
    m->hero[0].xp = 24725;
    CHECK_EQ(economy_hero_score(m, 0), 24725 - 4000);
    GotaSeatStats st;
    CHECK_EQ(gota_match_seat_stats(m, 0, &st), GOTA_OK);
    CHECK_EQ(st.score, 20725);
    gota_match_free(m);
}

/* ---- shop ------------------------------------------------------------------- */
static void test_shop(void)
{
    GotaMatch *m = new_match();
    fresh(m, 0);
    HeroState *h = &m->hero[0];
    GotaUnit *u = hero_unit(m, 0);
    place(m, 0, m->map->hero_spawn_x[GOTA_TEAM_RED], m->map->hero_spawn_z[GOTA_TEAM_RED]);
    CHECK(m->map->region[map_index_of(u->x, u->z)] & GOTA_REGION_RED_SPAWN);
    h->gold = 29;
    CHECK_EQ(economy_buy(m, 0, 1), GOTA_ACT_NO_GOLD);
    CHECK_EQ(economy_buy(m, 0, 0), GOTA_ACT_BAD_ITEM);
    CHECK_EQ(economy_buy(m, 0, 23), GOTA_ACT_BAD_ITEM);
    CHECK_EQ(economy_buy(m, 0, -5), GOTA_ACT_BAD_ITEM);
    h->gold = 10000;
    for (int i = 0; i < HERO_STACK; i++) CHECK_EQ(economy_buy(m, 0, 1), GOTA_ACT_OK);
    CHECK_EQ(h->item[0], 1);
    CHECK_EQ(h->item_count[0], 8);
    CHECK_EQ(economy_buy(m, 0, 1), GOTA_ACT_OK);   /* the stack is full: a new slot */
    CHECK_EQ(h->item[1], 1);
    CHECK_EQ(h->item_count[1], 1);
    CHECK_EQ(h->gold, 10000 - 9 * 30);
    int32_t max_hp = u->max_hp, hp = u->hp;
    CHECK_EQ(economy_buy(m, 0, 16), GOTA_ACT_OK);   /* Knight Armor: +120 HP at once */
    CHECK_EQ(u->max_hp, max_hp + 120);
    CHECK_EQ(u->hp, hp + 120);
    CHECK_EQ(h->item[2], 16);
    CHECK_EQ(h->item_count[2], 1);
    int32_t g = h->gold;
    CHECK_EQ(economy_buy(m, 0, 16), GOTA_ACT_DUPLICATE);
    CHECK_EQ(h->gold, g);
    int32_t dmg = u->damage;
    CHECK_EQ(economy_buy(m, 0, 7), GOTA_ACT_OK);    /* Leather Gauntlets +4 damage */
    CHECK_EQ(u->damage, dmg + 4);
    CHECK_EQ(economy_buy(m, 0, 10), GOTA_ACT_OK);   /* Sapphire Ring +40 mana */
    CHECK_EQ(economy_buy(m, 0, 21), GOTA_ACT_OK);   /* Portal Scroll: the sixth slot */
    CHECK_EQ(economy_buy(m, 0, 1), GOTA_ACT_OK);    /* still room on the second stack */
    CHECK_EQ(h->item_count[1], 2);
    CHECK_EQ(economy_buy(m, 0, 2), GOTA_ACT_INVENTORY_FULL);
    CHECK_EQ(economy_buy(m, 0, 5), GOTA_ACT_INVENTORY_FULL);
    /* a keep tile that is not the spawn room also sells */
    int keep = -1;
    for (int t = 0; t < MAP_TILES && keep < 0; t++)
        if ((m->map->region[t] & GOTA_REGION_RED_KEEP) && !(m->map->region[t] & GOTA_REGION_RED_SPAWN)) keep = t;
    CHECK(keep >= 0);
    fresh(m, 1);
    m->hero[1].gold = 1000;
    place(m, 1, map_tile_centre(keep % MAP_N), map_tile_centre(keep / MAP_N));
    CHECK_EQ(economy_buy(m, 1, 2), GOTA_ACT_OK);
    /* outside: the centre, the enemy's spawn room */
    place(m, 1, 0, 0);
    CHECK_EQ(economy_buy(m, 1, 2), GOTA_ACT_NOT_IN_SHOP);
    place(m, 1, m->map->hero_spawn_x[GOTA_TEAM_BLUE], m->map->hero_spawn_z[GOTA_TEAM_BLUE]);
    CHECK_EQ(economy_buy(m, 1, 2), GOTA_ACT_NOT_IN_SHOP);
    CHECK_EQ(m->hero[1].gold, 1000 - 75);
    place(m, 1, m->map->hero_spawn_x[GOTA_TEAM_RED], m->map->hero_spawn_z[GOTA_TEAM_RED]);
    hero_unit(m, 1)->alive = 0;
    CHECK_EQ(economy_buy(m, 1, 2), GOTA_ACT_DEAD);
    gota_match_free(m);
}

/* ---- potions ------------------------------------------------------------------ */
static void test_potions(void)
{
    GotaMatch *m = new_match();
    fresh(m, 0);
    HeroState *h = &m->hero[0];
    GotaUnit *u = hero_unit(m, 0);
    place(m, 0, 0, 0);
    h->item[0] = 1;  h->item_count[0] = 2;    /* Health Potion */
    h->item[1] = 2;  h->item_count[1] = 1;    /* Vitality Elixir */
    h->item[2] = 3;  h->item_count[2] = 1;    /* Mana Elixir */
    h->item[3] = 22; h->item_count[3] = 1;    /* Mana Potion */
    h->item[4] = 16; h->item_count[4] = 1;    /* Knight Armor (passive) */
    CHECK_EQ(economy_use_item(m, 0, 6, 0, 0, 0), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(economy_use_item(m, 0, -1, 0, 0, 0), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(economy_use_item(m, 0, 5, 0, 0, 0), GOTA_ACT_EMPTY_SLOT);
    CHECK_EQ(economy_use_item(m, 0, 4, 0, 0, 0), GOTA_ACT_BAD_ITEM);
    u->hp = u->max_hp;
    CHECK_EQ(economy_use_item(m, 0, 0, 0, 0, 0), GOTA_ACT_FULL);
    CHECK_EQ(h->item_count[0], 2);
    int32_t start = u->max_hp - 200;
    u->hp = start;
    h->stun = 5;
    CHECK_EQ(economy_use_item(m, 0, 0, 0, 0, 0), GOTA_ACT_STUNNED);
    h->stun = 0;
    CHECK_EQ(economy_use_item(m, 0, 0, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->item_count[0], 1);
    CHECK_EQ(h->hp_item_cd, POTION_COOLDOWN);
    CHECK_EQ(u->hp, start);
    int exact = 1;
    for (int k = 1; k <= POTION_DURATION; k++) {
        economy_hero_tick(m, 0);
        if (u->hp != start + 120 * k / 240) exact = 0;
        if (k == 10) CHECK_EQ(economy_use_item(m, 0, 1, 0, 0, 0), GOTA_ACT_ITEM_COOLDOWN);   /* shared */
    }
    CHECK(exact);
    CHECK_EQ(u->hp, start + 120);
    CHECK_EQ(h->hp_item_cd, 0);
    for (int k = 0; k < 10; k++) economy_hero_tick(m, 0);
    CHECK_EQ(u->hp, start + 120);
    CHECK_EQ(h->item_count[1], 1);
    /* the next one, cancelled by damage after 101 ticks (+50) */
    start = u->hp;
    CHECK_EQ(economy_use_item(m, 0, 0, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->item[0], 0);   /* the last one: the slot empties */
    CHECK_EQ(h->item_count[0], 0);
    for (int k = 0; k < 101; k++) economy_hero_tick(m, 0);
    CHECK_EQ(u->hp, start + 50);
    economy_hero_damaged(m, 0);
    for (int k = 0; k < 200; k++) economy_hero_tick(m, 0);
    CHECK_EQ(u->hp, start + 50);
    CHECK_EQ(economy_use_item(m, 0, 0, 0, 0, 0), GOTA_ACT_EMPTY_SLOT);
    /* Vitality Elixir: +90 now, capped at the maximum */
    u->hp = u->max_hp - 30;
    CHECK_EQ(economy_use_item(m, 0, 1, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(u->hp, u->max_hp);
    CHECK_EQ(h->hp_item_cd, POTION_COOLDOWN);
    /* mana items have their own cooldown */
    h->mana = h->max_mana;
    CHECK_EQ(economy_use_item(m, 0, 2, 0, 0, 0), GOTA_ACT_FULL);
    h->mana = 10;
    CHECK_EQ(economy_use_item(m, 0, 2, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->mana, 70);
    CHECK_EQ(economy_use_item(m, 0, 3, 0, 0, 0), GOTA_ACT_ITEM_COOLDOWN);
    for (int k = 0; k < POTION_COOLDOWN; k++) economy_hero_tick(m, 0);
    h->mana = 0;
    CHECK_EQ(economy_use_item(m, 0, 3, 0, 0, 0), GOTA_ACT_OK);   /* Mana Potion: 90 over 240 */
    exact = 1;
    for (int k = 1; k <= POTION_DURATION; k++) {
        economy_hero_tick(m, 0);
        if (h->mana != 90 * k / 240) exact = 0;
    }
    CHECK(exact);
    CHECK_EQ(h->mana, 90);
    /* damage cancels a running mana potion too */
    for (int k = 0; k < POTION_COOLDOWN; k++) economy_hero_tick(m, 0);
    h->item[3] = 22; h->item_count[3] = 1;
    h->mana = 0;
    CHECK_EQ(economy_use_item(m, 0, 3, 0, 0, 0), GOTA_ACT_OK);
    for (int k = 0; k < 24; k++) economy_hero_tick(m, 0);
    CHECK_EQ(h->mana, 9);
    economy_hero_damaged(m, 0);
    for (int k = 0; k < 24; k++) economy_hero_tick(m, 0);
    CHECK_EQ(h->mana, 9);
    /* cooldowns survive death; a death ends a running potion */
    h->item[0] = 1; h->item_count[0] = 1;
    u->hp = 10;
    for (int k = 0; k < POTION_COOLDOWN; k++) economy_hero_tick(m, 0);
    CHECK_EQ(economy_use_item(m, 0, 0, 0, 0, 0), GOTA_ACT_OK);
    u->alive = 0;
    /* dead comes before the slot's content (empty, equipment); a malformed slot before dead */
    CHECK_EQ(economy_use_item(m, 0, 1, 0, 0, 0), GOTA_ACT_DEAD);
    CHECK_EQ(economy_use_item(m, 0, 6, 0, 0, 0), GOTA_ACT_BAD_SLOT);
    h->item[1] = 2; h->item_count[1] = 1;
    CHECK_EQ(economy_use_item(m, 0, 1, 0, 0, 0), GOTA_ACT_DEAD);
    for (int k = 0; k < 100; k++) economy_hero_tick(m, 0);
    CHECK_EQ(h->hp_item_cd, POTION_COOLDOWN - 100);
    CHECK_EQ(h->hp_regen_total, 0);
    CHECK_EQ(u->hp, 10);
    gota_match_free(m);
}

/* ---- poison ------------------------------------------------------------------ */
static void test_poison(void)
{
    GotaMatch *m = new_match();
    fresh(m, 1);   /* Ranger, range 330,000 */
    HeroState *h = &m->hero[1];
    int me = m->hero_slot[1], foe = m->hero_slot[5];
    place(m, 1, 0, 0);
    place(m, 5, HERO_CLASS[1].range, 0);
    h->item[0] = 4;
    h->item_count[0] = 2;
    m->hit_n = 0;
    CHECK_EQ(economy_use_item(m, 1, 0, 0, 0, 0), GOTA_ACT_BAD_TARGET);   /* no target */
    m->unit[me].target_id = m->unit[foe].id;
    m->st[me].target = foe;
    m->seen[GOTA_TEAM_RED][foe] = 0;
    CHECK_EQ(economy_use_item(m, 1, 0, 0, 0, 0), GOTA_ACT_BAD_TARGET);   /* not visible */
    m->seen[GOTA_TEAM_RED][foe] = 1;
    place(m, 5, HERO_CLASS[1].range + 1, 0);
    CHECK_EQ(economy_use_item(m, 1, 0, 0, 0, 0), GOTA_ACT_BAD_TARGET);   /* out of reach */
    CHECK_EQ(h->item_count[0], 2);
    CHECK_EQ(m->hit_n, 0);
    place(m, 5, HERO_CLASS[1].range, 0);
    int32_t hp = m->unit[foe].hp;
    CHECK_EQ(economy_use_item(m, 1, 0, 0, 0, 0), GOTA_ACT_OK);
    CHECK_EQ(h->item_count[0], 1);
    CHECK_EQ(m->hit_n, 1);
    CHECK_EQ(m->hit[0].damage, 35);
    CHECK_EQ(m->hit[0].source, HIT_ITEM);
    CHECK_EQ(m->hit[0].target, foe);
    combat_resolve(m);
    CHECK_EQ(m->unit[foe].hp, hp - 35);
    m->unit[foe].alive = 0;
    CHECK_EQ(economy_use_item(m, 1, 0, 0, 0, 0), GOTA_ACT_BAD_TARGET);   /* dead */
    gota_match_free(m);
}

/* ---- portal ------------------------------------------------------------------ */
/* Brute-force oracle: the qualifying tile nearest (x, z) around building
 * `only`, or around any living red tower when `only` is -1. */
static int oracle_tile(const GotaMatch *m, int only, int32_t x, int32_t z)
{
    int best = -1;
    int64_t bd = 0;
    for (int t = 0; t < MAP_TILES; t++) {
        int tx = t % MAP_N, tz = t / MAP_N, inside = 0;
        int64_t cx = map_tile_centre(tx), cz = map_tile_centre(tz);
        for (int i = 0; i < m->map->building_n; i++) {
            const MapBuilding *b = &m->map->building[i];
            if ((only >= 0 && i != only) || b->kind != GOTA_KIND_TOWER || b->team != GOTA_TEAM_RED ||
                !m->building_alive[i])
                continue;
            int64_t r = (int64_t)b->sight_tiles * TILE;
            inside |= (cx - b->x) * (cx - b->x) + (cz - b->z) * (cz - b->z) <= r * r;
        }
        if (!inside || !nav_open(&m->nav, m->map, t) || !vision_tile(&m->vision, GOTA_TEAM_RED, tx, tz)) continue;
        int64_t d = (cx - x) * (cx - x) + (cz - z) * (cz - z);
        if (best < 0 || d < bd) {
            best = t;
            bd = d;
        }
    }
    return best;
}

static void test_portal(void)
{
    GotaMatch *m = new_match();
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);   /* vision */
    fresh(m, 0);
    HeroState *h = &m->hero[0];
    GotaUnit *u = hero_unit(m, 0);
    int32_t sx = m->map->hero_spawn_x[GOTA_TEAM_RED], sz = m->map->hero_spawn_z[GOTA_TEAM_RED];
    place(m, 0, sx, sz);
    h->item[0] = 21;
    h->item_count[0] = 8;
    int bi = MAP_IDX_TOWER(0, GOTA_TEAM_RED, GOTA_TIER_OUTER);
    const MapBuilding *b = &m->map->building[bi];
    CHECK_EQ(b->kind, GOTA_KIND_TOWER);
    CHECK_EQ(economy_use_item(m, 0, 0, 0, b->x, b->z), GOTA_ACT_BAD_POINT);    /* needs a point */
    CHECK_EQ(economy_use_item(m, 0, 0, 1, 4000000, 0), GOTA_ACT_BAD_POINT);    /* off the map */
    /* no living allied tower, no landing: refused, the scroll kept */
    uint8_t alive[MAP_BUILDINGS];
    memcpy(alive, m->building_alive, sizeof alive);
    for (int i = 0; i < m->map->building_n; i++)
        if (m->map->building[i].team == GOTA_TEAM_RED && m->map->building[i].kind == GOTA_KIND_TOWER)
            m->building_alive[i] = 0;
    CHECK_EQ(economy_portal_possible(m, GOTA_TEAM_RED), 0);
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_NO_TOWER);
    CHECK_EQ(h->item_count[0], 8);
    memcpy(m->building_alive, alive, sizeof alive);
    CHECK_EQ(economy_portal_possible(m, GOTA_TEAM_RED), 1);
    /* aimed at the tower itself: its footprint is closed, so the nearest open visible tile */
    h->order = ORDER_WALK;
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_OK);
    CHECK_EQ(h->item_count[0], 7);
    CHECK_EQ(h->channel, PORTAL_CHANNEL);
    CHECK_EQ(h->channel_tower, m->building_slot[bi]);
    CHECK_EQ(h->order, ORDER_IDLE);
    int land = oracle_tile(m, bi, b->x, b->z);
    CHECK(land >= 0);
    CHECK_EQ(h->channel_x, map_tile_centre(land % MAP_N));
    CHECK_EQ(h->channel_z, map_tile_centre(land / MAP_N));
    CHECK(nav_open(&m->nav, m->map, map_index_of(h->channel_x, h->channel_z)));
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_CHANNELING);
    for (int k = 1; k < PORTAL_CHANNEL; k++) economy_hero_tick(m, 0);
    CHECK_EQ(h->channel, 1);
    CHECK_EQ(u->x, sx);
    CHECK_EQ(u->z, sz);
    economy_hero_tick(m, 0);
    CHECK_EQ(h->channel, 0);
    CHECK_EQ(u->x, map_tile_centre(land % MAP_N));
    CHECK_EQ(u->z, map_tile_centre(land / MAP_N));
    CHECK_EQ(h->portal_cd, PORTAL_COOLDOWN);
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_ITEM_COOLDOWN);
    CHECK_EQ(h->item_count[0], 7);
    for (int k = 0; k < PORTAL_COOLDOWN; k++) economy_hero_tick(m, 0);
    CHECK_EQ(h->portal_cd, 0);

    /* an open visible aim inside the sight: land exactly there */
    place(m, 0, sx, sz);
    int32_t ax = map_tile_centre(land % MAP_N) + 7000, az = map_tile_centre(land / MAP_N) - 9000;
    CHECK_EQ(economy_use_item(m, 0, 0, 1, ax, az), GOTA_ACT_OK);
    for (int k = 0; k < PORTAL_CHANNEL; k++) economy_hero_tick(m, 0);
    CHECK_EQ(u->x, ax);
    CHECK_EQ(u->z, az);

    /* interrupted by a stun (combat sets the channel to 0): no teleport, cooldown */
    h->portal_cd = 0;
    place(m, 0, sx, sz);
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_OK);
    for (int k = 0; k < 10; k++) economy_hero_tick(m, 0);
    h->channel = 0;
    economy_hero_tick(m, 0);
    CHECK_EQ(h->portal_cd, PORTAL_COOLDOWN);
    for (int k = 0; k < 100; k++) economy_hero_tick(m, 0);
    CHECK_EQ(u->x, sx);
    CHECK_EQ(u->z, sz);
    CHECK_EQ(h->portal_cd, PORTAL_COOLDOWN - 100);

    /* a root refuses the start, keeping the scroll */
    h->portal_cd = 0;
    h->root = 5;
    int32_t left = h->item_count[0];
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_ROOTED);
    CHECK_EQ(h->item_count[0], left);
    h->root = 0;

    /* interrupted by death */
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_OK);
    u->alive = 0;
    economy_hero_tick(m, 0);
    CHECK_EQ(h->channel, 0);
    CHECK_EQ(h->portal_cd, PORTAL_COOLDOWN);
    u->alive = 1;
    CHECK_EQ(u->x, sx);

    /* a god guard counts; barracks do not */
    h->portal_cd = 0;
    int gi = MAP_IDX_GUARD(GOTA_TEAM_RED, 0);
    const MapBuilding *gb = &m->map->building[gi];
    CHECK_EQ(economy_use_item(m, 0, 0, 1, gb->x, gb->z), GOTA_ACT_OK);
    CHECK_EQ(h->channel_tower, m->building_slot[gi]);
    h->channel = 0;
    economy_hero_tick(m, 0);
    h->portal_cd = 0;
    const MapBuilding *bb = &m->map->building[MAP_IDX_BARRACKS(0, GOTA_TEAM_RED, 0)];
    int code = economy_use_item(m, 0, 0, 1, bb->x, bb->z);   /* lands by a tower, never anchored to the barracks */
    CHECK_EQ(code, GOTA_ACT_OK);
    CHECK_EQ(m->unit[h->channel_tower].kind, GOTA_KIND_TOWER);
    h->channel = 0;
    economy_hero_tick(m, 0);

    /* interrupted by the tower's fall */
    h->portal_cd = 0;
    place(m, 0, sx, sz);
    CHECK_EQ(economy_use_item(m, 0, 0, 1, b->x, b->z), GOTA_ACT_OK);
    for (int k = 0; k < 30; k++) economy_hero_tick(m, 0);
    m->unit[m->building_slot[bi]].alive = 0;
    m->building_alive[bi] = 0;
    economy_hero_tick(m, 0);
    CHECK_EQ(h->channel, 0);
    CHECK_EQ(h->portal_cd, PORTAL_COOLDOWN);
    for (int k = 0; k < 100; k++) economy_hero_tick(m, 0);
    CHECK_EQ(u->x, sx);
    CHECK_EQ(u->z, sz);
    /* a fallen tower is no target: another tower covers the point, or none does */
    h->portal_cd = 0;
    code = economy_use_item(m, 0, 0, 1, b->x, b->z);
    CHECK(code == GOTA_ACT_OK && h->channel_tower != m->building_slot[bi]);
    h->channel = 0;
    economy_hero_tick(m, 0);

    /* aimed far from every tower (the enemy's spawn): the nearest qualifying
     * tile of all the living towers, anchored to a tower whose circle holds it */
    h->portal_cd = 0;
    h->item[0] = 21;   /* the last scroll went with the fallen-tower aim */
    h->item_count[0] = 8;
    int32_t ex = m->map->hero_spawn_x[GOTA_TEAM_BLUE], ez = m->map->hero_spawn_z[GOTA_TEAM_BLUE];
    CHECK_EQ(economy_use_item(m, 0, 0, 1, ex, ez), GOTA_ACT_OK);
    land = oracle_tile(m, -1, ex, ez);
    CHECK(land >= 0);
    CHECK_EQ(h->channel_x, map_tile_centre(land % MAP_N));
    CHECK_EQ(h->channel_z, map_tile_centre(land / MAP_N));
    const GotaUnit *anchor = &m->unit[h->channel_tower];
    CHECK_EQ(anchor->kind, GOTA_KIND_TOWER);
    CHECK_EQ(anchor->team, GOTA_TEAM_RED);
    int ai = -1;
    for (int i = 0; i < m->map->building_n; i++)
        if (m->building_slot[i] == h->channel_tower) ai = i;
    CHECK(ai >= 0);
    int64_t ar = (int64_t)m->map->building[ai].sight_tiles * TILE;
    CHECK(fx_dist2(h->channel_x, h->channel_z, anchor->x, anchor->z) <= ar * ar);
    gota_match_free(m);
}

/* The portal through the command API and the real tick: 72 ticks, then there. */
static void test_portal_match(void)
{
    GotaMatch *m = new_match();
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);
    HeroState *h = &m->hero[3];
    GotaUnit *u = hero_unit(m, 3);
    h->gold = 1000;
    int32_t err = -1;
    GotaCommand buy = {GOTA_CMD_BUY, 0, 0, 0, 0, 21};
    CHECK_EQ(gota_match_command(m, 3, &buy, &err), GOTA_OK);
    CHECK_EQ(err, GOTA_ACT_OK);
    CHECK_EQ(h->gold, 900);
    const MapBuilding *b = &m->map->building[MAP_IDX_TOWER(2, GOTA_TEAM_RED, GOTA_TIER_INNER)];
    GotaCommand use = {GOTA_CMD_USE_ITEM_AT, 0, b->x, b->z, 0, 0};
    CHECK_EQ(gota_match_command(m, 3, &use, &err), GOTA_OK);
    CHECK_EQ(err, GOTA_ACT_OK);
    int32_t lx = h->channel_x, lz = h->channel_z, x0 = u->x, z0 = u->z;
    CHECK(fx_dist2(lx, lz, b->x, b->z) <= (int64_t)b->sight_tiles * TILE * b->sight_tiles * TILE);
    CHECK_EQ(gota_match_step(m, PORTAL_CHANNEL - 1, NULL), GOTA_OK);
    CHECK_EQ(h->channel, 1);
    CHECK_EQ(u->x, x0);
    CHECK_EQ(u->z, z0);
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);
    CHECK_EQ(h->channel, 0);
    CHECK(fx_dist2(u->x, u->z, lx, lz) < (int64_t)TILE * TILE / 4);   /* collision may nudge it */
    CHECK_EQ(h->portal_cd, PORTAL_COOLDOWN);
    CHECK_EQ(h->item[0], 0);
    gota_match_free(m);
}

/* ---- ability ranks ------------------------------------------------------------- */
static void test_levelling(void)
{
    GotaMatch *m = new_match();
    fresh(m, 1);
    HeroState *h = &m->hero[1];
    for (int a = 0; a < HERO_ABILITIES; a++) h->rank[a] = h->charges[a] = 0;
    CHECK_EQ(economy_level_ability(m, 1, 4), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(economy_level_ability(m, 1, -1), GOTA_ACT_BAD_SLOT);
    CHECK_EQ(economy_level_ability(m, 1, 3), GOTA_ACT_LEVEL_TOO_LOW);   /* R needs level 6 */
    CHECK_EQ(economy_level_ability(m, 1, 0), GOTA_ACT_OK);
    CHECK_EQ(h->rank[0], 1);
    CHECK_EQ(h->points, 0);
    CHECK_EQ(h->charges[0], 1);
    CHECK_EQ(economy_level_ability(m, 1, 1), GOTA_ACT_NO_POINTS);
    economy_add_xp(m, 1, 100LL * U);   /* level 2 */
    CHECK_EQ(h->points, 1);
    CHECK_EQ(economy_level_ability(m, 1, 0), GOTA_ACT_LEVEL_TOO_LOW);   /* rank 2 needs level 3 */
    CHECK_EQ(economy_level_ability(m, 1, 1), GOTA_ACT_OK);
    CHECK_EQ(h->charges[1], W_CHARGES);   /* the first rank grants full charges */
    economy_add_xp(m, 1, (1725LL - 100) * U);   /* level 7: 1,725 XP */
    CHECK_EQ(h->level, 7);
    CHECK_EQ(h->points, 5);
    hero_unit(m, 1)->alive = 0;   /* allowed while dead */
    CHECK_EQ(economy_level_ability(m, 1, 3), GOTA_ACT_OK);
    CHECK_EQ(h->charges[3], 1);
    CHECK_EQ(economy_level_ability(m, 1, 3), GOTA_ACT_LEVEL_TOO_LOW);   /* R2 needs level 12 */
    for (int k = 0; k < 3; k++) CHECK_EQ(economy_level_ability(m, 1, 0), GOTA_ACT_OK);
    CHECK_EQ(h->rank[0], 4);
    CHECK_EQ(economy_level_ability(m, 1, 0), GOTA_ACT_MAX_RANK);
    CHECK_EQ(h->points, 1);
    CHECK_EQ(h->points, h->level - h->rank[0] - h->rank[1] - h->rank[2] - h->rank[3]);
    economy_add_xp(m, 1, 20000LL * U);   /* level 20 */
    for (int k = 0; k < 2; k++) CHECK_EQ(economy_level_ability(m, 1, 3), GOTA_ACT_OK);
    CHECK_EQ(economy_level_ability(m, 1, 3), GOTA_ACT_MAX_RANK);
    gota_match_free(m);
}

/* ---- buyback ------------------------------------------------------------------ */
static void test_buyback(void)
{
    GotaMatch *m = new_match();
    fresh(m, 2);
    HeroState *h = &m->hero[2];
    GotaUnit *u = hero_unit(m, 2);
    CHECK_EQ(economy_buyback(m, 2), GOTA_ACT_ALIVE);
    place(m, 2, 0, 0);
    m->tick = 500;
    u->hp = 0;
    u->alive = 0;
    hero_died(m, 2, -1);
    CHECK_EQ(h->deaths, 1);
    CHECK_EQ(h->buyback_price, HERO_BUYBACK_PER_DEATH);
    h->gold = 99;
    CHECK_EQ(economy_buyback(m, 2), GOTA_ACT_NO_GOLD);
    CHECK_EQ(u->alive, 0);
    h->gold = 150;
    h->cooldown[0] = 50;
    CHECK_EQ(economy_buyback(m, 2), GOTA_ACT_OK);
    CHECK_EQ(h->gold, 50);
    CHECK_EQ(u->alive, 1);
    CHECK_EQ(u->hp, u->max_hp);
    CHECK_EQ(h->mana, h->max_mana);
    CHECK_EQ(h->cooldown[0], 0);
    CHECK(m->map->region[map_index_of(u->x, u->z)] & GOTA_REGION_RED_SPAWN);
    CHECK_EQ(economy_buyback(m, 2), GOTA_ACT_ALIVE);
    u->hp = 0;
    u->alive = 0;
    hero_died(m, 2, -1);
    CHECK_EQ(h->buyback_price, 2 * HERO_BUYBACK_PER_DEATH);
    h->gold = 1000;
    m->result = GOTA_RESULT_WIN;
    CHECK_EQ(economy_buyback(m, 2), GOTA_ACT_MATCH_OVER);
    CHECK_EQ(h->gold, 1000);
    gota_match_free(m);
}

int main(void)
{
    test_xp_curve();
    test_creep_xp();
    test_neutral_xp();
    test_hero_kill();
    test_structures_and_gods();
    test_score();
    test_shop();
    test_potions();
    test_poison();
    test_portal();
    test_portal_match();
    test_levelling();
    test_buyback();
    return check_report("test_economy");
}
