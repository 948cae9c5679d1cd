/*
 * cosim.h - the lock-step checker: a pmu_backend that forwards every clock to a
 * reference backend and to an RTL backend and compares them.
 *
 * After every clock (reset, write, step) it compares the full pmu_state of both
 * (every visible register and the interrupt line); every read() compares the two
 * values read.  The first disagreement is recorded as a report (pmu_cosim_mismatch)
 * naming the cycle, the register, the field(s) that differ, the expected (reference)
 * and actual (RTL) values, the cycle record and where it came from.  The checker
 * keeps forwarding after a mismatch (it never stops the run itself); the caller asks
 * pmu_cosim_mismatches() when it wants to stop.  A reset of the pair starts a new run:
 * the mismatches so far are forgotten.
 *
 * read() and snapshot() return the reference's values.
 */
#ifndef PMU_COSIM_H
#define PMU_COSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pmu_backend.h"
#include "common/pmu_family.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the record just stepped came from, e.g. "trace.txt:12" or "generator seed 1,
 * record 4711".  Called only when a report is made. */
typedef const char *(*pmu_cosim_where_fn)(void *ctx);

typedef enum pmu_cosim_clock {
    PMU_COSIM_RESET,
    PMU_COSIM_WRITE,
    PMU_COSIM_READ,
    PMU_COSIM_STEP
} pmu_cosim_clock;

typedef struct pmu_cosim_mismatch {
    /* Step: index of the record whose clock disagreed (records are numbered from 0
     * after reset).  Write/read/reset: the index of the next record (the operation
     * came after `cycle` records). */
    uint64_t cycle;
    pmu_cosim_clock clock;
    uint16_t addr;          /* write/read: the register port address */
    uint64_t wdata;         /* write: the value written */
    char reg[16];           /* visible register name, or "pmi" */
    char fields[160];       /* differing fields, e.g. "es, umask", "count", "pmi" */
    uint64_t expected;      /* reference */
    uint64_t actual;        /* RTL */
    char others[160];       /* other registers that differ in the same clock, or "" */
    char record[1024];      /* the record (step) in ita_cycle_format() form, or what the
                               clock did (write/read/reset) */
    char where[256];        /* where the record came from ("" when unknown) */
} pmu_cosim_mismatch;

/* A lock-step pair of family `fam`, reset, owning `ref` and `rtl` (destroyed with it).
 * `where` may be NULL.  Returns NULL when either backend is NULL, their models differ or
 * they do not have the family's visible state, or out of memory.  The pair's total() is
 * the reference's and its trace_open() the RTL's. */
pmu_backend *pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                              pmu_cosim_where_fn where, void *where_ctx);

/* Clocks and reads that disagreed so far (0 = in lock-step), of a lock-step pair or of
 * any backend that reaches a checker (pmu_backend_ops.mismatches; 0 for the others). */
uint64_t pmu_cosim_mismatches(const pmu_backend *b);
/* The first disagreement, or NULL when there was none. */
const pmu_cosim_mismatch *pmu_cosim_first(const pmu_backend *b);
/* The report as text, several lines, each ending in '\n'. Returns the length. */
size_t pmu_cosim_format(const pmu_cosim_mismatch *m, char *buf, size_t size);

/* The two backends inside (the pair's own total() and trace_open() already reach them). */
pmu_backend *pmu_cosim_ref(pmu_backend *b);
pmu_backend *pmu_cosim_rtl(pmu_backend *b);
/* 1 when b is a lock-step pair. */
int pmu_is_cosim(const pmu_backend *b);

/* The most records and clocks of one pmu_cosim_step_batch call. */
#define PMU_COSIM_BATCH 128
#define PMU_COSIM_BATCH_CLOCKS 256
/* Steps pair b through n records (at most PMU_COSIM_BATCH; record i for clocks[i] >= 1
 * clocks, at most PMU_COSIM_BATCH_CLOCKS in all), each clock compared as step() compares
 * it, and returns the clocks stepped: all of them, or fewer when it stopped after a clock
 * that disagreed (a mismatch reported) or that raised the interrupt line.  The first clock of
 * each record is a full step; a caller that continues a record after a stop passes the
 * rest as a record of its own.  After a mismatch the pair, its reference and the report
 * are those of the clock that disagreed, and the RTL inside may have stepped further, up
 * to the batch's last clock (so not with a waveform open, which would show those clocks). */
unsigned pmu_cosim_step_batch(pmu_backend *b, const void *const *recs, const unsigned *clocks,
                              unsigned n);
/* The first mismatch's where text taken again (pmu_cosim_where_fn): for a caller whose
 * records' source had read ahead of the pair when the mismatch was reported, and has
 * since given back what the pair did not step. */
void pmu_cosim_retake_where(pmu_backend *b);

/* The line of an exactness check that passed, for the software run on backend b: "exact: "
 * and the printf-style text when b is the lock-step pair, which checks the RTL against the
 * reference model as well; on one model alone the check only shows that the software agrees
 * with that model, so the line says which ("exact against the RTL alone: ...") and that only
 * the pair checks the RTL. */
void pmu_cosim_say_exact(FILE *out, const pmu_backend *b, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
