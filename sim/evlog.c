/* evlog.c - the text event log (--log): parse the category list, stream lines to a temporary
 * file, rename it into place at the end.
 *
 * Why a stdio stream with a big buffer: a busy category (backlog, sched) writes millions of
 * lines per simulated second; formatting into the stdio buffer and flushing it in large blocks
 * keeps the log from dominating the run. Time is printed from the integer nanoseconds (never via
 * a double), so the text is identical on every machine.
 */
#include "sim/evlog.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/stream_file.h"

#define EVLOG_BUFFER (1u << 20)

static const struct {
    const char *name;
    uint32_t bit;
} categories[] = {
    { "tcp", LOG_TCP },         { "timer", LOG_TIMER },     { "sched", LOG_SCHED },
    { "softirq", LOG_SOFTIRQ }, { "backlog", LOG_BACKLOG }, { "nic", LOG_NIC },
};

const char *evlog_category_names(void)
{
    return "tcp, timer, sched, softirq, backlog, nic (or all)";
}

static gboolean parse_one(const char *name, uint32_t *mask, GError **error)
{
    if (strcmp(name, "all") == 0) {
        *mask |= LOG_ALL;
        return TRUE;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(categories); i++) {
        if (strcmp(name, categories[i].name) == 0) {
            *mask |= categories[i].bit;
            return TRUE;
        }
    }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "unknown log category '%s' (categories: %s)", name, evlog_category_names());
    return FALSE;
}

gboolean evlog_parse_categories(const char *const *specs, uint32_t *mask, GError **error)
{
    uint32_t m = 0;
    for (guint i = 0; specs && specs[i]; i++) {
        g_auto(GStrv) parts = g_strsplit(specs[i], ",", -1);
        for (guint k = 0; parts[k]; k++) {
            if (!*g_strstrip(parts[k]))
                continue; /* "tcp," */
            if (!parse_one(parts[k], &m, error))
                return FALSE;
        }
    }
    *mask = m;
    return TRUE;
}

struct EventLog {
    StreamFile *out;
};

EventLog *evlog_open(const char *path, GError **error)
{
    StreamFile *out = stream_file_open(path, EVLOG_BUFFER, error);
    if (!out)
        return NULL;
    EventLog *l = g_new0(EventLog, 1);
    l->out = out;
    return l;
}

static char *put_str(char *p, const char *end, const char *s)
{
    while (*s && p < end)
        *p++ = *s++;
    return p;
}

/* "<s>.<9 digits>", from integer nanoseconds (times are never negative). */
static char *put_time(char *p, sim_time_t t)
{
    char d[32];
    int n = 0;
    uint64_t sec = (uint64_t)(t / SIM_S), ns = (uint64_t)(t % SIM_S);
    do {
        d[n++] = (char)('0' + sec % 10);
        sec /= 10;
    } while (sec);
    while (n)
        *p++ = d[--n];
    *p++ = '.';
    for (int i = 8; i >= 0; i--) {
        p[i] = (char)('0' + ns % 10);
        ns /= 10;
    }
    return p + 9;
}

void evlog_write(EventLog *l, sim_time_t t, const char *host, int cpu, const char *context,
                 const char *event, const char *fields)
{
    char line[1024];
    const char *end = line + sizeof line - 1; /* room for the newline */
    char *p = put_time(line, t);
    *p++ = ' ';
    p = put_str(p, end, host);
    p = put_str(p, end, ":");
    char cpu_text[16] = "-";
    if (cpu >= 0)
        g_snprintf(cpu_text, sizeof cpu_text, "%d", cpu);
    p = put_str(p, end, cpu_text);
    p = put_str(p, end, " ");
    p = put_str(p, end, context);
    p = put_str(p, end, " ");
    p = put_str(p, end, event);
    if (fields && fields[0]) {
        p = put_str(p, end, " ");
        p = put_str(p, end, fields);
    }
    *p++ = '\n';
    stream_file_write(l->out, line, (size_t)(p - line));
}

gboolean evlog_close(EventLog *l, GError **error)
{
    gboolean ok = stream_file_commit(l->out, error);
    g_free(l);
    return ok;
}

void evlog_abort(EventLog *l)
{
    if (!l)
        return;
    stream_file_abort(l->out);
    g_free(l);
}
