// pmu_sc.h - a PMU family as a SystemC part (docs/systemc.md; C++, systemc/pmu_sc.cpp):
// its register port as a TLM-2.0 target socket, its performance-monitor interrupt as
// an sc_out<bool>, a clock input, and a record input that takes one cycle record (the
// family's dialect) per clock.  The part wraps any pmu_backend of the family
// (include/pmu_backend.h): the reference model, the Verilated RTL or the lock-step pair.
//
// Register accesses (b_transport), loosely timed:
//   - address = register-port address * 8; the family's register map
//     (pmu_family.regmap) says which addresses exist;
//   - 8-byte reads and writes only, host byte order;
//   - a misaligned or unmapped address: TLM_ADDRESS_ERROR_RESPONSE; a length or a
//     streaming width other than 8: TLM_BURST_ERROR_RESPONSE; byte enables:
//     TLM_BYTE_ENABLE_ERROR_RESPONSE; the PMU is not touched then;
//   - TLM_IGNORE_COMMAND: TLM_OK_RESPONSE, nothing done;
//   - a write is one clock of the PMU (docs/semantics.md); the access delay given at
//     construction is added to the annotated delay of every access.
// transport_dbg reads one register (8 bytes) without side effects and returns 8, or 0
// for anything else (other lengths, writes, unmapped addresses).
//
// Clocking: at each rising clock edge with a record waiting on `records`, the PMU steps
// it, `irq` takes the interrupt line after the clock (one delta later), and
// stepped_event() is notified.
// Without a waiting record the PMU does not step (its cycle count is records consumed).
#ifndef PMU_SC_H
#define PMU_SC_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "pmu_backend.h"
#include "pmu_family.h"

// One cycle record of a family's dialect, as raw bytes (pmu_dialect.record_size).
struct pmu_sc_record {
    std::vector<unsigned char> bytes;
    bool operator==(const pmu_sc_record &o) const { return bytes == o.bytes; }
};
std::ostream &operator<<(std::ostream &os, const pmu_sc_record &r);

class pmu_sc : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<pmu_sc> socket;
    sc_core::sc_in<bool> clk;
    sc_core::sc_out<bool> irq;
    sc_core::sc_fifo_in<pmu_sc_record> records;

    // b: a reset backend of family f (not owned; it must outlive the part).
    pmu_sc(sc_core::sc_module_name name, const pmu_family *f, pmu_backend *b,
           const sc_core::sc_time &access_delay);
    SC_HAS_PROCESS(pmu_sc);

    // Resets the PMU (before the simulation, or between runs of a test).
    void reset();

    const sc_core::sc_event &stepped_event() const { return stepped_; }
    pmu_backend *backend() const { return b_; }
    const pmu_family *family() const { return fam_; }
    // The state after the last clock (the interrupt line included).
    const pmu_state &state() const { return st_; }

private:
    void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
    unsigned int transport_dbg(tlm::tlm_generic_payload &t);
    void on_clock();
    void drive_line();
    // The register-port address of a transaction, or -1 (with the response set).
    int port_address(tlm::tlm_generic_payload &t) const;

    const pmu_family *fam_;
    pmu_backend *b_;
    sc_core::sc_time access_delay_;
    pmu_state st_;
    sc_core::sc_event stepped_;
    sc_core::sc_event line_; // the line may have changed: drive_line() updates irq
};

// The register-port address of a transaction on a part of family f (the rules above), or
// -1 when there is nothing to do: the response is set then (an error, or OK for
// TLM_IGNORE_COMMAND).  Shared with the lock-step checker, which answers as a part does.
int pmu_sc_decode(const pmu_family *f, tlm::tlm_generic_payload &t);

// A part that owns its model, made by the family's `Make` (pmu_family.ref_create or
// rtl_create): pmu_ref_sc is the family's reference model (csim/) as a part, pmu_rtl_sc its
// Verilated RTL (verilator/), so that a platform can use either.  create() returns NULL
// with err filled when the model cannot be made (e.g. an RTL variant not built).
template <pmu_backend *(*pmu_family::*Make)(unsigned, pmu_err *)>
class pmu_model_sc : public pmu_sc {
public:
    static pmu_model_sc *create(sc_core::sc_module_name name, const pmu_family *f, unsigned model,
                                const sc_core::sc_time &access_delay, pmu_err *err)
    {
        pmu_backend *b = (f->*Make)(model, err);
        return b ? new pmu_model_sc(name, f, b, access_delay) : nullptr;
    }
    ~pmu_model_sc() override { pmu_destroy(backend()); }

private:
    pmu_model_sc(sc_core::sc_module_name name, const pmu_family *f, pmu_backend *b,
                 const sc_core::sc_time &access_delay)
        : pmu_sc(name, f, b, access_delay)
    {
    }
};
using pmu_ref_sc = pmu_model_sc<&pmu_family::ref_create>;
using pmu_rtl_sc = pmu_model_sc<&pmu_family::rtl_create>;

#endif
