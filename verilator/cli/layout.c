/*
 * layout.c - the GTKWave save file that `pmusim run --waves` writes beside the FST: the
 * family's layout (docs/pmusim.gtkw for the Itanium family) with its dump file, the view
 * on the window the FST holds, the primary marker on the clock to look at and, after a
 * mismatch, the groups showing its register first (docs/debugging.md, "The waveform").
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pmu_cli.h"

/* The waveform's time: 1 ns a record, in the FST's 1 ps resolution; record T is on the
 * inputs from T ns and clocked in at T.5 ns. */
#define PS_PER_RECORD 1000u
#define PS_TO_EDGE 500u
#define GTKW_NAMED_MARKERS 26 /* GTKWave's markers A..Z, after the primary one */
/* GTKWave's zoom (its calczoom()): a frame of 200 pixels shows 2^-zoom time units (the
 * default zoombase, 2), so 2^-zoom / 200 ps a pixel in the FST's 1 ps unit. */
#define GTKW_PIXELS_PER_FRAME 200.0
/* Pixels of the window that are not wave pane with docs/pmusim.gtkw: GTKWave sizes the
 * signal pane to its longest name and value, whatever [signals_width] says; measured under
 * Xvfb with [size] 1200, 1600 and 1900 wide (972..975 px, docs/debugging.md). */
#define PANE_OVERHEAD 980
#define PANE_MIN 200
/* The window fills this part of the pane, so that a wider signal pane (another font)
 * still leaves its end, where the mismatch is, on screen. */
#define PANE_FILL 0.75
/* GTKWave's trace flags (the "@hex" lines of a save file; its analyzer.h TR_*). */
#define TR_HIGHLIGHT 0x1ul
#define TR_COLLAPSED 0x1000ul
#define TR_CLOSED 0x400000ul
#define TR_GRP_BEGIN 0x800000ul
#define TR_GRP_END 0x1000000ul

/* The layout's value of "[key] N" (its window's geometry), or dflt. */
static long layout_number(const char *layout, const char *key, long dflt)
{
    const size_t k = strlen(key);
    for (const char *l = layout; l && *l;) {
        if (strncmp(l, key, k) == 0)
            return strtol(l + k, NULL, 10);
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    return dflt;
}

uint64_t pmu_cli_wave_marker(const pmu_cosim_mismatch *m, uint64_t records)
{
    /* A step disagreed at its edge; a register write or read before record N shows at
     * N ns, just after the port's short clocks. */
    if (m)
        return m->cycle * PS_PER_RECORD + (m->clock == PMU_COSIM_STEP ? PS_TO_EDGE : 0);
    return (records ? records - 1 : 0) * PS_PER_RECORD + PS_TO_EDGE;
}

double pmu_cli_wave_pane(const char *layout)
{
    const long pane = layout_number(layout, "[size]", 1600) - PANE_OVERHEAD;
    return pane < PANE_MIN ? PANE_MIN : (double)pane;
}

double pmu_cli_wave_zoom(const char *layout, uint64_t from, uint64_t records)
{
    const double span = records > from ? (double)(records - from) * PS_PER_RECORD : PS_PER_RECORD;
    const double ps_per_pixel = span / (pmu_cli_wave_pane(layout) * PANE_FILL);
    return -log2(ps_per_pixel * GTKW_PIXELS_PER_FRAME);
}

/* Whether a token of a group's title names reg: the name itself ("PMC4", "pmi") or a
 * range holding it ("PMD8..PMD16", "PMC13..15"). */
static int token_names(const char *tok, size_t len, const char *reg)
{
    if (strlen(reg) == len && strncmp(tok, reg, len) == 0)
        return 1;
    size_t p = 0;
    while (p < len && ((tok[p] >= 'A' && tok[p] <= 'Z') || (tok[p] >= 'a' && tok[p] <= 'z')))
        p++;
    if (p == 0 || p == len || strncmp(tok, reg, p) != 0 || reg[p] < '0' || reg[p] > '9')
        return 0;
    char *end;
    const unsigned long lo = strtoul(tok + p, &end, 10), n = strtoul(reg + p, NULL, 10);
    unsigned long hi = lo;
    size_t q = (size_t)(end - tok);
    if (q + 2 < len && tok[q] == '.' && tok[q + 1] == '.') {
        q += 2;
        if (strncmp(tok + q, tok, p) == 0) /* PMD8..PMD16 */
            q += p;
        hi = strtoul(tok + q, &end, 10);
    }
    return n >= lo && n <= hi;
}

int pmu_cli_wave_group_names(const char *title, size_t len, const char *reg)
{
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && (isalnum((unsigned char)title[j]) || title[j] == '.'))
            j++;
        if (j > i && token_names(title + i, j - i, reg))
            return 1;
        i = j > i ? j : i + 1;
    }
    return 0;
}

/* The line after the one at l (the layout's end after its last line). */
static const char *next_line(const char *l)
{
    const char *nl = strchr(l, '\n');
    return nl ? nl + 1 : l + strlen(l);
}

static int line_len(const char *l)
{
    const char *nl = strchr(l, '\n');
    return (int)(nl ? nl - l : (ptrdiff_t)strlen(l));
}

static unsigned long line_flags(const char *l)
{
    return l[0] == '@' ? strtoul(l + 1, NULL, 16) : 0;
}

/* The end (past its closing title) of the group whose "@" line is at l, or l when that
 * line opens no group. */
static const char *group_end(const char *l)
{
    if (!(line_flags(l) & TR_GRP_BEGIN))
        return l;
    int depth = 0;
    for (const char *k = l; *k; k = next_line(k)) {
        const unsigned long f = line_flags(k);
        if (f & TR_GRP_BEGIN)
            depth++;
        if ((f & TR_GRP_END) && --depth == 0)
            return next_line(next_line(k));
    }
    return l + strlen(l);
}

/* The group at l or, outside a group, its one line. */
static const char *item_end(const char *l)
{
    const char *e = group_end(l);
    return e > l ? e : next_line(l);
}

/* Writes the lines from l to e, the group of the mismatching register highlighted and
 * open. */
static void write_lines(FILE *f, const char *l, const char *e, int highlight)
{
    for (; l < e; l = next_line(l)) {
        if (highlight && l[0] == '@')
            fprintf(f, "@%lx\n", (line_flags(l) | TR_HIGHLIGHT) & ~(TR_CLOSED | TR_COLLAPSED));
        else
            fprintf(f, "%.*s\n", line_len(l), l);
    }
}

/* Whether the group at l (its "@" line, then its title) shows register reg. */
static int group_shows(const char *l, const char *reg)
{
    if (!reg || group_end(l) == l)
        return 0;
    const char *title = next_line(l);
    return title[0] == '-' && pmu_cli_wave_group_names(title + 1, (size_t)line_len(title) - 1, reg);
}

void pmu_cli_wave_layout(FILE *f, const char *layout, const char *fst, uint64_t from,
                         uint64_t records, const pmu_cosim_mismatch *m)
{
    const uint64_t marker = pmu_cli_wave_marker(m, records);
    if (m)
        fprintf(f, "[*] written by pmusim beside %s: marker on the mismatch, cycle %" PRIu64
                   " (%s, its group first and highlighted)\n",
                fst, m->cycle, m->reg);
    else
        fprintf(f, "[*] written by pmusim beside %s: marker on the last record, %" PRIu64 "\n",
                fst, records ? records - 1 : 0);
    const char *l = layout; /* the settings before the first trace */
    for (; *l && l[0] != '@' && l[0] != '-'; l = next_line(l)) {
        if (strncmp(l, "[dumpfile]", 10) == 0) {
            fprintf(f, "[dumpfile] \"%s\"\n", fst);
        } else if (strncmp(l, "[timestart]", 11) == 0) {
            fprintf(f, "[timestart] %" PRIu64 "\n", from * PS_PER_RECORD);
            fprintf(f, "*%.6f %" PRIu64, pmu_cli_wave_zoom(layout, from, records), marker);
            for (unsigned j = 0; j < GTKW_NAMED_MARKERS; j++)
                fputs(" -1", f);
            fputc('\n', f);
        } else if (l[0] != '*') { /* a zoom line of the layout's own gives way to this one */
            fprintf(f, "%.*s\n", line_len(l), l);
        }
    }
    /* The groups showing the mismatching register first, then the others in order. */
    const char *reg = m && m->reg[0] ? m->reg : NULL;
    for (const char *k = l; *k; k = item_end(k))
        if (group_shows(k, reg))
            write_lines(f, k, item_end(k), 1);
    for (const char *k = l; *k; k = item_end(k))
        if (!group_shows(k, reg))
            write_lines(f, k, item_end(k), 0);
}

int pmu_cli_layout_prepare(pmu_files *files, const pmu_family *fam, const char *fst,
                           pmu_outfile **out, pmu_err *err)
{
    *out = NULL;
    if (!fam->wave_layout)
        return 0;
    char path[4096];
    if (pmu_outfile_beside(fst, ".gtkw", path, sizeof path, err) ||
        !(*out = pmu_files_output(files, "--waves", path, 0, err)))
        return -1;
    return 0;
}

typedef struct layout_args {
    const pmu_family *fam;
    const char *fst;
    uint64_t from, records;
    const pmu_cosim_mismatch *m;
} layout_args;

static void write_layout(FILE *f, const void *arg)
{
    const layout_args *a = arg;
    pmu_cli_wave_layout(f, a->fam->wave_layout, a->fst, a->from, a->records, a->m);
}

int pmu_cli_layout_commit(pmu_outfile *o, const pmu_family *fam, const char *fst, uint64_t from,
                          uint64_t records, const pmu_cosim_mismatch *m, pmu_err *err)
{
    const layout_args a = {fam, fst, from, records, m};
    return pmu_outfile_write(o, "--waves", write_layout, &a, err);
}
