// drv_sequences.cpp - the driver's register sequences, access by access, against a
// scripted register port: session start, the overflow service routine (latency,
// folding, reload, samples), a spurious interrupt, the context-switch save and
// restore with an overflow pending (and its replay), and the record hook.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "sw/ita/ita_drv.h"
#include "drv_test_util.h"

using namespace drv_test;

namespace {

const ita_model M = ITA_MODEL_ITANIUM2;
const uint64_t SPAN = UINT64_C(1) << 47;
const uint64_t FR = ITA_FMASK(PMC0, FR);
uint64_t ovf(unsigned k) { return UINT64_C(1) << (ITA_F_PMC0_OVF_LSB + k); }
const uint64_t UP = ITA_FMASK(PSR, UP);
const uint64_t PP = ITA_FMASK(PSR, PP);

// Counters 0 and 2 sample (periods 100 and 10), counter 1 only counts.
ita_drv_config config_a()
{
    ita_drv_config c{};
    add_counter(&c, M, 0, ITA_EV_CPU_CYCLES, 0x8, 100);
    add_counter(&c, M, 1, ITA_EV_IA64_INST_RETIRED, 0x9, 0);
    add_counter(&c, M, 2, ITA_EV_NOPS_RETIRED, 0x8, 10);
    return c;
}
// One counter, another event.
ita_drv_config config_b()
{
    ita_drv_config c{};
    add_counter(&c, M, 3, ITA_EV_LOADS_RETIRED, 0xf, 7);
    return c;
}

bool is_data(unsigned v) { return ita_reg_lookup(vis(v))->role == ITA_ROLE_CAPTURE; }

// The EAR and BTB data registers, in register-number order, with the values a context
// holds for them (the reset values unless the test gives others).
struct Data {
    std::vector<unsigned> v;
    std::map<unsigned, uint64_t> value;
    Data()
    {
        for (unsigned i = 0; i < ITA_NVIS; i++)
            if (is_data(i))
                v.push_back(i);
        std::sort(v.begin(), v.end(), [](unsigned a, unsigned b) { return vis(a) < vis(b); });
        for (unsigned i : v)
            value[i] = ita_reg_lookup(vis(i))->reset[M];
    }
};

bool uses(const ita_drv_config &cfg, unsigned k)
{
    for (unsigned r = 0; r < cfg.nregs; r++)
        if (cfg.reg[r].addr == pmc(k))
            return true;
    return false;
}

// The PMD accesses of a save (reads) or a restore (writes): register-number order, the
// data below the counters, the counters the configuration uses, the data above them.
void expect_pmds(MockPmu &m, bool write, const ita_drv_config &cfg, const uint64_t pmd_values[ITA_NCOUNTERS],
                 const Data &data)
{
    auto one = [&](uint16_t a, uint64_t val) { write ? m.expect_write(a, val) : m.expect_read(a, val); };
    for (unsigned v : data.v)
        if (ITA_ADDR_INDEX(vis(v)) < ITA_FIRST_COUNTER)
            one(vis(v), data.value.at(v));
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
        if (uses(cfg, k))
            one(pmd(k), pmd_values[k]);
    for (unsigned v : data.v)
        if (ITA_ADDR_INDEX(vis(v)) > ITA_FIRST_COUNTER)
            one(vis(v), data.value.at(v));
}

// The save: PMC0 read, the PMU frozen with the overflow bits cleared, the PMDs read.
void expect_save(MockPmu &m, const ita_drv_config &cfg, uint64_t pmc0, const uint64_t pmd_values[ITA_NCOUNTERS],
                 const Data &data = Data())
{
    m.expect_read(vis(ITA_VIS_PMC0), pmc0);
    m.expect_write(vis(ITA_VIS_PMC0), FR);
    expect_pmds(m, false, cfg, pmd_values, data);
}

// The writes a restore makes: every configuration register of the register map in its
// order, the configuration's value (pm from the session, oi set) or the reset value;
// the PMDs; PMC0 last (unfreezing, or restoring a pending overflow).
void expect_restore(MockPmu &m, const ita_drv_config &cfg, int pm, uint64_t pmc0,
                    const uint64_t pmd_values[ITA_NCOUNTERS], const Data &data = Data())
{
    for (unsigned v = 0; v < ITA_NVIS; v++) {
        if (v == ITA_VIS_PMC0 || v == ITA_VIS_PSR || v == ITA_VIS_IPSR || v == ITA_VIS_DCR ||
            (v >= ITA_VIS_PMD4 && v <= ITA_VIS_PMD7) || is_data(v))
            continue;
        uint16_t a = vis(v);
        uint64_t val = ita_reg_lookup(a)->reset[M];
        for (unsigned r = 0; r < cfg.nregs; r++)
            if (cfg.reg[r].addr == a)
                val = a >= pmc(0) && a <= pmc(3)
                          ? ITA_FSET(ITA_FSET(cfg.reg[r].value, PMC_GEN, PM, pm), PMC_GEN, OI, 1)
                          : cfg.reg[r].value;
        m.expect_write(a, val);
    }
    expect_pmds(m, true, cfg, pmd_values, data);
    m.expect_write(vis(ITA_VIS_PMC0), pmc0);
}

uint64_t reload(uint64_t period) { return SPAN - period; }

struct Samples {
    std::vector<ita_drv_sample> got;
    static void fn(void *arg, const ita_drv_sample *s) { static_cast<Samples *>(arg)->got.push_back(*s); }
};

ita_cycle record(uint16_t pid, uint8_t cpl, uint64_t ip)
{
    ita_cycle c;
    memset(&c, 0, sizeof c);
    c.pid = pid;
    c.cpl = cpl;
    c.nslots = 2;
    c.slot[0].ip = ip - 16;
    c.slot[1].ip = ip;
    return c;
}

TEST(Sequences, StartProgramsTheSessionThenSwitchesIn)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    ita_drv_config a = config_a();
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0) << err.msg;
    EXPECT_TRUE(m.done());
    EXPECT_TRUE(m.log.empty()) << "create/attach must not touch the PMU";

    m.expect_write(vis(ITA_VIS_PMC0), FR);    // frozen while setting up
    m.expect_write(vis(ITA_VIS_DCR), 0);      // per-process: DCR.pp = 0
    m.expect_write(vis(ITA_VIS_PSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), 0);
    m.expect_read(vis(ITA_VIS_PSR), 0);       // switch-in: 1. preserve PSR, clear up/pp
    m.expect_write(vis(ITA_VIS_PSR), 0);
    const uint64_t start[ITA_NCOUNTERS] = {reload(100), 0, reload(10), 0};
    expect_restore(m, a, 0, 0, start);         // 3. configuration, counters, PMC0 (unfreeze)
    m.expect_read(vis(ITA_VIS_IPSR), 0);      // 4b. IPSR.up and PSR.up for A
    m.expect_write(vis(ITA_VIS_IPSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), UP);
    ASSERT_EQ(ita_drv_start(d, 7, &err), 0);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(ita_drv_current_pid(d), 7);
    EXPECT_EQ(ita_drv_get_stats(d)->switches, 0u);
    EXPECT_EQ(ita_drv_get_stats(d)->restores, 1u);
    ita_drv_destroy(d);
}

class Isr : public ::testing::Test {
protected:
    MockPmu m{M};
    ita_drv *d = nullptr;
    Samples samples;
    void SetUp() override
    {
        ita_drv_opts o = ita_drv_opts_default();
        o.latency = 2;
        o.on_sample = Samples::fn;
        o.sample_arg = &samples;
        pmu_err err = {PMU_OK, ""};
        d = ita_drv_create(m.backend(), &o, &err);
        ASSERT_NE(d, nullptr) << err.msg;
        ita_drv_config a = config_a();
        ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0) << err.msg;
        ASSERT_EQ(ita_drv_start(d, 7, &err), 0) << err.msg;
        ASSERT_TRUE(m.done());
    }
    void TearDown() override { ita_drv_destroy(d); }
};

TEST_F(Isr, ServiceRoutineAfterTheLatency)
{
    // Counters 0, 1 and 2 wrapped (counter 1 counts only) and froze the PMU.
    m.regs[vis(ITA_VIS_PMC0)] = FR | ovf(0) | ovf(1) | ovf(2);
    m.regs[pmd(0)] = 3;  // wrapped by 3 past 2^W: 100 + 3 events since the load
    m.regs[pmd(1)] = 2;  // 2^W + 2
    m.regs[pmd(2)] = 1;  // 10 + 1

    // The pulse, then `latency` = 2 more records before the service: no access at all.
    m.strict = true;
    ita_cycle r0 = record(7, 3, 0x4000000000001000);
    ita_cycle r1 = record(7, 3, 0x4000000000001010);
    ita_cycle r2 = record(7, 0, 0xe000000000400100);
    ita_drv_after_step(d, &r0, 1);
    ita_drv_after_step(d, &r1, 0);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(ita_drv_get_stats(d)->interrupts, 0u);

    const uint64_t status = FR | ovf(0) | ovf(1) | ovf(2);
    m.expect_read(vis(ITA_VIS_PMC0), status);    // 1. freeze (keeping the bits)
    m.expect_write(vis(ITA_VIS_PMC0), status);
    m.expect_read(vis(ITA_VIS_PMC0), status);    // 2. which counters overflowed
    m.expect_read(pmd(0), 3);                    // 3. counter 0: fold, reload
    m.expect_write(pmd(0), reload(100));
    m.expect_read(pmd(2), 1);                    //    counter 1 counts only: no access
    m.expect_write(pmd(2), reload(10));
    m.expect_write(vis(ITA_VIS_PMC0), 0);        // 4. clear the bits, unfreeze
    ita_drv_after_step(d, &r2, 0);
    EXPECT_TRUE(m.done());

    uint64_t v = 0;
    ASSERT_EQ(ita_drv_read(d, 7, 0, &v), 0);
    EXPECT_EQ(v, 103u);
    ASSERT_EQ(ita_drv_read(d, 7, 1, &v), 0);
    EXPECT_EQ(v, SPAN + 2);
    ASSERT_EQ(ita_drv_read(d, 7, 2, &v), 0);
    EXPECT_EQ(v, 11u);
    ASSERT_EQ(ita_drv_read(d, 7, 3, &v), 0);
    EXPECT_EQ(v, 0u);  // not configured

    ASSERT_EQ(samples.got.size(), 2u);  // the sampling counters only
    for (unsigned i = 0; i < 2; i++) {
        EXPECT_EQ(samples.got[i].ip, 0xe000000000400100u);  // last slot of the record at the interrupt
        EXPECT_EQ(samples.got[i].pid, 7u);
        EXPECT_EQ(samples.got[i].cpl, 0u);
        EXPECT_EQ(samples.got[i].record, 2u);
    }
    EXPECT_EQ(samples.got[0].counter, 0u);
    EXPECT_EQ(samples.got[1].counter, 2u);

    const ita_drv_stats *st = ita_drv_get_stats(d);
    EXPECT_EQ(st->interrupts, 1u);
    EXPECT_EQ(st->overflows, 3u);
    EXPECT_EQ(st->samples, 2u);
    EXPECT_EQ(st->spurious, 0u);
    EXPECT_EQ(st->records, 3u);
    ita_drv_ctx_info info;
    ASSERT_EQ(ita_drv_context_info(d, 7, &info), 0);
    EXPECT_EQ(info.overflows[0], 1u);
    EXPECT_EQ(info.overflows[1], 1u);
    EXPECT_EQ(info.overflows[2], 1u);
    EXPECT_EQ(info.samples[0], 1u);
    EXPECT_EQ(info.samples[1], 0u);
    EXPECT_TRUE(info.loaded);
}

TEST_F(Isr, LatencyZeroServicesAfterThePulseRecord)
{
    ita_drv_destroy(d);
    ita_drv_opts o = ita_drv_opts_default();
    o.latency = 0;
    pmu_err err = {PMU_OK, ""};
    d = ita_drv_create(m.backend(), &o, &err);
    ita_drv_config a = config_a();
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0);
    ASSERT_EQ(ita_drv_start(d, 7, &err), 0);
    m.regs[vis(ITA_VIS_PMC0)] = FR | ovf(2);
    m.regs[pmd(2)] = 0;
    m.expect_read(vis(ITA_VIS_PMC0), FR | ovf(2));
    m.expect_write(vis(ITA_VIS_PMC0), FR | ovf(2));
    m.expect_read(vis(ITA_VIS_PMC0), FR | ovf(2));
    m.expect_read(pmd(2), 0);
    m.expect_write(pmd(2), reload(10));
    m.expect_write(vis(ITA_VIS_PMC0), 0);
    ita_cycle r = record(7, 3, 0x4000000000002000);
    ita_drv_after_step(d, &r, 1);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(ita_drv_get_stats(d)->interrupts, 1u);
}

TEST_F(Isr, SpuriousInterruptOnlyUnfreezes)
{
    m.expect_read(vis(ITA_VIS_PMC0), 0);
    m.expect_write(vis(ITA_VIS_PMC0), FR);
    m.expect_read(vis(ITA_VIS_PMC0), FR);
    m.expect_write(vis(ITA_VIS_PMC0), 0);
    ita_drv_interrupt(d);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(ita_drv_get_stats(d)->spurious, 1u);
    EXPECT_EQ(ita_drv_get_stats(d)->overflows, 0u);
    EXPECT_TRUE(samples.got.empty());
}

// A pending overflow at a switch: saved with the outgoing context, cleared from the
// PMU, restored and replayed when the context comes back.
TEST(Sequences, ContextSwitchSavesRestoresAndReplays)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    o.latency = 1;
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    ita_drv_config a = config_a(), b = config_b();
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0);
    ASSERT_EQ(ita_drv_attach(d, 9, &b, &err), 0);
    ASSERT_EQ(ita_drv_start(d, 7, &err), 0);
    ASSERT_TRUE(m.done());

    // 7 -> 9 with counter 0 of process 7 wrapped (PMU frozen, interrupt pending).
    const uint64_t pending = FR | ovf(0);
    m.expect_read(vis(ITA_VIS_PSR), UP);          // 1. preserve PSR.up/pp, clear them
    m.expect_write(vis(ITA_VIS_PSR), 0);
    const uint64_t a_saved[ITA_NCOUNTERS] = {5, 1234, reload(10) + 4, 0};
    expect_save(m, a, pending, a_saved);           // 2. PMC0, freeze (the pending overflow
                                                   //    leaves with 7), the PMDs
    const uint64_t b_start[ITA_NCOUNTERS] = {0, 0, 0, reload(7)};
    expect_restore(m, b, 0, 0, b_start);           // 3. process 9's context
    m.expect_read(vis(ITA_VIS_IPSR), 0);          // 4b. 9 runs monitored
    m.expect_write(vis(ITA_VIS_IPSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), UP);
    ita_drv_switch(d, 9);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(ita_drv_get_stats(d)->replays, 0u);

    // 9 -> 11, a process nobody monitors: saved, nothing restored, PSR.up and IPSR.up 0.
    m.expect_read(vis(ITA_VIS_PSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    const uint64_t b_saved[ITA_NCOUNTERS] = {0, 0, 0, reload(7) + 2};
    expect_save(m, b, 0, b_saved);                 // the PMU stays frozen for 11
    m.expect_read(vis(ITA_VIS_IPSR), UP);
    m.expect_write(vis(ITA_VIS_IPSR), 0);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    ita_drv_switch(d, 11);
    EXPECT_TRUE(m.done());

    // 11 -> 7: process 7 comes back with its pending overflow, which is replayed.
    m.expect_read(vis(ITA_VIS_PSR), 0);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    expect_restore(m, a, 0, pending, a_saved);     // PMC0 restored frozen with its bit
    m.expect_read(vis(ITA_VIS_IPSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), UP);
    ita_drv_switch(d, 7);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(ita_drv_get_stats(d)->replays, 1u);
    EXPECT_EQ(ita_drv_get_stats(d)->switches, 3u);

    uint64_t v = 0;
    ASSERT_EQ(ita_drv_read(d, 9, 3, &v), 0);
    EXPECT_EQ(v, 2u);
    ASSERT_EQ(ita_drv_read(d, 7, 2, &v), 0);
    EXPECT_EQ(v, 4u);
    ASSERT_EQ(ita_drv_read(d, 7, 0, &v), 0);  // live: the pending wrap counts already
    EXPECT_EQ(v, 105u);

    // The replayed interrupt is delivered like a pulse, `latency` records later.
    ita_cycle r = record(7, 0, 0xe000000000400200);
    m.strict = true;
    ita_drv_after_step(d, &r, 0);
    EXPECT_TRUE(m.done());
    m.expect_read(vis(ITA_VIS_PMC0), pending);
    m.expect_write(vis(ITA_VIS_PMC0), pending);
    m.expect_read(vis(ITA_VIS_PMC0), pending);
    m.expect_read(pmd(0), 5);
    m.expect_write(pmd(0), reload(100));
    m.expect_write(vis(ITA_VIS_PMC0), 0);
    ita_drv_after_step(d, &r, 0);
    EXPECT_TRUE(m.done());
    ASSERT_EQ(ita_drv_read(d, 7, 0, &v), 0);
    EXPECT_EQ(v, 105u);
    ita_drv_ctx_info info;
    ASSERT_EQ(ita_drv_context_info(d, 7, &info), 0);
    EXPECT_EQ(info.switch_ins, 2u);
    ita_drv_destroy(d);
}

// Process 7 samples the D-EAR, process 9 the BTB: each one's configuration (PMC11,
// PMC12) is restored with its context, and each one's EAR/BTB data (values the test puts
// in the PMU as the capture logic would) is saved at its switch-out and restored at its
// switch-in, the PMU frozen throughout.
ita_drv_config config_dear()
{
    ita_drv_config c{};
    add_counter(&c, M, 0, ITA_EV_DATA_EAR_EVENTS, 0x8, 50);
    c.capture[0] = ITA_DRV_CAPTURE_DEAR;
    uint64_t pmc11 = ITA_FSET(ITA_FSET(0, PMC11, PLM, 0x8), PMC11, UMASK, 4);  // cache mode, >= 64 cycles
    c.reg[c.nregs++] = {vis(ITA_VIS_PMC11), pmc11};
    return c;
}
ita_drv_config config_btb()
{
    ita_drv_config c{};
    add_counter(&c, M, 1, ITA_EV_BRANCH_EVENT, 0x8, 20);
    c.capture[1] = ITA_DRV_CAPTURE_BTB;
    uint64_t pmc12 = ITA_FSET(0, PMC12, PLM, 0x8);
    pmc12 = ITA_FSET(ITA_FSET(ITA_FSET(pmc12, PMC12, TM, 3), PMC12, PTM, 3), PMC12, PPM, 3);
    c.reg[c.nregs++] = {vis(ITA_VIS_PMC12), pmc12};
    return c;
}

// A per-process switch between two monitored processes, both with PSR.up on: PSR off,
// the outgoing context saved, the incoming one restored (unfrozen), PSR.up back on.
struct Side {
    const ita_drv_config &cfg;
    const uint64_t *pmds;
    const Data &data;
};
void expect_switch(MockPmu &m, const Side &out, const Side &in)
{
    m.expect_read(vis(ITA_VIS_PSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    expect_save(m, out.cfg, 0, out.pmds, out.data);
    expect_restore(m, in.cfg, 0, 0, in.pmds, in.data);
    m.expect_read(vis(ITA_VIS_IPSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), UP);
}

TEST(Sequences, EarAndBtbStateTravelsWithItsContext)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    ita_drv_config a = config_dear(), b = config_btb();
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0) << err.msg;
    ASSERT_EQ(ita_drv_attach(d, 9, &b, &err), 0) << err.msg;

    m.expect_write(vis(ITA_VIS_PMC0), FR);
    m.expect_write(vis(ITA_VIS_DCR), 0);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), 0);
    m.expect_read(vis(ITA_VIS_PSR), 0);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    const uint64_t a_start[ITA_NCOUNTERS] = {reload(50), 0, 0, 0};
    expect_restore(m, a, 0, 0, a_start);  // PMC11 from the configuration, EAR/BTB data at reset
    m.expect_read(vis(ITA_VIS_IPSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), UP);
    m.expect_write(vis(ITA_VIS_PSR), UP);
    ASSERT_EQ(ita_drv_start(d, 7, &err), 0);
    ASSERT_TRUE(m.done());

    // 7 runs; its D-EAR captured a load.  7 -> 9: all of it saved, 9's state restored.
    Data a_data, b_data;
    a_data.value[ITA_VIS_PMD2] = 0x6000000000001230;
    a_data.value[ITA_VIS_PMD3] = ITA_FSET(ITA_FSET(0, PMD3, STAT, 1), PMD3, LAT, 70);
    a_data.value[ITA_VIS_PMD17] = ITA_FSET(ITA_FSET(0, PMD17, IADDR, 0x400000000000100), PMD17, VL, 1);
    const uint64_t a_saved[ITA_NCOUNTERS] = {reload(50) + 3, 0, 0, 0};
    const uint64_t b_start[ITA_NCOUNTERS] = {0, reload(20), 0, 0};
    expect_switch(m, {a, a_saved, a_data}, {b, b_start, b_data});
    ita_drv_switch(d, 9);
    EXPECT_TRUE(m.done());

    // 9 runs; its BTB recorded two branches.  9 -> 7: 9's BTB saved, 7's D-EAR back.
    b_data.value[ITA_VIS_PMD8] = ITA_FSET(ITA_FSET(0, BTB_ENTRY, B, 1), BTB_ENTRY, ADDR, 0x400000000000200);
    b_data.value[ITA_VIS_PMD9] = ITA_FSET(0, BTB_ENTRY, ADDR, 0x400000000000300);
    b_data.value[ITA_VIS_PMD10] = ITA_FSET(ITA_FSET(0, BTB_ENTRY, B, 1), BTB_ENTRY, MP, 1);
    b_data.value[ITA_VIS_PMD11] = ITA_FSET(0, BTB_ENTRY, ADDR, 0x400000000000500);
    b_data.value[ITA_VIS_PMD16] = ITA_FSET(0, PMD16, BBI, 4);
    const uint64_t b_saved[ITA_NCOUNTERS] = {0, reload(20) + 2, 0, 0};
    expect_switch(m, {b, b_saved, b_data}, {a, a_saved, a_data});
    ita_drv_switch(d, 7);
    EXPECT_TRUE(m.done());

    // 7 -> 9 again: 9 gets its own BTB back, not 7's EAR.
    expect_switch(m, {a, a_saved, a_data}, {b, b_saved, b_data});
    ita_drv_switch(d, 9);
    EXPECT_TRUE(m.done());
    ita_drv_destroy(d);
}

// A sample of an EAR or BTB counter reads the unit's registers after the reload and
// before the unfreeze; the BTB is emptied after it is read.
TEST(Sequences, SampleReadsTheEarOrBtbBeforeUnfreezing)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    o.latency = 0;
    Samples samples;
    o.on_sample = Samples::fn;
    o.sample_arg = &samples;
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    ita_drv_config a = config_dear();
    ita_drv_config b = config_btb();
    a.reg[a.nregs++] = b.reg[0];  // counter 1 on BRANCH_EVENT
    a.reg[a.nregs++] = b.reg[1];  // PMC12
    a.period[1] = b.period[1];
    a.capture[1] = b.capture[1];
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0) << err.msg;
    ASSERT_EQ(ita_drv_start(d, 7, &err), 0);
    ASSERT_TRUE(m.done());

    const uint64_t status = FR | ovf(0) | ovf(1);
    m.expect_read(vis(ITA_VIS_PMC0), status);
    m.expect_write(vis(ITA_VIS_PMC0), status);
    m.expect_read(vis(ITA_VIS_PMC0), status);
    m.expect_read(pmd(0), 0);
    m.expect_write(pmd(0), reload(50));
    m.expect_read(vis(ITA_VIS_PMD2), 0x6000000000001230);  // the D-EAR
    m.expect_read(vis(ITA_VIS_PMD3), 0x4046);
    m.expect_read(vis(ITA_VIS_PMD17), 0x4000000000001008);
    m.expect_read(pmd(1), 1);
    m.expect_write(pmd(1), reload(20));
    for (unsigned v = ITA_VIS_PMD8; v <= ITA_VIS_PMD16; v++)  // the BTB
        m.expect_read(vis(v), v - ITA_VIS_PMD8 + 1);
    m.expect_write(vis(ITA_VIS_PMD16), 0);                  // emptied
    m.expect_write(vis(ITA_VIS_PMC0), 0);                   // then unfrozen
    ita_cycle r = record(7, 3, 0x4000000000001010);
    ita_drv_after_step(d, &r, 1);
    EXPECT_TRUE(m.done());
    ASSERT_EQ(samples.got.size(), 2u);
    EXPECT_EQ(samples.got[0].capture, ITA_DRV_CAPTURE_DEAR);
    ASSERT_EQ(samples.got[0].nregs, 3u);
    EXPECT_EQ(samples.got[0].addr[2], vis(ITA_VIS_PMD17));
    EXPECT_EQ(samples.got[0].value[0], 0x6000000000001230u);
    EXPECT_EQ(samples.got[0].value[1], 0x4046u);
    EXPECT_EQ(samples.got[0].value[2], 0x4000000000001008u);
    EXPECT_EQ(samples.got[1].capture, ITA_DRV_CAPTURE_BTB);
    ASSERT_EQ(samples.got[1].nregs, 9u);
    for (unsigned i = 0; i < 9; i++) {
        EXPECT_EQ(samples.got[1].addr[i], vis(ITA_VIS_PMD8 + i));
        EXPECT_EQ(samples.got[1].value[i], i + 1u);
    }
    ita_drv_destroy(d);
}

TEST(Sequences, SystemWideSwitchWithoutBreakdownOnlyKeepsIpsrPp)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    o.mode = ITA_DRV_SYSTEM_WIDE;
    o.dcr_pp = 0;
    add_counter(&o.config, M, 0, ITA_EV_CPU_CYCLES, 0x9, 0);
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    m.expect_write(vis(ITA_VIS_PMC0), FR);
    m.expect_write(vis(ITA_VIS_DCR), 0);
    m.expect_write(vis(ITA_VIS_PSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), 0);
    const uint64_t zero[ITA_NCOUNTERS] = {0, 0, 0, 0};
    expect_restore(m, o.config, 1, 0, zero);  // pm = 1
    m.expect_write(vis(ITA_VIS_IPSR), PP);
    m.expect_write(vis(ITA_VIS_PSR), PP);
    ASSERT_EQ(ita_drv_start(d, 3, &err), 0);
    EXPECT_TRUE(m.done());
    m.expect_read(vis(ITA_VIS_IPSR), 0);
    m.expect_write(vis(ITA_VIS_IPSR), PP);
    ita_drv_switch(d, 4);
    EXPECT_TRUE(m.done());
    ita_drv_destroy(d);
}

// The record hook: the first record starts the session, a pid change switches, the
// PSR policy strips pp writes always and up writes of unmonitored processes.
TEST(Sequences, RecordHook)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ita_drv_config a = config_a();
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0);

    ita_cycle c = record(7, 3, 0x4000000000001000);
    c.up_we = c.up = c.pp_we = c.pp = 1;
    ita_drv_before_step(d, &c);
    EXPECT_TRUE(ita_drv_started(d));
    EXPECT_EQ(ita_drv_current_pid(d), 7);
    EXPECT_EQ(c.up_we, 1u);  // a monitored process's own sum stands
    EXPECT_EQ(c.up, 1u);
    EXPECT_EQ(c.pp_we, 0u);  // pp is the driver's
    EXPECT_EQ(c.pp, 0u);

    ita_cycle u = record(8, 3, 0x4000000010001000);
    u.up_we = u.up = 1;
    size_t before = m.log.size();
    ita_drv_before_step(d, &u);
    EXPECT_GT(m.log.size(), before);  // the switch ran
    EXPECT_EQ(ita_drv_current_pid(d), 8);
    EXPECT_EQ(u.up_we, 0u);  // unmonitored: its sum does not reach PSR.up
    EXPECT_EQ(u.up, 0u);
    EXPECT_EQ(ita_drv_get_stats(d)->switches, 1u);

    before = m.log.size();
    ita_cycle same = record(8, 3, 0x4000000010001010);
    ita_drv_before_step(d, &same);
    EXPECT_EQ(m.log.size(), before);  // no pid change, no access

    ita_drv_stop(d);
    ita_cycle after = record(9, 3, 0x4000000010001010);
    after.pp_we = 1;
    before = m.log.size();
    ita_drv_before_step(d, &after);
    ita_drv_after_step(d, &after, 1);
    EXPECT_EQ(m.log.size(), before);  // a stopped session does nothing
    EXPECT_EQ(after.pp_we, 1u);
    ita_drv_destroy(d);
}

TEST(Sequences, StopDeliversPendingInterruptSavesAndFreezes)
{
    MockPmu m(M);
    ita_drv_opts o = ita_drv_opts_default();
    o.latency = 50;
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(m.backend(), &o, &err);
    ita_drv_config a = config_a();
    ASSERT_EQ(ita_drv_attach(d, 7, &a, &err), 0);
    ASSERT_EQ(ita_drv_start(d, 7, &err), 0);
    ita_cycle r = record(7, 3, 0x4000000000001000);
    m.regs[vis(ITA_VIS_PMC0)] = FR | ovf(0);
    m.regs[pmd(0)] = 0;
    ita_drv_after_step(d, &r, 1);  // pending, 50 records to go
    EXPECT_EQ(ita_drv_get_stats(d)->interrupts, 0u);
    m.expect_read(vis(ITA_VIS_PMC0), FR | ovf(0));  // the service, now
    m.expect_write(vis(ITA_VIS_PMC0), FR | ovf(0));
    m.expect_read(vis(ITA_VIS_PMC0), FR | ovf(0));
    m.expect_read(pmd(0), 0);
    m.expect_write(pmd(0), reload(100));
    m.expect_write(vis(ITA_VIS_PMC0), 0);
    m.expect_read(vis(ITA_VIS_PSR), UP);           // monitoring off
    m.expect_write(vis(ITA_VIS_PSR), 0);
    const uint64_t saved[ITA_NCOUNTERS] = {reload(100) + 1, 9, reload(10), 0};
    expect_save(m, a, 0, saved);                   // save, and frozen
    ita_drv_stop(d);
    EXPECT_TRUE(m.done());
    uint64_t v = 0;
    ASSERT_EQ(ita_drv_read(d, 7, 0, &v), 0);
    EXPECT_EQ(v, 101u);
    ASSERT_EQ(ita_drv_read(d, 7, 1, &v), 0);
    EXPECT_EQ(v, 9u);
    ita_drv_ctx_info info;
    ASSERT_EQ(ita_drv_context_info(d, 7, &info), 0);
    EXPECT_FALSE(info.loaded);
    ita_drv_stop(d);  // twice: nothing more
    EXPECT_TRUE(m.done());
    ita_drv_destroy(d);
}

}  // namespace
