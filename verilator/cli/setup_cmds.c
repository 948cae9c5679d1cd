/*
 * setup_cmds.c - the configuration and overflow-service hooks of a family whose
 * configuration file is a setup of its software (include/cli/pmu_setup_cmds.h): the Alpha
 * families.  Generic: the family's setup and session are reached through its
 * pmu_setup_family only.
 */
#include <stdlib.h>

#include "cli/pmu_setup_cmds.h"

struct pmu_fam_config {
    const pmu_setup_family *f;
    void *setup;     /* f->setup_size bytes */
    pmu_gen_hot hot; /* none: a setup programs no address qualification */
};

struct pmu_fam_service {
    const pmu_setup_family *f;
    void *session;
};

void pmu_setup_config_free(pmu_fam_config *c)
{
    if (!c)
        return;
    free(c->setup);
    free(c);
}

pmu_fam_config *pmu_setup_config_parse(const pmu_setup_family *f, const char *text, size_t len, const char *name,
                                       unsigned model, int model_fixed, pmu_err *err)
{
    pmu_fam_config *c = calloc(1, sizeof *c);
    if (!c || !(c->setup = calloc(1, f->setup_size))) {
        free(c);
        pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", name);
        return NULL;
    }
    c->f = f;
    if (f->parse(c->setup, model, text, len, name, err)) {
        pmu_setup_config_free(c);
        return NULL;
    }
    /* A setup names a model only with its model line, so with model_fixed a setup that
     * agrees already runs `model`. */
    int given;
    unsigned named = f->model(c->setup, &given);
    if (pmu_family_model_agrees(f->family, name, given, named, model_fixed, model, err)) {
        pmu_setup_config_free(c);
        return NULL;
    }
    return c;
}

unsigned pmu_setup_config_model(const pmu_fam_config *c)
{
    int given;
    return c->f->model(c->setup, &given);
}

const pmu_gen_hot *pmu_setup_config_hot(const pmu_fam_config *c) { return &c->hot; }
void pmu_setup_config_print(const pmu_fam_config *c, FILE *out) { c->f->print(c->setup, out); }

void pmu_setup_service_free(pmu_fam_service *s)
{
    if (!s)
        return;
    s->f->free(s->session);
    free(s);
}

pmu_fam_service *pmu_setup_service_start(const pmu_fam_config *c, pmu_backend *b, unsigned latency,
                                         const pmu_gen *layout, pmu_record_hooks *hooks, pmu_err *err)
{
    (void)latency; /* refused: the family's software decides when it answers (service_timing) */
    pmu_fam_service *s = calloc(1, sizeof *s);
    if (!s) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    s->f = c->f;
    if (!(s->session = c->f->start(c->setup, b, layout, hooks, err))) {
        free(s);
        return NULL;
    }
    return s;
}

int pmu_setup_service_finish(pmu_fam_service *s, int quiet, FILE *out)
{
    return s->f->finish(s->session, quiet, out);
}

void pmu_setup_service_json(pmu_fam_service *s, FILE *out) { s->f->json(s->session, out); }

/* ---- conformance runs ---------------------------------------------------------------- */

struct pmu_fam_conform {
    const pmu_setup_family *f;
    pmu_backend *b;
    pmu_rng rng;
    int driver;
    pmu_gen_hot hot; /* none: a setup programs no address qualification */
    /* the harness's service */
    uint64_t interrupts;
    unsigned delay;  /* records until the pending interrupt is serviced */
    uint8_t pending;
    /* the software */
    void *session;
};

static unsigned below(pmu_rng *r, unsigned n) { return (unsigned)pmu_rng_below(r, n); }

static void serve(pmu_fam_conform *c)
{
    if (c->pending && c->delay-- == 0) {
        c->f->conform->service(c->b, &c->rng);
        c->interrupts++;
        c->pending = 0;
    }
}

/* Software activity before a record: the service and random register activity. */
static void harness_before(void *ctx, void *record)
{
    (void)record;
    pmu_fam_conform *c = ctx;
    if (c->f->conform->service_first)
        serve(c);
    c->f->conform->activity(c->b, &c->rng);
    if (!c->f->conform->service_first)
        serve(c);
}

static void harness_after(void *ctx, const void *record, const pmu_state *st)
{
    (void)record;
    pmu_fam_conform *c = ctx;
    if (st->pmi && !c->pending) {
        const pmu_setup_conform *k = c->f->conform;
        c->pending = 1;
        c->delay = below(&c->rng, 4) == 0 ? below(&c->rng, k->long_delay) : below(&c->rng, k->short_delay);
    }
}

pmu_fam_conform *pmu_setup_conform_start(const pmu_setup_family *f, pmu_backend *b, uint64_t seed,
                                         const pmu_gen *layout, int driver, int qual_heavy,
                                         const pmu_gen_hot **hot, pmu_record_hooks *hooks, pmu_err *err)
{
    if (qual_heavy) {
        pmu_errf(err, PMU_E_UNSUPPORTED, "the qualifier-heavy programming: this family has no event qualifiers");
        return NULL;
    }
    pmu_fam_conform *c = malloc(sizeof *c);
    void *setup = driver ? calloc(1, f->setup_size) : NULL; /* the software's, then its copy's */
    if (!c || (driver && !setup)) {
        free(c);
        free(setup);
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    *c = (pmu_fam_conform){.f = f, .b = b, .driver = driver};
    *hot = &c->hot;
    pmu_rng_seed(&c->rng, seed ^ f->conform->salt);
    if (!driver) {
        f->conform->program(b, &c->rng);
        *hooks = (pmu_record_hooks){.ctx = c, .before = harness_before, .after = harness_after};
        return c;
    }
    f->conform->random_setup(&c->rng, b->model, layout, setup);
    c->session = f->start(setup, b, layout, hooks, err); /* the session keeps its copy */
    free(setup);
    if (!c->session) {
        free(c);
        return NULL;
    }
    return c;
}

int pmu_setup_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out)
{
    if (!c->driver) {
        *interrupts = c->interrupts;
        return 1;
    }
    *interrupts = c->f->conform->interrupts(c->session);
    return c->f->conform->check(c->session, out);
}

void pmu_setup_conform_free(pmu_fam_conform *c)
{
    if (!c)
        return;
    if (c->session)
        c->f->free(c->session);
    free(c);
}
