/*
 * ita_regs.h - C view of include/common/ita/ita_regs.def: register addresses, field
 * positions, reset values, writable masks, the visible-state list and the
 * modelled events.  Nothing here repeats a position: every constant
 * is expanded from the .def file.
 */
#ifndef ITA_REGS_H
#define ITA_REGS_H

#include <stdint.h>

#include "common/pmu_backend.h"
#include "common/pmu_def.h"
#include "common/pmu_family.h"
#include "common/ita/ita_cycle.h"
#include "common/ita/ita_events.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The family's models; the value is the model's index in its pmu_family.models. */
typedef enum ita_model { ITA_MODEL_ITANIUM = 0, ITA_MODEL_ITANIUM2 = 1 } ita_model;
#define ITA_NMODELS 2u

/* Model parameters of the Itanium family.  The RTL takes the same ones as Verilog
 * parameters (rtl/ita/ita_pmu.sv). */
typedef struct ita_params {
    ita_model model;  /* ITA_MODEL_ITANIUM or ITA_MODEL_ITANIUM2 */
    int pmd_sext;     /* 1: PMD bits 63:W read as bit W-1 (Itanium, Itanium 2); 0: read as zero */
    int thr_ge;       /* 0: threshold t adds 1 when n > t (libpfm's reading); 1: when n >= t */
    int fine_2bundle; /* 1: fine-mode ranges have two-bundle granularity (first Itanium 2 steppings) */
} ita_params;

/* Defaults: Itanium 2, sign-extending reads, n > t, one-bundle fine-mode granularity. */
ita_params ita_params_default(void);

/* Register port address: {space[3:0], index[7:0]}. */
#define ITA_SPACE(name, value, desc) ITA_SPACE_##name = (value),
enum ita_space {
#include "ita_regs.def"
    ITA_NSPACES
};
#undef ITA_SPACE
#define ITA_ADDR(space, index) ((uint16_t)(((unsigned)(space) << 8) | ((unsigned)(index) & 0xffu)))
#define ITA_ADDR_SPACE(addr) (((unsigned)(addr) >> 8) & 0xfu)
#define ITA_ADDR_INDEX(addr) ((unsigned)(addr) & 0xffu)
#define ITA_ADDR_BITS 12

/* Field positions: ITA_F_<group>_<name>_{LSB,MSB,WIDTH} and _MASK (in place). */
#define PMU_DEF_FIELD(group, name, msb, lsb, access, desc) PMU_DEF_FIELD_POS(ITA, group, name, msb, lsb)
enum ita_field_pos {
#include "ita_regs.def"
    ITA_F_END_
};
#undef PMU_DEF_FIELD
#define ITA_FMASK(group, name) PMU_DEF_FMASK(ITA, group, name)
#define ITA_FGET(v, group, name) PMU_DEF_FGET(ITA, v, group, name)
#define ITA_FSET(v, group, name, x) PMU_DEF_FSET(ITA, v, group, name, x)

/* The family's named columns of the .def's register rows and the event tables' ITA_EVT rows
 * (include/common/pmu_def.h): a row with another column in a place fails to compile in
 * ita_defs.c, which reads every one. */
#define PMU_COL_ACCESS_ACCESS(role) ITA_ROLE_##role
#define PMU_COL_MODEL_MODEL(model) ITA_MODEL_##model
#define PMU_COL_CODE_CODE(x) (x)
#define PMU_COL_UMASK_UMASK(x) (x)
#define PMU_COL_MAXINCR_MAXINCR(x) (x)
#define PMU_COL_COUNTERS_COUNTERS(x) (x)
#define PMU_COL_IAR_IAR(x) (x)
#define PMU_COL_OPM_OPM(x) (x)
#define PMU_COL_DAR_DAR(x) (x)
#define PMU_COL_GROUP_GROUP(x) (x)
#define PMU_COL_SET_SET(x) (x)
#define PMU_COL_KIND_KIND(kind) ITA_KIND_##kind

/* What implements a register: the .def's register kinds (PMU_DEF_REG_KIND). */
#define PMU_DEF_REG_KIND(name, desc) ITA_ROLE_##name,
typedef enum ita_reg_role {
#include "ita_regs.def"
    ITA_NROLES
} ita_reg_role;
#undef PMU_DEF_REG_KIND

/* The register rows (PMU_DEF_REG), in .def order: ITA_REG_<name> is its index in ita_reg_table. */
#define PMU_DEF_REG(name, addr, span, access, reset, desc) ITA_REG_##name,
enum ita_reg_index {
#include "ita_regs.def"
    ITA_NREGS
};
#undef PMU_DEF_REG

/* Register descriptors, in .def order: the register rows with their model rows
 * (PMU_DEF_REG_MODEL). */
typedef struct ita_reg_desc {
    const char *name;   /* e.g. "PMC6_7" */
    unsigned space;
    unsigned first;     /* first index */
    unsigned count;     /* number of consecutive registers */
    ita_reg_role role;
    uint64_t reset[ITA_NMODELS]; /* by ita_model */
    uint64_t wmask[ITA_NMODELS]; /* by ita_model */
    const char *desc;
} ita_reg_desc;
extern const ita_reg_desc ita_reg_table[ITA_NREGS];
extern const unsigned ita_reg_table_len;
/* Descriptor of the register at addr, or NULL when it is not implemented. */
const ita_reg_desc *ita_reg_lookup(uint16_t addr);

#define PMU_DEF_FIELD(group, name, msb, lsb, access, desc) ITA_FIDX_##group##_##name,
enum ita_field_index {
#include "ita_regs.def"
    ITA_NFIELDS
};
#undef PMU_DEF_FIELD
extern const pmu_field_desc ita_field_table[ITA_NFIELDS];
extern const unsigned ita_field_table_len;

/* Visible state compared in lock-step. */
#define ITA_VISIBLE(name, space, index, fgroup) ITA_VIS_##name,
enum ita_vis {
#include "ita_regs.def"
    ITA_NVIS
};
#undef ITA_VISIBLE
extern const pmu_vis_desc ita_vis_table[ITA_NVIS];

#if ITA_NVIS > PMU_VIS_MAX
#error "the Itanium visible state does not fit in pmu_state (PMU_VIS_MAX)"
#endif

/* What one occurrence of an event is: the .def's event kinds (PMU_DEF_EVENT_KIND), the
 * first, ITA_KIND_NONE = 0, counting nothing. */
#define PMU_DEF_EVENT_KIND(name, desc) ITA_KIND_##name,
typedef enum ita_event_kind {
#include "ita_regs.def"
    ITA_NKINDS
} ita_event_kind;
#undef PMU_DEF_EVENT_KIND
/* The .def lists NONE first: a zeroed row counts nothing. */
typedef char pmu_kind_none_is_first[ITA_KIND_NONE == 0 ? 1 : -1];

/* The modelled events: the events the hardware derives from the cycle record, i.e. the
 * rows of a model's full table (include/common/ita/ita_events.h) whose KIND is not NONE.  The
 * table is the one source: ita_event_table lists the Itanium 2 modelled rows (ITA_EV_<name>
 * is a row's index), and an event's Itanium counterpart is the Itanium modelled row of the
 * same kind and umask (e.g. L1I_EAR_EVENTS is INSTRUCTION_EAR_EVENTS there); an event
 * without one is not implemented on Itanium.  docs/architecture.md, "Modelled events". */
#define ITA_PP_SECOND_(a, b, ...) b
#define ITA_PP_SECOND(...) ITA_PP_SECOND_(__VA_ARGS__, ~)
#define ITA_PP_PROBE_NONE ~, 0
#define ITA_PP_KIND_KIND(k) k
#define ITA_PP_MODELLED_(k) ITA_PP_SECOND(ITA_PP_PROBE_##k, 1)
#define ITA_PP_MODELLED(k) ITA_PP_MODELLED_(k)
#define ITA_PP_IF_0(...)
#define ITA_PP_IF_1(...) __VA_ARGS__
#define ITA_PP_IF__(c) ITA_PP_IF_##c
#define ITA_PP_IF_(c) ITA_PP_IF__(c)
/* Expands to the remaining arguments when a ITA_EVT row's KIND(kind) column is not NONE. */
#define ITA_IF_MODELLED(kind, ...) ITA_PP_IF_(ITA_PP_MODELLED(ITA_PP_KIND_##kind))(__VA_ARGS__)

#define ITA_EVT(name, code, umask, type, counters, maxincr, iar, opm, dar, grp, set, kind) \
    ITA_IF_MODELLED(kind, ITA_EV_##name, )
enum ita_event_id {
#include "ita2_events.def"
    ITA_NEVENTS
};
#undef ITA_EVT
typedef ita_event_row ita_event_desc;
extern const ita_event_desc ita_event_table[ITA_NEVENTS];
/* The Itanium modelled row that stands for Itanium 2 modelled event `e` (same kind and
 * umask), or NULL when Itanium does not implement it. */
const ita_event_row *ita_event_itanium_row(const ita_event_desc *e);
/* The counters the event is wired to on a model (bit i = PMCi): its row's counter mask
 * (0 when the model does not implement it). */
unsigned ita_event_counters(const ita_event_desc *e, ita_model m);
/* The event's code on a model, or -1 when the model does not implement it. */
int ita_event_code(const ita_event_desc *e, ita_model m);
/* A model's modelled rows are its table's rows with a kind (ita_event_rows). */
static inline int ita_event_row_modelled(const ita_event_row *r) { return r->kind != ITA_KIND_NONE; }

/* Counter width in bits for a model (Itanium 32, Itanium 2 47). */
static inline unsigned ita_counter_width(ita_model m) { return m == ITA_MODEL_ITANIUM ? 32u : 47u; }
#define ITA_FIRST_COUNTER 4
#define ITA_NCOUNTERS 4

#ifdef __cplusplus
}
#endif
#endif
