/* conf_override.c - apply variant entries and --set arguments to a scenario tree.
 *
 * Overrides are checked against the key table before they touch the tree, so that a misspelt
 * path is reported at the variant's key (or the --set argument), with the nearest real key as a
 * suggestion, instead of later as an "unknown key" somewhere the user never wrote. Candidates for
 * the suggestion are the full concrete paths of this scenario (with its real host, link and
 * workload names), so a typo in an entry name is caught the same way as a typo in a key.
 */
#include "sim/conf_override.h"

#include <string.h>

#include "sim/conf_keys.h"
#include "sim/conf_suggest.h"
#include "sim/scenario.h"

/* Section of a path and the key inside it: "hosts.server.nic.gro" -> HOST, "server", "nic.gro". */
static ConfSection split_path(const char *path, char **entry, const char **rel)
{
    *entry = NULL;
    *rel = path;
    for (int s = CONF_SEC_STACK; s < CONF_SEC_COUNT; s++) {
        const char *root = conf_section_root((ConfSection)s);
        size_t len = strlen(root);
        if (strncmp(path, root, len) != 0 || path[len] != '.')
            continue;
        const char *rest = path + len + 1;
        if (s == CONF_SEC_STACK) {
            *rel = rest;
            return CONF_SEC_STACK;
        }
        const char *dot = strchr(rest, '.');
        *entry = g_strndup(rest, dot ? (size_t)(dot - rest) : strlen(rest));
        *rel = dot ? dot + 1 : "";
        return (ConfSection)s;
    }
    return CONF_SEC_TOP;
}

static void add_section_paths(GPtrArray *out, ConfSection sec, const char *prefix)
{
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    for (guint i = 0; i < n; i++)
        if (t[i].section == sec)
            g_ptr_array_add(out, *prefix ? g_strconcat(prefix, ".", t[i].key, NULL)
                                         : g_strdup(t[i].key));
}

/* Every settable path of this scenario, in table order. */
static GPtrArray *concrete_paths(const ConfNode *root)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    add_section_paths(out, CONF_SEC_TOP, "");
    add_section_paths(out, CONF_SEC_STACK, "stack");
    for (int s = CONF_SEC_HOST; s < CONF_SEC_COUNT; s++) {
        const char *sroot = conf_section_root((ConfSection)s);
        const ConfNode *entries = conf_map_get(root, sroot);
        for (guint i = 0; entries && i < conf_map_len(entries); i++) {
            g_autofree char *prefix = g_strconcat(sroot, ".", conf_map_key(entries, i), NULL);
            add_section_paths(out, (ConfSection)s, prefix);
        }
    }
    return out;
}

/* The first candidate inside section `path` ("stack" -> "stack.release_sock.resched_every"). */
static const char *first_under(const GPtrArray *cands, const char *path)
{
    size_t len = strlen(path);
    for (guint i = 0; i < cands->len; i++) {
        const char *c = g_ptr_array_index(cands, i);
        if (strncmp(c, path, len) == 0 && c[len] == '.')
            return c;
    }
    return NULL;
}

static gboolean path_known(const ConfNode *root, const char *path)
{
    g_autofree char *entry = NULL;
    const char *rel = NULL;
    ConfSection sec = split_path(path, &entry, &rel);
    if (!conf_keys_find(sec, rel))
        return FALSE;
    if (!entry)
        return TRUE;
    const ConfNode *entries = conf_map_get(root, conf_section_root(sec));
    return entries && conf_map_get(entries, entry) != NULL;
}

/* The mapping at `parts[0..n)`, creating (or replacing non-mappings with) empty ones. */
static ConfNode *make_maps(ConfNode *root, char **parts, guint n, const ConfNode *where)
{
    ConfNode *m = root;
    for (guint i = 0; i < n; i++) {
        ConfNode *next = conf_map_get(m, parts[i]);
        if (!next || next->kind != CONF_NODE_MAP) {
            next = conf_node_new_map(where->origin, where->line, where->col);
            conf_map_set(m,
                         conf_node_new_scalar(parts[i], true, where->origin, where->line, where->col),
                         next);
        }
        m = next;
    }
    return m;
}

/* A valid key under a host, link or workload that the scenario does not have ("hosts.c.nic.gro"
 * with hosts a and b): say which entries there are rather than suggest another entry's key. */
static gboolean unknown_entry(const ConfNode *root, const char *path, const ConfNode *where,
                              const char *file, GError **error)
{
    g_autofree char *entry = NULL;
    const char *rel = NULL;
    ConfSection sec = split_path(path, &entry, &rel);
    if (!entry || !conf_keys_find(sec, rel))
        return FALSE;
    const char *sroot = conf_section_root(sec);
    const ConfNode *entries = conf_map_get(root, sroot);
    g_autoptr(GString) have = g_string_new("");
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; entries && i < conf_map_len(entries); i++) {
        g_string_append_printf(have, "%s'%s'", i ? ", " : "", conf_map_key(entries, i));
        g_ptr_array_add(names, g_strdup(conf_map_key(entries, i)));
    }
    g_autofree char *hint = conf_suggest_hint(entry, names);
    g_autofree char *kind = g_strndup(sroot, strlen(sroot) - 1); /* "hosts" -> "host" */
    if (*hint)
        conf_set_error(error, file, where, SKSIM_CONF_ERROR_REFERENCE,
                       "'%s' names %s '%s', which the scenario does not have%s", path, kind,
                       entry, hint);
    else
        conf_set_error(error, file, where, SKSIM_CONF_ERROR_REFERENCE,
                       "'%s' names %s '%s', which the scenario does not have (%s: %s)", path,
                       kind, entry, sroot, have->len ? have->str : "none");
    return TRUE;
}

gboolean conf_override_apply(ConfNode *root, const char *path, const ConfNode *where,
                             ConfNode *value_in, const char *file, GError **error)
{
    g_autoptr(ConfNode) value = value_in;
    if (!path_known(root, path)) {
        if (unknown_entry(root, path, where, file, error))
            return FALSE;
        g_autoptr(GPtrArray) cands = concrete_paths(root);
        const char *inside = first_under(cands, path);
        if (inside) {
            conf_set_error(error, file, where, SKSIM_CONF_ERROR_UNKNOWN_KEY,
                           "'%s' is a section, not a key: set one key by its full dotted path, "
                           "such as '%s'",
                           path, inside);
            return FALSE;
        }
        g_autofree char *hint = conf_suggest_hint(path, cands);
        conf_set_error(error, file, where, SKSIM_CONF_ERROR_UNKNOWN_KEY, "unknown key '%s'%s", path,
                       hint);
        return FALSE;
    }
    g_auto(GStrv) parts = g_strsplit(path, ".", -1);
    guint n = g_strv_length(parts);
    ConfNode *map = make_maps(root, parts, n - 1, where);
    conf_map_set(map,
                 conf_node_new_scalar(parts[n - 1], true, where->origin, where->line, where->col),
                 g_steal_pointer(&value));
    return TRUE;
}

gboolean conf_override_set(ConfNode *root, const char *arg, int index, GError **error)
{
    g_autoptr(ConfNode) where = conf_node_new_scalar(arg, true, CONF_SET_ORIGIN, index, 1);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        conf_set_error(error, NULL, where, SKSIM_CONF_ERROR_SYNTAX, "expected KEY=VALUE, got '%s'",
                       arg);
        return FALSE;
    }
    g_autofree char *key = g_strndup(arg, (gsize)(eq - arg));
    int col_base = (int)g_utf8_strlen(arg, eq - arg) + 1;
    ConfNode *value = conf_tree_parse_value(eq + 1, CONF_SET_ORIGIN, index, col_base, error);
    if (!value)
        return FALSE;
    return conf_override_apply(root, key, where, value, NULL, error);
}
