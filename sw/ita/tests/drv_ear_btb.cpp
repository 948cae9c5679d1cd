// drv_ear_btb.cpp - the EAR/BTB library (include/sw/ita/ear_btb_sw.h) on hand-made register
// values of both models, and: the driver keeps each process's EAR and BTB registers across context
// switches, on the reference model: two processes, one sampling the D-EAR and one the
// BTB, switched in and out by the kernel; the values are written by the test (the
// records capture nothing: nops only), as software would restore them.
#include <gtest/gtest.h>

#include <map>

#include "sw/ita/ear_btb_sw.h"
#include "sw/ita/ita_drv.h"
#include "drv_test_util.h"

using namespace drv_test;

namespace {

const ita_model M = ITA_MODEL_ITANIUM2;

std::map<unsigned, uint64_t> unit_values(unsigned first, unsigned last, uint64_t seed)
{
    std::map<unsigned, uint64_t> v;
    for (unsigned i = first; i <= last; i++)
        v[i] = (seed * (i + 7) * 0x9e3779b97f4a7c15ull) & ita_reg_lookup(vis(i))->wmask[M];
    return v;
}

void write_all(pmu_backend *b, const std::map<unsigned, uint64_t> &v)
{
    for (const auto &e : v)
        pmu_write(b, vis(e.first), e.second);
}

// Every register of `v` reads its value (`own`), or its reset value.
void expect_all(pmu_backend *b, const std::map<unsigned, uint64_t> &v, bool own, const char *when)
{
    for (const auto &e : v)
        EXPECT_EQ(pmu_read(b, vis(e.first)), own ? e.second : ita_reg_lookup(vis(e.first))->reset[M])
            << when << ": " << ita_vis_table[e.first].name;
}

TEST(DrvEarBtb, EachProcessKeepsItsOwnEarAndBtbRegisters)
{
    pmu_backend *ref = ita_ref_create(nullptr);
    ita_drv_opts o = ita_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    ita_drv *d = ita_drv_create(ref, &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    ita_drv_config dear{}, btb{};
    add_counter(&dear, M, 0, ITA_EV_DATA_EAR_EVENTS, 0x8, 10);
    dear.capture[0] = ITA_DRV_CAPTURE_DEAR;
    dear.reg[dear.nregs++] = {vis(ITA_VIS_PMC11), ITA_FSET(ITA_FSET(0, PMC11, PLM, 0x8), PMC11, UMASK, 4)};
    add_counter(&btb, M, 1, ITA_EV_BRANCH_EVENT, 0x8, 10);
    btb.capture[1] = ITA_DRV_CAPTURE_BTB;
    btb.reg[btb.nregs++] = {vis(ITA_VIS_PMC12), ITA_FSET(ITA_FSET(0, PMC12, PLM, 0x8), PMC12, TM, 3)};
    ASSERT_EQ(ita_drv_attach(d, 3, &dear, &err), 0) << err.msg;
    ASSERT_EQ(ita_drv_attach(d, 5, &btb, &err), 0) << err.msg;

    StreamBuilder sb;
    sb.pid = 3;
    for (int visit = 0; visit < 4; visit++) {
        sb.user(10);
        sb.interruption(6, visit % 2 ? 3 : 5);
    }
    const auto dear_a = unit_values(ITA_VIS_PMD2, ITA_VIS_PMD3, 3);
    auto dear_regs = dear_a;
    dear_regs[ITA_VIS_PMD17] = 0x4000000000001238ull;
    const auto btb_b = unit_values(ITA_VIS_PMD8, ITA_VIS_PMD16, 5);

    int visit = -1;
    int32_t running = -1;
    for (ita_cycle c : sb.recs) {
        ita_drv_step(d, &c);
        if (ita_drv_current_pid(d) == running)
            continue;
        running = ita_drv_current_pid(d);
        visit++;
        const bool is3 = running == 3;
        ASSERT_TRUE(is3 || running == 5);
        const std::string when = "visit " + std::to_string(visit) + " of pid " + std::to_string(running);
        // This process's own unit holds its values from its last visit; the other unit
        // holds this process's (reset) values, never the other process's.
        expect_all(ref, dear_regs, is3 && visit >= 2, when.c_str());
        expect_all(ref, btb_b, !is3 && visit >= 2, when.c_str());
        if (visit < 2)
            write_all(ref, is3 ? dear_regs : btb_b);
    }
    EXPECT_EQ(visit, 4);
    EXPECT_GE(ita_drv_get_stats(d)->saves, 4u);
    ita_drv_destroy(d);
    pmu_destroy(ref);
}

// ---- the EAR/BTB library: programming from an event row ------------------------------------

const ita_event_row *row(ita_model m, const char *name)
{
    const ita_event_row *r = ita_event_find(m, name);
    EXPECT_NE(r, nullptr) << name;
    return r;
}

TEST(EarBtbLib, ConfigurationFromTheEventsTypeAndUmask)
{
    uint16_t a = 0;
    uint64_t v = 0;
    // Itanium 2 I-EAR cache LAT4: umask 0xff at 12:5, ct = 11; plm 8, pm 0.
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "L1I_EAR_CACHE_LAT4"), 8, 0, 0, &a, &v), 0);
    EXPECT_EQ(a, vis(ITA_VIS_PMC10));
    EXPECT_EQ(v, UINT64_C(0x3fe8));
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "L1I_EAR_CACHE_LAT0"), 9, 1, 1, &a, &v), 0);
    EXPECT_EQ(v, UINT64_C(0x6000) | (UINT64_C(0x40) << 5) | 0x10 | 0x9);  // ct 10, ism 01
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "L1I_EAR_TLB_VHPT"), 8, 0, 0, &a, &v), 0);
    EXPECT_EQ(v, (UINT64_C(2) << 5) | 0x8);  // ct 00
    // D-EAR: cache LAT64 (umask 4), TLB (mode 1), ALAT (mode 2).
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "DATA_EAR_CACHE_LAT64"), 8, 1, 0, &a, &v), 0);
    EXPECT_EQ(a, vis(ITA_VIS_PMC11));
    EXPECT_EQ(v, UINT64_C(0x40048));
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "DATA_EAR_TLB_VHPT"), 8, 0, 0, &a, &v), 0);
    EXPECT_EQ(v, UINT64_C(0x40088));
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "DATA_EAR_ALAT"), 8, 0, 0, &a, &v), 0);
    EXPECT_EQ(ITA_FGET(v, PMC11, MODE), 2u);
    // BTB: every branch, libpfm's 0x3f08 at plm 8.
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "BRANCH_EVENT"), 8, 0, 0, &a, &v), 0);
    EXPECT_EQ(a, vis(ITA_VIS_PMC12));
    EXPECT_EQ(v, UINT64_C(0x3f08));
    // Itanium: PMC10 pm at 6, tlb at 7, umask 19:16; PMC11 keeps pt (reset 1) and has tlb.
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM, row(ITA_MODEL_ITANIUM, "INSTRUCTION_EAR_CACHE_LAT4"), 8, 1, 0, &a,
                             &v), 0);
    EXPECT_EQ(v, UINT64_C(0x48));
    ASSERT_EQ(ita_ear_config(ITA_MODEL_ITANIUM, row(ITA_MODEL_ITANIUM, "DATA_EAR_TLB_L2"), 8, 0, 0, &a, &v), 0);
    EXPECT_EQ(v, UINT64_C(0x10000000) | (UINT64_C(2) << 16) | 0x80 | 0x8);
    EXPECT_EQ(ita_ear_config(ITA_MODEL_ITANIUM2, row(ITA_MODEL_ITANIUM2, "CPU_CYCLES"), 8, 0, 0, &a, &v), -1);
    // The unit's counting event is the model's own row of the unit's kind.
    EXPECT_EQ(ita_ear_counter_event(ITA_MODEL_ITANIUM2, ita_ear_unit(row(ITA_MODEL_ITANIUM2, "DATA_EAR_CACHE_LAT4"))),
              row(ITA_MODEL_ITANIUM2, "DATA_EAR_EVENTS"));
    EXPECT_EQ(ita_ear_counter_event(ITA_MODEL_ITANIUM, ita_ear_unit(row(ITA_MODEL_ITANIUM, "DATA_EAR_CACHE_LAT4"))),
              row(ITA_MODEL_ITANIUM, "DATA_EAR_EVENTS"));
    EXPECT_EQ(ita_ear_counter_event(ITA_MODEL_ITANIUM, ita_ear_unit(row(ITA_MODEL_ITANIUM, "INSTRUCTION_EAR_TLB_VHPT"))),
              row(ITA_MODEL_ITANIUM, "INSTRUCTION_EAR_EVENTS"));
    EXPECT_EQ(ita_ear_counter_event(ITA_MODEL_ITANIUM2, ita_ear_unit(row(ITA_MODEL_ITANIUM2, "L1I_EAR_TLB_VHPT"))),
              row(ITA_MODEL_ITANIUM2, "L1I_EAR_EVENTS"));
    EXPECT_EQ(ita_ear_counter_event(ITA_MODEL_ITANIUM, ita_ear_unit(row(ITA_MODEL_ITANIUM, "BRANCH_EVENT"))),
              row(ITA_MODEL_ITANIUM, "BRANCH_EVENT"));
    EXPECT_EQ(ita_ear_counter_event(ITA_MODEL_ITANIUM2, ITA_DRV_CAPTURE_NONE), nullptr);
}

// ---- the EAR/BTB library: decoding, pfmon's rules ---------------------------------------------

TEST(EarBtbLib, DecodesTheIear)
{
    ita_iear_sample s;
    // Itanium 2 cache mode: a miss of 300 cycles at 0x4000000000012340 (line 0x...12340 >> 5).
    ita_iear_decode(ITA_MODEL_ITANIUM2, 0x3fe8, 0x4000000000012340ull | 1, 300, &s);
    EXPECT_TRUE(s.valid);
    EXPECT_FALSE(s.tlb_mode);
    EXPECT_EQ(s.addr, 0x4000000000012340ull);
    EXPECT_EQ(s.latency, 300u);
    EXPECT_FALSE(s.overflow);
    EXPECT_FALSE(s.rab);
    ita_iear_decode(ITA_MODEL_ITANIUM2, 0x3fe8, 0x4000000000012340ull | 3, 0x1fff, &s);  // RAB, overflow
    EXPECT_TRUE(s.rab);
    EXPECT_TRUE(s.overflow);
    EXPECT_EQ(s.latency, 4095u);
    ita_iear_decode(ITA_MODEL_ITANIUM2, 0x48, 0x4000000000012340ull | 2, 0, &s);  // TLB mode, VHPT
    EXPECT_TRUE(s.tlb_mode);
    EXPECT_EQ(s.tlb, 2u);
    ita_iear_decode(ITA_MODEL_ITANIUM2, 0x3fe8, 0x4000000000012340ull, 0, &s);  // stat 0: nothing
    EXPECT_FALSE(s.valid);
    // Itanium: v at bit 0, tlb at bit 1; PMD1 the latency.
    ita_iear_decode(ITA_MODEL_ITANIUM, 0x8, 0x4000000000012340ull | 1, 77, &s);
    EXPECT_TRUE(s.valid);
    EXPECT_EQ(s.latency, 77u);
    EXPECT_EQ(s.addr, 0x4000000000012340ull);
    ita_iear_decode(ITA_MODEL_ITANIUM, 0x88, 0x4000000000012340ull | 3, 0, &s);
    EXPECT_TRUE(s.tlb_mode);
    EXPECT_EQ(s.latency, 0u);
}

TEST(EarBtbLib, DecodesTheDear)
{
    ita_dear_sample s;
    // Itanium 2 cache mode: stat 1, lat 70; the instruction in the window's second bundle, slot 2.
    const uint64_t pmd3 = ITA_FSET(ITA_FSET(0, PMD3, STAT, 1), PMD3, LAT, 70);
    const uint64_t pmd17 = (0x400000000000100ull << 4) | 0x8 | 0x4 | 2;
    ita_dear_decode(ITA_MODEL_ITANIUM2, 0x40048, 0x6000000000001238ull, pmd3, pmd17, &s);
    EXPECT_TRUE(s.valid);
    EXPECT_EQ(s.mode, 0);
    EXPECT_EQ(s.daddr, 0x6000000000001238ull);
    EXPECT_EQ(s.latency, 70u);
    EXPECT_EQ(s.iaddr, 0x4000000000001012ull);  // ((0x...100 + 1) << 4) | 2
    ita_dear_decode(ITA_MODEL_ITANIUM2, 0x40088, 0x6000000000001238ull, ITA_FSET(0, PMD3, STAT, 3), pmd17, &s);
    EXPECT_EQ(s.mode, 1);
    EXPECT_EQ(s.tlb, 3u);
    EXPECT_EQ(s.latency, 0u);
    ita_dear_decode(ITA_MODEL_ITANIUM2, 0x40048, 0, 0, 0, &s);
    EXPECT_FALSE(s.valid);
    // Itanium: PMD17 = {ip[63:4], slot at 3:2, vl at 0}; PMD3 = {level 63:62, lat 11:0}.
    ita_dear_decode(ITA_MODEL_ITANIUM, 0x10000048, 0x1000, 33, (0x400000000000100ull << 4) | (1 << 2) | 1, &s);
    EXPECT_TRUE(s.valid);
    EXPECT_EQ(s.iaddr, 0x4000000000001001ull);
    EXPECT_EQ(s.latency, 33u);
    ita_dear_decode(ITA_MODEL_ITANIUM, 0x10020088, 0x1000, UINT64_C(2) << 62, 1, &s);
    EXPECT_EQ(s.mode, 1);
    EXPECT_EQ(s.tlb, 2u);
}

uint64_t branch_rec(uint64_t bundle, unsigned slot, int mp)
{
    return ITA_FSET(ITA_FSET(ITA_FSET(ITA_FSET(0, BTB_ENTRY, B, 1), BTB_ENTRY, SLOT, slot), BTB_ENTRY, MP, mp),
                    BTB_ENTRY, ADDR, bundle >> 4);
}
uint64_t target_rec(uint64_t addr) { return ITA_FSET(0, BTB_ENTRY, ADDR, addr >> 4); }

TEST(EarBtbLib, DecodesTheBtbRing)
{
    // Not full: two branches in entries 0..3, bbi = 4; the second in the window's second
    // bundle (b1 of entry 2) and a path misprediction (bruflush of entry 2).
    uint64_t r[9] = {branch_rec(0x4000000000001000, 1, 0), target_rec(0x4000000000002000),
                     branch_rec(0x4000000000002030, 3, 1), target_rec(0x4000000000002050), 0, 0, 0, 0, 0};
    r[8] = ITA_FSET(ITA_FSET(0, PMD16, BBI, 4), PMD16, EXT, UINT64_C(0x3) << 8);
    ita_btb_branch b[ITA_BTB_ENTRIES];
    ASSERT_EQ(ita_btb_decode(ITA_MODEL_ITANIUM2, 0x3f08, r, b), 2u);
    EXPECT_EQ(b[0].source, 0x4000000000001001ull);
    EXPECT_EQ(b[0].target, 0x4000000000002000ull);
    EXPECT_TRUE(b[0].taken);
    EXPECT_FALSE(b[0].mispredicted);
    EXPECT_EQ(b[1].source, 0x4000000000002043ull);  // ((0x...203 + 1) << 4) | 3
    EXPECT_FALSE(b[1].taken);
    EXPECT_TRUE(b[1].mispredicted);
    EXPECT_TRUE(b[1].bruflush);
    EXPECT_TRUE(b[1].has_target);
    // Full, bbi = 2: the oldest is entry 2; entries 0, 1 hold the newest branch.
    uint64_t f[9];
    for (unsigned k = 0; k < 8; k += 2) {
        f[k] = branch_rec(0x4000000000010000 + 0x100 * k, 0, 0);
        f[k + 1] = target_rec(0x4000000000020000 + 0x100 * k);
    }
    f[8] = ITA_FSET(ITA_FSET(0, PMD16, BBI, 2), PMD16, FULL, 1);
    ASSERT_EQ(ita_btb_decode(ITA_MODEL_ITANIUM2, 0x3f08, f, b), 4u);
    EXPECT_EQ(b[0].source, 0x4000000000010200ull);
    EXPECT_EQ(b[3].source, 0x4000000000010000ull);
    EXPECT_EQ(b[3].target, 0x4000000000020000ull);
    // ds = 1 (Itanium 2): the target is {hiaddr 63:61, loaddr 40:4}.
    uint64_t d[9] = {branch_rec(0x4000000000001000, 0, 0),
                     ITA_FSET(ITA_FSET(0, BTB_DETAIL, HIADDR, 2), BTB_DETAIL, LOADDR, 0x123),
                     0, 0, 0, 0, 0, 0, ITA_FSET(0, PMD16, BBI, 2)};
    ASSERT_EQ(ita_btb_decode(ITA_MODEL_ITANIUM2, 0x3f88, d, b), 1u);
    EXPECT_EQ(b[0].target, 0x4000000000001230ull);
    // Itanium has no ds: bit 7 is tar, the target is the entry's address.
    ASSERT_EQ(ita_btb_decode(ITA_MODEL_ITANIUM, 0x3f88, r, b), 2u);
    EXPECT_EQ(b[0].target, 0x4000000000002000ull);
    // Empty.
    uint64_t e[9] = {0};
    EXPECT_EQ(ita_btb_decode(ITA_MODEL_ITANIUM2, 0x3f08, e, b), 0u);
}

}  // namespace
