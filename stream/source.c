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
    size_t record_size;
    /* A generator's last records (pmu_source_keep): records count .. ring.count - 1 were
     * given back and are handed out again before new ones are generated. */
    stream_ring ring;
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
    stream_need_records(s->reader);
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
    s->record_size = d->record_size;
    return s;
}

/* The next record of a generator that keeps its last ones: one given back, or a new one
 * generated into the ring: pmu_gen_next's result. */
static int gen_kept(pmu_source *s, const void **rec)
{
    if (s->count == s->ring.count) {
        const int rc = pmu_gen_next(s->gen, stream_ring_at(&s->ring, s->ring.count));
        if (rc != 1)
            return rc;
        s->ring.count++;
    }
    *rec = stream_ring_at(&s->ring, s->count++);
    return 1;
}

int pmu_source_next(pmu_source *s, void *rec, pmu_err *err)
{
    if (s->reader)
        return pmu_stream_next(s->reader, rec, err);
    if (s->ring.n) {
        const void *p;
        const int rc = gen_kept(s, &p);
        if (rc == 1)
            memcpy(rec, p, s->record_size);
        return rc;
    }
    int rc = pmu_gen_next(s->gen, rec);
    s->count += rc == 1;
    return rc;
}

int pmu_source_view(pmu_source *s, void *buf, const void **rec, unsigned max, pmu_err *err)
{
    if (s->reader)
        return pmu_stream_view(s->reader, rec, max, err);
    if (s->ring.n)
        return gen_kept(s, rec);
    *rec = buf;
    return pmu_source_next(s, buf, err);
}

int pmu_source_keep(pmu_source *s, unsigned k, pmu_err *err)
{
    if (s->reader)
        return pmu_stream_keep(s->reader, k, err);
    if (s->ring.n >= k)
        return 0;
    if (s->ring.n || s->count)
        return stream_errf(err, PMU_E_INTERNAL, NULL, "pmu_source_keep: only before the first record, once");
    if (k < 2)
        return 0;
    return stream_ring_init(&s->ring, k, 0, s->record_size, "pmu_source_keep", NULL, err);
}

void pmu_source_unread(pmu_source *s, unsigned n)
{
    if (s->reader)
        pmu_stream_unread(s->reader, n);
    else
        s->count -= n; /* within the ring (pmu_source_keep), or 0 */
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
    free(s->ring.recs);
    free(s);
}
