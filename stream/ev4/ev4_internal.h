/*
 * ev4_internal.h - the ev4 cycle-record dialect (pmu_dialect_ev4): the functions
 * ev4_dialect.c puts into the descriptor and what its files share.  Not a public
 * interface: generic code reaches them through include/common/pmu_dialect.h.
 *
 *   ev4_validate.c  the record rules, canon/equal, the names of enumerated values
 *   ev4_text.c      the text form (docs/ev4-stream.md, "The text form")
 *   ev4_binary.c    the binary form ("The binary form")
 *   ev4_gen*.c      the generator ("The generator")
 *   ev4_timing.c    the timing model of real programs (docs/real-programs-ev4.md)
 */
#ifndef EV4_INTERNAL_H
#define EV4_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/ev4/ev4_cycle.h"
#include "stream/ev4/ev4_stream.h"
#include "common/pmu_dialect.h"

/* Names of enumerated values, indexed by value (text form and messages). */
extern const char *const ev4_mode_names[3];
extern const char *const ev4_class_names[EV4_NCLASSES];
extern const char *const ev4_stall_names[3];
extern const char *const ev4_os_names[6];

/* The coding state of one stream: the sticky fields, which both forms start from
 * (pc=0 pid=0 mode=kernel ipl=0 idle=0), and the binary form's pc prediction. */
typedef struct ev4_state {
    uint64_t pc;      /* the previous record's pc */
    uint32_t pid;
    uint8_t mode, ipl, idle;
    uint8_t nissue;   /* the previous record's (binary: the next pc is predicted as
                         pc + 4 * nissue, the fall-through) */
} ev4_state;

#define EV4_MAX_ENCODED 40u /* head, body, control, pid (5), pc (10), repeat (10), extra,
                               os, os_arg (5): 35 */

void ev4_state_init(void *state);
/* The state after record c (ev4_binary.c): its sticky fields and its pc and nissue, the
 * next pc's prediction. */
void ev4_state_advance(ev4_state *st, const ev4_cycle *c);
int ev4_validate(const void *rec, const char *where, pmu_err *err);
void ev4_canon(const void *in, void *out);
int ev4_equal(const void *a, const void *b);
size_t ev4_format(const void *rec, char *buf, size_t size);
int ev4_parse_line(void *state, const char *line, size_t len, const char *where, void *rec,
                   pmu_err *err);
size_t ev4_format_line(void *state, const void *rec, char *buf, size_t size);
size_t ev4_encode(void *state, const void *rec, uint64_t repeat, uint8_t *out);
int ev4_decode(void *state, pmu_getc_fn get, void *ctx, const char *where, void *rec,
               uint64_t *repeat, pmu_err *err);

void *ev4_gen_create(const pmu_gen_opts *o, pmu_err *err);
int ev4_gen_next(void *gen, void *rec);
unsigned ev4_gen_nfuncs(const void *gen);
int ev4_gen_func(const void *gen, unsigned i, uint64_t *start, uint64_t *end, const char **name);
void ev4_gen_destroy(void *gen);

/* The timing model of real programs (ev4_timing.c, docs/real-programs-ev4.md). */
struct pmu_timing_ops;
extern const struct pmu_timing_ops ev4_timing;

#endif
