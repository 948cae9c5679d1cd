// pmu_sc_port.h - the register-access shim that lets the project's C software (sw/, and
// the harness's services) reach a PMU part only through a TLM initiator socket
// (docs/systemc.md).  It is a pmu_backend (include/pmu_backend.h), so the software runs
// unchanged: write() and read() become 8-byte b_transport calls, snapshot() reads the
// visible registers through the debug transport and the line from the part's irq
// signal, total() asks the part's own backend (the checker's channel: exact totals are
// not registers).  step() and reset() are not the software's: they report an error.
#ifndef PMU_SC_PORT_H
#define PMU_SC_PORT_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "pmu_backend.h"
#include "pmu_family.h"
#include "pmu_sc.h"

using pmu_sc_initiator = tlm_utils::simple_initiator_socket<sc_core::sc_module>;

// A backend for software on `sock`, which is bound to `part`; the part's access delays
// are accumulated in *delay (may be NULL).  Free with pmu_destroy().
pmu_backend *pmu_sc_port_new(pmu_sc_initiator &sock, pmu_sc &part, sc_core::sc_time *delay);

#endif
