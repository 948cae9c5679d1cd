/*
 * cmd_conform.c - the Itanium family's conformance hooks (include/cli/pmu_family_cmds.h):
 * everything random in a `pmusim conform` run apart from the stream.
 *
 * From the run's seed: the initial programming (counters with random events and
 * qualifiers, IBR/DBR pairs and opcode matchers aimed at where the stream runs, the
 * constraint registers), and software activity woven between the records.  Two kinds of
 * software answer the interrupt line:
 *   - the harness's overflow service (include/harness/ita/ita_isr.h) with random register
 *     activity: writes of any value to any address (implemented or not), reads,
 *     freezes and unfreezes, counters loaded near the top, PSR/DCR changes;
 *   - the overflow driver (include/sw/ita/ita_drv.h, docs/ita-driver.md) with the random
 *     programming as its configuration, in a random session, while the activity is
 *     limited to reads and qualification-register writes (the driver owns the counters,
 *     PMC0, PSR and DCR); at the end its 64-bit counts must equal the reference's
 *     exact totals, per process.
 * The qualifier-heavy programming (conform's `qual` configuration) programs every IBR and
 * DBR pair and both opcode matchers, ties most pairs to the events (PMC14 / PMC13, or
 * Itanium's PMC13.ta = 0), and gives the counters only events that read a qualifier, so
 * that the ranges and patterns decide what they count.
 */
#include <stdlib.h>
#include <string.h>

#include "cmds_internal.h"
#include "common/ita/ita_events.h"
#include "harness/ita/ita_isr.h"
#include "common/pmu_rng.h"

/* ---- random values ------------------------------------------------------------------------ */

static unsigned below(pmu_rng *r, unsigned n) { return (unsigned)pmu_rng_below(r, n); }

/* An event of the table; qualified: one that reads a qualifier (an iar, opm or dar column),
 * so that the qualifier-heavy programming's ranges and patterns decide what it counts. */
static const ita_event_desc *random_event(pmu_rng *s, int qualified)
{
    for (;;) {
        const ita_event_desc *e = &ita_event_table[below(s, ITA_NEVENTS)];
        if (!qualified || e->iar || e->opm || e->dar)
            return e;
    }
}

/* A PMC4..7 value: mostly a well-formed programming of an implemented event with
 * random qualifiers, sometimes any 64-bit value (the writable mask must sort it).
 * qual_heavy: always an event that reads a qualifier. */
static uint64_t random_pmc(pmu_rng *s, int qual_heavy)
{
    if (!qual_heavy && below(s, 8) == 0)
        return pmu_rng_next(s);
    const ita_event_desc *e = random_event(s, qual_heavy);
    uint64_t v = 0;
    v = ITA_FSET(v, PMC_GEN, ES, below(s, 16) == 0 ? below(s, 256) : e->code);
    v = ITA_FSET(v, PMC_GEN, UMASK, below(s, 16) == 0 ? below(s, 16) : e->umask);
    v = ITA_FSET(v, PMC_GEN, PLM, below(s, 4) == 0 ? below(s, 16) : 0xf);
    v = ITA_FSET(v, PMC_GEN, OI, below(s, 4) != 0);
    v = ITA_FSET(v, PMC_GEN, PM, below(s, 2));
    v = ITA_FSET(v, PMC_GEN, THRES, below(s, 3) == 0 ? below(s, 8) : 0);
    v = ITA_FSET(v, PMC_GEN, ISM, below(s, 4) == 0 ? below(s, 4) : 0);
    v = ITA_FSET(v, PMC_GEN, ENABLE, 1);
    return v;
}

/* A counter value: near the top (to overflow soon), small, or anything. */
static uint64_t random_pmd(pmu_rng *s, unsigned width)
{
    uint64_t top = (1ull << width) - 1;
    switch (below(s, 3)) {
    case 0: return top - below(s, 64);
    case 1: return below(s, 1000);
    default: return pmu_rng_next(s);
    }
}

/* ---- where programming goes: the PMU, or the driver's configuration ------------------------- */

typedef struct reg_sink {
    pmu_backend *b;       /* NULL: collect into cfg */
    ita_drv_config *cfg;
} reg_sink;

static void sink_write(reg_sink *k, uint16_t addr, uint64_t v)
{
    if (k->b) {
        pmu_write(k->b, addr, v);
        return;
    }
    for (unsigned i = 0; i < k->cfg->nregs; i++)
        if (k->cfg->reg[i].addr == addr) {
            k->cfg->reg[i].value = v;
            return;
        }
    if (k->cfg->nregs < ITA_DRV_MAX_REGS)
        k->cfg->reg[k->cfg->nregs++] = (ita_drv_reg){addr, v};
}

/* ---- what the stream is aimed at: ranges, opcode patterns, latency bounds, thresholds ------- */

/* The latency bounds of the EARs' thresholds and bins on either model, 4 << k for k = 0..10
 * (docs/ita-ear-btb.md: LAT4 .. LAT4096; Itanium 2's I-EAR bin floors are among them).  The
 * generator lands latencies on each and one below it, where a compare lat >= T decides. */
#define EAR_NBOUNDS 11u
#define EAR_FIRST_BOUND 4u

/* An opcode pattern in PMC8/PMC9 field terms (27-bit mask: 1 = don't care). */
typedef struct opc_pattern {
    uint32_t match, mask;
    unsigned slots; /* bit 0 b, 1 f, 2 i, 3 m */
} opc_pattern;

/* The 27 matcher bits sit on instruction bits {40:27, 12:0}. */
static uint64_t field_to_insn(uint32_t f) { return ((uint64_t)(f >> 13) << 27) | (f & 0x1fffu); }

typedef struct qual_plan {
    uint64_t code[16], data[16]; /* edges handed to the generator */
    unsigned ncode, ndata;
    uint64_t opc_match[4], opc_care[4];
    unsigned nopc;
    uint16_t lat[EAR_NBOUNDS];   /* the EARs' latency bounds */
    uint16_t count[ITA_NCOUNTERS]; /* the counters' thresholds */
    unsigned nlat, ncount;
} qual_plan;

static void plan_edge(uint64_t *list, unsigned *n, uint64_t lo, uint64_t hi)
{
    if (*n + 2 <= 16) {
        list[(*n)++] = lo;
        list[(*n)++] = hi;
    }
}

static void plan_latencies(qual_plan *plan)
{
    for (unsigned k = 0; k < EAR_NBOUNDS; k++)
        plan->lat[k] = (uint16_t)(EAR_FIRST_BOUND << k);
    plan->nlat = EAR_NBOUNDS;
}

/* The thresholds of the counters' first programming: the generator gives general events
 * per-cycle counts equal to them (and one more), where n > t (or n >= t) decides. */
static void plan_threshold(qual_plan *plan, uint64_t pmc)
{
    unsigned t = (unsigned)ITA_FGET(pmc, PMC_GEN, THRES);
    if (t && plan->ncount < ITA_NCOUNTERS)
        plan->count[plan->ncount++] = (uint16_t)t;
}

/* An aligned power-of-two block around `near`, as an IBR/DBR pair (address, mask|plm). */
static void random_block(pmu_rng *s, uint64_t near, unsigned min_log2, unsigned max_log2,
                         uint64_t *addr, uint64_t *mask, uint64_t *lo, uint64_t *hi)
{
    unsigned k = min_log2 + below(s, max_log2 - min_log2 + 1);
    uint64_t size = 1ull << k;
    *lo = near & ~(size - 1);
    *hi = *lo + size;
    *addr = *lo | (below(s, 4) == 0 ? pmu_rng_next(s) & (size - 1) : 0); /* low bits do not matter */
    *mask = ~(size - 1) & 0x00ffffffffffffffull;
}

/* Where the stream's code and data live: the workload's functions, or the random mode's
 * regions (base + up to 64 KB). */
static uint64_t code_near(pmu_rng *s, const pmu_gen *gen, int workload)
{
    if (workload && pmu_gen_nfuncs(gen) > 0) {
        uint64_t lo, hi;
        pmu_gen_func(gen, below(s, pmu_gen_nfuncs(gen)), &lo, &hi, NULL);
        return below(s, 2) ? lo : hi;
    }
    static const uint64_t bases[] = {0x4000000000000000ull, 0x2000000000000000ull,
                                     0xe000000000000000ull, 0};
    return bases[below(s, 4)] + (pmu_rng_next(s) & 0xfff0u);
}

static uint64_t data_near(pmu_rng *s, int workload)
{
    static const uint64_t random_bases[] = {0x6000000000000000ull, 0x4000000000000000ull};
    static const uint64_t workload_bases[] = {0x6000000000100000ull, 0x600000007ff00000ull,
                                              0xe000000004000000ull, 0x0a000000ull};
    if (workload)
        return workload_bases[below(s, 4)] + ((uint64_t)below(s, 4) << 32) + (pmu_rng_next(s) & 0xffff);
    return random_bases[below(s, 2)] + (pmu_rng_next(s) & 0xffff);
}

static opc_pattern random_pattern(pmu_rng *s)
{
    /* br.cloop (major 4, btype 5), any branch of major 4, loads/stores (major 4 on M),
     * or a random pattern with a few cared bits. */
    static const opc_pattern known[] = {
        {0x2000140u, 0x07ffe3fu, 0x1},
        {0x2000000u, 0x07fffffu, 0x1},
        {0x2000000u, 0x07fffffu, 0x8},
    };
    if (below(s, 4) != 0)
        return known[below(s, 3)];
    opc_pattern p;
    p.mask = (uint32_t)(pmu_rng_next(s) | pmu_rng_next(s)) & 0x7ffffffu;
    p.match = (uint32_t)pmu_rng_next(s) & 0x7ffffffu;
    p.slots = below(s, 16);
    return p;
}

static void write_opc(reg_sink *k, pmu_rng *s, unsigned which, const opc_pattern *p, ita_model m)
{
    uint64_t v = ~0ull;
    v = ITA_FSET(v, PMC_OPC, MASK, p->mask);
    v = ITA_FSET(v, PMC_OPC, MATCH, p->match);
    v = ITA_FSET(v, PMC_OPC, B, p->slots & 1);
    v = ITA_FSET(v, PMC_OPC, F, p->slots >> 1 & 1);
    v = ITA_FSET(v, PMC_OPC, I, p->slots >> 2 & 1);
    v = ITA_FSET(v, PMC_OPC, M, p->slots >> 3 & 1);
    if (m == ITA_MODEL_ITANIUM2) {
        v = ITA_FSET(v, PMC_OPC, IG_AD, below(s, 2));
        v = ITA_FSET(v, PMC_OPC, INV, below(s, 5) == 0);
    }
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, which), v);
}

/* IBR/DBR pairs as aligned blocks around the stream's code and data: two in three of them,
 * every one when qual_heavy. */
static void random_pairs(reg_sink *k, pmu_rng *s, const pmu_gen *gen, int workload, int qual_heavy,
                         qual_plan *plan)
{
    for (unsigned i = 0; i < 4; i++) {
        uint64_t addr, mask, lo, hi, plm = below(s, 3) == 0 ? below(s, 16) : 0xf;
        if (below(s, 3) != 0 || qual_heavy) {
            random_block(s, code_near(s, gen, workload), 4, 16, &addr, &mask, &lo, &hi);
            if (below(s, 8) == 0)
                mask ^= 1ull << (4 + below(s, 52)); /* a non-contiguous mask now and then */
            sink_write(k, ITA_ADDR(ITA_SPACE_IBR, 2 * i), addr);
            sink_write(k, ITA_ADDR(ITA_SPACE_IBR, 2 * i + 1), mask | plm << ITA_F_IBR_MASK_PLM_LSB);
            plan_edge(plan->code, &plan->ncode, lo, hi);
        }
        if (below(s, 3) != 0 || qual_heavy) {
            random_block(s, data_near(s, workload), 0, 16, &addr, &mask, &lo, &hi);
            sink_write(k, ITA_ADDR(ITA_SPACE_DBR, 2 * i), addr);
            sink_write(k, ITA_ADDR(ITA_SPACE_DBR, 2 * i + 1), mask | plm << ITA_F_DBR_MASK_PLM_LSB);
            plan_edge(plan->data, &plan->ndata, lo, hi);
        }
    }
}

/* A pair's "not constrained" bit (PMC14.ibrp): one time in two, one in four when qual_heavy. */
static unsigned pair_free(pmu_rng *s, int qual_heavy) { return qual_heavy ? below(s, 4) == 0 : below(s, 2); }
/* A data pair's enable (PMC13.ena): one time in two, three in four when qual_heavy. */
static unsigned pair_on(pmu_rng *s, int qual_heavy) { return qual_heavy ? below(s, 4) != 0 : below(s, 2); }

/* Itanium 2: PMC14 (pairs tied to the opcode matchers, fine mode with its page ranges),
 * PMC13 (the data-range configuration) and PMC15. */
static void random_ita2_constraints(reg_sink *k, pmu_rng *s, const pmu_gen *gen, int workload,
                                    int qual_heavy, qual_plan *plan)
{
    uint64_t v14 = 0;
    v14 = ITA_FSET(v14, PMC14, IBRP0, pair_free(s, qual_heavy));
    v14 = ITA_FSET(v14, PMC14, IBRP1, pair_free(s, qual_heavy));
    v14 = ITA_FSET(v14, PMC14, IBRP2, pair_free(s, qual_heavy));
    v14 = ITA_FSET(v14, PMC14, IBRP3, pair_free(s, qual_heavy));
    v14 = ITA_FSET(v14, PMC14, FINE, below(s, 4) == 0);
    if (ITA_FGET(v14, PMC14, FINE)) {
        /* Fine mode: lower pairs 0/1 and upper pairs 2/3 bound ranges inside a page. */
        for (unsigned r = 0; r < 2; r++) {
            uint64_t page = code_near(s, gen, workload) & ~0xfffull;
            uint64_t a = page + ((uint64_t)below(s, 256) << 4);
            uint64_t z = a + ((uint64_t)below(s, 64) << 4);
            if (z > page + 0xff0)
                z = page + 0xff0;
            uint64_t plm = 0xf;
            sink_write(k, ITA_ADDR(ITA_SPACE_IBR, 2 * r), a);
            sink_write(k, ITA_ADDR(ITA_SPACE_IBR, 2 * r + 1), plm << ITA_F_IBR_MASK_PLM_LSB);
            sink_write(k, ITA_ADDR(ITA_SPACE_IBR, 2 * r + 4), z);
            sink_write(k, ITA_ADDR(ITA_SPACE_IBR, 2 * r + 5), plm << ITA_F_IBR_MASK_PLM_LSB);
            plan_edge(plan->code, &plan->ncode, a, z + 16);
        }
    }
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 14), v14);
    uint64_t v13 = 0;
    v13 = ITA_FSET(v13, PMC13, CFG_DBRP0, below(s, 4));
    v13 = ITA_FSET(v13, PMC13, CFG_DBRP1, below(s, 4));
    v13 = ITA_FSET(v13, PMC13, CFG_DBRP2, below(s, 4));
    v13 = ITA_FSET(v13, PMC13, CFG_DBRP3, below(s, 4));
    v13 = ITA_FSET(v13, PMC13, ENA_DBRP0, pair_on(s, qual_heavy));
    v13 = ITA_FSET(v13, PMC13, ENA_DBRP1, pair_on(s, qual_heavy));
    v13 = ITA_FSET(v13, PMC13, ENA_DBRP2, pair_on(s, qual_heavy));
    v13 = ITA_FSET(v13, PMC13, ENA_DBRP3, pair_on(s, qual_heavy));
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 13), v13);
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 15), below(s, 16));
}

/* ---- EARs and the branch trace buffer (docs/ita-ear-btb.md) ------------------------------------ */

/* An EAR umask: mostly that of one of the model's virtual EAR events of the type (so the
 * thresholds and TLB masks software uses are exercised), sometimes any `bits`-bit value. */
static unsigned random_ear_umask(pmu_rng *s, ita_model m, ita_evt_type type, unsigned bits)
{
    if (below(s, 6) == 0)
        return below(s, 1u << bits);
    unsigned n, seen = 0, pick = 0;
    const ita_event_row *rows = ita_event_rows(m, &n);
    for (unsigned i = 0; i < n; i++)
        if (rows[i].type == type && below(s, ++seen) == 0) /* uniform over the matches */
            pick = rows[i].umask;
    return seen ? pick : below(s, 1u << bits);
}

static unsigned random_plm(pmu_rng *s) { return below(s, 4) == 0 ? below(s, 16) : 0xf; }
static unsigned random_ism(pmu_rng *s) { return below(s, 4) == 0 ? below(s, 4) : 0; }

/* Itanium 2's cache-mode umask (docs/ita-ear-btb.md, "I-EAR"): with bit 7 set, bit k selects the
 * latency bin k (floors 4, 8, 16, 32, 128, 256, 1024, 4096).  A bin floor's compare shows
 * only under a umask whose bins on either side of it differ: one time in two any set of
 * bins (each floor then has even odds), one in four a threshold (LAT4 0xff .. LAT4096 0x80,
 * the bins from k up), one in four as the D-EAR's (the model's events, LAT0 and RAB among
 * them, or any value). */
static unsigned random_iear_cache_umask(pmu_rng *s, ita_model m)
{
    switch (below(s, 4)) {
    case 0:
    case 1: return 0x80u | below(s, 0x80);
    case 2: return (0xffu << below(s, 8)) & 0xffu;
    default: return random_ear_umask(s, m, ITA_EVT_IEAR_CACHE, ITA_F_PMC10_UMASK_WIDTH);
    }
}

/* PMC10: cache mode (ct = 1x), TLB mode (ct = 00) or nothing (ct = 01); Itanium: the tlb bit. */
static uint64_t random_iear(pmu_rng *s, ita_model m)
{
    const unsigned mode = below(s, 8); /* 0..3 cache, 4..6 TLB, 7 off */
    uint64_t v = 0;
    if (m == ITA_MODEL_ITANIUM) {
        const int tlb = mode >= 4;
        v = ITA_FSET(v, PMC10_ITA, TLB, tlb);
        v = ITA_FSET(v, PMC10_ITA, UMASK, random_ear_umask(s, m, tlb ? ITA_EVT_IEAR_TLB : ITA_EVT_IEAR_CACHE,
                                                            ITA_F_PMC10_ITA_UMASK_WIDTH));
        v = ITA_FSET(v, PMC10_ITA, PLM, random_plm(s));
        v = ITA_FSET(v, PMC10_ITA, PM, below(s, 2));
        return ITA_FSET(v, PMC10_ITA, ISM, random_ism(s));
    }
    if (mode < 4) {
        /* The cache-mode umask's bit 7 shares bit 12 with ct, whose bit 13 says "cache". */
        v = ITA_FSET(v, PMC10, UMASK, random_iear_cache_umask(s, m));
        v = ITA_FSET(v, PMC10, CT, ITA_FGET(v, PMC10, CT) | 2u);
    } else if (mode < 7) {
        v = ITA_FSET(v, PMC10, UMASK, random_ear_umask(s, m, ITA_EVT_IEAR_TLB, ITA_F_PMC10_UMASK_WIDTH - 1));
        v = ITA_FSET(v, PMC10, CT, 0);
    } else {
        v = ITA_FSET(v, PMC10, CT, 1);
    }
    v = ITA_FSET(v, PMC10, PLM, random_plm(s));
    v = ITA_FSET(v, PMC10, PM, below(s, 2));
    return ITA_FSET(v, PMC10, ISM, random_ism(s));
}

/* PMC11's D-EAR fields (Itanium's pt is the qualification's). */
static uint64_t random_dear(pmu_rng *s, ita_model m)
{
    static const ita_evt_type types[] = {ITA_EVT_DEAR_CACHE, ITA_EVT_DEAR_TLB, ITA_EVT_DEAR_ALAT,
                                         ITA_EVT_DEAR_CACHE};
    uint64_t v = 0;
    unsigned mode = below(s, 8) == 0 ? 3 : below(s, m == ITA_MODEL_ITANIUM ? 2 : 3);
    if (m == ITA_MODEL_ITANIUM) {
        mode &= 1;
        v = ITA_FSET(v, PMC11_ITA, TLB, mode);
    } else {
        v = ITA_FSET(v, PMC11, MODE, mode);
    }
    v = ITA_FSET(v, PMC11, UMASK, random_ear_umask(s, m, types[mode], ITA_F_PMC11_UMASK_WIDTH));
    v = ITA_FSET(v, PMC11, PLM, random_plm(s));
    v = ITA_FSET(v, PMC11, PM, below(s, 2));
    return ITA_FSET(v, PMC11, ISM, random_ism(s));
}

/* PMC12: mostly every mask bit set (record everything of a type), sometimes narrow filters. */
static uint64_t random_btb(pmu_rng *s, ita_model m)
{
    uint64_t v = 0;
    v = ITA_FSET(v, PMC12, PLM, random_plm(s));
    v = ITA_FSET(v, PMC12, PM, below(s, 2));
    v = ITA_FSET(v, PMC12, TM, below(s, 2) ? 3 : below(s, 4));
    v = ITA_FSET(v, PMC12, PTM, below(s, 2) ? 3 : below(s, 4));
    v = ITA_FSET(v, PMC12, PPM, below(s, 2) ? 3 : below(s, 4));
    if (m == ITA_MODEL_ITANIUM) {
        v = ITA_FSET(v, PMC12_ITA, TAR, below(s, 2));
        v = ITA_FSET(v, PMC12_ITA, BPT, below(s, 2));
        return ITA_FSET(v, PMC12_ITA, BAC, below(s, 2));
    }
    v = ITA_FSET(v, PMC12, DS, below(s, 2));
    return ITA_FSET(v, PMC12, BRT, below(s, 2) ? 0 : below(s, 4));
}

/* Programs the EARs and the BTB, each left off now and then; `pmc11` holds what the
 * qualification put in PMC11 (Itanium: pt). Sometimes a register gets any value (the
 * writable mask must sort it). */
static void random_ears_btb(reg_sink *k, pmu_rng *s, ita_model m, uint64_t pmc11)
{
    const uint64_t any = below(s, 8) == 0 ? pmu_rng_next(s) : 0;
    uint64_t iear = below(s, 5) ? random_iear(s, m) : 0;
    uint64_t dear = below(s, 5) ? random_dear(s, m) : 0;
    uint64_t btb = below(s, 5) ? random_btb(s, m) : 0;
    switch (any ? below(s, 3) : 3) {
    case 0: iear = any; break;
    case 1: dear = any; break;
    case 2: btb = any; break;
    default: break;
    }
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 10), iear);
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 11), dear | pmc11);
    sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 12), btb);
}

/* Programs IBR/DBR pairs, opcode matchers and the constraint registers at random, aimed at
 * where the stream runs, and records the edges and patterns for the generator. */
static void random_qualification(reg_sink *k, pmu_rng *s, ita_model m, const pmu_gen *gen,
                                 int workload, int qual_heavy, qual_plan *plan)
{
    random_pairs(k, s, gen, workload, qual_heavy, plan);
    for (unsigned i = 0; i < 2; i++) {
        if (below(s, 2) && !qual_heavy)
            continue; /* leave the match-everything default */
        opc_pattern p = random_pattern(s);
        write_opc(k, s, 8 + i, &p, m);
        plan->opc_match[plan->nopc] = field_to_insn(p.match);
        plan->opc_care[plan->nopc] = field_to_insn(~p.mask & 0x7ffffffu);
        plan->nopc++;
    }
    uint64_t pmc11 = 0;
    if (m == ITA_MODEL_ITANIUM2) {
        random_ita2_constraints(k, s, gen, workload, qual_heavy, plan);
    } else {
        /* PMC13.ta = 1 leaves the instruction-address ranges out */
        sink_write(k, ITA_ADDR(ITA_SPACE_PMC, 13), below(s, 2) && !qual_heavy);
        pmc11 = below(s, 2) ? 0 : ITA_FMASK(PMC11, PT);
    }
    random_ears_btb(k, s, m, pmc11);
}

/* ---- software activity ------------------------------------------------------------------- */

static const uint16_t psr_addr = ITA_ADDR(ITA_SPACE_CPU, 0);
static const uint16_t dcr_addr = ITA_ADDR(ITA_SPACE_CPU, 1);
static const uint16_t ipsr_addr = ITA_ADDR(ITA_SPACE_CPU, 2);

static uint64_t random_psr(pmu_rng *s)
{
    uint64_t v = below(s, 8) == 0 ? pmu_rng_next(s) : 0;
    v = ITA_FSET(v, PSR, UP, below(s, 4) != 0);
    v = ITA_FSET(v, PSR, PP, below(s, 4) != 0);
    return v;
}

/* What the driver leaves alone: reads anywhere, writes to the qualification registers. */
static void random_driver_action(pmu_backend *b, pmu_rng *s)
{
    static const unsigned qregs[] = {8, 9, 11, 13, 14, 15};
    switch (below(s, 4)) {
    case 0: pmu_write(b, ITA_ADDR(below(s, 2) ? ITA_SPACE_IBR : ITA_SPACE_DBR, below(s, 8)), pmu_rng_next(s)); break;
    case 1: pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, qregs[below(s, 6)]), pmu_rng_next(s)); break;
    case 2: (void)pmu_read(b, (uint16_t)below(s, 1u << ITA_ADDR_BITS)); break;
    default: (void)pmu_read(b, ita_vis_table[below(s, ITA_NVIS)].addr); break;
    }
}

/* One of the EAR and BTB data registers (ACCESS(CAPTURE)): software clearing or restoring
 * them races the captures. */
static uint16_t random_capture_reg(pmu_rng *s)
{
    uint16_t regs[ITA_NVIS];
    unsigned n = 0;
    for (unsigned i = 0; i < ita_reg_table_len; i++)
        if (ita_reg_table[i].role == ITA_ROLE_CAPTURE)
            for (unsigned j = 0; j < ita_reg_table[i].count; j++)
                regs[n++] = ITA_ADDR(ita_reg_table[i].space, ita_reg_table[i].first + j);
    return regs[below(s, n)];
}

/* One software action between two records, beside the harness's overflow service.  Now
 * and then the I-EAR is programmed afresh, so that a run tries several of its umasks (a bin
 * floor shows only under one whose bins on either side differ: random_iear_cache_umask). */
static void random_action(pmu_backend *b, pmu_rng *s, unsigned width, int qual_heavy)
{
    unsigned ctr = ITA_FIRST_COUNTER + below(s, ITA_NCOUNTERS);
    switch (below(s, 13)) {
    case 12: pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, 10), random_iear(s, (ita_model)b->model)); break;
    case 10:
    case 11: random_driver_action(b, s); break;
    case 0: pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, ctr), random_pmc(s, qual_heavy)); break;
    case 1: pmu_write(b, ITA_ADDR(ITA_SPACE_PMD, ctr), random_pmd(s, width)); break;
    case 2: pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, 0), below(s, 2) ? 0 : pmu_rng_next(s)); break;
    case 3: pmu_write(b, psr_addr, random_psr(s)); break;
    case 4: pmu_write(b, below(s, 2) ? dcr_addr : ipsr_addr, pmu_rng_next(s)); break;
    case 5: pmu_write(b, (uint16_t)below(s, 1u << ITA_ADDR_BITS), pmu_rng_next(s)); break;
    case 6: (void)pmu_read(b, (uint16_t)below(s, 1u << ITA_ADDR_BITS)); break;
    case 7: pmu_write(b, random_capture_reg(s), below(s, 2) ? 0 : pmu_rng_next(s)); break;
    default: (void)pmu_read(b, ita_vis_table[below(s, ITA_NVIS)].addr); break;
    }
}

/* ---- one run ------------------------------------------------------------------------------- */

struct pmu_fam_conform {
    pmu_backend *b;
    pmu_rng rng;      /* everything random below comes from the seed, apart from the stream */
    unsigned width;
    unsigned gap;     /* software activity: on average one action every `gap` records */
    int driver;
    int qual_heavy;   /* the qualifier-heavy programming (conform's qual configuration) */
    qual_plan plan;
    pmu_gen_hot hot;
    ita_isr isr;
    ita_session session;
    pmu_record_hooks session_hooks; /* the driver's own, called from the driver_ hooks */
    int session_started;
    uint64_t at_cycle; /* the harness's next random action (harness_at) */
};

/* The harness's software activity: before each clock, one draw of below(gap), and a random
 * action when it is 0.  The draws are made ahead, from clock `from` up to the next 0, so
 * that the loop may step the clocks before it in a row (pmu_record_hooks.at): nothing else
 * draws from c->rng during a run, so the actions and their draws are those of a draw at
 * every clock. */
static void harness_schedule(pmu_fam_conform *c, uint64_t from)
{
    while (below(&c->rng, c->gap) != 0)
        from++;
    c->at_cycle = from;
}

static void harness_at(void *ctx)
{
    pmu_fam_conform *c = ctx;
    random_action(c->b, &c->rng, c->width, c->qual_heavy);
    harness_schedule(c, c->at_cycle + 1);
}

static void harness_after(void *ctx, const void *record, const pmu_state *st)
{
    (void)record;
    ita_isr_tick(&((pmu_fam_conform *)ctx)->isr, st->pmi);
}

/* The harness's service: counters programmed on the PMU, loaded near the top. */
static void start_harness(pmu_fam_conform *c, pmu_record_hooks *hooks)
{
    pmu_backend *b = c->b;
    uint64_t start[ITA_NCOUNTERS], reload[ITA_NCOUNTERS];
    for (unsigned i = 0; i < ITA_NCOUNTERS; i++) {
        const uint64_t pmc = random_pmc(&c->rng, c->qual_heavy);
        pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, ITA_FIRST_COUNTER + i), pmc);
        plan_threshold(&c->plan, pmc);
        start[i] = random_pmd(&c->rng, c->width);
        pmu_write(b, ITA_ADDR(ITA_SPACE_PMD, ITA_FIRST_COUNTER + i), start[i]);
        /* Mostly near the top, so the overflow service runs often. */
        reload[i] = below(&c->rng, 4) ? (1ull << c->width) - 1 - below(&c->rng, 3000) : 0;
    }
    pmu_write(b, psr_addr, random_psr(&c->rng));
    pmu_write(b, dcr_addr, below(&c->rng, 2));
    pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, 0), 0);
    ita_isr_init(&c->isr, b, start, reload, below(&c->rng, 9));
    c->gap = 50 + below(&c->rng, 2000);
    harness_schedule(c, b->cycle);
    /* the service asleep but while an interrupt is pending (ita_isr_tick does nothing
     * on the other clocks) */
    *hooks = (pmu_record_hooks){.ctx = c, .after = harness_after, .pmi_only = 1,
                                .wake = &c->isr.pending, .at = harness_at,
                                .at_cycle = &c->at_cycle};
}

static void driver_before(void *ctx, void *record)
{
    pmu_fam_conform *c = ctx;
    if (below(&c->rng, c->gap) == 0)
        random_driver_action(c->b, &c->rng);
    c->session_hooks.before(c->session_hooks.ctx, record);
}

static void driver_after(void *ctx, const void *record, const pmu_state *st)
{
    pmu_fam_conform *c = ctx;
    c->session_hooks.after(c->session_hooks.ctx, record, st);
}

/* The driver: the random programming is its configuration, in a random session.  Small
 * sampling periods make its service routine run often, even on rare events. */
static int start_driver(pmu_fam_conform *c, ita_drv_config *cfg, pmu_record_hooks *hooks,
                        pmu_err *err)
{
    reg_sink sink = {NULL, cfg};
    for (unsigned i = 0; i < ITA_NCOUNTERS; i++) {
        const uint64_t pmc = random_pmc(&c->rng, c->qual_heavy);
        sink_write(&sink, ITA_ADDR(ITA_SPACE_PMC, ITA_FIRST_COUNTER + i), pmc);
        plan_threshold(&c->plan, pmc);
        /* Count only, sample often (rare events too), sample now and then, or a full
         * 2^W period (the reload is 0). */
        static const unsigned spans[] = {0, 16, 3000, 0};
        unsigned kind = below(&c->rng, 4);
        cfg->period[i] = kind == 3 ? (1ull << c->width) : spans[kind] ? 1 + below(&c->rng, spans[kind]) : 0;
    }
    ita_drv_opts o = ita_drv_opts_default();
    o.mode = below(&c->rng, 2) ? ITA_DRV_SYSTEM_WIDE : ITA_DRV_PER_PROCESS;
    o.dcr_pp = (int)below(&c->rng, 2);
    o.per_process = o.mode == ITA_DRV_SYSTEM_WIDE && below(&c->rng, 2);
    o.every_process = o.mode == ITA_DRV_PER_PROCESS;
    o.latency = below(&c->rng, 9);
    o.config = *cfg;
    c->gap = 50 + below(&c->rng, 2000);
    if (ita_session_start(&c->session, c->b, &o, NULL, 0, &c->session_hooks, err))
        return -1;
    c->session_started = 1;
    *hooks = (pmu_record_hooks){.ctx = c, .before = driver_before, .after = driver_after};
    return 0;
}

pmu_fam_conform *ita_conform_start(pmu_backend *b, uint64_t seed, const pmu_gen *layout,
                                   int workload, int driver, int qual_heavy, const pmu_gen_hot **hot,
                                   pmu_record_hooks *hooks, pmu_err *err)
{
    pmu_fam_conform *c = calloc(1, sizeof *c);
    if (!c) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    c->b = b;
    c->driver = driver;
    c->qual_heavy = qual_heavy;
    c->width = ita_counter_width((ita_model)b->model);
    ita_drv_config cfg;
    memset(&cfg, 0, sizeof cfg);
    reg_sink sink = {driver ? NULL : b, &cfg};
    pmu_rng qual;
    pmu_rng_seed(&qual, seed ^ 0x7175616c6966ull);
    random_qualification(&sink, &qual, (ita_model)b->model, layout, workload, qual_heavy, &c->plan);
    plan_latencies(&c->plan);
    pmu_rng_seed(&c->rng, seed ^ 0x636f6e666f726dull);
    if (!driver) {
        start_harness(c, hooks);
    } else if (start_driver(c, &cfg, hooks, err)) {
        free(c);
        return NULL;
    }
    c->hot = (pmu_gen_hot){c->plan.code, c->plan.ncode, c->plan.data, c->plan.ndata,
                           c->plan.opc_match, c->plan.opc_care, c->plan.nopc,
                           c->plan.lat, c->plan.nlat, c->plan.count, c->plan.ncount};
    *hot = &c->hot;
    return c;
}

int ita_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out)
{
    if (!c->driver) {
        *interrupts = c->isr.interrupts;
        return 1;
    }
    ita_drv_stop(c->session.d);
    *interrupts = ita_drv_get_stats(c->session.d)->interrupts;
    return ita_session_check(&c->session, (1u << ITA_NCOUNTERS) - 1, 0, out);
}

void ita_conform_free(pmu_fam_conform *c)
{
    if (!c)
        return;
    if (c->session_started)
        ita_session_free(&c->session);
    free(c);
}
