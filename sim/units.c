/* units.c - parse numbers with units exactly, by hand.
 *
 * A value is scanned once into a Decimal (sign, integer part as uint64 with an overflow flag,
 * up to 18 fractional digits, and the unit text after it). Scaling by the unit's factor is done
 * in 128-bit integers, so "1.5ms" is exactly 1500000 ns and "18446744073709551616B" is an error
 * rather than a rounded double. Each kind of quantity is a row of units plus the phrases its error
 * messages use; the parse functions differ only in which row and which checks they apply.
 */
#include "sim/units.h"

#include <inttypes.h>
#include <string.h>

#include "sim/scenario.h"

#define FRAC_DIGITS_MAX 18

typedef struct Decimal {
    bool neg;
    bool overflow;     /* integer part does not fit in 64 bits */
    uint64_t ip;       /* integer part */
    uint64_t frac;     /* fractional digits read (at most FRAC_DIGITS_MAX; the rest ignored) */
    int frac_digits;
    const char *unit;  /* the text after the number and any spaces ("" when none) */
} Decimal;

typedef struct Unit {
    const char *name;
    uint64_t factor;
    bool pkts; /* queue: this unit counts packets */
} Unit;

typedef struct Kind {
    const char *what;     /* "a duration" */
    const char *expected; /* "a duration like 50us or 1.5ms" */
    const char *names;    /* "ns, us, ms, s" */
    const char *base;     /* base unit for "at most" messages */
    bool unit_required;   /* a bare non-zero number is "missing unit" */
    bool whole_base;      /* reject a fraction of the base unit (bytes, packets) */
    uint64_t max;
    const Unit *units;
} Kind;

static const Unit duration_units[] = {
    {"ns", 1, false}, {"us", 1000, false}, {"\u00b5s", 1000, false}, {"\u03bcs", 1000, false},
    {"ms", 1000000, false}, {"s", 1000000000, false}, {NULL, 0, false},
};
static const Unit rate_units[] = {
    {"bit", 1, false}, {"kbit", 1000, false}, {"Kbit", 1000, false},
    {"Mbit", 1000000, false}, {"Gbit", 1000000000, false}, {"Tbit", 1000000000000, false},
    {"bps", 1, false}, {"Kbps", 1000, false}, {"Mbps", 1000000, false},
    {"Gbps", 1000000000, false}, {"Tbps", 1000000000000, false}, {NULL, 0, false},
};
#define SIZE_UNIT_ROWS                                                                          \
    {"B", 1, false}, {"KB", 1000, false}, {"MB", 1000000, false}, {"GB", 1000000000, false},    \
        {"TB", 1000000000000, false}, {"KiB", 1024, false}, {"MiB", 1024 * 1024, false},        \
        {"GiB", 1024 * 1024 * 1024, false}, {"TiB", (uint64_t)1024 * 1024 * 1024 * 1024, false}
static const Unit size_units[] = {SIZE_UNIT_ROWS, {"", 1, false}, {NULL, 0, false}};
static const Unit packet_units[] = {{"pkt", 1, true}, {"pkts", 1, true}, {"", 1, true},
                                    {NULL, 0, false}};
static const Unit queue_units[] = {{"pkt", 1, true}, {"pkts", 1, true}, SIZE_UNIT_ROWS,
                                   {NULL, 0, false}};
static const Unit ratio_units[] = {{"", 1, false}, {"%", 100, false}, {NULL, 0, false}};

static const Kind kinds[] = {
    [UNIT_DURATION] = {"a duration", "a duration like 50us or 1.5ms", "ns, us, ms, s", "ns",
                       true, false, INT64_MAX, duration_units},
    [UNIT_RATE] = {"a rate", "a rate like 10Gbit or 100Mbit",
                   "bit, kbit, Mbit, Gbit, Tbit, bps, Kbps, Mbps, Gbps, Tbps", "bit", true, false,
                   UINT64_MAX, rate_units},
    [UNIT_SIZE] = {"a size", "a size like 65536, 64KiB or 1MB",
                   "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB", "B", false, true, UINT64_MAX,
                   size_units},
    [UNIT_PACKETS] = {"a packet count", "a packet count like 1000 or 1000pkt", "pkt", "", false,
                      true, UINT64_MAX, packet_units},
    [UNIT_QUEUE] = {"a queue length", "a queue length like 1000pkt or 256KiB",
                    "pkt, B, KB, MB, GB, TB, KiB, MiB, GiB, TiB", "", true, true, UINT64_MAX,
                    queue_units},
    [UNIT_RATIO] = {"a ratio", "a ratio like 0.01, 1e-4 or 1%",
                    "a plain number 0..1 (1e-4 allowed), or %", "", false, false, UINT64_MAX,
                    ratio_units},
};

const char *units_expected(UnitKind kind)
{
    return kinds[kind].expected;
}

const char *units_names(UnitKind kind)
{
    return kinds[kind].names;
}

static void unit_error(GError **error, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void unit_error(GError **error, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, SKSIM_CONF_ERROR, code, msg);
}

/* ---- scanning -------------------------------------------------------------------------------- */

static const char *skip_digits(const char *p, uint64_t *acc, int *count, int max_keep,
                               bool *overflow)
{
    for (; g_ascii_isdigit(*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (max_keep >= 0 && *count >= max_keep)
            continue; /* fractional digits past the precision we keep */
        if (*acc > (UINT64_MAX - d) / 10)
            *overflow = true;
        else
            *acc = *acc * 10 + d;
        (*count)++;
    }
    return p;
}

/* Scan "[+-]digits[.digits] [unit]" from the trimmed text. FALSE when there is no number. */
static bool decimal_scan(const char *text, Decimal *d)
{
    memset(d, 0, sizeof *d);
    const char *p = text;
    if (*p == '+' || *p == '-')
        d->neg = *p++ == '-';
    int int_digits = 0;
    p = skip_digits(p, &d->ip, &int_digits, -1, &d->overflow);
    if (*p == '.') {
        bool ignored = false;
        p = skip_digits(p + 1, &d->frac, &d->frac_digits, FRAC_DIGITS_MAX, &ignored);
        while (g_ascii_isdigit(*p))
            p++;
    }
    if (int_digits == 0 && d->frac_digits == 0)
        return false;
    while (*p == ' ')
        p++;
    d->unit = p;
    return true;
}

static bool decimal_is_zero(const Decimal *d)
{
    return !d->overflow && d->ip == 0 && d->frac == 0;
}

static uint64_t pow10u(int n)
{
    uint64_t r = 1;
    while (n-- > 0)
        r *= 10;
    return r;
}

/* d * factor rounded to the nearest integer (halves up); FALSE when above max. */
static bool decimal_scale(const Decimal *d, uint64_t factor, uint64_t max, uint64_t *out,
                          bool *fractional)
{
    if (d->overflow)
        return false;
    uint64_t den = pow10u(d->frac_digits);
    unsigned __int128 f = (unsigned __int128)d->frac * factor;
    unsigned __int128 v = (unsigned __int128)d->ip * factor + f / den;
    unsigned __int128 rem = f % den;
    *fractional = rem != 0;
    if (rem * 2 >= den && rem != 0)
        v++;
    if (v > max)
        return false;
    *out = (uint64_t)v;
    return true;
}

static const Unit *unit_find(const Unit *units, const char *name)
{
    for (const Unit *u = units; u->name; u++)
        if (strcmp(u->name, name) == 0)
            return u;
    return NULL;
}

/* ---- the common parser ----------------------------------------------------------------------- */

typedef struct Parsed {
    uint64_t value;
    bool pkts;
} Parsed;

static bool check_unit(const Kind *k, const Decimal *d, const char *text, const Unit **unit,
                       GError **error)
{
    if (d->unit[0] == '\0' && decimal_is_zero(d)) {
        *unit = &k->units[0];
        return true;
    }
    *unit = unit_find(k->units, d->unit);
    if (*unit)
        return true;
    if (d->unit[0] == '\0')
        unit_error(error, SKSIM_CONF_ERROR_UNIT, "missing unit: expected %s", k->expected);
    else
        unit_error(error, SKSIM_CONF_ERROR_UNIT, "unknown unit '%s' for %s (use %s)", d->unit,
                   k->what, k->names);
    return false;
}

static bool parse_kind(UnitKind kind, const char *text_in, Parsed *out, GError **error)
{
    const Kind *k = &kinds[kind];
    g_autofree char *text = g_strstrip(g_strdup(text_in));
    Decimal d;
    if (!decimal_scan(text, &d)) {
        unit_error(error, SKSIM_CONF_ERROR_TYPE, "expected %s, got '%s'", k->expected, text);
        return false;
    }
    const Unit *u = NULL;
    if (!check_unit(k, &d, text, &u, error))
        return false;
    if (d.neg && !decimal_is_zero(&d)) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "%s cannot be negative, got '%s'", k->what, text);
        return false;
    }
    bool fractional = false;
    if (!decimal_scale(&d, u->factor, k->max, &out->value, &fractional)) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "'%s' is too large for %s (at most %" PRIu64 "%s)",
                   text, k->what, k->max, k->base);
        return false;
    }
    if (fractional && k->whole_base && u->factor == 1) {
        unit_error(error, SKSIM_CONF_ERROR_TYPE, "expected a whole number of %s, got '%s'",
                   u->pkts ? "packets" : "bytes", text);
        return false;
    }
    out->pkts = u->pkts;
    return true;
}

/* ---- the public parsers ---------------------------------------------------------------------- */

gboolean units_parse_duration(const char *text, sim_time_t *out_ns, GError **error)
{
    Parsed p;
    if (!parse_kind(UNIT_DURATION, text, &p, error))
        return FALSE;
    *out_ns = (sim_time_t)p.value;
    return TRUE;
}

gboolean units_parse_rate(const char *text, uint64_t *out_bps, GError **error)
{
    Parsed p;
    if (!parse_kind(UNIT_RATE, text, &p, error))
        return FALSE;
    *out_bps = p.value;
    return TRUE;
}

gboolean units_parse_size(const char *text, uint64_t *out_bytes, GError **error)
{
    Parsed p;
    if (!parse_kind(UNIT_SIZE, text, &p, error))
        return FALSE;
    *out_bytes = p.value;
    return TRUE;
}

gboolean units_parse_packets(const char *text, uint64_t *out_pkts, GError **error)
{
    Parsed p;
    if (!parse_kind(UNIT_PACKETS, text, &p, error))
        return FALSE;
    *out_pkts = p.value;
    return TRUE;
}

gboolean units_parse_queue(const char *text, uint64_t *out_count, bool *out_pkts, GError **error)
{
    Parsed p;
    if (!parse_kind(UNIT_QUEUE, text, &p, error))
        return FALSE;
    *out_count = p.value;
    *out_pkts = p.pkts;
    return TRUE;
}

/* A ratio's optional exponent, "e-4" or "E+2" right after the digits (a loss rate is usually
 * written 1e-4): moves d->unit past it. FALSE with an error when it is out of double's range. */
#define RATIO_EXP_MAX 300

static bool ratio_exponent(Decimal *d, const char *text, int *exp10, GError **error)
{
    const char *p = d->unit;
    *exp10 = 0;
    if ((p[0] != 'e' && p[0] != 'E') || p == text || !(g_ascii_isdigit(p[-1]) || p[-1] == '.'))
        return true; /* no exponent ("1 e-4": a unit after a space is not one) */
    const char *q = p + 1;
    bool neg = *q == '-';
    if (*q == '+' || *q == '-')
        q++;
    if (!g_ascii_isdigit(*q))
        return true; /* "1e": an unknown unit 'e' */
    int e = 0;
    for (; g_ascii_isdigit(*q); q++) {
        if (e > RATIO_EXP_MAX) {
            unit_error(error, SKSIM_CONF_ERROR_RANGE, "exponent out of range in '%s'", text);
            return false;
        }
        e = e * 10 + (*q - '0');
    }
    if (e > RATIO_EXP_MAX) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "exponent out of range in '%s'", text);
        return false;
    }
    while (*q == ' ')
        q++;
    d->unit = q;
    *exp10 = neg ? -e : e;
    return true;
}

gboolean units_parse_ratio(const char *text_in, double *out, GError **error)
{
    g_autofree char *text = g_strstrip(g_strdup(text_in));
    Decimal d;
    const Unit *u = NULL;
    int exp10 = 0;
    if (!decimal_scan(text, &d)) {
        unit_error(error, SKSIM_CONF_ERROR_TYPE, "expected %s, got '%s'",
                   kinds[UNIT_RATIO].expected, text);
        return FALSE;
    }
    if (!ratio_exponent(&d, text, &exp10, error))
        return FALSE;
    if (!check_unit(&kinds[UNIT_RATIO], &d, text, &u, error))
        return FALSE;
    if (d.neg && !decimal_is_zero(&d)) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "a ratio cannot be negative, got '%s'", text);
        return FALSE;
    }
    if (d.overflow) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "'%s' is too large for a ratio", text);
        return FALSE;
    }
    double v = (double)d.ip + (double)d.frac / (double)pow10u(d.frac_digits);
    for (; exp10 > 0; exp10--)
        v *= 10.0;
    for (; exp10 < 0; exp10++)
        v /= 10.0;
    *out = v / (double)u->factor;
    return TRUE;
}

gboolean units_parse_uint(const char *text_in, uint64_t *out, GError **error)
{
    g_autofree char *text = g_strstrip(g_strdup(text_in));
    Decimal d;
    if (!decimal_scan(text, &d) || d.unit[0] != '\0' || d.frac_digits > 0 || strchr(text, '.')) {
        unit_error(error, SKSIM_CONF_ERROR_TYPE, "expected a whole number, got '%s'", text);
        return FALSE;
    }
    if (d.neg && !decimal_is_zero(&d)) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "expected a whole number >= 0, got '%s'", text);
        return FALSE;
    }
    if (d.overflow) {
        unit_error(error, SKSIM_CONF_ERROR_RANGE, "'%s' is too large (at most %" PRIu64 ")", text,
                   UINT64_MAX);
        return FALSE;
    }
    *out = d.ip;
    return TRUE;
}

gboolean units_parse_bool(const char *text, bool *out, GError **error)
{
    static const char *const yes[] = {"true", "True", "TRUE"};
    static const char *const no[] = {"false", "False", "FALSE"};
    for (guint i = 0; i < G_N_ELEMENTS(yes); i++) {
        if (strcmp(text, yes[i]) == 0 || strcmp(text, no[i]) == 0) {
            *out = strcmp(text, yes[i]) == 0;
            return TRUE;
        }
    }
    unit_error(error, SKSIM_CONF_ERROR_TYPE, "expected a boolean (true/false), got '%s'", text);
    return FALSE;
}
