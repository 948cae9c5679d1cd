// ev4_backend_ref.cpp - the Alpha 21064 backend-agnostic tests run on the reference model
// (csim_tests).  Every valid ev4_params has a reference model, so a NULL is a failure.
#include <gtest/gtest.h>

#include "csim/ev4/ev4_ref.h"
#include "ev4_test_backend.h"

pmu_backend *ev4_test_backend(const ev4_params *p)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev4_ref_new(p, &err);
    if (!b)
        ADD_FAILURE() << "ev4_ref_new: " << err.msg;
    return b;
}
