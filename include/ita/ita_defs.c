/* ita_defs.c - the Itanium family's tables, expanded from ita_regs.def (see pmu_regs.h),
 * and its default model parameters.  Every layer links this one object.  The tables read
 * every named column of the PMU_REG and PMU_EVT rows through PMU_COL (include/pmu_def.h),
 * so a row with a column out of place does not compile here. */
#include "ita/pmu_regs.h"

#include <stddef.h>

const pmu_reg_desc pmu_reg_table[] = {
#define PMU_REG(name, space, first, count, role, rst_ita, wm_ita, rst_ita2, wm_ita2, desc)             \
    {#name,                                                                                          \
     PMU_COL(SPACE, space),                                                                          \
     PMU_COL(FIRST, first),                                                                          \
     PMU_COL(COUNT, count),                                                                          \
     PMU_COL(ROLE, role),                                                                            \
     {PMU_COL(RESET_ITA, rst_ita), PMU_COL(RESET_ITA2, rst_ita2)},                                   \
     {PMU_COL(WMASK_ITA, wm_ita), PMU_COL(WMASK_ITA2, wm_ita2)},                                     \
     desc},
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

/* The Itanium 2 modelled rows (pmu_regs.h), copied from the full table's rows. */
const pmu_event_desc pmu_event_table[PMU_NEVENTS] = {
#define PMU_EVT(name, code, umask, type, counters, maxincr, iar, opm, dar, grp, set, kind)         \
    PMU_IF_MODELLED(kind, {#name, PMU_COL(CODE, code), PMU_COL(UMASK, umask), PMU_COL(TYPE, type), \
                           PMU_COL(COUNTERS, counters), PMU_COL(MAXINCR, maxincr), PMU_COL(IAR, iar), \
                           PMU_COL(OPM, opm), PMU_COL(DAR, dar), PMU_COL(GROUP, grp), PMU_COL(SET, set), \
                           PMU_COL(KIND, kind)}, )
#include "ita/ita2_events.def"
#undef PMU_EVT
};

const ita_event_row *pmu_event_itanium_row(const pmu_event_desc *e)
{
    unsigned n;
    const ita_event_row *rows = ita_event_rows(PMU_MODEL_ITANIUM, &n);
    for (unsigned i = 0; i < n; i++)
        if (pmu_event_row_modelled(&rows[i]) && rows[i].kind == e->kind && rows[i].umask == e->umask)
            return &rows[i];
    return NULL;
}

static const ita_event_row *model_row(const pmu_event_desc *e, pmu_model m)
{
    return m == PMU_MODEL_ITANIUM ? pmu_event_itanium_row(e) : e;
}

unsigned pmu_event_counters(const pmu_event_desc *e, pmu_model m)
{
    const ita_event_row *r = model_row(e, m);
    return r ? r->counters : 0u;
}

int pmu_event_code(const pmu_event_desc *e, pmu_model m)
{
    const ita_event_row *r = model_row(e, m);
    return r ? r->code : -1;
}

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
