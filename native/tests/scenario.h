/* scenario.h -- set-up shared by the white-box native tests: a living unit put
 * straight into a match's table, with no target, swing, building or camp. Each
 * test then sets what its scenario needs (speed, range, snapshot, ...). */
#ifndef GOTA_SCENARIO_H
#define GOTA_SCENARIO_H
#include <string.h>
#include "sim/world.h"

static inline int scenario_unit(GotaMatch *m, int kind, int team, int32_t x, int32_t z, int32_t hp)
{
    int slot = unit_alloc(m);
    GotaUnit *u = &m->unit[slot];
    UnitState *s = &m->st[slot];
    memset(u, 0, sizeof *u);
    memset(s, 0, sizeof *s);
    u->id = m->next_id++;
    u->x = x;
    u->z = z;
    u->hp = u->max_hp = hp;
    u->target_id = -1;
    u->kind = (int16_t)kind;
    u->team = (int16_t)team;
    u->alive = 1;
    s->swing = s->target = s->building = s->camp = -1;
    return slot;
}
#endif
