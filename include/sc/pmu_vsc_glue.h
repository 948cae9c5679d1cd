// sc/pmu_vsc_glue.h - a family's RTL top Verilated with --sc (a SystemC module whose ports are
// sc_in/sc_out pins) driven by the family's own Verilated-backend code, so that the
// SystemC platform's RTL part is the Verilated SystemC model (docs/systemc.md).  C++ glue
// for systemc/ only.
//
// A family's Model<Top> (include/harness/<family>/<family>_vlt_model.h, the same template the C
// harness instantiates with the --cc top) writes a record onto Top's port members and
// calls eval().  Here Top is a Shadow: a struct with one plain member per pin of the --sc
// model, of the type the --cc model would give it (VlWide for pins over 64 bits), and an
// eval() that hands them to the --sc model through sc_signals and lets SystemC evaluate
// it:
//   - eval() with clk_i raised since the last eval: the inputs go on the pins, the calling
//     thread waits for the platform clock's next rising edge, raises the model's clk_i
//     pin then, and waits for the outputs to settle;
//   - any other eval(): the inputs (clk_i included) go on the pins and the outputs settle
//     (delta cycles);
// so the model's clock is gated: it rises only when the Model clocks (a write, a step), each
// time at an edge of the platform clock, never on an idle platform clock, as on the --cc
// model; a read takes none.  A reset (rst_ni low: the tops reset asynchronously) takes its
// clock at once, so that a part resets in delta cycles when the simulation starts.  They wait: they are called from SystemC threads
// (pmu_sc steps such a backend from a thread; the register accesses come from the
// processor's).  Before the simulation starts eval() only puts the inputs on the pins.
//
// The pin list comes from the Verilated header (tools/gen_vsc_pins.sh makes
// <prefix>_pins.h: a macro PINS(X) with X(in|out, sc type, name) per pin).  A family
// defines its shadow with PMU_VSC_SHADOW(Name, VscTop, PINS).
#ifndef PMU_VSC_GLUE_H
#define PMU_VSC_GLUE_H

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "sc/pmu_vsc_site.h"

namespace pmu_vsc {

// The --cc type of a pin of --sc type T, and the copies between the two.
template <class T>
struct pin;
template <>
struct pin<bool> {
    using type = uint8_t;
    static bool to_sc(type v) { return v != 0; }
    static type from_sc(bool v) { return v ? 1 : 0; }
};
template <>
struct pin<uint32_t> {
    using type = uint32_t;
    static uint32_t to_sc(type v) { return v; }
    static type from_sc(uint32_t v) { return v; }
};
template <>
struct pin<uint64_t> {
    using type = uint64_t;
    static uint64_t to_sc(type v) { return v; }
    static type from_sc(uint64_t v) { return v; }
};
template <int W>
struct pin<sc_dt::sc_bv<W>> {
    static constexpr int kWords = (W + 31) / 32;
    using type = VlWide<kWords>;
    static sc_dt::sc_bv<W> to_sc(const type &v)
    {
        sc_dt::sc_bv<W> b;
        for (int i = 0; i < kWords; i++) b.set_word(i, v[i]);
        return b;
    }
    static type from_sc(const sc_dt::sc_bv<W> &b)
    {
        type v;
        for (int i = 0; i < kWords; i++) v[i] = b.get_word(i);
        return v;
    }
};

template <class T>
using signal = sc_core::sc_signal<T, sc_core::SC_MANY_WRITERS>;

// Where the shadow about to be made belongs: a family's factory sets it around the
// Model's construction (the Model constructs its Top itself, with Verilator's arguments).
inline const pmu_vsc_site *&next_site()
{
    static const pmu_vsc_site *s = nullptr;
    return s;
}

// The delta cycles from the inputs changing to the --sc model's outputs updated: the
// signals update, the model evaluates, its output signals update.
constexpr int kSettleDeltas = 3;

inline void settle()
{
    for (int i = 0; i < kSettleDeltas; i++) sc_core::wait(sc_core::SC_ZERO_TIME);
}

}  // namespace pmu_vsc

#define PMU_VSC_MEMBER_(dir, T, n) typename ::pmu_vsc::pin<T>::type n{};
// The pins are written by whichever thread clocks the model (the part's, for records; the
// processor's, for register accesses): signals of many writers, one at a time.
#define PMU_VSC_SIGNAL_(dir, T, n) std::unique_ptr<::pmu_vsc::signal<T>> n##_s_;
#define PMU_VSC_MAKE_(dir, T, n) n##_s_.reset(new ::pmu_vsc::signal<T>((base + "_" #n).c_str()));
#define PMU_VSC_BIND_(dir, T, n) vsc->n(*n##_s_);
#define PMU_VSC_PUSH_in(T, n) n##_s_->write(::pmu_vsc::pin<T>::to_sc(n));
#define PMU_VSC_PUSH_out(T, n)
#define PMU_VSC_PUSH_(dir, T, n) PMU_VSC_PUSH_##dir(T, n)
#define PMU_VSC_PULL_in(T, n)
#define PMU_VSC_PULL_out(T, n) n = ::pmu_vsc::pin<T>::from_sc(n##_s_->read());
#define PMU_VSC_PULL_(dir, T, n) PMU_VSC_PULL_##dir(T, n)

// struct Name: the shadow of --sc top VscTop with pins PINS, usable as a Model's Top.
#define PMU_VSC_SHADOW(Name, VscTop, PINS)                                                   \
    struct Name {                                                                            \
        PINS(PMU_VSC_MEMBER_)                                                                \
        void *rootp = nullptr; /* no generated root to poke: every fall is evaluated */      \
        Name(VerilatedContext *, const char *)                                               \
        {                                                                                    \
            const pmu_vsc_site *site = ::pmu_vsc::next_site();                               \
            clk = site->clk;                                                                 \
            const std::string base = site->name;                                             \
            PINS(PMU_VSC_MAKE_)                                                              \
            Verilated::traceEverOn(true); /* a waveform may be opened at any cycle */        \
            vsc.reset(new VscTop(site->name));                                               \
            PINS(PMU_VSC_BIND_)                                                              \
        }                                                                                    \
        void eval()                                                                          \
        {                                                                                    \
            const bool edge = clk_i && !last_clk_;                                           \
            last_clk_ = clk_i;                                                               \
            clk_i = edge ? 0 : clk_i; /* the inputs first, the edge at the platform's */     \
            PINS(PMU_VSC_PUSH_)                                                              \
            clk_i = last_clk_;                                                               \
            if (!::sc_core::sc_is_running()) return;                                         \
            if (edge) { /* the reset is asynchronous: its clock is not waited for */          \
                if (rst_ni) ::sc_core::wait(clk->posedge_event());                           \
                clk_i_s_->write(true);                                                       \
            }                                                                                \
            ::pmu_vsc::settle();                                                             \
            PINS(PMU_VSC_PULL_)                                                              \
        }                                                                                    \
        void final() {}                                                                      \
        void trace(VerilatedFstC *fst, int levels) { vsc->trace(fst, levels); }              \
                                                                                             \
    private:                                                                                 \
        PINS(PMU_VSC_SIGNAL_)                                                                \
        std::unique_ptr<VscTop> vsc;                                                         \
        ::sc_core::sc_in<bool> *clk = nullptr;                                               \
        uint8_t last_clk_ = 0;                                                               \
    }

#endif
