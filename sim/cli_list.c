/* cli_list.c - `sksim list [DIR]`: the scenarios in a directory, by name and title, so that a
 * user finds the file to run without opening each one. Files are listed in sorted order (never
 * in directory order, which differs between file systems); invalid files are listed too, with
 * their error, since a scenario that silently disappears from the list is worse.
 */
#include "sim/cli.h"

#include <stdio.h>
#include <string.h>

#define LIST_DESCRIPTION                                                                         \
    "DIR defaults to scenarios/. One line per *.yaml file: file, name and title.\n"              \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim list\n"                                                                             \
    "  sksim list tests/data\n"                                                                  \
    "\n"                                                                                         \
    "Exit status: 0 (even when some files are invalid), 2 when DIR cannot be read."

static int compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static GPtrArray *yaml_files(const char *dir, GError **error)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, error);
    if (!d)
        return NULL;
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d)) != NULL)
        if (g_str_has_suffix(name, ".yaml"))
            g_ptr_array_add(files, g_strdup(name));
    g_ptr_array_sort(files, compare_names);
    return files;
}

static void list_one(const char *dir, const char *file)
{
    g_autofree char *path = g_build_filename(dir, file, NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_file(path, &err);
    if (!s) {
        printf("%-28s (invalid: %s)\n", file, err->message);
        return;
    }
    const char *title = scenario_title(s);
    printf("%-28s %-24s %s\n", file, scenario_name(s), title ? title : "");
}

int cli_list(int argc, char **argv)
{
    g_auto(GStrv) args = NULL;
    if (!cli_parse_plain("list", "[DIR]", "List the scenarios in a directory.", LIST_DESCRIPTION,
                         argc, argv, 0, 1, &args))
        return CLI_EXIT_USAGE;
    const char *dir = args[1] ? args[1] : "scenarios";
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) files = yaml_files(dir, &err);
    if (!files) {
        fprintf(stderr, "%s\n", err->message);
        return CLI_EXIT_USAGE;
    }
    for (guint i = 0; i < files->len; i++)
        list_one(dir, g_ptr_array_index(files, i));
    return CLI_EXIT_OK;
}
