/*
 * timeline.c - a run's counters over its cycles in bounded memory (cli/pmu_plot.h): the
 * per-column minimum/maximum reducer, and the tap that feeds it from the run loop's hooks
 * at column boundaries and around the software's interrupt service.
 *
 * Between two samples a raw counter only counts up (it moves otherwise when it wraps, which
 * raises the interrupt line, or when software writes it, which it does from the service):
 * samples at every column boundary and on both sides of every service call give each
 * column the values its line must pass.  The loop keeps stepping a record's cycles in a
 * row between them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pmu_family_cmds.h"
#include "cli/pmu_plot.h"

struct pmu_timeline {
    unsigned nseries, columns, used;
    unsigned shift;       /* a column covers 2^shift cycles */
    uint64_t last;        /* the last cycle fed */
    uint64_t *min, *max;
    uint8_t *seen, *frozen, *levels;
    uint32_t *interrupts, *wraps;
};

pmu_timeline *pmu_timeline_new(unsigned nseries, unsigned columns)
{
    if (nseries == 0 || nseries > PMU_TIMELINE_MAX_SERIES || columns < 2 || columns % 2)
        return NULL;
    pmu_timeline *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->nseries = nseries;
    t->columns = columns;
    t->min = calloc((size_t)columns * nseries, sizeof *t->min);
    t->max = calloc((size_t)columns * nseries, sizeof *t->max);
    t->seen = calloc(columns, 1);
    t->frozen = calloc(columns, 1);
    t->levels = calloc(columns, 1);
    t->interrupts = calloc(columns, sizeof *t->interrupts);
    t->wraps = calloc(columns, sizeof *t->wraps);
    if (!t->min || !t->max || !t->seen || !t->frozen || !t->levels || !t->interrupts || !t->wraps) {
        pmu_timeline_free(t);
        return NULL;
    }
    return t;
}

void pmu_timeline_free(pmu_timeline *t)
{
    if (!t)
        return;
    free(t->min);
    free(t->max);
    free(t->seen);
    free(t->frozen);
    free(t->levels);
    free(t->interrupts);
    free(t->wraps);
    free(t);
}

/* Column `to` becomes the union of columns a and b (a <= b, to <= a). */
static void merge(pmu_timeline *t, unsigned to, unsigned a, unsigned b)
{
    const unsigned n = t->nseries;
    uint64_t *mn = t->min + (size_t)to * n, *mx = t->max + (size_t)to * n;
    const uint64_t *amn = t->min + (size_t)a * n, *amx = t->max + (size_t)a * n;
    const uint64_t *bmn = t->min + (size_t)b * n, *bmx = t->max + (size_t)b * n;
    const int sa = t->seen[a], sb = t->seen[b];
    for (unsigned s = 0; s < n; s++) {
        uint64_t lo = sa ? amn[s] : bmn[s], hi = sa ? amx[s] : bmx[s];
        if (sa && sb) {
            lo = bmn[s] < lo ? bmn[s] : lo;
            hi = bmx[s] > hi ? bmx[s] : hi;
        }
        mn[s] = lo;
        mx[s] = hi;
    }
    t->seen[to] = (uint8_t)(sa | sb);
    t->frozen[to] = (uint8_t)(t->frozen[a] | t->frozen[b]);
    t->levels[to] = (uint8_t)(t->levels[a] | t->levels[b]);
    t->interrupts[to] = t->interrupts[a] + t->interrupts[b];
    t->wraps[to] = t->wraps[a] | t->wraps[b];
}

/* Every column covers twice the cycles: neighbours merge into the lower half. */
static void halve(pmu_timeline *t)
{
    const unsigned half = t->columns / 2;
    for (unsigned c = 0; c < half; c++)
        merge(t, c, 2 * c, 2 * c + 1);
    memset(t->seen + half, 0, half);
    memset(t->frozen + half, 0, half);
    memset(t->levels + half, 0, half);
    memset(t->interrupts + half, 0, half * sizeof *t->interrupts);
    memset(t->wraps + half, 0, half * sizeof *t->wraps);
    t->used = (t->used + 1) / 2;
    t->shift++;
}

/* The column of `cycle`, the columns halved until it fits. */
static unsigned column_of(pmu_timeline *t, uint64_t cycle)
{
    while ((cycle >> t->shift) >= t->columns)
        halve(t);
    const unsigned c = (unsigned)(cycle >> t->shift);
    if (c + 1 > t->used)
        t->used = c + 1;
    return c;
}

void pmu_timeline_feed(pmu_timeline *t, uint64_t cycle, const uint64_t *values)
{
    const unsigned c = column_of(t, cycle), n = t->nseries;
    t->last = cycle;
    uint64_t *mn = t->min + (size_t)c * n, *mx = t->max + (size_t)c * n;
    if (!t->seen[c]) {
        memcpy(mn, values, n * sizeof *values);
        memcpy(mx, values, n * sizeof *values);
        t->seen[c] = 1;
        return;
    }
    for (unsigned s = 0; s < n; s++) {
        if (values[s] < mn[s])
            mn[s] = values[s];
        if (values[s] > mx[s])
            mx[s] = values[s];
    }
}

void pmu_timeline_interrupt(pmu_timeline *t, uint64_t cycle) { t->interrupts[column_of(t, cycle)]++; }

void pmu_timeline_wrap(pmu_timeline *t, uint64_t cycle, unsigned series)
{
    t->wraps[column_of(t, cycle)] |= 1u << series;
}

void pmu_timeline_frozen(pmu_timeline *t, uint64_t cycle) { t->frozen[column_of(t, cycle)] = 1; }

void pmu_timeline_level(pmu_timeline *t, uint64_t cycle, unsigned level)
{
    t->levels[column_of(t, cycle)] |= (uint8_t)(1u << (level & 7u));
}

uint64_t pmu_timeline_next(const pmu_timeline *t, uint64_t cycle)
{
    return ((cycle >> t->shift) + 1) << t->shift;
}

void pmu_timeline_get(const pmu_timeline *t, pmu_timeline_view *v)
{
    *v = (pmu_timeline_view){.nseries = t->nseries, .columns = t->columns, .used = t->used,
                             .per_column = (uint64_t)1 << t->shift, .last = t->last, .min = t->min, .max = t->max,
                             .seen = t->seen, .interrupts = t->interrupts, .wraps = t->wraps,
                             .frozen = t->frozen, .levels = t->levels};
}

/* ---- the tap ------------------------------------------------------------------------------ */

#define TAP_MAX (PMU_TIMELINE_MAX_SERIES / 2) /* counters: a raw and a 64-bit series each */

struct pmu_plot_tap {
    pmu_backend *b;        /* the loop's backend: its cycle */
    pmu_backend *ref;      /* what the samples read: the reference behind b */
    int totals;            /* ref keeps exact totals: the 64-bit series */
    unsigned n;
    const pmu_plot_counter *ctr;
    int vis[TAP_MAX], freeze_vis[TAP_MAX];
    uint64_t mask[TAP_MAX], last_raw[TAP_MAX];
    int have_last;
    uint8_t last_pmi;
    pmu_timeline *tl;
    pmu_plot_panel panel[PMU_TIMELINE_MAX_SERIES];
    char names[PMU_TIMELINE_MAX_SERIES][48];
    unsigned npanels;
    pmu_record_hooks sw;   /* the software's hooks */
    const pmu_family_cmds *cmds; /* plot_level: the privilege band */
    uint64_t next;         /* the next column boundary to sample at */
    uint64_t at_cycle;     /* the earlier of next and the software's own */
};

static int vis_index(const pmu_family *fam, const char *name)
{
    for (unsigned v = 0; v < fam->nvis; v++)
        if (strcmp(fam->vis[v].name, name) == 0)
            return (int)v;
    return -1;
}

pmu_plot_tap *pmu_plot_tap_new(const pmu_family *fam, pmu_backend *b, pmu_err *err)
{
    const pmu_plot_counter *ctr = fam->cmds ? fam->cmds->plot_counters : NULL;
    if (!ctr || !ctr[0].name) {
        pmu_errf(err, PMU_E_UNSUPPORTED, "--plot: the %s family names no counters to plot", fam->title);
        return NULL;
    }
    pmu_plot_tap *t = calloc(1, sizeof *t);
    if (!t) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    t->b = b;
    t->cmds = fam->cmds->plot_level && fam->cmds->plot_nlevels <= 8 ? fam->cmds : NULL;
    t->ref = pmu_reference(b);
    t->totals = pmu_has_total(t->ref);
    t->ctr = ctr;
    while (ctr[t->n].name && t->n < TAP_MAX) {
        const pmu_plot_counter *c = &ctr[t->n];
        t->vis[t->n] = vis_index(fam, c->vis);
        t->freeze_vis[t->n] = c->freeze_vis ? vis_index(fam, c->freeze_vis) : -1;
        if (t->vis[t->n] < 0 || (c->freeze_vis && t->freeze_vis[t->n] < 0) || c->msb < c->lsb || c->msb > 63) {
            pmu_errf(err, PMU_E_INTERNAL, "--plot: counter %s: no visible register %s", c->name, c->vis);
            free(t);
            return NULL;
        }
        const unsigned w = fam->cmds->plot_width ? fam->cmds->plot_width(b->model) : c->msb - c->lsb + 1;
        t->mask[t->n] = w == 64 ? UINT64_MAX : (((uint64_t)1 << w) - 1);
        t->n++;
    }
    /* series 2k: counter k's raw bits; 2k+1: its 64-bit count (when the reference keeps it) */
    for (unsigned k = 0; k < t->n; k++) {
        snprintf(t->names[2 * k], sizeof t->names[0], "%s raw", t->ctr[k].name);
        t->panel[t->npanels++] = (pmu_plot_panel){t->names[2 * k], 2 * k, 1, 1};
        if (t->totals) {
            snprintf(t->names[2 * k + 1], sizeof t->names[0], "%s 64-bit", t->ctr[k].name);
            t->panel[t->npanels++] = (pmu_plot_panel){t->names[2 * k + 1], 2 * k + 1, 1, 0};
        }
    }
    if (!(t->tl = pmu_timeline_new(2 * t->n, PMU_TIMELINE_COLUMNS))) {
        free(t);
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    return t;
}

void pmu_plot_tap_free(pmu_plot_tap *t)
{
    if (!t)
        return;
    pmu_timeline_free(t->tl);
    free(t);
}

static void sample(pmu_plot_tap *t)
{
    pmu_state st;
    uint64_t v[PMU_TIMELINE_MAX_SERIES];
    const uint64_t cycle = t->b->cycle;
    pmu_snapshot(t->ref, &st);
    int frozen = 0;
    for (unsigned k = 0; k < t->n; k++) {
        const uint64_t raw = (st.reg[t->vis[k]] >> t->ctr[k].lsb) & t->mask[k];
        v[2 * k] = raw;
        v[2 * k + 1] = t->totals ? pmu_total(t->ref, t->ctr[k].total) : 0;
        if (t->have_last && raw < t->last_raw[k])
            pmu_timeline_wrap(t->tl, cycle, 2 * k);
        t->last_raw[k] = raw;
        if (t->freeze_vis[k] >= 0 && ((st.reg[t->freeze_vis[k]] >> t->ctr[k].freeze_bit) & 1))
            frozen = 1;
    }
    t->have_last = 1;
    pmu_timeline_feed(t->tl, cycle, v);
    if (frozen)
        pmu_timeline_frozen(t->tl, cycle);
}

static void schedule(pmu_plot_tap *t)
{
    t->at_cycle = t->next;
    if ((t->sw.at || t->sw.at_record) && *t->sw.at_cycle < t->at_cycle)
        t->at_cycle = *t->sw.at_cycle;
}

/* At a column boundary, a sample (and, given the record about to be stepped, its privilege
 * level for the band); at the software's own cycle, its activity. */
static void tap_at_both(pmu_plot_tap *t, const void *record)
{
    const uint64_t c = t->b->cycle;
    if (c >= t->next) {
        sample(t);
        if (record && t->cmds)
            pmu_timeline_level(t->tl, c, t->cmds->plot_level(record));
        t->next = pmu_timeline_next(t->tl, c);
    }
    if (t->sw.at_record && *t->sw.at_cycle == c)
        t->sw.at_record(t->sw.ctx, record);
    else if (t->sw.at && *t->sw.at_cycle == c)
        t->sw.at(t->sw.ctx);
    schedule(t);
}

static void tap_at(void *ctx) { tap_at_both(ctx, NULL); }
static void tap_at_record(void *ctx, const void *record) { tap_at_both(ctx, record); }

static void tap_before(void *ctx, void *record)
{
    pmu_plot_tap *t = ctx;
    t->sw.before(t->sw.ctx, record);
}

static int tap_admit(void *ctx, void *record, pmu_err *err)
{
    pmu_plot_tap *t = ctx;
    return t->sw.admit(t->sw.ctx, record, err);
}

/* Around the service: the line's rise is an interrupt; while it is up, the counters on
 * both sides of what the service does (a wrap, the freeze, the service's reloads). */
static void tap_after(void *ctx, const void *record, const pmu_state *st)
{
    pmu_plot_tap *t = ctx;
    if (st->pmi && !t->last_pmi)
        pmu_timeline_interrupt(t->tl, t->b->cycle);
    t->last_pmi = st->pmi;
    if (st->pmi) {
        sample(t);
        if (t->cmds)
            pmu_timeline_level(t->tl, t->b->cycle, t->cmds->plot_level(record));
    }
    t->sw.after(t->sw.ctx, record, st);
    if (st->pmi)
        sample(t);
    schedule(t);
}

void pmu_plot_tap_hooks(pmu_plot_tap *t, pmu_record_hooks *h)
{
    t->sw = *h;
    t->next = t->b->cycle; /* a sample at the start */
    schedule(t);
    *h = (pmu_record_hooks){.ctx = t, .before = h->before ? tap_before : NULL,
                            .admit = h->admit ? tap_admit : NULL,
                            .after = h->after ? tap_after : NULL, .pmi_only = h->pmi_only,
                            .wake = h->wake};
    /* with the record when the band or the software's own activity wants it */
    if (t->cmds || t->sw.at_record)
        h->at_record = tap_at_record;
    else
        h->at = tap_at;
    h->at_cycle = &t->at_cycle;
}

void pmu_plot_tap_end(pmu_plot_tap *t)
{
    sample(t);
}

static void tap_view(const pmu_plot_tap *t, pmu_timeline_view *v)
{
    pmu_timeline_get(t->tl, v);
    if (t->cmds) {
        v->level_names = t->cmds->plot_level_names;
        v->nlevels = t->cmds->plot_nlevels;
    }
}

/* The panels worth drawing: a counter whose raw value and count never moved (one the run
 * did not program) is left out, unless every one is. */
static unsigned tap_panels(const pmu_plot_tap *t, const pmu_timeline_view *v, pmu_plot_panel *out)
{
    unsigned n = 0;
    for (unsigned p = 0; p < t->npanels; p++) {
        const unsigned k = t->panel[p].series / 2;
        int moved = 0;
        for (unsigned c = 0; c < v->used && !moved; c++)
            for (unsigned s = 2 * k; s < 2 * k + 2 && v->seen[c]; s++) {
                const size_t i = (size_t)c * v->nseries + s;
                if (v->min[i] != v->max[i] || v->min[i] != v->min[s])
                    moved = 1;
            }
        if (moved)
            out[n++] = t->panel[p];
    }
    if (n == 0) {
        memcpy(out, t->panel, t->npanels * sizeof *out);
        n = t->npanels;
    }
    return n;
}

int pmu_plot_tap_write(pmu_plot_tap *t, pmu_outfile *o, const char *title, pmu_err *err)
{
    pmu_plot_format fmt;
    if (pmu_plot_format_of("--plot", pmu_outfile_target(o), &fmt, err))
        return -1;
    pmu_timeline_view v;
    tap_view(t, &v);
    pmu_plot_panel panel[PMU_TIMELINE_MAX_SERIES];
    const unsigned np = tap_panels(t, &v, panel);
    if (pmu_plot_timeline(pmu_outfile_path(o), fmt, title, &v, panel, np, err)) {
        pmu_outfile_fix_msg(o, err);
        return -1;
    }
    return pmu_outfile_commit(o, NULL, err);
}

void pmu_plot_tap_data(FILE *f, const void *arg)
{
    const pmu_plot_tap *t = arg;
    pmu_timeline_view v;
    tap_view(t, &v);
    pmu_plot_panel panel[PMU_TIMELINE_MAX_SERIES];
    const unsigned np = tap_panels(t, &v, panel);
    pmu_plot_geom g;
    pmu_plot_timeline_geom(&v, panel, np, &g);
    fprintf(f, "# pmusim plot data: %u columns of %" PRIu64 " cycle%s; x and y in pixels of the %.0fx%.0f picture\n",
            v.used, v.per_column, v.per_column == 1 ? "" : "s", g.width, g.height);
    fprintf(f, "# column first-cycle series min max x y(min) y(max)\n");
    for (unsigned c = 0; c < v.used; c++) {
        const uint64_t first = (uint64_t)c * v.per_column;
        if (v.seen[c])
            for (unsigned p = 0; p < np; p++) {
                const unsigned s = panel[p].series;
                const uint64_t lo = v.min[(size_t)c * v.nseries + s], hi = v.max[(size_t)c * v.nseries + s];
                fprintf(f, "%u %" PRIu64 " %s %" PRIu64 " %" PRIu64 " %.2f %.2f %.2f\n", c, first,
                        t->names[s], lo, hi, pmu_plot_x(&g, &v, c), pmu_plot_y(&g, p, lo), pmu_plot_y(&g, p, hi));
            }
        if (v.interrupts[c])
            fprintf(f, "%u %" PRIu64 " interrupts %u\n", c, first, v.interrupts[c]);
        for (unsigned k = 0; k < t->n; k++)
            if (v.wraps[c] >> (2 * k) & 1)
                fprintf(f, "%u %" PRIu64 " wrap %s\n", c, first, t->ctr[k].name);
        if (v.frozen[c])
            fprintf(f, "%u %" PRIu64 " frozen\n", c, first);
        for (unsigned l = 0; l < v.nlevels; l++)
            if (v.levels[c] >> l & 1)
                fprintf(f, "%u %" PRIu64 " level %s\n", c, first, v.level_names[l]);
    }
}
