// `pmusim gen` and `pmusim conv`: argument errors (exit 2), runtime errors (exit 1), the
// regenerate line, and conversions.
#include <algorithm>

#include "stream_test_util.h"

namespace {

struct CmdRun {
    int rc;
    std::string out, err;
};

CmdRun run(int (*cmd)(int, char **), std::vector<std::string> args)
{
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(&a[0]);
    argv.push_back(nullptr);
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    CmdRun r;
    r.rc = cmd((int)args.size(), argv.data());
    fflush(stdout);
    r.out = testing::internal::GetCapturedStdout();
    r.err = testing::internal::GetCapturedStderr();
    return r;
}

CmdRun gen(std::vector<std::string> args)
{
    args.insert(args.begin(), "gen");
    return run(pmusim_cmd_gen, args);
}

CmdRun conv(std::vector<std::string> args)
{
    args.insert(args.begin(), "conv");
    return run(pmusim_cmd_conv, args);
}

void expect_usage_error(const CmdRun &r, const char *mention)
{
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_CONTAINS(r.err, mention);
    EXPECT_CONTAINS(r.err, "usage:");
    // one line
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

std::vector<std::string> split(const std::string &s)
{
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

} // namespace

TEST(CmdGen, ArgumentErrors)
{
    std::string o = scratch("never.txt");
    expect_usage_error(gen({"--seed", "1"}), "-o FILE is required");
    expect_usage_error(gen({"--seed", "abc", "-o", o}), "--seed");
    expect_usage_error(gen({"--seed", "-o", o}), "--seed");
    expect_usage_error(gen({"--seed"}), "--seed");
    expect_usage_error(gen({"--cycles", "-5", "-o", o}), "--cycles");
    expect_usage_error(gen({"--cycles", "10k", "-o", o}), "--cycles");
    expect_usage_error(gen({"--procs", "0", "-o", o}), "--procs");
    expect_usage_error(gen({"--procs", "65", "-o", o}), "--procs");
    expect_usage_error(gen({"--mode", "fast", "-o", o}), "--mode");
    expect_usage_error(gen({"--format", "xml", "-o", o}), "--format");
    expect_usage_error(gen({"--frobnicate", "-o", o}), "unknown option '--frobnicate'");
    expect_usage_error(gen({"stray", "-o", o}), "unexpected argument 'stray'");
    expect_usage_error(gen({"-o"}), "-o needs a file name");
    expect_usage_error(gen({"--mode", "random", "--symbols", o + ".sym", "-o", o}), "--symbols");
    EXPECT_NE(access(o.c_str(), F_OK), 0) << "an argument error created the output";
}

TEST(CmdGen, RuntimeErrorExitsOne)
{
    CmdRun r = gen({"--seed", "1", "--cycles", "10", "-o", "/nonexistent-dir/out.txt"});
    EXPECT_EQ(r.rc, 1);
    EXPECT_CONTAINS(r.err, "/nonexistent-dir/out.txt");
}

TEST(CmdGen, PrintsSeedAndARegenerateLine)
{
    std::string out = scratch("gen1.txt");
    CmdRun r = gen({"--seed=77", "--cycles", "5000", "--procs", "3", "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_CONTAINS(r.out, "seed 77\n");
    size_t at = r.out.find("pmusim gen ");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::string line = r.out.substr(at, r.out.find('\n', at) - at);
    std::string first = slurp(out);
    ReadResult rr = read_file(out);
    ASSERT_EQ(rr.rc, 0) << rr.err;
    EXPECT_EQ(rr.recs.size(), 5000u);

    // running the printed command gives the same file
    remove(out.c_str());
    std::vector<std::string> args = split(line);
    ASSERT_GE(args.size(), 3u);
    args.erase(args.begin()); // "pmusim"
    CmdRun again = run(pmusim_cmd_gen, args);
    ASSERT_EQ(again.rc, 0) << again.err;
    EXPECT_EQ(slurp(out), first);
    remove(out.c_str());
}

TEST(CmdGen, WithoutASeedPicksAndPrintsOne)
{
    std::string out = scratch("gen_noseed.bin");
    CmdRun r = gen({"--cycles", "100", "--mode", "random", "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    unsigned long long seed = 0;
    ASSERT_EQ(sscanf(r.out.c_str(), "seed %llu", &seed), 1) << r.out;
    EXPECT_CONTAINS(r.out, "--seed " + std::to_string(seed));
    // .bin chose the binary form
    EXPECT_EQ(slurp(out).substr(0, 4), "\x89PMU");
    EXPECT_CONTAINS(r.out, "--format binary");
    std::vector<pmu_cycle> expect = generate(seed, 100, PMU_GEN_RANDOM);
    ReadResult rr = read_file(out);
    ASSERT_EQ(rr.rc, 0) << rr.err;
    ASSERT_EQ(rr.recs.size(), expect.size());
    for (size_t i = 0; i < expect.size(); i++)
        EXPECT_EQ(fmt(rr.recs[i]), fmt(expect[i]));
    remove(out.c_str());
}

TEST(CmdGen, SymbolsAndFormats)
{
    std::string out = scratch("gen2.dat"), sym = scratch("gen2.sym");
    CmdRun r = gen({"--seed", "0x10", "--cycles", "2000", "--format", "binary", "--symbols", sym, "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(slurp(out).substr(0, 4), "\x89PMU");
    std::string syms = slurp(sym);
    EXPECT_CONTAINS(syms, "kernel:ivt_break");
    EXPECT_CONTAINS(syms, ":main");
    remove(out.c_str());
    remove(sym.c_str());
}

TEST(CmdGen, HotOptionErrors)
{
    std::string o = scratch("never_hot.txt");
    expect_usage_error(gen({"--hot-code", "-o", o}), "--hot-code: '-o' is not an address");
    expect_usage_error(gen({"-o", o, "--hot-code"}), "--hot-code: expected A[,B...]");
    expect_usage_error(gen({"--hot-code=", "-o", o}), "--hot-code: expected A[,B...], got ''");
    expect_usage_error(gen({"--hot-code", "0x10,,0x20", "-o", o}), "--hot-code: element 2 of '0x10,,0x20' is empty");
    expect_usage_error(gen({"--hot-code", "0x10,", "-o", o}), "element 2 of '0x10,' is empty");
    expect_usage_error(gen({"--hot-data", "0x1g", "-o", o}), "--hot-data: '0x1g' is not an address");
    expect_usage_error(gen({"--hot-data", "-5", "-o", o}), "--hot-data: '-5' is not an address");
    expect_usage_error(gen({"--hot-data", "0x10000000000000000", "-o", o}), "--hot-data: '0x10000000000000000'");
    expect_usage_error(gen({"--hot-opcode", "0x8000000140", "-o", o}), "--hot-opcode: '0x8000000140' is not MATCH/CARE");
    expect_usage_error(gen({"--hot-opcode", "0x1/xyz", "-o", o}), "--hot-opcode: '0x1/xyz' is not MATCH/CARE: expected hex");
    expect_usage_error(gen({"--hot-opcode", "/1", "-o", o}), "--hot-opcode: '/1' is not MATCH/CARE: expected hex");
    expect_usage_error(gen({"--hot-opcode", "1/2/3", "-o", o}), "--hot-opcode: '1/2/3'");
    expect_usage_error(gen({"--hot-opcode", "0x20000000000/0x1", "-o", o}), "has 41 bits");
    expect_usage_error(gen({"--hot-opcode", "1/1,0x1/0x20000000000", "-o", o}), "'0x1/0x20000000000'");
    EXPECT_NE(access(o.c_str(), F_OK), 0) << "an argument error created the output";
}

TEST(CmdGen, HotOptionsAreInTheRegenerateLine)
{
    std::string out = scratch("gen_hot.txt");
    // decimal and hex addresses, repeated options add up, opcode values are hex with or
    // without 0x
    CmdRun r = gen({"--seed", "3", "--cycles", "3000", "--mode", "random", "--hot-code", "4096,0x4000000000001ff0",
                    "--hot-data=0x6000000000000100", "--hot-code", "0xe000000000400000",
                    "--hot-opcode", "8000000140/1E0000001C0,0x8000000/0x1ffffffffff", "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_CONTAINS(r.out, " --hot-code 0x1000,0x4000000000001ff0,0xe000000000400000");
    EXPECT_CONTAINS(r.out, " --hot-data 0x6000000000000100");
    EXPECT_CONTAINS(r.out, " --hot-opcode 0x8000000140/0x1e0000001c0,0x8000000/0x1ffffffffff");
    // what the library makes with the same edges
    std::vector<uint64_t> code = {0x1000, 0x4000000000001ff0ull, 0xe000000000400000ull},
                          data = {0x6000000000000100ull}, match = {0x8000000140ull, 0x8000000},
                          care = {0x1e0000001c0ull, 0x1ffffffffffull};
    pmu_gen_hot hot = {code.data(), 3, data.data(), 1, match.data(), care.data(), 2};
    pmu_gen_opts o = {3, 3000, PMU_GEN_RANDOM, 4, &hot};
    pmu_gen *g = pmu_gen_create(ITA, &o, nullptr);
    ASSERT_NE(g, nullptr);
    std::vector<pmu_cycle> expect;
    pmu_cycle c;
    while (pmu_gen_next(g, &c) == 1)
        expect.push_back(c);
    pmu_gen_destroy(g);
    ReadResult rr = read_file(out);
    ASSERT_EQ(rr.rc, 0) << rr.err;
    EXPECT_TRUE(same_records(rr.recs, expect));
    EXPECT_FALSE(same_records(rr.recs, generate(3, 3000, PMU_GEN_RANDOM))) << "the edges changed nothing";

    // the printed command makes the same file
    std::string first = slurp(out);
    remove(out.c_str());
    size_t at = r.out.find("pmusim gen ");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::vector<std::string> args = split(r.out.substr(at, r.out.find('\n', at) - at));
    args.erase(args.begin());
    CmdRun again = run(pmusim_cmd_gen, args);
    ASSERT_EQ(again.rc, 0) << again.err;
    EXPECT_EQ(slurp(out), first);
    remove(out.c_str());
}

TEST(CmdConv, ArgumentErrors)
{
    std::string in = scratch("conv_in.txt");
    expect_usage_error(conv({}), "needs an input and an output");
    expect_usage_error(conv({in}), "needs an input and an output");
    expect_usage_error(conv({in, "b", "c"}), "unexpected argument 'c'");
    expect_usage_error(conv({in, "b", "--to", "xml"}), "--to");
    expect_usage_error(conv({in, "b", "--to"}), "--to");
    expect_usage_error(conv({in, "b", "--fast"}), "unknown option '--fast'");
    expect_usage_error(conv({in, in}), "same file");
}

TEST(CmdConv, RuntimeErrorsExitOneAndLeaveNoOutput)
{
    std::string out = scratch("conv_out.bin");
    CmdRun missing = conv({scratch("no_such_input.txt"), out});
    EXPECT_EQ(missing.rc, 1);
    EXPECT_CONTAINS(missing.err, "no_such_input.txt");
    std::string bad = scratch("conv_bad.txt");
    spit(bad, "cpl=1\ncpl=1 | ip=0x3\n");
    CmdRun r = conv({bad, out});
    EXPECT_EQ(r.rc, 1);
    EXPECT_CONTAINS(r.err, "conv_bad.txt:2: field 'ip'");
    EXPECT_NE(access(out.c_str(), F_OK), 0) << "partial output left behind";
    remove(bad.c_str());
}

TEST(CmdConv, TextToBinaryAndBack)
{
    std::string txt = scratch("conv.txt"), bin = scratch("conv.bin"), txt2 = scratch("conv2.txt"),
                bin2 = scratch("conv2.bin");
    write_stream(txt, PMU_STREAM_TEXT, generate(21, 20000, PMU_GEN_WORKLOAD));
    CmdRun a = conv({txt, bin}); // default: the other form
    ASSERT_EQ(a.rc, 0) << a.err;
    EXPECT_CONTAINS(a.out, "text -> binary");
    EXPECT_EQ(slurp(bin).substr(0, 4), "\x89PMU");
    CmdRun b = conv({bin, txt2});
    ASSERT_EQ(b.rc, 0) << b.err;
    EXPECT_CONTAINS(b.out, "binary -> text");
    EXPECT_EQ(slurp(txt), slurp(txt2));
    CmdRun c = conv({"--to", "binary", txt2, bin2}); // explicit, options anywhere
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(slurp(bin), slurp(bin2));
    CmdRun d = conv({bin, txt2, "--to=binary"}); // binary -> binary copies
    ASSERT_EQ(d.rc, 0) << d.err;
    EXPECT_EQ(slurp(bin), slurp(txt2));
    for (const std::string &p : {txt, bin, txt2, bin2})
        remove(p.c_str());
}
