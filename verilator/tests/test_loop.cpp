// test_loop.cpp - the run loop (verilator/cli/loop.c) over a stream file: every record's
// every cycle is stepped once, and a lock-step pair stops at the clock of its first
// mismatch with exactly the records stepped read, whichever of the loop's paths the
// service's hooks select (asleep between interrupts, called every clock, none).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

#include "harness_util.h"
#include "ita/ita_family.h"
#include "ita/pmu_config.h"
#include "ita/pmu_ref.h"
#include "pmu_cli.h"
#include "pmu_cosim.h"
#include "pmu_stream.h"

using namespace harness_test;

namespace {

// A reference whose step of record `at` is lost (its clock still counts): the pair's
// counters disagree from that clock on.
struct Lossy {
    pmu_backend base; // first member
    pmu_backend *inner;
    uint64_t at;
};

Lossy *lossy(pmu_backend *b) { return reinterpret_cast<Lossy *>(b); }
void l_reset(pmu_backend *b)
{
    pmu_reset(lossy(b)->inner);
    b->cycle = 0;
}
void l_write(pmu_backend *b, uint16_t a, uint64_t v) { pmu_write(lossy(b)->inner, a, v); }
uint64_t l_read(pmu_backend *b, uint16_t a) { return pmu_read(lossy(b)->inner, a); }
void l_step(pmu_backend *b, const void *c)
{
    if (b->cycle != lossy(b)->at)
        pmu_step(lossy(b)->inner, c);
    b->cycle++;
}
void l_snapshot(pmu_backend *b, pmu_state *s) { pmu_snapshot(lossy(b)->inner, s); }
void l_destroy(pmu_backend *b)
{
    pmu_destroy(lossy(b)->inner);
    delete lossy(b);
}
const pmu_backend_ops lossy_ops = {l_reset, l_write, l_read, l_step, l_snapshot, l_destroy,
                                   nullptr, nullptr, nullptr};

pmu_backend *make_lossy(uint64_t at)
{
    Lossy *l = new Lossy();
    l->inner = pmu_ref_create(nullptr);
    l->base.ops = &lossy_ops;
    l->base.name = "lossy-ref";
    l->base.model = l->inner->model;
    l->base.nvis = l->inner->nvis;
    l->at = at;
    return &l->base;
}

// A binary stream of runs of equal records (the writer sends each run as one record with
// a repeat count): run i holds 1 + i % 5 cycles, so that records and repeats alternate.
std::string write_runs(unsigned runs, uint64_t *cycles)
{
    std::string path = ::testing::TempDir() + "pmuloop_" + std::to_string(getpid()) + ".bin";
    pmu_err err;
    pmu_stream_writer *w = pmu_stream_create(&pmu_dialect_itanium, path.c_str(),
                                             PMU_STREAM_BINARY, &err);
    EXPECT_NE(w, nullptr) << err.msg;
    *cycles = 0;
    for (unsigned i = 0; i < runs; i++) {
        const pmu_cycle c = simple_record(i % 4, 1 + i % 3);
        for (unsigned k = 0; k < 1 + i % 5; k++, ++*cycles)
            EXPECT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg;
    }
    EXPECT_EQ(pmu_stream_finish(w, &err), 0) << err.msg;
    return path;
}

// The service's hooks of one of the loop's paths.
enum class Hooks { Asleep, EveryClock, None };

struct Service {
    int wake = 0;
    uint64_t calls = 0;
    static void after(void *ctx, const void *, const pmu_state *)
    {
        ++static_cast<Service *>(ctx)->calls;
    }
    pmu_record_hooks hooks(Hooks h)
    {
        pmu_record_hooks r = {};
        if (h == Hooks::None)
            return r;
        r.ctx = this;
        r.after = after;
        r.pmi_only = 1;
        if (h == Hooks::Asleep)
            r.wake = &wake;
        return r;
    }
};

struct Outcome {
    pmu_loop_end end;
    uint64_t cycle, read, first, calls;
};

// The stream through cosim(reference, lossy reference at `lost`), counting every cycle.
Outcome run(const std::string &path, Hooks h, uint64_t lost, uint64_t stop_at = 0)
{
    pmu_backend *b = pmu_cosim_create(&pmu_family_itanium, pmu_ref_create(nullptr),
                                      make_lossy(lost), nullptr, nullptr);
    EXPECT_NE(b, nullptr);
    pmu_config cfg;
    EXPECT_EQ(parse_config("PMC4 event=CPU_CYCLES plm=0xf\nPSR up=1\n", PMU_MODEL_ITANIUM2, &cfg),
              "");
    pmu_config_apply(&cfg, b);
    pmu_err err;
    pmu_source *src = pmu_source_file(&pmu_dialect_itanium, path.c_str(), 0, &err);
    EXPECT_NE(src, nullptr) << err.msg;
    Service svc;
    pmu_cli_loop l = {};
    l.b = b;
    l.src = src;
    l.record_size = sizeof(pmu_cycle);
    l.hooks = svc.hooks(h);
    l.stop_at = stop_at;
    Outcome o;
    o.end = pmu_cli_loop_run(&l, &err);
    o.cycle = b->cycle;
    o.read = pmu_source_count(src);
    const pmu_cosim_mismatch *m = pmu_cosim_first(b);
    o.first = m ? m->cycle : UINT64_MAX;
    o.calls = svc.calls;
    pmu_source_close(src);
    pmu_destroy(b);
    return o;
}

} // namespace

TEST(Loop, LockStepStopsAtTheFirstMismatchWithTheRecordsItStepped)
{
    uint64_t cycles = 0;
    const std::string path = write_runs(400, &cycles);
    ASSERT_GT(cycles, 1000u);
    for (Hooks h : {Hooks::Asleep, Hooks::EveryClock, Hooks::None}) {
        SCOPED_TRACE("hooks " + std::to_string(static_cast<int>(h)));
        // lost beyond the end: no mismatch, every cycle stepped once
        Outcome o = run(path, h, UINT64_MAX);
        EXPECT_EQ(o.end, PMU_LOOP_END);
        EXPECT_EQ(o.cycle, cycles);
        EXPECT_EQ(o.read, cycles);
        EXPECT_EQ(o.first, UINT64_MAX);
        if (h == Hooks::EveryClock) {
            EXPECT_EQ(o.calls, cycles);
        }
        // the first record, records inside runs of repeats and at their starts; and the
        // same runs stopped (stop_at) before the lost step
        for (uint64_t at : {0ull, 1ull, 7ull, 8ull, 500ull, 999ull}) {
            o = run(path, h, at);
            EXPECT_EQ(o.end, PMU_LOOP_MISMATCH) << "lost step " << at;
            EXPECT_EQ(o.first, at);
            EXPECT_EQ(o.cycle, at + 1);
            EXPECT_EQ(o.read, at + 1);
            if (at == 0)
                continue; /* stop_at 0: no stop */
            o = run(path, h, at, at);
            EXPECT_EQ(o.end, PMU_LOOP_END) << "stop before " << at;
            EXPECT_EQ(o.cycle, at);
            EXPECT_EQ(o.first, UINT64_MAX);
        }
    }
    remove(path.c_str());
}
