/*
 * cex.c - the Alpha 21064's part of `pmusim cex2replay` (include/cli/pmu_cex.h): the
 * checker formal/ev4/ev4_pmu_props.sv, how the reset counter block reaches a trace's start
 * state, and the record of a step's inputs (docs/formal.md, "From a counterexample to a
 * replay").
 *
 * The start state is every flop of ev4_pmu, all of them visible: ICCSR and HIER (written),
 * HIRR (set only by a period crossing, cleared by SL_CLR) and the two counters (never
 * written: cleared by reset, moved only by counting).  The preamble counts them there
 * with events no catalog mutant of the counting touches (tests/mutants/catalog): counter 0
 * on PF_NONISSUES (2 halves for a cycle that issues nothing, 1 for a single issue),
 * counter 1 on PF_EXTPIN1 (pin 1), both with the long periods, which are the counters'
 * whole widths: below the wrap nothing crosses, and a request the state has comes from
 * one whole turn of its counter first.  Then ICCSR and HIER are written.
 */
#include <inttypes.h>
#include <string.h>

#include "cli/pmu_cex.h"
#include "common/ev4/ev4_cycle.h"
#include "common/ev4/ev4_regs.h"
#include "ev4_cmds_internal.h"

/* The long periods are the whole counters (ev4_regs.def EV4_COUNTER): the preamble's
 * counting crosses nothing below the wrap. */
_Static_assert(EV4_CTR0_LONG == EV4_CTR0_WIDTH && EV4_CTR1_LONG == EV4_CTR1_WIDTH,
               "the preamble needs long periods as wide as the counters");

/* The bits the register holds: a state with others set (the formal start state is free)
 * cannot be reached from reset; the replay drops them, with a note. */
static void reachable(uint64_t *v, const char *name, uint64_t bits, pmu_cex_out *o)
{
    if (!(*v & ~bits))
        return;
    pmu_cex_note(o, "start state: %s 0x%" PRIx64 " has bits 0x%" PRIx64 " outside its fields, which no write or "
                 "count sets (not reachable from reset): replayed without them", name, *v, *v & ~bits);
    *v &= bits;
}

static int preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)t; /* every flop is visible */
    reachable(&start[EV4_VIS_ICCSR], "ICCSR", ev4_reg_bits(EV4_REG_ICCSR, EV4_MODEL_21064), o);
    reachable(&start[EV4_VIS_HIER], "HIER", ev4_reg_bits(EV4_REG_HIER, EV4_MODEL_21064), o);
    reachable(&start[EV4_VIS_HIRR], "HIRR", ev4_reg_bits(EV4_REG_HIRR, EV4_MODEL_21064), o);
    reachable(&start[EV4_VIS_CTR0], "CTR0", EV4_FMASK(CTR0, COUNT) | EV4_FMASK(CTR0, HALF), o);
    reachable(&start[EV4_VIS_CTR1], "CTR1", EV4_FMASK(CTR1, COUNT), o);
    const uint64_t ctr0 = start[EV4_VIS_CTR0], ctr1 = start[EV4_VIS_CTR1], hirr = start[EV4_VIS_HIRR];
    (void)err;
    /* Counter 0 as halves {COUNT, HALF}; a request the state has: one more whole turn. */
    uint64_t halves = (EV4_FGET(ctr0, CTR0, COUNT) << 1) | EV4_FGET(ctr0, CTR0, HALF);
    uint64_t pins = EV4_FGET(ctr1, CTR1, COUNT);
    if (EV4_FGET(hirr, HIRR, PC0))
        halves += 2ull << EV4_CTR0_WIDTH;
    if (EV4_FGET(hirr, HIRR, PC1))
        pins += 1ull << EV4_CTR1_WIDTH;
    uint64_t iccsr = 0;
    iccsr = EV4_FSET(iccsr, ICCSR, MUX0, EV4_MUX_PF_NONISSUES);
    iccsr = EV4_FSET(iccsr, ICCSR, MUX1, EV4_MUX_PF_EXTPIN1);
    iccsr = EV4_FSET(iccsr, ICCSR, PME0, 1);
    iccsr = EV4_FSET(iccsr, ICCSR, PME1, 1);
    /* HIER all set while counting: the line is the requests, whatever a mutant does with HIER. */
    pmu_cex_write(o, EV4_ADDR_HIER, EV4_FMASK(HIER, PC0) | EV4_FMASK(HIER, PC1));
    pmu_cex_write(o, EV4_ADDR_ICCSR, iccsr);
    pmu_cex_comment(o, "count: counter 0 %" PRIu64 " halves on PF_NONISSUES, counter 1 %" PRIu64
                       " events on PF_EXTPIN1, long periods", halves, pins);
    /* Records: dry cycles (2 halves) first, a single issue for an odd half, then dual
     * issues (none); pin 1 on the first `pins`. */
    const uint64_t dry = halves / 2, odd = halves & 1, n0 = dry + odd;
    const uint64_t n = n0 > pins ? n0 : pins;
    uint64_t cuts[4] = {dry, n0, pins, n}, at = 0;
    for (unsigned i = 0; i < 4; i++) /* sort the four boundaries */
        for (unsigned j = i + 1; j < 4; j++)
            if (cuts[j] < cuts[i]) {
                uint64_t x = cuts[i];
                cuts[i] = cuts[j];
                cuts[j] = x;
            }
    for (unsigned i = 0; i < 4; i++) {
        if (cuts[i] <= at)
            continue;
        const char *what = at < dry ? "stall=dry" : at < n0 ? "issue=intop" : "issue=intop,intop";
        pmu_cex_record(o, cuts[i] - at, "%s%s", what, at < pins ? " pin1" : "");
        at = cuts[i];
    }
    pmu_cex_write(o, EV4_ADDR_ICCSR, start[EV4_VIS_ICCSR]);
    pmu_cex_write(o, EV4_ADDR_HIER, start[EV4_VIS_HIER]);
    return 0;
}

static const char *const class_names[EV4_NCLASSES] = {"intop", "load", "store", "branch", "fpop", "other"};
static const char *const mode_names[] = {"kernel", "user", "pal"};

static int record(const pmu_cex *t, unsigned step, const uint64_t *vis, pmu_cex_out *o, pmu_err *err)
{
    static const char *const flags[] = {"dmiss_i", "imiss_i", "mispredict_i", "pin0_i", "pin1_i"};
    uint64_t mode, nissue, cls, replay, stall, flag[5];
    if (pmu_cex_get(t, "mode_i", step, 0, 8, &mode, err) || pmu_cex_get(t, "nissue_i", step, 0, 8, &nissue, err) ||
        pmu_cex_get(t, "cls_i", step, 0, 64, &cls, err) || pmu_cex_get(t, "replay_i", step, 0, 8, &replay, err) ||
        pmu_cex_get(t, "stall_i", step, 0, 8, &stall, err))
        return -1;
    for (unsigned i = 0; i < 5; i++)
        if (pmu_cex_get(t, flags[i], step, 0, 1, &flag[i], err))
            return -1;
    /* What the RTL reads of each input (rtl/ev4/ev4_evt_inc.sv), as a record can say it. */
    if (mode > EV4_MODE_PAL) {
        pmu_cex_note(o, "trace step %u: mode_i %" PRIu64 " is no mode; the RTL counts only PAL (2) apart: kernel", step, mode);
        mode = EV4_MODE_KERNEL;
    }
    if (nissue > EV4_MAX_ISSUE) {
        pmu_cex_note(o, "trace step %u: nissue_i %" PRIu64 " is more than the 21064 issues; the RTL counts it as %u",
                     step, nissue, EV4_MAX_ISSUE);
        nissue = EV4_MAX_ISSUE;
    }
    char line[256];
    /* pid 1: user mode needs a process; no OS model runs a replay. */
    int len = snprintf(line, sizeof line, "pid=1 mode=%s", mode_names[mode]);
    unsigned c[EV4_MAX_ISSUE] = {0};
    for (unsigned i = 0; i < nissue; i++) {
        c[i] = (unsigned)(cls >> (i * 3)) & 7u; /* EV4_CLASS_W bits a slot */
        if (c[i] >= EV4_NCLASSES) {
            pmu_cex_note(o, "trace step %u: slot %u's class %u is no class; no event counts it: other", step, i, c[i]);
            c[i] = EV4_CLASS_OTHER;
        }
        len += snprintf(line + len, sizeof line - (size_t)len, "%s%s", i ? "," : " issue=", class_names[c[i]]);
    }
    uint64_t keep = 0;
    for (unsigned i = 0; i < EV4_MAX_ISSUE; i++)
        if ((replay >> i & 1) && i < nissue && c[i] == EV4_CLASS_LOAD)
            keep |= 1u << i;
    if (keep != replay)
        pmu_cex_note(o, "trace step %u: replay_i 0x%" PRIx64 " marks what is not an issued load; the RTL does not read it: "
                     "0x%" PRIx64, step, replay, keep);
    if (keep)
        len += snprintf(line + len, sizeof line - (size_t)len, " replay=%" PRIu64, keep);
    if (nissue == 0) {
        if (stall != EV4_STALL_DRY && stall != EV4_STALL_FROZEN) {
            /* Counts neither PF_PIPEDRY nor PF_PIPEFROZEN: the one counter 0 does not count now. */
            unsigned mux0 = (unsigned)EV4_FGET(vis[EV4_VIS_ICCSR], ICCSR, MUX0);
            unsigned s = mux0 == EV4_MUX_PF_PIPEDRY ? EV4_STALL_FROZEN : EV4_STALL_DRY;
            pmu_cex_note(o, "trace step %u: stall_i %" PRIu64 " with nothing issued is neither dry nor frozen; "
                         "counter 0 (mux0 0x%x) counts neither: %s", step, stall, mux0,
                         s == EV4_STALL_DRY ? "dry" : "frozen");
            stall = s;
        }
        len += snprintf(line + len, sizeof line - (size_t)len, " stall=%s", stall == EV4_STALL_DRY ? "dry" : "frozen");
    }
    static const char *const flag_keys[] = {"dmiss", "imiss", "mispredict", "pin0", "pin1"};
    for (unsigned i = 0; i < 5; i++)
        if (flag[i])
            len += snprintf(line + len, sizeof line - (size_t)len, " %s", flag_keys[i]);
    pmu_cex_record(o, 1, "%s", line);
    return 0;
}

const pmu_cex_family ev4_cex = {
    .checker = "ev4_pmu_props",
    .idle_addr = 0x0, /* below ICCSR: no register (ev4_regs.def) */
    .preamble = preamble,
    .record = record,
};
