/*
 * gen_defs.h - what a family's part of the definitions generator provides, and the
 * helpers the generic driver (tools/gen_defs.c) offers it.
 *
 * One generator is built per family: tools/gen_defs.c linked with
 * tools/<family>/gen_<family>.c, tools/gen_rows.c compiled with the family's .def and the
 * family's tables.  It writes the family's
 * generated files (the RTL includes under build/gen/<family>/, its register-map
 * document) from the family's .def, so a new family adds its own part and its own
 * outputs without touching another family's.
 */
#ifndef GEN_DEFS_H
#define GEN_DEFS_H

#include <stdint.h>
#include <stdio.h>

#include "common/pmu_err.h"
#include "common/pmu_family.h"

/* One file the family's generator writes. */
typedef struct gen_output {
    const char *name;    /* the file's name, e.g. "ita_defs.vh"; the command's argument */
    const char *what;    /* one line for the usage text */
    const char *comment; /* how the file's language starts a comment: "//", or "<!--" */
    /* Writes the file's text after the banner line (what wrote it, from what) that the
     * driver writes first.  Returns 0, or -1 with err filled when the .def breaks a rule
     * the output relies on (the message names the row). */
    int (*emit)(FILE *out, pmu_err *err);
    /* The file it is written from, when not the family's .def (NULL: gen_family_def). */
    const char *source;
} gen_output;

/* Provided by tools/gen_rows.c, compiled with the family's .def (include/common/pmu_def.h). */
extern const char gen_family_def[]; /* the family's .def, e.g. "include/common/ita/ita_regs.def" */
/* A list of the .def's rows common to every family: names and descriptions, in .def
 * order (the family's enum values). */
typedef struct gen_name_row {
    const char *name, *desc;
} gen_name_row;
typedef struct gen_names {
    const gen_name_row *row;
    unsigned n;
} gen_names;
extern const gen_names gen_reg_kinds;   /* the PMU_DEF_REG_KIND rows */
extern const gen_names gen_event_kinds; /* the PMU_DEF_EVENT_KIND rows */
/* The PMU_DEF_REG rows. */
typedef struct gen_reg {
    const char *name;
    unsigned addr, span;
    const char *access; /* the register kind's name */
    uint64_t reset;
    const char *desc;
} gen_reg;
extern const gen_reg *const gen_regs;
extern const unsigned gen_nregs;
/* The PMU_DEF_REG_MODEL rows. */
typedef struct gen_reg_model {
    const char *reg, *model; /* the register's and the model's names */
    uint64_t reset, wmask;
} gen_reg_model;
extern const gen_reg_model *const gen_reg_models;
extern const unsigned gen_nreg_models;
/* 0 when the model rows are whole: each names a register row and one of models[0..nmodels)
 * (the family's enum order), each register has exactly one row per model, and its RESET
 * is the row of models[default_model]; or when the family has no model rows.  Else -1
 * with err naming the row. */
int gen_check_reg_models(const char *const *models, unsigned nmodels, unsigned default_model, pmu_err *err);
/* The PMU_DEF_FIELD rows, and each one's access by name ("RW", or "REG": as its register). */
extern const pmu_field_desc *const gen_fields;
extern const char *const *const gen_field_access;
extern const unsigned gen_nfields;
/* Entry i's name, or "?" past the end. */
const char *gen_name(const gen_names *l, unsigned i);
/* localparam <decl>[w-1:0] <prefix>_KIND_<name> = w'd<k> of every event kind, w the bits that
 * hold them all; decl is "logic " or "". */
void gen_vh_event_kinds(FILE *out, const char *decl, const char *prefix);
/* The Markdown rows "| name | description |" of l's entries from `first` on. */
void gen_md_names(FILE *out, const gen_names *l, unsigned first);
/* The PMU_DEF_FIELD row `name` of register `reg`, or NULL. */
const pmu_field_desc *gen_def_field(const char *reg, const char *name);
/* A field the RTL reads: its register, its name and its width (0: any). */
typedef struct gen_field_need {
    const char *reg, *name;
    unsigned width;
} gen_field_need;
/* 0 when every PMU_DEF_FIELD row has LSB <= MSB <= 63 and every field of need[0..nneed) is
 * there with its width; or -1 with err naming the row. */
int gen_check_fields(const gen_field_need *need, unsigned nneed, pmu_err *err);
/* 1 when a PMU_DEF_FIELD row has an access of its own (not ACCESS(REG)). */
int gen_fields_own_access(void);
/* The Markdown "Fields" section of the PMU_DEF_FIELD rows (gen_md_fields), with the access
 * column only when a row has an access of its own (not ACCESS(REG)). */
void gen_md_def_fields(FILE *out);

/* The family's outputs, *n of them: provided by tools/<family>/gen_<family>.c, or by
 * tools/gen_block.c for a register block (gen_block below). */
const gen_output *gen_family_outputs(unsigned *n);

/* The text file `path` (read from the repository root) as the C definition
 * `const char symbol[]`, one string literal a line, so that a command can write it out again
 * (e.g. a GTKWave save file beside a waveform).  0, or -1 with err filled. */
int gen_embed_text(FILE *out, const char *symbol, const char *path, pmu_err *err);

/* localparam logic [n*width-1:0] name = {...}: entry k of v[] at [k*width +: width]. */
void gen_packed_table(FILE *out, const char *name, unsigned width, unsigned n, const uint64_t *v);

/* Helpers over a family's field and visible-state tables (include/common/pmu_family.h), shared
 * by the families' generators so that their outputs say the same things alike. */
/* Bits that hold every value below n (at least 1). */
unsigned gen_bits_for(unsigned n);
/* The field's bits in its register. */
uint64_t gen_field_mask(const pmu_field_desc *f);
/* The field `name` of register `reg` in t[0..n), or NULL. */
const pmu_field_desc *gen_field_of(const pmu_field_desc *t, unsigned n, const char *reg, const char *name);
/* <prefix>_F_<reg>_<field>_LSB, _MSB, _W and _MASK localparams of every field. */
void gen_vh_fields(FILE *out, const char *prefix, const pmu_field_desc *t, unsigned n);
/* <prefix>_VIS_<reg> (the index) of every visible register, <prefix>_NVIS, and
 * <prefix>_VIS_ADDR, their addresses as a packed table of addr_w-bit entries. */
void gen_vh_visible(FILE *out, const char *prefix, const pmu_vis_desc *t, unsigned n, unsigned addr_w);
/* The Markdown rows "| # | register | address |" of the visible state. */
void gen_md_visible_rows(FILE *out, const pmu_vis_desc *t, unsigned n);
/* The Markdown "Fields" section: register, field, bits, [access,] meaning; access(i)
 * names field i's access (NULL: no access column). */
void gen_md_fields(FILE *out, const pmu_field_desc *t, unsigned n, const char *(*access)(unsigned i));

/* A register block's three files, as the Alpha families' generators write them
 * (tools/gen_block.c; tools/ev4/gen_ev4.c and tools/ev67/gen_ev67.c): <prefix>_defines.vh
 * (port-width macros), <lower>_defs.vh (localparams) and <lower>-register-map.md.  The
 * registers (PMU_DEF_REG rows) and their fields come first, each written alike: a
 * register's address (in as many hex digits as the highest address needs, at least 2),
 * span (only when a register has more than one address), access, reset, field bits and
 * writable bits (only when the fields have accesses of their own).  The
 * family defines gen_family_block; tools/gen_block.c writes the three files and names them
 * (gen_family_outputs); its rtl/<family>/family.mk links tools/gen_block.c. */
typedef void (*gen_section)(FILE *out);
typedef struct gen_block {
    const char *prefix, *lower; /* "EV4" for names, "ev4" for file names */
    const char *defs_what;      /* what <lower>_defs.vh holds, for the usage text */
    unsigned addr_w;            /* the register port's address width */
    const pmu_vis_desc *vis;    /* the visible state */
    unsigned nvis;
    int (*check)(pmu_err *err);    /* the rules the RTL relies on: 0, or -1 with err */
    gen_section defines;           /* `define lines after <prefix>_ADDR_W and _NVIS */
    const gen_section *vh;         /* <prefix>_defs.vh after the access kinds (the .def's
                                      register kinds, gen_reg_kinds), the registers and the
                                      fields, before the visible state; NULL-terminated */
    const char *md_title;          /* the document's heading and first paragraph */
    const char *md_registers;      /* the Registers section's paragraph, before the access table */
    const gen_section *md;         /* the document after the access and register tables,
                                      before the visible state; NULL-terminated */
    const char *md_visible;        /* the paragraph before the visible-state rows */
} gen_block;
extern const gen_block gen_family_block;

#endif
