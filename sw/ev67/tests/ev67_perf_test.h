// ev67_perf_test.h - helpers of the 21264/EV67 perf driver's tests: a backend that
// forwards to the reference model and logs every port operation, register values from
// named fields, and the run loop the harness performs (before, step, after).
#ifndef EV67_PERF_TEST_H
#define EV67_PERF_TEST_H

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sw/ev67/ev67_perf_drv.h"
#include "csim/ev67/ev67_ref.h"
#include "common/ev67/ev67_regs.h"
#include "stream/ev67/ev67_stream.h"
#include "stream/pmu_stream.h"

namespace ev67perf {

struct Op {
    char kind; // 'w' write, 'r' read
    uint16_t addr;
    uint64_t value; // written, or returned
    bool operator==(const Op &o) const { return kind == o.kind && addr == o.addr && value == o.value; }
};

inline std::string addr_name(uint16_t a)
{
    const ev67_reg_desc *r = ev67_reg_lookup(a);
    return r ? r->name : std::to_string(a);
}

inline std::ostream &operator<<(std::ostream &os, const Op &o)
{
    return os << o.kind << " " << addr_name(o.addr) << " 0x" << std::hex << o.value << std::dec;
}

// The reference model behind a logging pmu_backend.
struct Logged {
    struct Be {
        pmu_backend base;
        Logged *owner;
    } be;
    pmu_backend *ref;
    std::vector<Op> ops;

    explicit Logged(const ev67_params *p = nullptr)
    {
        ref = ev67_ref_new(p, nullptr);
        static const pmu_backend_ops vt = {
            [](pmu_backend *b) { self(b)->ref->ops->reset(self(b)->ref); },
            [](pmu_backend *b, uint16_t a, uint64_t v) {
                self(b)->ops.push_back({'w', a, v});
                pmu_write(self(b)->ref, a, v);
            },
            [](pmu_backend *b, uint16_t a) {
                uint64_t v = pmu_read(self(b)->ref, a);
                self(b)->ops.push_back({'r', a, v});
                return v;
            },
            [](pmu_backend *b, const void *r) {
                pmu_step(self(b)->ref, r);
                b->cycle++;
            },
            [](pmu_backend *b, pmu_state *s) { pmu_snapshot(self(b)->ref, s); },
            [](pmu_backend *) {},
            nullptr, nullptr, nullptr,
        };
        std::memset(&be, 0, sizeof be);
        be.base.ops = &vt;
        be.base.name = "logged-ref";
        be.base.nvis = ref ? ref->nvis : 0;
        be.owner = this;
    }
    ~Logged() { pmu_destroy(ref); }
    Logged(const Logged &) = delete;
    Logged &operator=(const Logged &) = delete;
    static Logged *self(pmu_backend *b) { return reinterpret_cast<Be *>(b)->owner; }
    pmu_backend *backend() { return &be.base; }
    // The hidden state, read without logging.
    uint64_t obs(uint16_t a) { return pmu_read(ref, a); }
    uint8_t pmi()
    {
        pmu_state s;
        pmu_snapshot(ref, &s);
        return s.pmi;
    }
};

inline ev67_params params(unsigned quirk = 1, unsigned race = 0, unsigned park = 1)
{
    ev67_params p = ev67_params_default(EV67_MODEL_21264_EV67);
    p.read_quirk = quirk;
    p.isum_race = race;
    p.park_block = park;
    return p;
}

inline uint64_t pctr_ctl(unsigned sl1, uint32_t c0, uint32_t c1)
{
    uint64_t v = EV67_FSET(0, PCTR_CTL, SL1, sl1);
    v = EV67_FSET(v, PCTR_CTL, PCTR0, c0);
    return EV67_FSET(v, PCTR_CTL, PCTR1, c1);
}
inline uint64_t i_ctl(unsigned en0, unsigned en1, unsigned spce = 1)
{
    uint64_t v = EV67_FSET(0, I_CTL, SPCE, spce);
    v = EV67_FSET(v, I_CTL, PCT0_EN, en0);
    return EV67_FSET(v, I_CTL, PCT1_EN, en1);
}
inline uint64_t pcen(unsigned mask) { return EV67_FSET(0, IER_CM, PCEN, mask); }
inline uint64_t int_clr(unsigned mask) { return EV67_FSET(0, HW_INT_CLR, PC, mask); }
inline uint64_t isum(unsigned mask) { return EV67_FSET(0, ISUM, PC, mask); }

// An empty cycle (no instruction), PAL or not.
inline ev67_cycle cycle(uint8_t pal = 0, uint64_t pc = 0x120004000ull)
{
    ev67_cycle c;
    std::memset(&c, 0, sizeof c);
    c.pc = pc;
    c.pal = pal;
    return c;
}

// One record as the harness runs it: the driver's before, the clock, its after.
inline void run(ev67_perf *d, Logged &l, const ev67_cycle &c)
{
    ev67_perf_before(d, &c);
    pmu_step(l.backend(), &c);
    ev67_perf_after(d, l.pmi());
}

} // namespace ev67perf

#endif
