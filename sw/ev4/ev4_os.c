/*
 * ev4_os.c - the OS model: CPUs, processes and their PCBs, context switches, the
 * caller's memory, and the dispatch of the counter interrupt (SCB vector 0x650, IPL 6)
 * to the pfm driver (docs/ev4-pfm.md, "The OS model").
 *
 * Sources: docs/sources.md (pfm(7); OSF/1 pfm.c pfmintr(); dc21064.h HIRR, HIER, SL_CLR).
 */
#include "ev4_os_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MEM_LIMIT (16ull << 20)
#define PROC_MIN_CAP 64u
#define IPL_PFM 6 /* the counters interrupt at IPL 6 (pfm(7)) */

/* ---- the process table: open addressing, linear probing, never shrinks ---- */

static size_t proc_slot(size_t cap, uint32_t pid)
{
    return (size_t)((pid * 2654435761u) & (cap - 1));
}

ev4_proc *ev4_os_proc(const ev4_os *os, uint32_t pid)
{
    if (pid == 0 || os->cap == 0)
        return NULL;
    for (size_t i = proc_slot(os->cap, pid);; i = (i + 1) & (os->cap - 1)) {
        ev4_proc *p = &os->procs[i];
        if (!p->used)
            return NULL;
        if (p->pid == pid)
            return p;
    }
}

static int proc_grow(ev4_os *os)
{
    size_t cap = os->cap ? os->cap * 2 : PROC_MIN_CAP;
    ev4_proc *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < os->cap; i++) {
        if (!os->procs[i].used)
            continue;
        size_t j = proc_slot(cap, os->procs[i].pid);
        while (t[j].used)
            j = (j + 1) & (cap - 1);
        t[j] = os->procs[i];
    }
    free(os->procs);
    os->procs = t;
    os->cap = cap;
    return 0;
}

/* Makes process pid (!= 0, not yet existing) exist; NULL when out of memory. */
static ev4_proc *proc_new(ev4_os *os, uint32_t pid, uint8_t pme)
{
    if ((os->nprocs + 1) * 2 > os->cap && proc_grow(os) != 0)
        return NULL;
    size_t i = proc_slot(os->cap, pid);
    while (os->procs[i].used)
        i = (i + 1) & (os->cap - 1);
    ev4_proc *p = &os->procs[i];
    p->used = 1;
    p->pid = pid;
    p->exited = 0;
    p->pme = pme;
    p->bound = -1;
    p->on_cpu = -1;
    os->nprocs++;
    return p;
}

/* ---- the system ---- */

ev4_os *ev4_os_create(unsigned ncpus, pmu_backend *const *cpus, pmu_err *err)
{
    if (ncpus < 1 || ncpus > EV4_MAX_CPUS)
        return pmu_errf(err, PMU_E_INPUT, "OS model: %u CPUs, expected 1..%u", ncpus,
                        (unsigned)EV4_MAX_CPUS),
               NULL;
    if (!cpus)
        return pmu_errf(err, PMU_E_INPUT, "OS model: expected %u counter blocks", ncpus), NULL;
    for (unsigned c = 0; c < ncpus; c++)
        if (!cpus[c])
            return pmu_errf(err, PMU_E_INPUT, "OS model: CPU %u has no counter block", c), NULL;
    ev4_os *os = calloc(1, sizeof *os);
    if (!os)
        return pmu_errf(err, PMU_E_NOMEM, "OS model: out of memory"), NULL;
    os->ncpus = ncpus;
    os->mem_limit = DEFAULT_MEM_LIMIT;
    for (unsigned c = 0; c < ncpus; c++) {
        os->cpu[c].b = cpus[c];
        /* The PALcode's initial state: counter interrupts off, logging everything. */
        ev4_pal_wrperfmon(os, c, PFDISABLE, 0);
        ev4_pal_wrperfmon(os, c, PFOPT, PFOPT_LOGALL);
    }
    return os;
}

void ev4_os_destroy(ev4_os *os)
{
    if (!os)
        return;
    pfm_dev_free(&os->dev);
    free(os->procs);
    free(os->regions);
    free(os);
}

unsigned ev4_os_ncpus(const ev4_os *os) { return os->ncpus; }

const ev4_os_cpu_stats *ev4_os_cpu(const ev4_os *os, unsigned cpu)
{
    return cpu < os->ncpus ? &os->cpu[cpu].st : NULL;
}

/* ---- processes ---- */

int ev4_os_spawn(ev4_os *os, uint32_t pid)
{
    if (pid == 0 || pid > EV4_MAX_PID)
        return -EINVAL;
    ev4_proc *p = ev4_os_proc(os, pid);
    if (p)
        return p->exited ? -EINVAL : 0;
    return proc_new(os, pid, 0) ? 0 : -ENOMEM;
}

int ev4_os_bind(ev4_os *os, uint32_t pid, int cpu)
{
    ev4_proc *p = ev4_os_proc(os, pid);
    if (!p || p->exited || cpu < -1 || cpu >= (int)os->ncpus)
        return -EINVAL;
    p->bound = (int8_t)cpu;
    return 0;
}

int ev4_os_pcb_pme(const ev4_os *os, uint32_t pid)
{
    const ev4_proc *p = ev4_os_proc(os, pid);
    return p ? p->pme : 0;
}

/* ---- the caller's memory ---- */

int ev4_os_user_map(ev4_os *os, const void *p, size_t n)
{
    uintptr_t lo = (uintptr_t)p;
    if (!p || n == 0 || lo + n < lo)
        return -EINVAL;
    if (os->nregions == os->rcap) {
        size_t cap = os->rcap ? os->rcap * 2 : 8;
        ev4_region *r = realloc(os->regions, cap * sizeof *r);
        if (!r)
            return -ENOMEM;
        os->regions = r;
        os->rcap = cap;
    }
    os->regions[os->nregions++] = (ev4_region){lo, lo + n};
    return 0;
}

int ev4_os_user_ok(const ev4_os *os, const void *p, size_t n)
{
    uintptr_t lo = (uintptr_t)p;
    if (!p || lo + n < lo)
        return 0;
    for (size_t i = 0; i < os->nregions; i++)
        if (lo >= os->regions[i].lo && lo + n <= os->regions[i].hi)
            return 1;
    return 0;
}

void ev4_os_set_mem_limit(ev4_os *os, uint64_t bytes) { os->mem_limit = bytes; }

/* ---- the run ---- */

static const char *const event_names[] = {"none", "FORK", "EXEC", "EXIT", "BIND", "UNBIND"};

/* The rule a record breaks: -1 with err naming the CPU, the record, the pid and the rule. */
static int rule_err(pmu_err *err, unsigned cpu, const ev4_cpu *c, uint32_t pid, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int rule_err(pmu_err *err, unsigned cpu, const ev4_cpu *c, uint32_t pid, const char *fmt, ...)
{
    char rule[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    return pmu_errf(err, PMU_E_INPUT, "OS model: CPU %u record %llu: pid %u: %s", cpu,
                    (unsigned long long)c->st.cycles, pid, rule);
}

/* The OS model's rules (docs/ev4-pfm.md, "Rules"), checked before anything changes. */
static int check_record(const ev4_os *os, unsigned cpu, const ev4_cycle *rec, pmu_err *err)
{
    const ev4_cpu *c = &os->cpu[cpu];
    uint32_t pid = rec->pid;
    if (pid > EV4_MAX_PID)
        return rule_err(err, cpu, c, pid, "pid above the largest, %u", (unsigned)EV4_MAX_PID);
    if (rec->mode > EV4_MODE_PAL)
        return rule_err(err, cpu, c, pid, "mode %u, expected 0 (kernel), 1 (user) or 2 (PAL)", rec->mode);
    if (rec->ipl > 7)
        return rule_err(err, cpu, c, pid, "IPL %u, expected 0..7", rec->ipl);
    if (rec->os > EV4_OS_UNBIND)
        return rule_err(err, cpu, c, pid, "OS event %u, expected 0..%u", rec->os,
                        (unsigned)EV4_OS_UNBIND);
    if (c->exit_pending && pid == c->exited_pid)
        return rule_err(err, cpu, c, pid, "EXIT: the record after an EXIT must be of another process");
    if (pid == 0) {
        if (rec->os != EV4_OS_NONE)
            return rule_err(err, cpu, c, pid, "pid 0 (the idle/kernel thread) does no OS event, found %s",
                            event_names[rec->os]);
        return 0;
    }
    const ev4_proc *p = ev4_os_proc(os, pid);
    if (p && p->exited)
        return rule_err(err, cpu, c, pid, "EXIT: an exited process never appears again");
    if (p && p->on_cpu >= 0 && (unsigned)p->on_cpu != cpu)
        return rule_err(err, cpu, c, pid,
                        "current on CPU %d: a process is current on at most one CPU at a time", p->on_cpu);
    if (p && p->bound >= 0 && (unsigned)p->bound != cpu)
        return rule_err(err, cpu, c, pid, "BIND: bound to CPU %d, a bound process runs only there",
                        p->bound);
    if (rec->os == EV4_OS_FORK) {
        uint32_t child = rec->os_arg;
        if (child == 0 || child > EV4_MAX_PID || child == pid)
            return rule_err(err, cpu, c, pid, "FORK: child pid %u, expected a new pid 1..%u", child,
                            (unsigned)EV4_MAX_PID);
        const ev4_proc *q = ev4_os_proc(os, child);
        if (q)
            return rule_err(err, cpu, c, pid, "FORK: child pid %u %s: a child must be a new process",
                            child, q->exited ? "existed before" : "exists");
    }
    if (rec->os == EV4_OS_BIND && rec->os_arg >= os->ncpus)
        return rule_err(err, cpu, c, pid, "BIND: CPU %u, expected 0..%u", rec->os_arg, os->ncpus - 1);
    return 0;
}

/* The switch to rec's process: the PCB swap (swpctx), which sets the PME bits. */
static int context_switch(ev4_os *os, unsigned cpu, uint32_t pid)
{
    ev4_cpu *c = &os->cpu[cpu];
    ev4_proc *old = ev4_os_proc(os, c->cur);
    if (old)
        old->on_cpu = -1;
    if (pid != 0) {
        ev4_proc *p = ev4_os_proc(os, pid);
        if (!p && !(p = proc_new(os, pid, 0)))
            return -1;
        p->on_cpu = (int8_t)cpu;
    }
    c->cur = pid;
    c->st.switches++;
    ev4_pal_swpctx(os, cpu);
    return 0;
}

static int apply_event(ev4_os *os, unsigned cpu, const ev4_cycle *rec)
{
    ev4_cpu *c = &os->cpu[cpu];
    ev4_proc *p = ev4_os_proc(os, rec->pid);
    switch (rec->os) {
    case EV4_OS_FORK: {
        /* The child inherits the PCB, its PME bit included (pfm(7) PCNTLOGSELECT). */
        uint8_t pme = p->pme;
        return proc_new(os, rec->os_arg, pme) ? 0 : -1;
    }
    case EV4_OS_EXIT:
        p->exited = 1;
        c->exit_pending = 1;
        c->exited_pid = rec->pid;
        return 0;
    case EV4_OS_BIND:
        p->bound = (int8_t)rec->os_arg;
        return 0;
    case EV4_OS_UNBIND:
        p->bound = -1;
        return 0;
    case EV4_OS_EXEC: /* a new image, the same PCB: nothing changes here */
    case EV4_OS_NONE:
    default:
        return 0;
    }
}

/* The counter interrupt at rec: the requests that are enabled, each acknowledged
 * through SL_CLR (a 0 in its bit) and handed to the driver. */
static void take_interrupt(ev4_os *os, unsigned cpu, const ev4_cycle *rec)
{
    ev4_cpu *c = &os->cpu[cpu];
    uint64_t hirr = pmu_read(c->b, EV4_ADDR_HIRR);
    uint64_t hier = pmu_read(c->b, EV4_ADDR_HIER);
    const int req[EV4_NCOUNTERS] = {
        (int)(EV4_FGET(hirr, HIRR, PC0) & EV4_FGET(hier, HIER, PC0)),
        (int)(EV4_FGET(hirr, HIRR, PC1) & EV4_FGET(hier, HIER, PC1)),
    };
    const uint64_t ack[EV4_NCOUNTERS] = {~EV4_FMASK(SL_CLR, PC0), ~EV4_FMASK(SL_CLR, PC1)};
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        if (!req[n])
            continue;
        c->st.taken[n]++;
        pmu_write(c->b, EV4_ADDR_SL_CLR, ack[n]);
        if (pfm_intr(os, cpu, n, rec))
            c->st.recorded[n]++;
        else
            c->st.dismissed[n]++;
    }
    c->line = 0;
}

int ev4_os_before(ev4_os *os, unsigned cpu, const ev4_cycle *rec, pmu_err *err)
{
    if (!os || !rec)
        return pmu_errf(err, PMU_E_INPUT, "OS model: expected a system and a record");
    if (cpu >= os->ncpus)
        return pmu_errf(err, PMU_E_INPUT, "OS model: CPU %u, expected 0..%u", cpu, os->ncpus - 1);
    if (check_record(os, cpu, rec, err) != 0)
        return -1;
    ev4_cpu *c = &os->cpu[cpu];
    c->exit_pending = 0;
    if (rec->pid != c->cur && context_switch(os, cpu, rec->pid) != 0)
        return pmu_errf(err, PMU_E_NOMEM, "OS model: CPU %u: out of memory for pid %u", cpu, rec->pid);
    if (apply_event(os, cpu, rec) != 0)
        return pmu_errf(err, PMU_E_NOMEM, "OS model: CPU %u: out of memory for pid %u", cpu,
                        rec->os_arg);
    if (c->line && rec->ipl < IPL_PFM && rec->mode != EV4_MODE_PAL)
        take_interrupt(os, cpu, rec);
    return 0;
}

void ev4_os_after(ev4_os *os, unsigned cpu, const ev4_cycle *rec, uint8_t pmi)
{
    (void)rec;
    if (!os || cpu >= os->ncpus)
        return;
    os->cpu[cpu].line = pmi ? 1 : 0;
    os->cpu[cpu].st.cycles++;
}
