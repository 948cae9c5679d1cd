/*
 * drv.c - the overflow driver (drv.h, docs/ita-driver.md).
 *
 * Virtual counters: every context keeps, per counter, a 64-bit `base` with the
 * invariant
 *
 *     events counted in this context = base + count + 2^W * ovf      (mod 2^64)
 *
 * where count is the counter's W-bit value and ovf its overflow bit, on the PMU
 * while the context is loaded, in the saved copy otherwise.  Loading a fresh context
 * sets base = -count; a hardware increment keeps the sum (a carry wraps count by
 * -2^W and sets ovf, +2^W, which is why every counter interrupts: a second carry
 * with ovf already 1 would lose 2^W, and the freeze that comes with the first one
 * rules that out); the service routine moves 2^W from ovf into base and, when it
 * reloads the counter, the difference between the old count and the reload value.
 * So a count is read, exactly, from that one formula (counter_value()).
 *
 * Sources: docs/sources.md.
 */
#include "sw/ita/ita_drv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_text.h"

#define NPIDS 0x10001u    /* pids 0..65535 and ITA_DRV_ALL_PIDS */
#define MAX_CFG_REGS 32
#define MAX_DATA_REGS 16  /* the EAR and BTB data registers (ACCESS(CAPTURE)): 14 */

typedef struct drv_ctx {
    uint32_t pid;
    uint64_t cfg[MAX_CFG_REGS];        /* value of each configuration register */
    uint8_t used[ITA_NCOUNTERS];       /* counter programmed by the configuration */
    uint64_t period[ITA_NCOUNTERS];
    uint64_t reload[ITA_NCOUNTERS];
    uint64_t base[ITA_NCOUNTERS];
    uint64_t pmc0;                     /* saved overflow status (fr = interrupt pending) */
    uint64_t pmd[ITA_NCOUNTERS];       /* saved counts, W bits */
    uint64_t data[MAX_DATA_REGS];      /* saved EAR and BTB registers */
    uint8_t capture[ITA_NCOUNTERS];    /* ita_drv_capture: what a sample of the counter reads */
    uint8_t psr_up;                    /* per-process: the process's own PSR.up */
    uint64_t overflows[ITA_NCOUNTERS];
    uint64_t samples[ITA_NCOUNTERS];
    uint64_t switch_ins;
} drv_ctx;

struct ita_drv {
    pmu_backend *b;
    ita_drv_opts o;
    unsigned width;
    uint64_t cmask;                    /* 2^W - 1 */
    uint64_t span;                     /* 2^W */
    /* The configuration registers a context owns: every visible register except
     * PMC0, the counters, the CPU registers and the EAR/BTB data, in ita_vis_table
     * order.  The EAR/BTB data registers (the .def's ACCESS(CAPTURE)) are dynamic state,
     * saved and restored like the counters, in register-number order. */
    unsigned ncfg, ndata;
    uint16_t cfg_addr[MAX_CFG_REGS];
    uint64_t cfg_reset[MAX_CFG_REGS];
    uint16_t data_addr[MAX_DATA_REGS];
    uint64_t data_reset[MAX_DATA_REGS];
    drv_ctx default_ctx;               /* the session's configuration, prepared once */
    drv_ctx **ctx;
    unsigned nctx, cap;
    int32_t index[NPIDS];              /* pid -> ctx index, -1 = none */
    drv_ctx *cur;                      /* loaded on the PMU, NULL = none */
    int started, stopped;
    int32_t pid;                       /* process running, -1 before start */
    int pending;                       /* an interrupt is latched */
    unsigned wait;                     /* records left before it is delivered */
    uint64_t last_ip;
    uint8_t last_cpl;
    ita_drv_stats st;
};

static uint16_t vis_addr(unsigned v) { return ita_vis_table[v].addr; }
#define A_PMC0 vis_addr(ITA_VIS_PMC0)
#define A_PSR vis_addr(ITA_VIS_PSR)
#define A_IPSR vis_addr(ITA_VIS_IPSR)
#define A_DCR vis_addr(ITA_VIS_DCR)
static uint16_t pmc_addr(unsigned k) { return vis_addr(ITA_VIS_PMC4 + k); }
static uint16_t pmd_addr(unsigned k) { return vis_addr(ITA_VIS_PMD4 + k); }
static uint64_t ovf_bit(unsigned k) { return ITA_FSET(0, PMC0, OVF, UINT64_C(1) << k); }
#define PSR_BITS (ITA_FMASK(PSR, UP) | ITA_FMASK(PSR, PP))

ita_drv_opts ita_drv_opts_default(void)
{
    ita_drv_opts o;
    memset(&o, 0, sizeof o);
    o.mode = ITA_DRV_PER_PROCESS;
    o.dcr_pp = 1;
    o.latency = ITA_DRV_DEFAULT_LATENCY;
    return o;
}

static const char *reg_name(uint16_t addr)
{
    for (unsigned v = 0; v < ITA_NVIS; v++)
        if (ita_vis_table[v].addr == addr)
            return ita_vis_table[v].name;
    return "an unimplemented register";
}

unsigned ita_drv_capture_regs(ita_drv_capture k, uint16_t addr[ITA_DRV_MAX_CAPTURE_REGS])
{
    unsigned first = 0, n = 0;
    switch (k) {
    case ITA_DRV_CAPTURE_IEAR: /* PMD0, PMD1 */
        first = ITA_VIS_PMD0, n = 2;
        break;
    case ITA_DRV_CAPTURE_DEAR: /* PMD2, PMD3, then PMD17 */
        first = ITA_VIS_PMD2, n = 2;
        addr[2] = vis_addr(ITA_VIS_PMD17);
        break;
    case ITA_DRV_CAPTURE_BTB: /* PMD8..PMD16 */
        first = ITA_VIS_PMD8, n = ITA_VIS_PMD16 - ITA_VIS_PMD8 + 1;
        break;
    default:
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        addr[i] = vis_addr(first + i);
    return k == ITA_DRV_CAPTURE_DEAR ? 3 : n;
}

/* "configuration: register 0x00a (...) is not a context register: expected PMC4..PMC15, ..." */
static void not_a_context_register(const ita_drv *d, uint16_t addr, pmu_err *err)
{
    const char *names[MAX_CFG_REGS];
    char list[256] = "";
    for (unsigned i = 0; i < d->ncfg; i++)
        names[i] = reg_name(d->cfg_addr[i]);
    pmu_text_fold_names(list, sizeof list, names, d->ncfg);
    pmu_errf(err, PMU_E_INPUT, "configuration: register 0x%03x (%s) is not a context register: expected one of %s",
             addr, reg_name(addr), list);
}

/* Builds a context from a configuration: reset values, the listed registers (pm
 * and oi forced in the counters), reload values, counters at their start. */
static int ctx_init(const ita_drv *d, drv_ctx *c, uint32_t pid, const ita_drv_config *cfg,
                    pmu_err *err)
{
    memset(c, 0, sizeof *c);
    c->pid = pid;
    c->psr_up = 1;  /* monitoring starts on, as a monitoring tool starts it */
    for (unsigned i = 0; i < d->ncfg; i++)
        c->cfg[i] = d->cfg_reset[i];
    for (unsigned i = 0; i < d->ndata; i++)
        c->data[i] = d->data_reset[i];
    if (cfg->nregs > ITA_DRV_MAX_REGS) {
        pmu_errf(err, PMU_E_INPUT, "configuration: %u registers, expected at most %u", cfg->nregs,
                 ITA_DRV_MAX_REGS);
        return -1;
    }
    for (unsigned r = 0; r < cfg->nregs; r++) {
        uint16_t addr = cfg->reg[r].addr;
        uint64_t v = cfg->reg[r].value;
        unsigned i = 0;
        while (i < d->ncfg && d->cfg_addr[i] != addr)
            i++;
        if (i == d->ncfg) {
            not_a_context_register(d, addr, err);
            return -1;
        }
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
            if (addr != pmc_addr(k))
                continue;
            v = ITA_FSET(v, PMC_GEN, PM, d->o.mode == ITA_DRV_SYSTEM_WIDE);
            v = ITA_FSET(v, PMC_GEN, OI, 1);
            c->used[k] = 1;
        }
        c->cfg[i] = v;
    }
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        uint64_t p = cfg->period[k];
        if (p && !c->used[k]) {
            pmu_errf(err, PMU_E_INPUT, "configuration: a period for PMD%u, but PMC%u is not configured",
                     ITA_FIRST_COUNTER + k, ITA_FIRST_COUNTER + k);
            return -1;
        }
        if (p > d->span) {
            pmu_errf(err, PMU_E_INPUT,
                     "configuration: PMD%u period %llu, expected 1..2^%u (the counter width)",
                     ITA_FIRST_COUNTER + k, (unsigned long long)p, d->width);
            return -1;
        }
        if (cfg->capture[k] > ITA_DRV_CAPTURE_BTB || (cfg->capture[k] && !p)) {
            pmu_errf(err, PMU_E_INPUT, "configuration: PMD%u capture %u, expected %s",
                     ITA_FIRST_COUNTER + k, cfg->capture[k],
                     p ? "0..3 (none, I-EAR, D-EAR, BTB)" : "none: the counter does not sample");
            return -1;
        }
        c->capture[k] = cfg->capture[k];
        c->period[k] = p;
        c->reload[k] = (d->span - p) & d->cmask; /* a full 2^W period reloads 0 */
        c->pmd[k] = p ? c->reload[k] : 0;
        c->base[k] = (uint64_t)0 - c->pmd[k];
    }
    return 0;
}

ita_drv *ita_drv_create(pmu_backend *b, const ita_drv_opts *o, pmu_err *err)
{
    if (!b || !o) {
        pmu_errf(err, PMU_E_INPUT, "driver: expected a backend and options");
        return NULL;
    }
    if (o->mode != ITA_DRV_PER_PROCESS && o->mode != ITA_DRV_SYSTEM_WIDE) {
        pmu_errf(err, PMU_E_INPUT, "driver: mode %d, expected per-process or system-wide", (int)o->mode);
        return NULL;
    }
    if (o->latency > ITA_DRV_MAX_LATENCY) {
        pmu_errf(err, PMU_E_INPUT, "driver: latency %u, expected 0..%u records", o->latency,
                 ITA_DRV_MAX_LATENCY);
        return NULL;
    }
    if (o->mode == ITA_DRV_PER_PROCESS && o->per_process) {
        pmu_errf(err, PMU_E_INPUT, "driver: per_process is for system-wide sessions (a per-process "
                                   "session is per process already)");
        return NULL;
    }
    if (o->mode == ITA_DRV_SYSTEM_WIDE && o->every_process) {
        pmu_errf(err, PMU_E_INPUT, "driver: every_process is for per-process sessions (a system-wide "
                                   "session monitors every process)");
        return NULL;
    }
    ita_drv *d = calloc(1, sizeof *d);
    if (!d) {
        pmu_errf(err, PMU_E_NOMEM, "driver: out of memory");
        return NULL;
    }
    d->b = b;
    d->o = *o;
    d->width = ita_counter_width(b->model);
    d->span = UINT64_C(1) << d->width;
    d->cmask = d->span - 1;
    for (unsigned v = 0; v < ITA_NVIS; v++) {
        const ita_reg_desc *r = ita_reg_lookup(ita_vis_table[v].addr);
        if (!r || r->role == ITA_ROLE_OVF_CTRL || r->role == ITA_ROLE_COUNTER || r->role == ITA_ROLE_CPU)
            continue;
        if ((r->role == ITA_ROLE_CAPTURE && d->ndata == MAX_DATA_REGS) ||
            (r->role != ITA_ROLE_CAPTURE && d->ncfg == MAX_CFG_REGS)) {
            /* Never silently: a register left out would leak between contexts. */
            pmu_errf(err, PMU_E_INTERNAL, "driver: include/common/ita/ita_regs.def: %s does not fit in a context "
                     "(at most %u configuration and %u EAR/BTB data registers)", ita_vis_table[v].name,
                     MAX_CFG_REGS, MAX_DATA_REGS);
            free(d);
            return NULL;
        }
        if (r->role == ITA_ROLE_CAPTURE) {
            d->data_addr[d->ndata] = ita_vis_table[v].addr;
            d->data_reset[d->ndata++] = r->reset[b->model];
            for (unsigned i = d->ndata - 1; i > 0 && d->data_addr[i - 1] > d->data_addr[i]; i--) {
                uint16_t a = d->data_addr[i]; /* register-number order, whatever the .def's */
                uint64_t x = d->data_reset[i];
                d->data_addr[i] = d->data_addr[i - 1], d->data_reset[i] = d->data_reset[i - 1];
                d->data_addr[i - 1] = a, d->data_reset[i - 1] = x;
            }
        } else {
            d->cfg_addr[d->ncfg] = ita_vis_table[v].addr;
            d->cfg_reset[d->ncfg++] = r->reset[b->model];
        }
    }
    for (unsigned i = 0; i < NPIDS; i++)
        d->index[i] = -1;
    d->pid = -1;
    if (ctx_init(d, &d->default_ctx, 0, &o->config, err) != 0) {
        free(d);
        return NULL;
    }
    return d;
}

void ita_drv_destroy(ita_drv *d)
{
    if (!d)
        return;
    for (unsigned i = 0; i < d->nctx; i++)
        free(d->ctx[i]);
    free(d->ctx);
    free(d);
}

static drv_ctx *ctx_add(ita_drv *d, uint32_t pid)
{
    if (d->nctx == d->cap) {
        unsigned cap = d->cap ? d->cap * 2 : 8;
        drv_ctx **n = realloc(d->ctx, cap * sizeof *n);
        if (!n)
            return NULL;
        d->ctx = n;
        d->cap = cap;
    }
    drv_ctx *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    d->ctx[d->nctx] = c;
    d->index[pid] = (int32_t)d->nctx++;
    c->pid = pid;
    return c;
}

static drv_ctx *ctx_find(const ita_drv *d, uint32_t pid)
{
    if (pid >= NPIDS || d->index[pid] < 0)
        return NULL;
    return d->ctx[d->index[pid]];
}

int ita_drv_attach(ita_drv *d, uint16_t pid, const ita_drv_config *cfg, pmu_err *err)
{
    if (d->o.mode != ITA_DRV_PER_PROCESS) {
        pmu_errf(err, PMU_E_INPUT, "attach: a system-wide session monitors every process");
        return -1;
    }
    if (d->started) {
        pmu_errf(err, PMU_E_INPUT, "attach: the session has started; attach processes before it");
        return -1;
    }
    if (ctx_find(d, pid)) {
        pmu_errf(err, PMU_E_INPUT, "attach: process %u is attached already", pid);
        return -1;
    }
    drv_ctx tmp;
    if (cfg) {
        if (ctx_init(d, &tmp, pid, cfg, err) != 0)
            return -1;
    } else {
        tmp = d->default_ctx;
        tmp.pid = pid;
    }
    drv_ctx *c = ctx_add(d, pid);
    if (!c) {
        pmu_errf(err, PMU_E_NOMEM, "attach: out of memory");
        return -1;
    }
    *c = tmp;
    return 0;
}

/* The context of a process at its switch-in: attached, or created now when the
 * session monitors every process.  NULL: the process is not monitored. */
static drv_ctx *ctx_for(ita_drv *d, uint32_t pid)
{
    drv_ctx *c = ctx_find(d, pid);
    if (c)
        return c;
    if (!((d->o.mode == ITA_DRV_SYSTEM_WIDE && d->o.per_process) ||
          (d->o.mode == ITA_DRV_PER_PROCESS && d->o.every_process)))
        return NULL;
    c = ctx_add(d, pid);
    if (!c)
        return NULL; /* out of memory: the process runs unmonitored */
    *c = d->default_ctx;
    c->pid = pid;
    return c;
}

/* ---- the interrupt line ------------------------------------------------------------ */

/* A pending interrupt is one latch: a pulse (or a replay) while one is pending is
 * delivered with it. */
static void post_interrupt(ita_drv *d)
{
    if (!d->pending) {
        d->pending = 1;
        d->wait = d->o.latency;
    }
}

/* A sample's EAR or BTB registers, read while the PMU is frozen (docs/ita-ear-btb.md: the
 * capture of the overflowing cycle is the sample).  The BTB is then emptied (PMD16 = 0,
 * the rest of PMD16 at its reset value) so that each sample holds the branches recorded
 * since the previous one. */
static void read_capture(ita_drv *d, uint8_t kind, ita_drv_sample *s)
{
    s->capture = kind;
    s->nregs = (uint8_t)ita_drv_capture_regs((ita_drv_capture)kind, s->addr);
    for (unsigned i = 0; i < s->nregs; i++)
        s->value[i] = pmu_read(d->b, s->addr[i]);
    if (kind == ITA_DRV_CAPTURE_BTB)
        pmu_write(d->b, vis_addr(ITA_VIS_PMD16), ita_reg_lookup(vis_addr(ITA_VIS_PMD16))->reset[d->b->model]);
}

/* The service routine (SDM2 §7.2.4.1). */
void ita_drv_interrupt(ita_drv *d)
{
    pmu_backend *b = d->b;
    d->pending = 0;
    d->st.interrupts++;

    /* 1. Freeze (the interrupting overflow froze the PMU already; writing fr makes
     *    it so whatever raised the interrupt), keeping the overflow bits. */
    uint64_t pmc0 = pmu_read(b, A_PMC0);
    pmu_write(b, A_PMC0, ITA_FSET(pmc0, PMC0, FR, 1));
    /* 2. Which counters overflowed. */
    uint64_t status = pmu_read(b, A_PMC0);
    if (!(status & ITA_FMASK(PMC0, OVF)))
        d->st.spurious++;
    /* 3. For each: 2^W into the virtual count, reload the sampling period, a sample. */
    drv_ctx *c = d->cur;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        if (!(status & ovf_bit(k)))
            continue;
        if (!c || !c->used[k]) {
            d->st.lost++;  /* no context owns the counter: nothing to fold it into */
            continue;
        }
        c->base[k] += d->span;
        c->overflows[k]++;
        d->st.overflows++;
        if (!c->period[k])
            continue;  /* counting only: the counter runs on from its wrapped value */
        uint64_t count = pmu_read(b, pmd_addr(k)) & d->cmask;
        c->base[k] += count - c->reload[k];  /* the reload keeps the virtual count */
        pmu_write(b, pmd_addr(k), c->reload[k]);
        c->samples[k]++;
        d->st.samples++;
        ita_drv_sample s;
        memset(&s, 0, sizeof s);
        read_capture(d, c->capture[k], &s);  /* still frozen: the capture of the overflow */
        if (d->o.on_sample) {
            s.record = d->st.records ? d->st.records - 1 : 0;
            s.ip = d->last_ip;
            s.pid = c->pid;
            s.cpl = d->last_cpl;
            s.counter = (uint8_t)k;
            d->o.on_sample(d->o.sample_arg, &s);
        }
    }
    /* 4. Clear the overflow bits and unfreeze, in one write. */
    pmu_write(b, A_PMC0, 0);
}

/* ---- context switch (SDM2 §7.2.4, Figure 7-8) ------------------------------------ */

/* The PMDs of a context in register-number order (SDM2 Figure 7-8 preserves and reloads
 * "the PMDs"): the EAR/BTB data below the counters (PMD0..3), the counters the
 * configuration uses, the data above them (PMD8..17).  Reads them into the context
 * (save) or writes them from it (restore). */
static void ctx_pmds(ita_drv *d, drv_ctx *c, int save)
{
    pmu_backend *b = d->b;
    unsigned i = 0;
    for (; i < d->ndata && ITA_ADDR_INDEX(d->data_addr[i]) < ITA_FIRST_COUNTER; i++) {
        if (save)
            c->data[i] = pmu_read(b, d->data_addr[i]);
        else
            pmu_write(b, d->data_addr[i], c->data[i]);
    }
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        if (!c->used[k])
            continue;
        if (save)
            c->pmd[k] = pmu_read(b, pmd_addr(k)) & d->cmask;
        else
            pmu_write(b, pmd_addr(k), c->pmd[k]);
    }
    for (; i < d->ndata; i++) {
        if (save)
            c->data[i] = pmu_read(b, d->data_addr[i]);
        else
            pmu_write(b, d->data_addr[i], c->data[i]);
    }
}

/* Step 2: preserve the context's dynamic state, the PMU frozen (PMC0.fr stops the EARs
 * and the BTB too: docs/ita-ear-btb.md).  The hardware never changes the configuration
 * registers, so the context's copy of them is already current. */
static void ctx_save(ita_drv *d, drv_ctx *c, uint64_t psr)
{
    pmu_backend *b = d->b;
    c->psr_up = (uint8_t)ITA_FGET(psr, PSR, UP);
    c->pmc0 = pmu_read(b, A_PMC0);
    /* Freeze, and clear the overflow bits: a pending overflow now belongs to the saved
     * context (and is replayed when it comes back); the PMU must not show it to whoever
     * runs next.  The PMU stays frozen until a context is restored. */
    pmu_write(b, A_PMC0, ITA_FSET(0, PMC0, FR, 1));
    ctx_pmds(d, c, 1);
    d->st.saves++;
}

/* Steps 3 and 4a: restore configuration, PMDs (counters, EAR and BTB data) and the
 * overflow status, which unfreezes; replay an interrupt that was pending when the
 * context was saved.  The PMU is frozen until that last write (the save, or the
 * session's start, froze it). */
static void ctx_restore(ita_drv *d, drv_ctx *c)
{
    pmu_backend *b = d->b;
    for (unsigned i = 0; i < d->ncfg; i++)
        pmu_write(b, d->cfg_addr[i], c->cfg[i]);
    ctx_pmds(d, c, 0);
    pmu_write(b, A_PMC0, c->pmc0);
    if (ITA_FGET(c->pmc0, PMC0, FR)) {
        post_interrupt(d);
        d->st.replays++;
    }
    c->switch_ins++;
    d->cur = c;
    d->st.restores++;
}

void ita_drv_switch(ita_drv *d, uint16_t pid)
{
    if (!d->started || d->stopped || d->pid == (int32_t)pid)
        return;
    pmu_backend *b = d->b;
    d->st.switches++;
    if (d->o.mode == ITA_DRV_SYSTEM_WIDE && !d->o.per_process) {
        /* One context for everyone: only the incoming process's saved PSR matters,
         * and in a system-wide session the kernel keeps pp set in every process's
         * PSR, so its rfi turns monitoring back on. */
        d->pid = pid;
        pmu_write(b, A_IPSR, pmu_read(b, A_IPSR) | ITA_FMASK(PSR, PP));
        return;
    }
    /* 1. Stop counting: preserve PSR.up and PSR.pp, clear them. */
    uint64_t psr = pmu_read(b, A_PSR);
    pmu_write(b, A_PSR, psr & ~PSR_BITS);
    /* 2. Preserve the outgoing context. */
    if (d->cur) {
        ctx_save(d, d->cur, psr);
        d->cur = NULL;
    }
    /* 3. Restore the incoming one, if it is monitored. */
    drv_ctx *in = ctx_for(d, pid);
    if (in)
        ctx_restore(d, in);
    /* 4b. Restore PSR (and IPSR, which the kernel's rfi back to the process will copy
     *     into PSR). */
    if (d->o.mode == ITA_DRV_PER_PROCESS) {
        uint64_t up = in ? ITA_FSET(0, PSR, UP, in->psr_up) : 0;
        pmu_write(b, A_IPSR, (pmu_read(b, A_IPSR) & ~PSR_BITS) | up);
        pmu_write(b, A_PSR, (psr & ~PSR_BITS) | up);
    } else {
        pmu_write(b, A_IPSR, pmu_read(b, A_IPSR) | ITA_FMASK(PSR, PP));
        pmu_write(b, A_PSR, psr);
    }
    d->pid = pid;
}

int ita_drv_start(ita_drv *d, uint16_t pid, pmu_err *err)
{
    if (d->started) {
        pmu_errf(err, PMU_E_INPUT, "start: the session has started already");
        return -1;
    }
    pmu_backend *b = d->b;
    int sys = d->o.mode == ITA_DRV_SYSTEM_WIDE;
    /* Frozen while the session is set up; monitoring off until a context runs. */
    pmu_write(b, A_PMC0, ITA_FSET(0, PMC0, FR, 1));
    pmu_write(b, A_DCR, ITA_FSET(0, DCR, PP, sys ? d->o.dcr_pp != 0 : 0));
    pmu_write(b, A_PSR, 0);
    pmu_write(b, A_IPSR, 0);
    d->started = 1;
    if (sys && !d->o.per_process) {
        drv_ctx *c = ctx_add(d, ITA_DRV_ALL_PIDS);
        if (!c) {
            pmu_errf(err, PMU_E_NOMEM, "start: out of memory");
            return -1;
        }
        *c = d->default_ctx;
        c->pid = ITA_DRV_ALL_PIDS;
        ctx_restore(d, c);
        pmu_write(b, A_IPSR, ITA_FMASK(PSR, PP));
        pmu_write(b, A_PSR, ITA_FMASK(PSR, PP));
        d->pid = pid;
        return 0;
    }
    ita_drv_switch(d, pid);
    d->st.switches = 0; /* the first switch-in is the start, not a switch */
    if (sys)
        pmu_write(b, A_PSR, ITA_FMASK(PSR, PP));
    return 0;
}

/* ---- the harness side ---------------------------------------------------------------- */

void ita_drv_before_step(ita_drv *d, ita_cycle *c)
{
    if (d->stopped)
        return;
    if (!d->started)
        ita_drv_start(d, c->pid, NULL);
    else if ((int32_t)c->pid != d->pid)
        ita_drv_switch(d, c->pid);
    /* PSR policy (docs/ita-driver.md): PSR.pp is set only by privileged code, and in a
     * session that is this driver; a process the per-process session does not monitor
     * runs with PSR.sp = 1, so its sum/rum do not reach PSR.up, and the IPSR.up its
     * rfi restores is the 0 the switch wrote. */
    if (c->pp_we) {
        c->pp_we = 0;
        c->pp = 0;
    }
    if (d->o.mode == ITA_DRV_PER_PROCESS && !d->cur && c->up_we) {
        c->up_we = 0;
        c->up = 0;
    }
}

void ita_drv_after_step(ita_drv *d, const ita_cycle *c, int pmi)
{
    if (!d->started || d->stopped)
        return;
    d->st.records++;
    if (c->nslots > 0 && c->nslots <= ITA_MAX_SLOTS)
        d->last_ip = c->slot[c->nslots - 1].ip;
    d->last_cpl = c->cpl;
    if (pmi)
        post_interrupt(d);
    if (d->pending) {
        if (d->wait == 0)
            ita_drv_interrupt(d);
        else
            d->wait--;
    }
}

void ita_drv_step(ita_drv *d, ita_cycle *c)
{
    ita_drv_before_step(d, c);
    pmu_step(d->b, c);
    pmu_state st;
    pmu_snapshot(d->b, &st);
    ita_drv_after_step(d, c, st.pmi);
}

void ita_drv_stop(ita_drv *d)
{
    if (!d->started || d->stopped)
        return;
    pmu_backend *b = d->b;
    if (d->pending)
        ita_drv_interrupt(d);
    uint64_t psr = pmu_read(b, A_PSR);
    pmu_write(b, A_PSR, psr & ~PSR_BITS);
    if (d->cur) {
        ctx_save(d, d->cur, psr); /* which leaves the PMU frozen */
        d->cur = NULL;
    } else {
        pmu_write(b, A_PMC0, ITA_FSET(0, PMC0, FR, 1));
    }
    d->stopped = 1;
}

/* ---- reading ----------------------------------------------------------------------------- */

static uint64_t counter_value(ita_drv *d, const drv_ctx *c, unsigned k)
{
    if (!c->used[k])
        return 0;
    uint64_t pmc0 = c->pmc0, count = c->pmd[k];
    if (c == d->cur) {
        pmc0 = pmu_read(d->b, A_PMC0);
        count = pmu_read(d->b, pmd_addr(k)) & d->cmask;
    }
    return c->base[k] + count + ((pmc0 & ovf_bit(k)) ? d->span : 0);
}

int ita_drv_read(ita_drv *d, uint32_t pid, unsigned counter, uint64_t *value)
{
    const drv_ctx *c = ctx_find(d, pid);
    if (!c || counter >= ITA_NCOUNTERS)
        return -1;
    *value = counter_value(d, c, counter);
    return 0;
}

uint64_t ita_drv_total(ita_drv *d, unsigned counter)
{
    uint64_t sum = 0;
    if (counter >= ITA_NCOUNTERS)
        return 0;
    for (unsigned i = 0; i < d->nctx; i++)
        sum += counter_value(d, d->ctx[i], counter);
    return sum;
}

unsigned ita_drv_ncontexts(const ita_drv *d) { return d->nctx; }

uint32_t ita_drv_context_pid(const ita_drv *d, unsigned i)
{
    return i < d->nctx ? d->ctx[i]->pid : 0;
}

int ita_drv_context_info(const ita_drv *d, uint32_t pid, ita_drv_ctx_info *info)
{
    const drv_ctx *c = ctx_find(d, pid);
    if (!c)
        return -1;
    memset(info, 0, sizeof *info);
    info->pid = c->pid;
    info->loaded = c == d->cur;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        info->overflows[k] = c->overflows[k];
        info->samples[k] = c->samples[k];
    }
    info->switch_ins = c->switch_ins;
    return 0;
}

const ita_drv_stats *ita_drv_get_stats(const ita_drv *d) { return &d->st; }
int32_t ita_drv_current_pid(const ita_drv *d) { return d->pid; }
int ita_drv_started(const ita_drv *d) { return d->started; }
