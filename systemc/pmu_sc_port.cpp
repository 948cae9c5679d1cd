// pmu_sc_port.cpp - software's register access through a TLM socket (pmu_sc_port.h).
#include "pmu_sc_port.h"

#include <cstring>
#include <string>

namespace
{

struct sc_port_backend {
    pmu_backend base; // first: the C code holds a pmu_backend *
    pmu_sc_initiator *sock;
    pmu_sc *part;
    sc_core::sc_time *delay;
};

sc_port_backend *self(pmu_backend *b) { return reinterpret_cast<sc_port_backend *>(b); }

uint64_t transact(pmu_backend *b, tlm::tlm_command cmd, uint16_t addr, uint64_t v)
{
    sc_port_backend *p = self(b);
    p->base.cycle = p->part->backend()->cycle; // records the part has stepped
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
    (*p->sock)->b_transport(t, d);
    if (p->delay)
        *p->delay += d;
    if (t.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE)
        return 0; // an address outside the map reads 0 and ignores writes, as on the port
    if (t.is_response_error()) {
        std::string what =
            "register access at port address " + std::to_string(addr) + ": " + t.get_response_string();
        SC_REPORT_ERROR("pmu_sc_port", what.c_str());
    }
    std::memcpy(&v, data, 8);
    return v;
}

void port_write(pmu_backend *b, uint16_t a, uint64_t v) { transact(b, tlm::TLM_WRITE_COMMAND, a, v); }
uint64_t port_read(pmu_backend *b, uint16_t a) { return transact(b, tlm::TLM_READ_COMMAND, a, 0); }

void port_snapshot(pmu_backend *b, pmu_state *s)
{
    sc_port_backend *p = self(b);
    const pmu_family *f = p->part->family();
    std::memset(s, 0, sizeof *s);
    for (unsigned v = 0; v < f->nvis; v++) {
        unsigned char data[8];
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(8ull * f->vis[v].addr);
        t.set_data_ptr(data);
        t.set_data_length(8);
        if ((*p->sock)->transport_dbg(t) == 8)
            std::memcpy(&s->reg[v], data, 8);
    }
    s->pmi = p->part->state().pmi;
    p->base.cycle = p->part->backend()->cycle;
}

void port_not_software(pmu_backend *b)
{
    (void)b;
    SC_REPORT_ERROR("pmu_sc_port", "reset is not a register access: the platform resets the part");
}

void port_no_step(pmu_backend *b, const void *record)
{
    (void)b, (void)record;
    SC_REPORT_ERROR("pmu_sc_port", "records reach the part through its record input, not the software");
}

uint64_t port_total(pmu_backend *b, unsigned ctr) { return pmu_total(self(b)->part->backend(), ctr); }

void port_destroy(pmu_backend *b) { delete self(b); }

const pmu_backend_ops port_ops = {
    port_not_software, port_write, port_read, port_no_step, port_snapshot,
    port_destroy,      port_total, nullptr,   nullptr,
};
// For a part whose backend keeps no exact totals (the RTL alone): neither does the port.
const pmu_backend_ops port_ops_no_total = {
    port_not_software, port_write, port_read, port_no_step, port_snapshot,
    port_destroy,      nullptr,    nullptr,   nullptr,
};

} // namespace

pmu_backend *pmu_sc_port_new(pmu_sc_initiator &sock, pmu_sc &part, sc_core::sc_time *delay)
{
    sc_port_backend *p = new sc_port_backend;
    pmu_backend *inner = part.backend();
    p->base = pmu_backend{pmu_has_total(inner) ? &port_ops : &port_ops_no_total, "tlm", inner->model,
                          inner->nvis, inner->cycle};
    p->sock = &sock;
    p->part = &part;
    p->delay = delay;
    return &p->base;
}
