/*
 * streams.c - `pmusim gen` and `pmusim conv` (docs/streams.md, "Commands"): write a
 * generated stream, or convert one between its text and binary forms.  Outputs go
 * through cli/pmu_outfile.h: a failed command leaves every file as it was.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/pmu_cli.h"
#include "common/pmu_num.h"

#define MAX_PROCS_ARG 64
/* The largest system --cpus takes; a dialect may refuse fewer (the Alpha 21064: 32). */
#define MAX_CPUS_ARG 1024
#define OPCODE_BITS 41

static const char *const form_names[] = {[PMU_STREAM_TEXT] = "text", [PMU_STREAM_BINARY] = "binary", NULL};

/* ---- hot edge lists (--hot-code, --hot-data, --hot-opcode) ---------------------------------- */

typedef struct u64_list {
    uint64_t *v;
    unsigned n, cap;
} u64_list;

static int list_push(u64_list *l, uint64_t x)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? l->cap * 2 : 8;
        uint64_t *grown = realloc(l->v, cap * sizeof *grown);
        if (!grown)
            return -1;
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

typedef struct hot_lists {
    u64_list code, data, match, care;
} hot_lists;

/* An opcode pattern value: hex digits, with or without 0x (patterns are bit patterns),
 * read by the one integer parser. */
static int pattern_value(const char *s, size_t n, const char *what, uint64_t *out, pmu_err *err)
{
    char buf[48] = "0x";
    if ((n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || n + 3 > sizeof buf)
        return pmu_parse_u64n(s, n, 0, UINT64_MAX, what, out, err);
    memcpy(buf + 2, s, n);
    return pmu_parse_u64n(buf, n + 2, 0, UINT64_MAX, what, out, err);
}

/* One MATCH/CARE element. */
static int parse_pattern(const char *opt, unsigned k, const char *item, size_t len, hot_lists *hl,
                         pmu_err *err)
{
    char what[64], shown[96];
    pmu_escape(item, len, shown, sizeof shown);
    const char *slash = memchr(item, '/', len);
    if (!slash)
        return pmu_errf(err, PMU_E_INPUT, "%s: '%s' is not MATCH/CARE (two hex values and a '/')", opt, shown);
    uint64_t match, care;
    snprintf(what, sizeof what, "%s element %u match", opt, k);
    if (pattern_value(item, (size_t)(slash - item), what, &match, err))
        return -1;
    snprintf(what, sizeof what, "%s element %u care", opt, k);
    if (pattern_value(slash + 1, len - (size_t)(slash - item) - 1, what, &care, err))
        return -1;
    if ((match | care) >> OPCODE_BITS)
        return pmu_errf(err, PMU_E_INPUT, "%s: '%s': an encoding has %d bits, expected values below 0x%llx",
                        opt, shown, OPCODE_BITS, 1ull << OPCODE_BITS);
    return list_push(&hl->match, match) || list_push(&hl->care, care)
               ? pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", opt)
               : 0;
}

/* A comma-separated list of addresses or MATCH/CARE pairs; repeated options add up. */
static int parse_hot(void *ctx, const char *opt, const char *v, pmu_err *err)
{
    hot_lists *hl = ctx;
    int opcode = strcmp(opt, "--hot-opcode") == 0;
    u64_list *vals = strcmp(opt, "--hot-code") == 0 ? &hl->code : &hl->data;
    char shown[96];
    pmu_escape(v, strlen(v), shown, sizeof shown);
    if (!*v)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected %s, found ''", opt,
                        opcode ? "MATCH/CARE[,MATCH/CARE...]" : "A[,B...]");
    for (unsigned k = 1;; k++) {
        size_t len = strcspn(v, ",");
        if (len == 0)
            return pmu_errf(err, PMU_E_INPUT, "%s: element %u of '%s' is empty", opt, k, shown);
        if (opcode) {
            if (parse_pattern(opt, k, v, len, hl, err))
                return -1;
        } else {
            char what[64];
            uint64_t a;
            snprintf(what, sizeof what, "%s element %u", opt, k);
            if (pmu_parse_u64n(v, len, 0, UINT64_MAX, what, &a, err))
                return -1;
            if (list_push(vals, a))
                return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", opt);
        }
        if (v[len] == '\0')
            return 0;
        v += len + 1;
    }
}

static void print_list(FILE *f, const char *opt, const u64_list *vals, const u64_list *care)
{
    if (!vals->n)
        return;
    fprintf(f, " %s ", opt);
    for (unsigned i = 0; i < vals->n; i++) {
        fprintf(f, "%s0x%" PRIx64, i ? "," : "", vals->v[i]);
        if (care)
            fprintf(f, "/0x%" PRIx64, care->v[i]);
    }
}

/* ---- gen ------------------------------------------------------------------------------------ */

static void gen_help(FILE *f)
{
    fprintf(f, "usage: pmusim gen [--family NAME] [--seed N] [--cycles N] [--mode workload|random]\n"
               "                  [--procs N] [--format text|binary] [--symbols FILE] [--hot-code A[,B...]]\n"
               "                  [--hot-data A[,B...]] [--hot-opcode MATCH/CARE[,...]] [--cpu N --cpus M]\n"
               "                  -o FILE\n"
               "\n"
               "  --family NAME      whose cycle records (default: the first registered family)\n"
               "  -o, --output FILE  the stream ('-' = stdout); replaced only when it is complete\n"
               "  --seed N           generator seed (default: a fresh one, printed)\n"
               "  --cycles N         records (default 1000000)\n"
               "  --mode M           workload (default) or random\n"
               "  --procs N          workload processes, 1..64 (default 4)\n"
               "  --format F         text or binary (default: binary for a .bin name, else text)\n"
               "  --symbols FILE     the workload's functions, 'START END NAME' lines\n"
               "  --hot-code LIST    code addresses the generator aims at (may be repeated)\n"
               "  --hot-data LIST    data addresses the generator aims at (may be repeated)\n"
               "  --hot-opcode LIST  41-bit encoding patterns MATCH/CARE in hex (may be repeated)\n"
               "  --cpu N --cpus M   the stream of CPU N (default 0) of a system of M CPUs (default 1),\n"
               "                     for families whose streams are one CPU each (the Alpha 21064)\n"
               "\n"
               "docs/streams.md describes the forms; each family's stream page its records and generator.\n"
               "exit status: 0 ok, 1 a failed write (the old files are left as they were),\n"
               "             2 bad arguments\n");
}

static const pmu_cli_cmd gen_cmd = {.name = "gen", .help = gen_help};

typedef struct gen_opts {
    pmu_cli_target t; /* --family: whose records (no model: a stream is the family's) */
    pmu_gen_opts g;
    int mode, form, have_seed, have_format, have_cpu;
    const char *out, *symbols;
    hot_lists hl;
    pmu_gen_hot hot;
} gen_opts;

static uint64_t fresh_seed(void)
{
    uint64_t seed = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&seed, sizeof seed, 1, f) != 1)
            seed = 0;
        fclose(f);
    }
    if (!seed)
        seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
    return seed >> 1; /* stays readable as a signed number too */
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int gen_parse(int argc, char **argv, gen_opts *o)
{
    o->g = (pmu_gen_opts){.seed = 0, .cycles = 1000000, .mode = PMU_GEN_WORKLOAD, .nprocs = 4};
    pmu_opt opts[] = {
        {.name = "output", .key = 'o', .kind = PMU_OPT_FILE, .dest = &o->out},
        {.name = "family", .kind = PMU_OPT_TEXT, .dest = &o->t.family_name},
        {.name = "seed", .kind = PMU_OPT_U64, .dest = &o->g.seed, .max = UINT64_MAX, .given = &o->have_seed},
        {.name = "cycles", .kind = PMU_OPT_U64, .dest = &o->g.cycles, .max = UINT64_MAX},
        {.name = "procs", .kind = PMU_OPT_UNSIGNED, .dest = &o->g.nprocs, .min = 1, .max = MAX_PROCS_ARG},
        {.name = "mode", .kind = PMU_OPT_CHOICE, .dest = &o->mode, .choices = pmu_gen_mode_names},
        {.name = "format", .kind = PMU_OPT_CHOICE, .dest = &o->form, .choices = form_names,
         .given = &o->have_format},
        {.name = "symbols", .kind = PMU_OPT_FILE, .dest = &o->symbols},
        {.name = "hot-code", .kind = PMU_OPT_CALL, .call = parse_hot, .ctx = &o->hl, .repeat = 1},
        {.name = "hot-data", .kind = PMU_OPT_CALL, .call = parse_hot, .ctx = &o->hl, .repeat = 1},
        {.name = "hot-opcode", .kind = PMU_OPT_CALL, .call = parse_hot, .ctx = &o->hl, .repeat = 1},
        {.name = "cpu", .kind = PMU_OPT_UNSIGNED, .dest = &o->g.cpu, .max = MAX_CPUS_ARG - 1, .given = &o->have_cpu},
        {.name = "cpus", .kind = PMU_OPT_UNSIGNED, .dest = &o->g.ncpus, .min = 1, .max = MAX_CPUS_ARG,
         .given = &o->have_cpu},
    };
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&gen_cmd, opts, sizeof opts / sizeof opts[0], argc, argv, args, &nargs);
    if (rc)
        return rc;
    o->t.records_only = 1;
    if ((rc = pmu_cli_target_resolve(&gen_cmd, &o->t)) != 0)
        return rc;
    o->g.mode = (pmu_gen_mode)o->mode;
    if (o->g.cpu >= (o->g.ncpus ? o->g.ncpus : 1))
        return pmu_cli_usage(&gen_cmd, "--cpu %u: expected a CPU below --cpus (%u)", o->g.cpu,
                             o->g.ncpus ? o->g.ncpus : 1);
    if (!o->out)
        return pmu_cli_usage(&gen_cmd, "expected -o FILE, the output");
    if (o->symbols && o->g.mode != PMU_GEN_WORKLOAD)
        return pmu_cli_usage(&gen_cmd, "--symbols: expected --mode workload (random mode has no functions)");
    if (!o->have_format)
        o->form = ends_with(o->out, ".bin") ? PMU_STREAM_BINARY : PMU_STREAM_TEXT;
    if (!o->have_seed)
        o->g.seed = fresh_seed();
    o->hot = (pmu_gen_hot){o->hl.code.v, o->hl.code.n, o->hl.data.v, o->hl.data.n,
                           o->hl.match.v, o->hl.care.v, o->hl.match.n, NULL, 0, NULL, 0};
    if (o->hl.code.n || o->hl.data.n || o->hl.match.n)
        o->g.hot = &o->hot;
    return 0;
}

/* "seed N" and the command that makes the same file. */
static void print_regenerate(const gen_opts *o, FILE *msg)
{
    char paths[2048] = "";
    fprintf(msg, "seed %" PRIu64 "\n", o->g.seed);
    fprintf(msg, "regenerate: pmusim gen --seed %" PRIu64 " --cycles %" PRIu64 " --mode %s --procs %u --format %s",
            o->g.seed, o->g.cycles, pmu_gen_mode_names[o->g.mode], o->g.nprocs, form_names[o->form]);
    if (o->t.family_name)
        fprintf(msg, " --family %s", o->t.fam->name);
    if (o->have_cpu)
        fprintf(msg, " --cpu %u --cpus %u", o->g.cpu, o->g.ncpus ? o->g.ncpus : 1);
    print_list(msg, "--hot-code", &o->hl.code, NULL);
    print_list(msg, "--hot-data", &o->hl.data, NULL);
    print_list(msg, "--hot-opcode", &o->hl.match, &o->hl.care);
    if (o->symbols) {
        pmu_cli_shell_arg(paths, sizeof paths, "--symbols");
        pmu_cli_shell_arg(paths, sizeof paths, o->symbols);
    }
    pmu_cli_shell_arg(paths, sizeof paths, "-o");
    pmu_cli_shell_arg(paths, sizeof paths, o->out);
    fprintf(msg, "%s\n", paths);
    fflush(msg);
}

/* Writes the stream and the symbols to their temporary files.  0, or -1 + err. */
static int gen_write(const gen_opts *o, pmu_gen *g, pmu_outfile *out, pmu_outfile *syms, pmu_err *err)
{
    const pmu_dialect *d = o->t.fam->dialect;
    void *rec = malloc(d->record_size);
    if (!rec)
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    pmu_stream_writer *w = pmu_stream_create(d, pmu_outfile_path(out), (pmu_stream_form)o->form, err);
    int rc = w ? 0 : -1;
    if (w) {
        while (!rc && pmu_gen_next(g, rec) == 1)
            rc = pmu_stream_write(w, rec, err);
        if (pmu_stream_finish(w, rc ? NULL : err))
            rc = -1;
    }
    free(rec);
    if (rc) {
        pmu_outfile_fix_msg(out, err);
        return -1;
    }
    if (syms && pmu_gen_write_symbols(g, pmu_outfile_path(syms), err)) {
        pmu_outfile_fix_msg(syms, err);
        return -1;
    }
    return 0;
}

static int gen_run(const gen_opts *o)
{
    pmu_err err;
    pmu_files *files = pmu_files_new();
    pmu_outfile *out = NULL, *syms = NULL;
    pmu_gen *g = NULL;
    int rc = PMU_EXIT_OK;
    if (!files || !(out = pmu_files_output(files, "-o", o->out, PMU_OUT_STDOUT, &err)) ||
        (o->symbols && !(syms = pmu_files_output(files, "--symbols", o->symbols, PMU_OUT_STDOUT, &err)))) {
        rc = files ? pmu_cli_error(&gen_cmd, &err) : pmu_cli_fail(&gen_cmd, PMU_EXIT_FAIL, "out of memory");
    } else if (!(g = pmu_gen_create(o->t.fam->dialect, &o->g, &err))) {
        rc = pmu_cli_error(&gen_cmd, &err);
    } else {
        print_regenerate(o, strcmp(o->out, "-") == 0 ? stderr : stdout);
        if (gen_write(o, g, out, syms, &err) || pmu_files_commit(files, &err)) {
            err.code = PMU_E_IO; /* the arguments were fine: the writing failed */
            rc = pmu_cli_error(&gen_cmd, &err);
        }
    }
    pmu_gen_destroy(g);
    pmu_files_free(files);
    return rc;
}

int pmusim_cmd_gen(int argc, char **argv)
{
    gen_opts o;
    memset(&o, 0, sizeof o);
    int rc = gen_parse(argc, argv, &o);
    if (rc == 0)
        rc = gen_run(&o);
    free(o.hl.code.v);
    free(o.hl.data.v);
    free(o.hl.match.v);
    free(o.hl.care.v);
    return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
}

/* ---- conv ----------------------------------------------------------------------------------- */

static void conv_help(FILE *f)
{
    fprintf(f, "usage: pmusim conv IN OUT [--to text|binary] [--family NAME]\n"
               "\n"
               "  --family NAME      whose cycle records (default: the first registered family)\n"
               "  IN, OUT            stream files ('-' = stdin, stdout); OUT is replaced only when\n"
               "                     the conversion is complete, and may not be IN\n"
               "  --to F             text or binary (default: the other form)\n"
               "\n"
               "exit status: 0 ok, 1 a failed write, 2 bad arguments or a bad input\n");
}

static const pmu_cli_cmd conv_cmd = {.name = "conv", .help = conv_help, .min_args = 2, .max_args = 2,
                                     .args_what = "an input and an output file"};

/* Copies every record; 0, or -1 + err (code: PMU_E_INPUT for a bad record). */
static int conv_copy(pmu_stream_reader *r, pmu_stream_writer *w, void *rec, uint64_t *n,
                     pmu_err *err)
{
    int got, rc = 0;
    while ((got = pmu_stream_next(r, rec, err)) == 1) {
        if (pmu_stream_write(w, rec, err)) {
            err->code = PMU_E_IO;
            rc = -1;
            break;
        }
        (*n)++;
    }
    if (got < 0) {
        err->code = PMU_E_INPUT;
        rc = -1;
    }
    if (pmu_stream_finish(w, rc ? NULL : err)) {
        err->code = PMU_E_IO;
        rc = -1;
    }
    return rc;
}

/* The output, its writer and the copy; 0, or -1 + err. */
static int conv_write(const pmu_dialect *d, pmu_files *files, pmu_stream_reader *r, const char *out,
                      pmu_stream_form form, uint64_t *n, pmu_err *err)
{
    pmu_outfile *o = pmu_files_output(files, "OUT", out, PMU_OUT_STDOUT, err);
    if (!o)
        return -1;
    void *rec = malloc(d->record_size);
    if (!rec)
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    pmu_stream_writer *w = pmu_stream_create(d, pmu_outfile_path(o), form, err);
    int rc = w ? conv_copy(r, w, rec, n, err) : -1;
    free(rec);
    if (!w)
        err->code = PMU_E_IO;
    if (!rc && pmu_files_commit(files, err))
        rc = -1;
    if (rc)
        pmu_outfile_fix_msg(o, err);
    return rc;
}

static int conv_run(const pmu_dialect *d, const char *in, const char *out, int to, int have_to)
{
    pmu_err err;
    pmu_stream_reader *r = pmu_stream_open(d, in, &err);
    if (!r) {
        err.code = PMU_E_INPUT;
        return pmu_cli_error(&conv_cmd, &err);
    }
    pmu_files *files = pmu_files_new();
    int rc = PMU_EXIT_OK;
    pmu_stream_form from = pmu_stream_reader_form(r);
    pmu_stream_form form = have_to ? (pmu_stream_form)to
                                   : (from == PMU_STREAM_TEXT ? PMU_STREAM_BINARY : PMU_STREAM_TEXT);
    uint64_t n = 0;
    if (!files) {
        rc = pmu_cli_fail(&conv_cmd, PMU_EXIT_FAIL, "out of memory");
    } else {
        pmu_files_input(files, "IN", in);
        if (conv_write(d, files, r, out, form, &n, &err))
            rc = pmu_cli_error(&conv_cmd, &err);
        else if (strcmp(out, "-") != 0)
            printf("conv: %" PRIu64 " cycles, %s -> %s\n", n, form_names[from], form_names[form]);
    }
    pmu_stream_close(r);
    pmu_files_free(files);
    return rc;
}

int pmusim_cmd_conv(int argc, char **argv)
{
    int to = PMU_STREAM_TEXT, have_to = 0;
    pmu_cli_target t = {0};
    pmu_opt opts[] = {{.name = "to", .kind = PMU_OPT_CHOICE, .dest = &to, .choices = form_names,
                       .given = &have_to},
                      {.name = "family", .kind = PMU_OPT_TEXT, .dest = &t.family_name}};
    const char *args[2];
    unsigned nargs;
    int rc = pmu_cli_parse(&conv_cmd, opts, 2, argc, argv, args, &nargs);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    t.records_only = 1;
    if ((rc = pmu_cli_target_resolve(&conv_cmd, &t)) != 0)
        return rc;
    return conv_run(t.fam->dialect, args[0], args[1], to, have_to);
}
