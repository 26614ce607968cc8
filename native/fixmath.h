/*
 * fixmath.h -- integer helpers shared by the simulator: square roots, binary
 * angles (65,536 per turn, 0 = +x, 16,384 = +z) and a CORDIC atan2. No floating
 * point anywhere, so results are identical on every machine and build.
 */
#ifndef GOTA_FIXMATH_H
#define GOTA_FIXMATH_H
#include <stdint.h>

/* floor(sqrt(v)) for v >= 0 */
static inline uint32_t fx_isqrt64(uint64_t v)
{
    if (v == 0) return 0;
    /* start at the highest power of four <= v */
    uint64_t r = 0, bit = (uint64_t)1 << ((63 - __builtin_clzll(v)) & ~1);
    while (bit) {   /* branch-free digit step: the comparison becomes a mask */
        uint64_t t = r + bit, take = (uint64_t)0 - (uint64_t)(v >= t);
        v -= t & take;
        r = (r >> 1) + (bit & take);
        bit >>= 2;
    }
    return (uint32_t)r;
}

static inline int64_t fx_dist2(int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    int64_t dx = (int64_t)x1 - x0, dz = (int64_t)z1 - z0;
    return dx * dx + dz * dz;
}

/* Binary angle of the vector (dx, dz): 0 along +x, 16,384 along +z, in
 * [0, 65,536). CORDIC in vectoring mode; exact to about 2 units. (0,0) -> 0. */
static inline int32_t fx_atan2(int64_t dz, int64_t dx)
{
    /* atan(2^-i) in binary angle units * 256 (extra precision) */
    static const int32_t atan_tab[16] = {
        2097152, 1238021, 654136, 332050, 166669, 83416, 41718, 20860,
        10430, 5215, 2608, 1304, 652, 326, 163, 81 };
    if (dx == 0 && dz == 0) return 0;
    int32_t angle = 0;
    /* rotate into the right half plane */
    if (dx < 0) { dx = -dx; dz = -dz; angle = 32768 * 256; }
    /* scale down so the iterations cannot overflow */
    while (dx > ((int64_t)1 << 40) || dz > ((int64_t)1 << 40) || dz < -((int64_t)1 << 40)) { dx >>= 1; dz >>= 1; }
    dx *= 65536; dz *= 65536;
    for (int i = 0; i < 16; i++) {
        int64_t nx, nz;
        if (dz > 0) { nx = dx + (dz >> i); nz = dz - (dx >> i); angle += atan_tab[i]; }
        else { nx = dx - (dz >> i); nz = dz + (dx >> i); angle -= atan_tab[i]; }
        dx = nx; dz = nz;
    }
    int32_t a = (angle + 128) >> 8;
    return a & 0xFFFF;
}

/* signed shortest difference b - a between two binary angles, in [-32768, 32767] */
static inline int32_t fx_angle_diff(int32_t a, int32_t b)
{
    int32_t d = (b - a) & 0xFFFF;
    return d >= 32768 ? d - 65536 : d;
}

#endif
