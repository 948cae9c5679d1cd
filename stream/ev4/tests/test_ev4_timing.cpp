// The Alpha 21064 timing model (stream/ev4/ev4_timing.c, docs/real-programs-ev4.md): hand-
// assembled instruction sequences through the model, their records checked against what the
// sequence must cost (branch counts, cache misses from the geometry, dual issue of allowed
// and disallowed pairs, TLB misses and their PAL flows), every record validated by the ev4
// dialect, and the model's own counts against what its records show.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/ev4/ev4_cycle.h"
#include "common/pmu_dialect.h"
#include "stream/pmu_timing.h"

extern "C" const pmu_dialect pmu_dialect_ev4;

namespace {

const pmu_timing_ops *ops() { return pmu_dialect_ev4.timing; }

// ---- an assembler for the formats of AAH 3.3 ----
uint32_t mem(unsigned op, unsigned ra, unsigned rb, int disp) { return op << 26 | ra << 21 | rb << 16 | (uint16_t)disp; }
uint32_t bra(unsigned op, unsigned ra, int disp) { return op << 26 | ra << 21 | ((uint32_t)disp & 0x1fffff); }
uint32_t opr(unsigned op, unsigned fn, unsigned ra, unsigned rb, unsigned rc) { return op << 26 | ra << 21 | rb << 16 | fn << 5 | rc; }
uint32_t opl(unsigned op, unsigned fn, unsigned ra, unsigned lit, unsigned rc) { return op << 26 | ra << 21 | lit << 13 | 1u << 12 | fn << 5 | rc; }
uint32_t jmp(unsigned kind, unsigned ra, unsigned rb, unsigned hint) { return 0x1Au << 26 | ra << 21 | rb << 16 | kind << 14 | (hint & 0x3fff); }
uint32_t ADDQ(unsigned a, unsigned lit, unsigned c) { return opl(0x10, 0x20, a, lit, c); }
uint32_t SUBQ(unsigned a, unsigned lit, unsigned c) { return opl(0x10, 0x29, a, lit, c); }
uint32_t ADDT(unsigned a, unsigned b, unsigned c) { return opr(0x16, 0x0A0, a, b, c); }
uint32_t LDQ(unsigned a, unsigned b, int d) { return mem(0x29, a, b, d); }
uint32_t STQ(unsigned a, unsigned b, int d) { return mem(0x2D, a, b, d); }
uint32_t LDA(unsigned a, unsigned b, int d) { return mem(0x08, a, b, d); }
uint32_t BNE(unsigned a, int d) { return bra(0x3D, a, d); }
uint32_t BEQ(unsigned a, int d) { return bra(0x39, a, d); }
uint32_t BSR(unsigned a, int d) { return bra(0x34, a, d); }
uint32_t RET(unsigned rb) { return jmp(2, 31, rb, 1); }

pmu_rinsn insn(uint64_t pc, uint32_t w, uint64_t next = 0)
{
    pmu_rinsn i;
    memset(&i, 0, sizeof i);
    i.pc = pc;
    i.next_pc = next ? next : pc + 4;
    i.size = 4;
    for (int k = 0; k < 4; k++)
        i.bytes[k] = (uint8_t)(w >> (8 * k));
    i.pid = 77;
    i.user = 1;
    return i;
}

pmu_rinsn with_mem(pmu_rinsn i, uint64_t addr, bool store)
{
    i.nmem = 1;
    i.mem[0].addr = addr;
    i.mem[0].store = store ? 1 : 0;
    i.mem[0].size = 8;
    return i;
}

struct Ev4Run {
    std::vector<ev4_cycle> recs;
    pmu_timing_stats st;
    std::string invalid; // the first validation failure
    uint64_t given = 0;

    static int emit(void *ctx, const void *rec, pmu_err *)
    {
        Ev4Run *r = static_cast<Ev4Run *>(ctx);
        ev4_cycle c;
        memcpy(&c, rec, sizeof c);
        pmu_err e;
        memset(&e, 0, sizeof e);
        if (r->invalid.empty() && pmu_dialect_ev4.validate(&c, "rec", &e) != 0)
            r->invalid = e.msg;
        r->recs.push_back(c);
        return 0;
    }

    Ev4Run(const std::vector<pmu_rinsn> &prog, const std::vector<std::string> &over = {})
    {
        std::vector<uint64_t> v(ops()->nparams);
        pmu_timing_defaults(ops(), v.data());
        pmu_err e;
        for (const std::string &a : over)
            EXPECT_EQ(pmu_timing_set(ops(), v.data(), a.c_str(), "--param", &e), 0) << e.msg;
        pmu_timing *t = ops()->create(v.data(), &e);
        EXPECT_NE(t, nullptr) << e.msg;
        if (!t)
            return;
        for (const pmu_rinsn &i : prog)
            EXPECT_EQ(ops()->step(t, &i, emit, this, &e), 0) << e.msg;
        EXPECT_EQ(ops()->finish(t, emit, this, &e), 0) << e.msg;
        given = prog.size();
        ops()->stats(t, &st);
        ops()->destroy(t);
    }

    uint64_t count(bool (*f)(const ev4_cycle &)) const
    {
        uint64_t n = 0;
        for (const ev4_cycle &c : recs)
            n += f(c) ? 1 : 0;
        return n;
    }
    uint64_t issued() const // non-PAL issues, replays taken out: the instructions given
    {
        uint64_t n = 0;
        for (const ev4_cycle &c : recs)
            if (c.mode != EV4_MODE_PAL)
                n += c.nissue - __builtin_popcount(c.replay);
        return n;
    }
    uint64_t dual() const { return count([](const ev4_cycle &c) { return c.mode != EV4_MODE_PAL && c.nissue == 2; }); }

    // The invariants every run obeys.
    void check() const
    {
        EXPECT_EQ(invalid, "");
        EXPECT_EQ(issued(), given);
        EXPECT_EQ(st.insns, given);
        EXPECT_EQ(st.cycles, recs.size());
        EXPECT_EQ(st.l1i_misses, count([](const ev4_cycle &c) { return c.imiss != 0; }));
        EXPECT_EQ(st.l1d_misses, count([](const ev4_cycle &c) { return c.dmiss != 0; }));
        EXPECT_EQ(st.mispredicts, count([](const ev4_cycle &c) { return c.mispredict != 0; }));
        uint64_t loads = 0, stores = 0;
        for (const ev4_cycle &c : recs)
            if (c.mode != EV4_MODE_PAL)
                for (unsigned k = 0; k < c.nissue; k++) {
                    loads += c.cls[k] == EV4_CLASS_LOAD && !(c.replay >> k & 1);
                    stores += c.cls[k] == EV4_CLASS_STORE;
                }
        EXPECT_EQ(st.loads, loads);
        EXPECT_EQ(st.stores, stores);
    }
};

const uint64_t CODE = 0x120000000ull;
const uint64_t DATA = 0x140040000ull; // 256 KB past the code in the 512 KB Bcache: no conflict

// A counted loop of n iterations: addq; subq r3; bne r3 back.
std::vector<pmu_rinsn> counted_loop(unsigned n)
{
    std::vector<pmu_rinsn> p;
    for (unsigned k = 0; k < n; k++) {
        p.push_back(insn(CODE, ADDQ(2, 1, 2)));
        p.push_back(insn(CODE + 4, SUBQ(3, 1, 3)));
        p.push_back(insn(CODE + 8, BNE(3, -3), k + 1 < n ? CODE : CODE + 12));
    }
    return p;
}

TEST(Ev4Timing, InterfaceFacts)
{
    ASSERT_NE(ops(), nullptr);
    EXPECT_STREQ(ops()->qemu_arch, "alpha");
    EXPECT_EQ(ops()->elf_machine, 0x9026);
    EXPECT_EQ(ops()->elf_class, 2);
    EXPECT_STREQ(ops()->sysroot, "/usr/alpha-linux-gnu");
    EXPECT_STREQ(ops()->cc, "alpha-linux-gnu-gcc");
    EXPECT_STREQ(ops()->packages, "qemu-user gcc-alpha-linux-gnu");
    for (unsigned k = 0; k < ops()->nparams; k++) {
        const pmu_timing_param &p = ops()->params[k];
        EXPECT_LE(p.min, p.def) << p.name;
        EXPECT_LE(p.def, p.max) << p.name;
        EXPECT_TRUE(p.what && *p.what && p.source && *p.source) << p.name;
    }
}

TEST(Ev4Timing, CountedLoopBranchesExact)
{
    const unsigned n = 1000;
    Ev4Run r(counted_loop(n));
    r.check();
    EXPECT_EQ(r.st.branches, n);
    EXPECT_EQ(r.st.taken, n - 1u);
    // static backward-taken is right the first time, the history bit thereafter; only the
    // exit (history says taken) mispredicts
    EXPECT_EQ(r.st.mispredicts, 1u);
    EXPECT_EQ(r.st.l1i_misses, 1u);
    EXPECT_EQ(r.st.itlb_misses, 1u);
    // addq and subq both need the EBOX: never paired; the branch ends its quadword taken
    EXPECT_EQ(r.dual(), 0u);
    // per iteration: 3 issue cycles + 1 taken bubble; the exit's 4-cycle penalty replaces it;
    // plus the ITB PAL flow (16) and the I-cache fill (1 + Bcache miss to memory: 40)
    EXPECT_EQ(r.st.cycles, 3u * n + (n - 1u) + 4u + 16u + 40u);
}

TEST(Ev4Timing, HistoryOffIsStaticPrediction)
{
    // a forward branch taken every time: history learns it (1 mispredict), static never does
    std::vector<pmu_rinsn> p;
    const unsigned n = 50;
    for (unsigned k = 0; k < n; k++) {
        p.push_back(insn(CODE, BEQ(31, 2), CODE + 12));
        p.push_back(insn(CODE + 12, bra(0x30, 31, -4), CODE)); // BR back
    }
    Ev4Run on(p), off(p, {"bhe=0"});
    on.check();
    off.check();
    EXPECT_EQ(on.st.mispredicts, 1u);
    EXPECT_EQ(off.st.mispredicts, n);
    EXPECT_EQ(on.st.branches, n); // BR is not a conditional branch
    EXPECT_EQ(on.st.taken, n);
}

// A strided load loop: ldq r1,0(r2); lda r2,stride(r2); bne r3 back.
std::vector<pmu_rinsn> load_loop(unsigned count, unsigned stride, unsigned passes)
{
    std::vector<pmu_rinsn> p;
    for (unsigned pass = 0; pass < passes; pass++)
        for (unsigned k = 0; k < count; k++) {
            const bool last = pass + 1 == passes && k + 1 == count;
            p.push_back(with_mem(insn(CODE, LDQ(1, 2, 0)), DATA + (uint64_t)k * stride, false));
            p.push_back(insn(CODE + 4, LDA(2, 2, (int)stride)));
            p.push_back(insn(CODE + 8, BNE(3, -3), last ? CODE + 12 : CODE));
        }
    return p;
}

TEST(Ev4Timing, StridedLoadMissesMatchGeometry)
{
    // 4 KB at 32-byte stride fits the 8 KB D-cache: 128 misses the first pass, none after
    Ev4Run fit(load_loop(128, 32, 3));
    fit.check();
    EXPECT_EQ(fit.st.l1d_misses, 128u);
    EXPECT_EQ(fit.st.loads, 3u * 128u);
    // 16 KB at 64-byte stride: 256 lines over the 128 even sets, every load misses each pass
    Ev4Run conflict(load_loop(256, 64, 2));
    conflict.check();
    EXPECT_EQ(conflict.st.l1d_misses, 512u);
    // 2 lines per 8 KB set index... the Bcache (512 KB) holds the 16 KB: its misses are the
    // first pass's only
    EXPECT_EQ(conflict.st.l2_misses, 256u + 1u /* the code line */);
    // each miss: its load re-issues with the replay bit, after FROZEN cycles
    EXPECT_EQ(conflict.count([](const ev4_cycle &c) { return c.replay != 0; }), 512u);
    EXPECT_GT(conflict.count([](const ev4_cycle &c) { return c.stall == EV4_STALL_FROZEN; }), 0u);
    // the 16 KB are two DTB pages
    EXPECT_EQ(conflict.st.dtlb_misses, 2u);
    // ldq + lda pair (ABOX load on either bus, EBOX op on IB0)
    EXPECT_EQ(conflict.dual(), 2u * 256u);
}

TEST(Ev4Timing, StoresNeverAllocate)
{
    std::vector<pmu_rinsn> p;
    for (unsigned k = 0; k < 64; k++)
        p.push_back(with_mem(insn(CODE + 4 + 8 * k, STQ(1, 2, 0)), DATA + 32 * k, true)); // odd slots
    for (unsigned k = 0; k < 64; k++)
        p.push_back(with_mem(insn(CODE + 4 + 8 * (64 + k), LDQ(1, 2, 0)), DATA + 32 * k, false));
    Ev4Run r(p);
    r.check();
    EXPECT_EQ(r.st.stores, 64u);
    EXPECT_EQ(r.st.l1d_misses, 64u); // the loads after the stores still miss the D-cache
    EXPECT_EQ(r.st.l2_misses, 32u);  // ...but hit the Bcache the stores wrote; 32 code lines
}

uint64_t duals_of(uint32_t a, uint32_t b, bool amem = false, bool bmem = false, std::vector<std::string> over = {})
{
    std::vector<pmu_rinsn> p;
    for (unsigned k = 0; k < 100; k++) { // 100 quadword pairs, straight-line code
        pmu_rinsn x = insn(CODE + 8 * k, a), y = insn(CODE + 8 * k + 4, b);
        if (amem)
            x = with_mem(x, DATA, false);
        if (bmem)
            y = with_mem(y, DATA + 8, (b >> 26) >= 0x2C && (b >> 26) <= 0x2F);
        p.push_back(x);
        p.push_back(y);
    }
    Ev4Run r(p, over);
    r.check();
    return r.dual();
}

TEST(Ev4Timing, DualIssueTable)
{
    // allowed: a load with an integer op, an integer op with an FP op, an integer op with an
    // integer store, an integer op with a branch (not taken, to the next pair)
    EXPECT_EQ(duals_of(LDQ(1, 2, 0), ADDQ(3, 1, 4), true), 100u);
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), ADDT(1, 2, 3)), 100u);
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), STQ(5, 6, 0), false, true), 100u);
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), BNE(31, 5)), 100u);
    // disallowed: two integer ops (one EBOX, one IB0), two loads (one ABOX), an FP op and an
    // integer store (both IB1), a dependent pair
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), SUBQ(5, 1, 6)), 0u);
    EXPECT_EQ(duals_of(LDQ(1, 2, 0), LDQ(3, 2, 8), true, true), 0u);
    EXPECT_EQ(duals_of(ADDT(1, 2, 3), STQ(5, 6, 0), false, true), 0u);
    // (the store's address depends on the integer op; its data may, GCC ev4.md bypass 0)
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), STQ(5, 4, 0), false, true), 0u);
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), STQ(5, 4, 0), false, true, {"pair_dep=0"}), 100u);
    EXPECT_EQ(duals_of(ADDQ(3, 1, 4), STQ(4, 6, 0), false, true), 100u);
    // only an aligned quadword pairs: addq; addt; br back, at an even and at an odd address
    for (uint64_t off : {0u, 4u}) {
        std::vector<pmu_rinsn> p;
        for (unsigned k = 0; k < 100; k++) {
            p.push_back(insn(CODE + off, ADDQ(3, 1, 4)));
            p.push_back(insn(CODE + off + 4, ADDT(1, 2, 3)));
            p.push_back(insn(CODE + off + 8, bra(0x30, 31, -3), CODE + off));
        }
        Ev4Run r(p);
        r.check();
        EXPECT_EQ(r.dual(), off ? 0u : 100u) << off;
    }
    // a branch predicted not taken (forward) pairs with the next instruction; one predicted
    EXPECT_EQ(duals_of(BNE(31, 5), ADDQ(3, 1, 4)), 100u);
    // taken (backward; each of the 100 is seen once, so static), does not, though it falls through
    EXPECT_EQ(duals_of(BNE(31, -5), ADDQ(3, 1, 4)), 0u);
    // dual issue off
    EXPECT_EQ(duals_of(LDQ(1, 2, 0), ADDQ(3, 1, 4), true, false, {"dual_issue=0"}), 0u);
}

TEST(Ev4Timing, IcacheMissesMatchGeometry)
{
    std::vector<pmu_rinsn> p;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned k = 0; k < 4096; k++) // 16 KB of straight-line code, twice
            p.push_back(insn(CODE + 4 * k, k % 2 ? ADDT(1, 2, 3) : ADDQ(3, 1, 4)));
    Ev4Run r(p);
    r.check();
    EXPECT_EQ(r.st.l1i_misses, 2u * 512u); // 16 KB through an 8 KB cache: every line, both passes
    EXPECT_EQ(r.st.l2_misses, 512u);       // the Bcache holds it after the first pass
    EXPECT_EQ(r.st.itlb_misses, 2u);       // two 8 KB pages
    EXPECT_EQ(r.dual(), 4096u);
    Ev4Run big(p, {"l1i_size=16k"});
    big.check();
    EXPECT_EQ(big.st.l1i_misses, 512u);
}

TEST(Ev4Timing, DtbMissesRunPalFlows)
{
    std::vector<pmu_rinsn> p;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned k = 0; k < 40; k++) // 40 pages, one load each, on a 32-entry DTB
            p.push_back(with_mem(insn(CODE + 4 + 8 * k, LDQ(1, 2, 0)), DATA + 8192ull * k, false));
    Ev4Run r(p);
    r.check();
    EXPECT_EQ(r.st.dtlb_misses, 80u); // round robin over 40 > 32 pages misses every time
    const uint64_t pal = r.count([](const ev4_cycle &c) { return c.mode == EV4_MODE_PAL; });
    EXPECT_EQ(pal, 80u * 20u + 1u * 16u); // DTB flows + the one ITB flow
    Ev4Run big(p, {"dtb_entries=64", "dtb_pal_cycles=7"});
    big.check();
    EXPECT_EQ(big.st.dtlb_misses, 40u);
    EXPECT_EQ(big.count([](const ev4_cycle &c) { return c.mode == EV4_MODE_PAL; }), 40u * 7u + 16u);
    for (const ev4_cycle &c : r.recs) {
        if (c.mode == EV4_MODE_PAL) {
            EXPECT_TRUE((c.pc >= 0x3E0 && c.pc < 0x3E0 + 4 * 16) || (c.pc >= 0x8E0 && c.pc < 0x8E0 + 4 * 20));
        }
    }
}

TEST(Ev4Timing, ReturnStackPredictsReturns)
{
    std::vector<pmu_rinsn> p;
    const uint64_t fn = CODE + 0x100;
    for (unsigned k = 0; k < 20; k++) {
        p.push_back(insn(CODE + 4, BSR(26, (int)((fn - (CODE + 8)) / 4)), fn));
        p.push_back(insn(fn, ADDQ(1, 1, 1)));
        p.push_back(insn(fn + 4, RET(26), CODE + 8));
        p.push_back(insn(CODE + 8, bra(0x30, 31, -2), CODE + 4)); // BR back to the call
    }
    Ev4Run r(p);
    r.check();
    EXPECT_EQ(r.st.mispredicts, 0u);
    EXPECT_EQ(r.st.branches, 0u); // no conditional branch
    Ev4Run none(p, {"ras_entries=0"});
    none.check();
    EXPECT_EQ(none.st.mispredicts, 20u); // the RET's hint (1) is not its target
    EXPECT_GT(none.st.cycles, r.st.cycles);
}

TEST(Ev4Timing, JumpHintsPredictTargets)
{
    // jsr ra,(pv),hint to a function 0x12340 bytes away, and its return: right when the hint
    // is the target's bits <15:2>, wrong with hint 0 or with jmp_hint=0
    const uint64_t fn = CODE + 0x12340;
    auto prog = [fn](unsigned hint) {
        std::vector<pmu_rinsn> p;
        for (unsigned k = 0; k < 10; k++) {
            p.push_back(insn(CODE + 4, jmp(1, 26, 27, hint), fn));
            p.push_back(insn(fn, RET(26), CODE + 8));
            p.push_back(insn(CODE + 8, bra(0x30, 31, -2), CODE + 4));
        }
        return p;
    };
    const unsigned good = (unsigned)(fn >> 2 & 0x3fff);
    Ev4Run right(prog(good)), zero(prog(0)), off(prog(good), {"jmp_hint=0"});
    right.check();
    zero.check();
    off.check();
    EXPECT_EQ(right.st.mispredicts, 0u);
    EXPECT_EQ(zero.st.mispredicts, 10u);
    EXPECT_EQ(off.st.mispredicts, 10u);
}

TEST(Ev4Timing, LongMixedSequenceValidates)
{
    // a deterministic mix of every class over many pages and lines, with taken and not-taken
    // branches; the records must all validate and add up
    std::vector<pmu_rinsn> p;
    uint64_t x = 12345, pc = CODE;
    auto rnd = [&x]() { x = x * 6364136223846793005ull + 1442695040888963407ull; return x >> 33; };
    const uint32_t pool[] = {ADDQ(1, 1, 2), SUBQ(3, 1, 3), ADDT(1, 2, 3), LDQ(1, 2, 0), STQ(4, 5, 0),
                             LDA(6, 6, 8), BNE(3, 0), BEQ(3, 0), mem(0x0B, 31, 30, 0) /* UNOP */,
                             0x00000083u /* CALL_PAL callsys */, 0x63ff4000u /* MB */, mem(0x23, 1, 2, 0),
                             mem(0x27, 1, 2, 0), opr(0x13, 0x20, 1, 2, 3) /* MULQ */, jmp(1, 26, 27, 0)};
    for (unsigned k = 0; k < 200000; k++) {
        const uint32_t w = pool[rnd() % (sizeof pool / sizeof pool[0])];
        pmu_rinsn i = insn(pc, w);
        const unsigned op = w >> 26;
        if ((op >= 0x20 && op <= 0x2F && op != 0x2E) || op == 0x29) {
            const bool st = op >= 0x24 && op <= 0x27 ? true : op >= 0x2C;
            i = with_mem(i, DATA + (rnd() % (1u << 20)) * 8, st);
        }
        if (op >= 0x38 || op == 0x1A) { // a branch: taken a third of the time, somewhere in 64 KB
            if (op == 0x1A || rnd() % 3 == 0)
                i.next_pc = CODE + (rnd() % 16384) * 4;
        }
        p.push_back(i);
        pc = i.next_pc;
    }
    Ev4Run r(p);
    r.check();
    EXPECT_GT(r.dual(), 0u);
    EXPECT_GT(r.st.l1d_misses, 0u);
    EXPECT_GT(r.st.dtlb_misses, 0u);
    EXPECT_GT(r.st.mispredicts, 0u);
    EXPECT_EQ(r.count([](const ev4_cycle &c) { return c.mode == EV4_MODE_PAL; }),
              r.st.itlb_misses * 16u + r.st.dtlb_misses * 20u);
    for (const ev4_cycle &c : r.recs) {
        EXPECT_EQ(c.pid, 77u);
        if (c.mode != EV4_MODE_PAL) {
            ASSERT_EQ(c.mode, EV4_MODE_USER);
        }
        ASSERT_EQ(c.ipl, 0u);
        ASSERT_EQ(c.os, 0u);
    }
    // and every record again with the parameters at other values
    Ev4Run o(p, {"dual_issue=0", "load_replay=0", "mispredict_penalty=9", "bc_size=4096", "l1_line=64"});
    o.check();
    EXPECT_EQ(o.dual(), 0u);
    EXPECT_EQ(o.count([](const ev4_cycle &c) { return c.replay != 0; }), 0u);
    EXPECT_GT(o.st.cycles, r.st.cycles);
}

TEST(Ev4Timing, ParametersChangeBehaviour)
{
    const std::vector<pmu_rinsn> loop = counted_loop(100);
    Ev4Run base(loop), slow(loop, {"mispredict_penalty=20"}), nobub(loop, {"taken_bubble=0"});
    EXPECT_EQ(slow.st.cycles, base.st.cycles + 16u);
    EXPECT_EQ(nobub.st.cycles, base.st.cycles - 99u);
    Ev4Run mem(load_loop(128, 32, 1), {"mem_cycles=100"}), mem0(load_loop(128, 32, 1));
    EXPECT_EQ(mem.st.cycles, mem0.st.cycles + 129u * 60u); // 128 data + 1 code line from memory
}

TEST(Ev4Timing, LoadUseStallsFrozen)
{
    // ldq r1; addq r1 (cannot pair: it reads the load's result); br back: the addq waits for
    // the load's latency with the pipe frozen
    std::vector<pmu_rinsn> p;
    const unsigned n = 200;
    for (unsigned k = 0; k < n; k++) {
        p.push_back(with_mem(insn(CODE, LDQ(1, 2, 0)), DATA, false));
        p.push_back(insn(CODE + 4, ADDQ(1, 1, 4)));
        p.push_back(insn(CODE + 8, bra(0x30, 31, -3), CODE));
    }
    Ev4Run three(p), one(p, {"lat_load=1"});
    three.check();
    one.check();
    EXPECT_EQ(three.dual(), 0u);
    // the first iteration's load misses: its data comes with the replay, the same for both
    EXPECT_EQ(three.st.cycles, one.st.cycles + 2u * (n - 1u));
    const auto frozen = [](const ev4_cycle &c) { return c.stall == EV4_STALL_FROZEN; };
    EXPECT_EQ(three.count(frozen), one.count(frozen) + 2u * (n - 1u));
}

TEST(Ev4Timing, SetRejectsBadParameters)
{
    std::vector<uint64_t> v(ops()->nparams);
    pmu_timing_defaults(ops(), v.data());
    pmu_err e;
    EXPECT_NE(pmu_timing_set(ops(), v.data(), "l1d_sise=4096", "--param", &e), 0);
    EXPECT_NE(std::string(e.msg).find("l1d_size"), std::string::npos) << e.msg;
    EXPECT_NE(pmu_timing_set(ops(), v.data(), "dual_issue=2", "--param", &e), 0);
    EXPECT_NE(pmu_timing_set(ops(), v.data(), "mispredict_penalty=0", "--param", &e), 0);
    EXPECT_EQ(pmu_timing_set(ops(), v.data(), "l1d_size=3000", "--param", &e), 0);
    EXPECT_EQ(ops()->create(v.data(), &e), nullptr); // not a power of 2
    EXPECT_NE(std::string(e.msg).find("power of 2"), std::string::npos) << e.msg;
    // create refuses a value pmu_timing_set would have refused (pmu_timing_check)
    pmu_timing_defaults(ops(), v.data());
    v[0] = 0;
    EXPECT_EQ(ops()->create(v.data(), &e), nullptr);
    EXPECT_NE(std::string(e.msg).find(std::string("timing parameter ") + ops()->params[0].name + "=0: expected "),
              std::string::npos)
        << e.msg;
}

} // namespace
