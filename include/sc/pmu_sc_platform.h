// sc/pmu_sc_platform.h - the SystemC platform that `pmusim-sc run` and `make sim-sc` run
// (docs/systemc.md):
//
//   player --fetch--> cpu --socket/records--> checker --> reference part (pmu_ref_sc)
//                      ^                              --> RTL part (pmu_rtl_sc)
//                      +-- irq <-- the reference part's line (the RTL's with --backend rtl)
//
// with --backend ref or rtl, the CPU's socket and records go straight to the one part.
// The clock is 1 ns, one cycle record per clock; every register access is annotated
// with one clock.  The platform is `run`'s engine (include/cli/pmu_cli.h): the same
// configuration, software, reports and files as `pmusim run`, so the two print the same
// counts and, with --traffic, log the same register traffic.
#ifndef PMU_SC_PLATFORM_H
#define PMU_SC_PLATFORM_H

#include "cli/pmu_cli.h"

// The engine; SystemC elaborates once per process, so it runs once.
const pmu_run_engine *pmu_sc_run_engine();

#endif
