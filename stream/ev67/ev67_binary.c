/*
 * ev67_binary.c - the binary form of an ev67 cycle record (docs/ev67-stream.md, "The
 * binary form"): a head byte, then only what the stream's state does not predict.  Tags
 * are implicit (R1), pcs follow the previous fetch, retires and squashes are the oldest
 * in-flight instructions by count (R4), other tags are distances back from the next tag,
 * head (R8) and the record's pc come from the in-flight instructions.  A record of a
 * straight-line fetch and retire costs 2 + nfetch bytes.
 */
#include <string.h>

#include "ev67_internal.h"
#include "stream/pmu_stream_codec.h"

/* head byte */
#define H_NFETCH 0x07u   /* nfetch 0..4 */
#define H_EXPL 0x08u     /* explicit byte */
#define H_EVT 0x10u      /* event byte */
#define H_ENDS 0x20u     /* ends byte */
#define H_PAL 0x40u      /* pal flips */
#define H_RESERVED 0x80u
/* explicit byte: varints follow in this order */
#define X_PC 0x01u       /* pmu_zigzag((pc - predicted) / 4) */
#define X_TAG 0x02u      /* the first fetch's tag */
#define X_HEAD 0x04u     /* head */
#define X_KBM 0x08u      /* next - kbm_first */
#define X_RESERVED 0xf0u
/* event byte */
#define E_TRAP 0x01u     /* varint next - trap_tag, byte trap_type */
#define E_MIS 0x02u
#define E_LSO 0x04u
#define E_ABORT 0x08u    /* varint next - abort_first */
#define E_STALL 0x10u    /* varint next - stall_first, byte nstall */
#define E_BCMISS 0x20u
#define E_MREPLAY 0x40u
#define E_REPEAT 0x80u   /* varint repeat >= 2 */
/* ends byte: nretire[3:0] nsquash[6:4]; bit 7: explicit lists (varints next - tag) */
#define N_LISTS 0x80u
/* fetch byte: cls[3:0] squash[4] icm[5] taken[6] ext[7]; ext byte: */
#define F_EXT 0x80u
#define FX_CMOV1 0x01u
#define FX_CMOV2 0x02u
#define FX_PALFLIP 0x04u /* the PAL flag differs from the record's pal */
#define FX_PC 0x08u      /* varint pmu_zigzag((pc - predicted) / 4) */
#define FX_RESERVED 0xf0u

/* The retire and squash lists R4 predicts for k ends: the k oldest in flight after the
 * fetches (t: the state after them), each where its SQUASH flag puts it.  0 when c's
 * lists are those. */
static int ends_predicted(const ev67_track *t, const ev67_cycle *c)
{
    unsigned i = 0, j = 0, k = (unsigned)c->nretire + c->nsquash;
    if (k > t->n)
        return 0;
    for (unsigned x = 0; x < k; x++) {
        const ev67_inst *o = ev67_track_at(t, x);
        if (o->flags & EV67_FF_SQUASH) {
            if (j >= c->nsquash || c->squash[j++] != o->tag)
                return 0;
        } else if (i >= c->nretire || c->retire[i++] != o->tag)
            return 0;
    }
    return 1;
}

static uint32_t next_after_fetch(uint32_t next, const ev67_cycle *c)
{
    return c->nfetch ? c->fetch[c->nfetch - 1].tag + 1u : next;
}

/* Applies c's fetches alone to t, in place (then ev67_track_seek back: ev67_track_pos). */
static void apply_fetches(ev67_track *t, const ev67_cycle *c)
{
    ev67_cycle fo;
    fo.nfetch = c->nfetch;
    memcpy(fo.fetch, c->fetch, c->nfetch * sizeof c->fetch[0]);
    fo.nstall = 0, fo.trap = 0, fo.nretire = 0, fo.nsquash = 0, fo.abort = 0;
    ev67_track_events(t, &fo, NULL, NULL);
}

size_t ev67_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out)
{
    ev67_state *st = state;
    const ev67_cycle *c = rec;
    const ev67_track_pos before = ev67_track_tell(&st->tr);
    const uint8_t pal_before = st->pal;
    apply_fetches(&st->tr, c); /* the state after the fetches */
    int lists = !ends_predicted(&st->tr, c);
    ev67_track_seek(&st->tr, &before);
    ev67_track_events(&st->tr, c, NULL, NULL); /* the state after the events */
    const ev67_state *after = st;
    uint32_t next = next_after_fetch(before.next, c);

    uint8_t head = (uint8_t)(c->nfetch & H_NFETCH), expl = 0, evt = 0;
    size_t n = 1;
    uint8_t body[EV67_MAX_ENCODED];
    size_t bn = 0;
    if (c->pal != pal_before)
        head |= H_PAL;
    if (c->pc != ev67_state_pc(after))
        expl |= X_PC;
    if (c->nfetch && c->fetch[0].tag != before.next)
        expl |= X_TAG;
    if (c->head != ev67_track_head(&after->tr))
        expl |= X_HEAD;
    if (c->abort && c->kbm_first != next)
        expl |= X_KBM;
    evt = (uint8_t)((c->trap ? E_TRAP : 0) | (c->trap_mis ? E_MIS : 0) |
                    (c->trap_lso ? E_LSO : 0) | (c->abort ? E_ABORT : 0) |
                    (c->nstall ? E_STALL : 0) | (c->bcmiss ? E_BCMISS : 0) |
                    (c->mreplay ? E_MREPLAY : 0) | (repeat > 1 ? E_REPEAT : 0));
    if (expl) {
        head |= H_EXPL;
        out[n++] = expl;
    }
    if (evt) {
        head |= H_EVT;
        out[n++] = evt;
    }
    if (c->nretire || c->nsquash) {
        head |= H_ENDS;
        out[n++] = (uint8_t)((c->nretire & 0x0fu) | (c->nsquash & 7u) << 4 |
                             (lists ? N_LISTS : 0));
    }
    uint64_t pred = ev67_pos_fetch_pc(&before);
    int after_cmov1 = before.cmov_pending;
    for (unsigned i = 0; i < c->nfetch; i++) {
        const ev67_fetch *x = &c->fetch[i];
        if (i > 0 && !after_cmov1)
            pred += 4;
        uint8_t fx = (uint8_t)((x->flags & EV67_FF_CMOV1 ? FX_CMOV1 : 0) |
                               (x->flags & EV67_FF_CMOV2 ? FX_CMOV2 : 0) |
                               (((x->flags & EV67_FF_PAL) != 0) != (c->pal != 0) ? FX_PALFLIP : 0) |
                               (x->pc != pred ? FX_PC : 0));
        out[n++] = (uint8_t)((x->cls & 0x0fu) | (x->flags & EV67_FF_SQUASH ? 0x10u : 0) |
                             (x->flags & EV67_FF_ICM ? 0x20u : 0) |
                             (x->flags & EV67_FF_TAKEN ? 0x40u : 0) | (fx ? F_EXT : 0));
        if (fx)
            out[n++] = fx;
        if (fx & FX_PC)
            n += pmu_put_varint(out + n, pmu_zigzag_pc4(x->pc, pred));
        pred = x->pc;
        after_cmov1 = (x->flags & EV67_FF_CMOV1) != 0;
    }
    if (expl & X_PC)
        bn += pmu_put_varint(body + bn, pmu_zigzag_pc4(c->pc, ev67_state_pc(after)));
    if (expl & X_TAG)
        bn += pmu_put_varint(body + bn, c->fetch[0].tag);
    if (expl & X_HEAD)
        bn += pmu_put_varint(body + bn, c->head);
    if (expl & X_KBM)
        bn += pmu_put_varint(body + bn, (uint32_t)(next - c->kbm_first));
    if (c->trap) {
        bn += pmu_put_varint(body + bn, (uint32_t)(next - c->trap_tag));
        body[bn++] = c->trap_type;
    }
    if (c->abort)
        bn += pmu_put_varint(body + bn, (uint32_t)(next - c->abort_first));
    if (c->nstall) {
        bn += pmu_put_varint(body + bn, (uint32_t)(next - c->stall_first));
        body[bn++] = c->nstall;
    }
    if (repeat > 1)
        bn += pmu_put_varint(body + bn, repeat);
    if (lists) {
        for (unsigned i = 0; i < c->nretire; i++)
            bn += pmu_put_varint(body + bn, (uint32_t)(next - c->retire[i]));
        for (unsigned i = 0; i < c->nsquash; i++)
            bn += pmu_put_varint(body + bn, (uint32_t)(next - c->squash[i]));
    }
    memcpy(out + n, body, bn);
    out[0] = head;
    ev67_track_head_check(&st->tr, c, NULL, NULL);
    st->pc = c->pc;
    st->pal = c->pal;
    return n + bn;
}

/* ---- decoding ------------------------------------------------------------------ */
typedef pmu_decoder decoder; /* include/stream/pmu_stream_codec.h */



static int get_tag(decoder *d, const char *field, uint32_t next, uint32_t *tag)
{
    uint64_t v = 0;
    if (pmu_decode_varint(d, field, UINT32_MAX, &v))
        return -1;
    *tag = next - (uint32_t)v;
    return 0;
}


static int decode_fetches(decoder *d, const ev67_state *st, ev67_cycle *c)
{
    uint64_t pred = ev67_track_fetch_pc(&st->tr), v = 0;
    int after_cmov1 = st->tr.cmov_pending;
    for (unsigned i = 0; i < c->nfetch; i++) {
        ev67_fetch *x = &c->fetch[i];
        uint8_t b = 0, fx = 0;
        if (i > 0 && !after_cmov1)
            pred += 4;
        if (pmu_decode_byte(d, "fetch", &b))
            return -1;
        x->cls = b & 0x0fu;
        x->flags = (uint8_t)((b & 0x10u ? EV67_FF_SQUASH : 0) | (b & 0x20u ? EV67_FF_ICM : 0) |
                             (b & 0x40u ? EV67_FF_TAKEN : 0));
        if ((b & F_EXT) && (pmu_decode_byte(d, "fetch", &fx) ||
                            pmu_decode_reserved(d, "fetch", fx, FX_RESERVED)))
            return -1;
        x->flags |= (uint8_t)((fx & FX_CMOV1 ? EV67_FF_CMOV1 : 0) |
                              (fx & FX_CMOV2 ? EV67_FF_CMOV2 : 0));
        if ((c->pal != 0) != ((fx & FX_PALFLIP) != 0))
            x->flags |= EV67_FF_PAL;
        x->pc = pred;
        if (fx & FX_PC) {
            if (pmu_decode_varint(d, "fetch", UINT64_MAX, &v))
                return -1;
            x->pc += pmu_unzigzag(v) << 2;
        }
        pred = x->pc;
        after_cmov1 = (x->flags & EV67_FF_CMOV1) != 0;
    }
    return 0;
}

static int decode_rest(decoder *d, uint8_t head, ev67_state *st, ev67_cycle *c,
                       uint64_t *repeat)
{
    uint8_t expl = 0, evt = 0, ends = 0, b = 0;
    uint64_t v = 0, pcd = 0, headv = 0;
    if (pmu_decode_reserved(d, "head", head, H_RESERVED))
        return -1;
    c->nfetch = head & H_NFETCH;
    if (c->nfetch > EV67_FETCH_MAX)
        return pmu_dialect_errf(d->err, d->where, "field 'nfetch': %u, expected 0..%u",
                                c->nfetch, EV67_FETCH_MAX);
    c->pal = (uint8_t)(st->pal ^ ((head & H_PAL) != 0));
    if ((head & H_EXPL) && (pmu_decode_byte(d, "explicit", &expl) ||
                            pmu_decode_reserved(d, "explicit", expl, X_RESERVED)))
        return -1;
    if ((head & H_EVT) && pmu_decode_byte(d, "event", &evt))
        return -1;
    if (head & H_ENDS) {
        if (pmu_decode_byte(d, "ends", &ends))
            return -1;
        c->nretire = ends & 0x0fu;
        c->nsquash = (ends >> 4) & 7u;
        if (c->nretire > EV67_RETIRE_MAX || c->nsquash > EV67_SQUASH_MAX)
            return pmu_dialect_errf(d->err, d->where, "field 'ends': %u retires and %u "
                                    "squashes, expected at most %u and %u", c->nretire,
                                    c->nsquash, EV67_RETIRE_MAX, EV67_SQUASH_MAX);
    }
    if (decode_fetches(d, st, c))
        return -1;
    if ((expl & X_PC) && pmu_decode_varint(d, "pc", UINT64_MAX, &pcd))
        return -1;
    uint32_t tag = st->tr.next;
    if (expl & X_TAG) {
        if (pmu_decode_varint(d, "tag", UINT32_MAX, &v))
            return -1;
        tag = (uint32_t)v;
    }
    for (unsigned i = 0; i < c->nfetch; i++)
        c->fetch[i].tag = tag + i;
    uint32_t next = next_after_fetch(st->tr.next, c);
    if ((expl & X_HEAD) && pmu_decode_varint(d, "head", UINT32_MAX, &headv))
        return -1;
    c->kbm_first = next;
    if ((expl & X_KBM) && get_tag(d, "kbm_first", next, &c->kbm_first))
        return -1;
    if (evt & E_TRAP) {
        c->trap = 1;
        c->trap_mis = (evt & E_MIS) != 0;
        c->trap_lso = (evt & E_LSO) != 0;
        if (get_tag(d, "trap_tag", next, &c->trap_tag) || pmu_decode_byte(d, "trap_type", &b))
            return -1;
        c->trap_type = b;
    }
    if (evt & E_ABORT) {
        c->abort = 1;
        if (get_tag(d, "abort_first", next, &c->abort_first))
            return -1;
    } else
        c->kbm_first = 0;
    if (evt & E_STALL) {
        if (get_tag(d, "stall_first", next, &c->stall_first) || pmu_decode_byte(d, "nstall", &c->nstall))
            return -1;
        if (c->nstall == 0)
            return pmu_dialect_errf(d->err, d->where, "field 'nstall': 0, expected 1..255");
    }
    c->bcmiss = (evt & E_BCMISS) != 0;
    c->mreplay = (evt & E_MREPLAY) != 0;
    *repeat = 1;
    if (evt & E_REPEAT) {
        if (pmu_decode_varint(d, "repeat", UINT64_MAX, repeat))
            return -1;
        if (*repeat < 2)
            return pmu_dialect_errf(d->err, d->where, "field 'repeat': %llu, expected a count "
                                    ">= 2", (unsigned long long)*repeat);
    }
    if (ends & N_LISTS) {
        for (unsigned i = 0; i < c->nretire; i++)
            if (get_tag(d, "retire", next, &c->retire[i]))
                return -1;
        for (unsigned i = 0; i < c->nsquash; i++)
            if (get_tag(d, "squash", next, &c->squash[i]))
                return -1;
    } else if (c->nretire || c->nsquash) {
        /* the lists R4 predicts: the oldest in flight after the fetches, read in place */
        const ev67_track_pos before = ev67_track_tell(&st->tr);
        ev67_track *mid = &st->tr;
        unsigned i = 0, j = 0, k = (unsigned)c->nretire + c->nsquash;
        apply_fetches(mid, c);
        uint32_t nmid = mid->n;
        if (k > nmid) {
            ev67_track_seek(mid, &before);
            return pmu_dialect_errf(d->err, d->where, "field 'ends': %u instructions end, but "
                                    "%u are in flight (R3)", k, nmid);
        }
        int over = 0; /* 1: one squash too many, 2: one retire too many */
        uint32_t over_tag = 0;
        for (unsigned x = 0; x < k && !over; x++) {
            const ev67_inst *o = ev67_track_at(mid, x);
            if (o->flags & EV67_FF_SQUASH) {
                if (j == c->nsquash)
                    over = 1, over_tag = o->tag;
                else
                    c->squash[j++] = o->tag;
            } else if (i == c->nretire) {
                over = 2, over_tag = o->tag;
            } else {
                c->retire[i++] = o->tag;
            }
        }
        ev67_track_seek(mid, &before);
        if (over == 1)
            return pmu_dialect_errf(d->err, d->where, "field 'squash': tag %u is squashed, "
                                    "expected at most %u squashes (R3, R4)", over_tag, c->nsquash);
        if (over == 2)
            return pmu_dialect_errf(d->err, d->where, "field 'retire': tag %u retires, expected "
                                    "at most %u retires (R3, R4)", over_tag, c->nretire);
    }
    if (ev67_check_repeat(c, *repeat, d->where, d->err))
        return -1;
    /* the cross-record rules, here where the stream's state is */
    if (ev67_validate(c, d->where, d->err) || ev67_track_events(&st->tr, c, d->where, d->err))
        return -1;
    c->pc = ev67_state_pc(st) + (pmu_unzigzag(pcd) << 2);
    c->head = (expl & X_HEAD) ? (uint32_t)headv : ev67_track_head(&st->tr);
    if (ev67_track_head_check(&st->tr, c, d->where, d->err))
        return -1;
    st->pc = c->pc;
    st->pal = c->pal;
    return 0;
}

int ev67_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
                uint64_t *repeat, pmu_err *err)
{
    ev67_cycle *c = rec;
    decoder d;
    uint8_t head = 0;
    if (!pmu_decode_head(get, ctx, where, err, &d, &head))
        return 0;
    memset(c, 0, sizeof *c);
    if (decode_rest(&d, head, state, c, repeat))
        return -1;
    return ev67_validate(c, where, err) ? -1 : 1;
}
