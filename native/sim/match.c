/*
 * match.c -- one match: configuration, lifecycle, the tick, and the public
 * inspection API of gota.h.
 *
 * The tick is a fixed list of named phases (docs/rules.md section 7):
 *   sync buildings -> creep wave timer -> tick + 1 -> vision -> snapshot ->
 *   creeps, towers (all against the same snapshot) -> combat resolution
 *   (hits, then deaths) -> corpse cleanup -> collision -> god check
 *   (the cleanup and the gathering of collision bodies share one pass).
 * A match ends when a god falls (the other team wins; both on one tick: a
 * draw) or at battle tick max_ticks (timeout).
 *
 * Parameters (GotaConfig): seed (int32, default 2026), max_ticks (1..28,800,
 * default 28,800), wave_interval (24..28,800, default 480 = Competition).
 */
#include <stdlib.h>
#include <string.h>
#include "world.h"
#include "rng.h"

/* ---- configuration ------------------------------------------------------ */
typedef struct {
    const char *key;
    size_t offset;
    int64_t lo, hi, fallback;
} ConfigKey;

#define CLASS_KEY(i) {"class_" #i, offsetof(GotaConfig, hero_class) + (i) * sizeof(int64_t), -1, HERO_CLASSES - 1, -1}
#define BOT_KEY(i) {"bot_" #i, offsetof(GotaConfig, bot) + (i) * sizeof(int64_t), 0, GOTA_BOT_SCRIPT, GOTA_BOT_EXTERNAL}
static const ConfigKey config_keys[] = {
    {"seed", offsetof(GotaConfig, seed), INT32_MIN, INT32_MAX, 2026},
    {"max_ticks", offsetof(GotaConfig, max_ticks), 1, GOTA_MAX_BATTLE_TICKS, GOTA_MAX_BATTLE_TICKS},
    {"wave_interval", offsetof(GotaConfig, wave_interval), 24, GOTA_MAX_BATTLE_TICKS, 480},
    {"heroes", offsetof(GotaConfig, heroes), 0, 1, 1},
    {"upkeep", offsetof(GotaConfig, upkeep), 0, 1, 0},
    CLASS_KEY(0), CLASS_KEY(1), CLASS_KEY(2), CLASS_KEY(3), CLASS_KEY(4),
    CLASS_KEY(5), CLASS_KEY(6), CLASS_KEY(7), CLASS_KEY(8), CLASS_KEY(9),
    BOT_KEY(0), BOT_KEY(1), BOT_KEY(2), BOT_KEY(3), BOT_KEY(4),
    BOT_KEY(5), BOT_KEY(6), BOT_KEY(7), BOT_KEY(8), BOT_KEY(9),
};
#define CONFIG_KEY_N ((int)(sizeof config_keys / sizeof config_keys[0]))
/* the collision order is drawn for every COLLIDE_ORDER_TICKS ticks, by rng_mix
 * with this key (hits mix unit ids, never 0, as the last key) */
#define COLLIDE_ORDER_TICKS 24
#define COLLIDE_ORDER_KEY 0xC0111DEull

static const ConfigKey *config_find(const char *key)
{
    if (!key) return NULL;
    for (int i = 0; i < CONFIG_KEY_N; i++)
        if (strcmp(config_keys[i].key, key) == 0) return &config_keys[i];
    return NULL;
}

int gota_config_default(GotaConfig *cfg)
{
    if (!cfg) return GOTA_ERR_NULL;
    for (int i = 0; i < CONFIG_KEY_N; i++)
        *(int64_t *)((char *)cfg + config_keys[i].offset) = config_keys[i].fallback;
    return GOTA_OK;
}

int gota_config_set(GotaConfig *cfg, const char *key, int64_t value)
{
    if (!cfg || !key) return GOTA_ERR_NULL;
    const ConfigKey *k = config_find(key);
    if (!k) return GOTA_ERR_UNKNOWN_KEY;
    if (value < k->lo || value > k->hi) return GOTA_ERR_RANGE;
    *(int64_t *)((char *)cfg + k->offset) = value;
    return GOTA_OK;
}

int gota_config_get(const GotaConfig *cfg, const char *key, int64_t *value)
{
    if (!cfg || !key || !value) return GOTA_ERR_NULL;
    const ConfigKey *k = config_find(key);
    if (!k) return GOTA_ERR_UNKNOWN_KEY;
    *value = *(const int64_t *)((const char *)cfg + k->offset);
    return GOTA_OK;
}

const char *gota_config_keys(void)
{
    return "seed max_ticks wave_interval heroes upkeep class_0 class_1 class_2 class_3 class_4 "
           "class_5 class_6 class_7 class_8 class_9 "
           "bot_0 bot_1 bot_2 bot_3 bot_4 bot_5 bot_6 bot_7 bot_8 bot_9";
}

int gota_config_range(const char *key, int64_t *lo, int64_t *hi)
{
    if (!key || !lo || !hi) return GOTA_ERR_NULL;
    const ConfigKey *k = config_find(key);
    if (!k) return GOTA_ERR_UNKNOWN_KEY;
    *lo = k->lo;
    *hi = k->hi;
    return GOTA_OK;
}

/* Every value in range, and no class chosen for two seats. */
static int config_check(const GotaConfig *cfg)
{
    for (int i = 0; i < CONFIG_KEY_N; i++) {
        int64_t v = *(const int64_t *)((const char *)cfg + config_keys[i].offset);
        if (v < config_keys[i].lo || v > config_keys[i].hi) return GOTA_ERR_RANGE;
    }
    for (int a = 0; a < GOTA_SEATS; a++)
        for (int b = a + 1; b < GOTA_SEATS; b++)
            if (cfg->hero_class[a] >= 0 && cfg->hero_class[a] == cfg->hero_class[b]) return GOTA_ERR_CONFLICT;
    return GOTA_OK;
}

const char *gota_error_text(int code)
{
    switch (code) {
    case GOTA_OK: return "ok";
    case GOTA_ERR_NULL: return "a required pointer is NULL (closed or missing handle or buffer)";
    case GOTA_ERR_UNKNOWN_KEY: return "unknown config key";
    case GOTA_ERR_RANGE: return "value out of range";
    case GOTA_ERR_BUFFER: return "buffer too small";
    case GOTA_ERR_OVER: return "the match is over; reset it before stepping";
    case GOTA_ERR_NOMEM: return "out of memory";
    case GOTA_ERR_INTERNAL: return "internal error; reset the match";
    case GOTA_ERR_INDEX: return "index out of range";
    case GOTA_ERR_CONFLICT: return "two seats were given the same hero class";
    default: return "unknown error code";
    }
}

/* ---- lifecycle ---------------------------------------------------------- */
static void match_clear(GotaMatch *m, int64_t seed)
{
    const MapData *map = m->map;
    const VisionTables *tables = m->vision.tables;
    GotaConfig cfg = m->cfg;
    NavSearch *own_search = m->nav.own_search, *search = m->nav.search;   /* scratch survives a reset */
    BasicVM *script[SEATS];
    memcpy(script, m->script, sizeof script);
    struct ScriptView *view = m->script_view;
    memset(m, 0, sizeof *m);
    m->cfg = cfg;
    memcpy(m->script, script, sizeof script);
    m->script_view = view;
    m->cfg.seed = seed;
    m->map = map;
    m->result = GOTA_RESULT_RUNNING;
    m->winner = -1;
    m->next_id = 1;
    rng_seed(&m->rng, seed);
    nav_init(&m->nav);
    m->nav.own_search = own_search;
    m->nav.search = search;
    vision_init(&m->vision, tables);
    for (int i = 0; i < GOTA_MAX_UNITS; i++) m->killer[i] = -1;
    for (int s = 0; s < SEATS; s++) m->hero_slot[s] = -1;
}

int gota_match_reset(GotaMatch *m, int64_t seed)
{
    if (!m) return GOTA_ERR_NULL;
    if (seed < INT32_MIN || seed > INT32_MAX) return GOTA_ERR_RANGE;
    match_clear(m, seed);
    structures_spawn(m);
    structures_sync(m);
    scripts_reset(m);   /* before the draft, where scripts pick */
    if (m->cfg.heroes) {
        int err = heroes_spawn(m);
        if (err != GOTA_OK) return err;
        scripts_after_draft(m);
    }
    bots_reset(m);
    m->next_id = 1000;   /* heroes own ids 100..109 (docs/rules.md section 3); spawned units start here */
    return GOTA_OK;
}

GotaMatch *gota_match_new(const GotaConfig *cfg, int *err)
{
    int code = GOTA_OK;
    GotaMatch *m = NULL;
    if (!cfg) code = GOTA_ERR_NULL;
    else if ((code = config_check(cfg)) == GOTA_OK) {
        m = calloc(1, sizeof *m);
        if (!m) code = GOTA_ERR_NOMEM;
    }
    if (m) {
        m->cfg = *cfg;
        m->map = map_get();
        m->vision.tables = vision_tables_get();
        if (!m->map || !m->vision.tables) {
            code = GOTA_ERR_NOMEM;
            free(m);
            m = NULL;
        } else if ((code = gota_match_reset(m, cfg->seed)) != GOTA_OK) {
            free(m);
            m = NULL;
        }
    }
    if (err) *err = code;
    return m;
}

int match_renew(GotaMatch *m, const GotaConfig *cfg)
{
    int code = config_check(cfg);
    if (code != GOTA_OK) return code;
    scripts_free(m);    /* a script seat gets its VM after the renewal */
    m->cfg = *cfg;
    return gota_match_reset(m, cfg->seed);
}

void gota_match_free(GotaMatch *m)
{
    if (!m) return;
    nav_release(&m->nav);
    scripts_free(m);
    free(m);
}

/* ---- the tick ----------------------------------------------------------- */
/* Both teams' vision sources (vision_key) from one pass over the units:
 * every hero, then one creep per tile (creeps on one tile see the same; a
 * hero's sight covers a creep's on its tile), each in slot order; a unit
 * off the map gives none. */
static void vision_sources(GotaMatch *m, uint16_t (*key)[GOTA_MAX_UNITS], int *n)
{
    int16_t creep[2][GOTA_MAX_UNITS];   /* creep tiles per team, slot order */
    int cn[2] = {0, 0};
    n[0] = n[1] = 0;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (!u->alive || (u->team != GOTA_TEAM_RED && u->team != GOTA_TEAM_BLUE)) continue;
        if (u->kind == GOTA_KIND_HERO) {
            int t = map_index_of(u->x, u->z);
            if ((unsigned)t < MAP_TILES) key[u->team][n[u->team]++] = vision_key(t, VISION_HERO);
        } else if (u->kind == GOTA_KIND_CREEP) {
            int t = map_index_of(u->x, u->z);
            if ((unsigned)t < MAP_TILES) creep[u->team][cn[u->team]++] = (int16_t)t;
        }
    }
    for (int team = 0; team < 2; team++) {
        uint32_t stamp = ++m->source_stamp;
        for (int k = 0; k < n[team]; k++) m->source_tile[key[team][k] / VISION_KINDS] = stamp;
        for (int k = 0; k < cn[team]; k++) {
            int t = creep[team][k];
            if (m->source_tile[t] == stamp) continue;
            m->source_tile[t] = stamp;
            key[team][n[team]++] = vision_key(t, VISION_CREEP);
        }
    }
}

/* The seen flags of every unit: own units always; a unit when its tile is
 * visible; a tower or barracks when any tile of its footprint is (its own
 * footprint blocks the rays to its centre). Buildings never move
 * (structures.c), so theirs come from the tables' row masks. */
void match_update_seen(GotaMatch *m)
{
    int n = m->unit_n;
    /* free slots stay unseen: both rows cleared at once, then only units visited */
    memset(m->seen[0], 0, (size_t)n);
    memset(m->seen[1], 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->kind == GOTA_KIND_NONE) continue;
        int b = m->st[i].building;
        unsigned own = u->team == GOTA_TEAM_RED || u->team == GOTA_TEAM_BLUE ? 1u << u->team : 0, seen;
        if (b < 0)
            seen = vision_point_teams(&m->vision, u->x, u->z);
        else
            seen = (own != 1u && vision_sees_building(&m->vision, 0, b)) |
                   (unsigned)(own != 2u && vision_sees_building(&m->vision, 1, b)) << 1;
        seen |= own;
        m->seen[0][i] = (uint8_t)(seen & 1u);
        m->seen[1][i] = (uint8_t)(seen >> 1);
    }
}

static void phase_vision(GotaMatch *m)
{
    uint16_t key[2][GOTA_MAX_UNITS];
    int n[2];
    vision_sources(m, key, n);
    for (int team = 0; team < 2; team++)
        vision_update_keys(&m->vision, team, key[team], n[team], m->building_alive);
    match_update_seen(m);
    /* a team remembers an enemy building's destruction once it sees the spot */
    for (int i = 0; i < m->map->building_n; i++) {
        if (m->building_alive[i]) continue;
        const MapBuilding *b = &m->map->building[i];
        int enemy = 1 - b->team;
        if (!m->seen_destroyed[enemy][i] && vision_sees_point(&m->vision, enemy, b->x, b->z))
            m->seen_destroyed[enemy][i] = 1;
    }
}

static void phase_snapshot(GotaMatch *m)
{
    scripts_snapshot(m);   /* velocities for the scripts (only when a script plays) */
    match_snapshot(m);
}

/* Corpse cleanup, then collision: one pass over the slots does both, since
 * a removed corpse is dead (no body) and a body reads only its own slot. */
static void phase_corpses_collision(GotaMatch *m)
{
    _Static_assert(GOTA_TILE % 100 == 0, "radius_q * GOTA_TILE / 100 is radius_q * (GOTA_TILE / 100)");
    NavBody body[GOTA_MAX_UNITS];
    int slot[GOTA_MAX_UNITS], n = 0, unit_n = m->unit_n;
    for (int i = 0; i < unit_n; i++) {
        GotaUnit *u = &m->unit[i];
        m->killer[i] = -1;
        if (!u->alive) {
            if ((u->kind == GOTA_KIND_CREEP || u->kind == GOTA_KIND_NEUTRAL) &&
                m->tick - m->st[i].died_tick >= CREEP_CORPSE_TICKS) {
                memset(u, 0, sizeof *u);
                memset(&m->st[i], 0, sizeof m->st[i]);
            }
            continue;
        }
        if (u->radius_q == 0) continue;
        int seat = u->kind == GOTA_KIND_HERO ? hero_seat_of_slot(m, i) : -1;   /* -1 for others anyway */
        const HeroState *h = seat >= 0 ? &m->hero[seat] : NULL;
        int pinned = h ? (h->stun > 0 || h->root > 0 || h->channel > 0) : (m->st[i].stun > 0 || m->st[i].root > 0);
        body[n] = (NavBody){u->x, u->z, u->radius_q * (GOTA_TILE / 100), 1, (uint8_t)pinned};
        slot[n++] = i;
    }
    while (m->unit_n > 0 && m->unit[m->unit_n - 1].kind == GOTA_KIND_NONE) m->unit_n--;
    /* the pass order, slot order or its reverse, by a seeded coin for each
     * second (COLLIDE_ORDER_TICKS): a pass settles the contacts of its first
     * bodies first, and neither team should always be first (red's heroes have
     * the lower slots). Per second, not per tick: each order keeps its pair
     * list (collide.h) while it lasts. */
    if (rng_mix((uint64_t)m->cfg.seed, (uint64_t)(m->tick / COLLIDE_ORDER_TICKS), COLLIDE_ORDER_KEY, 0) & 1u)
        nav_collide_reversed(&m->nav, m->map, body, n);
    else
        nav_collide(&m->nav, m->map, body, n);
    for (int k = 0; k < n; k++) {
        m->unit[slot[k]].x = body[k].x;
        m->unit[slot[k]].z = body[k].z;
    }
}

static void phase_god_check(GotaMatch *m)
{
    int red_down = !m->unit[m->god_slot[GOTA_TEAM_RED]].alive;
    int blue_down = !m->unit[m->god_slot[GOTA_TEAM_BLUE]].alive;
    if (red_down && blue_down) {
        m->result = GOTA_RESULT_DRAW;
    } else if (red_down || blue_down) {
        m->result = GOTA_RESULT_WIN;
        m->winner = red_down ? GOTA_TEAM_BLUE : GOTA_TEAM_RED;
    } else if (m->tick >= m->cfg.max_ticks) {
        m->result = GOTA_RESULT_TIMEOUT;
    }
    /* the god's XP: every hero of the winning team; both teams on a draw */
    for (int team = 0; team < 2; team++)
        if ((m->result == GOTA_RESULT_WIN && m->winner == team) || m->result == GOTA_RESULT_DRAW)
            economy_god_destroyed(m, team);
    if (m->result != GOTA_RESULT_RUNNING) match_event(m, GOTA_EVENT_GAME_OVER, -1, -1, m->winner);
}

static void match_tick(GotaMatch *m)
{
    structures_sync(m);
    if (m->tick % m->cfg.wave_interval == 0) creeps_spawn_wave(m);
    m->tick++;
    heroes_timers(m);
    phase_vision(m);
    phase_snapshot(m);
    bots_run(m);
    camps_update(m);
    creeps_update(m);
    towers_update(m);
    heroes_update(m);
    camps_units(m);
    spells_update(m);
    combat_resolve(m);
    camps_after_combat(m);
    phase_corpses_collision(m);
    phase_god_check(m);
}

/* GotaUnit.facing is read from outside between steps: write back every
 * facing nav_steer kept lazily */
void match_settle_facings(GotaMatch *m)
{
    for (int i = 0; i < m->unit_n; i++) nav_facing_settle(&m->unit[i].facing, &m->st[i].face);
}

int match_step_lazy(GotaMatch *m, int32_t ticks, int32_t *ran)
{
    if (ran) *ran = 0;
    if (!m) return GOTA_ERR_NULL;
    if (ticks < 1) return GOTA_ERR_RANGE;
    if (m->result != GOTA_RESULT_RUNNING) return GOTA_ERR_OVER;
    int32_t done = 0;
    while (done < ticks && m->result == GOTA_RESULT_RUNNING) {
        match_tick(m);
        done++;
    }
    if (ran) *ran = done;
    return GOTA_OK;
}

int gota_match_step(GotaMatch *m, int32_t ticks, int32_t *ran)
{
    int err = match_step_lazy(m, ticks, ran);
    if (err == GOTA_OK) match_settle_facings(m);
    return err;
}

/* ---- inspection --------------------------------------------------------- */
int gota_match_config(const GotaMatch *m, GotaConfig *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    *out = m->cfg;
    return GOTA_OK;
}

int gota_match_info(const GotaMatch *m, GotaMatchInfo *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    out->tick = m->tick;
    out->result = m->result;
    out->winner = m->winner;
    out->god_hp[0] = m->unit[m->god_slot[0]].hp;
    out->god_hp[1] = m->unit[m->god_slot[1]].hp;
    out->unit_count = m->unit_n;
    out->nav_revision = m->nav.revision;
    out->max_ticks = (int32_t)m->cfg.max_ticks;
    out->seed = m->cfg.seed;
    return GOTA_OK;
}

int gota_match_hash(const GotaMatch *m, uint64_t *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    *out = match_hash(m);
    return GOTA_OK;
}

int gota_match_units(const GotaMatch *m, const GotaUnit **units, int32_t *count)
{
    if (!m || !units || !count) return GOTA_ERR_NULL;
    *units = m->unit;
    *count = m->unit_n;
    return GOTA_OK;
}

int gota_match_events(const GotaMatch *m, int64_t first, GotaEvent *out, int32_t cap, int32_t *written,
                      int64_t *next)
{
    if (!m || !out || !written || !next) return GOTA_ERR_NULL;
    if (cap < 0 || first < 0) return GOTA_ERR_RANGE;
    int64_t oldest = m->event_next > EVENT_LOG ? m->event_next - EVENT_LOG : 0;
    if (first < oldest) first = oldest;
    int32_t n = 0;
    while (first + n < m->event_next && n < cap) {
        out[n] = m->event[(first + n) % EVENT_LOG];
        n++;
    }
    *written = n;
    *next = first + n;
    return GOTA_OK;
}

int gota_match_vision(const GotaMatch *m, int32_t team, uint8_t *out, int32_t cap)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (team != GOTA_TEAM_RED && team != GOTA_TEAM_BLUE) return GOTA_ERR_INDEX;
    if (cap < MAP_TILES) return GOTA_ERR_BUFFER;
    for (int tz = 0; tz < MAP_N; tz++)
        for (int tx = 0; tx < MAP_N; tx++) out[map_index(tx, tz)] = (uint8_t)vision_tile(&m->vision, team, tx, tz);
    return GOTA_OK;
}

int gota_match_unit_visible(const GotaMatch *m, int32_t team, int32_t index, int32_t *out)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (team != GOTA_TEAM_RED && team != GOTA_TEAM_BLUE) return GOTA_ERR_INDEX;
    if (index < 0 || index >= m->unit_n) return GOTA_ERR_INDEX;
    *out = m->seen[team][index];
    return GOTA_OK;
}

int gota_match_walkable(const GotaMatch *m, uint8_t *out, int32_t cap)
{
    if (!m || !out) return GOTA_ERR_NULL;
    if (cap < MAP_TILES) return GOTA_ERR_BUFFER;
    for (int t = 0; t < MAP_TILES; t++) out[t] = (uint8_t)nav_open(&m->nav, m->map, t);
    return GOTA_OK;
}

int gota_match_debug_set_hp(GotaMatch *m, int32_t index, int32_t hp)
{
    if (!m) return GOTA_ERR_NULL;
    if (index < 0 || index >= m->unit_n || m->unit[index].kind == GOTA_KIND_NONE) return GOTA_ERR_INDEX;
    GotaUnit *u = &m->unit[index];
    if (!u->alive) return GOTA_ERR_INDEX;
    if (hp < 1) return GOTA_ERR_RANGE;
    u->hp = hp > u->max_hp ? u->max_hp : hp;
    return GOTA_OK;
}

int gota_match_find_path(GotaMatch *m, int32_t sx, int32_t sz, int32_t gx, int32_t gz, int32_t *out_xz,
                         int32_t cap, int32_t *count)
{
    if (!m || !out_xz || !count) return GOTA_ERR_NULL;
    if (!map_world_inside(sx, sz) || !map_world_inside(gx, gz)) return GOTA_ERR_RANGE;
    NavPath path;
    nav_find_path(&m->nav, m->map, sx, sz, gx, gz, &path);
    if (cap < 2 * path.n) return GOTA_ERR_BUFFER;
    for (int k = 0; k < path.n; k++) {
        out_xz[2 * k] = path.x[k];
        out_xz[2 * k + 1] = path.z[k];
    }
    *count = path.n;
    return GOTA_OK;
}
