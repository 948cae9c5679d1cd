// drv_api.cpp - every driver call: defaults, each error of create/attach/start, the
// configuration checks, reads, totals, context queries, lazily created contexts.
#include <gtest/gtest.h>

#include <string>

#include <unistd.h>

#include "cli/pmu_symtab.h"
#include "sw/ita/ita_drv.h"
#include "drv_test_util.h"
#include "harness/ita/ita_family.h"
#include "stream/pmu_stream.h"

using namespace drv_test;

namespace {

const ita_model M = ITA_MODEL_ITANIUM2;

std::string create_error(pmu_backend *b, const ita_drv_opts &o)
{
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(b, &o, &err);
    if (d) {
        ita_drv_destroy(d);
        return "";
    }
    EXPECT_NE(err.msg[0], '\0') << "a failure must say why";
    EXPECT_EQ(strchr(err.msg, '\n'), nullptr) << "one line";
    EXPECT_EQ(err.code, PMU_E_INPUT) << err.msg;
    return err.msg;
}

TEST(DrvApi, OptsDefault)
{
    ita_drv_opts o = ita_drv_opts_default();
    EXPECT_EQ(o.mode, ITA_DRV_PER_PROCESS);
    EXPECT_EQ(o.latency, (unsigned)ITA_DRV_DEFAULT_LATENCY);
    EXPECT_EQ(o.dcr_pp, 1);
    EXPECT_EQ(o.per_process, 0);
    EXPECT_EQ(o.every_process, 0);
    EXPECT_EQ(o.config.nregs, 0u);
    EXPECT_EQ(o.on_sample, nullptr);
}

TEST(DrvApi, CreateRejectsBadOptions)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    EXPECT_EQ(ita_drv_create(nullptr, &o, &err), nullptr);
    EXPECT_STREQ(err.msg, "driver: expected a backend and options");
    EXPECT_EQ(ita_drv_create(m.backend(), nullptr, &err), nullptr);

    ita_drv_opts bad = o;
    bad.mode = (ita_drv_mode)7;
    EXPECT_EQ(create_error(m.backend(), bad), "driver: mode 7, expected per-process or system-wide");
    bad = o;
    bad.latency = ITA_DRV_MAX_LATENCY + 1;
    EXPECT_EQ(create_error(m.backend(), bad), "driver: latency 1000001, expected 0..1000000 records");
    bad = o;
    bad.per_process = 1;
    EXPECT_NE(create_error(m.backend(), bad).find("per_process is for system-wide"), std::string::npos);
    bad = o;
    bad.mode = ITA_DRV_SYSTEM_WIDE;
    bad.every_process = 1;
    EXPECT_NE(create_error(m.backend(), bad).find("every_process is for per-process"), std::string::npos);
    // A NULL err is allowed.
    EXPECT_EQ(ita_drv_create(m.backend(), &bad, nullptr), nullptr);
    EXPECT_TRUE(m.log.empty());
}

TEST(DrvApi, ConfigurationChecks)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    // Registers the driver owns, or that are no configuration register.
    // The EAR/BTB data registers are the context's dynamic state, not configuration.
    for (unsigned v : {(unsigned)ITA_VIS_PMC0, (unsigned)ITA_VIS_PMD4, (unsigned)ITA_VIS_PSR,
                       (unsigned)ITA_VIS_DCR, (unsigned)ITA_VIS_IPSR, (unsigned)ITA_VIS_PMD0,
                       (unsigned)ITA_VIS_PMD16, (unsigned)ITA_VIS_PMD17}) {
        ita_drv_opts bad = o;
        bad.config.nregs = 1;
        bad.config.reg[0].addr = vis(v);
        std::string e = create_error(m.backend(), bad);
        EXPECT_NE(e.find(std::string("(") + ita_vis_table[v].name + ") is not a context register"),
                  std::string::npos)
            << e;
    }
    ita_drv_opts bad = o;
    bad.config.nregs = 1;
    bad.config.reg[0].addr = ITA_ADDR(ITA_SPACE_PMC, 16);  // not implemented
    // The context registers are listed from the register map (the .def's visible list).
    EXPECT_EQ(create_error(m.backend(), bad),
              "configuration: register 0x010 (an unimplemented register) is not a context register: expected one "
              "of PMC4..PMC15, IBR0..IBR7, DBR0..DBR7");
    bad = o;
    add_counter(&bad.config, M, 1, ITA_EV_DATA_EAR_EVENTS, 8, 0);
    bad.config.capture[1] = ITA_DRV_CAPTURE_DEAR;
    EXPECT_EQ(create_error(m.backend(), bad),
              "configuration: PMD5 capture 2, expected none: the counter does not sample");
    bad.config.period[1] = 10;
    bad.config.capture[1] = 4;
    EXPECT_EQ(create_error(m.backend(), bad), "configuration: PMD5 capture 4, expected 0..3 (none, I-EAR, D-EAR, BTB)");
    bad = o;
    bad.config.nregs = ITA_DRV_MAX_REGS + 1;
    EXPECT_EQ(create_error(m.backend(), bad), "configuration: 33 registers, expected at most 32");
    bad = o;
    bad.config.period[2] = 10;
    EXPECT_EQ(create_error(m.backend(), bad), "configuration: a period for PMD6, but PMC6 is not configured");
    bad = o;
    add_counter(&bad.config, M, 0, ITA_EV_CPU_CYCLES, 8, (UINT64_C(1) << 47) + 1);
    EXPECT_EQ(create_error(m.backend(), bad),
              "configuration: PMD4 period 140737488355329, expected 1..2^47 (the counter width)");
    // The counter width is the model's: 2^32 is fine on Itanium, 2^32 + 1 is not.
    MockPmu ita(ITA_MODEL_ITANIUM);
    bad = o;
    add_counter(&bad.config, ITA_MODEL_ITANIUM, 1, ITA_EV_CPU_CYCLES, 8, UINT64_C(1) << 32);
    EXPECT_EQ(create_error(ita.backend(), bad), "");
    bad.config.period[1]++;
    EXPECT_NE(create_error(ita.backend(), bad).find("expected 1..2^32"), std::string::npos);
}

TEST(DrvApi, AttachAndStartErrors)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(ita_drv_current_pid(d), -1);
    EXPECT_FALSE(ita_drv_started(d));
    EXPECT_EQ(ita_drv_attach(d, 5, nullptr, &err), 0);
    EXPECT_EQ(ita_drv_attach(d, 5, nullptr, &err), -1);
    EXPECT_STREQ(err.msg, "attach: process 5 is attached already");
    ita_drv_config bad{};
    bad.period[0] = 3;
    EXPECT_EQ(ita_drv_attach(d, 6, &bad, &err), -1);
    EXPECT_STREQ(err.msg, "configuration: a period for PMD4, but PMC4 is not configured");
    EXPECT_EQ(ita_drv_ncontexts(d), 1u);  // the failed attach left nothing behind
    EXPECT_EQ(ita_drv_start(d, 5, &err), 0);
    EXPECT_TRUE(ita_drv_started(d));
    EXPECT_EQ(ita_drv_start(d, 5, &err), -1);
    EXPECT_STREQ(err.msg, "start: the session has started already");
    EXPECT_EQ(ita_drv_attach(d, 8, nullptr, &err), -1);
    EXPECT_STREQ(err.msg, "attach: the session has started; attach processes before it");
    ita_drv_destroy(d);

    o.mode = ITA_DRV_SYSTEM_WIDE;
    d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(ita_drv_attach(d, 5, nullptr, &err), -1);
    EXPECT_STREQ(err.msg, "attach: a system-wide session monitors every process");
    EXPECT_EQ(err.code, PMU_E_INPUT);
    ita_drv_destroy(d);
    ita_drv_destroy(nullptr);  // allowed
}

// Every failure of attach and start is a bad call: PMU_E_INPUT in the one error type.
TEST(DrvApi, ErrorsCarryTheirCode)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    ASSERT_EQ(ita_drv_attach(d, 5, nullptr, &err), 0) << err.msg;
    err = {PMU_OK, ""};
    EXPECT_EQ(ita_drv_attach(d, 5, nullptr, &err), -1);
    EXPECT_EQ(err.code, PMU_E_INPUT) << err.msg;
    ita_drv_config too_many{};
    too_many.nregs = ITA_DRV_MAX_REGS + 1;
    err = {PMU_OK, ""};
    EXPECT_EQ(ita_drv_attach(d, 6, &too_many, &err), -1);
    EXPECT_EQ(err.code, PMU_E_INPUT);
    EXPECT_STREQ(err.msg, "configuration: 33 registers, expected at most 32");
    ASSERT_EQ(ita_drv_start(d, 5, &err), 0) << err.msg;
    err = {PMU_OK, ""};
    EXPECT_EQ(ita_drv_start(d, 5, &err), -1);
    EXPECT_EQ(err.code, PMU_E_INPUT) << err.msg;
    ita_drv_destroy(d);
}

// The messages of create, attach and start name what was wrong.
TEST(DrvApi, ErrorMessagesNameTheProblem)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    EXPECT_EQ(ita_drv_create(nullptr, &o, &err), nullptr);
    EXPECT_STREQ(err.msg, "driver: expected a backend and options");
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    EXPECT_EQ(ita_drv_attach(d, 5, nullptr, &err), 0);
    EXPECT_EQ(ita_drv_attach(d, 5, nullptr, &err), -1);
    EXPECT_STREQ(err.msg, "attach: process 5 is attached already");
    EXPECT_EQ(ita_drv_attach(d, 6, nullptr, nullptr), 0);  // no error wanted: allowed
    EXPECT_EQ(ita_drv_start(d, 5, &err), 0);
    EXPECT_EQ(ita_drv_start(d, 5, &err), -1);
    EXPECT_EQ(err.code, PMU_E_INPUT);
    ita_drv_destroy(d);
}

TEST(DrvApi, CountersGetPmAndOiFromTheDriver)
{
    for (int sys = 0; sys <= 1; sys++) {
        MockPmu m(M);
        ita_drv_opts o = ita_drv_opts_default();
        o.mode = sys ? ITA_DRV_SYSTEM_WIDE : ITA_DRV_PER_PROCESS;
        o.every_process = !sys;
        ita_drv_config &c = o.config;
        add_counter(&c, M, 1, ITA_EV_CPU_CYCLES, 0x8, 0);
        c.reg[0].value = ITA_FSET(c.reg[0].value, PMC_GEN, PM, !sys);  // the wrong pm
        pmu_err err = {PMU_OK, ""};
        ita_drv *d = ita_drv_create(m.backend(), &o, &err);
        ASSERT_NE(d, nullptr) << err.msg;
        ASSERT_EQ(ita_drv_start(d, 1, &err), 0);
        uint64_t v = m.regs[pmc(1)];
        EXPECT_EQ(ITA_FGET(v, PMC_GEN, PM), (uint64_t)sys);
        EXPECT_EQ(ITA_FGET(v, PMC_GEN, OI), 1u);
        EXPECT_EQ(ITA_FGET(v, PMC_GEN, PLM), 0x8u);
        // A configuration register the configuration does not give is at its reset value.
        EXPECT_EQ(m.regs[vis(ITA_VIS_PMC13)], ita_reg_lookup(vis(ITA_VIS_PMC13))->reset[M]);
        ita_drv_destroy(d);
    }
}

TEST(DrvApi, ReadsTotalsAndContextQueries)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    o.every_process = 1;
    add_counter(&o.config, M, 0, ITA_EV_CPU_CYCLES, 0x8, 0);
    add_counter(&o.config, M, 1, ITA_EV_CPU_CYCLES, 0x8, UINT64_C(1) << 47);  // reload 0
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    EXPECT_EQ(ita_drv_ncontexts(d), 0u);
    ASSERT_EQ(ita_drv_start(d, 40, &err), 0);
    EXPECT_EQ(m.regs[pmd(1)], 0u);  // a full-width period starts (and reloads) at 0
    m.regs[pmd(0)] = 17;
    ita_drv_switch(d, 41);  // every_process: a context appears at the first switch-in
    m.regs[pmd(0)] = 5;
    ASSERT_EQ(ita_drv_ncontexts(d), 2u);
    EXPECT_EQ(ita_drv_context_pid(d, 0), 40u);
    EXPECT_EQ(ita_drv_context_pid(d, 1), 41u);
    EXPECT_EQ(ita_drv_context_pid(d, 2), 0u);  // out of range
    uint64_t v = 0;
    EXPECT_EQ(ita_drv_read(d, 40, 0, &v), 0);
    EXPECT_EQ(v, 17u);  // saved at the switch
    EXPECT_EQ(ita_drv_read(d, 41, 0, &v), 0);
    EXPECT_EQ(v, 5u);   // live
    EXPECT_EQ(ita_drv_read(d, 42, 0, &v), -1);
    EXPECT_EQ(ita_drv_read(d, 40, 4, &v), -1);
    EXPECT_EQ(ita_drv_total(d, 0), 22u);
    EXPECT_EQ(ita_drv_total(d, 9), 0u);
    ita_drv_ctx_info info;
    EXPECT_EQ(ita_drv_context_info(d, 42, &info), -1);
    ASSERT_EQ(ita_drv_context_info(d, 41, &info), 0);
    EXPECT_EQ(info.pid, 41u);
    EXPECT_TRUE(info.loaded);
    EXPECT_EQ(info.switch_ins, 1u);
    ASSERT_EQ(ita_drv_context_info(d, 40, &info), 0);
    EXPECT_FALSE(info.loaded);
    EXPECT_EQ(ita_drv_current_pid(d), 41);
    const ita_drv_stats *st = ita_drv_get_stats(d);
    EXPECT_EQ(st->switches, 1u);
    EXPECT_EQ(st->saves, 1u);
    EXPECT_EQ(st->restores, 2u);
    ita_drv_switch(d, 41);  // already running: nothing
    EXPECT_EQ(st->switches, 1u);
    ita_drv_destroy(d);
}

// ita_drv_step() is before_step + pmu_step + the interrupt line + after_step, here on
// the reference model: a 1-cycle period interrupts every cycle it counts.
TEST(DrvApi, StepOnTheReference)
{
    pmu_backend *ref = ita_ref_create(nullptr);
    ita_drv_opts o = ita_drv_opts_default();
    o.latency = 0;
    add_counter(&o.config, M, 0, ITA_EV_CPU_CYCLES, 0x8, 1);
    o.every_process = 1;
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(ref, &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    StreamBuilder sb;
    sb.pid = 3;
    sb.user(20);
    for (ita_cycle c : sb.recs)
        ita_drv_step(d, &c);
    ita_drv_stop(d);
    uint64_t v = 0;
    ASSERT_EQ(ita_drv_read(d, 3, 0, &v), 0);
    EXPECT_EQ(v, 20u);
    EXPECT_EQ(v, ita_ref_total(ref, 4));
    EXPECT_EQ(ita_drv_get_stats(d)->interrupts, 20u);
    EXPECT_EQ(ita_drv_get_stats(d)->samples, 20u);
    EXPECT_EQ(ita_drv_get_stats(d)->records, 20u);
    ita_drv_destroy(d);
    pmu_destroy(ref);
}

}  // namespace

// ---- symbol tables (verilator/cli/symtab.c, used by pmusim profile) ----------------------

namespace {

TEST(DrvSymtab, LoadSortsAndFindsByHalfOpenRange)
{
    char path[] = "/tmp/drv_symtab_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    const char text[] = "# name ranges, unsorted\n"
                        "0x3000 0x3010 late\n"
                        "\n"
                        "1000 1100 early   \n"
                        "  1100\t1200 next\n";
    ASSERT_EQ(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    pmu_err err;
    drv_symtab *t = drv_symtab_load(path, &err);
    ASSERT_NE(t, nullptr) << err.msg;
    ASSERT_EQ(drv_symtab_count(t), 3u);
    EXPECT_STREQ(drv_symtab_name(t, 0), "early");  // sorted by start, trailing blanks dropped
    EXPECT_STREQ(drv_symtab_name(t, 1), "next");
    EXPECT_STREQ(drv_symtab_name(t, 2), "late");
    EXPECT_EQ(drv_symtab_name(t, 3), nullptr);
    EXPECT_EQ(drv_symtab_find(t, 0xfff), -1);
    EXPECT_EQ(drv_symtab_find(t, 0x1000), 0);
    EXPECT_EQ(drv_symtab_find(t, 0x10ff), 0);
    EXPECT_EQ(drv_symtab_find(t, 0x1100), 1);  // the end is exclusive
    EXPECT_EQ(drv_symtab_find(t, 0x1200), -1);
    EXPECT_EQ(drv_symtab_find(t, 0x300f), 2);
    EXPECT_EQ(drv_symtab_find(t, 0x3010), -1);
    EXPECT_EQ(drv_symtab_find(t, ~0ull), -1);
    drv_symtab_free(t);
    unlink(path);
    drv_symtab_free(nullptr);
}

TEST(DrvSymtab, ANameOnSeveralLinesIsOneFunctionInPieces)
{
    // pmusim record's "FILE:[no symbol]" stretches: one function, numbered by its first piece
    const char text[] = "0x2000 0x2100 lib:[no symbol]\n"
                        "0x1000 0x1010 lib:[no symbol]\n"
                        "0x1010 0x1800 lib:f\n"
                        "0x1800 0x1900 lib:[no symbol]\n"
                        "0x5000 0x5004 prog:main\n";
    pmu_err err;
    drv_symtab *t = drv_symtab_parse(text, sizeof text - 1, "pieces.sym", &err);
    ASSERT_NE(t, nullptr) << err.msg;
    ASSERT_EQ(drv_symtab_count(t), 3u);
    EXPECT_STREQ(drv_symtab_name(t, 0), "lib:[no symbol]");
    EXPECT_STREQ(drv_symtab_name(t, 1), "lib:f");
    EXPECT_STREQ(drv_symtab_name(t, 2), "prog:main");
    EXPECT_EQ(drv_symtab_find(t, 0x1000), 0);
    EXPECT_EQ(drv_symtab_find(t, 0x1010), 1);
    EXPECT_EQ(drv_symtab_find(t, 0x18ff), 0);
    EXPECT_EQ(drv_symtab_find(t, 0x1900), -1);  // between the pieces: no function
    EXPECT_EQ(drv_symtab_find(t, 0x20ff), 0);
    EXPECT_EQ(drv_symtab_find(t, 0x5003), 2);
    uint64_t start = 0, end = 0;
    ASSERT_EQ(drv_symtab_range(t, 0, &start, &end), 0);
    EXPECT_EQ(start, 0x1000u);  // the hull of its pieces
    EXPECT_EQ(end, 0x2100u);
    EXPECT_EQ(drv_symtab_range(t, 3, &start, &end), -1);
    drv_symtab_free(t);
}

TEST(DrvSymtab, GeneratorFunctionsMatchItsSymbolFile)
{
    pmu_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 5;
    o.cycles = 10;
    pmu_gen *g = pmu_gen_create(&ita_dialect, &o, nullptr);
    ASSERT_NE(g, nullptr);
    char path[] = "/tmp/drv_symgen_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    pmu_err err;
    ASSERT_EQ(pmu_gen_write_symbols(g, path, &err), 0) << err.msg;
    drv_symtab *a = drv_symtab_load(path, &err);
    ASSERT_NE(a, nullptr) << err.msg;
    drv_symtab *b = drv_symtab_from_gen(g);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(drv_symtab_count(a), drv_symtab_count(b));
    EXPECT_GT(drv_symtab_count(a), 20u);
    for (unsigned i = 0; i < drv_symtab_count(a); i++)
        EXPECT_STREQ(drv_symtab_name(a, i), drv_symtab_name(b, i));
    drv_symtab_free(a);
    drv_symtab_free(b);
    pmu_gen_destroy(g);
    unlink(path);
}

}  // namespace
