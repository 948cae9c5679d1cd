/*
 * ev4_text.c - the text form of an ev4 cycle record: parsing one line, formatting one
 * record (docs/ev4-stream.md, "The text form").  Comments, line ends and repeat=N are
 * the generic reader's (stream/text_line.c).
 *
 * A line is space-separated fields: the sticky ones (pc pid mode ipl idle) keep their
 * value until a line changes them, the others describe only their own line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"
#include "ev4_internal.h"
#include "stream/pmu_stream_codec.h"

void ev4_state_init(void *state)
{
    memset(state, 0, sizeof(ev4_state)); /* pc=0 pid=0 mode=kernel ipl=0 idle=0 */
}

enum key {
    K_PC, K_PID, K_MODE, K_IPL, K_IDLE, K_OS, K_ISSUE, K_REPLAY, K_STALL,
    K_DMISS, K_IMISS, K_MISPREDICT, K_PIN0, K_PIN1, K_N
};
static const char *const keys[K_N] = {"pc",    "pid",   "mode",  "ipl",        "idle",
                                      "os",    "issue", "replay", "stall",     "dmiss",
                                      "imiss", "mispredict", "pin0", "pin1"};
#define K_FIRST_FLAG K_DMISS /* dmiss..pin1: bare one-bit flags */

/* issue=CLASS[,CLASS] */
static int issue_value(const pmu_line *lc, const char *val, size_t vn, ev4_cycle *c)
{
    const char *p = val, *end = val + vn;
    for (;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *item_end = comma ? comma : end;
        unsigned cls = 0;
        if (c->nissue == EV4_MAX_ISSUE)
            return pmu_line_err(lc, p, "issue", 5, "more than %u instructions, expected at "
                                "most %u (the 21064 issues two a cycle)", EV4_MAX_ISSUE,
                                EV4_MAX_ISSUE);
        if (pmu_line_enum(lc, "issue", p, (size_t)(item_end - p), ev4_class_names, 0,
                          EV4_NCLASSES, "a class: intop, load, store, branch, fpop or other",
                          &cls))
            return -1;
        c->cls[c->nissue++] = (uint8_t)cls;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* os=fork:PID | exec | exit | bind:CPU | unbind */
static int os_value(const pmu_line *lc, const char *val, size_t vn, ev4_cycle *c)
{
    const char *colon = memchr(val, ':', vn);
    size_t nn = colon ? (size_t)(colon - val) : vn;
    unsigned ev = 0;
    uint64_t arg = 0;
    if (pmu_line_enum(lc, "os", val, nn, ev4_os_names, 1, 6,
                      "fork:PID, exec, exit, bind:CPU or unbind", &ev))
        return -1;
    int takes_arg = ev == EV4_OS_FORK || ev == EV4_OS_BIND;
    if (takes_arg && !colon)
        return pmu_line_err(lc, val, "os", 2, "expected os=%s",
                            ev == EV4_OS_FORK ? "fork:PID (the child's pid)" : "bind:CPU");
    if (!takes_arg && colon)
        return pmu_line_err(lc, colon, "os", 2, "%s takes no argument, expected os=%s",
                            ev4_os_names[ev], ev4_os_names[ev]);
    if (colon) {
        char expect[48];
        uint64_t max = ev == EV4_OS_FORK ? EV4_MAX_PID : EV4_MAX_CPUS - 1;
        snprintf(expect, sizeof expect, "%s 0..%llu", ev == EV4_OS_FORK ? "a pid" : "a CPU",
                 (unsigned long long)max);
        if (pmu_line_num(lc, "os", colon + 1, vn - nn - 1, 0, max, expect, &arg))
            return -1;
    }
    c->os = (uint8_t)ev;
    c->os_arg = (uint32_t)arg;
    return 0;
}

static int field(const pmu_line *lc, int k, const pmu_line_token *t, ev4_state *st,
                 ev4_cycle *c)
{
    const char *key = keys[k], *val = t->val;
    const size_t vn = t->vn;
    uint64_t v = 0;
    unsigned e = 0;
    if (pmu_line_flag_or_value(lc, t, key, k >= K_FIRST_FLAG))
        return -1;
    if (k >= K_FIRST_FLAG) {
        uint8_t *flag[] = {&c->dmiss, &c->imiss, &c->mispredict, &c->pin0, &c->pin1};
        *flag[k - K_FIRST_FLAG] = 1;
        return 0;
    }
    switch (k) {
    case K_PC:
        if (pmu_line_num(lc, key, val, vn, 0, UINT64_MAX, "an address", &v))
            return -1;
        st->pc = v;
        break;
    case K_PID:
        if (pmu_line_num(lc, key, val, vn, 0, EV4_MAX_PID, "0..16777215", &v))
            return -1;
        st->pid = (uint32_t)v;
        break;
    case K_MODE:
        if (pmu_line_enum(lc, key, val, vn, ev4_mode_names, 0, 3, "kernel, user or pal", &e))
            return -1;
        st->mode = (uint8_t)e;
        break;
    case K_IPL:
        if (pmu_line_num(lc, key, val, vn, 0, 7, "0..7", &v))
            return -1;
        st->ipl = (uint8_t)v;
        break;
    case K_IDLE:
        if (pmu_line_num(lc, key, val, vn, 0, 1, "0 or 1", &v))
            return -1;
        st->idle = (uint8_t)v;
        break;
    case K_OS:
        return os_value(lc, val, vn, c);
    case K_ISSUE:
        return issue_value(lc, val, vn, c);
    case K_REPLAY:
        if (pmu_line_num(lc, key, val, vn, 0, 3, "1..3 (bit i: issued load i is a replay)", &v))
            return -1;
        c->replay = (uint8_t)v;
        break;
    case K_STALL:
        if (pmu_line_enum(lc, key, val, vn, ev4_stall_names, 1, 3, "dry or frozen", &e))
            return -1;
        c->stall = (uint8_t)e;
        break;
    default:
        break;
    }
    return 0;
}

int ev4_parse_line(void *state, const char *line, size_t len, const char *where, void *rec,
                   pmu_err *err)
{
    ev4_state *state_ = state, st = *state_;
    ev4_cycle *c = rec;
    pmu_line lc = {line, where, err};
    const char *p = line, *end = line + len;
    uint64_t seen = 0;
    pmu_line_token t;
    int more;
    memset(c, 0, sizeof *c);
    while ((more = pmu_line_next(&lc, &p, end, 0, &t)) > 0) {
        int k = pmu_word_find(t.tok, t.kn, keys, 0, K_N);
        if (t.kn == 0)
            return pmu_line_err(&lc, t.tok, t.tok, t.n, "expected key=value");
        if (k < 0)
            return pmu_line_err(&lc, t.tok, t.tok, t.kn, "unknown key, expected one of: pc pid "
                                "mode ipl idle os issue replay stall dmiss imiss mispredict pin0 "
                                "pin1");
        if (pmu_line_once(&lc, &t, &seen, (unsigned)k) || field(&lc, k, &t, &st, c))
            return -1;
    }
    if (more < 0)
        return -1;
    c->pc = st.pc;
    c->pid = st.pid;
    c->mode = st.mode;
    c->ipl = st.ipl;
    c->idle = st.idle;
    if (ev4_validate(c, where, err))
        return -1;
    ev4_state_advance(state_, c);
    return 0;
}

/* ---- formatting -------------------------------------------------------------- */

/* The text of a record: with `prev` NULL every sticky field, else those that changed. */
static size_t text_format(const ev4_cycle *c, const ev4_state *prev, char *buf, size_t size)
{
    pmu_outbuf o = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    if (!prev || prev->pid != c->pid)
        pmu_out_add(&o, "%spid=%u", PMU_OUT_SEP(&o), c->pid);
    if (!prev || prev->mode != c->mode)
        pmu_out_name(&o, "mode", c->mode, ev4_mode_names, 3);
    if (!prev || prev->ipl != c->ipl)
        pmu_out_add(&o, "%sipl=%u", PMU_OUT_SEP(&o), c->ipl);
    if (!prev || prev->idle != c->idle)
        pmu_out_add(&o, "%sidle=%u", PMU_OUT_SEP(&o), c->idle);
    if (!prev || prev->pc != c->pc)
        pmu_out_add(&o, "%spc=0x%" PRIx64, PMU_OUT_SEP(&o), c->pc);
    if (c->os == EV4_OS_FORK || c->os == EV4_OS_BIND)
        pmu_out_add(&o, "%sos=%s:%u", PMU_OUT_SEP(&o), ev4_os_names[c->os], c->os_arg);
    else if (c->os)
        pmu_out_name(&o, "os", c->os, ev4_os_names, 6);
    for (unsigned i = 0; i < c->nissue && i < EV4_MAX_ISSUE; i++) {
        unsigned cls = c->cls[i];
        pmu_out_add(&o, i ? "," : "%sissue=", PMU_OUT_SEP(&o));
        if (cls < EV4_NCLASSES)
            pmu_out_add(&o, "%s", ev4_class_names[cls]);
        else
            pmu_out_add(&o, "%u", cls);
    }
    if (c->replay)
        pmu_out_add(&o, "%sreplay=%u", PMU_OUT_SEP(&o), c->replay);
    if (c->stall)
        pmu_out_name(&o, "stall", c->stall, ev4_stall_names, 3);
    const struct { const char *name; uint8_t v; } flags[] = {
        {"dmiss", c->dmiss}, {"imiss", c->imiss}, {"mispredict", c->mispredict},
        {"pin0", c->pin0},   {"pin1", c->pin1},
    };
    for (unsigned i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].v == 1)
            pmu_out_add(&o, "%s%s", PMU_OUT_SEP(&o), flags[i].name);
        else if (flags[i].v)
            pmu_out_add(&o, "%s%s=%u", PMU_OUT_SEP(&o), flags[i].name, flags[i].v); /* invalid only */
    if (o.len == 0)
        pmu_out_add(&o, "pc=0x%" PRIx64, c->pc); /* a blank line would be no record */
    return o.len;
}

size_t ev4_format_line(void *state, const void *rec, char *buf, size_t size)
{
    ev4_state *st = state;
    const ev4_cycle *c = rec;
    size_t need = text_format(c, st, buf, size);
    if (need < size)
        ev4_state_advance(st, c);
    return need;
}

size_t ev4_format(const void *rec, char *buf, size_t size)
{
    return text_format(rec, NULL, buf, size);
}
