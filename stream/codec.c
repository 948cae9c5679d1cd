/* codec.c - the dialects' coding states and the messages of their binary decoding
 * (include/stream/pmu_stream_codec.h). */
#include "stream/pmu_stream_codec.h"

#include <stdarg.h>
#include <stdlib.h>

void *pmu_dialect_state_new(const pmu_dialect *d)
{
    /* calloc: fresh pages come zeroed from the system, untouched until a stream uses them */
    void *state = calloc(1, d->state_size);
    if (state)
        d->state_init(state);
    return state;
}

int pmu_window_getc(void *ctx)
{
    pmu_byte_window *w = ctx;
    if (w->p < w->end || (w->refill && w->refill(w) && w->p < w->end))
        return *w->p++;
    return -1;
}

int pmu_decode_byte_slow(pmu_decoder *d, const char *field, uint8_t *out)
{
    int b = d->win ? pmu_window_getc(d->win) : d->get(d->ctx);
    *out = 0;
    if (b < 0)
        return pmu_decode_truncated(d, field);
    d->nbytes++;
    *out = (uint8_t)b;
    return 0;
}

int pmu_decode_varint_slow(pmu_decoder *d, const char *field, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    *out = 0;
    for (unsigned i = 0; i < 10; i++) {
        uint8_t b = 0;
        if (pmu_decode_byte(d, field, &b))
            return -1;
        if (i == 9 && b > 1) /* the 10th byte holds bit 63 and must end the varint */
            return pmu_decode_too_long(d, field);
        v |= (uint64_t)(b & 0x7fu) << (7 * i);
        if (!(b & 0x80u)) {
            if (v > max)
                return pmu_decode_too_big(d, field, v, max);
            *out = v;
            return 0;
        }
    }
    return pmu_decode_too_long(d, field); /* not reached: the 10th byte ends it */
}

int pmu_decode_truncated(pmu_decoder *d, const char *field)
{
    if (d->slot)
        return pmu_dialect_errf(d->err, d->where,
                                "field '%s': truncated record (data ends in slot %u, after %u bytes of "
                                "the record)",
                                field, d->slot, d->nbytes);
    return pmu_dialect_errf(d->err, d->where,
                            "field '%s': truncated record (data ends after %u bytes of the record)", field,
                            d->nbytes);
}

int pmu_decode_too_long(pmu_decoder *d, const char *field)
{
    return pmu_dialect_errf(d->err, d->where, "field '%s': varint longer than 64 bits", field);
}

int pmu_decode_too_big(pmu_decoder *d, const char *field, uint64_t v, uint64_t max)
{
    return pmu_dialect_errf(d->err, d->where, "field '%s': %llu, expected at most %llu", field,
                            (unsigned long long)v, (unsigned long long)max);
}

int pmu_decode_reserved(pmu_decoder *d, const char *field, uint8_t byte, uint8_t mask)
{
    if (byte & mask)
        return pmu_dialect_errf(d->err, d->where, "field '%s': reserved bits set (0x%02x), "
                                "expected 0", field, byte & mask);
    return 0;
}

void pmu_out_add(pmu_outbuf *o, const char *fmt, ...)
{
    char tmp[96];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    for (int i = 0; i < k && i < (int)sizeof tmp - 1; i++, o->len++)
        if (o->len + 1 < o->size)
            o->buf[o->len] = tmp[i];
    if (o->size)
        o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

void pmu_out_name(pmu_outbuf *o, const char *key, unsigned v, const char *const *names, unsigned n)
{
    if (v < n)
        pmu_out_add(o, "%s%s=%s", PMU_OUT_SEP(o), key, names[v]);
    else
        pmu_out_add(o, "%s%s=%u", PMU_OUT_SEP(o), key, v);
}
