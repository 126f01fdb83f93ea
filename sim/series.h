/* series.h - time series sampled at a fixed simulated interval.
 *
 * A column is a probe (a function reading a model value); the sampler event calls every probe
 * each interval and appends one row. Rows are kept in one growing array of doubles and written
 * as CSV at the end, so sampling costs no I/O during the run.
 */
#ifndef SKSIM_SERIES_H
#define SKSIM_SERIES_H

#include <stdio.h>

#include "sim/sim.h"

typedef struct Series Series;
typedef double (*SeriesProbeFn)(const void *ctx);

Series *series_new(sim_time_t interval_ns);
void series_free(Series *s);
/* Add a column; must be called before series_start. The name is copied. */
void series_add_column(Series *s, const char *name, SeriesProbeFn probe, const void *ctx);
/* A column of the probe's change per simulated second since the previous row, for probes that
 * read a running total (CPU time used -> share of the interval): 0 in the first row, and a row
 * taken at the same instant as the one before it repeats that row's rate. */
void series_add_rate_column(Series *s, const char *name, SeriesProbeFn probe, const void *ctx);
/* Schedule the first sample at `first_ns` and then every interval. */
void series_start(Series *s, Sim *sim, sim_time_t first_ns);
/* Cancel the sampler (before the Sim is freed; the table stays readable). */
void series_stop(Series *s);
/* Take one sample now. */
void series_sample(Series *s, sim_time_t now);
/* The last row of a run, at its end `now`: sampled, or taken again if the sampler's row for
 * `now` fired before other events of that instant (so it matches the final counters). */
void series_sample_final(Series *s, sim_time_t now);
/* Called after every row is taken (the trace's per-flow counters ride on the sampler, so that
 * tracing adds no event to the run); fn NULL removes it. */
typedef void (*SeriesListenerFn)(void *ctx, sim_time_t now);
void series_set_listener(Series *s, SeriesListenerFn fn, void *ctx);

size_t series_n_columns(const Series *s);
size_t series_n_rows(const Series *s);
const char *series_column_name(const Series *s, size_t col);
double series_value(const Series *s, size_t row, size_t col);
sim_time_t series_row_time(const Series *s, size_t row);
/* Header "time_s,<col>,...", then one line per row. Returns 0 or -errno. */
int series_write_csv(const Series *s, FILE *out);

#endif
