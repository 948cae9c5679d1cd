/* pmu_params.c - the default model parameters (see pmu_backend.h). */
#include "pmu_backend.h"

pmu_params pmu_params_default(void)
{
    pmu_params p = {PMU_MODEL_ITANIUM2, 1, 0, 0};
    return p;
}
