// drv_ev67_perf.cpp - the 21264/EV67 perf driver (docs/ev67-perf.md) on the reference
// model: event placement and its errors, period clamping, the reset sequence (the
// overflow latch, requests and PAL-exit interrupts of an old setup cleared, seen through
// the observation port), and the interrupt handler's register sequence, including the
// ISUM read race, PALmode hold-off, a carry dropped by the handler's own write, and a
// spurious interrupt.  Expected values are written by hand from docs/ev67.md.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "ev67_perf_test.h"

using namespace ev67perf;

namespace {

// ---- events and placement ----

struct Placed {
    std::vector<unsigned> events;
    unsigned sl1;
    std::vector<unsigned> pmc;
};

TEST(Ev67DrvEvents, NamesAndIdsAreLinuxs)
{
    EXPECT_EQ(EV67_CYCLES, 1);
    EXPECT_EQ(EV67_INSTRUCTIONS, 2);
    EXPECT_EQ(EV67_BCACHEMISS, 3);
    EXPECT_EQ(EV67_MBOXREPLAY, 4);
    EXPECT_STREQ(ev67_perf_event_name(EV67_BCACHEMISS), "BCACHEMISS");
    EXPECT_EQ(ev67_perf_event_name(0), nullptr);
    EXPECT_EQ(ev67_perf_event_name(5), nullptr);
    EXPECT_EQ(ev67_perf_event_find("mboxreplay"), EV67_MBOXREPLAY);
    EXPECT_EQ(ev67_perf_event_find("CYCLES"), EV67_CYCLES);
    EXPECT_EQ(ev67_perf_event_find("BRANCHES"), -1);
    EXPECT_EQ(ev67_perf_event_find(nullptr), -1);
}

TEST(Ev67DrvEvents, SinglesAndAllowedPairsArePlacedAsLinuxDoes)
{
    const Placed cases[] = {
        {{EV67_CYCLES}, 0, {1}},
        {{EV67_INSTRUCTIONS}, 0, {0}},
        {{EV67_BCACHEMISS}, 2, {1}},
        {{EV67_MBOXREPLAY}, 3, {1}},
        {{EV67_INSTRUCTIONS, EV67_CYCLES}, 0, {0, 1}},
        {{EV67_CYCLES, EV67_INSTRUCTIONS}, 0, {1, 0}},
        {{EV67_INSTRUCTIONS, EV67_BCACHEMISS}, 2, {0, 1}},
        {{EV67_BCACHEMISS, EV67_INSTRUCTIONS}, 2, {1, 0}},
        {{EV67_CYCLES, EV67_MBOXREPLAY}, 3, {0, 1}},
        {{EV67_MBOXREPLAY, EV67_CYCLES}, 3, {1, 0}},
    };
    for (const Placed &c : cases) {
        ev67_perf_plan p;
        pmu_err err = {PMU_OK, ""};
        ASSERT_EQ(ev67_perf_plan_events(c.events.data(), (unsigned)c.events.size(), &p, &err), 0)
            << err.msg;
        EXPECT_EQ(p.nevents, c.events.size());
        EXPECT_EQ(p.sl1, c.sl1) << ev67_perf_event_name(c.events[0]);
        for (size_t i = 0; i < c.events.size(); i++)
            EXPECT_EQ(p.pmc[i], c.pmc[i]) << ev67_perf_event_name(c.events[i]);
    }
}

std::string plan_error(std::vector<unsigned> ev);

/* The listed pairs are Linux's three, in its order, and exactly the two-event sets the
 * planner accepts (in either order). */
TEST(Ev67DrvEvents, ListedPairsAreTheAcceptedOnes)
{
    const std::vector<std::vector<unsigned>> linux_pairs = {
        {EV67_INSTRUCTIONS, EV67_CYCLES}, {EV67_INSTRUCTIONS, EV67_BCACHEMISS}, {EV67_CYCLES, EV67_MBOXREPLAY}};
    std::vector<std::vector<unsigned>> listed;
    unsigned ids[EV67_NCOUNTERS];
    for (unsigned i = 0; ev67_perf_pair(i, ids); i++)
        listed.push_back({ids[0], ids[1]});
    EXPECT_EQ(listed, linux_pairs);
    for (unsigned a = 1; a <= EV67_PERF_NEVENT_IDS; a++)
        for (unsigned b = 1; b <= EV67_PERF_NEVENT_IDS; b++) {
            bool in = false;
            for (const auto &q : listed)
                in |= (q[0] == a && q[1] == b) || (q[0] == b && q[1] == a);
            EXPECT_EQ(plan_error({a, b}) == "accepted", in) << ev67_perf_event_name(a) << "+" << ev67_perf_event_name(b);
        }
}

std::string plan_error(std::vector<unsigned> ev)
{
    ev67_perf_plan p;
    pmu_err err = {PMU_OK, ""};
    if (ev67_perf_plan_events(ev.data(), (unsigned)ev.size(), &p, &err) == 0)
        return "accepted";
    EXPECT_EQ(err.code, PMU_E_INPUT);
    return err.msg;
}

TEST(Ev67DrvEvents, ConflictsAndBadSetsAreRejectedNamingThem)
{
    EXPECT_EQ(plan_error({EV67_CYCLES, EV67_BCACHEMISS}),
              "events CYCLES and BCACHEMISS conflict: CYCLES can be paired only with INSTRUCTIONS "
              "or MBOXREPLAY (the two counters share one SL1 input row)");
    EXPECT_EQ(plan_error({EV67_MBOXREPLAY, EV67_INSTRUCTIONS}),
              "events MBOXREPLAY and INSTRUCTIONS conflict: MBOXREPLAY can be paired only with "
              "CYCLES (the two counters share one SL1 input row)");
    EXPECT_EQ(plan_error({EV67_BCACHEMISS, EV67_MBOXREPLAY}),
              "events BCACHEMISS and MBOXREPLAY conflict: BCACHEMISS can be paired only with "
              "INSTRUCTIONS (the two counters share one SL1 input row)");
    EXPECT_EQ(plan_error({EV67_CYCLES, EV67_CYCLES}),
              "events CYCLES and CYCLES conflict: CYCLES can be paired only with INSTRUCTIONS or "
              "MBOXREPLAY (the two counters share one SL1 input row)");
    EXPECT_NE(plan_error({EV67_INSTRUCTIONS, EV67_INSTRUCTIONS}), "accepted");
    EXPECT_EQ(plan_error({}), "event set: 0 events, expected 1 or 2 (the 21264/EV67 has 2 counters)");
    EXPECT_EQ(plan_error({1, 2, 3}), "event set: 3 events, expected 1 or 2 (the 21264/EV67 has 2 counters)");
    EXPECT_EQ(plan_error({EV67_CYCLES, 7}),
              "event 1: id 7, expected 1..4 (CYCLES, INSTRUCTIONS, BCACHEMISS, MBOXREPLAY)");
    EXPECT_NE(plan_error({0}), "accepted");
}

TEST(Ev67DrvEvents, CreateRefusesBadInputWithoutTouchingTheBlock)
{
    Logged l;
    pmu_err err = {PMU_OK, ""};
    const unsigned bad[] = {EV67_INSTRUCTIONS, EV67_MBOXREPLAY};
    EXPECT_EQ(ev67_perf_create(l.backend(), bad, nullptr, 2, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("conflict"), std::string::npos) << err.msg;
    const unsigned ok[] = {EV67_CYCLES};
    EXPECT_EQ(ev67_perf_create(nullptr, ok, nullptr, 1, &err), nullptr);
    EXPECT_STREQ(err.msg, "perf driver: no counter block");
    pmu_backend other = *l.backend();
    other.nvis = 7;
    EXPECT_EQ(ev67_perf_create(&other, ok, nullptr, 1, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("not a 21264/EV67 counter block"), std::string::npos) << err.msg;
    EXPECT_TRUE(l.ops.empty()) << "nothing reaches the hardware on a bad argument";
}

// ---- periods ----

TEST(Ev67DrvPeriods, LimitsComeFromTheLegalWriteMaxima)
{
    EXPECT_EQ(ev67_perf_pmc_left(0), 16u); // Linux pmc_left {16, 4}
    EXPECT_EQ(ev67_perf_pmc_left(1), 4u);
    EXPECT_EQ(ev67_perf_max_period(0), 0xfffffu);
    EXPECT_EQ(ev67_perf_max_period(1), 0xfffffu);
    EXPECT_EQ(ev67_perf_pmc_left(2), 0u);
    EXPECT_EQ(ev67_perf_clamp_period(0, 1), 16u);
    EXPECT_EQ(ev67_perf_clamp_period(0, 15), 16u);
    EXPECT_EQ(ev67_perf_clamp_period(0, 17), 17u);
    EXPECT_EQ(ev67_perf_clamp_period(1, 1), 4u);
    EXPECT_EQ(ev67_perf_clamp_period(1, 5), 5u);
    EXPECT_EQ(ev67_perf_clamp_period(0, 0), 0xfffffu) << "0: Linux's default sample_period";
    EXPECT_EQ(ev67_perf_clamp_period(1, 1u << 20), 0xfffffu);
    EXPECT_EQ(ev67_perf_clamp_period(1, ~0ull), 0xfffffu);
}

TEST(Ev67DrvPeriods, ClampedPeriodsAreWrittenAsMinusLeft)
{
    Logged l;
    const unsigned ev[] = {EV67_INSTRUCTIONS, EV67_CYCLES};
    const uint64_t per[] = {3, 2};
    ev67_perf *d = ev67_perf_create(l.backend(), ev, per, 2, nullptr);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(ev67_perf_period(d, 0), 16u);
    EXPECT_EQ(ev67_perf_period(d, 1), 4u);
    EXPECT_EQ(ev67_perf_period(d, 2), 0u);
    uint64_t c = l.obs(EV67_ADDR_OBS_CTR);
    EXPECT_EQ(EV67_FGET(c, OBS_CTR, PCTR0), (uint64_t)EV67_CTR0_WMAX) << "2^20-16: legal";
    EXPECT_EQ(EV67_FGET(c, OBS_CTR, PCTR1), (uint64_t)EV67_CTR1_WMAX) << "2^20-4: legal";
    ev67_perf_destroy(d);

    Logged l2;
    const uint64_t big[] = {0, 1000};
    d = ev67_perf_create(l2.backend(), ev, big, 2, nullptr);
    c = l2.obs(EV67_ADDR_OBS_CTR);
    EXPECT_EQ(EV67_FGET(c, OBS_CTR, PCTR0), 1u) << "-(2^20-1) & mask";
    EXPECT_EQ(EV67_FGET(c, OBS_CTR, PCTR1), (1u << 20) - 1000);
    ev67_perf_destroy(d);
}

// ---- reset ----

TEST(Ev67DrvReset, WritesTheHrmPrecautionSequence)
{
    Logged l;
    const unsigned ev[] = {EV67_CYCLES, EV67_MBOXREPLAY};
    ev67_perf *d = ev67_perf_create(l.backend(), ev, nullptr, 2, nullptr);
    ASSERT_NE(d, nullptr);
    const std::vector<Op> want = {
        {'w', EV67_ADDR_I_CTL, 0},
        {'w', EV67_ADDR_IER_CM, 0},
        {'w', EV67_ADDR_PCTR_CTL, pctr_ctl(3, 0, 0)},
        {'w', EV67_ADDR_PCTR_CTL, pctr_ctl(3, 0, 0)},
        {'w', EV67_ADDR_HW_INT_CLR, int_clr(3)},
        {'w', EV67_ADDR_HW_INT_CLR, int_clr(3)},
        {'w', EV67_ADDR_PCTR_CTL, pctr_ctl(3, 1, 1)},
        {'w', EV67_ADDR_IER_CM, pcen(3)},
        {'w', EV67_ADDR_I_CTL, i_ctl(1, 1)},
    };
    EXPECT_EQ(l.ops, want);
    ev67_perf_destroy(d);

    Logged l1;
    const unsigned one[] = {EV67_BCACHEMISS};
    d = ev67_perf_create(l1.backend(), one, nullptr, 1, nullptr);
    ASSERT_EQ(l1.ops.size(), want.size());
    EXPECT_EQ(l1.ops[6], (Op{'w', EV67_ADDR_PCTR_CTL, pctr_ctl(2, 0, 1)})) << "counter 0 unused: 0";
    EXPECT_EQ(l1.ops[7], (Op{'w', EV67_ADDR_IER_CM, pcen(2)}));
    EXPECT_EQ(l1.ops[8], (Op{'w', EV67_ADDR_I_CTL, i_ctl(0, 1)}));
    ev67_perf_destroy(d);
}

TEST(Ev67DrvReset, ClearsBothLatchStagesAndPalExitInterruptsOfAnOldSetup)
{
    ev67_params p = params();
    Logged l(&p);
    pmu_backend *r = l.ref;
    // An old setup: PCTR0 counts cycles from 2^20-1; PCTR1 at 2^20-1, disabled (parked:
    // the latch holds).  Step 1 carries; a rewrite moves it to S2 and, PCTR1 being at the
    // threshold, arms its PAL-exit interrupt; step 2 (PAL) carries again into S1.
    pmu_write(r, EV67_ADDR_PCTR_CTL, pctr_ctl(3, 0xfffff, 0xfffff));
    pmu_write(r, EV67_ADDR_IER_CM, pcen(3));
    pmu_write(r, EV67_ADDR_I_CTL, i_ctl(1, 0));
    ev67_cycle c = cycle(0);
    pmu_step(r, &c);
    pmu_write(r, EV67_ADDR_PCTR_CTL, pctr_ctl(3, 0xfffff, 0xfffff));
    c = cycle(1);
    pmu_step(r, &c);
    uint64_t o = l.obs(EV67_ADDR_OBS_INT);
    ASSERT_EQ(EV67_FGET(o, OBS_INT, S1), 1u) << "precondition: one write would leave S2 = 1";
    ASSERT_EQ(EV67_FGET(o, OBS_INT, S2), 1u);
    ASSERT_EQ(EV67_FGET(o, OBS_INT, PEXIT), 2u) << "precondition: a PAL exit would interrupt";

    const unsigned ev[] = {EV67_INSTRUCTIONS, EV67_CYCLES};
    ev67_perf *d = ev67_perf_create(l.backend(), ev, nullptr, 2, nullptr);
    ASSERT_NE(d, nullptr);
    o = l.obs(EV67_ADDR_OBS_INT);
    EXPECT_EQ(EV67_FGET(o, OBS_INT, S1), 0u);
    EXPECT_EQ(EV67_FGET(o, OBS_INT, S2), 0u);
    EXPECT_EQ(EV67_FGET(o, OBS_INT, REQ), 0u);
    EXPECT_EQ(EV67_FGET(o, OBS_INT, PEXIT), 0u);
    // Leaving PALmode and counting on: no interrupt from the old setup.
    for (int k = 0; k < 8; k++) {
        run(d, l, cycle(0));
        EXPECT_EQ(l.pmi(), 0) << "record " << k;
    }
    EXPECT_EQ(ev67_perf_get_stats(d)->interrupts, 0u);
    uint64_t n = 0;
    ASSERT_EQ(ev67_perf_read(d, 1, &n), 0);
    EXPECT_EQ(n, 8u) << "cycles since the reset";
    EXPECT_EQ(n, ev67_ref_total(r, 1));
    ev67_perf_destroy(d);
}

// ---- the handler ----

// CYCLES alone (counter 1, SL1 = 00) with the least period, 4: written 2^20-4, carry in
// step 4, request in step 6 (docs/ev67.md "step"), taken at record 7.
struct Cycles4 {
    ev67_params p;
    Logged l;
    ev67_perf *d;
    explicit Cycles4(unsigned race = 0) : p(params(1, race)), l(&p)
    {
        const unsigned ev[] = {EV67_CYCLES};
        const uint64_t per[] = {4};
        d = ev67_perf_create(l.backend(), ev, per, 1, nullptr);
    }
    ~Cycles4() { ev67_perf_destroy(d); }
};

TEST(Ev67DrvHandler, DisablesUpdatesSetsPeriodAccountsEnablesAcknowledges)
{
    Cycles4 t;
    for (int k = 1; k <= 6; k++) {
        EXPECT_EQ(t.l.pmi(), 0) << "before step " << k;
        run(t.d, t.l, cycle(0));
    }
    EXPECT_EQ(t.l.pmi(), 1) << "carry in step 4, request in step 6";
    t.l.ops.clear();
    run(t.d, t.l, cycle(0, 0x120008880ull));
    const std::vector<Op> want = {
        {'r', EV67_ADDR_ISUM, isum(2)},
        {'w', EV67_ADDR_I_CTL, i_ctl(0, 0)},
        {'r', EV67_ADDR_ISUM, isum(2)},
        {'r', EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 2)}, // steps 5 and 6 after the carry
        {'w', EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0xffffc)}, // left -2 + 4 = 2, clamped to 4
        {'w', EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0xffffc)}, // again: the latch is empty
        {'w', EV67_ADDR_I_CTL, i_ctl(0, 1)},
        {'w', EV67_ADDR_HW_INT_CLR, int_clr(2)},
    };
    EXPECT_EQ(t.l.ops, want);
    const ev67_perf_stats *st = ev67_perf_get_stats(t.d);
    EXPECT_EQ(st->interrupts, 1u);
    EXPECT_EQ(st->fired[0], 1u);
    EXPECT_EQ(st->samples[0], 1u);
    EXPECT_EQ(st->spurious, 0u);
    EXPECT_EQ(st->isum_zero, 0u);
    EXPECT_EQ(st->last_pc[0], 0x120008880ull) << "the interrupted record's pc";
    EXPECT_EQ(EV67_FGET(t.l.obs(EV67_ADDR_OBS_INT), OBS_INT, REQ), 0u);
    uint64_t n = 0;
    EXPECT_EQ(ev67_perf_read(t.d, 0, &n), 0);
    EXPECT_EQ(n, 7u);
    EXPECT_EQ(n, ev67_ref_total(t.l.ref, 1));
    EXPECT_EQ(ev67_perf_read(t.d, 1, &n), -EINVAL);
    EXPECT_EQ(ev67_perf_read(t.d, 0, nullptr), -EINVAL);
}

TEST(Ev67DrvHandler, IsumRaceReadIsRepeatedAClockLaterAndOred)
{
    Cycles4 t(1);
    for (int k = 1; k <= 6; k++)
        run(t.d, t.l, cycle(0));
    ASSERT_EQ(t.l.pmi(), 1);
    t.l.ops.clear();
    run(t.d, t.l, cycle(0));
    ASSERT_GE(t.l.ops.size(), 3u);
    EXPECT_EQ(t.l.ops[0], (Op{'r', EV67_ADDR_ISUM, 0})) << "the race: the step raised ISUM";
    EXPECT_EQ(t.l.ops[2], (Op{'r', EV67_ADDR_ISUM, isum(2)})) << "a clock later";
    const ev67_perf_stats *st = ev67_perf_get_stats(t.d);
    EXPECT_EQ(st->isum_zero, 1u);
    EXPECT_EQ(st->fired[0], 1u);
    EXPECT_EQ(st->samples[0], 1u);
}

TEST(Ev67DrvHandler, HeldOffInPalModeTakenAtTheFirstNonPalRecordExactly)
{
    Cycles4 t;
    for (int k = 1; k <= 3; k++)
        run(t.d, t.l, cycle(0));
    for (int k = 4; k <= 40; k++) {
        run(t.d, t.l, cycle(1));
        EXPECT_EQ(t.l.pmi(), 0) << "PAL record " << k;
    }
    EXPECT_EQ(ev67_perf_get_stats(t.d)->interrupts, 0u);
    run(t.d, t.l, cycle(0));
    EXPECT_EQ(t.l.pmi(), 1) << "the request waited in REQ";
    run(t.d, t.l, cycle(0));
    const ev67_perf_stats *st = ev67_perf_get_stats(t.d);
    EXPECT_EQ(st->interrupts, 1u);
    EXPECT_EQ(st->samples[0], 1u);
    uint64_t n = 0;
    ASSERT_EQ(ev67_perf_read(t.d, 0, &n), 0);
    EXPECT_EQ(n, 42u);
    EXPECT_EQ(n, ev67_ref_total(t.l.ref, 1));
    // The overshoot (37 cycles) is more than a period: the next period is a full one.
    EXPECT_EQ(EV67_FGET(t.l.obs(EV67_ADDR_OBS_CTR), OBS_CTR, PCTR1), 0xffffcu + 1u);
}

// CYCLES on counter 0 (period 16: carry in step 16) and MBOXREPLAY on counter 1 (period
// 4) with replay traps in steps first..first+3, so counter 1 carries in step first+3.
struct CyclesMbox {
    Logged l;
    ev67_perf *d;
    CyclesMbox()
    {
        const unsigned ev[] = {EV67_CYCLES, EV67_MBOXREPLAY};
        const uint64_t per[] = {16, 4};
        d = ev67_perf_create(l.backend(), ev, per, 2, nullptr);
    }
    ~CyclesMbox() { ev67_perf_destroy(d); }
    void steps(int from, int to, int first)
    {
        for (int k = from; k <= to; k++) {
            ev67_cycle c = cycle(0);
            c.mreplay = k >= first && k <= first + 3;
            run(d, l, c);
        }
    }
    void expect_exact()
    {
        for (unsigned i = 0; i < 2; i++) {
            uint64_t n = 0;
            ASSERT_EQ(ev67_perf_read(d, i, &n), 0);
            EXPECT_EQ(n, ev67_ref_total(l.ref, i)) << "event " << i;
        }
    }
};

TEST(Ev67DrvHandler, CarryThatTheHandlersWriteDropsIsStillAccounted)
{
    // Counter 1 carries in step 17: in S2 when counter 0's request is taken after step
    // 18; the handler's PCTR_CTL write shifts the latch and drops it.
    CyclesMbox t;
    t.steps(1, 18, 14);
    ASSERT_EQ(t.l.pmi(), 1);
    ASSERT_EQ(EV67_FGET(t.l.obs(EV67_ADDR_OBS_INT), OBS_INT, S2), 2u);
    t.steps(19, 30, 14); // counter 0's next carry is in step 32
    const ev67_perf_stats *st = ev67_perf_get_stats(t.d);
    EXPECT_EQ(st->interrupts, 1u) << "counter 1's request never comes";
    EXPECT_EQ(st->fired[0], 1u);
    EXPECT_EQ(st->fired[1], 0u);
    EXPECT_EQ(st->samples[0], 1u);
    EXPECT_EQ(st->samples[1], 1u) << "its period's end was seen in the values";
    EXPECT_EQ(ev67_ref_overflows(t.l.ref, 1), 1u);
    t.expect_exact();
}

TEST(Ev67DrvHandler, LatchBitTheHandlersFirstWriteMovesIsClearedByTheSecond)
{
    // Counter 1 carries in step 18: in S1 when the handler writes.  One write would move
    // it to S2 and deliver it in step 19, after its period was already reset: a stale
    // request that a period near 2^20-1 would take for a carry the values cannot show.
    // The second write empties the latch.
    CyclesMbox t;
    t.steps(1, 18, 15);
    ASSERT_EQ(EV67_FGET(t.l.obs(EV67_ADDR_OBS_INT), OBS_INT, S1), 2u);
    t.steps(19, 19, 15);
    EXPECT_EQ(EV67_FGET(t.l.obs(EV67_ADDR_OBS_INT), OBS_INT, S1), 0u);
    EXPECT_EQ(EV67_FGET(t.l.obs(EV67_ADDR_OBS_INT), OBS_INT, S2), 0u);
    t.steps(20, 30, 15);
    const ev67_perf_stats *st = ev67_perf_get_stats(t.d);
    EXPECT_EQ(st->interrupts, 1u) << "no stale request";
    EXPECT_EQ(st->spurious, 0u);
    EXPECT_EQ(st->fired[1], 0u);
    EXPECT_EQ(st->samples[0], 1u);
    EXPECT_EQ(st->samples[1], 1u) << "one period, one sample";
    t.expect_exact();
}

} // namespace
