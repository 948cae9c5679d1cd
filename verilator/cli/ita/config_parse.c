/*
 * config_parse.c - PMU configuration files (include/cli/ita/ita_config.h,
 * docs/ita-config-format.md): the text, its lines and tokens, the model line, the whole
 * file, and programming a backend with the result.
 *
 * Every layout fact (register names and addresses, fields, reset values, writable
 * masks, events) comes from the tables of include/common/ita/ita_regs.def via ita_regs.h.
 */
#include "config_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_num.h"

/* ---- shared by the line parsers -------------------------------------------------- */

int config_fail(config_parser *p, const char *field, const char *fmt, ...)
{
    char what[448];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pmu_errf(p->err, PMU_E_INPUT, "%s:%u: %s: %s", p->name, p->line, field, what);
}

int config_number(config_parser *p, const char *field, const char *s, size_t len, uint64_t *out)
{
    char what[256];
    snprintf(what, sizeof what, "%s:%u: %s", p->name, p->line, field);
    return pmu_parse_u64n(s, len, 0, UINT64_MAX, what, out, p->err);
}

int config_seen_once(config_parser *p, config_seen *s, const char *name)
{
    for (unsigned k = 0; k < s->n; k++)
        if (strcmp(s->name[k], name) == 0)
            return config_fail(p, name, "given twice on this line");
    if (s->n < CONFIG_MAX_TOKENS)
        snprintf(s->name[s->n++], sizeof s->name[0], "%s", name);
    return 0;
}

/* Splits a name=value token into key (lower case), val and vlen; 1 when it is not one. */
static int split_item(const config_token *t, char key[CONFIG_NAME_MAX], const char **val, size_t *vlen)
{
    const char *eq = memchr(t->s, '=', t->len);
    if (!eq || eq == t->s)
        return 1;
    size_t nlen = (size_t)(eq - t->s), i = 0;
    for (; i < nlen && i + 1 < CONFIG_NAME_MAX; i++)
        key[i] = (char)pmu_text_lower((unsigned char)t->s[i]);
    key[i] = '\0';
    *val = eq + 1;
    *vlen = t->len - nlen - 1;
    return 0;
}

int config_each_item(config_parser *p, const config_token *tok, unsigned ntok, config_item_fn fn, void *ctx)
{
    config_seen seen = {.n = 0};
    for (unsigned i = 0; i < ntok; i++) {
        char key[CONFIG_NAME_MAX];
        const char *val = NULL;
        size_t vlen = 0;
        if (split_item(&tok[i], key, &val, &vlen) != 0) {
            if (fn(p, ctx, &seen, &tok[i], NULL, NULL, 0) != 0)
                return -1;
            continue;
        }
        if (config_seen_once(p, &seen, key) != 0)
            return -1;
        if (vlen == 0)
            return config_fail(p, key, "expected a value after '='");
        if (fn(p, ctx, &seen, &tok[i], key, val, vlen) != 0)
            return -1;
    }
    return 0;
}

const ita_reg_desc *config_reg(unsigned v) { return ita_reg_lookup(ita_vis_table[v].addr); }

uint64_t config_reset(unsigned v, ita_model m) { return config_reg(v)->reset[m]; }

/* ---- register names --------------------------------------------------------------- */

static int vis_by_name(const char *s, size_t len)
{
    for (unsigned v = 0; v < ITA_NVIS; v++)
        if (pmu_text_ieq(s, len, ita_vis_table[v].name))
            return (int)v;
    return -1;
}

/* "PMC0, PMC4..PMC9, PMC11, ..., IBR0..IBR7": every register name a line may give, in
 * the order of the .def's visible list, runs of consecutive numbers folded. */
static void vis_names(char *buf, size_t size)
{
    const char *names[ITA_NVIS];
    for (unsigned v = 0; v < ITA_NVIS; v++)
        names[v] = ita_vis_table[v].name;
    buf[0] = '\0';
    pmu_text_fold_names(buf, size, names, ITA_NVIS);
}

static int is_space(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }

/* A line cut into its first word, whether '=' follows it, and the other tokens. */
typedef struct config_line {
    const char *word;
    size_t wlen;
    int raw;
    config_token tok[CONFIG_MAX_TOKENS];
    unsigned ntok;
} config_line;

/* Strips the comment and the surrounding space and cuts the rest into l.  Returns 1 for
 * a line with content, 0 for a blank one, -1 on an error. */
static int split_line(config_parser *p, const char *s, size_t len, config_line *l)
{
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

    /* The first word: a register name, "model", "irange", "drange" or "opcode". */
    size_t start = i;
    while (i < len && !is_space((unsigned char)s[i]) && s[i] != '=')
        i++;
    l->word = s + start;
    l->wlen = i - start;
    while (i < len && is_space((unsigned char)s[i]))
        i++;
    l->raw = i < len && s[i] == '=';
    if (l->raw)
        i++;

    l->ntok = 0;
    while (i < len) {
        while (i < len && is_space((unsigned char)s[i]))
            i++;
        if (i == len)
            break;
        if (l->ntok == CONFIG_MAX_TOKENS)
            return config_fail(p, "line", "expected at most %d items on a line", CONFIG_MAX_TOKENS);
        config_token *t = &l->tok[l->ntok++];
        t->s = s + i;
        while (i < len && !is_space((unsigned char)s[i]))
            i++;
        t->len = (size_t)(s + i - t->s);
    }
    return 1;
}

/* What the caller fixed and what the lines so far have set. */
typedef struct config_state {
    int seen_register; /* a register, range or opcode line has been read */
    int model_fixed;   /* the caller's model is the user's choice */
    ita_model cli_model;
} config_state;

static int model_line(config_parser *p, ita_config *cfg, const config_line *l, const config_state *st)
{
    const pmu_model_desc *models = ita_models;
    if (!l->raw || l->ntok != 1)
        return config_fail(p, "model", "expected 'model = itanium' or 'model = itanium2'");
    if (cfg->model_line)
        return config_fail(p, "model", "given twice (first at line %u)", cfg->model_line);
    if (st->seen_register)
        return config_fail(p, "model", "expected before the first register line (the model decides "
                                       "which bits are writable)");
    int m = -1;
    for (unsigned i = 0; i < ITA_NMODELS; i++)
        if (pmu_text_ieq(l->tok[0].s, l->tok[0].len, models[i].name))
            m = (int)i;
    if (m < 0)
        return config_fail(p, "model", "expected itanium or itanium2, found '%.*s'", (int)l->tok[0].len,
                           l->tok[0].s);
    if (st->model_fixed && (ita_model)m != st->cli_model)
        return config_fail(p, "model", "%s conflicts with --model %s", models[m].name, models[st->cli_model].name);
    cfg->model = (ita_model)m;
    p->model = (ita_model)m;
    cfg->model_line = p->line;
    return 0;
}

/* A register line: REG = VALUE or REG field=value ... */
static int register_line(config_parser *p, ita_config *cfg, const config_line *l)
{
    int v = vis_by_name(l->word, l->wlen);
    if (v < 0) {
        char names[320];
        vis_names(names, sizeof names);
        return config_fail(p, "register", "unknown register '%.*s'; expected model, irange, drange, opcode or one of %s",
                           (int)l->wlen, l->word, names);
    }
    const char *rname = ita_vis_table[v].name;
    if (cfg->derived[v]) {
        int code = v >= (int)ITA_VIS_IBR0 && v <= (int)ITA_VIS_IBR7;
        unsigned pair = (unsigned)(v - (code ? ITA_VIS_IBR0 : ITA_VIS_DBR0)) / 2;
        return config_fail(p, rname, "%s pair %u is already programmed by the %s on line %u; give either "
                                     "the %s or the %s lines",
                           code ? "IBR" : "DBR", pair, code ? "irange" : "drange", cfg->line[v],
                           code ? "irange" : "drange", code ? "IBR" : "DBR");
    }
    if (cfg->line[v]) {
        int opc = (v == ITA_VIS_PMC8 && cfg->opcode_line[0]) || (v == ITA_VIS_PMC9 && cfg->opcode_line[1]);
        return config_fail(p, rname, "duplicate register line (first at line %u%s)", cfg->line[v],
                           opc ? ", an opcode line" : "");
    }
    /* A register with no writable bit on a model is not implemented there (PMC14 and
     * PMC15 on Itanium): it reads 0 and ignores writes. */
    if (config_reg((unsigned)v)->wmask[p->model] == 0)
        return config_fail(p, rname, "expected a register that %s implements: %s reads 0 and ignores "
                                     "writes there",
                           config_model_title(p->model), rname);
    if (config_register_line(p, cfg, (unsigned)v, l->raw, l->tok, l->ntok) != 0)
        return -1;
    cfg->line[v] = p->line;
    return 0;
}

static int parse_line(config_parser *p, ita_config *cfg, const char *s, size_t len, config_state *st)
{
    config_line l;
    int content = split_line(p, s, len, &l);
    if (content <= 0)
        return content;
    if (pmu_text_ieq(l.word, l.wlen, "model"))
        return model_line(p, cfg, &l, st);

    static const char *const kinds[3] = {"irange", "drange", "opcode"};
    static const char *const examples[3] = {"'irange 0x1000..0x2000 pair=0'", "'drange 0x1000..0x2000 pair=0'",
                                            "'opcode PMC8 class=br.ret'"};
    for (unsigned k = 0; k < 3; k++) {
        if (!pmu_text_ieq(l.word, l.wlen, kinds[k]))
            continue;
        if (l.raw)
            return config_fail(p, kinds[k], "expected no '=' after %s (e.g. %s)", kinds[k], examples[k]);
        st->seen_register = 1;
        return k == 2 ? config_opcode_line(p, cfg, l.tok, l.ntok) : config_range_line(p, cfg, k == 0, l.tok, l.ntok);
    }
    int rc = register_line(p, cfg, &l);
    if (rc == 0)
        st->seen_register = 1;
    return rc;
}

/* ---- the whole file ------------------------------------------------------------------- */

/* Start and reload values of each counter, from its period or its PMD line. */
static int finish_counters(config_parser *p, ita_config *cfg)
{
    unsigned w = ita_counter_width(cfg->model);
    uint64_t cmask = field_ones(w);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        unsigned pmd = ITA_VIS_PMD4 + k, pmc = ITA_VIS_PMC4 + k;
        if (cfg->period[k]) {
            cfg->reload[k] = ((UINT64_C(1) << w) - cfg->period[k]) & cmask;
            if (cfg->line[pmd]) {
                p->line = cfg->line[pmd];
                return config_fail(p, ita_vis_table[pmd].name,
                                   "expected no value: period= on line %u already sets where the "
                                   "counter starts",
                                   cfg->line[pmc]);
            }
            cfg->start[k] = cfg->reload[k];
        } else {
            cfg->reload[k] = 0;
            cfg->start[k] = cfg->line[pmd] ? cfg->value[pmd] & cmask : 0;
        }
    }
    return 0;
}

int ita_config_parse(const char *text, size_t len, const char *name, ita_model model,
                     int model_fixed, ita_config *cfg, pmu_err *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->model = model;
    config_parser p = {name, 0, model, err};
    config_state st = {0, model_fixed, model};
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        p.line++;
        if (memchr(text + pos, '\0', end - pos))
            return config_fail(&p, "line", "expected text, found a NUL byte");
        if (parse_line(&p, cfg, text + pos, end - pos, &st) != 0)
            return -1;
        pos = end + 1;
    }
    if (config_finish_qualification(&p, cfg) != 0)
        return -1;
    return finish_counters(&p, cfg);
}

int ita_config_load(const char *path, ita_model model, int model_fixed, ita_config *cfg,
                    pmu_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pmu_errf(err, PMU_E_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int bad_read = ferror(f);
    fclose(f);
    if (!buf || bad_read) {
        free(buf);
        return pmu_errf(err, buf ? PMU_E_IO : PMU_E_NOMEM, "%s: cannot read: %s", path,
                        buf ? strerror(EIO) : "out of memory");
    }
    int rc = ita_config_parse(buf, len, path, model, model_fixed, cfg, err);
    free(buf);
    return rc;
}

/* ---- programming --------------------------------------------------------------------- */

void ita_config_apply(const ita_config *cfg, pmu_backend *b)
{
    for (unsigned v = 0; v < ITA_NVIS; v++)
        if (v != ITA_VIS_PMC0 && cfg->line[v])
            pmu_write(b, ita_vis_table[v].addr, cfg->value[v]);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
        if (cfg->period[k])
            pmu_write(b, ita_vis_table[ITA_VIS_PMD4 + k].addr, cfg->start[k]);
    pmu_write(b, ita_vis_table[ITA_VIS_PMC0].addr, cfg->line[ITA_VIS_PMC0] ? cfg->value[ITA_VIS_PMC0] : 0);
}

void ita_config_values(const ita_config *cfg, uint64_t vis[ITA_NVIS])
{
    for (unsigned v = 0; v < ITA_NVIS; v++)
        vis[v] = cfg->line[v] ? cfg->value[v] : config_reset(v, cfg->model);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++)
        vis[ITA_VIS_PMD4 + k] = cfg->start[k];
    vis[ITA_VIS_PMC0] = cfg->line[ITA_VIS_PMC0] ? cfg->value[ITA_VIS_PMC0] : 0;
}
