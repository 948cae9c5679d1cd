/*
 * ita_gen_run.c - WORKLOAD mode's interpreter and scheduler: runs the programs of
 * ita_gen_build.c one cycle at a time (docs/ita-stream-format.md, "WORKLOAD mode"): which
 * slots retire, memory outcomes, branch outcomes and predictions, interruptions,
 * system calls, context switches, the idle loop and the power states.
 */
#include <string.h>

#include "ita_gen.h"
#include "ita_stream.h"

/* Removes miss outcomes (the access becomes a hit) until the slot fits the limits. */
static void fit_misses(ita_slot *s, const counts *n, const counts *lim)
{
    if (ITA_SLOT_GET(s, LOAD) && ITA_SLOT_GET(s, L1D_MISS) && n->l1d >= lim->l1d) {
        s->flags &= (uint16_t)~(FLAG(L1D_MISS) | FLAG(L2_REF) | FLAG(L2_MISS));
        s->lat = 1;
    }
    if (ITA_SLOT_GET(s, L2_REF) && n->l2ref >= lim->l2ref) {
        s->flags &= (uint16_t)~(FLAG(L1D_MISS) | FLAG(L2_REF) | FLAG(L2_MISS));
        s->lat = ITA_SLOT_GET(s, LOAD) ? 1 : 0;
    }
    if (ITA_SLOT_GET(s, L2_MISS) && n->l2miss >= lim->l2miss) {
        s->flags &= (uint16_t)~FLAG(L2_MISS);
        s->lat = ITA_SLOT_GET(s, LOAD) ? 7 : 0;
    }
}

/* ---- running it ----------------------------------------------------------------------- */
static uint64_t pick_lat_l2_miss(pmu_rng *r)
{
    return pmu_rng_chance(r, 700) ? pmu_rng_range(r, 12, 20) : pmu_rng_range(r, 150, 350);
}

/* Data address and cache outcome of a memory access. */
static void mem_outcome(ita_gen *g, insn *in, int depth, ita_slot *s)
{
    pmu_rng *r = &g->r;
    task *t = &g->tasks[g->cur];
    int is_load = in->kind == IK_LOAD || in->kind == IK_FLOAD || in->kind == IK_RSE_FILL;
    int fp_load = in->kind == IK_FLOAD;
    uint64_t heap = t->heap ? t->heap : g->kdata, heap_size = t->heap ? t->heap_size : (1u << 20);
    unsigned l1 = 0, l2 = 0; /* l1: L1D miss, l2: L2 miss, per mille */
    switch (in->pat) {
    case MP_STACK:
        s->daddr = t->stack_top - (uint64_t)depth * 0x80 - in->off;
        l1 = 15, l2 = 50;
        break;
    case MP_STREAM: {
        uint64_t region = 1u << 20;
        s->daddr = heap + (in->off + (uint64_t)in->cursor * in->stride) % region;
        in->cursor++;
        int new_line = (s->daddr & 63) < in->stride;
        l1 = new_line ? 700 : 5;
        l2 = (s->daddr & 4095) < in->stride ? 600 : new_line ? 60 : 0;
        break;
    }
    case MP_RANDOM:
        s->daddr = heap + (pmu_rng_below(r, heap_size) & ~(uint64_t)7);
        l1 = 350, l2 = 200;
        break;
    case MP_KSTACK:
        s->daddr = t->kstack - 0x200 - in->off;
        l1 = in->kind == IK_RSE_FILL ? 400 : 20;
        l2 = 100;
        break;
    default: /* MP_KDATA */
        s->daddr = g->kdata + in->off;
        l1 = 100, l2 = 150;
        break;
    }
    if (is_load) {
        s->flags |= FLAG(LOAD);
        if (in->kind == IK_RSE_FILL)
            s->flags |= FLAG(RSE);
        if (fp_load || pmu_rng_chance(r, l1)) {
            /* FP loads bypass L1D and go to L2 (Itanium 2) */
            if (!fp_load)
                s->flags |= FLAG(L1D_MISS);
            s->flags |= FLAG(L2_REF);
            if (pmu_rng_chance(r, l2)) {
                s->flags |= FLAG(L2_MISS);
                s->lat = (uint16_t)pick_lat_l2_miss(r);
            } else {
                s->lat = (uint16_t)(fp_load ? pmu_rng_range(r, 6, 10) : pmu_rng_range(r, 5, 9));
            }
        } else {
            s->lat = 1;
        }
    } else {
        /* the L1D is write-through: every store references L2 */
        s->flags |= FLAG(STORE) | FLAG(L2_REF);
        if (pmu_rng_chance(r, l2 / 4))
            s->flags |= FLAG(L2_MISS);
    }
    if (pmu_rng_chance(r, 20))
        s->tlb = pmu_rng_chance(r, 200) ? 2 : 1;
    if (in->hot_data) {
        /* after every draw of the access it replaces, so the run stays in step with the
         * run without hot edges; the cache outcome stays that of the replaced access */
        uint64_t edge = g->hot.data[in->hot_data - 1];
        if (in->hot_stride)
            s->daddr = edge - HOT_WALK / 2 + ((uint64_t)in->hot_cursor++ * in->hot_stride) % HOT_WALK;
        else
            s->daddr = edge + (uint64_t)(int64_t)in->hot_off;
    }
}

enum { BR_IPREL = 1, BR_RETURN = 2, BR_INDIRECT = 3 };
enum { PRED_OK = 1, PRED_PATH = 2, PRED_TARGET = 3 };

typedef struct outcome {
    int taken;
    int pred;
    uint32_t next_pos; /* when taken within the function */
    int call;          /* function to push, or -1 */
    int tail;          /* function to replace the frame with, or -1 */
    int ret;
} outcome;

static int pick_syscall(ita_gen *g)
{
    unsigned total = 0;
    for (int i = 0; i < g->nsys; i++)
        total += g->sys[i].weight;
    unsigned x = (unsigned)pmu_rng_below(&g->r, total);
    for (int i = 0; i < g->nsys; i++) {
        if (x < g->sys[i].weight)
            return i;
        x -= g->sys[i].weight;
    }
    return 0;
}

static void branch_outcome(ita_gen *g, ctx *x, frame *fr, insn *in, outcome *o, int *type)
{
    pmu_rng *r = &g->r;
    o->taken = 1;
    o->pred = PRED_OK;
    o->call = o->tail = -1;
    o->ret = 0;
    *type = BR_IPREL;
    switch (in->kind) {
    case IK_BR_LOOP: {
        int32_t *left = &fr->loop_left[in->loop];
        if (*left < 0)
            *left = (int32_t)g->fn[fr->fn].trips[in->loop] - 1;
        if (*left > 0) {
            (*left)--;
            o->taken = 1;
            if (pmu_rng_chance(r, 2))
                o->pred = PRED_PATH;
        } else {
            *left = -1;
            o->taken = 0;
            if (pmu_rng_chance(r, 600))
                o->pred = PRED_PATH; /* the exit is where loops mispredict */
        }
        o->next_pos = (uint32_t)in->target;
        break;
    }
    case IK_BR_COND: {
        o->taken = pmu_rng_chance(r, in->bias);
        int predict_taken = in->bias > 500;
        if (o->taken != predict_taken)
            o->pred = PRED_PATH;
        else if (o->taken && pmu_rng_chance(r, 3))
            o->pred = PRED_TARGET;
        o->next_pos = (uint32_t)in->target;
        break;
    }
    case IK_BR_JUMP:
    case IK_BR_CALL:
    case IK_BR_TAIL:
        if (pmu_rng_chance(r, 3))
            o->pred = PRED_TARGET;
        else if (pmu_rng_chance(r, 1))
            o->pred = PRED_PATH;
        if (in->kind == IK_BR_JUMP)
            o->next_pos = (uint32_t)in->target;
        else if (in->kind == IK_BR_CALL)
            o->call = in->target;
        else
            o->tail = in->target;
        break;
    case IK_BR_RESCHED:
        o->taken = g->need_resched;
        if (o->taken) {
            o->call = in->target;
            if (pmu_rng_chance(r, 500))
                o->pred = PRED_PATH;
        }
        break;
    case IK_BR_RET:
        *type = BR_RETURN;
        o->ret = 1;
        if (x->depth > 8 || pmu_rng_chance(r, 10)) /* deeper than the return stack buffer */
            o->pred = PRED_TARGET;
        else if (pmu_rng_chance(r, 10)) /* a predicated return predicted the wrong way */
            o->pred = PRED_PATH;
        break;
    case IK_BR_ICALL:
    case IK_BR_DISPATCH: {
        *type = BR_INDIRECT;
        int callee = in->kind == IK_BR_DISPATCH ? g->dispatch_fn
                     : pmu_rng_chance(r, 800)           ? in->target
                                                : in->target2;
        if (callee != in->last_callee)
            o->pred = PRED_TARGET;
        else if (pmu_rng_chance(r, 20)) /* a predicated indirect call predicted the wrong way */
            o->pred = PRED_PATH;
        in->last_callee = callee;
        o->call = callee;
        break;
    }
    default:
        break;
    }
}

/* ---- scheduling ------------------------------------------------------------------------ */
static void start_lowpower(ita_gen *g, uint64_t lo, uint64_t hi)
{
    g->lowpower_left = pmu_rng_range(&g->r, lo, hi);
}

/* The context switch of schedule(): picks the next task and puts its pid in this
 * (kernel) record.  When the idle task takes over, the interruption path is abandoned
 * and the idle loop runs from the next cycle, as a kernel thread. */
static void context_switch(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->r;
    int nprocs = g->ntasks - 1;
    int next;
    if (g->cur == 0)
        next = 1 + (int)pmu_rng_below(r, (uint64_t)nprocs);
    else if (g->blocked && (nprocs == 1 || pmu_rng_chance(r, 250)))
        next = 0; /* nothing else to run */
    else if (g->blocked) /* any process but the one that blocked */
        next = 1 + (int)(((uint64_t)g->cur + pmu_rng_below(r, (uint64_t)(nprocs - 1))) % (uint64_t)nprocs);
    else if (nprocs > 1 && pmu_rng_chance(r, 750)) /* preemption: usually another process */
        next = 1 + (int)(((uint64_t)g->cur + pmu_rng_below(r, (uint64_t)(nprocs - 1))) % (uint64_t)nprocs);
    else
        next = pmu_rng_chance(r, 200) ? 0 : g->cur;
    g->need_resched = 0;
    g->blocked = 0;
    g->cur = next;
    c->pid = g->tasks[next].pid;
    if (next == 0) {
        g->in_kernel = 0;
        start_lowpower(g, 16, 200);
    }
}

static void enter_kernel(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->r;
    c->intr = ITA_INTR_ENTRY;
    g->ipsr_up = g->psr_up;
    g->in_kernel = 1;
    g->stall = 0;
    if (g->pending_entry == ENTRY_SYSCALL) {
        int k = pick_syscall(g);
        g->dispatch_fn = g->sys[k].fn;
        if (g->sys[k].can_block && pmu_rng_chance(r, 250)) {
            g->need_resched = 1;
            g->blocked = 1;
        }
        ita_gen_ctx_start(&g->kctx, g->k_ivt_break);
    } else {
        if (g->cur == 0)
            g->need_resched = pmu_rng_chance(r, 900); /* a wake-up usually brings work */
        else if (pmu_rng_chance(r, 500))
            g->need_resched = 1;
        g->timer_left = pmu_rng_range(r, 8000, 24000);
        ita_gen_ctx_start(&g->kctx, g->k_ivt_ext);
    }
    g->pending_entry = ENTRY_NONE;
}

/* ---- one cycle of the workload ----------------------------------------------------------- */
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Static target of a branch, as the BTB would record it. */
static uint64_t branch_target(const ita_gen *g, const ctx *x, const func *f, const insn *in,
                              const outcome *o)
{
    switch (in->kind) {
    case IK_BR_LOOP:
    case IK_BR_COND:
    case IK_BR_JUMP:
        return f->code[in->target].ip;
    case IK_BR_CALL:
    case IK_BR_TAIL:
    case IK_BR_RESCHED:
        return g->fn[in->target].start;
    case IK_BR_ICALL:
    case IK_BR_DISPATCH:
        return g->fn[o->call].start;
    default: /* IK_BR_RET: where the caller continues */
        if (x->depth > 1) {
            const frame *caller = &x->fr[x->depth - 2];
            return g->fn[caller->fn].code[caller->pos].ip;
        }
        return f->start;
    }
}

/* How many slots this cycle may retire from x: an IA-32 cycle 1..3 instructions, an
 * IA-64 cycle up to two bundles from where the group starts, sometimes cut short by a
 * stop.  *bundle_limit: the position after the second bundle (IA-64). */
static unsigned group_size(pmu_rng *r, const ctx *x, int ia32, uint32_t *bundle_limit)
{
    *bundle_limit = 0;
    if (ia32) {
        unsigned p = (unsigned)pmu_rng_below(r, 100);
        return p < 40 ? 1 : p < 75 ? 2 : 3;
    }
    uint32_t pos = x->fr[x->depth - 1].pos;
    *bundle_limit = (pos / 3 + 2) * 3;
    unsigned max_slots = *bundle_limit - pos;
    if (pmu_rng_chance(r, 200))
        max_slots = (unsigned)pmu_rng_range(r, 1, max_slots);
    return max_slots;
}

static int is_load_kind(int k) { return k == IK_LOAD || k == IK_FLOAD || k == IK_RSE_FILL; }
static int is_store_kind(int k) { return k == IK_STORE || k == IK_FSTORE; }
static int is_branch_kind(int k) { return k >= IK_BR_LOOP && k <= IK_BR_DISPATCH; }

/* Whether an instruction of kind k still fits this cycle: the per-cycle limits, and one
 * PSR.up write per cycle.  One that does not retires in the next cycle. */
static int fits_cycle(int k, const counts *n, const counts *lim, const ita_cycle *c)
{
    return !((is_load_kind(k) && n->load >= lim->load) ||
             (is_store_kind(k) && n->store >= lim->store) ||
             (k == IK_FPOP && n->fp >= lim->fp) || (is_branch_kind(k) && n->br >= lim->br) ||
             ((k == IK_RUM || k == IK_SUM) && c->up_we));
}

/* The flags and outcomes of the slot of instruction `in` (frame fr of context x):
 * branch type, prediction and target, memory access, nop, FP.  Adds the stall it causes
 * to *stall; returns 1 when the group ends after it (a taken or mispredicted branch). */
static int slot_outcome(ita_gen *g, ctx *x, frame *fr, insn *in, int squashed, ita_slot *s,
                        const counts *n, const counts *lim, outcome *o, uint64_t *stall)
{
    pmu_rng *r = &g->r;
    int k = in->kind, end_group = 0;
    if (squashed) {
        s->flags = FLAG(PRED_OFF);
    } else if (is_branch_kind(k)) {
        int btype = 0;
        branch_outcome(g, x, fr, in, o, &btype);
        s->flags = (uint16_t)(FIELD(BR_TYPE, btype) | FIELD(BR_PRED, o->pred) |
                              (o->taken ? FLAG(TAKEN) : 0));
        s->target = branch_target(g, x, &g->fn[fr->fn], in, o);
        if (o->pred != PRED_OK) {
            *stall += pmu_rng_range(r, 5, 7); /* pipeline flush */
            end_group = 1;
        }
        if (o->taken)
            end_group = 1;
    } else if (k == IK_NOP) {
        s->flags = FLAG(NOP);
    } else if (k == IK_FPOP) {
        s->flags = FLAG(FP);
    } else if (is_load_kind(k) || is_store_kind(k)) {
        mem_outcome(g, in, x->depth, s);
        fit_misses(s, n, lim);
        /* a miss stalls when its consumer follows closely, not always */
        if (ITA_SLOT_GET(s, L1D_MISS) && pmu_rng_chance(r, 400))
            *stall += ITA_SLOT_GET(s, L2_MISS) ? s->lat / 2 + pmu_rng_below(r, s->lat / 2 + 1u)
                                               : pmu_rng_below(r, s->lat / 2 + 1u);
        if (ITA_SLOT_GET(s, L2_MISS) && !g->recirc_left && pmu_rng_chance(r, 300))
            g->recirc_left = pmu_rng_range(r, 2, 12);
    }
    return end_group;
}

/* Where execution continues after a taken branch. */
static void follow_branch(ctx *x, frame *fr, const outcome *o, int ia32)
{
    if (o->ret) {
        if (x->depth > 1)
            x->depth--;
        else
            ita_gen_frame_enter(fr, fr->fn);
    } else if (o->call >= 0) {
        /* the call returns to the next bundle (IA-64) or instruction (IA-32) */
        fr->pos = ia32 ? fr->pos + 1 : (fr->pos / 3 + 1) * 3;
        if (x->depth < MAX_DEPTH) {
            ita_gen_frame_enter(&x->fr[x->depth], o->call);
            x->depth++;
        }
    } else if (o->tail >= 0) {
        ita_gen_frame_enter(fr, o->tail);
    } else {
        fr->pos = o->next_pos;
    }
}

enum after { AFTER_NEXT, AFTER_END_GROUP, AFTER_SWITCHED };

/* The side effects of a retired, not squashed instruction on the CPU state: PSR.up
 * writes, the rfi, the halt, and the context switch (after which x is abandoned). */
static enum after side_effects(ita_gen *g, ita_cycle *c, frame *fr, int k)
{
    pmu_rng *r = &g->r;
    if (k == IK_RUM || k == IK_SUM) {
        c->up_we = 1;
        c->up = k == IK_SUM;
        g->psr_up = c->up;
        g->tasks[g->cur].up = c->up;
    } else if (k == IK_RFI) {
        g->pending_return = 1;
        return AFTER_END_GROUP;
    } else if (k == IK_HALT) {
        g->halt_left = pmu_rng_range(r, 100, 3000);
        g->halt_power = pmu_rng_chance(r, 850) ? ITA_POWER_LIGHT_HALT : ITA_POWER_HALT;
        g->lowpower_left = 0;
        return AFTER_END_GROUP;
    } else if (k == IK_SCHED) {
        fr->pos++;
        context_switch(g, c); /* to the idle task, x is abandoned */
        return AFTER_SWITCHED;
    }
    return AFTER_NEXT;
}

/* Retires the slots of one cycle from context x into c. */
static void retire(ita_gen *g, ita_cycle *c, ctx *x, int ia32)
{
    pmu_rng *r = &g->r;
    const counts *const lim = &g->lim;
    counts n = {0, 0, 0, 0, 0, 0, 0};
    uint32_t bundle_limit;
    unsigned max_slots = group_size(r, x, ia32, &bundle_limit);
    uint64_t stall = 0;

    while (c->nslots < max_slots && c->nslots < ITA_MAX_SLOTS) {
        frame *fr = &x->fr[x->depth - 1];
        func *f = &g->fn[fr->fn];
        if (fr->pos >= f->n)
            fr->pos = 0; /* unreachable with the generated programs; keeps going regardless */
        if (!ia32 && fr->pos >= bundle_limit)
            break;
        insn *in = &f->code[fr->pos];
        if (in->kind == IK_SYSCALL) {
            fr->pos++; /* the kernel resumes after the break */
            g->pending_entry = ENTRY_SYSCALL;
            break;
        }
        if (!fits_cycle(in->kind, &n, lim, c))
            break;

        ita_slot *s = &c->slot[c->nslots];
        memset(s, 0, sizeof *s);
        s->ip = in->ip;
        s->enc = in->enc;
        s->unit = in->unit;
        s->slot = in->slot;
        int squashed = in->predicated && pmu_rng_chance(r, 250);
        outcome o = {0, 0, 0, -1, -1, 0};
        int end_group = slot_outcome(g, x, fr, in, squashed, s, &n, lim, &o, &stall);
        ita_gen_count_slot(&n, s);
        c->nslots++;

        enum after after = squashed ? AFTER_NEXT : side_effects(g, c, fr, in->kind);
        if (after == AFTER_SWITCHED)
            break;
        if (after == AFTER_END_GROUP)
            end_group = 1;
        if (is_branch_kind(in->kind) && !squashed && o.taken)
            follow_branch(x, fr, &o, ia32);
        else
            fr->pos++;
        if (end_group)
            break;
    }
    g->stall = min_u64(g->stall + stall, 400);
}

void ita_gen_workload_next(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->r;
    task *t = &g->tasks[g->cur];
    ita_clear_bytes(c, 0, sizeof *c);
    c->pid = t->pid;
    c->power = g->halt_left ? g->halt_power
               : g->lowpower_left ? ITA_POWER_LOW_POWER
                                  : ITA_POWER_NORMAL;
    if (g->produced == 0) {
        /* monitoring starts on: the first record writes PSR.up and PSR.pp */
        c->up_we = c->up = c->pp_we = c->pp = 1;
        g->psr_up = 1;
    }

    if (g->halt_left) {
        c->cpl = 0;
        c->is = 0;
        if (--g->halt_left == 0)
            g->pending_entry = ENTRY_EXTERNAL; /* the interrupt that wakes the processor */
    } else if (g->pending_entry) {
        enter_kernel(g, c);
        c->cpl = 0;
        c->is = 0;
        retire(g, c, &g->kctx, 0);
    } else if (g->pending_return) {
        g->pending_return = 0;
        g->in_kernel = 0;
        c->intr = ITA_INTR_RETURN;
        g->psr_up = g->ipsr_up;
        t = &g->tasks[g->cur];
        c->cpl = t->cpl;
        c->is = t->ia32;
        if (g->cur != 0 && g->psr_up != t->up) {
            /* the kernel put this task's PSR.up into IPSR before the rfi */
            c->up_we = 1;
            c->up = t->up;
            g->psr_up = t->up;
        }
        retire(g, c, &t->user, t->ia32);
    } else {
        c->cpl = g->in_kernel ? 0 : t->cpl;
        c->is = g->in_kernel ? 0 : t->ia32;
        if (g->stall) {
            g->stall--;
        } else if (!pmu_rng_chance(r, 60)) { /* else a front-end bubble */
            if (g->in_kernel)
                retire(g, c, &g->kctx, 0);
            else
                retire(g, c, &t->user, t->ia32);
        }
    }

    if (g->recirc_left) {
        g->recirc_left--;
        c->recirc = (uint8_t)pmu_rng_range(r, 1, ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr);
    }
    if (g->lowpower_left && !g->halt_left)
        g->lowpower_left--;
    else if (!g->halt_left && !g->in_kernel && g->cur != 0 && pmu_rng_chance_ppm(r, 25))
        start_lowpower(g, 300, 3000); /* thermal throttling now and then */
    if (g->timer_left)
        g->timer_left--;
    if (!g->timer_left && !g->in_kernel && !g->halt_left && !g->pending_entry &&
        !g->pending_return)
        g->pending_entry = ENTRY_EXTERNAL;
}

