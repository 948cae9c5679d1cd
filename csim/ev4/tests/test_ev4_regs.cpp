// test_ev4_regs.cpp - the Alpha 21064 counter block's register port: reset values, what
// each register stores and reads back per model, the write-only, read-only and
// observation registers, unlisted addresses (docs/ev4.md, "Registers", "Clocks").
#include "ev4_test_util.h"

using namespace ev4test;

namespace {

// The port addresses docs/ev4.md lists; every other address has nothing.
const uint16_t kListed[] = {0x02, 0x0c, 0x10, 0x13, 0x80, 0x81};

bool listed(unsigned a)
{
    for (uint16_t l : kListed)
        if (l == a)
            return true;
    return false;
}

// Some counting and a pending request on both counters, so that state is not all 0.
void dirty(Dev &d)
{
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL).with_pc1(1));
    d.write(EV4_ADDR_HIER, hier_bit(0) | hier_bit(1));
    d.step_n(issue({EV4_CLASS_INTOP, EV4_CLASS_LOAD}), 300);
}

} // namespace

class Ev4RegsModel : public Ev4ModelTest {};
EV4_INSTANTIATE_BOTH_MODELS(Ev4RegsModel);

TEST_P(Ev4RegsModel, EverythingResetsToZero)
{
    EV4_OPEN(d, params(model()));
    pmu_state s = d.snap();
    for (unsigned v = 0; v < EV4_NVIS; v++)
        EXPECT_EQ(s.reg[v], 0u) << ev4_vis_table[v].name;
    EXPECT_EQ(s.pmi, 0u);

    dirty(d);
    // With PME bits, dirty() counts; without, the counters count anyway.
    EXPECT_EQ(d.count(0), 300u);
    EXPECT_EQ(d.hirr(), 0x100u); // counter 1 crossed 2^8
    EXPECT_EQ(d.pmi(), 1u);
    pmu_reset(d.get());
    s = d.snap();
    for (unsigned v = 0; v < EV4_NVIS; v++)
        EXPECT_EQ(s.reg[v], 0u) << ev4_vis_table[v].name << " after reset";
    EXPECT_EQ(s.pmi, 0u);
    EXPECT_EQ(d.get()->cycle, 0u);
}

TEST_P(Ev4RegsModel, IccsrStoresOnlyItsCounterFields)
{
    EV4_OPEN(d, params(model()));
    // PC1 <0>, PC0 <3>, MUX0 <11:8>, MUX1 <34:32>, PME0 <44>, PME1 <45>: the pass-2 part
    // has no PME bits (docs/ev4.md, "Models and parameters").
    const uint64_t fields = model() == EV4_MODEL_21064 ? 0x300700000f09ull : 0x000700000f09ull;
    d.write(EV4_ADDR_ICCSR, ~0ull);
    EXPECT_EQ(d.read(EV4_ADDR_ICCSR), fields);
    d.write(EV4_ADDR_ICCSR, 0);
    EXPECT_EQ(d.read(EV4_ADDR_ICCSR), 0u);
    // The other ICCSR bits (PIPE <35>, BPE <36>, ..., FPE <42>) are not the block's.
    d.write(EV4_ADDR_ICCSR, 0x07f8ull << 32);
    EXPECT_EQ(d.read(EV4_ADDR_ICCSR), 0u);
    d.write(EV4_ADDR_ICCSR, 0x0000000500000a08ull);
    EXPECT_EQ(d.read(EV4_ADDR_ICCSR), 0x0000000500000a08ull);
}

TEST_P(Ev4RegsModel, HierStoresItsEnablesAndReadsThemBack)
{
    EV4_OPEN(d, params(model()));
    d.write(EV4_ADDR_HIER, ~0ull);
    EXPECT_EQ(d.read(EV4_ADDR_HIER), 0x8100u); // PC0 <8>, PC1 <15>
    d.write(EV4_ADDR_HIER, 0x0100);
    EXPECT_EQ(d.read(EV4_ADDR_HIER), 0x0100u);
    d.write(EV4_ADDR_HIER, 0x8000);
    EXPECT_EQ(d.read(EV4_ADDR_HIER), 0x8000u);
    d.write(EV4_ADDR_HIER, 0);
    EXPECT_EQ(d.read(EV4_ADDR_HIER), 0u);
}

TEST_P(Ev4RegsModel, ReadOnlyWriteOnlyAndObservationRegisters)
{
    EV4_OPEN(d, params(model()));
    dirty(d);
    const pmu_state before = d.snap();
    // HIRR is set by the hardware only; the counters cannot be written.
    d.write(EV4_ADDR_HIRR, 0);
    d.write(EV4_ADDR_HIRR, ~0ull);
    d.write(EV4_ADDR_CTR0, 0);
    d.write(EV4_ADDR_CTR1, ~0ull);
    const pmu_state after = d.snap();
    for (unsigned v = 0; v < EV4_NVIS; v++)
        EXPECT_EQ(after.reg[v], before.reg[v]) << ev4_vis_table[v].name;
    EXPECT_EQ(after.pmi, before.pmi);
    // SL_CLR is write-only; a write of all ones clears nothing.
    EXPECT_EQ(d.read(EV4_ADDR_SL_CLR), 0u);
    d.write(EV4_ADDR_SL_CLR, ~0ull);
    EXPECT_EQ(d.hirr(), 0x100u);
    EXPECT_EQ(d.read(EV4_ADDR_SL_CLR), 0u);
}

TEST_P(Ev4RegsModel, UnlistedAddressesReadZeroAndIgnoreWrites)
{
    EV4_OPEN(d, params(model()));
    dirty(d);
    const pmu_state before = d.snap();
    unsigned checked = 0;
    for (unsigned a = 0; a <= 0x1ff; a++) {
        if (listed(a))
            continue;
        d.write(uint16_t(a), ~0ull);
        d.write(uint16_t(a), 0);
        EXPECT_EQ(d.read(uint16_t(a)), 0u) << "address 0x" << std::hex << a;
        checked++;
    }
    d.write(0xffff, 0);
    EXPECT_EQ(d.read(0xffff), 0u);
    const pmu_state after = d.snap();
    for (unsigned v = 0; v < EV4_NVIS; v++)
        EXPECT_EQ(after.reg[v], before.reg[v]) << ev4_vis_table[v].name;
    EXPECT_EQ(after.pmi, before.pmi);
    EXPECT_EQ(checked, 0x200u - 6);
}

TEST_P(Ev4RegsModel, ChangingMuxOrPeriodKeepsTheCounts)
{
    EV4_OPEN(d, params(model()));
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL));
    d.step_n(issue({EV4_CLASS_INTOP, EV4_CLASS_STORE}), 5);
    ASSERT_EQ(d.count(0), 5u);
    ASSERT_EQ(d.count(1), 5u);
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_LOADI).with_mux1(EV4_MUX_PF_STOREI).with_pc0(1).with_pc1(1));
    EXPECT_EQ(d.count(0), 5u);
    EXPECT_EQ(d.count(1), 5u);
    d.step(issue({EV4_CLASS_LOAD, EV4_CLASS_STORE}));
    EXPECT_EQ(d.count(0), 6u);
    EXPECT_EQ(d.count(1), 6u);
}

TEST(Ev4Regs, SnapshotIsTheReadPortInVisibleOrder)
{
    EV4_OPEN(d, params());
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_ISSUES).with_mux1(EV4_MUX_PF_DCACHE).with_pc1(1));
    d.write(EV4_ADDR_HIER, 0x8000);
    d.step_n(issue({EV4_CLASS_INTOP}), 257);    // 128.5 issues, no miss
    d.step_n(with_dmiss(cycle()), 256);         // 256 misses, no issue
    const pmu_state s = d.snap();
    ASSERT_EQ(EV4_NVIS, 5);
    EXPECT_EQ(s.reg[0], d.read(EV4_ADDR_ICCSR));
    EXPECT_EQ(s.reg[1], 0x100u);                // HIRR: counter 1 crossed 2^8
    EXPECT_EQ(s.reg[2], 0x8000u);               // HIER
    EXPECT_EQ(s.reg[3], 0x100000080ull);        // CTR0: COUNT 128, HALF at bit 32
    EXPECT_EQ(s.reg[4], 0x100u);                // CTR1: 256 misses
    EXPECT_EQ(s.pmi, 1u);
    EXPECT_EQ(d.get()->cycle, 513u);
}

TEST(Ev4Regs, Pass2CountersCountWithoutPmeBits)
{
    EV4_OPEN(d, params(EV4_MODEL_21064_PASS2));
    // No PME bits: an ICCSR with both clear still counts (pfm(7) NOTES).
    d.iccsr(Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL).with_pme(0, 0));
    EXPECT_EQ(d.read(EV4_ADDR_ICCSR), 0x200000a00ull); // MUX1 2, MUX0 0xa
    d.step_n(issue({EV4_CLASS_INTOP, EV4_CLASS_INTOP}), 3);
    EXPECT_EQ(d.count(0), 3u);
    EXPECT_EQ(d.count(1), 3u);
}

TEST(Ev4Regs, PmeBitsGateEachCounterOnThe21064)
{
    EV4_OPEN(d, params(EV4_MODEL_21064));
    const ev4_cycle dual = issue({EV4_CLASS_INTOP, EV4_CLASS_INTOP});
    const Iccsr sel = Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL);
    d.iccsr(Iccsr(sel).with_pme(0, 0));
    d.step_n(dual, 3);
    EXPECT_EQ(d.count(0), 0u);
    EXPECT_EQ(d.count(1), 0u);
    d.iccsr(Iccsr(sel).with_pme(1, 0));
    d.step_n(dual, 3);
    EXPECT_EQ(d.count(0), 3u);
    EXPECT_EQ(d.count(1), 0u);
    d.iccsr(Iccsr(sel).with_pme(0, 1));
    d.step_n(dual, 2);
    EXPECT_EQ(d.count(0), 3u);
    EXPECT_EQ(d.count(1), 2u);
    d.iccsr(Iccsr(sel).with_pme(1, 1));
    d.step(dual);
    EXPECT_EQ(d.count(0), 4u);
    EXPECT_EQ(d.count(1), 3u);
}
