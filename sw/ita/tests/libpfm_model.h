/*
 * libpfm_model.h - libpfm-3's range-restriction algorithms (pfmlib_itanium2.c
 * do_normal_rr(), compute_normal_rr(), compute_single_rr(), compute_fine_rr() and the
 * fine-mode test of pfm_dispatch_irange()), bugs included, to check that
 * ita_evlib agrees with them where they are right.  Test code only.
 *
 * Sources: docs/sources.md.
 */
#ifndef LIBPFM_MODEL_H
#define LIBPFM_MODEL_H

#include <cmath>
#include <cstdint>
#include <vector>

namespace libpfm {

struct Pair {
    uint64_t addr;
    uint64_t mask; /* the odd register's bits 55:0 */
};

struct Cover {
    std::vector<Pair> pairs;
    uint64_t soff = 0, eoff = 0;
    bool ok = true;
};

constexpr uint64_t kMask56 = 0x00ffffffffffffffull;

/* pfm_ia64_fls: floor(log2(x)) as the exponent of (double)x (rounds up near 2^k). */
inline unsigned fls(uint64_t x)
{
    int e;
    std::frexp((double)x, &e);
    return (unsigned)(e - 1);
}

inline uint64_t p2v(unsigned k) { return k >= 64 ? 0 : (uint64_t)1 << k; }

/* libpfm-3 pfmlib_itanium2.c do_normal_rr(). */
inline void normal_rr(uint64_t start, uint64_t end, unsigned nbr, int dir, std::vector<Pair> &out)
{
    if (nbr < 1 || end <= start)
        return;
    uint64_t size = end - start;
    unsigned p2 = fls(size);
    uint64_t c = end & ~(p2v(p2) - 1), b;
    if (c - p2v(p2) >= start) {
        b = c - p2v(p2);
    } else {
        p2 -= 1;
        b = (c + p2v(p2) <= end) ? c : c - p2v(p2);
    }
    uint64_t L = b - start, R = end - (b + p2v(p2));
    if (nbr == 1) {
        if (dir == 0 && L != 0) {
            p2 += 1;
            b = end - p2v(p2);
        } else if (dir == 1 && R != 0) {
            p2 += 1;
            b = start;
        }
    }
    out.push_back({b, ~(p2v(p2) - 1) & kMask56});
    nbr -= 1;
    if (nbr > 0) {
        unsigned l = nbr / 2, r = nbr / 2;
        if (nbr & 1u) {
            if (L > R)
                l++;
            else
                r++;
        }
        normal_rr(start, b, l, 0, out);
        normal_rr(b + p2v(p2), end, r, 1, out);
    }
}

/* compute_normal_rr's offsets for one range: per pair, the last match wins. */
inline Cover compute_normal_rr(uint64_t start, uint64_t end, unsigned nbr)
{
    Cover c;
    normal_rr(start, end, nbr, 0, c.pairs);
    for (const Pair &p : c.pairs) {
        uint64_t size = ((~p.mask) & kMask56) + 1;
        if (p.addr <= start)
            c.soff = start - p.addr;
        if (p.addr + size >= end)
            c.eoff = p.addr + size - end;
    }
    return c;
}

/* libpfm-3 pfmlib_itanium2.c compute_single_rr(). */
inline Cover compute_single_rr(uint64_t start, uint64_t end)
{
    Cover c;
    uint64_t size = end - start;
    unsigned l = fls(size);
    bool pow2 = (size & (size - 1)) == 0;
    unsigned m = l + (pow2 ? 0 : 1);
    if (l > 62 && !pow2) {
        c.ok = false;
        return c;
    }
    for (; m <= 63; m++) {
        uint64_t p_start = start & ~(p2v(m) - 1);
        if (p_start + p2v(m) >= end) {
            c.pairs.push_back({p_start, ~(p2v(m) - 1) & kMask56});
            c.soff = start - p_start;
            c.eoff = p_start + p2v(m) - end;
            return c;
        }
    }
    c.ok = false;
    return c;
}

/* libpfm-3 pfmlib_itanium2.c FINE_MODE_MASK is an unsigned int: only bits 31:12 are compared. */
constexpr uint64_t kFineModeMask = (uint64_t)(uint32_t)~((1u << 12) - 1);

inline bool fine_eligible(uint64_t start, uint64_t end)
{
    return (start & kFineModeMask) == (end & kFineModeMask);
}

/* libpfm-3 pfmlib_itanium2.c compute_fine_rr() for one range; pairs[0] lower, pairs[1] upper. */
inline Cover compute_fine_rr(uint64_t start, uint64_t end, bool has_fine_mode_bug)
{
    Cover c;
    uint64_t lower = start, upper = end - 0x10;
    if (has_fine_mode_bug) {
        lower &= ~(uint64_t)0x1f;
        if ((upper & 0x1f) == 0)
            upper += 0x10;
    }
    c.pairs.push_back({lower, kFineModeMask});
    c.pairs.push_back({upper, kFineModeMask});
    c.soff = start - lower;
    c.eoff = upper - end + 0x10;
    return c;
}

}  // namespace libpfm

#endif
