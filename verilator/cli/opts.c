/*
 * opts.c - the one option parser of pmusim (getopt_long) and its messages (cli/pmu_cli.h).
 */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pmu_cli.h"
#include "common/pmu_num.h"

#define MAX_OPTS 48
#define MAX_ARGS 4096 /* conform-merge: a shard file each */
#define LONG_KEY_BASE 256 /* getopt_long's value of an option without a short letter */

const char *pmu_cli_program = "pmusim";
const char *pmu_cli_title = "pmusim";

FILE *pmu_cli_out(const pmu_cli_cmd *cmd) { return cmd->out ? cmd->out : stdout; }
static FILE *cli_err(const pmu_cli_cmd *cmd) { return cmd->err ? cmd->err : stderr; }

/* One line: control and non-ASCII bytes the message still holds are escaped as
 * pmu_escape does (values quoted in messages were escaped already, so a backslash is
 * left as it is). */
static void print_line(const pmu_cli_cmd *cmd, const char *msg, const char *suffix)
{
    char safe[1024];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)msg; *p && n + 5 < sizeof safe; p++) {
        if (*p >= 0x20 && *p < 0x7f) {
            safe[n++] = (char)*p;
            continue;
        }
        char one[2] = {(char)*p, '\0'}, esc[8];
        pmu_escape(one, 1, esc, sizeof esc);
        for (const char *e = esc; *e; e++)
            safe[n++] = *e;
    }
    safe[n] = '\0';
    fprintf(cli_err(cmd), "pmusim %s: %s%s\n", cmd->name, safe, suffix);
}

int pmu_cli_usage(const pmu_cli_cmd *cmd, const char *fmt, ...)
{
    char msg[768], suffix[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(suffix, sizeof suffix, " (see pmusim %s --help)", cmd->name);
    print_line(cmd, msg, suffix);
    return PMU_EXIT_USAGE;
}

int pmu_cli_fail(const pmu_cli_cmd *cmd, int status, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_line(cmd, msg, "");
    return status;
}

int pmu_cli_error(const pmu_cli_cmd *cmd, const pmu_err *err)
{
    return pmu_cli_fail(cmd, err->code == PMU_E_INPUT ? PMU_EXIT_USAGE : PMU_EXIT_FAIL, "%s",
                        err->msg);
}

void pmu_cli_or_list(const char *const *names, char *buf, size_t size)
{
    size_t n = 0, count = 0;
    while (names[count])
        count++;
    buf[0] = '\0';
    for (size_t i = 0; i < count && n < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int k = snprintf(buf + n, size - n, "%s%s", sep, names[i]);
        if (k < 0)
            break;
        n += (size_t)k;
    }
}

/* ---- values ------------------------------------------------------------------------------ */

static int set_value(pmu_opt *o, const char *opt, const char *val, pmu_err *err)
{
    uint64_t n = 0;
    switch (o->kind) {
    case PMU_OPT_FLAG:
        *(int *)o->dest = 1;
        return 0;
    case PMU_OPT_U64:
    case PMU_OPT_UNSIGNED:
        if (pmu_parse_u64(val, o->min, o->max, opt, &n, err))
            return -1;
        if (o->kind == PMU_OPT_U64)
            *(uint64_t *)o->dest = n;
        else
            *(unsigned *)o->dest = (unsigned)n;
        return 0;
    case PMU_OPT_TEXT:
    case PMU_OPT_FILE:
        if (!*val)
            return pmu_errf(err, PMU_E_INPUT, "%s: expected %s", opt,
                            o->kind == PMU_OPT_FILE ? "a file name" : "a value");
        *(const char **)o->dest = val;
        return 0;
    case PMU_OPT_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(o->choices[i], val) == 0) {
                *(int *)o->dest = i;
                return 0;
            }
        {
            char list[256], shown[128];
            pmu_cli_or_list(o->choices, list, sizeof list);
            return pmu_errf(err, PMU_E_INPUT, "%s: expected %s, found '%s'", opt, list,
                            pmu_escape(val, strlen(val), shown, sizeof shown));
        }
    case PMU_OPT_CALL:
        return o->call(o->ctx, opt, val, err);
    }
    return pmu_errf(err, PMU_E_INTERNAL, "%s: bad option table", opt);
}

/* ---- the getopt_long table ------------------------------------------------------------------ */

typedef struct table {
    struct option lo[MAX_OPTS + 3];
    char shorts[2 * MAX_OPTS + 8];
    int key[MAX_OPTS]; /* getopt_long's value of opts[i] */
} table;

enum { KEY_HELP = 'h', KEY_VERSION = LONG_KEY_BASE + MAX_OPTS };

static void build_table(const pmu_opt *opts, unsigned nopts, table *t)
{
    size_t s = 0;
    t->shorts[s++] = '-'; /* positional arguments come back in order, as value 1 */
    t->shorts[s++] = ':'; /* a missing value comes back as ':' */
    for (unsigned i = 0; i < nopts; i++) {
        int has_arg = opts[i].kind == PMU_OPT_FLAG ? no_argument : required_argument;
        t->key[i] = opts[i].key ? opts[i].key : LONG_KEY_BASE + (int)i;
        t->lo[i] = (struct option){opts[i].name, has_arg, NULL, t->key[i]};
        if (opts[i].key) {
            t->shorts[s++] = (char)opts[i].key;
            if (has_arg == required_argument)
                t->shorts[s++] = ':';
        }
    }
    t->shorts[s++] = 'h';
    t->shorts[s] = '\0';
    t->lo[nopts] = (struct option){"help", no_argument, NULL, KEY_HELP};
    t->lo[nopts + 1] = (struct option){"version", no_argument, NULL, KEY_VERSION};
    t->lo[nopts + 2] = (struct option){NULL, 0, NULL, 0};
}

static int index_of_key(const table *t, unsigned nopts, int key)
{
    for (unsigned i = 0; i < nopts; i++)
        if (t->key[i] == key)
            return (int)i;
    return -1;
}

/* How an option is named in messages: "--seed", or "-e" when typed so. */
static void opt_label(const pmu_opt *o, const char *typed, char *buf, size_t size)
{
    if (o->key && typed && typed[0] == '-' && typed[1] == o->key)
        snprintf(buf, size, "-%c", o->key);
    else
        snprintf(buf, size, "--%s", o->name);
}

/* An argument getopt_long refused: unknown, ambiguous, or a flag given a value. */
static int refused(const pmu_cli_cmd *cmd, const pmu_opt *opts, unsigned nopts, const table *t,
                   const char *arg)
{
    int i = index_of_key(t, nopts, optopt);
    if (optopt && i >= 0)
        return pmu_cli_usage(cmd, "--%s: takes no value", opts[i].name);
    if (optopt == KEY_HELP || optopt == KEY_VERSION)
        return pmu_cli_usage(cmd, "--%s: takes no value", optopt == KEY_HELP ? "help" : "version");
    if (optopt && arg[0] == '-' && arg[1] != '-')
        return pmu_cli_usage(cmd, "unknown argument '%s'", arg);
    if (optopt)
        return pmu_cli_usage(cmd, "unknown argument '-%c'", optopt);
    size_t len = strcspn(arg, "=");
    char matches[256] = "";
    unsigned nmatch = 0;
    for (unsigned k = 0; k < nopts + 2 && len > 2; k++)
        if (strncmp(t->lo[k].name, arg + 2, len - 2) == 0) {
            size_t m = strlen(matches);
            snprintf(matches + m, sizeof matches - m, "%s--%s", nmatch ? ", " : "", t->lo[k].name);
            nmatch++;
        }
    if (nmatch > 1)
        return pmu_cli_usage(cmd, "ambiguous argument '%.*s': %s", (int)len, arg, matches);
    return pmu_cli_usage(cmd, "unknown argument '%s'", arg);
}

static int take_option(const pmu_cli_cmd *cmd, pmu_opt *o, const char *typed, const char *val,
                       unsigned *seen)
{
    char label[64];
    pmu_err err;
    opt_label(o, typed, label, sizeof label);
    if ((*seen)++ && !o->repeat)
        return pmu_cli_usage(cmd, "%s: given twice; expected it once", label);
    if (set_value(o, label, val ? val : "", &err))
        return pmu_cli_usage(cmd, "%s", err.msg);
    if (o->given)
        *o->given = 1;
    if (o->text)
        *o->text = val;
    return 0;
}

/* What -h/--help prints: the command's help, or its help for the family in effect (the
 * --family option's value when given). */
static int print_help(const pmu_cli_cmd *cmd, const pmu_opt *opts, unsigned nopts)
{
    if (!cmd->family_help) {
        cmd->help(pmu_cli_out(cmd));
        return PMU_CLI_DONE;
    }
    pmu_cli_target t = {0};
    for (unsigned i = 0; i < nopts; i++)
        if (!strcmp(opts[i].name, "family") && opts[i].times)
            t.family_name = *(const char *const *)opts[i].dest;
    int rc = pmu_cli_target_resolve(cmd, &t);
    if (rc)
        return rc;
    cmd->family_help(pmu_cli_out(cmd), cmd, t.fam);
    return PMU_CLI_DONE;
}

int pmu_cli_parse(const pmu_cli_cmd *cmd, pmu_opt *opts, unsigned nopts, int argc, char **argv,
                  const char **args, unsigned *nargs)
{
    table t;
    unsigned seen[MAX_OPTS] = {0};
    if (nopts > MAX_OPTS)
        return pmu_cli_fail(cmd, PMU_EXIT_FAIL, "internal error: %u options, at most %d", nopts,
                            MAX_OPTS);
    build_table(opts, nopts, &t);
    for (unsigned i = 0; i < nopts; i++)
        opts[i].times = 0;
    *nargs = 0;
    optind = 0; /* glibc: start afresh (commands may run more than once in a process) */
    opterr = 0;
    int c, at = 1, help = 0;
    /* Options and positional arguments come back in order, so argv[at] (optind before
     * the call) is what the user typed for this one. */
    while ((c = getopt_long(argc, argv, t.shorts, t.lo, NULL)) != -1) {
        const char *typed = argv[at < argc ? at : argc - 1];
        at = optind;
        int i = index_of_key(&t, nopts, c);
        if (c == KEY_HELP) {
            help = 1;
        } else if (help) {
            /* only --family matters now: its value, unchecked until the help resolves it */
            if (i >= 0 && opts[i].kind == PMU_OPT_TEXT && !strcmp(opts[i].name, "family") && optarg) {
                *(const char **)opts[i].dest = optarg;
                opts[i].times++;
            }
        } else if (c == 1) {
            if (*nargs == cmd->max_args || *nargs == MAX_ARGS)
                return pmu_cli_usage(cmd, "unexpected argument '%s'", optarg);
            args[(*nargs)++] = optarg;
        } else if (c == ':') {
            i = index_of_key(&t, nopts, optopt);
            char label[64];
            opt_label(&opts[i < 0 ? 0 : i], typed, label, sizeof label);
            return pmu_cli_usage(cmd, "%s: expected a value", label);
        } else if (c == '?') {
            return refused(cmd, opts, nopts, &t, typed);
        } else if (c == KEY_VERSION) {
            fprintf(pmu_cli_out(cmd), "pmusim %s\n", PMUSIM_VERSION);
            return PMU_CLI_DONE;
        } else if (i >= 0) {
            if (take_option(cmd, &opts[i], typed, optarg, &seen[i]))
                return PMU_EXIT_USAGE;
            opts[i].times = seen[i];
        }
    }
    if (help)
        return print_help(cmd, opts, nopts);
    for (; optind < argc; optind++) { /* after "--" */
        if (*nargs == cmd->max_args || *nargs == MAX_ARGS)
            return pmu_cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
        args[(*nargs)++] = argv[optind];
    }
    if (*nargs < cmd->min_args)
        return pmu_cli_usage(cmd, "expected %s", cmd->args_what);
    return 0;
}
