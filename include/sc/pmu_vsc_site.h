// sc/pmu_vsc_site.h - a family's RTL Verilated with --sc as pmu_rtl_sc (include/sc/pmu_sc.h)
// reaches it, and where it is made: the name of its module inside the part, and the part's
// clock input, whose rising edges time the model's clocks (include/sc/pmu_vsc_glue.h), and
// whether they do.
#ifndef PMU_VSC_SITE_H
#define PMU_VSC_SITE_H

#include <systemc>

#include "common/pmu_backend.h"
#include "common/pmu_err.h"

struct pmu_vsc_site {
    const char *name;
    sc_core::sc_in<bool> *clk;
    // While true, the model's clocks do not wait for the platform clock's edges: its part is
    // stepped by a caller ahead of SystemC time (the quantum keeper, docs/systemc.md).
    const bool *decoupled;
};

// What a family's --sc RTL offers: which of its models were Verilated with --sc, and a
// reset backend of one of them, made at `site`.  Every family registered in
// include/common/pmu_families.def defines `const pmu_vsc_family pmu_vsc_<family name>`
// (systemc/<family>/rtl_sc.cpp); pmu_rtl_sc reaches it through the same expansion that
// lists the descriptors.  A family with no top Verilated with --sc defines it as
// PMU_VSC_NONE: the platform then runs its --cc model (pmu_rtl_cc_sc).
struct pmu_vsc_family {
    bool (*has)(unsigned model);  // nullptr: no model of the family is Verilated with --sc
    pmu_backend *(*make)(unsigned model, const pmu_vsc_site &site, pmu_err *err);
};

#define PMU_VSC_NONE {nullptr, nullptr}

#endif
