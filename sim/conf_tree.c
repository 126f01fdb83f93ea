/* conf_tree.c - read YAML into a ConfNode tree with libyaml's event (parser) API.
 *
 * Why events and not libyaml's document loader: the loader expands aliases (the "billion laughs"
 * hazard), keeps duplicate keys and has no depth limit. Reading events ourselves lets us refuse
 * anchors, aliases and tags where they appear, catch a duplicate key at its own line, stop at
 * CONF_MAX_DEPTH, and turn libyaml's problem marks into "FILE:LINE:COL: message" errors.
 *
 * The builder keeps a stack of open collections. Inside a mapping, scalars alternate between key
 * and value; each open mapping has a hash set of its keys so duplicate detection stays linear on
 * large inputs. Reader errors (bad UTF-8, control bytes) come with a byte offset rather than a
 * mark, so their line and column are counted from the input here.
 */
#include "sim/conf_tree.h"

#include <stdarg.h>
#include <string.h>
#include <yaml.h>

#include "sim/scenario.h"

typedef struct Frame {
    ConfNode *node;    /* the open mapping or sequence (owned by its parent, or the root) */
    ConfNode *key;     /* MAP: a key read and waiting for its value (owned here until then) */
    GHashTable *seen;  /* MAP: key text -> key node, for duplicate detection */
} Frame;

typedef struct Reader {
    yaml_parser_t parser;
    const char *data;
    gsize len;
    const char *display; /* name used in messages */
    const char *origin;  /* stored in nodes (NULL for the scenario file) */
    int fixed_line;      /* > 0: value mode, every node sits on this line */
    int col_base;        /* value mode: 0-based column of the value's first character */
    GArray *stack;       /* Frame */
    ConfNode *root;
    int documents;
} Reader;

/* ---- nodes ----------------------------------------------------------------------------------- */

static ConfNode *node_new(ConfNodeKind kind, const char *origin, int line, int col)
{
    ConfNode *n = g_new0(ConfNode, 1);
    n->kind = kind;
    n->origin = origin;
    n->line = line;
    n->col = col;
    if (kind != CONF_NODE_SCALAR)
        n->items = g_ptr_array_new_with_free_func((GDestroyNotify)conf_node_free);
    if (kind == CONF_NODE_MAP)
        n->keys = g_ptr_array_new_with_free_func((GDestroyNotify)conf_node_free);
    return n;
}

ConfNode *conf_node_new_scalar(const char *text, bool plain, const char *origin, int line, int col)
{
    ConfNode *n = node_new(CONF_NODE_SCALAR, origin, line, col);
    n->text = g_strdup(text);
    n->plain = plain;
    return n;
}

ConfNode *conf_node_new_map(const char *origin, int line, int col)
{
    return node_new(CONF_NODE_MAP, origin, line, col);
}

void conf_node_free(ConfNode *n)
{
    if (!n)
        return;
    g_free(n->text);
    if (n->keys)
        g_ptr_array_unref(n->keys);
    if (n->items)
        g_ptr_array_unref(n->items);
    g_free(n);
}

ConfNode *conf_node_copy(const ConfNode *n)
{
    if (n->kind == CONF_NODE_SCALAR)
        return conf_node_new_scalar(n->text, n->plain, n->origin, n->line, n->col);
    ConfNode *c = node_new(n->kind, n->origin, n->line, n->col);
    for (guint i = 0; i < n->items->len; i++) {
        if (n->keys)
            g_ptr_array_add(c->keys, conf_node_copy(g_ptr_array_index(n->keys, i)));
        g_ptr_array_add(c->items, conf_node_copy(g_ptr_array_index(n->items, i)));
    }
    return c;
}

bool conf_node_is_null(const ConfNode *n)
{
    if (n->kind != CONF_NODE_SCALAR || !n->plain)
        return false;
    return n->text[0] == '\0' || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
           strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0;
}

char *conf_node_describe(const ConfNode *n)
{
    if (n->kind == CONF_NODE_MAP)
        return g_strdup("a mapping");
    if (n->kind == CONF_NODE_SEQ)
        return g_strdup("a sequence");
    if (conf_node_is_null(n))
        return g_strdup("an empty value");
    GString *s = g_string_new("'");
    glong n_chars = g_utf8_strlen(n->text, -1);
    g_autofree char *head = g_utf8_substring(n->text, 0, MIN(n_chars, 40));
    for (const char *p = head; *p; p++) {
        if (*p == '\n')
            g_string_append(s, "\\n");
        else if (*p == '\t')
            g_string_append(s, "\\t");
        else
            g_string_append_c(s, *p);
    }
    g_string_append(s, n_chars > 40 ? "...'" : "'");
    return g_string_free(s, FALSE);
}

/* ---- mapping helpers ------------------------------------------------------------------------- */

guint conf_map_len(const ConfNode *map)
{
    return map->kind == CONF_NODE_MAP ? map->items->len : 0;
}

ConfNode *conf_map_key_node(const ConfNode *map, guint i)
{
    return g_ptr_array_index(map->keys, i);
}

const char *conf_map_key(const ConfNode *map, guint i)
{
    return conf_map_key_node(map, i)->text;
}

ConfNode *conf_map_value(const ConfNode *map, guint i)
{
    return g_ptr_array_index(map->items, i);
}

ConfNode *conf_map_get(const ConfNode *map, const char *key)
{
    for (guint i = 0; i < conf_map_len(map); i++)
        if (strcmp(conf_map_key(map, i), key) == 0)
            return conf_map_value(map, i);
    return NULL;
}

void conf_map_set(ConfNode *map, ConfNode *key, ConfNode *value)
{
    g_return_if_fail(map->kind == CONF_NODE_MAP && key->kind == CONF_NODE_SCALAR);
    for (guint i = 0; i < map->items->len; i++) {
        if (strcmp(conf_map_key(map, i), key->text) == 0) {
            conf_node_free(key);
            conf_node_free(map->items->pdata[i]);
            map->items->pdata[i] = value;
            return;
        }
    }
    g_ptr_array_add(map->keys, key);
    g_ptr_array_add(map->items, value);
}

ConfNode *conf_node_lookup(const ConfNode *root, const char *dotted)
{
    g_auto(GStrv) parts = g_strsplit(dotted, ".", -1);
    const ConfNode *n = root;
    for (guint i = 0; parts[i] && n; i++)
        n = conf_map_get(n, parts[i]);
    return (ConfNode *)n;
}

/* ---- errors ---------------------------------------------------------------------------------- */

static void set_error_at(GError **error, const char *where, int line, int col, int code,
                         const char *msg)
{
    g_set_error(error, SKSIM_CONF_ERROR, code, "%s:%d:%d: %s", where, line, col, msg);
}

void conf_set_error(GError **error, const char *file, const ConfNode *n, int code,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    const char *where = n && n->origin ? n->origin : file;
    set_error_at(error, where, n ? n->line : 1, n ? n->col : 1, code, msg);
}

static int mark_line(const Reader *r, yaml_mark_t m)
{
    return r->fixed_line > 0 ? r->fixed_line : (int)m.line + 1;
}

/* In value mode, a mark past the single line (libyaml moves the stream end to a new line) means
 * "just after the last character". */
static int mark_col(const Reader *r, yaml_mark_t m)
{
    if (r->fixed_line > 0 && m.line > 0)
        return r->col_base + (int)g_utf8_strlen(r->data, (gssize)r->len) + 1;
    return r->col_base + (int)m.column + 1;
}

static void reader_error(Reader *r, yaml_mark_t m, int code, GError **error, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);
static void reader_error(Reader *r, yaml_mark_t m, int code, GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    set_error_at(error, r->display, mark_line(r, m), mark_col(r, m), code, msg);
}

/* libyaml reports reader errors (encoding, control bytes) by byte offset: count lines and
 * characters up to it ourselves. The bytes before the offset decoded fine, so counting
 * non-continuation bytes counts characters. */
static yaml_mark_t offset_to_mark(const Reader *r, size_t offset)
{
    yaml_mark_t m = {0};
    size_t end = MIN(offset, r->len);
    for (size_t i = 0; i < end; i++) {
        unsigned char c = (unsigned char)r->data[i];
        if (c == '\n') {
            m.line++;
            m.column = 0;
        } else if ((c & 0xC0) != 0x80) {
            m.column++;
        }
    }
    return m;
}

/* The character at a 0-based (line, column) mark, or 0 when outside the input. */
static char char_at(const Reader *r, yaml_mark_t m)
{
    const char *p = r->data, *end = r->data + r->len;
    for (size_t line = 0; line < m.line && p < end; p++)
        if (*p == '\n')
            line++;
    for (size_t col = 0; col < m.column && p < end; col++)
        p = g_utf8_next_char(p);
    return p < end ? *p : 0;
}

static void reader_yaml_error(Reader *r, GError **error)
{
    const yaml_parser_t *p = &r->parser;
    const char *problem = p->problem ? p->problem : "unknown error";
    if (p->error == YAML_MEMORY_ERROR) {
        set_error_at(error, r->display, 1, 1, SKSIM_CONF_ERROR_LIMIT, "out of memory reading YAML");
    } else if (p->error == YAML_READER_ERROR) {
        yaml_mark_t m = offset_to_mark(r, p->problem_offset);
        if (strstr(problem, "control") && p->problem_value >= 0)
            reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error,
                         "control character 0x%02X is not allowed (scenario files are UTF-8 text)",
                         (unsigned)p->problem_value);
        else if (p->problem_value >= 0 && p->problem_value <= 0xFF)
            reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error,
                         "invalid UTF-8 byte 0x%02X (scenario files are UTF-8 text)",
                         (unsigned)p->problem_value);
        else
            reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error,
                         "invalid UTF-8 text (%s)", problem);
    } else if (char_at(r, p->problem_mark) == '\t') {
        reader_error(r, p->problem_mark, SKSIM_CONF_ERROR_SYNTAX, error,
                     "syntax error: a tab character; YAML indents with spaces");
    } else if (p->context) {
        reader_error(r, p->problem_mark, SKSIM_CONF_ERROR_SYNTAX, error,
                     "syntax error: %s (%s at line %d, column %d)", problem, p->context,
                     mark_line(r, p->context_mark), mark_col(r, p->context_mark));
    } else {
        reader_error(r, p->problem_mark, SKSIM_CONF_ERROR_SYNTAX, error, "syntax error: %s",
                     problem);
    }
}

/* ---- building -------------------------------------------------------------------------------- */

static Frame *top_frame(Reader *r)
{
    return r->stack->len ? &g_array_index(r->stack, Frame, r->stack->len - 1) : NULL;
}

static void frame_clear(Frame *f)
{
    conf_node_free(f->key);
    if (f->seen)
        g_hash_table_unref(f->seen);
}

/* Hand n (owned) to the open collection, or make it the root. */
static gboolean reader_attach(Reader *r, ConfNode *n, GError **error)
{
    Frame *f = top_frame(r);
    if (!f) {
        r->root = n;
        return TRUE;
    }
    if (f->node->kind == CONF_NODE_SEQ) {
        g_ptr_array_add(f->node->items, n);
        return TRUE;
    }
    if (f->key) {
        g_ptr_array_add(f->node->keys, f->key);
        g_ptr_array_add(f->node->items, n);
        f->key = NULL;
        return TRUE;
    }
    g_autoptr(ConfNode) key = n;
    if (key->kind != CONF_NODE_SCALAR) {
        conf_set_error(error, r->display, key, SKSIM_CONF_ERROR_TYPE,
                       "mapping keys must be plain names, not %s",
                       key->kind == CONF_NODE_MAP ? "mappings" : "sequences");
        return FALSE;
    }
    const ConfNode *first = g_hash_table_lookup(f->seen, key->text);
    if (first) {
        conf_set_error(error, r->display, key, SKSIM_CONF_ERROR_DUPLICATE_KEY,
                       "duplicate key '%s' (first given at line %d)", key->text, first->line);
        return FALSE;
    }
    g_hash_table_insert(f->seen, key->text, key);
    f->key = g_steal_pointer(&key);
    return TRUE;
}

static gboolean check_props(Reader *r, yaml_mark_t m, const yaml_char_t *anchor,
                            const yaml_char_t *tag, GError **error)
{
    if (anchor) {
        reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error,
                     "YAML anchors and aliases are not supported");
        return FALSE;
    }
    if (tag) {
        reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error, "YAML tags such as '%s' are not supported",
                     (const char *)tag);
        return FALSE;
    }
    return TRUE;
}

static gboolean reader_open(Reader *r, ConfNodeKind kind, yaml_mark_t m, GError **error)
{
    if (r->stack->len >= CONF_MAX_DEPTH) {
        reader_error(r, m, SKSIM_CONF_ERROR_LIMIT, error, "nesting deeper than %d levels",
                     CONF_MAX_DEPTH);
        return FALSE;
    }
    ConfNode *n = node_new(kind, r->origin, mark_line(r, m), mark_col(r, m));
    if (!reader_attach(r, n, error))
        return FALSE;
    Frame f = {.node = n};
    if (kind == CONF_NODE_MAP)
        f.seen = g_hash_table_new(g_str_hash, g_str_equal);
    g_array_append_val(r->stack, f);
    return TRUE;
}

static void reader_close(Reader *r)
{
    frame_clear(top_frame(r));
    g_array_set_size(r->stack, r->stack->len - 1);
}

static gboolean reader_scalar(Reader *r, const yaml_event_t *ev, GError **error)
{
    if (!check_props(r, ev->start_mark, ev->data.scalar.anchor, ev->data.scalar.tag, error))
        return FALSE;
    bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    ConfNode *n = conf_node_new_scalar((const char *)ev->data.scalar.value, plain, r->origin,
                                       mark_line(r, ev->start_mark), mark_col(r, ev->start_mark));
    return reader_attach(r, n, error);
}

/* One event; *done is set at the end of the stream. */
static gboolean reader_event(Reader *r, const yaml_event_t *ev, gboolean *done, GError **error)
{
    switch (ev->type) {
    case YAML_STREAM_END_EVENT:
        *done = TRUE;
        return TRUE;
    case YAML_DOCUMENT_START_EVENT:
        if (r->documents++ > 0) {
            reader_error(r, ev->start_mark, SKSIM_CONF_ERROR_SYNTAX, error,
                         "only one YAML document is allowed (found a second '---')");
            return FALSE;
        }
        return TRUE;
    case YAML_ALIAS_EVENT:
        reader_error(r, ev->start_mark, SKSIM_CONF_ERROR_SYNTAX, error,
                     "YAML aliases are not supported");
        return FALSE;
    case YAML_SCALAR_EVENT:
        return reader_scalar(r, ev, error);
    case YAML_SEQUENCE_START_EVENT:
        return check_props(r, ev->start_mark, ev->data.sequence_start.anchor,
                           ev->data.sequence_start.tag, error) &&
               reader_open(r, CONF_NODE_SEQ, ev->start_mark, error);
    case YAML_MAPPING_START_EVENT:
        return check_props(r, ev->start_mark, ev->data.mapping_start.anchor,
                           ev->data.mapping_start.tag, error) &&
               reader_open(r, CONF_NODE_MAP, ev->start_mark, error);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        reader_close(r);
        return TRUE;
    default:
        return TRUE;
    }
}

static gboolean reader_run(Reader *r, GError **error)
{
    gboolean done = FALSE;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&r->parser, &ev)) {
            reader_yaml_error(r, error);
            return FALSE;
        }
        gboolean ok = reader_event(r, &ev, &done, error);
        yaml_event_delete(&ev);
        if (!ok)
            return FALSE;
    }
    return TRUE;
}

/* libyaml reports an invalid UTF-8 sequence at whichever byte it choked on and names that byte;
 * validating first lets the message point at, and name, the sequence's first byte. */
static gboolean reader_check_utf8(Reader *r, GError **error)
{
    const char *end = NULL;
    if (g_utf8_validate_len(r->data, r->len, &end))
        return TRUE;
    unsigned char bad = (unsigned char)*end;
    yaml_mark_t m = offset_to_mark(r, (size_t)(end - r->data));
    if (bad == 0)
        reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error,
                     "control character 0x00 is not allowed (scenario files are UTF-8 text)");
    else
        reader_error(r, m, SKSIM_CONF_ERROR_SYNTAX, error,
                     "invalid UTF-8 byte 0x%02X (scenario files are UTF-8 text)", bad);
    return FALSE;
}

static ConfNode *reader_parse(Reader *r, GError **error)
{
    if (r->len >= 3 && memcmp(r->data, "\xEF\xBB\xBF", 3) == 0) {
        /* A UTF-8 byte-order mark (Windows editors): not content, and invisible in columns. */
        r->data += 3;
        r->len -= 3;
    }
    if (r->len == 0)
        return NULL;
    if (!reader_check_utf8(r, error))
        return NULL;
    r->stack = g_array_new(FALSE, TRUE, sizeof(Frame));
    yaml_parser_initialize(&r->parser);
    yaml_parser_set_input_string(&r->parser, (const unsigned char *)r->data, r->len);
    yaml_parser_set_encoding(&r->parser, YAML_UTF8_ENCODING);
    gboolean ok = reader_run(r, error);
    yaml_parser_delete(&r->parser);
    while (r->stack->len)
        reader_close(r);
    g_array_unref(r->stack);
    if (!ok) {
        conf_node_free(r->root);
        return NULL;
    }
    return r->root;
}

ConfNode *conf_tree_parse(const char *data, gsize len, const char *display, GError **error)
{
    if (len > CONF_MAX_BYTES) {
        set_error_at(error, display, 1, 1, SKSIM_CONF_ERROR_LIMIT,
                     "file too large (the limit is 4 MiB)");
        return NULL;
    }
    Reader r = {.data = data, .len = len, .display = display};
    GError *local = NULL;
    g_autoptr(ConfNode) root = reader_parse(&r, &local);
    if (local) {
        g_propagate_error(error, local);
        return NULL;
    }
    if (!root || conf_node_is_null(root)) {
        set_error_at(error, display, 1, 1, SKSIM_CONF_ERROR_EMPTY, "empty scenario file");
        return NULL;
    }
    return g_steal_pointer(&root);
}

ConfNode *conf_tree_parse_value(const char *text, const char *origin, int line, int col_base,
                                GError **error)
{
    Reader r = {
        .data = text,
        .len = strlen(text),
        .display = origin,
        .origin = origin,
        .fixed_line = line,
        .col_base = col_base,
    };
    if (strpbrk(text, "\r\n")) {
        set_error_at(error, origin, line, col_base + 1, SKSIM_CONF_ERROR_SYNTAX,
                     "a value must be on one line");
        return NULL;
    }
    GError *local = NULL;
    ConfNode *root = reader_parse(&r, &local);
    if (local) {
        g_propagate_error(error, local);
        return NULL;
    }
    if (!root)
        root = conf_node_new_scalar("", true, origin, line, col_base + 1);
    return root;
}
