/*
 * gen_block.c - the three files of a register block's generator (include/pmu_gen_defs.h,
 * gen_block): the layout the Alpha 21064 and 21264/EV67 generators share, with the
 * family's own sections from its gen_family_block.
 */
#include "pmu_gen_defs.h"

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
