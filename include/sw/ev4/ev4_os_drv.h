/*
 * ev4_os_drv.h - the software that runs on the 21064 counter block (sw/ev4/): a small
 * model of the OSF/1 kernel (processes and their PCBs, CPUs, context switches, the
 * interrupt dispatch at IPL 6), the PALcode's `wrperfmon` (CALL_PAL 0x39), and the `pfm`
 * pseudo-device exactly as pfm(7) describes it.  docs/ev4-pfm.md is its specification.
 *
 * It reaches the hardware only through each CPU's pmu_backend (register-port writes and
 * reads, the interrupt line), so it runs unchanged on the reference model, the RTL or the
 * lock-step pair.  It never includes the harness.
 *
 * Calls that a user program makes (open, close, ioctl, read) return what the system call
 * would: a descriptor or a count >= 0, or -errno (EINVAL, EBUSY, EFAULT, ENOMEM, EBADF,
 * ENODEV) -- never print, never exit.
 */
#ifndef EV4_OS_DRV_H
#define EV4_OS_DRV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/pmu_backend.h"
#include "common/pmu_err.h"
#include "common/ev4/ev4_cycle.h"
#include "sw/ev4/ev4_pfcntr_sw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ev4_os ev4_os;

/* Per CPU, what the interrupt dispatch did (for the exactness checks). */
typedef struct ev4_os_cpu_stats {
    uint64_t cycles;          /* records stepped on this CPU (its rpcc) */
    uint64_t taken[2];        /* counter interrupts taken (acknowledged through SL_CLR) */
    uint64_t recorded[2];     /* ... handed to an open pfm device that recorded a tick */
    uint64_t dismissed[2];    /* ... dismissed: counter disabled (iccsr_disable), or no
                                 device open on this CPU */
    uint64_t switches;        /* context switches */
} ev4_os_cpu_stats;

/* A system of ncpus (1..EV4_MAX_CPUS) CPUs whose counter blocks are cpus[i] (reset
 * backends of the alpha21064 family; not owned).  The PALcode starts logging all
 * processes with the counters' interrupts disabled.  NULL with err filled on a bad
 * argument or no memory. */
ev4_os *ev4_os_create(unsigned ncpus, pmu_backend *const *cpus, pmu_err *err);
void ev4_os_destroy(ev4_os *os);
unsigned ev4_os_ncpus(const ev4_os *os);

/* ---- the run: one call before and one after each record of CPU `cpu` ----
 * before: applies the record's OS event (fork, exec, exit, bind, unbind) and a context
 * switch when the pid changed (the PALcode's swpctx sets ICCSR PME0/PME1 from the new
 * process's PCB when logging selected processes), then takes a pending counter
 * interrupt when the record's IPL is below 6 and it is not in PALmode: the interrupt
 * is taken at this record (its PC, mode, IPL and idle flag), acknowledged through SL_CLR
 * and handed to the pfm driver.  Returns 0, or -1 with err filled when the record
 * breaks the OS model's rules (a fork to a pid that exists, a bind to a CPU that does
 * not exist, ...).
 * after: the CPU's interrupt line after the record's clock. */
int ev4_os_before(ev4_os *os, unsigned cpu, const ev4_cycle *rec, pmu_err *err);
void ev4_os_after(ev4_os *os, unsigned cpu, const ev4_cycle *rec, uint8_t pmi);
const ev4_os_cpu_stats *ev4_os_cpu(const ev4_os *os, unsigned cpu);

/* ---- processes (the caller of the device is one of them) ---- */
/* Makes process pid exist (a process of the workload that has not appeared yet may
 * call the device); 0, or -EINVAL for pid 0 or > EV4_MAX_PID. */
int ev4_os_spawn(ev4_os *os, uint32_t pid);
/* Binds pid to cpu (-1: unbinds); 0, -EINVAL (no such CPU or process). */
int ev4_os_bind(ev4_os *os, uint32_t pid, int cpu);
/* The PCB's PME bit of pid (0 for a process that does not exist). */
int ev4_os_pcb_pme(const ev4_os *os, uint32_t pid);

/* ---- the caller's memory ----
 * Copies out of the driver (PCNTGETCNT, PCNTGETIPLHIS, PCNTGETRSIZE, read) go to user
 * memory only: [p, p + n) must lie inside one region the program mapped, or the call
 * returns -EFAULT.  The ioctl argument itself (the word the kernel copies in) must be
 * mapped too. */
int ev4_os_user_map(ev4_os *os, const void *p, size_t n);
/* The kernel memory the driver may take for profile buckets (default 16 MiB); a
 * PCNTSETKADDR/PCNTSETUADDR needing more returns -ENOMEM. */
void ev4_os_set_mem_limit(ev4_os *os, uint64_t bytes);

/* ---- the pfm device: system calls of process `pid` ---- */
/* flags: O_RDONLY (0) ORed with PCNTOPENONE, PCNTOPENEACH or PCNTOPENALL. */
int pfm_open(ev4_os *os, uint32_t pid, int flags);
int pfm_close(ev4_os *os, int fd);
int pfm_ioctl(ev4_os *os, int fd, unsigned long cmd, void *arg);
/* The profile buckets: 32-bit counts, one per four instructions of the range, per CPU
 * in EACH mode (CPU 0's first); at most n bytes from the start. */
ssize_t pfm_read(ev4_os *os, int fd, void *buf, size_t n);

/* ---- the PALcode ---- */
/* CALL_PAL wrperfmon on `cpu` (function a0, argument a1): PFDISABLE/PFENABLE write HIER,
 * PFSET writes ICCSR's counter fields from a1 (the write format of struct iccsr's
 * hardware fields; the PME bits are PAL's), PFOPT selects logging all or selected
 * processes.  Returns v0: 1 on success, 0 for an unknown function. */
uint64_t ev4_pal_wrperfmon(ev4_os *os, unsigned cpu, uint64_t a0, uint64_t a1);
/* The last PFSET argument on cpu (to check that the software-only disable field never
 * reaches the hardware). */
uint64_t ev4_pal_last_pfset(const ev4_os *os, unsigned cpu);

#ifdef __cplusplus
}
#endif
#endif
