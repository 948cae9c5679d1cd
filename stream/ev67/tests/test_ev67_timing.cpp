// The Alpha 21264/EV67 timing model of real programs (stream/ev67/ev67_timing.c,
// docs/real-programs-ev67.md): every record it emits obeys R1-R10 (the dialect's
// validate and the cross-record checker), the counts of a counted loop, CMOV halves,
// squashed NOPs, the D-cache geometry, and parameter overrides.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "stream/ev67/ev67_stream.h"
#include "stream/pmu_dialect_test_util.h"
#include "stream/pmu_timing.h"

namespace {

const pmu_timing_ops *model() { return pmu_dialect_ev67.timing; }

// ---- Alpha encodings (Alpha Architecture Handbook, Appendix C) ----
uint32_t opr(unsigned op, unsigned ra, unsigned rb, unsigned fn, unsigned rc)
{
    return op << 26 | ra << 21 | rb << 16 | fn << 5 | rc;
}
uint32_t fpr(unsigned op, unsigned fa, unsigned fb, unsigned fn, unsigned fc)
{
    return op << 26 | fa << 21 | fb << 16 | fn << 5 | fc;
}
uint32_t mem(unsigned op, unsigned ra, unsigned rb, int disp)
{
    return op << 26 | ra << 21 | rb << 16 | ((unsigned)disp & 0xffffu);
}
uint32_t bra(unsigned op, unsigned ra, int disp)
{
    return op << 26 | ra << 21 | ((unsigned)disp & 0x1fffffu);
}
uint32_t jmp(unsigned kind, unsigned ra, unsigned rb)
{
    return 0x1au << 26 | ra << 21 | rb << 16 | kind << 14;
}
const uint32_t ADDQ = opr(0x10, 1, 2, 0x20, 3);
const uint32_t SUBQ = opr(0x10, 4, 2, 0x29, 4);
const uint32_t CMOVEQ = opr(0x11, 1, 2, 0x24, 3);
const uint32_t FCMOVNE = fpr(0x17, 1, 2, 0x02b, 3);
const uint32_t NOP = opr(0x11, 31, 31, 0x20, 31);
const uint32_t UNOP = mem(0x0b, 31, 30, 0);
const uint32_t FNOP = fpr(0x17, 31, 31, 0x020, 31);
const uint32_t TRAPB = 0x18u << 26;
const uint32_t MB = 0x18u << 26 | 0x4000u;
const uint32_t ADDT = fpr(0x16, 1, 2, 0x0a0, 3);
const uint32_t LDQ = mem(0x29, 1, 16, 0);
const uint32_t STQ = mem(0x2d, 1, 16, 0);
const uint32_t LDA = mem(0x08, 1, 1, 8);
const uint32_t CALLSYS = 0x83;

pmu_rinsn insn(uint64_t pc, uint32_t w, uint64_t next = 0)
{
    pmu_rinsn r;
    memset(&r, 0, sizeof r);
    r.pc = pc;
    r.next_pc = next ? next : pc + 4;
    r.size = 4;
    for (unsigned k = 0; k < 4; k++)
        r.bytes[k] = (uint8_t)(w >> (8 * k));
    r.user = 1;
    return r;
}
pmu_rinsn with_mem(pmu_rinsn r, uint64_t addr, bool store)
{
    r.nmem = 1;
    r.mem[0].addr = addr;
    r.mem[0].store = store;
    r.mem[0].size = 8;
    return r;
}

// ---- running the model: every record through validate and the cross-record checker ----
struct ModelRun {
    std::vector<ev67_cycle> recs; // when kept
    uint64_t nrec = 0, hash = 0;
    pmu_timing_stats st;
    std::string error;
    unsigned inflight_end = 0;
    uint64_t fetched = 0, retired = 0, squashed = 0, aborted_fetch = 0, traps = 0, mis = 0,
             aborts = 0, stalls = 0, bcmiss = 0, cbr = 0, taken = 0, icm = 0, other = 0;
};

struct Sink {
    ModelRun *run;
    ev67_stream_check *chk;
    bool keep;
    uint64_t nrec, hash;
};

int emit_rec(void *ctx, const void *rec, pmu_err *err)
{
    Sink *s = static_cast<Sink *>(ctx);
    const ev67_cycle *c = static_cast<const ev67_cycle *>(rec);
    char where[64];
    snprintf(where, sizeof where, "record %llu", (unsigned long long)s->nrec);
    s->nrec++;
    if (pmu_dialect_ev67.validate(c, where, err) || ev67_stream_check_step(s->chk, c, where, err))
        return -1;
    ev67_cycle k;
    pmu_dialect_ev67.canon(c, &k);
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&k);
    for (size_t i = 0; i < sizeof k; i++)
        s->hash = (s->hash ^ b[i]) * 0x100000001b3ull;
    ModelRun &r = *s->run;
    if (s->keep)
        r.recs.push_back(*c);
    r.nrec++;
    r.fetched += c->nfetch;
    r.retired += c->nretire;
    r.squashed += c->nsquash;
    r.traps += c->trap;
    r.mis += c->trap_mis;
    r.aborts += c->abort;
    r.stalls += c->nstall ? 1 : 0;
    r.bcmiss += c->bcmiss;
    for (unsigned i = 0; i < c->nfetch; i++) {
        r.cbr += c->fetch[i].cls == EV67_CLASS_CBR;
        r.taken += (c->fetch[i].flags & EV67_FF_TAKEN) != 0;
        r.icm += (c->fetch[i].flags & EV67_FF_ICM) != 0;
        r.other += c->fetch[i].cls == EV67_CLASS_OTHER;
    }
    return 0;
}

ModelRun run(const std::vector<pmu_rinsn> &prog, const std::vector<std::string> &params = {},
             bool keep = false)
{
    ModelRun r;
    std::vector<uint64_t> v(model()->nparams);
    pmu_timing_defaults(model(), v.data());
    pmu_err err;
    for (const std::string &p : params)
        if (pmu_timing_set(model(), v.data(), p.c_str(), "--param", &err)) {
            r.error = err.msg;
            return r;
        }
    pmu_timing *t = model()->create(v.data(), &err);
    if (!t) {
        r.error = err.msg;
        return r;
    }
    Sink s{&r, ev67_stream_check_create(), keep, 0, 0xcbf29ce484222325ull};
    int rc = 0;
    for (const pmu_rinsn &i : prog)
        if ((rc = model()->step(t, &i, emit_rec, &s, &err)) != 0)
            break;
    if (!rc)
        rc = model()->finish(t, emit_rec, &s, &err);
    if (rc)
        r.error = err.msg;
    model()->stats(t, &r.st);
    r.inflight_end = ev67_stream_check_inflight(s.chk);
    ev67_stream_check_destroy(s.chk);
    model()->destroy(t);
    r.hash = s.hash;
    return r;
}

// ---- a long mixed program: a seeded walk that keeps next_pc consistent ----
struct Mixed {
    std::vector<pmu_rinsn> prog;
    uint64_t ncmov = 0, nsquash = 0;
};

Mixed mixed(uint64_t n, uint64_t seed)
{
    Mixed m;
    uint64_t x = seed, pc = 0x120001000ull;
    std::vector<uint64_t> stack;
    auto rnd = [&](uint64_t k) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return (x >> 33) % k;
    };
    uint64_t loop_pc = 0, loop_left = 0;
    while (m.prog.size() < n) {
        unsigned kind = (unsigned)rnd(100);
        uint64_t a = 0x140000000ull + rnd(1u << 22) * 8u; // 32 MB of data
        if (loop_left && kind < 12) { // the loop's back edge
            loop_left--;
            int d = (int)((int64_t)(loop_pc - (pc + 4)) / 4);
            m.prog.push_back(insn(pc, bra(0x3d, 4, d), loop_left ? loop_pc : pc + 4));
            pc = loop_left ? loop_pc : pc + 4;
            continue;
        }
        if (kind < 25)
            m.prog.push_back(insn(pc, ADDQ));
        else if (kind < 35)
            m.prog.push_back(with_mem(insn(pc, LDQ), (rnd(4) ? 0x140000000ull + rnd(512) * 8 : a), false));
        else if (kind < 42)
            m.prog.push_back(with_mem(insn(pc, STQ), 0x11ff00000ull + rnd(256) * 8, true));
        else if (kind < 47) {
            m.prog.push_back(insn(pc, rnd(2) ? CMOVEQ : FCMOVNE));
            m.ncmov++;
        } else if (kind < 52) {
            static const uint32_t nops[] = {NOP, UNOP, FNOP, TRAPB};
            m.prog.push_back(insn(pc, nops[rnd(4)]));
            m.nsquash++;
        } else if (kind < 56)
            m.prog.push_back(insn(pc, ADDT));
        else if (kind < 57)
            m.prog.push_back(insn(pc, MB));
        else if (kind < 70) { // a data-dependent conditional branch
            int d = (int)rnd(16) - 4;
            bool tk = rnd(3) == 0;
            uint64_t tgt = pc + 4 + 4 * (int64_t)d;
            m.prog.push_back(insn(pc, bra(0x39, 1, d), tk ? tgt : pc + 4));
            pc = tk ? tgt : pc + 4;
            continue;
        } else if (kind < 74 && !loop_left) { // a counted loop from here
            loop_pc = pc;
            loop_left = 2 + rnd(30);
            m.prog.push_back(insn(pc, LDA));
        } else if (kind < 77 && stack.size() < 40) { // BSR or JSR to a function
            uint64_t tgt = 0x120001000ull + rnd(1u << 16) * 4u;
            if (rnd(2)) {
                int d = (int)((int64_t)(tgt - (pc + 4)) / 4);
                m.prog.push_back(insn(pc, bra(0x34, 26, d), tgt));
            } else
                m.prog.push_back(insn(pc, jmp(1, 26, 27), tgt));
            stack.push_back(pc + 4);
            pc = tgt;
            loop_left = 0;
            continue;
        } else if (kind < 80 && !stack.empty()) { // RET
            uint64_t tgt = stack.back();
            stack.pop_back();
            m.prog.push_back(insn(pc, jmp(2, 31, 26), tgt));
            pc = tgt;
            loop_left = 0;
            continue;
        } else if (kind < 81) {
            m.prog.push_back(insn(pc, CALLSYS));
        } else if (kind < 83) { // BR forward
            int d = (int)rnd(8);
            m.prog.push_back(insn(pc, bra(0x30, 31, d), pc + 4 + 4 * (uint64_t)d));
            pc += 4 + 4 * (uint64_t)d;
            continue;
        } else
            m.prog.push_back(insn(pc, SUBQ));
        pc += 4;
    }
    return m;
}

TEST(Ev67Timing, Interface)
{
    ASSERT_NE(model(), nullptr);
    EXPECT_STREQ(model()->qemu_arch, "alpha");
    EXPECT_EQ(model()->elf_machine, 0x9026);
    EXPECT_EQ(model()->elf_class, 2);
    EXPECT_STREQ(model()->sysroot, "/usr/alpha-linux-gnu");
    EXPECT_STREQ(model()->cc, "alpha-linux-gnu-gcc");
    EXPECT_STREQ(model()->packages, "qemu-user gcc-alpha-linux-gnu");
    for (unsigned k = 0; k < model()->nparams; k++) {
        const pmu_timing_param &p = model()->params[k];
        EXPECT_TRUE(p.def >= p.min && p.def <= p.max) << p.name;
        EXPECT_TRUE(p.source && *p.source) << p.name;
    }
}

// Every record of a long mixed program is valid, with the default parameters and with a
// small window (map stalls), and instructions given, retires and squashes relate exactly.
TEST(Ev67Timing, LongMixedProgramValid)
{
    Mixed m = mixed(300000, 7);
    const std::vector<std::vector<std::string>> sets = {
        {}, {"window=16", "fetch_buffer=4", "retire_width=3"}, {"wrong_path=0", "l1i_size=1k", "bcache_size=64k"}};
    for (const auto &ps : sets) {
        ModelRun r = run(m.prog, ps);
        ASSERT_EQ(r.error, "") << (ps.empty() ? "defaults" : ps[0]);
        EXPECT_EQ(r.inflight_end, 0u);
        EXPECT_EQ(r.st.insns, m.prog.size());
        EXPECT_EQ(r.st.cycles, r.nrec);
        // retired = given + CMOVs (two halves) - squashed NOPs/TRAPBs
        EXPECT_EQ(r.retired, r.st.insns + m.ncmov - m.nsquash);
        EXPECT_EQ(r.squashed, m.nsquash);
        EXPECT_EQ(r.fetched, r.st.insns + m.ncmov + r.other);
        EXPECT_EQ(r.mis + (r.traps - r.mis), r.st.mispredicts); // every mispredict traps
        EXPECT_GT(r.mis, 0u);
        EXPECT_GT(r.traps, r.mis); // JMP-class mispredicts too
        EXPECT_GT(r.bcmiss, 0u);
        EXPECT_GT(r.icm, 0u);
        EXPECT_EQ(r.icm, r.st.l1i_misses);
        if (ps.empty() || ps[0] != "wrong_path=0") {
            EXPECT_GT(r.aborts, 0u);
        } else {
            EXPECT_EQ(r.aborts, 0u);
        }
        if (!ps.empty() && ps[0] == "window=16") {
            EXPECT_GT(r.stalls, 0u);
        }
    }
}

// A counted loop of N iterations: N conditional branches, N-1 taken, a trained predictor.
TEST(Ev67Timing, CountedLoopBranchCounts)
{
    const unsigned N = 1000;
    std::vector<pmu_rinsn> p;
    const uint64_t top = 0x120000100ull;
    for (unsigned i = 0; i < N; i++) {
        p.push_back(insn(top, LDA));
        p.push_back(insn(top + 4, ADDQ));
        p.push_back(insn(top + 8, SUBQ));
        p.push_back(insn(top + 12, bra(0x3d, 4, -4), i + 1 < N ? top : top + 16));
    }
    p.push_back(insn(top + 16, ADDQ));
    ModelRun r = run(p, {}, true);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.st.branches, N);
    EXPECT_EQ(r.st.taken, N - 1);
    EXPECT_EQ(r.cbr, N);
    EXPECT_EQ(r.taken, N - 1);
    EXPECT_EQ(r.retired, 4u * N + 1);
    EXPECT_EQ(r.mis, r.st.mispredicts);
    // the cold predictor: the loop branch's local history passes through bp_local_bits
    // new patterns whose counters start weakly not-taken, then the exit
    EXPECT_LE(r.st.mispredicts, 10u + 3);
    EXPECT_GE(r.st.mispredicts, 1u);
    // 4 instructions a cycle from one block once the predictor is trained
    EXPECT_LT(r.st.cycles, N + 13 * 10 + 200);
    EXPECT_GE(r.st.cycles, (uint64_t)N);
    if (getenv("EV67_TIMING_DUMP"))
        for (const ev67_cycle &c : r.recs) {
            char b[512];
            pmu_dialect_ev67.format(&c, b, sizeof b);
            printf("%s\n", b);
        }
}

// One mispredicted conditional branch: the trap in its resolve cycle, the abort of the
// wrong path, and the penalty of HRM Table 2-1 to the target's fetch.
struct MisShape {
    size_t fetch_rec = 0, trap_rec = 0, target_rec = 0;
    ev67_cycle trap{};
    ev67_fetch branch{}, first_wrong{};
    bool found_trap = false, found_target = false;
};

MisShape mis_shape(const ModelRun &r, uint64_t branch_pc, uint64_t target)
{
    MisShape m;
    for (size_t k = 0; k < r.recs.size(); k++) {
        const ev67_cycle &c = r.recs[k];
        for (unsigned i = 0; i < c.nfetch; i++) {
            if (c.fetch[i].pc == branch_pc && c.fetch[i].cls == EV67_CLASS_CBR) {
                m.fetch_rec = k;
                m.branch = c.fetch[i];
            }
            if (c.fetch[i].cls == EV67_CLASS_OTHER && m.first_wrong.pc == 0)
                m.first_wrong = c.fetch[i];
            if (c.fetch[i].pc == target && c.fetch[i].cls != EV67_CLASS_OTHER && !m.found_target) {
                m.target_rec = k;
                m.found_target = true;
            }
        }
        if (c.trap && !m.found_trap) {
            m.trap_rec = k;
            m.trap = c;
            m.found_trap = true;
        }
    }
    return m;
}

TEST(Ev67Timing, MispredictTrapAbortAndPenalty)
{
    const uint64_t b = 0x120000000ull;
    // BEQ at b+4 taken to b+0x20 (same I-cache line): the cold predictor says not taken
    std::vector<pmu_rinsn> p = {insn(b, ADDQ), insn(b + 4, bra(0x39, 1, 6), b + 0x20),
                                insn(b + 0x20, ADDQ), insn(b + 0x24, SUBQ)};
    ModelRun r = run(p, {}, true);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.st.mispredicts, 1u);
    MisShape m = mis_shape(r, b + 4, b + 0x20);
    ASSERT_TRUE(m.found_trap);
    ASSERT_TRUE(m.found_target);
    EXPECT_EQ(m.branch.flags & EV67_FF_TAKEN, EV67_FF_TAKEN);
    EXPECT_EQ(m.trap.trap_tag, m.branch.tag);
    EXPECT_EQ(m.trap.trap_mis, 1);
    EXPECT_EQ(m.trap.trap_type, EV67_TRAP_INVALID1);
    EXPECT_EQ(m.trap_rec, m.fetch_rec + 5); // map 2 cycles after fetch, execute stage 5
    EXPECT_EQ(m.trap.abort, 1);
    EXPECT_EQ(m.trap.abort_first, m.branch.tag + 1);
    EXPECT_EQ(m.first_wrong.pc, b + 8); // the predicted (fall-through) path
    EXPECT_EQ(m.target_rec, m.fetch_rec + 1 + 7); // HRM §2.2.1: 7 from the cycle after fetch
    EXPECT_EQ(r.retired, 4u);

    ModelRun slow = run(p, {"mispredict_penalty=20"}, true);
    MisShape s = mis_shape(slow, b + 4, b + 0x20);
    EXPECT_EQ(s.target_rec, s.fetch_rec + 1 + 20);

    ModelRun nowp = run(p, {"wrong_path=0"}, true);
    MisShape n = mis_shape(nowp, b + 4, b + 0x20);
    ASSERT_TRUE(n.found_trap);
    EXPECT_EQ(n.trap.abort, 0);
    EXPECT_EQ(n.first_wrong.pc, 0u);
    EXPECT_EQ(n.target_rec, n.fetch_rec + 1 + 7);

    // a RET whose stack entry was overwritten: a JMP-class mispredict, trap type 9, no MIS
    std::vector<pmu_rinsn> q = {insn(b, bra(0x34, 26, 3), b + 0x10), // BSR -> b+0x10
                                insn(b + 0x10, jmp(2, 31, 26), b + 0x40), // RET elsewhere
                                insn(b + 0x40, ADDQ)};
    ModelRun j = run(q, {}, true);
    ASSERT_EQ(j.error, "");
    EXPECT_EQ(j.st.mispredicts, 1u);
    EXPECT_EQ(j.traps, 1u);
    EXPECT_EQ(j.mis, 0u);
    for (const ev67_cycle &c : j.recs) {
        if (c.trap) {
            EXPECT_EQ(c.trap_type, EV67_TRAP_INVALID9);
        }
    }
}

// CALL_PAL ends its fetch block and fetch waits pal_penalty cycles after it.
TEST(Ev67Timing, CallPalPenalty)
{
    const uint64_t b = 0x120000000ull;
    std::vector<pmu_rinsn> p = {insn(b, ADDQ), insn(b + 4, ADDQ), insn(b + 8, ADDQ), insn(b + 12, ADDQ),
                                insn(b + 16, ADDQ), insn(b + 20, CALLSYS), insn(b + 24, ADDQ)};
    for (unsigned pen : {0u, 30u, 100u}) {
        ModelRun r = run(p, {"pal_penalty=" + std::to_string(pen)}, true);
        ASSERT_EQ(r.error, "");
        size_t pal = 0, after = 0;
        for (size_t k = 0; k < r.recs.size(); k++)
            for (unsigned i = 0; i < r.recs[k].nfetch; i++) {
                if (r.recs[k].fetch[i].cls == EV67_CLASS_PAL)
                    pal = k;
                if (r.recs[k].fetch[i].pc == b + 24)
                    after = k;
            }
        EXPECT_EQ(after, pal + 1 + pen) << pen;
    }
}

TEST(Ev67Timing, CmovIsTwoTags)
{
    for (uint32_t w : {CMOVEQ, FCMOVNE}) {
        ModelRun r = run({insn(0x120000000ull, ADDQ), insn(0x120000004ull, w), insn(0x120000008ull, ADDQ)}, {},
                         true);
        ASSERT_EQ(r.error, "");
        std::vector<ev67_fetch> f;
        for (const ev67_cycle &c : r.recs)
            for (unsigned i = 0; i < c.nfetch; i++)
                f.push_back(c.fetch[i]);
        ASSERT_EQ(f.size(), 4u);
        EXPECT_EQ(f[1].flags & (EV67_FF_CMOV1 | EV67_FF_CMOV2), EV67_FF_CMOV1);
        EXPECT_EQ(f[2].flags & (EV67_FF_CMOV1 | EV67_FF_CMOV2), EV67_FF_CMOV2);
        EXPECT_EQ(f[1].pc, 0x120000004ull);
        EXPECT_EQ(f[2].pc, 0x120000004ull);
        EXPECT_EQ(f[2].tag, f[1].tag + 1);
        EXPECT_EQ(f[1].cls, EV67_CLASS_INTOP);
        EXPECT_EQ(r.retired, 4u);
    }
    // a CMOV in the 4th slot: its second half is fetched in the next cycle
    ModelRun r = run({insn(0x120000000ull, ADDQ), insn(0x120000004ull, ADDQ), insn(0x120000008ull, ADDQ),
                 insn(0x12000000cull, CMOVEQ)});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.fetched, 5u);
    EXPECT_EQ(r.retired, 5u);
}

TEST(Ev67Timing, NopsAreSquashed)
{
    std::vector<pmu_rinsn> p;
    uint64_t pc = 0x120000000ull;
    for (uint32_t w : {NOP, UNOP, FNOP, TRAPB, MB, ADDQ})
        p.push_back(insn(pc, w)), pc += 4;
    ModelRun r = run(p);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.squashed, 4u);
    EXPECT_EQ(r.retired, 2u);
    ModelRun k = run(p, {"squash_nops=0"});
    ASSERT_EQ(k.error, "");
    EXPECT_EQ(k.squashed, 0u);
    EXPECT_EQ(k.retired, 6u);
}

// A strided load loop: misses follow the D-cache geometry (64-byte lines, 64 KB, 2-way).
std::vector<pmu_rinsn> strided(uint64_t bytes, uint64_t stride, unsigned passes)
{
    std::vector<pmu_rinsn> p;
    const uint64_t top = 0x120000200ull, base = 0x140000000ull;
    uint64_t n = bytes / stride;
    for (unsigned pass = 0; pass < passes; pass++)
        for (uint64_t i = 0; i < n; i++) {
            p.push_back(with_mem(insn(top, LDQ), base + i * stride, false));
            p.push_back(insn(top + 4, LDA));
            p.push_back(insn(top + 8, SUBQ));
            bool last = pass + 1 == passes && i + 1 == n;
            p.push_back(insn(top + 12, bra(0x3d, 4, -4), last ? top + 16 : top));
        }
    return p;
}

TEST(Ev67Timing, StridedLoadMissesMatchGeometry)
{
    // 32 KB with stride 8, twice: one miss per 64-byte line in the first pass only
    ModelRun a = run(strided(32768, 8, 2));
    ASSERT_EQ(a.error, "");
    EXPECT_EQ(a.st.loads, 2u * 4096);
    EXPECT_EQ(a.st.l1d_misses, 32768u / 64);
    // 128 KB with stride 64, twice: every load misses (LRU over twice the capacity)
    ModelRun b = run(strided(131072, 64, 2));
    ASSERT_EQ(b.error, "");
    EXPECT_EQ(b.st.l1d_misses, 2u * 2048);
    // with a 256 KB D-cache it fits: the second pass hits
    ModelRun c = run(strided(131072, 64, 2), {"l1d_size=256k"});
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.st.l1d_misses, 2048u);
    EXPECT_LT(c.st.cycles, b.st.cycles);
    // the Bcache (4 MB) holds 128 KB: Bcache misses are the first pass's only
    EXPECT_EQ(b.st.l2_misses, 2048u + 1); // + the code's one line
    EXPECT_GT(b.bcmiss, 0u);
    EXPECT_LE(b.bcmiss, b.st.l2_misses);
    // the DTB maps 8 KB pages: 16 pages, cold misses only
    EXPECT_EQ(b.st.dtlb_misses, 16u);
    ModelRun d = run(strided(131072, 64, 2), {"dtb_entries=8"});
    ASSERT_EQ(d.error, "");
    EXPECT_EQ(d.st.dtlb_misses, 32u); // round-robin over 16 pages in 8 entries
}

// Straight-line code: one I-cache miss (and one ICM flag) per 64-byte line, the ITB
// looked up on those misses only, one miss per 8 KB page.
TEST(Ev67Timing, InstructionFetchMissesMatchGeometry)
{
    std::vector<pmu_rinsn> p;
    const uint64_t base = 0x120000000ull;
    for (uint64_t k = 0; k < 131072 / 4; k++)
        p.push_back(insn(base + 4 * k, ADDQ));
    ModelRun r = run(p);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.st.l1i_misses, 131072u / 64);
    EXPECT_EQ(r.icm, 131072u / 64);
    EXPECT_EQ(r.st.itlb_misses, 131072u / 8192);
    EXPECT_EQ(r.st.l2_misses, 131072u / 64);
    EXPECT_EQ(r.retired, p.size());
    ModelRun big = run(p, {"page_shift=16"});
    EXPECT_EQ(big.st.itlb_misses, 2u);
    EXPECT_LT(big.st.cycles, r.st.cycles);
}

TEST(Ev67Timing, ParameterOverridesChangeBehaviour)
{
    Mixed m = mixed(50000, 3);
    ModelRun def = run(m.prog);
    ASSERT_EQ(def.error, "");
    ModelRun pen = run(m.prog, {"mispredict_penalty=30"});
    ASSERT_EQ(pen.error, "");
    EXPECT_GT(pen.st.cycles, def.st.cycles);
    EXPECT_EQ(pen.st.mispredicts, def.st.mispredicts);
    ModelRun mem = run(m.prog, {"mem_latency=400"});
    EXPECT_GT(mem.st.cycles, def.st.cycles);
    ModelRun bp = run(m.prog, {"bp_global_bits=2", "bp_local_bits=2", "bp_local_entries=16"});
    EXPECT_NE(bp.st.mispredicts, def.st.mispredicts);
    ModelRun w = run(m.prog, {"window=8", "fetch_buffer=4"});
    EXPECT_GT(w.st.cycles, def.st.cycles);
    EXPECT_GT(w.stalls, def.stalls);

    EXPECT_NE(run(m.prog, {"l1d_size=3000"}).error.find("power of two"), std::string::npos);
    EXPECT_NE(run(m.prog, {"windw=8"}).error.find("nearest: window"), std::string::npos);
    EXPECT_NE(run(m.prog, {"window=500"}).error, "");
}

// The records as a stream file in both forms: the readers check every rule again and give
// back the same records.
// The ends of the parameter ranges still give valid streams that drain.
TEST(Ev67Timing, ExtremeParametersValid)
{
    Mixed m = mixed(30000, 13);
    const std::vector<std::vector<std::string>> sets = {
        {"window=160", "fetch_buffer=64", "retire_width=1", "map_width=1"},
        {"window=8", "fetch_buffer=4", "retire_depth=40", "mem_latency=2000", "bcache_size=64k"},
        {"l1i_size=1k", "l1d_size=1k", "itb_entries=1", "dtb_entries=1", "ras_entries=1", "jump_targets=16"},
        {"bp_local_entries=16", "bp_local_bits=2", "bp_global_bits=2", "branch_resolve_stage=20",
         "mispredict_penalty=1", "jsr_mispredict_penalty=100"},
        {"squash_nops=0", "wrong_path=0", "pal_penalty=0", "itb_miss_latency=0", "dtb_miss_latency=0"},
    };
    for (const auto &ps : sets) {
        ModelRun r = run(m.prog, ps);
        ASSERT_EQ(r.error, "") << ps[0];
        EXPECT_EQ(r.inflight_end, 0u) << ps[0];
        uint64_t squashed = ps[0] == "squash_nops=0" ? 0 : m.nsquash;
        EXPECT_EQ(r.retired, r.st.insns + m.ncmov - squashed) << ps[0];
        EXPECT_EQ(r.squashed, squashed) << ps[0];
    }
}

TEST(Ev67Timing, StreamRoundTrip)
{
    Mixed m = mixed(20000, 5);
    ModelRun r = run(m.prog, {"window=16", "fetch_buffer=4"}, true);
    ASSERT_EQ(r.error, "");
    for (pmu_stream_form form : {PMU_STREAM_TEXT, PMU_STREAM_BINARY}) {
        std::string bytes = dialect_write_mem<ev67_cycle>(&pmu_dialect_ev67, r.recs, form);
        DialectRead<ev67_cycle> back = dialect_read_mem<ev67_cycle>(
            &pmu_dialect_ev67, bytes, form == PMU_STREAM_TEXT ? "t.txt" : "t.bin");
        ASSERT_EQ(back.rc, 0) << back.err;
        ASSERT_EQ(back.recs.size(), r.recs.size());
        for (size_t k = 0; k < r.recs.size(); k++) {
            ev67_cycle a, b;
            pmu_dialect_ev67.canon(&r.recs[k], &a);
            pmu_dialect_ev67.canon(&back.recs[k], &b);
            ASSERT_TRUE(pmu_dialect_ev67.equal(&a, &b)) << "record " << k;
        }
    }
}

TEST(Ev67Timing, Deterministic)
{
    // The same instructions give the same records, through the checked path and the model
    // alone (speed is make bench's, not a test's).
    Mixed m = mixed(200000, 11);
    ModelRun a = run(m.prog);
    ASSERT_EQ(a.error, "");
    ModelRun b = run(m.prog);
    EXPECT_EQ(a.nrec, b.nrec);
    EXPECT_EQ(a.hash, b.hash);
    std::vector<uint64_t> v(model()->nparams);
    pmu_timing_defaults(model(), v.data());
    pmu_err err;
    pmu_timing *t = model()->create(v.data(), &err);
    ASSERT_NE(t, nullptr);
    uint64_t n = 0;
    auto count = [](void *ctx, const void *, pmu_err *) { ++*static_cast<uint64_t *>(ctx); return 0; };
    for (const pmu_rinsn &i : m.prog)
        ASSERT_EQ(model()->step(t, &i, count, &n, &err), 0);
    ASSERT_EQ(model()->finish(t, count, &n, &err), 0);
    model()->destroy(t);
    EXPECT_EQ(n, a.nrec);
}

} // namespace
