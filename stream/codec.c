/* codec.c - the messages of the dialects' binary decoding (include/pmu_stream_codec.h). */
#include "pmu_stream_codec.h"

#include <stdarg.h>

int pmu_window_getc(void *ctx)
{
    pmu_byte_window *w = ctx;
    if (w->p < w->end || (w->refill && w->refill(w) && w->p < w->end))
        return *w->p++;
    return -1;
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
