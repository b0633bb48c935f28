/*
 * model_lmm.c — weighted max-min fairness over the resources of one part (CPUs or links), with
 * the selective update of SimGrid 3.32's LMM system: only the resources touched since the last
 * solve, and everything connected to them through running actions, are solved again.
 *
 * Why it is written the way it is: collsim's golden outputs were produced by SimGrid, so the
 * rates must come out bit for bit as SimGrid's. Rates depend on the order of the additions in a
 * resource's usage, on which resource saturates first among equals, and on which variables are
 * fixed in which round; all of these follow list orders. Each loop below therefore walks the
 * same list, in the same direction, as SimGrid's solver does (model_private.h says which list is
 * which), and each comparison uses the same precision test:
 *   positive(x, p) is x > p;  equal(a, b, p) is |a - b| < p;
 *   subtract(x, v, p) is x -= v, then x = 0 if x < p.
 *
 * SimGrid's "active" elements (those of a resource still to be fixed in a solve) are its
 * enabled elements of positive weight, pushed to the front one after the other when the solve
 * starts, and removed as their variables are fixed: that list is the enabled ring walked
 * backwards, skipping the fixed. So no list of its own is kept.
 *
 * Costs: marking a change walks the connected component once per round; a solve is linear in
 * the elements of the modified resources times the number of saturation rounds, as SimGrid's,
 * except on fat pipes, where SimGrid's cost is quadratic (fat_pipe_usage).
 */
#include <math.h>
#include <string.h>

#include "sim/core/model_private.h"

static inline void
subtract(double *x, double v, double precision)
{
    *x -= v;
    if (*x < precision)
        *x = 0.0;
}

static inline gboolean
positive(double x, double precision)
{
    return x > precision;
}

static inline gboolean
equal(double a, double b, double precision)
{
    return fabs(a - b) < precision;
}

/* `array` (of `*cap` items of `size` bytes), grown if need be to hold `need` items. */
static gpointer
grown(gpointer array, guint32 *cap, guint32 need, gsize size)
{
    if (need <= *cap)
        return array;
    guint32 n = *cap > 0 ? *cap : 64;
    while (n < need)
        n *= 2;
    *cap = n;
    return g_realloc_n(array, n, size);
}

void
model_lmm_init(struct model_part *part, double precision)
{
    part->precision = precision;
    part->visit_round = 1;
}

void
model_lmm_clear(struct model_part *part)
{
    g_free(part->modified);
    g_free(part->remaining);
    g_free(part->usage);
    g_free(part->light_of);
    g_free(part->light);
    g_free(part->fat);
    g_free(part->fat_terms);
    g_free(part->saturated);
    g_free(part->satvars);
    g_free(part->walk);
}

/* ---------------------------------------------------------------- enabled rings */

static void
ring_push_front(struct model_cnst *cnst, struct model_elem *elem)
{
    struct model_elem *first = cnst->enabled;
    if (first == NULL) {
        elem->prev = elem->next = elem;
    } else {
        elem->next = first;
        elem->prev = first->prev;
        first->prev->next = elem;
        first->prev = elem;
    }
    cnst->enabled = elem;
}

static void
ring_remove(struct model_cnst *cnst, struct model_elem *elem)
{
    if (elem->next == elem) {
        cnst->enabled = NULL;
    } else {
        elem->prev->next = elem->next;
        elem->next->prev = elem->prev;
        if (cnst->enabled == elem)
            cnst->enabled = elem->next;
    }
    elem->prev = elem->next = NULL;
}

static inline struct model_elem *
ring_next(const struct model_cnst *cnst, const struct model_elem *elem)
{
    return elem->next == cnst->enabled ? NULL : elem->next;
}

/* ---------------------------------------------------------------- the modified set */

static void
append_modified(struct model_part *part, struct model_cnst *cnst)
{
    part->modified =
        grown(part->modified, &part->cap_modified, part->n_modified + 1, sizeof *part->modified);
    cnst->modified_pos = part->n_modified;
    part->modified[part->n_modified++] = cnst;
}

/* A resource left with no element leaves the set (SimGrid makes it inactive), so that a later
 * change in the same round appends it again, at the end. */
static void
drop_modified(struct model_part *part, struct model_cnst *cnst)
{
    if (cnst->modified_pos == MODEL_NOWHERE)
        return;
    part->modified[cnst->modified_pos] = NULL;
    cnst->modified_pos = MODEL_NOWHERE;
}

/*
 * From a newly modified resource, mark every resource reachable through enabled variables,
 * depth first: for each enabled element of the resource, in ring order, each other resource of
 * its variable not yet marked is appended and explored at once; a variable is done (and
 * skipped for the rest of the round) once its own resources have all been looked at. The
 * explicit stack keeps SimGrid's recursion order without its depth limit.
 */
static void
spread_modified(struct model_part *part, struct model_cnst *root)
{
    guint64 round = part->visit_round;
    guint32 depth = 0;
    part->walk = grown(part->walk, &part->cap_walk, 1, sizeof *part->walk);
    part->walk[depth++] = (struct model_walk_frame){root, root->enabled, 0};
    while (depth > 0) {
        struct model_walk_frame *frame = &part->walk[depth - 1];
        if (frame->elem == NULL) {
            depth--;
            continue;
        }
        struct model_action *var = frame->elem->action;
        if (var->visited != round && frame->next_cnst < var->n_elems) {
            struct model_cnst *other = var->elems[frame->next_cnst++].cnst;
            if (other != frame->cnst && other->modified_pos == MODEL_NOWHERE) {
                append_modified(part, other);
                part->walk = grown(part->walk, &part->cap_walk, depth + 1, sizeof *part->walk);
                part->walk[depth++] = (struct model_walk_frame){other, other->enabled, 0};
            }
            continue;
        }
        var->visited = round;
        frame->elem = ring_next(frame->cnst, frame->elem);
        frame->next_cnst = 0;
    }
}

static void
mark_modified(struct model_part *part, struct model_cnst *cnst)
{
    if (cnst->modified_pos != MODEL_NOWHERE)
        return;
    append_modified(part, cnst);
    spread_modified(part, cnst);
}

/* Only an enabled variable spreads a change, and through its first resource only: the walk
 * reaches the others (if the first is already marked, SimGrid stops there too). */
static void
mark_modified_from(struct model_part *part, const struct model_action *var)
{
    if (var->n_elems == 0 || var->var_penalty <= 0)
        return;
    mark_modified(part, var->elems[0].cnst);
}

/* ---------------------------------------------------------------- changes */

void
model_lmm_expand(struct model_part *part, struct model_action *action, struct model_cnst *cnst,
                 double weight)
{
    part->dirty = TRUE;
    struct model_elem *elem = NULL;
    for (guint32 i = 0; i < action->n_elems; i++)
        if (action->elems[i].cnst == cnst) {
            elem = &action->elems[i];
            break;
        }
    if (elem != NULL) {
        /* a resource met twice (a backbone on both routes): one term, weights combined */
        if (cnst->fatpipe)
            elem->weight = elem->weight < weight ? weight : elem->weight;
        else
            elem->weight += weight;
    } else {
        g_assert(action->n_elems < action->capacity);
        elem = &action->elems[action->n_elems++];
        elem->cnst = cnst;
        elem->action = action;
        elem->weight = weight;
        elem->prev = elem->next = NULL;
        cnst->n_elems++;
        if (action->var_penalty != 0.0)
            ring_push_front(cnst, elem);
    }
    if (elem->weight > 0 || action->var_penalty > 0)
        mark_modified(part, cnst);
}

void
model_lmm_set_bound(struct model_part *part, struct model_action *action, double bound)
{
    part->dirty = TRUE;
    action->var_bound = bound;
    for (guint32 i = 0; i < action->n_elems; i++)
        mark_modified(part, action->elems[i].cnst);
}

void
model_lmm_set_penalty(struct model_part *part, struct model_action *action, double penalty)
{
    if (penalty == action->var_penalty)
        return;
    gboolean enabling = penalty > 0 && action->var_penalty <= 0;
    gboolean disabling = penalty <= 0 && action->var_penalty > 0;
    part->dirty = TRUE;
    if (enabling) {
        /* the change spreads after the elements are in their rings */
        action->var_penalty = penalty;
        for (guint32 i = 0; i < action->n_elems; i++)
            ring_push_front(action->elems[i].cnst, &action->elems[i]);
        mark_modified_from(part, action);
    } else if (disabling) {
        /* ... and before they leave them */
        mark_modified_from(part, action);
        for (guint32 i = 0; i < action->n_elems; i++)
            ring_remove(action->elems[i].cnst, &action->elems[i]);
        action->var_penalty = 0.0;
        action->value = 0.0;
    } else {
        action->var_penalty = penalty;
        mark_modified_from(part, action);
    }
}

void
model_lmm_free_variable(struct model_part *part, struct model_action *action)
{
    part->dirty = TRUE;
    mark_modified_from(part, action);
    for (guint32 i = 0; i < action->n_elems; i++) {
        struct model_elem *elem = &action->elems[i];
        struct model_cnst *cnst = elem->cnst;
        if (elem->prev != NULL)
            ring_remove(cnst, elem);
        if (--cnst->n_elems == 0)
            drop_modified(part, cnst);
    }
    action->n_elems = 0;
    action->in_saturated = FALSE;
}

/* ---------------------------------------------------------------- the solve */

/* Keep the light entries of smallest remaining/usage: a smaller one replaces the list, an
 * equal one joins it. */
static void
note_saturation(struct model_part *part, double rou, guint32 light_index, double *min_usage,
                guint32 *n_saturated)
{
    if (*min_usage < 0 || *min_usage > rou) {
        *min_usage = rou;
        part->saturated[0] = light_index;
        *n_saturated = 1;
    } else if (*min_usage == rou) {
        part->saturated[(*n_saturated)++] = light_index;
    }
}

/* Queue the unfixed variables of the saturated resources, each resource's in SimGrid's
 * active-list order (the enabled ring backwards), each variable once. */
static void
queue_saturated_variables(struct model_part *part, guint32 n_saturated, guint32 *sat_tail)
{
    for (guint32 s = 0; s < n_saturated; s++) {
        struct model_cnst *cnst = part->modified[part->light[part->saturated[s]].pos];
        struct model_elem *first = cnst->enabled;
        if (first == NULL)
            continue;
        struct model_elem *elem = first->prev;
        for (;;) {
            struct model_action *var = elem->action;
            if (elem->weight > 0 && var->fixed_in != part->solve_count && !var->in_saturated) {
                part->satvars =
                    grown(part->satvars, &part->cap_satvars, *sat_tail + 1, sizeof *part->satvars);
                part->satvars[(*sat_tail)++] = var;
                var->in_saturated = TRUE;
            }
            if (elem == first)
                break;
            elem = elem->prev;
        }
    }
}

static void
drop_light(struct model_part *part, guint32 pos, guint32 *n_light)
{
    gint32 index = part->light_of[pos];
    if (index < 0)
        return;
    part->light[index] = part->light[*n_light - 1];
    part->light_of[part->light[index].pos] = index;
    (*n_light)--;
    part->light_of[pos] = -1;
}

static int
compare_fat_terms(const void *a, const void *b)
{
    double x = ((const struct model_fat_term *)a)->key, y = ((const struct model_fat_term *)b)->key;
    return (x < y) - (x > y);
}

/*
 * A fat pipe's usage is its largest term whose variable is still unfixed (value 0). SimGrid
 * rescans the pipe for each variable fixed on it, which costs the square of its terms per solve;
 * a pipe of many terms is sorted once per solve instead, and a cursor moves past the fixed
 * (values only go from 0 to positive during a solve). A maximum is one of the numbers it is
 * taken over, so both find the same double.
 */
#define FAT_PIPE_SORT_FROM 16

static double
fat_pipe_usage(struct model_part *part, const struct model_cnst *cnst, guint32 pos)
{
    struct model_fat_pipe *fat = &part->fat[pos];
    if (fat->state == MODEL_FAT_UNKNOWN) {
        guint32 len = 0;
        for (const struct model_elem *e = cnst->enabled; e != NULL; e = ring_next(cnst, e))
            len += e->weight > 0;
        fat->state = len < FAT_PIPE_SORT_FROM ? MODEL_FAT_SCAN : MODEL_FAT_SORTED;
        if (fat->state == MODEL_FAT_SORTED) {
            part->fat_terms = grown(part->fat_terms, &part->cap_fat_terms, part->n_fat_terms + len,
                                    sizeof *part->fat_terms);
            fat->start = part->n_fat_terms;
            fat->len = len;
            fat->cursor = 0;
            struct model_fat_term *terms = part->fat_terms + fat->start;
            guint32 i = 0;
            for (const struct model_elem *e = cnst->enabled; e != NULL; e = ring_next(cnst, e))
                if (e->weight > 0)
                    terms[i++] =
                        (struct model_fat_term){e->weight / e->action->var_penalty, e->action};
            qsort(terms, len, sizeof *terms, compare_fat_terms);
            part->n_fat_terms += len;
        }
    }
    if (fat->state == MODEL_FAT_SORTED) {
        const struct model_fat_term *terms = part->fat_terms + fat->start;
        while (fat->cursor < fat->len && terms[fat->cursor].action->value > 0)
            fat->cursor++;
        return fat->cursor < fat->len ? terms[fat->cursor].key : 0.0;
    }
    double usage = 0.0;
    for (const struct model_elem *e = cnst->enabled; e != NULL; e = ring_next(cnst, e)) {
        if (e->action->value > 0)
            continue;
        if (e->weight > 0) {
            double u = e->weight / e->action->var_penalty;
            usage = usage < u ? u : usage;
        }
    }
    return usage;
}

/* A variable got its value: take its consumption off each of its resources of this round. */
static void
consume(struct model_part *part, const struct model_action *var, guint32 *n_light)
{
    double precision = part->precision;
    for (guint32 i = 0; i < var->n_elems; i++) {
        const struct model_elem *elem = &var->elems[i];
        struct model_cnst *cnst = elem->cnst;
        guint32 pos = cnst->modified_pos;
        if (pos == MODEL_NOWHERE)
            continue; /* outside this round: SimGrid updates numbers nobody reads */
        if (!cnst->fatpipe) {
            subtract(&part->remaining[pos], elem->weight * var->value, cnst->bound * precision);
            subtract(&part->usage[pos], elem->weight / var->var_penalty, precision);
        } else {
            part->usage[pos] = fat_pipe_usage(part, cnst, pos);
        }
        if (!positive(part->usage[pos], precision) ||
            !positive(part->remaining[pos], cnst->bound * precision))
            drop_light(part, pos, n_light);
        else if (part->light_of[pos] >= 0)
            part->light[part->light_of[pos]].remaining_over_usage =
                part->remaining[pos] / part->usage[pos];
    }
}

static void
maxmin(struct model_part *part)
{
    double precision = part->precision;
    guint32 n = part->n_modified;
    if (n > part->cap_scratch) {
        guint32 cap = part->cap_scratch > 0 ? part->cap_scratch : 64;
        while (cap < n)
            cap *= 2;
        part->remaining = g_realloc_n(part->remaining, cap, sizeof *part->remaining);
        part->usage = g_realloc_n(part->usage, cap, sizeof *part->usage);
        part->light_of = g_realloc_n(part->light_of, cap, sizeof *part->light_of);
        part->light = g_realloc_n(part->light, cap, sizeof *part->light);
        part->fat = g_realloc_n(part->fat, cap, sizeof *part->fat);
        part->saturated = g_realloc_n(part->saturated, cap, sizeof *part->saturated);
        part->cap_scratch = cap;
    }
    part->solve_count++;
    part->n_fat_terms = 0;

    /* each resource's usage: the sum (or max) of its enabled terms weighted by 1/penalty */
    double min_usage = -1;
    double min_bound = -1;
    guint32 n_light = 0, n_saturated = 0;
    for (guint32 pos = 0; pos < n; pos++) {
        struct model_cnst *cnst = part->modified[pos];
        if (cnst == NULL)
            continue;
        part->light_of[pos] = -1;
        part->fat[pos].state = MODEL_FAT_UNKNOWN;
        part->remaining[pos] = cnst->bound;
        part->usage[pos] = 0.0;
        if (!positive(cnst->bound, cnst->bound * precision))
            continue;
        double usage = 0.0;
        for (struct model_elem *e = cnst->enabled; e != NULL; e = ring_next(cnst, e)) {
            e->action->value = 0.0;
            if (e->weight > 0) {
                double u = e->weight / e->action->var_penalty;
                if (!cnst->fatpipe)
                    usage += u;
                else if (usage < u)
                    usage = u;
            }
        }
        part->usage[pos] = usage;
        if (usage > 0) {
            double rou = cnst->bound / usage;
            part->light[n_light] = (struct model_light){rou, pos};
            part->light_of[pos] = (gint32)n_light;
            note_saturation(part, rou, n_light, &min_usage, &n_saturated);
            n_light++;
        }
    }

    guint32 sat_head = 0, sat_tail = 0;
    queue_saturated_variables(part, n_saturated, &sat_tail);
    do {
        /* a variable whose bound comes first is fixed at its bound, alone with its equals */
        for (guint32 i = sat_head; i < sat_tail; i++) {
            const struct model_action *var = part->satvars[i];
            double reach = var->var_bound * var->var_penalty;
            if (var->var_bound > 0 && reach < min_usage)
                min_bound = min_bound < 0 ? reach : (reach < min_bound ? reach : min_bound);
        }
        while (sat_head < sat_tail) {
            struct model_action *var = part->satvars[sat_head++];
            var->in_saturated = FALSE;
            if (min_bound < 0)
                var->value = min_usage / var->var_penalty;
            else if (equal(min_bound, var->var_bound * var->var_penalty, precision))
                var->value = var->var_bound;
            else
                continue; /* its turn comes in a later round */
            var->fixed_in = part->solve_count;
            consume(part, var, &n_light);
        }
        sat_head = sat_tail = 0;

        /* the next resources to saturate */
        min_usage = -1;
        min_bound = -1;
        n_saturated = 0;
        for (guint32 i = 0; i < n_light; i++)
            note_saturation(part, part->light[i].remaining_over_usage, i, &min_usage, &n_saturated);
        queue_saturated_variables(part, n_saturated, &sat_tail);
    } while (n_light > 0);
}

/*
 * Solve what changed since the last solve, then queue the actions of the modified resources
 * (enabled, positive weight, in ring order) for the model to reschedule, and start a new round.
 */
void
model_lmm_solve(struct model_part *part)
{
    if (!part->dirty)
        return;
    maxmin(part);
    part->dirty = FALSE;
    for (guint32 pos = 0; pos < part->n_modified; pos++) {
        struct model_cnst *cnst = part->modified[pos];
        if (cnst == NULL)
            continue;
        for (struct model_elem *e = cnst->enabled; e != NULL; e = ring_next(cnst, e))
            if (e->weight > 0 && !e->action->in_modified)
                model_modified_push_back(part, e->action);
    }
    for (guint32 pos = 0; pos < part->n_modified; pos++)
        if (part->modified[pos] != NULL)
            part->modified[pos]->modified_pos = MODEL_NOWHERE;
    part->n_modified = 0;
    part->visit_round++;
}
