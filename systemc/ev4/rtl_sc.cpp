// rtl_sc.cpp - the Alpha 21064 counter block Verilated with --sc (Vev4sc_pmu: the 21064,
// HasPme=1), as the RTL part of the SystemC platform (pmu_rtl_sc, include/sc/pmu_sc.h): the
// model of include/harness/ev4/ev4_vlt_model.h on a shadow of its pins (include/sc/pmu_vsc_glue.h).
#include "Vev4sc_pmu.h"
#include "Vev4sc_pmu_pins.h"
#include "harness/ev4/ev4_vlt_model.h"
#include "sc/pmu_vsc_glue.h"

namespace
{
PMU_VSC_SHADOW(Ev4Shadow, Vev4sc_pmu, VEV4SC_PMU_PINS);
} // namespace

namespace
{
bool has(unsigned model) { return model == EV4_MODEL_21064; }

pmu_backend *make(unsigned model, const pmu_vsc_site &site, pmu_err *err)
{
    const ev4_params p = ev4_params_default(static_cast<ev4_model>(model));
    pmu_vsc::next_site() = &site;
    pmu_backend *b = ev4_vlt::rtl_make<Ev4Shadow, Ev4Shadow>(&p, err); // has() excludes pass 2
    pmu_vsc::next_site() = nullptr;
    return b;
}
} // namespace

extern const pmu_vsc_family pmu_vsc_alpha21064 = {has, make};
