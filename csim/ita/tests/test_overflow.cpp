// test_overflow.cpp - ita-semantics.md step 5: W-bit counting, the carry out of
// bit W-1, sticky overflow bits, oi / freeze / the edge-triggered interrupt,
// several counters in one clock, and the bookkeeping totals across wraps.
#include "ref_test_util.h"

using namespace reftest;

class Overflow : public ModelTest {
protected:
    // A started model with counter `ctr` counting CPU cycles (oi as given).
    void cycles_on(Ref &r, unsigned ctr, unsigned oi) { r.program(ctr, event_pmc(ITA_EV_CPU_CYCLES).with_oi(oi)); }
};
INSTANTIATE_BOTH_MODELS(Overflow);

TEST_P(Overflow, CarryByOneWithoutOiSetsOnlyTheOverflowBit)
{
    Ref r(params(model()));
    r.start();
    cycles_on(r, 5, 0);
    r.write(pmd(5), wmax(model()) - 1);
    r.step(cycle());
    EXPECT_EQ(r.read(pmd(5)) & wmax(model()), wmax(model()));
    EXPECT_EQ(r.read(pmc(0)), 0u);
    r.step(cycle());
    EXPECT_EQ(r.read(pmd(5)), 0u);
    EXPECT_EQ(r.read(pmc(0)), ovf_bit(5)) << "ovf only: no fr";
    EXPECT_EQ(r.snap().pmi, 0) << "oi = 0 raises nothing";
    r.step_n(cycle(), 4);
    EXPECT_EQ(r.read(pmd(5)), 4u) << "not frozen: keeps counting";
    EXPECT_EQ(r.read(pmc(0)), ovf_bit(5)) << "sticky";
}

TEST_P(Overflow, CarryByMoreThanOne)
{
    Ref r(params(model()));
    r.start();
    // PMC5: Itanium counts IA64_INST_RETIRED on PMC4 and PMC5 only.
    r.program(5, event_pmc(ITA_EV_IA64_INST_RETIRED, model()));
    r.write(pmd(5), wmax(model()) - 1);
    r.step(cycle_with({0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(r.read(pmd(5)), 4u) << "2^W - 2 + 6 wraps to 4";
    EXPECT_EQ(r.read(pmc(0)), ovf_bit(5));
    EXPECT_EQ(r.total(5), 6u);
}

TEST_P(Overflow, NoCarryJustBelowTheTop)
{
    Ref r(params(model()));
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED).with_oi(1));
    r.write(pmd(4), wmax(model()) - 6);
    r.step(cycle_with({0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(r.read(pmd(4)) & wmax(model()), wmax(model()));
    EXPECT_EQ(r.read(pmc(0)), 0u);
    EXPECT_EQ(r.snap().pmi, 0);
}

TEST_P(Overflow, OiFreezesAndPulsesTheInterruptOnce)
{
    Ref r(params(model()));
    r.start();
    cycles_on(r, 4, 1);
    r.write(pmd(4), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmd(4)), 0u);
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(4));
    EXPECT_EQ(r.snap().pmi, 1);
    // One-clock pulse; frozen from the next step on.
    r.step(cycle());
    EXPECT_EQ(r.snap().pmi, 0);
    r.step_n(cycle(), 10);
    EXPECT_EQ(r.read(pmd(4)), 0u);
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(4)) << "steps never clear sticky bits";
    EXPECT_EQ(r.total(4), 1u);
}

TEST_P(Overflow, WriteClockDropsTheInterruptLine)
{
    Ref r(params(model()));
    r.start();
    cycles_on(r, 7, 1);
    r.write(pmd(7), wmax(model()));
    r.step(cycle());
    ASSERT_EQ(r.snap().pmi, 1);
    r.write(pmc(12), 0); // any write clock, even to an unimplemented register
    EXPECT_EQ(r.snap().pmi, 0);
}

TEST_P(Overflow, InterruptOnlyOnZeroToOneOfTheOverflowBit)
{
    Ref r(params(model()));
    r.start();
    cycles_on(r, 5, 1);
    r.write(pmd(5), wmax(model()));
    r.step(cycle());
    ASSERT_EQ(r.snap().pmi, 1);

    // Software clears fr only: the next carry freezes again, no interrupt.
    r.write(pmc(0), ovf_bit(5));
    r.write(pmd(5), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(5));
    EXPECT_EQ(r.snap().pmi, 0);

    // Software clears fr and ovf: the next carry interrupts again.
    r.write(pmc(0), 0);
    r.write(pmd(5), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(5));
    EXPECT_EQ(r.snap().pmi, 1);

    // An overflow bit set by software (oi = 1) suppresses the interrupt too.
    r.write(pmc(0), ovf_bit(5));
    r.write(pmd(5), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(5));
    EXPECT_EQ(r.snap().pmi, 0);

    // Another counter's overflow bit does not suppress it.
    r.write(pmc(0), ovf_bit(4) | ovf_bit(6) | ovf_bit(7));
    r.write(pmd(5), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(4) | ovf_bit(5) | ovf_bit(6) | ovf_bit(7));
    EXPECT_EQ(r.snap().pmi, 1);
}

TEST_P(Overflow, OverflowWithoutOiThenWithOi)
{
    // The bit set by an oi = 0 overflow is still "already 1" for a later
    // oi = 1 overflow: freeze, but no new interrupt.
    Ref r(params(model()));
    r.start();
    cycles_on(r, 6, 0);
    r.write(pmd(6), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmc(0)), ovf_bit(6));
    r.write(pmc(6), event_pmc(ITA_EV_CPU_CYCLES).with_oi(1).value());
    r.write(pmd(6), wmax(model()));
    r.step(cycle());
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(6));
    EXPECT_EQ(r.snap().pmi, 0);
}

TEST_P(Overflow, AllFourCountersOverflowInOneClock)
{
    for (unsigned oi_mask = 0; oi_mask < 16; oi_mask++) {
        Ref r(params(model()));
        r.start();
        for (unsigned ctr = 4; ctr <= 7; ctr++) {
            cycles_on(r, ctr, (oi_mask >> (ctr - 4)) & 1);
            r.write(pmd(ctr), wmax(model()));
        }
        r.step(cycle());
        uint64_t expect = ovf_bit(4) | ovf_bit(5) | ovf_bit(6) | ovf_bit(7) | (oi_mask ? fr_bit() : 0);
        EXPECT_EQ(r.read(pmc(0)), expect) << "oi mask " << oi_mask;
        EXPECT_EQ(r.snap().pmi, oi_mask ? 1 : 0) << "oi mask " << oi_mask;
        for (unsigned ctr = 4; ctr <= 7; ctr++)
            EXPECT_EQ(r.read(pmd(ctr)), 0u);
    }
}

TEST_P(Overflow, FreezeTakesEffectFromTheNextStep)
{
    // PMC4 overflows with oi = 1; in that same clock PMC5 still counts.
    Ref r(params(model()));
    r.start();
    cycles_on(r, 4, 1);
    r.program(5, event_pmc(ITA_EV_IA64_INST_RETIRED));
    r.write(pmd(4), wmax(model()));
    ita_cycle c = cycle_with({0, 0, 0});
    r.step(c);
    EXPECT_EQ(r.read(pmd(5)), 3u);
    r.step(c);
    EXPECT_EQ(r.read(pmd(5)), 3u);
    EXPECT_EQ(r.read(pmd(4)), 0u);
    // Two counters, one with oi: both bits, one interrupt.
    r.write(pmc(0), 0);
    r.write(pmd(4), wmax(model()) - 1);
    r.write(pmd(5), wmax(model()) - 1);
    r.step(c);
    EXPECT_EQ(r.read(pmc(0)), ovf_bit(5)) << "PMC5 (oi = 0) carried first";
    EXPECT_EQ(r.snap().pmi, 0);
    r.step(c);
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(4) | ovf_bit(5));
    EXPECT_EQ(r.snap().pmi, 1);
    EXPECT_EQ(r.read(pmd(5)), 4u);
}

TEST_P(Overflow, TotalsAreExactAcrossWraps)
{
    Ref r(params(model()));
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED));
    cycles_on(r, 7, 0);
    r.write(pmd(4), wmax(model()) - 10);
    ita_cycle c = cycle_with({0, 0, 0, 0, 0, 0});
    r.step_n(c, 100);
    EXPECT_EQ(r.total(4), 600u);
    EXPECT_EQ(r.read(pmd(4)), 589u) << "(2^W - 11 + 600) mod 2^W";
    EXPECT_EQ(r.total(7), 100u);
    // Software writes and wraps do not disturb the total.
    r.write(pmd(4), wmax(model()));
    r.write(pmc(0), 0);
    r.step_n(c, 3);
    EXPECT_EQ(r.total(4), 618u);
    EXPECT_EQ(r.read(pmd(4)), 17u);
    // Frozen steps add nothing.
    r.write(pmc(0), fr_bit());
    r.step_n(c, 3);
    EXPECT_EQ(r.total(4), 618u);
}

// The total is a 64-bit sum, wider than any counter: it passes 2^32.  The
// record adds 255 per cycle (more than a validated stream would carry) so
// that the test stays short; the model takes n as given.
TEST(OverflowItanium2, TotalIsSixtyFourBits)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    r.start();
    r.program(4, event_pmc(ITA_EV_L2_FORCE_RECIRC_ANY));
    ita_cycle c = cycle();
    c.recirc = 255;
    const uint64_t steps = (uint64_t(1) << 32) / 255 + 7;
    r.step_n(c, unsigned(steps));
    EXPECT_EQ(r.total(4), steps * 255);
    EXPECT_GT(r.total(4), uint64_t(1) << 32);
    EXPECT_EQ(r.read(pmd(4)), steps * 255);
}
