/* stream_file.c - streamed outputs published by rename (see stream_file.h). */
#include "sim/stream_file.h"

#include <errno.h>
#include <glib/gstdio.h>

struct StreamFile {
    FILE *f;
    char *path, *tmp_path;
    char *buf;
    int err; /* first error (errno), 0 if none */
};

StreamFile *stream_file_open(const char *path, size_t buffer_bytes, GError **error)
{
    g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot create: %s", tmp,
                    g_strerror(e));
        return NULL;
    }
    StreamFile *sf = g_new0(StreamFile, 1);
    sf->f = f;
    sf->path = g_strdup(path);
    sf->tmp_path = g_steal_pointer(&tmp);
    sf->buf = g_malloc(buffer_bytes);
    setvbuf(f, sf->buf, _IOFBF, buffer_bytes);
    return sf;
}

void stream_file_fail(StreamFile *sf, int err)
{
    if (err && !sf->err)
        sf->err = err;
}

void stream_file_check(StreamFile *sf, int stdio_result)
{
    if (stdio_result < 0)
        stream_file_fail(sf, errno ? errno : EIO);
}

void stream_file_write(StreamFile *sf, const void *data, size_t n)
{
    if (fwrite_unlocked(data, 1, n, sf->f) != n)
        stream_file_fail(sf, errno ? errno : EIO);
}

FILE *stream_file_fp(StreamFile *sf)
{
    return sf->f;
}

static void stream_file_free(StreamFile *sf)
{
    g_free(sf->path);
    g_free(sf->tmp_path);
    g_free(sf->buf);
    g_free(sf);
}

gboolean stream_file_commit(StreamFile *sf, GError **error)
{
    if (fclose(sf->f) != 0)
        stream_file_fail(sf, errno ? errno : EIO);
    if (!sf->err && g_rename(sf->tmp_path, sf->path) != 0)
        stream_file_fail(sf, errno);
    int e = sf->err;
    if (e) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot write: %s",
                    sf->path, g_strerror(e));
        g_unlink(sf->tmp_path);
    }
    stream_file_free(sf);
    return e == 0;
}

void stream_file_abort(StreamFile *sf)
{
    if (!sf)
        return;
    fclose(sf->f);
    g_unlink(sf->tmp_path);
    stream_file_free(sf);
}
