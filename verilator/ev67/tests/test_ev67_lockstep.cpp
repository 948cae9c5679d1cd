// test_ev67_lockstep.cpp - the Alpha 21264/EV67 counter block's RTL and reference model in
// lock-step (pmu_cosim) on generated streams, workload and random, under random
// programming: both modes and every SL1 row, the enables (I_CTL, PCTX's index-selected
// write, IER_CM), counters written near and above their legal maxima, the double write,
// HW_INT_CLR, reads of every register, and a service answering the interrupt line as
// the HRM's handlers do (read the Table 6-13 registers, HW_INT_CLR, rewrite PCTR_CTL):
// `pmusim conform`'s software (verilator/cli/ev67/cmd_conform.c), also with the family's
// perf driver and ProfileMe sampler under random setups, whose results must be exact.
// Every run prints its seed; EV67_LOCKSTEP_SEED=N replays one.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "harness/ev67/ev67_family.h"
#include "csim/ev67/ev67_ref.h"
#include "common/ev67/ev67_regs.h"
#include "harness/ev67/ev67_rtl.h"
#include "stream/ev67/ev67_stream.h"
#include "harness/pmu_cosim.h"
#include "common/pmu_dialect.h"
#include "cli/pmu_family_cmds.h"
#include "stream/pmu_stream.h"

namespace {

struct Run {
    pmu_backend *pair = nullptr;
    pmu_gen *gen = nullptr;
    uint64_t record = 0;
    char where[64] = "";
};

const char *where_of(void *ctx)
{
    Run *r = static_cast<Run *>(ctx);
    std::snprintf(r->where, sizeof r->where, "generator record %" PRIu64, r->record);
    return r->where;
}

// What a run exercised, so that a run that is trivially in lock-step (nothing counted,
// no interrupt, no ProfileMe window) cannot pass unnoticed.
struct Activity {
    uint64_t serviced = 0, samples = 0, overflows = 0;
};

// One run; returns "" when in lock-step, else the report.
std::string run_one(uint64_t seed, pmu_gen_mode mode, uint64_t cycles, Activity *act,
                    const ev67_params *ref_params = nullptr, int driver = 0)
{
    Run r;
    pmu_err err;
    pmu_err_clear(&err);
    ev67_params p = ev67_params_default(EV67_MODEL_21264_EV67);
    pmu_backend *ref = ev67_ref_new(ref_params ? ref_params : &p, &err);
    pmu_backend *rtl = ref ? ev67_rtl_new(&p, &err) : nullptr;
    if (!ref || !rtl) {
        pmu_destroy(ref);
        return std::string("backend: ") + err.msg;
    }
    r.pair = pmu_cosim_create(&pmu_family_alpha21264, ref, rtl, where_of, &r);
    pmu_gen_opts o = {};
    o.seed = seed;
    o.cycles = cycles;
    o.mode = mode;
    r.gen = pmu_gen_create(&pmu_dialect_ev67, &o, &err);
    if (!r.gen) {
        pmu_destroy(r.pair);
        return std::string("generator: ") + err.msg;
    }
    // The software of `pmusim conform`: random programming and the harness's service, or
    // the family's software under a random setup (verilator/cli/ev67/cmd_conform.c).
    const pmu_family_cmds *cmds = pmu_family_alpha21264.cmds;
    const pmu_gen_hot *hot = nullptr;
    pmu_record_hooks hooks = {};
    pmu_fam_conform *c = cmds->conform_start(r.pair, seed, r.gen, mode == PMU_GEN_WORKLOAD, driver, 0, &hot,
                                             &hooks, &err);
    if (!c) {
        pmu_gen_destroy(r.gen);
        pmu_destroy(r.pair);
        return std::string("conform_start: ") + err.msg;
    }
    ev67_cycle rec;
    pmu_state st;
    while (pmu_gen_next(r.gen, &rec) == 1 && !pmu_cosim_mismatches(r.pair)) {
        hooks.before(hooks.ctx, &rec);
        pmu_step(r.pair, &rec);
        r.record++;
        pmu_snapshot(r.pair, &st);
        hooks.after(hooks.ctx, &rec, &st);
    }
    std::string report;
    if (pmu_cosim_mismatches(r.pair)) {
        char text[4096];
        pmu_cosim_format(pmu_cosim_first(r.pair), text, sizeof text);
        report = text;
    }
    uint64_t interrupts = 0;
    char exact[1024] = "";
    FILE *out = fmemopen(exact, sizeof exact - 1, "w");
    int ok = cmds->conform_finish(c, &interrupts, out);
    std::fclose(out);
    if (report.empty() && !ok)
        report = std::string("software not exact: ") + exact;
    pmu_backend *m = pmu_cosim_ref(r.pair);
    act->serviced += interrupts;
    act->samples += ev67_ref_nsamples(m);
    act->overflows += ev67_ref_overflows(m, 0) + ev67_ref_overflows(m, 1);
    cmds->conform_free(c);
    pmu_gen_destroy(r.gen);
    pmu_destroy(r.pair);
    return report;
}

TEST(Ev67Lockstep, GeneratedStreamsUnderRandomProgramming)
{
    uint64_t first = 1, runs = 20;
    Activity total;
    if (const char *s = std::getenv("EV67_LOCKSTEP_SEED")) {
        first = std::strtoull(s, nullptr, 0);
        runs = 1;
    }
    for (uint64_t seed = first; seed < first + runs; seed++) {
        pmu_gen_mode mode = seed % 2 ? PMU_GEN_RANDOM : PMU_GEN_WORKLOAD;
        std::printf("ev67 lock-step: seed %" PRIu64 " (%s), replay: EV67_LOCKSTEP_SEED=%" PRIu64
                    " build/tests/harness_tests --gtest_filter=Ev67Lockstep.*\n",
                    seed, mode == PMU_GEN_RANDOM ? "random" : "workload", seed);
        Activity act;
        std::string report = run_one(seed, mode, 100000, &act);
        EXPECT_EQ(report, "") << "seed " << seed;
        EXPECT_GT(act.serviced, 0u) << "seed " << seed << ": no interrupt was serviced";
        total.serviced += act.serviced;
        total.samples += act.samples;
        total.overflows += act.overflows;
    }
    std::printf("ev67 lock-step: %" PRIu64 " interrupts serviced, %" PRIu64 " ProfileMe samples, %" PRIu64
                " aggregate overflows\n", total.serviced, total.samples, total.overflows);
    if (runs > 1) {
        EXPECT_GT(total.samples, 0u);
        EXPECT_GT(total.overflows, 0u);
    }
}

// The checker catches a model that differs: a reference without the disabled-read quirk
// against the RTL with it disagrees on some read of PCTR_CTL.
TEST(Ev67Lockstep, CatchesADifferentModel)
{
    ev67_params q = ev67_params_default(EV67_MODEL_21264_EV67);
    q.read_quirk = 0;
    Activity act;
    bool caught = false;
    for (uint64_t seed = 1; seed <= 6 && !caught; seed++)
        caught = !run_one(seed, PMU_GEN_WORKLOAD, 40000, &act, &q).empty();
    EXPECT_TRUE(caught);
}


// The family's software under random setups (the perf driver, the ProfileMe sampler) in
// lock-step, its results exact against the reference model.
TEST(Ev67Lockstep, SoftwareUnderRandomSetups)
{
    uint64_t first = 101, runs = 8;
    if (const char *e = std::getenv("EV67_LOCKSTEP_SEED")) {
        first = std::strtoull(e, nullptr, 0);
        runs = 1;
    }
    Activity total;
    for (uint64_t seed = first; seed < first + runs; seed++) {
        pmu_gen_mode mode = seed % 2 ? PMU_GEN_RANDOM : PMU_GEN_WORKLOAD;
        std::printf("ev67 lock-step with software: seed %" PRIu64 " (%s), replay: EV67_LOCKSTEP_SEED=%" PRIu64
                    " build/tests/harness_tests --gtest_filter=Ev67Lockstep.SoftwareUnderRandomSetups\n",
                    seed, mode == PMU_GEN_RANDOM ? "random" : "workload", seed);
        Activity act;
        EXPECT_EQ(run_one(seed, mode, 40000, &act, nullptr, 1), "") << "seed " << seed;
        total.serviced += act.serviced;
        total.samples += act.samples;
    }
    if (runs > 1) {
        EXPECT_GT(total.serviced, 0u);
        EXPECT_GT(total.samples, 0u);
    }
}

} // namespace
