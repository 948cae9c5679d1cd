/*
 * config_qual.c - the qualification lines of a configuration file
 * (docs/ita-config-format.md): `irange` (an IBR pair: a code range), `drange` (a DBR pair: a
 * data range), `opcode` (matcher PMC8 or PMC9), and after the last line the constraint
 * registers (PMC8, PMC11, PMC13, PMC14, PMC15) that make them take effect.  The
 * register encodings are the ones the event library uses (include/sw/ita/ita_encode.h);
 * the rules they serve are in docs/ita-semantics.md ("Event qualification").
 */
#include "config_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"

void config_fmt_range(char *buf, size_t size, uint64_t start, uint64_t end)
{
    snprintf(buf, size, "0x%" PRIx64 "..0x%" PRIx64, start, end);
}

/* ---- irange and drange ------------------------------------------------------------ */

/* What the items of one irange/drange line gave. */
typedef struct range_spec {
    int code; /* irange */
    int have_range, have_addr, have_mask, have_pair, have_cfg, fine;
    uint64_t start, end, addr, mask, pair, plm, cfg;
} range_spec;

static const char *range_kind(const range_spec *r) { return r->code ? "irange" : "drange"; }
static const char *range_regs(const range_spec *r) { return r->code ? "IBR" : "DBR"; }
static const char *range_fields(const range_spec *r)
{
    return r->code ? "pair, plm, addr, mask, fine" : "pair, plm, addr, mask, cfg";
}

/* What a range that is not one aligned power-of-two block would need: the blocks it
 * splits into (a pair each) and the smallest block covering it. */
static void block_hint(uint64_t start, uint64_t end, int code_range, ita_model m, char *buf, size_t size)
{
    char r[64], list[192] = "";
    unsigned n = 0;
    for (uint64_t cur = start; cur < end; n++) {
        uint64_t blk = cur ? cur & -cur : UINT64_C(1) << 63;
        while (blk > end - cur)
            blk >>= 1;
        if (n < 4) {
            config_fmt_range(r, sizeof r, cur, cur + blk);
            pmu_text_appendf(list, sizeof list, "%s%s", n ? ", " : "", r);
        }
        cur += blk;
    }
    config_fmt_range(r, sizeof r, start, end);
    snprintf(buf, size, "%s needs %u blocks (%s%s; one pair each)", r, n, list, n > 4 ? ", ..." : "");
    /* The smallest aligned block holding the whole range, while the hint can print its end. */
    unsigned cover = ita_smallest_block_log2(start, end);
    if (cover <= 62) {
        uint64_t cs = start & ~((UINT64_C(1) << cover) - 1);
        config_fmt_range(r, sizeof r, cs, cs + (UINT64_C(1) << cover));
        pmu_text_appendf(buf, size, " or the covering block %s", r);
    }
    if (code_range && m == ITA_MODEL_ITANIUM2 && ita_fine_eligible(start, end))
        pmu_text_appendf(buf, size, "; within one 4 KB page, 'fine' takes any bundle range");
}

/* A word that is not name=value: `fine` (irange) or START..END. */
static int range_word(config_parser *p, range_spec *r, config_seen *seen, const config_token *t)
{
    const char *dots = NULL;
    for (size_t k = 0; k + 1 < t->len && !dots; k++)
        if (t->s[k] == '.' && t->s[k + 1] == '.')
            dots = t->s + k;
    if (r->code && pmu_text_ieq(t->s, t->len, "fine")) {
        r->fine = 1;
        return config_seen_once(p, seen, "fine");
    }
    if (!dots)
        return config_fail(p, range_kind(r), "expected START..END%s or name=value, found '%.*s' (fields: %s)",
                           r->code ? ", fine" : "", (int)t->len, t->s, range_fields(r));
    if (config_seen_once(p, seen, "range") != 0)
        return -1;
    size_t left = (size_t)(dots - t->s);
    if (pmu_parse_u64n(t->s, left, 0, UINT64_MAX, "", &r->start, NULL) != 0 ||
        pmu_parse_u64n(dots + 2, t->len - left - 2, 0, UINT64_MAX, "", &r->end, NULL) != 0)
        return config_fail(p, "range", "expected START..END, two addresses (decimal or 0x hex), found '%.*s'",
                           (int)t->len, t->s);
    r->have_range = 1;
    return 0;
}

/* One item: a word (range_word) or name=value: pair, plm, addr, mask or (drange) cfg. */
static int range_item(config_parser *p, void *ctx, config_seen *seen, const config_token *t, const char *key,
                      const char *val, size_t vlen)
{
    range_spec *r = ctx;
    if (!key)
        return range_word(p, r, seen, t);
    const uint64_t plm_all = field_ones(ITA_F_IBR_MASK_PLM_WIDTH);
    int known = strcmp(key, "pair") == 0 || strcmp(key, "plm") == 0 || strcmp(key, "addr") == 0 ||
                strcmp(key, "mask") == 0 || (!r->code && strcmp(key, "cfg") == 0);
    uint64_t x;
    if (!known)
        return config_fail(p, key, "unknown field of %s; expected one of %s", range_kind(r), range_fields(r));
    if (config_number(p, key, val, vlen, &x) != 0)
        return -1;
    if (strcmp(key, "pair") == 0) {
        if (x >= ITA_NPAIRS)
            return config_fail(p, "pair", "expected 0..%u, found %" PRIu64, ITA_NPAIRS - 1, x);
        r->pair = x;
        r->have_pair = 1;
    } else if (strcmp(key, "plm") == 0) {
        if (x == 0 || x > plm_all)
            return config_fail(p, "plm", "expected 1..%" PRIu64 " (bit k: the pair matches at cpl k), found %" PRIu64,
                               plm_all, x);
        r->plm = x;
    } else if (strcmp(key, "addr") == 0) {
        r->addr = x;
        r->have_addr = 1;
    } else if (strcmp(key, "mask") == 0) {
        r->mask = x;
        r->have_mask = 1;
    } else {
        if (p->model == ITA_MODEL_ITANIUM)
            return config_fail(p, "cfg", "expected no cfg on Itanium: PMC13 has no per-pair memory "
                                         "qualification there (PMC11.pt = 0 enables the data-address check)");
        if (x >= ITA_DBRP_NONE)
            return config_fail(p, "cfg", "expected 0 (IBR, opcode and DBR), 1 (IBR and opcode) or 2 (DBR only), found %" PRIu64,
                               x);
        r->cfg = x;
        r->have_cfg = 1;
    }
    return 0;
}

/* The form: a range or addr= with mask=, a pair, and what fine allows. */
static int range_form(config_parser *p, const range_spec *r)
{
    if (!r->have_range && !r->have_addr && !r->have_mask)
        return config_fail(p, range_kind(r), "expected a range START..END or addr=A mask=M");
    if (r->have_range && (r->have_addr || r->have_mask))
        return config_fail(p, r->have_addr ? "addr" : "mask", "expected either START..END or addr=/mask=, not both");
    if (r->have_addr && !r->have_mask)
        return config_fail(p, "mask", "expected mask=M with addr= (mask bit 1 = compare that address bit)");
    if (r->have_mask && !r->have_addr)
        return config_fail(p, "addr", "expected addr=A with mask=");
    if (!r->have_pair)
        return config_fail(p, "pair", "expected pair=0..%u (the %s pair to program)", ITA_NPAIRS - 1, range_regs(r));
    if (!r->fine)
        return 0;
    if (p->model == ITA_MODEL_ITANIUM)
        return config_fail(p, "fine", "expected no fine on Itanium: fine mode (PMC14.fine) is an Itanium 2 feature");
    if (!r->have_range)
        return config_fail(p, "fine", "expected START..END with fine: fine mode compares bounds, the masks are not used");
    if (r->pair >= ITA_FINE_UPPER_OFFSET)
        return config_fail(p, "pair", "expected 0 or 1 for a fine range (pairs 2 and 3 hold the upper "
                                      "bounds of pairs 0 and 1), found %" PRIu64,
                           r->pair);
    return 0;
}

/* The address and mask field of the (lower) pair.  Fine mode does not use the masks:
 * both pairs get all ones. */
static int range_encoding(config_parser *p, const range_spec *r, uint64_t *reg_addr, uint64_t *reg_mask)
{
    const uint64_t ones56 = ITA_FMASK(IBR_MASK, MASK);
    char text[64];
    if (!r->have_range) {
        uint64_t high = r->mask >> (ITA_F_IBR_MASK_MASK_MSB + 1);
        if (high != 0 && high != (~UINT64_C(0) >> (ITA_F_IBR_MASK_MASK_MSB + 1)))
            return config_fail(p, "mask", "expected bits 63:56 all set or all clear (the pair always compares "
                                          "address bits 63:56; the register holds mask bits 55:0), found 0x%" PRIx64,
                               r->mask);
        if (r->code && r->addr % ITA_BUNDLE_BYTES)
            return config_fail(p, "addr", "expected a 16-byte aligned address (code ranges are whole bundles), found 0x%" PRIx64,
                               r->addr);
        *reg_addr = r->addr;
        *reg_mask = r->mask & ones56;
        return 0;
    }
    config_fmt_range(text, sizeof text, r->start, r->end);
    if (r->code && (r->start % ITA_BUNDLE_BYTES || r->end % ITA_BUNDLE_BYTES))
        return config_fail(p, "range", "expected both ends 16-byte aligned (code ranges are whole bundles), found %s", text);
    if (r->end <= r->start)
        return config_fail(p, "range", "expected START < END (END is excluded), found %s", text);
    unsigned log2size;
    if (r->fine) {
        if (!ita_fine_eligible(r->start, r->end))
            return config_fail(p, "range", "expected a fine range within one 4 KB page, found %s (it crosses 0x%" PRIx64 ")",
                               text, (r->start / ITA_FINE_PAGE_BYTES + 1) * ITA_FINE_PAGE_BYTES);
        *reg_addr = r->start;
        *reg_mask = ones56;
    } else if (!ita_is_block(r->start, r->end, &log2size)) {
        char hint[400];
        block_hint(r->start, r->end, r->code, p->model, hint, sizeof hint);
        return config_fail(p, "range", "expected an aligned power-of-two block (a pair covers one): %s", hint);
    } else if (log2size > ITA_PAIR_MAX_BLOCK_LOG2) {
        return config_fail(p, "range", "expected at most 2^56 bytes (address bits 63:56 are always compared), found %s",
                           text);
    } else {
        *reg_addr = r->start;
        *reg_mask = ita_block_mask(log2size);
    }
    return 0;
}

/* The pairs the line programs (a fine range: its pair and the upper-bound pair) must be
 * free, and every irange fine or none. */
static int range_pairs_free(config_parser *p, const ita_config *cfg, const range_spec *r)
{
    const ita_config_pair *pairs = r->code ? cfg->ipair : cfg->dpair;
    const unsigned first_vis = r->code ? ITA_VIS_IBR0 : ITA_VIS_DBR0;
    for (unsigned n = 0; n < (r->fine ? 2u : 1u); n++) {
        unsigned q = (unsigned)r->pair + (n ? ITA_FINE_UPPER_OFFSET : 0);
        const char *role = n ? " (the upper bound of this fine range)" : "";
        if (pairs[q].line)
            return config_fail(p, "pair", "%s pair %u%s is already programmed by the %s on line %u", range_regs(r), q,
                               role, range_kind(r), pairs[q].line);
        for (unsigned w = 0; w < 2; w++)
            if (cfg->line[first_vis + 2 * q + w])
                return config_fail(p, "pair", "%s pair %u%s is already programmed by the %s line %u; give "
                                              "either the %s or the %s lines",
                                   range_regs(r), q, role, ita_vis_table[first_vis + 2 * q + w].name,
                                   cfg->line[first_vis + 2 * q + w], range_kind(r), range_regs(r));
    }
    if (r->code)
        for (unsigned q = 0; q < ITA_NPAIRS; q++)
            if (pairs[q].line && (pairs[q].fine != 0) != r->fine)
                return config_fail(p, "fine", "expected every irange fine or none (PMC14.fine switches all "
                                              "pairs); the irange on line %u is %s",
                                   pairs[q].line, r->fine ? "not fine" : "fine");
    return 0;
}

int config_range_line(config_parser *p, ita_config *cfg, int code, const config_token *tok, unsigned ntok)
{
    range_spec r = {.code = code, .plm = field_ones(ITA_F_IBR_MASK_PLM_WIDTH), .cfg = ITA_DBRP_DBR};
    uint64_t reg_addr = 0, reg_mask = 0;
    if (config_each_item(p, tok, ntok, range_item, &r) != 0 || range_form(p, &r) != 0 || range_encoding(p, &r, &reg_addr, &reg_mask) != 0 ||
        range_pairs_free(p, cfg, &r) != 0)
        return -1;

    ita_config_pair *pairs = code ? cfg->ipair : cfg->dpair;
    const unsigned first_vis = code ? ITA_VIS_IBR0 : ITA_VIS_DBR0;
    uint64_t lower, upper;
    ita_fine_bounds(r.start, r.end, false, &lower, &upper);
    for (unsigned n = 0; n < (r.fine ? 2u : 1u); n++) {
        unsigned q = (unsigned)r.pair + (n ? ITA_FINE_UPPER_OFFSET : 0);
        unsigned ev = first_vis + 2 * q, od = ev + 1;
        cfg->value[ev] = n ? upper : reg_addr;
        cfg->value[od] = ita_pair_odd(config_reset(od, p->model), reg_mask, (unsigned)r.plm);
        cfg->line[ev] = cfg->line[od] = p->line;
        cfg->derived[ev] = cfg->derived[od] = 1;
        pairs[q].line = p->line;
        pairs[q].fine = (uint8_t)(r.fine ? n + 1 : 0);
        pairs[q].cfg = (uint8_t)r.cfg;
        pairs[q].cfg_given = (uint8_t)r.have_cfg;
    }
    return 0;
}

/* ---- opcode ------------------------------------------------------------------------ */

unsigned config_slots_of_letters(const char *units, size_t len)
{
    unsigned slots = 0;
    for (unsigned i = 0; i < 4; i++)
        if (memchr(units, CONFIG_UNIT_LETTERS[i], len))
            slots |= 1u << i;
    return slots;
}
_Static_assert(ITA_SLOT_M == 1u && ITA_SLOT_I == 2u && ITA_SLOT_F == 4u && ITA_SLOT_B == 8u,
               "CONFIG_UNIT_LETTERS follows enum ita_unit");

void config_class_fields(const ita_opcode_class *c, uint64_t *match, uint64_t *mask)
{
    *match = ita_opcode_bits(c->enc);
    *mask = ~(uint64_t)ita_opcode_bits(c->care) & field_ones(ITA_F_PMC_OPC_MASK_WIDTH);
}

static void class_names(char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < ita_opcode_nclasses; i++)
        pmu_text_appendf(buf, size, "%s%s", i ? ", " : "", ita_opcode_classes[i].name);
}

/* What the items of one opcode line gave. */
typedef struct opcode_spec {
    unsigned idx; /* 0 = PMC8, 1 = PMC9 */
    const ita_opcode_class *cls;
    int have_match, have_mask, have_units, have_tie;
    uint64_t match, mask, inv, ig_ad;
    unsigned slots;
    unsigned tie; /* bit k: tie= names pair k */
} opcode_spec;

/* tie=none or tie=ibrpK[,ibrpK]: the pairs of this matcher whose tag also needs it. */
static int opcode_tie(config_parser *p, opcode_spec *o, const char *val, size_t vlen)
{
    const unsigned idx = o->idx;
    if (p->model == ITA_MODEL_ITANIUM)
        return config_fail(p, "tie", "expected no tie on Itanium: PMC15 is an Itanium 2 register "
                                     "(Itanium always ties pairs 0, 2 to PMC8 and 1, 3 to PMC9)");
    o->have_tie = 1;
    if (pmu_text_ieq(val, vlen, "none"))
        return 0;
    for (size_t at = 0; at <= vlen;) {
        size_t e = at;
        while (e < vlen && val[e] != ',')
            e++;
        unsigned k = ITA_NPAIRS;
        for (unsigned q = 0; q < ITA_NPAIRS; q++) {
            char nm[8];
            snprintf(nm, sizeof nm, "ibrp%u", q);
            if (pmu_text_ieq(val + at, e - at, nm))
                k = q;
        }
        if (k == ITA_NPAIRS || k % 2 != idx)
            return config_fail(p, "tie", "expected none or ibrp%u and/or ibrp%u for %s (pairs %u and %u go "
                                         "with %s), found '%.*s'",
                               idx, idx + 2, ita_vis_table[idx ? ITA_VIS_PMC9 : ITA_VIS_PMC8].name, 1u - idx,
                               3u - idx, idx ? "PMC8" : "PMC9", (int)(e - at), val + at);
        if (o->tie & (1u << k))
            return config_fail(p, "tie", "ibrp%u given twice", k);
        o->tie |= 1u << k;
        at = e + 1;
    }
    return 0;
}

/* slots=UNITS: letters from m, i, f, b, each once. */
static int opcode_slots(config_parser *p, opcode_spec *o, const char *val, size_t vlen)
{
    char want[8] = "";
    int ok = vlen <= 4;
    for (size_t c = 0; ok && c < vlen; c++) {
        want[c] = (char)pmu_text_lower((unsigned char)val[c]);
        ok = strchr(CONFIG_UNIT_LETTERS, want[c]) != NULL && !memchr(want, want[c], c);
    }
    if (!ok)
        return config_fail(p, "slots", "expected the units to match in, letters from m, i, f, b "
                                       "(e.g. slots=b or slots=mi), found '%.*s'",
                           (int)vlen, val);
    o->slots = config_slots_of_letters(want, vlen);
    o->have_units = 1;
    return 0;
}

static int opcode_item(config_parser *p, void *ctx, config_seen *seen, const config_token *t, const char *key,
                       const char *val, size_t vlen)
{
    opcode_spec *o = ctx;
    (void)seen;
    if (!key)
        return config_fail(p, "opcode", "expected name=value, found '%.*s' (fields: class, match, mask, "
                                        "slots, inv, ig_ad, tie)",
                           (int)t->len, t->s);
    const uint64_t field_max = field_ones(ITA_F_PMC_OPC_MATCH_WIDTH);
    char names[256];
    uint64_t x = 0;
    if (strcmp(key, "class") == 0) {
        for (unsigned c = 0; c < ita_opcode_nclasses; c++)
            if (pmu_text_ieq(val, vlen, ita_opcode_classes[c].name))
                o->cls = &ita_opcode_classes[c];
        if (o->cls)
            return 0;
        class_names(names, sizeof names);
        return config_fail(p, "class", "unknown class '%.*s'; expected one of %s", (int)vlen, val, names);
    }
    if (strcmp(key, "match") == 0 || strcmp(key, "mask") == 0) {
        if (config_number(p, key, val, vlen, &x) != 0)
            return -1;
        if (x > field_max)
            return config_fail(p, key, "expected 0..0x%" PRIx64 " (27 bits over instruction bits {40:27,12:0}), found 0x%" PRIx64,
                               field_max, x);
        int is_match = strcmp(key, "match") == 0;
        *(is_match ? &o->match : &o->mask) = x;
        *(is_match ? &o->have_match : &o->have_mask) = 1;
        return 0;
    }
    if (strcmp(key, "slots") == 0)
        return opcode_slots(p, o, val, vlen);
    if (strcmp(key, "inv") == 0 || strcmp(key, "ig_ad") == 0) {
        if (p->model == ITA_MODEL_ITANIUM)
            return config_fail(p, key, "expected no %s on Itanium: PMC8 has no ig_ad or inv there", key);
        if (o->idx)
            return config_fail(p, key, "expected %s only on PMC8: PMC9's ig_ad and inv have no effect", key);
        if (pmu_parse_u64n(val, vlen, 0, 1, key, &x, NULL) != 0)
            return config_fail(p, key, "expected 0 or 1, found '%.*s'", (int)vlen, val);
        *(strcmp(key, "inv") == 0 ? &o->inv : &o->ig_ad) = x;
        return 0;
    }
    if (strcmp(key, "tie") == 0)
        return opcode_tie(p, o, val, vlen);
    return config_fail(p, key, "unknown field of opcode; expected one of class, match, mask, slots, inv, ig_ad, tie");
}

int config_opcode_line(config_parser *p, ita_config *cfg, const config_token *tok, unsigned ntok)
{
    if (ntok == 0 || !(pmu_text_ieq(tok[0].s, tok[0].len, "PMC8") || pmu_text_ieq(tok[0].s, tok[0].len, "PMC9")))
        return config_fail(p, "opcode", "expected PMC8 or PMC9 after 'opcode', found '%.*s'", ntok ? (int)tok[0].len : 0,
                           ntok ? tok[0].s : "");
    opcode_spec o = {.idx = pmu_text_ieq(tok[0].s, tok[0].len, "PMC9"), .slots = ITA_SLOTS_ALL};
    const unsigned v = o.idx ? ITA_VIS_PMC9 : ITA_VIS_PMC8;
    if (cfg->line[v])
        return config_fail(p, ita_vis_table[v].name, "duplicate register line (first at line %u)", cfg->line[v]);
    if (config_each_item(p, tok + 1, ntok - 1, opcode_item, &o) != 0)
        return -1;
    if (o.cls && (o.have_match || o.have_mask))
        return config_fail(p, "class", "sets match and mask itself; give either class= or match=/mask=");
    if (!o.cls && !o.have_match && !o.have_mask)
        return config_fail(p, "opcode", "expected class=NAME or match=M mask=M");
    if (o.have_match && !o.have_mask)
        return config_fail(p, "mask", "expected mask=M with match= (27 bits, 1 = don't care)");
    if (o.have_mask && !o.have_match)
        return config_fail(p, "match", "expected match=M with mask=");
    if (o.cls) {
        config_class_fields(o.cls, &o.match, &o.mask);
        if (!o.have_units)
            o.slots = config_slots_of_letters(o.cls->units, strlen(o.cls->units));
    }

    /* ig_ad = inv = 0 unless given (libpfm's PMC8 under a code range): with ig_ad = 1 an
     * irange on pairs 0 and 2 would have no effect. */
    uint64_t value = config_reset(v, p->model);
    if (p->model == ITA_MODEL_ITANIUM2)
        value = ITA_FSET(ITA_FSET(value, PMC_OPC, IG_AD, o.ig_ad), PMC_OPC, INV, o.inv);
    cfg->value[v] = ita_opcm_set(value, o.match, o.mask, o.slots);
    cfg->line[v] = p->line;
    cfg->opcode_line[o.idx] = p->line;
    if (o.have_tie) {
        cfg->tie_line[o.idx] = p->line;
        cfg->tie_pairs[o.idx] = (uint8_t)o.tie;
    }
    return 0;
}

/* ---- the constraint registers, after the last line -------------------------------------- */

/* The first (lowest) non-zero line of the pairs selected by `mask`; 0 when none. */
static unsigned first_pair_line(const ita_config_pair *pairs, unsigned mask)
{
    unsigned line = 0;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        if ((mask >> k & 1) && pairs[k].line && (!line || pairs[k].line < line))
            line = pairs[k].line;
    return line;
}

/* The pairs that a line programs. */
static unsigned programmed_pairs(const ita_config_pair *pairs)
{
    unsigned set = 0;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        if (pairs[k].line)
            set |= 1u << k;
    return set;
}

static void derive(ita_config *cfg, unsigned v, uint64_t value, unsigned line)
{
    cfg->value[v] = value;
    cfg->line[v] = line;
    cfg->derived[v] = 1;
}

/* PMC14: each irange pair constrains its events; fine mode for fine ranges.  A PMC14
 * the file gives must agree on fine mode. */
static int finish_pmc14(config_parser *p, ita_config *cfg, unsigned iline)
{
    const unsigned given = cfg->line[ITA_VIS_PMC14];
    if (!given) {
        int fine = 0;
        for (unsigned k = 0; k < ITA_NPAIRS; k++)
            fine |= cfg->ipair[k].fine != 0;
        derive(cfg, ITA_VIS_PMC14,
               ita_pmc14_set(config_reset(ITA_VIS_PMC14, cfg->model), programmed_pairs(cfg->ipair), fine), iline);
        return 0;
    }
    unsigned fine = (unsigned)ITA_FGET(cfg->value[ITA_VIS_PMC14], PMC14, FINE);
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        if (!cfg->ipair[k].line || (cfg->ipair[k].fine != 0) == (fine != 0))
            continue;
        p->line = cfg->ipair[k].line;
        if (fine)
            return config_fail(p, "fine", "expected PMC14 fine=0 for a mask range: PMC14 on line %u has "
                                          "fine=1, which makes the IBR pairs fine-mode bounds",
                               given);
        return config_fail(p, "fine", "expected PMC14 fine=1 for a fine range: PMC14 on line %u has fine=0", given);
    }
    return 0;
}

/* PMC13 (Itanium 2): each drange pair qualifies memory events (cfg 2, DBR only, by
 * default).  A PMC13 the file gives rules out cfg= on the drange lines. */
static int finish_pmc13(config_parser *p, ita_config *cfg, unsigned dline)
{
    if (!cfg->line[ITA_VIS_PMC13]) {
        uint64_t v = config_reset(ITA_VIS_PMC13, cfg->model);
        for (unsigned k = 0; k < ITA_NPAIRS; k++)
            if (cfg->dpair[k].line)
                v = ita_pmc13_set_pair(v, k, cfg->dpair[k].cfg, true);
        derive(cfg, ITA_VIS_PMC13, v, dline);
        return 0;
    }
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        if (cfg->dpair[k].line && cfg->dpair[k].cfg_given) {
            p->line = cfg->dpair[k].line;
            return config_fail(p, "cfg", "expected no cfg: PMC13 is given on line %u (set cfg_dbrp%u there "
                                         "or drop the PMC13 line)",
                               cfg->line[ITA_VIS_PMC13], k);
        }
    return 0;
}

/* PMC15: tie= of the opcode lines, unless the file gives PMC15. */
static int finish_pmc15(config_parser *p, ita_config *cfg)
{
    const unsigned *tl = cfg->tie_line;
    unsigned tline = tl[0] && (!tl[1] || tl[0] < tl[1]) ? tl[0] : tl[1];
    if (cfg->line[ITA_VIS_PMC15]) {
        p->line = tline;
        return config_fail(p, "tie", "expected no tie: PMC15 is given on line %u (set its ibrp fields there "
                                     "or drop the PMC15 line)",
                           cfg->line[ITA_VIS_PMC15]);
    }
    uint64_t v = config_reset(ITA_VIS_PMC15, cfg->model);
    for (unsigned idx = 0; idx < 2; idx++)
        if (tl[idx])
            v = ita_pmc15_set(v, idx ? ITA_PAIRS_OF_PMC9 : ITA_PAIRS_OF_PMC8, cfg->tie_pairs[idx]);
    derive(cfg, ITA_VIS_PMC15, v, tline);
    return 0;
}

int config_finish_qualification(config_parser *p, ita_config *cfg)
{
    const ita_model m = cfg->model;
    const unsigned iline = first_pair_line(cfg->ipair, ITA_ALL_PAIRS);
    const unsigned dline = first_pair_line(cfg->dpair, ITA_ALL_PAIRS);

    if (m == ITA_MODEL_ITANIUM) {
        /* ta = 0: instructions need an IBR match; pt = 0: memory events a DBR match. */
        if (iline && !cfg->line[ITA_VIS_PMC13])
            derive(cfg, ITA_VIS_PMC13, ITA_FSET(config_reset(ITA_VIS_PMC13, m), PMC13, TA, 0), iline);
        if (dline && !cfg->line[ITA_VIS_PMC11])
            derive(cfg, ITA_VIS_PMC11, ITA_FSET(config_reset(ITA_VIS_PMC11, m), PMC11, PT, 0), dline);
        return 0;
    }
    if (iline && finish_pmc14(p, cfg, iline) != 0)
        return -1;
    /* PMC8 resets with ig_ad = 1, which would ignore ranges on pairs 0 and 2. */
    const unsigned even_line = first_pair_line(cfg->ipair, ITA_PAIRS_OF_PMC8);
    if (even_line && !cfg->line[ITA_VIS_PMC8]) {
        uint64_t v = config_reset(ITA_VIS_PMC8, m);
        derive(cfg, ITA_VIS_PMC8, ITA_FSET(ITA_FSET(v, PMC_OPC, IG_AD, 0), PMC_OPC, INV, 0), even_line);
    }
    if (dline && finish_pmc13(p, cfg, dline) != 0)
        return -1;
    if ((cfg->tie_line[0] || cfg->tie_line[1]) && finish_pmc15(p, cfg) != 0)
        return -1;
    return 0;
}
