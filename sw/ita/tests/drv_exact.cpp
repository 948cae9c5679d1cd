// drv_exact.cpp - the driver's 64-bit virtual counts are exact per process, on the
// reference model and on the RTL, over long workload runs with more than 10,000
// overflow interrupts and 1,000 context switches.
//
// The expected per-process totals do not reuse any of the driver's arithmetic: the
// reference model keeps, per physical counter, the 64-bit sum of every increment it
// applied (ita_ref_total).  The test reads it before and after every step and adds the
// difference to the process named by the record stepped.  Since the driver's switch
// happens before the first record of the incoming process and its service routine
// between records (neither counts), the sum of those differences over a process's
// records is exactly the events its context should have counted; over the records of
// a process the driver does not monitor it must be 0.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "sw/ita/ita_drv.h"
#include "drv_test_util.h"
#include "harness/ita/ita_family.h"
#include "stream/pmu_stream.h"

using namespace drv_test;

namespace {

// The workload: seed 24 with 4 processes switches about 750 times per million
// records (the test checks the numbers it needs rather than trusting this).
const uint64_t kSeed = 24;
const unsigned kProcs = 4;
const uint64_t kCycles = 1500000;

pmu_gen *workload()
{
    pmu_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = kSeed;
    o.cycles = kCycles;
    o.mode = PMU_GEN_WORKLOAD;
    o.nprocs = kProcs;
    return pmu_gen_create(&ita_dialect, &o, nullptr);
}

// The user processes of the workload, in order of first appearance (the idle task,
// pid 0, left out).
std::vector<uint16_t> workload_pids()
{
    std::vector<uint16_t> pids;
    std::set<uint16_t> seen;
    pmu_gen *g = workload();
    ita_cycle c;
    while (pmu_gen_next(g, &c))
        if (c.pid != 0 && seen.insert(c.pid).second)
            pids.push_back(c.pid);
    pmu_gen_destroy(g);
    return pids;
}

struct Truth {
    std::map<uint32_t, std::array<uint64_t, ITA_NCOUNTERS>> per_pid;
};

struct RunStats {
    ita_drv_stats st;
    uint64_t samples_seen = 0;
    uint64_t sample_bad_pid = 0;
};

void on_sample(void *arg, const ita_drv_sample *s)
{
    auto *p = static_cast<std::pair<RunStats *, std::set<uint32_t> *> *>(arg);
    p->first->samples_seen++;
    if (!p->second->count(s->pid))
        p->first->sample_bad_pid++;
}

// Runs the workload through the driver on `b`; `ref` is the reference whose totals
// give the truth (b itself, or the mirror beside the RTL).
RunStats run(pmu_backend *b, pmu_backend *ref, ita_drv_opts o,
             const std::map<uint16_t, ita_drv_config> &attach, Truth *truth, ita_drv **out)
{
    RunStats rs;
    std::set<uint32_t> monitored;
    for (const auto &a : attach)
        monitored.insert(a.first);
    std::pair<RunStats *, std::set<uint32_t> *> arg(&rs, &monitored);
    o.on_sample = on_sample;
    o.sample_arg = &arg;
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(b, &o, &err);
    EXPECT_NE(d, nullptr) << err.msg;
    if (!d)
        return rs;
    for (const auto &a : attach)
        EXPECT_EQ(ita_drv_attach(d, a.first, &a.second, &err), 0) << err.msg;
    pmu_gen *g = workload();
    ita_cycle c;
    pmu_state s;
    uint64_t before[ITA_NCOUNTERS];
    while (pmu_gen_next(g, &c)) {
        ita_drv_before_step(d, &c);
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
            before[k] = ita_ref_total(ref, ITA_FIRST_COUNTER + k);
        pmu_step(b, &c);
        pmu_snapshot(b, &s);
        auto &t = truth->per_pid[c.pid];
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
            t[k] += ita_ref_total(ref, ITA_FIRST_COUNTER + k) - before[k];
        ita_drv_after_step(d, &c, s.pmi);
    }
    pmu_gen_destroy(g);
    ita_drv_stop(d);
    rs.st = *ita_drv_get_stats(d);
    *out = d;
    return rs;
}

// Three of the four processes monitored, each with its own events: sampling counters
// with short periods (multi-increment events carry a remainder past the wrap), a
// counting-only counter, user and kernel levels, a threshold.
std::map<uint16_t, ita_drv_config> per_process_setup(ita_model m, const std::vector<uint16_t> &pids)
{
    std::map<uint16_t, ita_drv_config> a;
    ita_drv_config c0{}, c1{}, c2{};
    // The instruction events sit on PMC4/5, where Itanium wires them.
    add_counter(&c0, m, 0, ITA_EV_NOPS_RETIRED, 0x9, 0);
    add_counter(&c0, m, 1, ITA_EV_IA64_INST_RETIRED, 0x8, 97);
    add_counter(&c0, m, 2, ITA_EV_CPU_CYCLES, 0x9, 61);
    add_counter(&c0, m, 3, ITA_EV_LOADS_RETIRED, 0xf, 13);
    add_counter(&c1, m, 0, ITA_EV_IA64_INST_RETIRED, 0x9, 50);
    add_counter(&c1, m, 3, ITA_EV_CPU_CYCLES, 0x8, 0);
    add_counter(&c2, m, 0, ITA_EV_NOPS_RETIRED, 0x8, 7, 1);
    add_counter(&c2, m, 1, ITA_EV_CPU_CYCLES, 0x1, 40);
    a[pids.at(0)] = c0;
    a[pids.at(1)] = c1;
    a[pids.at(2)] = c2;
    return a;
}

void expect_exact(ita_drv *d, const Truth &truth, const std::map<uint16_t, ita_drv_config> &attach)
{
    unsigned checked = 0;
    for (const auto &t : truth.per_pid) {
        bool monitored = attach.count((uint16_t)t.first) != 0;
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
            if (!monitored) {
                EXPECT_EQ(t.second[k], 0u) << "pid " << t.first << " is not monitored, yet PMD"
                                           << ITA_FIRST_COUNTER + k << " counted in its time";
                continue;
            }
            uint64_t v = 0;
            ASSERT_EQ(ita_drv_read(d, t.first, k, &v), 0);
            EXPECT_EQ(v, t.second[k]) << "pid " << t.first << " PMD" << ITA_FIRST_COUNTER + k;
            checked += t.second[k] != 0;
        }
    }
    EXPECT_GE(checked, 8u) << "too few counters counted anything for the check to mean much";
}

void expect_long_run(const RunStats &rs, unsigned latency)
{
    EXPECT_GE(rs.st.overflows, 10000u);
    EXPECT_GE(rs.st.interrupts, 10000u);
    EXPECT_GE(rs.st.switches, 1000u);
    // With a latency, overflows are now and then still pending at a switch: they
    // travel with the saved context and are replayed at its next switch-in.
    if (latency > 0)
        EXPECT_GT(rs.st.replays, 0u) << "no overflow was pending at a switch: the replay path was not exercised";
    else
        EXPECT_EQ(rs.st.replays, 0u) << "with no latency nothing can be pending at a switch";
    EXPECT_EQ(rs.st.lost, 0u);
    EXPECT_EQ(rs.samples_seen, rs.st.samples);
    EXPECT_EQ(rs.sample_bad_pid, 0u);
}

class PerProcessOnReference : public ::testing::TestWithParam<std::tuple<ita_model, unsigned>> {};

TEST_P(PerProcessOnReference, CountsEqualPerProcessReferenceTotals)
{
    ita_model m = std::get<0>(GetParam());
    ita_params p = ita_params_default();
    p.model = m;
    pmu_backend *ref = ita_ref_create(&p);
    std::vector<uint16_t> pids = workload_pids();
    ASSERT_GE(pids.size(), 4u);
    auto attach = per_process_setup(m, pids);
    ita_drv_opts o = ita_drv_opts_default();
    o.latency = std::get<1>(GetParam());
    Truth truth;
    ita_drv *d = nullptr;
    RunStats rs = run(ref, ref, o, attach, &truth, &d);
    ASSERT_NE(d, nullptr);
    expect_long_run(rs, o.latency);
    expect_exact(d, truth, attach);
    EXPECT_GT(truth.per_pid.count(0), 0u) << "the idle task never ran";
    ita_drv_destroy(d);
    pmu_destroy(ref);
}

INSTANTIATE_TEST_SUITE_P(ModelsAndLatencies, PerProcessOnReference,
                         ::testing::Values(std::make_tuple(ITA_MODEL_ITANIUM2, 4u),
                                           std::make_tuple(ITA_MODEL_ITANIUM2, 0u),
                                           std::make_tuple(ITA_MODEL_ITANIUM2, 23u),
                                           std::make_tuple(ITA_MODEL_ITANIUM, 4u)));

// The same run with the RTL as the PMU the driver reads and writes.
TEST(PerProcessOnRtl, CountsEqualPerProcessReferenceTotals)
{
    ita_params p = ita_params_default();
    std::string why;
    RtlWithMirror pair(p, &why);
    ASSERT_NE(pair.rtl, nullptr) << why;
    std::vector<uint16_t> pids = workload_pids();
    ASSERT_GE(pids.size(), 4u);
    auto attach = per_process_setup(p.model, pids);
    ita_drv_opts o = ita_drv_opts_default();
    Truth truth;
    ita_drv *d = nullptr;
    RunStats rs = run(pair.backend(), pair.ref, o, attach, &truth, &d);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(pair.mismatches, 0u) << pair.first;
    expect_long_run(rs, o.latency);
    expect_exact(d, truth, attach);
    ita_drv_destroy(d);
}

// System-wide with per-process counts: every process has a context (the idle task
// too) and the sum over them is the physical counter's total.
TEST(SystemWideOnReference, PerProcessCountsAndTotalsAreExact)
{
    for (int dcr_pp = 0; dcr_pp <= 1; dcr_pp++) {
        pmu_backend *ref = ita_ref_create(nullptr);
        ita_drv_opts o = ita_drv_opts_default();
        o.mode = ITA_DRV_SYSTEM_WIDE;
        o.per_process = 1;
        o.dcr_pp = dcr_pp;
        add_counter(&o.config, ITA_MODEL_ITANIUM2, 0, ITA_EV_CPU_CYCLES, 0x9, 53);
        add_counter(&o.config, ITA_MODEL_ITANIUM2, 1, ITA_EV_IA64_INST_RETIRED, 0x1, 31);
        add_counter(&o.config, ITA_MODEL_ITANIUM2, 2, ITA_EV_L2_REFERENCES, 0xf, 0);
        Truth truth;
        ita_drv *d = nullptr;
        RunStats rs = run(ref, ref, o, {}, &truth, &d);
        ASSERT_NE(d, nullptr);
        EXPECT_GE(rs.st.overflows, 10000u);
        EXPECT_GE(rs.st.switches, 1000u);
        EXPECT_EQ(rs.st.lost, 0u);
        ASSERT_EQ(ita_drv_ncontexts(d), truth.per_pid.size());
        for (const auto &t : truth.per_pid)
            for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
                uint64_t v = 0;
                ASSERT_EQ(ita_drv_read(d, t.first, k, &v), 0) << "no context for pid " << t.first;
                EXPECT_EQ(v, t.second[k]) << "pid " << t.first << " PMD" << ITA_FIRST_COUNTER + k;
            }
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
            EXPECT_EQ(ita_drv_total(d, k), ita_ref_total(ref, ITA_FIRST_COUNTER + k));
        // The idle task runs where a switch left an interruption handler, with PSR.pp =
        // DCR.pp: its kernel instructions (PMD5, plm 1) count only with DCR.pp = 1.
        uint64_t idle = 0;
        ASSERT_EQ(ita_drv_read(d, 0, 1, &idle), 0);
        if (dcr_pp)
            EXPECT_GT(idle, 0u);
        else
            EXPECT_EQ(idle, 0u);
        ita_drv_destroy(d);
        pmu_destroy(ref);
    }
}

// System-wide without the breakdown: one context whose counts equal the reference's
// totals, on the RTL.
TEST(SystemWideOnRtl, TotalsEqualReference)
{
    ita_params p = ita_params_default();
    std::string why;
    RtlWithMirror pair(p, &why);
    ASSERT_NE(pair.rtl, nullptr) << why;
    ita_drv_opts o = ita_drv_opts_default();
    o.mode = ITA_DRV_SYSTEM_WIDE;
    add_counter(&o.config, p.model, 0, ITA_EV_IA64_INST_RETIRED, 0xf, 101);
    add_counter(&o.config, p.model, 3, ITA_EV_CPU_CYCLES, 0x8, 0);
    Truth truth;
    ita_drv *d = nullptr;
    RunStats rs = run(pair.backend(), pair.ref, o, {}, &truth, &d);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(pair.mismatches, 0u) << pair.first;
    EXPECT_GE(rs.st.overflows, 10000u);
    ASSERT_EQ(ita_drv_ncontexts(d), 1u);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        uint64_t v = 0;
        ASSERT_EQ(ita_drv_read(d, ITA_DRV_ALL_PIDS, k, &v), 0);
        EXPECT_EQ(v, ita_ref_total(pair.ref, ITA_FIRST_COUNTER + k)) << "PMD" << ITA_FIRST_COUNTER + k;
    }
    ita_drv_destroy(d);
}

}  // namespace
