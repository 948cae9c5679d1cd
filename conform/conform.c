/*
 * conform.c - `pmusim conform`: reference-vs-RTL conformance over many seeds.
 *
 * Each run (one seed, one model) draws everything from its seed: the stream (the
 * generator's random or workload mode), the initial PMU programming, and software
 * activity woven between the records — random register writes (any value, any
 * address, implemented or not), random reads, freezes and unfreezes, counters loaded
 * near the top, PSR/DCR changes — while the harness's overflow service answers every
 * interrupt.  The lock-step checker compares every clock and every read.  A run
 * either ends "0 mismatches" or stops at the first mismatch with the report and the
 * one-line command that replays it with a waveform of the cycles before it.
 *
 *   pmusim conform [--seed N] [--runs N] [--cycles N] [--model itanium|itanium2|both]
 *                  [--mode random|workload|mixed] [--waves FILE --wave-from CYCLE]
 */
#define _POSIX_C_SOURCE 200809L
#include "conform.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_cosim.h"
#include "pmu_rng.h"
#include "ita/ita_family.h"
#include "ita/pmu_isr.h"
#include "ita/pmu_ref.h"
#include "ita/pmu_rtl.h"
#include "pmu_stream.h"

#define EXIT_MISMATCH 1
#define EXIT_USAGE 2
#define WAVE_WINDOW 200

typedef struct conform_opts {
    uint64_t seed, runs, cycles;
    int models;            /* bit 0 Itanium, bit 1 Itanium 2 */
    int mode;              /* 0 random, 1 workload, 2 mixed (by seed parity) */
    const char *waves;
    uint64_t wave_from;
} conform_opts;

/* splitmix64 (include/pmu_rng.h): a small, well-mixed generator whose sequence is the
 * same everywhere. */
static uint64_t rnd(uint64_t *s) { return pmu_splitmix64(s); }
static unsigned below(uint64_t *s, unsigned n) { return (unsigned)(rnd(s) % n); }

/* A PMC4..7 value: mostly a well-formed programming of an implemented event with
 * random qualifiers, sometimes any 64-bit value (the writable mask must sort it). */
static uint64_t random_pmc(uint64_t *s)
{
    if (below(s, 8) == 0)
        return rnd(s);
    const pmu_event_desc *e = &pmu_event_table[below(s, PMU_NEVENTS)];
    uint64_t v = 0;
    v = PMU_FSET(v, PMC_GEN, ES, below(s, 16) == 0 ? below(s, 256) : e->code);
    v = PMU_FSET(v, PMC_GEN, UMASK, below(s, 16) == 0 ? below(s, 16) : e->umask);
    v = PMU_FSET(v, PMC_GEN, PLM, below(s, 4) == 0 ? below(s, 16) : 0xf);
    v = PMU_FSET(v, PMC_GEN, OI, below(s, 4) != 0);
    v = PMU_FSET(v, PMC_GEN, PM, below(s, 2));
    v = PMU_FSET(v, PMC_GEN, THRES, below(s, 3) == 0 ? below(s, 8) : 0);
    v = PMU_FSET(v, PMC_GEN, ISM, below(s, 4) == 0 ? below(s, 4) : 0);
    v = PMU_FSET(v, PMC_GEN, ENABLE, 1);
    return v;
}

/* A counter value: near the top (to overflow soon), small, or anything. */
static uint64_t random_pmd(uint64_t *s, unsigned width)
{
    uint64_t top = (1ull << width) - 1;
    switch (below(s, 3)) {
    case 0: return top - below(s, 64);
    case 1: return below(s, 1000);
    default: return rnd(s);
    }
}

/* ---- qualification (issue 3): ranges and opcode patterns aimed at the stream ---------- */

/* An opcode pattern in PMC8/PMC9 field terms (27-bit mask: 1 = don't care). */
typedef struct opc_pattern {
    uint32_t match, mask;
    unsigned slots; /* bit 0 b, 1 f, 2 i, 3 m */
} opc_pattern;

/* The 27 matcher bits sit on instruction bits {40:27, 12:0}. */
static uint64_t field_to_insn(uint32_t f)
{
    return ((uint64_t)(f >> 13) << 27) | (f & 0x1fffu);
}

typedef struct qual_plan {
    uint64_t code[16], data[16];      /* edges handed to the generator */
    unsigned ncode, ndata;
    uint64_t opc_match[4], opc_care[4];
    unsigned nopc;
    opc_pattern pat[4];
} qual_plan;

/* An aligned power-of-two block around `near`, as an IBR/DBR pair (address, mask|plm). */
static void random_block(uint64_t *s, uint64_t near, unsigned min_log2, unsigned max_log2,
                         uint64_t *addr, uint64_t *mask, uint64_t *lo, uint64_t *hi)
{
    unsigned k = min_log2 + below(s, max_log2 - min_log2 + 1);
    uint64_t size = 1ull << k;
    *lo = near & ~(size - 1);
    *hi = *lo + size;
    *addr = *lo | (below(s, 4) == 0 ? rnd(s) & (size - 1) : 0); /* low bits do not matter */
    *mask = ~(size - 1) & 0x00ffffffffffffffull;
}

/* Where the stream's code and data live: the workload's functions, or the random mode's
 * regions (base + up to 64 KB). */
static uint64_t code_near(uint64_t *s, pmu_gen *gen, int workload)
{
    if (workload && pmu_gen_nfuncs(gen) > 0) {
        uint64_t lo, hi;
        const char *name;
        pmu_gen_func(gen, below(s, pmu_gen_nfuncs(gen)), &lo, &hi, &name);
        return below(s, 2) ? lo : hi;
    }
    static const uint64_t bases[] = {0x4000000000000000ull, 0x2000000000000000ull,
                                     0xe000000000000000ull, 0};
    return bases[below(s, 4)] + (rnd(s) & 0xfff0u);
}

static uint64_t data_near(uint64_t *s, int workload)
{
    static const uint64_t random_bases[] = {0x6000000000000000ull, 0x4000000000000000ull};
    static const uint64_t workload_bases[] = {0x6000000000100000ull, 0x600000007ff00000ull,
                                              0xe000000004000000ull, 0x0a000000ull};
    if (workload)
        return workload_bases[below(s, 4)] + ((uint64_t)below(s, 4) << 32) + (rnd(s) & 0xffff);
    return random_bases[below(s, 2)] + (rnd(s) & 0xffff);
}

static opc_pattern random_pattern(uint64_t *s)
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
    p.mask = (uint32_t)(rnd(s) | rnd(s)) & 0x7ffffffu;
    p.match = (uint32_t)rnd(s) & 0x7ffffffu;
    p.slots = below(s, 16);
    return p;
}

static void write_opc(pmu_backend *b, uint64_t *s, unsigned which, const opc_pattern *p, pmu_model m)
{
    uint64_t v = ~0ull;
    v = PMU_FSET(v, PMC_OPC, MASK, p->mask);
    v = PMU_FSET(v, PMC_OPC, MATCH, p->match);
    v = PMU_FSET(v, PMC_OPC, B, p->slots & 1);
    v = PMU_FSET(v, PMC_OPC, F, p->slots >> 1 & 1);
    v = PMU_FSET(v, PMC_OPC, I, p->slots >> 2 & 1);
    v = PMU_FSET(v, PMC_OPC, M, p->slots >> 3 & 1);
    if (m == PMU_MODEL_ITANIUM2) {
        v = PMU_FSET(v, PMC_OPC, IG_AD, below(s, 2));
        v = PMU_FSET(v, PMC_OPC, INV, below(s, 5) == 0);
    }
    pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, which), v);
}

/* Programs IBR/DBR pairs, opcode matchers and the constraint registers at random, aimed at
 * where the stream runs, and records the edges and patterns for the generator. */
static void random_qualification(pmu_backend *b, uint64_t *s, pmu_model m, pmu_gen *gen,
                                 int workload, qual_plan *plan)
{
    for (unsigned k = 0; k < 4; k++) {
        uint64_t addr, mask, lo, hi, plm = below(s, 3) == 0 ? below(s, 16) : 0xf;
        if (below(s, 3) != 0) {
            random_block(s, code_near(s, gen, workload), 4, 16, &addr, &mask, &lo, &hi);
            if (below(s, 8) == 0)
                mask ^= 1ull << (4 + below(s, 52)); /* a non-contiguous mask now and then */
            pmu_write(b, PMU_ADDR(PMU_SPACE_IBR, 2 * k), addr);
            pmu_write(b, PMU_ADDR(PMU_SPACE_IBR, 2 * k + 1), mask | plm << PMU_F_IBR_MASK_PLM_LSB);
            if (plan->ncode + 2 <= 16) {
                plan->code[plan->ncode++] = lo;
                plan->code[plan->ncode++] = hi;
            }
        }
        if (below(s, 3) != 0) {
            random_block(s, data_near(s, workload), 0, 16, &addr, &mask, &lo, &hi);
            pmu_write(b, PMU_ADDR(PMU_SPACE_DBR, 2 * k), addr);
            pmu_write(b, PMU_ADDR(PMU_SPACE_DBR, 2 * k + 1), mask | plm << PMU_F_DBR_MASK_PLM_LSB);
            if (plan->ndata + 2 <= 16) {
                plan->data[plan->ndata++] = lo;
                plan->data[plan->ndata++] = hi;
            }
        }
    }
    for (unsigned i = 0; i < 2; i++) {
        if (below(s, 2))
            continue; /* leave the match-everything default */
        opc_pattern p = random_pattern(s);
        write_opc(b, s, 8 + i, &p, m);
        plan->pat[plan->nopc] = p;
        plan->opc_match[plan->nopc] = field_to_insn(p.match);
        plan->opc_care[plan->nopc] = field_to_insn(~p.mask & 0x7ffffffu);
        plan->nopc++;
    }
    if (m == PMU_MODEL_ITANIUM2) {
        uint64_t v14 = 0;
        v14 = PMU_FSET(v14, PMC14, IBRP0, below(s, 2));
        v14 = PMU_FSET(v14, PMC14, IBRP1, below(s, 2));
        v14 = PMU_FSET(v14, PMC14, IBRP2, below(s, 2));
        v14 = PMU_FSET(v14, PMC14, IBRP3, below(s, 2));
        v14 = PMU_FSET(v14, PMC14, FINE, below(s, 4) == 0);
        if (PMU_FGET(v14, PMC14, FINE)) {
            /* Fine mode: lower pairs 0/1 and upper pairs 2/3 bound ranges inside a page. */
            for (unsigned r = 0; r < 2; r++) {
                uint64_t page = code_near(s, gen, workload) & ~0xfffull;
                uint64_t a = page + ((uint64_t)below(s, 256) << 4);
                uint64_t z = a + ((uint64_t)below(s, 64) << 4);
                if (z > page + 0xff0) z = page + 0xff0;
                uint64_t plm = 0xf;
                pmu_write(b, PMU_ADDR(PMU_SPACE_IBR, 2 * r), a);
                pmu_write(b, PMU_ADDR(PMU_SPACE_IBR, 2 * r + 1), plm << PMU_F_IBR_MASK_PLM_LSB);
                pmu_write(b, PMU_ADDR(PMU_SPACE_IBR, 2 * r + 4), z);
                pmu_write(b, PMU_ADDR(PMU_SPACE_IBR, 2 * r + 5), plm << PMU_F_IBR_MASK_PLM_LSB);
                if (plan->ncode + 2 <= 16) {
                    plan->code[plan->ncode++] = a;
                    plan->code[plan->ncode++] = z + 16;
                }
            }
        }
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 14), v14);
        uint64_t v13 = 0;
        v13 = PMU_FSET(v13, PMC13, CFG_DBRP0, below(s, 4));
        v13 = PMU_FSET(v13, PMC13, CFG_DBRP1, below(s, 4));
        v13 = PMU_FSET(v13, PMC13, CFG_DBRP2, below(s, 4));
        v13 = PMU_FSET(v13, PMC13, CFG_DBRP3, below(s, 4));
        v13 = PMU_FSET(v13, PMC13, ENA_DBRP0, below(s, 2));
        v13 = PMU_FSET(v13, PMC13, ENA_DBRP1, below(s, 2));
        v13 = PMU_FSET(v13, PMC13, ENA_DBRP2, below(s, 2));
        v13 = PMU_FSET(v13, PMC13, ENA_DBRP3, below(s, 2));
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 13), v13);
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 15), below(s, 16));
    } else {
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 13), below(s, 2));
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 11), below(s, 2) ? 0 : PMU_FMASK(PMC11, PT));
    }
}

static const uint16_t psr_addr = PMU_ADDR(PMU_SPACE_CPU, 0);
static const uint16_t dcr_addr = PMU_ADDR(PMU_SPACE_CPU, 1);
static const uint16_t ipsr_addr = PMU_ADDR(PMU_SPACE_CPU, 2);

static uint64_t random_psr(uint64_t *s)
{
    uint64_t v = below(s, 8) == 0 ? rnd(s) : 0;
    v = PMU_FSET(v, PSR, UP, below(s, 4) != 0);
    v = PMU_FSET(v, PSR, PP, below(s, 4) != 0);
    return v;
}

/* One software action between two records. */
static void random_action(pmu_backend *b, uint64_t *s, unsigned width)
{
    unsigned ctr = PMU_FIRST_COUNTER + below(s, PMU_NCOUNTERS);
    switch (below(s, 12)) {
    case 10: pmu_write(b, PMU_ADDR(below(s, 2) ? PMU_SPACE_IBR : PMU_SPACE_DBR, below(s, 8)), rnd(s)); break;
    case 11: {
        static const unsigned qregs[] = {8, 9, 11, 13, 14, 15};
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, qregs[below(s, 6)]), rnd(s));
        break;
    }
    case 0: pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, ctr), random_pmc(s)); break;
    case 1: pmu_write(b, PMU_ADDR(PMU_SPACE_PMD, ctr), random_pmd(s, width)); break;
    case 2: pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 0), below(s, 2) ? 0 : rnd(s)); break;
    case 3: pmu_write(b, psr_addr, random_psr(s)); break;
    case 4: pmu_write(b, below(s, 2) ? dcr_addr : ipsr_addr, rnd(s)); break;
    case 5: pmu_write(b, (uint16_t)below(s, 1u << PMU_ADDR_BITS), rnd(s)); break;
    case 6: (void)pmu_read(b, (uint16_t)below(s, 1u << PMU_ADDR_BITS)); break;
    default: (void)pmu_read(b, pmu_vis_table[below(s, PMU_NVIS)].addr); break;
    }
}

typedef struct where_ctx {
    uint64_t seed, record;
    const char *mode;
    char text[160];
} where_ctx;

static const char *conform_where(void *p)
{
    where_ctx *w = p;
    snprintf(w->text, sizeof w->text, "generator (%s mode, seed %" PRIu64 "), record %" PRIu64, w->mode,
             w->seed, w->record);
    return w->text;
}

static const char *model_name(pmu_model m) { return m == PMU_MODEL_ITANIUM ? "itanium" : "itanium2"; }

/* One seed on one model.  Returns 0 in lock-step, 1 mismatch, -1 setup failure. */
static int conform_run(const conform_opts *o, uint64_t seed, pmu_model model)
{
    pmu_params p = pmu_params_default();
    p.model = model;
    char err[256];
    pmu_backend *rtl = pmu_rtl_create(&p, err, sizeof err);
    if (!rtl) {
        fprintf(stderr, "pmusim conform: %s\n", err);
        return -1;
    }
    where_ctx where = {.seed = seed};
    pmu_gen_mode gmode = o->mode == 2 ? (seed & 1 ? PMU_GEN_WORKLOAD : PMU_GEN_RANDOM)
                                      : (o->mode == 1 ? PMU_GEN_WORKLOAD : PMU_GEN_RANDOM);
    where.mode = gmode == PMU_GEN_WORKLOAD ? "workload" : "random";
    pmu_backend *b = pmu_cosim_create(&pmu_family_itanium, pmu_ref_create(&p), rtl, conform_where, &where);
    /* The plan needs the workload's function list, so a first generator (same seed, same
     * stream) provides it; the stream itself comes from a second one that knows the plan. */
    pmu_gen_opts go = {.seed = seed, .cycles = o->cycles, .mode = gmode, .nprocs = 4};
    pmu_gen *layout = pmu_gen_create(&pmu_dialect_itanium, &go, NULL);
    uint64_t qs = seed ^ 0x7175616c6966ull;
    qual_plan plan;
    memset(&plan, 0, sizeof plan);
    if (b && layout)
        random_qualification(b, &qs, model, layout, gmode == PMU_GEN_WORKLOAD, &plan);
    pmu_gen_destroy(layout);
    pmu_gen_hot hot = {plan.code, plan.ncode, plan.data, plan.ndata, plan.opc_match, plan.opc_care,
                       plan.nopc};
    go.hot = &hot;
    pmu_gen *gen = pmu_gen_create(&pmu_dialect_itanium, &go, NULL);
    if (!b || !gen) {
        fprintf(stderr, "pmusim conform: cannot create the lock-step pair or the generator\n");
        pmu_destroy(b);
        pmu_gen_destroy(gen);
        return -1;
    }
    int tracing = 0;

    /* Everything random below comes from this seed, apart from the stream's own. */
    uint64_t s = seed ^ 0x636f6e666f726dull;
    unsigned width = pmu_counter_width(model);
    uint64_t start[PMU_NCOUNTERS], reload[PMU_NCOUNTERS];
    for (unsigned i = 0; i < PMU_NCOUNTERS; i++) {
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, PMU_FIRST_COUNTER + i), random_pmc(&s));
        start[i] = random_pmd(&s, width);
        pmu_write(b, PMU_ADDR(PMU_SPACE_PMD, PMU_FIRST_COUNTER + i), start[i]);
        /* Mostly near the top, so the overflow service runs often. */
        reload[i] = below(&s, 4) ? (1ull << width) - 1 - below(&s, 3000) : 0;
    }
    pmu_write(b, psr_addr, random_psr(&s));
    pmu_write(b, dcr_addr, below(&s, 2));
    pmu_write(b, PMU_ADDR(PMU_SPACE_PMC, 0), 0);
    pmu_isr isr;
    pmu_isr_init(&isr, b, start, reload, below(&s, 9));
    /* Software activity: on average one action every `gap` records. */
    unsigned gap = 50 + below(&s, 2000);

    pmu_cycle c;
    while (pmu_cosim_mismatches(b) == 0 && pmu_gen_next(gen, &c) == 1) {
        if (o->waves && !tracing && where.record >= o->wave_from) {
            if (pmu_rtl_trace_open(pmu_cosim_rtl(b), o->waves) != 0) {
                fprintf(stderr, "pmusim conform: cannot write %s\n", o->waves);
                break;
            }
            tracing = 1;
        }
        if (below(&s, gap) == 0)
            random_action(b, &s, width);
        if (pmu_cosim_mismatches(b))
            break;
        pmu_step(b, &c);
        pmu_state st;
        pmu_snapshot(b, &st);
        pmu_isr_tick(&isr, st.pmi);
        where.record++;
    }

    int rc = 0;
    if (pmu_cosim_mismatches(b)) {
        const pmu_cosim_mismatch *m = pmu_cosim_first(b);
        char report[4096];
        pmu_cosim_format(m, report, sizeof report);
        uint64_t from = m->cycle > WAVE_WINDOW ? m->cycle - WAVE_WINDOW : 0;
        printf("seed %" PRIu64 " model %s: MISMATCH\n%s", seed, model_name(model), report);
        printf("reproduce: build/pmusim conform --seed %" PRIu64 " --runs 1 --cycles %" PRIu64
               " --model %s --mode %s --waves mismatch.fst --wave-from %" PRIu64 "\n",
               seed, o->cycles, model_name(model), where.mode, from);
        rc = 1;
    } else {
        printf("seed %" PRIu64 " model %s (%s): %" PRIu64 " cycles, %" PRIu64 " interrupts, 0 mismatches\n",
               seed, model_name(model), where.mode, where.record, isr.interrupts);
    }
    if (tracing)
        pmu_rtl_trace_close(pmu_cosim_rtl(b));
    pmu_gen_destroy(gen);
    pmu_destroy(b);
    return rc;
}

#define CONFORM_USAGE                                                                          \
    "usage: pmusim conform [--seed N] [--runs N] [--cycles N] [--model itanium|itanium2|both]\n" \
    "                      [--mode random|workload|mixed] [--waves FILE --wave-from CYCLE]\n"

/* A bad argument: one line on stderr, exit 2. */
static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "pmusim conform: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see pmusim conform --help)\n");
    return EXIT_USAGE;
}

static int number(const char *opt, const char *s, uint64_t min, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v < min) {
        (void)opt;
        return -1;
    }
    *out = v;
    return 0;
}

int pmusim_cmd_conform(int argc, char **argv)
{
    conform_opts o = {.seed = 1, .runs = 20, .cycles = 200000, .models = 2, .mode = 2};
    int wave_from_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(CONFORM_USAGE, stdout);
            return 0;
        }
        if (!v)
            return usage("%s: expected a value", a);
        i++;
        if (!strcmp(a, "--seed")) {
            if (number(a, v, 0, &o.seed)) return usage("--seed: expected a number, found '%s'", v);
        } else if (!strcmp(a, "--runs")) {
            if (number(a, v, 1, &o.runs)) return usage("--runs: expected a number >= 1, found '%s'", v);
        } else if (!strcmp(a, "--cycles")) {
            if (number(a, v, 1, &o.cycles)) return usage("--cycles: expected a number >= 1, found '%s'", v);
        } else if (!strcmp(a, "--wave-from")) {
            if (number(a, v, 0, &o.wave_from)) return usage("--wave-from: expected a cycle number, found '%s'", v);
            wave_from_given = 1;
        } else if (!strcmp(a, "--waves")) {
            o.waves = v;
        } else if (!strcmp(a, "--model")) {
            if (!strcmp(v, "itanium")) o.models = 1;
            else if (!strcmp(v, "itanium2")) o.models = 2;
            else if (!strcmp(v, "both")) o.models = 3;
            else return usage("--model: expected itanium, itanium2 or both, found '%s'", v);
        } else if (!strcmp(a, "--mode")) {
            if (!strcmp(v, "random")) o.mode = 0;
            else if (!strcmp(v, "workload")) o.mode = 1;
            else if (!strcmp(v, "mixed")) o.mode = 2;
            else return usage("--mode: expected random, workload or mixed, found '%s'", v);
        } else {
            return usage("unknown argument '%s'", a);
        }
    }
    if (wave_from_given && !o.waves)
        return usage("%s", "--wave-from needs --waves FILE");

    printf("conformance: seeds %" PRIu64 "..%" PRIu64 ", %" PRIu64 " cycles each\n", o.seed,
           o.seed + o.runs - 1, o.cycles);
    unsigned passed = 0, failed = 0;
    for (uint64_t seed = o.seed; seed < o.seed + o.runs; seed++) {
        for (int m = 0; m < 2; m++) {
            if (!(o.models & (1 << m)))
                continue;
            int rc = conform_run(&o, seed, m == 0 ? PMU_MODEL_ITANIUM : PMU_MODEL_ITANIUM2);
            if (rc == 0) passed++;
            else failed++;
            if (rc < 0) {
                printf("%u passed, %u failed\n", passed, failed);
                return EXIT_USAGE;
            }
        }
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? EXIT_MISMATCH : 0;
}
