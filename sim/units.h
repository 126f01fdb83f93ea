/* units.h - numbers with units as scenario files write them: "1.5ms", "10Gbit", "64KiB", "1%".
 *
 * Every parser takes the whole text (surrounding spaces and a space before the unit are allowed),
 * returns FALSE with a SKSIM_CONF_ERROR (codes TYPE, UNIT or RANGE) whose message has no location
 * (callers add "FILE:LINE:COL: "), and never writes *out on failure.
 *
 * Numbers are read as decimal strings, not with strtod, so that big integers are exact and an
 * overflow is an error rather than a rounded value. Fractions are allowed with a unit and are
 * rounded to the nearest base unit (ns, bit/s, byte), halves up. A bare 0 needs no unit.
 *
 *   duration  ns, us (or µs), ms, s                          -> integer ns (sim_time_t, >= 0)
 *   rate      bit, kbit, Mbit, Gbit, Tbit; bps, Kbps, Mbps,   -> bits per second, decimal SI
 *             Gbps, Tbps                                         (Kbps = 1000 bit/s, not tc's bytes)
 *   size      B, KB, MB, GB, TB (x1000); KiB, MiB, GiB, TiB   -> bytes; a bare integer is bytes
 *             (x1024)
 *   packets   a bare integer, or with pkt / pkts
 *   queue     a size or a packet count (the unit is required)
 *   ratio     a plain number (0.01, 1e-4) or a percentage (1%) -> double
 */
#ifndef SKSIM_UNITS_H
#define SKSIM_UNITS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/simtime.h"

typedef enum {
    UNIT_DURATION,
    UNIT_RATE,
    UNIT_SIZE,
    UNIT_PACKETS,
    UNIT_QUEUE,
    UNIT_RATIO,
} UnitKind;

gboolean units_parse_duration(const char *text, sim_time_t *out_ns, GError **error);
gboolean units_parse_rate(const char *text, uint64_t *out_bps, GError **error);
gboolean units_parse_size(const char *text, uint64_t *out_bytes, GError **error);
gboolean units_parse_packets(const char *text, uint64_t *out_pkts, GError **error);
/* A queue limit: *out_count is bytes, or packets when *out_pkts is set. */
gboolean units_parse_queue(const char *text, uint64_t *out_count, bool *out_pkts, GError **error);
gboolean units_parse_ratio(const char *text, double *out, GError **error);
/* A whole number without unit, 0 .. UINT64_MAX. */
gboolean units_parse_uint(const char *text, uint64_t *out, GError **error);
/* true/false (also True/TRUE/False/FALSE). */
gboolean units_parse_bool(const char *text, bool *out, GError **error);

/* "a duration like 50us or 1.5ms": the phrase used in "expected ..." messages. */
const char *units_expected(UnitKind kind);
/* "ns, us, ms, s": the accepted units, for documentation. */
const char *units_names(UnitKind kind);

#endif
