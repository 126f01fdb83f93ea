/* cli_validate.c - `sksim validate FILE...`: load each scenario and resolve its base and every
 * variant, without running anything, so that an editor hook or CI can check scenario files in
 * milliseconds. Expect expressions are checked too (syntax and names).
 */
#include "sim/cli.h"

#include <stdio.h>

#define VALIDATE_DESCRIPTION                                                                     \
    "Prints 'FILE: ok (N variants)' for each valid file, and the error\n"                        \
    "('FILE:LINE:COL: message') for each invalid one.\n"                                         \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim validate scenarios/example.yaml\n"                                                  \
    "  sksim validate scenarios/*.yaml\n"                                                        \
    "\n"                                                                                         \
    "Exit status: 0 all valid, 2 any invalid."

static gboolean resolve_one(const Scenario *s, const char *variant, GStrvBuilder *hosts)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(ScenarioConf) c = scenario_resolve(s, variant, NULL, &err);
    if (!c) {
        fprintf(stderr, "%s\n", err->message);
        return FALSE;
    }
    for (guint h = 0; hosts && h < c->hosts->len; h++)
        g_strv_builder_add(hosts, ((const HostConf *)g_ptr_array_index(c->hosts, h))->name);
    return TRUE;
}

static gboolean check_expects(const Scenario *s, const char *const *hosts)
{
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    for (guint i = 0; i < scenario_n_variants(s); i++)
        g_strv_builder_add(b, scenario_variant_name(s, i));
    if (scenario_n_variants(s) == 0)
        g_strv_builder_add(b, "base");
    g_auto(GStrv) variants = g_strv_builder_end(b);
    return cli_check_expects(s, (const char *const *)variants, hosts);
}

static gboolean validate_file(const char *path)
{
    g_autoptr(Scenario) s = cli_load_scenario(path);
    if (!s)
        return FALSE;
    g_autoptr(GStrvBuilder) hosts = g_strv_builder_new();
    gboolean ok = resolve_one(s, NULL, hosts);
    for (guint i = 0; i < scenario_n_variants(s); i++)
        ok = resolve_one(s, scenario_variant_name(s, i), NULL) && ok;
    g_auto(GStrv) host_names = g_strv_builder_end(hosts);
    ok = ok && check_expects(s, (const char *const *)host_names);
    if (ok)
        printf("%s: ok (%u variants)\n", path, scenario_n_variants(s));
    return ok;
}

int cli_validate(int argc, char **argv)
{
    g_auto(GStrv) args = NULL;
    if (!cli_parse_plain("validate", "FILE...", "Check scenario files without running them.",
                         VALIDATE_DESCRIPTION, argc, argv, 1, -1, &args))
        return CLI_EXIT_USAGE;
    gboolean ok = TRUE;
    for (guint i = 1; args[i]; i++)
        ok = validate_file(args[i]) && ok;
    return ok ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}
