/* lib_test_util.h - shared helpers of the ita_evlib tests: a seeded generator,
 * the hardware's IBR/DBR match rules written from docs/ita-semantics.md, and
 * random ranges. */
#ifndef LIB_TEST_UTIL_H
#define LIB_TEST_UTIL_H

#include <cstdint>
#include <cstdlib>
#include <string>

#include "sw/ita/ita_evlib.h"
#include "common/pmu_rng.h"

namespace pmutest {

/* splitmix64 (include/common/pmu_rng.h): small, seedable, good enough to pick ranges. */
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() { return pmu_splitmix64(&s); }
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }
};

/* ITA_EVLIB_SEED overrides the default seed; ITA_EVLIB_PROPERTY_SCALE multiplies the iteration counts. */
inline uint64_t test_seed(uint64_t dflt)
{
    const char *s = std::getenv("ITA_EVLIB_SEED");
    return s ? std::strtoull(s, nullptr, 0) : dflt;
}
inline uint64_t scaled(uint64_t n)
{
    const char *s = std::getenv("ITA_EVLIB_PROPERTY_SCALE");
    uint64_t k = s ? std::strtoull(s, nullptr, 0) : 1;
    return n * (k ? k : 1);
}
inline std::string replay(uint64_t seed, const char *test)
{
    return "replay: ITA_EVLIB_SEED=" + std::to_string(seed) + " build/tests/sw_tests --gtest_filter=" + test;
}

/* An event's id by name (the library's ids are the tables' stream event ids). */
inline int ev_id(const char *name)
{
    int ev = -1;
    ita_evlib_find_event(name, &ev, nullptr);
    return ev;
}
#define EV(name) pmutest::ev_id(#name)

/* Address bits 63:56 have no mask bits: a pair always compares them. */
constexpr uint64_t kAlwaysCompared = 0xff00000000000000ull;
constexpr uint64_t kMask56 = 0x00ffffffffffffffull;
constexpr uint64_t kBundleBits = 0xfull;

/* ita-semantics.md: ((a ^ addr) & {8'hff, mask[55:0]}) == 0; code ignores bits 3:0. */
inline bool pair_matches(uint64_t a, uint64_t addr, uint64_t mask56, bool code)
{
    uint64_t cmp = kAlwaysCompared | (mask56 & kMask56);
    if (code)
        cmp &= ~kBundleBits;
    return ((a ^ addr) & cmp) == 0;
}

/* ita-semantics.md fine mode: same 4 KB page as lo, lo[11:G] <= ip[11:G] <= hi[11:G]. */
inline bool fine_matches(uint64_t ip, uint64_t lo, uint64_t hi, bool two_bundle)
{
    unsigned g = two_bundle ? 5 : 4;
    if ((ip >> 12) != (lo >> 12))
        return false;
    uint64_t f = ((uint64_t)1 << 12) - 1;
    uint64_t x = (ip & f) >> g, l = (lo & f) >> g, h = (hi & f) >> g;
    return l <= x && x <= h;
}

inline bool cover_matches(const ita_evlib_cover &cv, uint64_t a, bool code)
{
    for (unsigned i = 0; i < cv.npairs; i++)
        if (pair_matches(a, cv.pair[i].addr, cv.pair[i].mask, code))
            return true;
    return false;
}

/* A random range [start, end) of one of several shapes; code ranges are 16-byte aligned. */
inline void random_range(Rng &r, bool code, uint64_t &start, uint64_t &end)
{
    for (;;) {
        unsigned kind = (unsigned)r.below(6);
        uint64_t base = r.next(), size;
        switch (kind) {
        case 0: size = 1 + r.below(4096); break;                       /* small */
        case 1: size = 1 + (r.next() >> (r.below(64))); break;         /* log-uniform */
        case 2: {                                                       /* near a 2^56 boundary */
            base = (r.next() & kAlwaysCompared) - r.below(1u << 20);
            size = 1 + (r.next() >> (8 + r.below(56)));
            break;
        }
        case 3: {                                                       /* near a power-of-two boundary */
            unsigned k = 4 + (unsigned)r.below(56);
            base = (r.next() & ~(((uint64_t)1 << k) - 1)) - r.below(1u << 12);
            size = 1 + r.below((uint64_t)1 << (4 + r.below(k - 3)));
            break;
        }
        case 4: size = r.next(); break;                                 /* anything */
        default: size = (uint64_t)1 << r.below(60); base &= ~(size - 1); break; /* aligned power of 2 */
        }
        if (code) {
            base &= ~kBundleBits;
            size = (size + kBundleBits) & ~kBundleBits;
        }
        if (size == 0 || base > UINT64_MAX - size)
            continue;
        start = base;
        end = base + size;
        if (start < end && end != 0)
            return;
    }
}

}  // namespace pmutest

#endif
