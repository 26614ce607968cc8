/*
 * bots.c -- the bot phase, the helpers every bot shares, and the two test
 * bots `idle` and `random` (bot.h; docs/bots.md).
 *
 * Phase: script seats decide every tick, in rotating order from seat
 * tick % 10; then the bots whose turn it is think (bot.h: seat k of each team
 * when (tick + k) % BOT_THINK_EVERY == 0, red's first when tick / 6 is even,
 * blue's when odd), dead or alive (buyback, ability points). With the config
 * key upkeep, external seats get their upkeep on the same turns
 * (upkeep_think). Every action is a match_command, exactly what an external
 * seat sends through gota_match_command.
 *
 * idle: never issues a command; its hero stays on its spawn spot, in the
 * spawn room, where it recovers (and fights back only by the heroes' own
 * auto-acquire).
 * random: one random command per think from its own stream: mostly
 * attack-moves and walks to random walkable tiles and attacks on random
 * visible enemies, sometimes a cast of a random learned ability at a random
 * visible enemy or near itself, a random purchase in the shop, a random item
 * use, a random ability point, a stop, or a buyback while dead. The commands
 * are well formed; the game answers them (illegal ones count as invalid).
 */
#include <string.h>
#include "sim/world.h"
#include "sim/rng.h"
#include "sim/fixmath.h"

static const char *const BOT_NAMES[GOTA_BOT_SCRIPT + 1] = {"external", "idle", "random", "base", "rusher",
                                                           "baseline", "puller", "script"};

const char *gota_bot_name(int32_t bot)
{
    return bot >= 0 && bot <= GOTA_BOT_SCRIPT ? BOT_NAMES[bot] : NULL;
}

void bots_reset(GotaMatch *m)
{
    for (int s = 0; s < SEATS; s++) {
        BotState *b = &m->bot[s];
        memset(b, 0, sizeof *b);
        b->kind = (int32_t)m->cfg.bot[s];
        uint64_t seed = (uint64_t)m->cfg.seed;
        b->rng = ((uint64_t)rng_mix(seed, (uint64_t)s, (uint64_t)b->kind, 0x807) << 32) |
                 rng_mix(seed, (uint64_t)s, (uint64_t)b->kind, 0x808);
        b->lane = -1;
        b->camp = -1;
    }
}

uint32_t bot_rand(GotaMatch *m, int seat, uint32_t n)
{
    return n ? rng_below(&m->bot[seat].rng, n) : 0;
}

/* ---- commands ----------------------------------------------------------- */
int bot_command(GotaMatch *m, int seat, int verb, int32_t target, int32_t x, int32_t z, int32_t slot, int32_t item)
{
    GotaCommand c = {verb, target, x, z, slot, item};
    return match_command(m, seat, &c);
}

void bot_move(GotaMatch *m, int seat, int verb, int32_t x, int32_t z)
{
    const HeroState *h = &m->hero[seat];
    int order = verb == GOTA_CMD_WALK ? ORDER_WALK : ORDER_ATTACK_MOVE;
    if (h->order == order && fx_dist2(h->order_x, h->order_z, x, z) <= (int64_t)GOTA_TILE * GOTA_TILE) return;
    /* an attack-move that is fighting on its way: a new one would drop the swing */
    if (h->order == order && order == ORDER_ATTACK_MOVE && m->unit[m->hero_slot[seat]].target_id >= 0) return;
    bot_command(m, seat, verb, 0, x, z, 0, 0);
}

void bot_attack(GotaMatch *m, int seat, int t)
{
    int slot = m->hero_slot[seat];
    if (t < 0) return;
    if (m->unit[slot].target_id == m->unit[t].id && m->hero[seat].order != ORDER_WALK) return;
    bot_command(m, seat, GOTA_CMD_ATTACK, m->unit[t].id, 0, 0, 0, 0);
}

void bot_level(GotaMatch *m, int seat, const int order[4])
{
    const HeroState *h = &m->hero[seat];
    for (int k = 0; k < 4 && h->points > 0; k++) {
        int a = order[k];
        while (h->points > 0 && h->rank[a] < ability_max_rank(a) &&
               h->level >= ability_required_level(a, h->rank[a] + 1))
            if (bot_command(m, seat, GOTA_CMD_LEVEL, 0, 0, 0, a, 0) != GOTA_ACT_OK) break;
    }
}

/* ---- items -------------------------------------------------------------- */
int bot_item_slot(const GotaMatch *m, int seat, int item)
{
    for (int i = 0; i < HERO_ITEM_SLOTS; i++)
        if (m->hero[seat].item[i] == item && m->hero[seat].item_count[i] > 0) return i;
    return -1;
}

int bot_item_count(const GotaMatch *m, int seat, int item)
{
    int n = 0;
    for (int i = 0; i < HERO_ITEM_SLOTS; i++)
        if (m->hero[seat].item[i] == item) n += m->hero[seat].item_count[i];
    return n;
}

int bot_free_slots(const GotaMatch *m, int seat)
{
    int n = 0;
    for (int i = 0; i < HERO_ITEM_SLOTS; i++) n += m->hero[seat].item[i] == 0;
    return n;
}

int bot_in_shop(const GotaMatch *m, int seat)
{
    const GotaUnit *u = &m->unit[m->hero_slot[seat]];
    int bits = hero_team(seat) == GOTA_TEAM_RED ? GOTA_REGION_RED_KEEP | GOTA_REGION_RED_SPAWN
                                                : GOTA_REGION_BLUE_KEEP | GOTA_REGION_BLUE_SPAWN;
    return u->alive && (m->map->region[map_index_of(u->x, u->z)] & bits) != 0;
}

int bot_buy(GotaMatch *m, int seat, int item)
{
    const HeroState *h = &m->hero[seat];
    const ItemDef *d = &ITEM[item];
    if (h->gold < d->gold) return 0;
    int fits = bot_free_slots(m, seat) > 0;
    if (d->kind == ITEM_EQUIPMENT) {
        if (bot_item_slot(m, seat, item) >= 0) return 0;
    } else {
        for (int i = 0; i < HERO_ITEM_SLOTS; i++)
            fits |= h->item[i] == item && h->item_count[i] < HERO_STACK;
    }
    return fits && bot_command(m, seat, GOTA_CMD_BUY, 0, 0, 0, 0, item) == GOTA_ACT_OK;
}

int bot_use_first(GotaMatch *m, int seat, const int *items, int n)
{
    for (int k = 0; k < n; k++) {
        int i = bot_item_slot(m, seat, items[k]);
        if (i >= 0) return bot_command(m, seat, GOTA_CMD_USE_ITEM, 0, 0, 0, i, 0) == GOTA_ACT_OK;
    }
    return 0;
}

int bot_enemy_ok(const GotaMatch *m, int team, int slot, int neutrals)
{
    const GotaUnit *u = &m->unit[slot];
    if (!u->alive || u->team == team || !m->seen[team][slot] || !unit_attackable(m, slot)) return 0;
    return u->kind != GOTA_KIND_NEUTRAL || neutrals || camp_fighting(m, slot);
}

void bot_building_spot(const GotaMatch *m, int b, int32_t *x, int32_t *z)
{
    *x = m->map->building[b].x;
    *z = m->map->building[b].z;
}

/* Class gear of the base economy, in buying order, then buckler and amulet. */
static const int GEAR_MELEE[] = {7, 5, 11, 13, 18, 6, 9, 0};
static const int GEAR_RANGED[] = {8, 14, 19, 6, 9, 0};
static const int GEAR_MAGIC[] = {12, 10, 17, 20, 6, 9, 0};

void bot_base_economy(GotaMatch *m, int seat, int casts)
{
    int slot = m->hero_slot[seat];
    const GotaUnit *u = &m->unit[slot];
    const HeroState *h = &m->hero[seat];
    if (!u->alive || h->channel > 0 || h->stun > 0) return;
    static const int HP_ITEMS[] = {1, 2}, MANA_ITEMS[] = {22, 3}, POISON[] = {4};
    if (u->hp * 100 < u->max_hp * 60 && h->hp_item_cd == 0) bot_use_first(m, seat, HP_ITEMS, 2);
    if (h->mana * 100 < h->max_mana * 40 && h->mana_item_cd == 0) bot_use_first(m, seat, MANA_ITEMS, 2);
    int t = unit_target_slot(m, slot);
    if (t >= 0 && bot_enemy_ok(m, u->team, t, 1) && unit_attack_reach_ok(m, slot, t, u->x, u->z))
        bot_use_first(m, seat, POISON, 1);
    bot_shop(m, seat, casts);
}

void bot_shop(GotaMatch *m, int seat, int casts)
{
    const HeroState *h = &m->hero[seat];
    if (!bot_in_shop(m, seat)) return;
    if (bot_item_count(m, seat, 1) < 1) bot_buy(m, seat, 1);
    if (casts && bot_item_count(m, seat, 22) < 1) bot_buy(m, seat, 22);
    if (bot_item_count(m, seat, 4) < 1) bot_buy(m, seat, 4);
    int style = HERO_CLASS[h->cls].style;
    const int *gear = style == STYLE_MELEE ? GEAR_MELEE : style == STYLE_RANGED ? GEAR_RANGED : GEAR_MAGIC;
    for (int k = 0; gear[k]; k++) {
        if (bot_item_slot(m, seat, gear[k]) >= 0) continue;
        if (h->gold < ITEM[gear[k]].gold || bot_free_slots(m, seat) == 0) break;   /* save up for it */
        bot_buy(m, seat, gear[k]);
    }
}

/* ---- upkeep of external seats (config key upkeep) ----------------------- */
/* What the original's policy.bas does around a learner's decisions: points
 * R > W > E > Q, the base shopping (a mage also stocks a mana potion), and a
 * buyback when the wait is over five seconds. Item use stays the policy's. */
static void upkeep_think(GotaMatch *m, int seat)
{
    static const int LEVEL_ORDER[4] = {3, 1, 2, 0};
    const HeroState *h = &m->hero[seat];
    bot_level(m, seat, LEVEL_ORDER);
    if (!m->unit[m->hero_slot[seat]].alive) {
        if (h->gold >= h->buyback_price && h->respawn_at - m->tick > 120)
            bot_command(m, seat, GOTA_CMD_BUYBACK, 0, 0, 0, 0, 0);
        return;
    }
    if (h->channel == 0 && h->stun == 0) bot_shop(m, seat, HERO_CLASS[h->cls].style == STYLE_MAGIC);
}

/* ---- random ------------------------------------------------------------- */
/* A random walkable tile centre (a few tries; else the bot's own spot). */
static void random_point(GotaMatch *m, int seat, int32_t *x, int32_t *z)
{
    const GotaUnit *u = &m->unit[m->hero_slot[seat]];
    *x = u->x;
    *z = u->z;
    for (int k = 0; k < 8; k++) {
        int t = (int)bot_rand(m, seat, MAP_TILES);
        if (m->map->walkable[t]) {
            *x = map_tile_centre(t % MAP_N);
            *z = map_tile_centre(t / MAP_N);
            return;
        }
    }
}

/* A random visible enemy within 12 tiles (reservoir sampling over one pass). */
static int random_enemy(GotaMatch *m, int seat)
{
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    const int64_t r2 = (int64_t)(12 * GOTA_TILE) * (12 * GOTA_TILE);
    int pick = -1;
    uint32_t n = 0;
    for (int i = 0; i < m->unit_n; i++) {
        if (!bot_enemy_ok(m, me->team, i, 0)) continue;
        if (fx_dist2(me->x, me->z, m->unit[i].x, m->unit[i].z) > r2) continue;
        if (bot_rand(m, seat, ++n) == 0) pick = i;
    }
    return pick;
}

static void random_think(GotaMatch *m, int seat)
{
    HeroState *h = &m->hero[seat];
    const GotaUnit *me = &m->unit[m->hero_slot[seat]];
    uint32_t r = bot_rand(m, seat, 100);
    int32_t x, z;
    if (!me->alive) {
        if (r < 20) bot_command(m, seat, GOTA_CMD_BUYBACK, 0, 0, 0, 0, 0);
        else if (h->points > 0) bot_command(m, seat, GOTA_CMD_LEVEL, 0, 0, 0, (int32_t)bot_rand(m, seat, 4), 0);
        return;
    }
    if (r < 30) {
        random_point(m, seat, &x, &z);
        bot_command(m, seat, GOTA_CMD_ATTACK_MOVE, 0, x, z, 0, 0);
    } else if (r < 40) {
        random_point(m, seat, &x, &z);
        bot_command(m, seat, GOTA_CMD_WALK, 0, x, z, 0, 0);
    } else if (r < 58) {
        int t = random_enemy(m, seat);
        if (t >= 0) bot_command(m, seat, GOTA_CMD_ATTACK, m->unit[t].id, 0, 0, 0, 0);
    } else if (r < 68) {
        int a = (int)bot_rand(m, seat, 4);
        if (h->rank[a] == 0) return;
        int t = random_enemy(m, seat);
        if (t >= 0 && bot_rand(m, seat, 2)) {
            bot_command(m, seat, GOTA_CMD_CAST_TARGET, m->unit[t].id, 0, 0, a, 0);
        } else {
            x = me->x + ((int32_t)bot_rand(m, seat, 9) - 4) * GOTA_TILE;
            z = me->z + ((int32_t)bot_rand(m, seat, 9) - 4) * GOTA_TILE;
            bot_command(m, seat, GOTA_CMD_CAST_POINT, 0, x, z, a, 0);
        }
    } else if (r < 78) {
        if (bot_in_shop(m, seat)) bot_command(m, seat, GOTA_CMD_BUY, 0, 0, 0, 0, 1 + (int32_t)bot_rand(m, seat, 22));
    } else if (r < 84) {
        int i = (int)bot_rand(m, seat, HERO_ITEM_SLOTS);
        if (h->item[i] == 0 || ITEM[h->item[i]].kind == ITEM_EQUIPMENT) return;
        if (ITEM[h->item[i]].use == USE_PORTAL) {
            random_point(m, seat, &x, &z);
            bot_command(m, seat, GOTA_CMD_USE_ITEM_AT, 0, x, z, i, 0);
        } else {
            bot_command(m, seat, GOTA_CMD_USE_ITEM, 0, 0, 0, i, 0);
        }
    } else if (r < 96) {
        if (h->points > 0) bot_command(m, seat, GOTA_CMD_LEVEL, 0, 0, 0, (int32_t)bot_rand(m, seat, 4), 0);
    } else {
        bot_command(m, seat, GOTA_CMD_STOP, 0, 0, 0, 0, 0);
    }
}

/* ---- the phase ---------------------------------------------------------- */
static void bot_think(GotaMatch *m, int seat)
{
    const BotState *b = &m->bot[seat];
    if (b->kind == GOTA_BOT_EXTERNAL && !m->cfg.upkeep) return;
    if (hero_seat_of_slot(m, m->hero_slot[seat]) != seat) return;
    switch (b->kind) {
    case GOTA_BOT_EXTERNAL: upkeep_think(m, seat); break;
    case GOTA_BOT_RANDOM: random_think(m, seat); break;
    case GOTA_BOT_BASE: bot_base_think(m, seat); break;
    case GOTA_BOT_RUSHER: bot_rusher_think(m, seat); break;
    case GOTA_BOT_BASELINE: bot_baseline_think(m, seat); break;
    case GOTA_BOT_PULLER: bot_puller_think(m, seat); break;
    default: break;   /* idle; scripts decide in bots_run */
    }
}

void bots_run(GotaMatch *m)
{
    if (!m->cfg.heroes) return;
    for (int k = 0; k < SEATS; k++) {   /* scripts decide every tick (basic_host.c) */
        int seat = (m->tick + k) % SEATS;
        if (m->bot[seat].kind == GOTA_BOT_SCRIPT) script_decide(m, seat);
    }
    /* the two seats k of the teams think on the same ticks, (tick + k) % 6 == 0,
     * taking turns at going first (bot.h) */
    int k = (BOT_THINK_EVERY - m->tick % BOT_THINK_EVERY) % BOT_THINK_EVERY;
    if (k >= SEATS_PER_TEAM) return;
    int first = (int)(m->tick / BOT_THINK_EVERY % 2);
    for (int i = 0; i < 2; i++) {
        int seat = (first + i) % 2 * SEATS_PER_TEAM + k;
        if (m->bot[seat].kind != GOTA_BOT_SCRIPT) bot_think(m, seat);
    }
}
