/*
 * gen_defs.h - what a family's part of the definitions generator provides, and the
 * helpers the generic driver (tools/gen_defs.c) offers it.
 *
 * One generator is built per family: tools/gen_defs.c linked with
 * tools/<family>/gen_<family>.c and the family's tables.  It writes the family's
 * generated files (the RTL includes under build/gen/<family>/, its register-map
 * document) from the family's .def, so a new family adds its own part and its own
 * outputs without touching another family's.
 */
#ifndef GEN_DEFS_H
#define GEN_DEFS_H

#include <stdint.h>
#include <stdio.h>

#include "pmu_err.h"
#include "pmu_family.h"

/* One file the family's generator writes. */
typedef struct gen_output {
    const char *name;    /* the file's name, e.g. "pmu_defs.vh"; the command's argument */
    const char *what;    /* one line for the usage text */
    const char *comment; /* how the file's language starts a comment: "//", or "<!--" */
    /* Writes the file's text after the banner line (what wrote it, from what) that the
     * driver writes first.  Returns 0, or -1 with err filled when the .def breaks a rule
     * the output relies on (the message names the row). */
    int (*emit)(FILE *out, pmu_err *err);
    /* The file it is written from, when not the family's .def (NULL: gen_family_def). */
    const char *source;
} gen_output;

/* Provided by tools/<family>/gen_<family>.c. */
extern const char gen_family_def[]; /* the family's .def, e.g. "include/ita/ita_regs.def" */
extern const gen_output gen_outputs[];
extern const unsigned gen_noutputs;

/* The text file `path` (read from the repository root) as the C definition
 * `const char symbol[]`, one string literal a line, so that a command can write it out again
 * (e.g. a GTKWave save file beside a waveform).  0, or -1 with err filled. */
int gen_embed_text(FILE *out, const char *symbol, const char *path, pmu_err *err);

/* localparam logic [n*width-1:0] name = {...}: entry k of v[] at [k*width +: width]. */
void gen_packed_table(FILE *out, const char *name, unsigned width, unsigned n, const uint64_t *v);

/* Helpers over a family's field and visible-state tables (include/pmu_family.h), shared
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
 * (port-width macros), <prefix>_defs.vh (localparams) and the register-map document.  The
 * family defines gen_family_block, and its gen_outputs name gen_block_defines,
 * gen_block_defs and gen_block_md; its rtl/<family>/family.mk links tools/gen_block.c. */
typedef void (*gen_section)(FILE *out);
typedef struct gen_block {
    const char *prefix, *lower; /* "EV4" for names, "ev4" for file names */
    unsigned addr_w;            /* the register port's address width */
    const pmu_vis_desc *vis;    /* the visible state */
    unsigned nvis;
    const char *const *access_names, *const *access_descs; /* the .def's access kinds */
    unsigned naccess;
    int (*check)(pmu_err *err);    /* the rules the RTL relies on: 0, or -1 with err */
    gen_section defines;           /* `define lines after <prefix>_ADDR_W and _NVIS */
    const gen_section *vh;         /* <prefix>_defs.vh after the access kinds, before the
                                      visible state; NULL-terminated */
    const char *md_title;          /* the document's heading and first paragraph */
    const char *md_registers;      /* the Registers section's paragraph, before the access table */
    const gen_section *md;         /* the document after the access table, before the visible
                                      state; NULL-terminated */
    const char *md_visible;        /* the paragraph before the visible-state rows */
} gen_block;
extern const gen_block gen_family_block;
int gen_block_defines(FILE *out, pmu_err *err);
int gen_block_defs(FILE *out, pmu_err *err);
int gen_block_md(FILE *out, pmu_err *err);

#endif
