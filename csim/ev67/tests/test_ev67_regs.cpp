// test_ev67_regs.cpp - the Alpha 21264/EV67 register port (docs/ev67.md, "Registers",
// "reset", "write", "read"): reset values, what each register stores, read-only fields,
// write-1-to-clear, the index-selected PCTX write, SEXT, unlisted addresses.  Through
// pmu_backend and the observation port only.
#include "ev67_test_util.h"

using namespace ev67test;

namespace {

TEST(Ev67Regs, ResetValues)
{
    EV67_OPEN(d, params());
    pmu_state s = d.snap();
    for (unsigned v = 0; v < EV67_NVIS; v++) {
        // Everything 0 except OBS_INT.PAL (bit 8): the 21264 leaves reset in PALmode.
        uint64_t want = v == EV67_VIS_OBS_INT ? 0x100ull : 0;
        EXPECT_EQ(s.reg[v], want) << ev67_vis_table[v].name;
    }
    EXPECT_EQ(s.pmi, 0);
}

TEST(Ev67Regs, SnapshotIsReadPortInVisOrder)
{
    EV67_OPEN(d, params());
    d.write(EV67_ADDR_IER_CM, pcen(3));
    d.enable(1, 0);
    d.ctl(0, 1, 0x123, 0x456);
    d.step(Rec());
    pmu_state s = d.snap();
    for (unsigned v = 0; v < EV67_NVIS; v++)
        EXPECT_EQ(s.reg[v], d.read(ev67_vis_table[v].addr)) << ev67_vis_table[v].name;
}

TEST(Ev67Regs, ReadWriteMasks)
{
    EV67_OPEN(d, params());
    d.write(EV67_ADDR_I_CTL, ~0ull);
    EXPECT_EQ(d.read(EV67_ADDR_I_CTL), 0xc0001ull); // SPCE <0>, PCT0_EN <18>, PCT1_EN <19>
    d.write(EV67_ADDR_IER_CM, ~0ull);
    EXPECT_EQ(d.read(EV67_ADDR_IER_CM), 0x60000000ull); // PCEN <30:29>
    d.write(EV67_ADDR_PCTX + 0x1f, ~0ull);
    EXPECT_EQ(d.read(EV67_ADDR_PCTX), 0x2ull); // PPCE <1>
    d.write(EV67_ADDR_I_CTL, 0);
    // PCTR_CTL all ones: SL1, SL0, both counters; TAK, VAL, KBM, STALLED read-only (0);
    // SEXT copies PCTR0's top bit; bit 5 is no field.  Counters disabled, no quirk
    // increment after a write.
    d.write(EV67_ADDR_PCTR_CTL, ~0ull);
    EXPECT_EQ(d.read(EV67_ADDR_PCTR_CTL), 0xfffffffff3ffffdcull);
    EXPECT_EQ(d.read(EV67_ADDR_OBS_CTR), 0x000fffff000fffffull);
}

TEST(Ev67Regs, ReadOnlyRegistersIgnoreWrites)
{
    EV67_OPEN(d, params());
    const uint16_t ro[] = {EV67_ADDR_PMPC,    EV67_ADDR_ISUM,   EV67_ADDR_I_STAT, EV67_ADDR_OBS_CTR,
                           EV67_ADDR_OBS_INT, EV67_ADDR_OBS_AGG, EV67_ADDR_OBS_PM, EV67_ADDR_OBS_PMPC};
    pmu_state before = d.snap();
    for (uint16_t a : ro)
        d.write(a, ~0ull);
    pmu_state after = d.snap();
    for (unsigned v = 0; v < EV67_NVIS; v++)
        EXPECT_EQ(after.reg[v], before.reg[v]) << ev67_vis_table[v].name;
}

TEST(Ev67Regs, UnlistedAddressesReadZeroAndIgnoreWrites)
{
    EV67_OPEN(d, params());
    const uint16_t none[] = {0x00, 0x0a, 0x09, 0x12, 0x3f, 0x60, 0xff, 0x105, 0xffff};
    pmu_state before = d.snap();
    for (uint16_t a : none) {
        d.write(a, ~0ull);
        EXPECT_EQ(d.read(a), 0u) << a;
    }
    pmu_state after = d.snap();
    for (unsigned v = 0; v < EV67_NVIS; v++)
        EXPECT_EQ(after.reg[v], before.reg[v]) << ev67_vis_table[v].name;
}

TEST(Ev67Regs, PctrCtlReadOnlyFieldsKeepTheirValue)
{
    EV67_OPEN(d, params());
    // Only a window's end sets TAK/VAL/STALLED/KBM; a write of ones leaves them 0.
    d.write(EV67_ADDR_PCTR_CTL, EV67_FMASK(PCTR_CTL, TAK) | EV67_FMASK(PCTR_CTL, VAL) |
                                    EV67_FMASK(PCTR_CTL, PM_KILLED_BM) | EV67_FMASK(PCTR_CTL, PM_STALLED) |
                                    EV67_FMASK(PCTR_CTL, SEXT));
    EXPECT_EQ(d.read(EV67_ADDR_PCTR_CTL), 0u);
}

TEST(Ev67Regs, HwIntClrIsWriteOneToClearAndReadsZero)
{
    EV67_OPEN(d, params());
    // Arm both PAL-exit interrupts: counts above their maxima, then a PCTR_CTL write.
    d.ctl(0, 0, 0xffff1, 0xffffd);
    d.ctl(0, 0, 0, 0);
    EXPECT_EQ(d.pexit(), 3u);
    d.write(EV67_ADDR_HW_INT_CLR, int_clr(2)); // clears counter 1 only
    EXPECT_EQ(d.pexit(), 1u);
    d.step(Rec()); // non-PAL: PEXIT[0] moves to REQ[0]
    EXPECT_EQ(d.req(), 1u);
    EXPECT_EQ(d.read(EV67_ADDR_HW_INT_CLR), 0u);
    d.write(EV67_ADDR_HW_INT_CLR, int_clr(2)); // a 0 in PC[0] leaves REQ[0]
    EXPECT_EQ(d.req(), 1u);
    d.write(EV67_ADDR_HW_INT_CLR, int_clr(1));
    EXPECT_EQ(d.req(), 0u);
}

TEST(Ev67Regs, PctxWriteIsIndexSelected)
{
    EV67_OPEN(d, params());
    const uint64_t ppce = EV67_FMASK(PCTX, PPCE);
    d.write(0x40, ppce); // index bit 3 is 0: nothing changes
    EXPECT_EQ(d.read(0x40), 0u);
    d.write(0x57, ppce); // 0b10111: bit 3 is 0
    EXPECT_EQ(d.read(0x40), 0u);
    d.write(0x48, ppce); // bit 3 is 1: PPCE = 1
    for (uint16_t a = 0x40; a <= 0x5f; a++)
        EXPECT_EQ(d.read(a), ppce) << a;
    d.write(0x50, 0); // bit 3 is 0: PPCE stays
    EXPECT_EQ(d.read(0x5f), ppce);
    d.write(0x5f, 0); // all fields: PPCE = 0
    EXPECT_EQ(d.read(0x40), 0u);
}

TEST(Ev67Regs, PpceEnablesCountingInsteadOfSpce)
{
    EV67_OPEN(d, params());
    d.ctl(0, 1); // PCTR0 cycles
    d.enable(1, 0, 0);
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 0u); // PCT0_EN without SPCE or PPCE: no count
    d.write(0x48, EV67_FMASK(PCTX, PPCE));
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 1u);
    d.enable(0, 0, 1);
    d.step(Rec());
    EXPECT_EQ(d.ctr(0), 1u); // SPCE without PCT0_EN: no count
}

TEST(Ev67Regs, SextCopiesBit47)
{
    EV67_OPEN(d, params());
    d.ctl(0, 0, 0x80000, 0);
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_PCTR_CTL), PCTR_CTL, SEXT), 0xffffu);
    EXPECT_EQ(d.read(EV67_ADDR_PCTR_CTL) >> 47, 0x1ffffu);
    d.ctl(0, 0, 0x7ffff, 0xfffff);
    EXPECT_EQ(EV67_FGET(d.read(EV67_ADDR_PCTR_CTL), PCTR_CTL, SEXT), 0u);
    // As a signed 64-bit number the register is PCTR0's 20-bit value sign-extended.
    d.ctl(0, 0, 0xffff0, 0);
    EXPECT_EQ(int64_t(d.read(EV67_ADDR_PCTR_CTL)) >> 28, -16);
}

TEST(Ev67Regs, WriteSetsCountersAndSelects)
{
    EV67_OPEN(d, params());
    d.ctl(1, 2, 0x12345, 0x6789a);
    uint64_t v = d.read(EV67_ADDR_PCTR_CTL);
    EXPECT_EQ(EV67_FGET(v, PCTR_CTL, SL0), 1u);
    EXPECT_EQ(EV67_FGET(v, PCTR_CTL, SL1), 2u);
    EXPECT_EQ(d.ctr(0), 0x12345u);
    EXPECT_EQ(d.ctr(1), 0x6789au);
    EXPECT_EQ(d.read(EV67_ADDR_OBS_CTR), 0x0006789a00012345ull);
}

} // namespace
