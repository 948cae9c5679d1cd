/*
 * ref_btb.c - the branch trace buffer (PMC12, PMD8..PMD16) of Itanium and Itanium 2,
 * as docs/ita-ear-btb.md specifies it.  PMC12 is decoded when written (ref_btb_decode); a
 * step that starts unfrozen records the first qualifying branch (ref_btb_step).
 */
#include "ref_internal.h"

/* The ring PMD8..PMD15; PMD16.bbi indexes it. */
#define BTB_NENTRIES (ITA_VIS_PMD15 - ITA_VIS_PMD8 + 1)
_Static_assert(BTB_NENTRIES == 8 && ITA_VIS_PMD15 == ITA_VIS_PMD8 + 7,
               "PMD8..15 must be consecutive in the visible list of include/common/ita/ita_regs.def");
_Static_assert((1u << ITA_F_PMD16_BBI_WIDTH) == BTB_NENTRIES, "PMD16.bbi must index PMD8..15");

/* PMD16.ext holds four bits per entry PMD(8+k), at ext bit 4k: b1, then bruflush, then
 * two ignored bits (the .def's PMD16.EXT description); a record writes all four. */
#define EXT_BITS_PER_ENTRY 4u
#define EXT_B1 0u
#define EXT_BRUFLUSH 1u
_Static_assert(ITA_F_PMD16_EXT_WIDTH == BTB_NENTRIES * EXT_BITS_PER_ENTRY,
               "PMD16.ext must hold four bits per BTB entry");

/* Branch prediction outcomes (the record's `pred`) and types (`br`), and the slot a
 * not-taken branch record holds (docs/ita-ear-btb.md). */
#define PRED_WRONG_PATH 2u
#define PRED_WRONG_TARGET 3u
#define SLOT_NOT_TAKEN 3u
/* Bit 0 / bit 1 of the tm, ptm and ppm masks. */
#define MASK_BIT0 1u
#define MASK_BIT1 2u

void ref_btb_decode(ref_units *u, const uint64_t *reg, ita_model model)
{
    const uint64_t pmc12 = reg[ITA_VIS_PMC12];
    const ita_event_desc *be = &ita_event_table[ITA_EV_BRANCH_EVENT];
    ref_unit_cfg *b = &u->btb;
    *b = (ref_unit_cfg){0};
    b->plm = (uint8_t)ITA_FGET(pmc12, PMC12, PLM);
    b->pm = (uint8_t)ITA_FGET(pmc12, PMC12, PM);
    b->tm = (uint8_t)ITA_FGET(pmc12, PMC12, TM);
    b->ptm = (uint8_t)ITA_FGET(pmc12, PMC12, PTM);
    b->ppm = (uint8_t)ITA_FGET(pmc12, PMC12, PPM);
    /* Itanium: bit 7 is tar and bits 15:14 are bpt and bac, stored without effect: no
     * prediction-detail form and no branch-type filter. */
    if (model == ITA_MODEL_ITANIUM2) {
        b->ds = (uint8_t)ITA_FGET(pmc12, PMC12, DS);
        b->brt = (uint8_t)ITA_FGET(pmc12, PMC12, BRT);
    }
    b->occ = (uint8_t)REF_OCC(be->iar, be->opm, be->dar);
    /* tm, ptm or ppm = 0 records nothing. */
    u->armed &= (uint8_t)~(1u << REF_UNIT_BTB);
    if (b->plm && b->tm && b->ptm && b->ppm)
        u->armed |= 1u << REF_UNIT_BTB;
}

static unsigned branch_pred(unsigned f) { return (f & ITA_SF_BR_PRED_MASK) >> ITA_SF_BR_PRED_LSB; }
/* A squashed branch is a not-taken branch. */
static int branch_taken(unsigned f) { return (f & ITA_SF_TAKEN_MASK) && !(f & ITA_SF_PRED_OFF_MASK); }

/* Whether branch slot `f` (flags) passes PMC12's tm, ptm, ppm and brt filters. */
static int filters_pass(const ref_unit_cfg *b, unsigned f)
{
    const unsigned type = (f & ITA_SF_BR_TYPE_MASK) >> ITA_SF_BR_TYPE_LSB;
    const unsigned pred = branch_pred(f);
    const int taken = branch_taken(f);
    const unsigned tm = taken ? MASK_BIT1 : MASK_BIT0;
    const unsigned ptm = pred == PRED_WRONG_TARGET ? MASK_BIT0 : MASK_BIT1;
    const unsigned ppm = pred == PRED_WRONG_PATH ? MASK_BIT0 : MASK_BIT1;
    return (b->tm & tm) && (b->ptm & ptm) && (b->ppm & ppm) && (b->brt == 0 || b->brt == type);
}

static void record(const ref_unit_cfg *b, const ita_cycle *c, unsigned s, uint64_t *reg)
{
    const ita_slot *sl = &c->slot[s];
    const unsigned pred = branch_pred(sl->flags);
    const int taken = branch_taken(sl->flags);
    const unsigned mp = pred == PRED_WRONG_PATH || pred == PRED_WRONG_TARGET;
    unsigned second;
    const uint64_t bundle = ref_window_bundle(c, s, &second);

    uint64_t branch = ITA_FSET(0, BTB_ENTRY, B, 1);
    branch = ITA_FSET(branch, BTB_ENTRY, MP, mp);
    branch = ITA_FSET(branch, BTB_ENTRY, SLOT, taken ? sl->slot : SLOT_NOT_TAKEN);
    branch = ITA_FSET(branch, BTB_ENTRY, ADDR, bundle);

    uint64_t target = ITA_FSET(0, BTB_ENTRY, MP, mp);
    if (b->ds) {
        target = ITA_FSET(target, BTB_DETAIL, HIADDR, sl->target >> ITA_F_BTB_DETAIL_HIADDR_LSB);
        target = ITA_FSET(target, BTB_DETAIL, LOADDR, sl->target >> ITA_F_BTB_DETAIL_LOADDR_LSB);
    } else {
        target = ITA_FSET(target, BTB_ENTRY, ADDR, sl->target >> ITA_F_BTB_ENTRY_ADDR_LSB);
    }

    uint64_t pmd16 = reg[ITA_VIS_PMD16];
    const unsigned bbi = (unsigned)ITA_FGET(pmd16, PMD16, BBI);
    const unsigned tgt = (bbi + 1) % BTB_NENTRIES;
    const unsigned entry_bits = (1u << EXT_BITS_PER_ENTRY) - 1;
    const uint32_t branch_ext = (second << EXT_B1) | ((pred == PRED_WRONG_PATH ? 1u : 0u) << EXT_BRUFLUSH);
    uint64_t ext = ITA_FGET(pmd16, PMD16, EXT);
    ext &= ~((uint64_t)entry_bits << (EXT_BITS_PER_ENTRY * bbi) |
             (uint64_t)entry_bits << (EXT_BITS_PER_ENTRY * tgt));
    ext |= (uint64_t)branch_ext << (EXT_BITS_PER_ENTRY * bbi);

    reg[ITA_VIS_PMD8 + bbi] = branch;
    reg[ITA_VIS_PMD8 + tgt] = target;
    pmd16 = ITA_FSET(pmd16, PMD16, EXT, ext);
    pmd16 = ITA_FSET(pmd16, PMD16, BBI, (bbi + 2) % BTB_NENTRIES);
    /* Sticky until software writes PMD16: set when the ring wraps (bbi + 2 carries). */
    if (bbi + 2 >= BTB_NENTRIES)
        pmd16 = ITA_FSET(pmd16, PMD16, FULL, 1);
    reg[ITA_VIS_PMD16] = pmd16;
}

unsigned ref_btb_step(const ref_units *u, const ref_qual *q, const ita_cycle *c, unsigned psr_up,
                      unsigned psr_pp, ref_step_tags *t, uint64_t *reg)
{
    const ref_unit_cfg *b = &u->btb;
    /* Only IA-64 branches are recorded; PMC12 has no ism. */
    if (c->is != 0 || !ref_enabled(b->plm, 0, b->pm, c, psr_up, psr_pp))
        return 0;
    const unsigned nslots = ref_retired_slots(c);
    const ref_counter_cfg *occ = &u->occ[b->occ];
    for (unsigned s = 0; s < nslots; s++) {
        const unsigned f = c->slot[s].flags;
        if ((f & ITA_SF_BR_TYPE_MASK) && filters_pass(b, f) && ref_occ_passes(q, occ, c, t, s)) {
            record(b, c, s, reg); /* the first branch in slot order wins */
            return 1u << REF_UNIT_BTB;
        }
    }
    return 0;
}
