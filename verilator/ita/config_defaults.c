/*
 * config_defaults.c - the built-in configuration (pmu_config_default_text), in the file
 * format of docs/config-format.md, which shows it line for line (a test checks that).
 */
#include "ita/pmu_config.h"

/* Periods are chosen so that each counter overflows several times in the default
 * 1,000,000-cycle workload (docs/config-format.md).  PMC6 shows event qualification:
 * on Itanium 2 a code range (IBR pairs 1 and 3 in fine mode) over the first process's
 * main, which the workload places at 0x4000000000000000 for every seed (0x120 bytes
 * with seed 1); on Itanium, where a code range would tag every counter, opcode
 * matcher PMC9.  Its event, IA64_TAGGED_INST_RETIRED_IBRP1_PMC9, takes pair 1's tag,
 * so the other counters (pair 0) stay unconstrained; ism=ia64 because IA-32
 * instructions pass every range and opcode check. */
static const char default_itanium2[] =
    "# pmusim built-in configuration (Itanium 2)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 period=150000    # user only\n"
    "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 plm=0xf pm=0 ism=ia64 thres=1 period=8000\n"
    "irange 0x4000000000000000..0x4000000000000120 fine pair=1  # PMC6: cycles retiring 2+ instructions of main\n"
    "PMC7 event=L1D_READ_MISSES_ALL plm=0x1 pm=1 period=500     # kernel misses, privileged monitor\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

static const char default_itanium[] =
    "# pmusim built-in configuration (Itanium)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 period=150000    # user only\n"
    "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 plm=0xf pm=0 ism=ia64 thres=1 period=4000\n"
    "opcode PMC9 class=nop                                      # PMC6: cycles retiring 2+ nop.m/i/f\n"
    "PMC7 event=L1D_READ_MISSES_ALL plm=0x1 pm=1 period=500     # kernel misses, privileged monitor\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

const char *pmu_config_default_text(pmu_model model)
{
    return model == PMU_MODEL_ITANIUM ? default_itanium : default_itanium2;
}
