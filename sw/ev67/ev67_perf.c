/*
 * ev67_perf.c - the perf driver's counters: reset, periods, the 64-bit virtual counts and
 * the interrupt handler (ev67_perf_drv.h, docs/ev67-perf.md), after Linux alpha
 * perf_event.c (alpha_perf_event_update, alpha_perf_event_set_period,
 * alpha_perf_event_irq_handler) and the HRM's precautions (§5.2.11, §6.10.1), on the
 * block as docs/ev67.md models it.
 *
 * Virtual count of event i: count[i] + (hardware value - prev[i]) mod 2^20, where prev is
 * the value at the last update, plus 2^20 for a carry the values cannot show.  A carry is
 * read from the values (new < prev) where they show it, not from ISUM, because ISUM is
 * late (the overflow latch delivers two steps after the carry) and can hide (the read
 * race).  The values cannot show the carry of a period within a few events of 2^20-1
 * (Linux's default): the counter restarts near 1 and has counted past it again when the
 * handler runs.  That carry is taken from the interrupt, as Linux does, when the request
 * is the counter's and its period has not ended in the books: the handler leaves the
 * latch empty (two PCTR_CTL writes), so every later request is a carry made after it
 * (docs/ev67-perf.md, "What is exact and why").
 */
#include "sw/ev67/ev67_perf_drv.h"

#include <errno.h>
#include <stdlib.h>

#include "ev67_hw.h"

struct ev67_perf {
    pmu_backend *b;
    ev67_perf_plan plan;
    unsigned active;                          /* counters in use, bit n counter n */
    uint32_t period[EV67_PERF_MAX_EVENTS];    /* clamped sampling period */
    int64_t left[EV67_PERF_MAX_EVENTS];       /* events to the end of the period */
    uint32_t prev[EV67_PERF_MAX_EVENTS];      /* counter value at the last update */
    uint64_t count[EV67_PERF_MAX_EVENTS];     /* 64-bit count up to prev */
    uint8_t pending;                          /* the line after the last record */
    ev67_perf_stats st;
};

static uint32_t ctr_mask(unsigned n) { return ev67_perf_max_period(n); }

/* ---- update and period (alpha_perf_event_update, alpha_perf_event_set_period) ---- */

/* Folds the counters' values in pctr_ctl (a read of PCTR_CTL) into every event's count.
 * req: the counters whose overflow request the handler saw (ISUM.PC, race cured), 0 for
 * a read.  A requesting counter whose period has not ended (left > 0) and whose value
 * shows no carry has carried and counted past its previous value again: a whole 2^20
 * more (Linux alpha_perf_event_update's ovf). */
static void update(ev67_perf *d, uint64_t pctr_ctl, unsigned req)
{
    for (unsigned i = 0; i < d->plan.nevents; i++) {
        unsigned n = d->plan.pmc[i];
        uint32_t now = ev67_hw_ctr_get(pctr_ctl, n);
        uint64_t delta = (now - d->prev[i]) & ctr_mask(n);
        if (now >= d->prev[i] && (req >> n & 1u) && d->left[i] > 0)
            delta += (uint64_t)ctr_mask(n) + 1;
        d->count[i] += delta;
        d->left[i] -= (int64_t)delta;
        d->prev[i] = now;
    }
}

/* The next period of event i; returns the counter value to write, (-left) & mask.
 * left is kept equal to what the counter will count before it carries (Linux keeps the
 * unclamped value), so that a carry is exactly a period's end (docs/ev67-perf.md). */
static uint32_t set_period(ev67_perf *d, unsigned i)
{
    unsigned n = d->plan.pmc[i];
    int64_t period = d->period[i], left = d->left[i];
    if (left <= -period)
        left = period;
    else if (left <= 0)
        left += period;
    if (left < (int64_t)ev67_perf_pmc_left(n))
        left = ev67_perf_pmc_left(n);
    if (left > (int64_t)ev67_perf_max_period(n))
        left = ev67_perf_max_period(n);
    d->left[i] = left;
    d->prev[i] = (uint32_t)(-left) & ctr_mask(n);
    return d->prev[i];
}

/* PCTR_CTL in aggregate mode (SL0 = 0) with the plan's SL1 and these counter values. */
static uint64_t pctr_ctl(const ev67_perf *d, uint32_t c0, uint32_t c1)
{
    uint64_t v = EV67_FSET(0, PCTR_CTL, SL1, d->plan.sl1);
    return ev67_hw_ctr_set(ev67_hw_ctr_set(v, 0, c0), 1, c1);
}

/* ---- reset (HRM §6.10.1; coreboot ev6 start.inc) ---- */

static void reset_block(ev67_perf *d)
{
    /* Nothing counts or interrupts; zeros twice, HW_INT_CLR twice (ev67_hw_quiesce). */
    ev67_hw_quiesce(d->b, pctr_ctl(d, 0, 0));
    /* The first periods (unused counters stay 0, far from the threshold: never parked). */
    uint32_t v[EV67_NCOUNTERS] = {0, 0};
    for (unsigned i = 0; i < d->plan.nevents; i++)
        v[d->plan.pmc[i]] = set_period(d, i);
    ev67_hw_start(d->b, pctr_ctl(d, v[0], v[1]), d->active, d->active);
}

ev67_perf *ev67_perf_create(pmu_backend *b, const unsigned *events, const uint64_t *periods,
                            unsigned n, pmu_err *err)
{
    if (ev67_hw_check_block(b, "perf driver", err) != 0)
        return NULL;
    ev67_perf_plan plan;
    if (ev67_perf_plan_events(events, n, &plan, err) != 0)
        return NULL;
    ev67_perf *d = calloc(1, sizeof *d);
    if (!d)
        return pmu_errf(err, PMU_E_NOMEM, "perf driver: out of memory"), NULL;
    d->b = b;
    d->plan = plan;
    for (unsigned i = 0; i < n; i++) {
        d->active |= 1u << plan.pmc[i];
        d->period[i] = ev67_perf_clamp_period(plan.pmc[i], periods ? periods[i] : 0);
        d->left[i] = d->period[i];
    }
    reset_block(d);
    return d;
}

void ev67_perf_destroy(ev67_perf *d) { free(d); }

/* ---- the interrupt handler (alpha_perf_event_irq_handler) ---- */

static void handle_interrupt(ev67_perf *d, const ev67_cycle *rec)
{
    pmu_backend *b = d->b;
    d->st.interrupts++;
    /* Which counters fired, and 1. disable every counter in use (Linux:
     * wrperfmon(DISABLE, idx_mask)): ISUM read, disable, read again and OR (the HRM
     * §5.2.11 race cure, ev67_hw_isum_disable).  The write clock also makes the next
     * PCTR_CTL read exact (no disabled-read increment). */
    int first_zero = 0;
    unsigned isum = ev67_hw_isum_disable(b, &first_zero);
    if (first_zero)
        d->st.isum_zero++;
    /* 2. Update every event, not only the fired ones: a carry still in the overflow
     * latch (made in the last two steps) is seen in the values here, and step 3's writes
     * empty the latch. */
    uint64_t now = pmu_read(b, EV67_ADDR_PCTR_CTL);
    update(d, now, isum);
    uint32_t v[EV67_NCOUNTERS] = {0, 0};
    unsigned due = 0;
    for (unsigned i = 0; i < d->plan.nevents; i++) {
        unsigned n = d->plan.pmc[i];
        v[n] = ev67_hw_ctr_get(now, n);
        if (isum & (1u << n))
            d->st.fired[i]++;
        if (d->left[i] <= 0)
            due |= 1u << i;
    }
    /* 3. Set the period of each event whose period elapsed, and 4. account the sample.
     * PCTR_CTL is written twice, both counters each time (every write shifts the latch
     * once, HRM §6.10.1): the latch is then empty, its carries all accounted in step 2,
     * so a request that comes later is a carry made after this run, never a stale one. */
    if (due) {
        for (unsigned i = 0; i < d->plan.nevents; i++)
            if (due & (1u << i)) {
                v[d->plan.pmc[i]] = set_period(d, i);
                d->st.samples[i]++;
                d->st.last_pc[i] = rec ? rec->pc : 0;
            }
        uint64_t ctl = pctr_ctl(d, v[0], v[1]);
        pmu_write(b, EV67_ADDR_PCTR_CTL, ctl);
        pmu_write(b, EV67_ADDR_PCTR_CTL, ctl);
    } else {
        d->st.spurious++;
    }
    /* 5. Enable again, and acknowledge every counter in use: each request's carry is in
     * the update above, and a counter the write found at its threshold got a PAL-exit
     * interrupt that is only the write's echo. */
    pmu_write(b, EV67_ADDR_I_CTL, ev67_hw_i_ctl(d->active));
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, d->active));
}

void ev67_perf_before(ev67_perf *d, const ev67_cycle *rec)
{
    d->st.records++;
    if (d->pending) {
        d->pending = 0;
        handle_interrupt(d, rec);
    }
}

void ev67_perf_after(ev67_perf *d, uint8_t pmi) { d->pending = pmi != 0; }

/* ---- queries ---- */

int ev67_perf_read(ev67_perf *d, unsigned i, uint64_t *out)
{
    if (!d || i >= d->plan.nevents || !out)
        return -EINVAL;
    /* The counters in use are enabled here, so the read shows their true values.  A
     * carry the values cannot show (a period within a few events of 2^20-1) is added when
     * its interrupt is taken, as in Linux's read (docs/ev67-perf.md). */
    update(d, pmu_read(d->b, EV67_ADDR_PCTR_CTL), 0);
    *out = d->count[i];
    return 0;
}

uint32_t ev67_perf_period(const ev67_perf *d, unsigned i)
{
    return i < d->plan.nevents ? d->period[i] : 0;
}

const ev67_perf_plan *ev67_perf_get_plan(const ev67_perf *d) { return &d->plan; }

const ev67_perf_stats *ev67_perf_get_stats(const ev67_perf *d) { return &d->st; }
