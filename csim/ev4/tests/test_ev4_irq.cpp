// test_ev4_irq.cpp - the Alpha 21064 counters' interrupt requests: both periods of both
// counters, a period changed mid-count, the sticky one-bit request and the crossings it
// loses, SL_CLR's write-0-to-clear, and HIER gating the interrupt line (docs/ev4.md,
// "Interrupt requests").
#include <tuple>

#include "ev4_test_util.h"

using namespace ev4test;

namespace {

const ev4_cycle kDual = issue({EV4_CLASS_INTOP, EV4_CLASS_INTOP});
const ev4_cycle kSingle = issue({EV4_CLASS_LOAD});

// Counter n counting one whole event per kDual step: PF_CYCLES or PF_DUAL.
Iccsr counting(unsigned n, unsigned pc)
{
    return only(n, n ? unsigned(EV4_MUX_PF_DUAL) : unsigned(EV4_MUX_PF_CYCLES), pc);
}

} // namespace

// (counter, PCn bit, period): OSF/1 <sys/pfcntr.h> PF_C0_INT_EVERY_*, PF_C1_INT_EVERY_*.
using PeriodCase = std::tuple<unsigned, unsigned, unsigned>;
class Ev4IrqPeriod : public ::testing::TestWithParam<PeriodCase> {};

TEST_P(Ev4IrqPeriod, RequestExactlyAtTheCrossing)
{
    const unsigned n = std::get<0>(GetParam()), pc = std::get<1>(GetParam());
    const unsigned period = std::get<2>(GetParam());
    EV4_OPEN(d, params());
    d.iccsr(counting(n, pc));
    d.write(EV4_ADDR_HIER, hier_bit(n));
    for (unsigned round = 1; round <= 3; round++) {
        SCOPED_TRACE(round);
        d.step_n(kDual, period - 1);
        EXPECT_EQ(d.hirr(), 0u) << "one step before the crossing";
        EXPECT_EQ(d.pmi(), 0u);
        d.step(kDual);
        EXPECT_EQ(d.hirr(), hirr_bit(n));
        EXPECT_EQ(d.pmi(), 1u);
        EXPECT_EQ(d.count(n), (uint64_t(round) * period) & ((n ? 0xfffu : 0xffffu)));
        d.write(EV4_ADDR_SL_CLR, sl_clr_only(n));
        EXPECT_EQ(d.hirr(), 0u);
        EXPECT_EQ(d.pmi(), 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(Periods, Ev4IrqPeriod,
                         ::testing::Values(PeriodCase{0, 0, 65536}, PeriodCase{0, 1, 4096},
                                           PeriodCase{1, 0, 4096}, PeriodCase{1, 1, 256}),
                         [](const ::testing::TestParamInfo<PeriodCase> &i) {
                             return "ctr" + std::to_string(std::get<0>(i.param)) + "_every" +
                                    std::to_string(std::get<2>(i.param));
                         });

TEST(Ev4Irq, HalfCountsCrossWhenTheHalfCarries)
{
    EV4_OPEN(d, params());
    d.iccsr(only(0, EV4_MUX_PF_ISSUES, 1)); // every 2^12 issues
    d.step_n(kSingle, 2 * 4096 - 1);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x100000fffull);
    EXPECT_EQ(d.hirr(), 0u);
    d.step(kSingle);
    EXPECT_EQ(d.read(EV4_ADDR_CTR0), 0x1000ull);
    EXPECT_EQ(d.hirr(), 0x200u);
}

TEST(Ev4Irq, WiderCounterRequestsWithoutWrapping)
{
    EV4_OPEN(d, params(EV4_MODEL_21064, 17, 12));
    d.iccsr(counting(0, 0));
    d.step_n(kDual, 0xffff);
    EXPECT_EQ(d.hirr(), 0u);
    d.step(kDual);
    EXPECT_EQ(d.hirr(), 0x200u);
    EXPECT_EQ(d.count(0), 0x10000u);
}

TEST(Ev4Irq, ShorterPeriodMidCountRequestsAtItsNextCrossing)
{
    EV4_OPEN(d, params());
    d.iccsr(counting(1, 0)); // every 2^12
    d.step_n(kDual, 0x150);  // passes 0x100: not a crossing of this period
    EXPECT_EQ(d.hirr(), 0u);
    d.iccsr(counting(1, 1)); // every 2^8 from now on; the count stays
    EXPECT_EQ(d.count(1), 0x150u);
    d.step_n(kDual, 0x200 - 0x150 - 1);
    EXPECT_EQ(d.hirr(), 0u);
    d.step(kDual);
    EXPECT_EQ(d.hirr(), 0x100u);
    EXPECT_EQ(d.count(1), 0x200u);
}

TEST(Ev4Irq, LongerPeriodMidCountRequestsAtItsNextCrossing)
{
    EV4_OPEN(d, params());
    d.iccsr(counting(0, 1)); // every 2^12
    d.step_n(kDual, 0x1800);
    EXPECT_EQ(d.hirr(), 0x200u);
    d.write(EV4_ADDR_SL_CLR, sl_clr_only(0));
    d.iccsr(counting(0, 0)); // every 2^16: 0x2000 is no longer a crossing
    d.step_n(kDual, 0x10000 - 0x1800 - 1);
    EXPECT_EQ(d.hirr(), 0u);
    d.step(kDual);
    EXPECT_EQ(d.hirr(), 0x200u);
}

TEST(Ev4Irq, RequestIsStickyAndASecondCrossingIsLost)
{
    EV4_OPEN(d, params());
    d.iccsr(counting(1, 1));
    d.step_n(kDual, 256);
    ASSERT_EQ(d.hirr(), 0x100u);
    d.step_n(kDual, 256); // a second crossing while the first is pending
    EXPECT_EQ(d.hirr(), 0x100u);
    EXPECT_EQ(d.count(1), 512u);
    d.write(EV4_ADDR_SL_CLR, sl_clr_only(1));
    EXPECT_EQ(d.hirr(), 0u);
    d.step_n(kDual, 255); // the lost crossing does not come back
    EXPECT_EQ(d.hirr(), 0u);
    d.step(kDual);
    EXPECT_EQ(d.hirr(), 0x100u);
}

TEST(Ev4Irq, SlClrZeroClearsOneLeavesPerBit)
{
    EV4_OPEN(d, params());
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL).with_pc0(1).with_pc1(1));
    d.step_n(kDual, 4096);
    ASSERT_EQ(d.hirr(), 0x300u);
    d.write(EV4_ADDR_SL_CLR, 0x8100); // both 1: nothing cleared
    EXPECT_EQ(d.hirr(), 0x300u);
    d.write(EV4_ADDR_SL_CLR, 0x0100); // PC1 <15> 0: counter 1 cleared
    EXPECT_EQ(d.hirr(), 0x200u);
    d.write(EV4_ADDR_SL_CLR, 0x0100);
    EXPECT_EQ(d.hirr(), 0x200u);
    d.write(EV4_ADDR_SL_CLR, 0x8000); // PC0 <8> 0: counter 0 cleared
    EXPECT_EQ(d.hirr(), 0u);
    d.step_n(kDual, 256); // counter 1 again
    EXPECT_EQ(d.hirr(), 0x100u);
    d.write(EV4_ADDR_SL_CLR, ~uint64_t(0x8000)); // other bits do not matter
    EXPECT_EQ(d.hirr(), 0u);
}

TEST(Ev4Irq, BothCountersCanRequestInOneStep)
{
    EV4_OPEN(d, params());
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL).with_pc0(1));
    d.step_n(kDual, 4095);
    EXPECT_EQ(d.hirr(), 0u);
    d.step(kDual);
    EXPECT_EQ(d.hirr(), 0x300u);
    d.write(EV4_ADDR_SL_CLR, 0);
    EXPECT_EQ(d.hirr(), 0u);
}

TEST(Ev4Irq, HierGatesTheLineNotTheRequest)
{
    EV4_OPEN(d, params());
    d.iccsr(counting(1, 1));
    d.step_n(kDual, 256);
    EXPECT_EQ(d.hirr(), 0x100u); // requested with interrupts disabled
    EXPECT_EQ(d.pmi(), 0u);
    d.write(EV4_ADDR_HIER, hier_bit(0)); // the other counter's enable
    EXPECT_EQ(d.pmi(), 0u);
    d.write(EV4_ADDR_HIER, hier_bit(1)); // taken when enabled
    EXPECT_EQ(d.pmi(), 1u);
    d.write(EV4_ADDR_HIER, 0);
    EXPECT_EQ(d.pmi(), 0u);
    EXPECT_EQ(d.hirr(), 0x100u);
    d.write(EV4_ADDR_HIER, hier_bit(0) | hier_bit(1));
    EXPECT_EQ(d.pmi(), 1u);
    d.write(EV4_ADDR_SL_CLR, sl_clr_only(1));
    EXPECT_EQ(d.pmi(), 0u);
}

TEST(Ev4Irq, DisabledCounterNeitherCountsNorRequests)
{
    EV4_OPEN(d, params());
    d.iccsr(counting(1, 1).with_pme(0, 0));
    d.step_n(kDual, 1024);
    EXPECT_EQ(d.count(1), 0u);
    EXPECT_EQ(d.hirr(), 0u);
}
