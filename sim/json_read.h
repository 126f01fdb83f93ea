/* json_read.h - a small JSON reader: text in, a read-only tree out.
 *
 * sksim writes its own JSON (metrics.json, compare.json, through sim/json.h) and reads it back in
 * `sksim plot`, `sksim report` and `sksim sweep` (to skip runs already done). GLib has no JSON
 * parser and json-glib is not a dependency, so this is the few hundred lines needed: strict
 * RFC 8259 syntax, objects keep their members in file order (never a hash table), duplicate keys
 * are kept (look-up returns the first), nesting is limited to JSON_READ_MAX_DEPTH.
 */
#ifndef SKSIM_JSON_READ_H
#define SKSIM_JSON_READ_H

#include <glib.h>
#include <stdbool.h>

#define JSON_READ_MAX_DEPTH 64

typedef enum {
    JSON_V_NULL,
    JSON_V_BOOL,
    JSON_V_NUMBER,
    JSON_V_STRING,
    JSON_V_ARRAY,
    JSON_V_OBJECT,
} JsonKind;

typedef struct JsonValue JsonValue;

/* Parse text (len bytes, or up to NUL when len < 0). Errors: "line L col C: message". */
JsonValue *json_parse(const char *text, gssize len, GError **error);
/* Read and parse a file; errors start with the path. */
JsonValue *json_parse_file(const char *path, GError **error);
void json_value_free(JsonValue *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JsonValue, json_value_free)

JsonKind json_kind(const JsonValue *v);
/* Member `key` of an object (the first one), or NULL when v is not an object or has no such key. */
const JsonValue *json_get(const JsonValue *v, const char *key);
/* Array elements or object members (0 for anything else). */
guint json_len(const JsonValue *v);
/* Element i of an array, or the value of member i of an object; NULL when out of range. */
const JsonValue *json_at(const JsonValue *v, guint i);
/* The key of member i of an object; NULL when v is not an object or i is out of range. */
const char *json_key_at(const JsonValue *v, guint i);

/* The value of a number (null reads as NaN, which is how sim/json.h writes non-finite values).
 * FALSE for anything else or NULL. */
gboolean json_number(const JsonValue *v, double *out);
/* The string, or NULL when v is not a string. */
const char *json_string_value(const JsonValue *v);
/* TRUE when v is the literal true. */
gboolean json_is_true(const JsonValue *v);
gboolean json_is_bool(const JsonValue *v);

#endif
