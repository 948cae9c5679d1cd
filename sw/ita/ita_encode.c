/*
 * ita_encode.c - register encodings of the debug-register pairs and the constraint
 * registers (include/sw/ita/ita_encode.h).  Layout facts come from ita_regs.def through
 * ita_regs.h; nothing here repeats a bit position.
 */
#include "sw/ita/ita_encode.h"

/* ---- fields by identity ------------------------------------------------------- */

uint64_t ita_field_ones(enum ita_field_index f)
{
    unsigned width = ita_field_table[f].msb - ita_field_table[f].lsb + 1;
    return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
}

uint64_t ita_field_get(uint64_t v, enum ita_field_index f)
{
    return (v >> ita_field_table[f].lsb) & ita_field_ones(f);
}

uint64_t ita_field_set(uint64_t v, enum ita_field_index f, uint64_t x)
{
    const unsigned lsb = ita_field_table[f].lsb;
    const uint64_t mask = ita_field_ones(f) << lsb;
    return (v & ~mask) | ((x << lsb) & mask);
}

/* ---- debug-register pairs ----------------------------------------------------- */

static uint64_t low_ones(unsigned n) { return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1; }

uint64_t ita_block_mask(unsigned log2size)
{
    return ~low_ones(log2size) & ITA_FMASK(IBR_MASK, MASK);
}

unsigned ita_smallest_block_log2(uint64_t start, uint64_t end)
{
    uint64_t diff = start ^ (end - 1);
    return diff ? 64u - (unsigned)__builtin_clzll(diff) : 0;
}

bool ita_is_block(uint64_t start, uint64_t end, unsigned *log2size)
{
    uint64_t len = end - start;
    if (end <= start || (len & (len - 1)) != 0 || start % len != 0)
        return false;
    *log2size = (unsigned)__builtin_ctzll(len);
    return true;
}

bool ita_fine_eligible(uint64_t start, uint64_t end)
{
    /* The upper bound is the last bundle, end - 16, so an aligned whole page qualifies;
     * all 64 bits of the page number count. */
    return start < end && start % ITA_BUNDLE_BYTES == 0 && end % ITA_BUNDLE_BYTES == 0 &&
           (start >> ITA_FINE_PAGE_LOG2) == ((end - ITA_BUNDLE_BYTES) >> ITA_FINE_PAGE_LOG2);
}

void ita_fine_bounds(uint64_t start, uint64_t end, bool two_bundle, uint64_t *lower, uint64_t *upper)
{
    const uint64_t block = 2u * ITA_BUNDLE_BYTES; /* what a two-bundle compare sees */
    *lower = start;
    *upper = end - ITA_BUNDLE_BYTES;
    if (two_bundle) {
        *lower = start & ~(block - 1);
        if ((*upper & (block - 1)) == 0)
            *upper += ITA_BUNDLE_BYTES;
    }
}

uint64_t ita_pair_odd(uint64_t odd, uint64_t mask, unsigned plm)
{
    return ITA_FSET(ITA_FSET(odd, IBR_MASK, MASK, mask), IBR_MASK, PLM, plm);
}

unsigned ita_pair_plm(uint64_t odd) { return (unsigned)ITA_FGET(odd, IBR_MASK, PLM); }

bool ita_pair_block(uint64_t addr, uint64_t odd, bool code, uint64_t *start, uint64_t *end)
{
    uint64_t compare = ~ITA_FMASK(IBR_MASK, MASK) | (odd & ITA_FMASK(IBR_MASK, MASK));
    if (code)
        compare &= ~(uint64_t)(ITA_BUNDLE_BYTES - 1);
    uint64_t span = ~compare;
    if (span & (span + 1))
        return false;
    *start = addr & compare;
    *end = *start + span + 1;
    return true;
}

/* ---- constraint registers ------------------------------------------------------- */

static const enum ita_field_index pmc13_cfg[ITA_NPAIRS] = {
    ITA_FIDX_PMC13_CFG_DBRP0, ITA_FIDX_PMC13_CFG_DBRP1, ITA_FIDX_PMC13_CFG_DBRP2, ITA_FIDX_PMC13_CFG_DBRP3};
static const enum ita_field_index pmc13_ena[ITA_NPAIRS] = {
    ITA_FIDX_PMC13_ENA_DBRP0, ITA_FIDX_PMC13_ENA_DBRP1, ITA_FIDX_PMC13_ENA_DBRP2, ITA_FIDX_PMC13_ENA_DBRP3};
static const enum ita_field_index pmc14_ibrp[ITA_NPAIRS] = {
    ITA_FIDX_PMC14_IBRP0, ITA_FIDX_PMC14_IBRP1, ITA_FIDX_PMC14_IBRP2, ITA_FIDX_PMC14_IBRP3};
/* Pair k's tie bit names its matcher: PMC8 for even k, PMC9 for odd k. */
static const enum ita_field_index pmc15_tie[ITA_NPAIRS] = {
    ITA_FIDX_PMC15_IBRP0_PMC8, ITA_FIDX_PMC15_IBRP1_PMC9, ITA_FIDX_PMC15_IBRP2_PMC8, ITA_FIDX_PMC15_IBRP3_PMC9};
_Static_assert(ITA_PAIRS_OF_PMC8 == 0x5u, "pmc15_tie: pairs 0 and 2 go with PMC8");

unsigned ita_pmc13_cfg(uint64_t pmc13, unsigned k) { return (unsigned)ita_field_get(pmc13, pmc13_cfg[k]); }

bool ita_pmc13_enabled(uint64_t pmc13, unsigned k) { return ita_field_get(pmc13, pmc13_ena[k]) != 0; }

uint64_t ita_pmc13_set_pair(uint64_t pmc13, unsigned k, unsigned cfg, bool enable)
{
    return ita_field_set(ita_field_set(pmc13, pmc13_cfg[k], cfg), pmc13_ena[k], enable ? 1 : 0);
}

bool ita_pmc14_constrains(uint64_t pmc14, unsigned k) { return ita_field_get(pmc14, pmc14_ibrp[k]) == 0; }

uint64_t ita_pmc14_set(uint64_t pmc14, unsigned constrained, bool fine)
{
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        pmc14 = ita_field_set(pmc14, pmc14_ibrp[k], (constrained >> k & 1u) ? 0 : 1);
    return ITA_FSET(pmc14, PMC14, FINE, fine ? 1 : 0);
}

bool ita_pmc15_tied(uint64_t pmc15, unsigned k) { return ita_field_get(pmc15, pmc15_tie[k]) == 0; }

uint64_t ita_pmc15_set(uint64_t pmc15, unsigned pairs, unsigned tied)
{
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        if (pairs >> k & 1u)
            pmc15 = ita_field_set(pmc15, pmc15_tie[k], (tied >> k & 1u) ? 0 : 1);
    return pmc15;
}

/* ---- opcode matchers ------------------------------------------------------------ */

uint64_t ita_opcm_set(uint64_t pmc, uint64_t match, uint64_t mask, unsigned slots)
{
    pmc = ITA_FSET(pmc, PMC_OPC, MATCH, match);
    pmc = ITA_FSET(pmc, PMC_OPC, MASK, mask);
    pmc = ITA_FSET(pmc, PMC_OPC, M, (slots & ITA_SLOT_M) != 0);
    pmc = ITA_FSET(pmc, PMC_OPC, I, (slots & ITA_SLOT_I) != 0);
    pmc = ITA_FSET(pmc, PMC_OPC, F, (slots & ITA_SLOT_F) != 0);
    return ITA_FSET(pmc, PMC_OPC, B, (slots & ITA_SLOT_B) != 0);
}

unsigned ita_opcm_slots(uint64_t pmc)
{
    return (ITA_FGET(pmc, PMC_OPC, M) ? ITA_SLOT_M : 0) | (ITA_FGET(pmc, PMC_OPC, I) ? ITA_SLOT_I : 0) |
           (ITA_FGET(pmc, PMC_OPC, F) ? ITA_SLOT_F : 0) | (ITA_FGET(pmc, PMC_OPC, B) ? ITA_SLOT_B : 0);
}

bool ita_opcm_matches_all(uint64_t pmc)
{
    return ita_opcm_slots(pmc) == ITA_SLOTS_ALL &&
           ITA_FGET(pmc, PMC_OPC, MASK) == ita_field_ones(ITA_FIDX_PMC_OPC_MASK);
}
