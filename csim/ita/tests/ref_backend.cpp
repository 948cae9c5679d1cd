// ref_backend.cpp - csim_tests run on the reference model (ref_test_util.h, reftest_backend).
#include "ref_test_util.h"

pmu_backend *reftest::reftest_backend(const ita_params &p) { return ita_ref_create(&p); }
