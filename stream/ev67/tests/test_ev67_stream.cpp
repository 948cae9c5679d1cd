// The ev67 dialect (stream/ev67/, docs/ev67-stream.md): validation of every rule, the
// text form's syntax and errors, both forms' round trips, the generator's rules,
// determinism and statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "stream/pmu_dialect_test_util.h"
#include "stream/ev67/ev67_stream.h"
#include "stream/pmu_stream.h"

#define EV67 (&pmu_dialect_ev67)

namespace {

using Read = DialectRead<ev67_cycle>;

Read read_mem(const std::string &data, const char *name = "t.txt")
{
    return dialect_read_mem<ev67_cycle>(EV67, data, name);
}

std::vector<ev67_cycle> generate(uint64_t seed, pmu_gen_mode mode, uint64_t n)
{
    pmu_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.cycles = n;
    o.mode = mode;
    return dialect_generate<ev67_cycle>(EV67, o);
}

ev67_cycle canon(const ev67_cycle &c)
{
    ev67_cycle o;
    EV67->canon(&c, &o);
    return o;
}

std::string validate(const ev67_cycle &c)
{
    pmu_err err;
    return EV67->validate(&c, "r", &err) ? std::string(err.msg) : std::string();
}

// A valid record: fetches 4 instructions from tag 10.
ev67_cycle base()
{
    ev67_cycle c;
    memset(&c, 0, sizeof c);
    c.nfetch = 4;
    for (unsigned i = 0; i < 4; i++)
        c.fetch[i] = ev67_fetch{0x1000 + 4 * i, 10 + i, EV67_CLASS_INTOP, 0};
    c.pc = 0x1000;
    c.head = 10;
    return c;
}

} // namespace

TEST(Ev67Stream, ValidRecordPasses) { EXPECT_EQ(validate(base()), ""); }

TEST(Ev67Stream, EveryPerRecordRuleIsRejectedWithItsMessage)
{
    struct Case {
        const char *what;
        void (*mut)(ev67_cycle &);
        const char *msg;
    } cases[] = {
        {"nfetch", [](ev67_cycle &c) { c.nfetch = 5; }, "field 'nfetch': 5, expected 0..4"},
        {"fetch pc", [](ev67_cycle &c) { c.fetch[1].pc = 0x1002; }, "field 'fetch[1].pc'"},
        {"cls", [](ev67_cycle &c) { c.fetch[2].cls = 11; }, "field 'fetch[2].cls': 11"},
        {"flags", [](ev67_cycle &c) { c.fetch[0].flags = 0x40; }, "EV67_FF_ALL"},
        {"taken", [](ev67_cycle &c) { c.fetch[0].flags = EV67_FF_TAKEN; }, "TAKEN on a intop"},
        {"cmov both", [](ev67_cycle &c) { c.fetch[3].flags = EV67_FF_CMOV1 | EV67_FF_CMOV2; },
         "both CMOV1 and CMOV2"},
        {"cmov cls", [](ev67_cycle &c) { c.fetch[3].flags = EV67_FF_CMOV1; c.fetch[3].cls = 1; },
         "a CMOV half of class load"},
        {"cmov pair", [](ev67_cycle &c) { c.fetch[1].flags = EV67_FF_CMOV1; }, "after a CMOV1"},
        {"cmov pc", [](ev67_cycle &c) { c.fetch[1].flags = EV67_FF_CMOV1; c.fetch[2].flags = EV67_FF_CMOV2; },
         "both CMOV halves have the CMOV's pc"},
        {"cmov2 alone", [](ev67_cycle &c) { c.fetch[2].flags = EV67_FF_CMOV2; }, "CMOV2 not right after"},
        {"tags", [](ev67_cycle &c) { c.fetch[2].tag = 99; }, "field 'fetch[2].tag': 99, expected 12 (R1"},
        {"pc", [](ev67_cycle &c) { c.pc = 0x1001; }, "field 'pc': 0x1001"},
        {"pal", [](ev67_cycle &c) { c.pal = 2; }, "field 'pal': 2, expected 0 or 1"},
        {"bcmiss", [](ev67_cycle &c) { c.bcmiss = 3; }, "field 'bcmiss'"},
        {"mreplay", [](ev67_cycle &c) { c.mreplay = 2; }, "field 'mreplay'"},
        {"stall_first", [](ev67_cycle &c) { c.stall_first = 3; }, "field 'stall_first': 3 with nstall 0"},
        {"trap", [](ev67_cycle &c) { c.trap = 2; }, "field 'trap': 2"},
        {"trap fields", [](ev67_cycle &c) { c.trap_tag = 3; }, "field 'trap_tag': set without a trap"},
        {"trap_type", [](ev67_cycle &c) { c.trap = 1; c.trap_type = 16; }, "field 'trap_type': 16"},
        {"lso", [](ev67_cycle &c) { c.trap = 1; c.trap_type = EV67_TRAP_ARITH; c.trap_lso = 1; },
         "only with a replay trap"},
        {"mis", [](ev67_cycle &c) { c.trap = 1; c.trap_tag = 11; c.trap_mis = 1; },
         "expected a conditional branch"},
        {"nretire", [](ev67_cycle &c) { c.nretire = 12; }, "field 'retire': 12 entries, expected at most 11"},
        {"nsquash", [](ev67_cycle &c) { c.nsquash = 5; }, "field 'squash': 5 entries"},
        {"retire order", [](ev67_cycle &c) { c.nretire = 2; c.retire[0] = 5; c.retire[1] = 4; },
         "field 'retire[1]': tag 4 after 5"},
        {"ends once", [](ev67_cycle &c) { c.nretire = 1; c.retire[0] = 5; c.nsquash = 1; c.squash[0] = 5; },
         "end once (R3)"},
        {"abort", [](ev67_cycle &c) { c.abort = 2; }, "field 'abort': 2"},
        {"abort fields", [](ev67_cycle &c) { c.kbm_first = 3; }, "field 'kbm_first': set without"},
        {"kbm", [](ev67_cycle &c) { c.abort = 1; c.abort_first = 12; c.kbm_first = 11; },
         "field 'kbm_first': 11, expected a tag >= abort_first 12"},
    };
    for (const Case &k : cases) {
        ev67_cycle c = base();
        k.mut(c);
        std::string m = validate(c);
        EXPECT_NE(m.find(k.msg), std::string::npos) << k.what << ": " << m;
        EXPECT_EQ(m.rfind("r: ", 0), 0u) << m;
    }
}

TEST(Ev67Stream, TextFormReadsWhatTheDocShows)
{
    Read r = read_mem("pal=0 tag=100 fetch=cbr@0x1200:t,intop@0x1300,cmov\n"
                      "fetch=nop:s,load,store stall=104+2 retire=100-101\n"
                      "trap=105:replay:lso mreplay retire=102-103 squash=104\n"
                      "abort=105 bcmiss\n"
                      "repeat=3\n");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 7u);
    const ev67_cycle &a = r.recs[0];
    EXPECT_EQ(a.nfetch, 4);
    EXPECT_EQ(a.fetch[0].tag, 100u);
    EXPECT_EQ(a.fetch[0].flags, EV67_FF_TAKEN);
    EXPECT_EQ(a.fetch[1].pc, 0x1300u);
    EXPECT_EQ(a.fetch[2].flags, EV67_FF_CMOV1);
    EXPECT_EQ(a.fetch[2].pc, 0x1304u);
    EXPECT_EQ(a.fetch[3].flags, EV67_FF_CMOV2);
    EXPECT_EQ(a.fetch[3].pc, 0x1304u);
    EXPECT_EQ(a.head, 100u);
    EXPECT_EQ(a.pc, 0x1200u);
    const ev67_cycle &b = r.recs[1];
    EXPECT_EQ(b.fetch[0].pc, 0x1308u); // after the CMOV
    EXPECT_EQ(b.fetch[0].flags, EV67_FF_SQUASH);
    EXPECT_EQ(b.fetch[1].tag, 105u);
    EXPECT_EQ(b.nstall, 2);
    EXPECT_EQ(b.head, 102u);
    const ev67_cycle &c = r.recs[2];
    EXPECT_EQ(c.trap_lso, 1);
    EXPECT_EQ(c.squash[0], 104u);
    EXPECT_EQ(c.head, 105u);
    EXPECT_EQ(c.pc, 0x130cu);     // the oldest in flight, the load
    const ev67_cycle &d = r.recs[3];
    EXPECT_EQ(d.abort_first, 105u);
    EXPECT_EQ(d.kbm_first, 107u); // none: one past the youngest fetched
    EXPECT_EQ(d.head, 107u);      // nothing in flight: the next tag
    EXPECT_EQ(d.pc, 0x130cu);     // sticky
}

TEST(Ev67Stream, ParseErrorsGiveFileLineColumn)
{
    struct Case {
        const char *text, *msg;
    } cases[] = {
        {"fetch=intop\nfetch=bogus\n", "t.txt:2:7: field 'fetch': expected a class"},
        {"fetch=intop:z\n", "t.txt:1:13: field 'fetch': unknown flag 'z'"},
        {"  zap=1\n", "t.txt:1:3: field '?': unknown key 'zap'"},
        {"pal=2\n", "t.txt:1:5: field 'pal'"},
        {"fetch=intop,intop,intop,intop,intop\n", "t.txt:1:31: field 'fetch': more than 4"},
        {"trap=3:bad\n", "t.txt:1:8: field 'trap': expected a trap type"},
        {"stall=3\n", "t.txt:1:7: field 'stall': expected stall=FIRST+N"},
        {"pal=0 pal=1\n", "t.txt:1:7: field 'pal': given twice"},
        {"bcmiss=1\n", "t.txt:1:1: field 'bcmiss': a flag takes no value"},
        {"retire=5-3\n", "t.txt:1:8: field 'retire': range 5-3"},
    };
    for (const Case &k : cases) {
        Read r = read_mem(k.text);
        EXPECT_EQ(r.rc, -1) << k.text;
        EXPECT_NE(r.err.find(k.msg), std::string::npos) << k.text << " -> " << r.err;
    }
}

TEST(Ev67Stream, CrossRecordRulesAreCheckedWithFileLine)
{
    struct Case {
        const char *text, *msg;
    } cases[] = {
        {"fetch=intop\ntag=7 fetch=intop\n", "t.txt:2: field 'fetch[0].tag': 7, expected 1 (R1"},
        {"fetch=intop,intop,intop,cmov1\nfetch=intop\n", "t.txt:2: field 'fetch[0].flags'"},
        {"fetch=intop\nretire=1\n", "t.txt:2: field 'retire[0]': tag 1, expected the oldest"},
        {"fetch=intop,intop\nretire=1\n", "expected the oldest in-flight instruction, tag 0 (R3"},
        {"fetch=nop:s\nretire=0\n", "t.txt:2: field 'retire[0]': tag 0 is a squashed"},
        {"fetch=nop\nsquash=0\n", "t.txt:2: field 'squash[0]': tag 0 is not a squashed"},
        {"fetch=intop\nretire=0\nretire=0\n", "t.txt:3: field 'retire[0]': tag 0, but nothing"},
        {"fetch=intop,intop\nretire=0\nabort=0/2\n", "t.txt:3: field 'abort_first': 0, expected an in-flight"},
        {"fetch=intop,intop\nabort=0/9\n", "t.txt:2: field 'kbm_first': 9, expected 0..2"},
        {"fetch=intop\ntrap=5:arith\n", "t.txt:2: field 'trap_tag': 5"},
        {"fetch=intop\ntrap=0:invalid1:mis\n", "t.txt:2: field 'trap_mis': 1 on tag 0, a intop"},
        {"fetch=intop\nstall=0+2\n", "t.txt:2: field 'stall_first': range 0..1"},
        {"fetch=intop\nhead=5\n", "t.txt:2: field 'head': 5, expected 0 (R8"},
    };
    for (const Case &k : cases) {
        Read r = read_mem(k.text);
        EXPECT_EQ(r.rc, -1) << k.text;
        EXPECT_NE(r.err.find(k.msg), std::string::npos) << k.text << " -> " << r.err;
    }
}

TEST(Ev67Stream, RetireBacklogIsBounded)
{
    // 11 retires a cycle: backlog 3, 6, ..., 15, then 18 > 15 (R9).
    std::string s;
    uint32_t tag = 0;
    for (int k = 0; k < 17; k++)
        s += "fetch=intop,intop,intop,intop\n";
    for (int k = 0; k < 6; k++) {
        s += "retire=" + std::to_string(tag) + "-" + std::to_string(tag + 10) + "\n";
        tag += 11;
    }
    Read r = read_mem(s);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(r.err.find("t.txt:23: field 'nretire': 11 makes the retire backlog 18"),
              std::string::npos) << r.err;
}

TEST(Ev67Stream, TheTextReaderRefusesARepeatedRecordThatNamesInstructions)
{
    // repeat=N stands for N copies of the record: a record that fetches or ends an
    // instruction would fetch or end it N times.  The binary reader refuses such a count,
    // and the text reader does alike (before, it read the line once, and `pmusim conv` wrote
    // a binary stream that its reader refused: found by tests/fuzz/fuzz_roundtrip).
    const struct {
        const char *text, *expect;
    } cases[] = {
        {"fetch=intop,intop\nretire=0 repeat=2\n",
         "t.txt:2: field 'repeat': 2 for a record that fetches or ends instructions, expected 1"},
        {"repeat=3 fetch=intop\n",
         "t.txt:1: field 'repeat': 3 for a record that fetches or ends instructions, expected 1"},
    };
    for (const auto &c : cases) {
        Read r = read_mem(c.text);
        EXPECT_EQ(r.rc, -1) << c.text;
        EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    }
    Read ok = read_mem("fetch=intop,intop\nrepeat=4\nretire=0\n");
    EXPECT_EQ(ok.rc, 0) << ok.err;
    EXPECT_EQ(ok.recs.size(), 6u);
}

TEST(Ev67Stream, TheCheckerSeesRepeatedRecords)
{
    // The checker over records (for records that come from elsewhere than a reader) sees
    // every one: the same retire twice is refused at the second.
    Read r = read_mem("fetch=intop,intop\nretire=0\n");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 2u);
    r.recs.push_back(r.recs[1]);
    ev67_stream_check *k = ev67_stream_check_create();
    pmu_err err;
    int rc = 0;
    for (size_t i = 0; i < r.recs.size() && rc == 0; i++)
        rc = ev67_stream_check_step(k, &r.recs[i], "rec", &err);
    EXPECT_EQ(rc, -1);
    EXPECT_NE(std::string(err.msg).find("rec: field 'retire[0]': tag 0, expected the oldest"),
              std::string::npos) << err.msg;
    ev67_stream_check_destroy(k);
}

static void roundtrip(const std::vector<ev67_cycle> &v, pmu_stream_form form, const char *tag)
{
    Read r = read_mem(dialect_write_mem(EV67, v, form), tag);
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), v.size());
    for (size_t i = 0; i < v.size(); i++) {
        ev67_cycle a = canon(v[i]), b = canon(r.recs[i]);
        char fa[1024], fb[1024];
        EV67->format(&a, fa, sizeof fa);
        EV67->format(&b, fb, sizeof fb);
        ASSERT_TRUE(EV67->equal(&a, &b)) << tag << " record " << i << "\n" << fa << "\n" << fb;
    }
}

TEST(Ev67Stream, GeneratedStreamsRoundTripThroughBothForms)
{
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        uint64_t seed = 0x67 + mode;
        printf("seed %llu mode %d\n", (unsigned long long)seed, mode);
        std::vector<ev67_cycle> v = generate(seed, mode, 20000);
        roundtrip(v, PMU_STREAM_TEXT, "t");
        roundtrip(v, PMU_STREAM_BINARY, "b");
    }
}

TEST(Ev67Stream, SameSeedSameStream)
{
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        std::vector<ev67_cycle> a = generate(5, mode, 3000), b = generate(5, mode, 3000),
                                c = generate(6, mode, 3000);
        bool same = true, differ = false;
        for (size_t i = 0; i < a.size(); i++) {
            ev67_cycle x = canon(a[i]), y = canon(b[i]), z = canon(c[i]);
            same = same && EV67->equal(&x, &y);
            differ = differ || !EV67->equal(&x, &z);
        }
        EXPECT_TRUE(same);
        EXPECT_TRUE(differ);
    }
}

TEST(Ev67Stream, FunctionsAreLaidOutByOwner)
{
    pmu_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.cycles = 1;
    pmu_gen *g = pmu_gen_create(EV67, &o, nullptr);
    ASSERT_NE(g, nullptr);
    unsigned n = pmu_gen_nfuncs(g);
    ASSERT_GT(n, 20u);
    uint64_t prev_end = 0;
    std::set<std::string> owners;
    for (unsigned i = 0; i < n; i++) {
        uint64_t s, e;
        const char *name;
        ASSERT_EQ(pmu_gen_func(g, i, &s, &e, &name), 0);
        EXPECT_GE(s, prev_end);
        EXPECT_LT(s, e);
        std::string nm = name;
        std::string owner = nm.substr(0, nm.find(':'));
        owners.insert(owner);
        if (owner == "pal") {
            EXPECT_GE(s, EV67_GEN_PAL_BASE);
        } else if (owner == "vmunix") {
            EXPECT_TRUE(s >= EV67_GEN_KERNEL_BASE && e <= EV67_GEN_KERNEL_END) << nm;
        } else {
            EXPECT_GE(s, EV67_GEN_USER_BASE(0)) << nm;
        }
        prev_end = e;
    }
    EXPECT_TRUE(owners.count("pal") && owners.count("vmunix") && owners.count("sh"));
    pmu_gen_destroy(g);
    o.mode = PMU_GEN_RANDOM;
    g = pmu_gen_create(EV67, &o, nullptr);
    EXPECT_EQ(pmu_gen_nfuncs(g), 0u);
    pmu_gen_destroy(g);
}

// The rule checker over long generated streams, and how each instruction ends (the
// ProfileMe window-end cases), with every class, flag and trap type.
struct Stats {
    std::map<std::string, uint64_t> n;
};

static Stats check_stream(pmu_gen_mode mode, uint64_t seed, uint64_t cycles)
{
    Stats st;
    printf("seed %llu mode %d cycles %llu\n", (unsigned long long)seed, mode,
           (unsigned long long)cycles);
    std::vector<ev67_cycle> v = generate(seed, mode, cycles);
    ev67_stream_check *k = ev67_stream_check_create();
    std::map<uint32_t, ev67_fetch> live;   // fetched, not ended
    std::set<uint32_t> trapped;
    pmu_err err;
    uint64_t fetched = 0;
    for (size_t i = 0; i < v.size(); i++) {
        const ev67_cycle &c = v[i];
        std::string where = "record " + std::to_string(i);
        if (ev67_stream_check_step(k, &c, where.c_str(), &err)) {
            ADD_FAILURE() << err.msg;
            break;
        }
        for (unsigned j = 0; j < c.nfetch; j++) {
            const ev67_fetch &x = c.fetch[j];
            live[x.tag] = x;
            fetched++;
            st.n["cls " + std::to_string(x.cls)]++;
            for (unsigned b = 0; b < 6; b++)
                if (x.flags >> b & 1)
                    st.n["flag " + std::to_string(b)]++;
            if ((x.flags & EV67_FF_CMOV1) && j + 1 == c.nfetch)
                st.n["cmov split"]++;
        }
        if (c.nstall) st.n["stall"]++;
        if (c.bcmiss) st.n["bcmiss"]++;
        if (c.mreplay) st.n["mreplay"]++;
        if (c.pal) st.n["pal"]++;
        if (c.nretire > 8) st.n["burst"]++;
        if (c.trap) {
            st.n["trap " + std::to_string(c.trap_type)]++;
            if (c.trap_mis) st.n["mis"]++;
            if (c.trap_lso) st.n["lso"]++;
            trapped.insert(c.trap_tag);
            st.n["end trap"]++;
        }
        for (unsigned j = 0; j < c.nretire; j++) {
            st.n[trapped.count(c.retire[j]) ? "end trap+retire" : "end retire"]++;
            live.erase(c.retire[j]);
        }
        for (unsigned j = 0; j < c.nsquash; j++) {
            st.n["end squash"]++;
            live.erase(c.squash[j]);
        }
        if (c.abort) {
            st.n["abort"]++;
            for (auto it = live.lower_bound(c.abort_first); it != live.end();) {
                bool kbm = it->first >= c.kbm_first;
                if (!trapped.count(it->first))
                    st.n[kbm ? "end abort kbm" : "end abort mapped"]++;
                it = live.erase(it);
            }
        }
    }
    ev67_stream_check_destroy(k);
    st.n["fetched"] = fetched;
    return st;
}

static void expect_every_case(const Stats &st, uint64_t cycles)
{
    auto at = [&](const std::string &key) {
        auto it = st.n.find(key);
        return it == st.n.end() ? 0 : it->second;
    };
    uint64_t often = cycles / 2000; // every case at least once per 2000 cycles
    for (unsigned c = 0; c < EV67_NCLASSES; c++)
        EXPECT_GT(at("cls " + std::to_string(c)), often) << "class " << c;
    for (unsigned b = 0; b < 6; b++)
        EXPECT_GT(at("flag " + std::to_string(b)), often) << "flag bit " << b;
    for (unsigned t = 0; t < EV67_NTRAP_TYPES; t++) // resets are rare, the others not
        EXPECT_GT(at("trap " + std::to_string(t)), t == EV67_TRAP_RESET ? 0u : often / 16)
            << "trap type " << t;
    for (const char *k : {"end retire", "end trap", "end trap+retire", "end squash",
                          "end abort kbm", "end abort mapped", "mis", "lso", "stall", "bcmiss",
                          "mreplay", "pal", "abort", "burst", "cmov split"})
        EXPECT_GT(at(k), often) << k;
    for (auto &kv : st.n)
        printf("  %-18s %llu\n", kv.first.c_str(), (unsigned long long)kv.second);
}

TEST(Ev67Stream, WorkloadObeysEveryRuleAndHasEveryCase)
{
    expect_every_case(check_stream(PMU_GEN_WORKLOAD, 21264, 300000), 300000);
}

TEST(Ev67Stream, RandomObeysEveryRuleAndHasEveryCase)
{
    expect_every_case(check_stream(PMU_GEN_RANDOM, 67, 300000), 300000);
}

// The generated pipeline never deadlocks: instructions keep ending (retire or squash)
// in every stretch of records, on several seeds of both modes.  (A map stall counted
// over unmapped instructions once stalled it for ever with the oldest one unmapped.)
TEST(Ev67Stream, GeneratorKeepsRetiring)
{
    for (uint64_t seed : {1ull, 2ull, 3ull})
        for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
            pmu_gen_opts o;
            memset(&o, 0, sizeof o);
            o.seed = seed;
            o.cycles = 400000;
            o.mode = mode;
            pmu_err err;
            pmu_gen *g = pmu_gen_create(EV67, &o, &err);
            ASSERT_NE(g, nullptr) << err.msg;
            ev67_cycle c;
            uint64_t record = 0, last_end = 0, longest = 0;
            while (pmu_gen_next(g, &c) == 1) {
                record++;
                if (c.nretire || c.nsquash) {
                    longest = std::max(longest, record - last_end);
                    last_end = record;
                }
            }
            longest = std::max(longest, record - last_end);
            pmu_gen_destroy(g);
            printf("seed %llu mode %d: longest stretch without an end %llu records\n", (unsigned long long)seed,
                   mode, (unsigned long long)longest);
            EXPECT_LT(longest, 200u) << "seed " << seed << " mode " << mode;
        }
}

TEST(Ev67Stream, WorkloadWalksNamedFunctions)
{
    pmu_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 3;
    o.cycles = 50000;
    pmu_gen *g = pmu_gen_create(EV67, &o, nullptr);
    ASSERT_NE(g, nullptr);
    std::vector<std::pair<uint64_t, uint64_t>> f;
    std::vector<std::string> names;
    for (unsigned i = 0; i < pmu_gen_nfuncs(g); i++) {
        uint64_t s, e;
        const char *nm;
        pmu_gen_func(g, i, &s, &e, &nm);
        f.push_back({s, e});
        names.push_back(nm);
    }
    std::set<std::string> hit;
    ev67_cycle c;
    while (pmu_gen_next(g, &c) == 1)
        for (unsigned j = 0; j < c.nfetch; j++)
            for (size_t i = 0; i < f.size(); i++)
                if (c.fetch[j].pc >= f[i].first && c.fetch[j].pc < f[i].second)
                    hit.insert(names[i].substr(0, names[i].find(':')));
    std::string all;
    for (const std::string &h : hit)
        all += h + " ";
    EXPECT_TRUE(hit.count("pal") && hit.count("vmunix") && hit.size() >= 4) << all;
    pmu_gen_destroy(g);
}
