/* stats.c - mean and 95 % confidence interval across seeds, for `sksim sweep`.
 *
 * A sweep runs few seeds per point (3 to 10), so the interval must use Student's t rather than
 * the normal 1.96: with 3 seeds the half-width is 4.30 standard errors, not 1.96. The critical
 * values are a constant table instead of an inverse incomplete-beta function: they are what a
 * reader checks against a textbook, and only small df matter. The mean and the deviation are
 * computed in two passes (mean first), which keeps the deviation exact for values such as
 * 1e9 + small noise where the one-pass sum-of-squares formula cancels.
 */
#include "sim/stats.h"

#include <math.h>

/* t(0.975, df) for df = 1..30 (index df - 1): the two-sided 95 % critical values of Student's t,
 * to 6 decimals, as in any statistics table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2). */
static const double t95_small[30] = {
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
    2.262157,  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
    2.109816,  2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
    2.059539,  2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
};

/* Larger df: {df, t(0.975, df)}; above the last row, the normal quantile 1.959964. */
static const struct {
    guint df;
    double t;
} t95_large[] = {
    { 40, 2.021075 },
    { 60, 2.000298 },
    { 120, 1.979930 },
};

#define T95_NORMAL 1.959964

double stats_t95(guint df)
{
    if (df == 0)
        return NAN;
    if (df <= G_N_ELEMENTS(t95_small))
        return t95_small[df - 1];
    double t = t95_small[G_N_ELEMENTS(t95_small) - 1];
    for (guint i = 0; i < G_N_ELEMENTS(t95_large); i++)
        if (df >= t95_large[i].df)
            t = t95_large[i].t;
    return df > t95_large[G_N_ELEMENTS(t95_large) - 1].df ? T95_NORMAL : t;
}

StatsSummary stats_summarize(const double *x, guint n)
{
    StatsSummary s = { .mean = NAN, .sd = NAN, .half = NAN, .lo = NAN, .hi = NAN };
    double sum = 0.0;
    for (guint i = 0; i < n; i++) {
        if (isfinite(x[i])) {
            sum += x[i];
            s.n++;
        }
    }
    if (s.n == 0)
        return s;
    s.mean = sum / s.n;
    s.half = 0.0;
    if (s.n >= 2) {
        double ss = 0.0;
        for (guint i = 0; i < n; i++)
            if (isfinite(x[i]))
                ss += (x[i] - s.mean) * (x[i] - s.mean);
        s.sd = sqrt(ss / (s.n - 1));
        s.half = stats_t95(s.n - 1) * s.sd / sqrt((double)s.n);
    }
    s.lo = s.mean - s.half;
    s.hi = s.mean + s.half;
    return s;
}
