/*
 * config_defaults.c - the built-in configuration (ita_config_default_text), in the file
 * format of docs/ita-config-format.md, which shows it line for line (a test checks that).
 */
#include "cli/ita/ita_config.h"

/* Periods are chosen so that each counter overflows several times in the default
 * 1,000,000-cycle workload (docs/ita-config-format.md).  Each model shows one EAR and one
 * BTB counter (docs/ita-ear-btb.md): the D-EAR on kernel loads of 16 cycles or more under a
 * privileged monitor, and the BTB recording user branches.  Event qualification: on
 * Itanium 2 a code range (IBR pairs 1 and 3 in fine mode) over the first process's main,
 * which the workload places at 0x4000000000000000 for every seed (0x120 bytes with seed
 * 1), taken by IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 alone (the other counters' events use
 * pair 0, which stays unconstrained).  On Itanium, where a code range would tag every
 * counter and the opcode matcher PMC8 qualifies every instruction event, PMC8 matches
 * major opcode 4 in M and B slots: integer loads and stores, which the D-EAR samples, and
 * ip-relative branches, which the BTB records.  ism=ia64 because IA-32 instructions pass
 * every range and opcode check. */
static const char default_itanium2[] =
    "# pmusim built-in configuration (Itanium 2)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=BRANCH_EVENT plm=0x8 pm=0 period=5000           # user branches the BTB records\n"
    "PMC12 plm=0x8 pm=0 tm=3 ptm=3 ppm=3 brt=0                  # PMC5: the BTB records every branch\n"
    "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 plm=0xf pm=0 ism=ia64 thres=1 period=8000\n"
    "irange 0x4000000000000000..0x4000000000000120 fine pair=1  # PMC6: cycles retiring 2+ instructions of main\n"
    "PMC7 event=DATA_EAR_EVENTS plm=0x1 pm=1 period=40          # kernel D-EAR captures, privileged monitor\n"
    "PMC11 plm=0x1 pm=1 mode=0 umask=2                          # PMC7: the D-EAR takes loads of 16+ cycles\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

static const char default_itanium[] =
    "# pmusim built-in configuration (Itanium)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0xf pm=0 ism=ia64 thres=1 period=8000\n"
    "opcode PMC8 match=0x2000000 mask=0x7fffff slots=mb         # major opcode 4: integer loads, stores, ip-relative branches\n"
    "PMC6 event=BRANCH_EVENT plm=0x8 pm=0 period=5000           # user branches the BTB records\n"
    "PMC12 plm=0x8 pm=0 tm=3 ptm=3 ppm=3                        # PMC6: the BTB records every branch PMC8 passes\n"
    "PMC7 event=DATA_EAR_EVENTS plm=0x1 pm=1 period=25          # kernel D-EAR captures, privileged monitor\n"
    "PMC11 plm=0x1 pm=1 umask=2                                 # PMC7: the D-EAR (cache mode) takes loads of 16+ cycles\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

const char *ita_config_default_text(ita_model model)
{
    return model == ITA_MODEL_ITANIUM ? default_itanium : default_itanium2;
}
