// ref_test_util.h - helpers shared by the reference-model tests: a model
// handle, register addresses, PMC encoding from named fields, and cycle
// records built from named slot flags.  Expected values in the tests are
// written from docs/semantics.md and the seeds, never computed by the model.
#ifndef REF_TEST_UTIL_H
#define REF_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>

#include "ita/pmu_ref.h"

namespace reftest {

inline const char *model_name(pmu_model m) { return m == PMU_MODEL_ITANIUM ? "Itanium" : "Itanium2"; }

inline pmu_params params(pmu_model m, int sext = 1, int thr_ge = 0, int fine_2bundle = 0)
{
    pmu_params p;
    p.model = m;
    p.pmd_sext = sext;
    p.thr_ge = thr_ge;
    p.fine_2bundle = fine_2bundle;
    return p;
}

inline uint16_t pmc(unsigned i) { return PMU_ADDR(PMU_SPACE_PMC, i); }
inline uint16_t pmd(unsigned i) { return PMU_ADDR(PMU_SPACE_PMD, i); }
inline uint16_t ibr(unsigned i) { return PMU_ADDR(PMU_SPACE_IBR, i); }
inline uint16_t dbr(unsigned i) { return PMU_ADDR(PMU_SPACE_DBR, i); }
inline uint16_t psr_addr() { return pmu_vis_table[PMU_VIS_PSR].addr; }
inline uint16_t dcr_addr() { return pmu_vis_table[PMU_VIS_DCR].addr; }
inline uint16_t ipsr_addr() { return pmu_vis_table[PMU_VIS_IPSR].addr; }

inline uint64_t wmax(pmu_model m) { return (uint64_t(1) << pmu_counter_width(m)) - 1; }

// PSR / IPSR value with the given up and pp bits.
inline uint64_t psr_value(unsigned up, unsigned pp)
{
    return PMU_FSET(PMU_FSET(0, PSR, UP, up), PSR, PP, pp);
}
inline uint64_t ovf_bit(unsigned ctr) { return PMU_FSET(0, PMC0, OVF, 1u << (ctr - PMU_FIRST_COUNTER)); }
inline uint64_t fr_bit() { return PMU_FSET(0, PMC0, FR, 1); }

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
        x = PMU_FSET(x, PMC_GEN, PLM, plm);
        x = PMU_FSET(x, PMC_GEN, EV, ev);
        x = PMU_FSET(x, PMC_GEN, OI, oi);
        x = PMU_FSET(x, PMC_GEN, PM, pm);
        x = PMU_FSET(x, PMC_GEN, ES, es);
        x = PMU_FSET(x, PMC_GEN, UMASK, umask);
        x = PMU_FSET(x, PMC_GEN, THRES, thres);
        x = PMU_FSET(x, PMC_GEN, ISM, ism);
        return x;
    }
};
// Whether `m` implements event `ev` (Itanium: it has an Itanium code).
inline bool implemented(pmu_model m, int ev) { return pmu_event_code(&pmu_event_table[ev], m) >= 0; }
// The row that stands for event `ev` on `m` (its Itanium counterpart on Itanium), or NULL.
inline const ita_event_row *model_row(pmu_model m, int ev)
{
    return m == PMU_MODEL_ITANIUM ? pmu_event_itanium_row(&pmu_event_table[ev]) : &pmu_event_table[ev];
}
// PMC selecting event `ev` with the model's code (the Itanium 2 code by default).
inline Pmc event_pmc(int ev, pmu_model m = PMU_MODEL_ITANIUM2)
{
    Pmc p;
    const int code = pmu_event_code(&pmu_event_table[ev], m);
    EXPECT_GE(code, 0) << pmu_event_table[ev].name << " is not implemented on this model";
    p.es = unsigned(code < 0 ? 0 : code);
    p.umask = pmu_event_table[ev].umask;
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
    return uint16_t((type << PMU_SF_BR_TYPE_LSB) | (pred << PMU_SF_BR_PRED_LSB));
}

// A cycle at user level, IA-64, NORMAL power, nothing retired.
inline pmu_cycle cycle(unsigned cpl = 3)
{
    pmu_cycle c;
    std::memset(&c, 0, sizeof c);
    c.cpl = uint8_t(cpl);
    c.is = 0;
    c.power = PMU_POWER_NORMAL;
    c.intr = PMU_INTR_NONE;
    return c;
}
inline pmu_cycle cycle_with(std::initializer_list<uint16_t> slot_flags, unsigned cpl = 3)
{
    pmu_cycle c = cycle(cpl);
    for (uint16_t f : slot_flags) {
        c.slot[c.nslots].flags = f;
        c.slot[c.nslots].ip = 0x4000000000001000ull + 16u * c.nslots;
        c.nslots++;
    }
    return c;
}

// One retired slot.
inline pmu_slot slot(uint64_t ip, unsigned unit, uint64_t enc, uint16_t flags = 0, uint64_t daddr = 0)
{
    pmu_slot s;
    std::memset(&s, 0, sizeof s);
    s.ip = ip;
    s.unit = uint8_t(unit);
    s.enc = enc;
    s.flags = flags;
    s.daddr = daddr;
    return s;
}

// A record of these retired slots.
inline pmu_cycle rec(std::initializer_list<pmu_slot> slots, unsigned cpl = 3)
{
    pmu_cycle c = cycle(cpl);
    for (const pmu_slot &s : slots)
        c.slot[c.nslots++] = s;
    return c;
}

// The backend a test binary runs these tests on, chosen at link time: the reference model
// (ref_backend.cpp, in csim_tests) or the Verilated RTL (tests/rtl_backend_for_unit_tests.cpp,
// in tests/tests.mk's binary that runs the EAR, BTB and general-event tests on the RTL).
pmu_backend *reftest_backend(const pmu_params &p);

// Owns one backend (the reference model unless the binary links another, above).
class Ref {
public:
    explicit Ref(const pmu_params &p) : b_(reftest_backend(p)) {}
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    ~Ref() { pmu_destroy(b_); }
    pmu_backend *get() const { return b_; }

    void write(uint16_t a, uint64_t v) { pmu_write(b_, a, v); }
    uint64_t read(uint16_t a) { return pmu_read(b_, a); }
    void step(const pmu_cycle &c) { pmu_step(b_, &c); }
    void step_n(const pmu_cycle &c, unsigned n) { for (unsigned i = 0; i < n; i++) step(c); }
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
    uint64_t delta(unsigned ctr, const pmu_cycle &c)
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
class ModelTest : public ::testing::TestWithParam<pmu_model> {
protected:
    pmu_model model() const { return GetParam(); }
};
inline std::string model_param_name(const ::testing::TestParamInfo<pmu_model> &i)
{
    return model_name(i.param);
}
#define INSTANTIATE_BOTH_MODELS(suite)                                                     \
    INSTANTIATE_TEST_SUITE_P(Models, suite,                                                \
                             ::testing::Values(PMU_MODEL_ITANIUM, PMU_MODEL_ITANIUM2),     \
                             reftest::model_param_name)


// ---- qualification registers from named fields (docs/semantics.md) -------------
inline const uint32_t OPC_ALL = uint32_t((uint64_t(1) << PMU_F_PMC_OPC_MASK_WIDTH) - 1);

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
        x = PMU_FSET(x, PMC_OPC, MATCH, match);
        x = PMU_FSET(x, PMC_OPC, MASK, mask);
        x = PMU_FSET(x, PMC_OPC, M, m);
        x = PMU_FSET(x, PMC_OPC, I, i);
        x = PMU_FSET(x, PMC_OPC, F, f);
        x = PMU_FSET(x, PMC_OPC, B, b);
        x = PMU_FSET(x, PMC_OPC, IG_AD, ig_ad);
        x = PMU_FSET(x, PMC_OPC, INV, inv);
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
    o.units(unit == PMU_UNIT_M, unit == PMU_UNIT_I, unit == PMU_UNIT_F, unit == PMU_UNIT_B);
    return o;
}
// A pattern no slot has: B slots of major opcode 15.
inline Opc matches_nothing() { return major_opcode(15, PMU_UNIT_B); }

inline uint64_t block_mask(uint64_t size) { return ~(size - 1) & PMU_FMASK(IBR_MASK, MASK); }
inline uint64_t ibr_odd(uint64_t mask, unsigned plm, unsigned x = 0)
{
    return PMU_FSET(PMU_FSET(PMU_FSET(0, IBR_MASK, MASK, mask), IBR_MASK, PLM, plm), IBR_MASK, X, x);
}
inline uint64_t dbr_odd(uint64_t mask, unsigned plm, unsigned r = 0, unsigned w = 0)
{
    uint64_t v = PMU_FSET(PMU_FSET(0, DBR_MASK, MASK, mask), DBR_MASK, PLM, plm);
    return PMU_FSET(PMU_FSET(v, DBR_MASK, R, r), DBR_MASK, W, w);
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
    v = PMU_FSET(v, PMC14, IBRP0, (free >> 0) & 1);
    v = PMU_FSET(v, PMC14, IBRP1, (free >> 1) & 1);
    v = PMU_FSET(v, PMC14, IBRP2, (free >> 2) & 1);
    v = PMU_FSET(v, PMC14, IBRP3, (free >> 3) & 1);
    return PMU_FSET(v, PMC14, FINE, fine);
}

// ---- EAR and BTB configurations (docs/ear-btb.md), field by field ----------------

// Privilege and instruction-set enables of a unit.
struct UnitEnable {
    unsigned plm = 0xf, pm = 0, ism = 0;
};
// PMC10 in cache mode with `umask` (Itanium 2: ct = 1x, umask bits 12:5, so umask bit 7
// is ct bit 0; Itanium: tlb = 0, umask bits 19:16).
inline uint64_t iear_cache(pmu_model m, unsigned umask, UnitEnable e = UnitEnable())
{
    if (m == PMU_MODEL_ITANIUM2) {
        uint64_t x = PMU_FSET(0, PMC10, PLM, e.plm);
        x = PMU_FSET(x, PMC10, PM, e.pm);
        x = PMU_FSET(x, PMC10, ISM, e.ism);
        x = PMU_FSET(x, PMC10, UMASK, umask);
        return PMU_FSET(x, PMC10, CT, 2u | (umask >> 7));
    }
    uint64_t x = PMU_FSET(0, PMC10_ITA, PLM, e.plm);
    x = PMU_FSET(x, PMC10_ITA, PM, e.pm);
    x = PMU_FSET(x, PMC10_ITA, ISM, e.ism);
    return PMU_FSET(x, PMC10_ITA, UMASK, umask);
}
// PMC10 in TLB mode (Itanium 2: ct = 00, umask bits 11:5; Itanium: tlb = 1).
inline uint64_t iear_tlb(pmu_model m, unsigned umask, UnitEnable e = UnitEnable())
{
    if (m == PMU_MODEL_ITANIUM2) {
        uint64_t x = PMU_FSET(0, PMC10, PLM, e.plm);
        x = PMU_FSET(x, PMC10, PM, e.pm);
        x = PMU_FSET(x, PMC10, ISM, e.ism);
        x = PMU_FSET(x, PMC10, UMASK, umask);
        return PMU_FSET(x, PMC10, CT, 0);
    }
    return PMU_FSET(iear_cache(m, umask, e), PMC10_ITA, TLB, 1);
}
enum DearMode { DEAR_CACHE = 0, DEAR_TLB = 1, DEAR_ALAT = 2, DEAR_NONE = 3 };
// PMC11 (Itanium: DEAR_TLB sets tlb; pt = 1, so the data-address tags pass).
inline uint64_t dear_cfg(pmu_model m, DearMode mode, unsigned umask, UnitEnable e = UnitEnable())
{
    uint64_t x = PMU_FSET(0, PMC11, PLM, e.plm);
    x = PMU_FSET(x, PMC11, PM, e.pm);
    x = PMU_FSET(x, PMC11, ISM, e.ism);
    x = PMU_FSET(x, PMC11, UMASK, umask);
    if (m == PMU_MODEL_ITANIUM2)
        return PMU_FSET(x, PMC11, MODE, unsigned(mode));
    x = PMU_FSET(x, PMC11, PT, 1);
    return PMU_FSET(x, PMC11_ITA, TLB, mode == DEAR_TLB ? 1u : 0u);
}
// PMC12 (ds and brt exist on Itanium 2 only).
struct Btb {
    unsigned plm = 0xf, pm = 0, ds = 0, tm = 3, ptm = 3, ppm = 3, brt = 0;
    uint64_t value() const
    {
        uint64_t x = PMU_FSET(0, PMC12, PLM, plm);
        x = PMU_FSET(x, PMC12, PM, pm);
        x = PMU_FSET(x, PMC12, DS, ds);
        x = PMU_FSET(x, PMC12, TM, tm);
        x = PMU_FSET(x, PMC12, PTM, ptm);
        x = PMU_FSET(x, PMC12, PPM, ppm);
        return PMU_FSET(x, PMC12, BRT, brt);
    }
};

} // namespace reftest

#endif
