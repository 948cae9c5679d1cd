// drv_ev67_periods.cpp - the 21264/EV67 perf driver's counts are exact at every sampling
// period, the largest included: 2^20-1, Linux's default, where the counter restarts at 1
// and has counted past it again when the handler runs, so the carry shows only in the
// interrupt (docs/ev67-perf.md, "What is exact and why").  Every period from 2^20-1 down
// to 2^20-25 (the zone in which a handler's delay can hide a carry), then a sample of
// periods down to the least (pmc_left), each run for at least 10 overflows; on the
// reference model, under the ISUM race and without the read quirk, and on the RTL in
// lock-step with the model.  The records are drawn from a printed seed: retire counts and
// short PALmode stretches that hold the interrupt off.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "harness/ev67/ev67_family.h"
#include "harness/ev67/ev67_rtl.h"
#include "ev67_perf_test.h"
#include "harness/pmu_cosim.h"

using namespace ev67perf;

namespace {

const uint64_t kSeed = 0x67f00dull;
const uint32_t kTop = (1u << 20) - 1;
const uint64_t kOverflows = 10;

// A splitmix64 stream: the records of a run depend on the seed alone.
struct Draw {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    unsigned below(unsigned n) { return (unsigned)(next() % n); }
};

// Records for one run: `lo`..8 retires a record (tags in order), a replay trap and a
// Bcache miss now and then, and a PALmode stretch of 1..40 records every few thousand;
// one draw a record, its bits sliced.
struct Records {
    Draw d;
    unsigned lo;
    uint32_t tag = 1;
    unsigned pal_left = 0;
    ev67_cycle c = cycle(0);
    Records(uint64_t seed, unsigned lo_retires) : d{seed}, lo(lo_retires) {}
    const ev67_cycle &next()
    {
        uint64_t r = d.next();
        c.pc = 0x120004000ull + 4 * (r & 1023);
        c.pal = pal_left != 0;
        if (pal_left)
            pal_left--;
        else if ((r >> 10 & 4095) == 0)
            pal_left = 1 + (unsigned)(r >> 22 & 63) % 40;
        c.nretire = (uint8_t)(lo + (unsigned)(r >> 28 & 255) % (9 - lo));
        for (unsigned i = 0; i < c.nretire; i++)
            c.retire[i] = tag++;
        c.mreplay = r >> 36 & 1;
        c.bcmiss = r >> 37 & 1;
        return c;
    }
};

struct PerfRun {
    std::vector<unsigned> events;
    std::vector<uint64_t> periods;
    unsigned lo_retires; // the least retires a record: counter 0's pace
};

std::string describe(const PerfRun &r, const ev67_params &p, const char *backend)
{
    std::string s = std::string(backend) + ":";
    for (size_t i = 0; i < r.events.size(); i++)
        s += std::string(" ") + ev67_perf_event_name(r.events[i]) + "/" + std::to_string(r.periods[i]);
    return s + " quirk " + std::to_string(p.read_quirk) + " race " + std::to_string(p.isum_race);
}

// Counter n's carry made but not yet taken by the handler (in the latch or requested):
// the one carry a read may lack, at a period whose carry the values cannot show.
bool in_flight(pmu_backend *ref, unsigned n)
{
    uint64_t obs = pmu_read(ref, EV67_ADDR_OBS_INT);
    return ((EV67_FGET(obs, OBS_INT, S1) | EV67_FGET(obs, OBS_INT, S2) | EV67_FGET(obs, OBS_INT, REQ)) >> n) & 1u;
}

// Runs the driver on b (whose reference model is ref) until every counter in use has
// overflowed kOverflows times; reads the counts every few thousand records and at the end.
void run_until_overflows(pmu_backend *b, pmu_backend *ref, const PerfRun &r, uint64_t seed)
{
    pmu_err err = {PMU_OK, ""};
    ev67_perf *d = ev67_perf_create(b, r.events.data(), r.periods.data(), (unsigned)r.events.size(), &err);
    ASSERT_NE(d, nullptr) << err.msg;
    const ev67_perf_plan *plan = ev67_perf_get_plan(d);
    Records recs(seed, r.lo_retires);
    Draw when{seed ^ 0x5eadull};
    uint64_t k = 0, next_read = 1 + when.below(20000), late = 0;
    unsigned bad = 0;
    auto done = [&] {
        if (k % 1024)
            return false;
        for (unsigned i = 0; i < plan->nevents; i++)
            if (ev67_ref_overflows(ref, plan->pmc[i]) < kOverflows)
                return false;
        return true;
    };
    auto check = [&](const char *when_read) {
        for (unsigned i = 0; i < plan->nevents; i++) {
            unsigned n = plan->pmc[i];
            uint64_t v = 0, want = ev67_ref_total(ref, n);
            ASSERT_EQ(ev67_perf_read(d, i, &v), 0);
            if (v + (1u << 20) == want && in_flight(ref, n)) {
                late++; // added by the handler when the interrupt comes
                continue;
            }
            if (v != want && bad++ < 3)
                ADD_FAILURE() << when_read << " read after record " << k << ": "
                              << ev67_perf_event_name(r.events[i]) << " on PCTR" << n << " counted " << v
                              << ", the model's total is " << want << " (" << ev67_ref_overflows(ref, n)
                              << " overflows)";
        }
    };
    const uint64_t limit = 40000000; // a bound, never reached by a correct run
    while (!done() && k < limit) {
        const ev67_cycle &c = recs.next();
        ev67_perf_before(d, &c);
        pmu_step(b, &c);
        ev67_perf_after(d, pmu_pmi(b));
        if (++k == next_read) {
            check("a");
            next_read = k + 1 + when.below(200000);
        }
    }
    check("the last");
    EXPECT_LT(k, limit);
    EXPECT_EQ(pmu_cosim_mismatches(b), 0u);
    const ev67_perf_stats *st = ev67_perf_get_stats(d);
    for (unsigned i = 0; i < plan->nevents; i++) {
        uint64_t ovf = ev67_ref_overflows(ref, plan->pmc[i]);
        // Every carry is one sample; the last may still be on its way.
        EXPECT_LE(st->samples[i], ovf) << ev67_perf_event_name(r.events[i]);
        EXPECT_LE(ovf, st->samples[i] + 1) << ev67_perf_event_name(r.events[i]);
    }
    EXPECT_EQ(st->spurious, 0u) << "the handler leaves the latch empty: no stale request";
    ev67_perf_destroy(d);
}

void on_reference(const PerfRun &r, const ev67_params &p, uint64_t seed)
{
    SCOPED_TRACE(describe(r, p, "reference"));
    pmu_err err = {PMU_OK, ""};
    pmu_backend *ref = ev67_ref_new(&p, &err);
    ASSERT_NE(ref, nullptr) << err.msg;
    run_until_overflows(ref, ref, r, seed);
    pmu_destroy(ref);
}

// The lock-step pair: the driver writes and steps both, every clock compared; its counts
// are checked against the pair's reference.  false when no Verilated variant has p.
bool on_rtl(const PerfRun &r, const ev67_params &p, uint64_t seed)
{
    SCOPED_TRACE(describe(r, p, "RTL in lock-step"));
    pmu_err err = {PMU_OK, ""};
    pmu_backend *rtl = ev67_rtl_new(&p, &err);
    if (!rtl) {
        EXPECT_EQ(err.code, PMU_E_UNSUPPORTED) << err.msg;
        return false;
    }
    pmu_backend *pair = pmu_cosim_create(&pmu_family_alpha21264, ev67_ref_new(&p, nullptr), rtl, nullptr, nullptr);
    EXPECT_NE(pair, nullptr);
    if (!pair)
        return false;
    run_until_overflows(pair, pmu_cosim_ref(pair), r, seed);
    if (pmu_cosim_mismatches(pair)) {
        char buf[4096];
        pmu_cosim_format(pmu_cosim_first(pair), buf, sizeof buf);
        ADD_FAILURE() << buf;
    }
    pmu_destroy(pair);
    return true;
}

// Counter 0's periods: every one from the top down to 2^20-25 (a handler three records
// after the carry finds up to 24 more), a few where only a PALmode stretch hides it, then
// down to the least.
std::vector<uint64_t> pctr0_periods()
{
    std::vector<uint64_t> v;
    for (uint32_t p = kTop; p >= kTop - 24; p--)
        v.push_back(p);
    for (uint64_t p : {kTop - 32, kTop - 40, kTop - 320, kTop - 1000, 1u << 19, 123457u, 1u << 12, 257u, 17u, 16u, 1u})
        v.push_back(p);
    return v;
}

std::vector<ev67_params> all_params()
{
    return {params(1, 0), params(1, 1), params(0, 0), params(0, 1)};
}

TEST(Ev67DrvEveryPeriod, InstructionsOnCounter0AtEveryPeriodNearTheTopAndDownToTheLeast)
{
    std::printf("[ seed     ] %" PRIu64 " (records drawn from it and the period; replay: this test)\n", kSeed);
    // The parameters in turn, so that each sees periods throughout the range; the top
    // period twice.
    const std::vector<ev67_params> ps = all_params();
    std::vector<uint64_t> pers = pctr0_periods();
    pers.push_back(kTop);
    for (size_t i = 0; i < pers.size(); i++) {
        // Most retires at the large periods (a carry every ~140k records at the top).
        unsigned lo = pers[i] >= 4096 ? 7 : 0;
        on_reference(PerfRun{{EV67_INSTRUCTIONS}, {pers[i]}, lo}, ps[i % ps.size()], kSeed + pers[i]);
    }
}

// Counter 1 counts at most one a record: CYCLES at the periods whose carry the values
// cannot show (the handler runs about three records after it), paired with INSTRUCTIONS
// on counter 0 near the top, so each run checks both counters.
TEST(Ev67DrvEveryPeriod, CyclesOnCounter1AtTheTopPeriodsPairedWithInstructions)
{
    std::printf("[ seed     ] %" PRIu64 "\n", kSeed);
    // (CYCLES at 2^20-1 with the defaults: the RTL test's last run, whose pair holds the model.)
    on_reference(PerfRun{{EV67_CYCLES, EV67_INSTRUCTIONS}, {kTop - 1, kTop - 20}, 0}, params(0, 1), kSeed + 1);
    on_reference(PerfRun{{EV67_INSTRUCTIONS, EV67_CYCLES}, {kTop, kTop - 2}, 0}, params(1, 1), kSeed + 2);
    // The least periods and others on counter 1, with its other events.
    for (const ev67_params &p : all_params()) {
        on_reference(PerfRun{{EV67_CYCLES, EV67_MBOXREPLAY}, {16, 4}, 0}, p, kSeed);
        on_reference(PerfRun{{EV67_INSTRUCTIONS, EV67_BCACHEMISS}, {kTop, 5}, 6}, p, kSeed);
        on_reference(PerfRun{{EV67_CYCLES, EV67_MBOXREPLAY}, {65537, 40000}, 0}, p, kSeed);
    }
}

// The same driver on the RTL in lock-step: the top period of counter 0 on every
// Verilated variant, and counter 1's top period once.
TEST(Ev67DrvEveryPeriod, OnTheRtlInLockStepAtTheTopPeriods)
{
    std::printf("[ seed     ] %" PRIu64 "\n", kSeed);
    unsigned ran = 0;
    for (const ev67_params &p : all_params())
        ran += on_rtl(PerfRun{{EV67_INSTRUCTIONS}, {kTop}, 6}, p, kSeed);
    EXPECT_GE(ran, 2u) << "the default variant and the one without the read quirk";
    on_rtl(PerfRun{{EV67_INSTRUCTIONS, EV67_CYCLES}, {kTop - 1, kTop}, 0}, params(1, 0), kSeed);
}

} // namespace
