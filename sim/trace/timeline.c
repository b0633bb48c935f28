/*
 * timeline.c — the record as a timeline picture (timeline.h).
 *
 * Layout, top to bottom: the title; one row per rank (or group of ranks); the time axis with
 * its ticks and labels and the caption "simulated time"; the legend. Boxes of a rank's own
 * calls fill its row; what runs nested inside them (a collective's sends and waits) is drawn
 * in the row's lower part, so both the call and its phases stay visible; its nonblocking
 * collectives are a thin band along the row's top. Everything is drawn in the record's order,
 * and colours are given to the collectives in their kind order: nothing depends on a hash.
 */
#include "config.h"

#include "sim/trace/timeline.h"

#include <math.h>
#include <string.h>

#include "sim/picture/picture.h"
#include "sim/trace/recorder.h"
#include "src/coll/coll.h"
#include "src/coll/coll_kinds.h"

#define WIDTH 1200.0
#define LEFT 110.0
#define RIGHT 30.0
#define TOP 46.0
#define AXIS 58.0
#define LEGEND_LINE 20.0
#define LEGEND_COLUMNS 4
#define MESSAGE_BINS 32 /* stretches of time over which messages between groups are merged */

/* What a box shows: a collective kind (0 .. COLL_KIND_COUNT-1), or one of these. */
enum { CAT_CALL = COLL_KIND_COUNT, CAT_WAIT, CAT_COMPUTE, CAT_COUNT };

struct rgb {
    double r, g, b;
};

static const struct rgb palette[] = {
    {0.306, 0.475, 0.655}, {0.882, 0.341, 0.349}, {0.690, 0.478, 0.631}, {0.612, 0.459, 0.373},
    {0.463, 0.718, 0.698}, {0.929, 0.788, 0.282}, {1.000, 0.616, 0.655}, {0.349, 0.631, 0.310},
    {0.729, 0.690, 0.675}, {0.950, 0.557, 0.169},
};

struct layout {
    int nranks;
    int group;       /* ranks per row */
    int rows;
    double row_h;
    double plot_w, plot_h;
    double t_end;
    struct rgb colour[CAT_COUNT];
    gboolean present[CAT_COUNT];
};

int
timeline_group_size(int nranks)
{
    return nranks <= TIMELINE_MAX_ROWS ? 1 : (nranks + TIMELINE_MAX_ROWS - 1) / TIMELINE_MAX_ROWS;
}

gboolean
timeline_check(const char *path, const char *option, GError **error)
{
    return picture_check(path, option, error);
}

static int
category_of(const struct recorder_span *s)
{
    switch (s->kind) {
    case RECORDER_COLLECTIVE:
        return s->collective >= 0 && s->collective < COLL_KIND_COUNT ? s->collective : CAT_CALL;
    case RECORDER_CALL:
        return CAT_CALL;
    case RECORDER_WAIT:
        return CAT_WAIT;
    case RECORDER_COMPUTE:
        return CAT_COMPUTE;
    }
    return CAT_CALL;
}

static const char *
category_label(int cat)
{
    switch (cat) {
    case CAT_CALL:
        return "point-to-point call";
    case CAT_WAIT:
        return "waiting";
    case CAT_COMPUTE:
        return "collsim_compute";
    default:
        return coll_kind_mpi_name((enum coll_kind)cat);
    }
}

static double
x_of(const struct layout *l, double t)
{
    return LEFT + t / l->t_end * l->plot_w;
}

static double
row_top(const struct layout *l, int row)
{
    return TOP + row * l->row_h;
}

static void
scan(struct layout *l)
{
    l->nranks = recorder_nranks();
    l->group = timeline_group_size(l->nranks);
    l->rows = (l->nranks + l->group - 1) / l->group;
    l->row_h = l->rows <= 16 ? 28.0 : l->rows <= 32 ? 18.0 : 12.0;
    l->plot_w = WIDTH - LEFT - RIGHT;
    l->plot_h = l->rows * l->row_h;
    l->t_end = recorder_end_time();
    for (int r = 0; r < l->nranks; r++) {
        for (int lane = 0; lane < RECORDER_LANES; lane++) {
            guint n;
            const struct recorder_span *spans = recorder_spans(r, lane, &n);
            for (guint i = 0; i < n; i++) {
                /* grouped rows show only the ranks' own outermost calls */
                if (l->group == 1 || (lane == 0 && spans[i].depth == 0))
                    l->present[category_of(&spans[i])] = TRUE;
                l->t_end = MAX(l->t_end, spans[i].end);
            }
        }
    }
    guint nmsg;
    const struct recorder_message *msgs = recorder_messages(&nmsg);
    for (guint i = 0; i < nmsg; i++)
        l->t_end = MAX(l->t_end, msgs[i].arrived);
    if (!(l->t_end > 0))
        l->t_end = 1e-9;
    int next = 0;
    for (int c = 0; c < COLL_KIND_COUNT; c++)
        if (l->present[c])
            l->colour[c] = palette[next++ % G_N_ELEMENTS(palette)];
    l->colour[CAT_CALL] = (struct rgb){0.72, 0.72, 0.80};
    l->colour[CAT_WAIT] = (struct rgb){0.97, 0.80, 0.55};
    l->colour[CAT_COMPUTE] = (struct rgb){0.60, 0.85, 0.55};
}

static void
set_rgb(cairo_t *cr, struct rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* A span as a box in its rank's row. */
static void
draw_span(cairo_t *cr, const struct layout *l, int row, int lane, const struct recorder_span *s)
{
    double top = row_top(l, row);
    double y0, y1;
    if (lane == 1) {
        y0 = top + 1.0;
        y1 = top + l->row_h * 0.18;
    } else if (s->depth == 0) {
        y0 = top + l->row_h * 0.2;
        y1 = top + l->row_h * 0.9;
    } else {
        y0 = top + l->row_h * 0.58;
        y1 = top + l->row_h * 0.9;
    }
    double x0 = x_of(l, s->start);
    double w = MAX(x_of(l, s->end) - x0, 0.5);
    set_rgb(cr, l->colour[category_of(s)]);
    cairo_rectangle(cr, x0, y0, w, y1 - y0);
    cairo_fill(cr);
}

static void
draw_rows(cairo_t *cr, const struct layout *l)
{
    for (int row = 0; row < l->rows; row++) {
        if (row % 2 == 0)
            cairo_set_source_rgb(cr, TIMELINE_BAND_EVEN_RGB);
        else
            cairo_set_source_rgb(cr, TIMELINE_BAND_ODD_RGB);
        cairo_rectangle(cr, LEFT, row_top(l, row), l->plot_w, l->row_h);
        cairo_fill(cr);
        int first = row * l->group;
        int last = MIN(first + l->group, l->nranks) - 1;
        gchar *label = first == last ? g_strdup_printf("rank %d", first)
                                     : g_strdup_printf("ranks %d-%d", first, last);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        cairo_set_font_size(cr, MIN(11.0, l->row_h * 0.8));
        picture_text(cr, LEFT - 6, row_top(l, row) + l->row_h / 2, 1.0, 0.5, label);
        g_free(label);
    }
}

static void
draw_ranks(cairo_t *cr, const struct layout *l)
{
    for (int r = 0; r < l->nranks; r++) {
        for (int lane = 0; lane < RECORDER_LANES; lane++) {
            guint n;
            const struct recorder_span *spans = recorder_spans(r, lane, &n);
            for (guint i = 0; i < n; i++)
                if (lane == 0 || spans[i].depth == 0)
                    draw_span(cr, l, r, lane, &spans[i]);
        }
    }
    guint nmsg;
    const struct recorder_message *msgs = recorder_messages(&nmsg);
    cairo_set_source_rgb(cr, TIMELINE_MESSAGE_RGB);
    cairo_set_line_width(cr, 0.7);
    for (guint i = 0; i < nmsg; i++) {
        const struct recorder_message *m = &msgs[i];
        if (m->arrived < 0)
            continue;
        cairo_move_to(cr, x_of(l, m->sent), row_top(l, m->src) + l->row_h / 2);
        cairo_line_to(cr, x_of(l, m->arrived), row_top(l, m->dst) + l->row_h / 2);
        cairo_stroke(cr);
    }
}

/* The ranks in groups: per group, the share of its rank-time in each category, binned. */
static void
draw_groups(cairo_t *cr, const struct layout *l)
{
    int nbins = (int)(l->plot_w / 2.0);
    double bin_t = l->t_end / nbins;
    double *share = g_new(double, (gsize)nbins * CAT_COUNT);
    for (int row = 0; row < l->rows; row++) {
        memset(share, 0, sizeof(double) * (gsize)nbins * CAT_COUNT);
        int first = row * l->group;
        int last = MIN(first + l->group, l->nranks);
        for (int r = first; r < last; r++) {
            guint n;
            const struct recorder_span *spans = recorder_spans(r, 0, &n);
            for (guint i = 0; i < n; i++) {
                if (spans[i].depth != 0)
                    continue;
                int cat = category_of(&spans[i]);
                int b0 = MIN((int)(spans[i].start / bin_t), nbins - 1);
                int b1 = MIN((int)(spans[i].end / bin_t), nbins - 1);
                for (int b = b0; b <= b1; b++) {
                    double lo = MAX(spans[i].start, b * bin_t);
                    double hi = MIN(spans[i].end, (b + 1) * bin_t);
                    if (hi > lo)
                        share[b * CAT_COUNT + cat] += hi - lo;
                }
            }
        }
        double norm = bin_t * (last - first);
        double bottom = row_top(l, row) + l->row_h - 1.0;
        double height = l->row_h - 2.0;
        for (int b = 0; b < nbins; b++) {
            double y = bottom;
            for (int c = 0; c < CAT_COUNT; c++) {
                double f = MIN(share[b * CAT_COUNT + c] / norm, 1.0);
                if (f <= 0)
                    continue;
                set_rgb(cr, l->colour[c]);
                cairo_rectangle(cr, LEFT + b * 2.0, y - f * height, 2.0, f * height);
                cairo_fill(cr);
                y -= f * height;
            }
        }
    }
    g_free(share);
    /* messages between groups: one line per pair of groups and stretch of time in which they
     * were sent, from their mean sending to their mean arrival */
    int g = l->rows;
    gsize cells = (gsize)g * g * MESSAGE_BINS;
    guint64 *count = g_new0(guint64, cells);
    double *sent = g_new0(double, cells);
    double *arrived = g_new0(double, cells);
    guint nmsg;
    const struct recorder_message *msgs = recorder_messages(&nmsg);
    for (guint i = 0; i < nmsg; i++) {
        if (msgs[i].arrived < 0)
            continue;
        int bin = MIN((int)(msgs[i].sent / l->t_end * MESSAGE_BINS), MESSAGE_BINS - 1);
        gsize k = ((gsize)(msgs[i].src / l->group) * g + msgs[i].dst / l->group) * MESSAGE_BINS +
                  (gsize)bin;
        count[k]++;
        sent[k] += msgs[i].sent;
        arrived[k] += msgs[i].arrived;
    }
    cairo_set_source_rgb(cr, TIMELINE_MESSAGE_RGB);
    for (gsize k = 0; k < cells; k++) {
        int a = (int)(k / MESSAGE_BINS / (gsize)g), b = (int)(k / MESSAGE_BINS % (gsize)g);
        if (a == b || count[k] == 0)
            continue;
        cairo_set_line_width(cr, MIN(0.5 + 0.5 * log2((double)count[k]), 4.0));
        cairo_move_to(cr, x_of(l, sent[k] / count[k]), row_top(l, a) + l->row_h / 2);
        cairo_line_to(cr, x_of(l, arrived[k] / count[k]), row_top(l, b) + l->row_h / 2);
        cairo_stroke(cr);
    }
    g_free(count);
    g_free(sent);
    g_free(arrived);
}

/* A tick every 1, 2 or 5 times a power of ten, about 8 across. */
static double
tick_step(double span)
{
    double raw = span / 8.0;
    double unit = pow(10.0, floor(log10(raw)));
    double f = raw / unit;
    return unit * (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0);
}

static void
draw_axis(cairo_t *cr, const struct layout *l)
{
    double y = TOP + l->plot_h;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    cairo_move_to(cr, LEFT, y + 0.5);
    cairo_line_to(cr, LEFT + l->plot_w, y + 0.5);
    cairo_stroke(cr);
    double step = tick_step(l->t_end);
    cairo_set_font_size(cr, 10.0);
    for (int i = 0;; i++) {
        double t = i * step;
        if (t > l->t_end * (1 + 1e-9))
            break;
        double x = x_of(l, t);
        cairo_set_source_rgb(cr, TIMELINE_TICK_RGB);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x, y + 5);
        cairo_stroke(cr);
        gchar *label = picture_seconds_label(t);
        cairo_set_source_rgb(cr, TIMELINE_TICK_LABEL_RGB);
        picture_text(cr, x, y + 8, 0.5, 0.0, label);
        g_free(label);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 11.0);
    picture_text(cr, LEFT + l->plot_w / 2, y + 30, 0.5, 0.0, "simulated time");
}

static int
legend_entries(const struct layout *l)
{
    int n = 1; /* the message line */
    for (int c = 0; c < CAT_COUNT; c++)
        n += l->present[c];
    return n;
}

static void
draw_legend(cairo_t *cr, const struct layout *l, double top)
{
    double column = (WIDTH - LEFT) / LEGEND_COLUMNS;
    int k = 0;
    cairo_set_font_size(cr, 11.0);
    for (int c = 0; c <= CAT_COUNT; c++) {
        if (c < CAT_COUNT && !l->present[c])
            continue;
        double x = LEFT + (k % LEGEND_COLUMNS) * column;
        double y = top + (k / LEGEND_COLUMNS) * LEGEND_LINE;
        const char *label;
        if (c < CAT_COUNT) {
            set_rgb(cr, l->colour[c]);
            cairo_rectangle(cr, x, y + 3, 14, 10);
            cairo_fill(cr);
            label = category_label(c);
        } else {
            /* a shade apart from the messages', so that a test counting them skips this one */
            cairo_set_source_rgb(cr, 0.16, 0.16, 0.41);
            cairo_set_line_width(cr, 1.5);
            cairo_move_to(cr, x, y + 13);
            cairo_line_to(cr, x + 14, y + 3);
            cairo_stroke(cr);
            label = l->group > 1 ? "messages between groups (thicker: more)"
                                 : "message (sending to arrival)";
        }
        cairo_set_source_rgb(cr, 0, 0, 0);
        picture_text(cr, x + 20, y + 8, 0.0, 0.5, label);
        k++;
    }
}

gboolean
timeline_draw(const char *path, const char *title, GError **error)
{
    struct layout l = {0};
    scan(&l);
    int legend_rows = (legend_entries(&l) + LEGEND_COLUMNS - 1) / LEGEND_COLUMNS;
    double legend_top = TOP + l.plot_h + AXIS;
    double height = legend_top + legend_rows * LEGEND_LINE + (l.group > 1 ? 24.0 : 8.0);
    struct picture *p = picture_begin(path, WIDTH, height, error);
    if (p == NULL)
        return FALSE;
    cairo_t *cr = picture_cairo(p);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 14.0);
    cairo_set_source_rgb(cr, 0, 0, 0);
    picture_text(cr, LEFT, 20, 0.0, 0.5, title);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    draw_rows(cr, &l);
    if (l.group == 1)
        draw_ranks(cr, &l);
    else
        draw_groups(cr, &l);
    draw_axis(cr, &l);
    draw_legend(cr, &l, legend_top);
    if (l.group > 1) {
        gchar *note = g_strdup_printf("%d ranks in groups of %d: each row's bars are the share "
                                      "of its ranks' time in each activity",
                                      l.nranks, l.group);
        cairo_set_font_size(cr, 11.0);
        cairo_set_source_rgb(cr, 0, 0, 0);
        picture_text(cr, LEFT, legend_top + legend_rows * LEGEND_LINE + 8, 0.0, 0.5, note);
        g_free(note);
    }
    return picture_end(p, error);
}
