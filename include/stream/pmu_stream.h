/*
 * stream/pmu_stream.h - instruction streams: sequences of cycle records, for any PMU family.
 *
 * Two forms (docs/streams.md): a text form a person can write by hand and a
 * compact binary form for long runs.  A reader detects the form from the first bytes.
 * What one record holds is the family's dialect (include/common/pmu_dialect.h; the Itanium one
 * is ita_dialect, include/harness/ita/ita_family.h): records are passed as `void *`
 * buffers of dialect->record_size bytes.  Every record a reader returns has passed the
 * dialect's validation.
 *
 * Errors: functions that can fail fill a pmu_err with "file:line: field: what was
 * expected" and return non-zero (or NULL).  No function prints or exits.
 */
#ifndef PMU_STREAM_H
#define PMU_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pmu_dialect.h"
#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most cycles one record may stand for (repeat=N in the text form, the repeat
 * count of the binary form), so that one line of a stream keeps a run going for at most
 * a couple of minutes of lock-step; a longer idle stretch is several records.  A reader
 * refuses a larger count at its file:line; a writer starts a new record. */
#define PMU_STREAM_MAX_REPEAT 100000000u

/* ---- reading ------------------------------------------------------------- */
typedef struct pmu_stream_reader pmu_stream_reader;

/* Opens a text or binary stream file ("-" = stdin) of dialect d.  A binary stream of
 * another dialect is refused.  NULL + err on failure. */
pmu_stream_reader *pmu_stream_open(const pmu_dialect *d, const char *path, pmu_err *err);
/* Reads from memory (text or binary), in place: keep data alive until
 * pmu_stream_close.  `name` is used in messages. */
pmu_stream_reader *pmu_stream_open_mem(const pmu_dialect *d, const void *data, size_t len,
                                       const char *name, pmu_err *err);
/* Next record into rec (d->record_size bytes): 1 = got one, 0 = end of stream,
 * -1 = error (err filled; every later call repeats it).  A record with repeat=N
 * yields N records. */
int pmu_stream_next(pmu_stream_reader *r, void *rec, pmu_err *err);
/* The same, but the record is left where the reader keeps it: *rec points at it until
 * the next call (of either function), and the caller must not change it.  Returns how
 * many cycles in a row the record stands for, at most max (1..PMU_STREAM_MAX_REPEAT):
 * a record with repeat=N is handed out once for its N cycles, neither copied nor asked
 * for N times.  0 = end of stream, -1 = error as pmu_stream_next. */
int pmu_stream_view(pmu_stream_reader *r, const void **rec, unsigned max, pmu_err *err);
/* Gives back the last n cycles pmu_stream_view handed out: the next calls hand them out
 * again, and pmu_stream_count no longer counts them.  n is at most the last call's result,
 * or, on a reader that keeps its last records (pmu_stream_keep(r, k)), the cycles handed
 * out since the first of the (k - 1)-th newest record read; pmu_stream_where then names
 * the record of the last cycle still handed out. */
void pmu_stream_unread(pmu_stream_reader *r, unsigned n);
/* Before the first record: pmu_stream_view keeps the last k records it read (k >= 2), each
 * where it handed it out, so that a caller may hold the records of its last k - 1 calls at
 * once and give back cycles across them (pmu_stream_unread).  0, or -1 with err filled
 * (out of memory, or a reader that has read). */
int pmu_stream_keep(pmu_stream_reader *r, unsigned k, pmu_err *err);
/* At most `cycles` cycles in all (a record with repeat=N counts N); then the stream
 * ends there.  Without it, all. */
void pmu_stream_limit(pmu_stream_reader *r, uint64_t cycles);
/* Cycles handed out so far. */
uint64_t pmu_stream_count(const pmu_stream_reader *r);
/* Where the last record came from, e.g. "trace.txt:12" or "trace.bin:record 4711". */
const char *pmu_stream_where(const pmu_stream_reader *r);
void pmu_stream_close(pmu_stream_reader *r);

/* ---- writing ------------------------------------------------------------- */
typedef enum pmu_stream_form { PMU_STREAM_TEXT = 0, PMU_STREAM_BINARY = 1 } pmu_stream_form;
/* The form of an open reader's stream (detected from its first bytes). */
pmu_stream_form pmu_stream_reader_form(const pmu_stream_reader *r);
typedef struct pmu_stream_writer pmu_stream_writer;
/* Writes a stream of dialect d to path ("-" = stdout).  A regular file is written
 * under a temporary name in its directory and takes its name only when
 * pmu_stream_finish succeeds, so a failed run leaves what was there before. */
pmu_stream_writer *pmu_stream_create(const pmu_dialect *d, const char *path,
                                     pmu_stream_form form, pmu_err *err);
/* Validates and writes one record (identical consecutive records become one record
 * with a repeat count).  Returns 0, or -1 with err filled. */
int pmu_stream_write(pmu_stream_writer *w, const void *rec, pmu_err *err);
/* Flushes, closes and frees: 0 when the whole stream is written (and has its name),
 * -1 otherwise (nothing left under a temporary name).  err may be NULL. */
int pmu_stream_finish(pmu_stream_writer *w, pmu_err *err);

/* ---- generation ---------------------------------------------------------- */
typedef enum pmu_gen_mode { PMU_GEN_WORKLOAD = 0, PMU_GEN_RANDOM = 1 } pmu_gen_mode;

/* Places the generator aims at: each listed address is an edge to hit and miss by a little.
 * docs/ita-stream-format.md ("Hot edges") says what each mode does with them. */
typedef struct pmu_gen_hot {
    const uint64_t *code;  unsigned ncode;   /* instruction-address edges (range bounds) */
    const uint64_t *data;  unsigned ndata;   /* data-address edges */
    const uint64_t *opc_match; const uint64_t *opc_care; unsigned nopc;
                           /* encoding patterns: bits set in care must equal match */
    const uint16_t *lat;   unsigned nlat;    /* latency bounds (1..65535): EAR thresholds */
    const uint16_t *count; unsigned ncount;  /* per-cycle counts: counter thresholds */
} pmu_gen_hot;

struct pmu_gen_opts {
    uint64_t seed;
    uint64_t cycles;     /* records to produce */
    pmu_gen_mode mode;
    unsigned nprocs;     /* workload: processes (0 = the dialect's default) */
    /* NULL: no edges.  The arrays are copied by pmu_gen_create; they need not outlive
     * the call. */
    const pmu_gen_hot *hot;
    /* Multi-processor workloads (dialects whose streams are one CPU each): the stream of
     * CPU `cpu` of `ncpus` (0 = 1), each CPU's its own and together one system.  Other
     * dialects ignore them. */
    unsigned cpu, ncpus;
};

typedef struct pmu_gen pmu_gen;
/* The generator of dialect d.  NULL + err (err may be NULL) on a bad option (mode, a
 * hot count with a NULL array, what the dialect refuses: for Itanium nprocs > 64 or an
 * opcode pattern wider than 41 bits), a dialect without a generator, or out of memory. */
pmu_gen *pmu_gen_create(const pmu_dialect *d, const pmu_gen_opts *o, pmu_err *err);
/* 1 = record produced into rec, 0 = `cycles` records already produced. */
int pmu_gen_next(pmu_gen *g, void *rec);
/* Symbol file of the workload's functions: "start end name" lines (hex addresses),
 * written under a temporary name and renamed as pmu_stream_create does. */
int pmu_gen_write_symbols(const pmu_gen *g, const char *path, pmu_err *err);
/* The same functions as a list, sorted by start address (0 in RANDOM mode).  The list
 * depends only on the seed and nprocs, never on `hot`. */
unsigned pmu_gen_nfuncs(const pmu_gen *g);
/* Function i: [*start, *end) and its "owner:name"; 0, or -1 when i >= pmu_gen_nfuncs.
 * Any output pointer may be NULL; *name stays valid until pmu_gen_destroy. */
int pmu_gen_func(const pmu_gen *g, unsigned i, uint64_t *start, uint64_t *end, const char **name);
void pmu_gen_destroy(pmu_gen *g);

/* ---- record sources ------------------------------------------------------ */
/* Records from a stream file or from the generator behind one interface, with the text
 * saying where the last record came from (for lock-step reports). */
typedef struct pmu_source pmu_source;
/* A stream file of dialect d; at most `limit` records (0 = all).  NULL + err on failure.
 * A file that ends before its first record is an error when read (stream_need_records):
 * every run needs at least one record. */
pmu_source *pmu_source_file(const pmu_dialect *d, const char *path, uint64_t limit,
                            pmu_err *err);
/* The generator of dialect d with these options.  NULL + err on failure. */
pmu_source *pmu_source_generator(const pmu_dialect *d, const pmu_gen_opts *o, pmu_err *err);
/* 1 = record into rec, 0 = end, -1 = error (err filled). */
int pmu_source_next(pmu_source *s, void *rec, pmu_err *err);
/* The same, with *rec pointing at the record: a stream file's in the reader, until the
 * next call (pmu_stream_view; not to be changed), the generator's in buf (record_size
 * bytes).  Returns the cycles in a row it stands for, at most max
 * (1..PMU_STREAM_MAX_REPEAT; always 1 from the generator), 0 at the end, -1 on error. */
int pmu_source_view(pmu_source *s, void *buf, const void **rec, unsigned max, pmu_err *err);
/* Before the first record: pmu_source_view keeps the last k records it handed out (k >= 2),
 * each where it handed it out, so that a caller may hold the records of its last k - 1 calls
 * at once and give back cycles across them (pmu_source_unread).  A file's reader keeps them
 * as pmu_stream_keep says; the generator in a ring of its own.  0, or -1 with err filled. */
int pmu_source_keep(pmu_source *s, unsigned k, pmu_err *err);
/* Gives back the last n cycles pmu_source_view handed out (pmu_stream_unread): the next
 * calls hand them out again, and pmu_source_count and pmu_source_where no longer count
 * them.  From the generator, n is 0 without pmu_source_keep, and at most the cycles of the
 * last k - 1 calls with it. */
void pmu_source_unread(pmu_source *s, unsigned n);
/* The reader of a file source (NULL for the generator): its pmu_stream_view is
 * pmu_source_view without the test of the source's kind. */
pmu_stream_reader *pmu_source_reader(pmu_source *s);
/* "file:line" / "file:record N" / "generator (mode, seed S), record N" of the last record.
 * Takes the source as void* so that it fits pmu_cosim_where_fn. */
const char *pmu_source_where(void *s);
/* Records returned so far. */
uint64_t pmu_source_count(const pmu_source *s);
/* The generator behind a generator source (for its function list), else NULL. */
pmu_gen *pmu_source_gen(pmu_source *s);
void pmu_source_close(pmu_source *s);

#ifdef __cplusplus
}
#endif
#endif
