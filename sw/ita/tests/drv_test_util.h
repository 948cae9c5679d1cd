// drv_test_util.h - helpers for the driver tests: counter configurations, a scripted
// register-port mock (after OpenTitan's mock_mmio), a backend that runs the RTL with a
// reference mirrored beside it, and a builder for small hand-made streams.
#ifndef DRV_TEST_UTIL_H
#define DRV_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "sw/ita/ita_drv.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"

namespace drv_test {

inline uint16_t vis(unsigned v) { return ita_vis_table[v].addr; }
inline uint16_t pmc(unsigned k) { return vis(ITA_VIS_PMC4 + k); }
inline uint16_t pmd(unsigned k) { return vis(ITA_VIS_PMD4 + k); }

// A PMC4..7 value counting `ev` at the privilege levels `plm` (pm and oi are the
// driver's business).
inline uint64_t counter_pmc(ita_model m, int ev, unsigned plm, unsigned thres = 0)
{
    const ita_event_desc *e = &ita_event_table[ev];
    uint64_t v = 0;
    v = ITA_FSET(v, PMC_GEN, ES, (unsigned)ita_event_code(e, m));
    v = ITA_FSET(v, PMC_GEN, UMASK, e->umask);
    v = ITA_FSET(v, PMC_GEN, PLM, plm);
    v = ITA_FSET(v, PMC_GEN, THRES, thres);
    return v;
}

inline void add_counter(ita_drv_config *cfg, ita_model m, unsigned k, int ev, unsigned plm,
                        uint64_t period, unsigned thres = 0)
{
    cfg->reg[cfg->nregs].addr = pmc(k);
    cfg->reg[cfg->nregs].value = counter_pmc(m, ev, plm, thres);
    cfg->nregs++;
    cfg->period[k] = period;
}

// ---- a scripted register port --------------------------------------------------------
// Permissive until expect_*() is called: writes are stored and reads return them.
// Strict while expectations are queued: every access must be the next expected one
// (reads return the scripted value, which is also stored).
struct MockPmu {
    pmu_backend base;  // first: the driver's pmu_backend* is a MockPmu*
    struct Op {
        bool write;
        uint16_t addr;
        uint64_t value;
    };
    std::deque<Op> expect;
    std::map<uint16_t, uint64_t> regs;
    std::vector<std::string> errors;
    bool strict = false;
    std::vector<Op> log;  // every access, in order

    static std::string name(uint16_t addr)
    {
        for (unsigned v = 0; v < ITA_NVIS; v++)
            if (ita_vis_table[v].addr == addr)
                return ita_vis_table[v].name;
        char buf[16];
        snprintf(buf, sizeof buf, "0x%03x", addr);
        return buf;
    }
    static std::string describe(const Op &o)
    {
        char buf[96];
        snprintf(buf, sizeof buf, "%s %s = 0x%llx", o.write ? "write" : "read", name(o.addr).c_str(),
                 (unsigned long long)o.value);
        return buf;
    }
    void expect_read(uint16_t a, uint64_t v) { expect.push_back({false, a, v}); strict = true; }
    void expect_write(uint16_t a, uint64_t v) { expect.push_back({true, a, v}); strict = true; }

    uint64_t on_read(uint16_t a)
    {
        if (!strict) {
            log.push_back({false, a, regs[a]});
            return regs[a];
        }
        if (expect.empty()) {
            errors.push_back("unexpected " + describe({false, a, 0}) + " (nothing more expected)");
            return 0;
        }
        Op e = expect.front();
        expect.pop_front();
        if (e.write || e.addr != a)
            errors.push_back("got read " + name(a) + ", expected " + describe(e));
        regs[a] = e.value;
        log.push_back({false, a, e.value});
        if (expect.empty())
            strict = false;
        return e.value;
    }
    void on_write(uint16_t a, uint64_t v)
    {
        log.push_back({true, a, v});
        regs[a] = v;
        if (!strict)
            return;
        if (expect.empty()) {
            errors.push_back("unexpected " + describe({true, a, v}));
            return;
        }
        Op e = expect.front();
        expect.pop_front();
        if (!e.write || e.addr != a || e.value != v)
            errors.push_back("got " + describe({true, a, v}) + ", expected " + describe(e));
        if (expect.empty())
            strict = false;
    }
    // Every expectation met and nothing unexpected happened.
    ::testing::AssertionResult done()
    {
        if (!expect.empty())
            errors.push_back("still expected: " + describe(expect.front()) + " and " +
                             std::to_string(expect.size() - 1) + " more");
        if (errors.empty())
            return ::testing::AssertionSuccess();
        std::string all;
        for (const auto &e : errors)
            all += "\n  " + e;
        errors.clear();
        expect.clear();
        strict = false;
        return ::testing::AssertionFailure() << all;
    }

    static MockPmu *of(pmu_backend *b) { return reinterpret_cast<MockPmu *>(b); }
    static void op_reset(pmu_backend *b) { of(b)->regs.clear(); }
    static void op_write(pmu_backend *b, uint16_t a, uint64_t v) { of(b)->on_write(a, v); }
    static uint64_t op_read(pmu_backend *b, uint16_t a) { return of(b)->on_read(a); }
    static void op_step(pmu_backend *b, const void *) { of(b)->errors.push_back("unexpected step"); }
    static void op_snapshot(pmu_backend *, pmu_state *s) { memset(s, 0, sizeof *s); }
    static void op_destroy(pmu_backend *) {}

    explicit MockPmu(ita_model m = ITA_MODEL_ITANIUM2)
    {
        static const pmu_backend_ops ops = {op_reset, op_write, op_read, op_step, op_snapshot, op_destroy};
        base.ops = &ops;
        base.name = "mock";
        base.model = m;
        base.nvis = ITA_NVIS;
        base.cycle = 0;
    }
    pmu_backend *backend() { return &base; }
};

// ---- the RTL, with a reference mirrored beside it -------------------------------------
// Every clock goes to both; reads and snapshots return the RTL's values, so software
// driving this backend reads the RTL.  Each clock's full visible state and each read
// are compared (a lock-step check that does not hide the RTL behind the reference).
struct RtlWithMirror {
    pmu_backend base;
    pmu_backend *rtl = nullptr, *ref = nullptr;
    uint64_t mismatches = 0;
    std::string first;

    static RtlWithMirror *of(pmu_backend *b) { return reinterpret_cast<RtlWithMirror *>(b); }
    void compare(const char *what)
    {
        pmu_state a, e;
        pmu_snapshot(rtl, &a);
        pmu_snapshot(ref, &e);
        if (memcmp(a.reg, e.reg, ITA_NVIS * sizeof a.reg[0]) == 0 && a.pmi == e.pmi)
            return;
        if (!mismatches++) {
            for (unsigned v = 0; v < ITA_NVIS; v++)
                if (a.reg[v] != e.reg[v]) {
                    char buf[160];
                    snprintf(buf, sizeof buf, "after %s at cycle %llu: %s rtl 0x%llx ref 0x%llx", what,
                             (unsigned long long)ref->cycle, ita_vis_table[v].name,
                             (unsigned long long)a.reg[v], (unsigned long long)e.reg[v]);
                    first = buf;
                    return;
                }
            first = std::string("after ") + what + ": pmi differs";
        }
    }
    static void op_reset(pmu_backend *b)
    {
        pmu_reset(of(b)->rtl);
        pmu_reset(of(b)->ref);
        b->cycle = 0;
        of(b)->compare("reset");
    }
    static void op_write(pmu_backend *b, uint16_t a, uint64_t v)
    {
        pmu_write(of(b)->rtl, a, v);
        pmu_write(of(b)->ref, a, v);
        of(b)->compare("write");
    }
    static uint64_t op_read(pmu_backend *b, uint16_t a)
    {
        uint64_t x = pmu_read(of(b)->rtl, a), y = pmu_read(of(b)->ref, a);
        if (x != y && !of(b)->mismatches++)
            of(b)->first = "read " + MockPmu::name(a) + " differs";
        return x;
    }
    static void op_step(pmu_backend *b, const void *c)
    {
        pmu_step(of(b)->rtl, c);
        pmu_step(of(b)->ref, c);
        b->cycle++;
        of(b)->compare("step");
    }
    static void op_snapshot(pmu_backend *b, pmu_state *s) { pmu_snapshot(of(b)->rtl, s); }
    static void op_destroy(pmu_backend *) {}

    // NULL rtl (with the reason in `why`) when no RTL variant exists for p.
    RtlWithMirror(const ita_params &p, std::string *why)
    {
        static const pmu_backend_ops ops = {op_reset, op_write, op_read, op_step, op_snapshot, op_destroy};
        char err[256] = "";
        rtl = ita_rtl_create(&p, err, sizeof err);
        ref = ita_ref_create(&p);
        if (!rtl && why)
            *why = err;
        base.ops = &ops;
        base.name = "rtl+ref";
        base.model = p.model;
        base.nvis = ITA_NVIS;
        base.cycle = 0;
    }
    ~RtlWithMirror()
    {
        pmu_destroy(rtl);
        pmu_destroy(ref);
    }
    pmu_backend *backend() { return &base; }
};

// ---- small hand-made streams ------------------------------------------------------------
// Every record retires one nop slot at its own address, so CPU_CYCLES counts records and
// IA64_INST_RETIRED counts slots.  The builder tracks a simple kernel: user code, system
// calls, interrupt handlers and context switches inside the kernel.
struct StreamBuilder {
    std::vector<ita_cycle> recs;
    uint16_t pid = 0;
    uint64_t ip = 0x4000000000001000ull;

    ita_cycle base_rec(uint8_t cpl)
    {
        ita_cycle c;
        memset(&c, 0, sizeof c);
        c.cpl = cpl;
        c.pid = pid;
        c.power = ITA_POWER_NORMAL;
        c.nslots = 1;
        c.slot[0].ip = cpl ? ip : 0xe000000000400000ull + (ip & 0xffff0);
        c.slot[0].unit = ITA_UNIT_I;
        c.slot[0].flags = (uint16_t)ITA_SF_NOP_MASK;
        ip += 16;
        return c;
    }
    // n user cycles of the running process
    void user(unsigned n)
    {
        for (unsigned i = 0; i < n; i++)
            recs.push_back(base_rec(3));
    }
    // an interruption: entry, n-2 handler cycles, the rfi cycle, back at `ret_cpl`;
    // with switch_to >= 0 the kernel switches to that process half-way.
    void interruption(unsigned n, int switch_to = -1, uint8_t ret_cpl = 3)
    {
        ita_cycle e = base_rec(0);
        e.intr = ITA_INTR_ENTRY;
        recs.push_back(e);
        for (unsigned i = 1; i + 1 < n; i++) {
            if (switch_to >= 0 && i == n / 2)
                pid = (uint16_t)switch_to;
            recs.push_back(base_rec(0));
        }
        ita_cycle r = base_rec(ret_cpl);
        r.intr = ITA_INTR_RETURN;
        recs.push_back(r);
    }
};

}  // namespace drv_test

#endif
