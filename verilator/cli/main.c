/*
 * main.c - the `pmusim` program: one command per front end in verilator/cli/
 * (include/pmu_cli.h).  `pmusim <command> --help` lists a command's options.
 */
#include <stdio.h>
#include <string.h>

#include "pmu_cli.h"
#include "pmu_num.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *what;
} command;

static const command commands[] = {
    {"run", pmusim_cmd_run, "run a stream on the PMU (reference and RTL in lock-step by default)"},
    {"gen", pmusim_cmd_gen, "write a generated stream"},
    {"conv", pmusim_cmd_conv, "convert a stream between its text and binary forms"},
    {"conform", pmusim_cmd_conform, "randomised reference-vs-RTL conformance runs over many seeds"},
    {"encode", pmusim_cmd_encode, "print the register programming of events, ranges and opcode patterns"},
    {"count", pmusim_cmd_count, "run a stream and print 64-bit counts per event (per process)"},
    {"profile", pmusim_cmd_profile, "sample on overflow and print a flat profile by function"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void main_help(FILE *f)
{
    fprintf(f, "usage: pmusim <command> [options]\n");
    for (unsigned i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
    fprintf(f, "pmusim <command> --help shows the options of a command; pmusim --version the version.\n");
}

static void command_list(char *buf, size_t size)
{
    const char *names[NCOMMANDS + 1];
    for (unsigned i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    names[NCOMMANDS] = NULL;
    pmu_cli_or_list(names, buf, size);
}

int main(int argc, char **argv)
{
    char list[160];
    command_list(list, sizeof list);
    if (argc > 0)
        pmu_cli_program = argv[0];
    if (argc < 2) {
        fprintf(stderr, "pmusim: expected a command: %s (see pmusim --help)\n", list);
        return PMU_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    for (unsigned i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        main_help(stdout);
        return PMU_EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("pmusim %s\n", PMUSIM_VERSION);
        return PMU_EXIT_OK;
    }
    char shown[96];
    pmu_escape(cmd, strlen(cmd), shown, sizeof shown);
    fprintf(stderr, "pmusim: unknown command '%s': expected %s\n", shown, list);
    return PMU_EXIT_USAGE;
}
