/*
 * fixmath.h -- integer helpers shared by the simulator: square roots, binary
 * angles (65,536 per turn, 0 = +x, 16,384 = +z) and a CORDIC atan2. No floating
 * point anywhere, so results are identical on every machine and build.
 */
#ifndef GOTA_FIXMATH_H
#define GOTA_FIXMATH_H
#include <stdint.h>

/* floor(sqrt(v)) for v >= 0. A table start good to about 7 bits, one or two
 * integer Newton steps (each roughly doubles the good bits; the integer step
 * never lands below the root), then an exact downward fix-up. */
static inline uint32_t fx_isqrt64(uint64_t v)
{
    /* round(16 * sqrt(i + 0.5)) for i = 64..255 */
    static const uint16_t start[192] = {
        128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
        144, 144, 145, 146, 147, 148, 149, 150, 151, 151, 152, 153, 154, 155, 156, 156,
        157, 158, 159, 160, 160, 161, 162, 163, 164, 164, 165, 166, 167, 167, 168, 169,
        170, 170, 171, 172, 173, 173, 174, 175, 176, 176, 177, 178, 179, 179, 180, 181,
        181, 182, 183, 183, 184, 185, 186, 186, 187, 188, 188, 189, 190, 190, 191, 192,
        192, 193, 194, 194, 195, 196, 196, 197, 198, 198, 199, 200, 200, 201, 201, 202,
        203, 203, 204, 205, 205, 206, 206, 207, 208, 208, 209, 210, 210, 211, 211, 212,
        213, 213, 214, 214, 215, 216, 216, 217, 217, 218, 219, 219, 220, 220, 221, 221,
        222, 223, 223, 224, 224, 225, 225, 226, 227, 227, 228, 228, 229, 229, 230, 230,
        231, 232, 232, 233, 233, 234, 234, 235, 235, 236, 237, 237, 238, 238, 239, 239,
        240, 240, 241, 241, 242, 242, 243, 243, 244, 244, 245, 246, 246, 247, 247, 248,
        248, 249, 249, 250, 250, 251, 251, 252, 252, 253, 253, 254, 254, 255, 255, 256,
    };
    if (v < 4) return v != 0;
    int e = (63 - __builtin_clzll(v)) >> 1;     /* 4^e <= v < 4^(e+1), e >= 1 */
    int sh = 2 * e - 6;
    uint32_t i = (uint32_t)(sh >= 0 ? v >> sh : v << -sh);   /* top bits: 64..255 */
    uint64_t r = ((uint64_t)start[i - 64] << e) >> 7;        /* >= 2^e > 0 */
    if (e < 16) {   /* v < 2^32: 32-bit division, one step leaves an error of a few units */
        r = (r + (uint32_t)v / (uint32_t)r) >> 1;
    } else {
        r = (r + v / r) >> 1;
        r = (r + v / r) >> 1;
        if (r > 0xFFFFFFFFu) r = 0xFFFFFFFFu;   /* the root is below 2^32; keeps r * r exact */
    }
    while (r * r > v) r--;
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
    if (dx == 0 && dz == 0) return 0;
    int32_t angle = 0;
    /* rotate into the right half plane */
    if (dx < 0) { dx = -dx; dz = -dz; angle = 32768 * 256; }
    /* scale down so the iterations cannot overflow */
    while (dx > ((int64_t)1 << 40) || dz > ((int64_t)1 << 40) || dz < -((int64_t)1 << 40)) { dx >>= 1; dz >>= 1; }
    dx *= 65536; dz *= 65536;
    /* Step i adds atan(2^-i) (in binary angle units * 256, for precision) when
     * dz > 0 and subtracts it, rotating the other way, when dz <= 0. Written
     * out and branch-free: neg = -1 when dz <= 0, else 0; (v ^ neg) - neg is v
     * or -v; `minus` sums the subtracted angles, so the total is
     * FX_ATAN_SUM - 2 * minus. */
    int32_t minus = 0;
#define FX_CORDIC_STEP(i, atan_i) do { \
        int64_t neg = (dz - 1) >> 63; \
        int64_t nx = dx + (((dz >> (i)) ^ neg) - neg); \
        dz -= ((dx >> (i)) ^ neg) - neg; \
        dx = nx; \
        minus += (int32_t)neg & (atan_i); \
    } while (0)
    FX_CORDIC_STEP(0, 2097152); FX_CORDIC_STEP(1, 1238021); FX_CORDIC_STEP(2, 654136);
    FX_CORDIC_STEP(3, 332050);  FX_CORDIC_STEP(4, 166669);  FX_CORDIC_STEP(5, 83416);
    FX_CORDIC_STEP(6, 41718);   FX_CORDIC_STEP(7, 20860);   FX_CORDIC_STEP(8, 10430);
    FX_CORDIC_STEP(9, 5215);    FX_CORDIC_STEP(10, 2608);   FX_CORDIC_STEP(11, 1304);
    FX_CORDIC_STEP(12, 652);    FX_CORDIC_STEP(13, 326);    FX_CORDIC_STEP(14, 163);
    FX_CORDIC_STEP(15, 81);
#undef FX_CORDIC_STEP
    angle += 4654801 - 2 * minus;   /* 4,654,801: the sum of the 16 angles */
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
