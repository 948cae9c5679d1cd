/* ita_defs.c - the Itanium family's tables, expanded from ita_regs.def (see pmu_regs.h),
 * and its default model parameters.  Every layer links this one object. */
#include "ita/pmu_regs.h"

#include <stddef.h>

const pmu_reg_desc pmu_reg_table[] = {
#define PMU_REG(name, space, first, count, rst_ita, wm_ita, rst_ita2, wm_ita2, desc) \
    {#name, PMU_SPACE_##space, first, count, {rst_ita, rst_ita2}, {wm_ita, wm_ita2}, desc},
#include "ita/ita_regs.def"
#undef PMU_REG
};
const unsigned pmu_reg_table_len = sizeof pmu_reg_table / sizeof pmu_reg_table[0];

const pmu_field_desc pmu_field_table[PMU_NFIELDS] = {
#define PMU_FIELD(group, name, msb, lsb, desc) {#group, #name, msb, lsb, desc},
#include "ita/ita_regs.def"
#undef PMU_FIELD
};
const unsigned pmu_field_table_len = sizeof pmu_field_table / sizeof pmu_field_table[0];

const pmu_vis_desc pmu_vis_table[PMU_NVIS] = {
#define PMU_VISIBLE(name, space, index, fgroup) {#name, PMU_ADDR(PMU_SPACE_##space, index), #fgroup},
#include "ita/ita_regs.def"
#undef PMU_VISIBLE
};

const pmu_event_desc pmu_event_table[PMU_NEVENTS] = {
#define PMU_EVENT(name, code, code_ita, umask, maxincr, counters, counters_ita, iar, opm, dar, grp, set, desc) \
    {#name, code, umask, maxincr, counters, iar, opm, dar, grp, set, desc, code_ita, counters_ita},
#include "ita/ita_regs.def"
#undef PMU_EVENT
};

const pmu_reg_desc *pmu_reg_lookup(uint16_t addr)
{
    unsigned space = PMU_ADDR_SPACE(addr), index = PMU_ADDR_INDEX(addr);
    for (unsigned i = 0; i < pmu_reg_table_len; i++) {
        const pmu_reg_desc *d = &pmu_reg_table[i];
        if (d->space == space && index >= d->first && index < d->first + d->count)
            return d;
    }
    return NULL;
}

/* The default model parameters (see pmu_regs.h). */

pmu_params pmu_params_default(void)
{
    pmu_params p = {PMU_MODEL_ITANIUM2, 1, 0, 0};
    return p;
}
