/* simtime.h - simulated time: a signed 64-bit count of nanoseconds.
 *
 * Integer time makes ties exact and sums drift-free; 2^63 ns is 292 years, far beyond any run.
 * Convert to seconds only at the output edge. Every duration variable carries its unit in its
 * name (delay_ns, rate_bps, len_bytes).
 */
#ifndef SKSIM_SIMTIME_H
#define SKSIM_SIMTIME_H

#include <stdint.h>

typedef int64_t sim_time_t;

#define SIM_NS ((sim_time_t)1)
#define SIM_US ((sim_time_t)1000)
#define SIM_MS ((sim_time_t)1000000)
#define SIM_S ((sim_time_t)1000000000)
#define SIM_TIME_MAX INT64_MAX

/* Time to serialise len_bytes at rate_bps, rounded up to the next whole nanosecond (a frame is
 * not finished before its last bit is out). 128-bit intermediate: no overflow for any byte count
 * and rate that fit in 64 bits. rate_bps must be > 0; the result saturates at SIM_TIME_MAX. */
static inline sim_time_t sim_tx_time_ns(uint64_t len_bytes, uint64_t rate_bps)
{
    unsigned __int128 bits_ns = (unsigned __int128)len_bytes * 8u * (uint64_t)SIM_S;
    unsigned __int128 t = (bits_ns + rate_bps - 1) / rate_bps;
    return t > (unsigned __int128)SIM_TIME_MAX ? SIM_TIME_MAX : (sim_time_t)t;
}

/* Bytes that rate_bps carries in dt_ns (rounded down). */
static inline uint64_t sim_bytes_in(sim_time_t dt_ns, uint64_t rate_bps)
{
    if (dt_ns <= 0)
        return 0;
    unsigned __int128 b = (unsigned __int128)(uint64_t)dt_ns * rate_bps / (8u * (uint64_t)SIM_S);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* a + b clamped to SIM_TIME_MAX (for "never" deadlines built from large delays). */
static inline sim_time_t sim_time_add_sat(sim_time_t a, sim_time_t b)
{
    return (b > 0 && a > SIM_TIME_MAX - b) ? SIM_TIME_MAX : a + b;
}

static inline double sim_time_to_sec(sim_time_t t)
{
    return (double)t / (double)SIM_S;
}

#endif
