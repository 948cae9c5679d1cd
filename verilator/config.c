/*
 * config.c - PMU configuration files (config.h, docs/config-format.md).
 *
 * Every layout fact (register names and addresses, fields, reset values, writable
 * masks, events) comes from the tables of data/pmu_regs.def via pmu_regs.h.  The
 * qualification rules the range and opcode lines serve, and that the descriptions
 * below follow, are in docs/semantics.md ("Event qualification").
 */
#include "ita/pmu_config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IA-64 bundles are 16 bytes: instruction-address compares ignore bits 3:0. */
#define BUNDLE_BYTES 16u
/* A fine-mode range lies in one 4 KB page (the lower bound's). */
#define FINE_PAGE_BYTES 4096u
/* In fine mode the upper bound of the range whose lower bound is pair k is pair k + 2. */
#define FINE_UPPER_OFFSET 2u
/* The opcode matchers see instruction bits {40:27,12:0} (facts 2.3): matcher field
 * bits 12:0 are instruction bits 12:0, field bits 26:13 instruction bits 40:27. */
#define OPC_LOW_BITS 13u
#define OPC_HIGH_LSB 27u
#define OPC_HIGH_BITS 14u
_Static_assert(OPC_LOW_BITS + OPC_HIGH_BITS == PMU_F_PMC_OPC_MATCH_WIDTH,
               "instruction bits {40:27,12:0} must fill PMC8/9.match");
_Static_assert(PMU_VIS_IBR7 == PMU_VIS_IBR0 + 2 * PMU_CONFIG_PAIRS - 1 &&
                   PMU_VIS_DBR7 == PMU_VIS_DBR0 + 2 * PMU_CONFIG_PAIRS - 1,
               "IBR0..7 and DBR0..7 must be consecutive in the visible list");
_Static_assert(PMU_F_IBR_MASK_MASK_MSB == PMU_F_DBR_MASK_MASK_MSB &&
                   PMU_F_IBR_MASK_PLM_LSB == PMU_F_DBR_MASK_PLM_LSB &&
                   PMU_F_IBR_MASK_PLM_MSB == PMU_F_DBR_MASK_PLM_MSB,
               "IBR and DBR odd registers share the mask and plm positions");

/* PMC13 cfg_dbrp_k encodings (Itanium 2): what qualifies a memory event through pair k. */
enum dbrp_cfg { DBRP_IBR_OPC_DBR = 0, DBRP_IBR_OPC = 1, DBRP_DBR = 2, DBRP_NONE = 3 };

/* ---- small helpers ------------------------------------------------------------ */

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

static int ieq(const char *a, size_t alen, const char *b)
{
    size_t i = 0;
    for (; i < alen && b[i]; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return 0;
    return i == alen && b[i] == '\0';
}

static int is_space(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }

static const char *model_name(pmu_model m) { return m == PMU_MODEL_ITANIUM ? "Itanium" : "Itanium 2"; }

static uint64_t field_ones(unsigned width) { return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1; }

static int is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

/* Decimal or 0x-hex, the whole token, no sign; 0 on success. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    int base = 10;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i == len)
        return -1;
    for (; i < len; i++) {
        int ch = lower((unsigned char)s[i]), d;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (base == 16 && ch >= 'a' && ch <= 'f')
            d = ch - 'a' + 10;
        else
            return -1;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* "7" for small values, "0x7f" otherwise. */
static void fmt_num(char *buf, size_t size, uint64_t v)
{
    if (v < 16)
        snprintf(buf, size, "%" PRIu64, v);
    else
        snprintf(buf, size, "0x%" PRIx64, v);
}

/* Appends to a NUL-terminated buffer, truncating. */
static void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

typedef struct parser {
    const char *name;
    unsigned line;
    pmu_model model;
    pmu_err *err;
} parser;

static int fail(parser *p, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser *p, const char *field, const char *fmt, ...)
{
    char what[448];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err->msg, sizeof p->err->msg, "%s:%u: %s: %s", p->name, p->line, field, what);
    return -1;
}

/* ---- register and field lookup ------------------------------------------------- */

static int vis_by_name(const char *s, size_t len)
{
    for (unsigned v = 0; v < PMU_NVIS; v++)
        if (ieq(s, len, pmu_vis_table[v].name))
            return (int)v;
    return -1;
}

/* The trailing decimal number of a register name and the length of its prefix. */
static int name_number(const char *name, size_t *prefix_len)
{
    size_t n = strlen(name), i = n;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    *prefix_len = i;
    return i == n ? -1 : atoi(name + i);
}

/* "PMC0, PMC4..PMC9, PMC11, ..., IBR0..IBR7": runs of consecutive numbers folded. */
static void vis_names(char *buf, size_t size)
{
    buf[0] = '\0';
    unsigned v = 0;
    while (v < PMU_NVIS) {
        size_t plen;
        int num = name_number(pmu_vis_table[v].name, &plen);
        unsigned last = v;
        while (num >= 0 && last + 1 < PMU_NVIS) {
            size_t plen2;
            int next = name_number(pmu_vis_table[last + 1].name, &plen2);
            if (next != num + (int)(last + 1 - v) || plen2 != plen ||
                strncmp(pmu_vis_table[v].name, pmu_vis_table[last + 1].name, plen) != 0)
                break;
            last++;
        }
        if (last >= v + 2)
            append(buf, size, "%s%s..%s", buf[0] ? ", " : "", pmu_vis_table[v].name, pmu_vis_table[last].name);
        else
            for (unsigned k = v; k <= last; k++)
                append(buf, size, "%s%s", buf[0] ? ", " : "", pmu_vis_table[k].name);
        v = last + 1;
    }
}

static const pmu_reg_desc *reg_of_vis(unsigned v) { return pmu_reg_lookup(pmu_vis_table[v].addr); }

static int is_counter_config(unsigned v) { return v >= PMU_VIS_PMC4 && v <= PMU_VIS_PMC7; }

/* A register with no writable bit on a model is not implemented there (PMC14 and
 * PMC15 on Itanium): it reads 0 and ignores writes. */
static int reg_implemented(unsigned v, pmu_model m) { return reg_of_vis(v)->wmask[m] != 0; }

static uint64_t reset_of(unsigned v, pmu_model m) { return reg_of_vis(v)->reset[m]; }

static const pmu_field_desc *field_by_name(const char *group, const char *s, size_t len)
{
    for (unsigned i = 0; i < pmu_field_table_len; i++)
        if (strcmp(pmu_field_table[i].group, group) == 0 && ieq(s, len, pmu_field_table[i].name))
            return &pmu_field_table[i];
    return NULL;
}

static const pmu_field_desc *field_of(const char *group, const char *name)
{
    return field_by_name(group, name, strlen(name));
}

static uint64_t fget(uint64_t v, const pmu_field_desc *f)
{
    return (v >> f->lsb) & field_ones(f->msb - f->lsb + 1);
}

static uint64_t fset(uint64_t v, const pmu_field_desc *f, uint64_t x)
{
    uint64_t mask = field_ones(f->msb - f->lsb + 1) << f->lsb;
    return (v & ~mask) | ((x << f->lsb) & mask);
}

/* The per-pair fields: PMC14 "IBRP<k>", PMC13 "CFG_DBRP<k>" / "ENA_DBRP<k>", PMC15
 * "IBRP<k>_PMC8" (k even) or "IBRP<k>_PMC9" (k odd). */
static const pmu_field_desc *pair_field(const char *group, const char *prefix, unsigned k,
                                        const char *suffix)
{
    char name[32];
    snprintf(name, sizeof name, "%s%u%s", prefix, k, suffix);
    return field_of(group, name);
}

static const pmu_field_desc *pmc15_tie_field(unsigned k)
{
    return pair_field("PMC15", "IBRP", k, k % 2 ? "_PMC9" : "_PMC8");
}

static void lower_copy(char *dst, size_t size, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < size; i++)
        dst[i] = (char)lower((unsigned char)src[i]);
    dst[i] = '\0';
}

static void field_names(const char *group, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < pmu_field_table_len; i++) {
        if (strcmp(pmu_field_table[i].group, group) != 0)
            continue;
        char low[32];
        lower_copy(low, sizeof low, pmu_field_table[i].name);
        append(buf, size, "%s%s", buf[0] ? ", " : "", low);
    }
}

/* ---- events -------------------------------------------------------------------- */

static int event_by_name(const char *s, size_t len)
{
    for (unsigned e = 0; e < PMU_NEVENTS; e++)
        if (ieq(s, len, pmu_event_table[e].name))
            return (int)e;
    return -1;
}

/* The event a PMC's (es, umask) selects on a model; -1 when none. */
static int event_by_code(unsigned es, unsigned umask, pmu_model m)
{
    for (unsigned e = 0; e < PMU_NEVENTS; e++)
        if (pmu_event_code(&pmu_event_table[e], m) == (int)es && pmu_event_table[e].umask == umask)
            return (int)e;
    return -1;
}

/* Case-insensitive edit distance, for "did you mean". */
static unsigned edit_distance(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    unsigned row[128];
    if (blen >= sizeof row / sizeof row[0])
        blen = sizeof row / sizeof row[0] - 1;
    for (size_t j = 0; j <= blen; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= alen; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= blen; j++) {
            unsigned up = row[j];
            unsigned cost = lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
            unsigned best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[blen];
}

static const char *closest_event(const char *s, size_t len)
{
    unsigned best = ~0u;
    const char *name = pmu_event_table[0].name;
    for (unsigned e = 0; e < PMU_NEVENTS; e++) {
        unsigned d = edit_distance(s, len, pmu_event_table[e].name);
        if (d < best) {
            best = d;
            name = pmu_event_table[e].name;
        }
    }
    return name;
}

/* "PMC4" or "PMC4, PMC5, PMC6, PMC7" from an event's counter mask. */
static void counter_list(unsigned mask, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < 8; i++)
        if (mask & (1u << i))
            append(buf, size, "%sPMC%u", buf[0] ? ", " : "", i);
}

/* Events counted per cycle, not per retired instruction: no instruction carries a
 * tag, so no range or opcode constrains them (semantics.md). */
static int event_per_cycle(int e) { return e == PMU_EV_CPU_CYCLES || e == PMU_EV_L2_FORCE_RECIRC_ANY; }

/* The IBR pair whose tag an instruction event uses: IA64_TAGGED_INST_RETIRED umask k
 * uses pair k, every other event pair 0 (Tag(PMC8)). */
static unsigned event_pair(int e)
{
    const pmu_event_desc *tagged = &pmu_event_table[PMU_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8];
    return pmu_event_table[e].code == tagged->code ? pmu_event_table[e].umask : 0;
}

/* ---- named instruction classes ------------------------------------------------------ */

/* The IA-64 instruction bits a class fixes (Intel IA-64 Architecture Software
 * Developer's Manual vol. 3, instruction formats; the instruction format, not a
 * register layout).  Only bits {40:27,12:0} reach the matchers, so every `care` is
 * cut to that window. */
#define INSN_BITS_RANGE(hi, lo) ((((uint64_t)2 << ((hi) - (lo))) - 1) << (lo))
#define INSN_WINDOW (INSN_BITS_RANGE(40, 27) | INSN_BITS_RANGE(12, 0))
#define INSN_MAJOR(v) ((uint64_t)(v) << 37)  /* major opcode, bits 40:37 */
#define INSN_X6(v) ((uint64_t)(v) << 27)     /* x6, bits 32:27 (B4, B8, M44, M25, nops) */
#define INSN_X6A(v) ((uint64_t)(v) << 30)    /* x6, bits 35:30 of the memory formats */
#define INSN_BTYPE(v) ((uint64_t)(v) << 6)   /* btype, bits 8:6 */
#define INSN_IMM_PSR_UP ((uint64_t)1 << 8)   /* rum/sum imm21a bit 2 = instruction bit 8: PSR.up */
#define CARE(x) ((x) & INSN_WINDOW)
#define CARE_ALL CARE(INSN_BITS_RANGE(40, 0))
#define CARE_MEM CARE(INSN_BITS_RANGE(40, 32) | INSN_BITS_RANGE(29, 27))
#define CARE_STORE CARE(INSN_BITS_RANGE(40, 32) | INSN_BITS_RANGE(29, 27) | INSN_BITS_RANGE(12, 6))
#define CARE_IPREL CARE(INSN_BITS_RANGE(40, 37) | INSN_BITS_RANGE(35, 35) | INSN_BITS_RANGE(12, 6))
#define CARE_IPREL_QP CARE(CARE_IPREL | INSN_BITS_RANGE(5, 0))

/* The one table of named classes.  Each is the stream generator's exact encoding of an
 * instruction class (docs/stream-format.md, "Encodings"), seen through the matcher's
 * window; docs/config-format.md shows the table and a test checks it against the
 * instructions the generator emits. */
const pmu_opcode_class pmu_opcode_classes[] = {
    {"nop", "mif", INSN_X6(0x01), CARE_ALL, "nop.m, nop.i, nop.f"},
    {"nop.b", "b", INSN_MAJOR(2), CARE_ALL, "nop.b"},
    {"ld", "m", INSN_MAJOR(4), CARE_MEM, "integer loads ld1..ld8"},
    {"st", "m", INSN_MAJOR(4) | INSN_X6A(0x30), CARE_STORE, "integer stores st1..st8"},
    {"ldf", "m", INSN_MAJOR(6), CARE_MEM, "floating-point loads"},
    {"stf", "m", INSN_MAJOR(6) | INSN_X6A(0x30), CARE_STORE, "floating-point stores"},
    {"loadrs", "m", INSN_X6(0x0a), CARE_ALL, "loadrs (register-stack-engine fills)"},
    {"rum", "m", INSN_X6(0x05) | INSN_IMM_PSR_UP, CARE_ALL, "rum psr.up"},
    {"sum", "m", INSN_X6(0x04) | INSN_IMM_PSR_UP, CARE_ALL, "sum psr.up"},
    {"fma", "f", INSN_MAJOR(8), CARE(INSN_BITS_RANGE(40, 39)), "fma, fms and their .d forms (major 8..0xb)"},
    {"alu", "mi", INSN_MAJOR(8), CARE(INSN_BITS_RANGE(40, 31)), "add, sub, and, or (A1 format)"},
    {"br.cond", "b", INSN_MAJOR(4), CARE_IPREL, "ip-relative br.cond, any predicate (so br too)"},
    {"br", "b", INSN_MAJOR(4), CARE_IPREL_QP, "unconditional ip-relative br (br.cond on p0)"},
    {"br.cloop", "b", INSN_MAJOR(4) | INSN_BTYPE(5), CARE_IPREL_QP, "br.cloop (counted loops)"},
    {"br.ctop", "b", INSN_MAJOR(4) | INSN_BTYPE(7), CARE_IPREL_QP, "br.ctop (software-pipelined loops)"},
    {"br.call", "b", INSN_MAJOR(5), CARE_IPREL, "ip-relative br.call"},
    {"br.call.ind", "b", INSN_MAJOR(1),
     CARE(INSN_BITS_RANGE(40, 35) | INSN_BITS_RANGE(31, 16) | INSN_BITS_RANGE(12, 0)), "indirect br.call"},
    {"br.ret", "b", INSN_X6(0x21) | INSN_BTYPE(4),
     CARE(INSN_BITS_RANGE(40, 35) | INSN_BITS_RANGE(32, 0)), "br.ret"},
    {"rfi", "b", INSN_X6(0x08), CARE_ALL, "rfi (return from interruption)"},
};
const unsigned pmu_opcode_nclasses = sizeof pmu_opcode_classes / sizeof pmu_opcode_classes[0];

uint32_t pmu_opcode_bits(uint64_t enc)
{
    uint64_t low = enc & field_ones(OPC_LOW_BITS);
    uint64_t high = (enc >> OPC_HIGH_LSB) & field_ones(OPC_HIGH_BITS);
    return (uint32_t)(high << OPC_LOW_BITS | low);
}

/* PMC8/9 field values of a class: match, mask (1 = don't care) over the 27 bits. */
static void class_fields(const pmu_opcode_class *c, uint64_t *match, uint64_t *mask)
{
    *match = pmu_opcode_bits(c->enc);
    *mask = ~(uint64_t)pmu_opcode_bits(c->care) & field_ones(PMU_F_PMC_OPC_MASK_WIDTH);
}

static const char unit_letters[] = "mifb"; /* PMC8/9 fields M, I, F, B */

static const pmu_field_desc *unit_field(unsigned i)
{
    static const char *const names[4] = {"M", "I", "F", "B"};
    return field_of("PMC_OPC", names[i]);
}

/* "mifb" subset -> PMC8/9 with the unit enables set accordingly. */
static uint64_t set_units(uint64_t pmc, const char *units, size_t len)
{
    for (unsigned i = 0; i < 4; i++)
        pmc = fset(pmc, unit_field(i), memchr(units, unit_letters[i], len) != NULL);
    return pmc;
}

static void units_of(uint64_t pmc, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < 4; i++)
        if (fget(pmc, unit_field(i)))
            append(buf, size, "%c", unit_letters[i]);
    if (!buf[0])
        snprintf(buf, size, "none");
}

/* The class a matcher value programs (match, mask and units), or NULL. */
static const pmu_opcode_class *class_of(uint64_t pmc)
{
    uint64_t match = fget(pmc, field_of("PMC_OPC", "MATCH"));
    uint64_t mask = fget(pmc, field_of("PMC_OPC", "MASK"));
    char units[8];
    units_of(pmc, units, sizeof units);
    for (unsigned i = 0; i < pmu_opcode_nclasses; i++) {
        const pmu_opcode_class *c = &pmu_opcode_classes[i];
        uint64_t cmatch, cmask;
        class_fields(c, &cmatch, &cmask);
        if (cmask == mask && (match & ~mask) == cmatch && strcmp(units, c->units) == 0)
            return c;
    }
    return NULL;
}

/* A matcher that every slot passes: all bits don't care, every unit enabled. */
static int matcher_all(uint64_t pmc)
{
    const pmu_field_desc *mask = field_of("PMC_OPC", "MASK");
    for (unsigned i = 0; i < 4; i++)
        if (!fget(pmc, unit_field(i)))
            return 0;
    return fget(pmc, mask) == field_ones(mask->msb - mask->lsb + 1);
}

/* ---- one line -------------------------------------------------------------- */

typedef struct token {
    const char *s;
    size_t len;
} token;

#define MAX_TOKENS 32

/* Checks that a field value fits the field's writable bits for the model. */
static int check_field_value(parser *p, const pmu_reg_desc *reg, const pmu_field_desc *f,
                             const char *fname, uint64_t x)
{
    unsigned width = f->msb - f->lsb + 1;
    uint64_t ones = field_ones(width);
    uint64_t writable = (reg->wmask[p->model] >> f->lsb) & ones;
    char max[32];
    if (x > ones) {
        fmt_num(max, sizeof max, ones);
        return fail(p, fname, "expected 0..%s (%u bits), found %" PRIu64, max, width, x);
    }
    if (x & ~writable) {
        fmt_num(max, sizeof max, writable);
        if ((writable & (writable + 1)) == 0) /* the writable bits are the low ones */
            return fail(p, fname, "expected 0..%s on %s, found %" PRIu64, max, model_name(p->model), x);
        return fail(p, fname, "expected only bits of mask %s on %s, found %" PRIu64, max,
                    model_name(p->model), x);
    }
    return 0;
}

/* A field without a writable bit on the model does not exist there (PMC4.enable,
 * PMC8.ig_ad and PMC13's cfg_dbrp fields on Itanium, PMC13.ta on Itanium 2). */
static int check_field_implemented(parser *p, unsigned v, const pmu_field_desc *f, const char *fname)
{
    uint64_t writable = (reg_of_vis(v)->wmask[p->model] >> f->lsb) & field_ones(f->msb - f->lsb + 1);
    if (writable)
        return 0;
    return fail(p, fname, "expected a field that %s implements: %s.%s has no writable bits there",
                model_name(p->model), pmu_vis_table[v].name, fname);
}

/* A PMC0 overflow bit set before the run would be folded as a wrap that never happened. */
static int check_pmc0(parser *p, const char *fname, uint64_t value)
{
    const pmu_field_desc *ovf = field_of("PMC0", "OVF");
    if (ovf && fget(value, ovf) != 0)
        return fail(p, fname,
                    "expected ovf = 0: the overflow service cannot tell a preset overflow bit "
                    "from a counter wrap");
    return 0;
}

static int parse_raw(parser *p, pmu_config *cfg, unsigned v, const token *tok, unsigned ntok)
{
    const char *rname = pmu_vis_table[v].name;
    const pmu_reg_desc *reg = reg_of_vis(v);
    uint64_t value;
    if (ntok == 0)
        return fail(p, rname, "expected a value after '='");
    if (ntok > 1)
        return fail(p, rname, "expected one value after '=', found '%.*s' after it",
                    (int)tok[1].len, tok[1].s);
    if (parse_u64(tok[0].s, tok[0].len, &value) != 0)
        return fail(p, rname, "expected a number (decimal or 0x hex), found '%.*s'", (int)tok[0].len,
                    tok[0].s);
    uint64_t wmask = reg->wmask[p->model], reset = reg->reset[p->model];
    uint64_t reserved = (value ^ reset) & ~wmask;
    if (reserved)
        return fail(p, rname,
                    "expected no bits outside the writable mask 0x%" PRIx64 " on %s; "
                    "0x%" PRIx64 " sets reserved bits 0x%" PRIx64,
                    wmask, model_name(p->model), value, reserved);
    if (v == PMU_VIS_PMC0 && check_pmc0(p, rname, value) != 0)
        return -1;
    cfg->value[v] = value;
    return 0;
}

/* Splits "name=value"; returns 0 and the parts, -1 when there is no '=' or no name. */
static int split_kv(const token *t, char *key, size_t ksize, const char **val, size_t *vlen)
{
    const char *eq = memchr(t->s, '=', t->len);
    if (!eq || eq == t->s)
        return -1;
    size_t nlen = (size_t)(eq - t->s);
    snprintf(key, ksize, "%.*s", (int)(nlen < ksize - 1 ? nlen : ksize - 1), t->s);
    lower_copy(key, ksize, key);
    *val = eq + 1;
    *vlen = t->len - nlen - 1;
    return 0;
}

/* Remembers the names given on a line; fails on the second of a name. */
typedef struct seen_set {
    char name[MAX_TOKENS][24];
    unsigned n;
} seen_set;

static int seen_once(parser *p, seen_set *s, const char *name)
{
    for (unsigned k = 0; k < s->n; k++)
        if (strcmp(s->name[k], name) == 0)
            return fail(p, name, "given twice on this line");
    if (s->n < MAX_TOKENS)
        snprintf(s->name[s->n++], sizeof s->name[0], "%s", name);
    return 0;
}

static int parse_fields(parser *p, pmu_config *cfg, unsigned v, const token *tok, unsigned ntok)
{
    const char *rname = pmu_vis_table[v].name;
    const char *group = pmu_vis_table[v].field_group;
    const pmu_reg_desc *reg = reg_of_vis(v);
    const int gen = is_counter_config(v);
    const unsigned ctr = gen ? v - PMU_VIS_PMC4 : 0;
    const unsigned pmc_index = PMU_FIRST_COUNTER + ctr;
    char names[256];

    if (strcmp(group, "NONE") == 0)
        return fail(p, rname, "expected '%s = value': a counter has no fields", rname);
    if (ntok == 0)
        return fail(p, rname, "expected '= value' or fields name=value");

    uint64_t value = reg->reset[p->model];
    int have_oi = 0, have_es = 0, have_umask = 0, have_thres = 0, ev = -1;
    uint64_t period = 0;
    seen_set seen = {.n = 0};

    for (unsigned i = 0; i < ntok; i++) {
        char fname[24];
        const char *val;
        size_t vlen;
        if (split_kv(&tok[i], fname, sizeof fname, &val, &vlen) != 0) {
            field_names(group, names, sizeof names);
            return fail(p, rname, "expected name=value, found '%.*s' (fields: %s%s)",
                        (int)tok[i].len, tok[i].s, names, gen ? ", event, period" : "");
        }
        if (seen_once(p, &seen, fname) != 0)
            return -1;
        if (vlen == 0)
            return fail(p, fname, "expected a value after '='");

        if (gen && strcmp(fname, "event") == 0) {
            ev = event_by_name(val, vlen);
            if (ev < 0)
                return fail(p, "event", "unknown event '%.*s'; did you mean %s?", (int)vlen, val,
                            closest_event(val, vlen));
            continue;
        }
        if (gen && strcmp(fname, "period") == 0) {
            unsigned w = pmu_counter_width(p->model);
            if (parse_u64(val, vlen, &period) != 0 || period == 0 || period > (UINT64_C(1) << w))
                return fail(p, "period", "expected 1..2^%u (2^%u = 0x%" PRIx64 ": the %s counter range), found '%.*s'",
                            w, w, UINT64_C(1) << w, model_name(p->model), (int)vlen, val);
            continue;
        }
        const pmu_field_desc *f = field_by_name(group, fname, strlen(fname));
        if (!f) {
            field_names(group, names, sizeof names);
            return fail(p, fname, "unknown field of %s; expected one of %s%s", rname, names,
                        gen ? ", event, period" : "");
        }
        if (check_field_implemented(p, v, f, fname) != 0)
            return -1;
        uint64_t x;
        if (strcmp(f->name, "ISM") == 0 && !(vlen > 0 && val[0] >= '0' && val[0] <= '9')) {
            /* ism names what is counted: bit 0 disables IA-64, bit 1 disables IA-32. */
            if (ieq(val, vlen, "both"))
                x = 0;
            else if (ieq(val, vlen, "ia64"))
                x = 2;
            else if (ieq(val, vlen, "ia32"))
                x = 1;
            else if (ieq(val, vlen, "none"))
                x = 3;
            else
                return fail(p, "ism", "expected both, ia64, ia32, none or 0..3, found '%.*s'",
                            (int)vlen, val);
        } else if (parse_u64(val, vlen, &x) != 0) {
            return fail(p, fname, "expected a number (decimal or 0x hex), found '%.*s'", (int)vlen, val);
        }
        if (check_field_value(p, reg, f, fname, x) != 0)
            return -1;
        value = fset(value, f, x);
        if (gen && strcmp(f->name, "OI") == 0)
            have_oi = 1;
        if (gen && strcmp(f->name, "ES") == 0)
            have_es = 1;
        if (gen && strcmp(f->name, "UMASK") == 0)
            have_umask = 1;
        if (gen && strcmp(f->name, "THRES") == 0)
            have_thres = 1;
    }

    if (gen) {
        const pmu_field_desc *f_es = field_of("PMC_GEN", "ES"), *f_um = field_of("PMC_GEN", "UMASK");
        const pmu_field_desc *f_oi = field_of("PMC_GEN", "OI"), *f_th = field_of("PMC_GEN", "THRES");
        const char *ev_field = "es";
        if (ev >= 0) {
            const pmu_event_desc *e = &pmu_event_table[ev];
            if (have_es || have_umask)
                return fail(p, "event", "sets es and umask itself; give either event= or es=/umask=");
            int code = pmu_event_code(e, p->model);
            if (code < 0)
                return fail(p, "event", "%s is not implemented on %s (the event table gives it no %s code)",
                            e->name, model_name(p->model), model_name(p->model));
            uint64_t es_writable = (reg->wmask[p->model] >> f_es->lsb) & field_ones(f_es->msb - f_es->lsb + 1);
            if ((uint64_t)code & ~es_writable)
                return fail(p, "event", "%s (es 0x%02x) cannot be programmed on %s: es is %d bits there",
                            e->name, code, model_name(p->model), __builtin_popcountll(es_writable));
            value = fset(fset(value, f_es, (uint64_t)code), f_um, e->umask);
            ev_field = "event";
        } else {
            ev = event_by_code((unsigned)fget(value, f_es), (unsigned)fget(value, f_um), p->model);
        }
        if (ev >= 0) {
            const pmu_event_desc *e = &pmu_event_table[ev];
            unsigned allowed = pmu_event_counters(e, p->model);
            if (!(allowed & (1u << pmc_index))) {
                counter_list(allowed, names, sizeof names);
                return fail(p, ev_field, "%s can only be counted on %s (counter mask 0x%02x), not on PMC%u",
                            e->name, names, allowed, pmc_index);
            }
            uint64_t thres = fget(value, f_th);
            if (have_thres && thres >= e->maxincr) {
                if (e->maxincr <= 1)
                    return fail(p, "thres", "expected 0 for %s (maxincr %u: at most one per cycle)",
                                e->name, e->maxincr);
                return fail(p, "thres", "expected 0..%u for %s (maxincr %u), found %" PRIu64,
                            e->maxincr - 1u, e->name, e->maxincr, thres);
            }
        }
        /* oi=1 unless given, so the overflow service sees every wrap. */
        if (!have_oi)
            value = fset(value, f_oi, 1);
        cfg->period[ctr] = period;
    }
    if (v == PMU_VIS_PMC0 && check_pmc0(p, "ovf", value) != 0)
        return -1;
    cfg->value[v] = value;
    return 0;
}

/* ---- irange and drange ------------------------------------------------------------ */

static void fmt_range(char *buf, size_t size, uint64_t start, uint64_t end)
{
    snprintf(buf, size, "0x%" PRIx64 "..0x%" PRIx64, start, end);
}

/* What a range that is not one aligned power-of-two block would need: the blocks it
 * splits into (a pair each) and the smallest block covering it. */
static void block_hint(uint64_t start, uint64_t end, int code_range, pmu_model m, char *buf,
                       size_t size)
{
    char r[64], list[192] = "";
    unsigned n = 0;
    for (uint64_t cur = start; cur < end; n++) {
        uint64_t blk = cur ? cur & -cur : UINT64_C(1) << 63;
        while (blk > end - cur)
            blk >>= 1;
        if (n < 4) {
            fmt_range(r, sizeof r, cur, cur + blk);
            append(list, sizeof list, "%s%s", n ? ", " : "", r);
        }
        cur += blk;
    }
    fmt_range(r, sizeof r, start, end);
    snprintf(buf, size, "%s needs %u blocks (%s%s; one pair each)", r, n, list, n > 4 ? ", ..." : "");
    /* The smallest aligned block holding the whole range. */
    const uint64_t top = UINT64_C(1) << 62;
    uint64_t len = end - start, cover = 1;
    while (cover < len && cover <= top)
        cover <<= 1;
    while (cover <= top && (start & ~(cover - 1)) != ((end - 1) & ~(cover - 1)))
        cover <<= 1;
    if (cover <= top) {
        uint64_t cs = start & ~(cover - 1);
        fmt_range(r, sizeof r, cs, cs + cover);
        append(buf, size, " or the covering block %s", r);
    }
    if (code_range && m == PMU_MODEL_ITANIUM2 && start / FINE_PAGE_BYTES == (end - BUNDLE_BYTES) / FINE_PAGE_BYTES)
        append(buf, size, "; within one 4 KB page, 'fine' takes any bundle range");
}

static int parse_range(parser *p, pmu_config *cfg, int code, const token *tok, unsigned ntok)
{
    const char *what = code ? "irange" : "drange";
    const char *regs = code ? "IBR" : "DBR";
    pmu_config_pair *pairs = code ? cfg->ipair : cfg->dpair;
    const unsigned first_vis = code ? PMU_VIS_IBR0 : PMU_VIS_DBR0;
    const char *fields = code ? "pair, plm, addr, mask, fine" : "pair, plm, addr, mask, cfg";
    int have_range = 0, have_addr = 0, have_mask = 0, have_pair = 0, have_cfg = 0, fine = 0;
    const uint64_t plm_all = field_ones(PMU_F_IBR_MASK_PLM_WIDTH);
    uint64_t start = 0, end = 0, addr = 0, mask = 0, pair = 0, plm = plm_all, cfgv = DBRP_DBR;
    seen_set seen = {.n = 0};
    char r[64];

    for (unsigned i = 0; i < ntok; i++) {
        char key[24];
        const char *val;
        size_t vlen;
        if (split_kv(&tok[i], key, sizeof key, &val, &vlen) != 0) {
            const char *dots = NULL;
            for (size_t k = 0; k + 1 < tok[i].len; k++)
                if (tok[i].s[k] == '.' && tok[i].s[k + 1] == '.') {
                    dots = tok[i].s + k;
                    break;
                }
            if (code && ieq(tok[i].s, tok[i].len, "fine")) {
                if (seen_once(p, &seen, "fine") != 0)
                    return -1;
                fine = 1;
                continue;
            }
            if (dots) {
                if (seen_once(p, &seen, "range") != 0)
                    return -1;
                size_t left = (size_t)(dots - tok[i].s);
                if (parse_u64(tok[i].s, left, &start) != 0 ||
                    parse_u64(dots + 2, tok[i].len - left - 2, &end) != 0)
                    return fail(p, "range", "expected START..END, two addresses (decimal or 0x hex), found '%.*s'",
                                (int)tok[i].len, tok[i].s);
                have_range = 1;
                continue;
            }
            return fail(p, what, "expected START..END%s or name=value, found '%.*s' (fields: %s)",
                        code ? ", fine" : "", (int)tok[i].len, tok[i].s, fields);
        }
        if (seen_once(p, &seen, key) != 0)
            return -1;
        if (vlen == 0)
            return fail(p, key, "expected a value after '='");
        uint64_t x;
        int known = strcmp(key, "pair") == 0 || strcmp(key, "plm") == 0 || strcmp(key, "addr") == 0 ||
                    strcmp(key, "mask") == 0 || (!code && strcmp(key, "cfg") == 0);
        if (!known)
            return fail(p, key, "unknown field of %s; expected one of %s", what, fields);
        if (parse_u64(val, vlen, &x) != 0)
            return fail(p, key, "expected a number (decimal or 0x hex), found '%.*s'", (int)vlen, val);
        if (strcmp(key, "pair") == 0) {
            if (x >= PMU_CONFIG_PAIRS)
                return fail(p, "pair", "expected 0..%u, found %" PRIu64, PMU_CONFIG_PAIRS - 1, x);
            pair = x;
            have_pair = 1;
        } else if (strcmp(key, "plm") == 0) {
            if (x == 0 || x > plm_all)
                return fail(p, "plm", "expected 1..%" PRIu64 " (bit k: the pair matches at cpl k), found %" PRIu64,
                            plm_all, x);
            plm = x;
        } else if (strcmp(key, "addr") == 0) {
            addr = x;
            have_addr = 1;
        } else if (strcmp(key, "mask") == 0) {
            mask = x;
            have_mask = 1;
        } else {
            if (p->model == PMU_MODEL_ITANIUM)
                return fail(p, "cfg", "expected no cfg on Itanium: PMC13 has no per-pair memory "
                                      "qualification there (PMC11.pt = 0 enables the data-address check)");
            if (x >= DBRP_NONE)
                return fail(p, "cfg", "expected 0 (IBR, opcode and DBR), 1 (IBR and opcode) or 2 (DBR only), found %" PRIu64, x);
            cfgv = x;
            have_cfg = 1;
        }
    }

    /* The form. */
    if (!have_range && !have_addr && !have_mask)
        return fail(p, what, "expected a range START..END or addr=A mask=M");
    if (have_range && (have_addr || have_mask))
        return fail(p, have_addr ? "addr" : "mask", "expected either START..END or addr=/mask=, not both");
    if (have_addr && !have_mask)
        return fail(p, "mask", "expected mask=M with addr= (mask bit 1 = compare that address bit)");
    if (have_mask && !have_addr)
        return fail(p, "addr", "expected addr=A with mask=");
    if (!have_pair)
        return fail(p, "pair", "expected pair=0..%u (the %s pair to program)", PMU_CONFIG_PAIRS - 1, regs);
    if (fine) {
        if (p->model == PMU_MODEL_ITANIUM)
            return fail(p, "fine", "expected no fine on Itanium: fine mode (PMC14.fine) is an Itanium 2 feature");
        if (!have_range)
            return fail(p, "fine", "expected START..END with fine: fine mode compares bounds, the masks are not used");
        if (pair >= FINE_UPPER_OFFSET)
            return fail(p, "pair", "expected 0 or 1 for a fine range (pairs 2 and 3 hold the upper "
                                   "bounds of pairs 0 and 1), found %" PRIu64,
                        pair);
    }

    /* The addresses. */
    uint64_t ones56 = field_ones(PMU_F_IBR_MASK_MASK_MSB + 1);
    uint64_t reg_addr, reg_mask;
    if (have_range) {
        fmt_range(r, sizeof r, start, end);
        if (code && (start % BUNDLE_BYTES || end % BUNDLE_BYTES))
            return fail(p, "range", "expected both ends 16-byte aligned (code ranges are whole bundles), found %s", r);
        if (end <= start)
            return fail(p, "range", "expected START < END (END is excluded), found %s", r);
        if (fine) {
            uint64_t last = end - BUNDLE_BYTES;
            if (start / FINE_PAGE_BYTES != last / FINE_PAGE_BYTES)
                return fail(p, "range", "expected a fine range within one 4 KB page, found %s (it crosses 0x%" PRIx64 ")",
                            r, (start / FINE_PAGE_BYTES + 1) * FINE_PAGE_BYTES);
            reg_addr = start;
            reg_mask = ones56;
        } else {
            uint64_t len = end - start;
            if (!is_pow2(len) || start % len) {
                char hint[400];
                block_hint(start, end, code, p->model, hint, sizeof hint);
                return fail(p, "range", "expected an aligned power-of-two block (a pair covers one): %s", hint);
            }
            if (len > ones56 + 1)
                return fail(p, "range", "expected at most 2^56 bytes (address bits 63:56 are always compared), found %s", r);
            reg_addr = start;
            reg_mask = ~(len - 1) & ones56;
        }
    } else {
        uint64_t high = mask >> (PMU_F_IBR_MASK_MASK_MSB + 1);
        if (high != 0 && high != (~UINT64_C(0) >> (PMU_F_IBR_MASK_MASK_MSB + 1)))
            return fail(p, "mask", "expected bits 63:56 all set or all clear (the pair always compares "
                                   "address bits 63:56; the register holds mask bits 55:0), found 0x%" PRIx64, mask);
        if (code && addr % BUNDLE_BYTES)
            return fail(p, "addr", "expected a 16-byte aligned address (code ranges are whole bundles), found 0x%" PRIx64, addr);
        reg_addr = addr;
        reg_mask = mask & ones56;
    }

    /* The pair(s). */
    unsigned k = (unsigned)pair, upper = k + FINE_UPPER_OFFSET;
    for (unsigned n = 0; n < (fine ? 2u : 1u); n++) {
        unsigned q = n ? upper : k;
        const char *role = n ? " (the upper bound of this fine range)" : "";
        if (pairs[q].line)
            return fail(p, "pair", "%s pair %u%s is already programmed by the %s on line %u", regs, q,
                        role, what, pairs[q].line);
        for (unsigned w = 0; w < 2; w++)
            if (cfg->line[first_vis + 2 * q + w])
                return fail(p, "pair", "%s pair %u%s is already programmed by the %s line %u; give "
                                       "either the %s or the %s lines",
                            regs, q, role, pmu_vis_table[first_vis + 2 * q + w].name,
                            cfg->line[first_vis + 2 * q + w], what, regs);
    }
    if (code)
        for (unsigned q = 0; q < PMU_CONFIG_PAIRS; q++)
            if (pairs[q].line && (pairs[q].fine != 0) != fine)
                return fail(p, "fine", "expected every irange fine or none (PMC14.fine switches all "
                                       "pairs); the irange on line %u is %s",
                            pairs[q].line, fine ? "not fine" : "fine");

    const pmu_field_desc *f_mask = field_of(code ? "IBR_MASK" : "DBR_MASK", "MASK");
    const pmu_field_desc *f_plm = field_of(code ? "IBR_MASK" : "DBR_MASK", "PLM");
    for (unsigned n = 0; n < (fine ? 2u : 1u); n++) {
        unsigned q = n ? upper : k;
        unsigned ev = first_vis + 2 * q, od = ev + 1;
        cfg->value[ev] = n ? end - BUNDLE_BYTES : reg_addr;
        cfg->value[od] = fset(fset(reset_of(od, p->model), f_mask, reg_mask), f_plm, plm);
        cfg->line[ev] = cfg->line[od] = p->line;
        cfg->derived[ev] = cfg->derived[od] = 1;
        pairs[q].line = p->line;
        pairs[q].fine = (uint8_t)(fine ? n + 1 : 0);
        pairs[q].cfg = (uint8_t)cfgv;
        pairs[q].cfg_given = (uint8_t)have_cfg;
    }
    return 0;
}

/* ---- opcode ------------------------------------------------------------------------ */

static void class_names(char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < pmu_opcode_nclasses; i++)
        append(buf, size, "%s%s", i ? ", " : "", pmu_opcode_classes[i].name);
}

static int parse_opcode(parser *p, pmu_config *cfg, const token *tok, unsigned ntok)
{
    if (ntok == 0 || !(ieq(tok[0].s, tok[0].len, "PMC8") || ieq(tok[0].s, tok[0].len, "PMC9")))
        return fail(p, "opcode", "expected PMC8 or PMC9 after 'opcode', found '%.*s'",
                    ntok ? (int)tok[0].len : 0, ntok ? tok[0].s : "");
    const int idx = ieq(tok[0].s, tok[0].len, "PMC9");
    const unsigned v = idx ? PMU_VIS_PMC9 : PMU_VIS_PMC8;
    const char *rname = pmu_vis_table[v].name;
    if (cfg->line[v])
        return fail(p, rname, "duplicate register line (first at line %u)", cfg->line[v]);

    const pmu_field_desc *f_match = field_of("PMC_OPC", "MATCH"), *f_mask = field_of("PMC_OPC", "MASK");
    const uint64_t field_max = field_ones(f_match->msb - f_match->lsb + 1);
    const pmu_opcode_class *cls = NULL;
    int have_match = 0, have_mask = 0, have_units = 0, have_tie = 0;
    uint64_t match = 0, mask = 0, inv = 0, ig_ad = 0;
    char units[8] = "mifb";
    unsigned tie = 0;
    seen_set seen = {.n = 0};
    char names[256];

    for (unsigned i = 1; i < ntok; i++) {
        char key[24];
        const char *val;
        size_t vlen;
        if (split_kv(&tok[i], key, sizeof key, &val, &vlen) != 0)
            return fail(p, "opcode", "expected name=value, found '%.*s' (fields: class, match, mask, "
                                     "slots, inv, ig_ad, tie)",
                        (int)tok[i].len, tok[i].s);
        if (seen_once(p, &seen, key) != 0)
            return -1;
        if (vlen == 0)
            return fail(p, key, "expected a value after '='");
        uint64_t x = 0;
        if (strcmp(key, "class") == 0) {
            for (unsigned c = 0; c < pmu_opcode_nclasses; c++)
                if (ieq(val, vlen, pmu_opcode_classes[c].name))
                    cls = &pmu_opcode_classes[c];
            if (!cls) {
                class_names(names, sizeof names);
                return fail(p, "class", "unknown class '%.*s'; expected one of %s", (int)vlen, val, names);
            }
        } else if (strcmp(key, "match") == 0 || strcmp(key, "mask") == 0) {
            if (parse_u64(val, vlen, &x) != 0)
                return fail(p, key, "expected a number (decimal or 0x hex), found '%.*s'", (int)vlen, val);
            if (x > field_max)
                return fail(p, key, "expected 0..0x%" PRIx64 " (27 bits over instruction bits {40:27,12:0}), found 0x%" PRIx64,
                            field_max, x);
            if (strcmp(key, "match") == 0) {
                match = x;
                have_match = 1;
            } else {
                mask = x;
                have_mask = 1;
            }
        } else if (strcmp(key, "slots") == 0) {
            char want[8];
            int ok = vlen <= 4;
            if (ok) {
                snprintf(want, sizeof want, "%.*s", (int)vlen, val);
                lower_copy(want, sizeof want, want);
            }
            for (size_t c = 0; ok && c < vlen; c++)
                ok = strchr(unit_letters, want[c]) != NULL && !memchr(want, want[c], c);
            if (!ok)
                return fail(p, "slots", "expected the units to match in, letters from m, i, f, b "
                                        "(e.g. slots=b or slots=mi), found '%.*s'",
                            (int)vlen, val);
            snprintf(units, sizeof units, "%s", want);
            have_units = 1;
        } else if (strcmp(key, "inv") == 0 || strcmp(key, "ig_ad") == 0) {
            if (p->model == PMU_MODEL_ITANIUM)
                return fail(p, key, "expected no %s on Itanium: PMC8 has no ig_ad or inv there", key);
            if (idx)
                return fail(p, key, "expected %s only on PMC8: PMC9's ig_ad and inv have no effect", key);
            if (parse_u64(val, vlen, &x) != 0 || x > 1)
                return fail(p, key, "expected 0 or 1, found '%.*s'", (int)vlen, val);
            if (strcmp(key, "inv") == 0)
                inv = x;
            else
                ig_ad = x;
        } else if (strcmp(key, "tie") == 0) {
            if (p->model == PMU_MODEL_ITANIUM)
                return fail(p, "tie", "expected no tie on Itanium: PMC15 is an Itanium 2 register "
                                      "(Itanium always ties pairs 0, 2 to PMC8 and 1, 3 to PMC9)");
            have_tie = 1;
            if (!ieq(val, vlen, "none")) {
                size_t at = 0;
                while (at <= vlen) {
                    size_t e = at;
                    while (e < vlen && val[e] != ',')
                        e++;
                    unsigned k = PMU_CONFIG_PAIRS;
                    for (unsigned q = 0; q < PMU_CONFIG_PAIRS; q++) {
                        char nm[8];
                        snprintf(nm, sizeof nm, "ibrp%u", q);
                        if (ieq(val + at, e - at, nm))
                            k = q;
                    }
                    if (k == PMU_CONFIG_PAIRS || k % 2 != (unsigned)idx)
                        return fail(p, "tie", "expected none or ibrp%u and/or ibrp%u for %s (pairs %u and %u go "
                                              "with %s), found '%.*s'",
                                    (unsigned)idx, (unsigned)idx + 2, rname, 1u - idx, 3u - idx,
                                    idx ? "PMC8" : "PMC9", (int)(e - at), val + at);
                    if (tie & (1u << k))
                        return fail(p, "tie", "ibrp%u given twice", k);
                    tie |= 1u << k;
                    at = e + 1;
                }
            }
        } else {
            return fail(p, key, "unknown field of opcode; expected one of class, match, mask, slots, inv, ig_ad, tie");
        }
    }
    if (cls && (have_match || have_mask))
        return fail(p, "class", "sets match and mask itself; give either class= or match=/mask=");
    if (!cls && !have_match && !have_mask)
        return fail(p, "opcode", "expected class=NAME or match=M mask=M");
    if (have_match && !have_mask)
        return fail(p, "mask", "expected mask=M with match= (27 bits, 1 = don't care)");
    if (have_mask && !have_match)
        return fail(p, "match", "expected match=M with mask=");
    if (cls) {
        class_fields(cls, &match, &mask);
        if (!have_units)
            snprintf(units, sizeof units, "%s", cls->units);
    }

    /* ig_ad = inv = 0 unless given (libpfm's PMC8 under a code range): with ig_ad = 1 an
     * irange on pairs 0 and 2 would have no effect. */
    uint64_t value = reset_of(v, p->model);
    if (p->model == PMU_MODEL_ITANIUM2) {
        value = fset(value, field_of("PMC_OPC", "IG_AD"), ig_ad);
        value = fset(value, field_of("PMC_OPC", "INV"), inv);
    }
    value = fset(fset(value, f_match, match), f_mask, mask);
    value = set_units(value, units, strlen(units));
    cfg->value[v] = value;
    cfg->line[v] = p->line;
    cfg->opcode_line[idx] = p->line;
    if (have_tie) {
        cfg->tie_line[idx] = p->line;
        cfg->tie_pairs[idx] = (uint8_t)tie;
    }
    return 0;
}

/* ---- lines and the whole file ------------------------------------------------------- */

static int parse_line(parser *p, pmu_config *cfg, const char *s, size_t len, int *seen_register,
                      int model_fixed, pmu_model cli_model)
{
    /* Strip the comment and surrounding space. */
    const char *hash = memchr(s, '#', len);
    if (hash)
        len = (size_t)(hash - s);
    while (len && is_space((unsigned char)s[len - 1]))
        len--;
    size_t i = 0;
    while (i < len && is_space((unsigned char)s[i]))
        i++;
    if (i == len)
        return 0;

    /* The first word: a register name, "model", "irange", "drange" or "opcode". */
    size_t start = i;
    while (i < len && !is_space((unsigned char)s[i]) && s[i] != '=')
        i++;
    const char *word = s + start;
    size_t wlen = i - start;
    while (i < len && is_space((unsigned char)s[i]))
        i++;
    int raw = i < len && s[i] == '=';
    if (raw)
        i++;

    token tok[MAX_TOKENS];
    unsigned ntok = 0;
    while (i < len) {
        while (i < len && is_space((unsigned char)s[i]))
            i++;
        if (i == len)
            break;
        if (ntok == MAX_TOKENS)
            return fail(p, "line", "expected at most %d items on a line", MAX_TOKENS);
        tok[ntok].s = s + i;
        while (i < len && !is_space((unsigned char)s[i]))
            i++;
        tok[ntok].len = (size_t)(s + i - tok[ntok].s);
        ntok++;
    }

    if (ieq(word, wlen, "model")) {
        if (!raw || ntok != 1)
            return fail(p, "model", "expected 'model = itanium' or 'model = itanium2'");
        if (cfg->model_line)
            return fail(p, "model", "given twice (first at line %u)", cfg->model_line);
        if (*seen_register)
            return fail(p, "model", "expected before the first register line (the model decides "
                                    "which bits are writable)");
        pmu_model m;
        if (ieq(tok[0].s, tok[0].len, "itanium"))
            m = PMU_MODEL_ITANIUM;
        else if (ieq(tok[0].s, tok[0].len, "itanium2"))
            m = PMU_MODEL_ITANIUM2;
        else
            return fail(p, "model", "expected itanium or itanium2, found '%.*s'", (int)tok[0].len,
                        tok[0].s);
        if (model_fixed && m != cli_model)
            return fail(p, "model", "%s conflicts with --model %s", m == PMU_MODEL_ITANIUM ? "itanium" : "itanium2",
                        cli_model == PMU_MODEL_ITANIUM ? "itanium" : "itanium2");
        cfg->model = m;
        p->model = m;
        cfg->model_line = p->line;
        return 0;
    }

    static const char *const kinds[3] = {"irange", "drange", "opcode"};
    for (unsigned k = 0; k < 3; k++) {
        if (!ieq(word, wlen, kinds[k]))
            continue;
        if (raw)
            return fail(p, kinds[k], "expected no '=' after %s (e.g. %s)", kinds[k],
                        k == 2 ? "'opcode PMC8 class=br.ret'" : k ? "'drange 0x1000..0x2000 pair=0'"
                                                                  : "'irange 0x1000..0x2000 pair=0'");
        *seen_register = 1;
        return k == 2 ? parse_opcode(p, cfg, tok, ntok) : parse_range(p, cfg, k == 0, tok, ntok);
    }

    int v = vis_by_name(word, wlen);
    if (v < 0) {
        char names[320];
        vis_names(names, sizeof names);
        return fail(p, "register", "unknown register '%.*s'; expected model, irange, drange, opcode or one of %s",
                    (int)wlen, word, names);
    }
    const char *rname = pmu_vis_table[v].name;
    if (cfg->derived[v]) {
        int code = v >= (int)PMU_VIS_IBR0 && v <= (int)PMU_VIS_IBR7;
        unsigned pair = (unsigned)(v - (code ? PMU_VIS_IBR0 : PMU_VIS_DBR0)) / 2;
        return fail(p, rname, "%s pair %u is already programmed by the %s on line %u; give either "
                              "the %s or the %s lines",
                    code ? "IBR" : "DBR", pair, code ? "irange" : "drange", cfg->line[v],
                    code ? "irange" : "drange", code ? "IBR" : "DBR");
    }
    if (cfg->line[v]) {
        int opc = (v == PMU_VIS_PMC8 && cfg->opcode_line[0]) || (v == PMU_VIS_PMC9 && cfg->opcode_line[1]);
        return fail(p, rname, "duplicate register line (first at line %u%s)", cfg->line[v],
                    opc ? ", an opcode line" : "");
    }
    if (!reg_implemented((unsigned)v, p->model))
        return fail(p, rname, "expected a register that %s implements: %s reads 0 and ignores "
                              "writes there",
                    model_name(p->model), rname);
    *seen_register = 1;
    int rc = raw ? parse_raw(p, cfg, (unsigned)v, tok, ntok) : parse_fields(p, cfg, (unsigned)v, tok, ntok);
    if (rc != 0)
        return rc;
    cfg->line[v] = p->line;
    return 0;
}

/* The first (lowest) non-zero line of the pairs selected by `mask`; 0 when none. */
static unsigned first_pair_line(const pmu_config_pair *pairs, unsigned mask)
{
    unsigned line = 0;
    for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++)
        if ((mask >> k & 1) && pairs[k].line && (!line || pairs[k].line < line))
            line = pairs[k].line;
    return line;
}

static void derive(pmu_config *cfg, unsigned v, uint64_t value, unsigned line)
{
    cfg->value[v] = value;
    cfg->line[v] = line;
    cfg->derived[v] = 1;
}

/* After the last line: the constraint registers that make the irange, drange and
 * opcode lines take effect, unless the file gives those registers itself. */
static int finish_qualification(parser *p, pmu_config *cfg)
{
    const pmu_model m = cfg->model;
    const unsigned all = (1u << PMU_CONFIG_PAIRS) - 1;
    const unsigned iline = first_pair_line(cfg->ipair, all), dline = first_pair_line(cfg->dpair, all);

    if (m == PMU_MODEL_ITANIUM) {
        if (iline && !cfg->line[PMU_VIS_PMC13])
            derive(cfg, PMU_VIS_PMC13, fset(reset_of(PMU_VIS_PMC13, m), field_of("PMC13", "TA"), 0), iline);
        if (dline && !cfg->line[PMU_VIS_PMC11])
            derive(cfg, PMU_VIS_PMC11, fset(reset_of(PMU_VIS_PMC11, m), field_of("PMC11", "PT"), 0), dline);
        return 0;
    }

    /* PMC14: each irange pair constrains its events; fine mode for fine ranges. */
    if (iline) {
        const pmu_field_desc *f_fine = field_of("PMC14", "FINE");
        if (cfg->line[PMU_VIS_PMC14]) {
            unsigned fine = (unsigned)fget(cfg->value[PMU_VIS_PMC14], f_fine);
            for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
                if (!cfg->ipair[k].line || (cfg->ipair[k].fine != 0) == (fine != 0))
                    continue;
                p->line = cfg->ipair[k].line;
                if (fine)
                    return fail(p, "fine", "expected PMC14 fine=0 for a mask range: PMC14 on line %u has "
                                           "fine=1, which makes the IBR pairs fine-mode bounds",
                                cfg->line[PMU_VIS_PMC14]);
                return fail(p, "fine", "expected PMC14 fine=1 for a fine range: PMC14 on line %u has fine=0",
                            cfg->line[PMU_VIS_PMC14]);
            }
        } else {
            uint64_t v = reset_of(PMU_VIS_PMC14, m);
            int fine = 0;
            for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
                if (!cfg->ipair[k].line)
                    continue;
                v = fset(v, pair_field("PMC14", "IBRP", k, ""), 0);
                fine |= cfg->ipair[k].fine != 0;
            }
            derive(cfg, PMU_VIS_PMC14, fset(v, f_fine, (uint64_t)fine), iline);
        }
    }
    /* PMC8 resets with ig_ad = 1, which would ignore ranges on pairs 0 and 2. */
    const unsigned pairs_of_pmc8 = 0x5u;
    const unsigned even_line = first_pair_line(cfg->ipair, pairs_of_pmc8);
    if (even_line && !cfg->line[PMU_VIS_PMC8]) {
        uint64_t v = reset_of(PMU_VIS_PMC8, m);
        v = fset(fset(v, field_of("PMC_OPC", "IG_AD"), 0), field_of("PMC_OPC", "INV"), 0);
        derive(cfg, PMU_VIS_PMC8, v, even_line);
    }
    /* PMC13: each drange pair qualifies memory events (cfg 2, DBR only, by default). */
    if (dline) {
        if (cfg->line[PMU_VIS_PMC13]) {
            for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++)
                if (cfg->dpair[k].line && cfg->dpair[k].cfg_given) {
                    p->line = cfg->dpair[k].line;
                    return fail(p, "cfg", "expected no cfg: PMC13 is given on line %u (set cfg_dbrp%u there "
                                          "or drop the PMC13 line)",
                                cfg->line[PMU_VIS_PMC13], k);
                }
        } else {
            uint64_t v = reset_of(PMU_VIS_PMC13, m);
            for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
                if (!cfg->dpair[k].line)
                    continue;
                v = fset(v, pair_field("PMC13", "CFG_DBRP", k, ""), cfg->dpair[k].cfg);
                v = fset(v, pair_field("PMC13", "ENA_DBRP", k, ""), 1);
            }
            derive(cfg, PMU_VIS_PMC13, v, dline);
        }
    }
    /* PMC15: tie= of the opcode lines. */
    if (cfg->tie_line[0] || cfg->tie_line[1]) {
        unsigned tline = cfg->tie_line[0] && (!cfg->tie_line[1] || cfg->tie_line[0] < cfg->tie_line[1])
                             ? cfg->tie_line[0]
                             : cfg->tie_line[1];
        if (cfg->line[PMU_VIS_PMC15]) {
            p->line = tline;
            return fail(p, "tie", "expected no tie: PMC15 is given on line %u (set its ibrp fields there "
                                  "or drop the PMC15 line)",
                        cfg->line[PMU_VIS_PMC15]);
        }
        uint64_t v = reset_of(PMU_VIS_PMC15, m);
        for (unsigned idx = 0; idx < 2; idx++) {
            if (!cfg->tie_line[idx])
                continue;
            for (unsigned k = idx; k < PMU_CONFIG_PAIRS; k += 2) /* the pairs of PMC8 / PMC9 */
                v = fset(v, pmc15_tie_field(k), (cfg->tie_pairs[idx] >> k & 1) ? 0 : 1);
        }
        derive(cfg, PMU_VIS_PMC15, v, tline);
    }
    return 0;
}

int pmu_config_parse(const char *text, size_t len, const char *name, pmu_model model,
                     int model_fixed, pmu_config *cfg, pmu_err *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->model = model;
    parser p = {name, 0, model, err};
    int seen_register = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        p.line++;
        if (memchr(text + pos, '\0', end - pos))
            return fail(&p, "line", "expected text, found a NUL byte");
        if (parse_line(&p, cfg, text + pos, end - pos, &seen_register, model_fixed, model) != 0)
            return -1;
        pos = end + 1;
    }
    if (finish_qualification(&p, cfg) != 0)
        return -1;

    /* Start and reload values of each counter. */
    unsigned w = pmu_counter_width(cfg->model);
    uint64_t cmask = field_ones(w);
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        unsigned pmd = PMU_VIS_PMD4 + k, pmc = PMU_VIS_PMC4 + k;
        if (cfg->period[k]) {
            cfg->reload[k] = ((UINT64_C(1) << w) - cfg->period[k]) & cmask;
            if (cfg->line[pmd]) {
                p.line = cfg->line[pmd];
                return fail(&p, pmu_vis_table[pmd].name,
                            "expected no value: period= on line %u already sets where the "
                            "counter starts", cfg->line[pmc]);
            }
            cfg->start[k] = cfg->reload[k];
        } else {
            cfg->reload[k] = 0;
            cfg->start[k] = cfg->line[pmd] ? cfg->value[pmd] & cmask : 0;
        }
    }
    return 0;
}

int pmu_config_load(const char *path, pmu_model model, int model_fixed, pmu_config *cfg,
                    pmu_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb) {
            free(buf);
            buf = NULL;
        } else {
            buf = nb;
        }
    }
    int bad_read = ferror(f);
    fclose(f);
    if (!buf || bad_read) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", path, buf ? strerror(EIO) : "out of memory");
        free(buf);
        return -1;
    }
    int rc = pmu_config_parse(buf, len, path, model, model_fixed, cfg, err);
    free(buf);
    return rc;
}

/* ---- programming and describing -------------------------------------------------- */

void pmu_config_apply(const pmu_config *cfg, pmu_backend *b)
{
    for (unsigned v = 0; v < PMU_NVIS; v++)
        if (v != PMU_VIS_PMC0 && cfg->line[v])
            pmu_write(b, pmu_vis_table[v].addr, cfg->value[v]);
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++)
        if (cfg->period[k])
            pmu_write(b, pmu_vis_table[PMU_VIS_PMD4 + k].addr, cfg->start[k]);
    pmu_write(b, pmu_vis_table[PMU_VIS_PMC0].addr, cfg->line[PMU_VIS_PMC0] ? cfg->value[PMU_VIS_PMC0] : 0);
}

void pmu_config_values(const pmu_config *cfg, uint64_t vis[PMU_NVIS])
{
    for (unsigned v = 0; v < PMU_NVIS; v++)
        vis[v] = cfg->line[v] ? cfg->value[v] : reset_of(v, cfg->model);
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++)
        vis[PMU_VIS_PMD4 + k] = cfg->start[k];
    vis[PMU_VIS_PMC0] = cfg->line[PMU_VIS_PMC0] ? cfg->value[PMU_VIS_PMC0] : 0;
}

void pmu_config_describe_event(uint64_t pmc, pmu_model model, char *buf, size_t size)
{
    unsigned es = (unsigned)PMU_FGET(pmc, PMC_GEN, ES), umask = (unsigned)PMU_FGET(pmc, PMC_GEN, UMASK);
    int e = event_by_code(es, umask, model);
    if (e >= 0)
        snprintf(buf, size, "%s", pmu_event_table[e].name);
    else
        snprintf(buf, size, "es=0x%02x umask=0x%x", es, umask);
}

/* "user", "kernel", "none" or the levels "0,1,2,3". */
static void levels(unsigned plm, char *buf, size_t size)
{
    buf[0] = '\0';
    if (plm == 0x8)
        snprintf(buf, size, "user");
    else if (plm == 0x1)
        snprintf(buf, size, "kernel");
    else if (plm == 0)
        snprintf(buf, size, "none");
    else
        for (unsigned l = 0; l < 4; l++)
            if (plm & (1u << l))
                append(buf, size, "%s%u", buf[0] ? "," : "", l);
}

void pmu_config_describe_qualifiers(uint64_t pmc, char *buf, size_t size)
{
    static const char *const ism_names[4] = {"both", "ia32", "ia64", "none"};
    char lv[16];
    levels((unsigned)PMU_FGET(pmc, PMC_GEN, PLM), lv, sizeof lv);
    snprintf(buf, size, "plm=%s pm=%u thres=%u ism=%s%s", lv,
             (unsigned)PMU_FGET(pmc, PMC_GEN, PM), (unsigned)PMU_FGET(pmc, PMC_GEN, THRES),
             ism_names[PMU_FGET(pmc, PMC_GEN, ISM) & 3], PMU_FGET(pmc, PMC_GEN, OI) ? "" : " oi=0");
}

static unsigned pair_plm(const uint64_t *vis, unsigned first_vis, unsigned k)
{
    return (unsigned)PMU_FGET(vis[first_vis + 2 * k + 1], IBR_MASK, PLM);
}

/* The block a pair with a contiguous mask covers; 0 when its mask has holes. */
static int pair_block(const uint64_t *vis, unsigned first_vis, unsigned k, uint64_t *start, uint64_t *end)
{
    uint64_t compare = ~field_ones(PMU_F_IBR_MASK_MASK_MSB + 1) |
                       (vis[first_vis + 2 * k + 1] & PMU_FMASK(IBR_MASK, MASK));
    if (first_vis == PMU_VIS_IBR0)
        compare &= ~(uint64_t)(BUNDLE_BYTES - 1);
    uint64_t span = ~compare;
    if (span & (span + 1))
        return 0;
    *start = vis[first_vis + 2 * k] & compare;
    *end = *start + span + 1;
    return 1;
}

/* The addresses an IBR (code) or DBR pair matches: "0x1000..0x2000" for a contiguous
 * mask (the aligned block), "addr=0x..,mask=0x.." otherwise. */
static void describe_mask_pair(const uint64_t *vis, unsigned first_vis, unsigned k, char *buf,
                               size_t size)
{
    uint64_t start, end;
    if (!pair_block(vis, first_vis, k, &start, &end))
        snprintf(buf, size, "addr=0x%" PRIx64 ",mask=0x%" PRIx64, vis[first_vis + 2 * k],
                 vis[first_vis + 2 * k + 1] & PMU_FMASK(IBR_MASK, MASK));
    else if (end == 0)
        snprintf(buf, size, "0x%" PRIx64 "..2^64", start);
    else
        fmt_range(buf, size, start, end);
}

/* Fine-mode range A (r = 0: pairs 0 and 2) or B (r = 1: pairs 1 and 3): bundles from the
 * lower bound's to the upper bound's, inclusive, in the lower bound's page. */
static void describe_fine(const uint64_t *vis, unsigned r, char *buf, size_t size)
{
    uint64_t lo = vis[PMU_VIS_IBR0 + 2 * r], hi = vis[PMU_VIS_IBR0 + 2 * (r + FINE_UPPER_OFFSET)];
    uint64_t page = lo & ~(uint64_t)(FINE_PAGE_BYTES - 1), in_page = FINE_PAGE_BYTES - BUNDLE_BYTES;
    snprintf(buf, size, "fine:0x%" PRIx64 "..0x%" PRIx64, page | (lo & in_page),
             (page | (hi & in_page)) + BUNDLE_BYTES);
}

static unsigned pmc14_ibrp(uint64_t pmc14, unsigned k)
{
    return (unsigned)fget(pmc14, pair_field("PMC14", "IBRP", k, ""));
}

static void opcode_token(const uint64_t *vis, unsigned idx, char *buf, size_t size)
{
    const pmu_opcode_class *c = class_of(vis[idx ? PMU_VIS_PMC9 : PMU_VIS_PMC8]);
    snprintf(buf, size, "opcode=PMC%u%s%s%s", idx ? 9u : 8u, c ? "(" : "", c ? c->name : "", c ? ")" : "");
}

/* The constraints of inst_q(k) for an event (semantics.md), joined by `sep`. */
static void inst_tokens(const uint64_t *vis, pmu_model m, const pmu_event_desc *e, unsigned k,
                        const char *sep, char *buf, size_t size)
{
    char d[96], tok[160];
    buf[0] = '\0';
    if (e->iar) {
        tok[0] = '\0';
        if (m == PMU_MODEL_ITANIUM2) {
            uint64_t pmc8 = vis[PMU_VIS_PMC8], pmc14 = vis[PMU_VIS_PMC14];
            int even = k % 2 == 0;
            if (!(even && PMU_FGET(pmc8, PMC_OPC, IG_AD)) && !pmc14_ibrp(pmc14, k)) {
                int fine = PMU_FGET(pmc14, PMC14, FINE) != 0;
                unsigned named = fine ? k % FINE_UPPER_OFFSET : k;
                int matches = fine ? pair_plm(vis, PMU_VIS_IBR0, named) && pair_plm(vis, PMU_VIS_IBR0, named + FINE_UPPER_OFFSET)
                                   : pair_plm(vis, PMU_VIS_IBR0, k) != 0;
                if (!matches)
                    snprintf(d, sizeof d, "none");
                else if (fine)
                    describe_fine(vis, named, d, sizeof d);
                else
                    describe_mask_pair(vis, PMU_VIS_IBR0, k, d, sizeof d);
                snprintf(tok, sizeof tok, "%sirange[%u]=%s", even && PMU_FGET(pmc8, PMC_OPC, INV) ? "!" : "",
                         named, d);
            }
        } else if (!PMU_FGET(vis[PMU_VIS_PMC13], PMC13, TA)) {
            for (unsigned q = 0; q < PMU_CONFIG_PAIRS; q++) {
                if (!pair_plm(vis, PMU_VIS_IBR0, q))
                    continue;
                describe_mask_pair(vis, PMU_VIS_IBR0, q, d, sizeof d);
                append(tok, sizeof tok, "%sirange[%u]=%s", tok[0] ? "|" : "", q, d);
            }
            if (!tok[0])
                snprintf(tok, sizeof tok, "irange=none");
        }
        if (tok[0])
            append(buf, size, "%s%s", buf[0] ? sep : "", tok);
    }
    if (e->opm) {
        unsigned idx = k % 2;
        int tied = m == PMU_MODEL_ITANIUM || !fget(vis[PMU_VIS_PMC15], pmc15_tie_field(k));
        if (tied && !matcher_all(vis[idx ? PMU_VIS_PMC9 : PMU_VIS_PMC8])) {
            opcode_token(vis, idx, tok, sizeof tok);
            append(buf, size, "%s%s", buf[0] ? sep : "", tok);
        }
    }
}

static void drange_token(const uint64_t *vis, unsigned k, char *buf, size_t size)
{
    char d[96];
    if (pair_plm(vis, PMU_VIS_DBR0, k))
        describe_mask_pair(vis, PMU_VIS_DBR0, k, d, sizeof d);
    else
        snprintf(d, sizeof d, "none");
    snprintf(buf, size, "drange[%u]=%s", k, d);
}

void pmu_config_describe_tags(const uint64_t vis[PMU_NVIS], pmu_model model, unsigned counter,
                              char *buf, size_t size)
{
    buf[0] = '\0';
    if (counter >= PMU_NCOUNTERS || size == 0)
        return;
    uint64_t pmc = vis[PMU_VIS_PMC4 + counter];
    int ev = event_by_code((unsigned)PMU_FGET(pmc, PMC_GEN, ES), (unsigned)PMU_FGET(pmc, PMC_GEN, UMASK), model);
    if (ev < 0 || event_per_cycle(ev))
        return;
    const pmu_event_desc *e = &pmu_event_table[ev];
    char inst[320], tok[320];
    if (!e->dar) {
        inst_tokens(vis, model, e, event_pair(ev), " ", buf, size);
        return;
    }
    if (model == PMU_MODEL_ITANIUM) {
        inst_tokens(vis, model, e, 0, " ", buf, size);
        if (!PMU_FGET(vis[PMU_VIS_PMC11], PMC11, PT)) {
            char list[320] = "";
            for (unsigned q = 0; q < PMU_CONFIG_PAIRS; q++)
                if (pair_plm(vis, PMU_VIS_DBR0, q)) {
                    drange_token(vis, q, tok, sizeof tok);
                    append(list, sizeof list, "%s%s", list[0] ? "|" : "", tok);
                }
            append(buf, size, "%s%s", buf[0] ? " " : "", list[0] ? list : "drange=none");
        }
        return;
    }
    /* Itanium 2 memory events: the OR over the active PMC13 pairs, or Tag(PMC8). */
    uint64_t pmc13 = vis[PMU_VIS_PMC13];
    char alts[320] = "";
    int active = 0, unconstrained = 0;
    for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
        unsigned cfgk = (unsigned)fget(pmc13, pair_field("PMC13", "CFG_DBRP", k, ""));
        if (!fget(pmc13, pair_field("PMC13", "ENA_DBRP", k, "")) || cfgk == DBRP_NONE)
            continue;
        active = 1;
        inst[0] = tok[0] = '\0';
        if (cfgk != DBRP_DBR)
            inst_tokens(vis, model, e, k, "&", inst, sizeof inst);
        if (cfgk != DBRP_IBR_OPC)
            drange_token(vis, k, tok, sizeof tok);
        if (!inst[0] && !tok[0])
            unconstrained = 1;
        append(alts, sizeof alts, "%s%s%s%s", alts[0] ? "|" : "", inst, inst[0] && tok[0] ? "&" : "", tok);
    }
    if (!active)
        inst_tokens(vis, model, e, 0, " ", buf, size);
    else if (!unconstrained)
        snprintf(buf, size, "mem:%s", alts);
}

size_t pmu_config_describe_setup(const uint64_t vis[PMU_NVIS], pmu_model model, char *buf, size_t size)
{
    char d[96], lv[16];
    if (size == 0)
        return 0;
    buf[0] = '\0';
    int fine = model == PMU_MODEL_ITANIUM2 && PMU_FGET(vis[PMU_VIS_PMC14], PMC14, FINE);
    for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
        unsigned ev = PMU_VIS_IBR0 + 2 * k;
        if (fine) {
            unsigned up = k + FINE_UPPER_OFFSET;
            if (k >= FINE_UPPER_OFFSET || (!pair_plm(vis, PMU_VIS_IBR0, k) && !pair_plm(vis, PMU_VIS_IBR0, up)))
                continue;
            describe_fine(vis, k, d, sizeof d);
            levels(pair_plm(vis, PMU_VIS_IBR0, k) & pair_plm(vis, PMU_VIS_IBR0, up), lv, sizeof lv);
            append(buf, size, "irange[%u] %s plm=%s (%s, %s; upper bound %s, %s)\n", k, d, lv,
                   pmu_vis_table[ev].name, pmu_vis_table[ev + 1].name,
                   pmu_vis_table[PMU_VIS_IBR0 + 2 * up].name, pmu_vis_table[PMU_VIS_IBR0 + 2 * up + 1].name);
            continue;
        }
        if (!pair_plm(vis, PMU_VIS_IBR0, k))
            continue;
        describe_mask_pair(vis, PMU_VIS_IBR0, k, d, sizeof d);
        levels(pair_plm(vis, PMU_VIS_IBR0, k), lv, sizeof lv);
        append(buf, size, "irange[%u] %s plm=%s (%s, %s)\n", k, d, lv, pmu_vis_table[ev].name,
               pmu_vis_table[ev + 1].name);
    }
    for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
        unsigned ev = PMU_VIS_DBR0 + 2 * k;
        if (!pair_plm(vis, PMU_VIS_DBR0, k))
            continue;
        describe_mask_pair(vis, PMU_VIS_DBR0, k, d, sizeof d);
        levels(pair_plm(vis, PMU_VIS_DBR0, k), lv, sizeof lv);
        append(buf, size, "drange[%u] %s plm=%s (%s, %s", k, d, lv, pmu_vis_table[ev].name,
               pmu_vis_table[ev + 1].name);
        if (model == PMU_MODEL_ITANIUM2)
            append(buf, size, "; PMC13 cfg_dbrp%u=%u ena_dbrp%u=%u", k,
                   (unsigned)fget(vis[PMU_VIS_PMC13], pair_field("PMC13", "CFG_DBRP", k, "")), k,
                   (unsigned)fget(vis[PMU_VIS_PMC13], pair_field("PMC13", "ENA_DBRP", k, "")));
        append(buf, size, ")\n");
    }
    for (unsigned idx = 0; idx < 2; idx++) {
        uint64_t pmc = vis[idx ? PMU_VIS_PMC9 : PMU_VIS_PMC8];
        if (matcher_all(pmc))
            continue;
        const pmu_opcode_class *c = class_of(pmc);
        char units[8];
        units_of(pmc, units, sizeof units);
        append(buf, size, "opcode PMC%u %s%smatch=0x%" PRIx64 " mask=0x%" PRIx64 " slots=%s", idx ? 9u : 8u,
               c ? c->name : "", c ? ": " : "", (uint64_t)PMU_FGET(pmc, PMC_OPC, MATCH),
               (uint64_t)PMU_FGET(pmc, PMC_OPC, MASK), units);
        if (model == PMU_MODEL_ITANIUM2) {
            char pairs[32] = "";
            for (unsigned k = idx; k < PMU_CONFIG_PAIRS; k += 2)
                if (!fget(vis[PMU_VIS_PMC15], pmc15_tie_field(k)))
                    append(pairs, sizeof pairs, "%sibrp%u", pairs[0] ? "," : "", k);
            append(buf, size, " tie=%s", pairs[0] ? pairs : "none");
        }
        append(buf, size, "\n");
    }
    return strlen(buf);
}

/* The 41 encoding bits of a 27-bit matcher field (the inverse of pmu_opcode_bits). */
static uint64_t encoding_bits(uint64_t field)
{
    return (field & field_ones(OPC_LOW_BITS)) |
           ((field >> OPC_LOW_BITS) & field_ones(OPC_HIGH_BITS)) << OPC_HIGH_LSB;
}

void pmu_config_hot_edges(const uint64_t vis[PMU_NVIS], pmu_model model, pmu_config_hot *h)
{
    memset(h, 0, sizeof *h);
    unsigned nc = 0, nd = 0, no = 0;
    int fine = model == PMU_MODEL_ITANIUM2 && PMU_FGET(vis[PMU_VIS_PMC14], PMC14, FINE);
    for (unsigned k = 0; k < PMU_CONFIG_PAIRS; k++) {
        uint64_t s, e;
        if (fine && k < FINE_UPPER_OFFSET) {
            unsigned up = k + FINE_UPPER_OFFSET;
            if (pair_plm(vis, PMU_VIS_IBR0, k) && pair_plm(vis, PMU_VIS_IBR0, up)) {
                h->code[nc++] = vis[PMU_VIS_IBR0 + 2 * k];
                h->code[nc++] = vis[PMU_VIS_IBR0 + 2 * up] + BUNDLE_BYTES;
            }
        } else if (!fine && pair_plm(vis, PMU_VIS_IBR0, k)) {
            if (pair_block(vis, PMU_VIS_IBR0, k, &s, &e)) {
                h->code[nc++] = s;
                h->code[nc++] = e;
            } else {
                h->code[nc++] = vis[PMU_VIS_IBR0 + 2 * k];
            }
        }
        if (pair_plm(vis, PMU_VIS_DBR0, k)) {
            if (pair_block(vis, PMU_VIS_DBR0, k, &s, &e)) {
                h->data[nd++] = s;
                h->data[nd++] = e;
            } else {
                h->data[nd++] = vis[PMU_VIS_DBR0 + 2 * k];
            }
        }
    }
    for (unsigned idx = 0; idx < 2; idx++) {
        uint64_t pmc = vis[idx ? PMU_VIS_PMC9 : PMU_VIS_PMC8];
        if (matcher_all(pmc))
            continue;
        uint64_t care = encoding_bits(~PMU_FGET(pmc, PMC_OPC, MASK) & field_ones(PMU_F_PMC_OPC_MASK_WIDTH));
        h->care[no] = care;
        h->match[no++] = encoding_bits(PMU_FGET(pmc, PMC_OPC, MATCH)) & care;
    }
    h->hot.code = h->code;
    h->hot.ncode = nc;
    h->hot.data = h->data;
    h->hot.ndata = nd;
    h->hot.opc_match = h->match;
    h->hot.opc_care = h->care;
    h->hot.nopc = no;
}

/* ---- the built-in configuration ------------------------------------------------------ */

/* Periods are chosen so that each counter overflows several times in the default
 * 1,000,000-cycle workload (docs/config-format.md).  PMC6 shows event qualification:
 * on Itanium 2 a code range (IBR pairs 1 and 3 in fine mode) over the first process's
 * main, which the workload places at 0x4000000000000000 for every seed (0x120 bytes
 * with seed 1); on Itanium, where a code range would tag every counter, opcode
 * matcher PMC9.  Its event, IA64_TAGGED_INST_RETIRED_IBRP1_PMC9, takes pair 1's tag,
 * so the other counters (pair 0) stay unconstrained; ism=ia64 because IA-32
 * instructions pass every range and opcode check. */
static const char default_itanium2[] =
    "# pmusim built-in configuration (Itanium 2)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 period=150000    # user only\n"
    "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 plm=0xf pm=0 ism=ia64 thres=1 period=8000\n"
    "irange 0x4000000000000000..0x4000000000000120 fine pair=1  # PMC6: cycles retiring 2+ instructions of main\n"
    "PMC7 event=L1D_READ_MISSES_ALL plm=0x1 pm=1 period=500     # kernel misses, privileged monitor\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

static const char default_itanium[] =
    "# pmusim built-in configuration (Itanium)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 period=150000    # user only\n"
    "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 plm=0xf pm=0 ism=ia64 thres=1 period=4000\n"
    "opcode PMC9 class=nop                                      # PMC6: cycles retiring 2+ nop.m/i/f\n"
    "PMC7 event=L1D_READ_MISSES_ALL plm=0x1 pm=1 period=500     # kernel misses, privileged monitor\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

const char *pmu_config_default_text(pmu_model model)
{
    return model == PMU_MODEL_ITANIUM ? default_itanium : default_itanium2;
}
