/*
 * gen_rows.c - the rows every family's .def writes alike (include/common/pmu_def.h: PMU_DEF_REG_KIND,
 * PMU_DEF_EVENT_KIND, PMU_DEF_REG, PMU_DEF_REG_MODEL, PMU_DEF_FIELD), as the definitions generator's tables
 * (include/tools/pmu_gen_defs.h).  The one source for every family: the Makefile compiles it once
 * per family with GEN_DEF naming that family's .def (gen_defs_family), so a family's
 * generator has no tables of its own for these rows.
 */
#include "common/pmu_def.h"
#include "tools/pmu_gen_defs.h"

#ifndef GEN_DEF
#error "compile with -DGEN_DEF='\"common/<family>/<family>_regs.def\"' (Makefile, gen_defs_family)"
#endif

const char gen_family_def[] = "include/" GEN_DEF;

/* Each list ends with an empty row, so that a family without such rows has an empty list. */
static const gen_name_row reg_kinds[] = {
#define PMU_DEF_REG_KIND(name, desc) {#name, desc},
#include GEN_DEF
#undef PMU_DEF_REG_KIND
    {NULL, NULL}};
static const gen_name_row event_kinds[] = {
#define PMU_DEF_EVENT_KIND(name, desc) {#name, desc},
#include GEN_DEF
#undef PMU_DEF_EVENT_KIND
    {NULL, NULL}};

const gen_names gen_reg_kinds = {reg_kinds, sizeof reg_kinds / sizeof reg_kinds[0] - 1};
const gen_names gen_event_kinds = {event_kinds, sizeof event_kinds / sizeof event_kinds[0] - 1};

static const pmu_field_desc fields[] = {
#define PMU_DEF_FIELD PMU_DEF_FIELD_DESC
#include GEN_DEF
#undef PMU_DEF_FIELD
    {NULL, NULL, 0, 0, NULL}};
/* The ACCESS column by name (the family's header, which maps it to its enum, is not
 * included here): a row with another column in its place does not compile. */
#define PMU_COL_ACCESS_ACCESS(a) #a
static const char *const field_access[] = {
#define PMU_DEF_FIELD(reg, name, msb, lsb, access, desc) PMU_COL(ACCESS, access),
#include GEN_DEF
#undef PMU_DEF_FIELD
    NULL};

const pmu_field_desc *const gen_fields = fields;
const char *const *const gen_field_access = field_access;
const unsigned gen_nfields = sizeof fields / sizeof fields[0] - 1;

static const gen_reg regs[] = {
#define PMU_DEF_REG(name, addr, span, access, reset, desc) \
    {#name, PMU_COL(ADDR, addr), PMU_COL(SPAN, span), PMU_COL(ACCESS, access), PMU_COL(RESET, reset), desc},
#include GEN_DEF
#undef PMU_DEF_REG
    {NULL, 0, 0, NULL, 0, NULL}};

const gen_reg *const gen_regs = regs;
const unsigned gen_nregs = sizeof regs / sizeof regs[0] - 1;

/* The MODEL column by name, as ACCESS above. */
#define PMU_COL_MODEL_MODEL(m) #m
static const gen_reg_model reg_models[] = {
#define PMU_DEF_REG_MODEL(reg, model, reset, wmask) \
    {#reg, PMU_COL(MODEL, model), PMU_COL(RESET, reset), PMU_COL(WMASK, wmask)},
#include GEN_DEF
#undef PMU_DEF_REG_MODEL
    {NULL, NULL, 0, 0}};

const gen_reg_model *const gen_reg_models = reg_models;
const unsigned gen_nreg_models = sizeof reg_models / sizeof reg_models[0] - 1;
