/*
 * cmd_count.c - `pmusim count`: run a stream with the overflow driver and print the
 * 64-bit counts of each event, in total or per process.  Where a reference model runs
 * (cosim, ref), the counts are checked against its exact per-process totals.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "pmu_cosim.h"

static void count_help(FILE *f)
{
    fprintf(f, "usage: pmusim count -e EVENT[:mod...] [-e ...] [--per-process]\n"
               "                    [--stream FILE | --seed N --cycles N [--mode M] [--procs N]]\n"
               "                    [--backend cosim|rtl|ref] [--model itanium|itanium2]\n"
               "                    [--system-wide [--dcr-pp 0|1]] [--pid N[,N...]] [--irq-latency N]\n"
               "\n"
               "  -e, --event EV     up to 4 events; modifiers :u :k :plm=N :thres=N :ism=ia64|ia32|both\n"
               "                     (no privilege modifier = user level)\n"
               "  --per-process      one row per process\n");
    drv_cli_help(f);
    fprintf(f, "\nexit status: 0 ok, 1 lock-step mismatch or counts not exact, 2 bad arguments or input\n"
               "docs/driver.md describes the driver behind the counts.\n");
}

static const char *session_text(const drv_cli *o)
{
    if (o->system_wide)
        return o->dcr_pp ? "system-wide (pm=1, PSR.pp; DCR.pp=1: interruption handlers count)"
                         : "system-wide (pm=1, PSR.pp; DCR.pp=0: interruption handlers do not count)";
    return o->npids ? "per-process user monitors (pm=0, PSR.up) of the listed processes"
                    : "per-process user monitors (pm=0, PSR.up) of every process";
}

int pmusim_cmd_count(int argc, char **argv)
{
    drv_cli o;
    drv_cli_init(&o, "count");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            count_help(stdout);
            return 0;
        }
        int r = drv_cli_option(&o, argc, argv, &i);
        if (r < 0)
            return DRV_CLI_EXIT_USAGE;
        if (r == 0)
            return drv_cli_usage(&o, "unknown argument '%s' (see pmusim count --help)", argv[i]);
    }
    int rc = drv_cli_check(&o);
    if (rc)
        return rc;
    pmu_drv_config cfg;
    unsigned counter[PMULIB_MAX_EVENTS];
    rc = drv_cli_config(&o, &cfg, counter);
    if (rc)
        return rc;

    drv_cli_session s;
    rc = drv_cli_run(&o, &cfg, NULL, NULL, &s);
    if (rc) {
        drv_cli_session_free(&s);
        return rc;
    }

    printf("session: %s\n", session_text(&o));
    unsigned width = 20;
    for (unsigned i = 0; i < o.nevents; i++)
        if (strlen(o.event[i]) > width)
            width = (unsigned)strlen(o.event[i]);
    uint64_t v;
    if (o.per_process) {
        static uint32_t pids[0x10001];
        unsigned n = drv_cli_context_pids(&s, pids);
        printf("%-8s", "pid");
        for (unsigned i = 0; i < o.nevents; i++)
            printf(" %*s", (int)width, o.event[i]);
        printf("\n");
        for (unsigned p = 0; p < n; p++) {
            printf("%-8" PRIu32, pids[p]);
            for (unsigned i = 0; i < o.nevents; i++) {
                pmu_drv_read(s.d, pids[p], counter[i], &v);
                printf(" %*" PRIu64, (int)width, v);
            }
            printf("\n");
        }
        printf("%-8s", "all");
        for (unsigned i = 0; i < o.nevents; i++)
            printf(" %*" PRIu64, (int)width, pmu_drv_total(s.d, counter[i]));
        printf("\n");
    } else {
        printf("%-*s %-8s %20s\n", (int)width, "event", "counter", "64-bit count");
        for (unsigned i = 0; i < o.nevents; i++)
            printf("%-*s PMD%-5u %20" PRIu64 "\n", (int)width, o.event[i], PMU_FIRST_COUNTER + counter[i],
                   pmu_drv_total(s.d, counter[i]));
    }
    const pmu_drv_stats *st = pmu_drv_get_stats(s.d);
    char monitored[32];
    if (pmu_drv_read(s.d, PMU_DRV_ALL_PIDS, counter[0], &v) == 0)
        snprintf(monitored, sizeof monitored, "all, in one context");
    else
        snprintf(monitored, sizeof monitored, "%u", pmu_drv_ncontexts(s.d));
    printf("records: %" PRIu64 ", context switches: %" PRIu64 ", overflow interrupts: %" PRIu64
           ", processes monitored: %s\n",
           s.records, st->switches, st->interrupts, monitored);
    unsigned used = 0;
    for (unsigned i = 0; i < o.nevents; i++)
        used |= 1u << counter[i];
    int exact = drv_cli_check_exact(&o, &s, used, stdout);
    if (o.backend == DRV_CLI_COSIM)
        printf("lock-step: %" PRIu64 " cycles, 0 mismatches\n", s.records);
    drv_cli_session_free(&s);
    return exact ? 0 : DRV_CLI_EXIT_FAIL;
}
