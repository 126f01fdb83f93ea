/* cli_jobs.c - running the variants of `run` and `compare`: one after another, or --jobs N at a
 * time in a GThreadPool.
 *
 * Why threads are safe here: each variant is its own Sim (run_scenario keeps no global state),
 * its ScenarioConf is read-only, and it writes only under its own dir/<variant>/. What a run
 * prints (errors, the summary and fingerprint lines) waits until every run is back, and comes
 * in variant order, so the output on stdout does not depend on which thread finished first; the
 * files do not depend on it either (a run's outputs are a function of its conf and seed). The
 * progress line is off in parallel (several runs would fight over one line of the terminal).
 */
#include <stdio.h>
#include <unistd.h>

#include "sim/cli.h"

static void execute_one(gpointer data, gpointer user_data)
{
    cli_variant_execute(data);
    g_async_queue_push(user_data, data);
}

static guint parallel_jobs(const CliRunArgs *a, guint n)
{
    guint jobs = a->jobs > 0 ? (guint)a->jobs : 1u;
    return MIN(jobs, MAX(n, 1u));
}

static int run_sequential(const GPtrArray *confs, const CliRunArgs *a, const char *dir,
                          GPtrArray *results)
{
    for (guint i = 0; i < confs->len; i++) {
        RunResult *r = NULL;
        int status = cli_run_one(g_ptr_array_index(confs, i), a, dir, results ? &r : NULL);
        if (r)
            g_ptr_array_add(results, r);
        if (status != CLI_EXIT_OK)
            return status;
    }
    return CLI_EXIT_OK;
}

/* Every run goes to the pool; the main thread waits for all of them before printing. */
static gboolean run_pool(CliVariantRun *runs, guint n, guint threads)
{
    g_autoptr(GError) err = NULL;
    GAsyncQueue *done = g_async_queue_new();
    GThreadPool *pool = g_thread_pool_new(execute_one, done, (gint)threads, FALSE, &err);
    if (!pool) {
        fprintf(stderr, "sksim: cannot start %u threads: %s\n", threads, err->message);
        g_async_queue_unref(done);
        return FALSE;
    }
    for (guint i = 0; i < n; i++)
        g_thread_pool_push(pool, &runs[i], NULL);
    for (guint i = 0; i < n; i++)
        g_async_queue_pop(done);
    g_thread_pool_free(pool, FALSE, TRUE);
    g_async_queue_unref(done);
    return TRUE;
}

static int run_parallel(const GPtrArray *confs, const CliRunArgs *a, const char *dir,
                        GPtrArray *results, guint threads)
{
    guint n = confs->len;
    g_autofree CliVariantRun *runs = g_new0(CliVariantRun, n);
    int status = CLI_EXIT_OK;
    guint prepared = 0; /* runs[0..prepared) hold something to clear, a failed one included */
    while (prepared < n && status == CLI_EXIT_OK) {
        status = cli_variant_prepare(&runs[prepared], g_ptr_array_index(confs, prepared), a, dir,
                                     FALSE);
        prepared++;
    }
    if (status == CLI_EXIT_OK && !a->quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "running %u variants, %u at a time\n", n, threads);
    gboolean ran = status == CLI_EXIT_OK && run_pool(runs, n, threads);
    if (status == CLI_EXIT_OK && !ran)
        status = CLI_EXIT_USAGE;
    for (guint i = 0; ran && i < n; i++) {
        RunResult *r = NULL;
        int s = cli_variant_finish(&runs[i], a, results ? &r : NULL);
        if (r)
            g_ptr_array_add(results, r);
        if (s != CLI_EXIT_OK && status == CLI_EXIT_OK)
            status = s;
    }
    for (guint i = 0; i < prepared; i++)
        cli_variant_run_clear(&runs[i]);
    return status;
}

int cli_run_variants(const GPtrArray *confs, const CliRunArgs *a, const char *dir,
                     GPtrArray *results)
{
    guint threads = parallel_jobs(a, confs->len);
    if (threads <= 1)
        return run_sequential(confs, a, dir, results);
    return run_parallel(confs, a, dir, results, threads);
}

gboolean cli_check_memory_jobs(const Scenario *s, const GPtrArray *confs, const CliRunArgs *a,
                               const char *cmd)
{
    return cli_check_memory_parallel(s, confs, parallel_jobs(a, confs->len), a->max_memory, cmd);
}
