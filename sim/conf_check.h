/* conf_check.h - the checks that need more than one value: run after every field is bound.
 *
 * At least one host; warmup < duration; workload start < duration; irq_cpu < cpus; links' a/b and
 * workloads' from/to name hosts (and a link joins two different hosts); CPU lists fit their host.
 * Each error points at the value that breaks the rule, found again in the tree by its path (or the
 * nearest enclosing mapping when the value came from a default).
 */
#ifndef SKSIM_CONF_CHECK_H
#define SKSIM_CONF_CHECK_H

#include <glib.h>

#include "sim/conf_tree.h"
#include "sim/config.h"

gboolean conf_check(const ScenarioConf *c, const ConfNode *root, const char *file, GError **error);

#endif
