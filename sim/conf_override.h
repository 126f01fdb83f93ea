/* conf_override.h - set one key of a scenario tree by dotted path: how variants and --set work.
 *
 * An override names a single key ("stack.release_sock.resched_every",
 * "hosts.server.nic.gro"). The path must be a key of the table, and an entry name in it must
 * name an existing host/link/workload; otherwise the error is "unknown key 'PATH' (did you mean
 * 'NEAREST'?)" at `where`. The value replaces the tree's value, or is added when the file did not
 * set that key (so it replaces the default). Values are type-checked later, by binding, at their
 * own location.
 */
#ifndef SKSIM_CONF_OVERRIDE_H
#define SKSIM_CONF_OVERRIDE_H

#include <glib.h>

#include "sim/conf_tree.h"

#define CONF_SET_ORIGIN "--set"

/* Apply path = value (value is taken over, also on failure). where: the node to blame for a bad
 * path; file names nodes without an origin. */
gboolean conf_override_apply(ConfNode *root, const char *path, const ConfNode *where,
                             ConfNode *value, const char *file, GError **error);

/* Apply one "KEY=VALUE" command-line argument; `index` (1-based) is its place among the --set
 * options and becomes the line in messages ("--set:INDEX:COL: ..."). VALUE is read as YAML (a
 * scalar or a flow sequence like [0-3, 8]). */
gboolean conf_override_set(ConfNode *root, const char *arg, int index, GError **error);

#endif
