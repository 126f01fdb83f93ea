/* rng.c - xoshiro256** streams seeded through splitmix64 from (seed, stream id).
 *
 * xoshiro256** (Blackman & Vigna) is fast, has 256 bits of state and passes BigCrush; splitmix64
 * spreads a 64-bit seed over that state so that nearby seeds and stream ids give unrelated
 * streams. The stream id of a named component is its FNV-1a hash, which is stable across builds
 * and machines (unlike g_str_hash, whose algorithm GLib may change).
 */
#include "sim/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void sim_rng_init(SimRng *rng, uint64_t seed, uint64_t stream_id)
{
    uint64_t x = seed;
    uint64_t mixed = splitmix64(&x) ^ stream_id;
    x = mixed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
}

uint64_t sim_hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

void sim_rng_init_named(SimRng *rng, uint64_t seed, const char *name)
{
    sim_rng_init(rng, seed, sim_hash_str(name));
}

uint64_t sim_rng_u64(SimRng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double sim_rng_double(SimRng *rng)
{
    return (double)(sim_rng_u64(rng) >> 11) * 0x1.0p-53;
}

uint64_t sim_rng_below(SimRng *rng, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)sim_rng_u64(rng) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (unsigned __int128)sim_rng_u64(rng) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

int sim_rng_chance(SimRng *rng, double p)
{
    return sim_rng_double(rng) < p;
}
