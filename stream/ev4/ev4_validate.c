/*
 * ev4_validate.c - the rules every ev4 record obeys on its own (docs/ev4-stream.md,
 * "Validation"), and canon/equal.  Each rule has its own message naming the field and
 * what was expected.  The rules that span records and CPUs (forks, exits, binds) are the
 * OS model's (sw/ev4/); the generator obeys both.
 */
#include <string.h>

#include "ev4_internal.h"

const char *const ev4_mode_names[3] = {"kernel", "user", "pal"};
const char *const ev4_class_names[EV4_NCLASSES] = {"intop", "load", "store",
                                                  "branch", "fpop", "other"};
const char *const ev4_stall_names[3] = {"none", "dry", "frozen"};
const char *const ev4_os_names[6] = {"none", "fork", "exec", "exit", "bind", "unbind"};

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

/* The hardware fields: issue, classes, replays, stall, the one-bit events. */
static int validate_issue(const ev4_cycle *c, const char *where, pmu_err *err)
{
    if (c->nissue > EV4_MAX_ISSUE)
        return bad(err, where, "nissue", "%u, expected 0..%u (the 21064 issues at most two "
                   "instructions a cycle)", c->nissue, EV4_MAX_ISSUE);
    for (unsigned i = 0; i < EV4_MAX_ISSUE; i++) {
        if (i < c->nissue && c->cls[i] >= EV4_NCLASSES)
            return bad(err, where, "cls", "instruction %u has class %u, expected 0..%u "
                       "(intop, load, store, branch, fpop, other)", i, c->cls[i], EV4_NCLASSES - 1);
        if (i >= c->nissue && c->cls[i] != 0)
            return bad(err, where, "cls", "class %u for instruction %u, which did not issue "
                       "(nissue %u), expected 0", c->cls[i], i, c->nissue);
    }
    if (c->replay & ~((1u << EV4_MAX_ISSUE) - 1u))
        return bad(err, where, "replay", "0x%x, expected bits 0..%u only", c->replay,
                   EV4_MAX_ISSUE - 1);
    for (unsigned i = 0; i < EV4_MAX_ISSUE; i++)
        if (c->replay >> i & 1u) {
            if (i >= c->nissue)
                return bad(err, where, "replay", "bit %u set, but instruction %u did not issue "
                           "(nissue %u): only an issued load is replayed", i, i, c->nissue);
            if (c->cls[i] != EV4_CLASS_LOAD)
                return bad(err, where, "replay", "bit %u set on a %s, expected a load "
                           "(a replay re-issues a load after a D-cache miss)", i,
                           ev4_class_names[c->cls[i]]);
        }
    if (c->stall > EV4_STALL_FROZEN)
        return bad(err, where, "stall", "%u, expected 0..2 (none, dry, frozen)", c->stall);
    if (c->nissue > 0 && c->stall != EV4_STALL_NONE)
        return bad(err, where, "stall", "%s in a cycle that issued %u, expected none",
                   ev4_stall_names[c->stall], c->nissue);
    if (c->nissue == 0 && c->stall == EV4_STALL_NONE)
        return bad(err, where, "stall", "none in a cycle that issued nothing, expected dry "
                   "or frozen (why nothing issued)");
    const struct { const char *name; uint8_t v; } bits[] = {
        {"dmiss", c->dmiss}, {"imiss", c->imiss}, {"mispredict", c->mispredict},
        {"pin0", c->pin0},   {"pin1", c->pin1},
    };
    for (unsigned i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (bits[i].v > 1)
            return bad(err, where, bits[i].name, "%u, expected 0 or 1", bits[i].v);
    return 0;
}

/* The OS event and its argument. */
static int validate_os(const ev4_cycle *c, const char *where, pmu_err *err)
{
    if (c->os > EV4_OS_UNBIND)
        return bad(err, where, "os", "%u, expected 0..5 (none, fork, exec, exit, bind, unbind)",
                   c->os);
    if (c->os != EV4_OS_NONE && c->mode != EV4_MODE_KERNEL)
        return bad(err, where, "os", "%s in %s mode, expected kernel mode (the kernel "
                   "carries out OS events)", ev4_os_names[c->os], ev4_mode_names[c->mode]);
    if (c->os != EV4_OS_NONE && c->pid == 0)
        return bad(err, where, "os", "%s by pid 0, expected a process (pid != 0)",
                   ev4_os_names[c->os]);
    switch (c->os) {
    case EV4_OS_FORK:
        if (c->os_arg == 0 || c->os_arg == c->pid || c->os_arg > EV4_MAX_PID)
            return bad(err, where, "os_arg", "fork child %u, expected a new pid in 1..%u other "
                       "than the parent's (%u)", c->os_arg, EV4_MAX_PID, c->pid);
        break;
    case EV4_OS_BIND:
        if (c->os_arg >= EV4_MAX_CPUS)
            return bad(err, where, "os_arg", "bind to CPU %u, expected 0..%u", c->os_arg,
                       EV4_MAX_CPUS - 1);
        break;
    default:
        if (c->os_arg != 0)
            return bad(err, where, "os_arg", "%u with os %s, expected 0 (only fork and bind "
                       "take an argument)", c->os_arg, ev4_os_names[c->os]);
        break;
    }
    return 0;
}

int ev4_validate(const void *rec, const char *where, pmu_err *err)
{
    const ev4_cycle *c = rec;
    if (c->mode > EV4_MODE_PAL)
        return bad(err, where, "mode", "%u, expected 0..2 (kernel, user, pal)", c->mode);
    if (c->ipl > 7)
        return bad(err, where, "ipl", "%u, expected 0..7", c->ipl);
    if (c->mode == EV4_MODE_USER && c->ipl != 0)
        return bad(err, where, "ipl", "%u in user mode, expected 0 (user code runs at IPL 0)",
                   c->ipl);
    if (validate_issue(c, where, err))
        return -1;
    if (c->pc & ~EV4_PC_MASK)
        return bad(err, where, "pc", "0x%llx, expected a 4-byte aligned address",
                   (unsigned long long)c->pc);
    if (c->pid > EV4_MAX_PID)
        return bad(err, where, "pid", "%u, expected 0..%u", c->pid, EV4_MAX_PID);
    if (c->idle > 1)
        return bad(err, where, "idle", "%u, expected 0 or 1", c->idle);
    if (c->idle && (c->pid != 0 || c->mode != EV4_MODE_KERNEL))
        return bad(err, where, "idle", "1 with pid %u in %s mode, expected pid 0 in kernel "
                   "mode (the idle thread)", c->pid, ev4_mode_names[c->mode]);
    if (c->mode == EV4_MODE_USER && c->pid == 0)
        return bad(err, where, "pid", "0 in user mode, expected a process (pid 0 is the "
                   "kernel's)");
    return validate_os(c, where, err);
}

void ev4_canon(const void *rec, void *out)
{
    const ev4_cycle *in = rec;
    ev4_cycle c;
    memset(&c, 0, sizeof c); /* the padding too: canonical records compare as bytes */
    c.pc = in->pc;
    c.pid = in->pid;
    c.os_arg = in->os_arg;
    c.mode = in->mode;
    c.ipl = in->ipl;
    c.idle = in->idle;
    c.nissue = in->nissue;
    for (unsigned i = 0; i < EV4_MAX_ISSUE && i < in->nissue; i++)
        c.cls[i] = in->cls[i];
    c.replay = in->replay;
    c.stall = in->stall;
    c.dmiss = in->dmiss;
    c.imiss = in->imiss;
    c.mispredict = in->mispredict;
    c.pin0 = in->pin0;
    c.pin1 = in->pin1;
    c.os = in->os;
    memcpy(out, &c, sizeof c);
}

int ev4_equal(const void *ra, const void *rb)
{
    const ev4_cycle *a = ra, *b = rb;
    return a->pc == b->pc && a->pid == b->pid && a->os_arg == b->os_arg && a->mode == b->mode &&
           a->ipl == b->ipl && a->idle == b->idle && a->nissue == b->nissue &&
           a->cls[0] == b->cls[0] && a->cls[1] == b->cls[1] && a->replay == b->replay &&
           a->stall == b->stall && a->dmiss == b->dmiss && a->imiss == b->imiss &&
           a->mispredict == b->mispredict && a->pin0 == b->pin0 && a->pin1 == b->pin1 &&
           a->os == b->os;
}
