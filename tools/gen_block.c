/*
 * gen_block.c - the three files of a register block's generator (include/pmu_gen_defs.h,
 * gen_block): the layout the Alpha 21064 and 21264/EV67 generators share, with the
 * family's own sections from its gen_family_block.
 */
#include "pmu_gen_defs.h"

int gen_block_defines(FILE *out, pmu_err *err)
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

int gen_block_defs(FILE *out, pmu_err *err)
{
    const gen_block *b = &gen_family_block;
    if (b->check(err) != 0)
        return -1;
    fprintf(out, "// Included inside module bodies: localparams only (port widths: %s_defines.vh).\n", b->lower);
    for (unsigned a = 0; a < b->naccess; a++)
        fprintf(out, "localparam integer %s_ACCESS_%s = %u;\n", b->prefix, b->access_names[a], a);
    for (const gen_section *s = b->vh; *s; s++)
        (*s)(out);
    gen_vh_visible(out, b->prefix, b->vis, b->nvis, b->addr_w);
    return 0;
}

int gen_block_md(FILE *out, pmu_err *err)
{
    const gen_block *b = &gen_family_block;
    if (b->check(err) != 0)
        return -1;
    fputs(b->md_title, out);
    fprintf(out, "## Registers\n\n%s\n\n| access | meaning |\n|---|---|\n", b->md_registers);
    for (unsigned a = 0; a < b->naccess; a++)
        fprintf(out, "| %s | %s |\n", b->access_names[a], b->access_descs[a]);
    for (const gen_section *s = b->md; *s; s++)
        (*s)(out);
    fputs(b->md_visible, out);
    gen_md_visible_rows(out, b->vis, b->nvis);
    return 0;
}
