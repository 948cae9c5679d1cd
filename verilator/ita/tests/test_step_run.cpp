// test_step_run.cpp - a record stepped n times in one call (pmu_backend_ops.step_run, the
// Itanium reference model's closed form of a repeated record) leaves exactly what n calls
// of step leave: every visible register, the interrupt pulses at the same clocks, the
// exact totals and the cycle count.  Random configurations (events, thresholds, oi,
// counters near their wrap, the EARs and the BTB), random records with interruption
// entries and returns, and an overflow service that clears PMC0 at each pulse.  The same
// for a record's clocks after the first through step_again, compared after every clock.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/ita/ita_harness_util.h"
#include "harness/ita/ita_family.h"
#include "csim/ita/ita_ref.h"

using namespace harness_test;

namespace {

// One random register write that both models get: mostly counter configurations with known
// events, counters just below their wrap, PMC0, PSR/DCR, and any register with any value.
void random_write(Rng &r, ita_model m, pmu_backend *a, pmu_backend *b)
{
    const unsigned w = ita_counter_width(m);
    unsigned v = r.below(ITA_NVIS);
    uint64_t val = r.next();
    switch (r.below(7)) {
    case 0:
    case 1: {
        v = ITA_VIS_PMC4 + r.below(4);
        // Mostly events that random records make count; any event otherwise.
        static const char *const common[] = {"CPU_CYCLES", "IA64_INST_RETIRED", "LOADS_RETIRED",
                                             "INST_DISPERSED"};
        const ita_event_row *e = r.below(4) ? ita_event_find(m, common[r.below(4)]) : nullptr;
        const unsigned code = e ? e->code : ita_event_table[r.below(ITA_NEVENTS)].code;
        const unsigned umask = e ? e->umask : ita_event_table[r.below(ITA_NEVENTS)].umask;
        val = ITA_FSET(val, PMC_GEN, ES, code);
        val = ITA_FSET(val, PMC_GEN, UMASK, umask);
        val = ITA_FSET(val, PMC_GEN, PLM, r.below(2) ? 0xfu : r.below(16));
        val = ITA_FSET(val, PMC_GEN, ISM, r.below(3));
        val = ITA_FSET(val, PMC_GEN, THRES, r.below(3) == 0 ? r.below(4) : 0);
        break;
    }
    case 2:
    case 6:
        v = ITA_VIS_PMD4 + r.below(4);
        val = (UINT64_C(1) << w) - 1 - r.below(r.below(2) ? 64 : 5000);
        break;
    case 3:
        v = ITA_VIS_PMC0;
        val &= r.below(2) ? ~UINT64_C(1) : ~UINT64_C(0);
        break;
    case 4:
        v = r.below(2) ? ITA_VIS_PSR : ITA_VIS_DCR;
        break;
    default:
        break;
    }
    pmu_write(a, ita_vis_table[v].addr, val);
    pmu_write(b, ita_vis_table[v].addr, val);
}

std::string differences(pmu_backend *a, pmu_backend *b)
{
    pmu_state sa, sb;
    pmu_snapshot(a, &sa);
    pmu_snapshot(b, &sb);
    std::string d;
    for (unsigned v = 0; v < ITA_NVIS; v++)
        if (sa.reg[v] != sb.reg[v])
            d += std::string(" ") + ita_vis_table[v].name + " (" + std::to_string(sa.reg[v]) + " after the run, " +
                 std::to_string(sb.reg[v]) + " after the steps)";
    if (sa.pmi != sb.pmi)
        d += " pmi";
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
        if (pmu_total(a, k) != pmu_total(b, k))
            d += " total[" + std::to_string(k) + "]";
    if (a->cycle != b->cycle)
        d += " cycle";
    return d;
}

// Two references of one model, given the same random cases.
struct TwoRefs {
    pmu_backend *a, *b;
    explicit TwoRefs(ita_model m)
    {
        ita_params p = ita_params_default();
        p.model = m;
        a = ita_ref_create(&p);
        b = ita_ref_create(&p);
    }
    ~TwoRefs()
    {
        pmu_destroy(a);
        pmu_destroy(b);
    }
};

// A case: up to three random writes to both, then a random record, a third of them stalls.
ita_cycle random_case(Rng &r, ita_model m, pmu_backend *a, pmu_backend *b)
{
    const unsigned writes = r.below(4);
    for (unsigned j = 0; j < writes; j++)
        random_write(r, m, a, b);
    ita_cycle c = random_record(r);
    if (r.below(3) == 0)
        c.nslots = 0; // a stall
    return c;
}

TEST(StepRun, EqualsTheStepsItStandsFor)
{
    const uint64_t seed = 0x5be9;
    for (ita_model m : {ITA_MODEL_ITANIUM2, ITA_MODEL_ITANIUM}) {
        TwoRefs two(m);
        pmu_backend *run = two.a, *steps = two.b;
        ASSERT_NE(run->ops->step_run, nullptr);
        Rng r(seed + m);
        unsigned early = 0, skipped = 0;
        for (unsigned i = 0; i < 2500; i++) {
            const ita_cycle c = random_case(r, m, run, steps);
            const unsigned n = r.below(4) == 0 ? 1 + r.below(3) : 1 + r.below(r.below(8) == 0 ? 200000 : 3000);
            // The steps: the clocks at which the line rose, the service clearing PMC0 there.
            std::vector<uint64_t> pulses;
            for (unsigned k = 0; k < n; k++) {
                pmu_step(steps, &c);
                if (pmu_pmi(steps)) {
                    pulses.push_back(steps->cycle);
                    pmu_write(steps, ita_vis_table[ITA_VIS_PMC0].addr, 0);
                }
            }
            // The run: it stops at a clock that raises the line.
            std::vector<uint64_t> run_pulses;
            for (unsigned left = n; left;) {
                const unsigned done = run->ops->step_run(run, &c, left);
                ASSERT_GE(done, 1u);
                ASSERT_LE(done, left);
                if (done < left)
                    early++;
                skipped += done > 1;
                left -= done;
                if (pmu_pmi(run)) {
                    run_pulses.push_back(run->cycle);
                    pmu_write(run, ita_vis_table[ITA_VIS_PMC0].addr, 0);
                } else {
                    ASSERT_EQ(left, 0u) << "returned early without the line up, record " << i;
                }
            }
            ASSERT_EQ(run_pulses, pulses) << "model " << m << " record " << i << " n " << n;
            const std::string d = differences(run, steps);
            ASSERT_EQ(d, "") << "model " << m << " record " << i << " n " << n << " (seed " << seed << ")";
        }
        // The random mix reaches the interesting paths.
        EXPECT_GE(early, 5u) << "runs stopped by an interrupt";
        EXPECT_GT(skipped, 500u) << "runs that stepped more than one clock at once";
    }
}

// A record's clocks after the first through step_again (pmu_backend_ops.step_again, what a
// lock-step pair's run gives the reference) leave, after every clock, what as many steps
// leave: the pair compares the two models clock by clock.  A clock that raises the line
// ends the run, as in the pair: the service clears PMC0 and the next clock is a step.
TEST(StepAgain, EqualsTheStepsItStandsForAfterEveryClock)
{
    const uint64_t seed = 0xa9a1;
    for (ita_model m : {ITA_MODEL_ITANIUM2, ITA_MODEL_ITANIUM}) {
        TwoRefs two(m);
        pmu_backend *again = two.a, *steps = two.b;
        ASSERT_NE(again->ops->step_again, nullptr);
        Rng r(seed + m);
        unsigned pulses = 0;
        for (unsigned i = 0; i < 2500; i++) {
            const ita_cycle c = random_case(r, m, again, steps);
            const unsigned n = 1 + r.below(r.below(8) == 0 ? 3000 : 60);
            bool first = true;
            for (unsigned k = 0; k < n; k++) {
                if (first)
                    pmu_step(again, &c);
                else
                    again->ops->step_again(again, &c);
                first = false;
                pmu_step(steps, &c);
                const std::string d = differences(again, steps);
                ASSERT_EQ(d, "") << "model " << m << " record " << i << " clock " << k << " of " << n
                                 << " (seed " << seed << ")";
                if (pmu_pmi(steps)) {
                    pulses++;
                    pmu_write(again, ita_vis_table[ITA_VIS_PMC0].addr, 0);
                    pmu_write(steps, ita_vis_table[ITA_VIS_PMC0].addr, 0);
                    first = true;
                }
            }
        }
        EXPECT_GE(pulses, 5u) << "runs ended by an interrupt";
    }
}

}  // namespace
