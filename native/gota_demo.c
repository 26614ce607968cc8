/*
 * gota_demo.c -- plays one seeded match without Python and prints its hash.
 * Usage: gota_demo [SEED [TICKS]]   (defaults 2026, 28800)
 * Output: hash=0x... tick=N result=R winner=W god_hp=R/B
 *
 * The heroes follow a fixed script every 48 ticks (tests/regen_golden.py plays
 * the same one through Python): spend points R, W, E, Q; with a target, cast W
 * at it and E and R at its position; without one, attack-move to the enemy god.
 * The determinism tests build this at -O0 and -O2 and compare the hashes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "gota.h"

#define SCRIPT_EVERY 48

static const GotaUnit *unit_by_id(const GotaUnit *units, int32_t n, int32_t id)
{
    for (int32_t i = 0; i < n; i++)
        if (units[i].kind != GOTA_KIND_NONE && units[i].id == id) return &units[i];
    return NULL;
}

static void command(GotaMatch *m, int seat, int32_t verb, int32_t target, int32_t x, int32_t z, int32_t slot)
{
    GotaCommand c = {verb, target, x, z, slot, 0};
    gota_match_command(m, seat, &c, NULL);
}

static void script(GotaMatch *m)
{
    static const int32_t level_order[4] = {3, 1, 2, 0};
    const GotaUnit *units;
    int32_t n;
    gota_match_units(m, &units, &n);
    for (int seat = 0; seat < GOTA_SEATS; seat++) {
        GotaHero h;
        if (gota_match_hero(m, seat, &h) != GOTA_OK) return;   /* a match without heroes */
        const GotaUnit *me = &units[h.unit_index];
        for (int k = 0; k < 4; k++) command(m, seat, GOTA_CMD_LEVEL, 0, 0, 0, level_order[k]);
        if (!me->alive) continue;
        const GotaUnit *target = me->target_id >= 0 ? unit_by_id(units, n, me->target_id) : NULL;
        if (target) {
            command(m, seat, GOTA_CMD_CAST_TARGET, target->id, 0, 0, 1);
            command(m, seat, GOTA_CMD_CAST_POINT, 0, target->x, target->z, 2);
            command(m, seat, GOTA_CMD_CAST_POINT, 0, target->x, target->z, 3);
        } else {
            for (int32_t i = 0; i < n; i++)
                if (units[i].kind == GOTA_KIND_GOD && units[i].team != me->team)
                    command(m, seat, GOTA_CMD_ATTACK_MOVE, 0, units[i].x, units[i].z, 0);
        }
    }
}

int main(int argc, char **argv)
{
    long long seed = argc > 1 ? atoll(argv[1]) : 2026;
    long long ticks = argc > 2 ? atoll(argv[2]) : GOTA_MAX_BATTLE_TICKS;
    GotaConfig cfg;
    gota_config_default(&cfg);
    int err = gota_config_set(&cfg, "seed", seed);
    if (err == GOTA_OK) err = gota_config_set(&cfg, "max_ticks", ticks);
    if (err != GOTA_OK) {
        fprintf(stderr, "gota_demo: bad argument: %s\n", gota_error_text(err));
        return 2;
    }
    GotaMatch *m = gota_match_new(&cfg, &err);
    if (!m) {
        fprintf(stderr, "gota_demo: %s\n", gota_error_text(err));
        return 1;
    }
    int32_t ran = 0;
    GotaMatchInfo info;
    do {
        script(m);
        err = gota_match_step(m, SCRIPT_EVERY, &ran);
        gota_match_info(m, &info);
    } while (err == GOTA_OK && info.result == GOTA_RESULT_RUNNING);
    uint64_t hash = 0;
    gota_match_hash(m, &hash);
    printf("hash=0x%016llx tick=%d result=%d winner=%d god_hp=%d/%d\n", (unsigned long long)hash, info.tick,
           info.result, info.winner, info.god_hp[0], info.god_hp[1]);
    gota_match_free(m);
    return err == GOTA_OK ? 0 : 1;
}
