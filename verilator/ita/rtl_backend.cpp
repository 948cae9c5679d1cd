// rtl_backend.cpp - the Verilated rtl/ita/ita_pmu.sv behind include/harness/ita/ita_rtl.h.
//
// The model of include/harness/ita/ita_vlt_model.h on the two variants Verilated with --cc
// (Itanium 2: Vita2_pmu, Itanium: Vita_pmu).
#include <cstdio>

#include "Vita2_pmu.h"
#include "Vita_pmu.h"
#include "Vita2_pmu___024root.h"
#include "Vita_pmu___024root.h"
#include "harness/ita/ita_vlt_model.h"
#include "harness/ita/ita_rtl.h"

extern "C" pmu_backend *ita_rtl_create(const ita_params *p, char *err, size_t errlen)
{
    pmu_err e;
    pmu_backend *b = ita_rtl_new(p, &e);
    if (!b && err && errlen) std::snprintf(err, errlen, "%s", e.msg);
    return b;
}

extern "C" pmu_backend *ita_rtl_new(const ita_params *p, pmu_err *err)
{
    return ita_vlt::rtl_make<Vita2_pmu, Vita_pmu>(p, err);
}
