/* cli_keys.c - `sksim keys`: the scenario key reference as Markdown, generated from the key
 * table (sim/conf_keys.c), so the reference can never drift from what the loader accepts.
 */
#include "sim/cli.h"

#include <stdio.h>

#define KEYS_DESCRIPTION                                                                         \
    "Prints every scenario key with its type, default, bounds, unit and meaning.\n"              \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim keys\n"                                                                             \
    "  sksim keys | grep nic\n"

int cli_keys(int argc, char **argv)
{
    g_auto(GStrv) args = NULL;
    if (!cli_parse_plain("keys", "", "Print the scenario key reference (Markdown).",
                         KEYS_DESCRIPTION, argc, argv, 0, 0, &args))
        return CLI_EXIT_USAGE;
    conf_keys_write_markdown(stdout);
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}
