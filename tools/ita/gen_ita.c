/*
 * gen_ita.c - the Itanium family's part of the definitions generator (include/tools/pmu_gen_defs.h):
 * from include/common/ita/ita_regs.def and the event tables include/common/ita/ita2_events.def and
 * ita_events.def (through tools/ita/ita_defs.c and ita_event_defs.c) it writes
 *
 *   ita_defines.vh     the RTL's port-width macros (included before a module header)
 *   ita_defs.vh        the RTL's localparams (included inside module bodies)
 *   ita_evt_rows.svh   the event-select rows of rtl/ita/ita_evt_sel.sv, one per modelled event
 *   ita_evt_maxincr.svh  the modelled events' maxincr, for the formal checkers (formal/ita/)
 *   ita_qual_regs.svh  the qualification registers rtl/ita/ita_pmu.sv instantiates
 *   ita-register-map.md    docs/ita-register-map.md
 *   ita_wave_layout.c  docs/pmusim.gtkw as a C string: `pmusim run --waves` writes it beside
 *                      the FST, with the view on the run's window
 *
 * The build puts the RTL files in build/gen/ita/ (Makefile, gen_defs_family).
 */
#include <ctype.h>
#include <string.h>

#include "tools/pmu_gen_defs.h"
#include "common/ita/ita_cycle.h"
#include "common/ita/ita_regs.h"

/* The models' columns of ita_reg_desc.reset / .wmask, and their localparam suffixes. */
static const char *const model_suffix[2] = {[ITA_MODEL_ITANIUM] = "ITA", [ITA_MODEL_ITANIUM2] = "ITA2"};

static const char *space_name(unsigned s)
{
#define ITA_SPACE(name, value, desc) if (s == (value)) return #name;
#include "common/ita/ita_regs.def"
#undef ITA_SPACE
    return "?";
}

/* The register roles and event kinds: the .def's PMU_DEF_REG_KIND and PMU_DEF_EVENT_KIND rows. */
static const char *role_name(unsigned r) { return gen_name(&gen_reg_kinds, r); }
static const char *kind_name(unsigned k) { return gen_name(&gen_event_kinds, k); }

/* The visible register at (space, index), or -1. */
static int vis_of(unsigned space, unsigned index)
{
    for (int v = 0; v < ITA_NVIS; v++)
        if (ita_vis_table[v].addr == ITA_ADDR(space, index))
            return v;
    return -1;
}

/* ---- ita_defines.vh ------------------------------------------------------------------ */

static int emit_defines(FILE *out, pmu_err *err)
{
    (void)err;
    fputs("// Macros for port widths; include before a module header.\n"
          "`ifndef ITA_DEFINES_VH\n"
          "`define ITA_DEFINES_VH\n", out);
    fprintf(out, "`define ITA_NVIS %d\n", ITA_NVIS);
    fprintf(out, "`define ITA_MAX_SLOTS %d\n", ITA_MAX_SLOTS);
    fprintf(out, "`define ITA_SF_WIDTH %d\n", ITA_SF_WIDTH);
    fprintf(out, "`define ITA_MAX_XEV %d\n", ITA_MAX_XEV);
    fputs("`endif\n", out);
    return 0;
}

/* ---- ita_defs.vh --------------------------------------------------------------------- */

static void vh_registers(FILE *out)
{
#define ITA_SPACE(name, value, desc) fprintf(out, "localparam [3:0] ITA_SPACE_%s = 4'd%d;\n", #name, value);
#include "common/ita/ita_regs.def"
#undef ITA_SPACE
    fprintf(out, "localparam integer ITA_ADDR_BITS = %d;\n", ITA_ADDR_BITS);
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc *d = &ita_reg_table[i];
        fprintf(out, "localparam [7:0] ITA_%s_FIRST = 8'd%u;\n", d->name, d->first);
        fprintf(out, "localparam integer ITA_%s_COUNT = %u;\n", d->name, d->count);
        for (unsigned m = 0; m < 2; m++) {
            fprintf(out, "localparam [63:0] ITA_%s_RESET_%s = 64'h%016llx;\n", d->name, model_suffix[m],
                    (unsigned long long)d->reset[m]);
            fprintf(out, "localparam [63:0] ITA_%s_WMASK_%s = 64'h%016llx;\n", d->name, model_suffix[m],
                    (unsigned long long)d->wmask[m]);
        }
    }
    for (unsigned i = 0; i < ita_field_table_len; i++) {
        const pmu_field_desc *f = &ita_field_table[i];
        fprintf(out, "localparam integer ITA_F_%s_%s_LSB = %u;\n", f->group, f->name, f->lsb);
        fprintf(out, "localparam integer ITA_F_%s_%s_MSB = %u;\n", f->group, f->name, f->msb);
        fprintf(out, "localparam integer ITA_F_%s_%s_W = %u;\n", f->group, f->name, f->msb - f->lsb + 1);
    }
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc)                               \
    fprintf(out, "localparam integer ITA_SF_%s_LSB = %d;\n", #name, lsb);     \
    fprintf(out, "localparam integer ITA_SF_%s_MSB = %d;\n", #name, msb);
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
    fprintf(out, "localparam integer ITA_SF_WIDTH = %d;\n", ITA_SF_WIDTH);
    fprintf(out, "localparam integer ITA_MAX_SLOTS = %d;\n", ITA_MAX_SLOTS);
    fprintf(out, "localparam integer ITA_MAX_XEV = %d;\n", ITA_MAX_XEV);
    fprintf(out, "localparam [7:0] ITA_XEV_NO_SLOT = 8'h%02x;\n", ITA_XEV_NO_SLOT);
}

/* The number of a model's modelled rows (KIND not NONE) in its event table. */
static unsigned modelled_rows(ita_model m)
{
    unsigned n, k = 0;
    const ita_event_row *rows = ita_event_rows(m, &n);
    for (unsigned i = 0; i < n; i++)
        k += ita_event_row_modelled(&rows[i]) != 0;
    return k;
}

static void vh_events(FILE *out)
{
    const unsigned kw = gen_bits_for(gen_event_kinds.n);
    fprintf(out, "localparam integer ITA_KIND_W = %u;\n", kw);
    gen_vh_event_kinds(out, "", "ITA");
    /* The Itanium 2 modelled events by name (ita_event_table), with their Itanium
     * counterparts' code and counters, for testbenches that program an event by name. */
    for (unsigned i = 0; i < ITA_NEVENTS; i++) {
        const ita_event_desc *e = &ita_event_table[i];
        const int code_ita = ita_event_code(e, ITA_MODEL_ITANIUM);
        fprintf(out, "localparam [7:0] ITA_EV_%s_CODE = 8'h%02x;\n", e->name, e->code);
        fprintf(out, "localparam [7:0] ITA_EV_%s_CODE_ITA = 8'h%02x;\n", e->name, code_ita < 0 ? 0xffu : (unsigned)code_ita);
        fprintf(out, "localparam [0:0] ITA_EV_%s_ON_ITA = 1'b%d;\n", e->name, code_ita >= 0);
        fprintf(out, "localparam [3:0] ITA_EV_%s_UMASK = 4'h%x;\n", e->name, e->umask);
        fprintf(out, "localparam [7:0] ITA_EV_%s_COUNTERS = 8'h%02x;\n", e->name, e->counters);
        fprintf(out, "localparam [7:0] ITA_EV_%s_COUNTERS_ITA = 8'h%02x;\n", e->name,
                ita_event_counters(e, ITA_MODEL_ITANIUM));
        fprintf(out, "localparam integer ITA_EV_%s_MAXINCR = %u;\n", e->name, e->maxincr);
        fprintf(out, "localparam [0:0] ITA_EV_%s_IAR = 1'b%u;\n", e->name, e->iar);
        fprintf(out, "localparam [0:0] ITA_EV_%s_OPM = 1'b%u;\n", e->name, e->opm);
        fprintf(out, "localparam [0:0] ITA_EV_%s_DAR = 1'b%u;\n", e->name, e->dar);
        fprintf(out, "localparam [%u:0] ITA_EV_%s_KIND = ITA_KIND_%s;\n", kw - 1, e->name, kind_name(e->kind));
    }
    fprintf(out, "localparam integer ITA_NEVT_ROWS = %u;\n", modelled_rows(ITA_MODEL_ITANIUM) +
            modelled_rows(ITA_MODEL_ITANIUM2));
    fprintf(out, "localparam integer ITA_NEVENTS = %d;\n", ITA_NEVENTS);
    for (unsigned v = 0; v < ITA_NVIS; v++)
        fprintf(out, "localparam integer ITA_VIS_%s = %u;\n", ita_vis_table[v].name, v);
    fprintf(out, "localparam integer ITA_NVIS = %d;\n", ITA_NVIS);
}

/* One register of a role, expanded from its .def row. */
typedef struct role_reg {
    unsigned space, index;
    uint64_t reset[2], wmask[2];
    uint64_t vis;
} role_reg;

#define MAX_ROLE_REGS 64u

/* The registers of `role` in .def order; each must be visible and, with `consecutive`,
 * they must be consecutive indices of one space (the RTL numbers them from the first). */
static int role_registers(ita_reg_role role, int consecutive, role_reg *r, unsigned *n, pmu_err *err)
{
    *n = 0;
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc *d = &ita_reg_table[i];
        if (d->role != role)
            continue;
        for (unsigned j = 0; j < d->count; j++) {
            const int v = vis_of(d->space, d->first + j);
            if (v < 0)
                return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_REG(%s): %s[%u] has ACCESS(%s) but no ITA_VISIBLE entry",
                                gen_family_def, d->name, space_name(d->space), d->first + j, role_name(role));
            if (*n == MAX_ROLE_REGS)
                return pmu_errf(err, PMU_E_INPUT, "%s: more than %u registers of ACCESS(%s)", gen_family_def,
                                MAX_ROLE_REGS, role_name(role));
            if (consecutive && *n > 0 && (d->space != r[0].space || d->first + j != r[0].index + *n))
                return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_REG(%s): the ACCESS(%s) registers must be consecutive "
                                "indices of one space, expected %s[%u]", gen_family_def, d->name,
                                role_name(role), space_name(r[0].space), r[0].index + *n);
            role_reg *x = &r[(*n)++];
            *x = (role_reg){d->space, d->first + j, {d->reset[0], d->reset[1]}, {d->wmask[0], d->wmask[1]},
                            (uint64_t)v};
        }
    }
    if (*n == 0)
        return pmu_errf(err, PMU_E_INPUT, "%s: no register has ACCESS(%s)", gen_family_def, role_name(role));
    return 0;
}

/* ITA_<ROLE>_N, _FIRST, the per-register tables of reset values, writable masks and
 * visible indices, for a role whose registers are consecutive (the counters and their
 * configurations: ita_pmu.sv's g_cnt[k] takes entry k). */
static int vh_role_table(FILE *out, ita_reg_role role, pmu_err *err)
{
    role_reg r[MAX_ROLE_REGS];
    unsigned n;
    if (role_registers(role, 1, r, &n, err) != 0)
        return -1;
    const char *name = role_name(role);
    char tname[64];
    uint64_t v[MAX_ROLE_REGS];
    fprintf(out, "localparam integer ITA_%s_N = %u;\n", name, n);
    fprintf(out, "localparam [7:0] ITA_%s_FIRST = 8'd%u;\n", name, r[0].index);
    for (unsigned m = 0; m < 2; m++) {
        for (unsigned k = 0; k < n; k++)
            v[k] = r[k].reset[m];
        snprintf(tname, sizeof tname, "ITA_%s_RESET_%s", name, model_suffix[m]);
        gen_packed_table(out, tname, 64, n, v);
        for (unsigned k = 0; k < n; k++)
            v[k] = r[k].wmask[m];
        snprintf(tname, sizeof tname, "ITA_%s_WMASK_%s", name, model_suffix[m]);
        gen_packed_table(out, tname, 64, n, v);
    }
    for (unsigned k = 0; k < n; k++)
        v[k] = r[k].vis;
    snprintf(tname, sizeof tname, "ITA_%s_VIS", name);
    gen_packed_table(out, tname, 32, n, v);
    return 0;
}

/* PMC0 bit i is the overflow bit of counter i (PMD i, configured by PMC i): the RTL numbers
 * the counters by PMC0.ovf and takes entry k of the CNT_CFG and COUNTER tables for counter
 * ITA_F_PMC0_OVF_LSB + k. */
static int check_counters(pmu_err *err)
{
    static const ita_reg_role roles[2] = {ITA_ROLE_CNT_CFG, ITA_ROLE_COUNTER};
    role_reg r[MAX_ROLE_REGS];
    unsigned n;
    for (unsigned i = 0; i < 2; i++) {
        if (role_registers(roles[i], 1, r, &n, err) != 0)
            return -1;
        if (r[0].index != ITA_F_PMC0_OVF_LSB || n != ITA_F_PMC0_OVF_WIDTH)
            return pmu_errf(err, PMU_E_INPUT, "%s: the ACCESS(%s) registers are %s[%u..%u]; expected one per "
                            "PMC0.OVF bit, indices %d..%d", gen_family_def, role_name(roles[i]),
                            space_name(r[0].space), r[0].index, r[0].index + n - 1, ITA_F_PMC0_OVF_LSB,
                            ITA_F_PMC0_OVF_MSB);
    }
    return 0;
}

/* The register port's address decode (rtl/ita/ita_pmu.sv): every register a read or write
 * reaches is a visible entry, found by a key of its address's low bits (space[2:0],
 * index[4:0]), which Verilator evaluates as one table lookup. Checked here: every entry fits
 * the key, no two share one, and every register of the table without an entry reads 0 and
 * takes no write in either model (PMC1..3), so "no entry" may read 0. */
enum { VIS_KEY_SPACE_W = 3, VIS_KEY_INDEX_W = 5 };

static int vh_vis_addr(FILE *out, pmu_err *err)
{
    for (unsigned v = 0; v < ITA_NVIS; v++) {
        const uint16_t a = ita_vis_table[v].addr;
        if (ITA_ADDR_SPACE(a) >= (1u << VIS_KEY_SPACE_W) || ITA_ADDR_INDEX(a) >= (1u << VIS_KEY_INDEX_W))
            return pmu_errf(err, PMU_E_INPUT, "%s: ITA_VISIBLE %s: space %u / index %u do not fit the register "
                            "port's key (space < %u, index < %u; rtl/ita/ita_pmu.sv)", gen_family_def,
                            ita_vis_table[v].name, ITA_ADDR_SPACE(a), ITA_ADDR_INDEX(a), 1u << VIS_KEY_SPACE_W,
                            1u << VIS_KEY_INDEX_W);
        for (unsigned w = 0; w < v; w++)
            if (ita_vis_table[w].addr == a)
                return pmu_errf(err, PMU_E_INPUT, "%s: ITA_VISIBLE %s and %s have one address", gen_family_def,
                                ita_vis_table[w].name, ita_vis_table[v].name);
    }
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc *d = &ita_reg_table[i];
        for (unsigned j = 0; j < d->count; j++) {
            const uint16_t a = ITA_ADDR(d->space, d->first + j);
            unsigned v = 0;
            while (v < ITA_NVIS && ita_vis_table[v].addr != a)
                v++;
            if (v == ITA_NVIS && (d->reset[0] | d->reset[1] | d->wmask[0] | d->wmask[1]) != 0)
                return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_REG(%s): index %u has no ITA_VISIBLE entry but is "
                                "not constant 0 (the register port reads 0 where there is no entry)",
                                gen_family_def, d->name, d->first + j);
        }
    }
    fprintf(out, "localparam integer ITA_VIS_KEY_SPACE_W = %d;\n", VIS_KEY_SPACE_W);
    fprintf(out, "localparam integer ITA_VIS_KEY_INDEX_W = %d;\n", VIS_KEY_INDEX_W);
    fprintf(out, "localparam logic [%d*%d-1:0] ITA_VIS_ADDR = {", ITA_NVIS, ITA_ADDR_BITS);
    for (unsigned v = ITA_NVIS; v-- > 0;)
        fprintf(out, "%d'h%03x%s", ITA_ADDR_BITS, ita_vis_table[v].addr, v ? ", " : "};\n");
    return 0;
}

/* The models' names in the .def's MODEL column, in enum ita_model order. */
static const char *const model_names[ITA_NMODELS] = {[ITA_MODEL_ITANIUM] = "ITANIUM", [ITA_MODEL_ITANIUM2] = "ITANIUM2"};

static int emit_defs(FILE *out, pmu_err *err)
{
    role_reg r[MAX_ROLE_REGS];
    unsigned nqual, ncap;
    if (gen_check_reg_models(model_names, ITA_NMODELS, ita_params_default().model, err) != 0 ||
        check_counters(err) != 0)
        return -1;
    fputs("// Included inside module bodies: localparams only (port widths: ita_defines.vh).\n", out);
    vh_registers(out);
    vh_events(out);
    if (role_registers(ITA_ROLE_QUAL, 0, r, &nqual, err) != 0 ||
        role_registers(ITA_ROLE_CAPTURE, 0, r, &ncap, err) != 0 ||
        vh_role_table(out, ITA_ROLE_CNT_CFG, err) != 0 || vh_role_table(out, ITA_ROLE_COUNTER, err) != 0 ||
        vh_vis_addr(out, err) != 0)
        return -1;
    /* The ACCESS(CAPTURE) registers live in the EAR and BTB modules (rtl/ita/ita_iear.sv,
     * ita_dear.sv, ita_btb.sv); role_registers() only checks that each is visible. */
    (void)ncap;
    fprintf(out, "localparam integer ITA_NQUAL = %u;\n", nqual);
    return 0;
}

/* ---- ita_evt_rows.svh, ita_evt_maxincr.svh, ita_qual_regs.svh ------------------------------------------------- */

/* One line per modelled event (KIND not NONE) of each model's table, in table order: its
 * ITA_EVT_ROW (the RTL's event select), or its ITA_EVT_MAXINCR (the formal checkers'). */
static void modelled_row_lines(FILE *out, int maxincr_form)
{
    for (int m = ITA_MODEL_ITANIUM; m <= ITA_MODEL_ITANIUM2; m++) {
        unsigned n;
        const ita_event_row *rows = ita_event_rows(m, &n);
        for (unsigned i = 0; i < n; i++) {
            const ita_event_row *e = &rows[i];
            if (!ita_event_row_modelled(e))
                continue;
            if (maxincr_form)
                fprintf(out, "`ITA_EVT_MAXINCR(%d, %s, 8'h%02x, 4'h%x, %u, ITA_KIND_%s)\n", m, e->name, e->code,
                        e->umask, e->maxincr, kind_name(e->kind));
            else
                fprintf(out, "`ITA_EVT_ROW(%d, %s, 8'h%02x, 4'h%x, 8'h%02x, 1'b%u, 1'b%u, 1'b%u, ITA_KIND_%s)\n", m,
                        e->name, e->code, e->umask, e->counters, e->iar, e->opm, e->dar, kind_name(e->kind));
        }
    }
}

static int emit_evt_rows(FILE *out, pmu_err *err)
{
    (void)err;
    fputs("// The event table of rtl/ita/ita_evt_sel.sv: one row per modelled event (KIND not NONE) of\n"
          "// each model's table (include/common/ita/ita_events.def for Model 0, ita2_events.def for Model 1),\n"
          "// in table order, included where the module defines\n"
          "// ITA_EVT_ROW(MODEL, NAME, CODE, UMASK, COUNTERS, IAR, OPM, DAR, KIND).\n", out);
    modelled_row_lines(out, 0);
    return 0;
}

/* The modelled events with their maxincr, the most each adds in a cycle: the per-cycle
 * limits of formal/ita/ita_evtsel_props.sv (docs/formal.md). The RTL does not read it. */
static int emit_evt_maxincr(FILE *out, pmu_err *err)
{
    (void)err;
    fputs("// The modelled events (KIND not NONE) of each model's table (include/common/ita/ita_events.def\n"
          "// for Model 0, ita2_events.def for Model 1), in table order, with their maxincr, included\n"
          "// where a formal checker defines\n"
          "// ITA_EVT_MAXINCR(MODEL, NAME, CODE, UMASK, MAXINCR, KIND). The RTL does not read it.\n", out);
    modelled_row_lines(out, 1);
    return 0;
}

/* Each ACCESS(QUAL) row is one visible register of the same name: the top declares
 * <name>_q for it and drives its obs_vis_o entry ITA_VIS_<NAME>. */
static int emit_qual_regs(FILE *out, pmu_err *err)
{
    fputs("// The qualification registers (ACCESS(QUAL)) of rtl/ita/ita_pmu.sv, in .def order, included\n"
          "// where the module defines ITA_QUAL_REG(J, name, NAME, SPACE): register J of the list,\n"
          "// <name>_q, at address {ITA_SPACE_<SPACE>, ITA_<NAME>_FIRST}, visible as ITA_VIS_<NAME>.\n", out);
    unsigned j = 0;
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc *d = &ita_reg_table[i];
        if (d->role != ITA_ROLE_QUAL)
            continue;
        const int v = vis_of(d->space, d->first);
        if (d->count != 1 || v < 0 || strcmp(ita_vis_table[v].name, d->name) != 0)
            return pmu_errf(err, PMU_E_INPUT, "%s: PMU_DEF_REG(%s): an ACCESS(QUAL) row must be COUNT(1) and have "
                            "a ITA_VISIBLE entry of the same name and address", gen_family_def, d->name);
        char lower[32];
        size_t k = 0;
        for (; d->name[k] && k + 1 < sizeof lower; k++)
            lower[k] = (char)tolower((unsigned char)d->name[k]);
        lower[k] = '\0';
        fprintf(out, "`ITA_QUAL_REG(%u, %s, %s, %s)\n", j++, lower, d->name, space_name(d->space));
    }
    return 0;
}

/* ---- ita-register-map.md ---------------------------------------------------------------------- */

/* "PMC4,PMC5" for a counter mask. */
static void counter_names(unsigned mask, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; k < 8; k++)
        if (mask & (1u << k)) {
            size_t n = strlen(buf);
            snprintf(buf + n, size - n, "%sPMC%d", n ? "," : "", k);
        }
}

/* A two-column table body: names[i] | descs[i] for i = first .. n-1. */
static void md_registers(FILE *out)
{
    fputs("## Register port address spaces\n\n"
          "The register port address is `{space[3:0], index[7:0]}`.\n\n"
          "| space | value | holds |\n|---|---|---|\n", out);
#define ITA_SPACE(name, value, desc) fprintf(out, "| %s | %d | %s |\n", #name, value, desc);
#include "common/ita/ita_regs.def"
#undef ITA_SPACE
    fputs("\n## Registers\n\n"
          "A write stores `(value & wmask) | (reset & ~wmask)`. Registers not listed read 0 and\n"
          "ignore writes. The role says what implements the register:\n\n"
          "| role | meaning |\n|---|---|\n", out);
    gen_md_names(out, &gen_reg_kinds, 0);
    fputs("\n| register | address | role | Itanium reset | Itanium wmask | Itanium 2 reset | Itanium 2 wmask "
          "| description |\n|---|---|---|---|---|---|---|---|\n", out);
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc *d = &ita_reg_table[i];
        char where[64];
        if (d->count == 1)
            snprintf(where, sizeof where, "%s[%u]", space_name(d->space), d->first);
        else
            snprintf(where, sizeof where, "%s[%u..%u]", space_name(d->space), d->first, d->first + d->count - 1);
        fprintf(out, "| %s | %s | %s | 0x%llx | 0x%llx | 0x%llx | 0x%llx | %s |\n", d->name, where,
                role_name(d->role), (unsigned long long)d->reset[0], (unsigned long long)d->wmask[0],
                (unsigned long long)d->reset[1], (unsigned long long)d->wmask[1], d->desc);
    }
}

static void md_fields_and_state(FILE *out)
{
    fputs("\n## Fields\n\n| group | field | bits | meaning |\n|---|---|---|---|\n", out);
    for (unsigned i = 0; i < ita_field_table_len; i++) {
        const pmu_field_desc *f = &ita_field_table[i];
        if (f->msb == f->lsb)
            fprintf(out, "| %s | %s | %u | %s |\n", f->group, f->name, f->lsb, f->desc);
        else
            fprintf(out, "| %s | %s | %u:%u | %s |\n", f->group, f->name, f->msb, f->lsb, f->desc);
    }
    fputs("\nPMC_GEN is the layout of PMC4..PMC7. PSR fields apply to PSR and IPSR.\n\n"
          "## Cycle-record slot flags\n\n| flag | bits | text key | meaning |\n|---|---|---|---|\n", out);
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc)                                              \
    if ((msb) == (lsb))                                                                       \
        fprintf(out, "| %s | %d | `%s` | %s |\n", #name, lsb, key, desc);                    \
    else                                                                                      \
        fprintf(out, "| %s | %d:%d | `%s=N` | %s |\n", #name, msb, lsb, key, desc);
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
    fputs("\n## State compared in lock-step\n\n"
          "Every cycle the checker compares these registers (as a register read returns them)\n"
          "and the interrupt line.\n\n| # | register | fields |\n|---|---|---|\n", out);
    for (unsigned i = 0; i < ITA_NVIS; i++)
        fprintf(out, "| %u | %s | %s |\n", i, ita_vis_table[i].name, ita_vis_table[i].field_group);
}

static void md_events(FILE *out)
{
    static const char *const model_title[2] = {[ITA_MODEL_ITANIUM] = "Itanium (`include/common/ita/ita_events.def`)",
                                               [ITA_MODEL_ITANIUM2] = "Itanium 2 (`include/common/ita/ita2_events.def`)"};
    fputs("\n## Modelled events\n\n"
          "The events the hardware derives from the cycle record: the rows of each model's full event\n"
          "table (libpfm-3) whose KIND is not NONE. Every other event of the tables counts only from a\n"
          "stream's general events (docs/ita-stream-format.md); a code and umask in neither counts nothing.\n"
          "The counters column is where the event is wired. The kind is what one occurrence is\n"
          "(docs/ita-semantics.md, step 3):\n\n"
          "| kind | one occurrence |\n|---|---|\n", out);
    gen_md_names(out, &gen_event_kinds, 1);
    for (int m = ITA_MODEL_ITANIUM2; m >= ITA_MODEL_ITANIUM; m--) {
        unsigned n;
        const ita_event_row *rows = ita_event_rows(m, &n);
        fprintf(out, "\n### %s\n\n| event | code | umask | maxincr | counters | iar | opm | dar | group | set | kind |\n"
                     "|---|---|---|---|---|---|---|---|---|---|---|\n", model_title[m]);
        for (unsigned i = 0; i < n; i++) {
            const ita_event_row *e = &rows[i];
            char ctr[48];
            if (!ita_event_row_modelled(e))
                continue;
            counter_names(e->counters, ctr, sizeof ctr);
            fprintf(out, "| %s | 0x%02x | 0x%x | %u | %s | %u | %u | %u | %u | 0x%x | %s |\n", e->name, e->code,
                    e->umask, e->maxincr, ctr, e->iar, e->opm, e->dar, e->group, e->set, kind_name(e->kind));
        }
    }
}

static int emit_md(FILE *out, pmu_err *err)
{
    (void)err;
    fputs("# Register map\n\n"
          "Every position below comes from `include/common/ita/ita_regs.def`, the same file the RTL\n"
          "(`build/gen/ita/ita_defs.vh` and the other files `tools/gen_defs.c` writes there) and the\n"
          "C code (`include/common/ita/ita_regs.h`, `tools/ita/ita_defs.c`) are built from.\n\n", out);
    md_registers(out);
    md_fields_and_state(out);
    md_events(out);
    return 0;
}

static int emit_wave_layout(FILE *out, pmu_err *err)
{
    return gen_embed_text(out, "ita_wave_layout", "docs/pmusim.gtkw", err);
}

static const gen_output outputs[] = {
    {"ita_defines.vh", "RTL port-width macros", "//", emit_defines, NULL},
    {"ita_defs.vh", "RTL localparams: registers, fields, slot flags, events, visible state", "//", emit_defs, NULL},
    {"ita_evt_rows.svh", "the event-select rows of rtl/ita/ita_evt_sel.sv", "//", emit_evt_rows, NULL},
    {"ita_qual_regs.svh", "the qualification registers of rtl/ita/ita_pmu.sv", "//", emit_qual_regs, NULL},
    {"ita_evt_maxincr.svh", "the modelled events' maxincr (formal/ita checkers)", "//", emit_evt_maxincr, NULL},
    {"ita-register-map.md", "docs/ita-register-map.md (make docs)", "<!--", emit_md, NULL},
    {"ita_wave_layout.c", "docs/pmusim.gtkw as a C string (the layout run --waves writes)", "//",
     emit_wave_layout, "docs/pmusim.gtkw"},
};
const gen_output *gen_family_outputs(unsigned *n)
{
    *n = sizeof outputs / sizeof outputs[0];
    return outputs;
}
