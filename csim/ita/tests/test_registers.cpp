// test_registers.cpp - reset values, writable masks, unimplemented registers,
// PMD writes and reads, create/reset/snapshot contract (ita-semantics.md "Clocks",
// "Register writes", "Register reads").
#include "ref_test_util.h"

using namespace reftest;

class Registers : public ModelTest {};
INSTANTIATE_BOTH_MODELS(Registers);

TEST(RefCreate, NullGivesDefaults)
{
    pmu_backend *b = ita_ref_create(nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_STREQ(b->name, "ref");
    EXPECT_EQ(b->model, (unsigned)ITA_MODEL_ITANIUM2);
    ita_params d = ita_params_default();
    EXPECT_EQ(d.model, ITA_MODEL_ITANIUM2);
    EXPECT_EQ(d.pmd_sext, 1);
    EXPECT_EQ(d.thr_ge, 0);
    EXPECT_EQ(d.fine_2bundle, 0);
    EXPECT_EQ(b->cycle, 0u);
    EXPECT_EQ(pmu_read(b, pmc(4)), 0x800000u); // Itanium 2 PMC4 reset
    pmu_destroy(b);
}

TEST(RefCreate, BadParametersAreRejected)
{
    ita_params p = params(ITA_MODEL_ITANIUM2);
    p.model = (ita_model)2;
    EXPECT_EQ(ita_ref_create(&p), nullptr);
    p = params(ITA_MODEL_ITANIUM2, 2, 0);
    EXPECT_EQ(ita_ref_create(&p), nullptr);
    p = params(ITA_MODEL_ITANIUM2, 1, -1);
    EXPECT_EQ(ita_ref_create(&p), nullptr);
    p = params(ITA_MODEL_ITANIUM2, 1, 0, 2);
    EXPECT_EQ(ita_ref_create(&p), nullptr);
    p = params(ITA_MODEL_ITANIUM, 1, 0, 1); // accepted: fine mode simply does not exist there
    pmu_backend *b = ita_ref_create(&p);
    EXPECT_NE(b, nullptr);
    pmu_destroy(b);
}

namespace {
// The qualification registers (docs/ita-register-map.md, from the Linux kernel's
// arch/ia64/kernel/perfmon_mckinley.h and perfmon_itanium.h): reset value, the value read
// after writing all ones, and after writing zero, for [Itanium, Itanium 2].
// Read back = (v & wmask) | (reset & ~wmask), written out by hand.
struct QualReg {
    const char *name;
    uint16_t addr;
    uint64_t reset[2], ones[2], zero[2];
};
const uint64_t ALL = ~uint64_t(0);
const QualReg kQualRegs[] = {
    // Itanium PMC8/9: bits 2:0 and 32:30 are ignored (read 0).  Itanium 2:
    // bit 2 is not writable and reads 1; bits 31:30 read 0; ig_ad and inv are writable.
    {"PMC8", pmc(8), {0xf00000003ffffff8ull, 0xffffffff3fffffffull},
     {0xfffffffe3ffffff8ull, 0xffffffff3fffffffull}, {0, 0x4}},
    {"PMC9", pmc(9), {0xf00000003ffffff8ull, 0xffffffff3ffffffcull},
     {0xfffffffe3ffffff8ull, 0xffffffff3fffffffull}, {0, 0x4}},
    // The I-EAR configuration: Itanium plm, pm, tlb, umask 19:16, ism; Itanium 2 bits 15:0.
    {"PMC10", pmc(10), {0, 0}, {0x30f00cfull, 0xffffull}, {0, 0}},
    // Itanium: the D-EAR configuration (plm, pm, tlb, umask, ism) and pt, which resets
    // to 1.  Itanium 2: the D-EAR configuration bits (mode 8:7).
    {"PMC11", pmc(11), {0x10000000ull, 0}, {0x130f00cfull, 0x30f01cfull}, {0, 0}},
    // The BTB configuration: Itanium has no bits 5:4; Itanium 2 bits 15:0.
    {"PMC12", pmc(12), {0, 0}, {0xffcfull, 0xffffull}, {0, 0}},
    // Itanium: ta only; the other bits keep their reset value.  Itanium 2:
    // cfg_dbrp0..3 and ena_dbrp0..3; the ignored bits keep their special values.
    {"PMC13", pmc(13), {0x0003ffff00000001ull, 0x2078fefefefeull},
     {0x0003ffff00000001ull, 0x1e078fefefefeull}, {0x0003ffff00000000ull, 0x78e6e6e6e6ull}},
    // Not on Itanium: reads 0.
    {"PMC14", pmc(14), {0, 0x0db60db60db60db6ull}, {0, 0x0db60db60db62db6ull}, {0, 0x0db60db60db60924ull}},
    {"PMC15", pmc(15), {0, 0xfffffff0ull}, {0, 0xffffffffull}, {0, 0xfffffff0ull}},
    // IBR: address; mask, plm, x (bits 62:60 ignored).  DBR: mask, plm, w, r (61:60 ignored).
    {"IBR0", ibr(0), {0, 0}, {ALL, ALL}, {0, 0}},
    {"IBR1", ibr(1), {0, 0}, {0x8fffffffffffffffull, 0x8fffffffffffffffull}, {0, 0}},
    {"IBR2", ibr(2), {0, 0}, {ALL, ALL}, {0, 0}},
    {"IBR3", ibr(3), {0, 0}, {0x8fffffffffffffffull, 0x8fffffffffffffffull}, {0, 0}},
    {"IBR4", ibr(4), {0, 0}, {ALL, ALL}, {0, 0}},
    {"IBR5", ibr(5), {0, 0}, {0x8fffffffffffffffull, 0x8fffffffffffffffull}, {0, 0}},
    {"IBR6", ibr(6), {0, 0}, {ALL, ALL}, {0, 0}},
    {"IBR7", ibr(7), {0, 0}, {0x8fffffffffffffffull, 0x8fffffffffffffffull}, {0, 0}},
    {"DBR0", dbr(0), {0, 0}, {ALL, ALL}, {0, 0}},
    {"DBR1", dbr(1), {0, 0}, {0xcfffffffffffffffull, 0xcfffffffffffffffull}, {0, 0}},
    {"DBR2", dbr(2), {0, 0}, {ALL, ALL}, {0, 0}},
    {"DBR3", dbr(3), {0, 0}, {0xcfffffffffffffffull, 0xcfffffffffffffffull}, {0, 0}},
    {"DBR4", dbr(4), {0, 0}, {ALL, ALL}, {0, 0}},
    {"DBR5", dbr(5), {0, 0}, {0xcfffffffffffffffull, 0xcfffffffffffffffull}, {0, 0}},
    {"DBR6", dbr(6), {0, 0}, {ALL, ALL}, {0, 0}},
    {"DBR7", dbr(7), {0, 0}, {0xcfffffffffffffffull, 0xcfffffffffffffffull}, {0, 0}},
    // The EAR and BTB data registers (docs/ita-ear-btb.md): software restores them on a
    // context switch, so every field is writable; bits no field holds read 0.
    // PMD0: address 63:5, stat / tlb+v 1:0 (4:2 read 0).
    {"PMD0", pmd(0), {0, 0}, {0xffffffffffffffe3ull, 0xffffffffffffffe3ull}, {0, 0}},
    // PMD1: latency 11:0 (Itanium 2: and ov, bit 12).
    {"PMD1", pmd(1), {0, 0}, {0xfffull, 0x1fffull}, {0, 0}},
    {"PMD2", pmd(2), {0, 0}, {ALL, ALL}, {0, 0}},
    // PMD3: Itanium level 63:62 and latency 11:0; Itanium 2 stat, ov, latency 15:0.
    {"PMD3", pmd(3), {0, 0}, {0xc000000000000fffull, 0xffffull}, {0, 0}},
    {"PMD8", pmd(8), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD9", pmd(9), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD10", pmd(10), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD11", pmd(11), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD12", pmd(12), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD13", pmd(13), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD14", pmd(14), {0, 0}, {ALL, ALL}, {0, 0}},
    {"PMD15", pmd(15), {0, 0}, {ALL, ALL}, {0, 0}},
    // PMD16: bbi 2:0, full 3, four extension bits per entry 35:4.
    {"PMD16", pmd(16), {0, 0}, {0xfffffffffull, 0xfffffffffull}, {0, 0}},
    // PMD17: Itanium bit 1 reads 0; Itanium 2 every bit.
    {"PMD17", pmd(17), {0, 0}, {0xfffffffffffffffdull, ALL}, {0, 0}},
};
} // namespace

TEST_P(Registers, QualificationRegistersResetAndWritableMasks)
{
    const int m = model();
    unsigned checked = 0;
    for (const QualReg &q : kQualRegs) {
        Ref r(params(model()));
        EXPECT_EQ(r.read(q.addr), q.reset[m]) << q.name << " reset";
        r.write(q.addr, ALL);
        EXPECT_EQ(r.read(q.addr), q.ones[m]) << q.name << " after writing all ones";
        r.write(q.addr, 0);
        EXPECT_EQ(r.read(q.addr), q.zero[m]) << q.name << " after writing 0";
        // One bit at a time: exactly the writable bits follow the written value.
        for (unsigned bit = 0; bit < 64; bit++) {
            const uint64_t one = uint64_t(1) << bit;
            r.write(q.addr, one);
            const uint64_t expect = (q.ones[m] & one) | (q.zero[m] & ~one);
            ASSERT_EQ(r.read(q.addr), expect) << q.name << " bit " << bit;
        }
        // The snapshot shows the same value.
        r.write(q.addr, 0x0123456789abcdefull);
        pmu_state s = r.snap();
        bool found = false;
        for (int v = 0; v < ITA_NVIS; v++)
            if (ita_vis_table[v].addr == q.addr) {
                EXPECT_EQ(s.reg[v], r.read(q.addr)) << q.name;
                found = true;
            }
        EXPECT_TRUE(found) << q.name << " is in the visible list";
        checked++;
    }
    EXPECT_EQ(checked, 38u);
}

TEST_P(Registers, ResetValues)
{
    Ref r(params(model()));
    pmu_state s = r.snap();
    EXPECT_EQ(s.reg[ITA_VIS_PMC0], 0x1u) << "PMC0 resets frozen (fr = 1)";
    EXPECT_EQ(s.reg[ITA_VIS_PMC4], model() == ITA_MODEL_ITANIUM2 ? 0x800000u : 0u);
    EXPECT_EQ(s.reg[ITA_VIS_PMC5], 0u);
    EXPECT_EQ(s.reg[ITA_VIS_PMC6], 0u);
    EXPECT_EQ(s.reg[ITA_VIS_PMC7], 0u);
    for (int v = ITA_VIS_PMD4; v <= ITA_VIS_PMD7; v++)
        EXPECT_EQ(s.reg[v], 0u);
    EXPECT_EQ(s.reg[ITA_VIS_PSR], 0u);
    EXPECT_EQ(s.reg[ITA_VIS_DCR], 0u);
    EXPECT_EQ(s.reg[ITA_VIS_IPSR], 0u);
    EXPECT_EQ(s.pmi, 0);
    for (unsigned ctr = 4; ctr <= 7; ctr++)
        EXPECT_EQ(r.total(ctr), 0u);
    // The qualification registers, in the visible list.
    const bool ita = model() == ITA_MODEL_ITANIUM;
    EXPECT_EQ(s.reg[ITA_VIS_PMC8], ita ? 0xf00000003ffffff8ull : 0xffffffff3fffffffull);
    EXPECT_EQ(s.reg[ITA_VIS_PMC9], ita ? 0xf00000003ffffff8ull : 0xffffffff3ffffffcull);
    EXPECT_EQ(s.reg[ITA_VIS_PMC11], ita ? 0x10000000ull : 0u);
    EXPECT_EQ(s.reg[ITA_VIS_PMC13], ita ? 0x0003ffff00000001ull : 0x2078fefefefeull);
    EXPECT_EQ(s.reg[ITA_VIS_PMC14], ita ? 0u : 0x0db60db60db60db6ull);
    EXPECT_EQ(s.reg[ITA_VIS_PMC15], ita ? 0u : 0xfffffff0ull);
    for (int v = ITA_VIS_IBR0; v <= ITA_VIS_IBR7; v++)
        EXPECT_EQ(s.reg[v], 0u) << ita_vis_table[v].name;
    for (int v = ITA_VIS_DBR0; v <= ITA_VIS_DBR7; v++)
        EXPECT_EQ(s.reg[v], 0u) << ita_vis_table[v].name;
    EXPECT_EQ(s.reg[ITA_VIS_PMC10], 0u);
    EXPECT_EQ(s.reg[ITA_VIS_PMC12], 0u);
    for (int v : {ITA_VIS_PMD0, ITA_VIS_PMD1, ITA_VIS_PMD2, ITA_VIS_PMD3, ITA_VIS_PMD16, ITA_VIS_PMD17})
        EXPECT_EQ(s.reg[v], 0u) << ita_vis_table[v].name;
    for (int v = ITA_VIS_PMD8; v <= ITA_VIS_PMD15; v++)
        EXPECT_EQ(s.reg[v], 0u) << ita_vis_table[v].name;
    EXPECT_EQ(ITA_NVIS, 50);
}

TEST_P(Registers, WritableMasks)
{
    Ref r(params(model()));
    const bool ita = model() == ITA_MODEL_ITANIUM;
    const uint64_t ones = ~uint64_t(0);

    r.write(pmc(0), ones);
    EXPECT_EQ(r.read(pmc(0)), 0xf1u) << "fr and ovf[7:4] only";
    for (unsigned i = 4; i <= 7; i++) {
        r.write(pmc(i), ones);
        uint64_t expect = ita ? (i <= 5 ? 0x37f7f7fu : 0x33f7f7fu) : 0xfffff7fu;
        EXPECT_EQ(r.read(pmc(i)), expect) << "PMC" << i;
        r.write(pmc(i), 0);
        EXPECT_EQ(r.read(pmc(i)), 0u) << "PMC" << i << ": every reset-1 bit is writable";
    }
    r.write(psr_addr(), ones);
    EXPECT_EQ(r.read(psr_addr()), 0x200004u) << "PSR: up (bit 2) and pp (bit 21)";
    r.write(ipsr_addr(), ones);
    EXPECT_EQ(r.read(ipsr_addr()), 0x200004u);
    r.write(dcr_addr(), ones);
    EXPECT_EQ(r.read(dcr_addr()), 0x1u);
}

TEST_P(Registers, ItaniumEventSelectAndThresholdWidths)
{
    Ref r(params(model()));
    const bool ita = model() == ITA_MODEL_ITANIUM;
    // es = 0xd1: bit 15 (es bit 7) is not stored on Itanium.
    r.write(pmc(4), raw_pmc(0xd1, 0).value());
    EXPECT_EQ(ITA_FGET(r.read(pmc(4)), PMC_GEN, ES), ita ? 0x51u : 0xd1u);
    // thres = 7 on every counter: PMC6/7 of Itanium keep 2 bits.
    for (unsigned i = 4; i <= 7; i++) {
        r.write(pmc(i), Pmc().with_thres(7).value());
        EXPECT_EQ(ITA_FGET(r.read(pmc(i)), PMC_GEN, THRES), (ita && i >= 6) ? 3u : 7u) << "PMC" << i;
    }
}

TEST_P(Registers, Pmc1To3AndUnimplementedRegistersReadZeroAndIgnoreWrites)
{
    Ref r(params(model()));
    r.write(pmc(4), event_pmc(ITA_EV_CPU_CYCLES).value());
    r.write(pmd(5), 1234);
    const pmu_state before = r.snap();
    unsigned checked = 0;
    for (unsigned a = 0; a < (1u << ITA_ADDR_BITS); a++) {
        bool visible = false;
        for (int v = 0; v < ITA_NVIS; v++)
            visible |= ita_vis_table[v].addr == a;
        if (visible)
            continue;
        r.write(uint16_t(a), ~uint64_t(0));
        ASSERT_EQ(r.read(uint16_t(a)), 0u) << "address 0x" << std::hex << a;
        checked++;
    }
    EXPECT_EQ(checked, (1u << ITA_ADDR_BITS) - ITA_NVIS);
    const pmu_state after = r.snap();
    for (int v = 0; v < ITA_NVIS; v++)
        EXPECT_EQ(after.reg[v], before.reg[v]) << ita_vis_table[v].name << " changed";
    for (unsigned i = 1; i <= 3; i++)
        EXPECT_EQ(r.read(pmc(i)), 0u);
}

// Every writable register of the .def is reachable: a write with its mask
// reads back.  Catches a register added to the .def that the model drops.
TEST_P(Registers, EveryWritableRegisterOfTheDefIsStored)
{
    Ref r(params(model()));
    for (unsigned i = 0; i < ita_reg_table_len; i++) {
        const ita_reg_desc &d = ita_reg_table[i];
        for (unsigned k = 0; k < d.count; k++) {
            uint16_t a = ITA_ADDR(d.space, d.first + k);
            if (d.wmask[model()] == 0) {
                r.write(a, ~uint64_t(0));
                EXPECT_EQ(r.read(a), 0u) << d.name;
                continue;
            }
            r.write(a, d.wmask[model()]);
            uint64_t got = r.read(a);
            // PMDs may read sign-extended.
            EXPECT_EQ(got & d.wmask[model()], d.wmask[model()]) << d.name << "[" << k << "]";
        }
    }
}

TEST_P(Registers, PmdWriteKeepsWBitsAndReadsSignExtendedOrZero)
{
    const unsigned w = ita_counter_width(model());
    const uint64_t sign = uint64_t(1) << (w - 1);
    for (int sext = 0; sext <= 1; sext++) {
        Ref r(params(model(), sext));
        for (unsigned i = 4; i <= 7; i++) {
            r.write(pmd(i), (uint64_t(0xabc) << w) | 5); // bits 63:W are dropped
            EXPECT_EQ(r.read(pmd(i)), 5u);
            r.write(pmd(i), sign | 3);
            EXPECT_EQ(r.read(pmd(i)), sext ? (~wmax(model()) | sign | 3) : (sign | 3))
                << "PMD" << i << " sext=" << sext;
            r.write(pmd(i), sign - 1);
            EXPECT_EQ(r.read(pmd(i)), sign - 1);
        }
        // The snapshot shows what a read returns.
        pmu_state s = r.snap();
        EXPECT_EQ(s.reg[ITA_VIS_PMD4], sign - 1);
        r.write(pmd(6), ~uint64_t(0));
        s = r.snap();
        EXPECT_EQ(s.reg[ITA_VIS_PMD6], sext ? ~uint64_t(0) : wmax(model()));
    }
}

TEST_P(Registers, PmdWriteNeverOverflows)
{
    Ref r(params(model()));
    r.start();
    for (unsigned i = 4; i <= 7; i++)
        r.write(pmc(i), event_pmc(ITA_EV_CPU_CYCLES).with_oi(1).value());
    for (unsigned i = 4; i <= 7; i++) {
        r.write(pmd(i), wmax(model()));
        r.write(pmd(i), ~uint64_t(0));
        r.write(pmd(i), 0);
        r.write(pmd(i), wmax(model()));
        EXPECT_EQ(r.snap().pmi, 0);
    }
    EXPECT_EQ(r.read(pmc(0)), 0u) << "no overflow bit, no freeze from writes";
    for (unsigned ctr = 4; ctr <= 7; ctr++)
        EXPECT_EQ(r.total(ctr), 0u) << "writes are not increments";
}

TEST_P(Registers, SoftwareSetsAndClearsPmc0Bits)
{
    Ref r(params(model()));
    r.write(pmc(0), ovf_bit(5) | ovf_bit(7));
    EXPECT_EQ(r.read(pmc(0)), ovf_bit(5) | ovf_bit(7));
    r.write(pmc(0), fr_bit());
    EXPECT_EQ(r.read(pmc(0)), fr_bit());
    r.write(pmc(0), 0xe); // bits 3:1 stay 0
    EXPECT_EQ(r.read(pmc(0)), 0u);
    EXPECT_EQ(r.snap().pmi, 0) << "setting an overflow bit by software raises nothing";
}

TEST_P(Registers, SnapshotEqualsReadsAndCycleCountsSteps)
{
    Ref r(params(model()));
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED));
    r.program(6, event_pmc(ITA_EV_CPU_CYCLES));
    r.write(dcr_addr(), 1);
    r.write(pmd(5), wmax(model()));
    ita_cycle c = cycle_with({ITA_SF_NOP_MASK, 0, ITA_SF_LOAD_MASK});
    r.step_n(c, 7);
    c.intr = ITA_INTR_ENTRY;
    r.step(c);
    EXPECT_EQ(r.get()->cycle, 8u);
    r.write(pmc(7), 1); // a write is not a record
    r.read(pmd(4));
    EXPECT_EQ(r.get()->cycle, 8u);

    pmu_state s = r.snap();
    for (int v = 0; v < ITA_NVIS; v++)
        EXPECT_EQ(s.reg[v], r.read(ita_vis_table[v].addr)) << ita_vis_table[v].name;
    EXPECT_EQ(s.reg[ITA_VIS_PMD4], 24u);
    EXPECT_EQ(s.reg[ITA_VIS_PMD6], 8u);
}

TEST_P(Registers, ResetRestoresEverything)
{
    Ref r(params(model()));
    const pmu_state fresh = r.snap();
    r.start();
    for (unsigned i = 4; i <= 7; i++) {
        r.program(i, event_pmc(ITA_EV_CPU_CYCLES).with_oi(1));
        r.write(pmd(i), wmax(model()));
    }
    r.write(dcr_addr(), 1);
    r.write(ipsr_addr(), psr_value(1, 1));
    r.step(cycle());
    ASSERT_EQ(r.pmi(), 1);
    pmu_reset(r.get());
    const pmu_state s = r.snap();
    for (int v = 0; v < ITA_NVIS; v++)
        EXPECT_EQ(s.reg[v], fresh.reg[v]) << ita_vis_table[v].name;
    EXPECT_EQ(s.pmi, 0);
    EXPECT_EQ(r.get()->cycle, 0u);
    for (unsigned ctr = 4; ctr <= 7; ctr++)
        EXPECT_EQ(r.total(ctr), 0u);
    // The reset PMC configuration counts nothing (plm = 0), even unfrozen.
    r.start();
    r.step_n(cycle_with({ITA_SF_NOP_MASK}), 3);
    for (unsigned i = 4; i <= 7; i++)
        EXPECT_EQ(r.read(pmd(i)), 0u);
}

TEST(RefTotal, OutOfRangeCounterOrForeignBackendIsZero)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    r.start();
    r.program(4, event_pmc(ITA_EV_CPU_CYCLES));
    r.step(cycle());
    EXPECT_EQ(r.total(4), 1u);
    EXPECT_EQ(r.total(3), 0u);
    EXPECT_EQ(r.total(8), 0u);
    EXPECT_EQ(ita_ref_total(nullptr, 4), 0u);
}
