/* progress.h - the one-line progress display of a long run, on stderr.
 *
 *     \r[after] t=1.234s/10.000s 12.3% 4.5M ev/s
 *
 * The run driver creates one per run when RunOptions.progress is set (the CLI sets it only when
 * stderr is a terminal and --quiet is not given), calls progress_update() as often as it likes
 * (from its sim hook, say every 64k events), and progress_finish() at the end. The line is shown
 * only once the run has taken 1 s of wall time, redrawn at most 4 times a second, and erased by
 * progress_finish(), so short runs and logs stay clean.
 */
#ifndef SKSIM_PROGRESS_H
#define SKSIM_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#define PROGRESS_DELAY_US 1000000   /* show nothing during the first second */
#define PROGRESS_INTERVAL_US 250000 /* redraw at most 4 times a second */

typedef struct Progress Progress;

/* Writes to stderr; the wall clock starts now. label: the variant name (copied). */
Progress *progress_new(const char *label);
/* Same, writing to out, with an explicit start time on the g_get_monotonic_time() clock (tests). */
Progress *progress_new_full(const char *label, FILE *out, int64_t start_us);
/* sim_s of total_s simulated so far, after `events` events. */
void progress_update(Progress *p, double sim_s, double total_s, uint64_t events);
void progress_update_at(Progress *p, int64_t now_us, double sim_s, double total_s,
                        uint64_t events);
/* Erase the line if one was drawn. Safe to call more than once. */
void progress_finish(Progress *p);
void progress_free(Progress *p); /* calls progress_finish */

#endif
