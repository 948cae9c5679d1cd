/*
 * ev4_gen.c - the ev4 dialect's generator behind pmu_gen_* (docs/ev4-stream.md, "The
 * generator"): the options, the address layout and the function list.
 *
 * The layout of PALcode and the kernel depends on the seed only, and program k's on the
 * seed and k, so the CPUs of one system (same seed) agree on every address; CPU c runs
 * the shell (program 0) and programs 1 + c * nprocs .. c * nprocs + nprocs, so their
 * lists never disagree about a program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev4_gen.h"

static const char *const kernel_roles[KF_NROLES] = {
    [KF_SETUP] = "setup_main",   [KF_IDLE] = "idle_thread",   [KF_SYSCALL] = "syscall",
    [KF_THREAD_BLOCK] = "thread_block", [KF_READ] = "read",   [KF_WRITE] = "write",
    [KF_OPEN] = "open",          [KF_CLOSE] = "close",        [KF_FORK] = "fork",
    [KF_EXECVE] = "execve",      [KF_EXIT] = "exit",          [KF_WAIT4] = "wait4",
    [KF_BIND] = "bind_to_cpu",   [KF_TU_INTR] = "tu_intr",    [KF_SCSI_INTR] = "scsi_intr",
    [KF_HARDCLOCK] = "hardclock", [KF_TLB_SHOOTDOWN] = "tlb_shootdown", [KF_MCHECK] = "mcheck",
};
static const char *const kernel_helpers[] = {"bcopy", "bzero", "copyin", "copyout", "namei",
                                             "vm_fault", "pmap_enter", "kalloc", "kfree",
                                             "thread_wakeup", "softclock", "biodone"};
#define NHELPERS (sizeof kernel_helpers / sizeof kernel_helpers[0])
static const char *const pal_names[PF_N] = {"callsys", "retsys", "rti", "interrupt",
                                            "swpctx", "swpipl", "mchk"};
static const char *const programs[] = {"cc",  "ld",  "make", "ls",  "grep", "awk",
                                       "sed", "sort", "dd",  "tar", "f77",  "spice",
                                       "cat", "vi",  "compress", "latex"};
#define NPROGRAMS (sizeof programs / sizeof programs[0])
static const char *const user_funcs[] = {"parse", "lookup", "hash", "compute", "output",
                                         "input", "scan", "emit", "strlen", "memcpy",
                                         "malloc", "printf", "qsort", "getc"};
#define NUSER_FUNCS (sizeof user_funcs / sizeof user_funcs[0])

const char *ev4_gen_program_name(unsigned k, char *buf, size_t size)
{
    if (k == 0)
        snprintf(buf, size, "sh");
    else if (k <= NPROGRAMS)
        snprintf(buf, size, "%s", programs[k - 1]);
    else /* a second copy of a program, at its own address */
        snprintf(buf, size, "%s%u", programs[(k - 1) % NPROGRAMS], (unsigned)((k - 1) / NPROGRAMS + 1));
    return buf;
}

static int is_fp_program(unsigned k)
{
    const char *p = k ? programs[(k - 1) % NPROGRAMS] : "sh";
    return !strcmp(p, "f77") || !strcmp(p, "spice");
}

typedef struct builder {
    ev4_gen *g;
    unsigned cap;
} builder;

static int add_func(builder *b, uint64_t start, uint64_t end, const char *owner, const char *name)
{
    ev4_gen *g = b->g;
    if (g->nfn == b->cap) {
        unsigned cap = b->cap ? 2 * b->cap : 64;
        ev4_func *fn = realloc(g->fn, cap * sizeof *fn);
        if (!fn)
            return -1;
        g->fn = fn;
        b->cap = cap;
    }
    size_t n = strlen(owner) + strlen(name) + 2;
    char *s = malloc(n);
    if (!s)
        return -1;
    snprintf(s, n, "%s:%s", owner, name);
    g->fn[g->nfn++] = (ev4_func){start, end, s};
    return 0;
}

/* Lays out names[0..n) from base: sizes in [min, max] bytes (multiples of 16), gaps of
 * 0..gap bytes.  Returns the end of the last function. */
static int lay_out(builder *b, pmu_rng *r, uint64_t base, const char *owner,
                   const char *const *names, unsigned n, unsigned min, unsigned max,
                   unsigned gap, ev4_image *img)
{
    uint64_t at = base;
    img->first = b->g->nfn;
    img->n = n;
    for (unsigned i = 0; i < n; i++) {
        uint64_t size = pmu_rng_range(r, min / 16, max / 16) * 16;
        if (add_func(b, at, at + size, owner, names[i]))
            return -1;
        at += size + pmu_rng_range(r, 0, gap / 16) * 16;
    }
    return 0;
}

/* Program k: __start, main and 3..8 of the common function names, in a seeded order. */
static int lay_out_program(builder *b, uint64_t seed, unsigned k, ev4_image *img)
{
    pmu_rng r;
    char owner[32];
    const char *names[2 + NUSER_FUNCS] = {"__start", "main"};
    unsigned order[NUSER_FUNCS];
    pmu_rng_seed(&r, seed ^ (0x9e3779b97f4a7c15ull * (k + 1)));
    for (unsigned i = 0; i < NUSER_FUNCS; i++)
        order[i] = i;
    for (unsigned i = NUSER_FUNCS - 1; i > 0; i--) {
        unsigned j = (unsigned)pmu_rng_below(&r, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    unsigned n = 2 + (unsigned)pmu_rng_range(&r, 3, 8);
    for (unsigned i = 2; i < n; i++)
        names[i] = user_funcs[order[i - 2]];
    ev4_gen_program_name(k, owner, sizeof owner);
    img->fp = (uint8_t)is_fp_program(k);
    return lay_out(b, &r, EV4_GEN_USER_BASE(k), owner, names, n, 0x100, 0x1800, 0x200, img);
}

int ev4_gen_layout(ev4_gen *g, uint64_t seed)
{
    builder b = {g, 0};
    pmu_rng r;
    pmu_rng_seed(&r, seed ^ 0x5045564b45524e4cull); /* the system's own sequence */
    if (lay_out(&b, &r, EV4_GEN_PAL_BASE, "pal", pal_names, PF_N, 0x80, 0x300, 0x40, &g->pal))
        return -1;
    for (unsigned i = 0; i < PF_N; i++)
        g->pfn[i] = g->pal.first + i;
    g->nprog = g->mode == PMU_GEN_WORKLOAD ? 1 + g->nprocs : 0;
    g->prog = calloc(g->nprog ? g->nprog : 1, sizeof *g->prog);
    if (!g->prog)
        return -1;
    for (unsigned j = 0; j < g->nprog; j++)
        if (lay_out_program(&b, seed, j ? 1 + g->cpu * g->nprocs + (j - 1) : 0, &g->prog[j]))
            return -1;
    /* the kernel: the roles, then the helpers; 30 functions of at most 0x1800 bytes and
     * gaps of 0x100 fit the 0x40000 bytes of kernel text */
    const char *knames[KF_NROLES + NHELPERS];
    for (unsigned i = 0; i < KF_NROLES; i++)
        knames[i] = kernel_roles[i];
    for (unsigned i = 0; i < NHELPERS; i++)
        knames[KF_NROLES + i] = kernel_helpers[i];
    if (lay_out(&b, &r, EV4_GEN_KERNEL_BASE, "vmunix", knames, KF_NROLES + NHELPERS, 0x180,
                0x1800, 0x100, &g->kernel))
        return -1;
    for (unsigned i = 0; i < KF_NROLES; i++)
        g->kfn[i] = g->kernel.first + i;
    g->helper_lo = g->kernel.first + KF_NROLES;
    g->helper_hi = g->kernel.first + KF_NROLES + NHELPERS;
    return 0;
}

void *ev4_gen_create(const pmu_gen_opts *o, pmu_err *err)
{
    const pmu_gen_hot *h = o->hot;
    unsigned ncpus = o->ncpus ? o->ncpus : 1;
    unsigned nprocs = o->nprocs ? o->nprocs : EV4_GEN_DEFAULT_PROCS;
    if (h && (h->ncode || h->ndata || h->nopc || h->nlat || h->ncount)) {
        pmu_dialect_errf(err, "generator", "hot edges: the ev4 generator does not aim at "
                         "edges (docs/ev4-stream.md), expected none");
        return NULL;
    }
    if (ncpus > EV4_MAX_CPUS || o->cpu >= ncpus) {
        pmu_dialect_errf(err, "generator", "cpu %u of %u CPUs, expected 1..%u CPUs and a cpu "
                         "below their number", o->cpu, ncpus, EV4_MAX_CPUS);
        return NULL;
    }
    if (nprocs > EV4_GEN_MAX_PROCS) {
        pmu_dialect_errf(err, "generator", "%u processes, expected 1..%u", nprocs,
                         EV4_GEN_MAX_PROCS);
        return NULL;
    }
    ev4_gen *g = calloc(1, sizeof *g);
    if (!g) {
        pmu_errf(err, PMU_E_NOMEM, "generator: out of memory");
        return NULL;
    }
    g->mode = o->mode;
    g->cpu = o->cpu;
    g->ncpus = ncpus;
    g->nprocs = nprocs;
    /* each CPU its own sequence of the one seed */
    pmu_rng_seed(&g->rng, o->seed ^ (0xbf58476d1ce4e5b9ull * (o->cpu + 1)));
    if (ev4_gen_layout(g, o->seed) ||
        (g->mode == PMU_GEN_WORKLOAD && !(g->proc = calloc(1 + nprocs, sizeof *g->proc)))) {
        ev4_gen_destroy(g);
        pmu_errf(err, PMU_E_NOMEM, "generator: out of memory");
        return NULL;
    }
    if (g->mode == PMU_GEN_WORKLOAD)
        ev4_run_init(g);
    else
        ev4_random_init(g);
    return g;
}

int ev4_gen_next(void *gen, void *rec)
{
    ev4_gen *g = gen;
    ev4_cycle *c = rec;
    memset(c, 0, sizeof *c);
    if (g->mode == PMU_GEN_WORKLOAD)
        ev4_run_next(g, c);
    else
        ev4_random_next(g, c);
    g->now++;
    return 1;
}

unsigned ev4_gen_nfuncs(const void *gen)
{
    const ev4_gen *g = gen;
    return g->mode == PMU_GEN_WORKLOAD ? g->nfn : 0;
}

int ev4_gen_func(const void *gen, unsigned i, uint64_t *start, uint64_t *end, const char **name)
{
    const ev4_gen *g = gen;
    if (i >= ev4_gen_nfuncs(g))
        return -1;
    if (start)
        *start = g->fn[i].start;
    if (end)
        *end = g->fn[i].end;
    if (name)
        *name = g->fn[i].name;
    return 0;
}

void ev4_gen_destroy(void *gen)
{
    ev4_gen *g = gen;
    if (!g)
        return;
    for (unsigned i = 0; i < g->nfn; i++)
        free(g->fn[i].name);
    free(g->fn);
    free(g->prog);
    free(g->proc);
    free(g);
}
