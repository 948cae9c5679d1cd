/*
 * ref_ear.c - the instruction and data event address registers (I-EAR: PMC10, PMD0,
 * PMD1; D-EAR: PMC11, PMD2, PMD3, PMD17) of Itanium and Itanium 2, as docs/ita-ear-btb.md
 * specifies them.  PMC10 and PMC11 are decoded when written (ref_ear_decode); a step
 * that starts unfrozen captures (ref_ear_step).
 */
#include "ref_internal.h"

/* Itanium 2 I-EAR cache mode with umask bit 7 set: the lower bounds of the eight
 * latency bins, bin i = umask bit i (docs/ita-ear-btb.md). */
static const uint16_t iear_bin_floor[8] = {4, 8, 16, 32, 128, 256, 1024, 4096};
#define IEAR_BINS_SELECT 0x80u /* umask bit 7: capture by bins */
#define IEAR_ALL_MISSES 0x40u  /* LAT0: every L1I miss */
#define IEAR_RAB 0x00u         /* RAB: a fetch served by the RAB */
/* The EAR latency thresholds 4 << umask (LAT4 .. LAT4096: umask 0..0xa), and umask
 * 0xf, Itanium's LAT_NONE (every miss). */
#define EAR_LAT_BASE 4u
#define EAR_LAT_LAST_UMASK 0xau
#define EAR_LAT_NONE 0xfu
/* Itanium D-EAR cache umasks 7..0xa: 512, 512, 1024, 2048 (libpfm's itanium_events.h;
 * 0x7 has no event and is read as 512, docs/ita-ear-btb.md). */
static const uint16_t ita_dear_high_lat[4] = {512, 512, 1024, 2048};
#define ITA_DEAR_FIRST_HIGH 7u

static uint16_t shifted_threshold(unsigned umask) { return (uint16_t)(EAR_LAT_BASE << umask); }

/* Cache-mode threshold of an Itanium EAR: the mode and min_lat. */
static void ita_cache_mode(ref_unit_cfg *e, unsigned umask, int data)
{
    e->mode = REF_EAR_LAT;
    if (umask == EAR_LAT_NONE)
        e->min_lat = 1;
    else if (umask > EAR_LAT_LAST_UMASK)
        e->mode = REF_EAR_OFF;
    else if (data && umask >= ITA_DEAR_FIRST_HIGH)
        e->min_lat = ita_dear_high_lat[umask - ITA_DEAR_FIRST_HIGH];
    else
        e->min_lat = shifted_threshold(umask);
}

/* PMC10.ct (Itanium 2): 1x cache, 00 TLB, 01 nothing. */
#define CT_CACHE_BIT 2u
#define CT_TLB 0u

static void decode_iear(ref_unit_cfg *e, uint64_t pmc10, ita_model model)
{
    if (model == ITA_MODEL_ITANIUM2) {
        const unsigned umask = (unsigned)ITA_FGET(pmc10, PMC10, UMASK);
        const unsigned ct = (unsigned)ITA_FGET(pmc10, PMC10, CT);
        e->plm = (uint8_t)ITA_FGET(pmc10, PMC10, PLM);
        e->pm = (uint8_t)ITA_FGET(pmc10, PMC10, PM);
        e->ism = (uint8_t)ITA_FGET(pmc10, PMC10, ISM);
        if (ct & CT_CACHE_BIT) {
            if (umask & IEAR_BINS_SELECT) {
                e->mode = REF_EAR_BINS;
                e->bins = (uint8_t)umask;
            } else if (umask == IEAR_ALL_MISSES) {
                e->mode = REF_EAR_LAT;
                e->min_lat = 1;
            } else if (umask == IEAR_RAB) {
                e->mode = REF_EAR_RAB;
            }
        } else if (ct == CT_TLB) {
            /* umask bit t-1 selects TLB outcome t. */
            e->mode = REF_EAR_TLB;
            e->tlb_mask = (uint8_t)(umask << 1);
        }
        return;
    }
    const unsigned umask = (unsigned)ITA_FGET(pmc10, PMC10_ITA, UMASK);
    e->plm = (uint8_t)ITA_FGET(pmc10, PMC10_ITA, PLM);
    e->pm = (uint8_t)ITA_FGET(pmc10, PMC10_ITA, PM);
    e->ism = (uint8_t)ITA_FGET(pmc10, PMC10_ITA, ISM);
    if (ITA_FGET(pmc10, PMC10_ITA, TLB)) {
        e->mode = REF_EAR_TLB;
        e->tlb_mask = (uint8_t)umask; /* umask bit t selects TLB outcome t */
    } else {
        ita_cache_mode(e, umask, 0);
    }
}

/* PMC11.mode (Itanium 2). */
enum { DEAR_CACHE = 0, DEAR_TLB = 1, DEAR_ALAT = 2 };

static void decode_dear(ref_unit_cfg *e, uint64_t pmc11, ita_model model)
{
    const unsigned umask = (unsigned)ITA_FGET(pmc11, PMC11, UMASK);
    e->plm = (uint8_t)ITA_FGET(pmc11, PMC11, PLM);
    e->pm = (uint8_t)ITA_FGET(pmc11, PMC11, PM);
    e->ism = (uint8_t)ITA_FGET(pmc11, PMC11, ISM);
    if (model == ITA_MODEL_ITANIUM) {
        if (ITA_FGET(pmc11, PMC11_ITA, TLB)) {
            e->mode = REF_EAR_TLB;
            e->tlb_mask = (uint8_t)umask;
        } else {
            ita_cache_mode(e, umask, 1);
        }
        return;
    }
    switch (ITA_FGET(pmc11, PMC11, MODE)) {
    case DEAR_CACHE:
        if (umask <= EAR_LAT_LAST_UMASK) {
            e->mode = REF_EAR_LAT;
            e->min_lat = shifted_threshold(umask);
        }
        break;
    case DEAR_TLB:
        e->mode = REF_EAR_TLB;
        e->tlb_mask = (uint8_t)umask;
        break;
    case DEAR_ALAT:
        e->mode = REF_EAR_ALAT;
        break;
    default:
        break;
    }
}

static uint16_t field_limit(uint64_t wmask, uint64_t field_mask, unsigned lsb)
{
    return (uint16_t)((wmask & field_mask) >> lsb);
}

void ref_ear_decode(ref_units *u, const uint64_t *reg, ita_model model)
{
    const ita_event_desc *ie = &ita_event_table[ITA_EV_L1I_EAR_EVENTS];
    const ita_event_desc *de = &ita_event_table[ITA_EV_DATA_EAR_EVENTS];
    u->model = (uint8_t)model;
    u->iear = (ref_unit_cfg){0};
    u->dear = (ref_unit_cfg){0};
    decode_iear(&u->iear, reg[ITA_VIS_PMC10], model);
    decode_dear(&u->dear, reg[ITA_VIS_PMC11], model);
    u->armed &= (uint8_t)~((1u << REF_UNIT_IEAR) | (1u << REF_UNIT_DEAR));
    if (u->iear.plm && u->iear.mode != REF_EAR_OFF)
        u->armed |= 1u << REF_UNIT_IEAR;
    if (u->dear.plm && u->dear.mode != REF_EAR_OFF)
        u->armed |= 1u << REF_UNIT_DEAR;
    u->iear.occ = (uint8_t)REF_OCC(ie->iar, ie->opm, ie->dar);
    u->dear.occ = (uint8_t)REF_OCC(de->iar, de->opm, de->dar);
    /* The latency fields saturate at what the model's register holds (Itanium 2 PMD3
     * has 13 latency bits, Itanium 12: include/common/ita/ita_regs.def writable masks). */
    const ita_reg_desc *pmd1 = ita_reg_lookup(ITA_ADDR(ITA_SPACE_PMD, 1));
    const ita_reg_desc *pmd3 = ita_reg_lookup(ITA_ADDR(ITA_SPACE_PMD, 3));
    u->iear_lat_max = field_limit(pmd1->wmask[model], ITA_FMASK(PMD1, LAT), ITA_F_PMD1_LAT_LSB);
    u->dear_lat_max = field_limit(pmd3->wmask[model], ITA_FMASK(PMD3, LAT), ITA_F_PMD3_LAT_LSB);
}

/* Whether a fetch or access with latency `lat` and TLB outcome `tlb` is captured in a
 * latency or TLB mode (the I-EAR's bins and RAB modes are tested by the caller). */
static int lat_tlb_hit(const ref_unit_cfg *e, unsigned lat, unsigned tlb)
{
    if (e->mode == REF_EAR_LAT)
        return lat >= e->min_lat;
    return e->mode == REF_EAR_TLB && tlb != 0 && ((e->tlb_mask >> tlb) & 1u);
}

static int iear_hit(const ref_unit_cfg *e, const ita_cycle *c)
{
    switch (e->mode) {
    case REF_EAR_BINS: {
        if (c->if_lat < iear_bin_floor[0])
            return 0;
        unsigned bin = 0;
        while (bin + 1 < 8 && c->if_lat >= iear_bin_floor[bin + 1])
            bin++;
        return (e->bins >> bin) & 1u;
    }
    case REF_EAR_RAB:
        return c->if_rab != 0;
    default:
        return lat_tlb_hit(e, c->if_lat, c->if_tlb);
    }
}

static void iear_capture(const ref_units *u, const ita_cycle *c, uint64_t *reg)
{
    const ref_unit_cfg *e = &u->iear;
    const int tlb_mode = e->mode == REF_EAR_TLB;
    const unsigned lat = c->if_lat > u->iear_lat_max ? u->iear_lat_max : c->if_lat;
    const uint64_t line = c->if_addr >> ITA_F_PMD0_ADDR_LSB;
    uint64_t pmd0 = ITA_FSET(0, PMD0, ADDR, line), pmd1 = 0;
    if (u->model == ITA_MODEL_ITANIUM2) {
        /* stat: the fetch's own status, TLB outcome in TLB mode; in cache mode 3 for
         * a fetch served by the RAB, else 1 (docs/ita-ear-btb.md). */
        pmd0 = ITA_FSET(pmd0, PMD0, STAT, tlb_mode ? c->if_tlb : (c->if_rab ? 3u : 1u));
        if (!tlb_mode) {
            pmd1 = ITA_FSET(0, PMD1, LAT, lat);
            pmd1 = ITA_FSET(pmd1, PMD1, OV, c->if_lat > u->iear_lat_max);
        }
    } else {
        pmd0 = ITA_FSET(pmd0, PMD0_ITA, V, 1);
        pmd0 = ITA_FSET(pmd0, PMD0_ITA, TLB, tlb_mode);
        if (!tlb_mode)
            pmd1 = ITA_FSET(0, PMD1, LAT, lat);
    }
    reg[ITA_VIS_PMD0] = pmd0;
    reg[ITA_VIS_PMD1] = pmd1;
}

/* Whether slot s is a D-EAR candidate in the unit's mode (before qualification). */
static int dear_hit(const ref_unit_cfg *e, const ita_slot *s)
{
    const unsigned f = s->flags;
    if (f & ITA_SF_PRED_OFF_MASK) /* only slots retiring with a true predicate */
        return 0;
    switch (e->mode) {
    case REF_EAR_LAT:
        return (f & ITA_SF_LOAD_MASK) && lat_tlb_hit(e, s->lat, s->tlb);
    case REF_EAR_TLB:
        return (f & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK)) && lat_tlb_hit(e, s->lat, s->tlb);
    case REF_EAR_ALAT:
        return (f & ITA_SF_ALAT_MISS_MASK) != 0;
    default:
        return 0;
    }
}

static void dear_capture(const ref_units *u, const ita_cycle *c, unsigned s, uint64_t *reg)
{
    const ref_unit_cfg *e = &u->dear;
    const ita_slot *sl = &c->slot[s];
    const unsigned lat = sl->lat > u->dear_lat_max ? u->dear_lat_max : sl->lat;
    uint64_t pmd3 = 0, pmd17;
    if (u->model == ITA_MODEL_ITANIUM2) {
        unsigned second;
        const uint64_t bundle = ref_window_bundle(c, s, &second);
        if (e->mode == REF_EAR_LAT) {
            pmd3 = ITA_FSET(0, PMD3, LAT, lat);
            pmd3 = ITA_FSET(pmd3, PMD3, OV, sl->lat > u->dear_lat_max);
        }
        pmd3 = ITA_FSET(pmd3, PMD3, STAT, e->mode == REF_EAR_TLB ? sl->tlb : 1u);
        pmd17 = ITA_FSET(0, PMD17, IADDR, bundle);
        pmd17 = ITA_FSET(pmd17, PMD17, VL, 1);
        pmd17 = ITA_FSET(pmd17, PMD17, BN, second);
        pmd17 = ITA_FSET(pmd17, PMD17, SLOT, sl->slot);
    } else {
        if (e->mode == REF_EAR_TLB)
            pmd3 = ITA_FSET(0, PMD3_ITA, LEVEL, sl->tlb);
        else
            pmd3 = ITA_FSET(0, PMD3, LAT, lat);
        pmd17 = ITA_FSET(0, PMD17, IADDR, sl->ip >> ITA_BUNDLE_LOG2);
        pmd17 = ITA_FSET(pmd17, PMD17_ITA, SLOT, sl->slot);
        pmd17 = ITA_FSET(pmd17, PMD17_ITA, VL, 1);
    }
    reg[ITA_VIS_PMD2] = sl->daddr;
    reg[ITA_VIS_PMD3] = pmd3;
    reg[ITA_VIS_PMD17] = pmd17;
}

unsigned ref_ear_step(const ref_units *u, const ref_qual *q, const ita_cycle *c, unsigned psr_up,
                      unsigned psr_pp, ref_step_tags *t, uint64_t *reg)
{
    unsigned captured = 0;
    const ref_unit_cfg *ie = &u->iear, *de = &u->dear;

    if (ie->mode != REF_EAR_OFF && ref_enabled(ie->plm, ie->ism, ie->pm, c, psr_up, psr_pp) &&
        iear_hit(ie, c)) {
        /* The fetch is qualified as a non-memory slot at if_addr without encoding. */
        const ref_counter_cfg *occ = &u->occ[ie->occ];
        int pass = 1;
        if (occ->constrained && c->is == 0) {
            ita_slot fetch = {0};
            fetch.ip = c->if_addr;
            pass = (int)ref_slot_passes(q, occ, ref_slot_tags(q, &fetch, c->cpl));
        }
        if (pass) {
            iear_capture(u, c, reg);
            captured |= 1u << REF_UNIT_IEAR;
        }
    }

    if (de->mode != REF_EAR_OFF && ref_enabled(de->plm, de->ism, de->pm, c, psr_up, psr_pp)) {
        const unsigned nslots = ref_retired_slots(c);
        const ref_counter_cfg *occ = &u->occ[de->occ];
        for (unsigned s = 0; s < nslots; s++)
            if (dear_hit(de, &c->slot[s]) && ref_occ_passes(q, occ, c, t, s)) {
                dear_capture(u, c, s, reg); /* the first slot in order wins */
                captured |= 1u << REF_UNIT_DEAR;
                break;
            }
    }
    return captured;
}
