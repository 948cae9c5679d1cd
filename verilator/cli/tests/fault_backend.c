/*
 * fault_backend.c - test code only: a pmusim whose RTL can be told to go wrong, so that the
 * commands' mismatch reports (the report on stderr, run --json's "mismatch", conform's
 * JSON and JUnit, conform-merge, the replay line) are checked end to end on a real
 * disagreement, not only on clean runs (verilator/cli/tests/mismatch_reports.sh).
 *
 * The wrapper is the shared one of verilator/harness/tests/pmu_fault.c.
 * Linked into build/tests/pmusim_faulty with -Wl,--wrap=pmu_cosim_create: every lock-step
 * pair the commands make gets its RTL wrapped when PMUSIM_TEST_FAULT names a fault:
 *   drop-step@N   the RTL never sees record N (0-based, counted from the last reset), so its
 *                 counters fall one record behind the reference's from there;
 *   pmi-lost@N    the RTL's interrupt line reads 0 after record N.
 * Unset, the pair is made as pmusim makes it.  A malformed value is one line on stderr and
 * exit 2, as a bad argument is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/pmu_cosim.h"
#include "harness/pmu_fault.h"

pmu_backend *__real_pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                                     pmu_cosim_where_fn where, void *where_ctx);
pmu_backend *__wrap_pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                                     pmu_cosim_where_fn where, void *where_ctx);

_Noreturn static void bad_fault(const char *v)
{
    fprintf(stderr, "PMUSIM_TEST_FAULT: expected drop-step@N or pmi-lost@N (N a decimal record number), found '%s'\n",
            v);
    exit(2);
}

pmu_backend *__wrap_pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                                     pmu_cosim_where_fn where, void *where_ctx)
{
    const char *v = getenv("PMUSIM_TEST_FAULT");
    if (!v || !*v || !rtl)
        return __real_pmu_cosim_create(fam, ref, rtl, where, where_ctx);
    pmu_fault fault = {0};
    const char *num;
    if (!strncmp(v, "drop-step@", 10))
        fault.kind = PMU_FAULT_DROP_STEP, num = v + 10;
    else if (!strncmp(v, "pmi-lost@", 9))
        fault.kind = PMU_FAULT_PMI_LOST, num = v + 9;
    else
        bad_fault(v);
    char *end;
    errno = 0;
    fault.at = strtoull(num, &end, 10);
    if (*num < '0' || *num > '9' || *end || errno)
        bad_fault(v);
    pmu_backend *f = pmu_fault_wrap(rtl, &fault);
    if (!f)
        return NULL; /* the caller reports out of memory and destroys ref and rtl */
    pmu_backend *pair = __real_pmu_cosim_create(fam, ref, f, where, where_ctx);
    if (!pair)
        pmu_fault_release(f); /* rtl itself goes back to the caller, who destroys it */
    return pair;
}
