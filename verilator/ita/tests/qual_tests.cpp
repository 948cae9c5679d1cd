// qual_tests - event qualification (docs/ita-qualification.md), run on the reference model
// and on the Verilated RTL, both models, with exact expected counts: one test per row of
// ITA-PRM Table 6-3 on each register form, the br.cloop opcode example, range edges,
// inverted and fine-mode ranges, IA-32 code under a range, and events that lack a
// qualifier.
//
// Sources: docs/sources.md.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/pmu_backend.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"
#include "harness/ita/ita_family.h"
#include "stream/pmu_stream.h"

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
uint16_t IBR(unsigned i) { return ITA_ADDR(ITA_SPACE_IBR, i); }
uint16_t DBR(unsigned i) { return ITA_ADDR(ITA_SPACE_DBR, i); }
const uint16_t PSR = ITA_ADDR(ITA_SPACE_CPU, 0);

// The code range F, a 4 KB block, and the data range D.
const uint64_t F = 0x4000000000010000ull;
const uint64_t D = 0x6000000000100000ull;
const uint64_t kBlockMask = ~0xfffull & 0x00ffffffffffffffull;

// Instruction encodings: major opcode in bits 40:37, branch type (btype) in bits 8:6.
uint64_t Major(unsigned m) { return (uint64_t)m << 37; }
const uint64_t kBrCloop = Major(4) | (5ull << 6);
const uint64_t kBrCond = Major(4);

// Opcode matcher patterns in PMC8 field terms (mask bit 1 = don't care).
struct Pattern {
    uint32_t match, mask;
    unsigned b, f, i, m;
};
const Pattern kMatchAll = {0, 0x7ffffff, 1, 1, 1, 1};
const Pattern kMajor4OnM = {0x2000000, 0x07fffff, 0, 0, 0, 1};
const Pattern kBrCloopPattern = {0x2000140, 0x07ffe3f, 1, 0, 0, 0};  // libpfm-3 ita2_opcode.c

class Qual : public testing::TestWithParam<Param> {
protected:
    void SetUp() override
    {
        ita_params p = ita_params_default();
        p.model = GetParam().model;
        if (std::string(GetParam().backend) == "ref") {
            b = ita_ref_create(&p);
        } else {
            char err[256];
            b = ita_rtl_create(&p, err, sizeof err);
            ASSERT_NE(b, nullptr) << err;
        }
        ASSERT_NE(b, nullptr);
        ita2 = p.model == ITA_MODEL_ITANIUM2;
    }
    void TearDown() override { pmu_destroy(b); }

    uint64_t R(uint16_t a) { return pmu_read(b, a); }
    void Wr(uint16_t a, uint64_t v) { pmu_write(b, a, v); }
    uint64_t Count(unsigned i) { return R(PMD(i)) & ((1ull << ita_counter_width(GetParam().model)) - 1); }

    // Counter i counts `ev` at every privilege level; ism as given.
    void Counter(unsigned i, ita_event_id ev, unsigned ism = 0)
    {
        const ita_event_desc &e = ita_event_table[ev];
        int code = ita_event_code(&e, GetParam().model);
        ASSERT_GE(code, 0) << e.name << " is not implemented on this model";
        CounterRaw(i, (unsigned)code, e.umask, ism);
    }
    // Counter i counts the model's event of this code and umask (a general event too).
    void CounterRaw(unsigned i, unsigned code, unsigned umask, unsigned ism = 0)
    {
        uint64_t v = 0;
        v = ITA_FSET(v, PMC_GEN, ES, code);
        v = ITA_FSET(v, PMC_GEN, UMASK, umask);
        v = ITA_FSET(v, PMC_GEN, PLM, 0xf);
        v = ITA_FSET(v, PMC_GEN, ISM, ism);
        Wr(PMC(i), v);
    }
    void Opcode(unsigned reg, const Pattern &p, unsigned ig_ad = 1, unsigned inv = 0)
    {
        uint64_t v = 0;
        v = ITA_FSET(v, PMC_OPC, MASK, p.mask);
        v = ITA_FSET(v, PMC_OPC, MATCH, p.match);
        v = ITA_FSET(v, PMC_OPC, B, p.b);
        v = ITA_FSET(v, PMC_OPC, F, p.f);
        v = ITA_FSET(v, PMC_OPC, I, p.i);
        v = ITA_FSET(v, PMC_OPC, M, p.m);
        v = ITA_FSET(v, PMC_OPC, IG_AD, ig_ad);
        v = ITA_FSET(v, PMC_OPC, INV, inv);
        Wr(PMC(reg), v);
    }
    void IbrPair(unsigned k, uint64_t addr, uint64_t mask, unsigned plm = 0xf)
    {
        Wr(IBR(2 * k), addr);
        Wr(IBR(2 * k + 1), mask | (uint64_t)plm << ITA_F_IBR_MASK_PLM_LSB);
    }
    void DbrPair(unsigned k, uint64_t addr, uint64_t mask, unsigned plm = 0xf)
    {
        Wr(DBR(2 * k), addr);
        Wr(DBR(2 * k + 1), mask | (uint64_t)plm << ITA_F_DBR_MASK_PLM_LSB);
    }
    // Itanium 2 PMC14 with ibrp_k = 0 (constrained) for the pairs in `constrained`.
    void Pmc14(unsigned constrained, unsigned fine = 0)
    {
        uint64_t v = 0;
        v = ITA_FSET(v, PMC14, IBRP0, !(constrained & 1));
        v = ITA_FSET(v, PMC14, IBRP1, !(constrained & 2));
        v = ITA_FSET(v, PMC14, IBRP2, !(constrained & 4));
        v = ITA_FSET(v, PMC14, IBRP3, !(constrained & 8));
        v = ITA_FSET(v, PMC14, FINE, fine);
        Wr(PMC(14), v);
    }
    // Itanium 2 PMC13 with pair 0 configured (cfg, ena) and the others off.
    void Pmc13Pair0(unsigned cfg)
    {
        uint64_t v = 0;
        v = ITA_FSET(v, PMC13, CFG_DBRP0, cfg);
        v = ITA_FSET(v, PMC13, CFG_DBRP1, 3);
        v = ITA_FSET(v, PMC13, CFG_DBRP2, 3);
        v = ITA_FSET(v, PMC13, CFG_DBRP3, 3);
        v = ITA_FSET(v, PMC13, ENA_DBRP0, 1);
        Wr(PMC(13), v);
    }
    // Code range F on IBR pair 0, made to constrain ordinary events on either register
    // form (Itanium 2: PMC14.ibrp0 = 0 and PMC8.ig_ad = 0; Itanium: PMC13.ta = 0), with
    // opcode matcher PMC8 set to `p`.
    void CodeRangeOnPair0(const Pattern &p = kMatchAll, unsigned plm = 0xf)
    {
        IbrPair(0, F, kBlockMask, plm);
        if (ita2)
            Pmc14(1);
        else
            Wr(PMC(13), 0);  // ta = 0
        Opcode(8, p, 0);
    }
    void Start()
    {
        Wr(PSR, 1ull << ITA_F_PSR_UP_LSB);
        Wr(PMC(0), 0);
    }
    // One record with one slot, repeated n times.
    void Slot(unsigned n, uint64_t ip, unsigned unit, uint64_t enc, uint16_t flags = 0, uint64_t da = 0,
              unsigned cpl = 3, unsigned is = 0)
    {
        ita_cycle c{};
        c.cpl = (uint8_t)cpl;
        c.is = (uint8_t)is;
        c.nslots = 1;
        c.slot[0].ip = ip;
        c.slot[0].unit = (uint8_t)unit;
        c.slot[0].enc = enc;
        c.slot[0].flags = flags;
        c.slot[0].daddr = da;
        if (slot_xev_name) {
            const int id = ita_event_id_find(slot_xev_name);
            ASSERT_GE(id, 0) << slot_xev_name;
            c.nxev = 1;
            c.xev[0].id = (uint16_t)id;
            c.xev[0].count = 1;
            c.xev[0].slot = 0;
        }
        pmu_err err;
        ASSERT_EQ(ita_cycle_validate(&c, "qual_tests", &err), 0) << err.msg;
        for (unsigned i = 0; i < n; i++) pmu_step(b, &c);
    }

    // The ITA-PRM Table 6-3 stream: groups of single-slot records (see the counts in each test).
    void TableStream()
    {
        const uint16_t load = ITA_SF_LOAD_MASK, br = 1u << ITA_SF_BR_TYPE_LSB | ITA_SF_TAKEN_MASK;
        Slot(10, F + 0x100, ITA_UNIT_M, Major(4), load, D + 0x10);                 // A: F, M4, D
        Slot(7, F + 0x200, ITA_UNIT_M, Major(5), load, 0x6000000000200000ull);     // B: F, M5, !D
        Slot(5, F + 0x300, ITA_UNIT_B, kBrCloop, br);                              // C: F, br.cloop
        Slot(4, F + 0x310, ITA_UNIT_B, kBrCond, br);                               // D: F, br.cond
        Slot(6, 0x4000000000020000ull, ITA_UNIT_B, kBrCloop, br);                  // E: !F, br.cloop
        Slot(3, 0x4000000000020100ull, ITA_UNIT_M, Major(4), load, D + 0x20);      // G: !F, M4, D
        Slot(2, (F + 0x100) ^ (1ull << 56), ITA_UNIT_M, Major(4), load, D + 0x2000); // H: bit 56 differs
        Slot(9, F + 0x400, ITA_UNIT_M, Major(5), load, D + 0x40);                  // J: F, M5, D
        Slot(1, 0x10500, ITA_UNIT_M, 0, load, D + 0x50, 3, 1);                     // I: IA-32
    }
    // Counts on PMC4 (IA64_INST_RETIRED) and PMC5 (LOADS_RETIRED) after TableStream().
    void Expect(uint64_t inst, uint64_t loads)
    {
        Counter(4, ITA_EV_IA64_INST_RETIRED);
        Counter(5, ITA_EV_LOADS_RETIRED);
        Start();
        TableStream();
        EXPECT_EQ(Count(4), inst) << "IA64_INST_RETIRED";
        EXPECT_EQ(Count(5), loads) << "LOADS_RETIRED";
    }

    pmu_backend *b = nullptr;
    // When set, each record of Slot() also carries one occurrence of this general event
    // (docs/ita-stream-format.md), attributed to the slot.
    const char *slot_xev_name = nullptr;
    bool ita2 = false;
};

// ---- ITA-PRM Table 6-3, one test per row; Itanium: PMC13.ta / PMC8 / PMC11.pt, Itanium 2:
// PMC14 (+ PMC8.ig_ad) / PMC8 (+ PMC15 tie, reset) / PMC13 cfg_dbrp0 + ena_dbrp0.

TEST_P(Qual, Row1Unconstrained)
{
    IbrPair(0, F, kBlockMask);
    DbrPair(0, D, kBlockMask);  // programmed but not enabled
    if (ita2) Opcode(8, kMatchAll, 1);
    Expect(47, 32);
}

TEST_P(Qual, Row2InstructionRangeOnly)
{
    CodeRangeOnPair0();
    Expect(36, 27);
}

TEST_P(Qual, Row3OpcodeOnly)
{
    IbrPair(0, F, kBlockMask);
    Opcode(8, kMajor4OnM, 1);
    Expect(16, 16);
}

TEST_P(Qual, Row4DataRangeOnly)
{
    DbrPair(0, D, kBlockMask);
    if (ita2) {
        Opcode(8, kMatchAll, 1);
        Pmc13Pair0(2);
    } else {
        Wr(PMC(11), 0);  // pt = 0
    }
    Expect(47, 23);
}

TEST_P(Qual, Row5InstructionRangeAndOpcode)
{
    CodeRangeOnPair0(kMajor4OnM);
    Expect(11, 11);
}

TEST_P(Qual, Row6InstructionAndDataRange)
{
    CodeRangeOnPair0();
    DbrPair(0, D, kBlockMask);
    if (ita2)
        Pmc13Pair0(0);
    else
        Wr(PMC(11), 0);
    Expect(36, 20);
}

TEST_P(Qual, Row7OpcodeAndDataRange)
{
    DbrPair(0, D, kBlockMask);
    Opcode(8, kMajor4OnM, 1);
    if (ita2)
        Pmc13Pair0(0);
    else
        Wr(PMC(11), 0);
    Expect(16, 14);
}

// ---- the br.cloop example (libpfm-3 examples_v3.x/ia64/ita2_opcode.c).

TEST_P(Qual, BrCloopPatternCountsExactlyBrCloop)
{
    Opcode(8, kBrCloopPattern, 1);
    Counter(4, ITA_EV_IA64_INST_RETIRED, 2);  // IA-64 only: IA-32 code passes every tag
    Start();
    TableStream();
    EXPECT_EQ(Count(4), 5u + 6u) << "C and E are the br.cloop records";
}

TEST_P(Qual, BrCloopInGeneratedWorkload)
{
    Opcode(8, kBrCloopPattern, 1);
    Counter(4, ITA_EV_IA64_INST_RETIRED, 2);
    Start();
    pmu_gen_opts o{};
    o.seed = 11;
    o.cycles = 200000;
    o.mode = PMU_GEN_WORKLOAD;
    o.nprocs = 4;
    pmu_gen *g = pmu_gen_create(&ita_dialect, &o, nullptr);
    ASSERT_NE(g, nullptr);
    ita_cycle c;
    uint64_t expect = 0;
    while (pmu_gen_next(g, &c) == 1) {
        // What the counter should see: br.cloop syllables in B slots of IA-64 code, at a
        // privilege level and with PSR.up as the counter's plm=0xf, pm=0 demand.  The test
        // tracks PSR.up itself from the records (ita-semantics.md step 1).
        pmu_step(b, &c);
        pmu_state st;
        pmu_snapshot(b, &st);
        bool up = st.reg[ITA_VIS_PSR] >> ITA_F_PSR_UP_LSB & 1;
        if (!up || c.is) continue;
        for (unsigned k = 0; k < c.nslots; k++) {
            const ita_slot &s = c.slot[k];
            if (s.unit == ITA_UNIT_B && (s.enc >> 37 & 0xf) == 4 && (s.enc >> 6 & 7) == 5) expect++;
        }
    }
    pmu_gen_destroy(g);
    EXPECT_GT(expect, 100u) << "the workload's counted loops end in br.cloop";
    EXPECT_EQ(Count(4), expect);
}

// ---- range edges

TEST_P(Qual, RangeEdgesBundlesAndUpperBits)
{
    CodeRangeOnPair0();
    Counter(4, ITA_EV_IA64_INST_RETIRED);
    Start();
    Slot(1, F, ITA_UNIT_I, 0);                   // first bundle: in
    Slot(2, F + 0xff0, ITA_UNIT_I, 0);           // last bundle: in
    Slot(4, F + 0x1000, ITA_UNIT_I, 0);          // first bundle after: out
    Slot(8, F - 0x10, ITA_UNIT_I, 0);            // last bundle before: out
    Slot(16, F ^ (1ull << 63), ITA_UNIT_I, 0);   // bits 63:56 are always compared: out
    Slot(32, F ^ (1ull << 60), ITA_UNIT_I, 0);
    EXPECT_EQ(Count(4), 3u);
}

TEST_P(Qual, PairPrivilegeLevelMask)
{
    CodeRangeOnPair0(kMatchAll, 0x8);  // the pair matches at level 3 only
    Counter(4, ITA_EV_IA64_INST_RETIRED);
    Start();
    Slot(3, F + 0x40, ITA_UNIT_I, 0, 0, 0, 3);
    Slot(5, F + 0x40, ITA_UNIT_I, 0, 0, 0, 0);
    EXPECT_EQ(Count(4), 3u);
}

TEST_P(Qual, InvertedRange)
{
    if (!ita2) GTEST_SKIP() << "PMC8.inv is an Itanium 2 field";
    IbrPair(0, F, kBlockMask);
    Pmc14(1);
    Opcode(8, kMatchAll, 0, 1);
    // Outside F: the IA-64 records E, G, H, and the IA-32 record I, which no range constrains.
    Expect(6 + 3 + 2 + 1, 3 + 2 + 1);
}

TEST_P(Qual, IgAdIgnoresTheRange)
{
    if (!ita2) GTEST_SKIP() << "PMC8.ig_ad is an Itanium 2 field";
    IbrPair(0, F, kBlockMask);
    Pmc14(1);
    Opcode(8, kMatchAll, 1);
    Expect(47, 32);
}

TEST_P(Qual, FineModeAtPageEdges)
{
    if (!ita2) GTEST_SKIP() << "fine mode is an Itanium 2 feature";
    const uint64_t page = 0x4000000000033000ull;
    // Range A: pairs 0 (lower) and 2 (upper): the whole page, upper bundle inclusive.
    IbrPair(0, page, 0);
    IbrPair(2, page + 0xff0, 0);
    // Range B: pairs 1 and 3: [page+0x230, page+0x560] inside the same page.
    IbrPair(1, page + 0x230, 0);
    IbrPair(3, page + 0x560, 0);
    Pmc14(0xf, 1);
    Opcode(8, kMatchAll, 0);
    Counter(4, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8);
    Counter(5, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9);
    Wr(PMC(15), 0xf);  // no opcode ties: ranges only
    Start();
    Slot(1, page, ITA_UNIT_I, 0);            // A: first bundle of the page
    Slot(2, page + 0xff0, ITA_UNIT_I, 0);    // A: last bundle, inclusive
    Slot(4, page + 0x1000, ITA_UNIT_I, 0);   // next page: neither
    Slot(8, page - 0x10, ITA_UNIT_I, 0);     // previous page: neither
    Slot(16, page + 0x220, ITA_UNIT_I, 0);   // A only
    Slot(32, page + 0x230, ITA_UNIT_I, 0);   // A and B (B's lower bound)
    Slot(64, page + 0x560, ITA_UNIT_I, 0);   // A and B (B's upper bound, inclusive)
    Slot(128, page + 0x570, ITA_UNIT_I, 0);  // A only
    EXPECT_EQ(Count(4), 1u + 2 + 16 + 32 + 64 + 128);
    EXPECT_EQ(Count(5), 32u + 64);
}

TEST_P(Qual, TaggedRetiredPairsAndPmc15Ties)
{
    if (!ita2) GTEST_SKIP() << "IBR pairs 1..3 and PMC15 select tags on Itanium 2";
    IbrPair(0, F, kBlockMask);
    IbrPair(1, F, kBlockMask);
    IbrPair(3, 0x4000000000020000ull, kBlockMask);
    Pmc14(0xb);  // pairs 0, 1, 3 constrained; pair 2 not
    Opcode(8, kMatchAll, 0);
    Opcode(9, kBrCloopPattern);
    Wr(PMC(15), 0x5);  // pairs 0, 2 untied; pairs 1, 3 tied to PMC9 (br.cloop)
    Counter(4, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8);
    Counter(5, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9);
    Counter(6, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP2_PMC8);
    Counter(7, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP3_PMC9);
    Start();
    TableStream();
    EXPECT_EQ(Count(4), 36u) << "pair 0: in F";
    EXPECT_EQ(Count(5), 5u + 1) << "pair 1: br.cloop in F (C), and the IA-32 record";
    EXPECT_EQ(Count(6), 47u) << "pair 2: unconstrained";
    EXPECT_EQ(Count(7), 6u + 1) << "pair 3: br.cloop in the other block (E), and IA-32";
}

// ---- IA-32 code and events without a qualifier

TEST_P(Qual, Ia32InstructionsPassEveryTag)
{
    IbrPair(0, F, kBlockMask);
    DbrPair(0, D, kBlockMask);
    Opcode(8, kBrCloopPattern, 0);
    if (ita2) {
        Pmc14(1);
        Pmc13Pair0(0);
    } else {
        Wr(PMC(13), 0);
        Wr(PMC(11), 0);
    }
    Counter(4, ITA_EV_IA64_INST_RETIRED);
    Counter(5, ITA_EV_LOADS_RETIRED);
    Counter(6, ITA_EV_IA64_INST_RETIRED, 2);  // ism: IA-64 only
    Start();
    const uint16_t load = ITA_SF_LOAD_MASK;
    Slot(7, 0x08048000ull, ITA_UNIT_M, 0, load, 0x0a000000ull, 3, 1);  // outside F and D
    EXPECT_EQ(Count(4), 7u) << "IA-32 instructions are not constrained by IBR/opcode";
    EXPECT_EQ(Count(5), 7u) << "nor by the data range";
    EXPECT_EQ(Count(6), 0u) << "ism is how software keeps them out";
}

TEST_P(Qual, EventsIgnoreQualifiersTheyDoNotSupport)
{
    IbrPair(0, F, kBlockMask);
    Opcode(8, kBrCloopPattern, 0);
    if (ita2)
        Pmc14(1);
    else
        Wr(PMC(13), 0);
    Counter(4, ITA_EV_CPU_CYCLES);      // iar = 0, opm = 0
    // iar = 1, opm = 0: FP_OPS_RETIRED on Itanium 2; Itanium has no modelled event of that
    // kind, so there it is INST_DISPERSED (libpfm-3 lib/itanium_events.h: es 0x2d, PMC4/5
    // only), a general event that each record raises on its slot.
    const char *iar_only = ita2 ? "FP_OPS_RETIRED" : "INST_DISPERSED";
    const ita_event_row *row = ita_event_find(GetParam().model, iar_only);
    ASSERT_NE(row, nullptr);
    ASSERT_EQ(row->iar * 2 + row->opm, 2) << iar_only << ": iar = 1, opm = 0";
    CounterRaw(5, row->code, row->umask);
    if (!ita2)
        slot_xev_name = iar_only;
    Counter(6, ITA_EV_IA64_INST_RETIRED);
    Start();
    const uint16_t fp = ITA_SF_FP_MASK;
    Slot(10, F + 0x80, ITA_UNIT_F, Major(8), fp);   // in F, not br.cloop
    Slot(20, F + 0x2000, ITA_UNIT_F, Major(8), fp); // outside F
    EXPECT_EQ(Count(4), 30u) << "CPU_CYCLES: no instruction, no tag";
    EXPECT_EQ(Count(5), 10u) << iar_only << ": the range applies, the opcode matcher does not";
    EXPECT_EQ(Count(6), 0u) << "IA64_INST_RETIRED: both apply";
}

std::vector<Param> AllParams()
{
    return {{"ref", ITA_MODEL_ITANIUM2}, {"ref", ITA_MODEL_ITANIUM},
            {"rtl", ITA_MODEL_ITANIUM2}, {"rtl", ITA_MODEL_ITANIUM}};
}

INSTANTIATE_TEST_SUITE_P(Backends, Qual, testing::ValuesIn(AllParams()), ParamName);

}  // namespace
