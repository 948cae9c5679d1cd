/*
 * ita_gen.c - the Itanium dialect's generator behind pmu_gen_* (docs/ita-stream-format.md,
 * "The generator"): creation, the next record of either mode, the function list.
 *
 * WORKLOAD mode interprets a synthetic machine (ita_gen_build.c, ita_gen_run.c);
 * RANDOM mode draws every field at random within validity (ita_gen_random.c).
 * Everything is integer arithmetic on include/common/pmu_rng.h, so a seed gives the same
 * stream on every machine.  Hot edges draw from a second state of their own, so a
 * stream with edges is the stream without them with some ips, data addresses,
 * encodings and units replaced.
 */
#include <stdlib.h>
#include <string.h>

#include "stream/ita/ia64_enc.h"
#include "ita_gen.h"
#include "ita_stream.h"

counts ita_gen_limits(void)
{
    counts l;
    l.load = ita_event_table[ITA_EV_LOADS_RETIRED].maxincr;
    l.store = ita_event_table[ITA_EV_STORES_RETIRED].maxincr;
    l.fp = ita_event_table[ITA_EV_FP_OPS_RETIRED].maxincr;
    l.br = ita_event_table[ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED].maxincr;
    l.l1d = ita_event_table[ITA_EV_L1D_READ_MISSES_ALL].maxincr;
    l.l2miss = ita_event_table[ITA_EV_L2_MISSES].maxincr;
    l.l2ref = ita_event_table[ITA_EV_L2_REFERENCES].maxincr;
    return l;
}

/* Copies the edges into one block the generator owns. */
static int hot_copy(ita_gen *g, const pmu_gen_hot *h)
{
    size_t n = (size_t)h->ncode + h->ndata + 2 * (size_t)h->nopc, nv = (size_t)h->nlat + h->ncount;
    g->hot_mem = malloc((n ? n : 1) * sizeof *g->hot_mem);
    g->hot_units = malloc(h->nopc ? h->nopc : 1);
    g->hot_vals = malloc((nv ? nv : 1) * sizeof *g->hot_vals);
    if (!g->hot_mem || !g->hot_units || !g->hot_vals)
        return -1;
    if (h->nlat)
        memcpy(g->hot_vals, h->lat, h->nlat * sizeof *g->hot_vals);
    if (h->ncount)
        memcpy(g->hot_vals + h->nlat, h->count, h->ncount * sizeof *g->hot_vals);
    g->hot.lat = g->hot_vals;
    g->hot.nlat = h->nlat;
    g->hot.count = g->hot_vals + h->nlat;
    g->hot.ncount = h->ncount;
    uint64_t *p = g->hot_mem;
    if (h->ncode)
        memcpy(p, h->code, h->ncode * sizeof *p);
    g->hot.code = p;
    g->hot.ncode = h->ncode;
    p += h->ncode;
    if (h->ndata)
        memcpy(p, h->data, h->ndata * sizeof *p);
    g->hot.data = p;
    g->hot.ndata = h->ndata;
    p += h->ndata;
    if (h->nopc) {
        memcpy(p, h->opc_match, h->nopc * sizeof *p);
        memcpy(p + h->nopc, h->opc_care, h->nopc * sizeof *p);
    }
    g->hot.opc_match = p;
    g->hot.opc_care = p + h->nopc;
    g->hot.nopc = h->nopc;
    for (unsigned i = 0; i < h->nopc; i++)
        g->hot_units[i] = (uint8_t)ita_gen_pattern_units(h->opc_match[i], h->opc_care[i]);
    g->o.hot = &g->hot;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const func *x = *(const func *const *)a, *y = *(const func *const *)b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The function list in address order (ita_gen_func). */
static int sort_functions(ita_gen *g)
{
    g->by_addr = malloc((size_t)g->nfn * sizeof *g->by_addr);
    const func **sorted = malloc((size_t)g->nfn * sizeof *sorted);
    if (!g->by_addr || !sorted) {
        free(sorted);
        return -1;
    }
    for (int i = 0; i < g->nfn; i++)
        sorted[i] = &g->fn[i];
    qsort(sorted, (size_t)g->nfn, sizeof *sorted, by_start);
    for (int i = 0; i < g->nfn; i++)
        g->by_addr[i] = (int)(sorted[i] - g->fn);
    free(sorted);
    return 0;
}

/* The program of WORKLOAD mode with its exact encodings: br.cloop ends counted loops
 * and branches carry their displacement, so opcode patterns written against
 * docs/ita-stream-format.md's table match what they name. */
static int build(ita_gen *g)
{
    if (ita_gen_build_workload(g))
        return -1;
    ita_gen_fix_displacements(g);
    if (g->hot.ndata)
        ita_gen_mark_hot_data(g);
    return sort_functions(g);
}

void *ita_gen_create(const pmu_gen_opts *o, pmu_err *err)
{
    unsigned nprocs = o->nprocs ? o->nprocs : 4;
    if (nprocs > MAX_PROCS) {
        pmu_errf(err, PMU_E_INPUT, "generator: %u processes, expected 1..%u", nprocs, MAX_PROCS);
        return NULL;
    }
    for (unsigned i = 0; o->hot && i < o->hot->nopc; i++)
        if ((o->hot->opc_match[i] | o->hot->opc_care[i]) & ~IA64_ENC_ALL) {
            pmu_errf(err, PMU_E_INPUT,
                     "generator: opcode pattern %u (0x%llx/0x%llx) has bits above bit %d of an "
                     "IA-64 encoding",
                     i + 1, (unsigned long long)o->hot->opc_match[i],
                     (unsigned long long)o->hot->opc_care[i], IA64_ENC_BITS - 1);
            return NULL;
        }
    for (unsigned i = 0; o->hot && i < o->hot->nlat; i++)
        if (o->hot->lat[i] == 0) {
            pmu_errf(err, PMU_E_INPUT, "generator: latency bound %u is 0, expected 1..65535", i + 1);
            return NULL;
        }
    ita_gen *g = calloc(1, sizeof *g);
    if (!g) {
        pmu_errf(err, PMU_E_NOMEM, "generator: out of memory");
        return NULL;
    }
    g->o = *o;
    g->o.nprocs = nprocs;
    pmu_rng_seed(&g->r, o->seed);
    g->lim = ita_gen_limits();
    /* a state of its own, so hot decisions never shift the main sequence */
    if (o->hot) {
        pmu_rng_seed(&g->hr, o->seed ^ 0x686f742065646765ull);
        pmu_rng_seed(&g->vr, o->seed ^ 0x686f742076616c73ull);
    }
    ita_gen_extras_init(g);
    if ((o->hot && hot_copy(g, o->hot)) || (o->mode == PMU_GEN_WORKLOAD && build(g))) {
        ita_gen_destroy(g);
        pmu_errf(err, PMU_E_NOMEM, "generator: out of memory");
        return NULL;
    }
    if (o->mode == PMU_GEN_RANDOM) {
        ita_sticky st;
        ita_sticky_init(&st);
        g->rcpl = st.cpl;
        g->ris = st.is;
        g->rpower = st.power;
        g->rpid = st.pid;
    }
    return g;
}

int ita_gen_next(void *gen, void *rec)
{
    ita_gen *g = gen;
    if (g->o.mode == PMU_GEN_WORKLOAD)
        ita_gen_workload_next(g, rec);
    else
        ita_gen_random_next(g, rec);
    ita_gen_extras(g, rec);
    if (g->hot.nlat || g->hot.ncount)
        ita_gen_hot_values(g, rec);
    g->produced++;
    return 1;
}

unsigned ita_gen_nfuncs(const void *gen)
{
    const ita_gen *g = gen;
    return g->by_addr ? (unsigned)g->nfn : 0;
}

int ita_gen_func(const void *gen, unsigned i, uint64_t *start, uint64_t *end, const char **name)
{
    const ita_gen *g = gen;
    if (i >= ita_gen_nfuncs(g))
        return -1;
    const func *f = &g->fn[g->by_addr[i]];
    if (start)
        *start = f->start;
    if (end)
        *end = f->end;
    if (name)
        *name = f->name;
    return 0;
}

void ita_gen_destroy(void *gen)
{
    ita_gen *g = gen;
    if (!g)
        return;
    for (int i = 0; i < g->nfn; i++)
        free(g->fn[i].code);
    free(g->fn);
    free(g->by_addr);
    free(g->hot_mem);
    free(g->hot_units);
    free(g->hot_vals);
    free(g);
}
