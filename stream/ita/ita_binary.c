/*
 * ita_binary.c - the binary form of an Itanium cycle record (docs/ita-stream-format.md,
 * "The binary form"): one head byte, optional control bytes, then only the
 * present slots.  Addresses are deltas (zigzag LEB128) against the previous
 * slot, and an instruction encoding seen before at the same ip and syllable
 * is sent as a two-bit "same as before" code.  A slot equal to the one that followed the
 * previous slot last time (in a loop, most of them) is a byte that says so, and only its
 * data address and latency follow: the decoder copies it from its cache entry, with the
 * entry's fast validation.  A record whose slots recur as a whole is a reference to a
 * group of slots sent before, copied at once with the group's validation.
 */
#include <string.h>

#include "ita_fast.h"
#include "stream/pmu_stream_codec.h"

/* head byte */
#define HEAD_NSLOTS_MASK 0x07u
#define HEAD_GROUP 0x07u /* nslots 7: the group field follows the record's own fields */
/* the group field: 2 bytes, index[12:3] slots[2:0] (0: a reference, 1..6: a definition of
 * that many slots), bits 15:13 reserved; a fixed width, read with one load */
#define GROUP_INDEX_SHIFT 3u
#define GROUP_SLOTS_MASK 0x07u
#define GROUP_RESERVED 0xe000u
_Static_assert((((ITA_GROUPS << GROUP_INDEX_SHIFT) - 1u) | GROUP_RESERVED) == 0xffffu,
               "the index fills bits 12:3");
#define HEAD_CTL 0x08u
#define HEAD_PID 0x10u
#define HEAD_REPEAT 0x20u
#define HEAD_FETCH 0x40u /* the I-EAR fetch: varint if_addr, varint if_lat << 3 | if_tlb << 1 | if_rab */
#define HEAD_XEV 0x80u   /* general events: count byte, then per event varint id, count byte, slot byte */
/* control byte 0: cpl[1:0] is[2] power[4:3] intr[6:5]; control byte 1: up_we[0] up[1]
 * pp_we[2] pp[3] recirc[6:4]; bit 7 of each is reserved */
#define CTL_RESERVED 0x80u
/* slot head byte: unit[1:0] s[3:2] enc mode[5:4] ext[6] next[7]; with next, bits 5:0 are
 * reserved */
#define SH_ENC_SHIFT 4
#define SH_EXT 0x40u
#define SH_NEXT 0x80u
enum { ENC_NONE = 0, ENC_EXPLICIT = 1, ENC_CACHED = 2 };

void ita_state_init(void *state)
{
    ita_state *s = state; /* all zero (common/pmu_dialect.h): the caches start empty */
    ita_sticky_init(&s->sticky); /* both forms start from the same sticky fields */
    s->prev_entry = ITA_SLOT_CACHE;
}

unsigned ita_slot_index(uint64_t ip, unsigned slot)
{
    /* Fibonacci hashing: the top bits of the product depend on every bit of ip, so that
     * code regions that differ only in their high bits (regions, processes) and IA-32 byte
     * addresses within 16 bytes do not share entries. */
    _Static_assert(ITA_SLOT_CACHE == 1u << 12, "the index is the product's top 12 bits");
    return (unsigned)(((ip * 3u + slot) * UINT64_C(0x9e3779b97f4a7c15)) >> 52);
}

#define CODEC_INLINE static inline __attribute__((always_inline))

/* Slot s's own fields into *own, without those a cached copy has patched in. */
CODEC_INLINE void slot_own(ita_slot *own, const ita_slot *s)
{
    *own = *s;
    own->daddr = 0;
    own->lat = 0;
    own->tlb = 0;
    own->pad = 0;
}

/* The fast validation of a slot's own fields (ita_fast.h) in a cycle of the instruction
 * set ia64: its flags' memo entry into *memo, whether a rule may refuse it into
 * refuse[ia64].  refuse[!ia64] is set: the other set's rules are left to
 * ita_cycle_validate_by_rule, which a slot of one set copied into a cycle of the other
 * (never in a valid stream but for IA-32 code without syllables) then goes to. */
CODEC_INLINE void slot_checks(const ita_slot *s, int ia64, uint32_t *memo, uint8_t refuse[2])
{
    const unsigned f = s->flags;
    *memo = ita_flags_entry(f & ITA_SF_DEFINED);
    const unsigned own = (*memo & ITA_FLAGS_BROKEN) != 0 || (f & ~(unsigned)ITA_SF_DEFINED) != 0;
    refuse[ia64] = (uint8_t)(own | (ita_fast_isa(ia64, s->ip, s->enc, s->slot, s->unit, f) != 0));
    refuse[!ia64] = 1;
}

/* Slot s of a cycle of the instruction set ia64, sent in full, enters cache entry idx
 * (writer and reader alike). */
CODEC_INLINE const ita_slot_entry *enter_slot(ita_state *st, unsigned idx, const ita_slot *s,
                                              int ia64)
{
    ita_slot_entry *e = &st->cache[idx];
    slot_own(&e->s, s);
    slot_checks(s, ia64, &e->counts, e->refuse);
    return e;
}

/* The slots of record c become group g (writer and reader alike); entry[i] is the cache
 * entry of slot i.  The multiplicity rules are folded into the refusal: a copy carries the
 * same flags. */
static void enter_group(ita_state *st, unsigned g, const ita_cycle *c, const uint16_t *entry)
{
    const int ia64 = c->is == 0;
    ita_group *gr = &st->group[g];
    uint32_t counts = 0;
    unsigned mem = 0, refuse[2] = {0, 0};
    for (unsigned i = 0; i < ITA_MAX_SLOTS; i++) {
        if (i >= c->nslots) {
            gr->slot[i] = (ita_slot){0};
            gr->entry[i] = 0;
            continue;
        }
        gr->entry[i] = entry[i];
        const ita_slot *s = &c->slot[i];
        uint32_t memo;
        uint8_t r[2];
        slot_own(&gr->slot[i], s);
        slot_checks(s, ia64, &memo, r);
        counts += memo;
        refuse[0] |= r[0];
        refuse[1] |= r[1];
        if (s->flags & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK))
            mem |= 1u << i;
    }
    const unsigned over = !ita_fast_counts_ok(counts);
    gr->nslots = c->nslots;
    gr->mem = (uint8_t)mem;
    gr->refuse[0] = (uint8_t)(refuse[0] | over);
    gr->refuse[1] = (uint8_t)(refuse[1] | over);
}

/* The address a load or store of cache entry e is sent against: the entry's last one (a
 * loop's load strides, a store comes back), or the stream's last one when the entry has
 * none.  Both become the new address. */
CODEC_INLINE uint64_t da_base(const ita_state *st, const ita_slot_entry *e)
{
    return e->da ? e->da : st->prev_daddr;
}

CODEC_INLINE uint64_t da_delta(ita_state *st, ita_slot_entry *e, uint64_t da)
{
    const uint64_t d = da - da_base(st, e);
    e->da = st->prev_daddr = da;
    return pmu_zigzag(d);
}

/* 1 when slot s is the cached one but for the fields a copy patches in. */
static int same_slot(const ita_slot *cached, const ita_slot *s)
{
    return cached->ip == s->ip && cached->enc == s->enc && cached->target == s->target &&
           cached->flags == s->flags && cached->slot == s->slot && cached->unit == s->unit;
}

/* ---- encoding ------------------------------------------------------------------ */
/* The writer's hash of a record's slots, which picks its group (the reader is told the
 * index). */
static uint64_t group_hash(const ita_cycle *c)
{
    const uint64_t k = UINT64_C(0x9e3779b97f4a7c15);
    uint64_t h = c->nslots;
    for (unsigned i = 0; i < c->nslots; i++) {
        const ita_slot *s = &c->slot[i];
        h = (h ^ s->ip) * k;
        h = (h ^ s->enc) * k;
        h = (h ^ s->target) * k;
        h = (h ^ (s->flags | (uint64_t)s->slot << 16 | (uint64_t)s->unit << 24)) * k;
    }
    return h ^ h >> 29;
}

static int group_holds(const ita_group *gr, const ita_cycle *c)
{
    if (gr->nslots != c->nslots)
        return 0;
    for (unsigned i = 0; i < c->nslots; i++)
        if (!same_slot(&gr->slot[i], &c->slot[i]))
            return 0;
    return 1;
}

enum { GROUP_NONE, GROUP_REF, GROUP_DEF };

/* What record c is sent as: a reference to its group, the group's definition (the second
 * time the writer sees the slots at that index: slots seen once are likely not to recur),
 * or a record of its own.  *g: the group. */
static int group_choice(ita_state *st, const ita_cycle *c, unsigned *g)
{
    if (c->nslots == 0 || c->nslots > ITA_MAX_SLOTS)
        return GROUP_NONE;
    const uint64_t h = group_hash(c);
    *g = (unsigned)(h & (ITA_GROUPS - 1u));
    ita_group *gr = &st->group[*g];
    if (group_holds(gr, c))
        return GROUP_REF;
    if (st->group_seen[*g] == h)
        return GROUP_DEF;
    st->group_seen[*g] = h;
    return GROUP_NONE;
}

/* The slots of a reference to group g: each load or store's data address and its
 * latency and TLB outcome. */
static size_t encode_group_ref(ita_state *st, const ita_cycle *c, unsigned g, uint8_t *out)
{
    const ita_group *gr = &st->group[g];
    size_t n = 0;
    for (unsigned i = 0; i < c->nslots; i++) {
        const ita_slot *s = &c->slot[i];
        if (!(gr->mem >> i & 1u))
            continue;
        n += pmu_put_varint(out + n, da_delta(st, &st->cache[gr->entry[i]], s->daddr));
        n += pmu_put_varint(out + n, (uint64_t)s->lat << 2 | (s->tlb & 3u));
    }
    st->prev_ip = c->slot[c->nslots - 1].ip;
    st->prev_entry = gr->entry[c->nslots - 1];
    return n;
}

size_t ita_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out)
{
    ita_state *st = state;
    const ita_cycle *c = rec;
    size_t n = 1;
    unsigned g = 0;
    const int grp = group_choice(st, c, &g);
    uint8_t head = (uint8_t)(grp == GROUP_NONE ? c->nslots & HEAD_NSLOTS_MASK : HEAD_GROUP);
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
        for (unsigned i = 0; i < c->nxev && i < ITA_MAX_XEV; i++) {
            n += pmu_put_varint(out + n, c->xev[i].id);
            out[n++] = c->xev[i].count;
            out[n++] = c->xev[i].slot;
        }
    }
    out[0] = head;
    if (grp != GROUP_NONE) {
        const unsigned field = g << GROUP_INDEX_SHIFT | (grp == GROUP_DEF ? c->nslots : 0u);
        out[n++] = (uint8_t)field;
        out[n++] = (uint8_t)(field >> 8);
    }
    if (grp == GROUP_REF)
        return n + encode_group_ref(st, c, g, out + n);

    uint16_t entry[ITA_MAX_SLOTS];
    for (unsigned i = 0; i < c->nslots && i < ITA_MAX_SLOTS; i++) {
        const ita_slot *s = &c->slot[i];
        const unsigned next = st->cache[st->prev_entry].next;
        const int mem = ITA_SLOT_GET(s, LOAD) || ITA_SLOT_GET(s, STORE);
        const int ext = s->lat || s->tlb;
        size_t sh_at = n++;
        unsigned idx, sh;
        if (next && same_slot(&st->cache[next - 1u].s, s)) {
            idx = next - 1u;
            sh = SH_NEXT;
            if (mem)
                n += pmu_put_varint(out + n, da_delta(st, &st->cache[idx], s->daddr));
        } else {
            idx = ita_slot_index(s->ip, s->slot);
            const ita_slot_entry *e = &st->cache[idx];
            unsigned mode = ENC_NONE;
            n += pmu_put_varint(out + n, s->flags);
            n += pmu_put_varint(out + n, pmu_zigzag(s->ip - st->prev_ip));
            if (s->enc) {
                if (e->counts && e->s.ip == s->ip && e->s.slot == s->slot && e->s.enc == s->enc) {
                    mode = ENC_CACHED;
                } else {
                    mode = ENC_EXPLICIT;
                    n += pmu_put_varint(out + n, s->enc);
                }
            }
            if (mem)
                n += pmu_put_varint(out + n, da_delta(st, &st->cache[idx], s->daddr));
            if (ITA_SLOT_GET(s, BR_TYPE))
                n += pmu_put_varint(out + n, pmu_zigzag(s->target - s->ip));
            enter_slot(st, idx, s, c->is == 0);
            st->cache[st->prev_entry].next = (uint16_t)(idx + 1u);
            sh = (s->unit & 3u) | (s->slot & 3u) << 2 | mode << SH_ENC_SHIFT;
        }
        if (ext)
            n += pmu_put_varint(out + n, (uint64_t)s->lat << 2 | (s->tlb & 3u));
        out[sh_at] = (uint8_t)(sh | (ext ? SH_EXT : 0u));
        st->prev_ip = s->ip;
        st->prev_entry = idx;
        entry[i] = (uint16_t)idx;
    }
    if (grp == GROUP_DEF)
        enter_group(st, g, c, entry);
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
 * (decode_xev refuses more than ITA_MAX_XEV before reading them). */
#define VARINT_MAX 10u
#define SLOT_MAX_READ (1u + 6u * VARINT_MAX) /* head, flags, ip, enc, da, tgt, lat */
#define MAX_READ                                                                            \
    (1u + 2u + 2u * VARINT_MAX + 2u * VARINT_MAX + 1u + ITA_MAX_XEV * (VARINT_MAX + 2u) +    \
     2u + ITA_MAX_SLOTS * SLOT_MAX_READ) /* head, ctl, pid + repeat, fetch, xev, group, slots */

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

/* A 2-byte little-endian field of the record's own part. */
DECODE_INLINE int get_u16(ita_in *in, const char *field, unsigned *out)
{
    if (!in->d) {
        *out = (unsigned)in->p[0] | (unsigned)in->p[1] << 8;
        in->p += 2;
        return 0;
    }
    uint8_t lo, hi;
    in->d->slot = 0;
    if (pmu_decode_byte(in->d, field, &lo) || pmu_decode_byte(in->d, field, &hi))
        return -1;
    *out = (unsigned)lo | (unsigned)hi << 8;
    return 0;
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
DECODE_INLINE int decode_fetch(ita_in *in, ita_cycle *c)
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
DECODE_INLINE int decode_xev(ita_in *in, ita_cycle *c)
{
    uint64_t id;
    if (get_byte(in, "ev", 0, &c->nxev))
        return -1;
    if (c->nxev == 0 || c->nxev > ITA_MAX_XEV)
        return pmu_dialect_errf(in->err, in->where, "field 'ev': %u general events, expected 1..%u",
                                c->nxev, ITA_MAX_XEV);
    for (unsigned i = 0; i < c->nxev; i++) {
        ita_xev *x = &c->xev[i];
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

/* The head byte (already read), the control bytes, the pid, the repeat count, the fetch
 * and the general events. */
DECODE_INLINE int decode_cycle(ita_in *in, uint8_t head, const ita_state *st, ita_cycle *c,
                               uint64_t *repeat)
{
    c->cpl = st->sticky.cpl;
    c->is = st->sticky.is;
    c->power = st->sticky.power;
    c->pid = st->sticky.pid;
    *repeat = 1;
    if (!(head & ~HEAD_NSLOTS_MASK)) /* most records: slots alone */
        return 0;
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
        if (c->intr > ITA_INTR_RETURN)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'intr': %u, expected none, entry or return", c->intr);
        c->up_we = c1 & 1u;
        c->up = (c1 >> 1) & 1u;
        c->pp_we = (c1 >> 2) & 1u;
        c->pp = (c1 >> 3) & 1u;
        c->recirc = (c1 >> 4) & 7u;
    }
    if (head & HEAD_PID) {
        uint64_t v;
        if (get_varint(in, "pid", 0, &v))
            return -1;
        if (v > UINT16_MAX)
            return pmu_dialect_errf(in->err, in->where, "field 'pid': %llu, expected 0..65535",
                                    (unsigned long long)v);
        c->pid = (uint16_t)v;
    }
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

/* The encoding of slot n at ip (syllable s->slot), whose cache entry is e: none (mode 0),
 * explicit or the cached one. */
DECODE_INLINE int decode_enc(ita_in *in, const ita_slot_entry *e, unsigned mode, uint64_t ip,
                             ita_slot *s, unsigned n)
{
    if (mode == ENC_EXPLICIT) {
        uint64_t enc;
        if (get_varint(in, "enc", n, &enc))
            return -1;
        if (enc == 0)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'enc': slot %u explicit encoding 0, expected mode 0", n);
        s->enc = enc;
    } else if (mode == ENC_CACHED) {
        if (!e->counts || e->s.ip != ip || e->s.slot != s->slot || e->s.enc == 0)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'enc': slot %u refers to an earlier encoding at ip "
                                    "0x%llx s=%u, but none was sent",
                                    n, (unsigned long long)ip, s->slot);
        s->enc = e->s.enc;
    }
    return 0;
}

/* The data address of slot s (number n), a load or store of cache entry e. */
DECODE_INLINE int decode_da(ita_in *in, ita_state *st, ita_slot_entry *e, ita_slot *s, unsigned n)
{
    uint64_t v;
    if (get_varint(in, "da", n, &v))
        return -1;
    s->daddr = e->da = st->prev_daddr = da_base(st, e) + pmu_unzigzag(v);
    return 0;
}

/* A slot sent as the one that followed the previous slot (SH_NEXT): the copy of that cache
 * entry, whose index goes to *idx. */
DECODE_INLINE int decode_next(ita_in *in, const ita_state *st, uint8_t sh, unsigned *idx,
                              ita_slot *s, unsigned n)
{
    if (sh & ~(SH_NEXT | SH_EXT))
        return pmu_dialect_errf(in->err, in->where,
                                "field 'slot': slot %u is sent as the slot that came next (bit 7) "
                                "with reserved bits set (0x%02x)",
                                n, sh);
    const ita_slot_entry *prev = &st->cache[*idx];
    if (__builtin_expect(prev->next == 0, 0)) {
        if (*idx == ITA_SLOT_CACHE)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'slot': slot %u is sent as the slot that came next "
                                    "after the previous one, but no slot was sent before it",
                                    n);
        return pmu_dialect_errf(in->err, in->where,
                                "field 'slot': slot %u is sent as the slot that came next after "
                                "ip 0x%llx s=%u, but none was sent after that one",
                                n, (unsigned long long)prev->s.ip, prev->s.slot);
    }
    *idx = prev->next - 1u;
    *s = st->cache[*idx].s;
    return 0;
}

/* Slot n (from 1).  The ip delta runs in *ip (the state's prev_ip, kept in a register for
 * the record), the previous slot's cache entry in *idx.  The slot's rules are checked into
 * *k, but for those its form rules out: a data address only comes with a load or a store, a
 * target only with a branch, and the unit and TLB outcome are two bits wide. */
DECODE_INLINE int decode_slot(ita_in *in, ita_state *st, uint64_t *ip, unsigned *idx, ita_slot *s,
                              unsigned n, int ia64, ita_check *k)
{
    uint8_t sh;
    uint64_t v;
    if (get_byte(in, "slot", n, &sh))
        return -1;
    if (sh & SH_NEXT) {
        if (decode_next(in, st, sh, idx, s, n))
            return -1;
        const ita_slot_entry *e = &st->cache[*idx];
        k->counts += e->counts;
        k->bad |= e->refuse[ia64];
        *ip = s->ip;
        if (s->flags & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK) &&
            decode_da(in, st, &st->cache[*idx], s, n))
            return -1;
    } else {
        s->unit = sh & 3u;
        s->slot = (sh >> 2) & 3u;
        const unsigned mode = (sh >> SH_ENC_SHIFT) & 3u;
        if (mode > ENC_CACHED)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'enc': slot %u encoding mode 3 is reserved", n);
        if (get_varint(in, "flags", n, &v))
            return -1;
        if (__builtin_expect(v > UINT16_MAX, 0))
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'flags': slot %u flags 0x%llx wider than 16 bits", n,
                                    (unsigned long long)v);
        s->flags = (uint16_t)v;
        if (get_varint(in, "ip", n, &v))
            return -1;
        *ip += pmu_unzigzag(v);
        s->ip = *ip;
        const unsigned at = ita_slot_index(*ip, s->slot);
        if (decode_enc(in, &st->cache[at], mode, *ip, s, n))
            return -1;
        if (s->flags & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK) &&
            decode_da(in, st, &st->cache[at], s, n))
            return -1;
        if (s->flags & ITA_SF_BR_TYPE_MASK) {
            if (get_varint(in, "tgt", n, &v))
                return -1;
            s->target = *ip + pmu_unzigzag(v);
        }
        const ita_slot_entry *e = enter_slot(st, at, s, ia64);
        k->counts += e->counts;
        k->bad |= e->refuse[ia64];
        st->cache[*idx].next = (uint16_t)(at + 1u);
        *idx = at;
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
        if (!(s->flags & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK)))
            k->zero |= v; /* a latency or TLB outcome without a load or store */
    }
    return 0;
}

_Static_assert(sizeof(((ita_group *)0)->slot) == sizeof(ita_cycle) - ITA_SLOTS_AT &&
                   offsetof(ita_group, slot) == 0,
               "a group's slots are a record's");

/* A reference to group gr (index g): its slots copied, each load or store's data address
 * and latency patched in. */
DECODE_INLINE int decode_group_ref(ita_in *in, ita_state *st, const ita_group *gr, unsigned g,
                                   ita_cycle *c)
{
    if (__builtin_expect(gr->nslots == 0, 0))
        return pmu_dialect_errf(in->err, in->where,
                                "field 'group': the record refers to group %u, but none was sent",
                                g);
    const unsigned char *from = (const unsigned char *)gr->slot;
    unsigned char *to = (unsigned char *)c->slot;
#pragma GCC unroll 16
    for (size_t i = 0; i < sizeof c->slot; i += 16)
        *(ita_v16 *)(to + i) = *(const ita_v16 *)(from + i);
    c->nslots = gr->nslots;
    for (unsigned m = gr->mem; m; m &= m - 1u) {
        const unsigned i = (unsigned)__builtin_ctz(m);
        ita_slot *s = &c->slot[i];
        uint64_t v;
        if (decode_da(in, st, &st->cache[gr->entry[i]], s, i + 1) ||
            get_varint(in, "lat", i + 1, &v))
            return -1;
        if ((v >> 2) > UINT16_MAX)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'lat': slot %u latency %llu, expected 0..65535", i + 1,
                                    (unsigned long long)(v >> 2));
        s->lat = (uint16_t)(v >> 2);
        s->tlb = (uint8_t)(v & 3u);
    }
    return 0;
}

/* The end of a decoded record: the sticky values advance, and a record the fast test
 * cannot pass (bad set, or the rules of the record's own fields may refuse it) goes to the
 * rules one by one, which write the message.  The fields cpl .. pp, if_tlb and if_rab are
 * within their ranges here: their bits are as wide as their ranges, or decode_cycle checked
 * them.  Without control bytes, a fetch and general events, what the record's own rules
 * read is 0 but the (sticky) power. */
DECODE_INLINE int finish_record(ita_in *in, uint8_t head, ita_state *st, const ita_cycle *c,
                                unsigned bad)
{
    st->sticky.cpl = c->cpl;
    st->sticky.is = c->is;
    st->sticky.power = c->power;
    st->sticky.pid = c->pid;
    if (head & (HEAD_CTL | HEAD_FETCH | HEAD_XEV))
        bad |= ita_fast_record(c);
    else
        bad |= c->nslots != 0 && c->power >= ITA_POWER_LIGHT_HALT;
    if (__builtin_expect(bad != 0, 0))
        return ita_cycle_validate_by_rule(c, in->where, in->err) ? -1 : 1;
    return 1;
}

/* After the record's own fields, a reference to group g. */
DECODE_INLINE int decode_ref(ita_in *in, uint8_t head, unsigned g, ita_state *st, ita_cycle *c)
{
    const ita_group *gr = &st->group[g];
    if (decode_group_ref(in, st, gr, g, c))
        return -1;
    st->prev_ip = gr->slot[gr->nslots - 1u].ip;
    st->prev_entry = gr->entry[gr->nslots - 1u];
    return finish_record(in, head, st, c, gr->refuse[c->is == 0]);
}

/* A record whose head byte has been read, decoded and validated (common/pmu_dialect.h): the fast
 * test runs as the fields are decoded, or comes with the group a record refers to.  The
 * deltas a slot decoded advance the state even when a later slot fails (the reader stops
 * at the first error); the sticky values advance only with a record that decoded
 * completely. */
DECODE_INLINE int decode_record(ita_in *in, uint8_t head, ita_state *st, ita_cycle *c, uint64_t *repeat)
{
    ita_clear_bytes(c, 0, ITA_SLOTS_AT);
    if (decode_cycle(in, head, st, c, repeat))
        return -1;
    uint64_t ip = st->prev_ip;
    unsigned idx = st->prev_entry;
    const int ia64 = c->is == 0;
    /* nslots in a local: the stores to the slots could alias c->nslots, so the loop would
     * load it again on every pass */
    unsigned nslots = head & HEAD_NSLOTS_MASK, define = ITA_GROUPS;
    if (nslots == HEAD_GROUP) {
        unsigned v;
        if (get_u16(in, "group", &v))
            return -1;
        if (v & GROUP_RESERVED)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'group': reserved bits 15:13 set (0x%04x)", v);
        nslots = v & GROUP_SLOTS_MASK;
        if (nslots > ITA_MAX_SLOTS)
            return pmu_dialect_errf(in->err, in->where,
                                    "field 'group': a group of %u slots, expected at most %u",
                                    nslots, ITA_MAX_SLOTS);
        const unsigned g = v >> GROUP_INDEX_SHIFT;
        if (nslots == 0)
            return decode_ref(in, head, g, st, c);
        define = g;
    }
    ita_clear_bytes(c, ITA_SLOTS_AT, sizeof *c);
    c->nslots = (uint8_t)nslots;
    int rc = 1;
    ita_check k = {0, 0, 0};
    uint16_t entry[ITA_MAX_SLOTS];
    for (unsigned i = 0; i < nslots; i++) {
        if (decode_slot(in, st, &ip, &idx, &c->slot[i], i + 1, ia64, &k)) {
            rc = -1;
            break;
        }
        entry[i] = (uint16_t)idx;
    }
    st->prev_ip = ip;
    st->prev_entry = idx;
    if (rc < 0)
        return -1;
    if (define < ITA_GROUPS)
        enter_group(st, define, c, entry);
    return finish_record(in, head, st, c,
                         k.bad | (k.zero != 0) | !ita_fast_counts_ok(k.counts));
}

/* The two sources, each compiled with its own copy of decode_record, out of line (in one
 * function, the source would be tested at every field). */
static __attribute__((noinline)) int decode_in_place(pmu_byte_window *w, const char *where,
                                                     ita_state *st, ita_cycle *c,
                                                     uint64_t *repeat, pmu_err *err)
{
    ita_in in = {w->p + 1, NULL, where, err};
    const int rc = decode_record(&in, w->p[0], st, c, repeat);
    w->p = in.p;
    return rc;
}

static __attribute__((noinline)) int decode_bytes(pmu_getc_fn get, void *ctx, const char *where,
                                                  ita_state *st, ita_cycle *c, uint64_t *repeat,
                                                  pmu_err *err)
{
    pmu_decoder d;
    uint8_t head = 0;
    if (!pmu_decode_head(get, ctx, where, err, &d, &head))
        return 0;
    ita_in in = {NULL, &d, where, err};
    return decode_record(&in, head, st, c, repeat);
}

/* The most common record of a loop, a reference to a group and nothing else (in place),
 * decoded here with none of the rest of decode_record in the way (its registers, its
 * tests): the same steps as decode_record takes for it. */
static __attribute__((noinline)) int decode_plain_ref(pmu_byte_window *w, const char *where,
                                                      ita_state *st, ita_cycle *c,
                                                      uint64_t *repeat, pmu_err *err)
{
    const unsigned v = (unsigned)w->p[1] | (unsigned)w->p[2] << 8;
    ita_in in = {w->p + 3, NULL, where, err};
    ita_clear_bytes(c, 0, ITA_SLOTS_AT);
    if (decode_cycle(&in, HEAD_GROUP, st, c, repeat))
        return -1;
    const int rc = decode_ref(&in, HEAD_GROUP, v >> GROUP_INDEX_SHIFT, st, c);
    w->p = in.p;
    return rc;
}

/* A record in which nothing retires and nothing happens but, perhaps, a repeat count
 * (head, a constant: 0 or HEAD_REPEAT), as frequent as stalls: the steps decode_record takes
 * for it.  The sticky fields stay, and no rule can refuse it. */
static __attribute__((noinline)) int decode_idle(pmu_byte_window *w, uint8_t head,
                                                 const char *where, ita_state *st, ita_cycle *c,
                                                 uint64_t *repeat, pmu_err *err)
{
    ita_in in = {w->p + 1, NULL, where, err};
    ita_clear_bytes(c, 0, sizeof *c);
    if (decode_cycle(&in, head, st, c, repeat))
        return -1;
    w->p = in.p;
    return 1;
}

/* A dispatch only: each kind of record is decoded out of line, so that none pays for the
 * registers the others use (saved and restored on every call when they were in line). */
int ita_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
               uint64_t *repeat, pmu_err *err)
{
    if (get == pmu_window_getc) {
        pmu_byte_window *w = ctx;
        if (w->p && w->end - w->p >= (ptrdiff_t)MAX_READ) {
            const uint8_t head = w->p[0];
            if (head == HEAD_GROUP && !(w->p[1] & GROUP_SLOTS_MASK) &&
                !(w->p[2] & (GROUP_RESERVED >> 8)))
                return decode_plain_ref(w, where, state, rec, repeat, err);
            if (head == 0)
                return decode_idle(w, 0, where, state, rec, repeat, err);
            if (head == HEAD_REPEAT)
                return decode_idle(w, HEAD_REPEAT, where, state, rec, repeat, err);
            return decode_in_place(w, where, state, rec, repeat, err);
        }
    }
    return decode_bytes(get, ctx, where, state, rec, repeat, err);
}
