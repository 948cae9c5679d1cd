/*
 * text_fields.c - the tokeniser and field readers of every dialect's text form
 * (include/stream/pmu_stream_codec.h): one implementation, so that the dialects split their
 * lines and word their messages alike (docs/ita-stream-format.md, "Lines").
 */
#include <stdarg.h>
#include <stdio.h>

#include "stream/pmu_stream_codec.h"

int pmu_line_err(const pmu_line *l, const char *at, const char *field, size_t field_len,
                 const char *fmt, ...)
{
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pmu_dialect_errf(l->err, NULL, "%s:%u: field '%.*s': %s", l->where,
                            (unsigned)(at - l->line) + 1, (int)(field_len > 40 ? 40 : field_len),
                            field, what);
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

static int not_ascii(unsigned char ch) { return ch < 0x20 || ch >= 0x7f; }

int pmu_line_next(const pmu_line *l, const char **pp, const char *end, char stop,
                  pmu_line_token *t)
{
    const char *p = *pp;
    while (p < end && is_blank(*p))
        p++;
    *pp = p;
    if (p == end)
        return 0;
    const char *tok = p;
    if (stop && *p == stop)
        p++;
    else
        for (; p < end && !is_blank(*p) && !(stop && *p == stop); p++)
            if (not_ascii((unsigned char)*p))
                return pmu_line_err(l, p, "?", 1, "unexpected byte 0x%02x (a text stream is ASCII)",
                                    (unsigned char)*p);
    *pp = p;
    t->tok = tok;
    t->n = (size_t)(p - tok);
    t->eq = memchr(tok, '=', t->n);
    t->kn = t->eq ? (size_t)(t->eq - tok) : t->n;
    t->val = t->eq ? t->eq + 1 : p;
    t->vn = (size_t)(p - t->val);
    return 1;
}

int pmu_word_find(const char *s, size_t n, const char *const *names, unsigned first,
                  unsigned count)
{
    for (unsigned i = first; i < count; i++)
        if (pmu_word_is(s, n, names[i]))
            return (int)i;
    return -1;
}

int pmu_line_once(const pmu_line *l, const pmu_line_token *t, uint64_t *seen, unsigned k)
{
    if (*seen & (1ull << k))
        return pmu_line_err(l, t->tok, t->tok, t->kn, "given twice on this line");
    *seen |= 1ull << k;
    return 0;
}

int pmu_line_flag_or_value(const pmu_line *l, const pmu_line_token *t, const char *key,
                           int flag)
{
    if (flag && t->eq)
        return pmu_line_err(l, t->tok, key, strlen(key), "a flag takes no value: write '%s' alone",
                            key);
    if (!flag && !t->eq)
        return pmu_line_err(l, t->tok, key, strlen(key), "expected %s=value", key);
    return 0;
}

static int expected(const pmu_line *l, const char *key, const char *val, size_t vn,
                    const char *expect)
{
    return pmu_line_err(l, val, key, strlen(key), "expected %s, found '%.*s'", expect,
                        (int)(vn > 40 ? 40 : vn), val);
}

int pmu_line_num(const pmu_line *l, const char *key, const char *val, size_t vn, uint64_t lo,
                 uint64_t hi, const char *expect, uint64_t *out)
{
    uint64_t v = 0;
    if (pmu_dialect_field_u64(l->where, (unsigned)(val - l->line) + 1, key, val, vn, 0,
                              UINT64_MAX, &v, l->err))
        return -1;
    if (v < lo || v > hi)
        return expected(l, key, val, vn, expect);
    *out = v;
    return 0;
}

int pmu_line_enum(const pmu_line *l, const char *key, const char *val, size_t vn,
                  const char *const *names, unsigned first, unsigned count, const char *expect,
                  unsigned *out)
{
    const int i = pmu_word_find(val, vn, names, first, count);
    if (i < 0)
        return expected(l, key, val, vn, expect);
    *out = (unsigned)i;
    return 0;
}
