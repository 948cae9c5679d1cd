/*
 * cmds.h - `pmusim count` and `pmusim profile` (sw/cmd_count.c, sw/cmd_profile.c),
 * and what they share (sw/drv_cli.c: stream, backend and session options, the run
 * loop with its exactness check; sw/drv_syms.c: symbol files).
 *
 * Each command takes the arguments after "pmusim" (argv[0] is the command name) and
 * returns the exit status: 0 success, 1 a lock-step mismatch, counts that are not
 * exact or a runtime error, 2 a bad argument or bad input (one line on stderr).
 */
#ifndef PMU_CMDS_H
#define PMU_CMDS_H

#include <stdint.h>
#include <stdio.h>

#include "ita/pmu_drv.h"
#include "pmu_stream.h"
#include "ita/pmulib.h"
#include "sw_cmds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- shared by the commands ---------------------------------------------------------- */

#define DRV_CLI_EXIT_FAIL 1
#define DRV_CLI_EXIT_USAGE 2
#define DRV_CLI_MAX_PIDS 64

typedef enum drv_cli_backend { DRV_CLI_COSIM = 0, DRV_CLI_RTL, DRV_CLI_REF } drv_cli_backend;

typedef struct drv_cli {
    const char *cmd;                          /* "count" or "profile", for messages */
    unsigned nevents;
    const char *event[PMULIB_MAX_EVENTS];     /* -e strings as given */
    const char *stream;                       /* NULL: generate */
    uint64_t seed, cycles;
    unsigned procs;                           /* generator processes, 0 = its default */
    pmu_gen_mode mode;
    int seed_given, cycles_given, mode_given, procs_given;
    drv_cli_backend backend;
    pmu_model model;
    int system_wide, per_process;
    int dcr_pp, dcr_pp_given;
    unsigned npids;
    uint16_t pid[DRV_CLI_MAX_PIDS];           /* --pid: the processes to monitor */
    unsigned latency;
} drv_cli;

void drv_cli_init(drv_cli *o, const char *cmd);
/* Prints "pmusim CMD: <message>" on stderr; returns DRV_CLI_EXIT_USAGE. */
int drv_cli_usage(const drv_cli *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Option NAME's value: from "--name=value" or the next argument.  NULL (message
 * printed) when it is missing. */
const char *drv_cli_value(const drv_cli *o, const char *name, const char *inline_val, int argc,
                          char **argv, int *i);
/* A decimal or 0x hex number in [min, max]; -1 with the message printed. */
int drv_cli_number(const drv_cli *o, const char *opt, const char *s, uint64_t min, uint64_t max,
                   uint64_t *out);
/* Consumes argv[*i] (and its value) when it is one of the shared options:
 * 1 = consumed, 0 = not a shared option, -1 = bad (message printed). */
int drv_cli_option(drv_cli *o, int argc, char **argv, int *i);
/* Checks that the options fit together; 0 or DRV_CLI_EXIT_USAGE (message printed). */
int drv_cli_check(drv_cli *o);
/* The help text of the shared options. */
void drv_cli_help(FILE *f);

/* The events as a driver configuration, through the event library: counter[i] is
 * the counter index (0..3) of event i.  0, or DRV_CLI_EXIT_USAGE (message printed). */
int drv_cli_config(const drv_cli *o, pmu_drv_config *cfg, unsigned counter[PMULIB_MAX_EVENTS]);

/* One run: backend, driver, records, and the exact per-process totals of the
 * reference (when a reference runs) for the check. */
typedef struct drv_cli_session {
    pmu_backend *b;
    pmu_backend *ref;        /* the reference of the run (NULL with --backend rtl) */
    pmu_drv *d;
    uint64_t records;
    uint64_t (*truth)[PMU_NCOUNTERS]; /* per pid 0..65535: increments during its records */
    uint8_t *ran;                     /* per pid: it had records */
    double seconds;
    pmu_gen *gen;                     /* the generator, when the records come from it (owned by source) */
    pmu_source *source;               /* where records come from (for mismatch reports) */
} drv_cli_session;

/* Creates the backend and the driver (configuration cfg; samples to fn), runs every
 * record, stops the driver.  Returns 0, or an exit status after printing why (a
 * lock-step mismatch report, a stream error). */
int drv_cli_run(const drv_cli *o, const pmu_drv_config *cfg, pmu_drv_sample_fn fn, void *arg,
                drv_cli_session *s);
/* Compares the driver's counts with the reference's per-process totals for the
 * counters in `used` (bit k = counter k); prints one line either way when a
 * reference ran.  Returns 1 when exact (or nothing to compare), 0 otherwise. */
int drv_cli_check_exact(const drv_cli *o, drv_cli_session *s, unsigned used, FILE *out);
void drv_cli_session_free(drv_cli_session *s);

/* The processes with a context, sorted by pid (n returned; pids must hold 65537). */
unsigned drv_cli_context_pids(const drv_cli_session *s, uint32_t *pids);

/* ---- symbol files (sw/drv_syms.c) ------------------------------------------------------ */
/* "START END NAME" lines, hexadecimal addresses (0x optional), END exclusive, '#'
 * comments and blank lines ignored: the form `pmusim gen --symbols` writes. */
typedef struct drv_symtab drv_symtab;
/* NULL + err ("FILE:LINE: what was expected") on a bad file. */
drv_symtab *drv_symtab_load(const char *path, pmu_err *err);
/* The functions of a generator's workload. */
drv_symtab *drv_symtab_from_gen(const pmu_gen *g);
/* The function holding addr: its index, or -1. */
int drv_symtab_find(const drv_symtab *t, uint64_t addr);
unsigned drv_symtab_count(const drv_symtab *t);
const char *drv_symtab_name(const drv_symtab *t, unsigned i);
void drv_symtab_free(drv_symtab *t);

#ifdef __cplusplus
}
#endif
#endif
