/*
 * lib_encode_test.cpp - `pmusim encode`: register lines, JSON with the range
 * offsets, and a one-line explanation with exit status 2 for every bad argument.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/ita/ita_cmds.h"

namespace {

struct Result {
    int rc;
    std::string out, err;
};

std::string slurp(FILE *f)
{
    std::string s;
    rewind(f);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    fclose(f);
    return s;
}

Result run(std::vector<std::string> args)
{
    args.insert(args.begin(), "encode");
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(&a[0]);
    argv.push_back(nullptr);
    FILE *out = tmpfile(), *err = tmpfile();
    Result r;
    r.rc = pmusim_encode_main((int)args.size(), argv.data(), out, err);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

TEST(Encode, RegisterLines)
{
    Result r = run({"-e", "IA64_INST_RETIRED"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_EQ("PMC4 = 0x0000000000800828\n", r.out);
    EXPECT_EQ("", r.err);
    r = run({"-e", "NOPS_RETIRED", "--irange", "0x4000..0x4800", "--no-fine-mode"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_EQ("PMC8 = 0xffffffff3ffffffc\n"
              "PMC13 = 0x00002078fefefeee\n"
              "PMC14 = 0x0db60db60db60db4\n"
              "PMC15 = 0x00000000ffffffff\n"
              "IBR0 = 0x0000000000004000\n"
              "IBR1 = 0x08fffffffffff800\n"
              "PMC4 = 0x0000000002805028\n",
              r.out);
    r = run({"--model=itanium", "-e", "LOADS_RETIRED:k", "--drange=0x10000..0x10100"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_EQ("PMC11 = 0x0000000000000000\n"
              "DBR0 = 0x0000000000010000\n"
              "DBR1 = 0x01ffffffffffff00\n"
              "PMC4 = 0x0000000002006c21\n",
              r.out);
    /* --system-wide sets pm; the opcode matcher's fields. */
    r = run({"-e", "IA64_INST_RETIRED", "--system-wide", "--opcode", "PMC8:match=0x2000140,mask=0x07ffe3f,slots=B"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_NE(std::string::npos, r.out.find("PMC8 = 0x1400028103fff1fd\n")) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("PMC4 = 0x0000000002800868\n")) << r.out;
}

TEST(Encode, JsonHasOffsets)
{
    Result r = run({"-e", "NOPS_RETIRED", "--irange", "0x4000f0..0x400410", "--no-fine-mode", "--json"});
    EXPECT_EQ(0, r.rc) << r.err;
    for (const char *want :
         {"\"model\": \"itanium2\"", "{\"name\": \"IBR0\", \"addr\": \"0x200\", \"value\": \"0x0000000000400000\"}",
          "\"start\": \"0x4000f0\"", "\"end\": \"0x400410\"", "\"start_offset\": \"0xf0\"",
          "\"end_offset\": \"0x3f0\"", "\"covered_start\": \"0x400000\"", "\"covered_end\": \"0x400800\"",
          "\"pairs\": [0]", "\"fine\": false", "\"counter\": \"PMC4\"", "\"ibr_pair\": 0", "\"drange\": []"})
        EXPECT_NE(std::string::npos, r.out.find(want)) << want << "\n" << r.out;
    r = run({"-e", "LOADS_RETIRED", "--drange", "0x1003..0x1010", "--drange", "0x9000..0x9100", "--json"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_NE(std::string::npos, r.out.find("\"irange\": []")) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("\"start_offset\": \"0x3\"")) << r.out;
}

TEST(Encode, HelpAndList)
{
    Result r = run({"--help"});
    EXPECT_EQ(0, r.rc);
    EXPECT_NE(std::string::npos, r.out.find("usage: pmusim encode"));
    EXPECT_NE(std::string::npos, r.out.find("--list"));
    EXPECT_NE(std::string::npos, r.out.find("--iear"));
    r = run({"--list"});
    EXPECT_EQ(0, r.rc);
    EXPECT_NE(std::string::npos, r.out.find("L2_FORCE_RECIRC_ANY"));
    /* name, code, umask, type, counters, maxincr, iar/opm/dar, group, set */
    EXPECT_NE(std::string::npos, r.out.find("STORES_RETIRED                            0xd1  0x00 normal     4,5,6,7"
                                            "        2 1/1/1       L1D   4\n"))
        << r.out;
    EXPECT_NE(std::string::npos, r.out.find("DATA_EAR_ALAT                             0xc8  0x00 dear-alat"));
    EXPECT_EQ(1u + 497u, (unsigned)std::count(r.out.begin(), r.out.end(), '\n'));
    r = run({"--list", "--model", "itanium"});
    EXPECT_EQ(0, r.rc);
    EXPECT_NE(std::string::npos, r.out.find("LOADS_RETIRED                             0x6c  0x00 normal"));
    EXPECT_NE(std::string::npos, r.out.find("INSTRUCTION_EAR_EVENTS                    0x23"));
    EXPECT_EQ(1u + 230u, (unsigned)std::count(r.out.begin(), r.out.end(), '\n'));
    EXPECT_EQ(0, run({"--list-events"}).rc); /* the older name */
}

/* A small JSON checker: balanced structure, strings closed, and the number of objects in
 * the "events" array. */
unsigned json_event_objects(const std::string &j, bool *ok)
{
    int depth = 0;
    bool in_str = false;
    unsigned objects_at_2 = 0;
    *ok = true;
    for (size_t i = 0; i < j.size(); i++) {
        char c = j[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
            else if ((unsigned char)c < 0x20)
                *ok = false;
            continue;
        }
        if (c == '"')
            in_str = true;
        else if (c == '{' || c == '[') {
            if (c == '{' && depth == 2)
                objects_at_2++;
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth < 0)
                *ok = false;
        }
    }
    if (depth != 0 || in_str)
        *ok = false;
    return objects_at_2;
}

TEST(Encode, ListJson)
{
    for (auto m : {std::make_pair("itanium2", 497u), std::make_pair("itanium", 230u)}) {
        Result r = run({"--list", "--json", "--model", m.first});
        EXPECT_EQ(0, r.rc) << r.err;
        bool ok;
        EXPECT_EQ(m.second, json_event_objects(r.out, &ok)) << m.first;
        EXPECT_TRUE(ok) << r.out;
        EXPECT_EQ(m.second, (unsigned)std::count(r.out.begin(), r.out.end(), '\n') - 6u); /* one line each */
        EXPECT_NE(std::string::npos, r.out.find("\"count\": " + std::to_string(m.second)));
        EXPECT_NE(std::string::npos, r.out.find("{\"name\": \"CPU_CYCLES\", \"code\": \"0x12\", \"umask\": \"0x00\", "
                                                "\"type\": \"normal\", \"counters\": [4, 5, 6, 7], \"maxincr\": 1, "
                                                "\"iar\": false, \"opm\": false, \"dar\": false, \"group\": \"none\", "
                                                "\"set\": null}"))
            << r.out.substr(0, 2000);
    }
}

TEST(Encode, EarAndBtb)
{
    /* Method 1: the EAR event programs PMC10 (cache: ct = 1x, umask 12:5) and counts
     * L1I_EAR_EVENTS (0x43, umask 0). */
    Result r = run({"-e", "L1I_EAR_CACHE_LAT4"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_EQ("PMC10 = 0x0000000000003fe8\n"
              "PMC4 = 0x0000000000804328\n",
              r.out);
    /* Method 4: free-running D-EAR, TLB mode, kernel level; and the BTB by keys. */
    r = run({"--dear", "mode=tlb,umask=0xe,plm=1"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_EQ("PMC11 = 0x00000000000e0081\n", r.out);
    r = run({"-e", "BRANCH_EVENT", "--btb", "tm=2,ppm=1,brt=1"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_EQ("PMC12 = 0x0000000000005e08\n", r.out.substr(0, r.out.find('\n') + 1)) << r.out;
    r = run({"-e", "BRANCH_EVENT", "--model", "itanium"});
    EXPECT_EQ(0, r.rc) << r.err;
    EXPECT_NE(std::string::npos, r.out.find("PMC12 = 0x000000000000ff88\n")) << r.out;
    r = run({"-e", "DATA_EAR_TLB_ALL", "-e", "BRANCH_EVENT"});
    EXPECT_EQ(2, r.rc);
    EXPECT_NE(std::string::npos, r.err.find("cannot be used with the branch trace buffer")) << r.err;
    r = run({"--iear", "mode=alat,umask=0"});
    EXPECT_EQ(2, r.rc);
    EXPECT_NE(std::string::npos, r.err.find("mode 2")) << r.err;
    r = run({"--iear", "umask=1"});
    EXPECT_EQ(2, r.rc);
    EXPECT_NE(std::string::npos, r.err.find("expected mode=cache|tlb and umask=N")) << r.err;
    r = run({"--btb", "tm=4"});
    EXPECT_EQ(2, r.rc);
    EXPECT_NE(std::string::npos, r.err.find("--btb: tm")) << r.err;
}

TEST(Encode, BadArgumentsExitTwoWithOneLine)
{
    struct Case {
        std::vector<std::string> args;
        const char *text;
    } cases[] = {
        {{}, "expected at least one -e EVENT"},
        {{"--frobnicate"}, "unknown argument '--frobnicate'"},
        {{"-e"}, "-e: expected a value"},
        {{"--json=1", "-e", "CPU_CYCLES"}, "--json: takes no value"},
        {{"-e", "CPU_CYCLE"}, "did you mean CPU_CYCLES?"},
        {{"-e", "NOPS_RETIRED:thres=9"}, "threshold 9 >= maxincr 6"},
        {{"-e", "NOPS_RETIRED:bogus"}, "unknown modifier ':bogus'"},
        {{"-e", "A", "-e", "B", "-e", "C", "-e", "D", "-e", "E"}, "at most 4 events"},
        {{"-e", "NOPS_RETIRED", "--irange", "0x4000"}, "--irange: expected START..END"},
        {{"-e", "NOPS_RETIRED", "--irange", "0x4000..zz"}, "--irange end: expected a decimal number or 0x hex"},
        {{"-e", "NOPS_RETIRED", "--irange", "0x5000..0x4000"}, "start must be below end"},
        {{"-e", "NOPS_RETIRED", "--irange", "0x4008..0x5000"}, "16-byte (bundle) aligned"},
        {{"-e", "LOADS_RETIRED", "--drange", "1..2", "--drange", "3..4", "--drange", "5..6", "--drange", "7..8",
          "--drange", "9..10"},
         "at most 4 data ranges"},
        {{"-e", "CPU_CYCLES", "--irange", "0x4000..0x5000"}, "does not support code range restriction"},
        {{"-e", "NOPS_RETIRED", "--irange", "0x4000..0x5000", "--irange", "0x8000..0x9000"}, "only IBR pair 0"},
        {{"-e", "NOPS_RETIRED", "--model", "itanium3"}, "--model: expected itanium or itanium2"},
        {{"-e", "BACK_END_BUBBLE_ALL", "--model", "itanium"}, "not implemented on Itanium"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC7:match=1"}, "expected PMC8 or PMC9"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC8:match=0x8000000"}, "27 bits"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC8:slots=MX"}, "letters of MIFB"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC8:colour=red"}, "unknown key 'colour'"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC8:match"}, "expected key=value"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC8:match=1,match=2"}, "match given twice"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC8", "--opcode", "PMC8"}, "PMC8 given twice"},
        {{"-e", "NOPS_RETIRED", "--opcode", "PMC9"}, "PMC9 can be used only"},
        {{"-e", "NOPS_RETIRED", "--no-fine-mode"}, "without a code range"},
        {{"-e", "NOPS_RETIRED", "--irange", "0x4000..0x5000", "--inverse", "--model", "itanium"},
         "Itanium does not have"},
    };
    for (const Case &c : cases) {
        Result r = run(c.args);
        std::string cmd;
        for (const std::string &a : c.args)
            cmd += " " + a;
        EXPECT_EQ(2, r.rc) << cmd;
        EXPECT_EQ("", r.out) << cmd;
        EXPECT_EQ(0u, r.err.find("pmusim encode: ")) << cmd << ": " << r.err;
        EXPECT_NE(std::string::npos, r.err.find(c.text)) << cmd << ": " << r.err;
        /* One line. */
        EXPECT_EQ(r.err.size() - 1, r.err.find('\n')) << cmd << ": " << r.err;
    }
}

}  // namespace
