// drv_ev4_pfm.cpp - the pfm pseudo-device (pfm(7), docs/ev4-pfm.md): open modes and
// exclusivity, every ioctl and its errors (EINVAL, EFAULT on unmapped memory, ENOMEM,
// EBADF), the IPL histogram slots, the profile buckets and read(), and a seeded random
// run whose driver results are checked against what the fake hardware requested.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <random>
#include <vector>

#include "ev4_fake_pmu.h"

using namespace ev4_test;

namespace {

// A system with process `pid` spawned and the device opened by it in `mode`.
struct Dev {
    System s;
    int fd;
    Dev(unsigned ncpus, int mode, uint32_t pid = 50, int bind = -1) : s(ncpus), fd(s.open_by(pid, mode, bind))
    {
        EXPECT_EQ(fd, 3);
    }
    int ioctl(unsigned long cmd, void *arg = nullptr) { return pfm_ioctl(s.os, fd, cmd, arg); }
    int items(long v)
    {
        UserBuf<long> a(s.os);
        a.v[0] = v;
        return ioctl(PCNTSETITEMS, a.v);
    }
    int range(unsigned long cmd, uint64_t start, uint64_t end)
    {
        UserBuf<addr_range> a(s.os);
        a.v[0] = {start, end};
        return ioctl(cmd, a.v);
    }
    long rsize()
    {
        UserBuf<long> a(s.os);
        a.v[0] = -1;
        EXPECT_EQ(ioctl(PCNTGETRSIZE, a.v), 0);
        return a.v[0];
    }
    // n elements of PCNTGETCNT (T = pfcntrs) or PCNTGETIPLHIS (T = pfipls).
    template <typename T> std::vector<T> get(unsigned long cmd, unsigned n)
    {
        std::vector<T> v(n);
        EXPECT_EQ(ev4_os_user_map(s.os, v.data(), n * sizeof v[0]), 0);
        UserBuf<T *> p(s.os);
        p.v[0] = v.data();
        EXPECT_EQ(ioctl(cmd, p.v), 0);
        return v;
    }
    std::vector<pfcntrs> counts(unsigned n) { return get<pfcntrs>(PCNTGETCNT, n); }
    std::vector<pfipls> ipls(unsigned n) { return get<pfipls>(PCNTGETIPLHIS, n); }
    // One tick of counter n on cpu, taken at record r (the request rises, one record
    // samples the line, r takes it).
    void tick(unsigned cpu, unsigned n, const ev4_cycle &r)
    {
        s.cpu(cpu).raise(n);
        s.run(cpu, rec(0));
        s.run(cpu, r);
        ASSERT_FALSE(s.cpu(cpu).pending(n));
    }
};

// ---- open and close ----

TEST(Ev4PfmOpen, ModesAndArguments)
{
    System s(2);
    ASSERT_EQ(ev4_os_spawn(s.os, 5), 0);
    EXPECT_EQ(pfm_open(s.os, 5, 0), -EINVAL) << "no open mode";
    EXPECT_EQ(pfm_open(s.os, 5, PCNTOPENALL | 3), -EINVAL) << "bad access mode";
    EXPECT_EQ(pfm_open(s.os, 5, PCNTOPENALL | 0100), -EINVAL) << "another flag";
    EXPECT_EQ(pfm_open(s.os, 0, PCNTOPENALL), -EINVAL) << "pid 0";
    EXPECT_EQ(pfm_open(s.os, 6, PCNTOPENALL), -EINVAL) << "no such process";
    EXPECT_EQ(pfm_open(s.os, 5, PCNTOPENONE), -EINVAL) << "PCNTOPENONE needs a binding";
    int fd = pfm_open(s.os, 5, PCNTOPENEACH | 2 /* O_RDWR */);
    EXPECT_EQ(fd, 3);
    EXPECT_EQ(pfm_open(s.os, 5, PCNTOPENALL), -EBUSY) << "exclusive";
    ASSERT_EQ(ev4_os_spawn(s.os, 7), 0);
    ASSERT_EQ(ev4_os_bind(s.os, 7, 1), 0);
    EXPECT_EQ(pfm_open(s.os, 7, PCNTOPENONE), -EBUSY) << "every CPU is open";
    EXPECT_EQ(pfm_close(s.os, 4), -EBADF);
    EXPECT_EQ(pfm_close(s.os, fd), 0);
    EXPECT_EQ(pfm_close(s.os, fd), -EBADF);
    EXPECT_EQ(pfm_ioctl(s.os, fd, PCNTRENABLE, nullptr), -EBADF);
    EXPECT_EQ(pfm_read(s.os, fd, nullptr, 0), -EBADF);
    EXPECT_EQ(pfm_open(s.os, 7, PCNTOPENONE), 3);
    s.run(0, event(5, EV4_OS_EXIT));
    ASSERT_EQ(pfm_close(s.os, 3), 0);
    EXPECT_EQ(pfm_open(s.os, 5, PCNTOPENALL), -EINVAL) << "an exited process";
}

TEST(Ev4PfmOpen, OpenDisablesAndLogsAllCloseDisables)
{
    System s(2);
    ASSERT_EQ(ev4_os_spawn(s.os, 5), 0);
    for (unsigned c = 0; c < 2; c++) {
        ev4_pal_wrperfmon(s.os, c, PFENABLE, 0);
        ev4_pal_wrperfmon(s.os, c, PFOPT, PFOPT_LOGSELECT);
    }
    ASSERT_EQ(ev4_os_bind(s.os, 5, 1), 0);
    int fd = pfm_open(s.os, 5, PCNTOPENONE);
    ASSERT_EQ(fd, 3);
    EXPECT_TRUE(s.cpu(1).hier_clear());
    EXPECT_TRUE(s.cpu(1).pme());
    EXPECT_TRUE(s.cpu(0).enabled()) << "PCNTOPENONE opens the bound CPU only";
    EXPECT_TRUE(s.cpu(0).pme_clear());
    ASSERT_EQ(pfm_ioctl(s.os, fd, PCNTRENABLE, nullptr), 0);
    EXPECT_TRUE(s.cpu(1).enabled());
    ASSERT_EQ(pfm_close(s.os, fd), 0);
    EXPECT_TRUE(s.cpu(1).hier_clear());
    EXPECT_TRUE(s.cpu(0).enabled());
}

TEST(Ev4PfmOpen, CountsSurviveCloseAndOpen)
{
    Dev d(1, PCNTOPENALL);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    d.tick(0, 0, rec(0));
    ASSERT_EQ(pfm_close(d.s.os, d.fd), 0);
    ASSERT_EQ(pfm_open(d.s.os, 50, PCNTOPENALL), 3);
    EXPECT_EQ(d.counts(1)[0].pf_cntr0, 1u) << "pfm(7): the counters are not cleared";
}

// ---- the ioctls ----

TEST(Ev4PfmIoctl, UnknownAndUnmapped)
{
    Dev d(1, PCNTOPENALL);
    EXPECT_EQ(d.ioctl(0x20005007ul), -EINVAL) << "PCNTCLEARPCBPME is not the 21064's";
    EXPECT_EQ(d.ioctl(PFM_IOC(PFM_IOC_VOID, 99, 0)), -EINVAL);
    long local = PFM_IPL;
    EXPECT_EQ(d.ioctl(PCNTSETITEMS, &local), -EFAULT) << "the argument is not mapped";
    EXPECT_EQ(d.ioctl(PCNTSETITEMS, nullptr), -EFAULT);
    EXPECT_EQ(d.ioctl(PCNTGETRSIZE, &local), -EFAULT);
    EXPECT_EQ(local, PFM_IPL) << "nothing copied out";
    struct iccsr m = {};
    EXPECT_EQ(d.ioctl(PCNTSETMUX, &m), -EFAULT);
    EXPECT_EQ(d.ioctl(PCNTRENABLE, &local), 0) << "a void ioctl ignores its argument";
}

TEST(Ev4PfmIoctl, EnableDisableCoverEveryCpu)
{
    Dev d(3, PCNTOPENEACH);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    for (unsigned c = 0; c < 3; c++) EXPECT_TRUE(d.s.cpu(c).enabled()) << c;
    ASSERT_EQ(d.ioctl(PCNTRDISABLE), 0);
    for (unsigned c = 0; c < 3; c++) EXPECT_TRUE(d.s.cpu(c).hier_clear()) << c;
}

TEST(Ev4PfmIoctl, SetMux)
{
    Dev d(2, PCNTOPENALL);
    UserBuf<struct iccsr> m(d.s.os);
    m.v[0].iccsr_mux0 = PF_CYCLES;
    m.v[0].iccsr_mux1 = PF_ICACHE;
    m.v[0].iccsr_pc0 = PF_C0_INT_EVERY_4096;
    m.v[0].iccsr_pc1 = PF_C1_INT_EVERY_256;
    m.v[0].iccsr_disable = 1;
    ASSERT_EQ(d.ioctl(PCNTSETMUX, m.v), 0);
    for (unsigned c = 0; c < 2; c++) {
        uint64_t v = d.s.cpu(c).iccsr;
        EXPECT_EQ(EV4_FGET(v, ICCSR, MUX0), (uint64_t)PF_CYCLES);
        EXPECT_EQ(EV4_FGET(v, ICCSR, MUX1), (uint64_t)PF_ICACHE);
        EXPECT_EQ(EV4_FGET(v, ICCSR, PC0), 1u);
        EXPECT_EQ(EV4_FGET(v, ICCSR, PC1), 1u);
        EXPECT_TRUE(d.s.cpu(c).pme());
        uint64_t a1 = ev4_pal_last_pfset(d.s.os, c);
        struct iccsr seen;
        std::memcpy(&seen, &a1, sizeof seen);
        EXPECT_EQ(seen.iccsr_disable, 0u) << "iccsr_disable never reaches the PALcode";
        EXPECT_EQ(seen.iccsr_mux0, (unsigned)PF_CYCLES);
    }
    // disable = 1: counter 0's ticks are dismissed, counter 1's recorded.
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    d.tick(0, 0, rec(0));
    d.tick(0, 1, rec(0));
    EXPECT_EQ(d.s.st(0).dismissed[0], 1u);
    EXPECT_EQ(d.s.st(0).recorded[1], 1u);

    d.s.clear_writes();
    m.v[0].iccsr_disable = 3;
    EXPECT_EQ(d.ioctl(PCNTSETMUX, m.v), -EINVAL) << "both counters off";
    m.v[0].iccsr_disable = 0;
    m.v[0].iccsr_ign1 = 1;
    EXPECT_EQ(d.ioctl(PCNTSETMUX, m.v), -EINVAL) << "ign fields must be zero";
    m.v[0].iccsr_ign1 = 0;
    m.v[0].iccsr_ign3 = 4;
    EXPECT_EQ(d.ioctl(PCNTSETMUX, m.v), -EINVAL);
    EXPECT_TRUE(d.s.cpu(0).writes.empty()) << "a refused PCNTSETMUX writes nothing";
    d.tick(0, 0, rec(0));
    EXPECT_EQ(d.s.st(0).dismissed[0], 2u) << "a refused PCNTSETMUX keeps iccsr_disable";
}

TEST(Ev4PfmIoctl, LogAllAndLogSelect)
{
    Dev d(2, PCNTOPENALL);
    ASSERT_EQ(d.ioctl(PCNTLOGSELECT), 0);
    EXPECT_EQ(ev4_os_pcb_pme(d.s.os, 50), 1);
    EXPECT_TRUE(d.s.cpu(0).pme_clear());
    d.s.run(1, rec(50));
    EXPECT_TRUE(d.s.cpu(1).pme()) << "the caller's PCB bit at the switch";
    ASSERT_EQ(d.ioctl(PCNTLOGALL), 0);
    EXPECT_TRUE(d.s.cpu(0).pme());
    EXPECT_TRUE(d.s.cpu(1).pme());
}

TEST(Ev4PfmIoctl, SetItems)
{
    Dev d(1, PCNTOPENALL);
    EXPECT_EQ(d.items(0), -EINVAL) << "no item";
    EXPECT_EQ(d.items(8), -EINVAL);
    EXPECT_EQ(d.items(PFM_IPL | 16), -EINVAL);
    EXPECT_EQ(d.items(PFM_IPL), 0);
    UserBuf<pfcntrs> c(d.s.os);
    UserBuf<pfcntrs *> p(d.s.os);
    p.v[0] = c.v;
    EXPECT_EQ(d.ioctl(PCNTGETCNT, p.v), -EINVAL) << "PFM_COUNTERS not selected";
    EXPECT_EQ(d.items(PFM_COUNTERS), 0);
    UserBuf<pfipls> i(d.s.os);
    UserBuf<pfipls *> q(d.s.os);
    q.v[0] = i.v;
    EXPECT_EQ(d.ioctl(PCNTGETIPLHIS, q.v), -EINVAL) << "PFM_IPL not selected";
    EXPECT_EQ(d.ioctl(PCNTGETCNT, p.v), 0);
}

TEST(Ev4PfmIoctl, GetCountsFaults)
{
    Dev d(2, PCNTOPENEACH);
    UserBuf<pfcntrs> one(d.s.os);
    UserBuf<pfcntrs *> p(d.s.os);
    p.v[0] = one.v;
    EXPECT_EQ(d.ioctl(PCNTGETCNT, p.v), -EFAULT) << "EACH needs an element per CPU";
    pfcntrs unmapped[2];
    p.v[0] = unmapped;
    EXPECT_EQ(d.ioctl(PCNTGETCNT, p.v), -EFAULT);
    pfcntrs *local = one.v;
    EXPECT_EQ(d.ioctl(PCNTGETCNT, &local), -EFAULT) << "the pointer itself is not mapped";
    ASSERT_EQ(d.items(PFM_IPL), 0);
    UserBuf<pfipls> ip(d.s.os);
    UserBuf<pfipls *> q(d.s.os);
    q.v[0] = ip.v;
    EXPECT_EQ(d.ioctl(PCNTGETIPLHIS, q.v), -EFAULT);
    EXPECT_EQ(d.ipls(2).size(), 2u);
}

TEST(Ev4PfmIoctl, CountsPerModeAndClear)
{
    Dev d(2, PCNTOPENEACH);
    ASSERT_EQ(d.items(PFM_COUNTERS | PFM_IPL), 0);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    d.tick(0, 0, rec(0));
    d.tick(1, 1, rec(0));
    d.tick(1, 1, rec(0));
    std::vector<pfcntrs> c = d.counts(2);
    EXPECT_EQ(c[0].pf_cntr0, 1u);
    EXPECT_EQ(c[0].pf_cntr1, 0u);
    EXPECT_EQ(c[0].pr_cycle, 1u);
    EXPECT_EQ(c[1].pf_cntr1, 2u);
    EXPECT_EQ(c[1].pr_cycle, 3u) << "CPU 1's cycle count at its last tick";
    ASSERT_EQ(pfm_close(d.s.os, d.fd), 0);
    // ALL: one collection, the sum; pr_cycle of the last tick on any CPU.
    ASSERT_EQ(pfm_open(d.s.os, 50, PCNTOPENALL), 3);
    c = d.counts(1);
    EXPECT_EQ(c[0].pf_cntr0, 1u);
    EXPECT_EQ(c[0].pf_cntr1, 2u);
    EXPECT_EQ(c[0].pr_cycle, 3u);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    d.s.run(0, rec(0));
    d.tick(0, 0, rec(0));
    EXPECT_EQ(d.counts(1)[0].pr_cycle, 4u) << "CPU 0 took the last tick, after 4 records";
    EXPECT_EQ(d.counts(1)[0].pf_cntr0, 2u);
    // CLEARCNT clears what the items select.
    ASSERT_EQ(d.items(PFM_IPL), 0);
    ASSERT_EQ(d.ioctl(PCNTCLEARCNT), 0);
    ASSERT_EQ(d.items(PFM_COUNTERS | PFM_IPL), 0);
    EXPECT_EQ(d.counts(1)[0].pf_cntr0, 2u) << "PFM_IPL only: the counters stay";
    EXPECT_EQ(d.ipls(1)[0].ipl[0], 0u);
    ASSERT_EQ(d.items(PFM_COUNTERS), 0);
    ASSERT_EQ(d.ioctl(PCNTCLEARCNT), 0);
    c = d.counts(1);
    EXPECT_EQ(c[0].pf_cntr0 + c[0].pf_cntr1 + c[0].pr_cycle, 0u);
    ASSERT_EQ(d.items(PFM_PROFILING), 0);
    EXPECT_EQ(d.ioctl(PCNTCLEARCNT), -EINVAL) << "profiling only";
}

TEST(Ev4PfmIoctl, OpenOneReportsAndClearsItsCpu)
{
    Dev d(2, PCNTOPENONE, 50, 1);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    ev4_pal_wrperfmon(d.s.os, 0, PFENABLE, 0);
    d.tick(1, 0, rec(0));
    d.tick(0, 0, rec(0));
    EXPECT_EQ(d.counts(1)[0].pf_cntr0, 1u);
    EXPECT_EQ(d.counts(1)[0].pr_cycle, 1u);
    EXPECT_EQ(d.s.st(0).dismissed[0], 1u);
    ASSERT_EQ(d.ioctl(PCNTCLEARCNT), 0);
    EXPECT_EQ(d.counts(1)[0].pf_cntr0, 0u);
}

TEST(Ev4PfmIoctl, IplHistogramSlots)
{
    Dev d(1, PCNTOPENALL);
    ASSERT_EQ(d.items(PFM_IPL), 0);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    d.tick(0, 0, rec(50, EV4_MODE_USER));
    d.tick(0, 1, rec(0, EV4_MODE_KERNEL, 0, 0x1000, 1));
    d.tick(0, 0, rec(0, EV4_MODE_KERNEL, 0));
    d.tick(0, 0, rec(0, EV4_MODE_KERNEL, 3));
    d.tick(0, 1, rec(0, EV4_MODE_KERNEL, 5));
    d.tick(0, 1, rec(0, EV4_MODE_KERNEL, 5, 0x1000, 1)); // idle above IPL 0: its IPL
    pfipls h = d.ipls(1)[0];
    const uint64_t want[PFM_NIPL] = {1, 0, 0, 1, 0, 2, 0, 1, 1};
    for (unsigned i = 0; i < PFM_NIPL; i++) EXPECT_EQ(h.ipl[i], want[i]) << "slot " << i;
    // Both counters at one record: two ticks in one slot.
    d.s.cpu(0).raise(0);
    d.s.cpu(0).raise(1);
    d.s.run(0, rec(0));
    d.s.run(0, rec(0, EV4_MODE_KERNEL, 2));
    EXPECT_EQ(d.ipls(1)[0].ipl[2], 2u);
}

TEST(Ev4PfmIoctl, ProfileRanges)
{
    Dev d(2, PCNTOPENEACH);
    EXPECT_EQ(d.range(PCNTSETKADDR, 0x1000, 0x2000), -EINVAL) << "not open for profiling";
    EXPECT_EQ(d.rsize(), 0);
    ASSERT_EQ(d.items(PFM_PROFILING | PFM_COUNTERS), 0);
    EXPECT_EQ(d.rsize(), 0) << "no range yet";
    EXPECT_EQ(d.range(PCNTSETKADDR, 0x2000, 0x2000), -EINVAL);
    EXPECT_EQ(d.range(PCNTSETKADDR, 0x2000, 0x1000), -EINVAL);
    EXPECT_EQ(d.range(PCNTSETKADDR, 0x1004, 0x2000), -EINVAL) << "16-byte granularity";
    EXPECT_EQ(d.range(PCNTSETUADDR, 0x1000, 0x2008), -EINVAL);
    ASSERT_EQ(d.range(PCNTSETKADDR, 0x1000, 0x1100), 0);
    EXPECT_EQ(d.rsize(), 0x100 / 4 * 2) << "a bucket per 16 bytes, per CPU in EACH";
    ASSERT_EQ(d.items(PFM_COUNTERS), 0);
    EXPECT_EQ(d.rsize(), 0) << "profiling not selected";
    ASSERT_EQ(d.items(PFM_PROFILING), 0);
    EXPECT_EQ(d.rsize(), 0x80);
    ASSERT_EQ(pfm_close(d.s.os, d.fd), 0);
    ASSERT_EQ(pfm_open(d.s.os, 50, PCNTOPENALL), 3);
    ASSERT_EQ(d.items(PFM_PROFILING), 0);
    EXPECT_EQ(d.rsize(), 0) << "close drops the range";
    ASSERT_EQ(d.range(PCNTSETUADDR, 0x1000, 0x1100), 0);
    EXPECT_EQ(d.rsize(), 0x40) << "one set in ALL";
}

TEST(Ev4PfmIoctl, ProfileMemoryLimit)
{
    Dev d(4, PCNTOPENEACH);
    ASSERT_EQ(d.items(PFM_PROFILING), 0);
    ev4_os_set_mem_limit(d.s.os, 4096);
    // 4096 bytes: 1024 buckets in all, 256 per CPU, 4096 bytes of range per CPU.
    ASSERT_EQ(d.range(PCNTSETKADDR, 0, 4096), 0);
    EXPECT_EQ(d.rsize(), 4096);
    EXPECT_EQ(d.range(PCNTSETKADDR, 0, 4112), -ENOMEM);
    EXPECT_EQ(d.rsize(), 4096) << "a failed range keeps the old one";
    EXPECT_EQ(d.range(PCNTSETUADDR, 0, UINT64_C(0xfffffffffffffff0)), -ENOMEM);
}

TEST(Ev4PfmRead, BucketsWhereTheTicksWereTaken)
{
    Dev d(2, PCNTOPENEACH);
    ASSERT_EQ(d.items(PFM_PROFILING), 0);
    ASSERT_EQ(d.range(PCNTSETKADDR, 0x1000, 0x1040), 0); // 4 buckets per CPU
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    d.tick(0, 0, rec(0, EV4_MODE_KERNEL, 0, 0x1000));
    d.tick(0, 1, rec(0, EV4_MODE_KERNEL, 2, 0x100c)); // same bucket as 0x1000
    d.tick(0, 0, rec(0, EV4_MODE_KERNEL, 0, 0x1030));
    d.tick(1, 0, rec(0, EV4_MODE_KERNEL, 0, 0x1010));
    d.tick(1, 0, rec(0, EV4_MODE_KERNEL, 0, 0x1040)); // past the end
    d.tick(1, 0, rec(0, EV4_MODE_KERNEL, 0, 0x0ff0)); // before the start
    d.tick(1, 0, rec(50, EV4_MODE_USER, 0, 0x1010));  // a user PC, kernel profiling
    UserBuf<uint32_t, 10> b(d.s.os);
    for (uint32_t &x : b.v) x = 0xdead;
    ASSERT_EQ(pfm_read(d.s.os, d.fd, b.v, sizeof b.v), 32);
    const uint32_t want[10] = {2, 0, 0, 1, 0, 1, 0, 0, 0xdead, 0xdead};
    for (unsigned i = 0; i < 10; i++) EXPECT_EQ(b.v[i], want[i]) << "bucket " << i;
    EXPECT_EQ(pfm_read(d.s.os, d.fd, b.v, 4), 4) << "at most n bytes";
    uint32_t local[8];
    EXPECT_EQ(pfm_read(d.s.os, d.fd, local, sizeof local), -EFAULT);
    // A user range replaces the kernel one: user PCs only, fresh buckets.
    ASSERT_EQ(d.range(PCNTSETUADDR, 0x1000, 0x1040), 0);
    d.tick(1, 0, rec(0, EV4_MODE_KERNEL, 0, 0x1010));
    d.tick(1, 0, rec(50, EV4_MODE_USER, 0, 0x1020));
    ASSERT_EQ(pfm_read(d.s.os, d.fd, b.v, sizeof b.v), 32);
    const uint32_t want_u[8] = {0, 0, 0, 0, 0, 0, 1, 0};
    for (unsigned i = 0; i < 8; i++) EXPECT_EQ(b.v[i], want_u[i]) << "bucket " << i;
}

TEST(Ev4PfmRead, NothingWithoutProfiling)
{
    Dev d(1, PCNTOPENALL);
    UserBuf<uint32_t, 4> b(d.s.os);
    EXPECT_EQ(pfm_read(d.s.os, d.fd, b.v, sizeof b.v), 0);
}

// ---- a random run: the driver's results against what the hardware requested ----

TEST(Ev4PfmExact, RandomRunMatchesTheRequests)
{
    unsigned seed = 12345;
    if (const char *e = std::getenv("EV4_TEST_SEED")) seed = (unsigned)std::strtoul(e, nullptr, 0);
    std::printf("seed %u (EV4_TEST_SEED)\n", seed);
    std::mt19937 rng(seed);
    const unsigned ncpus = 3;
    Dev d(ncpus, PCNTOPENEACH);
    ASSERT_EQ(d.items(PFM_COUNTERS | PFM_IPL | PFM_PROFILING), 0);
    ASSERT_EQ(d.range(PCNTSETKADDR, 0x1000, 0x1400), 0);
    ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
    uint64_t rises[ncpus][2] = {};
    uint64_t want_ipl[ncpus][PFM_NIPL] = {};
    uint64_t want_prof[ncpus] = {};
    int off_at = 2000; // a disabled stretch: requests stay pending
    for (int i = 0; i < 4000; i++) {
        if (i == off_at) {
            ASSERT_EQ(d.ioctl(PCNTRDISABLE), 0);
        }
        if (i == off_at + 300) {
            ASSERT_EQ(d.ioctl(PCNTRENABLE), 0);
        }
        for (unsigned c = 0; c < ncpus; c++) {
            FakePmu &f = d.s.cpu(c);
            for (unsigned n = 0; n < 2; n++)
                if (rng() % 17 == 0 && !f.pending(n)) {
                    f.raise(n);
                    rises[c][n]++;
                }
            ev4_mode mode = (ev4_mode)(rng() % 3);
            ev4_cycle r = rec(0, mode, rng() % 8, 0x0f00 + 4 * (rng() % 0x180), rng() % 2);
            if (mode == EV4_MODE_USER) r.idle = 0;
            uint64_t before[2] = {d.s.st(c).recorded[0], d.s.st(c).recorded[1]};
            ASSERT_EQ(d.s.step(c, r), 0) << d.s.err.msg;
            uint64_t ticks = d.s.st(c).recorded[0] - before[0] + d.s.st(c).recorded[1] - before[1];
            if (ticks) {
                EXPECT_LT(r.ipl, 6u);
                EXPECT_NE(r.mode, EV4_MODE_PAL);
                unsigned slot = mode == EV4_MODE_USER ? 8 : (r.ipl == 0 && r.idle ? 7 : r.ipl);
                want_ipl[c][slot] += ticks;
                if (mode == EV4_MODE_KERNEL && r.pc >= 0x1000 && r.pc < 0x1400) want_prof[c] += ticks;
            }
        }
    }
    std::vector<pfcntrs> cnt = d.counts(ncpus);
    std::vector<pfipls> ipl = d.ipls(ncpus);
    const unsigned nb = 0x400 / 16;
    std::vector<uint32_t> prof(ncpus * nb);
    ASSERT_EQ(ev4_os_user_map(d.s.os, prof.data(), prof.size() * 4), 0);
    ASSERT_EQ(pfm_read(d.s.os, d.fd, prof.data(), prof.size() * 4), (ssize_t)(prof.size() * 4));
    for (unsigned c = 0; c < ncpus; c++) {
        const ev4_os_cpu_stats &st = d.s.st(c);
        for (unsigned n = 0; n < 2; n++) {
            EXPECT_EQ(st.taken[n], rises[c][n] - d.s.cpu(c).pending(n)) << "CPU " << c << " counter " << n;
            EXPECT_EQ(st.recorded[n], st.taken[n]);
            EXPECT_EQ(st.dismissed[n], 0u);
            EXPECT_GT(st.taken[n], 50u);
        }
        EXPECT_EQ(cnt[c].pf_cntr0, st.recorded[0]);
        EXPECT_EQ(cnt[c].pf_cntr1, st.recorded[1]);
        for (unsigned i = 0; i < PFM_NIPL; i++) EXPECT_EQ(ipl[c].ipl[i], want_ipl[c][i]) << c << " " << i;
        uint64_t sum = 0;
        for (unsigned k = 0; k < nb; k++) sum += prof[c * nb + k];
        EXPECT_EQ(sum, want_prof[c]);
        EXPECT_EQ(st.cycles, 4000u);
    }
}

} // namespace
