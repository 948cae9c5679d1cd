// ev67_rtl_backend_for_unit_tests.cpp - runs the Alpha 21264/EV67 counter-block tests
// written for the reference model (csim/ev67/tests/test_ev67_regs.cpp,
// test_ev67_counting.cpp, test_ev67_irq.cpp, test_ev67_profileme.cpp: registers, every
// input row, the catch-up, ProfileMe windows and their ends, the precautions; every
// expectation written by hand from docs/ev67.md) on the Verilated RTL instead
// (csim/ev67/tests/ev67_test_backend.h).  A test asking for parameters no Verilated
// variant was built for (include/harness/ev67/ev67_rtl.h) is skipped here; it runs on the
// reference model.
#include <gtest/gtest.h>

#include "harness/ev67/ev67_rtl.h"

// Declared in csim/ev67/tests/ev67_test_backend.h; a different signature there would not link.
pmu_backend *ev67_test_backend(const ev67_params *p);

pmu_backend *ev67_test_backend(const ev67_params *p)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev67_rtl_new(p, &err);
    if (!b && err.code != PMU_E_UNSUPPORTED)
        ADD_FAILURE() << "ev67_rtl_new: " << err.msg;
    return b;
}
