/* sweep_plot.c - the figures of a sweep: for each metric (goodput, transactions/s, each report
 * counter), its mean over seeds with the 95 % confidence interval against the first swept
 * parameter, one line per variant and combination of the other parameters (plots/sweep.gp).
 *
 * The numbers are computed by sweep_metric_dat() and written next to the figure as
 * DIR/plots/<metric>.dat, so the figure can be checked (and redrawn by hand) without sksim.
 */
#include "sim/sweep.h"

#include <string.h>

#include "sim/output.h"
#include "sim/plot.h"

static gboolean plot_metric(const Plotter *p, const char *pdir, const char *title,
                            const GPtrArray *params, const GPtrArray *rows, const SweepMetric *m,
                            const char *host, const GPtrArray *variants, const int *colors,
                            GPtrArray *written, GError **error)
{
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) series_variant = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autofree char *dat =
        sweep_metric_dat(params, rows, m, host, variants, labels, series_variant);
    g_autofree char *dat_name = g_strconcat(m->name, ".dat", NULL);
    g_autofree char *dat_path = g_build_filename(pdir, dat_name, NULL);
    if (!output_write_atomic(dat_path, dat, strlen(dat), error))
        return FALSE;
    const SweepParam *first = g_ptr_array_index(params, 0);
    gboolean logx = FALSE;
    sweep_values_numeric(first->values, &logx);
    g_autoptr(GString) vars = g_string_new(NULL);
    g_autofree char *fig_title = g_strdup_printf("%s%s%s, mean and 95%% CI over seeds", title,
                                                 *title ? ": " : "", m->name);
    plot_var_string(vars, "fig_title", fig_title);
    plot_var_string(vars, "file", dat_path);
    plot_var_string(vars, "xlab", first->key);
    plot_var_string(vars, "ylab", m->ylabel);
    plot_var_int(vars, "logx", logx);
    plot_var_int(vars, "nseries", labels->len);
    for (guint i = 0; i < labels->len; i++) {
        guint v = g_array_index(series_variant, guint, i);
        plot_var_string_i(vars, "label", i + 1, g_ptr_array_index(labels, i));
        plot_var_int_i(vars, "color", i + 1, colors[v]);
        /* the same variant at other values of the other parameters: another dash type */
        plot_var_int_i(vars, "dash", i + 1, (long)(i / variants->len % 5 + 1));
    }
    g_autofree char *base = g_build_filename(pdir, m->name, NULL);
    if (!plotter_draw(p, "sweep", vars, base, error))
        return FALSE;
    g_ptr_array_add(written, g_strconcat(base, ".png", NULL));
    g_ptr_array_add(written, g_strconcat(base, ".svg", NULL));
    return TRUE;
}

gboolean sweep_plot(const Plotter *p, const char *dir, const char *title, const GPtrArray *params,
                    const GPtrArray *rows, const GPtrArray *metrics, const char *host,
                    const GPtrArray *variants, GPtrArray *written, GError **error)
{
    g_autofree char *pdir = g_build_filename(dir, "plots", NULL);
    g_autofree int *colors = g_new0(int, variants->len + 1);
    plot_variant_colors((const char *const *)variants->pdata, variants->len, colors);
    GError *first = NULL;
    guint failed = 0;
    for (guint i = 0; i < metrics->len; i++) {
        GError *err = NULL;
        if (plot_metric(p, pdir, title, params, rows, g_ptr_array_index(metrics, i), host,
                        variants, colors, written, &err))
            continue;
        failed++;
        if (!first)
            first = err;
        else
            g_error_free(err);
    }
    if (!first)
        return TRUE;
    g_propagate_prefixed_error(error, first, "%u sweep figure%s failed: ", failed,
                               failed == 1 ? "" : "s");
    return FALSE;
}
