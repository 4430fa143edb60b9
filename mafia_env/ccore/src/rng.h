/* CPython's Mersenne Twister: the Python engine's random.Random, draw for draw. */
#ifndef MAFIA_CCORE_RNG_H
#define MAFIA_CCORE_RNG_H

#include <stddef.h>
#include <stdint.h>

/* Modules/_randommodule.c: init_genrand, init_by_array, genrand_uint32 (MT19937). */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int32_t index;
} MT;

static void mt_init_genrand(MT *mt, uint32_t s) {
    uint32_t *m = mt->state;
    m[0] = s;
    for (int i = 1; i < MT_N; i++)
        m[i] = 1812433253U * (m[i - 1] ^ (m[i - 1] >> 30)) + (uint32_t)i;
    mt->index = MT_N;
}

static void mt_init_by_array(MT *mt, const uint32_t *key, size_t len) {
    uint32_t *m = mt->state;
    size_t i = 1, j = 0, k;
    mt_init_genrand(mt, 19650218U);
    k = (MT_N > len ? MT_N : len);
    for (; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
    }
    m[0] = 0x80000000U;
}

static uint32_t mt_next(MT *mt) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *m = mt->state;
    if (mt->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (m[kk] & 0x80000000U) | (m[kk + 1] & 0x7fffffffU);
            m[kk] = m[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (m[kk] & 0x80000000U) | (m[kk + 1] & 0x7fffffffU);
            m[kk] = m[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (m[MT_N - 1] & 0x80000000U) | (m[0] & 0x7fffffffU);
        m[MT_N - 1] = m[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        mt->index = 0;
    }
    y = m[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random_seed() for a non-negative int below 2**64: its 32-bit words, least significant
   first, at least one */
static void mt_seed_u64(MT *mt, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    mt_init_by_array(mt, key, key[1] ? 2 : 1);
}

/* Random.getrandbits(k) for 1 <= k <= 32 */
static uint32_t mt_bits(MT *mt, int k) { return mt_next(mt) >> (32 - k); }

/* Random.getrandbits(63): words from the least significant, the last one's low bits dropped */
static uint64_t mt_bits63(MT *mt) {
    uint64_t lo = mt_next(mt);
    uint64_t hi = mt_next(mt) >> 1;
    return lo | (hi << 32);
}

/* Random._randbelow_with_getrandbits(n), n >= 1 */
static int mt_below(MT *mt, int n) {
    int k = 0;
    while ((n >> k) != 0) k++; /* n.bit_length() */
    uint32_t r = mt_bits(mt, k);
    while (r >= (uint32_t)n) r = mt_bits(mt, k);
    return (int)r;
}

#endif
