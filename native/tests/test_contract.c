/*
 * test_contract.c -- the observation and action contract (contract.h,
 * docs/contract.md): layout and hash, the slot table, fog, the team frame,
 * bit-exact point decoding, masks against the engine's answers (fuzzed over
 * seeds and ticks of bot-played matches) and against their plain computation
 * (on scrambled hero states), invalid decodes, the public API, determinism.
 *
 * White box: scenes move heroes by hand and read m->seen; matches are driven
 * with gota_match_step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../world.h"
#include "../fixmath.h"
#include "../contract.h"
#include "check.h"

#define TILE_C(t) ((t) * GOTA_TILE - MAP_HALF_WORLD + GOTA_TILE / 2)

static GotaMatch *new_match(int64_t seed, int bots)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.seed = seed;
    for (int s = 0; s < SEATS; s++) {
        char key[24];
        snprintf(key, sizeof key, "class_%d", s);
        CHECK_EQ(gota_config_set(&cfg, key, s), GOTA_OK);
        if (bots) {
            snprintf(key, sizeof key, "bot_%d", s);
            CHECK_EQ(gota_config_set(&cfg, key, GOTA_BOT_PULLER), GOTA_OK);
        }
    }
    int err = -99;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK_EQ(err, GOTA_OK);
    return m;
}

static void place_hero(GotaMatch *m, int seat, int32_t x, int32_t z)
{
    int s = m->hero_slot[seat];
    GotaUnit *u = &m->unit[s];
    u->x = m->snap_x[s] = x;
    u->z = m->snap_z[s] = z;
    u->alive = 1;
    u->hp = u->max_hp;
    u->facing = 0;
    HeroState *h = &m->hero[seat];
    h->stun = h->root = h->silence = h->channel = 0;
    h->respawn_at = 0;
}

static float objf(const float *obs, int slot, int f) { return obs[OBS_OBJECT + slot * OBS_OBJECT_WIDTH + f]; }

/* ---- layout and hash ------------------------------------------------------ */
static void test_layout(void)
{
    CHECK_EQ(OBS_SIZE, 1407);
    CHECK_EQ(OBS_ABILITY, 48);
    CHECK_EQ(OBS_ITEM, 112);
    CHECK_EQ(OBS_OBJECT, 262);
    CHECK_EQ(OBS_WARNING, 1262);
    CHECK_EQ(OBS_SUMMARY, 1294);
    CHECK_EQ(OBS_TERRAIN, 1310);
    CHECK_EQ(OBS_GOAL, 1391);
    CHECK_EQ(MASK_SIZE, 203);
    CHECK_EQ(MASK_CAST_POINT_ABILITY, 187);   /* the original's 187 mask bytes come first, unchanged */
    CHECK_EQ(CONTRACT_LOGITS, 92);
    CHECK_EQ(MASK_FLAT_SIZE, 92);
    /* the obs blocks tile [0, OBS_SIZE) in order, each row named in full */
    static const char *const blocks[] = {"obs.self", "obs.ability", "obs.item", "obs.object",
                                         "obs.warning", "obs.summary", "obs.terrain", "obs.goal"};
    int32_t at = 0;
    for (int b = 0; b < 8; b++) {
        int32_t i = contract_find(blocks[b]);
        CHECK(i >= 0);
        if (i < 0) continue;
        const ContractEntry *e = contract_entry(i);
        CHECK_EQ(e->offset, at);
        at += e->count * e->width;
        if (strcmp(blocks[b], "obs.terrain") != 0)
            for (int32_t f = 0; f < e->width; f++) CHECK(contract_feature(i, f) != NULL);
        CHECK(contract_feature(i, e->width) == NULL);
    }
    CHECK_EQ(at, OBS_SIZE);
    /* masks: the conditional blocks tile [0, MASK_SIZE) */
    static const char *const mblocks[] = {"mask.verb", "mask.cast_target_ability", "mask.target_rows",
                                          "mask.cast_point_ability", "mask.use_item", "mask.use_item_at"};
    at = 0;
    for (int b = 0; b < 6; b++) {
        const ContractEntry *e = contract_entry(contract_find(mblocks[b]));
        CHECK(e != NULL);
        if (!e) continue;
        CHECK_EQ(e->offset, at);
        at += e->count * e->width;
    }
    CHECK_EQ(at, MASK_SIZE);
    static const char *const heads[] = {"head.verb", "head.target", "head.point", "head.ability", "head.item"};
    at = 0;
    for (int b = 0; b < 5; b++) {
        const ContractEntry *e = contract_entry(contract_find(heads[b]));
        CHECK(e != NULL);
        if (!e) continue;
        CHECK_EQ(e->offset, at);
        at += e->width;
    }
    CHECK_EQ(at, CONTRACT_LOGITS);
    CHECK(contract_entry(-1) == NULL);
    CHECK(contract_entry(contract_entries()) == NULL);
    CHECK_EQ(contract_find("no.such"), -1);
    /* names: unique */
    for (int32_t i = 0; i < contract_entries(); i++)
        for (int32_t j = i + 1; j < contract_entries(); j++)
            CHECK(strcmp(contract_entry(i)->name, contract_entry(j)->name) != 0);
    uint64_t h = contract_hash();
    CHECK(h != 0);
    CHECK(h == contract_hash());
    GotaContractInfo info;
    CHECK_EQ(gota_contract_info(&info), GOTA_OK);
    CHECK(info.hash == h);
    CHECK_EQ(info.obs_size, OBS_SIZE);
    CHECK_EQ(info.mask_size, MASK_SIZE);
    CHECK_EQ(info.logits, CONTRACT_LOGITS);
    CHECK_EQ(info.entries, contract_entries());
    GotaContractEntry ge;
    CHECK_EQ(gota_contract_entry(info.entries, &ge), GOTA_ERR_INDEX);
    CHECK_EQ(gota_contract_entry(0, NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_contract_entry(1, &ge), GOTA_OK);
    CHECK(strcmp(ge.name, "obs.self") == 0);
    CHECK(strcmp(gota_contract_feature(1, OS_ALIVE), "alive") == 0);
    CHECK_EQ(gota_contract_info(NULL), GOTA_ERR_NULL);
    CHECK_EQ(gota_contract_find("obs.object", &ge), GOTA_OK);
    CHECK_EQ(ge.offset, OBS_OBJECT);
    CHECK_EQ(ge.count * ge.width, OBS_OBJECT_SIZE);
    CHECK_EQ(gota_contract_find("nope", &ge), GOTA_ERR_INDEX);
    CHECK_EQ(gota_contract_find(NULL, &ge), GOTA_ERR_NULL);
    printf("  contract hash %016llx\n", (unsigned long long)h);
}

/* ---- direction table ------------------------------------------------------ */
static void test_directions(void)
{
    /* round(65536 cos(k pi / 8)), round(65536 sin(k pi / 8)), computed apart */
    static const int32_t want[16][2] = {
        {65536, 0}, {60547, 25080}, {46341, 46341}, {25080, 60547}, {0, 65536}, {-25080, 60547},
        {-46341, 46341}, {-60547, 25080}, {-65536, 0}, {-60547, -25080}, {-46341, -46341},
        {-25080, -60547}, {0, -65536}, {25080, -60547}, {46341, -46341}, {60547, -25080}};
    for (int k = 0; k < CONTRACT_DIRS; k++) {
        int32_t c, s;
        contract_direction(k, &c, &s);
        CHECK_EQ(c, want[k][0]);
        CHECK_EQ(s, want[k][1]);
        int64_t len2 = (int64_t)c * c + (int64_t)s * s;   /* unit length to 1 part in 30,000 */
        CHECK(len2 > (int64_t)65534 * 65534 && len2 < (int64_t)65538 * 65538);
    }
}

/* ---- slot table ----------------------------------------------------------- */
static void check_slots(const GotaMatch *m, int seat)
{
    ContractSlots cs;
    CHECK_EQ(contract_slots(m, seat, &cs), 0);
    int team = hero_team(seat);
    CHECK_EQ(cs.unit[CSLOT_SELF], m->hero_slot[seat]);
    int k = CSLOT_ALLY, f = CSLOT_ENEMY_HERO;
    for (int q = 0; q < SEATS; q++) {
        if (q == seat) continue;
        int j = m->hero_slot[q];
        if (hero_team(q) == team) {
            CHECK_EQ(cs.unit[k], m->unit[j].alive ? j : -1);
            k++;
        } else {
            CHECK_EQ(cs.unit[f], m->unit[j].alive && m->seen[team][j] ? j : -1);
            f++;
        }
    }
    const GotaUnit *me = &m->unit[cs.self];
    for (int s = 1; s < CONTRACT_SLOTS; s++) {
        int j = cs.unit[s];
        if (j < 0) continue;
        CHECK(m->unit[j].alive);
        CHECK(m->seen[team][j]);
        CHECK_EQ(contract_slot_unit(m, seat, s), j);
    }
    /* creeps: nearest first, and no visible living creep nearer than the last one is left out */
    int64_t prev = -1, last = -1;
    int n = 0;
    for (int s = CSLOT_CREEP; s < CSLOT_CREEP + CSLOT_CREEPS; s++) {
        int j = cs.unit[s];
        if (j < 0) break;
        CHECK_EQ(m->unit[j].kind, GOTA_KIND_CREEP);
        int64_t d = fx_dist2(me->x, me->z, m->unit[j].x, m->unit[j].z);
        CHECK(d >= prev);
        prev = last = d;
        n++;
    }
    int visible = 0;
    for (int i = 0; i < m->unit_n; i++) {
        if (m->unit[i].kind != GOTA_KIND_CREEP || !m->unit[i].alive || !m->seen[team][i]) continue;
        visible++;
        int in = 0;
        for (int s = CSLOT_CREEP; s < CSLOT_CREEP + CSLOT_CREEPS; s++) in |= cs.unit[s] == i;
        if (!in) CHECK(n == CSLOT_CREEPS && fx_dist2(me->x, me->z, m->unit[i].x, m->unit[i].z) >= last);
    }
    CHECK_EQ(n, visible < CSLOT_CREEPS ? visible : CSLOT_CREEPS);
    for (int s = CSLOT_NEUTRAL; s < CONTRACT_SLOTS; s++)
        if (cs.unit[s] >= 0) CHECK_EQ(m->unit[cs.unit[s]].kind, GOTA_KIND_NEUTRAL);
    if (cs.unit[CSLOT_OWN_TOWER] >= 0) {
        CHECK_EQ(m->unit[cs.unit[CSLOT_OWN_TOWER]].kind, GOTA_KIND_TOWER);
        CHECK_EQ(m->unit[cs.unit[CSLOT_OWN_TOWER]].team, team);
    }
    if (cs.unit[CSLOT_ENEMY_STRUCTURE] >= 0) CHECK(m->unit[cs.unit[CSLOT_ENEMY_STRUCTURE]].team == 1 - team);
    CHECK_EQ(cs.unit[CSLOT_OWN_GOD], m->god_slot[team]);
}

/* ---- team knowledge ------------------------------------------------------- */
/* The slot table computed per seat from the whole unit and building tables
 * (the plain form that contract_team + contract_slots_team must reproduce). */
static int ref_nearer(const GotaMatch *m, int64_t da, int a, int64_t db, int b)
{
    return da < db || (da == db && m->unit[a].id < m->unit[b].id);
}

static void ref_offer(const GotaMatch *m, int32_t *slot, int64_t *d2, int *n, int k, int j, int64_t d)
{
    int at = *n;
    while (at > 0 && ref_nearer(m, d, j, d2[at - 1], slot[at - 1])) at--;
    if (at >= k) return;
    for (int i = (*n < k ? *n : k - 1); i > at; i--) {
        slot[i] = slot[i - 1];
        d2[i] = d2[i - 1];
    }
    slot[at] = j;
    d2[at] = d;
    if (*n < k) (*n)++;
}

static void ref_slots(const GotaMatch *m, int seat, ContractSlots *cs)
{
    memset(cs, 0, sizeof *cs);
    for (int k = 0; k < CONTRACT_SLOTS; k++) cs->unit[k] = -1;
    int self = m->hero_slot[seat], team = hero_team(seat), enemy = 1 - team;
    cs->team = team;
    cs->s = team == GOTA_TEAM_RED ? 1 : -1;
    cs->self = cs->unit[CSLOT_SELF] = self;
    const GotaUnit *me = &m->unit[self];
    int ally = CSLOT_ALLY, foe = CSLOT_ENEMY_HERO;
    for (int q = 0; q < SEATS; q++) {
        if (q == seat) continue;
        int j = m->hero_slot[q];
        if (hero_team(q) == team) cs->unit[ally++] = m->unit[j].alive ? j : -1;
        else cs->unit[foe++] = m->unit[j].alive && m->seen[team][j] ? j : -1;
    }
    int32_t creep[CSLOT_CREEPS], neutral[CSLOT_NEUTRALS];
    int64_t creep_d[CSLOT_CREEPS], neutral_d[CSLOT_NEUTRALS];
    int nc = 0, nn = 0;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (!u->alive || !m->seen[team][i]) continue;
        int64_t d = fx_dist2(me->x, me->z, u->x, u->z);
        if (u->kind == GOTA_KIND_CREEP) ref_offer(m, creep, creep_d, &nc, CSLOT_CREEPS, i, d);
        else if (u->kind == GOTA_KIND_NEUTRAL) ref_offer(m, neutral, neutral_d, &nn, CSLOT_NEUTRALS, i, d);
    }
    for (int k = 0; k < nc; k++) cs->unit[CSLOT_CREEP + k] = creep[k];
    for (int k = 0; k < nn; k++) cs->unit[CSLOT_NEUTRAL + k] = neutral[k];
    int g = m->god_slot[team];
    if (g >= 0 && m->unit[g].alive) cs->unit[CSLOT_OWN_GOD] = g;
    g = m->god_slot[enemy];
    if (g >= 0 && m->unit[g].alive && m->seen[team][g]) cs->unit[CSLOT_ENEMY_GOD] = g;
    const MapBuilding *eg = &m->map->building[MAP_IDX_GOD(enemy)];
    int best = -1, foe_best = -1;
    int64_t best_d = 0, foe_d = 0;
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        int j = m->building_slot[b];
        if (j < 0 || !m->unit[j].alive) continue;
        if (mb->team == team && mb->kind == GOTA_KIND_TOWER) {
            int64_t d = fx_dist2(eg->x, eg->z, m->unit[j].x, m->unit[j].z);
            if (best < 0 || ref_nearer(m, d, j, best_d, best)) { best = j; best_d = d; }
        } else if (mb->team == enemy && (mb->kind == GOTA_KIND_TOWER || mb->kind == GOTA_KIND_BARRACKS) &&
                   m->seen[team][j]) {
            int64_t d = fx_dist2(me->x, me->z, m->unit[j].x, m->unit[j].z);
            if (foe_best < 0 || ref_nearer(m, d, j, foe_d, foe_best)) { foe_best = j; foe_d = d; }
        }
    }
    cs->unit[CSLOT_OWN_TOWER] = best;
    cs->unit[CSLOT_ENEMY_STRUCTURE] = foe_best;
}

/* Team building counts of the summary, per seat from the building table. */
static void ref_summary(const GotaMatch *m, int team, float *o)
{
    int n[8] = {0};   /* own towers up/all, own barracks up/all, enemy towers, enemy barracks */
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        if (mb->kind != GOTA_KIND_TOWER && mb->kind != GOTA_KIND_BARRACKS) continue;
        int at = (mb->team == team ? 0 : 4) + (mb->kind == GOTA_KIND_TOWER ? 0 : 2);
        int up = m->building_alive[b] || (mb->team != team && !m->seen_destroyed[team][b]);
        n[at] += up;
        n[at + 1]++;
    }
    for (int k = 0; k < 4; k++) o[k] = n[2 * k + 1] ? (float)((double)n[2 * k] / (double)n[2 * k + 1]) : 0.0f;
}

/* The terrain window of a seat, cell by cell (mirror, bounds, nav_open, ghosts). */
static int ref_terrain(const GotaMatch *m, int seat, float *o)
{
    int team = hero_team(seat), s = team == GOTA_TEAM_RED ? 1 : -1, ghosted = 0;
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    int64_t wx = (int64_t)me->x * s, wz = (int64_t)me->z * s, lim = MAP_HALF_WORLD - 1;
    int tx0 = map_tile_of((int32_t)(wx < -lim ? -lim : wx > lim ? lim : wx));
    int tz0 = map_tile_of((int32_t)(wz < -lim ? -lim : wz > lim ? lim : wz));
    for (int r = 0; r < OBS_TERRAIN_SIDE; r++)
        for (int c = 0; c < OBS_TERRAIN_SIDE; c++) {
            int fx = tx0 - 8 + 2 * c, fz = tz0 - 8 + 2 * r;
            int tx = s > 0 ? fx : MAP_N - 1 - fx, tz = s > 0 ? fz : MAP_N - 1 - fz;
            float v = 0.0f;
            if (tx >= 0 && tz >= 0 && tx < MAP_N && tz < MAP_N && nav_open(&m->nav, m->map, tz * MAP_N + tx)) {
                v = 1.0f;
                for (int b = 0; b < m->map->building_n; b++) {
                    const MapBuilding *mb = &m->map->building[b];
                    if (m->building_alive[b] || mb->team == team || m->seen_destroyed[team][b]) continue;
                    for (int f = 0; f < mb->footprint_n; f++)
                        if (mb->footprint[f] == tz * MAP_N + tx) v = 0.0f;
                }
                ghosted += v == 0.0f;
            }
            o[r * OBS_TERRAIN_SIDE + c] = v;
        }
    return ghosted;
}

/* The seat's relation features of each object slot, from the engine state:
 * the number of slots whose features differ. */
static int bad_relations(const GotaMatch *m, const ContractSlots *cs, const float *obs)
{
    const GotaUnit *me = &m->unit[cs->self];
    int bad = 0;
    for (int k = 0; k < CONTRACT_SLOTS; k++) {
        int j = cs->unit[k];
        if (j < 0) continue;
        const GotaUnit *u = &m->unit[j];
        int other = k != CSLOT_SELF;
        float want[4] = {
            other && u->target_id == me->id ? 1.0f : 0.0f,
            other && me->target_id == u->id ? 1.0f : 0.0f,
            other && me->alive && unit_attack_reach_ok(m, cs->self, j, me->x, me->z) ? 1.0f : 0.0f,
            other && u->hp <= me->damage ? 1.0f : 0.0f,
        };
        static const int f[4] = {OO_TARGETS_ME, OO_IS_MY_TARGET, OO_IN_RANGE, OO_KILLABLE};
        for (int i = 0; i < 4; i++) bad += objf(obs, k, f[i]) != want[i];
    }
    return bad;
}

/* Each team's knowledge, filled once and read by all its seats, gives the
 * slot tables, summary and terrain of the plain per-seat computation, and
 * object relation features that agree with the engine state. */
static void test_team_knowledge(void)
{
    static ContractTeam ct[2];
    static float obs_team[OBS_SIZE], obs_seat[OBS_SIZE];
    int bad_slots = 0, bad_obs = 0, bad_summary = 0, bad_terrain = 0, bad_rel = 0, full = 0, ghosts = 0;
    int relations = 0;
    for (int seed = 1; seed <= 3; seed++) {
        GotaMatch *m = new_match(seed * 17, 1);
        if (!m) return;
        for (int step = 0; step < 120; step++) {
            gota_match_step(m, step < 60 ? 7 : 23, NULL);
            contract_team(m, GOTA_TEAM_RED, &ct[0]);
            contract_team(m, GOTA_TEAM_BLUE, &ct[1]);
            for (int t = 0; t < 2; t++) ghosts += ct[t].ghost_n;
            for (int seat = 0; seat < SEATS; seat++) {
                ContractSlots ref, got, plain;
                ref_slots(m, seat, &ref);
                CHECK_EQ(contract_slots_team(m, &ct[hero_team(seat)], seat, &got), 0);
                CHECK_EQ(contract_slots(m, seat, &plain), 0);
                bad_slots += memcmp(&ref, &got, sizeof ref) != 0 || memcmp(&ref, &plain, sizeof ref) != 0;
                full += got.unit[CSLOT_CREEP + CSLOT_CREEPS - 1] >= 0;
                contract_observe_team(m, &ct[hero_team(seat)], &got, seat, obs_team);
                contract_observe(m, seat, obs_seat);
                bad_obs += memcmp(obs_team, obs_seat, sizeof obs_team) != 0;
                bad_rel += bad_relations(m, &got, obs_team);
                for (int k = 0; k < CONTRACT_SLOTS; k++)
                    relations += objf(obs_team, k, OO_IN_RANGE) > 0.0f || objf(obs_team, k, OO_TARGETS_ME) > 0.0f;
                float sum[4];
                ref_summary(m, hero_team(seat), sum);
                bad_summary += memcmp(sum, obs_team + OBS_SUMMARY + OM_OWN_TOWERS, sizeof sum) != 0;
                float ter[OBS_TERRAIN_SIZE];
                ref_terrain(m, seat, ter);
                bad_terrain += memcmp(ter, obs_team + OBS_TERRAIN, sizeof ter) != 0;
            }
        }
        gota_match_free(m);
    }
    /* a fallen blue tower red has not seen fall: its footprint stays closed for red */
    GotaMatch *m = new_match(5, 0);
    if (!m) return;
    int b = MAP_IDX_TOWER(1, GOTA_TEAM_BLUE, GOTA_TIER_OUTER);
    const MapBuilding *mb = &m->map->building[b];
    m->building_alive[b] = 0;
    m->unit[m->building_slot[b]].alive = 0;
    m->seen_destroyed[GOTA_TEAM_RED][b] = 0;
    nav_set_footprint(&m->nav, mb, 0);
    int ft = mb->footprint[0];
    place_hero(m, 0, TILE_C(ft % MAP_N) + 3000, TILE_C(ft / MAP_N) - 2000);
    place_hero(m, 5, TILE_C(ft % MAP_N) - 5000, TILE_C(ft / MAP_N) + 4000);
    int ghosted = 0;
    for (int seat = 0; seat < SEATS; seat += 5) {
        float ter[OBS_TERRAIN_SIZE];
        ghosted += ref_terrain(m, seat, ter);
        contract_observe(m, seat, obs_seat);
        bad_terrain += memcmp(ter, obs_seat + OBS_TERRAIN, sizeof ter) != 0;
    }
    CHECK(ghosted > 0);
    gota_match_free(m);
    CHECK_EQ(bad_slots, 0);
    CHECK_EQ(bad_obs, 0);
    CHECK_EQ(bad_summary, 0);
    CHECK_EQ(bad_terrain, 0);
    CHECK_EQ(bad_rel, 0);
    CHECK(relations > 100);   /* objects in reach and targeting the seat's hero were seen */
    CHECK(full > 100);   /* the creep list was often full: the selection was exercised */
    printf("  team knowledge: %d full creep lists, %d ghost buildings\n", full, ghosts);
}

/* Creeps at one distance from a hero, their ids against slot order: the
 * selection by (distance, id) must not take the slot order for the id
 * (nearest's packed keys fall back on such ties). Three scenes, offsets in
 * units of 10,000: eight creeps on the eight points (+-3, +-1), (+-1, +-3)
 * (ties inside the kept seven and at its end); six at distinct distances and
 * two tied for the seventh place, after them and before them in slot order
 * (a tie at the end only, the second one left out or dropped); three tied (a
 * list that is not full). */
static void test_nearest_ties(void)
{
    static ContractTeam ct;
    static const int32_t scene[4][8][2] = {
        {{3, 1}, {1, 3}, {-3, 1}, {-1, 3}, {3, -1}, {1, -3}, {-3, -1}, {-1, -3}},
        {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {8, 0}, {-8, 0}},
        {{8, 0}, {-8, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}},
        {{3, 1}, {1, 3}, {-3, 1}},
    };
    static const int shown[4] = {8, 8, 8, 3};
    GotaMatch *m = new_match(11, 1);
    if (!m) return;
    int c[8], n = 0;
    for (int t = 0; t < 40 && n < 8; t++) {
        gota_match_step(m, 60, NULL);
        n = 0;
        for (int i = 0; i < m->unit_n && n < 8; i++)
            if (m->unit[i].kind == GOTA_KIND_CREEP && m->unit[i].alive) c[n++] = i;
    }
    CHECK_EQ(n, 8);
    if (n < 8) {
        gota_match_free(m);
        return;
    }
    /* ids in reverse slot order */
    int32_t id[8];
    for (int i = 0; i < 8; i++) id[i] = m->unit[c[i]].id;
    for (int i = 0; i < 8; i++) {
        int hi = i;
        for (int k = 0; k < 8; k++)
            if (id[k] > id[hi]) hi = k;
        m->unit[c[i]].id = id[hi];
        id[hi] = -1;
    }
    const GotaUnit *me = &m->unit[m->hero_slot[0]];
    int bad = 0;
    for (int sc = 0; sc < 4; sc++) {
        for (int i = 0; i < m->unit_n; i++)
            if (m->unit[i].kind == GOTA_KIND_CREEP) m->seen[GOTA_TEAM_RED][i] = 0;
        for (int i = 0; i < shown[sc]; i++) {
            GotaUnit *u = &m->unit[c[i]];
            u->x = me->x + scene[sc][i][0] * 10000;
            u->z = me->z + scene[sc][i][1] * 10000;
            m->seen[GOTA_TEAM_RED][c[i]] = 1;
        }
        ContractSlots ref, got;
        ref_slots(m, 0, &ref);
        contract_team(m, GOTA_TEAM_RED, &ct);
        CHECK_EQ(contract_slots_team(m, &ct, 0, &got), 0);
        bad += memcmp(&ref, &got, sizeof ref) != 0;
        CHECK_EQ(got.unit[CSLOT_CREEP + (shown[sc] < CSLOT_CREEPS ? shown[sc] : CSLOT_CREEPS) - 1] >= 0, 1);
    }
    CHECK_EQ(bad, 0);
    gota_match_free(m);
}

/* ---- fog ------------------------------------------------------------------ */
static void test_fog(void)
{
    GotaMatch *m = new_match(11, 0);
    if (!m) return;
    CHECK_EQ(gota_match_step(m, 2, NULL), GOTA_OK);
    float *obs = malloc(sizeof(float) * OBS_SIZE);
    int e = m->hero_slot[5];
    /* the blue hero of seat 5 in the middle of the map, red far away at home */
    place_hero(m, 5, TILE_C(58), TILE_C(58));
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);
    CHECK_EQ(m->seen[GOTA_TEAM_RED][e], 0);   /* precondition: red does not see it */
    CHECK_EQ(contract_observe(m, 0, obs), 0);
    CHECK(objf(obs, CSLOT_ENEMY_HERO, OO_PRESENT) == 0.0f);
    for (int f = 0; f < OBS_OBJECT_WIDTH; f++) CHECK(objf(obs, CSLOT_ENEMY_HERO, f) == 0.0f);
    CHECK_EQ(contract_slot_unit(m, 0, CSLOT_ENEMY_HERO), -1);
    check_slots(m, 0);
    /* the enemy spell aimed in fog is not shown; in sight it is */
    Spell *sp = &m->spell[m->spell_n++];
    memset(sp, 0, sizeof *sp);
    sp->caster = e; sp->caster_id = m->unit[e].id; sp->team = GOTA_TEAM_BLUE; sp->seat = 5;
    sp->cls = 5; sp->ability = 1; sp->target = -1; sp->target_id = -1;
    sp->x = sp->aim_x = TILE_C(58); sp->z = sp->aim_z = TILE_C(58);
    sp->impact_tick = m->tick + 10;
    contract_observe(m, 0, obs);
    CHECK(obs[OBS_WARNING + OW_PRESENT] == 0.0f);
    contract_observe(m, 5, obs);   /* own team's spell: blue knows it */
    CHECK(obs[OBS_WARNING + OW_PRESENT] == 1.0f);
    CHECK(obs[OBS_WARNING + OW_HOSTILE] == 0.0f);
    /* a red hero next to it: seen after the next vision phase */
    place_hero(m, 0, TILE_C(59), TILE_C(58));
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);
    CHECK_EQ(m->seen[GOTA_TEAM_RED][e], 1);
    contract_observe(m, 0, obs);
    CHECK(objf(obs, CSLOT_ENEMY_HERO, OO_PRESENT) == 1.0f);
    CHECK(objf(obs, CSLOT_ENEMY_HERO, OO_FACTION) == -1.0f);
    CHECK(objf(obs, CSLOT_ENEMY_HERO, OO_KIND + 1) == 1.0f);   /* hero */
    CHECK(objf(obs, CSLOT_ENEMY_HERO, OO_CLASS + 5) == 1.0f);
    CHECK(obs[OBS_WARNING + OW_PRESENT] == 1.0f);
    CHECK(obs[OBS_WARNING + OW_HOSTILE] == 1.0f);
    CHECK(obs[OBS_WARNING + OW_HARMLESS] == 0.0f);
    CHECK_EQ(contract_slot_unit(m, 0, CSLOT_ENEMY_HERO), e);
    check_slots(m, 0);
    check_slots(m, 5);
    /* the same unit hidden by hand disappears (the test reads m->seen only) */
    m->seen[GOTA_TEAM_RED][e] = 0;
    contract_observe(m, 0, obs);
    CHECK(objf(obs, CSLOT_ENEMY_HERO, OO_PRESENT) == 0.0f);
    CHECK(obs[OBS_SUMMARY + OM_ENEMIES_VISIBLE] == 0.0f);
    m->seen[GOTA_TEAM_RED][e] = 1;
    /* enemy buildings: standing until the team has seen them fall */
    int b = MAP_IDX_TOWER(0, GOTA_TEAM_BLUE, GOTA_TIER_OUTER);
    contract_observe(m, 0, obs);
    float towers = obs[OBS_SUMMARY + OM_ENEMY_TOWERS];
    CHECK(towers == 1.0f);
    m->building_alive[b] = 0;
    m->unit[m->building_slot[b]].alive = 0;
    m->seen_destroyed[GOTA_TEAM_RED][b] = 0;
    contract_observe(m, 0, obs);
    CHECK(obs[OBS_SUMMARY + OM_ENEMY_TOWERS] == towers);
    contract_observe(m, 5, obs);   /* blue knows its own tower fell */
    CHECK(obs[OBS_SUMMARY + OM_OWN_TOWERS] < 1.0f);
    m->seen_destroyed[GOTA_TEAM_RED][b] = 1;
    contract_observe(m, 0, obs);
    CHECK(obs[OBS_SUMMARY + OM_ENEMY_TOWERS] < towers);
    /* the enemy god's HP only when seen */
    int g = m->god_slot[GOTA_TEAM_BLUE];
    m->seen[GOTA_TEAM_RED][g] = 0;
    contract_observe(m, 0, obs);
    CHECK(obs[OBS_SUMMARY + OM_ENEMY_GOD_HP] == -1.0f);
    CHECK(objf(obs, CSLOT_ENEMY_GOD, OO_PRESENT) == 0.0f);
    m->seen[GOTA_TEAM_RED][g] = 1;
    contract_observe(m, 0, obs);
    CHECK(obs[OBS_SUMMARY + OM_ENEMY_GOD_HP] == 1.0f);
    CHECK(objf(obs, CSLOT_ENEMY_GOD, OO_PRESENT) == 1.0f);
    free(obs);
    gota_match_free(m);
}

/* ---- team frame ------------------------------------------------------------ */
static void test_team_frame(void)
{
    GotaMatch *m = new_match(5, 0);
    if (!m) return;
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);
    /* a walkable tile off the centre lines; its mirror is walkable too */
    int tx = 40, tz = 66;
    while (!m->map->walkable[map_index(tx, tz)]) tx++;
    CHECK(m->map->walkable[map_index(MAP_N - 1 - tx, MAP_N - 1 - tz)]);
    int32_t px = TILE_C(tx) + 7000, pz = TILE_C(tz) - 11000;   /* off the tile centre */
    place_hero(m, 0, px, pz);
    place_hero(m, 5, -px, -pz);
    float *red = malloc(sizeof(float) * OBS_SIZE), *blue = malloc(sizeof(float) * OBS_SIZE);
    contract_observe(m, 0, red);
    contract_observe(m, 5, blue);
    CHECK(red[OBS_SELF + OS_X] == blue[OBS_SELF + OS_X]);
    CHECK(red[OBS_SELF + OS_Z] == blue[OBS_SELF + OS_Z]);
    CHECK(red[OBS_SELF + OS_X] > 0.0f || red[OBS_SELF + OS_X] < 0.0f);
    CHECK(red[OBS_SELF + OS_TEAM] == 0.0f && blue[OBS_SELF + OS_TEAM] == 1.0f);
    CHECK(memcmp(red + OBS_TERRAIN, blue + OBS_TERRAIN, sizeof(float) * OBS_TERRAIN_SIZE) == 0);
    float walk = 0;
    for (int i = 0; i < OBS_TERRAIN_SIZE; i++) walk += red[OBS_TERRAIN + i];
    CHECK(walk > 0.0f);
    CHECK(red[OBS_TERRAIN + 4 * OBS_TERRAIN_SIDE + 4] == 1.0f);   /* the hero's own tile */
    for (int f = OO_PRESENT; f <= OO_ALIVE; f++)   /* own god: the same view from both sides */
        CHECK(objf(red, CSLOT_OWN_GOD, f) == objf(blue, CSLOT_OWN_GOD, f));
    CHECK(objf(red, CSLOT_OWN_GOD, OO_DX) != 0.0f);
    for (int f = OO_PRESENT; f <= OO_DIST; f++)   /* own forward tower likewise */
        CHECK(objf(red, CSLOT_OWN_TOWER, f) == objf(blue, CSLOT_OWN_TOWER, f));
    /* equal facings in the team frame: blue's world facing is turned half a turn */
    m->unit[m->hero_slot[0]].facing = 5000;
    m->unit[m->hero_slot[5]].facing = 5000 + 32768;
    contract_observe(m, 0, red);
    contract_observe(m, 5, blue);
    CHECK(objf(red, CSLOT_SELF, OO_FACING_X) == objf(blue, CSLOT_SELF, OO_FACING_X));
    CHECK(objf(red, CSLOT_SELF, OO_FACING_Z) == objf(blue, CSLOT_SELF, OO_FACING_Z));
    CHECK(objf(red, CSLOT_SELF, OO_FACING_X) > 0.8f && objf(red, CSLOT_SELF, OO_FACING_Z) > 0.4f);
    /* mirrored decoding: every point of walk and cast-point */
    for (int p = 0; p < CONTRACT_POINTS; p++) {
        for (int v = 0; v < 2; v++) {
            int32_t h[5] = {v ? VERB_CAST_POINT : VERB_WALK, CSLOT_SELF, p, 1, 0};
            GotaCommand a, b;
            CHECK_EQ(contract_decode(m, 0, h, &a), CONTRACT_DECODE_OK);
            CHECK_EQ(contract_decode(m, 5, h, &b), CONTRACT_DECODE_OK);
            CHECK_EQ(a.verb, b.verb);
            CHECK_EQ(a.x, -b.x);
            CHECK_EQ(a.z, -b.z);
        }
    }
    free(red);
    free(blue);
    gota_match_free(m);
}

/* ---- point decoding ---------------------------------------------------------- */
static void test_points(void)
{
    GotaMatch *m = new_match(3, 0);
    if (!m) return;
    CHECK_EQ(gota_match_step(m, 1, NULL), GOTA_OK);
    int32_t px = TILE_C(40), pz = TILE_C(66);
    place_hero(m, 0, px, pz);
    place_hero(m, 5, -px, -pz);
    GotaCommand c;
    /* hand-computed */
    int32_t h[5] = {VERB_WALK, 0, 0, 0, 0};
    CHECK_EQ(contract_decode(m, 0, h, &c), CONTRACT_DECODE_OK);
    CHECK_EQ(c.verb, GOTA_CMD_STOP);
    h[2] = 1;   /* ring 0 (2 tiles), dir 0 */
    contract_decode(m, 0, h, &c);
    CHECK_EQ(c.verb, GOTA_CMD_WALK);
    CHECK_EQ(c.x, px + 120000);
    CHECK_EQ(c.z, pz);
    h[2] = 1 + 4;   /* dir 4: team +z */
    contract_decode(m, 0, h, &c);
    CHECK_EQ(c.x, px);
    CHECK_EQ(c.z, pz + 120000);
    contract_decode(m, 5, h, &c);   /* blue: world -z */
    CHECK_EQ(c.x, -px);
    CHECK_EQ(c.z, -pz - 120000);
    h[2] = 1 + 16 + 2;   /* ring 1 (5 tiles) at 45 deg: +212,132 each, snapped 4 tiles on */
    contract_decode(m, 0, h, &c);
    CHECK_EQ(c.x, px + 240000);
    CHECK_EQ(c.z, pz + 240000);
    h[0] = VERB_ATTACK_MOVE;
    h[2] = 1 + 32 + 1;   /* ring 2 (12 tiles) at 22.5 deg: (665,189, 275,537) -> 11 and 5 tiles */
    contract_decode(m, 0, h, &c);
    CHECK_EQ(c.verb, GOTA_CMD_ATTACK_MOVE);
    CHECK_EQ(c.x, px + 660000);
    CHECK_EQ(c.z, pz + 300000);
    int32_t k[5] = {VERB_CAST_POINT, CSLOT_SELF, 0, 2, 0};
    CHECK_EQ(contract_decode(m, 0, k, &c), CONTRACT_DECODE_OK);
    CHECK_EQ(c.verb, GOTA_CMD_CAST_POINT);
    CHECK_EQ(c.slot, 2);
    CHECK_EQ(c.x, px);
    CHECK_EQ(c.z, pz);
    k[2] = 1 + 32 + 3;   /* ring 2 (2.5 tiles) at 67.5 deg: (57,404, 138,581) */
    contract_decode(m, 0, k, &c);
    CHECK_EQ(c.x, px + 57404);
    CHECK_EQ(c.z, pz + 138581);
    k[2] = 1 + 16 + 10;   /* ring 1 (1.25 tiles) at 225 deg */
    contract_decode(m, 0, k, &c);
    CHECK_EQ(c.x, px - 53033);
    CHECK_EQ(c.z, pz - 53033);
    k[0] = VERB_USE_ITEM_AT;
    k[4] = 3;
    k[2] = 1 + 8;   /* ring 0 (0.5 tile) at 180 deg */
    contract_decode(m, 0, k, &c);
    CHECK_EQ(c.verb, GOTA_CMD_USE_ITEM_AT);
    CHECK_EQ(c.slot, 3);
    CHECK_EQ(c.x, px - 30000);
    CHECK_EQ(c.z, pz);
    /* all 49 points against the formula */
    static const int32_t move_r[3] = {120000, 300000, 720000}, aim_r[3] = {30000, 75000, 150000};
    for (int p = 1; p < CONTRACT_POINTS; p++) {
        int ring = (p - 1) / 16, dir = (p - 1) % 16;
        int32_t dc, ds;
        contract_direction(dir, &dc, &ds);
        int64_t vx = (int64_t)aim_r[ring] * dc, vz = (int64_t)aim_r[ring] * ds;
        int64_t ox = vx >= 0 ? (vx + 32768) / 65536 : -((-vx + 32768) / 65536);
        int64_t oz = vz >= 0 ? (vz + 32768) / 65536 : -((-vz + 32768) / 65536);
        int32_t a[5] = {VERB_CAST_POINT, CSLOT_SELF, p, 0, 0};
        contract_decode(m, 0, a, &c);
        CHECK_EQ(c.x, px + ox);
        CHECK_EQ(c.z, pz + oz);
        int64_t len2 = ox * ox + oz * oz, r = aim_r[ring];
        CHECK(len2 <= (r + 1) * (r + 1) && len2 >= (r - 1) * (r - 1));
        vx = (int64_t)move_r[ring] * dc;
        vz = (int64_t)move_r[ring] * ds;
        ox = vx >= 0 ? (vx + 32768) / 65536 : -((-vx + 32768) / 65536);
        oz = vz >= 0 ? (vz + 32768) / 65536 : -((-vz + 32768) / 65536);
        int32_t w[5] = {VERB_WALK, 0, p, 0, 0};
        contract_decode(m, 0, w, &c);
        CHECK_EQ(c.x, map_tile_centre(map_tile_of((int32_t)(px + ox))));
        CHECK_EQ(c.z, map_tile_centre(map_tile_of((int32_t)(pz + oz))));
    }
    /* clamped to the map: a hero at the east rim walking and aiming east */
    int32_t ex = TILE_C(MAP_N - 1);
    place_hero(m, 0, ex, pz);
    int32_t w[5] = {VERB_WALK, 0, 1 + 32, 0, 0};
    contract_decode(m, 0, w, &c);
    CHECK_EQ(c.x, TILE_C(MAP_N - 1));
    int32_t a[5] = {VERB_CAST_POINT, 0, 1 + 32, 0, 0};
    contract_decode(m, 0, a, &c);
    CHECK_EQ(c.x, MAP_HALF_WORLD - CONTRACT_RIM);
    CHECK(map_world_inside(c.x, c.z));
    place_hero(m, 5, -ex, -pz);   /* blue, mirrored: west rim */
    contract_decode(m, 5, a, &c);
    CHECK_EQ(c.x, -(MAP_HALF_WORLD - CONTRACT_RIM));
    gota_match_free(m);
}

/* ---- invalid decodes, noops, API errors -------------------------------------- */
static void test_invalid(void)
{
    GotaMatch *m = new_match(9, 0);
    if (!m) return;
    CHECK_EQ(gota_match_step(m, 2, NULL), GOTA_OK);
    GotaSeatStats st;
    gota_match_seat_stats(m, 0, &st);
    int64_t inv0 = st.invalid_actions, cmd0 = st.commands;
    int32_t err = 99;
    int32_t noop[5] = {VERB_NOOP, 0, 0, 0, 0};
    CHECK_EQ(gota_match_act(m, 0, noop, &err), GOTA_OK);
    CHECK_EQ(err, GOTA_ACT_OK);
    int32_t noop_junk[5] = {VERB_NOOP, 99, -1, 7, 7};   /* a noop verb is never invalid */
    CHECK_EQ(contract_act(m, 0, noop_junk), GOTA_ACT_OK);
    int32_t self_attack[5] = {VERB_ATTACK_TARGET, CSLOT_SELF, 0, 0, 0};
    CHECK_EQ(contract_act(m, 0, self_attack), CONTRACT_ACT_INVALID);
    int32_t empty[5] = {VERB_ATTACK_TARGET, CSLOT_ENEMY_HERO, 0, 0, 0};
    CHECK_EQ(contract_slot_unit(m, 0, CSLOT_ENEMY_HERO), -1);   /* blue is at home, unseen */
    CHECK_EQ(gota_match_act(m, 0, empty, &err), GOTA_OK);
    CHECK_EQ(err, CONTRACT_ACT_INVALID);
    int32_t bad_point[5] = {VERB_WALK, 0, CONTRACT_POINTS, 0, 0};
    CHECK_EQ(contract_act(m, 0, bad_point), CONTRACT_ACT_INVALID);
    int32_t bad_verb[5] = {CONTRACT_VERBS, 0, 0, 0, 0};
    CHECK_EQ(contract_act(m, 0, bad_verb), CONTRACT_ACT_INVALID);
    int32_t bad_item[5] = {VERB_USE_ITEM, 0, 0, 0, -1};
    CHECK_EQ(contract_act(m, 0, bad_item), CONTRACT_ACT_INVALID);
    gota_match_seat_stats(m, 0, &st);
    CHECK_EQ(st.invalid_actions, inv0 + 5);
    CHECK_EQ(st.commands, cmd0);   /* nothing was issued */
    /* a valid decode the engine refuses is counted by the engine */
    int32_t empty_item[5] = {VERB_USE_ITEM, 0, 0, 0, 5};
    CHECK_EQ(contract_act(m, 0, empty_item), GOTA_ACT_EMPTY_SLOT);
    gota_match_seat_stats(m, 0, &st);
    CHECK_EQ(st.invalid_actions, inv0 + 6);
    CHECK_EQ(st.commands, cmd0 + 1);
    /* stop is a real command */
    int32_t stop[5] = {VERB_WALK, 0, 0, 0, 0};
    CHECK_EQ(contract_act(m, 0, stop), GOTA_ACT_OK);
    /* a dead seat: every verb decodes to noop, counted; the mask allows noop only */
    m->unit[m->hero_slot[1]].alive = 0;
    int32_t walk[5] = {VERB_WALK, 0, 1, 0, 0};
    GotaCommand c;
    CHECK_EQ(contract_decode(m, 1, walk, &c), CONTRACT_DECODE_INVALID);
    CHECK_EQ(c.verb, GOTA_CMD_NOOP);
    gota_match_seat_stats(m, 1, &st);
    int64_t inv1 = st.invalid_actions;
    CHECK_EQ(contract_act(m, 1, walk), CONTRACT_ACT_INVALID);
    gota_match_seat_stats(m, 1, &st);
    CHECK_EQ(st.invalid_actions, inv1 + 1);
    uint8_t mask[MASK_SIZE], flat[MASK_FLAT_SIZE];
    contract_mask(m, 1, mask);
    CHECK_EQ(mask[MASK_VERB + VERB_NOOP], 1);
    int on = 0;
    for (int i = 1; i < MASK_SIZE; i++) on += mask[i];
    CHECK_EQ(on, 0);
    contract_mask_flatten(mask, flat);
    CHECK_EQ(flat[MASK_FLAT_VERB], 1);
    CHECK_EQ(flat[MASK_FLAT_TARGET], 1);   /* every flat head keeps one choice */
    CHECK_EQ(flat[MASK_FLAT_ABILITY], 1);
    CHECK_EQ(flat[MASK_FLAT_ITEM], 1);
    /* API call errors */
    float obs[OBS_SIZE];
    CHECK_EQ(gota_match_observe(NULL, 0, obs, OBS_SIZE), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_observe(m, 0, NULL, OBS_SIZE), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_observe(m, 10, obs, OBS_SIZE), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_observe(m, -1, obs, OBS_SIZE), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_observe(m, 0, obs, OBS_SIZE - 1), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_match_observe(m, 0, obs, OBS_SIZE), GOTA_OK);
    CHECK_EQ(gota_match_mask(m, 0, mask, MASK_SIZE - 1), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_match_mask(m, 11, mask, MASK_SIZE), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_mask(m, 0, NULL, MASK_SIZE), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_mask(m, 0, mask, MASK_SIZE), GOTA_OK);
    CHECK_EQ(gota_match_mask_flat(m, 0, flat, MASK_FLAT_SIZE - 1), GOTA_ERR_BUFFER);
    CHECK_EQ(gota_match_mask_flat(m, 0, flat, MASK_FLAT_SIZE), GOTA_OK);
    CHECK_EQ(gota_match_act(m, 0, NULL, &err), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_act(NULL, 0, noop, &err), GOTA_ERR_NULL);
    CHECK_EQ(gota_match_act(m, 10, noop, &err), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_act(m, 0, noop, NULL), GOTA_OK);
    int32_t invalid = -5;
    CHECK_EQ(gota_match_decode(m, 0, self_attack, &c, &invalid), GOTA_OK);
    CHECK_EQ(invalid, 1);
    CHECK_EQ(gota_match_decode(m, 0, noop, &c, &invalid), GOTA_OK);
    CHECK_EQ(invalid, 0);
    gota_match_free(m);
    /* a match without heroes: no seat has a contract */
    GotaConfig cfg;
    gota_config_default(&cfg);
    gota_config_set(&cfg, "heroes", 0);
    int e2;
    GotaMatch *c0 = gota_match_new(&cfg, &e2);
    CHECK(c0 != NULL);
    if (c0) {
        CHECK_EQ(gota_match_observe(c0, 0, obs, OBS_SIZE), GOTA_ERR_INDEX);
        CHECK_EQ(contract_observe(c0, 0, obs), -1);
        CHECK_EQ(contract_act(c0, 0, walk), CONTRACT_ACT_INVALID);
        contract_mask(c0, 0, mask);
        CHECK_EQ(mask[0], 1);
        gota_match_free(c0);
    }
}

/* ---- masks against the engine ------------------------------------------------- */
typedef struct {
    long allowed[CONTRACT_VERBS], ok[CONTRACT_VERBS], refused_disallowed;
    long answers[GOTA_ACT_CODES];
} MaskStats;

static uint64_t rng_state = 0x1234567ull;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Run heads on a copy of `base` (scratch); returns the answer. */
static int try_act(const GotaMatch *base, GotaMatch *scratch, int seat, const int32_t h[5])
{
    memcpy(scratch, base, sizeof *scratch);
    return contract_act(scratch, seat, h);
}

static int in_set(int v, const int *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == v) return 1;
    return 0;
}

/* Give every hero learned abilities, mana, potions, poison and a portal. */
static void boost(GotaMatch *m)
{
    for (int s = 0; s < SEATS; s++) {
        HeroState *h = &m->hero[s];
        GotaUnit *u = &m->unit[m->hero_slot[s]];
        for (int a = 0; a < HERO_ABILITIES; a++) {
            if (h->rank[a] < 1) h->rank[a] = 1;
            if (h->charges[a] < 1) h->charges[a] = 1;
            h->cooldown[a] = 0;
        }
        h->mana = h->max_mana > 1 ? h->max_mana - 1 : h->max_mana;
        if (u->alive && u->hp > 2) u->hp = u->hp * 4 / 5;
        static const int items[4] = {1, 4, 21, 22};
        for (int i = 0; i < 4; i++) {
            h->item[i] = items[i];
            h->item_count[i] = 2;
        }
        h->hp_item_cd = h->mana_item_cd = h->portal_cd = 0;
    }
}

static void check_masks_at(const GotaMatch *base, GotaMatch *scratch, MaskStats *ms)
{
    static const int move_ok[] = {GOTA_ACT_OK, GOTA_ACT_ROOTED, GOTA_ACT_BAD_POINT};
    static const int point_ok[] = {GOTA_ACT_OK, GOTA_ACT_NOT_VISIBLE};
    static const int portal_ok[] = {GOTA_ACT_OK, GOTA_ACT_NO_TOWER};
    for (int seat = 0; seat < SEATS; seat++) {
        check_slots(base, seat);
        uint8_t mask[MASK_SIZE], flat[MASK_FLAT_SIZE];
        contract_mask(base, seat, mask);
        contract_mask_flatten(mask, flat);
        const uint8_t *row = mask + MASK_ROWS;
        CHECK_EQ(mask[MASK_VERB + VERB_NOOP], 1);
        for (int v = 0; v < CONTRACT_VERBS; v++)
            if (mask[MASK_VERB + v]) ms->allowed[v]++;
        /* walk / attack-move */
        for (int v = VERB_WALK; v <= VERB_ATTACK_MOVE; v++) {
            if (!mask[MASK_VERB + v]) continue;
            int32_t h[5] = {v, 0, (int32_t)(rnd() % CONTRACT_POINTS), 0, 0};
            int r = try_act(base, scratch, seat, h);
            CHECK(in_set(r, move_ok, 3));
            if (r == GOTA_ACT_OK) ms->ok[v]++;
            ms->answers[r >= 0 ? r : 0]++;
        }
        /* attackTarget: every allowed target accepted; every other one refused */
        for (int k = 0; k < CONTRACT_TARGETS; k++) {
            int32_t h[5] = {VERB_ATTACK_TARGET, k, 0, 0, 0};
            int allowed = mask[MASK_VERB + VERB_ATTACK_TARGET] && row[MASK_ROW_ATTACK * CONTRACT_TARGETS + k];
            int r = try_act(base, scratch, seat, h);
            if (allowed) {
                CHECK_EQ(r, GOTA_ACT_OK);
                ms->ok[VERB_ATTACK_TARGET]++;
            } else {
                CHECK(r != GOTA_ACT_OK);
                ms->refused_disallowed++;
            }
        }
        /* castTarget per ability */
        for (int a = 0; a < CONTRACT_ABILITIES; a++)
            for (int k = 0; k < CONTRACT_TARGETS; k++) {
                int allowed = mask[MASK_VERB + VERB_CAST_TARGET] && mask[MASK_CAST_TARGET_ABILITY + a] &&
                              row[(MASK_ROW_CAST + a) * CONTRACT_TARGETS + k];
                if (!allowed && rnd() % 4 != 0) continue;   /* a sample of the refusals */
                int32_t h[5] = {VERB_CAST_TARGET, k, 0, a, 0};
                int r = try_act(base, scratch, seat, h);
                if (allowed) {
                    CHECK_EQ(r, GOTA_ACT_OK);
                    ms->ok[VERB_CAST_TARGET]++;
                } else {
                    /* self-casts and caster-centred shapes ignore the target: the mask offers slot 0 only */
                    const AbilityDef *d = &HERO_CLASS[base->hero[seat].cls].ability[a];
                    int ignored = (d->cast == CAST_SELF || d->range == 0) && row[(MASK_ROW_CAST + a) * CONTRACT_TARGETS];
                    CHECK(r != GOTA_ACT_OK || ignored);
                    ms->refused_disallowed++;
                }
            }
        /* castPoint: every allowed ability at a few allowed anchors */
        for (int a = 0; a < CONTRACT_ABILITIES; a++) {
            if (!mask[MASK_VERB + VERB_CAST_POINT] || !mask[MASK_CAST_POINT_ABILITY + a]) {
                int32_t h[5] = {VERB_CAST_POINT, 0, 0, a, 0};
                CHECK(try_act(base, scratch, seat, h) != GOTA_ACT_OK);
                continue;
            }
            for (int n = 0, k = (int)(rnd() % CONTRACT_TARGETS); n < CONTRACT_TARGETS && n < 40; n++, k = (k + 7) % CONTRACT_TARGETS) {
                if (!row[MASK_ROW_CAST_POINT * CONTRACT_TARGETS + k]) continue;
                int32_t h[5] = {VERB_CAST_POINT, k, (int32_t)(rnd() % CONTRACT_POINTS), a, 0};
                GotaCommand c;
                CHECK_EQ(contract_decode(base, seat, h, &c), CONTRACT_DECODE_OK);
                int r = try_act(base, scratch, seat, h);
                CHECK(in_set(r, point_ok, 2));
                if (r == GOTA_ACT_OK) ms->ok[VERB_CAST_POINT]++;
                if (n > 12) break;
            }
        }
        /* useItem: every allowed item accepted; the others refused */
        for (int i = 0; i < CONTRACT_ITEMS; i++) {
            int32_t h[5] = {VERB_USE_ITEM, 0, 0, 0, i};
            int allowed = mask[MASK_VERB + VERB_USE_ITEM] && mask[MASK_USE_ITEM + i];
            int r = try_act(base, scratch, seat, h);
            if (allowed) {
                CHECK_EQ(r, GOTA_ACT_OK);
                ms->ok[VERB_USE_ITEM]++;
            } else {
                CHECK(r != GOTA_ACT_OK);
            }
        }
        /* useItemAt: allowed items at allowed anchors: accepted or NO_TOWER (the offset) */
        for (int i = 0; i < CONTRACT_ITEMS; i++) {
            if (!mask[MASK_VERB + VERB_USE_ITEM_AT] || !mask[MASK_USE_ITEM_AT + i]) continue;
            for (int k = 0; k < CONTRACT_TARGETS; k++) {
                if (!row[MASK_ROW_ITEM_AT * CONTRACT_TARGETS + k]) continue;
                int32_t h[5] = {VERB_USE_ITEM_AT, k, 0, 0, i};   /* the anchor itself: always covered */
                CHECK_EQ(try_act(base, scratch, seat, h), GOTA_ACT_OK);
                h[2] = (int32_t)(rnd() % CONTRACT_POINTS);
                int r = try_act(base, scratch, seat, h);
                CHECK(in_set(r, portal_ok, 2));
                ms->ok[VERB_USE_ITEM_AT]++;
            }
        }
        /* masked-off verbs are refused or decode to noop for any heads */
        for (int v = 1; v < CONTRACT_VERBS; v++) {
            if (mask[MASK_VERB + v]) continue;
            int32_t h[5] = {v, (int32_t)(rnd() % CONTRACT_TARGETS), (int32_t)(rnd() % CONTRACT_POINTS),
                            (int32_t)(rnd() % CONTRACT_ABILITIES), (int32_t)(rnd() % CONTRACT_ITEMS)};
            int r = try_act(base, scratch, seat, h);
            /* useItemAt anchors are conservative: an offset point may reach a tower's sight */
            CHECK(r != GOTA_ACT_OK || (v == VERB_USE_ITEM_AT && h[2] != 0));
        }
        /* the flat form holds every conditional choice */
        for (int k = 0; k < CONTRACT_TARGETS; k++)
            for (int rr = 0; rr < MASK_ROW_COUNT; rr++) {
                int used = rr == MASK_ROW_ATTACK ? mask[MASK_VERB + VERB_ATTACK_TARGET]
                         : rr < MASK_ROW_CAST_POINT ? mask[MASK_CAST_TARGET_ABILITY + rr - MASK_ROW_CAST]
                         : rr == MASK_ROW_CAST_POINT ? mask[MASK_VERB + VERB_CAST_POINT]
                                                     : mask[MASK_VERB + VERB_USE_ITEM_AT];
                if (used && row[rr * CONTRACT_TARGETS + k]) CHECK_EQ(flat[MASK_FLAT_TARGET + k], 1);
            }
    }
}

static void test_masks(void)
{
    MaskStats ms;
    memset(&ms, 0, sizeof ms);
    GotaMatch *scratch = malloc(sizeof *scratch);
    GotaMatch *boosted = malloc(sizeof *boosted);
    static const int64_t seeds[3] = {1, 77, 4242};
    static const int32_t ticks[4] = {60, 500, 1300, 2600};
    for (int si = 0; si < 3; si++) {
        GotaMatch *m = new_match(seeds[si], 1);
        if (!m) continue;
        int32_t at = 0;
        for (int ti = 0; ti < 4; ti++) {
            int32_t ran = 0;
            int32_t want = ticks[ti] + (int32_t)(rnd() % 40) - at;
            if (gota_match_step(m, want, &ran) != GOTA_OK) break;
            at += ran;
            GotaMatchInfo info;
            gota_match_info(m, &info);
            if (info.result != GOTA_RESULT_RUNNING) break;
            uint64_t h0, h1;
            gota_match_hash(m, &h0);
            check_masks_at(m, scratch, &ms);
            gota_match_hash(m, &h1);
            CHECK(h0 == h1);   /* masks and trials never touch the match itself */
            memcpy(boosted, m, sizeof *boosted);
            boost(boosted);
            check_masks_at(boosted, scratch, &ms);
        }
        gota_match_free(m);
    }
    printf("  masks: allowed walk %ld attack %ld castT %ld castP %ld item %ld itemAt %ld; accepted attack %ld "
           "castT %ld castP %ld item %ld itemAt %ld; refusals checked %ld\n",
           ms.allowed[1], ms.allowed[3], ms.allowed[4], ms.allowed[5], ms.allowed[6], ms.allowed[7],
           ms.ok[3], ms.ok[4], ms.ok[5], ms.ok[6], ms.ok[7], ms.refused_disallowed);
    CHECK(ms.ok[VERB_ATTACK_TARGET] > 0);
    CHECK(ms.ok[VERB_CAST_TARGET] > 0);
    CHECK(ms.ok[VERB_CAST_POINT] > 0);
    CHECK(ms.ok[VERB_USE_ITEM] > 0);
    CHECK(ms.ok[VERB_USE_ITEM_AT] > 0);
    free(scratch);
    free(boosted);
}

/* ---- masks against their plain computation ----------------------------------- */
/* contract_mask_slots as first written, every check spelled out per slot and
 * the verbs read back from the rows: the oracle for the one in actions.c,
 * which skips a stunned or channeling hero at once and keeps its verb flags
 * while it fills the rows. */
/* cast_begin's checks (abilities.c), in full */
static int plain_castable(const GotaMatch *m, int seat, const GotaUnit *u, int a)
{
    const HeroState *h = &m->hero[seat];
    const AbilityDef *d = &HERO_CLASS[h->cls].ability[a];
    if (!u->alive || h->channel > 0 || h->stun > 0 || h->silence > 0 || h->rank[a] < 1 ||
        m->spell_n >= SPELL_MAX || h->cooldown[a] > 0 || h->charges[a] <= 0 || h->mana < d->mana)
        return 0;
    if (d->cast == CAST_SELF && (d->effect == EFFECT_RESTORE ? h->mana >= h->max_mana : u->hp >= u->max_hp))
        return 0;
    return 1;
}

/* ability_cast_target's target checks for unit slot t */
static int plain_cast_target_ok(const GotaMatch *m, const GotaUnit *me, const AbilityDef *d, int team, int t)
{
    if (!unit_attackable(m, t)) return 0;
    const GotaUnit *tu = &m->unit[t];
    if (tu->team != team && !m->seen[team][t]) return 0;
    int fits = d->effect == EFFECT_DAMAGE ? tu->team != team : tu->team == team && tu->kind == GOTA_KIND_HERO;
    if (!fits) return 0;
    return fx_dist2(me->x, me->z, tu->x, tu->z) <= (int64_t)d->range * d->range;
}

/* economy_use_item's checks without a point (potions, poison) */
static int plain_item_usable(const GotaMatch *m, int seat, int self, int i)
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

static int plain_portal_usable(const GotaMatch *m, int seat, int self, int i)
{
    const HeroState *h = &m->hero[seat];
    int item = h->item[i];
    if (item < 1 || item >= ITEM_KINDS || h->item_count[i] <= 0 || ITEM[item].use != USE_PORTAL) return 0;
    return m->unit[self].alive && h->stun == 0 && h->channel == 0 && h->portal_cd == 0 && h->root == 0;
}

/* A portal aimed at (x, z) finds a living allied tower whose sight holds it. */
static int plain_portal_covered(const GotaMatch *m, int team, int32_t x, int32_t z)
{
    if (!map_world_inside(x, z)) return 0;
    for (int b = 0; b < m->map->building_n; b++) {
        const MapBuilding *mb = &m->map->building[b];
        if (mb->kind != GOTA_KIND_TOWER || mb->team != team || !m->building_alive[b]) continue;
        int64_t r = (int64_t)mb->sight_tiles * GOTA_TILE;
        if (fx_dist2(x, z, mb->x, mb->z) <= r * r) return 1;
    }
    return 0;
}

static int plain_any(const uint8_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i]) return 1;
    return 0;
}

static void plain_mask(const GotaMatch *m, const ContractSlots *cs, int seat, uint8_t *mask)
{
    memset(mask, 0, MASK_SIZE);
    mask[MASK_VERB + VERB_NOOP] = 1;
    if (cs->self < 0 || m->result != GOTA_RESULT_RUNNING) return;
    const GotaUnit *me = &m->unit[cs->self];
    const HeroState *h = &m->hero[seat];
    if (!me->alive) return;
    int team = cs->team;
    uint8_t *row = mask + MASK_ROWS;
    int ordered = h->channel == 0 && h->stun == 0;   /* commands.c order_blocked, without root */
    /* row 0: attackTarget (cmd_attack) */
    if (ordered)
        for (int k = 1; k < CONTRACT_SLOTS; k++) {
            int t = cs->unit[k];
            if (t >= 0 && m->unit[t].alive && unit_hostile(m, cs->self, t) && m->seen[team][t] && unit_attackable(m, t))
                row[MASK_ROW_ATTACK * CONTRACT_TARGETS + k] = 1;
        }
    /* rows 1..4: castTarget per ability; castPoint abilities */
    int cast_any = 0;
    for (int a = 0; a < CONTRACT_ABILITIES; a++) {
        if (!plain_castable(m, seat, me, a)) continue;
        cast_any = 1;
        mask[MASK_CAST_POINT_ABILITY + a] = 1;
        const AbilityDef *d = &HERO_CLASS[h->cls].ability[a];
        uint8_t *r = row + (MASK_ROW_CAST + a) * CONTRACT_TARGETS;
        if (d->cast == CAST_SELF || d->range == 0) {
            r[CSLOT_SELF] = 1;   /* the target is ignored: self stands for it */
        } else {
            for (int k = 0; k < CONTRACT_SLOTS; k++)
                if (cs->unit[k] >= 0 && plain_cast_target_ok(m, me, d, team, cs->unit[k])) r[k] = 1;
        }
        mask[MASK_CAST_TARGET_ABILITY + a] = (uint8_t)plain_any(r, CONTRACT_TARGETS);
    }
    /* row 5: castPoint anchors: every present object */
    if (cast_any)
        for (int k = 0; k < CONTRACT_SLOTS; k++)
            if (cs->unit[k] >= 0) row[MASK_ROW_CAST_POINT * CONTRACT_TARGETS + k] = 1;
    /* items */
    int portal_any = 0;
    for (int i = 0; i < CONTRACT_ITEMS; i++) {
        mask[MASK_USE_ITEM + i] = (uint8_t)plain_item_usable(m, seat, cs->self, i);
        if (plain_portal_usable(m, seat, cs->self, i)) portal_any = 1;
    }
    /* row 6: useItemAt anchors inside a living allied tower's sight */
    if (portal_any)
        for (int k = 0; k < CONTRACT_SLOTS; k++) {
            int t = cs->unit[k];
            if (t >= 0 && plain_portal_covered(m, team, m->unit[t].x, m->unit[t].z))
                row[MASK_ROW_ITEM_AT * CONTRACT_TARGETS + k] = 1;
        }
    int at_any = plain_any(row + MASK_ROW_ITEM_AT * CONTRACT_TARGETS, CONTRACT_TARGETS);
    for (int i = 0; i < CONTRACT_ITEMS; i++)
        mask[MASK_USE_ITEM_AT + i] = (uint8_t)(at_any && plain_portal_usable(m, seat, cs->self, i));
    mask[MASK_VERB + VERB_WALK] = (uint8_t)ordered;
    mask[MASK_VERB + VERB_ATTACK_MOVE] = (uint8_t)ordered;
    mask[MASK_VERB + VERB_ATTACK_TARGET] = (uint8_t)plain_any(row + MASK_ROW_ATTACK * CONTRACT_TARGETS, CONTRACT_TARGETS);
    mask[MASK_VERB + VERB_CAST_TARGET] = (uint8_t)plain_any(mask + MASK_CAST_TARGET_ABILITY, CONTRACT_ABILITIES);
    mask[MASK_VERB + VERB_CAST_POINT] = (uint8_t)plain_any(mask + MASK_CAST_POINT_ABILITY, CONTRACT_ABILITIES);
    mask[MASK_VERB + VERB_USE_ITEM] = (uint8_t)plain_any(mask + MASK_USE_ITEM, CONTRACT_ITEMS);
    mask[MASK_VERB + VERB_USE_ITEM_AT] = (uint8_t)plain_any(mask + MASK_USE_ITEM_AT, CONTRACT_ITEMS);
}

/* Masks of every seat at bot-played states, as they are and with each hero's
 * controls, channel, cooldowns, mana, hp and items scrambled. */
static void test_mask_plain(void)
{
    GotaMatch *work = malloc(sizeof *work);
    static const int64_t seeds[2] = {5, 606};
    long compared = 0, differ = 0, allowed[CONTRACT_VERBS] = {0}, blocked = 0;
    for (int si = 0; si < 2; si++) {
        GotaMatch *m = new_match(seeds[si], 1);
        if (!m) continue;
        for (int step = 0; step < 8; step++) {
            if (gota_match_step(m, 211, NULL) != GOTA_OK) break;
            for (int variant = 0; variant < 6; variant++) {
                memcpy(work, m, sizeof *work);
                if (variant > 0) boost(work);
                for (int s = 0; variant > 1 && s < SEATS; s++) {
                    HeroState *h = &work->hero[s];
                    GotaUnit *u = &work->unit[work->hero_slot[s]];
                    h->stun = rnd() % 4 == 0 ? 1 + (int32_t)(rnd() % 20) : 0;
                    h->root = rnd() % 4 == 0 ? 1 + (int32_t)(rnd() % 20) : 0;
                    h->silence = rnd() % 4 == 0 ? 1 + (int32_t)(rnd() % 20) : 0;
                    h->channel = rnd() % 5 == 0 ? 1 + (int32_t)(rnd() % 70) : 0;
                    for (int a = 0; a < HERO_ABILITIES; a++)
                        if (rnd() % 3 == 0) h->cooldown[a] = (int32_t)(rnd() % 50);
                    if (rnd() % 3 == 0) h->mana = (int32_t)(rnd() % (uint32_t)(h->max_mana + 1));
                    if (u->alive && rnd() % 3 == 0) u->hp = 1 + (int32_t)(rnd() % (uint32_t)u->max_hp);
                    if (rnd() % 4 == 0) h->hp_item_cd = 30;
                    if (rnd() % 4 == 0) h->mana_item_cd = 30;
                    if (rnd() % 4 == 0) h->portal_cd = 30;
                    for (int i = 0; i < CONTRACT_ITEMS; i++)
                        if (rnd() % 5 == 0) h->item_count[i] = 0;
                }
                for (int s = 0; s < SEATS; s++) {
                    ContractSlots cs;
                    contract_slots(work, s, &cs);
                    uint8_t want[MASK_SIZE], got[MASK_SIZE];
                    plain_mask(work, &cs, s, want);
                    contract_mask_slots(work, &cs, s, got);
                    compared++;
                    differ += memcmp(want, got, MASK_SIZE) != 0;
                    for (int v = 0; v < CONTRACT_VERBS; v++) allowed[v] += want[MASK_VERB + v];
                    blocked += cs.self >= 0 && work->unit[cs.self].alive &&
                               (work->hero[s].stun > 0 || work->hero[s].channel > 0);
                }
            }
        }
        gota_match_free(m);
    }
    printf("  masks vs plain: %ld compared, %ld differ; stunned or channeling %ld; allowed walk %ld attack %ld "
           "castT %ld castP %ld item %ld itemAt %ld\n", compared, differ, blocked, allowed[VERB_WALK],
           allowed[VERB_ATTACK_TARGET], allowed[VERB_CAST_TARGET], allowed[VERB_CAST_POINT], allowed[VERB_USE_ITEM],
           allowed[VERB_USE_ITEM_AT]);
    CHECK_EQ(differ, 0);
    CHECK(blocked > 0);
    for (int v = 1; v < CONTRACT_VERBS; v++) CHECK(allowed[v] > 0);
    free(work);
}

/* ---- determinism ---------------------------------------------------------------- */
static void test_determinism(void)
{
    GotaMatch *a = new_match(31, 1), *b = new_match(31, 1);
    if (!a || !b) return;
    float *oa = malloc(sizeof(float) * OBS_SIZE), *ob = malloc(sizeof(float) * OBS_SIZE);
    uint8_t ma[MASK_SIZE], mb[MASK_SIZE];
    int same = 1;
    for (int step = 0; step < 12; step++) {
        gota_match_step(a, 97, NULL);
        /* b observes and masks every seat every step before stepping: no effect on the state */
        for (int s = 0; s < SEATS; s++) {
            contract_observe(b, s, ob);
            contract_mask(b, s, mb);
        }
        gota_match_step(b, 97, NULL);
        uint64_t ha, hb;
        gota_match_hash(a, &ha);
        gota_match_hash(b, &hb);
        same &= ha == hb;
        for (int s = 0; s < SEATS; s++) {
            contract_observe(a, s, oa);
            contract_observe(b, s, ob);
            same &= memcmp(oa, ob, sizeof(float) * OBS_SIZE) == 0;
            contract_mask(a, s, ma);
            contract_mask(b, s, mb);
            same &= memcmp(ma, mb, MASK_SIZE) == 0;
            for (int i = 0; i < OBS_SIZE; i++) same &= oa[i] == oa[i] && oa[i] > -1e6f && oa[i] < 1e6f;
            /* bounded features */
            for (int k = 0; k < CONTRACT_SLOTS; k++) {
                float dx = objf(oa, k, OO_DX), d = objf(oa, k, OO_DIST);
                CHECK(dx >= -4.0f && dx <= 4.0f && d >= 0.0f && d <= 8.0f);
            }
        }
        /* the same heads decode alike on both */
        int32_t h[5] = {(int32_t)(step % 8), (int32_t)(step * 3 % 25), (int32_t)(step * 5 % 49), step % 4, step % 6};
        GotaCommand ca, cb;
        int ra = contract_decode(a, step % 10, h, &ca), rb = contract_decode(b, step % 10, h, &cb);
        CHECK_EQ(ra, rb);
        CHECK(memcmp(&ca, &cb, sizeof ca) == 0);
    }
    CHECK(same);
    free(oa);
    free(ob);
    gota_match_free(a);
    gota_match_free(b);
}

/* The verb table (gota_contract_verb) says which heads the decoder reads: a
 * head outside a verb's set never changes its decode, one inside it does for
 * some state; the target row is the mask row the decode's target comes from. */
static void test_verb_table(void)
{
    static const char *const names[CONTRACT_VERBS] = {
        "noop", "walk", "attackMove", "attackTarget", "castTarget", "castPoint", "useItem", "useItemAt"};
    static const int32_t rows[CONTRACT_VERBS] = {
        -1, -1, -1, MASK_ROW_ATTACK, MASK_ROW_CAST, MASK_ROW_CAST_POINT, -1, MASK_ROW_ITEM_AT};
    GotaContractVerb v;
    CHECK_EQ(gota_contract_verb(-1, &v), GOTA_ERR_INDEX);
    CHECK_EQ(gota_contract_verb(CONTRACT_VERBS, &v), GOTA_ERR_INDEX);
    CHECK_EQ(gota_contract_verb(0, NULL), GOTA_ERR_NULL);
    for (int k = 0; k < CONTRACT_VERBS; k++) {
        CHECK_EQ(gota_contract_verb(k, &v), GOTA_OK);
        CHECK(strcmp(v.name, names[k]) == 0);
        CHECK_EQ(v.target_row, rows[k]);
        CHECK(v.heads & (1 << HEAD_VERB));
        CHECK_EQ((v.target_row >= 0), ((v.heads >> HEAD_TARGET) & 1));
    }
    GotaMatch *m = new_match(23, 1);
    if (!m) return;
    uint32_t seed = 12345;
    int read[CONTRACT_VERBS] = {0};   /* heads seen changing a decode, per verb */
    for (int step = 0; step < 8; step++) {
        gota_match_step(m, 151, NULL);
        for (int seat = 0; seat < SEATS; seat++)
            for (int n = 0; n < 200; n++) {
                int32_t h[CONTRACT_HEADS] = {(int32_t)(n % CONTRACT_VERBS)};
                static const int32_t size[CONTRACT_HEADS] = {
                    CONTRACT_VERBS, CONTRACT_TARGETS, CONTRACT_POINTS, CONTRACT_ABILITIES, CONTRACT_ITEMS};
                for (int k = 1; k < CONTRACT_HEADS; k++) {
                    seed = seed * 1103515245u + 12345u;
                    h[k] = (int32_t)((seed >> 8) % (uint32_t)size[k]);
                }
                GotaCommand a, b;
                int ra = contract_decode(m, seat, h, &a);
                gota_contract_verb(h[0], &v);
                for (int k = 1; k < CONTRACT_HEADS; k++) {
                    int32_t g[CONTRACT_HEADS];
                    memcpy(g, h, sizeof g);
                    g[k] = (h[k] + 1 + n % (size[k] - 1)) % size[k];
                    int rb = contract_decode(m, seat, g, &b);
                    int same = ra == rb && memcmp(&a, &b, sizeof a) == 0;
                    if (!((v.heads >> k) & 1)) CHECK(same);
                    else if (!same) read[h[0]] |= 1 << k;
                }
            }
    }
    for (int k = 0; k < CONTRACT_VERBS; k++) {
        gota_contract_verb(k, &v);
        CHECK_EQ(read[k] | (1 << HEAD_VERB), v.heads);
    }
    gota_match_free(m);
}

static void test_speed(void)
{
    GotaMatch *m = new_match(8, 1);
    if (!m) return;
    gota_match_step(m, 1500, NULL);
    float *obs = malloc(sizeof(float) * OBS_SIZE);
    uint8_t mask[MASK_SIZE];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const int reps = 200;
    for (int r = 0; r < reps; r++)
        for (int s = 0; s < SEATS; s++) {
            ContractSlots cs;
            contract_slots(m, s, &cs);
            contract_observe_slots(m, &cs, s, obs);
            contract_mask_slots(m, &cs, s, mask);
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) / (reps * SEATS);
    printf("  observe + mask: %.2f us per seat (%d units)\n", us, m->unit_n);
    free(obs);
    gota_match_free(m);
}

int main(void)
{
    test_layout();
    test_directions();
    test_fog();
    test_team_frame();
    test_points();
    test_invalid();
    test_masks();
    test_mask_plain();
    test_determinism();
    test_team_knowledge();
    test_nearest_ties();
    test_verb_table();
    test_speed();
    return check_report("test_contract");
}
