/*
 * economy.c -- XP, levels, gold, kills and assists, the shop, items, potions,
 * the portal scroll, ability ranks and buyback (docs/rules.md section 4), and
 * the score (docs/rules.md section 8).
 *
 * Units: XP is counted in 1/6000 XP (XP_FRACTION) while it is shared, whole XP
 * in HeroState.xp (lifetime, keeps counting at the level cap) and the carried
 * remainder in HeroState.xp_frac (0..5999). Distances are world units, times
 * ticks, gold whole coins. The "XP into the current level" is not stored: it is
 * xp - xp_total(level), derived from the lifetime XP (no duplicate state).
 *
 * Rewards (economy_on_death, after every hit of a tick; deaths are already
 * settled, so a hero who died the same tick is not "alive" for a share):
 * - lane creep: pool 15 XP for the creep's enemy heroes alive within 6 tiles
 *   (unit positions at the end of combat; one ground layer on this map),
 *   whoever killed it; a last hitter among them first takes 15 %, the other
 *   85 % is split equally among all of them (the last hitter included). Pools
 *   are multiples of 6000 and 6000 * 85 % = 5100 divides by 1..5, so every
 *   split of up to five heroes is exact. The killing hero gets 15 gold and a
 *   last hit whether or not he is in range.
 * - neutral: the tier pool 20/35/50 XP (x2 for a leader: member 0 of a camp
 *   with more than one member) is shared the same way among the heroes of the
 *   KILLER's team (a creep or tower kill still pays nearby heroes of its team);
 *   gold 10/20/30 (x2 leader) and a neutral kill to the killing hero.
 * - hero: 150 XP, 100 gold and a kill to an enemy hero who lands the last hit.
 *   A death by an enemy tower or creep also counts as a kill for the other
 *   team, but the kill stat is per seat, so no seat gets it; a death by
 *   neutrals is only a death. Assists (stat only): heroes of the other team,
 *   other than the killing hero, whose damaged_at[seat] lies within the last
 *   240 ticks (tick - damaged_at < 240; damage is never dealt at tick 0, so 0
 *   and -1 both mean "never"), and only when the death counts as a kill. After
 *   counting, the victim's damage record is cleared, so damage to an earlier
 *   life never makes an assist after a buyback.
 * - tower, god guard or barracks: 200 XP, 75 gold and a structure kill to a
 *   hero who lands the last hit; a creep's last hit pays nobody. The god pays
 *   through economy_god_destroyed only (1,000 XP to every hero of the winning
 *   team, alive or dead; both teams on a draw), not as a building.
 *
 * Levels: XP from L to L+1 = 100 + 75 (L - 1), cap 20 (14,725 total). Each
 * level-up: level + 1, one ability point, hero_refresh_stats (HP and mana rise
 * with the maximum). Score = max(0, xp * 1440 - 200 * tick) / 1440.
 *
 * Shop and items (IDs, prices, amounts: content.c ITEM[]): buying needs a
 * living hero inside its own keep or spawn room; checks in this order: item
 * id, dead, shop region, gold, then the inventory (equipment duplicate,
 * consumable stack of 8 / new slot, no free slot). Using: slot (a malformed
 * command, as for casts), dead (a dead hero acts with no item, whatever the
 * slot holds), empty, equipment (passive), stunned, channeling, then the
 * item's own checks: potions test their cooldown before FULL; poison needs
 * the current attack target alive, attackable, hostile, visible and in attack
 * reach (mobile targets at their current position, buildings by their
 * footprint); the portal needs a point, its cooldown, a point inside the
 * map, no root (a root would interrupt the channel at once, so the scroll is
 * not wasted), then a landing. Running potions progress only while alive; a
 * death ends them.
 *
 * Portal: the aim may be anywhere inside the map. The landing is the open
 * (nav_open), team-visible tile nearest the aim whose centre lies inside the
 * sight circle (MapBuilding.sight_tiles) of a living allied tower (gate towers
 * and god guards count, barracks do not); the aim itself when its own tile
 * qualifies, else that tile's centre. Ties: map_tie_key (the lower tile index
 * in the frame of the aim's half of the map). The anchor is the tower whose
 * circle holds the landing, the nearest to it when several do (then the lower
 * building index). No qualifying tile at all: NO_TOWER. Starting the
 * channel (72 ticks, economy_hero_tick) ends in a teleport (path dropped) if
 * the tower still lives. Stun or root (combat clears `channel`), death or the
 * tower's fall interrupt it; the 1,440-tick cooldown starts at completion or
 * interruption. An interruption by combat is seen on the next economy_hero_tick
 * (channel 0 while channel_tower still names a tower), which starts the
 * cooldown then; channel_tower is -1 when no channel is pending.
 *
 * Ability ranks: points are HeroState.points (level - sum of ranks); checks in
 * the order slot, points, max rank, required level; allowed while dead. The
 * first rank grants the ability's full charges.
 *
 * Buyback: match over, alive, gold (price HeroState.buyback_price, set by
 * hero_died at 100 x deaths), then hero_respawn (heroes.c) does the respawn.
 *
 * Calls hero_refresh_stats and hero_respawn (heroes.c),
 * combat_queue_hit (combat.c), unit helpers (units.c).
 */
#include "world.h"
#include "fixmath.h"

#define XP_LEADER_FACTOR 2
#define ITEM_ID_MIN 1
#define ITEM_ID_MAX (ITEM_KINDS - 1)

static const int32_t NEUTRAL_XP[4] = {0, 20, 35, 50};
static const int32_t NEUTRAL_GOLD[4] = {0, 10, 20, 30};

static int seat_valid(const GotaMatch *m, int seat)
{
    return seat >= 0 && seat < SEATS && m->hero_slot[seat] >= 0;
}

static int hero_alive(const GotaMatch *m, int seat)
{
    return m->unit[m->hero_slot[seat]].alive;
}

/* Total lifetime XP at which a hero reaches `level`: sum of xp_to_next. */
static int64_t xp_total(int32_t level)
{
    int64_t l = level - 1;
    return 100 * l + 75 * l * (l - 1) / 2;
}

void economy_add_xp(GotaMatch *m, int seat, int64_t xp_fraction)
{
    if (!seat_valid(m, seat) || xp_fraction <= 0) return;
    HeroState *h = &m->hero[seat];
    int64_t frac = h->xp_frac + xp_fraction;
    h->xp += (int32_t)(frac / XP_FRACTION);
    h->xp_frac = (int32_t)(frac % XP_FRACTION);
    while (h->level < HERO_MAX_LEVEL && h->xp >= xp_total(h->level + 1)) {
        h->level++;
        h->points++;
        hero_refresh_stats(m, seat);
    }
}

void economy_add_gold(GotaMatch *m, int seat, int32_t gold)
{
    if (!seat_valid(m, seat) || gold <= 0) return;
    m->hero[seat].gold += gold;
    m->hero[seat].stats.gold_earned += gold;
}

int64_t economy_hero_score(const GotaMatch *m, int seat)
{
    if (!seat_valid(m, seat)) return 0;
    int64_t v = (int64_t)m->hero[seat].xp * SCORE_TICKS_PER_MINUTE - (int64_t)SCORE_PER_MINUTE * m->tick;
    return v > 0 ? v / SCORE_TICKS_PER_MINUTE : 0;
}

/* Share `pool` (1/6000 XP) among the living heroes of `team` within 6 tiles
 * of (x, z): `last_seat`, if among them, first takes 15 %, the rest is split
 * equally among all of them. */
static void share_pool(GotaMatch *m, int team, int32_t x, int32_t z, int64_t pool, int last_seat)
{
    int who[SEATS], n = 0, last_in = 0;
    const int64_t r2 = (int64_t)XP_SHARE_RANGE * XP_SHARE_RANGE;
    for (int s = 0; s < SEATS; s++) {
        if (!seat_valid(m, s) || hero_team(s) != team || !hero_alive(m, s)) continue;
        const GotaUnit *u = &m->unit[m->hero_slot[s]];
        if (fx_dist2(x, z, u->x, u->z) > r2) continue;
        who[n++] = s;
        if (s == last_seat) last_in = 1;
    }
    if (n == 0) return;
    if (last_in) {
        int64_t first = pool * XP_LAST_HIT_PERCENT / 100;
        economy_add_xp(m, last_seat, first);
        pool -= first;
    }
    for (int i = 0; i < n; i++) economy_add_xp(m, who[i], pool / n);
}

static void on_hero_death(GotaMatch *m, int victim_seat, int killer, int killer_seat)
{
    HeroState *v = &m->hero[victim_seat];
    int enemy = 1 - hero_team(victim_seat);
    if (killer_seat >= 0 && hero_team(killer_seat) == enemy) {
        economy_add_xp(m, killer_seat, (int64_t)XP_HERO_KILL * XP_FRACTION);
        economy_add_gold(m, killer_seat, GOLD_HERO_KILL);
        m->hero[killer_seat].stats.kills++;
    }
    int is_kill = killer >= 0 && m->unit[killer].team == enemy;
    for (int s = 0; s < SEATS; s++) {
        if (is_kill && s != killer_seat && hero_team(s) == enemy && v->damaged_at[s] > 0 &&
            m->tick - v->damaged_at[s] < HERO_ASSIST_WINDOW)
            m->hero[s].stats.assists++;
        v->damaged_at[s] = -1;
    }
}

static void on_neutral_death(GotaMatch *m, int victim, int killer, int killer_seat)
{
    const GotaUnit *u = &m->unit[victim];
    int tier = u->sub, camp = m->st[victim].camp;
    if (tier < 1 || tier > 3 || killer < 0) return;
    int team = m->unit[killer].team;
    if (team != GOTA_TEAM_RED && team != GOTA_TEAM_BLUE) return;
    int leader = camp >= 0 && camp < MAP_CAMPS && m->map->camp[camp].members > 1 &&
                 m->camp[camp].member[0] == victim;
    int factor = leader ? XP_LEADER_FACTOR : 1;
    share_pool(m, team, u->x, u->z, (int64_t)NEUTRAL_XP[tier] * factor * XP_FRACTION, killer_seat);
    if (killer_seat >= 0) {
        economy_add_gold(m, killer_seat, NEUTRAL_GOLD[tier] * factor);
        m->hero[killer_seat].stats.neutral_kills++;
    }
}

void economy_on_death(GotaMatch *m, int victim, int killer)
{
    if (victim < 0 || victim >= m->unit_n) return;
    if (killer >= m->unit_n) killer = -1;
    const GotaUnit *u = &m->unit[victim];
    int killer_seat = killer >= 0 ? hero_seat_of_slot(m, killer) : -1;
    switch (u->kind) {
    case GOTA_KIND_CREEP:
        share_pool(m, 1 - u->team, u->x, u->z, (int64_t)XP_CREEP_POOL * XP_FRACTION, killer_seat);
        if (killer_seat >= 0) {
            economy_add_gold(m, killer_seat, GOLD_CREEP);
            m->hero[killer_seat].stats.last_hits++;
        }
        break;
    case GOTA_KIND_NEUTRAL:
        on_neutral_death(m, victim, killer, killer_seat);
        break;
    case GOTA_KIND_HERO: {
        int seat = hero_seat_of_slot(m, victim);
        if (seat >= 0) on_hero_death(m, seat, killer, killer_seat);
        break;
    }
    case GOTA_KIND_TOWER:
    case GOTA_KIND_BARRACKS:
        if (killer_seat >= 0) {
            economy_add_xp(m, killer_seat, (int64_t)XP_STRUCTURE * XP_FRACTION);
            economy_add_gold(m, killer_seat, GOLD_BUILDING);
            m->hero[killer_seat].stats.structure_kills++;
        }
        break;
    default:
        break;
    }
}

void economy_god_destroyed(GotaMatch *m, int winner_team)
{
    for (int s = 0; s < SEATS; s++)
        if (seat_valid(m, s) && hero_team(s) == winner_team)
            economy_add_xp(m, s, (int64_t)XP_GOD * XP_FRACTION);
}

/* ---- shop ---------------------------------------------------------------- */
static int in_shop(const GotaMatch *m, int seat)
{
    const GotaUnit *u = &m->unit[m->hero_slot[seat]];
    int bits = hero_team(seat) == GOTA_TEAM_RED ? GOTA_REGION_RED_KEEP | GOTA_REGION_RED_SPAWN
                                                : GOTA_REGION_BLUE_KEEP | GOTA_REGION_BLUE_SPAWN;
    return (m->map->region[map_index_of(u->x, u->z)] & bits) != 0;
}

int economy_buy(GotaMatch *m, int seat, int item)
{
    if (!seat_valid(m, seat)) return GOTA_ACT_NO_HERO;
    if (item < ITEM_ID_MIN || item > ITEM_ID_MAX) return GOTA_ACT_BAD_ITEM;
    if (!hero_alive(m, seat)) return GOTA_ACT_DEAD;
    if (!in_shop(m, seat)) return GOTA_ACT_NOT_IN_SHOP;
    HeroState *h = &m->hero[seat];
    const ItemDef *d = &ITEM[item];
    if (h->gold < d->gold) return GOTA_ACT_NO_GOLD;
    int put = -1;
    if (d->kind == ITEM_EQUIPMENT) {
        for (int i = 0; i < HERO_ITEM_SLOTS; i++)
            if (h->item[i] == item) return GOTA_ACT_DUPLICATE;
    } else {
        for (int i = 0; i < HERO_ITEM_SLOTS && put < 0; i++)
            if (h->item[i] == item && h->item_count[i] < HERO_STACK) put = i;
    }
    for (int i = 0; i < HERO_ITEM_SLOTS && put < 0; i++)
        if (h->item[i] == 0) put = i;
    if (put < 0) return GOTA_ACT_INVENTORY_FULL;
    h->gold -= d->gold;
    h->item[put] = item;
    h->item_count[put]++;
    if (d->kind == ITEM_EQUIPMENT) hero_refresh_stats(m, seat);
    return GOTA_ACT_OK;
}

/* ---- items --------------------------------------------------------------- */
static void consume(HeroState *h, int slot)
{
    if (--h->item_count[slot] <= 0) {
        h->item[slot] = 0;
        h->item_count[slot] = 0;
    }
}

static int use_poison(GotaMatch *m, int seat, int amount)
{
    int slot = m->hero_slot[seat];
    int t = unit_target_slot(m, slot);
    if (t < 0 || !unit_attackable(m, t) || !unit_hostile(m, slot, t) || !unit_visible_to(m, hero_team(seat), t))
        return GOTA_ACT_BAD_TARGET;
    const GotaUnit *a = &m->unit[slot], *u = &m->unit[t];
    int reach;
    if (u->kind == GOTA_KIND_TOWER || u->kind == GOTA_KIND_BARRACKS || u->kind == GOTA_KIND_GOD)
        reach = unit_attack_reach_ok(m, slot, t, a->x, a->z);
    else
        reach = fx_dist2(a->x, a->z, u->x, u->z) <= (int64_t)a->range * a->range;
    if (!reach) return GOTA_ACT_BAD_TARGET;
    combat_queue_hit(m, slot, t, amount, HIT_ITEM, 0, 0, 0);
    return GOTA_ACT_OK;
}

typedef struct {
    int32_t x, z;                /* the aim */
    int aim, tile, key, tower;   /* tile -1: none yet */
    int64_t d2, tower_d2;
} PortalLanding;

/* Searches the open, team-visible tiles inside the sight circles of the
 * team's living towers for the landing nearest the aim (rules above) into
 * *best; with best NULL, only says whether any tile qualifies. */
static int portal_search(const GotaMatch *m, int team, PortalLanding *best)
{
    for (int i = 0; i < m->map->building_n; i++) {
        const MapBuilding *b = &m->map->building[i];
        if (b->kind != GOTA_KIND_TOWER || b->team != team || !m->building_alive[i]) continue;
        int64_t r = (int64_t)b->sight_tiles * GOTA_TILE, r2 = r * r;
        int btx = map_tile_of(b->x), btz = map_tile_of(b->z);
        for (int tz = btz - b->sight_tiles - 1; tz <= btz + b->sight_tiles + 1; tz++)
            for (int tx = btx - b->sight_tiles - 1; tx <= btx + b->sight_tiles + 1; tx++) {
                if (!map_in_bounds(tx, tz)) continue;
                int t = map_index(tx, tz);
                int32_t cx = map_tile_centre(tx), cz = map_tile_centre(tz);
                int64_t tower_d2 = fx_dist2(cx, cz, b->x, b->z);
                if (tower_d2 > r2 || !nav_open(&m->nav, m->map, t) || !vision_tile(&m->vision, team, tx, tz))
                    continue;
                if (!best) return 1;
                int64_t d2 = t == best->aim ? -1 : fx_dist2(cx, cz, best->x, best->z);   /* the aim's tile wins */
                int key = map_tie_key(best->aim, t);   /* ties mirrored on blue's half */
                if (best->tile < 0 || d2 < best->d2 ||
                    (d2 == best->d2 && (key < best->key || (key == best->key && tower_d2 < best->tower_d2)))) {
                    *best = (PortalLanding){best->x, best->z, best->aim, t, key, i, d2, tower_d2};
                }
            }
    }
    return best && best->tile >= 0;
}

int economy_portal_possible(const GotaMatch *m, int team) { return portal_search(m, team, NULL); }

static int use_portal(GotaMatch *m, int seat, int at_point, int32_t x, int32_t z)
{
    HeroState *h = &m->hero[seat];
    if (!at_point) return GOTA_ACT_BAD_POINT;
    if (h->portal_cd > 0) return GOTA_ACT_ITEM_COOLDOWN;
    if (!map_world_inside(x, z)) return GOTA_ACT_BAD_POINT;
    if (h->root > 0) return GOTA_ACT_ROOTED;
    PortalLanding best = {.x = x, .z = z, .aim = map_index_of(x, z), .tile = -1};
    if (!portal_search(m, hero_team(seat), &best)) return GOTA_ACT_NO_TOWER;
    int slot = m->hero_slot[seat];
    h->channel = PORTAL_CHANNEL;
    h->channel_x = best.tile == best.aim ? x : map_tile_centre(best.tile % MAP_N);
    h->channel_z = best.tile == best.aim ? z : map_tile_centre(best.tile / MAP_N);
    h->channel_tower = m->building_slot[best.tower];
    h->order = ORDER_IDLE;
    m->unit[slot].target_id = -1;
    m->st[slot].target = -1;
    unit_stop_swing(m, slot);
    return GOTA_ACT_OK;
}

int economy_use_item(GotaMatch *m, int seat, int slot, int at_point, int32_t x, int32_t z)
{
    if (!seat_valid(m, seat)) return GOTA_ACT_NO_HERO;
    if (slot < 0 || slot >= HERO_ITEM_SLOTS) return GOTA_ACT_BAD_SLOT;
    if (!hero_alive(m, seat)) return GOTA_ACT_DEAD;
    HeroState *h = &m->hero[seat];
    int item = h->item[slot];
    if (item < ITEM_ID_MIN || item > ITEM_ID_MAX || h->item_count[slot] <= 0) return GOTA_ACT_EMPTY_SLOT;
    const ItemDef *d = &ITEM[item];
    if (d->kind == ITEM_EQUIPMENT) return GOTA_ACT_BAD_ITEM;
    if (h->stun > 0) return GOTA_ACT_STUNNED;
    if (h->channel > 0) return GOTA_ACT_CHANNELING;
    GotaUnit *u = &m->unit[m->hero_slot[seat]];
    int code = GOTA_ACT_OK;
    switch (d->use) {
    case USE_HEAL_OVER_TIME:
    case USE_HEAL_NOW:
        if (h->hp_item_cd > 0) return GOTA_ACT_ITEM_COOLDOWN;
        if (u->hp >= u->max_hp) return GOTA_ACT_FULL;
        h->hp_item_cd = POTION_COOLDOWN;
        if (d->use == USE_HEAL_NOW) {
            u->hp = u->hp + d->amount < u->max_hp ? u->hp + d->amount : u->max_hp;
        } else {
            h->hp_regen_total = d->amount;
            h->hp_regen_elapsed = 0;
            h->hp_regen_given = 0;
        }
        break;
    case USE_MANA_NOW:
    case USE_MANA_OVER_TIME:
        if (h->mana_item_cd > 0) return GOTA_ACT_ITEM_COOLDOWN;
        if (h->mana >= h->max_mana) return GOTA_ACT_FULL;
        h->mana_item_cd = POTION_COOLDOWN;
        if (d->use == USE_MANA_NOW) {
            h->mana = h->mana + d->amount < h->max_mana ? h->mana + d->amount : h->max_mana;
        } else {
            h->mana_regen_total = d->amount;
            h->mana_regen_elapsed = 0;
            h->mana_regen_given = 0;
        }
        break;
    case USE_POISON:
        code = use_poison(m, seat, d->amount);
        break;
    case USE_PORTAL:
        code = use_portal(m, seat, at_point, x, z);
        break;
    default:
        return GOTA_ACT_BAD_ITEM;
    }
    if (code == GOTA_ACT_OK) consume(h, slot);
    return code;
}

void economy_hero_damaged(GotaMatch *m, int seat)
{
    if (seat < 0 || seat >= SEATS) return;
    m->hero[seat].hp_regen_total = 0;
    m->hero[seat].mana_regen_total = 0;
}

/* One tick of an over-time potion: floor(total * elapsed / 240) given so far. */
static int32_t regen_step(int32_t *total, int32_t *elapsed, int32_t *given)
{
    if (*total <= 0) return 0;
    (*elapsed)++;
    int32_t now = *total * *elapsed / POTION_DURATION, add = now - *given;
    *given = now;
    if (*elapsed >= POTION_DURATION) *total = 0;
    return add;
}

/* A portal channel that ends now (completed or interrupted) starts the cooldown. */
static void channel_end(HeroState *h)
{
    h->channel = 0;
    h->channel_tower = -1;
    h->portal_cd = PORTAL_COOLDOWN;
}

static void channel_tick(GotaMatch *m, int seat)
{
    HeroState *h = &m->hero[seat];
    int t = h->channel_tower;
    int pending = t >= 0 && t < m->unit_n && m->unit[t].kind == GOTA_KIND_TOWER;
    if (!pending && h->channel <= 0) return;
    int slot = m->hero_slot[seat];
    if (!pending || h->channel <= 0 || !m->unit[slot].alive || !m->unit[t].alive) {   /* interrupted */
        channel_end(h);
        return;
    }
    if (--h->channel > 0) return;
    GotaUnit *u = &m->unit[slot];
    u->x = h->channel_x;
    u->z = h->channel_z;
    m->st[slot].path.n = 0;
    m->st[slot].path_i = 0;
    channel_end(h);
}

void economy_hero_tick(GotaMatch *m, int seat)
{
    if (!seat_valid(m, seat)) return;
    HeroState *h = &m->hero[seat];
    if (h->hp_item_cd > 0) h->hp_item_cd--;
    if (h->mana_item_cd > 0) h->mana_item_cd--;
    if (h->portal_cd > 0) h->portal_cd--;
    GotaUnit *u = &m->unit[m->hero_slot[seat]];
    if (u->alive) {
        int32_t hp = regen_step(&h->hp_regen_total, &h->hp_regen_elapsed, &h->hp_regen_given);
        int32_t mana = regen_step(&h->mana_regen_total, &h->mana_regen_elapsed, &h->mana_regen_given);
        u->hp = u->hp + hp < u->max_hp ? u->hp + hp : u->max_hp;
        h->mana = h->mana + mana < h->max_mana ? h->mana + mana : h->max_mana;
    } else {
        h->hp_regen_total = 0;
        h->mana_regen_total = 0;
    }
    channel_tick(m, seat);
}

/* ---- ability ranks, buyback --------------------------------------------- */
int economy_level_ability(GotaMatch *m, int seat, int slot)
{
    if (!seat_valid(m, seat)) return GOTA_ACT_NO_HERO;
    if (slot < 0 || slot >= HERO_ABILITIES) return GOTA_ACT_BAD_SLOT;
    HeroState *h = &m->hero[seat];
    if (h->points <= 0) return GOTA_ACT_NO_POINTS;
    if (h->rank[slot] >= ability_max_rank(slot)) return GOTA_ACT_MAX_RANK;
    if (h->level < ability_required_level(slot, h->rank[slot] + 1)) return GOTA_ACT_LEVEL_TOO_LOW;
    h->points--;
    if (++h->rank[slot] == 1) h->charges[slot] = HERO_CLASS[h->cls].ability[slot].charges;
    return GOTA_ACT_OK;
}

int economy_buyback(GotaMatch *m, int seat)
{
    if (!seat_valid(m, seat)) return GOTA_ACT_NO_HERO;
    if (m->result != GOTA_RESULT_RUNNING) return GOTA_ACT_MATCH_OVER;
    if (hero_alive(m, seat)) return GOTA_ACT_ALIVE;
    HeroState *h = &m->hero[seat];
    if (h->gold < h->buyback_price) return GOTA_ACT_NO_GOLD;
    h->gold -= h->buyback_price;
    hero_respawn(m, seat);
    return GOTA_ACT_OK;
}
