// ev4_fake_pmu.h - a fake 21064 counter block for the software's tests: the registers
// stored as written, HIRR set by the test (a counter's period elapsing), SL_CLR's 0 bits
// clearing HIRR, the interrupt line from ev4_pmi; every register write logged.  And a
// small system of them under the OS model, stepped record by record as the harness does.
#ifndef EV4_FAKE_PMU_H
#define EV4_FAKE_PMU_H

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sw/ev4/ev4_os_drv.h"
#include "common/ev4/ev4_regs.h"

namespace ev4_test {

struct Write {
    uint16_t addr;
    uint64_t value;
};

struct FakePmu;
// What the ops receive: the backend, and the fake it belongs to.
struct FakeBackend {
    pmu_backend base;
    FakePmu *owner;
};

struct FakePmu {
    FakeBackend be;
    uint64_t iccsr = 0, hirr = 0, hier = 0;
    std::vector<Write> writes;

    FakePmu()
    {
        static const pmu_backend_ops ops = {
            [](pmu_backend *b) { self(b)->iccsr = self(b)->hirr = self(b)->hier = 0; },
            [](pmu_backend *b, uint16_t a, uint64_t v) { self(b)->write(a, v); },
            [](pmu_backend *b, uint16_t a) { return self(b)->read(a); },
            [](pmu_backend *b, const void *) { b->cycle++; },
            [](pmu_backend *b, pmu_state *s) {
                std::memset(s, 0, sizeof *s);
                s->pmi = self(b)->pmi();
            },
            [](pmu_backend *) {},
            nullptr, nullptr, nullptr,
        };
        std::memset(&be, 0, sizeof be);
        be.base.ops = &ops;
        be.base.name = "fake";
        be.owner = this;
    }
    FakePmu(const FakePmu &) = delete;
    FakePmu &operator=(const FakePmu &) = delete;
    static FakePmu *self(pmu_backend *b) { return reinterpret_cast<FakeBackend *>(b)->owner; }
    pmu_backend *backend() { return &be.base; }

    void write(uint16_t a, uint64_t v)
    {
        writes.push_back({a, v});
        switch (a) {
        case EV4_ADDR_ICCSR: iccsr = v; break;
        case EV4_ADDR_HIER: hier = v; break;
        case EV4_ADDR_SL_CLR:
            if (!EV4_FGET(v, SL_CLR, PC0)) hirr = EV4_FSET(hirr, HIRR, PC0, 0);
            if (!EV4_FGET(v, SL_CLR, PC1)) hirr = EV4_FSET(hirr, HIRR, PC1, 0);
            break;
        default: break;
        }
    }
    uint64_t read(uint16_t a) const
    {
        switch (a) {
        case EV4_ADDR_ICCSR: return iccsr;
        case EV4_ADDR_HIRR: return hirr;
        case EV4_ADDR_HIER: return hier;
        default: return 0;
        }
    }
    // Counter n's period elapsed: its request is set.
    void raise(unsigned n) { hirr = n == 0 ? EV4_FSET(hirr, HIRR, PC0, 1) : EV4_FSET(hirr, HIRR, PC1, 1); }
    bool pending(unsigned n) const
    {
        return n == 0 ? EV4_FGET(hirr, HIRR, PC0) : EV4_FGET(hirr, HIRR, PC1);
    }
    uint8_t pmi() const { return ev4_pmi(hirr, hier); }
    bool enabled() const { return EV4_FGET(hier, HIER, PC0) && EV4_FGET(hier, HIER, PC1); }
    bool hier_clear() const { return !EV4_FGET(hier, HIER, PC0) && !EV4_FGET(hier, HIER, PC1); }
    bool pme() const { return EV4_FGET(iccsr, ICCSR, PME0) && EV4_FGET(iccsr, ICCSR, PME1); }
    bool pme_clear() const { return !EV4_FGET(iccsr, ICCSR, PME0) && !EV4_FGET(iccsr, ICCSR, PME1); }
    // The SL_CLR writes logged since the last clear.
    std::vector<uint64_t> sl_clr() const
    {
        std::vector<uint64_t> v;
        for (const Write &w : writes)
            if (w.addr == EV4_ADDR_SL_CLR) v.push_back(w.value);
        return v;
    }
};

// A record of process pid.
inline ev4_cycle rec(uint32_t pid, ev4_mode mode = EV4_MODE_KERNEL, unsigned ipl = 0,
                     uint64_t pc = 0x1000, unsigned idle = 0)
{
    ev4_cycle r;
    std::memset(&r, 0, sizeof r);
    r.pid = pid;
    r.mode = (uint8_t)mode;
    r.ipl = (uint8_t)(mode == EV4_MODE_USER ? 0 : ipl);
    r.pc = pc;
    r.idle = (uint8_t)idle;
    r.stall = EV4_STALL_DRY;
    return r;
}
inline ev4_cycle event(uint32_t pid, ev4_os_event e, uint32_t arg = 0)
{
    ev4_cycle r = rec(pid);
    r.os = (uint8_t)e;
    r.os_arg = arg;
    return r;
}

// ncpus fake counter blocks under the OS model.
struct System {
    std::vector<std::unique_ptr<FakePmu>> pmu;
    ev4_os *os = nullptr;
    pmu_err err = {PMU_OK, ""};

    explicit System(unsigned ncpus = 1)
    {
        std::vector<pmu_backend *> b;
        for (unsigned c = 0; c < ncpus; c++) {
            pmu.emplace_back(new FakePmu());
            b.push_back(pmu.back()->backend());
        }
        os = ev4_os_create(ncpus, b.data(), &err);
        EXPECT_NE(os, nullptr) << err.msg;
    }
    ~System() { ev4_os_destroy(os); }
    System(const System &) = delete;
    System &operator=(const System &) = delete;

    FakePmu &cpu(unsigned c) { return *pmu[c]; }
    const ev4_os_cpu_stats &st(unsigned c) { return *ev4_os_cpu(os, c); }
    void clear_writes()
    {
        for (auto &p : pmu) p->writes.clear();
    }
    // Process pid spawned (and bound to CPU `bind` when >= 0), then the device opened
    // by it: the descriptor or -errno.
    int open_by(uint32_t pid, int mode, int bind = -1)
    {
        EXPECT_EQ(ev4_os_spawn(os, pid), 0);
        if (bind >= 0) {
            EXPECT_EQ(ev4_os_bind(os, pid, bind), 0);
        }
        return pfm_open(os, pid, mode);
    }
    // One record of cpu, as the harness steps it: before, the clock, after.
    int step(unsigned c, const ev4_cycle &r)
    {
        pmu_err_clear(&err);
        int rc = ev4_os_before(os, c, &r, &err);
        if (rc != 0) return rc;
        pmu_step(pmu[c]->backend(), &r);
        ev4_os_after(os, c, &r, pmu[c]->pmi());
        return 0;
    }
    void run(unsigned c, const ev4_cycle &r, unsigned n = 1)
    {
        for (unsigned i = 0; i < n; i++)
            ASSERT_EQ(step(c, r), 0) << err.msg;
    }
    // The message of a record the OS model refuses ("" when it is accepted).
    std::string refuse(unsigned c, const ev4_cycle &r)
    {
        if (step(c, r) == 0) return "";
        EXPECT_EQ(err.code, PMU_E_INPUT);
        EXPECT_EQ(std::strchr(err.msg, '\n'), nullptr);
        return err.msg;
    }
};

// User memory the driver may copy to: mapped on construction.
template <typename T, size_t N = 1> struct UserBuf {
    T v[N];
    explicit UserBuf(ev4_os *os) : v()
    {
        EXPECT_EQ(ev4_os_user_map(os, v, sizeof v), 0);
    }
};

} // namespace ev4_test
#endif
