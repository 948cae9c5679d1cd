/*
 * ev4_cycle.h - one cycle of an Alpha 21064 CPU as the counter block and the OS model see
 * it: the record of the "ev4" stream dialect (stream/ev4/, docs/ev4-stream.md).  One
 * stream is one CPU; a multi-processor run steps one stream per CPU together.
 *
 * What the hardware counts comes from the issue slots, the stall cause, the misses, the
 * mispredict and the pins (docs/ev4.md, "Counting"); mode is PAL for PALmode cycles.
 * What only the software uses: the PC, the IPL, the process, the idle flag and the OS
 * event (the OS model and the pfm driver, sw/ev4/).
 */
#ifndef EV4_CYCLE_H
#define EV4_CYCLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Processor mode. */
typedef enum ev4_mode { EV4_MODE_KERNEL = 0, EV4_MODE_USER = 1, EV4_MODE_PAL = 2 } ev4_mode;

/* Class of an issued instruction. */
typedef enum ev4_class {
    EV4_CLASS_INTOP = 0,  /* integer operate, LDA and LDAH included */
    EV4_CLASS_LOAD = 1,   /* a load (integer or floating) */
    EV4_CLASS_STORE = 2,  /* a store (integer or floating) */
    EV4_CLASS_BRANCH = 3, /* a branch, jump or subroutine call */
    EV4_CLASS_FPOP = 4,   /* floating-point operate */
    EV4_CLASS_OTHER = 5,  /* anything else (CALL_PAL, barriers, MFPR/MTPR, ...) */
    EV4_NCLASSES
} ev4_class;

/* Why nothing issued in a cycle with no issue. */
typedef enum ev4_stall {
    EV4_STALL_NONE = 0,   /* (a cycle that issued) */
    EV4_STALL_DRY = 1,    /* pipe dry: no valid instruction-stream data */
    EV4_STALL_FROZEN = 2  /* pipe frozen: a resource conflict */
} ev4_stall;

/* An OS event at the start of the cycle, before its instructions (at most one). */
typedef enum ev4_os_event {
    EV4_OS_NONE = 0,
    EV4_OS_FORK = 1,   /* the current process forks child os_arg (which inherits its PCB bits) */
    EV4_OS_EXEC = 2,   /* the current process execs a new image (its PCB bits stay) */
    EV4_OS_EXIT = 3,   /* the current process exits (a switch to another follows) */
    EV4_OS_BIND = 4,   /* the current process is bound to CPU os_arg */
    EV4_OS_UNBIND = 5  /* the current process may run on any CPU again */
} ev4_os_event;

#define EV4_MAX_ISSUE 2   /* the 21064 issues at most two instructions a cycle */
#define EV4_MAX_PID 0xffffffu
#define EV4_MAX_CPUS 32
#define EV4_PC_MASK 0xfffffffffffffffcull /* instructions are 4-byte aligned */

typedef struct ev4_cycle {
    uint64_t pc;        /* address of the cycle's first instruction (of the next one to
                           issue when nothing issues); 4-byte aligned */
    uint32_t pid;       /* the current process; a change of pid is a context switch */
    uint32_t os_arg;    /* FORK: the child's pid; BIND: the CPU */
    uint8_t mode;       /* ev4_mode */
    uint8_t ipl;        /* interrupt priority level, 0..7 (0 in user mode) */
    uint8_t idle;       /* 1: the current thread is the idle thread (kernel mode) */
    uint8_t nissue;     /* instructions issued: 0, 1 or 2 */
    uint8_t cls[EV4_MAX_ISSUE]; /* ev4_class of each issued instruction (0 past nissue) */
    uint8_t replay;     /* bit i: issued instruction i is a load replayed after a D-cache
                           miss (counted again by PF_LOADI) */
    uint8_t stall;      /* ev4_stall; NONE when nissue > 0 */
    uint8_t dmiss;      /* primary D-cache probes that did not complete in one cycle, 0..1 */
    uint8_t imiss;      /* primary I-cache misses, 0..1 */
    uint8_t mispredict; /* mispredicted branches resolved this cycle, 0..1 */
    uint8_t pin0, pin1; /* pulses on external pins 0 and 1, 0..1 each */
    uint8_t os;         /* ev4_os_event */
} ev4_cycle;

#ifdef __cplusplus
}
#endif
#endif
