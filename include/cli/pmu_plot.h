/*
 * cli/pmu_plot.h - pictures of a command's results (--plot FILE, docs/plots.md): counter
 * timelines of a run (verilator/cli/timeline.c) and bar charts, drawn with cairo
 * (verilator/cli/plot.c) into SVG, PNG or PDF as the file's extension says.
 *
 * A timeline is reduced while the run goes: each series keeps a minimum and a maximum per
 * column of the picture, so that a run of any length plots in the same memory.  A column
 * covers 2^k cycles; when the run outgrows the columns, neighbours merge and a column
 * covers twice as many.  The run feeds it at column boundaries and around every interrupt
 * (pmu_plot_tap), never on every cycle.
 */
#ifndef PMU_PLOT_H
#define PMU_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_outfile.h"
#include "common/pmu_err.h"
#include "common/pmu_family.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the picture's format ------------------------------------------------------------- */
typedef enum pmu_plot_format { PMU_PLOT_SVG, PMU_PLOT_PNG, PMU_PLOT_PDF } pmu_plot_format;
/* The format `path`'s extension names (.svg, .png, .pdf, any case): 0, or -1 with err
 * filled (PMU_E_INPUT: "--plot 'x.gif': expected a file name ending .svg, .png or .pdf"). */
int pmu_plot_format_of(const char *opt, const char *path, pmu_plot_format *fmt, pmu_err *err);
/* Prepares --plot's output in files (after the inputs are registered): checks the
 * extension, then as pmu_files_output.  NULL with err filled. */
pmu_outfile *pmu_plot_output(pmu_files *files, const char *opt, const char *path, pmu_err *err);

/* ---- the per-column reducer ---------------------------------------------------------- */
#define PMU_TIMELINE_MAX_SERIES 32
#define PMU_TIMELINE_COLUMNS 1000 /* the columns of a timeline plot's drawing area */

typedef struct pmu_timeline pmu_timeline;
/* A reducer of nseries series (<= PMU_TIMELINE_MAX_SERIES) into `columns` (even, >= 2)
 * columns of one cycle each to start with; NULL when out of memory. */
pmu_timeline *pmu_timeline_new(unsigned nseries, unsigned columns);
void pmu_timeline_free(pmu_timeline *t);
/* The values of every series after `cycle` clocks (cycles fed never go back). */
void pmu_timeline_feed(pmu_timeline *t, uint64_t cycle, const uint64_t *values);
/* Marks at a cycle: an interrupt (the line rose), a wrap of series s, a frozen PMU. */
void pmu_timeline_interrupt(pmu_timeline *t, uint64_t cycle);
void pmu_timeline_wrap(pmu_timeline *t, uint64_t cycle, unsigned series);
void pmu_timeline_frozen(pmu_timeline *t, uint64_t cycle);
/* A record of privilege level `level` (0..7) ran at `cycle`. */
void pmu_timeline_level(pmu_timeline *t, uint64_t cycle, unsigned level);
/* The first column boundary after `cycle`: where the next sample is due. */
uint64_t pmu_timeline_next(const pmu_timeline *t, uint64_t cycle);

/* What a reducer holds, for drawing: `used` columns of `per_column` cycles each. */
typedef struct pmu_timeline_view {
    unsigned nseries, columns, used;
    uint64_t per_column;
    uint64_t last;                 /* the last cycle fed */
    const uint64_t *min, *max;     /* [column * nseries + series] */
    const uint8_t *seen;           /* a sample fell in the column */
    const uint32_t *interrupts;    /* interrupts that rose in the column */
    const uint32_t *wraps;         /* bit s: series s wrapped in the column */
    const uint8_t *frozen;         /* the PMU was frozen at a sample in the column */
    const uint8_t *levels;         /* bit l: a sampled record ran at privilege level l */
    /* The levels' names for the privilege band (set by the caller; nlevels 0: no band). */
    const char *const *level_names;
    unsigned nlevels;
} pmu_timeline_view;
void pmu_timeline_get(const pmu_timeline *t, pmu_timeline_view *v);

/* ---- a run's timeline: what the loop's hooks feed ------------------------------------ */
/* One counter a family plots (pmu_family_cmds.plot_counters): bits msb..lsb of visible
 * register `vis` are its raw value; pmu_total(reference, total) its exact 64-bit count;
 * freeze_vis (NULL: none) bit freeze_bit is set while the PMU is frozen. */
typedef struct pmu_plot_counter {
    const char *name;
    const char *vis;
    unsigned msb, lsb;
    unsigned total;
    const char *freeze_vis;
    unsigned freeze_bit;
} pmu_plot_counter;

typedef struct pmu_plot_tap pmu_plot_tap;
/* A timeline of fam's counters on the run's backend b (the loop's); the 64-bit counts come
 * from its reference when it keeps exact totals.  NULL with err filled (a family with no
 * counters to plot: PMU_E_UNSUPPORTED). */
pmu_plot_tap *pmu_plot_tap_new(const pmu_family *fam, pmu_backend *b, pmu_err *err);
/* Puts the tap around the software's hooks *h (once they are filled): it samples at each
 * column boundary and around each call of the software's `after`. */
void pmu_plot_tap_hooks(pmu_plot_tap *t, pmu_record_hooks *h);
/* The last sample, at the run's end. */
void pmu_plot_tap_end(pmu_plot_tap *t);
/* Draws the timeline into o (its format by its target's extension) and commits it. */
int pmu_plot_tap_write(pmu_plot_tap *t, pmu_outfile *o, const char *title, pmu_err *err);
/* --plot-data: the reduced series as text, each column's values and where the picture
 * draws them (docs/plots.md, "The data behind a timeline"). */
void pmu_plot_tap_data(FILE *f, const void *tap);
void pmu_plot_tap_free(pmu_plot_tap *t);

/* ---- drawing ------------------------------------------------------------------------- */
/* A timeline panel: one series' columns, its name and what it counts. */
typedef struct pmu_plot_panel {
    const char *title;
    unsigned series;      /* in the view */
    int shade_frozen, mark_wraps;
} pmu_plot_panel;

/* The geometry of a timeline picture: panel p's drawing area, and where a value falls. */
typedef struct pmu_plot_geom {
    double width, height;
    double head;                 /* the title and the bands above the first panel */
    double left, right;          /* x of the first and past the last column */
    double top[PMU_TIMELINE_MAX_SERIES], bottom[PMU_TIMELINE_MAX_SERIES];
    uint64_t lo[PMU_TIMELINE_MAX_SERIES], hi[PMU_TIMELINE_MAX_SERIES]; /* the y range */
} pmu_plot_geom;
void pmu_plot_timeline_geom(const pmu_timeline_view *v, const pmu_plot_panel *p, unsigned npanels,
                            pmu_plot_geom *g);
/* The y of value `val` in panel p, the x of the middle of column c. */
double pmu_plot_y(const pmu_plot_geom *g, unsigned p, uint64_t val);
double pmu_plot_x(const pmu_plot_geom *g, const pmu_timeline_view *v, unsigned c);
int pmu_plot_timeline(const char *path, pmu_plot_format fmt, const char *title,
                      const pmu_timeline_view *v, const pmu_plot_panel *p, unsigned npanels,
                      pmu_err *err);

/* Bar charts, one above the other: each a title, bars with labels and values. */
typedef struct pmu_plot_bars {
    const char *title;
    const char *unit;     /* what a value is ("samples", "s") */
    unsigned n;
    const char *const *labels;
    const double *values;
} pmu_plot_bars;
int pmu_plot_bar_charts(const char *path, pmu_plot_format fmt, const char *title,
                        const pmu_plot_bars *charts, unsigned ncharts, pmu_err *err);
/* The same into output o (format by its target), committed: 0, or -1 with err filled. */
int pmu_plot_bars_write(pmu_outfile *o, const char *title, const pmu_plot_bars *charts,
                        unsigned ncharts, pmu_err *err);

/* A growing list of bars (labels copied), for commands that gather them. */
typedef struct pmu_plot_barlist {
    char **labels;
    double *values;
    unsigned n, cap;
} pmu_plot_barlist;
/* Appends a bar: 0, or -1 out of memory. */
int pmu_plot_barlist_add(pmu_plot_barlist *l, const char *label, double value);
/* The list as a chart (valid while l is). */
pmu_plot_bars pmu_plot_barlist_chart(const pmu_plot_barlist *l, const char *title, const char *unit);
void pmu_plot_barlist_free(pmu_plot_barlist *l);

#ifdef __cplusplus
}
#endif
#endif
