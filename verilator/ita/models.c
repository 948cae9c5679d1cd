/* models.c - the models of the Itanium family (include/ita/ita_family.h). */
#include "ita/ita_family.h"
#include "ita/ita_regs.h"

const pmu_model_desc ita_models[ITA_NMODELS] = {
    [ITA_MODEL_ITANIUM] = {"itanium", "Itanium"},
    [ITA_MODEL_ITANIUM2] = {"itanium2", "Itanium 2"},
};
