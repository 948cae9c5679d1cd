/* models.c - the models of the Itanium family (include/harness/ita/ita_family.h). */
#include "harness/ita/ita_family.h"
#include "common/ita/ita_regs.h"

const pmu_model_desc ita_models[ITA_NMODELS] = {
    [ITA_MODEL_ITANIUM] = {"itanium", "Itanium"},
    [ITA_MODEL_ITANIUM2] = {"itanium2", "Itanium 2"},
};
