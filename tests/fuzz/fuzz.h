/*
 * fuzz.h - what the fuzz harnesses of tests/fuzz/ share (docs/fuzzing.md).
 *
 * Each harness is one libFuzzer entry point, LLVMFuzzerTestOneInput, built twice: with
 * clang -fsanitize=fuzzer for `make fuzz`, and with gcc and replay.c (our corpus runner) for
 * `make test`, which replays the harness's corpus and reproducers.  A harness asserts the
 * properties the project promises of a parser -- a valid result, or an error that says
 * where and what -- and a broken property aborts: libFuzzer saves the input as a crash,
 * replay.c names the file.
 */
#ifndef PMU_FUZZ_H
#define PMU_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property that must hold: otherwise the message on stderr and abort(), which both
 * libFuzzer and replay.c report as a failure of this input. */
#define FUZZ_CHECK(cond, ...)                                                            \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: property broken: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* The contract of every pmu_err message (include/common/pmu_err.h, SPEC "bad input gets a clear
 * error that names where and what"): a code, one non-empty line without control bytes, that
 * starts with `where` (the input's name, then ':' and the line or record) when where is not
 * NULL. */
static inline void fuzz_check_err(const pmu_err *err, const char *where)
{
    FUZZ_CHECK(err->code != PMU_OK, "an error without a code: '%s'", err->msg);
    size_t n = 0; /* strnlen is POSIX, not C11 */
    while (n < sizeof err->msg && err->msg[n])
        n++;
    FUZZ_CHECK(n > 0 && n < sizeof err->msg, "an empty or unterminated message");
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK((unsigned char)err->msg[i] >= 0x20 && err->msg[i] != 0x7f,
                   "control byte 0x%02x at %zu of the message '%s'", (unsigned char)err->msg[i], i,
                   err->msg);
    if (where) {
        size_t w = strlen(where);
        FUZZ_CHECK(strncmp(err->msg, where, w) == 0 && err->msg[w] == ':',
                   "the message does not start with '%s:': '%s'", where, err->msg);
    }
}

/* The same for a message that must also name the line ("NAME:LINE:"). */
static inline void fuzz_check_err_line(const pmu_err *err, const char *name)
{
    fuzz_check_err(err, name);
    const char *p = err->msg + strlen(name) + 1;
    FUZZ_CHECK(*p >= '1' && *p <= '9', "the message does not name a line after '%s:': '%s'", name,
               err->msg);
}

/* data as a NUL-terminated string (a copy; free it). */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
