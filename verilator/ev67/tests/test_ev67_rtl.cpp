// test_ev67_rtl.cpp - the Verilated Alpha 21264/EV67 counter block (ev67_rtl_new,
// include/harness/ev67/ev67_rtl.h) through pmu_backend against docs/ev67.md: the parameter sets
// built, reset, the register masks and PCTX's index decode, aggregate counting with the
// catch-up, an overflow through the two-stage latch to ISUM and the interrupt line with
// PCEN, HW_INT_CLR, the read quirk, a ProfileMe sample from fetch to a retire end with its
// overcount, and the FST waveform.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"
#include "harness/ev67/ev67_rtl.h"
#include "gtkwave/fstapi.h"

namespace {

constexpr uint32_t kTop = 1u << EV67_CTR0_WIDTH;  // 2^20
// PCTR_CTL after an all-ones write, counters enabled: its RW fields, and SEXT set.
#define EV67_PCTR_CTL_WMASK_FOR_TEST \
    (ev67_reg_bits_of(EV67_REG_PCTR_CTL, EV67_ACCESS_RW) | EV67_FMASK(PCTR_CTL, SEXT))

pmu_backend *ev67_rtl(unsigned read_quirk = 1)
{
    ev67_params p = ev67_params_default(EV67_MODEL_21264_EV67);
    p.read_quirk = read_quirk;
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev67_rtl_new(&p, &err);
    EXPECT_NE(b, nullptr) << err.msg;
    return b;
}

ev67_cycle idle(uint8_t pal = 0)
{
    ev67_cycle c;
    std::memset(&c, 0, sizeof c);
    c.pal = pal;
    return c;
}

uint64_t vis(pmu_backend *b, ev67_vis v)
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

void steps(pmu_backend *b, const ev67_cycle &c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) pmu_step(b, &c);
}

// I_CTL with SPCE and the given counter enables.
uint64_t ictl(unsigned en0, unsigned en1)
{
    uint64_t v = EV67_FSET(0, I_CTL, SPCE, 1);
    v = EV67_FSET(v, I_CTL, PCT0_EN, en0);
    return EV67_FSET(v, I_CTL, PCT1_EN, en1);
}

uint64_t pctr_ctl(unsigned sl0, unsigned sl1, uint32_t pctr0, uint32_t pctr1)
{
    uint64_t v = EV67_FSET(0, PCTR_CTL, SL0, sl0);
    v = EV67_FSET(v, PCTR_CTL, SL1, sl1);
    v = EV67_FSET(v, PCTR_CTL, PCTR0, pctr0);
    return EV67_FSET(v, PCTR_CTL, PCTR1, pctr1);
}

TEST(Ev67Rtl, RefusesParametersNoVariantWasBuiltFor)
{
    struct Case {
        const char *field;
        int code;
        ev67_params p;
    } cases[] = {
        {"isum_race", PMU_E_UNSUPPORTED, ev67_params_default(EV67_MODEL_21264_EV67)},
        {"park_block", PMU_E_UNSUPPORTED, ev67_params_default(EV67_MODEL_21264_EV67)},
        {"read_quirk", PMU_E_INPUT, ev67_params_default(EV67_MODEL_21264_EV67)},
        {"model", PMU_E_INPUT, ev67_params_default(EV67_MODEL_21264_EV67)},
    };
    cases[0].p.isum_race = 1;
    cases[1].p.park_block = 0;
    cases[2].p.read_quirk = 2;
    cases[3].p.model = EV67_NMODELS;
    for (const Case &c : cases) {
        pmu_err err;
        pmu_err_clear(&err);
        EXPECT_EQ(ev67_rtl_new(&c.p, &err), nullptr) << c.field;
        EXPECT_EQ(err.code, c.code) << c.field;
        EXPECT_NE(std::strstr(err.msg, c.field), nullptr) << err.msg;
        EXPECT_EQ(ev67_rtl_new(&c.p, nullptr), nullptr) << "no error record: still refused";
    }
    pmu_backend *b = ev67_rtl_new(nullptr, nullptr);  // the defaults
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->model, static_cast<unsigned>(EV67_MODEL_21264_EV67));
    pmu_destroy(b);
}

TEST(Ev67Rtl, ResetLeavesOnlyPalSet)
{
    pmu_backend *b = ev67_rtl();
    ASSERT_NE(b, nullptr);
    EXPECT_STREQ(b->name, "rtl");
    EXPECT_EQ(b->nvis, static_cast<unsigned>(EV67_NVIS));
    EXPECT_TRUE(pmu_has_trace(b));
    pmu_write(b, EV67_ADDR_I_CTL, ~0ull);
    pmu_write(b, EV67_ADDR_PCTR_CTL, ~0ull);
    ev67_cycle c = idle();
    c.nretire = 2;
    steps(b, c, 3);
    pmu_reset(b);
    EXPECT_EQ(b->cycle, 0u);
    pmu_state s;
    pmu_snapshot(b, &s);
    for (unsigned v = 0; v < EV67_NVIS; v++) {
        const uint64_t want = v == EV67_VIS_OBS_INT ? EV67_FSET(0, OBS_INT, PAL, 1) : 0;
        EXPECT_EQ(s.reg[v], want) << ev67_vis_table[v].name;
        EXPECT_EQ(pmu_read(b, ev67_vis_table[v].addr), want) << ev67_vis_table[v].name;
    }
    EXPECT_EQ(s.pmi, 0);
    pmu_destroy(b);
}

TEST(Ev67Rtl, RegisterMasksAndPctxIndexDecode)
{
    pmu_backend *b = ev67_rtl();
    ASSERT_NE(b, nullptr);
    for (unsigned r = 0; r < EV67_NREGS; r++) pmu_write(b, ev67_reg_table[r].addr, ~0ull);
    EXPECT_EQ(pmu_read(b, EV67_ADDR_I_CTL), ev67_reg_bits_of(EV67_REG_I_CTL, EV67_ACCESS_RW));
    EXPECT_EQ(pmu_read(b, EV67_ADDR_IER_CM), EV67_FMASK(IER_CM, PCEN));
    EXPECT_EQ(pmu_read(b, EV67_ADDR_HW_INT_CLR), 0u) << "HW_INT_CLR reads 0";
    EXPECT_EQ(pmu_read(b, EV67_ADDR_PMPC), 0u) << "read-only";
    EXPECT_EQ(pmu_read(b, EV67_ADDR_I_STAT), 0u) << "read-only";
    EXPECT_EQ(pmu_read(b, EV67_ADDR_OBS_CTR), EV67_FMASK(OBS_CTR, PCTR0) | EV67_FMASK(OBS_CTR, PCTR1))
        << "the write to OBS_CTR was ignored; the counters hold PCTR_CTL's all-ones write";
    EXPECT_EQ(pmu_read(b, EV67_ADDR_PCTR_CTL), EV67_PCTR_CTL_WMASK_FOR_TEST)
        << "PCTR_CTL's RW fields and SEXT (copies of the written PCTR0's top bit)";
    EXPECT_EQ(vis(b, EV67_VIS_PCTX), 0u) << "0x40 has index bit 3 clear: PPCE not written";
    pmu_write(b, EV67_ADDR_PCTX + (1u << EV67_PCTX_SEL_PPCE), ~0ull);
    EXPECT_EQ(pmu_read(b, EV67_ADDR_PCTX + 0x1f), EV67_FMASK(PCTX, PPCE)) << "every PCTX address reads it";
    EXPECT_EQ(pmu_read(b, 0x3f), 0u);
    EXPECT_EQ(pmu_read(b, 0x60), 0u);
    pmu_destroy(b);
}

TEST(Ev67Rtl, AggregateCountingWithCatchUp)
{
    pmu_backend *b = ev67_rtl();
    ASSERT_NE(b, nullptr);
    pmu_write(b, EV67_ADDR_I_CTL, ictl(1, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0, 0));  // retired instructions, cycles
    ev67_cycle c = idle();
    c.nretire = EV67_RETIRE_MAX;
    pmu_step(b, &c);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 8u) << "at most 8 a step";
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_AGG), OBS_AGG, BACKLOG), 3u);
    pmu_step(b, &c);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 16u);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_AGG), OBS_AGG, BACKLOG), 6u);
    steps(b, idle(), 1);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 22u) << "the backlog caught up";
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR1), 3u) << "cycles";
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_AGG), OBS_AGG, BCG), 7u) << "PCTR1 enabled three steps";

    // Disabled PCTR0 with the read quirk: a read shows count + min(d, 4).
    pmu_write(b, EV67_ADDR_I_CTL, ictl(0, 1));
    c.nretire = 6;
    pmu_step(b, &c);
    EXPECT_EQ(EV67_FGET(pmu_read(b, EV67_ADDR_PCTR_CTL), PCTR_CTL, PCTR0), 22u + 4u);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_PCTR_CTL), PCTR_CTL, PCTR0), 22u + 4u) << "the snapshot reads as reads do";
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 22u);
    pmu_write(b, EV67_ADDR_IER_CM, 0);  // any write clock clears the increments
    EXPECT_EQ(EV67_FGET(pmu_read(b, EV67_ADDR_PCTR_CTL), PCTR_CTL, PCTR0), 22u);
    pmu_destroy(b);

    b = ev67_rtl(0);  // the variant without the quirk
    ASSERT_NE(b, nullptr);
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 5, 0));
    pmu_step(b, &c);
    EXPECT_EQ(EV67_FGET(pmu_read(b, EV67_ADDR_PCTR_CTL), PCTR_CTL, PCTR0), 5u);
    pmu_destroy(b);
}

TEST(Ev67Rtl, OverflowReachesIsumThroughTheLatch)
{
    pmu_backend *b = ev67_rtl();
    ASSERT_NE(b, nullptr);
    pmu_write(b, EV67_ADDR_I_CTL, ictl(0, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0, kTop - 2));  // PCTR1 counts cycles
    pmu_write(b, EV67_ADDR_IER_CM, EV67_FSET(0, IER_CM, PCEN, 2));
    steps(b, idle(), 2);  // the carry in step 2
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_INT), OBS_INT, S1), 2u);
    steps(b, idle(), 1);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_INT), OBS_INT, S2), 2u);
    EXPECT_EQ(vis(b, EV67_VIS_ISUM), 0u);
    steps(b, idle(), 1);
    EXPECT_EQ(vis(b, EV67_VIS_ISUM), EV67_FSET(0, ISUM, PC, 2)) << "two steps after the carry";
    EXPECT_EQ(pmi(b), 1);
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, 1));
    EXPECT_EQ(pmi(b), 1) << "clearing counter 0 leaves counter 1's";
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, 2));
    EXPECT_EQ(vis(b, EV67_VIS_ISUM), 0u);
    EXPECT_EQ(pmi(b), 0);

    // Held off in PALmode: the request is there, the line waits for a non-PAL record.
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0, kTop - 1));
    steps(b, idle(1), 3);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_INT), OBS_INT, REQ), 2u);
    EXPECT_EQ(pmi(b), 0);
    steps(b, idle(), 1);
    EXPECT_EQ(pmi(b), 1);
    pmu_destroy(b);
}

TEST(Ev67Rtl, ProfileMeSampleFromFetchToRetire)
{
    pmu_backend *b = ev67_rtl();
    ASSERT_NE(b, nullptr);
    pmu_write(b, EV67_ADDR_I_CTL, ictl(1, 1));
    pmu_write(b, EV67_ADDR_IER_CM, EV67_FSET(0, IER_CM, PCEN, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(1, 0, kTop - 2, 0));  // retires, cycles
    ev67_cycle f = idle();
    f.nfetch = 4;
    for (unsigned i = 0; i < 4; i++) {
        f.fetch[i].tag = 100 + i;
        f.fetch[i].pc = 0x1000 + 4 * i;
        f.fetch[i].flags = i == 1 ? EV67_FF_ICM : 0;
    }
    pmu_step(b, &f);  // step s: fetch[1] makes PCTR0 reach 2^20
    uint64_t pm = vis(b, EV67_VIS_OBS_PM);
    EXPECT_EQ(EV67_FGET(pm, OBS_PM, PHASE), static_cast<unsigned>(EV67_PM_SELECTED));
    EXPECT_EQ(EV67_FGET(pm, OBS_PM, TAG), 101u);
    EXPECT_EQ(EV67_FGET(pm, OBS_PM, ICM), 1u);
    EXPECT_EQ(vis(b, EV67_VIS_OBS_PMPC), 0x1004u);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 2u) << "the fetches after P";
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_INT), OBS_INT, S1), 0u) << "the selection carry is no overflow";
    ev67_cycle g = idle();
    g.nfetch = 3;
    for (unsigned i = 0; i < 3; i++) g.fetch[i].tag = 104 + i;
    pmu_step(b, &g);  // s+1: the overcount
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_PM), OBS_PM, OVR), 5u);
    ev67_cycle r = idle();
    r.nretire = 1;
    r.retire[0] = 100;
    r.head = 101;
    pmu_step(b, &r);     // s+2: a retire before the window does not count
    steps(b, idle(), 2); // s+3, s+4
    r.retire[0] = 101;   // s+5: the window's first step, P retires: E
    r.head = 102;
    pmu_step(b, &r);
    pm = vis(b, EV67_VIS_OBS_PM);
    EXPECT_EQ(EV67_FGET(pm, OBS_PM, ENDED), 1u);
    EXPECT_EQ(EV67_FGET(pm, OBS_PM, VAL), 1u);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 6u) << "OVR + the window's retire";
    EXPECT_EQ(vis(b, EV67_VIS_ISUM), 0u);
    steps(b, idle(), 1);  // E + 1
    EXPECT_EQ(vis(b, EV67_VIS_ISUM), 0u);
    steps(b, idle(), 1);  // E + 2: the window's end
    EXPECT_EQ(vis(b, EV67_VIS_ISUM), EV67_FSET(0, ISUM, PC, 1));
    EXPECT_EQ(pmi(b), 1);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_PM), OBS_PM, PHASE), static_cast<unsigned>(EV67_PM_STOPPED));
    EXPECT_EQ(vis(b, EV67_VIS_PMPC), 0x1004u);
    const uint64_t istat = vis(b, EV67_VIS_I_STAT);
    EXPECT_EQ(EV67_FGET(istat, I_STAT, OVR), 5u);
    EXPECT_EQ(EV67_FGET(istat, I_STAT, ICM), 1u);
    EXPECT_EQ(EV67_FGET(istat, I_STAT, TRP), 0u);
    const uint64_t ctl = vis(b, EV67_VIS_PCTR_CTL);
    EXPECT_EQ(EV67_FGET(ctl, PCTR_CTL, VAL), 1u);
    EXPECT_EQ(EV67_FGET(ctl, PCTR_CTL, PCTR0), 6u);
    EXPECT_EQ(EV67_FGET(ctl, PCTR_CTL, PCTR1), 3u) << "cycles of the window s+5..s+7";
    steps(b, f, 4);
    EXPECT_EQ(EV67_FGET(vis(b, EV67_VIS_OBS_CTR), OBS_CTR, PCTR0), 6u) << "stopped until PCTR_CTL is written";
    pmu_destroy(b);
}

TEST(Ev67Rtl, WritesAWaveformOneNanosecondPerClock)
{
    pmu_backend *b = ev67_rtl();
    ASSERT_NE(b, nullptr);
    pmu_err err;
    pmu_err_clear(&err);
    EXPECT_NE(pmu_trace_open(b, "/nonexistent-dir/ev67.fst", &err), 0);
    EXPECT_EQ(err.code, PMU_E_IO);
    const std::string path = "/tmp/pmusim_ev67_rtl_" + std::to_string(getpid()) + ".fst";
    ASSERT_EQ(pmu_trace_open(b, path.c_str(), &err), 0) << err.msg;
    pmu_write(b, EV67_ADDR_I_CTL, ictl(1, 1));  // clock 1
    steps(b, idle(), 8);                        // clocks 2..9
    EXPECT_EQ(pmu_trace_close(b, nullptr), 0);
    pmu_destroy(b);

    void *fst = fstReaderOpen(path.c_str());
    ASSERT_NE(fst, nullptr);
    EXPECT_EQ(fstReaderGetEndTime(fst), 9u * 1000u + 500u) << "clock 9's rising edge at 9.5 ns";
    bool has_pmi = false, has_ctr = false;
    while (fstHier *h = fstReaderIterateHier(fst)) {
        if (h->htyp != FST_HT_VAR) continue;
        const std::string name = h->u.var.name;
        has_pmi = has_pmi || name.rfind("pmi_o", 0) == 0;
        has_ctr = has_ctr || name.rfind("count_q", 0) == 0;
    }
    EXPECT_TRUE(has_pmi);
    EXPECT_TRUE(has_ctr) << "the counters' flops are in the dump";
    fstReaderClose(fst);
    std::remove(path.c_str());
}

}  // namespace
