/* expr.h - the arithmetic of expect checks: "after.goodput / before.goodput".
 *
 * Grammar (usual precedence, left-associative):
 *     expr    := term (('+' | '-') term)*
 *     term    := unary (('*' | '/') unary)*
 *     unary   := ('-' | '+') unary | primary
 *     primary := NUMBER | IDENT | '(' expr ')'
 *     NUMBER  := digits ['.' digits] [('e' | 'E') ['+' | '-'] digits]    (also ".5")
 *     IDENT   := name ('.' segment)*      name: [A-Za-z_][A-Za-z0-9_]*, segment: [A-Za-z0-9_]+
 * Identifiers are resolved by a callback. Over run results they are VARIANT.METRIC
 * (run_result_metric), VARIANT.COUNTER (summed over hosts) or VARIANT.HOST.COUNTER.
 * Errors (syntax, unknown names, division by zero) are SKSIM_EXPR_ERROR GErrors whose message
 * starts "column N: " (1-based, in the expression text).
 */
#ifndef SKSIM_EXPR_H
#define SKSIM_EXPR_H

#include <glib.h>

#define SKSIM_EXPR_ERROR (sksim_expr_error_quark())
GQuark sksim_expr_error_quark(void);

typedef enum {
    SKSIM_EXPR_ERROR_SYNTAX,
    SKSIM_EXPR_ERROR_UNKNOWN,  /* unknown variant, host, metric or counter */
    SKSIM_EXPR_ERROR_DIV_ZERO,
} SksimExprError;

/* Give the value of one identifier (the whole dotted name), or set error and return FALSE. */
typedef gboolean (*ExprResolveFn)(const char *ident, void *ctx, double *out, GError **error);

gboolean expr_eval(const char *text, ExprResolveFn resolve, void *ctx, double *out,
                   GError **error);

/* Evaluate over results: a GPtrArray of RunResult*, found by their variant name ("base" for
 * a run without variant). */
gboolean expr_eval_results(const char *text, const GPtrArray *results, double *out,
                           GError **error);

/* Check syntax and names before anything runs: every VARIANT must be in variants, every HOST in
 * hosts (both NULL-terminated), every metric or counter known. Division by zero is not an error
 * here (values are not known yet). */
gboolean expr_check(const char *text, const char *const *variants, const char *const *hosts,
                    GError **error);

#endif
