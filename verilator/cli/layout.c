/*
 * layout.c - the GTKWave save file that `pmusim run --waves` writes beside the FST: the
 * family's layout (docs/pmusim.gtkw for the Itanium family) with its dump file, the view
 * on the window the FST holds and the primary marker on the clock to look at
 * (docs/debugging.md, "The waveform").
 */
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
#define PANE_BORDERS 40       /* pixels of the wave pane's scroll bar and borders */

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

double pmu_cli_wave_zoom(const char *layout, uint64_t from, uint64_t records)
{
    long pane = layout_number(layout, "[size]", 1600) - layout_number(layout, "[signals_width]", 300) -
                layout_number(layout, "[sst_width]", 0) - PANE_BORDERS;
    if (pane < 200)
        pane = 200;
    const double span = records > from ? (double)(records - from) * PS_PER_RECORD : PS_PER_RECORD;
    return -log2(span / (double)pane); /* GTKWave shows 2^-zoom time units a pixel */
}

void pmu_cli_wave_layout(FILE *f, const char *layout, const char *fst, uint64_t from,
                         uint64_t records, const pmu_cosim_mismatch *m)
{
    const uint64_t marker = pmu_cli_wave_marker(m, records);
    if (m)
        fprintf(f, "[*] written by pmusim beside %s: marker on the mismatch, cycle %" PRIu64 "\n",
                fst, m->cycle);
    else
        fprintf(f, "[*] written by pmusim beside %s: marker on the last record, %" PRIu64 "\n",
                fst, records ? records - 1 : 0);
    for (const char *l = layout; *l;) {
        const char *nl = strchr(l, '\n');
        const int len = (int)(nl ? nl - l : (ptrdiff_t)strlen(l));
        if (strncmp(l, "[dumpfile]", 10) == 0) {
            fprintf(f, "[dumpfile] \"%s\"\n", fst);
        } else if (strncmp(l, "[timestart]", 11) == 0) {
            fprintf(f, "[timestart] %" PRIu64 "\n", from * PS_PER_RECORD);
            fprintf(f, "*%.6f %" PRIu64, pmu_cli_wave_zoom(layout, from, records), marker);
            for (unsigned k = 0; k < GTKW_NAMED_MARKERS; k++)
                fputs(" -1", f);
            fputc('\n', f);
        } else if (l[0] != '*') { /* a zoom line of the layout's own gives way to this one */
            fprintf(f, "%.*s\n", len, l);
        }
        l = nl ? nl + 1 : l + len;
    }
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
