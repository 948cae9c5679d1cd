// test_monitors.cpp - the monitor set-ups of the event-qualification seed,
// Figures 6-6 (single process), 6-7 (multiple processes) and 6-8 (system
// wide), run over one scripted workload of three processes with system calls,
// context switches and interruption handlers.  The expected counts are the
// figures' statements (which (process, level) cells are counted), tallied by
// the script, not computed by the model.
#include "ref_test_util.h"

#include <map>
#include <utility>

using namespace reftest;

namespace {

enum Level { USER, KERNEL, HANDLER };

struct ProcPsr {
    unsigned up, pp;
};

// Drives a model through the workload and tallies cycles per (process, level).
class Workload {
public:
    Workload(Ref &r, std::map<char, ProcPsr> psr, char first) : r_(r), psr_(std::move(psr)), cur_(first)
    {
        r_.write(psr_addr(), psr_value(psr_.at(first).up, psr_.at(first).pp));
    }

    // n cycles of process `proc` at `level` (USER: cpl 3, KERNEL: cpl 0).  A
    // change of process is a context switch: its first record loads the
    // process's PSR.up/pp (the OS restoring the process's PSR).
    void run(char proc, Level level, unsigned n)
    {
        for (unsigned i = 0; i < n; i++) {
            ita_cycle c = cycle_with({0, 0}, level == USER ? 3 : 0);
            c.pid = uint16_t(proc);
            if (i == 0 && resume_) {
                EXPECT_EQ(proc, cur_) << "script error: an rfi returns to the interrupted process";
                c.intr = ITA_INTR_RETURN;
                resume_ = false;
            } else if (i == 0 && proc != cur_) {
                c.up_we = c.pp_we = 1;
                c.up = uint8_t(psr_.at(proc).up);
                c.pp = uint8_t(psr_.at(proc).pp);
            }
            cur_ = proc;
            r_.step(c);
            tally_[{proc, level}]++;
        }
    }

    // An interruption handler of n cycles (cpl 0) interrupting the current
    // process; the next run() of that process begins with the rfi.
    void interrupt(unsigned n)
    {
        for (unsigned i = 0; i < n; i++) {
            ita_cycle c = cycle_with({0, 0}, 0);
            c.pid = uint16_t(cur_);
            if (i == 0)
                c.intr = ITA_INTR_ENTRY;
            r_.step(c);
            tally_[{cur_, HANDLER}]++;
        }
        resume_ = true;
    }

    unsigned cycles(char proc, Level level) const
    {
        auto it = tally_.find({proc, level});
        return it == tally_.end() ? 0 : it->second;
    }
    unsigned all_cycles() const
    {
        unsigned n = 0;
        for (const auto &kv : tally_)
            n += kv.second;
        return n;
    }

private:
    Ref &r_;
    std::map<char, ProcPsr> psr_;
    std::map<std::pair<char, Level>, unsigned> tally_;
    char cur_;
    bool resume_ = false;
};

// The same script for every figure.
void run_script(Workload &w)
{
    w.run('A', USER, 10);
    w.run('A', KERNEL, 5); // system call
    w.run('A', USER, 7);
    w.interrupt(4);
    w.run('A', USER, 3);
    w.run('A', KERNEL, 2);
    w.run('B', KERNEL, 3); // context switch A -> B
    w.run('B', USER, 9);
    w.interrupt(5);
    w.run('B', USER, 2);
    w.run('B', KERNEL, 4);
    w.interrupt(3); // interrupting kernel code
    w.run('B', KERNEL, 1);
    w.run('C', KERNEL, 2); // context switch B -> C
    w.run('C', USER, 11);
    w.interrupt(6);
    w.run('C', USER, 5);
    w.run('C', KERNEL, 3);
    w.run('A', KERNEL, 2); // context switch C -> A
    w.run('A', USER, 6);
    w.interrupt(2);
    w.run('A', USER, 1);
}

// Programs PMC4 (CPU_CYCLES) and PMC5 (IA64_INST_RETIRED, 2 per cycle) with
// the figure's pm and plm, and DCR.pp; unfreezes.
void setup(Ref &r, unsigned pm, unsigned plm, unsigned dcr_pp)
{
    r.write(pmc(0), 0);
    r.program(4, event_pmc(ITA_EV_CPU_CYCLES).with_pm(pm).with_plm(plm));
    r.program(5, event_pmc(ITA_EV_IA64_INST_RETIRED).with_pm(pm).with_plm(plm));
    r.write(dcr_addr(), dcr_pp);
}

void expect_counts(Ref &r, unsigned expected_cycles)
{
    EXPECT_EQ(r.read(pmd(4)), expected_cycles);
    EXPECT_EQ(r.read(pmd(5)), 2u * expected_cycles);
    EXPECT_EQ(r.total(4), expected_cycles);
}

} // namespace

class Monitors : public ModelTest {};
INSTANTIATE_BOTH_MODELS(Monitors);

// Figure 6-6: pm = 0, plm = 1000, DCR.pp = 0, PSR.up = 1 only in process A:
// only A's user-level code is counted.
TEST_P(Monitors, Figure6_6SingleProcess)
{
    Ref r(params(model()));
    setup(r, 0, 0x8, 0);
    Workload w(r, {{'A', {1, 0}}, {'B', {0, 0}}, {'C', {0, 0}}}, 'A');
    run_script(w);
    ASSERT_EQ(w.cycles('A', USER), 27u);
    expect_counts(r, w.cycles('A', USER));
}

// Figure 6-7: pm = 0, plm = 1001, DCR.pp = 0, PSR.up = 1 in processes A and
// B: their user and kernel code is counted, C's is not.  Interruption
// handlers run with the interrupted process's PSR.up (entry changes only
// PSR.pp), so handlers interrupting A or B count too: DCR.pp does not act
// on user monitors (ita-semantics.md step 1; see the csim report).
TEST_P(Monitors, Figure6_7MultipleProcesses)
{
    Ref r(params(model()));
    setup(r, 0, 0x9, 0);
    Workload w(r, {{'A', {1, 0}}, {'B', {1, 0}}, {'C', {0, 0}}}, 'A');
    run_script(w);
    const unsigned expect = w.cycles('A', USER) + w.cycles('A', KERNEL) + w.cycles('B', USER) +
                            w.cycles('B', KERNEL) + w.cycles('A', HANDLER) + w.cycles('B', HANDLER);
    ASSERT_EQ(w.cycles('C', USER) + w.cycles('C', KERNEL) + w.cycles('C', HANDLER), 27u);
    expect_counts(r, expect);
    EXPECT_EQ(r.read(pmd(4)), w.all_cycles() - 27u);
}

// Figure 6-8: pm = 1, plm = 1001, PSR.pp = 1, DCR.pp = 1: everything at
// levels 0 and 3 is counted, interruption handlers included.
TEST_P(Monitors, Figure6_8SystemWide)
{
    Ref r(params(model()));
    setup(r, 1, 0x9, 1);
    Workload w(r, {{'A', {0, 1}}, {'B', {0, 1}}, {'C', {0, 1}}}, 'A');
    run_script(w);
    expect_counts(r, w.all_cycles());
}

// System monitor with PSR.pp = 1 in A only: DCR.pp = 1 makes every handler
// count (PSR.pp <- DCR.pp on entry) and the rfi restores the interrupted
// process's pp; with DCR.pp = 0 handlers are not counted at all.
TEST_P(Monitors, SystemMonitorHandlersFollowDcrPp)
{
    for (unsigned dcr_pp = 0; dcr_pp <= 1; dcr_pp++) {
        Ref r(params(model()));
        setup(r, 1, 0x9, dcr_pp);
        Workload w(r, {{'A', {0, 1}}, {'B', {0, 0}}, {'C', {0, 0}}}, 'A');
        run_script(w);
        unsigned handlers = w.cycles('A', HANDLER) + w.cycles('B', HANDLER) + w.cycles('C', HANDLER);
        ASSERT_EQ(handlers, 20u);
        const unsigned expect = w.cycles('A', USER) + w.cycles('A', KERNEL) + (dcr_pp ? handlers : 0);
        SCOPED_TRACE("DCR.pp=" + std::to_string(dcr_pp));
        expect_counts(r, expect);
    }
}

// A user monitor and a system monitor side by side on the Figure 6-8 set-up
// with a user-only mask (plm = 1000): only user-level code counts.
TEST_P(Monitors, SystemWideUserLevelOnly)
{
    Ref r(params(model()));
    setup(r, 1, 0x8, 1);
    Workload w(r, {{'A', {1, 1}}, {'B', {1, 1}}, {'C', {1, 1}}}, 'A');
    r.program(6, event_pmc(ITA_EV_CPU_CYCLES).with_pm(0).with_plm(0x1)); // user monitor, kernel only
    run_script(w);
    expect_counts(r, w.cycles('A', USER) + w.cycles('B', USER) + w.cycles('C', USER));
    EXPECT_EQ(r.read(pmd(6)), w.cycles('A', KERNEL) + w.cycles('B', KERNEL) + w.cycles('C', KERNEL) +
                                  w.cycles('A', HANDLER) + w.cycles('B', HANDLER) + w.cycles('C', HANDLER));
}
