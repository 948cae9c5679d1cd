// ita_vlt_model.h - the Itanium PMU's Verilated model (rtl/ita/ita_pmu.sv) as the harness
// drives it: one template over the Verilated top (C++, for the glue only).
// verilator/ita/rtl_backend.cpp instantiates it with the tops Verilated with --cc, the
// SystemC platform (systemc/ita/rtl_sc.cpp) with a shadow of the top Verilated with --sc
// (include/sc/pmu_vsc_glue.h): the same record-to-pin code drives both.
//
// RtlModel<Top> drives the cycle record onto the top's ports; the clocking, the register
// port, reset, waveforms and the pmu_backend table are include/harness/pmu_vlt_glue.h's.  Every
// operation except read() is exactly one clock of clk_i:
//   reset  rst_ni low for one clock
//   write  reg_we_i = 1, cyc_valid_i = 0
//   step   cyc_valid_i = 1 with the cycle record on the record ports
// read() sets reg_addr_i and evaluates the combinational read port, with no clock.
//
// Waveforms (pmu_trace_open): the FST time axis counts cycle records, 1 ns per
// record.  Record T is presented at T ns (clk_i low) and clocked at T.5 ns; the register
// writes software makes before record T are short clocks (20 ps apart) in the last
// 0.4 ns before it, so GTKWave's cursor at "T ns" shows record T.
#ifndef ITA_VLT_MODEL_H
#define ITA_VLT_MODEL_H

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>

#include "common/ita/ita_events.h"
#include "common/ita/ita_regs.h"
#include "harness/pmu_vlt_glue.h"

namespace ita_vlt {

// A stream event id as the xev ports take it on one model: resolved once, at create, with
// ita_event_id_row(); an id whose row is not a general event on the model (absent, an EAR /
// BTB type or a modelled kind) has valid = 0 and counts nowhere.
struct XevRow {
    uint8_t valid, code, umask, iod;  // iod = {iar, opm, dar}
};

template <class Top>
struct RtlModel : pmu_vlt::Core<Top> {
    using pmu_vlt::Core<Top>::top;
    using pmu_vlt::Core<Top>::fall;
    using pmu_vlt::Core<Top>::clock;
    XevRow *xev_rows = nullptr; // indexed by stream event id
    unsigned nxev_rows = 0;
    // The slot ports past the first live_slots hold zeros (so a record drives only its own
    // slots and clears those the previous one left); the general-event ports hold zeros
    // (a record without general events leaves them as they are).
    unsigned live_slots = ITA_MAX_SLOTS;
    bool xev_zero = false;
    // The record's ten one-byte fields cpl .. nslots (include/common/ita/ita_cycle.h) and the
    // top's ports cpl_i .. nslots_i are in the same order; where the ports are ten
    // consecutive bytes too (the Verilated tops: Verilator 5.006 lays the one-byte inputs out
    // in declaration order), a step copies them as one block instead of field by field
    // (docs/bench-history.md, "Eighteenth round").  Checked on the model itself, at create.
    static constexpr size_t kScalarBytes = offsetof(ita_cycle, nslots) - offsetof(ita_cycle, cpl) + 1;
    static_assert(kScalarBytes == 10 && offsetof(ita_cycle, is) == offsetof(ita_cycle, cpl) + 1 &&
                      offsetof(ita_cycle, power) == offsetof(ita_cycle, cpl) + 2 &&
                      offsetof(ita_cycle, intr) == offsetof(ita_cycle, cpl) + 3 &&
                      offsetof(ita_cycle, up_we) == offsetof(ita_cycle, cpl) + 4 &&
                      offsetof(ita_cycle, up) == offsetof(ita_cycle, cpl) + 5 &&
                      offsetof(ita_cycle, pp_we) == offsetof(ita_cycle, cpl) + 6 &&
                      offsetof(ita_cycle, pp) == offsetof(ita_cycle, cpl) + 7 &&
                      offsetof(ita_cycle, recirc) == offsetof(ita_cycle, cpl) + 8,
                  "ita_cycle's cpl .. nslots: ten consecutive bytes in the ports' order");
    bool scalars_packed = false;

    static_assert(sizeof(Top::obs_vis_o) == ITA_NVIS * sizeof(uint64_t),
                  "obs_vis_o must hold ITA_NVIS 64-bit registers (include/common/ita/ita_regs.def)");
    static_assert(sizeof(Top::slot_ip_i) == ITA_MAX_SLOTS * sizeof(uint64_t), "slot_ip_i width");
    static_assert(sizeof(Top::slot_daddr_i) == ITA_MAX_SLOTS * sizeof(uint64_t), "slot_daddr_i");
    static_assert(ITA_SF_WIDTH == 16 && sizeof(Top::slot_flags_i) == ITA_MAX_SLOTS * 2,
                  "slot_flags_i packing assumes 16-bit flags, two slots a word");
    static_assert(sizeof(Top::slot_enc_i) == (ITA_MAX_SLOTS * 41 + 31) / 32 * 4, "slot_enc_i width");
    static_assert(sizeof(Top::slot_lat_i) == ITA_MAX_SLOTS * 2, "slot_lat_i: 16 bits a slot");
    static_assert(sizeof(Top::slot_target_i) == ITA_MAX_SLOTS * sizeof(uint64_t), "slot_target_i");
    static_assert(ITA_MAX_XEV == 4, "xev ports are packed for four entries (one 32-bit word of bytes)");

    explicit RtlModel(int model) : pmu_vlt::Core<Top>(pmu_vlt::Axis::kPerRecord)
    {
        scalars_packed = scalar_ports_packed(*top);
        nxev_rows = ita_event_id_count();
        xev_rows = new XevRow[nxev_rows ? nxev_rows : 1]();
        for (unsigned id = 0; id < nxev_rows; id++) {
            const ita_event_row *r = ita_event_id_row(id, model);
            if (!r || r->type != ITA_EVT_NORMAL || r->kind != ITA_KIND_NONE) continue;
            xev_rows[id] = XevRow{1, r->code, static_cast<uint8_t>(r->umask & 0xfu),
                                  static_cast<uint8_t>((r->iar & 1u) << 2 | (r->opm & 1u) << 1 |
                                                       (r->dar & 1u))};
        }
    }
    ~RtlModel() { delete[] xev_rows; }

    // cpl_i .. nslots_i are one byte each, at consecutive addresses in the record's order.
    static bool scalar_ports_packed(const Top &t)
    {
        const unsigned char *const p[] = {
            reinterpret_cast<const unsigned char *>(&t.cpl_i),   reinterpret_cast<const unsigned char *>(&t.is_i),
            reinterpret_cast<const unsigned char *>(&t.power_i), reinterpret_cast<const unsigned char *>(&t.intr_i),
            reinterpret_cast<const unsigned char *>(&t.up_we_i), reinterpret_cast<const unsigned char *>(&t.up_i),
            reinterpret_cast<const unsigned char *>(&t.pp_we_i), reinterpret_cast<const unsigned char *>(&t.pp_i),
            reinterpret_cast<const unsigned char *>(&t.recirc_i), reinterpret_cast<const unsigned char *>(&t.nslots_i)};
        static_assert(sizeof p / sizeof p[0] == kScalarBytes, "one port a field");
        const bool bytes = sizeof t.cpl_i == 1 && sizeof t.is_i == 1 && sizeof t.power_i == 1 &&
                           sizeof t.intr_i == 1 && sizeof t.up_we_i == 1 && sizeof t.up_i == 1 &&
                           sizeof t.pp_we_i == 1 && sizeof t.pp_i == 1 && sizeof t.recirc_i == 1 &&
                           sizeof t.nslots_i == 1;
        for (size_t i = 1; bytes && i < kScalarBytes; i++)
            if (p[i] != p[0] + i) return false;
        return bytes;
    }

    // A 64-bit value into two consecutive 32-bit words of a wide port, low word first
    // (Verilator's word order), as one store.
    static void put64(uint32_t *w, uint64_t v)
    {
        const uint32_t words[2] = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
        std::memcpy(w, words, sizeof words);
    }

    void step(const ita_cycle *c)
    {
        Top &t = *top;
        fall();
        t.reg_we_i = 0;
        t.cyc_valid_i = 1;
        if (scalars_packed) {
            std::memcpy(reinterpret_cast<unsigned char *>(&t.cpl_i), &c->cpl, kScalarBytes);
        } else {
            t.cpl_i = c->cpl;
            t.is_i = c->is;
            t.power_i = c->power;
            t.intr_i = c->intr;
            t.up_we_i = c->up_we;
            t.up_i = c->up;
            t.pp_we_i = c->pp_we;
            t.pp_i = c->pp;
            t.recirc_i = c->recirc;
            t.nslots_i = c->nslots;
        }
        t.if_addr_i = c->if_addr;
        t.if_lat_i = c->if_lat;
        t.if_tlb_i = c->if_tlb & 3u;
        t.if_rab_i = c->if_rab & 1u;
        if (c->nxev != 0 || !xev_zero) drive_xev(c);
        switch (c->nslots < ITA_MAX_SLOTS ? c->nslots : ITA_MAX_SLOTS) {
        case 0:
            // A record without slots (a stall; a third of the bench stream's cycles) drives
            // every slot port to 0, which the ports already hold after the first one
            // (docs/bench-history.md, "Only the slots that retire").
            if (live_slots != 0) clear_slots();
            break;
        case 1: drive_slots<1>(c); break;
        case 2: drive_slots<2>(c); break;
        case 3: drive_slots<3>(c); break;
        case 4: drive_slots<4>(c); break;
        case 5: drive_slots<5>(c); break;
        default: drive_slots<ITA_MAX_SLOTS>(c); break;
        }
        clock(true);
        t.cyc_valid_i = 0;
    }

    // The first N slots (N = nslots) are packed from the record and every port of the slots
    // after them is 0, so the ports are a pure function of the record (its slots past nslots
    // are not part of it: the decoder may leave an earlier record's there) and a record packs
    // only the slots it has; the ports of the slots a previous record had and this one has not
    // are cleared (every consumer in the RTL tests s < nslots_i, so those zeros are never
    // seen; docs/bench.md).  The 41-bit encodings are packed 64 bits at a time.  N is a
    // constant: the slot loops are unrolled and their shifts and word indices become
    // constants (this is most of the harness's cost per cycle; docs/bench.md).
    template <unsigned N>
    void drive_slots(const ita_cycle *c)
    {
        static_assert(N >= 1 && N <= ITA_MAX_SLOTS, "1..ITA_MAX_SLOTS slots");
        Top &t = *top;
        constexpr unsigned kEncBits = 41;
        uint64_t enc[(ITA_MAX_SLOTS * kEncBits + 63) / 64 + 1] = {0};
        uint32_t flags[ITA_MAX_SLOTS / 2] = {0}, lat[ITA_MAX_SLOTS / 2] = {0};
        uint32_t idx = 0, unit = 0, tlb = 0;
#pragma GCC unroll 8
        for (unsigned k = 0; k < N; k++) {
            const ita_slot &s = c->slot[k];
            put64(&t.slot_ip_i[2 * k], s.ip);
            put64(&t.slot_daddr_i[2 * k], s.daddr);
            put64(&t.slot_target_i[2 * k], s.target);
            const unsigned bit = kEncBits * k, word = bit / 64, off = bit % 64;
            const uint64_t e = s.enc & ((UINT64_C(1) << kEncBits) - 1);
            enc[word] |= e << off;
            if (off + kEncBits > 64) enc[word + 1] |= e >> (64 - off);
            idx |= (s.slot & 3u) << (2 * k);
            unit |= (s.unit & 3u) << (2 * k);
            tlb |= (s.tlb & 3u) << (2 * k);
            flags[k / 2] |= static_cast<uint32_t>(s.flags) << (16 * (k % 2));
            lat[k / 2] |= static_cast<uint32_t>(s.lat) << (16 * (k % 2));
        }
        for (unsigned k = N; k < live_slots; k++) {
            put64(&t.slot_ip_i[2 * k], 0);
            put64(&t.slot_daddr_i[2 * k], 0);
            put64(&t.slot_target_i[2 * k], 0);
        }
        // The packed ports, every word (those of the slots past N are 0).
#pragma GCC unroll 16
        for (unsigned i = 0; i < sizeof(Top::slot_enc_i) / 4; i++)
            t.slot_enc_i[i] = static_cast<uint32_t>(enc[i / 2] >> (32 * (i % 2)));
#pragma GCC unroll 8
        for (unsigned i = 0; i < ITA_MAX_SLOTS / 2; i++) {
            t.slot_flags_i[i] = flags[i];
            t.slot_lat_i[i] = lat[i];
        }
        t.slot_idx_i = static_cast<uint16_t>(idx);
        t.slot_unit_i = static_cast<uint16_t>(unit);
        t.slot_tlb_i = static_cast<uint16_t>(tlb);
        live_slots = N;
    }

    // Every slot port to 0, as drive_slots() drives a record whose slots are all 0.
    void clear_slots()
    {
        Top &t = *top;
        std::memset(&t.slot_ip_i, 0, sizeof t.slot_ip_i);
        std::memset(&t.slot_daddr_i, 0, sizeof t.slot_daddr_i);
        std::memset(&t.slot_enc_i, 0, sizeof t.slot_enc_i);
        std::memset(&t.slot_flags_i, 0, sizeof t.slot_flags_i);
        std::memset(&t.slot_target_i, 0, sizeof t.slot_target_i);
        std::memset(&t.slot_lat_i, 0, sizeof t.slot_lat_i);
        t.slot_idx_i = 0;
        t.slot_unit_i = 0;
        t.slot_tlb_i = 0;
        live_slots = 0;
    }

    // The general events, resolved through the model's table.
    void drive_xev(const ita_cycle *c)
    {
        Top &t = *top;
        uint32_t valid = 0, code = 0, umask = 0, count = 0, slot = 0, iod = 0;
        const unsigned n = c->nxev < ITA_MAX_XEV ? c->nxev : ITA_MAX_XEV;
        for (unsigned i = 0; i < n; i++) {
            const ita_xev &x = c->xev[i];
            if (x.id >= nxev_rows || !xev_rows[x.id].valid) continue;
            const XevRow &r = xev_rows[x.id];
            valid |= 1u << i;
            code |= static_cast<uint32_t>(r.code) << (8 * i);
            umask |= static_cast<uint32_t>(r.umask) << (4 * i);
            count |= static_cast<uint32_t>(x.count) << (8 * i);
            slot |= static_cast<uint32_t>(x.slot) << (8 * i);
            iod |= static_cast<uint32_t>(r.iod) << (3 * i);
        }
        t.xev_valid_i = static_cast<uint8_t>(valid);
        t.xev_code_i = code;
        t.xev_umask_i = static_cast<uint16_t>(umask);
        t.xev_count_i = count;
        t.xev_slot_i = slot;
        t.xev_iod_i = static_cast<uint16_t>(iod);
        xev_zero = valid == 0;  // every field is set only for a valid entry
    }

    // The visible registers.  The tops Verilated with --cc (verilator/ita/family.mk) have
    // ObsPort = 0: obs_vis_o stays 0 and the entries are read where the RTL keeps them, its
    // array `vis` (public, 64 bits an entry in order), so a clock copies the views once, not
    // twice (docs/bench-history.md, "Sixteenth round").  The SystemC shadow, whose root is
    // not the generated one, has the port.
    template <class T>
    static auto vis_entries(const T &t, int) -> decltype(static_cast<const uint64_t *>(&t.rootp->ita_pmu__DOT__vis[0]))
    {
        static_assert(sizeof t.rootp->ita_pmu__DOT__vis == ITA_NVIS * sizeof(uint64_t),
                      "vis must hold ITA_NVIS 64-bit registers");
        return &t.rootp->ita_pmu__DOT__vis[0];
    }
    template <class T>
    static const uint64_t *vis_entries(const T &, long)
    {
        return nullptr;
    }

    void snapshot(pmu_state *s)
    {
        if (const uint64_t *v = vis_entries(*top, 0)) {
            std::memcpy(s->reg, v, ITA_NVIS * sizeof s->reg[0]);
            s->pmi = top->pmi_o;
        } else {
            this->snapshot_obs(s, ITA_NVIS);
        }
    }

    // Where the lock-step checker compares the visible registers in place.
    const void *visible_obs(const uint8_t **pmi_line) const
    {
        if (const uint64_t *v = vis_entries(*top, 0)) {
            static_assert(sizeof top->pmi_o == 1, "pmi_o is one byte");
            *pmi_line = reinterpret_cast<const uint8_t *>(&top->pmi_o);
            return v;
        }
        return pmu_vlt::Core<Top>::visible_obs(pmi_line);
    }
};


// A reset model of the variant p asks for: TopIta2 (Itanium 2) or TopIta (Itanium), both
// PmdSext=1, ThrGe=0, FineGran2=0; NULL with err filled for anything else.
template <class TopIta2, class TopIta>
pmu_backend *rtl_make(const ita_params *p, pmu_err *err)
{
    const ita_params params = p ? *p : ita_params_default();
    // The model as the C caller stored it, any int: loading a C++ enum that holds a value
    // outside its enumerators is undefined, so it is read as the int it is.
    static_assert(sizeof params.model == sizeof(int), "ita_model is stored as an int");
    int model;
    std::memcpy(&model, &params.model, sizeof model);
    const char *why = nullptr;
    if (model != ITA_MODEL_ITANIUM && model != ITA_MODEL_ITANIUM2)
        why = "model: expected Itanium (0) or Itanium 2 (1)";
    else if (params.pmd_sext != 1)
        why = "pmd_sext=0 was not Verilated (built variants: pmd_sext=1, thr_ge=0, fine_2bundle=0)";
    else if (params.thr_ge != 0)
        why = "thr_ge=1 was not Verilated (built variants: pmd_sext=1, thr_ge=0, fine_2bundle=0)";
    else if (params.fine_2bundle != 0)
        why = "fine_2bundle=1 was not Verilated (built variants: pmd_sext=1, thr_ge=0, fine_2bundle=0)";
    if (why) {
        pmu_errf(err, PMU_E_UNSUPPORTED, "rtl backend: %s", why);
        return nullptr;
    }
    try {
        return params.model == ITA_MODEL_ITANIUM2
                   ? pmu_vlt::Backend<RtlModel<TopIta2>, ita_cycle>::create(
                         new RtlModel<TopIta2>(params.model), params.model, ITA_NVIS, err)
                   : pmu_vlt::Backend<RtlModel<TopIta>, ita_cycle>::create(
                         new RtlModel<TopIta>(params.model), params.model, ITA_NVIS, err);
    } catch (const std::bad_alloc &) {
        pmu_errf(err, PMU_E_NOMEM, "rtl backend: out of memory");
        return nullptr;
    }
}

}  // namespace ita_vlt

#endif
