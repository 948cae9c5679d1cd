/*
 * cli/pmu_family_cmds.h - what the generic commands (verilator/cli/) need of a PMU family,
 * reached through pmu_family.cmds.  Everything particular to a family -- its
 * configuration files, the harness's overflow service and the summary it prints, random
 * programming for conformance runs, its event library and driver for count and profile,
 * the encode command -- sits behind these hooks (the Itanium family's are in
 * verilator/cli/ita/cmds.c and its neighbours).
 *
 * Conventions: a family that has commands sets every hook (one it cannot serve fails with
 * PMU_E_UNSUPPORTED).  A hook that can fail returns NULL or non-zero with a pmu_err filled; code
 * PMU_E_INPUT means bad input (the command exits 2), anything else a runtime failure
 * (exit 1).  Hooks that print take the stream to print on.  Models are indexes into the
 * family's model list.
 */
#ifndef PMU_FAMILY_CMDS_H
#define PMU_FAMILY_CMDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pmu_backend.h"
#include "cli/pmu_cli.h"
#include "harness/pmu_cosim.h"
#include "common/pmu_err.h"
#include "stream/pmu_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_fam_config pmu_fam_config;   /* a parsed configuration file */
typedef struct pmu_fam_service pmu_fam_service; /* the overflow service of one run */
typedef struct pmu_fam_conform pmu_fam_conform; /* the software of one conformance run */
typedef struct pmu_fam_monitor pmu_fam_monitor; /* a count/profile session */

#define PMU_MONITOR_MAX_EVENTS 16 /* -e options a command keeps; the family says how many fit */

/* count and profile: what to monitor, as the user asked. */
struct pmu_monitor_capture;

typedef struct pmu_monitor_request {
    unsigned model;
    const char *events[PMU_MONITOR_MAX_EVENTS]; /* -e strings as given */
    unsigned nevents;
    uint64_t period;          /* profile: a sample of events[0] every `period` (0: count only) */
    const char *period_text;  /* --period as typed, for messages */
    int system_wide;          /* privileged monitors over every process */
    int per_process;          /* system-wide: counts broken down by process */
    int handlers;             /* system-wide: interruption handlers count (--dcr-pp) */
    const uint16_t *pids;     /* --pid: only these processes (npids 0: every process) */
    unsigned npids;
    unsigned latency;         /* records from an overflow to its interrupt */
    int latency_given;        /* --irq-latency was given (a family whose software decides
                                 when it answers refuses it) */
    void (*on_sample)(void *arg, uint64_t ip); /* profile: each sample's address */
    void *sample_arg;
    /* profile --sample: an event of a capture unit (an EAR or a branch trace buffer, the
     * family's names) sampled through the counter event that counts the unit's captures,
     * every `period` captures; events[0] is then that counter event, made by the family.
     * NULL: events[0] as given. */
    const char *sample_unit;
    /* With sample_unit: each sample's capture, decoded, instead of on_sample. */
    void (*on_capture)(void *arg, const struct pmu_monitor_capture *c);
} pmu_monitor_request;

/* One sample of a capture unit (profile --sample), decoded by the family. */
#define PMU_CAPTURE_TEXT 2048
typedef struct pmu_monitor_capture {
    uint64_t ip;        /* where the flat profile attributes it: the captured instruction
                           (an EAR's, the newest branch's), else the interrupt's address */
    char text[PMU_CAPTURE_TEXT]; /* the decoded sample, one or more lines, each ending in \n */
    char json[PMU_CAPTURE_TEXT]; /* the raw registers and the decoded fields: one JSON object */
} pmu_monitor_capture;

/* count's numbers at the end of a session (valid until the monitor is freed). */
typedef struct pmu_monitor_counts {
    const char *counter[PMU_MONITOR_MAX_EVENTS]; /* where each event counted ("PMD5") */
    uint64_t total[PMU_MONITOR_MAX_EVENTS];       /* over every process */
    unsigned ncontexts;       /* processes with counts of their own */
    int one_context;          /* 1: a single system-wide context (no per-process counts) */
    const uint32_t *pid;      /* ncontexts pids, ascending */
    const uint64_t *count;    /* ncontexts rows of nevents counts */
    uint64_t switches, interrupts;
} pmu_monitor_counts;

/* A command of the family's own: `pmusim <name> ...`, listed by `pmusim --help`.  main
 * gets argv as the generic commands do (argv[0] is the command name) and returns the exit
 * status (include/cli/pmu_cli.h). */
typedef struct pmu_fam_command {
    const char *name;
    const char *what; /* one line for `pmusim --help` */
    int (*main)(int argc, char **argv);
} pmu_fam_command;

/* An option of a generic command (run, count, profile) the family refuses, and why:
 * the command refuses it and its --help leaves it out (pmu_cli_refusal). */
typedef struct pmu_fam_refusal {
    const char *commands; /* the commands, separated by spaces: "count profile" */
    const char *option;   /* the long name ("irq-latency"); NULL: the whole command */
    const char *why;
} pmu_fam_refusal;

typedef struct pmu_family_cmds {
    /* ---- what --help shows of the family (the commands' help is built from these) ---- */
    const pmu_fam_refusal *refusals; /* ended by an entry with commands NULL (may be NULL) */
    /* Lines of text ("\n" breaks a line in the help's text column); NULL: a generic line. */
    const char *config_what;    /* run --config: what the file is, and its doc */
    const char *monitor_events; /* count/profile -e: the events, how many, their modifiers */
    const char *monitor_period; /* profile --period: its range */

    /* ---- run: configuration files and the harness's overflow service ---- */
    /* Parses a configuration (docs/ita-config-format.md) held in memory; `name` is used in
     * messages.  `model` applies unless the text names one; with model_fixed the text
     * may not name another. */
    pmu_fam_config *(*config_parse)(const char *text, size_t len, const char *name,
                                    unsigned model, int model_fixed, pmu_err *err);
    const char *(*config_builtin)(unsigned model); /* the text used without --config */
    unsigned (*config_model)(const pmu_fam_config *c);
    /* Edges for the generator from what the configuration programs (valid while c is). */
    const pmu_gen_hot *(*config_hot)(const pmu_fam_config *c);
    /* The lines under the run's header that say what is programmed (may print nothing). */
    void (*config_print)(const pmu_fam_config *c, FILE *out);
    void (*config_free)(pmu_fam_config *c);

    /* Programs b from c and starts the overflow service (`latency` records from an
     * interrupt to the service); fills the hooks the run loop calls.  layout: the
     * generator behind the run's records, for its functions (NULL for a stream file). */
    pmu_fam_service *(*service_start)(const pmu_fam_config *c, pmu_backend *b, unsigned latency,
                                      const pmu_gen *layout, pmu_record_hooks *hooks, pmu_err *err);
    /* NULL: the service answers `latency` records after the interrupt (--irq-latency).
     * Otherwise what decides when it answers, for the run's header; run
     * then refuses --irq-latency, with this as the reason (pmu_cli_refusal). */
    const char *service_timing;
    /* End of a run that stayed in lock-step: folds the last counts, prints the counter
     * table and the interrupts (unless quiet), and checks the 64-bit totals against the
     * backend's exact totals when it keeps them (pmu_has_total).  1 exact (or nothing
     * to compare), 0 not (the differences printed). */
    int (*service_finish)(pmu_fam_service *s, int quiet, FILE *out);
    /* After service_finish: what it printed as a table (the counts, the interrupts) as one
     * JSON object, run --json's "service" member (docs/json.md). */
    void (*service_json)(pmu_fam_service *s, FILE *out);
    void (*service_free)(pmu_fam_service *s);

    /* Lines that help read a lock-step mismatch (e.g. how the counter is programmed);
     * b is the lock-step pair. */
    void (*mismatch_detail)(const pmu_cosim_mismatch *m, pmu_backend *b, FILE *out);

    /* ---- conform: random programming and software activity ---- */
    /* Programs the reset pair b at random from `seed`, aimed at the stream `layout`
     * will produce (workload: its functions), and returns the software of the run:
     * `driver` 0 the harness's overflow service with random register activity, 1 the
     * family's driver.  *hot: edges for the generator (valid while the result is).
     * qual_heavy (only for a family with conform_qual): the qualifier-heavy programming,
     * every qualifier programmed and events that read them; a family without them refuses
     * it (PMU_E_UNSUPPORTED). */
    pmu_fam_conform *(*conform_start)(pmu_backend *b, uint64_t seed, const pmu_gen *layout,
                                      int workload, int driver, int qual_heavy, const pmu_gen_hot **hot,
                                      pmu_record_hooks *hooks, pmu_err *err);
    /* After a run in lock-step: the interrupts serviced, and with the driver whether its
     * 64-bit counts equal the reference's totals (0: printed why on out). */
    int (*conform_finish)(pmu_fam_conform *c, uint64_t *interrupts, FILE *out);
    /* 1: the family has event qualifiers, so conform has its qualifier-heavy configuration. */
    int conform_qual;
    void (*conform_free)(pmu_fam_conform *c);

    /* ---- count and profile: the family's event library and driver ---- */
    /* Checks the request (events, period) and resolves it; nothing runs yet. */
    pmu_fam_monitor *(*monitor_create)(const pmu_monitor_request *rq, pmu_err *err);
    /* A line saying what the session monitors. */
    const char *(*monitor_session)(const pmu_fam_monitor *m);
    /* Starts the driver on the reset backend b; fills the hooks of the run loop. */
    int (*monitor_start)(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks,
                         pmu_err *err);
    /* Ends the session and returns the counts. */
    const pmu_monitor_counts *(*monitor_finish)(pmu_fam_monitor *m);
    /* Compares the counts with the backend's exact totals when it keeps them; prints
     * one "exact: ..." line either way then.  1 exact (or nothing to compare), 0 not. */
    int (*monitor_check)(pmu_fam_monitor *m, FILE *out);
    void (*monitor_free)(pmu_fam_monitor *m);

    /* ---- encode: the event library's register programming (its own options) ---- */
    int (*encode)(int argc, char **argv, FILE *out, FILE *err);

    /* ---- the family's own commands (`pmusim <name>`), e.g. the 21064's `pfm` ---- */
    const pmu_fam_command *commands;
    unsigned ncommands;

    /* ---- real programs (`pmusim record`, `make real`; docs/real-programs.md) ----
     * real_profile: the family's software printing a recording's per-function table, as
     * pmusim's arguments with {stream} and {symbols} in place of the files; real_checks:
     * the family's script of checks on the recordings `make real` made (qemu/real.sh
     * runs it; it ends with "N passed, M failed").  NULL: none. */
    const char *real_profile, *real_checks;

    /* ---- cex2replay: a formal counterexample of the family's checker as a replay
     * (include/cli/pmu_cex.h; NULL: the family has no checker yet) ---- */
    const struct pmu_cex_family *cex;
    /* ---- --plot (docs/plots.md): the counters a run's timeline shows, ended by an entry
     * with name NULL (cli/pmu_plot.h); NULL: run and count have no timeline. ---- */
    const struct pmu_plot_counter *plot_counters;
    /* The count field's width on model `model` where it differs by model (NULL: each
     * counter's msb - lsb + 1). */
    unsigned (*plot_width)(unsigned model);
    /* The privilege level a record runs at, 0..nlevels-1, for the timeline's band, and the
     * levels' names (plot_level_names[nlevels], at most 8); NULL: no band. */
    unsigned (*plot_level)(const void *record);
    const char *const *plot_level_names;
    unsigned plot_nlevels;
} pmu_family_cmds;

#ifdef __cplusplus
}
#endif
#endif
