// ev67_test_util.h - helpers shared by the Alpha 21264/EV67 counter-block tests: a backend
// handle (ev67_test_backend.h), register values from named fields, and cycle records
// built from what happened in the cycle.  Expected values in the tests are written by
// hand from docs/ev67.md, never computed by the model.
#ifndef EV67_TEST_UTIL_H
#define EV67_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>

#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"
#include "ev67_test_backend.h"

namespace ev67test {

inline ev67_params params(unsigned quirk = 1, unsigned race = 0, unsigned park = 1)
{
    ev67_params p = ev67_params_default(EV67_MODEL_21264_EV67);
    p.read_quirk = quirk;
    p.isum_race = race;
    p.park_block = park;
    return p;
}

// PCTR_CTL from its written fields.
inline uint64_t pctr_ctl(unsigned sl0, unsigned sl1, uint32_t c0, uint32_t c1)
{
    uint64_t v = 0;
    v = EV67_FSET(v, PCTR_CTL, SL0, sl0);
    v = EV67_FSET(v, PCTR_CTL, SL1, sl1);
    v = EV67_FSET(v, PCTR_CTL, PCTR0, c0);
    return EV67_FSET(v, PCTR_CTL, PCTR1, c1);
}
// I_CTL with the counter enables and SPCE.
inline uint64_t i_ctl(unsigned en0, unsigned en1, unsigned spce = 1)
{
    uint64_t v = 0;
    v = EV67_FSET(v, I_CTL, SPCE, spce);
    v = EV67_FSET(v, I_CTL, PCT0_EN, en0);
    return EV67_FSET(v, I_CTL, PCT1_EN, en1);
}
// Bit n of PCEN / ISUM.PC / HW_INT_CLR.PC, as a register value: counters in mask bits.
inline uint64_t pcen(unsigned mask) { return EV67_FSET(0, IER_CM, PCEN, mask); }
inline uint64_t int_clr(unsigned mask) { return EV67_FSET(0, HW_INT_CLR, PC, mask); }
inline uint64_t isum(unsigned mask) { return EV67_FSET(0, ISUM, PC, mask); }

const uint64_t kPc = 0x120004000ull;

// An empty non-PAL cycle; head is the next tag to fetch (`next`).
inline ev67_cycle cycle(uint32_t next = 100)
{
    ev67_cycle c;
    std::memset(&c, 0, sizeof c);
    c.pc = kPc;
    c.head = next;
    return c;
}

// A cycle record with builder methods.
struct Rec {
    ev67_cycle c;
    explicit Rec(uint32_t head = 100) : c(cycle(head)) {}
    // Fetch n instructions tagged first.., PCs kPc + 4*i, each with flags.
    Rec &fetch(uint32_t first, unsigned n, uint8_t flags = 0)
    {
        for (unsigned i = 0; i < n; i++)
            add_fetch(first + i, flags);
        return *this;
    }
    Rec &add_fetch(uint32_t tag, uint8_t flags, uint8_t cls = EV67_CLASS_INTOP)
    {
        ev67_fetch &f = c.fetch[c.nfetch++];
        f.tag = tag;
        f.pc = kPc + 4ull * tag;
        f.flags = flags;
        f.cls = cls;
        return *this;
    }
    Rec &retire(std::initializer_list<uint32_t> tags)
    {
        for (uint32_t t : tags)
            c.retire[c.nretire++] = t;
        return *this;
    }
    Rec &retire_n(uint32_t first, unsigned n)
    {
        for (unsigned i = 0; i < n; i++)
            c.retire[c.nretire++] = first + i;
        return *this;
    }
    Rec &squash(std::initializer_list<uint32_t> tags)
    {
        for (uint32_t t : tags)
            c.squash[c.nsquash++] = t;
        return *this;
    }
    Rec &trap(uint32_t tag, unsigned type, unsigned mis = 0, unsigned lso = 0)
    {
        c.trap = 1;
        c.trap_tag = tag;
        c.trap_type = uint8_t(type);
        c.trap_mis = uint8_t(mis);
        c.trap_lso = uint8_t(lso);
        return *this;
    }
    Rec &abort(uint32_t first, uint32_t kbm)
    {
        c.abort = 1;
        c.abort_first = first;
        c.kbm_first = kbm;
        return *this;
    }
    Rec &stall(uint32_t first, unsigned n) { c.stall_first = first; c.nstall = uint8_t(n); return *this; }
    Rec &head(uint32_t h) { c.head = h; return *this; }
    Rec &pal(unsigned p = 1) { c.pal = uint8_t(p); return *this; }
    Rec &bcmiss(unsigned v = 1) { c.bcmiss = uint8_t(v); return *this; }
    Rec &mreplay(unsigned v = 1) { c.mreplay = uint8_t(v); return *this; }
    operator const ev67_cycle &() const { return c; }
};

// Owns one backend.  ok() is false when the backend has no variant for the parameters:
// EV67_OPEN skips the test then.
class Dev {
public:
    explicit Dev(const ev67_params &p) : b_(ev67_test_backend(&p)) {}
    Dev(const Dev &) = delete;
    Dev &operator=(const Dev &) = delete;
    ~Dev() { pmu_destroy(b_); }
    bool ok() const { return b_ != nullptr; }
    pmu_backend *get() const { return b_; }

    void write(uint16_t a, uint64_t v) { pmu_write(b_, a, v); }
    uint64_t read(uint16_t a) { return pmu_read(b_, a); }
    void step(const ev67_cycle &c) { pmu_step(b_, &c); }
    void step_n(const ev67_cycle &c, unsigned n) { for (unsigned i = 0; i < n; i++) step(c); }
    pmu_state snap()
    {
        pmu_state s;
        std::memset(&s, 0, sizeof s);
        pmu_snapshot(b_, &s);
        return s;
    }
    uint8_t pmi() { return snap().pmi; }

    void ctl(unsigned sl0, unsigned sl1, uint32_t c0 = 0, uint32_t c1 = 0)
    {
        write(EV67_ADDR_PCTR_CTL, pctr_ctl(sl0, sl1, c0, c1));
    }
    void enable(unsigned en0, unsigned en1, unsigned spce = 1) { write(EV67_ADDR_I_CTL, i_ctl(en0, en1, spce)); }

    // True counts (observation port).
    uint32_t ctr(unsigned n)
    {
        uint64_t v = read(EV67_ADDR_OBS_CTR);
        return uint32_t(n ? EV67_FGET(v, OBS_CTR, PCTR1) : EV67_FGET(v, OBS_CTR, PCTR0));
    }
    // Counter n as a PCTR_CTL read shows it (read quirk included).
    uint32_t shown(unsigned n)
    {
        uint64_t v = read(EV67_ADDR_PCTR_CTL);
        return uint32_t(n ? EV67_FGET(v, PCTR_CTL, PCTR1) : EV67_FGET(v, PCTR_CTL, PCTR0));
    }
    uint64_t oint() { return read(EV67_ADDR_OBS_INT); }
    unsigned req() { return unsigned(EV67_FGET(oint(), OBS_INT, REQ)); }
    unsigned s1() { return unsigned(EV67_FGET(oint(), OBS_INT, S1)); }
    unsigned s2() { return unsigned(EV67_FGET(oint(), OBS_INT, S2)); }
    unsigned pexit() { return unsigned(EV67_FGET(oint(), OBS_INT, PEXIT)); }
    uint64_t pm() { return read(EV67_ADDR_OBS_PM); }
    uint64_t agg() { return read(EV67_ADDR_OBS_AGG); }

private:
    pmu_backend *b_;
};

#define EV67_OPEN(dev, p)                                                                  \
    ::ev67test::Dev dev(p);                                                                \
    if (!dev.ok())                                                                         \
    GTEST_SKIP() << "this backend has no variant for these parameters"

#define EV67_PM_FIELD(v, f) EV67_FGET((v), OBS_PM, f)

} // namespace ev67test

#endif
