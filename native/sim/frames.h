/*
 * frames.h -- internal helpers of frames.c (the public call, gota_match_frame,
 * and its records are in gota.h).
 */
#ifndef GOTA_FRAMES_H
#define GOTA_FRAMES_H
#include <stdint.h>
#include "gota.h"
#include "map.h"
#include "vision.h"

/* One fog bitmap holds a bit per tile. */
_Static_assert(GOTA_FRAME_FOG_BYTES == (MAP_TILES + 7) / 8, "GOTA_FRAME_FOG_BYTES must cover every tile");

/* A team's visible tiles as GOTA_FRAME_FOG_BYTES bytes: bit tz * 116 + tx of the
 * row-major tile index, least significant bit first. */
void frames_fog_bits(const Vision *v, int team, uint8_t *out);

#endif
