/*
 * ev67_pme.c - the ProfileMe sampler (ev67_pme_drv.h, docs/ev67-profileme.md), after
 * Linux OProfile alpha op_model_ev67.c (ev67_reg_setup, ev67_cpu_setup,
 * ev67_handle_interrupt) and the HRM's ProfileMe operation (§6.10.3: setup, OS handler,
 * Table 6-13) and precautions (§5.2.11, §6.10.1), on the block as docs/ev67.md models it.
 */
#include "sw/ev67/ev67_pme_drv.h"

#include <stdlib.h>
#include <string.h>

#include "sw/ev67/ev67_perf_drv.h"
#include "common/ev67/ev67_regs.h"
#include "ev67_hw.h"

#define WHO "ProfileMe sampler"

/* Counter 0 interrupts at a window's end; the sampler enables only its request. */
#define PCEN_WINDOW_END 1u

struct ev67_pme {
    pmu_backend *b;
    ev67_pme_opts o;   /* validated, period clamped, itb_entry set */
    unsigned en;       /* counters enabled, bit n counter n */
    uint8_t pending;   /* the line after the last record */
    ev67_pme_stats st;
    ev67_pme_pc *pcs;  /* ascending pc */
    unsigned npcs, cap;
};

static const char *const attr_names[EV67_PME_NATTRS] = {
    [EV67_PME_RETIRED] = "retired",       [EV67_PME_TAKEN] = "taken",
    [EV67_PME_MISPREDICT] = "mispredict", [EV67_PME_ITB_MISS] = "itb_miss",
    [EV67_PME_DTB_MISS] = "dtb_miss",     [EV67_PME_REPLAY] = "replay",
    [EV67_PME_LDST_ORDER] = "ldst_order", [EV67_PME_UNALIGNED] = "unaligned",
    [EV67_PME_MAP_STALL] = "map_stall",   [EV67_PME_TRAP] = "trap",
};

const char *ev67_pme_attr_name(unsigned a) { return a < EV67_PME_NATTRS ? attr_names[a] : NULL; }

/* ---- decoding (op_model_ev67.c ev67_handle_interrupt) ---- */

/* OProfile's "pipeline redirection" trap types: TRAP_TYPE reads "invalid (use PMPC)"
 * (HRM Table 5-12) and PMPC names the PALcode entry the redirect went to. */
static int is_redirect(unsigned trap_type)
{
    return trap_type == EV67_TRAP_INVALID9 || trap_type == EV67_TRAP_INVALID11 ||
           trap_type == EV67_TRAP_INVALID13;
}

/* The redirect went to the ITB-miss entry: PMPC[14:0] is the entry's offset with the PAL
 * bit (HRM Table 5-12's 0581; OProfile compares with decimal 581, see
 * docs/ev67-profileme.md "OProfile's ITB check"). */
static int is_itb_miss(uint64_t pmpc, uint64_t i_stat, uint32_t itb_entry)
{
    const uint64_t low = (1ull << EV67_PME_PAL_OFFSET_BITS) - 1;
    return EV67_FGET(i_stat, I_STAT, TRP) && is_redirect((unsigned)EV67_FGET(i_stat, I_STAT, TRAP_TYPE)) &&
           (pmpc & low) == EV67_FSET(itb_entry, PMPC, PAL, 1);
}

void ev67_pme_decode(uint64_t pmpc, uint64_t i_stat, uint64_t pctr_ctl, uint64_t interrupted_pc,
                     uint32_t itb_entry, ev67_pme_sample *out)
{
    memset(out, 0, sizeof *out);
    out->pmpc = pmpc;
    out->i_stat = i_stat;
    out->pctr_ctl = pctr_ctl;
    out->pctr0 = ev67_hw_ctr_get(pctr_ctl, 0);
    out->pctr1 = ev67_hw_ctr_get(pctr_ctl, 1);
    if (is_itb_miss(pmpc, i_stat, itb_entry ? itb_entry : EV67_PME_ITB_ENTRY_DEFAULT)) {
        /* Checked before the PAL drop (OProfile drops first, so its check never
         * matches): the miss belongs to the instruction the redirect left, whose PC is
         * EXC_ADDR, the interrupted context's; the rest of the record is the PALcode
         * instruction's, so the sample says nothing else (OProfile returns here). */
        out->pc = interrupted_pc;
        out->attr[EV67_PME_ITB_MISS] = 1;
        return;
    }
    out->pc = pmpc & EV67_FMASK(PMPC, PC);
    out->dropped = (uint8_t)EV67_FGET(pmpc, PMPC, PAL); /* a physical PALcode address */
    const unsigned trp = (unsigned)EV67_FGET(i_stat, I_STAT, TRP);
    const unsigned type = (unsigned)EV67_FGET(i_stat, I_STAT, TRAP_TYPE);
    const unsigned lso = (unsigned)EV67_FGET(i_stat, I_STAT, LSO);
    const unsigned mis = trp & (unsigned)EV67_FGET(i_stat, I_STAT, MIS);
    out->attr[EV67_PME_RETIRED] = (uint8_t)EV67_FGET(pctr_ctl, PCTR_CTL, VAL);
    /* TAK is undefined on a mispredicted branch (OProfile). */
    out->attr[EV67_PME_TAKEN] = (uint8_t)(!mis && EV67_FGET(pctr_ctl, PCTR_CTL, TAK));
    out->attr[EV67_PME_MISPREDICT] = (uint8_t)mis;
    out->attr[EV67_PME_DTB_MISS] = (uint8_t)(trp && (type == EV67_TRAP_DTB_DOUBLE_3 || type == EV67_TRAP_DTB_DOUBLE_4 ||
                                                     type == EV67_TRAP_DTB_SINGLE));
    out->attr[EV67_PME_REPLAY] = (uint8_t)(trp && type == EV67_TRAP_REPLAY && !lso);
    out->attr[EV67_PME_LDST_ORDER] = (uint8_t)(trp && type == EV67_TRAP_REPLAY && lso);
    out->attr[EV67_PME_UNALIGNED] = (uint8_t)(trp && type == EV67_TRAP_UNALIGNED);
    out->attr[EV67_PME_MAP_STALL] = (uint8_t)EV67_FGET(pctr_ctl, PCTR_CTL, PM_STALLED);
    out->attr[EV67_PME_TRAP] = (uint8_t)trp;
    /* The window's counter-1 input, by the SL1 the read shows (HRM Table 5-16). */
    if (ev67_sel_kind(1, (unsigned)EV67_FGET(pctr_ctl, PCTR_CTL, SL1), 1) == EV67_KIND_INUMDELAY)
        out->delay = out->pctr1;
}

/* ---- the per-PC table ---- */

/* The entry of pc, inserted in order when new; NULL when out of memory. */
static ev67_pme_pc *pc_entry(ev67_pme *s, uint64_t pc)
{
    unsigned lo = 0, hi = s->npcs;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s->pcs[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->npcs && s->pcs[lo].pc == pc)
        return &s->pcs[lo];
    if (s->npcs == s->cap) {
        unsigned cap = s->cap ? 2 * s->cap : 64;
        ev67_pme_pc *p = realloc(s->pcs, cap * sizeof *p);
        if (!p)
            return NULL;
        s->pcs = p;
        s->cap = cap;
    }
    memmove(&s->pcs[lo + 1], &s->pcs[lo], (s->npcs - lo) * sizeof *s->pcs);
    s->npcs++;
    memset(&s->pcs[lo], 0, sizeof s->pcs[lo]);
    s->pcs[lo].pc = pc;
    return &s->pcs[lo];
}

static void account(ev67_pme *s, const ev67_pme_sample *smp)
{
    if (smp->dropped) {
        s->st.dropped_pal++;
        return;
    }
    s->st.samples++;
    ev67_pme_pc *e = pc_entry(s, smp->pc);
    if (!e) {
        s->st.table_full++;
        return;
    }
    e->samples++;
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
        e->attr[a] += smp->attr[a];
    e->delay += smp->delay;
}

/* ---- setup ---- */

/* PCTR_CTL in ProfileMe mode: SL0 = 1, SL1, PCTR0 = c0, PCTR1 = 0 (HRM §6.10.3: counter
 * 1 is cleared before each collection). */
static uint64_t pm_ctl(const ev67_pme *s, uint32_t c0)
{
    uint64_t v = EV67_FSET(0, PCTR_CTL, SL0, 1);
    v = EV67_FSET(v, PCTR_CTL, SL1, s->o.sl1);
    return ev67_hw_ctr_set(ev67_hw_ctr_set(v, 0, c0), 1, 0);
}

/* PCTR0 = 2^20 - period: the period-th valid fetched instruction makes it overflow and
 * is profiled (HRM §6.10.3 setup). */
static uint64_t next_ctl(const ev67_pme *s)
{
    return pm_ctl(s, (uint32_t)(-s->o.period) & ev67_perf_max_period(0));
}

static int check_opts(const ev67_pme_opts *o, pmu_err *err)
{
    const unsigned sl1_max = (unsigned)(EV67_FMASK(PCTR_CTL, SL1) >> EV67_F_PCTR_CTL_SL1_LSB);
    if (o->sl1 > sl1_max)
        return pmu_errf(err, PMU_E_INPUT, WHO ": sl1 %u is out of range: expected 0..%u (PCTR_CTL.SL1)", o->sl1,
                        sl1_max);
    const uint32_t limit = 1u << EV67_PME_PAL_OFFSET_BITS;
    const uint32_t align = (uint32_t)1 << EV67_F_PMPC_PC_LSB;
    if (o->itb_entry >= limit || o->itb_entry % align)
        return pmu_errf(err, PMU_E_INPUT,
                        WHO ": itb_entry 0x%x is not a PALcode entry offset: expected a multiple of %u "
                        "below 0x%x (it is compared with PMPC[%u:0], the PAL bit added)",
                        (unsigned)o->itb_entry, (unsigned)align, (unsigned)limit,
                        EV67_PME_PAL_OFFSET_BITS - 1);
    return 0;
}

ev67_pme *ev67_pme_create(pmu_backend *b, const ev67_pme_opts *o, pmu_err *err)
{
    static const ev67_pme_opts defaults;
    if (!o)
        o = &defaults;
    if (ev67_hw_check_block(b, WHO, err) != 0 || check_opts(o, err) != 0)
        return NULL;
    ev67_pme *s = calloc(1, sizeof *s);
    if (!s)
        return pmu_errf(err, PMU_E_NOMEM, WHO ": out of memory"), NULL;
    s->b = b;
    s->o = *o;
    s->o.period = o->period ? ev67_perf_clamp_period(0, o->period) : EV67_PME_DEFAULT_PERIOD;
    if (!s->o.itb_entry)
        s->o.itb_entry = EV67_PME_ITB_ENTRY_DEFAULT;
    /* Counter 0 selects and ends windows; counter 1 counts its window input whenever the
     * SL1 row has one (every ProfileMe row does, HRM Table 5-16).  Both stay enabled
     * outside the handler, so no step sees a counter parked (docs/ev67.md, precaution 3). */
    s->en = 1u;
    if (ev67_sel_kind(1, s->o.sl1, 1) != EV67_KIND_UNDEF)
        s->en |= 2u;
    /* Reset (HRM §6.10.1): quiet, ProfileMe zeros twice, HW_INT_CLR twice; then the first
     * sample's setup and the enables. */
    ev67_hw_quiesce(b, pm_ctl(s, 0));
    ev67_hw_start(b, next_ctl(s), PCEN_WINDOW_END, s->en);
    return s;
}

void ev67_pme_destroy(ev67_pme *s)
{
    if (!s)
        return;
    free(s->pcs);
    free(s);
}

/* ---- the interrupt handler ---- */

static void handle_interrupt(ev67_pme *s, const ev67_cycle *rec)
{
    pmu_backend *b = s->b;
    const unsigned both = (1u << EV67_NCOUNTERS) - 1;
    s->st.interrupts++;
    /* ISUM, counters disabled, ISUM again (HRM §5.2.11 race cure; the write clock makes
     * the PCTR_CTL read below exact, docs/ev67.md precaution 5). */
    int first_zero = 0;
    const unsigned isum = ev67_hw_isum_disable(b, &first_zero);
    if (first_zero)
        s->st.isum_zero++;
    if (!(isum & PCEN_WINDOW_END)) {
        /* Not a window's end: nothing to read, and a window in progress goes on. */
        s->st.spurious++;
        pmu_write(b, EV67_ADDR_I_CTL, ev67_hw_i_ctl(s->en));
        return;
    }
    /* HRM §6.10.3 OS handler: first the IPRs of Table 6-13 (OProfile: wrperfmon 9, 8, 5).
     * They hold the profiled instruction's record until the next window's end, and
     * nothing counts after a window (STOPPED) until PCTR_CTL is written. */
    const uint64_t pmpc = pmu_read(b, EV67_ADDR_PMPC);
    const uint64_t i_stat = pmu_read(b, EV67_ADDR_I_STAT);
    const uint64_t pctr_ctl = pmu_read(b, EV67_ADDR_PCTR_CTL);
    ev67_pme_sample smp;
    ev67_pme_decode(pmpc, i_stat, pctr_ctl, rec ? rec->pc : 0, s->o.itb_entry, &smp);
    account(s, &smp);
    /* Then the next sample: PCTR_CTL written twice, since the overflow latch has two
     * stages and a write shifts it once (precaution 1; a counter-1 carry of the window
     * must not come later as a request); HW_INT_CLR for both counters, which takes the
     * window's end request and any PAL-exit interrupt a write armed (precaution 2). */
    pmu_write(b, EV67_ADDR_PCTR_CTL, next_ctl(s));
    pmu_write(b, EV67_ADDR_PCTR_CTL, next_ctl(s));
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, both));
    pmu_write(b, EV67_ADDR_I_CTL, ev67_hw_i_ctl(s->en));
    if (s->o.on_sample)
        s->o.on_sample(s->o.sample_arg, &smp);
}

void ev67_pme_before(ev67_pme *s, const ev67_cycle *rec)
{
    s->st.records++;
    if (s->pending) {
        s->pending = 0;
        handle_interrupt(s, rec);
    }
}

void ev67_pme_after(ev67_pme *s, uint8_t pmi) { s->pending = pmi != 0; }

/* ---- queries ---- */

unsigned ev67_pme_npcs(const ev67_pme *s) { return s->npcs; }

const ev67_pme_pc *ev67_pme_pc_at(const ev67_pme *s, unsigned i) { return i < s->npcs ? &s->pcs[i] : NULL; }

const ev67_pme_stats *ev67_pme_get_stats(const ev67_pme *s) { return &s->st; }

uint32_t ev67_pme_period(const ev67_pme *s) { return s->o.period; }
