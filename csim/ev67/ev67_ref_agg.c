/*
 * ev67_ref_agg.c - aggregate counting in the Alpha 21264/EV67 reference model
 * (docs/ev67.md, "Aggregate counting"): the counted retires with their catch-up backlog
 * (HRM §6.10.2.3), the Bcache gate delayed by the input's phase shift, the inputs of
 * HRM Table 5-16, and the disabled-read increments of the read quirk (HRM §6.10.1).
 */
#include "ev67_ref_internal.h"

_Static_assert((int)EV67_F_OBS_AGG_BCG_WIDTH == (int)EV67_LIM_BCACHE_EARLY,
               "include/common/ev67/ev67_regs.def: OBS_AGG.BCG holds one bit per step of the Bcache shift");

static unsigned at_most(unsigned v, unsigned max) { return v < max ? v : max; }

void ev67_ref_retire_gate(ev67_ref *m, ev67_step_in *in)
{
    const ev67_cycle *c = in->rec;
    /* Step 2: every step, whatever the mode and enables; a record's counts above their
     * array are read as the array's size, and BACKLOG saturates (docs/ev67.md, "The
     * record"). */
    const unsigned t = m->backlog + at_most(c->nretire, EV67_LIM_RETIRE_MAX);
    in->d = at_most(t, EV67_LIM_RETIRE_ADD_MAX);
    m->backlog = at_most(t - in->d, EV67_LIM_BACKLOG_MAX);
    /* Step 3: the gate is counter 1's enable EV67_LIM_BCACHE_EARLY steps ago. */
    in->g = (m->bcg >> (EV67_LIM_BCACHE_EARLY - 1)) & 1;
    m->bcg = ((m->bcg << 1) | in->en[1]) & ((1u << EV67_LIM_BCACHE_EARLY) - 1);
    in->bcmiss = c->bcmiss != 0;
    in->mreplay = c->mreplay != 0;
}

unsigned ev67_ref_input(ev67_kind k, const ev67_step_in *in, unsigned head_is_p)
{
    switch (k) {
    case EV67_KIND_RETIRED:
        return in->d;
    case EV67_KIND_CYCLES:
        return 1;
    case EV67_KIND_BCACHE:
        return in->bcmiss;
    case EV67_KIND_MBOXREPLAY:
        return in->mreplay;
    case EV67_KIND_INUMDELAY:
        return head_is_p;
    case EV67_KIND_UNDEF:
    default:
        return 0;
    }
}

void ev67_ref_count_aggregate(ev67_ref *m, const ev67_step_in *in, ev67_count_out *out)
{
    const unsigned sl1 = ev67_ref_sl1(m);
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        const ev67_kind k = ev67_sel_kind(0, sl1, n);
        /* The Bcache input is gated by the delayed enable, not by en(1) now. */
        const unsigned gate = k == EV67_KIND_BCACHE ? in->g : in->en[n];
        out->carry[n] = ev67_ref_add(m, n, gate ? ev67_ref_input(k, in, 0) : 0);
    }
}

void ev67_ref_quirk_incs(ev67_ref *m, const ev67_step_in *in)
{
    /* The aggregate input for the current SL1, whatever SL0, the phase, the gate and the
     * enables say (docs/ev67.md, precaution 5); counter 0's retires shown up to 4. */
    const unsigned sl1 = ev67_ref_sl1(m);
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        const ev67_kind k = ev67_sel_kind(0, sl1, n);
        const unsigned inc = ev67_ref_input(k, in, 0);
        m->qinc[n] = k == EV67_KIND_RETIRED ? at_most(inc, EV67_LIM_QUIRK0_MAX) : inc;
    }
}
