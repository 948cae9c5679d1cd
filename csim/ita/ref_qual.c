/*
 * ref_qual.c - event qualification by instruction address (IBR pairs),
 * opcode (PMC8/PMC9) and data address (DBR pairs): docs/ita-semantics.md,
 * section "Event qualification by instruction address, opcode and data
 * address", with the reasons in docs/ita-qualification.md.
 *
 * ref_qual_decode() runs when one of the qualification registers is written
 * or reset.  It works out which tags cannot fail (nothing programmed: all
 * of them), so that a step computes the per-slot tags only for counters
 * that some slot may fail (ref_qual_constrains) and only the primitive
 * matches that some tag uses (need_ibr, need_opc, need_dbr).
 */
#include "ref_internal.h"

/* The opcode matchers' 27-bit fields cover instruction bits {40:27,12:0}
 * (docs/ita-semantics.md, "Primitive matches"; libpfm-3
 * include/perfmon/pfmlib_itanium.h): field[12:0] = instr{12:0},
 * field[26:13] = instr{40:27}.  This is the instruction format, not a
 * register layout, so it is not in the .def. */
#define OPC_LOW_BITS 13u
#define OPC_HIGH_LSB 27u
#define OPC_HIGH_BITS 14u
_Static_assert(OPC_LOW_BITS + OPC_HIGH_BITS == ITA_F_PMC_OPC_MATCH_WIDTH,
               "instruction bits {40:27,12:0} must fill PMC8/9.match");
_Static_assert(ITA_F_PMC_OPC_MASK_WIDTH == ITA_F_PMC_OPC_MATCH_WIDTH,
               "PMC8/9.mask and .match must have the same width");

/* The bundle size, the fine-mode page, the pairs (IBR0..7 and DBR0..7 consecutive in
 * the visible list) and which matcher each pair's tag goes with: include/common/ita/ita_arch.h. */

/* Bits msb+1 .. 63 (the address bits a pair always compares). */
static uint64_t bits_above(unsigned msb)
{
    return msb >= 63 ? 0 : ~((((uint64_t)2) << msb) - 1);
}

static void decode_ibr_pair(ref_br_pair *p, uint64_t addr, uint64_t odd)
{
    p->addr = addr;
    p->compare = (bits_above(ITA_F_IBR_MASK_MASK_MSB) | (odd & ITA_FMASK(IBR_MASK, MASK))) &
                 ~((((uint64_t)1) << ITA_BUNDLE_LOG2) - 1);
    p->plm = (uint8_t)ITA_FGET(odd, IBR_MASK, PLM);
}

static void decode_dbr_pair(ref_br_pair *p, uint64_t addr, uint64_t odd)
{
    p->addr = addr;
    p->compare = bits_above(ITA_F_DBR_MASK_MASK_MSB) | (odd & ITA_FMASK(DBR_MASK, MASK));
    p->plm = (uint8_t)ITA_FGET(odd, DBR_MASK, PLM);
}

static void decode_matcher(ref_opcode_matcher *o, uint64_t pmc)
{
    const uint32_t field_bits = (uint32_t)((((uint64_t)1) << ITA_F_PMC_OPC_MATCH_WIDTH) - 1);
    o->match = (uint32_t)ITA_FGET(pmc, PMC_OPC, MATCH);
    o->care = ~(uint32_t)ITA_FGET(pmc, PMC_OPC, MASK) & field_bits;
    o->units = (uint8_t)((ITA_FGET(pmc, PMC_OPC, M) << ITA_UNIT_M) |
                         (ITA_FGET(pmc, PMC_OPC, I) << ITA_UNIT_I) |
                         (ITA_FGET(pmc, PMC_OPC, F) << ITA_UNIT_F) |
                         (ITA_FGET(pmc, PMC_OPC, B) << ITA_UNIT_B));
    o->all = o->care == 0 && o->units == ITA_ALL_PAIRS;
}

/* Itanium 2: PMC14.ibrp_k, PMC15 bit k, PMC13 cfg_dbrp_k / ena_dbrp_k. */
static unsigned pmc14_ibrp(uint64_t v, unsigned k)
{
    switch (k) {
    case 0: return (unsigned)ITA_FGET(v, PMC14, IBRP0);
    case 1: return (unsigned)ITA_FGET(v, PMC14, IBRP1);
    case 2: return (unsigned)ITA_FGET(v, PMC14, IBRP2);
    default: return (unsigned)ITA_FGET(v, PMC14, IBRP3);
    }
}
static unsigned pmc15_untied(uint64_t v, unsigned k)
{
    switch (k) {
    case 0: return (unsigned)ITA_FGET(v, PMC15, IBRP0_PMC8);
    case 1: return (unsigned)ITA_FGET(v, PMC15, IBRP1_PMC9);
    case 2: return (unsigned)ITA_FGET(v, PMC15, IBRP2_PMC8);
    default: return (unsigned)ITA_FGET(v, PMC15, IBRP3_PMC9);
    }
}
static unsigned pmc13_cfg(uint64_t v, unsigned k)
{
    switch (k) {
    case 0: return (unsigned)ITA_FGET(v, PMC13, CFG_DBRP0);
    case 1: return (unsigned)ITA_FGET(v, PMC13, CFG_DBRP1);
    case 2: return (unsigned)ITA_FGET(v, PMC13, CFG_DBRP2);
    default: return (unsigned)ITA_FGET(v, PMC13, CFG_DBRP3);
    }
}
static unsigned pmc13_ena(uint64_t v, unsigned k)
{
    switch (k) {
    case 0: return (unsigned)ITA_FGET(v, PMC13, ENA_DBRP0);
    case 1: return (unsigned)ITA_FGET(v, PMC13, ENA_DBRP1);
    case 2: return (unsigned)ITA_FGET(v, PMC13, ENA_DBRP2);
    default: return (unsigned)ITA_FGET(v, PMC13, ENA_DBRP3);
    }
}

/* PMC13 cfg_dbrp encodings (docs/ita-semantics.md, "Tags"; libpfm-3
 * lib/pfmlib_itanium2.c, iod_tab). */
enum { CFG_IBR_OPC_DBR = 0, CFG_IBR_OPC = 1, CFG_DBR = 2, CFG_NONE = 3 };

static void decode_itanium2(ref_qual *q, const uint64_t *reg)
{
    const uint64_t pmc8 = reg[ITA_VIS_PMC8], pmc13 = reg[ITA_VIS_PMC13];
    const uint64_t pmc14 = reg[ITA_VIS_PMC14], pmc15 = reg[ITA_VIS_PMC15];
    /* ig_ad and inv act on the pairs tied to PMC8 only; PMC9's are ignored. */
    const unsigned ig_ad = (unsigned)ITA_FGET(pmc8, PMC_OPC, IG_AD);
    const unsigned inv = (unsigned)ITA_FGET(pmc8, PMC_OPC, INV);

    q->fine = (uint8_t)ITA_FGET(pmc14, PMC14, FINE);
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        const unsigned bit = 1u << k, tied_to_pmc8 = (ITA_PAIRS_OF_PMC8 & bit) != 0;
        if (pmc14_ibrp(pmc14, k) || (tied_to_pmc8 && ig_ad))
            q->r_one |= (uint8_t)bit;
        else if (tied_to_pmc8 && inv)
            q->r_inv |= (uint8_t)bit;
        if (pmc15_untied(pmc15, k) || q->opc[tied_to_pmc8 ? 0 : 1].all)
            q->o_one |= (uint8_t)bit;

        /* PMC13 is active when some pair is enabled with a cfg other than 3. */
        const unsigned cfg = pmc13_cfg(pmc13, k);
        if (!pmc13_ena(pmc13, k) || cfg == CFG_NONE)
            continue;
        q->mem_mode = REF_MEM_PAIRS;
        if (cfg == CFG_IBR_OPC_DBR)
            q->mem_cfg0 |= (uint8_t)bit;
        else if (cfg == CFG_IBR_OPC)
            q->mem_cfg1 |= (uint8_t)bit;
        else
            q->mem_cfg2 |= (uint8_t)bit;
    }
}

static void decode_itanium(ref_qual *q, const uint64_t *reg)
{
    /* ta = 1: every instruction tagged; ta = 0: tagged when any IBR pair
     * matches, for every tag.  pt = 1: memory accesses pass; pt = 0: they
     * must hit some DBR pair.  There is no per-pair selection, no PMC14/15. */
    if (ITA_FGET(reg[ITA_VIS_PMC13], PMC13, TA))
        q->r_one = ITA_ALL_PAIRS;
    else
        q->r_any = 1;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        if (q->opc[(ITA_PAIRS_OF_PMC8 >> k) & 1u ? 0 : 1].all)
            q->o_one |= (uint8_t)(1u << k);
    q->mem_mode = ITA_FGET(reg[ITA_VIS_PMC11], PMC11, PT) ? REF_MEM_INST0 : REF_MEM_ANY_DBR;
}

void ref_qual_decode(ref_qual *q, const uint64_t *reg, ita_model model, int fine_2bundle)
{
    *q = (ref_qual){0};
    q->model = (uint8_t)model;
    q->fine_lsb = (uint8_t)(ITA_BUNDLE_LOG2 + (fine_2bundle ? 1u : 0u));
    for (unsigned k = 0; k < ITA_NPAIRS; k++) {
        decode_ibr_pair(&q->ibr[k], reg[ITA_VIS_IBR0 + 2 * k], reg[ITA_VIS_IBR0 + 2 * k + 1]);
        decode_dbr_pair(&q->dbr[k], reg[ITA_VIS_DBR0 + 2 * k], reg[ITA_VIS_DBR0 + 2 * k + 1]);
    }
    decode_matcher(&q->opc[0], reg[ITA_VIS_PMC8]);
    decode_matcher(&q->opc[1], reg[ITA_VIS_PMC9]);
    q->mem_mode = REF_MEM_INST0;

    if (model == ITA_MODEL_ITANIUM2)
        decode_itanium2(q, reg);
    else
        decode_itanium(q, reg);

    q->need_ibr = q->r_one != ITA_ALL_PAIRS;
    q->need_opc = (uint8_t)((((q->o_one & ITA_PAIRS_OF_PMC8) != ITA_PAIRS_OF_PMC8) ? 1u : 0u) |
                            (((q->o_one & ITA_PAIRS_OF_PMC9) != ITA_PAIRS_OF_PMC9) ? 2u : 0u));
    q->need_dbr = q->mem_mode == REF_MEM_ANY_DBR ||
                  (q->mem_mode == REF_MEM_PAIRS && (q->mem_cfg0 | q->mem_cfg2) != 0);

    const unsigned ibr_used = q->r_any ? ITA_ALL_PAIRS : (~q->r_one & ITA_ALL_PAIRS);
    const unsigned dbr_used = q->mem_mode == REF_MEM_PAIRS ? (q->mem_cfg0 | q->mem_cfg2) : ITA_ALL_PAIRS;
    for (unsigned cpl = 0; cpl < 4; cpl++)
        for (unsigned k = 0; k < ITA_NPAIRS; k++) {
            if ((q->ibr[k].plm >> cpl) & (ibr_used >> k) & 1u)
                q->ibr_live[cpl] |= (uint8_t)(1u << k);
            if ((q->dbr[k].plm >> cpl) & (dbr_used >> k) & 1u)
                q->dbr_live[cpl] |= (uint8_t)(1u << k);
        }
}

/* Whether some IA-64 slot may fail the qualification of counter `cfg`. */
static int constrains(const ref_qual *q, const ref_counter_cfg *cfg)
{
    /* Events not attributed to an instruction carry no tag. */
    if (cfg->source != REF_SRC_SLOTS && cfg->source != REF_SRC_SLOT_MATCH)
        return 0;
    /* inst_q(k) that cannot fail, for every k. */
    const unsigned iq_one = (cfg->iar ? q->r_one : ITA_ALL_PAIRS) & (cfg->opm ? q->o_one : ITA_ALL_PAIRS);
    if (!cfg->dar)
        return !((iq_one >> cfg->tag_pair) & 1u);
    switch (q->mem_mode) {
    case REF_MEM_ANY_DBR:
        return 1;
    case REF_MEM_PAIRS:
        /* The OR passes always when an active cfg-1 pair's inst_q cannot fail. */
        return (iq_one & q->mem_cfg1) == 0;
    default:
        return !(iq_one & 1u);
    }
}

void ref_qual_bind(const ref_qual *q, ref_counter_cfg *cfg)
{
    cfg->constrained = (uint8_t)constrains(q, cfg);
    /* inst_q(k) = r_k (if iar) and o_k (if opm): two tag-word bits.  Memory
     * events use Tag(PMC8), k = 0, unless PMC13 is active. */
    const unsigned k = cfg->dar ? 0u : cfg->tag_pair;
    cfg->q_need = (uint16_t)(((cfg->iar ? 1u : 0u) << (REF_TAG_R_SHIFT + k)) |
                             ((cfg->opm ? 1u : 0u) << (REF_TAG_O_SHIFT + k)));
    cfg->q_form = REF_Q_NEED;
    if (cfg->dar && q->mem_mode == REF_MEM_ANY_DBR)
        cfg->q_form = REF_Q_NEED_ANY_DBR;
    else if (cfg->dar && q->mem_mode == REF_MEM_PAIRS)
        cfg->q_form = REF_Q_PAIRS;
}

/* ibr_hit_k, bit k, of the pairs in ibr_live[cpl] (bit-mask mode); the
 * others' hits are 0 (plm) or unused. */
static unsigned ibr_hits(const ref_qual *q, uint64_t ip, unsigned cpl)
{
    unsigned hits = 0;
    for (unsigned live = q->ibr_live[cpl]; live; live &= live - 1) {
        const unsigned k = (unsigned)__builtin_ctz(live);
        hits |= (unsigned)(((ip ^ q->ibr[k].addr) & q->ibr[k].compare) == 0) << k;
    }
    return hits;
}

/* Fine mode: ip in the page of `lo`, with lo[11:G] <= ip[11:G] <= hi[11:G];
 * both pairs' plm must allow the level; the masks are not used. */
static unsigned fine_hit(const ref_qual *q, const ref_br_pair *lo, const ref_br_pair *hi, uint64_t ip,
                         unsigned cpl)
{
    const uint64_t in_page = ((((uint64_t)1) << ITA_FINE_PAGE_LOG2) - 1);
    const uint64_t at = (ip & in_page) >> q->fine_lsb;
    return ((lo->plm >> cpl) & 1u) && ((hi->plm >> cpl) & 1u) &&
           (ip >> ITA_FINE_PAGE_LOG2) == (lo->addr >> ITA_FINE_PAGE_LOG2) &&
           ((lo->addr & in_page) >> q->fine_lsb) <= at && at <= ((hi->addr & in_page) >> q->fine_lsb);
}

static unsigned fine_hits(const ref_qual *q, uint64_t ip, unsigned cpl)
{
    /* Range A: pairs 0 (lower) and 2 (upper); range B: pairs 1 and 3.  Each
     * range's hit stands for both of its pairs. */
    unsigned hits = 0;
    if (fine_hit(q, &q->ibr[0], &q->ibr[2], ip, cpl))
        hits |= ITA_PAIRS_OF_PMC8;
    if (fine_hit(q, &q->ibr[1], &q->ibr[3], ip, cpl))
        hits |= ITA_PAIRS_OF_PMC9;
    return hits;
}

static unsigned opcode_match(const ref_opcode_matcher *o, const ita_slot *s, uint32_t e27)
{
    return s->unit <= ITA_UNIT_B && ((o->units >> s->unit) & 1u) && ((e27 ^ o->match) & o->care) == 0;
}

/* The address and opcode parts of a slot's tag word (r_k, o_k): a function of the slot's
 * ip, encoding and unit and of the privilege level. */
static unsigned address_opcode_tags(const ref_qual *q, const ita_slot *s, unsigned cpl)
{
    unsigned r = q->r_one, o = q->o_one;

    if (q->need_ibr) {
        const unsigned hits = q->fine ? fine_hits(q, s->ip, cpl) : ibr_hits(q, s->ip, cpl);
        if (q->r_any)
            r = hits ? ITA_ALL_PAIRS : 0; /* Itanium: any pair tags every k */
        else
            r |= (hits ^ q->r_inv) & ~q->r_one & ITA_ALL_PAIRS;
    }
    if (q->need_opc) {
        const uint32_t e27 =
            (uint32_t)(((s->enc >> OPC_HIGH_LSB) & ((((uint64_t)1) << OPC_HIGH_BITS) - 1)) << OPC_LOW_BITS) |
            (uint32_t)(s->enc & ((((uint64_t)1) << OPC_LOW_BITS) - 1));
        unsigned matched = 0;
        if ((q->need_opc & 1u) && opcode_match(&q->opc[0], s, e27))
            matched |= ITA_PAIRS_OF_PMC8;
        if ((q->need_opc & 2u) && opcode_match(&q->opc[1], s, e27))
            matched |= ITA_PAIRS_OF_PMC9;
        o |= matched;
    }
    return (r << REF_TAG_R_SHIFT) | (o << REF_TAG_O_SHIFT);
}

/* The data-address part (dbr_hit_k): a function of the access's address. */
static inline unsigned data_tags(const ref_qual *q, const ita_slot *s, unsigned cpl)
{
    unsigned d = 0;
    if (q->need_dbr && (s->flags & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK))) {
        for (unsigned live = q->dbr_live[cpl]; live; live &= live - 1) {
            const unsigned k = (unsigned)__builtin_ctz(live);
            d |= (unsigned)(((s->daddr ^ q->dbr[k].addr) & q->dbr[k].compare) == 0) << k;
        }
    }
    return d << REF_TAG_D_SHIFT;
}

unsigned ref_slot_tags(const ref_qual *q, const ita_slot *s, unsigned cpl)
{
    return address_opcode_tags(q, s, cpl) | data_tags(q, s, cpl);
}

_Static_assert(REF_TAG_R_SHIFT + ITA_NPAIRS <= 8 && REF_TAG_O_SHIFT + ITA_NPAIRS <= 8,
               "r and o fit a memo entry's byte");

void ref_cycle_tags(const ref_qual *q, ref_tag_memo *memo, const ita_cycle *c,
                    uint16_t word[ITA_MAX_SLOTS])
{
    const unsigned nslots = ref_retired_slots(c), cpl = c->cpl;
    for (unsigned i = 0; i < nslots; i++) {
        const ita_slot *s = &c->slot[i];
        /* A bundle's syllables share the ip and differ in their encodings. */
        const uint64_t h = (s->ip ^ (s->enc << 4)) * UINT64_C(0x9e3779b97f4a7c15);
        struct ref_tag_memo_entry *e = &memo->e[h >> (64 - REF_TAG_MEMO_LOG2)];
        const uint16_t key = REF_TAG_MEMO_KEY(s->unit, cpl);
        if (e->ip != s->ip || e->enc != s->enc || e->unit_cpl != key) {
            e->ip = s->ip;
            e->enc = s->enc;
            e->unit_cpl = key;
            e->ro = (uint8_t)address_opcode_tags(q, s, cpl);
        }
        word[i] = (uint16_t)(e->ro | data_tags(q, s, cpl));
    }
}

void ref_occ_bind(ref_counter_cfg occ[REF_NOCC], const ref_qual *q)
{
    for (unsigned i = 0; i < REF_NOCC; i++) {
        ref_counter_cfg *o = &occ[i];
        *o = (ref_counter_cfg){0};
        /* An occurrence attributed to a slot, qualified by Tag(PMC8) like an instruction
         * or memory event with these columns. */
        o->source = REF_SRC_SLOT_MATCH;
        o->event = -1;
        o->iar = (uint8_t)((i >> 2) & 1u);
        o->opm = (uint8_t)((i >> 1) & 1u);
        o->dar = (uint8_t)(i & 1u);
        ref_qual_bind(q, o);
    }
}
