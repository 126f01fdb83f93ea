/* conf_bind.c - walk a scenario tree section by section and fill a ScenarioConf.
 *
 * Each section (top level, stack, one host, one link, one workload) is bound the same way:
 * every row of the section gets its default first (its text parsed like user input, once per
 * process), then each key in the tree is looked up by its path inside the section ("nic.gro"); a
 * key that is a prefix of rows ("nic") must be a mapping and is walked in turn; anything else is
 * an unknown key, reported with the nearest valid key at that level. Required rows (no default)
 * that the tree did not set are reported at the mapping that should have held them.
 *
 * Entries of hosts/links/workloads keep file order. The multi-value checks come last
 * (conf_check.c), once every field has its final value.
 */
#include "sim/conf_bind.h"

#include <string.h>

#include "sim/conf_check.h"
#include "sim/conf_keys.h"
#include "sim/conf_suggest.h"
#include "sim/conf_value.h"
#include "sim/scenario.h"

#define DEFAULT_ORIGIN "<default>"

typedef struct Section {
    ConfSection sec;
    void *base;        /* the struct the rows' offsets refer to */
    const char *disp;  /* display prefix of its keys: "", "stack", "hosts.server" */
    guint8 *seen;      /* per table row: set by the tree */
} Section;

/* ---- freeing ---------------------------------------------------------------------------------- */

static void host_conf_free(gpointer p)
{
    HostConf *h = p;
    g_free(h->name);
    g_free(h);
}

static void link_conf_free(gpointer p)
{
    LinkConf *l = p;
    g_free(l->name);
    g_free(l->a);
    g_free(l->b);
    g_free(l);
}

static void workload_conf_free(gpointer p)
{
    WorkloadConf *w = p;
    g_free(w->name);
    g_free(w->from);
    g_free(w->to);
    g_free(w);
}

void scenario_conf_free(ScenarioConf *c)
{
    if (!c)
        return;
    g_free(c->name);
    g_free(c->title);
    g_free(c->description);
    g_free(c->published);
    g_free(c->variant);
    g_ptr_array_unref(c->hosts);
    g_ptr_array_unref(c->links);
    g_ptr_array_unref(c->workloads);
    g_free(c);
}

const HostConf *scenario_conf_host(const ScenarioConf *c, const char *name)
{
    for (guint i = 0; i < c->hosts->len; i++) {
        const HostConf *h = g_ptr_array_index(c->hosts, i);
        if (strcmp(h->name, name) == 0)
            return h;
    }
    return NULL;
}

const LinkConf *scenario_conf_link(const ScenarioConf *c, const char *a, const char *b)
{
    for (guint i = 0; i < c->links->len; i++) {
        const LinkConf *l = g_ptr_array_index(c->links, i);
        if ((strcmp(l->a, a) == 0 && strcmp(l->b, b) == 0) ||
            (strcmp(l->a, b) == 0 && strcmp(l->b, a) == 0))
            return l;
    }
    return NULL;
}

gboolean scenario_conf_uses_seed(const ScenarioConf *c)
{
    for (guint i = 0; i < c->links->len; i++)
        if (((const LinkConf *)g_ptr_array_index(c->links, i))->loss > 0.0)
            return TRUE;
    for (guint i = 0; i < c->workloads->len; i++)
        if (((const WorkloadConf *)g_ptr_array_index(c->workloads, i))->start_jitter_ns > 0)
            return TRUE;
    return FALSE;
}

char *scenario_conf_host_hint(const ScenarioConf *c, const char *name)
{
    g_autoptr(GPtrArray) cands = g_ptr_array_new();
    for (guint i = 0; i < c->hosts->len; i++)
        g_ptr_array_add(cands, ((HostConf *)g_ptr_array_index(c->hosts, i))->name);
    return conf_suggest_hint(name, cands);
}

/* ---- table helpers ------------------------------------------------------------------------------- */

static guint row_index(const ConfKey *k)
{
    guint n;
    return (guint)(k - conf_keys_table(&n));
}

static char *join_path(const char *a, const char *b)
{
    if (!*a || !*b)
        return g_strconcat(a, b, NULL);
    return g_strconcat(a, ".", b, NULL);
}

/* Is `rel` a proper prefix (a group such as "nic" or "release_sock") of some row's key? */
static bool is_group(ConfSection sec, const char *rel)
{
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    size_t len = strlen(rel);
    for (guint i = 0; i < n; i++)
        if (t[i].section == sec && strncmp(t[i].key, rel, len) == 0 && t[i].key[len] == '.')
            return true;
    return false;
}

/* The names valid directly under `rel` in the section, in table order, without repeats. */
static GPtrArray *children(ConfSection sec, const char *rel)
{
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    size_t len = strlen(rel);
    for (guint i = 0; i < n; i++) {
        const char *rest = t[i].key;
        if (t[i].section != sec)
            continue;
        if (len && !(strncmp(rest, rel, len) == 0 && rest[len] == '.'))
            continue;
        rest += len ? len + 1 : 0;
        g_autofree char *first = g_strndup(rest, strcspn(rest, "."));
        if (!g_ptr_array_find_with_equal_func(out, first, g_str_equal, NULL))
            g_ptr_array_add(out, g_steal_pointer(&first));
    }
    return out;
}

static gboolean unknown_key(const char *file, const Section *s, const char *rel,
                            const ConfNode *key, GError **error)
{
    g_autoptr(GPtrArray) cands = children(s->sec, rel);
    if (s->sec == CONF_SEC_TOP)
        for (const char *const *t = conf_keys_top_sections(); *t; t++)
            g_ptr_array_add(cands, g_strdup(*t));
    g_autofree char *hint = conf_suggest_hint(key->text, cands);
    g_autofree char *where = join_path(s->disp, rel);
    if (*where)
        conf_set_error(error, file, key, SKSIM_CONF_ERROR_UNKNOWN_KEY, "unknown key '%s' in %s%s",
                       key->text, where, hint);
    else if (!*hint && strchr(key->text, '.'))
        conf_set_error(error, file, key, SKSIM_CONF_ERROR_UNKNOWN_KEY,
                       "unknown key '%s' at the top level (dotted keys are for variants and "
                       "--set; in the file, nest each part as a mapping)",
                       key->text);
    else
        conf_set_error(error, file, key, SKSIM_CONF_ERROR_UNKNOWN_KEY,
                       "unknown key '%s' at the top level%s", key->text, hint);
    return FALSE;
}

static gboolean expect_map(const char *file, const ConfNode *n, const char *what, GError **error)
{
    if (n->kind == CONF_NODE_MAP)
        return TRUE;
    g_autofree char *got = conf_node_describe(n);
    conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE, "expected %s, got %s", what, got);
    return FALSE;
}

/* ---- sections ------------------------------------------------------------------------------------ */

/* Every row's default text, parsed once per process into a node (NULL for a required row). A
 * default is parsed like user input, by the YAML reader, and each section of every resolve binds
 * all its rows' defaults: re-parsing them cost ~200 libyaml parser set-ups per resolve, nearly
 * all of the time of a scenario's resolution under the fuzzer (fuzz_set ran 47 inputs/s). The
 * nodes are immutable once built and g_once publishes them, so threads may share them. */
static gpointer parse_defaults(gpointer unused)
{
    (void)unused;
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    ConfNode **nodes = g_new0(ConfNode *, n);
    for (guint i = 0; i < n; i++) {
        if (!t[i].def)
            continue;
        g_autoptr(GError) err = NULL;
        nodes[i] = conf_tree_parse_value(t[i].def, DEFAULT_ORIGIN, 1, 0, &err);
        if (!nodes[i])
            g_error("key table: bad default '%s' for %s: %s", t[i].def, t[i].key, err->message);
    }
    return nodes;
}

static ConfNode *const *default_nodes(void)
{
    static GOnce once = G_ONCE_INIT;
    return g_once(&once, parse_defaults, NULL);
}

static void apply_defaults(ConfSection sec, void *base)
{
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    ConfNode *const *def = default_nodes();
    for (guint i = 0; i < n; i++) {
        if (t[i].section != sec || !def[i])
            continue;
        g_autoptr(GError) err = NULL;
        if (!conf_value_bind(&t[i], def[i], base, t[i].key, DEFAULT_ORIGIN, &err))
            g_error("key table: bad default '%s' for %s: %s", t[i].def, t[i].key, err->message);
    }
}

static gboolean bind_map(const char *file, Section *s, const ConfNode *map, const char *rel,
                         GError **error)
{
    for (guint i = 0; i < conf_map_len(map); i++) {
        const ConfNode *key = conf_map_key_node(map, i), *v = conf_map_value(map, i);
        g_autofree char *krel = join_path(rel, key->text);
        const ConfKey *k = conf_keys_find(s->sec, krel);
        if (k) {
            g_autofree char *path = join_path(s->disp, krel);
            s->seen[row_index(k)] = 1;
            if (!conf_value_bind(k, v, s->base, path, file, error))
                return FALSE;
        } else if (is_group(s->sec, krel)) {
            if (!expect_map(file, v, "a mapping", error) || !bind_map(file, s, v, krel, error))
                return FALSE;
        } else {
            return unknown_key(file, s, rel, key, error);
        }
    }
    return TRUE;
}

static gboolean check_required(const char *file, const Section *s, const ConfNode *map,
                               GError **error)
{
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    for (guint i = 0; i < n; i++) {
        if (t[i].section != s->sec || t[i].def || s->seen[i])
            continue;
        if (*s->disp)
            conf_set_error(error, file, map, SKSIM_CONF_ERROR_MISSING,
                           "missing required key '%s' in %s", t[i].key, s->disp);
        else
            conf_set_error(error, file, map, SKSIM_CONF_ERROR_MISSING, "missing required key '%s'",
                           t[i].key);
        return FALSE;
    }
    return TRUE;
}

/* Defaults, then the tree's keys (a null node counts as an empty mapping), then required keys. */
static gboolean bind_section(const char *file, ConfSection sec, void *base, const char *disp,
                             const ConfNode *map, GError **error)
{
    guint n;
    conf_keys_table(&n);
    g_autofree guint8 *seen = g_new0(guint8, n);
    Section s = {.sec = sec, .base = base, .disp = disp, .seen = seen};
    apply_defaults(sec, base);
    if (map && !conf_node_is_null(map)) {
        if (!expect_map(file, map, "a mapping", error) || !bind_map(file, &s, map, "", error))
            return FALSE;
    }
    return !map || check_required(file, &s, map, error);
}

/* ---- entries (hosts, links, workloads) ------------------------------------------------------------ */

static bool entry_name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!(g_ascii_isalnum(*s) || *s == '_' || *s == '-'))
            return false;
    return true;
}

static void *entry_new(ConfSection sec, const char *name, GPtrArray *out)
{
    char *dup = g_strdup(name);
    void *e = NULL;
    if (sec == CONF_SEC_HOST)
        e = g_memdup2(&(HostConf){.name = dup}, sizeof(HostConf));
    else if (sec == CONF_SEC_LINK)
        e = g_memdup2(&(LinkConf){.name = dup}, sizeof(LinkConf));
    else
        e = g_memdup2(&(WorkloadConf){.name = dup}, sizeof(WorkloadConf));
    g_ptr_array_add(out, e);
    return e;
}

static gboolean bind_entries(const char *file, ConfSection sec, const ConfNode *map,
                             GPtrArray *out, GError **error)
{
    const char *root = conf_section_root(sec), *entry = conf_section_entry(sec);
    if (conf_node_is_null(map))
        return TRUE;
    g_autofree char *what = g_strdup_printf("a mapping of %s names to their settings", entry);
    if (!expect_map(file, map, what, error))
        return FALSE;
    for (guint i = 0; i < conf_map_len(map); i++) {
        const ConfNode *key = conf_map_key_node(map, i);
        if (!entry_name_ok(key->text)) {
            conf_set_error(error, file, key, SKSIM_CONF_ERROR_TYPE,
                           "invalid %s name '%s': use letters, digits, '_' and '-'", entry,
                           key->text);
            return FALSE;
        }
        void *e = entry_new(sec, key->text, out);
        g_autofree char *disp = g_strconcat(root, ".", key->text, NULL);
        if (!bind_section(file, sec, e, disp, conf_map_value(map, i), error))
            return FALSE;
    }
    return TRUE;
}

/* ---- the top level -------------------------------------------------------------------------------- */

static bool is_top_section(const char *key)
{
    for (const char *const *t = conf_keys_top_sections(); *t; t++)
        if (strcmp(*t, key) == 0)
            return true;
    return false;
}

static gboolean bind_top_section(const char *file, ScenarioConf *c, const char *key,
                                 const ConfNode *v, GError **error)
{
    if (strcmp(key, "stack") == 0)
        return bind_section(file, CONF_SEC_STACK, &c->stack, "stack", v, error);
    if (strcmp(key, "hosts") == 0)
        return bind_entries(file, CONF_SEC_HOST, v, c->hosts, error);
    if (strcmp(key, "links") == 0)
        return bind_entries(file, CONF_SEC_LINK, v, c->links, error);
    if (strcmp(key, "workloads") == 0)
        return bind_entries(file, CONF_SEC_WORKLOAD, v, c->workloads, error);
    return TRUE; /* variants, expect, report: scenario.c */
}

static gboolean bind_top(const char *file, ScenarioConf *c, const ConfNode *root, GError **error)
{
    guint n;
    conf_keys_table(&n);
    g_autofree guint8 *seen = g_new0(guint8, n);
    Section s = {.sec = CONF_SEC_TOP, .base = c, .disp = "", .seen = seen};
    apply_defaults(CONF_SEC_TOP, c);
    apply_defaults(CONF_SEC_STACK, &c->stack);
    if (!expect_map(file, root, "a mapping of scenario keys (name, duration, hosts, ...)", error))
        return FALSE;
    for (guint i = 0; i < conf_map_len(root); i++) {
        const ConfNode *key = conf_map_key_node(root, i), *v = conf_map_value(root, i);
        const ConfKey *k = conf_keys_find(CONF_SEC_TOP, key->text);
        if (k) {
            seen[row_index(k)] = 1;
            if (!conf_value_bind(k, v, c, key->text, file, error))
                return FALSE;
        } else if (is_top_section(key->text)) {
            if (!bind_top_section(file, c, key->text, v, error))
                return FALSE;
        } else {
            return unknown_key(file, &s, "", key, error);
        }
    }
    return check_required(file, &s, root, error);
}

ScenarioConf *conf_bind(const ConfNode *root, const char *file, GError **error)
{
    g_autoptr(ScenarioConf) c = g_new0(ScenarioConf, 1);
    c->hosts = g_ptr_array_new_with_free_func(host_conf_free);
    c->links = g_ptr_array_new_with_free_func(link_conf_free);
    c->workloads = g_ptr_array_new_with_free_func(workload_conf_free);
    if (!bind_top(file, c, root, error) || !conf_check(c, root, file, error))
        return NULL;
    return g_steal_pointer(&c);
}
