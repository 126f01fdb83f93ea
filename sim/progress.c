/* progress.c - the progress line of progress.h.
 *
 * It rate-limits itself (nothing before 1 s of wall time, then at most 4 redraws a second), so a
 * caller may call it often without thinking about cost, and it pads each redraw to the width of
 * the previous one so that a shorter line never leaves stale characters behind.
 */
#include "sim/progress.h"

#include <glib.h>

struct Progress {
    char *label;
    FILE *out;
    int64_t start_us;
    int64_t last_draw_us; /* 0: never drawn */
    int last_width;
};

Progress *progress_new_full(const char *label, FILE *out, int64_t start_us)
{
    Progress *p = g_new0(Progress, 1);
    p->label = g_strdup(label ? label : "base");
    p->out = out;
    p->start_us = start_us;
    return p;
}

Progress *progress_new(const char *label)
{
    return progress_new_full(label, stderr, g_get_monotonic_time());
}

/* 4.5M, 950.0k, 12: events per second for humans. */
static void format_rate(char *buf, size_t size, double rate)
{
    if (rate >= 1e6)
        g_snprintf(buf, size, "%.1fM", rate / 1e6);
    else if (rate >= 1e3)
        g_snprintf(buf, size, "%.1fk", rate / 1e3);
    else
        g_snprintf(buf, size, "%.0f", rate);
}

void progress_update_at(Progress *p, int64_t now_us, double sim_s, double total_s,
                        uint64_t events)
{
    int64_t elapsed_us = now_us - p->start_us;
    if (elapsed_us < PROGRESS_DELAY_US)
        return;
    if (p->last_draw_us != 0 && now_us - p->last_draw_us < PROGRESS_INTERVAL_US)
        return;
    char rate[32];
    format_rate(rate, sizeof rate, (double)events * 1e6 / (double)elapsed_us);
    double pct = total_s > 0 ? 100.0 * sim_s / total_s : 0.0;
    int width = fprintf(p->out, "\r[%s] t=%.3fs/%.3fs %.1f%% %s ev/s", p->label, sim_s, total_s,
                        pct, rate) - 1;
    if (width < p->last_width)
        fprintf(p->out, "%*s", p->last_width - width, "");
    else
        p->last_width = width;
    fflush(p->out);
    p->last_draw_us = now_us;
}

void progress_update(Progress *p, double sim_s, double total_s, uint64_t events)
{
    progress_update_at(p, g_get_monotonic_time(), sim_s, total_s, events);
}

void progress_finish(Progress *p)
{
    if (p->last_draw_us == 0)
        return;
    fprintf(p->out, "\r%*s\r", p->last_width, "");
    fflush(p->out);
    p->last_draw_us = 0;
    p->last_width = 0;
}

void progress_free(Progress *p)
{
    if (!p)
        return;
    progress_finish(p);
    g_free(p->label);
    g_free(p);
}
