/* conf_value.h - check one scenario value against its key-table row and store it in its field.
 *
 * The one place that knows how each ConfType is written, parsed, range-checked and stored. Used
 * for user values and for the table's own defaults alike.
 */
#ifndef SKSIM_CONF_VALUE_H
#define SKSIM_CONF_VALUE_H

#include <glib.h>

#include "sim/conf_keys.h"
#include "sim/conf_tree.h"

/* Store n's value into the field of `base` (the section's struct) that k describes. path is the
 * full key path for messages ("hosts.server.nic.mtu"); file names nodes without an origin.
 * A string field's old value is freed. */
gboolean conf_value_bind(const ConfKey *k, const ConfNode *n, void *base, const char *path,
                         const char *file, GError **error);

#endif
