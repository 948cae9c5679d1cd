/*
 * pmu_kit_example.c - the reference model and the PMU software from the installed kit
 * (docs/kit.md), built outside the tree with nothing but
 *     cc pmu_kit_example.c $(pkg-config --cflags --libs pmusim)
 * (tests/kit/kit.sh builds and runs it so).
 *
 * The event library (include/sw/ita/ita_evlib.h) turns two event names into the Itanium 2
 * PMU's register writes; they go to the C reference model (include/csim/ita/ita_ref.h),
 * which then executes a generated workload (include/stream/pmu_stream.h).  The counters
 * read back must equal the model's exact event totals: exit status 0 when they do, 1 when
 * not, 2 for a bad argument.
 *
 * Usage: pmu_kit_example [RECORDS]   (default 20000, at most 1000000: no counter wraps)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "common/ita/ita_regs.h"
#include "csim/ita/ita_ref.h"
#include "stream/pmu_family_dialects.h"
#include "stream/pmu_stream.h"
#include "sw/ita/ita_evlib.h"

static const char *const events[] = {"CPU_CYCLES:plm=15", "IA64_INST_RETIRED:plm=15"};
#define NEVENTS (sizeof events / sizeof events[0])

int main(int argc, char **argv)
{
    uint64_t records = 20000;
    if (argc > 2 || (argc == 2 && ((records = strtoull(argv[1], NULL, 0)) == 0 || records > 1000000))) {
        fprintf(stderr, "pmu_kit_example: argument 1: expected a number of records, 1..1000000\n");
        return 2;
    }
    pmu_err err = {0};
    ita_evlib_request req = ita_evlib_request_init(ITA_MODEL_ITANIUM2);
    req.nevents = NEVENTS;
    for (unsigned i = 0; i < NEVENTS; i++)
        if (ita_evlib_parse_event(events[i], &req.events[i], &err) != ITA_EVLIB_OK) {
            fprintf(stderr, "pmu_kit_example: %s\n", err.msg);
            return 1;
        }
    ita_evlib_dispatch d;
    if (ita_evlib_dispatch_request(&req, &d, &err) != ITA_EVLIB_OK) {
        fprintf(stderr, "pmu_kit_example: %s\n", err.msg);
        return 1;
    }

    pmu_backend *pmu = ita_ref_new(NULL, &err);
    pmu_gen_opts o = {.seed = 1, .cycles = records, .mode = PMU_GEN_WORKLOAD};
    pmu_source *src = pmu ? pmu_source_generator(pmu_family_dialect_itanium, &o, &err) : NULL;
    if (!src) {
        fprintf(stderr, "pmu_kit_example: %s\n", err.msg);
        pmu_destroy(pmu);
        return 1;
    }
    /* The library's writes, then PSR.up (user monitors: :plm events are not pm) and the
     * unfreeze, as a kernel would. */
    for (unsigned i = 0; i < d.nwrites; i++)
        pmu_write(pmu, d.writes[i].addr, d.writes[i].value);
    pmu_write(pmu, ITA_ADDR(ITA_SPACE_CPU, 0), ITA_FSET(0, PSR, UP, 1));
    pmu_write(pmu, ITA_ADDR(ITA_SPACE_PMC, 0), 0);

    void *rec = malloc(pmu_family_dialect_itanium->record_size);
    uint64_t n = 0;
    int r = -1;
    while (rec && (r = pmu_source_next(src, rec, &err)) == 1) {
        pmu_step(pmu, rec);
        n++;
    }
    int status = 0;
    if (r < 0) {
        fprintf(stderr, "pmu_kit_example: %s\n", rec ? err.msg : "out of memory");
        status = 1;
    }
    printf("pmu_kit_example: %" PRIu64 " records on the Itanium 2 reference model\n", n);
    for (unsigned i = 0; i < NEVENTS; i++) {
        unsigned c = d.counter[i];
        uint64_t count = pmu_read(pmu, ITA_ADDR(ITA_SPACE_PMD, c)) & ((1ull << ita_counter_width(ITA_MODEL_ITANIUM2)) - 1);
        uint64_t total = ita_ref_total(pmu, c);
        printf("  PMD%u %-24s %10" PRIu64 "  exact total %10" PRIu64 "  %s\n", c, events[i], count, total,
               count == total ? "equal" : "DIFFERENT");
        if (count != total || count == 0)
            status = 1;
    }
    free(rec);
    pmu_source_close(src);
    pmu_destroy(pmu);
    return status;
}
