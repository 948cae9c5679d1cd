/*
 * family.c - the Itanium / Itanium 2 PMU family: its descriptor (include/common/pmu_family.h).
 * Everything generic code knows of this family, it learns here.
 */
#include "harness/ita/ita_family.h"

#include "csim/ita/ita_ref.h"
#include "common/ita/ita_regs.h"
#include "harness/ita/ita_rtl.h"

/* The register map from the .def (include/common/pmu_family.h): every register read/write
 * through the port (reserved ones read 0 and ignore writes, as the architecture has
 * them; docs/ita-semantics.md). */
static const pmu_regmap_entry ita_regmap[] = {
#define PMU_DEF_REG(name, addr, span, access, reset, desc) {#name, PMU_COL(ADDR, addr), PMU_COL(SPAN, span), PMU_REG_RW},
#include "common/ita/ita_regs.def"
#undef PMU_DEF_REG
};

static ita_params ita_model_params(unsigned model)
{
    ita_params p = ita_params_default();
    p.model = (ita_model)model;
    return p;
}

static pmu_backend *ita_family_ref(unsigned model, pmu_err *err)
{
    ita_params p = ita_model_params(model);
    return ita_ref_new(&p, err);
}

static pmu_backend *ita_family_rtl(unsigned model, pmu_err *err)
{
    ita_params p = ita_model_params(model);
    return ita_rtl_new(&p, err);
}

const pmu_family pmu_family_itanium = {
    .name = "itanium",
    .title = "Itanium / Itanium 2",
    .models = ita_models,
    .nmodels = ITA_NMODELS,
    .default_model = ITA_MODEL_ITANIUM2,
    .vis = ita_vis_table,
    .nvis = ITA_NVIS,
    .fields = ita_field_table,
    .nfields = ITA_NFIELDS,
    .regmap = ita_regmap,
    .nregmap = sizeof ita_regmap / sizeof ita_regmap[0],
    .dialect = &ita_dialect,
    .ref_create = ita_family_ref,
    .rtl_create = ita_family_rtl,
    .cmds = &ita_family_cmds,
    .wave_layout = ita_wave_layout,
};
