// test_ev4_rtl.cpp - the Verilated Alpha 21064 counter block (ev4_rtl_new,
// include/harness/ev4/ev4_rtl.h) against docs/ev4.md: the parameter sets built, reset, the register
// masks of both models, counting of several mux codes (counter 0 in halves), a period
// crossing raising HIRR and the interrupt line, SL_CLR, and the FST waveform.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

#include "common/ev4/ev4_cycle.h"
#include "common/ev4/ev4_regs.h"
#include "harness/ev4/ev4_rtl.h"
#include "gtkwave/fstapi.h"

namespace {

pmu_backend *ev4_rtl(ev4_model m)
{
    const ev4_params p = ev4_params_default(m);
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev4_rtl_new(&p, &err);
    EXPECT_NE(b, nullptr) << err.msg;
    return b;
}

ev4_cycle record(unsigned nissue, ev4_class c0, ev4_class c1)
{
    ev4_cycle c;
    std::memset(&c, 0, sizeof c);
    c.mode = EV4_MODE_KERNEL;
    c.nissue = static_cast<uint8_t>(nissue);
    c.cls[0] = static_cast<uint8_t>(nissue > 0 ? c0 : 0);
    c.cls[1] = static_cast<uint8_t>(nissue > 1 ? c1 : 0);
    c.stall = static_cast<uint8_t>(nissue ? EV4_STALL_NONE : EV4_STALL_DRY);
    return c;
}

// ICCSR selecting mux0 / mux1, both counters enabled, the given period selects.
uint64_t iccsr(unsigned mux0, unsigned mux1, unsigned pc0 = 0, unsigned pc1 = 0)
{
    uint64_t v = 0;
    v = EV4_FSET(v, ICCSR, MUX0, mux0);
    v = EV4_FSET(v, ICCSR, MUX1, mux1);
    v = EV4_FSET(v, ICCSR, PC0, pc0);
    v = EV4_FSET(v, ICCSR, PC1, pc1);
    v = EV4_FSET(v, ICCSR, PME0, 1);
    v = EV4_FSET(v, ICCSR, PME1, 1);
    return v;
}

uint64_t vis(pmu_backend *b, ev4_vis v)
{
    pmu_state s;
    pmu_snapshot(b, &s);
    return s.reg[v];
}

uint8_t pmi(pmu_backend *b)
{
    pmu_state s;
    pmu_snapshot(b, &s);
    return s.pmi;
}

void steps(pmu_backend *b, const ev4_cycle &c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) pmu_step(b, &c);
}

TEST(Ev4Rtl, RefusesParametersNoVariantWasBuiltFor)
{
    struct Case {
        const char *field;
        ev4_params p;
    } cases[] = {
        {"ctr0_width", ev4_params_default(EV4_MODEL_21064)},
        {"ctr1_width", ev4_params_default(EV4_MODEL_21064_PASS2)},
        {"mux0_undef", ev4_params_default(EV4_MODEL_21064)},
        {"model", ev4_params_default(EV4_MODEL_21064)},
    };
    cases[0].p.ctr0_width = 20;
    cases[1].p.ctr1_width = 16;
    cases[2].p.mux0_undef = EV4_UNDEF_ALIAS;
    cases[3].p.model = EV4_NMODELS;
    for (const Case &c : cases) {
        pmu_err err;
        pmu_err_clear(&err);
        EXPECT_EQ(ev4_rtl_new(&c.p, &err), nullptr) << c.field;
        EXPECT_EQ(err.code, PMU_E_UNSUPPORTED) << c.field;
        EXPECT_NE(std::strstr(err.msg, c.field), nullptr) << err.msg;
        EXPECT_EQ(ev4_rtl_new(&c.p, nullptr), nullptr) << "no error record: still refused";
    }
    pmu_backend *b = ev4_rtl_new(nullptr, nullptr);  // the defaults: the 21064
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->model, static_cast<unsigned>(EV4_MODEL_21064));
    pmu_destroy(b);
}

TEST(Ev4Rtl, ResetStateIsZero)
{
    for (ev4_model m : {EV4_MODEL_21064, EV4_MODEL_21064_PASS2}) {
        pmu_backend *b = ev4_rtl(m);
        ASSERT_NE(b, nullptr);
        EXPECT_STREQ(b->name, "rtl");
        EXPECT_EQ(b->model, static_cast<unsigned>(m));
        EXPECT_EQ(b->nvis, static_cast<unsigned>(EV4_NVIS));
        EXPECT_TRUE(pmu_has_trace(b));
        pmu_write(b, EV4_ADDR_ICCSR, ~0ull);
        pmu_write(b, EV4_ADDR_HIER, ~0ull);
        const ev4_cycle c = record(2, EV4_CLASS_LOAD, EV4_CLASS_STORE);
        steps(b, c, 3);
        EXPECT_EQ(b->cycle, 3u);
        pmu_reset(b);
        EXPECT_EQ(b->cycle, 0u);
        pmu_state s;
        pmu_snapshot(b, &s);
        for (unsigned v = 0; v < EV4_NVIS; v++) {
            EXPECT_EQ(s.reg[v], 0u) << ev4_vis_table[v].name;
            EXPECT_EQ(pmu_read(b, ev4_vis_table[v].addr), 0u) << ev4_vis_table[v].name;
        }
        EXPECT_EQ(s.pmi, 0);
        pmu_destroy(b);
    }
}

TEST(Ev4Rtl, RegisterMasksOfBothModels)
{
    for (ev4_model m : {EV4_MODEL_21064, EV4_MODEL_21064_PASS2}) {
        pmu_backend *b = ev4_rtl(m);
        ASSERT_NE(b, nullptr);
        for (unsigned r = 0; r < EV4_NREGS; r++) pmu_write(b, ev4_reg_table[r].addr, ~0ull);
        pmu_write(b, 0x0003, ~0ull);
        pmu_write(b, 0x0110, ~0ull);  // HIER's address + 0x100: no alias
        const uint64_t iccsr_bits = ev4_reg_bits(EV4_REG_ICCSR, m);
        EXPECT_EQ(pmu_read(b, EV4_ADDR_ICCSR), iccsr_bits) << ev4_model_names[m];
        EXPECT_EQ(iccsr_bits & EV4_FMASK(ICCSR, PME0), m == EV4_MODEL_21064 ? EV4_FMASK(ICCSR, PME0) : 0u)
            << "pass 2 has no PME bits";
        EXPECT_EQ(pmu_read(b, EV4_ADDR_HIER), ev4_reg_bits(EV4_REG_HIER, m));
        EXPECT_EQ(pmu_read(b, EV4_ADDR_HIRR), 0u) << "HIRR is read-only";
        EXPECT_EQ(pmu_read(b, EV4_ADDR_SL_CLR), 0u) << "SL_CLR reads 0";
        EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR0), 0u) << "the observation port is read-only";
        EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR1), 0u);
        EXPECT_EQ(pmu_read(b, 0x0003), 0u);
        EXPECT_EQ(pmu_read(b, 0x0102), 0u) << "ICCSR's address + 0x100 reads 0";
        EXPECT_EQ(vis(b, EV4_VIS_ICCSR), iccsr_bits);
        EXPECT_EQ(vis(b, EV4_VIS_HIER), ev4_reg_bits(EV4_REG_HIER, m));
        pmu_destroy(b);
    }
}

TEST(Ev4Rtl, CountsSeveralMuxCodes)
{
    pmu_backend *b = ev4_rtl(EV4_MODEL_21064);
    ASSERT_NE(b, nullptr);
    // Issues in halves: one single issue sets HALF, the second carries into COUNT.
    pmu_write(b, EV4_ADDR_ICCSR, iccsr(EV4_MUX_PF_ISSUES, EV4_MUX_PF_DUAL));
    const ev4_cycle single = record(1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    pmu_step(b, &single);
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, HALF), 1u);
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, COUNT), 0u);
    pmu_step(b, &single);
    EXPECT_EQ(vis(b, EV4_VIS_CTR0), EV4_FSET(0, CTR0, COUNT, 1)) << "two halves are one issue";
    steps(b, record(2, EV4_CLASS_LOAD, EV4_CLASS_STORE), 3);
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, COUNT), 4u);
    EXPECT_EQ(vis(b, EV4_VIS_CTR1), 3u) << "PF_DUAL: three dual-issue cycles";

    // Loads (replays are issues) on counter 0, stores on counter 1; the counts go on from
    // where they were.
    pmu_write(b, EV4_ADDR_ICCSR, iccsr(EV4_MUX_PF_LOADI, EV4_MUX_PF_STOREI));
    steps(b, record(2, EV4_CLASS_LOAD, EV4_CLASS_LOAD), 2);
    steps(b, record(2, EV4_CLASS_STORE, EV4_CLASS_LOAD), 1);
    steps(b, record(1, EV4_CLASS_STORE, EV4_CLASS_STORE), 1);  // slot 1 is no instruction
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, COUNT), 4u + 5u);
    EXPECT_EQ(vis(b, EV4_VIS_CTR1), 3u + 2u);

    // Cycles on counter 0, D-cache misses on counter 1.
    pmu_write(b, EV4_ADDR_ICCSR, iccsr(EV4_MUX_PF_CYCLES, EV4_MUX_PF_DCACHE));
    ev4_cycle miss = record(0, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    miss.dmiss = 1;
    steps(b, miss, 4);
    steps(b, record(0, EV4_CLASS_INTOP, EV4_CLASS_INTOP), 3);
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, COUNT), 9u + 7u);
    EXPECT_EQ(vis(b, EV4_VIS_CTR1), 5u + 4u);
    EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR1), 9u) << "the read port shows the snapshot's value";

    // PME0 clear: counter 0 holds, counter 1 goes on.
    pmu_write(b, EV4_ADDR_ICCSR, EV4_FSET(iccsr(EV4_MUX_PF_CYCLES, EV4_MUX_PF_DCACHE), ICCSR, PME0, 0));
    steps(b, miss, 2);
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, COUNT), 16u);
    EXPECT_EQ(vis(b, EV4_VIS_CTR1), 11u);
    pmu_destroy(b);
}

TEST(Ev4Rtl, Pass2CountsWithoutPme)
{
    pmu_backend *b = ev4_rtl(EV4_MODEL_21064_PASS2);
    ASSERT_NE(b, nullptr);
    pmu_write(b, EV4_ADDR_ICCSR, EV4_FSET(0, ICCSR, MUX0, EV4_MUX_PF_CYCLES));
    steps(b, record(2, EV4_CLASS_INTOP, EV4_CLASS_INTOP), 5);
    EXPECT_EQ(EV4_FGET(vis(b, EV4_VIS_CTR0), CTR0, COUNT), 5u);
    pmu_destroy(b);
}

TEST(Ev4Rtl, PeriodCrossingRaisesHirrAndPmiUntilSlClr)
{
    pmu_backend *b = ev4_rtl(EV4_MODEL_21064);
    ASSERT_NE(b, nullptr);
    const unsigned period = 1u << ev4_period_log2(1, 1);
    const ev4_cycle dual = record(2, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    pmu_write(b, EV4_ADDR_ICCSR, iccsr(EV4_MUX_PF_CYCLES, EV4_MUX_PF_DUAL, 0, 1));
    pmu_write(b, EV4_ADDR_HIER, EV4_FMASK(HIER, PC1));
    steps(b, dual, period - 1);
    EXPECT_EQ(vis(b, EV4_VIS_HIRR), 0u);
    EXPECT_EQ(pmi(b), 0);
    pmu_step(b, &dual);
    EXPECT_EQ(vis(b, EV4_VIS_CTR1), period);
    EXPECT_EQ(vis(b, EV4_VIS_HIRR), EV4_FMASK(HIRR, PC1)) << "the crossing requests";
    EXPECT_EQ(pmi(b), 1) << "HIER.PC1 set: the interrupt line rises";
    // A second crossing while pending is lost; SL_CLR with PC1 = 1 leaves the request.
    steps(b, dual, period);
    pmu_write(b, EV4_ADDR_SL_CLR, EV4_FMASK(SL_CLR, PC0) | EV4_FMASK(SL_CLR, PC1));
    EXPECT_EQ(vis(b, EV4_VIS_HIRR), EV4_FMASK(HIRR, PC1));
    pmu_write(b, EV4_ADDR_SL_CLR, EV4_FMASK(SL_CLR, PC0));  // PC1 = 0: clear counter 1's
    EXPECT_EQ(vis(b, EV4_VIS_HIRR), 0u);
    EXPECT_EQ(pmi(b), 0);
    steps(b, dual, period - 1);
    EXPECT_EQ(vis(b, EV4_VIS_HIRR), 0u) << "the lost crossing is not replayed";
    // Disabled interrupts: the request is held and taken when HIER enables it.
    pmu_write(b, EV4_ADDR_HIER, 0);
    pmu_step(b, &dual);
    EXPECT_EQ(vis(b, EV4_VIS_HIRR), EV4_FMASK(HIRR, PC1));
    EXPECT_EQ(pmi(b), 0);
    pmu_write(b, EV4_ADDR_HIER, EV4_FMASK(HIER, PC1));
    EXPECT_EQ(pmi(b), 1);
    pmu_destroy(b);
}

TEST(Ev4Rtl, WritesAWaveformOneNanosecondPerClock)
{
    pmu_backend *b = ev4_rtl(EV4_MODEL_21064);
    ASSERT_NE(b, nullptr);
    pmu_err err;
    pmu_err_clear(&err);
    EXPECT_NE(pmu_trace_open(b, "/nonexistent-dir/ev4.fst", &err), 0);
    EXPECT_EQ(err.code, PMU_E_IO);
    const std::string path = "/tmp/pmusim_ev4_rtl_" + std::to_string(getpid()) + ".fst";
    // One clock since create (the reset): the trace starts before clock 1.
    ASSERT_EQ(pmu_trace_open(b, path.c_str(), &err), 0) << err.msg;
    pmu_write(b, EV4_ADDR_ICCSR, iccsr(EV4_MUX_PF_CYCLES, EV4_MUX_PF_DUAL));  // clock 1
    steps(b, record(2, EV4_CLASS_INTOP, EV4_CLASS_INTOP), 8);                // clocks 2..9
    EXPECT_EQ(pmu_trace_close(b, nullptr), 0);
    pmu_destroy(b);

    void *fst = fstReaderOpen(path.c_str());
    ASSERT_NE(fst, nullptr);
    EXPECT_EQ(fstReaderGetTimescale(fst), -12) << "1 ps resolution";
    EXPECT_EQ(fstReaderGetEndTime(fst), 9u * 1000u + 500u) << "clock 9's rising edge at 9.5 ns";
    bool has_pmi = false, has_ctr = false;
    while (fstHier *h = fstReaderIterateHier(fst)) {
        if (h->htyp != FST_HT_VAR) continue;
        const std::string name = h->u.var.name;
        has_pmi = has_pmi || name.rfind("pmi_o", 0) == 0;
        has_ctr = has_ctr || name.rfind("pair_q", 0) == 0;
    }
    EXPECT_TRUE(has_pmi);
    EXPECT_TRUE(has_ctr) << "the counters' flops are in the dump";
    fstReaderClose(fst);
    std::remove(path.c_str());
}

}  // namespace
