/*
 * config_regs.c - register lines of a configuration file (docs/ita-config-format.md):
 * `REG = VALUE` and `REG field=value ...`, with the counters' extras event= and period=.
 * Every value is checked against the register layout of the model (ita_regs.def).
 */
#include "config_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"

/* ---- events --------------------------------------------------------------------- */

/* An event by its Itanium 2 name or, on Itanium, by the name of its Itanium row
 * (INSTRUCTION_EAR_EVENTS for L1I_EAR_EVENTS): docs/ita-config-format.md. */
static int event_by_name(const char *s, size_t len, ita_model m)
{
    for (unsigned e = 0; e < ITA_NEVENTS; e++) {
        const ita_event_row *own = m == ITA_MODEL_ITANIUM ? ita_event_itanium_row(&ita_event_table[e]) : NULL;
        if (pmu_text_ieq(s, len, ita_event_table[e].name) || (own && pmu_text_ieq(s, len, own->name)))
            return (int)e;
    }
    return -1;
}

int config_event_by_code(unsigned es, unsigned umask, ita_model m)
{
    for (unsigned e = 0; e < ITA_NEVENTS; e++)
        if (ita_event_code(&ita_event_table[e], m) == (int)es && ita_event_table[e].umask == umask)
            return (int)e;
    return -1;
}

/* The event name nearest to s[0..len), for "did you mean". */
static const char *closest_event(const char *s, size_t len)
{
    return ita_event_table[pmu_text_nearest(s, len, &ita_event_table[0].name, ITA_NEVENTS, sizeof ita_event_table[0],
                                            NULL)]
        .name;
}

/* "PMC4" or "PMC4, PMC5, PMC6, PMC7" from an event's counter mask. */
static void counter_list(unsigned mask, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < 8; i++)
        if (mask & (1u << i))
            pmu_text_appendf(buf, size, "%sPMC%u", buf[0] ? ", " : "", i);
}

/* ---- fields ---------------------------------------------------------------------- */

/* Whether field i is a field of `group` on model m.  The .def gives a group's Itanium 2
 * layout and, in group_ITA, the Itanium fields that differ: on Itanium a group_ITA field
 * replaces the group's fields of the same name or on the same bits (PMC12.brt gives way
 * to bpt and bac, PMD17.bn to slot), and the group's other fields stay. */
static int field_in(const char *group, unsigned i, ita_model m)
{
    const pmu_field_desc *f = &ita_field_table[i];
    size_t glen = strlen(group);
    int ita_form = strncmp(f->group, group, glen) == 0 && strcmp(f->group + glen, "_ITA") == 0;
    if (m != ITA_MODEL_ITANIUM || ita_form)
        return ita_form ? m == ITA_MODEL_ITANIUM : strcmp(f->group, group) == 0;
    if (strcmp(f->group, group) != 0)
        return 0;
    for (unsigned k = 0; k < ITA_NFIELDS; k++) {
        const pmu_field_desc *o = &ita_field_table[k];
        if (strncmp(o->group, group, glen) != 0 || strcmp(o->group + glen, "_ITA") != 0)
            continue;
        if (strcmp(o->name, f->name) == 0 || (o->lsb <= f->msb && f->lsb <= o->msb))
            return 0;
    }
    return 1;
}

/* The field of `group` that the user named s[0..len), or -1.  This is the one lookup by
 * name: the name comes from the file. */
static int field_by_name(const char *group, ita_model m, const char *s, size_t len)
{
    for (unsigned i = 0; i < ITA_NFIELDS; i++)
        if (field_in(group, i, m) && pmu_text_ieq(s, len, ita_field_table[i].name))
            return (int)i;
    return -1;
}

/* "plm, ev, oi, ...": the fields of a group on model m, lower case. */
static void field_names(const char *group, ita_model m, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < ITA_NFIELDS; i++) {
        if (!field_in(group, i, m))
            continue;
        pmu_text_appendf(buf, size, "%s", buf[0] ? ", " : "");
        for (const char *c = ita_field_table[i].name; *c; c++)
            pmu_text_appendf(buf, size, "%c", pmu_text_lower((unsigned char)*c));
    }
}

/* The writable bits of field f in register v on the model, in field position. */
static uint64_t field_writable(const config_parser *p, unsigned v, enum ita_field_index f)
{
    return (config_reg(v)->wmask[p->model] >> ita_field_table[f].lsb) & ita_field_ones(f);
}

/* "7" for small values, "0x7f" otherwise. */
static void fmt_num(char *buf, size_t size, uint64_t v)
{
    if (v < 16)
        snprintf(buf, size, "%" PRIu64, v);
    else
        snprintf(buf, size, "0x%" PRIx64, v);
}

/* Checks that a field value fits the field's writable bits for the model. */
static int check_field_value(config_parser *p, unsigned v, enum ita_field_index f, const char *fname, uint64_t x)
{
    const unsigned width = ita_field_table[f].msb - ita_field_table[f].lsb + 1;
    const uint64_t ones = ita_field_ones(f), writable = field_writable(p, v, f);
    char max[32];
    if (x > ones) {
        fmt_num(max, sizeof max, ones);
        return config_fail(p, fname, "expected 0..%s (%u bits), found %" PRIu64, max, width, x);
    }
    if (x & ~writable) {
        fmt_num(max, sizeof max, writable);
        if ((writable & (writable + 1)) == 0) /* the writable bits are the low ones */
            return config_fail(p, fname, "expected 0..%s on %s, found %" PRIu64, max, config_model_title(p->model), x);
        return config_fail(p, fname, "expected only bits of mask %s on %s, found %" PRIu64, max,
                           config_model_title(p->model), x);
    }
    return 0;
}

/* A PMC0 overflow bit set before the run would be folded as a wrap that never happened. */
static int check_pmc0(config_parser *p, const char *fname, uint64_t value)
{
    if (ITA_FGET(value, PMC0, OVF) != 0)
        return config_fail(p, fname,
                           "expected ovf = 0: the overflow service cannot tell a preset overflow bit "
                           "from a counter wrap");
    return 0;
}

/* ---- REG = VALUE ------------------------------------------------------------------ */

static int raw_line(config_parser *p, ita_config *cfg, unsigned v, const config_token *tok, unsigned ntok)
{
    const char *rname = ita_vis_table[v].name;
    const ita_reg_desc *reg = config_reg(v);
    uint64_t value;
    if (ntok == 0)
        return config_fail(p, rname, "expected a value after '='");
    if (ntok > 1)
        return config_fail(p, rname, "expected one value after '=', found '%.*s' after it", (int)tok[1].len,
                           tok[1].s);
    if (config_number(p, rname, tok[0].s, tok[0].len, &value) != 0)
        return -1;
    uint64_t wmask = reg->wmask[p->model], reset = reg->reset[p->model];
    uint64_t reserved = (value ^ reset) & ~wmask;
    if (reserved)
        return config_fail(p, rname,
                           "expected no bits outside the writable mask 0x%" PRIx64 " on %s; "
                           "0x%" PRIx64 " sets reserved bits 0x%" PRIx64,
                           wmask, config_model_title(p->model), value, reserved);
    if (v == ITA_VIS_PMC0 && check_pmc0(p, rname, value) != 0)
        return -1;
    cfg->value[v] = value;
    return 0;
}

/* ---- REG field=value ... ------------------------------------------------------------ */

/* What the fields of one line gave, for the checks after the last field. */
typedef struct field_line {
    unsigned v;          /* the visible register */
    int counter;         /* PMC4..PMC7: the extras event= and period= apply */
    uint64_t value;      /* from the reset value, field by field */
    int have_oi, have_es, have_umask, have_thres;
    int event;           /* event= given: the event, else -1 */
    uint64_t period;     /* period=, 0 when not given */
} field_line;

/* ism names what is counted: bit 0 disables IA-64, bit 1 disables IA-32. */
static int ism_value(config_parser *p, const char *val, size_t vlen, uint64_t *x)
{
    static const char *const names[4] = {"both", "ia32", "ia64", "none"};
    for (unsigned i = 0; i < 4; i++)
        if (pmu_text_ieq(val, vlen, names[i])) {
            *x = i;
            return 0;
        }
    return config_fail(p, "ism", "expected both, ia64, ia32, none or 0..3, found '%.*s'", (int)vlen, val);
}

/* One field=value (not event= or period=) into fl->value. */
static int field_value(config_parser *p, field_line *fl, const char *fname, const char *val, size_t vlen)
{
    const char *group = ita_vis_table[fl->v].field_group;
    char names[256];
    int fi = field_by_name(group, p->model, fname, strlen(fname));
    if (fi < 0) {
        field_names(group, p->model, names, sizeof names);
        return config_fail(p, fname, "unknown field of %s; expected one of %s%s", ita_vis_table[fl->v].name, names,
                           fl->counter ? ", event, period" : "");
    }
    const enum ita_field_index f = (enum ita_field_index)fi;
    if (field_writable(p, fl->v, f) == 0) /* e.g. PMC4.enable, PMC8.ig_ad and PMC13.cfg_dbrp* on Itanium */
        return config_fail(p, fname, "expected a field that %s implements: %s.%s has no writable bits there",
                           config_model_title(p->model), ita_vis_table[fl->v].name, fname);
    uint64_t x;
    int named = f == ITA_FIDX_PMC_GEN_ISM && !(val[0] >= '0' && val[0] <= '9');
    if ((named ? ism_value(p, val, vlen, &x) : config_number(p, fname, val, vlen, &x)) != 0)
        return -1;
    if (check_field_value(p, fl->v, f, fname, x) != 0)
        return -1;
    fl->value = ita_field_set(fl->value, f, x);
    fl->have_oi |= f == ITA_FIDX_PMC_GEN_OI;
    fl->have_es |= f == ITA_FIDX_PMC_GEN_ES;
    fl->have_umask |= f == ITA_FIDX_PMC_GEN_UMASK;
    fl->have_thres |= f == ITA_FIDX_PMC_GEN_THRES;
    return 0;
}

/* The counter extras: event=NAME and period=N. */
static int counter_item(config_parser *p, field_line *fl, const char *fname, const char *val, size_t vlen)
{
    if (strcmp(fname, "event") == 0) {
        fl->event = event_by_name(val, vlen, p->model);
        if (fl->event < 0)
            return config_fail(p, "event", "unknown event '%.*s'; did you mean %s?", (int)vlen, val,
                               closest_event(val, vlen));
        return 0;
    }
    unsigned w = ita_counter_width(p->model);
    if (config_number(p, "period", val, vlen, &fl->period) != 0)
        return -1;
    if (fl->period == 0 || fl->period > (UINT64_C(1) << w))
        return config_fail(p, "period", "expected 1..2^%u (2^%u = 0x%" PRIx64 ": the %s counter range), found '%.*s'",
                           w, w, UINT64_C(1) << w, config_model_title(p->model), (int)vlen, val);
    return 0;
}

/* After the fields of a PMC4..PMC7 line: the event (by name or by es/umask) must be
 * implemented, allowed on this counter and its threshold below maxincr; oi = 1 unless
 * given, so the overflow service sees every wrap. */
static int finish_counter_line(config_parser *p, field_line *fl)
{
    const unsigned pmc_index = ITA_FIRST_COUNTER + (fl->v - ITA_VIS_PMC4);
    const char *ev_field = "es";
    int ev = fl->event;
    char names[256];
    if (ev >= 0) {
        const ita_event_desc *e = &ita_event_table[ev];
        if (fl->have_es || fl->have_umask)
            return config_fail(p, "event", "sets es and umask itself; give either event= or es=/umask=");
        int code = ita_event_code(e, p->model);
        const char *title = config_model_title(p->model);
        if (code < 0)
            return config_fail(p, "event", "%s is not implemented on %s (the event table gives it no %s code)",
                               e->name, title, title);
        uint64_t es_writable = field_writable(p, fl->v, ITA_FIDX_PMC_GEN_ES);
        if ((uint64_t)code & ~es_writable)
            return config_fail(p, "event", "%s (es 0x%02x) cannot be programmed on %s: es is %d bits there",
                               e->name, code, title, __builtin_popcountll(es_writable));
        fl->value = ITA_FSET(ITA_FSET(fl->value, PMC_GEN, ES, (uint64_t)code), PMC_GEN, UMASK, e->umask);
        ev_field = "event";
    } else {
        ev = config_event_by_code((unsigned)ITA_FGET(fl->value, PMC_GEN, ES),
                                  (unsigned)ITA_FGET(fl->value, PMC_GEN, UMASK), p->model);
    }
    if (ev >= 0) {
        /* The model's own row: its name, counter mask and maxincr (Itanium's LOADS_RETIRED
         * adds at most 2 per cycle, Itanium 2's 4). */
        const ita_event_row *e = p->model == ITA_MODEL_ITANIUM ? ita_event_itanium_row(&ita_event_table[ev])
                                                                : &ita_event_table[ev];
        unsigned allowed = e->counters;
        if (!(allowed & (1u << pmc_index))) {
            counter_list(allowed, names, sizeof names);
            return config_fail(p, ev_field, "%s can only be counted on %s (counter mask 0x%02x), not on PMC%u",
                               e->name, names, allowed, pmc_index);
        }
        uint64_t thres = ITA_FGET(fl->value, PMC_GEN, THRES);
        if (fl->have_thres && thres >= e->maxincr) {
            if (e->maxincr <= 1)
                return config_fail(p, "thres", "expected 0 for %s (maxincr %u: at most one per cycle)", e->name,
                                   e->maxincr);
            return config_fail(p, "thres", "expected 0..%u for %s (maxincr %u), found %" PRIu64, e->maxincr - 1u,
                               e->name, e->maxincr, thres);
        }
    }
    if (!fl->have_oi)
        fl->value = ITA_FSET(fl->value, PMC_GEN, OI, 1);
    return 0;
}

/* One item of a field line: field=value, or a counter's event= or period=. */
static int field_item(config_parser *p, void *ctx, config_seen *seen, const config_token *t, const char *fname,
                      const char *val, size_t vlen)
{
    field_line *fl = ctx;
    (void)seen;
    if (!fname) {
        char names[256];
        field_names(ita_vis_table[fl->v].field_group, p->model, names, sizeof names);
        return config_fail(p, ita_vis_table[fl->v].name, "expected name=value, found '%.*s' (fields: %s%s)",
                           (int)t->len, t->s, names, fl->counter ? ", event, period" : "");
    }
    int extra = fl->counter && (strcmp(fname, "event") == 0 || strcmp(fname, "period") == 0);
    return extra ? counter_item(p, fl, fname, val, vlen) : field_value(p, fl, fname, val, vlen);
}

static int fields_line(config_parser *p, ita_config *cfg, unsigned v, const config_token *tok, unsigned ntok)
{
    const char *rname = ita_vis_table[v].name;
    const char *group = ita_vis_table[v].field_group;
    field_line fl = {.v = v, .counter = v >= ITA_VIS_PMC4 && v <= ITA_VIS_PMC7, .value = config_reset(v, p->model),
                     .event = -1};

    if (strcmp(group, "NONE") == 0)
        return config_fail(p, rname, "expected '%s = value': %s has no fields", rname,
                           v >= ITA_VIS_PMD4 && v <= ITA_VIS_PMD7 ? "a counter" : rname);
    if (ntok == 0)
        return config_fail(p, rname, "expected '= value' or fields name=value");
    if (config_each_item(p, tok, ntok, field_item, &fl) != 0)
        return -1;
    if (fl.counter) {
        if (finish_counter_line(p, &fl) != 0)
            return -1;
        cfg->period[v - ITA_VIS_PMC4] = fl.period;
    }
    if (v == ITA_VIS_PMC0 && check_pmc0(p, "ovf", fl.value) != 0)
        return -1;
    cfg->value[v] = fl.value;
    return 0;
}

int config_register_line(config_parser *p, ita_config *cfg, unsigned v, int raw, const config_token *tok,
                         unsigned ntok)
{
    return raw ? raw_line(p, cfg, v, tok, ntok) : fields_line(p, cfg, v, tok, ntok);
}
