/*
 * family.c - the Alpha 21064 family: its descriptor (include/common/pmu_family.h).  Everything
 * generic code knows of this family, it learns here.  docs/ev4.md is its model of a
 * cycle.
 */
#include "harness/ev4/ev4_family.h"

#include "csim/ev4/ev4_ref.h"
#include "common/ev4/ev4_regs.h"
#include "harness/ev4/ev4_rtl.h"
#include "stream/ev4/ev4_stream.h"

static const pmu_model_desc ev4_models[EV4_NMODELS] = {
    [EV4_MODEL_21064] = {"21064", "Alpha 21064 (pass 3)"},
    [EV4_MODEL_21064_PASS2] = {"21064-pass2", "Alpha 21064 pass 2 (no per-process counting)"},
};

/* The register map from the .def (include/common/pmu_family.h). */
#define EV4_REGMAP_ACCESS(a)                                                                       \
    ((a) == EV4_ACCESS_RW ? PMU_REG_RW : (a) == EV4_ACCESS_RO ? PMU_REG_RO                           \
                                       : (a) == EV4_ACCESS_W0C ? PMU_REG_WO : PMU_REG_OBS)
static const pmu_regmap_entry ev4_regmap[EV4_NREGS] = {
#define PMU_DEF_REG(name, addr, span, access, reset, desc)                                         \
    {#name, PMU_COL(ADDR, addr), PMU_COL(SPAN, span), EV4_REGMAP_ACCESS(PMU_COL(ACCESS, access))},
#include "common/ev4/ev4_regs.def"
#undef PMU_DEF_REG
};

static pmu_backend *ev4_ref_create(unsigned model, pmu_err *err)
{
    ev4_params p = ev4_params_default((ev4_model)model);
    return ev4_ref_new(&p, err);
}

static pmu_backend *ev4_rtl_create(unsigned model, pmu_err *err)
{
    ev4_params p = ev4_params_default((ev4_model)model);
    return ev4_rtl_new(&p, err);
}

const pmu_family pmu_family_alpha21064 = {
    .name = "alpha21064",
    .title = "Alpha 21064",
    .models = ev4_models,
    .nmodels = EV4_NMODELS,
    .default_model = EV4_MODEL_21064,
    .vis = ev4_vis_table,
    .nvis = EV4_NVIS,
    .fields = ev4_field_table,
    .nfields = EV4_NFIELDS,
    .regmap = ev4_regmap,
    .nregmap = EV4_NREGS,
    .dialect = &pmu_dialect_ev4,
    .ref_create = ev4_ref_create,
    .rtl_create = ev4_rtl_create,
    .cmds = &ev4_family_cmds,
};
