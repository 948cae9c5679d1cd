/*
 * session.c - a pfm setup run on the 21064 family (include/cli/ev4/ev4_session.h): the OS
 * model and the pfm driver of sw/ev4/ on one counter block per CPU, as a tool such as
 * kprofile(1) drives them, and the checks that the driver's results are exact
 * (docs/ev4-pfm.md, "Exactness").
 *
 * The checks do not trust the software: they tally, from what the harness sees of each
 * CPU (the visible HIRR after every clock, the records, the interrupts the OS takes),
 * what the driver must report, and compare.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sw/ev4/ev4_os_drv.h"
#include "csim/ev4/ev4_ref.h"
#include "common/ev4/ev4_regs.h"
#include "cli/ev4/ev4_session.h"
#include "session_internal.h"
#include "harness/pmu_cosim.h"
#include "common/pmu_text.h"

static const char *errno_name(int e)
{
    switch (e) {
    case -EINVAL: return "EINVAL";
    case -EBUSY: return "EBUSY";
    case -EFAULT: return "EFAULT";
    case -ENOMEM: return "ENOMEM";
    case -EBADF: return "EBADF";
    default: return "an error";
    }
}

static int ioctl_ok(ev4_session *x, unsigned long cmd, const char *name, void *arg, pmu_err *err)
{
    int rc = pfm_ioctl(x->os, x->fd, cmd, arg);
    if (rc < 0)
        return pmu_errf(err, PMU_E_INPUT, "pfm: ioctl %s failed with %s (%d)", name, errno_name(rc), rc);
    return 0;
}

/* The functions a profile covers when the setup gives no range: the kernel's ("vmunix:")
 * or one user program's, the one owning the lowest user address (the generated workload's
 * shell): all user programs together span more than the driver's bucket memory. */
static int profiled(const char *name, ev4_prof_mode m, const char *prog, size_t plen)
{
    int kernel = strncmp(name, "vmunix:", 7) == 0, pal = strncmp(name, "pal:", 4) == 0;
    if (m == EV4_PROF_KERNEL)
        return kernel;
    return !kernel && !pal && (!prog || (strncmp(name, prog, plen) == 0 && name[plen] == ':'));
}

static void symbol_range(const ev4_session *x, ev4_prof_mode m, uint64_t *lo, uint64_t *hi)
{
    const char *prog = NULL;
    size_t plen = 0;
    *lo = UINT64_MAX;
    *hi = 0;
    for (int pass = m == EV4_PROF_USER ? 0 : 1; pass < 2; pass++)
        for (unsigned c = 0; c < x->ncpus; c++) {
            const drv_symtab *t = x->syms[c];
            for (unsigned i = 0; t && i < drv_symtab_count(t); i++) {
                const char *name = drv_symtab_name(t, i);
                uint64_t s, e;
                if (!profiled(name, m, prog, plen) || drv_symtab_range(t, i, &s, &e))
                    continue;
                if (pass == 0) { /* the user program owning the lowest address */
                    if (s < *lo) {
                        *lo = s;
                        prog = name;
                        plen = strcspn(name, ":");
                    }
                    continue;
                }
                if (s < *lo)
                    *lo = s;
                if (e > *hi)
                    *hi = e;
            }
        }
    if (*lo >= *hi)
        *lo = *hi = 0;
}

static int setup_profile(ev4_session *x, pmu_err *err)
{
    const ev4_setup *s = &x->setup;
    if (s->prof == EV4_PROF_NONE)
        return 0;
    uint64_t lo = s->prof_start, hi = s->prof_end;
    if (!hi) {
        symbol_range(x, s->prof, &lo, &hi);
        if (!hi)
            return pmu_errf(err, PMU_E_INPUT, "profile = %s: no range given and no %s functions in the symbols",
                            s->prof == EV4_PROF_KERNEL ? "kernel" : "user",
                            s->prof == EV4_PROF_KERNEL ? "kernel (vmunix:)" : "user-program");
        /* The functions' span, widened to whole buckets (four instructions each); a range the
         * setup gives goes to the ioctl as it is (the setup refuses an unaligned one). */
        lo &= ~(uint64_t)15;
        hi = (hi + 15) & ~(uint64_t)15;
    }
    x->u->range = (struct addr_range){lo, hi};
    if (ioctl_ok(x, s->prof == EV4_PROF_KERNEL ? PCNTSETKADDR : PCNTSETUADDR,
                 s->prof == EV4_PROF_KERNEL ? "PCNTSETKADDR" : "PCNTSETUADDR", &x->u->range, err))
        return -1;
    x->prof_start = lo;
    x->prof_end = hi;
    x->nbuckets = (hi - lo) / 16;
    x->want_buckets = calloc(x->nbuckets * x->ncpus, sizeof *x->want_buckets);
    x->buckets = calloc(x->nbuckets * x->ncpus, sizeof *x->buckets);
    if (!x->want_buckets || !x->buckets)
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    return ev4_os_user_map(x->os, x->buckets, x->nbuckets * x->ncpus * sizeof *x->buckets) ? -1 : 0;
}

static int session_setup(ev4_session *x, pmu_err *err)
{
    const ev4_setup *s = &x->setup;
    static const int modes[] = {PCNTOPENALL, PCNTOPENEACH, PCNTOPENONE};
    if (ev4_os_user_map(x->os, x->u, sizeof *x->u))
        return pmu_errf(err, PMU_E_INTERNAL, "pfm: cannot map the tool's memory");
    if (s->mem_limit)
        ev4_os_set_mem_limit(x->os, s->mem_limit);
    if (ev4_os_spawn(x->os, s->caller) || (s->bind >= 0 && ev4_os_bind(x->os, s->caller, s->bind)))
        return pmu_errf(err, PMU_E_INPUT, "pfm: caller %" PRIu32 " cannot be bound to CPU %d", s->caller, s->bind);
    x->fd = pfm_open(x->os, s->caller, modes[s->open]);
    if (x->fd < 0)
        return pmu_errf(err, PMU_E_INPUT, "pfm: open of /dev/pfcntr failed with %s (%d)%s", errno_name(x->fd),
                        x->fd, s->open == EV4_OPEN_ONE && s->bind < 0 ? ": open one needs the caller bound (bind = CPU)" : "");
    x->u->items = (long)s->items;
    if (ioctl_ok(x, PCNTSETITEMS, "PCNTSETITEMS", &x->u->items, err))
        return -1;
    memset(&x->u->iccsr, 0, sizeof x->u->iccsr);
    x->u->iccsr.iccsr_mux0 = s->mux[0];
    x->u->iccsr.iccsr_mux1 = s->mux[1];
    x->u->iccsr.iccsr_pc0 = s->pc[0];
    x->u->iccsr.iccsr_pc1 = s->pc[1];
    x->u->iccsr.iccsr_disable = s->disable;
    if (ioctl_ok(x, PCNTSETMUX, "PCNTSETMUX", &x->u->iccsr, err))
        return -1;
    if (s->log_select ? ioctl_ok(x, PCNTLOGSELECT, "PCNTLOGSELECT", NULL, err)
                      : ioctl_ok(x, PCNTLOGALL, "PCNTLOGALL", NULL, err))
        return -1;
    if (setup_profile(x, err))
        return -1;
    return s->enable ? ioctl_ok(x, PCNTRENABLE, "PCNTRENABLE", NULL, err) : 0;
}

ev4_session *ev4_session_start(const ev4_setup *s, unsigned ncpus, pmu_backend *const *cpus,
                               const drv_symtab *const *syms, pmu_err *err)
{
    ev4_session *x = calloc(1, sizeof *x);
    if (!x || !(x->u = calloc(1, sizeof *x->u))) {
        free(x);
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    x->setup = *s;
    x->ncpus = ncpus;
    x->fd = -1;
    for (unsigned c = 0; c < ncpus; c++) {
        x->cpu[c] = cpus[c];
        x->syms[c] = syms ? syms[c] : NULL;
    }
    if (!(x->os = ev4_os_create(ncpus, cpus, err)) || session_setup(x, err)) {
        ev4_session_free(x);
        return NULL;
    }
    for (unsigned c = 0; c < ncpus; c++)
        x->t[c].hirr = (uint8_t)pmu_read(cpus[c], EV4_ADDR_HIRR) ? 1 : 0;
    return x;
}

static uint8_t hirr_bits(uint64_t hirr)
{
    return (uint8_t)(EV4_FGET(hirr, HIRR, PC0) | EV4_FGET(hirr, HIRR, PC1) << 1);
}

static uint64_t recorded(const ev4_os_cpu_stats *st) { return st->recorded[0] + st->recorded[1]; }

/* The ticks the driver recorded at this record: where the IPL histogram and the profile
 * must have put them (pfm(7): entries 0-5 the IPL, 7 idle, 8 user). */
static void tally_ticks(ev4_session *x, unsigned cpu, const ev4_cycle *rec, uint64_t ticks)
{
    cpu_tally *t = &x->t[cpu];
    t->ticks += ticks;
    unsigned slot = rec->mode == EV4_MODE_USER ? PFM_IPL_USER
                    : (rec->ipl == 0 && rec->idle) ? PFM_IPL_IDLE : rec->ipl;
    t->ipl[slot] += ticks;
    if (!x->nbuckets)
        return;
    int mode_ok = x->setup.prof == EV4_PROF_KERNEL ? rec->mode == EV4_MODE_KERNEL : rec->mode == EV4_MODE_USER;
    if (mode_ok && rec->pc >= x->prof_start && rec->pc < x->prof_end)
        x->want_buckets[(x->setup.open == EV4_OPEN_EACH ? cpu * x->nbuckets : 0) +
                        (rec->pc - x->prof_start) / 16] += (uint32_t)ticks;
}

int ev4_session_admit(ev4_session *x, unsigned cpu, const ev4_cycle *rec, pmu_err *err)
{
    uint64_t before = recorded(ev4_os_cpu(x->os, cpu));
    if (ev4_os_before(x->os, cpu, rec, err))
        return -1;
    uint64_t ticks = recorded(ev4_os_cpu(x->os, cpu)) - before;
    if (ticks)
        tally_ticks(x, cpu, rec, ticks);
    /* The service's SL_CLR writes happened between the last snapshot and this clock. */
    x->t[cpu].hirr = hirr_bits(pmu_read(x->cpu[cpu], EV4_ADDR_HIRR));
    x->t[cpu].records++;
    x->t[cpu].pme_records += (unsigned)ev4_os_pcb_pme(x->os, rec->pid);
    return 0;
}

void ev4_session_after(ev4_session *x, unsigned cpu, const ev4_cycle *rec, const pmu_state *st)
{
    cpu_tally *t = &x->t[cpu];
    uint8_t now = hirr_bits(st->reg[EV4_VIS_HIRR]);
    for (unsigned n = 0; n < 2; n++)
        t->edges[n] += ((now >> n) & 1) && !((t->hirr >> n) & 1);
    t->hirr = now;
    ev4_os_after(x->os, cpu, rec, st->pmi);
}

int ev4_session_finish(ev4_session *x, pmu_err *err)
{
    user_mem *u = x->u;
    for (unsigned c = 0; c < x->ncpus; c++)
        for (unsigned n = 0; n < 2; n++)
            x->pending[c][n] = (x->t[c].hirr >> n) & 1;
    x->ncnt = x->setup.open == EV4_OPEN_EACH ? x->ncpus : 1;
    u->cnt_p = u->cnt;
    u->ipl_p = u->ipl;
    if ((x->setup.items & PFM_COUNTERS) && ioctl_ok(x, PCNTGETCNT, "PCNTGETCNT", &u->cnt_p, err))
        return -1;
    if ((x->setup.items & PFM_IPL) && ioctl_ok(x, PCNTGETIPLHIS, "PCNTGETIPLHIS", &u->ipl_p, err))
        return -1;
    if (ioctl_ok(x, PCNTGETRSIZE, "PCNTGETRSIZE", &u->rsize, err))
        return -1;
    uint64_t want = x->nbuckets * x->ncpus * 4 / (x->setup.open == EV4_OPEN_EACH ? 1 : x->ncpus);
    if ((uint64_t)u->rsize != want)
        return pmu_errf(err, PMU_E_INTERNAL, "pfm: PCNTGETRSIZE returned %ld, expected %" PRIu64, u->rsize, want);
    if (u->rsize > 0) {
        ssize_t got = pfm_read(x->os, x->fd, x->buckets, (size_t)u->rsize);
        if (got != u->rsize)
            return pmu_errf(err, PMU_E_INTERNAL, "pfm: read of %ld profile bytes returned %zd", u->rsize, got);
    }
    pfm_close(x->os, x->fd);
    x->fd = -1;
    x->finished = 1;
    return 0;
}

uint64_t ev4_session_interrupts(const ev4_session *x)
{
    uint64_t n = 0;
    for (unsigned c = 0; c < x->ncpus; c++)
        n += ev4_os_cpu(x->os, c)->taken[0] + ev4_os_cpu(x->os, c)->taken[1];
    return n;
}

void ev4_session_free(ev4_session *x)
{
    if (!x)
        return;
    if (x->os) {
        if (x->fd >= 0)
            pfm_close(x->os, x->fd);
        ev4_os_destroy(x->os);
    }
    free(x->want_buckets);
    free(x->buckets);
    free(x->u);
    free(x);
}
