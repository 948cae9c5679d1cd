/*
 * lib_encode_test.cpp - `pmusim encode`: register lines, JSON with the range
 * offsets, and a one-line explanation with exit status 2 for every bad argument.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "ita/ita_cmds.h"

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
              "PMC4 = 0x0000000002004d21\n",
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
    r = run({"--list-events"});
    EXPECT_EQ(0, r.rc);
    EXPECT_NE(std::string::npos, r.out.find("L2_FORCE_RECIRC_ANY"));
    EXPECT_NE(std::string::npos, r.out.find("STORES_RETIRED                            0xd1     -"));
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
        {{"-e", "STORES_RETIRED", "--model", "itanium"}, "not implemented on Itanium"},
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
