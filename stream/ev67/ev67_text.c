/*
 * ev67_text.c - the text form of an ev67 cycle record (docs/ev67-stream.md, "The text
 * form"): parsing one line, formatting one record.  Comments, line ends and repeat=N are
 * the generic reader's (stream/text_line.c).
 *
 * What the stream's state predicts is left out: tags (R1), pcs after the previous fetch,
 * each fetch's PAL flag (the record's pal), the record's pc (the oldest in-flight
 * instruction's), head (R8) and kbm_first (none); pal is sticky.  A line that gives a
 * value explicitly overrides the prediction, so every record has a line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"
#include "ev67_internal.h"
#include "stream/pmu_stream_codec.h"

enum key { K_PAL, K_PC, K_TAG, K_FETCH, K_STALL, K_TRAP, K_RETIRE, K_SQUASH, K_ABORT,
           K_HEAD, K_BCMISS, K_MREPLAY, K_N };
static const char *const keys[K_N] = {"pal", "pc", "tag", "fetch", "stall", "trap", "retire",
                                      "squash", "abort", "head", "bcmiss", "mreplay"};
#define K_FIRST_FLAG K_BCMISS

/* The message about field `field` (a key) at `at`. */
#define tok_err(lc, at, field, ...) pmu_line_err(lc, at, field, strlen(field), __VA_ARGS__)

static int num(const pmu_line *lc, const char *field, const char *s, size_t n, uint64_t max,
               uint64_t *out)
{
    return pmu_dialect_field_u64(lc->where, (unsigned)(s - lc->line) + 1, field, s, n, 0, max,
                                 out, lc->err);
}

/* The end of s[0..n)'s part up to the first of `stops`. */
static size_t upto(const char *s, size_t n, const char *stops)
{
    size_t i = 0;
    while (i < n && !strchr(stops, s[i]))
        i++;
    return i;
}

/* fetch=ITEM,...  ITEM = CLASS[@PC][:FLAGS]; CLASS also cmov (both halves), cmov1, cmov2;
 * FLAGS: s squash, i icm, t taken, p PAL, n not PAL. */
static int fetch_value(const pmu_line *lc, const char *v, size_t vn, const ev67_track *t,
                       uint32_t tag, uint8_t pal, ev67_cycle *c)
{
    const char *p = v, *end = v + vn;
    uint64_t pc = ev67_track_fetch_pc(t);
    int after_cmov1 = t->cmov_pending, first = 1;
    for (;;) {
        size_t in = upto(p, (size_t)(end - p), ",");
        const char *item_end = p + in;
        size_t cn = upto(p, in, "@:");
        unsigned cls = EV67_NCLASSES, halves = 1;
        uint8_t cmov = 0;
        if (pmu_word_is(p, cn, "cmov"))
            cls = EV67_CLASS_INTOP, halves = 2, cmov = EV67_FF_CMOV1;
        else if (pmu_word_is(p, cn, "cmov1"))
            cls = EV67_CLASS_INTOP, cmov = EV67_FF_CMOV1;
        else if (pmu_word_is(p, cn, "cmov2"))
            cls = EV67_CLASS_INTOP, cmov = EV67_FF_CMOV2;
        for (unsigned i = 0; i < EV67_NCLASSES && cls == EV67_NCLASSES; i++)
            if (pmu_word_is(p, cn, ev67_class_names[i]))
                cls = i;
        if (cls == EV67_NCLASSES)
            return tok_err(lc, p, "fetch", "expected a class (intop load store cbr br jmp fpop "
                           "nop barrier pal other, or cmov cmov1 cmov2), found '%.*s'",
                           (int)(cn > 40 ? 40 : cn), p);
        const char *q = p + cn;
        if (!first && !after_cmov1)
            pc += 4;
        if (q < item_end && *q == '@') {
            size_t an = upto(q + 1, (size_t)(item_end - q - 1), ":");
            if (num(lc, "fetch", q + 1, an, UINT64_MAX, &pc))
                return -1;
            q += 1 + an;
        }
        uint8_t flags = pal ? EV67_FF_PAL : 0;
        if (q < item_end) { /* ':' FLAGS */
            if (q + 1 == item_end)
                return tok_err(lc, q, "fetch", "expected flag letters after ':' (s i t p n)");
            for (const char *f = q + 1; f < item_end; f++) {
                switch (*f) {
                case 's': flags |= EV67_FF_SQUASH; break;
                case 'i': flags |= EV67_FF_ICM; break;
                case 't': flags |= EV67_FF_TAKEN; break;
                case 'p': flags |= EV67_FF_PAL; break;
                case 'n': flags &= (uint8_t)~EV67_FF_PAL; break;
                default:
                    return tok_err(lc, f, "fetch", "unknown flag '%c', expected s (squash), i "
                                   "(icm), t (taken), p (PAL) or n (not PAL)", *f);
                }
            }
        }
        for (unsigned h = 0; h < halves; h++) {
            if (c->nfetch == EV67_FETCH_MAX)
                return tok_err(lc, p, "fetch", "more than %u instructions, expected at most %u "
                               "(R2: the 21264 fetches 4 a cycle)", EV67_FETCH_MAX,
                               EV67_FETCH_MAX);
            c->fetch[c->nfetch++] = (ev67_fetch){.pc = pc, .tag = tag++, .cls = (uint8_t)cls,
                                                 .flags = (uint8_t)(flags | (h ? EV67_FF_CMOV2 : cmov))};
        }
        after_cmov1 = (cmov == EV67_FF_CMOV1 && halves == 1);
        first = 0;
        if (item_end == end)
            return 0;
        p = item_end + 1;
    }
}

/* A list of tags: TAG or TAG-TAG (inclusive), comma-separated. */
static int list_value(const pmu_line *lc, const char *key, const char *v, size_t vn,
                      unsigned max, uint32_t *out, uint8_t *n)
{
    const char *p = v, *end = v + vn;
    for (;;) {
        size_t in = upto(p, (size_t)(end - p), ",");
        size_t an = upto(p, in, "-");
        uint64_t a = 0, b = 0;
        if (num(lc, key, p, an, UINT32_MAX, &a))
            return -1;
        b = a;
        if (an < in && num(lc, key, p + an + 1, in - an - 1, UINT32_MAX, &b))
            return -1;
        if ((uint32_t)(b - a) >= 0x80000000u)
            return tok_err(lc, p, key, "range %llu-%llu, expected the first tag first",
                           (unsigned long long)a, (unsigned long long)b);
        for (uint32_t t = (uint32_t)a;; t++) {
            if (*n == max)
                return tok_err(lc, p, key, "more than %u tags, expected at most %u", max, max);
            out[(*n)++] = t;
            if (t == (uint32_t)b)
                break;
        }
        if (p + in == end)
            return 0;
        p += in + 1;
    }
}

/* trap=TAG:TYPE[:mis][:lso] */
static int trap_value(const pmu_line *lc, const char *v, size_t vn, ev67_cycle *c)
{
    const char *end = v + vn;
    size_t tn = upto(v, vn, ":");
    uint64_t tag = 0;
    if (num(lc, "trap", v, tn, UINT32_MAX, &tag))
        return -1;
    if (tn == vn)
        return tok_err(lc, v + tn, "trap", "expected trap=TAG:TYPE[:mis][:lso]");
    const char *p = v + tn + 1;
    size_t yn = upto(p, (size_t)(end - p), ":");
    unsigned type = EV67_NTRAP_TYPES;
    for (unsigned i = 0; i < EV67_NTRAP_TYPES; i++)
        if (pmu_word_is(p, yn, ev67_trap_names[i]))
            type = i;
    if (type == EV67_NTRAP_TYPES)
        return tok_err(lc, p, "trap", "expected a trap type (replay invalid1 dtb_double_3 "
                       "dtb_double_4 fp_disabled unaligned dtb_single dfault opcdec invalid9 "
                       "mchk invalid11 arith invalid13 mt_fpcr reset), found '%.*s'",
                       (int)(yn > 40 ? 40 : yn), p);
    c->trap = 1;
    c->trap_tag = (uint32_t)tag;
    c->trap_type = (uint8_t)type;
    for (p += yn; p < end;) {
        p++;
        size_t wn = upto(p, (size_t)(end - p), ":");
        if (pmu_word_is(p, wn, "mis") && !c->trap_mis)
            c->trap_mis = 1;
        else if (pmu_word_is(p, wn, "lso") && !c->trap_lso)
            c->trap_lso = 1;
        else
            return tok_err(lc, p, "trap", "expected mis or lso (each once), found '%.*s'",
                           (int)(wn > 40 ? 40 : wn), p);
        p += wn;
    }
    return 0;
}

/* What a line gave explicitly, to be filled in from the state after its events. */
typedef struct given {
    uint8_t pc, head, kbm, tag;
    uint64_t pcv;
    uint32_t headv, tagv;
} given;

static int field(const pmu_line *lc, int k, const pmu_line_token *t, ev67_state *st,
                 given *gv, ev67_cycle *c)
{
    const char *key = keys[k], *v = t->val;
    const size_t vn = t->vn;
    uint64_t x = 0;
    if (pmu_line_flag_or_value(lc, t, key, k >= K_FIRST_FLAG))
        return -1;
    if (k >= K_FIRST_FLAG) {
        *(k == K_BCMISS ? &c->bcmiss : &c->mreplay) = 1;
        return 0;
    }
    switch (k) {
    case K_PAL:
        if (num(lc, key, v, vn, 1, &x))
            return -1;
        st->pal = (uint8_t)x;
        return 0;
    case K_PC:
        if (num(lc, key, v, vn, UINT64_MAX, &gv->pcv))
            return -1;
        gv->pc = 1;
        return 0;
    case K_TAG:
    case K_HEAD:
        if (num(lc, key, v, vn, UINT32_MAX, &x))
            return -1;
        *(k == K_TAG ? &gv->tagv : &gv->headv) = (uint32_t)x;
        *(k == K_TAG ? &gv->tag : &gv->head) = 1;
        return 0;
    case K_STALL: {
        size_t fn = upto(v, vn, "+");
        if (fn == vn)
            return tok_err(lc, v, key, "expected stall=FIRST+N");
        if (num(lc, key, v, fn, UINT32_MAX, &x))
            return -1;
        c->stall_first = (uint32_t)x;
        if (num(lc, key, v + fn + 1, vn - fn - 1, 255, &x))
            return -1;
        if (x == 0)
            return tok_err(lc, v + fn + 1, key, "0 instructions, expected 1..255");
        c->nstall = (uint8_t)x;
        return 0;
    }
    case K_TRAP:
        return trap_value(lc, v, vn, c);
    case K_RETIRE:
        return list_value(lc, key, v, vn, EV67_RETIRE_MAX, c->retire, &c->nretire);
    case K_SQUASH:
        return list_value(lc, key, v, vn, EV67_SQUASH_MAX, c->squash, &c->nsquash);
    case K_ABORT: {
        size_t fn = upto(v, vn, "/");
        if (num(lc, key, v, fn, UINT32_MAX, &x))
            return -1;
        c->abort = 1;
        c->abort_first = (uint32_t)x;
        if (fn < vn) {
            if (num(lc, key, v + fn + 1, vn - fn - 1, UINT32_MAX, &x))
                return -1;
            c->kbm_first = (uint32_t)x;
            gv->kbm = 1;
        }
        return 0;
    }
    default: /* K_FETCH: after the other fields (it needs tag and pal) */
        return 0;
    }
}

int ev67_parse_line(void *state, const char *line, size_t len, const char *where, void *rec,
                    pmu_err *err)
{
    ev67_state *st = state;
    ev67_cycle *c = rec;
    pmu_line lc = {line, where, err};
    const char *p = line, *end = line + len, *fetch_v = NULL;
    size_t fetch_vn = 0;
    uint64_t seen = 0;
    pmu_line_token t;
    int more;
    given gv;
    memset(&gv, 0, sizeof gv);
    memset(c, 0, sizeof *c);
    while ((more = pmu_line_next(&lc, &p, end, 0, &t)) > 0) {
        int k = pmu_word_find(t.tok, t.kn, keys, 0, K_N);
        if (k < 0)
            return tok_err(&lc, t.tok, t.kn ? "?" : "", "unknown key '%.*s', expected one of: "
                           "pal pc tag fetch stall trap retire squash abort head bcmiss mreplay",
                           (int)(t.kn > 40 ? 40 : t.kn), t.tok);
        if (pmu_line_once(&lc, &t, &seen, (unsigned)k))
            return -1;
        if (k == K_FETCH) {
            if (!t.eq || t.vn == 0)
                return tok_err(&lc, t.tok, "fetch", "expected fetch=CLASS[@PC][:FLAGS],...");
            fetch_v = t.val;
            fetch_vn = t.vn;
        }
        if (field(&lc, k, &t, st, &gv, c))
            return -1;
    }
    if (more < 0)
        return -1;
    if (gv.tag && !fetch_v)
        return pmu_dialect_errf(err, where, "field 'tag': given without fetch=, expected it "
                                "only with a fetch (the first fetched instruction's tag)");
    c->pal = st->pal;
    if (fetch_v && fetch_value(&lc, fetch_v, fetch_vn, &st->tr, gv.tag ? gv.tagv : st->tr.next,
                               st->pal, c))
        return -1;
    c->pc = gv.pc ? gv.pcv : 0;
    c->head = gv.head ? gv.headv : 0;
    if (c->abort && !gv.kbm)
        c->kbm_first = c->nfetch ? c->fetch[c->nfetch - 1].tag + 1u : st->tr.next;
    if (ev67_validate(c, where, err) || ev67_track_events(&st->tr, c, where, err))
        return -1;
    if (!gv.pc)
        c->pc = ev67_state_pc(st);
    if (!gv.head)
        c->head = ev67_track_head(&st->tr);
    if (ev67_track_head_check(&st->tr, c, where, err))
        return -1;
    st->pc = c->pc;
    return 0;
}

/* ---- formatting -------------------------------------------------------------- */

static void out_list(pmu_outbuf *o, const char *key, const uint32_t *v, unsigned n)
{
    for (unsigned i = 0; i < n;) {
        unsigned j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1u)
            j++;
        pmu_out_add(o, i ? "," : "%s%s=", PMU_OUT_SEP(o), key);
        if (j > i)
            pmu_out_add(o, "%u-%u", v[i], v[j]);
        else
            pmu_out_add(o, "%u", v[i]);
        i = j + 1;
    }
}

static void out_fetch(pmu_outbuf *o, const ev67_cycle *c, uint64_t pc_pred, int after_cmov1)
{
    for (unsigned i = 0; i < c->nfetch; i++) {
        const ev67_fetch *x = &c->fetch[i];
        uint8_t rest = x->flags & (uint8_t)~(EV67_FF_CMOV1 | EV67_FF_CMOV2);
        const ev67_fetch *y = i + 1 < c->nfetch ? &c->fetch[i + 1] : NULL;
        int both = (x->flags & EV67_FF_CMOV1) && y && (y->flags & EV67_FF_CMOV2) &&
                   y->pc == x->pc && (y->flags & (uint8_t)~EV67_FF_CMOV2) == rest;
        if (i > 0 && !after_cmov1)
            pc_pred += 4;
        pmu_out_add(o, i ? "," : "%sfetch=", PMU_OUT_SEP(o));
        if (x->flags & EV67_FF_CMOV1)
            pmu_out_add(o, both ? "cmov" : "cmov1");
        else if (x->flags & EV67_FF_CMOV2)
            pmu_out_add(o, "cmov2");
        else
            pmu_out_add(o, "%s", x->cls < EV67_NCLASSES ? ev67_class_names[x->cls] : "?");
        if (x->pc != pc_pred)
            pmu_out_add(o, "@0x%" PRIx64, x->pc);
        pc_pred = x->pc;
        if ((rest & ~EV67_FF_PAL) || ((rest & EV67_FF_PAL) != 0) != (c->pal != 0)) {
            pmu_out_add(o, ":");
            if (rest & EV67_FF_SQUASH) pmu_out_add(o, "s");
            if (rest & EV67_FF_ICM) pmu_out_add(o, "i");
            if (rest & EV67_FF_TAKEN) pmu_out_add(o, "t");
            if (((rest & EV67_FF_PAL) != 0) != (c->pal != 0))
                pmu_out_add(o, (rest & EV67_FF_PAL) ? "p" : "n");
        }
        after_cmov1 = (x->flags & EV67_FF_CMOV1) != 0;
        if (both) {
            i++;
            after_cmov1 = 0;
        }
    }
}

/* The text of record c.  st: the state before it (NULL: self-contained, everything
 * explicit); after: the state after its events (head and pc predictions). */
static size_t text_format(const ev67_cycle *c, const ev67_state *st, const ev67_state *after,
                          char *buf, size_t size)
{
    pmu_outbuf o = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    if (!st || st->pal != c->pal)
        pmu_out_add(&o, "%spal=%u", PMU_OUT_SEP(&o), c->pal);
    if (!st || ev67_state_pc(after) != c->pc)
        pmu_out_add(&o, "%spc=0x%" PRIx64, PMU_OUT_SEP(&o), c->pc);
    if (c->nfetch && (!st || c->fetch[0].tag != st->tr.next))
        pmu_out_add(&o, "%stag=%u", PMU_OUT_SEP(&o), c->fetch[0].tag);
    out_fetch(&o, c, st ? ev67_track_fetch_pc(&st->tr) : (c->nfetch ? c->fetch[0].pc + 4 : 0),
              st ? st->tr.cmov_pending : 0);
    if (c->nstall)
        pmu_out_add(&o, "%sstall=%u+%u", PMU_OUT_SEP(&o), c->stall_first, c->nstall);
    if (c->trap)
        pmu_out_add(&o, "%strap=%u:%s%s%s", PMU_OUT_SEP(&o), c->trap_tag,
                c->trap_type < EV67_NTRAP_TYPES ? ev67_trap_names[c->trap_type] : "?",
                c->trap_mis ? ":mis" : "", c->trap_lso ? ":lso" : "");
    out_list(&o, "retire", c->retire, c->nretire);
    out_list(&o, "squash", c->squash, c->nsquash);
    if (c->abort) {
        uint32_t none = c->nfetch ? c->fetch[c->nfetch - 1].tag + 1u : st ? st->tr.next : 0;
        pmu_out_add(&o, "%sabort=%u", PMU_OUT_SEP(&o), c->abort_first);
        if (!st || c->kbm_first != none)
            pmu_out_add(&o, "/%u", c->kbm_first);
    }
    if (!st || ev67_track_head(&after->tr) != c->head)
        pmu_out_add(&o, "%shead=%u", PMU_OUT_SEP(&o), c->head);
    if (c->bcmiss)
        pmu_out_add(&o, "%sbcmiss", PMU_OUT_SEP(&o));
    if (c->mreplay)
        pmu_out_add(&o, "%smreplay", PMU_OUT_SEP(&o));
    if (o.len == 0)
        pmu_out_add(&o, "pal=%u", c->pal); /* a blank line would be no record */
    return o.len;
}

size_t ev67_format_line(void *state, const void *rec, char *buf, size_t size)
{
    ev67_state *st = state;
    const ev67_cycle *c = rec;
    ev67_state after = *st;
    ev67_track_events(&after.tr, c, NULL, NULL);
    size_t need = text_format(c, st, &after, buf, size);
    if (need < size) {
        ev67_track_head_check(&after.tr, c, NULL, NULL);
        after.pc = c->pc;
        after.pal = c->pal;
        *st = after;
    }
    return need;
}

size_t ev67_format(const void *rec, char *buf, size_t size)
{
    return text_format(rec, NULL, NULL, buf, size);
}
