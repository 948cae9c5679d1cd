/*
 * writer.c - stream writers (stream/pmu_stream.h) for any dialect: validation, identical
 * consecutive records as one record with a repeat count (at most
 * PMU_STREAM_MAX_REPEAT), the text banner and repeat= prefix, the binary header and
 * its cycle count, and an output file that appears only when complete.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

struct pmu_stream_writer {
    const pmu_dialect *d;
    out_file out;
    char *name;        /* escaped, for messages */
    pmu_stream_form form;
    int failed;
    uint64_t nin;      /* records given to pmu_stream_write */
    uint64_t ncycles;  /* cycles written (flushed) */
    void *rec;         /* the record being checked and made canonical */
    void *pend;        /* identical consecutive records are written once, with */
    uint64_t pend_n;   /* a repeat count */
    void *state;       /* the dialect's coding state */
    uint8_t *bytes;    /* binary: encoded records, written when WRITE_CHUNK are held */
    size_t nbytes;
    char *line;        /* text: one line */
    size_t line_cap;
};

/* Encoded records are written in chunks, not one fwrite a record (a record is a few bytes). */
#define WRITE_CHUNK 65536u

static const char text_banner[] =
    "# pmusim cycle stream, text form (see docs/streams.md)\n";

static void writer_free(pmu_stream_writer *w)
{
    free(w->rec);
    free(w->pend);
    free(w->state);
    free(w->bytes);
    free(w->line);
    free(w->name);
    free(w);
}

/* The first bytes of the stream: the text banner or the binary header. */
static int write_start(pmu_stream_writer *w)
{
    if (w->form == PMU_STREAM_TEXT)
        return fputs(text_banner, w->out.f) < 0 ? -1 : 0;
    uint8_t h[BIN_HEADER_LEN];
    bin_header(w->d, h); /* the count is filled in by pmu_stream_finish */
    return fwrite(h, 1, sizeof h, w->out.f) == sizeof h ? 0 : -1;
}

pmu_stream_writer *pmu_stream_create(const pmu_dialect *d, const char *path,
                                     pmu_stream_form form, pmu_err *err)
{
    if (bin_dialect_check(d, err))
        return NULL;
    pmu_stream_writer *w = calloc(1, sizeof *w);
    if (w) {
        w->d = d;
        w->form = form;
        w->name = stream_escaped_name(path);
        w->rec = malloc(d->record_size);
        w->pend = malloc(d->record_size);
        w->state = pmu_dialect_state_new(d);
        w->bytes = malloc(WRITE_CHUNK + d->max_encoded);
    }
    if (!w || !w->name || !w->rec || !w->pend || !w->state || !w->bytes) {
        stream_errf(err, PMU_E_NOMEM, NULL, "out of memory");
        if (w)
            writer_free(w);
        return NULL;
    }
    if (out_file_open(&w->out, path, err)) {
        writer_free(w);
        return NULL;
    }
    if (write_start(w)) {
        stream_errf(err, PMU_E_IO, w->name, "cannot write: %s", strerror(errno));
        out_file_close(&w->out, 0, NULL);
        writer_free(w);
        return NULL;
    }
    return w;
}

/* The pending record as one text line: "repeat=N " and the dialect's line. */
static int write_text(pmu_stream_writer *w)
{
    char prefix[32];
    size_t plen = text_repeat_prefix(w->pend_n, prefix, sizeof prefix);
    size_t room = w->line_cap > plen ? w->line_cap - plen : 0;
    size_t need = w->d->format_line(w->state, w->pend, room ? w->line + plen : NULL, room);
    if (plen + need + 1 > w->line_cap) { /* did not fit: the state is as it was */
        size_t cap = plen + need + 64;
        char *grown = realloc(w->line, cap);
        if (!grown)
            return -1;
        w->line = grown;
        w->line_cap = cap;
        w->d->format_line(w->state, w->pend, w->line + plen, cap - plen);
    }
    memcpy(w->line, prefix, plen);
    w->line[plen + need] = '\n';
    return fwrite(w->line, 1, plen + need + 1, w->out.f) == plen + need + 1 ? 0 : -1;
}

/* The encoded records held: 0, or -1 with errno. */
static int write_bytes(pmu_stream_writer *w)
{
    size_t n = w->nbytes;
    w->nbytes = 0;
    return fwrite(w->bytes, 1, n, w->out.f) == n ? 0 : -1;
}

static int flush_pending(pmu_stream_writer *w, pmu_err *err)
{
    if (!w->pend_n)
        return 0;
    int rc;
    if (w->form == PMU_STREAM_BINARY) {
        w->nbytes += w->d->encode(w->state, w->pend, w->pend_n, w->bytes + w->nbytes);
        rc = w->nbytes >= WRITE_CHUNK ? write_bytes(w) : 0;
    } else {
        rc = write_text(w); /* errno: of fwrite, or ENOMEM of realloc */
    }
    if (rc)
        return stream_errf(err, PMU_E_IO, w->name, "write error: %s", strerror(errno));
    w->ncycles += w->pend_n;
    w->pend_n = 0;
    return 0;
}

int pmu_stream_write(pmu_stream_writer *w, const void *rec, pmu_err *err)
{
    if (w->failed)
        return stream_errf(err, PMU_E_INPUT, w->name, "an earlier write failed");
    /* The record's place is formatted only for a record that is refused: validated again
     * with it, for the message (a valid record costs no formatting). */
    if (w->d->validate(rec, w->name, err)) {
        char where[600];
        snprintf(where, sizeof where, "%s: record %" PRIu64, w->name, w->nin + 1);
        w->d->validate(rec, where, err);
        w->failed = 1;
        return -1;
    }
    w->nin++;
    w->d->canon(rec, w->rec);
    if (w->pend_n && w->pend_n < PMU_STREAM_MAX_REPEAT && w->d->equal(w->rec, w->pend)) {
        w->pend_n++;
        return 0;
    }
    if (flush_pending(w, err)) {
        w->failed = 1;
        return -1;
    }
    void *t = w->pend; /* the record just made canonical is now the pending one */
    w->pend = w->rec;
    w->rec = t;
    w->pend_n = 1;
    return 0;
}

/* The binary header's cycle count, known only now; a pipe keeps the 0 ("unknown")
 * written first. */
static int write_count(pmu_stream_writer *w)
{
    uint8_t cnt[8];
    bin_put_u64le(cnt, w->ncycles);
    if (fflush(w->out.f) != 0)
        return -1;
    if (fseek(w->out.f, (long)BIN_COUNT_OFFSET, SEEK_SET) != 0)
        return 0; /* not seekable */
    return fwrite(cnt, 1, 8, w->out.f) == 8 ? 0 : -1;
}

int pmu_stream_finish(pmu_stream_writer *w, pmu_err *err)
{
    int rc = 0;
    if (w->failed)
        rc = stream_errf(err, PMU_E_INPUT, w->name, "an earlier write failed");
    else if (flush_pending(w, err))
        rc = -1;
    else if (w->nbytes && write_bytes(w))
        rc = stream_errf(err, PMU_E_IO, w->name, "write error: %s", strerror(errno));
    if (!rc && w->form == PMU_STREAM_BINARY && w->out.own && write_count(w))
        rc = stream_errf(err, PMU_E_IO, w->name, "write error: %s", strerror(errno));
    if (out_file_close(&w->out, !rc, rc ? NULL : err))
        rc = -1;
    writer_free(w);
    return rc;
}
