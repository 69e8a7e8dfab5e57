#include <stdio.h>

#include "cli/cli.h"

const char usage_help[] =
    "usage: benchdb help [COMMAND]\n"
    "\n"
    "Print the list of commands, or one command's usage.\n";

int cmd_help(struct cli *cli, int argc, char **argv)
{
    (void)cli;
    if (argc < 2) {
        commands_print_overview(stdout);
        return EXIT_OK;
    }
    if (argc > 2)
        return bd_usage_error("help", "help: expected at most one command name, got '%s' too", argv[2]);
    const struct command *c = command_find(argv[1]);
    if (!c)
        return bd_usage_error(NULL, "help: no command '%s'", argv[1]);
    command_print_help(c, stdout);
    return EXIT_OK;
}
