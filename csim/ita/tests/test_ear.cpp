// test_ear.cpp - docs/ita-ear-btb.md, the I-EAR (PMC10, PMD0, PMD1) and the D-EAR (PMC11,
// PMD2, PMD3, PMD17) on both models: every mode and latency threshold or umask at its
// boundary, the captured layouts, the valid-capture rules (squashed slots, non-loads in
// cache mode, freeze, plm/pm/ism, first slot wins, latest capture wins, saturation),
// range and opcode qualification, and the counter events with overflow sampling.
// Every expected register value is written by hand from the page.
#include "ref_test_util.h"

#include <functional>
#include <vector>

using namespace reftest;

namespace {

const uint16_t LOAD = ITA_SF_LOAD_MASK, STORE = ITA_SF_STORE_MASK, SQUASHED = ITA_SF_PRED_OFF_MASK,
               ALAT = ITA_SF_ALAT_MISS_MASK;
const uint64_t FETCH = 0x4000000000002468ull, LINE = 0x4000000000002460ull; // line: bits 63:5
const uint64_t WINDOW = 0x4000000000001000ull;

ita_cycle fetch(unsigned lat, unsigned tlb = 0, unsigned rab = 0, unsigned cpl = 3)
{
    ita_cycle c = cycle(cpl);
    c.if_addr = FETCH;
    c.if_lat = uint16_t(lat);
    c.if_tlb = uint8_t(tlb);
    c.if_rab = uint8_t(rab);
    return c;
}

// One retired memory slot in bundle `ip`, syllable `syl`.
ita_slot mem(uint16_t flags, unsigned lat, uint64_t ip = WINDOW, unsigned syl = 0, unsigned tlb = 0,
             uint64_t daddr = 0x6000000000000abcull)
{
    ita_slot s = slot(ip, ITA_UNIT_M, 0, flags, daddr);
    s.slot = uint8_t(syl);
    s.lat = uint16_t(lat);
    s.tlb = uint8_t(tlb);
    return s;
}

class Ear : public ModelTest {
public:
    void SetUp() override { r.start(); }
    bool ita2() const { return model() == ITA_MODEL_ITANIUM2; }
    // The I-EAR TLB umask of every outcome (Itanium 2: bits 0..2; Itanium: bits 1..3).
    unsigned all_tlb() const { return ita2() ? 0x7u : 0xeu; }
    // Steps `c` with PMD0 / PMD3 cleared first; whether the I-EAR / D-EAR captured.
    bool iear_captures(const ita_cycle &c)
    {
        r.write(pmd(0), 0);
        r.step(c);
        return r.read(pmd(0)) != 0;
    }
    bool dear_captures(const ita_cycle &c)
    {
        r.write(pmd(17), 0);
        r.step(c);
        return r.read(pmd(17)) != 0;
    }
    // The expected PMD3 of a cache-mode D-EAR capture of latency `lat` (not saturated).
    uint64_t dear_cache_pmd3(unsigned lat) const
    {
        return ita2() ? ITA_FSET(uint64_t(lat), PMD3, STAT, 1) : uint64_t(lat);
    }
    // Tag(PMC8) by IBR pair 0 over [addr, addr + size): Itanium 2 ibrp0 = 0 and PMC8
    // ig_ad = 0; Itanium ta = 0.
    void constrain_to_range(uint64_t addr, uint64_t size)
    {
        set_ibr_pair(r, 0, addr, size);
        if (ita2()) {
            r.write(pmc(14), pmc14(0xe));
            r.write(pmc(8), Opc().with_ig_ad(0).value());
        } else {
            r.write(pmc(13), 0);
        }
    }
    // Every plm x cpl, pm x PSR.up/pp and ism x instruction set, for the unit configured
    // at `addr` by cfg(enables) and a cycle `c` it captures when enabled.
    void check_enables(uint16_t addr, const std::function<uint64_t(UnitEnable)> &cfg, ita_cycle c,
                       bool (Ear::*captures)(const ita_cycle &))
    {
        for (unsigned plm = 0; plm < 16; plm++)
            for (unsigned cpl = 0; cpl < 4; cpl++) {
                UnitEnable e;
                e.plm = plm;
                r.write(addr, cfg(e));
                c.cpl = uint8_t(cpl);
                EXPECT_EQ((this->*captures)(c), ((plm >> cpl) & 1u) != 0) << "plm " << plm << " cpl " << cpl;
            }
        c.cpl = 3;
        UnitEnable sys;
        sys.pm = 1;
        r.write(addr, cfg(sys));
        EXPECT_FALSE((this->*captures)(c)) << "pm = 1 follows PSR.pp";
        r.write(psr_addr(), psr_value(0, 1));
        EXPECT_TRUE((this->*captures)(c));
        r.write(psr_addr(), psr_value(1, 0));
        for (unsigned ism = 0; ism < 4; ism++)
            for (unsigned is = 0; is < 2; is++) {
                UnitEnable e;
                e.ism = ism;
                r.write(addr, cfg(e));
                c.is = uint8_t(is);
                EXPECT_EQ((this->*captures)(c), ((ism >> is) & 1u) == 0) << "ism " << ism << " is " << is;
            }
    }
    Ref r{params(GetParam())};
};
INSTANTIATE_BOTH_MODELS(Ear);

// ---- I-EAR ----------------------------------------------------------------------

TEST_P(Ear, IEarItanium2LatencyBinsAtEveryThreshold)
{
    if (!ita2())
        GTEST_SKIP() << "Itanium 2 umask layout";
    struct { unsigned umask, threshold; } rows[] = {
        {0xff, 4}, {0xfe, 8}, {0xfc, 16}, {0xf8, 32}, {0xf0, 128}, {0xe0, 256}, {0xc0, 1024}, {0x80, 4096}};
    for (const auto &row : rows) {
        r.write(pmc(10), iear_cache(model(), row.umask));
        EXPECT_FALSE(iear_captures(fetch(row.threshold - 1))) << std::hex << row.umask;
        ASSERT_TRUE(iear_captures(fetch(row.threshold))) << std::hex << row.umask;
        EXPECT_EQ(r.read(pmd(0)), LINE | 1u) << "stat 1: a miss";
        const uint64_t pmd1 = row.threshold > 4095 ? 0x1fffu : row.threshold; // ov + 4095
        EXPECT_EQ(r.read(pmd(1)), pmd1) << std::hex << row.umask;
        EXPECT_TRUE(iear_captures(fetch(65535)));
        EXPECT_EQ(r.read(pmd(1)), 0x1fffu) << "saturated at 4095 with ov";
    }
}

TEST_P(Ear, IEarItanium2BinsAreIndividualBits)
{
    if (!ita2())
        GTEST_SKIP();
    r.write(pmc(10), iear_cache(model(), 0x82)); // bin 1 [8,16) and bin 7 [4096,inf)
    EXPECT_FALSE(iear_captures(fetch(7)));
    EXPECT_TRUE(iear_captures(fetch(8)));
    EXPECT_TRUE(iear_captures(fetch(15)));
    EXPECT_FALSE(iear_captures(fetch(16)));
    EXPECT_FALSE(iear_captures(fetch(4095)));
    EXPECT_TRUE(iear_captures(fetch(4096)));
    r.write(pmc(10), iear_cache(model(), 0x81)); // bin 0 only: [4,8)
    EXPECT_FALSE(iear_captures(fetch(3)));
    EXPECT_TRUE(iear_captures(fetch(4)));
    EXPECT_TRUE(iear_captures(fetch(7)));
    EXPECT_FALSE(iear_captures(fetch(8)));
}

TEST_P(Ear, IEarItanium2Lat0RabAndUndefinedUmasks)
{
    if (!ita2())
        GTEST_SKIP();
    r.write(pmc(10), iear_cache(model(), 0x40)); // LAT0: every L1I miss
    EXPECT_TRUE(iear_captures(fetch(1)));
    EXPECT_EQ(r.read(pmd(1)), 1u);
    EXPECT_FALSE(iear_captures(fetch(0, ITA_TLB_VHPT))) << "a TLB miss that hit L1I";
    EXPECT_FALSE(iear_captures(fetch(0, 0, 1)));
    EXPECT_TRUE(iear_captures(fetch(20, 0, 1)));
    EXPECT_EQ(r.read(pmd(0)), LINE | 3u) << "a RAB-served miss has stat 3 in any cache mode";

    r.write(pmc(10), iear_cache(model(), 0x00)); // RAB
    EXPECT_FALSE(iear_captures(fetch(50)));
    EXPECT_TRUE(iear_captures(fetch(6, 0, 1)));
    EXPECT_EQ(r.read(pmd(0)), LINE | 3u);
    EXPECT_EQ(r.read(pmd(1)), 6u);
    EXPECT_TRUE(iear_captures(fetch(0, 0, 1)));
    EXPECT_EQ(r.read(pmd(1)), 0u);

    for (unsigned umask : {0x01u, 0x20u, 0x41u, 0x60u, 0x7fu}) {
        r.write(pmc(10), iear_cache(model(), umask));
        EXPECT_FALSE(iear_captures(fetch(5000, ITA_TLB_FAULT, 1))) << std::hex << umask;
    }
    // ct = 01: nothing monitored.
    r.write(pmc(10), ITA_FSET(iear_cache(model(), 0x40), PMC10, CT, 1));
    EXPECT_FALSE(iear_captures(fetch(5000, ITA_TLB_FAULT, 1)));
}

TEST_P(Ear, IEarItaniumThresholdsAndLatNone)
{
    if (ita2())
        GTEST_SKIP() << "Itanium umask layout";
    for (unsigned umask = 0; umask <= 0xa; umask++) {
        const unsigned t = 4u << umask;
        r.write(pmc(10), iear_cache(model(), umask));
        EXPECT_FALSE(iear_captures(fetch(t - 1))) << umask;
        ASSERT_TRUE(iear_captures(fetch(t))) << umask;
        EXPECT_EQ(r.read(pmd(0)), LINE | 1u) << "v = 1, tlb = 0";
        EXPECT_EQ(r.read(pmd(1)), t > 4095 ? 0xfffu : t) << "saturated at 4095, no ov bit";
    }
    r.write(pmc(10), iear_cache(model(), 0xf)); // LAT_NONE: every miss
    EXPECT_FALSE(iear_captures(fetch(0, ITA_TLB_L2)));
    EXPECT_TRUE(iear_captures(fetch(1)));
    EXPECT_EQ(r.read(pmd(1)), 1u);
    for (unsigned umask = 0xb; umask <= 0xe; umask++) {
        r.write(pmc(10), iear_cache(model(), umask));
        EXPECT_FALSE(iear_captures(fetch(65535))) << umask;
    }
}

TEST_P(Ear, IEarTlbModeEveryUmaskAndOutcome)
{
    for (unsigned umask = 0; umask < 16; umask++) {
        r.write(pmc(10), iear_tlb(model(), umask));
        for (unsigned tlb = 0; tlb < 4; tlb++) {
            // Itanium 2: bit tlb-1 (L2TLB 1, VHPT 2, FAULT 4); Itanium: bit tlb (0x2, 0x4, 0x8).
            const bool expect = tlb != 0 && ((umask >> (ita2() ? tlb - 1 : tlb)) & 1u);
            r.write(pmd(1), 0x123);
            ASSERT_EQ(iear_captures(fetch(300, tlb)), expect) << "umask " << umask << " tlb " << tlb;
            if (!expect)
                continue;
            EXPECT_EQ(r.read(pmd(0)), LINE | (ita2() ? tlb : 3u)) << "stat = tlb; Itanium tlb + v";
            EXPECT_EQ(r.read(pmd(1)), 0u) << "no latency in TLB mode";
        }
    }
}

TEST_P(Ear, IEarPrivilegeMonitorAndInstructionSet)
{
    check_enables(pmc(10), [this](UnitEnable e) { return iear_tlb(model(), all_tlb(), e); },
                  fetch(0, ITA_TLB_FAULT), &Ear::iear_captures);
}

TEST_P(Ear, IEarInstructionRangeQualification)
{
    r.write(pmc(10), iear_tlb(model(), all_tlb()));
    constrain_to_range(0x4000000000002000ull, 0x1000);
    EXPECT_TRUE(iear_captures(fetch(0, ITA_TLB_FAULT)));
    ita_cycle out = fetch(0, ITA_TLB_FAULT);
    out.if_addr = 0x4000000000003000ull;
    EXPECT_FALSE(iear_captures(out)) << "a fetch outside the range";
    out.is = 1;
    EXPECT_TRUE(iear_captures(out)) << "IA-32: the range does not constrain";
    // The opcode matchers do not apply to the I-EAR (L1I_EAR_EVENTS has opm = 0).
    r.write(pmc(8), matches_nothing().value());
    EXPECT_TRUE(iear_captures(fetch(0, ITA_TLB_FAULT)));
}

// Every latency bound of either model's bins and thresholds, and one cycle below it:
// 4, 8, .., 4096 (docs/ita-ear-btb.md), each against every bin or threshold umask.
const unsigned BOUNDS[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

// The latencies at and one below every bound, with 0 and the largest.
std::vector<unsigned> boundary_latencies()
{
    std::vector<unsigned> v = {0, 65535};
    for (unsigned b : BOUNDS) {
        v.push_back(b - 1);
        v.push_back(b);
    }
    return v;
}

TEST_P(Ear, IEarEveryBoundAndOneBelowAgainstEveryBinAndThreshold)
{
    // Itanium 2: a miss of at least 4 cycles is captured when umask has its bin's bit;
    // bin i holds [floor[i], floor[i + 1]).  Bit 7 is both "by bins" and bin 7 [4096, inf).
    const unsigned floor[8] = {4, 8, 16, 32, 128, 256, 1024, 4096};
    auto bin_of = [&](unsigned lat) {
        unsigned b = 0;
        while (b < 7 && lat >= floor[b + 1])
            b++;
        return b;
    };
    std::vector<unsigned> umasks;
    if (ita2()) {
        for (unsigned b = 0; b < 8; b++)
            umasks.push_back(0x80u | (1u << b)); // one bin (and bin 7)
        for (unsigned b = 0; b < 8; b++)
            umasks.push_back((0xffu << b) & 0xffu); // libpfm's LAT4 .. LAT4096: "at least N"
    } else {
        for (unsigned umask = 0; umask <= 0xa; umask++) // LAT4 .. LAT4096: lat >= 4 << umask
            umasks.push_back(umask);
    }
    for (unsigned umask : umasks) {
        r.write(pmc(10), iear_cache(model(), umask));
        for (unsigned lat : boundary_latencies()) {
            const bool expect = ita2() ? lat >= 4 && ((umask >> bin_of(lat)) & 1u) : lat >= (4u << umask);
            ASSERT_EQ(iear_captures(fetch(lat)), expect) << "umask 0x" << std::hex << umask << std::dec
                                                         << " if_lat " << lat;
            if (!expect)
                continue;
            // PMD1: the latency, saturated at 4095 (Itanium 2: with ov, bit 12).
            const uint64_t pmd1 = lat > 4095 ? (ita2() ? 0x1fffu : 0xfffu) : lat;
            EXPECT_EQ(r.read(pmd(1)), pmd1) << "umask 0x" << std::hex << umask << std::dec << " if_lat " << lat;
        }
    }
}

// ---- D-EAR ----------------------------------------------------------------------

TEST_P(Ear, DEarCacheThresholdsAtTheBoundary)
{
    // Itanium 2: 4 << umask for 0..0xa.  Itanium: 4 << umask for 0..6, then 512, 512,
    // 1024, 2048.
    const unsigned ita_t[11] = {4, 8, 16, 32, 64, 128, 256, 512, 512, 1024, 2048};
    for (unsigned umask = 0; umask <= 0xa; umask++) {
        const unsigned t = ita2() ? 4u << umask : ita_t[umask];
        r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, umask));
        EXPECT_FALSE(dear_captures(rec({mem(LOAD, t - 1)}))) << umask;
        ASSERT_TRUE(dear_captures(rec({mem(LOAD, t)}))) << umask;
        const unsigned max = ita2() ? 8191 : 4095;
        const uint64_t expect = t > max ? (ita2() ? 0xffffu - 0x8000u : 0xfffu) : dear_cache_pmd3(t);
        EXPECT_EQ(r.read(pmd(3)), expect) << umask;
        EXPECT_EQ(r.read(pmd(2)), 0x6000000000000abcull);
    }
    for (unsigned umask = 0xb; umask <= 0xf; umask++) {
        r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, umask));
        const bool lat_none = !ita2() && umask == 0xf; // Itanium LAT_NONE: every missing load
        EXPECT_EQ(dear_captures(rec({mem(LOAD, 1)})), lat_none) << umask;
        EXPECT_FALSE(dear_captures(rec({mem(LOAD, 0)}))) << umask;
        EXPECT_EQ(dear_captures(rec({mem(LOAD, 65535)})), lat_none) << umask;
    }
}

TEST_P(Ear, DEarEveryBoundAndOneBelowAgainstEveryThreshold)
{
    // Itanium 2: 4 << umask for 0..0xa.  Itanium: 4 << umask for 0..6, then 512, 512,
    // 1024, 2048.
    const unsigned ita_t[11] = {4, 8, 16, 32, 64, 128, 256, 512, 512, 1024, 2048};
    for (unsigned umask = 0; umask <= 0xa; umask++) {
        const unsigned t = ita2() ? 4u << umask : ita_t[umask];
        r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, umask));
        for (unsigned lat : boundary_latencies()) {
            ASSERT_EQ(dear_captures(rec({mem(LOAD, lat)})), lat >= t) << "umask " << umask << " lat " << lat;
            if (lat >= t && lat <= 4095) {
                EXPECT_EQ(r.read(pmd(3)), dear_cache_pmd3(lat)) << "umask " << umask << " lat " << lat;
            }
        }
    }
}

TEST_P(Ear, DEarLatencySaturates)
{
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 0));
    ASSERT_TRUE(dear_captures(rec({mem(LOAD, 9000)})));
    // Itanium 2: stat 1, ov, 8191.  Itanium: 4095, no ov.
    EXPECT_EQ(r.read(pmd(3)), ita2() ? 0x7fffu : 0xfffu);
    ASSERT_TRUE(dear_captures(rec({mem(LOAD, 8191)})));
    EXPECT_EQ(r.read(pmd(3)), ita2() ? 0x5fffu : 0xfffu);
    ASSERT_TRUE(dear_captures(rec({mem(LOAD, 4095)})));
    EXPECT_EQ(r.read(pmd(3)), ita2() ? 0x4fffu : 0xfffu);
}

TEST_P(Ear, DEarCacheModeTakesOnlyLoadsThatRetire)
{
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 0));
    EXPECT_FALSE(dear_captures(rec({mem(STORE, 100)}))) << "a store in cache mode";
    EXPECT_FALSE(dear_captures(rec({mem(uint16_t(LOAD | SQUASHED), 100)}))) << "a squashed load";
    EXPECT_FALSE(dear_captures(rec({mem(ALAT, 100)})));
    EXPECT_TRUE(dear_captures(rec({mem(uint16_t(LOAD | ALAT), 100)})));
}

TEST_P(Ear, DEarTlbModeEveryUmaskAndOutcome)
{
    for (unsigned umask = 0; umask < 16; umask++) {
        r.write(pmc(11), dear_cfg(model(), DEAR_TLB, umask));
        for (unsigned tlb = 0; tlb < 4; tlb++)
            for (uint16_t kind : {LOAD, STORE}) {
                const bool expect = tlb != 0 && ((umask >> tlb) & 1u); // L2 0x2, VHPT 0x4, FAULT 0x8
                ASSERT_EQ(dear_captures(rec({mem(kind, 77, WINDOW, 0, tlb)})), expect)
                    << "umask " << umask << " tlb " << tlb;
                if (expect) {
                    EXPECT_EQ(r.read(pmd(3)), ita2() ? ITA_FSET(0, PMD3, STAT, tlb) : uint64_t(tlb) << 62)
                        << "stat / level = tlb, no latency";
                }
            }
        EXPECT_FALSE(dear_captures(rec({mem(uint16_t(LOAD | SQUASHED), 77, WINDOW, 0, 3)})));
        EXPECT_FALSE(dear_captures(rec({mem(0, 77, WINDOW, 0, 3)}))) << "not a memory access";
    }
}

TEST_P(Ear, DEarAlatModeAndModeThree)
{
    if (!ita2())
        GTEST_SKIP() << "Itanium has no ALAT mode";
    r.write(pmc(11), dear_cfg(model(), DEAR_ALAT, 0));
    EXPECT_FALSE(dear_captures(rec({mem(LOAD, 500, WINDOW, 0, 3)})));
    ASSERT_TRUE(dear_captures(rec({mem(ALAT, 0)})));
    EXPECT_EQ(r.read(pmd(3)), 0x4000u) << "stat 1, no latency";
    EXPECT_FALSE(dear_captures(rec({mem(uint16_t(ALAT | SQUASHED), 0)})));
    r.write(pmc(11), dear_cfg(model(), DEAR_NONE, 0));
    EXPECT_FALSE(dear_captures(rec({mem(uint16_t(LOAD | ALAT), 5000, WINDOW, 0, 3)})));
}

TEST_P(Ear, DEarInstructionAddressLayouts)
{
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 0));
    // Slot 0's bundle is the window; the load is in the window, its second bundle, or
    // elsewhere.
    const uint64_t pad_ip[3] = {WINDOW, WINDOW, WINDOW};
    const uint64_t load_ip[3] = {WINDOW, WINDOW + 16, WINDOW + 32};
    for (unsigned k = 0; k < 3; k++) {
        ASSERT_TRUE(dear_captures(rec({mem(0, 0, pad_ip[k], 0), mem(LOAD, 9, load_ip[k], 2)})));
        uint64_t expect;
        if (ita2()) // {iaddr, vl, bn, slot}
            expect = (k == 1 ? WINDOW : load_ip[k]) | 0x8u | (k == 1 ? 0x4u : 0u) | 2u;
        else        // {ip[63:4], slot 3:2, 0, vl}
            expect = load_ip[k] | (2u << 2) | 1u;
        EXPECT_EQ(r.read(pmd(17)), expect) << k;
    }
}

TEST_P(Ear, DEarFirstSlotWinsAndLatestCaptureWins)
{
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 1)); // LAT8
    ASSERT_TRUE(dear_captures(rec({mem(LOAD, 7, WINDOW, 0), mem(LOAD, 8, WINDOW, 1, 0, 0x111),
                                     mem(LOAD, 300, WINDOW, 2, 0, 0x222)})));
    EXPECT_EQ(r.read(pmd(2)), 0x111u);
    EXPECT_EQ(r.read(pmd(3)), dear_cache_pmd3(8));
    r.step(rec({mem(LOAD, 40, WINDOW, 0, 0, 0x333)}));
    EXPECT_EQ(r.read(pmd(2)), 0x333u) << "the next capture overwrites";
    EXPECT_EQ(r.read(pmd(3)), dear_cache_pmd3(40));
    r.step(rec({mem(LOAD, 2, WINDOW, 0, 0, 0x444)}));
    EXPECT_EQ(r.read(pmd(2)), 0x333u) << "a cycle without capture leaves it";
}

TEST_P(Ear, DEarPrivilegeMonitorAndInstructionSet)
{
    check_enables(pmc(11), [this](UnitEnable e) { return dear_cfg(model(), DEAR_CACHE, 0, e); },
                  rec({mem(LOAD, 10)}), &Ear::dear_captures);
}

TEST_P(Ear, DEarRangeOpcodeAndDataQualification)
{
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 0));
    const uint64_t in = 0x4000000000002000ull, out = 0x4000000000005000ull;
    // Instruction range on pair 0: the first load is outside, the second inside.
    constrain_to_range(in, 0x1000);
    ASSERT_TRUE(dear_captures(rec({mem(LOAD, 10, out, 0, 0, 0x1), mem(LOAD, 10, in, 1, 0, 0x2)})));
    EXPECT_EQ(r.read(pmd(2)), 0x2u);
    EXPECT_FALSE(dear_captures(rec({mem(LOAD, 10, out, 0)})));
    // Opcode matcher PMC8 (pair 0's tie): M-unit major opcode 4 only.
    r.write(pmc(13), ita2() ? 0x2078fefefefeull : 1u); // range off again (Itanium ta = 1)
    r.write(pmc(14), ita2() ? pmc14(0xf) : 0u);
    r.write(pmc(8), major_opcode(4, ITA_UNIT_M).value());
    ita_cycle c = rec({mem(LOAD, 10, in, 0, 0, 0x1), mem(LOAD, 10, in, 1, 0, 0x2)});
    c.slot[1].enc = uint64_t(4) << 37; // major opcode 4: instr{40:37}
    ASSERT_TRUE(dear_captures(c));
    EXPECT_EQ(r.read(pmd(2)), 0x2u);
    r.write(pmc(8), Opc().value());
    // Data range on DBR pair 0: Itanium 2 PMC13 cfg 2 (DBR only); Itanium pt = 0.
    set_dbr_pair(r, 0, 0x7000000000000000ull, 0x100);
    if (ita2())
        r.write(pmc(13), ITA_FSET(ITA_FSET(0, PMC13, CFG_DBRP0, 2), PMC13, ENA_DBRP0, 1));
    else
        r.write(pmc(11), ITA_FSET(dear_cfg(model(), DEAR_CACHE, 0), PMC11, PT, 0));
    ASSERT_TRUE(dear_captures(rec({mem(LOAD, 10, in, 0, 0, 0x7000000000000100ull),
                                     mem(LOAD, 10, in, 1, 0, 0x70000000000000f8ull)})));
    EXPECT_EQ(r.read(pmd(2)), 0x70000000000000f8ull);
}

// ---- freeze and the counter events ----------------------------------------------

TEST_P(Ear, NothingIsCapturedWhileFrozen)
{
    r.write(pmc(10), iear_tlb(model(), all_tlb()));
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 0));
    r.write(pmc(0), fr_bit());
    ita_cycle c = rec({mem(LOAD, 10)});
    c.if_addr = FETCH;
    c.if_tlb = ITA_TLB_FAULT;
    r.step(c);
    EXPECT_EQ(r.read(pmd(0)), 0u);
    EXPECT_EQ(r.read(pmd(17)), 0u);
    r.write(pmc(0), 0);
    r.step(c);
    EXPECT_NE(r.read(pmd(0)), 0u);
    EXPECT_NE(r.read(pmd(17)), 0u);
}

TEST_P(Ear, CounterEventsCountCapturesAndSampleOnOverflow)
{
    r.write(pmc(10), iear_cache(model(), ita2() ? 0x40 : 0xf));
    r.write(pmc(11), dear_cfg(model(), DEAR_CACHE, 0));
    r.program(4, event_pmc(ITA_EV_L1I_EAR_EVENTS, model()));
    r.program(5, event_pmc(ITA_EV_DATA_EAR_EVENTS, model()).with_oi(1));
    r.write(pmd(5), wmax(model()) - 1); // overflows on the second capture
    ita_cycle c = rec({mem(LOAD, 10, WINDOW, 0, 0, 0x10)});
    c.if_addr = FETCH;
    c.if_lat = 30;
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 1u);
    c.slot[0].lat = 2; // no D-EAR capture
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 2u);
    EXPECT_EQ(r.read(pmd(5)) & wmax(model()), wmax(model()));
    c.slot[0].lat = 11;
    c.slot[0].daddr = 0x20;
    r.step(c); // overflows: freeze, interrupt; this cycle's capture is the sample
    EXPECT_EQ(r.pmi(), 1u);
    EXPECT_EQ(r.read(pmc(0)) & (fr_bit() | ovf_bit(5)), fr_bit() | ovf_bit(5));
    c.slot[0].daddr = 0x30;
    r.step(c); // frozen: neither captures nor counts
    EXPECT_EQ(r.read(pmd(2)), 0x20u);
    EXPECT_EQ(r.read(pmd(3)), dear_cache_pmd3(11));
    EXPECT_EQ(r.read(pmd(4)), 3u);
    // The counter's own plm applies on top of the capture.
    r.start();
    r.program(4, event_pmc(ITA_EV_L1I_EAR_EVENTS, model()).with_plm(0x1));
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 0u);
    EXPECT_EQ(r.read(pmd(0)), LINE | 1u) << "the unit still captures";
}

} // namespace
