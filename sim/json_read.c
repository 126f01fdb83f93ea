/* json_read.c - a strict recursive-descent JSON parser into a small tree (see json_read.h).
 *
 * sksim reads back only the files it wrote itself, but those files may be truncated by hand or
 * produced by an older version, so every syntax error is reported with its line and column and
 * nothing is guessed. Numbers are checked against the JSON grammar and then converted with
 * g_ascii_strtod (locale-independent). Strings decode every escape, \u surrogate pairs included,
 * and must be valid UTF-8.
 */
#include "sim/json_read.h"

#include <math.h>
#include <string.h>

struct JsonValue {
    JsonKind kind;
    bool b;
    double num;
    char *str;
    GPtrArray *items; /* JsonValue*: array elements or object values */
    GPtrArray *keys;  /* char*: object keys, parallel to items */
};

typedef struct {
    const char *p, *end, *start;
    int depth;
} Reader;

void json_value_free(JsonValue *v)
{
    if (!v)
        return;
    g_free(v->str);
    if (v->items)
        g_ptr_array_unref(v->items);
    if (v->keys)
        g_ptr_array_unref(v->keys);
    g_free(v);
}

static JsonValue *value_new(JsonKind kind)
{
    JsonValue *v = g_new0(JsonValue, 1);
    v->kind = kind;
    if (kind == JSON_V_ARRAY || kind == JSON_V_OBJECT)
        v->items = g_ptr_array_new_with_free_func((GDestroyNotify)json_value_free);
    if (kind == JSON_V_OBJECT)
        v->keys = g_ptr_array_new_with_free_func(g_free);
    return v;
}

static gboolean fail(const Reader *r, GError **error, const char *what)
{
    int line = 1, col = 1;
    for (const char *q = r->start; q < r->p; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "line %d col %d: %s", line, col, what);
    return FALSE;
}

static void skip_ws(Reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static gboolean literal(Reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return FALSE;
    r->p += n;
    return TRUE;
}

static JsonValue *parse_value(Reader *r, GError **error);

/* ---- numbers --------------------------------------------------------------------------------- */

static void skip_digits(Reader *r)
{
    while (r->p < r->end && g_ascii_isdigit(*r->p))
        r->p++;
}

static JsonValue *parse_number(Reader *r, GError **error)
{
    const char *s = r->p;
    if (r->p < r->end && *r->p == '-')
        r->p++;
    if (r->p >= r->end || !g_ascii_isdigit(*r->p)) {
        fail(r, error, "expected a digit");
        return NULL;
    }
    if (*r->p == '0')
        r->p++;
    else
        skip_digits(r);
    if (r->p < r->end && *r->p == '.') {
        r->p++;
        if (r->p >= r->end || !g_ascii_isdigit(*r->p)) {
            fail(r, error, "expected a digit after '.'");
            return NULL;
        }
        skip_digits(r);
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->end || !g_ascii_isdigit(*r->p)) {
            fail(r, error, "expected a digit in the exponent");
            return NULL;
        }
        skip_digits(r);
    }
    g_autofree char *text = g_strndup(s, (gsize)(r->p - s));
    JsonValue *v = value_new(JSON_V_NUMBER);
    v->num = g_ascii_strtod(text, NULL);
    return v;
}

/* ---- strings --------------------------------------------------------------------------------- */

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int d = g_ascii_xdigit_value(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* After "\u": one code point, a surrogate pair being two escapes. */
static gboolean unicode_escape(Reader *r, GString *out, GError **error)
{
    if (r->end - r->p < 4 || hex4(r->p) < 0)
        return fail(r, error, "bad \\u escape");
    gunichar c = (gunichar)hex4(r->p);
    r->p += 4;
    if (c >= 0xD800 && c <= 0xDBFF) {
        if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u' || hex4(r->p + 2) < 0xDC00 ||
            hex4(r->p + 2) > 0xDFFF)
            return fail(r, error, "unpaired surrogate in \\u escape");
        c = 0x10000 + ((c - 0xD800) << 10) + ((gunichar)hex4(r->p + 2) - 0xDC00);
        r->p += 6;
    } else if (c >= 0xDC00 && c <= 0xDFFF) {
        return fail(r, error, "unpaired surrogate in \\u escape");
    }
    g_string_append_unichar(out, c);
    return TRUE;
}

static gboolean escape(Reader *r, GString *out, GError **error)
{
    static const char from[] = "\"\\/bfnrt";
    static const char to[] = "\"\\/\b\f\n\r\t";
    if (r->p >= r->end)
        return fail(r, error, "unterminated string");
    char c = *r->p++;
    if (c == 'u')
        return unicode_escape(r, out, error);
    const char *k = strchr(from, c);
    if (!k || c == '\0')
        return fail(r, error, "bad escape in string");
    g_string_append_c(out, to[k - from]);
    return TRUE;
}

static char *parse_string_text(Reader *r, GError **error)
{
    r->p++; /* the opening quote */
    g_autoptr(GString) out = g_string_new(NULL);
    for (;;) {
        if (r->p >= r->end) {
            fail(r, error, "unterminated string");
            return NULL;
        }
        char c = *r->p;
        if (c == '"')
            break;
        if ((unsigned char)c < 0x20) {
            fail(r, error, "control character in string");
            return NULL;
        }
        r->p++;
        if (c != '\\')
            g_string_append_c(out, c);
        else if (!escape(r, out, error))
            return NULL;
    }
    r->p++;
    if (!g_utf8_validate_len(out->str, out->len, NULL)) {
        fail(r, error, "string is not valid UTF-8");
        return NULL;
    }
    return g_string_free(g_steal_pointer(&out), FALSE);
}

/* ---- containers ------------------------------------------------------------------------------ */

/* Items separated by ',' up to `close`; for objects each item is "key": value. */
static JsonValue *parse_container(Reader *r, JsonKind kind, char close, GError **error)
{
    if (++r->depth > JSON_READ_MAX_DEPTH) {
        fail(r, error, "nesting too deep");
        return NULL;
    }
    r->p++; /* '[' or '{' */
    g_autoptr(JsonValue) v = value_new(kind);
    skip_ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        r->depth--;
        return g_steal_pointer(&v);
    }
    for (;;) {
        skip_ws(r);
        if (kind == JSON_V_OBJECT) {
            if (r->p >= r->end || *r->p != '"') {
                fail(r, error, "expected a string key");
                return NULL;
            }
            char *key = parse_string_text(r, error);
            if (!key)
                return NULL;
            g_ptr_array_add(v->keys, key);
            skip_ws(r);
            if (r->p >= r->end || *r->p != ':') {
                fail(r, error, "expected ':'");
                return NULL;
            }
            r->p++;
        }
        JsonValue *item = parse_value(r, error);
        if (!item)
            return NULL;
        g_ptr_array_add(v->items, item);
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            r->depth--;
            return g_steal_pointer(&v);
        }
        fail(r, error, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
        return NULL;
    }
}

static JsonValue *parse_value(Reader *r, GError **error)
{
    skip_ws(r);
    if (r->p >= r->end) {
        fail(r, error, "unexpected end of input");
        return NULL;
    }
    switch (*r->p) {
    case '{':
        return parse_container(r, JSON_V_OBJECT, '}', error);
    case '[':
        return parse_container(r, JSON_V_ARRAY, ']', error);
    case '"': {
        char *s = parse_string_text(r, error);
        if (!s)
            return NULL;
        JsonValue *v = value_new(JSON_V_STRING);
        v->str = s;
        return v;
    }
    default:
        break;
    }
    if (literal(r, "null"))
        return value_new(JSON_V_NULL);
    gboolean is_true = literal(r, "true");
    if (is_true || literal(r, "false")) {
        JsonValue *v = value_new(JSON_V_BOOL);
        v->b = is_true;
        return v;
    }
    if (*r->p == '-' || g_ascii_isdigit(*r->p))
        return parse_number(r, error);
    fail(r, error, "unexpected character");
    return NULL;
}

JsonValue *json_parse(const char *text, gssize len, GError **error)
{
    Reader r = { .p = text, .start = text, .end = text + (len < 0 ? (gssize)strlen(text) : len) };
    g_autoptr(JsonValue) v = parse_value(&r, error);
    if (!v)
        return NULL;
    skip_ws(&r);
    if (r.p != r.end) {
        fail(&r, error, "text after the value");
        return NULL;
    }
    return g_steal_pointer(&v);
}

JsonValue *json_parse_file(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, error))
        return NULL;
    g_autoptr(GError) err = NULL;
    JsonValue *v = json_parse(text, (gssize)len, &err);
    if (!v)
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", path, err->message);
    return v;
}

/* ---- access ---------------------------------------------------------------------------------- */

JsonKind json_kind(const JsonValue *v)
{
    return v ? v->kind : JSON_V_NULL;
}

const JsonValue *json_get(const JsonValue *v, const char *key)
{
    if (!v || v->kind != JSON_V_OBJECT)
        return NULL;
    for (guint i = 0; i < v->keys->len; i++)
        if (strcmp(g_ptr_array_index(v->keys, i), key) == 0)
            return g_ptr_array_index(v->items, i);
    return NULL;
}

guint json_len(const JsonValue *v)
{
    return v && v->items ? v->items->len : 0;
}

const JsonValue *json_at(const JsonValue *v, guint i)
{
    return i < json_len(v) ? g_ptr_array_index(v->items, i) : NULL;
}

const char *json_key_at(const JsonValue *v, guint i)
{
    if (!v || v->kind != JSON_V_OBJECT || i >= v->keys->len)
        return NULL;
    return g_ptr_array_index(v->keys, i);
}

gboolean json_number(const JsonValue *v, double *out)
{
    if (v && v->kind == JSON_V_NULL) {
        *out = NAN;
        return TRUE;
    }
    if (!v || v->kind != JSON_V_NUMBER)
        return FALSE;
    *out = v->num;
    return TRUE;
}

const char *json_string_value(const JsonValue *v)
{
    return v && v->kind == JSON_V_STRING ? v->str : NULL;
}

gboolean json_is_true(const JsonValue *v)
{
    return v && v->kind == JSON_V_BOOL && v->b;
}

gboolean json_is_bool(const JsonValue *v)
{
    return v && v->kind == JSON_V_BOOL;
}
