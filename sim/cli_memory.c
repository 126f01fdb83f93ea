/* cli_memory.c - refuse a scenario whose memory estimate (models/memory.h) exceeds the limit:
 * --max-memory SIZE, else 75 % of physical RAM. Runs after resolving and before the first event,
 * so a scenario that cannot fit fails at once with what it would need (exit 2). `run` and
 * `compare` run one variant at a time (the largest counts); a sweep runs J at a time (the J
 * largest add up).
 */
#include "sim/cli.h"

#include <stdio.h>

#include "models/memory.h"
#include "sim/units.h"

static double gib(uint64_t bytes)
{
    return (double)bytes / (double)(1ull << 30);
}

static gint by_size_desc(gconstpointer a, gconstpointer b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

gboolean cli_check_memory_parallel(const Scenario *s, const GPtrArray *confs, guint parallel,
                                   const char *max_memory, const char *cmd)
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
    /* the `parallel` largest estimates run at the same time */
    g_autoptr(GArray) est = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), confs->len);
    for (guint i = 0; i < confs->len; i++) {
        uint64_t e = memory_estimate(g_ptr_array_index(confs, i));
        g_array_append_val(est, e);
    }
    g_array_sort(est, by_size_desc);
    uint64_t need = 0;
    guint n = MIN(MAX(parallel, 1u), est->len);
    for (guint i = 0; i < n; i++)
        need += g_array_index(est, uint64_t, i);
    if (need <= limit)
        return TRUE;
    g_autofree char *runs = n > 1 ? g_strdup_printf(" for %u runs at a time", n) : g_strdup("");
    fprintf(stderr,
            "%s: scenario would need ~%.3g GiB of memory%s (limit %.3g GiB); reduce flows or "
            "buffers, or raise --max-memory\n",
            scenario_path(s), gib(need), runs, gib(limit));
    return FALSE;
}
