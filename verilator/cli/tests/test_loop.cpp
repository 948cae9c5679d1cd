// test_loop.cpp - the run loop (verilator/cli/loop.c) over a stream file: every record's
// every cycle is stepped once, and a lock-step pair stops at the clock of its first
// mismatch with exactly the records stepped read, whichever of the loop's paths the
// service's hooks select (asleep between interrupts, called every clock, none).
#include <algorithm>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <vector>
#include <string>
#include <unistd.h>

#include "harness/ita/ita_harness_util.h"
#include "harness/ita/ita_family.h"
#include "cli/ita/ita_config.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"
#include "cli/pmu_cli.h"
#include "harness/pmu_cosim.h"
#include "stream/pmu_stream.h"

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
    l->inner = ita_ref_create(nullptr);
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
    pmu_stream_writer *w = pmu_stream_create(&ita_dialect, path.c_str(),
                                             PMU_STREAM_BINARY, &err);
    EXPECT_NE(w, nullptr) << err.msg;
    *cycles = 0;
    for (unsigned i = 0; i < runs; i++) {
        const ita_cycle c = simple_record(i % 4, 1 + i % 3);
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
    std::string where; // the first mismatch's
    std::string reg, format, report, file_report; // its register, the checker's lines, the
                                                  // report of a generated stream and of a file
};

// pmu_cli_mismatch_report into a string.
std::string mismatch_report(pmu_backend *b, const uint64_t *seed, int mode)
{
    char *text = nullptr;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    EXPECT_NE(f, nullptr);
    pmu_cli_mismatch_report(f, &pmu_family_itanium, b, seed, mode);
    fclose(f);
    std::string r(text, len);
    free(text);
    return r;
}

// The stream through cosim(reference, lossy reference at `lost`), counting every cycle.
Outcome run(const std::string &path, Hooks h, uint64_t lost, uint64_t stop_at = 0)
{
    pmu_err err;
    pmu_source *src = pmu_source_file(&ita_dialect, path.c_str(), 0, &err);
    EXPECT_NE(src, nullptr) << err.msg;
    pmu_backend *b = pmu_cosim_create(&pmu_family_itanium, ita_ref_create(nullptr),
                                      make_lossy(lost), pmu_source_where, src);
    EXPECT_NE(b, nullptr);
    ita_config cfg;
    EXPECT_EQ(parse_config("PMC4 event=CPU_CYCLES plm=0xf\nPSR up=1\n", ITA_MODEL_ITANIUM2, &cfg),
              "");
    ita_config_apply(&cfg, b);
    Service svc;
    pmu_cli_loop l = {};
    l.b = b;
    l.src = src;
    l.record_size = sizeof(ita_cycle);
    l.hooks = svc.hooks(h);
    l.stop_at = stop_at;
    Outcome o;
    o.end = pmu_cli_loop_run(&l, &err);
    o.cycle = b->cycle;
    o.read = pmu_source_count(src);
    const pmu_cosim_mismatch *m = pmu_cosim_first(b);
    o.first = m ? m->cycle : UINT64_MAX;
    o.where = m ? m->where : "";
    if (m) {
        char text[4096];
        pmu_cosim_format(m, text, sizeof text);
        const uint64_t seed = 42;
        o.reg = m->reg;
        o.format = text;
        o.report = mismatch_report(b, &seed, PMU_GEN_RANDOM);
        o.file_report = mismatch_report(b, nullptr, PMU_GEN_RANDOM);
    }
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
    // the record (from 1) of each cycle: run i, record i + 1, holds 1 + i % 5 cycles
    std::vector<uint64_t> record_of;
    for (unsigned i = 0; i < 400; i++)
        record_of.insert(record_of.end(), 1 + i % 5, i + 1);
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
            EXPECT_EQ(o.where, path + ":record " + std::to_string(record_of[at]));
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

// The report run and conform print: the checker's lines, then the family's detail (the
// counter's programming) and the seed of a generated stream; and the replay's waveform
// window, the 200 cycles before the mismatch.
TEST(Loop, MismatchReportHasTheCounterAndTheSeed)
{
    uint64_t cycles = 0;
    const std::string path = write_runs(400, &cycles);
    Outcome o = run(path, Hooks::None, 500);
    ASSERT_EQ(o.end, PMU_LOOP_MISMATCH);
    ASSERT_EQ(o.reg, "PMD4"); // the lossy reference missed one CPU_CYCLES count
    EXPECT_EQ(o.report.rfind(o.format, 0), 0u) << o.report;
    EXPECT_NE(o.report.find("\n  counter:  PMC4 = 0x"), std::string::npos) << o.report;
    EXPECT_NE(o.report.find(" (CPU_CYCLES "), std::string::npos) << o.report;
    EXPECT_NE(o.report.find("\n  seed:     42 (random mode)\n"), std::string::npos) << o.report;
    EXPECT_EQ(o.file_report.find("seed:"), std::string::npos) << o.file_report; // a stream file has none
    EXPECT_NE(o.file_report.find("\n  counter:  PMC4 = 0x"), std::string::npos) << o.file_report;
    remove(path.c_str());

    EXPECT_EQ(pmu_cli_replay_wave_from(219), 19u);
    EXPECT_EQ(pmu_cli_replay_wave_from(200), 0u);
    EXPECT_EQ(pmu_cli_replay_wave_from(7), 0u);
}

namespace {

// A service that takes each overflow interrupt as a driver does: it clears PMC0 (the
// freeze and the overflow bits) and reloads every counter that overflowed with its
// period, through the pair (so both backends, compared).
struct Driver {
    pmu_backend *b = nullptr;
    int wake = 0;
    unsigned awake_for = 0; // clocks the service stays awake after an interrupt
    uint64_t calls = 0, interrupts = 0;
    uint64_t start[4] = {0, 0, 0, 0};
    // Software activity at chosen clocks (about one in 100, by a hash of the clock's
    // number): a register write or read through the pair, as conform's harness does; from
    // a `before` hook that looks at every clock, or from an `at` hook told the next one.
    uint64_t at_cycle = 0, actions = 0;
    static bool chosen(uint64_t cycle) { return (cycle * 0x9e3779b97f4a7c15ull) >> 58 == 0 && cycle % 3 != 1; }
    void act()
    {
        actions++;
        switch (actions % 3) {
        case 0:
            pmu_write(b, ITA_ADDR(ITA_SPACE_PMD, 5), start[1] + actions % 17);
            break;
        case 1:
            (void)pmu_read(b, ITA_ADDR(ITA_SPACE_PMD, 6));
            break;
        default:
            pmu_write(b, ITA_ADDR(ITA_SPACE_PMC, 0), 0);
            break;
        }
    }
    static void before(void *ctx, void *)
    {
        Driver *d = static_cast<Driver *>(ctx);
        if (chosen(d->b->cycle))
            d->act();
    }
    void schedule(uint64_t from)
    {
        while (!chosen(from))
            from++;
        at_cycle = from;
    }
    static void at(void *ctx)
    {
        Driver *d = static_cast<Driver *>(ctx);
        d->act();
        d->schedule(d->at_cycle + 1);
    }
    static void after(void *ctx, const void *, const pmu_state *st)
    {
        Driver *d = static_cast<Driver *>(ctx);
        d->calls++;
        if (d->wake && --d->awake_for == 0)
            d->wake = 0;
        if (!st->pmi)
            return;
        d->interrupts++;
        const uint64_t pmc0 = pmu_read(d->b, ITA_ADDR(ITA_SPACE_PMC, 0));
        const unsigned ovf = (unsigned)ITA_FGET(pmc0, PMC0, OVF);
        for (unsigned k = 0; k < 4; k++)
            if (ovf >> k & 1u)
                pmu_write(d->b, ITA_ADDR(ITA_SPACE_PMD, 4 + k), d->start[k]);
        pmu_write(d->b, ITA_ADDR(ITA_SPACE_PMC, 0), 0);
        // every third interrupt, the service stays awake for a few clocks
        if (d->interrupts % 3 == 0) {
            d->wake = 1;
            d->awake_for = 1 + (unsigned)(d->interrupts % 7);
        }
    }
};

struct PairOutcome {
    pmu_loop_end end;
    uint64_t cycle, read, calls, interrupts, mismatches, actions;
    std::string first; // the first mismatch's report
    pmu_state ref, rtl;
    uint64_t total[4];
};

// The stream through cosim(reference, RTL) (or a lossy reference for the RTL, losing the
// step of record `lost`) with the driver on the quiet path, in batches or clock by clock.
// An empty path: the generator's random records of seed 7 instead, 6000 of them.
enum Activity { NO_ACTIVITY, ACTIVITY_BEFORE, ACTIVITY_AT };

// With `traffic`, the service reaches the pair through the traffic log (pmusim run
// --traffic), whose lines end up there.
PairOutcome run_pair(const std::string &path, bool unbatched, bool rtl, uint64_t lost,
                     Activity activity = NO_ACTIVITY, std::string *traffic = nullptr)
{
    pmu_err err;
    pmu_gen_opts g = {};
    g.seed = 7;
    g.cycles = 6000;
    g.mode = PMU_GEN_RANDOM;
    pmu_source *src = path.empty() ? pmu_source_generator(&ita_dialect, &g, &err)
                                   : pmu_source_file(&ita_dialect, path.c_str(), 0, &err);
    EXPECT_NE(src, nullptr) << err.msg;
    ita_params p = ita_params_default();
    char why[256] = "";
    pmu_backend *second = rtl ? ita_rtl_create(&p, why, sizeof why) : make_lossy(lost);
    EXPECT_NE(second, nullptr) << why;
    pmu_backend *b = pmu_cosim_create(&pmu_family_itanium, ita_ref_create(&p), second,
                                      pmu_source_where, src);
    ita_config cfg;
    EXPECT_EQ(parse_config("PMC4 event=CPU_CYCLES plm=0xf oi=1 period=37\n"
                           "PMC5 event=IA64_INST_RETIRED plm=0xf oi=1 period=101\n"
                           "PMC6 event=LOADS_RETIRED plm=0xf oi=1 period=13\n"
                           "PMC7 event=BRANCH_EVENT plm=0xf oi=0\n"
                           "PSR up=1 pp=1\nDCR pp=1\n",
                           ITA_MODEL_ITANIUM2, &cfg),
              "");
    ita_config_apply(&cfg, b);
    Driver d;
    d.b = b;
    const uint64_t top = UINT64_C(1) << ita_counter_width(ITA_MODEL_ITANIUM2);
    const uint64_t periods[4] = {37, 101, 13, 0};
    for (unsigned k = 0; k < 4; k++)
        d.start[k] = periods[k] ? top - periods[k] : 0;
    pmu_cli_loop l = {};
    l.b = b;
    l.src = src;
    l.record_size = sizeof(ita_cycle);
    l.hooks.ctx = &d;
    l.hooks.after = Driver::after;
    l.hooks.pmi_only = 1;
    l.hooks.wake = &d.wake;
    if (activity == ACTIVITY_BEFORE) {
        l.hooks.before = Driver::before;
    } else if (activity == ACTIVITY_AT) {
        d.schedule(b->cycle);
        l.hooks.at = Driver::at;
        l.hooks.at_cycle = &d.at_cycle;
    }
    l.unbatched = unbatched;
    FILE *log = nullptr;
    pmu_traffic *t = nullptr;
    if (traffic) {
        log = tmpfile();
        EXPECT_NE(log, nullptr);
        t = pmu_traffic_new(&pmu_family_itanium, b, log);
        d.b = pmu_traffic_backend(t);
        pmu_traffic_hooks(t, &l.hooks);
    }
    PairOutcome o;
    o.end = pmu_cli_loop_run(&l, &err);
    if (traffic) {
        rewind(log);
        traffic->clear();
        char buf[4096];
        for (size_t n; (n = fread(buf, 1, sizeof buf, log)) > 0;)
            traffic->append(buf, n);
        fclose(log);
        pmu_traffic_free(t);
    }
    o.cycle = b->cycle;
    o.read = pmu_source_count(src);
    o.calls = d.calls;
    o.interrupts = d.interrupts;
    o.actions = d.actions;
    o.mismatches = pmu_cosim_mismatches(b);
    const pmu_cosim_mismatch *m = pmu_cosim_first(b);
    char buf[4096] = "";
    if (m)
        pmu_cosim_format(m, buf, sizeof buf);
    o.first = buf;
    memset(&o.ref, 0, sizeof o.ref);
    memset(&o.rtl, 0, sizeof o.rtl);
    pmu_snapshot(pmu_cosim_ref(b), &o.ref);
    if (!m) // after a mismatch the RTL may have run ahead of it
        pmu_snapshot(pmu_cosim_rtl(b), &o.rtl);
    for (unsigned k = 0; k < 4; k++)
        o.total[k] = pmu_total(b, k);
    pmu_source_close(src);
    pmu_destroy(b);
    return o;
}

void expect_same(const PairOutcome &x, const PairOutcome &y)
{
    EXPECT_EQ(x.end, y.end);
    EXPECT_EQ(x.cycle, y.cycle);
    EXPECT_EQ(x.read, y.read);
    EXPECT_EQ(x.calls, y.calls);
    EXPECT_EQ(x.interrupts, y.interrupts);
    EXPECT_EQ(x.actions, y.actions);
    EXPECT_EQ(x.mismatches, y.mismatches);
    EXPECT_EQ(x.first, y.first);
    EXPECT_EQ(memcmp(x.ref.reg, y.ref.reg, sizeof x.ref.reg), 0);
    EXPECT_EQ(x.ref.pmi, y.ref.pmi);
    EXPECT_EQ(memcmp(x.rtl.reg, y.rtl.reg, sizeof x.rtl.reg), 0);
    for (unsigned k = 0; k < 4; k++)
        EXPECT_EQ(x.total[k], y.total[k]) << "counter " << k;
}

} // namespace

// A lock-step pair in batches (pmu_cosim_step_batch: the RTL steps a batch's clocks, then
// the reference) takes the same interrupts at the same clocks, with the service's register
// writes between the same two clocks, stays awake for the same clocks, and ends, or stops
// at a mismatch with the same report and the same records read, as the pair clock by
// clock.
namespace {

// Random generated records (interruptions, PSR writes, every privilege level), some of
// them repeated, into `path`: runs of clocks that stop at an interrupt inside them.
void write_batch_stream(const std::string &path)
{
    Rng r(0xba7c4);
    {
        pmu_err err;
        pmu_gen_opts g = {};
        g.seed = 7;
        g.cycles = 6000;
        g.mode = PMU_GEN_RANDOM;
        pmu_source *gen = pmu_source_generator(&ita_dialect, &g, &err);
        ASSERT_NE(gen, nullptr) << err.msg;
        pmu_stream_writer *w = pmu_stream_create(&ita_dialect, path.c_str(),
                                                 PMU_STREAM_BINARY, &err);
        ASSERT_NE(w, nullptr) << err.msg;
        ita_cycle c;
        while (pmu_source_next(gen, &c, &err) == 1)
            for (unsigned k = r.below(4) == 0 ? 1 + r.below(40) : 1; k; k--)
                ASSERT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg;
        ASSERT_EQ(pmu_stream_finish(w, &err), 0) << err.msg;
        pmu_source_close(gen);
    }
}

std::string scratch_path(const char *name)
{
    return ::testing::TempDir() + name + std::to_string(getpid()) + ".bin";
}

} // namespace

TEST(Loop, LockStepInBatchesEqualsLockStepClockByClock)
{
    const std::string path = scratch_path("pmubatch_");
    write_batch_stream(path);
    // the stream file, then the generator's records (the generator keeps its last
    // records for the batches: pmu_source_keep)
    for (const std::string &from : {path, std::string()}) {
        SCOPED_TRACE(from.empty() ? "generator" : "stream file");
        const PairOutcome clocks = run_pair(from, true, true, 0);
        const PairOutcome batches = run_pair(from, false, true, 0);
        EXPECT_EQ(batches.end, PMU_LOOP_END) << batches.first;
        EXPECT_GT(batches.interrupts, 100u);
        EXPECT_GT(batches.calls, batches.interrupts);
        expect_same(clocks, batches);
        // a reference that loses a step (a step that counted nothing is not missed)
        unsigned stopped = 0;
        std::vector<uint64_t> losts = {0, 5, 63, 64, 65, 127, 128};
        for (uint64_t i = 1; i < 30; i++)
            losts.push_back(i * 197);
        for (uint64_t lost : losts) {
            SCOPED_TRACE("lost step " + std::to_string(lost));
            const PairOutcome c = run_pair(from, true, false, lost);
            const PairOutcome bt = run_pair(from, false, false, lost);
            expect_same(c, bt);
            if (bt.end == PMU_LOOP_MISMATCH) {
                stopped++;
                EXPECT_GT(bt.cycle, lost);
                EXPECT_EQ(bt.read, bt.cycle);
            }
        }
        EXPECT_GE(stopped, 8u);
    }
    remove(path.c_str());
}

// Software activity at chosen clocks from an `at` hook (pmu_record_hooks.at: the records
// read and stepped in a row or in batches up to the next one) happens at the clocks where a
// `before` hook that looks at every clock does it, with the same outcome: the same
// interrupts, service calls, register accesses and registers, and at a mismatch (a step,
// or a register read the lossy reference answers differently) the same report.
TEST(Loop, ActivityAtChosenClocksEqualsActivityBeforeEveryClock)
{
    const std::string path = scratch_path("pmuat_");
    write_batch_stream(path);
    for (const std::string &from : {path, std::string()}) {
        SCOPED_TRACE(from.empty() ? "generator" : "stream file");
        const PairOutcome by_before = run_pair(from, true, true, 0, ACTIVITY_BEFORE);
        EXPECT_EQ(by_before.end, PMU_LOOP_END) << by_before.first;
        EXPECT_GT(by_before.actions, 40u);
        EXPECT_GT(by_before.interrupts, 100u);
        expect_same(by_before, run_pair(from, false, true, 0, ACTIVITY_AT));
        expect_same(by_before, run_pair(from, true, true, 0, ACTIVITY_AT));
        unsigned stopped = 0;
        std::vector<uint64_t> losts = {0, 7, 64, 129};
        for (uint64_t i = 1; i < 20; i++)
            losts.push_back(i * 293);
        for (uint64_t lost : losts) {
            SCOPED_TRACE("lost step " + std::to_string(lost));
            const PairOutcome b = run_pair(from, true, false, lost, ACTIVITY_BEFORE);
            expect_same(b, run_pair(from, false, false, lost, ACTIVITY_AT));
            stopped += b.end == PMU_LOOP_MISMATCH;
        }
        EXPECT_GE(stopped, 6u);
        // through the traffic log (which wraps the hooks): the same accesses at the same
        // clocks
        std::string log_before, log_at;
        expect_same(run_pair(from, true, true, 0, ACTIVITY_BEFORE, &log_before),
                    run_pair(from, false, true, 0, ACTIVITY_AT, &log_at));
        EXPECT_GT(std::count(log_before.begin(), log_before.end(), '\n'), 100);
        EXPECT_EQ(log_before, log_at);
    }
    remove(path.c_str());
}

// An `at` hook on one model (no pair: the loop hands out a record's cycles in a row) over a
// stream file, with activity due at the first clock and inside repeated records: each
// activity comes once, before the record of its clock, and every cycle is stepped once.
namespace {
struct AtCounter {
    std::vector<uint64_t> due, seen;
    size_t next = 0;
    uint64_t at_cycle = UINT64_MAX;
    pmu_backend *b = nullptr;
    static void at(void *ctx)
    {
        AtCounter *a = static_cast<AtCounter *>(ctx);
        a->seen.push_back(a->b->cycle);
        while (a->next < a->due.size() && a->due[a->next] <= a->b->cycle)
            a->next++;
        a->at_cycle = a->next < a->due.size() ? a->due[a->next] : UINT64_MAX;
    }
};
} // namespace

TEST(Loop, AtHookOnOneModelComesAtItsClocksFromTheFirst)
{
    const std::string path = scratch_path("pmuatone_");
    write_batch_stream(path);
    pmu_err err;
    for (const bool pair : {false, true}) {
        SCOPED_TRACE(pair ? "lock-step pair" : "reference alone");
        pmu_source *src = pmu_source_file(&ita_dialect, path.c_str(), 0, &err);
        ASSERT_NE(src, nullptr) << err.msg;
        pmu_backend *b = pair ? pmu_cosim_create(&pmu_family_itanium, ita_ref_create(nullptr),
                                                 ita_ref_create(nullptr), pmu_source_where, src)
                              : ita_ref_create(nullptr);
        ASSERT_NE(b, nullptr);
        AtCounter a;
        a.due = {0, 1, 2, 50, 51, 777, 3000};
        a.at_cycle = a.due[0];
        a.b = b;
        pmu_cli_loop l = {};
        l.b = b;
        l.src = src;
        l.record_size = sizeof(ita_cycle);
        l.hooks.ctx = &a;
        l.hooks.at = AtCounter::at;
        l.hooks.at_cycle = &a.at_cycle;
        ASSERT_EQ(pmu_cli_loop_run(&l, &err), PMU_LOOP_END) << err.msg;
        EXPECT_EQ(a.seen, a.due);
        EXPECT_EQ(b->cycle, pmu_source_count(src));
        EXPECT_GT(b->cycle, 3000u);
        pmu_destroy(b);
        pmu_source_close(src);
    }
    remove(path.c_str());
}
