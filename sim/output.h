/* output.h - writing a run's results: metrics.json, <host>.nstat and timeseries.csv.
 *
 * Nothing is ever half-written: each file is written to a temporary file in the same directory
 * and renamed over the final name, so a reader (or a kill -9) sees the old file or the new one.
 */
#ifndef SKSIM_OUTPUT_H
#define SKSIM_OUTPUT_H

#include <glib.h>

#include "sim/results.h"

/* Write dir/metrics.json, dir/<host>.nstat for every host and dir/timeseries.csv (creating dir). */
gboolean output_write_run(const RunResult *r, const char *dir, GError **error);
/* Write data to path via a temporary file + rename. */
gboolean output_write_atomic(const char *path, const char *data, gsize len, GError **error);
/* The nstat -a text of one host: "#kernel", then "Name value 0.0" lines for non-zero counters. */
char *output_nstat_text(const HostResult *h);
/* The text of metrics.json (keys in their fixed order, pretty-printed). */
char *output_metrics_json(const RunResult *r);

#endif
