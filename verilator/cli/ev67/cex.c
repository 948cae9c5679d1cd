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
 * In ProfileMe mode with the machine SELECTED or STOPPED (OBS_PM), the last load sets PCTR0 to
 * 2^20 - 1 and the real machine runs a window to the trace's phase, AGE, end and counts
 * (pm_window).  The rest is not reached (RACE, OBS_AGG's gate and addends, the results of an
 * earlier window): when the trace starts with it set, the replay starts it at reset's value,
 * with a note.
 *
 * A step's record: its pal, its retires (nretire_i, from a pool of in-flight intops the
 * preamble fetches, so the stream's rules hold: docs/ev67-stream.md), its fetches as
 * intops, bcmiss and mreplay.  Aggregate counting reads nothing else (rtl/ev67/ev67_agg.sv);
 * in ProfileMe mode (SL0 = 1) the machine reads the events naming the profiled instruction:
 * the trace's hits on it (a trap, a stall, an abort covering it) are carried as events naming
 * the replay's profiled instruction; a retire or squash of it is not (it is younger than the
 * pool the trace's retires take), with a note.  Most properties cut the ProfileMe
 * machine's outputs (`cutpoint`): the solver's values of them are in the trace, and where
 * they are not what the real machine gives, a note says so.
 */
#include <inttypes.h>
#include <string.h>

#include "cli/pmu_cex.h"
#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"
#include "ev67_cmds_internal.h"
#include "stream/ev67/ev67_stream.h"

/* The replay's tags: the next one to fetch and the oldest in flight (one trace at a time); the
 * profiled instruction's (pm_live: in flight; pm_gone: aborted, with the instructions up to
 * gap_hi, so that retires skip them). */
static uint64_t next_tag, oldest, pm_tag, gap_hi;
static int pm_live, pm_gone;
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

/* " retire=..." for the n oldest in flight (n >= 1), skipping the aborted profiled instruction
 * and the instructions fetched with or after it before the abort. */
static int put_retires(char *line, size_t size, int len, uint64_t n)
{
    const char *sep = " retire=";
    while (n) {
        if (pm_gone && oldest == pm_tag)
            oldest = gap_hi;
        uint64_t k = n;
        if (pm_gone && oldest < pm_tag && pm_tag - oldest < k)
            k = pm_tag - oldest;
        if (k == 1)
            len += snprintf(line + len, size - (size_t)len, "%s%" PRIu64, sep, oldest);
        else
            len += snprintf(line + len, size - (size_t)len, "%s%" PRIu64 "-%" PRIu64, sep, oldest, oldest + k - 1);
        oldest += k;
        n -= k;
        sep = ",";
    }
    return len;
}

/* The instructions the replay can retire in a record fetching nfetch: the pool, up to the
 * profiled instruction while it is in flight. */
static uint64_t retirable(uint64_t nfetch)
{
    if (pm_live)
        return pm_tag > oldest ? pm_tag - oldest : 0;
    if (pm_gone && oldest <= pm_tag)
        return pm_tag - oldest + (next_tag - gap_hi) + nfetch;
    return next_tag - oldest + nfetch;
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

/* ---- ProfileMe: the machine mid-window or stopped at the trace's start (docs/ev67.md,
 * "ProfileMe"; HRM §6.10.3) ---------------------------------------------------------------- */

#define CTR_WRAP (1ull << EV67_CTR0_WIDTH)

/* The trace's ProfileMe phase when the preamble runs a window to it (SELECTED or STOPPED in
 * ProfileMe mode), else 0. */
static unsigned pm_phase(const uint64_t *start)
{
    const unsigned ph = (unsigned)EV67_FGET(start[EV67_VIS_OBS_PM], OBS_PM, PHASE);
    if (!EV67_FGET(start[EV67_VIS_PCTR_CTL], PCTR_CTL, SL0) || (ph != EV67_PM_SELECTED && ph != EV67_PM_STOPPED))
        return 0;
    return ph;
}

/* What the window's steps change, set aside before the rest of the preamble: each step shifts
 * the overflow latch (S1, S2 into REQ), drains the backlog, takes PEXIT in a non-PAL state;
 * a window's end raises REQ[0], which an HW_INT_CLR write clears (and PEXIT[0] with it). */
static void pm_prepare(uint64_t *start, unsigned phase, pmu_cex_out *o)
{
    const uint64_t oi = start[EV67_VIS_OBS_INT];
    unreached(start, EV67_VIS_OBS_INT, EV67_FMASK(OBS_INT, S1) | EV67_FMASK(OBS_INT, S2),
              "OBS_INT's overflow latch (S1, S2) with the ProfileMe machine past ARMED (the window's steps "
              "shift it into REQ; a counter-0 carry in ProfileMe is no overflow)", o);
    unreached(start, EV67_VIS_OBS_AGG, EV67_FMASK(OBS_AGG, BACKLOG),
              "OBS_AGG's backlog with the ProfileMe machine past ARMED (the window's steps drain it)", o);
    if (!EV67_FGET(oi, OBS_INT, PAL))
        unreached(start, EV67_VIS_OBS_INT, EV67_FMASK(OBS_INT, PEXIT),
                  "OBS_INT.PEXIT with PAL 0 and the ProfileMe machine past ARMED (a non-PAL step takes it)", o);
    if (phase == EV67_PM_STOPPED && !(EV67_FGET(oi, OBS_INT, REQ) & 1))
        unreached(start, EV67_VIS_OBS_INT, 1ull << EV67_F_OBS_INT_PEXIT_LSB, "OBS_INT.PEXIT[0] of a stopped "
                  "machine without REQ[0] (the HW_INT_CLR write that clears the window end's REQ[0] clears it too)", o);
}

/* A field of OBS_PM the window cannot give: noted, replaced. */
static unsigned pm_fix(unsigned have, unsigned want, const char *what, pmu_cex_out *o)
{
    if (have != want)
        pmu_cex_note(o, "start state: OBS_PM.%s %u is not reached by a window to the trace's phase: replayed as %u",
                     what, have, want);
    return want;
}

/* The window from the last load (PCTR0 = 2^20 - 1, ProfileMe mode) to the trace's start state:
 * in step s the profiled instruction P (tag OBS_PM.TAG, pc and flags from OBS_PMPC and OBS_PM)
 * is the first of the step's fetches and makes PCTR0 wrap; the fetches after it in step s and
 * in step s + 1 (AGE = 1) give OVR; the end event E (a trap if TRP, an abort covering P, with
 * KBM if KBM) comes ENDCNT steps before the last; steps s + 5 on are the window, which counts
 * PCTR0's cycles up to its count (SL1 = x1; a stopped machine takes a window for that); PCTR1
 * keeps its load (counter 1 disabled in the window's steps).  start[] is set to what it reaches. */
static void pm_window(uint64_t *start, unsigned phase, pmu_cex_out *o)
{
    const uint64_t pm = start[EV67_VIS_OBS_PM], pmpc = start[EV67_VIS_OBS_PMPC];
    const uint64_t octr = start[EV67_VIS_OBS_CTR];
    const unsigned pal = (unsigned)EV67_FGET(start[EV67_VIS_OBS_INT], OBS_INT, PAL);
    const unsigned sl1 = (unsigned)EV67_FGET(start[EV67_VIS_PCTR_CTL], PCTR_CTL, SL1);
    const int cycles0 = ev67_sel_kind(1, sl1, 0) == EV67_KIND_CYCLES;
    const uint64_t c0t = EV67_FGET(octr, OBS_CTR, PCTR0), c1 = EV67_FGET(octr, OBS_CTR, PCTR1);
    const uint32_t tag = (uint32_t)EV67_FGET(pm, OBS_PM, TAG);
    unsigned age = (unsigned)EV67_FGET(pm, OBS_PM, AGE), ended = (unsigned)EV67_FGET(pm, OBS_PM, ENDED);
    unsigned endcnt = (unsigned)EV67_FGET(pm, OBS_PM, ENDCNT), ovr = (unsigned)EV67_FGET(pm, OBS_PM, OVR);
    unsigned trp = (unsigned)EV67_FGET(pm, OBS_PM, TRP), mis = (unsigned)EV67_FGET(pm, OBS_PM, MIS);
    unsigned lso = (unsigned)EV67_FGET(pm, OBS_PM, LSO), ttype = (unsigned)EV67_FGET(pm, OBS_PM, TRAP_TYPE);
    unsigned kbm = (unsigned)EV67_FGET(pm, OBS_PM, KBM);
    const unsigned icm = (unsigned)EV67_FGET(pm, OBS_PM, ICM), tak = (unsigned)EV67_FGET(pm, OBS_PM, TAK);
    const unsigned stalled = (unsigned)EV67_FGET(pm, OBS_PM, STALLED);
    const unsigned open = EV67_LIM_PME_OPEN, end = EV67_LIM_PME_END;
    pmu_cex_comment(o, "ProfileMe: a window to the trace's machine (OBS_PM 0x%" PRIx64 ", OBS_PMPC 0x%" PRIx64 ")", pm,
                    pmpc);
    /* the shape of the window a phase allows */
    if (phase == EV67_PM_STOPPED) {
        ended = pm_fix(ended, 1, "ENDED", o);
        endcnt = pm_fix(endcnt, end, "ENDCNT", o);
    } else {
        if (!ended)
            endcnt = pm_fix(endcnt, 0, "ENDCNT", o);
        else if (endcnt >= end)
            endcnt = pm_fix(endcnt, end - 1, "ENDCNT", o);
    }
    if (age > open)
        age = pm_fix(age, open, "AGE", o);
    if (ended && age < open && age < endcnt)
        age = pm_fix(age, endcnt, "AGE", o);
    pm_fix((unsigned)EV67_FGET(pm, OBS_PM, VAL), 0, "VAL (P retires after the pool the trace's retires take)", o);
    if (!ended) {
        trp = pm_fix(trp, 0, "TRP (a trap on P is its end event)", o);
        kbm = pm_fix(kbm, 0, "KBM (an abort covering P is its end event)", o);
    }
    if (!trp) {
        mis = pm_fix(mis, 0, "MIS (without TRP)", o);
        lso = pm_fix(lso, 0, "LSO (without TRP)", o);
        ttype = pm_fix(ttype, 0, "TRAP_TYPE (without TRP)", o);
    } else if (lso && ttype != EV67_TRAP_REPLAY) {
        lso = pm_fix(lso, 0, "LSO (a replay trap's only)", o);
    }
    /* the steps after s: k; the window (AGE 5 on) w of them, PCTR0 enabled in it or not */
    uint64_t k, w = 0;
    int win_en0 = 0;
    const int window = age >= open || (phase == EV67_PM_STOPPED && cycles0 && c0t != ovr);
    if (window) {
        const uint64_t d = (c0t - ovr) & (CTR_WRAP - 1);
        win_en0 = cycles0 && d;
        w = win_en0 ? d : 1;
        k = open - 1 + w;
        if (age != open)
            age = pm_fix(age, open, "AGE (a stopped machine's window counts PCTR0)", o);
    } else {
        k = age;
    }
    if (k == 0)
        ovr = pm_fix(ovr, 0, "OVR (no step after P's)", o);
    if (mis && (!ended || k - endcnt))
        mis = pm_fix(mis, 0, "MIS (a mispredict trap comes in its branch's fetch step)", o);
    const uint64_t ke = ended ? k - endcnt : ~0ull;
    /* P's fetch step: P first, then the fetches that make OVR (or PCTR0 when no step follows) */
    const unsigned n = 1 + (k ? (ovr < 3 ? ovr : 3) : (c0t <= 3 ? (unsigned)c0t : 0));
    const unsigned m = k ? ovr - (n - 1) : 0;
    uint64_t c0 = window ? (ovr + (win_en0 ? w : 0)) & (CTR_WRAP - 1) : k ? ovr : n - 1;
    if (c0 != c0t)
        pmu_cex_note(o, "start state: PCTR0 0x%" PRIx64 " is not reached by the window (%s): replayed as 0x%" PRIx64,
                     c0t, cycles0 ? "AGE below 5 counts only fetches" : "its PCTR0 counts retires, not carried",
                     c0);
    /* the events that end P (E) */
    pm_tag = next_tag; /* the pool ends just below the trace's tag */
    if (pm_tag != tag)
        pmu_cex_note(o, "start state: OBS_PM.TAG %" PRIu32 " is not the replay's next tag: P is tag %" PRIu64, tag,
                     pm_tag);
    char ev[96];
    int el = 0;
    ev[0] = 0;
    if (ended && trp)
        el += snprintf(ev + el, sizeof ev - (size_t)el, " trap=%" PRIu64 ":%s%s%s", pm_tag, ev67_trap_names[ttype & 15],
                       mis ? ":mis" : "", lso ? ":lso" : "");
    if (ended && (!trp || kbm))
        el += snprintf(ev + el, sizeof ev - (size_t)el, " abort=%" PRIu64, pm_tag);
    if (ended && kbm)
        snprintf(ev + el, sizeof ev - (size_t)el, "/%" PRIu64, pm_tag);
    pmu_cex_write(o, EV67_ADDR_I_CTL, EV67_FMASK(I_CTL, SPCE) | EV67_FMASK(I_CTL, PCT0_EN));
    for (uint64_t step = 0; step <= k;) {
        char line[256];
        int len = snprintf(line, sizeof line, "pal=%u", pal);
        if (step == 0) {
            len += snprintf(line + len, sizeof line - (size_t)len, " tag=%" PRIu64 " fetch=%s@0x%" PRIx64 ":%s%s%s",
                            next_tag, tak || mis ? "cbr" : "intop", pmpc & ~(uint64_t)3, pmpc & 1 ? "p" : "n",
                            icm ? "i" : "", tak ? "t" : "");
            for (unsigned i = 1; i < n; i++)
                len += snprintf(line + len, sizeof line - (size_t)len, ",intop");
            next_tag += n;
            if (stalled)
                len += snprintf(line + len, sizeof line - (size_t)len, " stall=%" PRIu64 "+1", pm_tag);
        } else if (step == 1 && m) {
            for (unsigned i = 0; i < m; i++)
                len += snprintf(line + len, sizeof line - (size_t)len, "%sintop", i ? "," : " fetch=");
            next_tag += m;
        }
        if (step == open && window && !win_en0)
            pmu_cex_write(o, EV67_ADDR_I_CTL, EV67_FMASK(I_CTL, SPCE));
        if (step == ke) {
            snprintf(line + len, sizeof line - (size_t)len, "%s", ev);
            if (!trp || kbm) {
                pm_gone = 1;
                gap_hi = next_tag;
            }
        }
        /* the empty steps up to the next one with something in it, as one line */
        uint64_t rep = 1;
        if (step >= 2 && step != ke) {
            uint64_t next = k + 1;
            if (ke > step && ke < next)
                next = ke;
            if (window && !win_en0 && step < open && open < next)
                next = open;
            rep = next - step;
        }
        pmu_cex_record(o, rep, "%s", line);
        step += rep;
    }
    pm_live = !pm_gone;
    /* what the window leaves */
    uint64_t v = EV67_FSET(0, OBS_PM, PHASE, phase);
    v = EV67_FSET(v, OBS_PM, AGE, age);
    v = EV67_FSET(v, OBS_PM, ENDED, ended);
    v = EV67_FSET(v, OBS_PM, ENDCNT, endcnt);
    v = EV67_FSET(v, OBS_PM, OVR, k ? ovr : 0);
    v = EV67_FSET(v, OBS_PM, ICM, icm);
    v = EV67_FSET(v, OBS_PM, TAK, tak);
    v = EV67_FSET(v, OBS_PM, TRP, trp);
    v = EV67_FSET(v, OBS_PM, MIS, mis);
    v = EV67_FSET(v, OBS_PM, LSO, lso);
    v = EV67_FSET(v, OBS_PM, TRAP_TYPE, ttype);
    v = EV67_FSET(v, OBS_PM, STALLED, stalled);
    v = EV67_FSET(v, OBS_PM, KBM, kbm);
    v = EV67_FSET(v, OBS_PM, TAG, pm_tag);
    start[EV67_VIS_OBS_PM] = v;
    start[EV67_VIS_OBS_PMPC] = pmpc & (EV67_FMASK(OBS_PMPC, PC) | EV67_FMASK(OBS_PMPC, PAL));
    start[EV67_VIS_OBS_CTR] = EV67_FSET(EV67_FSET(octr, OBS_CTR, PCTR0, c0), OBS_CTR, PCTR1, c1);
    if (phase != EV67_PM_STOPPED)
        return;
    /* the window's end: REQ[0] and the results (PMPC, I_STAT, PCTR_CTL's flags) */
    uint64_t istat = EV67_FSET(0, I_STAT, OVR, k ? ovr : 0);
    istat = EV67_FSET(istat, I_STAT, ICM, icm);
    istat = EV67_FSET(istat, I_STAT, TRAP_TYPE, ttype);
    istat = EV67_FSET(istat, I_STAT, LSO, lso);
    istat = EV67_FSET(istat, I_STAT, TRP, trp);
    istat = EV67_FSET(istat, I_STAT, MIS, mis);
    const uint64_t res[2] = {start[EV67_VIS_OBS_PMPC], istat};
    const unsigned rv[2] = {EV67_VIS_PMPC, EV67_VIS_I_STAT};
    const char *const rn[2] = {"PMPC", "I_STAT"};
    for (unsigned i = 0; i < 2; i++) {
        if (start[rv[i]] != res[i])
            pmu_cex_note(o, "start state: %s 0x%" PRIx64 " is not the window's result: replayed as 0x%" PRIx64, rn[i],
                         start[rv[i]], res[i]);
        start[rv[i]] = res[i];
    }
    uint64_t req = EV67_FGET(start[EV67_VIS_OBS_INT], OBS_INT, REQ);
    if (!(req & 1)) {
        pmu_cex_comment(o, "REQ[0] of the window's end cleared");
        pmu_cex_write(o, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, 1));
    }
}

/* PCTR_CTL's ProfileMe flags a stopped machine's window end gave (0 otherwise). */
static uint64_t pm_flags(const uint64_t *start, unsigned phase)
{
    const uint64_t pm = start[EV67_VIS_OBS_PM];
    if (phase != EV67_PM_STOPPED)
        return 0;
    uint64_t f = EV67_FSET(0, PCTR_CTL, TAK, EV67_FGET(pm, OBS_PM, TAK));
    f = EV67_FSET(f, PCTR_CTL, VAL, EV67_FGET(pm, OBS_PM, VAL));
    f = EV67_FSET(f, PCTR_CTL, PM_STALLED, EV67_FGET(pm, OBS_PM, STALLED));
    return EV67_FSET(f, PCTR_CTL, PM_KILLED_BM, EV67_FGET(pm, OBS_PM, KBM));
}

static int preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)err;
    agg_start(t, start, o);
    const uint64_t sel_bits = EV67_FMASK(PCTR_CTL, SL0) | EV67_FMASK(PCTR_CTL, SL1);
    const uint64_t flags = EV67_FMASK(PCTR_CTL, TAK) | EV67_FMASK(PCTR_CTL, VAL) |
                           EV67_FMASK(PCTR_CTL, PM_STALLED) | EV67_FMASK(PCTR_CTL, PM_KILLED_BM);
    const unsigned phase = pm_phase(start);
    if (phase != EV67_PM_STOPPED) { /* (a stopped machine's window end gives them) */
        unreached(start, EV67_VIS_PCTR_CTL, flags, "PCTR_CTL's ProfileMe flags (TAK, VAL, PM_STALLED, "
                  "PM_KILLED_BM)", o);
        unreached(start, EV67_VIS_PMPC, ~0ull, "PMPC (a ProfileMe result)", o);
        unreached(start, EV67_VIS_I_STAT, ~0ull, "I_STAT (a ProfileMe result)", o);
    }
    if (phase) {
        pm_prepare(start, phase, o);
    } else {
        unreached(start, EV67_VIS_OBS_PM, ~0ull, "OBS_PM (the ProfileMe machine)", o);
        unreached(start, EV67_VIS_OBS_PMPC, ~0ull, "OBS_PMPC (the ProfileMe machine)", o);
    }
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
    /* The pool the trace's retires take (each fetched intop retires in a later record); with a
     * window to run, the pool ends just below the profiled instruction's tag. */
    const uint64_t pm_want = EV67_FGET(start[EV67_VIS_OBS_PM], OBS_PM, TAG);
    const uint64_t pool = phase ? (pm_want < POOL_MAX ? pm_want : POOL_MAX) : POOL_MAX;
    next_tag = oldest = phase ? pm_want - pool : FIRST_TAG;
    pm_live = pm_gone = 0;
    pmu_cex_comment(o, "a pool of %" PRIu64 " in-flight intops for the trace's retires", pool);
    for (uint64_t i = 0; i < pool; i += 4) {
        char f[64];
        snprintf(f, sizeof f, "%s%s%s", pool - i > 1 ? ",intop" : "", pool - i > 2 ? ",intop" : "",
                 pool - i > 3 ? ",intop" : "");
        if (i == 0)
            pmu_cex_record(o, 1, "pal=1 tag=%" PRIu64 " fetch=intop@0x10000%s", next_tag, f);
        else
            pmu_cex_record(o, 1, "pal=1 fetch=intop%s", f);
    }
    next_tag += pool;
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
    } else if (phase) {
        /* PCTR0 one below the wrap: the window's first fetch is P */
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(start[EV67_VIS_PCTR_CTL] & sel_bits, top0, c1));
        pm_window(start, phase, o);
    } else {
        pmu_cex_write(o, EV67_ADDR_PCTR_CTL, pctr_value(start[EV67_VIS_PCTR_CTL] & sel_bits, c0, c1));
    }
    pmu_cex_write(o, EV67_ADDR_IER_CM, start[EV67_VIS_IER_CM]);
    pmu_cex_write(o, (uint16_t)(EV67_ADDR_PCTX | 1u << EV67_PCTX_SEL_PPCE), start[EV67_VIS_PCTX]);
    pmu_cex_write(o, EV67_ADDR_I_CTL, start[EV67_VIS_I_CTL]);
    /* What a read shows of the state reached (docs/ev67.md, "read(addr)"; QINC is 0 after
     * a write): PCTR_CTL the selects and the counts, SEXT copying PCTR0's top bit. */
    const uint64_t r0 = EV67_FGET(start[EV67_VIS_OBS_CTR], OBS_CTR, PCTR0);
    const uint64_t r1 = EV67_FGET(start[EV67_VIS_OBS_CTR], OBS_CTR, PCTR1);
    uint64_t pctr = pctr_value(start[EV67_VIS_PCTR_CTL] & sel_bits, r0, r1) | pm_flags(start, phase);
    if (EV67_FGET(pctr, PCTR_CTL, PCTR0) >> (EV67_F_PCTR_CTL_PCTR0_MSB - EV67_F_PCTR_CTL_PCTR0_LSB))
        pctr |= EV67_FMASK(PCTR_CTL, SEXT);
    if (pctr != start[EV67_VIS_PCTR_CTL]) {
        pmu_cex_note(o, "start state: PCTR_CTL reads 0x%" PRIx64 " in the trace, not the read of its counts "
                     "(OBS_CTR 0x%" PRIx64 ") with no read-quirk addend: replayed as 0x%" PRIx64,
                     start[EV67_VIS_PCTR_CTL], octr, pctr);
        start[EV67_VIS_PCTR_CTL] = pctr;
    }
    /* ISUM = REQ & PCEN (IsumRace off). */
    uint64_t isum = EV67_FSET(0, ISUM, PC, EV67_FGET(start[EV67_VIS_OBS_INT], OBS_INT, REQ) &
                                               EV67_FGET(start[EV67_VIS_IER_CM], IER_CM, PCEN));
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

/* The trace's events on its profiled instruction at `step` (the machine's hits, which the
 * ProfileMe properties cut: the solver's choice) as events naming the replay's P, while P is
 * in flight and SELECTED: a trap, a stall, an abort covering it (with KBM).  ev: the record's
 * text for them. */
static void pm_hits(const pmu_cex *t, unsigned step, const uint64_t *vis, char *ev, size_t size, pmu_cex_out *o)
{
    static const char *const name[] = {"trap_hit", "stall_hit", "abort_cov", "kbm_hit", "ret_hit", "sq_hit"};
    uint64_t h[6] = {0}, any = 0;
    for (unsigned i = 0; i < 6; i++) {
        char sig[32];
        pmu_err ignore;
        snprintf(sig, sizeof sig, "dut.u_pm.%s", name[i]);
        if (pmu_cex_get(t, sig, step, 0, 1, &h[i], &ignore))
            h[i] = 0;
        any |= h[i];
    }
    if (!any)
        return;
    if (!pm_live || EV67_FGET(vis[EV67_VIS_OBS_PM], OBS_PM, PHASE) != EV67_PM_SELECTED) {
        pmu_cex_note(o, "trace step %u: the trace's hits on its profiled instruction (trap %" PRIu64 ", stall %" PRIu64
                     ", abort %" PRIu64 ", retire %" PRIu64 ", squash %" PRIu64 ") are not replayed: the replay's "
                     "is not in flight and selected", step, h[0], h[1], h[2], h[4], h[5]);
        return;
    }
    int len = 0;
    if (h[0]) {
        uint64_t type = 0, mis = 0, lso = 0;
        pmu_err ignore;
        if (pmu_cex_get(t, "trap_type_i", step, 0, 4, &type, &ignore) ||
            pmu_cex_get(t, "trap_mis_i", step, 0, 1, &mis, &ignore) ||
            pmu_cex_get(t, "trap_lso_i", step, 0, 1, &lso, &ignore))
            type = mis = lso = 0;
        if (mis)
            pmu_cex_note(o, "trace step %u: the trap on the profiled instruction is replayed without MIS (a "
                         "mispredict trap names a branch fetched in its own record)", step);
        len += snprintf(ev + len, size - (size_t)len, " trap=%" PRIu64 ":%s%s", pm_tag, ev67_trap_names[type & 15],
                        lso && type == EV67_TRAP_REPLAY ? ":lso" : "");
    }
    if (h[1])
        len += snprintf(ev + len, size - (size_t)len, " stall=%" PRIu64 "+1", pm_tag);
    if (h[2]) {
        len += snprintf(ev + len, size - (size_t)len, " abort=%" PRIu64, pm_tag);
        if (h[3])
            snprintf(ev + len, size - (size_t)len, "/%" PRIu64, pm_tag);
    }
    if (h[4] || h[5])
        pmu_cex_note(o, "trace step %u: the profiled instruction %s in the trace; not replayed (in the replay it is "
                     "younger than the pool the trace's retires take)", step, h[4] ? "retires" : "is squashed");
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
    if (nretire > retirable(nfetch)) {
        pmu_cex_note(o, "trace step %u: nretire_i %" PRIu64 " is more than the replay's pool has in flight%s: %" PRIu64,
                     step, nretire, pm_live ? " before the profiled instruction" : "", retirable(nfetch));
        nretire = retirable(nfetch);
    }
    const int sl0 = (int)EV67_FGET(vis[EV67_VIS_PCTR_CTL], PCTR_CTL, SL0);
    if (sl0 && (trap || abort || nsquash || nstall))
        pmu_cex_note(o, "trace step %u: ProfileMe mode: the trace's trap, abort, squashes and stalls (%" PRIu64 ", %"
                     PRIu64 ", %" PRIu64 ", %" PRIu64 ") are replayed only as their hits on the profiled "
                     "instruction (below)", step, trap, abort, nsquash, nstall);
    char line[256], ev[96] = "";
    if (sl0)
        pm_hits(t, step, vis, ev, sizeof ev, o);
    int len = snprintf(line, sizeof line, "pal=%" PRIu64, pal);
    for (uint64_t i = 0; i < nfetch; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, "%sintop", i ? "," : " fetch=");
    next_tag += nfetch;
    if (nretire)
        len = put_retires(line, sizeof line, len, nretire);
    len += snprintf(line + len, sizeof line - (size_t)len, "%s", ev);
    if (pm_live && strstr(ev, " abort=")) {
        pm_live = 0;
        pm_gone = 1;
        gap_hi = next_tag;
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
