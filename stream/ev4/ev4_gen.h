/*
 * ev4_gen.h - the ev4 generator's insides (docs/ev4-stream.md, "The generator"):
 *
 *   ev4_gen.c         options, the address layout and function list, the dialect hooks
 *   ev4_gen_walk.c    the instruction walker: one cycle of code in a function
 *   ev4_gen_run.c     WORKLOAD mode: processes, system calls, interrupts, switches
 *   ev4_gen_random.c  RANDOM mode
 */
#ifndef EV4_GEN_H
#define EV4_GEN_H

#include <stdint.h>

#include "common/pmu_rng.h"
#include "stream/pmu_stream.h"
#include "ev4_internal.h"

/* ---- the layout ---------------------------------------------------------------- */
typedef struct ev4_func {
    uint64_t start, end;
    char *name;       /* "vmunix:read", "pal:callsys", "cc:main" */
} ev4_func;

/* An image: a consecutive run of functions (PALcode, the kernel, one program). */
typedef struct ev4_image {
    unsigned first, n;
    uint8_t fp;       /* a floating-point program: more fpop in its mix */
} ev4_image;

/* Kernel functions with a role (the rest are helpers the roles call). */
enum ev4_kfn {
    KF_SETUP, KF_IDLE, KF_SYSCALL, KF_THREAD_BLOCK, KF_READ, KF_WRITE, KF_OPEN, KF_CLOSE,
    KF_FORK, KF_EXECVE, KF_EXIT, KF_WAIT4, KF_BIND, KF_TU_INTR, KF_SCSI_INTR, KF_HARDCLOCK,
    KF_TLB_SHOOTDOWN, KF_MCHECK, KF_NROLES
};
enum ev4_pfn { PF_CALLSYS, PF_RETSYS, PF_RTI, PF_INTERRUPT, PF_SWPCTX, PF_SWPIPL, PF_MCHK, PF_N };

/* ---- the walker ---------------------------------------------------------------- */
typedef struct ev4_walker {
    unsigned lo, hi;              /* functions [lo, hi): where a function's end jumps to */
    unsigned f;                   /* the current function */
    uint64_t pc;                  /* the next instruction */
    uint64_t loop_start, loop_end; /* a loop of the current function (loop_end 0: none) */
    unsigned loop_left;           /* iterations still to go back */
    unsigned stall_left;          /* no-issue cycles still to come, of kind stall_kind */
    uint8_t stall_kind;
    uint8_t replay;               /* the next issuing cycle replays the load at pc */
    uint8_t fp;
} ev4_walker;

/* ---- WORKLOAD mode -------------------------------------------------------------- */
enum ev4_phase { PH_NEW, PH_RUN };

typedef struct ev4_proc {
    uint32_t pid;         /* 0: a free slot */
    uint8_t phase;        /* PH_NEW: forked, not yet exec'd */
    uint8_t bound;
    unsigned program;     /* image index of its program (after exec) */
    uint64_t wake;        /* runnable when now >= wake */
    uint64_t user_time, lifetime; /* user cycles run; it exits after lifetime of them */
    ev4_walker w;         /* its user code */
} ev4_proc;

/* One stretch of records of one kind. */
typedef struct ev4_step {
    ev4_walker *w;
    int enter;            /* >= 0: the walker enters this function first */
    uint32_t pid, left;
    uint8_t mode, ipl, idle;
    uint8_t os, os_last;  /* the OS event, on the first record (os_last: on the last) */
    uint32_t os_arg;
    uint8_t callpal;      /* the record is the user's CALL_PAL (class other) */
    uint8_t irq_ok;       /* an interrupt may come before a record of this step */
} ev4_step;

#define EV4_QUEUE 32
enum ev4_next { NX_BOOT, NX_SCHEDULE, NX_RESUME, NX_SYSCALL, NX_IDLE };

typedef struct ev4_gen {
    pmu_gen_mode mode;
    unsigned cpu, ncpus, nprocs;
    pmu_rng rng;
    uint64_t now;          /* records produced */

    ev4_func *fn;          /* sorted by start */
    unsigned nfn;
    ev4_image pal, kernel, *prog; /* prog[0] the shell's sh, prog[1 + j] this CPU's j-th */
    unsigned nprog;
    unsigned kfn[KF_NROLES], pfn[PF_N];
    unsigned helper_lo, helper_hi; /* kernel helpers: functions any kernel path calls */

    /* WORKLOAD */
    ev4_proc *proc;        /* [0] the shell, then nprocs children slots */
    int cur;               /* the current process slot, -1: pid 0 (boot or idle) */
    int exited;            /* the current process has just exited */
    uint32_t next_pid;     /* the next pid to fork (none left past the CPU's range) */
    unsigned live_children, rr;
    unsigned ticks;        /* clock ticks since the last switch */
    uint64_t due[8];       /* when the interrupt of each IPL comes next (0: never) */
    enum ev4_next next;
    ev4_step q[EV4_QUEUE];
    unsigned nq;
    ev4_walker kw, iw[8], pw, idw;

    /* RANDOM */
    uint32_t rpid[8];      /* live pids, rpid[0] = 0 */
    unsigned nrpid;
    uint32_t rcur;
    uint64_t rpc;
    int rexited;
} ev4_gen;

int ev4_gen_layout(ev4_gen *g, uint64_t seed);
const char *ev4_gen_program_name(unsigned k, char *buf, size_t size);

void ev4_walk_set(ev4_walker *w, const ev4_gen *g, const ev4_image *img);
void ev4_walk_enter(ev4_gen *g, ev4_walker *w, unsigned f);
/* One cycle of w's code into c's hardware fields and pc, in mode `mode`. */
void ev4_walk_cycle(ev4_gen *g, ev4_walker *w, unsigned mode, ev4_cycle *c);

void ev4_run_init(ev4_gen *g);
void ev4_run_next(ev4_gen *g, ev4_cycle *c);
void ev4_random_init(ev4_gen *g);
void ev4_random_next(ev4_gen *g, ev4_cycle *c);

#endif
