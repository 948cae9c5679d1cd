// pmu_vsc_site.h - a family's RTL Verilated with --sc as pmu_rtl_sc (include/pmu_sc.h)
// reaches it, and where it is made: the name of its module inside the part, and the part's
// clock input, whose rising edges time the model's clocks (include/pmu_vsc_glue.h).
#ifndef PMU_VSC_SITE_H
#define PMU_VSC_SITE_H

#include <systemc>

#include "pmu_backend.h"
#include "pmu_err.h"

struct pmu_vsc_site {
    const char *name;
    sc_core::sc_in<bool> *clk;
};

// What a family's --sc RTL offers (systemc/<family>/rtl_sc.cpp defines
// `const pmu_vsc_family pmu_vsc_<family name>`): which of its models were Verilated with
// --sc, and a reset backend of one of them, made at `site`.
struct pmu_vsc_family {
    bool (*has)(unsigned model);
    pmu_backend *(*make)(unsigned model, const pmu_vsc_site &site, pmu_err *err);
};

#endif
