/*
 * config.c - PMU configuration files (config.h, docs/config-format.md).
 *
 * Every layout fact (register names and addresses, fields, reset values, writable
 * masks, events) comes from the tables of data/pmu_regs.def via pmu_regs.h.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------ */

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

static int ieq(const char *a, size_t alen, const char *b)
{
    size_t i = 0;
    for (; i < alen && b[i]; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return 0;
    return i == alen && b[i] == '\0';
}

static int is_space(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }

static const char *model_name(pmu_model m) { return m == PMU_MODEL_ITANIUM ? "Itanium" : "Itanium 2"; }

static uint64_t field_ones(unsigned width) { return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1; }

/* Decimal or 0x-hex, the whole token, no sign; 0 on success. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    int base = 10;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i == len)
        return -1;
    for (; i < len; i++) {
        int ch = lower((unsigned char)s[i]), d;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (base == 16 && ch >= 'a' && ch <= 'f')
            d = ch - 'a' + 10;
        else
            return -1;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* "7" for small values, "0x7f" otherwise. */
static void fmt_num(char *buf, size_t size, uint64_t v)
{
    if (v < 16)
        snprintf(buf, size, "%" PRIu64, v);
    else
        snprintf(buf, size, "0x%" PRIx64, v);
}

typedef struct parser {
    const char *name;
    unsigned line;
    pmu_model model;
    pmu_err *err;
} parser;

static int fail(parser *p, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser *p, const char *field, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err->msg, sizeof p->err->msg, "%s:%u: %s: %s", p->name, p->line, field, what);
    return -1;
}

/* ---- register and field lookup ------------------------------------------------- */

static int vis_by_name(const char *s, size_t len)
{
    for (unsigned v = 0; v < PMU_NVIS; v++)
        if (ieq(s, len, pmu_vis_table[v].name))
            return (int)v;
    return -1;
}

static void vis_names(char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned v = 0; v < PMU_NVIS; v++) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", v ? ", " : "", pmu_vis_table[v].name);
    }
}

static const pmu_reg_desc *reg_of_vis(unsigned v) { return pmu_reg_lookup(pmu_vis_table[v].addr); }

static int is_counter_config(unsigned v) { return v >= PMU_VIS_PMC4 && v <= PMU_VIS_PMC7; }

static const pmu_field_desc *field_by_name(const char *group, const char *s, size_t len)
{
    for (unsigned i = 0; i < pmu_field_table_len; i++)
        if (strcmp(pmu_field_table[i].group, group) == 0 && ieq(s, len, pmu_field_table[i].name))
            return &pmu_field_table[i];
    return NULL;
}

static const pmu_field_desc *field_of(const char *group, const char *name)
{
    return field_by_name(group, name, strlen(name));
}

static uint64_t fget(uint64_t v, const pmu_field_desc *f)
{
    return (v >> f->lsb) & field_ones(f->msb - f->lsb + 1);
}

static uint64_t fset(uint64_t v, const pmu_field_desc *f, uint64_t x)
{
    uint64_t mask = field_ones(f->msb - f->lsb + 1) << f->lsb;
    return (v & ~mask) | ((x << f->lsb) & mask);
}

static void lower_copy(char *dst, size_t size, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < size; i++)
        dst[i] = (char)lower((unsigned char)src[i]);
    dst[i] = '\0';
}

static void field_names(const char *group, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < pmu_field_table_len; i++) {
        if (strcmp(pmu_field_table[i].group, group) != 0)
            continue;
        char low[32];
        lower_copy(low, sizeof low, pmu_field_table[i].name);
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", buf[0] ? ", " : "", low);
    }
}

static int event_by_name(const char *s, size_t len)
{
    for (unsigned e = 0; e < PMU_NEVENTS; e++)
        if (ieq(s, len, pmu_event_table[e].name))
            return (int)e;
    return -1;
}

static int event_by_code(unsigned es, unsigned umask)
{
    for (unsigned e = 0; e < PMU_NEVENTS; e++)
        if (pmu_event_table[e].code == es && pmu_event_table[e].umask == umask)
            return (int)e;
    return -1;
}

/* Case-insensitive edit distance, for "did you mean". */
static unsigned edit_distance(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    unsigned row[128];
    if (blen >= sizeof row / sizeof row[0])
        blen = sizeof row / sizeof row[0] - 1;
    for (size_t j = 0; j <= blen; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= alen; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= blen; j++) {
            unsigned up = row[j];
            unsigned cost = lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
            unsigned best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[blen];
}

static const char *closest_event(const char *s, size_t len)
{
    unsigned best = ~0u;
    const char *name = pmu_event_table[0].name;
    for (unsigned e = 0; e < PMU_NEVENTS; e++) {
        unsigned d = edit_distance(s, len, pmu_event_table[e].name);
        if (d < best) {
            best = d;
            name = pmu_event_table[e].name;
        }
    }
    return name;
}

/* "PMC4" or "PMC4, PMC5, PMC6, PMC7" from an event's counter mask. */
static void counter_list(unsigned mask, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < 8; i++) {
        if (!(mask & (1u << i)))
            continue;
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%sPMC%u", buf[0] ? ", " : "", i);
    }
}

/* ---- one line -------------------------------------------------------------- */

typedef struct token {
    const char *s;
    size_t len;
} token;

#define MAX_TOKENS 32

/* Checks that a field value fits the field's writable bits for the model. */
static int check_field_value(parser *p, const pmu_reg_desc *reg, const pmu_field_desc *f,
                             const char *fname, uint64_t x)
{
    unsigned width = f->msb - f->lsb + 1;
    uint64_t ones = field_ones(width);
    uint64_t writable = (reg->wmask[p->model] >> f->lsb) & ones;
    char max[32];
    if (x > ones) {
        fmt_num(max, sizeof max, ones);
        return fail(p, fname, "expected 0..%s (%u bits), found %" PRIu64, max, width, x);
    }
    if (x & ~writable) {
        if (writable == 0)
            return fail(p, fname, "expected 0: the field is not writable on %s", model_name(p->model));
        fmt_num(max, sizeof max, writable);
        if ((writable & (writable + 1)) == 0) /* the writable bits are the low ones */
            return fail(p, fname, "expected 0..%s on %s, found %" PRIu64, max, model_name(p->model), x);
        return fail(p, fname, "expected only bits of mask %s on %s, found %" PRIu64, max,
                    model_name(p->model), x);
    }
    return 0;
}

/* A PMC0 overflow bit set before the run would be folded as a wrap that never happened. */
static int check_pmc0(parser *p, const char *fname, uint64_t value)
{
    const pmu_field_desc *ovf = field_of("PMC0", "OVF");
    if (ovf && fget(value, ovf) != 0)
        return fail(p, fname,
                    "expected ovf = 0: the overflow service cannot tell a preset overflow bit "
                    "from a counter wrap");
    return 0;
}

static int parse_raw(parser *p, pmu_config *cfg, unsigned v, const token *tok, unsigned ntok)
{
    const char *rname = pmu_vis_table[v].name;
    const pmu_reg_desc *reg = reg_of_vis(v);
    uint64_t value;
    if (ntok == 0)
        return fail(p, rname, "expected a value after '='");
    if (ntok > 1)
        return fail(p, rname, "expected one value after '=', found '%.*s' after it",
                    (int)tok[1].len, tok[1].s);
    if (parse_u64(tok[0].s, tok[0].len, &value) != 0)
        return fail(p, rname, "expected a number (decimal or 0x hex), found '%.*s'", (int)tok[0].len,
                    tok[0].s);
    uint64_t wmask = reg->wmask[p->model], reset = reg->reset[p->model];
    uint64_t reserved = (value ^ reset) & ~wmask;
    if (reserved)
        return fail(p, rname,
                    "expected no bits outside the writable mask 0x%" PRIx64 " on %s; "
                    "0x%" PRIx64 " sets reserved bits 0x%" PRIx64,
                    wmask, model_name(p->model), value, reserved);
    if (v == PMU_VIS_PMC0 && check_pmc0(p, rname, value) != 0)
        return -1;
    cfg->value[v] = value;
    return 0;
}

static int parse_fields(parser *p, pmu_config *cfg, unsigned v, const token *tok, unsigned ntok)
{
    const char *rname = pmu_vis_table[v].name;
    const char *group = pmu_vis_table[v].field_group;
    const pmu_reg_desc *reg = reg_of_vis(v);
    const int gen = is_counter_config(v);
    const unsigned ctr = gen ? v - PMU_VIS_PMC4 : 0;
    const unsigned pmc_index = PMU_FIRST_COUNTER + ctr;
    char names[256];

    if (strcmp(group, "NONE") == 0)
        return fail(p, rname, "expected '%s = value': a counter has no fields", rname);
    if (ntok == 0)
        return fail(p, rname, "expected '= value' or fields name=value");

    uint64_t value = reg->reset[p->model];
    int have_oi = 0, have_es = 0, have_umask = 0, have_thres = 0, ev = -1;
    uint64_t period = 0;
    char seen[MAX_TOKENS][24];
    unsigned nseen = 0;

    for (unsigned i = 0; i < ntok; i++) {
        const char *eq = memchr(tok[i].s, '=', tok[i].len);
        if (!eq || eq == tok[i].s) {
            field_names(group, names, sizeof names);
            return fail(p, rname, "expected name=value, found '%.*s' (fields: %s%s)",
                        (int)tok[i].len, tok[i].s, names, gen ? ", event, period" : "");
        }
        size_t nlen = (size_t)(eq - tok[i].s);
        const char *val = eq + 1;
        size_t vlen = tok[i].len - nlen - 1;
        char fname[24];
        snprintf(fname, sizeof fname, "%.*s", (int)(nlen < 23 ? nlen : 23), tok[i].s);
        lower_copy(fname, sizeof fname, fname);

        for (unsigned k = 0; k < nseen; k++)
            if (strcmp(seen[k], fname) == 0)
                return fail(p, fname, "given twice on this line");
        snprintf(seen[nseen++], sizeof seen[0], "%s", fname);

        if (vlen == 0)
            return fail(p, fname, "expected a value after '='");

        if (gen && strcmp(fname, "event") == 0) {
            ev = event_by_name(val, vlen);
            if (ev < 0)
                return fail(p, "event", "unknown event '%.*s'; did you mean %s?", (int)vlen, val,
                            closest_event(val, vlen));
            continue;
        }
        if (gen && strcmp(fname, "period") == 0) {
            unsigned w = pmu_counter_width(p->model);
            if (parse_u64(val, vlen, &period) != 0 || period == 0 || period > (UINT64_C(1) << w))
                return fail(p, "period", "expected 1..2^%u (2^%u = 0x%" PRIx64 ": the %s counter range), found '%.*s'",
                            w, w, UINT64_C(1) << w, model_name(p->model), (int)vlen, val);
            continue;
        }
        const pmu_field_desc *f = field_by_name(group, tok[i].s, nlen);
        if (!f) {
            field_names(group, names, sizeof names);
            return fail(p, fname, "unknown field of %s; expected one of %s%s", rname, names,
                        gen ? ", event, period" : "");
        }
        uint64_t x;
        if (strcmp(f->name, "ISM") == 0 && !(vlen > 0 && val[0] >= '0' && val[0] <= '9')) {
            /* ism names what is counted: bit 0 disables IA-64, bit 1 disables IA-32. */
            if (ieq(val, vlen, "both"))
                x = 0;
            else if (ieq(val, vlen, "ia64"))
                x = 2;
            else if (ieq(val, vlen, "ia32"))
                x = 1;
            else if (ieq(val, vlen, "none"))
                x = 3;
            else
                return fail(p, "ism", "expected both, ia64, ia32, none or 0..3, found '%.*s'",
                            (int)vlen, val);
        } else if (parse_u64(val, vlen, &x) != 0) {
            return fail(p, fname, "expected a number (decimal or 0x hex), found '%.*s'", (int)vlen, val);
        }
        if (check_field_value(p, reg, f, fname, x) != 0)
            return -1;
        value = fset(value, f, x);
        if (gen && strcmp(f->name, "OI") == 0)
            have_oi = 1;
        if (gen && strcmp(f->name, "ES") == 0)
            have_es = 1;
        if (gen && strcmp(f->name, "UMASK") == 0)
            have_umask = 1;
        if (gen && strcmp(f->name, "THRES") == 0)
            have_thres = 1;
    }

    if (gen) {
        const pmu_field_desc *f_es = field_of("PMC_GEN", "ES"), *f_um = field_of("PMC_GEN", "UMASK");
        const pmu_field_desc *f_oi = field_of("PMC_GEN", "OI"), *f_th = field_of("PMC_GEN", "THRES");
        const char *ev_field = "es";
        if (ev >= 0) {
            const pmu_event_desc *e = &pmu_event_table[ev];
            if (have_es || have_umask)
                return fail(p, "event", "sets es and umask itself; give either event= or es=/umask=");
            uint64_t es_writable = (reg->wmask[p->model] >> f_es->lsb) & field_ones(f_es->msb - f_es->lsb + 1);
            if (e->code & ~es_writable)
                return fail(p, "event", "%s (es 0x%02x) cannot be programmed on %s: es is %d bits there",
                            e->name, e->code, model_name(p->model), __builtin_popcountll(es_writable));
            value = fset(fset(value, f_es, e->code), f_um, e->umask);
            ev_field = "event";
        } else {
            ev = event_by_code((unsigned)fget(value, f_es), (unsigned)fget(value, f_um));
        }
        if (ev >= 0) {
            const pmu_event_desc *e = &pmu_event_table[ev];
            if (!(e->counters & (1u << pmc_index))) {
                counter_list(e->counters, names, sizeof names);
                return fail(p, ev_field, "%s can only be counted on %s (counter mask 0x%02x), not on PMC%u",
                            e->name, names, e->counters, pmc_index);
            }
            uint64_t thres = fget(value, f_th);
            if (have_thres && thres >= e->maxincr) {
                if (e->maxincr <= 1)
                    return fail(p, "thres", "expected 0 for %s (maxincr %u: at most one per cycle)",
                                e->name, e->maxincr);
                return fail(p, "thres", "expected 0..%u for %s (maxincr %u), found %" PRIu64,
                            e->maxincr - 1u, e->name, e->maxincr, thres);
            }
        }
        /* oi=1 unless given, so the overflow service sees every wrap. */
        if (!have_oi)
            value = fset(value, f_oi, 1);
        cfg->period[ctr] = period;
    }
    if (v == PMU_VIS_PMC0 && check_pmc0(p, "ovf", value) != 0)
        return -1;
    cfg->value[v] = value;
    return 0;
}

static int parse_line(parser *p, pmu_config *cfg, const char *s, size_t len, int *seen_register,
                      int model_fixed, pmu_model cli_model)
{
    /* Strip the comment and surrounding space. */
    const char *hash = memchr(s, '#', len);
    if (hash)
        len = (size_t)(hash - s);
    while (len && is_space((unsigned char)s[len - 1]))
        len--;
    size_t i = 0;
    while (i < len && is_space((unsigned char)s[i]))
        i++;
    if (i == len)
        return 0;

    /* The first word: a register name or "model". */
    size_t start = i;
    while (i < len && !is_space((unsigned char)s[i]) && s[i] != '=')
        i++;
    const char *word = s + start;
    size_t wlen = i - start;
    while (i < len && is_space((unsigned char)s[i]))
        i++;
    int raw = i < len && s[i] == '=';
    if (raw)
        i++;

    token tok[MAX_TOKENS];
    unsigned ntok = 0;
    while (i < len) {
        while (i < len && is_space((unsigned char)s[i]))
            i++;
        if (i == len)
            break;
        if (ntok == MAX_TOKENS)
            return fail(p, "line", "expected at most %d items on a line", MAX_TOKENS);
        tok[ntok].s = s + i;
        while (i < len && !is_space((unsigned char)s[i]))
            i++;
        tok[ntok].len = (size_t)(s + i - tok[ntok].s);
        ntok++;
    }

    if (ieq(word, wlen, "model")) {
        if (!raw || ntok != 1)
            return fail(p, "model", "expected 'model = itanium' or 'model = itanium2'");
        if (cfg->model_line)
            return fail(p, "model", "given twice (first at line %u)", cfg->model_line);
        if (*seen_register)
            return fail(p, "model", "expected before the first register line (the model decides "
                                    "which bits are writable)");
        pmu_model m;
        if (ieq(tok[0].s, tok[0].len, "itanium"))
            m = PMU_MODEL_ITANIUM;
        else if (ieq(tok[0].s, tok[0].len, "itanium2"))
            m = PMU_MODEL_ITANIUM2;
        else
            return fail(p, "model", "expected itanium or itanium2, found '%.*s'", (int)tok[0].len,
                        tok[0].s);
        if (model_fixed && m != cli_model)
            return fail(p, "model", "%s conflicts with --model %s", m == PMU_MODEL_ITANIUM ? "itanium" : "itanium2",
                        cli_model == PMU_MODEL_ITANIUM ? "itanium" : "itanium2");
        cfg->model = m;
        p->model = m;
        cfg->model_line = p->line;
        return 0;
    }

    int v = vis_by_name(word, wlen);
    if (v < 0) {
        char names[256];
        vis_names(names, sizeof names);
        return fail(p, "register", "unknown register '%.*s'; expected model or one of %s", (int)wlen,
                    word, names);
    }
    if (cfg->line[v])
        return fail(p, pmu_vis_table[v].name, "duplicate register line (first at line %u)", cfg->line[v]);
    *seen_register = 1;
    int rc = raw ? parse_raw(p, cfg, (unsigned)v, tok, ntok) : parse_fields(p, cfg, (unsigned)v, tok, ntok);
    if (rc != 0)
        return rc;
    cfg->line[v] = p->line;
    return 0;
}

int pmu_config_parse(const char *text, size_t len, const char *name, pmu_model model,
                     int model_fixed, pmu_config *cfg, pmu_err *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->model = model;
    parser p = {name, 0, model, err};
    int seen_register = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        p.line++;
        if (memchr(text + pos, '\0', end - pos))
            return fail(&p, "line", "expected text, found a NUL byte");
        if (parse_line(&p, cfg, text + pos, end - pos, &seen_register, model_fixed, model) != 0)
            return -1;
        pos = end + 1;
    }

    /* Start and reload values of each counter. */
    unsigned w = pmu_counter_width(cfg->model);
    uint64_t cmask = field_ones(w);
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        unsigned pmd = PMU_VIS_PMD4 + k, pmc = PMU_VIS_PMC4 + k;
        if (cfg->period[k]) {
            cfg->reload[k] = ((UINT64_C(1) << w) - cfg->period[k]) & cmask;
            if (cfg->line[pmd]) {
                p.line = cfg->line[pmd];
                return fail(&p, pmu_vis_table[pmd].name,
                            "expected no value: period= on line %u already sets where the "
                            "counter starts", cfg->line[pmc]);
            }
            cfg->start[k] = cfg->reload[k];
        } else {
            cfg->reload[k] = 0;
            cfg->start[k] = cfg->line[pmd] ? cfg->value[pmd] & cmask : 0;
        }
    }
    return 0;
}

int pmu_config_load(const char *path, pmu_model model, int model_fixed, pmu_config *cfg,
                    pmu_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb) {
            free(buf);
            buf = NULL;
        } else {
            buf = nb;
        }
    }
    int bad_read = ferror(f);
    fclose(f);
    if (!buf || bad_read) {
        free(buf);
        snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", path, buf ? strerror(EIO) : "out of memory");
        return -1;
    }
    int rc = pmu_config_parse(buf, len, path, model, model_fixed, cfg, err);
    free(buf);
    return rc;
}

/* The built-in configuration.  Periods are chosen so that each counter overflows
 * several times in the default 1,000,000-cycle workload (docs/config-format.md). */
static const char default_itanium2[] =
    "# pmusim built-in configuration (Itanium 2)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 period=150000    # user only\n"
    "PMC6 event=NOPS_RETIRED plm=0xf pm=0 thres=1 period=8000   # cycles with 2+ nops\n"
    "PMC7 event=L1D_READ_MISSES_ALL plm=0x1 pm=1 period=500     # kernel misses, privileged monitor\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

/* Itanium's 7-bit es cannot select the L1D event (0xc7): a branch event instead. */
static const char default_itanium[] =
    "# pmusim built-in configuration (Itanium)\n"
    "PMC4 event=CPU_CYCLES plm=0xf pm=0 period=100000           # every level\n"
    "PMC5 event=IA64_INST_RETIRED plm=0x8 pm=0 period=150000    # user only\n"
    "PMC6 event=NOPS_RETIRED plm=0xf pm=0 thres=1 period=8000   # cycles with 2+ nops\n"
    "PMC7 event=BR_MISPRED_DETAIL_ALL_WRONG_PATH plm=0x1 pm=1 period=400 # kernel mispredicts\n"
    "PSR up=1 pp=0\n"
    "DCR pp=1                                                   # interruptions set PSR.pp\n";

const char *pmu_config_default_text(pmu_model model)
{
    return model == PMU_MODEL_ITANIUM ? default_itanium : default_itanium2;
}

void pmu_config_apply(const pmu_config *cfg, pmu_backend *b)
{
    for (unsigned v = 0; v < PMU_NVIS; v++)
        if (v != PMU_VIS_PMC0 && cfg->line[v])
            pmu_write(b, pmu_vis_table[v].addr, cfg->value[v]);
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++)
        if (cfg->period[k])
            pmu_write(b, pmu_vis_table[PMU_VIS_PMD4 + k].addr, cfg->start[k]);
    pmu_write(b, pmu_vis_table[PMU_VIS_PMC0].addr, cfg->line[PMU_VIS_PMC0] ? cfg->value[PMU_VIS_PMC0] : 0);
}

void pmu_config_describe_event(uint64_t pmc, char *buf, size_t size)
{
    unsigned es = (unsigned)PMU_FGET(pmc, PMC_GEN, ES), umask = (unsigned)PMU_FGET(pmc, PMC_GEN, UMASK);
    int e = event_by_code(es, umask);
    if (e >= 0)
        snprintf(buf, size, "%s", pmu_event_table[e].name);
    else
        snprintf(buf, size, "es=0x%02x umask=0x%x", es, umask);
}

void pmu_config_describe_qualifiers(uint64_t pmc, char *buf, size_t size)
{
    static const char *const ism_names[4] = {"both", "ia32", "ia64", "none"};
    unsigned plm = (unsigned)PMU_FGET(pmc, PMC_GEN, PLM);
    char levels[16] = "";
    if (plm == 0x8)
        snprintf(levels, sizeof levels, "user");
    else if (plm == 0x1)
        snprintf(levels, sizeof levels, "kernel");
    else if (plm == 0)
        snprintf(levels, sizeof levels, "none");
    else
        for (unsigned l = 0; l < 4; l++)
            if (plm & (1u << l)) {
                size_t n = strlen(levels);
                snprintf(levels + n, sizeof levels - n, "%s%u", n ? "," : "", l);
            }
    snprintf(buf, size, "plm=%s pm=%u thres=%u ism=%s%s", levels,
             (unsigned)PMU_FGET(pmc, PMC_GEN, PM), (unsigned)PMU_FGET(pmc, PMC_GEN, THRES),
             ism_names[PMU_FGET(pmc, PMC_GEN, ISM) & 3], PMU_FGET(pmc, PMC_GEN, OI) ? "" : " oi=0");
}
