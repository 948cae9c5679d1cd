/*
 * ev67_internal.h - the ev67 cycle-record dialect (pmu_dialect_ev67): the functions
 * ev67_dialect.c puts into the descriptor and what its files share.  Not a public
 * interface: generic code reaches them through include/common/pmu_dialect.h.
 *
 *   ev67_validate.c  the per-record rules, canon/equal, the names of enumerated values
 *   ev67_track.c     the in-flight tracker: cross-record rules and the forms' predictions
 *   ev67_text.c      the text form (docs/ev67-stream.md, "The text form")
 *   ev67_binary.c    the binary form ("The binary form")
 *   ev67_gen.c       the generator ("The generator")
 */
#ifndef EV67_INTERNAL_H
#define EV67_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "common/ev67/ev67_cycle.h"
#include "stream/ev67/ev67_stream.h"
#include "common/pmu_dialect.h"

extern const char *const ev67_class_names[EV67_NCLASSES];

/* One in-flight instruction. */
typedef struct ev67_inst {
    uint64_t pc;
    uint32_t tag;
    uint8_t cls, flags;
} ev67_inst;

/* A stream's in-flight instructions, oldest first (a ring; tags increase, with gaps
 * where aborts removed a suffix), and what R1, R2 and R9 carry between records. */
typedef struct ev67_track {
    uint32_t next;        /* the next tag to fetch (R1; before the first fetch: predicted) */
    uint8_t started;      /* a fetch has been seen */
    uint8_t cmov_pending; /* the last fetched instruction is a CMOV1 */
    uint64_t last_fetch_pc;
    uint32_t backlog;     /* R9 */
    uint32_t front, n;
    ev67_inst ring[EV67_STREAM_MAX_INFLIGHT];
} ev67_track;

void ev67_track_init(ev67_track *t);

/* A tracker's bounds and carried fields, without its ring.  Events write the ring only in
 * free slots (a fetch at the slot past the youngest; ends, stalls, traps and aborts move the
 * bounds or only read), and the same entries whatever events follow the fetches, so a coder
 * that needs the state after some of a record's events and then after all of them applies
 * both in place, going back to the bounds it saved (ev67_track_seek), instead of copying
 * the 4 KB ring for each. */
typedef struct ev67_track_pos {
    uint32_t next, backlog, front, n;
    uint64_t last_fetch_pc;
    uint8_t started, cmov_pending;
} ev67_track_pos;
static inline ev67_track_pos ev67_track_tell(const ev67_track *t)
{
    return (ev67_track_pos){.next = t->next, .backlog = t->backlog, .front = t->front, .n = t->n,
                            .last_fetch_pc = t->last_fetch_pc, .started = t->started,
                            .cmov_pending = t->cmov_pending};
}
static inline void ev67_track_seek(ev67_track *t, const ev67_track_pos *p)
{
    t->next = p->next, t->backlog = p->backlog, t->front = p->front, t->n = p->n;
    t->last_fetch_pc = p->last_fetch_pc, t->started = p->started, t->cmov_pending = p->cmov_pending;
}
/* Applies one (per-record valid) record.  err != NULL: checks R1-R9 and fails at the first
 * broken rule (-1).  err == NULL: applies what it can and never fails (the writers, whose
 * predictions only need to be the same as the readers'). */
int ev67_track_step(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err);
/* The two halves of ev67_track_step: every event (fetch to abort), then R8's head. */
int ev67_track_events(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err);
int ev67_track_head_check(ev67_track *t, const ev67_cycle *c, const char *where, pmu_err *err);
static inline const ev67_inst *ev67_track_at(const ev67_track *t, uint32_t i)
{
    return &t->ring[(t->front + i) % EV67_STREAM_MAX_INFLIGHT];
}
/* R8's head of the current state. */
static inline uint32_t ev67_track_head(const ev67_track *t)
{
    return t->n ? ev67_track_at(t, 0)->tag : t->next;
}
/* Index of tag in the ring, or -1. */
int ev67_track_find(const ev67_track *t, uint32_t tag);
/* The predicted pc of the next fetch. */
static inline uint64_t ev67_pos_fetch_pc(const ev67_track_pos *p)
{
    return p->cmov_pending ? p->last_fetch_pc : p->last_fetch_pc + 4u;
}
static inline uint64_t ev67_track_fetch_pc(const ev67_track *t)
{
    ev67_track_pos p = ev67_track_tell(t);
    return ev67_pos_fetch_pc(&p);
}

/* The coding state of one stream (both forms start from it): the tracker, and the sticky
 * fields pc and pal (the record pc is predicted as the oldest in-flight instruction's,
 * else the previous record's). */
typedef struct ev67_state {
    ev67_track tr;
    uint64_t pc;
    uint8_t pal;
} ev67_state;
uint64_t ev67_state_pc(const ev67_state *st);

#define EV67_MAX_ENCODED                                                                    \
    (16u + EV67_FETCH_MAX * 12u + (EV67_RETIRE_MAX + EV67_SQUASH_MAX) * 5u + 48u)

void ev67_state_init(void *state);
int ev67_validate(const void *rec, const char *where, pmu_err *err);
void ev67_canon(const void *in, void *out);
int ev67_equal(const void *a, const void *b);
size_t ev67_format(const void *rec, char *buf, size_t size);
int ev67_parse_line(void *state, const char *line, size_t len, const char *where, void *rec,
                    pmu_err *err);
size_t ev67_format_line(void *state, const void *rec, char *buf, size_t size);
size_t ev67_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out);
int ev67_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
                uint64_t *repeat, pmu_err *err);
/* The dialect's check_repeat, and the binary decoder's: a repeat count > 1 only on a record
 * where nothing that names an instruction changes the state (no fetch, retire, squash or
 * abort); 0, or -1 with err filled.  Both forms refuse the same records. */
int ev67_check_repeat(const void *rec, uint64_t repeat, const char *where, pmu_err *err);

void *ev67_gen_create(const pmu_gen_opts *o, pmu_err *err);
int ev67_gen_next(void *gen, void *rec);
unsigned ev67_gen_nfuncs(const void *gen);
int ev67_gen_func(const void *gen, unsigned i, uint64_t *start, uint64_t *end,
                  const char **name);
void ev67_gen_destroy(void *gen);

/* The timing model of real programs (ev67_timing.c, docs/real-programs-ev67.md). */
struct pmu_timing_ops;
extern const struct pmu_timing_ops ev67_timing;

/* "list[i]" or "list[i].member" in f, for a message's field: the rules call it only when a
 * check fails, so that a valid record costs no formatting. */
static inline const char *ev67_field(char *f, size_t size, const char *list, unsigned i,
                                     const char *member)
{
    if (member)
        snprintf(f, size, "%s[%u].%s", list, i, member);
    else
        snprintf(f, size, "%s[%u]", list, i);
    return f;
}

#endif
