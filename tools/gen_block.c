/*
 * gen_block.c - the three files of a register block's generator (include/tools/pmu_gen_defs.h,
 * gen_block): the layout the Alpha 21064 and 21264/EV67 generators share, with the
 * family's own sections from its gen_family_block.
 */
#include <string.h>

#include "tools/pmu_gen_defs.h"

/* The bits of register d's fields: all of them, or those of one access. */
static uint64_t reg_bits(const gen_reg *d, const char *access)
{
    uint64_t bits = 0;
    for (unsigned i = 0; i < gen_nfields; i++)
        if (strcmp(gen_fields[i].group, d->name) == 0 && (!access || strcmp(gen_field_access[i], access) == 0))
            bits |= gen_field_mask(&gen_fields[i]);
    return bits;
}

/* 1 when a register is reached at more than one address. */
static int has_spans(void)
{
    for (unsigned r = 0; r < gen_nregs; r++)
        if (gen_regs[r].span != 1)
            return 1;
    return 0;
}

static void vh_registers(FILE *out, const gen_block *b)
{
    unsigned digits = 2, top = 0;
    for (unsigned r = 0; r < gen_nregs; r++)
        top = gen_regs[r].addr > top ? gen_regs[r].addr : top;
    while (top >> (4 * digits))
        digits++;
    for (unsigned r = 0; r < gen_nregs; r++) {
        const gen_reg *d = &gen_regs[r];
        fprintf(out, "localparam logic [%u:0] %s_ADDR_%s = %u'h%0*x;\n", b->addr_w - 1, b->prefix, d->name, b->addr_w,
                (int)digits, d->addr);
        if (has_spans())
            fprintf(out, "localparam integer %s_%s_SPAN = %u;\n", b->prefix, d->name, d->span);
        fprintf(out, "localparam integer %s_%s_ACCESS = %s_ACCESS_%s;\n", b->prefix, d->name, b->prefix, d->access);
        fprintf(out, "localparam logic [63:0] %s_%s_RESET = 64'h%016llx;\n", b->prefix, d->name,
                (unsigned long long)d->reset);
        fprintf(out, "localparam logic [63:0] %s_%s_MASK = 64'h%016llx;\n", b->prefix, d->name,
                (unsigned long long)reg_bits(d, NULL));
        if (gen_fields_own_access())
            fprintf(out, "localparam logic [63:0] %s_%s_WMASK = 64'h%016llx;\n", b->prefix, d->name,
                    (unsigned long long)reg_bits(d, "RW"));
    }
    gen_vh_fields(out, b->prefix, gen_fields, gen_nfields);
}

static void md_registers(FILE *out)
{
    const int spans = has_spans();
    fputs(spans ? "\n| register | address | span | access | reset | field bits | description |\n"
                  "|---|---|---|---|---|---|---|\n"
                : "\n| register | address | access | reset | field bits | description |\n|---|---|---|---|---|---|\n",
          out);
    for (unsigned r = 0; r < gen_nregs; r++) {
        const gen_reg *d = &gen_regs[r];
        char span[16] = "";
        if (spans)
            snprintf(span, sizeof span, " %u |", d->span);
        fprintf(out, "| %s | 0x%02x |%s %s | 0x%llx | 0x%llx | %s |\n", d->name, d->addr, span, d->access,
                (unsigned long long)d->reset, (unsigned long long)reg_bits(d, NULL), d->desc);
    }
}

static int gen_block_defines(FILE *out, pmu_err *err)
{
    const gen_block *b = &gen_family_block;
    if (b->check(err) != 0)
        return -1;
    fprintf(out, "// Macros for port widths; include before a module header.\n"
                 "`ifndef %s_DEFINES_VH\n"
                 "`define %s_DEFINES_VH\n", b->prefix, b->prefix);
    fprintf(out, "`define %s_ADDR_W %u\n", b->prefix, b->addr_w);
    fprintf(out, "`define %s_NVIS %u\n", b->prefix, b->nvis);
    b->defines(out);
    fputs("`endif\n", out);
    return 0;
}

static int gen_block_defs(FILE *out, pmu_err *err)
{
    const gen_block *b = &gen_family_block;
    if (b->check(err) != 0)
        return -1;
    fprintf(out, "// Included inside module bodies: localparams only (port widths: %s_defines.vh).\n", b->lower);
    for (unsigned a = 0; a < gen_reg_kinds.n; a++)
        fprintf(out, "localparam integer %s_ACCESS_%s = %u;\n", b->prefix, gen_reg_kinds.row[a].name, a);
    vh_registers(out, b);
    for (const gen_section *s = b->vh; *s; s++)
        (*s)(out);
    gen_vh_visible(out, b->prefix, b->vis, b->nvis, b->addr_w);
    return 0;
}

static int gen_block_md(FILE *out, pmu_err *err)
{
    const gen_block *b = &gen_family_block;
    if (b->check(err) != 0)
        return -1;
    fputs(b->md_title, out);
    fprintf(out, "## Registers\n\n%s\n\n| access | meaning |\n|---|---|\n", b->md_registers);
    gen_md_names(out, &gen_reg_kinds, 0);
    md_registers(out);
    for (const gen_section *s = b->md; *s; s++)
        (*s)(out);
    fputs(b->md_visible, out);
    gen_md_visible_rows(out, b->vis, b->nvis);
    return 0;
}

/* The block's three files, named from its lower-case prefix. */
const gen_output *gen_family_outputs(unsigned *n)
{
    static char names[3][48], md_what[80];
    static gen_output outputs[3];
    const gen_block *b = &gen_family_block;
    snprintf(names[0], sizeof names[0], "%s_defines.vh", b->lower);
    snprintf(names[1], sizeof names[1], "%s_defs.vh", b->lower);
    snprintf(names[2], sizeof names[2], "%s-register-map.md", b->lower);
    snprintf(md_what, sizeof md_what, "docs/%s (make docs)", names[2]);
    outputs[0] = (gen_output){names[0], "RTL port-width macros", "//", gen_block_defines, NULL};
    outputs[1] = (gen_output){names[1], b->defs_what, "//", gen_block_defs, NULL};
    outputs[2] = (gen_output){names[2], md_what, "<!--", gen_block_md, NULL};
    *n = 3;
    return outputs;
}
