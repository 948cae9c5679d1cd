/*
 * cosim.c - the lock-step checker (see cosim.h).
 *
 * The per-clock cost is a memcmp of the two register arrays and a compare of the
 * interrupt lines: in place where both backends keep their visible registers in
 * pmu_state's layout (pmu_visible), otherwise of snapshots.  The report is built, from
 * snapshots, only when they differ.
 */
#include "harness/pmu_cosim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_dialect.h"
#include "common/pmu_family.h"
#include "common/pmu_text.h"

typedef struct cosim {
    pmu_backend base; /* first member: a pmu_backend* is a cosim* */
    const pmu_family *fam;
    size_t cmp_bytes; /* bytes of pmu_state.reg compared: the family's visible registers */
    pmu_backend *ref, *rtl;
    pmu_state s_ref, s_rtl;
    /* Where each keeps its visible registers and interrupt line (pmu_visible), or NULL. */
    const void *vis_ref, *vis_rtl;
    const uint8_t *pmi_ref, *pmi_rtl;
    uint64_t mismatches;
    int have_first;
    pmu_cosim_mismatch first;
    pmu_cosim_where_fn where;
    void *where_ctx;
    /* pmu_cosim_step_batch: the RTL's registers and line after each clock of a batch */
    uint64_t *batch_reg; /* PMU_COSIM_BATCH_CLOCKS x nvis */
    uint8_t batch_pmi[PMU_COSIM_BATCH_CLOCKS];
    int batch_vec; /* 1: pmu_cosim_step_batch runs batch_avx2 (both sides in place, nvis >= 4,
                      a host with AVX2) */
} cosim;

static const pmu_backend_ops cosim_ops;


static void describe_port_op(const cosim *m, pmu_cosim_mismatch *r)
{
    char name[24];
    int v = pmu_family_vis_of_addr(m->fam, r->addr);
    if (v >= 0)
        snprintf(name, sizeof name, "%s", m->fam->vis[v].name);
    else
        snprintf(name, sizeof name, "address 0x%03x", r->addr);
    switch (r->clock) {
    case PMU_COSIM_WRITE:
        snprintf(r->record, sizeof r->record,
                 "register write %s = 0x%016" PRIx64 " (after %" PRIu64 " records)",
                 name, r->wdata, m->base.cycle);
        break;
    case PMU_COSIM_READ:
        snprintf(r->record, sizeof r->record, "register read of %s (after %" PRIu64 " records)",
                 name, m->base.cycle);
        break;
    default:
        snprintf(r->record, sizeof r->record, "reset");
        break;
    }
}

/* Records the first disagreement of the two states just taken. */
static void report_state(cosim *m, pmu_cosim_clock clock, uint64_t cycle, const void *c,
                         uint16_t addr, uint64_t wdata)
{
    m->mismatches++;
    if (m->have_first)
        return;
    m->have_first = 1;
    pmu_cosim_mismatch *r = &m->first;
    memset(r, 0, sizeof *r);
    r->cycle = cycle;
    r->clock = clock;
    r->addr = addr;
    r->wdata = wdata;

    int found = 0;
    for (unsigned v = 0; v < m->fam->nvis; v++) {
        uint64_t e = m->s_ref.reg[v], a = m->s_rtl.reg[v];
        if (e == a)
            continue;
        if (!found) {
            found = 1;
            snprintf(r->reg, sizeof r->reg, "%s", m->fam->vis[v].name);
            pmu_family_name_fields(m->fam, v, e ^ a, r->fields, sizeof r->fields);
            r->expected = e;
            r->actual = a;
        } else {
            pmu_text_appendf(r->others, sizeof r->others, "%s%s", r->others[0] ? ", " : "",
                   m->fam->vis[v].name);
        }
    }
    if (m->s_ref.pmi != m->s_rtl.pmi) {
        if (!found) {
            snprintf(r->reg, sizeof r->reg, "pmi");
            snprintf(r->fields, sizeof r->fields, "pmi");
            r->expected = m->s_ref.pmi;
            r->actual = m->s_rtl.pmi;
        } else {
            pmu_text_appendf(r->others, sizeof r->others, "%spmi", r->others[0] ? ", " : "");
        }
    }
    if (c)
        m->fam->dialect->format(c, r->record, sizeof r->record);
    else
        describe_port_op(m, r);
    if (m->where) {
        const char *w = m->where(m->where_ctx);
        snprintf(r->where, sizeof r->where, "%s", w ? w : "");
    }
}

/* b's visible registers and interrupt line: where it keeps them (*in_place, *pmi_line),
 * or gathered into s. */
static inline const void *registers_of(pmu_backend *b, const void *in_place, const uint8_t *pmi_line,
                                       pmu_state *s, uint8_t *pmi)
{
    if (in_place) {
        *pmi = *pmi_line;
        return in_place;
    }
    pmu_snapshot(b, s);
    *pmi = s->pmi;
    return s->reg;
}

static inline void compare(cosim *m, pmu_cosim_clock clock, uint64_t cycle, const void *c,
                           uint16_t addr, uint64_t wdata)
{
    uint8_t pe, pa;
    const void *e = registers_of(m->ref, m->vis_ref, m->pmi_ref, &m->s_ref, &pe);
    const void *a = registers_of(m->rtl, m->vis_rtl, m->pmi_rtl, &m->s_rtl, &pa);
    if (__builtin_expect(memcmp(e, a, m->cmp_bytes) != 0 || pe != pa, 0)) {
        pmu_snapshot(m->ref, &m->s_ref);
        pmu_snapshot(m->rtl, &m->s_rtl);
        report_state(m, clock, cycle, c, addr, wdata);
    }
}

static void cosim_reset(pmu_backend *b)
{
    cosim *m = (cosim *)b;
    pmu_reset(m->ref);
    pmu_reset(m->rtl);
    b->cycle = 0;
    m->mismatches = 0; /* a new run */
    m->have_first = 0;
    compare(m, PMU_COSIM_RESET, 0, NULL, 0, 0);
}

static void cosim_write(pmu_backend *b, uint16_t addr, uint64_t value)
{
    cosim *m = (cosim *)b;
    pmu_write(m->ref, addr, value);
    pmu_write(m->rtl, addr, value);
    compare(m, PMU_COSIM_WRITE, b->cycle, NULL, addr, value);
}

static uint64_t cosim_read(pmu_backend *b, uint16_t addr)
{
    cosim *m = (cosim *)b;
    uint64_t e = pmu_read(m->ref, addr), a = pmu_read(m->rtl, addr);
    if (e != a) {
        m->mismatches++;
        if (!m->have_first) {
            m->have_first = 1;
            pmu_cosim_mismatch *r = &m->first;
            memset(r, 0, sizeof *r);
            r->cycle = b->cycle;
            r->clock = PMU_COSIM_READ;
            r->addr = addr;
            r->expected = e;
            r->actual = a;
            int v = pmu_family_vis_of_addr(m->fam, addr);
            if (v >= 0) {
                snprintf(r->reg, sizeof r->reg, "%s", m->fam->vis[v].name);
                pmu_family_name_fields(m->fam, (unsigned)v, e ^ a, r->fields, sizeof r->fields);
            } else {
                snprintf(r->reg, sizeof r->reg, "0x%03x", addr);
                snprintf(r->fields, sizeof r->fields, "read value");
            }
            describe_port_op(m, r);
            if (m->where) {
                const char *w = m->where(m->where_ctx);
                snprintf(r->where, sizeof r->where, "%s", w ? w : "");
            }
        }
    }
    return e;
}

static void cosim_step(pmu_backend *b, const void *c)
{
    cosim *m = (cosim *)b;
    pmu_step(m->ref, c);
    pmu_step(m->rtl, c);
    compare(m, PMU_COSIM_STEP, b->cycle, c, 0, 0);
    b->cycle++;
}

static uint8_t cosim_pmi(pmu_backend *b)
{
    const cosim *m = (const cosim *)b;
    return m->pmi_ref ? *m->pmi_ref : pmu_pmi(m->ref);
}

/* A record's n clocks (pmu_backend_ops.step_run), each compared: the reference steps the
 * clocks after the first as repeats (step_again) where it can.  Returns after a clock that
 * disagreed or raised the line. */
static unsigned cosim_step_run(pmu_backend *b, const void *c, unsigned n)
{
    cosim *m = (cosim *)b;
    void (*const again)(pmu_backend *, const void *) =
        m->ref->ops->step_again ? m->ref->ops->step_again : m->ref->ops->step;
    for (unsigned i = 0; i < n; i++) {
        if (i == 0)
            pmu_step(m->ref, c);
        else
            again(m->ref, c);
        pmu_step(m->rtl, c);
        const uint64_t before = m->mismatches;
        compare(m, PMU_COSIM_STEP, b->cycle, c, 0, 0);
        b->cycle++;
        if (m->mismatches != before || cosim_pmi(b))
            return i + 1;
    }
    return n;
}

/* The report of a batch clock c that disagreed, from the RTL's registers kept for it. */
static __attribute__((noinline, cold)) void batch_report(cosim *m, unsigned c, const void *rec)
{
    pmu_snapshot(m->ref, &m->s_ref);
    memset(&m->s_rtl, 0, sizeof m->s_rtl);
    memcpy(m->s_rtl.reg, m->batch_reg + c * m->base.nvis, m->cmp_bytes);
    m->s_rtl.pmi = m->batch_pmi[c];
    report_state(m, PMU_COSIM_STEP, m->base.cycle, rec, 0, 0);
}

/* ---- the batch's copies and compares ------------------------------------------------- */
/* Four registers at a time in a 32-byte vector (one AVX2 register: batch_avx2 below): the
 * nvis / 4 whole blocks unrolled, entered at the count (a switch falling through), then,
 * when nvis % 4, the last four registers again (a block overlapping the one before).  The vector type is aligned to 1 byte and may alias
 * anything: a backend's array need not be aligned (pmu_backend_ops.visible). */
typedef uint64_t cosim_v4 __attribute__((vector_size(32), aligned(1), may_alias));
#define COSIM_BLOCKS (PMU_VIS_MAX / 4)
_Static_assert(COSIM_BLOCKS == 24, "the unrolled blocks below: one case for each");
#define COSIM_V4(p) (*(const cosim_v4 *)(const void *)(p))

/* The 24 cases of a block operation OP(j), from block `blocks - 1` down to block 0. */
#define COSIM_FALL __attribute__((fallthrough))
#define COSIM_UNROLLED(blocks, OP)                                                             \
    switch (blocks) {                                                                          \
    case 24: OP(23); COSIM_FALL; case 23: OP(22); COSIM_FALL; case 22: OP(21); COSIM_FALL;     \
    case 21: OP(20); COSIM_FALL; case 20: OP(19); COSIM_FALL; case 19: OP(18); COSIM_FALL;     \
    case 18: OP(17); COSIM_FALL; case 17: OP(16); COSIM_FALL; case 16: OP(15); COSIM_FALL;     \
    case 15: OP(14); COSIM_FALL; case 14: OP(13); COSIM_FALL; case 13: OP(12); COSIM_FALL;     \
    case 12: OP(11); COSIM_FALL; case 11: OP(10); COSIM_FALL; case 10: OP(9); COSIM_FALL;      \
    case 9: OP(8); COSIM_FALL; case 8: OP(7); COSIM_FALL; case 7: OP(6); COSIM_FALL;           \
    case 6: OP(5); COSIM_FALL; case 5: OP(4); COSIM_FALL; case 4: OP(3); COSIM_FALL;           \
    case 3: OP(2); COSIM_FALL; case 2: OP(1); COSIM_FALL; case 1: OP(0); COSIM_FALL;           \
    default: break;                                                                            \
    }

/* The nvis (4 <= nvis <= PMU_VIS_MAX) registers at src into dst. */
static inline __attribute__((always_inline)) void copy_registers(uint64_t *dst, const unsigned char *src,
                                                                 size_t nvis)
{
#define COSIM_COPY(j) *(cosim_v4 *)(void *)(dst + 4 * (j)) = COSIM_V4(src + 32 * (j))
    COSIM_UNROLLED(nvis / 4, COSIM_COPY)
#undef COSIM_COPY
    if (nvis % 4)
        *(cosim_v4 *)(void *)(dst + nvis - 4) = COSIM_V4(src + 8 * (nvis - 4));
}

/* Nonzero when the nvis (4 <= nvis <= PMU_VIS_MAX) registers at a and b differ in any bit. */
static inline __attribute__((always_inline)) int registers_differ(const unsigned char *a, const uint64_t *b,
                                                                  size_t nvis)
{
    cosim_v4 acc = COSIM_V4(a + 8 * (nvis - 4)) ^ COSIM_V4(b + nvis - 4);
#define COSIM_XOR(j) acc |= COSIM_V4(a + 32 * (j)) ^ COSIM_V4(b + 4 * (j))
    COSIM_UNROLLED(nvis / 4, COSIM_XOR)
#undef COSIM_XOR
    return ((acc[0] | acc[1]) | (acc[2] | acc[3])) != 0;
}

/* The RTL steps the batch's clocks first, up to the end or a clock that raises its line,
 * each clock's registers and line kept; then the reference steps the same clocks, each
 * compared with the RTL's as it was after that clock.  So each backend runs its clocks in
 * a row (its code stays in the instruction cache: docs/bench-history.md, "Tenth round"), and the
 * reference is where the pair stops: at a mismatch it and the report are those of that
 * clock, while the RTL may be up to the batch's end beyond it.
 *
 * vec (a constant where it is inlined): both backends keep their registers and line in
 * place (pmu_visible) and the host has AVX2: the copies and compares are inline, 32 bytes
 * an instruction, where otherwise they call memcpy and memcmp (docs/bench-history.md,
 * "Reference round").  What the loops use is held in locals, which the calls to the two
 * models do not make them reload. */
static inline __attribute__((always_inline)) unsigned
batch(cosim *m, const void *const *recs, const unsigned *clocks, unsigned n, const int vec)
{
    pmu_backend *const b = &m->base, *const rtl = m->rtl, *const ref = m->ref;
    const size_t nvis = b->nvis;
    const unsigned char *const vis_rtl = m->vis_rtl, *const vis_ref = m->vis_ref;
    const uint8_t *const pmi_ref = m->pmi_ref;
    uint8_t *const batch_pmi = m->batch_pmi;
    uint64_t *const batch_reg = m->batch_reg;
    void (*const rtl_step)(pmu_backend *, const void *) = rtl->ops->step;
    void (*const ref_step)(pmu_backend *, const void *) = ref->ops->step;
    void (*const again)(pmu_backend *, const void *) =
        ref->ops->step_again ? ref->ops->step_again : ref_step;

    /* the RTL: up to the end or a clock that raises its line */
    unsigned cut = 0;
    uint64_t *out = batch_reg;
    for (unsigned i = 0; i < n; i++) {
        const void *rec = recs[i];
        for (unsigned k = clocks[i]; k; k--) {
            rtl_step(rtl, rec);
            uint8_t pmi;
            if (vec) {
                copy_registers(out, vis_rtl, nvis);
                pmi = *m->pmi_rtl;
            } else {
                memcpy(out, registers_of(rtl, vis_rtl, m->pmi_rtl, &m->s_rtl, &pmi), m->cmp_bytes);
            }
            out += nvis;
            batch_pmi[cut++] = pmi;
            if (pmi)
                goto reference;
        }
    }
reference:;
    /* the reference: the same clocks, each compared with the RTL's */
    const uint64_t first = b->cycle;
    const uint64_t *kept = batch_reg;
    unsigned c = 0;
    for (unsigned i = 0; c < cut; i++) {
        const void *rec = recs[i];
        const unsigned end = clocks[i] < cut - c ? c + clocks[i] : cut;
        ref_step(ref, rec);
        for (;;) {
            int differ;
            if (vec) {
                differ = registers_differ(vis_ref, kept, nvis) | (*pmi_ref != batch_pmi[c]);
            } else {
                uint8_t pe;
                const void *e = registers_of(ref, vis_ref, pmi_ref, &m->s_ref, &pe);
                differ = memcmp(e, kept, m->cmp_bytes) != 0 || pe != batch_pmi[c];
            }
            if (__builtin_expect(differ, 0)) {
                b->cycle = first + c;
                batch_report(m, c, rec);
                b->cycle++;
                return c + 1;
            }
            kept += nvis;
            if (++c == end)
                break;
            again(ref, rec);
        }
    }
    b->cycle = first + cut;
    return cut;
}

/* batch() with the inline copies and compares, compiled for AVX2 (batch_vec: only on a
 * host that has it).  Built as the baseline x86-64 instead, the same code splits each
 * 32-byte vector in two and runs slower than memcpy and memcmp. */
#if defined(__x86_64__) && defined(__GNUC__)
#define COSIM_AVX2 1
static __attribute__((target("avx2"), noinline)) unsigned
batch_avx2(cosim *m, const void *const *recs, const unsigned *clocks, unsigned n)
{
    return batch(m, recs, clocks, n, 1);
}
#else
#define COSIM_AVX2 0
#endif

unsigned pmu_cosim_step_batch(pmu_backend *b, const void *const *recs, const unsigned *clocks,
                              unsigned n)
{
    cosim *m = (cosim *)b;
#if COSIM_AVX2
    if (m->batch_vec)
        return batch_avx2(m, recs, clocks, n);
#endif
    return batch(m, recs, clocks, n, 0);
}

void pmu_cosim_retake_where(pmu_backend *b)
{
    cosim *m = (cosim *)b;
    if (m->have_first && m->where) {
        const char *w = m->where(m->where_ctx);
        snprintf(m->first.where, sizeof m->first.where, "%s", w ? w : "");
    }
}

/* The reference's state (the two agree, or a mismatch is counted). */
static void cosim_snapshot(pmu_backend *b, pmu_state *s) { pmu_snapshot(((cosim *)b)->ref, s); }

static void cosim_destroy(pmu_backend *b)
{
    cosim *m = (cosim *)b;
    pmu_destroy(m->ref);
    pmu_destroy(m->rtl);
    free(m->batch_reg);
    free(m);
}

/* The exact totals are the reference's; the waveform is the RTL's. */
static uint64_t cosim_total(pmu_backend *b, unsigned ctr) { return pmu_total(((cosim *)b)->ref, ctr); }

static int cosim_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    return pmu_trace_open(((cosim *)b)->rtl, path, err);
}

static int cosim_trace_close(pmu_backend *b, pmu_err *err) { return pmu_trace_close(((cosim *)b)->rtl, err); }

static const void *cosim_visible(pmu_backend *b, const uint8_t **pmi_line) { return pmu_visible(((cosim *)b)->ref, pmi_line); }
static pmu_backend *cosim_reference(pmu_backend *b) { return pmu_reference(((cosim *)b)->ref); }
static uint64_t cosim_count(const pmu_backend *b) { return ((const cosim *)b)->mismatches; }

static const pmu_backend_ops cosim_ops = {
    .reset = cosim_reset,
    .write = cosim_write,
    .read = cosim_read,
    .step = cosim_step,
    .snapshot = cosim_snapshot,
    .destroy = cosim_destroy,
    .total = cosim_total,
    .trace_open = cosim_trace_open,
    .trace_close = cosim_trace_close,
    .reference = cosim_reference,
    .mismatches = cosim_count,
    .pmi = cosim_pmi,
    .visible = cosim_visible,
    .step_run = cosim_step_run,
};

pmu_backend *pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                              pmu_cosim_where_fn where, void *where_ctx)
{
    if (!fam || !ref || !rtl || ref->model != rtl->model || ref->nvis != fam->nvis ||
        rtl->nvis != fam->nvis || fam->nvis > PMU_VIS_MAX)
        return NULL;
    cosim *m = calloc(1, sizeof *m);
    uint64_t *batch_reg = calloc(PMU_COSIM_BATCH_CLOCKS, fam->nvis * sizeof(uint64_t));
    if (!m || !batch_reg) {
        free(m);
        free(batch_reg);
        return NULL;
    }
    m->batch_reg = batch_reg;
    m->base.ops = &cosim_ops;
    m->base.name = "cosim";
    m->base.model = ref->model;
    m->base.nvis = fam->nvis;
    m->fam = fam;
    m->cmp_bytes = fam->nvis * sizeof(uint64_t);
    m->ref = ref;
    m->rtl = rtl;
    m->where = where;
    m->where_ctx = where_ctx;
    m->vis_ref = pmu_visible(ref, &m->pmi_ref);
    m->vis_rtl = pmu_visible(rtl, &m->pmi_rtl);
#if COSIM_AVX2
    m->batch_vec = m->vis_ref && m->vis_rtl && fam->nvis >= 4 && __builtin_cpu_supports("avx2");
#endif
    cosim_reset(&m->base);
    return &m->base;
}

int pmu_is_cosim(const pmu_backend *b) { return b && b->ops == &cosim_ops; }

void pmu_cosim_say_exact(FILE *out, const pmu_backend *b, const char *fmt, ...)
{
    /* By name, as wrappers (the traffic log) carry the name of the backend they wrap. */
    static const struct { const char *name, *head; } alone[] = {
        {"rtl", "exact against the RTL alone: "}, {"ref", "exact against the reference model alone: "}};
    const char *head = "exact: ", *tail = "";
    for (size_t k = 0; k < sizeof alone / sizeof alone[0]; k++)
        if (b && b->name && strcmp(b->name, alone[k].name) == 0) {
            head = alone[k].head;
            tail = " (only --backend cosim checks the RTL against the reference model)";
        }
    va_list ap;
    va_start(ap, fmt);
    fputs(head, out);
    vfprintf(out, fmt, ap);
    fprintf(out, "%s\n", tail);
    va_end(ap);
}

uint64_t pmu_cosim_mismatches(const pmu_backend *b)
{
    return b && b->ops->mismatches ? b->ops->mismatches(b) : 0;
}

const pmu_cosim_mismatch *pmu_cosim_first(const pmu_backend *b)
{
    if (!pmu_is_cosim(b))
        return NULL;
    const cosim *m = (const cosim *)b;
    return m->have_first ? &m->first : NULL;
}

pmu_backend *pmu_cosim_ref(pmu_backend *b) { return pmu_is_cosim(b) ? ((cosim *)b)->ref : NULL; }
pmu_backend *pmu_cosim_rtl(pmu_backend *b) { return pmu_is_cosim(b) ? ((cosim *)b)->rtl : NULL; }

static const char *clock_name(pmu_cosim_clock c)
{
    switch (c) {
    case PMU_COSIM_RESET: return "reset";
    case PMU_COSIM_WRITE: return "register write";
    case PMU_COSIM_READ: return "register read";
    default: return "step";
    }
}

size_t pmu_cosim_format(const pmu_cosim_mismatch *r, char *buf, size_t size)
{
    if (!size)
        return 0;
    buf[0] = '\0';
    if (r->clock == PMU_COSIM_STEP)
        pmu_text_appendf(buf, size, "mismatch at cycle %" PRIu64 " (step of record %" PRIu64 ")\n",
               r->cycle, r->cycle);
    else
        pmu_text_appendf(buf, size, "mismatch at cycle %" PRIu64 " (%s before record %" PRIu64 ")\n",
               r->cycle, clock_name(r->clock), r->cycle);
    pmu_text_appendf(buf, size, "  register: %s\n", r->reg);
    pmu_text_appendf(buf, size, "  field:    %s\n", r->fields);
    pmu_text_appendf(buf, size, "  expected: 0x%016" PRIx64 " (reference)\n", r->expected);
    pmu_text_appendf(buf, size, "  actual:   0x%016" PRIx64 " (RTL)\n", r->actual);
    if (r->others[0])
        pmu_text_appendf(buf, size, "  also differ: %s\n", r->others);
    pmu_text_appendf(buf, size, "  record:   %s\n", r->record);
    if (r->where[0])
        pmu_text_appendf(buf, size, "  where:    %s\n", r->where);
    return strlen(buf);
}
