// drv_ev4_os.cpp - the 21064 OS model and PALcode (docs/ev4-pfm.md): every rule's
// error, processes and context switches, wrperfmon's register writes, the PME bits of
// PCNTLOGSELECT at context switches (fork inheritance included), and the taking of the
// counter interrupt (deferred at IPL >= 6 and in PALmode, acknowledged through SL_CLR).
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "ev4_fake_pmu.h"

using namespace ev4_test;

namespace {

// ---- creation and the PALcode's initial state ----

TEST(Ev4Os, CreateRejectsBadArguments)
{
    FakePmu f;
    pmu_backend *b[2] = {f.backend(), nullptr};
    pmu_err err = {PMU_OK, ""};
    EXPECT_EQ(ev4_os_create(0, b, &err), nullptr);
    EXPECT_STREQ(err.msg, "OS model: 0 CPUs, expected 1..32");
    EXPECT_EQ(ev4_os_create(EV4_MAX_CPUS + 1, b, &err), nullptr);
    EXPECT_EQ(ev4_os_create(2, b, &err), nullptr);
    EXPECT_STREQ(err.msg, "OS model: CPU 1 has no counter block");
    EXPECT_EQ(ev4_os_create(1, nullptr, &err), nullptr);
    EXPECT_EQ(err.code, PMU_E_INPUT);
    EXPECT_TRUE(f.writes.empty()) << "nothing reaches the hardware on a bad argument";
}

TEST(Ev4Os, PalStartsLoggingAllWithInterruptsDisabled)
{
    System s(3);
    EXPECT_EQ(ev4_os_ncpus(s.os), 3u);
    for (unsigned c = 0; c < 3; c++) {
        EXPECT_TRUE(s.cpu(c).pme()) << "CPU " << c;
        EXPECT_TRUE(s.cpu(c).hier_clear());
        EXPECT_EQ(s.st(c).cycles, 0u);
        EXPECT_EQ(s.st(c).switches, 0u);
    }
    EXPECT_EQ(ev4_os_cpu(s.os, 3), nullptr);
}

// ---- processes and context switches ----

TEST(Ev4Os, BootsInPidZeroAndCountsSwitchesAndRecords)
{
    System s(2);
    s.run(0, rec(0), 3);
    EXPECT_EQ(s.st(0).switches, 0u) << "each CPU boots running pid 0";
    s.run(0, rec(7), 2);
    s.run(0, rec(0));
    s.run(0, rec(8));
    EXPECT_EQ(s.st(0).switches, 3u);
    EXPECT_EQ(s.st(0).cycles, 7u);
    EXPECT_EQ(s.st(1).cycles, 0u);
    s.run(1, rec(7)); // 7 left CPU 0 for pid 0 then 8
    EXPECT_EQ(s.st(1).switches, 1u);
}

TEST(Ev4Os, SpawnBindAndPcbQueries)
{
    System s(2);
    EXPECT_EQ(ev4_os_spawn(s.os, 0), -EINVAL);
    EXPECT_EQ(ev4_os_spawn(s.os, EV4_MAX_PID + 1), -EINVAL);
    EXPECT_EQ(ev4_os_spawn(s.os, 12), 0);
    EXPECT_EQ(ev4_os_spawn(s.os, 12), 0) << "spawning an existing process changes nothing";
    EXPECT_EQ(ev4_os_bind(s.os, 12, 2), -EINVAL);
    EXPECT_EQ(ev4_os_bind(s.os, 12, -2), -EINVAL);
    EXPECT_EQ(ev4_os_bind(s.os, 13, 0), -EINVAL) << "no such process";
    EXPECT_EQ(ev4_os_bind(s.os, 12, 1), 0);
    EXPECT_NE(s.refuse(0, rec(12)), "") << "bound to CPU 1";
    s.run(1, rec(12));
    EXPECT_EQ(ev4_os_bind(s.os, 12, -1), 0);
    s.run(1, rec(0));
    s.run(0, rec(12));
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 12), 0);
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 999), 0);
    // Many processes: the table grows and keeps every one.
    for (uint32_t pid = 100; pid < 1100; pid++) ASSERT_EQ(ev4_os_spawn(s.os, pid), 0);
    EXPECT_NE(s.refuse(1, event(12, EV4_OS_NONE)), "") << "12 is still current on CPU 0";
}

TEST(Ev4OsRules, ForkChildMustBeNew)
{
    System s(1);
    s.run(0, event(5, EV4_OS_FORK, 6));
    EXPECT_EQ(s.refuse(0, event(5, EV4_OS_FORK, 6)),
              "OS model: CPU 0 record 1: pid 5: FORK: child pid 6 exists: a child must be a new process");
    s.run(0, rec(6));
    s.run(0, event(6, EV4_OS_EXIT));
    EXPECT_EQ(s.refuse(0, event(5, EV4_OS_FORK, 6)),
              "OS model: CPU 0 record 3: pid 5: FORK: child pid 6 existed before: a child must be a new process");
    EXPECT_EQ(s.refuse(0, event(5, EV4_OS_FORK, 0)),
              "OS model: CPU 0 record 3: pid 5: FORK: child pid 0, expected a new pid 1..16777215");
    EXPECT_NE(s.refuse(0, event(5, EV4_OS_FORK, 5)), "");
    EXPECT_NE(s.refuse(0, event(5, EV4_OS_FORK, EV4_MAX_PID + 1)), "");
    ASSERT_EQ(ev4_os_spawn(s.os, 40), 0);
    EXPECT_NE(s.refuse(0, event(5, EV4_OS_FORK, 40)), "") << "a spawned pid exists";
}

TEST(Ev4OsRules, ExitIsFollowedByAnotherPidAndNeverReturns)
{
    System s(2);
    s.run(0, event(9, EV4_OS_EXIT));
    EXPECT_EQ(s.refuse(0, rec(9)),
              "OS model: CPU 0 record 1: pid 9: EXIT: the record after an EXIT must be of another process");
    EXPECT_EQ(s.refuse(1, rec(9)),
              "OS model: CPU 1 record 0: pid 9: EXIT: an exited process never appears again");
    s.run(0, rec(0));
    EXPECT_NE(s.refuse(0, rec(9)), "");
    EXPECT_EQ(ev4_os_spawn(s.os, 9), -EINVAL);
    EXPECT_EQ(ev4_os_bind(s.os, 9, 0), -EINVAL);
}

TEST(Ev4OsRules, ProcessIsCurrentOnOneCpu)
{
    System s(2);
    s.run(0, rec(4));
    EXPECT_EQ(s.refuse(1, rec(4)),
              "OS model: CPU 1 record 0: pid 4: current on CPU 0: a process is current on at most one "
              "CPU at a time");
    s.run(1, rec(0)); // pid 0 runs on every CPU
    s.run(0, rec(0));
    s.run(1, rec(4));
}

TEST(Ev4OsRules, BindTargetsAnExistingCpuAndHolds)
{
    System s(2);
    EXPECT_EQ(s.refuse(0, event(3, EV4_OS_BIND, 2)),
              "OS model: CPU 0 record 0: pid 3: BIND: CPU 2, expected 0..1");
    s.run(0, event(3, EV4_OS_BIND, 1));
    s.run(0, rec(0));
    EXPECT_EQ(s.refuse(0, rec(3)),
              "OS model: CPU 0 record 2: pid 3: BIND: bound to CPU 1, a bound process runs only there");
    s.run(1, event(3, EV4_OS_UNBIND));
    s.run(1, rec(0));
    s.run(0, rec(3));
}

TEST(Ev4OsRules, PidZeroDoesNoEventAndRecordsAreChecked)
{
    System s(1);
    EXPECT_EQ(s.refuse(0, event(0, EV4_OS_EXEC)),
              "OS model: CPU 0 record 0: pid 0: pid 0 (the idle/kernel thread) does no OS event, found EXEC");
    EXPECT_EQ(s.refuse(0, rec(EV4_MAX_PID + 1)),
              "OS model: CPU 0 record 0: pid 16777216: pid above the largest, 16777215");
    ev4_cycle r = rec(2);
    r.os = 6;
    EXPECT_EQ(s.refuse(0, r), "OS model: CPU 0 record 0: pid 2: OS event 6, expected 0..5");
    r = rec(2);
    r.mode = 3;
    EXPECT_EQ(s.refuse(0, r), "OS model: CPU 0 record 0: pid 2: mode 3, expected 0 (kernel), 1 (user) or 2 (PAL)");
    r = rec(2);
    r.ipl = 8;
    EXPECT_EQ(s.refuse(0, r), "OS model: CPU 0 record 0: pid 2: IPL 8, expected 0..7");
    pmu_err err = {PMU_OK, ""};
    EXPECT_EQ(ev4_os_before(s.os, 1, &r, &err), -1);
    EXPECT_STREQ(err.msg, "OS model: CPU 1, expected 0..0");
    EXPECT_EQ(s.st(0).cycles, 0u) << "a refused record is not stepped";
    EXPECT_EQ(s.st(0).switches, 0u) << "a refused record changes nothing";
}

// ---- the PALcode ----

TEST(Ev4Pal, EnableDisableWriteBothHierEnables)
{
    System s(2);
    s.cpu(1).hier = 1u << 2; // an enable of another interrupt: kept
    s.clear_writes();
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 1, PFENABLE, 0), 1u);
    EXPECT_TRUE(s.cpu(1).enabled());
    EXPECT_EQ(s.cpu(1).hier & (1u << 2), 1u << 2);
    EXPECT_TRUE(s.cpu(0).hier_clear()) << "wrperfmon acts on its own CPU";
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 1, PFDISABLE, 0), 1u);
    EXPECT_TRUE(s.cpu(1).hier_clear());
    EXPECT_EQ(s.cpu(1).hier, 1u << 2);
    ASSERT_EQ(s.cpu(1).writes.size(), 2u);
    EXPECT_EQ(s.cpu(1).writes[0].addr, (uint16_t)EV4_ADDR_HIER);
}

TEST(Ev4Pal, PfsetWritesTheCounterFieldsOnly)
{
    System s(1);
    uint64_t a1 = 0;
    a1 = EV4_FSET(a1, ICCSR, MUX0, EV4_MUX_PF_CYCLES);
    a1 = EV4_FSET(a1, ICCSR, MUX1, EV4_MUX_PF_STOREI);
    a1 = EV4_FSET(a1, ICCSR, PC0, 1);
    a1 = EV4_FSET(a1, ICCSR, PC1, 1);
    uint64_t junk = (3ull << 35) | (1ull << 20); // iccsr_disable's bits (PIPE, BPE) and an ign bit
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, PFSET, a1 | junk), 1u);
    uint64_t v = s.cpu(0).iccsr;
    EXPECT_EQ(EV4_FGET(v, ICCSR, MUX0), (uint64_t)EV4_MUX_PF_CYCLES);
    EXPECT_EQ(EV4_FGET(v, ICCSR, MUX1), (uint64_t)EV4_MUX_PF_STOREI);
    EXPECT_EQ(EV4_FGET(v, ICCSR, PC0), 1u);
    EXPECT_EQ(EV4_FGET(v, ICCSR, PC1), 1u);
    EXPECT_TRUE(s.cpu(0).pme()) << "PME is PAL's";
    EXPECT_EQ(v & junk, 0u);
    EXPECT_EQ(ev4_pal_last_pfset(s.os, 0), a1 | junk);
    // A second PFSET replaces every counter field.
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, PFSET, 0), 1u);
    EXPECT_EQ(s.cpu(0).iccsr, EV4_FSET(EV4_FSET(0, ICCSR, PME0, 1), ICCSR, PME1, 1));
}

TEST(Ev4Pal, UnknownFunctionsAndOptionsReturnZero)
{
    System s(1);
    s.clear_writes();
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, 4, 0), 0u);
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, 0x39, 0), 0u);
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, PFOPT, 0), 0u);
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, PFOPT, 3), 0u);
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 1, PFENABLE, 0), 0u) << "no CPU 1";
    EXPECT_TRUE(s.cpu(0).writes.empty());
    EXPECT_TRUE(s.cpu(0).pme());
}

TEST(Ev4Pal, PfoptSelectsFromTheCurrentPcbAtEverySwitch)
{
    System s(1);
    s.run(0, rec(5));
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, PFOPT, PFOPT_LOGSELECT), 1u);
    EXPECT_TRUE(s.cpu(0).pme_clear()) << "pid 5's PCB bit is clear";
    EXPECT_EQ(ev4_pal_wrperfmon(s.os, 0, PFOPT, PFOPT_LOGALL), 1u);
    EXPECT_TRUE(s.cpu(0).pme());
    s.run(0, rec(0));
    EXPECT_TRUE(s.cpu(0).pme()) << "logging all: kept set at a switch";
}

// ---- LOGSELECT through the device: the PCB bit and the switches ----

TEST(Ev4LogSelect, PmeFollowsThePcbBitAcrossSwitchesForkAndExec)
{
    System s(2);
    int fd = s.open_by(10, PCNTOPENALL);
    ASSERT_EQ(fd, 3);
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTLOGSELECT, nullptr), 0);
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 10), 1);
    for (unsigned c = 0; c < 2; c++)
        EXPECT_TRUE(s.cpu(c).pme_clear()) << "pid 0 is current on CPU " << c;
    s.run(0, rec(10));
    EXPECT_TRUE(s.cpu(0).pme());
    s.run(0, event(10, EV4_OS_FORK, 11));
    s.run(0, event(10, EV4_OS_EXEC));
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 11), 1) << "the child inherits the bit";
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 10), 1) << "exec keeps it";
    s.run(1, rec(11));
    EXPECT_TRUE(s.cpu(1).pme());
    s.run(1, rec(12));
    EXPECT_TRUE(s.cpu(1).pme_clear()) << "12 never had the bit";
    s.run(0, rec(0));
    EXPECT_TRUE(s.cpu(0).pme_clear());
    s.run(1, event(12, EV4_OS_FORK, 13));
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 13), 0);
    ASSERT_EQ(pfm_close(s.os, fd), 0);
    EXPECT_EQ(ev4_os_pcb_pme(s.os, 10), 1) << "the bit persists after close";
    s.run(0, rec(10));
    EXPECT_TRUE(s.cpu(0).pme()) << "PAL still logs selected processes after close";
    // PCNTLOGALL sets PME everywhere and keeps it at switches.
    fd = pfm_open(s.os, 10, PCNTOPENALL);
    ASSERT_EQ(fd, 3);
    s.run(0, rec(0));
    EXPECT_TRUE(s.cpu(0).pme()) << "open logs all activity";
    EXPECT_TRUE(s.cpu(1).pme());
}

TEST(Ev4LogSelect, OpenOneSelectsOnTheBoundCpuOnly)
{
    System s(2);
    int fd = s.open_by(20, PCNTOPENONE, 1);
    ASSERT_EQ(fd, 3);
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTLOGSELECT, nullptr), 0);
    EXPECT_TRUE(s.cpu(0).pme()) << "CPU 0 is not covered: still logging all";
    EXPECT_TRUE(s.cpu(1).pme_clear());
    s.run(1, rec(20));
    EXPECT_TRUE(s.cpu(1).pme());
}

// ---- taking the interrupt ----

struct Ev4Intr : ::testing::Test {
    System s{2};
    int fd = -1;
    void SetUp() override
    {
        fd = s.open_by(30, PCNTOPENEACH);
        ASSERT_EQ(fd, 3);
        ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTRENABLE, nullptr), 0);
        s.clear_writes();
    }
};

TEST_F(Ev4Intr, TakenAtTheRecordAfterTheLineRises)
{
    s.run(0, rec(0));
    s.cpu(0).raise(0);
    EXPECT_EQ(s.st(0).taken[0], 0u);
    s.run(0, rec(0)); // the line is seen high after this record's clock
    EXPECT_EQ(s.st(0).taken[0], 0u) << "the line is sampled after the record";
    s.run(0, rec(0));
    EXPECT_EQ(s.st(0).taken[0], 1u);
    EXPECT_EQ(s.st(0).recorded[0], 1u);
    EXPECT_FALSE(s.cpu(0).pending(0));
    std::vector<uint64_t> ack = s.cpu(0).sl_clr();
    ASSERT_EQ(ack.size(), 1u);
    EXPECT_EQ(ack[0], ~EV4_FMASK(SL_CLR, PC0)) << "a 0 in counter 0's bit, 1s elsewhere";
    s.run(0, rec(0), 3);
    EXPECT_EQ(s.st(0).taken[0], 1u) << "acknowledged: taken once";
    EXPECT_EQ(s.st(1).taken[0], 0u);
}

TEST_F(Ev4Intr, DeferredAtIpl6AndInPalMode)
{
    s.cpu(0).raise(1);
    s.run(0, rec(0, EV4_MODE_KERNEL, 5));
    s.run(0, rec(0, EV4_MODE_KERNEL, 6));
    s.run(0, rec(0, EV4_MODE_KERNEL, 7));
    s.run(0, rec(0, EV4_MODE_PAL, 0));
    EXPECT_EQ(s.st(0).taken[1], 0u);
    EXPECT_TRUE(s.cpu(0).pending(1));
    s.run(0, rec(0, EV4_MODE_KERNEL, 5));
    EXPECT_EQ(s.st(0).taken[1], 1u);
    EXPECT_EQ(s.cpu(0).sl_clr().at(0), ~EV4_FMASK(SL_CLR, PC1));
}

TEST_F(Ev4Intr, BothCountersAtOneRecordRecordTwoTicks)
{
    s.cpu(1).raise(0);
    s.cpu(1).raise(1);
    s.run(1, rec(0), 2);
    EXPECT_EQ(s.st(1).taken[0], 1u);
    EXPECT_EQ(s.st(1).taken[1], 1u);
    EXPECT_EQ(s.cpu(1).sl_clr().size(), 2u);
    UserBuf<pfcntrs, 2> c(s.os);
    UserBuf<pfcntrs *> p(s.os);
    p.v[0] = c.v;
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTGETCNT, p.v), 0);
    EXPECT_EQ(c.v[1].pf_cntr0, 1u);
    EXPECT_EQ(c.v[1].pf_cntr1, 1u);
    EXPECT_EQ(c.v[1].pr_cycle, 1u) << "CPU 1's cycle count: one record before";
    EXPECT_EQ(c.v[0].pf_cntr0 + c.v[0].pf_cntr1, 0u);
}

TEST_F(Ev4Intr, RequestWhileHierDisabledStaysPending)
{
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTRDISABLE, nullptr), 0);
    s.cpu(0).raise(0);
    s.run(0, rec(0), 3);
    EXPECT_EQ(s.st(0).taken[0], 0u);
    EXPECT_TRUE(s.cpu(0).pending(0));
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTRENABLE, nullptr), 0);
    s.run(0, rec(0)); // the line rises with the enable; sampled after this record
    s.run(0, rec(0));
    EXPECT_EQ(s.st(0).taken[0], 1u);
    EXPECT_EQ(s.st(0).recorded[0], 1u);
}

TEST_F(Ev4Intr, OnlyEnabledRequestsAreTaken)
{
    // Counter 0 enabled, counter 1 not: counter 1's request stays pending.
    s.cpu(0).hier = EV4_FSET(0, HIER, PC0, 1);
    s.cpu(0).raise(0);
    s.cpu(0).raise(1);
    s.run(0, rec(0), 2);
    EXPECT_EQ(s.st(0).taken[0], 1u);
    EXPECT_EQ(s.st(0).taken[1], 0u);
    EXPECT_TRUE(s.cpu(0).pending(1));
}

TEST_F(Ev4Intr, DismissedWhenDisabledOrClosed)
{
    UserBuf<struct iccsr> m(s.os);
    m.v[0].iccsr_disable = 2; // counter 1 off
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTSETMUX, m.v), 0);
    s.cpu(0).raise(0);
    s.cpu(0).raise(1);
    s.run(0, rec(0), 2);
    EXPECT_EQ(s.st(0).recorded[0], 1u);
    EXPECT_EQ(s.st(0).dismissed[1], 1u);
    EXPECT_EQ(s.st(0).taken[1], 1u) << "a disabled counter still interrupts (pfm(7) NOTES)";
    ASSERT_EQ(pfm_close(s.os, fd), 0);
    ev4_pal_wrperfmon(s.os, 0, PFENABLE, 0);
    s.cpu(0).raise(0);
    s.run(0, rec(0), 2);
    EXPECT_EQ(s.st(0).taken[0], 2u);
    EXPECT_EQ(s.st(0).dismissed[0], 1u) << "no device open";
    EXPECT_EQ(s.st(0).recorded[0], 1u);
}

TEST(Ev4IntrOne, DismissedOnCpusTheOpenDoesNotCover)
{
    System s(2);
    int fd = s.open_by(3, PCNTOPENONE, 0);
    ASSERT_EQ(fd, 3);
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTRENABLE, nullptr), 0);
    EXPECT_TRUE(s.cpu(1).hier_clear()) << "enable reaches the bound CPU only";
    ev4_pal_wrperfmon(s.os, 1, PFENABLE, 0);
    s.cpu(0).raise(0);
    s.cpu(1).raise(0);
    s.run(0, rec(0), 2);
    s.run(1, rec(0), 2);
    EXPECT_EQ(s.st(0).recorded[0], 1u);
    EXPECT_EQ(s.st(1).dismissed[0], 1u);
    EXPECT_EQ(s.st(1).recorded[0], 0u);
}

} // namespace
