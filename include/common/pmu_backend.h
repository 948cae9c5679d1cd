/*
 * common/pmu_backend.h - the one interface behind which a PMU implementation sits.
 * A family's reference model (csim/<family>/), its Verilated RTL (verilator/<family>/)
 * and the lock-step pair of both (verilator/harness/cosim.c) all implement it; the harness and
 * the PMU software hold a pmu_backend* and never know which it is.
 *
 * Timing contract (docs/ita-semantics.md):
 *  - write(): one clock with the register port writing and no cycle record;
 *    the value is visible to read() and snapshot() right after the call.
 *  - read():  combinational, no clock.
 *  - step():  one clock consuming one cycle record (the family's dialect,
 *    include/common/pmu_dialect.h).  Counting, overflow, freeze and the interrupt line all
 *    update at that clock.
 */
#ifndef PMU_BACKEND_H
#define PMU_BACKEND_H

#include <stdint.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most visible registers any family has (pmu_family.nvis <= PMU_VIS_MAX). */
#define PMU_VIS_MAX 96

/* The state the lock-step checker compares after every clock. */
typedef struct pmu_state {
    uint64_t reg[PMU_VIS_MAX]; /* read-port view of each visible register, in the family's
                                  pmu_family.vis order; entries past nvis are unused */
    uint8_t pmi;               /* performance-monitor interrupt line after this clock */
} pmu_state;

typedef struct pmu_backend pmu_backend;

typedef struct pmu_backend_ops {
    void (*reset)(pmu_backend *b);
    void (*write)(pmu_backend *b, uint16_t addr, uint64_t value);
    uint64_t (*read)(pmu_backend *b, uint16_t addr);
    void (*step)(pmu_backend *b, const void *record);
    void (*snapshot)(pmu_backend *b, pmu_state *s);
    void (*destroy)(pmu_backend *b);
    /* Optional (NULL when the backend has none). */
    /* The 64-bit sum of every increment counter `ctr` received since reset: the exact
     * event total that software's virtual counters must reproduce (reference models). */
    uint64_t (*total)(pmu_backend *b, unsigned ctr);
    /* Dump a waveform to `path` from now on; 0, or -1 with err filled (RTL models). */
    int (*trace_open)(pmu_backend *b, const char *path, pmu_err *err);
    /* Ends the waveform: 0, or -1 with err filled when it could not be written whole (a
     * full disk): the file is then incomplete and must not be kept. */
    int (*trace_close)(pmu_backend *b, pmu_err *err);
    /* The backend whose state is the reference behind this one: a lock-step pair's
     * reference model, what a register socket reaches (NULL op: b itself). */
    pmu_backend *(*reference)(pmu_backend *b);
    /* Clocks and reads that disagreed so far, for a backend that checks two models
     * against each other (NULL op: it checks nothing). */
    uint64_t (*mismatches)(const pmu_backend *b);
    /* The interrupt line after the last clock, as snapshot() gives it, without gathering
     * the registers (NULL op: pmu_pmi takes a snapshot). */
    uint8_t (*pmi)(pmu_backend *b);
    /* Where the backend keeps its visible registers, in pmu_state.reg's layout (nvis
     * 64-bit entries in host byte order, not necessarily 8-byte aligned), and its
     * interrupt line (*pmi_line), both as snapshot() would give them after every clock and
     * at the same addresses for the backend's life; NULL (op or result) when they must be
     * gathered with snapshot().  Lets the lock-step checker compare them in place. */
    const void *(*visible)(pmu_backend *b, const uint8_t **pmi_line);
    /* Steps `record` up to n (>= 1) times in a row, exactly as that many step() calls
     * would, and returns how many it stepped: n, or fewer when the interrupt line is up
     * after the last of them (the caller serves it before stepping on), or, for a
     * lock-step pair, when the last of them disagreed.  A model can step a record that
     * changes nothing (a stall no counter counts) once for the run. */
    unsigned (*step_run)(pmu_backend *b, const void *record, unsigned n);
    /* One more clock of the record stepped last, exactly as step(record): the caller
     * guarantees that record is the same, unchanged, and that nothing but step_again
     * reached the backend since that step (a lock-step pair's run; NULL op: step). */
    void (*step_again)(pmu_backend *b, const void *record);
} pmu_backend_ops;

struct pmu_backend {
    const pmu_backend_ops *ops;
    const char *name;   /* "ref", "rtl", "cosim", ... */
    unsigned model;     /* index into the family's model list */
    unsigned nvis;      /* visible registers snapshot() fills */
    uint64_t cycle;     /* records stepped since reset */
};

static inline void pmu_reset(pmu_backend *b) { b->ops->reset(b); }
static inline void pmu_write(pmu_backend *b, uint16_t a, uint64_t v) { b->ops->write(b, a, v); }
static inline uint64_t pmu_read(pmu_backend *b, uint16_t a) { return b->ops->read(b, a); }
static inline void pmu_step(pmu_backend *b, const void *record) { b->ops->step(b, record); }
static inline void pmu_snapshot(pmu_backend *b, pmu_state *s) { b->ops->snapshot(b, s); }
static inline void pmu_destroy(pmu_backend *b) { if (b) b->ops->destroy(b); }
/* 1 when the backend keeps exact totals (pmu_total is meaningful). */
static inline int pmu_has_total(const pmu_backend *b) { return b->ops->total != 0; }
static inline uint64_t pmu_total(pmu_backend *b, unsigned ctr)
{
    return b->ops->total ? b->ops->total(b, ctr) : 0;
}
/* 1 when the backend checks two models against each other (pmu_cosim_mismatches may
 * be non-zero): a loop asks the others nothing after each record. */
static inline int pmu_has_mismatches(const pmu_backend *b) { return b->ops->mismatches != 0; }
/* 1 when the backend can dump waveforms. */
static inline int pmu_has_trace(const pmu_backend *b) { return b->ops->trace_open != 0; }
static inline int pmu_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    if (!b->ops->trace_open)
        return pmu_errf(err, PMU_E_UNSUPPORTED, "backend %s has no waveform", b->name);
    return b->ops->trace_open(b, path, err);
}
static inline int pmu_trace_close(pmu_backend *b, pmu_err *err)
{
    return b->ops->trace_close ? b->ops->trace_close(b, err) : 0;
}
static inline uint8_t pmu_pmi(pmu_backend *b)
{
    if (b->ops->pmi)
        return b->ops->pmi(b);
    pmu_state s;
    b->ops->snapshot(b, &s);
    return s.pmi;
}
/* The visible registers and the interrupt line in place (pmu_backend_ops.visible), or NULL. */
static inline const void *pmu_visible(pmu_backend *b, const uint8_t **pmi_line)
{
    return b->ops->visible ? b->ops->visible(b, pmi_line) : 0;
}
/* The reference state behind b (b itself for a model; callers check which model it is). */
static inline pmu_backend *pmu_reference(pmu_backend *b)
{
    return b && b->ops->reference ? b->ops->reference(b) : b;
}

#ifdef __cplusplus
}
#endif
#endif
