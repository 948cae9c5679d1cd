/*
 * encode.c - `pmusim encode`: the register programming of events, ranges and opcode
 * patterns.  Events and their encodings are the family's event library's, so the command
 * is the family's own (pmu_family_cmds.encode); this front end finds the family.
 */
#include <stdio.h>
#include <string.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"

/* The value of --family NAME / --family=NAME before "--", or NULL.  The family's own
 * parser reads every option again, --family included. */
static const char *family_arg(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strncmp(argv[i], "--family=", 9) == 0)
            return argv[i] + 9;
        if (strcmp(argv[i], "--family") == 0 && i + 1 < argc)
            return argv[i + 1];
    }
    return NULL;
}

static void encode_help(FILE *f)
{
    fprintf(f, "usage: pmusim encode [--family NAME] ...  (pmusim encode --help lists the options)\n");
}

int pmusim_cmd_encode(int argc, char **argv)
{
    static const pmu_cli_cmd encode_cmd = {.name = "encode", .help = encode_help};
    pmu_cli_target t = {.family_name = family_arg(argc, argv)};
    int rc = pmu_cli_target_resolve(&encode_cmd, &t);
    if (rc)
        return rc;
    return t.fam->cmds->encode(argc, argv, stdout, stderr);
}
