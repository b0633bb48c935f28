/*
 * witness_expr.c — the hash-consed expression table behind the witness op (witness_expr.h).
 *
 * Nodes live in one array indexed by handle - 1; a hash table from (left, right, leaf) to
 * handle finds an existing node. Each node carries what the certificate needs in O(1) —
 * depth, size, leftmost and rightmost leaf, and whether its leaves form an ascending run of
 * consecutive ranks — computed from its operands when it is created. The structural hash is
 * computed on first request and kept.
 */
#include "config.h"

#include <string.h>

#include "sim/order/witness_expr.h"

struct witness_node {
    gint64 left, right; /* operands; UNDEFINED for a leaf */
    gint32 leaf;        /* the rank of a leaf, -1 for an application */
    gint32 first, last; /* leftmost and rightmost leaf */
    guint32 depth;
    guint32 size;
    gboolean range; /* leaves are first, first+1, ..., last */
    gboolean hashed;
    guint8 hash[WITNESS_EXPR_HASH_BYTES];
    gint32 low, high; /* the lowest and highest leaf rank */
};

static GArray *nodes;        /* struct witness_node, handle h at index h - 1 */
static GHashTable *index_of; /* handle -> handle, keyed by the node's contents */
static guint64 applications, op_calls, invalid;
static witness_expr_observer *observer;
static gpointer observer_data;

static struct witness_node *
node_at(gint64 handle)
{
    return &g_array_index(nodes, struct witness_node, handle - 1);
}

static guint
node_key_hash(gconstpointer key)
{
    const struct witness_node *n = node_at((gint64)GPOINTER_TO_SIZE(key));
    guint64 h = (guint64)n->left * 0x9E3779B97F4A7C15u ^ (guint64)n->right * 0xC2B2AE3D27D4EB4Fu ^
                (guint64)(guint32)n->leaf * 0x165667B19E3779F9u;
    return (guint)(h ^ (h >> 32));
}

static gboolean
node_key_equal(gconstpointer a, gconstpointer b)
{
    const struct witness_node *x = node_at((gint64)GPOINTER_TO_SIZE(a));
    const struct witness_node *y = node_at((gint64)GPOINTER_TO_SIZE(b));
    return x->left == y->left && x->right == y->right && x->leaf == y->leaf;
}

static void
ensure_table(void)
{
    if (nodes != NULL)
        return;
    nodes = g_array_new(FALSE, TRUE, sizeof(struct witness_node));
    index_of = g_hash_table_new(node_key_hash, node_key_equal);
}

void
witness_expr_reset(void)
{
    if (nodes != NULL) {
        g_hash_table_destroy(index_of);
        g_array_free(nodes, TRUE);
        nodes = NULL;
        index_of = NULL;
    }
    applications = op_calls = invalid = 0;
}

/*
 * Find `candidate` or add it. The candidate is appended first so that the table's hash and
 * equality functions, which read nodes by handle, can see it; a duplicate is taken back.
 */
static gint64
intern(const struct witness_node *candidate)
{
    ensure_table();
    g_array_append_val(nodes, *candidate);
    gint64 fresh = (gint64)nodes->len;
    gpointer found = g_hash_table_lookup(index_of, GSIZE_TO_POINTER((gsize)fresh));
    if (found != NULL) {
        g_array_set_size(nodes, nodes->len - 1);
        return (gint64)GPOINTER_TO_SIZE(found);
    }
    g_hash_table_insert(index_of, GSIZE_TO_POINTER((gsize)fresh), GSIZE_TO_POINTER((gsize)fresh));
    return fresh;
}

gboolean
witness_expr_valid(gint64 handle)
{
    return nodes != NULL && handle >= 1 && handle <= (gint64)nodes->len;
}

gint64
witness_expr_leaf(int rank)
{
    g_return_val_if_fail(rank >= 0, WITNESS_EXPR_UNDEFINED);
    struct witness_node leaf = {
        .leaf = rank, .first = rank, .last = rank, .size = 1, .range = TRUE,
        .low = rank, .high = rank};
    return intern(&leaf);
}

gint64
witness_expr_apply(gint64 left, gint64 right)
{
    applications++;
    if (!witness_expr_valid(left) || !witness_expr_valid(right)) {
        invalid++;
        return WITNESS_EXPR_UNDEFINED;
    }
    const struct witness_node *l = node_at(left), *r = node_at(right);
    struct witness_node n = {
        .left = left,
        .right = right,
        .leaf = -1,
        .first = l->first,
        .last = r->last,
        .depth = 1 + MAX(l->depth, r->depth),
        .size = l->size + r->size,
        .range = l->range && r->range && l->last + 1 == r->first,
        .low = MIN(l->low, r->low),
        .high = MAX(l->high, r->high),
    };
    gint64 result = intern(&n);
    if (observer != NULL)
        observer(result, observer_data);
    return result;
}

void
witness_expr_op(void *in, void *inout, int *len, MPI_Datatype *datatype)
{
    (void)datatype; /* the op x type table does not apply to user ops; MPI_INT64_T only */
    const gint64 *a = in;
    gint64 *b = inout;
    op_calls++;
    for (int k = 0; k < *len; k++) {
        gint64 left, right;
        /* the buffers may be unaligned views into packed data */
        memcpy(&left, a + k, sizeof left);
        memcpy(&right, b + k, sizeof right);
        gint64 result = witness_expr_apply(left, right);
        memcpy(b + k, &result, sizeof result);
    }
}

guint64
witness_expr_applications(void)
{
    return applications;
}

guint64
witness_expr_op_calls(void)
{
    return op_calls;
}

guint64
witness_expr_invalid(void)
{
    return invalid;
}

gsize
witness_expr_node_count(void)
{
    return nodes != NULL ? nodes->len : 0;
}

guint
witness_expr_depth(gint64 handle)
{
    return witness_expr_valid(handle) ? node_at(handle)->depth : 0;
}

guint
witness_expr_size(gint64 handle)
{
    return witness_expr_valid(handle) ? node_at(handle)->size : 0;
}

gboolean
witness_expr_is_range(gint64 handle, int first, int last)
{
    if (!witness_expr_valid(handle))
        return FALSE;
    const struct witness_node *n = node_at(handle);
    return n->range && n->first == first && n->last == last;
}

gboolean
witness_expr_operands(gint64 handle, gint64 *left, gint64 *right)
{
    if (!witness_expr_valid(handle) || node_at(handle)->leaf >= 0)
        return FALSE;
    *left = node_at(handle)->left;
    *right = node_at(handle)->right;
    return TRUE;
}

int
witness_expr_leaf_rank(gint64 handle)
{
    return witness_expr_valid(handle) ? node_at(handle)->leaf : -1;
}

void
witness_expr_span(gint64 handle, int *lowest, int *highest)
{
    *lowest = *highest = -1;
    if (witness_expr_valid(handle)) {
        *lowest = node_at(handle)->low;
        *highest = node_at(handle)->high;
    }
}

void
witness_expr_set_observer(witness_expr_observer *fn, gpointer data)
{
    observer = fn;
    observer_data = data;
}

/* Depth-first walks recurse as deep as the expression, at most the number of ranks. */
static void
collect_leaves(gint64 handle, GArray *out)
{
    const struct witness_node *n = node_at(handle);
    if (n->leaf >= 0) {
        gint rank = n->leaf;
        g_array_append_val(out, rank);
        return;
    }
    collect_leaves(n->left, out);
    collect_leaves(n->right, out);
}

GArray *
witness_expr_leaves(gint64 handle)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(gint));
    if (witness_expr_valid(handle))
        collect_leaves(handle, out);
    return out;
}

static void
append_text(gint64 handle, GString *out)
{
    const struct witness_node *n = node_at(handle);
    if (n->leaf >= 0) {
        g_string_append_printf(out, "r%d", n->leaf);
        return;
    }
    g_string_append_c(out, '(');
    append_text(n->left, out);
    g_string_append(out, "\u00b7");
    append_text(n->right, out);
    g_string_append_c(out, ')');
}

gchar *
witness_expr_text(gint64 handle)
{
    if (!witness_expr_valid(handle))
        return g_strdup("?");
    GString *out = g_string_new(NULL);
    append_text(handle, out);
    return g_string_free(out, FALSE);
}

/* `prefix` is what the lines below this node start with (the ancestors' rails). */
static void
append_tree(gint64 handle, GString *prefix, const char *branch, GString *out)
{
    const struct witness_node *n = node_at(handle);
    g_string_append_printf(out, "%s%s", prefix->str, branch);
    if (n->leaf >= 0) {
        g_string_append_printf(out, "r%d\n", n->leaf);
        return;
    }
    g_string_append(out, "\u00b7\n");
    gsize keep = prefix->len;
    /* below a first child the rail continues; below a last child it stops */
    if (g_str_has_prefix(branch, "\u251c"))
        g_string_append(prefix, "\u2502   ");
    else if (*branch != '\0')
        g_string_append(prefix, "    ");
    append_tree(n->left, prefix, "\u251c\u2500\u2500 ", out);
    append_tree(n->right, prefix, "\u2514\u2500\u2500 ", out);
    g_string_truncate(prefix, keep);
}

gchar *
witness_expr_tree(gint64 handle, const char *indent)
{
    GString *out = g_string_new(NULL);
    GString *prefix = g_string_new(indent != NULL ? indent : "");
    if (witness_expr_valid(handle))
        append_tree(handle, prefix, "", out);
    else
        g_string_append_printf(out, "%s?\n", prefix->str);
    g_string_free(prefix, TRUE);
    return g_string_free(out, FALSE);
}

static void
hash_leaf(struct witness_node *n)
{
    gchar *text = g_strdup_printf("r%d", n->leaf);
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, (const guchar *)text, (gssize)strlen(text));
    gsize len = sizeof n->hash;
    g_checksum_get_digest(sum, n->hash, &len);
    g_checksum_free(sum);
    g_free(text);
}

static void
hash_application(struct witness_node *n)
{
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, node_at(n->left)->hash, WITNESS_EXPR_HASH_BYTES);
    g_checksum_update(sum, node_at(n->right)->hash, WITNESS_EXPR_HASH_BYTES);
    gsize len = sizeof n->hash;
    g_checksum_get_digest(sum, n->hash, &len);
    g_checksum_free(sum);
}

/* Post-order with an explicit stack: a chain of many ranks is as deep as it is long. */
const guint8 *
witness_expr_hash(gint64 handle)
{
    if (!witness_expr_valid(handle))
        return NULL;
    if (node_at(handle)->hashed)
        return node_at(handle)->hash;
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(gint64));
    g_array_append_val(stack, handle);
    while (stack->len > 0) {
        gint64 top = g_array_index(stack, gint64, stack->len - 1);
        struct witness_node *n = node_at(top);
        if (n->hashed) {
            g_array_set_size(stack, stack->len - 1);
            continue;
        }
        if (n->leaf >= 0) {
            hash_leaf(n);
        } else if (!node_at(n->left)->hashed || !node_at(n->right)->hashed) {
            gint64 left = n->left, right = n->right;
            if (!node_at(right)->hashed)
                g_array_append_val(stack, right);
            if (!node_at(left)->hashed)
                g_array_append_val(stack, left);
            continue;
        } else {
            hash_application(n);
        }
        n->hashed = TRUE;
        g_array_set_size(stack, stack->len - 1);
    }
    g_array_free(stack, TRUE);
    return node_at(handle)->hash;
}

gchar *
witness_expr_hash_hex(gint64 handle)
{
    const guint8 *hash = witness_expr_hash(handle);
    if (hash == NULL)
        return NULL;
    GString *out = g_string_sized_new(2 * WITNESS_EXPR_HASH_BYTES);
    for (int i = 0; i < WITNESS_EXPR_HASH_BYTES; i++)
        g_string_append_printf(out, "%02x", hash[i]);
    return g_string_free(out, FALSE);
}
