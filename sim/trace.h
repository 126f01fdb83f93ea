/* trace.h - a run's timeline as Chrome trace-event JSON (`sksim run --trace FILE`), for the
 * Perfetto UI (ui.perfetto.dev) and chrome://tracing.
 *
 * The file is one JSON object, {"displayTimeUnit": "ns", "otherData": {...}, "traceEvents":
 * [...]}, with one event per line: metadata ("ph":"M": process and thread names), complete
 * slices ("ph":"X"), counters ("ph":"C") and instants ("ph":"i"). "ts" and "dur" are in
 * microseconds, printed from integer nanoseconds with 3 decimals (exact ns, no float rounding).
 *
 * This module knows nothing of the models: a track is a (pid, tid) pair chosen by the caller
 * (models/observe.c: pid = host, tid = CPU or socket). A track has at most one open slice;
 * trace_slice_set() ends it and opens the next, and trace_close() ends every open slice at the
 * end time, so slices on one track never overlap (what both viewers require).
 *
 * A window [t0, t1] keeps the file small: slices are clipped to it, counters and instants
 * outside it are dropped. The writer streams into <path>.tmp and renames it at close; the end
 * path (also of an interrupted run) closes the array, so the file is always valid JSON.
 */
#ifndef SKSIM_TRACE_H
#define SKSIM_TRACE_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/simtime.h"

typedef struct Trace Trace;

/* One argument of an instant: a string (escaped) when str is set, else the integer num. */
typedef struct TraceArg {
    const char *key;
    const char *str;
    int64_t num;
} TraceArg;

/* Window [t0, t1]; t1 <= t0 (0 included): no end. other_json: a JSON object written as
 * "otherData" (NULL: {}). */
Trace *trace_open(const char *path, sim_time_t t0, sim_time_t t1, const char *other_json,
                  GError **error);
/* End every open slice at `end`, close the JSON, flush and rename; frees t whatever the outcome. */
gboolean trace_close(Trace *t, sim_time_t end, GError **error);
/* Close and delete the temporary file (a run that failed). */
void trace_abort(Trace *t);

void trace_process_name(Trace *t, uint32_t pid, const char *name, int sort_index);
void trace_thread_name(Trace *t, uint32_t pid, uint32_t tid, const char *name, int sort_index);

/* At `now` the track shows `name` (category cat): the open slice ends unless it has the same
 * name, in which case it simply continues. name NULL: the track shows nothing from now on. */
void trace_slice_set(Trace *t, uint32_t pid, uint32_t tid, sim_time_t now, const char *cat,
                     const char *name);
/* A counter track of process pid: "name" with one series "series". */
void trace_counter(Trace *t, uint32_t pid, sim_time_t now, const char *name, const char *series,
                   double value);
/* An instant on track (pid, tid) (thread scope). */
void trace_instant(Trace *t, uint32_t pid, uint32_t tid, sim_time_t now, const char *cat,
                   const char *name, const TraceArg *args, size_t nargs);

/* Events written so far (metadata included). */
uint64_t trace_events(const Trace *t);

#endif
