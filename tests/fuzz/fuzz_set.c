/* fuzz_set.c - libFuzzer target for `--set KEY=VALUE` parsing: every line of the input is one
 * --set argument, applied to a small fixed scenario by scenario_resolve() (the base and its one
 * variant).
 *
 * --set values come from the command line and go through the same override and binding code as
 * files (dotted paths, YAML flow values, units, ranges), so every input must resolve or give a
 * GError. Built with -DSKSIM_FUZZ=ON (clang); fuzz_replay calls the same entry function.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sim/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_yaml[] =
    "name: fuzzset\n"
    "seed: 1\n"
    "duration: 1s\n"
    "warmup: 100ms\n"
    "hosts:\n"
    "  client: {cpus: 2}\n"
    "  server:\n"
    "    cpus: 2\n"
    "    nic: {irq_cpu: 1}\n"
    "links:\n"
    "  wire: {a: client, b: server, rate: 10Gbit, delay: 10us, queue: 1000pkt}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: client, to: server, flows: 1, write_size: 64KiB}\n"
    "variants:\n"
    "  after:\n"
    "    stack.release_sock.resched_every: 16\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(base_yaml, sizeof base_yaml - 1, "fuzzset.yaml", &err);
    g_assert(s != NULL);
    /* one --set per line; a NUL byte ends a line too (argv strings cannot hold one) */
    g_autofree char *text = g_malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    g_auto(GStrv) sets = g_strsplit(text, "\n", 64);
    const char *const variants[] = { NULL, "after" };
    for (size_t i = 0; i < G_N_ELEMENTS(variants); i++) {
        g_autoptr(GError) rerr = NULL;
        g_autoptr(ScenarioConf) c = scenario_resolve(s, variants[i], (const char *const *)sets, &rerr);
        g_assert(c != NULL || rerr != NULL);
    }
    return 0;
}
