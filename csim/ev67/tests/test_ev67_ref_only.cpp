// test_ev67_ref_only.cpp - what only the Alpha 21264/EV67 reference model has: parameter
// validation, ev67_is_ref, the totals, overflows and requests, and the ProfileMe samples
// (include/csim/ev67/ev67_ref.h; docs/ev67.md, "What the reference model keeps").  The model
// is made with ev67_ref_new directly.
#include <memory>
#include <string>

#include "csim/ev67/ev67_ref.h"
#include "ev67_test_util.h"

using namespace ev67test;

namespace {

struct Destroy {
    void operator()(pmu_backend *b) const { pmu_destroy(b); }
};
using Model = std::unique_ptr<pmu_backend, Destroy>;

Model make(const ev67_params &p)
{
    pmu_err err;
    pmu_err_clear(&err);
    Model m(ev67_ref_new(&p, &err));
    EXPECT_TRUE(m) << err.msg;
    return m;
}

std::string refusal(const ev67_params &p)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev67_ref_new(&p, &err);
    if (b) {
        pmu_destroy(b);
        return "";
    }
    EXPECT_EQ(err.code, PMU_E_INPUT);
    return err.msg;
}

void step(pmu_backend *b, const ev67_cycle &c, unsigned n = 1)
{
    for (unsigned i = 0; i < n; i++)
        pmu_step(b, &c);
}

TEST(Ev67RefOnly, ParameterValidation)
{
    EXPECT_EQ(refusal(params()), "");
    ev67_params p = params();
    p.read_quirk = 2;
    EXPECT_NE(refusal(p).find("read_quirk"), std::string::npos);
    p = params();
    p.isum_race = 7;
    EXPECT_NE(refusal(p).find("isum_race"), std::string::npos);
    p = params();
    p.park_block = 3;
    EXPECT_NE(refusal(p).find("park_block"), std::string::npos);
    p = params();
    p.model = EV67_NMODELS;
    EXPECT_NE(refusal(p).find("model"), std::string::npos);
}

TEST(Ev67RefOnly, NullParamsAreTheDefaults)
{
    pmu_backend *b = ev67_ref_new(nullptr, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(ev67_is_ref(b));
    EXPECT_TRUE(pmu_has_total(b));
    EXPECT_EQ(b->nvis, unsigned(EV67_NVIS));
    EXPECT_EQ(b->model, unsigned(EV67_MODEL_21264_EV67));
    pmu_destroy(b);
    EXPECT_FALSE(ev67_is_ref(nullptr));
}

TEST(Ev67RefOnly, TotalsOverflowsRequests)
{
    Model m = make(params());
    pmu_backend *b = m.get();
    pmu_write(b, EV67_ADDR_I_CTL, i_ctl(1, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0xffff0, 0xffffc));
    step(b, Rec().retire_n(100, 11));
    step(b, Rec().retire_n(111, 11));
    step(b, Rec(), 4);
    // PCTR0: 8 + 8 + 6 = 22 retires, carry in step 2, REQ[0] in step 4; PCTR1: 6
    // cycles, carry in step 4, REQ[1] in step 6.
    EXPECT_EQ(ev67_ref_total(b, 0), 22u);
    EXPECT_EQ(pmu_total(b, 1), 6u);
    EXPECT_EQ(ev67_ref_overflows(b, 0), 1u);
    EXPECT_EQ(ev67_ref_overflows(b, 1), 1u);
    EXPECT_EQ(ev67_ref_requests(b, 0), 1u);
    EXPECT_EQ(ev67_ref_requests(b, 1), 1u);
    EXPECT_EQ(ev67_ref_total(b, 2), 0u);
    // A second overflow of PCTR1 with REQ[1] still set: an overflow, no new request.
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 0, 0, 0xffffc));
    step(b, Rec(), 8);
    EXPECT_EQ(ev67_ref_overflows(b, 1), 2u);
    EXPECT_EQ(ev67_ref_requests(b, 1), 1u);
    pmu_reset(b);
    EXPECT_EQ(ev67_ref_total(b, 0), 0u);
    EXPECT_EQ(ev67_ref_overflows(b, 1), 0u);
    EXPECT_EQ(b->cycle, 0u);
}

TEST(Ev67RefOnly, ProfileMeTotalsAndSample)
{
    Model m = make(params(1));
    pmu_backend *b = m.get();
    pmu_write(b, EV67_ADDR_I_CTL, i_ctl(1, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(1, 1, 0xffffe, 0));
    EXPECT_EQ(ev67_ref_nsamples(b), 0u);
    step(b, Rec().fetch(100, 4));                 // step 1: P = 101
    step(b, Rec().fetch(104, 4));                 // 2: OVR 6
    step(b, Rec(101), 4);                         // 3..6 (6: window, head = P)
    step(b, Rec(102).trap(101, EV67_TRAP_UNALIGNED).abort(101, 105)); // 7: E
    step(b, Rec(102), 2);                         // 8, 9 = end
    // PCTR0: 4 + 4 fetches, 4 window cycles (6..9); PCTR1: 1 inum-delay step (6).
    EXPECT_EQ(ev67_ref_total(b, 0), 12u);
    EXPECT_EQ(ev67_ref_total(b, 1), 1u);
    EXPECT_EQ(ev67_ref_overflows(b, 0), 0u); // ProfileMe counter-0 carries are no overflows
    EXPECT_EQ(ev67_ref_requests(b, 0), 1u);
    ASSERT_EQ(ev67_ref_nsamples(b), 1u);
    ev67_pm_sample s;
    ASSERT_EQ(ev67_ref_sample(b, 0, &s), 0);
    EXPECT_EQ(s.tag, 101u);
    EXPECT_EQ(s.fetch_step, 1u);
    EXPECT_EQ(s.open_step, 6u);
    EXPECT_EQ(s.end_step, 9u);
    EXPECT_EQ(s.end_kind, uint8_t(EV67_PM_END_TRAP));
    EXPECT_EQ(s.pmpc, kPc + 4 * 101);
    EXPECT_EQ(EV67_FGET(s.i_stat, I_STAT, TRAP_TYPE), unsigned(EV67_TRAP_UNALIGNED));
    EXPECT_EQ(EV67_FGET(s.i_stat, I_STAT, OVR), 6u);
    EXPECT_EQ(EV67_FGET(s.pctr_ctl, PCTR_CTL, PCTR0), 10u); // 2 + 4 + 4
    EXPECT_EQ(EV67_FGET(s.pctr_ctl, PCTR_CTL, PM_KILLED_BM), 0u); // 101 < kbm_first
    EXPECT_EQ(EV67_FGET(s.pctr_ctl, PCTR_CTL, VAL), 0u);
    EXPECT_EQ(ev67_ref_sample(b, 1, &s), -1);
}

TEST(Ev67RefOnly, SampleEndKinds)
{
    struct {
        Rec end;
        uint8_t flags;
        ev67_pm_end kind;
    } cases[] = {
        {Rec(102).retire({101}), 0, EV67_PM_END_RETIRE},
        {Rec(100).abort(100, 200), 0, EV67_PM_END_ABORT},
        {Rec(102).squash({101}), EV67_FF_SQUASH, EV67_PM_END_SQUASH},
        {Rec(101).trap(101, 0).abort(101, 101), 0, EV67_PM_END_TRAP},
    };
    for (auto &c : cases) {
        Model m = make(params());
        pmu_backend *b = m.get();
        pmu_write(b, EV67_ADDR_I_CTL, i_ctl(1, 0));
        pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(1, 0, 0xffffe, 0));
        step(b, Rec().add_fetch(100, 0).add_fetch(101, c.flags));
        step(b, c.end, 3); // E = 2, e = 4
        ev67_pm_sample s;
        ASSERT_EQ(ev67_ref_sample(b, 0, &s), 0);
        EXPECT_EQ(s.end_kind, uint8_t(c.kind));
        EXPECT_EQ(s.end_step, 4u);
    }
}

TEST(Ev67RefOnly, TagsWrapInTagOrder)
{
    // P is tag 0 after 0xffffffff; kbm_first = 1 (one past P) means P was mapped.
    Model m = make(params());
    pmu_backend *b = m.get();
    pmu_write(b, EV67_ADDR_I_CTL, i_ctl(1, 0));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(1, 0, 0xffffe, 0));
    step(b, Rec().add_fetch(0xffffffffu, 0).add_fetch(0, 0));
    step(b, Rec().abort(0xffffffffu, 1), 3);
    ev67_pm_sample s;
    ASSERT_EQ(ev67_ref_sample(b, 0, &s), 0);
    EXPECT_EQ(s.end_kind, uint8_t(EV67_PM_END_ABORT));
    EXPECT_EQ(EV67_FGET(s.pctr_ctl, PCTR_CTL, PM_KILLED_BM), 0u);
}

TEST(Ev67RefOnly, OutOfRangeRecordFieldsAreClamped)
{
    Model m = make(params());
    pmu_backend *b = m.get();
    pmu_write(b, EV67_ADDR_I_CTL, i_ctl(1, 1));
    pmu_write(b, EV67_ADDR_PCTR_CTL, pctr_ctl(0, 3, 0, 0));
    Rec r;
    r.c.nretire = 200; // read as 11
    r.c.mreplay = 9;   // counts 1
    step(b, r, 2);
    EXPECT_EQ(ev67_ref_total(b, 1), 2u);
    EXPECT_EQ(EV67_FGET(pmu_read(b, EV67_ADDR_OBS_AGG), OBS_AGG, BACKLOG), 6u);
    step(b, r, 5); // backlog would reach 21: saturates at 15
    EXPECT_EQ(EV67_FGET(pmu_read(b, EV67_ADDR_OBS_AGG), OBS_AGG, BACKLOG), 15u);
}

} // namespace
