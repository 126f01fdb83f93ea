/* sweep_run.c - running a sweep's runs in parallel: a GThreadPool of workers, each taking one
 * job (a resolved ScenarioConf and its output directory), building its own Sim through
 * run_scenario() and writing its outputs; the main thread waits on a GAsyncQueue of finished
 * jobs, prints failures and draws the progress bar.
 *
 * Nothing mutable is shared: a job's conf is its own (resolved in the main thread), run_scenario
 * keeps no global state, each run writes only its own directory, and the job's error field is
 * read by the main thread only after the job came back through the queue (which orders the two).
 * The stop flag is the process's signal flag, only read here.
 */
#include "sim/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/output.h"
#include "sim/run.h"
#include "sim/scenario.h"

typedef struct Worker {
    volatile sig_atomic_t *stop;
    GAsyncQueue *done;
} Worker;

SweepJob *sweep_job_new(const SweepRow *row, ScenarioConf *conf, const char *overrides)
{
    SweepJob *j = g_new0(SweepJob, 1);
    j->row = row;
    j->conf = conf;
    j->overrides = g_strdup(overrides);
    return j;
}

void sweep_job_free(gpointer p)
{
    SweepJob *j = p;
    scenario_conf_free(j->conf);
    g_free(j->overrides);
    g_free(j->error);
    g_free(j);
}

char *sweep_overrides_text(const char *const *sets)
{
    GString *out = g_string_new(NULL);
    for (guint i = 0; sets && sets[i]; i++)
        g_string_append_printf(out, "%s\n", sets[i]);
    return g_string_free(out, FALSE);
}

gboolean sweep_overrides_match(const char *vdir, const char *text)
{
    g_autofree char *path = g_build_filename(vdir, SWEEP_OVERRIDES_FILE, NULL);
    g_autofree char *have = NULL;
    return g_file_get_contents(path, &have, NULL, NULL) && strcmp(have, text) == 0;
}

static gboolean run_one(SweepJob *j, volatile sig_atomic_t *stop, GError **error)
{
    const char *dir = j->row->dir;
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "%s: cannot create directory: %s", dir, g_strerror(e));
        return FALSE;
    }
    g_autofree char *opath = g_build_filename(dir, SWEEP_OVERRIDES_FILE, NULL);
    if (!output_write_atomic(opath, j->overrides, strlen(j->overrides), error))
        return FALSE;
    RunOptions opt = { .stop = stop, .out_dir = dir };
    g_autoptr(RunResult) r = run_scenario(j->conf, &opt, error);
    return r && output_write_run(r, dir, error);
}

static void worker(gpointer data, gpointer user_data)
{
    SweepJob *j = data;
    Worker *w = user_data;
    g_autoptr(GError) err = NULL;
    if (!*w->stop && !run_one(j, w->stop, &err))
        j->error = g_strdup(err->message);
    g_async_queue_push(w->done, j);
}

/* "\r[#######.............] 7/20 runs" on stderr; erased with erase = TRUE. */
static void draw_progress(guint finished, guint total, gboolean erase)
{
    enum { WIDTH = 30 };
    if (erase) {
        fputs("\r\033[K", stderr);
        return;
    }
    guint fill = total ? finished * WIDTH / total : WIDTH;
    char bar[WIDTH + 1];
    for (guint i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r[%s] %u/%u runs", bar, finished, total);
    fflush(stderr);
}

guint sweep_run_jobs(GPtrArray *jobs, guint threads, volatile sig_atomic_t *stop,
                     gboolean progress)
{
    if (jobs->len == 0)
        return 0;
    Worker w = { .stop = stop, .done = g_async_queue_new() };
    if (threads == 0)
        threads = g_get_num_processors();
    g_autoptr(GError) err = NULL;
    GThreadPool *pool = g_thread_pool_new(worker, &w, (gint)MIN(threads, jobs->len), FALSE, &err);
    if (!pool) {
        fprintf(stderr, "sksim sweep: %s\n", err->message);
        g_async_queue_unref(w.done);
        return jobs->len;
    }
    for (guint i = 0; i < jobs->len; i++)
        g_thread_pool_push(pool, g_ptr_array_index(jobs, i), NULL);
    guint failed = 0;
    for (guint n = 0; n < jobs->len; n++) {
        if (progress)
            draw_progress(n, jobs->len, FALSE);
        SweepJob *j = g_async_queue_pop(w.done);
        if (j->error) {
            if (progress)
                draw_progress(0, 0, TRUE);
            fprintf(stderr, "sksim sweep: %s: %s\n", j->row->dir, j->error);
            failed++;
        }
    }
    if (progress)
        draw_progress(0, 0, TRUE);
    g_thread_pool_free(pool, FALSE, TRUE);
    g_async_queue_unref(w.done);
    return failed;
}
