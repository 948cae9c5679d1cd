/*
 * gen.c - the generator behind pmu_gen_* for any dialect that has one
 * (docs/ita-stream-format.md, "The generator"): the options every generator shares, the
 * record count, and the symbol file of the workload's functions.  What the records hold
 * is the dialect's (the Itanium generator: stream/ita/ita_gen*.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

struct pmu_gen {
    const pmu_dialect *d;
    void *impl;          /* the dialect's generator */
    uint64_t produced, cycles;
};

/* The checks every dialect's generator shares: a mode, and an array for every count. */
static int opts_valid(const pmu_gen_opts *o, pmu_err *err)
{
    if (!o)
        return stream_errf(err, PMU_E_INPUT, "generator", "no options");
    if (o->mode != PMU_GEN_WORKLOAD && o->mode != PMU_GEN_RANDOM)
        return stream_errf(err, PMU_E_INPUT,
                           "generator", "mode %d, expected workload (%d) or random (%d)",
                           (int)o->mode, PMU_GEN_WORKLOAD, PMU_GEN_RANDOM);
    const pmu_gen_hot *h = o->hot;
    if (h && ((h->ncode && !h->code) || (h->ndata && !h->data) ||
              (h->nopc && (!h->opc_match || !h->opc_care)) || (h->nlat && !h->lat) ||
              (h->ncount && !h->count)))
        return stream_errf(err, PMU_E_INPUT, "generator",
                           "hot edges: a count without its array");
    return 0;
}

pmu_gen *pmu_gen_create(const pmu_dialect *d, const pmu_gen_opts *o, pmu_err *err)
{
    if (!d || !d->gen_create) {
        stream_errf(err, PMU_E_UNSUPPORTED, "generator", "the '%s' records have no generator",
                    d ? d->name : "(none)");
        return NULL;
    }
    if (opts_valid(o, err))
        return NULL;
    pmu_gen *g = calloc(1, sizeof *g);
    if (!g) {
        stream_errf(err, PMU_E_NOMEM, "generator", "out of memory");
        return NULL;
    }
    g->d = d;
    g->cycles = o->cycles;
    g->impl = d->gen_create(o, err);
    if (!g->impl) {
        free(g);
        return NULL;
    }
    return g;
}

int pmu_gen_next(pmu_gen *g, void *rec)
{
    if (g->produced >= g->cycles)
        return 0;
    g->produced++;
    return g->d->gen_next(g->impl, rec);
}

unsigned pmu_gen_nfuncs(const pmu_gen *g) { return g->d->gen_nfuncs(g->impl); }

int pmu_gen_func(const pmu_gen *g, unsigned i, uint64_t *start, uint64_t *end, const char **name)
{
    return g->d->gen_func(g->impl, i, start, end, name);
}

int pmu_gen_write_symbols(const pmu_gen *g, const char *path, pmu_err *err)
{
    out_file out;
    if (out_file_open(&out, path, err))
        return -1;
    int bad = 0;
    for (unsigned i = 0; i < pmu_gen_nfuncs(g) && !bad; i++) {
        uint64_t start = 0, end = 0;
        const char *name = "";
        pmu_gen_func(g, i, &start, &end, &name);
        bad = fprintf(out.f, "%016llx %016llx %s\n", (unsigned long long)start,
                      (unsigned long long)end, name) < 0;
    }
    if (bad) {
        char *shown = stream_escaped_name(path);
        stream_errf(err, PMU_E_IO, shown ? shown : "symbols", "write error: %s", strerror(errno));
        free(shown);
        out_file_close(&out, 0, NULL);
        return -1;
    }
    return out_file_close(&out, 1, err);
}

void pmu_gen_destroy(pmu_gen *g)
{
    if (!g)
        return;
    g->d->gen_destroy(g->impl);
    free(g);
}
