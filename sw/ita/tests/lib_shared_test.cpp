/* lib_shared_test.cpp - the shared pieces the event library now takes from one place:
 * the register encodings of include/sw/ita/ita_encode.h (also the configuration reader's),
 * the text helpers of include/common/pmu_text.h and the one error type pmu_err.
 *
 * The expected register values are the ones the event library gave before the
 * encodings moved, copied from lib_dispatch_test.cpp and lib_range_test.cpp (the test
 * named in each comment), so a change in the shared module that changed what the
 * library writes fails here by name. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "sw/ita/ita_encode.h"
#include "sw/ita/ita_evlib.h"
#include "lib_test_util.h"
#include "common/pmu_text.h"

namespace {

uint64_t reset_of(unsigned space, unsigned index, ita_model m)
{
    return ita_reg_lookup(ITA_ADDR(space, index))->reset[m];
}

constexpr uint64_t kPmc13Reset = 0x00002078fefefefeull, kPmc14Reset = 0x0db60db60db60db6ull;
const ita_model M2 = ITA_MODEL_ITANIUM2;

/* ---- debug-register pairs ---------------------------------------------------- */

TEST(SharedEncode, BlockMasksAsTheLibraryWrote)
{
    /* RangeLibpfm.BitmaskExactThreePairs: 512, 32 and 16-byte blocks. */
    EXPECT_EQ(0x00fffffffffffe00ull, ita_block_mask(9));
    EXPECT_EQ(0x00ffffffffffffe0ull, ita_block_mask(5));
    EXPECT_EQ(0x00fffffffffffff0ull, ita_block_mask(4));
    /* The largest block a pair matches: 2^56, every mask bit clear; one byte: all set. */
    EXPECT_EQ(0u, ita_block_mask(ITA_PAIR_MAX_BLOCK_LOG2));
    EXPECT_EQ(0x00ffffffffffffffull, ita_block_mask(0));
}

TEST(SharedEncode, SmallestBlockAsTheLibraryChose)
{
    /* RangeLibpfm.SinglePair: [0x1010,0x1100) takes 256 B at 0x1000; crossing a 64 KB
     * boundary by one bundle takes 128 KB. */
    EXPECT_EQ(8u, ita_smallest_block_log2(0x1010, 0x1100));
    EXPECT_EQ(17u, ita_smallest_block_log2(0x4000fff0, 0x40010010));
    /* Dispatch.RangeErrors: two 2^56-byte regions need more than one pair can match. */
    EXPECT_GT(ita_smallest_block_log2(0x00fffffffffff000ull, 0x0100000000001000ull), ITA_PAIR_MAX_BLOCK_LOG2);
    EXPECT_EQ(0u, ita_smallest_block_log2(0x1000, 0x1001));
    unsigned k = 0;
    EXPECT_TRUE(ita_is_block(0x4000, 0x4800, &k));
    EXPECT_EQ(11u, k);
    EXPECT_FALSE(ita_is_block(0x1000, 0x1230, &k));
    EXPECT_FALSE(ita_is_block(0x1800, 0x2800, &k)); /* a power of two, not aligned */
    EXPECT_FALSE(ita_is_block(0x2000, 0x2000, &k));
}

TEST(SharedEncode, FineBoundsAsTheLibraryWrote)
{
    /* RangeLibpfm.FineMode. */
    uint64_t lo = 0, hi = 0;
    ita_fine_bounds(0x40001010, 0x40001100, false, &lo, &hi);
    EXPECT_EQ(0x40001010u, lo);
    EXPECT_EQ(0x400010f0u, hi);
    ita_fine_bounds(0x40001010, 0x40001100, true, &lo, &hi);
    EXPECT_EQ(0x40001000u, lo);
    EXPECT_EQ(0x400010f0u, hi);
    ita_fine_bounds(0x40001000, 0x40001110, true, &lo, &hi);
    EXPECT_EQ(0x40001000u, lo);
    EXPECT_EQ(0x40001110u, hi);
    /* RangeLibpfm.FineEligibility: all 64 bits of the page number count; a whole page fits. */
    EXPECT_FALSE(ita_fine_eligible(0x0000000000001000ull, 0x0000000100001010ull));
    EXPECT_TRUE(ita_fine_eligible(0x4000000000001000ull, 0x4000000000002000ull));
    EXPECT_FALSE(ita_fine_eligible(0x1008, 0x1100)); /* not bundle aligned */
    EXPECT_EQ(ita_fine_eligible(0x40001010, 0x40001100), ita_evlib_fine_eligible(0x40001010, 0x40001100));
}

TEST(SharedEncode, PairRegistersAsTheLibraryWrote)
{
    /* Dispatch.SinglePairCodeRange: a 2 KB block at 0x4000, plm 8. */
    EXPECT_EQ(0x08fffffffffff800ull, ita_pair_odd(0, ita_block_mask(11), 8));
    /* Dispatch.DataRanges: 256 bytes at 0x10000, plm 8. */
    EXPECT_EQ(0x08ffffffffffff00ull, ita_pair_odd(0, ita_block_mask(8), 8));
    /* Other fields of the odd register stay (x, r, w). */
    EXPECT_EQ(0x8f00000000000000ull | ita_block_mask(4),
              ita_pair_odd(0x8000000000000000ull, ita_block_mask(4), 0xf));
    EXPECT_EQ(8u, ita_pair_plm(0x08fffffffffff800ull));
    /* Decoding gives the block back; a code pair ignores address bits 3:0. */
    uint64_t s = 0, e = 0;
    ASSERT_TRUE(ita_pair_block(0x4000, 0x08fffffffffff800ull, true, &s, &e));
    EXPECT_EQ(0x4000u, s);
    EXPECT_EQ(0x4800u, e);
    ASSERT_TRUE(ita_pair_block(0x10003, 0x08ffffffffffffffull, true, &s, &e));
    EXPECT_EQ(0x10000u, s);
    EXPECT_EQ(0x10010u, e);
    ASSERT_TRUE(ita_pair_block(0x10003, 0x08ffffffffffffffull, false, &s, &e));
    EXPECT_EQ(0x10003u, e - 1);
    ASSERT_TRUE(ita_pair_block(0xff00000000000000ull, 0, false, &s, &e));
    EXPECT_EQ(0u, e); /* the block reaches 2^64 */
    EXPECT_FALSE(ita_pair_block(0x1010, 0xfffffffffff0f0ull, false, &s, &e)); /* a mask with holes */
}

/* ---- constraint registers --------------------------------------------------------- */

TEST(SharedEncode, Pmc13AsTheLibraryWrote)
{
    const uint64_t reset = reset_of(ITA_SPACE_PMC, 13, M2);
    ASSERT_EQ(kPmc13Reset, reset);
    /* Dispatch.SinglePairCodeRange: pair 0 IBR and opcode (cfg 1), enabled; the others
     * no constraint (cfg 3), disabled. */
    uint64_t v = reset;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        v = k == 0 ? ita_pmc13_set_pair(v, k, ITA_DBRP_IBR_OPC, true) : ita_pmc13_set_pair(v, k, ITA_DBRP_NONE, false);
    EXPECT_EQ(0x00002078fefefeeeull, v);
    /* Dispatch.RetiredInstructionsOnFourPairs: pairs 0..2 cfg 1 enabled, pair 3 off. */
    v = reset;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        v = ita_pmc13_set_pair(v, k, k < 3 ? ITA_DBRP_IBR_OPC : ITA_DBRP_NONE, k < 3);
    EXPECT_EQ(0x0000e078feeeeeeeull, v);
    /* Dispatch.DataRanges: pair 0 DBR only (cfg 2), enabled. */
    v = reset;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        v = k == 0 ? ita_pmc13_set_pair(v, k, ITA_DBRP_DBR, true) : ita_pmc13_set_pair(v, k, ITA_DBRP_NONE, false);
    EXPECT_EQ(0x00002078fefefef6ull, v);
    EXPECT_EQ(unsigned(ITA_DBRP_DBR), ita_pmc13_cfg(v, 0));
    EXPECT_TRUE(ita_pmc13_enabled(v, 0));
    EXPECT_FALSE(ita_pmc13_enabled(v, 3));
    /* Dispatch.OpcodeMatcher: pairs 0 and 2 opcode only (cfg 3), enabled. */
    v = reset;
    for (unsigned k = 0; k < ITA_NPAIRS; k++)
        v = ita_pmc13_set_pair(v, k, ITA_DBRP_NONE, (ITA_PAIRS_OF_PMC8 >> k) & 1u);
    EXPECT_EQ(kPmc13Reset | 0x800000000000ull, v);
}

TEST(SharedEncode, Pmc14AndPmc15AsTheLibraryWrote)
{
    const uint64_t pmc14 = reset_of(ITA_SPACE_PMC, 14, M2), pmc15 = reset_of(ITA_SPACE_PMC, 15, M2);
    ASSERT_EQ(kPmc14Reset, pmc14);
    /* Dispatch.SinglePairCodeRange: ibrp0 = 0; Dispatch.RetiredInstructionsOnFourPairs: all four. */
    EXPECT_EQ(kPmc14Reset & ~0x2ull, ita_pmc14_set(pmc14, 0x1, false));
    EXPECT_EQ(kPmc14Reset & ~0x492ull, ita_pmc14_set(pmc14, ITA_ALL_PAIRS, false));
    EXPECT_EQ((kPmc14Reset & ~0x2ull) | ITA_FMASK(PMC14, FINE), ita_pmc14_set(pmc14, 0x1, true));
    EXPECT_TRUE(ita_pmc14_constrains(ita_pmc14_set(pmc14, 0x4, false), 2));
    EXPECT_FALSE(ita_pmc14_constrains(ita_pmc14_set(pmc14, 0x4, false), 1));
    /* Dispatch.SinglePairCodeRange: no pair tied; Dispatch.OpcodeMatcher: pair 0, then 1 and 3. */
    EXPECT_EQ(0xffffffffull, ita_pmc15_set(pmc15, ITA_ALL_PAIRS, 0));
    EXPECT_EQ(0xfffffffeull, ita_pmc15_set(pmc15, ITA_ALL_PAIRS, 0x1));
    EXPECT_EQ(0xfffffff5ull, ita_pmc15_set(pmc15, ITA_ALL_PAIRS, ITA_PAIRS_OF_PMC9));
    /* Only the pairs named change: PMC9's pairs from a value with pair 0 tied. */
    EXPECT_EQ(0xfffffff4ull, ita_pmc15_set(0xfffffffeull, ITA_PAIRS_OF_PMC9, ITA_PAIRS_OF_PMC9));
    EXPECT_TRUE(ita_pmc15_tied(0xfffffffeull, 0));
    EXPECT_FALSE(ita_pmc15_tied(0xfffffffeull, 2));
}

TEST(SharedEncode, OpcodeMatchersAsTheLibraryWrote)
{
    /* Dispatch.OpcodeMatcher: br.cloop on B slots, PMC8 with ig_ad = 1 (Itanium 2) and
     * on Itanium; PMC9 on M and I slots. */
    uint64_t v = ita_opcm_set(reset_of(ITA_SPACE_PMC, 8, M2), 0x2000140, 0x07ffe3f, ITA_SLOT_B);
    v = ITA_FSET(ITA_FSET(v, PMC_OPC, IG_AD, 1), PMC_OPC, INV, 0);
    EXPECT_EQ(0x1400028103fff1fdull, v);
    EXPECT_EQ(0x1400028003fff1f8ull,
              ita_opcm_set(reset_of(ITA_SPACE_PMC, 8, ITA_MODEL_ITANIUM), 0x2000140, 0x07ffe3f, ITA_SLOT_B));
    v = ita_opcm_set(reset_of(ITA_SPACE_PMC, 9, M2), 0, 0x7ffffff, ITA_SLOT_M | ITA_SLOT_I);
    v = ITA_FSET(ITA_FSET(v, PMC_OPC, IG_AD, 1), PMC_OPC, INV, 0);
    EXPECT_EQ(0xc00000013ffffffdull, v);
    EXPECT_EQ(ITA_SLOT_M | ITA_SLOT_I, ita_opcm_slots(v));
    EXPECT_FALSE(ita_opcm_matches_all(v));
    EXPECT_TRUE(ita_opcm_matches_all(reset_of(ITA_SPACE_PMC, 8, M2)));
    EXPECT_EQ(unsigned(ITA_EVLIB_SLOT_B), unsigned(ITA_SLOT_B));
}

TEST(SharedEncode, FieldsByIdentity)
{
    EXPECT_EQ(3u, ita_field_ones(ITA_FIDX_PMC13_CFG_DBRP2));
    EXPECT_EQ(~0ull, ita_field_ones(ITA_FIDX_BR_ADDR_ADDR));
    EXPECT_EQ(ITA_FSET(0, PMC_GEN, ES, 0x12), ita_field_set(0, ITA_FIDX_PMC_GEN_ES, 0x12));
    EXPECT_EQ(0x12u, ita_field_get(ITA_FSET(~0ull, PMC_GEN, ES, 0x12), ITA_FIDX_PMC_GEN_ES));
    EXPECT_EQ(ITA_FMASK(PMC_GEN, ES), ita_field_set(0, ITA_FIDX_PMC_GEN_ES, ~0ull)); /* cut to the width */
}

/* ---- one error type, text helpers, numbers ------------------------------------------ */

TEST(SharedErrors, PmulibErrorIsPmuErr)
{
    static_assert(std::is_same<ita_evlib_error, pmu_err>::value, "one error struct");
    ita_evlib_error err;
    std::memset(&err, 0, sizeof err);
    int ev = -1;
    EXPECT_EQ(ITA_EVLIB_ERR_UNKNOWN_EVENT, ita_evlib_find_event("CPU_CYCLE", &ev, &err));
    EXPECT_EQ(ITA_EVLIB_ERR_UNKNOWN_EVENT, err.code);
    EXPECT_STREQ("unknown event 'CPU_CYCLE' (did you mean CPU_CYCLES?)", err.msg);
    /* A library error code travels in pmu_err.code; its class is what a command maps. */
    EXPECT_EQ(PMU_E_INPUT, ita_evlib_err_class((ita_evlib_err)err.code));
    EXPECT_EQ(PMU_OK, ita_evlib_err_class(ITA_EVLIB_OK));
    EXPECT_EQ(PMU_E_INPUT, ita_evlib_err_class(ITA_EVLIB_ERR_FEATURE_COMBINATION));
    EXPECT_EQ(PMU_E_INTERNAL, ita_evlib_err_class(ITA_EVLIB_NERRS));
    EXPECT_EQ(ITA_EVLIB_OK, ita_evlib_find_event("cpu_cycles", &ev, &err));
    EXPECT_EQ(EV(CPU_CYCLES), ev);
    EXPECT_EQ(PMU_OK, err.code);
    EXPECT_STREQ("", err.msg);
    EXPECT_GE(ITA_EVLIB_MSG_LEN, 256u); /* at least what callers sized for */
}

// The distance computed only as far as a bound (what "did you mean" asks) agrees with the
// whole table of the textbook algorithm: the same distance up to the bound, something above
// it beyond; and the nearest name (within a bound or not) is the same as by whole distances.
static unsigned plain_distance(const std::string &a, const std::string &b)
{
    std::vector<std::vector<unsigned>> t(a.size() + 1, std::vector<unsigned>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); i++)
        t[i][0] = (unsigned)i;
    for (size_t j = 0; j <= b.size(); j++)
        t[0][j] = (unsigned)j;
    for (size_t i = 1; i <= a.size(); i++)
        for (size_t j = 1; j <= b.size(); j++)
            t[i][j] = std::min({t[i - 1][j] + 1, t[i][j - 1] + 1,
                                t[i - 1][j - 1] + (pmu_text_lower(a[i - 1]) != pmu_text_lower(b[j - 1]))});
    return t[a.size()][b.size()];
}

TEST(SharedText, BoundedEditDistance)
{
    const unsigned seed = 20240611u;
    std::mt19937 rng(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto word = [&rng]() {
        std::string w(rng() % 14, 'a');
        for (char &ch : w)
            ch = "abcABC_"[rng() % 7];
        return w;
    };
    for (int n = 0; n < 20000; n++) {
        const std::string a = word(), b = word();
        const unsigned max = rng() % 9, whole = plain_distance(a, b);
        const unsigned got = pmu_text_edit_distance_max(a.c_str(), a.size(), b.c_str(), max);
        if (whole <= max)
            ASSERT_EQ(whole, got) << "'" << a << "' '" << b << "' max " << max;
        else
            ASSERT_GT(got, max) << "'" << a << "' '" << b << "' max " << max;
        ASSERT_EQ(whole, pmu_text_edit_distance(a.c_str(), a.size(), b.c_str()));
    }
    for (int n = 0; n < 2000; n++) {
        std::vector<std::string> words(1 + rng() % 12);
        for (std::string &w : words)
            w = word();
        std::vector<const char *> names;
        for (const std::string &w : words)
            names.push_back(w.c_str());
        const std::string q = word();
        unsigned best = 0, best_d = ~0u, d = 0;
        for (unsigned i = 0; i < names.size(); i++) {
            const unsigned di = plain_distance(q, words[i]);
            if (di < best_d) {
                best_d = di;
                best = i;
            }
        }
        ASSERT_EQ(best, pmu_text_nearest(q.c_str(), q.size(), &names[0], (unsigned)names.size(),
                                         sizeof names[0], &d));
        ASSERT_EQ(best_d, d);
        const unsigned max = rng() % 6;
        const unsigned within = pmu_text_nearest_within(q.c_str(), q.size(), &names[0], (unsigned)names.size(),
                                                        sizeof names[0], max, &d);
        if (best_d <= max) {
            ASSERT_EQ(best, within);
            ASSERT_EQ(best_d, d);
        } else {
            ASSERT_EQ(names.size(), within) << "'" << q << "' max " << max;
            ASSERT_GT(d, max);
        }
    }
}

TEST(SharedText, EditDistanceAndCase)
{
    EXPECT_EQ(0u, pmu_text_edit_distance("cpu_cycles", 10, "CPU_CYCLES"));
    EXPECT_EQ(1u, pmu_text_edit_distance("CPU_CYCLE", 9, "CPU_CYCLES"));
    EXPECT_EQ(3u, pmu_text_edit_distance("kitten", 6, "sitting"));
    EXPECT_EQ(7u, pmu_text_edit_distance("", 0, "sitting"));
    EXPECT_EQ(2u, pmu_text_edit_distance("abXY", 2, "")); /* only the first len characters */
    EXPECT_TRUE(pmu_text_ieq("Plm=3", 3, "PLM"));
    EXPECT_FALSE(pmu_text_ieq("plm", 3, "plms"));
    EXPECT_FALSE(pmu_text_ieq("plms", 4, "plm"));
    /* The event library and the configuration reader suggest the same name for the
     * configuration tests' misspellings (test_config.cpp, UnknownEventSuggestsClosest). */
    EXPECT_STREQ("CPU_CYCLES", ita_evlib_suggest_event("CPU_CYCLE"));
    EXPECT_STREQ("L1D_READ_MISSES_ALL", ita_evlib_suggest_event("l1d_read_miss_all"));
    /* A query longer than any name is compared in full (the old copy cut it at 64). */
    EXPECT_EQ(nullptr, ita_evlib_suggest_event(std::string(70, 'Q').c_str()));
    const std::string padded = std::string("CPU_CYCLES") + std::string(60, 'X');
    EXPECT_EQ(60u, pmu_text_edit_distance(padded.c_str(), padded.size(), "CPU_CYCLES"));
    /* The nearest name of a table of records: the first at the smallest distance. */
    struct rec {
        int id;
        const char *name;
    } recs[] = {{1, "alpha"}, {2, "beta"}, {3, "betb"}};
    unsigned d = 99;
    EXPECT_EQ(1u, pmu_text_nearest("BETX", 4, &recs[0].name, 3, sizeof recs[0], &d));
    EXPECT_EQ(1u, d);
    EXPECT_EQ(0u, pmu_text_nearest("alpha", 5, &recs[0].name, 3, sizeof recs[0], &d));
    EXPECT_EQ(0u, d);
    EXPECT_EQ(2u, pmu_text_nearest("betb", 4, &recs[0].name, 3, sizeof recs[0], nullptr));
    char buf[8] = "ab";
    pmu_text_appendf(buf, sizeof buf, "%s", "cdefghij");
    EXPECT_STREQ("abcdefg", buf); /* cut to the buffer */
}

TEST(SharedNumbers, EventLibraryNumbersAreThePmusimSyntax)
{
    // Event-string modifiers take their numbers in the one pmusim syntax (common/pmu_num.h).
    ita_evlib_event_spec spec;
    ita_evlib_error err;
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_parse_event("CPU_CYCLES:plm=0xF", &spec, &err)) << err.msg;
    EXPECT_EQ(15u, spec.plm);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_parse_event("IA64_INST_RETIRED:thres=3", &spec, &err)) << err.msg;
    EXPECT_EQ(3u, spec.thres);
    for (const char *bad : {"", "010", "-1", "+1", " 1", "1 ", "0x", "18446744073709551616", "1k", "\t3"}) {
        std::string ev = std::string("CPU_CYCLES:plm=") + bad;
        EXPECT_NE(ITA_EVLIB_OK, ita_evlib_parse_event(ev.c_str(), &spec, &err)) << "'" << bad << "'";
    }
}

}  // namespace
