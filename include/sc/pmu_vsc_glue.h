// sc/pmu_vsc_glue.h - a family's RTL top Verilated with --sc (a SystemC module whose ports are
// sc_in/sc_out pins) driven by the family's own Verilated-backend code, so that the
// SystemC platform's RTL part is the Verilated SystemC model (docs/systemc.md).  C++ glue
// for systemc/ only.
//
// A family's Model<Top> (include/harness/<family>/<family>_vlt_model.h, the same template the C
// harness instantiates with the --cc top) writes a record onto Top's port members and
// calls eval().  Here Top is a Shadow: a struct with one plain member per pin of the --sc
// model, of the type the --cc model would give it (VlWide for pins over 64 bits), and an
// eval() that hands them to the --sc model through its pins' channels (pmu_vsc::wire,
// below) and lets SystemC evaluate it:
//   - eval() with clk_i raised since the last eval: the calling thread waits for the
//     platform clock's next rising edge (unless the part is decoupled from the platform
//     clock: the quantum keeper's loosely timed mode, docs/systemc.md "The quantum"), then
//     the inputs, clk_i raised, go on the pins and the model evaluates (one delta cycle);
//   - eval() with clk_i lowered since the last eval: the fall is recorded in the model (no
//     logic is sensitive to it) without evaluating it, as the C harness records it on the
//     --cc model (include/harness/pmu_vlt_glue.h), unless a waveform was ever opened (it
//     samples the clock's low half with the new inputs: then the fall is evaluated);
//   - any other eval(): the inputs go on the pins and the model evaluates (one delta cycle);
// so the model's clock is gated: it rises only when the Model clocks (a write, a step), each
// time at an edge of the platform clock (or, decoupled, at the caller's local time), never
// on an idle platform clock, as on the --cc model; a read takes none.  A reset (rst_ni low:
// the tops reset asynchronously) takes its clock at once, so that a part resets in delta
// cycles when the simulation starts.  They wait: they are called from SystemC threads
// (pmu_sc steps such a backend from a thread, or from the caller's with the quantum keeper;
// the register accesses come from the processor's).  Before the simulation starts eval()
// only puts the inputs on the pins.
//
// The pin list comes from the Verilated header (tools/gen_vsc_pins.sh makes
// <prefix>_pins.h: a macro PINS(X) with X(in|out, sc type, name) per pin, and
// PINS_CLK_PREV(root), where the generated root keeps clk_i's previous value).  A family
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
// store: an input into its channel's value in place (no temporary); from_sc: an output.
template <>
struct pin<bool> {
    using type = uint8_t;
    static void store(bool &to, type v) { to = v != 0; }
    static type from_sc(bool v) { return v ? 1 : 0; }
};
template <>
struct pin<uint32_t> {
    using type = uint32_t;
    static void store(uint32_t &to, type v) { to = v; }
    static type from_sc(uint32_t v) { return v; }
};
template <>
struct pin<uint64_t> {
    using type = uint64_t;
    static void store(uint64_t &to, type v) { to = v; }
    static type from_sc(uint64_t v) { return v; }
};
template <int W>
struct pin<sc_dt::sc_bv<W>> {
    static constexpr int kWords = (W + 31) / 32;
    using type = VlWide<kWords>;
    static void store(sc_dt::sc_bv<W> &to, const type &v)
    {
        for (int i = 0; i < kWords; i++) to.set_word(i, v[i]);
    }
    static type from_sc(const sc_dt::sc_bv<W> &b)
    {
        type v;
        for (int i = 0; i < kWords; i++) v[i] = b.get_word(i);
        return v;
    }
};

// A pin's channel: a primitive channel whose writes take effect at once (no update phase)
// and notify nothing.  The shadow writes every input and then notifies the model once
// (`changed`, immediately): the model's evaluation, the SC_METHOD Verilator registers
// sensitive to its inputs, runs in the same evaluation phase, and its outputs are in their
// channels when the shadow's thread resumes one delta cycle later.  One delta cycle per
// evaluation, where signals (their update phase, then the model, then the outputs'
// update) took three.
template <class T>
class wire_base : public sc_core::sc_prim_channel, public sc_core::sc_signal_inout_if<T> {
public:
    wire_base(const char *name, const sc_core::sc_event &changed)
        : sc_core::sc_prim_channel(name), changed_(changed)
    {
    }
    const T &read() const override { return v_; }
    const T &get_data_ref() const override { return v_; }
    void write(const T &v) override { v_ = v; }
    T &value() { return v_; }
    const sc_core::sc_event &value_changed_event() const override { return changed_; }
    const sc_core::sc_event &default_event() const override { return changed_; }
    bool event() const override { return false; }

protected:
    T v_{};
    const sc_core::sc_event &changed_;
};
template <class T>
struct wire : wire_base<T> {
    using wire_base<T>::wire_base;
};
template <>
struct wire<bool> : wire_base<bool> {
    using wire_base<bool>::wire_base;
    const sc_core::sc_event &posedge_event() const override { return changed_; }
    const sc_core::sc_event &negedge_event() const override { return changed_; }
    bool posedge() const override { return false; }
    bool negedge() const override { return false; }
};

// Where the shadow about to be made belongs: a family's factory sets it around the
// Model's construction (the Model constructs its Top itself, with Verilator's arguments).
inline const pmu_vsc_site *&next_site()
{
    static const pmu_vsc_site *s = nullptr;
    return s;
}

}  // namespace pmu_vsc

#define PMU_VSC_MEMBER_(dir, T, n) typename ::pmu_vsc::pin<T>::type n{};
// The pins are written by whichever thread clocks the model (the part's, for records; the
// processor's, for register accesses), one at a time (the part's model_guard).
#define PMU_VSC_WIRE_(dir, T, n) std::unique_ptr<::pmu_vsc::wire<T>> n##_w_;
#define PMU_VSC_MAKE_(dir, T, n) n##_w_.reset(new ::pmu_vsc::wire<T>((base + "_" #n).c_str(), changed_));
#define PMU_VSC_BIND_(dir, T, n) vsc->n(*n##_w_);
#define PMU_VSC_PUSH_in(T, n) ::pmu_vsc::pin<T>::store(n##_w_->value(), n);
#define PMU_VSC_PUSH_out(T, n)
#define PMU_VSC_PUSH_(dir, T, n) PMU_VSC_PUSH_##dir(T, n)
#define PMU_VSC_PULL_in(T, n)
#define PMU_VSC_PULL_out(T, n) n = ::pmu_vsc::pin<T>::from_sc(n##_w_->read());
#define PMU_VSC_PULL_(dir, T, n) PMU_VSC_PULL_##dir(T, n)

// struct Name: the shadow of --sc top VscTop with pins PINS, usable as a Model's Top.
#define PMU_VSC_SHADOW(Name, VscTop, PINS)                                                   \
    struct Name {                                                                            \
        PINS(PMU_VSC_MEMBER_)                                                                \
        void *rootp = nullptr; /* not the generated root: the shadow records falls itself */ \
        Name(VerilatedContext *, const char *)                                               \
        {                                                                                    \
            const pmu_vsc_site *site = ::pmu_vsc::next_site();                               \
            clk = site->clk;                                                                 \
            decoupled = site->decoupled;                                                     \
            const std::string base = site->name;                                             \
            PINS(PMU_VSC_MAKE_)                                                              \
            Verilated::traceEverOn(true); /* a waveform may be opened at any cycle */        \
            vsc.reset(new VscTop(site->name));                                               \
            PINS(PMU_VSC_BIND_)                                                              \
        }                                                                                    \
        void eval()                                                                          \
        {                                                                                    \
            const bool edge = clk_i && !last_clk_;                                           \
            const bool fall = !clk_i && last_clk_;                                           \
            last_clk_ = clk_i;                                                               \
            if (fall && !traced_ && ::sc_core::sc_is_running()) {                            \
                /* no logic is sensitive to the fall: recorded, not evaluated; the other */  \
                /* inputs go on the pins with the next evaluation (a waveform samples */     \
                /* both halves of a clock: once one was opened, falls are evaluated) */      \
                clk_i_w_->write(false);                                                      \
                PINS##_CLK_PREV(vsc->rootp) = 0;                                             \
                return;                                                                      \
            }                                                                                \
            if (!::sc_core::sc_is_running()) {                                               \
                PINS(PMU_VSC_PUSH_)                                                          \
                return;                                                                      \
            }                                                                                \
            /* the reset is asynchronous: its clock is not waited for; nor is the */         \
            /* platform clock by a part decoupled from it (the quantum keeper's) */          \
            if (edge && rst_ni && !(decoupled && *decoupled))                                \
                ::sc_core::wait(clk->posedge_event());                                       \
            PINS(PMU_VSC_PUSH_)                                                              \
            changed_.notify();                                                               \
            ::sc_core::wait(::sc_core::SC_ZERO_TIME);                                        \
            PINS(PMU_VSC_PULL_)                                                              \
        }                                                                                    \
        void final() {}                                                                      \
        void trace(VerilatedFstC *fst, int levels)                                           \
        {                                                                                    \
            traced_ = true;                                                                  \
            vsc->trace(fst, levels);                                                         \
        }                                                                                    \
                                                                                             \
    private:                                                                                 \
        ::sc_core::sc_event changed_;                                                        \
        PINS(PMU_VSC_WIRE_)                                                                  \
        std::unique_ptr<VscTop> vsc;                                                         \
        ::sc_core::sc_in<bool> *clk = nullptr;                                               \
        const bool *decoupled = nullptr;                                                     \
        uint8_t last_clk_ = 0;                                                               \
        bool traced_ = false;                                                                \
    }

#endif
