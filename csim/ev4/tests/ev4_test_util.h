// ev4_test_util.h - helpers shared by the Alpha 21064 counter-block tests: a backend
// handle (ev4_test_backend.h), ICCSR from named fields, and cycle records built from what
// happened in the cycle.  Expected values in the tests are written by hand from
// docs/ev4.md, never computed by the model.
#ifndef EV4_TEST_UTIL_H
#define EV4_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>

#include "common/ev4/ev4_cycle.h"
#include "common/ev4/ev4_regs.h"
#include "ev4_test_backend.h"

namespace ev4test {

// The parameters of `model` with these widths and undefined-code rule.
inline ev4_params params(ev4_model model = EV4_MODEL_21064, unsigned w0 = 16, unsigned w1 = 12,
                         ev4_mux0_undef undef = EV4_UNDEF_NOTHING)
{
    ev4_params p;
    p.model = model;
    p.ctr0_width = w0;
    p.ctr1_width = w1;
    p.mux0_undef = undef;
    return p;
}

// ICCSR from its counter fields; both counters enabled unless told otherwise.
struct Iccsr {
    unsigned mux0 = 0, mux1 = 0, pc0 = 0, pc1 = 0, pme0 = 1, pme1 = 1;
    Iccsr &with_mux0(unsigned v) { mux0 = v; return *this; }
    Iccsr &with_mux1(unsigned v) { mux1 = v; return *this; }
    Iccsr &with_pc0(unsigned v) { pc0 = v; return *this; }
    Iccsr &with_pc1(unsigned v) { pc1 = v; return *this; }
    Iccsr &with_pme(unsigned p0, unsigned p1) { pme0 = p0; pme1 = p1; return *this; }
    uint64_t value() const
    {
        uint64_t x = 0;
        x = EV4_FSET(x, ICCSR, MUX0, mux0);
        x = EV4_FSET(x, ICCSR, MUX1, mux1);
        x = EV4_FSET(x, ICCSR, PC0, pc0);
        x = EV4_FSET(x, ICCSR, PC1, pc1);
        x = EV4_FSET(x, ICCSR, PME0, pme0);
        x = EV4_FSET(x, ICCSR, PME1, pme1);
        return x;
    }
};
// Counter n selecting `code` (the other counter disabled), period bit `pc`.
inline Iccsr only(unsigned n, unsigned code, unsigned pc = 0)
{
    Iccsr i;
    if (n == 0)
        return i.with_mux0(code).with_pc0(pc).with_pme(1, 0);
    return i.with_mux1(code).with_pc1(pc).with_pme(0, 1);
}

// HIRR / HIER / SL_CLR values of counter n's bit.
inline uint64_t hirr_bit(unsigned n) { return n ? EV4_FMASK(HIRR, PC1) : EV4_FMASK(HIRR, PC0); }
inline uint64_t hier_bit(unsigned n) { return n ? EV4_FMASK(HIER, PC1) : EV4_FMASK(HIER, PC0); }
inline uint64_t sl_clr_bit(unsigned n) { return n ? EV4_FMASK(SL_CLR, PC1) : EV4_FMASK(SL_CLR, PC0); }
// SL_CLR value clearing counter n's request only (a 0 clears, a 1 leaves).
inline uint64_t sl_clr_only(unsigned n) { return sl_clr_bit(1 - n); }

// An empty kernel-mode cycle: nothing issued, no stall cause, no miss, no pin.
inline ev4_cycle cycle()
{
    ev4_cycle c;
    std::memset(&c, 0, sizeof c);
    c.pc = 0x120001000ull;
    c.mode = EV4_MODE_KERNEL;
    return c;
}
// A cycle issuing instructions of these classes.
inline ev4_cycle issue(std::initializer_list<ev4_class> classes)
{
    ev4_cycle c = cycle();
    for (ev4_class k : classes)
        c.cls[c.nissue++] = uint8_t(k);
    return c;
}
// A cycle that issued nothing for this reason.
inline ev4_cycle stalled(ev4_stall why)
{
    ev4_cycle c = cycle();
    c.stall = uint8_t(why);
    return c;
}
// Builders for one field more.
inline ev4_cycle with_mode(ev4_cycle c, ev4_mode m) { c.mode = uint8_t(m); return c; }
inline ev4_cycle with_replay(ev4_cycle c, unsigned bits) { c.replay = uint8_t(bits); return c; }
inline ev4_cycle with_dmiss(ev4_cycle c) { c.dmiss = 1; return c; }
inline ev4_cycle with_imiss(ev4_cycle c) { c.imiss = 1; return c; }
inline ev4_cycle with_mispredict(ev4_cycle c) { c.mispredict = 1; return c; }
inline ev4_cycle with_pin(ev4_cycle c, unsigned pin) { (pin ? c.pin1 : c.pin0) = 1; return c; }

// Owns one backend.  ok() is false when the backend has no variant for the parameters:
// EV4_OPEN skips the test then.
class Dev {
public:
    explicit Dev(const ev4_params &p) : p_(p), b_(ev4_test_backend(&p)) {}
    Dev(const Dev &) = delete;
    Dev &operator=(const Dev &) = delete;
    ~Dev() { pmu_destroy(b_); }
    bool ok() const { return b_ != nullptr; }
    pmu_backend *get() const { return b_; }
    const ev4_params &params() const { return p_; }

    void write(uint16_t a, uint64_t v) { pmu_write(b_, a, v); }
    uint64_t read(uint16_t a) { return pmu_read(b_, a); }
    void step(const ev4_cycle &c) { pmu_step(b_, &c); }
    void step_n(const ev4_cycle &c, uint64_t n) { for (uint64_t i = 0; i < n; i++) step(c); }
    pmu_state snap()
    {
        pmu_state s;
        std::memset(&s, 0, sizeof s);
        pmu_snapshot(b_, &s);
        return s;
    }
    uint8_t pmi() { return snap().pmi; }
    void iccsr(const Iccsr &i) { write(EV4_ADDR_ICCSR, i.value()); }
    uint64_t hirr() { return read(EV4_ADDR_HIRR); }

    // Counter n's COUNT and counter 0's HALF, as the observation port shows them.
    uint64_t count(unsigned n)
    {
        unsigned w = n ? p_.ctr1_width : p_.ctr0_width;
        uint64_t v = read(n ? EV4_ADDR_CTR1 : EV4_ADDR_CTR0);
        unsigned lsb = n ? EV4_F_CTR1_COUNT_LSB : EV4_F_CTR0_COUNT_LSB;
        return (v >> lsb) & ((uint64_t(1) << w) - 1);
    }
    unsigned half() { return unsigned(EV4_FGET(read(EV4_ADDR_CTR0), CTR0, HALF)); }

private:
    ev4_params p_;
    pmu_backend *b_;
};

#define EV4_OPEN(dev, p)                                                                   \
    ::ev4test::Dev dev(p);                                                                 \
    if (!dev.ok())                                                                         \
    GTEST_SKIP() << "this backend has no variant for these parameters"

inline const char *model_name(ev4_model m) { return m == EV4_MODEL_21064 ? "m21064" : "m21064pass2"; }

// Parameterised over the two models.
class Ev4ModelTest : public ::testing::TestWithParam<ev4_model> {
protected:
    ev4_model model() const { return GetParam(); }
};
inline std::string model_param_name(const ::testing::TestParamInfo<ev4_model> &i)
{
    return model_name(i.param);
}
#define EV4_INSTANTIATE_BOTH_MODELS(suite)                                                 \
    INSTANTIATE_TEST_SUITE_P(Models, suite,                                                \
                             ::testing::Values(EV4_MODEL_21064, EV4_MODEL_21064_PASS2),    \
                             ::ev4test::model_param_name)

} // namespace ev4test

#endif
