/*
 * ita_stream.h - the Itanium cycle-record dialect (ita_dialect): the functions
 * ita_dialect.c puts into the descriptor, and what its files share.  Not a public
 * interface: generic code reaches them through include/common/pmu_dialect.h.
 *
 *   ita_text.c      the text form of a record (docs/ita-stream-format.md, "The text form")
 *   ita_binary.c    the binary form of a record ("The binary form")
 *   ita_validate.c  the rules every record obeys ("Validation")
 *   ita_gen*.c      the generator ("The generator"; ita_gen.h)
 *
 * The text keys of the slot flags, their positions and widths all come from
 * include/common/ita/ita_regs.def; nothing here retypes them.
 */
#ifndef ITA_STREAM_H
#define ITA_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "common/ita/ita_cycle.h"
#include "common/ita/ita_regs.h"
#include "common/pmu_dialect.h"

/* ---- slot flags, expanded from the .def ---------------------------------- */
typedef struct sf_key {
    const char *key;  /* text key, e.g. "l1d_miss" */
    const char *name; /* .def name, e.g. "L1D_MISS" */
    unsigned lsb, width;
    uint16_t mask;    /* in place */
} sf_key;
extern const sf_key ita_sf_keys[];
extern const unsigned ita_sf_nkeys;
/* Every bit some ITA_SLOT_FLAG defines. */
uint16_t ita_sf_defined_mask(void);

/* Names of enumerated values, indexed by value. */
extern const char *const ita_is_names[2];
extern const char *const ita_power_names[4];
extern const char *const ita_intr_names[3];
extern const char ita_unit_letters[4];

/* ---- general events (ita_validate.c) ---------------------------------------------- */
/* The row that decides how a stream may use event id `id` (either model's row when it is
 * modelled or not a counter event, else the Itanium 2 row, else the Itanium one); NULL for
 * an unused id.  A general event's row is TYPE NORMAL with KIND NONE. */
const ita_event_row *ita_xev_row(unsigned id);
static inline int ita_xev_general(const ita_event_row *r)
{
    return r && r->type == ITA_EVT_NORMAL && r->kind == ITA_KIND_NONE;
}

/* ---- the coding state of one stream ---------------------------------------- */
/* The sticky cycle fields; a stream starts with cpl=3 is=ia64 power=normal pid=0. */
typedef struct ita_sticky {
    uint8_t cpl, is, power;
    uint16_t pid;
} ita_sticky;
void ita_sticky_init(ita_sticky *s);

/* Clears bytes [from, to) of a record with 16-byte stores: GCC expands memset of the
 * 288-byte record as rep stosq, an instruction per 8 bytes (about 45 a record).  The vector
 * type's may_alias lets it store into the struct; its alignment of 8 is the record's.  The
 * decoder and the generator clear every record they make. */
typedef unsigned char ita_v16 __attribute__((vector_size(16), may_alias, aligned(8)));
#define ITA_SLOTS_AT offsetof(ita_cycle, slot)
_Static_assert(sizeof(ita_cycle) % 16 == 0 && ITA_SLOTS_AT % 16 == 0 && _Alignof(ita_cycle) >= 8,
               "records are cleared and copied 16 bytes at a time at 8-byte alignment");

static inline __attribute__((always_inline)) void ita_clear_bytes(ita_cycle *c, size_t from,
                                                                  size_t to)
{
    unsigned char *p = (unsigned char *)c;
    const ita_v16 zero = {0};
#pragma GCC unroll 32
    for (size_t i = from; i < to; i += 16)
        *(ita_v16 *)(p + i) = zero;
}

#define ITA_SLOT_CACHE 4096u
#define ITA_MAX_ENCODED 384u /* no encoded record is longer (16 + 23 fetch + 1 + 4 x 5 general
                                * events + 2 group + 6 slots x 47 bytes) */

/* One entry of the binary form's slot cache (docs/ita-stream-format.md, "Delta state"): the
 * last slot sent in full whose ip and syllable map to it, as the decoder stores it into a
 * record, so that a slot sent as "the one that followed last time" is a copy of `s` with
 * its data address, latency and TLB outcome patched in.  The fast validation of the slot's
 * own fields (ita_fast.h) is kept with it: those fields never change in a copy. */
typedef struct ita_slot_entry {
    ita_slot s;        /* daddr, lat, tlb and pad 0 */
    uint64_t da;       /* the data address of the last load or store of this entry (0: none yet) */
    uint32_t counts;   /* the flags' memo entry (ita_fast.h); 0 while the entry was never sent */
    uint16_t next;     /* 1 + the entry of the slot that came after this one; 0: none yet */
    uint8_t refuse[2]; /* nonzero when a rule may refuse the slot: [0] IA-32, [1] IA-64 cycles */
} ita_slot_entry;

/* One entry of the binary form's group table: the slots of a record sent as a group, so
 * that a record with the same slots (but for their data addresses, latencies and TLB
 * outcomes) is a reference to it; the decoder copies all six slots at once.  The fast
 * validation of those slots, multiplicities included, is kept with it. */
#define ITA_GROUPS 1024u
typedef struct ita_group {
    ita_slot slot[ITA_MAX_SLOTS]; /* daddr, lat, tlb and pad 0; unused slots all 0 */
    uint16_t entry[ITA_MAX_SLOTS]; /* the slot-cache entry of each slot */
    uint8_t nslots;               /* 0: never sent */
    uint8_t mem;                  /* bit i: slot i has a load or a store */
    uint8_t refuse[2];            /* nonzero when a rule may refuse the slots: [0] IA-32, [1] IA-64 */
} ita_group;

/* What the writer and the reader of one stream keep in step: the sticky fields (both
 * forms) and the binary form's deltas, slot cache and groups.  Entry ITA_SLOT_CACHE stands
 * for "before the first slot": only its `next` is ever written. */
typedef struct ita_state {
    ita_sticky sticky;
    uint64_t prev_ip, prev_daddr; /* prev_daddr: the data address of the last load or store */
    unsigned prev_entry; /* the entry of the previous slot */
    ita_slot_entry cache[ITA_SLOT_CACHE + 1];
    ita_group group[ITA_GROUPS];
    uint64_t group_seen[ITA_GROUPS]; /* the writer's: the hash of the last record it saw there */
} ita_state;
void ita_state_init(void *state);
/* The slot-cache entry of a slot (docs/ita-stream-format.md, "Delta state"). */
unsigned ita_slot_index(uint64_t ip, unsigned slot);

/* ---- the dialect's functions (include/common/pmu_dialect.h says what each does) ---------- */
int ita_parse_line(void *state, const char *line, size_t len, const char *where, void *rec,
                   pmu_err *err);
size_t ita_format_line(void *state, const void *rec, char *buf, size_t size);
size_t ita_format(const void *rec, char *buf, size_t size);
size_t ita_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out);
int ita_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
               uint64_t *repeat, pmu_err *err);
int ita_validate(const void *rec, const char *where, pmu_err *err);
void ita_canon(const void *in, void *out);
int ita_equal(const void *a, const void *b);

void *ita_gen_create(const pmu_gen_opts *o, pmu_err *err);
int ita_gen_next(void *gen, void *rec);
unsigned ita_gen_nfuncs(const void *gen);
int ita_gen_func(const void *gen, unsigned i, uint64_t *start, uint64_t *end, const char **name);
void ita_gen_destroy(void *gen);

/* The timing model of real programs (ita_timing.c; docs/real-programs-ita.md). */
extern const struct pmu_timing_ops ita_timing;

#endif
