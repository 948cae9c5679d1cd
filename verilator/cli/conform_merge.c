/*
 * conform_merge.c - `pmusim conform-merge`: the JSON summaries of the shards of one
 * conformance plan (pmusim conform --shard I/N --json FILE) put together into one report:
 * the cases and cycles run, the mismatches with their replay commands, the slowest cases,
 * and which shards are missing (docs/conformance.md).  Optionally the merged JSON summary
 * and JUnit XML, as one shard of one would have written them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pmu_cli.h"

#define MAX_SHARD_FILES 4096
#define SUMMARY_LIMIT (256u << 20) /* bytes of one shard's summary */
#define SLOWEST_DEFAULT 10

typedef struct merge_opts {
    const char *out, *junit;
    uint64_t slowest;
    const char *args[MAX_SHARD_FILES];
    unsigned nargs;
} merge_opts;

static void merge_help(FILE *f)
{
    fprintf(f, "usage: pmusim conform-merge [-o FILE] [--junit FILE] [--slowest N] SHARD.json...\n"
               "\n"
               "Puts together the JSON summaries of the shards of one plan (pmusim conform --shard I/N\n"
               "--json FILE): cases and cycles run, mismatches and inexact counts with their replay\n"
               "commands, the slowest cases, and the shards that are missing.\n"
               "\n"
               "  -o, --output FILE  the merged JSON summary (as one shard of one would write it)\n"
               "  --junit FILE       the merged results as JUnit XML\n"
               "  --slowest N        how many of the slowest cases to list (default 10)\n"
               "\n"
               "exit status: 0 every case of the plan passed, 1 a case failed or a shard is missing,\n"
               "             2 bad arguments, a file that is not a summary of the same plan, or one\n"
               "               whose cases are not its shard's own, each once, with its totals\n");
}

static const pmu_cli_cmd merge_cmd = {.name = "conform-merge", .help = merge_help, .min_args = 1,
                                      .max_args = MAX_SHARD_FILES, .args_what = "the shards' JSON summaries"};

/* Reads the shard summaries into one (its shard 1 of 1) and checks that they are shards of
 * the same plan, each once.  Returns 0, or the exit status with the message printed;
 * *seen[i] says whether shard i+1 was given. */
static int read_shards(const merge_opts *o, pmu_files *files, pmu_conform_summary *all, unsigned char **seen)
{
    pmu_err err;
    for (unsigned i = 0; i < o->nargs; i++) {
        char *text;
        size_t len;
        pmu_conform_summary s;
        if (pmu_files_read(files, "SHARD.json", o->args[i], SUMMARY_LIMIT, "a conformance summary", &text, &len,
                           &err))
            return pmu_cli_error(&merge_cmd, &err);
        int rc = pmu_conform_read_json(text, len, o->args[i], &s, &err);
        free(text);
        if (rc)
            return pmu_cli_error(&merge_cmd, &err);
        if (i == 0) {
            snprintf(all->plan, sizeof all->plan, "%s", s.plan);
            all->plan_cases = s.plan_cases;
            all->nshards = s.nshards;
            if (!(*seen = calloc(s.nshards, 1))) {
                pmu_conform_free(&s);
                return pmu_cli_fail(&merge_cmd, PMU_EXIT_FAIL, "out of memory");
            }
        }
        rc = 0;
        if (strcmp(s.plan, all->plan) != 0 || s.plan_cases != all->plan_cases)
            rc = pmu_cli_fail(&merge_cmd, PMU_EXIT_USAGE, "%s: plan \"%s\", expected \"%s\" (that of %s)",
                              o->args[i], s.plan, all->plan, o->args[0]);
        else if (s.nshards != all->nshards)
            rc = pmu_cli_fail(&merge_cmd, PMU_EXIT_USAGE, "%s: shard %u of %u, expected shards of %u (as %s)",
                              o->args[i], s.shard, s.nshards, all->nshards, o->args[0]);
        else if ((*seen)[s.shard - 1])
            rc = pmu_cli_fail(&merge_cmd, PMU_EXIT_USAGE, "%s: shard %u/%u given twice", o->args[i], s.shard,
                              s.nshards);
        if (rc == 0)
            pmu_conform_stamp_merge(all, &s, i == 0);
        for (size_t k = 0; rc == 0 && k < s.n; k++)
            if (pmu_conform_add(all, &s.r[k]))
                rc = pmu_cli_fail(&merge_cmd, PMU_EXIT_FAIL, "out of memory");
        if (rc == 0)
            (*seen)[s.shard - 1] = 1;
        pmu_conform_free(&s);
        if (rc)
            return rc;
    }
    return 0;
}

/* Slowest first. */
static int by_seconds(const void *a, const void *b)
{
    const pmu_conform_result *x = *(const pmu_conform_result *const *)a, *y = *(const pmu_conform_result *const *)b;
    return (x->seconds < y->seconds) - (x->seconds > y->seconds);
}

static void print_report(const merge_opts *o, const pmu_conform_summary *all, const unsigned char *seen,
                         unsigned missing)
{
    pmu_conform_totals_t t;
    pmu_conform_totals(all, &t);
    char name[160];
    printf("conformance: plan \"%s\"\n", all->plan);
    printf("shards: %u of %u", all->nshards - missing, all->nshards);
    if (missing) {
        printf("; missing:");
        for (unsigned i = 0, shown = 0; i < all->nshards && shown < 20; i++)
            if (!seen[i])
                printf(" %u/%u", i + 1, all->nshards), shown++;
        if (missing > 20)
            printf(" ...");
    }
    printf("\ncases: %" PRIu64 " of %" PRIu64 "; %" PRIu64 " lock-step cycles in %.1f s of runs\n", t.cases,
           all->plan_cases, t.cycles, t.seconds);
    printf("mismatches: %" PRIu64 "; inexact counts: %" PRIu64 "\n", t.mismatches, t.failed - t.mismatches);
    const pmu_conform_result **order = malloc((all->n ? all->n : 1) * sizeof *order);
    if (order && all->n) {
        for (size_t i = 0; i < all->n; i++)
            order[i] = &all->r[i];
        qsort(order, all->n, sizeof *order, by_seconds);
        printf("slowest cases:\n");
        for (size_t i = 0; i < all->n && i < o->slowest; i++) {
            pmu_conform_case_name(order[i], name, sizeof name);
            printf("  %8.3f s  %s (%" PRIu64 " cycles)\n", order[i]->seconds, name, order[i]->cycles);
        }
    }
    free(order);
    for (size_t i = 0; i < all->n; i++) {
        const pmu_conform_result *r = &all->r[i];
        if (r->status == PMU_CONFORM_PASSED)
            continue;
        pmu_conform_case_name(r, name, sizeof name);
        size_t head = r->message ? strcspn(r->message, "\n") : 0;
        printf("FAILED %s: %s: %.*s\n  reproduce: %s\n", name, pmu_conform_status_names[r->status], (int)head,
               r->message ? r->message : "", r->replay);
    }
}

static int write_merged(pmu_outfile *out, const char *opt, const pmu_conform_summary *s, int junit)
{
    pmu_err err;
    return pmu_conform_save(out, opt, s, junit, &err) ? pmu_cli_error(&merge_cmd, &err) : 0;
}

static int merge_body(merge_opts *o, pmu_files *files, pmu_conform_summary *all, unsigned char **seen)
{
    pmu_err err;
    int rc = read_shards(o, files, all, seen);
    if (rc)
        return rc;
    /* The outputs are checked against the inputs, which were all registered above. */
    pmu_outfile *json = NULL, *junit = NULL;
    if ((o->out && !(json = pmu_files_output(files, "--output", o->out, 0, &err))) ||
        (o->junit && !(junit = pmu_files_output(files, "--junit", o->junit, 0, &err))))
        return pmu_cli_error(&merge_cmd, &err);
    unsigned missing = 0;
    for (unsigned i = 0; i < all->nshards; i++)
        missing += !(*seen)[i];
    print_report(o, all, *seen, missing);
    /* The merged summary is the plan's only shard. */
    const unsigned nshards = all->nshards;
    all->shard = all->nshards = 1;
    if ((json && (rc = write_merged(json, "--output", all, 0))) ||
        (junit && (rc = write_merged(junit, "--junit", all, 1))))
        return rc;
    all->nshards = nshards;
    pmu_conform_totals_t t;
    pmu_conform_totals(all, &t);
    printf("%" PRIu64 " passed, %" PRIu64 " failed\n", t.cases - t.failed, t.failed);
    if (missing || t.cases != all->plan_cases) {
        printf("incomplete: %u of %u shards, %" PRIu64 " of %" PRIu64 " cases\n", nshards - missing, nshards,
               t.cases, all->plan_cases);
        return PMU_EXIT_FAIL;
    }
    return t.failed ? PMU_EXIT_FAIL : PMU_EXIT_OK;
}

int pmusim_cmd_conform_merge(int argc, char **argv)
{
    merge_opts o;
    memset(&o, 0, sizeof o);
    o.slowest = SLOWEST_DEFAULT;
    pmu_opt opts[] = {
        {.name = "output", .key = 'o', .kind = PMU_OPT_FILE, .dest = &o.out},
        {.name = "junit", .kind = PMU_OPT_FILE, .dest = &o.junit},
        {.name = "slowest", .kind = PMU_OPT_U64, .dest = &o.slowest, .max = UINT32_MAX},
    };
    int rc = pmu_cli_parse(&merge_cmd, opts, sizeof opts / sizeof opts[0], argc, argv, o.args, &o.nargs);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    pmu_files *files = pmu_files_new();
    if (!files)
        return pmu_cli_fail(&merge_cmd, PMU_EXIT_FAIL, "out of memory");
    pmu_conform_summary all;
    memset(&all, 0, sizeof all);
    unsigned char *seen = NULL;
    rc = merge_body(&o, files, &all, &seen);
    pmu_conform_free(&all);
    pmu_files_free(files);
    free(seen);
    return rc;
}
