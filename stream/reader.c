/*
 * reader.c - stream readers (stream/pmu_stream.h) for any dialect.
 *
 * Readers pull bytes through one buffer, whether the bytes come from a file, a pipe or
 * memory, so the decoders do not care where they are.  The form is detected from the
 * first byte: the binary magic starts with 0x89, which no text stream contains.  Text
 * lines end with \n, \r\n or \r; comments, blank lines and repeat=N are handled here
 * (text_line.c), the rest of a line by the dialect's parse_line.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

#define READ_CHUNK (1u << 16)

/* "name<sep>N", where the record count N is advanced in place: the text every error and
 * lock-step report quotes is kept up to date on every record without formatting it. */
typedef struct where_text {
    char s[600];
    size_t num, end; /* offsets of N's first digit and of the terminating NUL */
} where_text;

static void where_init(where_text *w, const char *name, const char *sep, uint64_t n)
{
    if (*sep)
        snprintf(w->s, sizeof w->s, "%s%s%" PRIu64, name, sep, n);
    else
        snprintf(w->s, sizeof w->s, "%s", name);
    w->end = strlen(w->s);
    w->num = w->end;
    while (*sep && w->num > 0 && w->s[w->num - 1] >= '0' && w->s[w->num - 1] <= '9')
        w->num--;
}

/* N + 1, in decimal, when its last digit is a 9 (where_bump); a number that cannot grow (a
 * name filling the buffer) stays. */
static void where_carry(where_text *w)
{
    size_t i = w->end;
    while (i > w->num && w->s[i - 1] == '9')
        i--;
    if (i == w->num && (w->end + 1 >= sizeof w->s || w->num == w->end))
        return;
    memset(w->s + i, '0', w->end - i);
    if (i > w->num) {
        w->s[i - 1]++;
    } else {
        memmove(w->s + w->num + 1, w->s + w->num, w->end - w->num + 1);
        w->s[w->num] = '1';
        w->end++;
    }
}

/* N + 1.  Inline, and nine times in ten one digit's add: every record bumps two numbers. */
static inline void where_bump(where_text *w)
{
    if (w->end > w->num && w->s[w->end - 1] != '9')
        w->s[w->end - 1]++;
    else
        where_carry(w);
}

struct pmu_stream_reader {
    const pmu_dialect *d;
    char *name;        /* escaped, for messages */
    FILE *f;           /* NULL for memory */
    int own_f;
    uint8_t *chunk;    /* file buffer */
    const uint8_t *data;
    size_t len, pos;
    int io_errno;      /* errno of a failed read, 0 if none */
    pmu_stream_form form;
    int failed;
    int steady;        /* binary, past the first record, not failed: pmu_stream_view's
                        * own path */
    int need_records;  /* an end before the first record is an error (stream_need_records) */
    pmu_err last_err;  /* repeated by every call after a failure */
    where_text where;  /* the record last read (pmu_stream_where) */

    void *cur;         /* a record standing for several cycles (repeat=N) */
    uint64_t left;     /* and how many of them are still to come */
    uint64_t limit;    /* cycles to hand out in all (pmu_stream_limit; UINT64_MAX: all) */
    uint64_t budget;   /* and how many of them are still to be handed out */
    void *state;       /* the dialect's coding state */

    /* text */
    char *line;
    size_t line_cap;
    uint64_t lineno;
    int after_cr;      /* the last line ended with \r: a \n right after belongs to it */

    /* binary */
    uint64_t recno, header_count;
    uint64_t room;         /* cycles the header's count still allows (UINT64_MAX: no count) */
    pmu_byte_window win;   /* data[pos..len): the bytes not yet decoded (pos is not kept) */

    /* The last records handed out, for pmu_stream_unread across records (pmu_stream_keep):
     * a ring (ring.n 0: none, one record in cur); cur is record `at` of it. */
    stream_ring ring;
    struct kept_rec {
        uint64_t rep;      /* the cycles the record stands for */
        uint64_t pos;      /* its number in where texts (record or line) */
    } *kept_rec;           /* each slot's */
    uint64_t at;           /* the record handed out: the newest, or an older one given back */
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

/* The decoder ran out of the window: the next chunk of the file. */
static int win_refill(pmu_byte_window *w)
{
    pmu_stream_reader *r = (pmu_stream_reader *)((char *)w - offsetof(pmu_stream_reader, win));
    r->pos = r->len;
    if (!refill(r))
        return 0;
    w->p = r->data + r->pos;
    w->end = r->data + r->len;
    return 1;
}

static int fail(pmu_stream_reader *r, pmu_err *err)
{
    r->failed = 1;
    r->steady = 0;
    r->left = 0;
    if (err && err != &r->last_err)
        r->last_err = *err;
    return -1;
}

static int io_error(pmu_stream_reader *r, pmu_err *err)
{
    stream_errf(err, PMU_E_IO, r->name, "read error: %s", strerror(r->io_errno));
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
            return stream_errf(err, PMU_E_INPUT, r->name,
                               "field 'header': truncated (%u of %u header bytes)", i,
                               BIN_HEADER_LEN);
        }
        h[i] = (uint8_t)b;
    }
    if (bin_header_check(r->d, h, r->name, &r->header_count, err))
        return -1;
    r->room = r->header_count ? r->header_count : UINT64_MAX;
    return 0;
}

static pmu_stream_reader *reader_new(const pmu_dialect *d, const char *name, pmu_err *err)
{
    if (bin_dialect_check(d, err))
        return NULL;
    pmu_stream_reader *r = calloc(1, sizeof *r);
    if (r) {
        r->d = d;
        r->name = stream_escaped_name(name);
        r->cur = malloc(d->record_size);
        r->state = pmu_dialect_state_new(d);
    }
    if (!r || !r->name || !r->cur || !r->state) {
        pmu_stream_close(r);
        stream_errf(err, PMU_E_NOMEM, NULL, "out of memory");
        return NULL;
    }
    r->limit = r->budget = UINT64_MAX;
    where_init(&r->where, r->name, "", 0);
    return r;
}

/* A control or non-ASCII first byte that is no line end: neither form. */
static int bad_first_byte(int first)
{
    return first >= 0 && first != '\t' && first != '\r' && first != '\n' &&
           (first < 0x20 || first > 0x7e);
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
    r->form = first == (uint8_t)BIN_MAGIC[0] ? PMU_STREAM_BINARY : PMU_STREAM_TEXT;
    int rc = 0;
    if (r->form == PMU_STREAM_BINARY)
        rc = read_header(r, err);
    else if (bad_first_byte(first))
        rc = stream_errf(err, PMU_E_INPUT, r->name,
                         "field 'magic': bad magic, neither a pmusim binary stream (first byte "
                         "0x89) nor a text stream (first byte 0x%02x)",
                         first);
    if (rc) {
        pmu_stream_close(r);
        return NULL;
    }
    return r;
}

pmu_stream_reader *pmu_stream_open(const pmu_dialect *d, const char *path, pmu_err *err)
{
    pmu_stream_reader *r = reader_new(d, path, err);
    if (!r)
        return NULL;
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
    } else {
        r->f = fopen(path, "rb");
        if (!r->f) {
            stream_errf(err, PMU_E_IO, r->name, "cannot open: %s", strerror(errno));
            pmu_stream_close(r);
            return NULL;
        }
        r->own_f = 1;
    }
    r->chunk = malloc(READ_CHUNK);
    if (!r->chunk) {
        stream_errf(err, PMU_E_NOMEM, r->name, "out of memory");
        pmu_stream_close(r);
        return NULL;
    }
    return reader_start(r, err);
}

pmu_stream_reader *pmu_stream_open_mem(const pmu_dialect *d, const void *data, size_t len,
                                       const char *name, pmu_err *err)
{
    pmu_stream_reader *r = reader_new(d, name ? name : "<memory>", err);
    if (!r)
        return NULL;
    r->data = data;
    r->len = data ? len : 0;
    return reader_start(r, err);
}

/* Appends `take` bytes to r->line (n bytes long so far).  -1 when out of memory. */
static int line_append(pmu_stream_reader *r, size_t n, const uint8_t *bytes, size_t take)
{
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
    memcpy(r->line + n, bytes, take);
    return 0;
}

/* Reads one line into r->line, without its end (\n, \r\n or \r).  1 = a line, 0 = end
 * of data, -1 = out of memory. */
static int read_line(pmu_stream_reader *r, size_t *out_len)
{
    size_t n = 0;
    int got_any = 0;
    for (;;) {
        if (r->pos >= r->len && !refill(r))
            break;
        if (r->after_cr) {
            r->after_cr = 0;
            if (r->data[r->pos] == '\n') {
                r->pos++;
                continue;
            }
        }
        got_any = 1;
        const uint8_t *start = r->data + r->pos;
        size_t avail = r->len - r->pos;
        const uint8_t *end = memchr(start, '\n', avail);
        const uint8_t *cr = memchr(start, '\r', end ? (size_t)(end - start) : avail);
        if (cr)
            end = cr;
        size_t take = end ? (size_t)(end - start) : avail;
        if (line_append(r, n, start, take))
            return -1;
        n += take;
        r->pos += take + (end ? 1 : 0);
        if (end) {
            r->after_cr = *end == '\r';
            break;
        }
    }
    if (!got_any)
        return 0;
    r->line[n] = '\0';
    *out_len = n;
    return 1;
}

static int next_text(pmu_stream_reader *r, void *rec, pmu_err *err)
{
    for (;;) {
        size_t len = 0;
        int got = read_line(r, &len);
        if (got < 0) {
            stream_errf(err, PMU_E_NOMEM, r->where.s, "out of memory (line too long)");
            return fail(r, err);
        }
        if (r->io_errno)
            return io_error(r, err);
        if (got == 0)
            return 0;
        if (r->lineno++ == 0)
            where_init(&r->where, r->name, ":", 1);
        else
            where_bump(&r->where);
        uint64_t repeat = 1;
        int rc = text_line_prepare(r->line, &len, r->where.s, &repeat, err);
        if (rc < 0)
            return fail(r, err);
        if (rc == 0)
            continue;
        if (r->d->parse_line(r->state, r->line, len, r->where.s, rec, err) ||
            (repeat > 1 && r->d->check_repeat && r->d->check_repeat(rec, repeat, r->where.s, err)))
            return fail(r, err);
        if (repeat > 1 && rec != r->cur) /* the record stands for more cycles: kept for them */
            memcpy(r->cur, rec, r->d->record_size);
        r->left = repeat - 1;
        return 1;
    }
}

/* The end of a binary stream: the header's count, when it gave one, must be met. */
static int end_binary(pmu_stream_reader *r, const char *where, pmu_err *err)
{
    if (r->header_count && r->room != 0) {
        stream_errf(err, PMU_E_INPUT, where,
                    "field 'count': truncated stream, the header says %" PRIu64
                    " cycles but the data ends after %" PRIu64,
                    r->header_count, r->header_count - r->room);
        return fail(r, err);
    }
    return 0;
}

/* r->where back to the record last read, when the data ended or a read failed where record
 * recno + 1 was to begin. */
static void where_last(pmu_stream_reader *r)
{
    if (r->recno)
        where_init(&r->where, r->name, ":record ", r->recno);
    else
        where_init(&r->where, r->name, "", 0);
}

/* A binary record's repeat, which the reader bounds (above PMU_STREAM_MAX_REPEAT or the
 * header's count left): -1 with the message, or 0 when it is within them. */
static __attribute__((noinline)) int repeat_refused(pmu_stream_reader *r, const char *where,
                                                    uint64_t repeat, pmu_err *err)
{
    if (repeat > PMU_STREAM_MAX_REPEAT) {
        stream_errf(err, PMU_E_INPUT, where,
                    "field 'repeat': %" PRIu64 " cycles, expected at most %u (a record stands "
                    "for at most %u cycles)",
                    repeat, PMU_STREAM_MAX_REPEAT, PMU_STREAM_MAX_REPEAT);
        return fail(r, err);
    }
    if (repeat > r->room) {
        stream_errf(err, PMU_E_INPUT, where,
                    "field 'count': more cycles than the header's count of %" PRIu64,
                    r->header_count);
        return fail(r, err);
    }
    return 0;
}

/* r->where names the record being read from the start (decode's messages quote it), and so
 * the record last read when it is in: one text bumped per record. */
static inline __attribute__((always_inline)) int next_binary(pmu_stream_reader *r, void *rec,
                                                             pmu_err *err)
{
    if (r->recno == 0) {
        where_init(&r->where, r->name, ":record ", 1);
        if (!r->win.refill) /* from the first record on, the records are read through the
                             * window only (win_refill moves it to the next chunk): it is set
                             * up once, not per record */
            r->win = (pmu_byte_window){r->data ? r->data + r->pos : NULL,
                                       r->data ? r->data + r->len : NULL, win_refill};
    } else {
        where_bump(&r->where);
    }
    const char *where = r->where.s;
    uint64_t repeat = 1;
    int rc = r->d->decode(r->state, pmu_window_getc, &r->win, where, rec, &repeat, err);
    if (r->io_errno) {
        where_last(r);
        return io_error(r, err);
    }
    if (rc == 0) {
        rc = end_binary(r, where, err);
        where_last(r);
        return rc;
    }
    if (rc < 0)
        return fail(r, err);
    r->recno++; /* decode validated the record (common/pmu_dialect.h) */
    if (__builtin_expect(repeat > r->room || repeat > PMU_STREAM_MAX_REPEAT, 0))
        return repeat_refused(r, where, repeat, err);
    r->room -= repeat;
    if (repeat > 1 && rec != r->cur) /* the record stands for more cycles: kept for them */
        memcpy(r->cur, rec, r->d->record_size);
    r->left = repeat - 1;
    r->steady = 1;
    return 1;
}

void stream_need_records(pmu_stream_reader *r) { r->need_records = 1; }

/* The stream ended before its first record (stream_need_records). */
static __attribute__((noinline, cold)) int no_records(pmu_stream_reader *r, pmu_err *err)
{
    stream_errf(err, PMU_E_INPUT, r->name,
                "no records (empty, or only comments and blank lines); a run needs at least one");
    return fail(r, err);
}

/* A record that is not a repeat: out of line in pmu_stream_next (the repeats, a third of the
 * records of a workload, take the short way there), in line in pmu_stream_view, called once
 * for a record and its repeats. */
static inline __attribute__((always_inline)) int read_record(pmu_stream_reader *r, void *rec,
                                                             pmu_err *err)
{
    if (r->failed) {
        if (err)
            *err = r->last_err;
        return -1;
    }
    pmu_err local;
    pmu_err *e = err ? err : &local;
    int rc = r->form == PMU_STREAM_TEXT ? next_text(r, rec, e) : next_binary(r, rec, e);
    if (__builtin_expect(rc == 0 && r->need_records && pmu_stream_count(r) == 0, 0))
        rc = no_records(r, e);
    if (rc < 0)
        r->last_err = *e;
    return rc;
}

static __attribute__((noinline)) int next_record(pmu_stream_reader *r, void *rec, pmu_err *err)
{
    return read_record(r, rec, err);
}

int pmu_stream_next(pmu_stream_reader *r, void *rec, pmu_err *err)
{
    if (r->budget == 0)
        return 0;
    if (r->ring.n) { /* the kept records are pmu_stream_view's */
        const void *p;
        const int got = pmu_stream_view(r, &p, 1, err);
        if (got == 1)
            memcpy(rec, p, r->d->record_size);
        return got;
    }
    int rc;
    if (r->left && !r->failed) {
        r->left--;
        memcpy(rec, r->cur, r->d->record_size);
        rc = 1;
    } else {
        rc = next_record(r, rec, err);
    }
    r->budget -= rc == 1;
    return rc;
}

/* The cycles of r->cur handed out by pmu_stream_view: `have` of them (the record just read,
 * with its repeats, or the repeats left of it), at most max. */
static inline __attribute__((always_inline)) int hand_out(pmu_stream_reader *r, uint64_t have,
                                                         unsigned max)
{
    const uint64_t take = have < max ? have : max;
    r->left = have - take;
    r->budget -= take;
    return (int)take;
}

static inline void kept_open(pmu_stream_reader *r);
static inline void kept_close(pmu_stream_reader *r, int rc, uint64_t repeat);

/* A record pmu_stream_view does not read in its steady state: the first, a text line, or
 * after a failure (read_record repeats it). */
static __attribute__((noinline)) int view_slow(pmu_stream_reader *r, unsigned max, pmu_err *err)
{
    if (r->ring.n)
        kept_open(r);
    const int rc = read_record(r, r->cur, err);
    if (r->ring.n)
        kept_close(r, rc, r->left + 1);
    return rc == 1 ? hand_out(r, r->left + 1, max) : rc;
}

/* A binary record that decode did not hand over whole, or whose repeat the reader refuses:
 * next_binary's tests, in its order, on what decode left. */
static __attribute__((noinline)) int binary_end(pmu_stream_reader *r, int rc, uint64_t repeat,
                                                pmu_err *err)
{
    if (r->io_errno) {
        where_last(r);
        return io_error(r, err);
    }
    if (rc == 0) {
        rc = end_binary(r, r->where.s, err);
        where_last(r);
        return rc;
    }
    if (rc < 0)
        return fail(r, err);
    r->recno++; /* decode validated the record */
    return repeat_refused(r, r->where.s, repeat, err);
}

/* ---- the kept records (pmu_stream_keep) ---------------------------------------------- */
/* The number in the where text of the record just read: the record's (binary) or the
 * line's (text). */
static uint64_t where_number(const pmu_stream_reader *r)
{
    return r->form == PMU_STREAM_BINARY ? r->recno : r->lineno;
}

/* r->where of kept record i, as it was when the record was read. */
static void kept_where(pmu_stream_reader *r, uint64_t i)
{
    where_init(&r->where, r->name, r->form == PMU_STREAM_BINARY ? ":record " : ":",
               r->kept_rec[stream_ring_ix(&r->ring, i)].pos);
}

/* Before a record is read: the next slot of the ring becomes cur. */
static inline __attribute__((always_inline)) void kept_open(pmu_stream_reader *r)
{
    r->at = r->ring.count++;
    r->cur = stream_ring_at(&r->ring, r->at);
}

/* After: rc 1 keeps it (standing for `repeat` cycles); otherwise the slot is the next
 * read's again, and cur the record before. */
static __attribute__((noinline, cold)) void kept_drop(pmu_stream_reader *r)
{
    r->ring.count--;
    r->at = r->ring.count ? r->ring.count - 1 : 0;
    r->cur = stream_ring_at(&r->ring, r->at);
}

static inline __attribute__((always_inline)) void kept_close(pmu_stream_reader *r, int rc,
                                                            uint64_t repeat)
{
    if (__builtin_expect(rc != 1, 0)) {
        kept_drop(r);
        return;
    }
    r->kept_rec[stream_ring_ix(&r->ring, r->at)] = (struct kept_rec){repeat, where_number(r)};
}

/* A record given back (pmu_stream_unread) handed out again: the one after `at`. */
static __attribute__((noinline)) int kept_again(pmu_stream_reader *r, unsigned max)
{
    r->at++;
    r->cur = stream_ring_at(&r->ring, r->at);
    kept_where(r, r->at);
    return hand_out(r, r->kept_rec[stream_ring_ix(&r->ring, r->at)].rep, max);
}

int stream_ring_init(stream_ring *g, unsigned k, unsigned extra, size_t size, const char *fn,
                     const char *where, pmu_err *err)
{
    if (k > (1u << 20))
        return stream_errf(err, PMU_E_INTERNAL, where, "%s: %u records, expected at most %u",
                           fn, k, 1u << 20);
    unsigned n = k + extra;
    while (n & (n - 1u)) /* a power of 2: ring indexes are masked */
        n += n & -n;
    uint8_t *recs = calloc(n, size);
    if (!recs)
        return stream_errf(err, PMU_E_NOMEM, where, "out of memory");
    *g = (stream_ring){recs, size, n, 0};
    return 0;
}

int pmu_stream_keep(pmu_stream_reader *r, unsigned n, pmu_err *err)
{
    if (r->ring.n >= n)
        return 0;
    if (r->ring.n || r->ring.count || pmu_stream_count(r) || r->failed || r->recno || r->lineno)
        return stream_errf(err, PMU_E_INTERNAL, r->name,
                           "pmu_stream_keep: only before the first record, once");
    if (n < 2)
        return 0;
    /* and the record before the oldest one given back, whose where text is then the
     * reader's */
    stream_ring ring;
    if (stream_ring_init(&ring, n, 1, r->d->record_size, "pmu_stream_keep", r->name, err))
        return -1;
    struct kept_rec *rec = calloc(ring.n, sizeof *rec);
    if (!rec) {
        free(ring.recs);
        return stream_errf(err, PMU_E_NOMEM, r->name, "out of memory");
    }
    free(r->cur); /* nothing was read into it: the ring's slots are cur from here on */
    r->ring = ring;
    r->cur = ring.recs;
    r->kept_rec = rec;
    return 0;
}

/* A binary record after the first (r->steady) decoded into r->cur: 1 with its *repeat, or
 * what binary_end makes of the rare outcomes (out of line). */
static inline __attribute__((always_inline)) int steady_read(pmu_stream_reader *r,
                                                             uint64_t *repeat, pmu_err *err)
{
    where_bump(&r->where);
    pmu_err *const e = err ? err : &r->last_err;
    *repeat = 1;
    const int rc = r->d->decode(r->state, pmu_window_getc, &r->win, r->where.s, r->cur, repeat, e);
    if (__builtin_expect(rc != 1 || r->io_errno || *repeat > r->room ||
                             *repeat > PMU_STREAM_MAX_REPEAT, 0))
        return binary_end(r, rc, *repeat, e);
    r->recno++;
    r->room -= *repeat;
    return 1;
}

/* The next record of a reader that keeps its last records: one given back, or a new one
 * read into the ring. */
static __attribute__((noinline)) int view_kept(pmu_stream_reader *r, unsigned max, pmu_err *err)
{
    if (__builtin_expect(r->at + 1 < r->ring.count, 0))
        return kept_again(r, max);
    if (__builtin_expect(!r->steady, 0))
        return view_slow(r, max, err);
    kept_open(r);
    uint64_t repeat;
    const int rc = steady_read(r, &repeat, err);
    kept_close(r, rc, repeat);
    return rc == 1 ? hand_out(r, repeat, max) : rc;
}

/* Every record is read into r->cur, where its repeats find it: a run of them is handed out
 * in one call, so that a repeat costs the caller no call at all.  A binary record after the
 * first (r->steady) is decoded here, with the rare outcomes out of line (binary_end). */
int pmu_stream_view(pmu_stream_reader *r, const void **rec, unsigned max, pmu_err *err)
{
    *rec = r->cur;
    if (__builtin_expect(max > r->budget, 0)) {
        if (r->budget == 0)
            return 0;
        max = (unsigned)r->budget;
    }
    if (r->left) /* 0 after a failure (fail) */
        return hand_out(r, r->left, max);
    if (r->ring.n) { /* the record goes to a slot of the ring */
        const int got = view_kept(r, max, err);
        *rec = r->cur;
        return got;
    }
    if (!r->steady)
        return view_slow(r, max, err);
    uint64_t repeat;
    const int rc = steady_read(r, &repeat, err);
    return rc == 1 ? hand_out(r, repeat, max) : rc;
}

void pmu_stream_unread(pmu_stream_reader *r, unsigned n)
{
    r->budget += n;
    if (!r->ring.n) {
        r->left += n;
        return;
    }
    /* Back through the kept records, to the one the last cycle still handed out belongs
     * to: the record handed out last has handed out rep - left of its cycles, each before it
     * all of them. */
    const uint64_t at = r->at;
    uint64_t back = n;
    for (;;) {
        const uint64_t handed = r->kept_rec[stream_ring_ix(&r->ring, r->at)].rep - r->left;
        const int older = r->at > 0 && r->at + r->ring.n > r->ring.count; /* one before is kept */
        if (back < handed || !older) {
            r->left += back;
            break;
        }
        back -= handed;
        r->at--;
        r->left = 0;
        if (back == 0)
            break;
    }
    if (r->at != at) {
        r->cur = stream_ring_at(&r->ring, r->at);
        kept_where(r, r->at);
    }
}

void pmu_stream_limit(pmu_stream_reader *r, uint64_t cycles)
{
    const uint64_t count = pmu_stream_count(r);
    r->limit = cycles;
    r->budget = cycles > count ? cycles - count : 0;
}

uint64_t pmu_stream_count(const pmu_stream_reader *r) { return r->limit - r->budget; }

const char *pmu_stream_where(const pmu_stream_reader *r) { return r->where.s; }

pmu_stream_form pmu_stream_reader_form(const pmu_stream_reader *r) { return r->form; }

void pmu_stream_close(pmu_stream_reader *r)
{
    if (!r)
        return;
    if (r->own_f && r->f)
        fclose(r->f);
    free(r->chunk);
    free(r->line);
    free(r->state);
    free(r->ring.n ? r->ring.recs : r->cur);
    free(r->kept_rec);
    free(r->name);
    free(r);
}
