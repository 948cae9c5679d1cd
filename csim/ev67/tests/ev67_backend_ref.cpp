// ev67_backend_ref.cpp - the Alpha 21264/EV67 backend-agnostic tests run on the reference
// model (csim_tests).  Every valid ev67_params has a reference model, so a NULL is a
// failure.
#include <gtest/gtest.h>

#include "csim/ev67/ev67_ref.h"
#include "ev67_test_backend.h"

pmu_backend *ev67_test_backend(const ev67_params *p)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev67_ref_new(p, &err);
    if (!b)
        ADD_FAILURE() << "ev67_ref_new: " << err.msg;
    return b;
}
