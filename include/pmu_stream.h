/*
 * pmu_stream.h - instruction streams: sequences of cycle records.
 *
 * Two forms (docs/stream-format.md): a text form a person can write by hand and a
 * compact binary form for long runs.  A reader detects the form from the first bytes.
 * Every record a reader returns has passed pmu_cycle_validate().
 *
 * Errors: functions that can fail fill a pmu_err with "file:line: field: what was
 * expected" and return non-zero.  No function prints or exits.
 */
#ifndef PMU_STREAM_H
#define PMU_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ita/pmu_cycle.h"
#include "pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif


/* ---- validation ---------------------------------------------------------- */
/* Checks one record against the rules of docs/stream-format.md (ranges, flag
 * consistency, per-cycle multiplicities <= the events' maxincr).  `where` is
 * prefixed to the message (e.g. "trace.txt:12").  Returns 0 when valid. */
int pmu_cycle_validate(const pmu_cycle *c, const char *where, pmu_err *err);

/* ---- reading ------------------------------------------------------------- */
typedef struct pmu_stream_reader pmu_stream_reader;

/* Opens a text or binary stream file ("-" = stdin). NULL + err on failure. */
pmu_stream_reader *pmu_stream_open(const char *path, pmu_err *err);
/* Reads from memory (text or binary); `name` is used in messages. */
pmu_stream_reader *pmu_stream_open_mem(const void *data, size_t len, const char *name, pmu_err *err);
/* Next record: 1 = got one, 0 = end of stream, -1 = error (err filled).
 * A text line with repeat=N yields N records. */
int pmu_stream_next(pmu_stream_reader *r, pmu_cycle *c, pmu_err *err);
/* Where the last record came from, e.g. "trace.txt:12" or "trace.bin:record 4711". */
const char *pmu_stream_where(const pmu_stream_reader *r);
void pmu_stream_close(pmu_stream_reader *r);

/* ---- writing ------------------------------------------------------------- */
typedef enum pmu_stream_form { PMU_STREAM_TEXT = 0, PMU_STREAM_BINARY = 1 } pmu_stream_form;
/* The form of an open reader's stream (detected from its first bytes). */
pmu_stream_form pmu_stream_reader_form(const pmu_stream_reader *r);
typedef struct pmu_stream_writer pmu_stream_writer;
pmu_stream_writer *pmu_stream_create(const char *path, pmu_stream_form form, pmu_err *err);
int pmu_stream_write(pmu_stream_writer *w, const pmu_cycle *c, pmu_err *err);
int pmu_stream_finish(pmu_stream_writer *w, pmu_err *err); /* flushes, closes, frees */

/* One record as a self-contained text line (all fields explicit, no newline).
 * Used in mismatch reports.  Returns the length written (truncated to size-1). */
size_t pmu_cycle_format(const pmu_cycle *c, char *buf, size_t size);

/* ---- generation ---------------------------------------------------------- */
typedef enum pmu_gen_mode { PMU_GEN_WORKLOAD = 0, PMU_GEN_RANDOM = 1 } pmu_gen_mode;

/* Places the generator aims at: each listed address is an edge to hit and miss by a little.
 * docs/stream-format.md ("Hot edges") says what each mode does with them. */
typedef struct pmu_gen_hot {
    const uint64_t *code;  unsigned ncode;   /* instruction-address edges (range bounds) */
    const uint64_t *data;  unsigned ndata;   /* data-address edges */
    const uint64_t *opc_match; const uint64_t *opc_care; unsigned nopc;
                           /* 41-bit encoding patterns: bits set in care must equal match */
} pmu_gen_hot;

typedef struct pmu_gen_opts {
    uint64_t seed;
    uint64_t cycles;     /* records to produce */
    pmu_gen_mode mode;
    unsigned nprocs;     /* workload: processes (default 4) */
    /* NULL: no edges.  The arrays are copied by pmu_gen_create; they need not outlive
     * the call.  Either way the workload uses the exact encodings of
     * docs/stream-format.md ("Encodings"). */
    const pmu_gen_hot *hot;
} pmu_gen_opts;

typedef struct pmu_gen pmu_gen;
/* NULL on a bad option (mode, nprocs > 64, a hot count with a NULL array, an opcode
 * pattern wider than 41 bits) or when out of memory. */
pmu_gen *pmu_gen_create(const pmu_gen_opts *o);
/* 1 = record produced, 0 = `cycles` records already produced. */
int pmu_gen_next(pmu_gen *g, pmu_cycle *c);
/* Symbol file of the workload's functions: "start end name" lines (hex addresses). */
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
/* A stream file; at most `limit` records (0 = all).  NULL + err on failure. */
pmu_source *pmu_source_file(const char *path, uint64_t limit, pmu_err *err);
/* The generator with these options.  NULL + err on failure. */
pmu_source *pmu_source_generator(const pmu_gen_opts *o, pmu_err *err);
/* 1 = record, 0 = end, -1 = error (err filled). */
int pmu_source_next(pmu_source *s, pmu_cycle *c, pmu_err *err);
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
