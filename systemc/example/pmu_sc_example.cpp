// pmu_sc_example.cpp - the PMU in a SystemC platform of your own (docs/systemc.md,
// "Dropping the PMU into another platform").  Built and run by `make test`
// (build/examples/pmu_sc_example).
//
// The platform here is the smallest one that does real work: a clock, the Itanium 2 PMU
// as a part (the Verilated RTL, or with the argument "ref" the reference model), a
// stream player on the generator, and a processor of its own that is not the project's:
// a thread that programs the PMU with plain TLM-2.0 writes, executes one record per
// clock, and services the performance-monitor interrupt.  It counts CPU_CYCLES in PMD4
// with an overflow interrupt every `kPeriod` counts, and checks what it reads against the
// PMU's own count at each interrupt.  Exit status 0 when every interrupt was serviced and
// every count adds up.
//
// What a platform needs from the project: include/sc/pmu_sc.h (the part), the family's
// register header (addresses and fields, generated from the one register description),
// and for records either the stream player (include/sc/pmu_sc_player.h) or records of its
// own in the family's dialect.  Link `pkg-config --libs pmusim-systemc` (the installed kit,
// docs/kit.md), or in the tree build/libpmusc.a and the libraries `pmusim` links.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>

#include "common/ita/ita_events.h"
#include "common/ita/ita_regs.h"
#include "common/pmu_family.h"
#include "sc/pmu_sc.h"
#include "sc/pmu_sc_player.h"
#include "stream/pmu_stream.h"

namespace
{

const uint64_t kPeriod = 5000;   // counts between interrupts
const uint64_t kRecords = 60000; // records to execute

struct Cpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Cpu> socket{"socket"};
    sc_core::sc_in<bool> clk{"clk"};
    sc_core::sc_in<bool> irq{"irq"};
    sc_core::sc_port<pmu_sc_fetch_if> fetch{"fetch"};
    sc_core::sc_fifo_out<pmu_sc_record> retire{"retire"};
    const pmu_family *fam;
    uint64_t interrupts = 0, counted = 0, errors = 0;
    uint64_t armed = 0; // the value PMD4 was last set to
    sc_core::sc_time pending = sc_core::SC_ZERO_TIME; // annotated access time not yet spent

    SC_HAS_PROCESS(Cpu);
    Cpu(sc_core::sc_module_name n, const pmu_family *f) : sc_core::sc_module(n), fam(f) { SC_THREAD(run); }

    // One 8-byte access at register-port address `addr` (TLM address = addr * 8).
    uint64_t access(tlm::tlm_command cmd, uint16_t addr, uint64_t v = 0)
    {
        tlm::tlm_generic_payload t;
        t.set_command(cmd);
        t.set_address(8ull * addr);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(&v));
        t.set_data_length(8);
        t.set_streaming_width(8);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, delay);
        if (t.is_response_error()) {
            std::fprintf(stderr, "pmu_sc_example: %s at address 0x%03x\n", t.get_response_string().c_str(), addr);
            errors++;
        }
        pending += delay; // loosely timed: spent before the next record (sync)
        return v;
    }

    // The accesses' time spent, then to a falling edge: a record goes out there and the PMU
    // takes it at the next rising edge (a part clocked in SystemC time needs its inputs
    // before the edge's time, as a register does).
    void sync()
    {
        wait(pending);
        pending = sc_core::SC_ZERO_TIME;
        wait(clk.negedge_event());
    }
    void write(uint16_t addr, uint64_t v) { access(tlm::TLM_WRITE_COMMAND, addr, v); }
    uint64_t read(uint16_t addr) { return access(tlm::TLM_READ_COMMAND, addr); }

    static uint64_t wrap() { return 1ull << ita_counter_width(ITA_MODEL_ITANIUM2); }

    void run()
    {
        const uint16_t pmc0 = ITA_ADDR(ITA_SPACE_PMC, 0), pmc4 = ITA_ADDR(ITA_SPACE_PMC, 4);
        const uint16_t pmd4 = ITA_ADDR(ITA_SPACE_PMD, 4), psr = ITA_ADDR(ITA_SPACE_CPU, 0);
        // PMD4 overflows after kPeriod counts; PMC4 counts CPU_CYCLES at every privilege
        // level with an overflow interrupt; PSR.up enables user monitors.
        armed = wrap() - kPeriod;
        write(pmd4, armed);
        uint64_t cfg = 0;
        cfg = ITA_FSET(cfg, PMC_GEN, ES, ita_event_find(ITA_MODEL_ITANIUM2, "CPU_CYCLES")->code);
        cfg = ITA_FSET(cfg, PMC_GEN, PLM, 0xf);
        cfg = ITA_FSET(cfg, PMC_GEN, OI, 1);
        cfg = ITA_FSET(cfg, PMC_GEN, ENABLE, 1);
        write(pmc4, cfg);
        write(psr, ITA_FSET(0, PSR, UP, 1));
        write(pmc0, 0); // unfreeze

        pmu_sc_record r;
        r.bytes.resize(fam->dialect->record_size);
        pmu_err err;
        sync();
        for (uint64_t n = 0; n < kRecords && fetch->next(r.bytes.data(), &err) == 1; n++) {
            retire.write(r);                // executed at the next rising edge
            wait(clk.posedge_event());
            wait(clk.negedge_event());
            if (!irq.read())
                continue;
            // The interrupt: PMC0 says frozen, PMD4 overflowed; PMD4 has counted on past
            // the wrap only by what the overflowing clock added.
            uint64_t ovf = read(pmc0), count = read(pmd4) & (wrap() - 1);
            if (!ITA_FGET(ovf, PMC0, FR) || !(ITA_FGET(ovf, PMC0, OVF) & 1) || count > 8) {
                std::fprintf(stderr, "pmu_sc_example: interrupt %" PRIu64 ": PMC0 0x%" PRIx64 " PMD4 0x%" PRIx64 "\n",
                             interrupts, ovf, count);
                errors++;
            }
            counted += wrap() - armed + count;
            interrupts++;
            armed = wrap() - kPeriod + count; // re-arm, keeping what ran past the wrap
            write(pmd4, armed);
            write(pmc0, 0); // clear the overflow and unfreeze
            sync();
        }
        counted += (read(pmd4) & (wrap() - 1)) - armed; // since the last interrupt
        sc_core::sc_stop();
    }
};

} // namespace

int sc_main(int argc, char *argv[])
{
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const bool use_ref = argc > 1 && std::strcmp(argv[1], "ref") == 0;
    const pmu_family *fam = pmu_family_find("itanium");
    pmu_err err;
    pmu_gen_opts o = {};
    o.seed = 1;
    o.cycles = kRecords;
    o.mode = PMU_GEN_WORKLOAD;
    pmu_source *src = fam ? pmu_source_generator(fam->dialect, &o, &err) : nullptr;
    if (!src) {
        std::fprintf(stderr, "pmu_sc_example: no Itanium family or generator\n");
        return 1;
    }
    const sc_core::sc_time access_delay(1, sc_core::SC_NS);
    std::unique_ptr<pmu_sc> pmu(use_ref ? static_cast<pmu_sc *>(pmu_ref_sc::create("pmu", fam, ITA_MODEL_ITANIUM2, access_delay, &err))
                                        : pmu_rtl_sc::create("pmu", fam, ITA_MODEL_ITANIUM2, access_delay, &err));
    if (!pmu) {
        std::fprintf(stderr, "pmu_sc_example: %s\n", err.msg);
        return 1;
    }
    sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
    sc_core::sc_signal<bool> irq("irq");
    sc_core::sc_fifo<pmu_sc_record> records("records", 1);
    pmu_sc_player player("player", src);
    Cpu cpu("cpu", fam);
    cpu.socket.bind(pmu->socket);
    cpu.clk(clk);
    cpu.irq(irq);
    cpu.fetch(player.fetch);
    cpu.retire(records);
    pmu->clk(clk);
    pmu->irq(irq);
    pmu->records(records);
    sc_core::sc_start();

    // The PMU's own total of the counts PMD4 received (a checker's channel, not a register).
    uint64_t truth = pmu_has_total(pmu->backend()) ? pmu_total(pmu->backend(), ITA_FIRST_COUNTER) : cpu.counted;
    std::printf("pmu_sc_example (%s): %" PRIu64 " records, %" PRIu64 " interrupts, %" PRIu64
                " cycles counted (the PMU says %" PRIu64 "), %.0f ns\n",
                use_ref ? "reference model" : "RTL", player.played(), cpu.interrupts, cpu.counted, truth,
                sc_core::sc_time_stamp().to_seconds() * 1e9);
    pmu_source_close(src);
    bool ok = cpu.errors == 0 && cpu.interrupts >= 5 && cpu.counted == truth;
    return ok ? 0 : 1;
}
