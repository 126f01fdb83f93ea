/* cli_plot.c - `sksim plot DIR...`: draw the figures of compare or run output directories with
 * gnuplot (sim/plot*.c), e.g. again after editing a script in plots/, or for a directory written
 * by `sksim run`.
 *
 * A missing gnuplot is one warning and exit 0, the same as in `compare`: a machine without it
 * loses the figures and nothing else. A directory without results or a failing figure is exit 2.
 */
#include "sim/cli.h"

#include <stdio.h>

#include "sim/plot.h"

#define PLOT_DESCRIPTION                                                                         \
    "DIR is a `compare` output (compare.json and one subdirectory per variant), a `run` output\n" \
    "(one subdirectory per variant) or a single variant's directory (metrics.json). Figures go\n"  \
    "to DIR/plots/, each as PNG and SVG, with the .dat files they are drawn from:\n"             \
    "retrans (cumulative TcpRetransSegs, TcpExtTCPLossProbes, TcpExtTCPTimeouts), throughput\n"  \
    "and throughput_flows (Gbit/s, from the flow.<name>.delivered_bytes series), transactions\n" \
    "(transactions/s of the rr flows, from flow.<name>.transactions), cpu (% busy of the CPUs\n" \
    "busy 25 % of the time or more, from the <host>.cpu<N>.busy series) and counters (the\n"    \
    "report counters of compare.json). The scripts are plots/*.gp; gnuplot is\n"               \
    "found on PATH (without it: a warning, nothing drawn, exit 0).\n"                            \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim plot out/example\n"                                                                 \
    "  sksim plot out/example --host server\n"                                                   \
    "\n"                                                                                         \
    "Exit status: 0 drawn (or gnuplot missing), 2 no results in DIR or a figure failed."

int cli_plot(int argc, char **argv)
{
    g_autofree char *host = NULL;
    gboolean quiet = FALSE;
    const GOptionEntry entries[] = {
        { "host", 0, 0, G_OPTION_ARG_STRING, &host,
          "Retransmissions of this host only (default: summed over hosts)", "NAME" },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only errors", NULL },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx = cli_context_new("plot", "DIR...", "Draw the figures of result "
                                                    "directories with gnuplot.", PLOT_DESCRIPTION,
                                                    entries);
    g_auto(GStrv) args = NULL;
    if (!cli_parse(ctx, "plot", argc, argv, &args))
        return CLI_EXIT_USAGE;
    if (g_strv_length(args) < 2) {
        cli_usage_error("plot", "expected at least one DIR");
        return CLI_EXIT_USAGE;
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(Plotter) p = plotter_new(NULL, NULL, &err);
    if (!p) {
        fprintf(stderr, "sksim plot: %s\n", err->message);
        return g_error_matches(err, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT) ? CLI_EXIT_OK
                                                                       : CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_OK;
    for (guint i = 1; args[i]; i++) {
        g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GError) derr = NULL;
        if (!plot_directory(p, args[i], host, written, notes, &derr)) {
            fprintf(stderr, "sksim plot: %s\n", derr->message);
            status = CLI_EXIT_USAGE;
        }
        for (guint k = 0; !quiet && k < written->len; k++)
            printf("wrote %s\n", (const char *)g_ptr_array_index(written, k));
        for (guint k = 0; !quiet && k < notes->len; k++)
            printf("skipped %s\n", (const char *)g_ptr_array_index(notes, k));
    }
    return status;
}
