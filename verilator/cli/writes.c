/*
 * writes.c - `pmusim run --writes FILE` (include/cli/pmu_writes.h): the schedule's reader
 * and the run loop's `at` hook that applies it.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/pmu_writes.h"
#include "cli/pmu_kvfile.h"
#include "common/pmu_num.h"

#define WRITES_FAILS_SHOWN 8u

typedef struct entry {
    uint64_t at;
    uint64_t value;
    uint64_t read;  /* an expect: what the register read */
    unsigned line;
    uint16_t addr;
    uint8_t expect; /* 0 write, 1 expect */
    uint8_t done;   /* applied */
    uint8_t failed; /* an expect that did not hold */
} entry;

struct pmu_writes {
    const pmu_family *fam;
    char *name;
    entry *e;
    size_t n, next;
    uint64_t at_cycle; /* the next line's cycle (UINT64_MAX: none left) */
    pmu_backend *b;
};

void pmu_writes_reg_name(const pmu_family *fam, uint16_t addr, char *buf, size_t size)
{
    const int vis = pmu_family_vis_of_addr(fam, addr);
    const pmu_regmap_entry *r = pmu_family_reg_of_addr(fam, addr);
    if (vis >= 0)
        snprintf(buf, size, "%s", fam->vis[vis].name);
    else if (!r)
        snprintf(buf, size, "0x%03x", addr);
    else if (r->span > 1)
        snprintf(buf, size, "%s+%u", r->name, (unsigned)(addr - r->addr));
    else
        snprintf(buf, size, "%s", r->name);
}

int pmu_writes_reg(const pmu_family *fam, const char *text, const char *where, uint16_t *addr, pmu_err *err)
{
    char shown[96];
    pmu_escape(text, strlen(text), shown, sizeof shown);
    if (text[0] >= '0' && text[0] <= '9') {
        uint64_t a;
        char what[400];
        snprintf(what, sizeof what, "%s: register address", where);
        if (pmu_parse_u64(text, 0, 0xffff, what, &a, err))
            return -1;
        *addr = (uint16_t)a;
        return 0;
    }
    for (unsigned v = 0; v < fam->nvis; v++)
        if (!strcasecmp(fam->vis[v].name, text)) {
            *addr = fam->vis[v].addr;
            return 0;
        }
    const char *plus = strchr(text, '+');
    size_t len = plus ? (size_t)(plus - text) : strlen(text);
    for (unsigned i = 0; i < fam->nregmap; i++) {
        const pmu_regmap_entry *r = &fam->regmap[i];
        if (strlen(r->name) != len || strncasecmp(r->name, text, len))
            continue;
        uint64_t k = 0;
        if (plus) {
            char what[400];
            snprintf(what, sizeof what, "%s: register '%s': the offset after '+'", where, shown);
            if (pmu_parse_u64(plus + 1, 0, r->span ? r->span - 1u : 0, what, &k, err))
                return -1;
        }
        *addr = (uint16_t)(r->addr + k);
        return 0;
    }
    char names[512] = "";
    for (unsigned i = 0; i < fam->nregmap; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s%s", i ? ", " : "",
                 fam->regmap[i].name, fam->regmap[i].span > 1 ? "+K" : "");
    return pmu_errf(err, PMU_E_INPUT, "%s: register '%s': expected a visible register or one of the %s's "
                    "register map (%s), or an address", where, shown, fam->title, names);
}

/* One line's words into w[] (at most 6); how many. */
static unsigned words(char *line, char **w)
{
    unsigned n = 0;
    for (char *p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r"))
        if (n < 6)
            w[n++] = p;
        else
            return 6;
    return n;
}

static int parse_line(void *arg, char *line, const char *where, unsigned lineno, pmu_err *err)
{
    pmu_writes *ws = arg;
    char what[440], shown[96];
    pmu_escape(line, strlen(line), shown, sizeof shown);
    char *w[6];
    unsigned n = words(line, w);
    if (n != 5 || strcmp(w[0], "at") || (strcmp(w[2], "write") && strcmp(w[2], "expect")))
        return pmu_errf(err, PMU_E_INPUT, "%s: expected 'at CYCLE write REG VALUE' or 'at CYCLE expect REG VALUE', "
                        "found '%s'", where, shown);
    entry e = {.line = lineno, .expect = (uint8_t)(w[2][0] == 'e')};
    snprintf(what, sizeof what, "%s: cycle", where);
    if (pmu_parse_u64(w[1], 0, UINT64_MAX - 1, what, &e.at, err))
        return -1;
    if (ws->n && e.at < ws->e[ws->n - 1].at)
        return pmu_errf(err, PMU_E_INPUT, "%s: cycle %" PRIu64 " is before line %u's %" PRIu64
                        ", expected cycles in order", where, e.at, ws->e[ws->n - 1].line, ws->e[ws->n - 1].at);
    if (pmu_writes_reg(ws->fam, w[3], where, &e.addr, err))
        return -1;
    const pmu_regmap_entry *r = pmu_family_reg_of_addr(ws->fam, e.addr);
    if (e.expect && r && r->access == PMU_REG_WO)
        return pmu_errf(err, PMU_E_INPUT, "%s: register %s: write-only (it reads 0), expected a register to expect "
                        "a value of", where, r->name);
    snprintf(what, sizeof what, "%s: value", where);
    if (pmu_parse_u64(w[4], 0, UINT64_MAX, what, &e.value, err))
        return -1;
    if (!(ws->n & (ws->n + 1))) { /* n + 1 a power of two: grow */
        entry *ne = realloc(ws->e, (ws->n + 1) * 2 * sizeof *ne);
        if (!ne)
            return pmu_errf(err, PMU_E_NOMEM, "out of memory");
        ws->e = ne;
    }
    ws->e[ws->n++] = e;
    return 0;
}

pmu_writes *pmu_writes_parse(const pmu_family *fam, const char *text, size_t len, const char *name,
                             pmu_err *err)
{
    pmu_writes *ws = calloc(1, sizeof *ws);
    if (!ws || !(ws->name = strdup(name))) {
        free(ws);
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    ws->fam = fam;
    if (pmu_lines_parse(text, len, name, parse_line, ws, err)) {
        pmu_writes_free(ws);
        return NULL;
    }
    if (ws->n == 0) {
        pmu_errf(err, PMU_E_INPUT, "%s: no 'at CYCLE write|expect REG VALUE' line, expected at least one", name);
        pmu_writes_free(ws);
        return NULL;
    }
    return ws;
}

/* The loop's `at` hook: every line of this cycle, in order. */
static void writes_at(void *ctx)
{
    pmu_writes *ws = ctx;
    const uint64_t now = ws->at_cycle;
    for (; ws->next < ws->n && ws->e[ws->next].at == now; ws->next++) {
        entry *e = &ws->e[ws->next];
        if (e->expect) {
            e->read = pmu_read(ws->b, e->addr);
            e->failed = e->read != e->value;
        } else {
            pmu_write(ws->b, e->addr, e->value);
        }
        e->done = 1;
    }
    ws->at_cycle = ws->next < ws->n ? ws->e[ws->next].at : UINT64_MAX;
}

void pmu_writes_start(pmu_writes *ws, pmu_backend *b, pmu_record_hooks *hooks)
{
    ws->b = b;
    ws->next = 0;
    ws->at_cycle = ws->e[0].at;
    *hooks = (pmu_record_hooks){.ctx = ws, .at = writes_at, .at_cycle = &ws->at_cycle};
}

int pmu_writes_finish(pmu_writes *ws, int quiet, FILE *out)
{
    size_t writes = 0, expects = 0, failed = 0, shown = 0;
    char reg[64];
    for (size_t i = 0; i < ws->n; i++) {
        const entry *e = &ws->e[i];
        if (!e->done)
            continue;
        e->expect ? expects++ : writes++;
        if (!e->failed)
            continue;
        failed++;
        if (shown++ < WRITES_FAILS_SHOWN) {
            pmu_writes_reg_name(ws->fam, e->addr, reg, sizeof reg);
            fprintf(out, "%s:%u: at %" PRIu64 ": expect %s 0x%" PRIx64 ": it reads 0x%" PRIx64 "\n", ws->name,
                    e->line, e->at, reg, e->value, e->read);
        }
    }
    int all = ws->next == ws->n;
    if (!all)
        fprintf(out, "%s:%u: at %" PRIu64 ": not applied: the records ended first (%zu of %zu lines applied)\n",
                ws->name, ws->e[ws->next].line, ws->e[ws->next].at, ws->next, ws->n);
    if (!quiet || failed)
        fprintf(out, "writes: %zu writes and %zu expects of %s applied, %zu expects failed\n", writes, expects,
                ws->name, failed);
    return all && !failed;
}

void pmu_writes_free(pmu_writes *ws)
{
    if (!ws)
        return;
    free(ws->e);
    free(ws->name);
    free(ws);
}
