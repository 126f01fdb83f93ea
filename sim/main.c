/* main.c - sksim's entry point: dispatch argv[1] to a command (sim/cli_*.c).
 *
 * Only dispatch lives here, so that every command's code is in the library and tests link it;
 * `sksim --help` lists the commands, `sksim help CMD` is `sksim CMD --help`.
 */
#include <stdio.h>
#include <string.h>

#include "sim/cli.h"

typedef struct Command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv);
} Command;

static const Command commands[] = {
    { "run", "run a scenario's variants and write their outputs", cli_run },
    { "compare", "run every variant, tabulate them and evaluate the expect checks", cli_compare },
    { "validate", "check scenario files without running them", cli_validate },
    { "list", "list the scenarios in a directory (default scenarios/)", cli_list },
    { "keys", "print the scenario key reference (Markdown)", cli_keys },
    { "plot", "draw the figures of compare or run outputs with gnuplot", cli_plot },
    { "sweep", "run a scenario over a grid of key values and seeds", cli_sweep },
    { "report", "write a Markdown report of compared scenarios", cli_report_md },
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: sksim COMMAND [OPTION...] [ARG...]\n\n"
                 "Simulate the host side of the Linux TCP stack and compare kernel behaviours.\n\n"
                 "Commands:\n");
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nOptions:\n"
                 "  -h, --help     show this help; `sksim help CMD` or `sksim CMD --help` for a command\n"
                 "  -V, --version  print the version\n\n"
                 "Examples:\n"
                 "  sksim run scenarios/example.yaml\n"
                 "  sksim compare scenarios/example.yaml --seed 3\n"
                 "  sksim validate scenarios/*.yaml\n");
}

static const Command *find_command(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "sksim: unknown %s '%s'\nRun 'sksim --help' for usage.\n",
            name[0] == '-' ? "option" : "command", name);
    return CLI_EXIT_USAGE;
}

/* `sksim help [CMD]` */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    const Command *cmd = find_command(argv[2]);
    if (!cmd)
        return unknown_command(argv[2]);
    char *args[] = { argv[2], "--help", NULL };
    return cmd->main(2, args);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *arg = argv[1];
    if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0) {
        printf("sksim %s\n", SKSIM_VERSION);
        return CLI_EXIT_OK;
    }
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0)
        return help(argc, argv);
    const Command *cmd = find_command(arg);
    if (!cmd)
        return unknown_command(arg);
    return cmd->main(argc - 1, argv + 1);
}
