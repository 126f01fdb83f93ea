/* cli_memory.c - refuse a scenario whose memory estimate (models/memory.h) exceeds the limit:
 * --max-memory SIZE, else 75 % of physical RAM. Runs after resolving and before the first event,
 * so a scenario that cannot fit fails at once with what it would need (exit 2).
 */
#include "sim/cli.h"

#include <stdio.h>

#include "models/memory.h"
#include "sim/units.h"

static double gib(uint64_t bytes)
{
    return (double)bytes / (double)(1ull << 30);
}

gboolean cli_check_memory(const Scenario *s, const GPtrArray *confs, const char *max_memory,
                          const char *cmd)
{
    uint64_t limit = memory_default_limit();
    if (max_memory) {
        g_autoptr(GError) err = NULL;
        if (!units_parse_size(max_memory, &limit, &err)) {
            cli_usage_error(cmd, "--max-memory '%s': %s", max_memory, err->message);
            return FALSE;
        }
    }
    if (limit == 0)
        return TRUE; /* physical RAM unknown and no --max-memory */
    uint64_t need = 0;
    for (guint i = 0; i < confs->len; i++)
        need = MAX(need, memory_estimate(g_ptr_array_index(confs, i)));
    if (need <= limit)
        return TRUE;
    fprintf(stderr,
            "%s: scenario would need ~%.3g GiB of memory (limit %.3g GiB); reduce flows or "
            "buffers, or raise --max-memory\n",
            scenario_path(s), gib(need), gib(limit));
    return FALSE;
}
