// test_cli_streams.cpp - `pmusim gen` and `pmusim conv` run in-process: argument errors
// (exit 2, one line), write failures (exit 1, nothing left behind), the regenerate line,
// conversions; and the safe outputs under them (include/cli/pmu_outfile.h).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/pmu_cli.h"
#include "cli/pmu_outfile.h"
#include "stream/pmu_stream.h"
#include "harness/ita/ita_family.h"

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

std::string scratch(const std::string &name)
{
    return ::testing::TempDir() + "pmucli_" + std::to_string(getpid()) + "_" + name;
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void spit(const std::string &path, const std::string &data)
{
    std::ofstream f(path, std::ios::binary);
    f << data;
}

bool exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

#define EXPECT_CONTAINS(hay, needle) EXPECT_NE((hay).find(needle), std::string::npos) << (hay)

void expect_usage_error(const CmdRun &r, const std::string &mention)
{
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_CONTAINS(r.err, mention);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err; // one line
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

// What the library writes for these generator options: the file a command must match.
std::string library_stream(pmu_gen_opts o, pmu_stream_form form)
{
    std::string path = scratch("library_stream");
    pmu_err err;
    pmu_gen *g = pmu_gen_create(&ita_dialect, &o, &err);
    pmu_stream_writer *w = pmu_stream_create(&ita_dialect, path.c_str(), form, &err);
    ita_cycle c;
    while (g && w && pmu_gen_next(g, &c) == 1)
        pmu_stream_write(w, &c, &err);
    if (w)
        pmu_stream_finish(w, &err);
    pmu_gen_destroy(g);
    std::string data = slurp(path);
    remove(path.c_str());
    return data;
}

// The regenerate line printed by gen, run again, makes the same file.
void expect_regenerates(const CmdRun &r, const std::string &out)
{
    std::string first = slurp(out);
    remove(out.c_str());
    size_t at = r.out.find("pmusim gen ");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::vector<std::string> args = split(r.out.substr(at, r.out.find('\n', at) - at));
    args.erase(args.begin()); // "pmusim"
    CmdRun again = run(pmusim_cmd_gen, args);
    ASSERT_EQ(again.rc, 0) << again.err;
    EXPECT_EQ(slurp(out), first);
    remove(out.c_str());
}

} // namespace

TEST(CmdGen, ArgumentErrors)
{
    std::string o = scratch("never.txt");
    expect_usage_error(gen({"--seed", "1"}), "expected -o FILE");
    expect_usage_error(gen({"--seed", "abc", "-o", o}), "--seed");
    expect_usage_error(gen({"--seed", "-o", o}), "--seed");
    expect_usage_error(gen({"--seed"}), "--seed: expected a value");
    expect_usage_error(gen({"--seed", "1", "--seed=2", "-o", o}), "--seed: given twice");
    expect_usage_error(gen({"--cycles", "-5", "-o", o}), "--cycles");
    expect_usage_error(gen({"--cycles", "10k", "-o", o}), "--cycles");
    expect_usage_error(gen({"--procs", "0", "-o", o}), "--procs");
    expect_usage_error(gen({"--procs", "65", "-o", o}), "--procs");
    expect_usage_error(gen({"--mode", "fast", "-o", o}), "--mode");
    expect_usage_error(gen({"--format", "xml", "-o", o}), "--format");
    expect_usage_error(gen({"--frobnicate", "-o", o}), "unknown argument '--frobnicate'");
    expect_usage_error(gen({"stray", "-o", o}), "unexpected argument 'stray'");
    expect_usage_error(gen({"-o"}), "-o: expected a value");
    expect_usage_error(gen({"-o", ""}), "-o: expected a file name");
    expect_usage_error(gen({"--mode", "random", "--symbols", o + ".sym", "-o", o}), "--symbols");
    expect_usage_error(gen({"--cycles", "10", "-o", "/nonexistent-dir/out.txt"}),
                       "-o: cannot write '/nonexistent-dir/out.txt': No such file or directory");
    EXPECT_FALSE(exists(o)) << "an argument error created the output";
}

TEST(CmdGen, HelpAndVersion)
{
    CmdRun h = gen({"--help"});
    EXPECT_EQ(h.rc, 0);
    EXPECT_CONTAINS(h.out, "usage: pmusim gen");
    CmdRun v = gen({"--version"});
    EXPECT_EQ(v.rc, 0);
    EXPECT_CONTAINS(v.out, "pmusim " PMUSIM_VERSION);
}

TEST(CmdGen, PrintsSeedAndARegenerateLine)
{
    std::string out = scratch("gen1.txt");
    CmdRun r = gen({"--seed=77", "--cycles", "5000", "--procs", "3", "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_CONTAINS(r.out, "seed 77\n");
    pmu_gen_opts o = {77, 5000, PMU_GEN_WORKLOAD, 3, nullptr};
    EXPECT_EQ(slurp(out), library_stream(o, PMU_STREAM_TEXT));
    expect_regenerates(r, out);
}

TEST(CmdGen, WithoutASeedPicksAndPrintsOne)
{
    std::string out = scratch("gen_noseed.bin");
    CmdRun r = gen({"--cycles", "100", "--mode", "random", "-o", out});
    ASSERT_EQ(r.rc, 0) << r.err;
    unsigned long long seed = 0;
    ASSERT_EQ(sscanf(r.out.c_str(), "seed %llu", &seed), 1) << r.out;
    EXPECT_CONTAINS(r.out, "--seed " + std::to_string(seed));
    EXPECT_CONTAINS(r.out, "--format binary"); // .bin chose the binary form
    pmu_gen_opts o = {seed, 100, PMU_GEN_RANDOM, 4, nullptr};
    EXPECT_EQ(slurp(out), library_stream(o, PMU_STREAM_BINARY));
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
    expect_usage_error(gen({"--hot-code", "-o", o}), "--hot-code element 1: expected an unsigned number without a sign, found '-o'");
    expect_usage_error(gen({"-o", o, "--hot-code"}), "--hot-code: expected a value");
    expect_usage_error(gen({"--hot-code=", "-o", o}), "--hot-code: expected A[,B...], found ''");
    expect_usage_error(gen({"--hot-code", "0x10,,0x20", "-o", o}), "--hot-code: element 2 of '0x10,,0x20' is empty");
    expect_usage_error(gen({"--hot-code", "0x10,", "-o", o}), "element 2 of '0x10,' is empty");
    expect_usage_error(gen({"--hot-data", "0x1g", "-o", o}), "--hot-data element 1: expected hex digits after 0x, found '0x1g'");
    expect_usage_error(gen({"--hot-data", "-5", "-o", o}), "--hot-data element 1: expected an unsigned number");
    expect_usage_error(gen({"--hot-data", "0x10000000000000000", "-o", o}), "found '0x10000000000000000'");
    expect_usage_error(gen({"--hot-opcode", "0x8000000140", "-o", o}), "--hot-opcode: '0x8000000140' is not MATCH/CARE");
    expect_usage_error(gen({"--hot-opcode", "0x1/xyz", "-o", o}), "--hot-opcode element 1 care: expected hex digits");
    expect_usage_error(gen({"--hot-opcode", "/1", "-o", o}), "--hot-opcode element 1 match");
    expect_usage_error(gen({"--hot-opcode", "1/2/3", "-o", o}), "--hot-opcode element 1 care");
    expect_usage_error(gen({"--hot-opcode", "0x20000000000/0x1", "-o", o}), "has 41 bits");
    expect_usage_error(gen({"--hot-opcode", "1/1,0x1/0x20000000000", "-o", o}), "'0x1/0x20000000000'");
    EXPECT_FALSE(exists(o)) << "an argument error created the output";
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
    // what the library makes with the same edges, and that the edges change something
    std::vector<uint64_t> code = {0x1000, 0x4000000000001ff0ull, 0xe000000000400000ull},
                          data = {0x6000000000000100ull}, match = {0x8000000140ull, 0x8000000},
                          care = {0x1e0000001c0ull, 0x1ffffffffffull};
    pmu_gen_hot hot = {code.data(), 3, data.data(), 1, match.data(), care.data(), 2};
    pmu_gen_opts with = {3, 3000, PMU_GEN_RANDOM, 4, &hot}, without = {3, 3000, PMU_GEN_RANDOM, 4, nullptr};
    EXPECT_EQ(slurp(out), library_stream(with, PMU_STREAM_TEXT));
    EXPECT_NE(slurp(out), library_stream(without, PMU_STREAM_TEXT)) << "the edges changed nothing";
    expect_regenerates(r, out);
}

TEST(CmdConv, ArgumentErrors)
{
    std::string in = scratch("conv_in.txt");
    spit(in, "cpl=1\n");
    expect_usage_error(conv({}), "expected an input and an output file");
    expect_usage_error(conv({in}), "expected an input and an output file");
    expect_usage_error(conv({in, "b", "c"}), "unexpected argument 'c'");
    expect_usage_error(conv({in, "b", "--to", "xml"}), "--to");
    expect_usage_error(conv({in, "b", "--to"}), "--to");
    expect_usage_error(conv({in, "b", "--fast"}), "unknown argument '--fast'");
    expect_usage_error(conv({in, in}), "is the same file as the input");
    remove(in.c_str());
}

TEST(CmdConv, BadInputExitsTwoAndLeavesNoOutput)
{
    std::string out = scratch("conv_out.bin");
    CmdRun missing = conv({scratch("no_such_input.txt"), out});
    EXPECT_EQ(missing.rc, 2);
    EXPECT_CONTAINS(missing.err, "no_such_input.txt");
    std::string bad = scratch("conv_bad.txt");
    spit(bad, "cpl=1\ncpl=1 | ip=0x3\n");
    CmdRun r = conv({bad, out});
    EXPECT_EQ(r.rc, 2);
    EXPECT_CONTAINS(r.err, "conv_bad.txt:2: field 'ip'");
    EXPECT_FALSE(exists(out)) << "partial output left behind";
    remove(bad.c_str());
}

TEST(CmdConv, TextToBinaryAndBack)
{
    std::string txt = scratch("conv.txt"), bin = scratch("conv.bin"), txt2 = scratch("conv2.txt"),
                bin2 = scratch("conv2.bin");
    pmu_gen_opts o = {21, 20000, PMU_GEN_WORKLOAD, 4, nullptr};
    spit(txt, library_stream(o, PMU_STREAM_TEXT));
    CmdRun a = conv({txt, bin}); // default: the other form
    ASSERT_EQ(a.rc, 0) << a.err;
    EXPECT_CONTAINS(a.out, "text -> binary");
    EXPECT_EQ(slurp(bin), library_stream(o, PMU_STREAM_BINARY));
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

// ---- cli/pmu_outfile.h ------------------------------------------------------------------------

namespace {

std::vector<std::string> dir_entries(const std::string &dir)
{
    std::vector<std::string> names;
    std::string cmd = "ls -A '" + dir + "'";
    FILE *p = popen(cmd.c_str(), "r");
    char line[512];
    while (p && fgets(line, sizeof line, p))
        names.push_back(std::string(line, strcspn(line, "\n")));
    if (p)
        pclose(p);
    return names;
}

struct Dir {
    std::string path;
    Dir()
    {
        char tmpl[] = "/tmp/pmucli_outfile_XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~Dir() { std::system(("rm -rf '" + path + "'").c_str()); }
    std::string at(const std::string &name) const { return path + "/" + name; }
};

} // namespace

TEST(Outfile, CommitReplacesAndKeepsTheMode)
{
    Dir d;
    std::string target = d.at("out.txt");
    spit(target, "old");
    chmod(target.c_str(), 0640);
    pmu_err err;
    pmu_files *fs = pmu_files_new();
    pmu_outfile *o = pmu_files_output(fs, "-o", target.c_str(), 0, &err);
    ASSERT_NE(o, nullptr) << err.msg;
    EXPECT_NE(std::string(pmu_outfile_path(o)), target) << "written in place";
    spit(pmu_outfile_path(o), "new");
    EXPECT_EQ(slurp(target), "old") << "the target changed before the commit";
    uint64_t size = 0;
    ASSERT_EQ(pmu_outfile_commit(o, &size, &err), 0) << err.msg;
    EXPECT_EQ(size, 3u);
    pmu_files_free(fs);
    EXPECT_EQ(slurp(target), "new");
    struct stat st;
    ASSERT_EQ(stat(target.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    EXPECT_EQ(dir_entries(d.path), std::vector<std::string>{"out.txt"});
}

TEST(Outfile, DroppedOutputLeavesTheTargetAndNoTemporaryFile)
{
    Dir d;
    std::string target = d.at("keep.txt");
    spit(target, "precious");
    pmu_err err;
    pmu_files *fs = pmu_files_new();
    pmu_outfile *o = pmu_files_output(fs, "-o", target.c_str(), 0, &err);
    ASSERT_NE(o, nullptr) << err.msg;
    spit(pmu_outfile_path(o), "half-writ");
    pmu_files_free(fs);
    EXPECT_EQ(slurp(target), "precious");
    EXPECT_EQ(dir_entries(d.path), std::vector<std::string>{"keep.txt"});
}

TEST(Outfile, SameFileAsAnInputOrOutputIsRefused)
{
    Dir d;
    std::string in = d.at("in.txt");
    spit(in, "input");
    ASSERT_EQ(symlink(in.c_str(), d.at("link").c_str()), 0);
    ASSERT_EQ(link(in.c_str(), d.at("hard").c_str()), 0);
    pmu_err err;
    pmu_files *fs = pmu_files_new();
    pmu_files_input(fs, "--stream", in.c_str());
    for (const std::string &spelling : {in, d.path + "/./in.txt", d.at("link"), d.at("hard")}) {
        EXPECT_EQ(pmu_files_output(fs, "--waves", spelling.c_str(), 0, &err), nullptr) << spelling;
        EXPECT_NE(std::string(err.msg).find("is the same file as the input of --stream"), std::string::npos)
            << err.msg;
        EXPECT_EQ(err.code, PMU_E_INPUT);
    }
    ASSERT_NE(pmu_files_output(fs, "-o", d.at("new.txt").c_str(), 0, &err), nullptr) << err.msg;
    EXPECT_EQ(pmu_files_output(fs, "--symbols", (d.path + "/./new.txt").c_str(), 0, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("is the same file as the output of -o"), std::string::npos) << err.msg;
    pmu_files_free(fs);
    EXPECT_EQ(slurp(in), "input");
    std::vector<std::string> names = dir_entries(d.path);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"hard", "in.txt", "link"}));
}

TEST(Outfile, DevicesAreWrittenStraightAndNeverRemoved)
{
    // A device node of our own as root: a module that wrongly removed its output would
    // otherwise take the system's /dev/null with it.
    Dir d;
    std::string dev = d.at("null");
    if (mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        if (geteuid() == 0)
            GTEST_SKIP() << "cannot make a device node in " << d.path;
        dev = "/dev/null";
    }
    pmu_err err;
    pmu_files *fs = pmu_files_new();
    pmu_outfile *o = pmu_files_output(fs, "-o", dev.c_str(), 0, &err);
    ASSERT_NE(o, nullptr) << err.msg;
    EXPECT_EQ(std::string(pmu_outfile_path(o)), dev);
    pmu_files_free(fs); // dropped: nothing to remove
    struct stat st;
    ASSERT_EQ(stat(dev.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));

    // A writer that seeks gets a temporary file, copied into the device at the commit.
    fs = pmu_files_new();
    o = pmu_files_output(fs, "--waves", dev.c_str(), PMU_OUT_SEEKABLE, &err);
    ASSERT_NE(o, nullptr) << err.msg;
    std::string tmp = pmu_outfile_path(o);
    EXPECT_NE(tmp, dev);
    spit(tmp, "wave");
    ASSERT_EQ(pmu_outfile_commit(o, nullptr, &err), 0) << err.msg;
    EXPECT_FALSE(exists(tmp));
    pmu_files_free(fs);
    ASSERT_EQ(stat(dev.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(Outfile, UnusableTargets)
{
    Dir d;
    pmu_err err;
    pmu_files *fs = pmu_files_new();
    EXPECT_EQ(pmu_files_output(fs, "-o", d.path.c_str(), 0, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("Is a directory"), std::string::npos) << err.msg;
    EXPECT_EQ(pmu_files_output(fs, "-o", "-", 0, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("expected a file name, found '-'"), std::string::npos) << err.msg;
    ASSERT_EQ(symlink(d.at("missing").c_str(), d.at("dangling").c_str()), 0);
    EXPECT_EQ(pmu_files_output(fs, "-o", d.at("dangling").c_str(), 0, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("a symbolic link to a missing file"), std::string::npos) << err.msg;
    pmu_files_free(fs);
}

TEST(Outfile, ReadHasALimit)
{
    Dir d;
    std::string path = d.at("in.cfg");
    spit(path, "0123456789");
    char *data = nullptr;
    size_t len = 0;
    pmu_err err;
    ASSERT_EQ(pmu_files_read(nullptr, "--config", path.c_str(), 10, "a test file", &data, &len, &err), 0);
    EXPECT_EQ(std::string(data, len), "0123456789");
    free(data);
    EXPECT_NE(pmu_files_read(nullptr, "--config", path.c_str(), 9, "a test file", &data, &len, &err), 0);
    EXPECT_NE(std::string(err.msg).find("larger than 9 bytes, the limit for a test file"), std::string::npos)
        << err.msg;
}
