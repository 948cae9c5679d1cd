/*
 * common/pmu_num.h - the one integer syntax of pmusim: command-line arguments, stream fields,
 * configuration values and event-string modifiers all go through pmu_parse_u64().
 *
 *   decimal   0 | [1-9][0-9]*        ("010" is refused: neither octal nor decimal)
 *   hex       0x[0-9a-fA-F]+ or 0X...
 *
 * Refused, each with its own message: an empty value, leading or trailing white space,
 * a sign, any other character, a value that does not fit in 64 bits, and a value
 * outside [min, max].  The text of the value is quoted in the message with control and
 * non-ASCII bytes escaped, so a message never prints raw bytes.
 */
#ifndef PMU_NUM_H
#define PMU_NUM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes s[0..n) into buf as printable ASCII: \t \r \n \\ and \xHH for the rest of the
 * control and non-ASCII bytes; truncated with "..." to fit.  Returns buf. */
static inline const char *pmu_escape(const char *s, size_t n, char *buf, size_t size)
{
    size_t o = 0;
    if (size == 0)
        return buf;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char tmp[5];
        size_t k;
        if (c == '\t') { tmp[0] = '\\'; tmp[1] = 't'; k = 2; }
        else if (c == '\n') { tmp[0] = '\\'; tmp[1] = 'n'; k = 2; }
        else if (c == '\r') { tmp[0] = '\\'; tmp[1] = 'r'; k = 2; }
        else if (c == '\\') { tmp[0] = '\\'; tmp[1] = '\\'; k = 2; }
        else if (c < 0x20 || c >= 0x7f) {
            static const char hex[] = "0123456789abcdef";
            tmp[0] = '\\'; tmp[1] = 'x'; tmp[2] = hex[c >> 4]; tmp[3] = hex[c & 15]; k = 4;
        } else { tmp[0] = (char)c; k = 1; }
        if (o + k + 4 > size) { /* room for "..." and the NUL */
            if (o + 4 <= size) { buf[o++] = '.'; buf[o++] = '.'; buf[o++] = '.'; }
            break;
        }
        for (size_t j = 0; j < k; j++)
            buf[o++] = tmp[j];
    }
    buf[o] = '\0';
    return buf;
}

/* Parses s[0..n) (n = (size_t)-1: up to the NUL) as an unsigned integer in [min, max].
 * `what` names the field or option in the message ("--cycles", "trace.txt:12: ip").
 * Returns 0, or -1 with err filled ("WHAT: expected ..., found '...'"). */
static inline int pmu_parse_u64n(const char *s, size_t n, uint64_t min, uint64_t max,
                                 const char *what, uint64_t *out, pmu_err *err)
{
    char shown[96];
    if (n == (size_t)-1) {
        n = 0;
        while (s[n])
            n++;
    }
    const char *why = NULL;
    uint64_t v = 0;
    size_t i = 0;
    unsigned base = 10;
    if (n == 0) {
        why = "a number, found nothing";
    } else if (s[0] == '+' || s[0] == '-') {
        why = "an unsigned number without a sign";
    } else if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t' ||
               s[0] == '\n' || s[0] == '\r' || s[n - 1] == '\n' || s[n - 1] == '\r') {
        why = "a number without surrounding white space";
    } else {
        if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            base = 16;
            i = 2;
        } else if (n > 1 && s[0] == '0') {
            why = "a decimal number without leading zeros, or 0x hex";
        } else if (n == 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            why = "hex digits after 0x";
        }
        for (; !why && i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            unsigned d;
            if (c >= '0' && c <= '9') d = c - '0';
            else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
            else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
            else { why = base == 16 ? "hex digits after 0x" : "a decimal number or 0x hex"; break; }
            if (v > (UINT64_MAX - d) / base) { why = "a number that fits in 64 bits"; break; }
            v = v * base + d;
        }
    }
    if (!why && (v < min || v > max)) {
        pmu_escape(s, n, shown, sizeof shown);
        if (max == UINT64_MAX)
            return pmu_errf(err, PMU_E_INPUT, "%s: expected a number >= %llu, found '%s'", what,
                            (unsigned long long)min, shown);
        return pmu_errf(err, PMU_E_INPUT, "%s: expected a number in %llu..%llu (0x%llx), found '%s'",
                        what, (unsigned long long)min, (unsigned long long)max,
                        (unsigned long long)max, shown);
    }
    if (why) {
        pmu_escape(s, n, shown, sizeof shown);
        return pmu_errf(err, PMU_E_INPUT, "%s: expected %s, found '%s'", what, why, shown);
    }
    *out = v;
    return 0;
}

static inline int pmu_parse_u64(const char *s, uint64_t min, uint64_t max, const char *what,
                                uint64_t *out, pmu_err *err)
{
    return pmu_parse_u64n(s, (size_t)-1, min, max, what, out, err);
}

#ifdef __cplusplus
}
#endif
#endif
