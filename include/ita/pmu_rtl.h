/* pmu_rtl.h - the Verilated RTL (verilator/), behind pmu_backend. */
#ifndef PMU_RTL_H
#define PMU_RTL_H

#include <stddef.h>

#include "ita/pmu_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset RTL model built for these parameters.  Returns NULL and a message when no
 * Verilated variant was built for them (variants: Itanium and Itanium 2, pmd_sext=1,
 * thr_ge=0, fine_2bundle=0). */
pmu_backend *pmu_rtl_create(const pmu_params *p, char *err, size_t errlen);
/* The same with the message in a pmu_err (may be NULL). */
pmu_backend *pmu_rtl_new(const pmu_params *p, pmu_err *err);

/* Start dumping an FST waveform to `path` from now on; 0 on success.  Works on any
 * backend with a waveform (pmu_trace_open): the RTL, or a lock-step pair. */
int pmu_rtl_trace_open(pmu_backend *b, const char *path);
void pmu_rtl_trace_close(pmu_backend *b);

#ifdef __cplusplus
}
#endif
#endif
