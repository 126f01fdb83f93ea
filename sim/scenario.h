/* scenario.h - loading scenario files: YAML in, a checked ScenarioConf out.
 *
 * A Scenario is a parsed file: its base settings, its variants (named sets of overrides applied
 * on top of the base), its expect checks and its report section. scenario_resolve() applies a
 * variant and the command line's --set overrides and binds the result to a ScenarioConf through
 * the key table (sim/conf_keys.c), so every value is type-, unit- and range-checked in one place.
 *
 * Errors are GErrors in SKSIM_CONF_ERROR whose message starts "FILE:LINE:COL: ". The CLI prints
 * them as they are and exits with status 2.
 */
#ifndef SKSIM_SCENARIO_H
#define SKSIM_SCENARIO_H

#include <glib.h>
#include <stdio.h>

#include "sim/config.h"

#define SKSIM_CONF_ERROR (sksim_conf_error_quark())
GQuark sksim_conf_error_quark(void);

typedef enum {
    SKSIM_CONF_ERROR_IO,
    SKSIM_CONF_ERROR_EMPTY,
    SKSIM_CONF_ERROR_SYNTAX,
    SKSIM_CONF_ERROR_UNKNOWN_KEY,
    SKSIM_CONF_ERROR_DUPLICATE_KEY,
    SKSIM_CONF_ERROR_TYPE,
    SKSIM_CONF_ERROR_UNIT,
    SKSIM_CONF_ERROR_RANGE,
    SKSIM_CONF_ERROR_MISSING,
    SKSIM_CONF_ERROR_VARIANT,
    SKSIM_CONF_ERROR_REFERENCE, /* a name that must match another entry (a link's host) */
    SKSIM_CONF_ERROR_LIMIT,     /* too large, too deep, too many aliases */
} SksimConfError;

/* One expect check: `check` is an expression over variant results such as
 * "after.goodput / before.goodput" or "before.client.TcpRetransSegs / before.client.TcpOutSegs";
 * it passes when min <= value <= max (a missing bound is open). */
typedef struct ExpectConf {
    char *name;      /* optional label; defaults to the expression */
    char *check;
    bool has_min, has_max;
    double min, max;
    int line, col;   /* where it stands in the file, for messages */
} ExpectConf;

typedef struct ReportConf {
    /* char*: the rows of compare tables, in file order (may be empty): a full nstat name
     * ("TcpExtTCPBacklogDrop": of host, or summed over hosts), or HOST.NAME ("receiver.TcpOutSegs":
     * that host's, whatever host says). Read with run_result_report_counter(). */
    GPtrArray *counters;
    char *host;          /* the host whose counters the unqualified rows show; NULL = every host */
} ReportConf;

typedef struct Scenario Scenario;

Scenario *scenario_load_file(const char *path, GError **error);
/* display_name is used in error messages in place of a path. */
Scenario *scenario_load_data(const char *data, gsize len, const char *display_name, GError **error);
void scenario_free(Scenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Scenario, scenario_free)

const char *scenario_path(const Scenario *s);
const char *scenario_name(const Scenario *s);
const char *scenario_title(const Scenario *s);
guint scenario_n_variants(const Scenario *s);
const char *scenario_variant_name(const Scenario *s, guint i);
gboolean scenario_has_variant(const Scenario *s, const char *name);
/* Whether the variant's overrides set key (a full dotted path: a variant, like --set, names
 * single keys, never sections). A --set of such a key replaces the variant's value
 * (scenario_resolve applies the sets last). */
gboolean scenario_variant_sets(const Scenario *s, const char *variant, const char *key);
guint scenario_n_expects(const Scenario *s);
const ExpectConf *scenario_expect(const Scenario *s, guint i);
const ReportConf *scenario_report(const Scenario *s);

/* Base + variant (NULL: none) + sets ("KEY=VALUE" strings, NULL-terminated, may be NULL),
 * bound and checked. The caller frees the result with scenario_conf_free(). */
ScenarioConf *scenario_resolve(const Scenario *s, const char *variant, const char *const *sets,
                               GError **error);
void scenario_conf_free(ScenarioConf *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ScenarioConf, scenario_conf_free)

/* The key reference as Markdown, generated from the key table (`sksim keys`). */
void conf_keys_write_markdown(FILE *out);
/* Every key path in the table, e.g. "hosts.<host>.nic.gro", NULL-terminated; free with g_strfreev. */
char **conf_keys_list(void);

#endif
