// rtl_backend.cpp - the Verilated rtl/ev67/ev67_pmu.sv behind include/harness/ev67/ev67_rtl.h.
//
// The model of include/harness/ev67/ev67_vlt_model.h on the two variants Verilated with --cc (the
// defaults: Vev67_pmu; without the read quirk: Vev67q0_pmu).
#include "Vev67_pmu.h"
#include "Vev67q0_pmu.h"
#include "Vev67_pmu___024root.h"
#include "Vev67q0_pmu___024root.h"
#include "harness/ev67/ev67_rtl.h"
#include "harness/ev67/ev67_vlt_model.h"

// One posedge of clk_i without the scheduler (include/harness/pmu_vlt_glue.h, DirectEdge):
// both tops have one clock trigger (clk_i's posedge or rst_ni's negedge).
PMU_VLT_DIRECT_EDGE(Vev67_pmu)
PMU_VLT_DIRECT_EDGE(Vev67q0_pmu)

extern "C" pmu_backend *ev67_rtl_new(const ev67_params *p, pmu_err *err)
{
    return ev67_vlt::rtl_make<Vev67_pmu, Vev67q0_pmu>(p, err);
}
