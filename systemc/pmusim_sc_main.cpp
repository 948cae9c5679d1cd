// pmusim_sc_main.cpp - build/pmusim-sc: `pmusim run` on the SystemC platform
// (include/sc/pmu_sc_platform.h, docs/systemc.md).  `pmusim-sc run [--quantum N] [run's
// options]`; the options, the output and the exit status are run's (`pmusim run --help`),
// and --quantum N (or --quantum=N) is the platform's own: its quantum in clocks.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <systemc>

#include "cli/pmu_cli.h"
#include "sc/pmu_sc_platform.h"
#include "common/pmu_num.h"
#include "stream/pmu_tmpfiles.h"

static const char quantum_help[] =
    "The SystemC platform's own option:\n"
    "  --quantum N        the CPU's quantum keeper, in clocks of 1 ns (1..1000000000,\n"
    "                     default %u): 1 runs clock by clock (every record at a clock edge);\n"
    "                     more runs loosely timed, records handed over by method calls and\n"
    "                     SystemC time caught up once a quantum. The results are the same\n"
    "                     (docs/systemc.md, \"The quantum\").\n";

int sc_main(int argc, char *argv[])
{
    pmu_cli_program = argv[0];
    pmu_cli_title = "pmusim-sc"; // run's usage line
    pmu_tmpfiles_on_signals();
    if (argc >= 2 && (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "-V"))) {
        std::printf("pmusim-sc %s\n", PMUSIM_VERSION);
        return PMU_EXIT_OK;
    }
    if (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
        std::printf("usage: %s run [--quantum N] [options]\n"
                    "`pmusim run` on the SystemC/TLM-2.0 platform: the same options, output and\n"
                    "exit status (see `%s run --help`, docs/systemc.md); %s --version (-V) the version.\n",
                    argv[0], argv[0], argv[0]);
        std::printf("\n");
        std::printf(quantum_help, PMU_SC_DEFAULT_QUANTUM);
        return PMU_EXIT_OK;
    }
    if (argc < 2 || std::strcmp(argv[1], "run") != 0) {
        char shown[128];
        if (argc >= 2)
            pmu_escape(argv[1], std::strlen(argv[1]), shown, sizeof shown);
        std::fprintf(stderr, "%s: expected the command 'run', found %s%s%s (see %s --help)\n", argv[0],
                     argc < 2 ? "nothing" : "'", argc < 2 ? "" : shown, argc < 2 ? "" : "'", argv[0]);
        return PMU_EXIT_USAGE;
    }
    // --quantum N: taken out of run's arguments (anywhere on the line, as run's options).
    unsigned quantum = PMU_SC_DEFAULT_QUANTUM;
    bool help = false;
    std::vector<char *> args(argv + 1, argv + argc);
    for (size_t i = 1; i < args.size(); i++) {
        const char *a = args[i];
        help = help || !std::strcmp(a, "--help") || !std::strcmp(a, "-h");
        const char *val = nullptr;
        size_t n = 1;
        if (!std::strcmp(a, "--quantum")) {
            if (i + 1 == args.size()) {
                std::fprintf(stderr, "%s run: --quantum: expected a number of clocks after it (see %s --help)\n",
                             argv[0], argv[0]);
                return PMU_EXIT_USAGE;
            }
            val = args[i + 1];
            n = 2;
        } else if (!std::strncmp(a, "--quantum=", 10)) {
            val = a + 10;
        } else {
            continue;
        }
        uint64_t q = 0;
        pmu_err err;
        if (pmu_parse_u64(val, 1, PMU_SC_MAX_QUANTUM, "--quantum", &q, &err)) {
            std::fprintf(stderr, "%s run: %s (see %s --help)\n", argv[0], err.msg, argv[0]);
            return PMU_EXIT_USAGE;
        }
        quantum = static_cast<unsigned>(q);
        args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i + n));
        i--;
    }
    args.push_back(nullptr);
    const int rc = pmu_cli_run(static_cast<int>(args.size() - 1), args.data(), pmu_sc_run_engine(quantum));
    if (help && rc == PMU_EXIT_OK)
        std::printf("\n"), std::printf(quantum_help, PMU_SC_DEFAULT_QUANTUM);
    return rc;
}

// SystemC's banner would precede run's output: off, before the kernel starts.
int main(int argc, char *argv[])
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
