/* ev67_ref_internal.h - what the parts of the Alpha 21264/EV67 reference model
 * (csim/ev67/) share: the model's state and the steps of a clock (docs/ev67.md,
 * "Clocks").  Not a public header: the harness and the tests use include/csim/ev67/ev67_ref.h.
 *
 *   ev67_ref.c       registers, the register port, snapshot, construction, the extras;
 *                    step() in the page's order
 *   ev67_ref_agg.c   the counted retires, the Bcache gate, aggregate inputs, the
 *                    disabled-read increments
 *   ev67_ref_pm.c    the ProfileMe machine
 *   ev67_ref_irq.c   the overflow latch, PAL-exit interrupts, parked counters, ISUM race
 */
#ifndef EV67_REF_INTERNAL_H
#define EV67_REF_INTERNAL_H

#include "csim/ev67/ev67_ref.h"

/* The ProfileMe machine and the profiled instruction's record so far: OBS_PM's fields
 * and OBS_PMPC, kept unpacked (ev67_ref_obs_pm packs them). */
typedef struct ev67_pm {
    unsigned phase;     /* ev67_pm_phase */
    unsigned age;       /* steps since P's fetch, capped at EV67_LIM_PME_OPEN */
    unsigned ended;     /* P's end event was seen */
    unsigned endcnt;    /* steps since the end event */
    unsigned ovr;       /* the overcount */
    unsigned icm, tak, trp, mis, lso, trap_type, val, stalled, kbm;
    uint32_t tag;       /* P's tag */
    uint64_t pmpc;      /* OBS_PMPC: P's PC | PAL */
    /* For the samples only (not visible): */
    uint64_t fetch_step;
    unsigned end_kind;  /* ev67_pm_end */
} ev67_pm;

/* What step 4 (counting) hands to the later steps of the clock. */
typedef struct ev67_count_out {
    unsigned carry[EV67_NCOUNTERS]; /* a carry that enters the overflow latch */
    unsigned window_end;            /* the window ended in this step (step 7) */
} ev67_count_out;

typedef struct ev67_ref {
    pmu_backend base; /* first member: a pmu_backend* is an ev67_ref* */
    ev67_params params;

    /* Registers as stored: only their counter-block fields (docs/ev67.md, choice 1).
     * pctr_ctl holds TAK, VAL, SL1, SL0, PM_KILLED_BM, PM_STALLED; the counters are in
     * ctr[] and SEXT is made on read. */
    uint64_t pmpc, ier_cm, i_ctl, pctr_ctl, i_stat, pctx;
    uint32_t ctr[EV67_NCOUNTERS]; /* true counts, EV67_CTRn_WIDTH bits */

    /* OBS_INT: bit n is counter n */
    unsigned s1, s2, req, pexit, pal, race;
    /* OBS_AGG */
    unsigned backlog, bcg, qinc[EV67_NCOUNTERS];
    ev67_pm pm;

    /* Extras (include/csim/ev67/ev67_ref.h) */
    uint64_t total[EV67_NCOUNTERS], overflows[EV67_NCOUNTERS], requests[EV67_NCOUNTERS];
    uint64_t nsamples;
    ev67_pm_sample samples[EV67_REF_SAMPLES_KEPT]; /* ring: sample i at i % KEPT */

    /* The register index of each visible register (set at construction): a snapshot
     * reads them without looking their addresses up. */
    int8_t vis_reg[EV67_NVIS];
} ev67_ref;

/* What the step-start computes (step 1) and the stream-only quantities (steps 2, 3). */
typedef struct ev67_step_in {
    const ev67_cycle *rec;
    unsigned en[EV67_NCOUNTERS];
    unsigned parked;      /* either counter parked */
    unsigned isum_before; /* REQ & PCEN */
    unsigned d;           /* counted retires */
    unsigned g;           /* the Bcache gate, BCG[2] before the shift */
    unsigned bcmiss, mreplay; /* the record's, 0 or 1 */
} ev67_step_in;

/* Register fields per counter (the two counters' fields have different names). */
unsigned ev67_ref_pcen(const ev67_ref *m);  /* IER_CM.PCEN, bit n counter n */
unsigned ev67_ref_en(const ev67_ref *m, unsigned n);
unsigned ev67_ref_sl0(const ev67_ref *m);
unsigned ev67_ref_sl1(const ev67_ref *m);

/* Counter n's count mask (2^20 - 1) and adding `inc` to it: the total grows, and the
 * result is 1 when the count passed 2^20 - 1. */
uint32_t ev67_ref_ctr_mask(unsigned n);
unsigned ev67_ref_add(ev67_ref *m, unsigned n, unsigned inc);

/* ev67_ref_agg.c: steps 2 and 3 (fill in->d, in->g; update BACKLOG and BCG), aggregate
 * counting (step 4, SL0 = 0) and the disabled-read increments (step 8). */
void ev67_ref_retire_gate(ev67_ref *m, ev67_step_in *in);
void ev67_ref_count_aggregate(ev67_ref *m, const ev67_step_in *in, ev67_count_out *out);
void ev67_ref_quirk_incs(ev67_ref *m, const ev67_step_in *in);
/* What counter n's input of kind k gives in this step, before gating. */
unsigned ev67_ref_input(ev67_kind k, const ev67_step_in *in, unsigned head_is_p);

/* ev67_ref_pm.c: ProfileMe counting (step 4, SL0 = 1), the window end's capture (step
 * 7), and the re-arm of a PCTR_CTL write. */
void ev67_ref_count_profileme(ev67_ref *m, const ev67_step_in *in, ev67_count_out *out);
void ev67_ref_pm_capture(ev67_ref *m);
void ev67_ref_pm_rearm(ev67_ref *m);
uint64_t ev67_ref_obs_pm(const ev67_ref *m);

/* ev67_ref_irq.c: step 1's parked check, the latch (step 5), PAL exit (step 6), the end
 * of the step (step 8, without QINC); a write's PAL-exit arming and latch shift. */
void ev67_ref_step_start(ev67_ref *m, ev67_step_in *in);
void ev67_ref_latch(ev67_ref *m, const ev67_step_in *in, const ev67_count_out *out);
void ev67_ref_pal_exit(ev67_ref *m, const ev67_step_in *in);
void ev67_ref_step_end(ev67_ref *m, const ev67_step_in *in, unsigned req_before);
void ev67_ref_write_arm(ev67_ref *m);
void ev67_ref_write_shift(ev67_ref *m);

#endif
