/*
 * pmu_backend.h - the one interface behind which a PMU implementation sits.
 * The reference model (csim/), the Verilated RTL (verilator/) and the
 * lock-step pair of both (verilator/cosim.c) all implement it; the harness
 * and the PMU software hold a pmu_backend* and never know which it is.
 *
 * Timing contract (docs/architecture.md):
 *  - write(): one clock with the register port writing and no cycle record;
 *    the value is visible to read() and snapshot() right after the call.
 *  - read():  combinational, no clock.
 *  - step():  one clock consuming one cycle record.  Counting, overflow,
 *    freeze and the interrupt line all update at that clock.
 */
#ifndef PMU_BACKEND_H
#define PMU_BACKEND_H

#include <stdint.h>

#include "pmu_cycle.h"
#include "pmu_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Model parameters.  The RTL takes the same ones as Verilog parameters. */
typedef struct pmu_params {
    pmu_model model;  /* PMU_MODEL_ITANIUM or PMU_MODEL_ITANIUM2 */
    int pmd_sext;     /* 1: PMD bits 63:W read as bit W-1 (Itanium, Itanium 2); 0: read as zero */
    int thr_ge;       /* 0: threshold t adds 1 when n > t (libpfm's reading); 1: when n >= t */
    int fine_2bundle; /* 1: fine-mode ranges have two-bundle granularity (first Itanium 2 steppings) */
} pmu_params;

/* Defaults: Itanium 2, sign-extending reads, n > t, one-bundle fine-mode granularity. */
pmu_params pmu_params_default(void);

typedef struct pmu_backend pmu_backend;

typedef struct pmu_backend_ops {
    void (*reset)(pmu_backend *b);
    void (*write)(pmu_backend *b, uint16_t addr, uint64_t value);
    uint64_t (*read)(pmu_backend *b, uint16_t addr);
    void (*step)(pmu_backend *b, const pmu_cycle *c);
    void (*snapshot)(pmu_backend *b, pmu_state *s);
    void (*destroy)(pmu_backend *b);
} pmu_backend_ops;

struct pmu_backend {
    const pmu_backend_ops *ops;
    const char *name;   /* "ref", "rtl", "cosim" */
    pmu_params params;
    uint64_t cycle;     /* records stepped since reset */
};

static inline void pmu_reset(pmu_backend *b) { b->ops->reset(b); }
static inline void pmu_write(pmu_backend *b, uint16_t a, uint64_t v) { b->ops->write(b, a, v); }
static inline uint64_t pmu_read(pmu_backend *b, uint16_t a) { return b->ops->read(b, a); }
static inline void pmu_step(pmu_backend *b, const pmu_cycle *c) { b->ops->step(b, c); }
static inline void pmu_snapshot(pmu_backend *b, pmu_state *s) { b->ops->snapshot(b, s); }
static inline void pmu_destroy(pmu_backend *b) { if (b) b->ops->destroy(b); }

#ifdef __cplusplus
}
#endif
#endif
