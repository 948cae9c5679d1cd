// pmu_rtl_sc.cpp - the RTL part Verilated with --sc (sc/pmu_sc.h): each family's factory
// (systemc/<family>/rtl_sc.cpp), paired with the family's descriptor by the one registry
// (include/common/pmu_families.def), so that a part finds it by the descriptor it was given.
#include "sc/pmu_sc.h"
#include "sc/pmu_vsc_site.h"

#define PMU_FAMILY(fam)                          \
    extern "C" const pmu_family pmu_family_##fam; \
    extern const pmu_vsc_family pmu_vsc_##fam;
#include "common/pmu_families.def"
#undef PMU_FAMILY

namespace
{

struct vsc_entry {
    const pmu_family *fam;
    const pmu_vsc_family *vsc;
};

const vsc_entry vsc_families[] = {
#define PMU_FAMILY(fam) {&pmu_family_##fam, &pmu_vsc_##fam},
#include "common/pmu_families.def"
#undef PMU_FAMILY
};

const pmu_vsc_family *vsc_of(const pmu_family *f)
{
    for (const vsc_entry &e : vsc_families)
        if (e.fam == f)
            return e.vsc;
    return nullptr;
}

} // namespace

bool pmu_rtl_sc::available(const pmu_family *f, unsigned model)
{
    const pmu_vsc_family *v = vsc_of(f);
    return v && v->has && v->has(model);
}

pmu_rtl_sc::pmu_rtl_sc(sc_core::sc_module_name name, const pmu_family *f, unsigned model,
                       const sc_core::sc_time &access_delay, pmu_err *err)
    : pmu_sc(name, f, nullptr, access_delay, clocking::kInSystemC)
{
    // Made here, while the part is being built, so that its modules and pins are the part's.
    pmu_backend *b = vsc_of(f)->make(model, pmu_vsc_site{"model", &clk, &decoupled_}, err);
    if (b)
        attach(b);
}

pmu_rtl_sc *pmu_rtl_sc::create(sc_core::sc_module_name name, const pmu_family *f, unsigned model,
                               const sc_core::sc_time &access_delay, pmu_err *err)
{
    if (!available(f, model)) {
        pmu_errf(err, PMU_E_UNSUPPORTED, "%s model %s is not Verilated with --sc", f->title, f->models[model].name);
        return nullptr;
    }
    pmu_rtl_sc *part = new pmu_rtl_sc(name, f, model, access_delay, err);
    // A model that could not be made (out of memory) leaves a part the simulation must not
    // start with; SystemC keeps a deleted module's processes, so it is not deleted.
    return part->backend() ? part : nullptr;
}

pmu_rtl_sc::~pmu_rtl_sc() { pmu_destroy(backend()); }
