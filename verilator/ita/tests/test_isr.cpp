// test_isr.cpp - the overflow service keeps exact 64-bit totals across many wraps, on
// the reference and on the RTL, for any interrupt latency.
#include <gtest/gtest.h>

#include <string>

#include "cli/ita/ita_config.h"
#include "harness/ita/ita_harness_util.h"
#include "harness/ita/ita_isr.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"

using namespace harness_test;

namespace {

struct RunResult {
    uint64_t total[ITA_NCOUNTERS];
    uint64_t overflows[ITA_NCOUNTERS];
    uint64_t interrupts;
};

// Programs b from cfg and runs `cycles` random records through it with the service.
RunResult run(pmu_backend *b, const ita_config &cfg, unsigned latency, uint64_t cycles,
              uint64_t seed)
{
    ita_config_apply(&cfg, b);
    ita_isr isr;
    ita_isr_init(&isr, b, cfg.start, cfg.reload, latency);
    Rng rng(seed);
    pmu_state st;
    for (uint64_t i = 0; i < cycles; i++) {
        ita_cycle c = random_record(rng);
        c.power = ITA_POWER_NORMAL;  // keep every cycle countable
        pmu_step(b, &c);
        pmu_snapshot(b, &st);
        ita_isr_tick(&isr, st.pmi);
    }
    ita_isr_finish(&isr);
    RunResult r;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        r.total[k] = isr.total[k];
        r.overflows[k] = isr.overflows[k];
    }
    r.interrupts = isr.interrupts;
    return r;
}

// Short periods: every counter wraps hundreds of times in a few thousand cycles, and
// the multi-increment events carry a remainder past the wrap.
const char kShortPeriods[] =
    "PMC4 event=NOPS_RETIRED plm=0xf period=5\n"  // Itanium: nops and retired on PMC4/5 only
    "PMC5 event=IA64_INST_RETIRED plm=0xf period=13\n"
    "PMC6 event=CPU_CYCLES plm=0xf period=7\n"
    "PMC7 event=LOADS_RETIRED plm=0x9 period=3\n"  // a memory event both models have
    "PSR up=1 pp=1\n";

ita_config config(const char *text, ita_model m)
{
    ita_config cfg;
    std::string err = parse_config(text, m, &cfg);
    EXPECT_EQ(err, "");
    return cfg;
}

class IsrOnReference : public ::testing::TestWithParam<unsigned> {};

TEST_P(IsrOnReference, TotalsEqualReferenceAcrossManyWraps)
{
    for (ita_model m : {ITA_MODEL_ITANIUM2, ITA_MODEL_ITANIUM}) {
        ita_params p = ita_params_default();
        p.model = m;
        pmu_backend *ref = ita_ref_create(&p);
        ASSERT_NE(ref, nullptr);
        RunResult r = run(ref, config(kShortPeriods, m), GetParam(), 5000, 11);
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
            EXPECT_EQ(r.total[k], ita_ref_total(ref, ITA_FIRST_COUNTER + k))
                << "model " << m << " counter " << k << " latency " << GetParam();
            EXPECT_GT(r.overflows[k], 50u) << "counter " << k;  // really wrapped many times
        }
        EXPECT_GT(r.interrupts, 100u);
        pmu_destroy(ref);
    }
}

INSTANTIATE_TEST_SUITE_P(Latencies, IsrOnReference, ::testing::Values(0u, 1u, 4u, 9u));

class IsrOnRtl : public ::testing::TestWithParam<unsigned> {};

// The service runs unchanged on the RTL: its totals equal those of an identical run on
// the reference, which equal the reference's exact totals.
TEST_P(IsrOnRtl, TotalsEqualReferenceAcrossManyWraps)
{
    for (ita_model m : {ITA_MODEL_ITANIUM2, ITA_MODEL_ITANIUM}) {
        ita_params p = ita_params_default();
        p.model = m;
        char why[256] = "";
        pmu_backend *rtl = ita_rtl_create(&p, why, sizeof why);
        ASSERT_NE(rtl, nullptr) << why;
        pmu_backend *ref = ita_ref_create(&p);
        ita_config cfg = config(kShortPeriods, m);
        RunResult a = run(rtl, cfg, GetParam(), 5000, 23);
        RunResult e = run(ref, cfg, GetParam(), 5000, 23);
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
            EXPECT_EQ(a.total[k], ita_ref_total(ref, ITA_FIRST_COUNTER + k)) << "counter " << k;
            EXPECT_EQ(a.total[k], e.total[k]);
            EXPECT_EQ(a.overflows[k], e.overflows[k]);
            EXPECT_GT(a.overflows[k], 50u);
        }
        EXPECT_EQ(a.interrupts, e.interrupts);
        pmu_destroy(rtl);
        pmu_destroy(ref);
    }
}

INSTANTIATE_TEST_SUITE_P(Latencies, IsrOnRtl, ::testing::Values(0u, 4u));

TEST(Isr, CounterStaysFrozenDuringTheLatency)
{
    pmu_backend *b = ita_ref_create(nullptr);
    ita_config cfg = config("PMC4 event=CPU_CYCLES plm=0xf period=10\nPSR up=1\n", ITA_MODEL_ITANIUM2);
    ita_config_apply(&cfg, b);
    ita_isr isr;
    const unsigned latency = 5;
    ita_isr_init(&isr, b, cfg.start, cfg.reload, latency);
    ita_cycle c = simple_record(0, 0);
    pmu_state st;
    unsigned steps = 0;
    do {  // the 10th cycle wraps the counter
        pmu_step(b, &c);
        pmu_snapshot(b, &st);
        ita_isr_tick(&isr, st.pmi);
        steps++;
    } while (!st.pmi && steps < 100);
    ASSERT_EQ(steps, 10u);
    const uint64_t frozen = pmu_read(b, vis_addr(ITA_VIS_PMD4));
    EXPECT_EQ(ITA_FGET(pmu_read(b, vis_addr(ITA_VIS_PMC0)), PMC0, FR), 1u);
    for (unsigned i = 0; i < latency; i++) {
        EXPECT_EQ(isr.interrupts, 0u) << "serviced early, after " << i << " steps";
        pmu_step(b, &c);
        pmu_snapshot(b, &st);
        ita_isr_tick(&isr, st.pmi);
        if (i + 1 < latency) {
            EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD4)), frozen);
        }
    }
    // Serviced after exactly `latency` more steps: reloaded and unfrozen.
    EXPECT_EQ(isr.interrupts, 1u);
    // (the read sign-extends bit W-1)
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD4)) & ((UINT64_C(1) << 47) - 1), cfg.reload[0]);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMC0)), 0u);
    ita_isr_finish(&isr);
    EXPECT_EQ(isr.total[0], ita_ref_total(b, 4));
    EXPECT_EQ(isr.total[0], 10u);  // frozen for the latency: those cycles are not events
    pmu_destroy(b);
}

TEST(Isr, PendingOverflowIsFoldedAtTheEnd)
{
    pmu_backend *b = ita_ref_create(nullptr);
    ita_config cfg = config("PMC4 event=CPU_CYCLES plm=0xf period=4\nPSR up=1\n", ITA_MODEL_ITANIUM2);
    ita_config_apply(&cfg, b);
    ita_isr isr;
    ita_isr_init(&isr, b, cfg.start, cfg.reload, 100);  // the run ends before delivery
    ita_cycle c = simple_record(0, 0);
    pmu_state st;
    for (int i = 0; i < 6; i++) {
        pmu_step(b, &c);
        pmu_snapshot(b, &st);
        ita_isr_tick(&isr, st.pmi);
    }
    EXPECT_EQ(isr.interrupts, 0u);
    ita_isr_finish(&isr);
    EXPECT_EQ(isr.overflows[0], 1u);
    EXPECT_EQ(isr.total[0], 4u);
    EXPECT_EQ(isr.total[0], ita_ref_total(b, 4));
    pmu_destroy(b);
}

TEST(Isr, CounterWithoutInterruptIsFoldedByTheNextService)
{
    // PMC4 has oi=0: it wraps silently, its overflow bit stays set, and it is folded by
    // the service that PMC5 (oi=1) raises, or at the end of the run.
    const char text[] =
        "PMC4 event=CPU_CYCLES plm=0xf oi=0 period=%u\n"
        "PMC5 event=CPU_CYCLES plm=0xf period=%u\n"
        "PSR up=1\n";
    struct Case {
        unsigned p4, p5;
        uint64_t wraps4;
    } cases[] = {{600, 1000, 1}, {250, 300, 3}};
    for (const Case &k : cases) {
        char buf[256];
        std::snprintf(buf, sizeof buf, text, k.p4, k.p5);
        pmu_backend *b = ita_ref_create(nullptr);
        ita_config cfg = config(buf, ITA_MODEL_ITANIUM2);
        ita_config_apply(&cfg, b);
        ita_isr isr;
        ita_isr_init(&isr, b, cfg.start, cfg.reload, 0);
        ita_cycle c = simple_record(0, 0);
        pmu_state st;
        for (int i = 0; i < 900; i++) {
            pmu_step(b, &c);
            pmu_snapshot(b, &st);
            ita_isr_tick(&isr, st.pmi);
        }
        ita_isr_finish(&isr);
        EXPECT_EQ(isr.total[0], ita_ref_total(b, 4)) << "period " << k.p4;
        EXPECT_EQ(isr.total[1], ita_ref_total(b, 5));
        EXPECT_EQ(isr.total[0], 900u);
        EXPECT_EQ(isr.overflows[0], k.wraps4);
        pmu_destroy(b);
    }
}

TEST(Isr, CounterWithoutPeriodReloadsZero)
{
    pmu_backend *b = ita_ref_create(nullptr);
    ita_config cfg = config("PMC4 event=CPU_CYCLES plm=0xf\nPMD4 = 0x7ffffffffffa\nPSR up=1\n",
                            ITA_MODEL_ITANIUM2);
    ita_config_apply(&cfg, b);
    ita_isr isr;
    ita_isr_init(&isr, b, cfg.start, cfg.reload, 2);
    ita_cycle c = simple_record(3, 0);
    pmu_state st;
    for (int i = 0; i < 50; i++) {
        pmu_step(b, &c);
        pmu_snapshot(b, &st);
        ita_isr_tick(&isr, st.pmi);
    }
    ita_isr_finish(&isr);
    EXPECT_EQ(isr.overflows[0], 1u);
    EXPECT_EQ(isr.total[0], ita_ref_total(b, 4));
    EXPECT_EQ(isr.total[0], 48u);  // 50 cycles less the 2 frozen ones
    pmu_destroy(b);
}

}  // namespace
