/*
 * family.c - the Alpha 21264/EV67 family: its descriptor (include/common/pmu_family.h).
 * Everything generic code knows of this family, it learns here.  docs/ev67.md is its model
 * of a cycle; its command hooks are in cmds.c and its neighbours.
 */
#include "harness/ev67/ev67_family.h"

#include "csim/ev67/ev67_ref.h"
#include "common/ev67/ev67_regs.h"
#include "harness/ev67/ev67_rtl.h"
#include "stream/ev67/ev67_stream.h"

static const pmu_model_desc ev67_models[EV67_NMODELS] = {
    [EV67_MODEL_21264_EV67] = {"21264-ev67", "Alpha 21264/EV67"},
};

/* The register map from the .def (include/common/pmu_family.h); PCTX's index-selected write
 * is a read/write register reached through its span. */
#define EV67_REGMAP_ACCESS(a)                                                                      \
    ((a) == EV67_ACCESS_RW || (a) == EV67_ACCESS_IDXW ? PMU_REG_RW                                  \
     : (a) == EV67_ACCESS_RO                         ? PMU_REG_RO                                  \
     : (a) == EV67_ACCESS_W1C                        ? PMU_REG_WO                                  \
                                                     : PMU_REG_OBS)
static const pmu_regmap_entry ev67_regmap[EV67_NREGS] = {
#define PMU_DEF_REG(name, addr, span, access, reset, desc)                                         \
    {#name, PMU_COL(ADDR, addr), PMU_COL(SPAN, span), EV67_REGMAP_ACCESS(PMU_COL(ACCESS, access))},
#include "common/ev67/ev67_regs.def"
#undef PMU_DEF_REG
};

static pmu_backend *ev67_ref_create(unsigned model, pmu_err *err)
{
    ev67_params p = ev67_params_default((ev67_model)model);
    return ev67_ref_new(&p, err);
}

static pmu_backend *ev67_rtl_create(unsigned model, pmu_err *err)
{
    ev67_params p = ev67_params_default((ev67_model)model);
    return ev67_rtl_new(&p, err);
}

const pmu_family pmu_family_alpha21264 = {
    .name = "alpha21264",
    .title = "Alpha 21264/EV67",
    .models = ev67_models,
    .nmodels = EV67_NMODELS,
    .default_model = EV67_MODEL_21264_EV67,
    .vis = ev67_vis_table,
    .nvis = EV67_NVIS,
    .fields = ev67_field_table,
    .nfields = EV67_NFIELDS,
    .regmap = ev67_regmap,
    .nregmap = EV67_NREGS,
    .dialect = &pmu_dialect_ev67,
    .ref_create = ev67_ref_create,
    .rtl_create = ev67_rtl_create,
    .cmds = &ev67_family_cmds,
};
