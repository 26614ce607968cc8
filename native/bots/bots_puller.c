/*
 * bots_puller.c -- the `puller` bot, the strongest bundled player
 * (docs/rules.md section 9: the original's puller.bas, "reference policy plus
 * camp pulls"; docs/bots.md).
 *
 * It thinks every 6 ticks in a team-normalised frame: lanes are named as Red
 * sees them (Blue's lane L is Red's 2 - L, the map being point-symmetric), so
 * both teams play the same plan. One think, in priority order:
 *   0. dead: buy back when the gold covers the price (and the wait is long);
 *      spend points R > W > E > Q (also while dead).
 *   1. perceive: one pass over the unit table (what the team sees) scoring
 *      targets: the exposed god, weak enemy heroes, last-hittable creeps,
 *      whoever attacks it, enemy heroes in reach, exposed buildings with
 *      allied creeps to tank them, other creeps; counting heroes near it,
 *      finding tower aggro, the allied creep front of its lane, the most
 *      wounded ally.
 *   2. dodge: a visible hostile area spell due within 3 s whose shape holds
 *      it: walk out of the shape.
 *   3. retreat under 25 % HP (or a caster under 15 % mana): portal scroll to
 *      its own god guard when no enemy hero is near and home is far, else walk
 *      home; stay in the spawn room until 90 % HP and 60 % mana.
 *   4. spells: self heals and mana restores when they fill, area heals on the
 *      most wounded ally, strikes on heroes in reach (ground spells lead a
 *      moving target by its velocity over the last think), the last W charge
 *      kept unless it kills; potions by thresholds, HP/mana over time only
 *      when no enemy hero is near; poison on a hero target.
 *   5. back off: from tower aggro (unless allied creeps tank it and HP is
 *      high) and when outnumbered by visible enemy heroes; kite a melee hero
 *      when ranged and hurt.
 *   6. fight the best-scored target, else move: in the keep buy boots, 2
 *      health potions, 2 portal scrolls, 2 mana potions, then a role item and
 *      its consumable; before level 6 frontline+mage take side lane 0,
 *      carry+support side lane 2, the fighter mid, following the lane's
 *      allied creep front (waiting at the own front tower without one);
 *      from level 6 the team pushes mid: the next standing enemy structure
 *      of mid, then the guards, then the god. When safe (HP over 70 %, no
 *      enemy hero seen, level 3+), a resting camp near the allied creep front
 *      is pulled: hit a member, then walk into the wave.
 */
#include "sim/world.h"
#include "sim/fixmath.h"

static const int LEVEL_ORDER[4] = {3, 1, 2, 0};

#define T GOTA_TILE
#define NEAR_HEROES (10 * T)
#define DODGE_TICKS 72
#define THREAT_NEAR (8 * T)

typedef struct {
    int seat, slot, team, enemy;
    const GotaUnit *me;
    HeroState *h;
    BotState *b;
    const HeroClassDef *cls;
    int32_t x, z;
    /* perception */
    int best;               /* best-scored target slot, -1 */
    int32_t best_score;
    int enemy_near, ally_near;   /* heroes within NEAR_HEROES (allies include itself) */
    int enemy_hero_near;    /* nearest enemy hero slot within 12 tiles, -1 */
    int64_t enemy_hero_d2;
    int melee_threat;       /* a melee enemy hero within 2.5 tiles, -1 */
    int tower_aggro;        /* an enemy tower targeting it, -1 */
    int wounded;            /* most wounded allied hero (lowest HP per mille) within 5 tiles, -1 */
    int32_t wounded_pm;
    int front;              /* allied lane creep furthest along its lane, -1 */
    int64_t front_d2;       /* its squared distance to the enemy god */
    int allies_creeps_near; /* allied creeps within 8 tiles */
    int neutral_on_me;      /* a neutral attacking it, -1 */
    int neutral_near;       /* nearest attackable neutral within 10 tiles, -1 */
    int64_t neutral_d2;
} View;

static int32_t per_mille(int32_t v, int32_t max)
{
    return max > 0 ? (int32_t)((int64_t)v * 1000 / max) : 0;
}

static int is_building(int kind)
{
    return kind == GOTA_KIND_TOWER || kind == GOTA_KIND_BARRACKS || kind == GOTA_KIND_GOD;
}

/* Allied creeps within 5 tiles of building slot t (they draw its fire). */
static int creeps_near(const GotaMatch *m, int team, int t)
{
    int n = 0;
    const int64_t r2 = (int64_t)(5 * T) * (5 * T);
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (u->alive && u->team == team && u->kind == GOTA_KIND_CREEP &&
            fx_dist2(u->x, u->z, m->unit[t].x, m->unit[t].z) <= r2)
            n++;
    }
    return n;
}

static void offer(View *v, int i, int32_t score)
{
    if (score > v->best_score) {
        v->best = i;
        v->best_score = score;
    }
}

static void perceive(GotaMatch *m, View *v)
{
    const int64_t near2 = (int64_t)NEAR_HEROES * NEAR_HEROES;
    const int32_t reach = v->me->range;
    int32_t god_x, god_z;
    bot_building_spot(m, MAP_IDX_GOD(v->enemy), &god_x, &god_z);
    int lane = v->b->lane, push = v->h->level >= 6;
    v->best = v->enemy_hero_near = v->melee_threat = v->tower_aggro = v->wounded = v->front = -1;
    v->neutral_on_me = v->neutral_near = -1;
    v->best_score = 0;
    v->enemy_near = v->ally_near = v->allies_creeps_near = 0;
    v->wounded_pm = 1000;
    for (int i = 0; i < m->unit_n; i++) {
        const GotaUnit *u = &m->unit[i];
        if (!u->alive || u->kind == GOTA_KIND_NONE) continue;
        int64_t d2 = fx_dist2(v->x, v->z, u->x, u->z);
        if (u->team == v->team) {
            if (u->kind == GOTA_KIND_HERO) {
                if (d2 <= near2) v->ally_near++;
                int32_t pm = per_mille(u->hp, u->max_hp);
                if (d2 <= (int64_t)(5 * T) * (5 * T) && pm < v->wounded_pm) {
                    v->wounded = i;
                    v->wounded_pm = pm;
                }
            } else if (u->kind == GOTA_KIND_CREEP) {
                if (d2 <= (int64_t)(8 * T) * (8 * T)) v->allies_creeps_near++;
                if (u->lane == (push ? 1 : lane)) {
                    int64_t g = fx_dist2(u->x, u->z, god_x, god_z);
                    if (v->front < 0 || g < v->front_d2) {
                        v->front = i;
                        v->front_d2 = g;
                    }
                }
            }
            continue;
        }
        if (!m->seen[v->team][i]) continue;
        int attackable = unit_attackable(m, i);
        int on_me = u->target_id == v->me->id;
        int64_t in_reach = (int64_t)(reach + 2 * T) * (reach + 2 * T);
        switch (u->kind) {
        case GOTA_KIND_HERO: {
            if (d2 <= near2) v->enemy_near++;
            if (d2 <= (int64_t)(12 * T) * (12 * T) && (v->enemy_hero_near < 0 || d2 < v->enemy_hero_d2)) {
                v->enemy_hero_near = i;
                v->enemy_hero_d2 = d2;
            }
            if (HERO_CLASS[u->sub].style == STYLE_MELEE && d2 <= (int64_t)(150000) * 150000) v->melee_threat = i;
            if (d2 > in_reach) break;
            int32_t pm = per_mille(u->hp, u->max_hp);
            if (u->hp <= 3 * v->me->damage || pm < 350) offer(v, i, 900 - pm / 4);
            else if (on_me) offer(v, i, 600);
            else offer(v, i, 500 - pm / 4);
            break;
        }
        case GOTA_KIND_CREEP:
            if (on_me && d2 <= in_reach) offer(v, i, 450);
            if (d2 > in_reach) break;
            if (u->hp <= v->me->damage) offer(v, i, 800 - u->hp);
            else offer(v, i, 300 - u->hp);
            break;
        case GOTA_KIND_NEUTRAL:
            if (!attackable) break;
            if (on_me) {
                v->neutral_on_me = i;
                offer(v, i, 350);
            }
            if (!camp_fighting(m, i) && d2 <= (int64_t)(10 * T) * (10 * T) &&
                (v->neutral_near < 0 || d2 < v->neutral_d2)) {
                v->neutral_near = i;
                v->neutral_d2 = d2;
            }
            break;
        case GOTA_KIND_TOWER:
            if (on_me) v->tower_aggro = i;
            /* fall through */
        case GOTA_KIND_BARRACKS:
            if (!attackable || d2 > (int64_t)(reach + 8 * T) * (reach + 8 * T)) break;
            if (u->kind == GOTA_KIND_BARRACKS || creeps_near(m, v->team, i) >= 2 || v->ally_near >= 3)
                offer(v, i, 400);
            break;
        case GOTA_KIND_GOD:
            if (attackable && d2 <= (int64_t)(12 * T) * (12 * T)) offer(v, i, 1000);
            break;
        default:
            break;
        }
    }
}

/* ---- movement helpers -------------------------------------------------- */
/* A point `dist` from (x, z) directly away from (fx, fz). */
static void away(int32_t x, int32_t z, int32_t fx, int32_t fz, int32_t dist, int32_t *ox, int32_t *oz)
{
    int64_t dx = (int64_t)x - fx, dz = (int64_t)z - fz;
    int64_t len = fx_isqrt64((uint64_t)(dx * dx + dz * dz));
    if (len == 0) {
        dx = 1;
        len = 1;
    }
    *ox = x + (int32_t)(dx * dist / len);
    *oz = z + (int32_t)(dz * dist / len);
    const int32_t lim = MAP_HALF_WORLD - 2 * T;
    if (*ox < -lim) *ox = -lim;
    if (*ox > lim) *ox = lim;
    if (*oz < -lim) *oz = -lim;
    if (*oz > lim) *oz = lim;
}

static void go_home(GotaMatch *m, View *v)
{
    bot_move(m, v->seat, GOTA_CMD_WALK, v->h->spawn_x, v->h->spawn_z);
}

static int in_spawn(const GotaMatch *m, const View *v)
{
    uint8_t room = v->team == GOTA_TEAM_RED ? GOTA_REGION_RED_SPAWN : GOTA_REGION_BLUE_SPAWN;
    return (m->map->region[map_index_of(v->x, v->z)] & room) != 0;
}

/* ---- dodge ------------------------------------------------------------- */
/* The eight ways out of a spell's shape, tried in this order, in the team
 * frame (blue's negated): the first is +x for red, toward its own side. */
static const int8_t DIR8[8][2] = {{10, 0}, {7, 7}, {0, 10}, {-7, 7}, {-10, 0}, {-7, -7}, {0, -10}, {7, -7}};

static int dodge(GotaMatch *m, View *v)
{
    for (int k = 0; k < m->spell_n; k++) {
        const Spell *s = &m->spell[k];
        if (s->team == v->team || s->impact_tick - m->tick > DODGE_TICKS) continue;
        const AbilityDef *a = &HERO_CLASS[s->cls].ability[s->ability];
        if (a->cast != CAST_AREA || a->effect != EFFECT_DAMAGE) continue;
        if (!vision_sees_point(&m->vision, v->team, s->aim_x, s->aim_z)) continue;
        if (!ability_shape_contains(s, a, v->x, v->z)) continue;
        int32_t step = a->radius + T;
        if (step > 4 * T) step = 4 * T;
        int sign = v->team == GOTA_TEAM_BLUE ? -1 : 1;   /* the directions in the team frame */
        for (int d = 0; d < 8; d++) {
            int32_t x = v->x + sign * (DIR8[d][0] * step / 10), z = v->z + sign * (DIR8[d][1] * step / 10);
            if (!map_world_inside(x, z) || !m->map->walkable[map_index_of(x, z)]) continue;
            if (ability_shape_contains(s, a, x, z)) continue;
            bot_move(m, v->seat, GOTA_CMD_WALK, x, z);
            return 1;
        }
    }
    return 0;
}

/* ---- spells and items ---------------------------------------------------- */
static int can_cast(const View *v, int a)
{
    const HeroState *h = v->h;
    return h->rank[a] > 0 && h->cooldown[a] == 0 && h->charges[a] > 0 && h->mana >= v->cls->ability[a].mana &&
           h->silence == 0;
}

/* Where enemy hero slot t will stand in `ticks`, from its velocity since the
 * bot's previous sighting (its own spot when unknown). */
static void lead(const GotaMatch *m, const View *v, int t, int32_t ticks, int32_t *x, int32_t *z)
{
    const GotaUnit *u = &m->unit[t];
    int k = (u->id - HERO_ID_BASE) % SEATS_PER_TEAM;
    *x = u->x;
    *z = u->z;
    int32_t dt = m->tick - v->b->enemy_tick[k];
    if (v->b->enemy_tick[k] == 0 || dt <= 0 || dt > 2 * BOT_THINK_EVERY) return;
    *x += (int32_t)((int64_t)(u->x - v->b->enemy_x[k]) * ticks / dt);
    *z += (int32_t)((int64_t)(u->z - v->b->enemy_z[k]) * ticks / dt);
}

/* One damaging ability at enemy slot t if it reaches; 1 if cast. */
static int strike(GotaMatch *m, View *v, int a, int t)
{
    const AbilityDef *ad = &v->cls->ability[a];
    const GotaUnit *u = &m->unit[t];
    int64_t d2 = fx_dist2(v->x, v->z, u->x, u->z);
    if (ad->cast == CAST_MELEE || ad->cast == CAST_PROJECTILE) {
        if (d2 > (int64_t)ad->range * ad->range) return 0;
        return bot_command(m, v->seat, GOTA_CMD_CAST_TARGET, u->id, 0, 0, a, 0) == GOTA_ACT_OK;
    }
    if (ad->anchor == ANCHOR_CASTER) {   /* shapes drawn from the caster: the target must be inside */
        int32_t r = ad->radius;
        if (d2 > (int64_t)r * r * 81 / 100 || (ad->inner && d2 < (int64_t)ad->inner * ad->inner)) return 0;
        return bot_command(m, v->seat, GOTA_CMD_CAST_POINT, 0, u->x, u->z, a, 0) == GOTA_ACT_OK;
    }
    int32_t x, z;
    if (u->kind == GOTA_KIND_HERO) lead(m, v, t, ad->delay, &x, &z);
    else {
        x = u->x;
        z = u->z;
    }
    if (fx_dist2(v->x, v->z, x, z) > (int64_t)ad->range * ad->range || !vision_sees_point(&m->vision, v->team, x, z)) {
        x = u->x;
        z = u->z;
        if (d2 > (int64_t)ad->range * ad->range) return 0;
    }
    return bot_command(m, v->seat, GOTA_CMD_CAST_POINT, 0, x, z, a, 0) == GOTA_ACT_OK;
}

static void spells(GotaMatch *m, View *v)
{
    const HeroState *h = v->h;
    for (int k = 0; k < 4; k++) {
        int a = LEVEL_ORDER[k];
        if (!can_cast(v, a)) continue;
        const AbilityDef *ad = &v->cls->ability[a];
        int32_t amount = ability_scaled(ad->amount, h->rank[a]);
        if (ad->effect == EFFECT_RESTORE) {
            if (h->mana + amount <= h->max_mana) bot_command(m, v->seat, GOTA_CMD_CAST_TARGET, v->me->id, 0, 0, a, 0);
            continue;
        }
        if (ad->effect == EFFECT_HEAL) {
            if (ad->cast == CAST_SELF) {
                if (v->me->hp + amount <= v->me->max_hp)
                    bot_command(m, v->seat, GOTA_CMD_CAST_TARGET, v->me->id, 0, 0, a, 0);
            } else if (v->wounded >= 0 && v->wounded_pm < 700) {
                const GotaUnit *w = &m->unit[v->wounded];
                int32_t x = ad->anchor == ANCHOR_CASTER ? v->x : w->x, z = ad->anchor == ANCHOR_CASTER ? v->z : w->z;
                if (ad->anchor != ANCHOR_CASTER || fx_dist2(v->x, v->z, w->x, w->z) <= (int64_t)ad->radius * ad->radius)
                    bot_command(m, v->seat, GOTA_CMD_CAST_POINT, 0, x, z, a, 0);
            }
            continue;
        }
        /* strikes: enemy heroes; W and zero-mana Q also at creeps and buildings */
        int t = v->best;
        if (t < 0) continue;
        const GotaUnit *u = &m->unit[t];
        int hero = u->kind == GOTA_KIND_HERO;
        if (a == 1 && h->charges[1] < 2 && !(hero && u->hp <= amount)) continue;   /* keep the last W */
        if (!hero) {
            int farm = (a == 1 && h->charges[1] == W_CHARGES && h->mana * 10 > h->max_mana * 6) ||
                       (a == 0 && ad->mana == 0) || (is_building(u->kind) && h->mana * 10 > h->max_mana * 7);
            if (!farm || (ad->cast == CAST_AREA && !is_building(u->kind))) continue;
        }
        strike(m, v, a, t);
    }
}

static void potions(GotaMatch *m, View *v)
{
    const HeroState *h = v->h;
    int calm = v->enemy_hero_near < 0 && v->tower_aggro < 0;
    int32_t hp = per_mille(v->me->hp, v->me->max_hp), mana = per_mille(h->mana, h->max_mana);
    static const int HEAL_NOW[] = {2}, HEAL_SLOW[] = {1}, MANA_NOW[] = {3}, MANA_SLOW[] = {22}, POISON[] = {4};
    if (h->hp_item_cd == 0 && h->hp_regen_total == 0) {
        int used = hp < 350 && bot_use_first(m, v->seat, HEAL_NOW, 1);
        if (!used && hp < 550 && calm) bot_use_first(m, v->seat, HEAL_SLOW, 1);
    }
    if (h->mana_item_cd == 0 && h->mana_regen_total == 0) {
        int used = mana < 250 && bot_use_first(m, v->seat, MANA_NOW, 1);
        if (!used && mana < 400 && calm) bot_use_first(m, v->seat, MANA_SLOW, 1);
    }
    int t = unit_target_slot(m, v->slot);
    if (t >= 0 && m->unit[t].kind == GOTA_KIND_HERO && bot_enemy_ok(m, v->team, t, 0) &&
        unit_attack_reach_ok(m, v->slot, t, v->x, v->z))
        bot_use_first(m, v->seat, POISON, 1);
}

/* boots, 2 health potions, 2 scrolls, 2 mana potions, then the role's item
 * and consumable: frontline armor + vitality elixirs, carry crossbow +
 * poison, mage / support spellbook + mana elixirs, fighter axe + elixirs */
static void shop(GotaMatch *m, View *v)
{
    if (!bot_in_shop(m, v->seat)) return;
    static const int ROLE_ITEM[ROLES][2] = {{16, 2}, {19, 4}, {20, 3}, {20, 3}, {18, 2}};
    const int *role = ROLE_ITEM[v->cls->role];
    if (!bot_buy(m, v->seat, 8) && bot_item_slot(m, v->seat, 8) < 0) return;   /* boots first */
    static const int STOCK[3][2] = {{1, 2}, {21, 2}, {22, 2}};
    for (int k = 0; k < 3; k++)
        while (bot_item_count(m, v->seat, STOCK[k][0]) < STOCK[k][1])
            if (!bot_buy(m, v->seat, STOCK[k][0])) return;
    if (bot_item_slot(m, v->seat, role[0]) < 0 && !bot_buy(m, v->seat, role[0])) return;
    while (bot_item_count(m, v->seat, role[1]) < 2)
        if (!bot_buy(m, v->seat, role[1])) return;
}

/* ---- goals --------------------------------------------------------------- */
/* Whether the team has seen enemy building b fall (else it counts as standing). */
static int standing(const GotaMatch *m, int team, int b)
{
    return !m->seen_destroyed[team][b];
}

/* The push target: mid's next standing enemy tower, its barracks, the
 * guards, then the god. */
static int push_target(const GotaMatch *m, int team)
{
    int enemy = 1 - team;
    for (int tier = 0; tier < 3; tier++)
        if (standing(m, team, MAP_IDX_TOWER(1, enemy, tier))) return MAP_IDX_TOWER(1, enemy, tier);
    for (int s = 0; s < 2; s++)
        if (standing(m, team, MAP_IDX_BARRACKS(1, enemy, s))) return MAP_IDX_BARRACKS(1, enemy, s);
    for (int j = 0; j < 2; j++)
        if (standing(m, team, MAP_IDX_GUARD(enemy, j))) return MAP_IDX_GUARD(enemy, j);
    return MAP_IDX_GOD(enemy);
}

static void lane_goal(GotaMatch *m, View *v, int32_t *x, int32_t *z)
{
    int32_t gx, gz;
    bot_building_spot(m, MAP_IDX_GOD(v->team), &gx, &gz);
    if (v->front >= 0) {   /* just behind the wave */
        const GotaUnit *f = &m->unit[v->front];
        away(f->x, f->z, -gx, -gz, T, x, z);   /* the enemy god stands at (-gx, -gz) */
        return;
    }
    int lane = v->h->level >= 6 ? 1 : v->b->lane, slot = m->lane_front[v->team][lane];
    if (slot >= 0) {
        *x = m->unit[slot].x;
        *z = m->unit[slot].z;
    } else {
        bot_building_spot(m, MAP_IDX_GUARD(v->team, 0), x, z);
    }
}

static int try_pull(GotaMatch *m, View *v)
{
    BotState *b = v->b;
    if (b->mode == PULL_PULL) {
        if (m->tick > b->mode_until || v->front < 0) {
            b->mode = PULL_LANE;
            return 0;
        }
        if (v->neutral_on_me >= 0) {   /* drag it into the wave */
            const GotaUnit *f = &m->unit[v->front];
            bot_move(m, v->seat, GOTA_CMD_WALK, f->x, f->z);
            return 1;
        }
        if (v->neutral_near >= 0) {
            bot_attack(m, v->seat, v->neutral_near);
            return 1;
        }
        b->mode = PULL_LANE;
        return 0;
    }
    if (v->h->level < 3 || v->enemy_hero_near >= 0 || per_mille(v->me->hp, v->me->max_hp) < 700 ||
        v->neutral_near < 0 || v->front < 0 || v->best_score >= 450)
        return 0;
    const GotaUnit *n = &m->unit[v->neutral_near], *f = &m->unit[v->front];
    if (fx_dist2(n->x, n->z, f->x, f->z) > (int64_t)(9 * T) * (9 * T)) return 0;
    b->mode = PULL_PULL;
    b->mode_until = m->tick + 240;
    bot_attack(m, v->seat, v->neutral_near);
    return 1;
}

/* Defence: a visible enemy hero within 9 tiles of one of the team's own
 * front towers, guards or god; the slot of the nearest such hero to the bot
 * (-1 none). Own buildings are the team's own state. */
static int threatened(const GotaMatch *m, const View *v)
{
    int own[6], n = 0, best = -1;
    int64_t best_d = 0;
    for (int l = 0; l < 3; l++)
        if (m->lane_front[v->team][l] >= 0) own[n++] = m->lane_front[v->team][l];
    for (int j = 0; j < 2; j++)
        if (m->building_alive[MAP_IDX_GUARD(v->team, j)]) own[n++] = m->building_slot[MAP_IDX_GUARD(v->team, j)];
    own[n++] = m->god_slot[v->team];
    const int64_t r2 = (int64_t)(9 * T) * (9 * T);
    for (int k = 0; k < SEATS_PER_TEAM; k++) {
        int e = m->hero_slot[v->enemy * SEATS_PER_TEAM + k];
        const GotaUnit *u = &m->unit[e];
        if (!u->alive || !m->seen[v->team][e]) continue;
        for (int i = 0; i < n; i++) {
            if (fx_dist2(u->x, u->z, m->unit[own[i]].x, m->unit[own[i]].z) > r2) continue;
            int64_t d = fx_dist2(v->x, v->z, u->x, u->z);
            if (best < 0 || d < best_d) {
                best = e;
                best_d = d;
            }
            break;
        }
    }
    return best;
}

/* ---- the think ----------------------------------------------------------- */
static void remember_enemies(GotaMatch *m, View *v)
{
    int first = v->enemy * SEATS_PER_TEAM;
    for (int k = 0; k < SEATS_PER_TEAM; k++) {
        int slot = m->hero_slot[first + k];
        const GotaUnit *u = &m->unit[slot];
        if (u->alive && m->seen[v->team][slot]) {
            v->b->enemy_x[k] = u->x;
            v->b->enemy_z[k] = u->z;
            v->b->enemy_tick[k] = m->tick;
        }
    }
}

void bot_puller_think(GotaMatch *m, int seat)
{
    View v;
    v.seat = seat;
    v.slot = m->hero_slot[seat];
    v.me = &m->unit[v.slot];
    v.h = &m->hero[seat];
    v.b = &m->bot[seat];
    v.team = v.me->team;
    v.enemy = 1 - v.team;
    v.cls = &HERO_CLASS[v.h->cls];
    v.x = v.me->x;
    v.z = v.me->z;
    BotState *b = v.b;
    if (b->lane < 0) {   /* Red's frame: frontline + mage lane 0, carry + support lane 2, fighter mid */
        static const int LANE_OF_ROLE[ROLES] = {0, 2, 0, 2, 1};
        int lane = LANE_OF_ROLE[v.cls->role];
        b->lane = v.team == GOTA_TEAM_RED ? lane : 2 - lane;
    }
    bot_level(m, seat, LEVEL_ORDER);
    if (!v.me->alive) {
        b->mode = PULL_LANE;
        if (v.h->gold >= v.h->buyback_price && v.h->respawn_at - m->tick > 120)
            bot_command(m, seat, GOTA_CMD_BUYBACK, 0, 0, 0, 0, 0);
        return;
    }
    if (v.h->channel > 0 || v.h->stun > 0) return;
    perceive(m, &v);
    int32_t hp = per_mille(v.me->hp, v.me->max_hp), mana = per_mille(v.h->mana, v.h->max_mana);
    int caster = v.cls->style == STYLE_MAGIC;
    if (dodge(m, &v)) goto done;
    potions(m, &v);
    if (hp < 250 || (caster && mana < 150 && v.h->level >= 3)) b->mode = PULL_RETREAT;
    if (b->mode == PULL_RETREAT) {
        if (in_spawn(m, &v)) {
            shop(m, &v);
            if (hp >= 900 && mana >= 600) b->mode = PULL_LANE;
            else goto done;
        } else {
            int32_t gx, gz;
            bot_building_spot(m, MAP_IDX_GUARD(v.team, 0), &gx, &gz);
            int scroll = bot_item_slot(m, seat, 21);
            int far = fx_dist2(v.x, v.z, v.h->spawn_x, v.h->spawn_z) > (int64_t)(30 * T) * (30 * T);
            if (scroll >= 0 && far && v.h->portal_cd == 0 && v.h->root == 0 &&
                (v.enemy_hero_near < 0 || v.enemy_hero_d2 > (int64_t)THREAT_NEAR * THREAT_NEAR))
                bot_command(m, seat, GOTA_CMD_USE_ITEM_AT, 0, gx, gz, scroll, 0);
            else
                go_home(m, &v);
            spells(m, &v);   /* self heals on the way */
            goto done;
        }
    }
    spells(m, &v);
    if (v.tower_aggro >= 0 && (hp < 600 || creeps_near(m, v.team, v.tower_aggro) < 2)) {
        int32_t x, z;
        away(v.x, v.z, m->unit[v.tower_aggro].x, m->unit[v.tower_aggro].z, 4 * T, &x, &z);
        bot_move(m, seat, GOTA_CMD_WALK, x, z);
        goto done;
    }
    if (v.enemy_near >= 2 && v.enemy_near > v.ally_near && !(v.best >= 0 && v.best_score >= 850)) {
        const GotaUnit *e = &m->unit[v.enemy_hero_near >= 0 ? v.enemy_hero_near : v.slot];
        int32_t x, z;
        away(v.x, v.z, e->x, e->z, 5 * T, &x, &z);
        bot_move(m, seat, GOTA_CMD_WALK, x, z);
        goto done;
    }
    if (v.cls->style != STYLE_MELEE && v.melee_threat >= 0 && hp < 700 && m->tick >= b->mode_until) {
        const GotaUnit *e = &m->unit[v.melee_threat];
        int32_t x, z;
        away(v.x, v.z, e->x, e->z, 3 * T, &x, &z);
        bot_move(m, seat, GOTA_CMD_WALK, x, z);
        b->mode_until = m->tick + 3 * BOT_THINK_EVERY;   /* then fight for a while */
        goto done;
    }
    if (try_pull(m, &v)) goto done;
    if (v.best >= 0) {
        bot_attack(m, seat, v.best);
        goto done;
    }
    shop(m, &v);
    int32_t x, z;
    int threat = threatened(m, &v);
    if (threat >= 0) {   /* defend the own buildings, all together */
        bot_move(m, seat, GOTA_CMD_ATTACK_MOVE, m->unit[threat].x, m->unit[threat].z);
        goto done;
    }
    if (v.h->level >= 6) {
        b->mode = PULL_PUSH;
        int t = push_target(m, v.team);
        if (v.front >= 0 && t != MAP_IDX_GOD(v.enemy)) lane_goal(m, &v, &x, &z);
        else bot_building_spot(m, t, &x, &z);
    } else {
        lane_goal(m, &v, &x, &z);
    }
    bot_move(m, seat, GOTA_CMD_ATTACK_MOVE, x, z);
done:
    b->last_hp = v.me->hp;
    remember_enemies(m, &v);
}
