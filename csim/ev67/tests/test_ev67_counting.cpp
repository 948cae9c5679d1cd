// test_ev67_counting.cpp - aggregate counting on the Alpha 21264/EV67 (docs/ev67.md,
// "Aggregate counting"): the SL1 rows, the 8-a-step catch-up, squashes not counted, the
// Bcache phase shift, overflow at 2^20 and counting on, out-of-range writes.
#include "ev67_test_util.h"

using namespace ev67test;

namespace {

struct Row {
    unsigned sl1;
    uint32_t per_step0, per_step1; // after the Bcache gate has filled
};

// A record with 3 retires, a Bcache miss and an Mbox replay trap, stepped 5 times: the
// rows of HRM Table 5-16 for SL0 = 0.  Counter 1's Bcache row is gated 3 steps late, so
// it counts in steps 4 and 5 only.
TEST(Ev67Counting, AggregateRows)
{
    const Row rows[] = {{0, 3, 1}, {1, 1, 0}, {2, 3, 0}, {3, 1, 1}};
    for (const Row &r : rows) {
        EV67_OPEN(d, params());
        d.enable(1, 1);
        d.ctl(0, r.sl1);
        Rec rec;
        rec.retire_n(100, 3).bcmiss().mreplay();
        d.step_n(rec, 5);
        EXPECT_EQ(d.ctr(0), 5 * r.per_step0) << "SL1 " << r.sl1;
        EXPECT_EQ(d.ctr(1), r.sl1 == 2 ? 2u : 5 * r.per_step1) << "SL1 " << r.sl1;
    }
}

TEST(Ev67Counting, DisabledCountersDoNotCount)
{
    EV67_OPEN(d, params());
    d.ctl(0, 0);
    d.enable(0, 0);
    d.step_n(Rec().retire_n(100, 3), 4);
    EXPECT_EQ(d.ctr(0), 0u);
    EXPECT_EQ(d.ctr(1), 0u);
}

TEST(Ev67Counting, CatchUpAddsEightPerStep)
{
    EV67_OPEN(d, params());
    d.enable(1, 0);
    d.ctl(0, 0);
    d.step(Rec().retire_n(100, 11));
    EXPECT_EQ(d.ctr(0), 8u);
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BACKLOG), 3u);
    d.step(Rec().retire_n(111, 11));
    EXPECT_EQ(d.ctr(0), 16u);
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BACKLOG), 6u);
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 22u); // all 22 retires counted
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BACKLOG), 0u);
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 22u);
}

TEST(Ev67Counting, BacklogRunsWhileDisabledAndIsLost)
{
    EV67_OPEN(d, params());
    d.ctl(0, 0);
    d.step(Rec().retire_n(100, 11)); // disabled: 8 due, not counted; 3 left
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BACKLOG), 3u);
    d.enable(1, 0); // writes do not touch BACKLOG
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BACKLOG), 3u);
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 3u);
}

TEST(Ev67Counting, SquashedInstructionsAreNotCounted)
{
    EV67_OPEN(d, params());
    d.enable(1, 0);
    d.ctl(0, 0);
    d.step(Rec().fetch(100, 4, EV67_FF_SQUASH));
    d.step(Rec().retire({}).squash({100, 101, 102, 103}));
    EXPECT_EQ(d.ctr(0), 0u);
    d.step(Rec().retire({104}).squash({105}));
    EXPECT_EQ(d.ctr(0), 1u);
}

TEST(Ev67Counting, BcachePhaseShift)
{
    EV67_OPEN(d, params());
    d.ctl(0, 2);
    d.enable(0, 1);
    const Rec miss = Rec().bcmiss();
    const uint32_t want_on[] = {0, 0, 0, 1, 2};
    for (uint32_t w : want_on) {
        d.step(miss);
        EXPECT_EQ(d.ctr(1), w);
    }
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BCG), 7u);
    d.enable(0, 0); // the 3 misses after disabling still count
    const uint32_t want_off[] = {3, 4, 5, 5, 5};
    for (uint32_t w : want_off) {
        d.step(miss);
        EXPECT_EQ(d.ctr(1), w);
    }
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BCG), 0u);
}

TEST(Ev67Counting, BcacheGateShiftsOnceAStepNotOnWrites)
{
    EV67_OPEN(d, params());
    d.enable(0, 1);
    d.step(Rec());
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BCG), 1u);
    d.ctl(0, 2);
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BCG), 1u);
    d.enable(0, 0);
    d.step(Rec());
    EXPECT_EQ(EV67_FGET(d.agg(), OBS_AGG, BCG), 2u);
}

TEST(Ev67Counting, OverflowAtTwoToTheTwentyAndCountsOn)
{
    EV67_OPEN(d, params());
    d.enable(1, 1);
    d.ctl(0, 0, 0xffff0, 0xffffc); // both at their legal maxima
    d.step_n(Rec(), 3);
    EXPECT_EQ(d.ctr(1), 0xfffffu);
    EXPECT_EQ(d.s1(), 0u);
    d.step(Rec()); // 2^20: wraps, carry into S1
    EXPECT_EQ(d.ctr(1), 0u);
    EXPECT_EQ(d.s1(), 2u);
    d.step(Rec());
    EXPECT_EQ(d.s2(), 2u);
    EXPECT_EQ(d.req(), 0u);
    d.step(Rec());
    EXPECT_EQ(d.req(), 2u);
    EXPECT_EQ(d.ctr(1), 2u);
    d.step(Rec().retire_n(100, 8)); // PCTR0 0xffff0 + 8 + 8 wraps to 0
    d.step(Rec().retire_n(108, 8));
    EXPECT_EQ(d.ctr(0), 0u);
    EXPECT_EQ(d.s1(), 1u);
}

TEST(Ev67Counting, OutOfRangeWriteIsStoredAndCounts)
{
    EV67_OPEN(d, params());
    d.enable(1, 0);
    d.ctl(0, 1, 0xffffa, 0xffffe);
    EXPECT_EQ(d.ctr(0), 0xffffau);
    EXPECT_EQ(d.ctr(1), 0xffffeu);
    d.step_n(Rec(), 5);
    EXPECT_EQ(d.ctr(0), 0xfffffu);
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 0u);
    EXPECT_EQ(d.s1(), 1u);
}

TEST(Ev67Counting, AggregateIgnoresFetches)
{
    EV67_OPEN(d, params());
    d.enable(1, 1);
    d.ctl(0, 0, 0xffffe, 0);
    d.step(Rec().fetch(100, 4));
    EXPECT_EQ(d.ctr(0), 0xffffeu);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), PHASE), unsigned(EV67_PM_ARMED));
}

} // namespace
