/* fuzz_scenario.c - libFuzzer target for the scenario loader: scenario_load_data() on the input
 * bytes, then scenario_resolve() of the base and of every variant, and expr_check() of every
 * expect expression against the variants and hosts (what `compare` does before running).
 *
 * The loader reads untrusted files (anyone's scenario, the files under tests/bad/), so any input must end
 * in a Scenario or a GError, never in a crash, a leak or undefined behaviour. Built with
 * -DSKSIM_FUZZ=ON (clang); the normal build links the same entry function into fuzz_replay,
 * which replays tests/fuzz/crashes/ under ctest.
 */
#include <stddef.h>
#include <stdint.h>

#include "sim/expr.h"
#include "sim/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_data((const char *)data, size, "fuzz.yaml", &err);
    if (!s) {
        g_assert(err != NULL && err->message != NULL);
        return 0;
    }
    g_autoptr(GError) berr = NULL;
    g_autoptr(ScenarioConf) base = scenario_resolve(s, NULL, NULL, &berr);
    g_assert(base != NULL || berr != NULL);
    g_autoptr(GPtrArray) variants = g_ptr_array_new();
    g_autoptr(GPtrArray) hosts = g_ptr_array_new();
    for (guint i = 0; i < scenario_n_variants(s); i++) {
        g_autoptr(GError) verr = NULL;
        g_autoptr(ScenarioConf) c = scenario_resolve(s, scenario_variant_name(s, i), NULL, &verr);
        g_assert(c != NULL || verr != NULL);
        g_ptr_array_add(variants, (gpointer)scenario_variant_name(s, i));
    }
    if (scenario_n_variants(s) == 0)
        g_ptr_array_add(variants, "base");
    g_ptr_array_add(variants, NULL);
    for (guint i = 0; base && i < base->hosts->len; i++)
        g_ptr_array_add(hosts, ((HostConf *)g_ptr_array_index(base->hosts, i))->name);
    g_ptr_array_add(hosts, NULL);
    for (guint i = 0; i < scenario_n_expects(s); i++) {
        g_autoptr(GError) eerr = NULL;
        const ExpectConf *e = scenario_expect(s, i);
        if (!expr_check(e->check, (const char *const *)variants->pdata,
                        (const char *const *)hosts->pdata, &eerr))
            g_assert(eerr != NULL);
    }
    return 0;
}
