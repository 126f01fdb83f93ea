/* costs.c - keys, defaults and documentation of the CPU cost table (rows in costs.h). */
#include "sim/costs.h"

#include <string.h>

typedef struct {
    const char *key;
    sim_time_t def_ns;
    const char *doc;
} CostRow;

static const CostRow cost_rows[] = {
#define SIM_COST_ROW(id, key, def, doc) { key, def, doc },
    SIM_COSTS(SIM_COST_ROW)
#undef SIM_COST_ROW
};

const char *cost_key(CostId id)
{
    return (unsigned)id < COST_COUNT ? cost_rows[id].key : "?";
}

int cost_lookup(const char *key)
{
    for (int i = 0; i < COST_COUNT; i++)
        if (strcmp(cost_rows[i].key, key) == 0)
            return i;
    return -1;
}

int cost_counter_lookup(const char *name)
{
    size_t n = strlen(COST_COUNTER_PREFIX);
    return strncmp(name, COST_COUNTER_PREFIX, n) == 0 ? cost_lookup(name + n) : -1;
}

const char *cost_doc(CostId id)
{
    return (unsigned)id < COST_COUNT ? cost_rows[id].doc : "";
}

sim_time_t cost_default(CostId id)
{
    return (unsigned)id < COST_COUNT ? cost_rows[id].def_ns : 0;
}

void cost_table_defaults(CostTable *t)
{
    for (int i = 0; i < COST_COUNT; i++)
        t->ns[i] = cost_rows[i].def_ns;
}
