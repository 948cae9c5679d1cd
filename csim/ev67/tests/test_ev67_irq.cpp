// test_ev67_irq.cpp - interrupts and the six precautions on the Alpha 21264/EV67
// (docs/ev67.md, "Interrupts", "Precautions"; HRM §5.2.11, §6.10.1): the two-stage latch,
// ISUM gating, HW_INT_CLR, PALmode hold-off, the double write, the PAL-exit interrupt,
// the parked counter, the read quirk and the ISUM race.
#include "ev67_test_util.h"

using namespace ev67test;

namespace {

// PCTR0 counting retires from its legal maximum: the carry comes in the 2nd step.
void overflow0(Dev &d)
{
    d.enable(1, 0);
    d.ctl(0, 0, 0xffff0, 0);
    d.step(Rec().retire_n(100, 8));
    d.step(Rec().retire_n(108, 8));
}

TEST(Ev67Irq, LatchDeliversTwoStepsAfterTheCarry)
{
    EV67_OPEN(d, params());
    d.write(EV67_ADDR_IER_CM, pcen(1));
    overflow0(d);
    EXPECT_EQ(d.s1(), 1u);
    d.step(Rec());
    EXPECT_EQ(d.s1(), 0u);
    EXPECT_EQ(d.s2(), 1u);
    EXPECT_EQ(d.req(), 0u);
    EXPECT_EQ(d.pmi(), 0);
    d.step(Rec());
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
    EXPECT_EQ(d.pmi(), 1);
}

TEST(Ev67Irq, IsumGatedByPcenAndRequestSurvives)
{
    EV67_OPEN(d, params());
    overflow0(d);
    d.step_n(Rec(), 2);
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), 0u);
    EXPECT_EQ(d.pmi(), 0);
    d.write(EV67_ADDR_IER_CM, pcen(2)); // the other counter's enable
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), 0u);
    d.write(EV67_ADDR_IER_CM, pcen(1));
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
    EXPECT_EQ(d.pmi(), 1);
    d.write(EV67_ADDR_HW_INT_CLR, int_clr(1));
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), 0u);
    EXPECT_EQ(d.pmi(), 0);
    d.step_n(Rec(), 3);
    EXPECT_EQ(d.req(), 0u); // cleared once, stays cleared
}

TEST(Ev67Irq, HeldOffInPalMode)
{
    EV67_OPEN(d, params());
    d.write(EV67_ADDR_IER_CM, pcen(1));
    overflow0(d);
    d.step(Rec().pal());
    d.step(Rec().pal()); // REQ rises in PALmode
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
    EXPECT_EQ(EV67_FGET(d.oint(), OBS_INT, PAL), 1u);
    EXPECT_EQ(d.pmi(), 0);
    d.step(Rec().pal());
    EXPECT_EQ(d.pmi(), 0);
    d.step(Rec());
    EXPECT_EQ(d.pmi(), 1);
}

// Precaution 1.
TEST(Ev67Irq, OneWriteLeavesTheSecondStage)
{
    EV67_OPEN(d, params());
    overflow0(d);
    d.ctl(0, 0, 0, 0); // S2 = S1 = 1, S1 = 0
    EXPECT_EQ(d.s2(), 1u);
    EXPECT_EQ(d.s1(), 0u);
    d.step(Rec());
    EXPECT_EQ(d.req(), 1u);
}

TEST(Ev67Irq, TwoWritesClearTheLatch)
{
    EV67_OPEN(d, params());
    overflow0(d);
    d.ctl(0, 0, 0, 0);
    d.ctl(0, 0, 0, 0);
    EXPECT_EQ(d.s1() | d.s2(), 0u);
    for (int i = 0; i < 4; i++) {
        d.step(Rec());
        EXPECT_EQ(d.req(), 0u);
    }
}

// Precaution 2.
void park_pctr1_near(Dev &d)
{
    d.enable(0, 1);
    d.ctl(0, 0, 0, 0xffff8);
    d.step_n(Rec(), 6); // cycles: 0xffffe, above the legal maximum 0xffffc
    EXPECT_EQ(d.ctr(1), 0xffffeu);
    d.enable(0, 0);
}

TEST(Ev67Irq, ThresholdWriteInterruptsOnLeavingPal)
{
    EV67_OPEN(d, params());
    park_pctr1_near(d);
    d.ctl(0, 0, 0, 0);
    EXPECT_EQ(d.pexit(), 2u);
    d.step_n(Rec().pal(), 3);
    EXPECT_EQ(d.req(), 0u);
    EXPECT_EQ(d.pexit(), 2u);
    d.step(Rec());
    EXPECT_EQ(d.req(), 2u);
    EXPECT_EQ(d.pexit(), 0u);
    d.write(EV67_ADDR_IER_CM, pcen(2));
    EXPECT_EQ(d.pmi(), 1);
}

TEST(Ev67Irq, ThresholdWriteClearedByHwIntClr)
{
    EV67_OPEN(d, params());
    park_pctr1_near(d);
    d.ctl(0, 0, 0, 0);
    d.step(Rec().pal());
    d.write(EV67_ADDR_HW_INT_CLR, int_clr(2));
    d.step_n(Rec(), 3);
    EXPECT_EQ(d.req(), 0u);
}

TEST(Ev67Irq, WriteBelowTheThresholdArmsNothing)
{
    EV67_OPEN(d, params());
    d.ctl(0, 0, 0xffff0, 0xffffc); // exactly the legal maxima
    d.ctl(0, 0, 0, 0);
    EXPECT_EQ(d.pexit(), 0u);
}

// Precaution 3.
void park_and_overflow0(Dev &d)
{
    d.enable(1, 0);
    d.ctl(0, 0, 0xffff0, 0xffffe); // PCTR1 disabled above its maximum: parked
    d.step(Rec().retire_n(100, 8));
    d.step(Rec().retire_n(108, 8)); // PCTR0 carry
}

TEST(Ev67Irq, ParkedCounterBlocksDeliveries)
{
    EV67_OPEN(d, params(1, 0, 1));
    park_and_overflow0(d);
    for (int i = 0; i < 5; i++) {
        d.step(Rec());
        EXPECT_EQ(d.req(), 0u);
        EXPECT_EQ(d.s2(), 1u);
    }
    d.enable(1, 1); // PCTR1 no longer parked
    d.step(Rec());
    EXPECT_EQ(d.req(), 1u);
}

TEST(Ev67Irq, ParkedCounterDoesNotBlockWithParkBlockOff)
{
    EV67_OPEN(d, params(1, 0, 0));
    park_and_overflow0(d);
    d.step(Rec());
    EXPECT_EQ(d.req(), 0u);
    d.step(Rec());
    EXPECT_EQ(d.req(), 1u);
}

TEST(Ev67Irq, UnparkingByWriteLosesTheHeldBit)
{
    EV67_OPEN(d, params(1, 0, 1));
    park_and_overflow0(d);
    d.step_n(Rec(), 2);
    EXPECT_EQ(d.s2(), 1u);
    d.ctl(0, 0, 0, 0); // shifts S2 = S1 = 0; PCTR1 was near: PEXIT[1]
    EXPECT_EQ(d.s2(), 0u);
    d.step_n(Rec(), 3);
    EXPECT_EQ(d.req(), 2u); // only the PAL-exit interrupt of counter 1
}

// Precaution 5.
TEST(Ev67Irq, ReadQuirkShowsValuePlusIncrement)
{
    EV67_OPEN(d, params(1));
    d.enable(0, 1);
    d.ctl(0, 0, 0x7fffe, 5); // PCTR0 disabled, retires; PCTR1 enabled, cycles
    d.step(Rec().retire_n(100, 6));
    EXPECT_EQ(d.ctr(0), 0x7fffeu);
    EXPECT_EQ(d.shown(0), 0x80002u); // + min(6, 4)
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_PCTR_CTL), PCTR_CTL, SEXT), 0xffffu);
    EXPECT_EQ(d.shown(1), 6u); // enabled: exact
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, QINC0), 4u);
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, QINC1), 1u);
    d.enable(0, 0);
    EXPECT_EQ(d.shown(1), 6u); // a write clock: no increment
    d.step(Rec());
    EXPECT_EQ(d.ctr(1), 6u); // disabled: no count
    EXPECT_EQ(d.shown(1), 7u); // 6 + 1 (cycles)
    d.ctl(0, 0, 0x7fffe, 5);
    EXPECT_EQ(d.shown(0), 0x7fffeu);
}

TEST(Ev67Irq, ReadQuirkOffShowsTrueCounts)
{
    EV67_OPEN(d, params(0));
    d.ctl(0, 0, 0x10, 0x20);
    d.step(Rec().retire_n(100, 6));
    EXPECT_EQ(d.shown(0), 0x10u);
    EXPECT_EQ(d.shown(1), 0x20u);
}

TEST(Ev67Irq, ReadQuirkFollowsSl1Rows)
{
    EV67_OPEN(d, params(1));
    d.ctl(0, 3, 0, 0); // cycles, Mbox replays
    d.step(Rec().mreplay());
    EXPECT_EQ(d.shown(0), 1u);
    EXPECT_EQ(d.shown(1), 1u);
    d.step(Rec());
    EXPECT_EQ(d.shown(1), 0u);
    d.ctl(0, 2, 0, 0); // retires, Bcache (ungated)
    d.step(Rec().bcmiss().retire_n(100, 2));
    EXPECT_EQ(d.shown(0), 2u);
    EXPECT_EQ(d.shown(1), 1u);
    d.ctl(0, 1, 0, 0); // cycles, undefined
    d.step(Rec().bcmiss());
    EXPECT_EQ(d.shown(1), 0u);
}

// Precaution 6.
TEST(Ev67Irq, IsumRaceOn)
{
    EV67_OPEN(d, params(1, 1));
    d.write(EV67_ADDR_IER_CM, pcen(1));
    overflow0(d);
    d.step(Rec());
    d.step(Rec()); // REQ[0] rises
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), 0u);
    EXPECT_EQ(EV67_FGET(d.oint(), OBS_INT, RACE), 1u);
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.pmi(), 1);
    d.step(Rec()); // nothing new: the race is over
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
}

TEST(Ev67Irq, IsumRaceClearedByAWrite)
{
    EV67_OPEN(d, params(1, 1));
    d.write(EV67_ADDR_IER_CM, pcen(1));
    overflow0(d);
    d.step_n(Rec(), 2);
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), 0u);
    d.write(0x00, 0);
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
}

TEST(Ev67Irq, IsumRaceOff)
{
    EV67_OPEN(d, params(1, 0));
    d.write(EV67_ADDR_IER_CM, pcen(1));
    overflow0(d);
    d.step_n(Rec(), 2);
    EXPECT_EQ(EV67_FGET(d.oint(), OBS_INT, RACE), 1u); // the flag, without its effect
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
}

} // namespace
