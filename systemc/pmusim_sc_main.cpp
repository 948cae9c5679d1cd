// pmusim_sc_main.cpp - build/pmusim-sc: `pmusim run` on the SystemC platform
// (include/sc/pmu_sc_platform.h, docs/systemc.md).  `pmusim-sc run [run's options]`; the
// options, the output and the exit status are run's (`pmusim run --help`).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <systemc>

#include "cli/pmu_cli.h"
#include "sc/pmu_sc_platform.h"
#include "common/pmu_num.h"
#include "stream/pmu_tmpfiles.h"

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
        std::printf("usage: %s run [options]\n"
                    "`pmusim run` on the SystemC/TLM-2.0 platform: the same options, output and\n"
                    "exit status (see `%s run --help`, docs/systemc.md); %s --version (-V) the version.\n",
                    argv[0], argv[0], argv[0]);
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
    return pmu_cli_run(argc - 1, argv + 1, pmu_sc_run_engine());
}

// SystemC's banner would precede run's output: off, before the kernel starts.
int main(int argc, char *argv[])
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
