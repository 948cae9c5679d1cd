/*
 * messages.c - error messages of the stream library: "where: what", with the bytes of
 * file names escaped so that a message never prints raw control bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_num.h"
#include "stream_internal.h"

char *stream_escaped_name(const char *s)
{
    size_t n = strlen(s), size = 4 * n + 5; /* each byte at most \xHH, and "..." */
    char *buf = malloc(size);
    if (buf)
        pmu_escape(s, n, buf, size);
    return buf;
}

static int vwhere_errf(pmu_err *err, int code, const char *where, const char *fmt, va_list ap)
{
    if (!err)
        return -1;
    err->code = code;
    size_t n = 0;
    if (where && *where) {
        int k = snprintf(err->msg, sizeof err->msg, "%s: ", where);
        n = k < 0 ? 0 : (size_t)k >= sizeof err->msg ? sizeof err->msg - 1 : (size_t)k;
    }
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    pmu_err_printable(err);
    return -1;
}

int stream_errf(pmu_err *err, int code, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwhere_errf(err, code, where, fmt, ap);
    va_end(ap);
    return -1;
}

int pmu_dialect_errf(pmu_err *err, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwhere_errf(err, PMU_E_INPUT, where, fmt, ap);
    va_end(ap);
    return -1;
}

int pmu_dialect_field_u64(const char *where, unsigned column, const char *key, const char *s,
                          size_t n, uint64_t min, uint64_t max, uint64_t *out, pmu_err *err)
{
    pmu_err refused;
    if (pmu_parse_u64n(s, n, min, max, "", out, &refused) == 0)
        return 0;
    char what[700];
    snprintf(what, sizeof what, "%s:%u: field '%s'", where, column, key);
    return pmu_parse_u64n(s, n, min, max, what, out, err);
}
