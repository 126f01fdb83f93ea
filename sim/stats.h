/* stats.h - summary statistics across seeds: mean, sample standard deviation and the 95 %
 * confidence interval of the mean (Student t), as `sksim sweep` plots them.
 */
#ifndef SKSIM_STATS_H
#define SKSIM_STATS_H

#include <glib.h>

typedef struct StatsSummary {
    guint n;     /* finite values used */
    double mean; /* NaN when n == 0 */
    double sd;   /* sample standard deviation (n - 1 in the denominator); NaN when n < 2 */
    double half; /* half-width of the 95 % CI: t(0.975, n-1) * sd / sqrt(n); 0 when n == 1 */
    double lo;   /* mean - half */
    double hi;   /* mean + half */
} StatsSummary;

/* Two-sided 95 % critical value of Student's t with df degrees of freedom (t quantile 0.975);
 * NaN for df == 0. Exact to 6 decimals for df <= 30 and at 40, 60, 120; between those the next
 * smaller tabulated df (a slightly wider, conservative interval); 1.959964 above 120. */
double stats_t95(guint df);

/* Summary of the finite values among x[0..n-1] (NaN and infinities are left out). */
StatsSummary stats_summarize(const double *x, guint n);

#endif
