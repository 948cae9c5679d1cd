// The Itanium timing model of real programs in IA-32 mode (stream/ita/ita_timing.c,
// docs/real-programs-ita.md): every record valid, the counts of a counted loop, the L1D
// misses of a strided loop, retired slots == instructions, parameter overrides.
#include <cstring>
#include <string>
#include <vector>

#include "stream/ita/ita_stream_test_util.h"
#include "common/ita/ita_events.h"
#include "stream/pmu_timing.h"

namespace {

const pmu_timing_ops *ops() { return ita_dialect.timing; }

// A parameter's default.
uint64_t def(const char *name)
{
    for (unsigned k = 0; k < ops()->nparams; k++)
        if (strcmp(ops()->params[k].name, name) == 0)
            return ops()->params[k].def;
    ADD_FAILURE() << "no parameter " << name;
    return 0;
}

struct TRun {
    bool keep = true;         // keep the records (small runs)
    std::vector<ita_cycle> recs;
    std::string bad;          // first invalid record's message
    pmu_timing_stats st{};
    // what the records hold, counted as they come
    uint64_t nrecs = 0, slots = 0, stalls = 0, fetches = 0, not_ia32 = 0, pid1001 = 0;
    uint64_t tlb_l2 = 0, tlb_vhpt = 0, flag[16] = {};
};

int collect(void *ctx, const void *rec, pmu_err *err)
{
    TRun *r = static_cast<TRun *>(ctx);
    const ita_cycle *c = static_cast<const ita_cycle *>(rec);
    pmu_err e;
    e.msg[0] = '\0';
    if (r->bad.empty() && ita_dialect.validate(c, "timing", &e) != 0) {
        char line[1024];
        ita_cycle_format(c, line, sizeof line);
        r->bad = std::string(e.msg) + " :: " + line;
    }
    r->nrecs++;
    r->slots += c->nslots;
    r->stalls += c->nslots == 0;
    r->fetches += c->if_lat != 0;
    r->not_ia32 += c->is != 1 || c->cpl != 3 || c->power != ITA_POWER_NORMAL;
    r->pid1001 += c->pid == 1001;
    for (unsigned k = 0; k < c->nslots; k++) {
        r->tlb_l2 += c->slot[k].tlb == ITA_TLB_L2;
        r->tlb_vhpt += c->slot[k].tlb == ITA_TLB_VHPT;
        for (unsigned b = 0; b < 16; b++)
            r->flag[b] += (c->slot[k].flags >> b) & 1;
    }
    if (r->keep)
        r->recs.push_back(*c);
    (void)err;
    return 0;
}

struct Model {
    std::vector<uint64_t> v;
    Model(std::initializer_list<const char *> sets = {})
    {
        v.resize(ops()->nparams);
        pmu_timing_defaults(ops(), v.data());
        for (const char *s : sets) {
            pmu_err e;
            EXPECT_EQ(pmu_timing_set(ops(), v.data(), s, "--param", &e), 0) << s;
        }
    }
    TRun run(const std::vector<pmu_rinsn> &prog, bool keep = true) const
    {
        TRun r;
        r.keep = keep;
        pmu_err e;
        pmu_timing *t = ops()->create(v.data(), &e);
        EXPECT_NE(t, nullptr) << e.msg;
        if (!t)
            return r;
        for (const pmu_rinsn &in : prog)
            EXPECT_EQ(ops()->step(t, &in, collect, &r, &e), 0) << e.msg;
        EXPECT_EQ(ops()->finish(t, collect, &r, &e), 0) << e.msg;
        ops()->stats(t, &r.st);
        ops()->destroy(t);
        return r;
    }
};

pmu_rinsn insn(uint64_t pc, std::initializer_list<uint8_t> bytes)
{
    pmu_rinsn in;
    memset(&in, 0, sizeof in);
    in.pc = pc;
    for (uint8_t b : bytes)
        in.bytes[in.size++] = b;
    in.next_pc = pc + in.size;
    in.pid = 42;
    in.user = 1;
    return in;
}

pmu_rinsn &mem(pmu_rinsn &in, uint64_t addr, bool store, uint8_t size = 4)
{
    in.mem[in.nmem++] = pmu_rmem{addr, (uint8_t)store, size};
    return in;
}

uint64_t slots(const TRun &r)
{
    uint64_t n = 0;
    for (const ita_cycle &c : r.recs)
        n += c.nslots;
    return n;
}

uint64_t count_flag(const TRun &r, unsigned lsb, unsigned mask)
{
    uint64_t n = 0;
    for (const ita_cycle &c : r.recs)
        for (unsigned k = 0; k < c.nslots; k++)
            n += ita_slot_field(&c.slot[k], lsb, mask) != 0;
    return n;
}
#define COUNT(r, name) count_flag((r), ITA_SF_##name##_LSB, ITA_SF_##name##_MASK)

// for (ecx = n; ecx; ecx--) { eax = [esi]; esi += stride; }  at 0x8048100:
//   mov eax,[esi] (8B 06); add esi,imm8 (83 C6 ib) or imm32 (81 C6 id); dec ecx (49); jnz (75 rel8)
std::vector<pmu_rinsn> strided_loop(unsigned n, uint32_t stride, uint64_t base, unsigned passes = 1)
{
    std::vector<pmu_rinsn> p;
    for (unsigned pass = 0; pass < passes; pass++) {
        uint64_t a = base;
        for (unsigned i = 0; i < n; i++) {
            uint64_t pc = 0x8048100;
            pmu_rinsn ld = insn(pc, {0x8b, 0x06});
            p.push_back(mem(ld, a, false));
            pc += 2;
            if (stride < 128)
                p.push_back(insn(pc, {0x83, 0xc6, (uint8_t)stride}));
            else
                p.push_back(insn(pc, {0x81, 0xc6, (uint8_t)stride, (uint8_t)(stride >> 8), (uint8_t)(stride >> 16), 0}));
            pc += p.back().size;
            p.push_back(insn(pc, {0x49}));
            pc += 1;
            pmu_rinsn j = insn(pc, {0x75, (uint8_t)(0x8048100 - (pc + 2))});
            if (i + 1 < n)
                j.next_pc = 0x8048100;
            p.push_back(j);
            a += stride;
        }
        // between passes: a jmp back to the loop's head (taken, direct)
        pmu_rinsn jmp = insn(0x8048110, {0xeb, 0xee});
        jmp.next_pc = 0x8048100;
        p.push_back(jmp);
    }
    return p;
}

// A long mixed IA-32 sequence: every class the model decodes, with prefixes, memory
// accesses spread over 64 MB (misses at every level and TLB), two processes.
std::vector<pmu_rinsn> mixed(unsigned n, uint64_t seed)
{
    std::vector<pmu_rinsn> p;
    uint64_t x = seed, pc = 0x8048000;
    auto rnd = [&x]() {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return (uint32_t)(x >> 33);
    };
    std::vector<uint64_t> stack;
    for (unsigned i = 0; i < n; i++) {
        const unsigned k = rnd() % 20;
        const uint64_t d = 0x0a000000 + (rnd() % (64u << 20));
        const uint64_t near_d = 0x0a000000 + (rnd() % 8192);
        const uint64_t sp = 0xbff00000 - 4 * (stack.size() % 512);
        pmu_rinsn in;
        bool branch = false, taken = false;
        uint64_t target = 0;
        switch (k) {
        case 0: in = insn(pc, {0x01, 0xd8}); break;                       // add eax,ebx
        case 1: in = insn(pc, {0x8b, 0x06}); mem(in, rnd() & 1 ? d : near_d, false); break; // mov eax,[esi]
        case 2: in = insn(pc, {0x89, 0x06}); mem(in, near_d, true); break; // mov [esi],eax
        case 3: in = insn(pc, {0x01, 0x06}); mem(in, d, false); mem(in, d, true); break; // add [esi],eax
        case 4: in = insn(pc, {0x50}); mem(in, sp, true); break;          // push eax
        case 5: in = insn(pc, {0x66, 0x8b, 0x06}); mem(in, d, false, 2); break; // mov ax,[esi]
        case 6: in = insn(pc, {0xf3, 0xa5}); mem(in, d, false); mem(in, near_d, true); break; // rep movsd
        case 7: in = insn(pc, {0xd9, 0xc0}); break;                       // fld st0
        case 8: in = insn(pc, {0x0f, 0x58, 0xc1}); break;                 // addps xmm0,xmm1
        case 9: in = insn(pc, {0x74, 0x10}); branch = true; taken = rnd() % 3 != 0; target = pc + 2 + 0x10; break; // jz
        case 10: in = insn(pc, {0x0f, 0x85, 0x00, 0x01, 0, 0}); branch = true; taken = rnd() & 1; target = pc + 6 + 0x100; break;
        case 11: in = insn(pc, {0xe2, 0xf0}); branch = true; taken = rnd() % 8 != 0; target = pc + 2 - 0x10; break; // loop
        case 12: in = insn(pc, {0xeb, 0x20}); branch = taken = true; target = pc + 2 + 0x20; break; // jmp rel8
        case 13: in = insn(pc, {0xe8, 0, 0x10, 0, 0}); mem(in, sp, true); branch = taken = true; target = pc + 5 + 0x1000;
            stack.push_back(pc + 5); break;                                // call rel32
        case 14: in = insn(pc, {0xc3}); mem(in, sp, false); branch = taken = true;
            if (!stack.empty()) { target = stack.back(); stack.pop_back(); } else target = 0x8048000 + (rnd() % 0x100000);
            break;                                                         // ret
        case 15: in = insn(pc, {0xff, 0xe0}); branch = taken = true; target = 0x8048000 + (rnd() % 4) * 0x40000; break; // jmp eax
        case 16: in = insn(pc, {0xff, 0x15, 0, 0x10, 0x0a, 0x08}); mem(in, 0x0a001000, false); mem(in, sp, true);
            branch = taken = true; target = 0x8048000 + (rnd() % 2) * 0x80000; stack.push_back(pc + 6); break; // call [m]
        case 17: in = insn(pc, {0x3e, 0x64, 0x8b, 0x05, 0, 0, 0, 0x0b}); mem(in, 0x0b000000 + (rnd() % 4096), false); break;
        case 18: in = insn(pc, {0x8d, 0x44, 0x24, 0x08}); break;           // lea eax,[esp+8]
        default: in = insn(pc, {0x58}); mem(in, sp, false); break;         // pop eax
        }
        if (branch && taken)
            in.next_pc = target & 0xffffffffu;
        // far code now and then (I-cache and ITLB misses)
        if (!branch && rnd() % 64 == 0)
            in.next_pc = 0x08048000 + (rnd() % (8u << 20));
        in.pid = (i / 5000) % 2 ? 1001 : 1002;
        p.push_back(in);
        pc = in.next_pc;
    }
    return p;
}

TEST(ItaTiming, ModelDescribesAnIa32Program)
{
    ASSERT_NE(ops(), nullptr);
    EXPECT_STREQ(ops()->qemu_arch, "i386");
    EXPECT_EQ(ops()->elf_machine, 3);
    EXPECT_EQ(ops()->elf_class, 1);
    EXPECT_STREQ(ops()->cc, "i686-linux-gnu-gcc");
    for (unsigned k = 0; k < ops()->nparams; k++) {
        const pmu_timing_param &p = ops()->params[k];
        EXPECT_TRUE(p.def >= p.min && p.def <= p.max) << p.name;
        EXPECT_TRUE(p.source && *p.source) << p.name;
    }
}

TEST(ItaTiming, LongMixedSequenceEveryRecordValid)
{
    const std::vector<pmu_rinsn> prog = mixed(200000, 7);
    // the last: every latency 1, so that the fetch's events are packed into single stall cycles
    const std::vector<std::vector<const char *>> configs = {
        {"ia32_width=2", "l3_size=1M"},
        {"ia32_width=1", "l3_size=1M"},
        {"l3_size=0"},
        {"l2_lat=1", "l3_lat=1", "mem_lat=1", "l2tlb_penalty=1", "vhpt_penalty=1", "mispred_penalty=0",
         "l1dtlb_entries=2", "l1itlb_entries=1", "l2itlb_entries=2"},
    };
    for (const auto &cfg : configs) {
        Model m;
        for (const char *a : cfg) {
            pmu_err e;
            ASSERT_EQ(pmu_timing_set(ops(), m.v.data(), a, "--param", &e), 0) << e.msg;
        }
        const char *w = cfg[0];
        TRun r = m.run(prog, false);
        EXPECT_EQ(r.bad, "") << w;
        EXPECT_EQ(r.slots, prog.size()) << w;
        EXPECT_EQ(r.st.insns, prog.size());
        EXPECT_EQ(r.st.cycles, r.nrecs);
        EXPECT_EQ(r.not_ia32, 0u);
        // every kind of outcome occurred
        EXPECT_GT(r.st.l1i_misses, 0u);
        EXPECT_GT(r.st.l1d_misses, 0u);
        EXPECT_GT(r.st.l2_misses, 0u);
        EXPECT_GT(r.st.itlb_misses, 0u);
        EXPECT_GT(r.st.dtlb_misses, 0u);
        EXPECT_GT(r.st.mispredicts, 0u);
        EXPECT_GT(r.fetches, 0u);
        EXPECT_LE(r.fetches, r.st.l1i_misses);
        EXPECT_GT(r.tlb_l2, 0u);
        EXPECT_GT(r.tlb_vhpt, 0u);
        EXPECT_GT(r.stalls, 0u);
        EXPECT_GT(r.pid1001, 0u);
        // the stats say what the records say
        EXPECT_EQ(r.flag[ITA_SF_LOAD_LSB], r.st.loads);
        EXPECT_EQ(r.flag[ITA_SF_STORE_LSB], r.st.stores);
        EXPECT_EQ(r.flag[ITA_SF_L1D_MISS_LSB], r.st.l1d_misses);
        EXPECT_EQ(r.flag[ITA_SF_L2_MISS_LSB], r.st.l2_misses);
    }
}

TEST(ItaTiming, CountedLoopExactBranchCounts)
{
    const unsigned n = 1000;
    TRun r = Model().run(strided_loop(n, 4, 0x0a000000));
    EXPECT_EQ(r.bad, "");
    EXPECT_EQ(r.st.branches, n);    // the jnz: conditional
    EXPECT_EQ(r.st.taken, n - 1);   // back to the head n-1 times
    EXPECT_EQ(r.st.insns, 4u * n + 1);
    EXPECT_EQ(slots(r), 4u * n + 1);
    // the counter starts weakly not-taken: the first taken jnz and the exit mispredict
    EXPECT_EQ(r.st.mispredicts, 2u);
    // the records: n + 1 branch slots (the final jmp), n taken ones (n-1 jnz + jmp)
    EXPECT_EQ(COUNT(r, BR_TYPE), n + 1);
    EXPECT_EQ(COUNT(r, TAKEN), n);
    uint64_t wrong = 0;
    for (const ita_cycle &c : r.recs)
        for (unsigned k = 0; k < c.nslots; k++)
            if (ITA_SLOT_GET(&c.slot[k], TAKEN))
                EXPECT_EQ(c.slot[k].target, 0x8048100u);
            else if (ITA_SLOT_GET(&c.slot[k], BR_PRED) == 2)
                wrong++;
    EXPECT_EQ(wrong, 1u); // the exit
}

TEST(ItaTiming, StridedLoadsMissL1dAsTheGeometrySays)
{
    // 64-byte stride = one L1D line per load: 512 loads over 32 KB (twice L1D) all miss,
    // and again on the second pass (LRU, the array does not fit).
    TRun r = Model().run(strided_loop(512, 64, 0x0a000000, 2));
    EXPECT_EQ(r.bad, "");
    EXPECT_EQ(r.st.l1d_misses, 1024u);
    EXPECT_EQ(COUNT(r, L1D_MISS), 1024u);
    // 16-byte stride: one miss every 4 loads
    TRun q = Model().run(strided_loop(1024, 16, 0x0a000000));
    EXPECT_EQ(q.st.l1d_misses, 256u);
    // 8 KB (fits L1D): cold misses only, the second pass hits
    TRun f = Model().run(strided_loop(128, 64, 0x0a000000, 2));
    EXPECT_EQ(f.st.l1d_misses, 128u);
    // L2 lines are 128 bytes: the first pass of the 64-byte stride misses L2 every other load
    TRun l2 = Model().run(strided_loop(512, 64, 0x0a000000, 1));
    EXPECT_EQ(l2.st.l2_misses, 256u);
    // the D-EAR's latencies: cold L3 misses go to memory, the other half hit L2
    uint64_t mem_lat = 0, l2_lat = 0;
    for (const ita_cycle &c : l2.recs)
        for (unsigned k = 0; k < c.nslots; k++)
            if (ITA_SLOT_GET(&c.slot[k], LOAD)) {
                mem_lat += c.slot[k].lat == def("mem_lat");
                l2_lat += c.slot[k].lat == def("l2_lat");
                EXPECT_EQ(c.slot[k].daddr >> 6 << 6, c.slot[k].daddr);
            }
    EXPECT_EQ(mem_lat, 256u);
    EXPECT_EQ(l2_lat, 256u);
}

TEST(ItaTiming, StallCyclesFollowLatencies)
{
    // one cold load: the I-fetch misses (an ITLB walk and memory), the load too
    std::vector<pmu_rinsn> p;
    pmu_rinsn ld = insn(0x8048000, {0x8b, 0x06});
    p.push_back(mem(ld, 0x0a000000, false));
    TRun r = Model().run(p);
    EXPECT_EQ(r.bad, "");
    // fetch: VHPT walk + memory; data: VHPT walk + (memory - L1D hit); then the retire cycle
    const uint64_t vhpt = def("vhpt_penalty"), memlat = def("mem_lat");
    EXPECT_EQ(r.recs.size(), vhpt + memlat + vhpt + memlat - def("l1d_lat") + 1);
    const ita_cycle &fetch = r.recs[vhpt + memlat - 1];
    EXPECT_EQ(fetch.if_addr, 0x8048000u);
    EXPECT_EQ(fetch.if_lat, memlat);
    EXPECT_EQ(fetch.if_tlb, ITA_TLB_VHPT);
    const ita_cycle &last = r.recs.back();
    ASSERT_EQ(last.nslots, 1);
    EXPECT_EQ(last.slot[0].tlb, ITA_TLB_VHPT);
    EXPECT_EQ(last.slot[0].lat, memlat);
    // the fetch's events are in the first stall cycle, not attributed to a slot
    ASSERT_EQ(r.recs[0].nxev, 4);
    for (unsigned k = 0; k < 4; k++)
        EXPECT_EQ(r.recs[0].xev[k].slot, ITA_XEV_NO_SLOT);
    EXPECT_EQ(r.recs[0].xev[0].id, ita_event_id_find("ITLB_MISSES_FETCH_L1ITLB"));
    EXPECT_EQ(r.recs[1].nxev, 1); // L3_MISSES
    EXPECT_EQ(r.recs[1].xev[0].id, ita_event_id_find("L3_MISSES"));
    // the load's own: L2DTLB_MISSES, L3_REFERENCES, L3_MISSES on its slot, IA32_INST_RETIRED
    ASSERT_EQ(last.nxev, 4);
    EXPECT_EQ(last.xev[0].slot, 0);
    EXPECT_EQ(last.xev[0].id, ita_event_id_find("L2DTLB_MISSES"));
    EXPECT_EQ(last.xev[3].id, ita_event_id_find("IA32_INST_RETIRED"));
    EXPECT_EQ(last.xev[3].count, 1);
    EXPECT_EQ(last.slot[0].daddr, 0x0a000000u);
    EXPECT_EQ(last.slot[0].unit, ITA_UNIT_M);
}

TEST(ItaTiming, ParameterOverridesChangeBehaviour)
{
    const std::vector<pmu_rinsn> arr = strided_loop(512, 64, 0x0a000000, 2); // 32 KB twice
    EXPECT_EQ(Model().run(arr).st.l1d_misses, 1024u);
    EXPECT_EQ(Model({"l1d_size=64k"}).run(arr).st.l1d_misses, 512u);
    EXPECT_EQ(Model({"l1d_line=128"}).run(arr).st.l1d_misses, 512u);

    const std::vector<pmu_rinsn> loop = strided_loop(1000, 4, 0x0a000000);
    const TRun base = Model().run(loop);
    const TRun pen = Model({"mispred_penalty=20"}).run(loop);
    EXPECT_EQ(pen.st.cycles, base.st.cycles + 2 * (20 - 6));
    const TRun narrow = Model({"ia32_width=1"}).run(loop);
    EXPECT_GT(narrow.st.cycles, base.st.cycles);
    for (const ita_cycle &c : narrow.recs)
        EXPECT_LE(c.nslots, 1);

    std::vector<uint64_t> v(ops()->nparams);
    pmu_timing_defaults(ops(), v.data());
    pmu_err e;
    EXPECT_NE(pmu_timing_set(ops(), v.data(), "ia32_width=3", "--param", &e), 0);
    EXPECT_NE(pmu_timing_set(ops(), v.data(), "l1d_sise=1", "--param", &e), 0);
    ASSERT_EQ(pmu_timing_set(ops(), v.data(), "l2_line=96", "--param", &e), 0);
    EXPECT_EQ(ops()->create(v.data(), &e), nullptr);
    EXPECT_NE(std::string(e.msg).find("power of 2"), std::string::npos) << e.msg;
}

TEST(ItaTiming, ReturnsAndIndirectBranches)
{
    // call f; f: ret — 100 times: the return stack predicts every return; the direct call
    // is never mispredicted; an indirect jmp mispredicts the first time and when its target changes.
    std::vector<pmu_rinsn> p;
    for (int i = 0; i < 100; i++) {
        pmu_rinsn c = insn(0x8048000, {0xe8, 0xfb, 0x0f, 0, 0});
        c.next_pc = 0x8049000;
        p.push_back(mem(c, 0xbff00000, true));
        pmu_rinsn r = insn(0x8049000, {0xc3});
        r.next_pc = 0x8048005;
        p.push_back(mem(r, 0xbff00000, false));
        pmu_rinsn j = insn(0x8048005, {0xff, 0xe0});
        j.next_pc = (i / 10) % 2 ? 0x8048100 : 0x8048000; // a new target every 10 times
        p.push_back(j);
    }
    TRun r = Model().run(p);
    EXPECT_EQ(r.bad, "");
    EXPECT_EQ(r.st.branches, 0u); // no conditional branches
    EXPECT_EQ(r.st.mispredicts, 10u); // the indirect jmp: the first, then each change (9)
    uint64_t ret = 0, ind = 0;
    for (const ita_cycle &c : r.recs)
        for (unsigned k = 0; k < c.nslots; k++) {
            ret += ITA_SLOT_GET(&c.slot[k], BR_TYPE) == 2;
            ind += ITA_SLOT_GET(&c.slot[k], BR_TYPE) == 3;
        }
    EXPECT_EQ(ret, 100u);
    EXPECT_EQ(ind, 100u);
}

} // namespace

namespace {

// What a recording writes: the model's records survive both stream forms unchanged.
TEST(ItaTiming, RecordsRoundTripThroughBothStreamForms)
{
    const TRun r = Model({"l3_size=1M", "mem_lat=30"}).run(mixed(10000, 11));
    ASSERT_EQ(r.bad, "");
    ASSERT_GT(r.recs.size(), 10000u);
    for (pmu_stream_form form : {PMU_STREAM_TEXT, PMU_STREAM_BINARY}) {
        const std::string path = scratch(form == PMU_STREAM_TEXT ? "timing.txt" : "timing.bin");
        write_stream(path, form, r.recs);
        std::vector<ita_cycle> back;
        for (const ita_cycle &c : read_file(path).recs)
            back.push_back(c);
        EXPECT_TRUE(same_records(r.recs, back));
        unlink(path.c_str());
    }
}

} // namespace
