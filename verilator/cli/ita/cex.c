/*
 * cex.c - the Itanium / Itanium 2's part of `pmusim cex2replay` (include/cli/pmu_cex.h):
 * the checker formal/ita/ita_counters_props.sv, which assembles the counters (PMD4..7,
 * ita_cnt_qual + ita_counter) and PMC0 (ita_ovf_ctrl) of each model from the RTL's modules,
 * with their own inputs free (docs/formal.md, "The Itanium's replay"), the I-EAR's,
 * formal/ita/ita_iear_props.sv (below, ita_iear_cex), the D-EAR's,
 * formal/ita/ita_dear_props.sv (ita_dear_cex), the BTB's, formal/ita/ita_btb_props.sv
 * (ita_btb_cex), the ranges', formal/ita/ita_ranges_props.sv (ita_ranges_cex), and the event
 * select's, formal/ita/ita_evtsel_props.sv (ita_evtsel_cex).
 *
 * Those inputs are not the top's: each counter's n (the occurrences of its event), its
 * decoded plm / ism / pm table (en_tab), its PMC's oi and threshold, and PMC0.fr as the
 * counters see it.  The replay maps them to top-level inputs that produce them:
 *   - each counter counts a general event no other counter counts (gen_events[]), on a PMC
 *     with every privilege level, both instruction sets, PSR.up as its monitor bit (set by
 *     the first record) and threshold 0: a record's count of that event is the counter's
 *     increment.  The trace's increment (its n through the threshold, where its table
 *     enables the counter) becomes the event's count; where the table disables it, a count
 *     of 0 (a note says so, where the trace had occurrences);
 *   - a counter's oi: its PMC is written again before a record that counts on it with
 *     another oi (only a counting record's oi reaches PMC0);
 *   - the start state: PMD4..7 and PMC0 are writable; the preamble writes them;
 *   - a clock of the checker may write a register and retire a record at once: in ita_pmu
 *     the record is registered at one clock and retired at the next, which may be a write
 *     (docs/ita-rtl.md, "The record in flight"): the record, then the write.
 * PMC0.fr is the stored PMC0's, as inside ita_pmu, so the freeze is the top's own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/pmu_cex.h"
#include "cmds_internal.h"
#include "common/ita/ita_events.h"
#include "common/ita/ita_regs.h"

#define NCNT ITA_NCOUNTERS

/* The general event each counter counts, by model: four events every counter may be
 * programmed on whose counts a record may hold up to the checker's MaxN (7) in a cycle
 * where a model has four (the stream's bound is the Itanium 2 row's maxincr,
 * docs/ita-stream-format.md "Validation"); on the Itanium, two have 7 (their Itanium 2
 * rows') and two 6, counter masks 0x30, which the counters do not check. */
static const char *const gen_events[ITA_NMODELS][NCNT] = {
    [ITA_MODEL_ITANIUM] = {"BUS_SNOOPQ_REQ", "BUS_BRQ_LIVE_REQ_LO", "INST_DISPERSED", "IA64_TAGGED_INST_RETIRED_PMC8"},
    [ITA_MODEL_ITANIUM2] = {"RSE_CURRENT_REGS_2_TO_0", "RSE_CURRENT_REGS_5_TO_3", "RSE_DIRTY_REGS_2_TO_0",
                            "RSE_DIRTY_REGS_5_TO_3"},
};

/* The checker's instance of a model. */
static const char *const model_inst[ITA_NMODELS] = {
    [ITA_MODEL_ITANIUM] = "u_itanium",
    [ITA_MODEL_ITANIUM2] = "u_itanium2",
};

/* pmu_cex_state words: the oi bits the replay's PMC4..7 have, and whether PSR.up is set. */
enum { ST_OI, ST_UP };

/* Signal `name` of model m's instance ("cnt", "g_cnt<0>.inc"). */
static int get_m(const pmu_cex *t, unsigned m, const char *name, unsigned step, unsigned lsb, unsigned width,
                 uint64_t *v, pmu_err *err)
{
    char full[128];
    snprintf(full, sizeof full, "%s.%s", model_inst[m], name);
    return pmu_cex_get(t, full, step, lsb, width, v, err);
}

/* The same of the replayed model. */
static int get(const pmu_cex *t, const char *name, unsigned step, unsigned lsb, unsigned width, uint64_t *v,
               pmu_err *err)
{
    return get_m(t, pmu_cex_model(t), name, step, lsb, width, v, err);
}

static uint64_t sext(uint64_t v, unsigned w) { return (v >> (w - 1) & 1) ? v | ~((1ull << w) - 1) : v; }

/* The event counter k counts on this model, and the most a record may carry of it. */
static const ita_event_row *gen_event(unsigned model, unsigned k, unsigned *bound)
{
    const ita_event_row *r = ita_event_find((int)model, gen_events[model][k]);
    const ita_event_row *r2 = ita_event_find(ITA_MODEL_ITANIUM2, gen_events[model][k]);
    *bound = r2 ? r2->maxincr : r ? r->maxincr : 0;
    return r;
}

/* A counter's PMC of the replay: counts event e at every cpl, in both instruction sets,
 * while PSR.up (pm = 0), threshold 0, with overflow interrupt oi. */
static uint64_t pmc_event(unsigned model, const ita_event_row *e, unsigned oi)
{
    uint64_t v = ita_reg_table[ITA_REG_PMC4].reset[model]; /* Itanium 2: bit 23 as reset has it */
    v = ITA_FSET(v, PMC_GEN, PLM, 0xf);
    v = ITA_FSET(v, PMC_GEN, OI, oi);
    v = ITA_FSET(v, PMC_GEN, PM, 0);
    v = ITA_FSET(v, PMC_GEN, ES, e->code);
    v = ITA_FSET(v, PMC_GEN, UMASK, e->umask);
    v = ITA_FSET(v, PMC_GEN, THRES, 0);
    v = ITA_FSET(v, PMC_GEN, ISM, 0);
    return v;
}

/* PMC(4+k) of the counters' replay: its general event. */
static uint64_t pmc_value(unsigned model, unsigned k, unsigned oi)
{
    unsigned bound;
    return pmc_event(model, gen_event(model, k, &bound), oi);
}

static int vis(const pmu_cex *t, unsigned step, uint64_t *v, unsigned char *shown, pmu_err *err)
{
    const unsigned model = pmu_cex_model(t), w = ita_counter_width((ita_model)model);
    for (unsigned k = 0; k < NCNT; k++) {
        char name[64];
        snprintf(name, sizeof name, "g_cnt<%u>.u_counter.cnt_q", k);
        if (get(t, name, step, 0, w, &v[ITA_VIS_PMD4 + k], err))
            return -1;
        v[ITA_VIS_PMD4 + k] = sext(v[ITA_VIS_PMD4 + k], w); /* a read sign-extends the count */
        shown[ITA_VIS_PMD4 + k] = 1;
    }
    if (get(t, "u_ovf_ctrl.pmc0_q", step, 0, 64, &v[ITA_VIS_PMC0], err))
        return -1;
    shown[ITA_VIS_PMC0] = 1;
    return 0;
}

/* A clock whose writes are the checker's one-hot `we` (n bits, bit i writing vis[i]). */
static int we_clock(const pmu_cex *t, unsigned step, unsigned n, const unsigned *vis, pmu_cex_clock *c, pmu_err *err)
{
    uint64_t we, wdata, st;
    if (get(t, "we", step, 0, n, &we, err) || get(t, "wdata", step, 0, 64, &wdata, err) ||
        get(t, "step", step, 0, 1, &st, err))
        return -1;
    if (we & (we - 1))
        return pmu_errf(err, PMU_E_INPUT, "step %u: %s.we 0x%" PRIx64 " writes two registers in one clock, expected "
                        "at most one (the checker assumes it)", step, model_inst[pmu_cex_model(t)], we);
    c->step = (int)st;
    c->write = we != 0;
    c->addr = 0;
    for (unsigned i = 0; i < n; i++)
        if (we >> i & 1)
            c->addr = ita_vis_table[vis[i]].addr;
    c->data = wdata;
    return 0;
}

static int clock(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    static const unsigned vis[NCNT + 1] = {ITA_VIS_PMD4, ITA_VIS_PMD5, ITA_VIS_PMD6, ITA_VIS_PMD7, ITA_VIS_PMC0};
    return we_clock(t, step, NCNT + 1, vis, c, err);
}

static int preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    const unsigned model = pmu_cex_model(t);
    const uint64_t bits = ita_reg_table[ITA_REG_PMC0].wmask[model];
    uint64_t oi;
    if (get(t, "oi", 0, 0, NCNT, &oi, err))
        return -1;
    if (start[ITA_VIS_PMC0] & ~bits) {
        uint64_t keep = (start[ITA_VIS_PMC0] & bits) | (ita_reg_table[ITA_REG_PMC0].reset[model] & ~bits);
        pmu_cex_note(o, "start state: PMC0 0x%" PRIx64 " has bits 0x%" PRIx64 " outside its fields, which no write or "
                     "count sets (not reachable from reset): replayed as 0x%" PRIx64, start[ITA_VIS_PMC0],
                     start[ITA_VIS_PMC0] & ~bits, keep);
        start[ITA_VIS_PMC0] = keep;
    }
    pmu_cex_comment(o, "each counter counts a general event of the record's cycle part (PMC: plm 0xf, ism both, "
                       "pm 0 with PSR.up set by the first record, threshold 0)");
    for (unsigned k = 0; k < NCNT; k++) {
        unsigned bound;
        if (!gen_event(model, k, &bound))
            return pmu_errf(err, PMU_E_INPUT, "the %s has no event %s for PMD%u", ita_models[model].name,
                            gen_events[model][k], ITA_FIRST_COUNTER + k);
        pmu_cex_comment(o, "PMD%u counts %s (up to %u a record)", ITA_FIRST_COUNTER + k, gen_events[model][k], bound);
        pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC4 + k].addr, pmc_value(model, k, (unsigned)(oi >> k & 1)));
    }
    pmu_cex_state(o)[ST_OI] = oi;
    for (unsigned k = 0; k < NCNT; k++)
        pmu_cex_write(o, ita_vis_table[ITA_VIS_PMD4 + k].addr, start[ITA_VIS_PMD4 + k]);
    pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC0].addr, start[ITA_VIS_PMC0]);
    return 0;
}

static int record(const pmu_cex *t, unsigned step, const uint64_t *v, pmu_cex_out *o, pmu_err *err)
{
    (void)v;
    const unsigned model = pmu_cex_model(t);
    uint64_t st, cpl, is, up, pp, fr, en, oi;
    if (get(t, "step", step, 0, 1, &st, err) || get(t, "cpl", step, 0, 2, &cpl, err) ||
        get(t, "is", step, 0, 1, &is, err) || get(t, "up", step, 0, 1, &up, err) || get(t, "pp", step, 0, 1, &pp, err) ||
        get(t, "fr", step, 0, 1, &fr, err) || get(t, "en", step, 0, NCNT, &en, err) ||
        get(t, "oi", step, 0, NCNT, &oi, err))
        return -1;
    uint64_t *state = pmu_cex_state(o);
    char evs[256] = "";
    size_t len = 0;
    for (unsigned k = 0; k < NCNT; k++) {
        char name[64];
        uint64_t inc, n;
        snprintf(name, sizeof name, "g_cnt<%u>.inc", k);
        if (get(t, name, step, 0, 10, &inc, err))
            return -1;
        if (get(t, "n", step, k * 10, 10, &n, err))
            return -1;
        if (!(en >> k & 1)) {
            if (st && !fr && n)
                pmu_cex_note(o, "trace step %u: PMD%u's table (en_tab) disables it at cpl %" PRIu64 ", is %" PRIu64
                             ", up %" PRIu64 ", pp %" PRIu64 ", where the replay's PMC counts: its %" PRIu64
                             " occurrences replayed as a count of 0", step, ITA_FIRST_COUNTER + k, cpl, is, up, pp, n);
            inc = 0;
        }
        unsigned bound;
        gen_event(model, k, &bound);
        if (inc > bound) {
            pmu_cex_note(o, "trace step %u: PMD%u adds %" PRIu64 ", more than a record carries of %s (%u): replayed "
                         "as %u", step, ITA_FIRST_COUNTER + k, inc, gen_events[model][k], bound, bound);
            inc = bound;
        }
        if (!inc)
            continue;
        if ((state[ST_OI] >> k & 1) != (oi >> k & 1)) {
            pmu_cex_comment(o, "trace step %u: PMC%u's oi %u for this record", step, ITA_FIRST_COUNTER + k,
                            (unsigned)(oi >> k & 1));
            pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC4 + k].addr, pmc_value(model, k, (unsigned)(oi >> k & 1)));
            state[ST_OI] ^= 1ull << k;
        }
        len += (size_t)snprintf(evs + len, sizeof evs - len, "%s%s%s%" PRIu64, len ? "," : " ev=",
                                gen_events[model][k], inc > 1 ? ":" : "", inc);
        if (inc == 1) /* a count of 1 is the name alone */
            evs[--len] = 0;
    }
    pmu_cex_record(o, 1, "cpl=%" PRIu64 " is=%s%s%s", cpl, is ? "ia32" : "ia64", state[ST_UP] ? "" : " up=1", evs);
    state[ST_UP] = 1;
    return 0;
}

/* The model whose assertion fails: each property of a checker asserts its wire ok_<name>,
 * which a trace of that property's model has (props[]: the checker's properties). */
static int ok_model(const pmu_cex *t, const char *const *props, unsigned nprops, const char *file, unsigned *m,
                    char *why, size_t size, pmu_err *err)
{
    /* The clocked assertion the solver reports failing at the last step is over the values
     * of the step before. */
    const unsigned step = pmu_cex_steps(t) - 2;
    const char *prop = NULL;
    int fails[ITA_NMODELS] = {0};
    for (unsigned i = 0; i < ITA_NMODELS; i++)
        for (unsigned p = 0; p < nprops; p++) {
            char name[64];
            uint64_t ok;
            pmu_err e;
            snprintf(name, sizeof name, "ok_%s", props[p]);
            if (!get_m(t, i, name, step, 0, 1, &ok, &e)) {
                prop = props[p];
                fails[i] |= !ok;
            }
        }
    if (!prop)
        return pmu_errf(err, PMU_E_INPUT, "no signal %s.ok_<property> (%s, ...), expected a counterexample of %s",
                        model_inst[0], props[0], file);
    for (unsigned i = 0; i < ITA_NMODELS; i++)
        if (fails[i]) {
            *m = i;
            snprintf(why, size, "%s fails in %s at step %u%s", prop, model_inst[i], step + 1,
                     i + 1 < ITA_NMODELS && fails[i + 1] ? ", and in the other model" : "");
            return 0;
        }
    return pmu_errf(err, PMU_E_INPUT, "%s holds at step %u in %s and %s (ok_%s is 1), expected a "
                    "counterexample (--model: replay one anyway)", prop, step + 1, model_inst[0], model_inst[1], prop);
}

static int model(const pmu_cex *t, unsigned *m, char *why, size_t size, pmu_err *err)
{
    static const char *const props[] = {"ovf_set_by_wrap", "ovf_sticky", "freeze_holds", "oi_wrap_freezes",
                                        "pmi_on_oi_wrap"};
    return ok_model(t, props, sizeof props / sizeof props[0], "formal/ita/ita_counters_props.sv", m, why, size, err);
}

/* ---- the I-EAR checker, formal/ita/ita_iear_props.sv ---------------------------------------------
 * ita_iear with its inputs free: PMC10, the record's step, cpl, is, PSR, fetch and the
 * fetch's qualification, and PMC0.fr.  The replay writes PMC10 and PMC0 (fr) before a
 * record whose values differ from those the replay's registers have; cpl and is are the
 * record's, and each record writes PSR.up and PSR.pp (up=, pp=) to the trace's values; the
 * fetch is the record's (if_addr, if_lat, if_tlb, if_rab).  A fetch the trace says fails its
 * qualification is replayed as no fetch (nothing captures either way: the unit captures
 * only a fetch that hits its mode's latency or TLB outcome, which no fetch does not), with a
 * note.  The start state: PMD0 and PMD1 are writable. */

/* pmu_cex_state words of the I-EAR part: PMC10 and PMC0.fr as the replay has them. */
enum { ST_PMC10, ST_FR };

static int iear_vis(const pmu_cex *t, unsigned step, uint64_t *v, unsigned char *shown, pmu_err *err)
{
    if (get(t, "dut.u_pmd0.reg_q", step, 0, 64, &v[ITA_VIS_PMD0], err) ||
        get(t, "dut.u_pmd1.reg_q", step, 0, 64, &v[ITA_VIS_PMD1], err))
        return -1;
    shown[ITA_VIS_PMD0] = shown[ITA_VIS_PMD1] = 1;
    return 0;
}

static int iear_clock(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    uint64_t we0, we1, wdata, st;
    if (get(t, "we0", step, 0, 1, &we0, err) || get(t, "we1", step, 0, 1, &we1, err) ||
        get(t, "wdata", step, 0, 64, &wdata, err) || get(t, "step", step, 0, 1, &st, err))
        return -1;
    if (we0 && we1)
        return pmu_errf(err, PMU_E_INPUT, "step %u: %s writes PMD0 and PMD1 in one clock, expected at most one (the "
                        "checker assumes it)", step, model_inst[pmu_cex_model(t)]);
    c->step = (int)st;
    c->write = (we0 || we1);
    c->addr = ita_vis_table[we1 ? ITA_VIS_PMD1 : ITA_VIS_PMD0].addr;
    c->data = wdata;
    return 0;
}

/* A register of the start state with bits no write sets: replayed as the write leaves it. */
static void writable(uint64_t *v, unsigned reg, unsigned model, const char *name, pmu_cex_out *o)
{
    const uint64_t bits = ita_reg_table[reg].wmask[model];
    if (!(*v & ~bits))
        return;
    const uint64_t keep = (*v & bits) | (ita_reg_table[reg].reset[model] & ~bits);
    pmu_cex_note(o, "start state: %s 0x%" PRIx64 " has bits 0x%" PRIx64 " no write sets (a capture's, or outside "
                 "its fields): replayed as 0x%" PRIx64, name, *v, *v & ~bits, keep);
    *v = keep;
}

/* A unit's PMC (PMC10, PMC11) and PMC0.fr of a record: written before it where they differ from
 * what the replay's registers have (state: ST_PMC10, ST_FR). */
static void unit_regs(unsigned step, unsigned reg, unsigned vis, const char *name, uint64_t value, uint64_t fr,
                      unsigned model, pmu_cex_out *o)
{
    uint64_t *state = pmu_cex_state(o);
    const uint64_t wmask = ita_reg_table[reg].wmask[model];
    const uint64_t stored = (value & wmask) | (ita_reg_table[reg].reset[model] & ~wmask);
    if (stored != state[ST_PMC10]) {
        pmu_cex_comment(o, "trace step %u: %s 0x%" PRIx64 " for this record", step, name, value);
        pmu_cex_write(o, ita_vis_table[vis].addr, value);
        state[ST_PMC10] = stored;
    }
    if (fr != state[ST_FR]) {
        pmu_cex_comment(o, "trace step %u: PMC0.fr %" PRIu64 " for this record", step, fr);
        pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC0].addr, ITA_FSET(0, PMC0, FR, fr));
        state[ST_FR] = fr;
    }
}

static int iear_preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)err;
    const unsigned model = pmu_cex_model(t);
    writable(&start[ITA_VIS_PMD0], ITA_REG_PMD0, model, "PMD0", o);
    writable(&start[ITA_VIS_PMD1], ITA_REG_PMD1, model, "PMD1", o);
    pmu_cex_write(o, ita_vis_table[ITA_VIS_PMD0].addr, start[ITA_VIS_PMD0]);
    pmu_cex_write(o, ita_vis_table[ITA_VIS_PMD1].addr, start[ITA_VIS_PMD1]);
    /* PMC10 and PMC0 as reset leaves them (PMC0.fr set): the records' writes follow */
    uint64_t *state = pmu_cex_state(o);
    state[ST_PMC10] = ita_reg_table[ITA_REG_PMC10].reset[model];
    state[ST_FR] = ITA_FGET(ita_reg_table[ITA_REG_PMC0].reset[model], PMC0, FR);
    return 0;
}

static int iear_record(const pmu_cex *t, unsigned step, const uint64_t *v, pmu_cex_out *o, pmu_err *err)
{
    (void)v;
    const unsigned model = pmu_cex_model(t);
    uint64_t st, cpl, is, up, pp, fr, qual, pmc10, addr, lat, tlb, rab;
    if (get(t, "step", step, 0, 1, &st, err) || get(t, "cpl", step, 0, 2, &cpl, err) ||
        get(t, "is", step, 0, 1, &is, err) || get(t, "up", step, 0, 1, &up, err) || get(t, "pp", step, 0, 1, &pp, err) ||
        get(t, "fr", step, 0, 1, &fr, err) || get(t, "qual", step, 0, 1, &qual, err) ||
        get(t, "pmc10", step, 0, 64, &pmc10, err) || get(t, "if_addr", step, 0, 64, &addr, err) ||
        get(t, "if_lat", step, 0, 16, &lat, err) || get(t, "if_tlb", step, 0, 2, &tlb, err))
        return -1;
    rab = 0;
    if (model == ITA_MODEL_ITANIUM2 && get(t, "if_rab", step, 0, 1, &rab, err))
        return -1;
    if (!st) { /* the last step's inputs (no clock retires them): a record that captures nothing */
        pmu_cex_record(o, 1, "cpl=%" PRIu64 " is=%s", cpl, is ? "ia32" : "ia64");
        return 0;
    }
    unit_regs(step, ITA_REG_PMC10, ITA_VIS_PMC10, "PMC10", pmc10, fr, model, o);
    const int fetch = lat || tlb || rab;
    if (fetch && !qual) {
        pmu_cex_note(o, "trace step %u: the fetch fails L1I_EAR_EVENTS' qualification (qual 0), which the replay's "
                     "IBRs do not make it: replayed as no fetch, which captures nothing either", step);
        lat = tlb = rab = 0;
    }
    if (addr && !(lat || tlb || rab)) {
        pmu_cex_note(o, "trace step %u: if_addr 0x%" PRIx64 " without a fetch (no record carries one): replayed as 0, "
                     "which nothing captures", step, addr);
        addr = 0;
    }
    char f[160] = "";
    if (lat || tlb || rab)
        snprintf(f, sizeof f, " if_addr=0x%" PRIx64 " if_lat=%" PRIu64 " if_tlb=%" PRIu64 "%s", addr, lat, tlb,
                 rab ? " if_rab" : "");
    pmu_cex_record(o, 1, "cpl=%" PRIu64 " is=%s up=%" PRIu64 " pp=%" PRIu64 "%s", cpl, is ? "ia32" : "ia64", up, pp, f);
    return 0;
}

static int iear_model(const pmu_cex *t, unsigned *m, char *why, size_t size, pmu_err *err)
{
    static const char *const props[] = {"iear_captures_only_armed"};
    return ok_model(t, props, 1, "formal/ita/ita_iear_props.sv", m, why, size, err);
}


/* ---- the D-EAR checker, formal/ita/ita_dear_props.sv ---------------------------------------------
 * ita_dear with its inputs free: PMC11, the record's step, cpl, is, PSR, its slots (nslots,
 * flags, lat, tlb, ip, idx, daddr) and which of them pass DATA_EAR_EVENTS' qualification,
 * and PMC0.fr.  PMC11, PMC0.fr, cpl, is and the PSR are replayed as the I-EAR's PMC10 and
 * its record's (the Itanium's PMC11.pt, which the D-EAR does not read, set: no data-address
 * range check, so every access passes the qualification).  Each valid slot is carried with
 * what the D-EAR reads of it: the first candidate (not squashed, qualified, hitting PMC11's
 * mode: a load over the latency threshold, an access with a TLB outcome the umask takes, a
 * check load whose ALAT lookup missed), which the unit captures, with its access (load /
 * store, alat_miss, da, lat, tlb), ip and syllable; every other slot as its ip and syllable
 * alone (a slot without an access hits no mode; so no record has more accesses than a cycle
 * may), slot 0's ip being the Itanium 2's dispersal window (PMD17).  A slot the
 * trace says fails the qualification but hits the mode is replayed without its access
 * (nothing captures it either way), with a note; so are the values no record carries (an
 * ip off its bundle in IA-64, a syllable 3, an ALAT miss without a load). */


/* The start state, PMD2, PMD3 and PMD17 (cap regs of ita_dear). */
static const struct {
    unsigned vis, reg;
    const char *flop;
} dear_regs[] = {
    {ITA_VIS_PMD2, ITA_REG_PMD2, "dut.u_pmd2.reg_q"},
    {ITA_VIS_PMD3, ITA_REG_PMD3, "dut.u_pmd3.reg_q"},
    {ITA_VIS_PMD17, ITA_REG_PMD17, "dut.u_pmd17.reg_q"},
};
#define NDEAR (sizeof dear_regs / sizeof dear_regs[0])

static int dear_vis(const pmu_cex *t, unsigned step, uint64_t *v, unsigned char *shown, pmu_err *err)
{
    for (unsigned i = 0; i < NDEAR; i++) {
        if (get(t, dear_regs[i].flop, step, 0, 64, &v[dear_regs[i].vis], err))
            return -1;
        shown[dear_regs[i].vis] = 1;
    }
    return 0;
}

static int dear_clock(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    static const char *const we[NDEAR] = {"we2", "we3", "we17"};
    uint64_t w, wdata, st;
    unsigned n = 0;
    if (get(t, "wdata", step, 0, 64, &wdata, err) || get(t, "step", step, 0, 1, &st, err))
        return -1;
    c->write = 0;
    for (unsigned i = 0; i < NDEAR; i++) {
        if (get(t, we[i], step, 0, 1, &w, err))
            return -1;
        if (w) {
            n++;
            c->write = 1;
            c->addr = ita_vis_table[dear_regs[i].vis].addr;
        }
    }
    if (n > 1)
        return pmu_errf(err, PMU_E_INPUT, "step %u: %s writes %u of PMD2, PMD3 and PMD17 in one clock, expected at "
                        "most one (the checker assumes it)", step, model_inst[pmu_cex_model(t)], n);
    c->step = (int)st;
    c->data = wdata;
    return 0;
}

/* The start state of a unit's registers (vis[i], register reg[i]: writable; bits no write sets
 * start at the reset's, with a note), and its PMC (pmc) and PMC0.fr as reset leaves them
 * (the records' writes follow: unit_regs). */
static void unit_preamble(unsigned model, const unsigned *vis, const unsigned *reg, unsigned n, unsigned pmc,
                          const char *reads, uint64_t *start, pmu_cex_out *o)
{
    for (unsigned i = 0; i < n; i++) {
        writable(&start[vis[i]], reg[i], model, ita_reg_table[reg[i]].name, o);
        pmu_cex_write(o, ita_vis_table[vis[i]].addr, start[vis[i]]);
    }
    uint64_t *state = pmu_cex_state(o);
    state[ST_PMC10] = ita_reg_table[pmc].reset[model];
    state[ST_FR] = ITA_FGET(ita_reg_table[ITA_REG_PMC0].reset[model], PMC0, FR);
    pmu_cex_comment(o, "each slot carries what %s; any other its ip and syllable", reads);
}

static int dear_preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)err;
    unsigned vis[NDEAR], reg[NDEAR];
    for (unsigned i = 0; i < NDEAR; i++)
        vis[i] = dear_regs[i].vis, reg[i] = dear_regs[i].reg;
    unit_preamble(pmu_cex_model(t), vis, reg, NDEAR, ITA_REG_PMC11,
                  "the D-EAR reads of it: the first candidate its access, ip and syllable", start, o);
    return 0;
}

/* A slot's " | ip=... s=..." as a record carries it: an IA-64 ip off its bundle aligned, a
 * syllable no record has (3; IA-32: not 0) made one; a note where the unit reads it (ip_read:
 * the captured slot's ip or the window's, slot 0; s_read: the captured slot's syllable). */
static size_t slot_place(unsigned step, unsigned k, uint64_t is, int s_read, int ip_read, uint64_t ip, uint64_t idx,
                         char *buf, size_t size, pmu_cex_out *o)
{
    if (!is && (ip & 0xf) && ip_read)
        pmu_cex_note(o, "trace step %u: slot %u's ip 0x%" PRIx64 " is off its bundle, which no IA-64 record "
                     "carries: replayed as 0x%" PRIx64, step, k + 1, ip, ip & ~(uint64_t)0xf);
    if (!is)
        ip &= ~(uint64_t)0xf;
    if (s_read && (is ? idx != 0 : idx > 2))
        pmu_cex_note(o, "trace step %u: slot %u's syllable %" PRIu64 ", which no %s record carries: replayed "
                     "as %u", step, k + 1, idx, is ? "IA-32" : "IA-64", is ? 0 : 2);
    idx = is ? 0 : idx > 2 ? 2 : idx;
    return (size_t)snprintf(buf, size, " | ip=0x%" PRIx64 " s=%" PRIu64, ip, idx);
}

/* The record's valid slots: nslots, 7 (which a unit takes as six valid slots) made 6. */
static uint64_t valid_slots(unsigned step, uint64_t nslots, pmu_cex_out *o)
{
    if (nslots <= ITA_MAX_SLOTS)
        return nslots;
    pmu_cex_note(o, "trace step %u: nslots %" PRIu64 ", more than a record has (%u): the unit takes every slot valid, "
                 "replayed as %u", step, nslots, ITA_MAX_SLOTS, ITA_MAX_SLOTS);
    return ITA_MAX_SLOTS;
}

/* The part of a D-EAR or BTB record before its slots: the clock's PMC (pmc_sig, register reg,
 * with the bits `set` set) and PMC0.fr written where they differ, the valid slots, the line's
 * cycle fields.  -1 with err filled, 0 when the step retires nothing (the trace's last: its
 * record written, cpl and is alone), 1 with r filled. */
typedef struct slot_rec {
    uint64_t is, pmc, nslots, qual;
    char line[1024];
    size_t len;
} slot_rec;

static int slot_record_head(const pmu_cex *t, unsigned step, const char *pmc_sig, unsigned reg, unsigned vis,
                            uint64_t set, slot_rec *r, pmu_cex_out *o, pmu_err *err)
{
    const unsigned model = pmu_cex_model(t);
    uint64_t st, cpl, up, pp, fr;
    if (get(t, "step", step, 0, 1, &st, err) || get(t, "cpl", step, 0, 2, &cpl, err) ||
        get(t, "is", step, 0, 1, &r->is, err) || get(t, "up", step, 0, 1, &up, err) ||
        get(t, "pp", step, 0, 1, &pp, err) || get(t, "fr", step, 0, 1, &fr, err) ||
        get(t, pmc_sig, step, 0, 64, &r->pmc, err) || get(t, "nslots", step, 0, 3, &r->nslots, err) ||
        get(t, "qual", step, 0, ITA_MAX_SLOTS, &r->qual, err))
        return -1;
    if (!st) { /* the last step's inputs (no clock retires them): a record that captures nothing */
        pmu_cex_record(o, 1, "cpl=%" PRIu64 " is=%s", cpl, r->is ? "ia32" : "ia64");
        return 0;
    }
    r->pmc |= set;
    unit_regs(step, reg, vis, ita_reg_table[reg].name, r->pmc, fr, model, o);
    r->nslots = valid_slots(step, r->nslots, o);
    r->len = (size_t)snprintf(r->line, sizeof r->line, "cpl=%" PRIu64 " is=%s up=%" PRIu64 " pp=%" PRIu64, cpl,
                              r->is ? "ia32" : "ia64", up, pp);
    return 1;
}

/* PMC11's threshold of a cache-mode capture (ita_dear's threshold()), 0 = none. */
static unsigned dear_threshold(unsigned model, unsigned u)
{
    if (model == ITA_MODEL_ITANIUM2)
        return u <= 0xa ? 4u << u : 0;
    return u <= 6 ? 4u << u : u <= 8 ? 512 : u == 9 ? 1024 : u == 0xa ? 2048 : u == 0xf ? 1 : 0;
}

static int dear_record(const pmu_cex *t, unsigned step, const uint64_t *v, pmu_cex_out *o, pmu_err *err)
{
    (void)v;
    const unsigned model = pmu_cex_model(t);
    slot_rec r;
    /* the Itanium's pt: no data-address range check (the D-EAR does not read it) */
    const int h = slot_record_head(t, step, "pmc11", ITA_REG_PMC11, ITA_VIS_PMC11,
                                   model == ITA_MODEL_ITANIUM ? ITA_FSET(0, PMC11, PT, 1) : 0, &r, o, err);
    if (h <= 0)
        return h;
    const uint64_t pmc11 = r.pmc, is = r.is, qual = r.qual;
    const unsigned umask = (unsigned)ITA_FGET(pmc11, PMC11, UMASK);
    unsigned mode = (unsigned)ITA_FGET(pmc11, PMC11, MODE); /* 0 cache, 1 TLB, 2 ALAT */
    if (model == ITA_MODEL_ITANIUM)
        mode = (unsigned)ITA_FGET(pmc11, PMC11_ITA, TLB);
    char *const line = r.line;
    size_t len = r.len;
    int captured = 0;
    for (unsigned k = 0; k < r.nslots; k++) {
        uint64_t flags, lat, tlb, ip, idx, da;
        if (get(t, "flags", step, k * ITA_SF_WIDTH, ITA_SF_WIDTH, &flags, err) ||
            get(t, "lat", step, k * 16, 16, &lat, err) || get(t, "tlb", step, k * 2, 2, &tlb, err) ||
            get(t, "ip", step, k * 64, 64, &ip, err) || get(t, "idx", step, k * 2, 2, &idx, err) ||
            get(t, "daddr", step, k * 64, 64, &da, err))
            return -1;
        const int load = flags >> ITA_SF_LOAD_LSB & 1, store = flags >> ITA_SF_STORE_LSB & 1,
                  alat = flags >> ITA_SF_ALAT_MISS_LSB & 1, off = flags >> ITA_SF_PRED_OFF_LSB & 1;
        const unsigned thr = dear_threshold(model, umask);
        int hits = mode == 0   ? load && thr && lat >= thr
                   : mode == 1 ? (load || store) && tlb != 0 && (umask >> tlb & 1)
                   : mode == 2 ? alat
                               : 0;
        if (hits && !off && !(qual >> k & 1)) {
            pmu_cex_note(o, "trace step %u: slot %u hits PMC11's mode but fails DATA_EAR_EVENTS' qualification "
                         "(qual 0), which the replay's DBRs do not make it: replayed without its access, which "
                         "captures nothing either", step, k + 1);
            hits = 0;
        }
        const int cand = hits && !off && !captured; /* the unit captures the first */
        captured |= cand;
        len += slot_place(step, k, is, cand, cand || (k == 0 && model == ITA_MODEL_ITANIUM2), ip, idx, line + len,
                          sizeof r.line - len, o);
        if (!cand)
            continue;
        if (alat && !load && mode == 2) {
            pmu_cex_note(o, "trace step %u: slot %u's ALAT miss without a load, which no record carries: replayed "
                         "as a load's", step, k + 1);
        }
        const int ld = load || (mode == 2), sto = store && !ld;
        len += (size_t)snprintf(line + len, sizeof r.line - len, "%s%s%s da=0x%" PRIx64 " lat=%" PRIu64 " tlb=%" PRIu64,
                                ld ? " load" : "", sto ? " store" : "", mode == 2 ? " alat_miss" : "", da, lat,
                                tlb);
    }
    pmu_cex_record(o, 1, "%s", line);
    return 0;
}

static int dear_model(const pmu_cex *t, unsigned *m, char *why, size_t size, pmu_err *err)
{
    static const char *const props[] = {"dear_captures_only_armed"};
    return ok_model(t, props, 1, "formal/ita/ita_dear_props.sv", m, why, size, err);
}


/* ---- the BTB checker, formal/ita/ita_btb_props.sv -------------------------------------------------
 * ita_btb with its inputs free: PMC12, the record's step, cpl, is, PSR, its slots (nslots,
 * flags, ip, idx, target) and which of them pass BRANCH_EVENT's qualification, and PMC0.fr.
 * PMC12, PMC0.fr, cpl, is and the PSR are replayed as the D-EAR's PMC11 and its record's.
 * Each valid slot of an IA-64 record is carried with what the BTB reads of it: the first
 * branch PMC12's masks take (btb_keys), which the unit records, its type, prediction, taken
 * bit, target, ip and syllable, on unit B; any other slot its ip and syllable alone (every
 * mask takes branches only; so no record has more branches than a cycle may).  A branch the
 * masks take that the trace says fails the qualification is replayed as no branch (nothing
 * records it either way), a
 * squashed branch, which no record carries, as a branch not taken (the BTB reads the two
 * alike: the taken mask sees neither taken, the record's slot is 3), each with a note.  An
 * IA-32 record is its slots' ips alone: the BTB records only IA-64 branches. */

#define NBTB (ITA_VIS_PMD16 - ITA_VIS_PMD8 + 1) /* PMD8..PMD15, PMD16 */

static int btb_vis(const pmu_cex *t, unsigned step, uint64_t *v, unsigned char *shown, pmu_err *err)
{
    for (unsigned j = 0; j < NBTB; j++) {
        char name[64];
        if (j + 1 < NBTB)
            snprintf(name, sizeof name, "dut.g_ent<%u>.u_ent.reg_q", j);
        else
            snprintf(name, sizeof name, "dut.u_pmd16.reg_q");
        if (get(t, name, step, 0, 64, &v[ITA_VIS_PMD8 + j], err))
            return -1;
        shown[ITA_VIS_PMD8 + j] = 1;
    }
    return 0;
}

static int btb_clock(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    unsigned vis[NBTB];
    for (unsigned j = 0; j < NBTB; j++)
        vis[j] = ITA_VIS_PMD8 + j;
    return we_clock(t, step, NBTB, vis, c, err);
}

static int btb_preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)err;
    unsigned vis[NBTB], reg[NBTB];
    for (unsigned j = 0; j < NBTB; j++)
        vis[j] = ITA_VIS_PMD8 + j, reg[j] = ITA_REG_PMD8 + j;
    unit_preamble(pmu_cex_model(t), vis, reg, NBTB, ITA_REG_PMC12,
                  "the BTB reads of it: the first branch PMC12 takes its type, prediction, taken bit, target, ip "
                  "and syllable", start, o);
    return 0;
}

/* A branch PMC12's masks take (ita_btb's keys): its type (Itanium 2's brt; 0: any branch),
 * taken (not squashed) or not (tm), a wrong target or not (ptm), a wrong path or not (ppm). */
static int btb_keys(unsigned model, uint64_t pmc12, unsigned br, unsigned pred, unsigned taken)
{
    const unsigned brt = model == ITA_MODEL_ITANIUM2 ? (unsigned)ITA_FGET(pmc12, PMC12, BRT) : 0;
    const unsigned tm = (unsigned)ITA_FGET(pmc12, PMC12, TM), ptm = (unsigned)ITA_FGET(pmc12, PMC12, PTM),
                   ppm = (unsigned)ITA_FGET(pmc12, PMC12, PPM);
    return br != 0 && (brt == 0 || br == brt) && (tm >> (taken ? 1 : 0) & 1) && (ptm >> (pred == 3 ? 0 : 1) & 1) &&
           (ppm >> (pred == 2 ? 0 : 1) & 1);
}

static int btb_record(const pmu_cex *t, unsigned step, const uint64_t *v, pmu_cex_out *o, pmu_err *err)
{
    (void)v;
    const unsigned model = pmu_cex_model(t);
    slot_rec r;
    const int h = slot_record_head(t, step, "pmc12", ITA_REG_PMC12, ITA_VIS_PMC12, 0, &r, o, err);
    if (h <= 0)
        return h;
    const uint64_t pmc12 = r.pmc, is = r.is, qual = r.qual;
    char *const line = r.line;
    size_t len = r.len;
    int recorded = 0;
    for (unsigned k = 0; k < r.nslots; k++) {
        uint64_t flags, ip, idx, tgt;
        if (get(t, "flags", step, k * ITA_SF_WIDTH, ITA_SF_WIDTH, &flags, err) ||
            get(t, "ip", step, k * 64, 64, &ip, err) || get(t, "idx", step, k * 2, 2, &idx, err) ||
            get(t, "target", step, k * 64, 64, &tgt, err))
            return -1;
        const unsigned br = (unsigned)(flags >> ITA_SF_BR_TYPE_LSB & 3), pred = (unsigned)(flags >> ITA_SF_BR_PRED_LSB & 3);
        const unsigned off = (unsigned)(flags >> ITA_SF_PRED_OFF_LSB & 1);
        unsigned taken = (unsigned)(flags >> ITA_SF_TAKEN_LSB & 1);
        int branch = !is && !recorded && btb_keys(model, pmc12, br, pred, taken && !off);
        if (branch && !(qual >> k & 1)) {
            pmu_cex_note(o, "trace step %u: slot %u's branch fails BRANCH_EVENT's qualification (qual 0), which the "
                         "replay's IBRs do not make it: replayed as no branch, which records nothing either", step, k + 1);
            branch = 0;
        }
        if (branch && off) {
            pmu_cex_note(o, "trace step %u: slot %u is a squashed branch, which no record carries: replayed as a "
                         "branch not taken, which the BTB reads alike", step, k + 1);
            taken = 0;
        }
        recorded |= branch;
        len += slot_place(step, k, is, branch && taken, branch || k == 0, ip, idx, line + len, sizeof r.line - len, o);
        if (!branch)
            continue;
        len += (size_t)snprintf(line + len, sizeof r.line - len, " u=B br=%u pred=%u%s tgt=0x%" PRIx64, br, pred,
                                taken ? " taken" : "", tgt);
    }
    pmu_cex_record(o, 1, "%s", line);
    return 0;
}

static int btb_model(const pmu_cex *t, unsigned *m, char *why, size_t size, pmu_err *err)
{
    static const char *const props[] = {"btb_ring_pointer", "btb_writes_at_pointer", "btb_records_only_armed"};
    return ok_model(t, props, sizeof props / sizeof props[0], "formal/ita/ita_btb_props.sv", m, why, size, err);
}

/* ---- the ranges checker, formal/ita/ita_ranges_props.sv ------------------------------------------
 * ita_slot_qual with its inputs free in every step: one slot (valid, is, cpl, ip, data address,
 * encoding, unit, whether it is a load or store) and IBR0..7, DBR0..7, PMC8, PMC9, PMC11,
 * PMC13..15.  Its tags are not registers; the replay makes them counts: PMC4..7 count events
 * the tags qualify (range_events[]: IA64_TAGGED_INST_RETIRED of a pair, whose inst_q(k) takes
 * both the range and the opcode tag, and LOADS_RETIRED / STORES_RETIRED, which take the memory
 * qualification), so a wrong tag is a wrong count, which lock-step finds at that record.  Each
 * step is a record of its one slot, after writes of the step's IBRs, DBRs and qualification
 * PMCs (a register the model does not have, the Itanium's PMC14 and PMC15, left out: its
 * qualification does not read them); cpl and is are the record's.  (The Itanium counts
 * IA64_TAGGED_INST_RETIRED_PMC8 / PMC9 as general events, not by slot: its instruction
 * tag is IA64_INST_RETIRED's inst_q(0), every pair's range tag being the same there.)  Every
 * memory event takes iar and opm (inst_q's set 3), where the memory qualification's property
 * may fail in a set without iar: for it the IBRs are left out (Itanium: PMC13.ta, Itanium 2:
 * PMC14.ibrp0..3 set, with a note), so the data-address part decides the loads' count; the
 * Itanium's opcode matchers PMC8 and PMC9 (no range bit there) match every instruction, with a
 * note where the trace's do not, so no opcode hides a range or data-address tag.  A slot carries its ip
 * (IA-64: off its bundle aligned, with a note), unit, encoding (IA-32: none, with a note where
 * the trace has one), and where it is an access a load of its data address.  A register value
 * with bits no write sets is replayed as the write leaves it, with a note. */

enum { RANGES_INST, RANGES_DBR }; /* the property: an instruction tag's, the memory qualification's */

static const char *const range_events[2][ITA_NMODELS][NCNT] = {
    [RANGES_INST] = {
        [ITA_MODEL_ITANIUM] = {"IA64_INST_RETIRED", "NOPS_RETIRED", "LOADS_RETIRED", "STORES_RETIRED"},
        [ITA_MODEL_ITANIUM2] = {"IA64_TAGGED_INST_RETIRED_IBRP0_PMC8", "IA64_TAGGED_INST_RETIRED_IBRP1_PMC9",
                                "IA64_TAGGED_INST_RETIRED_IBRP2_PMC8", "IA64_TAGGED_INST_RETIRED_IBRP3_PMC9"},
    },
    [RANGES_DBR] = {
        [ITA_MODEL_ITANIUM] = {"IA64_INST_RETIRED", "NOPS_RETIRED", "LOADS_RETIRED", "STORES_RETIRED"},
        [ITA_MODEL_ITANIUM2] = {"LOADS_RETIRED", "STORES_RETIRED", "IA64_TAGGED_INST_RETIRED_IBRP0_PMC8",
                                "IA64_TAGGED_INST_RETIRED_IBRP1_PMC9"},
    },
};

/* The slot's qualification registers (the checker's signal, its register). */
static const struct {
    const char *sig;
    unsigned reg, vis;
} range_regs[] = {
    {"pmc8", ITA_REG_PMC8, ITA_VIS_PMC8},    {"pmc9", ITA_REG_PMC9, ITA_VIS_PMC9},
    {"pmc11", ITA_REG_PMC11, ITA_VIS_PMC11}, {"pmc13", ITA_REG_PMC13, ITA_VIS_PMC13},
    {"pmc14", ITA_REG_PMC14, ITA_VIS_PMC14}, {"pmc15", ITA_REG_PMC15, ITA_VIS_PMC15},
};
#define NRANGE_REGS (sizeof range_regs / sizeof range_regs[0])
#define NBR 8 /* IBR0..7, DBR0..7 */

static int ranges_prop(const pmu_cex *t)
{
    uint64_t ok;
    pmu_err e;
    return get_m(t, 0, "ok_dbr_range_qualifies", 0, 0, 1, &ok, &e) ? RANGES_INST : RANGES_DBR;
}

/* Signal `name` of the slot or a register at `step`, or 0 when the trace lacks it (Yosys drops
 * the inputs the property does not read): the return value, 1 or 0; `as` says what the replay
 * does instead, in a comment at step 0. */
static int range_get(const pmu_cex *t, unsigned step, const char *name, unsigned lsb, unsigned width, uint64_t *v,
                     const char *as, pmu_cex_out *o)
{
    pmu_err e;
    if (!get(t, name, step, lsb, width, v, &e))
        return 1;
    *v = 0;
    if (step == 0 && lsb == 0)
        pmu_cex_comment(o, "the trace has no %s (the property does not read it): %s", name, as);
    return 0;
}

static int ranges_vis(const pmu_cex *t, unsigned step, uint64_t *v, unsigned char *shown, pmu_err *err)
{
    (void)t, (void)step, (void)v, (void)shown, (void)err; /* no register: the trace shows none */
    return 0;
}

static int ranges_clock(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    (void)t, (void)step, (void)err;
    memset(c, 0, sizeof *c);
    c->step = 1; /* every step is a slot's record */
    return 0;
}

static int ranges_preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    (void)start;
    const unsigned model = pmu_cex_model(t), prop = (unsigned)ranges_prop(t);
    pmu_cex_comment(o, "each counter counts an event the slot's tags qualify (PMC: plm 0xf, ism both, pm 0 with "
                       "PSR.up set by the first record, threshold 0), from 0, PMC0.fr clear");
    for (unsigned k = 0; k < NCNT; k++) {
        const ita_event_row *e = ita_event_find((int)model, range_events[prop][model][k]);
        if (!e || !(e->counters >> (ITA_FIRST_COUNTER + k) & 1))
            return pmu_errf(err, PMU_E_INPUT, "the %s has no event %s for PMD%u", ita_models[model].name,
                            range_events[prop][model][k], ITA_FIRST_COUNTER + k);
        pmu_cex_comment(o, "PMD%u counts %s", ITA_FIRST_COUNTER + k, range_events[prop][model][k]);
        pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC4 + k].addr, pmc_event(model, e, 0));
        pmu_cex_write(o, ita_vis_table[ITA_VIS_PMD4 + k].addr, 0);
    }
    pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC0].addr,
                  ITA_FSET(ita_reg_table[ITA_REG_PMC0].reset[model], PMC0, FR, 0));
    return 0;
}

/* A qualification register's write of a record: the value as the write leaves it (a note
 * where bits no write sets differ); left out where the model has no such register. */
static void range_write(unsigned step, unsigned reg, unsigned vis, uint64_t v, unsigned model, pmu_cex_out *o)
{
    const uint64_t bits = ita_reg_table[reg].wmask[model];
    if (!bits)
        return;
    const uint64_t keep = (v & bits) | (ita_reg_table[reg].reset[model] & ~bits);
    if (keep != v)
        pmu_cex_note(o, "trace step %u: %s 0x%" PRIx64 " has bits 0x%" PRIx64 " no write sets: replayed as 0x%" PRIx64,
                     step, ita_reg_table[reg].name, v, (v ^ keep), keep);
    pmu_cex_write(o, ita_vis_table[vis].addr, v);
}

static int ranges_record(const pmu_cex *t, unsigned step, const uint64_t *v, pmu_cex_out *o, pmu_err *err)
{
    (void)v;
    (void)err;
    const unsigned model = pmu_cex_model(t);
    static const char *const slot_sigs[] = {"valid", "is", "cpl", "unit", "ip", "daddr", "enc", "mem"};
    static const unsigned slot_widths[] = {1, 1, 2, 2, 64, 64, 41, 1};
    uint64_t f[8];
    for (unsigned i = 0; i < 8; i++)
        range_get(t, step, slot_sigs[i], 0, slot_widths[i], &f[i], "replayed as 0", o);
    const uint64_t valid = f[0], is = f[1], cpl = f[2], unit = f[3], ip = f[4], daddr = f[5], enc = f[6], mem = f[7];
    for (unsigned i = 0; i < 2 * NBR; i++) {
        const unsigned br = i / NBR, j = i % NBR;
        uint64_t r;
        if (range_get(t, step, br ? "dbr" : "ibr", j * 64, 64, &r, "not written (reset's)", o))
            range_write(step, (br ? ITA_REG_DBR0 : ITA_REG_IBR0) + j, (br ? ITA_VIS_DBR0 : ITA_VIS_IBR0) + j, r,
                        model, o);
    }
    /* The part of the events' tags the property is not about, left out: for the memory
     * qualification's the IBRs, for the instruction tags the opcode match (Itanium 2: PMC15's
     * ibrp bits; Itanium: PMC8 and PMC9 match every instruction, below, for both properties:
     * its opcode matchers hold no range bit, ITA-PRM §6.1.3 Table 6-3). */
    const int dbr = ranges_prop(t) == RANGES_DBR, ita = model == ITA_MODEL_ITANIUM;
    const uint64_t open = dbr && ita ? ITA_FSET(0, PMC13, TA, 1)
                          : dbr      ? ITA_FSET(ITA_FSET(ITA_FSET(ITA_FSET(0, PMC14, IBRP0, 1), PMC14, IBRP1, 1), PMC14,
                                                         IBRP2, 1), PMC14, IBRP3, 1)
                          : ita      ? 0
                                     : ITA_FSET(ITA_FSET(ITA_FSET(ITA_FSET(0, PMC15, IBRP0_PMC8, 1), PMC15, IBRP1_PMC9, 1),
                                                         PMC15, IBRP2_PMC8, 1), PMC15, IBRP3_PMC9, 1);
    const unsigned open_reg = dbr ? (ita ? ITA_REG_PMC13 : ITA_REG_PMC14) : ITA_REG_PMC15;
    const char *const open_why = dbr ? "constrains instruction addresses, which the memory events' tag (iar and opm) "
                                       "would then also need"
                                     : "ties each pair's tag to an opcode match, which the tagged events' tag (iar and "
                                       "opm) would then also need";
    for (unsigned i = 0; i < NRANGE_REGS; i++) {
        uint64_t r;
        if (!range_get(t, step, range_regs[i].sig, 0, 64, &r, "not written (reset's)", o))
            continue;
        if (range_regs[i].reg == open_reg && (r & open) != open) {
            pmu_cex_note(o, "trace step %u: %s 0x%" PRIx64 " %s: replayed with 0x%" PRIx64 " set (no %s check), so "
                         "the %s part decides", step, ita_reg_table[open_reg].name, r, open_why, open,
                         dbr ? "IBR" : "opcode", dbr ? "data-address" : "range");
            r |= open;
        }
        const unsigned reg = range_regs[i].reg;
        if (ita && (reg == ITA_REG_PMC8 || reg == ITA_REG_PMC9) && r != ita_reg_table[reg].reset[model]) {
            const uint64_t all = ita_reg_table[reg].reset[model]; /* every unit, mask all don't-care */
            pmu_cex_note(o, "trace step %u: %s 0x%" PRIx64 ", the Itanium's opcode matcher, which the events' tags "
                         "(opm) would then also need (it holds no range bit: PMC13.ta and the IBRs make the range "
                         "tag): replayed as 0x%" PRIx64 " (every unit and opcode), so the %s part decides", step,
                         ita_reg_table[reg].name, r, all, dbr ? "data-address" : "range");
            r = all;
        }
        range_write(step, reg, range_regs[i].vis, r, model, o);
    }
    char line[512];
    size_t len = (size_t)snprintf(line, sizeof line, "cpl=%" PRIu64 " is=%s up=1", cpl, is ? "ia32" : "ia64");
    if (valid) {
        len += slot_place(step, 0, is, 0, 1, ip, 0, line + len, sizeof line - len, o);
        if (is && enc)
            pmu_cex_note(o, "trace step %u: the IA-32 slot's encoding 0x%" PRIx64 ", which no IA-32 record carries: "
                         "replayed as none (an IA-32 slot's tags are not checked)", step, enc);
        len += (size_t)snprintf(line + len, sizeof line - len, " u=%c", "MIFB"[unit & 3]);
        if (!is)
            len += (size_t)snprintf(line + len, sizeof line - len, " enc=0x%" PRIx64, enc);
        if (mem)
            len += (size_t)snprintf(line + len, sizeof line - len, " load da=0x%" PRIx64, daddr);
    }
    pmu_cex_record(o, 1, "%s", line);
    return 0;
}

static int ranges_model(const pmu_cex *t, unsigned *m, char *why, size_t size, pmu_err *err)
{
    static const char *const props[] = {"ibr_range_qualifies", "fine_range_qualifies", "dbr_range_qualifies"};
    return ok_model(t, props, sizeof props / sizeof props[0], "formal/ita/ita_ranges_props.sv", m, why, size, err);
}

/* ---- the event-select checker, formal/ita/ita_evtsel_props.sv ------------------------------------
 * PMC4's counting path (ita_pmc_gen, ita_evt_sel, ita_cnt_qual, ita_counter) with the record's
 * inputs free within the machine's per-cycle limits: the power state, recirculations, up to six
 * slots (their flags and qualification tags), the EAR / BTB captures, four general events;
 * PMC0.fr, cpl, is, PSR; writes of PMC4..7 and PMD4..7.  The event select and PMC4 start from
 * reset (as a replay does), PMD4 anywhere; the assertions are immediate (pmu_cex_family
 * .immediate).  The replay:
 *   - PMC4 is the trace's, written where the trace writes it (the top stores it as the
 *     checker does), but at step 0, where the checker's reset takes the write: replayed at the
 *     idle address, with a note.  PMD4's start count is a preamble write.  Writes of PMC5..7
 *     and PMD5..7, which the checker does not watch, go to the idle address too, with a note:
 *     no other counter of the replay counts, so none overflows into PMC0.fr;
 *   - PMC0.fr is written before a record where the replay's differs from the trace's, and
 *     before each record that follows one under PMC4.oi (whose wrap sets it);
 *   - a step is a record of its cpl, is, PSR (up=, pp=), power, recirc and slots.  A slot
 *     carries the trace's flags, changed where the stream's rules refuse them (docs/ita-stream-
 *     format.md, "Validation") by the change that keeps what PMC4's event reads of them
 *     (evtsel_slot); a slot whose tag PMC4's event reads is 0 is left out (the replay's
 *     qualification registers, as reset leaves them, pass every slot); beyond the stream's
 *     per-cycle limits the flags of the later slots are dropped;
 *   - the general events of PMC4's (es, umask) that pass their qualification are one cycle
 *     event of their summed count (at most the event's maxincr, which the stream keeps to);
 *     general events of other pairs count nowhere in the replay and are left out;
 *   - an EAR or BTB capture is not replayed (no record makes the unit capture without its
 *     configuration): a note where PMC4's event counts it.
 * Each change is a note. */

/* The event PMC4 selects on a model (ita_evt_sel's decode): its modelled row, or NULL. */
static const ita_event_row *evtsel_row(unsigned model, uint64_t pmc)
{
    unsigned n;
    const ita_event_row *rows = ita_event_rows((int)model, &n);
    const unsigned es = (unsigned)ITA_FGET(pmc, PMC_GEN, ES), umask = (unsigned)ITA_FGET(pmc, PMC_GEN, UMASK);
    for (unsigned i = 0; i < n; i++)
        if (ita_event_row_modelled(&rows[i]) && rows[i].code == es && rows[i].umask == umask)
            return rows[i].counters >> ITA_FIRST_COUNTER & 1 ? &rows[i] : NULL;
    return NULL;
}

/* The slot flags an event of `kind` reads (docs/ita-semantics.md, "A step clock", step 3): 0
 * for every retired slot (INST_RET); -1 for a kind that counts no slot. */
static int evtsel_reads(unsigned kind)
{
    switch (kind) {
    case ITA_KIND_INST_RET: return 0;
    case ITA_KIND_NOPS: return ITA_SF_NOP_MASK;
    case ITA_KIND_PRED_OFF: return ITA_SF_PRED_OFF_MASK;
    case ITA_KIND_FP_OPS: return ITA_SF_FP_MASK;
    case ITA_KIND_LOADS: return ITA_SF_LOAD_MASK;
    case ITA_KIND_STORES: return ITA_SF_STORE_MASK;
    case ITA_KIND_BR_DETAIL: return ITA_SF_BR_TYPE_MASK | ITA_SF_BR_PRED_MASK;
    case ITA_KIND_L1D_MISS: return ITA_SF_LOAD_MASK | ITA_SF_L1D_MISS_MASK;
    case ITA_KIND_L1D_RSE: return ITA_SF_LOAD_MASK | ITA_SF_L1D_MISS_MASK | ITA_SF_RSE_MASK;
    case ITA_KIND_L2_MISS: return ITA_SF_L2_MISS_MASK;
    case ITA_KIND_L2_REF: return ITA_SF_L2_REF_MASK;
    default: return -1;
    }
}

/* The slot flags of a record, by their text keys (include/common/ita/ita_regs.def), and all of
 * them. */
static const struct {
    const char *key;
    unsigned lsb, mask;
} sf_keys[] = {
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc) {key, lsb, ITA_SF_##name##_MASK},
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
};
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc) | ITA_SF_##name##_MASK
static const uint16_t sf_all = (uint16_t)(0
#include "common/ita/ita_regs.def"
);
#undef ITA_SLOT_FLAG

/* Slot flags f as the stream's text keys. */
static size_t sf_text(uint16_t f, char *buf, size_t size)
{
    const size_t nkeys = sizeof sf_keys / sizeof sf_keys[0];
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < nkeys && len < size; i++) {
        const unsigned v = (f & sf_keys[i].mask) >> sf_keys[i].lsb;
        if (!v)
            continue;
        if (sf_keys[i].mask >> sf_keys[i].lsb == 1)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", sf_keys[i].key);
        else
            len += (size_t)snprintf(buf + len, size - len, "%s%s=%u", len ? " " : "", sf_keys[i].key, v);
    }
    if (!len)
        snprintf(buf, size, "none");
    return len;
}

#define SF(name) ((uint16_t)ITA_SF_##name##_MASK)
#define SF_ACCESS (SF(LOAD) | SF(STORE))
#define SF_LOAD_ONLY (SF(L1D_MISS) | SF(RSE) | SF(ALAT_MISS)) /* flags a load's alone */
#define SF_L2 (SF(L2_REF) | SF(L2_MISS))
#define SF_BRANCH (SF(BR_TYPE) | SF(BR_PRED) | SF(TAKEN))

/* Slot flags f as a record may carry them (docs/ita-stream-format.md, "Validation": flag
 * consistency), each change the one that keeps the flags rd, which PMC4's event reads, where
 * the rule leaves a choice: the event counts the slot in the replay as in the trace (ita_evt_sel
 * compares the flags it reads alone).  why: the rules broken. */
static uint16_t evtsel_slot(uint16_t f, uint16_t rd, char *why, size_t size)
{
    size_t len = 0;
    why[0] = 0;
#define BROKEN(text) (len += (size_t)snprintf(why + len, len < size ? size - len : 0, "%s%s", len ? ", " : "", text))
    if (f & ~sf_all) {
        BROKEN("bits outside the flags");
        f &= sf_all; /* no event reads them */
    }
    if ((f & SF(L2_MISS)) && !(f & SF(L2_REF))) {
        BROKEN("l2_miss without l2_ref");
        f = (rd & SF(L2_REF)) ? (uint16_t)(f & ~SF(L2_MISS)) : (uint16_t)(f | SF(L2_REF));
    }
    if ((f & SF(L2_REF)) && !(f & SF_ACCESS)) {
        BROKEN("l2_ref without load or store");
        f = (rd & SF_L2) ? (uint16_t)(f | SF(LOAD)) : (uint16_t)(f & ~SF_L2);
    }
    if ((f & SF_LOAD_ONLY) && !(f & SF(LOAD))) {
        BROKEN("l1d_miss, rse or alat_miss without load");
        f = (uint16_t)(f & ~SF_LOAD_ONLY); /* no event reads them without load */
    }
    if ((f & (SF(BR_PRED) | SF(TAKEN))) && !(f & SF(BR_TYPE))) {
        BROKEN("pred or taken without br");
        f = (uint16_t)(f & ~(SF(BR_PRED) | SF(TAKEN))); /* BR_MISPRED_DETAIL counts branches alone */
    }
    if ((f & (SF(NOP) | SF(PRED_OFF))) && (f & (SF_ACCESS | SF(FP) | SF(BR_TYPE)))) {
        BROKEN("a nop or squashed slot with an access, fp or a branch");
        f = (rd & (SF(NOP) | SF(PRED_OFF))) ? (uint16_t)(f & (SF(NOP) | SF(PRED_OFF)))
                                             : (uint16_t)(f & ~(SF(NOP) | SF(PRED_OFF)));
    }
#undef BROKEN
    return f;
}

/* The stream's per-cycle limits (docs/ita-stream-format.md, "Validation"): the slots with a
 * flag of `any` and every flag of `all`, at most the event's maxincr (the Itanium 2 table's,
 * for both models); beyond it, the later slots lose `drop`. */
static const struct {
    const char *what;
    int event;
    uint16_t any, all, drop;
} evtsel_limits[] = {
    {"loads", ITA_EV_LOADS_RETIRED, SF(LOAD), 0, SF(LOAD) | SF_LOAD_ONLY},
    {"stores", ITA_EV_STORES_RETIRED, SF(STORE), 0, SF(STORE)},
    {"floating-point operations", ITA_EV_FP_OPS_RETIRED, SF(FP), 0, SF(FP)},
    {"branches", ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED, SF(BR_TYPE), 0, SF_BRANCH},
    {"L1D read misses", ITA_EV_L1D_READ_MISSES_ALL, SF(LOAD), SF(LOAD) | SF(L1D_MISS), SF(L1D_MISS) | SF(RSE)},
    {"L2 misses", ITA_EV_L2_MISSES, SF(L2_MISS), 0, SF(L2_MISS)},
    {"L2 references", ITA_EV_L2_REFERENCES, SF(L2_REF), 0, SF_L2},
};

/* A slot's flags after `drop`: an L2 reference that is left without its access loses it too. */
static uint16_t sf_drop(uint16_t f, uint16_t drop)
{
    f = (uint16_t)(f & ~drop);
    return (f & SF_ACCESS) ? f : (uint16_t)(f & ~SF_L2);
}

/* The general events of PMC4's (es, umask) on a model: the stream event that is it (a general
 * event of the model's table), or -1. */
static int evtsel_xev_id(unsigned model, unsigned es, unsigned umask)
{
    for (unsigned id = 0; id < ita_event_id_count(); id++) {
        const ita_event_row *r = ita_event_id_row(id, (int)model);
        if (r && r->code == es && r->umask == umask && r->type == ITA_EVT_NORMAL && r->kind == ITA_KIND_NONE)
            return (int)id;
    }
    return -1;
}

static const unsigned evtsel_we[2 * NCNT] = {ITA_VIS_PMC4, ITA_VIS_PMC5, ITA_VIS_PMC6, ITA_VIS_PMC7,
                                             ITA_VIS_PMD4, ITA_VIS_PMD5, ITA_VIS_PMD6, ITA_VIS_PMD7};

static int evtsel_vis(const pmu_cex *t, unsigned step, uint64_t *v, unsigned char *shown, pmu_err *err)
{
    const unsigned w = ita_counter_width((ita_model)pmu_cex_model(t));
    if (get(t, "g_cnt<0>.u_counter.cnt_q", step, 0, w, &v[ITA_VIS_PMD4], err))
        return -1;
    v[ITA_VIS_PMD4] = sext(v[ITA_VIS_PMD4], w);
    /* PMC4 starts from reset in the checker as in the replay (the trace shows the bits the
     * event select reads, the others as 0: Yosys drops them): not an expect */
    shown[ITA_VIS_PMD4] = 1;
    return 0;
}

/* A write the replay takes as the trace's: PMD4's, and PMC4's after step 0 (the checker's PMC4
 * and event select are in reset at step 0, which takes the write). */
static int evtsel_kept(unsigned step, uint16_t addr)
{
    return addr == ita_vis_table[ITA_VIS_PMD4].addr || (addr == ita_vis_table[ITA_VIS_PMC4].addr && step > 0);
}

static int evtsel_clock(const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    if (we_clock(t, step, 2 * NCNT, evtsel_we, c, err))
        return -1;
    if (c->write && !evtsel_kept(step, c->addr)) { /* a note says so (evtsel_preamble) */
        c->addr = 0x001;
        c->data = 0;
    }
    return 0;
}

static int evtsel_preamble(const pmu_cex *t, uint64_t *start, pmu_cex_out *o, pmu_err *err)
{
    const unsigned model = pmu_cex_model(t);
    for (unsigned s = 0; s + 1 < pmu_cex_steps(t); s++) {
        pmu_cex_clock c;
        if (we_clock(t, s, 2 * NCNT, evtsel_we, &c, err))
            return -1;
        if (c.write && !evtsel_kept(s, c.addr)) {
            const int pmc4 = c.addr == ita_vis_table[ITA_VIS_PMC4].addr;
            char reg[32];
            for (unsigned i = 0; i < 2 * NCNT; i++)
                if (ita_vis_table[evtsel_we[i]].addr == c.addr)
                    snprintf(reg, sizeof reg, "%s", ita_vis_table[evtsel_we[i]].name);
            pmu_cex_note(o, "trace step %u: the write of %s 0x%" PRIx64 ", %s: replayed as a write to address 0x1, "
                         "which no register answers", s, reg, c.data,
                         pmc4 ? "which the checker's reset of PMC4 and its event select takes at step 0"
                              : "a register the checker does not watch (no other counter of the replay counts, so "
                                "none freezes PMD4)");
        }
    }
    pmu_cex_comment(o, "PMC4 and its event select start from reset, as in the checker; PMD4 written");
    pmu_cex_write(o, ita_vis_table[ITA_VIS_PMD4].addr, start[ITA_VIS_PMD4]);
    uint64_t *state = pmu_cex_state(o);
    state[ST_FR] = ITA_FGET(ita_reg_table[ITA_REG_PMC0].reset[model], PMC0, FR);
    return 0;
}

/* The slots of step `step` as record c carries them (the event e's reads rd, its tag bit
 * qbit: inst_q's at [4 + bit], mem_q's at [bit] of a slot's tags). */
static int evtsel_slots(const pmu_cex *t, unsigned step, int rd, unsigned qbit, uint64_t nslots, ita_cycle *c,
                        pmu_cex_out *o, pmu_err *err)
{
    for (unsigned k = 0; k < nslots; k++) {
        uint64_t flags, iq, mq;
        if (get(t, "slot_flags", step, k * ITA_SF_WIDTH, ITA_SF_WIDTH, &flags, err) ||
            get(t, "slot_inst_q", step, k * 16, 16, &iq, err) || get(t, "slot_mem_q", step, k * 4, 4, &mq, err))
            return -1;
        const uint64_t tags = iq << 4 | mq;
        if (rd >= 0 && !(tags >> qbit & 1)) {
            pmu_cex_note(o, "trace step %u: slot %u fails PMC4's event's qualification (its tag 0), which the "
                         "replay's qualification registers, as reset leaves them, do not make it: left out of the "
                         "record (the event counts it in neither)", step, k + 1);
            continue;
        }
        char why[160], was[96], now[96];
        const uint16_t f = evtsel_slot((uint16_t)flags, rd > 0 ? (uint16_t)rd : 0, why, sizeof why);
        if (f != flags) {
            sf_text((uint16_t)flags, was, sizeof was), sf_text(f, now, sizeof now);
            pmu_cex_note(o, "trace step %u: slot %u's flags %s (%s), which no record carries: replayed as %s, which "
                         "PMC4's event counts alike", step, k + 1, was, why, now);
        }
        ita_slot *sl = &c->slot[c->nslots];
        const unsigned j = c->nslots++;
        sl->flags = f;
        sl->ip = c->is ? 0x8048000u + j : 0x4000000000001000ull + (j / 3) * 16;
        sl->slot = (uint8_t)(c->is ? 0 : j % 3);
        sl->unit = (f & SF(BR_TYPE)) ? ITA_UNIT_B : ITA_UNIT_M;
    }
    for (unsigned r = 0; r < sizeof evtsel_limits / sizeof evtsel_limits[0]; r++) {
        const unsigned max = ita_event_table[evtsel_limits[r].event].maxincr;
        unsigned n = 0, dropped = 0;
        for (unsigned j = 0; j < c->nslots; j++) {
            ita_slot *sl = &c->slot[j];
            if (!(sl->flags & evtsel_limits[r].any) || (sl->flags & evtsel_limits[r].all) != evtsel_limits[r].all)
                continue;
            if (++n > max) {
                sl->flags = sf_drop(sl->flags, evtsel_limits[r].drop);
                dropped++;
            }
        }
        if (dropped)
            pmu_cex_note(o, "trace step %u: %u %s, more than a record carries (%u, the maxincr of %s): the last %u "
                         "replayed without them (PMC4's event then counts fewer where it counts them)", step, n,
                         evtsel_limits[r].what, max, ita_event_table[evtsel_limits[r].event].name, dropped);
    }
    return 0;
}

/* The general events of PMC4's (es, umask) in the record c: their summed count. */
static int evtsel_xev(const pmu_cex *t, unsigned step, unsigned model, uint64_t pmc, ita_cycle *c, pmu_cex_out *o,
                      pmu_err *err)
{
    const unsigned es = (unsigned)ITA_FGET(pmc, PMC_GEN, ES), umask = (unsigned)ITA_FGET(pmc, PMC_GEN, UMASK);
    uint64_t valid, qual;
    unsigned sum = 0, other = 0;
    if (get(t, "xev_valid", step, 0, ITA_MAX_XEV, &valid, err) || get(t, "xev_qual", step, 0, ITA_MAX_XEV, &qual, err))
        return -1;
    for (unsigned i = 0; i < ITA_MAX_XEV; i++) {
        uint64_t code, um, count;
        if (!(valid >> i & 1))
            continue;
        if (get(t, "xev_code", step, i * 8, 8, &code, err) || get(t, "xev_umask", step, i * 4, 4, &um, err) ||
            get(t, "xev_count", step, i * 8, 8, &count, err))
            return -1;
        if (!count) /* adds nothing */
            continue;
        if (code != es || um != umask) {
            other++;
            continue;
        }
        if (!(qual >> i & 1)) {
            pmu_cex_note(o, "trace step %u: general event %u (es 0x%x, umask 0x%x, count %" PRIu64 ") fails its "
                         "qualification (xev_qual 0), which the replay's cycle event does not: left out (counted in "
                         "neither)", step, i, es, umask, count);
            continue;
        }
        sum += (unsigned)count;
    }
    if (other)
        pmu_cex_comment(o, "trace step %u: %u general events of another (es, umask) than PMC4's: left out (no "
                        "counter of the replay counts them)", step, other);
    if (!sum)
        return 0;
    const int id = evtsel_xev_id(model, es, umask);
    ita_cycle x = {.is = c->is, .cpl = c->cpl};
    pmu_err e;
    if (id >= 0) {
        const ita_event_row *r2 = ita_event_id_row((unsigned)id, ITA_MODEL_ITANIUM2);
        const unsigned max = r2 ? r2->maxincr : ita_event_id_row((unsigned)id, (int)model)->maxincr;
        if (sum > max) {
            pmu_cex_note(o, "trace step %u: %u occurrences of %s (the checker's bound mi_gen is free), more than a "
                         "record carries (its maxincr, %u): replayed as %u", step, sum, ita_event_id_name((unsigned)id),
                         max, max);
            sum = max;
        }
        x.nxev = 1;
        x.xev[0] = (ita_xev){.id = (uint16_t)id, .count = (uint8_t)sum, .slot = ITA_XEV_NO_SLOT};
        if (!ita_cycle_validate(&x, "", &e)) {
            c->xev[c->nxev++] = x.xev[0];
            return 0;
        }
    }
    pmu_cex_note(o, "trace step %u: %u occurrences of PMC4's (es 0x%x, umask 0x%x), which %s: replayed as none",
                 step, sum, es, umask, id < 0 ? "names no general event of the model's table" : "no record carries");
    return 0;
}

static int evtsel_record(const pmu_cex *t, unsigned step, const uint64_t *v, pmu_cex_out *o, pmu_err *err)
{
    (void)v;
    const unsigned model = pmu_cex_model(t);
    uint64_t st, cpl, is, up, pp, fr, power, recirc, nslots, pmc, cap[3];
    if (get(t, "step", step, 0, 1, &st, err) || get(t, "cpl", step, 0, 2, &cpl, err) ||
        get(t, "is", step, 0, 1, &is, err) || get(t, "up", step, 0, 1, &up, err) || get(t, "pp", step, 0, 1, &pp, err) ||
        get(t, "fr", step, 0, 1, &fr, err) || get(t, "power", step, 0, 2, &power, err) ||
        get(t, "recirc", step, 0, 3, &recirc, err) || get(t, "nslots", step, 0, 3, &nslots, err) ||
        get(t, "g_cnt<0>.pmc", step, 0, 64, &pmc, err) || get(t, "iear_cap", step, 0, 1, &cap[0], err) ||
        get(t, "dear_cap", step, 0, 1, &cap[1], err) || get(t, "btb_cap", step, 0, 1, &cap[2], err))
        return -1;
    ita_cycle c = {.cpl = (uint8_t)cpl, .is = (uint8_t)is, .power = (uint8_t)power};
    if (!st) { /* the last step's inputs (no clock retires them): a record that counts nothing */
        c.power = ITA_POWER_HALT;
    } else {
        uint64_t *state = pmu_cex_state(o);
        if (fr != state[ST_FR]) {
            pmu_cex_comment(o, "trace step %u: PMC0.fr %" PRIu64 " for this record", step, fr);
            pmu_cex_write(o, ita_vis_table[ITA_VIS_PMC0].addr, ITA_FSET(0, PMC0, FR, fr));
        }
        /* a wrap of PMD4 with oi sets fr: the next record writes PMC0 again */
        state[ST_FR] = ITA_FGET(pmc, PMC_GEN, OI) ? 2 : fr;
        c.up_we = c.pp_we = 1;
        c.up = (uint8_t)up, c.pp = (uint8_t)pp;
        const ita_event_row *e = evtsel_row(model, pmc);
        const unsigned kind = e ? e->kind : ITA_KIND_NONE;
        const int rd = evtsel_reads(kind);
        /* the tag the event reads (ita_evt_sel's qsel): mem_q(set) for a dar event, else inst_q(set,
         * pair), set = {iar, opm}, pair the umask of IA64_TAGGED_INST_RETIRED_IBRPk, else 0 */
        const unsigned set = e ? (unsigned)(e->iar << 1 | e->opm) : 0;
        const unsigned qbit = e && e->dar ? set : 4 + set * 4 + (kind == ITA_KIND_INST_RET ? (e->umask & 3u) : 0);
        if (recirc > ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr) {
            const unsigned max = ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr;
            pmu_cex_note(o, "trace step %u: recirc %" PRIu64 ", more than a record carries (the maxincr of "
                         "L2_FORCE_RECIRC_ANY, %u): replayed as %u", step, recirc, max, max);
            recirc = max;
        }
        c.recirc = (uint8_t)recirc;
        nslots = valid_slots(step, nslots, o);
        if (nslots && power >= ITA_POWER_LIGHT_HALT) {
            const int keep = rd > 0; /* an event of slots the halt does not gate keeps its slots */
            pmu_cex_note(o, "trace step %u: %" PRIu64 " slots in power state %s, where no instruction retires: "
                         "replayed %s, which PMC4's event counts alike", step, nslots,
                         power == ITA_POWER_HALT ? "halt" : "light_halt", keep ? "in the normal state" : "without slots");
            if (keep)
                c.power = ITA_POWER_NORMAL;
            else
                nslots = 0;
        }
        if (evtsel_slots(t, step, rd, qbit, nslots, &c, o, err) || evtsel_xev(t, step, model, pmc, &c, o, err))
            return -1;
        static const unsigned cap_kind[3] = {ITA_KIND_IEAR, ITA_KIND_DEAR, ITA_KIND_BTB};
        static const char *const cap_name[3] = {"I-EAR", "D-EAR", "BTB"};
        for (unsigned i = 0; i < 3; i++)
            if (cap[i] && kind == cap_kind[i])
                pmu_cex_note(o, "trace step %u: the %s captures (the checker's free input), which no record makes it "
                             "do without its configuration: replayed as no capture", step, cap_name[i]);
    }
    char line[1024];
    pmu_err e;
    if (ita_cycle_validate(&c, "", &e))
        return pmu_errf(err, PMU_E_INPUT, "trace step %u: the replay's record is not a stream's (a bug of "
                        "cex2replay): %s", step, e.msg);
    ita_cycle_format(&c, line, sizeof line);
    pmu_cex_record(o, 1, "%s", line);
    return 0;
}

static int evtsel_model(const pmu_cex *t, unsigned *m, char *why, size_t size, pmu_err *err)
{
    /* The immediate assertions fail at the last step, over its own values. */
    const unsigned step = pmu_cex_steps(t) - 1;
    int fails[ITA_NMODELS] = {0};
    for (unsigned i = 0; i < ITA_NMODELS; i++) {
        uint64_t over, dec_ok;
        if (get_m(t, i, "over", step, 0, 1, &over, err) || get_m(t, i, "dec_ok", step, 0, 1, &dec_ok, err))
            return -1;
        fails[i] = over || !dec_ok;
    }
    for (unsigned i = 0; i < ITA_NMODELS; i++)
        if (fails[i]) {
            *m = i;
            snprintf(why, size, "ctr_step_maxincr fails in %s at step %u%s", model_inst[i], step,
                     i + 1 < ITA_NMODELS && fails[i + 1] ? ", and in the other model" : "");
            return 0;
        }
    return pmu_errf(err, PMU_E_INPUT, "ctr_step_maxincr holds at step %u in %s and %s (over 0, dec_ok 1), expected a "
                    "counterexample (--model: replay one anyway)", step, model_inst[0], model_inst[1]);
}

static const pmu_cex_family ita_evtsel_cex = {
    .checker = "ita_evtsel_props",
    .idle_addr = 0x001,
    .preamble = evtsel_preamble,
    .record = evtsel_record,
    .views = 1,     /* cnt: the clock's record applied */
    .immediate = 1, /* always @* */
    .clock = evtsel_clock,
    .vis = evtsel_vis,
    .model = evtsel_model,
};

static const pmu_cex_family ita_ranges_cex = {
    .checker = "ita_ranges_props",
    .idle_addr = 0x001,
    .preamble = ranges_preamble,
    .record = ranges_record,
    .views = 1, /* combinational: a step's values are its own clock's */
    .clock = ranges_clock,
    .vis = ranges_vis,
    .model = ranges_model,
    .next = &ita_evtsel_cex,
};

static const pmu_cex_family ita_btb_cex = {
    .checker = "ita_btb_props",
    .idle_addr = 0x001,
    .preamble = btb_preamble,
    .record = btb_record,
    .views = 1, /* pmd_o: the clock's record applied */
    .clock = btb_clock,
    .vis = btb_vis,
    .model = btb_model,
    .next = &ita_ranges_cex,
};

static const pmu_cex_family ita_dear_cex = {
    .checker = "ita_dear_props",
    .idle_addr = 0x001,
    .preamble = dear_preamble,
    .record = dear_record,
    .views = 1, /* pmd2_o, pmd3_o, pmd17_o: the clock's capture applied */
    .clock = dear_clock,
    .vis = dear_vis,
    .model = dear_model,
    .next = &ita_btb_cex,
};

static const pmu_cex_family ita_iear_cex = {
    .checker = "ita_iear_props",
    .idle_addr = 0x001,
    .preamble = iear_preamble,
    .record = iear_record,
    .views = 1, /* pmd0_o, pmd1_o: the clock's capture applied */
    .clock = iear_clock,
    .vis = iear_vis,
    .model = iear_model,
    .next = &ita_dear_cex,
};

const pmu_cex_family ita_cex = {
    .checker = "ita_counters_props",
    .idle_addr = 0x001, /* PMC1: reserved, writes ignored (ita_regs.def PMC1_3) */
    .preamble = preamble,
    .record = record,
    .views = 1, /* cnt_o, pmc0_o, pmi_o: the record in flight applied */
    .clock = clock,
    .vis = vis,
    .model = model,
    .next = &ita_iear_cex,
};
