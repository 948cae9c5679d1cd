/*
 * cmd_conform.c - the 21064 family's conformance hooks (include/pmu_family_cmds.h):
 * everything random in a `pmusim conform --family alpha21064` run apart from the stream.
 *
 * From the run's seed, one of two kinds of software answers the interrupt line:
 *   - the harness's service with random register activity: ICCSR programmed with any
 *     value (every mux code, undefined ones included, both periods, PME bits on and off),
 *     HIER enables switched, requests cleared through SL_CLR after a random delay (or
 *     not at all for a while), writes of any value to any address, reads;
 *   - the pfm driver (sw/ev4/) under a random setup, whose results must then be exact
 *     (docs/ev4-pfm.md, "Exactness").
 */
#include <stdlib.h>
#include <string.h>

#include "ev4/ev4_pfcntr_sw.h"
#include "ev4/ev4_regs.h"
#include "ev4/ev4_session.h"
#include "ev4_cmds_internal.h"
#include "pmu_rng.h"

struct pmu_fam_conform {
    pmu_backend *b;
    pmu_rng rng;
    int driver;
    pmu_gen_hot hot;
    /* the harness's service */
    uint64_t interrupts;
    unsigned delay;     /* records until the pending request is cleared */
    uint8_t pmi;
    /* the driver */
    ev4_session *x;
    drv_symtab *syms;
};

static unsigned below(pmu_rng *r, unsigned n) { return (unsigned)pmu_rng_below(r, n); }

static uint64_t random_iccsr(pmu_rng *r)
{
    if (below(r, 8) == 0)
        return pmu_rng_next(r);
    uint64_t v = 0;
    v = EV4_FSET(v, ICCSR, MUX0, below(r, 16));
    v = EV4_FSET(v, ICCSR, MUX1, below(r, 8));
    v = EV4_FSET(v, ICCSR, PC0, below(r, 4) != 0); /* mostly short periods: more interrupts */
    v = EV4_FSET(v, ICCSR, PC1, below(r, 4) != 0);
    v = EV4_FSET(v, ICCSR, PME0, below(r, 8) != 0);
    v = EV4_FSET(v, ICCSR, PME1, below(r, 8) != 0);
    return v;
}

static uint64_t random_hier(pmu_rng *r)
{
    return below(r, 8) == 0 ? pmu_rng_next(r)
                            : EV4_FSET(EV4_FSET(0, HIER, PC0, below(r, 4) != 0), HIER, PC1, below(r, 4) != 0);
}

/* Software activity before a record: the service clearing requests, reprogramming. */
static void harness_before(void *ctx, void *record)
{
    (void)record;
    pmu_fam_conform *c = ctx;
    pmu_rng *r = &c->rng;
    if (c->pmi && c->delay-- == 0) {
        uint64_t hirr = pmu_read(c->b, EV4_ADDR_HIRR), clr = ~0ull;
        if (EV4_FGET(hirr, HIRR, PC0) && below(r, 4))
            clr = EV4_FSET(clr, SL_CLR, PC0, 0);
        if (EV4_FGET(hirr, HIRR, PC1) && below(r, 4))
            clr = EV4_FSET(clr, SL_CLR, PC1, 0);
        pmu_write(c->b, EV4_ADDR_SL_CLR, clr);
        c->interrupts++;
        c->pmi = 0;
    }
    switch (below(r, 4000)) {
    case 0: pmu_write(c->b, EV4_ADDR_ICCSR, random_iccsr(r)); break;
    case 1: pmu_write(c->b, EV4_ADDR_HIER, random_hier(r)); break;
    case 2: pmu_write(c->b, (uint16_t)below(r, 0x100), pmu_rng_next(r)); break;
    case 3: pmu_read(c->b, (uint16_t)below(r, 0x100)); break;
    case 4: pmu_write(c->b, EV4_ADDR_SL_CLR, pmu_rng_next(r)); break;
    default: break;
    }
}

static void harness_after(void *ctx, const void *record, const pmu_state *st)
{
    (void)record;
    pmu_fam_conform *c = ctx;
    if (st->pmi && !c->pmi) {
        c->pmi = 1;
        c->delay = below(&c->rng, 4) == 0 ? below(&c->rng, 2000) : below(&c->rng, 20);
    }
}

/* A random pfm setup on the one CPU. */
static void random_setup(pmu_rng *r, unsigned model, ev4_setup *s)
{
    ev4_setup_default(s);
    s->model = model;
    s->mux[0] = below(r, 3) == 0 ? EV4_MUX_PF_CYCLES : below(r, 16);
    s->mux[1] = below(r, 8);
    s->pc[0] = below(r, 4) != 0;
    s->pc[1] = below(r, 4) != 0;
    s->disable = below(r, 3);
    s->log_select = below(r, 2);
    s->open = (ev4_open_mode)below(r, 3);
    s->bind = s->open == EV4_OPEN_ONE || below(r, 2) ? 0 : -1;
    s->items = 1 + below(r, 7);
    s->prof = (s->items & PFM_PROFILING) ? (below(r, 2) ? EV4_PROF_KERNEL : EV4_PROF_USER) : EV4_PROF_NONE;
}

static int driver_admit(void *ctx, void *record, pmu_err *err)
{
    return ev4_session_admit(((pmu_fam_conform *)ctx)->x, 0, record, err);
}

static void driver_after(void *ctx, const void *record, const pmu_state *st)
{
    ev4_session_after(((pmu_fam_conform *)ctx)->x, 0, record, st);
}

pmu_fam_conform *ev4_conform_start(pmu_backend *b, uint64_t seed, const pmu_gen *layout, int workload,
                                   int driver, int qual_heavy, const pmu_gen_hot **hot, pmu_record_hooks *hooks,
                                   pmu_err *err)
{
    (void)workload;
    if (qual_heavy) {
        pmu_errf(err, PMU_E_UNSUPPORTED, "the qualifier-heavy programming: this family has no event qualifiers");
        return NULL;
    }
    pmu_fam_conform *c = calloc(1, sizeof *c);
    if (!c) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    c->b = b;
    c->driver = driver;
    *hot = &c->hot;
    pmu_rng_seed(&c->rng, seed ^ 0x657634636f6e66ull);
    if (!driver) {
        pmu_write(b, EV4_ADDR_ICCSR, random_iccsr(&c->rng));
        pmu_write(b, EV4_ADDR_HIER, random_hier(&c->rng));
        *hooks = (pmu_record_hooks){.ctx = c, .before = harness_before, .after = harness_after};
        return c;
    }
    ev4_setup s;
    random_setup(&c->rng, b->model, &s);
    c->syms = layout ? drv_symtab_from_gen(layout) : NULL;
    const drv_symtab *syms[1] = {c->syms};
    if (s.prof != EV4_PROF_NONE && (!c->syms || drv_symtab_count(c->syms) == 0)) {
        s.items &= ~(unsigned)PFM_PROFILING; /* random records have no functions to profile */
        s.prof = EV4_PROF_NONE;
        if (!s.items)
            s.items = PFM_COUNTERS;
    }
    if (!(c->x = ev4_session_start(&s, 1, &b, syms, err))) {
        ev4_conform_free(c);
        return NULL;
    }
    *hooks = (pmu_record_hooks){.ctx = c, .admit = driver_admit, .after = driver_after};
    return c;
}

int ev4_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out)
{
    if (!c->driver) {
        *interrupts = c->interrupts;
        return 1;
    }
    pmu_err err;
    *interrupts = ev4_session_interrupts(c->x);
    if (ev4_session_finish(c->x, &err)) {
        fprintf(out, "%s\n", err.msg);
        return 0;
    }
    return ev4_session_check(c->x, 1, out);
}

void ev4_conform_free(pmu_fam_conform *c)
{
    if (!c)
        return;
    ev4_session_free(c->x);
    if (c->syms)
        drv_symtab_free(c->syms);
    free(c);
}
