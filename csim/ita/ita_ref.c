/*
 * ita_ref.c - the cycle-exact reference model of the Itanium / Itanium 2
 * generic counters PMC4..7/PMD4..7, with PMC0 (freeze and sticky overflow
 * bits), the CPU state the PMU observes (PSR, DCR, IPSR), the event address
 * registers (ref_ear.c) and the branch trace buffer (ref_btb.c).
 *
 * Written from docs/ita-semantics.md and the architecture manual (seed Figure
 * 6-4), not from the RTL.  A step follows the manual's chain:
 *
 *   1. CPU state      interruption entry / return, sum/rum/ssm/rsm
 *   2. qualification  freeze, privilege level, instruction set, monitor enable;
 *                     the EARs and the BTB capture (docs/ita-ear-btb.md)
 *   3. event count    n occurrences of the selected event in this cycle, each
 *                     slot passing its IBR / opcode / DBR tags (ref_qual.c)
 *   4. threshold      n, or 1 when n passes the threshold
 *   5. counter        add, carry out of bit W-1 -> overflow bit, freeze, interrupt
 *
 * docs/ita-reference-model.md explains the organisation.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ita/ita_events.h"
#include "ref_internal.h"

/* The model keeps its state as the visible registers (pmu_state order):
 * counters and their configurations are found by offset from PMC4 / PMD4. */
_Static_assert(ITA_VIS_PMC7 == ITA_VIS_PMC4 + ITA_NCOUNTERS - 1,
               "PMC4..7 must be consecutive in the visible list of include/common/ita/ita_regs.def");
_Static_assert(ITA_VIS_PMD7 == ITA_VIS_PMD4 + ITA_NCOUNTERS - 1,
               "PMD4..7 must be consecutive in the visible list of include/common/ita/ita_regs.def");

/* A stream event id as the model resolves it (ita_event_id_row): whether it is a
 * general event here (a NORMAL row of KIND NONE), its code and umask, and the
 * REF_OCC index of its qualifier columns. */
typedef struct ref_general_event {
    uint8_t counts, code, umask, occ;
} ref_general_event;

typedef struct ref_pmu {
    pmu_backend base; /* first member: a pmu_backend* is a ref_pmu* */

    /* Architectural state.  reg[v] is visible register v as the read port returns it:
     * the stored value, and for PMD4..7 count[W-1:0] with bits 63:W as pmd_sext makes
     * them (counter_view).  So the registers are a snapshot as they stand, and the
     * lock-step checker compares them in place (ref_visible). */
    uint64_t reg[ITA_NVIS];
    uint8_t pmi; /* interrupt line after the last clock */

    /* Derived from the state: cfg[k] is refreshed when PMC(4+k) is written,
     * qual when a qualification register is written; both on reset. */
    ref_counter_cfg cfg[ITA_NCOUNTERS];
    ref_qual qual;
    ref_units units; /* PMC10..12, decoded with the qualification registers */
    ref_tag_memo tag_memo; /* cleared with every decode of qual */
    /* Bit k set when counter k's event counts every retired slot (slot_every), the slots
     * whose flags match (slot_match), and when some IA-64 slot may fail the event's
     * qualification (slot_constrained): from cfg and qual, refreshed with them, so that a
     * step counts the slot events of all counters in one pass over the slots. */
    uint8_t slot_every, slot_match, slot_constrained;
    uint8_t slot_any; /* slot_every | slot_match */
    /* Likewise for the other sources: n = 1 (src_cycle), the record's recirculations
     * (src_recirc), a capture of unit u (src_capture[u]); and the events that count
     * nothing outside the NORMAL and LOW_POWER states (power_gated). */
    uint8_t src_cycle, src_recirc, src_capture[REF_NUNITS], power_gated;
    /* The counters qualified (step 2) in a cycle at privilege level cpl and instruction
     * set is with the effective PSR.up and PSR.pp: enabled[ENABLE_INDEX(...)], bit k for
     * counter k; refreshed with cfg. */
    uint8_t enabled[32];
    /* q(s) of the constrained counters for each tag word (bit k: counter k's slot
     * passes), worked out by ref_slot_passes itself.  Only runs with a constrained counter
     * use it, so it is rebuilt when a step first needs it after cfg or qual changed. */
    uint8_t q_pass[1u << REF_TAG_BITS];
    uint8_t q_pass_stale;
    /* The slot_match counters whose flags test a slot's flags value passes (bit k),
     * worked out by slot_matches the first time the value is seen (MATCH_KNOWN set);
     * emptied when a PMC4..7 is decoded. */
    uint8_t match_of_flags[1u << ITA_SF_WIDTH];

    /* Bookkeeping (not architectural): the sum of every increment applied. */
    uint64_t total[ITA_NCOUNTERS];
    /* What counter k added in the last clock whose count_step result has bit k set. */
    unsigned added[ITA_NCOUNTERS];
    /* ref_step_again: the last clock stepped found its record settled (settled()), and
     * the counters that added in it; cleared by every other operation that steps,
     * writes or resets. */
    uint8_t again;
    unsigned again_added;

    /* Constant for the model and parameters. */
    uint8_t is_qual[ITA_NVIS]; /* an ACCESS(QUAL) register: ref_qual decodes it */
    uint64_t reset_value[ITA_NVIS];
    uint64_t write_mask[ITA_NVIS];
    uint64_t count_mask; /* the W counter bits */
    uint64_t sign_bit;   /* bit W-1 */
    uint64_t ext_bits;   /* bits 63:W when pmd_sext (they copy bit W-1), else 0 */
    uint8_t thr_ge;
    uint8_t fine_2bundle;
    ref_general_event *general; /* by stream event id */
    unsigned ngeneral;
} ref_pmu;

static const pmu_backend_ops ref_ops;

/* Visible-register index of a port address, or -1 for a register that reads
 * 0 and ignores writes (PMC1..3 and everything not implemented). */
static int visible_index(uint16_t addr)
{
    for (int v = 0; v < ITA_NVIS; v++)
        if (ita_vis_table[v].addr == addr)
            return v;
    return -1;
}

static int is_counter(int v) { return v >= ITA_VIS_PMD4 && v <= ITA_VIS_PMD7; }

/* A W-bit count as a PMD read returns it: bits 63:W copy bit W-1 when pmd_sext, and are 0
 * otherwise (Itanium Architecture Software Developer's Manual Vol. 2, Table 7-3; the
 * choice in docs/architecture.md). */
static inline uint64_t counter_view(const ref_pmu *m, uint64_t count)
{
    return (count & m->sign_bit) ? count | m->ext_bits : count;
}
static int is_counter_config(int v) { return v >= ITA_VIS_PMC4 && v <= ITA_VIS_PMC7; }

#define ENABLE_INDEX(cpl, is, up, pp) ((cpl) | (is) << 2 | (up) << 3 | (pp) << 4)
_Static_assert(ITA_F_PMC_GEN_PLM_WIDTH == 4 && ITA_F_PMC_GEN_ISM_WIDTH == 2,
               "ENABLE_INDEX: cpl in two bits, is in one");

/* The step's views of cfg and qual: the counters by source, slot_constrained,
 * power_gated and enabled; q_pass marked stale. */
static void derive_step_tables(ref_pmu *m)
{
    m->slot_every = m->slot_match = m->slot_constrained = 0;
    m->src_cycle = m->src_recirc = m->power_gated = 0;
    memset(m->src_capture, 0, sizeof m->src_capture);
    memset(m->enabled, 0, sizeof m->enabled);
    ita_cycle at;
    memset(&at, 0, sizeof at);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        const ref_counter_cfg *cfg = &m->cfg[k];
        if (cfg->source == REF_SRC_SLOTS)
            m->slot_every |= (uint8_t)(1u << k);
        else if (cfg->source == REF_SRC_SLOT_MATCH)
            m->slot_match |= (uint8_t)(1u << k);
        else if (cfg->source == REF_SRC_CYCLE)
            m->src_cycle |= (uint8_t)(1u << k);
        else if (cfg->source == REF_SRC_RECIRC)
            m->src_recirc |= (uint8_t)(1u << k);
        else if (cfg->source == REF_SRC_CAPTURE && cfg->unit < REF_NUNITS)
            m->src_capture[cfg->unit] |= (uint8_t)(1u << k);
        if (cfg->constrained)
            m->slot_constrained |= (uint8_t)(1u << k);
        if (cfg->power_gated)
            m->power_gated |= (uint8_t)(1u << k);
        for (unsigned i = 0; i < sizeof m->enabled; i++) {
            at.cpl = (uint8_t)(i & 3u);
            at.is = (uint8_t)((i >> 2) & 1u);
            if (ref_enabled(cfg->plm, cfg->ism, cfg->pm, &at, (i >> 3) & 1u, (i >> 4) & 1u))
                m->enabled[i] |= (uint8_t)(1u << k);
        }
    }
    m->slot_any = m->slot_every | m->slot_match;
    m->q_pass_stale = 1;
}

static void build_q_pass(ref_pmu *m)
{
    for (unsigned word = 0; word < sizeof m->q_pass; word++) {
        unsigned pass = 0;
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
            if ((m->slot_constrained >> k) & 1u)
                pass |= ref_slot_passes(&m->qual, &m->cfg[k], word) << k;
        m->q_pass[word] = (uint8_t)pass;
    }
    m->q_pass_stale = 0;
}

static void decode_config(ref_pmu *m, unsigned k)
{
    ref_decode_pmc(&m->cfg[k], m->reg[ITA_VIS_PMC4 + k], ITA_FIRST_COUNTER + k, m->base.model);
    ref_qual_bind(&m->qual, &m->cfg[k]);
    derive_step_tables(m);
    memset(m->match_of_flags, 0, sizeof m->match_of_flags);
}

static void decode_qualification(ref_pmu *m)
{
    ref_qual_decode(&m->qual, m->reg, m->base.model, m->fine_2bundle);
    ref_tag_memo_clear(&m->tag_memo);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
        ref_qual_bind(&m->qual, &m->cfg[k]);
    ref_occ_bind(m->units.occ, &m->qual);
    ref_ear_decode(&m->units, m->reg, m->base.model);
    ref_btb_decode(&m->units, m->reg, m->base.model);
    derive_step_tables(m);
}

/* ---- clocks without a cycle record ----------------------------------------- */

static void ref_reset(pmu_backend *b)
{
    ref_pmu *m = (ref_pmu *)b;
    for (int v = 0; v < ITA_NVIS; v++)
        m->reg[v] = is_counter(v) ? counter_view(m, m->reset_value[v]) : m->reset_value[v];
    decode_qualification(m);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        decode_config(m, k);
        m->total[k] = 0;
    }
    m->pmi = 0;
    m->again = 0;
    b->cycle = 0;
}

static void ref_write(pmu_backend *b, uint16_t addr, uint64_t value)
{
    ref_pmu *m = (ref_pmu *)b;
    int v = visible_index(addr);

    m->pmi = 0; /* the line is a one-clock pulse; a write clock is not a step */
    m->again = 0;
    if (v < 0)
        return;
    /* Bits outside the writable mask keep their reset value.  For a PMD this
     * keeps count[W-1:0]: a write never carries, so it never sets an
     * overflow bit, never freezes and never interrupts. */
    m->reg[v] = (value & m->write_mask[v]) | (m->reset_value[v] & ~m->write_mask[v]);
    if (is_counter(v))
        m->reg[v] = counter_view(m, m->reg[v]);
    if (is_counter_config(v))
        decode_config(m, (unsigned)(v - ITA_VIS_PMC4));
    else if (m->is_qual[v])
        decode_qualification(m);
}

static uint64_t ref_read(pmu_backend *b, uint16_t addr)
{
    int v = visible_index(addr);
    return v < 0 ? 0 : ((const ref_pmu *)b)->reg[v];
}

static void ref_snapshot(pmu_backend *b, pmu_state *s)
{
    const ref_pmu *m = (const ref_pmu *)b;
    memcpy(s->reg, m->reg, ITA_NVIS * sizeof s->reg[0]);
    s->pmi = m->pmi;
}

static const void *ref_visible(pmu_backend *b, const uint8_t **pmi_line)
{
    const ref_pmu *m = (const ref_pmu *)b;
    *pmi_line = &m->pmi;
    return m->reg;
}

static uint8_t ref_pmi(pmu_backend *b) { return ((const ref_pmu *)b)->pmi; }

/* ---- a step ------------------------------------------------------------------ */

/* 1. CPU state.  Updates PSR and IPSR for this record and returns the
 * effective PSR, which counts in this same cycle. */
static inline uint64_t update_cpu_state(ref_pmu *m, const ita_cycle *c)
{
    uint64_t psr = m->reg[ITA_VIS_PSR];
    /* Most records neither interrupt nor write PSR: one test for them. */
    if (!(c->intr | c->up_we | c->pp_we))
        return psr;
    uint64_t ipsr = m->reg[ITA_VIS_IPSR];

    if (c->intr == ITA_INTR_ENTRY) {
        /* Interruption delivered: save up/pp, then PSR.pp takes DCR.pp so a
         * handler is counted by system monitors only when DCR.pp is 1. */
        ipsr = ITA_FSET(ipsr, PSR, UP, ITA_FGET(psr, PSR, UP));
        ipsr = ITA_FSET(ipsr, PSR, PP, ITA_FGET(psr, PSR, PP));
        psr = ITA_FSET(psr, PSR, PP, ITA_FGET(m->reg[ITA_VIS_DCR], DCR, PP));
    } else if (c->intr == ITA_INTR_RETURN) {
        /* rfi: the interrupted context's up/pp come back. */
        psr = ITA_FSET(psr, PSR, UP, ITA_FGET(ipsr, PSR, UP));
        psr = ITA_FSET(psr, PSR, PP, ITA_FGET(ipsr, PSR, PP));
    }
    /* sum/rum (up) and ssm/rsm (pp) executed in this cycle. */
    if (c->up_we)
        psr = ITA_FSET(psr, PSR, UP, c->up);
    if (c->pp_we)
        psr = ITA_FSET(psr, PSR, PP, c->pp);

    m->reg[ITA_VIS_PSR] = psr;
    m->reg[ITA_VIS_IPSR] = ipsr;
    return psr;
}

static inline unsigned slot_matches(const ref_counter_cfg *cfg, unsigned flags)
{
    return (flags & cfg->all_mask) == cfg->all_value && (flags & cfg->any_mask) != 0;
}

#define MATCH_KNOWN 0x80u
_Static_assert(ITA_NCOUNTERS < 8, "counter bits below MATCH_KNOWN");

/* The slot_match counters whose event a slot with these flags matches. */
static inline unsigned flags_matches(ref_pmu *m, unsigned flags)
{
    unsigned e = m->match_of_flags[flags];
    if (__builtin_expect(e == 0, 0)) {
        e = MATCH_KNOWN;
        for (unsigned left = m->slot_match; left; left &= left - 1) {
            const unsigned k = (unsigned)__builtin_ctz(left);
            e |= slot_matches(&m->cfg[k], flags) << k;
        }
        m->match_of_flags[flags] = (uint8_t)e;
    }
    return e;
}

/* Counter bits 0..3 as one count each in bytes 0..3: the four counters' slot counts are
 * summed in one word (a count is at most ITA_MAX_SLOTS, far below a byte's carry). */
_Static_assert(ITA_NCOUNTERS <= 4 && ITA_MAX_SLOTS < 256, "one byte per counter's slot count");
static inline uint32_t bytes_of_bits(unsigned bits)
{
    return (bits * 0x00204081u) & 0x01010101u;
}

/* The inverse view: bit k set when byte k (counter k's count) is not 0.  A byte's low
 * seven bits plus 0x7f set its top bit, without a carry out, exactly when they are not
 * all 0; or'ed with the byte's own top bit, and the multiply gathers the four top bits
 * (moved to bits 0, 8, 16, 24) into bits 21..24. */
static inline unsigned bits_of_bytes(uint32_t n)
{
    const uint32_t top = ((((n & 0x7f7f7f7fu) + 0x7f7f7f7fu) | n) & 0x80808080u) >> 7;
    return (top * 0x00204081u) >> 21 & 0xfu;
}

/* 3a. n of the slot events (REF_SRC_SLOTS, REF_SRC_SLOT_MATCH) of the counters in `en`
 * (qualified in this cycle), for all of them in one pass over the retired slots: counter
 * k's n in byte k.  A slot counts when its flags match the event and it passes the
 * event's qualification; a slot's tag word is worked out once for every counter. */
static uint32_t count_slot_events(ref_pmu *m, const ita_cycle *c, unsigned en,
                                  ref_step_tags *tags)
{
    const unsigned every = en & m->slot_every, match = en & m->slot_match;
    if (!(every | match))
        return 0;
    /* The address and opcode checks are IA-64-only features: in an IA-32 cycle every
     * tag is 1. */
    const unsigned qualify = c->is == 0 ? (every | match) & m->slot_constrained : 0;
    if (qualify && m->q_pass_stale)
        build_q_pass(m);
    const unsigned nslots = ref_retired_slots(c);
    uint32_t n = 0;
    for (unsigned s = 0; s < nslots; s++) {
        unsigned counts = every | (match & flags_matches(m, c->slot[s].flags));
        if (counts & qualify)
            counts &= m->q_pass[ref_tag_word(&m->qual, c, tags, s)] | ~qualify;
        n += bytes_of_bits(counts);
    }
    return n;
}

/* 3. Event count n of the counters in `en` (qualified in this cycle, so c->cpl and c->is
 * are in range): counter k's n in byte k.  Each counter has one source, so a byte holds
 * one count (at most ITA_MAX_SLOTS slots, 1, or the record's recirculations). */
static uint32_t event_counts(ref_pmu *m, const ita_cycle *c, unsigned en, unsigned captured,
                             ref_step_tags *tags)
{
    uint32_t n = count_slot_events(m, c, en, tags) + bytes_of_bits(en & m->src_cycle);
    if (en & m->src_recirc)
        n += c->recirc * bytes_of_bits(en & m->src_recirc);
    for (unsigned left = captured; left; left &= left - 1)
        n += bytes_of_bits(en & m->src_capture[__builtin_ctz(left)]);
    if (c->power != ITA_POWER_NORMAL && c->power != ITA_POWER_LOW_POWER)
        n &= ~(bytes_of_bits(m->power_gated) * 0xffu);
    return n;
}

/* 3b. The general events of the record that counter `cfg` selects: entries whose id
 * resolves on this model to a general event with the counter's es and umask, each
 * attributed one qualified like its slot for the event's iar/opm/dar. */
static unsigned general_count(const ref_pmu *m, const ref_counter_cfg *cfg, const ita_cycle *c,
                              ref_step_tags *tags)
{
    const unsigned nxev = c->nxev < ITA_MAX_XEV ? c->nxev : ITA_MAX_XEV;
    const unsigned nslots = ref_retired_slots(c);
    unsigned n = 0;
    for (unsigned i = 0; i < nxev; i++) {
        const ita_xev *x = &c->xev[i];
        if (x->id >= m->ngeneral)
            continue;
        const ref_general_event *g = &m->general[x->id];
        if (!g->counts || g->code != cfg->es || g->umask != cfg->umask)
            continue;
        /* An entry without a slot (or naming no retired slot) is not qualified. */
        if (x->slot < nslots && !ref_occ_passes(&m->qual, &m->units.occ[g->occ], c, tags, x->slot))
            continue;
        n += x->count;
    }
    return n;
}

/* 4. Threshold: t = 0 adds n; otherwise 1 in a cycle where n passes t. */
static inline unsigned apply_threshold(unsigned n, unsigned t, int thr_ge)
{
    if (t == 0)
        return n;
    return thr_ge ? n >= t : n > t;
}

/* The captures and steps 3..5 of a cycle in which a counter may count (ref_step), with the
 * effective PSR bits, PMC0 before the clock and the counters qualified in it.  Returns the
 * counters that added (bit k: counter k added m->added[k]).  Out of line, so that a cycle
 * that cannot count pays neither their registers nor their tests. */
static __attribute__((noinline)) unsigned count_step(ref_pmu *m, const ita_cycle *c,
                                                 unsigned psr_up, unsigned psr_pp,
                                                 uint64_t pmc0_q, unsigned en)
{
    const unsigned ovf_q = (unsigned)ITA_FGET(pmc0_q, PMC0, OVF);
    unsigned ovf_d = ovf_q, fr_d = 0, added = 0;
    ref_step_tags tags;
    tags.memo = &m->tag_memo;
    tags.ready = 0;

    /* The EARs and the BTB capture before the counters count their captures. */
    const int has_general = c->nxev != 0;
    unsigned captured = 0;
    if (m->units.armed)
        captured = ref_ear_step(&m->units, &m->qual, c, psr_up, psr_pp, &tags, m->reg) |
                   ref_btb_step(&m->units, &m->qual, c, psr_up, psr_pp, &tags, m->reg);

    /* 3. event count */
    const uint32_t counts = event_counts(m, c, en, captured, &tags);

    /* A counter with n = 0 adds nothing whatever its threshold. */
    for (unsigned left = has_general ? en : en & bits_of_bytes(counts); left;
         left &= left - 1) {
        const unsigned k = (unsigned)__builtin_ctz(left);
        const ref_counter_cfg *cfg = &m->cfg[k];
        /* 3b. general events, 4. threshold */
        unsigned n = (counts >> (8 * k)) & 0xffu;
        if (has_general)
            n += general_count(m, cfg, c, &tags);
        unsigned inc = apply_threshold(n, cfg->thres, m->thr_ge);
        if (inc == 0)
            continue;

        /* 5. counter: W-bit add; the carry out of bit W-1 is the overflow. */
        uint64_t sum = (m->reg[ITA_VIS_PMD4 + k] & m->count_mask) + inc;
        m->reg[ITA_VIS_PMD4 + k] = counter_view(m, sum & m->count_mask);
        m->total[k] += inc;
        m->added[k] = inc;
        added |= 1u << k;
        if (sum > m->count_mask) {
            unsigned bit = 1u << k; /* PMC0.ovf bit of PMD4+k */
            ovf_d |= bit;           /* sticky: only software clears it */
            if (cfg->oi) {
                fr_d = 1;
                /* Edge-triggered: a new interrupt only on the 0->1 of the
                 * overflow bit (Itanium Architecture Software Developer's
                 * Manual Vol. 2, section 7.2.2; docs/ita-semantics.md step 5). */
                if (!(ovf_q & bit))
                    m->pmi = 1;
            }
        }
    }

    if (ovf_d != ovf_q || fr_d) {
        uint64_t pmc0 = ITA_FSET(pmc0_q, PMC0, OVF, ovf_d);
        m->reg[ITA_VIS_PMC0] = ITA_FSET(pmc0, PMC0, FR, fr_d);
    }
    return added;
}

/* One clock of record c.  Returns the counters that added (count_step), 0 when it ended
 * before the counting path (frozen, or nothing could count: it changed nothing but PSR
 * and IPSR). */
static inline __attribute__((always_inline)) unsigned step_once(ref_pmu *m, const ita_cycle *c)
{
    m->base.cycle++;
    m->pmi = 0;

    /* 1. CPU state */
    const uint64_t psr = update_cpu_state(m, c);
    const unsigned psr_up = (unsigned)ITA_FGET(psr, PSR, UP);
    const unsigned psr_pp = (unsigned)ITA_FGET(psr, PSR, PP);

    /* Nothing counts while frozen.  fr set by an overflow in this clock
     * takes effect from the next step, so the check uses fr before it. */
    const uint64_t pmc0_q = m->reg[ITA_VIS_PMC0];
    if (ITA_FGET(pmc0_q, PMC0, FR))
        return 0;

    /* 2. qualification, of every counter at once (ref_enabled, tabulated) */
    const unsigned cpl = c->cpl, is = c->is;
    /* cpl < 4 and is < 2 in one test (ENABLE_INDEX's widths) */
    const unsigned en = (cpl | is << 1) < 4 ? m->enabled[ENABLE_INDEX(cpl, is, psr_up, psr_pp)] : 0;
    /* A cycle in which no source of a qualified counter has anything (a stall: no slot
     * retires, no general event, no recirculation, no cycle event, no unit armed to
     * capture) counts nothing, overflows nothing and leaves PMC0 as it is. */
    if (!(c->nslots && (en & m->slot_any)) && !m->units.armed && c->nxev == 0 &&
        !(en & m->src_cycle) && !(c->recirc && (en & m->src_recirc)))
        return 0;
    return count_step(m, c, psr_up, psr_pp, pmc0_q, en);
}

static void ref_step(pmu_backend *b, const void *record)
{
    ref_pmu *m = (ref_pmu *)b;
    m->again = 0;
    step_once(m, (const ita_cycle *)record);
}

/* The clocks of a record after the first are alike once PSR and IPSR settle (an
 * interruption entry or an rfi in the record changes them on its first clock and at most
 * its second): the same record, configuration, qualification and PSR give the same
 * increments, and a clock that adds nothing changes nothing at all.  So while no unit is
 * armed or the PMU is frozen (a capture depends on what was captured before; a frozen
 * unit captures nothing), a clock that found PSR and IPSR settled and left PMC0 as it was
 * (no overflow bit, no freeze) stands for the next ones up to the first that would carry
 * out of a counter: those can be added at once (count += t x increment), and the carrying
 * clock, with its overflow bit, freeze and interrupt, is stepped on its own.
 *
 * settled: the clock just stepped, with PSR, IPSR and PMC0 as they were before it,
 * stands for the record's next clocks. */
static inline int settled(const ref_pmu *m, uint64_t psr, uint64_t ipsr, uint64_t pmc0)
{
    return psr == m->reg[ITA_VIS_PSR] && ipsr == m->reg[ITA_VIS_IPSR] &&
           pmc0 == m->reg[ITA_VIS_PMC0] && !(m->units.armed && !ITA_FGET(pmc0, PMC0, FR));
}

/* How many of the next t clocks can add m->added[k] to each counter k in `added` without a
 * carry out of one of them. */
static inline uint64_t without_carry(const ref_pmu *m, unsigned added, uint64_t t)
{
    for (unsigned left = added; left; left &= left - 1) {
        const unsigned k = (unsigned)__builtin_ctz(left);
        const uint64_t count = m->reg[ITA_VIS_PMD4 + k] & m->count_mask;
        const uint64_t room = (m->count_mask - count) / m->added[k]; /* added[k] >= 1 */
        if (room < t)
            t = room;
    }
    return t;
}

/* t settled clocks at once (without_carry allows them). */
static inline void add_clocks(ref_pmu *m, unsigned added, uint64_t t)
{
    for (unsigned left = added; left; left &= left - 1) {
        const unsigned k = (unsigned)__builtin_ctz(left);
        const uint64_t sum = (m->reg[ITA_VIS_PMD4 + k] & m->count_mask) + t * m->added[k];
        m->reg[ITA_VIS_PMD4 + k] = counter_view(m, sum);
        m->total[k] += t * m->added[k];
    }
    m->base.cycle += t;
}

static unsigned ref_step_run(pmu_backend *b, const void *record, unsigned n)
{
    ref_pmu *m = (ref_pmu *)b;
    const ita_cycle *c = (const ita_cycle *)record;
    m->again = 0;
    unsigned i = 0;
    for (;;) {
        const uint64_t psr = m->reg[ITA_VIS_PSR], ipsr = m->reg[ITA_VIS_IPSR];
        const uint64_t pmc0 = m->reg[ITA_VIS_PMC0];
        const unsigned added = step_once(m, c);
        i++;
        if (i == n || m->pmi)
            return i;
        if (!settled(m, psr, ipsr, pmc0))
            continue;
        /* The clocks that add without a carry: t of the n - i left. */
        const uint64_t t = without_carry(m, added, n - i);
        add_clocks(m, added, t);
        i += (unsigned)t;
        if (i == n)
            return n;
    }
}

/* One more clock of the record stepped last (pmu_backend_ops.step_again): a clock after a
 * settled one adds its increments again, unless one would carry; any other is stepped,
 * and tells whether it settled. */
static void ref_step_again(pmu_backend *b, const void *record)
{
    ref_pmu *m = (ref_pmu *)b;
    if (m->again && without_carry(m, m->again_added, 1) == 1) {
        m->pmi = 0;
        add_clocks(m, m->again_added, 1);
        return;
    }
    const uint64_t psr = m->reg[ITA_VIS_PSR], ipsr = m->reg[ITA_VIS_IPSR];
    const uint64_t pmc0 = m->reg[ITA_VIS_PMC0];
    const unsigned added = step_once(m, (const ita_cycle *)record);
    m->again = (uint8_t)settled(m, psr, ipsr, pmc0);
    m->again_added = added;
}

/* ---- construction ------------------------------------------------------------ */

static void ref_destroy(pmu_backend *b)
{
    free(((ref_pmu *)b)->general);
    free(b);
}

/* Resolves every stream event id for the model once, so that a step only indexes. */
static int resolve_general_events(ref_pmu *m, ita_model model, pmu_err *err)
{
    m->ngeneral = ita_event_id_count();
    m->general = calloc(m->ngeneral ? m->ngeneral : 1, sizeof *m->general);
    if (!m->general)
        return pmu_errf(err, PMU_E_NOMEM, "ita_ref_create: out of memory");
    for (unsigned id = 0; id < m->ngeneral; id++) {
        const ita_event_row *r = ita_event_id_row(id, (int)model);
        if (!r || r->type != ITA_EVT_NORMAL || r->kind != ITA_KIND_NONE)
            continue;
        ref_general_event *g = &m->general[id];
        g->counts = 1;
        g->code = r->code;
        g->umask = r->umask;
        g->occ = (uint8_t)REF_OCC(r->iar, r->opm, r->dar);
    }
    return 0;
}

static uint64_t ref_total(pmu_backend *b, unsigned ctr);

static const pmu_backend_ops ref_ops = {
    .reset = ref_reset,
    .write = ref_write,
    .read = ref_read,
    .step = ref_step,
    .snapshot = ref_snapshot,
    .destroy = ref_destroy,
    .total = ref_total,
    .pmi = ref_pmi,
    .visible = ref_visible,
    .step_run = ref_step_run,
    .step_again = ref_step_again,
};

static int params_valid(const ita_params *p, pmu_err *err)
{
    if (p->model != ITA_MODEL_ITANIUM && p->model != ITA_MODEL_ITANIUM2)
        return pmu_errf(err, PMU_E_INPUT, "ita_ref_create: params.model: expected "
                        "ITA_MODEL_ITANIUM (0) or ITA_MODEL_ITANIUM2 (1), got %d", (int)p->model);
    if (p->pmd_sext != 0 && p->pmd_sext != 1)
        return pmu_errf(err, PMU_E_INPUT, "ita_ref_create: params.pmd_sext: expected 0 or 1, got %d",
                        p->pmd_sext);
    if (p->thr_ge != 0 && p->thr_ge != 1)
        return pmu_errf(err, PMU_E_INPUT, "ita_ref_create: params.thr_ge: expected 0 or 1, got %d",
                        p->thr_ge);
    if (p->fine_2bundle != 0 && p->fine_2bundle != 1)
        return pmu_errf(err, PMU_E_INPUT,
                        "ita_ref_create: params.fine_2bundle: expected 0 or 1, got %d", p->fine_2bundle);
    return 0;
}

pmu_backend *ita_ref_create(const ita_params *p)
{
    return ita_ref_new(p, NULL);
}

pmu_backend *ita_ref_new(const ita_params *p, pmu_err *err)
{
    ita_params params = p ? *p : ita_params_default();
    if (params_valid(&params, err) != 0)
        return NULL;

    ref_pmu *m = calloc(1, sizeof *m);
    if (!m) {
        pmu_errf(err, PMU_E_NOMEM, "ita_ref_create: out of memory");
        return NULL;
    }
    m->base.ops = &ref_ops;
    m->base.name = "ref";
    m->base.model = params.model;
    m->base.nvis = ITA_NVIS;

    for (int v = 0; v < ITA_NVIS; v++) {
        const ita_reg_desc *d = ita_reg_lookup(ita_vis_table[v].addr);
        if (!d) {
            pmu_errf(err, PMU_E_INTERNAL, "ita_ref_create: include/common/ita/ita_regs.def: visible "
                     "register %s has no PMU_DEF_REG row (expected one covering its address)",
                     ita_vis_table[v].name);
            free(m);
            return NULL;
        }
        m->is_qual[v] = d->role == ITA_ROLE_QUAL;
        m->reset_value[v] = d->reset[params.model];
        m->write_mask[v] = d->wmask[params.model];
    }
    unsigned w = ita_counter_width(params.model);
    m->count_mask = ((uint64_t)1 << w) - 1;
    m->sign_bit = (uint64_t)1 << (w - 1);
    /* A step relies on a stored count never exceeding W bits. */
    for (int v = ITA_VIS_PMD4; v <= ITA_VIS_PMD7; v++) {
        if (m->write_mask[v] != m->count_mask || (m->reset_value[v] & ~m->count_mask)) {
            pmu_errf(err, PMU_E_INTERNAL, "ita_ref_create: include/common/ita/ita_regs.def: %s: expected "
                     "writable mask 0x%llx (W = %u bits) and a reset value within it",
                     ita_vis_table[v].name, (unsigned long long)m->count_mask, w);
            free(m);
            return NULL;
        }
    }
    m->ext_bits = params.pmd_sext ? ~m->count_mask : 0;
    m->thr_ge = (uint8_t)params.thr_ge;
    m->fine_2bundle = (uint8_t)params.fine_2bundle;
    if (resolve_general_events(m, params.model, err) != 0) {
        free(m);
        return NULL;
    }

    ref_reset(&m->base);
    return &m->base;
}

static uint64_t ref_total(pmu_backend *b, unsigned ctr)
{
    /* Counters other than 4..7 have no total. */
    if (ctr < ITA_FIRST_COUNTER || ctr >= ITA_FIRST_COUNTER + ITA_NCOUNTERS)
        return 0;
    return ((const ref_pmu *)b)->total[ctr - ITA_FIRST_COUNTER];
}

uint64_t ita_ref_total(pmu_backend *b, unsigned ctr)
{
    return b ? pmu_total(b, ctr) : 0;
}
