/*
 * cex.c - the Alpha 21264/EV67's part of `pmusim cex2replay` (include/cli/pmu_cex.h): the
 * checker formal/ev67/ev67_pmu_props.sv, how the reset counter block reaches a trace's
 * start state, and the record of a step's inputs (docs/formal.md, "From a counterexample to
 * a replay", "The 21264").
 *
 * The start state: IER_CM, I_CTL and PCTX are written, the counters and the selects are
 * loaded by a PCTR_CTL write (docs/ev67.md, "write"), PEXIT is armed by a PCTR_CTL write
 * with the counter above its write maximum, REQ by a PEXIT a non-PAL step moves into it,
 * OBS_INT.PAL is the last step's record, S2 an overflow in one step that the last load
 * shifts out of S1, and S1 an overflow in the last step when it can leave the counts (s1_step).
 * The rest is not reached (RACE, OBS_AGG, the ProfileMe results and machine state): when the trace
 * starts with it set, the replay starts it at reset's value, with a note.
 *
 * A step's record: its pal, its retires (nretire_i, from a pool of in-flight intops the
 * preamble fetches, so the stream's rules hold: docs/ev67-stream.md), its fetches as
 * intops, bcmiss and mreplay.  Aggregate counting reads nothing else (rtl/ev67/ev67_agg.sv);
 * in ProfileMe mode (SL0 = 1) the other inputs (traps, stalls, squashes, aborts, tags,
 * pcs, fetch flags) are not carried, with a note.  Most properties cut the ProfileMe
 * machine's outputs (`cutpoint`): the solver's values of them are in the trace, and where
 * they are not what the real machine gives, a note says so.
 */
#include <inttypes.h>
#include <string.h>

#include "cli/pmu_cex.h"
#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"
#include "ev67_cmds_internal.h"

/* The replay's tags: the next one to fetch and the oldest in flight (one trace at a time). */
static uint64_t next_tag, oldest;
#define FIRST_TAG 100u
#define POOL_MAX 200u /* in-flight intops the preamble leaves (the reader follows 256) */

/* Part `mask` of start[v] (named `what`) set in the trace but not reached: cleared, noted. */
static void unreached(uint64_t *start, unsigned v, uint64_t mask, const char *what, pmu_cex_out *o)
{
    if (!(start[v] & mask))
        return;
    pmu_cex_note(o, "start state: %s 0x%" PRIx64 " is not reached by the preamble (the proof starts it free): "
                 "replayed from reset's 0", what, start[v] & mask);
    start[v] &= ~mask;
}

static uint64_t pctr_value(uint64_t sel, uint64_t c0, uint64_t c1)
{
    uint64_t v = sel & (EV67_FMASK(PCTR_CTL, SL0) | EV67_FMASK(PCTR_CTL, SL1));
    v = EV67_FSET(v, PCTR_CTL, PCTR0, c0);
    return EV67_FSET(v, PCTR_CTL, PCTR1, c1);
}

/* A step of the preamble (nothing counts: the counters are disabled). */
static void pre_step(pmu_cex_out *o, uint64_t repeat, unsigned pal, const char *more)
{
    pmu_cex_record(o, repeat, "pal=%u%s", pal, more);
}

/* Retire n of the pool in one preamble step with PAL pal. */
static void pre_retire(pmu_cex_out *o, unsigned pal, uint64_t n)
{
    char more[64];
    if (n == 1)
        snprintf(more, sizeof more, " retire=%" PRIu64, oldest);
    else
        snprintf(more, sizeof more, " retire=%" PRIu64 "-%" PRIu64, oldest, oldest + n - 1);
    oldest += n;
    pre_step(o, 1, pal, more);
}

/* OBS_AGG of the trace's start: its flops (dut.u_agg.*_q) where the VCD has them, which
 * obs_vis_o's value at step 0 may not show; the replay's target for the backlog. */
static uint64_t agg_start(const pmu_cex *t, uint64_t *start, pmu_cex_out *o)
{
    static const struct { const char *flop; unsigned width; uint64_t mask; } f[] = {
        {"dut.u_agg.backlog_q", 4, EV67_FMASK(OBS_AGG, BACKLOG)},
        {"dut.u_agg.bcg_q", 3, EV67_FMASK(OBS_AGG, BCG)},
        {"dut.u_agg.qinc0_q", 3, EV67_FMASK(OBS_AGG, QINC0)},
        {"dut.u_agg.qinc1_q", 1, EV67_FMASK(OBS_AGG, QINC1)},
    };
    uint64_t agg = start[EV67_VIS_OBS_AGG];
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
        pmu_err ignore;
        uint64_t v;
        if (pmu_cex_get(t, f[i].flop, 0, 0, f[i].width, &v, &ignore))
            continue;
        agg = (agg & ~f[i].mask) | ((v << __builtin_ctzll(f[i].mask)) & f[i].mask);
    }
    if (agg != start[EV67_VIS_OBS_AGG])
        pmu_cex_note(o, "start state: OBS_AGG reads 0x%" PRIx64 " in the trace's obs_vis_o, its flops (dut.u_agg) "
                     "hold 0x%" PRIx64 ": the replay starts from the flops", start[EV67_VIS_OBS_AGG], agg);
    start[EV67_VIS_OBS_AGG] = agg;
    return agg;
}

/* S1: the last step of the preamble, after the counters' load, overflows the counters S1
 * has (SL1's aggregate kinds: 8 retires, a cycle or an Mbox replay), each from just below
 * the wrap to its count; the other counter is disabled.  Possible when the counts are
 * below that increment and nothing else the step changes is set: S2 (the step takes S1
 * into it), PEXIT with PAL 0 (a non-PAL step takes it), the backlog (the step's retires
 * change it), ProfileMe mode.  0 when not; else 1 with pre[] the counts to load, inc_ctl
 * the I_CTL enables of the step and *retire, *mreplay its inputs (when pre is not NULL). */
typedef struct s1_plan {
    uint64_t pre[2], ictl, retire;
    unsigned mreplay;
} s1_plan;

static int s1_step(const uint64_t *start, s1_plan *plan)
{
    const uint64_t oi = start[EV67_VIS_OBS_INT], ctl = start[EV67_VIS_PCTR_CTL], octr = start[EV67_VIS_OBS_CTR];
    const unsigned s1 = (unsigned)EV67_FGET(oi, OBS_INT, S1);
    if (!s1 || EV67_FGET(oi, OBS_INT, S2) || (EV67_FGET(oi, OBS_INT, PEXIT) && !EV67_FGET(oi, OBS_INT, PAL)) ||
        EV67_FGET(start[EV67_VIS_OBS_AGG], OBS_AGG, BACKLOG) || EV67_FGET(ctl, PCTR_CTL, SL0))
        return 0;
    s1_plan p = {{EV67_FGET(octr, OBS_CTR, PCTR0), EV67_FGET(octr, OBS_CTR, PCTR1)}, EV67_FMASK(I_CTL, SPCE), 0, 0};
    const uint64_t wrap = 1ull << EV67_CTR0_WIDTH;
    _Static_assert(EV67_CTR0_WIDTH == EV67_CTR1_WIDTH, "one wrap for both counters");
    for (unsigned n = 0; n < 2; n++) {
        if (!(s1 >> n & 1))
            continue;
        uint64_t inc;
        switch (ev67_sel_kind(0, (unsigned)EV67_FGET(ctl, PCTR_CTL, SL1), n)) {
        case EV67_KIND_RETIRED: inc = EV67_LIM_RETIRE_ADD_MAX; p.retire = inc; break;
        case EV67_KIND_CYCLES: inc = 1; break;
        case EV67_KIND_MBOXREPLAY: inc = 1; p.mreplay = 1; break;
        default: return 0; /* the Bcache gate, or nothing counted */
        }
        if (p.pre[n] >= inc)
            return 0;
        p.pre[n] += wrap - inc;
        p.ictl |= n ? EV67_FMASK(I_CTL, PCT1_EN) : EV67_FMASK(I_CTL, PCT0_EN);
    }
    if (plan)
        *plan = p;
    return 1;
}

static int preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)err;
    agg_start(t, start, o);
    const uint64_t sel_bits = EV67_FMASK(PCTR_CTL, SL0) | EV67_FMASK(PCTR_CTL, SL1);
    const uint64_t flags = EV67_FMASK(PCTR_CTL, TAK) | EV67_FMASK(PCTR_CTL, VAL) |
                           EV67_FMASK(PCTR_CTL, PM_STALLED) | EV67_FMASK(PCTR_CTL, PM_KILLED_BM);
    unreached(start, EV67_VIS_PCTR_CTL, flags, "PCTR_CTL's ProfileMe flags (TAK, VAL, PM_STALLED, PM_KILLED_BM)", o);
    unreached(start, EV67_VIS_PMPC, ~0ull, "PMPC (a ProfileMe result)", o);
    unreached(start, EV67_VIS_I_STAT, ~0ull, "I_STAT (a ProfileMe result)", o);
    unreached(start, EV67_VIS_OBS_PM, ~0ull, "OBS_PM (the ProfileMe machine)", o);
    unreached(start, EV67_VIS_OBS_PMPC, ~0ull, "OBS_PMPC (the ProfileMe machine)", o);
    unreached(start, EV67_VIS_OBS_AGG, ~EV67_FMASK(OBS_AGG, BACKLOG),
              "OBS_AGG's Bcache gate and read-quirk addends", o);
    if (!s1_step(start, NULL))
        unreached(start, EV67_VIS_OBS_INT, EV67_FMASK(OBS_INT, S1), "OBS_INT's overflow latch stage S1 (with "
                  "S2, PEXIT in a non-PAL state, a backlog, ProfileMe mode, or counts an overflow does not leave)", o);
    if (EV67_FGET(start[EV67_VIS_OBS_INT], OBS_INT, PEXIT) && !EV67_FGET(start[EV67_VIS_OBS_INT], OBS_INT, PAL))
        unreached(start, EV67_VIS_OBS_INT, EV67_FMASK(OBS_INT, S2), "OBS_INT's overflow latch stage S2 (with "
                  "PEXIT armed and PAL 0: the overflow step would take PEXIT)", o);
    unreached(start, EV67_VIS_OBS_INT, EV67_FMASK(OBS_INT, RACE), "OBS_INT.RACE", o);
    unreached(start, EV67_VIS_IER_CM, ~ev67_reg_bits(EV67_REG_IER_CM), "IER_CM's bits outside its fields", o);
    unreached(start, EV67_VIS_I_CTL, ~ev67_reg_bits(EV67_REG_I_CTL), "I_CTL's bits outside its fields", o);
    unreached(start, EV67_VIS_PCTX, ~ev67_reg_bits(EV67_REG_PCTX), "PCTX's bits outside its fields", o);
    const uint64_t oi = start[EV67_VIS_OBS_INT], octr = start[EV67_VIS_OBS_CTR];
    const uint64_t backlog = EV67_FGET(start[EV67_VIS_OBS_AGG], OBS_AGG, BACKLOG);
    const unsigned req = (unsigned)EV67_FGET(oi, OBS_INT, REQ), pexit = (unsigned)EV67_FGET(oi, OBS_INT, PEXIT);
    const unsigned pal = (unsigned)EV67_FGET(oi, OBS_INT, PAL), s2 = (unsigned)EV67_FGET(oi, OBS_INT, S2);
    const uint64_t c0 = EV67_FGET(octr, OBS_CTR, PCTR0), c1 = EV67_FGET(octr, OBS_CTR, PCTR1);
    const uint64_t top0 = EV67_FMASK(OBS_CTR, PCTR0) >> EV67_F_OBS_CTR_PCTR0_LSB;
    const uint64_t top1 = EV67_FMASK(OBS_CTR, PCTR1) >> EV67_F_OBS_CTR_PCTR1_LSB;
    /* Nothing counts in the preamble: counters disabled, aggregate mode. */
    pmu_cex_write(o, EV67_ADDR_I_CTL, 0);
    pmu_cex_write(o, EV67_ADDR_PCTR_CTL, 0);
    /* The pool the trace's retires take (each fetched intop retires in a later record). */
    next_tag = oldest = FIRST_TAG;
    pmu_cex_comment(o, "a pool of %u in-flight intops for the trace's retires", POOL_MAX);
    for (unsigned i = 0; i < POOL_MAX; i += 4) {
        if (i == 0)
            pmu_cex_record(o, 1, "pal=1 tag=%u fetch=intop@0x10000,intop,intop,intop", FIRST_TAG);
        else
            pmu_cex_record(o, 1, "pal=1 fetch=intop,intop,intop,intop");
    }
    next_tag += POOL_MAX;
    if (req) {
        /* REQ: counters above their write maximum, a write that arms PEXIT, a non-PAL step. */
        pmu_cex_comment(o, "REQ 0x%x: armed as PAL-exit interrupts, taken by a non-PAL step", req);
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(0, req & 1 ? top0 : 0, req & 2 ? top1 : 0));
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, 0);
        pre_step(o, 1, 0, "");
    }
    if (pal != 1 || req)
        pre_step(o, 1, pal, "");
    if (pexit) {
        pmu_cex_comment(o, "PEXIT 0x%x: armed by the counters' load", pexit);
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(0, pexit & 1 ? top0 : 0, pexit & 2 ? top1 : 0));
    }
    /* The backlog: steps that retire 8 + k leave k more (at most 3 a step; docs/ev67.md,
     * "Clocks"); the last step then retires 8, which keeps it. */
    if (backlog)
        pmu_cex_comment(o, "BACKLOG %" PRIu64 ": retires above the 8 a step counts", backlog);
    for (uint64_t b = 0; b < backlog;) {
        uint64_t k = backlog - b < 3 ? backlog - b : 3;
        pre_retire(o, pal, 8 + k);
        b += k;
    }
    if (s2) {
        /* S2: an overflow in one aggregate step (SL1 = 00: counter 0 counts the retire, counter
         * 1 the cycle) enters S1, and the last load shifts it into S2.  A step with PAL 1 keeps
         * PEXIT. */
        pmu_cex_comment(o, "S2 0x%x: the counters overflow in one step; the load shifts S1 into S2", s2);
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(0, s2 & 1 ? top0 : 0, s2 & 2 ? top1 : 0));
        uint64_t ictl = EV67_FMASK(I_CTL, SPCE);
        if (s2 & 1)
            ictl |= EV67_FMASK(I_CTL, PCT0_EN);
        if (s2 & 2)
            ictl |= EV67_FMASK(I_CTL, PCT1_EN);
        pmu_cex_write(o, EV67_ADDR_I_CTL, ictl);
        pre_retire(o, pexit ? 1 : pal, backlog ? 8 : 1);
        pmu_cex_write(o, EV67_ADDR_I_CTL, 0);
        if (s2 & 2) {
            /* The Bcache gate took counter 1's enable (OBS_AGG.BCG bit 0). */
            uint64_t agg = EV67_FSET(start[EV67_VIS_OBS_AGG], OBS_AGG, BCG, 1);
            pmu_cex_note(o, "start state: OBS_AGG 0x%" PRIx64 " replayed as 0x%" PRIx64 " (the Bcache gate took "
                         "counter 1's enable in the step that overflows it)", start[EV67_VIS_OBS_AGG], agg);
            start[EV67_VIS_OBS_AGG] = agg;
        }
    }
    s1_plan s1p;
    if (s1_step(start, &s1p)) {
        pmu_cex_comment(o, "S1 0x%x: the last step overflows the counters from the load to their counts",
                        (unsigned)EV67_FGET(oi, OBS_INT, S1));
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(start[EV67_VIS_PCTR_CTL] & sel_bits, s1p.pre[0], s1p.pre[1]));
        pmu_cex_write(o, EV67_ADDR_I_CTL, s1p.ictl);
        char more[64] = "";
        if (s1p.mreplay)
            snprintf(more, sizeof more, " mreplay");
        if (s1p.retire) {
            char r[48];
            snprintf(r, sizeof r, " retire=%" PRIu64 "-%" PRIu64, oldest, oldest + s1p.retire - 1);
            oldest += s1p.retire;
            strncat(more, r, sizeof more - strlen(more) - 1);
        }
        pre_step(o, 1, pal, more);
        if (s1p.ictl & EV67_FMASK(I_CTL, PCT1_EN)) /* the Bcache gate took counter 1's enable */
            start[EV67_VIS_OBS_AGG] = EV67_FSET(start[EV67_VIS_OBS_AGG], OBS_AGG, BCG, 1);
    } else {
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(start[EV67_VIS_PCTR_CTL] & sel_bits, c0, c1));
    }
    pmu_cex_write(o, EV67_ADDR_IER_CM, start[EV67_VIS_IER_CM]);
    pmu_cex_write(o, (uint16_t)(EV67_ADDR_PCTX | 1u << EV67_PCTX_SEL_PPCE), start[EV67_VIS_PCTX]);
    pmu_cex_write(o, EV67_ADDR_I_CTL, start[EV67_VIS_I_CTL]);
    /* What a read shows of the state reached (docs/ev67.md, "read(addr)"; QINC is 0 after
     * a write): PCTR_CTL the selects and the counts, SEXT copying PCTR0's top bit. */
    uint64_t pctr = pctr_value(start[EV67_VIS_PCTR_CTL] & sel_bits, c0, c1);
    if (EV67_FGET(pctr, PCTR_CTL, PCTR0) >> (EV67_F_PCTR_CTL_PCTR0_MSB - EV67_F_PCTR_CTL_PCTR0_LSB))
        pctr |= EV67_FMASK(PCTR_CTL, SEXT);
    if (pctr != start[EV67_VIS_PCTR_CTL]) {
        pmu_cex_note(o, "start state: PCTR_CTL reads 0x%" PRIx64 " in the trace, not the read of its counts "
                     "(OBS_CTR 0x%" PRIx64 ") with no read-quirk addend: replayed as 0x%" PRIx64,
                     start[EV67_VIS_PCTR_CTL], octr, pctr);
        start[EV67_VIS_PCTR_CTL] = pctr;
    }
    /* ISUM = REQ & PCEN (IsumRace off). */
    uint64_t isum = EV67_FSET(0, ISUM, PC, req & EV67_FGET(start[EV67_VIS_IER_CM], IER_CM, PCEN));
    if (isum != start[EV67_VIS_ISUM]) {
        pmu_cex_note(o, "start state: ISUM 0x%" PRIx64 " is not REQ & PCEN of the state: replayed as 0x%" PRIx64,
                     start[EV67_VIS_ISUM], isum);
        start[EV67_VIS_ISUM] = isum;
    }
    return 0;
}

/* The checker's ProfileMe outputs the trace has at step (those the VCD keeps). */
static void cut_outputs(const pmu_cex *t, unsigned step, const uint64_t *vis, pmu_cex_out *o)
{
    pmu_err ignore;
    uint64_t win_end = 0, inc0 = 0, inc1 = 0;
    int have_end = !pmu_cex_get(t, "dut.win_end", step, 0, 1, &win_end, &ignore);
    if (pmu_cex_get(t, "dut.pm_inc0", step, 0, 4, &inc0, &ignore))
        inc0 = 0;
    if (pmu_cex_get(t, "dut.pm_inc1", step, 0, 4, &inc1, &ignore))
        inc1 = 0;
    const unsigned sl0 = (unsigned)EV67_FGET(vis[EV67_VIS_PCTR_CTL], PCTR_CTL, SL0);
    if (!sl0) {
        /* Aggregate mode: the real machine does not run; it ends no window. */
        if (have_end && win_end)
            pmu_cex_note(o, "trace step %u: the ProfileMe window ends (win_end, a cut output the solver chose) in "
                         "aggregate mode, where the real machine does not run: the replay's does not raise REQ[0]",
                         step);
        return;
    }
    pmu_cex_note(o, "trace step %u: ProfileMe mode: the trace's machine outputs inc0 %" PRIu64 ", inc1 %" PRIu64
                 "%s (the solver's when the property cuts them) may not be the replayed machine's, which runs on "
                 "the record's fetches and retires only", step, inc0, inc1,
                 have_end ? (win_end ? ", window end" : ", no window end") : "");
}

static int record(const pmu_cex *t, unsigned step, const uint64_t *vis, pmu_cex_out *o, pmu_err *err)
{
    uint64_t pal, nfetch, nretire, bcmiss, mreplay, trap, abort, nsquash, nstall;
    if (pmu_cex_get(t, "pal_i", step, 0, 1, &pal, err) || pmu_cex_get(t, "nfetch_i", step, 0, 8, &nfetch, err) ||
        pmu_cex_get(t, "nretire_i", step, 0, 8, &nretire, err) ||
        pmu_cex_get(t, "bcmiss_i", step, 0, 1, &bcmiss, err) ||
        pmu_cex_get(t, "mreplay_i", step, 0, 1, &mreplay, err) || pmu_cex_get(t, "trap_i", step, 0, 1, &trap, err) ||
        pmu_cex_get(t, "abort_i", step, 0, 1, &abort, err) || pmu_cex_get(t, "nsquash_i", step, 0, 8, &nsquash, err) ||
        pmu_cex_get(t, "nstall_i", step, 0, 8, &nstall, err))
        return -1;
    cut_outputs(t, step, vis, o);
    if (nretire > EV67_LIM_RETIRE_MAX) {
        pmu_cex_note(o, "trace step %u: nretire_i %" PRIu64 " is more than a record retires; the RTL counts it as %u",
                     step, nretire, (unsigned)EV67_LIM_RETIRE_MAX);
        nretire = EV67_LIM_RETIRE_MAX;
    }
    if (nfetch > EV67_FETCH_MAX) {
        pmu_cex_note(o, "trace step %u: nfetch_i %" PRIu64 " is more than a record fetches: %u", step, nfetch,
                     (unsigned)EV67_FETCH_MAX);
        nfetch = EV67_FETCH_MAX;
    }
    if (nretire > next_tag - oldest + nfetch) {
        pmu_cex_note(o, "trace step %u: nretire_i %" PRIu64 " is more than the replay's pool has in flight: %" PRIu64,
                     step, nretire, next_tag - oldest + nfetch);
        nretire = next_tag - oldest + nfetch;
    }
    if (EV67_FGET(vis[EV67_VIS_PCTR_CTL], PCTR_CTL, SL0) && (trap || abort || nsquash || nstall))
        pmu_cex_note(o, "trace step %u: ProfileMe mode: the trace's trap, abort, squashes and stalls (%" PRIu64 ", %"
                     PRIu64 ", %" PRIu64 ", %" PRIu64 ") are not replayed (the record has none)", step, trap, abort,
                     nsquash, nstall);
    char line[256];
    int len = snprintf(line, sizeof line, "pal=%" PRIu64, pal);
    for (uint64_t i = 0; i < nfetch; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, "%sintop", i ? "," : " fetch=");
    next_tag += nfetch;
    if (nretire) {
        if (nretire == 1)
            len += snprintf(line + len, sizeof line - (size_t)len, " retire=%" PRIu64, oldest);
        else
            len += snprintf(line + len, sizeof line - (size_t)len, " retire=%" PRIu64 "-%" PRIu64, oldest,
                            oldest + nretire - 1);
        oldest += nretire;
    }
    if (bcmiss)
        len += snprintf(line + len, sizeof line - (size_t)len, " bcmiss");
    if (mreplay)
        len += snprintf(line + len, sizeof line - (size_t)len, " mreplay");
    pmu_cex_record(o, 1, "%s", line);
    return 0;
}

const pmu_cex_family ev67_cex = {
    .checker = "ev67_pmu_props",
    .idle_addr = 0x0, /* below PMPC: no register (ev67_regs.def) */
    .preamble = preamble,
    .record = record,
};
