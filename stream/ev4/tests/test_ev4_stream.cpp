// The ev4 dialect's records: validation (one failing record per rule, each message naming
// its field), the text form (sticky fields, parse errors with file:line:column), the
// binary form (hand-made records, corrupt data), and docs/ev4-stream.md's examples.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "stream/pmu_dialect_test_util.h"
#include "stream/ev4/ev4_stream.h"
#include "stream/pmu_stream.h"

#ifndef STREAM_DOC
#error "STREAM_DOC (the path of docs/ita-stream-format.md) is set by stream/stream.mk"
#endif

namespace {

const pmu_dialect *const EV4 = &pmu_dialect_ev4;

#define EXPECT_HAS(hay, needle)                                                              \
    EXPECT_NE(std::string(hay).find(needle), std::string::npos)                              \
        << "expected \"" << (needle) << "\" in \"" << (hay) << "\""

using Read = DialectRead<ev4_cycle>;

Read read_mem(const std::string &data, const char *name = "t.txt")
{
    return dialect_read_mem<ev4_cycle>(EV4, data, name);
}

std::string write_mem(const std::vector<ev4_cycle> &recs, pmu_stream_form form)
{
    return dialect_write_mem(EV4, recs, form);
}

std::string fmt(const ev4_cycle &c)
{
    char buf[512];
    EV4->format(&c, buf, sizeof buf);
    return buf;
}

// A valid user-mode cycle issuing a load and an integer op.
ev4_cycle base()
{
    ev4_cycle c;
    memset(&c, 0, sizeof c);
    c.pc = 0x120001230;
    c.pid = 1002;
    c.mode = EV4_MODE_USER;
    c.nissue = 2;
    c.cls[0] = EV4_CLASS_LOAD;
    c.cls[1] = EV4_CLASS_INTOP;
    return c;
}

struct Rule {
    const char *what, *field, *expected;
    std::function<void(ev4_cycle &)> breaks;
};

} // namespace

TEST(Ev4Validate, EveryRuleIsRefusedWithItsField)
{
    const Rule rules[] = {
        {"mode 3", "mode", "expected 0..2", [](ev4_cycle &c) { c.mode = 3; }},
        {"ipl 8", "ipl", "expected 0..7", [](ev4_cycle &c) { c.mode = 0; c.ipl = 8; }},
        {"ipl in user mode", "ipl", "expected 0 (user code", [](ev4_cycle &c) { c.ipl = 3; }},
        {"nissue 3", "nissue", "expected 0..2", [](ev4_cycle &c) { c.nissue = 3; }},
        {"class 6", "cls", "expected 0..5", [](ev4_cycle &c) { c.cls[1] = 6; }},
        {"class past nissue", "cls", "did not issue", [](ev4_cycle &c) {
             c.cls[1] = EV4_CLASS_STORE; c.nissue = 1; }},
        {"replay bit 2", "replay", "bits 0..1 only", [](ev4_cycle &c) { c.replay = 4; }},
        {"replay of an intop", "replay", "expected a load", [](ev4_cycle &c) { c.replay = 2; }},
        {"replay not issued", "replay", "did not issue", [](ev4_cycle &c) {
             c.nissue = 1; c.cls[1] = 0; c.replay = 2; }},
        {"stall 3", "stall", "expected 0..2", [](ev4_cycle &c) { c.stall = 3; }},
        {"stall with issue", "stall", "expected none", [](ev4_cycle &c) { c.stall = EV4_STALL_DRY; }},
        {"no stall without issue", "stall", "expected dry or frozen", [](ev4_cycle &c) {
             c.nissue = 0; c.cls[0] = c.cls[1] = 0; }},
        {"dmiss 2", "dmiss", "expected 0 or 1", [](ev4_cycle &c) { c.dmiss = 2; }},
        {"imiss 2", "imiss", "expected 0 or 1", [](ev4_cycle &c) { c.imiss = 2; }},
        {"mispredict 2", "mispredict", "expected 0 or 1", [](ev4_cycle &c) { c.mispredict = 2; }},
        {"pin0 2", "pin0", "expected 0 or 1", [](ev4_cycle &c) { c.pin0 = 2; }},
        {"pin1 2", "pin1", "expected 0 or 1", [](ev4_cycle &c) { c.pin1 = 2; }},
        {"pc unaligned", "pc", "4-byte aligned", [](ev4_cycle &c) { c.pc = 0x120001232; }},
        {"pid too large", "pid", "expected 0..16777215", [](ev4_cycle &c) { c.pid = EV4_MAX_PID + 1; }},
        {"idle 2", "idle", "expected 0 or 1", [](ev4_cycle &c) { c.idle = 2; }},
        {"idle with a pid", "idle", "expected pid 0 in kernel mode", [](ev4_cycle &c) {
             c.mode = 0; c.idle = 1; }},
        {"idle in pal mode", "idle", "expected pid 0 in kernel mode", [](ev4_cycle &c) {
             c.pid = 0; c.mode = EV4_MODE_PAL; c.idle = 1; }},
        {"user pid 0", "pid", "0 in user mode", [](ev4_cycle &c) { c.pid = 0; }},
        {"os 6", "os", "expected 0..5", [](ev4_cycle &c) { c.mode = 0; c.os = 6; }},
        {"os in user mode", "os", "expected kernel mode", [](ev4_cycle &c) { c.os = EV4_OS_EXEC; }},
        {"os by pid 0", "os", "by pid 0", [](ev4_cycle &c) {
             c.mode = 0; c.pid = 0; c.os = EV4_OS_EXEC; }},
        {"fork child 0", "os_arg", "fork child 0", [](ev4_cycle &c) { c.mode = 0; c.os = EV4_OS_FORK; }},
        {"fork itself", "os_arg", "other than the parent", [](ev4_cycle &c) {
             c.mode = 0; c.os = EV4_OS_FORK; c.os_arg = c.pid; }},
        {"fork pid too large", "os_arg", "expected a new pid", [](ev4_cycle &c) {
             c.mode = 0; c.os = EV4_OS_FORK; c.os_arg = EV4_MAX_PID + 1; }},
        {"bind CPU 32", "os_arg", "expected 0..31", [](ev4_cycle &c) {
             c.mode = 0; c.os = EV4_OS_BIND; c.os_arg = EV4_MAX_CPUS; }},
        {"exec argument", "os_arg", "expected 0", [](ev4_cycle &c) {
             c.mode = 0; c.os = EV4_OS_EXEC; c.os_arg = 5; }},
    };
    ev4_cycle ok = base();
    ASSERT_EQ(EV4->validate(&ok, "x", nullptr), 0);
    for (const Rule &r : rules) {
        ev4_cycle c = base();
        r.breaks(c);
        pmu_err err;
        err.msg[0] = '\0';
        EXPECT_NE(EV4->validate(&c, "trace.txt:12", &err), 0) << r.what;
        EXPECT_HAS(err.msg, std::string("trace.txt:12: field '") + r.field + "'");
        EXPECT_HAS(err.msg, r.expected);
    }
}

TEST(Ev4Validate, EdgeRecordsPass)
{
    ev4_cycle c = base();
    c.replay = 1; // a replayed load
    c.dmiss = c.imiss = c.mispredict = c.pin0 = c.pin1 = 1;
    EXPECT_EQ(EV4->validate(&c, "x", nullptr), 0);
    ev4_cycle idle = base();
    idle.pid = 0;
    idle.mode = EV4_MODE_KERNEL;
    idle.idle = 1;
    idle.ipl = 5; // the idle thread taking the clock interrupt
    EXPECT_EQ(EV4->validate(&idle, "x", nullptr), 0);
    ev4_cycle fork = base();
    fork.mode = EV4_MODE_KERNEL;
    fork.os = EV4_OS_FORK;
    fork.os_arg = EV4_MAX_PID;
    EXPECT_EQ(EV4->validate(&fork, "x", nullptr), 0);
    ev4_cycle bind = fork;
    bind.os = EV4_OS_BIND;
    bind.os_arg = EV4_MAX_CPUS - 1;
    EXPECT_EQ(EV4->validate(&bind, "x", nullptr), 0);
    ev4_cycle pal = base();
    pal.pid = 0;
    pal.mode = EV4_MODE_PAL;
    pal.ipl = 7;
    pal.nissue = 0;
    pal.cls[0] = pal.cls[1] = 0;
    pal.stall = EV4_STALL_FROZEN;
    EXPECT_EQ(EV4->validate(&pal, "x", nullptr), 0);
}

TEST(Ev4Text, StickyFieldsAndDefaults)
{
    Read r = read_mem("stall=dry\n"
                      "pid=1002 mode=user pc=0x120000010 issue=load,intop\n"
                      "issue=branch mispredict\n"
                      "pc=0x120000100 stall=dry imiss\n"
                      "mode=kernel ipl=5 os=exec issue=store\n"
                      "pid=0 idle=1 ipl=0 os=\n");
    ASSERT_EQ(r.rc, -1);
    EXPECT_HAS(r.err, "t.txt:6:");
    ASSERT_EQ(r.recs.size(), 5u);
    // a stream starts with pc=0 pid=0 mode=kernel ipl=0 idle=0
    EXPECT_EQ(r.recs[0].pc, 0u);
    EXPECT_EQ(r.recs[0].pid, 0u);
    EXPECT_EQ(r.recs[0].mode, EV4_MODE_KERNEL);
    EXPECT_EQ(r.recs[0].stall, EV4_STALL_DRY);
    EXPECT_EQ(r.recs[1].nissue, 2);
    EXPECT_EQ(r.recs[1].cls[1], EV4_CLASS_INTOP);
    // pid, mode and pc stay; issue, stall and the flags are the line's own
    EXPECT_EQ(r.recs[2].pid, 1002u);
    EXPECT_EQ(r.recs[2].pc, 0x120000010u);
    EXPECT_EQ(r.recs[2].mode, EV4_MODE_USER);
    EXPECT_EQ(r.recs[2].mispredict, 1);
    EXPECT_EQ(r.recs[3].nissue, 0);
    EXPECT_EQ(r.recs[3].mispredict, 0);
    EXPECT_EQ(r.recs[3].imiss, 1);
    EXPECT_EQ(r.recs[4].ipl, 5);
    EXPECT_EQ(r.recs[4].os, EV4_OS_EXEC);
}

TEST(Ev4Text, EveryKeyParsesAndFormatsBack)
{
    Read r = read_mem("pid=7 mode=kernel ipl=3 pc=0xfffffc0000230010 os=fork:8 issue=load,load "
                      "replay=3 dmiss imiss mispredict pin0 pin1\n"
                      "os=bind:31 issue=fpop\n"
                      "os=unbind stall=frozen\n"
                      "os=exit issue=other\n"
                      "pid=0 mode=pal ipl=7 repeat=3 stall=dry\n");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 7u);
    EXPECT_EQ(r.recs[0].os_arg, 8u);
    EXPECT_EQ(r.recs[0].replay, 3);
    EXPECT_EQ(r.recs[1].os, EV4_OS_BIND);
    EXPECT_EQ(r.recs[1].os_arg, 31u);
    // format gives one self-contained line that reads back as the same record
    for (const ev4_cycle &c : r.recs) {
        std::string line = fmt(c);
        Read back = read_mem(line + "\n");
        ASSERT_EQ(back.rc, 0) << back.err << ": " << line;
        ASSERT_EQ(back.recs.size(), 1u);
        EXPECT_TRUE(EV4->equal(&back.recs[0], &c)) << line;
    }
    EXPECT_EQ(fmt(r.recs[0]), "pid=7 mode=kernel ipl=3 idle=0 pc=0xfffffc0000230010 os=fork:8 "
                              "issue=load,load replay=3 dmiss imiss mispredict pin0 pin1");
}

TEST(Ev4Text, WriterWritesOnlyWhatChanged)
{
    ev4_cycle a = base(), b = base();
    b.pc += 8;
    std::vector<ev4_cycle> recs = {a, a, a, b};
    std::string text = write_mem(recs, PMU_STREAM_TEXT);
    EXPECT_HAS(text, "repeat=3 pid=1002 mode=user pc=0x120001230 issue=load,intop\n");
    EXPECT_HAS(text, "\npc=0x120001238 issue=load,intop\n");
    Read back = read_mem(text);
    ASSERT_EQ(back.rc, 0) << back.err;
    ASSERT_EQ(back.recs.size(), 4u);
    EXPECT_TRUE(EV4->equal(&back.recs[3], &b));
}

TEST(Ev4TextErrors, FileLineColumnAndField)
{
    struct Case {
        const char *text, *expected;
    } cases[] = {
        {"stall=dry\nstall=dry bogus=1\n", "t.txt:2:11: field 'bogus': unknown key, expected one of: pc pid"},
        {"ipl=9 stall=dry\n", "t.txt:1:5: field 'ipl': expected 0..7, found '9'"},
        {"pid=012 stall=dry\n", "t.txt:1:5: field 'pid': expected a decimal number without leading zeros"},
        {"mode=super stall=dry\n", "t.txt:1:6: field 'mode': expected kernel, user or pal, found 'super'"},
        {"issue=load,jump\n", "t.txt:1:12: field 'issue': expected a class"},
        {"issue=load,load,load\n", "t.txt:1:17: field 'issue': more than 2 instructions"},
        {"stall=none\n", "t.txt:1:7: field 'stall': expected dry or frozen"},
        {"stall=dry dmiss=1\n", "t.txt:1:11: field 'dmiss': a flag takes no value"},
        {"stall=dry stall=dry\n", "t.txt:1:11: field 'stall': given twice on this line"},
        {"pid=5 os=fork stall=dry\n", "t.txt:1:10: field 'os': expected os=fork:PID"},
        {"pid=5 os=exec:3 stall=dry\n", "t.txt:1:14: field 'os': exec takes no argument"},
        {"pid=5 os=bind:32 stall=dry\n", "t.txt:1:15: field 'os': expected a CPU 0..31"},
        {"pid stall=dry\n", "t.txt:1:1: field 'pid': expected pid=value"},
        {"=3\n", "t.txt:1:1: field '=3': expected key=value"},
        {"replay=4 stall=dry\n", "t.txt:1:8: field 'replay': expected 1..3"},
        {"stall=dry \x01\n", "t.txt:1:11: field '?': unexpected byte 0x01"},
        // parsed, but not a possible record: validation names the line, without a column
        {"mode=user stall=dry\n", "t.txt:1: field 'pid': 0 in user mode"},
        {"issue=load\nissue=intop replay=1\n", "t.txt:2: field 'replay': bit 0 set on a intop"},
        {"\n   \n", nullptr},
    };
    for (const Case &k : cases) {
        Read r = read_mem(k.text);
        if (!k.expected) { // blank lines are no records
            EXPECT_EQ(r.rc, 0) << k.text;
            EXPECT_TRUE(r.recs.empty());
            continue;
        }
        EXPECT_EQ(r.rc, -1) << k.text;
        EXPECT_HAS(r.err, k.expected);
    }
    // a line with only repeat=N is the sticky state, which issues nothing and has no stall
    Read rep = read_mem("repeat=4\n");
    EXPECT_EQ(rep.rc, -1);
    EXPECT_HAS(rep.err, "t.txt:1: field 'stall'");
}

TEST(Ev4Binary, HandMadeRecordsRoundTripAndAreSmall)
{
    std::vector<ev4_cycle> recs;
    ev4_cycle c = base();
    for (int i = 0; i < 100; i++) { // straight-line code: pc follows the issue
        recs.push_back(c);
        c.pc += 4u * c.nissue;
    }
    c.pc = 0x120000000; // a jump backwards
    recs.push_back(c);
    c.mode = EV4_MODE_KERNEL;
    c.ipl = 4;
    c.os = EV4_OS_FORK;
    c.os_arg = 1003;
    c.dmiss = c.pin1 = 1;
    c.replay = 1;
    recs.push_back(c);
    c.os = EV4_OS_NONE;
    c.os_arg = 0;
    c.nissue = 0;
    c.cls[0] = c.cls[1] = 0;
    c.replay = c.dmiss = c.pin1 = 0;
    c.stall = EV4_STALL_FROZEN;
    recs.push_back(c);
    recs.push_back(c);
    std::string bin = write_mem(recs, PMU_STREAM_BINARY);
    EXPECT_LT(bin.size(), 40u + 2u * 100u + 40u) << "straight-line code costs two bytes a cycle";
    Read back = read_mem(bin, "t.bin");
    ASSERT_EQ(back.rc, 0) << back.err;
    ASSERT_EQ(back.recs.size(), recs.size());
    for (size_t i = 0; i < recs.size(); i++)
        EXPECT_TRUE(EV4->equal(&back.recs[i], &recs[i])) << i << ": " << fmt(back.recs[i]);
}

TEST(Ev4Binary, CorruptDataNamesTheRecordAndField)
{
    std::vector<ev4_cycle> recs = {base(), base()};
    recs[1].pid = 1003;
    std::string bin = write_mem(recs, PMU_STREAM_BINARY);
    ASSERT_GT(bin.size(), 44u);
    // the first record: head (nissue 2), body (load, intop), pid 1002, pc; the second
    // ends with its pc (the same as the first's, not the fall-through)
    std::string truncated = bin.substr(0, bin.size() - 1);
    Read t = read_mem(truncated, "t.bin");
    EXPECT_EQ(t.rc, -1);
    EXPECT_HAS(t.err, "t.bin:record 2: field 'pc': truncated record");
    std::string reserved = bin;
    reserved[41] = (char)0xff; // body: class bits past two instructions
    Read rr = read_mem(reserved, "t.bin");
    EXPECT_EQ(rr.rc, -1);
    EXPECT_HAS(rr.err, "t.bin:record 1: field 'body': reserved bits set");
    std::string nissue3 = bin;
    nissue3[40] = (char)(nissue3[40] | 3);
    Read n3 = read_mem(nissue3, "t.bin");
    EXPECT_EQ(n3.rc, -1);
    EXPECT_HAS(n3.err, "t.bin:record 1: field 'nissue': 3, expected 0..2");
}

// docs/ev4-stream.md stays true: every ```ev4 example parses; the text shown as the
// writer's output is what the writer writes for those records.
TEST(Ev4Doc, ExamplesParse)
{
    std::string path = STREAM_DOC;
    path = path.substr(0, path.rfind('/') + 1) + "ev4-stream.md";
    std::ifstream f(path);
    ASSERT_TRUE(f) << "cannot read " << path;
    std::string line, body;
    bool inside = false;
    int examples = 0;
    while (std::getline(f, line)) {
        if (line.rfind("```", 0) == 0) {
            if (inside && !body.empty()) {
                examples++;
                Read r = read_mem(body, "doc example");
                EXPECT_EQ(r.rc, 0) << r.err << "\n" << body;
                EXPECT_FALSE(r.recs.empty()) << body;
                // the writer's own layout: writing the records gives the example back,
                // comments and blank lines aside
                std::string written = write_mem(r.recs, PMU_STREAM_TEXT), kept;
                std::istringstream lines(body);
                std::string l;
                while (std::getline(lines, l))
                    if (!l.empty() && l[0] != '#')
                        kept += l + "\n";
                EXPECT_HAS(written, kept);
            }
            inside = !inside && line == "```ev4";
            body.clear();
            continue;
        }
        if (inside)
            body += line + "\n";
    }
    EXPECT_GE(examples, 2);
    EXPECT_FALSE(inside) << "an unclosed ```ev4 block";
}
