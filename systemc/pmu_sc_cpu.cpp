// pmu_sc_cpu.cpp - the CPU stand-in (sc/pmu_sc_cpu.h).
#include "sc/pmu_sc_cpu.h"

#include <string>

#include "common/pmu_dialect.h"

pmu_sc_cpu::pmu_sc_cpu(sc_core::sc_module_name name, const pmu_family *f, pmu_backend *behind,
                       const sc_core::sc_time &clock_period)
    : sc_core::sc_module(name), socket("socket"), clk("clk"), irq("irq"), fetch("fetch"), retire("retire"),
      retired_count("retired_count"), access_count("access_count"), access_addr("access_addr"), fam_(f),
      behind_(behind), period_(clock_period)
{
    pmu_sc_port_env env;
    env.fam = f;
    env.behind = behind;
    env.line = [this] { return irq.read(); };
    env.retire = [this](const void *rec) { retire_record(rec); };
    env.delay = &pending_;
    env.on_access = [this](uint16_t addr, bool, uint64_t) {
        access_count.write(++accesses_);
        access_addr.write(addr);
    };
    env.on_trace = [this](bool on) {
        if (on_trace_)
            on_trace_(on);
    };
    port_ = pmu_sc_port_new(socket, env);
    SC_THREAD(thread);
}

pmu_sc_cpu::~pmu_sc_cpu() { pmu_destroy(port_); }

void pmu_sc_cpu::thread()
{
    wait(clk.negedge_event());
    if (program_)
        program_();
    sc_core::sc_stop();
}

void pmu_sc_cpu::retire_record(const void *rec)
{
    // The software's register accesses took the bus: whole clocks without a record.
    while (pending_ >= period_) {
        wait(clk.negedge_event());
        pending_ -= period_;
        access_clocks_++;
    }
    uint64_t before = behind_->cycle;
    pmu_sc_record r;
    const unsigned char *p = static_cast<const unsigned char *>(rec);
    r.bytes.assign(p, p + fam_->dialect->record_size);
    retire.write(r);
    retired_count.write(++retired_);
    wait(clk.posedge_event());
    wait(clk.negedge_event());
    if (behind_->cycle != before + 1)
        SC_REPORT_ERROR(name(), "the PMU did not take the record at the clock");
}

void pmu_sc_cpu::trace(sc_core::sc_trace_file *tf) const
{
    std::string n = name();
    sc_core::sc_trace(tf, irq, n + ".irq");
    sc_core::sc_trace(tf, retired_count, n + ".retired_count");
    sc_core::sc_trace(tf, access_count, n + ".access_count");
    sc_core::sc_trace(tf, access_addr, n + ".access_addr");
}
