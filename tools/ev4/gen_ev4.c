/*
 * gen_ev4.c - the Alpha 21064 family's part of the definitions generator
 * (include/tools/pmu_gen_defs.h): from include/common/ev4/ev4_regs.def (through tools/ev4/ev4_defs.c and
 * ev4_regs.h) and the record's enumerations (include/common/ev4/ev4_cycle.h) it writes
 *
 *   ev4_defines.vh       the RTL's port-width macros (included before a module header)
 *   ev4_defs.vh          the RTL's localparams (included inside module bodies)
 *   ev4-register-map.md  docs/ev4-register-map.md
 *
 * The build puts the RTL files in build/gen/ev4/ (Makefile, gen_defs_family).
 */
#include <string.h>

#include "tools/pmu_gen_defs.h"
#include "common/ev4/ev4_cycle.h"
#include "common/ev4/ev4_regs.h"

static const char *const counter_descs[EV4_NCOUNTERS] = {
#define EV4_COUNTER(n, width, lng, shrt, desc) [n] = desc,
#include "common/ev4/ev4_regs.def"
#undef EV4_COUNTER
};

static const char *kind_name(unsigned k) { return gen_name(&gen_event_kinds, k); }

static const pmu_field_desc *field_of(const char *reg, const char *name) { return gen_def_field(reg, name); }

/* The address width of the register port: as wide as pmu_backend's addresses (uint16_t, as
 * ev4_reg_desc.addr), so that no address aliases a register. */
#define EV4_ADDR_W 16

/* The rules the RTL relies on; the message names the row that breaks one. */
static int check_def(pmu_err *err)
{
    static const gen_field_need needed[] = {
        {"ICCSR", "PC0", 0},  {"ICCSR", "PC1", 0},  {"ICCSR", "MUX0", 0}, {"ICCSR", "MUX1", 0},
        {"ICCSR", "PME0", 0}, {"ICCSR", "PME1", 0}, {"HIRR", "PC0", 0},   {"HIRR", "PC1", 0},
        {"HIER", "PC0", 0},   {"HIER", "PC1", 0},   {"SL_CLR", "PC0", 0}, {"SL_CLR", "PC1", 0},
        {"CTR0", "COUNT", 0}, {"CTR0", "HALF", 0},  {"CTR1", "COUNT", 0},
    };
    if (gen_check_fields(needed, sizeof needed / sizeof needed[0], err) != 0)
        return -1;
    /* Counter 0's HALF sits above the widest COUNT, so that a reader never mistakes it for
     * a count bit (docs/ev4.md, "Counting"). */
    const pmu_field_desc *half = field_of("CTR0", "HALF"), *c0 = field_of("CTR0", "COUNT"),
                         *c1 = field_of("CTR1", "COUNT");
    if (half->msb != half->lsb || half->lsb < c0->lsb + EV4_CTR_WIDTH_MAX)
        return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(CTR0, HALF): expected one bit at or above %u (COUNT's "
                        "LSB + EV4_CTR_WIDTH_MAX)", gen_family_def, c0->lsb + EV4_CTR_WIDTH_MAX);
    if (c1->lsb + EV4_CTR_WIDTH_MAX > 64)
        return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(CTR1, COUNT): a %u-bit counter at bit %u leaves the "
                        "register", gen_family_def, EV4_CTR_WIDTH_MAX, c1->lsb);
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        const unsigned w = n ? EV4_CTR1_WIDTH : EV4_CTR0_WIDTH, lng = ev4_period_log2(n, 0),
                       shrt = ev4_period_log2(n, 1);
        const pmu_field_desc *cnt = n ? c1 : c0;
        if (shrt == 0 || shrt > lng || lng > w || w > EV4_CTR_WIDTH_MAX || cnt->msb - cnt->lsb + 1 != w)
            return pmu_errf(err, PMU_E_INPUT, "%s: EV4_COUNTER(%u, WIDTH(%u), LONG(%u), SHORT(%u)): expected "
                            "0 < SHORT <= LONG <= WIDTH <= %d and CTR%u.COUNT %u bits wide", gen_family_def, n, w,
                            lng, shrt, EV4_CTR_WIDTH_MAX, n, w);
    }
    for (unsigned i = 0; i < EV4_NMUX; i++) {
        const ev4_mux_desc *m = &ev4_mux_table[i];
        const pmu_field_desc *f = field_of("ICCSR", m->counter ? "MUX1" : "MUX0");
        if (m->counter >= EV4_NCOUNTERS || !f || m->code >> (f->msb - f->lsb + 1))
            return pmu_errf(err, PMU_E_INPUT, "%s: EV4_MUX(%u, %s, CODE(0x%x)): expected counter 0 or 1 and a "
                            "code that fits its ICCSR MUX field", gen_family_def, m->counter, m->name, m->code);
    }
    return 0;
}

/* ---- ev4_defines.vh ------------------------------------------------------------------- */

/* The `define lines after EV4_ADDR_W and EV4_NVIS. */
static void defines(FILE *out)
{
    const pmu_field_desc *mux0 = field_of("ICCSR", "MUX0"), *mux1 = field_of("ICCSR", "MUX1");
    fprintf(out, "`define EV4_MAX_ISSUE %d\n", EV4_MAX_ISSUE);
    /* The record's fields (include/common/ev4/ev4_cycle.h): each enum's values fit. */
    fprintf(out, "`define EV4_MODE_W %u\n", gen_bits_for(EV4_MODE_PAL + 1));
    fprintf(out, "`define EV4_NISSUE_W %u\n", gen_bits_for(EV4_MAX_ISSUE + 1));
    fprintf(out, "`define EV4_CLASS_W %u\n", gen_bits_for(EV4_NCLASSES));
    fprintf(out, "`define EV4_STALL_W %u\n", gen_bits_for(EV4_STALL_FROZEN + 1));
    fprintf(out, "`define EV4_MUX0_W %u\n", mux0->msb - mux0->lsb + 1);
    fprintf(out, "`define EV4_MUX1_W %u\n", mux1->msb - mux1->lsb + 1);
    fprintf(out, "`define EV4_KIND_W %u\n", gen_bits_for(EV4_NKINDS));
}

/* ---- ev4_defs.vh ---------------------------------------------------------------------- */

static void vh_counters(FILE *out)
{
#define EV4_COUNTER(n, width, lng, shrt, desc)                                                         \
    fprintf(out, "localparam integer EV4_CTR%d_WIDTH = %d;\n", n, PMU_COL(WIDTH, width));             \
    fprintf(out, "localparam integer EV4_CTR%d_LONG = %d;\n", n, PMU_COL(LONG, lng));                 \
    fprintf(out, "localparam integer EV4_CTR%d_SHORT = %d;\n", n, PMU_COL(SHORT, shrt));
#include "common/ev4/ev4_regs.def"
#undef EV4_COUNTER
    fprintf(out, "localparam integer EV4_CTR_WIDTH_MAX = %d;\n", EV4_CTR_WIDTH_MAX);
}

/* The kinds, each mux code by name, and per counter the kind of every code of its MUX field
 * (NONE for an undefined code; the RTL applies Mux0Undef itself). */
static void vh_events(FILE *out)
{
    const unsigned kw = gen_bits_for(EV4_NKINDS);
    gen_vh_event_kinds(out, "logic ", "EV4");
    for (unsigned i = 0; i < EV4_NMUX; i++) {
        const ev4_mux_desc *m = &ev4_mux_table[i];
        const pmu_field_desc *f = field_of("ICCSR", m->counter ? "MUX1" : "MUX0");
        const unsigned w = f->msb - f->lsb + 1;
        fprintf(out, "localparam logic [%u:0] EV4_MUX_%s = %u'h%x;\n", w - 1, m->name, w, m->code);
    }
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        const pmu_field_desc *f = field_of("ICCSR", n ? "MUX1" : "MUX0");
        const unsigned ncodes = 1u << (f->msb - f->lsb + 1);
        uint64_t v[1u << 8];
        for (unsigned c = 0; c < ncodes && c < 256; c++) {
            const ev4_mux_desc *m = ev4_mux_lookup(n, c);
            v[c] = m ? m->kind : EV4_KIND_NONE;
        }
        char name[32];
        snprintf(name, sizeof name, "EV4_MUX%u_KINDS", n);
        gen_packed_table(out, name, kw, ncodes, v);
    }
}

/* The record's codes (include/common/ev4/ev4_cycle.h), as wide as their ports (ev4_defines.vh). */
static void vh_record(FILE *out)
{
    static const struct {
        const char *name;
        unsigned value, nvalues;
    } codes[] = {
        {"MODE_KERNEL", EV4_MODE_KERNEL, EV4_MODE_PAL + 1},  {"MODE_USER", EV4_MODE_USER, EV4_MODE_PAL + 1},
        {"MODE_PAL", EV4_MODE_PAL, EV4_MODE_PAL + 1},        {"CLASS_INTOP", EV4_CLASS_INTOP, EV4_NCLASSES},
        {"CLASS_LOAD", EV4_CLASS_LOAD, EV4_NCLASSES},        {"CLASS_STORE", EV4_CLASS_STORE, EV4_NCLASSES},
        {"CLASS_BRANCH", EV4_CLASS_BRANCH, EV4_NCLASSES},    {"CLASS_FPOP", EV4_CLASS_FPOP, EV4_NCLASSES},
        {"CLASS_OTHER", EV4_CLASS_OTHER, EV4_NCLASSES},      {"STALL_NONE", EV4_STALL_NONE, EV4_STALL_FROZEN + 1},
        {"STALL_DRY", EV4_STALL_DRY, EV4_STALL_FROZEN + 1},  {"STALL_FROZEN", EV4_STALL_FROZEN, EV4_STALL_FROZEN + 1},
    };
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const unsigned w = gen_bits_for(codes[i].nvalues);
        fprintf(out, "localparam logic [%u:0] EV4_%s = %u'd%u;\n", w - 1, codes[i].name, w, codes[i].value);
    }
}

/* ---- ev4-register-map.md --------------------------------------------------------------- */


static void md_counters(FILE *out)
{
    fputs("\n## Counters\n\n"
          "A request is raised when the count crosses a multiple of the period (docs/ev4.md,\n"
          "\"Interrupt requests\"). The width is the default of the model parameter.\n\n"
          "| counter | default width | period, PCn = 0 | period, PCn = 1 | description |\n"
          "|---|---|---|---|---|\n", out);
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++)
        fprintf(out, "| %u | %u | 2^%u | 2^%u | %s |\n", n, n ? EV4_CTR1_WIDTH : EV4_CTR0_WIDTH,
                ev4_period_log2(n, 0), ev4_period_log2(n, 1), counter_descs[n]);
}

static void md_events(FILE *out)
{
    fputs("\n## Event kinds\n\nWhat a selection adds per cycle (docs/ev4.md, \"Counting\").\n\n"
          "| kind | counts |\n|---|---|\n", out);
    gen_md_names(out, &gen_event_kinds, 0);
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        const pmu_field_desc *f = field_of("ICCSR", n ? "MUX1" : "MUX0");
        const unsigned ncodes = 1u << (f->msb - f->lsb + 1);
        fprintf(out, "\n### Counter %u (ICCSR MUX%u)\n\n| code | event | kind | description |\n|---|---|---|---|\n",
                n, n);
        for (unsigned c = 0; c < ncodes; c++) {
            const ev4_mux_desc *m = ev4_mux_lookup(n, c);
            if (m)
                fprintf(out, "| 0x%x | %s | %s | %s |\n", c, m->name, kind_name(m->kind), m->desc);
            else
                fprintf(out, "| 0x%x | (undefined) | NONE, or with Mux0Undef = 1 %s | defined in no source |\n", c,
                        kind_name(ev4_mux_kind(n, c, EV4_UNDEF_ALIAS)));
        }
    }
}

static const gen_section vh_sections[] = {vh_counters, vh_events, vh_record, NULL};
static const gen_section md_sections[] = {gen_md_def_fields, md_counters, md_events, NULL};

const gen_block gen_family_block = {
    .prefix = "EV4", .lower = "ev4",
    .defs_what = "RTL localparams: registers, fields, counters, mux codes, kinds, record codes, visible state",
    .addr_w = EV4_ADDR_W, .vis = ev4_vis_table, .nvis = EV4_NVIS,
    .check = check_def, .defines = defines, .vh = vh_sections,
    .md_title = "# Alpha 21064 register map\n\n"
                "Every position below comes from `include/common/ev4/ev4_regs.def`, the same file the RTL\n"
                "(`build/gen/ev4/ev4_defs.vh`, `ev4_defines.vh`) and the C code (`include/common/ev4/ev4_regs.h`,\n"
                "`tools/ev4/ev4_defs.c`) are built from. docs/ev4.md is the model of a cycle.\n\n",
    .md_registers = "A register holds only its fields: a write stores the field bits of the value, every other\n"
                    "bit reads 0 (the `21064-pass2` model has no PME bits). Addresses not listed read 0 and\n"
                    "ignore writes.",
    .md = md_sections,
    .md_visible = "\n## State compared in lock-step\n\n"
                  "After every clock the checker compares these registers (as a register read returns them)\n"
                  "and the interrupt line `pmi = (HIRR.PC0 & HIER.PC0) | (HIRR.PC1 & HIER.PC1)`.\n\n"
                  "| # | register | address |\n|---|---|---|\n",
};
