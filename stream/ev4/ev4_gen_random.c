/*
 * ev4_gen_random.c - RANDOM mode (docs/ev4-stream.md, "The generator"): every field
 * drawn at random within validity, to stress the counter block and the OS model, with
 * context switches among a few pids of the CPU's range and occasional OS events.  The
 * system rules hold as in WORKLOAD mode: the CPU starts as pid 0, a fork's child is a
 * pid never seen, an exited pid never comes back and the next record is another pid,
 * a bind names this CPU.
 */
#include "ev4_gen.h"

#define RANDOM_PIDS 8u /* live pids at most, pid 0 included */

void ev4_random_init(ev4_gen *g)
{
    uint32_t base = EV4_GEN_PID_BASE(g->cpu);
    g->rpid[0] = 0;
    g->nrpid = 1;
    for (unsigned i = 0; i < 3; i++) /* the shell and two processes that exist from their
                                         first record */
        g->rpid[g->nrpid++] = base + i;
    g->next_pid = base + 3;
    g->rcur = 0;
    g->rpc = EV4_GEN_KERNEL_BASE;
}

static void drop_pid(ev4_gen *g, uint32_t pid)
{
    for (unsigned i = 1; i < g->nrpid; i++)
        if (g->rpid[i] == pid) {
            g->rpid[i] = g->rpid[--g->nrpid];
            return;
        }
}

/* The OS event of a kernel-mode record of a process (not pid 0). */
static void os_event(ev4_gen *g, ev4_cycle *c)
{
    unsigned r = (unsigned)pmu_rng_below(&g->rng, 5);
    int can_fork = g->next_pid < EV4_GEN_PID_BASE(g->cpu) + EV4_GEN_PIDS_PER_CPU &&
                   g->nrpid < RANDOM_PIDS;
    switch (r) {
    case 0:
        if (!can_fork)
            return;
        c->os = EV4_OS_FORK;
        c->os_arg = g->next_pid++;
        g->rpid[g->nrpid++] = c->os_arg;
        break;
    case 1:
        c->os = EV4_OS_EXEC;
        break;
    case 2:
        if (c->pid == EV4_GEN_SHELL_PID(g->cpu)) /* the shell never exits */
            return;
        c->os = EV4_OS_EXIT;
        drop_pid(g, c->pid);
        g->rexited = 1;
        break;
    case 3:
        c->os = EV4_OS_BIND;
        c->os_arg = g->cpu;
        break;
    default:
        c->os = EV4_OS_UNBIND;
        break;
    }
}

void ev4_random_next(ev4_gen *g, ev4_cycle *c)
{
    pmu_rng *r = &g->rng;
    /* a context switch (never on the first record: the CPU boots as pid 0); after an
     * exit the exited pid is no longer among those drawn */
    if (g->rexited || (g->now && pmu_rng_chance(r, 30))) {
        g->rcur = g->rpid[pmu_rng_below(r, g->nrpid)];
        g->rexited = 0;
    }
    c->pid = g->rcur;
    c->mode = (uint8_t)pmu_rng_below(r, 3);
    if (c->pid == 0 && c->mode == EV4_MODE_USER)
        c->mode = EV4_MODE_KERNEL;
    c->ipl = c->mode == EV4_MODE_USER ? 0 : (uint8_t)pmu_rng_below(r, 8);
    c->idle = c->pid == 0 && c->mode == EV4_MODE_KERNEL && pmu_rng_chance(r, 500);
    c->nissue = (uint8_t)pmu_rng_below(r, EV4_MAX_ISSUE + 1);
    for (unsigned i = 0; i < c->nissue; i++) {
        c->cls[i] = (uint8_t)pmu_rng_below(r, EV4_NCLASSES);
        if (c->cls[i] == EV4_CLASS_LOAD && pmu_rng_chance(r, 250))
            c->replay |= (uint8_t)(1u << i);
    }
    c->stall = c->nissue ? EV4_STALL_NONE : (uint8_t)pmu_rng_range(r, EV4_STALL_DRY, EV4_STALL_FROZEN);
    c->dmiss = pmu_rng_chance(r, 250);
    c->imiss = pmu_rng_chance(r, 250);
    c->mispredict = pmu_rng_chance(r, 250);
    c->pin0 = pmu_rng_chance(r, 250);
    c->pin1 = pmu_rng_chance(r, 250);
    /* pcs: mostly near the last one, sometimes anywhere */
    if (pmu_rng_chance(r, 100))
        g->rpc = pmu_rng_next(r) & EV4_PC_MASK;
    else
        g->rpc += 4 * pmu_rng_range(r, 0, 8);
    c->pc = g->rpc;
    if (c->mode == EV4_MODE_KERNEL && c->pid != 0 && pmu_rng_chance(r, 20))
        os_event(g, c);
}
