// directed_tests - reset values and writable masks, counting, overflow and freeze,
// thresholds, privilege-level and instruction-set masks, power states and the monitor
// set-ups of ITA-PRM Figures 6-6..6-8, run on every backend (reference model, Verilated
// RTL) and both models, each with exact expected values.  The same scenario must give
// the same numbers on both: that is the point of running it twice.
//
// Sources: docs/sources.md.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/pmu_backend.h"
#include "common/ita/ita_events.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"

namespace {

struct Param {
    const char *backend;
    ita_model model;
};

std::string ParamName(const testing::TestParamInfo<Param> &i)
{
    return std::string(i.param.backend) + (i.param.model == ITA_MODEL_ITANIUM ? "_itanium" : "_itanium2");
}

uint16_t PMC(unsigned i) { return ITA_ADDR(ITA_SPACE_PMC, i); }
uint16_t PMD(unsigned i) { return ITA_ADDR(ITA_SPACE_PMD, i); }
const uint16_t PSR = ITA_ADDR(ITA_SPACE_CPU, 0);
const uint16_t DCR = ITA_ADDR(ITA_SPACE_CPU, 1);

const ita_event_desc &Ev(ita_event_id id) { return ita_event_table[id]; }

// A PMC4..7 value: event (with the model's code), plm, pm, oi, threshold, ism.
uint64_t Gen(ita_model m, ita_event_id ev, unsigned plm, unsigned pm = 0, unsigned oi = 0, unsigned thres = 0,
             unsigned ism = 0)
{
    const int code = ita_event_code(&Ev(ev), m);
    EXPECT_GE(code, 0) << Ev(ev).name << " is not implemented on this model";
    uint64_t v = 0;
    v = ITA_FSET(v, PMC_GEN, ES, code < 0 ? 0u : (unsigned)code);
    v = ITA_FSET(v, PMC_GEN, UMASK, Ev(ev).umask);
    v = ITA_FSET(v, PMC_GEN, PLM, plm);
    v = ITA_FSET(v, PMC_GEN, PM, pm);
    v = ITA_FSET(v, PMC_GEN, OI, oi);
    v = ITA_FSET(v, PMC_GEN, THRES, thres);
    v = ITA_FSET(v, PMC_GEN, ISM, ism);
    return v;
}

ita_cycle Cycle(unsigned cpl = 3, unsigned nslots = 0)
{
    ita_cycle c{};
    c.cpl = (uint8_t)cpl;
    c.power = ITA_POWER_NORMAL;
    c.nslots = (uint8_t)nslots;
    for (unsigned k = 0; k < nslots; k++) {
        c.slot[k].ip = 0x4000000000001000ull + 16 * (k / 3);
        c.slot[k].slot = (uint8_t)(k % 3);
        c.slot[k].unit = ITA_UNIT_I;
    }
    return c;
}

class Directed : public testing::TestWithParam<Param> {
protected:
    void SetUp() override
    {
        ita_params p = ita_params_default();
        p.model = GetParam().model;
        W = ita_counter_width(p.model);
        if (std::string(GetParam().backend) == "ref") {
            b = ita_ref_create(&p);
        } else {
            char err[256];
            b = ita_rtl_create(&p, err, sizeof err);
            ASSERT_NE(b, nullptr) << err;
        }
        ASSERT_NE(b, nullptr);
    }
    void TearDown() override { pmu_destroy(b); }

    uint64_t R(uint16_t a) { return pmu_read(b, a); }
    void Wr(uint16_t a, uint64_t v) { pmu_write(b, a, v); }
    void Step(const ita_cycle &c, unsigned n = 1)
    {
        for (unsigned i = 0; i < n; i++) pmu_step(b, &c);
    }
    uint64_t Count(unsigned i) { return R(PMD(i)) & ((1ull << W) - 1); }
    uint64_t Top() { return (1ull << W) - 1; }
    unsigned Pmi()
    {
        pmu_state s;
        pmu_snapshot(b, &s);
        return s.pmi;
    }
    void Unfreeze() { Wr(PMC(0), 0); }
    ita_model Model() const { return GetParam().model; }
    uint64_t Gen(ita_event_id ev, unsigned plm, unsigned pm = 0, unsigned oi = 0, unsigned thres = 0,
                 unsigned ism = 0)
    {
        return ::Gen(Model(), ev, plm, pm, oi, thres, ism);
    }

    pmu_backend *b = nullptr;
    unsigned W = 0;
};

TEST_P(Directed, ResetValues)
{
    EXPECT_EQ(R(PMC(0)), 0x1u) << "PMC0 powers on frozen";
    EXPECT_EQ(R(PMC(4)), GetParam().model == ITA_MODEL_ITANIUM2 ? 0x800000u : 0u);
    for (unsigned i = 4; i < 8; i++) EXPECT_EQ(R(PMD(i)), 0u);
}

TEST_P(Directed, UnimplementedRegistersReadZeroAndIgnoreWrites)
{
    const uint16_t addrs[] = {PMC(1), PMC(2), PMC(3), PMC(16), PMC(255), PMD(18), PMD(19), PMD(32),
                              PMD(255), ITA_ADDR(ITA_SPACE_IBR, 8), ITA_ADDR(ITA_SPACE_DBR, 200),
                              ITA_ADDR(ITA_SPACE_CPU, 7), ITA_ADDR(0xf, 0)};
    for (uint16_t a : addrs) {
        Wr(a, ~0ull);
        EXPECT_EQ(R(a), 0u) << "address 0x" << std::hex << a;
    }
    // PMC0's unimplemented overflow bits 3:1 and 63:8 stay zero.
    Wr(PMC(0), ~0ull);
    EXPECT_EQ(R(PMC(0)), 0xf1u);
}

TEST_P(Directed, WritableMasksShowModelFieldWidths)
{
    Wr(PMC(4), ~0ull);
    Wr(PMC(6), ~0ull);
    const ita_reg_desc *d4 = ita_reg_lookup(PMC(4)), *d6 = ita_reg_lookup(PMC(6));
    unsigned m = GetParam().model;
    EXPECT_EQ(R(PMC(4)), d4->wmask[m] | d4->reset[m]);
    EXPECT_EQ(R(PMC(6)), d6->wmask[m] | d6->reset[m]);
    if (GetParam().model == ITA_MODEL_ITANIUM) {
        EXPECT_EQ(ITA_FGET(R(PMC(4)), PMC_GEN, ES), 0x7fu) << "Itanium es is 7 bits";
        EXPECT_EQ(ITA_FGET(R(PMC(6)), PMC_GEN, THRES), 0x3u) << "Itanium PMC6 threshold is 2 bits";
        EXPECT_EQ(ITA_FGET(R(PMC(4)), PMC_GEN, THRES), 0x7u);
    } else {
        EXPECT_EQ(ITA_FGET(R(PMC(4)), PMC_GEN, ES), 0xffu);
        EXPECT_EQ(ITA_FGET(R(PMC(6)), PMC_GEN, THRES), 0x7u);
    }
}

TEST_P(Directed, CounterWritesNeverOverflowAndReadSignExtended)
{
    Wr(PMD(4), ~0ull);
    EXPECT_EQ(R(PMC(0)), 0x1u) << "a write sets no overflow bit";
    EXPECT_EQ(Pmi(), 0u);
    EXPECT_EQ(R(PMD(4)), ~0ull) << "bits 63:W copy bit W-1";
    Wr(PMD(5), 1ull << (W - 1));
    EXPECT_EQ(R(PMD(5)), ~0ull << (W - 1));
    Wr(PMD(6), (1ull << (W - 1)) - 1);
    EXPECT_EQ(R(PMD(6)), (1ull << (W - 1)) - 1) << "bit W-1 clear: upper bits read 0";
    Wr(PMD(7), 0xabcull | (1ull << W));
    EXPECT_EQ(R(PMD(7)), 0xabcu) << "bits above W are not stored";
}

TEST_P(Directed, OverflowFromTopSetsStickyBitFreezeAndInterrupt)
{
    Wr(PMC(4), Gen(ITA_EV_CPU_CYCLES, 0xf, 0, 1));
    Wr(PMC(5), Gen(ITA_EV_CPU_CYCLES, 0xf));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Wr(PMD(4), Top());
    Wr(PMD(5), 100);
    Unfreeze();
    Step(Cycle());
    EXPECT_EQ(Count(4), 0u);
    EXPECT_EQ(R(PMC(0)), 0x11u) << "overflow bit 4 and fr";
    EXPECT_EQ(Pmi(), 1u);
    EXPECT_EQ(Count(5), 101u) << "PMD5 counted in the overflow cycle";
    Step(Cycle(), 50);
    EXPECT_EQ(Pmi(), 0u) << "the interrupt is a one-clock pulse";
    EXPECT_EQ(Count(4), 0u) << "frozen";
    EXPECT_EQ(Count(5), 101u) << "freeze stops every counter";
    EXPECT_EQ(R(PMC(0)), 0x11u) << "hardware never clears sticky bits";
}

TEST_P(Directed, OverflowWithoutOiOnlySetsTheBitAndKeepsCounting)
{
    Wr(PMC(7), Gen(ITA_EV_CPU_CYCLES, 0xf));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Wr(PMD(7), Top() - 1);
    Unfreeze();
    Step(Cycle(), 5);
    EXPECT_EQ(Count(7), 3u);
    EXPECT_EQ(R(PMC(0)), 0x80u);
    Step(Cycle(), 1000);
    EXPECT_EQ(R(PMC(0)), 0x80u) << "sticky across 1000 steps";
    Wr(PMC(0), 0);
    EXPECT_EQ(R(PMC(0)), 0u) << "software clears it";
}

TEST_P(Directed, SecondCarryWithBitStillSetRaisesNoInterrupt)
{
    Wr(PMC(4), Gen(ITA_EV_CPU_CYCLES, 0xf, 0, 1));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Wr(PMD(4), Top());
    Unfreeze();
    Step(Cycle());
    EXPECT_EQ(Pmi(), 1u);
    Wr(PMC(0), 0x10);  // unfreeze but leave the overflow bit set
    Wr(PMD(4), Top());
    Step(Cycle());
    EXPECT_EQ(Pmi(), 0u) << "interrupt only on the 0->1 of the overflow bit";
    EXPECT_EQ(R(PMC(0)), 0x11u) << "but it freezes again";
}

TEST_P(Directed, MultiIncrementCrossesTheTop)
{
    Wr(PMC(4), Gen(ITA_EV_IA64_INST_RETIRED, 0xf, 0, 1));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Wr(PMD(4), Top() - 2);
    Unfreeze();
    Step(Cycle(3, 6));
    EXPECT_EQ(Count(4), 3u) << "6 retired: top-2 + 6 wraps to 3";
    EXPECT_EQ(R(PMC(0)), 0x11u);
}

TEST_P(Directed, ThresholdZeroAndMaxincrMinusOne)
{
    const unsigned maxincr = 6;  // NOPS_RETIRED's on both models
    // Itanium PMC6/7 thresholds have 2 bits: use PMC4/5 for the 3-bit threshold.
    Wr(PMC(4), Gen(ITA_EV_NOPS_RETIRED, 0xf, 0, 0, 0));
    Wr(PMC(5), Gen(ITA_EV_NOPS_RETIRED, 0xf, 0, 0, maxincr - 1));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    ita_cycle six = Cycle(3, maxincr), five = Cycle(3, maxincr - 1);
    for (unsigned k = 0; k < maxincr; k++) six.slot[k].flags = ITA_SF_NOP_MASK;
    for (unsigned k = 0; k < maxincr - 1; k++) five.slot[k].flags = ITA_SF_NOP_MASK;
    Step(six, 3);
    Step(five, 4);
    EXPECT_EQ(Count(4), 3u * maxincr + 4u * (maxincr - 1)) << "threshold 0 adds n";
    EXPECT_EQ(Count(5), 3u) << "threshold maxincr-1 adds 1 only when n = maxincr";
}

// ITA-PRM Figure 6-6: single-process monitor.  pm=0, plm=1000, DCR.pp=0; process A runs with
// PSR.up=1, B and C with PSR.up=0 (the context switch code loads each process's PSR).
TEST_P(Directed, Figure6_6SingleProcessMonitor)
{
    Wr(PMC(4), Gen(ITA_EV_IA64_INST_RETIRED, 0x8, 0));
    Wr(DCR, 0);
    Unfreeze();
    uint64_t expect = 0;
    for (int round = 0; round < 3; round++) {
        for (unsigned proc = 0; proc < 3; proc++) {
            ita_cycle user = Cycle(3, 2);
            user.up_we = 1;
            user.up = proc == 0;  // A only
            Step(user);
            user.up_we = 0;
            Step(user, 9);
            if (proc == 0) expect += 10 * 2;
            ita_cycle kern = Cycle(0, 3);  // syscall in the kernel
            Step(kern, 5);
            ita_cycle irq = Cycle(0, 1);
            irq.intr = ITA_INTR_ENTRY;
            Step(irq);
            irq.intr = ITA_INTR_NONE;
            Step(irq, 3);
            ita_cycle back = Cycle(3, 1);
            back.intr = ITA_INTR_RETURN;
            Step(back);
            if (proc == 0) expect += 1;
        }
    }
    EXPECT_EQ(Count(4), expect) << "only process A's user-level instructions";
}

// ITA-PRM Figure 6-7: multi-process monitor.  pm=0, plm=1001, DCR.pp=0; A and B run with
// PSR.up=1, C with 0.  A's and B's user and kernel instructions count.
TEST_P(Directed, Figure6_7MultiProcessMonitor)
{
    Wr(PMC(5), Gen(ITA_EV_IA64_INST_RETIRED, 0x9, 0));
    Wr(DCR, 0);
    Unfreeze();
    uint64_t expect = 0;
    for (unsigned proc = 0; proc < 3; proc++) {
        bool monitored = proc != 2;
        ita_cycle user = Cycle(3, 4);
        user.up_we = 1;
        user.up = monitored;
        Step(user, 7);
        ita_cycle kern = Cycle(0, 2);
        Step(kern, 4);
        ita_cycle cpl1 = Cycle(1, 2);  // plm excludes level 1
        Step(cpl1, 3);
        if (monitored) expect += 7 * 4 + 4 * 2;
    }
    EXPECT_EQ(Count(5), expect);
}

// ITA-PRM Figure 6-8: system-wide monitor.  pm=1, plm=1001, DCR.pp=1, PSR.pp=1 for every
// process: user, kernel and interruption handlers all count.  With DCR.pp=0 the
// handlers drop out, and PSR.pp comes back on return.
TEST_P(Directed, Figure6_8SystemWideMonitorAndDcrPp)
{
    Wr(PMC(6), Gen(ITA_EV_CPU_CYCLES, 0x9, 1));
    Wr(PSR, 1ull << ITA_F_PSR_PP_LSB);
    Wr(DCR, 1);
    Unfreeze();
    ita_cycle user = Cycle(3, 1), kern = Cycle(0, 1);
    ita_cycle entry = Cycle(0, 1), ret = Cycle(3, 1);
    entry.intr = ITA_INTR_ENTRY;
    ret.intr = ITA_INTR_RETURN;
    Step(user, 10);
    Step(kern, 10);
    Step(entry);
    Step(kern, 9);
    Step(ret);
    EXPECT_EQ(Count(6), 31u) << "DCR.pp=1: handlers included";
    Wr(DCR, 0);
    Step(entry);
    Step(kern, 9);
    EXPECT_EQ(R(PSR) >> ITA_F_PSR_PP_LSB & 1, 0u) << "PSR.pp took DCR.pp on entry";
    Step(ret);
    EXPECT_EQ(R(PSR) >> ITA_F_PSR_PP_LSB & 1, 1u) << "and got its old value back on return";
    Step(user, 5);
    EXPECT_EQ(Count(6), 31u + 1 + 5) << "DCR.pp=0: the handler's 10 cycles not counted";
}

TEST_P(Directed, PrivilegeLevelAndInstructionSetMasks)
{
    // ism: 0 both, 1 (bit 24) disables IA-64, 2 (bit 25) disables IA-32, 3 none.
    for (unsigned ism = 0; ism < 4; ism++)
        Wr(PMC(4 + ism), Gen(ITA_EV_CPU_CYCLES, 0x1 << ism % 4 | 0x8, 0, 0, 0, ism));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    ita_cycle ia64u = Cycle(3), ia32u = Cycle(3);
    ia32u.is = 1;
    Step(ia64u, 10);
    Step(ia32u, 20);
    EXPECT_EQ(Count(4), 30u);
    EXPECT_EQ(Count(5), 20u) << "ism=IA-32 only";
    EXPECT_EQ(Count(6), 10u) << "ism=IA-64 only";
    EXPECT_EQ(Count(7), 0u) << "ism=3 never counts";
    for (unsigned cpl = 0; cpl < 3; cpl++) {
        for (unsigned is = 0; is < 2; is++) {
            ita_cycle c = Cycle(cpl);
            c.is = (uint8_t)is;
            Step(c);
        }
    }
    EXPECT_EQ(Count(4), 32u) << "plm 1001: cpl 0 counts (both sets), 1 and 2 do not";
    EXPECT_EQ(Count(5), 21u) << "plm 1010, IA-32 only: cpl 1 in IA-32";
    EXPECT_EQ(Count(6), 11u) << "plm 1100, IA-64 only: cpl 2 in IA-64";
}

// Itanium has no L2_FORCE_RECIRC_ANY: there the event wired to fewer counters is
// NOPS_RETIRED (PMC4/5 only) and the halt-state count is of LOADS_RETIRED.
TEST_P(Directed, PowerStatesGateCyclesOnly)
{
    const bool ita2 = Model() == ITA_MODEL_ITANIUM2;
    const unsigned narrow_ctr = ita2 ? 5 : 6;
    const ita_event_id narrow_ev = ita2 ? ITA_EV_L2_FORCE_RECIRC_ANY : ITA_EV_NOPS_RETIRED;
    Wr(PMC(4), Gen(ITA_EV_CPU_CYCLES, 0xf));
    Wr(PMC(narrow_ctr), Gen(narrow_ev, 0xf));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    for (unsigned p = ITA_POWER_NORMAL; p <= ITA_POWER_HALT; p++) {
        ita_cycle c = Cycle(3, 2);
        c.slot[0].flags = c.slot[1].flags = ITA_SF_NOP_MASK;
        c.power = (uint8_t)p;
        c.recirc = 2;
        Step(c, 10);
    }
    EXPECT_EQ(Count(4), 20u) << "cycles count in NORMAL and LOW-POWER only";
    EXPECT_EQ(Count(narrow_ctr), 0u) << Ev(narrow_ev).name << " counts nothing on PMC" << narrow_ctr;
    const ita_event_id halt_ev = ita2 ? ITA_EV_L2_FORCE_RECIRC_ANY : ITA_EV_LOADS_RETIRED;
    Wr(PMC(4), Gen(halt_ev, 0xf));
    ita_cycle c = Cycle(3, ita2 ? 0 : 2);
    for (unsigned k = 0; k < c.nslots; k++) c.slot[k].flags = ITA_SF_LOAD_MASK;
    c.power = ITA_POWER_LIGHT_HALT;
    c.recirc = 3;
    Step(c, 4);
    EXPECT_EQ(ITA_FGET(R(PMC(4)), PMC_GEN, ES), (unsigned)ita_event_code(&Ev(halt_ev), Model()));
    EXPECT_EQ(Count(4), 20u + (ita2 ? 12u : 8u)) << Ev(halt_ev).name << " counts in halt states";
}

TEST_P(Directed, UnknownEventCodeCountsNothing)
{
    Wr(PMC(4), ITA_FSET(Gen(ITA_EV_CPU_CYCLES, 0xf), PMC_GEN, ES, 0x7e));
    Wr(PMC(5), ITA_FSET(Gen(ITA_EV_CPU_CYCLES, 0xf), PMC_GEN, UMASK, 0x3));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    Step(Cycle(3, 6), 10);
    EXPECT_EQ(Count(4), 0u);
    EXPECT_EQ(Count(5), 0u) << "CPU_CYCLES with a umask the table lacks";
}

// ---- EARs, BTB and general events (docs/ita-ear-btb.md; the brief's general-event rule) --

TEST_P(Directed, EarAndBtbRegistersResetToZeroAndTakeTheirWritableMasks)
{
    const bool ita = GetParam().model == ITA_MODEL_ITANIUM;
    struct Row {
        uint16_t addr;
        uint64_t ones[2]; // [Itanium, Itanium 2], from docs/ita-register-map.md
    } rows[] = {
        {PMC(10), {0x30f00cfull, 0xffffull}},
        {PMC(12), {0xffcfull, 0xffffull}},
        {PMD(0), {0xffffffffffffffe3ull, 0xffffffffffffffe3ull}},
        {PMD(1), {0xfffull, 0x1fffull}},
        {PMD(2), {~0ull, ~0ull}},
        {PMD(3), {0xc000000000000fffull, 0xffffull}},
        {PMD(8), {~0ull, ~0ull}},
        {PMD(15), {~0ull, ~0ull}},
        {PMD(16), {0xfffffffffull, 0xfffffffffull}},
        {PMD(17), {0xfffffffffffffffdull, ~0ull}},
    };
    for (const Row &r : rows) {
        EXPECT_EQ(R(r.addr), 0u) << "reset of 0x" << std::hex << r.addr;
        Wr(r.addr, ~0ull);
        EXPECT_EQ(R(r.addr), r.ones[ita ? 0 : 1]) << "0x" << std::hex << r.addr;
    }
}

TEST_P(Directed, IEarCapturesAMissAndItsCounterCounts)
{
    const ita_model m = GetParam().model;
    // Every L1I miss: Itanium 2 ct = 1x with umask 0x40 (LAT0); Itanium umask 0xf (LAT_NONE).
    Wr(PMC(10), m == ITA_MODEL_ITANIUM2 ? 0x280fu : 0xf000fu);
    Wr(PMC(4), Gen(ITA_EV_L1I_EAR_EVENTS, 0xf));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    ita_cycle c = Cycle(3);
    c.if_addr = 0x4000000000002468ull;
    c.if_lat = 5000;
    Step(c);
    EXPECT_EQ(R(PMD(0)), 0u) << "nothing is captured while frozen";
    Unfreeze();
    Step(c);
    // Line address 63:5; Itanium 2 stat = 1 (miss), Itanium v = 1: both bit 0.
    EXPECT_EQ(R(PMD(0)), 0x4000000000002461ull);
    // Latency saturated at 4095; Itanium 2 also sets ov (bit 12).
    EXPECT_EQ(R(PMD(1)), m == ITA_MODEL_ITANIUM2 ? 0x1fffu : 0xfffu);
    EXPECT_EQ(Count(4), 1u);
    c.if_lat = 0; // an L1I hit: no capture, no count
    Step(c);
    EXPECT_EQ(Count(4), 1u);
}

TEST_P(Directed, DEarCapturesTheFirstQualifyingLoad)
{
    const ita_model m = GetParam().model;
    // Cache mode, umask 0 (LAT4), plm 0xf; Itanium pt = 1 (bit 28: no data-range check).
    Wr(PMC(11), m == ITA_MODEL_ITANIUM2 ? 0xfu : 0x1000000fu);
    Wr(PMC(5), Gen(ITA_EV_DATA_EAR_EVENTS, 0xf));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    ita_cycle c = Cycle(3, 3);
    const uint16_t load = ITA_SF_LOAD_MASK;
    c.slot[0].flags = load;
    c.slot[0].lat = 3; // below the threshold
    c.slot[1].ip = 0x4000000000001010ull; // the window's second bundle
    c.slot[1].slot = 1;
    c.slot[1].flags = load;
    c.slot[1].lat = 20;
    c.slot[1].daddr = 0x6000000000000abcull;
    c.slot[2].ip = 0x4000000000001010ull;
    c.slot[2].flags = load;
    c.slot[2].lat = 100; // qualifies too, but the first slot wins
    Step(c);
    EXPECT_EQ(R(PMD(2)), 0x6000000000000abcull);
    if (m == ITA_MODEL_ITANIUM2) {
        EXPECT_EQ(R(PMD(3)), 0x4014u) << "stat 1 (15:14), latency 20";
        EXPECT_EQ(R(PMD(17)), 0x400000000000100dull) << "window 63:4, vl, bn, slot 1";
    } else {
        EXPECT_EQ(R(PMD(3)), 0x14u) << "level 0, latency 20";
        EXPECT_EQ(R(PMD(17)), 0x4000000000001015ull) << "ip 63:4, slot 1 (3:2), vl (0)";
    }
    EXPECT_EQ(Count(5), 1u);
}

TEST_P(Directed, BtbRecordsABranchAndItsTargetAndWraps)
{
    Wr(PMC(12), 0x3f0fu); // plm 0xf, tm = ptm = ppm = 3, brt 0, ds 0
    Wr(PMC(6), Gen(ITA_EV_BRANCH_EVENT, 0xf));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    ita_cycle c = Cycle(3, 2);
    c.slot[1].ip = 0x4000000000001010ull;
    c.slot[1].slot = 2;
    // An ip-relative branch, mispredicted in direction (pred 2), taken.
    c.slot[1].flags = (uint16_t)((1u << ITA_SF_BR_TYPE_LSB) | (2u << ITA_SF_BR_PRED_LSB) | ITA_SF_TAKEN_MASK);
    c.slot[1].target = 0x4000000000008884ull;
    Step(c);
    EXPECT_EQ(R(PMD(8)), 0x400000000000100bull) << "window bundle, slot 2, mp, b";
    EXPECT_EQ(R(PMD(9)), 0x4000000000008882ull) << "target bundle, mp";
    EXPECT_EQ(R(PMD(16)), 0x32u) << "entry 0: b1 and bruflush; bbi 2";
    Step(c, 3);
    EXPECT_EQ(R(PMD(16)), 0x30303038ull) << "four branches: entries 0, 2, 4, 6 b1+bruflush; bbi wraps to 0, full";
    EXPECT_EQ(Count(6), 4u);
    Wr(PMD(16), 0);
    EXPECT_EQ(R(PMD(16)), 0u) << "full stays until software writes it";
}

TEST_P(Directed, GeneralEventsCountOnTheirCodeAndUmask)
{
    const ita_model m = GetParam().model;
    const int flush = ita_event_id_find("FP_FLUSH_TO_ZERO"); // 0x0b/0 on both models
    const int backsnp = ita_event_id_find("BUS_BACKSNP_REQ_THIS"); // Itanium 2 only, 0x8e/1
    ASSERT_GE(flush, 0);
    ASSERT_GE(backsnp, 0);
    Wr(PMC(4), ITA_FSET(ITA_FSET(Gen(ITA_EV_CPU_CYCLES, 0xf), PMC_GEN, ES, 0x0b), PMC_GEN, UMASK, 0));
    // Itanium keeps 7 bits of es: 0x8e reads 0x0e there.
    Wr(PMC(5), ITA_FSET(ITA_FSET(Gen(ITA_EV_CPU_CYCLES, 0xf), PMC_GEN, ES, 0x8e), PMC_GEN, UMASK, 1));
    Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
    Unfreeze();
    ita_cycle c = Cycle(3, 2);
    c.nxev = 3;
    c.xev[0] = {(uint16_t)flush, 2, 1};
    c.xev[1] = {(uint16_t)flush, 1, ITA_XEV_NO_SLOT};
    c.xev[2] = {(uint16_t)backsnp, 1, ITA_XEV_NO_SLOT};
    Step(c, 2);
    EXPECT_EQ(Count(4), 6u);
    EXPECT_EQ(Count(5), m == ITA_MODEL_ITANIUM2 ? 2u : 0u) << "an id the model lacks counts nowhere";
}

std::vector<Param> AllParams()
{
    return {{"ref", ITA_MODEL_ITANIUM2}, {"ref", ITA_MODEL_ITANIUM},
            {"rtl", ITA_MODEL_ITANIUM2}, {"rtl", ITA_MODEL_ITANIUM}};
}

INSTANTIATE_TEST_SUITE_P(Backends, Directed, testing::ValuesIn(AllParams()), ParamName);

}  // namespace
