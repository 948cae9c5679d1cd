/* ev4_rtl.h - the Alpha 21064 counter block's Verilated RTL (rtl/ev4/, verilator/ev4/),
 * behind pmu_backend. */
#ifndef EV4_RTL_H
#define EV4_RTL_H

#include "common/ev4/ev4_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset RTL model built for these parameters, or NULL with err filled (err may be
 * NULL) when no Verilated variant was built for them.  Variants: the 21064 (HasPme=1)
 * and the 21064-pass2 (HasPme=0), both with the default widths and Mux0Undef=0.  The
 * backend has trace_open/trace_close (FST waveforms, one time unit per clock). */
pmu_backend *ev4_rtl_new(const ev4_params *p, pmu_err *err);

#ifdef __cplusplus
}
#endif
#endif
