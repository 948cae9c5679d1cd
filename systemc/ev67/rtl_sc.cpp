// rtl_sc.cpp - the Alpha 21264/EV67 counter block Verilated with --sc (Vev67sc_pmu: the
// defaults, ReadQuirk=1 IsumRace=0 ParkBlock=1), as the RTL part of the SystemC platform
// (pmu_rtl_sc, include/sc/pmu_sc.h): the model of include/harness/ev67/ev67_vlt_model.h on a shadow of
// its pins (include/sc/pmu_vsc_glue.h).
#include "Vev67sc_pmu.h"
#include "Vev67sc_pmu_pins.h"
#include "harness/ev67/ev67_vlt_model.h"
#include "sc/pmu_vsc_glue.h"

namespace
{
PMU_VSC_SHADOW(Ev67Shadow, Vev67sc_pmu, VEV67SC_PMU_PINS);

// The family's models at their default parameters (ev67_params_default), as
// pmu_family.rtl_create makes them: the defaults were Verilated with --sc.
bool has(unsigned model)
{
    const ev67_params p = ev67_params_default(static_cast<ev67_model>(model));
    const ev67_params built = ev67_params_default(EV67_MODEL_21264_EV67);
    return p.read_quirk == built.read_quirk && p.isum_race == built.isum_race && p.park_block == built.park_block;
}

pmu_backend *make(unsigned model, const pmu_vsc_site &site, pmu_err *err)
{
    const ev67_params p = ev67_params_default(static_cast<ev67_model>(model));
    pmu_vsc::next_site() = &site;
    pmu_backend *b = ev67_vlt::rtl_make<Ev67Shadow, Ev67Shadow>(&p, err); // has(): the quirk's on
    pmu_vsc::next_site() = nullptr;
    return b;
}
} // namespace

extern const pmu_vsc_family pmu_vsc_alpha21264 = {has, make};
