/* counters.c - names and look-up of the MIB counters listed in counters.h. */
#include "sim/counters.h"

#include <string.h>

static const char *const counter_names[] = {
#define SIM_COUNTER_NAME(name) #name,
    SIM_COUNTERS(SIM_COUNTER_NAME)
#undef SIM_COUNTER_NAME
};

const char *counter_name(CounterId id)
{
    return (unsigned)id < CTR_COUNT ? counter_names[id] : "?";
}

/* Strip the nstat group prefix so that "TCPTimeouts" finds "TcpExtTCPTimeouts". */
static const char *field_of(const char *name)
{
    static const char *const prefixes[] = { "TcpExt", "IpExt", "Tcp" };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], n) == 0)
            return name + n;
    }
    return name;
}

const char *counter_field(CounterId id)
{
    return field_of(counter_name(id));
}

int counter_lookup(const char *name)
{
    for (int i = 0; i < CTR_COUNT; i++)
        if (strcmp(counter_names[i], name) == 0)
            return i;
    for (int i = 0; i < CTR_COUNT; i++)
        if (strcmp(field_of(counter_names[i]), name) == 0)
            return i;
    return -1;
}

void counters_reset(CounterSet *c)
{
    memset(c->v, 0, sizeof c->v);
}
