/*
 * ev4_gen_walk.c - the instruction walker: one cycle of code at a time through the
 * functions of one image, so that the PCs of a stream make a meaningful profile
 * (docs/ev4-stream.md, "The generator").
 *
 * A function runs from its start; it may hold a loop (a backward branch taken a number
 * of times), and its last instruction is a branch to another function of the image.  A
 * cycle issues one or two instructions and ends at a branch.  What the counters see
 * (docs/ev4.md, "Counting") comes with it: dual and single issue, dry cycles after an
 * I-cache miss and a mispredict, frozen ones for resource conflicts and after a D-cache
 * miss, whose load is then replayed.
 */
#include "ev4_gen.h"

/* Per mille of each class (intop, load, store, branch, fpop, other) by kind of code. */
static const unsigned mix_user[EV4_NCLASSES] = {440, 240, 110, 140, 40, 30};
static const unsigned mix_fp[EV4_NCLASSES] = {300, 240, 100, 80, 260, 20};
static const unsigned mix_kernel[EV4_NCLASSES] = {460, 250, 140, 110, 0, 40};
static const unsigned mix_pal[EV4_NCLASSES] = {500, 120, 80, 80, 0, 220};

void ev4_walk_set(ev4_walker *w, const ev4_gen *g, const ev4_image *img)
{
    (void)g;
    w->lo = img->first;
    w->hi = img->first + img->n;
    w->fp = img->fp;
}

void ev4_walk_enter(ev4_gen *g, ev4_walker *w, unsigned f)
{
    const ev4_func *fn = &g->fn[f];
    uint64_t ninstr = (fn->end - fn->start) / 4;
    w->f = f;
    w->pc = fn->start;
    w->loop_end = 0;
    w->loop_left = 0;
    if (ninstr >= 16) {
        /* a loop inside the function: its fall-through still ends before the last
         * instruction, the function's own branch */
        uint64_t first = pmu_rng_below(&g->rng, ninstr / 2);
        uint64_t len = pmu_rng_range(&g->rng, 4, ninstr - first - 2 < 48 ? ninstr - first - 2 : 48);
        w->loop_start = fn->start + 4 * first;
        w->loop_end = w->loop_start + 4 * len;
        w->loop_left = (unsigned)pmu_rng_range(&g->rng, 0, 40);
    }
}

static unsigned draw_class(ev4_gen *g, const unsigned *mix)
{
    unsigned r = (unsigned)pmu_rng_below(&g->rng, 1000), acc = 0;
    for (unsigned k = 0; k < EV4_NCLASSES; k++) {
        acc += mix[k];
        if (r < acc)
            return k;
    }
    return EV4_CLASS_INTOP;
}

static void stall(ev4_walker *w, uint8_t kind, unsigned cycles)
{
    w->stall_kind = kind;
    w->stall_left = cycles;
}

/* The branch at pc (a branch point of w) and where it goes: the next pc.  Sets
 * *mispredict when the prediction was wrong. */
static uint64_t branch(ev4_gen *g, ev4_walker *w, uint64_t pc, uint8_t *mispredict)
{
    if (w->loop_end && pc == w->loop_end - 4) {
        if (w->loop_left) {
            w->loop_left--;
            *mispredict = pmu_rng_chance(&g->rng, 20);
            return w->loop_start;
        }
        w->loop_end = 0; /* the loop exits: the branch predicted taken falls through */
        *mispredict = pmu_rng_chance(&g->rng, 300);
        return pc + 4;
    }
    *mispredict = pmu_rng_chance(&g->rng, 40);
    ev4_walk_enter(g, w, w->lo + (unsigned)pmu_rng_below(&g->rng, w->hi - w->lo));
    return w->pc;
}

static int branch_point(const ev4_gen *g, const ev4_walker *w, uint64_t pc)
{
    return pc == g->fn[w->f].end - 4 || (w->loop_end && pc == w->loop_end - 4);
}

void ev4_walk_cycle(ev4_gen *g, ev4_walker *w, unsigned mode, ev4_cycle *c)
{
    const unsigned *mix = mode == EV4_MODE_PAL ? mix_pal
                        : mode == EV4_MODE_KERNEL ? mix_kernel
                        : w->fp ? mix_fp : mix_user;
    c->pc = w->pc;
    if (w->stall_left) {
        w->stall_left--;
        c->stall = w->stall_kind;
        return;
    }
    if (!w->replay) {
        unsigned r = (unsigned)pmu_rng_below(&g->rng, 1000);
        if (r < 10) { /* an I-cache miss: the pipe runs dry while the block comes in */
            c->imiss = 1;
            c->stall = EV4_STALL_DRY;
            stall(w, EV4_STALL_DRY, (unsigned)pmu_rng_range(&g->rng, 2, 8));
            return;
        }
        if (r < 50) {
            c->stall = EV4_STALL_FROZEN;
            return;
        }
        if (r < 75) {
            c->stall = EV4_STALL_DRY;
            return;
        }
    }
    unsigned n = pmu_rng_chance(&g->rng, 420) ? 2 : 1;
    uint64_t next = 0;
    int ended = 0;
    for (unsigned j = 0; j < n && !ended; j++) {
        uint64_t pc = w->pc + 4 * j;
        unsigned cls;
        c->nissue = (uint8_t)(j + 1);
        if (j == 0 && w->replay) {
            /* the load that missed the D-cache issues again */
            w->replay = 0;
            c->cls[0] = EV4_CLASS_LOAD;
            c->replay = 1;
            continue;
        }
        if (branch_point(g, w, pc)) {
            c->cls[j] = EV4_CLASS_BRANCH;
            next = branch(g, w, pc, &c->mispredict);
            ended = 1;
            break;
        }
        cls = draw_class(g, mix);
        c->cls[j] = (uint8_t)cls;
        if (cls == EV4_CLASS_LOAD && pmu_rng_chance(&g->rng, 50)) {
            /* a D-cache miss: the pipe freezes, then the load is replayed */
            c->dmiss = 1;
            w->replay = 1;
            stall(w, EV4_STALL_FROZEN, (unsigned)pmu_rng_range(&g->rng, 2, 12));
            next = pc;
            ended = 1;
        } else if (cls == EV4_CLASS_BRANCH) {
            /* a conditional branch not taken */
            c->mispredict = pmu_rng_chance(&g->rng, 60);
            next = pc + 4;
            ended = 1;
        }
    }
    w->pc = ended ? next : w->pc + 4u * c->nissue;
    if (c->mispredict) /* the wrong path is thrown away: a few dry cycles */
        stall(w, EV4_STALL_DRY, (unsigned)pmu_rng_range(&g->rng, 2, 4));
}
