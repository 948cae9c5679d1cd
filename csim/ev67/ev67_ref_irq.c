/*
 * ev67_ref_irq.c - the interrupt side of the Alpha 21264/EV67 reference model
 * (docs/ev67.md, "Interrupts" and "Precautions"; HRM §5.2.11, §6.10.1): the two-stage
 * overflow latch, its hold-back while a disabled counter is parked at the overflow
 * threshold, PAL-exit interrupts armed by a PCTR_CTL write, the mode of the last record
 * (interrupts held off in PALmode) and the ISUM read race.  Bit n of every mask here is
 * counter n, as in OBS_INT.
 */
#include "ev67_ref_internal.h"

/* Counters whose true count is above their legal write maximum (docs/ev67.md near(n)). */
static unsigned near_mask(const ev67_ref *m)
{
    unsigned v = 0;
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++)
        v |= (unsigned)(ev67_ctr_near(n, m->ctr[n]) != 0) << n;
    return v;
}

void ev67_ref_step_start(ev67_ref *m, ev67_step_in *in)
{
    unsigned en = 0;
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        in->en[n] = ev67_ref_en(m, n);
        en |= in->en[n] << n;
    }
    in->parked = (near_mask(m) & ~en) != 0;
    in->isum_before = m->req & ev67_ref_pcen(m);
}

void ev67_ref_latch(ev67_ref *m, const ev67_step_in *in, const ev67_count_out *out)
{
    unsigned carry = 0;
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        carry |= (out->carry[n] != 0) << n;
        m->overflows[n] += out->carry[n] != 0;
    }
    if (m->params.park_block && in->parked) {
        m->s2 |= m->s1; /* delivery held back (HRM §6.10.1, restriction 32) */
    } else {
        m->req |= m->s2;
        m->s2 = m->s1;
    }
    m->s1 = carry;
}

void ev67_ref_pal_exit(ev67_ref *m, const ev67_step_in *in)
{
    if (!in->rec->pal) {
        m->req |= m->pexit;
        m->pexit = 0;
    }
}

void ev67_ref_step_end(ev67_ref *m, const ev67_step_in *in, unsigned req_before)
{
    m->pal = in->rec->pal != 0;
    m->race = ((m->req & ev67_ref_pcen(m)) & ~in->isum_before) != 0;
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++)
        m->requests[n] += ((m->req & ~req_before) >> n) & 1;
}

void ev67_ref_write_arm(ev67_ref *m) { m->pexit |= near_mask(m); }

void ev67_ref_write_shift(ev67_ref *m)
{
    /* One write shifts the latch once: the bit in S2 is lost (HRM §6.10.1, D.28). */
    m->s2 = m->s1;
    m->s1 = 0;
}
