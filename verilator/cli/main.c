/*
 * main.c - the `pmusim` program: one command per front end in verilator/cli/
 * (include/cli/pmu_cli.h).  `pmusim <command> --help` lists a command's options.
 */
#include <stdio.h>
#include <string.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"
#include "common/pmu_num.h"
#include "stream/pmu_tmpfiles.h"

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
    {"conform-merge", pmusim_cmd_conform_merge, "merge the JSON summaries of conformance shards into one report"},
    {"encode", pmusim_cmd_encode, "print the register programming of events, ranges and opcode patterns"},
    {"count", pmusim_cmd_count, "run a stream and print 64-bit counts per event (per process)"},
    {"profile", pmusim_cmd_profile, "sample on overflow and print a flat profile by function"},
    {"record", pmusim_cmd_record, "run a real program under QEMU and write the family's stream of it"},
    {"cex2replay", pmusim_cmd_cex2replay, "turn a formal counterexample into a stream and writes that replay it"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The families' own commands (pmu_family_cmds.commands), after the generic ones. */
#define MAX_FAMILY_COMMANDS 16
static unsigned family_commands(const pmu_fam_command **out, const pmu_family **owner)
{
    unsigned n = 0;
    for (unsigned f = 0; f < pmu_nfamilies; f++) {
        const pmu_family_cmds *c = pmu_families[f]->cmds;
        for (unsigned i = 0; c && i < c->ncommands && n < MAX_FAMILY_COMMANDS; i++) {
            out[n] = &c->commands[i];
            owner[n++] = pmu_families[f];
        }
    }
    return n;
}

static void main_help(FILE *f)
{
    const pmu_fam_command *fc[MAX_FAMILY_COMMANDS];
    const pmu_family *owner[MAX_FAMILY_COMMANDS];
    unsigned nfc = family_commands(fc, owner);
    fprintf(f, "usage: pmusim <command> [options]\n");
    for (unsigned i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].what);
    for (unsigned i = 0; i < nfc; i++)
        fprintf(f, "  %-13s %s (%s)\n", fc[i]->name, fc[i]->what, owner[i]->title);
    fprintf(f, "pmusim <command> --help shows the options of a command; pmusim --version (-V) the version.\n");
}

static void command_list(char *buf, size_t size)
{
    const pmu_fam_command *fc[MAX_FAMILY_COMMANDS];
    const pmu_family *owner[MAX_FAMILY_COMMANDS];
    unsigned nfc = family_commands(fc, owner);
    const char *names[NCOMMANDS + MAX_FAMILY_COMMANDS + 1];
    unsigned n = 0;
    for (unsigned i = 0; i < NCOMMANDS; i++)
        names[n++] = commands[i].name;
    for (unsigned i = 0; i < nfc; i++)
        names[n++] = fc[i]->name;
    names[n] = NULL;
    pmu_cli_or_list(names, buf, size);
}

int main(int argc, char **argv)
{
    char list[256];
    command_list(list, sizeof list);
    if (argc > 0)
        pmu_cli_program = argv[0];
    pmu_tmpfiles_on_signals();
    if (argc < 2) {
        fprintf(stderr, "pmusim: expected a command: %s (see pmusim --help)\n", list);
        return PMU_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    for (unsigned i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    const pmu_fam_command *fc[MAX_FAMILY_COMMANDS];
    const pmu_family *owner[MAX_FAMILY_COMMANDS];
    unsigned nfc = family_commands(fc, owner);
    for (unsigned i = 0; i < nfc; i++)
        if (strcmp(cmd, fc[i]->name) == 0)
            return fc[i]->main(argc - 1, argv + 1);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        main_help(stdout);
        return PMU_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("pmusim %s\n", PMUSIM_VERSION);
        return PMU_EXIT_OK;
    }
    char shown[96];
    pmu_escape(cmd, strlen(cmd), shown, sizeof shown);
    fprintf(stderr, "pmusim: unknown command '%s': expected %s\n", shown, list);
    return PMU_EXIT_USAGE;
}
