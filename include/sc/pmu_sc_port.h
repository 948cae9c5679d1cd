// sc/pmu_sc_port.h - the register-access shim that lets the project's C software (sw/, and
// the harness's services) reach a PMU only through a TLM initiator socket
// (docs/systemc.md).  It is a pmu_backend (include/common/pmu_backend.h), so the software runs
// unchanged:
//   - write() and read() are 8-byte b_transport calls, their annotated delays summed;
//   - snapshot() reads the visible registers through the debug transport and the
//     interrupt line as the software's processor sees it; pmu_pmi() asks the line alone;
//   - step() hands a record to the processor's record path (the CPU stand-in,
//     sc/pmu_sc_cpu.h), for a run loop in the processor's thread; without one it is an error;
//   - total(), reference(), mismatches() and the waveform ask the backend behind the
//     socket (a checker's channel: exact totals and lock-step checks are not registers);
//   - reset() is the platform's, not the software's: an error.
#ifndef PMU_SC_PORT_H
#define PMU_SC_PORT_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>

#include "common/pmu_backend.h"
#include "common/pmu_family.h"
#include "sc/pmu_sc.h"

using pmu_sc_initiator = tlm_utils::simple_initiator_socket<sc_core::sc_module>;

// What a port reaches besides its socket.
struct pmu_sc_port_env {
    const pmu_family *fam = nullptr;
    pmu_backend *behind = nullptr;            // totals, checks, waveform, records stepped
    std::function<bool()> line;               // the interrupt line the software sees
    std::function<void(const void *)> retire; // one record through the processor (may be empty)
    sc_core::sc_time *delay = nullptr;        // the access delays are added here (may be NULL)
    // Optional observers: each register access (after it), and the waveform starting
    // (true) or stopping (false) with the software's pmu_trace_open/close.
    std::function<void(uint16_t addr, bool write, uint64_t value)> on_access;
    std::function<void(bool)> on_trace;
};

// A backend for software on `sock`.  Free with pmu_destroy().
pmu_backend *pmu_sc_port_new(pmu_sc_initiator &sock, const pmu_sc_port_env &env);
// The same for a socket bound straight to `part`: its backend behind, its line.
pmu_backend *pmu_sc_port_new(pmu_sc_initiator &sock, pmu_sc &part, sc_core::sc_time *delay);

#endif
