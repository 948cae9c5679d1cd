/*
 * ita_gen_build.c - the program builder of WORKLOAD mode (docs/ita-stream-format.md,
 * "WORKLOAD mode"): the shared library, the kernel and each process as functions of
 * IA-64 bundles (or IA-32 byte-addressed code), laid out as a linker would, so that
 * addresses, branch targets and encodings are consistent from one visit of a loop to
 * the next.  The program depends only on the seed and the process count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ita_gen.h"

/* ---- building the programs ---------------------------------------------------------- */
typedef struct builder {
    ita_gen *g;
    int fid;
    int style;
    int callee_lo, callee_hi; /* own functions this one may call */
    int lib_lo, lib_hi;       /* library functions it may call */
    uint64_t ia32_ip;
} builder;

static func *func_of(builder *b) { return &b->g->fn[b->fid]; }

/* g->fn is allocated once for every function the model has (ita_gen_build_workload), so
 * pointers into it stay valid while building. */
static int new_func(ita_gen *g, const char *owner, const char *name, int own, int proc, int ia32)
{
    if (g->nfn == g->capfn) {
        g->oom = 1; /* cannot happen with the capacity ita_gen_build_workload reserves */
        return g->nfn - 1;
    }
    func *f = &g->fn[g->nfn];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s:%s", owner, name);
    f->owner = (uint8_t)own;
    f->proc = proc;
    f->ia32 = (uint8_t)ia32;
    return g->nfn++;
}

static unsigned ia32_len(pmu_rng *r, int kind)
{
    switch (kind) {
    case IK_NOP: return 1;
    case IK_BR_RET: return 1;
    case IK_SYSCALL: return 2;
    case IK_BR_CALL: return 5;
    case IK_BR_ICALL: return 2;
    case IK_LOAD: case IK_STORE: case IK_FLOAD: case IK_FSTORE: return (unsigned)pmu_rng_range(r, 2, 6);
    case IK_BR_LOOP: case IK_BR_COND: case IK_BR_JUMP: return pmu_rng_chance(r, 700) ? 2 : 6;
    default: return (unsigned)pmu_rng_range(r, 2, 4);
    }
}

/* The predicate is drawn before the encoding's operands (the argument is evaluated
 * first), which the pinned streams depend on. */
static uint64_t encode(builder *b, int kind, int unit, unsigned qp)
{
    return ita_gen_encode(&b->g->r, kind, unit, b->style, qp);
}

static insn *add_insn(builder *b, int kind, int unit)
{
    func *f = func_of(b);
    if (f->n == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 96;
        insn *grown = realloc(f->code, cap * sizeof *grown);
        if (!grown) {
            b->g->oom = 1;
            return &b->g->scratch;
        }
        f->code = grown;
        f->cap = cap;
    }
    insn *x = &f->code[f->n];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->unit = (uint8_t)unit;
    x->target = x->target2 = x->last_callee = -1;
    if (f->ia32) {
        x->ip = b->ia32_ip;
        b->ia32_ip += ia32_len(&b->g->r, kind);
    } else {
        x->ip = f->start + (uint64_t)(f->n / 3) * 16;
        x->slot = (uint8_t)(f->n % 3);
    }
    f->n++;
    return x;
}

/* Index of an instruction and back: the array may move while a function grows. */
static uint32_t index_of(builder *b, const insn *x)
{
    return x == &b->g->scratch ? UINT32_MAX : (uint32_t)(x - func_of(b)->code);
}

static insn *insn_at(builder *b, uint32_t at)
{
    return at < func_of(b)->n ? &func_of(b)->code[at] : &b->g->scratch;
}

static void set_mem(builder *b, insn *x, int in_loop)
{
    pmu_rng *r = &b->g->r;
    if (b->style == ST_KERNEL) {
        x->pat = (x->kind == IK_STORE || pmu_rng_chance(r, 400)) ? MP_KSTACK : MP_KDATA;
        x->off = (uint32_t)pmu_rng_below(r, 0x800) * 8;
        if (x->pat == MP_KDATA && in_loop) {
            x->stride = 8;
            x->pat = MP_STREAM;
        }
        return;
    }
    unsigned p = (unsigned)pmu_rng_below(r, 100);
    if (in_loop)
        x->pat = p < 60 ? MP_STREAM : p < 80 ? MP_RANDOM : MP_STACK;
    else
        x->pat = p < 60 ? MP_STACK : MP_RANDOM;
    x->off = (uint32_t)pmu_rng_below(r, 0x40) * 8;
    if (x->pat == MP_STREAM) {
        static const uint32_t strides[] = {4, 8, 8, 8, 16, 32, 64};
        x->stride = strides[pmu_rng_below(r, 7)];
        x->off = (uint32_t)pmu_rng_below(r, 0x100) * 0x1000;
    }
}

/* A filler instruction for a unit, by style. */
static void fill(builder *b, int unit, int in_loop)
{
    pmu_rng *r = &b->g->r;
    int kind = IK_NOP;
    unsigned p = (unsigned)pmu_rng_below(r, 100);
    int fp = b->style == ST_FP;
    switch (unit) {
    case ITA_UNIT_M:
        if (b->style == ST_KERNEL)
            kind = p < 30 ? IK_LOAD : p < 50 ? IK_STORE : p < 85 ? IK_ALU : IK_NOP;
        else if (fp)
            kind = p < 35 ? IK_FLOAD : p < 50 ? IK_FSTORE : p < 60 ? IK_LOAD : p < 85 ? IK_ALU : IK_NOP;
        else
            kind = p < 30 ? IK_LOAD : p < 42 ? IK_STORE : p < 82 ? IK_ALU : IK_NOP;
        break;
    case ITA_UNIT_I: kind = p < 82 ? IK_ALU : IK_NOP; break;
    case ITA_UNIT_F:
        kind = fp ? (p < 85 ? IK_FPOP : IK_NOP) : (p < 12 && b->style != ST_KERNEL ? IK_FPOP : IK_NOP);
        break;
    default: kind = IK_NOP; break;
    }
    insn *x = add_insn(b, kind, unit);
    if (kind != IK_NOP && !func_of(b)->ia32 && pmu_rng_chance(r, 120))
        x->predicated = 1; /* IA-32 has no predication */
    if (kind == IK_LOAD || kind == IK_STORE || kind == IK_FLOAD || kind == IK_FSTORE)
        set_mem(b, x, in_loop);
    if (!func_of(b)->ia32)
        x->enc = encode(b, kind, unit, x->predicated ? (unsigned)pmu_rng_range(r, 1, 63) : 0);
}

static int unit_of(char t)
{
    return t == 'M' ? ITA_UNIT_M : t == 'I' ? ITA_UNIT_I : t == 'F' ? ITA_UNIT_F : ITA_UNIT_B;
}

/* One IA-64 bundle; slot `special` (or -1) gets an instruction of kind `kind`, the
 * others are filler.  Returns the special instruction. */
static insn *bundle(builder *b, const char *tmpl, int special, int kind, int in_loop)
{
    insn *sp = NULL;
    for (int s = 0; s < 3; s++) {
        int unit = unit_of(tmpl[s]);
        if (s == special) {
            sp = add_insn(b, kind, unit);
            sp->enc = encode(b, kind, unit,
                             kind >= IK_BR_LOOP && kind <= IK_BR_RESCHED
                                 ? (unsigned)pmu_rng_range(&b->g->r, 0, 63)
                                 : 0);
        } else {
            fill(b, unit, in_loop);
        }
    }
    if (b->g->oom)
        return &b->g->scratch;
    /* `sp` may have moved with a realloc in fill(); find it again by position */
    if (special >= 0)
        sp = &func_of(b)->code[func_of(b)->n - 3 + (unsigned)special];
    return sp;
}

static const char *const straight_tmpl_int[] = {"MII", "MMI", "MFI", "MIB", "MMB", "MII", "MMI", "MMI"};
static const char *const straight_tmpl_fp[] = {"MFI", "MMF", "MFB", "MMF", "MFI", "MMI"};
static const char *const branch_tmpl[] = {"MIB", "MMB", "MFB"};

static void straight(builder *b, unsigned nb, int in_loop)
{
    pmu_rng *r = &b->g->r;
    for (unsigned i = 0; i < nb; i++) {
        if (func_of(b)->ia32) {
            fill(b, pmu_rng_chance(r, 550) ? ITA_UNIT_M : pmu_rng_chance(r, 800) ? ITA_UNIT_I
                    : b->style == ST_FP ? ITA_UNIT_F : ITA_UNIT_I, in_loop);
            continue;
        }
        const char *t = b->style == ST_FP ? straight_tmpl_fp[pmu_rng_below(r, 6)]
                                          : straight_tmpl_int[pmu_rng_below(r, 8)];
        if (b->style == ST_KERNEL && pmu_rng_chance(r, 30))
            t = "BBB";
        bundle(b, t, -1, 0, in_loop);
    }
}

/* The instruction that carries a control transfer: an IA-64 bundle ending with it in
 * slot 2, or one IA-32 instruction. */
static insn *ctl_insn(builder *b, int kind, int unit_for_ia32, int in_loop)
{
    if (func_of(b)->ia32)
        return add_insn(b, kind, unit_for_ia32);
    return bundle(b, branch_tmpl[pmu_rng_below(&b->g->r, 3)], 2, kind, in_loop);
}

static uint16_t pick_trips(pmu_rng *r, int has_inner, int style)
{
    if (style == ST_KERNEL) /* kernel paths are short */
        return (uint16_t)pmu_rng_range(r, 2, 12);
    if (has_inner)
        return (uint16_t)pmu_rng_range(r, 2, 6);
    return (uint16_t)(pmu_rng_chance(r, 500) ? pmu_rng_range(r, 4, 16) : pmu_rng_range(r, 16, 120));
}

/* Emits a body of items; returns 1 when it contains a call or a loop. */
static int body(builder *b, int level, unsigned items, int in_loop)
{
    pmu_rng *r = &b->g->r;
    int heavy = 0;
    for (unsigned i = 0; i < items; i++) {
        unsigned p = (unsigned)pmu_rng_below(r, 100);
        func *f = func_of(b);
        int can_call = b->callee_hi > b->callee_lo || b->lib_hi > b->lib_lo;
        if (p < 30 && level < 2 && f->nloops < MAX_LOOPS) {
            /* loop: head, body, backward branch */
            uint8_t id = f->nloops++;
            uint32_t head = f->n;
            straight(b, (unsigned)pmu_rng_range(r, 1, 2), 1);
            int inner = body(b, level + 1, (unsigned)pmu_rng_range(r, 0, 2), 1);
            insn *br = ctl_insn(b, IK_BR_LOOP, ITA_UNIT_B, 1);
            br->target = (int32_t)head;
            br->loop = id;
            func_of(b)->trips[id] = pick_trips(r, inner, b->style);
            heavy = 1;
        } else if (p < 50) {
            /* if: forward branch over 1..3 bundles */
            insn *br = ctl_insn(b, IK_BR_COND, ITA_UNIT_B, in_loop);
            uint32_t at = index_of(b, br);
            static const uint16_t biases[] = {20, 80, 500, 900, 970, 300, 995};
            insn_at(b, at)->bias = biases[pmu_rng_below(r, 7)];
            straight(b, (unsigned)pmu_rng_range(r, 1, 3), in_loop);
            insn_at(b, at)->target = (int32_t)func_of(b)->n;
        } else if (p < 68 && can_call) {
            int lib = b->lib_hi > b->lib_lo && (b->callee_hi == b->callee_lo || pmu_rng_chance(r, 350));
            int lo = lib ? b->lib_lo : b->callee_lo, hi = lib ? b->lib_hi : b->callee_hi;
            int callee = lo + (int)pmu_rng_below(r, (uint64_t)(hi - lo));
            straight(b, 1, in_loop);
            if (hi - lo >= 2 && pmu_rng_chance(r, 250)) {
                insn *br = ctl_insn(b, IK_BR_ICALL, ITA_UNIT_B, in_loop);
                br->target = callee;
                br->target2 = lo + (int)pmu_rng_below(r, (uint64_t)(hi - lo));
            } else {
                ctl_insn(b, IK_BR_CALL, ITA_UNIT_B, in_loop)->target = callee;
            }
            heavy = 1;
        } else {
            straight(b, (unsigned)pmu_rng_range(r, 1, 4), in_loop);
        }
    }
    return heavy;
}

static void begin_func(builder *b, uint64_t *next_addr)
{
    func *f = func_of(b);
    f->start = *next_addr;
    b->ia32_ip = f->start;
}

static void end_func(builder *b, uint64_t *next_addr)
{
    func *f = func_of(b);
    if (f->ia32)
        f->end = b->ia32_ip;
    else
        f->end = f->start + (uint64_t)(f->n / 3) * 16;
    /* functions are 32-byte aligned with a small gap, as a linker lays them out */
    *next_addr = (f->end + 0x20 + pmu_rng_below(&b->g->r, 8) * 0x10 + 0x1f) & ~(uint64_t)0x1f;
}

static void prologue(builder *b)
{
    if (func_of(b)->ia32) {
        straight(b, 2, 0);
        return;
    }
    bundle(b, "MII", -1, 0, 0);
}

static void epilogue(builder *b)
{
    straight(b, 1, 0);
    ctl_insn(b, IK_BR_RET, ITA_UNIT_B, 0);
}

/* A leaf that makes a system call: IA-64 break.i in slot 1 of an MII bundle. */
static void syscall_wrapper(builder *b)
{
    straight(b, 1, 0);
    if (func_of(b)->ia32)
        add_insn(b, IK_SYSCALL, ITA_UNIT_I);
    else
        bundle(b, "MII", 1, IK_SYSCALL, 0);
    straight(b, 1, 0);
    ctl_insn(b, IK_BR_RET, ITA_UNIT_B, 0);
}

/* Library (IA-64, shared by the processes): leaves, three of them system-call stubs. */
static void build_library(ita_gen *g, int *lo, int *sys_lo, int *sys_hi)
{
    static const struct { const char *name; int style; int loops; } libf[] = {
        {"memcpy", ST_INT, 1}, {"strlen", ST_INT, 1}, {"malloc", ST_INT, 0},
        {"qsort", ST_INT, 2}, {"exp", ST_FP, 0}, {"dgemm_kernel", ST_FP, 2},
    };
    static const char *const stubs[] = {"__read", "__write", "__getpid"};
    uint64_t addr = 0x2000000000100000ull;
    *lo = g->nfn;
    for (unsigned i = 0; i < sizeof libf / sizeof libf[0]; i++) {
        builder b = {g, new_func(g, "libc", libf[i].name, OWN_LIB, -1, 0), libf[i].style, 0, 0, 0, 0, 0};
        begin_func(&b, &addr);
        prologue(&b);
        body(&b, libf[i].loops ? 0 : 2, (unsigned)pmu_rng_range(&g->r, 2, 4), 0);
        epilogue(&b);
        end_func(&b, &addr);
    }
    *sys_lo = g->nfn;
    for (unsigned i = 0; i < 3; i++) {
        builder b = {g, new_func(g, "libc", stubs[i], OWN_LIB, -1, 0), ST_INT, 0, 0, 0, 0, 0};
        begin_func(&b, &addr);
        syscall_wrapper(&b);
        end_func(&b, &addr);
    }
    *sys_hi = g->nfn;
}

static void build_kernel(ita_gen *g)
{
    uint64_t addr = 0xe000000000400000ull;
    builder b = {g, 0, ST_KERNEL, 0, 0, 0, 0, 0};

    /* handlers first so the vectors can name them */
    static const struct { const char *name; unsigned weight; int block; int loops; } sysd[] = {
        {"sys_getpid", 30, 0, 0}, {"sys_read", 25, 1, 1}, {"sys_write", 20, 0, 1},
        {"sys_mmap", 10, 0, 1},   {"sys_futex", 15, 1, 0},
    };
    g->nsys = 0;
    for (unsigned i = 0; i < sizeof sysd / sizeof sysd[0]; i++) {
        b.fid = new_func(g, "kernel", sysd[i].name, OWN_KERNEL, -1, 0);
        begin_func(&b, &addr);
        prologue(&b);
        body(&b, sysd[i].loops ? 1 : 2, (unsigned)pmu_rng_range(&g->r, 1, 3), 0);
        epilogue(&b);
        end_func(&b, &addr);
        g->sys[g->nsys].fn = b.fid;
        g->sys[g->nsys].weight = sysd[i].weight;
        g->sys[g->nsys].can_block = sysd[i].block;
        g->nsys++;
    }

    g->k_timer = b.fid = new_func(g, "kernel", "timer_interrupt", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    prologue(&b);
    body(&b, 1, 2, 0);
    epilogue(&b);
    end_func(&b, &addr);

    g->k_schedule = b.fid = new_func(g, "kernel", "schedule", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    prologue(&b);
    body(&b, 1, 2, 0);
    bundle(&b, "MMI", 0, IK_SCHED, 0);
    straight(&b, 1, 0);
    epilogue(&b);
    end_func(&b, &addr);

    /* exit path: reschedule if asked, restore, loadrs (RSE fills), rfi */
    g->k_leave = b.fid = new_func(g, "kernel", "ia64_leave_kernel", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    bundle(&b, "MIB", 2, IK_BR_RESCHED, 0)->target = g->k_schedule;
    straight(&b, 1, 0);
    insn *fill0 = bundle(&b, "MMI", 0, IK_RSE_FILL, 0);
    fill0->pat = MP_KSTACK;
    insn *fill1 = bundle(&b, "MMI", 1, IK_RSE_FILL, 0);
    fill1->pat = MP_KSTACK;
    fill1->off = 0x100;
    straight(&b, 1, 0);
    bundle(&b, "MIB", 2, IK_RFI, 0);
    end_func(&b, &addr);

    /* the interruption vectors */
    g->k_ivt_break = b.fid = new_func(g, "kernel", "ivt_break", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    straight(&b, 2, 0);
    bundle(&b, "MIB", 2, IK_BR_DISPATCH, 0);
    bundle(&b, "MIB", 2, IK_BR_TAIL, 0)->target = g->k_leave;
    end_func(&b, &addr);

    g->k_ivt_ext = b.fid = new_func(g, "kernel", "ivt_external_interrupt", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    straight(&b, 2, 0);
    bundle(&b, "MIB", 2, IK_BR_CALL, 0)->target = g->k_timer;
    bundle(&b, "MIB", 2, IK_BR_TAIL, 0)->target = g->k_leave;
    end_func(&b, &addr);

    /* the idle loop: check for work, halt, repeat */
    g->k_idle = b.fid = new_func(g, "kernel", "cpu_idle", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    straight(&b, 2, 0);
    bundle(&b, "MMB", 0, IK_HALT, 0);
    bundle(&b, "MIB", 2, IK_BR_JUMP, 0)->target = 0;
    end_func(&b, &addr);
}

/* A process: main (an endless loop), worker functions (callable only by lower-numbered
 * ones, so the call graph has no cycles), a floating-point kernel, system calls through
 * the library (IA-64) or its own int 0x80 wrapper (IA-32), and in some processes a
 * region that switches user monitoring off and on again (rum ... sum). */
static void build_process(ita_gen *g, int p, int ia32, int lib_lo, int sys_lo, int sys_hi)
{
    pmu_rng *r = &g->r;
    char owner[16];
    snprintf(owner, sizeof owner, "pid%u", g->tasks[p + 1].pid);
    uint64_t addr = ia32 ? 0x08048000ull + ((uint64_t)(p / 4) << 24)
                         : 0x4000000000000000ull + ((uint64_t)p << 28);
    int nworkers = (int)pmu_rng_range(r, 4, 7);
    int monitor_off = !ia32 && (p == 1 || pmu_rng_chance(r, 250)); /* rum/sum are IA-64 */
    int main_id = new_func(g, owner, "main", OWN_PROC, p, ia32);
    int monoff_id = monitor_off ? new_func(g, owner, "untimed_region", OWN_PROC, p, ia32) : -1;
    int workers_lo = g->nfn;
    static const char *const wnames[] = {"parse", "update", "lookup", "hash", "compress", "sort", "scan"};
    for (int i = 0; i < nworkers; i++)
        new_func(g, owner, wnames[i], OWN_PROC, p, ia32);
    int fp_id = new_func(g, owner, ia32 ? "x87_filter" : "fp_solver", OWN_PROC, p, ia32);
    int own_sys = ia32 ? new_func(g, owner, "int80_syscall", OWN_PROC, p, ia32) : -1;
    int workers_hi = g->nfn - (ia32 ? 1 : 0); /* workers + fp kernel */

    int ids_in_order[16], n = 0;
    ids_in_order[n++] = main_id;
    if (monoff_id >= 0)
        ids_in_order[n++] = monoff_id;
    for (int i = workers_lo; i < g->nfn; i++)
        ids_in_order[n++] = i;

    for (int k = 0; k < n; k++) {
        int id = ids_in_order[k];
        builder b = {g, id, id == fp_id ? ST_FP : ST_INT, 0, 0, 0, 0, 0};
        if (!ia32) {
            b.lib_lo = lib_lo;
            b.lib_hi = sys_lo; /* system calls are made from main only */
        }
        begin_func(&b, &addr);
        if (id == main_id) {
            b.callee_lo = workers_lo;
            b.callee_hi = workers_hi;
            prologue(&b);
            uint32_t top = func_of(&b)->n;
            body(&b, 1, (unsigned)pmu_rng_range(r, 2, 4), 1);
            /* system calls, each made in some of the iterations */
            for (int s = 0; s < 2; s++) {
                insn *skip = ctl_insn(&b, IK_BR_COND, ITA_UNIT_B, 1);
                uint32_t at = index_of(&b, skip);
                /* IA-32 iterations are short: fewer calls per iteration */
                insn_at(&b, at)->bias = ia32 ? (s ? 950 : 850) : (s ? 700 : 300);
                straight(&b, 1, 1);
                int callee = ia32 ? own_sys : sys_lo + (int)pmu_rng_below(r, (uint64_t)(sys_hi - sys_lo));
                ctl_insn(&b, IK_BR_CALL, ITA_UNIT_B, 1)->target = callee;
                insn_at(&b, at)->target = (int32_t)func_of(&b)->n;
            }
            if (monoff_id >= 0) {
                /* p == 1 runs its untimed region every iteration, the others now and then */
                insn *skip = ctl_insn(&b, IK_BR_COND, ITA_UNIT_B, 1);
                uint32_t at = index_of(&b, skip);
                insn_at(&b, at)->bias = p == 1 ? 0 : 800;
                straight(&b, 1, 1);
                ctl_insn(&b, IK_BR_CALL, ITA_UNIT_B, 1)->target = monoff_id;
                insn_at(&b, at)->target = (int32_t)func_of(&b)->n;
            }
            ctl_insn(&b, IK_BR_JUMP, ITA_UNIT_B, 1)->target = (int32_t)top;
        } else if (id == monoff_id) {
            b.callee_lo = workers_lo;
            b.callee_hi = workers_hi;
            /* an I/O phase the application keeps out of its measurements: work and a
             * system call between rum and sum, so interruptions and context switches
             * happen while its PSR.up is 0 */
            bundle(&b, "MII", 0, IK_RUM, 0);
            body(&b, 0, 2, 0);
            straight(&b, 1, 0);
            ctl_insn(&b, IK_BR_CALL, ITA_UNIT_B, 0)->target =
                sys_lo + (int)pmu_rng_below(r, (uint64_t)(sys_hi - sys_lo));
            body(&b, 1, 1, 0);
            bundle(&b, "MII", 0, IK_SUM, 0);
            epilogue(&b);
        } else if (id == own_sys) {
            syscall_wrapper(&b);
        } else {
            /* workers call only higher-numbered workers: no recursion */
            b.callee_lo = id + 1;
            b.callee_hi = workers_hi > id + 1 ? workers_hi : id + 1;
            prologue(&b);
            body(&b, 0, (unsigned)pmu_rng_range(r, 2, 4), 0);
            epilogue(&b);
        }
        end_func(&b, &addr);
    }
}

void ita_gen_frame_enter(frame *fr, int fn)
{
    fr->fn = fn;
    fr->pos = 0;
    for (int i = 0; i < MAX_LOOPS; i++)
        fr->loop_left[i] = -1;
}

void ita_gen_ctx_start(ctx *x, int fn)
{
    x->depth = 1;
    ita_gen_frame_enter(&x->fr[0], fn);
}

int ita_gen_build_workload(ita_gen *g)
{
    pmu_rng *r = &g->r;
    g->ntasks = (int)g->o.nprocs + 1;
    g->kdata = 0xe000000004000000ull;
    /* pids: idle 0, processes from 1000 up, a few apart as a busy system would have */
    uint16_t pid = 1000;
    for (int t = 1; t < g->ntasks; t++) {
        pid = (uint16_t)(pid + pmu_rng_range(r, 1, 9));
        task *k = &g->tasks[t];
        int p = t - 1;
        k->pid = pid;
        k->ia32 = (uint8_t)(p % 4 == 3);
        k->cpl = 3;
        k->up = 1;
        if (k->ia32) {
            k->heap = 0x0a000000ull + ((uint64_t)(p / 4) << 26);
            k->stack_top = 0xbff00000ull - ((uint64_t)(p / 4) << 24);
        } else {
            k->heap = 0x6000000000100000ull + ((uint64_t)p << 32);
            k->stack_top = 0x600000007ff00000ull + ((uint64_t)p << 32);
        }
        k->heap_size = 16u << 20;
        k->kstack = 0xe000000010000000ull + ((uint64_t)t << 16) + 0x8000;
    }
    g->tasks[0].kstack = 0xe000000010008000ull;
    /* library 9, kernel 11, at most 11 per process */
    g->capfn = 32 + 12 * (int)g->o.nprocs;
    g->fn = calloc((size_t)g->capfn, sizeof *g->fn);
    if (!g->fn)
        return -1;

    int lib_lo, sys_lo, sys_hi;
    build_library(g, &lib_lo, &sys_lo, &sys_hi);
    build_kernel(g);
    for (int t = 1; t < g->ntasks; t++) {
        int first = g->nfn;
        build_process(g, t - 1, g->tasks[t].ia32, lib_lo, sys_lo, sys_hi);
        ita_gen_ctx_start(&g->tasks[t].user, first);
    }
    ita_gen_ctx_start(&g->tasks[0].user, g->k_idle);
    if (g->oom)
        return -1;

    g->cur = 1;
    g->timer_left = pmu_rng_range(r, 8000, 24000);
    return 0;
}

/* Exact encodings: the displacement of every ip-relative branch and call, now that
 * in a loop) walks an array that straddles the edge; any other one reads or writes a
 * variable at a fixed small distance.  Edges, distances and strides go round in turn so
 * that each edge gets each kind. */
void ita_gen_mark_hot_data(ita_gen *g)
{
    static const int8_t offsets[] = {0, -1, 1, -8, 8};
    static const uint8_t strides[] = {1, 1, 8};
    unsigned nfixed = 0, nwalk = 0, ndata = g->hot.ndata;
    for (int i = 0; i < g->nfn; i++) {
        func *f = &g->fn[i];
        for (uint32_t k = 0; k < f->n; k++) {
            insn *in = &f->code[k];
            if (in->kind != IK_LOAD && in->kind != IK_STORE && in->kind != IK_FLOAD &&
                in->kind != IK_FSTORE)
                continue;
            if (in->pat == MP_STREAM) {
                if (!pmu_rng_chance(&g->hr, 400))
                    continue;
                in->hot_data = (uint16_t)(1 + nwalk % ndata);
                in->hot_stride = strides[(nwalk / ndata) % sizeof strides];
                nwalk++;
            } else {
                if (!pmu_rng_chance(&g->hr, 200))
                    continue;
                in->hot_data = (uint16_t)(1 + nfixed % ndata);
                in->hot_off = offsets[(nfixed / ndata) % sizeof offsets];
                nfixed++;
            }
        }
    }
}

