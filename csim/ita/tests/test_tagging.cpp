// test_tagging.cpp - ita-semantics.md "Event qualification by instruction
// address, opcode and data address": IBR pairs (bit-mask and fine mode),
// the opcode matchers PMC8/PMC9, DBR pairs, and how the tags combine on both
// register forms (Itanium: PMC13.ta / PMC8 / PMC11.pt; Itanium 2: PMC14 /
// PMC8 + PMC15 / PMC13 cfg and ena).  Every expected count is written by
// hand from the slot list next to it.
#include "ref_test_util.h"

#include <vector>

using namespace reftest;

namespace {

const uint16_t LOAD = ITA_SF_LOAD_MASK, STORE = ITA_SF_STORE_MASK, FP = ITA_SF_FP_MASK,
               NOP = ITA_SF_NOP_MASK, L2_REF = ITA_SF_L2_REF_MASK;

// ---- instruction encodings (41 bits) -----------------------------------------
// Major opcode instr{40:37}; branch type instr{8:6} (the br.cloop example of libpfm-3 examples_v3.x/ia64/ita2_opcode.c).
constexpr unsigned MAJOR_LSB = 37, BTYPE_LSB = 6;
uint64_t insn(unsigned major, unsigned btype = 0, uint64_t other = 0)
{
    return (uint64_t(major) << MAJOR_LSB) | (uint64_t(btype) << BTYPE_LSB) | other;
}


// Itanium 2 PMC15: bit k = 1: pair k not tied to its opcode matcher.
uint64_t pmc15(unsigned untied)
{
    uint64_t v = 0;
    v = ITA_FSET(v, PMC15, IBRP0_PMC8, (untied >> 0) & 1);
    v = ITA_FSET(v, PMC15, IBRP1_PMC9, (untied >> 1) & 1);
    v = ITA_FSET(v, PMC15, IBRP2_PMC8, (untied >> 2) & 1);
    return ITA_FSET(v, PMC15, IBRP3_PMC9, (untied >> 3) & 1);
}
// Itanium 2 PMC13: cfg_dbrp_k and ena_dbrp_k.
uint64_t pmc13(const unsigned cfg[4], unsigned ena)
{
    uint64_t v = 0;
    v = ITA_FSET(v, PMC13, CFG_DBRP0, cfg[0]);
    v = ITA_FSET(v, PMC13, CFG_DBRP1, cfg[1]);
    v = ITA_FSET(v, PMC13, CFG_DBRP2, cfg[2]);
    v = ITA_FSET(v, PMC13, CFG_DBRP3, cfg[3]);
    v = ITA_FSET(v, PMC13, ENA_DBRP0, (ena >> 0) & 1);
    v = ITA_FSET(v, PMC13, ENA_DBRP1, (ena >> 1) & 1);
    v = ITA_FSET(v, PMC13, ENA_DBRP2, (ena >> 2) & 1);
    return ITA_FSET(v, PMC13, ENA_DBRP3, (ena >> 3) & 1);
}
uint64_t pmc13_pair0(unsigned cfg0, unsigned ena0)
{
    const unsigned cfg[4] = {cfg0, 3, 3, 3};
    return pmc13(cfg, ena0);
}
// Itanium PMC13.ta and PMC11.pt.
uint64_t ita_pmc13(unsigned ta) { return ITA_FSET(0, PMC13, TA, ta); }
uint64_t ita_pmc11(unsigned pt) { return ITA_FSET(0, PMC11, PT, pt); }

const int TAGGED[4] = {ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9,
                       ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP2_PMC8, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP3_PMC9};

// ---- the Table 6-3 program ---------------------------------------------------
// Code: function F = [F_LO, F_LO + 0x100) (16 bundles) and code elsewhere (OUT).
// Data: buffer D = [D_LO, D_LO + 0x1000) and data elsewhere (OUT_D).
const uint64_t F_LO = 0x4000000000010000ull, F_SIZE = 0x100, OUT = 0x4000000000020000ull;
const uint64_t D_LO = 0x6000000000100000ull, D_SIZE = 0x1000, OUT_D = 0x6000000000200000ull;
const uint64_t LD = insn(4, 0, 0x123), ST = insn(5, 0, 0x40), ADD = insn(8), FMA = insn(8, 0, 0x7),
               CLOOP = insn(4, 5);

// Slot  ip         unit  major  flags          data
// S1    F          M     4      LOAD           in D
// S2    F          M     4      LOAD           OUT_D
// S3    F+0x10     I     8      -
// S4    F+0xf0     B     4      (br.cloop)
// S5    OUT        M     4      LOAD           in D (last word)
// S6    OUT        M     5      STORE, L2_REF  in D
// S7    OUT+0x10   B     4      (br.cloop)
// S8    OUT+0x20   F     8      FP
// S9    F+0x20     F     8      FP
// S10   F+0x30     M     5      STORE, L2_REF  in D
ita_cycle program_a(unsigned cpl = 3)
{
    return rec({slot(F_LO, ITA_UNIT_M, LD, LOAD, D_LO + 0x8), slot(F_LO, ITA_UNIT_M, LD, LOAD, OUT_D),
                slot(F_LO + 0x10, ITA_UNIT_I, ADD), slot(F_LO + 0xf0, ITA_UNIT_B, CLOOP),
                slot(OUT, ITA_UNIT_M, LD, LOAD, D_LO + D_SIZE - 8),
                slot(OUT, ITA_UNIT_M, ST, uint16_t(STORE | L2_REF), D_LO + 0x100)},
               cpl);
}
ita_cycle program_b(unsigned cpl = 3)
{
    return rec({slot(OUT + 0x10, ITA_UNIT_B, CLOOP), slot(OUT + 0x20, ITA_UNIT_F, FMA, FP),
                slot(F_LO + 0x20, ITA_UNIT_F, FMA, FP),
                slot(F_LO + 0x30, ITA_UNIT_M, ST, uint16_t(STORE | L2_REF), D_LO + 0x200)},
               cpl);
}

struct Counts {
    uint64_t v[4];
};
// Runs the program `times` times and reads PMD4..7.
Counts run_program(Ref &r, unsigned times, unsigned cpl = 3)
{
    for (unsigned i = 0; i < 4; i++)
        r.write(pmd(4 + i), 0);
    for (unsigned t = 0; t < times; t++) {
        r.step(program_a(cpl));
        r.step(program_b(cpl));
    }
    Counts c;
    for (unsigned i = 0; i < 4; i++)
        c.v[i] = r.read(pmd(4 + i));
    return c;
}
// PMC7's event: FP_OPS_RETIRED (iar only) on Itanium 2; Itanium has no floating-point
// event of its own and no slot event qualified by the instruction range alone, so there
// PMC7 counts STORES_RETIRED (iar, opm and dar: the same slots as PMC6).
int pmc7_event(ita_model m) { return m == ITA_MODEL_ITANIUM2 ? ITA_EV_FP_OPS_RETIRED : ITA_EV_STORES_RETIRED; }
// PMC4 IA64_INST_RETIRED, PMC5 LOADS_RETIRED, PMC6 L2_REFERENCES (the stores), PMC7 pmc7_event().
void program_counters(Ref &r, ita_model m)
{
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED, m));
    r.program(5, event_pmc(ITA_EV_LOADS_RETIRED, m));
    r.program(6, event_pmc(ITA_EV_L2_REFERENCES, m));
    r.program(7, event_pmc(pmc7_event(m), m));
}

class Tagging : public ModelTest {};
INSTANTIATE_BOTH_MODELS(Tagging);

} // namespace

// ---- Table 6-3: the seven modes on both register forms ----------------------------

TEST_P(Tagging, Table63Modes)
{
    const bool ita2 = model() == ITA_MODEL_ITANIUM2;
    struct Mode {
        const char *name;
        bool instr, opcode, data;
        unsigned inst, loads, stores, fp; // per run of program a + b
    } const modes[] = {
        // INST: every slot passing the instruction tags; LOADS/stores: dar = 1;
        // FP_OPS_RETIRED (Itanium 2): iar only (opm = 0).
        {"unconstrained", false, false, false, 10, 3, 2, 2},
        {"instruction range only", true, false, false, 6, 2, 1, 1},     // S1-S4, S9, S10
        {"opcode only", false, true, false, 3, 3, 0, 2},                // M major 4: S1, S2, S5
        {"data range only", false, false, true, 10, 2, 2, 2},           // loads S1, S5; stores S6, S10
        {"instruction range and opcode", true, true, false, 2, 2, 0, 1}, // S1, S2
        {"instruction and data range", true, false, true, 6, 1, 1, 1},   // load S1, store S10
        {"opcode and data range", false, true, true, 3, 2, 0, 2},        // loads S1, S5
    };
    // libpfm's iod_tab: PMC13 cfg_dbrp0 for I(4) | O(2) | D(1); ena = (iod != 0).
    const unsigned iod_tab[8] = {3, 2, 3, 0, 1, 0, 1, 0};
    for (const Mode &md : modes) {
        Ref r(params(model()));
        program_counters(r, model());
        set_ibr_pair(r, 0, F_LO, F_SIZE);
        set_dbr_pair(r, 0, D_LO, D_SIZE);
        const Opc desired = major_opcode(4, ITA_UNIT_M);
        if (!ita2) {
            // Table 6-3 verbatim: PMC13.ta, PMC8, PMC11.pt.
            r.write(pmc(13), ita_pmc13(md.instr ? 0 : 1));
            r.write(pmc(8), md.opcode ? desired.value() : ~uint64_t(0));
            r.write(pmc(11), ita_pmc11(md.data ? 0 : 1));
        } else {
            Opc p8 = md.opcode ? desired : Opc();
            r.write(pmc(8), p8.with_ig_ad(md.instr ? 0 : 1).with_inv(0).value());
            r.write(pmc(14), pmc14(md.instr ? 0xe : 0xf));
            r.write(pmc(15), pmc15(md.opcode ? 0xe : 0xf));
            const unsigned iod = (md.instr ? 4 : 0) | (md.opcode ? 2 : 0) | (md.data ? 1 : 0);
            r.write(pmc(13), pmc13_pair0(iod_tab[iod], iod != 0));
        }
        const Counts c = run_program(r, 3);
        EXPECT_EQ(c.v[0], 3u * md.inst) << md.name << ": IA64_INST_RETIRED";
        EXPECT_EQ(c.v[1], 3u * md.loads) << md.name << ": LOADS_RETIRED";
        EXPECT_EQ(c.v[2], 3u * md.stores) << md.name << ": L2_REFERENCES (stores)";
        EXPECT_EQ(c.v[3], 3u * (ita2 ? md.fp : md.stores)) << md.name << ": " << ita_event_table[pmc7_event(model())].name;
    }
}

// Itanium 2: the Itanium register form of a mode (PMC13.ta, PMC11.pt) does
// nothing there, and the Itanium 2 form does nothing on Itanium.
TEST_P(Tagging, TheOtherModelsFormHasNoEffect)
{
    const bool ita2 = model() == ITA_MODEL_ITANIUM2;
    Ref r(params(model()));
    program_counters(r, model());
    set_ibr_pair(r, 0, F_LO, F_SIZE);
    set_dbr_pair(r, 0, D_LO, D_SIZE);
    if (ita2) {
        r.write(pmc(13), ita_pmc13(0)); // would be "instruction range" on Itanium
        r.write(pmc(11), ita_pmc11(0)); // would be "data range" on Itanium
    } else {
        r.write(pmc(14), pmc14(0x0, 1)); // reads 0 on Itanium
        r.write(pmc(15), pmc15(0x0));
        EXPECT_EQ(r.read(pmc(14)), 0u);
        EXPECT_EQ(r.read(pmc(15)), 0u);
        r.write(pmc(13), ita_pmc13(1) | pmc13_pair0(0, 1)); // cfg/ena are not Itanium fields
        r.write(pmc(8), Opc().with_ig_ad(0).with_inv(1).value()); // not Itanium fields
    }
    const Counts c = run_program(r, 2);
    EXPECT_EQ(c.v[0], 20u);
    EXPECT_EQ(c.v[1], 6u);
    EXPECT_EQ(c.v[2], 4u);
    EXPECT_EQ(c.v[3], 4u); // two FP slots or two stores a run
}

// ---- the br.cloop example (libpfm-3 examples_v3.x/ia64/ita2_opcode.c) ---------------------

TEST_P(Tagging, BrCloopExampleCountsExactlyTheCloops)
{
    const bool ita2 = model() == ITA_MODEL_ITANIUM2;
    Opc cloop;
    cloop.match = 0x2000140; // major opcode 4 in field[26:23], btype 5 in field[8:6]
    cloop.mask = 0x07ffe3f;  // both must match, everything else is don't care
    cloop.units(0, 0, 0, 1); // b slots only
    cloop.ig_ad = 0;
    EXPECT_EQ(cloop.value(), 0x1400028003fff1f8ull) << "the example's derived PMC8 value";

    Ref r(params(model()));
    r.start();
    // Itanium has the tagged event of pair 0 only (IA64_INST_RETIRED, umask 0), so there
    // PMC4 alone counts, with PMC8.
    for (unsigned k = 0; k < 4; k++)
        if (implemented(model(), TAGGED[k]))
            r.program(4 + k, event_pmc(TAGGED[k], model()));
    if (ita2) {
        r.write(pmc(8), cloop.with_ig_ad(1).value()); // no address range
        r.write(pmc(15), pmc15(0xa));                 // pairs 0 and 2 tied to PMC8
        EXPECT_EQ(r.read(pmc(8)), 0x1400028003fff1fdull) << "ig_ad set, bit 2 reads 1";
    } else {
        r.write(pmc(8), cloop.value());
        EXPECT_EQ(r.read(pmc(8)), 0x1400028003fff1f8ull);
    }
    // Don't-care bits of a br.cloop: bit 12 (qualifying predicate) and the
    // displacement imm20b in bits 32:13 (of which 32:27 are in the matcher).
    const uint64_t cloop_a = insn(4, 5, (uint64_t(0x5a5a5) << 13) | (1u << 12) | 0x3f);
    const uint64_t cloop_b = insn(4, 5, uint64_t(0xfffff) << 13);
    const uint64_t ip = 0x4000000000003000ull;
    std::vector<ita_cycle> stream = {
        rec({slot(ip, ITA_UNIT_M, insn(4, 5)), slot(ip, ITA_UNIT_I, insn(4, 5)),
             slot(ip, ITA_UNIT_B, cloop_a)}),                         // cloop: 1
        rec({slot(ip + 0x10, ITA_UNIT_B, insn(4, 0)),                 // br.cond
             slot(ip + 0x10, ITA_UNIT_B, insn(4, 2)),                 // br.wexit
             slot(ip + 0x10, ITA_UNIT_B, insn(4, 7)),                 // br.ctop
             slot(ip + 0x20, ITA_UNIT_B, insn(5, 5)),                 // br.call, btype bits 5
             slot(ip + 0x20, ITA_UNIT_B, insn(0, 4)),                 // br.ret
             slot(ip + 0x20, ITA_UNIT_F, insn(4, 5))}),               // F slot
        rec({slot(ip + 0x30, ITA_UNIT_B, cloop_b), slot(ip + 0x40, ITA_UNIT_B, insn(4, 5))}), // cloops: 2
        rec({slot(ip + 0x50, ITA_UNIT_B, insn(12, 5)),                // major 12 = 4 | 8: bit 40 differs
             slot(ip + 0x50, ITA_UNIT_B, insn(4, 5))}),               // cloop: 1
    };
    for (const ita_cycle &c : stream)
        r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 4u) << "IBRP0/PMC8 counts the br.cloop instructions";
    EXPECT_EQ(r.read(pmd(6)), ita2 ? 4u : 0u) << "IBRP2/PMC8 counts the br.cloop instructions";
    EXPECT_EQ(r.read(pmd(5)), ita2 ? 13u : 0u) << "IBRP1/PMC9: PMC9 matches every slot";
    EXPECT_EQ(r.read(pmd(7)), ita2 ? 13u : 0u) << "IBRP3/PMC9: PMC9 matches every slot";
}

// Each unit enable of a matcher admits exactly the slots of that unit; the
// matcher compares instruction bits {40:27,12:0} and ignores bits 26:13.
TEST_P(Tagging, OpcodeUnitEnablesAndComparedBits)
{
    const bool ita2 = model() == ITA_MODEL_ITANIUM2;
    Ref r(params(model()));
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED, model()));
    if (ita2)
        r.write(pmc(15), pmc15(0xe));
    const uint64_t ip = 0x4000000000004000ull;
    const ita_cycle units = rec({slot(ip, ITA_UNIT_M, 0), slot(ip, ITA_UNIT_M, 0), slot(ip, ITA_UNIT_I, 0),
                                 slot(ip, ITA_UNIT_F, 0), slot(ip + 0x10, ITA_UNIT_B, 0),
                                 slot(ip + 0x10, ITA_UNIT_B, 0)});
    const unsigned per_unit[4] = {2, 1, 1, 2}; // M, I, F, B
    for (unsigned u = 0; u < 4; u++) {
        Opc o;
        o.units(u == ITA_UNIT_M, u == ITA_UNIT_I, u == ITA_UNIT_F, u == ITA_UNIT_B);
        r.write(pmc(8), o.value());
        EXPECT_EQ(r.delta(4, units), per_unit[u]) << "unit " << u;
    }
    Opc none;
    none.units(0, 0, 0, 0);
    r.write(pmc(8), none.value());
    EXPECT_EQ(r.delta(4, units), 0u) << "no unit enabled";

    // Every one of the 27 field bits must match; instruction bits 26:13 are
    // not among them.
    Opc exact;
    exact.match = 0x5555555 & OPC_ALL;
    exact.mask = 0;
    r.write(pmc(8), exact.value());
    const uint64_t enc = (uint64_t(0x5555555 >> 13) << 27) | (0x5555555 & 0x1fff);
    const ita_cycle same = rec({slot(ip, ITA_UNIT_I, enc), slot(ip, ITA_UNIT_I, enc | (uint64_t(0x3fff) << 13)),
                                slot(ip, ITA_UNIT_I, enc ^ (uint64_t(1) << 40)),   // bit 40
                                slot(ip, ITA_UNIT_I, enc ^ (uint64_t(1) << 27)),   // bit 27
                                slot(ip, ITA_UNIT_I, enc ^ (uint64_t(1) << 12)),   // bit 12
                                slot(ip, ITA_UNIT_I, enc ^ 1)});                   // bit 0
    EXPECT_EQ(r.delta(4, same), 2u);
}

// ---- instruction-address range edges (bit-mask mode) ---------------------------

// Programs pair 0 to constrain IA64_INST_RETIRED: Itanium ta = 0, Itanium 2 ibrp0 = 0, ig_ad = 0.
static void constrain_by_pair0(Ref &r, ita_model m)
{
    if (m == ITA_MODEL_ITANIUM) {
        r.write(pmc(13), ita_pmc13(0));
    } else {
        r.write(pmc(14), pmc14(0xe));
        r.write(pmc(8), Opc().with_ig_ad(0).value());
    }
}

TEST_P(Tagging, InstructionRangeEdges)
{
    Ref r(params(model()));
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED, model()));
    constrain_by_pair0(r, model());
    set_ibr_pair(r, 0, F_LO, F_SIZE);
    auto one = [](uint64_t ip, unsigned cpl = 3) { return rec({slot(ip, ITA_UNIT_I, ADD)}, cpl); };

    EXPECT_EQ(r.delta(4, one(F_LO)), 1u) << "first bundle";
    EXPECT_EQ(r.delta(4, one(F_LO + F_SIZE - 0x10)), 1u) << "last bundle";
    EXPECT_EQ(r.delta(4, one(F_LO + F_SIZE)), 0u) << "first bundle after";
    EXPECT_EQ(r.delta(4, one(F_LO - 0x10)), 0u) << "last bundle before";
    EXPECT_EQ(r.delta(4, one(F_LO | (uint64_t(1) << 56))), 0u) << "bit 56 differs";
    EXPECT_EQ(r.delta(4, one(F_LO ^ (uint64_t(0x80) << 56))), 0u) << "bit 63 differs";
    EXPECT_EQ(r.delta(4, one(F_LO | 0xf)), 1u) << "ip bits 3:0 are ignored";

    // Mask field 0: only bits 63:56 are compared.
    r.write(ibr(1), ibr_odd(0, 0xf));
    EXPECT_EQ(r.delta(4, one(0x40ffffffffff0000ull)), 1u);
    EXPECT_EQ(r.delta(4, one(0x4000000000000000ull)), 1u);
    EXPECT_EQ(r.delta(4, one(0x4100000000010000ull)), 0u) << "bits 63:56 always compared";
    EXPECT_EQ(r.delta(4, one(0x3f00000000010000ull)), 0u);

    // Full mask: one bundle; address bits 3:0 of IBR0 are ignored too.
    r.write(ibr(0), F_LO | 0xf);
    r.write(ibr(1), ibr_odd(ITA_FMASK(IBR_MASK, MASK), 0xf));
    EXPECT_EQ(r.delta(4, one(F_LO)), 1u);
    EXPECT_EQ(r.delta(4, one(F_LO + 0x10)), 0u);

    // An unaligned address in IBR0 covers the aligned block containing it.
    set_ibr_pair(r, 0, F_LO + 0x48, F_SIZE);
    EXPECT_EQ(r.delta(4, one(F_LO)), 1u);
    EXPECT_EQ(r.delta(4, one(F_LO + 0xf0)), 1u);
    EXPECT_EQ(r.delta(4, one(F_LO + 0x100)), 0u);

    // The pair's plm: the pair matches only at the levels it names.
    set_ibr_pair(r, 0, F_LO, F_SIZE, 0x8);
    EXPECT_EQ(r.delta(4, one(F_LO, 3)), 1u);
    EXPECT_EQ(r.delta(4, one(F_LO, 0)), 0u) << "pair plm excludes cpl 0";
    set_ibr_pair(r, 0, F_LO, F_SIZE, 0x1);
    EXPECT_EQ(r.delta(4, one(F_LO, 0)), 1u);
    EXPECT_EQ(r.delta(4, one(F_LO, 3)), 0u);
    EXPECT_EQ(r.delta(4, one(F_LO, 1)), 0u);
    // x (execute) is a debug bit: no effect.
    r.write(ibr(1), ibr_odd(block_mask(F_SIZE), 0x1, 1));
    EXPECT_EQ(r.delta(4, one(F_LO, 0)), 1u);
    EXPECT_EQ(r.delta(4, one(F_LO + F_SIZE, 0)), 0u);

    // Reset IBRs (plm 0) match nothing.
    r.write(ibr(0), 0);
    r.write(ibr(1), 0);
    EXPECT_EQ(r.delta(4, one(0)), 0u);
}

// Itanium: with ta = 0 an instruction is tagged when ANY pair matches, so the
// retired-instruction count (whose tag is pair 0's on Itanium 2) and the memory events
// see the ranges of pairs 1 and 3.
TEST(TaggingItanium, AnyPairTagsTheInstruction)
{
    Ref r(params(ITA_MODEL_ITANIUM));
    r.start();
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED, ITA_MODEL_ITANIUM));
    r.program(6, event_pmc(ITA_EV_LOADS_RETIRED, ITA_MODEL_ITANIUM));
    r.write(pmc(13), ita_pmc13(0));
    set_ibr_pair(r, 1, F_LO, F_SIZE);
    set_ibr_pair(r, 3, OUT, 0x10);
    const ita_cycle c = rec({slot(F_LO, ITA_UNIT_M, LD, LOAD, D_LO), slot(OUT, ITA_UNIT_I, ADD),
                             slot(OUT + 0x10, ITA_UNIT_M, LD, LOAD, D_LO), slot(F_LO + 0x80, ITA_UNIT_B, CLOOP)});
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 3u) << "pairs 1 and 3 tag three slots";
    EXPECT_EQ(r.read(pmd(6)), 1u) << "the load in F; the one at OUT + 0x10 is outside";
}

// Itanium 2: PMC8.inv inverts the range of the pairs tied to PMC8 (0 and 2);
// PMC9's inv and ig_ad have no effect; PMC8.ig_ad ignores the range.
TEST(TaggingItanium2, InvertedRangeAndIgAd)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    r.start();
    for (unsigned k = 0; k < 4; k++)
        r.program(4 + k, event_pmc(TAGGED[k]));
    for (unsigned k = 0; k < 4; k++)
        set_ibr_pair(r, k, F_LO, F_SIZE, 0x8);
    r.write(pmc(14), pmc14(0x0));
    r.write(pmc(15), pmc15(0xf));
    r.write(pmc(9), Opc().with_ig_ad(1).with_inv(1).value());
    auto three = [](unsigned cpl) {
        return rec({slot(F_LO + 0x40, ITA_UNIT_I, ADD), slot(F_LO + F_SIZE, ITA_UNIT_I, ADD),
                    slot(OUT, ITA_UNIT_I, ADD)},
                   cpl);
    };
    // inv = 0.
    r.write(pmc(8), Opc().with_ig_ad(0).with_inv(0).value());
    r.step(three(3));
    // inv = 1: pairs 0 and 2 count the slots outside.
    r.write(pmc(8), Opc().with_ig_ad(0).with_inv(1).value());
    r.step(three(3));
    EXPECT_EQ(r.read(pmd(4)), 1u + 2u) << "IBRP0: inside, then outside";
    EXPECT_EQ(r.read(pmd(6)), 1u + 2u) << "IBRP2: inside, then outside";
    EXPECT_EQ(r.read(pmd(5)), 1u + 1u) << "IBRP1: PMC9.inv and .ig_ad have no effect";
    EXPECT_EQ(r.read(pmd(7)), 1u + 1u) << "IBRP3: PMC9.inv and .ig_ad have no effect";
    // At a level the pairs' plm excludes nothing hits: inverted, everything passes.
    for (unsigned k = 0; k < 4; k++)
        r.write(pmd(4 + k), 0);
    r.step(three(0));
    EXPECT_EQ(r.read(pmd(4)), 3u);
    EXPECT_EQ(r.read(pmd(5)), 0u);
    EXPECT_EQ(r.read(pmd(6)), 3u);
    EXPECT_EQ(r.read(pmd(7)), 0u);
    // ig_ad = 1: pairs 0 and 2 are not constrained (inv or not); 1 and 3 still are.
    r.write(pmc(8), Opc().with_ig_ad(1).with_inv(1).value());
    for (unsigned k = 0; k < 4; k++)
        r.write(pmd(4 + k), 0);
    r.step(three(3));
    EXPECT_EQ(r.read(pmd(4)), 3u);
    EXPECT_EQ(r.read(pmd(5)), 1u);
    EXPECT_EQ(r.read(pmd(6)), 3u);
    EXPECT_EQ(r.read(pmd(7)), 1u);
    // ibrp_k = 1 unconstrains pair k alone.
    r.write(pmc(8), Opc().with_ig_ad(0).with_inv(0).value());
    r.write(pmc(14), pmc14(0x6)); // pairs 1 and 2 free
    for (unsigned k = 0; k < 4; k++)
        r.write(pmd(4 + k), 0);
    r.step(three(3));
    EXPECT_EQ(r.read(pmd(4)), 1u);
    EXPECT_EQ(r.read(pmd(5)), 3u);
    EXPECT_EQ(r.read(pmd(6)), 3u);
    EXPECT_EQ(r.read(pmd(7)), 1u);
}

// ---- fine mode (Itanium 2) ------------------------------------------------------

namespace {
const uint64_t PAGE = 0x4000000000012000ull;
// Pair `lo_pair` (0 or 1) as the lower bound, pair lo_pair + 2 as the upper
// bound.  The masks are full (compare every bit): in bit-mask mode each pair
// would match its own bundle only, so a count inside the range shows that
// fine mode ignores them.
void set_fine(Ref &r, unsigned lo_pair, uint64_t lo, uint64_t hi, unsigned plm_lo = 0xf, unsigned plm_hi = 0xf)
{
    r.write(ibr(2 * lo_pair), lo);
    r.write(ibr(2 * lo_pair + 1), ibr_odd(ITA_FMASK(IBR_MASK, MASK), plm_lo));
    r.write(ibr(2 * (lo_pair + 2)), hi);
    r.write(ibr(2 * (lo_pair + 2) + 1), ibr_odd(ITA_FMASK(IBR_MASK, MASK), plm_hi));
}
ita_cycle at(uint64_t ip, unsigned cpl = 3) { return rec({slot(ip, ITA_UNIT_I, ADD)}, cpl); }
} // namespace

TEST(TaggingItanium2, FineModeRangeA)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    r.start();
    r.program(4, event_pmc(TAGGED[0]));
    r.program(5, event_pmc(TAGGED[1]));
    r.program(6, event_pmc(TAGGED[2]));
    r.program(7, event_pmc(TAGGED[3]));
    r.write(pmc(8), Opc().with_ig_ad(0).value());
    r.write(pmc(14), pmc14(0xa, 1)); // pairs 0 and 2 constrained, fine
    r.write(pmc(15), pmc15(0xf));
    set_fine(r, 0, PAGE + 0x100, PAGE + 0x1f0);
    struct {
        uint64_t ip;
        unsigned in;
        const char *what;
    } const rows[] = {
        {PAGE + 0x0f0, 0, "bundle below the lower bound"},
        {PAGE + 0x100, 1, "lower bound"},
        {PAGE + 0x180, 1, "inside"},
        {PAGE + 0x1f0, 1, "upper bound (inclusive)"},
        {PAGE + 0x200, 0, "bundle above the upper bound"},
        {PAGE + 0x1000 + 0x180, 0, "same offset, next page"},
        {PAGE - 0x1000 + 0x180, 0, "same offset, previous page"},
        {(PAGE + 0x180) ^ (uint64_t(1) << 60), 0, "bit 60 differs"},
    };
    for (const auto &row : rows) {
        for (unsigned k = 0; k < 4; k++)
            r.write(pmd(4 + k), 0);
        r.step(at(row.ip));
        EXPECT_EQ(r.read(pmd(4)), row.in) << "IBRP0: " << row.what;
        EXPECT_EQ(r.read(pmd(6)), row.in) << "IBRP2: " << row.what;
        EXPECT_EQ(r.read(pmd(5)), 1u) << "IBRP1 is not constrained: " << row.what;
        EXPECT_EQ(r.read(pmd(7)), 1u) << "IBRP3 is not constrained: " << row.what;
    }
    // Both bounds' plm must allow the level.
    set_fine(r, 0, PAGE + 0x100, PAGE + 0x1f0, 0xf, 0x1);
    EXPECT_EQ(r.delta(4, at(PAGE + 0x180, 3)), 0u) << "upper pair's plm excludes cpl 3";
    EXPECT_EQ(r.delta(4, at(PAGE + 0x180, 0)), 1u);
    set_fine(r, 0, PAGE + 0x100, PAGE + 0x1f0, 0x1, 0xf);
    EXPECT_EQ(r.delta(4, at(PAGE + 0x180, 3)), 0u) << "lower pair's plm excludes cpl 3";
    // The whole page: edges at both ends of the 4 KB page.
    set_fine(r, 0, PAGE, PAGE + 0xff0);
    EXPECT_EQ(r.delta(4, at(PAGE)), 1u);
    EXPECT_EQ(r.delta(4, at(PAGE + 0xff0)), 1u);
    EXPECT_EQ(r.delta(4, at(PAGE + 0x1000)), 0u) << "first bundle of the next page";
    EXPECT_EQ(r.delta(4, at(PAGE - 0x10)), 0u) << "last bundle of the previous page";
    // The upper bound's page bits are not compared: the range lies in the lower bound's page.
    set_fine(r, 0, PAGE + 0x100, PAGE + 0x51f0);
    EXPECT_EQ(r.delta(4, at(PAGE + 0x1f0)), 1u);
    EXPECT_EQ(r.delta(4, at(PAGE + 0x51f0)), 0u);
    // Leaving fine mode: the same registers are masks again (full masks: one bundle each).
    set_fine(r, 0, PAGE + 0x100, PAGE + 0x1f0);
    r.write(pmc(14), pmc14(0xa, 0));
    EXPECT_EQ(r.delta(4, at(PAGE + 0x100)), 1u);
    EXPECT_EQ(r.delta(4, at(PAGE + 0x180)), 0u);
    EXPECT_EQ(r.delta(6, at(PAGE + 0x1f0)), 1u) << "pair 2 alone: its own bundle";
}

TEST(TaggingItanium2, FineModeRangeBAndInversion)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    r.start();
    for (unsigned k = 0; k < 4; k++)
        r.program(4 + k, event_pmc(TAGGED[k]));
    r.write(pmc(8), Opc().with_ig_ad(0).with_inv(1).value());
    r.write(pmc(14), pmc14(0x0, 1)); // all pairs constrained, fine
    r.write(pmc(15), pmc15(0xf));
    set_fine(r, 0, PAGE + 0x100, PAGE + 0x1f0); // range A
    set_fine(r, 1, PAGE + 0x400, PAGE + 0x400); // range B: one bundle
    const ita_cycle c = rec({slot(PAGE + 0x100, ITA_UNIT_I, ADD), slot(PAGE + 0x400, ITA_UNIT_I, ADD),
                             slot(PAGE + 0x410, ITA_UNIT_I, ADD)});
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 2u) << "pair 0: range A inverted";
    EXPECT_EQ(r.read(pmd(6)), 2u) << "pair 2: range A inverted";
    EXPECT_EQ(r.read(pmd(5)), 1u) << "pair 1: range B";
    EXPECT_EQ(r.read(pmd(7)), 1u) << "pair 3: range B";
}

TEST(TaggingItanium2, FineModeTwoBundleGranularity)
{
    for (int two = 0; two <= 1; two++) {
        Ref r(params(ITA_MODEL_ITANIUM2, 1, 0, two));
        r.start();
        r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED));
        r.write(pmc(8), Opc().with_ig_ad(0).value());
        r.write(pmc(14), pmc14(0xe, 1));
        set_fine(r, 0, PAGE + 0x110, PAGE + 0x1e0);
        const std::string ctx = two ? "fine_2bundle = 1" : "fine_2bundle = 0";
        // G = 5 compares bits 11:5: 0x100 and 0x110 are one pair of bundles, 0x1e0 and 0x1f0 another.
        EXPECT_EQ(r.delta(4, at(PAGE + 0x0f0)), 0u) << ctx;
        EXPECT_EQ(r.delta(4, at(PAGE + 0x100)), unsigned(two)) << ctx;
        EXPECT_EQ(r.delta(4, at(PAGE + 0x110)), 1u) << ctx;
        EXPECT_EQ(r.delta(4, at(PAGE + 0x1e0)), 1u) << ctx;
        EXPECT_EQ(r.delta(4, at(PAGE + 0x1f0)), unsigned(two)) << ctx;
        EXPECT_EQ(r.delta(4, at(PAGE + 0x200)), 0u) << ctx;
    }
    ita_params bad = params(ITA_MODEL_ITANIUM2, 1, 0, 2);
    EXPECT_EQ(ita_ref_create(&bad), nullptr) << "fine_2bundle must be 0 or 1";
}

// ---- tagged retired-instruction events and PMC15 ties -----------------------------

namespace {
// Four code regions R0..R3, one per IBR pair, and in each (and outside) an M
// slot of major opcode 4 (PMC8's pattern), an I slot of major opcode 8
// (PMC9's pattern) and a B slot (neither).
const uint64_t R[4] = {0x4000000000100000ull, 0x4000000000200000ull, 0x4000000000300000ull,
                       0x4000000000400000ull};
const uint64_t R_OUT = 0x4000000000500000ull;
std::vector<ita_cycle> regions_program()
{
    std::vector<ita_cycle> v;
    for (uint64_t base : {R[0], R[1], R[2], R[3], R_OUT})
        v.push_back(rec({slot(base, ITA_UNIT_M, insn(4)), slot(base, ITA_UNIT_I, insn(8)),
                         slot(base, ITA_UNIT_B, insn(4, 5))}));
    return v;
}
void setup_regions(Ref &r, ita_model m)
{
    r.start();
    for (unsigned k = 0; k < 4; k++) {
        if (implemented(m, TAGGED[k]))
            r.program(4 + k, event_pmc(TAGGED[k], m));
        set_ibr_pair(r, k, R[k], 0x100);
    }
    r.write(pmc(8), major_opcode(4, ITA_UNIT_M).with_ig_ad(0).value());
    r.write(pmc(9), major_opcode(8, ITA_UNIT_I).value());
}
} // namespace

TEST(TaggingItanium2, TaggedEventsFollowPmc15Ties)
{
    struct {
        unsigned untied;
        unsigned n[4];
    } const rows[] = {
        {0xf, {3, 3, 3, 3}}, // range k only: the three slots of R_k
        {0x0, {1, 1, 1, 1}}, // k even: R_k and PMC8 (M slot); k odd: R_k and PMC9 (I slot)
        {0x5, {3, 1, 3, 1}},
        {0xa, {1, 3, 1, 3}},
        {0x9, {3, 1, 1, 3}},
    };
    for (const auto &row : rows) {
        Ref r(params(ITA_MODEL_ITANIUM2));
        setup_regions(r, ITA_MODEL_ITANIUM2);
        r.write(pmc(14), pmc14(0x0));
        r.write(pmc(15), pmc15(row.untied));
        for (const ita_cycle &c : regions_program())
            r.step(c);
        for (unsigned k = 0; k < 4; k++)
            EXPECT_EQ(r.read(pmd(4 + k)), row.n[k]) << "PMC15 = 0x" << std::hex << row.untied << ", umask " << k;
    }
    // Ranges free, ties on: umask k counts PMC8 (even) / PMC9 (odd) matches everywhere.
    Ref r(params(ITA_MODEL_ITANIUM2));
    setup_regions(r, ITA_MODEL_ITANIUM2);
    r.write(pmc(14), pmc14(0xf));
    r.write(pmc(15), pmc15(0x0));
    for (const ita_cycle &c : regions_program())
        r.step(c);
    for (unsigned k = 0; k < 4; k++)
        EXPECT_EQ(r.read(pmd(4 + k)), 5u) << "umask " << k;
}

// Itanium: IA64_INST_RETIRED (the tag of pair 0) goes with PMC8 and not with PMC9.  The
// Itanium tagged events of umask 2 and 3 (IA64_TAGGED_INST_RETIRED_PMC9/_PMC8) are general
// events (docs/architecture.md, "Modelled events"): the slots do not count them.
TEST(TaggingItanium, TaggedEventsUsePmc8OrPmc9)
{
    for (unsigned ta = 0; ta <= 1; ta++) {
        Ref r(params(ITA_MODEL_ITANIUM));
        setup_regions(r, ITA_MODEL_ITANIUM);
        r.program(5, raw_pmc(0x08, 2));
        r.write(pmc(13), ita_pmc13(ta));
        r.write(pmc(15), pmc15(0xf)); // no PMC15 on Itanium
        for (const ita_cycle &c : regions_program())
            r.step(c);
        // ta = 0: the M slot inside any range (4 regions); ta = 1: everywhere (5).
        EXPECT_EQ(r.read(pmd(4)), ta ? 5u : 4u) << "ta = " << ta;
        EXPECT_EQ(r.read(pmd(5)), 0u) << "ta = " << ta << ", umask 2";
        // PMC9 matching nothing changes nothing; PMC8 matching nothing stops the count.
        r.write(pmd(4), 0);
        r.write(pmc(9), matches_nothing().value());
        for (const ita_cycle &c : regions_program())
            r.step(c);
        EXPECT_EQ(r.read(pmd(4)), ta ? 5u : 4u) << "ta = " << ta << ", PMC9 matching nothing";
        r.write(pmd(4), 0);
        r.write(pmc(8), matches_nothing().value());
        for (const ita_cycle &c : regions_program())
            r.step(c);
        EXPECT_EQ(r.read(pmd(4)), 0u) << "ta = " << ta << ", PMC8 matching nothing";
    }
}

// ---- IA-32, events without a qualifier ------------------------------------------

// Everything constrained so that no IA-64 slot passes.
static void constrain_everything(Ref &r, ita_model m)
{
    set_ibr_pair(r, 0, 0x4000000000777000ull, 0x10);
    set_dbr_pair(r, 0, 0x6000000000777000ull, 0x10);
    if (m == ITA_MODEL_ITANIUM) {
        r.write(pmc(13), ita_pmc13(0));
        r.write(pmc(8), matches_nothing().value());
        r.write(pmc(9), matches_nothing().value());
        r.write(pmc(11), ita_pmc11(0));
    } else {
        r.write(pmc(8), matches_nothing().with_ig_ad(0).value());
        r.write(pmc(9), matches_nothing().value());
        r.write(pmc(14), pmc14(0x0));
        r.write(pmc(15), pmc15(0x0));
        const unsigned cfg[4] = {0, 0, 0, 0};
        r.write(pmc(13), pmc13(cfg, 0xf));
    }
}

TEST_P(Tagging, Ia32SlotsPassEveryTag)
{
    Ref r(params(model()));
    program_counters(r, model());
    constrain_everything(r, model());
    EXPECT_EQ(run_program(r, 1).v[0], 0u) << "IA-64: nothing passes";
    for (unsigned i = 0; i < 4; i++)
        r.write(pmd(4 + i), 0);
    ita_cycle a = program_a(), b = program_b();
    for (ita_cycle *c : {&a, &b}) {
        c->is = 1;
        for (unsigned s = 0; s < c->nslots; s++)
            c->slot[s].enc = 0; // IA-32 slots carry no IA-64 encoding
    }
    r.step(a);
    r.step(b);
    EXPECT_EQ(r.read(pmd(4)), 10u);
    EXPECT_EQ(r.read(pmd(5)), 3u);
    EXPECT_EQ(r.read(pmd(6)), 2u);
    EXPECT_EQ(r.read(pmd(7)), 2u);
    // ism still separates them: IA-64 only counts nothing in IA-32 cycles.
    r.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED, model()).with_ism(2));
    EXPECT_EQ(r.delta(4, a), 0u);
    // The tagged events too (Itanium has pair 0's only).
    for (unsigned k = 0; k < 4; k++) {
        if (!implemented(model(), TAGGED[k]))
            continue;
        r.program(4, event_pmc(TAGGED[k], model()));
        EXPECT_EQ(r.delta(4, a), 6u) << "umask " << k;
    }
}

// The events, their counters and their counts; Itanium has no FP_OPS_RETIRED and no
// L2_FORCE_RECIRC_ANY, so it tests NOPS_RETIRED and CPU_CYCLES.
struct Unqualified {
    int ev;
    unsigned ctr;
    const char *why;
    unsigned n[4]; // opcode, data range, instruction range matching nothing; nothing programmed
};
const Unqualified kUnqualified[] = {
    {ITA_EV_L2_FORCE_RECIRC_ANY, 4, "not attributed to an instruction; PMC4 only", {2, 2, 2, 2}},
    {ITA_EV_NOPS_RETIRED, 5, "dar = 0", {0, 2, 1, 2}},
    {ITA_EV_FP_OPS_RETIRED, 6, "opm = 0", {2, 2, 1, 2}},
    {ITA_EV_CPU_CYCLES, 7, "iar = opm = dar = 0", {1, 1, 1, 1}},
};
void program_unqualified(Ref &r, ita_model m)
{
    r.start();
    for (const Unqualified &u : kUnqualified)
        if (implemented(m, u.ev))
            r.program(u.ctr, event_pmc(u.ev, m));
}

TEST_P(Tagging, EventsWithoutAQualifierAreNotConstrainedByIt)
{
    ita_cycle c = rec({slot(F_LO, ITA_UNIT_F, FMA, FP), slot(F_LO, ITA_UNIT_I, insn(0), NOP),
                       slot(OUT, ITA_UNIT_F, FMA, FP), slot(OUT, ITA_UNIT_I, insn(0), NOP)});
    c.recirc = 2;
    const char *const modes[4] = {"opcode matching nothing", "data range matching nothing", "instruction range F",
                                  "nothing programmed"};
    for (unsigned mode = 0; mode < 4; mode++) {
        Ref m(params(model()));
        program_unqualified(m, model());
        if (mode < 3) {
            set_ibr_pair(m, 0, F_LO, F_SIZE);
            set_dbr_pair(m, 0, 0x6000000000777000ull, 0x10);
        }
        if (model() == ITA_MODEL_ITANIUM) {
            if (mode == 0)
                m.write(pmc(8), matches_nothing().value());
            if (mode == 1)
                m.write(pmc(11), ita_pmc11(0));
            if (mode == 2)
                m.write(pmc(13), ita_pmc13(0));
        } else {
            if (mode == 0) {
                m.write(pmc(8), matches_nothing().value());
                m.write(pmc(15), pmc15(0xe));
            }
            if (mode == 1)
                m.write(pmc(13), pmc13_pair0(2, 1));
            if (mode == 2) {
                m.write(pmc(8), Opc().with_ig_ad(0).value());
                m.write(pmc(14), pmc14(0xe));
            }
        }
        m.step(c);
        unsigned tested = 0;
        for (const Unqualified &u : kUnqualified) {
            if (!implemented(model(), u.ev))
                continue;
            EXPECT_EQ(m.read(pmd(u.ctr)), u.n[mode]) << modes[mode] << ": " << ita_event_table[u.ev].name << " ("
                                                      << u.why << ")";
            tested++;
        }
        EXPECT_EQ(tested, model() == ITA_MODEL_ITANIUM2 ? 4u : 2u);
    }
}

// ---- memory events: PMC13 (Itanium 2) and PMC11.pt (Itanium) ----------------------

// Loads of the program: S1 (in F, in D), S2 (in F, OUT_D), S5 (OUT, in D).
TEST(TaggingItanium2, Pmc13ConfigurationsAndNotActive)
{
    struct {
        const char *what;
        unsigned cfg[4];
        unsigned ena;
        uint64_t loads, inst;
    } const rows[] = {
        {"cfg 0: IBR + opcode + DBR", {0, 3, 3, 3}, 0x1, 1, 6},
        {"cfg 1: IBR + opcode", {1, 3, 3, 3}, 0x1, 2, 6},
        {"cfg 2: DBR only", {2, 3, 3, 3}, 0x1, 2, 6},
        {"cfg 3: not active, Tag(PMC8)", {3, 3, 3, 3}, 0x1, 2, 6},
        {"cfg 0 not enabled: not active", {0, 3, 3, 3}, 0x0, 2, 6},
        {"pair 1 cfg 1: IBR pair 1 (OUT)", {3, 1, 3, 3}, 0x2, 1, 6},
        {"pair 0 cfg 0 or pair 1 cfg 1", {0, 1, 3, 3}, 0x3, 2, 6},
        {"pairs 0 and 1 cfg 2: D or OUT_D", {2, 2, 3, 3}, 0x3, 3, 6},
        {"pair 1 cfg 2 enabled, pair 0 not", {2, 2, 3, 3}, 0x2, 1, 6},
        {"pair 2 cfg 0: no DBR pair 2 programmed", {3, 3, 0, 3}, 0x4, 0, 6},
    };
    for (const auto &row : rows) {
        Ref r(params(ITA_MODEL_ITANIUM2));
        program_counters(r, ITA_MODEL_ITANIUM2);
        set_ibr_pair(r, 0, F_LO, F_SIZE);
        set_ibr_pair(r, 1, OUT, 0x100);
        set_dbr_pair(r, 0, D_LO, D_SIZE);
        set_dbr_pair(r, 1, OUT_D, 0x100);
        r.write(pmc(8), Opc().with_ig_ad(0).value());
        r.write(pmc(14), pmc14(0xc)); // pairs 0 and 1 constrain
        r.write(pmc(15), pmc15(0xf));
        r.write(pmc(13), pmc13(row.cfg, row.ena));
        const Counts c = run_program(r, 1);
        EXPECT_EQ(c.v[1], row.loads) << row.what;
        EXPECT_EQ(c.v[0], row.inst) << row.what << ": instruction events use Tag(PMC8) only";
    }
}

TEST(TaggingItanium2, Pmc13PairUsesItsOpcodeTie)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    program_counters(r, ITA_MODEL_ITANIUM2);
    set_dbr_pair(r, 1, D_LO, D_SIZE);
    r.write(pmc(9), matches_nothing().value());
    const unsigned cfg[4] = {3, 0, 3, 3};
    r.write(pmc(13), pmc13(cfg, 0x2));
    r.write(pmc(15), pmc15(0xf));
    EXPECT_EQ(run_program(r, 1).v[1], 2u) << "pair 1 not tied: DBR pair 1 alone (S1, S5)";
    r.write(pmc(15), pmc15(0xd));
    EXPECT_EQ(run_program(r, 1).v[1], 0u) << "pair 1 tied to PMC9, which matches nothing";
}

TEST(TaggingItanium2, DataRangeEdgesAndPlm)
{
    Ref r(params(ITA_MODEL_ITANIUM2));
    r.start();
    r.program(4, event_pmc(ITA_EV_LOADS_RETIRED));
    r.program(5, event_pmc(ITA_EV_STORES_RETIRED));
    r.write(pmc(13), pmc13_pair0(2, 1));
    set_dbr_pair(r, 0, D_LO, D_SIZE, 0x8);
    auto ld = [](uint64_t a, unsigned cpl = 3) { return rec({slot(OUT, ITA_UNIT_M, LD, LOAD, a)}, cpl); };
    EXPECT_EQ(r.delta(4, ld(D_LO)), 1u) << "first byte";
    EXPECT_EQ(r.delta(4, ld(D_LO + D_SIZE - 1)), 1u) << "last byte (no bundle granularity for data)";
    EXPECT_EQ(r.delta(4, ld(D_LO + D_SIZE)), 0u) << "first byte after";
    EXPECT_EQ(r.delta(4, ld(D_LO - 1)), 0u) << "last byte before";
    EXPECT_EQ(r.delta(4, ld(D_LO ^ (uint64_t(1) << 62))), 0u) << "bit 62 differs";
    EXPECT_EQ(r.delta(4, ld(D_LO, 0)), 0u) << "pair plm excludes cpl 0";
    ita_cycle st = rec({slot(OUT, ITA_UNIT_M, ST, STORE, D_LO + 4)});
    EXPECT_EQ(r.delta(5, st), 1u) << "stores hit too";
    st.slot[0].daddr = OUT_D;
    EXPECT_EQ(r.delta(5, st), 0u);
    // Mask field 0: bits 63:56 only.
    r.write(dbr(1), dbr_odd(0, 0xf));
    EXPECT_EQ(r.delta(4, ld(0x60ffffffffffffffull)), 1u);
    EXPECT_EQ(r.delta(4, ld(0x6100000000000000ull)), 0u);
    // Full mask: one byte; unlike an IBR, a DBR compares address bits 3:0.
    r.write(dbr(0), D_LO + 9);
    r.write(dbr(1), dbr_odd(ITA_FMASK(DBR_MASK, MASK), 0xf));
    EXPECT_EQ(r.delta(4, ld(D_LO + 9)), 1u);
    EXPECT_EQ(r.delta(4, ld(D_LO + 8)), 0u);
    EXPECT_EQ(r.delta(4, ld(D_LO + 1)), 0u);
    r.write(dbr(0), D_LO);
    // r and w are debug bits: no effect.
    r.write(dbr(1), dbr_odd(block_mask(D_SIZE), 0xf, 1, 1));
    EXPECT_EQ(r.delta(4, ld(D_LO + 8)), 1u);
    EXPECT_EQ(r.delta(4, ld(OUT_D)), 0u);
}

TEST(TaggingItanium, PassTagsAndAnyDbrPair)
{
    Ref r(params(ITA_MODEL_ITANIUM));
    program_counters(r, ITA_MODEL_ITANIUM);
    set_dbr_pair(r, 0, D_LO, D_SIZE);
    set_dbr_pair(r, 2, OUT_D, 0x10);
    EXPECT_EQ(run_program(r, 1).v[1], 3u) << "pt = 1 (reset): loads pass";
    r.write(pmc(11), ita_pmc11(0));
    EXPECT_EQ(run_program(r, 1).v[1], 3u) << "pt = 0: D or OUT_D, every load";
    set_dbr_pair(r, 2, OUT_D, 0x10, 0x1);
    EXPECT_EQ(run_program(r, 1).v[1], 2u) << "pair 2 only at cpl 0";
    EXPECT_EQ(run_program(r, 1, 0).v[1], 3u) << "at cpl 0 it matches";
    // ta = 0 and the instruction range: Tag(PMC8) and the DBR check.
    r.write(pmc(13), ita_pmc13(0));
    set_ibr_pair(r, 0, F_LO, F_SIZE);
    EXPECT_EQ(run_program(r, 1).v[1], 1u) << "S1 only";
}

// ---- qualification registers take effect at once and reset ------------------------

TEST_P(Tagging, WritesTakeEffectAtOnceAndResetUnconstrains)
{
    Ref r(params(model()));
    program_counters(r, model());
    constrain_everything(r, model());
    EXPECT_EQ(run_program(r, 1).v[0], 0u);
    // Any qualification write re-decodes: free pair 0 by resetting IBR1 to match
    // everything in the region (mask 0), with ta/ibrp still constraining.
    r.write(ibr(1), ibr_odd(0, 0xf));
    if (model() == ITA_MODEL_ITANIUM)
        r.write(pmc(8), ~uint64_t(0));
    else
        r.write(pmc(15), pmc15(0xf));
    EXPECT_EQ(run_program(r, 1).v[0], 10u);
    constrain_everything(r, model());
    pmu_reset(r.get());
    program_counters(r, model());
    const Counts c = run_program(r, 1);
    EXPECT_EQ(c.v[0], 10u);
    EXPECT_EQ(c.v[1], 3u);
    EXPECT_EQ(c.v[2], 2u);
    EXPECT_EQ(c.v[3], 2u);
}
