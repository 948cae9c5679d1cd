/*
 * ref_speed.c - steps per second of the reference model alone (`make csim-speed`).
 *
 * The records come from the workload generator and are produced before the
 * clock starts, so only pmu_step() is timed.  Each configuration counts the
 * same four events; they differ in what the qualification registers
 * constrain, which is what decides whether a step computes slot tags.
 *
 *   build/csim_speed [cycles [model setup]]   (default 5000000; all six runs)
 *
 * model 0/1 and setup 0..2 select one run, e.g. for valgrind --tool=callgrind
 * when the machine is too busy for a steady clock.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_family.h"
#include "stream/pmu_stream.h"

/* Generated once, stepped round and round; few enough to stay in the cache,
 * as records do when pmusim generates them on the fly. */
#define RECORDS 4096u

static uint16_t pmc(unsigned i) { return ITA_ADDR(ITA_SPACE_PMC, i); }
static uint16_t ibr(unsigned i) { return ITA_ADDR(ITA_SPACE_IBR, i); }
static uint16_t dbr(unsigned i) { return ITA_ADDR(ITA_SPACE_DBR, i); }

static uint64_t counter_config(ita_model m, int ev)
{
    uint64_t v = 0;
    v = ITA_FSET(v, PMC_GEN, PLM, 0xf);
    v = ITA_FSET(v, PMC_GEN, ES, (unsigned)ita_event_code(&ita_event_table[ev], m));
    return ITA_FSET(v, PMC_GEN, UMASK, ita_event_table[ev].umask);
}

enum setup { NOTHING, RANGE_AND_OPCODE, EVERYTHING };
static const char *const setup_name[] = {
    "nothing programmed (reset qualification registers)",
    "instruction range + opcode matcher on pair 0",
    "instruction range, opcode and data range on every pair",
};

static void program(pmu_backend *b, ita_model m, enum setup s)
{
    pmu_write(b, pmc(0), 0);
    pmu_write(b, ita_vis_table[ITA_VIS_PSR].addr, ITA_FSET(ITA_FSET(0, PSR, UP, 1), PSR, PP, 1));
    pmu_write(b, pmc(4), counter_config(m, ITA_EV_IA64_INST_RETIRED));
    pmu_write(b, pmc(5), counter_config(m, ITA_EV_LOADS_RETIRED));
    pmu_write(b, pmc(6), counter_config(m, ITA_EV_NOPS_RETIRED));
    pmu_write(b, pmc(7), counter_config(m, ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED));
    if (s == NOTHING)
        return;
    /* A 1 MB code block and a 1 MB data block somewhere in the workload's
     * regions; an opcode pattern that keeps M-unit slots whose major opcode
     * is even (bit 40 = 0). */
    const uint64_t block_mask = ~((uint64_t)(1u << 20) - 1) & ITA_FMASK(IBR_MASK, MASK);
    for (unsigned k = 0; k < 4; k++) {
        pmu_write(b, ibr(2 * k), 0x4000000000000000ull);
        pmu_write(b, ibr(2 * k + 1), ITA_FSET(block_mask, IBR_MASK, PLM, 0xf));
        pmu_write(b, dbr(2 * k), 0x6000000000100000ull);
        pmu_write(b, dbr(2 * k + 1), ITA_FSET(block_mask, DBR_MASK, PLM, 0xf));
    }
    uint64_t opc = ITA_FSET(0, PMC_OPC, MASK, 0x3ffffff); /* only field bit 26 (instr bit 40) */
    opc = ITA_FSET(opc, PMC_OPC, M, 1);
    pmu_write(b, pmc(8), opc);
    pmu_write(b, pmc(9), opc);
    if (m == ITA_MODEL_ITANIUM) {
        pmu_write(b, pmc(13), ITA_FSET(0, PMC13, TA, 0));
        pmu_write(b, pmc(11), ITA_FSET(0, PMC11, PT, s == EVERYTHING ? 0 : 1));
        return;
    }
    uint64_t pmc14 = 0; /* every pair constrained, not fine mode */
    if (s != EVERYTHING) /* pair 0 only */
        pmc14 = ITA_FSET(ITA_FSET(ITA_FSET(0, PMC14, IBRP1, 1), PMC14, IBRP2, 1), PMC14, IBRP3, 1);
    pmu_write(b, pmc(14), pmc14);
    pmu_write(b, pmc(15), s == EVERYTHING ? 0 : 0xe);
    if (s == EVERYTHING)
        pmu_write(b, pmc(13), ITA_FSET(ITA_FSET(0, PMC13, ENA_DBRP0, 1), PMC13, ENA_DBRP1, 1));
}

int main(int argc, char **argv)
{
    const uint64_t cycles = argc > 1 ? strtoull(argv[1], NULL, 0) : 5000000u;
    const int only_model = argc > 3 ? atoi(argv[2]) : -1, only_setup = argc > 3 ? atoi(argv[3]) : -1;
    ita_cycle *recs = malloc(RECORDS * sizeof *recs);
    pmu_gen_opts o = {.seed = 1, .cycles = RECORDS, .mode = PMU_GEN_WORKLOAD, .nprocs = 4, .hot = NULL};
    pmu_gen *g = pmu_gen_create(&ita_dialect, &o, NULL);
    if (!recs || !g) {
        fprintf(stderr, "ref_speed: cannot set up the generator\n");
        return 1;
    }
    for (unsigned i = 0; i < RECORDS; i++)
        if (pmu_gen_next(g, &recs[i]) != 1) {
            fprintf(stderr, "ref_speed: the generator stopped at record %u\n", i);
            return 1;
        }
    pmu_gen_destroy(g);

    for (int model = ITA_MODEL_ITANIUM; model <= ITA_MODEL_ITANIUM2; model++) {
        for (int s = NOTHING; s <= EVERYTHING; s++) {
            if ((only_model >= 0 && model != only_model) || (only_setup >= 0 && s != only_setup))
                continue;
            ita_params p = ita_params_default();
            p.model = (ita_model)model;
            pmu_backend *b = ita_ref_create(&p);
            if (!b)
                return 1;
            program(b, p.model, (enum setup)s);
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (uint64_t i = 0; i < cycles; i++)
                pmu_step(b, &recs[i % RECORDS]);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            const double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            printf("%-9s %-56s %6.1f M steps/s  (PMD4..7 = %llu %llu %llu %llu)\n",
                   model == ITA_MODEL_ITANIUM ? "Itanium" : "Itanium2", setup_name[s], (double)cycles / sec / 1e6,
                   (unsigned long long)pmu_read(b, ITA_ADDR(ITA_SPACE_PMD, 4)),
                   (unsigned long long)pmu_read(b, ITA_ADDR(ITA_SPACE_PMD, 5)),
                   (unsigned long long)pmu_read(b, ITA_ADDR(ITA_SPACE_PMD, 6)),
                   (unsigned long long)pmu_read(b, ITA_ADDR(ITA_SPACE_PMD, 7)));
            pmu_destroy(b);
        }
    }
    free(recs);
    return 0;
}
