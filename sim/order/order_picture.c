/*
 * order_picture.c — the reduction tree of a certificate's result as a picture (order_picture.h).
 *
 * Layout: leaf r<i> at x = margin + (i + 1/2) * step on the bottom row; an application at the
 * mean x of its two operands and depth(node) rows above the leaves, so every edge goes down to
 * a shallower node. The tree is walked from the root; a node reached twice (only in a broken
 * result that repeats a part) is drawn twice at the same place.
 */
#include "config.h"

#include <string.h>

#include "sim/engine/rank.h"
#include "sim/order/order_picture.h"
#include "sim/order/witness_expr.h"
#include "sim/picture/picture.h"
#include "src/coll/coll_kinds.h"

/* The fills the tests count in an SVG: each kind of shape has its own, used by nothing else
 * (the legend's sample included: one more of each). */
#define FILL_LEAF 0.9, 0.9, 0.9
#define FILL_IN_ORDER 0.8, 0.9, 1.0
#define FILL_BREAKS 1.0, 0.7, 0.5

#define MARGIN 40.0
#define STEP 40.0       /* between two leaves */
#define RADIUS 12.0     /* of an application's circle */
#define TOP 156.0       /* title, verdict, details and legend above this */
#define MIN_WIDTH 640.0 /* the legend's width */

/* ---------------------------------------------------------------- who applied what */

static GHashTable *applied; /* gint64 handle * ORDER_MAX_RANKS + rank -> itself: pairs seen */
static GHashTable *lowest;  /* gint64 handle -> lowest applier + 1 */

static void
note_applier(gint64 result, gpointer data)
{
    (void)data;
    struct sim_rank *self = sim_rank_self();
    if (self == NULL)
        return;
    gint64 *pair = g_new(gint64, 1);
    *pair = result * ORDER_MAX_RANKS + self->world_rank;
    if (!g_hash_table_add(applied, pair))
        return; /* freed by the table: already known */
    gint64 *key = g_new(gint64, 1);
    *key = result;
    int known = GPOINTER_TO_INT(g_hash_table_lookup(lowest, key));
    if (known == 0 || self->world_rank + 1 < known)
        g_hash_table_insert(lowest, key, GINT_TO_POINTER(self->world_rank + 1));
    else
        g_free(key);
}

void
order_picture_record_begin(void)
{
    order_picture_record_end();
    applied = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    lowest = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    witness_expr_set_observer(note_applier, NULL);
}

void
order_picture_record_end(void)
{
    witness_expr_set_observer(NULL, NULL);
    if (applied != NULL)
        g_hash_table_destroy(applied);
    if (lowest != NULL)
        g_hash_table_destroy(lowest);
    applied = lowest = NULL;
}

/* The label of an application in `viewer`'s result; -1 if no rank is known to have applied it. */
static int
applier_of(gint64 handle, int viewer)
{
    if (applied == NULL)
        return -1;
    gint64 pair = handle * ORDER_MAX_RANKS + viewer;
    if (g_hash_table_contains(applied, &pair))
        return viewer;
    return GPOINTER_TO_INT(g_hash_table_lookup(lowest, &handle)) - 1;
}

/* ---------------------------------------------------------------- checks */

int
order_picture_default_rank(const struct order_request *request)
{
    int best = -1, best_size = -1;
    for (int r = 0; r < request->nranks; r++) {
        int first, last;
        if (coll_kind_fold_span(request->kind, r, request->root, request->nranks, &first, &last) &&
            last - first + 1 > best_size) {
            best = r;
            best_size = last - first + 1;
        }
    }
    return best;
}

gboolean
order_picture_check(const struct order_request *request, const char *path, int rank, GError **error)
{
    if (request->nranks > ORDER_PICTURE_MAX_RANKS) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "--picture draws at most %d ranks (a tree of %d leaves would be unreadable); "
                    "use a smaller -n",
                    ORDER_PICTURE_MAX_RANKS, request->nranks);
        return FALSE;
    }
    if (request->count < 1) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "--picture draws element 0 of a result: --count must be at least 1");
        return FALSE;
    }
    if (rank >= 0) {
        int first, last;
        if (rank >= request->nranks) {
            g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                        "--picture-rank must be a rank, 0 to %d (got %d)", request->nranks - 1,
                        rank);
            return FALSE;
        }
        if (!coll_kind_fold_span(request->kind, rank, request->root, request->nranks, &first,
                                 &last)) {
            g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                        "--picture-rank %d: rank %d holds no result of %s (default: rank %d)", rank,
                        rank, coll_kind_name(request->kind), order_picture_default_rank(request));
            return FALSE;
        }
    }
    return picture_check(path, "--picture", error);
}

/* ---------------------------------------------------------------- drawing */

/* Does this application break rank order? Its left operand reaches a rank at or above the
 * right operand's lowest (swapped, interleaved or repeated), or its ranks leave a gap. */
static gboolean
breaks_order(gint64 handle)
{
    gint64 left, right;
    if (!witness_expr_operands(handle, &left, &right))
        return FALSE;
    int llow, lhigh, rlow, rhigh, low, high;
    witness_expr_span(left, &llow, &lhigh);
    witness_expr_span(right, &rlow, &rhigh);
    witness_expr_span(handle, &low, &high);
    return lhigh >= rlow || witness_expr_size(handle) != (guint)(high - low + 1);
}

struct layout {
    double leaf_y; /* centre of the leaves' boxes */
    double row;    /* height of one level of depth */
    int viewer;    /* whose result */
};

static double
leaf_x(int rank)
{
    return MARGIN + (rank + 0.5) * STEP;
}

static double
node_x(gint64 handle)
{
    gint64 left, right;
    if (!witness_expr_operands(handle, &left, &right))
        return leaf_x(witness_expr_leaf_rank(handle));
    return (node_x(left) + node_x(right)) / 2;
}

static double
node_y(const struct layout *l, gint64 handle)
{
    return l->leaf_y - witness_expr_depth(handle) * l->row;
}

static void
draw_leaf_box(cairo_t *cr, double x, double y, const char *label)
{
    cairo_rectangle(cr, x - 15, y - 10, 30, 20);
    cairo_set_source_rgb(cr, FILL_LEAF);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    picture_text(cr, x, y, 0.5, 0.5, label);
}

static void
draw_op_circle(cairo_t *cr, double x, double y, gboolean breaks, const char *label)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, RADIUS, 0, 2 * G_PI);
    if (breaks)
        cairo_set_source_rgb(cr, FILL_BREAKS);
    else
        cairo_set_source_rgb(cr, FILL_IN_ORDER);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, breaks ? 2 : 1);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    picture_text(cr, x, y, 0.5, 0.5, label);
}

/* Edges first, then nodes on top, so that no line crosses a label. */
static void
draw_edges(cairo_t *cr, const struct layout *l, gint64 handle)
{
    gint64 left, right;
    if (!witness_expr_operands(handle, &left, &right))
        return;
    double x = node_x(handle), y = node_y(l, handle);
    const gint64 children[2] = {left, right};
    for (int i = 0; i < 2; i++) {
        gboolean leaf = witness_expr_leaf_rank(children[i]) >= 0;
        double cx = node_x(children[i]);
        double cy = leaf ? l->leaf_y - 10 : node_y(l, children[i]);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, cx, cy);
        draw_edges(cr, l, children[i]);
    }
}

static void
draw_nodes(cairo_t *cr, const struct layout *l, gint64 handle)
{
    gint64 left, right;
    if (!witness_expr_operands(handle, &left, &right))
        return;
    draw_nodes(cr, l, left);
    draw_nodes(cr, l, right);
    int who = applier_of(handle, l->viewer);
    gchar *label = who >= 0 ? g_strdup_printf("%d", who) : g_strdup("?");
    draw_op_circle(cr, node_x(handle), node_y(l, handle), breaks_order(handle), label);
    g_free(label);
}

static const char *
verdict_text(enum order_verdict verdict)
{
    switch (verdict) {
    case ORDER_RANK:
        return "rank order kept: yes";
    case ORDER_PERMUTED:
        return "rank order kept: no (every rank once, in another order)";
    case ORDER_BROKEN:
        break;
    }
    return "rank order kept: no (a broken result: missing, repeated or foreign ranks)";
}

gboolean
order_picture_draw(const struct order_certificate *cert, int rank, const char *path, GError **error)
{
    const struct order_request *q = &cert->request;
    if (rank < 0)
        rank = order_picture_default_rank(q);
    const struct order_element *element = NULL;
    for (guint i = 0; cert->elements != NULL && i < cert->elements->len; i++) {
        const struct order_element *e = &g_array_index(cert->elements, struct order_element, i);
        if (e->rank == rank && e->element == 0)
            element = e;
    }
    if (element == NULL) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST, "--picture: rank %d holds no result",
                    rank);
        return FALSE;
    }
    gint64 root = element->handle;
    guint depth = witness_expr_depth(root);
    struct layout l = {.row = depth > 40 ? 30 : 46, .viewer = rank};
    l.leaf_y = TOP + 20 + depth * l.row;
    gchar *title = g_strdup_printf("%s %s P=%d: the reduction tree of rank %d's result%s",
                                   coll_kind_name(q->kind), q->algorithm, q->nranks, rank,
                                   q->count > 1 ? " (element 0)" : "");
    GString *sub = g_string_new(NULL);
    g_string_append_printf(sub, "op %s, depth %u, ranks %d..%d expected",
                           q->commutative ? "declared commutative" : "non-commutative", depth,
                           element->first, element->last);
    if (q->kind == COLL_REDUCE)
        g_string_append_printf(sub, ", root %d", q->root);
    if (cert->fallback_reason != NULL)
        g_string_append_printf(sub, "; served by %s (%s)", cert->served, cert->fallback_reason);
    /* wide enough for the leaves and for the longest line of text (DejaVu Sans averages
     * under 0.62 em per character) */
    double text_width =
        MAX(g_utf8_strlen(title, -1) * 14 * 0.66, g_utf8_strlen(sub->str, -1) * 11 * 0.62);
    double width = MAX(MAX(MIN_WIDTH, MARGIN + text_width), 2 * MARGIN + q->nranks * STEP);
    double height = l.leaf_y + 50;
    struct picture *p = picture_begin(path, width, height, error);
    if (p == NULL) {
        g_free(title);
        g_string_free(sub, TRUE);
        return FALSE;
    }
    cairo_t *cr = picture_cairo(p);
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 14);
    cairo_set_source_rgb(cr, 0, 0, 0);
    picture_text(cr, MARGIN / 2, 22, 0, 0.5, title);
    cairo_set_font_size(cr, 12);
    if (element->verdict != ORDER_RANK)
        cairo_set_source_rgb(cr, 0.7, 0.1, 0.0);
    picture_text(cr, MARGIN / 2, 44, 0, 0.5, verdict_text(element->verdict));
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    picture_text(cr, MARGIN / 2, 64, 0, 0.5, sub->str);
    g_free(title);
    g_string_free(sub, TRUE);

    /* the legend: one sample of each shape */
    draw_leaf_box(cr, MARGIN, 90, "ri");
    picture_text(cr, MARGIN + 24, 90, 0, 0.5, "rank i's contribution (a leaf)");
    draw_op_circle(cr, MARGIN, 116, FALSE, "k");
    picture_text(cr, MARGIN + 24, 116, 0, 0.5,
                 "the op applied by rank k, left operand on the left, in rank order");
    draw_op_circle(cr, MARGIN, 142, TRUE, "k");
    picture_text(cr, MARGIN + 24, 142, 0, 0.5,
                 "the op breaking rank order: operands swapped, or ranks not adjacent");

    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    cairo_set_line_width(cr, 1.2);
    if (witness_expr_valid(root))
        draw_edges(cr, &l, root);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 10);
    if (witness_expr_valid(root))
        draw_nodes(cr, &l, root);
    for (int r = 0; r < q->nranks; r++) {
        gchar *label = g_strdup_printf("r%d", r);
        draw_leaf_box(cr, leaf_x(r), l.leaf_y, label);
        g_free(label);
    }
    cairo_set_font_size(cr, 11);
    cairo_set_source_rgb(cr, 0, 0, 0);
    picture_text(cr, width / 2, l.leaf_y + 28, 0.5, 0.5,
                 "leaves: the ranks' contributions, rank 0 on the left");
    return picture_end(p, error);
}
