// rtl_sc.cpp - the Itanium 2 PMU Verilated with --sc (Vita2sc_pmu: Model=1, PmdSext=1,
// ThrGe=0, FineGran2=0), as the RTL part of the SystemC platform (pmu_rtl_sc,
// include/sc/pmu_sc.h): the model of include/harness/ita/ita_vlt_model.h on a shadow of its pins
// (include/sc/pmu_vsc_glue.h).  The Itanium is the --cc model on the platform.
#include "Vita2sc_pmu.h"
#include "Vita2sc_pmu_pins.h"
#include "harness/ita/ita_vlt_model.h"
#include "sc/pmu_vsc_glue.h"

namespace
{
PMU_VSC_SHADOW(Ita2Shadow, Vita2sc_pmu, VITA2SC_PMU_PINS);

bool has(unsigned model) { return model == ITA_MODEL_ITANIUM2; }

pmu_backend *make(unsigned model, const pmu_vsc_site &site, pmu_err *err)
{
    ita_params p = ita_params_default(); // as pmu_family.rtl_create makes it
    p.model = static_cast<ita_model>(model);
    pmu_vsc::next_site() = &site;
    pmu_backend *b = ita_vlt::rtl_make<Ita2Shadow, Ita2Shadow>(&p, err); // has(): Itanium 2 only
    pmu_vsc::next_site() = nullptr;
    return b;
}
} // namespace

extern const pmu_vsc_family pmu_vsc_itanium = {has, make};
