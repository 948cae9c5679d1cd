/* session_internal.h - the state of a pfm session (session.c runs it, session_report.c
 * reports and checks it); include/cli/ev4/ev4_session.h is the interface. */
#ifndef EV4_SESSION_INTERNAL_H
#define EV4_SESSION_INTERNAL_H

#include <errno.h>
#include <stdint.h>

#include "sw/ev4/ev4_os_drv.h"
#include "cli/ev4/ev4_session.h"

/* What the harness tallies per CPU. */
typedef struct cpu_tally {
    uint64_t edges[2];     /* HIRR.PCn going from 0 to 1 */
    uint8_t hirr;          /* HIRR as last seen */
    uint64_t ticks;        /* interrupts the driver recorded */
    uint64_t ipl[PFM_NIPL];
    uint64_t records, pme_records;
} cpu_tally;

/* The memory the tool hands the driver: mapped as user memory. */
typedef struct user_mem {
    struct iccsr iccsr;
    long items;
    struct addr_range range;
    struct pfcntrs cnt[EV4_MAX_CPUS];
    struct pfcntrs *cnt_p;
    struct pfipls ipl[EV4_MAX_CPUS];
    struct pfipls *ipl_p;
    long rsize;
} user_mem;

struct ev4_session {
    ev4_setup setup;
    unsigned ncpus;
    pmu_backend *cpu[EV4_MAX_CPUS];
    const drv_symtab *syms[EV4_MAX_CPUS]; /* NULL: none for that CPU */
    ev4_os *os;
    int fd;
    uint64_t prof_start, prof_end; /* resolved profile range (0, 0: none) */
    uint64_t nbuckets;             /* per CPU */
    cpu_tally t[EV4_MAX_CPUS];
    uint32_t *want_buckets;        /* [ncpus * nbuckets] */
    uint32_t *buckets;             /* what read() returned */
    int finished;
    unsigned ncnt;                 /* elements PCNTGETCNT/GETIPLHIS filled */
    uint64_t pending[EV4_MAX_CPUS][2];
    user_mem *u;
};

#endif
