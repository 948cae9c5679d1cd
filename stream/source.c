/*
 * source.c - a record source: a stream file or the generator behind one call, with the
 * "where did this record come from" text that lock-step reports quote.  Shared by every
 * command that runs records (pmusim run, count, profile).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

struct pmu_source {
    pmu_stream_reader *reader; /* a file, or */
    pmu_gen *gen;              /* the generator */
    pmu_gen_opts opts;         /* the generator's options, for the where text */
    uint64_t count;            /* generator: records returned so far (a file's reader counts
                                  its own, and keeps the limit: pmu_stream_limit) */
    char where[256];
};

pmu_source *pmu_source_file(const pmu_dialect *d, const char *path, uint64_t limit,
                            pmu_err *err)
{
    pmu_source *s = calloc(1, sizeof *s);
    if (!s) {
        stream_errf(err, PMU_E_NOMEM, NULL, "out of memory");
        return NULL;
    }
    s->reader = pmu_stream_open(d, path, err);
    if (!s->reader) {
        free(s);
        return NULL;
    }
    if (limit)
        pmu_stream_limit(s->reader, limit);
    return s;
}

pmu_source *pmu_source_generator(const pmu_dialect *d, const pmu_gen_opts *o, pmu_err *err)
{
    pmu_source *s = calloc(1, sizeof *s);
    if (!s) {
        stream_errf(err, PMU_E_NOMEM, NULL, "out of memory");
        return NULL;
    }
    s->gen = pmu_gen_create(d, o, err);
    if (!s->gen) {
        free(s);
        return NULL;
    }
    s->opts = *o;
    s->opts.hot = NULL; /* pmu_gen_create copied the edges; the caller's may go away */
    return s;
}

int pmu_source_next(pmu_source *s, void *rec, pmu_err *err)
{
    if (s->reader)
        return pmu_stream_next(s->reader, rec, err);
    int rc = pmu_gen_next(s->gen, rec);
    s->count += rc == 1;
    return rc;
}

int pmu_source_view(pmu_source *s, void *buf, const void **rec, unsigned max, pmu_err *err)
{
    if (s->reader)
        return pmu_stream_view(s->reader, rec, max, err);
    *rec = buf;
    return pmu_source_next(s, buf, err);
}

pmu_stream_reader *pmu_source_reader(pmu_source *s) { return s->reader; }

const char *pmu_source_where(void *ctx)
{
    pmu_source *s = ctx;
    if (s->reader)
        return pmu_stream_where(s->reader);
    snprintf(s->where, sizeof s->where, "generator (%s mode, seed %" PRIu64 "), record %" PRIu64,
             s->opts.mode == PMU_GEN_RANDOM ? "random" : "workload", s->opts.seed,
             s->count ? s->count - 1 : 0);
    return s->where;
}

uint64_t pmu_source_count(const pmu_source *s)
{
    return s->reader ? pmu_stream_count(s->reader) : s->count;
}

pmu_gen *pmu_source_gen(pmu_source *s) { return s->gen; }

void pmu_source_close(pmu_source *s)
{
    if (!s)
        return;
    if (s->reader)
        pmu_stream_close(s->reader);
    if (s->gen)
        pmu_gen_destroy(s->gen);
    free(s);
}
