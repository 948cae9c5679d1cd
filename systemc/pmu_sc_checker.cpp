// pmu_sc_checker.cpp - the SystemC lock-step checker (sc/pmu_sc_checker.h).
//
// The comparison and the report are the C harness's (verilator/harness/cosim.c): the checker's
// pair is a pmu_cosim over two "side" backends, each of which reaches one part through an
// initiator socket for register traffic and takes the part's state after its clock.
// Stepping a side checks that its part took the record at the clock.
#include "sc/pmu_sc_checker.h"

#include <cstring>
#include <string>

namespace
{

struct side {
    pmu_backend base; // first: the pair holds a pmu_backend *
    pmu_sc_initiator *sock;
    pmu_sc *part;
    sc_core::sc_time **delay; // where this side's access delay is added (NULL: nowhere)
};

side *me(pmu_backend *b) { return reinterpret_cast<side *>(b); }

uint64_t transact(pmu_backend *b, tlm::tlm_command cmd, uint16_t addr, uint64_t v)
{
    side *s = me(b);
    unsigned char data[8];
    std::memcpy(data, &v, 8);
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(8ull * addr);
    t.set_data_ptr(data);
    t.set_data_length(8);
    t.set_streaming_width(8);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*s->sock)->b_transport(t, d);
    if (s->delay && *s->delay)
        **s->delay += d;
    if (t.is_response_error()) {
        std::string what = std::string("register access at port address ") + std::to_string(addr) + ": " +
                           t.get_response_string();
        SC_REPORT_ERROR(s->part->name(), what.c_str());
    }
    std::memcpy(&v, data, 8);
    return v;
}

void side_reset(pmu_backend *b) { me(b)->part->reset(), b->cycle = 0; }
void side_write(pmu_backend *b, uint16_t a, uint64_t v) { transact(b, tlm::TLM_WRITE_COMMAND, a, v); }
uint64_t side_read(pmu_backend *b, uint16_t a) { return transact(b, tlm::TLM_READ_COMMAND, a, 0); }
void side_step(pmu_backend *b, const void *record)
{
    (void)record; // the part stepped it at the clock
    side *s = me(b);
    b->cycle++;
    if (s->part->backend()->cycle != b->cycle)
        SC_REPORT_ERROR(s->part->name(), "the part did not step the record at the clock");
}
void side_snapshot(pmu_backend *b, pmu_state *st) { *st = me(b)->part->state(); }
// The part's state after its last clock, where the part keeps it: the pair compares the
// two in place (pmu_backend_ops.visible).
const void *side_visible(pmu_backend *b, const uint8_t **pmi_line)
{
    const pmu_state &st = me(b)->part->state();
    *pmi_line = &st.pmi;
    return st.reg;
}
void side_destroy(pmu_backend *b) { delete me(b); }
uint64_t side_total(pmu_backend *b, unsigned ctr) { return pmu_total(me(b)->part->backend(), ctr); }
int side_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    return pmu_trace_open(me(b)->part->backend(), path, err);
}
int side_trace_close(pmu_backend *b, pmu_err *err) { return pmu_trace_close(me(b)->part->backend(), err); }
pmu_backend *side_reference(pmu_backend *b) { return pmu_reference(me(b)->part->backend()); }

const pmu_backend_ops side_ops = [] {
    pmu_backend_ops o{};
    o.reset = side_reset;
    o.write = side_write;
    o.read = side_read;
    o.step = side_step;
    o.snapshot = side_snapshot;
    o.visible = side_visible;
    o.destroy = side_destroy;
    o.total = side_total;
    o.trace_open = side_trace_open;
    o.trace_close = side_trace_close;
    o.reference = side_reference;
    return o;
}();

pmu_backend *side_new(pmu_sc_initiator &sock, pmu_sc &part, sc_core::sc_time **delay)
{
    side *s = new side;
    const pmu_backend *b = part.backend();
    s->base = pmu_backend{&side_ops, b->name, b->model, b->nvis, 0};
    s->sock = &sock;
    s->part = &part;
    s->delay = delay;
    return &s->base;
}

} // namespace

pmu_sc_checker::pmu_sc_checker(sc_core::sc_module_name name, pmu_sc &ref, pmu_sc &rtl,
                               pmu_cosim_where_fn where, void *where_ctx)
    : sc_core::sc_module(name), socket("socket"), ref_socket("ref_socket"), rtl_socket("rtl_socket"),
      records("records"), ref_records("ref_records"), rtl_records("rtl_records"), ref_(ref), rtl_(rtl)
{
    socket.register_b_transport(this, &pmu_sc_checker::b_transport);
    socket.register_transport_dbg(this, &pmu_sc_checker::transport_dbg);
    // The reference side's access delay is the one annotated (the parts work in parallel).
    pmu_backend *r = side_new(ref_socket, ref, &delay_);
    pmu_backend *t = side_new(rtl_socket, rtl, nullptr);
    pair_ = pmu_cosim_create(ref.family(), r, t, where, where_ctx);
    if (!pair_) {
        pmu_destroy(r);
        pmu_destroy(t);
        SC_REPORT_FATAL(this->name(), "the reference and the RTL part are not of one family and model");
    }
    SC_THREAD(forward);
}

pmu_sc_checker::~pmu_sc_checker() { pmu_destroy(pair_); }

void pmu_sc_checker::b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay)
{
    int addr = pmu_sc_decode(ref_.family(), t);
    if (addr < 0) { // refused (or ignored) by a part: neither is touched
        (ref_socket)->b_transport(t, delay);
        return;
    }
    delay_ = &delay;
    uint64_t v;
    if (t.get_command() == tlm::TLM_WRITE_COMMAND) {
        std::memcpy(&v, t.get_data_ptr(), 8);
        pmu_write(pair_, (uint16_t)addr, v);
    } else {
        v = pmu_read(pair_, (uint16_t)addr);
        std::memcpy(t.get_data_ptr(), &v, 8);
    }
    delay_ = nullptr;
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int pmu_sc_checker::transport_dbg(tlm::tlm_generic_payload &t) { return ref_socket->transport_dbg(t); }

void pmu_sc_checker::step_record(const void *record)
{
    ref_.step_record(record);
    rtl_.step_record(record);
    pmu_step(pair_, record);
}

void pmu_sc_checker::forward()
{
    // The pair compared the parts when it was made, before the simulation; a part clocked
    // in SystemC time resets only when it starts (in delta cycles, before any record or
    // register access).  The run starts here: both reset, compared, no mismatch so far.
    pmu_reset(pair_);
    for (;;) {
        pmu_sc_record r = records.read();
        ref_records.write(r);
        rtl_records.write(r);
        // Both parts step at the same edge; compare once both have.
        wait(ref_.stepped_event() & rtl_.stepped_event());
        pmu_step(pair_, r.bytes.data());
    }
}
