/*
 * cli/pmu_writes.h - `pmusim run --writes FILE`: a schedule of register writes and
 * expected register values at chosen cycles, the whole software of a run (no overflow
 * service).  It is how a formal counterexample is replayed (docs/formal.md, "From a
 * counterexample to a replay"; verilator/cli/writes.c).  One line each:
 *
 *     at CYCLE write REG VALUE     a register write before record CYCLE (one clock)
 *     at CYCLE expect REG VALUE    before record CYCLE, REG must read VALUE
 *
 * CYCLE counts records from 0 and never goes down from a line to the next; lines of one
 * cycle run in file order.  REG is named as run --traffic names it (docs/run-traffic.md):
 * a visible register ("ICCSR", "PMD5"), a register-map entry ("SL_CLR"), NAME+K for the
 * K-th address of a multi-address entry ("IBR+3"), or an address (0x13).  Numbers are
 * decimal or 0x hex; '#' starts a comment.
 */
#ifndef PMU_WRITES_H
#define PMU_WRITES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/pmu_cli.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_writes pmu_writes;

/* Parses the schedule text[0..len) for family fam; `name` names it in messages
 * ("FILE:LINE: ..."). NULL with err filled (PMU_E_INPUT: the line and the field). */
pmu_writes *pmu_writes_parse(const pmu_family *fam, const char *text, size_t len, const char *name,
                             pmu_err *err);

/* Register `text` (a visible register's name, a register-map entry's, NAME+K or an address):
 * 0 and *addr, or -1 with err filled ("WHERE: register 'X': expected ..."). */
int pmu_writes_reg(const pmu_family *fam, const char *text, const char *where, uint16_t *addr, pmu_err *err);
/* The name of address addr, as run --traffic and the schedule write it: its visible
 * register's ("PMD5"), else its register-map entry's ("SL_CLR", "IBR+3"), else "0x013". */
void pmu_writes_reg_name(const pmu_family *fam, uint16_t addr, char *buf, size_t size);

/* Starts the schedule on backend b: fills the run loop's hooks (an `at` hook). */
void pmu_writes_start(pmu_writes *w, pmu_backend *b, pmu_record_hooks *hooks);
/* After the records: one line of what was applied (unless quiet) and one per expect that
 * failed or line never reached (the stream ended first).  1 when every line was applied
 * and every expect held, else 0. */
int pmu_writes_finish(pmu_writes *w, int quiet, FILE *out);
void pmu_writes_free(pmu_writes *w);

#ifdef __cplusplus
}
#endif
#endif
