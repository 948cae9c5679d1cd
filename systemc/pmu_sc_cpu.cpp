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
    env.line = [this] { return line_ ? line_() : irq.read(); };
    env.retire = [this](const void *rec) { retire_record(rec); };
    env.delay = &pending_;
    env.on_access = [this](uint16_t addr, bool, uint64_t) {
        access_count.write(++accesses_);
        access_addr.write(addr);
    };
    env.on_trace = [this](bool on) {
        sync(); // the waveform's window starts and stops at the record's time
        if (on_trace_)
            on_trace_(on);
    };
    port_ = pmu_sc_port_new(socket, env);
    SC_THREAD(thread);
}

pmu_sc_cpu::~pmu_sc_cpu() { pmu_destroy(port_); }

void pmu_sc_cpu::loosely_timed(unsigned quantum, std::function<void(const void *)> step)
{
    step_ = std::move(step);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(period_ * static_cast<double>(quantum));
}

void pmu_sc_cpu::thread()
{
    if (step_)
        wait(period_ / 2); // where the clock's first falling edge would be
    else
        wait(clk.negedge_event());
    qk_.reset();
    resumed_ = sc_core::sc_time_stamp();
    in_thread_ = true;
    if (program_)
        program_();
    sync();
    in_thread_ = false;
    sc_core::sc_stop();
}

void pmu_sc_cpu::sync()
{
    if (!step_ || !in_thread_)
        return;
    qk_.sync();
    retired_count.write(retired_);
}

void pmu_sc_cpu::retire_record(const void *rec)
{
    if (step_) {
        while (pending_ >= period_) { // clocks with no record, in local time
            qk_.inc(period_);
            pending_ -= period_;
            access_clocks_++;
        }
        uint64_t before = behind_->cycle;
        step_(rec);
        retired_++;
        qk_.inc(period_);
        if (qk_.need_sync())
            sync();
        if (behind_->cycle != before + 1)
            SC_REPORT_ERROR(name(), "the PMU did not take the record");
        return;
    }
    // The software's register accesses took the bus: whole clocks without a record, from
    // the falling edge the thread resumed at.  An access that waited for a clock edge (a
    // write to a part clocked in SystemC time) spent part of them already.
    sc_core::sc_time until = resumed_;
    while (pending_ >= period_) {
        until += period_;
        pending_ -= period_;
        access_clocks_++;
    }
    while (sc_core::sc_time_stamp() < until)
        wait(clk.negedge_event());
    uint64_t before = behind_->cycle;
    pmu_sc_record r;
    const unsigned char *p = static_cast<const unsigned char *>(rec);
    r.bytes.assign(p, p + fam_->dialect->record_size);
    retire.write(r);
    retired_count.write(++retired_);
    wait(clk.posedge_event());
    wait(clk.negedge_event());
    resumed_ = sc_core::sc_time_stamp();
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
