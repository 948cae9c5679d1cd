/*
 * ev4_pfm.c - the pfm pseudo-device (docs/ev4-pfm.md, "The device"): open, close, the
 * ioctls, read, and the interrupt service routine that records a tick.
 *
 * Sources: docs/sources.md (pfm(7); OSF/1 pfm.c pfmopen(), pfmioctl(), pfmintr();
 * Tru64 pfcntr.h for the ioctl numbers and structures; Tru64 ioctl.h for the encoding
 * whose direction and length drive the copy-in and copy-out below).
 */
#include "ev4_os_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PFM_FD 3            /* the lowest descriptor after stdin, stdout, stderr */
#define PFM_ITEMS_ALL (PFM_COUNTERS | PFM_IPL | PFM_PROFILING)
#define OPEN_ACCMODE 3      /* O_RDONLY 0, O_WRONLY 1, O_RDWR 2 */
#define IOC_LEN(cmd) (((cmd) >> 16) & 0x1fffu)
#define IOC_KBUF 16         /* the largest argument: struct addr_range */

static int covers(const pfm_dev *d, unsigned cpu)
{
    return d->mode != PCNTOPENONE || cpu == d->one_cpu;
}

/* wrperfmon on each CPU the open covers. */
static void pal_covered(ev4_os *os, uint64_t a0, uint64_t a1)
{
    for (unsigned c = 0; c < os->ncpus; c++)
        if (covers(&os->dev, c))
            ev4_pal_wrperfmon(os, c, a0, a1);
}

void pfm_dev_free(pfm_dev *d)
{
    free(d->buckets);
    d->buckets = NULL;
    d->nbuckets = 0;
    d->nsets = 0;
    d->prof = PFM_PROF_NONE;
    d->start = d->end = 0;
}

/* ---- the interrupt service routine (pfmintr) ---- */

static unsigned ipl_slot(const ev4_cycle *rec)
{
    if (rec->mode == EV4_MODE_USER)
        return PFM_IPL_USER;
    if (rec->ipl == 0 && rec->idle)
        return PFM_IPL_IDLE;
    return rec->ipl;
}

static void profile(pfm_dev *d, unsigned cpu, const ev4_cycle *rec)
{
    pfm_prof want = rec->mode == EV4_MODE_USER ? PFM_PROF_USER : PFM_PROF_KERNEL;
    if (d->prof != want || rec->pc < d->start || rec->pc >= d->end)
        return;
    uint64_t set = d->mode == PCNTOPENEACH ? cpu : 0;
    d->buckets[set * d->nbuckets + (rec->pc - d->start) / PFM_BUCKET_SPAN]++;
}

int pfm_intr(ev4_os *os, unsigned cpu, unsigned n, const ev4_cycle *rec)
{
    pfm_dev *d = &os->dev;
    /* pfm(7) NOTES: a disabled counter still interrupts; the tick is dismissed. */
    if (!d->open || !covers(d, cpu) || (d->disabled >> n) & 1u)
        return 0;
    pfm_set *s = &d->sets[cpu];
    if (d->items & PFM_COUNTERS) {
        s->cntr[n]++;
        s->pr_cycle = os->cpu[cpu].st.cycles;
        s->seq = ++d->seq;
    }
    if (d->items & PFM_IPL)
        s->ipl[ipl_slot(rec)]++;
    if (d->items & PFM_PROFILING)
        profile(d, cpu, rec);
    return 1;
}

/* ---- open, close ---- */

int pfm_open(ev4_os *os, uint32_t pid, int flags)
{
    int mode = flags & PCNTOPENMASK;
    if (!os || mode == 0 || (flags & ~(PCNTOPENMASK | OPEN_ACCMODE)) != 0 ||
        (flags & OPEN_ACCMODE) == OPEN_ACCMODE)
        return -EINVAL;
    const ev4_proc *p = ev4_os_proc(os, pid);
    if (!p || p->exited)
        return -EINVAL;
    pfm_dev *d = &os->dev;
    if (d->open)
        return -EBUSY;
    /* pfm(7): the opener of PCNTOPENONE must be bound to the CPU it measures. */
    if (mode == PCNTOPENONE && p->bound < 0)
        return -EINVAL;
    d->open = 1;
    d->pid = pid;
    d->mode = mode;
    d->one_cpu = mode == PCNTOPENONE ? (unsigned)p->bound : 0;
    d->items = PFM_COUNTERS;
    d->disabled = 0;
    /* pfm(7): opening disables interrupts and logs all system activity; the counts
     * are not cleared. */
    pal_covered(os, PFDISABLE, 0);
    pal_covered(os, PFOPT, PFOPT_LOGALL);
    return PFM_FD;
}

static pfm_dev *dev_of(ev4_os *os, int fd)
{
    return os && os->dev.open && fd == PFM_FD ? &os->dev : NULL;
}

int pfm_close(ev4_os *os, int fd)
{
    pfm_dev *d = dev_of(os, fd);
    if (!d)
        return -EBADF;
    pal_covered(os, PFDISABLE, 0);
    pfm_dev_free(d);
    d->open = 0;
    return 0;
}

/* ---- the caller's memory ---- */

static int copy_in(const ev4_os *os, void *dst, const void *src, size_t n)
{
    if (!ev4_os_user_ok(os, src, n))
        return -EFAULT;
    memcpy(dst, src, n);
    return 0;
}

static int copy_out(const ev4_os *os, void *dst, const void *src, size_t n)
{
    if (!ev4_os_user_ok(os, dst, n))
        return -EFAULT;
    memcpy(dst, src, n);
    return 0;
}

/* ---- the ioctls ---- */

/* The data sets an open reports: ncpus in PCNTOPENEACH, else one. */
static unsigned nreports(const ev4_os *os) { return os->dev.mode == PCNTOPENEACH ? os->ncpus : 1; }

/* Report r: CPU r's set (EACH), the bound CPU's (ONE), or every CPU's summed (ALL),
 * whose pr_cycle is that of the last tick recorded on any CPU. */
static pfm_set report(const ev4_os *os, unsigned r)
{
    const pfm_dev *d = &os->dev;
    if (d->mode == PCNTOPENEACH)
        return d->sets[r];
    if (d->mode == PCNTOPENONE)
        return d->sets[d->one_cpu];
    pfm_set sum;
    memset(&sum, 0, sizeof sum);
    for (unsigned c = 0; c < os->ncpus; c++) {
        const pfm_set *s = &d->sets[c];
        for (unsigned n = 0; n < EV4_NCOUNTERS; n++)
            sum.cntr[n] += s->cntr[n];
        for (unsigned i = 0; i < PFM_NIPL; i++)
            sum.ipl[i] += s->ipl[i];
        if (s->seq > sum.seq) {
            sum.seq = s->seq;
            sum.pr_cycle = s->pr_cycle;
        }
    }
    return sum;
}

static void fill_counts(void *dst, const pfm_set *s)
{
    struct pfcntrs *o = dst;
    o->pf_cntr0 = s->cntr[0];
    o->pf_cntr1 = s->cntr[1];
    o->pr_cycle = s->pr_cycle;
}

static void fill_ipls(void *dst, const pfm_set *s)
{
    memcpy(((struct pfipls *)dst)->ipl, s->ipl, sizeof s->ipl);
}

/* PCNTGETCNT and PCNTGETIPLHIS: the reports, one element of `size` bytes each filled by
 * `fill`, copied to the user's array; EINVAL when `item` is not selected. */
static int get_reports(ev4_os *os, void *user, long item, size_t size,
                       void (*fill)(void *dst, const pfm_set *s))
{
    if (!(os->dev.items & item))
        return -EINVAL;
    union {
        struct pfcntrs cnt[EV4_MAX_CPUS];
        struct pfipls ipl[EV4_MAX_CPUS];
    } out;
    unsigned k = nreports(os);
    for (unsigned r = 0; r < k; r++) {
        pfm_set s = report(os, r);
        fill((unsigned char *)&out + r * size, &s);
    }
    return copy_out(os, user, &out, k * size);
}

static int clear_counts(ev4_os *os)
{
    pfm_dev *d = &os->dev;
    if (!(d->items & (PFM_COUNTERS | PFM_IPL)))
        return -EINVAL;
    for (unsigned c = 0; c < os->ncpus; c++) {
        if (!covers(d, c))
            continue;
        pfm_set *s = &d->sets[c];
        if (d->items & PFM_COUNTERS) {
            memset(s->cntr, 0, sizeof s->cntr);
            s->pr_cycle = 0;
            s->seq = 0;
        }
        if (d->items & PFM_IPL)
            memset(s->ipl, 0, sizeof s->ipl);
    }
    return 0;
}

static int set_mux(ev4_os *os, const struct iccsr *in)
{
    /* OSF/1 pfm.c: both counters disabled is refused; pfm(7): the ign fields must be
     * zero. */
    if (in->iccsr_disable == 3 || in->iccsr_ign0 || in->iccsr_ign1 || in->iccsr_ign2 || in->iccsr_ign3)
        return -EINVAL;
    os->dev.disabled = in->iccsr_disable;
    /* The disable field is software only (in the chip, those bits are PIPE and BPE):
     * it never reaches wrperfmon. */
    struct iccsr hw = *in;
    hw.iccsr_disable = 0;
    uint64_t a1;
    memcpy(&a1, &hw, sizeof a1);
    pal_covered(os, PFSET, a1);
    return 0;
}

static int log_select(ev4_os *os)
{
    /* pfm(7): sets PCB_PME_BIT for this process, then counts only such processes. */
    ev4_proc *p = ev4_os_proc(os, os->dev.pid);
    if (p)
        p->pme = 1;
    pal_covered(os, PFOPT, PFOPT_LOGSELECT);
    return 0;
}

static int set_items(ev4_os *os, long items)
{
    if ((items & PFM_ITEMS_ALL) == 0 || (items & ~(long)PFM_ITEMS_ALL) != 0)
        return -EINVAL;
    os->dev.items = items;
    return 0;
}

static int set_range(ev4_os *os, pfm_prof prof, const struct addr_range *r)
{
    pfm_dev *d = &os->dev;
    if (!(d->items & PFM_PROFILING))
        return -EINVAL;
    if (r->start >= r->end || r->start % PFM_BUCKET_SPAN || r->end % PFM_BUCKET_SPAN)
        return -EINVAL;
    uint64_t nb = (r->end - r->start) / PFM_BUCKET_SPAN;
    unsigned nsets = nreports(os);
    if (nb > os->mem_limit / PFM_BUCKET_BYTES / nsets)
        return -ENOMEM;
    uint32_t *b = calloc((size_t)(nb * nsets), PFM_BUCKET_BYTES);
    if (!b)
        return -ENOMEM;
    pfm_dev_free(d);
    d->buckets = b;
    d->nbuckets = nb;
    d->nsets = nsets;
    d->prof = prof;
    d->start = r->start;
    d->end = r->end;
    return 0;
}

/* Bytes of profile data a read returns (PCNTGETRSIZE). */
static uint64_t profile_bytes(const pfm_dev *d)
{
    if (!(d->items & PFM_PROFILING) || d->prof == PFM_PROF_NONE)
        return 0;
    return d->nbuckets * d->nsets * PFM_BUCKET_BYTES;
}

static int known_cmd(unsigned long cmd)
{
    switch (cmd) {
    case PCNTRDISABLE: case PCNTRENABLE: case PCNTSETMUX: case PCNTLOGALL: case PCNTLOGSELECT:
    case PCNTCLEARCNT: case PCNTGETCNT: case PCNTGETRSIZE: case PCNTGETIPLHIS: case PCNTSETITEMS:
    case PCNTSETUADDR: case PCNTSETKADDR:
        return 1;
    default:
        return 0;
    }
}

/* The driver's part, with the argument already copied in (or to be copied out) as the
 * ioctl's direction says. */
static int dev_ioctl(ev4_os *os, unsigned long cmd, void *k)
{
    switch (cmd) {
    case PCNTRDISABLE:
        pal_covered(os, PFDISABLE, 0);
        return 0;
    case PCNTRENABLE:
        pal_covered(os, PFENABLE, 0);
        return 0;
    case PCNTSETMUX:
        return set_mux(os, (const struct iccsr *)k);
    case PCNTLOGALL:
        pal_covered(os, PFOPT, PFOPT_LOGALL);
        return 0;
    case PCNTLOGSELECT:
        return log_select(os);
    case PCNTCLEARCNT:
        return clear_counts(os);
    case PCNTGETCNT:
        return get_reports(os, *(void **)k, PFM_COUNTERS, sizeof(struct pfcntrs), fill_counts);
    case PCNTGETIPLHIS:
        return get_reports(os, *(void **)k, PFM_IPL, sizeof(struct pfipls), fill_ipls);
    case PCNTGETRSIZE:
        *(long *)k = (long)profile_bytes(&os->dev);
        return 0;
    case PCNTSETITEMS:
        return set_items(os, *(const long *)k);
    case PCNTSETUADDR:
        return set_range(os, PFM_PROF_USER, (const struct addr_range *)k);
    case PCNTSETKADDR:
        return set_range(os, PFM_PROF_KERNEL, (const struct addr_range *)k);
    default:
        return -EINVAL;
    }
}

int pfm_ioctl(ev4_os *os, int fd, unsigned long cmd, void *arg)
{
    if (!dev_of(os, fd))
        return -EBADF;
    if (!known_cmd(cmd))
        return -EINVAL;
    /* The system call copies an IN argument in before the driver runs and an OUT one
     * out after it succeeds (Tru64 ioctl.h: direction and length in the command). */
    _Alignas(uint64_t) unsigned char k[IOC_KBUF];
    size_t len = IOC_LEN(cmd);
    memset(k, 0, sizeof k);
    if ((cmd & PFM_IOC_IN) && copy_in(os, k, arg, len) != 0)
        return -EFAULT;
    int rc = dev_ioctl(os, cmd, k);
    if (rc == 0 && (cmd & PFM_IOC_OUT))
        return copy_out(os, arg, k, len);
    return rc;
}

ssize_t pfm_read(ev4_os *os, int fd, void *buf, size_t n)
{
    pfm_dev *d = dev_of(os, fd);
    if (!d)
        return -EBADF;
    uint64_t size = profile_bytes(d);
    size_t k = n < size ? n : (size_t)size;
    if (k == 0)
        return 0;
    if (copy_out(os, buf, d->buckets, k) != 0)
        return -EFAULT;
    return (ssize_t)k;
}
