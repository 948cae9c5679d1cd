/*
 * common/pmu_def.h - reading a named column of a row of a family's .def.
 *
 * The rows of a family's .def name their columns, e.g.
 *     ITA_EVT(CPU_CYCLES, CODE(0x12), UMASK(0x0), ...)
 * so that a column moved to another place fails the build.  An expansion reads the
 * column it expects in a place with PMU_COL(COLUMN, arg): the column's name is pasted
 * in front of the first token of what the row has in that place,
 *     PMU_COL(CODE, CODE(0x12))  ->  PMU_COL_CODE_CODE(0x12)  ->  (0x12)
 *     PMU_COL(CODE, UMASK(0x0))  ->  PMU_COL_CODE_UMASK(0x0)  ->  defined nowhere
 * and the second one is not a constant, so the family's tables (which read every column)
 * do not compile.  A family defines PMU_COL_<C>_<C>(x) for each of its columns C
 * (include/common/ita/ita_regs.h for the Itanium family).
 *
 * The rows every family's .def (include/<family>/<family>_regs.def) writes alike, under
 * the same names, so that one part of the definitions generator reads them for every
 * family (tools/gen_rows.c, include/tools/pmu_gen_defs.h):
 *
 *   PMU_DEF_REG_KIND(name, description)    the kinds a register row names (the Alpha
 *                                          families' access kinds, the Itanium roles), in
 *                                          the order of the family's enum; a .def's
 *                                          rows between #ifdef PMU_DEF_REG_KIND / #endif
 *   PMU_DEF_EVENT_KIND(name, description)  what one occurrence of an event adds, in the
 *                                          order of the family's enum; a family whose
 *                                          selections can count nothing lists NONE first
 *   PMU_DEF_REG(name, ADDR(a), SPAN(n), ACCESS(access), RESET(r), description)
 *                                          a register of a block reached at the port
 *                                          addresses a .. a + n - 1, of one of the register
 *                                          kinds; r is its reset value (on the family's
 *                                          default model when it has model rows)
 *   PMU_DEF_REG_MODEL(register, MODEL(m), RESET(r), WMASK(w))
 *                                          a register's reset value and writable mask on
 *                                          one model (pmu_family.models), for a family
 *                                          whose models differ there (Itanium / Itanium 2):
 *                                          one row per register and model, and the default
 *                                          model's RESET is the register row's; a write
 *                                          stores (value & w) | (r & ~w).  A .def's rows
 *                                          between #ifdef PMU_DEF_REG_MODEL / #endif
 *   PMU_DEF_FIELD(register, name, MSB(msb), LSB(lsb), ACCESS(access), description)
 *                                          a field of a register (or of a layout group that
 *                                          several registers share); access is one of the
 *                                          register kinds, or REG: the field is written as
 *                                          its register is
 *
 * A family's own rows (registers, fields, counters, events) keep its prefix.
 */
#ifndef PMU_DEF_H
#define PMU_DEF_H

#include <stdint.h>

#define PMU_COL(column, arg) PMU_COL_##column##_##arg

/* The columns of the common rows that are numbers (ACCESS and MODEL are the family's: its
 * enums). */
#define PMU_COL_MSB_MSB(x) (x)
#define PMU_COL_LSB_LSB(x) (x)
#define PMU_COL_ADDR_ADDR(x) (x)
#define PMU_COL_SPAN_SPAN(x) (x)
#define PMU_COL_RESET_RESET(x) (x)
#define PMU_COL_WMASK_WMASK(x) (x)

/* A PMU_DEF_FIELD row as the enumerators P_F_<reg>_<name>_LSB, _MSB and _WIDTH, P the
 * family's prefix; and a field's mask, value and update in a register value by them. */
#define PMU_DEF_FIELD_POS(P, reg, name, msb, lsb)                                                    \
    P##_F_##reg##_##name##_LSB = PMU_COL(LSB, lsb), P##_F_##reg##_##name##_MSB = PMU_COL(MSB, msb), \
    P##_F_##reg##_##name##_WIDTH = PMU_COL(MSB, msb) - PMU_COL(LSB, lsb) + 1,
#define PMU_DEF_FMASK(P, reg, name)                                                                  \
    ((P##_F_##reg##_##name##_WIDTH >= 64 ? ~(uint64_t)0                                              \
                                         : (((uint64_t)1 << (P##_F_##reg##_##name##_WIDTH & 63)) - 1)) \
     << P##_F_##reg##_##name##_LSB)
#define PMU_DEF_FGET(P, v, reg, name) (((uint64_t)(v) & PMU_DEF_FMASK(P, reg, name)) >> P##_F_##reg##_##name##_LSB)
#define PMU_DEF_FSET(P, v, reg, name, x)                                                             \
    (((uint64_t)(v) & ~PMU_DEF_FMASK(P, reg, name)) |                                                \
     (((uint64_t)(x) << P##_F_##reg##_##name##_LSB) & PMU_DEF_FMASK(P, reg, name)))

/* A PMU_DEF_FIELD row as its pmu_field_desc (include/common/pmu_family.h), for a family's table. */
#define PMU_DEF_FIELD_DESC(reg, name, msb, lsb, access, desc) \
    {#reg, #name, PMU_COL(MSB, msb), PMU_COL(LSB, lsb), desc},

#endif
