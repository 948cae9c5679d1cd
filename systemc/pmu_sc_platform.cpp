// pmu_sc_platform.cpp - the platform of `pmusim-sc run` (sc/pmu_sc_platform.h).
#include "sc/pmu_sc_platform.h"

#include <systemc>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "sc/pmu_sc.h"
#include "sc/pmu_sc_checker.h"
#include "sc/pmu_sc_cpu.h"
#include "sc/pmu_sc_player.h"
#include "stream/pmu_tmpfiles.h"

namespace
{

using sc_core::SC_NS;
using sc_core::sc_time;

struct platform {
    sc_time period{1, SC_NS};
    sc_time access_delay{1, SC_NS}; // one clock per register access
    unsigned quantum = PMU_SC_DEFAULT_QUANTUM; // clocks; 1: clock by clock
    // The clock (quantum 1), or with a larger quantum a signal held low: the processor
    // keeps the time, loosely timed, and nothing steps at an edge.
    std::unique_ptr<sc_core::sc_signal<bool>> clk;
    std::unique_ptr<pmu_sc_player> player;
    std::unique_ptr<pmu_ref_sc> ref;
    std::unique_ptr<pmu_sc> rtl;
    std::string rtl_kind; // which RTL model the part holds, for the report
    std::unique_ptr<pmu_sc_checker> checker;
    std::unique_ptr<pmu_sc_cpu> cpu;
    std::unique_ptr<sc_core::sc_fifo<pmu_sc_record>> retired, ref_q, rtl_q;
    std::unique_ptr<sc_core::sc_signal<bool>> ref_irq, rtl_irq;
    // The SystemC signals' waveform (--waves): written by SystemC to vcd_tmp + ".vcd",
    // moved onto the run's temporary file vcd_tmp when it stops.
    sc_core::sc_trace_file *vcd = nullptr;
    std::string vcd_tmp;
    std::string vcd_file; // vcd_tmp + ".vcd", registered with pmu_tmpfiles while it exists
    bool used = false;
};

platform the_platform;

// A part on its own record queue and interrupt signal.
template <class Part>
void wire(platform &p, Part &part, std::unique_ptr<sc_core::sc_fifo<pmu_sc_record>> &q,
          std::unique_ptr<sc_core::sc_signal<bool>> &irq, const char *name)
{
    std::string n = name;
    q.reset(new sc_core::sc_fifo<pmu_sc_record>((n + "_records").c_str(), 1));
    irq.reset(new sc_core::sc_signal<bool>((n + "_irq").c_str()));
    part.clk(*p.clk);
    part.records(*q);
    part.irq(*irq);
}

// The RTL part: the top Verilated with --sc, or where the model has no --sc variant the one
// Verilated with --cc that the C harness runs.
bool make_rtl(platform &p, const pmu_family *fam, unsigned model, pmu_err *err)
{
    if (pmu_rtl_sc::available(fam, model)) {
        p.rtl.reset(pmu_rtl_sc::create("rtl", fam, model, p.access_delay, err));
        p.rtl_kind = "Verilated with --sc";
    } else {
        p.rtl.reset(pmu_rtl_cc_sc::create("rtl", fam, model, p.access_delay, err));
        p.rtl_kind = std::string("Verilated with --cc (model ") + fam->models[model].name + " has no --sc variant)";
    }
    return p.rtl != nullptr;
}

int sc_open(void *ctx, const pmu_family *fam, unsigned model, pmu_backend_kind kind, pmu_source *src,
            pmu_backend **checked, pmu_backend **sw, pmu_err *err)
{
    platform &p = *static_cast<platform *>(ctx);
    if (p.used)
        return pmu_errf(err, PMU_E_INTERNAL, "the SystemC platform runs once per process");
    p.used = true;
    // Reports are the run's; SystemC's own "stopped by user" note is not.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const bool lt = p.quantum > 1;
    if (lt)
        p.clk.reset(new sc_core::sc_signal<bool>("clk"));
    else
        p.clk.reset(new sc_core::sc_clock("clk", p.period));
    p.player.reset(new pmu_sc_player("player", src));
    if (kind != PMU_BACKEND_RTL && !(p.ref.reset(pmu_ref_sc::create("ref", fam, model, p.access_delay, err)), p.ref))
        return -1;
    if (kind != PMU_BACKEND_REF && !make_rtl(p, fam, model, err))
        return -1;
    pmu_sc *line_part = p.ref ? static_cast<pmu_sc *>(p.ref.get()) : p.rtl.get();
    pmu_backend *behind = line_part->backend();
    if (kind == PMU_BACKEND_COSIM) {
        p.checker.reset(new pmu_sc_checker("checker", *p.ref, *p.rtl, pmu_source_where, src));
        behind = p.checker->pair();
    }
    p.cpu.reset(new pmu_sc_cpu("cpu", fam, behind, p.period));
    p.cpu->clk(*p.clk);
    p.cpu->fetch(p.player->fetch);
    if (p.ref)
        wire(p, *p.ref, p.ref_q, p.ref_irq, "ref");
    if (p.rtl)
        wire(p, *p.rtl, p.rtl_q, p.rtl_irq, "rtl");
    p.cpu->irq(p.ref ? *p.ref_irq : *p.rtl_irq);
    p.cpu->line([line_part] { return line_part->state().pmi != 0; });
    if (lt) {
        for (pmu_sc *part : {static_cast<pmu_sc *>(p.ref.get()), static_cast<pmu_sc *>(p.rtl.get())})
            if (part)
                part->set_decoupled(true);
        if (p.checker)
            p.cpu->loosely_timed(p.quantum, [&p](const void *rec) { p.checker->step_record(rec); });
        else
            p.cpu->loosely_timed(p.quantum, [line_part](const void *rec) { line_part->step_record(rec); });
    }
    if (p.checker) {
        p.retired.reset(new sc_core::sc_fifo<pmu_sc_record>("retired", 1));
        p.cpu->retire(*p.retired);
        p.cpu->socket.bind(p.checker->socket);
        p.checker->records(*p.retired);
        p.checker->ref_records(*p.ref_q);
        p.checker->rtl_records(*p.rtl_q);
        p.checker->ref_socket.bind(p.ref->socket);
        p.checker->rtl_socket.bind(p.rtl->socket);
    } else {
        p.cpu->retire(p.ref ? *p.ref_q : *p.rtl_q);
        p.cpu->socket.bind(line_part->socket);
    }
    *checked = behind;
    *sw = p.cpu->port();
    return 0;
}

// The VCD starts and stops with the RTL's FST: SystemC traces only while the trace file
// is registered with the kernel.
void vcd_window(platform &p, bool on)
{
    if (!p.vcd)
        return;
    if (on) {
        sc_core::sc_get_curr_simcontext()->add_trace_file(p.vcd);
        return;
    }
    sc_core::sc_close_vcd_trace_file(p.vcd);
    p.vcd = nullptr;
    if (std::rename(p.vcd_file.c_str(), p.vcd_tmp.c_str()) != 0)
        SC_REPORT_WARNING("platform", ("cannot move the VCD into place: " + p.vcd_tmp).c_str());
    pmu_tmpfiles_forget(p.vcd_file.c_str());
}

int sc_waves(void *ctx, pmu_files *files, const char *fst_target, pmu_outfile **extra, pmu_err *err)
{
    platform &p = *static_cast<platform *>(ctx);
    char t[4096];
    if (pmu_outfile_beside(fst_target, ".vcd", t, sizeof t, err))
        return -1;
    // SystemC names the file itself (it appends ".vcd"): a regular temporary file it can
    // be renamed onto.
    pmu_outfile *o = pmu_files_output(files, "--waves", t, PMU_OUT_SEEKABLE, err);
    if (!o)
        return -1;
    p.vcd_tmp = pmu_outfile_path(o);
    p.vcd_file = p.vcd_tmp + ".vcd";
    pmu_tmpfiles_add(p.vcd_file.c_str()); // a signal removes it
    p.vcd = sc_core::sc_create_vcd_trace_file(p.vcd_tmp.c_str());
    p.vcd->set_time_unit(1, sc_core::SC_PS);
    sc_core::sc_trace(p.vcd, *p.clk, "clk");
    if (p.ref_irq)
        sc_core::sc_trace(p.vcd, *p.ref_irq, "ref.irq");
    if (p.rtl_irq)
        sc_core::sc_trace(p.vcd, *p.rtl_irq, "rtl.irq");
    p.cpu->trace(p.vcd);
    sc_core::sc_get_curr_simcontext()->remove_trace_file(p.vcd); // until the window opens
    p.cpu->on_trace([&p](bool on) { vcd_window(p, on); });
    *extra = o;
    return 0;
}

int fetch_record(void *ctx, void *rec, pmu_err *err)
{
    return static_cast<platform *>(ctx)->cpu->fetch->next(rec, err);
}

pmu_loop_end sc_loop(void *ctx, pmu_cli_loop *l, const pmu_run_software *sw, pmu_err *err)
{
    platform &p = *static_cast<platform *>(ctx);
    pmu_loop_end end = PMU_LOOP_ERROR;
    pmu_errf(err, PMU_E_INTERNAL, "the SystemC simulation ended before the processor ran");
    l->fetch = fetch_record;
    l->fetch_ctx = &p;
    // The software runs in the processor's thread from its first register access to its
    // last: a part clocked in SystemC time is accessed only while the simulation runs.
    p.cpu->run([&] {
        if (sw->start(sw->arg, err)) {
            end = PMU_LOOP_ERROR;
            return;
        }
        end = pmu_cli_loop_run(l, err);
        if (end == PMU_LOOP_END)
            sw->finish(sw->arg);
    });
    try {
        sc_core::sc_start();
    } catch (const sc_core::sc_report &r) {
        pmu_errf(err, PMU_E_INTERNAL, "SystemC: %s", r.what());
        return PMU_LOOP_ERROR;
    }
    return end;
}

void sc_report(void *ctx, FILE *out)
{
    platform &p = *static_cast<platform *>(ctx);
    fprintf(out, "SystemC: %.0f ns simulated at 1 ns a clock, quantum %u: %" PRIu64 " records, %" PRIu64
                 " clocks of register access%s%s\n",
            sc_core::sc_time_stamp().to_seconds() * 1e9, p.quantum, p.player->played(), p.cpu->access_clocks(),
            p.rtl ? "; RTL part: " : "", p.rtl_kind.c_str());
}

void sc_close(void *ctx)
{
    platform &p = *static_cast<platform *>(ctx);
    if (p.vcd) {
        // The window never opened.  SystemC opens its file only when tracing starts, and
        // closing a trace file that never started crashes SystemC 2.3.4
        // (sc_close_vcd_trace_file frees what it never made): the object is left to the
        // process's exit, and there is no file to remove.
        p.vcd = nullptr;
    }
    // The processor holds the port, the checker the pair over the parts: both go first.
    p.cpu.reset();
    p.checker.reset();
    p.ref.reset();
    p.rtl.reset();
}

const pmu_run_engine engine = {&the_platform, sc_open, sc_loop, sc_waves, sc_report, sc_close};

} // namespace

const pmu_run_engine *pmu_sc_run_engine(unsigned quantum)
{
    the_platform.quantum = quantum;
    return &engine;
}
