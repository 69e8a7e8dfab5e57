/* benchdb help: the overview, or one command's help. */
#include <stdio.h>

#include "cli/cli.h"

const struct cli_spec spec_help = {
    .name = "help",
    .synopsis = (const char *const[]){"help [COMMAND]", NULL},
    .about = "Print the list of commands and the exit codes, or one command's help.\n",
    .opts = (const struct cli_opt[]){{0}},
    .max_args = 1,
};

int cmd_help(struct cli *cli, int argc, char **argv)
{
    (void)cli;
    int first;
    if (cli_parse(&spec_help, argc, argv, NULL, &first))
        return EXIT_USAGE;
    if (first >= argc) {
        commands_print_overview(stdout);
        return EXIT_OK;
    }
    const struct command *c = command_find(argv[first]);
    if (!c)
        return command_unknown(argv[first]);
    command_print_help(c, stdout);
    return EXIT_OK;
}
