// Hot edges (pmu_gen_hot): the random stream lands at and around every code and data
// edge and on and next to every opcode pattern; the workload keeps its program, uses the
// documented exact encodings (br.cloop in counted loops) and touches data edges; the
// function list accessors; the pinned streams without `hot` are in test_gen.cpp.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "stream/ita/ita_stream_test_util.h"

namespace {

const uint64_t kEnc41 = (1ull << 41) - 1;

// The br.cloop pattern of libpfm's ita2_opcode.c: major opcode 4 (40:37), btype 5 (8:6).
const uint64_t kCloopMatch = 4ull << 37 | 5ull << 6;
const uint64_t kCloopCare = 0xfull << 37 | 7ull << 6;

struct Hot {
    std::vector<uint64_t> code, data, match, care;
    std::vector<uint16_t> lat, count;
    pmu_gen_hot h{};
    const pmu_gen_hot *get()
    {
        h.lat = lat.data();
        h.nlat = (unsigned)lat.size();
        h.count = count.data();
        h.ncount = (unsigned)count.size();
        h.code = code.data();
        h.ncode = (unsigned)code.size();
        h.data = data.data();
        h.ndata = (unsigned)data.size();
        h.opc_match = match.data();
        h.opc_care = care.data();
        h.nopc = (unsigned)match.size();
        return &h;
    }
};

// Runs a generator; f(record, index) for each record. Returns the count produced.
uint64_t run(uint64_t seed, uint64_t cycles, pmu_gen_mode mode, const pmu_gen_hot *hot,
             const std::function<void(const ita_cycle &, uint64_t)> &f)
{
    pmu_gen_opts o = {seed, cycles, mode, 4, hot};
    pmu_gen *g = pmu_gen_create(ITA, &o, nullptr);
    EXPECT_NE(g, nullptr);
    if (!g)
        return 0;
    ita_cycle c;
    uint64_t n = 0;
    while (pmu_gen_next(g, &c) == 1)
        f(c, n++);
    pmu_gen_destroy(g);
    return n;
}

std::vector<ita_cycle> records(uint64_t seed, uint64_t cycles, pmu_gen_mode mode,
                               const pmu_gen_hot *hot)
{
    std::vector<ita_cycle> out;
    run(seed, cycles, mode, hot, [&](const ita_cycle &c, uint64_t) { out.push_back(c); });
    return out;
}

std::string hex(uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

unsigned major_of(uint64_t enc) { return (unsigned)(enc >> 37) & 0xf; }
unsigned btype_of(uint64_t enc) { return (unsigned)(enc >> 6) & 7; }
unsigned x6_of(uint64_t enc) { return (unsigned)(enc >> 27) & 0x3f; }   // B4, B8, I18
unsigned x6a_of(uint64_t enc) { return (unsigned)(enc >> 30) & 0x3f; }  // M1, M4, M6, M9
unsigned qp_of(uint64_t enc) { return (unsigned)enc & 0x3f; }

// The ip-relative displacement s:imm20b, sign-extended, in bytes.
int64_t displacement(uint64_t enc)
{
    int64_t imm21 = (int64_t)(((enc >> 36) & 1) << 20 | ((enc >> 13) & 0xfffff));
    if (imm21 & (1 << 20))
        imm21 -= 1 << 21;
    return imm21 * 16;
}

std::vector<uint64_t> code_places(uint64_t edge)
{
    uint64_t e = edge & ~15ull, page = edge & ~0xfffull;
    std::vector<uint64_t> v = {e, e - 16, e + 16, page - 16, page, page + 0x1000 - 16, page + 0x1000};
    for (int b = ITA_F_IBR_MASK_MASK_WIDTH; b < 64; b++)
        v.push_back(e ^ (1ull << b));
    return v;
}

std::vector<uint64_t> data_places(uint64_t d)
{
    uint64_t page = d & ~0xfffull;
    std::vector<uint64_t> v = {d, d - 1, d + 1, d - 8, d + 8, page - 1, page, page + 0xfff, page + 0x1000};
    for (int b = ITA_F_DBR_MASK_MASK_WIDTH; b < 64; b++)
        v.push_back(d ^ (1ull << b));
    return v;
}

} // namespace

// ---- RANDOM mode ------------------------------------------------------------------------
TEST(Hot, RandomLandsAtAndAroundCodeEdges)
{
    Hot hot;
    // an aligned bound, an unaligned one, one at the start of a page, one in the kernel
    hot.code = {0x4000000000001230ull, 0x4000000000001ff8ull, 0x2000000000100000ull, 0xe000000000400020ull};
    std::set<uint64_t> ia64, ia32;
    uint64_t ia32_inside = 0;
    run(11, 150000, PMU_GEN_RANDOM, hot.get(), [&](const ita_cycle &c, uint64_t) {
        for (int i = 0; i < c.nslots; i++) {
            (c.is ? ia32 : ia64).insert(c.slot[i].ip);
            // inside the range [0x4000000000001230, 0x4000000000001ff8)
            ia32_inside += c.is && c.slot[i].ip > hot.code[0] && c.slot[i].ip < hot.code[1];
        }
    });
    for (uint64_t edge : hot.code) {
        for (uint64_t a : code_places(edge))
            EXPECT_TRUE(ia64.count(a)) << "edge " << hex(edge) << ": no IA-64 ip " << hex(a);
        for (uint64_t a : {edge, edge - 1, edge + 1, edge - 16, edge + 16})
            EXPECT_TRUE(ia32.count(a)) << "edge " << hex(edge) << ": no IA-32 ip " << hex(a);
    }
    EXPECT_GT(ia32_inside, 100u) << "IA-32 slots inside a hot range";
}

TEST(Hot, RandomLandsAtAndAroundDataEdges)
{
    Hot hot;
    hot.data = {0x6000000000000100ull, 0x600000000000fff9ull, 0xe000000004001000ull};
    std::set<uint64_t> da;
    uint64_t ia32_at_edge = 0, without_access = 0;
    run(12, 150000, PMU_GEN_RANDOM, hot.get(), [&](const ita_cycle &c, uint64_t) {
        for (int i = 0; i < c.nslots; i++) {
            const ita_slot &s = c.slot[i];
            bool mem = ITA_SLOT_GET(&s, LOAD) || ITA_SLOT_GET(&s, STORE);
            without_access += !mem && s.daddr;
            if (!mem)
                continue;
            da.insert(s.daddr);
            ia32_at_edge += c.is && std::count(hot.data.begin(), hot.data.end(), s.daddr);
        }
    });
    for (uint64_t edge : hot.data)
        for (uint64_t a : data_places(edge))
            EXPECT_TRUE(da.count(a)) << "edge " << hex(edge) << ": no data address " << hex(a);
    EXPECT_GT(ia32_at_edge, 10u) << "IA-32 loads and stores at a data edge";
    EXPECT_EQ(without_access, 0u);
}

TEST(Hot, RandomMatchesAndNearlyMissesOpcodePatterns)
{
    Hot hot;
    hot.match = {kCloopMatch, 1ull << 27, 8ull << 37 | 0x15ull << 13 | 0xa5};
    // br.cloop; nop.m/i/f exactly (every bit cared); and a pattern that also cares about
    // bits 26:13, which the matchers do not compare (so its near misses must flip one of
    // the compared bits 40:37 and 12:0)
    hot.care = {kCloopCare, kEnc41, 0xfull << 37 | 0x3fffull << 13 | 0x1fff};
    const uint64_t window = (((1ull << 14) - 1) << 27) | ((1ull << 13) - 1);
    std::vector<uint64_t> match(3), near(3), near_outside_window(3);
    std::set<int> cloop_units, nop_units;
    run(13, 150000, PMU_GEN_RANDOM, hot.get(), [&](const ita_cycle &c, uint64_t) {
        if (c.is)
            return;
        for (int i = 0; i < c.nslots; i++) {
            const ita_slot &s = c.slot[i];
            for (int k = 0; k < 3; k++) {
                uint64_t diff = (s.enc ^ hot.match[k]) & hot.care[k];
                if (!diff) {
                    match[k]++;
                    if (k == 0)
                        cloop_units.insert(s.unit);
                    if (k == 1)
                        nop_units.insert(s.unit);
                } else if (__builtin_popcountll(diff) == 1) {
                    near[k]++;
                    near_outside_window[k] += (diff & window) == 0;
                }
            }
        }
    });
    for (int k = 0; k < 3; k++) {
        EXPECT_GT(match[k], 1000u) << "pattern " << k;
        EXPECT_GT(near[k], 500u) << "pattern " << k;
    }
    EXPECT_EQ(near_outside_window[2], 0u) << "a near miss the matchers cannot see";
    // br.cloop suggests B (br.cloop) and M (a major-4 load); I and F are outside
    for (int u : {ITA_UNIT_M, ITA_UNIT_I, ITA_UNIT_F, ITA_UNIT_B})
        EXPECT_TRUE(cloop_units.count(u)) << "br.cloop pattern never on unit " << u;
    for (int u : {ITA_UNIT_M, ITA_UNIT_I, ITA_UNIT_F, ITA_UNIT_B})
        EXPECT_TRUE(nop_units.count(u)) << "nop pattern never on unit " << u;
}

TEST(Hot, RandomSplitsUnitsAmongAndOutsideTheSuggestedOnes)
{
    Hot hot;
    hot.match = {kCloopMatch};
    hot.care = {kCloopCare};
    uint64_t among = 0, outside = 0;
    run(14, 100000, PMU_GEN_RANDOM, hot.get(), [&](const ita_cycle &c, uint64_t) {
        for (int i = 0; !c.is && i < c.nslots; i++) {
            const ita_slot &s = c.slot[i];
            if (((s.enc ^ kCloopMatch) & kCloopCare) || ITA_SLOT_GET(&s, BR_TYPE))
                continue; // a branch is on B whatever the pattern suggests
            (s.unit == ITA_UNIT_M || s.unit == ITA_UNIT_B ? among : outside)++;
        }
    });
    // the suggested units two thirds of the time (plus random encodings that happen to match)
    EXPECT_GT(among, outside);
    EXPECT_GT(outside * 5, among) << among << " among, " << outside << " outside";
}

TEST(Hot, EveryRecordValidAndEachSeedReproduces)
{
    Hot hot;
    hot.code = {0, 0x4000000000001000ull, ~0ull, 0x8048000ull};
    hot.data = {0, 0x6000000000000100ull, ~0ull};
    hot.match = {kCloopMatch, 0};
    hot.care = {kCloopCare, 0}; // a pattern that cares about nothing matches everything
    hot.lat = {1, 4, 8, 4096, 65535};
    hot.count = {0, 1, 7, 255};
    for (pmu_gen_mode mode : {PMU_GEN_RANDOM, PMU_GEN_WORKLOAD}) {
        for (uint64_t seed : {1ull, 2ull, 0xfeedull}) {
            uint64_t bad = 0;
            std::string first;
            std::vector<ita_cycle> a = records(seed, 200000, mode, hot.get());
            for (size_t i = 0; i < a.size(); i++) {
                pmu_err err;
                if (ita_cycle_validate(&a[i], "hot", &err) && !bad++)
                    first = "record " + std::to_string(i + 1) + ": " + err.msg + "\n  " + fmt(a[i]);
            }
            EXPECT_EQ(a.size(), 200000u);
            EXPECT_EQ(bad, 0u) << "mode " << mode << " seed " << seed << ": " << first;
            EXPECT_TRUE(same_records(a, records(seed, 200000, mode, hot.get()))) << "mode " << mode;
        }
    }
}

// Hot decisions draw from a PRNG of their own: the stream with edges is the stream
// without them with some ips, data addresses, encodings and units replaced; an empty
// `hot` changes nothing in RANDOM mode.
TEST(Hot, RandomOnlyReplacesTheAimedFields)
{
    Hot hot;
    hot.code = {0x4000000000001000ull};
    hot.data = {0x6000000000000100ull};
    hot.match = {kCloopMatch};
    hot.care = {kCloopCare};
    std::vector<ita_cycle> plain = records(21, 100000, PMU_GEN_RANDOM, nullptr);
    std::vector<ita_cycle> aimed = records(21, 100000, PMU_GEN_RANDOM, hot.get());
    ASSERT_EQ(plain.size(), aimed.size());
    uint64_t replaced = 0;
    for (size_t i = 0; i < plain.size(); i++) {
        ita_cycle p = plain[i], a = aimed[i];
        for (int k = 0; k < a.nslots && k < ITA_MAX_SLOTS; k++) {
            replaced += a.slot[k].ip != p.slot[k].ip;
            a.slot[k].ip = p.slot[k].ip;
            a.slot[k].daddr = p.slot[k].daddr;
            a.slot[k].enc = p.slot[k].enc;
            a.slot[k].unit = p.slot[k].unit;
        }
        ASSERT_TRUE(same_cycle(p, a)) << "record " << i + 1 << "\n  " << fmt(plain[i]) << "\n  "
                                      << fmt(aimed[i]);
    }
    EXPECT_GT(replaced, 50000u);
    Hot empty;
    EXPECT_TRUE(same_records(plain, records(21, 100000, PMU_GEN_RANDOM, empty.get())));
}

// Latency bounds and counts, both modes: every bound and one below it lands on fetches and
// on loads, every count and one more on general events; nothing else changes, and a value
// that was there stays (no latency becomes 0).
TEST(Hot, LatenciesAndCountsLandOnTheBoundsAndReplaceOnlyThem)
{
    Hot hot;
    hot.lat = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
    hot.count = {1, 2, 3};
    for (pmu_gen_mode mode : {PMU_GEN_RANDOM, PMU_GEN_WORKLOAD}) {
        std::vector<ita_cycle> plain = records(31, 200000, mode, nullptr);
        std::vector<ita_cycle> aimed = records(31, 200000, mode, hot.get());
        ASSERT_EQ(plain.size(), aimed.size());
        std::set<unsigned> if_lats, load_lats;
        std::map<unsigned, uint64_t> counts; // a replaced count -> how often
        for (size_t i = 0; i < plain.size(); i++) {
            ita_cycle p = plain[i], a = aimed[i];
            ASSERT_EQ(a.if_lat != 0, p.if_lat != 0) << "record " << i + 1;
            if (a.if_lat != p.if_lat)
                if_lats.insert(a.if_lat);
            a.if_lat = p.if_lat;
            for (int k = 0; k < a.nslots && k < ITA_MAX_SLOTS; k++) {
                ASSERT_EQ(a.slot[k].lat != 0, p.slot[k].lat != 0) << "record " << i + 1;
                if (a.slot[k].lat != p.slot[k].lat) {
                    ASSERT_TRUE(ITA_SLOT_GET(&a.slot[k], LOAD)) << "record " << i + 1 << ": only loads";
                    load_lats.insert(a.slot[k].lat);
                }
                a.slot[k].lat = p.slot[k].lat;
            }
            for (int k = 0; k < a.nxev && k < ITA_MAX_XEV; k++) {
                if (a.xev[k].count != p.xev[k].count)
                    counts[a.xev[k].count]++;
                a.xev[k].count = p.xev[k].count;
            }
            ASSERT_TRUE(same_cycle(p, a)) << "record " << i + 1 << "\n  " << fmt(plain[i]) << "\n  "
                                          << fmt(aimed[i]);
        }
        for (unsigned b : hot.lat)
            for (unsigned v : {b - 1, b}) {
                EXPECT_TRUE(if_lats.count(v)) << "mode " << mode << ": no fetch of latency " << v;
                EXPECT_TRUE(load_lats.count(v)) << "mode " << mode << ": no load of latency " << v;
            }
        EXPECT_EQ(if_lats.size() + load_lats.size(), 4 * hot.lat.size()) << "only the bounds and one below";
        for (const auto &kv : counts)
            EXPECT_TRUE(kv.first >= 1 && kv.first <= 4) << "mode " << mode << ": count " << kv.first;
        for (unsigned v : {1u, 2u, 3u, 4u})
            EXPECT_TRUE(counts.count(v)) << "mode " << mode << ": no general event counting " << v;
    }
}

// ---- WORKLOAD mode -----------------------------------------------------------------------
TEST(Hot, WorkloadKeepsItsProgramAndRunsTheSamePath)
{
    Hot hot;
    hot.code = {0x4000000000000100ull};
    hot.match = {kCloopMatch};
    hot.care = {kCloopCare};
    auto functions = [](const pmu_gen_hot *h) {
        pmu_gen_opts o = {31, 0, PMU_GEN_WORKLOAD, 4, h};
        pmu_gen *g = pmu_gen_create(ITA, &o, nullptr);
        std::vector<std::string> out;
        for (unsigned i = 0; g && i < pmu_gen_nfuncs(g); i++) {
            uint64_t a, b;
            const char *name;
            EXPECT_EQ(pmu_gen_func(g, i, &a, &b, &name), 0);
            out.push_back(hex(a) + " " + hex(b) + " " + name);
        }
        pmu_gen_destroy(g);
        return out;
    };
    std::vector<std::string> plain_fns = functions(nullptr);
    EXPECT_GT(plain_fns.size(), 20u);
    EXPECT_EQ(plain_fns, functions(hot.get()));
    Hot data;
    data.data = {0x6000000000100000ull};
    EXPECT_EQ(plain_fns, functions(data.get()));

    // without data edges, code edges and patterns change nothing in a workload stream (its
    // encodings are always the exact ones)
    std::vector<ita_cycle> plain = records(31, 200000, PMU_GEN_WORKLOAD, nullptr);
    std::vector<ita_cycle> exact = records(31, 200000, PMU_GEN_WORKLOAD, hot.get());
    ASSERT_EQ(plain.size(), exact.size());
    uint64_t changed = 0;
    for (size_t i = 0; i < plain.size(); i++) {
        ita_cycle e = exact[i];
        for (int k = 0; k < e.nslots && k < ITA_MAX_SLOTS; k++) {
            changed += e.slot[k].enc != plain[i].slot[k].enc;
            e.slot[k].enc = plain[i].slot[k].enc;
        }
        ASSERT_TRUE(same_cycle(plain[i], e)) << "record " << i + 1;
    }
    EXPECT_EQ(changed, 0u);
}

// Counted loops end in br.cloop (software-pipelined FP loops in br.ctop), decoded here
// from the encoding as an opcode matcher sees it.
TEST(Hot, WorkloadCountedLoopsUseBrCloop)
{
    Hot none; // any `hot`, even an empty one, selects the exact encodings
    for (uint64_t seed : {41ull, 42ull}) {
        uint64_t cloop = 0, ctop = 0, bad = 0, loop_like = 0;
        std::string first;
        run(seed, 400000, PMU_GEN_WORKLOAD, none.get(), [&](const ita_cycle &c, uint64_t i) {
            for (int k = 0; !c.is && k < c.nslots; k++) {
                const ita_slot &s = c.slot[k];
                bool counted = major_of(s.enc) == 4 && s.unit == ITA_UNIT_B &&
                               (btype_of(s.enc) == 5 || btype_of(s.enc) == 7);
                if (!counted)
                    continue;
                (btype_of(s.enc) == 5 ? cloop : ctop)++;
                // a backward ip-relative branch in slot 2, unpredicated
                bool ok = ITA_SLOT_GET(&s, BR_TYPE) == 1 && s.target <= s.ip && s.slot == 2 &&
                          qp_of(s.enc) == 0;
                loop_like += ok;
                if (!ok && !bad++)
                    first = "record " + std::to_string(i + 1) + ": " + fmt(c);
            }
        });
        EXPECT_GT(cloop, 5000u) << "seed " << seed;
        EXPECT_GT(ctop, 100u) << "seed " << seed;
        EXPECT_EQ(bad, 0u) << first;
        EXPECT_EQ(loop_like, cloop + ctop);
    }
}

// Every IA-64 slot of the workload carries the encoding of its class as
// docs/ita-stream-format.md lists them, and ip-relative branches encode their target.
TEST(Hot, WorkloadEncodingsFollowTheTable)
{
    Hot none;
    uint64_t checked = 0, wrong = 0, displacements = 0;
    std::string first;
    std::set<std::string> classes;
    run(51, 400000, PMU_GEN_WORKLOAD, none.get(), [&](const ita_cycle &c, uint64_t i) {
        if (c.is)
            return;
        for (int k = 0; k < c.nslots; k++) {
            const ita_slot &s = c.slot[k];
            uint64_t e = s.enc;
            unsigned major = major_of(e), br = ITA_SLOT_GET(&s, BR_TYPE);
            std::string cls;
            bool ok;
            if (ITA_SLOT_GET(&s, PRED_OFF)) {
                cls = "squashed";
                ok = qp_of(e) != 0;
            } else if (ITA_SLOT_GET(&s, NOP)) {
                cls = s.unit == ITA_UNIT_B ? "nop.b" : "nop.mif";
                ok = e == (s.unit == ITA_UNIT_B ? 2ull << 37 : 1ull << 27);
            } else if (ITA_SLOT_GET(&s, RSE)) {
                cls = "loadrs";
                ok = e == 0x0aull << 27;
            } else if (ITA_SLOT_GET(&s, LOAD)) {
                cls = major == 4 ? "ld" : "ldf";
                ok = (major == 4 || major == 6) && x6a_of(e) <= 3 && ((e >> 27) & 7) == 0 &&
                     !((e >> 36) & 1) && s.unit == ITA_UNIT_M;
            } else if (ITA_SLOT_GET(&s, STORE)) {
                cls = major == 4 ? "st" : "stf";
                ok = (major == 4 || major == 6) && (x6a_of(e) & 0x3c) == 0x30 && ((e >> 6) & 0x7f) == 0 &&
                     s.unit == ITA_UNIT_M;
            } else if (ITA_SLOT_GET(&s, FP)) {
                cls = "fma";
                ok = major >= 8 && major <= 0xb && s.unit == ITA_UNIT_F;
            } else if (br == 2) {
                cls = "br.ret";
                ok = major == 0 && x6_of(e) == 0x21 && btype_of(e) == 4;
            } else if (br == 3) {
                cls = "br.call indirect";
                ok = major == 1 && btype_of(e) == 0;
            } else if (br == 1) {
                cls = major == 5 ? "br.call" : "br";
                ok = (major == 4 && (btype_of(e) == 0 || btype_of(e) == 5 || btype_of(e) == 7)) ||
                     (major == 5 && btype_of(e) == 0);
                // the low 25 bits of ip + displacement are the target's
                uint64_t to = s.ip + (uint64_t)displacement(e);
                ok = ok && ((to ^ s.target) & ((1ull << 25) - 1)) == 0;
                displacements++;
            } else if (major == 0) {
                // rum, sum (imm24 = the PSR.up bit), rfi
                cls = "system";
                ok = e == (0x05ull << 27 | 1ull << 8) || e == (0x04ull << 27 | 1ull << 8) ||
                     e == 0x08ull << 27;
            } else {
                cls = "alu";
                ok = major == 8 ? ((e >> 31) & 0x3f) == 0 && ((e >> 29) & 0xf) != 2
                                : major == 5 || major == 7;
                ok = ok && (s.unit == ITA_UNIT_M || s.unit == ITA_UNIT_I);
            }
            classes.insert(cls);
            checked++;
            if (!ok && !wrong++)
                first = "record " + std::to_string(i + 1) + " slot " + std::to_string(k + 1) +
                        " (" + cls + " " + hex(e) + "): " + fmt(c);
        }
    });
    EXPECT_GT(checked, 500000u);
    EXPECT_GT(displacements, 10000u);
    EXPECT_EQ(wrong, 0u) << first;
    for (const char *cls : {"squashed", "nop.b", "nop.mif", "loadrs", "ld", "ldf", "st", "stf", "fma",
                            "br.ret", "br.call indirect", "br.call", "br", "system", "alu"})
        EXPECT_TRUE(classes.count(cls)) << cls << " never seen";
}

TEST(Hot, WorkloadTouchesDataEdges)
{
    Hot hot;
    // a heap address, a kernel data address, an IA-32 heap address
    hot.data = {0x6000000000100800ull, 0xe000000004000100ull, 0x0a000400ull};
    std::map<uint64_t, std::set<int64_t>> offsets; // edge -> offsets seen within 64 bytes
    run(61, 1000000, PMU_GEN_WORKLOAD, hot.get(), [&](const ita_cycle &c, uint64_t) {
        for (int k = 0; k < c.nslots; k++) {
            const ita_slot &s = c.slot[k];
            if (!ITA_SLOT_GET(&s, LOAD) && !ITA_SLOT_GET(&s, STORE))
                continue;
            for (uint64_t edge : hot.data) {
                int64_t d = (int64_t)(s.daddr - edge);
                if (d >= -64 && d < 64)
                    offsets[edge].insert(d);
            }
        }
    });
    for (uint64_t edge : hot.data) {
        std::string seen;
        for (int64_t d : offsets[edge])
            seen += " " + std::to_string(d);
        for (int64_t d : {0, -1, 1, -8, 8})
            EXPECT_TRUE(offsets[edge].count(d)) << "edge " << hex(edge) << " offset " << d
                                                << "; seen:" << seen;
    }
}

// ---- interface -----------------------------------------------------------------------------
TEST(Hot, FunctionListIsTheSymbolFile)
{
    pmu_gen_opts o = {9, 0, PMU_GEN_WORKLOAD, 3, nullptr};
    pmu_gen *g = pmu_gen_create(ITA, &o, nullptr);
    ASSERT_NE(g, nullptr);
    std::string path = scratch("hot_sym.txt");
    pmu_err err;
    ASSERT_EQ(pmu_gen_write_symbols(g, path.c_str(), &err), 0) << err.msg;
    std::string listed;
    for (unsigned i = 0; i < pmu_gen_nfuncs(g); i++) {
        uint64_t a, b;
        const char *name;
        ASSERT_EQ(pmu_gen_func(g, i, &a, &b, &name), 0);
        char line[160];
        snprintf(line, sizeof line, "%016llx %016llx %s\n", (unsigned long long)a,
                 (unsigned long long)b, name);
        listed += line;
    }
    EXPECT_EQ(listed, slurp(path));
    remove(path.c_str());
    EXPECT_EQ(pmu_gen_func(g, pmu_gen_nfuncs(g), nullptr, nullptr, nullptr), -1);
    EXPECT_EQ(pmu_gen_func(g, 0, nullptr, nullptr, nullptr), 0);
    pmu_gen_destroy(g);

    pmu_gen_opts r = {9, 10, PMU_GEN_RANDOM, 0, nullptr};
    g = pmu_gen_create(ITA, &r, nullptr);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(pmu_gen_nfuncs(g), 0u);
    EXPECT_EQ(pmu_gen_func(g, 0, nullptr, nullptr, nullptr), -1);
    pmu_gen_destroy(g);
}

TEST(Hot, CreateRejectsBadEdgesAndCopiesGoodOnes)
{
    Hot hot;
    pmu_gen_hot h = *hot.get();
    pmu_gen_opts o = {1, 10, PMU_GEN_RANDOM, 0, &h};
    h.code = nullptr;
    h.ncode = 1; // a count without an array
    EXPECT_EQ(pmu_gen_create(ITA, &o, nullptr), nullptr);
    h = *hot.get();
    h.data = nullptr;
    h.ndata = 2;
    EXPECT_EQ(pmu_gen_create(ITA, &o, nullptr), nullptr);
    uint64_t wide = 1ull << 41, ok = 1;
    h = *hot.get();
    h.opc_match = &wide;
    h.opc_care = &ok;
    h.nopc = 1;
    EXPECT_EQ(pmu_gen_create(ITA, &o, nullptr), nullptr) << "a match value wider than 41 bits";
    h.opc_match = &ok;
    h.opc_care = &wide;
    EXPECT_EQ(pmu_gen_create(ITA, &o, nullptr), nullptr) << "a care value wider than 41 bits";
    pmu_err err;
    EXPECT_EQ(pmu_gen_create(ITA, &o, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "opcode pattern 1 (0x1/0x20000000000) has bits above bit 40");
    h = *hot.get();
    h.code = nullptr;
    h.ncode = 1;
    EXPECT_EQ(pmu_gen_create(ITA, &o, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "hot edges: a count without its array");
    h = *hot.get();
    h.lat = nullptr;
    h.nlat = 1;
    EXPECT_EQ(pmu_gen_create(ITA, &o, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "hot edges: a count without its array");
    h = *hot.get();
    h.count = nullptr;
    h.ncount = 1;
    EXPECT_EQ(pmu_gen_create(ITA, &o, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "hot edges: a count without its array");
    const uint16_t lats[2] = {8, 0};
    h = *hot.get();
    h.lat = lats;
    h.nlat = 2;
    EXPECT_EQ(pmu_gen_create(ITA, &o, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "generator: latency bound 2 is 0, expected 1..65535");

    // the generator keeps its own copy: changing the caller's arrays later changes nothing
    std::vector<uint64_t> code = {0x4000000000001000ull};
    pmu_gen_hot mine = {code.data(), 1, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr, 0};
    pmu_gen_opts m = {3, 50000, PMU_GEN_RANDOM, 0, &mine};
    pmu_gen *g = pmu_gen_create(ITA, &m, nullptr);
    ASSERT_NE(g, nullptr);
    code[0] = 0x1230;
    std::vector<ita_cycle> after;
    ita_cycle c;
    while (pmu_gen_next(g, &c) == 1)
        after.push_back(c);
    pmu_gen_destroy(g);
    code[0] = 0x4000000000001000ull;
    EXPECT_TRUE(same_records(after, records(3, 50000, PMU_GEN_RANDOM, &mine)));
}
