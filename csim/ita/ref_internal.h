/*
 * ref_internal.h - private types of the reference model (csim/).
 *
 * A generic counter configuration register (PMC4..PMC7) is decoded into a
 * ref_counter_cfg when it is written, and the qualification registers
 * (PMC8/9/11/13/14/15, IBR0..7, DBR0..7) into a ref_qual when one of them is
 * written, so that a step never searches a table or re-reads a register
 * field: it only tests a few small precomputed values
 * (docs/ita-reference-model.md).
 */
#ifndef REF_INTERNAL_H
#define REF_INTERNAL_H

#include <stdint.h>

#include "common/ita/ita_arch.h"
#include "csim/ita/ita_ref.h"

/* Where a counter's per-cycle event count n comes from (ita-semantics.md, step 3). */
typedef enum ref_event_source {
    REF_SRC_NONE = 0,   /* (es, umask) not implemented, or not allowed on this counter: n = 0 */
    REF_SRC_CYCLE,      /* n = 1 */
    REF_SRC_SLOTS,      /* n = number of retired slots */
    REF_SRC_SLOT_MATCH, /* n = number of retired slots whose flags match */
    REF_SRC_RECIRC,     /* n = the record's L2 recirculation count */
    REF_SRC_CAPTURE     /* n = 1 when the unit `unit` (enum ref_unit) captured in this cycle */
} ref_event_source;

/* The capture units (docs/ita-ear-btb.md); bit u of a step's capture mask is unit u. */
typedef enum ref_unit { REF_UNIT_IEAR = 0, REF_UNIT_DEAR, REF_UNIT_BTB, REF_NUNITS } ref_unit;

/* One PMC4..PMC7 as a step needs it. */
typedef struct ref_counter_cfg {
    uint8_t plm;          /* bit k set: may count at cpl k */
    uint8_t ism;          /* bit 0 set: IA-64 cycles excluded; bit 1 set: IA-32 excluded */
    uint8_t pm;           /* 1: enabled by PSR.pp (system monitor); 0: by PSR.up */
    uint8_t oi;           /* 1: an overflow freezes and raises the interrupt */
    uint8_t thres;        /* threshold t (0: add n) */
    uint8_t power_gated;  /* 1: n = 0 outside the NORMAL and LOW_POWER states */
    uint8_t source;       /* enum ref_event_source */
    int event;            /* the model's modelled row (ita_event_rows index) selected by (es, umask), or -1 */
    uint8_t es, umask;    /* as written: general events (ita_xev) are matched against them */
    uint8_t unit;         /* REF_SRC_CAPTURE: enum ref_unit */
    /* Event qualification (ita-semantics.md "Event qualification"): the
     * qualifiers the event supports, and the IBR pair / opcode matcher whose
     * tag it uses (k of IA64_TAGGED_INST_RETIRED_IBRPk, 0 for every other
     * event).  Only slot events (REF_SRC_SLOTS, REF_SRC_SLOT_MATCH) are
     * qualified. */
    uint8_t iar, opm, dar;
    uint8_t tag_pair;
    /* Derived from this configuration and the ref_qual together
     * (ref_qual_bind): constrained = 1 when some IA-64 slot may fail the
     * event's qualification, so a step must compute the slots' tags; 0 in
     * the common case (nothing programmed).  q_form and q_need say how
     * ref_slot_passes() decides. */
    uint8_t constrained;
    uint8_t q_form;  /* enum ref_q_form */
    uint16_t q_need; /* tag-word bits that must all be 1 */
    /* REF_SRC_SLOT_MATCH: a slot counts when (flags & all_mask) == all_value
     * and (flags & any_mask) != 0. */
    uint16_t all_mask, all_value, any_mask;
} ref_counter_cfg;

/* Decodes the stored value `pmc` of PMC`index` (4..7) for `model`.  Leaves
 * cfg->constrained 0; ref_qual_bind() sets it. */
void ref_decode_pmc(ref_counter_cfg *cfg, uint64_t pmc, unsigned index, ita_model model);

/* ---- event qualification ------------------------------------------------ */

/* Bits of a slot's tag word: r_k (range tags), o_k (opcode tags) and
 * dbr_hit_k, k = 0..3, four bits each. */
#define REF_TAG_R_SHIFT 0u
#define REF_TAG_O_SHIFT 4u
#define REF_TAG_D_SHIFT 8u
#define REF_TAG_BITS (REF_TAG_D_SHIFT + ITA_NPAIRS) /* a tag word is below 1 << REF_TAG_BITS */

/* How a memory event (dar = 1) is qualified. */
typedef enum ref_mem_mode {
    REF_MEM_INST0 = 0, /* q = inst_q(0) (Itanium pt = 1; Itanium 2 PMC13 not active) */
    REF_MEM_ANY_DBR,   /* Itanium pt = 0: q = inst_q(0) && some dbr_hit_k */
    REF_MEM_PAIRS      /* Itanium 2 PMC13 active: OR over the active pairs */
} ref_mem_mode;

/* One IBR or DBR pair as a step compares it. */
typedef struct ref_br_pair {
    uint64_t addr;    /* even register */
    uint64_t compare; /* address bits compared: {8'hff, mask[55:0]}, IBR without bits 3:0 */
    uint8_t plm;      /* bit c set: the pair matches at cpl c */
} ref_br_pair;

/* One opcode matcher (PMC8 or PMC9). */
typedef struct ref_opcode_matcher {
    uint32_t match; /* 27-bit match field */
    uint32_t care;  /* 27 bits that must match: ~mask field */
    uint8_t units;  /* bit u (enum ita_unit) set: slots of unit u may match */
    uint8_t all;    /* 1: matches every slot (care == 0, every unit enabled) */
} ref_opcode_matcher;

/* The qualification registers, decoded. */
typedef struct ref_qual {
    uint8_t model;       /* ita_model */
    ref_br_pair ibr[ITA_NPAIRS], dbr[ITA_NPAIRS];
    ref_opcode_matcher opc[2]; /* [0] PMC8, [1] PMC9 */
    /* Itanium 2 fine mode: ranges A (IBR0..IBR4) and B (IBR2..IBR6). */
    uint8_t fine;
    uint8_t fine_lsb;    /* G: lowest address bit compared (4, or 5 with fine_2bundle) */
    /* Range tags.  Itanium 2: r_k = 1 for k in r_one, else ibr_hit_k ^ (k in
     * r_inv).  Itanium: r_any = 1 means r_k = (some ibr_hit) for every k;
     * r_one = 0xf when ta = 1. */
    uint8_t r_one, r_inv, r_any;
    /* Opcode tags: o_k = 1 for k in o_one, else the opcode match of PMC8
     * (k even) or PMC9 (k odd). */
    uint8_t o_one;
    /* Memory events. */
    uint8_t mem_mode;    /* enum ref_mem_mode */
    uint8_t mem_cfg0, mem_cfg1, mem_cfg2; /* active pairs with cfg_dbrp 0, 1, 2 (REF_MEM_PAIRS) */
    /* Which primitive matches a tag word needs at all (the rest stay 0). */
    uint8_t need_ibr, need_opc, need_dbr;
    /* Per cpl: the pairs worth comparing (a tag uses their hit and their plm
     * allows the level; any other pair's hit is 0 or unused).  Bit-mask mode. */
    uint8_t ibr_live[4], dbr_live[4];
} ref_qual;

/* Decodes the qualification registers.  `reg` is the model's visible
 * register array (pmu_state order). */
void ref_qual_decode(ref_qual *q, const uint64_t *reg, ita_model model, int fine_2bundle);

/* How q(s) is computed from a tag word. */
typedef enum ref_q_form {
    REF_Q_NEED = 0,     /* every q_need bit set: inst_q(k) (and the memory events' Tag(PMC8)) */
    REF_Q_NEED_ANY_DBR, /* Itanium pt = 0: inst_q(0) and some dbr_hit */
    REF_Q_PAIRS         /* Itanium 2 active PMC13: the OR over the active pairs */
} ref_q_form;

/* Sets cfg->constrained, q_form and q_need for the qualification `q`. */
void ref_qual_bind(const ref_qual *q, ref_counter_cfg *cfg);

/* The tag word (REF_TAG_*) of one retired IA-64 slot at privilege level
 * `cpl` (0..3: the caller has checked the counter's plm). */
unsigned ref_slot_tags(const ref_qual *q, const ita_slot *s, unsigned cpl);
/* The address and opcode parts of tag words remembered, so that the instructions of a
 * loop are matched against the IBR pairs and the opcode matchers once, not in every
 * cycle they retire: r and o are a function of the slot's ip, encoding and unit, the
 * privilege level and the qualification registers (ref_qual).  Direct-mapped, indexed by
 * the top bits of a multiplicative hash of ip and encoding (an xor-fold of them left an
 * eighth of a loop workload's lookups missing on colliding entries); every
 * ref_qual_decode is followed by ref_tag_memo_clear. */
#define REF_TAG_MEMO_LOG2 11
#define REF_TAG_MEMO (1u << REF_TAG_MEMO_LOG2)
typedef struct ref_tag_memo {
    struct ref_tag_memo_entry {
        uint64_t ip, enc;
        uint16_t unit_cpl; /* REF_TAG_MEMO_KEY; REF_TAG_MEMO_EMPTY: the entry holds nothing */
        uint8_t ro;        /* the tag word's r and o bits */
    } e[REF_TAG_MEMO];
} ref_tag_memo;
/* The unit and the privilege level of an entry, tested in one compare. */
#define REF_TAG_MEMO_KEY(unit, cpl) ((uint16_t)((unit) | (unsigned)(cpl) << 8))
#define REF_TAG_MEMO_EMPTY 0xffffu /* no key: tags are worked out only at cpl 0..3 */
static inline void ref_tag_memo_clear(ref_tag_memo *memo)
{
    for (unsigned i = 0; i < REF_TAG_MEMO; i++)
        memo->e[i].unit_cpl = REF_TAG_MEMO_EMPTY;
}

/* The tag words of every retired slot of `c` (an IA-64 cycle, cpl in 0..3), in one call. */
void ref_cycle_tags(const ref_qual *q, ref_tag_memo *memo, const ita_cycle *c,
                    uint16_t word[ITA_MAX_SLOTS]);

/* q(s) of counter `cfg` for a slot with tag word `tags`. */
static inline unsigned ref_slot_passes(const ref_qual *q, const ref_counter_cfg *cfg, unsigned tags)
{
    const unsigned d = (tags >> REF_TAG_D_SHIFT) & ITA_ALL_PAIRS;
    switch (cfg->q_form) {
    case REF_Q_NEED:
        return (tags & cfg->q_need) == cfg->q_need;
    case REF_Q_NEED_ANY_DBR:
        return (tags & cfg->q_need) == cfg->q_need && d != 0;
    default: {
        const unsigned r = (tags >> REF_TAG_R_SHIFT) & ITA_ALL_PAIRS;
        const unsigned o = (tags >> REF_TAG_O_SHIFT) & ITA_ALL_PAIRS;
        /* inst_q(k) for every k at once; an unsupported qualifier passes. */
        const unsigned iq = (cfg->iar ? r : ITA_ALL_PAIRS) & (cfg->opm ? o : ITA_ALL_PAIRS);
        return ((iq & d & q->mem_cfg0) | (iq & q->mem_cfg1) | (d & q->mem_cfg2)) != 0;
    }
    }
}

/* ---- a step's shared helpers ------------------------------------------------ */

static inline unsigned ref_retired_slots(const ita_cycle *c)
{
    return c->nslots < ITA_MAX_SLOTS ? c->nslots : ITA_MAX_SLOTS;
}

/* Whether a unit or counter with these plm / ism / pm fields is enabled in cycle `c`
 * with the effective PSR.up and PSR.pp (docs/ita-semantics.md step 2). */
static inline int ref_enabled(unsigned plm, unsigned ism, unsigned pm, const ita_cycle *c,
                              unsigned psr_up, unsigned psr_pp)
{
    /* Privilege level: plm[cpl]. */
    if (c->cpl >= ITA_F_PMC_GEN_PLM_WIDTH || !((plm >> c->cpl) & 1u))
        return 0;
    /* Instruction set: an ism bit set excludes that instruction set. */
    if (c->is >= ITA_F_PMC_GEN_ISM_WIDTH || ((ism >> c->is) & 1u))
        return 0;
    /* Monitor enable: user monitors follow PSR.up, system monitors PSR.pp. */
    return pm ? psr_pp : psr_up;
}

/* The tag words of a cycle's slots, computed at most once per step and only when
 * something constrained needs them. */
typedef struct ref_step_tags {
    ref_tag_memo *memo;
    unsigned ready;
    uint16_t word[ITA_MAX_SLOTS];
} ref_step_tags;

static inline unsigned ref_tag_word(const ref_qual *q, const ita_cycle *c, ref_step_tags *t, unsigned s)
{
    if (!t->ready) {
        ref_cycle_tags(q, t->memo, c, t->word);
        t->ready = 1;
    }
    return t->word[s];
}

/* The qualification of one occurrence of an event by the event's qualifier columns
 * (iar, opm, dar) with Tag(PMC8) (pair 0): the EAR and BTB captures and the general
 * events attributed to a slot.  Index REF_OCC(iar, opm, dar). */
#define REF_NOCC 8u
#define REF_OCC(iar, opm, dar) ((((iar) ? 1u : 0u) << 2) | (((opm) ? 1u : 0u) << 1) | ((dar) ? 1u : 0u))
/* Fills occ[REF_NOCC] for the qualification `q` (after every ref_qual_decode). */
void ref_occ_bind(ref_counter_cfg occ[REF_NOCC], const ref_qual *q);

/* Whether slot `s` of `c` passes the occurrence qualification `occ` (cpl in 0..3: the
 * caller has checked a plm).  In an IA-32 cycle every tag is 1. */
static inline int ref_occ_passes(const ref_qual *q, const ref_counter_cfg *occ, const ita_cycle *c,
                                 ref_step_tags *t, unsigned s)
{
    if (!occ->constrained || c->is != 0)
        return 1;
    return (int)ref_slot_passes(q, occ, ref_tag_word(q, c, t, s));
}

/* The bundle address (>> 4) a D-EAR or BTB record names for slot `s`, and whether
 * it is the dispersal window's second bundle: the window is slot 0's bundle; an
 * instruction at window + 16 is recorded as {window, second = 1}, any other as its
 * own bundle with second = 0 (docs/ita-ear-btb.md, D-EAR). */
static inline uint64_t ref_window_bundle(const ita_cycle *c, unsigned s, unsigned *second)
{
    const uint64_t window = c->slot[0].ip, ip = c->slot[s].ip;
    *second = ip == window + ITA_BUNDLE_BYTES;
    return (*second ? window : ip) >> ITA_BUNDLE_LOG2;
}

/* ---- EARs and BTB (ref_ear.c, ref_btb.c) ------------------------------------ */

/* What a cache- or TLB-mode EAR captures. */
typedef enum ref_ear_mode {
    REF_EAR_OFF = 0, /* nothing monitored, or an undefined umask */
    REF_EAR_LAT,     /* a miss with latency >= min_lat (min_lat >= 1) */
    REF_EAR_BINS,    /* Itanium 2 I-EAR: latency >= 4 in a bin of `bins` */
    REF_EAR_RAB,     /* Itanium 2 I-EAR: a fetch served by the RAB */
    REF_EAR_TLB,     /* a TLB outcome t != 0 with bit t of tlb_mask set */
    REF_EAR_ALAT     /* Itanium 2 D-EAR: a check load whose ALAT lookup missed */
} ref_ear_mode;

/* PMC10 or PMC11 (or PMC12's enables) as a step needs them. */
typedef struct ref_unit_cfg {
    uint8_t plm, ism, pm;
    uint8_t mode;      /* enum ref_ear_mode (EARs) */
    uint8_t bins;      /* REF_EAR_BINS */
    uint8_t tlb_mask;  /* REF_EAR_TLB */
    uint16_t min_lat;  /* REF_EAR_LAT */
    /* BTB: the filters (docs/ita-ear-btb.md, "Which branches"). */
    uint8_t ds, tm, ptm, ppm, brt;
    uint8_t occ;       /* REF_OCC index of the unit's counter event */
} ref_unit_cfg;

/* All three units, decoded from PMC10..12 with the qualification registers. */
typedef struct ref_units {
    uint8_t model;
    uint8_t armed; /* bit u (enum ref_unit): the unit may capture (some plm bit, a mode) */
    ref_unit_cfg iear, dear, btb;
    ref_counter_cfg occ[REF_NOCC];
    /* Saturation limits of the latency fields for the model (from the writable masks). */
    uint16_t iear_lat_max, dear_lat_max;
} ref_units;

/* Decodes PMC10 and PMC11 (ref_ear.c) and PMC12 (ref_btb.c) from the visible
 * registers `reg`. */
void ref_ear_decode(ref_units *u, const uint64_t *reg, ita_model model);
void ref_btb_decode(ref_units *u, const uint64_t *reg, ita_model model);

/* One step's captures into `reg` (the visible registers), for a cycle that starts
 * unfrozen; return the units that captured as a mask of 1 << enum ref_unit. */
unsigned ref_ear_step(const ref_units *u, const ref_qual *q, const ita_cycle *c, unsigned psr_up,
                      unsigned psr_pp, ref_step_tags *t, uint64_t *reg);
unsigned ref_btb_step(const ref_units *u, const ref_qual *q, const ita_cycle *c, unsigned psr_up,
                      unsigned psr_pp, ref_step_tags *t, uint64_t *reg);

#endif
