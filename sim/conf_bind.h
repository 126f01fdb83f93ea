/* conf_bind.h - turn a (merged) scenario tree into a checked ScenarioConf via the key table.
 *
 * The tree is the scenario file after any variant and --set overrides have been applied. Binding
 * fills every field from its default, then from the tree, checking types, units and ranges; then
 * runs the checks that need several values at once (warmup < duration, irq_cpu < cpus, host
 * references, CPU lists within the host). The keys variants, expect and report are left for
 * scenario.c. Errors: "FILE:LINE:COL: message" in SKSIM_CONF_ERROR, at the offending node.
 */
#ifndef SKSIM_CONF_BIND_H
#define SKSIM_CONF_BIND_H

#include <glib.h>

#include "sim/conf_tree.h"
#include "sim/config.h"

/* file: display name for nodes without an origin. The result is freed with
 * scenario_conf_free(); variant is left NULL. */
ScenarioConf *conf_bind(const ConfNode *root, const char *file, GError **error);

#endif
