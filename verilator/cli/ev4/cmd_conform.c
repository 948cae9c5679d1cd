/*
 * cmd_conform.c - the 21064 family's part of its conformance hooks (include/cli/pmu_setup_cmds.h,
 * pmu_setup_conform): everything random in a `pmusim conform --family alpha21064` run apart
 * from the stream.
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

#include "sw/ev4/ev4_pfcntr_sw.h"
#include "common/ev4/ev4_regs.h"
#include "cli/ev4/ev4_session.h"
#include "ev4_cmds_internal.h"
#include "common/pmu_rng.h"

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

/* The service: the requests cleared through SL_CLR (mostly). */
static void service(pmu_backend *b, pmu_rng *r)
{
    uint64_t hirr = pmu_read(b, EV4_ADDR_HIRR), clr = ~0ull;
    if (EV4_FGET(hirr, HIRR, PC0) && below(r, 4))
        clr = EV4_FSET(clr, SL_CLR, PC0, 0);
    if (EV4_FGET(hirr, HIRR, PC1) && below(r, 4))
        clr = EV4_FSET(clr, SL_CLR, PC1, 0);
    pmu_write(b, EV4_ADDR_SL_CLR, clr);
}

/* Reprogramming, writes of anything anywhere, reads. */
static void activity(pmu_backend *b, pmu_rng *r)
{
    switch (below(r, 4000)) {
    case 0: pmu_write(b, EV4_ADDR_ICCSR, random_iccsr(r)); break;
    case 1: pmu_write(b, EV4_ADDR_HIER, random_hier(r)); break;
    case 2: pmu_write(b, (uint16_t)below(r, 0x100), pmu_rng_next(r)); break;
    case 3: pmu_read(b, (uint16_t)below(r, 0x100)); break;
    case 4: pmu_write(b, EV4_ADDR_SL_CLR, pmu_rng_next(r)); break;
    default: break;
    }
}

static void program(pmu_backend *b, pmu_rng *r)
{
    pmu_write(b, EV4_ADDR_ICCSR, random_iccsr(r));
    pmu_write(b, EV4_ADDR_HIER, random_hier(r));
}

/* A random pfm setup on the one CPU; without functions in the records (random mode), no
 * profiling. */
static void random_setup(pmu_rng *r, unsigned model, const pmu_gen *layout, void *setup)
{
    ev4_setup *s = setup;
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
    if (s->prof != EV4_PROF_NONE && (!layout || pmu_gen_nfuncs(layout) == 0)) {
        s->items &= ~(unsigned)PFM_PROFILING;
        s->prof = EV4_PROF_NONE;
        if (!s->items)
            s->items = PFM_COUNTERS;
    }
}

const pmu_setup_conform ev4_conform = {
    .salt = 0x657634636f6e66ull,
    .program = program, .activity = activity, .service = service, .service_first = 1,
    .long_delay = 2000, .short_delay = 20,
    .random_setup = random_setup, .interrupts = ev4_service_interrupts, .check = ev4_service_check,
};
