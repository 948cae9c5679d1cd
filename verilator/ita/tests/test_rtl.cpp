// test_rtl.cpp - the Verilated backend: parameter sets, the register port, the
// observation port and waveform files.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/ita/ita_harness_util.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"

using namespace harness_test;

namespace {

pmu_backend *rtl_for(ita_model m)
{
    ita_params p = ita_params_default();
    p.model = m;
    char why[256] = "";
    pmu_backend *b = ita_rtl_create(&p, why, sizeof why);
    EXPECT_NE(b, nullptr) << why;
    return b;
}

std::string temp_path(const char *suffix)
{
    return std::string("/tmp/pmusim_test_") + std::to_string(getpid()) + suffix;
}

TEST(RtlBackend, RejectsParameterSetsThatWereNotBuilt)
{
    char why[256];
    ita_params p = ita_params_default();
    p.pmd_sext = 0;
    EXPECT_EQ(ita_rtl_create(&p, why, sizeof why), nullptr);
    EXPECT_NE(std::string(why).find("pmd_sext=0 was not Verilated"), std::string::npos) << why;
    p = ita_params_default();
    p.thr_ge = 1;
    EXPECT_EQ(ita_rtl_create(&p, why, sizeof why), nullptr);
    EXPECT_NE(std::string(why).find("thr_ge=1 was not Verilated"), std::string::npos) << why;
    p = ita_params_default();
    p.fine_2bundle = 1;
    EXPECT_EQ(ita_rtl_create(&p, why, sizeof why), nullptr);
    EXPECT_NE(std::string(why).find("fine_2bundle=1 was not Verilated"), std::string::npos) << why;
    p = ita_params_default();
    p.model = static_cast<ita_model>(7);
    EXPECT_EQ(ita_rtl_create(&p, why, sizeof why), nullptr);
    EXPECT_NE(std::string(why).find("model"), std::string::npos) << why;
    // A NULL message buffer is allowed.
    p.model = ITA_MODEL_ITANIUM2;
    p.thr_ge = 1;
    EXPECT_EQ(ita_rtl_create(&p, nullptr, 0), nullptr);
}

TEST(RtlBackend, BothModelsResetLikeTheReference)
{
    for (ita_model m : {ITA_MODEL_ITANIUM2, ITA_MODEL_ITANIUM}) {
        pmu_backend *rtl = rtl_for(m);
        ASSERT_NE(rtl, nullptr);
        ita_params p = ita_params_default();
        p.model = m;
        pmu_backend *ref = ita_ref_create(&p);
        EXPECT_STREQ(rtl->name, "rtl");
        EXPECT_EQ(rtl->model, m);
        pmu_state a, e;
        std::memset(&a, 0, sizeof a);
        std::memset(&e, 0, sizeof e);
        pmu_snapshot(rtl, &a);
        pmu_snapshot(ref, &e);
        for (unsigned v = 0; v < ITA_NVIS; v++)
            EXPECT_EQ(a.reg[v], e.reg[v]) << ita_vis_table[v].name << " model " << m;
        EXPECT_EQ(a.pmi, 0);
        EXPECT_EQ(ita_reg_lookup(vis_addr(ITA_VIS_PMC0))->reset[m], a.reg[ITA_VIS_PMC0]);
        pmu_destroy(rtl);
        pmu_destroy(ref);
    }
}

TEST(RtlBackend, WriteReadStepAndReset)
{
    pmu_backend *b = rtl_for(ITA_MODEL_ITANIUM2);
    ASSERT_NE(b, nullptr);
    // PMC4: CPU_CYCLES, all levels; PSR.up; unfreeze.
    uint64_t pmc4 = ITA_FSET(ITA_FSET(0, PMC_GEN, ES, ita_event_table[ITA_EV_CPU_CYCLES].code),
                             PMC_GEN, PLM, 0xf);
    pmu_write(b, vis_addr(ITA_VIS_PMC4), pmc4);
    pmu_write(b, vis_addr(ITA_VIS_PSR), ITA_FMASK(PSR, UP));
    pmu_write(b, vis_addr(ITA_VIS_PMC0), 0);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMC4)), pmc4);  // visible right after the write
    EXPECT_EQ(b->cycle, 0u);                                // writes are not records
    ita_cycle c = simple_record(2, 3);
    for (int i = 0; i < 7; i++) pmu_step(b, &c);
    EXPECT_EQ(b->cycle, 7u);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD4)), 7u);
    pmu_state s;
    pmu_snapshot(b, &s);
    EXPECT_EQ(s.reg[ITA_VIS_PMD4], 7u);
    EXPECT_EQ(s.reg[ITA_VIS_PSR], ITA_FMASK(PSR, UP));
    // reads of unimplemented registers give 0
    EXPECT_EQ(pmu_read(b, ITA_ADDR(ITA_SPACE_PMC, 2)), 0u);
    EXPECT_EQ(pmu_read(b, ITA_ADDR(ITA_SPACE_PMD, 200)), 0u);
    // the PMD read sign-extends bit W-1 (pmd_sext = 1)
    pmu_write(b, vis_addr(ITA_VIS_PMD6), UINT64_C(0x400000000000));
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD6)), UINT64_C(0xffffc00000000000));
    pmu_reset(b);
    EXPECT_EQ(b->cycle, 0u);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD4)), 0u);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMC4)),
              ita_reg_lookup(vis_addr(ITA_VIS_PMC4))->reset[ITA_MODEL_ITANIUM2]);
    pmu_destroy(b);
}

TEST(RtlBackend, SlotPortsArePackedPerSlot)
{
    // Counting a per-slot flag in slot 5 only checks that the flags of the last slot
    // reach the right bits of slot_flags_i.
    pmu_backend *b = rtl_for(ITA_MODEL_ITANIUM2);
    ASSERT_NE(b, nullptr);
    uint64_t pmc = ITA_FSET(ITA_FSET(0, PMC_GEN, ES, ita_event_table[ITA_EV_NOPS_RETIRED].code),
                            PMC_GEN, PLM, 0xf);
    pmu_write(b, vis_addr(ITA_VIS_PMC5), pmc);
    pmu_write(b, vis_addr(ITA_VIS_PSR), ITA_FMASK(PSR, UP));
    pmu_write(b, vis_addr(ITA_VIS_PMC0), 0);
    ita_cycle c = simple_record(0, 6);
    c.slot[5].flags = static_cast<uint16_t>(ITA_SF_NOP_MASK);
    c.slot[5].enc = (UINT64_C(1) << 41) - 1;  // neighbouring fields must not leak
    c.slot[5].ip = ~UINT64_C(0);
    pmu_step(b, &c);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD5)), 1u);
    c.nslots = 5;  // slot 5 no longer retires
    pmu_step(b, &c);
    EXPECT_EQ(pmu_read(b, vis_addr(ITA_VIS_PMD5)), 1u);
    pmu_destroy(b);
}

off_t file_size(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

TEST(RtlBackend, TraceFileGetsWritten)
{
    pmu_backend *b = rtl_for(ITA_MODEL_ITANIUM2);
    ASSERT_NE(b, nullptr);
    const std::string path = temp_path("_trace.fst");
    std::remove(path.c_str());
    Rng r(3);
    for (int i = 0; i < 50; i++) {  // the trace starts mid-run
        ita_cycle c = random_record(r);
        pmu_step(b, &c);
    }
    ASSERT_EQ(pmu_trace_open(b, path.c_str(), nullptr), 0);
    for (int i = 0; i < 500; i++) {
        ita_cycle c = random_record(r);
        pmu_step(b, &c);
        if (i % 50 == 0) pmu_write(b, vis_addr(ITA_VIS_PMC0), 0);
    }
    EXPECT_EQ(pmu_trace_close(b, nullptr), 0);
    const off_t size = file_size(path);
    EXPECT_GT(size, 200);
    // An FST file starts with its header block (type 0) of 329 bytes.
    FILE *f = std::fopen(path.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    unsigned char head[9] = {0};
    ASSERT_EQ(std::fread(head, 1, sizeof head, f), sizeof head);
    std::fclose(f);
    EXPECT_EQ(head[0], 0);
    uint64_t len = 0;
    for (int i = 1; i <= 8; i++) len = len << 8 | head[i];
    EXPECT_EQ(len, 329u);
    // A second trace on the same model works too, and closing twice is harmless.
    ASSERT_EQ(pmu_trace_open(b, path.c_str(), nullptr), 0);
    ita_cycle c = simple_record(0, 1);
    pmu_step(b, &c);
    EXPECT_EQ(pmu_trace_close(b, nullptr), 0);
    EXPECT_EQ(pmu_trace_close(b, nullptr), 0);
    EXPECT_GT(file_size(path), 0);
    std::remove(path.c_str());
    pmu_destroy(b);
}

TEST(RtlBackend, TraceOpenFailures)
{
    pmu_backend *b = rtl_for(ITA_MODEL_ITANIUM);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(pmu_trace_open(b, "/nonexistent-dir/x.fst", nullptr), 0);
    pmu_backend *ref = ita_ref_create(nullptr);
    EXPECT_NE(pmu_trace_open(ref, temp_path("_ref.fst").c_str(), nullptr), 0);  // not an RTL backend
    EXPECT_EQ(file_size(temp_path("_ref.fst")), -1);
    pmu_destroy(ref);
    pmu_destroy(b);
}

}  // namespace
