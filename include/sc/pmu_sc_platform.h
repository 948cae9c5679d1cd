// sc/pmu_sc_platform.h - the SystemC platform that `pmusim-sc run` and `make sim-sc` run
// (docs/systemc.md):
//
//   player --fetch--> cpu --socket/records--> checker --> reference part (pmu_ref_sc)
//                      ^                              --> RTL part (pmu_rtl_sc)
//                      +-- irq <-- the reference part's line (the RTL's with --backend rtl)
//
// with --backend ref or rtl, the CPU's socket and records go straight to the one part.
// The clock is 1 ns, one cycle record per clock; every register access is annotated
// with one clock.  With a quantum of 1 clock the platform runs clock by clock (the CPU
// hands each record over at a falling edge, the parts step it at the rising edge); with
// a larger quantum it runs loosely timed, without a clock: the CPU's quantum keeper
// (include/sc/pmu_sc_cpu.h) hands records to the parts by method calls and syncs with
// SystemC time once a quantum.  The results are the same (docs/systemc.md, "The quantum").  The platform is `run`'s engine (include/cli/pmu_cli.h): the same
// configuration, software, reports and files as `pmusim run`, so the two print the same
// counts and, with --traffic, log the same register traffic.
#ifndef PMU_SC_PLATFORM_H
#define PMU_SC_PLATFORM_H

#include "cli/pmu_cli.h"

// The quantum of `pmusim-sc run` without --quantum, in clocks.
#define PMU_SC_DEFAULT_QUANTUM 1000u
// The largest --quantum (one second of simulated time).
#define PMU_SC_MAX_QUANTUM 1000000000u

// The engine with a quantum of `quantum` clocks (>= 1); SystemC elaborates once per
// process, so it runs once.
const pmu_run_engine *pmu_sc_run_engine(unsigned quantum);

#endif
