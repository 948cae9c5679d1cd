// test_pmu_sc.cpp - the SystemC part of every family (include/sc/pmu_sc.h) through its TLM
// socket: every register of the register map read and written through TLM with the
// model's masks applied (the same values as the model driven directly), each error
// response leaving the PMU untouched, the debug transport without side effects, the
// annotated delay, and records stepped at the clock with the interrupt line following
// the model's, clock for clock.
//
// SystemC wants sc_main and allows elaboration once: sc_main builds one bench with a
// part per family (on the reference model) and runs the tests from a thread of it.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/pmu_dialect.h"
#include "common/pmu_family.h"
#include "cli/pmu_family_cmds.h"
#include "cli/pmu_cli.h"
#include "harness/pmu_cosim.h"
#include "sc/pmu_sc.h"
#include "sc/pmu_sc_checker.h"
#include "sc/pmu_sc_port.h"
#include "stream/pmu_stream.h"

namespace
{

const sc_core::sc_time kDelay(3, sc_core::SC_NS);

struct Part {
    const pmu_family *fam = nullptr;
    pmu_backend *b = nullptr;      // behind the part
    pmu_backend *mirror = nullptr; // the same model driven directly
    std::unique_ptr<pmu_sc> sc;
    std::unique_ptr<tlm_utils::simple_initiator_socket<sc_core::sc_module>> sock;
    std::unique_ptr<sc_core::sc_signal<bool>> irq;
    std::unique_ptr<sc_core::sc_fifo<pmu_sc_record>> fifo;
};

// A model that disagrees on purpose (test code only): the reference model with one bit
// of one visible register flipped from a given cycle on in its state, or of every value
// its read port returns for a register of the map.  Lock-step checkers must report it.
struct Faulty {
    pmu_backend base; // first: a pmu_backend * is a Faulty *
    pmu_backend *inner;
    const pmu_family *fam;
    unsigned vis = 0, bit = 0;
    uint64_t from = UINT64_MAX; // the first cycle that disagrees (UINT64_MAX: none)
    bool in_reads = false;      // the read port disagrees, the state does not

    static Faulty *of(pmu_backend *b) { return reinterpret_cast<Faulty *>(b); }
    bool on() const { return inner->cycle >= from; }
    static void reset(pmu_backend *b) { pmu_reset(of(b)->inner), b->cycle = 0; }
    static void write(pmu_backend *b, uint16_t a, uint64_t v) { pmu_write(of(b)->inner, a, v); }
    static uint64_t read(pmu_backend *b, uint16_t a)
    {
        Faulty *f = of(b);
        uint64_t v = pmu_read(f->inner, a);
        if (f->in_reads && f->on() && pmu_family_reg_of_addr(f->fam, a)) // whatever register
            v ^= 1ull << f->bit;
        return v;
    }
    static void step(pmu_backend *b, const void *r) { pmu_step(of(b)->inner, r), b->cycle++; }
    static void snapshot(pmu_backend *b, pmu_state *s)
    {
        Faulty *f = of(b);
        pmu_snapshot(f->inner, s);
        if (!f->in_reads && f->on())
            s->reg[f->vis] ^= 1ull << f->bit;
    }
    static void destroy(pmu_backend *b) { pmu_destroy(of(b)->inner), delete of(b); }
    static pmu_backend *create(const pmu_family *fam)
    {
        static const pmu_backend_ops ops = [] {
            pmu_backend_ops o{};
            o.reset = reset, o.write = write, o.read = read, o.step = step;
            o.snapshot = snapshot, o.destroy = destroy;
            return o;
        }();
        pmu_err err;
        Faulty *f = new Faulty;
        f->inner = fam->ref_create(fam->default_model, &err);
        f->fam = fam;
        f->base = pmu_backend{&ops, "faulty", f->inner->model, f->inner->nvis, 0};
        return &f->base;
    }
};

// Where the record being stepped came from, for both checkers' reports.
char g_where[64];
const char *where_now(void *) { return g_where; }

// A lock-step checker (sc/pmu_sc_checker.h) over the reference part and a faulty one.
struct Checked {
    const pmu_family *fam = nullptr;
    pmu_backend *ref_b = nullptr, *bad_b = nullptr;
    std::unique_ptr<pmu_sc> ref, bad;
    std::unique_ptr<pmu_sc_checker> checker;
    std::unique_ptr<tlm_utils::simple_initiator_socket<sc_core::sc_module>> sock;
    std::unique_ptr<sc_core::sc_fifo<pmu_sc_record>> in, ref_q, bad_q;
    std::unique_ptr<sc_core::sc_signal<bool>> ref_irq, bad_irq;
};

// A family's RTL Verilated with --sc as a part (pmu_rtl_sc), driven through its socket and
// record input.
struct Pins {
    const pmu_family *fam = nullptr;
    std::unique_ptr<pmu_rtl_sc> sc;
    std::unique_ptr<tlm_utils::simple_initiator_socket<sc_core::sc_module>> sock;
    std::unique_ptr<sc_core::sc_signal<bool>> irq;
    std::unique_ptr<sc_core::sc_fifo<pmu_sc_record>> fifo;
};

struct Bench : sc_core::sc_module {
    sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS};
    std::vector<Part> parts;
    std::vector<Checked> checked;
    std::vector<Pins> pins;
    int status = 1;

    SC_HAS_PROCESS(Bench);
    explicit Bench(sc_core::sc_module_name n) : sc_core::sc_module(n)
    {
        parts.resize(pmu_nfamilies);
        for (unsigned k = 0; k < pmu_nfamilies; k++) {
            Part &p = parts[k];
            p.fam = pmu_families[k];
            pmu_err err;
            p.b = p.fam->ref_create(p.fam->default_model, &err);
            p.mirror = p.fam->ref_create(p.fam->default_model, &err);
            std::string base = p.fam->name;
            p.sc.reset(new pmu_sc((base + "_pmu").c_str(), p.fam, p.b, kDelay));
            p.sock.reset(
                new tlm_utils::simple_initiator_socket<sc_core::sc_module>((base + "_init").c_str()));
            p.irq.reset(new sc_core::sc_signal<bool>((base + "_irq").c_str()));
            p.fifo.reset(new sc_core::sc_fifo<pmu_sc_record>((base + "_records").c_str(), 4));
            p.sock->bind(p.sc->socket);
            p.sc->clk(clk);
            p.sc->irq(*p.irq);
            p.sc->records(*p.fifo);
        }
        checked.resize(pmu_nfamilies);
        for (unsigned k = 0; k < pmu_nfamilies; k++) {
            Checked &c = checked[k];
            c.fam = pmu_families[k];
            pmu_err err;
            c.ref_b = c.fam->ref_create(c.fam->default_model, &err);
            c.bad_b = Faulty::create(c.fam);
            std::string base = std::string(c.fam->name) + "_checked_";
            c.ref.reset(new pmu_sc((base + "ref").c_str(), c.fam, c.ref_b, kDelay));
            c.bad.reset(new pmu_sc((base + "bad").c_str(), c.fam, c.bad_b, kDelay));
            c.checker.reset(new pmu_sc_checker((base + "checker").c_str(), *c.ref, *c.bad, where_now, nullptr));
            c.sock.reset(new tlm_utils::simple_initiator_socket<sc_core::sc_module>((base + "init").c_str()));
            c.in.reset(new sc_core::sc_fifo<pmu_sc_record>((base + "in").c_str(), 1));
            c.ref_q.reset(new sc_core::sc_fifo<pmu_sc_record>((base + "ref_q").c_str(), 1));
            c.bad_q.reset(new sc_core::sc_fifo<pmu_sc_record>((base + "bad_q").c_str(), 1));
            c.ref_irq.reset(new sc_core::sc_signal<bool>((base + "ref_irq").c_str()));
            c.bad_irq.reset(new sc_core::sc_signal<bool>((base + "bad_irq").c_str()));
            c.sock->bind(c.checker->socket);
            c.checker->records(*c.in);
            c.checker->ref_records(*c.ref_q);
            c.checker->rtl_records(*c.bad_q);
            c.checker->ref_socket.bind(c.ref->socket);
            c.checker->rtl_socket.bind(c.bad->socket);
            for (auto [part, q, irq] : {std::tuple{c.ref.get(), c.ref_q.get(), c.ref_irq.get()},
                                        std::tuple{c.bad.get(), c.bad_q.get(), c.bad_irq.get()}}) {
                part->clk(clk);
                part->records(*q);
                part->irq(*irq);
            }
        }
        for (unsigned k = 0; k < pmu_nfamilies; k++) {
            const pmu_family *f = pmu_families[k];
            if (!pmu_rtl_sc::available(f, f->default_model))
                continue;
            Pins p;
            p.fam = f;
            pmu_err err;
            std::string base = std::string(f->name) + "_pins_";
            p.sc.reset(pmu_rtl_sc::create((base + "rtl").c_str(), f, f->default_model, kDelay, &err));
            p.sock.reset(new tlm_utils::simple_initiator_socket<sc_core::sc_module>((base + "init").c_str()));
            p.irq.reset(new sc_core::sc_signal<bool>((base + "irq").c_str()));
            p.fifo.reset(new sc_core::sc_fifo<pmu_sc_record>((base + "records").c_str(), 1));
            p.sock->bind(p.sc->socket);
            p.sc->clk(clk);
            p.sc->irq(*p.irq);
            p.sc->records(*p.fifo);
            pins.push_back(std::move(p));
        }
        SC_THREAD(run);
    }
    ~Bench() override
    {
        for (Part &p : parts) {
            pmu_destroy(p.b);
            pmu_destroy(p.mirror);
        }
        for (Checked &c : checked) {
            c.checker.reset(); // its pair holds the parts
            pmu_destroy(c.ref_b);
            pmu_destroy(c.bad_b);
        }
    }
    void run()
    {
        status = RUN_ALL_TESTS();
        sc_core::sc_stop();
    }
};

Bench *bench;

// One transaction; returns the response.
tlm::tlm_response_status access(Part &p, tlm::tlm_command cmd, uint64_t addr, uint64_t *v, unsigned len = 8,
                                unsigned width = 8, unsigned char *be = nullptr,
                                sc_core::sc_time *delay = nullptr)
{
    unsigned char data[16] = {};
    if (v)
        std::memcpy(data, v, 8);
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(width);
    t.set_byte_enable_ptr(be);
    t.set_byte_enable_length(be ? 8 : 0);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*p.sock)->b_transport(t, d);
    if (delay)
        *delay = d;
    if (v && cmd == tlm::TLM_READ_COMMAND)
        std::memcpy(v, data, 8);
    return t.get_response_status();
}

// One 8-byte transaction on an initiator socket; the response.
tlm::tlm_response_status access_sock(tlm_utils::simple_initiator_socket<sc_core::sc_module> &sock,
                                     tlm::tlm_command cmd, uint64_t addr, uint64_t *v)
{
    unsigned char data[8];
    std::memcpy(data, v, 8);
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(8);
    t.set_streaming_width(8);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    sock->b_transport(t, d);
    std::memcpy(v, data, 8);
    return t.get_response_status();
}

bool same_state(pmu_backend *a, pmu_backend *b, unsigned nvis)
{
    pmu_state x, y;
    pmu_snapshot(a, &x);
    pmu_snapshot(b, &y);
    return std::memcmp(x.reg, y.reg, nvis * sizeof x.reg[0]) == 0 && x.pmi == y.pmi;
}

TEST(PmuSc, EveryRegisterReadAndWrittenThroughTlmWithMasks)
{
    const uint64_t patterns[] = {~0ull, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0};
    for (Part &p : bench->parts) {
        unsigned n = 0;
        for (unsigned i = 0; i < p.fam->nregmap; i++) {
            const pmu_regmap_entry &e = p.fam->regmap[i];
            for (unsigned a = e.addr; a < e.addr + e.span; a++)
                for (uint64_t pat : patterns) {
                    uint64_t v = pat;
                    ASSERT_EQ(access(p, tlm::TLM_WRITE_COMMAND, 8ull * a, &v), tlm::TLM_OK_RESPONSE)
                        << p.fam->name << " " << e.name;
                    pmu_write(p.mirror, (uint16_t)a, pat);
                    uint64_t got = 0;
                    ASSERT_EQ(access(p, tlm::TLM_READ_COMMAND, 8ull * a, &got), tlm::TLM_OK_RESPONSE);
                    EXPECT_EQ(got, pmu_read(p.mirror, (uint16_t)a)) << p.fam->name << " " << e.name;
                    n++;
                }
        }
        EXPECT_TRUE(same_state(p.b, p.mirror, p.fam->nvis)) << p.fam->name;
        EXPECT_GT(n, 0u);
    }
}

TEST(PmuSc, ErrorResponsesLeaveThePmuUntouched)
{
    for (Part &p : bench->parts) {
        const pmu_regmap_entry &e = p.fam->regmap[0];
        uint64_t a = 8ull * e.addr, v = ~0ull;
        unsigned unmapped = 0;
        while (pmu_family_reg_of_addr(p.fam, (uint16_t)unmapped))
            unmapped++;
        unsigned char be[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
        pmu_state before;
        pmu_snapshot(p.b, &before);
        for (tlm::tlm_command cmd : {tlm::TLM_WRITE_COMMAND, tlm::TLM_READ_COMMAND}) {
            uint64_t w = v;
            EXPECT_EQ(access(p, cmd, a + 4, &w), tlm::TLM_ADDRESS_ERROR_RESPONSE)
                << p.fam->name << " misaligned";
            EXPECT_EQ(access(p, cmd, 8ull * unmapped, &w), tlm::TLM_ADDRESS_ERROR_RESPONSE)
                << p.fam->name << " unmapped";
            EXPECT_EQ(access(p, cmd, 8ull * 0x10000, &w), tlm::TLM_ADDRESS_ERROR_RESPONSE)
                << p.fam->name << " past the port";
            EXPECT_EQ(access(p, cmd, a, &w, 4, 4), tlm::TLM_BURST_ERROR_RESPONSE)
                << p.fam->name << " 4 bytes";
            EXPECT_EQ(access(p, cmd, a, &w, 16, 16), tlm::TLM_BURST_ERROR_RESPONSE)
                << p.fam->name << " 16 bytes";
            EXPECT_EQ(access(p, cmd, a, &w, 8, 4), tlm::TLM_BURST_ERROR_RESPONSE)
                << p.fam->name << " streaming";
            EXPECT_EQ(access(p, cmd, a, &w, 8, 8, be), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE) << p.fam->name;
        }
        EXPECT_EQ(access(p, tlm::TLM_IGNORE_COMMAND, 8ull * unmapped, &v), tlm::TLM_OK_RESPONSE);
        pmu_state after;
        pmu_snapshot(p.b, &after);
        EXPECT_EQ(std::memcmp(before.reg, after.reg, p.fam->nvis * sizeof before.reg[0]), 0) << p.fam->name;
    }
}

TEST(PmuSc, DebugTransportReadsWithoutSideEffects)
{
    for (Part &p : bench->parts) {
        pmu_state before;
        pmu_snapshot(p.b, &before);
        uint64_t cycle = p.b->cycle;
        for (unsigned v = 0; v < p.fam->nvis; v++) {
            unsigned char data[8];
            tlm::tlm_generic_payload t;
            t.set_command(tlm::TLM_READ_COMMAND);
            t.set_address(8ull * p.fam->vis[v].addr);
            t.set_data_ptr(data);
            t.set_data_length(8);
            ASSERT_EQ((*p.sock)->transport_dbg(t), 8u) << p.fam->name << " " << p.fam->vis[v].name;
            uint64_t got;
            std::memcpy(&got, data, 8);
            EXPECT_EQ(got, before.reg[v]) << p.fam->name << " " << p.fam->vis[v].name;
            t.set_data_length(4);
            EXPECT_EQ((*p.sock)->transport_dbg(t), 0u);
            t.set_data_length(8);
            t.set_command(tlm::TLM_WRITE_COMMAND);
            EXPECT_EQ((*p.sock)->transport_dbg(t), 0u) << "a debug write is refused";
        }
        pmu_state after;
        pmu_snapshot(p.b, &after);
        EXPECT_EQ(std::memcmp(before.reg, after.reg, p.fam->nvis * sizeof before.reg[0]), 0) << p.fam->name;
        EXPECT_EQ(p.b->cycle, cycle);
    }
}

TEST(PmuSc, AccessDelayIsAnnotated)
{
    for (Part &p : bench->parts) {
        sc_core::sc_time d;
        uint64_t v = 0;
        access(p, tlm::TLM_READ_COMMAND, 8ull * p.fam->regmap[0].addr, &v, 8, 8, nullptr, &d);
        EXPECT_EQ(d, kDelay);
        access(p, tlm::TLM_WRITE_COMMAND, 8ull * p.fam->regmap[0].addr, &v, 8, 8, nullptr, &d);
        EXPECT_EQ(d, kDelay);
    }
}

// Records stepped at the clock edges, with `pmusim conform`'s software (random
// programming and an interrupt service) reaching the part only through the socket
// (sc/pmu_sc_port.h), and the same software with the same seed driving the model directly,
// as the C harness does: after every clock the part's state and interrupt signal are the
// model's, and the software saw the same interrupts.
TEST(PmuSc, SoftwareThroughTheSocketMatchesTheCHarnessClockForClock)
{
    for (Part &p : bench->parts) {
        uint64_t serviced = 0;
        for (int driver = 0; driver < 2; driver++) {
            pmu_reset(p.b);
            pmu_reset(p.mirror);
            pmu_err err;
            pmu_gen_opts o = {};
            o.seed = 5 + (uint64_t)driver;
            o.cycles = 40000;
            o.mode = PMU_GEN_WORKLOAD;
            pmu_gen *g = pmu_gen_create(p.fam->dialect, &o, &err);
            ASSERT_NE(g, nullptr) << err.msg;
            sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
            pmu_backend *port = pmu_sc_port_new(*p.sock, *p.sc, &delay);
            const pmu_family_cmds *cmds = p.fam->cmds;
            const pmu_gen_hot *hot;
            pmu_record_hooks hp, hm;
            pmu_fam_conform *cp = cmds->conform_start(port, 11, g, 1, driver, 0, &hot, &hp, &err);
            ASSERT_NE(cp, nullptr) << err.msg;
            pmu_fam_conform *cm = cmds->conform_start(p.mirror, 11, g, 1, driver, 0, &hot, &hm, &err);
            ASSERT_NE(cm, nullptr) << err.msg;
            pmu_sc_record r, rm;
            r.bytes.resize(p.fam->dialect->record_size);
            unsigned steps = 0, rises = 0;
            bool prev = false;
            while (pmu_gen_next(g, r.bytes.data()) == 1) {
                rm = r;
                if (hm.admit && hm.admit(hm.ctx, rm.bytes.data(), &err))
                    break; // the software's model refuses the record (both would)
                if (hp.admit)
                    hp.admit(hp.ctx, r.bytes.data(), &err);
                if (hp.before)
                    hp.before(hp.ctx, r.bytes.data());
                if (hm.before)
                    hm.before(hm.ctx, rm.bytes.data());
                p.fifo->write(r);
                sc_core::wait(p.sc->stepped_event());
                pmu_step(p.mirror, rm.bytes.data());
                sc_core::wait(sc_core::SC_ZERO_TIME); // the signal takes its new value
                pmu_state sp, sm;
                pmu_snapshot(port, &sp);
                pmu_snapshot(p.mirror, &sm);
                ASSERT_EQ(p.irq->read(), sm.pmi != 0) << p.fam->name << " step " << steps;
                ASSERT_TRUE(same_state(p.b, p.mirror, p.fam->nvis)) << p.fam->name << " step " << steps;
                if (hp.after)
                    hp.after(hp.ctx, r.bytes.data(), &sp);
                if (hm.after)
                    hm.after(hm.ctx, rm.bytes.data(), &sm);
                rises += sm.pmi && !prev;
                prev = sm.pmi;
                steps++;
            }
            uint64_t ip = 0, im = 0;
            char sink[4096];
            FILE *out = fmemopen(sink, sizeof sink, "w");
            EXPECT_TRUE(cmds->conform_finish(cp, &ip, out)) << p.fam->name;
            EXPECT_TRUE(cmds->conform_finish(cm, &im, out)) << p.fam->name;
            std::fclose(out);
            EXPECT_EQ(ip, im) << p.fam->name << " driver " << driver;
            EXPECT_GT(steps, 1000u) << p.fam->name;
            EXPECT_GT(delay, sc_core::SC_ZERO_TIME) << "the accesses' delays are annotated";
            printf("%s (%s): %u clocks, %u interrupt-line rises, %llu interrupts serviced\n", p.fam->name,
                   driver ? "driver" : "harness service", steps, rises, (unsigned long long)ip);
            cmds->conform_free(cp);
            cmds->conform_free(cm);
            pmu_destroy(port);
            pmu_gen_destroy(g);
            serviced += ip;
        }
        EXPECT_GT(serviced, 0u) << p.fam->name << ": no interrupt reached the software";
    }
}

// ---- the lock-step checker -------------------------------------------------------------

// Records from the generator, numbered in g_where.
uint64_t g_fetched;
int gen_fetch(void *ctx, void *rec, pmu_err *)
{
    pmu_gen *g = static_cast<pmu_gen *>(ctx);
    int got = pmu_gen_next(g, rec);
    if (got == 1)
        std::snprintf(g_where, sizeof g_where, "generator record %llu", (unsigned long long)g_fetched++);
    return got;
}

struct LoopResult {
    pmu_loop_end end;
    uint64_t records, mismatches, interrupts;
    std::string report;
};

// conform's random programming and service (or the family's driver) on b (the C harness's lock-step pair, or a
// port in front of the SystemC checker), through pmu_cli_loop_run.
LoopResult run_software(const pmu_family *fam, pmu_backend *b, pmu_backend *checker, uint64_t seed,
                        uint64_t cycles, int driver)
{
    LoopResult r{};
    pmu_err err;
    pmu_gen_opts o = {};
    o.seed = seed;
    o.cycles = cycles;
    o.mode = PMU_GEN_WORKLOAD;
    pmu_gen *g = pmu_gen_create(fam->dialect, &o, &err);
    EXPECT_NE(g, nullptr);
    const pmu_gen_hot *hot;
    pmu_record_hooks hooks;
    g_where[0] = 0; // software's programming comes before the first record
    pmu_fam_conform *c = fam->cmds->conform_start(b, seed, g, 1, driver, 0, &hot, &hooks, &err);
    EXPECT_NE(c, nullptr) << err.msg;
    pmu_cli_loop l = {};
    g_fetched = 0;
    g_where[0] = 0;
    l.b = b;
    l.fetch = gen_fetch;
    l.fetch_ctx = g;
    l.record_size = fam->dialect->record_size;
    l.hooks = hooks;
    r.end = pmu_cli_loop_run(&l, &err);
    r.records = l.records;
    r.mismatches = pmu_cosim_mismatches(checker);
    if (const pmu_cosim_mismatch *m = pmu_cosim_first(checker)) {
        char text[4096];
        pmu_cosim_format(m, text, sizeof text);
        r.report = text;
    }
    if (r.end == PMU_LOOP_END) {
        char sink[4096];
        FILE *out = fmemopen(sink, sizeof sink, "w");
        EXPECT_TRUE(fam->cmds->conform_finish(c, &r.interrupts, out)) << fam->name;
        std::fclose(out);
    }
    fam->cmds->conform_free(c);
    pmu_gen_destroy(g);
    return r;
}

// The SystemC checker against the C harness's with the same fault: the same run, and the
// same first report (register, fields, values, record, where) at the same cycle; the
// records through the checker's record input at the clock, and loosely timed, through
// step_record() with a quantum keeper whose quantum is longer than the run (the platform's
// path with a large --quantum): a mismatch is caught after the same record.
void checker_against_the_c_harness(bool loosely_timed);

TEST(PmuScChecker, ReportsMismatchesAsTheCHarnessDoes)
{
    const sc_core::sc_time quantum_before = tlm_utils::tlm_quantumkeeper::get_global_quantum();
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time(1, sc_core::SC_MS));
    for (const bool loosely_timed : {false, true})
        checker_against_the_c_harness(loosely_timed);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(quantum_before);
}

void checker_against_the_c_harness(bool loosely_timed)
{
    struct Fault {
        unsigned vis_from_end; // a visible register counted from the last
        unsigned bit;
        uint64_t from;
        bool in_reads;
    };
    const Fault faults[] = {{0, 0, UINT64_MAX, false}, {1, 3, 1500, false}, {2, 62, 777, false},
                            {1, 0, 0, true}};
    sc_core::wait(bench->clk.negedge_event());
    for (Checked &c : bench->checked) {
        for (const Fault &f : faults) {
            // The SystemC side: software through a port in front of the checker.
            Faulty *bad = Faulty::of(c.bad_b);
            pmu_backend *pair = c.checker->pair();
            pmu_reset(pair);
            bad->vis = c.fam->nvis - 1 - f.vis_from_end;
            bad->bit = f.bit, bad->from = f.from, bad->in_reads = f.in_reads;
            pmu_sc_port_env env;
            env.fam = c.fam;
            env.behind = pair;
            env.line = [&c] { return c.ref->state().pmi != 0; };
            tlm_utils::tlm_quantumkeeper qk;
            qk.reset();
            if (loosely_timed)
                env.retire = [&c, &qk](const void *rec) {
                    c.checker->step_record(rec);
                    qk.inc(bench->clk.period());
                    if (qk.need_sync())
                        qk.sync();
                };
            else
                env.retire = [&c](const void *rec) {
                    pmu_sc_record r;
                    const unsigned char *p = static_cast<const unsigned char *>(rec);
                    r.bytes.assign(p, p + c.fam->dialect->record_size);
                    c.in->write(r);
                    sc_core::wait(bench->clk.posedge_event());
                    sc_core::wait(bench->clk.negedge_event());
                };
            pmu_backend *port = pmu_sc_port_new(*c.sock, env);
            LoopResult s = run_software(c.fam, port, pair, 21, 20000, f.in_reads);
            pmu_destroy(port);

            // The C harness: the lock-step pair over the same two models.
            pmu_err err;
            pmu_backend *fb = Faulty::create(c.fam);
            Faulty::of(fb)->vis = bad->vis, Faulty::of(fb)->bit = f.bit;
            Faulty::of(fb)->from = f.from, Faulty::of(fb)->in_reads = f.in_reads;
            pmu_backend *cpair = pmu_cosim_create(c.fam, c.fam->ref_create(c.fam->default_model, &err), fb,
                                                  where_now, nullptr);
            ASSERT_NE(cpair, nullptr);
            LoopResult h = run_software(c.fam, cpair, cpair, 21, 20000, f.in_reads);
            pmu_destroy(cpair);

            std::string what = std::string(c.fam->name) + " fault in " +
                               (f.in_reads ? "reads" : c.fam->vis[bad->vis].name) +
                               (loosely_timed ? ", loosely timed" : ", at the clock");
            if (loosely_timed) { // the run stayed within one quantum: no clock passed
                EXPECT_FALSE(qk.need_sync()) << what;
            }
            EXPECT_EQ(s.end, h.end) << what;
            EXPECT_EQ(s.records, h.records) << what;
            EXPECT_EQ(s.report, h.report) << what;
            EXPECT_EQ(s.interrupts, h.interrupts) << what;
            if (f.from == UINT64_MAX) {
                EXPECT_EQ(s.end, PMU_LOOP_END) << what;
                EXPECT_EQ(s.mismatches, 0u) << what;
                EXPECT_EQ(s.records, 20000u) << what;
            } else {
                EXPECT_EQ(s.end, PMU_LOOP_MISMATCH) << what;
                EXPECT_GE(s.mismatches, 1u) << what;
                EXPECT_NE(s.report.find(f.in_reads ? "register read" : c.fam->vis[bad->vis].name),
                          std::string::npos) << what << s.report;
                if (!f.in_reads) { // the first record after which the state disagrees
                    EXPECT_EQ(s.records, f.from) << what;
                }
            }
        }
    }
}

// ---- the RTL Verilated with --sc -----------------------------------------------------

// The --sc top in its part, through the socket and the record input, against the same top
// Verilated with --cc driven directly (the C harness's model): random register writes and
// generated records, the same state and interrupt line after every clock, every register
// of the map read back alike through b_transport; the debug transport gives the visible
// registers and refuses the others.
TEST(PmuRtlSc, TheTopVerilatedWithScMatchesTheCcModelClockForClock)
{
    ASSERT_EQ(bench->pins.size(), pmu_nfamilies) << "every family has its top Verilated with --sc";
    sc_core::wait(bench->clk.negedge_event());
    for (Pins &p : bench->pins) {
        pmu_err err;
        pmu_backend *cc = p.fam->rtl_create(p.fam->default_model, &err);
        ASSERT_NE(cc, nullptr) << err.msg;
        pmu_gen_opts o = {};
        o.seed = 17;
        o.cycles = 3000;
        o.mode = PMU_GEN_RANDOM;
        pmu_gen *g = pmu_gen_create(p.fam->dialect, &o, &err);
        ASSERT_NE(g, nullptr) << err.msg;
        uint64_t rng = 0x9e3779b97f4a7c15ull;
        auto next = [&rng] { return rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; };
        auto same = [&](const char *what, unsigned step) {
            pmu_state want;
            pmu_snapshot(cc, &want);
            const pmu_state &got = p.sc->state();
            ASSERT_EQ(std::memcmp(want.reg, got.reg, p.fam->nvis * sizeof want.reg[0]), 0)
                << p.fam->name << " after " << what << " " << step;
            ASSERT_EQ(want.pmi, got.pmi) << p.fam->name << " " << what << " " << step;
        };
        same("reset", 0);
        pmu_sc_record r;
        r.bytes.resize(p.fam->dialect->record_size);
        unsigned steps = 0, writes = 0;
        while (pmu_gen_next(g, r.bytes.data()) == 1) {
            if (next() % 8 == 0) { // a register write through the socket
                const pmu_regmap_entry &e = p.fam->regmap[next() % p.fam->nregmap];
                uint16_t a = (uint16_t)(e.addr + next() % e.span);
                uint64_t v = next();
                ASSERT_EQ(access_sock(*p.sock, tlm::TLM_WRITE_COMMAND, 8ull * a, &v), tlm::TLM_OK_RESPONSE);
                pmu_write(cc, a, v);
                same("write", ++writes);
                sc_core::wait(bench->clk.negedge_event());
            }
            p.fifo->write(r);
            sc_core::wait(p.sc->stepped_event());
            pmu_step(cc, r.bytes.data());
            sc_core::wait(sc_core::SC_ZERO_TIME); // the irq signal takes its value
            same("record", ++steps);
            ASSERT_EQ(p.irq->read(), p.sc->state().pmi != 0) << p.fam->name;
            sc_core::wait(bench->clk.negedge_event());
        }
        for (unsigned i = 0; i < p.fam->nregmap; i++) {
            const pmu_regmap_entry &e = p.fam->regmap[i];
            for (unsigned a = e.addr; a < e.addr + e.span; a++) {
                uint64_t got = 0;
                ASSERT_EQ(access_sock(*p.sock, tlm::TLM_READ_COMMAND, 8ull * a, &got), tlm::TLM_OK_RESPONSE);
                EXPECT_EQ(got, pmu_read(cc, (uint16_t)a)) << p.fam->name << " " << e.name << "+" << a - e.addr;
                unsigned char data[8];
                tlm::tlm_generic_payload t;
                t.set_command(tlm::TLM_READ_COMMAND);
                t.set_address(8ull * a);
                t.set_data_ptr(data);
                t.set_data_length(8);
                int vis = pmu_family_vis_of_addr(p.fam, (uint16_t)a);
                EXPECT_EQ((*p.sock)->transport_dbg(t), vis >= 0 ? 8u : 0u) << p.fam->name << " " << e.name;
                if (vis >= 0) {
                    uint64_t d;
                    std::memcpy(&d, data, 8);
                    EXPECT_EQ(d, p.sc->state().reg[vis]) << p.fam->name << " " << e.name;
                }
            }
        }
        EXPECT_GT(writes, 100u);
        printf("%s: the --sc top matched the --cc model over %u records and %u register writes\n", p.fam->name,
               steps, writes);
        pmu_gen_destroy(g);
        pmu_destroy(cc);
    }
}

} // namespace

int sc_main(int argc, char *argv[])
{
    testing::InitGoogleTest(&argc, argv);
    Bench b("bench");
    bench = &b;
    sc_core::sc_start();
    return b.status;
}
