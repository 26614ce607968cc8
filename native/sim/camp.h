/*
 * camp.h -- the 14 neutral camps (docs/rules.md section 3.5).
 *
 * A camp rests until provoked (a living hero or lane creep within 2 tiles of a
 * member that the member can see, and within 12 tiles of the camp centre; or a
 * member is damaged: the attacker becomes the camp target), then fights: its
 * members chase and hit the nearest seen hero or lane creep inside the leash
 * (12-tile sight for the camp target, 5 otherwise; melee 54,000, period 32, hit
 * at 14). It returns home when a member strays over 12 tiles from the centre,
 * the target dies or leaves the leash, or it has been unseen for 3 s; returning
 * members are untargetable and take no damage, and their controls clear. When
 * all are within 0.5 tile of home they heal fully and rest. Once all are dead
 * the camp respawns 60 s later, delayed while a living hero is within 10 tiles.
 * Camps first spawn on the first battle tick.
 */
#ifndef GOTA_CAMP_H
#define GOTA_CAMP_H
#include <stdint.h>

enum { CAMP_EMPTY = 0, CAMP_RESTING, CAMP_FIGHTING, CAMP_RETURNING };

#define CAMP_PROVOKE_RANGE (2 * 60000)
#define CAMP_LEASH (12 * 60000)
#define CAMP_TARGET_SIGHT (12 * 60000)
#define CAMP_SIGHT (5 * 60000)
#define CAMP_UNSEEN_TICKS 72
#define CAMP_HOME_REACH 30000
#define CAMP_RESPAWN_TICKS 1440
#define CAMP_RESPAWN_BLOCK (10 * 60000)
#define CAMP_MELEE_RANGE 54000
#define CAMP_PERIOD 32
#define CAMP_HIT_TICK 14
#define CAMP_LEADER_RADIUS_Q 30
#define CAMP_MEMBER_RADIUS_Q 22

typedef struct {
    int32_t state;             /* CAMP_* */
    int32_t member[5];         /* unit slots, -1 for none (member k's home: MapCamp.member_x/z[k]) */
    int32_t target, target_id; /* the camp target (slot, id), -1 none */
    int32_t target_seen_tick;  /* last tick a member saw the target */
    int32_t seen_x, seen_z;    /* where the target was last seen (members without a target go there) */
    int32_t respawn_at;        /* tick the camp may respawn, when empty */
    int32_t provoker;          /* this tick: slot of the hero/creep whose hit provokes a resting camp, -1 */
} CampState;

struct GotaMatch;

/* camps.c */
/* Phase "camps" before the units: spawns, provocation, leash, returning. */
void camps_update(struct GotaMatch *m);
/* Members' attacks and movement, in the unit phase. */
void camps_units(struct GotaMatch *m);
/* Phase "camps" after combat: deaths, a damaged member provoking its camp. */
void camps_after_combat(struct GotaMatch *m);
/* A camp member was hit by `attacker` this tick (called by combat). */
void camp_member_hit(struct GotaMatch *m, int member_slot, int attacker_slot);
/* 1 while the neutral's camp is fighting (towers and creeps only fight those). */
int camp_fighting(const struct GotaMatch *m, int neutral_slot);
/* 1 while the neutral is returning home (untargetable, takes no damage). */
int camp_returning(const struct GotaMatch *m, int neutral_slot);

#endif
