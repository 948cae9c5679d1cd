// ref_test_util.h - helpers shared by the reference-model tests: a model
// handle, register addresses, PMC encoding from named fields, and cycle
// records built from named slot flags.  Expected values in the tests are
// written from docs/ita-semantics.md and the seeds, never computed by the model.
#ifndef REF_TEST_UTIL_H
#define REF_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>

#include "csim/ita/ita_ref.h"

namespace reftest {

inline const char *model_name(ita_model m) { return m == ITA_MODEL_ITANIUM ? "Itanium" : "Itanium2"; }

inline ita_params params(ita_model m, int sext = 1, int thr_ge = 0, int fine_2bundle = 0)
{
    ita_params p;
    p.model = m;
    p.pmd_sext = sext;
    p.thr_ge = thr_ge;
    p.fine_2bundle = fine_2bundle;
    return p;
}

inline uint16_t pmc(unsigned i) { return ITA_ADDR(ITA_SPACE_PMC, i); }
inline uint16_t pmd(unsigned i) { return ITA_ADDR(ITA_SPACE_PMD, i); }
inline uint16_t ibr(unsigned i) { return ITA_ADDR(ITA_SPACE_IBR, i); }
inline uint16_t dbr(unsigned i) { return ITA_ADDR(ITA_SPACE_DBR, i); }
inline uint16_t psr_addr() { return ita_vis_table[ITA_VIS_PSR].addr; }
inline uint16_t dcr_addr() { return ita_vis_table[ITA_VIS_DCR].addr; }
inline uint16_t ipsr_addr() { return ita_vis_table[ITA_VIS_IPSR].addr; }

inline uint64_t wmax(ita_model m) { return (uint64_t(1) << ita_counter_width(m)) - 1; }

// PSR / IPSR value with the given up and pp bits.
inline uint64_t psr_value(unsigned up, unsigned pp)
{
    return ITA_FSET(ITA_FSET(0, PSR, UP, up), PSR, PP, pp);
}
inline uint64_t ovf_bit(unsigned ctr) { return ITA_FSET(0, PMC0, OVF, 1u << (ctr - ITA_FIRST_COUNTER)); }
inline uint64_t fr_bit() { return ITA_FSET(0, PMC0, FR, 1); }

// A generic counter configuration, field by field.
struct Pmc {
    unsigned plm = 0xf, ev = 0, oi = 0, pm = 0, es = 0, umask = 0, thres = 0, ism = 0;
    Pmc &with_plm(unsigned v) { plm = v; return *this; }
    Pmc &with_oi(unsigned v) { oi = v; return *this; }
    Pmc &with_pm(unsigned v) { pm = v; return *this; }
    Pmc &with_thres(unsigned v) { thres = v; return *this; }
    Pmc &with_ism(unsigned v) { ism = v; return *this; }
    uint64_t value() const
    {
        uint64_t x = 0;
        x = ITA_FSET(x, PMC_GEN, PLM, plm);
        x = ITA_FSET(x, PMC_GEN, EV, ev);
        x = ITA_FSET(x, PMC_GEN, OI, oi);
        x = ITA_FSET(x, PMC_GEN, PM, pm);
        x = ITA_FSET(x, PMC_GEN, ES, es);
        x = ITA_FSET(x, PMC_GEN, UMASK, umask);
        x = ITA_FSET(x, PMC_GEN, THRES, thres);
        x = ITA_FSET(x, PMC_GEN, ISM, ism);
        return x;
    }
};
// Whether `m` implements event `ev` (Itanium: it has an Itanium code).
inline bool implemented(ita_model m, int ev) { return ita_event_code(&ita_event_table[ev], m) >= 0; }
// The row that stands for event `ev` on `m` (its Itanium counterpart on Itanium), or NULL.
inline const ita_event_row *model_row(ita_model m, int ev)
{
    return m == ITA_MODEL_ITANIUM ? ita_event_itanium_row(&ita_event_table[ev]) : &ita_event_table[ev];
}
// PMC selecting event `ev` with the model's code (the Itanium 2 code by default).
inline Pmc event_pmc(int ev, ita_model m = ITA_MODEL_ITANIUM2)
{
    Pmc p;
    const int code = ita_event_code(&ita_event_table[ev], m);
    EXPECT_GE(code, 0) << ita_event_table[ev].name << " is not implemented on this model";
    p.es = unsigned(code < 0 ? 0 : code);
    p.umask = ita_event_table[ev].umask;
    return p;
}
inline Pmc raw_pmc(unsigned es, unsigned umask)
{
    Pmc p;
    p.es = es;
    p.umask = umask;
    return p;
}

// Slot flags.
inline uint16_t br(unsigned type, unsigned pred)
{
    return uint16_t((type << ITA_SF_BR_TYPE_LSB) | (pred << ITA_SF_BR_PRED_LSB));
}

// A cycle at user level, IA-64, NORMAL power, nothing retired.
inline ita_cycle cycle(unsigned cpl = 3)
{
    ita_cycle c;
    std::memset(&c, 0, sizeof c);
    c.cpl = uint8_t(cpl);
    c.is = 0;
    c.power = ITA_POWER_NORMAL;
    c.intr = ITA_INTR_NONE;
    return c;
}
inline ita_cycle cycle_with(std::initializer_list<uint16_t> slot_flags, unsigned cpl = 3)
{
    ita_cycle c = cycle(cpl);
    for (uint16_t f : slot_flags) {
        c.slot[c.nslots].flags = f;
        c.slot[c.nslots].ip = 0x4000000000001000ull + 16u * c.nslots;
        c.nslots++;
    }
    return c;
}

// One retired slot.
inline ita_slot slot(uint64_t ip, unsigned unit, uint64_t enc, uint16_t flags = 0, uint64_t daddr = 0)
{
    ita_slot s;
    std::memset(&s, 0, sizeof s);
    s.ip = ip;
    s.unit = uint8_t(unit);
    s.enc = enc;
    s.flags = flags;
    s.daddr = daddr;
    return s;
}

// A record of these retired slots.
inline ita_cycle rec(std::initializer_list<ita_slot> slots, unsigned cpl = 3)
{
    ita_cycle c = cycle(cpl);
    for (const ita_slot &s : slots)
        c.slot[c.nslots++] = s;
    return c;
}

// The backend a test binary runs these tests on, chosen at link time: the reference model
// (ref_backend.cpp, in csim_tests) or the Verilated RTL (verilator/ita/tests/ita_rtl_backend_for_unit_tests.cpp,
// in tests/tests.mk's binary that runs the EAR, BTB and general-event tests on the RTL).
pmu_backend *reftest_backend(const ita_params &p);

// Owns one backend (the reference model unless the binary links another, above).
class Ref {
public:
    explicit Ref(const ita_params &p) : b_(reftest_backend(p)) {}
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    ~Ref() { pmu_destroy(b_); }
    pmu_backend *get() const { return b_; }

    void write(uint16_t a, uint64_t v) { pmu_write(b_, a, v); }
    uint64_t read(uint16_t a) { return pmu_read(b_, a); }
    void step(const ita_cycle &c) { pmu_step(b_, &c); }
    void step_n(const ita_cycle &c, unsigned n) { for (unsigned i = 0; i < n; i++) step(c); }
    pmu_state snap()
    {
        pmu_state s;
        pmu_snapshot(b_, &s);
        return s;
    }
    uint8_t pmi() { return snap().pmi; }
    // The exact count; a backend without totals (the RTL) gives the PMD, which is exact
    // while the counter has not wrapped.
    uint64_t total(unsigned ctr) { return pmu_has_total(b_) ? pmu_total(b_, ctr) : read(pmd(ctr)); }

    // Unfreeze, clear the overflow bits, enable user monitors (PSR.up = 1).
    void start() { write(pmc(0), 0); write(psr_addr(), psr_value(1, 0)); }
    // Program counter `ctr` and zero its PMD.
    void program(unsigned ctr, const Pmc &p) { write(pmc(ctr), p.value()); write(pmd(ctr), 0); }
    // The increment one step of `c` gives counter `ctr` (restores the PMD after).
    uint64_t delta(unsigned ctr, const ita_cycle &c)
    {
        write(pmd(ctr), 0);
        step(c);
        uint64_t d = read(pmd(ctr));
        write(pmd(ctr), 0);
        return d;
    }

private:
    pmu_backend *b_;
};

// Parameterised over the two models.
class ModelTest : public ::testing::TestWithParam<ita_model> {
protected:
    ita_model model() const { return GetParam(); }
};
inline std::string model_param_name(const ::testing::TestParamInfo<ita_model> &i)
{
    return model_name(i.param);
}
#define INSTANTIATE_BOTH_MODELS(suite)                                                     \
    INSTANTIATE_TEST_SUITE_P(Models, suite,                                                \
                             ::testing::Values(ITA_MODEL_ITANIUM, ITA_MODEL_ITANIUM2),     \
                             reftest::model_param_name)


// ---- qualification registers from named fields (docs/ita-semantics.md) -------------
inline const uint32_t OPC_ALL = uint32_t((uint64_t(1) << ITA_F_PMC_OPC_MASK_WIDTH) - 1);

struct Opc {
    uint32_t match = 0, mask = OPC_ALL; // mask: 1 = don't care
    unsigned m = 1, i = 1, f = 1, b = 1;
    unsigned ig_ad = 1, inv = 0; // Itanium 2 PMC8 only
    Opc &units(unsigned mm, unsigned ii, unsigned ff, unsigned bb)
    {
        m = mm; i = ii; f = ff; b = bb;
        return *this;
    }
    Opc &with_ig_ad(unsigned v) { ig_ad = v; return *this; }
    Opc &with_inv(unsigned v) { inv = v; return *this; }
    uint64_t value() const
    {
        uint64_t x = 0;
        x = ITA_FSET(x, PMC_OPC, MATCH, match);
        x = ITA_FSET(x, PMC_OPC, MASK, mask);
        x = ITA_FSET(x, PMC_OPC, M, m);
        x = ITA_FSET(x, PMC_OPC, I, i);
        x = ITA_FSET(x, PMC_OPC, F, f);
        x = ITA_FSET(x, PMC_OPC, B, b);
        x = ITA_FSET(x, PMC_OPC, IG_AD, ig_ad);
        x = ITA_FSET(x, PMC_OPC, INV, inv);
        return x;
    }
};
// Field bits 26:23 hold instr{40:37} (field[26:13] = instr{40:27}).
constexpr unsigned FIELD_MAJOR_LSB = 23;
inline const uint32_t MAJOR_CARE = 0xfu << FIELD_MAJOR_LSB;
// "Desired opcodes": major opcode `major` in M (or I) slots only.
inline Opc major_opcode(unsigned major, unsigned unit)
{
    Opc o;
    o.match = major << FIELD_MAJOR_LSB;
    o.mask = OPC_ALL & ~MAJOR_CARE;
    o.units(unit == ITA_UNIT_M, unit == ITA_UNIT_I, unit == ITA_UNIT_F, unit == ITA_UNIT_B);
    return o;
}
// A pattern no slot has: B slots of major opcode 15.
inline Opc matches_nothing() { return major_opcode(15, ITA_UNIT_B); }

inline uint64_t block_mask(uint64_t size) { return ~(size - 1) & ITA_FMASK(IBR_MASK, MASK); }
inline uint64_t ibr_odd(uint64_t mask, unsigned plm, unsigned x = 0)
{
    return ITA_FSET(ITA_FSET(ITA_FSET(0, IBR_MASK, MASK, mask), IBR_MASK, PLM, plm), IBR_MASK, X, x);
}
inline uint64_t dbr_odd(uint64_t mask, unsigned plm, unsigned r = 0, unsigned w = 0)
{
    uint64_t v = ITA_FSET(ITA_FSET(0, DBR_MASK, MASK, mask), DBR_MASK, PLM, plm);
    return ITA_FSET(ITA_FSET(v, DBR_MASK, R, r), DBR_MASK, W, w);
}
// IBR / DBR pair k covering the aligned block [addr, addr + size).
inline void set_ibr_pair(Ref &r, unsigned k, uint64_t addr, uint64_t size, unsigned plm = 0xf)
{
    r.write(ibr(2 * k), addr);
    r.write(ibr(2 * k + 1), ibr_odd(block_mask(size), plm));
}
inline void set_dbr_pair(Ref &r, unsigned k, uint64_t addr, uint64_t size, unsigned plm = 0xf)
{
    r.write(dbr(2 * k), addr);
    r.write(dbr(2 * k + 1), dbr_odd(block_mask(size), plm));
}

// Itanium 2 PMC14: bit k of `free` = ibrp_k (1 = not constrained by pair k).
inline uint64_t pmc14(unsigned free, unsigned fine = 0)
{
    uint64_t v = 0;
    v = ITA_FSET(v, PMC14, IBRP0, (free >> 0) & 1);
    v = ITA_FSET(v, PMC14, IBRP1, (free >> 1) & 1);
    v = ITA_FSET(v, PMC14, IBRP2, (free >> 2) & 1);
    v = ITA_FSET(v, PMC14, IBRP3, (free >> 3) & 1);
    return ITA_FSET(v, PMC14, FINE, fine);
}

// ---- EAR and BTB configurations (docs/ita-ear-btb.md), field by field ----------------

// Privilege and instruction-set enables of a unit.
struct UnitEnable {
    unsigned plm = 0xf, pm = 0, ism = 0;
};
// PMC10 in cache mode with `umask` (Itanium 2: ct = 1x, umask bits 12:5, so umask bit 7
// is ct bit 0; Itanium: tlb = 0, umask bits 19:16).
inline uint64_t iear_cache(ita_model m, unsigned umask, UnitEnable e = UnitEnable())
{
    if (m == ITA_MODEL_ITANIUM2) {
        uint64_t x = ITA_FSET(0, PMC10, PLM, e.plm);
        x = ITA_FSET(x, PMC10, PM, e.pm);
        x = ITA_FSET(x, PMC10, ISM, e.ism);
        x = ITA_FSET(x, PMC10, UMASK, umask);
        return ITA_FSET(x, PMC10, CT, 2u | (umask >> 7));
    }
    uint64_t x = ITA_FSET(0, PMC10_ITA, PLM, e.plm);
    x = ITA_FSET(x, PMC10_ITA, PM, e.pm);
    x = ITA_FSET(x, PMC10_ITA, ISM, e.ism);
    return ITA_FSET(x, PMC10_ITA, UMASK, umask);
}
// PMC10 in TLB mode (Itanium 2: ct = 00, umask bits 11:5; Itanium: tlb = 1).
inline uint64_t iear_tlb(ita_model m, unsigned umask, UnitEnable e = UnitEnable())
{
    if (m == ITA_MODEL_ITANIUM2) {
        uint64_t x = ITA_FSET(0, PMC10, PLM, e.plm);
        x = ITA_FSET(x, PMC10, PM, e.pm);
        x = ITA_FSET(x, PMC10, ISM, e.ism);
        x = ITA_FSET(x, PMC10, UMASK, umask);
        return ITA_FSET(x, PMC10, CT, 0);
    }
    return ITA_FSET(iear_cache(m, umask, e), PMC10_ITA, TLB, 1);
}
enum DearMode { DEAR_CACHE = 0, DEAR_TLB = 1, DEAR_ALAT = 2, DEAR_NONE = 3 };
// PMC11 (Itanium: DEAR_TLB sets tlb; pt = 1, so the data-address tags pass).
inline uint64_t dear_cfg(ita_model m, DearMode mode, unsigned umask, UnitEnable e = UnitEnable())
{
    uint64_t x = ITA_FSET(0, PMC11, PLM, e.plm);
    x = ITA_FSET(x, PMC11, PM, e.pm);
    x = ITA_FSET(x, PMC11, ISM, e.ism);
    x = ITA_FSET(x, PMC11, UMASK, umask);
    if (m == ITA_MODEL_ITANIUM2)
        return ITA_FSET(x, PMC11, MODE, unsigned(mode));
    x = ITA_FSET(x, PMC11, PT, 1);
    return ITA_FSET(x, PMC11_ITA, TLB, mode == DEAR_TLB ? 1u : 0u);
}
// PMC12 (ds and brt exist on Itanium 2 only).
struct Btb {
    unsigned plm = 0xf, pm = 0, ds = 0, tm = 3, ptm = 3, ppm = 3, brt = 0;
    uint64_t value() const
    {
        uint64_t x = ITA_FSET(0, PMC12, PLM, plm);
        x = ITA_FSET(x, PMC12, PM, pm);
        x = ITA_FSET(x, PMC12, DS, ds);
        x = ITA_FSET(x, PMC12, TM, tm);
        x = ITA_FSET(x, PMC12, PTM, ptm);
        x = ITA_FSET(x, PMC12, PPM, ppm);
        return ITA_FSET(x, PMC12, BRT, brt);
    }
};

} // namespace reftest

#endif
