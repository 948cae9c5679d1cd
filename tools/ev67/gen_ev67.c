/*
 * gen_ev67.c - the Alpha 21264/EV67 family's part of the definitions generator
 * (include/tools/pmu_gen_defs.h): from include/common/ev67/ev67_regs.def (through tools/ev67/ev67_defs.c
 * and ev67_regs.h) and the record's constants (include/common/ev67/ev67_cycle.h) it writes
 *
 *   ev67_defines.vh       the RTL's port-width macros (included before a module header)
 *   ev67_defs.vh          the RTL's localparams (included inside module bodies)
 *   ev67-register-map.md  docs/ev67-register-map.md
 *
 * The build puts the RTL files in build/gen/ev67/ (Makefile, gen_defs_family).
 */
#include <string.h>

#include "tools/pmu_gen_defs.h"
#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"

static const struct {
    const char *name;
    unsigned value;
    const char *desc;
} limits[] = {
#define EV67_LIMIT(name, value, desc) {#name, PMU_COL(VALUE, value), desc},
#include "common/ev67/ev67_regs.def"
#undef EV67_LIMIT
};
static const struct {
    unsigned n, width, wmax, incmax;
    const char *desc;
} counters[EV67_NCOUNTERS] = {
#define EV67_COUNTER(n, width, wmax, incmax, desc) \
    [n] = {n, PMU_COL(WIDTH, width), PMU_COL(WMAX, wmax), PMU_COL(INCMAX, incmax), desc},
#include "common/ev67/ev67_regs.def"
#undef EV67_COUNTER
};
static const struct {
    const char *field;
    unsigned bit;
    const char *desc;
} pctx_sel[] = {
#define EV67_PCTX_SEL(field, bit, desc) {#field, PMU_COL(INDEXBIT, bit), desc},
#include "common/ev67/ev67_regs.def"
#undef EV67_PCTX_SEL
};
#define NPCTX_SEL (sizeof pctx_sel / sizeof pctx_sel[0])

/* The record's fetch flags and the ProfileMe phases (include/common/ev67/ev67_cycle.h,
 * ev67_regs.h): the RTL names them by bit or code. */
static const struct {
    const char *name;
    unsigned value;
} ff_bits[] = {
    {"SQUASH", EV67_FF_SQUASH}, {"CMOV1", EV67_FF_CMOV1}, {"CMOV2", EV67_FF_CMOV2},
    {"ICM", EV67_FF_ICM},       {"TAKEN", EV67_FF_TAKEN}, {"PAL", EV67_FF_PAL},
};
static const struct {
    const char *name;
    unsigned value;
} phases[] = {{"ARMED", EV67_PM_ARMED}, {"SELECTED", EV67_PM_SELECTED}, {"STOPPED", EV67_PM_STOPPED}};

/* The register port's address width: as wide as pmu_backend's addresses (uint16_t). */
#define EV67_ADDR_W 16

static const char *kind_name(unsigned k) { return gen_name(&gen_event_kinds, k); }

static const pmu_field_desc *field_of(const char *reg, const char *name) { return gen_def_field(reg, name); }

static unsigned field_w(const char *reg, const char *name)
{
    const pmu_field_desc *f = field_of(reg, name);
    return f ? f->msb - f->lsb + 1 : 0;
}

/* The rules the RTL relies on; the message names the row that breaks one. */
static int check_def(pmu_err *err)
{
    /* Every field the RTL reads, with the width it needs (0: any). */
    static const gen_field_need needed[] = {
        {"PMPC", "PAL", 1},          {"PMPC", "PC", 62},           {"IER_CM", "PCEN", 2},
        {"ISUM", "PC", 2},           {"HW_INT_CLR", "PC", 2},      {"I_CTL", "SPCE", 1},
        {"I_CTL", "PCT0_EN", 1},     {"I_CTL", "PCT1_EN", 1},      {"PCTR_CTL", "TAK", 1},
        {"PCTR_CTL", "VAL", 1},      {"PCTR_CTL", "SL1", 2},       {"PCTR_CTL", "SL0", 1},
        {"PCTR_CTL", "PCTR1", 0},    {"PCTR_CTL", "PM_KILLED_BM", 1}, {"PCTR_CTL", "PM_STALLED", 1},
        {"PCTR_CTL", "PCTR0", 0},    {"PCTR_CTL", "SEXT", 0},      {"I_STAT", "OVR", 0},
        {"I_STAT", "ICM", 1},        {"I_STAT", "TRAP_TYPE", 4},   {"I_STAT", "LSO", 1},
        {"I_STAT", "TRP", 1},        {"I_STAT", "MIS", 1},         {"PCTX", "PPCE", 1},
        {"OBS_CTR", "PCTR0", 0},     {"OBS_CTR", "PCTR1", 0},      {"OBS_INT", "S1", 2},
        {"OBS_INT", "S2", 2},        {"OBS_INT", "REQ", 2},        {"OBS_INT", "PEXIT", 2},
        {"OBS_INT", "PAL", 1},       {"OBS_INT", "RACE", 1},       {"OBS_AGG", "BACKLOG", 0},
        {"OBS_AGG", "BCG", 0},       {"OBS_AGG", "QINC0", 0},      {"OBS_AGG", "QINC1", 1},
        {"OBS_PM", "PHASE", 0},      {"OBS_PM", "AGE", 0},         {"OBS_PM", "ENDED", 1},
        {"OBS_PM", "ENDCNT", 0},     {"OBS_PM", "OVR", 0},         {"OBS_PM", "ICM", 1},
        {"OBS_PM", "TAK", 1},        {"OBS_PM", "TRP", 1},         {"OBS_PM", "MIS", 1},
        {"OBS_PM", "LSO", 1},        {"OBS_PM", "TRAP_TYPE", 4},   {"OBS_PM", "VAL", 1},
        {"OBS_PM", "STALLED", 1},    {"OBS_PM", "KBM", 1},         {"OBS_PM", "TAG", 32},
        {"OBS_PMPC", "PAL", 1},      {"OBS_PMPC", "PC", 62},
    };
    if (gen_check_fields(needed, sizeof needed / sizeof needed[0], err) != 0)
        return -1;
    /* One counter width for both, and every field that holds a count that wide. */
    static const char *const ctr_fields[][2] = {
        {"PCTR_CTL", "PCTR0"}, {"PCTR_CTL", "PCTR1"}, {"OBS_CTR", "PCTR0"}, {"OBS_CTR", "PCTR1"}};
    for (unsigned i = 0; i < 4; i++)
        if (field_w(ctr_fields[i][0], ctr_fields[i][1]) != counters[0].width || counters[1].width != counters[0].width)
            return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(%s, %s): expected EV67_COUNTER's WIDTH(%u) bits, "
                            "the same for both counters", gen_family_def, ctr_fields[i][0], ctr_fields[i][1],
                            counters[0].width);
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++)
        if (counters[n].wmax >= (1u << counters[n].width) || counters[n].incmax > EV67_LIM_RETIRE_ADD_MAX)
            return pmu_errf(err, PMU_E_INPUT, "%s: EV67_COUNTER(%u): expected WMAX below 2^WIDTH and INCMAX <= %d",
                            gen_family_def, n, EV67_LIM_RETIRE_ADD_MAX);
    /* The hidden state's fields hold every value the model gives them (docs/ev67.md). */
    static const struct {
        const char *reg, *name;
        unsigned max;
    } holds[] = {
        {"OBS_AGG", "BACKLOG", EV67_LIM_BACKLOG_MAX}, {"OBS_AGG", "BCG", (1u << EV67_LIM_BCACHE_EARLY) - 1},
        {"OBS_AGG", "QINC0", EV67_LIM_QUIRK0_MAX},    {"OBS_PM", "PHASE", EV67_PM_STOPPED},
        {"OBS_PM", "AGE", EV67_LIM_PME_OPEN},         {"OBS_PM", "ENDCNT", EV67_LIM_PME_END},
        {"OBS_PM", "OVR", 7},                         {"I_STAT", "OVR", 7},
    };
    for (unsigned i = 0; i < sizeof holds / sizeof holds[0]; i++)
        if (holds[i].max >= (1ull << field_w(holds[i].reg, holds[i].name)))
            return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(%s, %s): %u bits cannot hold %u", gen_family_def,
                            holds[i].reg, holds[i].name, field_w(holds[i].reg, holds[i].name), holds[i].max);
    if (field_w("OBS_AGG", "BCG") != EV67_LIM_BCACHE_EARLY)
        return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(OBS_AGG, BCG): expected EV67_LIMIT(BCACHE_EARLY) = %d "
                        "bits", gen_family_def, EV67_LIM_BCACHE_EARLY);
    if (field_w("I_STAT", "OVR") != field_w("OBS_PM", "OVR"))
        return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(I_STAT, OVR) and (OBS_PM, OVR): expected one width",
                        gen_family_def);
    /* A window's end copies OBS_PMPC into PMPC field for field. */
    if (field_of("PMPC", "PC")->lsb != field_of("OBS_PMPC", "PC")->lsb ||
        field_of("PMPC", "PAL")->lsb != field_of("OBS_PMPC", "PAL")->lsb)
        return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_FIELD(PMPC, ...) and (OBS_PMPC, ...): expected one layout",
                        gen_family_def);
    for (unsigned r = 0; r < EV67_NREGS; r++)
        if (ev67_reg_table[r].addr + ev67_reg_table[r].span > (1u << EV67_ADDR_W) ||
            (ev67_reg_table[r].span & (ev67_reg_table[r].span - 1)) ||
            (ev67_reg_table[r].addr & (ev67_reg_table[r].span - 1)))
            return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_REG(%s): expected a power-of-two SPAN at an ADDR aligned "
                            "to it", gen_family_def, ev67_reg_table[r].name);
    for (unsigned i = 0; i < NPCTX_SEL; i++) {
        const ev67_reg_desc *pctx = &ev67_reg_table[EV67_REG_PCTX];
        if ((1u << pctx_sel[i].bit) >= pctx->span || !field_of("PCTX", pctx_sel[i].field))
            return pmu_errf(err, PMU_E_INPUT, "%s: EV67_PCTX_SEL(%s, INDEXBIT(%u)): expected a PCTX field and an "
                            "index bit inside the span", gen_family_def, pctx_sel[i].field, pctx_sel[i].bit);
    }
    return 0;
}

/* ---- ev67_defines.vh ------------------------------------------------------------------ */

/* The `define lines after EV67_ADDR_W and EV67_NVIS. */
static void defines(FILE *out)
{
    fprintf(out, "`define EV67_CTR_W %u\n", counters[0].width);
    /* The record (include/common/ev67/ev67_cycle.h): array sizes, count fields (uint8_t), tags. */
    fprintf(out, "`define EV67_FETCH_MAX %d\n", EV67_FETCH_MAX);
    fprintf(out, "`define EV67_RETIRE_MAX %d\n", EV67_RETIRE_MAX);
    fprintf(out, "`define EV67_SQUASH_MAX %d\n", EV67_SQUASH_MAX);
    fprintf(out, "`define EV67_CNT_W %u\n", (unsigned)(8 * sizeof(uint8_t)));
    fprintf(out, "`define EV67_TAG_W %u\n", (unsigned)(8 * sizeof(uint32_t)));
    fprintf(out, "`define EV67_FLAGS_W %u\n", gen_bits_for(EV67_FF_ALL + 1));
    fprintf(out, "`define EV67_TRAP_TYPE_W %u\n", field_w("I_STAT", "TRAP_TYPE"));
    fprintf(out, "`define EV67_KIND_W %u\n", gen_bits_for(EV67_NKINDS));
}

/* ---- ev67_defs.vh --------------------------------------------------------------------- */

/* The PCTX field selects, after the registers and fields. */
static void vh_pctx_sel(FILE *out)
{
    for (unsigned i = 0; i < NPCTX_SEL; i++)
        fprintf(out, "localparam integer EV67_PCTX_SEL_%s = %u;\n", pctx_sel[i].field, pctx_sel[i].bit);
}

static void vh_counters(FILE *out)
{
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        fprintf(out, "localparam integer EV67_CTR%u_WIDTH = %u;\n", n, counters[n].width);
        fprintf(out, "localparam logic [%u:0] EV67_CTR%u_WMAX = %u'h%05x;\n", counters[n].width - 1, n,
                counters[n].width, counters[n].wmax);
        fprintf(out, "localparam integer EV67_CTR%u_INCMAX = %u;\n", n, counters[n].incmax);
    }
    for (unsigned i = 0; i < sizeof limits / sizeof limits[0]; i++)
        fprintf(out, "localparam integer EV67_LIM_%s = %u;\n", limits[i].name, limits[i].value);
}

/* The kinds, and per counter the kind of every {SL0, SL1} (entry SL0 * 4 + SL1). */
static void vh_inputs(FILE *out)
{
    const unsigned kw = gen_bits_for(EV67_NKINDS), sl1w = field_w("PCTR_CTL", "SL1");
    const unsigned nsel = 2u << sl1w;
    gen_vh_event_kinds(out, "logic ", "EV67");
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        uint64_t v[2u << 8];
        for (unsigned s = 0; s < nsel; s++)
            v[s] = ev67_sel_kind(s >> sl1w, s & ((1u << sl1w) - 1), n);
        char name[32];
        snprintf(name, sizeof name, "EV67_SEL_CTR%u_KINDS", n);
        gen_packed_table(out, name, kw, nsel, v);
    }
}

/* The record's fetch-flag bits and the ProfileMe phase codes. */
static void vh_record(FILE *out)
{
    for (unsigned i = 0; i < sizeof ff_bits / sizeof ff_bits[0]; i++) {
        unsigned b = 0;
        while (!(ff_bits[i].value >> b & 1))
            b++;
        fprintf(out, "localparam integer EV67_FF_%s_BIT = %u;\n", ff_bits[i].name, b);
    }
    const unsigned pw = field_w("OBS_PM", "PHASE");
    for (unsigned i = 0; i < sizeof phases / sizeof phases[0]; i++)
        fprintf(out, "localparam logic [%u:0] EV67_PM_%s = %u'd%u;\n", pw - 1, phases[i].name, pw, phases[i].value);
}

/* ---- ev67-register-map.md ------------------------------------------------------------- */

/* The PCTX field selects, after the register table. */
static void md_pctx_sel(FILE *out)
{
    for (unsigned i = 0; i < NPCTX_SEL; i++)
        fprintf(out, "\nPCTX: a write changes %s only when bit %u of the port address is 1 (%s).\n",
                pctx_sel[i].field, pctx_sel[i].bit, pctx_sel[i].desc);
}


static void md_counters(FILE *out)
{
    fputs("\n## Counters\n\n"
          "A value above the legal write maximum is \"at the overflow threshold\" (docs/ev67.md,\n"
          "\"Precautions\").\n\n| counter | width | legal write maximum | most added per step | description |\n"
          "|---|---|---|---|---|\n", out);
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++)
        fprintf(out, "| %u | %u | 0x%05x | %u | %s |\n", n, counters[n].width, counters[n].wmax, counters[n].incmax,
                counters[n].desc);
}

static void md_inputs(FILE *out)
{
    fputs("\n## Counter inputs\n\nWhat a counter adds per step when it counts (docs/ev67.md, \"Aggregate counting\",\n"
          "\"ProfileMe\").\n\n| kind | counts |\n|---|---|\n", out);
    gen_md_names(out, &gen_event_kinds, 0);
    fputs("\n| SL0 | SL1 | PCTR0 | PCTR1 | description |\n|---|---|---|---|---|\n", out);
    for (unsigned i = 0; i < EV67_NSEL; i++) {
        const ev67_sel_desc *s = &ev67_sel_table[i];
        fprintf(out, "| %u | %u%u | %s | %s | %s |\n", s->mode, s->sl1 >> 1 & 1, s->sl1 & 1, kind_name(s->ctr[0]),
                kind_name(s->ctr[1]), s->desc);
    }
}

static void md_limits(FILE *out)
{
    fputs("\n## Limits and timing constants\n\n| name | value | meaning |\n|---|---|---|\n", out);
    for (unsigned i = 0; i < sizeof limits / sizeof limits[0]; i++)
        fprintf(out, "| %s | %u | %s |\n", limits[i].name, limits[i].value, limits[i].desc);
}

static const gen_section vh_sections[] = {vh_pctx_sel, vh_counters, vh_inputs, vh_record, NULL};
static const gen_section md_sections[] = {md_pctx_sel, gen_md_def_fields, md_counters, md_inputs, md_limits, NULL};

const gen_block gen_family_block = {
    .prefix = "EV67", .lower = "ev67",
    .defs_what = "RTL localparams: registers, fields, counters, limits, input rows, record codes, visible state",
    .addr_w = EV67_ADDR_W, .vis = ev67_vis_table, .nvis = EV67_NVIS,
    .check = check_def, .defines = defines, .vh = vh_sections,
    .md_title = "# Alpha 21264/EV67 register map\n\n"
                "Every position below comes from `include/common/ev67/ev67_regs.def`, the same file the RTL\n"
                "(`build/gen/ev67/ev67_defs.vh`, `ev67_defines.vh`) and the C code\n"
                "(`include/common/ev67/ev67_regs.h`, `tools/ev67/ev67_defs.c`) are built from. docs/ev67.md is\n"
                "the model of a cycle.\n\n",
    .md_registers = "A register holds only its fields; every other bit reads 0. Addresses not listed read 0\n"
                    "and ignore writes. A span of more than one address reaches the register at each of them.",
    .md = md_sections,
    .md_visible = "\n## State compared in lock-step\n\n"
                  "After every clock the checker compares these registers (as a register read returns them,\n"
                  "the read quirk and the ISUM race included) and the interrupt line\n"
                  "`pmi = ((OBS_INT.REQ & IER_CM.PCEN) != 0) & !OBS_INT.PAL`.\n\n"
                  "| # | register | address |\n|---|---|---|\n",
};
