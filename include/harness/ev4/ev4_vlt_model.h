// ev4_vlt_model.h - the Alpha 21064 counter block's Verilated model (rtl/ev4/ev4_pmu.sv)
// as the harness drives it: one template over the Verilated top (C++, for the glue only).
// verilator/ev4/rtl_backend.cpp instantiates it with the tops Verilated with --cc, the
// SystemC platform (systemc/ev4/rtl_sc.cpp) with shadows of the tops Verilated with --sc
// (include/sc/pmu_vsc_glue.h): the same record-to-pin code drives both.
//
// Ev4Model<Top> drives an ev4_cycle record's hardware fields onto the top's record ports;
// the clocking, the register port, reset, waveforms and the pmu_backend table are
// include/harness/pmu_vlt_glue.h's.  Every operation except read() is one clock (docs/ev4.md,
// "Clocks"), and the waveform's time axis counts clocks: clock n is presented at n ns and
// clocked at n.5 ns.
#ifndef EV4_VLT_MODEL_H
#define EV4_VLT_MODEL_H

#include <cstdio>
#include <new>

#include "common/ev4/ev4_cycle.h"
#include "common/ev4/ev4_regs.h"
#include "harness/pmu_vlt_glue.h"

namespace ev4_vlt {

// Bits that hold every value below n: the record ports' widths, as the generator sizes them
// (tools/ev4/gen_ev4.c, ev4_defines.vh).
constexpr unsigned bits_for(unsigned n)
{
    unsigned w = 1;
    while ((1u << w) < n) w++;
    return w;
}
constexpr unsigned kModeW = bits_for(EV4_MODE_PAL + 1);
constexpr unsigned kNissueW = bits_for(EV4_MAX_ISSUE + 1);
constexpr unsigned kClassW = bits_for(EV4_NCLASSES);
constexpr unsigned kStallW = bits_for(EV4_STALL_FROZEN + 1);

// A record field cut to its port (Verilator expects clean inputs); the stream layer has
// already refused values outside the ranges of include/common/ev4/ev4_cycle.h.
constexpr uint8_t fit(unsigned v, unsigned bits) { return static_cast<uint8_t>(v & ((1u << bits) - 1)); }

template <class Top>
struct Ev4Model : pmu_vlt::Core<Top> {
    using pmu_vlt::Core<Top>::top;

    static_assert(sizeof(Top::obs_vis_o) == EV4_NVIS * sizeof(uint64_t),
                  "obs_vis_o must hold EV4_NVIS 64-bit registers (include/common/ev4/ev4_regs.def)");
    static_assert(EV4_MAX_ISSUE * kClassW <= 8, "cls_i is packed into one byte");

    Ev4Model() : pmu_vlt::Core<Top>(pmu_vlt::Axis::kPerClock) {}

    void step(const ev4_cycle *c)
    {
        Top &t = *top;
        this->fall();
        t.reg_we_i = 0;
        t.cyc_valid_i = 1;
        t.mode_i = fit(c->mode, kModeW);
        t.nissue_i = fit(c->nissue, kNissueW);
        unsigned cls = 0;
        for (unsigned i = 0; i < EV4_MAX_ISSUE; i++) cls |= fit(c->cls[i], kClassW) << (kClassW * i);
        t.cls_i = static_cast<uint8_t>(cls);
        t.replay_i = fit(c->replay, EV4_MAX_ISSUE);
        t.stall_i = fit(c->stall, kStallW);
        t.dmiss_i = fit(c->dmiss, 1);
        t.imiss_i = fit(c->imiss, 1);
        t.mispredict_i = fit(c->mispredict, 1);
        t.pin0_i = fit(c->pin0, 1);
        t.pin1_i = fit(c->pin1, 1);
        this->clock(true);
        t.cyc_valid_i = 0;
    }

    // The visible registers as the read port returns them (obs_vis_o, in ev4_vis_table
    // order), and the interrupt line.
    void snapshot(pmu_state *s) { this->snapshot_obs(s, EV4_NVIS); }
};

template <class Top>
pmu_backend *create(ev4_model model, pmu_err *err)
{
    return pmu_vlt::Backend<Ev4Model<Top>, ev4_cycle>::create(new Ev4Model<Top>(), model, EV4_NVIS, err);
}


// A reset model of the variant p asks for: Top21064 (HasPme=1) or TopPass2 (HasPme=0), both
// with the default widths and Mux0Undef=0; NULL with err filled for anything else.
template <class Top21064, class TopPass2>
pmu_backend *rtl_make(const ev4_params *p, pmu_err *err)
{
    const ev4_params params = p ? *p : ev4_params_default(EV4_MODEL_21064);
    const ev4_params built = ev4_params_default(EV4_MODEL_21064);
    const char *what = nullptr;
    unsigned value = 0;
    if (params.model != EV4_MODEL_21064 && params.model != EV4_MODEL_21064_PASS2) {
        pmu_errf(err, PMU_E_UNSUPPORTED, "rtl backend: model %u: expected 21064 (%d) or 21064-pass2 (%d)",
                 static_cast<unsigned>(params.model), EV4_MODEL_21064, EV4_MODEL_21064_PASS2);
        return nullptr;
    }
    if (params.ctr0_width != built.ctr0_width) {
        what = "ctr0_width";
        value = params.ctr0_width;
    } else if (params.ctr1_width != built.ctr1_width) {
        what = "ctr1_width";
        value = params.ctr1_width;
    } else if (params.mux0_undef != built.mux0_undef) {
        what = "mux0_undef";
        value = static_cast<unsigned>(params.mux0_undef);
    }
    if (what) {
        pmu_errf(err, PMU_E_UNSUPPORTED,
                 "rtl backend: %s=%u was not Verilated (built variants: 21064 and 21064-pass2 with "
                 "ctr0_width=%u, ctr1_width=%u, mux0_undef=%d)",
                 what, value, built.ctr0_width, built.ctr1_width, static_cast<int>(built.mux0_undef));
        return nullptr;
    }
    try {
        return params.model == EV4_MODEL_21064 ? create<Top21064>(params.model, err)
                                               : create<TopPass2>(params.model, err);
    } catch (const std::bad_alloc &) {
        pmu_errf(err, PMU_E_NOMEM, "rtl backend: out of memory");
        return nullptr;
    }
}

}  // namespace ev4_vlt

#endif
