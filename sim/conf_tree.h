/* conf_tree.h - a scenario file as a small tree of mappings, sequences and scalars.
 *
 * The YAML reader (libyaml's event API) builds this tree; everything after it (variants, --set,
 * binding to structs) works on the tree and never on YAML. Each node remembers where it starts
 * (1-based line and column) so every later error can point at the text that caused it. Mapping
 * keys keep file order and are unique (the reader rejects duplicates).
 *
 * Nodes that did not come from the scenario file (values given with --set, defaults) carry an
 * `origin`: a static display name used in place of the file name in messages.
 *
 * Ownership: a ConfNode owns its children; conf_node_free() frees the whole subtree.
 */
#ifndef SKSIM_CONF_TREE_H
#define SKSIM_CONF_TREE_H

#include <glib.h>
#include <stdbool.h>

typedef enum { CONF_NODE_SCALAR, CONF_NODE_MAP, CONF_NODE_SEQ } ConfNodeKind;

typedef struct ConfNode ConfNode;
struct ConfNode {
    ConfNodeKind kind;
    int line, col;      /* 1-based start of the node */
    const char *origin; /* static display name, or NULL: the scenario file itself */
    char *text;         /* SCALAR: the value (never NULL) */
    bool plain;         /* SCALAR: written without quotes (only plain scalars can be null) */
    GPtrArray *keys;    /* MAP: ConfNode* scalar keys, parallel to items */
    GPtrArray *items;   /* MAP: values; SEQ: elements */
};

/* Hard limits of the reader (SKSIM_CONF_ERROR_LIMIT beyond them). */
#define CONF_MAX_BYTES ((gsize)4 * 1024 * 1024)
#define CONF_MAX_DEPTH 64

/* Parse a whole scenario document. Errors are "DISPLAY:LINE:COL: message" in SKSIM_CONF_ERROR.
 * An empty or comment-only input is SKSIM_CONF_ERROR_EMPTY. */
ConfNode *conf_tree_parse(const char *data, gsize len, const char *display, GError **error);

/* Parse one value written on a single line (a --set VALUE, a default from the key table): a
 * scalar, a flow sequence or a flow mapping. Nodes get `origin`, line `line`, and columns shifted
 * by `col_base` (the 0-based column where the value starts); errors use the same place.
 * Empty text gives an empty plain scalar. */
ConfNode *conf_tree_parse_value(const char *text, const char *origin, int line, int col_base,
                                GError **error);

ConfNode *conf_node_new_scalar(const char *text, bool plain, const char *origin, int line, int col);
ConfNode *conf_node_new_map(const char *origin, int line, int col);
ConfNode *conf_node_copy(const ConfNode *n);
void conf_node_free(ConfNode *n);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ConfNode, conf_node_free)

/* A plain empty scalar, "~" or "null": a key written with no value. */
bool conf_node_is_null(const ConfNode *n);
/* "a mapping", "a sequence", "an empty value" or "'text'", for "expected X, got Y" messages. */
char *conf_node_describe(const ConfNode *n);

guint conf_map_len(const ConfNode *map);
const char *conf_map_key(const ConfNode *map, guint i);
ConfNode *conf_map_key_node(const ConfNode *map, guint i);
ConfNode *conf_map_value(const ConfNode *map, guint i);
/* NULL when absent (or when map is not a mapping). */
ConfNode *conf_map_get(const ConfNode *map, const char *key);
/* Set key to value (taking ownership of both): replaces an existing value in place (keeping the
 * key's position), else appends. */
void conf_map_set(ConfNode *map, ConfNode *key, ConfNode *value);
/* Follow a dotted path ("nic.irq_cpu") through mappings; NULL if any step is missing. */
ConfNode *conf_node_lookup(const ConfNode *root, const char *dotted);

/* Set *error to "WHERE:LINE:COL: message" where WHERE is n's origin or else `file`. A NULL n
 * gives line 1, column 1. */
void conf_set_error(GError **error, const char *file, const ConfNode *n, int code,
                    const char *fmt, ...) G_GNUC_PRINTF(5, 6);

#endif
