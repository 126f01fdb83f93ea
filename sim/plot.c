/* plot.c - running gnuplot: finding it and the plots/ scripts, passing variables with -e,
 * rendering each figure as PNG and SVG through a temporary file, and the variant palette.
 *
 * gnuplot is found on PATH when sksim runs, not when it is built, so a machine without it still
 * builds and runs sksim and only loses the figures. gnuplot is run with an argument vector
 * (g_spawn_sync, no shell), so the only quoting needed is gnuplot's own: a string in single
 * quotes where '' stands for a quote. Every value reaches gnuplot as a variable, never pasted
 * into a command, so a title or a path cannot change what the script does.
 */
#include "sim/plot.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

G_DEFINE_QUARK(sksim-plot-error-quark, plot_error)

struct Plotter {
    char *gnuplot; /* absolute path */
    char *scripts; /* directory with common.gp */
};

void plotter_free(Plotter *p)
{
    if (!p)
        return;
    g_free(p->gnuplot);
    g_free(p->scripts);
    g_free(p);
}

static gboolean has_common(const char *dir)
{
    g_autofree char *common = g_build_filename(dir, "common.gp", NULL);
    return g_file_test(common, G_FILE_TEST_IS_REGULAR);
}

char *plot_scripts_dir(GError **error)
{
    const char *env = g_getenv("SKSIM_PLOTS_DIR");
    if (env && *env)
        return g_strdup(env); /* explicit: used as given, errors show up when drawing */
    g_autoptr(GPtrArray) tried = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        g_autofree char *bin = g_path_get_dirname(exe);
        g_ptr_array_add(tried, g_build_filename(bin, "..", "plots", NULL));
        g_ptr_array_add(tried, g_build_filename(bin, "..", "..", "plots", NULL));
        g_ptr_array_add(tried, g_build_filename(bin, "..", "share", "sksim", "plots", NULL));
    }
    g_ptr_array_add(tried, g_strdup("plots"));
    for (guint i = 0; i < tried->len; i++)
        if (has_common(g_ptr_array_index(tried, i)))
            return g_canonicalize_filename(g_ptr_array_index(tried, i), NULL);
    g_set_error(error, PLOT_ERROR, PLOT_ERROR_NO_SCRIPTS,
                "plots/common.gp not found next to the sksim binary or in the current directory "
                "(set SKSIM_PLOTS_DIR)");
    return NULL;
}

Plotter *plotter_new(const char *gnuplot, const char *scripts, GError **error)
{
    g_autofree char *prog = g_find_program_in_path(gnuplot ? gnuplot : "gnuplot");
    if (!prog) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT,
                    "gnuplot not found on PATH: figures skipped (install gnuplot-nox)");
        return NULL;
    }
    g_autofree char *dir = scripts ? g_strdup(scripts) : plot_scripts_dir(error);
    if (!dir)
        return NULL;
    Plotter *p = g_new0(Plotter, 1);
    p->gnuplot = g_steal_pointer(&prog);
    p->scripts = g_steal_pointer(&dir);
    return p;
}

/* ---- variables ------------------------------------------------------------------------------- */

void plot_var_string(GString *vars, const char *name, const char *value)
{
    g_string_append_printf(vars, "%s='", name);
    for (const char *c = value ? value : ""; *c; c++) {
        if (*c == '\'')
            g_string_append(vars, "''");
        else if (*c == '\n' || *c == '\r')
            g_string_append_c(vars, ' ');
        else
            g_string_append_c(vars, *c);
    }
    g_string_append(vars, "'; ");
}

void plot_var_int(GString *vars, const char *name, long value)
{
    g_string_append_printf(vars, "%s=%ld; ", name, value);
}

void plot_var_double(GString *vars, const char *name, double value)
{
    g_string_append_printf(vars, "%s=", name);
    plot_append_number(vars, value);
    g_string_append(vars, "; ");
}

void plot_var_string_i(GString *vars, const char *name, guint i, const char *value)
{
    g_autofree char *n = g_strdup_printf("%s%u", name, i);
    plot_var_string(vars, n, value);
}

void plot_var_int_i(GString *vars, const char *name, guint i, long value)
{
    g_autofree char *n = g_strdup_printf("%s%u", name, i);
    plot_var_int(vars, n, value);
}

void plot_append_number(GString *out, double v)
{
    if (!isfinite(v)) {
        g_string_append(out, "NaN");
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.10g", v));
}

/* ---- colours --------------------------------------------------------------------------------- */

void plot_variant_colors(const char *const *variants, guint n, int *colors)
{
    static const char *const fixed[] = { "before", "after", "base" };
    int next = (int)G_N_ELEMENTS(fixed); /* the last colour handed out */
    for (guint i = 0; i < n; i++) {
        colors[i] = 0;
        for (guint f = 0; f < G_N_ELEMENTS(fixed); f++)
            if (strcmp(variants[i], fixed[f]) == 0)
                colors[i] = (int)f + 1;
        if (colors[i] == 0)
            colors[i] = next++ % PLOT_N_COLORS + 1;
    }
}

/* ---- drawing --------------------------------------------------------------------------------- */

/* Run gnuplot for one format into a temporary file, then rename it to out_base.ext. */
static gboolean draw_one(const Plotter *p, const char *figure, const GString *vars,
                         const char *out_base, const char *ext, GError **error)
{
    g_autofree char *final = g_strconcat(out_base, ".", ext, NULL);
    g_autofree char *tmpl = g_strconcat(final, ".XXXXXX", NULL);
    int fd = g_mkstemp(tmpl);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", tmpl, g_strerror(e));
        return FALSE;
    }
    close(fd);
    g_autoptr(GString) all = g_string_new(vars->str);
    plot_var_string(all, "out", tmpl);
    plot_var_string(all, "fmt", ext);
    g_autofree char *common = g_build_filename(p->scripts, "common.gp", NULL);
    g_autofree char *gp_name = g_strconcat(figure, ".gp", NULL);
    g_autofree char *script = g_build_filename(p->scripts, gp_name, NULL);
    char *argv[] = { p->gnuplot, "-e", all->str, common, script, NULL };
    g_autofree char *err_text = NULL;
    int status = 0;
    GSpawnFlags flags = G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDIN_FROM_DEV_NULL;
    gboolean ok =
        g_spawn_sync(NULL, argv, NULL, flags, NULL, NULL, NULL, &err_text, &status, error);
    if (ok && !g_spawn_check_wait_status(status, NULL)) {
        g_strstrip(err_text);
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "gnuplot %s.gp (%s) failed: %s", figure,
                    ext, err_text && *err_text ? err_text : "no message");
        ok = FALSE;
    }
    GStatBuf st;
    if (ok && (g_stat(tmpl, &st) != 0 || st.st_size == 0)) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_GNUPLOT, "gnuplot %s.gp (%s) wrote nothing",
                    figure, ext);
        ok = FALSE;
    }
    if (ok && g_rename(tmpl, final) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", final,
                    g_strerror(e));
        ok = FALSE;
    }
    if (!ok)
        g_unlink(tmpl);
    return ok;
}

gboolean plotter_draw(const Plotter *p, const char *figure, const GString *vars,
                      const char *out_base, GError **error)
{
    return draw_one(p, figure, vars, out_base, "png", error) &&
           draw_one(p, figure, vars, out_base, "svg", error);
}
