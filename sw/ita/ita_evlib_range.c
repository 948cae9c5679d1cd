/*
 * ita_evlib_range.c - covering an address range [start, end) with IBR/DBR pairs.
 *
 * A pair with mask ~(2^k - 1) matches the naturally aligned block of 2^k bytes
 * that contains its address; address bits 63:56 have no mask bits and are
 * always compared, so no block is larger than 2^56 (ita-semantics.md).
 *
 * ita_evlib_cover_bitmask is libpfm-3 pfmlib_itanium2.c do_normal_rr() with three
 * corrections, each active only where libpfm-3 would cover less than the
 * range (docs/ita-event-library.md, "Where and why we differ from libpfm-3"): a
 * last pair with uncovered bytes on its sub-range is the smallest aligned
 * block holding the whole sub-range; two pairs for a range
 * with both sides left over split it at its most aligned address; block sizes
 * stop at 2^56.  For one range with 4 pairs it chooses libpfm-3's pairs.
 *
 * Sources: docs/sources.md.
 */
#include <inttypes.h>

#include "sw/ita/ita_evlib.h"
#include "ita_evlib_internal.h"

/* Bits 55:0 of an odd IBR/DBR register are the mask; 63:56 are always compared
 * (include/common/ita/ita_arch.h), so no block is larger than 2^56 bytes. */
#define MAX_BLOCK_LOG2 ITA_PAIR_MAX_BLOCK_LOG2

static unsigned floor_log2(uint64_t x) { return 63u - (unsigned)__builtin_clzll(x); }
static uint64_t pow2(unsigned k) { return (uint64_t)1 << k; }
static uint64_t align_down(uint64_t a, unsigned k) { return a & ~(pow2(k) - 1); }

typedef struct cover_ctx {
    ita_evlib_cover *out;
    bool too_big;   /* some sub-range needed a block larger than 2^56 */
} cover_ctx;

static void emit(cover_ctx *c, uint64_t base, unsigned log2size)
{
    if (log2size > MAX_BLOCK_LOG2) {
        c->too_big = true;
        return;
    }
    ita_evlib_br_pair *p = &c->out->pair[c->out->npairs++];
    p->addr = base;
    p->mask = ita_block_mask(log2size);
}

/* libpfm-3 pfmlib_itanium2.c do_normal_rr(start, end, nbr, dir); returns nothing, appends pairs in pre-order. */
static void normal_rr(cover_ctx *c, uint64_t start, uint64_t end, unsigned nbr, int dir)
{
    if (nbr < 1 || end <= start || c->too_big)
        return;
    uint64_t size = end - start;
    unsigned p2 = floor_log2(size);
    if (p2 > MAX_BLOCK_LOG2)
        p2 = MAX_BLOCK_LOG2; /* correction: no pair matches more than 2^56 bytes */
    uint64_t cut = align_down(end, p2), b;
    if (cut - start >= pow2(p2)) { /* cut - 2^p2 >= start, without wrapping */
        b = cut - pow2(p2);
    } else {
        p2 -= 1;
        b = end - cut >= pow2(p2) ? cut : cut - pow2(p2);
    }
    uint64_t left = b - start, right = end - b - pow2(p2);

    if (nbr == 1 && (left || right)) {
        /* libpfm-3 doubles the block toward the open side (dir); that is the smallest
         * aligned block holding the sub-range whenever the sub-range is one-sided,
         * and under-covers otherwise (docs/ita-event-library.md).  Take that block always. */
        unsigned k = ita_smallest_block_log2(start, end);
        emit(c, k > MAX_BLOCK_LOG2 ? start : align_down(start, k), k);
        return;
    }
    (void)dir;
    nbr -= 1;
    if (nbr == 1 && left && right) {
        /* libpfm-3 would give the one pair to one side and leave the other side
         * uncovered.  Instead drop this block and cover [start, m) and [m, end) with
         * one block each, m the most aligned address inside the range: both halves
         * are then one-sided. */
        unsigned h = floor_log2(start ^ (end - 1));
        uint64_t m = align_down(end - 1, h);
        unsigned kl = ita_smallest_block_log2(start, m), kr = ita_smallest_block_log2(m, end);
        emit(c, m - pow2(kl), kl);
        emit(c, m, kr);
        return;
    }
    emit(c, b, p2);
    if (nbr > 0) {
        unsigned lnbr = nbr / 2, rnbr = nbr / 2;
        if (nbr & 1u) {
            if (left > right)
                lnbr++;
            else
                rnbr++;
        }
        normal_rr(c, start, b, lnbr, 0);
        normal_rr(c, b + pow2(p2), end, rnbr, 1);
    }
}

/* Offsets of a cover from its blocks (compute_normal_rr's rule, on aligned blocks). */
static void cover_offsets(ita_evlib_cover *cv, uint64_t start, uint64_t end)
{
    uint64_t lo = start, hi_past_end = 0;
    for (unsigned i = 0; i < cv->npairs; i++) {
        uint64_t base, block_end; /* the pairs emitted here always have contiguous masks */
        ita_pair_block(cv->pair[i].addr, cv->pair[i].mask, false, &base, &block_end);
        uint64_t size = block_end - base;
        if (base < lo)
            lo = base;
        if (base < end && end - base < size && size - (end - base) > hi_past_end)
            hi_past_end = size - (end - base);
    }
    cv->soff = start - lo;
    cv->eoff = hi_past_end;
}

static ita_evlib_err check_range(uint64_t start, uint64_t end, ita_evlib_cover *out, ita_evlib_error *err)
{
    if (!out)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "output pointer is NULL");
    if (start >= end)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_RANGE_INVALID,
                           "range 0x%" PRIx64 "..0x%" PRIx64 ": start must be below end (end is exclusive)", start,
                           end);
    return ITA_EVLIB_OK;
}

ita_evlib_err ita_evlib_cover_bitmask(uint64_t start, uint64_t end, unsigned max_pairs, ita_evlib_cover *out,
                                ita_evlib_error *err)
{
    ita_evlib_err e = check_range(start, end, out, err);
    if (e)
        return e;
    if (max_pairs < 1 || max_pairs > ITA_EVLIB_NPAIRS)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "max_pairs %u: expected 1..%d", max_pairs, ITA_EVLIB_NPAIRS);
    ita_evlib_cover cv = {0};
    cover_ctx c = {.out = &cv, .too_big = false};
    normal_rr(&c, start, end, max_pairs, 0);
    if (c.too_big)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_RANGE_TOO_BIG,
                           "range 0x%" PRIx64 "..0x%" PRIx64 " cannot be covered with %u pair(s): it would need a "
                           "block larger than 2^%d bytes (address bits 63:56 are always compared)",
                           start, end, max_pairs, MAX_BLOCK_LOG2);
    cover_offsets(&cv, start, end);
    *out = cv;
    return ita_evlib_ok(err);
}

ita_evlib_err ita_evlib_cover_single(uint64_t start, uint64_t end, ita_evlib_cover *out, ita_evlib_error *err)
{
    ita_evlib_err e = check_range(start, end, out, err);
    if (e)
        return e;
    /* compute_single_rr looks for the first m >= ceil(log2(size)) whose aligned block
     * at start reaches end: the smallest aligned block holding the range. */
    unsigned m = ita_smallest_block_log2(start, end);
    if (m > MAX_BLOCK_LOG2)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_RANGE_TOO_BIG,
                           "range 0x%" PRIx64 "..0x%" PRIx64 " needs one aligned block of 2^%u bytes; a pair "
                           "matches at most 2^%d (address bits 63:56 are always compared)",
                           start, end, m, MAX_BLOCK_LOG2);
    ita_evlib_cover cv = {0};
    cv.npairs = 1;
    cv.pair[0].addr = align_down(start, m);
    cv.pair[0].mask = ita_block_mask(m);
    cover_offsets(&cv, start, end);
    *out = cv;
    return ita_evlib_ok(err);
}

bool ita_evlib_fine_eligible(uint64_t start, uint64_t end)
{
    /* libpfm-3 pfm_dispatch_irange() compares end itself, rejecting a whole aligned page,
     * and bits 31:12 of the page number only (its 32-bit FINE_MODE_MASK); the bounds are those of
     * ita_fine_eligible. */
    return ita_fine_eligible(start, end);
}

ita_evlib_err ita_evlib_cover_fine(uint64_t start, uint64_t end, bool two_bundle, ita_evlib_cover *out, ita_evlib_error *err)
{
    ita_evlib_err e = check_range(start, end, out, err);
    if (e)
        return e;
    if (start % ITA_EVLIB_BUNDLE || end % ITA_EVLIB_BUNDLE)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_RANGE_ALIGN,
                           "code range 0x%" PRIx64 "..0x%" PRIx64 ": both ends must be 16-byte (bundle) aligned",
                           start, end);
    if (!ita_evlib_fine_eligible(start, end))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_RANGE_TOO_BIG,
                           "code range 0x%" PRIx64 "..0x%" PRIx64 " does not fit fine mode: its first and last "
                           "bundle must lie in one 4 KB page",
                           start, end);
    /* compute_fine_rr: the upper-bound bundle is inclusive; with the two-bundle
     * granularity libpfm-3 writes an upper bundle that starts a 32-byte block one
     * bundle higher (ita_fine_bounds). */
    uint64_t lower, upper;
    ita_fine_bounds(start, end, two_bundle, &lower, &upper);
    ita_evlib_cover cv = {0};
    cv.npairs = 2;
    cv.pair[0].addr = lower;
    cv.pair[1].addr = upper;
    /* Fine mode does not use the masks; they hold the 4 KB page mask libpfm-3
     * meant (its 32-bit FINE_MODE_MASK gives 0xfffff000; pfmlib_itanium2.c compute_fine_rr()). */
    cv.pair[0].mask = cv.pair[1].mask = ita_block_mask(ITA_FINE_PAGE_LOG2);
    cv.soff = start - lower;
    cv.eoff = upper + ITA_EVLIB_BUNDLE - end;
    *out = cv;
    return ita_evlib_ok(err);
}
