/*
 * collide.h -- body collision (docs/rules.md section 6): up to
 * NAV_COLLIDE_PASSES relaxation passes push overlapping living bodies apart
 * (half the overlap each, all of it to the free one if the other is pinned),
 * never through walls (nav_move_ok decides each step).
 *
 * The passes read the match's Nav (the walls) and keep their pair lists in
 * it (NavPairs, below), so nav.h includes this header and the calls take the
 * Nav by its struct tag.
 */
#ifndef GOTA_COLLIDE_H
#define GOTA_COLLIDE_H
#include <stdint.h>
#include "map.h"

#define NAV_COLLIDE_PASSES 4
#define NAV_MAX_BODIES 1024         /* nav_collide handles at most this many bodies */
#define NAV_PAIR_CAP 4096           /* collision pairs listed at once */

/* The collision pair list, kept from one nav_collide call to the next: a
 * cache that a call reuses only while it is exact (see collide.c), so it never
 * changes a result. About 28 KiB, little of it touched. */
typedef struct {
    int32_t n, np;                  /* bodies and pairs of the list; np < 0: nothing kept */
    int32_t base_x[NAV_MAX_BODIES], base_z[NAV_MAX_BODIES];   /* positions when listed */
    int32_t radius[NAV_MAX_BODIES]; /* radii when listed, -1: inactive */
    int16_t pi[NAV_PAIR_CAP], pj[NAV_PAIR_CAP];   /* pairs in pass order */
} NavPairs;

/* A body for collision: position in/out, radius in world units. */
typedef struct {
    int32_t x, z, radius;
    uint8_t active;                 /* living body that takes part */
    uint8_t pinned;                 /* stunned, rooted or channeling: does not get pushed */
} NavBody;

struct Nav;                         /* nav.h */

/* Relaxation passes over n bodies (bodies on other layers are not passed in).
 * Keeps its pair list in nav->pairs for the next call. */
void nav_collide(struct Nav *nav, const MapData *map, NavBody *bodies, int n);
/* nav_collide with the bodies taken in reverse order: exactly nav_collide of
 * the reversed array (the passes start with the last body, the lower index
 * of a pair is the later body), the array left in its order. Keeps its own
 * pair list, nav->pairs_reversed, so calls alternating between the two reuse
 * their lists as sequences of one kind do. */
void nav_collide_reversed(struct Nav *nav, const MapData *map, NavBody *bodies, int n);
/* The same passes over every pair, written plainly (O(n^2)): the tests' oracle
 * for nav_collide, which must give bit-identical bodies. */
void nav_collide_reference(const struct Nav *nav, const MapData *map, NavBody *bodies, int n);

#endif
