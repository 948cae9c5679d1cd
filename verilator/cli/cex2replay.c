/*
 * cex2replay.c - `pmusim cex2replay`: a yosys-smtbmc counterexample of a family's formal
 * checker as a stream and a `run --writes` schedule (include/cli/pmu_cex.h; docs/formal.md,
 * "From a counterexample to a replay").
 *
 * The VCD: yosys-smtbmc writes the integer `smt_step` (t), then every signal of the
 * checker at each step's time, and ends with the time of one more step without values;
 * the values of step k are those before its clock, and the flops show the clock's result
 * at step k + 1.  The checkers' assertions sit in clocked blocks, which Yosys samples at
 * the clock: the failure the solver reports at the last step K - 1 is the assertion over
 * step K - 2's values, about the clock of step K - 3 (the one before).  The replay clocks
 * steps 0 .. K - 2 and, so that writes before it are applied, step K - 1's inputs as
 * one more record.  A checker with immediate assertions (pmu_cex_family.immediate) fails
 * at the last step over that step's own values: its clock is that one more record.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream, strdup */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pmu_cex.h"
#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"
#include "cli/pmu_writes.h"
#include "common/pmu_num.h"

#define VCD_LIMIT (256u << 20) /* bytes of a counterexample */
#define CEX_MAX_VARS 4096u
#define CEX_MAX_STEPS 100000u
#define CEX_MAX_DEPTH 8 /* scopes: the top and the instances below it */

/* ---- the trace -------------------------------------------------------------------------------- */

typedef struct cex_var {
    char *name;  /* below the top: "nissue_i", "dut.obs_vis_o" */
    char *code;  /* the VCD's identifier */
    unsigned width;
    char **at;   /* at[step]: its bits, MSB first (NULL: not given, 0) */
} cex_var;

struct pmu_cex {
    char *top;
    unsigned model; /* the model replayed (pmu_cex_model) */
    cex_var *v;
    unsigned nv, steps;
    unsigned cap; /* steps each at[] has room for */
};

/* Room in every variable's at[] for step s; 0, or -1 when out of memory. */
static int cex_room(pmu_cex *t, unsigned s)
{
    if (s < t->cap)
        return 0;
    unsigned cap = t->cap ? t->cap * 2 : 16;
    while (cap <= s)
        cap *= 2;
    for (unsigned i = 0; i < t->nv; i++) {
        char **at = realloc(t->v[i].at, cap * sizeof *at);
        if (!at)
            return -1;
        memset(at + t->cap, 0, (cap - t->cap) * sizeof *at);
        t->v[i].at = at;
    }
    t->cap = cap;
    return 0;
}

/* The values read so far (cur[]) are those of step s. */
static int cex_keep(pmu_cex *t, const char **cur, unsigned s)
{
    if (cex_room(t, s))
        return -1;
    for (unsigned i = 0; i < t->nv; i++)
        if (cur[i] && !(t->v[i].at[s] = strdup(cur[i])))
            return -1;
    return 0;
}

static void cex_free(pmu_cex *t)
{
    if (!t)
        return;
    for (unsigned i = 0; i < t->nv; i++) {
        for (unsigned s = 0; s < t->cap; s++)
            free(t->v[i].at[s]);
        free(t->v[i].at);
        free(t->v[i].name);
        free(t->v[i].code);
    }
    free(t->v);
    free(t->top);
    free(t);
}

static const cex_var *cex_find(const pmu_cex *t, const char *name)
{
    for (unsigned i = 0; i < t->nv; i++)
        if (!strcmp(t->v[i].name, name))
            return &t->v[i];
    return NULL;
}

int pmu_cex_get(const pmu_cex *t, const char *name, unsigned step, unsigned lsb, unsigned width, uint64_t *v,
                pmu_err *err)
{
    const cex_var *x = cex_find(t, name);
    if (!x)
        return pmu_errf(err, PMU_E_INPUT, "signal '%s' of checker %s: not in the trace, expected the checker's "
                        "port (a VCD of `yosys-smtbmc --dump-vcd` with write_smt2 -wires)", name, t->top);
    const char *bits = step < t->steps && step < t->cap ? x->at[step] : NULL;
    size_t n = bits ? strlen(bits) : 0;
    uint64_t r = 0;
    for (unsigned i = 0; i < width && i < 64; i++) {
        size_t b = lsb + i; /* bit b is bits[n - 1 - b]; missing bits are 0 (left extension) */
        if (b < n && bits[n - 1 - b] == '1')
            r |= 1ull << i;
    }
    *v = r;
    return 0;
}

/* One whitespace-separated word of the line at *p; NULL at the line's end. */
static char *word(char **p)
{
    char *s = *p + strspn(*p, " \t\r");
    if (!*s)
        return NULL;
    char *e = s + strcspn(s, " \t\r");
    if (*e)
        *e++ = 0;
    *p = e;
    return s;
}

/* The VCD text (NUL-terminated, modified in place) as a trace; `name` for messages. */
static pmu_cex *cex_parse(char *text, const char *name, pmu_err *err)
{
    pmu_cex *t = calloc(1, sizeof *t);
    if (!t || !(t->v = calloc(CEX_MAX_VARS, sizeof *t->v))) {
        free(t);
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    char scope[CEX_MAX_DEPTH][128];
    int depth = 0, defs = 1;
    unsigned lineno = 0;
    const char *step_code = NULL;
    char *step_name = NULL;
    long step = -1; /* the step of the values being read */
    unsigned valued = 0, valued0 = 0; /* values read in that step, and in step 0 */
    const char **cur = NULL; /* the current value of each variable */
    char *p = text;
    int bad = 0;
#define BAD(...) do { bad = pmu_errf(err, PMU_E_INPUT, __VA_ARGS__); goto out; } while (0)
    while (*p) {
        char *line = p;
        p += strcspn(p, "\n");
        if (*p)
            *p++ = 0;
        lineno++;
        char *q = line, *w = word(&q);
        if (!w)
            continue;
        if (defs) {
            if (!strcmp(w, "$scope")) {
                word(&q);
                char *sn = word(&q);
                if (!sn)
                    BAD("%s:%u: expected '$scope module NAME $end'", name, lineno);
                if (depth == 0 && !t->top)
                    t->top = strdup(sn);
                if (depth < CEX_MAX_DEPTH)
                    snprintf(scope[depth], sizeof scope[depth], "%s", sn);
                depth++;
            } else if (!strcmp(w, "$upscope")) {
                if (--depth < 0)
                    BAD("%s:%u: $upscope without a $scope", name, lineno);
            } else if (!strcmp(w, "$var")) {
                char *kind = word(&q), *wid = word(&q), *code = word(&q), *vn = word(&q);
                uint64_t width = 0;
                char what[300];
                snprintf(what, sizeof what, "%s:%u: the $var's width", name, lineno);
                if (!kind || !wid || !code || !vn)
                    BAD("%s:%u: expected '$var KIND WIDTH ID NAME $end'", name, lineno);
                if (pmu_parse_u64(wid, 1, 1u << 20, what, &width, err)) {
                    bad = -1;
                    goto out;
                }
                if (depth == 0 && !strcmp(vn, "smt_step")) {
                    step_code = code;
                    continue;
                }
                if (depth < 1 || depth > CEX_MAX_DEPTH || t->nv >= CEX_MAX_VARS)
                    continue; /* the top's signals and its instances', named by the path below the
                               * top: "nissue_i", "dut.obs_vis_o", "u_itanium.g_cnt<0>.u_counter.cnt_q" */
                char full[1200];
                size_t fl = 0;
                for (int d = 1; d < depth; d++)
                    fl += (size_t)snprintf(full + fl, sizeof full - fl, "%s.", scope[d]);
                snprintf(full + fl, sizeof full - fl, "%s", vn);
                cex_var *x = &t->v[t->nv++];
                if (!(x->name = strdup(full)) || !(x->code = strdup(code)))
                    BAD("out of memory");
                x->width = (unsigned)width;
            } else if (!strcmp(w, "$enddefinitions")) {
                defs = 0;
                if (!t->top)
                    BAD("%s: no '$scope module' before $enddefinitions, expected the checker's top", name);
                if (!step_code)
                    BAD("%s: no 'smt_step' variable, expected a VCD written by yosys-smtbmc --dump-vcd", name);
                step_name = strdup(step_code);
                if (!step_name || !(cur = calloc(t->nv + 1, sizeof *cur)))
                    BAD("out of memory");
            }
            continue;
        }
        /* the values: "#T", "bBITS ID", "0ID"/"1ID", "1!" (the event) */
        if (w[0] == '#' || w[0] == '$')
            continue; /* a time, $dumpvars, $end: the step comes from smt_step */
        const char *bits;
        char *code;
        if (w[0] == 'b' || w[0] == 'B') {
            bits = w + 1;
            code = word(&q);
        } else {
            bits = w[0] == '0' ? "0" : w[0] == '1' ? "1" : "x";
            code = w + 1;
        }
        if (!code || !*code)
            BAD("%s:%u: expected 'bBITS ID' or a scalar change, found '%s'", name, lineno, w);
        if (bits[strspn(bits, "01")])
            BAD("%s:%u: value '%s': expected bits 0 and 1 (a counterexample has no x or z)", name, lineno,
                w[0] == 'b' || w[0] == 'B' ? bits : w);
        if (!strcmp(code, step_name)) {
            uint64_t s = 0;
            for (const char *c = bits; *c; c++)
                s = s * 2 + (uint64_t)(*c - '0');
            if (s >= CEX_MAX_STEPS)
                BAD("%s:%u: step %" PRIu64 ": expected at most %u steps", name, lineno, s, CEX_MAX_STEPS);
            if ((long)s != step && (long)s != step + 1)
                BAD("%s:%u: step %" PRIu64 " after step %ld, expected the steps in order", name, lineno, s, step);
            if ((long)s == step + 1 && step >= 0 && cex_keep(t, cur, (unsigned)step))
                BAD("out of memory");
            if ((long)s == step + 1) {
                if (step == 0)
                    valued0 = valued;
                valued = 0;
            }
            step = (long)s;
            continue;
        }
        for (unsigned i = 0; i < t->nv; i++)
            if (!strcmp(t->v[i].code, code)) {
                if (step < 0)
                    BAD("%s:%u: a value before the first smt_step, expected the step first", name, lineno);
                cur[i] = bits;
                valued++;
            }
    }
    if (defs)
        BAD("%s: no $enddefinitions, expected a VCD", name);
    if (step < 0)
        BAD("%s: no step, expected the values of step 0 at least", name);
    /* yosys-smtbmc ends the trace with the time of one more step and only the clocks in it
     * (every step before has every signal): not a step */
    const int last = step == 0 || valued >= valued0;
    if (!last)
        step--;
    if (step < 0)
        BAD("%s: no step, expected the values of step 0 at least", name);
    if (last && cex_keep(t, cur, (unsigned)step))
        BAD("out of memory");
    t->steps = (unsigned)step + 1;
out:
#undef BAD
    free((void *)cur);
    free(step_name);
    if (bad) {
        cex_free(t);
        return NULL;
    }
    return t;
}

/* ---- the replay being written ----------------------------------------------------------------- */

struct pmu_cex_out {
    const pmu_family *fam;
    FILE *stream, *writes, *notes;
    char *stream_text, *writes_text, *notes_text;
    size_t stream_len, writes_len, notes_len;
    uint64_t records, nwrites, nnotes;
    uint64_t first; /* the cycle of the trace's first clock (after the preamble) */
    uint64_t state[PMU_CEX_STATE]; /* the family part's (pmu_cex_state) */
};

unsigned pmu_cex_model(const pmu_cex *t) { return t->model; }

unsigned pmu_cex_steps(const pmu_cex *t) { return t->steps; }

uint64_t *pmu_cex_state(pmu_cex_out *o) { return o->state; }

void pmu_cex_record(pmu_cex_out *o, uint64_t repeat, const char *fmt, ...)
{
    va_list ap;
    if (repeat > 1)
        fprintf(o->stream, "repeat=%" PRIu64 " ", repeat);
    va_start(ap, fmt);
    vfprintf(o->stream, fmt, ap);
    va_end(ap);
    fputc('\n', o->stream);
    o->records += repeat;
}

static void reg_line(pmu_cex_out *o, const char *what, uint16_t addr, uint64_t value)
{
    char reg[64];
    pmu_writes_reg_name(o->fam, addr, reg, sizeof reg);
    fprintf(o->writes, "at %" PRIu64 " %s %s 0x%" PRIx64 "\n", o->records, what, reg, value);
}

void pmu_cex_write(pmu_cex_out *o, uint16_t addr, uint64_t value)
{
    reg_line(o, "write", addr, value);
    o->nwrites++;
}

void pmu_cex_expect(pmu_cex_out *o, uint16_t addr, uint64_t value) { reg_line(o, "expect", addr, value); }

static void vcomment(pmu_cex_out *o, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    fputs("# ", o->stream);
    vfprintf(o->stream, fmt, ap);
    fputs("\n# ", o->writes);
    vfprintf(o->writes, fmt, again);
    fputc('\n', o->writes);
    fputc('\n', o->stream);
    va_end(again);
}

void pmu_cex_comment(pmu_cex_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vcomment(o, fmt, ap);
    va_end(ap);
}

void pmu_cex_note(pmu_cex_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vcomment(o, fmt, ap);
    va_end(ap);
    fputs("  note: ", o->notes);
    va_start(ap, fmt);
    vfprintf(o->notes, fmt, ap);
    va_end(ap);
    fputc('\n', o->notes);
    o->nnotes++;
}

/* ---- the command ------------------------------------------------------------------------------ */

static void cex_help(FILE *f)
{
    fprintf(f, "usage: %s cex2replay [--family NAME] [--model NAME] [--out DIR] CEX.vcd\n"
               "\n"
               "Turns a counterexample of a family's formal checker (the VCD yosys-smtbmc writes:\n"
               "build/formal/<family>/<property>/cex.vcd, or mutant/cex.vcd) into a replay:\n"
               "DIR/replay-stream.txt (the records the solver chose, after a preamble that takes the\n"
               "reset PMU to the trace's start state) and DIR/replay-writes.txt (the register writes\n"
               "at their cycles, and the start state as expects), and prints the `pmusim run` command\n"
               "that replays it in lock-step with a waveform (docs/formal.md).\n"
               "\n"
               "  --family NAME      the checker's family (default: from the VCD's top module;\n"
               "                     checkers:",
            pmu_cli_title);
    int any = 0;
    for (unsigned i = 0; i < pmu_nfamilies; i++) {
        const pmu_family_cmds *c = pmu_families[i]->cmds;
        for (const pmu_cex_family *x = c ? c->cex : NULL; x; x = x->next)
            fprintf(f, "%s %s for %s", any++ ? "," : "", x->checker, pmu_families[i]->name);
    }
    fprintf(f, ")\n"
               "  --model NAME       the model to replay, for a checker that holds several (default:\n"
               "                     the one whose assertion fails)\n"
               "  --out DIR          where the two files go (default: the VCD's directory)\n"
               "\n"
               "exit status: 0 written, 1 a file could not be written, 2 bad arguments or input\n");
}

static const pmu_cli_cmd cex_cmd = {.name = "cex2replay", .help = cex_help, .min_args = 1, .max_args = 1,
                                    .args_what = "a counterexample VCD"};

/* The family whose checker is top (or the one --family named, which must be), and its part
 * for that checker (*cx). */
static const pmu_family *cex_family(const char *family, const char *top, const char *vcd,
                                    const pmu_cex_family **cx, pmu_err *err)
{
    char list[320] = "";
    for (unsigned i = 0; i < pmu_nfamilies; i++) {
        const pmu_family *f = pmu_families[i];
        for (const pmu_cex_family *x = f->cmds ? f->cmds->cex : NULL; x; x = x->next) {
            if (!strcmp(x->checker, top) && (!family || pmu_family_find(family) == f)) {
                *cx = x;
                return f;
            }
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s (%s)", *list ? ", " : "", x->checker,
                     f->name);
        }
    }
    const pmu_family *f = family ? pmu_family_find(family) : NULL;
    if (family && !f)
        pmu_errf(err, PMU_E_INPUT, "--family: no family '%s'", family);
    else if (f && (!f->cmds || !f->cmds->cex))
        pmu_errf(err, PMU_E_INPUT, "--family %s: the %s has no formal checker to replay yet (checkers: %s)", f->name,
                 f->title, list);
    else
        pmu_errf(err, PMU_E_INPUT, "%s: top module '%s': expected a family's checker: %s", vcd, top, list);
    return NULL;
}

/* The model trace t replays: --model's (name), or the one whose assertion fails (the
 * family's hook), or the family's default; why[] says which and how, for the report. */
static int cex_model(const pmu_family *fam, const pmu_cex_family *cx, pmu_cex *t, const char *name, char *why,
                     size_t size, pmu_err *err)
{
    t->model = fam->default_model;
    if (name) {
        int m = pmu_family_model(fam, name);
        if (m < 0) {
            char list[256] = "";
            for (unsigned i = 0; i < fam->nmodels; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", fam->models[i].name);
            return pmu_errf(err, PMU_E_INPUT, "--model: the %s has no model '%s', expected one of: %s", fam->title,
                            name, list);
        }
        t->model = (unsigned)m;
        if (fam->nmodels > 1)
            snprintf(why, size, "model: %s (--model)", fam->models[m].name);
        return 0;
    }
    if (!cx->model)
        return 0;
    char how[128] = "";
    if (cx->model(t, &t->model, how, sizeof how, err))
        return -1;
    snprintf(why, size, "model: %s (%s; --model to choose)", fam->models[t->model].name, how);
    return 0;
}

static int put(pmu_files *fs, const char *dir, const char *file, const char *text, size_t len, char *path,
               size_t size, pmu_err *err)
{
    snprintf(path, size, "%s/%s", dir, file);
    pmu_outfile *o = pmu_files_output(fs, "--out", path, 0, err);
    FILE *f = o ? pmu_outfile_fopen(o, "--out", err) : NULL;
    if (!f)
        return -1;
    fwrite(text, 1, len, f);
    return pmu_outfile_fclose(o, "--out", f, err);
}

/* The visible registers of trace t at `step` (before its clock), and which the trace shows. */
static int trace_vis(const pmu_family *fam, const pmu_cex_family *cx, const pmu_cex *t, unsigned step, uint64_t *vis,
                     unsigned char *shown, pmu_err *err)
{
    memset(vis, 0, fam->nvis * sizeof *vis);
    memset(shown, !cx->vis, fam->nvis);
    if (cx->vis)
        return cx->vis(t, step, vis, shown, err);
    for (unsigned v = 0; v < fam->nvis; v++)
        if (pmu_cex_get(t, "dut.obs_vis_o", step, v * 64, 64, &vis[v], err))
            return -1;
    return 0;
}

/* The clock of trace t at `step`. */
static int trace_clock(const pmu_cex_family *cx, const pmu_cex *t, unsigned step, pmu_cex_clock *c, pmu_err *err)
{
    memset(c, 0, sizeof *c);
    if (cx->clock)
        return cx->clock(t, step, c, err);
    uint64_t we, valid, addr, data;
    if (pmu_cex_get(t, "reg_we_i", step, 0, 1, &we, err) || pmu_cex_get(t, "cyc_valid_i", step, 0, 1, &valid, err) ||
        pmu_cex_get(t, "reg_addr_i", step, 0, 16, &addr, err) || pmu_cex_get(t, "reg_wdata_i", step, 0, 64, &data, err))
        return -1;
    if (we && valid)
        return pmu_errf(err, PMU_E_INPUT, "step %u: a register write and a step in one clock, expected one or "
                        "the other (the harness never does both: the checker assumes it)", step);
    c->write = (int)we;
    c->step = (int)valid;
    c->addr = (uint16_t)addr;
    c->data = data;
    return 0;
}

/* The replay of trace t for family fam into o; prints where the trace's clocks are. */
static int convert(const pmu_family *fam, const pmu_cex_family *cx, const pmu_cex *t, pmu_cex_out *o, FILE *out,
                   pmu_err *err)
{
    uint64_t start[PMU_VIS_MAX], vis[PMU_VIS_MAX];
    unsigned char shown[PMU_VIS_MAX];
    /* a clock, the step that shows it (a view shows it in its own step) and the step the
     * clocked assertion reports it in */
    const unsigned min = cx->views ? 2 : 3;
    if (t->steps < min)
        return pmu_errf(err, PMU_E_INPUT, "the trace has %u step%s, expected %u or more (a clock, %sthe step the "
                        "clocked assertion reports it in)", t->steps, t->steps == 1 ? "" : "s", min,
                        cx->views ? "" : "the step that shows it, and ");
    if (trace_vis(fam, cx, t, 0, start, shown, err))
        return -1;
    pmu_cex_comment(o, "the replay of a counterexample of %s (%s%s%s), %u steps: pmusim cex2replay (docs/formal.md)",
                    t->top, fam->title, fam->nmodels > 1 ? ", model " : "",
                    fam->nmodels > 1 ? fam->models[t->model].name : "", t->steps);
    pmu_cex_comment(o, "preamble: from reset to the trace's start state (step 0)");
    if (cx->preamble(t, start, o, err))
        return -1;
    const uint64_t first = o->first = o->records;
    pmu_cex_comment(o, "the start state, as the trace has it at step 0");
    for (unsigned v = 0; v < fam->nvis; v++)
        if (shown[v])
            pmu_cex_expect(o, fam->vis[v].addr, start[v]);
    fprintf(out, "start state (step 0): reached by a preamble of %" PRIu64 " records and %" PRIu64
                 " writes; checked by expects at cycle %" PRIu64 "\n", first, o->nwrites, first);
    uint64_t fail_cycle = 0;
    const char *fail_kind = "";
    char fail_write[112] = ""; /* the failing clock's write, ": REG 0xVALUE at address 0xADDR" */
    /* the clock the failing assertion is about (an immediate one: the last step's own) */
    const unsigned fail = cx->immediate ? t->steps - 1 : t->steps - 3 + (cx->views != 0);
    for (unsigned s = 0; s + 1 < t->steps; s++) {
        pmu_cex_clock c;
        if (trace_clock(cx, t, s, &c, err) || trace_vis(fam, cx, t, s, vis, shown, err))
            return -1;
        if (s == fail)
            fail_cycle = o->records;
        if (c.step) {
            pmu_cex_comment(o, "trace step %u: a step%s", s,
                            c.write ? ", and a register write, which retires the record first" : "");
            if (cx->record(t, s, vis, o, err))
                return -1;
            if (s == fail)
                fail_kind = "the step of record";
        }
        if (!c.step && !c.write) {
            pmu_cex_note(o, "trace step %u: a clock with neither a write nor a step, replayed as a write to "
                         "address 0x%x, which no register answers", s, cx->idle_addr);
            c.addr = cx->idle_addr;
            c.data = 0;
        } else if (c.write && !c.step) {
            pmu_cex_comment(o, "trace step %u: a register write", s);
        }
        if (c.write || !c.step) {
            pmu_cex_write(o, c.addr, c.data);
            char reg[64];
            if (c.write)
                pmu_writes_reg_name(fam, c.addr, reg, sizeof reg);
            else
                snprintf(reg, sizeof reg, "0x%x", c.addr);
            if (s == fail && c.step && !cx->views) { /* (a view shows the record before the write) */
                snprintf(fail_write, sizeof fail_write, ", then a write: %s 0x%" PRIx64, reg, c.data);
            } else if (s == fail && !c.step) {
                snprintf(fail_write, sizeof fail_write, ": %s 0x%" PRIx64 " at address 0x%x", reg, c.data, c.addr);
                fail_kind = "a write before record";
            }
        }
    }
    /* Writes wait for the record they come before: the inputs of the last step, which the
     * trace does not clock, make it. */
    if (trace_vis(fam, cx, t, t->steps - 1, vis, shown, err))
        return -1;
    pmu_cex_comment(o, "trace step %u: its record inputs as one more record (after the trace's last clock)",
                    t->steps - 1);
    if (fail == t->steps - 1) {
        fail_cycle = o->records;
        fail_kind = "the step of record";
    }
    if (cx->record(t, t->steps - 1, vis, o, err))
        return -1;
    fprintf(out, "trace: the clocks of steps 0..%u from cycle %" PRIu64 "; the assertion failing at step %u (the "
                 "solver's step) is about the clock of step %u: cycle %" PRIu64 " (%s %" PRIu64 "%s)\n",
            t->steps - 2, first, t->steps - 1, fail, fail_cycle, fail_kind, fail_cycle, fail_write);
    return 0;
}

int pmusim_cmd_cex2replay(int argc, char **argv)
{
    const char *family = NULL, *outdir = NULL, *model = NULL;
    pmu_opt opts[3] = {
        {.name = "family", .kind = PMU_OPT_TEXT, .dest = &family},
        {.name = "model", .kind = PMU_OPT_TEXT, .dest = &model},
        {.name = "out", .kind = PMU_OPT_FILE, .dest = &outdir},
    };
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&cex_cmd, opts, 3, argc, argv, args, &nargs);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    const char *vcd = args[0];
    pmu_err err;
    pmu_files *fs = pmu_files_new();
    char *text = NULL;
    size_t len;
    pmu_cex *t = NULL;
    pmu_cex_out o = {0};
    int status = PMU_EXIT_OK;
    if (!fs) {
        pmu_errf(&err, PMU_E_NOMEM, "out of memory");
        goto fail;
    }
    if (pmu_files_read(fs, "CEX.vcd", vcd, VCD_LIMIT, "a counterexample", &text, &len, &err))
        goto fail;
    if (memchr(text, 0, len)) {
        pmu_errf(&err, PMU_E_INPUT, "%s: expected a VCD (text), found a NUL byte", vcd);
        goto fail;
    }
    if (!(t = cex_parse(text, vcd, &err)))
        goto fail;
    const pmu_cex_family *cx = NULL;
    if (!(o.fam = cex_family(family, t->top, vcd, &cx, &err)))
        goto fail;
    char model_why[200] = "";
    if (cex_model(o.fam, cx, t, model, model_why, sizeof model_why, &err)) {
        char msg[sizeof err.msg];
        snprintf(msg, sizeof msg, "%s", err.msg);
        pmu_errf(&err, err.code, "%s: %s", vcd, msg);
        goto fail;
    }
    o.stream = open_memstream(&o.stream_text, &o.stream_len);
    o.writes = open_memstream(&o.writes_text, &o.writes_len);
    o.notes = open_memstream(&o.notes_text, &o.notes_len);
    if (!o.stream || !o.writes || !o.notes) {
        pmu_errf(&err, PMU_E_NOMEM, "out of memory");
        goto fail;
    }
    FILE *out = pmu_cli_out(&cex_cmd);
    char head[512];
    snprintf(head, sizeof head, "pmusim cex2replay: %s, checker %s of the %s, %u steps\n%s%s", vcd, t->top,
             o.fam->title, t->steps, model_why, *model_why ? "\n" : "");
    char *report = NULL;
    size_t report_len = 0;
    FILE *rep = open_memstream(&report, &report_len);
    if (!rep) {
        pmu_errf(&err, PMU_E_NOMEM, "out of memory");
        goto fail;
    }
    int bad = convert(o.fam, cx, t, &o, rep, &err);
    fclose(rep);
    fclose(o.stream), o.stream = NULL;
    fclose(o.writes), o.writes = NULL;
    fclose(o.notes), o.notes = NULL;
    if (bad) {
        free(report);
        char msg[sizeof err.msg];
        snprintf(msg, sizeof msg, "%s", err.msg);
        pmu_errf(&err, err.code, "%s: %s", vcd, msg);
        goto fail;
    }
    char dir[4096], spath[4200], wpath[4200];
    if (outdir) {
        snprintf(dir, sizeof dir, "%s", outdir);
    } else {
        const char *slash = strrchr(vcd, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - vcd) : 1, slash ? vcd : ".");
    }
    if (put(fs, dir, "replay-stream.txt", o.stream_text, o.stream_len, spath, sizeof spath, &err) ||
        put(fs, dir, "replay-writes.txt", o.writes_text, o.writes_len, wpath, sizeof wpath, &err) ||
        pmu_files_commit(fs, &err)) {
        free(report);
        goto fail;
    }
    fputs(head, out);
    fwrite(report, 1, report_len, out);
    free(report);
    if (o.nnotes)
        fprintf(out, "%" PRIu64 " inputs no record carries, replayed as the RTL treats them:\n%s", o.nnotes,
                o.notes_text);
    char model_arg[64] = "";
    if (cx->model || model)
        snprintf(model_arg, sizeof model_arg, " --model %s", o.fam->models[t->model].name);
    fprintf(out, "wrote %s and %s\nreplay (the waveform from the trace's first clock):\n  %s run --family %s%s --stream %s "
                 "--writes %s --waves %s/replay.fst --wave-from %" PRIu64 "\n",
            spath, wpath, pmu_cli_program, o.fam->name, model_arg, spath, wpath, dir, o.first);
    goto done;
fail:
    status = pmu_cli_error(&cex_cmd, &err);
done:
    if (o.stream)
        fclose(o.stream);
    if (o.writes)
        fclose(o.writes);
    if (o.notes)
        fclose(o.notes);
    free(o.stream_text);
    free(o.writes_text);
    free(o.notes_text);
    cex_free(t);
    free(text);
    pmu_files_free(fs);
    return status;
}
