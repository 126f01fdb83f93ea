/* sock_test_util.h - test scaffolding: a bare Host with CPUs (and an skb pool) and no world.
 *
 * Unit tests of the CPU, scheduler, softirq and socket models build one of these instead of a
 * scenario: fill the configuration (kernel defaults are pre-set), build, schedule test events,
 * run. Only tests use it.
 */
#ifndef SKSIM_SOCK_TEST_UTIL_H
#define SKSIM_SOCK_TEST_UTIL_H

#include <stdint.h>

#include "models/cpu.h"
#include "models/host.h"

#define TEST_HOST_MAX_CPUS 8

typedef struct TestHost {
    Sim *sim;
    HostConf conf;   /* edit before test_host_build() */
    StackConf stack; /* likewise */
    Host host;
    Cpu *cpus[TEST_HOST_MAX_CPUS];
} TestHost;

/* A host of ncpus CPUs at hz with kernel-default configuration (the scenario key defaults:
 * EEVDF, voluntary preemption, netdev_budget 300, napi_weight 64, default cost table). */
TestHost *test_host_new(uint32_t ncpus, uint32_t hz);
/* Create the Sim (seed 1), the skb pool and the CPUs from the (edited) configuration. */
void test_host_build(TestHost *th);
void test_host_free(TestHost *th);

#endif
