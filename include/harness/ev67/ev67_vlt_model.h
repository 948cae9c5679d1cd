// ev67_vlt_model.h - the Alpha 21264/EV67 counter block's Verilated model
// (rtl/ev67/ev67_pmu.sv) as the harness drives it: one template over the Verilated top
// (C++, for the glue only).  verilator/ev67/rtl_backend.cpp instantiates it with the tops
// Verilated with --cc, the SystemC platform (systemc/ev67/rtl_sc.cpp) with a shadow of the
// top Verilated with --sc (include/sc/pmu_vsc_glue.h): the same record-to-pin code drives both.
//
// Ev67Model<Top> drives an ev67_cycle record onto the top's record ports (the fetch, retire
// and squash arrays flattened, entry i at bits [i*W +: W]); the clocking, the register
// port, reset, waveforms and the pmu_backend table are include/harness/pmu_vlt_glue.h's.  Every
// operation except read() is one clock (docs/ev67.md, "Clocks"); the waveform's time axis
// counts clocks: clock n is presented at n ns and clocked at n.5 ns.
#ifndef EV67_VLT_MODEL_H
#define EV67_VLT_MODEL_H

#include <cstdio>
#include <new>
#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"
#include "harness/pmu_vlt_glue.h"

namespace ev67_vlt {

// The trap type's port width (ev67_defines.vh EV67_TRAP_TYPE_W: I_STAT.TRAP_TYPE's).
constexpr unsigned kTrapTypeW = EV67_F_I_STAT_TRAP_TYPE_WIDTH;
// Fetch flags: EV67_FF_ALL's bits (ev67_defines.vh EV67_FLAGS_W).
constexpr unsigned kFlagsW = 6;
static_assert(EV67_FF_ALL == (1u << kFlagsW) - 1, "fetch flags port width (tools/ev67/gen_ev67.c)");

// A one-bit input: a record's flag above 1 counts as 1 (docs/ev67.md, "The record").
constexpr uint8_t bit(unsigned v) { return v != 0; }

// Sets the W-bit entry i of a wide port (Verilator's 32-bit words) to v.
template <class Wide>
void put(Wide &w, unsigned i, unsigned width, uint64_t v)
{
    for (unsigned b = 0; b < width; b += 32) {
        const unsigned pos = i * width + b;
        w[pos / 32] = static_cast<uint32_t>(v >> b);
    }
}

template <class Top>
struct Ev67Model : pmu_vlt::Core<Top> {
    using pmu_vlt::Core<Top>::top;

    static_assert(sizeof(Top::obs_vis_o) == EV67_NVIS * sizeof(uint64_t),
                  "obs_vis_o must hold EV67_NVIS 64-bit registers (include/common/ev67/ev67_regs.def)");
    static_assert(EV67_FETCH_MAX * kFlagsW <= 32, "fetch_flags_i fits one word");

    Ev67Model() : pmu_vlt::Core<Top>(pmu_vlt::Axis::kPerClock) {}

    void step(const ev67_cycle *c)
    {
        Top &t = *top;
        this->fall();
        t.reg_we_i = 0;
        t.cyc_valid_i = 1;
        t.pal_i = bit(c->pal);
        t.nfetch_i = c->nfetch;
        uint32_t flags = 0;
        for (unsigned i = 0; i < EV67_FETCH_MAX; i++) {
            put(t.fetch_pc_i, i, 64, c->fetch[i].pc);
            put(t.fetch_tag_i, i, 32, c->fetch[i].tag);
            flags |= static_cast<uint32_t>(c->fetch[i].flags & EV67_FF_ALL) << (kFlagsW * i);
        }
        t.fetch_flags_i = flags;
        t.nstall_i = c->nstall;
        t.stall_first_i = c->stall_first;
        t.trap_i = bit(c->trap);
        t.trap_type_i = static_cast<uint8_t>(c->trap_type & ((1u << kTrapTypeW) - 1));
        t.trap_mis_i = bit(c->trap_mis);
        t.trap_lso_i = bit(c->trap_lso);
        t.trap_tag_i = c->trap_tag;
        t.nretire_i = c->nretire;
        for (unsigned i = 0; i < EV67_RETIRE_MAX; i++) put(t.retire_i, i, 32, c->retire[i]);
        t.nsquash_i = c->nsquash;
        for (unsigned i = 0; i < EV67_SQUASH_MAX; i++) put(t.squash_i, i, 32, c->squash[i]);
        t.abort_i = bit(c->abort);
        t.abort_first_i = c->abort_first;
        t.kbm_first_i = c->kbm_first;
        t.head_i = c->head;
        t.bcmiss_i = bit(c->bcmiss);
        t.mreplay_i = bit(c->mreplay);
        this->clock(true);
        t.cyc_valid_i = 0;
    }

    // The visible registers as the read port returns them (obs_vis_o, in ev67_vis_table
    // order), and the interrupt line.
    void snapshot(pmu_state *s) { this->snapshot_obs(s, EV67_NVIS); }
};

template <class Top>
pmu_backend *create(ev67_model model, pmu_err *err)
{
    return pmu_vlt::Backend<Ev67Model<Top>, ev67_cycle>::create(new Ev67Model<Top>(), model, EV67_NVIS, err);
}


// A reset model of the variant p asks for: TopQ1 (the defaults: ReadQuirk=1 IsumRace=0
// ParkBlock=1) or TopQ0 (ReadQuirk=0); NULL with err filled for anything else.
template <class TopQ1, class TopQ0>
pmu_backend *rtl_make(const ev67_params *p, pmu_err *err)
{
    const ev67_params built = ev67_params_default(EV67_MODEL_21264_EV67);
    const ev67_params params = p ? *p : built;
    if (ev67_params_check(&params, err) != 0) return nullptr;
    const char *what = nullptr;
    unsigned value = 0;
    if (params.isum_race != built.isum_race) {
        what = "isum_race";
        value = params.isum_race;
    } else if (params.park_block != built.park_block) {
        what = "park_block";
        value = params.park_block;
    }
    if (what) {
        pmu_errf(err, PMU_E_UNSUPPORTED,
                 "rtl backend: %s=%u was not Verilated (built variants: 21264-ev67 with isum_race=%u, "
                 "park_block=%u and read_quirk 0 or 1)",
                 what, value, built.isum_race, built.park_block);
        return nullptr;
    }
    try {
        return params.read_quirk ? create<TopQ1>(params.model, err) : create<TopQ0>(params.model, err);
    } catch (const std::bad_alloc &) {
        pmu_errf(err, PMU_E_NOMEM, "rtl backend: out of memory");
        return nullptr;
    }
}

}  // namespace ev67_vlt

#endif
