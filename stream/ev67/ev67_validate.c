/*
 * ev67_validate.c - the rules an ev67 record obeys on its own (docs/ev67-stream.md,
 * "Validation"): R2 and R10 of include/common/ev67/ev67_cycle.h and whatever of R1 and R3-R8 one
 * record shows (counts, list order, trap and abort fields).  Each rule has its own message
 * naming the field and what was expected.  The rules across records are ev67_track.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ev67_internal.h"

const char *const ev67_class_names[EV67_NCLASSES] = {
    "intop", "load", "store", "cbr", "br", "jmp", "fpop", "nop", "barrier", "pal", "other"};
const char *const ev67_trap_names[EV67_NTRAP_TYPES] = {
    "replay", "invalid1", "dtb_double_3", "dtb_double_4", "fp_disabled", "unaligned",
    "dtb_single", "dfault", "opcdec", "invalid9", "mchk", "invalid11", "arith", "invalid13",
    "mt_fpcr", "reset"};

static int bad(pmu_err *err, const char *where, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(pmu_err *err, const char *where, const char *field, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pmu_dialect_errf(err, where, "field '%s': %s", field, what);
}

/* Serial order of 32-bit tags (R1: tags wrap mod 2^32): b is after a. */
static int after(uint32_t a, uint32_t b) { return b != a && b - a < 0x80000000u; }

/* fetch[k].member, formatted only for a message. */
#define FETCH_FIELD(k, member) ev67_field(f, sizeof f, "fetch", (k), member)

static int validate_fetch(const ev67_cycle *c, const char *where, pmu_err *err)
{
    char f[32];
    if (c->nfetch > EV67_FETCH_MAX)
        return bad(err, where, "nfetch", "%u, expected 0..%u (R2: the 21264 fetches at most "
                   "4 instructions a cycle)", c->nfetch, EV67_FETCH_MAX);
    for (unsigned i = 0; i < c->nfetch; i++) {
        const ev67_fetch *x = &c->fetch[i];
        if (x->pc & ~EV67_PC_MASK)
            return bad(err, where, FETCH_FIELD(i, "pc"),
                       "0x%llx, expected a 4-byte aligned address (R10)",
                       (unsigned long long)x->pc);
        if (x->cls >= EV67_NCLASSES)
            return bad(err, where, FETCH_FIELD(i, "cls"),
                       "%u, expected 0..%u (an ev67_class, R10)", x->cls, EV67_NCLASSES - 1);
        if (x->flags & ~EV67_FF_ALL)
            return bad(err, where, FETCH_FIELD(i, "flags"),
                       "0x%x, expected bits within EV67_FF_ALL (0x%x, R10)", x->flags,
                       EV67_FF_ALL);
        if ((x->flags & EV67_FF_TAKEN) && x->cls != EV67_CLASS_CBR)
            return bad(err, where, FETCH_FIELD(i, "flags"),
                       "TAKEN on a %s, expected it on a conditional branch (cbr) only",
                       ev67_class_names[x->cls]);
        if ((x->flags & (EV67_FF_CMOV1 | EV67_FF_CMOV2)) == (EV67_FF_CMOV1 | EV67_FF_CMOV2))
            return bad(err, where, FETCH_FIELD(i, "flags"),
                       "both CMOV1 and CMOV2, expected at most one (R2)");
        if ((x->flags & (EV67_FF_CMOV1 | EV67_FF_CMOV2)) && x->cls != EV67_CLASS_INTOP)
            return bad(err, where, FETCH_FIELD(i, "flags"),
                       "a CMOV half of class %s, expected intop (a CMOV half is an integer "
                       "operate)", ev67_class_names[x->cls]);
        if (i > 0 && x->tag != c->fetch[i - 1].tag + 1u)
            return bad(err, where, FETCH_FIELD(i, "tag"),
                       "%u, expected %u (R1: tags are consecutive in fetch order)", x->tag,
                       c->fetch[i - 1].tag + 1u);
        if ((x->flags & EV67_FF_CMOV1) && i + 1 < c->nfetch) {
            const ev67_fetch *y = &c->fetch[i + 1];
            if (!(y->flags & EV67_FF_CMOV2))
                return bad(err, where, FETCH_FIELD(i + 1, "flags"),
                           "0x%x after a CMOV1, expected CMOV2 (R2: a CMOV is two fetched "
                           "instructions)", y->flags);
            if (y->pc != x->pc)
                return bad(err, where, FETCH_FIELD(i + 1, "pc"),
                           "0x%llx, expected 0x%llx (R2: both CMOV halves have the CMOV's pc)",
                           (unsigned long long)y->pc, (unsigned long long)x->pc);
        }
        if ((x->flags & EV67_FF_CMOV2) && i > 0 && !(c->fetch[i - 1].flags & EV67_FF_CMOV1))
            return bad(err, where, FETCH_FIELD(i, "flags"),
                       "CMOV2 not right after a CMOV1, expected the second half to follow the "
                       "first (R2)");
    }
    return 0;
}
#undef FETCH_FIELD

static int validate_list(const char *name, const uint32_t *v, unsigned n, unsigned max,
                         const char *rule, const char *where, pmu_err *err)
{
    char f[32];
    if (n > max)
        return bad(err, where, name, "%u entries, expected at most %u (%s)", n, max, rule);
    for (unsigned i = 1; i < n; i++)
        if (!after(v[i - 1], v[i])) {
            return bad(err, where, ev67_field(f, sizeof f, name, i, NULL),
                       "tag %u after %u, expected increasing tag order (R4)", v[i], v[i - 1]);
        }
    return 0;
}

static int validate_events(const ev67_cycle *c, const char *where, pmu_err *err)
{
    if (c->nstall == 0 && c->stall_first != 0)
        return bad(err, where, "stall_first", "%u with nstall 0, expected 0", c->stall_first);
    if (c->trap > 1)
        return bad(err, where, "trap", "%u, expected 0 or 1 (R6: at most one trap a record)",
                   c->trap);
    if (!c->trap && (c->trap_type || c->trap_mis || c->trap_lso || c->trap_tag))
        return bad(err, where, c->trap_type ? "trap_type" : c->trap_mis ? "trap_mis"
                   : c->trap_lso ? "trap_lso" : "trap_tag", "set without a trap, expected 0");
    if (c->trap_type >= EV67_NTRAP_TYPES)
        return bad(err, where, "trap_type", "%u, expected 0..15 (R10)", c->trap_type);
    if (c->trap_mis > 1)
        return bad(err, where, "trap_mis", "%u, expected 0 or 1", c->trap_mis);
    if (c->trap_lso > 1)
        return bad(err, where, "trap_lso", "%u, expected 0 or 1", c->trap_lso);
    if (c->trap_lso && c->trap_type != EV67_TRAP_REPLAY)
        return bad(err, where, "trap_lso", "1 with trap type %s, expected it only with a "
                   "replay trap (R6)", ev67_trap_names[c->trap_type]);
    if (c->trap_mis)
        for (unsigned i = 0; i < c->nfetch && i < EV67_FETCH_MAX; i++)
            if (c->fetch[i].tag == c->trap_tag && c->fetch[i].cls != EV67_CLASS_CBR)
                return bad(err, where, "trap_mis", "1 on tag %u, a %s, expected a conditional "
                           "branch (R6)", c->trap_tag, ev67_class_names[c->fetch[i].cls]);
    if (validate_list("retire", c->retire, c->nretire, EV67_RETIRE_MAX,
                      "R4: the 21264 retires at most 11 a cycle", where, err) ||
        validate_list("squash", c->squash, c->nsquash, EV67_SQUASH_MAX, "R4", where, err))
        return -1;
    for (unsigned i = 0; i < c->nretire; i++)
        for (unsigned j = 0; j < c->nsquash; j++)
            if (c->retire[i] == c->squash[j])
                return bad(err, where, "squash", "tag %u also retires in this record, expected "
                           "each instruction to end once (R3)", c->squash[j]);
    if (c->abort > 1)
        return bad(err, where, "abort", "%u, expected 0 or 1", c->abort);
    if (!c->abort && (c->abort_first || c->kbm_first))
        return bad(err, where, c->abort_first ? "abort_first" : "kbm_first",
                   "set without an abort, expected 0");
    if (c->abort && c->kbm_first != c->abort_first && !after(c->abort_first, c->kbm_first))
        return bad(err, where, "kbm_first", "%u, expected a tag >= abort_first %u (R5)",
                   c->kbm_first, c->abort_first);
    return 0;
}

int ev67_validate(const void *rec, const char *where, pmu_err *err)
{
    const ev67_cycle *c = rec;
    if (c->pc & ~EV67_PC_MASK)
        return bad(err, where, "pc", "0x%llx, expected a 4-byte aligned address (R10)",
                   (unsigned long long)c->pc);
    const struct { const char *name; uint8_t v; } bits[] = {
        {"pal", c->pal}, {"bcmiss", c->bcmiss}, {"mreplay", c->mreplay}};
    for (unsigned i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (bits[i].v > 1)
            return bad(err, where, bits[i].name, "%u, expected 0 or 1 (R10)", bits[i].v);
    if (validate_fetch(c, where, err))
        return -1;
    return validate_events(c, where, err);
}

void ev67_canon(const void *rec, void *out)
{
    const ev67_cycle *in = rec;
    ev67_cycle copy;
    if (rec == out) { /* in place: read from a copy */
        copy = *in;
        in = &copy;
    }
    ev67_cycle *c = out;
    memset(c, 0, sizeof *c); /* the padding too: canonical records compare as bytes */
    c->pc = in->pc;
    c->pal = in->pal;
    c->nfetch = in->nfetch;
    for (unsigned i = 0; i < in->nfetch && i < EV67_FETCH_MAX; i++) {
        c->fetch[i].pc = in->fetch[i].pc;
        c->fetch[i].tag = in->fetch[i].tag;
        c->fetch[i].cls = in->fetch[i].cls;
        c->fetch[i].flags = in->fetch[i].flags;
    }
    c->nstall = in->nstall;
    c->stall_first = in->nstall ? in->stall_first : 0;
    c->trap = in->trap;
    if (in->trap) {
        c->trap_type = in->trap_type;
        c->trap_mis = in->trap_mis;
        c->trap_lso = in->trap_lso;
        c->trap_tag = in->trap_tag;
    }
    c->nretire = in->nretire;
    for (unsigned i = 0; i < in->nretire && i < EV67_RETIRE_MAX; i++)
        c->retire[i] = in->retire[i];
    c->nsquash = in->nsquash;
    for (unsigned i = 0; i < in->nsquash && i < EV67_SQUASH_MAX; i++)
        c->squash[i] = in->squash[i];
    c->abort = in->abort;
    if (in->abort) {
        c->abort_first = in->abort_first;
        c->kbm_first = in->kbm_first;
    }
    c->head = in->head;
    c->bcmiss = in->bcmiss;
    c->mreplay = in->mreplay;
}

int ev67_equal(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(ev67_cycle)) == 0; /* canonical records: padding zeroed */
}

static int ev67_repeatable(const ev67_cycle *c)
{
    return c->nfetch == 0 && c->nretire == 0 && c->nsquash == 0 && !c->abort;
}

int ev67_check_repeat(const void *rec, uint64_t repeat, const char *where, pmu_err *err)
{
    if (repeat > 1 && !ev67_repeatable(rec))
        return pmu_dialect_errf(err, where, "field 'repeat': %llu for a record that "
                                "fetches or ends instructions, expected 1 (R1, R3)",
                                (unsigned long long)repeat);
    return 0;
}
