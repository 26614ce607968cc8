/*
 * content.h -- the game's content tables: the 10 hero classes, their 40
 * abilities and the 22 shop items (docs/rules.md sections 3.1, 3.2 and 4;
 * content version A, docs/rules.md section 0). Static const data, shared by every
 * match. Distances are world units (60,000 per tile), times are ticks (24 per
 * second), angles are degrees.
 */
#ifndef GOTA_CONTENT_H
#define GOTA_CONTENT_H
#include <stdint.h>

#define HERO_CLASSES 10
#define HERO_ABILITIES 4
#define ITEM_KINDS 23            /* ids 1..22; 0 = no item */

/* roles (heroRole) */
enum { ROLE_FRONTLINE = 0, ROLE_CARRY = 1, ROLE_MAGE = 2, ROLE_SUPPORT = 3, ROLE_FIGHTER = 4, ROLES = 5 };
/* attack styles */
enum { STYLE_MELEE = 0, STYLE_RANGED = 1, STYLE_MAGIC = 2 };

/* how an ability is cast */
enum {
    CAST_SELF = 0,        /* Heal/Restore on the caster */
    CAST_MELEE = 1,       /* instant single target strike (range <= 110,000) */
    CAST_PROJECTILE = 2,  /* single target or ground-aimed projectile, 45,000 units/tick */
    CAST_AREA = 3         /* a shape resolved at impact */
};
/* what it does */
enum { EFFECT_DAMAGE = 0, EFFECT_HEAL = 1, EFFECT_RESTORE = 2 };
/* area shapes */
enum { SHAPE_NONE = 0, SHAPE_CIRCLE, SHAPE_SECTOR, SHAPE_LINE, SHAPE_CAPSULE, SHAPE_RING };
/* where an area is anchored */
enum {
    ANCHOR_CASTER = 0,    /* centred on (or starting at) the caster, aimed at the point */
    ANCHOR_AIM = 1,       /* centred on the aim point */
    ANCHOR_AIM_AWAY = 2   /* a line starting at the aim point, going away from the caster */
};

#define PROJECTILE_SPEED 45000
#define CAST_MELEE_MAX_RANGE 110000
#define W_CHARGES 3
#define W_CAST_COOLDOWN 48
#define W_RECHARGE 288

typedef struct {
    const char *name;
    uint8_t cast, effect, shape, anchor;
    int32_t amount;      /* damage, heal or mana restore at rank 1 */
    int32_t mana;        /* mana cost */
    int32_t range;       /* cast range (0: self, or a shape drawn from the caster) */
    int32_t cooldown;    /* ticks after a cast */
    int32_t delay;       /* ticks from cast to impact (before projectile flight) */
    int32_t radius;      /* circle/sector/ring: outer radius; line/capsule: length */
    int32_t inner;       /* ring: inner radius */
    int32_t width;       /* line/capsule: full width */
    int32_t angle;       /* sector: full angle, degrees */
    int32_t charges;     /* 1, or 3 for the W strikes */
    int32_t recharge;    /* ticks per charge */
    int32_t stun, root, silence;   /* control ticks applied on each damaging hit */
} AbilityDef;

typedef struct {
    const char *name;
    int32_t role, style;
    int32_t hp, hp_per_level;
    int32_t mana, mana_per_level;
    int32_t damage, damage_per_level;
    int32_t move, move_per_level;     /* world units per tick */
    int32_t range;                    /* attack range, world units */
    int32_t period;                   /* ticks per attack */
    AbilityDef ability[HERO_ABILITIES];
} HeroClassDef;

enum { ITEM_CONSUMABLE = 0, ITEM_EQUIPMENT = 1 };
enum {   /* consumable effects */
    USE_NONE = 0, USE_HEAL_OVER_TIME, USE_HEAL_NOW, USE_MANA_NOW, USE_POISON, USE_PORTAL, USE_MANA_OVER_TIME
};

typedef struct {
    const char *name;
    int32_t gold;
    int32_t kind;        /* ITEM_CONSUMABLE / ITEM_EQUIPMENT */
    int32_t use;         /* USE_* for consumables */
    int32_t amount;      /* consumables: HP, mana or damage */
    int32_t hp, mana, damage, move;   /* equipment bonuses */
} ItemDef;

extern const HeroClassDef HERO_CLASS[HERO_CLASSES];
extern const ItemDef ITEM[ITEM_KINDS];

/* Effect at rank r (1..) = base * (r + 1) / 2 (x1, x1.5, x2, x2.5). */
static inline int32_t ability_scaled(int32_t base, int32_t rank)
{
    return rank <= 0 ? 0 : base * (rank + 1) / 2;
}

/* XP needed to go from level L to L+1: 100 + 75 (L - 1); level cap 20. */
#define HERO_MAX_LEVEL 20
static inline int32_t xp_to_next(int32_t level) { return 100 + 75 * (level - 1); }

/* Ability ranks: Q/W/E 4 ranks at hero levels 1/3/5/7; R 3 ranks at 6/12/18. */
static inline int32_t ability_max_rank(int slot) { return slot == 3 ? 3 : 4; }
static inline int32_t ability_required_level(int slot, int32_t next_rank)
{
    return slot == 3 ? 6 * next_rank : 2 * next_rank - 1;
}

#endif
