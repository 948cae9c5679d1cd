// pmu_sc_port.cpp - software's register access through a TLM socket (sc/pmu_sc_port.h).
#include "sc/pmu_sc_port.h"

#include <cstring>
#include <string>

#include "harness/pmu_cosim.h"

namespace
{

struct sc_port_backend {
    pmu_backend base; // first: the C code holds a pmu_backend *
    pmu_backend_ops ops;
    pmu_sc_initiator *sock;
    pmu_sc_port_env env;
};

sc_port_backend *self(pmu_backend *b) { return reinterpret_cast<sc_port_backend *>(b); }
const sc_port_backend *self(const pmu_backend *b) { return reinterpret_cast<const sc_port_backend *>(b); }

void payload(tlm::tlm_generic_payload &t, tlm::tlm_command cmd, uint16_t addr, unsigned char *data)
{
    t.set_command(cmd);
    t.set_address(8ull * addr);
    t.set_data_ptr(data);
    t.set_data_length(8);
    t.set_streaming_width(8);
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

uint64_t transact(pmu_backend *b, tlm::tlm_command cmd, uint16_t addr, uint64_t v)
{
    sc_port_backend *p = self(b);
    p->base.cycle = p->env.behind->cycle; // records the PMU has stepped
    unsigned char data[8];
    std::memcpy(data, &v, 8);
    tlm::tlm_generic_payload t;
    payload(t, cmd, addr, data);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*p->sock)->b_transport(t, d);
    if (p->env.delay)
        *p->env.delay += d;
    if (t.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE)
        return 0; // an address outside the map reads 0 and ignores writes, as on the port
    if (t.is_response_error()) {
        std::string what =
            "register access at port address " + std::to_string(addr) + ": " + t.get_response_string();
        SC_REPORT_ERROR("pmu_sc_port", what.c_str());
    }
    std::memcpy(&v, data, 8);
    if (p->env.on_access)
        p->env.on_access(addr, cmd == tlm::TLM_WRITE_COMMAND, v);
    return v;
}

void port_write(pmu_backend *b, uint16_t a, uint64_t v) { transact(b, tlm::TLM_WRITE_COMMAND, a, v); }
uint64_t port_read(pmu_backend *b, uint16_t a) { return transact(b, tlm::TLM_READ_COMMAND, a, 0); }

void port_snapshot(pmu_backend *b, pmu_state *s)
{
    sc_port_backend *p = self(b);
    const pmu_family *f = p->env.fam;
    std::memset(s, 0, sizeof *s);
    for (unsigned v = 0; v < f->nvis; v++) {
        unsigned char data[8];
        tlm::tlm_generic_payload t;
        payload(t, tlm::TLM_READ_COMMAND, f->vis[v].addr, data);
        if ((*p->sock)->transport_dbg(t) == 8)
            std::memcpy(&s->reg[v], data, 8);
    }
    s->pmi = p->env.line() ? 1 : 0;
    p->base.cycle = p->env.behind->cycle;
}

// The line alone, as snapshot() gives it: the run loop asks it after every record.
uint8_t port_pmi(pmu_backend *b) { return self(b)->env.line() ? 1 : 0; }

void port_not_software(pmu_backend *b)
{
    (void)b;
    SC_REPORT_ERROR("pmu_sc_port", "reset is not a register access: the platform resets the part");
}

void port_step(pmu_backend *b, const void *record)
{
    sc_port_backend *p = self(b);
    if (!p->env.retire) {
        SC_REPORT_ERROR("pmu_sc_port", "records reach the part through its record input, not the software");
        return;
    }
    p->env.retire(record);
    p->base.cycle = p->env.behind->cycle;
}

uint64_t port_total(pmu_backend *b, unsigned ctr) { return pmu_total(self(b)->env.behind, ctr); }
int port_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    sc_port_backend *p = self(b);
    if (pmu_trace_open(p->env.behind, path, err))
        return -1;
    if (p->env.on_trace)
        p->env.on_trace(true);
    return 0;
}
int port_trace_close(pmu_backend *b, pmu_err *err)
{
    sc_port_backend *p = self(b);
    const int rc = pmu_trace_close(p->env.behind, err);
    if (p->env.on_trace)
        p->env.on_trace(false);
    return rc;
}
pmu_backend *port_reference(pmu_backend *b) { return pmu_reference(self(b)->env.behind); }
uint64_t port_mismatches(const pmu_backend *b) { return pmu_cosim_mismatches(self(b)->env.behind); }

void port_destroy(pmu_backend *b) { delete self(b); }

} // namespace

pmu_backend *pmu_sc_port_new(pmu_sc_initiator &sock, const pmu_sc_port_env &env)
{
    sc_port_backend *p = new sc_port_backend;
    const pmu_backend *inner = env.behind;
    // The optional operations stay optional: the software asks whether the PMU has them.
    p->ops = pmu_backend_ops{};
    p->ops.reset = port_not_software;
    p->ops.write = port_write;
    p->ops.read = port_read;
    p->ops.step = port_step;
    p->ops.snapshot = port_snapshot;
    p->ops.destroy = port_destroy;
    p->ops.total = pmu_has_total(inner) ? port_total : nullptr;
    p->ops.trace_open = pmu_has_trace(inner) ? port_trace_open : nullptr;
    p->ops.trace_close = pmu_has_trace(inner) ? port_trace_close : nullptr;
    p->ops.reference = port_reference;
    p->ops.mismatches = port_mismatches;
    p->ops.pmi = port_pmi;
    // The name of the backend behind it, as the traffic log's wrapper keeps it: what the
    // software's checks ran against (pmu_cosim_say_exact says "alone" for "rtl" and "ref").
    p->base = pmu_backend{&p->ops, inner->name, inner->model, env.fam->nvis, inner->cycle};
    p->sock = &sock;
    p->env = env;
    return &p->base;
}

pmu_backend *pmu_sc_port_new(pmu_sc_initiator &sock, pmu_sc &part, sc_core::sc_time *delay)
{
    pmu_sc_port_env env;
    env.fam = part.family();
    env.behind = part.backend();
    env.line = [&part] { return part.state().pmi != 0; };
    env.delay = delay;
    return pmu_sc_port_new(sock, env);
}
