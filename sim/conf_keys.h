/* conf_keys.h - the key table: every scenario key, its field, type, default, bounds and doc.
 *
 * One row per field of sim/config.h. The binder (conf_bind.c), the --set/variant path checker
 * (conf_override.c) and the reference generator (conf_doc.c) all read this one table, so a key
 * exists, is checked and is documented in exactly one place.
 *
 * Defaults, minima and maxima are text in scenario syntax ("200ms", "6MiB", "[]") and go through
 * the same parsers as user values, so the documentation shows them exactly as a user would type
 * them. A NULL default means the key is required.
 */
#ifndef SKSIM_CONF_KEYS_H
#define SKSIM_CONF_KEYS_H

#include <glib.h>
#include <stddef.h>

typedef enum {
    CONF_SEC_TOP,      /* ScenarioConf: name, duration, ... */
    CONF_SEC_STACK,    /* StackConf under stack: */
    CONF_SEC_HOST,     /* HostConf under hosts.<host>: */
    CONF_SEC_LINK,     /* LinkConf under links.<link>: */
    CONF_SEC_WORKLOAD, /* WorkloadConf under workloads.<workload>: */
    CONF_SEC_COUNT
} ConfSection;

typedef enum {
    CONF_T_STRING,   /* char*, any text */
    CONF_T_NAME,     /* char*, [a-z0-9_.-]+ */
    CONF_T_HOSTREF,  /* char*, must name a host (checked after binding) */
    CONF_T_BOOL,     /* bool */
    CONF_T_U32,      /* uint32_t, plain integer */
    CONF_T_U64,      /* uint64_t, plain integer */
    CONF_T_PKTS,     /* uint32_t, integer with optional pkt */
    CONF_T_DURATION, /* sim_time_t ns */
    CONF_T_RATE,     /* uint64_t bits/s */
    CONF_T_SIZE,     /* uint32_t bytes */
    CONF_T_QUEUE,    /* uint64_t bytes at offset, uint32_t packets at aux_offset */
    CONF_T_RATIO,    /* double 0..1 */
    CONF_T_ENUM,     /* an enum (int-sized), choices in enum order */
    CONF_T_CPULIST,  /* CpuList */
} ConfType;

typedef struct ConfKey {
    ConfSection section;
    const char *key;            /* path inside the section: "cpus", "nic.gro", "backlog.limit" */
    ConfType type;
    size_t offset;              /* of the field in the section's struct */
    size_t aux_offset;          /* CONF_T_QUEUE: the packet-count field */
    const char *def;            /* default in scenario syntax; NULL = required */
    const char *min, *max;      /* bounds in scenario syntax; NULL = open */
    const char *const *choices; /* CONF_T_ENUM: names in enum order, NULL-terminated */
    const char *sub;            /* sub-section for the reference ("nic", "costs"); NULL = none */
    const char *doc;            /* one line: meaning, and which kernel default it follows */
} ConfKey;

/* Keys of the top level that are sections or lists rather than table rows. */
typedef struct ConfStructKey {
    const char *path;    /* as listed: "variants.<variant>", "expect[].check" */
    const char *type;    /* for the reference */
    const char *doc;
} ConfStructKey;

const ConfKey *conf_keys_table(guint *n_rows);
/* The row for `key` in `section`, or NULL. */
const ConfKey *conf_keys_find(ConfSection section, const char *key);
/* "" for the top level, "stack", "hosts", "links", "workloads". */
const char *conf_section_root(ConfSection section);
/* "host", "link", "workload" (entry sections), NULL otherwise. */
const char *conf_section_entry(ConfSection section);
/* The top-level keys that are not rows: stack, hosts, links, workloads, variants, expect, report;
 * NULL-terminated. */
const char *const *conf_keys_top_sections(void);
const ConfStructKey *conf_keys_struct_table(guint *n_rows);

#endif
