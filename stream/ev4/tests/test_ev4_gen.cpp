// The ev4 generator: determinism, the function list, round trips of generated streams
// through both forms, the system rules every stream obeys across records and CPUs (a
// checker of its own below), and the workload's statistics.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "stream/pmu_dialect_test_util.h"
#include "stream/ev4/ev4_stream.h"
#include "stream/pmu_stream.h"

namespace {

const pmu_dialect *const EV4 = &pmu_dialect_ev4;

pmu_gen_opts opts(uint64_t seed, uint64_t cycles, pmu_gen_mode mode, unsigned cpu = 0,
                  unsigned ncpus = 1, unsigned nprocs = 0)
{
    pmu_gen_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.cycles = cycles;
    o.mode = mode;
    o.nprocs = nprocs;
    o.cpu = cpu;
    o.ncpus = ncpus;
    return o;
}

std::vector<ev4_cycle> generate(const pmu_gen_opts &o) { return dialect_generate<ev4_cycle>(EV4, o); }

std::string fmt(const ev4_cycle &c)
{
    char buf[512];
    EV4->format(&c, buf, sizeof buf);
    return buf;
}

struct Func {
    uint64_t start, end;
    std::string name;
};

std::vector<Func> functions(const pmu_gen_opts &o)
{
    pmu_gen *g = pmu_gen_create(EV4, &o, nullptr);
    std::vector<Func> out;
    for (unsigned i = 0; g && i < pmu_gen_nfuncs(g); i++) {
        uint64_t s, e;
        const char *n;
        EXPECT_EQ(pmu_gen_func(g, i, &s, &e, &n), 0);
        out.push_back({s, e, n});
    }
    if (g) {
        EXPECT_EQ(pmu_gen_func(g, pmu_gen_nfuncs(g), nullptr, nullptr, nullptr), -1);
    }
    pmu_gen_destroy(g);
    return out;
}

// The system rules of docs/ev4-stream.md ("System rules"), checked over the streams of
// all CPUs of one system stepped together.  Returns "" or the first broken rule.
class SystemChecker {
  public:
    explicit SystemChecker(unsigned ncpus) : ncpus_(ncpus), last_(ncpus), exited_now_(ncpus) {}

    std::string step(uint64_t t, const std::vector<ev4_cycle> &cpus)
    {
        std::set<uint32_t> current;
        for (unsigned cpu = 0; cpu < ncpus_; cpu++) {
            std::string e = record(t, cpu, cpus[cpu]);
            if (!e.empty())
                return "cpu " + std::to_string(cpu) + " record " + std::to_string(t + 1) + " (" +
                       fmt(cpus[cpu]) + "): " + e;
            uint32_t pid = cpus[cpu].pid;
            if (pid && !current.insert(pid).second)
                return "record " + std::to_string(t + 1) + ": pid " + std::to_string(pid) +
                       " current on two CPUs";
        }
        return "";
    }

    uint64_t forks = 0, exits = 0, binds = 0, switches = 0;

  private:
    std::string record(uint64_t t, unsigned cpu, const ev4_cycle &c)
    {
        pmu_err err;
        if (EV4->validate(&c, "", &err))
            return err.msg;
        uint32_t base = EV4_GEN_PID_BASE(cpu);
        if (t == 0 && c.pid != 0)
            return "a CPU boots running pid 0";
        if (c.pid && (c.pid < base || c.pid >= base + EV4_GEN_PIDS_PER_CPU))
            return "pid outside the CPU's range";
        if (exited_now_[cpu] && c.pid == last_[cpu])
            return "the record after an exit has the exited pid";
        if (dead_.count(c.pid))
            return "an exited pid appears again";
        if (t && c.pid != last_[cpu])
            switches++;
        exited_now_[cpu] = false;
        last_[cpu] = c.pid;
        if (c.pid)
            existed_.insert(c.pid);
        auto b = bound_.find(c.pid);
        if (b != bound_.end() && b->second != cpu)
            return "a bound process runs on another CPU";
        if (c.os != EV4_OS_NONE && c.pid == 0)
            return "pid 0 carries an OS event";
        switch (c.os) {
        case EV4_OS_FORK:
            if (existed_.count(c.os_arg))
                return "fork to a pid that existed";
            if (c.os_arg < base || c.os_arg >= base + EV4_GEN_PIDS_PER_CPU)
                return "fork to a pid outside the CPU's range";
            existed_.insert(c.os_arg);
            forks++;
            break;
        case EV4_OS_EXIT:
            if (c.pid == EV4_GEN_SHELL_PID(cpu))
                return "the shell exits";
            dead_.insert(c.pid);
            exited_now_[cpu] = true;
            exits++;
            break;
        case EV4_OS_BIND:
            if (c.os_arg != cpu || c.os_arg >= ncpus_)
                return "bind to another CPU than the stream's";
            bound_[c.pid] = cpu;
            binds++;
            break;
        case EV4_OS_UNBIND:
            bound_.erase(c.pid);
            break;
        default:
            break;
        }
        return "";
    }

    unsigned ncpus_;
    std::vector<uint32_t> last_;
    std::vector<bool> exited_now_;
    std::set<uint32_t> existed_, dead_;
    std::map<uint32_t, unsigned> bound_;
};

// Runs the checker over `cycles` records of every CPU of a system.
void check_system(uint64_t seed, pmu_gen_mode mode, unsigned ncpus, uint64_t cycles,
                  unsigned nprocs = 0)
{
    std::vector<pmu_gen *> gens;
    for (unsigned cpu = 0; cpu < ncpus; cpu++) {
        pmu_gen_opts o = opts(seed, cycles, mode, cpu, ncpus, nprocs);
        pmu_err err;
        gens.push_back(pmu_gen_create(EV4, &o, &err));
        ASSERT_NE(gens.back(), nullptr) << err.msg;
    }
    SystemChecker check(ncpus);
    std::vector<ev4_cycle> now(ncpus);
    std::string broken;
    for (uint64_t t = 0; t < cycles && broken.empty(); t++) {
        for (unsigned cpu = 0; cpu < ncpus; cpu++)
            ASSERT_EQ(pmu_gen_next(gens[cpu], &now[cpu]), 1);
        broken = check.step(t, now);
    }
    EXPECT_EQ(broken, "") << "seed " << seed << (mode == PMU_GEN_RANDOM ? " random" : " workload");
    EXPECT_GT(check.forks, 0u);
    EXPECT_GT(check.exits, 0u);
    EXPECT_GT(check.binds, 0u);
    EXPECT_GT(check.switches, 0u);
    for (pmu_gen *g : gens)
        pmu_gen_destroy(g);
}

bool same(const std::vector<ev4_cycle> &a, const std::vector<ev4_cycle> &b, std::string *why)
{
    if (a.size() != b.size()) {
        *why = std::to_string(a.size()) + " records vs " + std::to_string(b.size());
        return false;
    }
    for (size_t i = 0; i < a.size(); i++)
        if (!EV4->equal(&a[i], &b[i])) {
            *why = "record " + std::to_string(i + 1) + ": " + fmt(a[i]) + " vs " + fmt(b[i]);
            return false;
        }
    return true;
}

} // namespace

TEST(Ev4Gen, SameSeedSameStream)
{
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        std::vector<ev4_cycle> a = generate(opts(42, 20000, mode, 1, 2));
        std::vector<ev4_cycle> b = generate(opts(42, 20000, mode, 1, 2));
        std::vector<ev4_cycle> other_seed = generate(opts(43, 20000, mode, 1, 2));
        std::vector<ev4_cycle> other_cpu = generate(opts(42, 20000, mode, 0, 2));
        std::string why;
        EXPECT_TRUE(same(a, b, &why)) << why;
        EXPECT_FALSE(same(a, other_seed, &why));
        EXPECT_FALSE(same(a, other_cpu, &why));
    }
}

TEST(Ev4Gen, OptionsAreChecked)
{
    pmu_err err;
    pmu_gen_opts o = opts(1, 10, PMU_GEN_WORKLOAD, 2, 2);
    EXPECT_EQ(pmu_gen_create(EV4, &o, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("cpu 2 of 2 CPUs"), std::string::npos) << err.msg;
    o = opts(1, 10, PMU_GEN_WORKLOAD, 0, EV4_MAX_CPUS + 1);
    EXPECT_EQ(pmu_gen_create(EV4, &o, &err), nullptr);
    o = opts(1, 10, PMU_GEN_WORKLOAD, 0, 1, EV4_GEN_MAX_PROCS + 1);
    EXPECT_EQ(pmu_gen_create(EV4, &o, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("65 processes"), std::string::npos) << err.msg;
    uint64_t edge = 0x120000000;
    pmu_gen_hot hot;
    memset(&hot, 0, sizeof hot);
    hot.code = &edge;
    hot.ncode = 1;
    o = opts(1, 10, PMU_GEN_WORKLOAD);
    o.hot = &hot;
    EXPECT_EQ(pmu_gen_create(EV4, &o, &err), nullptr);
    EXPECT_NE(std::string(err.msg).find("hot edges"), std::string::npos) << err.msg;
}

TEST(Ev4Gen, FunctionsAreSortedAndLaidOut)
{
    pmu_gen_opts o = opts(7, 0, PMU_GEN_WORKLOAD, 1, 3, 5);
    std::vector<Func> f = functions(o);
    ASSERT_FALSE(f.empty());
    std::set<std::string> names;
    unsigned kernel = 0, pal = 0, sh = 0, user = 0;
    for (size_t i = 0; i < f.size(); i++) {
        EXPECT_LT(f[i].start, f[i].end) << f[i].name;
        EXPECT_EQ(f[i].start % 4, 0u);
        if (i) {
            EXPECT_LE(f[i - 1].end, f[i].start) << f[i - 1].name << " overlaps " << f[i].name;
        }
        EXPECT_TRUE(names.insert(f[i].name).second) << "twice: " << f[i].name;
        if (f[i].name.rfind("vmunix:", 0) == 0) {
            kernel++;
            EXPECT_GE(f[i].start, EV4_GEN_KERNEL_BASE);
            EXPECT_LE(f[i].end, EV4_GEN_KERNEL_END);
        } else if (f[i].name.rfind("pal:", 0) == 0) {
            pal++;
            EXPECT_GE(f[i].start, EV4_GEN_PAL_BASE);
            EXPECT_LT(f[i].end, EV4_GEN_USER_BASE(0));
        } else if (f[i].name.rfind("sh:", 0) == 0) {
            sh++;
            EXPECT_GE(f[i].start, EV4_GEN_USER_BASE(0));
            EXPECT_LT(f[i].end, EV4_GEN_USER_BASE(1));
        } else {
            user++; // CPU 1 of 3 with 5 processes: programs 6..10
            EXPECT_GE(f[i].start, EV4_GEN_USER_BASE(6)) << f[i].name;
            EXPECT_LT(f[i].end, EV4_GEN_USER_BASE(11)) << f[i].name;
        }
    }
    EXPECT_TRUE(names.count("vmunix:idle_thread"));
    EXPECT_TRUE(names.count("pal:callsys"));
    EXPECT_TRUE(names.count("sh:main"));
    EXPECT_GT(kernel, 10u);
    EXPECT_GT(pal, 3u);
    EXPECT_GT(sh, 2u);
    EXPECT_GE(user, 5u * 5u);
    // the list depends on the seed, nprocs, cpu and ncpus, not on the cycles
    pmu_gen_opts longer = o;
    longer.cycles = 1000;
    EXPECT_EQ(functions(longer).size(), f.size());
    // the kernel, PALcode and the shell are the same on every CPU of the system
    std::vector<Func> cpu0 = functions(opts(7, 0, PMU_GEN_WORKLOAD, 0, 3, 5));
    std::map<std::string, uint64_t> at0;
    for (const Func &x : cpu0)
        at0[x.name] = x.start;
    for (const Func &x : f) {
        if (x.name.rfind("vmunix:", 0) == 0 || x.name.rfind("pal:", 0) == 0 ||
            x.name.rfind("sh:", 0) == 0) {
            EXPECT_EQ(at0[x.name], x.start) << x.name;
        }
    }
    EXPECT_EQ(functions(opts(7, 0, PMU_GEN_RANDOM)).size(), 0u);
}

TEST(Ev4Gen, GeneratedStreamsRoundTripThroughBothForms)
{
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM})
        for (unsigned cpu = 0; cpu < 3; cpu++) {
            std::vector<ev4_cycle> recs = generate(opts(11 + cpu, 30000, mode, cpu, 3));
            for (pmu_stream_form form : {PMU_STREAM_TEXT, PMU_STREAM_BINARY}) {
                std::string path = ::testing::TempDir() + "ev4_gen_" + std::to_string(getpid()) +
                                   (form == PMU_STREAM_TEXT ? ".txt" : ".bin");
                pmu_err err;
                pmu_stream_writer *w = pmu_stream_create(EV4, path.c_str(), form, &err);
                ASSERT_NE(w, nullptr) << err.msg;
                for (const ev4_cycle &c : recs)
                    ASSERT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg << ": " << fmt(c);
                ASSERT_EQ(pmu_stream_finish(w, &err), 0) << err.msg;
                pmu_stream_reader *r = pmu_stream_open(EV4, path.c_str(), &err);
                ASSERT_NE(r, nullptr) << err.msg;
                EXPECT_EQ(pmu_stream_reader_form(r), form);
                std::vector<ev4_cycle> back;
                ev4_cycle c;
                int rc;
                while ((rc = pmu_stream_next(r, &c, &err)) == 1)
                    back.push_back(c);
                EXPECT_EQ(rc, 0) << err.msg;
                pmu_stream_close(r);
                std::remove(path.c_str());
                std::string why;
                EXPECT_TRUE(same(recs, back, &why)) << "cpu " << cpu << " form " << form << ": " << why;
            }
        }
}

TEST(Ev4Gen, WorkloadObeysTheSystemRules)
{
    for (uint64_t seed : {1u, 2u})
        check_system(seed, PMU_GEN_WORKLOAD, 3, 300000);
    check_system(5, PMU_GEN_WORKLOAD, 1, 300000, 2);
}

TEST(Ev4Gen, RandomObeysTheSystemRules)
{
    for (uint64_t seed : {1u, 2u})
        check_system(seed, PMU_GEN_RANDOM, 3, 200000);
}

TEST(Ev4Gen, RandomUsesEveryFieldValue)
{
    std::vector<ev4_cycle> recs = generate(opts(3, 50000, PMU_GEN_RANDOM, 0, 1));
    std::set<unsigned> modes, ipls, classes, stalls, os;
    unsigned replays = 0, idle = 0;
    for (const ev4_cycle &c : recs) {
        modes.insert(c.mode);
        ipls.insert(c.ipl);
        stalls.insert(c.stall);
        os.insert(c.os);
        for (unsigned i = 0; i < c.nissue; i++)
            classes.insert(c.cls[i]);
        replays += c.replay != 0;
        idle += c.idle;
    }
    EXPECT_EQ(modes.size(), 3u);
    EXPECT_EQ(ipls.size(), 8u);
    EXPECT_EQ(classes.size(), (size_t)EV4_NCLASSES);
    EXPECT_EQ(stalls.size(), 3u);
    EXPECT_EQ(os.size(), 6u);
    EXPECT_GT(replays, 0u);
    EXPECT_GT(idle, 0u);
}

// Every hardware event of docs/ev4.md "Counting" occurs, and the OS does what a small
// OSF/1 system does; the PCs lie in the functions of the mode's image.
TEST(Ev4Gen, WorkloadStatistics)
{
    pmu_gen_opts o = opts(9, 300000, PMU_GEN_WORKLOAD, 0, 2);
    std::vector<ev4_cycle> recs = generate(o);
    std::vector<Func> f = functions(o);
    std::map<std::string, uint64_t> n;
    std::set<unsigned> kernel_ipls;
    uint64_t outside = 0;
    for (const ev4_cycle &c : recs) {
        n["dual"] += c.nissue == 2;
        n["single"] += c.nissue == 1;
        n["dry"] += c.stall == EV4_STALL_DRY;
        n["frozen"] += c.stall == EV4_STALL_FROZEN;
        for (unsigned i = 0; i < c.nissue; i++)
            n[std::string("class ") + std::to_string(c.cls[i])]++;
        n["replay"] += c.replay != 0;
        n["pal"] += c.mode == EV4_MODE_PAL;
        n["user"] += c.mode == EV4_MODE_USER;
        n["kernel"] += c.mode == EV4_MODE_KERNEL;
        n["idle"] += c.idle;
        n["dmiss"] += c.dmiss;
        n["imiss"] += c.imiss;
        n["mispredict"] += c.mispredict;
        n["pin0"] += c.pin0;
        n["pin1"] += c.pin1;
        n[std::string("os ") + std::to_string(c.os)]++;
        if (c.mode == EV4_MODE_KERNEL)
            kernel_ipls.insert(c.ipl);
        // the PC lies in a function of its mode's image
        const Func *in = nullptr;
        for (const Func &x : f)
            if (c.pc >= x.start && c.pc < x.end)
                in = &x;
        bool ok = in && (c.mode == EV4_MODE_PAL ? in->name.rfind("pal:", 0) == 0
                         : c.mode == EV4_MODE_KERNEL ? in->name.rfind("vmunix:", 0) == 0
                         : in->name.find("vmunix:") && in->name.find("pal:"));
        outside += !ok;
    }
    const char *every[] = {"dual", "single", "dry", "frozen", "class 0", "class 1", "class 2",
                           "class 3", "class 4", "class 5", "replay", "pal", "user", "kernel",
                           "idle", "dmiss", "imiss", "mispredict", "pin0", "pin1", "os 1",
                           "os 2", "os 3", "os 4", "os 5"};
    for (const char *k : every)
        EXPECT_GT(n[k], 0u) << k;
    EXPECT_EQ(outside, 0u) << "records whose pc is not in a function of their mode";
    for (unsigned ipl : {0u, 3u, 4u, 5u, 6u, 7u})
        EXPECT_TRUE(kernel_ipls.count(ipl)) << "kernel at IPL " << ipl;
    // plausible proportions: user code dominates, dual issue is common, stalls are not
    EXPECT_GT(n["user"], recs.size() / 4);
    EXPECT_GT(n["dual"], recs.size() / 10);
    EXPECT_LT(n["dry"] + n["frozen"], recs.size() / 2);
    EXPECT_LT(n["pin0"], recs.size() / 100);
}
