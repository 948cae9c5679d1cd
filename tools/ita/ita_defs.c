/* ita_defs.c - the Itanium family's tables, expanded from ita_regs.def (see ita_regs.h),
 * and its default model parameters.  Every layer links this one object.  The tables read
 * every named column of the register, register-model and ITA_EVT rows through PMU_COL
 * (include/common/pmu_def.h), so a row with a column out of place does not compile here. */
#include "common/ita/ita_regs.h"

#include <stddef.h>

/* A register row fills its entry's address, role and description, and each of its model rows
 * (another part of the .def) that model's reset value and writable mask: every member is
 * named once, so a model row given twice is a compiler warning (-Woverride-init).  The
 * generator (tools/gen_defs.c, tools/ita/gen_ita.c) reads the rows too, RESET of the
 * register rows included, and fails the build on a model row left out or given twice, or a
 * register row's RESET that is not its Itanium 2 row's. */
const ita_reg_desc ita_reg_table[ITA_NREGS] = {
#define PMU_DEF_REG(reg, addr, span, access, reset, text)                                            \
    [ITA_REG_##reg].name = #reg, [ITA_REG_##reg].space = ITA_ADDR_SPACE(PMU_COL(ADDR, addr)),        \
    [ITA_REG_##reg].first = ITA_ADDR_INDEX(PMU_COL(ADDR, addr)),                                   \
    [ITA_REG_##reg].count = PMU_COL(SPAN, span), [ITA_REG_##reg].role = PMU_COL(ACCESS, access),   \
    [ITA_REG_##reg].desc = text,
#define PMU_DEF_REG_MODEL(reg, model, rst, wm)                                                      \
    [ITA_REG_##reg].reset[PMU_COL(MODEL, model)] = PMU_COL(RESET, rst),                             \
    [ITA_REG_##reg].wmask[PMU_COL(MODEL, model)] = PMU_COL(WMASK, wm),
#include "common/ita/ita_regs.def"
#undef PMU_DEF_REG_MODEL
#undef PMU_DEF_REG
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
