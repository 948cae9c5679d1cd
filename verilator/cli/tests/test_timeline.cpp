// test_timeline.cpp - the per-column reducer of --plot (verilator/cli/timeline.c): a column
// keeps the minimum and maximum of every sample that fell in it, the columns never outgrow
// their number (neighbours merge, a column covers twice the cycles), and the marks
// (interrupts, wraps, frozen, privilege levels) survive the merges.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cli/pmu_plot.h"

namespace {

struct Timeline {
    pmu_timeline *t;
    Timeline(unsigned nseries, unsigned columns) : t(pmu_timeline_new(nseries, columns)) {}
    ~Timeline() { pmu_timeline_free(t); }
    pmu_timeline_view view() const
    {
        pmu_timeline_view v;
        pmu_timeline_get(t, &v);
        return v;
    }
};

TEST(Timeline, RefusesBadShapes)
{
    EXPECT_EQ(pmu_timeline_new(0, 8), nullptr);
    EXPECT_EQ(pmu_timeline_new(PMU_TIMELINE_MAX_SERIES + 1, 8), nullptr);
    EXPECT_EQ(pmu_timeline_new(1, 7), nullptr); // odd: columns merge in pairs
}

TEST(Timeline, ACycleAColumnWhileTheRunFits)
{
    Timeline tl(2, 8);
    for (uint64_t c = 0; c < 8; c++) {
        const uint64_t v[2] = {10 * c, 100 - c};
        pmu_timeline_feed(tl.t, c, v);
    }
    pmu_timeline_view v = tl.view();
    ASSERT_EQ(v.per_column, 1u);
    ASSERT_EQ(v.used, 8u);
    for (unsigned c = 0; c < 8; c++) {
        EXPECT_EQ(v.min[c * 2], 10u * c);
        EXPECT_EQ(v.max[c * 2], 10u * c);
        EXPECT_EQ(v.min[c * 2 + 1], 100u - c);
    }
    EXPECT_EQ(v.last, 7u);
}

// Samples at each boundary, as the tap feeds them: a long run stays in `columns`
// columns, each the minimum and maximum of the samples of its cycles.
TEST(Timeline, ALongRunMergesNeighbours)
{
    const unsigned columns = 16;
    Timeline tl(1, columns);
    const uint64_t cycles = 100000;
    std::vector<uint64_t> fed; // cycles sampled
    for (uint64_t c = 0; c <= cycles; c = pmu_timeline_next(tl.t, c)) {
        const uint64_t v = (c * 7) % 1000; // wraps every 1000/7 cycles
        pmu_timeline_feed(tl.t, c, &v);
        fed.push_back(c);
    }
    pmu_timeline_view v = tl.view();
    EXPECT_LE(v.used, columns);
    EXPECT_GE(v.used, columns / 2);
    EXPECT_GE(v.used * v.per_column, cycles);
    // samples stay few: about `columns` for each doubling of the run
    EXPECT_LT(fed.size(), 2u * columns * 20);
    // every column holds the minimum and maximum of the samples in its cycles
    for (unsigned c = 0; c < v.used; c++) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint64_t f : fed)
            if (f / v.per_column == c) {
                const uint64_t x = (f * 7) % 1000;
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
        ASSERT_TRUE(v.seen[c]) << "column " << c;
        EXPECT_EQ(v.min[c], lo) << "column " << c;
        EXPECT_EQ(v.max[c], hi) << "column " << c;
    }
}

TEST(Timeline, MarksSurviveMerges)
{
    Timeline tl(2, 4);
    const uint64_t zero[2] = {0, 0};
    pmu_timeline_feed(tl.t, 0, zero);
    pmu_timeline_interrupt(tl.t, 1);
    pmu_timeline_interrupt(tl.t, 2);
    pmu_timeline_wrap(tl.t, 3, 1);
    pmu_timeline_frozen(tl.t, 3);
    pmu_timeline_level(tl.t, 0, 3);
    pmu_timeline_level(tl.t, 2, 0);
    pmu_timeline_feed(tl.t, 15, zero); // 4 columns of 4 cycles: one merge of two
    pmu_timeline_view v = tl.view();
    ASSERT_EQ(v.per_column, 4u);
    EXPECT_EQ(v.interrupts[0], 2u);
    EXPECT_EQ(v.wraps[0], 1u << 1);
    EXPECT_EQ(v.frozen[0], 1u);
    EXPECT_EQ(v.levels[0], (1u << 3) | 1u);
    EXPECT_EQ(v.interrupts[1] + v.interrupts[2] + v.interrupts[3], 0u);
    EXPECT_FALSE(v.seen[1]);
    EXPECT_TRUE(v.seen[3]);
}

TEST(Timeline, NextIsTheNextBoundary)
{
    Timeline tl(1, 4);
    EXPECT_EQ(pmu_timeline_next(tl.t, 0), 1u);
    const uint64_t x = 5;
    pmu_timeline_feed(tl.t, 9, &x); // 4 columns of 4 cycles
    EXPECT_EQ(pmu_timeline_next(tl.t, 9), 12u);
    EXPECT_EQ(pmu_timeline_next(tl.t, 12), 16u);
}

} // namespace
