/*
 * ita_cycle.h - one cycle record: what the "CPU" presents to the PMU in one
 * clock.  Shared by the stream reader/writer, the generator, the reference
 * model and the RTL shim.  docs/ita-stream-format.md describes the text and
 * binary forms.
 */
#ifndef ITA_CYCLE_H
#define ITA_CYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ITA_MAX_SLOTS 6 /* two bundles of three syllables retire per cycle */
#define ITA_MAX_XEV 4   /* general events per cycle (docs/ita-stream-format.md) */
#define ITA_XEV_NO_SLOT 0xffu /* a general event not attributed to a slot */

/* Slot flag bit positions and widths, from include/common/ita/ita_regs.def. */
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc)                         \
    ITA_SF_##name##_LSB = (lsb), ITA_SF_##name##_MSB = (msb),            \
    ITA_SF_##name##_MASK = (int)((((1u << ((msb) - (lsb) + 1)) - 1u)) << (lsb)),
enum ita_slot_flag_bits {
#include "ita_regs.def"
    ITA_SF_WIDTH = 16
};
#undef ITA_SLOT_FLAG

/* Execution unit of a slot (the opcode matchers enable per unit type). */
enum ita_unit { ITA_UNIT_M = 0, ITA_UNIT_I = 1, ITA_UNIT_F = 2, ITA_UNIT_B = 3 };

/* Processor power state (only NORMAL and LOW_POWER count cycles and
 * retired instructions; no instruction retires in the halt states). */
enum ita_power {
    ITA_POWER_NORMAL = 0,
    ITA_POWER_LOW_POWER = 1,
    ITA_POWER_LIGHT_HALT = 2,
    ITA_POWER_HALT = 3
};

/* Interruption activity in this cycle. */
enum ita_intr {
    ITA_INTR_NONE = 0,
    ITA_INTR_ENTRY = 1,  /* interruption delivered: IPSR <- PSR, PSR.pp <- DCR.pp */
    ITA_INTR_RETURN = 2  /* rfi: PSR.up/pp <- IPSR.up/pp */
};

typedef struct ita_slot {
    uint64_t ip;      /* bundle address (16-byte aligned) for IA-64; byte address for IA-32 */
    uint64_t enc;     /* 41-bit instruction encoding (IA-64 only) */
    uint64_t daddr;   /* data address of a load or store */
    uint64_t target;  /* branch target (for the BTB) */
    uint16_t flags;   /* ITA_SF_* */
    uint16_t lat;     /* memory latency in cycles (for the EARs) */
    uint8_t  slot;    /* syllable within the bundle, 0..2 (0 for IA-32) */
    uint8_t  unit;    /* enum ita_unit */
    uint8_t  tlb;     /* TLB outcome for the EARs: 0 L1 hit, 1 L2 TLB, 2 VHPT, 3 fault */
    uint8_t  pad;
} ita_slot;

/* A general event: any event of the family's tables by its stream event id
 * (include/common/ita/ita_events.h), `count` occurrences in this cycle, attributed to slot
 * `slot` (then qualified like that instruction) or to none (ITA_XEV_NO_SLOT). */
typedef struct ita_xev {
    uint16_t id;
    uint8_t  count;  /* 1..the event's maxincr */
    uint8_t  slot;   /* 0..nslots-1, or ITA_XEV_NO_SLOT */
} ita_xev;

/* TLB outcome of an access or a fetch (ita_slot.tlb, ita_cycle.if_tlb). */
enum ita_tlb { ITA_TLB_L1 = 0, ITA_TLB_L2 = 1, ITA_TLB_VHPT = 2, ITA_TLB_FAULT = 3 };

typedef struct ita_cycle {
    uint8_t  cpl;      /* current privilege level 0..3 (PSR.cpl) */
    uint8_t  is;       /* PSR.is: 0 IA-64, 1 IA-32 */
    uint8_t  power;    /* enum ita_power */
    uint8_t  intr;     /* enum ita_intr */
    uint8_t  up_we;    /* 1: this cycle writes PSR.up (sum/rum) with up */
    uint8_t  up;
    uint8_t  pp_we;    /* 1: this cycle writes PSR.pp (ssm/rsm) with pp */
    uint8_t  pp;
    uint8_t  recirc;   /* L2 forced recirculations this cycle, 0..4 (not per instruction) */
    uint8_t  nslots;   /* retired slots in slot[0..nslots-1] */
    uint16_t pid;      /* process id (bookkeeping for software; the PMU ignores it) */
    /* The instruction fetch that completed in this cycle, for the I-EAR: none when
     * if_lat, if_tlb and if_rab are all 0 (an L1I hit in the L1 ITLB). */
    uint64_t if_addr;  /* fetch address (bundle address; the I-EAR keeps its line, bits 63:5) */
    uint16_t if_lat;   /* L1I miss latency in cycles; 0 = the fetch hit L1I */
    uint8_t  if_tlb;   /* enum ita_tlb: how the fetch translated */
    uint8_t  if_rab;   /* 1: the miss was served by the request address buffer (RAB) */
    uint8_t  nxev;     /* general events in xev[0..nxev-1] */
    ita_xev  xev[ITA_MAX_XEV];
    ita_slot slot[ITA_MAX_SLOTS];
} ita_cycle;

static inline unsigned ita_slot_field(const ita_slot *s, unsigned lsb, unsigned mask)
{
    return (unsigned)(s->flags & mask) >> lsb;
}
#define ITA_SLOT_GET(s, name) ita_slot_field((s), ITA_SF_##name##_LSB, ITA_SF_##name##_MASK)

/* The Itanium record dialect's functions on one record (stream/ita/; the dialect
 * itself is ita_dialect, include/harness/ita/ita_family.h). */
/* Checks one record against the rules of docs/ita-stream-format.md (ranges, flag
 * consistency, per-cycle multiplicities <= the events' maxincr).  `where` is
 * prefixed to the message (e.g. "trace.txt:12").  Returns 0 when valid. */
int ita_cycle_validate(const ita_cycle *c, const char *where, pmu_err *err);
/* Its two halves.  1 when no rule can refuse the record (the per-record fast path); 0
 * sends it to the rules one by one, which may still pass it. */
int ita_cycle_passes_fast(const ita_cycle *c);
/* Every rule, one by one, with the message of the first one broken (0 when none is). */
int ita_cycle_validate_by_rule(const ita_cycle *c, const char *where, pmu_err *err);
/* One record as a self-contained text line (all fields explicit, no newline).
 * Used in mismatch reports.  Returns the length written (truncated to size-1). */
size_t ita_cycle_format(const ita_cycle *c, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
