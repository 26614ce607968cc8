/*
 * content.c -- hero classes, abilities and items, content version A
 * (docs/rules.md sections 0, 3.1, 3.2 and 4). Rank-1 values; ranks scale
 * damage, heal and restore (content.h: ability_scaled).
 *
 * Where the rules give no number: self-casts and strikes without a listed mana
 * cost cost 0; shapes drawn from the caster have a cast range equal to their
 * length (the aim only gives the direction); the nine W strikes have a cast
 * cooldown of 48 and recharge 288 per charge; projectiles have no delay beyond
 * their flight.
 */
#include "content.h"

#define SELF(n, eff, amt, cd) \
    { .name = n, .cast = CAST_SELF, .effect = eff, .amount = amt, .cooldown = cd, .charges = 1, .recharge = cd }
#define W_STRIKE(n, kind, amt, cost, rng)                                                              \
    { .name = n, .cast = kind, .effect = EFFECT_DAMAGE, .amount = amt, .mana = cost, .range = rng,     \
      .cooldown = W_CAST_COOLDOWN, .charges = W_CHARGES, .recharge = W_RECHARGE }
#define PROJECTILE(n, amt, cost, rng, cd)                                                              \
    { .name = n, .cast = CAST_PROJECTILE, .effect = EFFECT_DAMAGE, .amount = amt, .mana = cost,        \
      .range = rng, .cooldown = cd, .charges = 1, .recharge = cd }
/* an area spell: shape, anchor, rank-1 amount, mana, cast range, cooldown,
 * delay, radius or length; extra fields (width, angle, inner, controls) follow */
#define AREA(n, eff, shp, anc, amt, cost, rng, cd, dly, r)                                              \
    .name = n, .cast = CAST_AREA, .effect = eff, .shape = shp, .anchor = anc, .amount = amt,           \
    .mana = cost, .range = rng, .cooldown = cd, .delay = dly, .radius = r, .charges = 1, .recharge = cd

const HeroClassDef HERO_CLASS[HERO_CLASSES] = {
    {"Vanguard Knight", ROLE_FRONTLINE, STYLE_MELEE, 330, 60, 110, 8, 25, 5, 5800, 60, 70000, 24, {
        SELF("Lion Guard", EFFECT_HEAL, 28, 192),
        W_STRIKE("Firebrand Sword", CAST_MELEE, 40, 20, 90000),
        {AREA("Inferno Aegis", EFFECT_HEAL, SHAPE_CIRCLE, ANCHOR_CASTER, 50, 35, 0, 240, 12, 140000)},
        {AREA("Blazing Blade", EFFECT_DAMAGE, SHAPE_SECTOR, ANCHOR_CASTER, 72, 70, 110000, 480, 6, 110000), .angle = 120,
         .stun = 24},
    }},
    {"Ranger", ROLE_CARRY, STYLE_RANGED, 200, 29, 110, 8, 25, 6, 6900, 90, 330000, 18, {
        PROJECTILE("Dragon Sight", 16, 0, 420000, 216),
        W_STRIKE("Verdant Arrow", CAST_PROJECTILE, 32, 18, 360000),
        {AREA("Ricochet Disc", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 48, 32, 390000, 192, 24, 120000)},
        {AREA("Storm Eagle", EFFECT_DAMAGE, SHAPE_LINE, ANCHOR_CASTER, 95, 80, 480000, 576, 24, 480000), .width = 90000},
    }},
    {"Arcanist", ROLE_MAGE, STYLE_MAGIC, 190, 30, 180, 15, 38, 8, 6200, 70, 300000, 30, {
        SELF("Mana Crystal", EFFECT_RESTORE, 28, 144),
        W_STRIKE("Frost Lance", CAST_PROJECTILE, 42, 28, 330000),
        {AREA("Meteor Strike", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 70, 53, 360000, 216, 48, 120000)},
        {AREA("Arcane Meteor", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 120, 100, 420000, 600, 72, 180000)},
    }},
    {"Druid Warden", ROLE_SUPPORT, STYLE_MAGIC, 250, 48, 170, 14, 22, 4, 6400, 70, 240000, 26, {
        SELF("Nature Talisman", EFFECT_HEAL, 22, 192),
        {AREA("Healing Bloom", EFFECT_HEAL, SHAPE_CIRCLE, ANCHOR_AIM, 55, 30, 240000, 168, 12, 120000)},
        {AREA("Kindred Wisps", EFFECT_HEAL, SHAPE_CIRCLE, ANCHOR_AIM, 80, 45, 240000, 288, 12, 150000)},
        {AREA("Golem Seed", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 68, 75, 200000, 528, 24, 120000), .root = 48},
    }},
    {"Demon Hunter", ROLE_FIGHTER, STYLE_MELEE, 220, 36, 90, 7, 32, 7, 7600, 120, 75000, 16, {
        SELF("Shadow Cloak", EFFECT_HEAL, 18, 240),
        W_STRIKE("Void Blade", CAST_MELEE, 38, 16, 90000),
        {AREA("Gale Slash", EFFECT_DAMAGE, SHAPE_SECTOR, ANCHOR_CASTER, 65, 28, 120000, 168, 6, 120000), .angle = 120},
        PROJECTILE("Shadow Comet", 100, 65, 300000, 504),
    }},
    {"Death Knight", ROLE_FRONTLINE, STYLE_MELEE, 350, 62, 90, 8, 30, 6, 5700, 60, 76000, 28, {
        SELF("Sanguine Chalice", EFFECT_HEAL, 45, 192),
        W_STRIKE("Afterlight Sickle", CAST_MELEE, 42, 18, 90000),
        {AREA("Withering Idol", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 60, 36, 160000, 216, 24, 120000)},
        {AREA("Dark Eclipse", EFFECT_DAMAGE, SHAPE_RING, ANCHOR_CASTER, 110, 80, 0, 624, 12, 140000),
         .inner = 40000},
    }},
    {"Crossbowman", ROLE_CARRY, STYLE_RANGED, 230, 42, 80, 6, 58, 9, 6000, 60, 390000, 36, {
        PROJECTILE("Final Measure", 20, 0, 420000, 216),
        W_STRIKE("Siege Scarab", CAST_PROJECTILE, 50, 22, 400000),
        {AREA("Lodestone Surge", EFFECT_DAMAGE, SHAPE_SECTOR, ANCHOR_CASTER, 68, 40, 360000, 240, 12, 360000), .angle = 90},
        {AREA("Clockwork Charge", EFFECT_DAMAGE, SHAPE_CAPSULE, ANCHOR_CASTER, 115, 70, 450000, 552, 24, 450000),
         .width = 90000},
    }},
    {"Lich", ROLE_MAGE, STYLE_MAGIC, 185, 28, 210, 17, 36, 8, 6000, 60, 330000, 32, {
        PROJECTILE("Frost Sigil", 14, 0, 360000, 192),
        W_STRIKE("Ice Spear", CAST_PROJECTILE, 48, 30, 400000),
        {AREA("Bone Marionette", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 53, 48, 300000, 216, 24, 120000), .root = 24},
        {AREA("Bound Void", EFFECT_DAMAGE, SHAPE_RING, ANCHOR_AIM, 125, 110, 390000, 648, 24, 120000), .inner = 40000},
    }},
    {"Warlock", ROLE_SUPPORT, STYLE_MAGIC, 240, 46, 190, 16, 26, 5, 6200, 70, 270000, 28, {
        SELF("Aether Siphon", EFFECT_RESTORE, 30, 168),
        W_STRIKE("Moth Hex", CAST_PROJECTILE, 36, 24, 280000),
        {AREA("Dread Totem", EFFECT_DAMAGE, SHAPE_LINE, ANCHOR_AIM_AWAY, 70, 42, 240000, 216, 24, 240000),
         .width = 60000, .silence = 48},
        {AREA("Void Portal", EFFECT_DAMAGE, SHAPE_RING, ANCHOR_AIM, 105, 90, 300000, 576, 24, 120000), .inner = 40000},
    }},
    {"Berserker", ROLE_FIGHTER, STYLE_MELEE, 300, 55, 40, 4, 38, 8, 6800, 90, 80000, 20, {
        SELF("Rage Crucible", EFFECT_HEAL, 20, 192),
        W_STRIKE("Molten Fist", CAST_MELEE, 45, 0, 90000),
        {AREA("Winged Boot", EFFECT_DAMAGE, SHAPE_SECTOR, ANCHOR_CASTER, 40, 12, 150000, 192, 12, 150000), .angle = 90},
        {AREA("Volcanic Eruption", EFFECT_DAMAGE, SHAPE_CIRCLE, ANCHOR_AIM, 100, 24, 130000, 480, 48, 120000)},
    }},
};

/* name, gold, kind, use, amount, hp, mana, damage, move */
const ItemDef ITEM[ITEM_KINDS] = {
    [0] = {"none", 0, ITEM_CONSUMABLE, USE_NONE, 0, 0, 0, 0, 0},
    [1] = {"Health Potion", 30, ITEM_CONSUMABLE, USE_HEAL_OVER_TIME, 120, 0, 0, 0, 0},
    [2] = {"Vitality Elixir", 75, ITEM_CONSUMABLE, USE_HEAL_NOW, 90, 0, 0, 0, 0},
    [3] = {"Mana Elixir", 90, ITEM_CONSUMABLE, USE_MANA_NOW, 60, 0, 0, 0, 0},
    [4] = {"Poison Potion", 40, ITEM_CONSUMABLE, USE_POISON, 35, 0, 0, 0, 0},
    [5] = {"Steel Helmet", 80, ITEM_EQUIPMENT, USE_NONE, 0, 50, 0, 0, 0},
    [6] = {"Steel Buckler", 90, ITEM_EQUIPMENT, USE_NONE, 0, 60, 0, 0, 0},
    [7] = {"Leather Gauntlets", 70, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 4, 0},
    [8] = {"Ranger Boots", 100, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 0, 800},
    [9] = {"Ruby Amulet", 120, ITEM_EQUIPMENT, USE_NONE, 0, 70, 0, 0, 0},
    [10] = {"Sapphire Ring", 120, ITEM_EQUIPMENT, USE_NONE, 0, 0, 40, 0, 0},
    [11] = {"Crimson Dagger", 110, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 8, 0},
    [12] = {"Amethyst Wand", 140, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 9, 0},
    [13] = {"Sunsteel Longsword", 150, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 10, 0},
    [14] = {"Ranger Bow", 150, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 10, 0},
    [15] = {"Ironbark Pauldrons", 140, ITEM_EQUIPMENT, USE_NONE, 0, 80, 0, 0, 0},
    [16] = {"Knight Armor", 160, ITEM_EQUIPMENT, USE_NONE, 0, 120, 0, 0, 0},
    [17] = {"Thornwood Staff", 170, ITEM_EQUIPMENT, USE_NONE, 0, 40, 0, 6, 0},
    [18] = {"Battle Axe", 180, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 14, 0},
    [19] = {"Rune Crossbow", 180, ITEM_EQUIPMENT, USE_NONE, 0, 0, 0, 14, 0},
    [20] = {"Arcane Spellbook", 190, ITEM_EQUIPMENT, USE_NONE, 0, 0, 30, 12, 0},
    [21] = {"Portal Scroll", 100, ITEM_CONSUMABLE, USE_PORTAL, 0, 0, 0, 0, 0},
    [22] = {"Mana Potion", 45, ITEM_CONSUMABLE, USE_MANA_OVER_TIME, 90, 0, 0, 0, 0},
};
