/*
 * plot.c — the plots and winner maps of `collsim run --plot FILE` (plot.h).
 *
 * Layout: one file, one row of panels per collective of the sweep, in registry order. A row
 * holds up to three panels: simulated time against P (at the collective's largest size),
 * against the message size (at its largest P), both log-log, one solid line with markers per
 * requested algorithm and its analytic prediction dashed in the same colour; then the winner
 * map, a grid of sizes (rows, smallest at the bottom) by P (columns) whose cells take the
 * colour of the fastest algorithm there (a cell with no point is light grey). A sweep with a
 * single P (or a single size, or a barrier, whose size means nothing) has no panel against
 * it, and the row's title says so. The legend at the right of each row names every
 * algorithm's colour and says which have no prediction (no dashed line).
 *
 * What the SVG tests rely on (tests/unit/check_plot.c): simulated lines are the only strokes
 * 2 wide, predictions the only dashed strokes (1.5 wide), winner-map cells the only fills
 * with opacity 0.85, tick labels the only text in 25 % grey.
 *
 * Invariants: deterministic (sorted by names and numbers, never by pointer or hash order);
 * the time of a point is its slowest rank's (time_max), as in the table.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sim/picture/picture.h"
#include "sim/report/plot.h"
#include "sim/report/report.h"
#include "src/coll/coll.h"
#include "src/coll/coll_kinds.h"

struct plot_entry {
    enum coll_kind kind;
    gchar *algorithm; /* requested, "default" for the decision table */
    int nranks;
    guint64 bytes;    /* 0 for a barrier */
    double time;      /* time_max */
    double predicted; /* NAN when the model has none */
    gboolean fell_back; /* another algorithm served the calls (result->fallback_reason) */
};

struct plot_data {
    GArray *entries; /* struct plot_entry, sweep order */
    GHashTable *index; /* "kind P bytes algorithm" -> position + 1; lookups only, never walked */
};

static gchar *
entry_key(enum coll_kind kind, const char *algorithm, int nranks, guint64 bytes)
{
    return g_strdup_printf("%d %d %" G_GUINT64_FORMAT " %s", (int)kind, nranks, bytes, algorithm);
}

gboolean
plot_check(const char *path, GError **error)
{
    return picture_check(path, "--plot", error);
}

struct plot_data *
plot_data_new(void)
{
    struct plot_data *plot = g_new0(struct plot_data, 1);
    plot->entries = g_array_new(FALSE, FALSE, sizeof(struct plot_entry));
    plot->index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return plot;
}

void
plot_data_free(struct plot_data *plot)
{
    if (plot == NULL)
        return;
    for (guint i = 0; i < plot->entries->len; i++)
        g_free(g_array_index(plot->entries, struct plot_entry, i).algorithm);
    g_array_free(plot->entries, TRUE);
    g_hash_table_destroy(plot->index);
    g_free(plot);
}

void
plot_data_add(struct plot_data *plot, const struct run_point *point,
              const struct point_result *result)
{
    if (point->program != NULL || result->check == POINT_CHECK_ERROR || result->exit_code != 0 ||
        !isfinite(result->time_max) || result->time_max <= 0)
        return;
    struct plot_entry e = {
        .kind = point->kind,
        .algorithm = g_strdup(point->algorithm != NULL ? point->algorithm : "default"),
        .nranks = point->nranks,
        .bytes = point->kind == COLL_BARRIER ? 0 : point->bytes,
        .time = result->time_max,
        .predicted = isfinite(result->predicted) && result->predicted > 0 ? result->predicted
                                                                          : NAN,
        .fell_back = result->fallback_reason != NULL,
    };
    /* other parameters of the sweep (datatypes, roots, ...): the first point stands */
    gchar *key = entry_key(e.kind, e.algorithm, e.nranks, e.bytes);
    if (g_hash_table_contains(plot->index, key)) {
        g_free(key);
        g_free(e.algorithm);
        return;
    }
    g_array_append_val(plot->entries, e);
    g_hash_table_insert(plot->index, key, GUINT_TO_POINTER(plot->entries->len));
}

/* ---------------------------------------------------------------- one collective's data */

struct row {
    enum coll_kind kind;
    GPtrArray *algorithms; /* const char *, sorted by name */
    GArray *ranks;         /* int, ascending */
    GArray *sizes;         /* guint64, ascending */
};

static gint
compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static gint
compare_ints(gconstpointer a, gconstpointer b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static gint
compare_sizes(gconstpointer a, gconstpointer b)
{
    guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
    return (x > y) - (x < y);
}

static void
row_init(struct row *row, const struct plot_data *plot, enum coll_kind kind)
{
    row->kind = kind;
    row->algorithms = g_ptr_array_new();
    row->ranks = g_array_new(FALSE, FALSE, sizeof(int));
    row->sizes = g_array_new(FALSE, FALSE, sizeof(guint64));
    for (guint i = 0; i < plot->entries->len; i++) {
        const struct plot_entry *e = &g_array_index(plot->entries, struct plot_entry, i);
        if (e->kind != kind)
            continue;
        gboolean seen = FALSE;
        for (guint a = 0; a < row->algorithms->len && !seen; a++)
            seen = strcmp(g_ptr_array_index(row->algorithms, a), e->algorithm) == 0;
        if (!seen)
            g_ptr_array_add(row->algorithms, e->algorithm);
        seen = FALSE;
        for (guint r = 0; r < row->ranks->len && !seen; r++)
            seen = g_array_index(row->ranks, int, r) == e->nranks;
        if (!seen)
            g_array_append_val(row->ranks, e->nranks);
        seen = FALSE;
        for (guint s = 0; s < row->sizes->len && !seen; s++)
            seen = g_array_index(row->sizes, guint64, s) == e->bytes;
        if (!seen)
            g_array_append_val(row->sizes, e->bytes);
    }
    g_ptr_array_sort(row->algorithms, compare_names);
    g_array_sort(row->ranks, compare_ints);
    g_array_sort(row->sizes, compare_sizes);
}

static void
row_clear(struct row *row)
{
    g_ptr_array_free(row->algorithms, TRUE);
    g_array_free(row->ranks, TRUE);
    g_array_free(row->sizes, TRUE);
}

static const struct plot_entry *
find_entry(const struct plot_data *plot, enum coll_kind kind, const char *algorithm, int nranks,
           guint64 bytes)
{
    g_autofree gchar *key = entry_key(kind, algorithm, nranks, bytes);
    guint position = GPOINTER_TO_UINT(g_hash_table_lookup(plot->index, key));
    return position == 0 ? NULL : &g_array_index(plot->entries, struct plot_entry, position - 1);
}

/* The fastest algorithm at (P, size); NULL for none. A tie goes to an algorithm that served
 * its calls itself before one that fell back to another (its time is that other's: the cell
 * would credit it with a speed it does not have), then to the name that sorts first — or, with
 * `added_first`, to the algorithm whose point was added first (collsim tune: registry order). */
static const char *
winner(const struct plot_data *plot, const struct row *row, int nranks, guint64 bytes,
       gboolean added_first)
{
    const char *best = NULL;
    double best_time = INFINITY;
    gboolean best_fell_back = FALSE;
    const struct plot_entry *best_entry = NULL;
    for (guint a = 0; a < row->algorithms->len; a++) {
        const char *name = g_ptr_array_index(row->algorithms, a);
        const struct plot_entry *e = find_entry(plot, row->kind, name, nranks, bytes);
        if (e == NULL)
            continue;
        /* sorted by name: an equal time replaces the first only if that one fell back */
        gboolean earlier = added_first && best_entry != NULL && e < best_entry;
        if (e->time < best_time ||
            (e->time == best_time && ((best_fell_back && !e->fell_back) ||
                                      (best_fell_back == e->fell_back && earlier)))) {
            best = name;
            best_time = e->time;
            best_fell_back = e->fell_back;
            best_entry = e;
        }
    }
    return best;
}

static gboolean
has_prediction(const struct plot_data *plot, enum coll_kind kind, const char *algorithm)
{
    for (guint i = 0; i < plot->entries->len; i++) {
        const struct plot_entry *e = &g_array_index(plot->entries, struct plot_entry, i);
        if (e->kind == kind && strcmp(e->algorithm, algorithm) == 0 && isfinite(e->predicted))
            return TRUE;
    }
    return FALSE;
}

/* ---------------------------------------------------------------- drawing */

/* Tableau 10, then darker variants: distinct for 20 algorithms, then repeated. */
static const double palette[][3] = {
    {0.122, 0.467, 0.706}, {1.000, 0.498, 0.055}, {0.173, 0.627, 0.173}, {0.839, 0.153, 0.157},
    {0.580, 0.404, 0.741}, {0.549, 0.337, 0.294}, {0.890, 0.467, 0.761}, {0.498, 0.498, 0.498},
    {0.737, 0.741, 0.133}, {0.090, 0.745, 0.812}, {0.061, 0.233, 0.353}, {0.500, 0.249, 0.028},
    {0.087, 0.314, 0.087}, {0.420, 0.077, 0.079}, {0.290, 0.202, 0.371}, {0.275, 0.169, 0.147},
    {0.445, 0.234, 0.381}, {0.249, 0.249, 0.249}, {0.369, 0.371, 0.067}, {0.045, 0.373, 0.406},
};

static void
set_colour(cairo_t *cr, guint index, double alpha)
{
    const double *c = palette[index % G_N_ELEMENTS(palette)];
    cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
}

#define PANEL_W 360.0
#define PANEL_H 250.0
#define PANEL_LEFT 70.0   /* room for the time labels */
#define PANEL_BOTTOM 50.0 /* tick labels and the axis title */
#define PANEL_TOP 52.0    /* a note on the row, then the panel's title */
#define PANEL_RIGHT 20.0
#define ROW_H (PANEL_TOP + PANEL_H + PANEL_BOTTOM)
#define COL_W (PANEL_LEFT + PANEL_W + PANEL_RIGHT)
#define LEGEND_W 260.0
#define TITLE_H 50.0
#define MARGIN 20.0
#define TICK_GREY 0.25
#define CELL_ALPHA 0.85

struct axis {
    double lo, hi; /* log10 of the ends */
};

/* A log axis covering [min, max], whole decades for a time axis. */
static struct axis
decade_axis(double min, double max)
{
    struct axis a = {floor(log10(min)), ceil(log10(max))};
    if (a.hi <= a.lo)
        a.hi = a.lo + 1;
    return a;
}

/* A log axis with a little room around [min, max] (the points sit inside the frame). */
static struct axis
value_axis(double min, double max)
{
    double lo = log10(min), hi = log10(max);
    double pad = (hi - lo) * 0.06 + 0.02;
    return (struct axis){lo - pad, hi + pad};
}

static double
axis_at(const struct axis *a, double value, double from, double length)
{
    return from + (log10(value) - a->lo) / (a->hi - a->lo) * length;
}

static void
tick_label(cairo_t *cr, double x, double y, double ax, double ay, const char *text)
{
    cairo_set_source_rgb(cr, TICK_GREY, TICK_GREY, TICK_GREY);
    cairo_set_font_size(cr, 10);
    picture_text(cr, x, y, ax, ay, text);
}

static void
plain_text(cairo_t *cr, double x, double y, double ax, double ay, double size, const char *text)
{
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, size);
    picture_text(cr, x, y, ax, ay, text);
}

enum panel_x { PANEL_BY_RANKS, PANEL_BY_SIZE };

/* The x of entry `e` on a panel's axis. */
static double
x_value(enum panel_x what, int nranks, guint64 bytes)
{
    return what == PANEL_BY_RANKS ? (double)nranks : (double)bytes;
}

static void
draw_line_panel(cairo_t *cr, const struct plot_data *plot, const struct row *row,
                enum panel_x what, double x0, double y0)
{
    int fixed_ranks = g_array_index(row->ranks, int, row->ranks->len - 1);
    guint64 fixed_bytes = g_array_index(row->sizes, guint64, row->sizes->len - 1);
    GArray *xs = what == PANEL_BY_RANKS ? row->ranks : row->sizes;
    guint n = xs->len;

    /* the y range: every time and prediction drawn */
    double tmin = INFINITY, tmax = 0;
    for (guint a = 0; a < row->algorithms->len; a++) {
        for (guint i = 0; i < n; i++) {
            int p = what == PANEL_BY_RANKS ? g_array_index(xs, int, i) : fixed_ranks;
            guint64 b = what == PANEL_BY_SIZE ? g_array_index(xs, guint64, i) : fixed_bytes;
            const struct plot_entry *e =
                find_entry(plot, row->kind, g_ptr_array_index(row->algorithms, a), p, b);
            if (e == NULL)
                continue;
            tmin = MIN(tmin, e->time);
            tmax = MAX(tmax, e->time);
            if (isfinite(e->predicted)) {
                tmin = MIN(tmin, e->predicted);
                tmax = MAX(tmax, e->predicted);
            }
        }
    }
    double px = x0 + PANEL_LEFT, py = y0 + PANEL_TOP;
    double first = what == PANEL_BY_RANKS ? g_array_index(xs, int, 0)
                                          : (double)g_array_index(xs, guint64, 0);
    double last = what == PANEL_BY_RANKS ? g_array_index(xs, int, n - 1)
                                         : (double)g_array_index(xs, guint64, n - 1);
    struct axis xa = value_axis(first, last);
    struct axis ya = tmax > 0 ? decade_axis(tmin, tmax) : (struct axis){-6, -5};

    /* title */
    g_autofree gchar *fixed = what == PANEL_BY_RANKS ? report_format_bytes(fixed_bytes)
                                                     : g_strdup_printf("P = %d", fixed_ranks);
    g_autofree gchar *title =
        what == PANEL_BY_RANKS
            ? g_strdup_printf("%s: time against P (%s%s)", coll_kind_name(row->kind),
                              row->kind == COLL_BARRIER ? "" : "size ",
                              row->kind == COLL_BARRIER ? "no size" : fixed)
            : g_strdup_printf("%s: time against size (%s)", coll_kind_name(row->kind), fixed);
    plain_text(cr, px + PANEL_W / 2, y0 + PANEL_TOP - 16, 0.5, 0.5, 12, title);

    /* grid and ticks: decades of time, the sweep's own x values */
    cairo_set_line_width(cr, 0.5);
    for (double d = ya.lo; d <= ya.hi + 1e-9; d += 1) {
        double y = py + PANEL_H - (d - ya.lo) / (ya.hi - ya.lo) * PANEL_H;
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, px, y);
        cairo_line_to(cr, px + PANEL_W, y);
        cairo_stroke(cr);
        g_autofree gchar *label = picture_seconds_label(pow(10, d));
        tick_label(cr, px - 6, y, 1, 0.5, label);
    }
    double last_label_x = -INFINITY;
    for (guint i = 0; i < n; i++) {
        double v = what == PANEL_BY_RANKS ? g_array_index(xs, int, i)
                                          : (double)g_array_index(xs, guint64, i);
        double x = axis_at(&xa, v, px, PANEL_W);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, x, py);
        cairo_line_to(cr, x, py + PANEL_H);
        cairo_stroke(cr);
        /* a label only where it does not run into the previous one */
        if (x - last_label_x < 44)
            continue;
        g_autofree gchar *label = what == PANEL_BY_RANKS
                                      ? g_strdup_printf("%d", g_array_index(xs, int, i))
                                      : report_format_bytes(g_array_index(xs, guint64, i));
        tick_label(cr, x, py + PANEL_H + 6, 0.5, 0, label);
        last_label_x = x;
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, px, py, PANEL_W, PANEL_H);
    cairo_stroke(cr);
    plain_text(cr, px + PANEL_W / 2, py + PANEL_H + 34, 0.5, 0.5, 11,
               what == PANEL_BY_RANKS ? "ranks P (log scale)"
                                      : "message size, bytes (log scale)");
    cairo_save(cr);
    cairo_translate(cr, x0 + 12, py + PANEL_H / 2);
    cairo_rotate(cr, -G_PI / 2);
    plain_text(cr, 0, 0, 0.5, 0.5, 11, "time per call, slowest rank (log)");
    cairo_restore(cr);

    /* the lines: simulated solid with markers, predicted dashed beside them */
    cairo_save(cr);
    cairo_rectangle(cr, px, py, PANEL_W, PANEL_H);
    cairo_clip(cr);
    for (guint a = 0; a < row->algorithms->len; a++) {
        const char *name = g_ptr_array_index(row->algorithms, a);
        for (int predicted = 0; predicted <= 1; predicted++) {
            guint drawn = 0;
            for (guint i = 0; i < n; i++) {
                int p = what == PANEL_BY_RANKS ? g_array_index(xs, int, i) : fixed_ranks;
                guint64 b = what == PANEL_BY_SIZE ? g_array_index(xs, guint64, i) : fixed_bytes;
                const struct plot_entry *e = find_entry(plot, row->kind, name, p, b);
                double t = e == NULL ? NAN : predicted ? e->predicted : e->time;
                if (!isfinite(t))
                    continue;
                double x = axis_at(&xa, x_value(what, p, b), px, PANEL_W);
                double y = py + PANEL_H - (log10(t) - ya.lo) / (ya.hi - ya.lo) * PANEL_H;
                if (drawn++ == 0)
                    cairo_move_to(cr, x, y);
                else
                    cairo_line_to(cr, x, y);
            }
            if (drawn < 2) {
                cairo_new_path(cr); /* a single point is shown by its marker */
                continue;
            }
            set_colour(cr, a, 1);
            if (predicted) {
                static const double dashes[] = {6, 4};
                cairo_set_dash(cr, dashes, 2, 0);
                cairo_set_line_width(cr, 1.5);
            } else {
                cairo_set_dash(cr, NULL, 0, 0);
                cairo_set_line_width(cr, 2);
            }
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        }
        set_colour(cr, a, 1);
        for (guint i = 0; i < n; i++) {
            int p = what == PANEL_BY_RANKS ? g_array_index(xs, int, i) : fixed_ranks;
            guint64 b = what == PANEL_BY_SIZE ? g_array_index(xs, guint64, i) : fixed_bytes;
            const struct plot_entry *e = find_entry(plot, row->kind, name, p, b);
            if (e == NULL)
                continue;
            double x = axis_at(&xa, x_value(what, p, b), px, PANEL_W);
            double y = py + PANEL_H - (log10(e->time) - ya.lo) / (ya.hi - ya.lo) * PANEL_H;
            cairo_new_sub_path(cr);
            cairo_arc(cr, x, y, 3, 0, 2 * G_PI);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
}

static void
draw_winner_map(cairo_t *cr, const struct plot_data *plot, const struct row *row, double x0,
                double y0, gboolean added_first)
{
    double px = x0 + PANEL_LEFT, py = y0 + PANEL_TOP;
    guint nr = row->ranks->len, ns = row->sizes->len;
    double cw = PANEL_W / nr, ch = PANEL_H / ns;
    g_autofree gchar *title =
        g_strdup_printf("%s: fastest algorithm (size × P)", coll_kind_name(row->kind));
    plain_text(cr, px + PANEL_W / 2, y0 + PANEL_TOP - 16, 0.5, 0.5, 12, title);
    for (guint s = 0; s < ns; s++) {
        guint64 b = g_array_index(row->sizes, guint64, s);
        double y = py + PANEL_H - (s + 1) * ch; /* the smallest size at the bottom */
        for (guint r = 0; r < nr; r++) {
            int p = g_array_index(row->ranks, int, r);
            const char *best = winner(plot, row, p, b, added_first);
            guint index = 0;
            while (best != NULL && strcmp(g_ptr_array_index(row->algorithms, index), best) != 0)
                index++;
            if (best != NULL)
                set_colour(cr, index, CELL_ALPHA);
            else
                cairo_set_source_rgba(cr, 0.9, 0.9, 0.9, CELL_ALPHA);
            cairo_rectangle(cr, px + r * cw, y, cw, ch);
            cairo_fill(cr);
        }
        if (ch >= 12 || s % (guint)ceil(12 / ch) == 0) {
            g_autofree gchar *label = row->kind == COLL_BARRIER ? g_strdup("-")
                                                                 : report_format_bytes(b);
            tick_label(cr, px - 6, y + ch / 2, 1, 0.5, label);
        }
    }
    guint every = cw >= 30 ? 1 : (guint)ceil(30 / cw);
    for (guint r = 0; r < nr; r += every) {
        g_autofree gchar *label = g_strdup_printf("%d", g_array_index(row->ranks, int, r));
        tick_label(cr, px + (r + 0.5) * cw, py + PANEL_H + 6, 0.5, 0, label);
    }
    /* white lines between the cells, then the frame */
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 1);
    for (guint r = 1; r < nr; r++) {
        cairo_move_to(cr, px + r * cw, py);
        cairo_line_to(cr, px + r * cw, py + PANEL_H);
    }
    for (guint s = 1; s < ns; s++) {
        cairo_move_to(cr, px, py + s * ch);
        cairo_line_to(cr, px + PANEL_W, py + s * ch);
    }
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, px, py, PANEL_W, PANEL_H);
    cairo_stroke(cr);
    plain_text(cr, px + PANEL_W / 2, py + PANEL_H + 34, 0.5, 0.5, 11, "ranks P");
    cairo_save(cr);
    cairo_translate(cr, x0 + 12, py + PANEL_H / 2);
    cairo_rotate(cr, -G_PI / 2);
    plain_text(cr, 0, 0, 0.5, 0.5, 11, "message size, bytes");
    cairo_restore(cr);
}

static void
draw_legend(cairo_t *cr, const struct plot_data *plot, const struct row *row, double x0,
            double y0, gboolean winners_only)
{
    double y = y0 + PANEL_TOP;
    plain_text(cr, x0, y, 0, 0.5, 11,
               winners_only ? "algorithm (the colour of the cells" : "algorithm (solid: simulated,");
    plain_text(cr, x0, y + 14, 0, 0.5, 11,
               winners_only ? "where it is the fastest)" : "dashed: analytic prediction)");
    y += 34;
    for (guint a = 0; a < row->algorithms->len; a++) {
        const char *name = g_ptr_array_index(row->algorithms, a);
        set_colour(cr, a, 1);
        cairo_rectangle(cr, x0, y - 5, 18, 10);
        cairo_fill(cr);
        g_autofree gchar *label =
            winners_only || has_prediction(plot, row->kind, name)
                ? g_strdup(name)
                : g_strdup_printf("%s (no prediction)", name);
        plain_text(cr, x0 + 24, y, 0, 0.5, 10, label);
        y += 15;
    }
}

/* The picture: with `winners_only`, the winner maps alone (ties to the point added first) under
 * `title`; else every panel, titled after `scenario`. */
static gboolean
draw(const struct plot_data *plot, const char *path, const char *scenario, const char *title_text,
     gboolean winners_only, GError **error)
{
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct row));
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        gboolean present = FALSE;
        for (guint i = 0; i < plot->entries->len && !present; i++)
            present = g_array_index(plot->entries, struct plot_entry, i).kind == (enum coll_kind)k;
        if (!present)
            continue;
        struct row row;
        row_init(&row, plot, (enum coll_kind)k);
        g_array_append_val(rows, row);
    }
    guint columns = 1;
    double legend_rows = 0;
    for (guint r = 0; r < rows->len; r++) {
        const struct row *row = &g_array_index(rows, struct row, r);
        if (!winners_only)
            columns = MAX(columns, 1u + (row->ranks->len > 1) + (row->sizes->len > 1));
        legend_rows = MAX(legend_rows, row->algorithms->len);
    }
    double row_h = MAX(ROW_H, PANEL_TOP + 34 + 15 * legend_rows + 10);
    double width = 2 * MARGIN + columns * COL_W + LEGEND_W;
    double height = 2 * MARGIN + TITLE_H + MAX(1u, rows->len) * row_h;

    struct picture *picture = picture_begin(path, width, height, error);
    if (picture == NULL) {
        for (guint r = 0; r < rows->len; r++)
            row_clear(&g_array_index(rows, struct row, r));
        g_array_free(rows, TRUE);
        return FALSE;
    }
    cairo_t *cr = picture_cairo(picture);
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    g_autofree gchar *title =
        winners_only ? g_strdup(title_text)
                     : g_strdup_printf("collsim run %s: simulated time per call against P and "
                                       "message size, and the fastest algorithm",
                                       scenario != NULL ? scenario : "");
    plain_text(cr, MARGIN, MARGIN + 12, 0, 0.5, 15, title);
    if (rows->len == 0)
        plain_text(cr, MARGIN, MARGIN + TITLE_H + 20, 0, 0.5, 12,
                   "no point to draw (programs and points that ended in an error are not drawn)");

    for (guint r = 0; r < rows->len; r++) {
        const struct row *row = &g_array_index(rows, struct row, r);
        double y0 = MARGIN + TITLE_H + r * row_h;
        double x0 = MARGIN;
        gboolean one_p = row->ranks->len == 1, one_size = row->sizes->len == 1;
        if (!winners_only && (one_p || one_size)) {
            /* say why a panel is missing: the sweep has one value there */
            GString *note = g_string_new(coll_kind_name(row->kind));
            g_string_append(note, ":");
            if (one_p)
                g_string_append_printf(note, " one P (%d);", g_array_index(row->ranks, int, 0));
            if (one_size && row->kind == COLL_BARRIER) {
                g_string_append(note, " no size (a barrier);");
            } else if (one_size) {
                g_autofree gchar *size =
                    report_format_bytes(g_array_index(row->sizes, guint64, 0));
                g_string_append_printf(note, " one size (%s);", size);
            }
            g_string_append_printf(note, " no panel against %s",
                                   one_p && one_size ? "P or size" : one_p ? "P" : "size");
            plain_text(cr, MARGIN, y0 + 10, 0, 0.5, 11, note->str);
            g_string_free(note, TRUE);
        }
        if (!winners_only && !one_p) {
            draw_line_panel(cr, plot, row, PANEL_BY_RANKS, x0, y0);
            x0 += COL_W;
        }
        if (!winners_only && !one_size) {
            draw_line_panel(cr, plot, row, PANEL_BY_SIZE, x0, y0);
            x0 += COL_W;
        }
        draw_winner_map(cr, plot, row, x0, y0, winners_only);
        draw_legend(cr, plot, row, MARGIN + columns * COL_W, y0, winners_only);
    }
    for (guint r = 0; r < rows->len; r++)
        row_clear(&g_array_index(rows, struct row, r));
    g_array_free(rows, TRUE);
    return picture_end(picture, error);
}

gboolean
plot_write(const struct plot_data *plot, const char *path, const char *scenario, GError **error)
{
    return draw(plot, path, scenario, NULL, FALSE, error);
}

gboolean
plot_write_winner_maps(const struct plot_data *plot, const char *path, const char *title,
                       GError **error)
{
    return draw(plot, path, NULL, title, TRUE, error);
}
