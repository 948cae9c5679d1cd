/*
 * ev67_ref.c - the cycle-exact reference model of the Alpha 21264/EV67 performance-
 * counter block: its registers and register port, the observation port, the order of a
 * step, construction and the extras the software's checks read.
 *
 * Written from docs/ev67.md (the normative model of a cycle) and the sources it cites
 * (HRM §5.2, §6.10; coreboot ev6 dc21264.h; Tru64 pfcntr.h), not from the RTL.  Every
 * position and limit comes from include/common/ev67/ev67_regs.def through ev67_regs.h.
 * docs/ev67.md, "Reference model", lists what this model had to interpret.
 */
#include <stdlib.h>
#include <string.h>

#include "ev67_ref_internal.h"

static const pmu_backend_ops ev67_ref_ops;

/* ---- per-counter fields ------------------------------------------------------------ */

unsigned ev67_ref_pcen(const ev67_ref *m) { return (unsigned)EV67_FGET(m->ier_cm, IER_CM, PCEN); }

unsigned ev67_ref_en(const ev67_ref *m, unsigned n)
{
    return (unsigned)ev67_ctr_enabled(m->i_ctl, m->pctx, n);
}

unsigned ev67_ref_sl0(const ev67_ref *m) { return (unsigned)EV67_FGET(m->pctr_ctl, PCTR_CTL, SL0); }
unsigned ev67_ref_sl1(const ev67_ref *m) { return (unsigned)EV67_FGET(m->pctr_ctl, PCTR_CTL, SL1); }

uint32_t ev67_ref_ctr_mask(unsigned n) { return (uint32_t)((1ull << ev67_ctr_width(n)) - 1); }

unsigned ev67_ref_add(ev67_ref *m, unsigned n, unsigned inc)
{
    const uint64_t sum = (uint64_t)m->ctr[n] + inc;
    m->total[n] += inc;
    m->ctr[n] = (uint32_t)sum & ev67_ref_ctr_mask(n);
    return sum > ev67_ref_ctr_mask(n);
}

/* PCTR_CTL's counter fields, from a value or into one. */
static uint32_t pctr_get(uint64_t v, unsigned n)
{
    return (uint32_t)(n ? EV67_FGET(v, PCTR_CTL, PCTR1) : EV67_FGET(v, PCTR_CTL, PCTR0));
}
static uint64_t pctr_set(uint64_t v, unsigned n, uint32_t x)
{
    return n ? EV67_FSET(v, PCTR_CTL, PCTR1, x) : EV67_FSET(v, PCTR_CTL, PCTR0, x);
}

/* PCTR_CTL with counts c0, c1; SEXT copies the top bit of the PCTR0 shown. */
static uint64_t pctr_ctl_with(const ev67_ref *m, uint32_t c0, uint32_t c1)
{
    uint64_t v = pctr_set(pctr_set(m->pctr_ctl, 0, c0), 1, c1);
    const unsigned top = (c0 >> (EV67_F_PCTR_CTL_PCTR0_WIDTH - 1)) & 1;
    return EV67_FSET(v, PCTR_CTL, SEXT, top ? EV67_FMASK(PCTR_CTL, SEXT) >> EV67_F_PCTR_CTL_SEXT_LSB : 0);
}

/* ---- clocks without a record -------------------------------------------------------- */

static uint64_t reset_of(unsigned r) { return ev67_reg_table[r].reset & ev67_reg_bits(r); }

static void ev67_ref_reset(pmu_backend *b)
{
    ev67_ref *m = (ev67_ref *)b;
    const ev67_params p = m->params;
    const pmu_backend base = m->base;
    int8_t vis_reg[EV67_NVIS];
    memcpy(vis_reg, m->vis_reg, sizeof vis_reg);
    /* Everything to 0 but what construction set, then the .def's reset values (OBS_INT.PAL
     * = 1). */
    memset(m, 0, sizeof *m);
    m->base = base;
    m->params = p;
    memcpy(m->vis_reg, vis_reg, sizeof vis_reg);
    m->pmpc = reset_of(EV67_REG_PMPC);
    m->ier_cm = reset_of(EV67_REG_IER_CM);
    m->i_ctl = reset_of(EV67_REG_I_CTL);
    m->i_stat = reset_of(EV67_REG_I_STAT);
    m->pctx = reset_of(EV67_REG_PCTX);
    const uint64_t pctr = reset_of(EV67_REG_PCTR_CTL);
    m->pctr_ctl = pctr & ~(EV67_FMASK(PCTR_CTL, PCTR0) | EV67_FMASK(PCTR_CTL, PCTR1) | EV67_FMASK(PCTR_CTL, SEXT));
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++)
        m->ctr[n] = pctr_get(pctr, n);
    const uint64_t oi = reset_of(EV67_REG_OBS_INT);
    m->s1 = (unsigned)EV67_FGET(oi, OBS_INT, S1);
    m->s2 = (unsigned)EV67_FGET(oi, OBS_INT, S2);
    m->req = (unsigned)EV67_FGET(oi, OBS_INT, REQ);
    m->pexit = (unsigned)EV67_FGET(oi, OBS_INT, PEXIT);
    m->pal = (unsigned)EV67_FGET(oi, OBS_INT, PAL);
    m->race = (unsigned)EV67_FGET(oi, OBS_INT, RACE);
    b->cycle = 0;
}

/* The register at addr (EV67_REG_*), or -1 for an address with nothing there. */
static int reg_index(uint16_t addr)
{
    const ev67_reg_desc *d = ev67_reg_lookup(addr);
    return d ? (int)(d - ev67_reg_table) : -1;
}

static void write_pctr_ctl(ev67_ref *m, uint64_t value)
{
    /* docs/ev67.md "write": PAL-exit arming on the counts before the write, then the
     * fields, then one shift of the latch, then the re-arm of ProfileMe. */
    ev67_ref_write_arm(m);
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++)
        m->ctr[n] = pctr_get(value, n);
    m->pctr_ctl = EV67_FSET(m->pctr_ctl, PCTR_CTL, SL0, EV67_FGET(value, PCTR_CTL, SL0));
    m->pctr_ctl = EV67_FSET(m->pctr_ctl, PCTR_CTL, SL1, EV67_FGET(value, PCTR_CTL, SL1));
    ev67_ref_write_shift(m);
    ev67_ref_pm_rearm(m);
}

static void ev67_ref_write(pmu_backend *b, uint16_t addr, uint64_t value)
{
    ev67_ref *m = (ev67_ref *)b;
    switch (reg_index(addr)) {
    case EV67_REG_PCTR_CTL:
        write_pctr_ctl(m, value);
        break;
    case EV67_REG_I_CTL:
        m->i_ctl = value & ev67_reg_bits_of(EV67_REG_I_CTL, EV67_ACCESS_RW);
        break;
    case EV67_REG_IER_CM:
        m->ier_cm = value & ev67_reg_bits_of(EV67_REG_IER_CM, EV67_ACCESS_RW);
        break;
    case EV67_REG_HW_INT_CLR: {
        const unsigned clr = (unsigned)EV67_FGET(value, HW_INT_CLR, PC);
        m->req &= ~clr;
        m->pexit &= ~clr;
        break;
    }
    case EV67_REG_PCTX:
        /* Index-selected: PPCE only when the address's select bit is 1 (HRM Table 5-1). */
        if ((addr >> EV67_PCTX_SEL_PPCE) & 1)
            m->pctx = EV67_FSET(m->pctx, PCTX, PPCE, EV67_FGET(value, PCTX, PPCE));
        break;
    default:
        break; /* read-only registers, the observation port, unlisted addresses */
    }
    /* A write clock has no increment and raises no ISUM bit. */
    m->race = 0;
    m->qinc[0] = m->qinc[1] = 0;
}

static uint64_t obs_int(const ev67_ref *m)
{
    uint64_t v = 0;
    v = EV67_FSET(v, OBS_INT, S1, m->s1);
    v = EV67_FSET(v, OBS_INT, S2, m->s2);
    v = EV67_FSET(v, OBS_INT, REQ, m->req);
    v = EV67_FSET(v, OBS_INT, PEXIT, m->pexit);
    v = EV67_FSET(v, OBS_INT, PAL, m->pal);
    return EV67_FSET(v, OBS_INT, RACE, m->race);
}

static uint64_t obs_agg(const ev67_ref *m)
{
    uint64_t v = 0;
    v = EV67_FSET(v, OBS_AGG, BACKLOG, m->backlog);
    v = EV67_FSET(v, OBS_AGG, BCG, m->bcg);
    v = EV67_FSET(v, OBS_AGG, QINC0, m->qinc[0]);
    return EV67_FSET(v, OBS_AGG, QINC1, m->qinc[1]);
}

static uint64_t read_pctr_ctl(const ev67_ref *m)
{
    uint32_t c[EV67_NCOUNTERS];
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        c[n] = m->ctr[n];
        /* HRM §6.10.1: a disabled counter may read as value + its last increment. */
        if (m->params.read_quirk && !ev67_ref_en(m, n))
            c[n] = (c[n] + m->qinc[n]) & ev67_ref_ctr_mask(n);
    }
    return pctr_ctl_with(m, c[0], c[1]);
}

/* What a read of register r (an EV67_REG_ index, or -1) returns. */
static uint64_t read_reg(const ev67_ref *m, int r)
{
    switch (r) {
    case EV67_REG_PMPC:
        return m->pmpc;
    case EV67_REG_IER_CM:
        return m->ier_cm;
    case EV67_REG_ISUM:
        if (m->params.isum_race && m->race)
            return 0; /* HRM §5.2.11: the read raced the interrupt */
        return EV67_FSET(0, ISUM, PC, m->req & ev67_ref_pcen(m));
    case EV67_REG_I_CTL:
        return m->i_ctl;
    case EV67_REG_PCTR_CTL:
        return read_pctr_ctl(m);
    case EV67_REG_I_STAT:
        return m->i_stat;
    case EV67_REG_PCTX:
        return m->pctx;
    case EV67_REG_OBS_CTR:
        return EV67_FSET(EV67_FSET(0, OBS_CTR, PCTR0, m->ctr[0]), OBS_CTR, PCTR1, m->ctr[1]);
    case EV67_REG_OBS_INT:
        return obs_int(m);
    case EV67_REG_OBS_AGG:
        return obs_agg(m);
    case EV67_REG_OBS_PM:
        return ev67_ref_obs_pm(m);
    case EV67_REG_OBS_PMPC:
        return m->pm.pmpc;
    default:
        return 0; /* HW_INT_CLR is write-only; nothing at an unlisted address */
    }
}

static uint64_t ev67_ref_read(pmu_backend *b, uint16_t addr)
{
    return read_reg((const ev67_ref *)b, reg_index(addr));
}

/* ---- a clock with a record: docs/ev67.md "step(record)", steps 1-8 ------------------ */

/* The window's end (step 7): REQ[0] and the capture, and the sample. */
static void window_end(ev67_ref *m)
{
    m->req |= 1u;
    ev67_ref_pm_capture(m);
    ev67_pm_sample *s = &m->samples[m->nsamples % EV67_REF_SAMPLES_KEPT];
    s->fetch_step = m->pm.fetch_step;
    s->open_step = m->pm.fetch_step + EV67_LIM_PME_OPEN;
    s->end_step = m->base.cycle;
    s->tag = m->pm.tag;
    s->end_kind = (uint8_t)m->pm.end_kind;
    s->pmpc = m->pmpc;
    s->i_stat = m->i_stat;
    s->pctr_ctl = pctr_ctl_with(m, m->ctr[0], m->ctr[1]);
    m->nsamples++;
}

static void ev67_ref_step(pmu_backend *b, const void *record)
{
    ev67_ref *m = (ev67_ref *)b;
    ev67_step_in in = {.rec = record};
    ev67_count_out out = {{0}, 0};
    const unsigned req_before = m->req;

    b->cycle++; /* so the step's own number is b->cycle (ev67_pm_sample.fetch_step) */
    ev67_ref_step_start(m, &in);      /* 1 */
    ev67_ref_retire_gate(m, &in);     /* 2, 3 */
    if (ev67_ref_sl0(m))              /* 4 */
        ev67_ref_count_profileme(m, &in, &out);
    else
        ev67_ref_count_aggregate(m, &in, &out);
    ev67_ref_latch(m, &in, &out);     /* 5 */
    ev67_ref_pal_exit(m, &in);        /* 6 */
    if (out.window_end)               /* 7 */
        window_end(m);
    ev67_ref_step_end(m, &in, req_before); /* 8 */
    ev67_ref_quirk_incs(m, &in);
}

static void ev67_ref_snapshot(pmu_backend *b, pmu_state *s)
{
    const ev67_ref *m = (const ev67_ref *)b;
    for (unsigned v = 0; v < EV67_NVIS; v++)
        s->reg[v] = read_reg(m, m->vis_reg[v]);
    s->pmi = ev67_pmi(obs_int(m), m->ier_cm);
}

/* The line alone, without gathering the registers (the loop asks it every clock). */
static uint8_t ev67_ref_pmi_op(pmu_backend *b)
{
    const ev67_ref *m = (const ev67_ref *)b;
    return (uint8_t)ev67_pmi(obs_int(m), m->ier_cm);
}

static uint64_t ev67_ref_total_op(pmu_backend *b, unsigned n)
{
    return n < EV67_NCOUNTERS ? ((ev67_ref *)b)->total[n] : 0;
}

static void ev67_ref_destroy(pmu_backend *b) { free(b); }

static const pmu_backend_ops ev67_ref_ops = {
    .reset = ev67_ref_reset,
    .write = ev67_ref_write,
    .read = ev67_ref_read,
    .step = ev67_ref_step,
    .snapshot = ev67_ref_snapshot,
    .destroy = ev67_ref_destroy,
    .total = ev67_ref_total_op,
    .pmi = ev67_ref_pmi_op,
};

/* ---- construction and the extras ---------------------------------------------------- */

pmu_backend *ev67_ref_new(const ev67_params *p, pmu_err *err)
{
    const ev67_params params = p ? *p : ev67_params_default(EV67_MODEL_21264_EV67);
    pmu_err e;
    if (ev67_params_check(&params, &e) != 0) {
        pmu_errf(err, e.code, "ev67_ref_new: %s", e.msg);
        return NULL;
    }
    ev67_ref *m = calloc(1, sizeof *m);
    if (!m) {
        pmu_errf(err, PMU_E_NOMEM, "ev67_ref_new: out of memory");
        return NULL;
    }
    m->base.ops = &ev67_ref_ops;
    m->base.name = "ref";
    m->base.model = (unsigned)params.model;
    m->base.nvis = EV67_NVIS;
    m->params = params;
    _Static_assert(EV67_NREGS < 128, "a register index fits vis_reg's int8_t");
    for (unsigned v = 0; v < EV67_NVIS; v++)
        m->vis_reg[v] = (int8_t)reg_index(ev67_vis_table[v].addr);
    ev67_ref_reset(&m->base);
    return &m->base;
}

int ev67_is_ref(const pmu_backend *b) { return b && b->ops == &ev67_ref_ops; }

static const ev67_ref *as_ref(pmu_backend *b, unsigned n)
{
    return ev67_is_ref(b) && n < EV67_NCOUNTERS ? (const ev67_ref *)b : NULL;
}

uint64_t ev67_ref_total(pmu_backend *b, unsigned n)
{
    const ev67_ref *m = as_ref(b, n);
    return m ? m->total[n] : 0;
}

uint64_t ev67_ref_overflows(pmu_backend *b, unsigned n)
{
    const ev67_ref *m = as_ref(b, n);
    return m ? m->overflows[n] : 0;
}

uint64_t ev67_ref_requests(pmu_backend *b, unsigned n)
{
    const ev67_ref *m = as_ref(b, n);
    return m ? m->requests[n] : 0;
}

uint64_t ev67_ref_nsamples(pmu_backend *b)
{
    const ev67_ref *m = as_ref(b, 0);
    return m ? m->nsamples : 0;
}

int ev67_ref_sample(pmu_backend *b, uint64_t i, ev67_pm_sample *out)
{
    const ev67_ref *m = as_ref(b, 0);
    if (!m || !out || i >= m->nsamples || m->nsamples - i > EV67_REF_SAMPLES_KEPT)
        return -1;
    *out = m->samples[i % EV67_REF_SAMPLES_KEPT];
    return 0;
}
