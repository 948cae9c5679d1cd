/* pmu_fault.c - test code only: the fault-injecting wrapper of include/harness/pmu_fault.h. */
#include "harness/pmu_fault.h"

#include <stdlib.h>

typedef struct faulty {
    pmu_backend base; /* first member: a faulty* is a pmu_backend* */
    pmu_backend *inner;
    pmu_fault fault;
} faulty;

static faulty *F(pmu_backend *b) { return (faulty *)b; }

static void f_reset(pmu_backend *b)
{
    pmu_reset(F(b)->inner);
    b->cycle = 0;
}
static void f_write(pmu_backend *b, uint16_t a, uint64_t v)
{
    const pmu_fault *f = &F(b)->fault;
    if (f->kind == PMU_FAULT_WRITE_FLIP && a == f->addr)
        v ^= f->mask;
    pmu_write(F(b)->inner, a, v);
}
static uint64_t f_read(pmu_backend *b, uint16_t a)
{
    const pmu_fault *f = &F(b)->fault;
    uint64_t v = pmu_read(F(b)->inner, a);
    return f->kind == PMU_FAULT_READ_FLIP && a == f->addr ? v ^ f->mask : v;
}
static void f_step(pmu_backend *b, const void *rec)
{
    if (!(F(b)->fault.kind == PMU_FAULT_DROP_STEP && b->cycle == F(b)->fault.at))
        pmu_step(F(b)->inner, rec);
    b->cycle++;
}
static void f_snapshot(pmu_backend *b, pmu_state *s)
{
    pmu_snapshot(F(b)->inner, s);
    if (F(b)->fault.kind == PMU_FAULT_PMI_LOST && b->cycle > F(b)->fault.at)
        s->pmi = 0;
}
static void f_destroy(pmu_backend *b)
{
    pmu_destroy(F(b)->inner);
    free(b);
}
static int f_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    return pmu_trace_open(F(b)->inner, path, err);
}
static int f_trace_close(pmu_backend *b, pmu_err *err) { return pmu_trace_close(F(b)->inner, err); }

static const pmu_backend_ops faulty_ops = {
    .reset = f_reset,
    .write = f_write,
    .read = f_read,
    .step = f_step,
    .snapshot = f_snapshot,
    .destroy = f_destroy,
    .trace_open = f_trace_open,
    .trace_close = f_trace_close,
};

pmu_backend *pmu_fault_wrap(pmu_backend *inner, const pmu_fault *fault)
{
    faulty *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->base = *inner;
    f->base.ops = &faulty_ops;
    f->base.cycle = 0;
    f->inner = inner;
    f->fault = *fault;
    return &f->base;
}

void pmu_fault_release(pmu_backend *wrapper) { free(wrapper); }
