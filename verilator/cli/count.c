/*
 * count.c - `pmusim count`: run a stream under the family's overflow driver and print
 * the 64-bit counts of each event, in total or per process.  Where a reference model
 * runs (cosim, ref), the counts are checked against its exact per-process totals.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "monitor.h"
#include "common/pmu_text.h"

static void count_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    if (!monitor_help_takes(f, cmd, fam))
        return;
    int pp = pmu_cli_takes(cmd, fam, "per-process");
    fprintf(f, "usage: %s count -e EVENT [-e ...]%s\n"
               "                    [--stream FILE | --seed N --cycles N [--mode M] [--procs N]]\n"
               "                    [--backend cosim|rtl|ref] [--family NAME] [--model NAME]",
            pmu_cli_title, pp ? " [--per-process]" : "");
    monitor_usage(f, cmd, fam, 19);
    fprintf(f, " [--json] [--plot FILE] [--plot-data FILE]\n\n");
    monitor_help_line(f, "-e, --event EV", monitor_events(fam));
    if (pp)
        fprintf(f, "  --per-process      one row per process\n");
    fprintf(f, "  --json             print one JSON object (docs/json.md); the exactness and lock-step\n"
               "                     lines go to stderr\n");
    fprintf(f, "  --plot FILE        draw each counter over the cycles (.svg, .png or .pdf): the raw\n"
               "                     counter with its wraps, the 64-bit count, the interrupts and\n"
               "                     the frozen spans (docs/plots.md)\n"
               "  --plot-data FILE   the plot's columns as text: values and where they are drawn\n");
    monitor_help(f, cmd, fam);
    fprintf(f, "\nexit status: 0 ok, 1 lock-step mismatch or counts not exact, 2 bad arguments or input\n");
    pmu_cli_family_help_end(f, cmd, fam);
}

static const pmu_cli_cmd count_cmd = {.name = "count", .family_help = count_help};

static void print_counts(const monitor_opts *o, const pmu_monitor_counts *c)
{
    const pmu_monitor_request *rq = &o->rq;
    unsigned width = 20;
    for (unsigned i = 0; i < rq->nevents; i++)
        if (strlen(rq->events[i]) > width)
            width = (unsigned)strlen(rq->events[i]);
    if (!rq->per_process) {
        printf("%-*s %-8s %20s\n", (int)width, "event", "counter", "64-bit count");
        for (unsigned i = 0; i < rq->nevents; i++)
            printf("%-*s %-8s %20" PRIu64 "\n", (int)width, rq->events[i], c->counter[i], c->total[i]);
        return;
    }
    printf("%-8s", "pid");
    for (unsigned i = 0; i < rq->nevents; i++)
        printf(" %*s", (int)width, rq->events[i]);
    printf("\n");
    for (unsigned p = 0; p < c->ncontexts; p++) {
        printf("%-8" PRIu32, c->pid[p]);
        for (unsigned i = 0; i < rq->nevents; i++)
            printf(" %*" PRIu64, (int)width, c->count[(size_t)p * rq->nevents + i]);
        printf("\n");
    }
    printf("%-8s", "all");
    for (unsigned i = 0; i < rq->nevents; i++)
        printf(" %*" PRIu64, (int)width, c->total[i]);
    printf("\n");
}

static void print_json(const monitor_opts *o, const monitor_session *s)
{
    const pmu_monitor_request *rq = &o->rq;
    const pmu_monitor_counts *c = s->counts;
    printf("{");
    pmu_cli_json_target(stdout, o->t.fam, s->b, &o->r);
    printf(",\n  \"session\": ");
    pmu_json_string(stdout, s->cmds->monitor_session(s->m));
    printf(",\n  \"events\": [");
    for (unsigned i = 0; i < rq->nevents; i++) {
        printf("%s\n    {\"event\": ", i ? "," : "");
        pmu_json_string(stdout, rq->events[i]);
        printf(", \"counter\": ");
        pmu_json_string(stdout, c->counter[i]);
        printf(", \"count\": %" PRIu64 "}", c->total[i]);
    }
    /* Per process: the contexts' rows, as the text's (one context: none of their own). */
    printf("],\n  \"one_context\": %s, \"processes\": ", c->one_context ? "true" : "false");
    if (!rq->per_process) {
        printf("null");
    } else {
        printf("[");
        for (unsigned p = 0; p < c->ncontexts; p++) {
            printf("%s\n    {\"pid\": %" PRIu32 ", \"counts\": [", p ? "," : "", c->pid[p]);
            for (unsigned i = 0; i < rq->nevents; i++)
                printf("%s%" PRIu64, i ? ", " : "", c->count[(size_t)p * rq->nevents + i]);
            printf("]}");
        }
        printf("]");
    }
    printf(", \"contexts\": %u", c->ncontexts);
}

int pmusim_cmd_count(int argc, char **argv)
{
    monitor_opts o;
    pmu_opt opts[MONITOR_MAX_OPTS];
    unsigned n = monitor_opts_init(&o, &count_cmd, opts);
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o.json};
    opts[n++] = (pmu_opt){.name = "plot-data", .kind = PMU_OPT_FILE, .dest = &o.plot_data};
    o.timeline = 1;
    o.nopts = n;
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&count_cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    if ((rc = monitor_opts_check(&o)))
        return rc;

    monitor_session s;
    rc = monitor_run(&o, &s);
    if (rc == 0 && o.json) {
        print_json(&o, &s);
        rc = monitor_json_end(&s);
    } else if (rc == 0) {
        const pmu_monitor_counts *c = s.counts;
        printf("session: %s\n", s.cmds->monitor_session(s.m));
        print_counts(&o, c);
        char monitored[32];
        if (c->one_context)
            snprintf(monitored, sizeof monitored, "all, in one context");
        else
            snprintf(monitored, sizeof monitored, "%u", c->ncontexts);
        printf("records: %" PRIu64 ", context switches: %" PRIu64 ", overflow interrupts: %" PRIu64
               ", processes monitored: %s\n",
               s.loop.records, c->switches, c->interrupts, monitored);
        rc = s.cmds->monitor_check(s.m, stdout) ? PMU_EXIT_OK : PMU_EXIT_FAIL;
        monitor_lockstep_line(&s, stdout);
    }
    monitor_close(&s);
    return rc;
}
