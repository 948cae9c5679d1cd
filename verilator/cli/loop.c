/*
 * loop.c - where records come from (a stream file or the generator) and the one run loop
 * that steps them through a backend for run, count, profile and conform (cli/pmu_cli.h).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"
#include "harness/pmu_cosim.h"

const char *const pmu_gen_mode_names[] = {[PMU_GEN_WORKLOAD] = "workload",
                                          [PMU_GEN_RANDOM] = "random", NULL};

#define MAX_PROCS 64

unsigned pmu_cli_records_opts(pmu_cli_records *r, pmu_opt *opts)
{
    unsigned n = 0;
    r->seed = 1;
    r->cycles = 1000000;
    r->mode = PMU_GEN_WORKLOAD;
    opts[n++] = (pmu_opt){.name = "stream", .kind = PMU_OPT_FILE, .dest = &r->stream};
    opts[n++] = (pmu_opt){.name = "seed", .kind = PMU_OPT_U64, .dest = &r->seed,
                          .max = UINT64_MAX, .given = &r->seed_given};
    opts[n++] = (pmu_opt){.name = "cycles", .kind = PMU_OPT_U64, .dest = &r->cycles, .min = 1,
                          .max = UINT64_MAX, .given = &r->cycles_given};
    opts[n++] = (pmu_opt){.name = "mode", .kind = PMU_OPT_CHOICE, .dest = &r->mode,
                          .choices = pmu_gen_mode_names, .given = &r->mode_given};
    opts[n++] = (pmu_opt){.name = "procs", .kind = PMU_OPT_UNSIGNED, .dest = &r->procs, .min = 1,
                          .max = MAX_PROCS, .given = &r->procs_given};
    return n;
}

void pmu_cli_records_help(FILE *f)
{
    fprintf(f,
            "  --stream FILE      cycle records from a text or binary stream, '-' = stdin\n"
            "                     (docs/streams.md)\n"
            "  --seed N           generator seed (default 1) when no --stream is given\n"
            "  --cycles N         records to generate (default 1000000); with --stream, at most N\n"
            "  --mode M           generator mode: workload (default) or random\n"
            "  --procs N          generator processes, 1..%d (default 4)\n", MAX_PROCS);
}

int pmu_cli_records_check(const pmu_cli_cmd *cmd, const pmu_cli_records *r)
{
    static const char from_file[] = "not used with --stream (the records come from the file)";
    if (r->stream && r->seed_given)
        return pmu_cli_usage(cmd, "--seed: %s", from_file);
    if (r->stream && r->mode_given)
        return pmu_cli_usage(cmd, "--mode: %s", from_file);
    if (r->stream && r->procs_given)
        return pmu_cli_usage(cmd, "--procs: %s", from_file);
    if (r->procs_given && r->mode == PMU_GEN_RANDOM)
        return pmu_cli_usage(cmd, "--procs: expected --mode workload (random records have no processes)");
    return 0;
}

pmu_source *pmu_cli_source(const pmu_dialect *d, const pmu_cli_records *r, const pmu_gen_hot *hot,
                           pmu_files *files,
                           pmu_err *err)
{
    if (r->stream) {
        pmu_source *s = pmu_source_file(d, r->stream, r->cycles_given ? r->cycles : 0, err);
        if (s)
            pmu_files_input(files, "--stream", r->stream);
        else
            err->code = PMU_E_INPUT; /* a stream that cannot be read is bad input */
        return s;
    }
    pmu_gen_opts g;
    memset(&g, 0, sizeof g);
    g.seed = r->seed;
    g.cycles = r->cycles;
    g.mode = (pmu_gen_mode)r->mode;
    g.nprocs = r->procs;
    g.hot = hot;
    pmu_source *s = pmu_source_generator(d, &g, err);
    if (!s)
        err->code = PMU_E_NOMEM;
    return s;
}

/* ---- the loop ------------------------------------------------------------------------------ */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The first cycle at which the loop must look at stop_at, the waveform's start or the
 * hooks' next activity (pmu_record_hooks.at) again. */
static uint64_t next_mark(const pmu_cli_loop *l)
{
    uint64_t mark = l->stop_at ? l->stop_at : UINT64_MAX;
    if (l->wave_path && !l->tracing && l->wave_from < mark)
        mark = l->wave_from;
    if ((l->hooks.at || l->hooks.at_record) && *l->hooks.at_cycle < mark)
        mark = *l->hooks.at_cycle;
    return mark;
}

/* The most cycles of a record to hand out with `room` cycles left before the next mark. */
static inline unsigned run_max(uint64_t room)
{
    return room < PMU_STREAM_MAX_REPEAT ? (unsigned)room : PMU_STREAM_MAX_REPEAT;
}

static pmu_loop_end input_error(pmu_err *err)
{
    err->code = PMU_E_INPUT;
    return PMU_LOOP_ERROR;
}

/* What the quiet path (loop) steps with: the backend's ops and the service's hooks, fixed
 * for the run.  mismatches is set for a lock-step pair (tested after every clock, or every
 * run of clocks, which the pair's step_run ends at a mismatch), run for a backend that
 * steps a record's cycles in one call. */
typedef struct quiet_ops {
    void (*step)(pmu_backend *, const void *);
    unsigned (*run)(pmu_backend *, const void *, unsigned);
    uint8_t (*pmi)(pmu_backend *);
    uint64_t (*mismatches)(const pmu_backend *);
    pmu_record_hooks h;
} quiet_ops;

/* The `got` cycles of record cur on the quiet path: the service, asleep, is called at a
 * clock that raises the interrupt line or when it asked to wake.  Returns -1, or, when a
 * pair's registers disagreed after a clock (it stops there, before the service: as
 * pair_batches, which cannot call the service at a clock its RTL has run past) or after the
 * service's register accesses, the cycles of the record left unstepped. */
static inline __attribute__((always_inline)) int quiet_steps(pmu_backend *b, const void *cur,
                                                             int got, const quiet_ops *q,
                                                             pmu_state *st)
{
    do {
        unsigned done = 1;
        if (q->run && got > 1 && !*q->h.wake) /* stops at a clock that raises the line */
            done = q->run(b, cur, (unsigned)got);
        else
            q->step(b, cur);
        const uint8_t line = q->pmi(b);
        if (line || *q->h.wake) {
            /* a pair that disagreed stops after the clock, before the service */
            if (q->mismatches && q->mismatches(b))
                return got - (int)done;
            st->pmi = line;
            q->h.after(q->h.ctx, cur, st);
        }
        got -= (int)done;
        if (q->mismatches && q->mismatches(b))
            return got;
    } while (got);
    return -1;
}

/* Where the quiet path reads: a stream file's reader, or, with reader NULL, the source (the
 * generator, into buf unless it keeps its records).  A caller passes a constant NULL or a
 * reader known to be there, so that each in-line copy reads one kind without a test. */
typedef struct quiet_src {
    pmu_stream_reader *reader;
    pmu_source *src;
    void *buf;
} quiet_src;

static inline __attribute__((always_inline)) int src_view(const quiet_src *s, const void **cur,
                                                          unsigned max, pmu_err *err)
{
    return s->reader ? pmu_stream_view(s->reader, cur, max, err)
                     : pmu_source_view(s->src, s->buf, cur, max, err);
}

static inline __attribute__((always_inline)) void src_unread(const quiet_src *s, unsigned n)
{
    if (s->reader)
        pmu_stream_unread(s->reader, n);
    else
        pmu_source_unread(s->src, n);
}

/* A source's records on the quiet path, in a loop of their own up to cycle mark (nothing
 * of loop's but the read applies to them): PMU_LOOP_END there too, the caller tells the
 * two ends apart by the cycle.  At a pair's mismatch, the cycles of the record it did not
 * step are given back to the source, so that the records read are the records stepped. */
static inline __attribute__((always_inline)) pmu_loop_end
quiet_records(pmu_backend *b, const quiet_src *s, uint64_t mark, const quiet_ops *q,
              pmu_state *st, pmu_err *err)
{
    while (b->cycle < mark) {
        const void *cur;
        const int got = src_view(s, &cur, run_max(mark - b->cycle), err);
        if (got <= 0)
            return got == 0 ? PMU_LOOP_END : input_error(err);
        const int left = quiet_steps(b, cur, got, q, st);
        if (left >= 0) {
            src_unread(s, (unsigned)left);
            return PMU_LOOP_MISMATCH;
        }
    }
    return PMU_LOOP_END;
}

/* A lock-step pair's records on the quiet path, a batch at a time (pmu_cosim_step_batch):
 * up to PMU_COSIM_BATCH records read (the source keeps them where it handed them out,
 * pmu_source_keep), then stepped by the RTL and by the reference in turn.  The service is
 * called after a clock that raises the line, as quiet_steps calls it; once it asks to be
 * woken, the batch's other records go through quiet_steps.  At a mismatch the cycles read
 * and not stepped are given back and the report's where text is taken again, so that, as
 * on the other paths, the records read are the records stepped.  Returns PMU_LOOP_END
 * with b->cycle below mark at the stream's end. */
static pmu_loop_end pair_batches(pmu_backend *b, const quiet_src *s, uint64_t mark,
                                 const quiet_ops *q, pmu_state *st, pmu_err *err)
{
    const void *rec[PMU_COSIM_BATCH];
    unsigned clocks[PMU_COSIM_BATCH];
    while (b->cycle < mark) {
        /* the batch: every clock of it below mark */
        const uint64_t room = mark - b->cycle;
        const unsigned cap = room < PMU_COSIM_BATCH_CLOCKS ? (unsigned)room : PMU_COSIM_BATCH_CLOCKS;
        unsigned n = 0, unstepped = 0;
        int got = 1;
        while (n < PMU_COSIM_BATCH && unstepped < cap) {
            got = src_view(s, &rec[n], cap - unstepped, err);
            if (got <= 0)
                break;
            clocks[n++] = (unsigned)got;
            unstepped += (unsigned)got;
        }
        unsigned i = 0;
        while (i < n) {
            if (*q->h.wake) { /* the service wakes every clock: the records one by one */
                const int left = quiet_steps(b, rec[i], (int)clocks[i], q, st);
                unstepped -= clocks[i] - (left >= 0 ? (unsigned)left : 0u);
                if (left >= 0)
                    goto mismatch;
                i++;
                continue;
            }
            unsigned done = pmu_cosim_step_batch(b, rec + i, clocks + i, n - i);
            unstepped -= done;
            unsigned last = i; /* the record of the last clock stepped */
            while (done) {
                last = i;
                if (done < clocks[i]) { /* its other clocks: a record of their own */
                    clocks[i] -= done;
                    break;
                }
                done -= clocks[i++];
            }
            if (q->mismatches(b))
                goto mismatch;
            const uint8_t line = q->pmi(b);
            if (line) {
                st->pmi = line;
                q->h.after(q->h.ctx, rec[last], st);
                if (q->mismatches(b))
                    goto mismatch;
            }
        }
        if (got < 0)
            return input_error(err);
        if (got == 0)
            return PMU_LOOP_END;
        continue;
    mismatch:
        src_unread(s, unstepped);
        pmu_cosim_retake_where(b);
        return PMU_LOOP_MISMATCH;
    }
    return PMU_LOOP_END;
}

/* The `got` cycles of record cur off the quiet path, the service after every clock (with
 * the registers unless pmi_only; with pmi_only and wake, at the line or while awake).  1
 * when a pair disagreed: after a clock (it stops there, before the service) or after the
 * service's register accesses.  Out of line, so that the quiet path's loops in loop() are
 * compiled without its registers. */
static __attribute__((noinline)) int general_steps(pmu_backend *b, const void *cur, int got,
                                                   const pmu_record_hooks *h,
                                                   uint64_t (*mismatches)(const pmu_backend *),
                                                   pmu_state *st)
{
    void (*const step)(pmu_backend *, const void *) = b->ops->step;
    uint8_t (*const pmi)(pmu_backend *) = b->ops->pmi;
    do {
        step(b, cur);
        if (mismatches && mismatches(b))
            return 1;
        if (h->after && h->pmi_only) {
            st->pmi = pmi ? pmi(b) : pmu_pmi(b);
            if (st->pmi || !h->wake || *h->wake)
                h->after(h->ctx, cur, st);
        } else if (h->after) {
            pmu_snapshot(b, st);
            h->after(h->ctx, cur, st);
        }
        if (mismatches && mismatches(b))
            return 1;
    } while (--got);
    return 0;
}

/* The quiet path's records up to mark (quiet_records, pair_batches), from source s. */
static inline __attribute__((always_inline)) pmu_loop_end
quiet_source(pmu_backend *b, const quiet_src *s, uint64_t mark, int batches, const quiet_ops *q,
             const quiet_ops *q_unchecked, pmu_state *st, pmu_err *err)
{
    /* two copies, so that the one without a pair does not test for it */
    return batches       ? pair_batches(b, s, mark, q, st, err)
           : q->mismatches ? quiet_records(b, s, mark, q, st, err)
                           : quiet_records(b, s, mark, q_unchecked, st, err);
}

static pmu_loop_end loop(pmu_cli_loop *l, void *rec, pmu_err *err)
{
    pmu_backend *b = l->b;
    const int checks = pmu_has_mismatches(b);
    uint64_t (*const mismatches)(const pmu_backend *) = b->ops->mismatches; /* set when checks */
    /* Without a hook that may change the record, the record is stepped where the reader
     * keeps it (a repeated record is not copied for every cycle it stands for), and the
     * cycles it stands for are stepped in a row.  A lock-step pair gets one cycle a call,
     * so that the records read are the records stepped when it stops at a mismatch (but
     * in quiet_records, which gives back what a pair did not step). */
    const int view = !l->fetch && !l->hooks.admit && !l->hooks.before;
    /* Fixed for the run (a backend's ops and the hooks are set before it), and so kept
     * out of the per-cycle loads. */
    const pmu_record_hooks h = l->hooks;
    void (*const step)(pmu_backend *, const void *) = b->ops->step;
    uint8_t (*const pmi)(pmu_backend *) = b->ops->pmi;
    /* A service hook that sleeps between interrupts, on a backend that gives its
     * interrupt line alone. */
    const int quiet = h.after && h.pmi_only && h.wake && pmi;
    /* A record's cycles in one call where the backend can (pmu_backend_ops.step_run): the
     * service sleeps through them.  A pair is handed more than one cycle a read only on
     * the quiet path (quiet_records gives back what it did not step at a mismatch). */
    unsigned (*const run)(pmu_backend *, const void *, unsigned) = b->ops->step_run;
    const quiet_ops q = {step, run, pmi, checks ? mismatches : NULL, h};
    /* quiet_ops without the pair's test, for the compiler to drop it */
    const quiet_ops q_unchecked = {step, run, pmi, NULL, h};
    pmu_stream_reader *const reader = view && l->src ? pmu_source_reader(l->src) : NULL;
    /* A pair on the quiet path steps its records in batches (pair_batches), but with a
     * waveform open (the RTL would run ahead of a mismatch in it) or when told not to. */
    const int batches = quiet && view && l->src && checks && pmu_is_cosim(b) && !l->unbatched &&
                        pmu_source_keep(l->src, PMU_COSIM_BATCH + 2, NULL) == 0;
    pmu_state st;
    memset(&st, 0, sizeof st);
    uint64_t mark = next_mark(l);
    for (;;) {
        if (b->cycle >= mark) {
            if (l->stop_at && b->cycle >= l->stop_at)
                return PMU_LOOP_END;
            if (l->wave_path && !l->tracing && b->cycle >= l->wave_from) {
                if (pmu_trace_open(b, l->wave_path, err) != 0)
                    return PMU_LOOP_ERROR;
                l->tracing = 1;
            }
            mark = next_mark(l);
        }
        const void *cur = rec;
        int got;
        if (view) {
            /* mark - b->cycle is at least 1 (b->cycle < mark here) but when the hooks' next
             * activity is this clock's (an `at` before the record is read): then one */
            const unsigned max = checks ? 1 : run_max(mark > b->cycle ? mark - b->cycle : 1);
            got = reader ? pmu_stream_view(reader, &cur, max, err)
                         : pmu_source_view(l->src, rec, &cur, max, err);
        } else {
            got = l->fetch ? l->fetch(l->fetch_ctx, rec, err) : pmu_source_next(l->src, rec, err);
        }
        if (got == 0)
            return PMU_LOOP_END;
        if (got < 0)
            return input_error(err);
        if (!view) {
            if (h.admit && h.admit(h.ctx, rec, err) != 0)
                return PMU_LOOP_ERROR;
            if (h.before)
                h.before(h.ctx, rec);
        }
        if ((h.at || h.at_record) && b->cycle == *h.at_cycle) {
            if (h.at_record)
                h.at_record(h.ctx, cur);
            else
                h.at(h.ctx);
            if (*h.at_cycle <= b->cycle) {
                pmu_errf(err, PMU_E_INTERNAL, "the record hooks' next activity, at cycle %" PRIu64
                         ", is not after cycle %" PRIu64, *h.at_cycle, b->cycle);
                return PMU_LOOP_ERROR;
            }
            /* a record's cycles stepped in a row end before the next activity */
            const uint64_t room = *h.at_cycle - b->cycle;
            if (room < (uint64_t)got) {
                if (view)
                    pmu_source_unread(l->src, (unsigned)(got - (int)room));
                got = (int)room;
            }
            mark = next_mark(l);
        }
        if (checks && mismatches(b)) /* the software's register accesses disagreed */
            return PMU_LOOP_MISMATCH;
        if (quiet) { /* the common case, in as few instructions as it takes */
            if (quiet_steps(b, cur, got, &q, &st) >= 0) /* got is 1 for a pair */
                return PMU_LOOP_MISMATCH;
            if (view && l->src) {
                /* a copy for each kind of source */
                const quiet_src from_reader = {reader, NULL, NULL}, from_gen = {NULL, l->src, rec};
                const pmu_loop_end end =
                    reader ? quiet_source(b, &from_reader, mark, batches && !l->tracing, &q,
                                          &q_unchecked, &st, err)
                           : quiet_source(b, &from_gen, mark, batches && !l->tracing, &q,
                                          &q_unchecked, &st, err);
                if (end != PMU_LOOP_END || b->cycle < mark)
                    return end;
            }
            continue;
        }
        if (!h.after && run && !checks) { /* nothing looks at the clocks */
            do
                got -= (int)run(b, cur, (unsigned)got);
            while (got);
            continue;
        }
        if (general_steps(b, cur, got, &h, checks ? mismatches : NULL, &st))
            return PMU_LOOP_MISMATCH;
    }
}

pmu_loop_end pmu_cli_loop_run(pmu_cli_loop *l, pmu_err *err)
{
    void *rec = calloc(1, l->record_size);
    if (!rec) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return PMU_LOOP_ERROR;
    }
    uint64_t first = l->b->cycle;
    double t0 = now_seconds();
    pmu_loop_end end = loop(l, rec, err);
    l->seconds = now_seconds() - t0;
    l->records = l->b->cycle - first;
    free(rec);
    return end;
}

/* ---- a mismatch's report and the reproduce command --------------------------------------- */

#define WAVE_WINDOW 200 /* cycles of waveform before a mismatch in the reproduce command */

void pmu_cli_mismatch_report(FILE *out, const pmu_family *fam, pmu_backend *b, const uint64_t *seed, int mode)
{
    const pmu_cosim_mismatch *m = pmu_cosim_first(b);
    char text[4096];
    pmu_cosim_format(m, text, sizeof text);
    fputs(text, out);
    if (fam->cmds && fam->cmds->mismatch_detail)
        fam->cmds->mismatch_detail(m, b, out);
    if (seed)
        fprintf(out, "  seed:     %" PRIu64 " (%s mode)\n", *seed, pmu_gen_mode_names[mode]);
}

uint64_t pmu_cli_replay_wave_from(uint64_t cycle)
{
    return cycle > WAVE_WINDOW ? cycle - WAVE_WINDOW : 0;
}

void pmu_cli_shell_arg(char *buf, size_t size, const char *arg)
{
    static const char plain_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789_./:=+-,@%";
    int plain = *arg != '\0' && strspn(arg, plain_chars) == strlen(arg);
    size_t n = strlen(buf);
    if (plain) {
        snprintf(buf + n, size - n, " %s", arg);
        return;
    }
    snprintf(buf + n, size - n, " '");
    for (const char *p = arg; *p; p++) {
        n = strlen(buf);
        if (*p == '\'')
            snprintf(buf + n, size - n, "'\\''");
        else
            snprintf(buf + n, size - n, "%c", *p);
    }
    n = strlen(buf);
    snprintf(buf + n, size - n, "'");
}
