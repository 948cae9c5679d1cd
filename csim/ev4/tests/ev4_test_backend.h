// ev4_test_backend.h - the backend the Alpha 21064 counter-block tests run on, chosen at
// link time: the reference model (ev4_backend_ref.cpp, in csim_tests) or, later, the
// Verilated RTL with the same test objects.
#ifndef EV4_TEST_BACKEND_H
#define EV4_TEST_BACKEND_H

#include "common/ev4/ev4_regs.h"

// A reset backend with parameters p, or NULL when this backend has no variant for them
// (the test is then skipped).  A backend that should have one reports a test failure.
pmu_backend *ev4_test_backend(const ev4_params *p);

#endif
