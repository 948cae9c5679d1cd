/*
 * family.c - the Itanium / Itanium 2 PMU family: its descriptor (include/pmu_family.h).
 * Everything generic code knows of this family, it learns here.
 */
#include "ita/ita_family.h"

#include "cmds_internal.h"
#include "ita/pmu_ref.h"
#include "ita/pmu_regs.h"
#include "ita/pmu_rtl.h"

/* The register map from the .def (include/pmu_family.h): every register read/write
 * through the port (reserved ones read 0 and ignore writes, as the architecture has
 * them; docs/semantics.md). */
static const pmu_regmap_entry ita_regmap[] = {
#define PMU_REG(name, space, first, count, role, rst_ita, wm_ita, rst_ita2, wm_ita2, desc)             \
    {#name, PMU_ADDR(PMU_COL(SPACE, space), PMU_COL(FIRST, first)), PMU_COL(COUNT, count), PMU_REG_RW},
#include "ita/ita_regs.def"
#undef PMU_REG
};

static pmu_params ita_params(unsigned model)
{
    pmu_params p = pmu_params_default();
    p.model = (pmu_model)model;
    return p;
}

static pmu_backend *ita_ref_create(unsigned model, pmu_err *err)
{
    pmu_params p = ita_params(model);
    return pmu_ref_new(&p, err);
}

static pmu_backend *ita_rtl_create(unsigned model, pmu_err *err)
{
    pmu_params p = ita_params(model);
    return pmu_rtl_new(&p, err);
}

const pmu_family pmu_family_itanium = {
    .name = "itanium",
    .title = "Itanium / Itanium 2",
    .models = ita_models,
    .nmodels = ITA_NMODELS,
    .default_model = PMU_MODEL_ITANIUM2,
    .vis = pmu_vis_table,
    .nvis = PMU_NVIS,
    .fields = pmu_field_table,
    .nfields = PMU_NFIELDS,
    .regmap = ita_regmap,
    .nregmap = sizeof ita_regmap / sizeof ita_regmap[0],
    .dialect = &pmu_dialect_itanium,
    .ref_create = ita_ref_create,
    .rtl_create = ita_rtl_create,
    .cmds = &ita_family_cmds,
    .wave_layout = ita_wave_layout,
};
