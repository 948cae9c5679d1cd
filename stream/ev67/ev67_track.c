/*
 * ev67_track.c - a stream's in-flight instructions, record by record: the cross-record
 * rules of include/common/ev67/ev67_cycle.h (R1, R2's CMOV pairing across records, R3-R9) for
 * the readers and ev67_stream_check_*, and the state the text and binary forms predict
 * tags, pcs and head from (docs/ev67-stream.md, "Validation").
 *
 * In flight is always a list sorted by tag: fetches append, retires and squashes take
 * the oldest (R4), an abort takes a suffix (R5), so a ring of them is enough.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev67_internal.h"

#define RING EV67_STREAM_MAX_INFLIGHT

void ev67_track_init(ev67_track *t) { memset(t, 0, sizeof *t); }

int ev67_track_find(const ev67_track *t, uint32_t tag)
{
    if (!t->n)
        return -1;
    uint32_t base = ev67_track_at(t, 0)->tag, d = tag - base;
    uint32_t lo = 0, hi = t->n; /* distances from the oldest increase along the ring */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, dm = ev67_track_at(t, mid)->tag - base;
        if (dm == d)
            return (int)mid;
        if (dm < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int fail(pmu_err *err, const char *where, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(pmu_err *err, const char *where, const char *field, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    if (!err)
        return -1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pmu_dialect_errf(err, where, "field '%s': %s", field, what);
}

/* Strict: return the error.  Lenient (err NULL): go on with the next event. */
#define CHECK(cond, ...)                                                                    \
    do {                                                                                   \
        if (!(cond) && fail(err, where, __VA_ARGS__) && err)                               \
            return -1;                                                                     \
    } while (0)

/* fetch[k].member, formatted only for a message. */
#define FETCH_FIELD(k, member) ev67_field(f, sizeof f, "fetch", (k), member)

static int fetches(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err)
{
    char f[32];
    for (unsigned i = 0; i < c->nfetch && i < EV67_FETCH_MAX; i++) {
        const ev67_fetch *x = &c->fetch[i];
        CHECK(!t->started || x->tag == t->next, FETCH_FIELD(i, "tag"),
              "%u, expected %u (R1: one past the previous fetched instruction's tag)", x->tag,
              t->next);
        CHECK(!t->cmov_pending || (x->flags & EV67_FF_CMOV2), FETCH_FIELD(i, "flags"),
              "0x%x, expected CMOV2 (R2: the previous fetched instruction, tag %u, is a CMOV1)",
              x->flags, t->next - 1u);
        CHECK(!t->cmov_pending || x->pc == t->last_fetch_pc, FETCH_FIELD(i, "flags"),
              "CMOV2 at 0x%llx, expected its CMOV1's pc 0x%llx (R2)",
              (unsigned long long)x->pc, (unsigned long long)t->last_fetch_pc);
        CHECK(t->cmov_pending || !(x->flags & EV67_FF_CMOV2), FETCH_FIELD(i, "flags"),
              "CMOV2 not right after a CMOV1, expected the second half to follow the first "
              "(R2)");
        if (t->n == RING) {
            CHECK(0, "fetch", "tag %u would be the %u-th instruction in flight, expected at "
                  "most %u (the dialect's bound; the 21264 keeps 80)", x->tag, RING + 1, RING);
        } else {
            t->ring[(t->front + t->n) % RING] =
                (ev67_inst){.pc = x->pc, .tag = x->tag, .cls = x->cls, .flags = x->flags};
            t->n++;
        }
        t->next = x->tag + 1u;
        t->started = 1;
        t->cmov_pending = (x->flags & EV67_FF_CMOV1) != 0;
        t->last_fetch_pc = x->pc;
    }
    return 0;
}
#undef FETCH_FIELD

static void pop(ev67_track *t)
{
    t->front = (t->front + 1) % RING;
    t->n--;
}

/* The field of the entry being checked (retire[i] or squash[j]), formatted only for a message. */
#define END_FIELD ev67_field(f, sizeof f, is_retire ? "retire" : "squash", is_retire ? i : j, NULL)

static int ends(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err)
{
    char f[32];
    unsigned i = 0, j = 0, nr = c->nretire, ns = c->nsquash;
    if (nr > EV67_RETIRE_MAX)
        nr = EV67_RETIRE_MAX;
    if (ns > EV67_SQUASH_MAX)
        ns = EV67_SQUASH_MAX;
    while (i < nr || j < ns) {
        int is_retire = j >= ns || (i < nr && c->retire[i] - c->squash[j] >= 0x80000000u);
        uint32_t tag = is_retire ? c->retire[i] : c->squash[j];
        if (!t->n) {
            CHECK(0, END_FIELD, "tag %u, but nothing is in flight (R3: an instruction ends once, "
                  "after its fetch)", tag);
            return 0;
        }
        const ev67_inst *o = ev67_track_at(t, 0);
        if (tag != o->tag) {
            CHECK(0, END_FIELD, "tag %u, expected the oldest in-flight instruction, tag %u (R3: in "
                  "flight; R4: in tag order)", tag, o->tag);
            return 0;
        }
        if (is_retire) {
            CHECK(!(o->flags & EV67_FF_SQUASH), END_FIELD,
                  "tag %u is a squashed instruction (SQUASH), expected it in squash[] (R3)", tag);
            i++;
        } else {
            CHECK(o->flags & EV67_FF_SQUASH, END_FIELD, "tag %u is not a squashed instruction (no "
                  "SQUASH), expected it in retire[] (R3)", tag);
            j++;
        }
        pop(t);
    }
    return 0;
}
#undef END_FIELD

int ev67_track_events(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err)
{
    if (fetches(t, c, where, err))
        return -1;
    if (c->nstall) {
        int k = ev67_track_find(t, c->stall_first);
        uint32_t last = c->stall_first + c->nstall - 1u;
        CHECK(k >= 0 && (uint32_t)k + c->nstall <= t->n &&
                  ev67_track_at(t, (uint32_t)k + c->nstall - 1u)->tag == last,
              "stall_first", "range %u..%u, expected in-flight instructions only (R7)",
              c->stall_first, last);
    }
    if (c->trap) {
        int k = ev67_track_find(t, c->trap_tag);
        CHECK(k >= 0, "trap_tag", "%u, expected an in-flight instruction (R6)", c->trap_tag);
        if (k >= 0)
            CHECK(!c->trap_mis || ev67_track_at(t, (uint32_t)k)->cls == EV67_CLASS_CBR,
                  "trap_mis", "1 on tag %u, a %s, expected a conditional branch (R6)",
                  c->trap_tag, ev67_class_names[ev67_track_at(t, (uint32_t)k)->cls]);
    }
    if (ends(t, c, where, err))
        return -1;
    uint32_t b = t->backlog + c->nretire;
    b = b > EV67_LIM_RETIRE_ADD_MAX ? b - EV67_LIM_RETIRE_ADD_MAX : 0;
    CHECK(b <= EV67_LIM_BACKLOG_MAX, "nretire", "%u makes the retire backlog %u, expected at "
          "most %u (R9)", c->nretire, b, EV67_LIM_BACKLOG_MAX);
    t->backlog = b > EV67_LIM_BACKLOG_MAX ? EV67_LIM_BACKLOG_MAX : b;
    if (c->abort) {
        int k = ev67_track_find(t, c->abort_first);
        CHECK(k >= 0, "abort_first", "%u, expected an in-flight instruction (R5)",
              c->abort_first);
        CHECK(c->kbm_first - c->abort_first <= t->next - c->abort_first, "kbm_first",
              "%u, expected %u..%u (R5: from abort_first to one past the youngest fetched tag)",
              c->kbm_first, c->abort_first, t->next);
        if (k >= 0)
            t->n = (uint32_t)k;
    }
    return 0;
}

int ev67_track_head_check(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err)
{
    if (t->started)
        CHECK(c->head == ev67_track_head(t), "head", "%u, expected %u (R8: %s)", c->head,
              ev67_track_head(t), t->n ? "the oldest in-flight instruction" :
              "nothing in flight: the next tag to fetch");
    else
        t->next = c->head; /* nothing named yet: any head; the first fetch's tag is free */
    return 0;
}

int ev67_track_step(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err)
{
    if (ev67_track_events(t, c, where, err))
        return -1;
    return ev67_track_head_check(t, c, where, err);
}

/* ---- the public checker -------------------------------------------------------------- */
struct ev67_stream_check {
    ev67_track t;
};

ev67_stream_check *ev67_stream_check_create(void)
{
    ev67_stream_check *k = malloc(sizeof *k);
    if (k)
        ev67_track_init(&k->t);
    return k;
}

int ev67_stream_check_step(ev67_stream_check *k, const ev67_cycle *c, const char *where,
                           pmu_err *err)
{
    if (ev67_validate(c, where, err))
        return -1;
    return ev67_track_step(&k->t, c, where, err);
}

unsigned ev67_stream_check_inflight(const ev67_stream_check *k) { return k->t.n; }

void ev67_stream_check_destroy(ev67_stream_check *k) { free(k); }

/* ---- the coding state ---------------------------------------------------------------- */
void ev67_state_init(void *state)
{
    ev67_state *st = state;
    memset(st, 0, sizeof *st);
    ev67_track_init(&st->tr);
}

uint64_t ev67_state_pc(const ev67_state *st)
{
    return st->tr.n ? ev67_track_at(&st->tr, 0)->pc : st->pc;
}
