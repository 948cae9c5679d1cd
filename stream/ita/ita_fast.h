/*
 * ita_fast.h - the pieces of the fast validation (ita_validate.c, ita_cycle_passes_fast)
 * that the binary decoder (ita_binary.c) runs as well, so that it can check a record
 * while it decodes it instead of in a second pass over the record.  C only (atomics).
 *
 * The fast test only says "no rule can refuse the record"; when it cannot say so, the
 * rules run one by one (ita_cycle_validate_by_rule) and write the message.  It may send a
 * valid record to the rules, but it never passes a record that a rule refuses.
 */
#ifndef ITA_FAST_H
#define ITA_FAST_H

#include <stdatomic.h>
#include <stdint.h>

#include "ita_stream.h"

/* Every bit some ITA_SLOT_FLAG defines, as a constant. */
enum {
    ITA_SF_DEFINED = 0
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc) | ITA_SF_##name##_MASK
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
};
_Static_assert((ITA_SF_DEFINED & (ITA_SF_DEFINED + 1)) == 0, "the defined slot flags are bits 0..k");

#define ITA_FAST_INLINE static inline __attribute__((always_inline))

/* What depends on a slot's flags alone is looked up by flags value: whether the flags
 * break a rule of check_slot(), and the slot's share of each multiplicity rule (a count
 * per nibble), worked out the first time a value is seen. */
#define ITA_FLAGS_KNOWN 0x80000000u  /* the entry has been worked out */
#define ITA_FLAGS_BROKEN 0x40000000u /* the flags break a rule of check_slot() */
#define ITA_NIBBLE_TOPS 0x08888888u  /* bit 3 of each rule's count */
extern _Atomic uint32_t ita_flags_memo[ITA_SF_DEFINED + 1];
uint32_t ita_flags_entry_work(unsigned f);
/* Added to the slots' summed counts, each rule's nibble reaches 8 exactly when its count
 * is above the event's maxincr; ITA_FLAGS_KNOWN set once worked out. */
extern _Atomic uint32_t ita_multiplicity_memo;
uint32_t ita_multiplicity_work(void);

/* The value alone decides an entry, so two threads that work out the same entry store the
 * same word (hence relaxed atomics, plain loads on the hosts we run). */
ITA_FAST_INLINE uint32_t ita_flags_entry(unsigned f)
{
    uint32_t e = atomic_load_explicit(&ita_flags_memo[f], memory_order_relaxed);
    if (__builtin_expect(e == 0, 0))
        e = ita_flags_entry_work(f);
    return e;
}

/* A slot's flags f: their entry into the counts and the broken bit.  The bits above
 * ITA_SF_DEFINED (undefined flags) are the caller's to refuse. */
ITA_FAST_INLINE void ita_fast_flags(unsigned f, uint32_t *counts, unsigned *bad)
{
    const uint32_t e = ita_flags_entry(f & ITA_SF_DEFINED);
    *counts += e;
    *bad |= e & ITA_FLAGS_BROKEN;
}

/* The rules of a slot that depend on the instruction set (its ip, encoding and syllable,
 * and a branch's unit; f its flags): nonzero when one may be broken. */
ITA_FAST_INLINE uint64_t ita_fast_isa(int ia64, uint64_t ip, uint64_t enc, unsigned syllable,
                                      unsigned unit, unsigned f)
{
    if (ia64)
        return (ip & 15u) | (enc >> 41) | (syllable > 2) |
               ((f & ITA_SF_BR_TYPE_MASK) != 0 && unit != ITA_UNIT_B);
    return syllable | enc;
}

/* 1 when the slots' summed counts stay within every multiplicity rule. */
ITA_FAST_INLINE int ita_fast_counts_ok(uint32_t counts)
{
    uint32_t b = atomic_load_explicit(&ita_multiplicity_memo, memory_order_relaxed);
    if (__builtin_expect(b == 0, 0))
        b = ita_multiplicity_work();
    return ((counts + (b & ~ITA_FLAGS_KNOWN)) & ITA_NIBBLE_TOPS) == 0;
}

/* 1 when no rule of check_xev can refuse the record's general events. */
int ita_xev_passes_fast(const ita_cycle *c);

/* The record's own rules that the binary form does not rule out by its widths (the
 * PSR writes, recirc, slots in a halt state, the fetch, the general events): nonzero
 * when one may be broken. */
ITA_FAST_INLINE unsigned ita_fast_record(const ita_cycle *c)
{
    const unsigned recirc_max = ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr;
    return (c->up & !c->up_we) | (c->pp & !c->pp_we) | (c->recirc > recirc_max) |
           (c->nslots != 0 && c->power >= ITA_POWER_LIGHT_HALT) |
           (c->if_addr != 0 && (c->if_lat | c->if_tlb | c->if_rab) == 0) |
           (c->nxev != 0 && !ita_xev_passes_fast(c));
}

#endif
