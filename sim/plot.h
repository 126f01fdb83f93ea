/* plot.h - figures of sksim results, drawn by gnuplot from the scripts in plots/.
 *
 * The C side prepares everything: it reads timeseries.csv, metrics.json and compare.json,
 * computes what is plotted (sums over hosts, throughput from delivered bytes) and writes it as
 * small .dat files in DIR/plots/; the gnuplot scripts only select columns. Each figure is run as
 *     gnuplot -e "VARS" plots/common.gp plots/<figure>.gp
 * once for PNG (pngcairo 1000x600) and once for SVG, into a temporary file renamed over the
 * final name. gnuplot is looked up on PATH at run time; without it, plotting is skipped with one
 * warning (PLOT_ERROR_NO_GNUPLOT) and nothing else changes.
 *
 * Figures of a compare (or run) directory DIR, in DIR/plots/:
 *   retrans.{png,svg}          cumulative TcpRetransSegs, TcpExtTCPLossProbes, TcpExtTCPTimeouts
 *   throughput.{png,svg}       Gbit/s per variant, summed over flows
 *   throughput_flows.{png,svg} Gbit/s per flow and variant
 *   counters.{png,svg}         the report counters, one bar per variant (compare.json only)
 */
#ifndef SKSIM_PLOT_H
#define SKSIM_PLOT_H

#include <glib.h>

#include "sim/json_read.h"

#define PLOT_ERROR (plot_error_quark())
GQuark plot_error_quark(void);

typedef enum {
    PLOT_ERROR_NO_GNUPLOT, /* gnuplot is not on PATH */
    PLOT_ERROR_NO_SCRIPTS, /* plots/common.gp not found */
    PLOT_ERROR_GNUPLOT,    /* gnuplot failed or wrote nothing */
    PLOT_ERROR_INPUT,      /* a directory without results, or a bad input file */
} PlotError;

/* The palette has this many colours (plots/common.gp). */
#define PLOT_N_COLORS 8

/* ---- running gnuplot (plot.c) ---------------------------------------------------------------- */

typedef struct Plotter Plotter;

/* gnuplot: the program to run, NULL = "gnuplot" on PATH; scripts: the directory holding
 * common.gp and the figure scripts, NULL = plot_scripts_dir(). */
Plotter *plotter_new(const char *gnuplot, const char *scripts, GError **error);
void plotter_free(Plotter *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Plotter, plotter_free)

/* The plots/ directory: $SKSIM_PLOTS_DIR, else next to the binary (<bin>/../plots,
 * <bin>/../../plots, <bin>/../share/sksim/plots), else ./plots; the first holding common.gp. */
char *plot_scripts_dir(GError **error);

/* Draw plots/<figure>.gp with the -e variables vars (see plot_var_*) into out_base.png and
 * out_base.svg. On failure the error carries gnuplot's stderr. */
gboolean plotter_draw(const Plotter *p, const char *figure, const GString *vars,
                      const char *out_base, GError **error);

/* Append "name=value; " to vars. Strings are quoted for gnuplot ('it''s'), newlines become
 * spaces; doubles are printed locale-independently (NaN as NaN). The _i forms name "name<i>". */
void plot_var_string(GString *vars, const char *name, const char *value);
void plot_var_int(GString *vars, const char *name, long value);
void plot_var_double(GString *vars, const char *name, double value);
void plot_var_string_i(GString *vars, const char *name, guint i, const char *value);
void plot_var_int_i(GString *vars, const char *name, guint i, long value);

/* Palette index (1..PLOT_N_COLORS) of each of n variants: "before" 1, "after" 2, "base" 3, any
 * other name the next of 4, 5, ... in order (wrapping round the palette), so a variant keeps
 * its colour in every figure. */
void plot_variant_colors(const char *const *variants, guint n, int *colors);

/* ---- data (plot_data.c) ---------------------------------------------------------------------- */

/* A timeseries.csv: column names (time_s first) and rows of doubles (empty cells are NaN). */
typedef struct PlotCsv {
    GPtrArray *names; /* char* */
    GArray *values;   /* double, row-major: row r, column c at r * names->len + c */
    guint nrows;
} PlotCsv;

PlotCsv *plot_csv_read(const char *path, GError **error);
PlotCsv *plot_csv_parse(const char *text, const char *display_name, GError **error);
void plot_csv_free(PlotCsv *csv);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PlotCsv, plot_csv_free)
int plot_csv_column(const PlotCsv *csv, const char *name);
double plot_csv_value(const PlotCsv *csv, guint row, guint col);

/* The counters of the retransmissions figure, in column order of retrans dat files. */
extern const char *const plot_retrans_counters[3];

/* "time_s TcpRetransSegs TcpExtTCPLossProbes TcpExtTCPTimeouts" rows: each counter summed over
 * the <host>.<Counter> columns (only host's when host is not NULL). NULL (no error) when the
 * CSV has none of these columns. */
char *plot_retrans_dat(const PlotCsv *csv, const char *host);

/* Throughput in Gbit/s from the flow.<name>.delivered_bytes columns: one row per sample after
 * the first, "time_s total flow1 flow2 ...", each value (bytes now - bytes at the previous
 * sample) * 8 / interval / 1e9, NaN where the byte count went down (a counter reset) or the
 * interval is zero; total is the sum over flows. The flow names go to *flows (char*, column
 * order). NULL when there are no flow columns or fewer than two rows. */
char *plot_throughput_dat(const PlotCsv *csv, GPtrArray *flows);

/* Request/response transactions per second from the flow.<name>.transactions columns (the RR
 * flows'), in the same form: "time_s total flow1 ...", NaN across a counter reset. NULL when
 * there are none or fewer than two rows. */
char *plot_transactions_dat(const PlotCsv *csv, GPtrArray *flows);

/* CPU use in % from the <host>.cpu<N>.busy columns (shares of each interval; host NULL: every
 * host): the CPUs whose mean share over the rows after the first is at least min_share, the
 * busiest first, at most max_cpus of them; one row per sample after the first, "time_s cpu1
 * cpu2 ...". Their names ("<host>.cpu<N>") go to *cpus. NULL when no CPU qualifies. */
char *plot_cpu_dat(const PlotCsv *csv, const char *host, double min_share, guint max_cpus,
                   GPtrArray *cpus);

/* The counter rows of a compare.json (every row but goodput_bps and transactions_per_s): one
 * line per counter, "name value_variant1 value_variant2 ...". Counter names go to *names.
 * NULL when there are none. */
char *plot_counters_dat(const JsonValue *compare, GPtrArray *names);

/* The unit of a counters panel, from its row name: a CPU profile row (`cpu_<cost key>`,
 * `HOST.cpu_<cost key>`) is microseconds of CPU time, the slowest flow's rows are bit/s and
 * transactions/s, every other row an event count (PLOT_UNIT_COUNT). */
#define PLOT_UNIT_COUNT "count (measured interval)"
const char *plot_counter_unit(const char *name);

/* A number as a .dat file cell: "%.10g", locale-independent, NaN for non-finite values. */
void plot_append_number(GString *out, double v);

/* ---- a results directory (plot_dir.c) -------------------------------------------------------- */

/* Draw the figures of DIR: a compare output (DIR/compare.json and DIR/<variant>/), a single run
 * (DIR/metrics.json), or a `run` output (DIR/<variant>/metrics.json, variants in name order).
 * host: the report host whose counters the retransmission figure shows (NULL: sum over hosts).
 * written (char*) receives the paths of the figures written, notes (char*) one line per figure
 * skipped for lack of data. Returns FALSE when a figure failed (the others are still drawn). */
gboolean plot_directory(const Plotter *p, const char *dir, const char *host, GPtrArray *written,
                        GPtrArray *notes, GError **error);

/* For `compare` and `sweep`: look for gnuplot and draw DIR's figures, reporting on stderr
 * ("sksim: gnuplot not found ..." once, or the failure). Never fails the caller. */
void plot_directory_report(const char *dir, const char *host);

#endif
