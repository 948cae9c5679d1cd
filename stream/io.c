/*
 * io.c - stream readers and writers (pmu_stream.h).
 *
 * Readers pull bytes through one buffer, whether the bytes come from a file, a
 * pipe or memory, so the text and binary decoders do not care where they are.
 * The form is detected from the first byte: the binary magic starts with 0x89,
 * which no text stream contains.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

#define READ_CHUNK (1u << 16)

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

struct pmu_stream_reader {
    char *name;
    FILE *f;           /* NULL for memory */
    int own_f;
    uint8_t *chunk;    /* file buffer */
    const uint8_t *data;
    size_t len, pos;
    int io_errno;      /* errno of a failed read, 0 if none */
    pmu_stream_form form;
    int failed;
    pmu_err last_err;  /* repeated by every call after a failure */
    char where[600];

    /* a record standing for several cycles (repeat=N) */
    pmu_cycle cur;
    uint64_t left;

    /* text */
    char *line;
    size_t line_cap;
    uint64_t lineno;
    text_sticky sticky;

    /* binary */
    bin_state *bs;
    uint64_t recno, ncycles, header_count;
};

static int refill(pmu_stream_reader *r)
{
    if (!r->f)
        return 0;
    size_t n = fread(r->chunk, 1, READ_CHUNK, r->f);
    if (n == 0) {
        if (ferror(r->f) && !r->io_errno)
            r->io_errno = errno ? errno : EIO;
        return 0;
    }
    r->data = r->chunk;
    r->len = n;
    r->pos = 0;
    return 1;
}

static int rd_getc(void *ctx)
{
    pmu_stream_reader *r = ctx;
    if (r->pos < r->len || refill(r))
        return r->data[r->pos++];
    return -1;
}

static int fail(pmu_stream_reader *r, pmu_err *err)
{
    r->failed = 1;
    if (err && err != &r->last_err)
        r->last_err = *err;
    return -1;
}

static int io_error(pmu_stream_reader *r, pmu_err *err)
{
    stream_errf(err, r->name, "read error: %s", strerror(r->io_errno));
    return fail(r, err);
}

static int read_header(pmu_stream_reader *r, pmu_err *err)
{
    uint8_t h[BIN_HEADER_LEN];
    for (unsigned i = 0; i < BIN_HEADER_LEN; i++) {
        int b = rd_getc(r);
        if (b < 0) {
            if (r->io_errno)
                return io_error(r, err);
            return stream_errf(err, r->name,
                               "field 'header': truncated (%u of %u header bytes)", i,
                               BIN_HEADER_LEN);
        }
        h[i] = (uint8_t)b;
    }
    if (memcmp(h, BIN_MAGIC, BIN_MAGIC_LEN) != 0)
        return stream_errf(err, r->name,
                           "field 'magic': bad magic, not a pmusim binary stream (expected the "
                           "bytes 89 50 4d 55 43 59 43 0a)");
    uint32_t version = (uint32_t)(bin_get_u64le(h + 8) & 0xffffffffu);
    uint32_t reserved = (uint32_t)(bin_get_u64le(h + 8) >> 32);
    if (version != BIN_VERSION)
        return stream_errf(err, r->name, "field 'version': format version %u, expected %u",
                           version, BIN_VERSION);
    if (reserved != 0)
        return stream_errf(err, r->name, "field 'reserved': 0x%x, expected 0", reserved);
    r->header_count = bin_get_u64le(h + BIN_COUNT_OFFSET);
    r->bs = malloc(sizeof *r->bs);
    if (!r->bs)
        return stream_errf(err, r->name, "out of memory");
    bin_state_init(r->bs);
    return 0;
}

static pmu_stream_reader *reader_new(const char *name, pmu_err *err)
{
    pmu_stream_reader *r = calloc(1, sizeof *r);
    if (r)
        r->name = dup_str(name);
    if (!r || !r->name) {
        free(r);
        stream_errf(err, name, "out of memory");
        return NULL;
    }
    text_sticky_init(&r->sticky);
    snprintf(r->where, sizeof r->where, "%s", name);
    return r;
}

/* Detects the form from the first byte and reads the binary header. */
static pmu_stream_reader *reader_start(pmu_stream_reader *r, pmu_err *err)
{
    int first = rd_getc(r);
    if (first < 0 && r->io_errno) {
        io_error(r, err);
        pmu_stream_close(r);
        return NULL;
    }
    if (first >= 0)
        r->pos--; /* rd_getc just filled the buffer, so the byte is still there */
    if (first == (uint8_t)BIN_MAGIC[0]) {
        r->form = PMU_STREAM_BINARY;
        if (read_header(r, err)) {
            pmu_stream_close(r);
            return NULL;
        }
    } else {
        r->form = PMU_STREAM_TEXT;
        if (first >= 0 && first != '#' && first != '|' && first != ' ' && first != '\t' &&
            first != '\r' && first != '\n' && (first < 0x21 || first > 0x7e)) {
            stream_errf(err, r->name,
                        "field 'magic': bad magic, neither a pmusim binary stream (first byte "
                        "0x89) nor a text stream (first byte 0x%02x)",
                        first);
            pmu_stream_close(r);
            return NULL;
        }
    }
    return r;
}

pmu_stream_reader *pmu_stream_open(const char *path, pmu_err *err)
{
    pmu_stream_reader *r = reader_new(path, err);
    if (!r)
        return NULL;
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
    } else {
        r->f = fopen(path, "rb");
        if (!r->f) {
            stream_errf(err, path, "cannot open: %s", strerror(errno));
            pmu_stream_close(r);
            return NULL;
        }
        r->own_f = 1;
    }
    r->chunk = malloc(READ_CHUNK);
    if (!r->chunk) {
        stream_errf(err, path, "out of memory");
        pmu_stream_close(r);
        return NULL;
    }
    return reader_start(r, err);
}

pmu_stream_reader *pmu_stream_open_mem(const void *data, size_t len, const char *name,
                                       pmu_err *err)
{
    pmu_stream_reader *r = reader_new(name ? name : "<memory>", err);
    if (!r)
        return NULL;
    r->data = data;
    r->len = data ? len : 0;
    return reader_start(r, err);
}

/* Reads one line into r->line (without the newline).  0 = end of data. */
static int read_line(pmu_stream_reader *r, size_t *out_len)
{
    size_t n = 0;
    int got_any = 0;
    for (;;) {
        if (r->pos >= r->len && !refill(r))
            break;
        got_any = 1;
        const uint8_t *start = r->data + r->pos;
        size_t avail = r->len - r->pos;
        const uint8_t *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        if (n + take + 1 > r->line_cap) {
            size_t cap = r->line_cap ? r->line_cap : 256;
            while (cap < n + take + 1)
                cap *= 2;
            char *grown = realloc(r->line, cap);
            if (!grown)
                return -1;
            r->line = grown;
            r->line_cap = cap;
        }
        memcpy(r->line + n, start, take);
        n += take;
        r->pos += take + (nl ? 1 : 0);
        if (nl)
            break;
    }
    if (!got_any)
        return 0;
    r->line[n] = '\0';
    *out_len = n;
    return 1;
}

static int next_text(pmu_stream_reader *r, pmu_cycle *c, pmu_err *err)
{
    for (;;) {
        size_t len = 0;
        int got = read_line(r, &len);
        if (got < 0) {
            stream_errf(err, r->where, "out of memory (line too long)");
            return fail(r, err);
        }
        if (r->io_errno)
            return io_error(r, err);
        if (got == 0)
            return 0;
        r->lineno++;
        snprintf(r->where, sizeof r->where, "%s:%" PRIu64, r->name, r->lineno);
        uint64_t repeat = 1;
        int rc = text_parse_line(r->line, len, r->where, &r->sticky, c, &repeat, err);
        if (rc < 0)
            return fail(r, err);
        if (rc == 0)
            continue;
        r->cur = *c;
        r->left = repeat - 1;
        return 1;
    }
}

static int next_binary(pmu_stream_reader *r, pmu_cycle *c, pmu_err *err)
{
    char where[sizeof r->where];
    snprintf(where, sizeof where, "%s:record %" PRIu64, r->name, r->recno + 1);
    uint64_t repeat = 1;
    int rc = bin_decode(r->bs, rd_getc, r, where, c, &repeat, err);
    if (r->io_errno)
        return io_error(r, err);
    if (rc < 0) {
        memcpy(r->where, where, sizeof where);
        return fail(r, err);
    }
    if (rc == 0) {
        if (r->header_count && r->ncycles != r->header_count) {
            stream_errf(err, where,
                        "field 'count': truncated stream, the header says %" PRIu64
                        " cycles but the data ends after %" PRIu64,
                        r->header_count, r->ncycles);
            return fail(r, err);
        }
        return 0;
    }
    r->recno++;
    memcpy(r->where, where, sizeof where);
    if (pmu_cycle_validate(c, where, err))
        return fail(r, err);
    if (r->header_count && (repeat > r->header_count || r->ncycles > r->header_count - repeat)) {
        stream_errf(err, where,
                    "field 'count': more cycles than the header's count of %" PRIu64,
                    r->header_count);
        return fail(r, err);
    }
    r->ncycles += repeat;
    r->cur = *c;
    r->left = repeat - 1;
    return 1;
}

int pmu_stream_next(pmu_stream_reader *r, pmu_cycle *c, pmu_err *err)
{
    if (r->failed) {
        if (err)
            *err = r->last_err;
        return -1;
    }
    if (r->left) {
        r->left--;
        *c = r->cur;
        return 1;
    }
    pmu_err local;
    pmu_err *e = err ? err : &local;
    int rc = r->form == PMU_STREAM_TEXT ? next_text(r, c, e) : next_binary(r, c, e);
    if (rc < 0)
        r->last_err = *e;
    return rc;
}

const char *pmu_stream_where(const pmu_stream_reader *r) { return r->where; }

pmu_stream_form stream_reader_form(const pmu_stream_reader *r) { return r->form; }
pmu_stream_form pmu_stream_reader_form(const pmu_stream_reader *r) { return r->form; }

void pmu_stream_close(pmu_stream_reader *r)
{
    if (!r)
        return;
    if (r->own_f && r->f)
        fclose(r->f);
    free(r->chunk);
    free(r->line);
    free(r->bs);
    free(r->name);
    free(r);
}

/* ---- writing ------------------------------------------------------------------ */
struct pmu_stream_writer {
    char *name;
    FILE *f;
    int own_f;
    pmu_stream_form form;
    int failed;
    uint64_t nin;      /* records given to pmu_stream_write */
    uint64_t ncycles;  /* cycles written (flushed) */
    /* identical consecutive records are written once with a repeat count */
    pmu_cycle pend;
    uint64_t pend_n;
    text_sticky sticky;
    bin_state *bs;
    char *line;
    size_t line_cap;
};

static const char text_banner[] =
    "# pmusim cycle stream, text form (see docs/stream-format.md)\n";

pmu_stream_writer *pmu_stream_create(const char *path, pmu_stream_form form, pmu_err *err)
{
    pmu_stream_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->name = dup_str(path))) {
        free(w);
        stream_errf(err, path, "out of memory");
        return NULL;
    }
    w->form = form;
    text_sticky_init(&w->sticky);
    if (strcmp(path, "-") == 0) {
        w->f = stdout;
    } else {
        w->f = fopen(path, "wb");
        w->own_f = 1;
    }
    if (!w->f) {
        stream_errf(err, path, "cannot create: %s", strerror(errno));
        free(w->name);
        free(w);
        return NULL;
    }
    if (form == PMU_STREAM_BINARY) {
        uint8_t h[BIN_HEADER_LEN] = {0};
        memcpy(h, BIN_MAGIC, BIN_MAGIC_LEN);
        bin_put_u64le(h + 8, BIN_VERSION); /* version, then reserved 0 */
        bin_put_u64le(h + BIN_COUNT_OFFSET, 0); /* count, filled in by pmu_stream_finish */
        w->bs = malloc(sizeof *w->bs);
        if (w->bs)
            bin_state_init(w->bs);
        if (!w->bs || fwrite(h, 1, sizeof h, w->f) != sizeof h)
            w->failed = 1;
    } else {
        if (fputs(text_banner, w->f) < 0)
            w->failed = 1;
    }
    if (w->failed) {
        stream_errf(err, path, "cannot write: %s", strerror(errno));
        if (w->own_f)
            fclose(w->f);
        free(w->bs);
        free(w->name);
        free(w);
        return NULL;
    }
    return w;
}

static int flush_pending(pmu_stream_writer *w, pmu_err *err)
{
    if (!w->pend_n)
        return 0;
    if (w->form == PMU_STREAM_BINARY) {
        uint8_t rec[BIN_MAX_RECORD];
        size_t n = bin_encode(w->bs, &w->pend, w->pend_n, rec);
        if (fwrite(rec, 1, n, w->f) != n)
            goto write_error;
    } else {
        size_t need = text_format(&w->pend, &w->sticky, w->pend_n, w->line, w->line_cap);
        if (need + 1 > w->line_cap) {
            char *grown = realloc(w->line, need + 64);
            if (!grown)
                return stream_errf(err, w->name, "out of memory");
            w->line = grown;
            w->line_cap = need + 64;
            text_format(&w->pend, &w->sticky, w->pend_n, w->line, w->line_cap);
        }
        w->line[need] = '\n';
        if (fwrite(w->line, 1, need + 1, w->f) != need + 1)
            goto write_error;
        w->sticky.cpl = w->pend.cpl;
        w->sticky.is = w->pend.is;
        w->sticky.power = w->pend.power;
        w->sticky.pid = w->pend.pid;
    }
    w->ncycles += w->pend_n;
    w->pend_n = 0;
    return 0;
write_error:
    return stream_errf(err, w->name, "write error: %s", strerror(errno));
}

int pmu_stream_write(pmu_stream_writer *w, const pmu_cycle *c, pmu_err *err)
{
    if (w->failed)
        return stream_errf(err, w->name, "an earlier write failed");
    char where[600];
    snprintf(where, sizeof where, "%s: record %" PRIu64, w->name, w->nin + 1);
    if (pmu_cycle_validate(c, where, err)) {
        w->failed = 1;
        return -1;
    }
    w->nin++;
    pmu_cycle canon;
    cycle_canon(c, &canon);
    if (w->pend_n && w->pend_n < UINT64_MAX && cycle_equal(&canon, &w->pend)) {
        w->pend_n++;
        return 0;
    }
    if (flush_pending(w, err)) {
        w->failed = 1;
        return -1;
    }
    w->pend = canon;
    w->pend_n = 1;
    return 0;
}

int pmu_stream_finish(pmu_stream_writer *w, pmu_err *err)
{
    int rc = 0;
    if (w->failed)
        rc = stream_errf(err, w->name, "an earlier write failed");
    else if (flush_pending(w, err))
        rc = -1;
    if (!rc && w->form == PMU_STREAM_BINARY && w->own_f) {
        /* The count is known only now; a pipe keeps the 0 ("unknown") written first. */
        uint8_t cnt[8];
        bin_put_u64le(cnt, w->ncycles);
        if (fflush(w->f) == 0 && fseek(w->f, (long)BIN_COUNT_OFFSET, SEEK_SET) == 0) {
            if (fwrite(cnt, 1, 8, w->f) != 8)
                rc = stream_errf(err, w->name, "write error: %s", strerror(errno));
        }
    }
    if (fflush(w->f) != 0 && !rc)
        rc = stream_errf(err, w->name, "write error: %s", strerror(errno));
    if (w->own_f && fclose(w->f) != 0 && !rc)
        rc = stream_errf(err, w->name, "write error: %s", strerror(errno));
    free(w->bs);
    free(w->line);
    free(w->name);
    free(w);
    return rc;
}
