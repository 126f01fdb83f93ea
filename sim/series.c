/* series.c - fixed-interval sampling of model values into an in-memory table.
 *
 * One SimEvent re-arms itself every interval. Rows are appended to a single GArray of doubles
 * (row-major), so a 10 s run sampled every 10 ms with 20 columns is 1001 x 21 doubles; no I/O
 * happens until the run is over.
 */
#include "sim/series.h"

#include <errno.h>
#include <glib.h>

#include "sim/evkind.h"

typedef struct {
    char *name;
    SeriesProbeFn probe;
    const void *ctx;
    bool rate;        /* write the change per second, not the value */
    double last_raw;  /* rate columns: the probe's value and the column's at the last row */
    double last_rate;
    double prev_raw;  /* ... and at the row before it (series_sample_final retakes the last) */
    double prev_rate;
} SeriesColumn;

struct Series {
    sim_time_t interval_ns;
    GArray *cols; /* SeriesColumn */
    GArray *times; /* sim_time_t per row */
    GArray *vals; /* double, row-major */
    SimEvent ev;
    Sim *sim;
    SeriesListenerFn listener;
    void *listener_ctx;
};

Series *series_new(sim_time_t interval_ns)
{
    Series *s = g_new0(Series, 1);
    s->interval_ns = interval_ns;
    s->cols = g_array_new(FALSE, FALSE, sizeof(SeriesColumn));
    s->times = g_array_new(FALSE, FALSE, sizeof(sim_time_t));
    s->vals = g_array_new(FALSE, FALSE, sizeof(double));
    return s;
}

void series_free(Series *s)
{
    if (!s)
        return;
    series_stop(s);
    for (guint i = 0; i < s->cols->len; i++)
        g_free(g_array_index(s->cols, SeriesColumn, i).name);
    g_array_free(s->cols, TRUE);
    g_array_free(s->times, TRUE);
    g_array_free(s->vals, TRUE);
    g_free(s);
}

static void series_add(Series *s, const char *name, SeriesProbeFn probe, const void *ctx, bool rate)
{
    g_assert(s->times->len == 0);
    SeriesColumn c = { .name = g_strdup(name), .probe = probe, .ctx = ctx, .rate = rate };
    g_array_append_val(s->cols, c);
}

void series_add_column(Series *s, const char *name, SeriesProbeFn probe, const void *ctx)
{
    series_add(s, name, probe, ctx, false);
}

void series_add_rate_column(Series *s, const char *name, SeriesProbeFn probe, const void *ctx)
{
    series_add(s, name, probe, ctx, true);
}

/* A rate column's value for a row at `now`, the previous row (if any) having been at `prev`. */
static double series_rate(SeriesColumn *c, double raw, bool first, sim_time_t prev, sim_time_t now)
{
    c->prev_raw = c->last_raw;
    c->prev_rate = c->last_rate;
    if (!first && now > prev)
        c->last_rate = (raw - c->last_raw) / sim_time_to_sec(now - prev);
    c->last_raw = raw;
    return c->last_rate;
}

static void series_take_row(Series *s, sim_time_t now)
{
    bool first = s->times->len == 0;
    sim_time_t prev = first ? 0 : g_array_index(s->times, sim_time_t, s->times->len - 1);
    g_array_append_val(s->times, now);
    for (guint i = 0; i < s->cols->len; i++) {
        SeriesColumn *c = &g_array_index(s->cols, SeriesColumn, i);
        double v = c->probe(c->ctx);
        if (c->rate)
            v = series_rate(c, v, first, prev, now);
        g_array_append_val(s->vals, v);
    }
}

void series_sample(Series *s, sim_time_t now)
{
    series_take_row(s, now);
    if (s->listener)
        s->listener(s->listener_ctx, now);
}

void series_sample_final(Series *s, sim_time_t now)
{
    guint n = s->times->len;
    if (n == 0 || g_array_index(s->times, sim_time_t, n - 1) != now) {
        series_sample(s, now);
        return;
    }
    /* The sampler's row for this instant came before the instant's later events: take it again,
     * as the previous row left it (the listener has seen the instant already). */
    g_array_set_size(s->times, n - 1);
    g_array_set_size(s->vals, (n - 1) * s->cols->len);
    for (guint i = 0; i < s->cols->len; i++) {
        SeriesColumn *c = &g_array_index(s->cols, SeriesColumn, i);
        c->last_raw = c->prev_raw;
        c->last_rate = c->prev_rate;
    }
    series_take_row(s, now);
}

void series_set_listener(Series *s, SeriesListenerFn fn, void *ctx)
{
    s->listener = fn;
    s->listener_ctx = ctx;
}

static void series_fire(Sim *sim, void *ctx)
{
    Series *s = ctx;
    series_sample(s, sim_now(sim));
    sim_schedule_in(sim, &s->ev, s->interval_ns);
}

void series_start(Series *s, Sim *sim, sim_time_t first_ns)
{
    g_assert(s->interval_ns > 0);
    s->sim = sim;
    sim_event_init(&s->ev, series_fire, s, EVK_SAMPLE, 0);
    sim_schedule_at(sim, &s->ev, first_ns);
}

void series_stop(Series *s)
{
    if (s->sim)
        sim_cancel(s->sim, &s->ev);
    s->sim = NULL;
}

size_t series_n_columns(const Series *s)
{
    return s->cols->len;
}

size_t series_n_rows(const Series *s)
{
    return s->times->len;
}

const char *series_column_name(const Series *s, size_t col)
{
    return g_array_index(s->cols, SeriesColumn, col).name;
}

double series_value(const Series *s, size_t row, size_t col)
{
    return g_array_index(s->vals, double, row * s->cols->len + col);
}

sim_time_t series_row_time(const Series *s, size_t row)
{
    return g_array_index(s->times, sim_time_t, row);
}

int series_write_csv(const Series *s, FILE *out)
{
    fputs("time_s", out);
    for (size_t c = 0; c < series_n_columns(s); c++)
        fprintf(out, ",%s", series_column_name(s, c));
    fputc('\n', out);
    for (size_t r = 0; r < series_n_rows(s); r++) {
        fprintf(out, "%.9f", sim_time_to_sec(series_row_time(s, r)));
        for (size_t c = 0; c < series_n_columns(s); c++)
            fprintf(out, ",%.10g", series_value(s, r, c));
        fputc('\n', out);
    }
    return ferror(out) ? -EIO : 0;
}
