// test_qualification.cpp - ita-semantics.md steps 1 and 2: the CPU state update
// (interruption entry / return, up/pp writes by records) and the per-counter
// enable (freeze, plm, ism, pm with PSR.up / PSR.pp).
#include "ref_test_util.h"

using namespace reftest;

class Qualification : public ModelTest {};
INSTANTIATE_BOTH_MODELS(Qualification);

TEST_P(Qualification, PlmSelectsPrivilegeLevels)
{
    Ref r(params(model()));
    r.start();
    for (unsigned plm = 0; plm < 16; plm++) {
        r.program(4, event_pmc(ITA_EV_CPU_CYCLES).with_plm(plm));
        for (unsigned cpl = 0; cpl < 4; cpl++) {
            unsigned expect = (plm >> cpl) & 1;
            EXPECT_EQ(r.delta(4, cycle(cpl)), expect) << "plm=" << plm << " cpl=" << cpl;
        }
    }
}

TEST_P(Qualification, IsmSelectsInstructionSets)
{
    Ref r(params(model()));
    r.start();
    struct {
        unsigned ism, ia64, ia32;
        const char *what;
    } const rows[] = {
        {0, 1, 1, "both"},
        {2, 1, 0, "IA-64 only (bit 25 set excludes IA-32)"},
        {1, 0, 1, "IA-32 only (bit 24 set excludes IA-64)"},
        {3, 0, 0, "none"},
    };
    for (const auto &row : rows) {
        r.program(5, event_pmc(ITA_EV_IA64_INST_RETIRED).with_ism(row.ism));
        ita_cycle c = cycle_with({0, 0});
        c.is = 0;
        EXPECT_EQ(r.delta(5, c), 2u * row.ia64) << row.what << ", IA-64 cycle";
        c.is = 1;
        EXPECT_EQ(r.delta(5, c), 2u * row.ia32) << row.what << ", IA-32 cycle";
    }
}

TEST_P(Qualification, PmChoosesPsrUpOrPsrPp)
{
    Ref r(params(model()));
    r.write(pmc(0), 0);
    for (unsigned pm = 0; pm <= 1; pm++) {
        r.program(6, event_pmc(ITA_EV_CPU_CYCLES).with_pm(pm));
        for (unsigned up = 0; up <= 1; up++)
            for (unsigned pp = 0; pp <= 1; pp++) {
                r.write(psr_addr(), psr_value(up, pp));
                unsigned expect = pm ? pp : up;
                EXPECT_EQ(r.delta(6, cycle()), expect) << "pm=" << pm << " up=" << up << " pp=" << pp;
                EXPECT_EQ(r.read(psr_addr()), psr_value(up, pp)) << "a plain step keeps PSR";
            }
    }
}

TEST_P(Qualification, FrozenCountersNeverCount)
{
    Ref r(params(model()));
    // Reset state is frozen: configure everything but leave fr = 1.
    r.write(psr_addr(), psr_value(1, 1));
    for (unsigned i = 4; i <= 7; i++)
        r.program(i, event_pmc(ITA_EV_IA64_INST_RETIRED));
    r.step_n(cycle_with({0, 0, 0, 0, 0, 0}), 50);
    for (unsigned i = 4; i <= 7; i++) {
        EXPECT_EQ(r.read(pmd(i)), 0u);
        EXPECT_EQ(r.total(i), 0u);
    }
    // Frozen by software with overflow bits set: still nothing counts, and the
    // CPU state still follows the records.
    r.write(pmc(0), fr_bit() | ovf_bit(4));
    ita_cycle c = cycle_with({0, 0});
    c.up_we = 1;
    c.up = 0;
    r.step(c);
    EXPECT_EQ(r.read(psr_addr()), psr_value(0, 1));
    for (unsigned i = 4; i <= 7; i++)
        EXPECT_EQ(r.read(pmd(i)), 0u);
    EXPECT_EQ(r.read(pmc(0)), fr_bit() | ovf_bit(4));
    // Unfreeze: counting resumes at once.
    r.write(pmc(0), 0);
    r.write(psr_addr(), psr_value(1, 0));
    c.up_we = 0;
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 2u);
}

TEST_P(Qualification, RecordUpWriteCountsInTheSameCycle)
{
    Ref r(params(model()));
    r.write(pmc(0), 0);
    r.program(4, event_pmc(ITA_EV_CPU_CYCLES)); // pm = 0: PSR.up
    ita_cycle sum = cycle();
    sum.up_we = 1;
    sum.up = 1;
    EXPECT_EQ(r.delta(4, sum), 1u) << "sum psr.up counts in its own cycle";
    EXPECT_EQ(r.read(psr_addr()), psr_value(1, 0));
    EXPECT_EQ(r.delta(4, cycle()), 1u);
    ita_cycle rum = cycle();
    rum.up_we = 1;
    rum.up = 0;
    EXPECT_EQ(r.delta(4, rum), 0u) << "rum psr.up does not count in its own cycle";
    EXPECT_EQ(r.read(psr_addr()), psr_value(0, 0));
    EXPECT_EQ(r.delta(4, cycle()), 0u);
}

TEST_P(Qualification, RecordPpWriteCountsInTheSameCycle)
{
    Ref r(params(model()));
    r.write(pmc(0), 0);
    r.program(4, event_pmc(ITA_EV_CPU_CYCLES).with_pm(1).with_plm(1)); // cpl 0 only
    ita_cycle ssm = cycle(0);
    ssm.pp_we = 1;
    ssm.pp = 1;
    EXPECT_EQ(r.delta(4, ssm), 1u);
    EXPECT_EQ(r.read(psr_addr()), psr_value(0, 1));
    ita_cycle rsm = cycle(0);
    rsm.pp_we = 1;
    rsm.pp = 0;
    EXPECT_EQ(r.delta(4, rsm), 0u);
    EXPECT_EQ(r.read(psr_addr()), psr_value(0, 0));
}

TEST_P(Qualification, InterruptionEntryCopiesDcrPpAndSavesPsr)
{
    for (unsigned dcr_pp = 0; dcr_pp <= 1; dcr_pp++)
        for (unsigned up = 0; up <= 1; up++)
            for (unsigned pp = 0; pp <= 1; pp++) {
                Ref r(params(model()));
                r.write(pmc(0), 0);
                r.program(4, event_pmc(ITA_EV_CPU_CYCLES).with_pm(1)); // system monitor
                r.program(5, event_pmc(ITA_EV_CPU_CYCLES).with_pm(0)); // user monitor
                r.write(dcr_addr(), dcr_pp);
                r.write(psr_addr(), psr_value(up, pp));
                r.write(ipsr_addr(), psr_value(1 - up, 1 - pp)); // overwritten by entry

                ita_cycle entry = cycle(0);
                entry.intr = ITA_INTR_ENTRY;
                r.step(entry);
                std::string ctx = "DCR.pp=" + std::to_string(dcr_pp) + " up=" + std::to_string(up) +
                                  " pp=" + std::to_string(pp);
                EXPECT_EQ(r.read(ipsr_addr()), psr_value(up, pp)) << ctx;
                EXPECT_EQ(r.read(psr_addr()), psr_value(up, dcr_pp)) << ctx << ": PSR.up unchanged";
                EXPECT_EQ(r.read(pmd(4)), dcr_pp) << ctx << ": the entry cycle runs with pp = DCR.pp";
                EXPECT_EQ(r.read(pmd(5)), up) << ctx;

                // Handler body, then rfi.
                r.step_n(cycle(0), 3);
                ita_cycle ret = cycle(3);
                ret.intr = ITA_INTR_RETURN;
                r.step(ret);
                EXPECT_EQ(r.read(psr_addr()), psr_value(up, pp)) << ctx << ": rfi restores up/pp";
                EXPECT_EQ(r.read(ipsr_addr()), psr_value(up, pp)) << ctx << ": rfi keeps IPSR";
                EXPECT_EQ(r.read(pmd(4)), 4 * dcr_pp + pp) << ctx << ": return cycle counts with pp restored";
                EXPECT_EQ(r.read(pmd(5)), 5 * up) << ctx;
            }
}

TEST_P(Qualification, RecordWritesApplyAfterEntryAndReturn)
{
    Ref r(params(model()));
    r.write(pmc(0), 0);
    r.program(4, event_pmc(ITA_EV_CPU_CYCLES).with_pm(1));
    r.write(dcr_addr(), 0);
    r.write(psr_addr(), psr_value(1, 1));

    // Entry with ssm psr.pp in the same record: IPSR keeps the old bits, the
    // write wins over DCR.pp.
    ita_cycle entry = cycle(0);
    entry.intr = ITA_INTR_ENTRY;
    entry.pp_we = 1;
    entry.pp = 1;
    entry.up_we = 1;
    entry.up = 0;
    r.step(entry);
    EXPECT_EQ(r.read(ipsr_addr()), psr_value(1, 1));
    EXPECT_EQ(r.read(psr_addr()), psr_value(0, 1));
    EXPECT_EQ(r.read(pmd(4)), 1u);

    // Return with rsm psr.pp in the same record: the write wins over IPSR.
    ita_cycle ret = cycle(3);
    ret.intr = ITA_INTR_RETURN;
    ret.pp_we = 1;
    ret.pp = 0;
    r.step(ret);
    EXPECT_EQ(r.read(psr_addr()), psr_value(1, 0));
    EXPECT_EQ(r.read(pmd(4)), 1u);
}

TEST_P(Qualification, AllConditionsTogether)
{
    // One counter, each condition broken in turn.
    Ref r(params(model()));
    r.start();
    // LOADS_RETIRED counts on PMC7 on both models.
    r.program(7, event_pmc(ITA_EV_LOADS_RETIRED, model()).with_plm(8).with_ism(2).with_pm(0));
    ita_cycle good = cycle_with({ITA_SF_LOAD_MASK, ITA_SF_LOAD_MASK}, 3);
    EXPECT_EQ(r.delta(7, good), 2u);
    ita_cycle c = good;
    c.cpl = 0;
    EXPECT_EQ(r.delta(7, c), 0u) << "plm";
    c = good;
    c.is = 1;
    EXPECT_EQ(r.delta(7, c), 0u) << "ism";
    c = good;
    c.up_we = 1;
    c.up = 0;
    EXPECT_EQ(r.delta(7, c), 0u) << "PSR.up";
    r.write(psr_addr(), psr_value(1, 0));
    r.write(pmc(0), fr_bit());
    EXPECT_EQ(r.delta(7, good), 0u) << "fr";
    r.write(pmc(0), 0);
    EXPECT_EQ(r.delta(7, good), 2u);
}
