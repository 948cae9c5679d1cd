/*
 * common/pmu_dialect.h - a family's cycle-record dialect: what one record of its streams holds
 * and how it is read, written, checked and generated.
 *
 * Generic code (stream files, the lock-step checker, the commands) holds records as
 * opaque buffers of `record_size` bytes and reaches their contents only through these
 * functions.  What is common to every dialect stays in the generic code of stream/
 * (docs/streams.md): detecting the form of a file, lines, comments, line ends and
 * `repeat=N` in the text form, the binary header, merging identical records, "where"
 * texts, record sources.  The Itanium dialect is stream/ita/ (record: struct ita_cycle,
 * include/common/ita/ita_cycle.h).
 *
 * Every function that can fail fills a pmu_err and returns -1; none prints.  `where`
 * texts ("trace.txt:12", "run.bin:record 7") come from the generic code with control
 * and non-ASCII bytes already escaped; a dialect puts them first in its messages.
 */
#ifndef PMU_DIALECT_H
#define PMU_DIALECT_H

#include <stddef.h>
#include <stdint.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_dialect pmu_dialect;
typedef struct pmu_gen_opts pmu_gen_opts; /* include/stream/pmu_stream.h */

/* A byte source for decoding: the next byte, or -1 at the end of the data. */
typedef int (*pmu_getc_fn)(void *ctx);

/* A byte source that is a buffer in memory: decode() given pmu_window_getc and a window
 * as its ctx reads the bytes from p to end directly and calls refill() only when they run
 * out (the stream reader's form: no call per byte).  refill makes p..end the next bytes
 * and returns 1, or returns 0 at the end of the data. */
typedef struct pmu_byte_window {
    const uint8_t *p, *end;
    int (*refill)(struct pmu_byte_window *w);
} pmu_byte_window;

/* The pmu_getc_fn of a window (ctx: the pmu_byte_window). */
int pmu_window_getc(void *ctx);

/* The longest dialect name; the binary header holds it in 16 bytes. */
#define PMU_DIALECT_NAME_MAX 16

struct pmu_dialect {
    const char *name;        /* e.g. "itanium": [a-z0-9_], at most PMU_DIALECT_NAME_MAX */
    size_t record_size;      /* bytes of one record */

    /* ---- records ---- */
    /* Checks one record against the dialect's rules; `where` prefixes the message.
     * Returns 0 when valid, -1 with err filled. */
    int (*validate)(const void *rec, const char *where, pmu_err *err);
    /* The record as one self-contained text line (every sticky field explicit, no
     * newline), truncated to size-1.  Returns the length the full line needs. */
    size_t (*format)(const void *rec, char *buf, size_t size);
    /* Copies `in` with everything the record does not use zeroed, so that two records
     * that mean the same compare equal and encode identically. */
    void (*canon)(const void *in, void *out);
    /* 1 when two canonical records are the same record. */
    int (*equal)(const void *a, const void *b);

    /* ---- the coding state of a stream ----
     * What the writer and the reader of one stream keep from record to record (sticky
     * fields, deltas, caches): state_size bytes.  state_init makes state_size bytes that
     * are all zero a stream's initial state: it sets only what does not start at zero, so
     * that a large cache costs a stream only the pages it touches (the Itanium dialect's
     * is about 500 KB; a text stream never touches it).  pmu_dialect_state_new allocates
     * one so.  The text and the binary form start from the same state. */
    size_t state_size;
    void (*state_init)(void *state);

    /* ---- the text form ----
     * parse_line: one line that holds a record, as the generic reader passes it:
     * without its line end, with the comment cut off and `repeat=N` blanked out (so the
     * columns stay those of the file), not blank before the blanking.  It may be blank
     * after: a record with nothing but the sticky state.  `where` is "file:line";
     * parse errors add ":column".  Fills rec (a valid record: parse_line validates),
     * updates the state.  Returns 0, or -1 with err filled. */
    int (*parse_line)(void *state, const char *line, size_t len, const char *where, void *rec,
                      pmu_err *err);
    /* format_line: the record as the writer writes it after the records before it
     * (the state): what parse_line needs to give it back, never a blank line, no
     * newline, truncated to size-1.  Updates the state.  Returns the length the full
     * line needs; the caller calls again with a larger buffer when it did not fit, with
     * the state as it was before the first call (format_line changes it only when the
     * line fitted). */
    size_t (*format_line)(void *state, const void *rec, char *buf, size_t size);
    /* check_repeat: whether rec may stand for `repeat` (>= 2) identical cycles, as a text
     * line's `repeat=N` makes it (the generic reader asks after parse_line; a dialect's
     * decode checks the binary form's counts itself, and should refuse the same records).
     * 0, or -1 with err filled (`where` is "file:line").  NULL: every record may repeat. */
    int (*check_repeat)(const void *rec, uint64_t repeat, const char *where, pmu_err *err);

    /* ---- the binary form ----
     * encode: one record standing for `repeat` (>= 1) identical cycles, into out
     * (max_encoded bytes).  Updates the state; returns the length.
     * decode: the next record from get(ctx): 1 = a record (rec and *repeat >= 1
     * filled; a valid record: decode validates, as parse_line does, so that a dialect
     * can check what its binary form does not already rule out while it decodes), 0 =
     * the data ended cleanly before its first byte,
     * -1 = error (`where` is "file:record N"). */
    size_t max_encoded;
    size_t (*encode)(void *state, const void *rec, uint64_t repeat, uint8_t *out);
    int (*decode)(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
                  uint64_t *repeat, pmu_err *err);

    /* ---- the generator (NULL when the dialect has none) ----
     * gen_create: NULL with err filled on a bad option or out of memory (the generic
     * pmu_gen_create has checked the mode and that every hot count has its array).
     * gen_next: the next record, 1; the generic code counts the records.
     * gen_nfuncs/gen_func: the workload's functions sorted by start address
     * (include/stream/pmu_stream.h, pmu_gen_func). */
    void *(*gen_create)(const pmu_gen_opts *o, pmu_err *err);
    int (*gen_next)(void *gen, void *rec);
    unsigned (*gen_nfuncs)(const void *gen);
    int (*gen_func)(const void *gen, unsigned i, uint64_t *start, uint64_t *end,
                    const char **name);
    void (*gen_destroy)(void *gen);

    /* ---- the timing model of real programs (NULL when the dialect has none) ----
     * Turns a program's executed instructions, recorded under QEMU, into records
     * (include/stream/pmu_timing.h; `pmusim record`, docs/real-programs.md). */
    const struct pmu_timing_ops *timing;
};

/* A new coding state of dialect d (zeroed memory given to d->state_init), to free();
 * NULL when out of memory. */
void *pmu_dialect_state_new(const pmu_dialect *d);

/* For dialects: fills err with "where: " and the formatted text (where may be NULL or
 * empty) and code PMU_E_INPUT.  Returns -1. */
int pmu_dialect_errf(pmu_err *err, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* For text dialects: the number in s[0..n) of field `key`, at column `column` of the line
 * at `where` (pmu_parse_u64n's forms, within [min, max]).  0 with *out set, or -1 with err
 * headed "where:column: field 'key'"; the heading is formatted only for a number that is
 * refused, so that a valid line costs no formatting. */
int pmu_dialect_field_u64(const char *where, unsigned column, const char *key, const char *s,
                          size_t n, uint64_t min, uint64_t max, uint64_t *out, pmu_err *err);

#ifdef __cplusplus
}
#endif
#endif
