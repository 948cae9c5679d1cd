// drv_ev67_exact.cpp - the 21264/EV67 perf driver's counts are exact: on the reference
// model, under generated ev67 streams (workload and random, several seeds, printed), for
// every single event and every allowed pair in both orders, with the least periods (an
// interrupt every few dozen records) and larger ones, the driver's 64-bit count of each
// event equals the model's total for its counter (ev67_ref_total) at points during the
// run and at the end, and every carry is one sample (docs/ev67-perf.md).  The same under
// the ISUM read race, without the read quirk, and without the parked-counter block.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "ev67_perf_test.h"

using namespace ev67perf;

namespace {

const uint64_t kSeeds[] = {1, 0x5eed67ull, 20240611ull};
const uint64_t kRecords = 12000;

struct Set {
    std::vector<unsigned> events;
};

const Set kSets[] = {
    {{EV67_CYCLES}},
    {{EV67_INSTRUCTIONS}},
    {{EV67_BCACHEMISS}},
    {{EV67_MBOXREPLAY}},
    {{EV67_INSTRUCTIONS, EV67_CYCLES}},
    {{EV67_CYCLES, EV67_INSTRUCTIONS}},
    {{EV67_INSTRUCTIONS, EV67_BCACHEMISS}},
    {{EV67_BCACHEMISS, EV67_INSTRUCTIONS}},
    {{EV67_CYCLES, EV67_MBOXREPLAY}},
    {{EV67_MBOXREPLAY, EV67_CYCLES}},
};

std::string name(const Set &s)
{
    std::string n;
    for (unsigned e : s.events)
        n += std::string(n.empty() ? "" : ",") + ev67_perf_event_name(e);
    return n;
}

struct Totals {
    uint64_t samples[EV67_PERF_NEVENT_IDS + 1] = {}; // by event id
};

// One run; returns what it saw (for the coverage checks).
Totals run_exact(const Set &set, const uint64_t *periods, uint64_t seed, pmu_gen_mode mode,
                 const ev67_params &p)
{
    Totals t;
    std::string what = name(set) + " seed " + std::to_string(seed) +
                       (mode == PMU_GEN_RANDOM ? " random" : " workload") + " quirk " +
                       std::to_string(p.read_quirk) + " race " + std::to_string(p.isum_race) +
                       " park " + std::to_string(p.park_block) + " periods " +
                       std::to_string(periods[0]) + "," + std::to_string(periods[1]);
    SCOPED_TRACE(what);
    pmu_err err = {PMU_OK, ""};
    pmu_backend *b = ev67_ref_new(&p, &err);
    EXPECT_NE(b, nullptr) << err.msg;
    if (!b)
        return t;
    ev67_perf *d = ev67_perf_create(b, set.events.data(), periods, (unsigned)set.events.size(), &err);
    EXPECT_NE(d, nullptr) << err.msg;
    pmu_gen_opts o = {};
    o.seed = seed;
    o.cycles = kRecords;
    o.mode = mode;
    pmu_gen *g = pmu_gen_create(&pmu_dialect_ev67, &o, &err);
    EXPECT_NE(g, nullptr) << err.msg;
    if (!d || !g) {
        pmu_gen_destroy(g);
        ev67_perf_destroy(d);
        pmu_destroy(b);
        return t;
    }
    const ev67_perf_plan *plan = ev67_perf_get_plan(d);
    ev67_cycle c;
    pmu_state s;
    uint64_t k = 0;
    unsigned mismatches = 0;
    while (pmu_gen_next(g, &c) == 1) {
        ev67_perf_before(d, &c);
        pmu_step(b, &c);
        pmu_snapshot(b, &s);
        ev67_perf_after(d, s.pmi);
        // A read now and then, as a user's read() would: it must not disturb the rest.
        if (++k % 997 == 0 || k == kRecords) {
            for (unsigned i = 0; i < plan->nevents; i++) {
                uint64_t n = 0;
                EXPECT_EQ(ev67_perf_read(d, i, &n), 0);
                if (n != ev67_ref_total(b, plan->pmc[i]) && mismatches++ < 3)
                    ADD_FAILURE() << "record " << k << ": " << ev67_perf_event_name(set.events[i])
                                  << " count " << n << ", model total "
                                  << ev67_ref_total(b, plan->pmc[i]);
            }
        }
    }
    EXPECT_EQ(k, kRecords);
    const ev67_perf_stats *st = ev67_perf_get_stats(d);
    unsigned used = 0;
    for (unsigned i = 0; i < plan->nevents; i++) {
        unsigned n = plan->pmc[i];
        used |= 1u << n;
        uint64_t ovf = ev67_ref_overflows(b, n);
        // Every carry is a period's end, sampled at the next handler; the last may be
        // still on its way at the end of the stream.
        EXPECT_LE(st->samples[i], ovf) << ev67_perf_event_name(set.events[i]);
        EXPECT_LE(ovf, st->samples[i] + 1) << ev67_perf_event_name(set.events[i]);
        t.samples[set.events[i]] += st->samples[i];
    }
    for (unsigned n = 0; n < EV67_NCOUNTERS; n++) {
        if (!(used & (1u << n))) {
            EXPECT_EQ(ev67_ref_total(b, n), 0u) << "counter " << n << " is not in use";
        }
    }
    EXPECT_EQ(st->records, kRecords);
    pmu_gen_destroy(g);
    ev67_perf_destroy(d);
    pmu_destroy(b);
    return t;
}

void run_all(const ev67_params &p, const std::vector<std::vector<uint64_t>> &period_sets)
{
    Totals all;
    for (uint64_t seed : kSeeds) {
        std::printf("[ seed     ] %llu\n", (unsigned long long)seed);
        for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM})
            for (const Set &set : kSets)
                for (const auto &per : period_sets) {
                    Totals t = run_exact(set, per.data(), seed, mode, p);
                    for (unsigned id = 1; id <= EV67_PERF_NEVENT_IDS; id++)
                        all.samples[id] += t.samples[id];
                }
    }
    // The least periods give many overflows: the runs exercise the handler for each event.
    for (unsigned id = 1; id <= EV67_PERF_NEVENT_IDS; id++)
        EXPECT_GE(all.samples[id], 100u) << ev67_perf_event_name(id);
}

TEST(Ev67DrvExact, CountsEqualTheModelsTotalsForEveryPairAndSmallPeriods)
{
    run_all(params(), {{1, 1}, {37, 5}, {1000, 64}});
}

TEST(Ev67DrvExact, UnderTheIsumRace)
{
    run_all(params(1, 1, 1), {{1, 1}, {50, 7}});
}

TEST(Ev67DrvExact, WithoutReadQuirkOrParkBlock)
{
    run_all(params(0, 0, 0), {{1, 1}});
    run_all(params(1, 0, 0), {{23, 4}});
}

} // namespace
