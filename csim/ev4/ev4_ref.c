/*
 * ev4_ref.c - the cycle-exact reference model of the Alpha 21064 performance-counter
 * block: ICCSR's counter fields, HIRR's and HIER's counter bits, SL_CLR, and the two
 * counters software cannot read (seen through the observation port, CTR0 and CTR1).
 *
 * Written from docs/ev4.md (the normative model of a cycle) and the sources it cites
 * (pfm(7), OSF/1 <sys/pfcntr.h>, dc21064.h), not from the RTL.  A step is:
 *
 *   1. counting   each enabled counter adds its selected event's increment
 *                 (ev4_ref_events.c) to its count;
 *   2. requests   a carry out of bit k-1 of the count (2^k its period) sets HIRR.PCn
 *                 when clear; when set, the crossing is lost.
 *
 * Both counters are kept in half events, {COUNT, HALF}: counter 0's PF_ISSUES and
 * PF_NONISSUES add 1/2 per single-issue cycle (docs/ev4.md, "The half-count bit").
 * Counter 1 has only whole events, so its half bit stays 0 and its port shows COUNT
 * alone.  docs/ev4.md, "Reference model", says what the model decides beyond the page.
 */
#include <stdlib.h>

#include "csim/ev4/ev4_ref.h"
#include "ev4_ref_internal.h"

/* The observation port shows a count of up to EV4_CTR_WIDTH_MAX bits below HALF. */
_Static_assert(EV4_F_CTR0_HALF_LSB >= EV4_F_CTR0_COUNT_LSB + EV4_CTR_WIDTH_MAX,
               "include/common/ev4/ev4_regs.def: CTR0.HALF must lie above a counter of EV4_CTR_WIDTH_MAX bits");
_Static_assert(EV4_F_CTR1_COUNT_LSB + EV4_CTR_WIDTH_MAX <= 64,
               "include/common/ev4/ev4_regs.def: CTR1.COUNT must hold EV4_CTR_WIDTH_MAX bits");

typedef struct ev4_counter {
    uint64_t halves;    /* {COUNT, HALF}: the count in half events, width + 1 bits */
    unsigned width;     /* COUNT's width (Ctr0Width, Ctr1Width) */
    uint64_t total;     /* whole events counted since reset, never wrapping */
    unsigned total_half;/* the half event left over in total (counter 0) */
    uint64_t requests;  /* steps in which HIRR.PCn went from 0 to 1 */
    uint64_t overflows; /* period crossings, requests or lost */
} ev4_counter;

typedef struct ev4_ref {
    pmu_backend base; /* first member: a pmu_backend* is an ev4_ref* */

    /* Architectural state: the registers as stored, the counters. */
    uint64_t iccsr, hirr, hier;
    ev4_counter ctr[EV4_NCOUNTERS];

    /* Constant for the parameters. */
    uint64_t iccsr_bits, hier_bits; /* what a write stores (ev4_reg_bits) */
    ev4_mux0_undef mux0_undef;
    /* ICCSR decoded when it is stored (set_iccsr), not in every step: counter n's event
     * kind and the bit of its half count that a period ends at (ev4_period_log2 + 1). */
    ev4_kind kind[EV4_NCOUNTERS];
    unsigned period_bit[EV4_NCOUNTERS];
    /* The register index of each visible register (set at construction): a snapshot
     * reads them without looking their addresses up. */
    int8_t vis_reg[EV4_NVIS];
} ev4_ref;

static const pmu_backend_ops ev4_ref_ops;

/* ---- counter n's fields (the two counters' fields have different names) ------------- */

static unsigned iccsr_pme(uint64_t iccsr, unsigned n)
{
    return (unsigned)(n ? EV4_FGET(iccsr, ICCSR, PME1) : EV4_FGET(iccsr, ICCSR, PME0));
}
static unsigned iccsr_mux(uint64_t iccsr, unsigned n)
{
    return (unsigned)(n ? EV4_FGET(iccsr, ICCSR, MUX1) : EV4_FGET(iccsr, ICCSR, MUX0));
}
static unsigned iccsr_pc(uint64_t iccsr, unsigned n)
{
    return (unsigned)(n ? EV4_FGET(iccsr, ICCSR, PC1) : EV4_FGET(iccsr, ICCSR, PC0));
}

/* ICCSR takes `value` (already masked to what it stores); the step's view of it follows. */
static void set_iccsr(ev4_ref *m, uint64_t value)
{
    m->iccsr = value;
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        m->kind[n] = ev4_mux_kind(n, iccsr_mux(value, n), m->mux0_undef);
        m->period_bit[n] = ev4_period_log2(n, iccsr_pc(value, n)) + 1;
    }
}
static unsigned hirr_req(uint64_t hirr, unsigned n)
{
    return (unsigned)(n ? EV4_FGET(hirr, HIRR, PC1) : EV4_FGET(hirr, HIRR, PC0));
}
static uint64_t hirr_set(uint64_t hirr, unsigned n, unsigned v)
{
    return n ? EV4_FSET(hirr, HIRR, PC1, v) : EV4_FSET(hirr, HIRR, PC0, v);
}
static unsigned sl_clr_keep(uint64_t value, unsigned n)
{
    return (unsigned)(n ? EV4_FGET(value, SL_CLR, PC1) : EV4_FGET(value, SL_CLR, PC0));
}

static uint64_t low_bits(unsigned k) { return k >= 64 ? ~0ull : ((uint64_t)1 << k) - 1; }

/* What the observation port shows of counter n: COUNT, and counter 0's HALF. */
static uint64_t observe(const ev4_counter *c, unsigned n)
{
    uint64_t count = (c->halves >> 1) & low_bits(c->width);
    if (n)
        return count << EV4_F_CTR1_COUNT_LSB;
    return (count << EV4_F_CTR0_COUNT_LSB) | ((c->halves & 1) << EV4_F_CTR0_HALF_LSB);
}

/* Counter n's half count from an observation-port value (the .def's reset value). */
static uint64_t unobserve(uint64_t v, unsigned n, unsigned width)
{
    if (n)
        return ((v >> EV4_F_CTR1_COUNT_LSB) & low_bits(width)) << 1;
    return (((v >> EV4_F_CTR0_COUNT_LSB) & low_bits(width)) << 1) | EV4_FGET(v, CTR0, HALF);
}

/* ---- clocks without a cycle record -------------------------------------------------- */

static void ev4_ref_reset(pmu_backend *b)
{
    ev4_ref *m = (ev4_ref *)b;
    set_iccsr(m, ev4_reg_table[EV4_REG_ICCSR].reset & m->iccsr_bits);
    m->hirr = ev4_reg_table[EV4_REG_HIRR].reset & ev4_reg_bits(EV4_REG_HIRR, b->model);
    m->hier = ev4_reg_table[EV4_REG_HIER].reset & m->hier_bits;
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        ev4_counter *c = &m->ctr[n];
        c->halves = unobserve(ev4_reg_table[n ? EV4_REG_CTR1 : EV4_REG_CTR0].reset, n, c->width);
        c->total = 0;
        c->total_half = 0;
        c->requests = 0;
        c->overflows = 0;
    }
    b->cycle = 0;
}

/* The register at addr (EV4_REG_*), or -1 for an address with nothing there. */
static int reg_index(uint16_t addr)
{
    const ev4_reg_desc *d = ev4_reg_lookup(addr);
    return d ? (int)(d - ev4_reg_table) : -1;
}

static void ev4_ref_write(pmu_backend *b, uint16_t addr, uint64_t value)
{
    ev4_ref *m = (ev4_ref *)b;
    switch (reg_index(addr)) {
    case EV4_REG_ICCSR:
        /* The counts stay: a new MUX or PC applies to the counts already made. */
        set_iccsr(m, value & m->iccsr_bits);
        break;
    case EV4_REG_HIER:
        m->hier = value & m->hier_bits;
        break;
    case EV4_REG_SL_CLR:
        /* dc21064.h: W0C, a 0 clears that request and a 1 leaves it. */
        for (unsigned n = 0; n < EV4_NCOUNTERS; n++)
            if (!sl_clr_keep(value, n))
                m->hirr = hirr_set(m->hirr, n, 0);
        break;
    default:
        break; /* HIRR (hardware-set), the observation port, unlisted addresses */
    }
}

/* What a read of register r (an EV4_REG_ index, or -1) returns. */
static uint64_t read_reg(const ev4_ref *m, int r)
{
    switch (r) {
    case EV4_REG_ICCSR:
        return m->iccsr;
    case EV4_REG_HIRR:
        return m->hirr;
    case EV4_REG_HIER:
        return m->hier;
    case EV4_REG_CTR0:
        return observe(&m->ctr[0], 0);
    case EV4_REG_CTR1:
        return observe(&m->ctr[1], 1);
    default:
        return 0; /* SL_CLR is write-only; nothing at an unlisted address */
    }
}

static uint64_t ev4_ref_read(pmu_backend *b, uint16_t addr)
{
    return read_reg((const ev4_ref *)b, reg_index(addr));
}

/* ---- a clock with a cycle record ---------------------------------------------------- */

/* Step 1 and 2 for counter n, adding `inc` half events. */
static void count(ev4_ref *m, unsigned n, unsigned inc)
{
    ev4_counter *c = &m->ctr[n];
    /* Bit k-1 of COUNT is bit k of the half count; the pair is width + 1 bits wide. */
    const unsigned k = m->period_bit[n];
    /* Every carry out of bit k-1 in this step: a step adds at most 2 whole events today,
     * so this is 0 or 1, but a larger increment is not miscounted. */
    const uint64_t crossings = ((c->halves & low_bits(k)) + inc) >> k;

    c->halves = (c->halves + inc) & low_bits(c->width + 1);
    c->total += (c->total_half + inc) >> 1;
    c->total_half = (c->total_half + inc) & 1;

    if (crossings == 0)
        return;
    c->overflows += crossings;
    /* One request bit: a crossing while it is set is lost (docs/ev4.md). */
    if (!hirr_req(m->hirr, n)) {
        m->hirr = hirr_set(m->hirr, n, 1);
        c->requests++;
    }
}

static void ev4_ref_step(pmu_backend *b, const void *record)
{
    ev4_ref *m = (ev4_ref *)b;
    const ev4_cycle *rec = record;
    const int has_pme = ev4_has_pme((ev4_model)b->model);

    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        if (has_pme && !iccsr_pme(m->iccsr, n))
            continue;
        count(m, n, ev4_ref_halves(m->kind[n], rec));
    }
    b->cycle++;
}

static void ev4_ref_snapshot(pmu_backend *b, pmu_state *s)
{
    ev4_ref *m = (ev4_ref *)b;
    for (unsigned v = 0; v < EV4_NVIS; v++)
        s->reg[v] = read_reg(m, m->vis_reg[v]);
    s->pmi = ev4_pmi(m->hirr, m->hier);
}

/* The line alone, without gathering the registers. */
static uint8_t ev4_ref_pmi_op(pmu_backend *b)
{
    const ev4_ref *m = (const ev4_ref *)b;
    return (uint8_t)ev4_pmi(m->hirr, m->hier);
}

static uint64_t ev4_ref_total_op(pmu_backend *b, unsigned n)
{
    return n < EV4_NCOUNTERS ? ((ev4_ref *)b)->ctr[n].total : 0;
}

static void ev4_ref_destroy(pmu_backend *b) { free(b); }

static const pmu_backend_ops ev4_ref_ops = {
    .reset = ev4_ref_reset,
    .write = ev4_ref_write,
    .read = ev4_ref_read,
    .step = ev4_ref_step,
    .snapshot = ev4_ref_snapshot,
    .destroy = ev4_ref_destroy,
    .total = ev4_ref_total_op,
    .pmi = ev4_ref_pmi_op,
};

/* ---- construction ------------------------------------------------------------------- */

static int params_valid(const ev4_params *p, pmu_err *err)
{
    if ((unsigned)p->model >= EV4_NMODELS)
        return pmu_errf(err, PMU_E_INPUT,
                        "ev4_ref_new: params.model: expected 0 (%s) .. %d (%s), got %d",
                        ev4_model_names[0], EV4_NMODELS - 1, ev4_model_names[EV4_NMODELS - 1],
                        (int)p->model);
    const unsigned width[EV4_NCOUNTERS] = {p->ctr0_width, p->ctr1_width};
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++)
        if (width[n] < ev4_ctr_width_min(n) || width[n] > EV4_CTR_WIDTH_MAX)
            return pmu_errf(err, PMU_E_INPUT,
                            "ev4_ref_new: params.ctr%u_width: expected %u..%u (the counter must "
                            "hold its long period, 2^%u), got %u",
                            n, ev4_ctr_width_min(n), (unsigned)EV4_CTR_WIDTH_MAX,
                            ev4_period_log2(n, 0), width[n]);
    if ((unsigned)p->mux0_undef > EV4_UNDEF_ALIAS)
        return pmu_errf(err, PMU_E_INPUT,
                        "ev4_ref_new: params.mux0_undef: expected %d (count nothing) or %d (alias "
                        "to the even code), got %d",
                        EV4_UNDEF_NOTHING, EV4_UNDEF_ALIAS, (int)p->mux0_undef);
    return 0;
}

pmu_backend *ev4_ref_new(const ev4_params *p, pmu_err *err)
{
    const ev4_params params = p ? *p : ev4_params_default(EV4_MODEL_21064);
    if (params_valid(&params, err) != 0)
        return NULL;

    ev4_ref *m = calloc(1, sizeof *m);
    if (!m) {
        pmu_errf(err, PMU_E_NOMEM, "ev4_ref_new: out of memory");
        return NULL;
    }
    m->base.ops = &ev4_ref_ops;
    m->base.name = "ref";
    m->base.model = (unsigned)params.model;
    m->base.nvis = EV4_NVIS;
    m->iccsr_bits = ev4_reg_bits(EV4_REG_ICCSR, params.model);
    m->hier_bits = ev4_reg_bits(EV4_REG_HIER, params.model);
    m->mux0_undef = params.mux0_undef;
    m->ctr[0].width = params.ctr0_width;
    m->ctr[1].width = params.ctr1_width;
    _Static_assert(EV4_NREGS < 128, "a register index fits vis_reg's int8_t");
    for (unsigned v = 0; v < EV4_NVIS; v++)
        m->vis_reg[v] = (int8_t)reg_index(ev4_vis_table[v].addr);

    ev4_ref_reset(&m->base);
    return &m->base;
}

int ev4_is_ref(const pmu_backend *b) { return b && b->ops == &ev4_ref_ops; }

/* Counter n of b when b is a reference model, else NULL. */
static const ev4_counter *ref_counter(pmu_backend *b, unsigned n)
{
    return ev4_is_ref(b) && n < EV4_NCOUNTERS ? &((ev4_ref *)b)->ctr[n] : NULL;
}

uint64_t ev4_ref_total(pmu_backend *b, unsigned n)
{
    const ev4_counter *c = ref_counter(b, n);
    return c ? c->total : 0;
}

uint64_t ev4_ref_requests(pmu_backend *b, unsigned n)
{
    const ev4_counter *c = ref_counter(b, n);
    return c ? c->requests : 0;
}

uint64_t ev4_ref_overflows(pmu_backend *b, unsigned n)
{
    const ev4_counter *c = ref_counter(b, n);
    return c ? c->overflows : 0;
}
