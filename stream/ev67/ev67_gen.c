/*
 * ev67_gen.c - the ev67 generator (docs/ev67-stream.md, "The generator"): a small model of
 * the 21264 pipeline running a walker through named functions.  Fetch takes up to 4
 * instructions of an aligned 16-byte block (an Icache miss stalls it and then sets ICM),
 * map takes up to 4 a cycle unless stalled, instructions become ready after a latency of
 * their class, retire in order up to 11 a cycle within the backlog bound (R9), squashed
 * NOPs/TRAPB end by a squash.  Mispredicted branches run down the wrong path until they
 * resolve (trap with MIS, abort of the younger ones); faults trap and abort from the
 * faulting instruction and enter PALcode; interrupts abort and enter PALcode.  Every
 * record passes through the tracker (ev67_track.c), which keeps the generator honest.
 *
 * WORKLOAD: PALcode, a kernel and programs with named functions, realistic rates.
 * RANDOM: the same machine at stress rates over random addresses (no functions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_rng.h"
#include "stream/pmu_stream.h"
#include "ev67_internal.h"

#define DEPTH 4      /* walker return stack */
#define WINDOW 72    /* in flight before fetch stops (the 21264 keeps 80) */
#define ICACHE 64    /* direct-mapped Icache of fetch blocks */

typedef struct func {
    uint64_t start, end;
    char name[40];
} func;

typedef struct frame {
    uint64_t pc;
    uint32_t f;
    uint8_t pal;
} frame;

/* Where fetch goes next: the correct path's continuation can be saved and restored. */
typedef struct walker {
    uint64_t pc;
    uint32_t f;       /* current function (RANDOM: unused) */
    uint8_t pal, depth, cmov2; /* cmov2: the next fetch is the second half of a CMOV */
    frame stack[DEPTH];
} walker;

typedef struct ginst {
    uint64_t ready;   /* cycle it has executed */
    uint8_t mapped, fault, mis, bc;  /* fault: trap type + 1 */
    walker before, resume; /* the walker before it, and after it on the correct path */
} ginst;

typedef struct gen {
    pmu_rng rng;
    int random;
    func *funcs;
    unsigned nfuncs, npal, nkern; /* funcs: PAL [0, npal), kernel, then programs */
    unsigned prog_first[EV67_GEN_MAX_PROCS + 1], nprogs;
    unsigned cur_prog;
    uint64_t now;
    walker w;
    ev67_track tr;   /* the records so far: in flight, next tag, backlog */
    ginst gi[EV67_STREAM_MAX_INFLIGHT];
    uint64_t icache[ICACHE];
    unsigned fetch_wait;  /* Icache fill cycles left */
    uint8_t icm_next;
    int pending_abort;    /* an abort from abort_tag in the next cycles */
    uint32_t abort_tag;
    unsigned abort_delay;
    uint32_t unmapped;    /* first unmapped tag (= tr.next: none) */
    /* rates, per 1024 */
    unsigned p_mis, p_fault, p_intr, p_stall, p_icm, p_bc, p_cmov, p_squash;
} gen;

static unsigned rnd(gen *g, unsigned n) { return (unsigned)pmu_rng_below(&g->rng, n); }
static int chance(gen *g, unsigned per1024) { return rnd(g, 1024) < per1024; }
static ginst *gi_at(gen *g, uint32_t i)
{
    return &g->gi[(g->tr.front + i) % EV67_STREAM_MAX_INFLIGHT];
}

/* ---- layout ------------------------------------------------------------------- */
static const char *const pal_fns[] = {"reset", "interrupt", "callsys", "dtbmiss_single",
                                      "dtbmiss_double", "unalign", "dfault", "opcdec",
                                      "fen", "arith", "mchk", "mt_fpcr", "rti", "swpctx"};
static const char *const kern_fns[] = {"syscall", "hardclock", "swtch", "read", "write",
                                       "bcopy", "bzero", "pmap_fault", "trap", "vm_fault",
                                       "namei", "malloc", "free", "softclock", "idle_thread"};
static const char *const prog_names[] = {"sh", "cc", "ls", "awk", "spice", "grep", "make",
                                         "vi", "tar", "sort", "nroff", "lisp", "doduc",
                                         "tomcatv", "mdljdp2", "ora"};
static const char *const prog_fns[] = {"main", "parse", "compute", "emit", "lookup",
                                       "strcpy", "memcpy", "printf"};

static void add_func(gen *g, uint64_t *at, const char *owner, const char *name, unsigned ninst)
{
    func *f = &g->funcs[g->nfuncs++];
    f->start = *at;
    f->end = *at + 4ull * ninst;
    snprintf(f->name, sizeof f->name, "%s:%s", owner, name);
    *at = (f->end + 63) & ~63ull;
}

static int build_layout(gen *g, unsigned nprocs)
{
    unsigned max = 14 + 15 + (nprocs + 1) * 8;
    g->funcs = calloc(max, sizeof *g->funcs);
    if (!g->funcs)
        return -1;
    uint64_t at = EV67_GEN_PAL_BASE;
    for (unsigned i = 0; i < 14; i++)
        add_func(g, &at, "pal", pal_fns[i], 24 + rnd(g, 40));
    g->npal = g->nfuncs;
    at = EV67_GEN_KERNEL_BASE;
    for (unsigned i = 0; i < 15; i++)
        add_func(g, &at, "vmunix", kern_fns[i], 40 + rnd(g, 400));
    g->nkern = g->nfuncs - g->npal;
    g->nprogs = nprocs + 1;
    for (unsigned k = 0; k < g->nprogs; k++) {
        at = EV67_GEN_USER_BASE(k);
        g->prog_first[k] = g->nfuncs;
        for (unsigned i = 0; i < 8; i++)
            add_func(g, &at, prog_names[k % 16], prog_fns[i], 30 + rnd(g, 300));
    }
    g->prog_first[g->nprogs] = g->nfuncs;
    return 0;
}

/* The functions of the image function f belongs to: [lo, hi). */
static void image_of(const gen *g, uint32_t f, unsigned *lo, unsigned *hi)
{
    if (f < g->npal) {
        *lo = 0, *hi = g->npal;
        return;
    }
    if (f < g->npal + g->nkern) {
        *lo = g->npal, *hi = g->npal + g->nkern;
        return;
    }
    for (unsigned k = 0; k < g->nprogs; k++)
        if (f < g->prog_first[k + 1]) {
            *lo = g->prog_first[k], *hi = g->prog_first[k + 1];
            return;
        }
    *lo = *hi = 0;
}

static uint32_t pal_fn(const char *name)
{
    for (uint32_t i = 0; i < 14; i++)
        if (!strcmp(pal_fns[i], name))
            return i;
    return 0;
}

/* ---- the walker --------------------------------------------------------------- */
/* A class from the pc (the same code is the same instructions). */
static unsigned class_at(const gen *g, uint64_t pc, int pal)
{
    uint64_t h = pc * 0x9e3779b97f4a7c15ull;
    unsigned r = (unsigned)(h >> 54); /* 0..1023 */
    (void)g;
    if (pal && r < 80)
        return EV67_CLASS_PAL; /* HW_MFPR/HW_MTPR */
    static const struct { unsigned upto, cls; } mix[] = {
        {300, EV67_CLASS_INTOP}, {480, EV67_CLASS_LOAD}, {580, EV67_CLASS_STORE},
        {700, EV67_CLASS_CBR},   {730, EV67_CLASS_BR},   {750, EV67_CLASS_JMP},
        {860, EV67_CLASS_FPOP},  {950, EV67_CLASS_NOP},  {980, EV67_CLASS_BARRIER},
        {990, EV67_CLASS_PAL},   {1024, EV67_CLASS_OTHER}};
    for (unsigned i = 0;; i++)
        if (r < mix[i].upto)
            return mix[i].cls;
}

static void enter(gen *g, walker *w, uint32_t f, int pal)
{
    if (g->random) {
        w->pc = (pal ? EV67_GEN_PAL_BASE : EV67_GEN_USER_BASE(rnd(g, 4))) + 4ull * rnd(g, 1u << 14);
    } else {
        w->f = f;
        w->pc = g->funcs[f].start;
    }
    w->pal = (uint8_t)pal;
}

static void call(gen *g, walker *w, uint64_t ret, uint32_t f, int pal)
{
    if (w->depth == DEPTH) { /* deep enough: drop the oldest frame */
        memmove(w->stack, w->stack + 1, sizeof w->stack[0] * (DEPTH - 1));
        w->depth--;
    }
    w->stack[w->depth++] = (frame){.pc = ret, .f = w->f, .pal = w->pal};
    enter(g, w, f, pal);
}

static void ret(gen *g, walker *w)
{
    if (!g->random && !w->pal && (w->f == g->npal + 1 || w->f == g->npal + 2) &&
        chance(g, 512))
        w->depth = 0; /* hardclock or swtch: the scheduler switches to another program */
    if (w->depth) {
        frame fr = w->stack[--w->depth];
        w->pc = fr.pc, w->f = fr.f, w->pal = fr.pal;
        return;
    }
    if (g->random || w->pal || w->f < g->npal + g->nkern) {
        /* PALcode or the kernel with nothing to return to: back to a program (a switch) */
        g->cur_prog = rnd(g, g->nprogs);
        enter(g, w, g->random ? 0 : g->prog_first[g->cur_prog], 0);
        return;
    }
    unsigned lo, hi;
    image_of(g, w->f, &lo, &hi);
    enter(g, w, lo + rnd(g, hi - lo), 0);
}

/* The instruction at the walker and where the correct path goes after it; *taken: it
 * ends the fetch group. */
static void step_walker(gen *g, walker *w, ev67_fetch *x, int *taken)
{
    int last = !g->random && w->pc + 4 >= g->funcs[w->f].end;
    unsigned cls = class_at(g, w->pc, w->pal);
    x->pc = w->pc;
    x->flags = w->pal ? EV67_FF_PAL : 0;
    *taken = 0;
    if (w->cmov2) {
        x->cls = EV67_CLASS_INTOP;
        x->flags |= EV67_FF_CMOV2;
        w->cmov2 = 0;
        w->pc += 4;
        return;
    }
    if (last || (g->random && chance(g, 20)))
        cls = w->pal ? EV67_CLASS_PAL : EV67_CLASS_JMP; /* RET / HW_RET */
    x->cls = (uint8_t)cls;
    switch (cls) {
    case EV67_CLASS_INTOP:
        if (chance(g, g->p_cmov)) {
            x->flags |= EV67_FF_CMOV1;
            w->cmov2 = 1;
            return; /* the pc stays for the second half */
        }
        break;
    case EV67_CLASS_NOP:
        if (chance(g, g->p_squash * 3))
            x->flags |= EV67_FF_SQUASH; /* a squashed NOP */
        break;
    case EV67_CLASS_BARRIER:
        if (chance(g, g->p_squash * 2))
            x->flags |= EV67_FF_SQUASH; /* TRAPB */
        break;
    case EV67_CLASS_CBR:
        if (chance(g, 500)) {
            x->flags |= EV67_FF_TAKEN;
            *taken = 1;
            if (g->random)
                w->pc += 4ull * (rnd(g, 64)) - 128;
            else
                w->pc = g->funcs[w->f].start + 4ull * rnd(g, (unsigned)((g->funcs[w->f].end -
                                                                         g->funcs[w->f].start) / 4));
            return;
        }
        break;
    case EV67_CLASS_BR:
    case EV67_CLASS_JMP:
        *taken = 1;
        if (last || (cls == EV67_CLASS_JMP && chance(g, 400)))
            ret(g, w);
        else if (w->pal || w->depth >= DEPTH - 1) /* PALcode, or deep enough: a branch
                                                        within the routine */
            w->pc += 4ull * (1 + rnd(g, 8)); /* forward: it reaches its HW_RET */
        else {
            unsigned lo = 0, hi = 1;
            if (!g->random)
                image_of(g, w->f, &lo, &hi);
            call(g, w, w->pc + 4, lo + rnd(g, hi - lo), w->pal);
        }
        return;
    case EV67_CLASS_PAL:
        *taken = 1;
        if (w->pal) {
            if (last && !g->random &&
                (w->f == pal_fn("callsys") || w->f == pal_fn("interrupt")))
                /* the system call or interrupt goes on in the kernel, which returns to the
                   interrupted code through the frame CALL_PAL or the interrupt saved */
                enter(g, w, g->npal + (w->f == pal_fn("callsys") ? 0 : 1 + rnd(g, 2)), 0);
            else if (last || g->random)
                ret(g, w); /* HW_RET */
            else {
                *taken = 0;
                break; /* HW_MFPR/HW_MTPR */
            }
        } else
            call(g, w, w->pc + 4, pal_fn("callsys"), 1); /* CALL_PAL */
        return;
    default:
        break;
    }
    w->pc += 4;
}

/* ---- one cycle ---------------------------------------------------------------- */
static unsigned latency(gen *g, unsigned cls, uint8_t *bc)
{
    switch (cls) {
    case EV67_CLASS_LOAD:
        if (chance(g, g->p_bc)) {
            *bc = 1;
            return 12 + rnd(g, 20); /* a Bcache miss */
        }
        return 3 + rnd(g, 2);
    case EV67_CLASS_FPOP: return 4;
    case EV67_CLASS_STORE: return 2;
    default: return 1 + rnd(g, 2);
    }
}

/* Decides, at fetch, how an instruction will end besides retiring or being squashed. */
static void fate(gen *g, const ev67_fetch *x, ginst *e)
{
    e->fault = 0, e->mis = 0;
    if (x->flags & (EV67_FF_CMOV1 | EV67_FF_CMOV2 | EV67_FF_SQUASH))
        return;
    if ((x->flags & EV67_FF_PAL) && !g->random && !chance(g, 64))
        return; /* PALcode seldom faults */
    if ((x->cls == EV67_CLASS_CBR || x->cls == EV67_CLASS_JMP) && chance(g, g->p_mis))
        e->mis = 1;
    else if (chance(g, g->p_fault)) {
        static const uint8_t mem[] = {EV67_TRAP_REPLAY, EV67_TRAP_REPLAY, EV67_TRAP_REPLAY,
                                      EV67_TRAP_REPLAY, EV67_TRAP_REPLAY, EV67_TRAP_DTB_SINGLE,
                                      EV67_TRAP_DTB_DOUBLE_3, EV67_TRAP_DTB_DOUBLE_4,
                                      EV67_TRAP_UNALIGNED, EV67_TRAP_DFAULT, EV67_TRAP_MCHK};
        static const uint8_t other[] = {EV67_TRAP_OPCDEC, EV67_TRAP_INVALID11,
                                        EV67_TRAP_INVALID13, EV67_TRAP_RESET};
        static const uint8_t fp[] = {EV67_TRAP_FP_DISABLED, EV67_TRAP_ARITH, EV67_TRAP_MT_FPCR};
        if (x->cls == EV67_CLASS_LOAD || x->cls == EV67_CLASS_STORE)
            e->fault = (uint8_t)(1 + mem[rnd(g, sizeof mem)]);
        else if (x->cls == EV67_CLASS_FPOP)
            e->fault = (uint8_t)(1 + fp[rnd(g, sizeof fp)]);
        else if (x->cls == EV67_CLASS_OTHER || x->cls == EV67_CLASS_PAL)
            e->fault = (uint8_t)(1 + other[rnd(g, sizeof other)]);
        if (e->fault == 1 + EV67_TRAP_RESET && !chance(g, 64))
            e->fault = 1 + EV67_TRAP_OPCDEC; /* resets are rare */
    }
}

static const char *fault_handler(unsigned type)
{
    switch (type) {
    case EV67_TRAP_DTB_SINGLE: return "dtbmiss_single";
    case EV67_TRAP_DTB_DOUBLE_3: case EV67_TRAP_DTB_DOUBLE_4: return "dtbmiss_double";
    case EV67_TRAP_UNALIGNED: return "unalign";
    case EV67_TRAP_DFAULT: return "dfault";
    case EV67_TRAP_FP_DISABLED: return "fen";
    case EV67_TRAP_ARITH: return "arith";
    case EV67_TRAP_MCHK: return "mchk";
    case EV67_TRAP_MT_FPCR: return "mt_fpcr";
    case EV67_TRAP_RESET: return "reset";
    default: return "opcdec";
    }
}

static void do_fetch(gen *g, ev67_cycle *c)
{
    if (g->fetch_wait) {
        g->fetch_wait--;
        return;
    }
    if (g->tr.n >= WINDOW || g->pending_abort)
        return;
    uint64_t block = g->w.pc >> 4;
    if (!g->w.cmov2 && g->icache[block % ICACHE] != block + 1) {
        g->icache[block % ICACHE] = block + 1;
        if (chance(g, g->random ? 1024 : 1000)) {
            g->fetch_wait = g->random ? rnd(g, 3) : 2 + rnd(g, 5);
            g->icm_next = 1;
            if (g->fetch_wait)
                return;
        }
    } else if (chance(g, g->p_icm)) {
        g->icache[block % ICACHE] = 0; /* evicted: refills next time */
    }
    while (c->nfetch < EV67_FETCH_MAX && (g->w.pc >> 4) == block) {
        ev67_fetch *x = &c->fetch[c->nfetch];
        ginst *e = gi_at(g, g->tr.n + c->nfetch);
        int taken = 0;
        e->before = g->w;
        step_walker(g, &g->w, x, &taken);
        x->tag = g->tr.next + c->nfetch;
        if (g->icm_next)
            x->flags |= EV67_FF_ICM;
        e->mapped = 0, e->bc = 0;
        e->ready = ~0ull;
        fate(g, x, e);
        e->resume = g->w;
        if (e->mis) { /* fetch goes the wrong way until the branch resolves */
            if (x->cls == EV67_CLASS_CBR) {
                x->flags ^= EV67_FF_TAKEN;
                g->w = e->before;
                g->w.pc += 4;
                if (x->flags & EV67_FF_TAKEN)
                    g->w.pc += 4ull * (8 + rnd(g, 32));
            } else
                g->w.pc = (g->w.pc + 4ull * (16 + rnd(g, 64))) & ~3ull;
            taken = 1;
        }
        c->nfetch++;
        if (taken && !g->w.cmov2)
            break;
        if (g->w.cmov2 && c->nfetch == EV67_FETCH_MAX)
            break; /* the second half comes in the next record */
    }
    if (c->nfetch)
        g->icm_next = 0;
}

/* Applies the fetch part to the tracker; maps; map stalls. */
static void do_map(gen *g, ev67_cycle *c, uint32_t nold)
{
    unsigned left = 4, stall = chance(g, g->p_stall), full_known = 0;
    uint32_t nunm = 0, first = 0;
    for (uint32_t i = 0; i < nold; i++) {
        ginst *e = gi_at(g, i);
        if (e->mapped)
            continue;
        /* A full window stalls map: counted over the mapped instructions only, the i
           before the first unmapped one (map is in order), which can all retire;
           counting unmapped ones too could stall map for ever with the oldest one
           unmapped. */
        if (!full_known) {
            full_known = 1;
            stall = stall || i > 60;
        }
        if (stall || !left) {
            /* the range is of consecutive tags: it stops at an aborted gap */
            uint32_t tag = ev67_track_at(&g->tr, i)->tag;
            if (!nunm)
                first = tag;
            if (nunm < 255 && tag == first + nunm)
                nunm++;
            continue;
        }
        const ev67_inst *in = ev67_track_at(&g->tr, i);
        e->mapped = 1;
        left--;
        e->ready = g->now + latency(g, in->cls, &e->bc);
        if (e->bc)
            c->bcmiss = 1;
    }
    /* the stall range must be contiguous: unmapped instructions are a suffix of the
       older ones, since map is in order */
    if (nunm && stall) {
        c->nstall = (uint8_t)nunm;
        c->stall_first = first;
    }
}

/* The oldest instruction whose trap is due: mispredict resolution or a fault. */
static void do_trap(gen *g, ev67_cycle *c)
{
    if (g->pending_abort || g->w.cmov2)
        return;
    for (uint32_t i = 0; i < g->tr.n; i++) {
        ginst *e = gi_at(g, i);
        const ev67_inst *in = ev67_track_at(&g->tr, i);
        if (!e->mapped || e->ready > g->now)
            continue;
        if (!e->mis && !e->fault)
            continue;
        int restart = e->fault && e->fault != 1 + EV67_TRAP_ARITH; /* X itself is redone */
        c->trap = 1;
        c->trap_tag = in->tag;
        if (e->mis) {
            c->trap_type = in->cls == EV67_CLASS_CBR ? EV67_TRAP_INVALID1 : EV67_TRAP_INVALID9;
            c->trap_mis = in->cls == EV67_CLASS_CBR;
            g->w = e->resume;
        } else {
            unsigned type = e->fault - 1u;
            c->trap_type = (uint8_t)type;
            if (type == EV67_TRAP_REPLAY) {
                c->trap_lso = in->cls == EV67_CLASS_LOAD && chance(g, 800);
                c->mreplay = 1;
                g->w = e->before; /* refetch it */
            } else {
                walker back = restart ? e->before : e->resume;
                g->w = back;
                /* PALcode returns (HW_RET) through the saved frame */
                call(g, &g->w, back.pc, pal_fn(fault_handler(type)), 1);
            }
        }
        e->mis = 0, e->fault = 0;
        uint32_t from = restart ? in->tag : in->tag + 1u;
        if (from != g->tr.next && ev67_track_find(&g->tr, from) >= 0) {
            g->pending_abort = 1;
            g->abort_tag = from;
            g->abort_delay = chance(g, 512) ? 0 : 1 + rnd(g, 2);
        }
        g->fetch_wait = 0;
        return;
    }
}

static void do_ends(gen *g, ev67_cycle *c)
{
    unsigned max = EV67_RETIRE_MAX;
    unsigned room = EV67_LIM_RETIRE_ADD_MAX + EV67_LIM_BACKLOG_MAX - g->tr.backlog;
    if (max > room)
        max = room;
    if (!g->random && chance(g, 700) && max > 4)
        max = 1 + rnd(g, 4); /* retire comes in bursts */
    for (uint32_t i = 0; i < g->tr.n; i++) {
        ginst *e = gi_at(g, i);
        const ev67_inst *in = ev67_track_at(&g->tr, i);
        if (!e->mapped || e->ready > g->now || e->fault || e->mis)
            return;
        if (g->pending_abort && in->tag == g->abort_tag)
            return;
        if (in->flags & EV67_FF_SQUASH) {
            if (c->nsquash == EV67_SQUASH_MAX)
                return;
            c->squash[c->nsquash++] = in->tag;
        } else {
            if (c->nretire == max)
                return;
            c->retire[c->nretire++] = in->tag;
        }
    }
}

static void do_abort(gen *g, ev67_cycle *c)
{
    if (!g->pending_abort && !g->w.cmov2 && !g->w.pal && g->tr.n &&
        chance(g, g->p_intr)) {
        /* an interrupt: flush from an instruction not yet executed, enter PALcode */
        for (uint32_t i = 0; i < g->tr.n; i++) {
            ginst *e = gi_at(g, i);
            if (ev67_track_at(&g->tr, i)->flags & EV67_FF_CMOV2)
                continue;
            if (e->ready > g->now && !e->before.pal && !e->before.cmov2) {
                g->w = e->before;
                call(g, &g->w, e->before.pc, pal_fn("interrupt"), 1);
                g->pending_abort = 1;
                g->abort_tag = ev67_track_at(&g->tr, i)->tag;
                g->abort_delay = 0;
                break;
            }
        }
    }
    if (!g->pending_abort)
        return;
    if (g->abort_delay) {
        g->abort_delay--;
        return;
    }
    int k = ev67_track_find(&g->tr, g->abort_tag);
    g->pending_abort = 0;
    if (k < 0)
        return;
    c->abort = 1;
    c->abort_first = g->abort_tag;
    c->kbm_first = g->tr.next;
    for (uint32_t i = (uint32_t)k; i < g->tr.n; i++)
        if (!gi_at(g, i)->mapped) {
            c->kbm_first = ev67_track_at(&g->tr, i)->tag;
            break;
        }
}

static void next_record(gen *g, ev67_cycle *c)
{
    memset(c, 0, sizeof *c);
    uint32_t nold = g->tr.n;
    do_fetch(g, c);
    if (!g->tr.started && c->nfetch == 0)
        c->head = g->tr.next;
    /* the fetches enter the tracker first, so the rest of the cycle sees them */
    ev67_cycle fo = *c;
    ev67_track t0 = g->tr; /* the records' state before this one */
    ev67_track_events(&g->tr, &fo, NULL, NULL);
    do_map(g, c, nold); /* this cycle's fetches map from the next cycle on */
    do_trap(g, c);
    do_ends(g, c);
    do_abort(g, c);
    /* apply the whole record to the state before it */
    g->tr = t0;
    ev67_track_events(&g->tr, c, NULL, NULL);
    c->head = ev67_track_head(&g->tr);
    const ev67_inst *o = g->tr.n ? ev67_track_at(&g->tr, 0) : NULL;
    c->pc = o ? o->pc : g->w.pc;
    c->pal = o ? (o->flags & EV67_FF_PAL) != 0 : g->w.pal;
    ev67_track_head_check(&g->tr, c, NULL, NULL);
    g->now++;
}

/* ---- the dialect hooks -------------------------------------------------------- */
void *ev67_gen_create(const pmu_gen_opts *o, pmu_err *err)
{
    unsigned nprocs = o->nprocs ? o->nprocs : EV67_GEN_DEFAULT_PROCS;
    if (o->mode == PMU_GEN_WORKLOAD && nprocs > EV67_GEN_MAX_PROCS) {
        pmu_dialect_errf(err, NULL, "nprocs: %u, expected at most %u programs", nprocs,
                         EV67_GEN_MAX_PROCS);
        return NULL;
    }
    gen *g = calloc(1, sizeof *g);
    if (!g) {
        pmu_dialect_errf(err, NULL, "out of memory");
        return NULL;
    }
    pmu_rng_seed(&g->rng, o->seed ^ (0x6576363700000000ull + o->cpu));
    g->random = o->mode == PMU_GEN_RANDOM;
    ev67_track_init(&g->tr);
    g->tr.next = (uint32_t)pmu_rng_next(&g->rng); /* the first tag: any value (R1) */
    if (g->random) {
        g->p_mis = 300, g->p_fault = 120, g->p_intr = 20, g->p_stall = 200, g->p_icm = 100;
        g->p_bc = 200, g->p_cmov = 200, g->p_squash = 200;
        g->nprogs = 4;
        enter(g, &g->w, 0, 0);
    } else {
        g->p_mis = 80, g->p_fault = 20, g->p_intr = 6, g->p_stall = 60, g->p_icm = 3;
        g->p_bc = 40, g->p_cmov = 60, g->p_squash = 120;
        if (build_layout(g, nprocs)) {
            free(g);
            pmu_dialect_errf(err, NULL, "out of memory");
            return NULL;
        }
        enter(g, &g->w, pal_fn("reset"), 1); /* the CPU leaves reset in PALmode */
    }
    return g;
}

int ev67_gen_next(void *gen_, void *rec)
{
    next_record(gen_, rec);
    return 1;
}

unsigned ev67_gen_nfuncs(const void *gen_)
{
    const gen *g = gen_;
    return g->random ? 0 : g->nfuncs;
}

int ev67_gen_func(const void *gen_, unsigned i, uint64_t *start, uint64_t *end,
                  const char **name)
{
    const gen *g = gen_;
    if (i >= ev67_gen_nfuncs(g))
        return -1;
    /* sorted by address: PALcode, the programs, then the kernel (highest) */
    unsigned nuser = g->nfuncs - g->npal - g->nkern;
    if (i >= g->npal)
        i = i < g->npal + nuser ? i + g->nkern : i - nuser;
    if (start)
        *start = g->funcs[i].start;
    if (end)
        *end = g->funcs[i].end;
    if (name)
        *name = g->funcs[i].name;
    return 0;
}

void ev67_gen_destroy(void *gen_)
{
    gen *g = gen_;
    if (g)
        free(g->funcs);
    free(g);
}
