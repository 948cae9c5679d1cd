/*
 * harness/pmu_fault.h - test code only: a backend that wraps another and goes wrong in one
 * chosen way (verilator/harness/tests/pmu_fault.c), so that the lock-step pair's reports are
 * checked on a real disagreement.  Serves the GoogleTest checks of the pair (verilator/harness/tests/test_cosim.cpp) and the faulty
 * pmusim of the end-to-end report checks (verilator/cli/tests/fault_backend.c).
 */
#ifndef PMU_FAULT_H
#define PMU_FAULT_H

#include <stdint.h>

#include "harness/pmu_cosim.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pmu_fault_kind {
    PMU_FAULT_NONE,
    PMU_FAULT_DROP_STEP,  /* the step of record `at` (0-based, from the last reset) never arrives */
    PMU_FAULT_PMI_LOST,   /* the interrupt line reads 0 after record `at` */
    PMU_FAULT_WRITE_FLIP, /* writes to `addr` land with `mask` flipped */
    PMU_FAULT_READ_FLIP,  /* reads of `addr` return `mask` flipped */
};

typedef struct pmu_fault {
    enum pmu_fault_kind kind;
    uint64_t at;
    uint16_t addr;
    uint64_t mask;
} pmu_fault;

/* `inner` wrapped: it keeps inner's name, model and views, has only the ops every backend
 * has and the waveform's (the pair then compares snapshots record by record), and destroys
 * inner with itself.  NULL when out of memory (inner untouched). */
pmu_backend *pmu_fault_wrap(pmu_backend *inner, const pmu_fault *fault);

/* Frees the wrapper alone, leaving inner to its owner (a pair that could not be made). */
void pmu_fault_release(pmu_backend *wrapper);

#ifdef __cplusplus
}
#endif

#endif
