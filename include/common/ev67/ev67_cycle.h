/*
 * ev67_cycle.h - one cycle of an Alpha 21264/EV67 CPU as its counter block sees it: the
 * record of the "ev67" stream dialect.  One stream is one CPU.
 *
 * Every valid fetched instruction gets a tag, and every later event about an instruction
 * names it by that tag, so a checker can follow any instruction (the profiled one in
 * particular) from fetch to its end from the records alone.  The tag plays the role of
 * the hardware's inum (HRM §6.10.3.3): a 32-bit sequence number instead of an 8-bit
 * in-flight number, never reused within a stream (inum batches are not modelled).
 *
 * Order of events within a record (docs/ev67.md, "The record"): fetch, map stall, trap,
 * retire and squash, abort; head is read after all of them.
 *
 * Rules a valid stream obeys (the dialect checks them; docs/ev67.md lists them with
 * what the counter block does with a record that breaks one):
 *  R1  Tags are consecutive in fetch order: each fetched instruction's tag is the
 *      previous fetched instruction's + 1 (mod 2^32); the first one's is any value.
 *  R2  nfetch <= EV67_FETCH_MAX.  A CMOV is two fetched instructions (two tags, same
 *      PC): one with EV67_FF_CMOV1 immediately followed in fetch order (same record or
 *      a later one) by one with EV67_FF_CMOV2; neither half appears otherwise.
 *  R3  An instruction ends exactly once, in its fetch record or later: by a retire
 *      (retire[]), a squash (squash[]) or an abort (the abort range).  Instructions with
 *      EV67_FF_SQUASH never retire; others are never squashed.  Until it ends, an
 *      instruction is "in flight".
 *  R4  Retires and squashes are in tag order: an instruction retires or is squashed only
 *      when every older instruction has ended (or ends earlier in this record's
 *      retire/squash order, retire[] then squash[] merged by tag).  nretire <=
 *      EV67_RETIRE_MAX, nsquash <= EV67_SQUASH_MAX, each list in increasing tag order.
 *  R5  The abort range is a suffix: when abort = 1, every in-flight instruction with tag
 *      >= abort_first (after this record's fetches, retires and squashes) aborts, and
 *      abort_first names an in-flight instruction.  kbm_first >= abort_first: the aborted
 *      instructions with tag >= kbm_first were killed during or before their map cycle
 *      (kbm_first = one past the youngest fetched tag: none).
 *  R6  At most one trap per record; trap_tag names an in-flight instruction (before
 *      this record's retires, squashes and abort).  trap_mis = 1 only for a conditional
 *      branch (EV67_CLASS_CBR); trap_lso = 1 only with trap_type EV67_TRAP_REPLAY.
 *  R7  The map-stall range [stall_first, stall_first + nstall - 1] names in-flight
 *      instructions (fetched in this record or earlier) that waited before map this cycle.
 *  R8  head is the tag of the oldest in-flight instruction after the record's events, or
 *      the next tag to be fetched when none is in flight.
 *  R9  The retire backlog stays bounded: with b0 = 0 and b(k+1) = max(0, b(k) +
 *      nretire(k) - EV67_LIM_RETIRE_ADD_MAX), no b(k) exceeds EV67_LIM_BACKLOG_MAX (the chip
 *      cannot sustain 11 retires a cycle, HRM §6.10.2.3).
 *  R10 pal, bcmiss and mreplay are 0 or 1; pc and fetch[].pc are 4-byte aligned; cls is
 *      an ev67_class; trap_type is 0..15; flags has no bit outside EV67_FF_ALL.
 * A stream may end with instructions in flight.
 */
#ifndef EV67_CYCLE_H
#define EV67_CYCLE_H

#include <stdint.h>

#include "ev67_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Array sizes: the .def's limits (ev67_regs.def EV67_LIMIT). */
#define EV67_FETCH_MAX EV67_LIM_FETCH_MAX
#define EV67_RETIRE_MAX EV67_LIM_RETIRE_MAX
#define EV67_SQUASH_MAX EV67_LIM_SQUASH_MAX
#define EV67_PC_MASK 0xfffffffffffffffcull /* instructions are 4-byte aligned */

/* Class of a fetched instruction (what the software and the generator need; the counter
 * block itself only looks at CBR, through trap_mis and EV67_FF_TAKEN). */
typedef enum ev67_class {
    EV67_CLASS_INTOP = 0,   /* integer operate (LDA/LDAH included); a CMOV half is one */
    EV67_CLASS_LOAD = 1,    /* integer or floating load */
    EV67_CLASS_STORE = 2,   /* integer or floating store */
    EV67_CLASS_CBR = 3,     /* conditional branch */
    EV67_CLASS_BR = 4,      /* unconditional BR/BSR */
    EV67_CLASS_JMP = 5,     /* JMP/JSR/RET/JSR_COROUTINE */
    EV67_CLASS_FPOP = 6,    /* floating-point operate */
    EV67_CLASS_NOP = 7,     /* NOP/UNOP/FNOP (squashed NOPs carry EV67_FF_SQUASH) */
    EV67_CLASS_BARRIER = 8, /* TRAPB, EXCB, MB, WMB */
    EV67_CLASS_PAL = 9,     /* CALL_PAL, HW_MFPR/HW_MTPR/HW_LD/HW_ST/HW_RET */
    EV67_CLASS_OTHER = 10,
    EV67_NCLASSES
} ev67_class;

/* Per fetched instruction flags (ev67_fetch.flags). */
enum ev67_fetch_flags {
    EV67_FF_SQUASH = 1u << 0, /* squashed: ends by a squash (or an abort), never retires
                                 (squashed NOPs, TRAPB; HRM §6.10.3) */
    EV67_FF_CMOV1 = 1u << 1,  /* first half of a CMOV (HRM Table 6-12) */
    EV67_FF_CMOV2 = 1u << 2,  /* second half of a CMOV */
    EV67_FF_ICM = 1u << 3,    /* its aligned 4-instruction fetch block requested a new
                                 Icache fill stream (I_STAT.ICM) */
    EV67_FF_TAKEN = 1u << 4,  /* a conditional branch that executes taken (PCTR_CTL.TAK);
                                 only with EV67_CLASS_CBR */
    EV67_FF_PAL = 1u << 5,    /* fetched in PALmode: pc is a physical PALcode address
                                 (PMPC.PAL) */
    EV67_FF_ALL = 0x3f
};

/* I_STAT.TRAP_TYPE values (HRM Table 5-12).  1, 9, 11 and 13 are "invalid: use PMPC";
 * a stream gives them for traps TRAP_TYPE does not name (e.g. a JMP-class mispredict). */
typedef enum ev67_trap_type {
    EV67_TRAP_REPLAY = 0,
    EV67_TRAP_INVALID1 = 1,
    EV67_TRAP_DTB_DOUBLE_3 = 2, /* DTB double miss, 3-level page table */
    EV67_TRAP_DTB_DOUBLE_4 = 3, /* DTB double miss, 4-level page table */
    EV67_TRAP_FP_DISABLED = 4,
    EV67_TRAP_UNALIGNED = 5,
    EV67_TRAP_DTB_SINGLE = 6,
    EV67_TRAP_DFAULT = 7,       /* Dstream fault */
    EV67_TRAP_OPCDEC = 8,
    EV67_TRAP_INVALID9 = 9,
    EV67_TRAP_MCHK = 10,
    EV67_TRAP_INVALID11 = 11,
    EV67_TRAP_ARITH = 12,
    EV67_TRAP_INVALID13 = 13,
    EV67_TRAP_MT_FPCR = 14,
    EV67_TRAP_RESET = 15,
    EV67_NTRAP_TYPES
} ev67_trap_type;

/* One valid fetched instruction. */
typedef struct ev67_fetch {
    uint64_t pc;   /* its address, 4-byte aligned (both CMOV halves: the CMOV's) */
    uint32_t tag;  /* R1 */
    uint8_t cls;   /* ev67_class */
    uint8_t flags; /* EV67_FF_* */
} ev67_fetch;

typedef struct ev67_cycle {
    uint64_t pc;     /* the PC the software sees for this cycle (sampling): the oldest
                        in-flight instruction's, or the next to fetch; 4-byte aligned */
    uint8_t pal;     /* 1: the CPU is in PALmode this cycle (interrupts are held off) */

    /* fetch: the valid fetched instructions, in fetch order */
    uint8_t nfetch;  /* 0..EV67_FETCH_MAX */
    ev67_fetch fetch[EV67_FETCH_MAX];

    /* map: instructions that waited before map this cycle (R7) */
    uint8_t nstall;  /* 0: none */
    uint32_t stall_first;

    /* the oldest trap of the cycle (R6); trap_* are 0 when trap = 0 */
    uint8_t trap;
    uint8_t trap_type; /* ev67_trap_type, as I_STAT.TRAP_TYPE shows it */
    uint8_t trap_mis;  /* a conditional-branch mispredict (I_STAT.MIS) */
    uint8_t trap_lso;  /* a load-store order replay (I_STAT.LSO) */
    uint32_t trap_tag;

    /* retire: in tag order (R4) */
    uint8_t nretire; /* 0..EV67_RETIRE_MAX */
    uint32_t retire[EV67_RETIRE_MAX];
    /* squash: squashed instructions reaching the point where they would have retired or
       aborted (R4) */
    uint8_t nsquash; /* 0..EV67_SQUASH_MAX */
    uint32_t squash[EV67_SQUASH_MAX];

    /* abort: every in-flight instruction with tag >= abort_first, killed by this cycle's
       trap or pipeline redirect (R5); kbm_first: the first of them killed during or
       before map */
    uint8_t abort;
    uint32_t abort_first, kbm_first;

    uint32_t head;   /* R8 */

    /* counter inputs with no instruction attached */
    uint8_t bcmiss;  /* a Bcache miss or long-latency probe this cycle, as the Cbox
                        signals it (0..1) */
    uint8_t mreplay; /* an Mbox replay trap this cycle (0..1) */
} ev67_cycle;

#ifdef __cplusplus
}
#endif
#endif
