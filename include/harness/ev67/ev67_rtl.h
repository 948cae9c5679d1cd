/* ev67_rtl.h - the Alpha 21264/EV67 counter block's Verilated RTL (rtl/ev67/,
 * verilator/ev67/), behind pmu_backend.  step() takes an ev67_cycle. */
#ifndef EV67_RTL_H
#define EV67_RTL_H

#include "common/ev67/ev67_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset RTL model built for these parameters (NULL: ev67_params_default of the
 * 21264-ev67), or NULL with err filled (err may be NULL) when no Verilated variant was
 * built for them (PMU_E_UNSUPPORTED) or a parameter is out of range (PMU_E_INPUT).  The
 * variants built are listed in verilator/ev67/family.mk; at least the defaults
 * (ReadQuirk = 1, IsumRace = 0, ParkBlock = 1).  The backend has trace_open/trace_close
 * (FST waveforms, one time unit per clock). */
pmu_backend *ev67_rtl_new(const ev67_params *p, pmu_err *err);

#ifdef __cplusplus
}
#endif
#endif
