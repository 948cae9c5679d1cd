// rtl_backend.cpp - the Verilated rtl/ev4/ev4_pmu.sv behind include/harness/ev4/ev4_rtl.h.
//
// The model of include/harness/ev4/ev4_vlt_model.h on the two variants Verilated with --cc (the
// 21064: Vev4_pmu, HasPme=1; the 21064-pass2: Vev4p2_pmu, HasPme=0).
#include "Vev4_pmu.h"
#include "Vev4p2_pmu.h"
#include "Vev4_pmu___024root.h"
#include "Vev4p2_pmu___024root.h"
#include "harness/ev4/ev4_rtl.h"
#include "harness/ev4/ev4_vlt_model.h"

// One posedge of clk_i without the scheduler (include/harness/pmu_vlt_glue.h, DirectEdge):
// both tops have one clock trigger (clk_i's posedge or rst_ni's negedge).
PMU_VLT_DIRECT_EDGE(Vev4_pmu)
PMU_VLT_DIRECT_EDGE(Vev4p2_pmu)

extern "C" pmu_backend *ev4_rtl_new(const ev4_params *p, pmu_err *err)
{
    return ev4_vlt::rtl_make<Vev4_pmu, Vev4p2_pmu>(p, err);
}
