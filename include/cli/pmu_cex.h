/*
 * cli/pmu_cex.h - `pmusim cex2replay`: a formal counterexample (the VCD yosys-smtbmc
 * writes for a family's checker, formal/<family>/<family>_pmu_props.sv) turned into a
 * stream and a `run --writes` schedule that replay it in lock-step (docs/formal.md, "From
 * a counterexample to a replay").
 *
 * The generic part (verilator/cli/cex2replay.c) reads the VCD, takes the checker's start
 * state from the top's observation port (dut.obs_vis_o: visible register v at
 * [v*64 +: 64], in the family's pmu_family.vis order) and its clocks from the register
 * port inputs every checker shares (reg_we_i, reg_addr_i, reg_wdata_i) and cyc_valid_i:
 * a write becomes an `at CYCLE write` line, a step a record, a clock with neither a write
 * to the family's idle address.  A family's part (verilator/cli/<family>/cex.c) says how
 * to reach the start state from reset and what record a step's inputs are.
 */
#ifndef PMU_CEX_H
#define PMU_CEX_H

#include <stddef.h>
#include <stdint.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_cex pmu_cex;         /* a trace read from the VCD */
typedef struct pmu_cex_out pmu_cex_out; /* the replay being written */

/* Bits [lsb, lsb + width) (width <= 64) of the checker's signal `name` at `step`: "nissue_i"
 * (a port of the checker's top), "dut.obs_vis_o", "dut.u_agg.backlog_q" (two levels down).
 * 0, or -1 with err filled when the trace has no such signal. */
int pmu_cex_get(const pmu_cex *t, const char *name, unsigned step, unsigned lsb, unsigned width, uint64_t *v,
                pmu_err *err);

/* The replay's lines.  A record: one line of the dialect's text form, without repeat=
 * (repeat: how many records it stands for, >= 1); the run's cycle moves on by repeat. */
void pmu_cex_record(pmu_cex_out *o, uint64_t repeat, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A register write, or an expected value, before the next record. */
void pmu_cex_write(pmu_cex_out *o, uint16_t addr, uint64_t value);
void pmu_cex_expect(pmu_cex_out *o, uint16_t addr, uint64_t value);
/* A comment line in both files. */
void pmu_cex_comment(pmu_cex_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A change the replay makes to the trace (an input value no record can carry, replaced
 * by one the RTL treats alike): a comment in both files and a line of the command's
 * report. */
void pmu_cex_note(pmu_cex_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The model the replay runs (pmu_cex_family.model's choice, or --model; the family's
 * default model when it has no such hook). */
unsigned pmu_cex_model(const pmu_cex *t);
/* The steps of the trace (3 or more; 2 or more with views). */
unsigned pmu_cex_steps(const pmu_cex *t);
/* PMU_CEX_STATE words a family's part keeps between its calls for one conversion (zero at
 * the start): what it has programmed so far, say. */
#define PMU_CEX_STATE 8
uint64_t *pmu_cex_state(pmu_cex_out *o);

/* A clock of the checker as the register port sees it (pmu_cex_family.clock). */
typedef struct pmu_cex_clock {
    int write;     /* a register write of data at addr */
    int step;      /* a record retired (with a write: the record first, then the write) */
    uint16_t addr;
    uint64_t data;
} pmu_cex_clock;

/* What a family brings (pmu_family_cmds.cex). */
typedef struct pmu_cex_family {
    const char *checker; /* the checker's top module, "ev4_pmu_props" */
    /* An address no register answers, written for a clock with neither a write nor a step
     * (a write there changes nothing, as such a clock does not). */
    uint16_t idle_addr;
    /* Records and writes that take the reset PMU to the visible state start[] (nvis
     * registers, pmu_family.vis order).  A part of the state no write or record reaches
     * from reset (the solver's start state is free) is changed in start[] to what the
     * preamble reaches, with a pmu_cex_note; the replay then expects start[].  0, or -1
     * with err filled (a state it cannot reach at all).  t: the trace, for the state of
     * step 0 no visible register shows (pmu_cex_get of an instance's flop). */
    int (*preamble)(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err);
    /* The record of the inputs at `step` (one pmu_cex_record call); vis[]: the visible
     * registers at that step, before its clock.  0, or -1 with err filled. */
    int (*record)(const pmu_cex *t, unsigned step, const uint64_t *vis, pmu_cex_out *o, pmu_err *err);

    /* Optional, for a checker that assembles a part of the PMU from its modules, with the
     * part's own inputs free (the Itanium's): */
    /* 1: the checker watches views, the registers with the clock's record applied (the
     * Itanium's "record in flight", docs/ita-rtl.md), so a step's values already show its own
     * clock: the failing assertion (over the values of step K - 2) is about the clock of step
     * K - 2, not K - 3. */
    int views;
    /* 1: the checker's assertions are immediate (always @*), not clocked: the failure the
     * solver reports at the last step K - 1 is over that step's own values, about its own
     * clock (with views: the record of step K - 1, which the replay makes its last). */
    int immediate;
    /* The clock at `step`.  NULL: the ports reg_we_i, reg_addr_i, reg_wdata_i and
     * cyc_valid_i, a write and a step in one clock refused.  0, or -1 with err filled. */
    int (*clock)(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err);
    /* The visible registers at `step` before its clock (pmu_family.vis order), and which of
     * them the trace shows (shown[v] = 1; the replay expects only those at the start).
     * NULL: every one, from dut.obs_vis_o.  0, or -1 with err filled. */
    int (*vis)(const pmu_cex *t, unsigned step, uint64_t *vis, unsigned char *shown, pmu_err *err);
    /* The model whose assertion the trace fails (a checker that holds several models side by
     * side), with why[] saying how it was told ("the assertion of u_itanium2 fails").  NULL:
     * the family's default model.  0, or -1 with err filled (no model fails). */
    int (*model)(const pmu_cex *t, unsigned *model, char *why, size_t size, pmu_err *err);
    /* The part for another checker of the family, or NULL. */
    const struct pmu_cex_family *next;
} pmu_cex_family;

#ifdef __cplusplus
}
#endif
#endif
