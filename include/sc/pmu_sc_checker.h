// sc/pmu_sc_checker.h - the lock-step checker of the SystemC platform (docs/systemc.md): it
// stands between the processor and two parts of one family (the reference model and the
// RTL), feeds both the same records and the same register traffic, and compares them
// after every clock with the C harness's checker (include/harness/pmu_cosim.h), so that a
// mismatch is reported exactly as `pmusim run` reports it.
//
//   - socket (target): a write goes to both parts (one clock each) and their states are
//     compared; a read goes to both and the values are compared, the reference's
//     returned; a transaction a part would refuse gets the part's error response and
//     reaches neither; the debug transport reads the reference.
//   - records: each record goes to both parts' record inputs; after both have stepped it
//     the states (every visible register and the interrupt line) are compared.
//   - pair(): the checker as a backend (a pmu_cosim pair whose two sides are the parts,
//     reached through their sockets): its mismatches, its first report, the reference's
//     exact totals, the RTL's waveform.  It keeps checking after a mismatch; the
//     processor's run loop asks it when to stop.
#ifndef PMU_SC_CHECKER_H
#define PMU_SC_CHECKER_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "harness/pmu_cosim.h"
#include "sc/pmu_sc.h"
#include "sc/pmu_sc_port.h"

class pmu_sc_checker : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<pmu_sc_checker> socket;
    pmu_sc_initiator ref_socket, rtl_socket;
    sc_core::sc_fifo_in<pmu_sc_record> records;
    sc_core::sc_fifo_out<pmu_sc_record> ref_records, rtl_records;

    // ref, rtl: the two parts (their sockets and record inputs are bound to this
    // checker's); `where` names the record just stepped in reports (may be NULL).
    pmu_sc_checker(sc_core::sc_module_name name, pmu_sc &ref, pmu_sc &rtl, pmu_cosim_where_fn where,
                   void *where_ctx);
    ~pmu_sc_checker() override;
    SC_HAS_PROCESS(pmu_sc_checker);

    pmu_backend *pair() const { return pair_; }
    // One record to both parts now, by method calls (pmu_sc::step_record, the quantum
    // keeper's path: no record input, no clock), and the states compared after it, as
    // `records` does at the clock.
    void step_record(const void *record);

private:
    void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
    unsigned int transport_dbg(tlm::tlm_generic_payload &t);
    void forward();

    pmu_sc &ref_, &rtl_;
    pmu_backend *pair_;
    sc_core::sc_time *delay_ = nullptr; // the current transaction's annotation
};

#endif
