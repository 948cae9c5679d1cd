/* ev4_defs.c - the Alpha 21064 family's tables, expanded from ev4_regs.def (see
 * ev4_regs.h), and its default parameters.  Every layer links this one object.  The
 * tables read every named column through PMU_COL (include/common/pmu_def.h), so a row with a
 * column out of place does not compile here. */
#include "common/ev4/ev4_regs.h"

#include <stddef.h>
#include <strings.h>

const ev4_reg_desc ev4_reg_table[EV4_NREGS] = {
#define PMU_DEF_REG(name, addr, span, access, reset, desc) \
    {#name, PMU_COL(ADDR, addr), PMU_COL(ACCESS, access), PMU_COL(RESET, reset), desc},
#include "common/ev4/ev4_regs.def"
#undef PMU_DEF_REG
};

const pmu_field_desc ev4_field_table[EV4_NFIELDS] = {
#define PMU_DEF_FIELD PMU_DEF_FIELD_DESC
#include "common/ev4/ev4_regs.def"
#undef PMU_DEF_FIELD
};

const pmu_vis_desc ev4_vis_table[EV4_NVIS] = {
#define EV4_VIS(reg) {#reg, EV4_ADDR_##reg, #reg},
#include "common/ev4/ev4_regs.def"
#undef EV4_VIS
};

const ev4_mux_desc ev4_mux_table[EV4_NMUX] = {
#define EV4_MUX(ctr, name, code, kind, desc) {ctr, #name, PMU_COL(CODE, code), PMU_COL(KIND, kind), desc},
#include "common/ev4/ev4_regs.def"
#undef EV4_MUX
};

static const struct {
    unsigned width, lng, shrt;
} counter_table[EV4_NCOUNTERS] = {
#define EV4_COUNTER(n, width, lng, shrt, desc) [n] = {PMU_COL(WIDTH, width), PMU_COL(LONG, lng), PMU_COL(SHORT, shrt)},
#include "common/ev4/ev4_regs.def"
#undef EV4_COUNTER
};

const char *const ev4_model_names[EV4_NMODELS] = {[EV4_MODEL_21064] = "21064",
                                                  [EV4_MODEL_21064_PASS2] = "21064-pass2"};

int ev4_model_find(const char *name)
{
    for (unsigned m = 0; name && m < EV4_NMODELS; m++)
        if (strcasecmp(name, ev4_model_names[m]) == 0)
            return (int)m;
    return -1;
}

ev4_params ev4_params_default(ev4_model model)
{
    ev4_params p = {model, counter_table[0].width, counter_table[1].width, EV4_UNDEF_NOTHING};
    return p;
}

const ev4_reg_desc *ev4_reg_lookup(uint16_t addr)
{
    for (unsigned r = 0; r < EV4_NREGS; r++)
        if (ev4_reg_table[r].addr == addr)
            return &ev4_reg_table[r];
    return NULL;
}

uint64_t ev4_reg_bits(unsigned r, ev4_model model)
{
    uint64_t bits = 0;
    if (r >= EV4_NREGS)
        return 0;
    for (unsigned f = 0; f < EV4_NFIELDS; f++) {
        const pmu_field_desc *d = &ev4_field_table[f];
        if (strcasecmp(d->group, ev4_reg_table[r].name) != 0)
            continue;
        bits |= ((d->msb - d->lsb == 63) ? ~0ull : ((1ull << (d->msb - d->lsb + 1)) - 1)) << d->lsb;
    }
    if (r == EV4_REG_ICCSR && !ev4_has_pme(model))
        bits &= ~(EV4_FMASK(ICCSR, PME0) | EV4_FMASK(ICCSR, PME1));
    return bits;
}

unsigned ev4_period_log2(unsigned n, unsigned pc)
{
    if (n >= EV4_NCOUNTERS)
        return 0;
    return pc ? counter_table[n].shrt : counter_table[n].lng;
}

unsigned ev4_ctr_width_min(unsigned n) { return n < EV4_NCOUNTERS ? counter_table[n].lng : 0; }

const ev4_mux_desc *ev4_mux_lookup(unsigned counter, unsigned code)
{
    for (unsigned i = 0; i < EV4_NMUX; i++)
        if (ev4_mux_table[i].counter == counter && ev4_mux_table[i].code == code)
            return &ev4_mux_table[i];
    return NULL;
}

const ev4_mux_desc *ev4_mux_find(const char *name)
{
    if (!name)
        return NULL;
    if (strncasecmp(name, "PF_", 3) == 0)
        name += 3;
    for (unsigned i = 0; i < EV4_NMUX; i++)
        if (strcasecmp(ev4_mux_table[i].name + 3, name) == 0)
            return &ev4_mux_table[i];
    return NULL;
}

ev4_kind ev4_mux_kind(unsigned counter, unsigned code, ev4_mux0_undef undef)
{
    const ev4_mux_desc *m = ev4_mux_lookup(counter, code);
    if (m)
        return m->kind;
    if (counter == 0 && undef == EV4_UNDEF_ALIAS && (m = ev4_mux_lookup(0, code & ~1u)))
        return m->kind;
    return EV4_KIND_NONE;
}
