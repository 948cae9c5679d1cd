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

// One posedge of clk_i without the scheduler (include/harness/pmu_vlt_glue.h, DirectEdge):
// both tops have one clock trigger (clk_i's posedge or rst_ni's negedge).
PMU_VLT_DIRECT_EDGE(Vita2_pmu)
PMU_VLT_DIRECT_EDGE(Vita_pmu)

// Both are Verilated with ObsPort = 0 (verilator/ita/family.mk): obs_vis_o is 0, and the
// model must find the visible registers in the RTL's `vis` (not fall back to the port).
static_assert(sizeof(Vita2_pmu___024root::ita_pmu__DOT__vis) == ITA_NVIS * sizeof(uint64_t),
              "Vita2_pmu: the RTL's vis array (public) holds the visible registers");
static_assert(sizeof(Vita_pmu___024root::ita_pmu__DOT__vis) == ITA_NVIS * sizeof(uint64_t),
              "Vita_pmu: the RTL's vis array (public) holds the visible registers");

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
