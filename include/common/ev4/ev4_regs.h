/*
 * ev4_regs.h - C view of include/common/ev4/ev4_regs.def: the Alpha 21064 counter block's
 * register-port addresses, field positions, mux codes, counter widths and periods, and
 * the visible-state list.  Nothing here repeats a position: every constant is expanded
 * from the .def.  docs/ev4.md is the block's model of a cycle.
 */
#ifndef EV4_REGS_H
#define EV4_REGS_H

#include <stdint.h>

#include "common/pmu_backend.h"
#include "common/pmu_def.h"
#include "common/pmu_family.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The family's models; the value is the model's index in its pmu_family.models. */
typedef enum ev4_model {
    EV4_MODEL_21064 = 0,       /* pass 3 and later: ICCSR PME0/PME1 gate the counters */
    EV4_MODEL_21064_PASS2 = 1, /* pass 2: no PME bits, the counters always count (pfm(7) NOTES) */
    EV4_NMODELS
} ev4_model;

/* The models' names (the --model values), by ev4_model. */
extern const char *const ev4_model_names[EV4_NMODELS];
/* The model called `name` (case-insensitive), or -1. */
int ev4_model_find(const char *name);

/* What an undefined mux0 code counts (docs/ev4.md, "Undefined mux codes"). */
typedef enum ev4_mux0_undef {
    EV4_UNDEF_NOTHING = 0, /* counts nothing (default) */
    EV4_UNDEF_ALIAS = 1    /* counts what the code with bit 0 cleared counts */
} ev4_mux0_undef;

/* Parameters of the counter block.  The RTL takes the same ones as Verilog parameters
 * (rtl/ev4/ev4_pmu.sv: HasPme, Ctr0Width, Ctr1Width, Mux0Undef). */
typedef struct ev4_params {
    ev4_model model;
    unsigned ctr0_width;      /* EV4_CTR_WIDTH_MIN(0) .. EV4_CTR_WIDTH_MAX; default 16 */
    unsigned ctr1_width;      /* EV4_CTR_WIDTH_MIN(1) .. EV4_CTR_WIDTH_MAX; default 12 */
    ev4_mux0_undef mux0_undef;
} ev4_params;

/* The defaults of `model`: the .def's counter widths, undefined codes count nothing. */
ev4_params ev4_params_default(ev4_model model);
/* 1 when the model has the PME bits. */
static inline int ev4_has_pme(ev4_model m) { return m == EV4_MODEL_21064; }

/* The named columns of the .def's rows (include/common/pmu_def.h). */
#define PMU_COL_ACCESS_ACCESS(a) EV4_ACCESS_##a
#define PMU_COL_WIDTH_WIDTH(x) (x)
#define PMU_COL_LONG_LONG(x) (x)
#define PMU_COL_SHORT_SHORT(x) (x)
#define PMU_COL_CODE_CODE(x) (x)
#define PMU_COL_KIND_KIND(k) EV4_KIND_##k

/* How a register is accessed: the .def's register kinds (PMU_DEF_REG_KIND). */
#define PMU_DEF_REG_KIND(name, desc) EV4_ACCESS_##name,
typedef enum ev4_access {
#include "ev4_regs.def"
    EV4_NACCESS
} ev4_access;
#undef PMU_DEF_REG_KIND

/* Register-port addresses: EV4_ADDR_<reg>. */
#define PMU_DEF_REG(name, addr, span, access, reset, desc) EV4_ADDR_##name = PMU_COL(ADDR, addr),
enum ev4_addr {
#include "ev4_regs.def"
    EV4_ADDR_END_
};
#undef PMU_DEF_REG

/* Field positions: EV4_F_<reg>_<field>_{LSB,MSB,WIDTH}; EV4_FMASK/FGET/FSET. */
#define PMU_DEF_FIELD(reg, name, msb, lsb, access, desc) PMU_DEF_FIELD_POS(EV4, reg, name, msb, lsb)
enum ev4_field_pos {
#include "ev4_regs.def"
    EV4_F_END_
};
#undef PMU_DEF_FIELD
#define EV4_FMASK(reg, name) PMU_DEF_FMASK(EV4, reg, name)
#define EV4_FGET(v, reg, name) PMU_DEF_FGET(EV4, v, reg, name)
#define EV4_FSET(v, reg, name, x) PMU_DEF_FSET(EV4, v, reg, name, x)

/* Field indexes into ev4_field_table. */
#define PMU_DEF_FIELD(reg, name, msb, lsb, access, desc) EV4_FIDX_##reg##_##name,
enum ev4_field_index {
#include "ev4_regs.def"
    EV4_NFIELDS
};
#undef PMU_DEF_FIELD
extern const pmu_field_desc ev4_field_table[EV4_NFIELDS];

/* Register descriptors, in .def order. */
typedef struct ev4_reg_desc {
    const char *name;
    uint16_t addr;
    ev4_access access;
    uint64_t reset;
    const char *desc;
} ev4_reg_desc;
#define PMU_DEF_REG(name, addr, span, access, reset, desc) EV4_REG_##name,
enum ev4_reg_index {
#include "ev4_regs.def"
    EV4_NREGS
};
#undef PMU_DEF_REG
extern const ev4_reg_desc ev4_reg_table[EV4_NREGS];
/* The register at addr, or NULL when none is there. */
const ev4_reg_desc *ev4_reg_lookup(uint16_t addr);
/* The bits of register r that are its fields on `model` (ICCSR without PME0/PME1 on a
 * model without them): what a write stores and what can read non-zero. */
uint64_t ev4_reg_bits(unsigned r, ev4_model model);

/* Counters: widths and periods. */
#define EV4_NCOUNTERS 2
#define EV4_CTR_WIDTH_MAX 32
#define EV4_COUNTER(n, width, lng, shrt, desc)                                                   \
    EV4_CTR##n##_WIDTH = PMU_COL(WIDTH, width), EV4_CTR##n##_LONG = PMU_COL(LONG, lng),          \
    EV4_CTR##n##_SHORT = PMU_COL(SHORT, shrt),
enum ev4_counter_consts {
#include "ev4_regs.def"
    EV4_COUNTER_END_
};
#undef EV4_COUNTER
/* log2 of counter n's period when its PCn bit is `pc`; the smallest legal width. */
unsigned ev4_period_log2(unsigned n, unsigned pc);
unsigned ev4_ctr_width_min(unsigned n);

/* What a mux selection adds per cycle: the .def's event kinds (PMU_DEF_EVENT_KIND), the
 * first, EV4_KIND_NONE = 0, counting nothing (an undefined code). */
#define PMU_DEF_EVENT_KIND(name, desc) EV4_KIND_##name,
typedef enum ev4_kind {
#include "ev4_regs.def"
    EV4_NKINDS
} ev4_kind;
#undef PMU_DEF_EVENT_KIND
/* The .def lists NONE first: a zeroed selection counts nothing. */
typedef char ev4_kind_none_is_first[EV4_KIND_NONE == 0 ? 1 : -1];

/* Mux codes: EV4_MUX_<name> is the code (PF_ISSUES ... for counter 0, PF_DCACHE ... for 1). */
#define EV4_MUX(ctr, name, code, kind, desc) EV4_MUX_##name = PMU_COL(CODE, code),
enum ev4_mux_code {
#include "ev4_regs.def"
    EV4_MUX_END_
};
#undef EV4_MUX
typedef struct ev4_mux_desc {
    unsigned counter;
    const char *name;   /* "PF_ISSUES" */
    unsigned code;
    ev4_kind kind;
    const char *desc;
} ev4_mux_desc;
#define EV4_MUX(ctr, name, code, kind, desc) EV4_MUXIDX_##name,
enum ev4_mux_index {
#include "ev4_regs.def"
    EV4_NMUX
};
#undef EV4_MUX
extern const ev4_mux_desc ev4_mux_table[EV4_NMUX];
/* The row of code `code` of counter `counter`, or NULL when the code is undefined. */
const ev4_mux_desc *ev4_mux_lookup(unsigned counter, unsigned code);
/* The row called `name` (case-insensitive, "PF_" optional), or NULL. */
const ev4_mux_desc *ev4_mux_find(const char *name);
/* What code `code` of counter `counter` counts under the parameters (undefined codes:
 * EV4_KIND_NONE, or their alias with Mux0Undef = EV4_UNDEF_ALIAS). */
ev4_kind ev4_mux_kind(unsigned counter, unsigned code, ev4_mux0_undef undef);

/* Visible state compared in lock-step. */
#define EV4_VIS(reg) EV4_VIS_##reg,
enum ev4_vis {
#include "ev4_regs.def"
    EV4_NVIS
};
#undef EV4_VIS
extern const pmu_vis_desc ev4_vis_table[EV4_NVIS];
#if EV4_NVIS > PMU_VIS_MAX
#error "the 21064 visible state does not fit in pmu_state (PMU_VIS_MAX)"
#endif

/* The interrupt line from the visible HIRR and HIER: a request whose enable is set. */
static inline uint8_t ev4_pmi(uint64_t hirr, uint64_t hier)
{
    return (uint8_t)((EV4_FGET(hirr, HIRR, PC0) & EV4_FGET(hier, HIER, PC0)) |
                     (EV4_FGET(hirr, HIRR, PC1) & EV4_FGET(hier, HIER, PC1)));
}

#ifdef __cplusplus
}
#endif
#endif
