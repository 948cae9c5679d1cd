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
#include "cli/pmu_plot.h"

#define MONITOR_MAX_PIDS 64
#define MONITOR_MAX_OPTS 24

typedef struct monitor_opts {
    const pmu_cli_cmd *cmd;
    pmu_cli_target t;
    pmu_cli_records r;
    pmu_monitor_request rq;
    uint16_t pids[MONITOR_MAX_PIDS];
    int dcr_pp, dcr_pp_given;
    pmu_opt *opts;  /* the command's option table, for the family's check: monitor_opts_init */
    unsigned nopts; /* sets it; a command that adds options of its own updates nopts */
    int json;     /* --json: a mismatch is reported as one JSON document (text on stderr) */
    const char *plot;      /* --plot FILE */
    const char *plot_data; /* --plot-data FILE (timeline only) */
    const char *input_opt, *input; /* a file the command reads itself (may be NULL): no output may be it */
    int timeline;          /* --plot draws the counters over the cycles (count); else the
                              command draws its results (monitor_plot_bars) */
} monitor_opts;

/* The shared options into opts (defaults set); returns how many. */
unsigned monitor_opts_init(monitor_opts *o, const pmu_cli_cmd *cmd, pmu_opt *opts);
/* After parsing: the options fit together, the family and model are found, and the
 * family takes the command and every option given (pmu_cli_family_check).  0, or
 * PMU_EXIT_USAGE with the message printed. */
int monitor_opts_check(monitor_opts *o);
/* The family's events for -e's help (pmu_family_cmds.monitor_events, or a default). */
const char *monitor_events(const pmu_family *fam);
/* One option's help line: the label in the option column, then text (its "\n"s continue
 * in the text column). */
void monitor_help_line(FILE *f, const char *label, const char *text);
/* 1 when the family takes the command at all; else prints why on f and returns 0 (the
 * command's help prints nothing else). */
int monitor_help_takes(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam);
/* A usage line's continuation "\n<indent>[--system-wide [--dcr-pp 0|1]] [--pid N[,N...]]
 * [--irq-latency N]", as far as fam takes them (nothing when it takes none). */
void monitor_usage(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam, unsigned indent);
/* The help text of the shared options the family takes. */
void monitor_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam);

/* One session; monitor_close() frees whatever is set. */
typedef struct monitor_session {
    const pmu_family_cmds *cmds;
    pmu_fam_monitor *m;
    pmu_source *src;
    pmu_backend *b;
    pmu_cli_loop loop;
    pmu_gen *gen; /* the generator behind the records, when generated (owned by src) */
    const pmu_monitor_counts *counts; /* when the session ended */
    pmu_files *files;
    pmu_outfile *plot, *plot_data;    /* --plot, --plot-data, prepared before the run */
    pmu_plot_tap *tap;                /* with timeline */
} monitor_session;

/* Checks the events, runs every record under the family's driver and ends the session.
 * 0, or an exit status after printing why (a bad event, a bad record, a lock-step
 * mismatch report). */
int monitor_run(const monitor_opts *o, monitor_session *s);
/* --plot of a command that draws its results: the charts into the prepared file (nothing
 * without --plot).  0, or an exit status after printing why. */
int monitor_plot_bars(const monitor_opts *o, monitor_session *s, const char *title,
                      const pmu_plot_bars *charts, unsigned ncharts);
/* "lock-step: N cycles, 0 mismatches" when the backend is a lock-step pair. */
void monitor_lockstep_line(const monitor_session *s, FILE *out);
/* --json: the members after the command's own: records, context switches, interrupts,
 * "exact" from the family's check (its line on stderr) and "lockstep"; closes the object.
 * Returns the exit status. */
int monitor_json_end(const monitor_session *s);
void monitor_close(monitor_session *s);

#endif
