/* evkind.c - names of the event kinds listed in evkind.h. */
#include "sim/evkind.h"

static const char *const evkind_names[] = {
#define SIM_EVKIND_NAME(id, name) name,
    SIM_EVKINDS(SIM_EVKIND_NAME)
#undef SIM_EVKIND_NAME
};

const char *sim_evkind_name(unsigned kind)
{
    return kind < EVK_COUNT ? evkind_names[kind] : "?";
}
