/* trace.c - the Chrome trace-event writer behind --trace: streamed JSON, one event per line.
 *
 * Why streamed: a trace of a busy second holds millions of slices; holding them in memory to
 * sort or pretty-print would cost more than the run. Both viewers sort events themselves, so
 * events are written in the order the simulation produces them (deterministic), and only the
 * open slice of each track is kept (its name and start). Tracks are found through a hash table
 * but remembered in creation order too, so that trace_close() ends them in a deterministic order.
 * Times are printed from integer nanoseconds as "<us>.<3 digits>", never through a double.
 */
#include "sim/trace.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sim/stream_file.h"

#define TRACE_BUFFER (1u << 20)

/* The longest name a slice keeps (task names are 32 bytes; "owned by ..." and "switch to ..."
 * add a few). */
#define TRACE_NAME_MAX 96
/* One event is built in a buffer of this size and written with one fwrite: names are short and
 * instant arguments come from a 512-byte field string, so an event never comes near it (a longer
 * one is cut, and the cut is an error: the file would not be JSON). */
#define TRACE_LINE_MAX 4096

typedef struct Track {
    uint32_t pid, tid;
    bool open;
    sim_time_t start;
    const char *cat;            /* static strings only */
    char name[TRACE_NAME_MAX];  /* of the open slice */
} Track;

/* The event being written. */
typedef struct Line {
    size_t n;
    bool overflow;
    char buf[TRACE_LINE_MAX];
} Line;

struct Trace {
    StreamFile *out;
    sim_time_t t0, t1; /* window; t1 = SIM_TIME_MAX when open-ended */
    bool first;        /* no event written yet (no comma before the next) */
    uint64_t events;
    GHashTable *tracks; /* (pid << 32 | tid) -> Track* (owns the keys) */
    GPtrArray *order;   /* Track*, in creation order; owns them */
    Track *last;        /* the track of the previous call: most calls repeat it */
    Line line;
};


/* ---- building one event (no stdio formatting: a busy trace writes millions of them) ---- */

static void lput_n(Line *l, const char *s, size_t n)
{
    if (l->n + n > sizeof l->buf) {
        l->overflow = true;
        n = sizeof l->buf - l->n;
    }
    memcpy(l->buf + l->n, s, n);
    l->n += n;
}

static void lput(Line *l, const char *s)
{
    lput_n(l, s, strlen(s));
}

static void lput_c(Line *l, char c)
{
    if (l->n < sizeof l->buf)
        l->buf[l->n++] = c;
    else
        l->overflow = true;
}

static void lput_u64(Line *l, uint64_t v)
{
    char d[24];
    size_t i = sizeof d;
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    lput_n(l, d + i, sizeof d - i);
}

static void lput_i64(Line *l, int64_t v)
{
    if (v < 0) {
        lput_c(l, '-');
        lput_u64(l, (uint64_t)0 - (uint64_t)v);
    } else {
        lput_u64(l, (uint64_t)v);
    }
}

/* Microseconds with exact nanoseconds: 1234567 ns -> 1234.567 (times are never negative). */
static void lput_us(Line *l, sim_time_t ns)
{
    lput_u64(l, (uint64_t)(ns / 1000));
    int frac = (int)(ns % 1000);
    char d[4] = { '.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10) };
    lput_n(l, d, 4);
}

static bool needs_escape(unsigned char c)
{
    return c == '"' || c == '\\' || c < 0x20;
}

/* A JSON string: quotes, backslash and control characters escaped. */
static void lput_str(Line *l, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    lput_c(l, '"');
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *q = p;
    while (*q && !needs_escape(*q))
        q++;
    lput_n(l, s, (size_t)(q - p)); /* the common case: nothing to escape */
    for (p = q; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = { '\\', (char)*p };
            lput_n(l, e, 2);
        } else if (*p < 0x20) {
            char e[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };
            lput_n(l, e, 6);
        } else {
            lput_c(l, (char)*p);
        }
    }
    lput_c(l, '"');
}

static void lput_double(Line *l, double v)
{
    if (v == (double)(int64_t)v && v > -9e15 && v < 9e15) {
        lput_i64(l, (int64_t)v);
        return;
    }
    char d[32];
    g_snprintf(d, sizeof d, "%.17g", v);
    lput(l, d);
}

/* {"ph":"X","pid":1 ... : the comma before every event but the first. */
static Line *begin_event(Trace *t, const char *ph, uint32_t pid)
{
    Line *l = &t->line;
    l->n = 0;
    l->overflow = false;
    if (!t->first)
        lput_n(l, ",\n", 2);
    lput(l, "{\"ph\":\"");
    lput(l, ph);
    lput(l, "\",\"pid\":");
    lput_u64(l, pid);
    t->first = false;
    t->events++;
    return l;
}

static void end_event(Trace *t)
{
    Line *l = &t->line;
    lput_c(l, '}');
    if (l->overflow)
        stream_file_fail(t->out, EOVERFLOW);
    stream_file_write(t->out, l->buf, l->n);
}

static bool in_window(const Trace *t, sim_time_t now)
{
    return now >= t->t0 && now <= t->t1;
}

Trace *trace_open(const char *path, sim_time_t t0, sim_time_t t1, const char *other_json,
                  GError **error)
{
    StreamFile *out = stream_file_open(path, TRACE_BUFFER, error);
    if (!out)
        return NULL;
    Trace *t = g_new0(Trace, 1);
    t->out = out;
    t->t0 = t0 > 0 ? t0 : 0;
    t->t1 = t1 > t->t0 ? t1 : SIM_TIME_MAX;
    t->first = true;
    t->tracks = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    t->order = g_ptr_array_new_with_free_func(g_free);
    stream_file_check(out, fprintf(stream_file_fp(out),
                                   "{\"displayTimeUnit\":\"ns\",\"otherData\":%s,\"traceEvents\":[\n",
                                   other_json ? other_json : "{}"));
    return t;
}

static void trace_free(Trace *t)
{
    g_hash_table_destroy(t->tracks);
    g_ptr_array_free(t->order, TRUE);
    g_free(t);
}

uint64_t trace_events(const Trace *t)
{
    return t->events;
}

/* ---- metadata ---- */

static void put_meta(Trace *t, uint32_t pid, const uint32_t *tid, const char *what,
                     const char *name, int sort_index)
{
    Line *l = begin_event(t, "M", pid);
    if (tid) {
        lput(l, ",\"tid\":");
        lput_u64(l, *tid);
    }
    lput(l, ",\"name\":\"");
    lput(l, what);
    lput(l, "_name\",\"args\":{\"name\":");
    lput_str(l, name);
    lput_c(l, '}');
    end_event(t);
    l = begin_event(t, "M", pid);
    if (tid) {
        lput(l, ",\"tid\":");
        lput_u64(l, *tid);
    }
    lput(l, ",\"name\":\"");
    lput(l, what);
    lput(l, "_sort_index\",\"args\":{\"sort_index\":");
    lput_i64(l, sort_index);
    lput_c(l, '}');
    end_event(t);
}

void trace_process_name(Trace *t, uint32_t pid, const char *name, int sort_index)
{
    put_meta(t, pid, NULL, "process", name, sort_index);
}

void trace_thread_name(Trace *t, uint32_t pid, uint32_t tid, const char *name, int sort_index)
{
    put_meta(t, pid, &tid, "thread", name, sort_index);
}

/* ---- slices ---- */

static Track *track_get(Trace *t, uint32_t pid, uint32_t tid)
{
    if (t->last && t->last->pid == pid && t->last->tid == tid)
        return t->last;
    int64_t key = (int64_t)((uint64_t)pid << 32 | tid);
    Track *k = g_hash_table_lookup(t->tracks, &key);
    if (k)
        return t->last = k;
    k = g_new0(Track, 1);
    k->pid = pid;
    k->tid = tid;
    g_ptr_array_add(t->order, k);
    /* the key lives in the track: g_int64_hash reads it through the pointer */
    int64_t *stored = g_new(int64_t, 1);
    *stored = key;
    g_hash_table_insert(t->tracks, stored, k);
    return t->last = k;
}

/* Write the open slice of k, clipped to the window, as ending at `end`. */
static void slice_emit(Trace *t, Track *k, sim_time_t end)
{
    sim_time_t from = MAX(k->start, t->t0), to = MIN(end, t->t1);
    if (to <= from)
        return;
    Line *l = begin_event(t, "X", k->pid);
    lput(l, ",\"tid\":");
    lput_u64(l, k->tid);
    lput(l, ",\"ts\":");
    lput_us(l, from);
    lput(l, ",\"dur\":");
    lput_us(l, to - from);
    lput(l, ",\"cat\":\"");
    lput(l, k->cat);
    lput(l, "\",\"name\":");
    lput_str(l, k->name);
    end_event(t);
}

void trace_slice_set(Trace *t, uint32_t pid, uint32_t tid, sim_time_t now, const char *cat,
                     const char *name)
{
    Track *k = track_get(t, pid, tid);
    if (k->open && name && strncmp(k->name, name, sizeof k->name - 1) == 0)
        return;
    if (k->open) {
        slice_emit(t, k, now);
        k->open = false;
    }
    if (!name)
        return;
    k->open = true;
    k->start = now;
    g_strlcpy(k->name, name, sizeof k->name);
    k->cat = cat;
}

/* ---- counters and instants ---- */

void trace_counter(Trace *t, uint32_t pid, sim_time_t now, const char *name, const char *series,
                   double value)
{
    if (!in_window(t, now) || !isfinite(value))
        return;
    Line *l = begin_event(t, "C", pid);
    lput(l, ",\"ts\":");
    lput_us(l, now);
    lput(l, ",\"name\":");
    lput_str(l, name);
    lput(l, ",\"args\":{");
    lput_str(l, series);
    lput_c(l, ':');
    lput_double(l, value);
    lput_c(l, '}');
    end_event(t);
}

void trace_instant(Trace *t, uint32_t pid, uint32_t tid, sim_time_t now, const char *cat,
                   const char *name, const TraceArg *args, size_t nargs)
{
    if (!in_window(t, now))
        return;
    Line *l = begin_event(t, "i", pid);
    lput(l, ",\"tid\":");
    lput_u64(l, tid);
    lput(l, ",\"s\":\"t\",\"ts\":");
    lput_us(l, now);
    lput(l, ",\"cat\":\"");
    lput(l, cat);
    lput(l, "\",\"name\":");
    lput_str(l, name);
    if (nargs) {
        lput(l, ",\"args\":{");
        for (size_t i = 0; i < nargs; i++) {
            if (i)
                lput_c(l, ',');
            lput_str(l, args[i].key);
            lput_c(l, ':');
            if (args[i].str)
                lput_str(l, args[i].str);
            else
                lput_i64(l, args[i].num);
        }
        lput_c(l, '}');
    }
    end_event(t);
}

/* ---- end ---- */

gboolean trace_close(Trace *t, sim_time_t end, GError **error)
{
    for (guint i = 0; i < t->order->len; i++) {
        Track *k = g_ptr_array_index(t->order, i);
        if (k->open)
            slice_emit(t, k, end);
    }
    stream_file_check(t->out, fputs("\n]}\n", stream_file_fp(t->out)));
    gboolean ok = stream_file_commit(t->out, error);
    trace_free(t);
    return ok;
}

void trace_abort(Trace *t)
{
    if (!t)
        return;
    stream_file_abort(t->out);
    trace_free(t);
}
