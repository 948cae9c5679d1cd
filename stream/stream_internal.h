/*
 * stream_internal.h - pieces shared by the generic files of stream/ (not a public
 * interface).  Nothing here knows a family: records are the dialect's opaque buffers.
 */
#ifndef STREAM_INTERNAL_H
#define STREAM_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/pmu_stream.h"

/* ---- binary form: the header (docs/streams.md, "The binary header") -------------------- */
#define BIN_MAGIC "\x89PMUCYC\n"
#define BIN_MAGIC_LEN 8
#define BIN_VERSION 4u
#define BIN_VERSION_OFFSET 8u
#define BIN_RESERVED_OFFSET 12u
#define BIN_COUNT_OFFSET 16u
#define BIN_DIALECT_OFFSET 24u
#define BIN_HEADER_LEN (BIN_DIALECT_OFFSET + PMU_DIALECT_NAME_MAX)

/* A dialect a stream can be read or written with: one whose name fits the header.
 * Returns 0, or -1 with err filled (a bug in the caller or the dialect). */
int bin_dialect_check(const pmu_dialect *d, pmu_err *err);
/* The header of an empty stream of dialect d, its count 0 ("unknown"). */
void bin_header(const pmu_dialect *d, uint8_t h[BIN_HEADER_LEN]);
/* Checks a header against dialect d; *count gets its cycle count.  `name` (the file)
 * prefixes the message. */
int bin_header_check(const pmu_dialect *d, const uint8_t h[BIN_HEADER_LEN], const char *name,
                     uint64_t *count, pmu_err *err);
void bin_put_u64le(uint8_t *p, uint64_t v);
uint64_t bin_get_u64le(const uint8_t *p);

/* ---- text form: a line (docs/streams.md, "The text form") ------------------------------ */
/* Prepares one line (without its line end) for the dialect's parse_line: cuts the
 * comment, and finds `repeat=N` (a word of its own, at most once), blanking it out.
 * Returns 1 = a record line (*len is the length without the comment, *repeat filled),
 * 0 = blank or comment only, -1 = error (`where` is "file:line"). */
int text_line_prepare(char *line, size_t *len, const char *where, uint64_t *repeat,
                      pmu_err *err);
/* Writes "repeat=N " for N > 1 (nothing for 1) into buf; returns its length. */
size_t text_repeat_prefix(uint64_t repeat, char *buf, size_t size);

/* ---- files -------------------------------------------------------------------------- */
/* An output file written under a temporary name in the target's directory and renamed
 * on success ("-" is stdout; a target that exists and is not a regular file, such as
 * /dev/null, is written in place). */
typedef struct out_file {
    FILE *f;
    char *path;      /* the target */
    char *tmp;       /* the temporary name, or NULL when written in place */
    int own;         /* 1: f is ours to close */
} out_file;
int out_file_open(out_file *o, const char *path, pmu_err *err);
/* Flushes, closes and renames (commit = 1), or closes and removes the temporary file
 * (commit = 0).  Returns 0, or -1 with err filled (err may be NULL).  Frees o's names. */
int out_file_close(out_file *o, int commit, pmu_err *err);

/* ---- messages ----------------------------------------------------------------------- */
/* A copy of s with control and non-ASCII bytes escaped (pmu_escape), for messages;
 * NULL when out of memory. */
char *stream_escaped_name(const char *s);
/* As pmu_dialect_errf with an explicit code. */
int stream_errf(pmu_err *err, int code, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- the last records handed out (pmu_stream_keep, pmu_source_keep) ---------------- */
/* A ring of records: record i (counted from 0 as they are put in) is in slot i & (n - 1),
 * so the ring holds the last n. */
typedef struct stream_ring {
    uint8_t *recs;  /* n records, size bytes apart */
    size_t size;    /* the dialect's record_size */
    unsigned n;     /* 0: no ring; else a power of 2 */
    uint64_t count; /* records put in; the newest is count - 1 */
} stream_ring;

/* A ring (zeroed) for the last k records handed out (k at most 2^20) and `extra` more.
 * 0, or -1 with err filled (`fn` and `where` name the caller in the message) and *g
 * untouched. */
int stream_ring_init(stream_ring *g, unsigned k, unsigned extra, size_t size, const char *fn,
                     const char *where, pmu_err *err);

/* Record i's slot, and the record there. */
static inline size_t stream_ring_ix(const stream_ring *g, uint64_t i)
{
    return (size_t)(i & (g->n - 1u));
}
static inline void *stream_ring_at(const stream_ring *g, uint64_t i)
{
    return g->recs + stream_ring_ix(g, i) * g->size;
}

/* From here on, a stream that ends before its first record is an error (PMU_E_INPUT,
 * "NAME: no records ...") rather than an end: the readers of runs (pmu_source_file) take
 * it, since a run of no cycles compares nothing and must not read as a pass. */
void stream_need_records(pmu_stream_reader *r);

/* Form of an open reader (for `pmusim conv`). */

#endif
