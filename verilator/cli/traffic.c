/*
 * traffic.c - the register-traffic log of a run (cli/pmu_cli.h, docs/run-traffic.md): a
 * backend in front of the run's that logs every register access of the software, and
 * hooks around the software's that log the interrupt line after each record.  Two runs
 * of the same software on the same records log the same text, whatever carried the
 * accesses (the C harness, or a TLM socket in the SystemC platform).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_writes.h"
#include "common/pmu_text.h"

struct pmu_traffic {
    pmu_backend base; /* first member: the software's pmu_backend* is a pmu_traffic* */
    pmu_backend_ops ops;
    const pmu_family *fam;
    pmu_backend *b;
    FILE *out;
    FILE *json;            /* the same entries as JSON objects, comma-separated (or NULL) */
    uint64_t njson;
    pmu_record_hooks inner; /* the software's */
    uint8_t line;
};

static pmu_traffic *self(pmu_backend *b) { return (pmu_traffic *)b; }

/* The register at port address a: its visible register's name, else the register map's. */
static void log_access(pmu_traffic *t, char op, uint16_t a, uint64_t v)
{
    char name[64];
    t->base.cycle = t->b->cycle;
    pmu_writes_reg_name(t->fam, a, name, sizeof name);
    fprintf(t->out, "%" PRIu64 " %c %s 0x%016" PRIx64 "\n", t->b->cycle, op, name, v);
    if (t->json) {
        fprintf(t->json, "%s\n    {\"cycle\": %" PRIu64 ", \"op\": \"%c\", \"register\": ", t->njson++ ? "," : "",
                t->b->cycle, op);
        pmu_json_string(t->json, name);
        fprintf(t->json, ", \"value\": \"0x%016" PRIx64 "\"}", v);
    }
}

static void t_reset(pmu_backend *b) { pmu_reset(self(b)->b); }
static void t_write(pmu_backend *b, uint16_t a, uint64_t v)
{
    pmu_write(self(b)->b, a, v);
    log_access(self(b), 'W', a, v);
}
static uint64_t t_read(pmu_backend *b, uint16_t a)
{
    uint64_t v = pmu_read(self(b)->b, a);
    log_access(self(b), 'R', a, v);
    return v;
}
static void t_step(pmu_backend *b, const void *rec)
{
    pmu_step(self(b)->b, rec);
    b->cycle = self(b)->b->cycle;
}
static void t_snapshot(pmu_backend *b, pmu_state *s) { pmu_snapshot(self(b)->b, s); }
static void t_destroy(pmu_backend *b) { (void)b; /* the run owns b; pmu_traffic_free frees t */ }
static uint64_t t_total(pmu_backend *b, unsigned ctr) { return pmu_total(self(b)->b, ctr); }
static int t_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    return pmu_trace_open(self(b)->b, path, err);
}
static int t_trace_close(pmu_backend *b, pmu_err *err) { return pmu_trace_close(self(b)->b, err); }
static pmu_backend *t_reference(pmu_backend *b) { return pmu_reference(self(b)->b); }
static uint64_t t_mismatches(const pmu_backend *b) { return pmu_cosim_mismatches(((const pmu_traffic *)b)->b); }

pmu_traffic *pmu_traffic_new(const pmu_family *fam, pmu_backend *b, FILE *out)
{
    pmu_traffic *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    /* The optional operations stay optional: the software asks whether b has them. */
    t->ops = (pmu_backend_ops){
        .reset = t_reset, .write = t_write, .read = t_read, .step = t_step,
        .snapshot = t_snapshot, .destroy = t_destroy,
        .total = b->ops->total ? t_total : NULL,
        .trace_open = b->ops->trace_open ? t_trace_open : NULL,
        .trace_close = b->ops->trace_close ? t_trace_close : NULL,
        .reference = t_reference, .mismatches = t_mismatches};
    t->base = *b;
    t->base.ops = &t->ops;
    t->fam = fam;
    t->b = b;
    t->out = out;
    return t;
}

pmu_backend *pmu_traffic_backend(pmu_traffic *t) { return &t->base; }

void pmu_traffic_json(pmu_traffic *t, FILE *json) { t->json = json; }

static int h_admit(void *ctx, void *rec, pmu_err *err)
{
    pmu_traffic *t = ctx;
    t->base.cycle = t->b->cycle;
    return t->inner.admit(t->inner.ctx, rec, err);
}

static void h_before(void *ctx, void *rec)
{
    pmu_traffic *t = ctx;
    t->base.cycle = t->b->cycle;
    if (t->inner.before)
        t->inner.before(t->inner.ctx, rec);
}

static void h_at(void *ctx)
{
    pmu_traffic *t = ctx;
    t->base.cycle = t->b->cycle;
    t->inner.at(t->inner.ctx);
}

static void h_after(void *ctx, const void *rec, const pmu_state *st)
{
    pmu_traffic *t = ctx;
    t->base.cycle = t->b->cycle;
    if (st->pmi != t->line) {
        t->line = st->pmi;
        fprintf(t->out, "%" PRIu64 " pmi %u\n", t->b->cycle, (unsigned)st->pmi);
        if (t->json)
            fprintf(t->json, "%s\n    {\"cycle\": %" PRIu64 ", \"pmi\": %u}", t->njson++ ? "," : "", t->b->cycle,
                    (unsigned)st->pmi);
    }
    if (t->inner.after)
        t->inner.after(t->inner.ctx, rec, st);
}

void pmu_traffic_hooks(pmu_traffic *t, pmu_record_hooks *h)
{
    t->inner = *h;
    *h = (pmu_record_hooks){.ctx = t, .admit = h->admit ? h_admit : NULL, .before = h_before,
                            .after = h_after, .pmi_only = h->pmi_only || !h->after,
                            .at = h->at ? h_at : NULL, .at_cycle = h->at_cycle};
}

void pmu_traffic_free(pmu_traffic *t) { free(t); }
