// test_rtrace.cpp - the raw trace reader (stream/rtrace.c, include/stream/pmu_rtrace.h): the
// plugin's words become executed instructions with their next PC and memory accesses, and
// every way a trace can be cut or garbled is one clear error.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "stream/pmu_rtrace.h"
}

namespace {

struct Trace {
    std::vector<uint32_t> w;
    Trace() { w = {PMU_RTRACE_MAGIC0, PMU_RTRACE_MAGIC1, PMU_RTRACE_VERSION, 4242}; }
    Trace &def(uint32_t id, uint64_t vaddr, std::vector<uint8_t> bytes)
    {
        w.push_back(PMU_RT_DEF | id << 2);
        w.push_back((uint32_t)vaddr);
        w.push_back((uint32_t)(vaddr >> 32));
        w.push_back((uint32_t)bytes.size());
        bytes.resize((bytes.size() + 3) / 4 * 4, 0);
        for (size_t i = 0; i < bytes.size(); i += 4) {
            uint32_t x;
            memcpy(&x, &bytes[i], 4);
            w.push_back(x);
        }
        return *this;
    }
    Trace &exec(uint32_t id)
    {
        w.push_back(PMU_RT_EXEC | id << 2);
        return *this;
    }
    Trace &mem(uint64_t addr, bool store, unsigned shift)
    {
        w.push_back(PMU_RT_MEM | (uint32_t)store << 2 | shift << 3);
        w.push_back((uint32_t)addr);
        w.push_back((uint32_t)(addr >> 32));
        return *this;
    }
    Trace &end(uint64_t count)
    {
        w.push_back(PMU_RT_CTRL | PMU_RT_END << 2);
        w.push_back((uint32_t)count);
        w.push_back((uint32_t)(count >> 32));
        return *this;
    }
};

// Reads every instruction of t; returns the reader's last result (0 or -1) with err.
struct Read {
    std::vector<pmu_rinsn> insns;
    int rc = 0;
    pmu_err err;
    uint64_t qemu = 0, exec = 0;
    uint32_t pid = 0;
    explicit Read(const Trace &t, size_t cut_bytes = 0)
    {
        pmu_err_clear(&err);
        size_t n = t.w.size() * 4 - cut_bytes;
        FILE *f = fmemopen((void *)t.w.data(), n ? n : 1, "rb");
        if (n == 0)
            fgetc(f); // an empty trace: nothing to read
        pmu_rtrace *r = pmu_rtrace_open(f, "trace", &err);
        if (!r) {
            rc = -2;
            fclose(f);
            return;
        }
        pmu_rinsn i;
        while ((rc = pmu_rtrace_next(r, &i, &err)) == 1)
            insns.push_back(i);
        qemu = pmu_rtrace_qemu_count(r);
        exec = pmu_rtrace_exec_count(r);
        pid = pmu_rtrace_pid(r);
        pmu_rtrace_close(r);
        fclose(f);
    }
};

TEST(RtraceTest, InstructionsWithNextPcAndAccesses)
{
    Trace t;
    t.def(0, 0x120000000ull, {1, 2, 3, 4}).def(1, 0x120000004ull, {5, 6, 7, 8}).def(2, 0x120000100ull, {9, 9, 9, 9});
    t.exec(0).mem(0x11ff0, false, 3).exec(1).exec(2).mem(0x2000, true, 2).mem(0x2008, false, 0).exec(0).end(4);
    Read r(t);
    ASSERT_EQ(r.rc, 0) << r.err.msg;
    ASSERT_EQ(r.insns.size(), 4u);
    EXPECT_EQ(r.pid, 4242u);
    EXPECT_EQ(r.qemu, 4u);
    EXPECT_EQ(r.exec, 4u);
    EXPECT_EQ(r.insns[0].pc, 0x120000000ull);
    EXPECT_EQ(r.insns[0].next_pc, 0x120000004ull); // fell through
    ASSERT_EQ(r.insns[0].nmem, 1u);
    EXPECT_EQ(r.insns[0].mem[0].addr, 0x11ff0u);
    EXPECT_EQ(r.insns[0].mem[0].size, 8u);
    EXPECT_EQ(r.insns[0].mem[0].store, 0u);
    EXPECT_EQ(r.insns[1].next_pc, 0x120000100ull); // went elsewhere: a taken branch
    EXPECT_EQ(r.insns[1].nmem, 0u);
    ASSERT_EQ(r.insns[2].nmem, 2u);
    EXPECT_EQ(r.insns[2].mem[0].store, 1u);
    EXPECT_EQ(r.insns[2].mem[0].size, 4u);
    EXPECT_EQ(r.insns[2].mem[1].size, 1u);
    EXPECT_EQ(r.insns[2].next_pc, 0x120000000ull);
    EXPECT_EQ(r.insns[3].next_pc, 0x120000004ull); // the last: pc + size
    EXPECT_EQ(r.insns[3].bytes[0], 1u);
    EXPECT_EQ(r.insns[3].size, 4u);
    EXPECT_EQ(r.insns[3].user, 1u);
}

TEST(RtraceTest, VariableLengthInstructionBytes)
{
    Trace t;
    std::vector<uint8_t> longest(15);
    for (unsigned i = 0; i < 15; i++)
        longest[i] = (uint8_t)(0xa0 + i);
    t.def(0, 0x8048000, {0x90}).def(1, 0x8048001, longest).exec(0).exec(1).end(2);
    Read r(t);
    ASSERT_EQ(r.rc, 0) << r.err.msg;
    ASSERT_EQ(r.insns.size(), 2u);
    EXPECT_EQ(r.insns[0].size, 1u);
    EXPECT_EQ(r.insns[0].next_pc, 0x8048001u);
    EXPECT_EQ(r.insns[1].size, 15u);
    EXPECT_EQ(r.insns[1].bytes[14], 0xaeu);
    EXPECT_EQ(r.insns[1].next_pc, 0x8048010u);
}

TEST(RtraceTest, MoreAccessesThanKeptAreCountedOnce)
{
    Trace t;
    t.def(0, 0x1000, {0xa5});
    t.exec(0);
    for (unsigned k = 0; k < PMU_RINSN_MAX_MEM + 3; k++)
        t.mem(0x5000 + 4 * k, k % 2, 2);
    t.end(1);
    Read r(t);
    ASSERT_EQ(r.rc, 0) << r.err.msg;
    ASSERT_EQ(r.insns.size(), 1u);
    EXPECT_EQ(r.insns[0].nmem, PMU_RINSN_MAX_MEM);
    EXPECT_EQ(r.insns[0].mem[PMU_RINSN_MAX_MEM - 1].addr, 0x5000u + 4 * (PMU_RINSN_MAX_MEM - 1));
}

TEST(RtraceTest, NoEndWordIsAnErrorNamingQemu)
{
    Trace t;
    t.def(0, 0x1000, {1, 2, 3, 4}).exec(0).exec(0);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("without its END word"), std::string::npos) << r.err.msg;
    EXPECT_EQ(r.insns.size(), 1u); // the first was complete (its successor arrived)
}

TEST(RtraceTest, CutInsideADefinition)
{
    Trace t;
    t.def(0, 0x1000, {1, 2, 3, 4, 5, 6, 7, 8});
    Read r(t, 4);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("inside a definition"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, CutInsideAWord)
{
    Trace t;
    t.def(0, 0x1000, {1, 2, 3, 4}).exec(0).end(1);
    Read r(t, 2); // the reader reads ahead: it may find the cut at once
    EXPECT_LT(r.rc, 0);
    EXPECT_NE(std::string(r.err.msg).find("ends inside a word"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, ExecutingAnUndefinedInstruction)
{
    Trace t;
    t.def(0, 0x1000, {1, 2, 3, 4}).exec(3).end(1);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("executes instruction 3, defined: 1"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, DefinitionsOutOfOrder)
{
    Trace t;
    t.def(1, 0x1000, {1, 2, 3, 4}).end(0);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("defines instruction 1, expected 0"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, BadInstructionSize)
{
    Trace t;
    t.w.push_back(PMU_RT_DEF);
    t.w.push_back(0x1000);
    t.w.push_back(0);
    t.w.push_back(16);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("instruction size 16, expected 1..15"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, AccessBeforeAnyInstruction)
{
    Trace t;
    t.mem(0x10, false, 0).end(0);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("before any instruction"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, SecondThreadStopsTheRecording)
{
    Trace t;
    t.def(0, 0x1000, {1, 2, 3, 4}).exec(0);
    t.w.push_back(PMU_RT_CTRL | PMU_RT_THREADS << 2);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_EQ(r.err.code, PMU_E_UNSUPPORTED);
    EXPECT_NE(std::string(r.err.msg).find("second thread"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, UnknownControlWord)
{
    Trace t;
    t.w.push_back(PMU_RT_CTRL | 77u << 2);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("unknown control word 77"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, HeaderOfAnotherVersionOrNone)
{
    Trace t;
    t.w[2] = PMU_RTRACE_VERSION + 1;
    t.end(0);
    Read r(t);
    EXPECT_EQ(r.rc, -2);
    EXPECT_NE(std::string(r.err.msg).find("not a pmusim raw trace"), std::string::npos) << r.err.msg;
    Trace empty;
    empty.w.clear();
    Read e(empty);
    EXPECT_EQ(e.rc, -2);
    EXPECT_NE(std::string(e.err.msg).find("no trace header"), std::string::npos) << e.err.msg;
}

TEST(RtraceTest, MappingsBeforeEnd)
{
    Trace t;
    t.def(0, 0x1000, {1, 2, 3, 4}).exec(0);
    const std::string paths[2] = {"/usr/alpha-linux-gnu/lib/libc.so.6.1", "/tmp/prog"};
    const uint64_t starts[2] = {0x4000860000ull, 0x120000000ull};
    for (int i = 0; i < 2; i++) {
        t.w.push_back(PMU_RT_CTRL | PMU_RT_MAP << 2);
        t.w.push_back((uint32_t)starts[i]);
        t.w.push_back((uint32_t)(starts[i] >> 32));
        t.w.push_back((uint32_t)paths[i].size());
        std::string p = paths[i];
        p.resize((p.size() + 3) / 4 * 4, '\0');
        for (size_t k = 0; k < p.size(); k += 4) {
            uint32_t x;
            memcpy(&x, p.data() + k, 4);
            t.w.push_back(x);
        }
    }
    t.end(1);
    pmu_err err;
    pmu_err_clear(&err);
    FILE *f = fmemopen((void *)t.w.data(), t.w.size() * 4, "rb");
    pmu_rtrace *r = pmu_rtrace_open(f, "trace", &err);
    ASSERT_NE(r, nullptr) << err.msg;
    pmu_rinsn i;
    ASSERT_EQ(pmu_rtrace_next(r, &i, &err), 1) << err.msg;
    ASSERT_EQ(pmu_rtrace_next(r, &i, &err), 0) << err.msg;
    uint64_t host = 0;
    ASSERT_NE(pmu_rtrace_map(r, 0, &host), nullptr);
    EXPECT_EQ(std::string(pmu_rtrace_map(r, 0, &host)), paths[0]);
    EXPECT_EQ(host, starts[0]);
    EXPECT_EQ(std::string(pmu_rtrace_map(r, 1, &host)), paths[1]);
    EXPECT_EQ(host, starts[1]);
    EXPECT_EQ(pmu_rtrace_map(r, 2, &host), nullptr);
    pmu_rtrace_close(r);
    fclose(f);
}

TEST(RtraceTest, MappingWithoutAPath)
{
    Trace t;
    t.w.push_back(PMU_RT_CTRL | PMU_RT_MAP << 2);
    t.w.push_back(0);
    t.w.push_back(0);
    t.w.push_back(0);
    t.end(0);
    Read r(t);
    EXPECT_EQ(r.rc, -1);
    EXPECT_NE(std::string(r.err.msg).find("a mapping's path of 0 bytes"), std::string::npos) << r.err.msg;
}

TEST(RtraceTest, EmptyProgramRunEndsAtOnce)
{
    Trace t;
    t.end(0);
    Read r(t);
    EXPECT_EQ(r.rc, 0) << r.err.msg;
    EXPECT_TRUE(r.insns.empty());
    EXPECT_EQ(r.exec, 0u);
}

} // namespace
