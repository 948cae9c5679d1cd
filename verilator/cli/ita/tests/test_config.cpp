// test_config.cpp - the configuration file parser: every form and every error, with
// the line it names.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/ita/ita_config.h"
#include "harness/ita/ita_harness_util.h"
#include "csim/ita/ita_ref.h"

using harness_test::has;
using harness_test::must_fail;
using harness_test::must_parse;
using harness_test::parse_config;

namespace {

const uint64_t kW2 = UINT64_C(1) << 47;  // Itanium 2 counter range
const uint64_t kW1 = UINT64_C(1) << 32;  // Itanium


TEST(Config, RawRegisterValue)
{
    ita_config cfg = must_parse("PMC4 = 0x0000000000800000\n");
    EXPECT_EQ(cfg.line[ITA_VIS_PMC4], 1u);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC4], UINT64_C(0x800000));
    // No '=' spacing needed, decimal accepted.
    cfg = must_parse("PMC5=4660\n");
    EXPECT_EQ(cfg.value[ITA_VIS_PMC5], UINT64_C(4660));
}

TEST(Config, FieldFormWithEventAndPeriod)
{
    ita_config cfg = must_parse(
        "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 oi=1 thres=0 ism=ia64 period=100000\n");
    uint64_t v = cfg.value[ITA_VIS_PMC5];
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, ES), ita_event_table[ITA_EV_IA64_INST_RETIRED].code);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, UMASK), 0u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, PLM), 8u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, PM), 0u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, OI), 1u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, ISM), 2u);  // IA-64 only: bit 25 disables IA-32
    EXPECT_EQ(cfg.period[1], 100000u);
    EXPECT_EQ(cfg.start[1], kW2 - 100000);
    EXPECT_EQ(cfg.reload[1], kW2 - 100000);
    // Counters without a period start at 0 and reload 0.
    EXPECT_EQ(cfg.start[0], 0u);
    EXPECT_EQ(cfg.reload[0], 0u);
}

TEST(Config, FieldFormStartsFromResetWithOiSet)
{
    // PMC4 resets to the Itanium 2 power-enable bit; oi is 1 unless given.
    ita_config cfg = must_parse("PMC4 es=0x50 umask=0 plm=0xf thres=3\n");
    uint64_t v = cfg.value[ITA_VIS_PMC4];
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, ENABLE), 1u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, OI), 1u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, ES), 0x50u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, THRES), 3u);
    EXPECT_EQ(ITA_FGET(v, PMC_GEN, PLM), 0xfu);
    cfg = must_parse("PMC6 es=0x50 oi=0\n");
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC6], PMC_GEN, OI), 0u);
}

TEST(Config, CpuStateRegisters)
{
    ita_config cfg = must_parse("PSR up=1 pp=1\nDCR pp=1\nIPSR up=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_PSR], ITA_FMASK(PSR, UP) | ITA_FMASK(PSR, PP));
    EXPECT_EQ(cfg.value[ITA_VIS_DCR], ITA_FMASK(DCR, PP));
    EXPECT_EQ(cfg.value[ITA_VIS_IPSR], ITA_FMASK(PSR, UP));
    EXPECT_EQ(cfg.line[ITA_VIS_DCR], 2u);
}

TEST(Config, CaseCommentsBlankLinesAndIsmNames)
{
    ita_config cfg = must_parse(
        "# a comment line\n"
        "\n"
        "   pmc4 EVENT=cpu_cycles PLM=1   # trailing comment\n"
        "PMC5 event=CPU_CYCLES ism=both\n"
        "PMC6 event=CPU_CYCLES ism=IA32\n"
        "PMC7 event=CPU_CYCLES ism=none\r\n");
    EXPECT_EQ(cfg.line[ITA_VIS_PMC4], 3u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC4], PMC_GEN, ES), 0x12u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC5], PMC_GEN, ISM), 0u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC6], PMC_GEN, ISM), 1u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC7], PMC_GEN, ISM), 3u);
    cfg = must_parse("PMC4 ism=2\n");
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC4], PMC_GEN, ISM), 2u);
}

TEST(Config, ModelLine)
{
    ita_config cfg;
    pmu_err err;
    const std::string text = "model = itanium\nPMC4 event=CPU_CYCLES period=10\n";
    ASSERT_EQ(ita_config_parse(text.data(), text.size(), "m.cfg", ITA_MODEL_ITANIUM2, 0, &cfg, &err), 0)
        << err.msg;
    EXPECT_EQ(cfg.model, ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.model_line, 1u);
    EXPECT_EQ(cfg.start[0], kW1 - 10);  // the 32-bit counter of Itanium
    // Without a model line the caller's model holds.
    ASSERT_EQ(ita_config_parse("PMC4 = 0\n", 9, "m.cfg", ITA_MODEL_ITANIUM, 0, &cfg, &err), 0);
    EXPECT_EQ(cfg.model, ITA_MODEL_ITANIUM);
}

TEST(Config, PmdStartValue)
{
    ita_config cfg = must_parse("PMD6 = 0x7ffffffffff0\n");
    EXPECT_EQ(cfg.start[2], UINT64_C(0x7ffffffffff0));
    EXPECT_EQ(cfg.reload[2], 0u);
}

TEST(Config, PeriodLimits)
{
    ita_config cfg = must_parse("PMC4 event=CPU_CYCLES period=0x800000000000\n");  // 2^47
    EXPECT_EQ(cfg.start[0], 0u);
    cfg = must_parse("PMC4 event=CPU_CYCLES period=0x100000000\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.start[0], 0u);
    EXPECT_TRUE(has(must_fail("PMC4 event=CPU_CYCLES period=0x100000001\n", ITA_MODEL_ITANIUM),
                    "test.cfg:1: period: expected 1..2^32"));
    EXPECT_TRUE(has(must_fail("PMC4 event=CPU_CYCLES period=0\n"), "test.cfg:1: period: expected 1..2^47"));
    EXPECT_TRUE(has(must_fail("PMC4 period=0x800000000001\n"), "period: expected 1..2^47"));
}

TEST(Config, ApplyProgramsTheBackend)
{
    ita_config cfg = must_parse(
        "PMC4 event=CPU_CYCLES plm=0xf period=1000\n"
        "PMD5 = 77\n"
        "PSR up=1\n"
        "DCR pp=1\n");
    pmu_backend *b = ita_ref_create(nullptr);
    ASSERT_NE(b, nullptr);
    ita_config_apply(&cfg, b);
    using harness_test::vis_addr;
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMC4)), cfg.value[ITA_VIS_PMC4]);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD4)) & (kW2 - 1), kW2 - 1000);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD5)), 77u);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PSR)), ITA_FMASK(PSR, UP));
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_DCR)), ITA_FMASK(DCR, PP));
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMC0)), 0u);  // unfrozen
    pmu_destroy(b);

    // A PMC0 line is applied as given (here: the run stays frozen).
    cfg = must_parse("PMC0 fr=1\n");
    b = ita_ref_create(nullptr);
    ita_config_apply(&cfg, b);
    EXPECT_EQ(ITA_FGET(pmu_read(b, vis_addr(ITA_VIS_PMC0)), PMC0, FR), 1u);
    pmu_destroy(b);
}

TEST(Config, BuiltInConfigurationsParse)
{
    for (ita_model m : {ITA_MODEL_ITANIUM, ITA_MODEL_ITANIUM2}) {
        ita_config cfg = must_parse(ita_config_default_text(m), m);
        for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
            EXPECT_NE(cfg.line[ITA_VIS_PMC4 + k], 0u) << "model " << m << " counter " << k;
            EXPECT_NE(cfg.period[k], 0u);
        }
        EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_DCR], DCR, PP), 1u);
        // A thresholded counter (Itanium wires IA64_INST_RETIRED to PMC4/5) and a
        // privileged kernel-only counter.
        const unsigned thresholded = m == ITA_MODEL_ITANIUM ? ITA_VIS_PMC5 : ITA_VIS_PMC6;
        EXPECT_EQ(ITA_FGET(cfg.value[thresholded], PMC_GEN, THRES), 1u);
        EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC7], PMC_GEN, PM), 1u);
        EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC7], PMC_GEN, PLM), 1u);
    }
}

// docs/ita-config-format.md shows the built-in configurations line for line.
TEST(Config, BuiltInConfigurationsAreDocumented)
{
    std::ifstream in(harness_test::repo_file("docs/ita-config-format.md"));
    ASSERT_TRUE(in.good()) << "docs/ita-config-format.md";
    std::stringstream doc;
    doc << in.rdbuf();
    for (ita_model m : {ITA_MODEL_ITANIUM, ITA_MODEL_ITANIUM2}) {
        std::istringstream text(ita_config_default_text(m));
        std::string line;
        while (std::getline(text, line)) {
            if (!line.empty() && line[0] != '#') {
                EXPECT_TRUE(has(doc.str(), line)) << "not in docs/ita-config-format.md: " << line;
            }
        }
    }
}

TEST(Config, Describe)
{
    ita_config cfg = must_parse("PMC4 event=NOPS_RETIRED plm=0x8 thres=2 ism=ia64\nPMC5 es=0x77 plm=3\n");
    char buf[128];
    ita_config_describe_event(cfg.value[ITA_VIS_PMC4], ITA_MODEL_ITANIUM2, buf, sizeof buf);
    EXPECT_STREQ(buf, "NOPS_RETIRED");
    ita_config_describe_qualifiers(cfg.value[ITA_VIS_PMC4], buf, sizeof buf);
    EXPECT_STREQ(buf, "plm=user pm=0 thres=2 ism=ia64");
    ita_config_describe_event(cfg.value[ITA_VIS_PMC5], ITA_MODEL_ITANIUM2, buf, sizeof buf);
    EXPECT_STREQ(buf, "es=0x77 umask=0x0");
    ita_config_describe_qualifiers(cfg.value[ITA_VIS_PMC5], buf, sizeof buf);
    EXPECT_STREQ(buf, "plm=0,1 pm=0 thres=0 ism=both");
}

// ---- errors: each names file:line and the field ---------------------------------------

TEST(ConfigErrors, UnknownRegister)
{
    std::string e = must_fail("PMC4 = 0\nPMC16 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: register: unknown register 'PMC16'; expected model, irange, drange, opcode or one of")) << e;
    // Lists the names of the .def's visible list, runs of consecutive registers folded.
    EXPECT_TRUE(has(e, "PMC0, PMC4..PMC15, PMD4..PMD7, PMD0..PMD3, PMD8..PMD17, PSR, DCR, IPSR, IBR0..IBR7, "
                       "DBR0..DBR7")) << e;
    e = must_fail("PMD18 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: register: unknown register 'PMD18'")) << e;
    e = must_fail("PMC2 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: register: unknown register 'PMC2'")) << e;
}

// The EAR and BTB registers are registers like the others: raw values, and fields in the
// model's own layout (the .def's group_ITA forms on Itanium).
TEST(ConfigEarBtb, RegistersAndFieldsOfEachModel)
{
    ita_config cfg = must_parse("PMC10 plm=8 pm=1 ct=2 umask=0xfc\nPMC12 plm=8 tm=3 ptm=3 ppm=3 brt=1\n"
                                "PMD2 = 0x1234\nPMD16 bbi=2 full=1\nPMD17 iaddr=0x400 vl=1 bn=1 slot=2\n");
    EXPECT_EQ(cfg.value[ITA_VIS_PMC10], UINT64_C(0x2000) | (UINT64_C(0xfc) << 5) | 0x10 | 0x8);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC12], UINT64_C(0x7f08));
    EXPECT_EQ(cfg.value[ITA_VIS_PMD2], UINT64_C(0x1234));
    EXPECT_EQ(cfg.value[ITA_VIS_PMD16], UINT64_C(0xa));
    EXPECT_EQ(cfg.value[ITA_VIS_PMD17], UINT64_C(0x400e));
    // Itanium: PMC10.pm is bit 6, umask bits 19:16; PMC12 has bpt/bac where brt was.
    cfg = must_parse("PMC10 plm=8 pm=1 tlb=1 umask=0x4\nPMC12 tm=3 bpt=1 bac=1\nPMD17 iaddr=0x400 vl=1 slot=2\n",
                     ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC10], UINT64_C(0x40000) | 0x80 | 0x40 | 0x8);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC12], UINT64_C(0xc300));
    EXPECT_EQ(cfg.value[ITA_VIS_PMD17], UINT64_C(0x4009));
    const struct {
        const char *text;
        ita_model model;
        const char *error;
    } bad[] = {
        {"PMC12 brt=1\n", ITA_MODEL_ITANIUM,
         "test.cfg:1: brt: unknown field of PMC12; expected one of plm, pm, tm, ptm, ppm, tar, bpt, bac"},
        {"PMD17 bn=1\n", ITA_MODEL_ITANIUM, "test.cfg:1: bn: unknown field of PMD17; expected one of iaddr, vl, slot"},
        {"PMC12 bpt=1\n", ITA_MODEL_ITANIUM2, "test.cfg:1: bpt: unknown field of PMC12"},
        {"PMD2 addr=1\n", ITA_MODEL_ITANIUM2, "test.cfg:1: PMD2: expected 'PMD2 = value': PMD2 has no fields"},
    };
    for (const auto &b : bad) {
        std::string e = must_fail(b.text, b.model);
        EXPECT_TRUE(has(e, b.error)) << e;
    }
}

TEST(ConfigErrors, UnknownField)
{
    std::string e = must_fail("# x\nPMC4 plm=1 colour=3\n");
    EXPECT_TRUE(has(e, "test.cfg:2: colour: unknown field of PMC4; expected one of plm, ev, oi")) << e;
    e = must_fail("DCR up=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: up: unknown field of DCR; expected one of pp")) << e;
    e = must_fail("PSR period=3\n");  // period belongs to counters only
    EXPECT_TRUE(has(e, "test.cfg:1: period: unknown field of PSR")) << e;
}

TEST(ConfigErrors, ValueOutOfFieldRange)
{
    std::string e = must_fail("PMC4 plm=16\n");
    EXPECT_TRUE(has(e, "test.cfg:1: plm: expected 0..15 (4 bits), found 16")) << e;
    e = must_fail("PSR up=2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: up: expected 0..1")) << e;
    e = must_fail("\n\nPMC5 es=0x80\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:3: es: expected 0..0x7f on Itanium, found 128")) << e;
    e = must_fail("PMC6 thres=4\n", ITA_MODEL_ITANIUM);  // 2-bit threshold on PMC6/7
    EXPECT_TRUE(has(e, "test.cfg:1: thres: expected 0..3 on Itanium")) << e;
    e = must_fail("PMC4 enable=1\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: enable: expected a field that Itanium implements: PMC4.enable has no writable bits there")) << e;
    // Not even 0: the field does not exist on the model.
    e = must_fail("PMC4 enable=0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: enable: expected a field that Itanium implements")) << e;
}

TEST(ConfigErrors, ReservedBitsInRawValue)
{
    std::string e = must_fail("PMC4 = 0x10800000\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC4: expected no bits outside the writable mask 0xfffff7f on Itanium 2")) << e;
    EXPECT_TRUE(has(e, "reserved bits 0x10000000")) << e;
    e = must_fail("PMC5 = 0x80\n");  // bit 7 is ig
    EXPECT_TRUE(has(e, "reserved bits 0x80")) << e;
    e = must_fail("PMD4 = 0x800000000000\n");  // bit 47
    EXPECT_TRUE(has(e, "test.cfg:1: PMD4:")) << e;
    EXPECT_TRUE(has(e, "reserved bits 0x800000000000")) << e;
    e = must_fail("PMD4 = 0x100000000\n", ITA_MODEL_ITANIUM);  // bit 32 on Itanium
    EXPECT_TRUE(has(e, "reserved bits 0x100000000")) << e;
    e = must_fail("PMC6 = 0x400000\n", ITA_MODEL_ITANIUM);  // threshold bit 22 on Itanium PMC6
    EXPECT_TRUE(has(e, "reserved bits 0x400000")) << e;
    must_parse("PMC4 = 0x400000\n", ITA_MODEL_ITANIUM);  // ...which PMC4 has
}

TEST(ConfigErrors, EventCounterMask)
{
    std::string e = must_fail("PMC5 event=L2_FORCE_RECIRC_ANY\n");
    EXPECT_TRUE(has(e, "test.cfg:1: event: L2_FORCE_RECIRC_ANY can only be counted on PMC4 (counter mask 0x10), not on PMC5")) << e;
    e = must_fail("PMC7 es=0xb4\n");
    EXPECT_TRUE(has(e, "test.cfg:1: es: L2_FORCE_RECIRC_ANY can only be counted on PMC4")) << e;
    must_parse("PMC4 event=L2_FORCE_RECIRC_ANY\n");
    // Itanium: libpfm-3's mask keeps retired instructions and nops on PMC4/5.
    e = must_fail("PMC6 event=IA64_INST_RETIRED\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: event: IA64_INST_RETIRED can only be counted on PMC4, PMC5 (counter mask 0x30), not on PMC6")) << e;
    must_parse("PMC5 event=NOPS_RETIRED\n", ITA_MODEL_ITANIUM);
    must_parse("PMC6 event=IA64_INST_RETIRED\n");
}

TEST(ConfigErrors, ThresholdAtOrAboveMaxincr)
{
    std::string e = must_fail("PMC4 event=NOPS_RETIRED thres=6\n");
    EXPECT_TRUE(has(e, "test.cfg:1: thres: expected 0..5 for NOPS_RETIRED (maxincr 6), found 6")) << e;
    e = must_fail("PMC4 thres=1 event=CPU_CYCLES\n");
    EXPECT_TRUE(has(e, "test.cfg:1: thres: expected 0 for CPU_CYCLES (maxincr 1")) << e;
    e = must_fail("PMC5 es=0xd1 thres=2\n");  // STORES_RETIRED, maxincr 2
    EXPECT_TRUE(has(e, "thres: expected 0..1 for STORES_RETIRED")) << e;
    must_parse("PMC4 event=NOPS_RETIRED thres=5\n");
}

TEST(ConfigErrors, DuplicateLinesAndFields)
{
    std::string e = must_fail("PMC4 plm=1\nPSR up=1\npmc4 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:3: PMC4: duplicate register line (first at line 1)")) << e;
    e = must_fail("PMC4 plm=1 PLM=2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: plm: given twice on this line")) << e;
}

TEST(ConfigErrors, UnknownEventSuggestsClosest)
{
    std::string e = must_fail("PMC4 event=CPU_CYCLE\n");
    EXPECT_TRUE(has(e, "test.cfg:1: event: unknown event 'CPU_CYCLE'; did you mean CPU_CYCLES?")) << e;
    e = must_fail("PMC4 event=l1d_read_miss_all\n");
    EXPECT_TRUE(has(e, "did you mean L1D_READ_MISSES_ALL?")) << e;
}

TEST(ConfigErrors, EventNotImplementedOnItanium)
{
    std::string e = must_fail("PMC4 event=FP_OPS_RETIRED\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: event: FP_OPS_RETIRED is not implemented on Itanium (the event table gives it no Itanium code)")) << e;
    e = must_fail("PMC4 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 is not implemented on Itanium")) << e;
    // Itanium's own names are accepted there and only there.
    ita_config cfg = must_parse("PMC4 event=INSTRUCTION_EAR_EVENTS\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC4], PMC_GEN, ES), 0x23u);
    e = must_fail("PMC4 event=INSTRUCTION_EAR_EVENTS\n");
    EXPECT_TRUE(has(e, "test.cfg:1: event: unknown event 'INSTRUCTION_EAR_EVENTS'")) << e;
}

// Events are programmed with the model's code (the register map's "Itanium code" column).
TEST(Config, EventCodePerModel)
{
    const ita_event_desc &l1d = ita_event_table[ITA_EV_L1D_READ_MISSES_ALL];
    ita_config cfg = must_parse("PMC7 event=L1D_READ_MISSES_ALL\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC7], PMC_GEN, ES), static_cast<uint64_t>(ita_event_code(&l1d, ITA_MODEL_ITANIUM)));
    EXPECT_NE(ita_event_code(&l1d, ITA_MODEL_ITANIUM), static_cast<int>(l1d.code));
    cfg = must_parse("PMC7 event=L1D_READ_MISSES_ALL\n");
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC7], PMC_GEN, ES), l1d.code);
    // And named back with the model's table.
    char buf[64];
    ita_config_describe_event(cfg.value[ITA_VIS_PMC7], ITA_MODEL_ITANIUM2, buf, sizeof buf);
    EXPECT_STREQ(buf, "L1D_READ_MISSES_ALL");
    cfg = must_parse("PMC7 event=L1D_READ_MISSES_ALL\n", ITA_MODEL_ITANIUM);
    ita_config_describe_event(cfg.value[ITA_VIS_PMC7], ITA_MODEL_ITANIUM, buf, sizeof buf);
    EXPECT_STREQ(buf, "L1D_READ_MISSES_RETIRED");  // the name of Itanium's row
    // A threshold check uses the event the model's code selects (es=0x6c: LOADS_RETIRED on
    // Itanium, maxincr 2).
    std::string e = must_fail("PMC4 es=0x6c thres=2\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: thres: expected 0..1 for LOADS_RETIRED")) << e;
}

TEST(ConfigErrors, EventWithEsOrUmask)
{
    std::string e = must_fail("PMC4 event=CPU_CYCLES umask=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: event: sets es and umask itself")) << e;
}

TEST(ConfigErrors, ModelLine)
{
    std::string e = must_fail("PMC4 = 0\nmodel = itanium\n");
    EXPECT_TRUE(has(e, "test.cfg:2: model: expected before the first register line")) << e;
    e = must_fail("model = itanium3\n");
    EXPECT_TRUE(has(e, "test.cfg:1: model: expected itanium or itanium2, found 'itanium3'")) << e;
    e = must_fail("model = itanium\n", ITA_MODEL_ITANIUM2);  // parse_config fixes the model
    EXPECT_TRUE(has(e, "test.cfg:1: model: itanium conflicts with --model itanium2")) << e;
    e = must_fail("model = itanium2\nmodel = itanium2\n");
    EXPECT_TRUE(has(e, "test.cfg:2: model: given twice (first at line 1)")) << e;
    e = must_fail("model itanium2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: model: expected 'model = itanium'")) << e;
}

TEST(ConfigErrors, PeriodAndPmdLineTogether)
{
    std::string e = must_fail("PMC4 event=CPU_CYCLES period=100\nPMD4 = 5\n");
    EXPECT_TRUE(has(e, "test.cfg:2: PMD4: expected no value: period= on line 1")) << e;
}

TEST(ConfigErrors, SyntaxOfLines)
{
    std::string e = must_fail("PMD4 plm=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMD4: expected 'PMD4 = value': a counter has no fields")) << e;
    e = must_fail("PMC4\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC4: expected '= value' or fields")) << e;
    e = must_fail("PMC4 =\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC4: expected a value after '='")) << e;
    e = must_fail("PMC4 = 1 2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC4: expected one value after '=', found '2'")) << e;
    e = must_fail("PMC4 = 12z\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC4: expected a decimal number or 0x hex, found '12z'")) << e;
    e = must_fail("PMC4 plm\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC4: expected name=value, found 'plm'")) << e;
    e = must_fail("PMC4 plm=0xg\n");
    EXPECT_TRUE(has(e, "test.cfg:1: plm: expected hex digits after 0x, found '0xg'")) << e;
    e = must_fail("PMC4 plm=\n");
    EXPECT_TRUE(has(e, "test.cfg:1: plm: expected a value after '='")) << e;
    e = must_fail("PMC4 ism=arm\n");
    EXPECT_TRUE(has(e, "test.cfg:1: ism: expected both, ia64, ia32, none or 0..3, found 'arm'")) << e;
    e = must_fail("PMC4 = 0x10000000000000000\n");
    EXPECT_TRUE(has(e, "expected a number")) << e;
}

TEST(ConfigErrors, PresetOverflowBits)
{
    std::string e = must_fail("PMC0 fr=0 ovf=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: ovf: expected ovf = 0")) << e;
    e = must_fail("PMC0 = 0x10\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC0: expected ovf = 0")) << e;
    must_parse("PMC0 fr=0 ovf=0\n");
}

TEST(ConfigErrors, MissingFile)
{
    ita_config cfg;
    pmu_err err;
    ASSERT_NE(ita_config_load("/nonexistent/dir/x.cfg", ITA_MODEL_ITANIUM2, 0, &cfg, &err), 0);
    EXPECT_TRUE(has(err.msg, "/nonexistent/dir/x.cfg: cannot open")) << err.msg;
    EXPECT_EQ(err.code, PMU_E_IO);  // not bad input: the file is not there
    // A directory opens but cannot be read.
    ASSERT_NE(ita_config_load("/", ITA_MODEL_ITANIUM2, 0, &cfg, &err), 0);
    EXPECT_TRUE(has(err.msg, "/: cannot read")) << err.msg;
    EXPECT_EQ(err.code, PMU_E_IO);
}

TEST(ConfigErrors, ParseErrorsAreBadInput)
{
    ita_config cfg;
    pmu_err err;
    const std::string text = "PMC4 plm=16\n";
    ASSERT_NE(ita_config_parse(text.data(), text.size(), "e.cfg", ITA_MODEL_ITANIUM2, 0, &cfg, &err), 0);
    EXPECT_EQ(err.code, PMU_E_INPUT);
    EXPECT_STREQ(err.msg, "e.cfg:1: plm: expected 0..15 (4 bits), found 16");
    const std::string nul("PMC4 = 0\0\n", 10);
    ASSERT_NE(ita_config_parse(nul.data(), nul.size(), "e.cfg", ITA_MODEL_ITANIUM2, 0, &cfg, &err), 0);
    EXPECT_EQ(err.code, PMU_E_INPUT);
    EXPECT_STREQ(err.msg, "e.cfg:1: line: expected text, found a NUL byte");
}

// Every number goes through pmusim's one integer parser (include/common/pmu_num.h): its
// messages say what was wrong and never print a raw byte.
TEST(ConfigErrors, NumbersUseTheOneIntegerSyntax)
{
    const struct {
        const char *line, *message;
    } cases[] = {
        {"PMC4 plm=010", "plm: expected a decimal number without leading zeros, or 0x hex, found '010'"},
        {"PMC4 = -1", "PMC4: expected an unsigned number without a sign, found '-1'"},
        {"PMC4 = 0x10000000000000000", "PMC4: expected a number that fits in 64 bits, found '0x10000000000000000'"},
        {"PMC4 plm=1\x01", "plm: expected a decimal number or 0x hex, found '1\\x01'"},
        {"PMC4 event=CPU_CYCLES period=0x1g", "period: expected hex digits after 0x, found '0x1g'"},
        {"PMC8 ig_ad=01", "ig_ad: expected a decimal number without leading zeros, or 0x hex, found '01'"},
        {"irange 010..0x20 pair=0", "range: expected START..END, two addresses (decimal or 0x hex), found '010..0x20'"},
        {"irange 0x0..0x10 pair=00", "pair: expected a decimal number without leading zeros, or 0x hex, found '00'"},
        {"opcode PMC8 class=nop inv=01", "inv: expected 0 or 1, found '01'"},
    };
    for (const auto &c : cases)
        EXPECT_EQ(must_fail(std::string(c.line) + "\n"), std::string("test.cfg:1: ") + c.message) << c.line;
    // Upper-case hex and the largest value still parse.
    ita_config cfg = must_parse("DBR0 = 0XFFFFFFFFFFFFFFFF\n");
    EXPECT_EQ(cfg.value[ITA_VIS_DBR0], ~UINT64_C(0));
}

TEST(ConfigErrors, LoadReportsFileName)
{
    char path[] = "/tmp/pmusim_cfg_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    FILE *f = fdopen(fd, "w");
    std::fputs("PMC4 event=CPU_CYCLES\n\nPMC5 plm=99\n", f);
    std::fclose(f);
    ita_config cfg;
    pmu_err err;
    ASSERT_NE(ita_config_load(path, ITA_MODEL_ITANIUM2, 0, &cfg, &err), 0);
    EXPECT_EQ(std::string(err.msg), std::string(path) + ":3: plm: expected 0..15 (4 bits), found 99");
    std::remove(path);
}

}  // namespace
