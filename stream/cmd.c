/*
 * cmd.c - `pmusim gen` and `pmusim conv` (pmu_stream.h).
 *
 * argv[0] is the subcommand name ("gen" / "conv"); options follow, as
 * "--opt value" or "--opt=value".  Bad arguments: one line on stderr, exit 2.
 * Runtime errors: the message on stderr, exit 1, and no partial output file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ita/ita_family.h"
#include "stream_internal.h"

#define EXIT_ARGS 2
#define EXIT_RUNTIME 1
#define MAX_PROCS_ARG 64

static const char gen_usage[] =
    "usage: pmusim gen --seed N --cycles N [--mode workload|random] [--procs N] "
    "[--format text|binary] [--symbols FILE] [--hot-code A[,B...]] [--hot-data A[,B...]] "
    "[--hot-opcode MATCH/CARE[,...]] -o FILE";
static const char conv_usage[] = "usage: pmusim conv IN OUT [--to text|binary]";

static int arg_error(const char *cmd, const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int arg_error(const char *cmd, const char *usage, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "pmusim %s: %s (%s)\n", cmd, what, usage);
    return EXIT_ARGS;
}

/* Decimal or 0x hex, the whole string. */
static int parse_number(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    uint64_t v = 0;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *p = hex ? s + 2 : s;
    if (!*p)
        return -1;
    for (; *p; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (hex && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (hex && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            return -1;
        unsigned base = hex ? 16u : 10u;
        if (v > (UINT64_MAX - d) / base)
            return -1;
        v = v * base + d;
    }
    *out = v;
    return 0;
}

/* Splits "--opt=value" / "--opt value".  Returns the value or NULL (missing). */
static const char *opt_value(int argc, char **argv, int *i, const char *arg, size_t name_len)
{
    if (arg[name_len] == '=')
        return arg + name_len + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int opt_is(const char *arg, const char *name, size_t *len)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=')) {
        *len = n;
        return 1;
    }
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A path as the shell reads it back: quoted when it holds anything unusual. */
static void print_path(FILE *f, const char *path)
{
    const char *p = path;
    while (*p && (strchr("_./-:+=,@%", *p) || (*p >= '0' && *p <= '9') ||
                  (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        p++;
    if (!*p && *path) {
        fputs(path, f);
        return;
    }
    fputc('\'', f);
    for (p = path; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    }
    fputc('\'', f);
}

/* ---- hot edge lists (--hot-code, --hot-data, --hot-opcode) ------------------------------ */
#define OPCODE_BITS 41

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

/* Hexadecimal digits, with or without 0x, the whole string (opcode patterns are bit
 * patterns, written in hex). */
static int parse_hex(const char *s, uint64_t *out)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (v >> 60)
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

/* Parses a comma-separated list of addresses (care == NULL) or MATCH/CARE pairs into
 * the lists.  Returns 0, or -1 with `why` saying which element is wrong and how. */
static int parse_hot_list(const char *v, u64_list *vals, u64_list *care, char *why, size_t whylen)
{
    if (!v || !*v) {
        snprintf(why, whylen, "expected %s, got ''", care ? "MATCH/CARE[,MATCH/CARE...]" : "A[,B...]");
        return -1;
    }
    const char *p = v;
    for (unsigned k = 1;; k++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[80];
        if (len == 0 || len >= sizeof item) {
            snprintf(why, whylen, "element %u of '%s' is %s", k, v, len ? "too long" : "empty");
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        uint64_t a, b = 0;
        if (!care) {
            if (parse_number(item, &a)) {
                snprintf(why, whylen, "'%s' is not an address (decimal or 0x hex)", item);
                return -1;
            }
        } else {
            char *slash = strchr(item, '/');
            if (!slash) {
                snprintf(why, whylen, "'%s' is not MATCH/CARE (two hex values and a '/')", item);
                return -1;
            }
            *slash = '\0';
            if (parse_hex(item, &a) || parse_hex(slash + 1, &b)) {
                snprintf(why, whylen, "'%s/%s' is not MATCH/CARE: expected hex values", item, slash + 1);
                return -1;
            }
            if ((a | b) >> OPCODE_BITS) {
                snprintf(why, whylen, "'%s/%s': an encoding has %d bits, expected values below 0x%llx",
                         item, slash + 1, OPCODE_BITS, 1ull << OPCODE_BITS);
                return -1;
            }
        }
        if (list_push(vals, a) || (care && list_push(care, b))) {
            snprintf(why, whylen, "out of memory");
            return -1;
        }
        if (!end)
            return 0;
        p = end + 1;
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

typedef struct hot_lists {
    u64_list code, data, match, care;
} hot_lists;

static int cmd_gen(int argc, char **argv, hot_lists *hl)
{
    pmu_gen_opts o = {.seed = 0, .cycles = 1000000, .mode = PMU_GEN_WORKLOAD, .nprocs = 4};
    int have_seed = 0, have_format = 0, have_hot = 0;
    pmu_stream_form form = PMU_STREAM_TEXT;
    const char *out = NULL, *symbols = NULL;
    char why[300];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t n = 0;
        const char *v;
        uint64_t num;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf("%s\n", gen_usage);
            return 0;
        }
        if (strcmp(a, "-o") == 0 || opt_is(a, "--output", &n)) {
            v = strcmp(a, "-o") == 0 ? (i + 1 < argc ? argv[++i] : NULL)
                                     : opt_value(argc, argv, &i, a, n);
            if (!v || !*v)
                return arg_error("gen", gen_usage, "-o needs a file name");
            out = v;
        } else if (opt_is(a, "--seed", &n)) {
            v = opt_value(argc, argv, &i, a, n);
            if (parse_number(v, &num))
                return arg_error("gen", gen_usage, "--seed: expected a number, got '%s'",
                                 v ? v : "");
            o.seed = num;
            have_seed = 1;
        } else if (opt_is(a, "--cycles", &n)) {
            v = opt_value(argc, argv, &i, a, n);
            if (parse_number(v, &num))
                return arg_error("gen", gen_usage, "--cycles: expected a number, got '%s'",
                                 v ? v : "");
            o.cycles = num;
        } else if (opt_is(a, "--procs", &n)) {
            v = opt_value(argc, argv, &i, a, n);
            if (parse_number(v, &num) || num < 1 || num > MAX_PROCS_ARG)
                return arg_error("gen", gen_usage, "--procs: expected 1..%d, got '%s'",
                                 MAX_PROCS_ARG, v ? v : "");
            o.nprocs = (unsigned)num;
        } else if (opt_is(a, "--mode", &n)) {
            v = opt_value(argc, argv, &i, a, n);
            if (v && strcmp(v, "workload") == 0)
                o.mode = PMU_GEN_WORKLOAD;
            else if (v && strcmp(v, "random") == 0)
                o.mode = PMU_GEN_RANDOM;
            else
                return arg_error("gen", gen_usage, "--mode: expected workload or random, got '%s'",
                                 v ? v : "");
        } else if (opt_is(a, "--format", &n)) {
            v = opt_value(argc, argv, &i, a, n);
            if (v && strcmp(v, "text") == 0)
                form = PMU_STREAM_TEXT;
            else if (v && strcmp(v, "binary") == 0)
                form = PMU_STREAM_BINARY;
            else
                return arg_error("gen", gen_usage, "--format: expected text or binary, got '%s'",
                                 v ? v : "");
            have_format = 1;
        } else if (opt_is(a, "--symbols", &n)) {
            v = opt_value(argc, argv, &i, a, n);
            if (!v || !*v)
                return arg_error("gen", gen_usage, "--symbols needs a file name");
            symbols = v;
        } else if (opt_is(a, "--hot-code", &n) || opt_is(a, "--hot-data", &n) ||
                   opt_is(a, "--hot-opcode", &n)) {
            /* repeated options add to the list */
            char opt[16];
            snprintf(opt, sizeof opt, "%.*s", (int)n, a);
            v = opt_value(argc, argv, &i, a, n);
            int opcode = strcmp(opt, "--hot-opcode") == 0;
            u64_list *vals = opcode ? &hl->match : strcmp(opt, "--hot-code") == 0 ? &hl->code : &hl->data;
            if (parse_hot_list(v, vals, opcode ? &hl->care : NULL, why, sizeof why))
                return arg_error("gen", gen_usage, "%s: %s", opt, why);
            have_hot = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return arg_error("gen", gen_usage, "unknown option '%s'", a);
        } else {
            return arg_error("gen", gen_usage, "unexpected argument '%s'", a);
        }
    }
    if (!out)
        return arg_error("gen", gen_usage, "-o FILE is required");
    if (symbols && o.mode != PMU_GEN_WORKLOAD)
        return arg_error("gen", gen_usage, "--symbols needs --mode workload (random mode has no "
                                           "functions)");
    if (!have_format)
        form = ends_with(out, ".bin") ? PMU_STREAM_BINARY : PMU_STREAM_TEXT;
    if (!have_seed)
        o.seed = fresh_seed();
    pmu_gen_hot hot = {hl->code.v, hl->code.n, hl->data.v, hl->data.n,
                       hl->match.v, hl->care.v, hl->match.n};
    if (have_hot)
        o.hot = &hot;

    FILE *msg = strcmp(out, "-") == 0 ? stderr : stdout;
    fprintf(msg, "seed %" PRIu64 "\n", o.seed);
    fprintf(msg, "regenerate: pmusim gen --seed %" PRIu64 " --cycles %" PRIu64
                 " --mode %s --procs %u --format %s",
            o.seed, o.cycles, o.mode == PMU_GEN_WORKLOAD ? "workload" : "random", o.nprocs,
            form == PMU_STREAM_BINARY ? "binary" : "text");
    print_list(msg, "--hot-code", &hl->code, NULL);
    print_list(msg, "--hot-data", &hl->data, NULL);
    print_list(msg, "--hot-opcode", &hl->match, &hl->care);
    if (symbols) {
        fputs(" --symbols ", msg);
        print_path(msg, symbols);
    }
    fputs(" -o ", msg);
    print_path(msg, out);
    fputc('\n', msg);
    fflush(msg);

    pmu_gen *g = pmu_gen_create(&pmu_dialect_itanium, &o, NULL);
    if (!g) {
        fprintf(stderr, "pmusim gen: cannot create the generator (out of memory)\n");
        return EXIT_RUNTIME;
    }
    pmu_err err;
    int rc = 0, created = 0;
    pmu_stream_writer *w = pmu_stream_create(&pmu_dialect_itanium, out, form, &err);
    if (!w) {
        rc = -1;
    } else {
        created = 1;
        pmu_cycle c;
        while (!rc && pmu_gen_next(g, &c) == 1)
            rc = pmu_stream_write(w, &c, &err);
        if (pmu_stream_finish(w, rc ? NULL : &err))
            rc = -1;
    }
    if (!rc && symbols && pmu_gen_write_symbols(g, symbols, &err))
        rc = -1;
    pmu_gen_destroy(g);
    if (rc) {
        fprintf(stderr, "pmusim gen: %s\n", err.msg);
        if (created && strcmp(out, "-") != 0)
            remove(out);
        return EXIT_RUNTIME;
    }
    return 0;
}

int pmusim_cmd_gen(int argc, char **argv)
{
    hot_lists hl;
    memset(&hl, 0, sizeof hl);
    int rc = cmd_gen(argc, argv, &hl);
    free(hl.code.v);
    free(hl.data.v);
    free(hl.match.v);
    free(hl.care.v);
    return rc;
}

int pmusim_cmd_conv(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int have_to = 0;
    pmu_stream_form to = PMU_STREAM_TEXT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t n = 0;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf("%s\n", conv_usage);
            return 0;
        }
        if (opt_is(a, "--to", &n)) {
            const char *v = opt_value(argc, argv, &i, a, n);
            if (v && strcmp(v, "text") == 0)
                to = PMU_STREAM_TEXT;
            else if (v && strcmp(v, "binary") == 0)
                to = PMU_STREAM_BINARY;
            else
                return arg_error("conv", conv_usage, "--to: expected text or binary, got '%s'",
                                 v ? v : "");
            have_to = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return arg_error("conv", conv_usage, "unknown option '%s'", a);
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            return arg_error("conv", conv_usage, "unexpected argument '%s'", a);
        }
    }
    if (!in || !out)
        return arg_error("conv", conv_usage, "needs an input and an output file");
    if (strcmp(in, out) == 0 && strcmp(in, "-") != 0)
        return arg_error("conv", conv_usage, "input and output are the same file '%s'", in);

    pmu_err err;
    pmu_stream_reader *r = pmu_stream_open(&pmu_dialect_itanium, in, &err);
    if (!r) {
        fprintf(stderr, "pmusim conv: %s\n", err.msg);
        return EXIT_RUNTIME;
    }
    pmu_stream_form from = stream_reader_form(r);
    if (!have_to)
        to = from == PMU_STREAM_TEXT ? PMU_STREAM_BINARY : PMU_STREAM_TEXT;
    pmu_stream_writer *w = pmu_stream_create(&pmu_dialect_itanium, out, to, &err);
    if (!w) {
        pmu_stream_close(r);
        fprintf(stderr, "pmusim conv: %s\n", err.msg);
        return EXIT_RUNTIME;
    }
    pmu_cycle c;
    uint64_t n = 0;
    int got, rc = 0;
    while ((got = pmu_stream_next(r, &c, &err)) == 1) {
        if (pmu_stream_write(w, &c, &err)) {
            rc = -1;
            break;
        }
        n++;
    }
    if (got < 0)
        rc = -1;
    if (pmu_stream_finish(w, rc ? NULL : &err))
        rc = -1;
    pmu_stream_close(r);
    if (rc) {
        fprintf(stderr, "pmusim conv: %s\n", err.msg);
        if (strcmp(out, "-") != 0)
            remove(out);
        return EXIT_RUNTIME;
    }
    if (strcmp(out, "-") != 0)
        printf("conv: %" PRIu64 " cycles, %s -> %s\n", n,
               from == PMU_STREAM_BINARY ? "binary" : "text",
               to == PMU_STREAM_BINARY ? "binary" : "text");
    return 0;
}
