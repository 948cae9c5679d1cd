/*
 * fuzz_stream.h - what the stream harnesses share (docs/fuzzing.md): every registered record
 * dialect, a reader loop over an input, and the codec check that a record comes back equal
 * through each form a stream can hold it in.
 */
#ifndef PMU_FUZZ_STREAM_H
#define PMU_FUZZ_STREAM_H

#include "fuzz.h"
#include "stream/pmu_family_dialects.h"
#include "stream/pmu_stream.h"
#include "stream/pmu_stream_codec.h"

/* Every input is read with each registered family's dialect (include/stream/pmu_family_dialects.h):
 * one corpus serves them all, and a text meant for one family exercises the others' error
 * paths. */
#define FUZZ_NDIALECTS PMU_NFAMILY_DIALECTS

/* Cycles read from one input at most: `repeat=100000000` must not make one input take
 * seconds (the count itself is checked by the reader before the first cycle). */
#define FUZZ_MAX_CYCLES 4096u

/* A stream reader's error: where (the input's name, then the line or record, or the name
 * alone for a header), the field, and the same error again on the next call. */
static inline void fuzz_check_stream_err(pmu_stream_reader *r, void *rec, const pmu_err *err,
                                         const char *name)
{
    fuzz_check_err(err, name);
    FUZZ_CHECK(err->code == PMU_E_INPUT || err->code == PMU_E_NOMEM,
               "code %d for bad input: '%s'", err->code, err->msg);
    FUZZ_CHECK(err->code != PMU_E_INPUT || strstr(err->msg, "field '") != NULL,
               "the message names no field: '%s'", err->msg);
    pmu_err again;
    pmu_err_clear(&again);
    FUZZ_CHECK(pmu_stream_next(r, rec, &again) == -1 && strcmp(again.msg, err->msg) == 0,
               "the next call does not repeat the error '%s' (got '%s')", err->msg, again.msg);
}

/* The coding states of one stream written and read back in both forms: the binary encoder
 * and decoder, the text writer and reader.  (pmu_dialect.format's self-contained line is
 * for messages: a dialect that tracks instructions across records, as the 21264's does,
 * cannot read it without the records before it.) */
typedef struct fuzz_codec {
    const pmu_dialect *d;
    void *enc, *dec, *fmt, *parse;
    void *back;     /* a record read back */
    void *canon;    /* back made canonical */
    uint8_t *bytes; /* one encoded record */
    char *line;
    size_t line_cap;
} fuzz_codec;

static inline void *fuzz_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

/* The codec of dialect d, made once and set to the initial state of a stream for each
 * input (fuzz_codec_reset).  Clearing states that stay mapped is cheaper than a new 500 KB
 * Itanium state for each input, four times: ASan poisons the shadow of so large a block
 * when it is allocated and again when it is freed, and its pages fault anew. */
static inline void fuzz_codec_init(fuzz_codec *c, const pmu_dialect *d)
{
    c->d = d;
    c->enc = fuzz_alloc(d->state_size);
    c->dec = fuzz_alloc(d->state_size);
    c->fmt = fuzz_alloc(d->state_size);
    c->parse = fuzz_alloc(d->state_size);
    c->back = fuzz_alloc(d->record_size);
    c->canon = fuzz_alloc(d->record_size);
    c->bytes = fuzz_alloc(d->max_encoded);
    c->line_cap = 256;
    c->line = fuzz_alloc(c->line_cap);
}

/* Each state as a new stream's: zeroed and given to state_init, as pmu_dialect_state_new
 * makes one (include/common/pmu_dialect.h). */
static inline void fuzz_codec_reset(fuzz_codec *c)
{
    void *const states[] = {c->enc, c->dec, c->fmt, c->parse};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        memset(states[i], 0, c->d->state_size);
        c->d->state_init(states[i]);
    }
}

/* The text of rec by fmt (format_line with state, or the self-contained format when state
 * is NULL) into c->line, grown until it fits; its length. */
static inline size_t fuzz_codec_text(fuzz_codec *c, void *state, const void *rec)
{
    for (;;) {
        size_t need = state ? c->d->format_line(state, rec, c->line, c->line_cap)
                            : c->d->format(rec, c->line, c->line_cap);
        if (need < c->line_cap)
            return need;
        free(c->line);
        c->line_cap = need + 64;
        c->line = fuzz_alloc(c->line_cap);
    }
}

/* rec (a valid record, `repeat` identical cycles, already canonical) written after the
 * records before it and read back, in the binary form and in the text form: each must give
 * rec again (and the binary form its repeat count).  `where` says where rec came from. */
static inline void fuzz_codec_check(fuzz_codec *c, const void *rec, uint64_t repeat, const char *where)
{
    const pmu_dialect *d = c->d;
    pmu_err err;
    pmu_err_clear(&err);

    size_t n = d->encode(c->enc, rec, repeat, c->bytes);
    FUZZ_CHECK(n > 0 && n <= d->max_encoded, "%s (%s): encoded in %zu bytes, at most %zu", where,
               d->name, n, d->max_encoded);
    pmu_byte_window w = {c->bytes, c->bytes + n, NULL};
    uint64_t rep = 0;
    int rc = d->decode(c->dec, pmu_window_getc, &w, "fuzz:binary", c->back, &rep, &err);
    FUZZ_CHECK(rc == 1, "%s (%s): its binary form does not decode: %s", where, d->name, err.msg);
    FUZZ_CHECK(w.p == w.end, "%s (%s): decoding read %td of %zu bytes", where, d->name,
               w.p - c->bytes, n);
    FUZZ_CHECK(rep == repeat, "%s (%s): repeat %llu came back as %llu", where, d->name,
               (unsigned long long)repeat, (unsigned long long)rep);
    d->canon(c->back, c->canon);
    if (!d->equal(c->canon, rec)) {
        size_t len = fuzz_codec_text(c, NULL, rec);
        fprintf(stderr, "record: %.*s\n", (int)len, c->line);
        len = fuzz_codec_text(c, NULL, c->back);
        fprintf(stderr, "back:   %.*s\n", (int)len, c->line);
        FUZZ_CHECK(0, "%s (%s): the record differs after the binary form", where, d->name);
    }

    size_t len = fuzz_codec_text(c, c->fmt, rec);
    FUZZ_CHECK(len > 0 && !memchr(c->line, '\n', len) && !memchr(c->line, '#', len),
               "%s (%s): text line '%.*s' is empty or has a line end or comment", where, d->name,
               (int)len, c->line);
    rc = d->parse_line(c->parse, c->line, len, "fuzz:text", c->back, &err);
    FUZZ_CHECK(rc == 0, "%s (%s): its text line '%.*s' does not parse: %s", where, d->name,
               (int)len, c->line, err.msg);
    d->canon(c->back, c->canon);
    FUZZ_CHECK(d->equal(c->canon, rec), "%s (%s): the record differs after its text line '%.*s'",
               where, d->name, (int)len, c->line);
}

/* Reads data as the stream `name` with dialect d, expecting the form `form`: each record
 * valid and said to come from `name:...`, the end a clean end or an error by the rules
 * above (with a line number in the text form).  With a codec, each run of identical
 * records (as the writer merges them) goes through fuzz_codec_check. */
static inline void fuzz_read_stream(const pmu_dialect *d, const uint8_t *data, size_t size,
                                    const char *name, pmu_stream_form form, fuzz_codec *c)
{
    pmu_err err;
    pmu_err_clear(&err);
    pmu_stream_reader *r = pmu_stream_open_mem(d, data, size, name, &err);
    if (!r) {
        fuzz_check_err(&err, name);
        FUZZ_CHECK(strstr(err.msg, "field '") != NULL, "the message names no field: '%s'", err.msg);
        return;
    }
    FUZZ_CHECK(pmu_stream_reader_form(r) == form, "%s read in the other form", name);
    void *rec = fuzz_alloc(d->record_size);
    void *cur = fuzz_alloc(d->record_size), *pend = fuzz_alloc(d->record_size);
    char pend_where[64] = "";
    uint64_t pend_n = 0;
    size_t nlen = strlen(name);
    for (unsigned cycles = 0; cycles < FUZZ_MAX_CYCLES; cycles++) {
        const void *view;
        int rc = pmu_stream_view(r, &view, 1, &err); /* a cycle at a time */
        if (rc == 0) {
            FUZZ_CHECK(pmu_stream_next(r, rec, &err) == 0, "%s (%s): data after the end", name, d->name);
            break;
        }
        if (rc < 0) {
            if (form == PMU_STREAM_TEXT)
                fuzz_check_err_line(&err, name);
            fuzz_check_stream_err(r, rec, &err, name);
            break;
        }
        const char *where = pmu_stream_where(r);
        FUZZ_CHECK(strncmp(where, name, nlen) == 0 && where[nlen] == ':', "record from '%s'", where);
        pmu_err verr;
        pmu_err_clear(&verr);
        FUZZ_CHECK(d->validate(view, where, &verr) == 0, "%s (%s): a record the reader returned is "
                   "invalid: %s", where, d->name, verr.msg);
        if (!c)
            continue;
        d->canon(view, cur);
        if (pend_n && pend_n < PMU_STREAM_MAX_REPEAT && d->equal(cur, pend)) {
            pend_n++;
            continue;
        }
        if (pend_n)
            fuzz_codec_check(c, pend, pend_n, pend_where);
        memcpy(pend, cur, d->record_size);
        pend_n = 1;
        snprintf(pend_where, sizeof pend_where, "%s", where);
    }
    if (pend_n)
        fuzz_codec_check(c, pend, pend_n, pend_where);
    free(rec);
    free(cur);
    free(pend);
    pmu_stream_close(r);
}

/* fuzz_read_stream with every dialect; with_codec: each with a codec of its own, in a new
 * stream's state. */
static inline void fuzz_read_all(const uint8_t *data, size_t size, const char *name,
                                 pmu_stream_form form, int with_codec)
{
    static fuzz_codec codec[FUZZ_NDIALECTS]; /* made at the first input that needs them */
    for (size_t i = 0; i < FUZZ_NDIALECTS; i++) {
        fuzz_codec *c = NULL;
        if (with_codec) {
            c = &codec[i];
            if (!c->d)
                fuzz_codec_init(c, *pmu_family_dialects[i]);
            fuzz_codec_reset(c);
        }
        fuzz_read_stream(*pmu_family_dialects[i], data, size, name, form, c);
    }
}

#endif
