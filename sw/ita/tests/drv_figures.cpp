// drv_figures.cpp - the monitor set-ups of ITA-PRM §6.1.3.2,
// Figures 6-6 (single process), 6-7 (multiple processes) and 6-8 (system wide), on
// the reference model and the RTL.
//
// A hand-made stream runs processes A, B and C: user code, a system call, a `rum`/`sum`
// pair in A, a `sum` attempt in C, and timer interrupts whose handlers switch
// processes half-way.  Every record is one NORMAL cycle, so CPU_CYCLES counts records
// and the expected counts follow from the figures' rules applied to the record tags
// the builder keeps (process, privilege level, inside an interruption handler, A's
// own PSR.up off).  After every step the test also checks PSR itself: up set only
// while a monitored process runs (6-6, 6-7), pp set outside handlers when DCR.pp = 0
// (6-8).
//
// Sources: docs/sources.md.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "sw/ita/ita_drv.h"
#include "drv_test_util.h"

using namespace drv_test;

namespace {

const uint16_t A = 101, B = 102, C = 103;

struct Tag {
    uint16_t pid;
    uint8_t cpl;
    bool handler;  // entry record through the last handler record (not the rfi's return)
    bool a_off;    // A's own PSR.up is 0 (between its rum and its sum)
};

struct Scenario {
    StreamBuilder sb;
    std::vector<Tag> tags;

    void tag_from(size_t first, bool handler_span)
    {
        for (size_t i = first; i < sb.recs.size(); i++) {
            const ita_cycle &c = sb.recs[i];
            bool in_handler = handler_span && c.intr != ITA_INTR_RETURN;
            tags.push_back({c.pid, c.cpl, in_handler, false});
        }
    }
    void user(unsigned n)
    {
        size_t f = sb.recs.size();
        sb.user(n);
        tag_from(f, false);
    }
    void interruption(unsigned n, int switch_to = -1)
    {
        size_t f = sb.recs.size();
        sb.interruption(n, switch_to);
        tag_from(f, true);
    }
    // n user records of the running process with its own PSR.up written to `up` by
    // the first one (rum / sum).
    void user_writing_up(unsigned n, bool up, bool a_off)
    {
        size_t f = sb.recs.size();
        sb.user(n);
        sb.recs[f].up_we = 1;
        sb.recs[f].up = up;
        tag_from(f, false);
        for (size_t i = f; i < tags.size(); i++)
            tags[i].a_off = a_off;
    }

    Scenario()
    {
        sb.pid = A;
        user(50);
        interruption(10);        // a system call, A stays
        user(30);
        user_writing_up(12, false, true);  // rum: A's own monitoring off
        user_writing_up(20, true, false);  // sum: on again
        interruption(12, B);     // timer: switch to B
        user(40);
        interruption(8, C);
        user_writing_up(15, true, false);  // C tries `sum`
        interruption(10, A);
        user(25);
        interruption(6, B);
        user(15);
        interruption(6, C);
        user(9);
        interruption(14, A);
        user(10);
    }

    uint64_t expected(uint16_t pid, const std::function<bool(const Tag &)> &counts) const
    {
        uint64_t n = 0;
        for (const Tag &t : tags)
            n += t.pid == pid && counts(t);
        return n;
    }
};

enum class Backend { Ref, Rtl };

class Figures : public ::testing::TestWithParam<Backend> {
protected:
    pmu_backend *b = nullptr;
    void SetUp() override
    {
        ita_params p = ita_params_default();
        if (GetParam() == Backend::Ref) {
            b = ita_ref_create(&p);
        } else {
            char why[256] = "";
            b = ita_rtl_create(&p, why, sizeof why);
            ASSERT_NE(b, nullptr) << why;
        }
    }
    void TearDown() override { pmu_destroy(b); }

    // Runs the scenario; `psr_check(tag, psr)` is called after every step.
    ita_drv *run(const Scenario &s, const ita_drv_opts &o, const std::vector<uint16_t> &attach,
                 const std::function<void(const Tag &, uint64_t)> &psr_check)
    {
        pmu_err err = {PMU_OK, ""};
        ita_drv *d = ita_drv_create(b, &o, &err);
        EXPECT_NE(d, nullptr) << err.msg;
        if (!d)
            return nullptr;
        for (uint16_t pid : attach)
            EXPECT_EQ(ita_drv_attach(d, pid, nullptr, &err), 0) << err.msg;
        for (size_t i = 0; i < s.sb.recs.size(); i++) {
            ita_cycle c = s.sb.recs[i];
            ita_drv_step(d, &c);
            psr_check(s.tags[i], pmu_read(b, vis(ITA_VIS_PSR)));
        }
        ita_drv_stop(d);
        EXPECT_EQ(ita_drv_get_stats(d)->lost, 0u);
        return d;
    }
};

uint64_t count_of(ita_drv *d, uint32_t pid)
{
    uint64_t v = ~0ull;
    EXPECT_EQ(ita_drv_read(d, pid, 0, &v), 0) << "no context for pid " << pid;
    return v;
}

bool up_of(uint64_t psr) { return ITA_FGET(psr, PSR, UP); }
bool pp_of(uint64_t psr) { return ITA_FGET(psr, PSR, PP); }

// ITA-PRM Figure 6-6: PMC.pm = 0, PMC.plm = 1000, DCR.pp = 0; PSR.up = 1 in process A only.
TEST_P(Figures, SingleProcessMonitor)
{
    Scenario s;
    ita_drv_opts o = ita_drv_opts_default();
    add_counter(&o.config, ITA_MODEL_ITANIUM2, 0, ITA_EV_CPU_CYCLES, 0x8, 0);
    unsigned bad_psr = 0;
    ita_drv *d = run(s, o, {A}, [&](const Tag &t, uint64_t psr) {
        bool want_up = t.pid == A && !t.a_off;
        bad_psr += up_of(psr) != want_up || pp_of(psr);
    });
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(bad_psr, 0u) << "PSR.up must be 1 exactly while A runs with its own monitoring on";
    uint64_t want = s.expected(A, [](const Tag &t) { return t.cpl == 3 && !t.a_off; });
    EXPECT_EQ(count_of(d, A), want);
    EXPECT_GT(want, 100u);
    EXPECT_EQ(ita_drv_ncontexts(d), 1u);  // B and C have no context
    EXPECT_EQ(pmu_read(b, vis(ITA_VIS_DCR)), 0u);
    uint64_t pmc4 = pmu_read(b, pmc(0));
    EXPECT_EQ(ITA_FGET(pmc4, PMC_GEN, PM), 0u);
    EXPECT_EQ(ITA_FGET(pmc4, PMC_GEN, PLM), 0x8u);
    ita_drv_destroy(d);
}

// ITA-PRM Figure 6-7: PMC.pm = 0, PMC.plm = 1001, DCR.pp = 0; PSR.up = 1 in A and B.  Their
// kernel time counts (handlers included: an interruption does not change PSR.up), C's
// does not, even when C executes `sum`.
TEST_P(Figures, MultipleProcessMonitor)
{
    Scenario s;
    ita_drv_opts o = ita_drv_opts_default();
    add_counter(&o.config, ITA_MODEL_ITANIUM2, 0, ITA_EV_CPU_CYCLES, 0x9, 0);
    unsigned bad_psr = 0;
    ita_drv *d = run(s, o, {A, B}, [&](const Tag &t, uint64_t psr) {
        bool want_up = (t.pid == A && !t.a_off) || t.pid == B;
        bad_psr += up_of(psr) != want_up;
    });
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(bad_psr, 0u);
    uint64_t want_a = s.expected(A, [](const Tag &t) { return !t.a_off; });
    uint64_t want_b = s.expected(B, [](const Tag &) { return true; });
    EXPECT_EQ(count_of(d, A), want_a);
    EXPECT_EQ(count_of(d, B), want_b);
    EXPECT_GT(s.expected(A, [](const Tag &t) { return t.cpl == 0; }), 10u);  // kernel time exists
    uint64_t c_ignored = 0;
    EXPECT_EQ(ita_drv_read(d, C, 0, &c_ignored), -1);  // C is not monitored
    EXPECT_EQ(ita_drv_get_stats(d)->switches, 6u);
    ita_drv_destroy(d);
}

// ITA-PRM Figure 6-8: PMC.pm = 1, PMC.plm = 1001; PSR.pp = 1 everywhere.  DCR.pp = 1 counts the
// interruption handlers, DCR.pp = 0 leaves them out.  Counts are kept per process.
TEST_P(Figures, SystemWideMonitor)
{
    for (int dcr_pp = 1; dcr_pp >= 0; dcr_pp--) {
        Scenario s;
        pmu_reset(b);
        ita_drv_opts o = ita_drv_opts_default();
        o.mode = ITA_DRV_SYSTEM_WIDE;
        o.per_process = 1;
        o.dcr_pp = dcr_pp;
        add_counter(&o.config, ITA_MODEL_ITANIUM2, 0, ITA_EV_CPU_CYCLES, 0x9, 0);
        unsigned bad_psr = 0;
        ita_drv *d = run(s, o, {}, [&](const Tag &t, uint64_t psr) {
            bad_psr += pp_of(psr) != (dcr_pp || !t.handler);
        });
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(bad_psr, 0u) << "DCR.pp " << dcr_pp;
        uint64_t total = 0;
        for (uint16_t pid : {A, B, C}) {
            uint64_t want = s.expected(pid, [&](const Tag &t) { return dcr_pp || !t.handler; });
            EXPECT_EQ(count_of(d, pid), want) << "pid " << pid << " DCR.pp " << dcr_pp;
            total += want;
        }
        EXPECT_EQ(ita_drv_total(d, 0), total);
        EXPECT_EQ(ITA_FGET(pmu_read(b, pmc(0)), PMC_GEN, PM), 1u);
        EXPECT_EQ(pmu_read(b, vis(ITA_VIS_DCR)), (uint64_t)dcr_pp);
        if (dcr_pp)
            EXPECT_EQ(total, s.sb.recs.size());  // every cycle of every process
        else
            EXPECT_LT(total, s.sb.recs.size());
        ita_drv_destroy(d);
    }
}

// The user-level system-wide variant of the figure (plm = 1000): only user cycles,
// of every process, in one context.
TEST_P(Figures, SystemWideUserLevelOnly)
{
    Scenario s;
    ita_drv_opts o = ita_drv_opts_default();
    o.mode = ITA_DRV_SYSTEM_WIDE;
    add_counter(&o.config, ITA_MODEL_ITANIUM2, 0, ITA_EV_CPU_CYCLES, 0x8, 0);
    ita_drv *d = run(s, o, {}, [](const Tag &, uint64_t) {});
    ASSERT_NE(d, nullptr);
    uint64_t want = 0;
    for (const Tag &t : s.tags)
        want += t.cpl == 3;
    EXPECT_EQ(count_of(d, ITA_DRV_ALL_PIDS), want);
    EXPECT_EQ(ita_drv_ncontexts(d), 1u);
    ita_drv_destroy(d);
}

INSTANTIATE_TEST_SUITE_P(Backends, Figures, ::testing::Values(Backend::Ref, Backend::Rtl),
                         [](const ::testing::TestParamInfo<Backend> &i) {
                             return std::string(i.param == Backend::Ref ? "ref" : "rtl");
                         });

}  // namespace
