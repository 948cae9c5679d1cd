// test_btb.cpp - docs/ita-ear-btb.md, the branch trace buffer (PMC12, PMD8..PMD16) on both
// models: every PMC12 filter bit (tm, ptm, ppm, brt), the ds = 0 / 1 target layouts, two
// entries per branch, the ring and its sticky full bit, the b1 and bruflush bits of
// PMD16, IA-32 branches, squashed branches, plm/pm, freeze, range and opcode
// qualification, and BRANCH_EVENT sampling.  Expected values are written by hand.
#include "ref_test_util.h"

using namespace reftest;

namespace {

const uint16_t TAKEN = ITA_SF_TAKEN_MASK, SQUASHED = ITA_SF_PRED_OFF_MASK;
const uint64_t WINDOW = 0x4000000000001000ull, TARGET = 0xa0000123456789a4ull;

ita_slot branch(unsigned type, unsigned pred, bool taken, uint64_t ip = WINDOW, unsigned syl = 2,
                uint64_t target = TARGET)
{
    ita_slot s = slot(ip, ITA_UNIT_B, 0, uint16_t(br(type, pred) | (taken ? TAKEN : 0)));
    s.slot = uint8_t(syl);
    s.target = target;
    return s;
}
ita_slot plain(uint64_t ip = WINDOW) { return slot(ip, ITA_UNIT_I, 0); }

class BtbTest : public ModelTest {
protected:
    void SetUp() override { r.start(); }
    bool ita2() const { return model() == ITA_MODEL_ITANIUM2; }
    // Whether stepping `c` records a branch (PMD16.bbi moves).
    bool records(const ita_cycle &c)
    {
        r.write(pmd(16), 0);
        r.step(c);
        return ITA_FGET(r.read(pmd(16)), PMD16, BBI) != 0;
    }
    Ref r{params(GetParam())};
};
INSTANTIATE_BOTH_MODELS(BtbTest);

TEST_P(BtbTest, TakenMask)
{
    for (unsigned tm = 0; tm < 4; tm++) {
        Btb b;
        b.tm = tm;
        r.write(pmc(12), b.value());
        EXPECT_EQ(records(rec({branch(1, 1, true)})), (tm & 2) != 0) << tm;
        EXPECT_EQ(records(rec({branch(1, 1, false)})), (tm & 1) != 0) << tm;
        // A squashed branch is not taken, whatever its taken flag says.
        ita_slot sq = branch(1, 1, true);
        sq.flags |= SQUASHED;
        EXPECT_EQ(records(rec({sq})), (tm & 1) != 0) << tm;
    }
}

TEST_P(BtbTest, TargetAndPathMasks)
{
    for (unsigned mask = 0; mask < 4; mask++)
        for (unsigned pred = 0; pred < 4; pred++) {
            Btb t;
            t.ptm = mask; // bit 0: pred 3 (wrong target); bit 1: any other (pred 0 is correct)
            r.write(pmc(12), t.value());
            EXPECT_EQ(records(rec({branch(1, pred, true)})), ((mask >> (pred == 3 ? 0 : 1)) & 1u) != 0)
                << "ptm " << mask << " pred " << pred;
            Btb p;
            p.ppm = mask; // bit 0: pred 2 (wrong path); bit 1: any other
            r.write(pmc(12), p.value());
            EXPECT_EQ(records(rec({branch(1, pred, true)})), ((mask >> (pred == 2 ? 0 : 1)) & 1u) != 0)
                << "ppm " << mask << " pred " << pred;
        }
}

TEST_P(BtbTest, BranchTypeFilter)
{
    for (unsigned brt = 0; brt < 4; brt++) {
        Btb b;
        b.brt = brt; // Itanium: these bits are bpt and bac, which do not filter
        r.write(pmc(12), b.value());
        for (unsigned type = 1; type < 4; type++)
            EXPECT_EQ(records(rec({branch(type, 1, true)})), !ita2() || brt == 0 || brt == type)
                << "brt " << brt << " type " << type;
    }
    r.write(pmc(12), Btb().value());
    EXPECT_FALSE(records(rec({plain(), plain()}))) << "no branch";
}

TEST_P(BtbTest, EntryLayoutsDs0)
{
    r.write(pmc(12), Btb().value());
    // Taken, target mispredicted, in the window's first bundle, syllable 2.
    r.step(rec({branch(3, 3, true)}));
    EXPECT_EQ(r.read(pmd(8)), WINDOW | (2u << 2) | 0x2u | 0x1u) << "addr, slot 2, mp, b";
    EXPECT_EQ(r.read(pmd(9)), 0xa0000123456789a0ull | 0x2u) << "target bundle, mp";
    EXPECT_EQ(r.read(pmd(16)), 0x2u) << "bbi 2; b1 = bruflush = 0";
    // Not taken, correctly predicted, in the second bundle: slot 3, b1.
    r.step(rec({plain(), branch(1, 1, false, WINDOW + 16, 0)}));
    EXPECT_EQ(r.read(pmd(10)), WINDOW | (3u << 2) | 0x1u);
    EXPECT_EQ(r.read(pmd(11)), 0xa0000123456789a0ull);
    EXPECT_EQ(r.read(pmd(16)), (0x1ull << 12) | 0x4u) << "entry 2 b1; bbi 4";
    // Wrong path in a bundle outside the window: its own bundle, b1 = 0, bruflush.
    r.step(rec({plain(), branch(2, 2, true, WINDOW + 48, 1, 0x10)}));
    EXPECT_EQ(r.read(pmd(12)), (WINDOW + 48) | (1u << 2) | 0x2u | 0x1u);
    EXPECT_EQ(r.read(pmd(13)), 0x10u | 0x2u);
    EXPECT_EQ(r.read(pmd(16)), (0x2ull << 20) | (0x1ull << 12) | 0x6u);
    // pred 0 (no information): correctly predicted, mp = 0.
    r.step(rec({branch(1, 0, true, WINDOW, 0)}));
    EXPECT_EQ(r.read(pmd(14)), WINDOW | 0x1u);
    EXPECT_EQ(r.read(pmd(15)), 0xa0000123456789a0ull);
}

TEST_P(BtbTest, TargetLayoutDs1)
{
    Btb b;
    b.ds = 1; // Itanium: bit 7 is tar, which changes nothing
    r.write(pmc(12), b.value());
    r.step(rec({branch(1, 3, true)}));
    // ds = 1 on Itanium 2: hiaddr 63:61 = 5, pred 60:41 = 0, loaddr 40:4 = target 40:4.
    const uint64_t ds1 = (0x5ull << 61) | (0xa0000123456789a4ull & 0x1fffffffff0ull) | 0x2u;
    EXPECT_EQ(r.read(pmd(9)), ita2() ? ds1 : 0xa0000123456789a0ull | 0x2u);
    EXPECT_EQ(r.read(pmd(8)), WINDOW | (2u << 2) | 0x2u | 0x1u) << "the branch record is the same";
}

TEST_P(BtbTest, RingWrapsFullIsStickyUntilWritten)
{
    r.write(pmc(12), Btb().value());
    const uint64_t targets[5] = {0x100, 0x200, 0x300, 0x400, 0x500};
    for (unsigned k = 0; k < 5; k++) {
        r.step(rec({branch(1, 1, true, WINDOW, 0, targets[k])}));
        const unsigned bbi = (2 * (k + 1)) % 8;
        EXPECT_EQ(ITA_FGET(r.read(pmd(16)), PMD16, BBI), bbi) << k;
        EXPECT_EQ(ITA_FGET(r.read(pmd(16)), PMD16, FULL), k >= 3 ? 1u : 0u) << k;
    }
    EXPECT_EQ(r.read(pmd(9)), 0x500u) << "the fifth branch overwrote entries 0 and 1";
    EXPECT_EQ(r.read(pmd(11)), 0x200u);
    for (unsigned k = 0; k < 3; k++)
        r.step(rec({branch(1, 1, true)}));
    EXPECT_EQ(ITA_FGET(r.read(pmd(16)), PMD16, FULL), 1u) << "still full after the next wrap";
    r.write(pmd(16), ITA_FSET(0, PMD16, BBI, 6));
    EXPECT_EQ(r.read(pmd(16)), 6u) << "software clears full";
    r.step(rec({branch(1, 1, true)}));
    EXPECT_EQ(r.read(pmd(16)), 0x8u) << "bbi 6 + 2 wraps: full";
    // An odd bbi (software's): the target goes to entry 0 and bbi + 2 = 9 wraps to 1.
    r.write(pmd(16), ITA_FSET(0, PMD16, BBI, 7));
    r.step(rec({branch(1, 1, true, WINDOW, 0, 0x700)}));
    EXPECT_EQ(r.read(pmd(8)), 0x700u);
    EXPECT_EQ(r.read(pmd(16)), 0x9u);
}

TEST_P(BtbTest, RecordRewritesTheExtensionBitsOfItsEntries)
{
    r.write(pmc(12), Btb().value());
    r.write(pmd(16), ITA_FSET(0, PMD16, EXT, 0xffffffffu)); // bbi 0
    r.step(rec({branch(1, 1, true)}));                  // b1 = bruflush = 0
    EXPECT_EQ(r.read(pmd(16)), 0xffffff002ull) << "entries 0 and 1 rewritten to 0; others kept";
}

TEST_P(BtbTest, FirstBranchOnlyIa32NotRecorded)
{
    r.write(pmc(12), Btb().value());
    r.step(rec({plain(), branch(1, 1, true, WINDOW, 1, 0x100), branch(1, 1, true, WINDOW + 16, 0, 0x200)}));
    EXPECT_EQ(r.read(pmd(9)), 0x100u);
    EXPECT_EQ(ITA_FGET(r.read(pmd(16)), PMD16, BBI), 2u) << "one branch per cycle";
    ita_cycle ia32 = rec({branch(1, 1, true)});
    ia32.is = 1;
    EXPECT_FALSE(records(ia32));
}

TEST_P(BtbTest, PrivilegeMonitorAndFreeze)
{
    for (unsigned plm = 0; plm < 16; plm++)
        for (unsigned cpl = 0; cpl < 4; cpl++) {
            Btb b;
            b.plm = plm;
            r.write(pmc(12), b.value());
            EXPECT_EQ(records(rec({branch(1, 1, true)}, cpl)), ((plm >> cpl) & 1u) != 0);
        }
    Btb sys;
    sys.pm = 1;
    r.write(pmc(12), sys.value());
    EXPECT_FALSE(records(rec({branch(1, 1, true)})));
    r.write(psr_addr(), psr_value(0, 1));
    EXPECT_TRUE(records(rec({branch(1, 1, true)})));
    r.write(pmc(0), fr_bit());
    EXPECT_FALSE(records(rec({branch(1, 1, true)}))) << "frozen";
}

TEST_P(BtbTest, RangeAndOpcodeQualification)
{
    r.write(pmc(12), Btb().value());
    const uint64_t in = 0x4000000000002000ull, out = 0x4000000000005000ull;
    set_ibr_pair(r, 0, in, 0x1000);
    if (ita2()) {
        r.write(pmc(14), pmc14(0xe));
        r.write(pmc(8), Opc().with_ig_ad(0).value());
    } else {
        r.write(pmc(13), 0);
    }
    r.step(rec({branch(1, 1, true, out, 0, 0x100), branch(1, 1, true, in, 1, 0x200)}));
    EXPECT_EQ(r.read(pmd(9)), 0x200u) << "the first branch inside the range";
    EXPECT_FALSE(records(rec({branch(1, 1, true, out)})));
    // Opcode matcher PMC8: B-unit major opcode 4 only (range off again).
    r.write(pmc(13), ita2() ? 0x2078fefefefeull : 1u);
    r.write(pmc(14), ita2() ? pmc14(0xf) : 0u);
    r.write(pmc(8), major_opcode(4, ITA_UNIT_B).value());
    ita_slot hit = branch(1, 1, true, in, 1, 0x300);
    hit.enc = uint64_t(4) << 37; // major opcode 4: instr{40:37}
    r.step(rec({branch(1, 1, true, in, 0, 0x400), hit}));
    EXPECT_EQ(r.read(pmd(9)), 0x300u);
}

TEST_P(BtbTest, BranchEventCountsAndSamples)
{
    r.write(pmc(12), Btb().value());
    r.program(7, event_pmc(ITA_EV_BRANCH_EVENT, model()).with_oi(1));
    r.write(pmd(7), wmax(model()));
    r.step(rec({branch(1, 1, true, WINDOW, 0, 0x100), branch(1, 1, true, WINDOW, 1, 0x200)}));
    EXPECT_EQ(r.read(pmd(7)) & wmax(model()), 0u) << "1 per cycle, however many branches";
    EXPECT_EQ(r.pmi(), 1u);
    r.step(rec({branch(1, 1, true, WINDOW, 0, 0x300)}));
    EXPECT_EQ(r.read(pmd(9)), 0x100u) << "the overflowing cycle's record stays";
    EXPECT_EQ(ITA_FGET(r.read(pmd(16)), PMD16, BBI), 2u);
}

} // namespace
