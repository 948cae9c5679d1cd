// sc/pmu_sc_cpu.h - the CPU stand-in of the SystemC platform (docs/systemc.md): an initiator
// whose thread runs the project's software (an overflow service, a driver) and executes
// the player's records, reaching the PMU only through its socket, its record output and
// its interrupt input.
//
// The software holds port() (a pmu_sc_port, include/sc/pmu_sc_port.h): its register
// accesses are b_transport calls on `socket`; stepping a record there retires it:
//   - the software's accumulated access delay is spent first, in whole clocks with no
//     record (the PMU does not count them), counted from the falling edge the thread
//     resumed at (an access that waited for a clock edge spent part of them), the
//     remainder carried to the next record;
//   - the record is written to `retire` at a falling clock edge, the PMU takes it at the
//     next rising edge, and the thread resumes at the falling edge after it, when the
//     PMU's state and `irq` have settled.
// The thread runs the program given to run() from the first falling edge, then stops
// the simulation.
//
// Loosely timed (loosely_timed(), a quantum above 1 clock): the processor runs ahead of
// SystemC time with a quantum keeper (tlm_utils::tlm_quantumkeeper): each record is handed
// to a step function (the part's or the checker's step_record) in the processor's thread,
// the access delay and each record's clock are added to its local time, and it waits for
// SystemC time only when the local time reaches the quantum (and when a waveform starts or
// stops, and at the end), so the simulated time and every count are the clock-by-clock
// run's.  The interrupt line the software sees is line() (a method call on the part), in
// both modes.
#ifndef PMU_SC_CPU_H
#define PMU_SC_CPU_H

#include <systemc>

#include <functional>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "common/pmu_backend.h"
#include "common/pmu_family.h"
#include "sc/pmu_sc.h"
#include "sc/pmu_sc_player.h"
#include "sc/pmu_sc_port.h"

class pmu_sc_cpu : public sc_core::sc_module {
public:
    pmu_sc_initiator socket;
    sc_core::sc_in<bool> clk;
    sc_core::sc_in<bool> irq;
    sc_core::sc_port<pmu_sc_fetch_if> fetch;
    sc_core::sc_fifo_out<pmu_sc_record> retire;
    // What it did, for waveforms: records retired, register accesses made, and the port
    // address of the last access.
    sc_core::sc_signal<uint64_t> retired_count, access_count;
    sc_core::sc_signal<uint32_t> access_addr;

    // behind: what the socket reaches, for exact totals, lock-step checks and records
    // stepped (the lock-step checker's pair, or the part's backend); not owned.
    pmu_sc_cpu(sc_core::sc_module_name name, const pmu_family *f, pmu_backend *behind,
               const sc_core::sc_time &clock_period);
    ~pmu_sc_cpu() override;
    SC_HAS_PROCESS(pmu_sc_cpu);

    pmu_backend *port() const { return port_; }
    // The program of the thread (set before sc_start).
    void run(std::function<void()> program) { program_ = std::move(program); }
    // The interrupt line the software sees after each record (set before sc_start): a
    // method call on the part whose irq drives `irq`.
    void line(std::function<bool()> f) { line_ = std::move(f); }
    // Loosely timed with a quantum of `quantum` clocks (> 1; set before sc_start; the
    // global quantum, tlm_global_quantum, is set here): records go to step(), not to
    // `retire`, and the thread starts at the first falling edge's time without a clock.
    void loosely_timed(unsigned quantum, std::function<void(const void *)> step);
    // Called when the software starts (true) or stops (false) a waveform.
    void on_trace(std::function<void(bool)> f) { on_trace_ = std::move(f); }
    // Its signals and its interrupt input into a trace file.
    void trace(sc_core::sc_trace_file *tf) const;
    // Clocks spent on register accesses (clocks with no record).
    uint64_t access_clocks() const { return access_clocks_; }

private:
    void thread();
    void retire_record(const void *rec);
    void sync(); // loosely timed: SystemC time catches up with the local time

    const pmu_family *fam_;
    pmu_backend *behind_;
    sc_core::sc_time period_;
    pmu_backend *port_;
    std::function<void()> program_;
    std::function<void(bool)> on_trace_;
    uint64_t retired_ = 0, accesses_ = 0;
    sc_core::sc_time pending_; // access delay not yet spent
    sc_core::sc_time resumed_;  // clock by clock: the falling edge the thread last resumed at
    std::function<bool()> line_;
    std::function<void(const void *)> step_; // loosely timed: where records go
    tlm_utils::tlm_quantumkeeper qk_;
    bool in_thread_ = false; // the program is running in the thread (sync() may wait)
    uint64_t access_clocks_ = 0;
};

#endif
