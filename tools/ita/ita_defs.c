/* ita_defs.c - the Itanium family's tables, expanded from ita_regs.def (see ita_regs.h),
 * and its default model parameters.  Every layer links this one object.  The tables read
 * every named column of the ITA_REG and ITA_EVT rows through PMU_COL (include/common/pmu_def.h),
 * so a row with a column out of place does not compile here. */
#include "common/ita/ita_regs.h"

#include <stddef.h>

const ita_reg_desc ita_reg_table[] = {
#define ITA_REG(name, space, first, count, role, rst_ita, wm_ita, rst_ita2, wm_ita2, desc)             \
    {#name,                                                                                          \
     PMU_COL(SPACE, space),                                                                          \
     PMU_COL(FIRST, first),                                                                          \
     PMU_COL(COUNT, count),                                                                          \
     PMU_COL(ROLE, role),                                                                            \
     {PMU_COL(RESET_ITA, rst_ita), PMU_COL(RESET_ITA2, rst_ita2)},                                   \
     {PMU_COL(WMASK_ITA, wm_ita), PMU_COL(WMASK_ITA2, wm_ita2)},                                     \
     desc},
#include "common/ita/ita_regs.def"
#undef ITA_REG
};
const unsigned ita_reg_table_len = sizeof ita_reg_table / sizeof ita_reg_table[0];

const pmu_field_desc ita_field_table[ITA_NFIELDS] = {
#define PMU_DEF_FIELD PMU_DEF_FIELD_DESC
#include "common/ita/ita_regs.def"
#undef PMU_DEF_FIELD
};
const unsigned ita_field_table_len = sizeof ita_field_table / sizeof ita_field_table[0];

const pmu_vis_desc ita_vis_table[ITA_NVIS] = {
#define ITA_VISIBLE(name, space, index, fgroup) {#name, ITA_ADDR(ITA_SPACE_##space, index), #fgroup},
#include "common/ita/ita_regs.def"
#undef ITA_VISIBLE
};

/* The Itanium 2 modelled rows (ita_regs.h), copied from the full table's rows. */
const ita_event_desc ita_event_table[ITA_NEVENTS] = {
#define ITA_EVT(name, code, umask, type, counters, maxincr, iar, opm, dar, grp, set, kind)         \
    ITA_IF_MODELLED(kind, {#name, PMU_COL(CODE, code), PMU_COL(UMASK, umask), PMU_COL(TYPE, type), \
                           PMU_COL(COUNTERS, counters), PMU_COL(MAXINCR, maxincr), PMU_COL(IAR, iar), \
                           PMU_COL(OPM, opm), PMU_COL(DAR, dar), PMU_COL(GROUP, grp), PMU_COL(SET, set), \
                           PMU_COL(KIND, kind)}, )
#include "common/ita/ita2_events.def"
#undef ITA_EVT
};

const ita_event_row *ita_event_itanium_row(const ita_event_desc *e)
{
    unsigned n;
    const ita_event_row *rows = ita_event_rows(ITA_MODEL_ITANIUM, &n);
    for (unsigned i = 0; i < n; i++)
        if (ita_event_row_modelled(&rows[i]) && rows[i].kind == e->kind && rows[i].umask == e->umask)
            return &rows[i];
    return NULL;
}

static const ita_event_row *model_row(const ita_event_desc *e, ita_model m)
{
    return m == ITA_MODEL_ITANIUM ? ita_event_itanium_row(e) : e;
}

unsigned ita_event_counters(const ita_event_desc *e, ita_model m)
{
    const ita_event_row *r = model_row(e, m);
    return r ? r->counters : 0u;
}

int ita_event_code(const ita_event_desc *e, ita_model m)
{
    const ita_event_row *r = model_row(e, m);
    return r ? r->code : -1;
}

const ita_reg_desc *ita_reg_lookup(uint16_t addr)
{
    unsigned space = ITA_ADDR_SPACE(addr), index = ITA_ADDR_INDEX(addr);
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc *d = &ita_reg_table[i];
        if (d->space == space && index >= d->first && index < d->first + d->count)
            return d;
    }
    return NULL;
}

/* The default model parameters (see ita_regs.h). */

ita_params ita_params_default(void)
{
    ita_params p = {ITA_MODEL_ITANIUM2, 1, 0, 0};
    return p;
}
