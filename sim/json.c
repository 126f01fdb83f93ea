/* json.c - the streaming JSON writer of json.h.
 *
 * Why our own: GLib has no JSON, json-glib builds a tree (and its objects are hash tables, so key
 * order would not be ours), and the outputs need exactly two things, fixed key order and
 * exactly reproducible numbers. The writer keeps one flag per open container ("nothing written
 * yet") and whether a key is waiting for its value; that is all the state that separators and
 * indentation need.
 */
#include "sim/json.h"

#include <math.h>

struct JsonWriter {
    GString *out;
    bool pretty;
    bool after_key;                /* a key was written; the value comes next, inline */
    guint depth;                   /* open containers */
    bool empty[JSON_MAX_DEPTH + 1]; /* empty[d]: container at depth d has no member yet */
    bool is_object[JSON_MAX_DEPTH + 1];
};

JsonWriter *json_writer_new(GString *out, bool pretty)
{
    JsonWriter *w = g_new0(JsonWriter, 1);
    w->out = out;
    w->pretty = pretty;
    return w;
}

void json_writer_free(JsonWriter *w)
{
    g_free(w);
}

static void newline_indent(JsonWriter *w, guint depth)
{
    if (!w->pretty)
        return;
    g_string_append_c(w->out, '\n');
    for (guint i = 0; i < depth; i++)
        g_string_append(w->out, "  ");
}

/* Separator before a new member of the current container (or nothing after a key). */
static void begin_member(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (!w->empty[w->depth])
        g_string_append_c(w->out, ',');
    w->empty[w->depth] = false;
    newline_indent(w, w->depth);
}

static void begin_value(JsonWriter *w)
{
    g_return_if_fail(w->after_key || w->depth == 0 || !w->is_object[w->depth]);
    begin_member(w);
}

void json_key(JsonWriter *w, const char *key)
{
    g_return_if_fail(w->depth > 0 && w->is_object[w->depth] && !w->after_key);
    begin_member(w);
    json_append_escaped(w->out, key);
    g_string_append(w->out, w->pretty ? ": " : ":");
    w->after_key = true;
}

static void open_container(JsonWriter *w, char c, bool is_object)
{
    g_return_if_fail(w->depth < JSON_MAX_DEPTH);
    begin_value(w);
    g_string_append_c(w->out, c);
    w->depth++;
    w->empty[w->depth] = true;
    w->is_object[w->depth] = is_object;
}

static void close_container(JsonWriter *w, char c, bool is_object)
{
    g_return_if_fail(w->depth > 0 && w->is_object[w->depth] == is_object && !w->after_key);
    bool was_empty = w->empty[w->depth];
    w->depth--;
    if (!was_empty)
        newline_indent(w, w->depth);
    g_string_append_c(w->out, c);
    if (w->depth == 0 && w->pretty)
        g_string_append_c(w->out, '\n');
}

void json_begin_object(JsonWriter *w)
{
    open_container(w, '{', true);
}

void json_end_object(JsonWriter *w)
{
    close_container(w, '}', true);
}

void json_begin_array(JsonWriter *w)
{
    open_container(w, '[', false);
}

void json_end_array(JsonWriter *w)
{
    close_container(w, ']', false);
}

void json_string(JsonWriter *w, const char *s)
{
    begin_value(w);
    if (s)
        json_append_escaped(w->out, s);
    else
        g_string_append(w->out, "null");
}

void json_int(JsonWriter *w, int64_t v)
{
    begin_value(w);
    g_string_append_printf(w->out, "%" G_GINT64_FORMAT, (gint64)v);
}

void json_uint(JsonWriter *w, uint64_t v)
{
    begin_value(w);
    g_string_append_printf(w->out, "%" G_GUINT64_FORMAT, (guint64)v);
}

void json_double(JsonWriter *w, double v)
{
    begin_value(w);
    if (!isfinite(v)) {
        g_string_append(w->out, "null");
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    /* g_ascii_formatd: "%.17g" independent of the locale's decimal point. */
    g_string_append(w->out, g_ascii_formatd(buf, sizeof buf, "%.17g", v));
}

void json_bool(JsonWriter *w, bool v)
{
    begin_value(w);
    g_string_append(w->out, v ? "true" : "false");
}

void json_null(JsonWriter *w)
{
    begin_value(w);
    g_string_append(w->out, "null");
}

void json_member_string(JsonWriter *w, const char *key, const char *s)
{
    json_key(w, key);
    json_string(w, s);
}

void json_member_uint(JsonWriter *w, const char *key, uint64_t v)
{
    json_key(w, key);
    json_uint(w, v);
}

void json_member_double(JsonWriter *w, const char *key, double v)
{
    json_key(w, key);
    json_double(w, v);
}

void json_member_bool(JsonWriter *w, const char *key, bool v)
{
    json_key(w, key);
    json_bool(w, v);
}

static void append_escaped_char(GString *out, gunichar c)
{
    switch (c) {
    case '"': g_string_append(out, "\\\""); break;
    case '\\': g_string_append(out, "\\\\"); break;
    case '\b': g_string_append(out, "\\b"); break;
    case '\f': g_string_append(out, "\\f"); break;
    case '\n': g_string_append(out, "\\n"); break;
    case '\r': g_string_append(out, "\\r"); break;
    case '\t': g_string_append(out, "\\t"); break;
    default:
        if (c < 0x20)
            g_string_append_printf(out, "\\u%04x", (unsigned)c);
        else
            g_string_append_unichar(out, c);
    }
}

void json_append_escaped(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    const char *p = s;
    while (*p) {
        gunichar c = g_utf8_get_char_validated(p, -1);
        if (c == (gunichar)-1 || c == (gunichar)-2) {
            g_string_append(out, "\\ufffd"); /* one invalid byte: skip it, mark it */
            p++;
            continue;
        }
        append_escaped_char(out, c);
        p = g_utf8_next_char(p);
    }
    g_string_append_c(out, '"');
}
