/*
 * ita_binary.c - the binary form of an Itanium cycle record (docs/stream-format.md,
 * "The binary form"): one head byte, optional control bytes, then only the
 * present slots.  Addresses are deltas (zigzag LEB128) against the previous
 * slot, and an instruction encoding seen before at the same ip and syllable
 * is sent as a two-bit "same as before" code, so a loop costs a few bytes a slot.
 */
#include <string.h>

#include "ita_fast.h"
#include "pmu_stream_codec.h"

/* head byte */
#define HEAD_NSLOTS_MASK 0x07u
#define HEAD_CTL 0x08u
#define HEAD_PID 0x10u
#define HEAD_REPEAT 0x20u
#define HEAD_FETCH 0x40u /* the I-EAR fetch: varint if_addr, varint if_lat << 3 | if_tlb << 1 | if_rab */
#define HEAD_XEV 0x80u   /* general events: count byte, then per event varint id, count byte, slot byte */
/* control byte 0: cpl[1:0] is[2] power[4:3] intr[6:5]; control byte 1: up_we[0] up[1]
 * pp_we[2] pp[3] recirc[6:4]; bit 7 of each is reserved */
#define CTL_RESERVED 0x80u
/* slot head byte: unit[1:0] s[3:2] enc mode[5:4] ext[6], bit 7 reserved */
#define SH_ENC_SHIFT 4
#define SH_EXT 0x40u
#define SH_RESERVED 0x80u
enum { ENC_NONE = 0, ENC_EXPLICIT = 1, ENC_CACHED = 2 };

void ita_state_init(void *state)
{
    ita_state *s = state;
    memset(s, 0, sizeof *s);
    ita_sticky_init(&s->sticky); /* both forms start from the same sticky fields */
}

unsigned ita_enc_index(uint64_t ip, unsigned slot)
{
    uint64_t h = (ip >> 4) ^ (ip >> 24) ^ (ip >> 44);
    return (unsigned)((h * 3u + slot) & (ITA_ENC_CACHE - 1u));
}



size_t ita_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out)
{
    ita_state *st = state;
    const pmu_cycle *c = rec;
    size_t n = 1;
    uint8_t head = (uint8_t)(c->nslots & HEAD_NSLOTS_MASK);
    const ita_sticky *sticky = &st->sticky;
    int ctl = c->cpl != sticky->cpl || c->is != sticky->is || c->power != sticky->power ||
              c->intr || c->up_we || c->pp_we || c->recirc;
    if (ctl) {
        head |= HEAD_CTL;
        out[n++] = (uint8_t)((c->cpl & 3u) | (c->is & 1u) << 2 | (c->power & 3u) << 3 |
                             (c->intr & 3u) << 5);
        out[n++] = (uint8_t)((c->up_we & 1u) | (c->up & 1u) << 1 | (c->pp_we & 1u) << 2 |
                             (c->pp & 1u) << 3 | (c->recirc & 7u) << 4);
        st->sticky.cpl = c->cpl;
        st->sticky.is = c->is;
        st->sticky.power = c->power;
    }
    if (c->pid != st->sticky.pid) {
        head |= HEAD_PID;
        n += pmu_put_varint(out + n, c->pid);
        st->sticky.pid = c->pid;
    }
    if (repeat > 1) {
        head |= HEAD_REPEAT;
        n += pmu_put_varint(out + n, repeat);
    }
    if (c->if_addr || c->if_lat || c->if_tlb || c->if_rab) {
        head |= HEAD_FETCH;
        n += pmu_put_varint(out + n, c->if_addr);
        n += pmu_put_varint(out + n, (uint64_t)c->if_lat << 3 | (c->if_tlb & 3u) << 1 | (c->if_rab & 1u));
    }
    if (c->nxev) {
        head |= HEAD_XEV;
        out[n++] = c->nxev;
        for (unsigned i = 0; i < c->nxev && i < PMU_MAX_XEV; i++) {
            n += pmu_put_varint(out + n, c->xev[i].id);
            out[n++] = c->xev[i].count;
            out[n++] = c->xev[i].slot;
        }
    }
    out[0] = head;

    for (unsigned i = 0; i < c->nslots && i < PMU_MAX_SLOTS; i++) {
        const pmu_slot *s = &c->slot[i];
        size_t sh_at = n++;
        unsigned mode = ENC_NONE;
        n += pmu_put_varint(out + n, s->flags);
        n += pmu_put_varint(out + n, pmu_zigzag(s->ip - st->prev_ip));
        st->prev_ip = s->ip;
        if (s->enc) {
            struct ita_enc_entry *e = &st->enc_cache[ita_enc_index(s->ip, s->slot)];
            if (e->valid && e->ip == s->ip && e->slot == s->slot && e->enc == s->enc) {
                mode = ENC_CACHED;
            } else {
                mode = ENC_EXPLICIT;
                n += pmu_put_varint(out + n, s->enc);
                e->valid = 1;
                e->ip = s->ip;
                e->slot = s->slot;
                e->enc = s->enc;
            }
        }
        if (PMU_SLOT_GET(s, LOAD) || PMU_SLOT_GET(s, STORE)) {
            n += pmu_put_varint(out + n, pmu_zigzag(s->daddr - st->prev_daddr));
            st->prev_daddr = s->daddr;
        }
        if (PMU_SLOT_GET(s, BR_TYPE))
            n += pmu_put_varint(out + n, pmu_zigzag(s->target - s->ip));
        int ext = s->lat || s->tlb;
        if (ext)
            n += pmu_put_varint(out + n, (uint64_t)s->lat << 2 | (s->tlb & 3u));
        out[sh_at] = (uint8_t)((s->unit & 3u) | (s->slot & 3u) << 2 | mode << SH_ENC_SHIFT |
                               (ext ? SH_EXT : 0u));
    }
    return n;
}

/* ---- decoding ------------------------------------------------------------------ */
/* Where a record's bytes come from.  In place (d NULL): the window holds at least
 * MAX_READ bytes, more than decoding reads from any record, valid or not, so the cursor p
 * is advanced without a test per byte and stays in a register (the decoder's own struct is
 * reached by the codec's out-of-line functions, so every access to it is a load and a
 * store).  Byte by byte (d set): near the end of a chunk or of the data, or from a source
 * that is not a window; the codec's decoder names the field and the slot of a truncated
 * record.  Both go through the functions below, each always inlined, so that each of the
 * two calls of decode_record is compiled for its own source. */
typedef struct ita_in {
    const uint8_t *p; /* in place */
    pmu_decoder *d;   /* byte by byte */
    const char *where;
    pmu_err *err;
} ita_in;

/* The fast validation run while decoding (ita_fast.h): slot fields that must be zero ORed
 * into `zero`, the flags' multiplicity counts, conditions into `bad`. */
typedef struct ita_check {
    uint64_t zero;
    uint32_t counts;
    unsigned bad;
} ita_check;

#define DECODE_INLINE static inline __attribute__((always_inline))

/* The most bytes one record may make the decoder read: every varint at its longest (the
 * codec stops at 10 bytes) and the largest counts the head and the xev byte allow
 * (decode_xev refuses more than PMU_MAX_XEV before reading them). */
#define VARINT_MAX 10u
#define SLOT_MAX_READ (1u + 6u * VARINT_MAX) /* head, flags, ip, enc, da, tgt, lat */
#define MAX_READ                                                                            \
    (1u + 2u + 2u * VARINT_MAX + 2u * VARINT_MAX + 1u + PMU_MAX_XEV * (VARINT_MAX + 2u) +    \
     PMU_MAX_SLOTS * SLOT_MAX_READ) /* head, ctl, pid + repeat, fetch, xev, slots */

/* The codec's message for a varint longer than 64 bits, read in place. */
static __attribute__((noinline, cold)) int too_long(const char *where, pmu_err *err, const char *field)
{
    pmu_decoder e = pmu_decoder_of(NULL, NULL, where, err);
    return pmu_decode_too_long(&e, field);
}

/* A byte or a varint of a field, in slot `slot` (0: the record's own part). */
DECODE_INLINE int get_byte(ita_in *in, const char *field, unsigned slot, uint8_t *out)
{
    if (!in->d) {
        *out = *in->p++;
        return 0;
    }
    in->d->slot = slot;
    return pmu_decode_byte(in->d, field, out);
}

DECODE_INLINE int get_varint(ita_in *in, const char *field, unsigned slot, uint64_t *out)
{
    if (!in->d) {
        if (__builtin_expect(pmu_varint_in_place(&in->p, out), 0)) {
            too_long(in->where, in->err, field);
            return -1;
        }
        return 0;
    }
    in->d->slot = slot;
    return pmu_decode_varint(in->d, field, UINT64_MAX, out);
}

/* The fetch of the I-EAR (HEAD_FETCH). */
DECODE_INLINE int decode_fetch(ita_in *in, pmu_cycle *c)
{
    uint64_t v;
    if (get_varint(in, "if_addr", 0, &c->if_addr) || get_varint(in, "if_lat", 0, &v))
        return -1;
    if ((v >> 3) > UINT16_MAX)
        return pmu_dialect_errf(in->err, in->where, "field 'if_lat': %llu, expected 0..65535",
                                (unsigned long long)(v >> 3));
    c->if_lat = (uint16_t)(v >> 3);
    c->if_tlb = (uint8_t)((v >> 1) & 3u);
    c->if_rab = (uint8_t)(v & 1u);
    return 0;
}

/* The general events (HEAD_XEV); validation checks the ids, counts and slots. */
DECODE_INLINE int decode_xev(ita_in *in, pmu_cycle *c)
{
    uint64_t id;
    if (get_byte(in, "ev", 0, &c->nxev))
        return -1;
    if (c->nxev == 0 || c->nxev > PMU_MAX_XEV)
        return pmu_dialect_errf(in->err, in->where, "field 'ev': %u general events, expected 1..%u",
                                c->nxev, PMU_MAX_XEV);
    for (unsigned i = 0; i < c->nxev; i++) {
        pmu_xev *x = &c->xev[i];
        if (get_varint(in, "ev", 0, &id) || get_byte(in, "ev", 0, &x->count) ||
            get_byte(in, "ev", 0, &x->slot))
            return -1;
        if (id >= ita_event_id_count())
            return pmu_dialect_errf(in->err, in->where, "field 'ev': event id %llu, expected below %u",
                                    (unsigned long long)id, ita_event_id_count());
        x->id = (uint16_t)id;
    }
    return 0;
}

/* The head byte (already read), the control bytes, the pid and the repeat count. */
DECODE_INLINE int decode_cycle(ita_in *in, uint8_t head, const ita_state *st, pmu_cycle *c,
                               uint64_t *repeat)
{
    c->nslots = head & HEAD_NSLOTS_MASK;
    if (c->nslots > PMU_MAX_SLOTS)
        return pmu_dialect_errf(in->err, in->where, "field 'nslots': %u, expected at most %u",
                                c->nslots, PMU_MAX_SLOTS);
    c->cpl = st->sticky.cpl;
    c->is = st->sticky.is;
    c->power = st->sticky.power;
    if (head & HEAD_CTL) {
        uint8_t c0, c1;
        if (get_byte(in, "ctl", 0, &c0) || get_byte(in, "ctl", 0, &c1))
            return -1;
        if ((c0 | c1) & CTL_RESERVED)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'ctl': reserved bit 7 set (0x%02x 0x%02x)", c0, c1);
        c->cpl = c0 & 3u;
        c->is = (c0 >> 2) & 1u;
        c->power = (c0 >> 3) & 3u;
        c->intr = (c0 >> 5) & 3u;
        if (c->intr > PMU_INTR_RETURN)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'intr': %u, expected none, entry or return", c->intr);
        c->up_we = c1 & 1u;
        c->up = (c1 >> 1) & 1u;
        c->pp_we = (c1 >> 2) & 1u;
        c->pp = (c1 >> 3) & 1u;
        c->recirc = (c1 >> 4) & 7u;
    }
    c->pid = st->sticky.pid;
    if (head & HEAD_PID) {
        uint64_t v;
        if (get_varint(in, "pid", 0, &v))
            return -1;
        if (v > UINT16_MAX)
            return pmu_dialect_errf(in->err, in->where, "field 'pid': %llu, expected 0..65535",
                                    (unsigned long long)v);
        c->pid = (uint16_t)v;
    }
    *repeat = 1;
    if (head & HEAD_REPEAT) {
        if (get_varint(in, "repeat", 0, repeat))
            return -1;
        if (*repeat == 0)
            return pmu_dialect_errf(in->err, in->where, "field 'repeat': 0, expected a count >= 1");
    }
    if (head & HEAD_FETCH && decode_fetch(in, c))
        return -1;
    if (head & HEAD_XEV && decode_xev(in, c))
        return -1;
    return 0;
}

/* The encoding of slot n at ip (syllable s->slot): explicit (it enters the cache) or the
 * cached one. */
DECODE_INLINE int decode_enc(ita_in *in, ita_state *st, unsigned mode, uint64_t ip, pmu_slot *s,
                             unsigned n)
{
    if (mode == ENC_NONE)
        return 0;
    struct ita_enc_entry *e = &st->enc_cache[ita_enc_index(ip, s->slot)];
    if (mode == ENC_EXPLICIT) {
        uint64_t enc;
        if (get_varint(in, "enc", n, &enc))
            return -1;
        if (enc == 0)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'enc': slot %u explicit encoding 0, expected mode 0", n);
        s->enc = enc;
        e->valid = 1;
        e->ip = ip;
        e->slot = s->slot;
        e->enc = enc;
    } else if (mode == ENC_CACHED) {
        if (!e->valid || e->ip != ip || e->slot != s->slot)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'enc': slot %u refers to an earlier encoding at ip "
                                    "0x%llx s=%u, but none was sent",
                                    n, (unsigned long long)ip, s->slot);
        s->enc = e->enc;
    }
    return 0;
}

/* Slot n (from 1).  The address deltas run in *ip and *daddr (the state's prev_ip and
 * prev_daddr, kept in registers for the record).  The slot's rules are checked into *k,
 * but for those its form rules out: a data address only comes with a load or a store, a
 * target only with a branch, and the unit and TLB outcome are two bits wide. */
DECODE_INLINE int decode_slot(ita_in *in, ita_state *st, uint64_t *ip, uint64_t *daddr, pmu_slot *s,
                              unsigned n, int ia64, ita_check *k)
{
    uint8_t sh;
    uint64_t v;
    if (get_byte(in, "slot", n, &sh))
        return -1;
    if (sh & SH_RESERVED)
        return pmu_dialect_errf(in->err, in->where,
                                "field 'slot': slot %u reserved bit 7 set (0x%02x)", n, sh);
    s->unit = sh & 3u;
    s->slot = (sh >> 2) & 3u;
    unsigned mode = (sh >> SH_ENC_SHIFT) & 3u;
    if (mode > ENC_CACHED)
        return pmu_dialect_errf(in->err, in->where,
                                "field 'enc': slot %u encoding mode 3 is reserved",
                                n);
    if (get_varint(in, "flags", n, &v))
        return -1;
    if (__builtin_expect(v > ITA_SF_DEFINED, 0)) { /* the defined flags are bits 0..k */
        if (v > UINT16_MAX)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'flags': slot %u flags 0x%llx wider than 16 bits", n,
                                    (unsigned long long)v);
        k->zero |= v; /* undefined flag bits: the rules name them */
    }
    const unsigned flags = (unsigned)v;
    s->flags = (uint16_t)flags;
    if (get_varint(in, "ip", n, &v))
        return -1;
    *ip += pmu_unzigzag(v);
    s->ip = *ip;
    if (decode_enc(in, st, mode, *ip, s, n))
        return -1;
    ita_fast_flags(flags, &k->counts, &k->bad);
    k->zero |= ita_fast_isa(ia64, *ip, s->enc, (sh >> 2) & 3u, sh & 3u, flags);
    if (flags & (PMU_SF_LOAD_MASK | PMU_SF_STORE_MASK)) {
        if (get_varint(in, "da", n, &v))
            return -1;
        *daddr += pmu_unzigzag(v);
        s->daddr = *daddr;
    }
    if (flags & PMU_SF_BR_TYPE_MASK) {
        if (get_varint(in, "tgt", n, &v))
            return -1;
        s->target = *ip + pmu_unzigzag(v);
    }
    if (sh & SH_EXT) {
        if (get_varint(in, "lat", n, &v))
            return -1;
        if ((v >> 2) > UINT16_MAX)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'lat': slot %u latency %llu, expected 0..65535", n,
                                    (unsigned long long)(v >> 2));
        s->lat = (uint16_t)(v >> 2);
        s->tlb = (uint8_t)(v & 3u);
        if (!(flags & (PMU_SF_LOAD_MASK | PMU_SF_STORE_MASK)))
            k->zero |= v; /* a latency or TLB outcome without a load or store */
    }
    return 0;
}

/* Clears a record with 16-byte stores: GCC expands memset of the 288-byte record as rep
 * stosq, an instruction per 8 bytes (about 45 a record).  The vector type's may_alias lets
 * it store into the struct; its alignment of 8 is the record's. */
DECODE_INLINE void clear_record(pmu_cycle *c)
{
    typedef unsigned char v16 __attribute__((vector_size(16), may_alias, aligned(8)));
    _Static_assert(sizeof(pmu_cycle) % 16 == 0 && _Alignof(pmu_cycle) >= 8,
                   "clear_record stores 16 bytes at a time at 8-byte alignment");
    unsigned char *p = (unsigned char *)c;
    const v16 zero = {0};
#pragma GCC unroll 32
    for (size_t i = 0; i < sizeof *c; i += 16)
        *(v16 *)(p + i) = zero;
}

/* A record whose head byte has been read, decoded and validated (pmu_dialect.h): the fast
 * test runs as the fields are decoded, and a record it cannot pass goes to the rules one by
 * one, which write the message.  The deltas a slot decoded advance the state even when a
 * later slot fails (the reader stops at the first error); the sticky values advance only
 * with a record that decoded completely. */
DECODE_INLINE int decode_record(ita_in *in, uint8_t head, ita_state *st, pmu_cycle *c, uint64_t *repeat)
{
    clear_record(c);
    if (decode_cycle(in, head, st, c, repeat))
        return -1;
    uint64_t ip = st->prev_ip, daddr = st->prev_daddr;
    int rc = 1;
    /* nslots in a local: the stores to the slots could alias c->nslots, so the loop would
     * load it again on every pass */
    const unsigned nslots = c->nslots;
    const int ia64 = c->is == 0;
    ita_check k = {0, 0, 0};
    for (unsigned i = 0; i < nslots; i++)
        if (decode_slot(in, st, &ip, &daddr, &c->slot[i], i + 1, ia64, &k)) {
            rc = -1;
            break;
        }
    st->prev_ip = ip;
    st->prev_daddr = daddr;
    if (rc < 0)
        return -1;
    st->sticky.cpl = c->cpl;
    st->sticky.is = c->is;
    st->sticky.power = c->power;
    st->sticky.pid = c->pid;
    /* The fields cpl .. pp, nslots, if_tlb and if_rab are within their ranges here: their
     * bits are as wide as their ranges, or decode_cycle checked them.  Without control
     * bytes, a fetch and general events, what the record's other rules read is 0 but the
     * (sticky) power. */
    if (head & (HEAD_CTL | HEAD_FETCH | HEAD_XEV))
        k.bad |= ita_fast_record(c);
    else
        k.bad |= nslots != 0 && c->power >= PMU_POWER_LIGHT_HALT;
    k.bad |= k.zero != 0;
    if (__builtin_expect(k.bad || !ita_fast_counts_ok(k.counts), 0))
        return ita_cycle_validate_by_rule(c, in->where, in->err) ? -1 : 1;
    return 1;
}

/* The two sources, each compiled with its own copy of decode_record: the common one in
 * ita_decode itself, the other out of line (in one function, the source would be tested
 * at every field). */
DECODE_INLINE int decode_in_place(pmu_byte_window *w, const char *where, ita_state *st, pmu_cycle *c,
                                  uint64_t *repeat, pmu_err *err)
{
    ita_in in = {w->p + 1, NULL, where, err};
    const int rc = decode_record(&in, w->p[0], st, c, repeat);
    w->p = in.p;
    return rc;
}

static __attribute__((noinline)) int decode_bytes(pmu_getc_fn get, void *ctx, const char *where,
                                                  ita_state *st, pmu_cycle *c, uint64_t *repeat,
                                                  pmu_err *err)
{
    pmu_decoder d = pmu_decoder_of(get, ctx, where, err);
    int first = get(ctx);
    if (first < 0)
        return 0;
    d.nbytes = 1;
    ita_in in = {NULL, &d, where, err};
    return decode_record(&in, (uint8_t)first, st, c, repeat);
}

int ita_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
               uint64_t *repeat, pmu_err *err)
{
    if (get == pmu_window_getc) {
        pmu_byte_window *w = ctx;
        if (w->p && w->end - w->p >= (ptrdiff_t)MAX_READ)
            return decode_in_place(w, where, state, rec, repeat, err);
    }
    return decode_bytes(get, ctx, where, state, rec, repeat, err);
}
