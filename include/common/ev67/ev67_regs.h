/*
 * ev67_regs.h - C view of include/common/ev67/ev67_regs.def: the Alpha 21264/EV67 counter
 * block's register-port addresses, field positions, input-select rows, counter widths and
 * legal write maxima, limits and the visible-state list.  Nothing here repeats a
 * position: every constant is expanded from the .def.  docs/ev67.md is the block's
 * normative model of a cycle.
 */
#ifndef EV67_REGS_H
#define EV67_REGS_H

#include <stdint.h>

#include "common/pmu_backend.h"
#include "common/pmu_def.h"
#include "common/pmu_family.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The family's models; the value is the model's index in its pmu_family.models.  The
 * original EV6 (4-bit SL1, eight counter-1 events, no ProfileMe, no PMPC) is not
 * modelled (docs/ev67.md, "Models and parameters"). */
typedef enum ev67_model {
    EV67_MODEL_21264_EV67 = 0, /* "21264-ev67": HRM DS-0028B-TE */
    EV67_NMODELS
} ev67_model;

/* The models' names (the --model values), by ev67_model. */
extern const char *const ev67_model_names[EV67_NMODELS];
/* The model called `name` (case-insensitive), or -1. */
int ev67_model_find(const char *name);

/* Parameters of the counter block.  The RTL takes the same ones as Verilog parameters
 * (ReadQuirk, IsumRace, ParkBlock).  Each flag is 0 or 1. */
typedef struct ev67_params {
    ev67_model model;
    unsigned read_quirk; /* 1: a read of PCTR_CTL shows a disabled counter as value +
                            its last-step increment (HRM §6.10.1); default 1 */
    unsigned isum_race;  /* 1: a read of ISUM returns 0 after a step that raised a new
                            ISUM bit (HRM §5.2.11); default 0 */
    unsigned park_block; /* 1: a disabled counter above its legal write maximum holds
                            back the overflow latch's deliveries (HRM §6.10.1,
                            restriction 32); default 1 */
} ev67_params;

/* The defaults of `model` (docs/ev67.md, "Models and parameters"). */
ev67_params ev67_params_default(ev67_model model);
/* 0 when p is in range; else -1 with err naming the field (PMU_E_INPUT). */
int ev67_params_check(const ev67_params *p, pmu_err *err);

/* The named columns of the .def's rows (include/common/pmu_def.h). */
#define PMU_COL_ACCESS_ACCESS(a) EV67_ACCESS_##a
#define PMU_COL_INDEXBIT_INDEXBIT(x) (x)
#define PMU_COL_WIDTH_WIDTH(x) (x)
#define PMU_COL_WMAX_WMAX(x) (x)
#define PMU_COL_INCMAX_INCMAX(x) (x)
#define PMU_COL_MODE_MODE(x) (x)
#define PMU_COL_SL1_SL1(x) (x)
#define PMU_COL_CTR0_CTR0(k) EV67_KIND_##k
#define PMU_COL_CTR1_CTR1(k) EV67_KIND_##k
#define PMU_COL_VALUE_VALUE(x) (x)

/* How a register or field is accessed: the .def's register kinds (PMU_DEF_REG_KIND). */
#define PMU_DEF_REG_KIND(name, desc) EV67_ACCESS_##name,
typedef enum ev67_access {
#include "ev67_regs.def"
    EV67_NACCESS
} ev67_access;
#undef PMU_DEF_REG_KIND

/* Register-port addresses: EV67_ADDR_<reg> (the first of its span). */
#define PMU_DEF_REG(name, addr, span, access, reset, desc) EV67_ADDR_##name = PMU_COL(ADDR, addr),
enum ev67_addr {
#include "ev67_regs.def"
    EV67_ADDR_END_
};
#undef PMU_DEF_REG

/* Field positions: EV67_F_<reg>_<field>_{LSB,MSB,WIDTH}; EV67_FMASK/FGET/FSET. */
#define PMU_DEF_FIELD(reg, name, msb, lsb, access, desc) PMU_DEF_FIELD_POS(EV67, reg, name, msb, lsb)
enum ev67_field_pos {
#include "ev67_regs.def"
    EV67_F_END_
};
#undef PMU_DEF_FIELD
#define EV67_FMASK(reg, name) PMU_DEF_FMASK(EV67, reg, name)
#define EV67_FGET(v, reg, name) PMU_DEF_FGET(EV67, v, reg, name)
#define EV67_FSET(v, reg, name, x) PMU_DEF_FSET(EV67, v, reg, name, x)

/* Field indexes into ev67_field_table and ev67_field_access. */
#define PMU_DEF_FIELD(reg, name, msb, lsb, access, desc) EV67_FIDX_##reg##_##name,
enum ev67_field_index {
#include "ev67_regs.def"
    EV67_NFIELDS
};
#undef PMU_DEF_FIELD
extern const pmu_field_desc ev67_field_table[EV67_NFIELDS];
extern const ev67_access ev67_field_access[EV67_NFIELDS];

/* Register descriptors, in .def order. */
typedef struct ev67_reg_desc {
    const char *name;
    uint16_t addr;      /* first port address */
    uint16_t span;      /* port addresses addr .. addr + span - 1 reach it */
    ev67_access access;
    uint64_t reset;
    const char *desc;
} ev67_reg_desc;
#define PMU_DEF_REG(name, addr, span, access, reset, desc) EV67_REG_##name,
enum ev67_reg_index {
#include "ev67_regs.def"
    EV67_NREGS
};
#undef PMU_DEF_REG
extern const ev67_reg_desc ev67_reg_table[EV67_NREGS];
/* The register reached at port address addr (any address of its span), or NULL. */
const ev67_reg_desc *ev67_reg_lookup(uint16_t addr);
/* The bits of register r that are its fields (what can read non-zero), and of those the
 * ones of access `access` (e.g. EV67_ACCESS_RW: what a write stores). */
uint64_t ev67_reg_bits(unsigned r);
uint64_t ev67_reg_bits_of(unsigned r, ev67_access access);

/* PCTX field selection: EV67_PCTX_SEL_<field> is the port-address bit that selects it. */
#define EV67_PCTX_SEL(field, bit, desc) EV67_PCTX_SEL_##field = PMU_COL(INDEXBIT, bit),
enum ev67_pctx_sel {
#include "ev67_regs.def"
    EV67_PCTX_SEL_END_
};
#undef EV67_PCTX_SEL

/* Counters: width, legal write maximum, largest increment per step. */
#define EV67_NCOUNTERS 2
#define EV67_COUNTER(n, width, wmax, incmax, desc)                                              \
    EV67_CTR##n##_WIDTH = PMU_COL(WIDTH, width), EV67_CTR##n##_WMAX = PMU_COL(WMAX, wmax),      \
    EV67_CTR##n##_INCMAX = PMU_COL(INCMAX, incmax),
enum ev67_counter_consts {
#include "ev67_regs.def"
    EV67_COUNTER_END_
};
#undef EV67_COUNTER
/* Counter n's width in bits, its legal write maximum (0 for n out of range). */
unsigned ev67_ctr_width(unsigned n);
uint32_t ev67_ctr_wmax(unsigned n);
/* 1 when `value` (masked to the counter's width) is above counter n's legal write
 * maximum: "at the overflow threshold" (docs/ev67.md, "Precautions"). */
int ev67_ctr_near(unsigned n, uint32_t value);

/* Counter inputs: the .def's event kinds (PMU_DEF_EVENT_KIND). */
#define PMU_DEF_EVENT_KIND(name, desc) EV67_KIND_##name,
typedef enum ev67_kind {
#include "ev67_regs.def"
    EV67_NKINDS
} ev67_kind;
#undef PMU_DEF_EVENT_KIND
extern const char *const ev67_kind_names[EV67_NKINDS];

/* Input-select rows (HRM Table 5-16). */
typedef struct ev67_sel_desc {
    unsigned mode;       /* SL0: 0 aggregate, 1 ProfileMe */
    unsigned sl1;        /* 0..3 */
    ev67_kind ctr[EV67_NCOUNTERS];
    const char *desc;
} ev67_sel_desc;
#define EV67_SEL(mode, sl1, c0, c1, desc) +1
enum { EV67_NSEL = 0
#include "ev67_regs.def"
};
#undef EV67_SEL
extern const ev67_sel_desc ev67_sel_table[EV67_NSEL];
/* What counter n counts under SL0 = sl0, SL1 = sl1 (EV67_KIND_UNDEF when out of range). */
ev67_kind ev67_sel_kind(unsigned sl0, unsigned sl1, unsigned n);

/* Limits and timing constants: EV67_LIM_<name>. */
#define EV67_LIMIT(name, value, desc) EV67_LIM_##name = PMU_COL(VALUE, value),
enum ev67_limits {
#include "ev67_regs.def"
    EV67_LIM_END_
};
#undef EV67_LIMIT

/* The ProfileMe machine's phase (OBS_PM.PHASE; docs/ev67.md, "ProfileMe"). */
typedef enum ev67_pm_phase {
    EV67_PM_ARMED = 0,    /* counter 0 counts valid fetched instructions */
    EV67_PM_SELECTED = 1, /* a profiled instruction is followed until its window ends */
    EV67_PM_STOPPED = 2   /* the window ended: nothing counts until PCTR_CTL is written */
} ev67_pm_phase;

/* Visible state compared in lock-step. */
#define EV67_VIS(reg) EV67_VIS_##reg,
enum ev67_vis {
#include "ev67_regs.def"
    EV67_NVIS
};
#undef EV67_VIS
extern const pmu_vis_desc ev67_vis_table[EV67_NVIS];
#if EV67_NVIS > PMU_VIS_MAX
#error "the 21264/EV67 visible state does not fit in pmu_state (PMU_VIS_MAX)"
#endif

/* Counter n counts when I_CTL.PCTn_EN and (I_CTL.SPCE or PCTX.PPCE) (HRM Table 5-15). */
static inline int ev67_ctr_enabled(uint64_t i_ctl, uint64_t pctx, unsigned n)
{
    uint64_t en = n == 0 ? EV67_FGET(i_ctl, I_CTL, PCT0_EN) : EV67_FGET(i_ctl, I_CTL, PCT1_EN);
    return (int)(en & (EV67_FGET(i_ctl, I_CTL, SPCE) | EV67_FGET(pctx, PCTX, PPCE)));
}

/* The interrupt line from the visible OBS_INT (raw requests, mode of the last record) and
 * IER_CM (docs/ev67.md, "Interrupts"): an enabled request, outside PALmode.  Not from
 * the visible ISUM, which the ISUM race may show as 0. */
static inline uint8_t ev67_pmi(uint64_t obs_int, uint64_t ier_cm)
{
    return (uint8_t)((EV67_FGET(obs_int, OBS_INT, REQ) & EV67_FGET(ier_cm, IER_CM, PCEN)) != 0 &&
                     !EV67_FGET(obs_int, OBS_INT, PAL));
}

#ifdef __cplusplus
}
#endif
#endif
