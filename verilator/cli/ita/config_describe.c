/*
 * config_describe.c - what a run prints about its configuration (ita_config.h): the
 * event and qualifiers of each counter, the constraints that apply to it, the
 * programmed pairs and matchers, and the hot edges the stream generator aims at.
 * Descriptions follow docs/ita-semantics.md ("Event qualification"); registers are read
 * through include/sw/ita/ita_encode.h, the encodings the configuration reader writes.
 */
#include "config_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- counters -------------------------------------------------------------------- */

void ita_config_describe_event(uint64_t pmc, ita_model model, char *buf, size_t size)
{
    unsigned es = (unsigned)ITA_FGET(pmc, PMC_GEN, ES), umask = (unsigned)ITA_FGET(pmc, PMC_GEN, UMASK);
    int e = config_event_by_code(es, umask, model);
    const ita_event_row *own = e < 0 ? NULL
                               : model == ITA_MODEL_ITANIUM ? ita_event_itanium_row(&ita_event_table[e])
                                                            : &ita_event_table[e];
    if (own)
        snprintf(buf, size, "%s", own->name);
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
                pmu_text_appendf(buf, size, "%s%u", buf[0] ? "," : "", l);
}

void ita_config_describe_qualifiers(uint64_t pmc, char *buf, size_t size)
{
    static const char *const ism_names[4] = {"both", "ia32", "ia64", "none"};
    char lv[16];
    levels((unsigned)ITA_FGET(pmc, PMC_GEN, PLM), lv, sizeof lv);
    snprintf(buf, size, "plm=%s pm=%u thres=%u ism=%s%s", lv, (unsigned)ITA_FGET(pmc, PMC_GEN, PM),
             (unsigned)ITA_FGET(pmc, PMC_GEN, THRES), ism_names[ITA_FGET(pmc, PMC_GEN, ISM) & 3],
             ITA_FGET(pmc, PMC_GEN, OI) ? "" : " oi=0");
}

/* ---- pairs and matchers ----------------------------------------------------------- */

static unsigned pair_plm(const uint64_t *vis, unsigned first_vis, unsigned k)
{
    return ita_pair_plm(vis[first_vis + 2 * k + 1]);
}

static bool pair_block(const uint64_t *vis, unsigned first_vis, unsigned k, uint64_t *start, uint64_t *end)
{
    return ita_pair_block(vis[first_vis + 2 * k], vis[first_vis + 2 * k + 1], first_vis == ITA_VIS_IBR0, start,
                          end);
}

/* The addresses an IBR (code) or DBR pair matches: "0x1000..0x2000" for a contiguous
 * mask (the aligned block), "addr=0x..,mask=0x.." otherwise. */
static void describe_mask_pair(const uint64_t *vis, unsigned first_vis, unsigned k, char *buf, size_t size)
{
    uint64_t start, end;
    if (!pair_block(vis, first_vis, k, &start, &end))
        snprintf(buf, size, "addr=0x%" PRIx64 ",mask=0x%" PRIx64, vis[first_vis + 2 * k],
                 vis[first_vis + 2 * k + 1] & ITA_FMASK(IBR_MASK, MASK));
    else if (end == 0)
        snprintf(buf, size, "0x%" PRIx64 "..2^64", start);
    else
        config_fmt_range(buf, size, start, end);
}

/* Fine-mode range A (r = 0: pairs 0 and 2) or B (r = 1: pairs 1 and 3): bundles from the
 * lower bound's to the upper bound's, inclusive, in the lower bound's page. */
static void describe_fine(const uint64_t *vis, unsigned r, char *buf, size_t size)
{
    uint64_t lo = vis[ITA_VIS_IBR0 + 2 * r], hi = vis[ITA_VIS_IBR0 + 2 * (r + ITA_FINE_UPPER_OFFSET)];
    uint64_t page = lo & ~(uint64_t)(ITA_FINE_PAGE_BYTES - 1), in_page = ITA_FINE_PAGE_BYTES - ITA_BUNDLE_BYTES;
    snprintf(buf, size, "fine:0x%" PRIx64 "..0x%" PRIx64, page | (lo & in_page),
             (page | (hi & in_page)) + ITA_BUNDLE_BYTES);
}

static uint64_t matcher(const uint64_t *vis, unsigned idx) { return vis[idx ? ITA_VIS_PMC9 : ITA_VIS_PMC8]; }

/* The class a matcher value programs (match, mask and units), or NULL. */
static const ita_opcode_class *class_of(uint64_t pmc)
{
    uint64_t match = ITA_FGET(pmc, PMC_OPC, MATCH), mask = ITA_FGET(pmc, PMC_OPC, MASK);
    unsigned slots = ita_opcm_slots(pmc);
    for (unsigned i = 0; i < ita_opcode_nclasses; i++) {
        const ita_opcode_class *c = &ita_opcode_classes[i];
        uint64_t cmatch, cmask;
        config_class_fields(c, &cmatch, &cmask);
        if (cmask == mask && (match & ~mask) == cmatch && slots == config_slots_of_letters(c->units, strlen(c->units)))
            return c;
    }
    return NULL;
}

/* "mifb" letters of a matcher's slot types, "none" without any. */
static void units_of(uint64_t pmc, char *buf, size_t size)
{
    unsigned slots = ita_opcm_slots(pmc);
    buf[0] = '\0';
    for (unsigned i = 0; i < 4; i++)
        if (slots >> i & 1u)
            pmu_text_appendf(buf, size, "%c", CONFIG_UNIT_LETTERS[i]);
    if (!buf[0])
        snprintf(buf, size, "none");
}

static void opcode_token(const uint64_t *vis, unsigned idx, char *buf, size_t size)
{
    const ita_opcode_class *c = class_of(matcher(vis, idx));
    snprintf(buf, size, "opcode=PMC%u%s%s%s", idx ? 9u : 8u, c ? "(" : "", c ? c->name : "", c ? ")" : "");
}

/* ---- the constraints of one counter --------------------------------------------------- */

/* Events counted per cycle, not per retired instruction: no instruction carries a
 * tag, so no range or opcode constrains them (ita-semantics.md). */
static int event_per_cycle(int e) { return e == ITA_EV_CPU_CYCLES || e == ITA_EV_L2_FORCE_RECIRC_ANY; }

/* The IBR pair whose tag an instruction event uses: IA64_TAGGED_INST_RETIRED umask k
 * uses pair k, every other event pair 0 (Tag(PMC8)). */
static unsigned event_pair(int e)
{
    const ita_event_desc *tagged = &ita_event_table[ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8];
    return ita_event_table[e].code == tagged->code ? ita_event_table[e].umask : 0;
}

/* The code range of tag k: on Itanium 2 pair k's (or its fine range's) unless PMC14 or
 * PMC8.ig_ad leave it out; on Itanium any pair's (PMC13.ta = 0).  "" when none applies. */
static void irange_token(const uint64_t *vis, ita_model m, unsigned k, char *tok, size_t size)
{
    char d[96];
    tok[0] = '\0';
    if (m == ITA_MODEL_ITANIUM2) {
        uint64_t pmc8 = vis[ITA_VIS_PMC8], pmc14 = vis[ITA_VIS_PMC14];
        int even = k % 2 == 0;
        if ((even && ITA_FGET(pmc8, PMC_OPC, IG_AD)) || !ita_pmc14_constrains(pmc14, k))
            return;
        int fine = ITA_FGET(pmc14, PMC14, FINE) != 0;
        unsigned named = fine ? k % ITA_FINE_UPPER_OFFSET : k;
        int matches = fine ? pair_plm(vis, ITA_VIS_IBR0, named) &&
                                 pair_plm(vis, ITA_VIS_IBR0, named + ITA_FINE_UPPER_OFFSET)
                           : pair_plm(vis, ITA_VIS_IBR0, k) != 0;
        if (!matches)
            snprintf(d, sizeof d, "none");
        else if (fine)
            describe_fine(vis, named, d, sizeof d);
        else
            describe_mask_pair(vis, ITA_VIS_IBR0, k, d, sizeof d);
        snprintf(tok, size, "%sirange[%u]=%s", even && ITA_FGET(pmc8, PMC_OPC, INV) ? "!" : "", named, d);
        return;
    }
    if (ITA_FGET(vis[ITA_VIS_PMC13], PMC13, TA))
        return;
    for (unsigned q = 0; q < ITA_NPAIRS; q++) {
        if (!pair_plm(vis, ITA_VIS_IBR0, q))
            continue;
        describe_mask_pair(vis, ITA_VIS_IBR0, q, d, sizeof d);
        pmu_text_appendf(tok, size, "%sirange[%u]=%s", tok[0] ? "|" : "", q, d);
    }
    if (!tok[0])
        snprintf(tok, size, "irange=none");
}

/* The constraints of inst_q(k) for an event (ita-semantics.md), joined by `sep`. */
static void inst_tokens(const uint64_t *vis, ita_model m, const ita_event_desc *e, unsigned k, const char *sep,
                        char *buf, size_t size)
{
    char tok[160];
    buf[0] = '\0';
    if (e->iar) {
        irange_token(vis, m, k, tok, sizeof tok);
        if (tok[0])
            pmu_text_appendf(buf, size, "%s%s", buf[0] ? sep : "", tok);
    }
    if (e->opm) {
        unsigned idx = k % 2;
        int tied = m == ITA_MODEL_ITANIUM || ita_pmc15_tied(vis[ITA_VIS_PMC15], k);
        if (tied && !ita_opcm_matches_all(matcher(vis, idx))) {
            opcode_token(vis, idx, tok, sizeof tok);
            pmu_text_appendf(buf, size, "%s%s", buf[0] ? sep : "", tok);
        }
    }
}

static void drange_token(const uint64_t *vis, unsigned k, char *buf, size_t size)
{
    char d[96];
    if (pair_plm(vis, ITA_VIS_DBR0, k))
        describe_mask_pair(vis, ITA_VIS_DBR0, k, d, sizeof d);
    else
        snprintf(d, sizeof d, "none");
    snprintf(buf, size, "drange[%u]=%s", k, d);
}

/* Itanium 2 memory events: the OR over the active PMC13 pairs, or Tag(PMC8). */
static void memory_tokens_ita2(const uint64_t *vis, const ita_event_desc *e, char *buf, size_t size)
{
    const uint64_t pmc13 = vis[ITA_VIS_PMC13];
    char alts[320] = "", inst[320], tok[320];
    int active = 0, unconstrained = 0;
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        unsigned cfgk = ita_pmc13_cfg(pmc13, k);
        if (!ita_pmc13_enabled(pmc13, k) || cfgk == ITA_DBRP_NONE)
            continue;
        active = 1;
        inst[0] = tok[0] = '\0';
        if (cfgk != ITA_DBRP_DBR)
            inst_tokens(vis, ITA_MODEL_ITANIUM2, e, k, "&", inst, sizeof inst);
        if (cfgk != ITA_DBRP_IBR_OPC)
            drange_token(vis, k, tok, sizeof tok);
        if (!inst[0] && !tok[0])
            unconstrained = 1;
        pmu_text_appendf(alts, sizeof alts, "%s%s%s%s", alts[0] ? "|" : "", inst, inst[0] && tok[0] ? "&" : "", tok);
    }
    if (!active)
        inst_tokens(vis, ITA_MODEL_ITANIUM2, e, 0, " ", buf, size);
    else if (!unconstrained)
        snprintf(buf, size, "mem:%s", alts);
}

/* Itanium memory events: Tag(PMC8) and, with PMC11.pt = 0, any DBR pair. */
static void memory_tokens_ita(const uint64_t *vis, const ita_event_desc *e, char *buf, size_t size)
{
    char list[320] = "", tok[320];
    inst_tokens(vis, ITA_MODEL_ITANIUM, e, 0, " ", buf, size);
    if (ITA_FGET(vis[ITA_VIS_PMC11], PMC11, PT))
        return;
    for (unsigned q = 0; q < ITA_NPAIRS; q++)
        if (pair_plm(vis, ITA_VIS_DBR0, q)) {
            drange_token(vis, q, tok, sizeof tok);
            pmu_text_appendf(list, sizeof list, "%s%s", list[0] ? "|" : "", tok);
        }
    pmu_text_appendf(buf, size, "%s%s", buf[0] ? " " : "", list[0] ? list : "drange=none");
}

/* ---- the EAR and BTB behind their counting events ----------------------------------- */

/* The D-EAR cache-mode latency threshold of a umask, 0 for none (docs/ita-ear-btb.md: Itanium 2
 * 4 << umask for 0..0xa; Itanium also 512, 512, 1024, 2048 for 7..0xa and 0xf any miss). */
static unsigned dear_threshold(ita_model m, unsigned umask)
{
    static const unsigned ita_high[4] = {512, 512, 1024, 2048};
    if (m == ITA_MODEL_ITANIUM && umask >= 7 && umask <= 0xa)
        return ita_high[umask - 7];
    if (m == ITA_MODEL_ITANIUM && umask == 0xf)
        return 1;
    return umask <= 0xa ? 4u << umask : 0u;
}

/* "dear=PMC11(cache,lat>=16,plm=kernel,pm=1)": the unit whose captures an EAR or BTB
 * counting event counts, with its mode and its own plm and pm. */
static void unit_token(const uint64_t *vis, ita_model m, unsigned kind, char *buf, size_t size)
{
    static const char *const dear_modes[] = {"cache", "tlb", "alat", "none"};
    const int ita = m == ITA_MODEL_ITANIUM;
    char lv[16], mode[48];
    uint64_t v;
    if (kind == ITA_KIND_DEAR) {
        v = vis[ITA_VIS_PMC11];
        unsigned md = ita ? (unsigned)ITA_FGET(v, PMC11_ITA, TLB) : (unsigned)ITA_FGET(v, PMC11, MODE);
        unsigned umask = (unsigned)ITA_FGET(v, PMC11, UMASK), lat = dear_threshold(m, umask);
        if (md == 0 && lat)
            snprintf(mode, sizeof mode, "cache,lat>=%u", lat);
        else
            snprintf(mode, sizeof mode, "%s,umask=0x%x", dear_modes[md & 3], umask);
    } else if (kind == ITA_KIND_IEAR) {
        v = vis[ITA_VIS_PMC10];
        int tlb = ita ? (int)ITA_FGET(v, PMC10_ITA, TLB) : ITA_FGET(v, PMC10, CT) == 0;
        int none = !ita && ITA_FGET(v, PMC10, CT) == 1;
        snprintf(mode, sizeof mode, "%s,umask=0x%x", none ? "none" : tlb ? "tlb" : "cache",
                 ita ? (unsigned)ITA_FGET(v, PMC10_ITA, UMASK) : (unsigned)ITA_FGET(v, PMC10, UMASK));
    } else {
        v = vis[ITA_VIS_PMC12];
        snprintf(mode, sizeof mode, "tm=%u,ptm=%u,ppm=%u", (unsigned)ITA_FGET(v, PMC12, TM),
                 (unsigned)ITA_FGET(v, PMC12, PTM), (unsigned)ITA_FGET(v, PMC12, PPM));
        if (!ita)
            pmu_text_appendf(mode, sizeof mode, ",brt=%u", (unsigned)ITA_FGET(v, PMC12, BRT));
    }
    /* plm is bits 3:0 of all three; pm is bit 6 but for Itanium 2's PMC10 (bit 4). */
    unsigned pm = kind == ITA_KIND_IEAR && !ita ? (unsigned)ITA_FGET(v, PMC10, PM) : (unsigned)ITA_FGET(v, PMC11, PM);
    levels((unsigned)ITA_FGET(v, PMC11, PLM), lv, sizeof lv);
    pmu_text_appendf(buf, size, "%s%s=PMC%u(%s,plm=%s,pm=%u)", buf[0] ? " " : "",
                     kind == ITA_KIND_DEAR ? "dear" : kind == ITA_KIND_IEAR ? "iear" : "btb",
                     kind == ITA_KIND_DEAR ? 11u : kind == ITA_KIND_IEAR ? 10u : 12u, mode, lv, pm);
}

void ita_config_describe_tags(const uint64_t vis[ITA_NVIS], ita_model model, unsigned counter, char *buf,
                              size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (counter >= ITA_NCOUNTERS)
        return;
    uint64_t pmc = vis[ITA_VIS_PMC4 + counter];
    int ev = config_event_by_code((unsigned)ITA_FGET(pmc, PMC_GEN, ES), (unsigned)ITA_FGET(pmc, PMC_GEN, UMASK),
                                  model);
    if (ev < 0 || event_per_cycle(ev))
        return;
    const ita_event_desc *e = &ita_event_table[ev];
    if (!e->dar)
        inst_tokens(vis, model, e, event_pair(ev), " ", buf, size);
    else if (model == ITA_MODEL_ITANIUM)
        memory_tokens_ita(vis, e, buf, size);
    else
        memory_tokens_ita2(vis, e, buf, size);
    if (e->kind == ITA_KIND_DEAR || e->kind == ITA_KIND_IEAR || e->kind == ITA_KIND_BTB)
        unit_token(vis, model, e->kind, buf, size);
}

/* ---- the programmed setup ----------------------------------------------------------- */

/* "irange[k] RANGE plm=LEVELS (IBRk, IBRk+1" (or drange, DBR): the start of the setup
 * line of a bit-mask pair; the caller closes it. */
static void setup_pair(const uint64_t *vis, unsigned first_vis, unsigned k, char *buf, size_t size)
{
    char d[96], lv[16];
    const unsigned ev = first_vis + 2 * k;
    describe_mask_pair(vis, first_vis, k, d, sizeof d);
    levels(pair_plm(vis, first_vis, k), lv, sizeof lv);
    pmu_text_appendf(buf, size, "%s[%u] %s plm=%s (%s, %s", first_vis == ITA_VIS_IBR0 ? "irange" : "drange", k, d,
                     lv, ita_vis_table[ev].name, ita_vis_table[ev + 1].name);
}

static void setup_iranges(const uint64_t *vis, ita_model model, char *buf, size_t size)
{
    char d[96], lv[16];
    const int fine = model == ITA_MODEL_ITANIUM2 && ITA_FGET(vis[ITA_VIS_PMC14], PMC14, FINE);
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        const unsigned ev = ITA_VIS_IBR0 + 2 * k, up = k + ITA_FINE_UPPER_OFFSET;
        if (fine) {
            if (k >= ITA_FINE_UPPER_OFFSET || (!pair_plm(vis, ITA_VIS_IBR0, k) && !pair_plm(vis, ITA_VIS_IBR0, up)))
                continue;
            describe_fine(vis, k, d, sizeof d);
            levels(pair_plm(vis, ITA_VIS_IBR0, k) & pair_plm(vis, ITA_VIS_IBR0, up), lv, sizeof lv);
            pmu_text_appendf(buf, size, "irange[%u] %s plm=%s (%s, %s; upper bound %s, %s)\n", k, d, lv,
                             ita_vis_table[ev].name, ita_vis_table[ev + 1].name,
                             ita_vis_table[ITA_VIS_IBR0 + 2 * up].name, ita_vis_table[ITA_VIS_IBR0 + 2 * up + 1].name);
            continue;
        }
        if (pair_plm(vis, ITA_VIS_IBR0, k)) {
            setup_pair(vis, ITA_VIS_IBR0, k, buf, size);
            pmu_text_appendf(buf, size, ")\n");
        }
    }
}

static void setup_dranges(const uint64_t *vis, ita_model model, char *buf, size_t size)
{
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        if (!pair_plm(vis, ITA_VIS_DBR0, k))
            continue;
        setup_pair(vis, ITA_VIS_DBR0, k, buf, size);
        if (model == ITA_MODEL_ITANIUM2)
            pmu_text_appendf(buf, size, "; PMC13 cfg_dbrp%u=%u ena_dbrp%u=%u", k,
                             ita_pmc13_cfg(vis[ITA_VIS_PMC13], k), k,
                             (unsigned)ita_pmc13_enabled(vis[ITA_VIS_PMC13], k));
        pmu_text_appendf(buf, size, ")\n");
    }
}

static void setup_opcodes(const uint64_t *vis, ita_model model, char *buf, size_t size)
{
    for (unsigned idx = 0; idx < 2; idx++) {
        const uint64_t pmc = matcher(vis, idx);
        if (ita_opcm_matches_all(pmc))
            continue;
        const ita_opcode_class *c = class_of(pmc);
        char units[8];
        units_of(pmc, units, sizeof units);
        pmu_text_appendf(buf, size, "opcode PMC%u %s%smatch=0x%" PRIx64 " mask=0x%" PRIx64 " slots=%s",
                         idx ? 9u : 8u, c ? c->name : "", c ? ": " : "", (uint64_t)ITA_FGET(pmc, PMC_OPC, MATCH),
                         (uint64_t)ITA_FGET(pmc, PMC_OPC, MASK), units);
        if (model == ITA_MODEL_ITANIUM2) {
            char pairs[32] = "";
            for (unsigned k = idx; k < ITA_NPAIRS; k += 2)
                if (ita_pmc15_tied(vis[ITA_VIS_PMC15], k))
                    pmu_text_appendf(pairs, sizeof pairs, "%sibrp%u", pairs[0] ? "," : "", k);
            pmu_text_appendf(buf, size, " tie=%s", pairs[0] ? pairs : "none");
        }
        pmu_text_appendf(buf, size, "\n");
    }
}

size_t ita_config_describe_setup(const uint64_t vis[ITA_NVIS], ita_model model, char *buf, size_t size)
{
    if (size == 0)
        return 0;
    buf[0] = '\0';
    setup_iranges(vis, model, buf, size);
    setup_dranges(vis, model, buf, size);
    setup_opcodes(vis, model, buf, size);
    return strlen(buf);
}

/* ---- hot edges ------------------------------------------------------------------------ */


/* The bounds of a pair that can match: both ends of its block, or its address when the
 * mask has holes.  Returns how many it wrote. */
static unsigned pair_edges(const uint64_t *vis, unsigned first_vis, unsigned k, uint64_t *out)
{
    uint64_t s, e;
    if (!pair_block(vis, first_vis, k, &s, &e)) {
        out[0] = vis[first_vis + 2 * k];
        return 1;
    }
    out[0] = s;
    out[1] = e;
    return 2;
}

void ita_config_hot_edges(const uint64_t vis[ITA_NVIS], ita_model model, ita_config_hot *h)
{
    memset(h, 0, sizeof *h);
    unsigned nc = 0, nd = 0, no = 0;
    const int fine = model == ITA_MODEL_ITANIUM2 && ITA_FGET(vis[ITA_VIS_PMC14], PMC14, FINE);
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        const unsigned up = k + ITA_FINE_UPPER_OFFSET;
        if (fine && k < ITA_FINE_UPPER_OFFSET) {
            if (pair_plm(vis, ITA_VIS_IBR0, k) && pair_plm(vis, ITA_VIS_IBR0, up)) {
                h->code[nc++] = vis[ITA_VIS_IBR0 + 2 * k];
                h->code[nc++] = vis[ITA_VIS_IBR0 + 2 * up] + ITA_BUNDLE_BYTES;
            }
        } else if (!fine && pair_plm(vis, ITA_VIS_IBR0, k)) {
            nc += pair_edges(vis, ITA_VIS_IBR0, k, &h->code[nc]);
        }
        if (pair_plm(vis, ITA_VIS_DBR0, k))
            nd += pair_edges(vis, ITA_VIS_DBR0, k, &h->data[nd]);
    }
    for (unsigned idx = 0; idx < 2; idx++) {
        const uint64_t pmc = matcher(vis, idx);
        if (ita_opcm_matches_all(pmc))
            continue;
        uint64_t care = ia64_window_enc((uint32_t)~ITA_FGET(pmc, PMC_OPC, MASK) & field_ones(ITA_F_PMC_OPC_MASK_WIDTH));
        h->care[no] = care;
        h->match[no++] = ia64_window_enc((uint32_t)ITA_FGET(pmc, PMC_OPC, MATCH)) & care;
    }
    h->hot.code = h->code;
    h->hot.ncode = nc;
    h->hot.data = h->data;
    h->hot.ndata = nd;
    h->hot.opc_match = h->match;
    h->hot.opc_care = h->care;
    h->hot.nopc = no;
}
