/*
 * ev67_ref_pm.c - the ProfileMe machine of the Alpha 21264/EV67 reference model
 * (docs/ev67.md, "ProfileMe"; HRM §6.10.3): in ARMED counter 0 counts valid fetched
 * instructions and the fetch that makes it overflow becomes the profiled instruction P;
 * in SELECTED the next step's fetches are the overcount, the window counts from the 5th
 * step after P's fetch to the 2nd step after P's end event, and the events naming P
 * build its record; at the window's end the record goes to PMPC, I_STAT and PCTR_CTL
 * with counter 0's interrupt, and nothing counts (STOPPED) until PCTR_CTL is written.
 */
#include <string.h>

#include "ev67_ref_internal.h"

#define PM_END_NONE 0xffu

static unsigned at_most(unsigned v, unsigned max) { return v < max ? v : max; }

/* Tag order: tags are sequence numbers mod 2^32 (ev67_cycle.h, R1), so a >= b is read
 * as "a is b or younger" (docs/ev67.md, "Reference model"). */
static int tag_ge(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

static int tag_in(uint32_t tag, const uint32_t *list, unsigned n, unsigned max)
{
    for (unsigned i = 0; i < at_most(n, max); i++)
        if (list[i] == tag)
            return 1;
    return 0;
}

/* The fetch f becomes P, in step m->base.cycle. */
static void select_p(ev67_ref *m, const ev67_fetch *f)
{
    ev67_pm *pm = &m->pm;
    memset(pm, 0, sizeof *pm);
    pm->phase = EV67_PM_SELECTED;
    pm->tag = f->tag;
    pm->pmpc = EV67_FSET(EV67_FSET(0, OBS_PMPC, PC, f->pc >> EV67_F_OBS_PMPC_PC_LSB), OBS_PMPC, PAL,
                         (f->flags & EV67_FF_PAL) != 0);
    pm->icm = (f->flags & EV67_FF_ICM) != 0;
    pm->tak = (f->flags & EV67_FF_TAKEN) != 0;
    pm->fetch_step = m->base.cycle;
    pm->end_kind = PM_END_NONE;
}

/* The record's events naming P, in the record's order (docs/ev67.md "Events naming
 * P"): stalls, the trap and KBM up to and including the end event's step E; P's retire
 * up to and including the window's last step. */
static void note_events(ev67_pm *pm, const ev67_cycle *c)
{
    const unsigned open = !pm->ended;
    unsigned end = PM_END_NONE;
    if (open && c->nstall && (uint32_t)(pm->tag - c->stall_first) < c->nstall)
        pm->stalled = 1;
    if (open && c->trap && c->trap_tag == pm->tag) {
        pm->trp = 1;
        pm->trap_type = c->trap_type;
        pm->mis = c->trap_mis != 0;
        pm->lso = c->trap_lso != 0;
        end = EV67_PM_END_TRAP;
    }
    const int retired = tag_in(pm->tag, c->retire, c->nretire, EV67_RETIRE_MAX);
    if (retired)
        pm->val = 1;
    if (!open)
        return;
    const int squashed = tag_in(pm->tag, c->squash, c->nsquash, EV67_SQUASH_MAX);
    /* The abort range covers P when P is still in flight after the retires and squashes. */
    const int aborted = c->abort && !retired && !squashed && tag_ge(pm->tag, c->abort_first);
    if (aborted && tag_ge(pm->tag, c->kbm_first))
        pm->kbm = 1;
    if (end == PM_END_NONE)
        end = retired ? EV67_PM_END_RETIRE : squashed ? EV67_PM_END_SQUASH : aborted ? EV67_PM_END_ABORT : PM_END_NONE;
    if (end != PM_END_NONE) {
        pm->ended = 1;
        pm->endcnt = 0;
        pm->end_kind = end;
    }
}

static void count_armed(ev67_ref *m, const ev67_step_in *in)
{
    const ev67_cycle *c = in->rec;
    if (!in->en[0])
        return; /* selection needs en(0) */
    const unsigned nfetch = at_most(c->nfetch, EV67_FETCH_MAX);
    const uint32_t before = m->ctr[0];
    /* The carry of the selecting fetch is not an overflow: it does not enter the latch. */
    (void)ev67_ref_add(m, 0, nfetch);
    if ((uint64_t)before + nfetch <= ev67_ref_ctr_mask(0))
        return;
    /* The fetch whose count makes PCTR0 overflow, in fetch order (HRM §6.10.3). */
    select_p(m, &c->fetch[ev67_ref_ctr_mask(0) - before]);
    note_events(&m->pm, c);
}

static void count_selected(ev67_ref *m, const ev67_step_in *in, ev67_count_out *out)
{
    const ev67_cycle *c = in->rec;
    ev67_pm *pm = &m->pm;
    pm->age = at_most(pm->age + 1, EV67_LIM_PME_OPEN);
    if (pm->ended)
        pm->endcnt++;
    if (pm->age == EV67_LIM_PME_OVR) {
        /* The overcount: the fetches of the step after P's (a PCTR0 carry is dropped). */
        if (in->en[0])
            (void)ev67_ref_add(m, 0, at_most(c->nfetch, EV67_FETCH_MAX));
        pm->ovr = m->ctr[0] & (EV67_FMASK(OBS_PM, OVR) >> EV67_F_OBS_PM_OVR_LSB);
    } else if (pm->age >= EV67_LIM_PME_OPEN) {
        /* The window: ProfileMe inputs; only counter 1's carry enters the latch. */
        const unsigned sl1 = ev67_ref_sl1(m);
        for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
            const ev67_kind k = ev67_sel_kind(1, sl1, n);
            const unsigned carry = in->en[n] ? ev67_ref_add(m, n, ev67_ref_input(k, in, c->head == pm->tag)) : 0;
            out->carry[n] = n == 1 ? carry : 0;
        }
    }
    note_events(pm, c);
    if (pm->ended && pm->endcnt == EV67_LIM_PME_END)
        out->window_end = 1;
}

void ev67_ref_count_profileme(ev67_ref *m, const ev67_step_in *in, ev67_count_out *out)
{
    switch (m->pm.phase) {
    case EV67_PM_ARMED:
        count_armed(m, in);
        break;
    case EV67_PM_SELECTED:
        count_selected(m, in, out);
        break;
    default:
        break; /* STOPPED: nothing counts until PCTR_CTL is written */
    }
}

void ev67_ref_pm_capture(ev67_ref *m)
{
    const ev67_pm *pm = &m->pm;
    uint64_t s = 0;
    s = EV67_FSET(s, I_STAT, OVR, pm->ovr);
    s = EV67_FSET(s, I_STAT, ICM, pm->icm);
    s = EV67_FSET(s, I_STAT, TRAP_TYPE, pm->trap_type);
    s = EV67_FSET(s, I_STAT, LSO, pm->lso);
    s = EV67_FSET(s, I_STAT, TRP, pm->trp);
    m->i_stat = EV67_FSET(s, I_STAT, MIS, pm->mis);
    m->pmpc = pm->pmpc;
    uint64_t p = m->pctr_ctl;
    p = EV67_FSET(p, PCTR_CTL, VAL, pm->val);
    p = EV67_FSET(p, PCTR_CTL, TAK, pm->tak);
    p = EV67_FSET(p, PCTR_CTL, PM_STALLED, pm->stalled);
    m->pctr_ctl = EV67_FSET(p, PCTR_CTL, PM_KILLED_BM, pm->kbm);
    m->pm.phase = EV67_PM_STOPPED;
}

void ev67_ref_pm_rearm(ev67_ref *m) { memset(&m->pm, 0, sizeof m->pm); }

uint64_t ev67_ref_obs_pm(const ev67_ref *m)
{
    const ev67_pm *pm = &m->pm;
    uint64_t v = 0;
    v = EV67_FSET(v, OBS_PM, PHASE, pm->phase);
    v = EV67_FSET(v, OBS_PM, AGE, pm->age);
    v = EV67_FSET(v, OBS_PM, ENDED, pm->ended);
    v = EV67_FSET(v, OBS_PM, ENDCNT, pm->endcnt);
    v = EV67_FSET(v, OBS_PM, OVR, pm->ovr);
    v = EV67_FSET(v, OBS_PM, ICM, pm->icm);
    v = EV67_FSET(v, OBS_PM, TAK, pm->tak);
    v = EV67_FSET(v, OBS_PM, TRP, pm->trp);
    v = EV67_FSET(v, OBS_PM, MIS, pm->mis);
    v = EV67_FSET(v, OBS_PM, LSO, pm->lso);
    v = EV67_FSET(v, OBS_PM, TRAP_TYPE, pm->trap_type);
    v = EV67_FSET(v, OBS_PM, VAL, pm->val);
    v = EV67_FSET(v, OBS_PM, STALLED, pm->stalled);
    v = EV67_FSET(v, OBS_PM, KBM, pm->kbm);
    return EV67_FSET(v, OBS_PM, TAG, pm->tag);
}
