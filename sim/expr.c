/* expr.c - a recursive-descent evaluator for expect checks (grammar in expr.h).
 *
 * Why not a library: the language is four operators, numbers and dotted names; a parser of a
 * hundred lines gives exact, positioned error messages ("column 9: unknown variant 'aftr'"),
 * which is what a scenario author needs. Evaluation happens during parsing: expressions are
 * evaluated once, so there is no tree to build.
 */
#include "sim/expr.h"

#include <string.h>

#include "sim/counters.h"
#include "sim/results.h"

G_DEFINE_QUARK(sksim-expr-error-quark, sksim_expr_error)

#define EXPR_MAX_NESTING 64 /* parentheses and unary signs: bounds the recursion */

typedef struct Parser {
    const char *text;
    const char *p;
    ExprResolveFn resolve;
    void *ctx;
    gboolean check_only; /* names are checked, division by zero is not */
    guint nesting;
} Parser;

static int column(const Parser *ps, const char *at)
{
    return (int)(at - ps->text) + 1;
}

static gboolean fail(const Parser *ps, const char *at, SksimExprError code, GError **error,
                     const char *what)
{
    g_set_error(error, SKSIM_EXPR_ERROR, code, "column %d: %s", column(ps, at), what);
    return FALSE;
}

static void skip_space(Parser *ps)
{
    while (g_ascii_isspace(*ps->p))
        ps->p++;
}

static gboolean parse_expr(Parser *ps, double *out, GError **error);

static const char *scan_digits(const char *p)
{
    while (g_ascii_isdigit(*p))
        p++;
    return p;
}

static gboolean parse_number(Parser *ps, double *out, GError **error)
{
    const char *start = ps->p;
    const char *p = scan_digits(start);
    if (*p == '.')
        p = scan_digits(p + 1);
    if (p == start + 1 && *start == '.')
        return fail(ps, start, SKSIM_EXPR_ERROR_SYNTAX, error, "malformed number");
    if (*p == 'e' || *p == 'E') {
        const char *exp = p + 1;
        if (*exp == '+' || *exp == '-')
            exp++;
        if (!g_ascii_isdigit(*exp))
            return fail(ps, start, SKSIM_EXPR_ERROR_SYNTAX, error, "malformed number");
        p = scan_digits(exp);
    }
    if (g_ascii_isalpha(*p) || *p == '_')
        return fail(ps, p, SKSIM_EXPR_ERROR_SYNTAX, error, "unexpected letter after a number");
    g_autofree char *lexeme = g_strndup(start, (gsize)(p - start));
    *out = g_ascii_strtod(lexeme, NULL);
    ps->p = p;
    return TRUE;
}

static gboolean is_name_char(char c)
{
    return g_ascii_isalnum(c) || c == '_';
}

static gboolean parse_ident(Parser *ps, double *out, GError **error)
{
    const char *start = ps->p;
    const char *p = start;
    while (is_name_char(*p))
        p++;
    while (*p == '.' && is_name_char(p[1])) {
        p++;
        while (is_name_char(*p))
            p++;
    }
    if (*p == '.')
        return fail(ps, p, SKSIM_EXPR_ERROR_SYNTAX, error, "a name cannot end with '.'");
    g_autofree char *ident = g_strndup(start, (gsize)(p - start));
    ps->p = p;
    GError *local = NULL;
    if (ps->resolve(ident, ps->ctx, out, &local))
        return TRUE;
    g_set_error(error, local->domain, local->code, "column %d: %s", column(ps, start),
                local->message);
    g_error_free(local);
    return FALSE;
}

static gboolean parse_primary(Parser *ps, double *out, GError **error)
{
    skip_space(ps);
    char c = *ps->p;
    if (g_ascii_isdigit(c) || c == '.')
        return parse_number(ps, out, error);
    if (g_ascii_isalpha(c) || c == '_')
        return parse_ident(ps, out, error);
    if (c != '(') {
        const char *what = c ? "expected a number, a name or '('" : "unexpected end of expression";
        return fail(ps, ps->p, SKSIM_EXPR_ERROR_SYNTAX, error, what);
    }
    const char *open = ps->p++;
    if (!parse_expr(ps, out, error))
        return FALSE;
    skip_space(ps);
    if (*ps->p != ')')
        return fail(ps, open, SKSIM_EXPR_ERROR_SYNTAX, error, "'(' is never closed");
    ps->p++;
    return TRUE;
}

static gboolean parse_unary(Parser *ps, double *out, GError **error)
{
    skip_space(ps);
    char c = *ps->p;
    if (++ps->nesting > EXPR_MAX_NESTING)
        return fail(ps, ps->p, SKSIM_EXPR_ERROR_SYNTAX, error, "nested too deeply");
    gboolean ok;
    if (c == '-' || c == '+') {
        ps->p++;
        ok = parse_unary(ps, out, error);
        if (ok && c == '-')
            *out = -*out;
    } else {
        ok = parse_primary(ps, out, error);
    }
    ps->nesting--;
    return ok;
}

static gboolean apply_term_op(Parser *ps, char op, const char *at, double *acc, double rhs,
                              GError **error)
{
    if (op == '*') {
        *acc *= rhs;
        return TRUE;
    }
    if (rhs == 0.0 && !ps->check_only)
        return fail(ps, at, SKSIM_EXPR_ERROR_DIV_ZERO, error, "division by zero");
    *acc = rhs == 0.0 ? 0.0 : *acc / rhs;
    return TRUE;
}

static gboolean parse_term(Parser *ps, double *out, GError **error)
{
    if (!parse_unary(ps, out, error))
        return FALSE;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '*' && op != '/')
            return TRUE;
        const char *at = ps->p++;
        double rhs;
        if (!parse_unary(ps, &rhs, error) || !apply_term_op(ps, op, at, out, rhs, error))
            return FALSE;
    }
}

static gboolean parse_expr(Parser *ps, double *out, GError **error)
{
    if (!parse_term(ps, out, error))
        return FALSE;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            return TRUE;
        ps->p++;
        double rhs;
        if (!parse_term(ps, &rhs, error))
            return FALSE;
        *out = op == '+' ? *out + rhs : *out - rhs;
    }
}

static gboolean eval_full(const char *text, ExprResolveFn resolve, void *ctx, gboolean check_only,
                          double *out, GError **error)
{
    Parser ps = { .text = text, .p = text, .resolve = resolve, .ctx = ctx, .check_only = check_only };
    double v;
    if (!parse_expr(&ps, &v, error))
        return FALSE;
    skip_space(&ps);
    if (*ps.p != '\0') {
        g_autofree char *msg = g_strdup_printf("unexpected '%c'", *ps.p);
        return fail(&ps, ps.p, SKSIM_EXPR_ERROR_SYNTAX, error, msg);
    }
    *out = v;
    return TRUE;
}

gboolean expr_eval(const char *text, ExprResolveFn resolve, void *ctx, double *out,
                   GError **error)
{
    return eval_full(text, resolve, ctx, FALSE, out, error);
}

/* ---- identifiers over run results ------------------------------------------------------------ */

static const char *result_variant(const RunResult *r)
{
    return r->variant ? r->variant : "base";
}

static const RunResult *find_result(const GPtrArray *results, const char *variant, GError **error)
{
    for (guint i = 0; i < results->len; i++) {
        const RunResult *r = g_ptr_array_index(results, i);
        if (strcmp(result_variant(r), variant) == 0)
            return r;
    }
    GString *known = g_string_new(NULL);
    for (guint i = 0; i < results->len; i++)
        g_string_append_printf(known, "%s%s", i ? ", " : "",
                               result_variant(g_ptr_array_index(results, i)));
    g_set_error(error, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN,
                "unknown variant '%s' (variants: %s)", variant, known->str);
    g_string_free(known, TRUE);
    return NULL;
}

static gboolean resolve_metric_or_counter(const RunResult *r, const char *name, double *out,
                                          GError **error)
{
    if (run_result_metric(r, name, out) || run_result_counter(r, NULL, name, out))
        return TRUE;
    g_set_error(error, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN,
                "unknown metric or counter '%s' (metrics: goodput, transactions_per_s, bytes, "
                "retrans; counters by nstat name, e.g. TcpRetransSegs, or cpu_<cost key>, e.g. "
                "cpu_tcp_rcv_ack)", name);
    return FALSE;
}

static gboolean resolve_host_counter(const RunResult *r, const char *host, const char *counter,
                                     double *out, GError **error)
{
    if (!run_result_counter_known(counter)) {
        g_set_error(error, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN,
                    "unknown counter '%s' (counters by nstat name, e.g. TcpRetransSegs, or "
                    "cpu_<cost key>, e.g. cpu_tcp_rcv_ack)", counter);
        return FALSE;
    }
    if (run_result_counter(r, host, counter, out))
        return TRUE;
    g_set_error(error, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN,
                "unknown host '%s' in variant '%s'", host, result_variant(r));
    return FALSE;
}

static gboolean resolve_result_ident(const char *ident, void *ctx, double *out, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(ident, ".", -1);
    guint n = g_strv_length(parts);
    if (n != 2 && n != 3) {
        g_set_error(error, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN,
                    "'%s' is not VARIANT.METRIC, VARIANT.COUNTER or VARIANT.HOST.COUNTER", ident);
        return FALSE;
    }
    const RunResult *r = find_result(ctx, parts[0], error);
    if (!r)
        return FALSE;
    if (n == 2)
        return resolve_metric_or_counter(r, parts[1], out, error);
    return resolve_host_counter(r, parts[1], parts[2], out, error);
}

gboolean expr_eval_results(const char *text, const GPtrArray *results, double *out,
                           GError **error)
{
    return eval_full(text, resolve_result_ident, (void *)results, FALSE, out, error);
}

/* Checking resolves against empty results with the right variants and hosts: one code path
 * decides what a name means, for checking and for evaluating. */
gboolean expr_check(const char *text, const char *const *variants, const char *const *hosts,
                    GError **error)
{
    g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func((GDestroyNotify)run_result_free);
    for (guint v = 0; variants && variants[v]; v++) {
        RunResult *r = run_result_new();
        r->variant = g_strdup(variants[v]);
        for (guint h = 0; hosts && hosts[h]; h++)
            g_ptr_array_add(r->hosts, host_result_new(hosts[h]));
        g_ptr_array_add(results, r);
    }
    double unused;
    return eval_full(text, resolve_result_ident, results, TRUE, &unused, error);
}
