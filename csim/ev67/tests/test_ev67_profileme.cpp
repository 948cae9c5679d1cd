// test_ev67_profileme.cpp - ProfileMe on the Alpha 21264/EV67 (docs/ev67.md, "ProfileMe";
// HRM §6.10.3): which fetch becomes the profiled instruction P, the overcount, the
// window's opening in the 5th step, each end case with PMPC/I_STAT/PCTR_CTL at the end,
// the inum retire delay, the window rows, and the stop until PCTR_CTL is written.
#include "ev67_test_util.h"

using namespace ev67test;

namespace {

const uint32_t kP = 101; // P: fetch[1] of step 1 with PCTR0 written 2^20 - 2

// PCTR0 at 2^20 - 2, both counters and counter 0's interrupt enabled, then step 1 (P's
// fetch: 4 instructions, P the 2nd, with flags) and step 2 (4 more: the overcount).
// After it PCTR0 = 2 + 4 = OVR = 6, AGE = 1.
void select_p(Dev &d, unsigned sl1, uint8_t pflags = 0, const Rec &extra1 = Rec())
{
    d.enable(1, 1);
    d.write(EV67_ADDR_IER_CM, pcen(1));
    d.ctl(1, sl1, 0xffffe, 0);
    Rec r1 = extra1;
    r1.c.nfetch = 0;
    r1.add_fetch(100, 0).add_fetch(kP, pflags).add_fetch(102, 0).add_fetch(103, 0);
    d.step(r1);
    d.step(Rec().fetch(104, 4));
}

TEST(Ev67ProfileMe, OverflowingFetchIsSelected)
{
    EV67_OPEN(d, params());
    d.enable(1, 1);
    d.ctl(1, 0, 0xffffe, 0);
    d.step(Rec().fetch(100, 4));
    uint64_t pm = d.pm();
    EXPECT_EQ(EV67_PM_FIELD(pm, PHASE), unsigned(EV67_PM_SELECTED));
    EXPECT_EQ(EV67_PM_FIELD(pm, TAG), kP);
    EXPECT_EQ(EV67_PM_FIELD(pm, AGE), 0u);
    EXPECT_EQ(d.read(EV67_ADDR_OBS_PMPC), kPc + 4 * kP);
    EXPECT_EQ(d.ctr(0), 2u); // the 2 fetches after P
    EXPECT_EQ(d.s1(), 0u);   // the selection's carry is no overflow
    EXPECT_EQ(d.ctr(1), 0u); // PCTR1 counts nothing before the window
}

TEST(Ev67ProfileMe, SelectionAfterSeveralFetchSteps)
{
    EV67_OPEN(d, params());
    d.enable(1, 0);
    d.ctl(1, 0, 0xffff0, 0);
    for (uint32_t k = 0; k < 3; k++) {
        d.step(Rec().fetch(100 + 4 * k, 4));
        EXPECT_EQ(d.ctr(0), 0xffff4u + 4 * k);
        EXPECT_EQ(EV67_PM_FIELD(d.pm(), PHASE), unsigned(EV67_PM_ARMED));
    }
    d.step(Rec().fetch(112, 4)); // 0xffffc + 4: the 4th fetch overflows
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), TAG), 115u);
    EXPECT_EQ(d.ctr(0), 0u);
}

TEST(Ev67ProfileMe, CmovHalvesAndSquashedNopsCount)
{
    EV67_OPEN(d, params());
    d.enable(1, 0);
    d.ctl(1, 0, 0xffffd, 0);
    Rec r;
    r.add_fetch(10, EV67_FF_CMOV1).add_fetch(11, EV67_FF_CMOV2).add_fetch(12, EV67_FF_SQUASH, EV67_CLASS_NOP);
    d.step(r); // 3 fetched instructions: the squashed NOP overflows PCTR0
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), TAG), 12u);
    EXPECT_EQ(d.ctr(0), 0u);
}

TEST(Ev67ProfileMe, NoSelectionWhileCounter0Disabled)
{
    EV67_OPEN(d, params());
    d.enable(0, 1);
    d.ctl(1, 0, 0xffffe, 0);
    d.step(Rec().fetch(100, 4));
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), PHASE), unsigned(EV67_PM_ARMED));
    EXPECT_EQ(d.ctr(0), 0xffffeu);
    EXPECT_EQ(d.ctr(1), 0u);
}

TEST(Ev67ProfileMe, OverCountThenWindowOpensInFifthStep)
{
    EV67_OPEN(d, params());
    select_p(d, 1); // PCTR0 cycles in the window
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), AGE), 1u);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), OVR), 6u);
    EXPECT_EQ(d.ctr(0), 6u);
    for (unsigned age = 2; age <= 4; age++) {
        d.step(Rec().fetch(100 + 4 * age, 4).retire({100}));
        EXPECT_EQ(EV67_PM_FIELD(d.pm(), AGE), age);
        EXPECT_EQ(d.ctr(0), 6u); // nothing counts
    }
    d.step(Rec());
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), AGE), 5u);
    EXPECT_EQ(d.ctr(0), 7u);
    d.step(Rec());
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), AGE), 5u); // saturates
    EXPECT_EQ(d.ctr(0), 8u);
}

// Steps 3..5, then the window steps 6.. until `end` is stepped as step 7, then 8, 9.
void run_to_end(Dev &d, const Rec &e7, const Rec &s8 = Rec())
{
    d.step_n(Rec(kP), 3);
    d.step(Rec(kP)); // step 6: window opens
    d.step(e7);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), ENDED), 1u);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), ENDCNT), 0u);
    EXPECT_EQ(d.req(), 0u);
    d.step(s8);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), ENDCNT), 1u);
    EXPECT_EQ(d.req(), 0u);
    d.step(Rec(200)); // step 9 = E + 2: the window's end
}

void expect_end(Dev &d, unsigned trp, unsigned type, unsigned val, unsigned kbm, unsigned stalled = 0)
{
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.pmi(), 1);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), PHASE), unsigned(EV67_PM_STOPPED));
    EXPECT_EQ(d.read(EV67_ADDR_PMPC), kPc + 4 * kP);
    const uint64_t is = d.read(EV67_ADDR_I_STAT);
    EXPECT_EQ(EV67_FGET(is, I_STAT, OVR), 6u);
    EXPECT_EQ(EV67_FGET(is, I_STAT, TRP), trp);
    EXPECT_EQ(EV67_FGET(is, I_STAT, TRAP_TYPE), type);
    const uint64_t pc = d.read(EV67_ADDR_PCTR_CTL);
    EXPECT_EQ(EV67_FGET(pc, PCTR_CTL, VAL), val);
    EXPECT_EQ(EV67_FGET(pc, PCTR_CTL, PM_KILLED_BM), kbm);
    EXPECT_EQ(EV67_FGET(pc, PCTR_CTL, PM_STALLED), stalled);
    EXPECT_EQ(EV67_FGET(pc, PCTR_CTL, PCTR0), 10u); // OVR 6 + window steps 6..9
}

TEST(Ev67ProfileMe, EndByTrapThenRetire)
{
    EV67_OPEN(d, params());
    select_p(d, 1);
    run_to_end(d, Rec(kP).trap(kP, EV67_TRAP_DTB_SINGLE), Rec(kP + 1).retire({kP}));
    expect_end(d, 1, EV67_TRAP_DTB_SINGLE, 1, 0);
}

TEST(Ev67ProfileMe, EndByTrapWithMisAndLso)
{
    EV67_OPEN(d, params());
    select_p(d, 1, EV67_FF_TAKEN | EV67_FF_ICM);
    run_to_end(d, Rec(kP).trap(kP, EV67_TRAP_REPLAY, 1, 1).abort(kP, 300));
    expect_end(d, 1, EV67_TRAP_REPLAY, 0, 0);
    const uint64_t is = d.read(EV67_ADDR_I_STAT);
    EXPECT_EQ(EV67_FGET(is, I_STAT, MIS), 1u);
    EXPECT_EQ(EV67_FGET(is, I_STAT, LSO), 1u);
    EXPECT_EQ(EV67_FGET(is, I_STAT, ICM), 1u);
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_PCTR_CTL), PCTR_CTL, TAK), 1u);
}

TEST(Ev67ProfileMe, EndByRetire)
{
    EV67_OPEN(d, params());
    select_p(d, 1);
    run_to_end(d, Rec(kP + 1).retire({100, kP}));
    expect_end(d, 0, 0, 1, 0);
}

TEST(Ev67ProfileMe, EndByAbortKilledBeforeMap)
{
    EV67_OPEN(d, params());
    select_p(d, 1);
    run_to_end(d, Rec(100).abort(kP, kP));
    expect_end(d, 0, 0, 0, 1);
}

TEST(Ev67ProfileMe, EndByAbortAfterMap)
{
    EV67_OPEN(d, params());
    select_p(d, 1);
    run_to_end(d, Rec(100).abort(100, 102));
    expect_end(d, 0, 0, 0, 0);
}

TEST(Ev67ProfileMe, EndBySquash)
{
    EV67_OPEN(d, params());
    select_p(d, 1, EV67_FF_SQUASH);
    run_to_end(d, Rec(kP + 1).retire({100}).squash({kP}));
    expect_end(d, 0, 0, 0, 0);
}

TEST(Ev67ProfileMe, StallNamingPIsRecorded)
{
    EV67_OPEN(d, params());
    select_p(d, 1, 0, Rec().stall(100, 2)); // stall range 100..101 in P's fetch step
    run_to_end(d, Rec(kP + 1).retire({kP}));
    expect_end(d, 0, 0, 1, 0, 1);
}

TEST(Ev67ProfileMe, EarlyEndGivesEmptyWindow)
{
    EV67_OPEN(d, params());
    select_p(d, 1, 0, Rec().abort(kP, kP)); // E = 1 (fetch step), e = 3
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), ENDCNT), 1u);
    EXPECT_EQ(d.ctr(0), 6u); // the overcount step still counts
    d.step(Rec());
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), PHASE), unsigned(EV67_PM_STOPPED));
    EXPECT_EQ(d.ctr(0), 6u); // PCTR0 - OVR = 0
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_PCTR_CTL), PCTR_CTL, PM_KILLED_BM), 1u);
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_I_STAT), I_STAT, OVR), 6u);
}

TEST(Ev67ProfileMe, InumRetireDelay)
{
    EV67_OPEN(d, params());
    select_p(d, 1); // PCTR1: inum retire delay
    d.step_n(Rec(kP), 3); // head = P but before the window: not counted
    EXPECT_EQ(d.ctr(1), 0u);
    d.step(Rec(kP));       // step 6
    d.step(Rec(kP));       // step 7
    d.step(Rec(kP + 1).retire({kP})); // step 8: E
    d.step(Rec(kP + 1));
    d.step(Rec(kP + 1));   // step 10: end
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.ctr(1), 2u);
}

TEST(Ev67ProfileMe, WindowRows)
{
    struct {
        unsigned sl1;
        uint32_t c0, c1; // after 4 window steps of the record below (+ OVR 6 in PCTR0)
    } rows[] = {{0, 6 + 4 * 3, 4}, {1, 6 + 4, 0}, {2, 6 + 4 * 3, 4}, {3, 6 + 4, 4}};
    for (auto &r : rows) {
        EV67_OPEN(d, params());
        select_p(d, r.sl1);
        d.enable(1, 0);
        // Misses, replays and 3 retires before the window: not counted by either.
        d.step_n(Rec().bcmiss().mreplay().retire_n(200, 3), 3);
        d.enable(1, 1); // counter 1 enabled right before the window: no Bcache shift
        d.step_n(Rec().bcmiss().mreplay().retire_n(200, 3), 4);
        EXPECT_EQ(d.ctr(0), r.c0) << "SL1 " << r.sl1;
        EXPECT_EQ(d.ctr(1), r.c1) << "SL1 " << r.sl1;
    }
}

TEST(Ev67ProfileMe, StoppedUntilPctrCtlWritten)
{
    EV67_OPEN(d, params());
    select_p(d, 0);
    run_to_end(d, Rec(kP + 1).retire({kP}));
    const uint32_t c0 = d.ctr(0), c1 = d.ctr(1);
    d.step_n(Rec().fetch(300, 4).retire_n(100, 4), 5);
    EXPECT_EQ(d.ctr(0), c0);
    EXPECT_EQ(d.ctr(1), c1);
    d.write(EV67_ADDR_HW_INT_CLR, int_clr(1));
    d.ctl(1, 0, 0xffff0, 0); // re-arms; the captured registers stay
    EXPECT_EQ(d.pm(), 0u);
    EXPECT_EQ(d.read(EV67_ADDR_OBS_PMPC), 0u);
    EXPECT_EQ(d.read(EV67_ADDR_PMPC), kPc + 4 * kP);
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_PCTR_CTL), PCTR_CTL, VAL), 1u);
    d.step(Rec().fetch(400, 2));
    EXPECT_EQ(d.ctr(0), 0xffff2u);
}

TEST(Ev67ProfileMe, WriteDropsWindowWithoutInterrupt)
{
    EV67_OPEN(d, params());
    select_p(d, 1);
    d.step_n(Rec(), 4);
    d.ctl(1, 1, 0x100, 0);
    EXPECT_EQ(EV67_PM_FIELD(d.pm(), PHASE), unsigned(EV67_PM_ARMED));
    d.step_n(Rec().trap(kP, 2), 1);
    d.step_n(Rec(), 4);
    EXPECT_EQ(d.req(), 0u);
}

TEST(Ev67ProfileMe, WindowEndInPalModeHeldOff)
{
    EV67_OPEN(d, params());
    select_p(d, 1);
    d.step_n(Rec(kP), 4);
    d.step(Rec(kP + 1).retire({kP}).pal());
    d.step(Rec().pal());
    d.step(Rec().pal()); // e
    EXPECT_EQ(d.read(EV67_ADDR_ISUM), isum(1));
    EXPECT_EQ(d.pmi(), 0);
    d.step(Rec());
    EXPECT_EQ(d.pmi(), 1);
}

TEST(Ev67ProfileMe, PalFetchSetsPmpcPal)
{
    EV67_OPEN(d, params());
    select_p(d, 1, EV67_FF_PAL);
    EXPECT_EQ(d.read(EV67_ADDR_OBS_PMPC), (kPc + 4 * kP) | 1u);
}

} // namespace
