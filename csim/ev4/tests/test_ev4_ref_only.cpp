// test_ev4_ref_only.cpp - what only the Alpha 21064 reference model has: parameter
// validation, ev4_is_ref, and the exact totals, requests and overflows it keeps for the
// drivers' checks (include/csim/ev4/ev4_ref.h; docs/ev4.md, "What the reference model keeps
// besides the visible state").  The model is made with ev4_ref_new directly.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

#include "csim/ev4/ev4_ref.h"
#include "ev4_test_util.h"

using namespace ev4test;

namespace {

struct Destroy {
    void operator()(pmu_backend *b) const { pmu_destroy(b); }
};
using Model = std::unique_ptr<pmu_backend, Destroy>;

Model make(const ev4_params &p)
{
    pmu_err err;
    pmu_err_clear(&err);
    Model m(ev4_ref_new(&p, &err));
    EXPECT_TRUE(m) << err.msg;
    return m;
}

// The message ev4_ref_new gives for p (empty when it accepts p).
std::string refusal(const ev4_params &p)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_backend *b = ev4_ref_new(&p, &err);
    if (b) {
        pmu_destroy(b);
        return "";
    }
    EXPECT_EQ(err.code, PMU_E_INPUT);
    return err.msg;
}

void step_n(pmu_backend *b, const ev4_cycle &c, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        pmu_step(b, &c);
}

const ev4_cycle kDual = issue({EV4_CLASS_INTOP, EV4_CLASS_INTOP});
const ev4_cycle kSingle = issue({EV4_CLASS_INTOP});

uint64_t test_seed(uint64_t dflt)
{
    const char *s = std::getenv("EV4_TEST_SEED");
    return s ? std::strtoull(s, nullptr, 0) : dflt;
}

} // namespace

TEST(Ev4RefOnly, ParametersInRangeAreAccepted)
{
    for (ev4_model m : {EV4_MODEL_21064, EV4_MODEL_21064_PASS2})
        for (unsigned w0 : {16u, 24u, 32u})
            for (unsigned w1 : {12u, 20u, 32u})
                for (ev4_mux0_undef u : {EV4_UNDEF_NOTHING, EV4_UNDEF_ALIAS})
                    EXPECT_EQ(refusal(params(m, w0, w1, u)), "") << m << " " << w0 << " " << w1 << " " << u;
}

TEST(Ev4RefOnly, ParametersOutOfRangeAreRefusedByName)
{
    EXPECT_EQ(refusal(params(EV4_MODEL_21064, 15)),
              "ev4_ref_new: params.ctr0_width: expected 16..32 (the counter must hold its long "
              "period, 2^16), got 15");
    EXPECT_EQ(refusal(params(EV4_MODEL_21064, 33)),
              "ev4_ref_new: params.ctr0_width: expected 16..32 (the counter must hold its long "
              "period, 2^16), got 33");
    EXPECT_EQ(refusal(params(EV4_MODEL_21064, 16, 11)),
              "ev4_ref_new: params.ctr1_width: expected 12..32 (the counter must hold its long "
              "period, 2^12), got 11");
    EXPECT_EQ(refusal(params(EV4_MODEL_21064, 16, 64)),
              "ev4_ref_new: params.ctr1_width: expected 12..32 (the counter must hold its long "
              "period, 2^12), got 64");
    EXPECT_EQ(refusal(params(EV4_MODEL_21064, 16, 12, ev4_mux0_undef(2))),
              "ev4_ref_new: params.mux0_undef: expected 0 (count nothing) or 1 (alias to the even "
              "code), got 2");
    EXPECT_EQ(refusal(params(ev4_model(2))),
              "ev4_ref_new: params.model: expected 0 (21064) .. 1 (21064-pass2), got 2");
    EXPECT_EQ(refusal(params(ev4_model(-1))),
              "ev4_ref_new: params.model: expected 0 (21064) .. 1 (21064-pass2), got -1");
    // err may be NULL.
    ev4_params bad = params(EV4_MODEL_21064, 0);
    EXPECT_EQ(ev4_ref_new(&bad, nullptr), nullptr);
}

TEST(Ev4RefOnly, NullParametersAreThe21064Defaults)
{
    Model m(ev4_ref_new(nullptr, nullptr));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->model, unsigned(EV4_MODEL_21064));
    EXPECT_EQ(m->nvis, unsigned(EV4_NVIS));
    EXPECT_STREQ(m->name, "ref");
    // The default widths: counter 0 wraps at 2^16, counter 1 at 2^12.
    pmu_write(m.get(), EV4_ADDR_ICCSR, Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL).value());
    step_n(m.get(), kDual, 0x10001);
    EXPECT_EQ(pmu_read(m.get(), EV4_ADDR_CTR0), 1u);
    EXPECT_EQ(pmu_read(m.get(), EV4_ADDR_CTR1), 1u);
}

TEST(Ev4RefOnly, IsRefTellsTheModelFromAnotherBackend)
{
    Model m = make(params());
    EXPECT_TRUE(ev4_is_ref(m.get()));
    EXPECT_FALSE(ev4_is_ref(nullptr));
    // Another backend (here a copy of the model's header with other ops) is not one.
    pmu_backend_ops other = *m->ops;
    pmu_backend fake = *m;
    fake.ops = &other;
    EXPECT_FALSE(ev4_is_ref(&fake));
    EXPECT_EQ(ev4_ref_total(&fake, 0), 0u);
    EXPECT_EQ(ev4_ref_requests(&fake, 0), 0u);
    EXPECT_EQ(ev4_ref_overflows(&fake, 0), 0u);
    EXPECT_EQ(ev4_ref_total(nullptr, 0), 0u);
}

TEST(Ev4RefOnly, TotalsCountWholeEventsAndNeverWrap)
{
    Model m = make(params());
    pmu_backend *b = m.get();
    pmu_write(b, EV4_ADDR_ICCSR, Iccsr().with_mux0(EV4_MUX_PF_ISSUES).with_mux1(EV4_MUX_PF_DUAL).value());
    step_n(b, kSingle, 3); // 1.5 issues
    EXPECT_EQ(ev4_ref_total(b, 0), 1u);
    pmu_step(b, &kSingle);
    EXPECT_EQ(ev4_ref_total(b, 0), 2u);
    step_n(b, kDual, 70000); // past both widths
    EXPECT_EQ(ev4_ref_total(b, 0), 70002u);
    EXPECT_EQ(ev4_ref_total(b, 1), 70000u);
    EXPECT_EQ(pmu_total(b, 0), 70002u);
    EXPECT_EQ(pmu_total(b, 1), 70000u);
    EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR0), 70002u - 65536u);
    EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR1), 70000u % 4096u);
    EXPECT_EQ(ev4_ref_total(b, 2), 0u); // no counter 2
    EXPECT_EQ(pmu_total(b, 2), 0u);
    // A disabled counter's total does not move; reset clears every total.
    pmu_write(b, EV4_ADDR_ICCSR, Iccsr().with_mux0(EV4_MUX_PF_CYCLES).with_mux1(EV4_MUX_PF_DUAL).with_pme(0, 1).value());
    pmu_step(b, &kDual);
    EXPECT_EQ(ev4_ref_total(b, 0), 70002u);
    EXPECT_EQ(ev4_ref_total(b, 1), 70001u);
    pmu_reset(b);
    for (unsigned n = 0; n < 2; n++) {
        EXPECT_EQ(ev4_ref_total(b, n), 0u);
        EXPECT_EQ(ev4_ref_requests(b, n), 0u);
        EXPECT_EQ(ev4_ref_overflows(b, n), 0u);
    }
}

TEST(Ev4RefOnly, RequestsAndOverflows)
{
    Model m = make(params());
    pmu_backend *b = m.get();
    pmu_write(b, EV4_ADDR_ICCSR, only(1, EV4_MUX_PF_DUAL, 1).value()); // every 2^8
    step_n(b, kDual, 1024); // four crossings, the last three lost to the pending request
    EXPECT_EQ(ev4_ref_overflows(b, 1), 4u);
    EXPECT_EQ(ev4_ref_requests(b, 1), 1u);
    for (unsigned i = 0; i < 4; i++) { // served after every crossing: none lost
        pmu_write(b, EV4_ADDR_SL_CLR, sl_clr_only(1));
        step_n(b, kDual, 256);
    }
    EXPECT_EQ(ev4_ref_overflows(b, 1), 8u);
    EXPECT_EQ(ev4_ref_requests(b, 1), 5u);
    EXPECT_EQ(ev4_ref_overflows(b, 0), 0u);
    EXPECT_EQ(ev4_ref_requests(b, 0), 0u);
    EXPECT_EQ(ev4_ref_requests(b, 2), 0u);
    EXPECT_EQ(ev4_ref_overflows(b, 2), 0u);
}

// Records outside the stream's ranges (many misses in one cycle) still count exactly: each
// crossing is an overflow, a pending request loses the later ones.  (A record field holds
// at most 255 events, under the shortest period, so no step crosses twice.)
TEST(Ev4RefOnly, LargeIncrementsCountExactly)
{
    Model m = make(params());
    pmu_backend *b = m.get();
    pmu_write(b, EV4_ADDR_ICCSR, only(1, EV4_MUX_PF_DCACHE, 1).value()); // every 2^8
    ev4_cycle c = cycle();
    c.dmiss = 255;
    step_n(b, c, 5); // 1275 misses: crossings at 256, 512, 768, 1024
    EXPECT_EQ(ev4_ref_total(b, 1), 1275u);
    EXPECT_EQ(ev4_ref_overflows(b, 1), 4u);
    EXPECT_EQ(ev4_ref_requests(b, 1), 1u);
    EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR1), 1275u);
    // nissue above 2 counts as a dual issue.
    pmu_write(b, EV4_ADDR_ICCSR, only(0, EV4_MUX_PF_NONISSUES).value());
    ev4_cycle wide = kDual;
    wide.nissue = 7;
    pmu_step(b, &wide);
    EXPECT_EQ(pmu_read(b, EV4_ADDR_CTR0), 0u);
}

// Seeded random records and selections (EV4_TEST_SEED=n to replay): whatever was counted,
// the observation port shows total mod 2^width, the overflows are the multiples of the
// period the total passed, and the requests are the 0-to-1 edges of HIRR software saw.
TEST(Ev4RefOnly, RandomRunKeepsTheBooksStraight)
{
    const uint64_t seed = test_seed(4242);
    std::printf("Ev4RefOnly.RandomRunKeepsTheBooksStraight: seed %llu (EV4_TEST_SEED)\n",
                (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    for (unsigned run = 0; run < 8; run++) {
        const unsigned w0 = 16 + unsigned(rng() % 3), w1 = 12 + unsigned(rng() % 3);
        const ev4_params p = params(EV4_MODEL_21064, w0, w1, ev4_mux0_undef(rng() % 2));
        const unsigned pc0 = unsigned(rng() % 2), pc1 = unsigned(rng() % 2);
        const unsigned k[2] = {pc0 ? 12u : 16u, pc1 ? 8u : 12u}, w[2] = {w0, w1};
        SCOPED_TRACE("seed " + std::to_string(seed) + " run " + std::to_string(run));
        Model m = make(p);
        pmu_backend *b = m.get();
        uint64_t edges[2] = {0, 0};
        for (unsigned seg = 0; seg < 40; seg++) {
            pmu_write(b, EV4_ADDR_ICCSR,
                      Iccsr().with_mux0(unsigned(rng() % 16)).with_mux1(unsigned(rng() % 8))
                          .with_pc0(pc0).with_pc1(pc1).with_pme(unsigned(rng() % 4 != 0), unsigned(rng() % 4 != 0))
                          .value());
            for (unsigned i = 0; i < 2000; i++) {
                ev4_cycle c = cycle();
                c.nissue = uint8_t(rng() % 3);
                for (unsigned s = 0; s < c.nissue; s++)
                    c.cls[s] = uint8_t(rng() % EV4_NCLASSES);
                c.stall = c.nissue ? EV4_STALL_NONE : uint8_t(1 + rng() % 2);
                c.mode = uint8_t(rng() % 3);
                c.dmiss = uint8_t(rng() % 2);
                c.imiss = uint8_t(rng() % 2);
                c.mispredict = uint8_t(rng() % 2);
                c.pin0 = uint8_t(rng() % 2);
                c.pin1 = uint8_t(rng() % 2);
                const uint64_t before = pmu_read(b, EV4_ADDR_HIRR);
                pmu_step(b, &c);
                const uint64_t after = pmu_read(b, EV4_ADDR_HIRR);
                for (unsigned n = 0; n < 2; n++)
                    edges[n] += !(before & hirr_bit(n)) && (after & hirr_bit(n));
                if (rng() % 64 == 0)
                    pmu_write(b, EV4_ADDR_SL_CLR, rng() % 2 ? sl_clr_only(0) : sl_clr_only(1));
            }
        }
        for (unsigned n = 0; n < 2; n++) {
            SCOPED_TRACE("counter " + std::to_string(n));
            const uint64_t total = ev4_ref_total(b, n);
            const unsigned lsb = n ? EV4_F_CTR1_COUNT_LSB : EV4_F_CTR0_COUNT_LSB;
            const uint64_t shown = (pmu_read(b, n ? EV4_ADDR_CTR1 : EV4_ADDR_CTR0) >> lsb) &
                                   ((uint64_t(1) << w[n]) - 1);
            EXPECT_GT(total, 0u);
            EXPECT_EQ(shown, total & ((uint64_t(1) << w[n]) - 1));
            EXPECT_EQ(ev4_ref_overflows(b, n), total >> k[n]);
            EXPECT_EQ(ev4_ref_requests(b, n), edges[n]);
            EXPECT_LE(ev4_ref_requests(b, n), ev4_ref_overflows(b, n));
        }
    }
}
