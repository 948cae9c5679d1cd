// test_ev4_counting.cpp - what each Alpha 21064 mux selection counts for crafted cycle
// records, the half count of PF_ISSUES and PF_NONISSUES, the undefined mux0 codes under
// both Mux0Undef rules, and the counters' widths (docs/ev4.md, "Counting").
#include "ev4_test_util.h"

using namespace ev4test;

namespace {

const ev4_cycle kDual = issue({EV4_CLASS_INTOP, EV4_CLASS_INTOP});
const ev4_cycle kSingle = issue({EV4_CLASS_INTOP});
const ev4_cycle kEmpty = cycle();

// One record stepped three times with counter `ctr` selecting `code`: the counter then
// shows `count` and (counter 0) `half`.
struct Case {
    const char *what;
    unsigned ctr, code;
    ev4_cycle rec;
    unsigned count, half;
};

const Case kCases[] = {
    // mux0
    {"PF_ISSUES dual", 0, 0x0, kDual, 3, 0},
    {"PF_ISSUES single", 0, 0x0, kSingle, 1, 1},
    {"PF_ISSUES none", 0, 0x0, stalled(EV4_STALL_DRY), 0, 0},
    {"PF_PIPEDRY dry", 0, 0x2, stalled(EV4_STALL_DRY), 3, 0},
    {"PF_PIPEDRY frozen", 0, 0x2, stalled(EV4_STALL_FROZEN), 0, 0},
    {"PF_PIPEDRY issuing", 0, 0x2, kSingle, 0, 0},
    {"PF_LOADI two loads", 0, 0x4, issue({EV4_CLASS_LOAD, EV4_CLASS_LOAD}), 6, 0},
    {"PF_LOADI load+intop", 0, 0x4, issue({EV4_CLASS_INTOP, EV4_CLASS_LOAD}), 3, 0},
    {"PF_LOADI replayed load", 0, 0x4, with_replay(issue({EV4_CLASS_LOAD}), 1), 3, 0},
    {"PF_LOADI stores", 0, 0x4, issue({EV4_CLASS_STORE, EV4_CLASS_STORE}), 0, 0},
    {"PF_PIPEFROZEN frozen", 0, 0x6, stalled(EV4_STALL_FROZEN), 3, 0},
    {"PF_PIPEFROZEN dry", 0, 0x6, stalled(EV4_STALL_DRY), 0, 0},
    {"PF_BRANCHI two", 0, 0x8, issue({EV4_CLASS_BRANCH, EV4_CLASS_BRANCH}), 6, 0},
    {"PF_BRANCHI one", 0, 0x8, issue({EV4_CLASS_LOAD, EV4_CLASS_BRANCH}), 3, 0},
    {"PF_BRANCHI none", 0, 0x8, issue({EV4_CLASS_OTHER, EV4_CLASS_FPOP}), 0, 0},
    {"PF_CYCLES empty", 0, 0xa, kEmpty, 3, 0},
    {"PF_CYCLES dual", 0, 0xa, kDual, 3, 0},
    {"PF_PALMODE pal", 0, 0xb, with_mode(kSingle, EV4_MODE_PAL), 3, 0},
    {"PF_PALMODE kernel", 0, 0xb, kSingle, 0, 0},
    {"PF_PALMODE user", 0, 0xb, with_mode(kSingle, EV4_MODE_USER), 0, 0},
    {"PF_NONISSUES none", 0, 0xc, stalled(EV4_STALL_FROZEN), 3, 0},
    {"PF_NONISSUES single", 0, 0xc, kSingle, 1, 1},
    {"PF_NONISSUES dual", 0, 0xc, kDual, 0, 0},
    {"PF_EXTPIN0 pin0", 0, 0xe, with_pin(kEmpty, 0), 3, 0},
    {"PF_EXTPIN0 pin1", 0, 0xe, with_pin(kEmpty, 1), 0, 0},
    // mux1
    {"PF_DCACHE miss", 1, 0x0, with_dmiss(kSingle), 3, 0},
    {"PF_DCACHE imiss", 1, 0x0, with_imiss(kSingle), 0, 0},
    {"PF_ICACHE miss", 1, 0x1, with_imiss(kEmpty), 3, 0},
    {"PF_ICACHE dmiss", 1, 0x1, with_dmiss(kEmpty), 0, 0},
    {"PF_DUAL dual", 1, 0x2, kDual, 3, 0},
    {"PF_DUAL single", 1, 0x2, kSingle, 0, 0},
    {"PF_BRANCHMISS miss", 1, 0x3, with_mispredict(issue({EV4_CLASS_BRANCH})), 3, 0},
    {"PF_BRANCHMISS branch", 1, 0x3, issue({EV4_CLASS_BRANCH}), 0, 0},
    {"PF_FPINST two", 1, 0x4, issue({EV4_CLASS_FPOP, EV4_CLASS_FPOP}), 6, 0},
    {"PF_FPINST one", 1, 0x4, issue({EV4_CLASS_FPOP, EV4_CLASS_INTOP}), 3, 0},
    {"PF_INTOPS two", 1, 0x5, kDual, 6, 0},
    {"PF_INTOPS one", 1, 0x5, issue({EV4_CLASS_OTHER, EV4_CLASS_INTOP}), 3, 0},
    {"PF_INTOPS none", 1, 0x5, issue({EV4_CLASS_LOAD, EV4_CLASS_FPOP}), 0, 0},
    {"PF_STOREI two", 1, 0x6, issue({EV4_CLASS_STORE, EV4_CLASS_STORE}), 6, 0},
    {"PF_STOREI loads", 1, 0x6, issue({EV4_CLASS_LOAD, EV4_CLASS_LOAD}), 0, 0},
    {"PF_EXTPIN1 pin1", 1, 0x7, with_pin(kEmpty, 1), 3, 0},
    {"PF_EXTPIN1 pin0", 1, 0x7, with_pin(kEmpty, 0), 0, 0},
};

// Runs one case on a fresh backend; the other counter is disabled and must stay 0.
void run_case(const ev4_params &p, const Case &c, unsigned code)
{
    SCOPED_TRACE(std::string(c.what) + " (code " + std::to_string(code) + ")");
    Dev d(p);
    ASSERT_TRUE(d.ok());
    d.iccsr(only(c.ctr, code));
    d.step_n(c.rec, 3);
    EXPECT_EQ(d.count(c.ctr), c.count);
    EXPECT_EQ(d.half(), c.half);
    EXPECT_EQ(d.count(1 - c.ctr), 0u);
    EXPECT_EQ(d.hirr(), 0u);
}

} // namespace

TEST(Ev4Counting, EveryDefinedCodeCountsItsEvent)
{
    EV4_OPEN(probe, params());
    // Every row of the .def has at least one case that counts.
    for (unsigned i = 0; i < EV4_NMUX; i++) {
        bool seen = false;
        for (const Case &c : kCases)
            seen |= c.ctr == ev4_mux_table[i].counter && c.code == ev4_mux_table[i].code && c.count;
        EXPECT_TRUE(seen) << ev4_mux_table[i].name << " has no case";
    }
    for (const Case &c : kCases)
        run_case(params(), c, c.code);
}

TEST(Ev4Counting, IssuesCountHalvesThroughTheHalfBit)
{
    EV4_OPEN(d, params());
    d.iccsr(only(0, EV4_MUX_PF_ISSUES));
    d.step(kSingle);
    EXPECT_EQ(d.count(0), 0u);
    EXPECT_EQ(d.half(), 1u);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000000ull); // HALF at bit 32, COUNT 0
    d.step(kSingle); // the second half carries
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x1ull);
    d.step(kSingle);
    d.step(kDual); // a whole issue leaves HALF as it is
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000002ull);
    d.step(stalled(EV4_STALL_DRY));
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000002ull);
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x3ull);
}

TEST(Ev4Counting, NonIssuesCountHalvesThroughTheHalfBit)
{
    EV4_OPEN(d, params());
    d.iccsr(only(0, EV4_MUX_PF_NONISSUES));
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000000ull);
    d.step(stalled(EV4_STALL_FROZEN));
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000001ull);
    d.step(kDual);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000001ull);
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x2ull);
}

TEST(Ev4Counting, HalfSurvivesAnotherSelection)
{
    EV4_OPEN(d, params());
    d.iccsr(only(0, EV4_MUX_PF_ISSUES));
    d.step(kSingle);
    d.iccsr(only(0, EV4_MUX_PF_CYCLES)); // whole events: 2 halves, HALF untouched
    d.step_n(kSingle, 2);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000002ull);
    d.iccsr(only(0, EV4_MUX_PF_NONISSUES));
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x3ull);
}

TEST(Ev4Counting, ReplayedLoadIsCountedAgain)
{
    EV4_OPEN(d, params());
    d.iccsr(only(0, EV4_MUX_PF_LOADI));
    d.step(with_dmiss(issue({EV4_CLASS_LOAD}))); // the load misses the D-cache
    d.step(stalled(EV4_STALL_FROZEN));
    d.step(with_replay(issue({EV4_CLASS_LOAD, EV4_CLASS_INTOP}), 1)); // issued again
    EXPECT_EQ(d.count(0), 2u);
    d.step(with_replay(issue({EV4_CLASS_INTOP, EV4_CLASS_LOAD}), 2)); // slot 1 replayed
    EXPECT_EQ(d.count(0), 3u);
}

TEST(Ev4Counting, PipeDryAndFrozenCountCyclesNotInstances)
{
    EV4_OPEN(d, params());
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_PIPEDRY).with_pme(1, 0));
    d.step_n(stalled(EV4_STALL_DRY), 4);
    d.step_n(stalled(EV4_STALL_FROZEN), 2);
    d.step(kSingle);
    EXPECT_EQ(d.count(0), 4u);
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_PIPEFROZEN).with_pme(1, 0));
    d.step_n(stalled(EV4_STALL_DRY), 4);
    d.step_n(stalled(EV4_STALL_FROZEN), 2);
    d.step(kDual);
    EXPECT_EQ(d.count(0), 6u);
}

TEST(Ev4Counting, BothCountersCountTogether)
{
    EV4_OPEN(d, params());
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_PALMODE).with_mux1(EV4_MUX_PF_EXTPIN1));
    ev4_cycle c = with_pin(with_mode(kEmpty, EV4_MODE_PAL), 1);
    d.step_n(c, 5);
    d.step_n(with_mode(kEmpty, EV4_MODE_PAL), 2);
    d.step_n(with_pin(kEmpty, 1), 3);
    EXPECT_EQ(d.count(0), 7u);
    EXPECT_EQ(d.count(1), 8u);
}

// The undefined mux0 codes and the defined code each names under Mux0Undef = 1.
const unsigned kUndefined[] = {0x1, 0x3, 0x5, 0x7, 0x9, 0xd, 0xf};

TEST(Ev4Counting, UndefinedMux0CodesCountNothingByDefault)
{
    EV4_OPEN(probe, params());
    for (unsigned code : kUndefined) {
        SCOPED_TRACE(code);
        Dev d(params());
        d.iccsr(only(0, code));
        for (const Case &c : kCases)
            d.step(c.rec);
        EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0u);
        EXPECT_EQ(d.hirr(), 0u);
    }
}

TEST(Ev4Counting, UndefinedMux0CodesAliasTheEvenCode)
{
    const ev4_params p = params(EV4_MODEL_21064, 16, 12, EV4_UNDEF_ALIAS);
    EV4_OPEN(probe, p);
    // Each undefined code counts, for every mux0 case, what its even neighbour counts.
    unsigned counted = 0;
    for (unsigned code : kUndefined)
        for (const Case &c : kCases)
            if (c.ctr == 0 && c.code == (code & ~1u)) {
                run_case(p, c, code);
                counted++;
            }
    EXPECT_EQ(counted, 20u);
    // 0xb is defined (PF_PALMODE): it is not an alias of PF_CYCLES.
    run_case(p, {"0xb stays PF_PALMODE", 0, 0xb, kSingle, 0, 0}, 0xb);
    // The defined codes count as without the alias.
    for (const Case &c : kCases)
        run_case(p, c, c.code);
}

TEST(Ev4Counting, DefaultWidthsWrap)
{
    EV4_OPEN(d, params());
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL));
    d.step_n(kDual, 0xfff);
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0xfffu);
    d.step(kDual);
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0u); // 12 bits
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x1000u);
    d.step_n(kDual, 0xefff);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0xffffu);
    d.step(kDual);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0u); // 16 bits
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0u); // 16 times round
}

TEST(Ev4Counting, WiderCountersWrapAtTheirWidth)
{
    EV4_OPEN(d, params(EV4_MODEL_21064, 17, 13));
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_ISSUES).with_mux1(EV4_MUX_PF_DUAL));
    d.step_n(kDual, 0x1000);
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0x1000u); // bit 12 exists
    d.step_n(kDual, 0xfff);
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0x1fffu);
    d.step(kDual);
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0u); // 13 bits
    d.step_n(kDual, 0xe000);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x10000u); // bit 16 exists
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100010000ull); // HALF stays at bit 32
    d.step(kSingle);
    d.step_n(kDual, 0xfffe);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x1ffffu);
    d.step(kSingle);
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0u); // 17 bits
}

TEST(Ev4Counting, WidestCounterShowsCountBelowHalf)
{
    EV4_OPEN(d, params(EV4_MODEL_21064, 32, 32));
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_ISSUES).with_mux1(EV4_MUX_PF_DUAL));
    d.step_n(kDual, 0x10000);
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100010000ull);
    EXPECT_EQ(d.read(EV4_ADDR_CTR1), 0x10000u);
    EXPECT_EQ(d.hirr(), 0x300u); // both crossed their long periods
}
