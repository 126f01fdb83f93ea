/* replay.c - runs a fuzz target's entry function (LLVMFuzzerTestOneInput) over files, without
 * libFuzzer: every argument is a file or a directory of files. ctest uses it, in the normal and
 * the sanitizer builds, to replay every input that ever crashed a fuzzer (tests/fuzz/crashes/)
 * and the seed corpus, so a fixed crash stays fixed.
 */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    g_autoptr(GError) err = NULL;
    if (!g_file_get_contents(path, &data, &len, &err)) {
        fprintf(stderr, "%s\n", err->message);
        return 0;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    return 1;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
            n += replay_file(argv[i]);
            continue;
        }
        g_autoptr(GDir) dir = g_dir_open(argv[i], 0, NULL);
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        for (const char *name; dir && (name = g_dir_read_name(dir));)
            if (name[0] != '.')
                g_ptr_array_add(names, g_build_filename(argv[i], name, NULL));
        g_ptr_array_sort(names, by_name);
        for (guint j = 0; j < names->len; j++)
            n += replay_file(g_ptr_array_index(names, j));
    }
    printf("replayed %d inputs\n", n);
    return 0;
}
