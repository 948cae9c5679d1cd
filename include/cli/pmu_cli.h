/*
 * cli/pmu_cli.h - the command layer of pmusim (verilator/cli/): one option parser, one way to
 * report an error, one backend builder, one source of records and one run loop.  Every
 * `pmusim` command is written on it, and so are a family's own commands
 * (include/cli/pmu_family_cmds.h).
 *
 * Options are parsed by getopt_long: `--opt value`, `--opt=value`, unambiguous
 * abbreviations, short options where a command has them, `--` ends the options, and
 * every command takes -h/--help and --version.  Numbers follow include/common/pmu_num.h.  An
 * option given twice is an error unless its table entry says it may repeat (the list
 * options: -e, --irange, --pid, --hot-code, ...).
 *
 * Messages: one line on stderr, "pmusim CMD: what", with control and non-ASCII bytes
 * escaped (pmu_escape).  Exit status: PMU_EXIT_OK, PMU_EXIT_FAIL (a lock-step mismatch,
 * inexact counts, a runtime error such as a failed write), PMU_EXIT_USAGE (a bad argument
 * or bad input).
 */
#ifndef PMU_CLI_H
#define PMU_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pmu_backend.h"
#include "harness/pmu_cosim.h"
#include "common/pmu_dialect.h"
#include "common/pmu_err.h"
#include "common/pmu_family.h"
#include "cli/pmu_outfile.h"
#include "stream/pmu_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_EXIT_OK 0
#define PMU_EXIT_FAIL 1
#define PMU_EXIT_USAGE 2

/* The command set's version, printed by --version. */
#define PMUSIM_VERSION "1.0"

/* The most records from an overflow interrupt to its service (--irq-latency). */
#define PMU_CLI_MAX_LATENCY 1000000u

/* The program's name as invoked (argv[0]), for the reproduce commands; "pmusim" unless
 * main() set it. */
extern const char *pmu_cli_program;
/* The program's name in usage lines: "pmusim", or "pmusim-sc" for the SystemC build. */
extern const char *pmu_cli_title;

/* ---- the commands (argv[0] is the command name; the exit status is returned) ---------- */
int pmusim_cmd_run(int argc, char **argv);
int pmusim_cmd_conform(int argc, char **argv);
int pmusim_cmd_conform_merge(int argc, char **argv);
int pmusim_cmd_gen(int argc, char **argv);
int pmusim_cmd_conv(int argc, char **argv);
int pmusim_cmd_encode(int argc, char **argv);
int pmusim_cmd_count(int argc, char **argv);
int pmusim_cmd_profile(int argc, char **argv);
int pmusim_cmd_record(int argc, char **argv);
int pmusim_cmd_cex2replay(int argc, char **argv);

/* ---- options ------------------------------------------------------------------------- */
typedef enum pmu_opt_kind {
    PMU_OPT_FLAG,     /* no value: *(int *)dest = 1 */
    PMU_OPT_U64,      /* a number in [min, max]: *(uint64_t *)dest */
    PMU_OPT_UNSIGNED, /* the same into *(unsigned *)dest (max <= UINT_MAX) */
    PMU_OPT_TEXT,     /* any non-empty text: *(const char **)dest */
    PMU_OPT_FILE,     /* a file name, non-empty: *(const char **)dest */
    PMU_OPT_CHOICE,   /* one of choices[]: *(int *)dest = its index */
    PMU_OPT_CALL      /* call(ctx, "--name", value, err): 0, or -1 with err filled */
} pmu_opt_kind;

typedef struct pmu_opt {
    const char *name;           /* long name without the dashes, e.g. "seed" */
    int key;                    /* short option letter ('e', 'o'), or 0 */
    pmu_opt_kind kind;
    void *dest;
    uint64_t min, max;          /* PMU_OPT_U64, PMU_OPT_UNSIGNED */
    const char *const *choices; /* PMU_OPT_CHOICE: NULL-terminated */
    int (*call)(void *ctx, const char *opt, const char *value, pmu_err *err);
    void *ctx;
    int repeat;                 /* may be given more than once */
    int *given;                 /* set to 1 when given (may be NULL) */
    const char **text;          /* the value as typed (may be NULL) */
    unsigned times;             /* set by pmu_cli_parse: how many times it was given */
} pmu_opt;

typedef struct pmu_cli_cmd {
    const char *name;            /* "run": messages say "pmusim run: ..." */
    void (*help)(FILE *f);       /* what -h/--help prints */
    /* Instead of help, for a command whose options depend on the family: what -h/--help
     * prints for `fam`, the family in effect (--family given before or after --help, else
     * the command's family, else the default); the options of its --family entry. */
    void (*family_help)(FILE *f, const struct pmu_cli_cmd *cmd, const pmu_family *fam);
    /* The command's only family (a family's own command): the default, and the only one
     * --family accepts.  NULL: any family. */
    const pmu_family *family;
    unsigned min_args, max_args; /* positional arguments */
    const char *args_what;       /* "an input and an output file", for the message */
    FILE *out, *err;             /* NULL: stdout, stderr */
} pmu_cli_cmd;

#define PMU_CLI_DONE (-1) /* pmu_cli_parse printed the help or the version: exit 0 */

/* Parses argv[1..argc).  Returns 0 (the positional arguments are args[0..*nargs), at
 * most cmd->max_args, and 4096), PMU_CLI_DONE, or PMU_EXIT_USAGE after printing the message.
 * After -h/--help the rest of the line is read only for --family (family_help); errors
 * there are not reported, the help is printed. */
int pmu_cli_parse(const pmu_cli_cmd *cmd, pmu_opt *opts, unsigned nopts, int argc,
                  char **argv, const char **args, unsigned *nargs);

/* "pmusim CMD: <message> (see pmusim CMD --help)" on the command's stderr; returns
 * PMU_EXIT_USAGE. */
int pmu_cli_usage(const pmu_cli_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "pmusim CMD: <message>"; returns `status`. */
int pmu_cli_fail(const pmu_cli_cmd *cmd, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The error's message the same way; the status follows the error's code (bad input:
 * PMU_EXIT_USAGE, anything else: PMU_EXIT_FAIL). */
int pmu_cli_error(const pmu_cli_cmd *cmd, const pmu_err *err);
FILE *pmu_cli_out(const pmu_cli_cmd *cmd);

/* "a, b or c" from a NULL-terminated list. */
void pmu_cli_or_list(const char *const *names, char *buf, size_t size);

/* ---- what a command runs on: family, model, backend ---------------------------------- */
typedef enum pmu_backend_kind { PMU_BACKEND_COSIM, PMU_BACKEND_RTL, PMU_BACKEND_REF } pmu_backend_kind;
extern const char *const pmu_backend_kind_names[]; /* "cosim", "rtl", "ref", NULL */

typedef struct pmu_cli_target {
    const char *family_name; /* --family; NULL: the first registered family */
    const char *model_name;  /* --model; NULL: the family's default model */
    int backend;             /* --backend: a pmu_backend_kind */
    int records_only;        /* the command needs only the family's records (gen, conv):
                                a family without command hooks is accepted */
    const pmu_family *fam;   /* resolved by pmu_cli_target_resolve */
    unsigned model;
} pmu_cli_target;

/* The options --family, --model and --backend (with_backend) into opts; returns how many. */
unsigned pmu_cli_target_opts(pmu_cli_target *t, int with_backend, pmu_opt *opts);
/* Their lines of the help of command cmd (may be NULL: any family) for family fam: the
 * families cmd takes, and fam's models. */
void pmu_cli_target_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam, int with_backend);
/* Finds the family (cmd->family, or the first registered, when --family is not given; a
 * command with a family of its own refuses another) and the model; 0, or PMU_EXIT_USAGE
 * with the message printed. */
int pmu_cli_target_resolve(const pmu_cli_cmd *cmd, pmu_cli_target *t);

/* ---- what a family refuses of a command (pmu_family_cmds.refusals) ------------------- */
/* Why family fam refuses option `opt` ("irq-latency"; NULL: the whole command) of command
 * `cmd`, or NULL when it takes it. */
const char *pmu_cli_refusal(const pmu_family *fam, const char *cmd, const char *opt);
/* After parsing and resolving: the command and each option given that fam refuses get
 * "--OPT: not on the TITLE: why (see pmusim CMD --family F --help)"; 0, or PMU_EXIT_USAGE
 * with the message printed. */
int pmu_cli_family_check(const pmu_cli_cmd *cmd, const pmu_family *fam, const pmu_opt *opts, unsigned nopts);
/* 1 when fam takes option opt of cmd (help prints only what the family takes). */
int pmu_cli_takes(const pmu_cli_cmd *cmd, const pmu_family *fam, const char *opt);
/* The end of a family_help: the options fam refuses and why, and how to see another
 * family's help. */
void pmu_cli_family_help_end(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam);

/* A reset backend of `kind` for model `model` of family `fam` through the family's
 * constructors; a lock-step pair asks `where(where_ctx)` where a record came from.
 * NULL + err on failure (nothing left allocated). */
pmu_backend *pmu_cli_backend(const pmu_family *fam, unsigned model, pmu_backend_kind kind,
                             pmu_cosim_where_fn where, void *where_ctx, pmu_err *err);

/* ---- where records come from ------------------------------------------------------- */
typedef struct pmu_cli_records {
    const char *stream;  /* --stream FILE ("-" = stdin); NULL: the generator */
    uint64_t seed, cycles;
    int mode;            /* a pmu_gen_mode */
    unsigned procs;      /* 0: the generator's default */
    int seed_given, cycles_given, mode_given, procs_given;
} pmu_cli_records;

extern const char *const pmu_gen_mode_names[]; /* "workload", "random", NULL */

/* The options --stream, --seed, --cycles, --mode, --procs into opts (defaults set);
 * returns how many. */
unsigned pmu_cli_records_opts(pmu_cli_records *r, pmu_opt *opts);
/* Their lines of a command's help. */
void pmu_cli_records_help(FILE *f);
/* The options fit together (--seed/--mode/--procs are not for a stream file, --procs
 * needs workload mode); 0 or PMU_EXIT_USAGE with the message printed. */
int pmu_cli_records_check(const pmu_cli_cmd *cmd, const pmu_cli_records *r);
/* The records: the stream file (recorded in `files` as an input, may be NULL; at most
 * --cycles records when given) or the generator, aimed at `hot` (may be NULL). */
pmu_source *pmu_cli_source(const pmu_dialect *d, const pmu_cli_records *r, const pmu_gen_hot *hot,
                           pmu_files *files,
                           pmu_err *err);

/* ---- --json (verilator/cli/json.c, docs/json.md) ------------------------------------- */
/* "family", "model", "backend" and "source" (the stream file, or the generator's mode,
 * seed and cycles) members, comma-separated, no braces. */
void pmu_cli_json_target(FILE *f, const pmu_family *fam, const pmu_backend *b, const pmu_cli_records *r);
/* "exact" (the 64-bit counts against the reference's totals; null where b keeps none) and
 * "lockstep" ({"cycles", "mismatches"}; null where b is not a lock-step pair) members. */
void pmu_cli_json_verdicts(FILE *f, const pmu_backend *b, uint64_t records, int exact);
/* A lock-step mismatch as one JSON object. */
void pmu_cli_json_mismatch(FILE *f, const pmu_cosim_mismatch *m);

/* ---- the run loop -------------------------------------------------------------------- */
/* What the loop calls around each record: the software of the run (an overflow service,
 * a driver, random register activity). */
typedef struct pmu_record_hooks {
    void *ctx;
    /* Before stepping `record` (may change it, e.g. a driver's PSR policy). */
    void (*before)(void *ctx, void *record);
    /* Optional, called before `before`: the software may refuse the record (one its model
     * cannot follow, e.g. an OS event that cannot happen): -1 with err filled (code
     * PMU_E_INPUT) ends the run with PMU_LOOP_ERROR. */
    int (*admit)(void *ctx, void *record, pmu_err *err);
    /* After stepping it; `st` is the state after the clock (st->pmi the interrupt line). */
    void (*after)(void *ctx, const void *record, const pmu_state *st);
    /* 1: `after` reads only st->pmi, so the loop does not gather the registers. */
    int pmi_only;
    /* Optional, with pmi_only: `after` is called only after a clock whose st->pmi is 1 or
     * while *wake is non-zero (an overflow service with no interrupt pending has nothing
     * to do on the other clocks). */
    const int *wake;
    /* Optional, with at_cycle: software activity at chosen clocks, called once the record
     * of clock *at_cycle (the backend's cycle) has been read and before it is stepped,
     * where `before` would be called; it moves *at_cycle past that clock.  Unlike
     * `before`, it leaves the records as they are, so the loop may read and step the
     * clocks up to *at_cycle in a row or in batches. */
    void (*at)(void *ctx);
    const uint64_t *at_cycle;
    /* Optional, with at_cycle, in place of `at`: the same call, given the record of clock
     * *at_cycle as it will be stepped (a plot's tap reads its privilege level). */
    void (*at_record)(void *ctx, const void *record);
} pmu_record_hooks;

typedef struct pmu_cli_loop {
    pmu_backend *b;
    pmu_source *src;
    /* Records from here instead of src when set (the SystemC platform's player): as
     * pmu_source_next, 1, 0 at the end, or -1 with err filled. */
    int (*fetch)(void *ctx, void *rec, pmu_err *err);
    void *fetch_ctx;
    size_t record_size;       /* the family's dialect->record_size */
    pmu_record_hooks hooks;
    uint64_t stop_at;         /* stop before record stop_at (0: no limit) */
    const char *wave_path;    /* start a waveform here at record wave_from (NULL: none) */
    uint64_t wave_from;
    int unbatched;            /* a lock-step pair clock by clock, never in batches */
    /* Results. */
    int tracing;              /* the waveform was started (close it with pmu_trace_close) */
    uint64_t records;         /* records stepped (b->cycle at the end) */
    double seconds;
} pmu_cli_loop;

typedef enum pmu_loop_end { PMU_LOOP_END, PMU_LOOP_MISMATCH, PMU_LOOP_ERROR } pmu_loop_end;
/* Steps records until the source ends, stop_at, or the first lock-step mismatch.
 * PMU_LOOP_ERROR: a bad record or an unwritable waveform, err filled. */
pmu_loop_end pmu_cli_loop_run(pmu_cli_loop *l, pmu_err *err);

/* ---- what carries a run (pmusim run, and the SystemC platform's program) ----------- */
/* How `run` reaches the PMU: the C harness (pmusim_cmd_run) steps the records and calls
 * the software itself; the SystemC platform (systemc/pmu_sc_platform.cpp) puts the
 * backends in parts and the software in a CPU that reaches them through a socket.  The
 * configuration, the records, the software, the reports and the files are run's. */
/* The software of a run, as the engine calls it: start programs the PMU and fills the
 * loop's hooks (0, or -1 with err filled); finish is its last word after the records
 * (it may read and write registers too). */
typedef struct pmu_run_software {
    int (*start)(void *arg, pmu_err *err);
    void (*finish)(void *arg);
    void *arg;
} pmu_run_software;

typedef struct pmu_run_engine {
    void *ctx;
    /* Makes the PMU of `kind` for the records of src (`where` names a record in reports):
     * *checked, the backend the run reports on (the lock-step pair, or the one model),
     * and *sw, the one the software and the run loop use (may be *checked).  0, or -1
     * with err filled.  The engine keeps and frees them. */
    int (*open)(void *ctx, const pmu_family *fam, unsigned model, pmu_backend_kind kind,
                pmu_source *src, pmu_backend **checked, pmu_backend **sw, pmu_err *err);
    /* Runs the software sw and the loop l (l->b is *sw) where the software runs (on the
     * SystemC platform: in the processor's thread, while the simulation runs): sw->start,
     * then l to its end as pmu_cli_loop_run, then, when the records ended (PMU_LOOP_END),
     * sw->finish.  A failed start: PMU_LOOP_ERROR with start's err. */
    pmu_loop_end (*loop)(void *ctx, pmu_cli_loop *l, const struct pmu_run_software *sw, pmu_err *err);
    /* Optional: waveform files of its own beside --waves' FST (`fst_target`, as the user
     * gave it), prepared in `files`; *extra is committed with the FST (may stay NULL).
     * They start and stop with the FST: pmu_trace_open/close on the software's backend. */
    int (*waves)(void *ctx, pmu_files *files, const char *fst_target, pmu_outfile **extra,
                 pmu_err *err);
    /* Lines of its own at the end of the report (may be NULL). */
    void (*report)(void *ctx, FILE *out);
    void (*close)(void *ctx);
} pmu_run_engine;

/* `run` (argv[0] is the command name) through engine e; the exit status. */
int pmu_cli_run(int argc, char **argv, const pmu_run_engine *e);

/* ---- register traffic (run --traffic) ------------------------------------------------- */
/* A log of what the software did to the PMU: a backend to give the software in front of
 * the run's backend `b`, and record hooks around the software's that log the interrupt
 * line.  One line each, prefixed by the records stepped so far (docs/run-traffic.md):
 *     <records> W <register> 0x<16 hex digits>      a register write
 *     <records> R <register> 0x<16 hex digits>      a register read and the value read
 *     <records> pmi 1|0                             the line changed with the last record
 * Registers are named as the family names its visible registers ("PMC4", "PMD5"), others
 * by their register-map entry and offset ("IBR+3", "PCTX+5"). */
typedef struct pmu_traffic pmu_traffic;
pmu_traffic *pmu_traffic_new(const pmu_family *fam, pmu_backend *b, FILE *out);
/* The backend the software uses (forwards everything to b; freed with t). */
pmu_backend *pmu_traffic_backend(pmu_traffic *t);
/* --json: each entry also as a JSON object on json, comma-separated (the members of an array). */
void pmu_traffic_json(pmu_traffic *t, FILE *json);
/* Puts the logger around the software's hooks *h (after pmu_traffic_backend's software
 * filled them). */
void pmu_traffic_hooks(pmu_traffic *t, pmu_record_hooks *h);
void pmu_traffic_free(pmu_traffic *t);

/* ---- the waveform's layout (run --waves; verilator/cli/layout.c) ----------------------- */
/* Where the primary marker goes, in the FST's ps: on the mismatch m's clock (a step at its
 * edge, T.5 ns; a register write or read before record T at T ns), or without one on the
 * last of `records` records' edge. */
uint64_t pmu_cli_wave_marker(const pmu_cosim_mismatch *m, uint64_t records);
/* The width in pixels of the wave pane GTKWave shows for the layout (its [size] less the
 * tree and signal panes, docs/debugging.md). */
double pmu_cli_wave_pane(const char *layout);
/* The zoom that shows records from..records-1 on 3/4 of that pane (GTKWave: 2^-zoom / 200
 * ps a pixel). */
double pmu_cli_wave_zoom(const char *layout, uint64_t from, uint64_t records);
/* Whether a group title (len bytes) names register reg: "PMC4", "pmi", or a range such as
 * "PMD8..PMD16" or "PMC13..15" that holds it. */
int pmu_cli_wave_group_names(const char *title, size_t len, const char *reg);
/* Writes the family's GTKWave layout to f for the FST `fst` holding records from..records-1:
 * [dumpfile] names it, [timestart] and the zoom show the window, the marker as above; after
 * a mismatch the groups whose titles name its register come first, open and highlighted. */
void pmu_cli_wave_layout(FILE *f, const char *layout, const char *fst, uint64_t from,
                         uint64_t records, const pmu_cosim_mismatch *m);
/* The layout's file beside the FST `fst` (pmu_outfile_beside, ".gtkw"), prepared in files
 * for a family that has a layout (*out NULL otherwise): 0, or -1 with err filled. */
int pmu_cli_layout_prepare(pmu_files *files, const pmu_family *fam, const char *fst,
                           pmu_outfile **out, pmu_err *err);
/* Writes the layout into o (as pmu_cli_wave_layout) and puts it in place: 0, or -1 with err
 * filled. */
int pmu_cli_layout_commit(pmu_outfile *o, const pmu_family *fam, const char *fst, uint64_t from,
                          uint64_t records, const pmu_cosim_mismatch *m, pmu_err *err);

/* ---- conformance results (conform --json / --junit, conform-merge; conform_report.c) --- */
typedef enum pmu_conform_status {
    PMU_CONFORM_PASSED,   /* in lock-step, exact counts */
    PMU_CONFORM_MISMATCH, /* stopped at a lock-step mismatch */
    PMU_CONFORM_INEXACT   /* in lock-step, but the driver's 64-bit counts were not exact */
} pmu_conform_status;
extern const char *const pmu_conform_status_names[]; /* "passed", "mismatch", "inexact", NULL */

/* One case: a seed of one family, model, configuration and service. */
typedef struct pmu_conform_result {
    char family[32], model[32], config[16], service[16];
    uint64_t seed, cycles, interrupts;
    uint64_t index;  /* its number in the plan, from 0: shard I of N runs those with index % N == I-1 */
    int status;      /* pmu_conform_status */
    double seconds;
    char *message;   /* a failed case's report (NULL when passed) */
    char *replay;    /* the one-line command that replays the case */
} pmu_conform_result;

/* The cases of one shard of a plan (the options that define the case list, as text). */
typedef struct pmu_conform_summary {
    char plan[512];
    uint64_t plan_cases; /* cases of the whole plan, every shard */
    unsigned shard, nshards;
    char timestamp[20];  /* when the shard started, UTC: "YYYY-MM-DDTHH:MM:SS" */
    char hostname[256];  /* where it ran; a merge of several hosts' shards: "several hosts" */
    pmu_conform_result *r; /* n results (owned: message and replay copied) */
    size_t n, cap;
} pmu_conform_summary;

typedef struct pmu_conform_totals_t {
    uint64_t cases, failed, mismatches, cycles;
    double seconds;
} pmu_conform_totals_t;

/* The summary's timestamp (now) and hostname (this host, "localhost" when it has no name). */
void pmu_conform_stamp(pmu_conform_summary *s);
/* Folds shard s's timestamp and hostname into merged summary m (first: s is the first
 * shard read): the earliest start, and the host unless the shards ran on several. */
void pmu_conform_stamp_merge(pmu_conform_summary *m, const pmu_conform_summary *s, int first);
/* Appends a copy of r (0, or -1 out of memory); frees every result. */
int pmu_conform_add(pmu_conform_summary *s, const pmu_conform_result *r);
void pmu_conform_free(pmu_conform_summary *s);
/* "family/model/config/service/seed N". */
void pmu_conform_case_name(const pmu_conform_result *r, char *buf, size_t size);
void pmu_conform_totals(const pmu_conform_summary *s, pmu_conform_totals_t *t);
/* The JSON summary (format "pmusim-conform-3", docs/conformance.md) and JUnit XML (one
 * testcase a case; a failure's message has its report's first line and the replay command;
 * valid against tests/junit/junit.xsd). */
void pmu_conform_write_json(FILE *f, const pmu_conform_summary *s);
void pmu_conform_write_junit(FILE *f, const pmu_conform_summary *s);
/* One of them (junit: the XML) into output o, then committed: 0, or -1 with err filled. */
int pmu_conform_save(pmu_outfile *o, const char *opt, const pmu_conform_summary *s, int junit, pmu_err *err);
/* Reads a JSON summary from text (name: the file, for messages) into *s (free it with
 * pmu_conform_free): 0, or -1 with err filled ("NAME:LINE: expected ...", or "NAME: field
 * 'cases[3].seed': expected ...").  It also checks that the file is one shard's own: every
 * case's index belongs to the shard and is below plan_cases, the indexes rise (each case
 * once), and the totals are those of its cases. */
int pmu_conform_read_json(const char *text, size_t len, const char *name, pmu_conform_summary *s,
                          pmu_err *err);

/* ---- a mismatch's report and the reproduce command ------------------------------------ */
/* The report of the lock-step pair b's first mismatch, as run and conform print it: the
 * checker's lines (pmu_cosim_format), the family's detail (the mismatching counter and its
 * programming) and, for a generated stream (seed not NULL), "  seed:     N (MODE mode)"
 * (mode: a pmu_gen_mode). */
void pmu_cli_mismatch_report(FILE *out, const pmu_family *fam, pmu_backend *b, const uint64_t *seed, int mode);
/* The first cycle of a reproduce command's waveform for a mismatch at `cycle`: the 200
 * cycles before it (from 0 when it is nearer the start), so the file stays small. */
uint64_t pmu_cli_replay_wave_from(uint64_t cycle);
/* Appends " arg" to buf, quoted for the shell when it needs to be. */
void pmu_cli_shell_arg(char *buf, size_t size, const char *arg);

#ifdef __cplusplus
}
#endif
#endif
