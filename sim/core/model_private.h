/*
 * model_private.h — the records shared by the max-min solver (model_lmm.c) and the models that
 * drive it (model.c). Not part of the API: model.h is.
 *
 * Two parts, one per SimGrid model (the CPU model and the network model), each with its own
 * solver state, event heap and lists, as SimGrid keeps one LMM system per model. Reproducing
 * SimGrid's dates bit for bit means reproducing the order of every floating-point operation,
 * and that order follows list orders; so each list below says which SimGrid list it stands for
 * and keeps that list's order:
 *  - a resource's enabled elements: new and re-enabled elements go to the front;
 *  - a part's modified resources: appended when first touched in a round, in the order of a
 *    depth-first walk of the connected flows; a resource whose last element leaves drops out;
 *  - a part's modified actions: appended by the solver (sleeps go to the front);
 *  - a part's finished actions: in the order they were finished (finishing again moves to the
 *    back); its failed (cancelled) actions: in the order they were cancelled.
 * Invariants: an element is in its resource's enabled ring exactly when its action's variable
 * penalty is positive; `modified_pos` indexes `modified` or is MODEL_NOWHERE; `heap_index`
 * indexes the heap, names a lane's entry (model.c's LANE_BIT set) or is MODEL_NOWHERE. Nothing
 * is ordered by address.
 */
#ifndef COLLSIM_CORE_MODEL_PRIVATE_H
#define COLLSIM_CORE_MODEL_PRIVATE_H

#include "sim/core/model.h"

#define MODEL_NOWHERE G_MAXUINT32
#define MODEL_NO_MAX_DURATION (-1.0) /* SimGrid's NO_MAX_DURATION */

/* What an action's heap entry announces (SimGrid's ActionHeap::Type). */
enum model_heap_kind {
    MODEL_HEAP_LATENCY,      /* a flow's latency is paid: it starts sharing bandwidth */
    MODEL_HEAP_MAX_DURATION, /* a sleep's end */
    MODEL_HEAP_NORMAL,       /* the action is done */
    MODEL_HEAP_UNSET,
};

enum model_state {
    MODEL_STARTED,
    MODEL_FINISHED,
    MODEL_IGNORED, /* a wait detector: never scheduled, never finished */
    MODEL_FAILED,  /* cancelled: out of the heap, still on its resources until popped */
};

/* One term of a resource's constraint: `weight` times the action's rate. */
struct model_elem {
    struct model_cnst *cnst;
    struct model_action *action;
    double weight;
    struct model_elem *prev, *next; /* ring of the resource's enabled elements; NULL if not in it */
};

/* A resource's constraint: the sum (SHARED) or the max (FATPIPE) of its terms <= bound. */
struct model_cnst {
    double bound;
    struct model_elem *enabled; /* first of the ring, NULL when empty */
    guint32 modified_pos;       /* position in the part's `modified` array */
    guint32 n_elems;            /* elements, enabled or not: none left drops it from `modified` */
    gboolean fatpipe;
};

struct model_link {
    struct model_cnst cnst; /* bound = bandwidth */
};

struct model_cpu {
    struct model_cnst cnst; /* bound = cores x speed */
    double speed;
};

struct model_action {
    /* the solver's variable */
    double var_penalty; /* its share is weighted by 1/var_penalty; 0: not sharing (yet) */
    double var_bound;   /* <= 0: none */
    double value;       /* the rate the last solve gave it (before the rate factor) */
    guint64 visited;    /* = the part's visit round once its resources were marked modified */
    guint64 fixed_in;   /* = the part's solve count once that solve fixed its value */
    /* progress, as a SimGrid action keeps it */
    double remains;
    double start_time;
    double last_update;
    double last_value;
    double rate_factor;  /* rate = value x rate_factor (a flow's bandwidth factor) */
    double paid_penalty; /* a flow's variable penalty once its latency is paid (its route's
                          * latency plus the weight_S terms) */
    double max_duration;
    /* event heap (the entry at heap_index holds the date and stamp) */
    guint32 heap_index;
    guint8 heap_kind;
    guint8 state;
    gboolean in_modified;
    gboolean in_saturated;
    struct model_part *part;
    struct model_action *mod_prev, *mod_next;
    struct model_action *fin_prev, *fin_next; /* in the finished or the failed list */
    void *data;
    guint32 n_elems;
    guint32 capacity;
    struct model_action *free_next; /* pool link while free */
    struct model_elem elems[];
};

/* The solver's per-round scratch, indexed by position in `modified` (SimGrid keeps these in
 * the constraints; only the resources of the round ever read them). */
struct model_light {
    double remaining_over_usage;
    guint32 pos;
};

/* A fat pipe's terms by decreasing weight/penalty, built once per solve for a long pipe. */
struct model_fat_term {
    double key;
    struct model_action *action;
};

struct model_fat_pipe {
    guint32 state; /* MODEL_FAT_UNKNOWN, MODEL_FAT_SCAN or MODEL_FAT_SORTED */
    guint32 start, len, cursor;
};

#define MODEL_FAT_UNKNOWN 0
#define MODEL_FAT_SCAN 1
#define MODEL_FAT_SORTED 2

struct model_walk_frame {
    struct model_cnst *cnst;
    struct model_elem *elem;
    guint32 next_cnst;
};

/* The finished or the failed actions of a part (SimGrid's finished and failed action sets). */
struct model_ended {
    struct model_action *head, *tail;
};

/* An entry carries its action's key, so that sifting compares within the array and reads an
 * action only to move its index. */
struct model_heap_entry {
    double date;
    guint64 stamp;
    struct model_action *action;
};

/* A lane of the event queue: entries appended in increasing (date, stamp) order, taken from
 * the front (model.c, "the event queue"). */
struct model_lane {
    struct model_heap_entry *ring; /* a power of two of entries (NULL before the first) */
    guint32 mask;                  /* the ring's size less one */
    guint32 head, len;             /* the first entry's position (modulo 2^32) and how many
                                    * follow it, taken-out ones (action NULL) included */
    double tail_date;              /* the last appended entry's date; -INFINITY: empty */
};

#define MODEL_LANES 4

struct model_heap {
    struct model_heap_entry *items;
    guint32 n, cap;
    guint64 stamp;
    struct model_lane lanes[MODEL_LANES];
};

struct model_part {
    /* solver */
    double precision; /* maxmin precision */
    gboolean dirty;   /* something changed since the last solve */
    guint64 visit_round;
    guint64 solve_count;
    struct model_cnst **modified; /* NULL holes where a resource dropped out */
    guint32 n_modified, cap_modified;
    double *remaining, *usage;
    gint32 *light_of;
    guint32 cap_scratch;
    struct model_light *light;
    struct model_fat_pipe *fat;
    struct model_fat_term *fat_terms;
    guint32 n_fat_terms, cap_fat_terms;
    guint32 *saturated;
    struct model_action **satvars;
    guint32 cap_satvars;
    struct model_walk_frame *walk;
    guint32 cap_walk;
    /* the lazy model */
    struct model_heap heap;
    struct model_action *mod_head, *mod_tail;
    struct model_ended finished, failed;
};

/* model_lmm.c: SimGrid's System (selective update) and its max-min solve */
void model_lmm_init(struct model_part *part, double precision);
void model_lmm_clear(struct model_part *part);
void model_lmm_expand(struct model_part *part, struct model_action *action, struct model_cnst *cnst,
                      double weight);
void model_lmm_set_bound(struct model_part *part, struct model_action *action, double bound);
void model_lmm_set_penalty(struct model_part *part, struct model_action *action, double penalty);
void model_lmm_free_variable(struct model_part *part, struct model_action *action);
void model_lmm_solve(struct model_part *part);

/* model.c: the part's list of modified actions, which the solve appends to */
void model_modified_push_back(struct model_part *part, struct model_action *action);

#endif
