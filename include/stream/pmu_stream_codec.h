/*
 * stream/pmu_stream_codec.h - the pieces every dialect's binary form is built from
 * (docs/ita-stream-format.md, "Records"): LEB128 varints, zigzag deltas, and a decoder that
 * reads a record's bytes one at a time and names the field in every message (truncated
 * data, an over-long varint, a value above its field's maximum).  One implementation
 * (stream/codec.c), so that the dialects read and complain alike.  And the text form's
 * output buffer, that every dialect's format() fills token by token, and the tokeniser
 * and field readers every dialect's parse_line() is built from (stream/text_fields.c).
 */
#ifndef PMU_STREAM_CODEC_H
#define PMU_STREAM_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A signed difference (two's complement) as an unsigned number small for small |d|. */
static inline uint64_t pmu_zigzag(uint64_t d) { return (d << 1) ^ (0 - (d >> 63)); }
static inline uint64_t pmu_unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1u)); }

/* v as an LEB128 varint at p (at most 10 bytes); returns the bytes written. */
static inline size_t pmu_put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* A record being decoded (the arguments of pmu_dialect.decode). */
typedef struct pmu_decoder {
    pmu_getc_fn get;
    void *ctx;
    const char *where;
    pmu_err *err;
    unsigned nbytes;      /* bytes of this record consumed so far */
    unsigned slot;        /* when not 0, messages say the data ended in this slot */
    pmu_byte_window *win; /* ctx, when get is pmu_window_getc: read in place */
} pmu_decoder;

/* The decoder of decode()'s arguments. */
static inline pmu_decoder pmu_decoder_of(pmu_getc_fn get, void *ctx, const char *where, pmu_err *err)
{
    pmu_decoder d = {get, ctx, where, err, 0, 0, get == pmu_window_getc ? (pmu_byte_window *)ctx : NULL};
    return d;
}

/* The messages (stream/codec.c): -1 with err filled. */
int pmu_decode_truncated(pmu_decoder *d, const char *field);
int pmu_decode_too_long(pmu_decoder *d, const char *field);
int pmu_decode_too_big(pmu_decoder *d, const char *field, uint64_t v, uint64_t max);
/* 0 when byte has no bit of the reserved `mask` set, else -1 with err filled. */
int pmu_decode_reserved(pmu_decoder *d, const char *field, uint8_t byte, uint8_t mask);

/* The start of decode(): reads the record's first byte (the head) through get.  1 with *d
 * the decoder of the record (that byte counted) and *head filled; 0 at the stream's end. */
static inline int pmu_decode_head(pmu_getc_fn get, void *ctx, const char *where, pmu_err *err,
                                  pmu_decoder *d, uint8_t *head)
{
    const int first = get(ctx);
    if (first < 0)
        return 0;
    *d = pmu_decoder_of(get, ctx, where, err);
    d->nbytes = 1;
    *head = (uint8_t)first;
    return 1;
}

/* A pc against its prediction, both 4-byte aligned, as the zigzag of the difference in
 * instructions (the shift is arithmetic on the two's-complement difference); decoded as
 * pred + (pmu_unzigzag(z) << 2). */
static inline uint64_t pmu_zigzag_pc4(uint64_t pc, uint64_t pred)
{
    const uint64_t d = pc - pred;
    return pmu_zigzag((d >> 2) | (0 - (d >> 63)) << 62);
}

/* The slow paths: the next byte through get() or a refill, a varint that may cross the
 * window's end (stream/codec.c). */
int pmu_decode_byte_slow(pmu_decoder *d, const char *field, uint8_t *out);
int pmu_decode_varint_slow(pmu_decoder *d, const char *field, uint64_t max, uint64_t *out);

/* The next byte of field `field`: 0, or -1 with err filled (truncated record).  Inline:
 * decoding is on the per-record path of every run from a binary stream, and most bytes
 * are read straight from the window. */
static inline int pmu_decode_byte(pmu_decoder *d, const char *field, uint8_t *out)
{
    pmu_byte_window *w = d->win;
    if (__builtin_expect(w && w->p < w->end, 1)) {
        *out = *w->p++;
        d->nbytes++;
        return 0;
    }
    return pmu_decode_byte_slow(d, field, out);
}

/* The varint at *pp, read in place: the caller knows that *pp holds at least 10 bytes (the
 * longest varint), so no byte is tested against an end.  0 with *pp past it, or -1 when it
 * is longer than 64 bits (*pp unchanged; the caller reports it).  Most varints of a record
 * are one byte: that case is tested first. */
static inline int pmu_varint_in_place(const uint8_t **pp, uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = p[0];
    if (__builtin_expect(v < 0x80u, 1)) {
        *pp = p + 1;
        *out = v;
        return 0;
    }
    v &= 0x7fu;
    for (unsigned n = 1; n < 10; n++) {
        const uint8_t b = p[n];
        v |= (uint64_t)(b & 0x7fu) << (7 * n);
        if (!(b & 0x80u)) {
            if (n == 9 && b > 1) /* the 10th byte holds bit 63 */
                return -1;
            *pp = p + n + 1;
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* A varint of at most `max`: 0, or -1 with err filled (*out 0).  When the window holds
 * the longest varint (10 bytes), it is read there without a test per byte. */
static inline int pmu_decode_varint(pmu_decoder *d, const char *field, uint64_t max, uint64_t *out)
{
    pmu_byte_window *w = d->win;
    if (__builtin_expect(w && w->end - w->p >= 10, 1)) {
        const uint8_t *p = w->p;
        uint64_t v;
        /* an error is the slow path's to report */
        if (pmu_varint_in_place(&p, &v) == 0 && v <= max) {
            d->nbytes += (unsigned)(p - w->p);
            w->p = p;
            *out = v;
            return 0;
        }
    }
    return pmu_decode_varint_slow(d, field, max, out);
}

/* ---- the text form's output --------------------------------------------------- */
/* A record's text being formatted: it is cut to size-1 characters and NUL-terminated;
 * len counts what the full text needs (it may exceed size-1: the caller's test). */
typedef struct pmu_outbuf {
    char *buf;
    size_t size, len;
} pmu_outbuf;

/* Appends one token (at most 95 characters: a key=value of a record). */
void pmu_out_add(pmu_outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "KEY=NAME" with names[v], or "KEY=v" for a value no name covers (only an invalid
 * record has one), after a space unless it is the first token. */
void pmu_out_name(pmu_outbuf *o, const char *key, unsigned v, const char *const *names, unsigned n);
/* The space before every token but the first. */
#define PMU_OUT_SEP(o) ((o)->len ? " " : "")

/* ---- the text form's input (stream/text_fields.c) ----------------------------- */
/* A line being parsed: messages say "WHERE:COLUMN: field 'KEY': ...", the column that of
 * the byte they point at. */
typedef struct pmu_line {
    const char *line;  /* its first byte (column 1) */
    const char *where; /* "file:line" */
    pmu_err *err;
} pmu_line;

/* One token of a line: KEY or KEY=VALUE. */
typedef struct pmu_line_token {
    const char *tok; /* its first byte */
    size_t n;        /* its length */
    const char *eq;  /* its first '=', or NULL (a bare key: val is its end, vn 0) */
    size_t kn;       /* the key's length */
    const char *val;
    size_t vn;
} pmu_line_token;

/* The message "WHERE:COLUMN: field 'FIELD': WHAT" about the byte at `at` (the field's name
 * cut to 40 characters).  Returns -1. */
int pmu_line_err(const pmu_line *l, const char *at, const char *field, size_t field_len,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The next token from *p (before end; spaces and tabs separate tokens): 1 with *t filled
 * and *p past it, 0 when only blanks are left, -1 with err filled at a control or
 * non-ASCII byte.  `stop`, when not NUL, is a byte that ends a token and is a token of
 * its own (the Itanium form's '|'). */
int pmu_line_next(const pmu_line *l, const char **p, const char *end, char stop,
                  pmu_line_token *t);

/* s[0..n) is the word w. */
static inline int pmu_word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* The index of s[0..n) in names[first..count), or -1. */
int pmu_word_find(const char *s, size_t n, const char *const *names, unsigned first,
                  unsigned count);

/* Bit k of *seen is set (the token's key given twice on this line): -1 with err filled;
 * else sets it, 0. */
int pmu_line_once(const pmu_line *l, const pmu_line_token *t, uint64_t *seen, unsigned k);

/* A flag (`flag` 1) takes no value, any other key (`flag` 0) needs one: 0, or -1 with err
 * filled naming key. */
int pmu_line_flag_or_value(const pmu_line *l, const pmu_line_token *t, const char *key,
                           int flag);

/* The number (include/common/pmu_num.h's syntax) in val[0..vn) of field key, within [lo, hi]:
 * 0, or -1 with err filled ("expected EXPECT, found ..."). */
int pmu_line_num(const pmu_line *l, const char *key, const char *val, size_t vn, uint64_t lo,
                 uint64_t hi, const char *expect, uint64_t *out);

/* The value val[0..vn) of field key as one of names[first..count): 0 with *out its index,
 * or -1 with err filled ("expected EXPECT, found ..."). */
int pmu_line_enum(const pmu_line *l, const char *key, const char *val, size_t vn,
                  const char *const *names, unsigned first, unsigned count, const char *expect,
                  unsigned *out);

#ifdef __cplusplus
}
#endif
#endif
