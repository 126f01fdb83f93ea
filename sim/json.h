/* json.h - a small streaming JSON writer into a GString.
 *
 * Output files (metrics.json, compare.json) are written with it so that key order is exactly
 * the order of the calls: nothing is ever collected into a hash table first. Values are emitted
 * as they come; the writer only remembers, per open container, whether it is still empty.
 *
 * Usage:  json_begin_object(w); json_key(w, "a"); json_int(w, 1); json_end_object(w);
 * Strings are escaped fully (quotes, backslash, every control character; invalid UTF-8 becomes
 * U+FFFD). Doubles are printed with "%.17g" (round-trips exactly), NaN and infinities as null.
 * Misuse (a value where a key is expected, unbalanced ends) is a programming error:
 * g_return_if_fail.
 */
#ifndef SKSIM_JSON_H
#define SKSIM_JSON_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 32

typedef struct JsonWriter JsonWriter;

/* Appends to out (not owned). pretty: 2-space indent, one member per line, "key": value. */
JsonWriter *json_writer_new(GString *out, bool pretty);
void json_writer_free(JsonWriter *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JsonWriter, json_writer_free)

void json_begin_object(JsonWriter *w);
void json_end_object(JsonWriter *w);
void json_begin_array(JsonWriter *w);
void json_end_array(JsonWriter *w);
/* The next value is this member's. Only inside an object. */
void json_key(JsonWriter *w, const char *key);

void json_string(JsonWriter *w, const char *s); /* NULL writes null */
void json_int(JsonWriter *w, int64_t v);
void json_uint(JsonWriter *w, uint64_t v);
void json_double(JsonWriter *w, double v);      /* non-finite writes null */
void json_bool(JsonWriter *w, bool v);
void json_null(JsonWriter *w);

/* key + value in one call, for the common flat members. */
void json_member_string(JsonWriter *w, const char *key, const char *s);
void json_member_uint(JsonWriter *w, const char *key, uint64_t v);
void json_member_double(JsonWriter *w, const char *key, double v);
void json_member_bool(JsonWriter *w, const char *key, bool v);

/* Append s as a quoted, escaped JSON string. */
void json_append_escaped(GString *out, const char *s);

#endif
