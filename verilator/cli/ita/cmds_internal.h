/*
 * cmds_internal.h - what the Itanium family's command hooks (include/cli/pmu_family_cmds.h)
 * share among their files in verilator/ita/: the driver session that count, profile and
 * `conform --service driver` run, with its exactness check.
 */
#ifndef ITA_CMDS_INTERNAL_H
#define ITA_CMDS_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "sw/ita/ita_drv.h"
#include "cli/pmu_cex.h"
#include "cli/pmu_family_cmds.h"
#include "harness/ita/ita_family.h"

/* cex2replay (cex.c): the counterexamples of the counters checker
 * formal/ita/ita_counters_props.sv and of the I-EAR's (ita_iear_props.sv) as replays. */
extern const pmu_cex_family ita_cex;

/* The driver on a backend, and the reference's exact per-process totals beside it: the
 * increments each counter received during each process's records. */
typedef struct ita_session {
    pmu_backend *b;
    ita_drv *d;
    int has_total;                    /* the backend keeps exact totals */
    uint64_t (*truth)[ITA_NCOUNTERS]; /* per pid 0..65535 */
    uint8_t *ran;                     /* per pid: it had records */
    uint64_t before[ITA_NCOUNTERS];   /* totals before the record being stepped */
} ita_session;

/* Creates the driver on b with `o`, attaches `pids` (npids 0: none), and fills the run
 * loop's hooks.  0, or -1 + err (the session freed). */
int ita_session_start(ita_session *s, pmu_backend *b, const ita_drv_opts *o,
                      const uint16_t *pids, unsigned npids, pmu_record_hooks *hooks, pmu_err *err);
/* Compares the driver's counts of the counters in `used` (bit k = counter k) with the
 * exact totals; when there are totals, prints an "exact: NO, ..." line on out, or with
 * say_exact the "exact: ..." line of a success.  1 exact (or nothing to compare), 0 not. */
int ita_session_check(const ita_session *s, unsigned used, int say_exact, FILE *out);
void ita_session_free(ita_session *s);


/* The pieces it is made of. */
pmu_fam_monitor *ita_monitor_create(const pmu_monitor_request *rq, pmu_err *err);
const char *ita_monitor_session(const pmu_fam_monitor *m);
int ita_monitor_start(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks, pmu_err *err);
const pmu_monitor_counts *ita_monitor_finish(pmu_fam_monitor *m);
int ita_monitor_check(pmu_fam_monitor *m, FILE *out);
void ita_monitor_free(pmu_fam_monitor *m);

#include "cli/ita/ita_sample.h" /* profile --sample (cmd_ear.c) */

pmu_fam_conform *ita_conform_start(pmu_backend *b, uint64_t seed, const pmu_gen *layout,
                                   int workload, int driver, int qual_heavy, const pmu_gen_hot **hot,
                                   pmu_record_hooks *hooks, pmu_err *err);
int ita_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out);
void ita_conform_free(pmu_fam_conform *c);

#endif
