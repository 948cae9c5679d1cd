/*
 * plot.c - the pictures of --plot (cli/pmu_plot.h, docs/plots.md), drawn with cairo into
 * the surface the file's extension names: SVG, PNG or PDF.  The picture is drawn into the
 * output's temporary file (pmu_outfile), which the caller commits.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <png.h>

#include "cli/pmu_plot.h"

int pmu_plot_format_of(const char *opt, const char *path, pmu_plot_format *fmt, pmu_err *err)
{
    static const char *const ext[] = {[PMU_PLOT_SVG] = ".svg", [PMU_PLOT_PNG] = ".png",
                                      [PMU_PLOT_PDF] = ".pdf"};
    const size_t len = strlen(path);
    for (unsigned f = 0; f < 3; f++)
        if (len > 4 && strcasecmp(path + len - 4, ext[f]) == 0) {
            *fmt = (pmu_plot_format)f;
            return 0;
        }
    return pmu_errf(err, PMU_E_INPUT, "%s '%s': expected a file name ending .svg, .png or .pdf", opt, path);
}

pmu_outfile *pmu_plot_output(pmu_files *files, const char *opt, const char *path, pmu_err *err)
{
    pmu_plot_format fmt;
    if (pmu_plot_format_of(opt, path, &fmt, err))
        return NULL;
    if (strcmp(path, "-") == 0) {
        pmu_errf(err, PMU_E_INPUT, "%s: expected a file name, not standard output", opt);
        return NULL;
    }
    return pmu_files_output(files, opt, path, PMU_OUT_SEEKABLE, err);
}

/* ---- surfaces ------------------------------------------------------------------------------ */

/* A surface of `fmt` for a picture of w x h (points for PDF and SVG, pixels for PNG). */
static cairo_surface_t *surface_new(const char *path, pmu_plot_format fmt, double w, double h)
{
    switch (fmt) {
    case PMU_PLOT_SVG:
        return cairo_svg_surface_create(path, w, h);
    case PMU_PLOT_PDF:
        return cairo_pdf_surface_create(path, w, h);
    default:
        return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
    }
}

/* The image surface as a PNG, without row filters and with deflate's fastest level:
 * cairo_surface_write_to_png tries every filter on every row at the default level, which
 * costs a timeline's picture about 420 million host instructions, 7 times more
 * (docs/bench.md, "The cost of --plot"); a plot's long runs of one colour compress about
 * as well without.  Rows of 32-bit pixels 0x00RRGGBB in host order. */
static cairo_status_t write_png(cairo_surface_t *s, const char *path)
{
    cairo_surface_flush(s);
    const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    unsigned char *data = cairo_image_surface_get_data(s);
    FILE *f = fopen(path, "wb");
    if (!f)
        return CAIRO_STATUS_WRITE_ERROR;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return CAIRO_STATUS_WRITE_ERROR;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 1); /* deflate's fastest: as small, on a plot */
    png_write_info(png, info);
    /* a pixel's bytes in memory: B G R X on a little-endian host, X R G B on a big-endian */
    const uint32_t one = 1;
    if (*(const unsigned char *)&one) {
        png_set_bgr(png);
        png_set_filler(png, 0, PNG_FILLER_AFTER);
    } else {
        png_set_filler(png, 0, PNG_FILLER_BEFORE);
    }
    for (int y = 0; y < h; y++)
        png_write_row(png, data + (size_t)y * (size_t)stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Finishes the picture: a PNG is written now, SVG and PDF as the surface finishes. */
static int surface_end(cairo_surface_t *s, cairo_t *cr, const char *path, pmu_plot_format fmt,
                       pmu_err *err)
{
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == PMU_PLOT_PNG)
        st = write_png(s, path);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS)
        return pmu_errf(err, PMU_E_IO, "--plot: cannot write '%s': %s", path, cairo_status_to_string(st));
    return 0;
}

static cairo_t *begin(cairo_surface_t *s, double w, double h, const char *title)
{
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, 12, 24);
    cairo_show_text(cr, title);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    cairo_set_line_width(cr, 1);
    return cr;
}

/* Text with its right edge (align 1), middle (0.5) or left edge (0) at x. */
static void text_at(cairo_t *cr, double x, double y, double align, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_move_to(cr, x - align * e.x_advance, y);
    cairo_show_text(cr, text);
}

/* ---- timelines ----------------------------------------------------------------------------- */

#define TL_WIDTH 1200.0
#define TL_LEFT 130.0          /* the drawing area: PMU_TIMELINE_COLUMNS pixels wide */
#define TL_TOP 64.0            /* below the title and the interrupt band */
#define TL_PANEL 96.0
#define TL_GAP 26.0
#define TL_BOTTOM 46.0
#define TL_BAND 30.0           /* the privilege band, under the interrupt band */
#define TL_LEGEND 18.0         /* its legend, under the cycle axis */

/* The privilege levels' colours. */
static const double level_rgb[8][3] = {{0.80, 0.20, 0.20}, {0.90, 0.60, 0.10}, {0.55, 0.35, 0.75},
                                       {0.20, 0.60, 0.30}, {0.20, 0.45, 0.80}, {0.50, 0.50, 0.50},
                                       {0.10, 0.70, 0.70}, {0.60, 0.40, 0.20}};

void pmu_plot_timeline_geom(const pmu_timeline_view *v, const pmu_plot_panel *p, unsigned npanels,
                            pmu_plot_geom *g)
{
    memset(g, 0, sizeof *g);
    g->width = TL_WIDTH;
    g->left = TL_LEFT;
    g->right = TL_LEFT + PMU_TIMELINE_COLUMNS;
    g->head = TL_TOP + (v->nlevels ? TL_BAND : 0);
    g->height = g->head + npanels * (TL_PANEL + TL_GAP) + TL_BOTTOM + (v->nlevels ? TL_LEGEND : 0);
    for (unsigned k = 0; k < npanels && k < PMU_TIMELINE_MAX_SERIES; k++) {
        g->top[k] = g->head + k * (TL_PANEL + TL_GAP) + TL_GAP;
        g->bottom[k] = g->top[k] + TL_PANEL;
        int any = 0;
        for (unsigned c = 0; c < v->used; c++) {
            if (!v->seen[c])
                continue;
            const uint64_t lo = v->min[(size_t)c * v->nseries + p[k].series];
            const uint64_t hi = v->max[(size_t)c * v->nseries + p[k].series];
            if (!any || lo < g->lo[k])
                g->lo[k] = lo;
            if (!any || hi > g->hi[k])
                g->hi[k] = hi;
            any = 1;
        }
        if (g->hi[k] == g->lo[k])
            g->hi[k] = g->lo[k] + 1;
    }
}

double pmu_plot_y(const pmu_plot_geom *g, unsigned p, uint64_t val)
{
    const double f = (double)(val - g->lo[p]) / (double)(g->hi[p] - g->lo[p]);
    return g->bottom[p] - f * (g->bottom[p] - g->top[p]);
}

double pmu_plot_x(const pmu_plot_geom *g, const pmu_timeline_view *v, unsigned c)
{
    const unsigned used = v->used ? v->used : 1;
    return g->left + ((double)c + 0.5) * (g->right - g->left) / used;
}

static void fmt_num(char *buf, size_t size, uint64_t v) { snprintf(buf, size, "%" PRIu64, v); }

/* Column c's span on the x axis (a column is at least a pixel wide where the run is short). */
static void column_span(const pmu_plot_geom *g, const pmu_timeline_view *v, unsigned c, double *x0, double *x1)
{
    const double w = (g->right - g->left) / (v->used ? v->used : 1);
    *x0 = g->left + c * w;
    *x1 = *x0 + (w < 1 ? 1 : w);
}

static void draw_panel(cairo_t *cr, const pmu_plot_geom *g, const pmu_timeline_view *v,
                       const pmu_plot_panel *p, unsigned k)
{
    const double top = g->top[k], bottom = g->bottom[k];
    char buf[64];
    /* frozen spans: grey behind the line */
    if (p->shade_frozen) {
        cairo_set_source_rgb(cr, 0.86, 0.86, 0.92);
        for (unsigned c = 0; c < v->used; c++)
            if (v->frozen[c]) {
                double x0, x1;
                column_span(g, v, c, &x0, &x1);
                cairo_rectangle(cr, x0, top, x1 - x0, bottom - top);
            }
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
    cairo_rectangle(cr, g->left + 0.5, top + 0.5, g->right - g->left, bottom - top);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, g->left, top - 6, 0, p->title);
    fmt_num(buf, sizeof buf, g->hi[k]);
    text_at(cr, g->left - 6, top + 10, 1, buf);
    fmt_num(buf, sizeof buf, g->lo[k]);
    text_at(cr, g->left - 6, bottom, 1, buf);
    /* the line: each column from its minimum to its maximum, joined to the next */
    cairo_set_source_rgb(cr, p->mark_wraps ? 0.10 : 0.05, p->mark_wraps ? 0.35 : 0.55, p->mark_wraps ? 0.75 : 0.25);
    cairo_set_line_width(cr, 1.5);
    int started = 0;
    for (unsigned c = 0; c < v->used; c++) {
        if (!v->seen[c])
            continue;
        const double x = pmu_plot_x(g, v, c);
        const uint64_t lo = v->min[(size_t)c * v->nseries + p->series];
        const uint64_t hi = v->max[(size_t)c * v->nseries + p->series];
        if (!started)
            cairo_move_to(cr, x, pmu_plot_y(g, k, lo));
        else
            cairo_line_to(cr, x, pmu_plot_y(g, k, lo));
        cairo_line_to(cr, x, pmu_plot_y(g, k, hi));
        started = 1;
    }
    cairo_stroke(cr);
    cairo_set_line_width(cr, 1);
    /* wraps: an orange triangle on the top edge */
    if (p->mark_wraps) {
        cairo_set_source_rgb(cr, 0.95, 0.5, 0.0);
        for (unsigned c = 0; c < v->used; c++)
            if (v->wraps[c] >> p->series & 1) {
                const double x = pmu_plot_x(g, v, c);
                cairo_move_to(cr, x - 4, top);
                cairo_line_to(cr, x + 4, top);
                cairo_line_to(cr, x, top + 7);
                cairo_close_path(cr);
            }
        cairo_fill(cr);
    }
}

int pmu_plot_timeline(const char *path, pmu_plot_format fmt, const char *title,
                      const pmu_timeline_view *v, const pmu_plot_panel *p, unsigned npanels,
                      pmu_err *err)
{
    pmu_plot_geom g;
    pmu_plot_timeline_geom(v, p, npanels, &g);
    cairo_surface_t *s = surface_new(path, fmt, g.width, g.height);
    cairo_t *cr = begin(s, g.width, g.height, title);
    char buf[96];
    /* the interrupt band: a red tick for each column in which the line rose */
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, g.left - 6, TL_TOP - 8, 1, "interrupts");
    cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
    for (unsigned c = 0; c < v->used; c++)
        if (v->interrupts[c]) {
            const double x = pmu_plot_x(&g, v, c);
            cairo_move_to(cr, x, TL_TOP - 20);
            cairo_line_to(cr, x, TL_TOP - 4);
        }
    cairo_stroke(cr);
    /* the privilege band: each column in the colours of the levels its sampled records ran
     * at, one above the other */
    if (v->nlevels) {
        const double y0 = TL_TOP + 6, h = TL_BAND - 10;
        cairo_set_source_rgb(cr, 0, 0, 0);
        text_at(cr, g.left - 6, y0 + 12, 1, "privilege");
        for (unsigned c = 0; c < v->used; c++) {
            unsigned n = 0;
            for (unsigned l = 0; l < v->nlevels; l++)
                n += v->levels[c] >> l & 1;
            double x0, x1, y = y0;
            column_span(&g, v, c, &x0, &x1);
            for (unsigned l = 0; l < v->nlevels && n; l++)
                if (v->levels[c] >> l & 1) {
                    cairo_set_source_rgb(cr, level_rgb[l][0], level_rgb[l][1], level_rgb[l][2]);
                    cairo_rectangle(cr, x0, y, x1 - x0, h / n);
                    cairo_fill(cr);
                    y += h / n;
                }
        }
    }
    for (unsigned k = 0; k < npanels; k++)
        draw_panel(cr, &g, v, &p[k], k);
    /* the cycle axis under the last panel */
    const double base = npanels ? g.bottom[npanels - 1] : TL_TOP;
    const double span = (double)v->used * (double)v->per_column; /* cycles across the area */
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (unsigned q = 0; q <= 4; q++) {
        const uint64_t at = v->last / 4 * q + (q == 4 ? v->last % 4 : 0);
        const double x = g.left + (double)at / span * (g.right - g.left);
        fmt_num(buf, sizeof buf, at);
        cairo_move_to(cr, x, base);
        cairo_line_to(cr, x, base + 4);
        cairo_stroke(cr);
        text_at(cr, x, base + 16, q == 0 ? 0 : q == 4 ? 1 : 0.5, buf);
    }
    snprintf(buf, sizeof buf, "cycles (a column: %" PRIu64 " cycle%s; grey: frozen; orange: a wrap; red: an interrupt)",
             v->per_column, v->per_column == 1 ? "" : "s");
    text_at(cr, (g.left + g.right) / 2, base + 34, 0.5, buf);
    /* the band's legend */
    double x = g.left;
    if (v->nlevels) {
        cairo_set_source_rgb(cr, 0, 0, 0);
        text_at(cr, x, base + 52, 0, "privilege band (the level of the record sampled in each column):");
        cairo_text_extents_t e;
        cairo_text_extents(cr, "privilege band (the level of the record sampled in each column):", &e);
        x += e.x_advance + 10;
    }
    for (unsigned l = 0; l < v->nlevels; l++) {
        cairo_set_source_rgb(cr, level_rgb[l][0], level_rgb[l][1], level_rgb[l][2]);
        cairo_rectangle(cr, x, base + 43, 10, 10);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_text_extents_t e;
        cairo_text_extents(cr, v->level_names[l], &e);
        text_at(cr, x + 14, base + 52, 0, v->level_names[l]);
        x += 14 + e.x_advance + 16;
    }
    return surface_end(s, cr, path, fmt, err);
}

/* ---- bar charts ---------------------------------------------------------------------------- */

#define BAR_WIDTH 1080.0
#define BAR_LABEL 300.0     /* the labels' column */
#define BAR_AREA 560.0
#define BAR_ROW 18.0
#define BAR_HEAD 40.0       /* a chart's title above its bars */
#define BAR_MAX 40u         /* bars a chart shows: the first BAR_MAX */

int pmu_plot_bar_charts(const char *path, pmu_plot_format fmt, const char *title,
                        const pmu_plot_bars *charts, unsigned ncharts, pmu_err *err)
{
    double h = 44;
    for (unsigned i = 0; i < ncharts; i++) {
        const unsigned n = charts[i].n < BAR_MAX ? charts[i].n : BAR_MAX;
        h += BAR_HEAD + (n ? n : 1) * BAR_ROW + 14;
    }
    cairo_surface_t *s = surface_new(path, fmt, BAR_WIDTH, h);
    cairo_t *cr = begin(s, BAR_WIDTH, h, title);
    double y = 44;
    char buf[96];
    for (unsigned i = 0; i < ncharts; i++) {
        const pmu_plot_bars *ch = &charts[i];
        const unsigned n = ch->n < BAR_MAX ? ch->n : BAR_MAX;
        double top = 0;
        for (unsigned b = 0; b < n; b++)
            if (ch->values[b] > top)
                top = ch->values[b];
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, 13);
        cairo_set_source_rgb(cr, 0, 0, 0);
        if (ch->n > n)
            snprintf(buf, sizeof buf, " (the first %u of %u)", n, ch->n);
        else
            buf[0] = '\0';
        cairo_move_to(cr, 12, y + 24);
        cairo_show_text(cr, ch->title);
        cairo_show_text(cr, buf);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, 11);
        y += BAR_HEAD;
        if (n == 0) {
            text_at(cr, BAR_LABEL, y + 13, 0, "(nothing to show)");
            y += BAR_ROW;
        }
        for (unsigned b = 0; b < n; b++) {
            const double len = top > 0 ? ch->values[b] / top * BAR_AREA : 0;
            cairo_set_source_rgb(cr, 0, 0, 0);
            char label[64];
            snprintf(label, sizeof label, "%.60s", ch->labels[b]);
            text_at(cr, BAR_LABEL - 8, y + 13, 1, label);
            cairo_set_source_rgb(cr, 0.2, 0.45, 0.75);
            cairo_rectangle(cr, BAR_LABEL, y + 3, len, BAR_ROW - 5);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            snprintf(buf, sizeof buf, "%.6g %s", ch->values[b], ch->unit ? ch->unit : "");
            text_at(cr, BAR_LABEL + len + 6, y + 13, 0, buf);
            y += BAR_ROW;
        }
        y += 14;
    }
    return surface_end(s, cr, path, fmt, err);
}

int pmu_plot_bars_write(pmu_outfile *o, const char *title, const pmu_plot_bars *charts,
                        unsigned ncharts, pmu_err *err)
{
    pmu_plot_format fmt;
    if (pmu_plot_format_of("--plot", pmu_outfile_target(o), &fmt, err))
        return -1;
    if (pmu_plot_bar_charts(pmu_outfile_path(o), fmt, title, charts, ncharts, err)) {
        pmu_outfile_fix_msg(o, err);
        return -1;
    }
    return pmu_outfile_commit(o, NULL, err);
}

int pmu_plot_barlist_add(pmu_plot_barlist *l, const char *label, double value)
{
    if (l->n == l->cap) {
        const unsigned cap = l->cap ? 2 * l->cap : 16;
        char **labels = realloc(l->labels, cap * sizeof *labels);
        if (!labels)
            return -1;
        l->labels = labels;
        double *values = realloc(l->values, cap * sizeof *values);
        if (!values)
            return -1;
        l->values = values;
        l->cap = cap;
    }
    if (!(l->labels[l->n] = strdup(label)))
        return -1;
    l->values[l->n++] = value;
    return 0;
}

pmu_plot_bars pmu_plot_barlist_chart(const pmu_plot_barlist *l, const char *title, const char *unit)
{
    return (pmu_plot_bars){title, unit, l->n, (const char *const *)l->labels, l->values};
}

void pmu_plot_barlist_free(pmu_plot_barlist *l)
{
    for (unsigned i = 0; i < l->n; i++)
        free(l->labels[i]);
    free(l->labels);
    free(l->values);
    memset(l, 0, sizeof *l);
}
