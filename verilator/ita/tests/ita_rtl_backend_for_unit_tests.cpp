// ita_rtl_backend_for_unit_tests.cpp - runs the reference model's EAR, BTB and general-event
// tests (csim/ita/tests/test_ear.cpp, test_btb.cpp, test_xev.cpp: registers written and
// read, cycle records stepped, every expectation written by hand from docs/ita-ear-btb.md) on
// the Verilated RTL instead (csim/ita/tests/ref_test_util.h, reftest_backend).
#include <cstdio>
#include <cstdlib>

#include "harness/ita/ita_rtl.h"

// Declared in csim/ita/tests/ref_test_util.h; a different signature there would not link.
namespace reftest {
pmu_backend *reftest_backend(const ita_params &p);
}

pmu_backend *reftest::reftest_backend(const ita_params &p)
{
    char err[256] = "";
    pmu_backend *b = ita_rtl_create(&p, err, sizeof err);
    if (!b) {
        std::fprintf(stderr, "rtl_unit_tests: %s\n", err);
        std::exit(2);
    }
    return b;
}
