/* conf_doc.c - the key reference, generated from the key table (`sksim keys`, scenarios/README.md).
 *
 * Written from the same rows that bind values, so the reference shows each default and bound as
 * the exact text the binder parses. One Markdown table per section (the host section split by its
 * sub-sections), then the structural keys (variants, expect, report).
 */
#include <string.h>

#include "sim/conf_keys.h"
#include "sim/scenario.h"
#include "sim/units.h"

/* A group of rows shown as one table. */
typedef struct DocGroup {
    ConfSection sec;
    const char *sub; /* rows with this sub (NULL: rows without one) */
    const char *title;
} DocGroup;

static const DocGroup groups[] = {
    {CONF_SEC_TOP, NULL, "Top level"},
    {CONF_SEC_STACK, NULL, "`stack`: kernel policies the seed patches change"},
    {CONF_SEC_HOST, NULL, "`hosts.<host>`"},
    {CONF_SEC_HOST, "sched", "`hosts.<host>.sched`: the CPU scheduler"},
    {CONF_SEC_HOST, "nic", "`hosts.<host>.nic`: the network interface"},
    {CONF_SEC_HOST, "tcp", "`hosts.<host>.tcp`: TCP and NAPI sysctls"},
    {CONF_SEC_HOST, "costs", "`hosts.<host>.costs`: CPU cost of each modelled operation"},
    {CONF_SEC_LINK, NULL, "`links.<link>`"},
    {CONF_SEC_WORKLOAD, NULL, "`workloads.<workload>`"},
};

static const char *entry_prefix(ConfSection sec)
{
    static const char *const prefixes[] = {"", "stack.", "hosts.<host>.", "links.<link>.",
                                           "workloads.<workload>."};
    return prefixes[sec];
}

static char *type_text(const ConfKey *k)
{
    switch (k->type) {
    case CONF_T_STRING:
        return g_strdup("string");
    case CONF_T_NAME:
        return g_strdup("name `[a-z0-9_.-]+`");
    case CONF_T_HOSTREF:
        return g_strdup("host name");
    case CONF_T_BOOL:
        return g_strdup("boolean");
    case CONF_T_U32:
    case CONF_T_U64:
        return g_strdup("integer");
    case CONF_T_PKTS:
        return g_strdup("packets (integer or `pkt`)");
    case CONF_T_DURATION:
        return g_strdup_printf("duration (%s)", units_names(UNIT_DURATION));
    case CONF_T_RATE:
        return g_strdup("rate (bit/s: `kbit`, `Mbit`, `Gbit`, ...)");
    case CONF_T_SIZE:
        return g_strdup("size (bytes, `KB`, `KiB`, ...)");
    case CONF_T_QUEUE:
        return g_strdup("queue (`pkt` or a size)");
    case CONF_T_RATIO:
        return g_strdup("ratio (0..1 like 0.01 or 1e-4, or %)");
    case CONF_T_ENUM: {
        g_autofree char *list = g_strjoinv("`, `", (char **)k->choices);
        return g_strdup_printf("one of `%s`", list);
    }
    case CONF_T_CPULIST:
        return g_strdup("CPU list (`[0-3, 8]`)");
    }
    return g_strdup("");
}

static char *range_text(const ConfKey *k)
{
    if (k->min && k->max)
        return g_strdup_printf("%s .. %s", k->min, k->max);
    if (k->min)
        return g_strdup_printf(">= %s", k->min);
    if (k->max)
        return g_strdup_printf("<= %s", k->max);
    return g_strdup("");
}

static bool in_group(const ConfKey *k, const DocGroup *g)
{
    if (k->section != g->sec)
        return false;
    return g->sub ? k->sub && strcmp(k->sub, g->sub) == 0 : k->sub == NULL;
}

static void write_row(FILE *out, const ConfKey *k)
{
    g_autofree char *type = type_text(k);
    g_autofree char *range = range_text(k);
    g_autofree char *def = k->def ? g_strdup_printf("`%s`", k->def) : g_strdup("**required**");
    fprintf(out, "| `%s%s` | %s | %s | %s | %s |\n", entry_prefix(k->section), k->key, type, def,
            range, k->doc);
}

static void write_group(FILE *out, const DocGroup *g)
{
    guint n;
    const ConfKey *t = conf_keys_table(&n);
    fprintf(out, "### %s\n\n", g->title);
    fprintf(out, "| Key | Type | Default | Range | Meaning (and the kernel default it follows) |\n");
    fprintf(out, "|---|---|---|---|---|\n");
    for (guint i = 0; i < n; i++)
        if (in_group(&t[i], g))
            write_row(out, &t[i]);
    fprintf(out, "\n");
}

void conf_keys_write_markdown(FILE *out)
{
    fprintf(out, "## Key reference\n\n");
    fprintf(out, "<!-- Generated from the key table in sim/conf_keys.c by conf_keys_write_markdown()"
                 " (`sksim keys`). Do not edit by hand: regenerate. -->\n\n");
    for (guint i = 0; i < G_N_ELEMENTS(groups); i++)
        write_group(out, &groups[i]);
    guint n;
    const ConfStructKey *s = conf_keys_struct_table(&n);
    fprintf(out, "### `variants`, `expect`, `report`\n\n");
    fprintf(out, "| Key | Type | Meaning |\n|---|---|---|\n");
    for (guint i = 0; i < n; i++)
        fprintf(out, "| `%s` | %s | %s |\n", s[i].path, s[i].type, s[i].doc);
}

char **conf_keys_list(void)
{
    guint n, ns;
    const ConfKey *t = conf_keys_table(&n);
    const ConfStructKey *s = conf_keys_struct_table(&ns);
    GPtrArray *out = g_ptr_array_new();
    for (guint i = 0; i < n; i++)
        g_ptr_array_add(out, g_strconcat(entry_prefix(t[i].section), t[i].key, NULL));
    for (guint i = 0; i < ns; i++)
        g_ptr_array_add(out, g_strdup(s[i].path));
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}
