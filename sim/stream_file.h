/* stream_file.h - an output file written as a stream during a run and published whole at the end.
 *
 * Traces and event logs are too large to build in memory, but they must obey the rule that no
 * output is ever half-written: they stream into "<path>.tmp" through a large stdio buffer, and
 * only a successful commit renames that over <path>. The first write error is remembered and
 * reported once, at commit; abort (interrupted or failed runs that give up) removes the temp file.
 */
#ifndef SKSIM_STREAM_FILE_H
#define SKSIM_STREAM_FILE_H

#include <glib.h>
#include <stdio.h>

typedef struct StreamFile StreamFile;

/* Create "<path>.tmp" with a buffer of buffer_bytes. */
StreamFile *stream_file_open(const char *path, size_t buffer_bytes, GError **error);
void stream_file_write(StreamFile *sf, const void *data, size_t n);
/* Remember err as the file's error unless one is already recorded (0 is ignored). */
void stream_file_fail(StreamFile *sf, int err);
/* For stdio calls made directly on the FILE: a negative result records errno. */
void stream_file_check(StreamFile *sf, int stdio_result);
FILE *stream_file_fp(StreamFile *sf);
/* Close and rename over the final path; on any error remove the temp file. Frees sf. */
gboolean stream_file_commit(StreamFile *sf, GError **error);
/* Close and remove the temp file. Frees sf; NULL is allowed. */
void stream_file_abort(StreamFile *sf);

#endif
