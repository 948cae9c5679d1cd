// ev4_rtl_backend_for_unit_tests.cpp - runs the Alpha 21064 counter-block tests written for
// the reference model (csim/ev4/tests/test_ev4_regs.cpp, test_ev4_counting.cpp,
// test_ev4_irq.cpp: every expectation written by hand from docs/ev4.md) on the Verilated
// RTL instead (csim/ev4/tests/ev4_test_backend.h).  The RTL is built for the two models'
// default parameters only (include/harness/ev4/ev4_rtl.h): a test asking for other widths or for
// Mux0Undef = 1 is skipped here; it runs on the reference model and, through the
// parameter sets of `make lint` and the sv_tests, on the RTL's own testbenches.
#include <gtest/gtest.h>

#include "harness/ev4/ev4_rtl.h"

// Declared in csim/ev4/tests/ev4_test_backend.h; a different signature there would not link.
pmu_backend *ev4_test_backend(const ev4_params *p);

pmu_backend *ev4_test_backend(const ev4_params *p)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev4_rtl_new(p, &err);
    if (!b && err.code != PMU_E_UNSUPPORTED)
        ADD_FAILURE() << "ev4_rtl_new: " << err.msg;
    return b;
}
