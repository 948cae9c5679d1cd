// test_cosim.cpp - the lock-step checker finds real disagreements: the fault-injecting
// backend of harness/pmu_fault.h (test code only) wraps the Verilated RTL and the checker
// must report the right cycle, register, field and values.
#include <gtest/gtest.h>

#include <string>

#include "cli/ita/ita_config.h"
#include "harness/pmu_cosim.h"
#include "common/pmu_family.h"
#include "harness/ita/ita_family.h"
#include "harness/ita/ita_harness_util.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_rtl.h"
#include "harness/pmu_fault.h"

using namespace harness_test;

namespace {

// The fault kinds of the shared wrapper (harness/pmu_fault.h), by their short names here.
namespace Fault {
constexpr pmu_fault_kind None = PMU_FAULT_NONE;
constexpr pmu_fault_kind DropStep = PMU_FAULT_DROP_STEP;
constexpr pmu_fault_kind WriteBitFlip = PMU_FAULT_WRITE_FLIP;
constexpr pmu_fault_kind PmiLost = PMU_FAULT_PMI_LOST;
constexpr pmu_fault_kind ReadBitFlip = PMU_FAULT_READ_FLIP;
} // namespace Fault

pmu_backend *make_faulty(pmu_fault_kind kind, uint64_t at = 0, uint16_t addr = 0, uint64_t mask = 0)
{
    char why[256] = "";
    pmu_backend *rtl = ita_rtl_create(nullptr, why, sizeof why);
    EXPECT_NE(rtl, nullptr) << why;
    const pmu_fault fault = {kind, at, addr, mask};
    pmu_backend *f = pmu_fault_wrap(rtl, &fault);
    EXPECT_NE(f, nullptr);
    return f;
}

const char *test_where(void *ctx)
{
    static char buf[64];
    std::snprintf(buf, sizeof buf, "test record %llu",
                  static_cast<unsigned long long>(*static_cast<uint64_t *>(ctx)));
    return buf;
}

// Runs the counting configuration on cosim(ref, faulty RTL) for `cycles` records.
struct Bench {
    uint64_t index = 0;
    pmu_backend *b = nullptr;
    // Without a period nothing wraps in these short runs, so nothing freezes.
    explicit Bench(pmu_backend *rtl_side, const char *pmc5_extra = "")
    {
        b = pmu_cosim_create(&pmu_family_itanium, ita_ref_create(nullptr), rtl_side, test_where, &index);
        ita_config cfg;
        std::string text = std::string("PMC4 event=CPU_CYCLES plm=0xf\n") +
                           "PMC5 event=IA64_INST_RETIRED plm=0xf " + pmc5_extra + "\n" +
                           "PSR up=1\n";
        EXPECT_EQ(parse_config(text, ITA_MODEL_ITANIUM2, &cfg), "");
        ita_config_apply(&cfg, b);
    }
    ~Bench() { pmu_destroy(b); }
    // Steps until the first mismatch or `cycles` records.
    void run(uint64_t cycles)
    {
        for (uint64_t i = 0; i < cycles && pmu_cosim_mismatches(b) == 0; i++) {
            ita_cycle c = simple_record(i % 4, 1 + i % 3);
            index = i;
            pmu_step(b, &c);
        }
    }
};

TEST(Cosim, NoFaultNoMismatch)
{
    Bench t(make_faulty(Fault::None));
    t.run(2000);
    EXPECT_EQ(pmu_cosim_mismatches(t.b), 0u);
    EXPECT_EQ(pmu_cosim_first(t.b), nullptr);
    EXPECT_EQ(t.b->cycle, 2000u);
    // snapshot and read give the reference's values
    pmu_state s;
    pmu_snapshot(t.b, &s);
    EXPECT_EQ(s.reg[ITA_VIS_PMD4], pmu_read(pmu_cosim_ref(t.b), vis_addr(ITA_VIS_PMD4)));
    EXPECT_EQ(pmu_read(t.b, vis_addr(ITA_VIS_PMD4)), 2000u);
}

TEST(Cosim, DroppedStepIsReportedAtItsCycle)
{
    Bench t(make_faulty(Fault::DropStep, 1234));
    t.run(5000);
    EXPECT_EQ(t.b->cycle, 1235u);  // stopped right after the bad clock
    const pmu_cosim_mismatch *m = pmu_cosim_first(t.b);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->cycle, 1234u);
    EXPECT_EQ(m->clock, PMU_COSIM_STEP);
    EXPECT_STREQ(m->reg, "PMD4");  // first visible register that differs
    EXPECT_STREQ(m->fields, "count");
    EXPECT_EQ(m->expected, 1235u);
    EXPECT_EQ(m->actual, 1234u);
    EXPECT_STREQ(m->where, "test record 1234");
    // the record in ita_cycle_format() text form: cpl 1234 % 4 = 2
    EXPECT_NE(std::string(m->record).find("cpl=2"), std::string::npos) << m->record;
    char text[4096];
    pmu_cosim_format(m, text, sizeof text);
    std::string s(text);
    EXPECT_NE(s.find("mismatch at cycle 1234"), std::string::npos) << s;
    EXPECT_NE(s.find("register: PMD4"), std::string::npos) << s;
    EXPECT_NE(s.find("expected: 0x00000000000004d3 (reference)"), std::string::npos) << s;
    EXPECT_NE(s.find("actual:   0x00000000000004d2 (RTL)"), std::string::npos) << s;
    EXPECT_NE(s.find("where:    test record 1234"), std::string::npos) << s;
}

TEST(Cosim, CorruptedWriteNamesTheField)
{
    // umask bit 16 of PMC5 flips on its way into the RTL: caught at the write itself.
    Bench t(make_faulty(Fault::WriteBitFlip, 0, vis_addr(ITA_VIS_PMC5), UINT64_C(1) << 16));
    const pmu_cosim_mismatch *m = pmu_cosim_first(t.b);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->clock, PMU_COSIM_WRITE);
    EXPECT_EQ(m->cycle, 0u);
    EXPECT_STREQ(m->reg, "PMC5");
    EXPECT_STREQ(m->fields, "umask");
    EXPECT_EQ(m->expected ^ m->actual, UINT64_C(1) << 16);
    EXPECT_EQ(m->addr, vis_addr(ITA_VIS_PMC5));
    EXPECT_NE(std::string(m->record).find("register write PMC5"), std::string::npos) << m->record;
}

TEST(Cosim, LostInterruptIsReportedOnPmi)
{
    // PMC5 (period 50, 1..3 instructions a cycle) wraps within 40 cycles.
    Bench t(make_faulty(Fault::PmiLost, 0), "period=50");
    t.run(200);
    const pmu_cosim_mismatch *m = pmu_cosim_first(t.b);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->clock, PMU_COSIM_STEP);
    EXPECT_STREQ(m->reg, "pmi");
    EXPECT_EQ(m->expected, 1u);
    EXPECT_EQ(m->actual, 0u);
    EXPECT_STREQ(m->others, "");  // the overflow bits themselves agree
    // It is the clock where PMC5 carried: the reference shows the overflow bit.
    EXPECT_EQ(ITA_FGET(pmu_read(t.b, vis_addr(ITA_VIS_PMC0)), PMC0, OVF), 2u);
    EXPECT_LT(m->cycle, 40u);
}

TEST(Cosim, WrongReadValue)
{
    Bench t(make_faulty(Fault::ReadBitFlip, 0, vis_addr(ITA_VIS_PSR), ITA_FMASK(PSR, PP)));
    t.run(10);
    EXPECT_EQ(pmu_cosim_mismatches(t.b), 0u);  // reads have not happened yet
    uint64_t v = pmu_read(t.b, vis_addr(ITA_VIS_PSR));
    EXPECT_EQ(v, ITA_FMASK(PSR, UP));  // the reference's value is returned
    const pmu_cosim_mismatch *m = pmu_cosim_first(t.b);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->clock, PMU_COSIM_READ);
    EXPECT_EQ(m->cycle, 10u);
    EXPECT_STREQ(m->reg, "PSR");
    EXPECT_STREQ(m->fields, "pp");
}

TEST(Cosim, OnlyTheFirstMismatchIsKeptButAllAreCounted)
{
    Bench t(make_faulty(Fault::DropStep, 5));
    for (int i = 0; i < 20; i++) {
        ita_cycle c = simple_record(0, 1);
        pmu_step(t.b, &c);
    }
    EXPECT_EQ(pmu_cosim_first(t.b)->cycle, 5u);
    EXPECT_EQ(pmu_cosim_mismatches(t.b), 20u - 5u);  // the RTL stays one count behind
}

TEST(Cosim, FieldNames)
{
    char buf[160];
    pmu_family_name_fields(&pmu_family_itanium, ITA_VIS_PMC4, ITA_FMASK(PMC_GEN, PLM) | ITA_FMASK(PMC_GEN, ES), buf, sizeof buf);
    EXPECT_STREQ(buf, "plm, es");
    pmu_family_name_fields(&pmu_family_itanium, ITA_VIS_PMC0, UINT64_C(0x2), buf, sizeof buf);
    EXPECT_STREQ(buf, "bits 0x2 (no field)");
    pmu_family_name_fields(&pmu_family_itanium, ITA_VIS_PMC0, UINT64_C(0x11), buf, sizeof buf);
    EXPECT_STREQ(buf, "fr, ovf");
    pmu_family_name_fields(&pmu_family_itanium, ITA_VIS_PMD6, UINT64_C(1) << 50, buf, sizeof buf);
    EXPECT_STREQ(buf, "count");
    pmu_family_name_fields(&pmu_family_itanium, ITA_VIS_IPSR, ITA_FMASK(PSR, UP), buf, sizeof buf);
    EXPECT_STREQ(buf, "up");
}

TEST(Cosim, RefusesMismatchedModels)
{
    ita_params p = ita_params_default();
    p.model = ITA_MODEL_ITANIUM;
    char why[256];
    pmu_backend *ref = ita_ref_create(nullptr);  // Itanium 2
    pmu_backend *rtl = ita_rtl_create(&p, why, sizeof why);
    ASSERT_NE(rtl, nullptr) << why;
    EXPECT_EQ(pmu_cosim_create(&pmu_family_itanium, ref, rtl, nullptr, nullptr), nullptr);
    EXPECT_EQ(pmu_cosim_create(&pmu_family_itanium, ref, nullptr, nullptr, nullptr), nullptr);
    pmu_destroy(ref);
    pmu_destroy(rtl);
}

// Random records and random register traffic, both models: RTL and reference agree.
TEST(Cosim, RandomTrafficInLockStep)
{
    for (ita_model m : {ITA_MODEL_ITANIUM2, ITA_MODEL_ITANIUM}) {
        ita_params p = ita_params_default();
        p.model = m;
        char why[256];
        pmu_backend *rtl = ita_rtl_create(&p, why, sizeof why);
        ASSERT_NE(rtl, nullptr) << why;
        pmu_backend *b = pmu_cosim_create(&pmu_family_itanium, ita_ref_create(&p), rtl, nullptr, nullptr);
        Rng r(0x5eed + m);
        const unsigned w = ita_counter_width(m);
        for (unsigned i = 0; i < 20000 && pmu_cosim_mismatches(b) == 0; i++) {
            unsigned what = r.below(64);
            if (what == 0) {  // any register, any value: the masks decide
                const unsigned v = r.below(ITA_NVIS);
                uint64_t val = r.next();
                if (v >= ITA_VIS_PMC4 && v <= ITA_VIS_PMC7) {  // mostly known events
                    const ita_event_desc &e = ita_event_table[r.below(ITA_NEVENTS)];
                    val = ITA_FSET(val, PMC_GEN, ES, e.code);
                    val = ITA_FSET(val, PMC_GEN, UMASK, e.umask);
                    val = ITA_FSET(val, PMC_GEN, ISM, r.below(4) == 0 ? 3 : r.below(3));
                }
                if (v >= ITA_VIS_PMD4 && v <= ITA_VIS_PMD7)  // close to the wrap
                    val = (UINT64_C(1) << w) - 1 - r.below(64);
                if (v == ITA_VIS_PMC0) val &= r.below(4) ? ~UINT64_C(1) : ~UINT64_C(0);
                pmu_write(b, ita_vis_table[v].addr, val);
            } else if (what == 1) {
                pmu_read(b, static_cast<uint16_t>(r.next() & 0xfff));
            } else {
                ita_cycle c = random_record(r);
                pmu_step(b, &c);
            }
        }
        const pmu_cosim_mismatch *first = pmu_cosim_first(b);
        if (first) {
            char text[4096];
            pmu_cosim_format(first, text, sizeof text);
            ADD_FAILURE() << "model " << m << ":\n" << text;
        }
        pmu_destroy(b);
    }
}

// The checker compares every bit of every visible register, and the interrupt line, of
// every family, whether a side keeps its registers where the checker reads them in place
// (pmu_backend_ops.visible, as the reference models and the Verilated models do) or gives
// them only by snapshot: one bit flipped on the "RTL" side after a clock is reported at
// that clock, naming the register and the two values; in a batch (pmu_cosim_step_batch),
// where the RTL's registers are kept for each clock and compared after, at each clock of it.
struct Plain {
    pmu_backend base;  // first member
    pmu_state st;
    int flip_vis = -1;  // at the next clock: flip bit flip_bit of register flip_vis (or pmi: nvis)
    unsigned flip_bit = 0;
    unsigned flip_in = 0;  // clocks before that one
};
Plain *plain(pmu_backend *b) { return reinterpret_cast<Plain *>(b); }
void p_clock(pmu_backend *b)
{
    Plain *p = plain(b);
    p->st = pmu_state{};
    if (p->flip_in) {
        p->flip_in--;
        return;
    }
    if (p->flip_vis == static_cast<int>(b->nvis))
        p->st.pmi ^= 1u;
    else if (p->flip_vis >= 0)
        p->st.reg[p->flip_vis] ^= UINT64_C(1) << p->flip_bit;
    p->flip_vis = -1;
}
void p_reset(pmu_backend *b) { p_clock(b); }
void p_write(pmu_backend *b, uint16_t, uint64_t) { p_clock(b); }
uint64_t p_read(pmu_backend *, uint16_t) { return 0; }
void p_step(pmu_backend *b, const void *) { p_clock(b); }
void p_snapshot(pmu_backend *b, pmu_state *s) { *s = plain(b)->st; }
void p_destroy(pmu_backend *b) { delete plain(b); }
const void *p_visible(pmu_backend *b, const uint8_t **pmi_line)
{
    *pmi_line = &plain(b)->st.pmi;
    return plain(b)->st.reg;
}
const pmu_backend_ops plain_snapshot_ops = {p_reset, p_write, p_read, p_step, p_snapshot, p_destroy,
                                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
const pmu_backend_ops plain_in_place_ops = {p_reset, p_write, p_read, p_step, p_snapshot, p_destroy,
                                            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, p_visible};

pmu_backend *make_plain(const pmu_family *fam, bool in_place)
{
    Plain *p = new Plain();
    p->base.ops = in_place ? &plain_in_place_ops : &plain_snapshot_ops;
    p->base.name = "plain";
    p->base.model = 0;
    p->base.nvis = fam->nvis;
    return &p->base;
}

TEST(Cosim, EveryBitOfEveryVisibleRegisterAndThePmiLineIsCompared)
{
    for (unsigned f = 0; f < pmu_nfamilies; f++) {
        const pmu_family *fam = pmu_families[f];
        for (int sides = 0; sides < 4; sides++) {  // ref / RTL in place or by snapshot
            const bool ref_in_place = sides & 1, rtl_in_place = sides & 2;
            pmu_backend *rtl = make_plain(fam, rtl_in_place);
            pmu_backend *b = pmu_cosim_create(fam, make_plain(fam, ref_in_place), rtl, nullptr, nullptr);
            ASSERT_NE(b, nullptr) << fam->name;
            ASSERT_EQ(pmu_cosim_mismatches(b), 0u);
            const std::string ctx = std::string(fam->name) + (ref_in_place ? ", ref in place" : ", ref snapshot") +
                                    (rtl_in_place ? ", RTL in place" : ", RTL snapshot");
            unsigned missed = 0;
            for (unsigned v = 0; v <= fam->nvis; v++) {  // v == nvis: the interrupt line
                for (unsigned bit = 0; bit < (v < fam->nvis ? 64u : 1u); bit++) {
                    // a step, a register write, then a batch of two records of two clocks
                    // each with the flip at its clock 0, 1, 2 or 3
                    for (int clock = 0; clock < 6; clock++) {
                        pmu_reset(b);
                        plain(rtl)->flip_vis = static_cast<int>(v);
                        plain(rtl)->flip_bit = bit;
                        ita_cycle c{};
                        const void *rec = fam == &pmu_family_itanium ? &c : nullptr;
                        if (clock == 0) {
                            pmu_step(b, rec);
                        } else if (clock == 1) {
                            pmu_write(b, 0, 0);
                        } else {
                            const unsigned at = static_cast<unsigned>(clock - 2);
                            plain(rtl)->flip_in = at;
                            const void *recs[2] = {rec, rec};
                            const unsigned clocks[2] = {2, 2};
                            const unsigned stepped = pmu_cosim_step_batch(b, recs, clocks, 2);
                            // the pair stops at the clock that disagreed (or, for the line, at
                            // the RTL's clock that raised it)
                            if (stepped != at + 1 || b->cycle != at + 1) {
                                if (++missed <= 5)
                                    ADD_FAILURE() << ctx << ": register " << v << " bit " << bit << " batch clock "
                                                  << at << ": stepped " << stepped << ", cycle " << b->cycle;
                                continue;
                            }
                        }
                        const pmu_cosim_mismatch *m = pmu_cosim_first(b);
                        const uint64_t want = v < fam->nvis ? UINT64_C(1) << bit : 1u;
                        if (pmu_cosim_mismatches(b) != 1 || !m ||
                            std::string(m->reg) != (v < fam->nvis ? fam->vis[v].name : "pmi") ||
                            m->expected != 0 || m->actual != want) {
                            if (++missed <= 5)
                                ADD_FAILURE() << ctx << ": register " << v << " bit " << bit << " clock " << clock
                                              << ": " << pmu_cosim_mismatches(b) << " mismatches, first "
                                              << (m ? m->reg : "(none)");
                        }
                    }
                }
            }
            EXPECT_EQ(missed, 0u) << ctx;
            pmu_destroy(b);
        }
    }
}

}  // namespace
