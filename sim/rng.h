/* rng.h - per-component random streams.
 *
 * Each component (a link's loss process, a flow's jitter, a workload's think time) owns a SimRng
 * derived from (run seed, component name). Streams are independent of each other and of the
 * order in which components are created, so adding a flow does not change what any other
 * component draws. Generator: xoshiro256** seeded through splitmix64.
 */
#ifndef SKSIM_RNG_H
#define SKSIM_RNG_H

#include <stdint.h>

typedef struct SimRng {
    uint64_t s[4];
} SimRng;

/* Stream for (seed, stream_id). */
void sim_rng_init(SimRng *rng, uint64_t seed, uint64_t stream_id);
/* Stream for (seed, name): the name is hashed with a fixed (FNV-1a) hash, stable across builds. */
void sim_rng_init_named(SimRng *rng, uint64_t seed, const char *name);

uint64_t sim_rng_u64(SimRng *rng);
/* Uniform in [0, 1) with 53 bits. */
double sim_rng_double(SimRng *rng);
/* Uniform integer in [0, n), unbiased (Lemire's method). n > 0. */
uint64_t sim_rng_below(SimRng *rng, uint64_t n);
/* True with probability p (p in [0, 1]). */
int sim_rng_chance(SimRng *rng, double p);

uint64_t sim_hash_str(const char *s);

#endif
