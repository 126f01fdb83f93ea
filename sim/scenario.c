/* scenario.c - load a scenario file and resolve it (base + variant + --set) to a ScenarioConf.
 *
 * Loading reads the tree (conf_tree.c), then validates everything it can up front so that a bad
 * scenario fails at load, not halfway through a comparison: the base is bound, every variant is
 * applied and bound, and the expect and report sections are read. The tree is kept; each
 * scenario_resolve() copies it, applies the variant's overrides and the --set arguments in that
 * order (conf_override.c) and binds the copy (conf_bind.c). So a --set beats the variant, and a
 * variant beats the file.
 */
#include "sim/scenario.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim/conf_bind.h"
#include "sim/conf_override.h"
#include "sim/conf_suggest.h"
#include "sim/conf_tree.h"
#include "sim/counters.h"

G_DEFINE_QUARK(sksim-conf-error-quark, sksim_conf_error)

struct Scenario {
    char *path;              /* display name for messages */
    ConfNode *root;          /* the file as read */
    char *name, *title;
    GPtrArray *variants;     /* char*: names in file order */
    GPtrArray *expects;      /* ExpectConf* */
    ReportConf report;
};

/* ---- small helpers ---------------------------------------------------------------------------- */

static void expect_conf_free(gpointer p)
{
    ExpectConf *e = p;
    g_free(e->name);
    g_free(e->check);
    g_free(e);
}

static bool plain_name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!(g_ascii_isalnum(*s) || *s == '_' || *s == '-'))
            return false;
    return true;
}

static gboolean want_kind(const char *file, const ConfNode *n, ConfNodeKind kind, const char *what,
                          GError **error)
{
    if (n->kind == kind && !conf_node_is_null(n))
        return TRUE;
    g_autofree char *got = conf_node_describe(n);
    conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE, "expected %s, got %s", what, got);
    return FALSE;
}

/* Unknown key in a small fixed mapping (expect entries, report). */
static gboolean check_keys(const char *file, const ConfNode *map, const char *const *valid,
                           const char *where, GError **error)
{
    for (guint i = 0; i < conf_map_len(map); i++) {
        const ConfNode *key = conf_map_key_node(map, i);
        if (g_strv_contains(valid, key->text))
            continue;
        g_autoptr(GPtrArray) cands = g_ptr_array_new();
        for (guint j = 0; valid[j]; j++)
            g_ptr_array_add(cands, (gpointer)valid[j]);
        g_autofree char *hint = conf_suggest_hint(key->text, cands);
        conf_set_error(error, file, key, SKSIM_CONF_ERROR_UNKNOWN_KEY, "unknown key '%s' in %s%s",
                       key->text, where, hint);
        return FALSE;
    }
    return TRUE;
}

/* ---- variants --------------------------------------------------------------------------------- */

static const ConfNode *variants_node(const Scenario *s)
{
    const ConfNode *v = conf_map_get(s->root, "variants");
    return v && !conf_node_is_null(v) ? v : NULL;
}

static gboolean read_variants(Scenario *s, GError **error)
{
    const ConfNode *vs = variants_node(s);
    if (!vs)
        return TRUE;
    if (!want_kind(s->path, vs, CONF_NODE_MAP, "a mapping of variant names to overrides", error))
        return FALSE;
    for (guint i = 0; i < conf_map_len(vs); i++) {
        const ConfNode *key = conf_map_key_node(vs, i), *v = conf_map_value(vs, i);
        if (!plain_name_ok(key->text)) {
            conf_set_error(error, s->path, key, SKSIM_CONF_ERROR_TYPE,
                           "invalid variant name '%s': use letters, digits, '_' and '-'", key->text);
            return FALSE;
        }
        if (!want_kind(s->path, v, CONF_NODE_MAP, "a mapping of key paths to values", error))
            return FALSE;
        g_ptr_array_add(s->variants, g_strdup(key->text));
    }
    return TRUE;
}

static gboolean apply_variant(const Scenario *s, ConfNode *tree, const char *variant,
                              GError **error)
{
    const ConfNode *vs = variants_node(s);
    const ConfNode *v = vs ? conf_map_get(vs, variant) : NULL;
    if (!v) {
        g_autofree char *hint = conf_suggest_hint(variant, s->variants);
        g_autoptr(GString) list = g_string_new(NULL);
        for (guint i = 0; i < s->variants->len; i++)
            g_string_append_printf(list, "%s%s", i ? ", " : "",
                                   (const char *)g_ptr_array_index(s->variants, i));
        if (*hint)
            conf_set_error(error, s->path, vs, SKSIM_CONF_ERROR_VARIANT, "unknown variant '%s'%s",
                           variant, hint);
        else
            conf_set_error(error, s->path, vs ? vs : s->root, SKSIM_CONF_ERROR_VARIANT,
                           "unknown variant '%s' (%s%s)", variant,
                           list->len ? "variants: " : "the scenario has no variants", list->str);
        return FALSE;
    }
    for (guint i = 0; i < conf_map_len(v); i++) {
        const ConfNode *key = conf_map_key_node(v, i);
        if (!conf_override_apply(tree, key->text, key, conf_node_copy(conf_map_value(v, i)),
                                 s->path, error))
            return FALSE;
    }
    return TRUE;
}

/* ---- expect ----------------------------------------------------------------------------------- */

static gboolean read_number(const char *file, const ConfNode *n, double *out, GError **error)
{
    if (!want_kind(file, n, CONF_NODE_SCALAR, "a number", error))
        return FALSE;
    char *end = NULL;
    errno = 0;
    double v = g_ascii_strtod(n->text, &end);
    if (end == n->text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE, "expected a number, got '%s'",
                       n->text);
        return FALSE;
    }
    *out = v;
    return TRUE;
}

static gboolean read_bounds(const char *file, const ConfNode *item, ExpectConf *e,
                            const char *where, GError **error)
{
    const ConfNode *min = conf_map_get(item, "min"), *max = conf_map_get(item, "max");
    e->has_min = min != NULL;
    e->has_max = max != NULL;
    if ((min && !read_number(file, min, &e->min, error)) ||
        (max && !read_number(file, max, &e->max, error)))
        return FALSE;
    if (!min && !max) {
        conf_set_error(error, file, item, SKSIM_CONF_ERROR_MISSING,
                       "%s needs a bound: give min, max or both", where);
        return FALSE;
    }
    if (min && max && e->min > e->max) {
        conf_set_error(error, file, min, SKSIM_CONF_ERROR_RANGE,
                       "%s: min (%s) is greater than max (%s)", where, min->text, max->text);
        return FALSE;
    }
    return TRUE;
}

static gboolean read_expect(Scenario *s, const ConfNode *item, guint index, GError **error)
{
    static const char *const keys[] = {"name", "check", "min", "max", NULL};
    g_autofree char *where = g_strdup_printf("expect[%u]", index);
    if (!want_kind(s->path, item, CONF_NODE_MAP, "a mapping {check: ..., min: ..., max: ...}",
                   error) ||
        !check_keys(s->path, item, keys, where, error))
        return FALSE;
    const ConfNode *check = conf_map_get(item, "check"), *name = conf_map_get(item, "name");
    if (!check) {
        conf_set_error(error, s->path, item, SKSIM_CONF_ERROR_MISSING,
                       "missing required key 'check' in %s", where);
        return FALSE;
    }
    if (!want_kind(s->path, check, CONF_NODE_SCALAR, "an expression", error) ||
        (name && !want_kind(s->path, name, CONF_NODE_SCALAR, "a string", error)))
        return FALSE;
    ExpectConf *e = g_new0(ExpectConf, 1);
    g_ptr_array_add(s->expects, e);
    e->check = g_strdup(check->text);
    e->name = g_strdup(name ? name->text : check->text);
    e->line = item->line;
    e->col = item->col;
    return read_bounds(s->path, item, e, where, error);
}

static gboolean read_expects(Scenario *s, GError **error)
{
    const ConfNode *ex = conf_map_get(s->root, "expect");
    if (!ex || conf_node_is_null(ex))
        return TRUE;
    if (!want_kind(s->path, ex, CONF_NODE_SEQ, "a list of checks", error))
        return FALSE;
    for (guint i = 0; i < ex->items->len; i++)
        if (!read_expect(s, g_ptr_array_index(ex->items, i), i, error))
            return FALSE;
    return TRUE;
}

/* ---- report ----------------------------------------------------------------------------------- */

/* where: "report.host", "report.counters entry 'x.TcpOutSegs'" */
static gboolean check_host(const Scenario *s, const ScenarioConf *base, const ConfNode *n,
                           const char *host, const char *where, GError **error)
{
    if (scenario_conf_host(base, host))
        return TRUE;
    g_autofree char *hint = scenario_conf_host_hint(base, host);
    conf_set_error(error, s->path, n, SKSIM_CONF_ERROR_REFERENCE, "unknown host '%s' in %s%s", host,
                   where, hint);
    return FALSE;
}

/* The counter's canonical name - its full nstat name, or cpu_<cost key> for a CPU profile row
 * (newly allocated) - or NULL and an error naming where it was written. */
static char *check_counter(const Scenario *s, const ConfNode *n, const char *counter,
                           const char *where, GError **error)
{
    int id = counter_lookup(counter);
    if (id >= 0)
        return g_strdup(counter_name((CounterId)id));
    if (cost_counter_lookup(counter) >= 0)
        return g_strdup(counter);
    /* both spellings, so that a misspelt short name gets a short suggestion */
    g_autoptr(GPtrArray) cands = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; i < CTR_COUNT; i++)
        g_ptr_array_add(cands, g_strdup(counter_name((CounterId)i)));
    for (int i = 0; i < CTR_COUNT; i++)
        g_ptr_array_add(cands, g_strdup(counter_field((CounterId)i)));
    for (int i = 0; i < COST_COUNT; i++)
        g_ptr_array_add(cands, g_strconcat(COST_COUNTER_PREFIX, cost_key((CostId)i), NULL));
    g_autofree char *hint = conf_suggest_hint(counter, cands);
    conf_set_error(error, s->path, n, SKSIM_CONF_ERROR_REFERENCE, "unknown counter '%s' in %s%s",
                   counter, where, hint);
    return NULL;
}

/* "HOST.COUNTER", dot at the '.': stored as "HOST.<full nstat name>". */
static gboolean read_qualified_counter(Scenario *s, const ScenarioConf *base, const ConfNode *n,
                                       const char *dot, GError **error)
{
    g_autofree char *host = g_strndup(n->text, (gsize)(dot - n->text));
    if (!*host || !dot[1]) {
        conf_set_error(error, s->path, n, SKSIM_CONF_ERROR_TYPE,
                       "expected a counter name or HOST.COUNTER, got '%s'", n->text);
        return FALSE;
    }
    g_autofree char *where = g_strdup_printf("report.counters entry '%s'", n->text);
    if (!check_host(s, base, n, host, where, error))
        return FALSE;
    g_autofree char *name = check_counter(s, n, dot + 1, where, error);
    if (!name)
        return FALSE;
    g_ptr_array_add(s->report.counters, g_strdup_printf("%s.%s", host, name));
    return TRUE;
}

/* "COUNTER" or "HOST.COUNTER". Host names have no '.' (letters, digits, '_', '-') and nor do
 * counter names, so the first '.' ends the host. Stored with the counter's full nstat name
 * ("receiver.TCPBacklogDrop" -> "receiver.TcpExtTCPBacklogDrop"): the row's label everywhere,
 * and what run_result_report_counter() reads. */
static gboolean read_counter(Scenario *s, const ScenarioConf *base, const ConfNode *n,
                             GError **error)
{
    if (!want_kind(s->path, n, CONF_NODE_SCALAR, "a counter name", error))
        return FALSE;
    const char *dot = strchr(n->text, '.');
    if (dot)
        return read_qualified_counter(s, base, n, dot, error);
    char *name = check_counter(s, n, n->text, "report.counters", error);
    if (!name)
        return FALSE;
    g_ptr_array_add(s->report.counters, name);
    return TRUE;
}

static gboolean read_report_host(Scenario *s, const ScenarioConf *base, const ConfNode *host,
                                 GError **error)
{
    if (!want_kind(s->path, host, CONF_NODE_SCALAR, "a host name", error) ||
        !check_host(s, base, host, host->text, "report.host", error))
        return FALSE;
    s->report.host = g_strdup(host->text);
    return TRUE;
}

static gboolean read_report(Scenario *s, const ScenarioConf *base, GError **error)
{
    static const char *const keys[] = {"counters", "host", NULL};
    const ConfNode *r = conf_map_get(s->root, "report");
    if (!r || conf_node_is_null(r))
        return TRUE;
    if (!want_kind(s->path, r, CONF_NODE_MAP, "a mapping {counters: [...], host: ...}", error) ||
        !check_keys(s->path, r, keys, "report", error))
        return FALSE;
    const ConfNode *counters = conf_map_get(r, "counters"), *host = conf_map_get(r, "host");
    if (counters && !conf_node_is_null(counters)) {
        if (!want_kind(s->path, counters, CONF_NODE_SEQ, "a list of counter names", error))
            return FALSE;
        for (guint i = 0; i < counters->items->len; i++)
            if (!read_counter(s, base, g_ptr_array_index(counters->items, i), error))
                return FALSE;
    }
    return !host || read_report_host(s, base, host, error);
}

/* ---- loading ---------------------------------------------------------------------------------- */

void scenario_free(Scenario *s)
{
    if (!s)
        return;
    g_free(s->path);
    conf_node_free(s->root);
    g_free(s->name);
    g_free(s->title);
    g_ptr_array_unref(s->variants);
    g_ptr_array_unref(s->expects);
    g_ptr_array_unref(s->report.counters);
    g_free(s->report.host);
    g_free(s);
}

/* Bind the base and every variant now, so that load fails on any error a resolve could hit. */
static gboolean validate(Scenario *s, GError **error)
{
    if (!want_kind(s->path, s->root, CONF_NODE_MAP,
                   "a mapping of scenario keys (name, duration, hosts, ...)", error) ||
        !read_variants(s, error))
        return FALSE;
    g_autoptr(ScenarioConf) base = scenario_resolve(s, NULL, NULL, error);
    if (!base)
        return FALSE;
    s->name = g_strdup(base->name);
    s->title = g_strdup(base->title);
    for (guint i = 0; i < s->variants->len; i++) {
        g_autoptr(ScenarioConf) v = scenario_resolve(s, g_ptr_array_index(s->variants, i), NULL,
                                                     error);
        if (!v)
            return FALSE;
    }
    return read_expects(s, error) && read_report(s, base, error);
}

Scenario *scenario_load_data(const char *data, gsize len, const char *display_name, GError **error)
{
    g_autoptr(ConfNode) root = conf_tree_parse(data, len, display_name, error);
    if (!root)
        return NULL;
    g_autoptr(Scenario) s = g_new0(Scenario, 1);
    s->path = g_strdup(display_name);
    s->root = g_steal_pointer(&root);
    s->variants = g_ptr_array_new_with_free_func(g_free);
    s->expects = g_ptr_array_new_with_free_func(expect_conf_free);
    s->report.counters = g_ptr_array_new_with_free_func(g_free);
    if (!validate(s, error))
        return NULL;
    return g_steal_pointer(&s);
}

/* Read at most one byte past the limit, so a huge file (or a pipe) is refused without being
 * read in full. */
static GByteArray *read_limited(const char *path, GError **error)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        g_set_error(error, SKSIM_CONF_ERROR, SKSIM_CONF_ERROR_IO, "%s:1:1: cannot open: %s", path,
                    g_strerror(errno));
        return NULL;
    }
    GByteArray *buf = g_byte_array_new();
    guint8 chunk[65536];
    size_t got;
    errno = 0;
    while (buf->len <= CONF_MAX_BYTES && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        g_byte_array_append(buf, chunk, (guint)got);
    int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (failed) {
        g_set_error(error, SKSIM_CONF_ERROR, SKSIM_CONF_ERROR_IO, "%s:1:1: cannot read: %s", path,
                    g_strerror(failed));
        g_byte_array_unref(buf);
        return NULL;
    }
    return buf;
}

Scenario *scenario_load_file(const char *path, GError **error)
{
    GByteArray *buf = read_limited(path, error);
    if (!buf)
        return NULL;
    Scenario *s = scenario_load_data((const char *)buf->data, buf->len, path, error);
    g_byte_array_unref(buf);
    return s;
}

/* ---- accessors -------------------------------------------------------------------------------- */

const char *scenario_path(const Scenario *s)
{
    return s->path;
}

const char *scenario_name(const Scenario *s)
{
    return s->name;
}

/* The title as written; "" when the file gives none. */
const char *scenario_title(const Scenario *s)
{
    return s->title;
}

guint scenario_n_variants(const Scenario *s)
{
    return s->variants->len;
}

const char *scenario_variant_name(const Scenario *s, guint i)
{
    g_return_val_if_fail(i < s->variants->len, NULL);
    return g_ptr_array_index(s->variants, i);
}

gboolean scenario_has_variant(const Scenario *s, const char *name)
{
    return g_ptr_array_find_with_equal_func(s->variants, name, g_str_equal, NULL);
}

gboolean scenario_variant_sets(const Scenario *s, const char *variant, const char *key)
{
    const ConfNode *vs = variants_node(s);
    const ConfNode *v = vs && variant ? conf_map_get(vs, variant) : NULL;
    return v && conf_map_get(v, key) != NULL;
}

guint scenario_n_expects(const Scenario *s)
{
    return s->expects->len;
}

const ExpectConf *scenario_expect(const Scenario *s, guint i)
{
    g_return_val_if_fail(i < s->expects->len, NULL);
    return g_ptr_array_index(s->expects, i);
}

const ReportConf *scenario_report(const Scenario *s)
{
    return &s->report;
}

/* ---- resolving -------------------------------------------------------------------------------- */

ScenarioConf *scenario_resolve(const Scenario *s, const char *variant, const char *const *sets,
                               GError **error)
{
    g_autoptr(ConfNode) tree = conf_node_copy(s->root);
    if (variant && !apply_variant(s, tree, variant, error))
        return NULL;
    for (int i = 0; sets && sets[i]; i++)
        if (!conf_override_set(tree, sets[i], i + 1, error))
            return NULL;
    GError *local = NULL;
    ScenarioConf *c = conf_bind(tree, s->path, &local);
    if (!c) {
        /* A rule broken only under a variant may point at a base value: say which variant. */
        if (variant)
            g_set_error(error, local->domain, local->code, "%s (with variant '%s')",
                        local->message, variant);
        else
            g_propagate_error(error, g_steal_pointer(&local));
        g_clear_error(&local);
        return NULL;
    }
    c->variant = g_strdup(variant);
    return c;
}
