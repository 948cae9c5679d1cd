/*
 * monitor.h - what `pmusim count` and `pmusim profile` share (verilator/cli/monitor.c):
 * the options of a monitoring session, and the session itself: the family's event
 * library and driver (include/cli/pmu_family_cmds.h) on a backend, through the run loop.
 */
#ifndef CLI_MONITOR_H
#define CLI_MONITOR_H

#include <stdio.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"

#define MONITOR_MAX_PIDS 64
#define MONITOR_MAX_OPTS 24

typedef struct monitor_opts {
    const pmu_cli_cmd *cmd;
    pmu_cli_target t;
    pmu_cli_records r;
    pmu_monitor_request rq;
    uint16_t pids[MONITOR_MAX_PIDS];
    int dcr_pp, dcr_pp_given;
    int json;     /* --json: a mismatch is reported as one JSON document (text on stderr) */
} monitor_opts;

/* The shared options into opts (defaults set); returns how many. */
unsigned monitor_opts_init(monitor_opts *o, const pmu_cli_cmd *cmd, pmu_opt *opts);
/* After parsing: the options fit together, the family and model are found.  0, or
 * PMU_EXIT_USAGE with the message printed. */
int monitor_opts_check(monitor_opts *o);
/* The help text of the shared options. */
void monitor_help(FILE *f);

/* One session; monitor_close() frees whatever is set. */
typedef struct monitor_session {
    const pmu_family_cmds *cmds;
    pmu_fam_monitor *m;
    pmu_source *src;
    pmu_backend *b;
    pmu_cli_loop loop;
    pmu_gen *gen; /* the generator behind the records, when generated (owned by src) */
    const pmu_monitor_counts *counts; /* when the session ended */
} monitor_session;

/* Checks the events, runs every record under the family's driver and ends the session.
 * 0, or an exit status after printing why (a bad event, a bad record, a lock-step
 * mismatch report). */
int monitor_run(const monitor_opts *o, monitor_session *s);
/* "lock-step: N cycles, 0 mismatches" when the backend is a lock-step pair. */
void monitor_lockstep_line(const monitor_session *s, FILE *out);
/* --json: the members after the command's own: records, context switches, interrupts,
 * "exact" from the family's check (its line on stderr) and "lockstep"; closes the object.
 * Returns the exit status. */
int monitor_json_end(const monitor_session *s);
void monitor_close(monitor_session *s);

#endif
