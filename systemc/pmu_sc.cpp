// pmu_sc.cpp - a PMU family as a SystemC part (sc/pmu_sc.h, docs/systemc.md).
#include "sc/pmu_sc.h"

#include <cstring>

#include "common/pmu_dialect.h"

std::ostream &operator<<(std::ostream &os, const pmu_sc_record &r)
{
    return os << "pmu_sc_record(" << r.bytes.size() << " bytes)";
}

pmu_sc::pmu_sc(sc_core::sc_module_name name, const pmu_family *f, pmu_backend *b,
               const sc_core::sc_time &access_delay, clocking c)
    : sc_core::sc_module(name), socket("socket"), clk("clk"), irq("irq"), records("records"), fam_(f), b_(b),
      clocking_(c), access_delay_(access_delay)
{
    socket.register_b_transport(this, &pmu_sc::b_transport);
    socket.register_transport_dbg(this, &pmu_sc::transport_dbg);
    std::memset(&st_, 0, sizeof st_);
    if (b_)
        pmu_snapshot(b_, &st_);
    if (c == clocking::kImmediate) {
        SC_METHOD(on_clock);
        sensitive << clk.pos();
        dont_initialize();
    } else {
        SC_THREAD(step_thread);
    }
    SC_METHOD(drive_line);
    sensitive << line_;
}

// The one driver of irq: the line after the last clock (a step, or a write).
void pmu_sc::drive_line()
{
    line_driven_ = st_.pmi != 0;
    irq.write(line_driven_);
}

// After a clock: irq follows the line one delta later, with an event only when it changes.
void pmu_sc::line_after_clock()
{
    const bool up = st_.pmi != 0;
    if (up != line_driven_) {
        line_driven_ = up;
        line_.notify(sc_core::SC_ZERO_TIME);
    }
}

void pmu_sc::set_decoupled(bool on) { decoupled_ = on; }

// Holds the model for one operation (a kInSystemC model only).
class pmu_sc::model_guard {
public:
    explicit model_guard(pmu_sc &p) : p_(p)
    {
        if (p_.clocking_ == clocking::kInSystemC)
            p_.model_lock_.lock();
    }
    ~model_guard()
    {
        if (p_.clocking_ == clocking::kInSystemC)
            p_.model_lock_.unlock();
    }

private:
    pmu_sc &p_;
};

void pmu_sc::attach(pmu_backend *b)
{
    b_ = b;
    pmu_snapshot(b_, &st_);
}

void pmu_sc::reset()
{
    if (clocking_ == clocking::kInSystemC && !sc_core::sc_is_running())
        return; // step_thread resets it first thing
    model_guard hold(*this);
    pmu_reset(b_);
    pmu_snapshot(b_, &st_);
    line_after_clock();
}

static int address_of(const pmu_family *f, tlm::tlm_generic_payload &t)
{
    uint64_t a = t.get_address();
    if (a % 8 != 0 || a / 8 > UINT16_MAX || !pmu_family_reg_of_addr(f, (uint16_t)(a / 8))) {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return -1;
    }
    return (int)(a / 8);
}

int pmu_sc::port_address(tlm::tlm_generic_payload &t) const { return address_of(fam_, t); }

int pmu_sc_decode(const pmu_family *f, tlm::tlm_generic_payload &t)
{
    if (t.get_command() == tlm::TLM_IGNORE_COMMAND) {
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        return -1;
    }
    if (t.get_byte_enable_ptr()) {
        t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return -1;
    }
    if (t.get_data_length() != 8 || t.get_streaming_width() != 8) {
        t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return -1;
    }
    return address_of(f, t);
}

void pmu_sc::b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay)
{
    delay += access_delay_;
    int addr = pmu_sc_decode(fam_, t);
    if (addr < 0)
        return;
    uint64_t v;
    model_guard hold(*this);
    if (t.get_command() == tlm::TLM_WRITE_COMMAND) {
        std::memcpy(&v, t.get_data_ptr(), 8);
        pmu_write(b_, (uint16_t)addr, v);
        pmu_snapshot(b_, &st_); // a write is a clock: the line is low after it
        line_after_clock();
    } else {
        v = pmu_read(b_, (uint16_t)addr);
        std::memcpy(t.get_data_ptr(), &v, 8);
    }
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int pmu_sc::transport_dbg(tlm::tlm_generic_payload &t)
{
    if (t.get_command() != tlm::TLM_READ_COMMAND || t.get_data_length() != 8 || t.get_byte_enable_ptr())
        return 0;
    int addr = port_address(t);
    if (addr < 0)
        return 0;
    uint64_t v;
    if (clocking_ == clocking::kInSystemC) { // no waiting here: the state of the last clock
        int vis = pmu_family_vis_of_addr(fam_, (uint16_t)addr);
        if (vis < 0)
            return 0;
        v = st_.reg[vis];
    } else { // a read is combinational and takes no clock (docs/ita-semantics.md)
        v = pmu_read(b_, (uint16_t)addr);
    }
    std::memcpy(t.get_data_ptr(), &v, 8);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return 8;
}

void pmu_sc::on_clock()
{
    pmu_sc_record r;
    if (!records.nb_read(r))
        return;
    if (r.bytes.size() != fam_->dialect->record_size) {
        SC_REPORT_ERROR(name(), "a record of the wrong size for the family's dialect");
        return;
    }
    pmu_step(b_, r.bytes.data());
    pmu_snapshot(b_, &st_);
    line_after_clock();
    stepped_.notify(sc_core::SC_ZERO_TIME);
}

void pmu_sc::step_record(const void *record)
{
    {
        model_guard hold(*this);
        pmu_step(b_, record);
        pmu_snapshot(b_, &st_);
    }
    line_after_clock();
}


void pmu_sc::step_thread()
{
    reset();
    for (;;) {
        pmu_sc_record r = records.read();
        if (r.bytes.size() != fam_->dialect->record_size) {
            SC_REPORT_ERROR(name(), "a record of the wrong size for the family's dialect");
            continue;
        }
        {
            model_guard hold(*this);
            pmu_step(b_, r.bytes.data()); // on the pins now, clocked at the next rising edge
            pmu_snapshot(b_, &st_);
        }
        line_after_clock();
        stepped_.notify(sc_core::SC_ZERO_TIME);
    }
}
