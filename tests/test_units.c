/* test_units.c - the unit parsers: every unit, decimals, rounding, overflow and each error.
 *
 * Error cases assert the exact message, because those messages are what a user sees after
 * "FILE:LINE:COL: ".
 */
#include <glib.h>
#include <math.h>

#include "sim/scenario.h"
#include "sim/units.h"

typedef struct {
    const char *text;
    uint64_t want;
} U64Case;

typedef struct {
    const char *text;
    int code;
    const char *message;
} ErrCase;

static void check_duration_ok(const char *text, sim_time_t want)
{
    g_autoptr(GError) err = NULL;
    sim_time_t ns = -1;
    g_assert_true(units_parse_duration(text, &ns, &err));
    g_assert_no_error(err);
    g_assert_cmpint(ns, ==, want);
}

/* err is read through a pointer: the parse call in the same argument list sets it, and argument
 * evaluation order is unspecified. */
static void check_error(gboolean ok, GError **err, int code, const char *message)
{
    g_assert_false(ok);
    g_assert_error(*err, SKSIM_CONF_ERROR, code);
    g_assert_cmpstr((*err)->message, ==, message);
}

static void test_duration_units(void)
{
    check_duration_ok("7ns", 7);
    check_duration_ok("50us", 50 * SIM_US);
    check_duration_ok("50\u00b5s", 50 * SIM_US);
    check_duration_ok("50\u03bcs", 50 * SIM_US);
    check_duration_ok("3ms", 3 * SIM_MS);
    check_duration_ok("2s", 2 * SIM_S);
    check_duration_ok("0", 0);
    check_duration_ok("0.0", 0);
    check_duration_ok("0s", 0);
    check_duration_ok("  10 ms ", 10 * SIM_MS);
    check_duration_ok("+4us", 4 * SIM_US);
}

static void test_duration_decimals(void)
{
    check_duration_ok("1.5ms", 1500 * SIM_US);
    check_duration_ok("0.75ms", 750 * SIM_US);
    check_duration_ok(".5s", 500 * SIM_MS);
    check_duration_ok("2.ms", 2 * SIM_MS);
    check_duration_ok("0.000000001s", 1);
    check_duration_ok("1.000000000000000000001s", SIM_S); /* digits past 18 are ignored */
}

static void test_duration_rounding(void)
{
    check_duration_ok("1.4ns", 1);
    check_duration_ok("1.5ns", 2); /* halves round up */
    check_duration_ok("1.6ns", 2);
    check_duration_ok("0.4ns", 0);
    check_duration_ok("0.0015us", 2);
    check_duration_ok("0.0014us", 1);
    check_duration_ok("9223372036.854775807s", INT64_MAX);
}

static void test_duration_errors(void)
{
    static const ErrCase cases[] = {
        {"10", SKSIM_CONF_ERROR_UNIT, "missing unit: expected a duration like 50us or 1.5ms"},
        {"1.5", SKSIM_CONF_ERROR_UNIT, "missing unit: expected a duration like 50us or 1.5ms"},
        {"10xs", SKSIM_CONF_ERROR_UNIT, "unknown unit 'xs' for a duration (use ns, us, ms, s)"},
        {"10MS", SKSIM_CONF_ERROR_UNIT, "unknown unit 'MS' for a duration (use ns, us, ms, s)"},
        {"1e6ns", SKSIM_CONF_ERROR_UNIT, "unknown unit 'e6ns' for a duration (use ns, us, ms, s)"},
        {"-5ms", SKSIM_CONF_ERROR_RANGE, "a duration cannot be negative, got '-5ms'"},
        {"ms", SKSIM_CONF_ERROR_TYPE, "expected a duration like 50us or 1.5ms, got 'ms'"},
        {"", SKSIM_CONF_ERROR_TYPE, "expected a duration like 50us or 1.5ms, got ''"},
        {".", SKSIM_CONF_ERROR_TYPE, "expected a duration like 50us or 1.5ms, got '.'"},
        {"9223372036.854775808s", SKSIM_CONF_ERROR_RANGE,
         "'9223372036.854775808s' is too large for a duration (at most 9223372036854775807ns)"},
        {"18446744073709551616ns", SKSIM_CONF_ERROR_RANGE,
         "'18446744073709551616ns' is too large for a duration (at most 9223372036854775807ns)"},
        {"99999999999999999999999s", SKSIM_CONF_ERROR_RANGE,
         "'99999999999999999999999s' is too large for a duration (at most 9223372036854775807ns)"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) err = NULL;
        sim_time_t ns = 42;
        check_error(units_parse_duration(cases[i].text, &ns, &err), &err, cases[i].code,
                    cases[i].message);
        g_assert_cmpint(ns, ==, 42); /* untouched on failure */
    }
}

static void test_rate(void)
{
    static const U64Case ok[] = {
        {"1bit", 1},
        {"0", 0},
        {"100kbit", 100000},
        {"100Kbit", 100000},
        {"100Mbit", 100000000},
        {"10Gbit", 10000000000},
        {"1Tbit", 1000000000000},
        {"2.5Gbit", 2500000000},
        {"64bps", 64},
        {"56Kbps", 56000},
        {"100Mbps", 100000000},
        {"40Gbps", 40000000000},
        {"1.5Tbps", 1500000000000},
        {"0.0000000001Gbit", 0}, /* 0.1 bit/s rounds to 0 */
        {"18446744073709551615bit", UINT64_MAX},
    };
    for (guint i = 0; i < G_N_ELEMENTS(ok); i++) {
        g_autoptr(GError) err = NULL;
        uint64_t v = 0;
        g_assert_true(units_parse_rate(ok[i].text, &v, &err));
        g_assert_cmpuint(v, ==, ok[i].want);
    }
    static const ErrCase bad[] = {
        {"100", SKSIM_CONF_ERROR_UNIT, "missing unit: expected a rate like 10Gbit or 100Mbit"},
        {"1MBps", SKSIM_CONF_ERROR_UNIT,
         "unknown unit 'MBps' for a rate (use bit, kbit, Mbit, Gbit, Tbit, bps, Kbps, Mbps, Gbps, "
         "Tbps)"},
        {"-1Gbit", SKSIM_CONF_ERROR_RANGE, "a rate cannot be negative, got '-1Gbit'"},
        {"18446744073709551616bit", SKSIM_CONF_ERROR_RANGE,
         "'18446744073709551616bit' is too large for a rate (at most 18446744073709551615bit)"},
        {"18446745Tbit", SKSIM_CONF_ERROR_RANGE,
         "'18446745Tbit' is too large for a rate (at most 18446744073709551615bit)"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        uint64_t v = 0;
        check_error(units_parse_rate(bad[i].text, &v, &err), &err, bad[i].code, bad[i].message);
    }
}

static void test_size(void)
{
    static const U64Case ok[] = {
        {"0", 0},
        {"65536", 65536},
        {"100B", 100},
        {"1KB", 1000},
        {"1MB", 1000000},
        {"2GB", 2000000000},
        {"1TB", 1000000000000},
        {"64KiB", 65536},
        {"6MiB", 6291456},
        {"1GiB", 1073741824},
        {"1TiB", 1099511627776},
        {"1.5KiB", 1536},
        {"0.5KB", 500},
        {"1.0001KB", 1000}, /* 1000.1 B rounds to 1000 */
        {"18446744073709551615B", UINT64_MAX},
        {"18446744073709551615", UINT64_MAX},
    };
    for (guint i = 0; i < G_N_ELEMENTS(ok); i++) {
        g_autoptr(GError) err = NULL;
        uint64_t v = 0;
        g_assert_true(units_parse_size(ok[i].text, &v, &err));
        g_assert_cmpuint(v, ==, ok[i].want);
    }
    static const ErrCase bad[] = {
        {"1.5", SKSIM_CONF_ERROR_TYPE, "expected a whole number of bytes, got '1.5'"},
        {"1.5B", SKSIM_CONF_ERROR_TYPE, "expected a whole number of bytes, got '1.5B'"},
        {"10kb", SKSIM_CONF_ERROR_UNIT,
         "unknown unit 'kb' for a size (use B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)"},
        {"-1KiB", SKSIM_CONF_ERROR_RANGE, "a size cannot be negative, got '-1KiB'"},
        {"18446744073709551616B", SKSIM_CONF_ERROR_RANGE,
         "'18446744073709551616B' is too large for a size (at most 18446744073709551615B)"},
        {"17179869184GiB", SKSIM_CONF_ERROR_RANGE,
         "'17179869184GiB' is too large for a size (at most 18446744073709551615B)"},
        {"big", SKSIM_CONF_ERROR_TYPE, "expected a size like 65536, 64KiB or 1MB, got 'big'"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        uint64_t v = 0;
        check_error(units_parse_size(bad[i].text, &v, &err), &err, bad[i].code, bad[i].message);
    }
}

static void test_packets_and_queue(void)
{
    uint64_t v = 0;
    bool pkts = false;
    g_assert_true(units_parse_packets("1000", &v, NULL));
    g_assert_cmpuint(v, ==, 1000);
    g_assert_true(units_parse_packets("64pkt", &v, NULL));
    g_assert_cmpuint(v, ==, 64);
    g_assert_true(units_parse_packets("3 pkts", &v, NULL));
    g_assert_cmpuint(v, ==, 3);
    g_assert_true(units_parse_queue("1000pkt", &v, &pkts, NULL));
    g_assert_true(pkts);
    g_assert_cmpuint(v, ==, 1000);
    g_assert_true(units_parse_queue("256KiB", &v, &pkts, NULL));
    g_assert_false(pkts);
    g_assert_cmpuint(v, ==, 262144);
    g_assert_true(units_parse_queue("1500B", &v, &pkts, NULL));
    g_assert_false(pkts);
    g_assert_cmpuint(v, ==, 1500);

    static const ErrCase bad_pkts[] = {
        {"10p", SKSIM_CONF_ERROR_UNIT, "unknown unit 'p' for a packet count (use pkt)"},
        {"1.5pkt", SKSIM_CONF_ERROR_TYPE, "expected a whole number of packets, got '1.5pkt'"},
        {"-3", SKSIM_CONF_ERROR_RANGE, "a packet count cannot be negative, got '-3'"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad_pkts); i++) {
        g_autoptr(GError) err = NULL;
        check_error(units_parse_packets(bad_pkts[i].text, &v, &err), &err, bad_pkts[i].code,
                    bad_pkts[i].message);
    }
    static const ErrCase bad_queue[] = {
        {"1000", SKSIM_CONF_ERROR_UNIT,
         "missing unit: expected a queue length like 1000pkt or 256KiB"},
        {"10frames", SKSIM_CONF_ERROR_UNIT,
         "unknown unit 'frames' for a queue length (use pkt, B, KB, MB, GB, TB, KiB, MiB, GiB, "
         "TiB)"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad_queue); i++) {
        g_autoptr(GError) err = NULL;
        check_error(units_parse_queue(bad_queue[i].text, &v, &pkts, &err), &err,
                    bad_queue[i].code, bad_queue[i].message);
    }
}

static void test_ratio(void)
{
    double v = -1;
    g_assert_true(units_parse_ratio("0.5", &v, NULL));
    g_assert_cmpfloat(v, ==, 0.5);
    g_assert_true(units_parse_ratio("1%", &v, NULL));
    g_assert_cmpfloat_with_epsilon(v, 0.01, 1e-15);
    g_assert_true(units_parse_ratio("0.5%", &v, NULL));
    g_assert_cmpfloat_with_epsilon(v, 0.005, 1e-15);
    g_assert_true(units_parse_ratio("100%", &v, NULL));
    g_assert_cmpfloat(v, ==, 1.0);
    g_assert_true(units_parse_ratio("0", &v, NULL));
    g_assert_cmpfloat(v, ==, 0.0);
    g_assert_true(units_parse_ratio("2", &v, NULL)); /* > 1 is the binder's range check */
    g_assert_cmpfloat(v, ==, 2.0);
    /* scientific notation, as a loss rate is usually written (and as expect bounds accept) */
    g_assert_true(units_parse_ratio("1e-4", &v, NULL));
    g_assert_cmpfloat_with_epsilon(v, 1e-4, 1e-19);
    g_assert_true(units_parse_ratio("2.5E-3", &v, NULL));
    g_assert_cmpfloat_with_epsilon(v, 0.0025, 1e-18);
    g_assert_true(units_parse_ratio("5e-1%", &v, NULL));
    g_assert_cmpfloat_with_epsilon(v, 0.005, 1e-17);
    g_assert_true(units_parse_ratio("1e+0", &v, NULL));
    g_assert_cmpfloat(v, ==, 1.0);

    static const ErrCase bad[] = {
        {"-1%", SKSIM_CONF_ERROR_RANGE, "a ratio cannot be negative, got '-1%'"},
        {"5pc", SKSIM_CONF_ERROR_UNIT,
         "unknown unit 'pc' for a ratio (use a plain number 0..1 (1e-4 allowed), or %)"},
        {"half", SKSIM_CONF_ERROR_TYPE, "expected a ratio like 0.01, 1e-4 or 1%, got 'half'"},
        {"1e", SKSIM_CONF_ERROR_UNIT,
         "unknown unit 'e' for a ratio (use a plain number 0..1 (1e-4 allowed), or %)"},
        {"1e-4x", SKSIM_CONF_ERROR_UNIT,
         "unknown unit 'x' for a ratio (use a plain number 0..1 (1e-4 allowed), or %)"},
        {"1e-999", SKSIM_CONF_ERROR_RANGE, "exponent out of range in '1e-999'"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        check_error(units_parse_ratio(bad[i].text, &v, &err), &err, bad[i].code, bad[i].message);
    }
}

static void test_uint_and_bool(void)
{
    uint64_t v = 0;
    g_assert_true(units_parse_uint("18446744073709551615", &v, NULL));
    g_assert_cmpuint(v, ==, UINT64_MAX);
    g_assert_true(units_parse_uint(" 42 ", &v, NULL));
    g_assert_cmpuint(v, ==, 42);
    static const ErrCase bad[] = {
        {"18446744073709551616", SKSIM_CONF_ERROR_RANGE,
         "'18446744073709551616' is too large (at most 18446744073709551615)"},
        {"-1", SKSIM_CONF_ERROR_RANGE, "expected a whole number >= 0, got '-1'"},
        {"1.5", SKSIM_CONF_ERROR_TYPE, "expected a whole number, got '1.5'"},
        {"12abc", SKSIM_CONF_ERROR_TYPE, "expected a whole number, got '12abc'"},
        {"0x10", SKSIM_CONF_ERROR_TYPE, "expected a whole number, got '0x10'"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        check_error(units_parse_uint(bad[i].text, &v, &err), &err, bad[i].code, bad[i].message);
    }

    bool b = false;
    g_assert_true(units_parse_bool("true", &b, NULL) && b);
    g_assert_true(units_parse_bool("TRUE", &b, NULL) && b);
    g_assert_true(units_parse_bool("False", &b, NULL) && !b);
    g_autoptr(GError) err = NULL;
    check_error(units_parse_bool("yes", &b, &err), &err, SKSIM_CONF_ERROR_TYPE,
                "expected a boolean (true/false), got 'yes'");
}

static void test_phrases(void)
{
    g_assert_cmpstr(units_expected(UNIT_DURATION), ==, "a duration like 50us or 1.5ms");
    g_assert_cmpstr(units_names(UNIT_DURATION), ==, "ns, us, ms, s");
    g_assert_cmpstr(units_expected(UNIT_RATE), ==, "a rate like 10Gbit or 100Mbit");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/units/duration/units", test_duration_units);
    g_test_add_func("/units/duration/decimals", test_duration_decimals);
    g_test_add_func("/units/duration/rounding", test_duration_rounding);
    g_test_add_func("/units/duration/errors", test_duration_errors);
    g_test_add_func("/units/rate", test_rate);
    g_test_add_func("/units/size", test_size);
    g_test_add_func("/units/packets-and-queue", test_packets_and_queue);
    g_test_add_func("/units/ratio", test_ratio);
    g_test_add_func("/units/uint-and-bool", test_uint_and_bool);
    g_test_add_func("/units/phrases", test_phrases);
    return g_test_run();
}
