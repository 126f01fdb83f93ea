/* conf_value.c - parse, check and store one value for one key-table row.
 *
 * Every type goes the same way: the node must be a non-empty scalar (CPU lists may also be a
 * sequence), the text is parsed by the units module into an integer or a double, compared with
 * the row's bounds (themselves scenario text, parsed the same way, so a message quotes the bound
 * as the reference shows it), and written through the row's offset. Fields narrower than the
 * parsed value (uint32_t) also get their type's limit checked, so nothing is silently truncated.
 */
#include "sim/conf_value.h"

#include <string.h>

#include "sim/conf_suggest.h"
#include "sim/config.h"
#include "sim/scenario.h"
#include "sim/units.h"

#define CPU_ID_MAX 1023

typedef struct Num {
    uint64_t u;
    double d;
    bool pkts;
} Num;

static void *field(void *base, size_t offset)
{
    return (char *)base + offset;
}

static char *type_phrase(const ConfKey *k)
{
    switch (k->type) {
    case CONF_T_STRING:
        return g_strdup("a string");
    case CONF_T_NAME:
        return g_strdup("a name of lower-case letters, digits, '_', '.' and '-'");
    case CONF_T_HOSTREF:
        return g_strdup("a host name");
    case CONF_T_BOOL:
        return g_strdup("a boolean (true/false)");
    case CONF_T_U32:
    case CONF_T_U64:
        return g_strdup("a whole number");
    case CONF_T_PKTS:
        return g_strdup(units_expected(UNIT_PACKETS));
    case CONF_T_DURATION:
        return g_strdup(units_expected(UNIT_DURATION));
    case CONF_T_RATE:
        return g_strdup(units_expected(UNIT_RATE));
    case CONF_T_SIZE:
        return g_strdup(units_expected(UNIT_SIZE));
    case CONF_T_QUEUE:
        return g_strdup(units_expected(UNIT_QUEUE));
    case CONF_T_RATIO:
        return g_strdup(units_expected(UNIT_RATIO));
    case CONF_T_ENUM: {
        g_autofree char *list = g_strjoinv(", ", (char **)k->choices);
        return g_strdup_printf("one of %s", list);
    }
    case CONF_T_CPULIST:
        return g_strdup("a CPU list like [0-3, 8] or \"0-3,8\"");
    }
    return g_strdup("a value");
}

static gboolean type_error(const ConfNode *n, const ConfKey *k, const char *file, GError **error)
{
    g_autofree char *want = type_phrase(k);
    g_autofree char *got = conf_node_describe(n);
    conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE, "expected %s, got %s", want, got);
    return FALSE;
}

/* ---- numbers ---------------------------------------------------------------------------------- */

static gboolean parse_num(ConfType type, const char *text, Num *out, GError **error)
{
    sim_time_t ns = 0;
    memset(out, 0, sizeof *out);
    switch (type) {
    case CONF_T_U32:
    case CONF_T_U64:
        return units_parse_uint(text, &out->u, error);
    case CONF_T_PKTS:
        return units_parse_packets(text, &out->u, error);
    case CONF_T_DURATION:
        if (!units_parse_duration(text, &ns, error))
            return FALSE;
        out->u = (uint64_t)ns;
        return TRUE;
    case CONF_T_RATE:
        return units_parse_rate(text, &out->u, error);
    case CONF_T_SIZE:
        return units_parse_size(text, &out->u, error);
    case CONF_T_QUEUE:
        return units_parse_queue(text, &out->u, &out->pkts, error);
    case CONF_T_RATIO:
        return units_parse_ratio(text, &out->d, error);
    default:
        g_assert_not_reached();
    }
}

/* A bound from the table; the queue's bounds are plain counts. */
static Num bound(const ConfKey *k, const char *text)
{
    Num v;
    g_autoptr(GError) err = NULL;
    ConfType t = k->type == CONF_T_QUEUE ? CONF_T_U64 : k->type;
    if (!parse_num(t, text, &v, &err))
        g_error("key table: bad bound '%s' for %s: %s", text, k->key, err->message);
    return v;
}

static int num_cmp(const ConfKey *k, Num a, Num b)
{
    if (k->type == CONF_T_RATIO)
        return (a.d > b.d) - (a.d < b.d);
    return (a.u > b.u) - (a.u < b.u);
}

static bool narrow_field(ConfType t)
{
    return t == CONF_T_U32 || t == CONF_T_PKTS || t == CONF_T_SIZE;
}

static gboolean check_range(const ConfKey *k, const ConfNode *n, Num v, const char *path,
                            const char *file, GError **error)
{
    const char *max = k->max;
    if (!max && narrow_field(k->type))
        max = "4294967295";
    bool low = k->min && num_cmp(k, v, bound(k, k->min)) < 0;
    bool high = max && num_cmp(k, v, bound(k, max)) > 0;
    if (!low && !high)
        return TRUE;
    g_autofree char *range = NULL;
    if (k->min && max)
        range = g_strdup_printf("between %s and %s", k->min, max);
    else if (k->min)
        range = g_strdup_printf("at least %s", k->min);
    else
        range = g_strdup_printf("at most %s", max);
    conf_set_error(error, file, n, SKSIM_CONF_ERROR_RANGE, "%s must be %s, got '%s'", path, range,
                   n->text);
    return FALSE;
}

static void store_num(const ConfKey *k, void *base, Num v)
{
    void *f = field(base, k->offset);
    switch (k->type) {
    case CONF_T_U32:
    case CONF_T_PKTS:
    case CONF_T_SIZE:
        *(uint32_t *)f = (uint32_t)v.u;
        break;
    case CONF_T_U64:
    case CONF_T_RATE:
        *(uint64_t *)f = v.u;
        break;
    case CONF_T_DURATION:
        *(sim_time_t *)f = (sim_time_t)v.u;
        break;
    case CONF_T_RATIO:
        *(double *)f = v.d;
        break;
    case CONF_T_QUEUE:
        *(uint64_t *)f = v.pkts ? 0 : v.u;
        *(uint32_t *)field(base, k->aux_offset) = v.pkts ? (uint32_t)v.u : 0;
        break;
    default:
        g_assert_not_reached();
    }
}

static gboolean bind_num(const ConfKey *k, const ConfNode *n, void *base, const char *path,
                         const char *file, GError **error)
{
    Num v;
    g_autoptr(GError) local = NULL;
    if (!parse_num(k->type, n->text, &v, &local)) {
        conf_set_error(error, file, n, local->code, "%s", local->message);
        return FALSE;
    }
    if (!check_range(k, n, v, path, file, error))
        return FALSE;
    store_num(k, base, v);
    return TRUE;
}

/* ---- strings, booleans, enums ------------------------------------------------------------------ */

static bool name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!(g_ascii_islower(*s) || g_ascii_isdigit(*s) || strchr("_.-", *s)))
            return false;
    return true;
}

static gboolean bind_string(const ConfKey *k, const ConfNode *n, void *base, const char *file,
                            GError **error)
{
    if (k->type == CONF_T_NAME && !name_ok(n->text)) {
        conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE,
                       "invalid name '%s': use lower-case letters, digits, '_', '.' and '-'",
                       n->text);
        return FALSE;
    }
    if (k->type == CONF_T_HOSTREF && !*n->text)
        return type_error(n, k, file, error);
    char **f = field(base, k->offset);
    g_free(*f);
    *f = g_strdup(n->text);
    return TRUE;
}

static gboolean bind_bool(const ConfKey *k, const ConfNode *n, void *base, const char *file,
                          GError **error)
{
    bool v;
    g_autoptr(GError) local = NULL;
    if (!units_parse_bool(n->text, &v, &local)) {
        conf_set_error(error, file, n, local->code, "%s", local->message);
        return FALSE;
    }
    *(bool *)field(base, k->offset) = v;
    return TRUE;
}

static gboolean bind_enum(const ConfKey *k, const ConfNode *n, void *base, const char *file,
                          GError **error)
{
    for (int i = 0; k->choices[i]; i++) {
        if (strcmp(k->choices[i], n->text) == 0) {
            *(int *)field(base, k->offset) = i;
            return TRUE;
        }
    }
    g_autoptr(GPtrArray) cands = g_ptr_array_new();
    for (int i = 0; k->choices[i]; i++)
        g_ptr_array_add(cands, (gpointer)k->choices[i]);
    g_autofree char *want = type_phrase(k);
    g_autofree char *got = conf_node_describe(n);
    g_autofree char *hint = conf_suggest_hint(n->text, cands);
    conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE, "expected %s, got %s%s", want, got, hint);
    return FALSE;
}

/* ---- CPU lists --------------------------------------------------------------------------------- */

static gboolean cpu_add(CpuList *l, uint64_t cpu, const ConfNode *n, const char *file,
                        GError **error)
{
    if (cpu > CPU_ID_MAX) {
        conf_set_error(error, file, n, SKSIM_CONF_ERROR_RANGE,
                       "CPU %" G_GUINT64_FORMAT " is out of range (0 to %d)", cpu, CPU_ID_MAX);
        return FALSE;
    }
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->cpu[i] == cpu) {
            conf_set_error(error, file, n, SKSIM_CONF_ERROR_RANGE,
                           "CPU %" G_GUINT64_FORMAT " is listed twice", cpu);
            return FALSE;
        }
    }
    if (l->n >= G_N_ELEMENTS(l->cpu)) {
        conf_set_error(error, file, n, SKSIM_CONF_ERROR_LIMIT, "a CPU list holds at most %u CPUs",
                       (unsigned)G_N_ELEMENTS(l->cpu));
        return FALSE;
    }
    l->cpu[l->n++] = (uint32_t)cpu;
    return TRUE;
}

/* Digits only; a number too big for 64 bits becomes UINT64_MAX (then "out of range"). */
static bool cpu_num(const char *s, uint64_t *out)
{
    g_autofree char *t = g_strstrip(g_strdup(s));
    if (!*t)
        return false;
    for (const char *p = t; *p; p++)
        if (!g_ascii_isdigit(*p))
            return false;
    if (!units_parse_uint(t, out, NULL))
        *out = UINT64_MAX;
    return true;
}

/* One "3" or "0-3" item. */
static gboolean cpu_item(CpuList *l, const char *item, const ConfNode *n, const char *file,
                         GError **error)
{
    g_auto(GStrv) ends = g_strsplit(item, "-", 2);
    uint64_t lo = 0, hi = 0;
    bool ok = ends[0] && cpu_num(ends[0], &lo);
    hi = lo;
    if (ok && ends[1])
        ok = cpu_num(ends[1], &hi);
    if (!ok) {
        conf_set_error(error, file, n, SKSIM_CONF_ERROR_TYPE,
                       "expected a CPU number or range like 3 or 0-3, got '%s'", item);
        return FALSE;
    }
    if (hi < lo) {
        conf_set_error(error, file, n, SKSIM_CONF_ERROR_RANGE, "CPU range '%s' runs backwards",
                       item);
        return FALSE;
    }
    for (uint64_t c = lo; c <= hi; c++)
        if (!cpu_add(l, c, n, file, error))
            return FALSE;
    return TRUE;
}

static gboolean cpu_text(CpuList *l, const char *text, const ConfNode *n, const char *file,
                         GError **error)
{
    g_autofree char *copy = g_strstrip(g_strdup(text));
    if (!*copy)
        return TRUE;
    g_auto(GStrv) items = g_strsplit(copy, ",", -1);
    for (guint i = 0; items[i]; i++)
        if (!cpu_item(l, g_strstrip(items[i]), n, file, error))
            return FALSE;
    return TRUE;
}

static gboolean bind_cpulist(const ConfKey *k, const ConfNode *n, void *base, const char *file,
                             GError **error)
{
    CpuList l = {0};
    if (n->kind == CONF_NODE_MAP || conf_node_is_null(n))
        return type_error(n, k, file, error);
    if (n->kind == CONF_NODE_SCALAR && !cpu_text(&l, n->text, n, file, error))
        return FALSE;
    for (guint i = 0; n->kind == CONF_NODE_SEQ && i < n->items->len; i++) {
        const ConfNode *item = g_ptr_array_index(n->items, i);
        if (item->kind != CONF_NODE_SCALAR || conf_node_is_null(item))
            return type_error(item, k, file, error);
        if (!cpu_item(&l, item->text, item, file, error))
            return FALSE;
    }
    *(CpuList *)field(base, k->offset) = l;
    return TRUE;
}

/* ---- entry point -------------------------------------------------------------------------------- */

gboolean conf_value_bind(const ConfKey *k, const ConfNode *n, void *base, const char *path,
                         const char *file, GError **error)
{
    if (k->type == CONF_T_CPULIST)
        return bind_cpulist(k, n, base, file, error);
    if (n->kind != CONF_NODE_SCALAR || conf_node_is_null(n))
        return type_error(n, k, file, error);
    switch (k->type) {
    case CONF_T_STRING:
    case CONF_T_NAME:
    case CONF_T_HOSTREF:
        return bind_string(k, n, base, file, error);
    case CONF_T_BOOL:
        return bind_bool(k, n, base, file, error);
    case CONF_T_ENUM:
        return bind_enum(k, n, base, file, error);
    default:
        return bind_num(k, n, base, path, file, error);
    }
}
