/*
 * ev4_gen_run.c - WORKLOAD mode: a small OSF/1 system on one CPU (docs/ev4-stream.md,
 * "The generator").
 *
 * The CPU boots in the kernel as pid 0 and switches to the shell, which forks up to
 * nprocs children.  A child returns from fork in the shell's code, execs its program,
 * runs its user code with system calls (some of which block), binds itself to the CPU
 * now and then, and exits after a while; the shell waits for it and forks the next.
 * When nothing is runnable the idle thread runs.  Device interrupts (IPL 3 and 4), the
 * clock (IPL 5) and rare machine checks (IPL 7) come when the IPL is below theirs; some
 * system calls hold IPL 6 for a stretch.  PALcode runs between modes: callsys and
 * retsys around system calls, the interrupt entry and rti, swpctx in every switch.
 *
 * The records come from a queue of steps (ev4_step): a stretch of one walker's code in
 * one mode, IPL and process.  When the queue runs empty the next scene is planned from
 * the state of the processes; an interrupt puts its steps at the front.
 */
#include <string.h>

#include "ev4_gen.h"

#define QUANTUM_TICKS 3u /* clock ticks a process runs before others get their turn */

static uint32_t last_pid(const ev4_gen *g) { return EV4_GEN_PID_BASE(g->cpu) + EV4_GEN_PIDS_PER_CPU - 1; }
static int pids_left(const ev4_gen *g) { return g->next_pid <= last_pid(g); }
static uint32_t cur_pid(const ev4_gen *g) { return g->cur >= 0 ? g->proc[g->cur].pid : 0; }
static unsigned rnd(ev4_gen *g, unsigned lo, unsigned hi)
{
    return (unsigned)pmu_rng_range(&g->rng, lo, hi);
}

/* A new step at the back of the queue. */
static ev4_step *add(ev4_gen *g, ev4_walker *w, int enter, uint32_t pid, unsigned mode,
                     unsigned ipl, unsigned left)
{
    ev4_step *s = &g->q[g->nq++];
    memset(s, 0, sizeof *s);
    s->w = w;
    s->enter = enter;
    s->pid = pid;
    s->mode = (uint8_t)mode;
    s->ipl = (uint8_t)ipl;
    s->left = left;
    s->irq_ok = mode != EV4_MODE_PAL; /* PALmode is not interrupted */
    return s;
}

static ev4_step *pal(ev4_gen *g, enum ev4_pfn f, uint32_t pid, unsigned ipl)
{
    return add(g, &g->pw, (int)g->pfn[f], pid, EV4_MODE_PAL, ipl, rnd(g, 4, 14));
}

static ev4_step *kernel(ev4_gen *g, ev4_walker *w, enum ev4_kfn f, uint32_t pid, unsigned ipl,
                        unsigned left)
{
    return add(g, w, (int)g->kfn[f], pid, EV4_MODE_KERNEL, ipl, left);
}

static int runnable(const ev4_gen *g, unsigned i)
{
    return g->proc[i].pid != 0 && g->proc[i].wake <= g->now;
}

void ev4_run_init(ev4_gen *g)
{
    ev4_proc *sh = &g->proc[0];
    g->cur = -1; /* the CPU boots as pid 0 */
    g->next = NX_BOOT;
    g->next_pid = EV4_GEN_SHELL_PID(g->cpu) + 1;
    sh->pid = EV4_GEN_SHELL_PID(g->cpu);
    sh->phase = PH_RUN;
    sh->program = 0;
    sh->lifetime = UINT64_MAX;
    ev4_walk_set(&sh->w, g, &g->prog[0]);
    ev4_walk_enter(g, &sh->w, g->prog[0].first);
    ev4_walk_set(&g->kw, g, &g->kernel);
    g->kw.lo = g->helper_lo; /* a kernel path ends in the helpers */
    g->kw.hi = g->helper_hi;
    for (unsigned l = 0; l < 8; l++)
        g->iw[l] = g->kw;
    g->idw.lo = g->kfn[KF_IDLE];
    g->idw.hi = g->idw.lo + 1;
    g->idw.f = g->idw.lo;
    g->idw.pc = g->fn[g->idw.lo].start;
    g->due[3] = rnd(g, 2000, 20000);
    g->due[4] = rnd(g, 5000, 40000);
    g->due[5] = 10000;
    g->due[7] = rnd(g, 30000, 120000);
}

/* ---- scenes ---------------------------------------------------------------------- */
/* Who runs next: the current process until its quantum is over or it blocks or exits,
 * then the next runnable one round the table, else the idle thread. */
static void schedule(ev4_gen *g)
{
    int old = g->cur, pick = -1;
    unsigned n = 1 + g->nprocs;
    if (old >= 0 && !g->exited && runnable(g, (unsigned)old) && g->ticks < QUANTUM_TICKS) {
        g->next = NX_RESUME;
        return;
    }
    for (unsigned k = 1; k <= n && pick < 0; k++) {
        unsigned i = (g->rr + k) % n;
        if ((int)i != old && runnable(g, i))
            pick = (int)i;
    }
    if (pick < 0 && old >= 0 && !g->exited && runnable(g, (unsigned)old))
        pick = old;
    g->ticks = 0;
    if (pick == old && !g->exited) {
        g->next = pick >= 0 ? NX_RESUME : NX_IDLE;
        return;
    }
    uint32_t op = cur_pid(g), np = pick >= 0 ? g->proc[pick].pid : 0;
    if (!g->exited) { /* an exited process has had its last record */
        if (old >= 0)
            kernel(g, &g->kw, KF_THREAD_BLOCK, op, 0, rnd(g, 20, 60));
        pal(g, PF_SWPCTX, op, 0);
        pal(g, PF_SWPCTX, np, 0)->enter = -1; /* the same swpctx, now as the new process */
    } else {
        pal(g, PF_SWPCTX, np, 0);
    }
    if (pick >= 0) {
        kernel(g, &g->kw, KF_THREAD_BLOCK, np, 0, rnd(g, 20, 60));
        g->rr = (unsigned)pick;
    }
    g->cur = pick;
    g->exited = 0;
    g->next = pick >= 0 ? NX_RESUME : NX_IDLE;
}

/* The current process returns to user mode and runs its code. */
static void resume(ev4_gen *g)
{
    ev4_proc *p = &g->proc[g->cur];
    if (p->phase == PH_NEW && p->user_time == 0) /* the child's return from fork */
        kernel(g, &g->kw, KF_FORK, p->pid, 0, rnd(g, 20, 60));
    pal(g, PF_RETSYS, p->pid, 0);
    unsigned n = p->phase == PH_NEW ? rnd(g, 100, 600) : rnd(g, 200, 2500);
    add(g, &p->w, -1, p->pid, EV4_MODE_USER, 0, n);
    p->user_time += n;
    g->next = NX_SYSCALL;
}

static int free_slot(const ev4_gen *g)
{
    for (unsigned i = 1; i <= g->nprocs; i++)
        if (g->proc[i].pid == 0)
            return (int)i;
    return -1;
}

/* The system call the current process makes. */
static enum ev4_kfn choose_call(ev4_gen *g, const ev4_proc *p)
{
    unsigned r = rnd(g, 0, 999);
    if (g->cur == 0) { /* the shell: forks, waits, reads commands */
        if (g->live_children < g->nprocs && pids_left(g) && r < 700)
            return KF_FORK;
        return r < 850 ? KF_WAIT4 : KF_READ;
    }
    if (p->phase == PH_NEW)
        return KF_EXECVE;
    if (p->user_time >= p->lifetime && pids_left(g)) /* (with no pid left, nobody exits) */
        return KF_EXIT;
    if (r < (p->bound ? 100u : 50u)) /* binds, and unbinds through bind_to_cpu too */
        return KF_BIND;
    return r < 400 ? KF_READ : r < 700 ? KF_WRITE : r < 850 ? KF_OPEN : KF_CLOSE;
}

static void syscall(ev4_gen *g)
{
    ev4_proc *p = &g->proc[g->cur];
    uint32_t pid = p->pid;
    enum ev4_kfn call = choose_call(g, p);
    add(g, &p->w, -1, pid, EV4_MODE_USER, 0, 1)->callpal = 1;
    pal(g, PF_CALLSYS, pid, 0);
    kernel(g, &g->kw, KF_SYSCALL, pid, 0, rnd(g, 15, 40));
    if (pmu_rng_chance(&g->rng, 40)) { /* a stretch at IPL 6 (swpipl up and down) */
        pal(g, PF_SWPIPL, pid, 0);
        kernel(g, &g->kw, KF_TLB_SHOOTDOWN, pid, 6, rnd(g, 30, 150));
        pal(g, PF_SWPIPL, pid, 6);
    }
    ev4_step *s = kernel(g, &g->kw, call, pid, 0, rnd(g, 40, 500));
    g->next = NX_SCHEDULE;
    switch (call) {
    case KF_FORK: {
        int slot = free_slot(g);
        ev4_proc *c = &g->proc[slot];
        memset(c, 0, sizeof *c);
        c->pid = g->next_pid++;
        c->phase = PH_NEW;
        c->program = (unsigned)slot;
        c->wake = g->now;
        c->lifetime = rnd(g, 15000, 80000);
        ev4_walk_set(&c->w, g, &g->prog[0]); /* the shell's code until it execs */
        ev4_walk_enter(g, &c->w, g->prog[0].first + rnd(g, 0, g->prog[0].n - 1));
        g->live_children++;
        s->os = EV4_OS_FORK;
        s->os_arg = c->pid;
        break;
    }
    case KF_EXECVE:
        p->phase = PH_RUN;
        ev4_walk_set(&p->w, g, &g->prog[p->program]);
        ev4_walk_enter(g, &p->w, g->prog[p->program].first); /* __start */
        s->os = EV4_OS_EXEC;
        break;
    case KF_EXIT:
        s->os = EV4_OS_EXIT;
        s->os_last = 1;
        p->pid = 0; /* the slot is free once the exit's records are out */
        g->live_children--;
        g->exited = 1;
        if (g->proc[0].wake > g->now) /* the shell's wait4 returns */
            g->proc[0].wake = g->now;
        break;
    case KF_BIND:
        s->os = p->bound ? EV4_OS_UNBIND : EV4_OS_BIND;
        s->os_arg = p->bound ? 0 : g->cpu;
        p->bound = !p->bound;
        break;
    case KF_WAIT4:
        p->wake = g->now + rnd(g, 20000, 100000);
        break;
    case KF_READ: /* waits for the device now and then */
        if (pmu_rng_chance(&g->rng, 600))
            p->wake = g->now + rnd(g, 10000, 80000);
        break;
    case KF_WRITE:
        if (pmu_rng_chance(&g->rng, 150))
            p->wake = g->now + rnd(g, 2000, 20000);
        break;
    default:
        break;
    }
}

static void plan(ev4_gen *g)
{
    while (g->nq == 0) {
        switch (g->next) {
        case NX_BOOT:
            kernel(g, &g->kw, KF_SETUP, 0, 0, rnd(g, 200, 400));
            g->next = NX_SCHEDULE;
            break;
        case NX_SCHEDULE:
            schedule(g);
            break;
        case NX_RESUME:
            resume(g);
            break;
        case NX_SYSCALL:
            syscall(g);
            break;
        case NX_IDLE:
            add(g, &g->idw, -1, 0, EV4_MODE_KERNEL, 0, rnd(g, 40, 300))->idle = 1;
            g->next = NX_SCHEDULE;
            break;
        }
    }
}

/* ---- interrupts ------------------------------------------------------------------ */
static const enum ev4_kfn handler[8] = {[3] = KF_TU_INTR, [4] = KF_SCSI_INTR,
                                        [5] = KF_HARDCLOCK, [7] = KF_MCHECK};

static uint64_t period(ev4_gen *g, unsigned level)
{
    switch (level) {
    case 3: return rnd(g, 4000, 30000);
    case 4: return rnd(g, 8000, 50000);
    case 5: return 10000; /* the clock */
    default: return rnd(g, 60000, 200000);
    }
}

/* The interrupt at `level` before the front step's next record: its steps go first. */
static void interrupt(ev4_gen *g, unsigned level)
{
    const ev4_step front = g->q[0];
    ev4_step saved[EV4_QUEUE];
    unsigned nsaved = g->nq;
    memcpy(saved, g->q, nsaved * sizeof *saved);
    g->nq = 0;
    g->due[level] = g->now + period(g, level);
    pal(g, level == 7 ? PF_MCHK : PF_INTERRUPT, front.pid, level);
    kernel(g, &g->iw[level], handler[level], front.pid, level,
           level == 7 ? rnd(g, 100, 400) : rnd(g, 40, 300))->idle = front.idle;
    pal(g, PF_RTI, front.pid, level);
    memcpy(g->q + g->nq, saved, nsaved * sizeof *saved);
    g->nq += nsaved;
    if (level == 5) {
        g->ticks++;
    } else if (level == 3 || level == 4) { /* an I/O completes: a sleeper wakes */
        int best = -1;
        for (unsigned i = 0; i <= g->nprocs; i++)
            if (g->proc[i].pid && g->proc[i].wake > g->now &&
                (best < 0 || g->proc[i].wake < g->proc[best].wake))
                best = (int)i;
        if (best >= 0)
            g->proc[best].wake = g->now;
    }
}

void ev4_run_next(ev4_gen *g, ev4_cycle *c)
{
    plan(g);
    if (g->q[0].irq_ok)
        for (unsigned l = 7; l > g->q[0].ipl; l--)
            if (handler[l] && g->due[l] <= g->now && g->nq + 3 <= EV4_QUEUE) {
                interrupt(g, l);
                break;
            }
    ev4_step *s = &g->q[0];
    if (s->enter >= 0) {
        if (s->mode == EV4_MODE_PAL) { /* PALcode stays in its routine */
            s->w->lo = (unsigned)s->enter;
            s->w->hi = (unsigned)s->enter + 1;
        }
        ev4_walk_enter(g, s->w, (unsigned)s->enter);
        s->enter = -1;
    }
    if (s->callpal) { /* CALL_PAL: the one instruction, then PALcode */
        c->pc = s->w->pc;
        c->nissue = 1;
        c->cls[0] = EV4_CLASS_OTHER;
        if (s->w->pc + 4 <= g->fn[s->w->f].end - 4) /* never past the function's branch */
            s->w->pc += 4;
    } else {
        ev4_walk_cycle(g, s->w, s->mode, c);
    }
    c->pid = s->pid;
    c->mode = s->mode;
    c->ipl = s->ipl;
    c->idle = s->idle;
    if (s->os && (!s->os_last || s->left == 1)) {
        c->os = s->os;
        c->os_arg = s->os_arg;
        s->os = 0;
    }
    c->pin0 = pmu_rng_chance_ppm(&g->rng, 1500);
    c->pin1 = pmu_rng_chance_ppm(&g->rng, 1500);
    if (--s->left == 0) {
        g->nq--;
        memmove(g->q, g->q + 1, g->nq * sizeof *g->q);
    }
}
