/*
 * cmd_conform.c - the 21264/EV67 family's part of its conformance hooks
 * (include/cli/pmu_setup_cmds.h, pmu_setup_conform): everything random in a `pmusim conform
 * --family alpha21264` run apart from the stream.
 *
 * From the run's seed, one of two kinds of software answers the interrupt line:
 *   - the harness's service with random register activity: both modes and every SL1 row,
 *     the enables (I_CTL, PCTX through its index-selected write, IER_CM), counters
 *     written near and above their legal maxima (the precautions' cases), the double
 *     write, HW_INT_CLR, writes of any value to any address, reads of every register, and
 *     a service that answers the line as the HRM's handlers do (read the Table 6-13
 *     registers, HW_INT_CLR, rewrite PCTR_CTL) after a random delay;
 *   - the family's software under a random setup: the perf driver with one event or an
 *     allowed pair and short periods, or the ProfileMe sampler, whose results must then
 *     be exact (session.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/ev67/ev67_regs.h"
#include "cli/ev67/ev67_session.h"
#include "ev67_cmds_internal.h"
#include "common/pmu_rng.h"

static unsigned below(pmu_rng *r, unsigned n) { return (unsigned)pmu_rng_below(r, n); }

/* A counter value: mostly legal, often at the edges that matter (near the top, just past
 * the legal maximum: the precautions' cases), sometimes anything. */
static uint64_t counter_value(pmu_rng *r, unsigned n)
{
    uint64_t top = (1ull << EV67_CTR0_WIDTH) - 1, wmax = n ? EV67_CTR1_WMAX : EV67_CTR0_WMAX;
    switch (below(r, 6)) {
    case 0: return 0;
    case 1: return wmax - below(r, 64);
    case 2: return wmax + 1 + below(r, (unsigned)(top - wmax));
    case 3: return top - below(r, 4);
    default: return pmu_rng_below(r, top + 1);
    }
}

static uint64_t random_pctr_ctl(pmu_rng *r)
{
    uint64_t v = below(r, 8) == 0 ? pmu_rng_next(r) : 0;
    v = EV67_FSET(v, PCTR_CTL, SL0, below(r, 2));
    v = EV67_FSET(v, PCTR_CTL, SL1, below(r, 4));
    v = EV67_FSET(v, PCTR_CTL, PCTR0, counter_value(r, 0));
    return EV67_FSET(v, PCTR_CTL, PCTR1, counter_value(r, 1));
}

static void activity(pmu_backend *b, pmu_rng *r)
{
    switch (below(r, 400)) {
    case 0: pmu_write(b, EV67_ADDR_PCTR_CTL, random_pctr_ctl(r)); break;
    case 1: { /* the reset PALcode's double write (HRM §6.10.1) */
        uint64_t v = random_pctr_ctl(r);
        pmu_write(b, EV67_ADDR_PCTR_CTL, v);
        pmu_write(b, EV67_ADDR_PCTR_CTL, v);
        break;
    }
    case 2: {
        uint64_t v = 0;
        v = EV67_FSET(v, I_CTL, SPCE, below(r, 4) != 0);
        v = EV67_FSET(v, I_CTL, PCT0_EN, below(r, 4) != 0);
        v = EV67_FSET(v, I_CTL, PCT1_EN, below(r, 4) != 0);
        pmu_write(b, EV67_ADDR_I_CTL, below(r, 8) ? v : pmu_rng_next(r));
        break;
    }
    case 3: pmu_write(b, (uint16_t)(EV67_ADDR_PCTX + below(r, 32)), pmu_rng_next(r)); break;
    case 4: pmu_write(b, EV67_ADDR_IER_CM, EV67_FSET(0, IER_CM, PCEN, below(r, 4))); break;
    case 5: pmu_write(b, EV67_ADDR_HW_INT_CLR, pmu_rng_next(r)); break;
    case 6: pmu_read(b, (uint16_t)below(r, 0x120)); break;
    case 7: pmu_write(b, (uint16_t)below(r, 0x120), pmu_rng_next(r)); break;
    default: break;
    }
}

/* The interrupt service: the Table 6-13 registers, the requests cleared (sometimes
 * twice), and mostly the counters rewritten: the next window, the next period. */
static void service(pmu_backend *b, pmu_rng *r)
{
    pmu_read(b, EV67_ADDR_ISUM);
    pmu_read(b, EV67_ADDR_PMPC);
    pmu_read(b, EV67_ADDR_I_STAT);
    uint64_t ctl = pmu_read(b, EV67_ADDR_PCTR_CTL);
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, 3));
    if (below(r, 4) == 0)
        pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, 3));
    if (below(r, 4))
        pmu_write(b, EV67_ADDR_PCTR_CTL, EV67_FSET(EV67_FSET(ctl, PCTR_CTL, PCTR0, counter_value(r, 0)), PCTR_CTL,
                                                   PCTR1, counter_value(r, 1)));
}

/* Counting in a random mode with interrupts enabled, as a driver would start. */
static void program(pmu_backend *b, pmu_rng *r)
{
    pmu_write(b, EV67_ADDR_IER_CM, EV67_FSET(0, IER_CM, PCEN, 3));
    pmu_write(b, EV67_ADDR_I_CTL,
              EV67_FSET(EV67_FSET(EV67_FSET(0, I_CTL, SPCE, 1), I_CTL, PCT0_EN, 1), I_CTL, PCT1_EN, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, random_pctr_ctl(r));
}

/* A random setup of the family's software, with short periods: many interrupts. */
static void random_setup(pmu_rng *r, unsigned model, const pmu_gen *layout, void *setup)
{
    static const unsigned sets[][EV67_PERF_MAX_EVENTS + 1] = {
        {1, EV67_CYCLES}, {1, EV67_INSTRUCTIONS}, {1, EV67_BCACHEMISS}, {1, EV67_MBOXREPLAY},
        {2, EV67_INSTRUCTIONS, EV67_CYCLES}, {2, EV67_CYCLES, EV67_INSTRUCTIONS},
        {2, EV67_INSTRUCTIONS, EV67_BCACHEMISS}, {2, EV67_BCACHEMISS, EV67_INSTRUCTIONS},
        {2, EV67_CYCLES, EV67_MBOXREPLAY}, {2, EV67_MBOXREPLAY, EV67_CYCLES}};
    ev67_setup *s = setup;
    (void)layout;
    ev67_setup_default(s);
    s->model = model;
    s->mode = below(r, 2) ? EV67_SETUP_PROFILEME : EV67_SETUP_PERF;
    const unsigned *set = sets[below(r, sizeof sets / sizeof sets[0])];
    s->nevents = set[0];
    for (unsigned i = 0; i < s->nevents; i++) {
        s->events[i] = set[1 + i];
        s->periods[i] = below(r, 8) == 0 ? 0 : 1 + below(r, below(r, 2) ? 64 : 4096);
    }
    s->pme_period = 1 + below(r, below(r, 2) ? 64 : 2048);
    s->sl1 = below(r, 4);
}

static uint64_t interrupts(void *session) { return ev67_session_interrupts(session); }
static int check(void *session, FILE *out) { return ev67_session_check(session, 1, out); }

const pmu_setup_conform ev67_conform = {
    .salt = 0x6576363772756eull,
    .program = program, .activity = activity, .service = service, .service_first = 0,
    .long_delay = 500, .short_delay = 8,
    .random_setup = random_setup, .interrupts = interrupts, .check = check,
};
