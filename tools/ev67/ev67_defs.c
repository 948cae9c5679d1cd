/* ev67_defs.c - the Alpha 21264/EV67 family's tables, expanded from ev67_regs.def (see
 * ev67_regs.h), and its default parameters.  Every layer links this one object.  The
 * tables read every named column through PMU_COL (include/common/pmu_def.h), so a row with a
 * column out of place does not compile here. */
#include "common/ev67/ev67_regs.h"

#include <stddef.h>
#include <strings.h>

const ev67_reg_desc ev67_reg_table[EV67_NREGS] = {
#define PMU_DEF_REG(name, addr, span, access, reset, desc) \
    {#name, PMU_COL(ADDR, addr), PMU_COL(SPAN, span), PMU_COL(ACCESS, access), PMU_COL(RESET, reset), desc},
#include "common/ev67/ev67_regs.def"
#undef PMU_DEF_REG
};

const pmu_field_desc ev67_field_table[EV67_NFIELDS] = {
#define PMU_DEF_FIELD PMU_DEF_FIELD_DESC
#include "common/ev67/ev67_regs.def"
#undef PMU_DEF_FIELD
};

const ev67_access ev67_field_access[EV67_NFIELDS] = {
#define PMU_DEF_FIELD(reg, name, msb, lsb, access, desc) PMU_COL(ACCESS, access),
#include "common/ev67/ev67_regs.def"
#undef PMU_DEF_FIELD
};

const pmu_vis_desc ev67_vis_table[EV67_NVIS] = {
#define EV67_VIS(reg) {#reg, EV67_ADDR_##reg, #reg},
#include "common/ev67/ev67_regs.def"
#undef EV67_VIS
};

const ev67_sel_desc ev67_sel_table[EV67_NSEL] = {
#define EV67_SEL(mode, sl1, c0, c1, desc) \
    {PMU_COL(MODE, mode), PMU_COL(SL1, sl1), {PMU_COL(CTR0, c0), PMU_COL(CTR1, c1)}, desc},
#include "common/ev67/ev67_regs.def"
#undef EV67_SEL
};

const char *const ev67_kind_names[EV67_NKINDS] = {
#define PMU_DEF_EVENT_KIND(name, desc) #name,
#include "common/ev67/ev67_regs.def"
#undef PMU_DEF_EVENT_KIND
};

static const struct {
    unsigned width;
    uint32_t wmax;
} counter_table[EV67_NCOUNTERS] = {
#define EV67_COUNTER(n, width, wmax, incmax, desc) [n] = {PMU_COL(WIDTH, width), PMU_COL(WMAX, wmax)},
#include "common/ev67/ev67_regs.def"
#undef EV67_COUNTER
};

const char *const ev67_model_names[EV67_NMODELS] = {[EV67_MODEL_21264_EV67] = "21264-ev67"};

int ev67_model_find(const char *name)
{
    for (unsigned m = 0; name && m < EV67_NMODELS; m++)
        if (strcasecmp(name, ev67_model_names[m]) == 0)
            return (int)m;
    return -1;
}

ev67_params ev67_params_default(ev67_model model)
{
    ev67_params p = {model, 1, 0, 1};
    return p;
}

int ev67_params_check(const ev67_params *p, pmu_err *err)
{
    if (!p)
        return pmu_errf(err, PMU_E_INPUT, "params: expected an ev67_params, found NULL");
    if ((unsigned)p->model >= EV67_NMODELS)
        return pmu_errf(err, PMU_E_INPUT, "params.model: expected 0..%u, found %u", EV67_NMODELS - 1,
                        (unsigned)p->model);
    if (p->read_quirk > 1)
        return pmu_errf(err, PMU_E_INPUT, "params.read_quirk: expected 0 or 1, found %u", p->read_quirk);
    if (p->isum_race > 1)
        return pmu_errf(err, PMU_E_INPUT, "params.isum_race: expected 0 or 1, found %u", p->isum_race);
    if (p->park_block > 1)
        return pmu_errf(err, PMU_E_INPUT, "params.park_block: expected 0 or 1, found %u", p->park_block);
    return 0;
}

const ev67_reg_desc *ev67_reg_lookup(uint16_t addr)
{
    for (unsigned r = 0; r < EV67_NREGS; r++)
        if (addr >= ev67_reg_table[r].addr && addr - ev67_reg_table[r].addr < ev67_reg_table[r].span)
            return &ev67_reg_table[r];
    return NULL;
}

static uint64_t field_mask(const pmu_field_desc *d)
{
    unsigned w = d->msb - d->lsb + 1;
    return (w >= 64 ? ~0ull : ((1ull << w) - 1)) << d->lsb;
}

uint64_t ev67_reg_bits_of(unsigned r, ev67_access access)
{
    uint64_t bits = 0;
    if (r >= EV67_NREGS)
        return 0;
    for (unsigned f = 0; f < EV67_NFIELDS; f++)
        if (ev67_field_access[f] == access && strcasecmp(ev67_field_table[f].group, ev67_reg_table[r].name) == 0)
            bits |= field_mask(&ev67_field_table[f]);
    return bits;
}

uint64_t ev67_reg_bits(unsigned r)
{
    uint64_t bits = 0;
    for (unsigned a = 0; a < EV67_NACCESS; a++)
        bits |= ev67_reg_bits_of(r, (ev67_access)a);
    return bits;
}

unsigned ev67_ctr_width(unsigned n) { return n < EV67_NCOUNTERS ? counter_table[n].width : 0; }

uint32_t ev67_ctr_wmax(unsigned n) { return n < EV67_NCOUNTERS ? counter_table[n].wmax : 0; }

int ev67_ctr_near(unsigned n, uint32_t value)
{
    if (n >= EV67_NCOUNTERS)
        return 0;
    return (value & ((1u << counter_table[n].width) - 1)) > counter_table[n].wmax;
}

ev67_kind ev67_sel_kind(unsigned sl0, unsigned sl1, unsigned n)
{
    for (unsigned i = 0; n < EV67_NCOUNTERS && i < EV67_NSEL; i++)
        if (ev67_sel_table[i].mode == sl0 && ev67_sel_table[i].sl1 == sl1)
            return ev67_sel_table[i].ctr[n];
    return EV67_KIND_UNDEF;
}
