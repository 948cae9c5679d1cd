/*
 * ev4_os_internal.h - the state the three parts of sw/ev4/ share: the OS model
 * (ev4_os.c), the PALcode (ev4_pal.c) and the pfm driver (ev4_pfm.c).  Not a public
 * interface: include/sw/ev4/ev4_os_drv.h is.  docs/ev4-pfm.md is the specification.
 */
#ifndef EV4_OS_INTERNAL_H
#define EV4_OS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sw/ev4/ev4_os_drv.h"
#include "common/ev4/ev4_regs.h"

/* A process: its PCB's PME bit (OSF/1 pcb.h PCB_PME_BIT in pcb_fen) and what the OS
 * model's rules need.  Entries are never removed: an exited pid stays, marked. */
typedef struct ev4_proc {
    uint32_t pid;
    uint8_t used;    /* slot holds a process (hash table) */
    uint8_t exited;
    uint8_t pme;     /* PCB PME bit */
    int8_t bound;    /* CPU it is bound to, -1 none */
    int8_t on_cpu;   /* CPU it is current on, -1 none */
} ev4_proc;

/* The PALcode's logging option (wrperfmon PFOPT). */
typedef enum ev4_pal_opt { EV4_PAL_LOGALL = 1, EV4_PAL_LOGSELECT = 2 } ev4_pal_opt;

typedef struct ev4_cpu {
    pmu_backend *b;
    uint32_t cur;          /* current pid (0: the idle/kernel thread) */
    uint8_t line;          /* the interrupt line after the previous record */
    uint8_t exit_pending;  /* the previous record was an EXIT of exited_pid */
    uint32_t exited_pid;
    ev4_os_cpu_stats st;
    /* the PALcode's per-CPU state */
    ev4_pal_opt pal_opt;
    uint64_t last_pfset;
} ev4_cpu;

/* The driver's data of one CPU (or of all of them in PCNTOPENALL: the sum). */
typedef struct pfm_set {
    uint64_t cntr[EV4_NCOUNTERS]; /* ticks recorded per counter */
    uint64_t pr_cycle;            /* the CPU's cycle count at the last recorded tick */
    uint64_t seq;                 /* order of that tick among all CPUs (0: none) */
    uint64_t ipl[PFM_NIPL];       /* IPL histogram */
} pfm_set;

typedef enum pfm_prof { PFM_PROF_NONE = 0, PFM_PROF_KERNEL = 1, PFM_PROF_USER = 2 } pfm_prof;

typedef struct pfm_dev {
    int open;
    uint32_t pid;          /* the opener: "this process" of PCNTLOGSELECT */
    int mode;              /* PCNTOPENONE / PCNTOPENEACH / PCNTOPENALL */
    unsigned one_cpu;      /* PCNTOPENONE: the CPU the opener is bound to */
    long items;            /* PFM_COUNTERS | PFM_IPL | PFM_PROFILING */
    unsigned disabled;     /* iccsr_disable of the last PCNTSETMUX (software only) */
    pfm_prof prof;         /* which mode's PCs are profiled */
    uint64_t start, end;   /* the profiled range [start, end) */
    uint32_t *buckets;     /* nsets * nbuckets counts, CPU 0's set first */
    uint64_t nbuckets;     /* buckets per set: (end - start) / 16 */
    unsigned nsets;        /* ncpus in PCNTOPENEACH, else 1 */
    uint64_t seq;          /* ticks recorded since create (orders pr_cycle) */
    pfm_set sets[EV4_MAX_CPUS]; /* per CPU; kept across close and open (pfm(7):
                                   "The counters are not cleared") */
} pfm_dev;

typedef struct ev4_region { uintptr_t lo, hi; } ev4_region;

struct ev4_os {
    unsigned ncpus;
    ev4_cpu cpu[EV4_MAX_CPUS];
    ev4_proc *procs;       /* open-addressing hash table of processes (pid != 0) */
    size_t nprocs, cap;
    ev4_region *regions;   /* the caller's mapped memory */
    size_t nregions, rcap;
    uint64_t mem_limit;    /* bytes of kernel memory for profile buckets */
    pfm_dev dev;
};

/* Bytes of one profile bucket and of the range it covers (one per four instructions). */
#define PFM_BUCKET_BYTES 4u
#define PFM_BUCKET_SPAN 16u

/* ev4_os.c */
/* The process pid (pid != 0), or NULL when it never existed. */
ev4_proc *ev4_os_proc(const ev4_os *os, uint32_t pid);
/* 1 when [p, p + n) lies inside one mapped region. */
int ev4_os_user_ok(const ev4_os *os, const void *p, size_t n);

/* ev4_pal.c: the PALcode's swpctx part: the ICCSR PME bits for the process now
 * current on cpu, when logging selected processes. */
void ev4_pal_swpctx(ev4_os *os, unsigned cpu);

/* ev4_pfm.c: the counter interrupt of counter n on cpu, taken at record rec, handed
 * to the driver (pfmintr).  1 when it recorded a tick, 0 when it dismissed it. */
int pfm_intr(ev4_os *os, unsigned cpu, unsigned n, const ev4_cycle *rec);
void pfm_dev_free(pfm_dev *d);

#endif
