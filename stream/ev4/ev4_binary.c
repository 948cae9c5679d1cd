/*
 * ev4_binary.c - the binary form of an ev4 cycle record (docs/ev4-stream.md, "The binary
 * form"): a head byte and a body byte, then only what changed.  The pc is predicted as
 * the fall-through of the previous record (pc + 4 x nissue) and sent only when it
 * differs, as a zigzag delta in instructions, so straight-line code costs two bytes a
 * cycle.
 */
#include <string.h>

#include "ev4_internal.h"
#include "stream/pmu_stream_codec.h"

/* head byte */
#define HEAD_NISSUE_MASK 0x03u /* nissue 0..2 */
#define HEAD_CTL 0x04u         /* control byte: mode[1:0] ipl[4:2] idle[5] */
#define HEAD_PID 0x08u         /* varint: the new pid */
#define HEAD_PC 0x10u          /* varint: pmu_zigzag((pc - predicted) / 4) */
#define HEAD_REPEAT 0x20u      /* varint: N >= 1 */
#define HEAD_EXTRA 0x40u       /* extra byte: dmiss[0] imiss[1] mispredict[2] pin0[3] pin1[4]
                                  replay[6:5] */
#define HEAD_OS 0x80u          /* os byte, then varint os_arg for fork and bind */
/* body byte: nissue > 0: cls0[2:0] cls1[5:3]; nissue 0: the stall; the rest reserved 0 */
#define BODY_CLS_RESERVED 0xc0u
#define CTL_RESERVED 0xc0u
#define EXTRA_RESERVED 0x80u



static uint64_t predicted_pc(const ev4_state *st) { return st->pc + 4u * st->nissue; }

void ev4_state_advance(ev4_state *st, const ev4_cycle *c)
{
    st->pc = c->pc;
    st->pid = c->pid;
    st->mode = c->mode;
    st->ipl = c->ipl;
    st->idle = c->idle;
    st->nissue = c->nissue;
}

size_t ev4_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out)
{
    ev4_state *st = state;
    const ev4_cycle *c = rec;
    size_t n = 2;
    uint8_t head = (uint8_t)(c->nissue & HEAD_NISSUE_MASK);
    out[1] = c->nissue ? (uint8_t)((c->cls[0] & 7u) | (c->cls[1] & 7u) << 3) : c->stall;
    if (c->mode != st->mode || c->ipl != st->ipl || c->idle != st->idle) {
        head |= HEAD_CTL;
        out[n++] = (uint8_t)((c->mode & 3u) | (c->ipl & 7u) << 2 | (c->idle & 1u) << 5);
    }
    if (c->pid != st->pid) {
        head |= HEAD_PID;
        n += pmu_put_varint(out + n, c->pid);
    }
    if (c->pc != predicted_pc(st)) {
        head |= HEAD_PC; /* both are 4-byte aligned (validated records) */
        n += pmu_put_varint(out + n, pmu_zigzag_pc4(c->pc, predicted_pc(st)));
    }
    if (repeat > 1) {
        head |= HEAD_REPEAT;
        n += pmu_put_varint(out + n, repeat);
    }
    if (c->dmiss || c->imiss || c->mispredict || c->pin0 || c->pin1 || c->replay) {
        head |= HEAD_EXTRA;
        out[n++] = (uint8_t)((c->dmiss & 1u) | (c->imiss & 1u) << 1 | (c->mispredict & 1u) << 2 |
                             (c->pin0 & 1u) << 3 | (c->pin1 & 1u) << 4 | (c->replay & 3u) << 5);
    }
    if (c->os) {
        head |= HEAD_OS;
        out[n++] = c->os;
        if (c->os == EV4_OS_FORK || c->os == EV4_OS_BIND)
            n += pmu_put_varint(out + n, c->os_arg);
    }
    out[0] = head;
    ev4_state_advance(st, c);
    return n;
}

/* ---- decoding ------------------------------------------------------------------ */
typedef pmu_decoder decoder; /* include/stream/pmu_stream_codec.h */




/* Everything after the head byte. */
static int decode_rest(decoder *d, uint8_t head, const ev4_state *st, ev4_cycle *c,
                       uint64_t *repeat)
{
    uint8_t b = 0;
    uint64_t v = 0;
    c->nissue = head & HEAD_NISSUE_MASK;
    if (c->nissue > EV4_MAX_ISSUE)
        return pmu_dialect_errf(d->err, d->where, "field 'nissue': 3, expected 0..2");
    if (pmu_decode_byte(d, "body", &b))
        return -1;
    if (c->nissue) {
        if (pmu_decode_reserved(d, "body", b, BODY_CLS_RESERVED))
            return -1;
        c->cls[0] = b & 7u;
        c->cls[1] = c->nissue > 1 ? (b >> 3) & 7u : 0;
        if (c->nissue == 1 && pmu_decode_reserved(d, "body", b, 0x38u))
            return -1;
    } else {
        if (pmu_decode_reserved(d, "body", b, 0xfcu))
            return -1;
        c->stall = b;
    }
    c->mode = st->mode;
    c->ipl = st->ipl;
    c->idle = st->idle;
    if (head & HEAD_CTL) {
        if (pmu_decode_byte(d, "ctl", &b) ||
            pmu_decode_reserved(d, "ctl", b, CTL_RESERVED))
            return -1;
        c->mode = b & 3u;
        c->ipl = (b >> 2) & 7u;
        c->idle = (b >> 5) & 1u;
    }
    c->pid = st->pid;
    if (head & HEAD_PID) {
        if (pmu_decode_varint(d, "pid", EV4_MAX_PID, &v))
            return -1;
        c->pid = (uint32_t)v;
    }
    c->pc = predicted_pc(st);
    if (head & HEAD_PC) {
        if (pmu_decode_varint(d, "pc", UINT64_MAX, &v))
            return -1;
        c->pc += pmu_unzigzag(v) << 2;
    }
    *repeat = 1;
    if (head & HEAD_REPEAT) {
        if (pmu_decode_varint(d, "repeat", UINT64_MAX, repeat))
            return -1;
        if (*repeat == 0)
            return pmu_dialect_errf(d->err, d->where, "field 'repeat': 0, expected a count >= 1");
    }
    if (head & HEAD_EXTRA) {
        if (pmu_decode_byte(d, "extra", &b) ||
            pmu_decode_reserved(d, "extra", b, EXTRA_RESERVED))
            return -1;
        c->dmiss = b & 1u;
        c->imiss = (b >> 1) & 1u;
        c->mispredict = (b >> 2) & 1u;
        c->pin0 = (b >> 3) & 1u;
        c->pin1 = (b >> 4) & 1u;
        c->replay = (b >> 5) & 3u;
    }
    if (head & HEAD_OS) {
        if (pmu_decode_byte(d, "os", &c->os))
            return -1;
        if (c->os == EV4_OS_NONE || c->os > EV4_OS_UNBIND)
            return pmu_dialect_errf(d->err, d->where, "field 'os': %u, expected 1..5 (fork, "
                                    "exec, exit, bind, unbind)", c->os);
        if ((c->os == EV4_OS_FORK || c->os == EV4_OS_BIND)) {
            if (pmu_decode_varint(d, "os_arg", UINT32_MAX, &v))
                return -1;
            c->os_arg = (uint32_t)v;
        }
    }
    return 0;
}

int ev4_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
               uint64_t *repeat, pmu_err *err)
{
    ev4_state *st = state;
    ev4_cycle *c = rec;
    decoder d;
    uint8_t head = 0;
    if (!pmu_decode_head(get, ctx, where, err, &d, &head))
        return 0;
    memset(c, 0, sizeof *c);
    if (decode_rest(&d, head, st, c, repeat))
        return -1;
    ev4_state_advance(st, c); /* only a record that decoded completely moves the state */
    return ev4_validate(c, where, err) ? -1 : 1;
}
