/*
 * text_line.c - what every dialect's text lines share (docs/streams.md, "The text form"):
 * `#` comments, blank lines, and `repeat=N`, the number of cycles a line stands for.
 * The dialect's parse_line sees the rest, with the columns of the file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"
#include "stream_internal.h"

static const char repeat_key[] = "repeat";
#define REPEAT_KEY_LEN (sizeof repeat_key - 1)

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

/* Parses the repeat word at line[at..at+n) ("repeat" or "repeat=..."). */
static int parse_repeat(const char *line, size_t at, size_t n, const char *where,
                        uint64_t *repeat, pmu_err *err)
{
    char what[600];
    snprintf(what, sizeof what, "%s:%zu: field 'repeat'", where, at + 1);
    if (n == REPEAT_KEY_LEN)
        return stream_errf(err, PMU_E_INPUT, NULL, "%s: expected repeat=N", what);
    uint64_t v = 0;
    const char *val = line + at + REPEAT_KEY_LEN + 1;
    size_t vn = n - REPEAT_KEY_LEN - 1;
    if (pmu_parse_u64n(val, vn, 0, UINT64_MAX, what, &v, err))
        return -1;
    if (v < 1 || v > PMU_STREAM_MAX_REPEAT) {
        char shown[96];
        pmu_escape(val, vn, shown, sizeof shown);
        return stream_errf(err, PMU_E_INPUT, NULL,
                           "%s: expected a count in 1..%u (a record stands for at most %u "
                           "cycles), found '%s'",
                           what, PMU_STREAM_MAX_REPEAT, PMU_STREAM_MAX_REPEAT, shown);
    }
    *repeat = v;
    return 0;
}

int text_line_prepare(char *line, size_t *len, const char *where, uint64_t *repeat,
                      pmu_err *err)
{
    size_t n = *len;
    const char *hash = memchr(line, '#', n);
    if (hash)
        n = (size_t)(hash - line);
    size_t p = 0;
    while (p < n && is_blank(line[p]))
        p++;
    if (p == n)
        return 0;
    *repeat = 1;
    int seen = 0;
    while (p < n) {
        if (is_blank(line[p])) {
            p++;
            continue;
        }
        size_t at = p;
        while (p < n && !is_blank(line[p]))
            p++;
        size_t wn = p - at;
        if (wn < REPEAT_KEY_LEN || memcmp(line + at, repeat_key, REPEAT_KEY_LEN) != 0 ||
            (wn > REPEAT_KEY_LEN && line[at + REPEAT_KEY_LEN] != '='))
            continue;
        if (seen)
            return stream_errf(err, PMU_E_INPUT, NULL,
                               "%s:%zu: field 'repeat': given twice on this line", where, at + 1);
        if (parse_repeat(line, at, wn, where, repeat, err))
            return -1;
        seen = 1;
        memset(line + at, ' ', wn);
    }
    *len = n;
    return 1;
}

size_t text_repeat_prefix(uint64_t repeat, char *buf, size_t size)
{
    if (repeat <= 1) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    int k = snprintf(buf, size, "%s=%" PRIu64 " ", repeat_key, repeat);
    return k < 0 ? 0 : (size_t)k;
}
