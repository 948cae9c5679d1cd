// sc/pmu_sc.h - a PMU family as a SystemC part (docs/systemc.md; C++, systemc/pmu_sc.cpp):
// its register port as a TLM-2.0 target socket, its performance-monitor interrupt as
// an sc_out<bool>, a clock input, and a record input that takes one cycle record (the
// family's dialect) per clock.  The part wraps any pmu_backend of the family
// (include/common/pmu_backend.h): the reference model, the Verilated RTL or the lock-step pair.
//
// Register accesses (b_transport), loosely timed:
//   - address = register-port address * 8; the family's register map
//     (pmu_family.regmap) says which addresses exist;
//   - 8-byte reads and writes only, host byte order;
//   - a misaligned or unmapped address: TLM_ADDRESS_ERROR_RESPONSE; a length or a
//     streaming width other than 8: TLM_BURST_ERROR_RESPONSE; byte enables:
//     TLM_BYTE_ENABLE_ERROR_RESPONSE; the PMU is not touched then;
//   - TLM_IGNORE_COMMAND: TLM_OK_RESPONSE, nothing done;
//   - a write is one clock of the PMU (docs/ita-semantics.md); the access delay given at
//     construction is added to the annotated delay of every access.
// transport_dbg reads one register (8 bytes) without side effects and returns 8, or 0
// for anything else (other lengths, writes, unmapped addresses).
//
// Clocking: at each rising clock edge with a record waiting on `records`, the PMU steps
// it, `irq` takes the interrupt line after the clock (one delta later, and only when it
// changes), and stepped_event() is notified.  step_record() steps one without the clock.
// Without a waiting record the PMU does not step (its cycle count is records consumed).
// Write a record before the time of the edge that is to take it (at the falling edge, as
// the CPU stand-in does): a part clocked in SystemC time (below) puts it on the RTL's pins
// in delta cycles and takes it at the next rising edge, as a register would.
#ifndef PMU_SC_H
#define PMU_SC_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "common/pmu_backend.h"
#include "common/pmu_family.h"

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

    // How the backend clocks: kImmediate, a model whose every operation is done when the
    // call returns (the reference model, a --cc Verilated model): records are stepped by
    // a method at the rising edge.  kInSystemC, a model clocked in SystemC time whose
    // operations wait for the platform clock (a top Verilated with --sc,
    // include/sc/pmu_vsc_glue.h): the part resets it when the simulation starts and steps
    // records from a thread (a record is put on its pins when it arrives and taken at the
    // next rising edge); its debug transport reads the visible registers as the last
    // clock left them (other addresses: refused); its register accesses wait.
    enum class clocking { kImmediate, kInSystemC };

    // b: a reset backend of family f (not owned; it must outlive the part).
    pmu_sc(sc_core::sc_module_name name, const pmu_family *f, pmu_backend *b,
           const sc_core::sc_time &access_delay, clocking c = clocking::kImmediate);
    SC_HAS_PROCESS(pmu_sc);

    // Resets the PMU (before the simulation, or between runs of a test; a kInSystemC
    // model only from a thread during the simulation, or before it: at its start).
    void reset();

    // Steps one record now, in the caller's thread, without the clock and without the
    // record input: the loosely timed path of a caller that keeps its own time (a quantum
    // keeper, docs/systemc.md "The quantum").  The state and the line are the record's
    // clock's when it returns (a kInSystemC model takes a delta cycle; call it from a
    // thread then, and decouple the part first); irq follows one delta later, as at a
    // clock; stepped_event() is not notified.
    void step_record(const void *record);
    // Decoupled, a kInSystemC model's clocks do not wait for the rising edges of clk (its
    // caller is ahead of SystemC time); set before the simulation starts.
    void set_decoupled(bool on);

    const sc_core::sc_event &stepped_event() const { return stepped_; }
    pmu_backend *backend() const { return b_; }
    const pmu_family *family() const { return fam_; }
    // The state after the last clock (the interrupt line included).
    const pmu_state &state() const { return st_; }

protected:
    // For a part that makes its backend after the module exists (b was NULL).
    void attach(pmu_backend *b);
    bool decoupled_ = false; // set_decoupled

private:
    void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
    unsigned int transport_dbg(tlm::tlm_generic_payload &t);
    void on_clock();
    void step_thread();
    void drive_line();
    void line_after_clock();
    // The register-port address of a transaction, or -1 (with the response set).
    int port_address(tlm::tlm_generic_payload &t) const;

    // A kInSystemC model is clocked by one thread at a time: the part's (reset, records)
    // or an initiator's (register accesses); the first holder is the reset at the start.
    class model_guard;

    const pmu_family *fam_;
    pmu_backend *b_;
    clocking clocking_;
    sc_core::sc_mutex model_lock_;
    sc_core::sc_time access_delay_;
    pmu_state st_;
    sc_core::sc_event stepped_;
    sc_core::sc_event line_; // the line changed: drive_line() updates irq
    bool line_driven_ = false; // what drive_line() was last asked to put on irq
};

// The register-port address of a transaction on a part of family f (the rules above), or
// -1 when there is nothing to do: the response is set then (an error, or OK for
// TLM_IGNORE_COMMAND).  Shared with the lock-step checker, which answers as a part does.
int pmu_sc_decode(const pmu_family *f, tlm::tlm_generic_payload &t);

// A part that owns its model, made by the family's `Make` (pmu_family.ref_create or
// rtl_create): pmu_ref_sc is the family's reference model (csim/) as a part, pmu_rtl_cc_sc
// the RTL Verilated with --cc that the C harness runs.  create() returns NULL with err
// filled when the model cannot be made (e.g. an RTL variant not built).
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
using pmu_rtl_cc_sc = pmu_model_sc<&pmu_family::rtl_create>;

// The family's RTL top Verilated with --sc, inside the part: a SystemC module with the
// top's pins, clocked in SystemC time (clocking::kInSystemC), driven by the family's own
// record-to-pin code (include/sc/pmu_vsc_glue.h, systemc/<family>/rtl_sc.cpp).  Its backend
// has no exact totals; its waveform is the --sc model's FST.  create() returns NULL with
// err filled (PMU_E_UNSUPPORTED) when the family's model has no --sc variant.
class pmu_rtl_sc : public pmu_sc {
public:
    static pmu_rtl_sc *create(sc_core::sc_module_name name, const pmu_family *f, unsigned model,
                              const sc_core::sc_time &access_delay, pmu_err *err);
    // Whether the family's model has a --sc variant (then create() makes it).
    static bool available(const pmu_family *f, unsigned model);
    ~pmu_rtl_sc() override;

private:
    pmu_rtl_sc(sc_core::sc_module_name name, const pmu_family *f, unsigned model,
               const sc_core::sc_time &access_delay, pmu_err *err);
};

#endif
