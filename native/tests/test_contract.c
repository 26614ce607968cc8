/*
 * test_contract.c -- the observation and action contract (contract.h,
 * docs/contract.md): layout and hash, the slot table, fog, the team frame,
 * bit-exact point decoding, masks (and the observation's castable feature)
 * against the engine's answers to the commands they stand for (every choice,
 * at random-played, bot-played, boosted, scrambled and finished states),
 * invalid decodes, the public API, determinism.
 *
 * White box: scenes move heroes by hand and read m->seen; matches are driven
 * with gota_match_step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim/world.h"
#include "sim/fixmath.h"
#include "contract/contract.h"
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

/* ---- masks against the commands they stand for ------------------------------- */
/*
 * The property the masks exist for, checked without restating any rule: at
 * many states, for every seat and every choice a mask entry stands for, the
 * entry is 1 exactly when issuing that choice (contract_act on a copy of the
 * match) is accepted with GOTA_ACT_OK, and 0 exactly when it is refused.
 *
 * The point head is not masked, so the exact test issues the choices that
 * take a point at point 0: stop for walk and attack-move, the anchor itself
 * for castPoint and useItemAt. Other points are checked one way: an allowed
 * choice may be refused only for what the point alone decides (ROOTED and
 * BAD_POINT for moves, NOT_VISIBLE for castPoint, BAD_POINT for useItemAt;
 * docs/contract.md), and a disallowed one is never accepted. Two choices are offered in one form only, the other
 * being the same command: self-casts and abilities of cast range 0 ignore
 * their target, so their castTarget row offers slot 0 only and every other
 * present slot must be answered as slot 0 is; items that take no point
 * (potions, poison) ignore it, so they are offered as useItem only and
 * useItemAt must be answered as useItem is at every present anchor. Verb
 * entries must equal "some choice of the verb is allowed". The observation's castable feature of ability a
 * must equal the castPoint entry of a (castable now, whatever the aim).
 *
 * States: matches whose ten seats are external (upkeep on) and stepped with
 * random heads, half of them drawn from the seat's mask, and matches played
 * by the puller bots; each as it is, with every hero boosted (abilities
 * learned, mana, potions, poison, a portal), boosted with the heroes'
 * counters scrambled (stun, root, silence, channel, cooldowns, mana, HP,
 * full HP or mana, item cooldowns, the spell limit), and finished.
 *
 * The trials run on a scratch copy of the state. A refused command records
 * its answer in its hero's counters (last_error, stats) and nothing else, so
 * after a refusal only that HeroState is copied back; every 16th refusal the
 * whole scratch is compared with the state, which checks that claim.
 */
static uint64_t rng_state = 0x1234567ull;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

typedef struct {
    const GotaMatch *base;
    GotaMatch *scratch;
    int clean;            /* scratch equals base */
    long tries, copies, refusals_compared;
    long allowed[CONTRACT_VERBS], accepted[CONTRACT_VERBS];
    long cast_answers[GOTA_ACT_CODES];   /* castPoint at the hero itself, per answer */
    long seats, dead, finished, aimless_slots, pointless_items;
} Trials;

/* Issue heads for seat on the scratch copy; the answer. */
static int trial(Trials *t, const ContractSlots *cs, int seat, int32_t verb, int32_t target, int32_t point,
                 int32_t ability, int32_t item)
{
    if (!t->clean) {
        memcpy(t->scratch, t->base, sizeof *t->scratch);
        t->copies++;
        t->clean = 1;
    }
    const int32_t h[CONTRACT_HEADS] = {verb, target, point, ability, item};
    int r = contract_act_slots(t->scratch, cs, seat, h);
    t->tries++;
    if (r == GOTA_ACT_OK) {
        t->clean = 0;
    } else {
        memcpy(&t->scratch->hero[seat], &t->base->hero[seat], sizeof t->base->hero[seat]);
        if (t->tries % 16 == 0) {
            CHECK(memcmp(t->scratch, t->base, sizeof *t->scratch) == 0);
            t->refusals_compared++;
        }
    }
    return r;
}

static int any(const uint8_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i]) return 1;
    return 0;
}

static void check_masks_exact(Trials *t)
{
    const GotaMatch *m = t->base;
    uint64_t h0, h1;
    gota_match_hash(m, &h0);
    float *obs = malloc(sizeof(float) * OBS_SIZE);
    for (int seat = 0; seat < SEATS; seat++) {
        check_slots(m, seat);
        ContractSlots cs;
        contract_slots(m, seat, &cs);
        uint8_t mask[MASK_SIZE], flat[MASK_FLAT_SIZE];
        contract_mask(m, seat, mask);
        contract_mask_flatten(mask, flat);
        contract_observe(m, seat, obs);
        const uint8_t *verb = mask + MASK_VERB, *row = mask + MASK_ROWS;
        int present[CONTRACT_TARGETS];
        for (int k = 0; k < CONTRACT_TARGETS; k++) present[k] = cs.unit[k] >= 0;
        t->seats++;
        t->dead += cs.self >= 0 && !m->unit[cs.self].alive;
        for (int v = 0; v < CONTRACT_VERBS; v++) t->allowed[v] += verb[v];
        CHECK_EQ(verb[VERB_NOOP], 1);
        /* walk, attack-move: point 0 (stop) exactly, a random point one way */
        for (int v = VERB_WALK; v <= VERB_ATTACK_MOVE; v++) {
            int r = trial(t, &cs, seat, v, 0, 0, 0, 0);
            CHECK_EQ(verb[v], r == GOTA_ACT_OK);
            t->accepted[v] += r == GOTA_ACT_OK;
            r = trial(t, &cs, seat, v, 0, 1 + (int32_t)(rnd() % (CONTRACT_POINTS - 1)), 0, 0);
            if (verb[v]) CHECK(r == GOTA_ACT_OK || r == GOTA_ACT_ROOTED || r == GOTA_ACT_BAD_POINT);
            else CHECK(r != GOTA_ACT_OK);
        }
        /* attackTarget at every slot */
        const uint8_t *attack = row + MASK_ROW_ATTACK * CONTRACT_TARGETS;
        for (int k = 0; k < CONTRACT_TARGETS; k++) {
            int r = trial(t, &cs, seat, VERB_ATTACK_TARGET, k, 0, 0, 0);
            CHECK_EQ(verb[VERB_ATTACK_TARGET] && attack[k], r == GOTA_ACT_OK);
            t->accepted[VERB_ATTACK_TARGET] += r == GOTA_ACT_OK;
        }
        CHECK_EQ(verb[VERB_ATTACK_TARGET], any(attack, CONTRACT_TARGETS));
        /* castTarget: every ability at every slot */
        const HeroState *h = &m->hero[seat];
        for (int a = 0; a < CONTRACT_ABILITIES; a++) {
            const uint8_t *cast = row + (MASK_ROW_CAST + a) * CONTRACT_TARGETS;
            const AbilityDef *d = &HERO_CLASS[h->cls < 0 ? 0 : h->cls].ability[a];
            int aimless = cs.self >= 0 && (d->cast == CAST_SELF || d->range == 0);
            int at_self = -1;
            for (int k = 0; k < CONTRACT_TARGETS; k++) {
                int r = trial(t, &cs, seat, VERB_CAST_TARGET, k, 0, a, 0);
                if (k == 0) at_self = r;
                if (aimless && k > 0) {   /* the target is ignored: answered as slot 0 */
                    CHECK_EQ(cast[k], 0);
                    CHECK_EQ(r == GOTA_ACT_OK, present[k] && at_self == GOTA_ACT_OK);
                    t->aimless_slots += present[k];
                } else {
                    CHECK_EQ(verb[VERB_CAST_TARGET] && mask[MASK_CAST_TARGET_ABILITY + a] && cast[k], r == GOTA_ACT_OK);
                }
                t->accepted[VERB_CAST_TARGET] += r == GOTA_ACT_OK;
            }
            CHECK_EQ(mask[MASK_CAST_TARGET_ABILITY + a], any(cast, CONTRACT_TARGETS));
        }
        CHECK_EQ(verb[VERB_CAST_TARGET], any(mask + MASK_CAST_TARGET_ABILITY, CONTRACT_ABILITIES));
        /* castPoint: every ability at the hero itself exactly (and the
         * observation's castable with it); anchors and points one way */
        const uint8_t *anchor = row + MASK_ROW_CAST_POINT * CONTRACT_TARGETS;
        for (int a = 0; a < CONTRACT_ABILITIES; a++) {
            int allowed = verb[VERB_CAST_POINT] && mask[MASK_CAST_POINT_ABILITY + a];
            int r = trial(t, &cs, seat, VERB_CAST_POINT, CSLOT_SELF, 0, a, 0);
            CHECK_EQ(allowed, r == GOTA_ACT_OK);
            t->cast_answers[r]++;
            t->accepted[VERB_CAST_POINT] += r == GOTA_ACT_OK;
            float castable = obs[OBS_ABILITY + a * OBS_ABILITY_WIDTH + OA_CASTABLE];
            CHECK(castable == (allowed ? 1.0f : 0.0f));
            for (int n = 0; n < 3; n++) {
                int k = (int)(rnd() % CONTRACT_TARGETS);
                r = trial(t, &cs, seat, VERB_CAST_POINT, k, (int32_t)(rnd() % CONTRACT_POINTS), a, 0);
                if (allowed && anchor[k]) CHECK(r == GOTA_ACT_OK || r == GOTA_ACT_NOT_VISIBLE);
                else CHECK(r != GOTA_ACT_OK);
            }
        }
        CHECK_EQ(verb[VERB_CAST_POINT], any(mask + MASK_CAST_POINT_ABILITY, CONTRACT_ABILITIES));
        /* castPoint anchors: present slots while some ability is castable */
        for (int k = 0; k < CONTRACT_TARGETS; k++) CHECK_EQ(anchor[k], verb[VERB_CAST_POINT] && present[k]);
        /* useItem: every item */
        int use_answer[CONTRACT_ITEMS];
        for (int i = 0; i < CONTRACT_ITEMS; i++) {
            int r = use_answer[i] = trial(t, &cs, seat, VERB_USE_ITEM, 0, 0, 0, i);
            CHECK_EQ(verb[VERB_USE_ITEM] && mask[MASK_USE_ITEM + i], r == GOTA_ACT_OK);
            t->accepted[VERB_USE_ITEM] += r == GOTA_ACT_OK;
        }
        CHECK_EQ(verb[VERB_USE_ITEM], any(mask + MASK_USE_ITEM, CONTRACT_ITEMS));
        /* useItemAt: every item at every anchor itself exactly, a random
         * point one way. Items that take no point (potions, poison) ignore
         * it: the mask offers them as useItem only, and useItemAt must be
         * answered as useItem is at every present anchor. */
        const uint8_t *at = row + MASK_ROW_ITEM_AT * CONTRACT_TARGETS;
        for (int i = 0; i < CONTRACT_ITEMS; i++) {
            int item_ok = verb[VERB_USE_ITEM_AT] && mask[MASK_USE_ITEM_AT + i];
            int item = h->item[i];
            int pointless = h->item_count[i] > 0 && item >= 1 && item < ITEM_KINDS && ITEM[item].use != USE_PORTAL;
            for (int k = 0; k < CONTRACT_TARGETS; k++) {
                int r = trial(t, &cs, seat, VERB_USE_ITEM_AT, k, 0, 0, i);
                if (pointless) {
                    CHECK_EQ(item_ok, 0);
                    CHECK_EQ(r == GOTA_ACT_OK, present[k] && use_answer[i] == GOTA_ACT_OK);
                    t->pointless_items += present[k] && r == GOTA_ACT_OK;
                } else {
                    CHECK_EQ(item_ok && at[k], r == GOTA_ACT_OK);
                    t->accepted[VERB_USE_ITEM_AT] += r == GOTA_ACT_OK;
                }
            }
            int k = (int)(rnd() % CONTRACT_TARGETS);
            int r = trial(t, &cs, seat, VERB_USE_ITEM_AT, k, 1 + (int32_t)(rnd() % (CONTRACT_POINTS - 1)), 0, i);
            if (item_ok && at[k]) CHECK(r == GOTA_ACT_OK || r == GOTA_ACT_BAD_POINT);
            else if (pointless) CHECK_EQ(r == GOTA_ACT_OK, present[k] && use_answer[i] == GOTA_ACT_OK);
            else CHECK(r != GOTA_ACT_OK);
        }
        CHECK_EQ(verb[VERB_USE_ITEM_AT], any(mask + MASK_USE_ITEM_AT, CONTRACT_ITEMS));
        /* the flat form holds every conditional choice */
        for (int k = 0; k < CONTRACT_TARGETS; k++)
            for (int rr = 0; rr < MASK_ROW_COUNT; rr++) {
                int used = rr == MASK_ROW_ATTACK ? verb[VERB_ATTACK_TARGET]
                         : rr < MASK_ROW_CAST_POINT ? mask[MASK_CAST_TARGET_ABILITY + rr - MASK_ROW_CAST]
                         : rr == MASK_ROW_CAST_POINT ? verb[VERB_CAST_POINT]
                                                     : verb[VERB_USE_ITEM_AT];
                if (used && row[rr * CONTRACT_TARGETS + k]) CHECK_EQ(flat[MASK_FLAT_TARGET + k], 1);
            }
    }
    if (t->clean) CHECK(memcmp(t->scratch, t->base, sizeof *t->scratch) == 0);
    gota_match_hash(m, &h1);
    CHECK(h0 == h1);   /* masks, observations and trials never touch the state itself */
    free(obs);
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

/* Scramble the heroes' counters (after boost): controls, channel,
 * cooldowns, charges, mana and HP (at random, or full), item cooldowns and
 * counts; now and then the spell limit. */
static void scramble(GotaMatch *m)
{
    for (int s = 0; s < SEATS; s++) {
        HeroState *h = &m->hero[s];
        GotaUnit *u = &m->unit[m->hero_slot[s]];
        h->stun = rnd() % 4 == 0 ? 1 + (int32_t)(rnd() % 20) : 0;
        h->root = rnd() % 4 == 0 ? 1 + (int32_t)(rnd() % 20) : 0;
        h->silence = rnd() % 4 == 0 ? 1 + (int32_t)(rnd() % 20) : 0;
        h->channel = rnd() % 5 == 0 ? 1 + (int32_t)(rnd() % 70) : 0;
        for (int a = 0; a < HERO_ABILITIES; a++) {
            if (rnd() % 3 == 0) h->cooldown[a] = (int32_t)(rnd() % 50);
            if (rnd() % 6 == 0) h->charges[a] = 0;
        }
        switch (rnd() % 4) {
        case 0: h->mana = (int32_t)(rnd() % (uint32_t)(h->max_mana + 1)); break;
        case 1: h->mana = h->max_mana; break;
        default: break;
        }
        if (u->alive) switch (rnd() % 4) {
            case 0: u->hp = 1 + (int32_t)(rnd() % (uint32_t)u->max_hp); break;
            case 1: u->hp = u->max_hp; break;
            default: break;
            }
        if (rnd() % 4 == 0) h->hp_item_cd = 30;
        if (rnd() % 4 == 0) h->mana_item_cd = 30;
        if (rnd() % 4 == 0) h->portal_cd = 30;
        for (int i = 0; i < CONTRACT_ITEMS; i++)
            if (rnd() % 5 == 0) h->item_count[i] = 0;
    }
    if (rnd() % 6 == 0) m->spell_n = SPELL_MAX;
}

/* A random index i with v[i] set; 0 when none. */
static int32_t pick(const uint8_t *v, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) count += v[i] != 0;
    if (count == 0) return 0;
    int j = (int)(rnd() % (uint32_t)count);
    for (int i = 0; i < n; i++)
        if (v[i] && j-- == 0) return i;
    return 0;
}

/* Random heads for a seat: half of the time drawn from its mask, else any. */
static void random_heads(const GotaMatch *m, int seat, int32_t h[CONTRACT_HEADS])
{
    h[HEAD_VERB] = (int32_t)(rnd() % CONTRACT_VERBS);
    h[HEAD_TARGET] = (int32_t)(rnd() % CONTRACT_TARGETS);
    h[HEAD_POINT] = (int32_t)(rnd() % CONTRACT_POINTS);
    h[HEAD_ABILITY] = (int32_t)(rnd() % CONTRACT_ABILITIES);
    h[HEAD_ITEM] = (int32_t)(rnd() % CONTRACT_ITEMS);
    if (rnd() % 2) return;
    uint8_t mask[MASK_SIZE];
    contract_mask(m, seat, mask);
    const uint8_t *row = mask + MASK_ROWS;
    h[HEAD_VERB] = pick(mask + MASK_VERB, CONTRACT_VERBS);
    switch (h[HEAD_VERB]) {
    case VERB_ATTACK_TARGET: h[HEAD_TARGET] = pick(row + MASK_ROW_ATTACK * CONTRACT_TARGETS, CONTRACT_TARGETS); break;
    case VERB_CAST_TARGET:
        h[HEAD_ABILITY] = pick(mask + MASK_CAST_TARGET_ABILITY, CONTRACT_ABILITIES);
        h[HEAD_TARGET] = pick(row + (MASK_ROW_CAST + h[HEAD_ABILITY]) * CONTRACT_TARGETS, CONTRACT_TARGETS);
        break;
    case VERB_CAST_POINT:
        h[HEAD_ABILITY] = pick(mask + MASK_CAST_POINT_ABILITY, CONTRACT_ABILITIES);
        h[HEAD_TARGET] = pick(row + MASK_ROW_CAST_POINT * CONTRACT_TARGETS, CONTRACT_TARGETS);
        break;
    case VERB_USE_ITEM: h[HEAD_ITEM] = pick(mask + MASK_USE_ITEM, CONTRACT_ITEMS); break;
    case VERB_USE_ITEM_AT:
        h[HEAD_ITEM] = pick(mask + MASK_USE_ITEM_AT, CONTRACT_ITEMS);
        h[HEAD_TARGET] = pick(row + MASK_ROW_ITEM_AT * CONTRACT_TARGETS, CONTRACT_TARGETS);
        break;
    default: break;
    }
}

/* The state as it is, boosted, boosted and scrambled (twice), and (first
 * states only) finished. */
static void check_variants(Trials *t, const GotaMatch *m, GotaMatch *work, int finish)
{
    t->base = work;
    for (int variant = 0; variant < 5; variant++) {
        if (variant == 4 && !finish) break;
        memcpy(work, m, sizeof *work);
        if (variant > 0) boost(work);
        if (variant == 2 || variant == 3) scramble(work);
        if (variant == 4) {
            work->result = GOTA_RESULT_WIN;
            work->winner = GOTA_TEAM_RED;
            t->finished++;
        }
        t->clean = 0;
        check_masks_exact(t);
    }
}

static void test_masks(void)
{
    Trials t;
    memset(&t, 0, sizeof t);
    t.scratch = malloc(sizeof *t.scratch);
    GotaMatch *work = malloc(sizeof *work);
    long states = 0;
    /* external seats, upkeep on, stepped 48 ticks at a time with random heads */
    static const int64_t random_seeds[2] = {3, 4};
    for (int si = 0; si < 2; si++) {
        GotaConfig cfg;
        gota_config_default(&cfg);
        cfg.seed = random_seeds[si];
        cfg.upkeep = 1;
        int err = -99;
        GotaMatch *m = gota_match_new(&cfg, &err);
        CHECK_EQ(err, GOTA_OK);
        if (!m) continue;
        for (int step = 1; step <= 60 && m->result == GOTA_RESULT_RUNNING; step++) {
            for (int seat = 0; seat < SEATS; seat++) {
                int32_t h[CONTRACT_HEADS];
                random_heads(m, seat, h);
                contract_act(m, seat, h);
            }
            CHECK_EQ(gota_match_step(m, 48, NULL), GOTA_OK);
            if (step % 12 == 0) {
                check_variants(&t, m, work, step == 12);
                states++;
            }
        }
        gota_match_free(m);
    }
    /* matches the puller bots play */
    static const int64_t bot_seeds[2] = {1, 77};
    static const int32_t ticks[3] = {500, 1300, 2600};
    for (int si = 0; si < 2; si++) {
        GotaMatch *m = new_match(bot_seeds[si], 1);
        if (!m) continue;
        int32_t at = 0;
        for (int ti = 0; ti < 3 && m->result == GOTA_RESULT_RUNNING; ti++) {
            int32_t ran = 0;
            if (gota_match_step(m, ticks[ti] + (int32_t)(rnd() % 40) - at, &ran) != GOTA_OK) break;
            at += ran;
            check_variants(&t, m, work, ti == 0);
            states++;
        }
        /* on until some hero is dead (for the dead hero's masks) */
        for (int n = 0; n < 400 && m->result == GOTA_RESULT_RUNNING; n++) {
            int dead = 0;
            for (int s = 0; s < SEATS; s++) dead |= !m->unit[m->hero_slot[s]].alive;
            if (dead) {
                check_variants(&t, m, work, 0);
                states++;
                break;
            }
            if (gota_match_step(m, 24, NULL) != GOTA_OK) break;
        }
        gota_match_free(m);
    }
    printf("  masks vs commands: %ld states, %ld seat masks (%ld dead, %ld finished), %ld trials, %ld copies, "
           "%ld refusals compared whole\n", states, t.seats, t.dead, t.finished * SEATS, t.tries, t.copies,
           t.refusals_compared);
    printf("    allowed/accepted: walk %ld/%ld attack %ld/%ld castT %ld/%ld castP %ld/%ld item %ld/%ld itemAt %ld/%ld; "
           "aimless casts at other slots %ld, pointless items at a point %ld\n",
           t.allowed[VERB_WALK], t.accepted[VERB_WALK], t.allowed[VERB_ATTACK_TARGET], t.accepted[VERB_ATTACK_TARGET],
           t.allowed[VERB_CAST_TARGET], t.accepted[VERB_CAST_TARGET], t.allowed[VERB_CAST_POINT],
           t.accepted[VERB_CAST_POINT], t.allowed[VERB_USE_ITEM], t.accepted[VERB_USE_ITEM],
           t.allowed[VERB_USE_ITEM_AT], t.accepted[VERB_USE_ITEM_AT], t.aimless_slots, t.pointless_items);
    printf("    castPoint at the hero itself, answers:");
    for (int c = 0; c < GOTA_ACT_CODES; c++)
        if (t.cast_answers[c]) printf(" %d:%ld", c, t.cast_answers[c]);
    printf("\n");
    /* every verb accepted somewhere, every refusal of a cast seen (a dead
     * hero's heads decode to nothing: INVALID_DECODE, never DEAD) */
    for (int v = VERB_WALK; v < CONTRACT_VERBS; v++) CHECK(t.accepted[v] > 0);
    static const int cast_refusals[] = {GOTA_ACT_INVALID_DECODE, GOTA_ACT_CHANNELING, GOTA_ACT_STUNNED, GOTA_ACT_SILENCED,
                                        GOTA_ACT_NOT_LEARNED, GOTA_ACT_TOO_MANY_SPELLS, GOTA_ACT_COOLDOWN,
                                        GOTA_ACT_NO_CHARGES, GOTA_ACT_NO_MANA, GOTA_ACT_FULL, GOTA_ACT_MATCH_OVER};
    for (size_t i = 0; i < sizeof cast_refusals / sizeof cast_refusals[0]; i++)
        CHECK(t.cast_answers[cast_refusals[i]] > 0);
    CHECK(t.dead > 0 && t.aimless_slots > 0 && t.pointless_items > 0);
    free(t.scratch);
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
    test_determinism();
    test_team_knowledge();
    test_nearest_ties();
    test_verb_table();
    test_speed();
    return check_report("test_contract");
}
