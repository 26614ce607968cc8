/*
 * gota_demo.c -- plays one seeded match without Python and prints its hash.
 * Usage: gota_demo [SEED [TICKS]]   (defaults 2026, 28800)
 * Output: hash=0x... tick=N result=R winner=W god_hp=R/B
 * The determinism tests build this at -O0 and -O2 and compare the hashes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "gota.h"

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
    err = gota_match_step(m, (int32_t)ticks, &ran);
    GotaMatchInfo info;
    uint64_t hash = 0;
    gota_match_info(m, &info);
    gota_match_hash(m, &hash);
    printf("hash=0x%016llx tick=%d result=%d winner=%d god_hp=%d/%d\n", (unsigned long long)hash, info.tick,
           info.result, info.winner, info.god_hp[0], info.god_hp[1]);
    gota_match_free(m);
    return err == GOTA_OK ? 0 : 1;
}
