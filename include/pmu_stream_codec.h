/*
 * pmu_stream_codec.h - the pieces every dialect's binary form is built from
 * (docs/stream-format.md, "Records"): LEB128 varints, zigzag deltas, and a decoder that
 * reads a record's bytes one at a time and names the field in every message (truncated
 * data, an over-long varint, a value above its field's maximum).  One implementation
 * (stream/codec.c), so that the dialects read and complain alike.  And the text form's
 * output buffer, that every dialect's format() fills token by token.
 */
#ifndef PMU_STREAM_CODEC_H
#define PMU_STREAM_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmu_dialect.h"

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

#ifdef __cplusplus
}
#endif
#endif
