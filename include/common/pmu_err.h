/*
 * common/pmu_err.h - the one error type of every pmusim library.
 *
 * A function that can fail fills a pmu_err and returns non-zero (or NULL); it never
 * prints and never exits.  The message names where the bad input is ("file:line:
 * field: expected ..., found ...") and the code says what kind of failure it was, so
 * that a command can choose its exit status without parsing text.
 */
#ifndef PMU_ERR_H
#define PMU_ERR_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pmu_err_code {
    PMU_OK = 0,
    PMU_E_INPUT = 1,   /* bad input: a stream line, a config line, an argument, an event name */
    PMU_E_IO = 2,      /* a file could not be read or written */
    PMU_E_NOMEM = 3,   /* out of memory, or an input over its size limit */
    PMU_E_UNSUPPORTED = 4, /* valid, but not built or not modelled (e.g. no RTL variant) */
    PMU_E_INTERNAL = 5 /* an invariant broke: a bug */
} pmu_err_code;

typedef struct pmu_err {
    int code;      /* a pmu_err_code; a library with finer codes of its own (the event
                      library's ita_evlib_err) keeps them here, PMU_OK (0) meaning success */
    char msg[512]; /* one line, no trailing newline */
} pmu_err;

/* Escapes the control bytes of err->msg in place (\t, \n, \r, \xHH; cut to fit), so that a
 * message quoting bad input stays one printable line whatever the input held. */
static inline void pmu_err_printable(pmu_err *err)
{
    if (!err)
        return;
    char out[sizeof err->msg];
    size_t o = 0;
    for (size_t i = 0; i < sizeof err->msg && err->msg[i]; i++) {
        unsigned char c = (unsigned char)err->msg[i];
        char esc[8] = {(char)c, 0};
        if (c == '\t' || c == '\n' || c == '\r')
            snprintf(esc, sizeof esc, "\\%c", c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
        else if (c < 0x20 || c == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", c);
        size_t k = strlen(esc);
        if (o + k >= sizeof out)
            break;
        memcpy(out + o, esc, k);
        o += k;
    }
    out[o] = '\0';
    memcpy(err->msg, out, o + 1);
}

/* Fills err (when not NULL) and returns -1, so that `return pmu_errf(...)` reads well.  The
 * message is made printable (pmu_err_printable): callers quote input as it came. */
static inline int pmu_verrf(pmu_err *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        pmu_err_printable(err);
    }
    return -1;
}
static inline int pmu_errf(pmu_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int pmu_errf(pmu_err *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pmu_verrf(err, code, fmt, ap);
    va_end(ap);
    return -1;
}
static inline void pmu_err_clear(pmu_err *err)
{
    if (err) {
        err->code = PMU_OK;
        err->msg[0] = '\0';
    }
}

#ifdef __cplusplus
}
#endif
#endif
