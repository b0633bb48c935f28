/*
 * coll_select.h — which algorithm serves a collective call.
 *
 * A user may force an algorithm per collective (collsim exec --algorithm reduce=binomial);
 * otherwise the collective's default decision (rules as data in its home, coll_kinds.h) picks
 * one by communicator size and bytes, among the algorithms whose requirements the call meets. A forced algorithm that cannot serve a call is
 * refused with the requirement it lacks — never replaced by another one silently.
 * The choices are global to the simulation (the same on every rank).
 *
 * The "reproducible" mode (scenario `algorithms = reproducible`, collsim exec --algorithm
 * reproducible) pins every reduction to one order-preserving algorithm whose bracketing
 * depends only on the number of ranks and the count — never on bytes thresholds, the
 * platform, the placement, the eager threshold or the root — so that floating-point results
 * are bitwise identical on every virtual cluster:
 *   Reduce                   in_order_binary (binomial and knomial bracket around the root
 *                            for a commutative op, so their order moves with the root)
 *   Allreduce                recursive_doubling
 *   Reduce_scatter(_block)   recursive_doubling
 *   Scan, Exscan             recursive_doubling
 * (`collsim order COLLECTIVE ALGORITHM --commutative --root R` shows each one's bracketing.)
 * Collectives that move data unchanged are left to the decision table (or a forced choice):
 * any of their algorithms gives the same bits. A choice forced for one collective wins over
 * the mode for that collective.
 *
 * A library's decision (collsim --decision ompi|mpich|mvapich2|impi|FILE.rules, scenario key
 * `[run] decision`; src/coll_decision.h) replaces the kinds' default rules for every
 * collective its file has a section for. Precedence, strongest first: a forced algorithm (for
 * its collective), the reproducible mode (for the reductions it pins: the bits must not depend
 * on the library emulated), the installed decision, collsim's own rules. When the decision's
 * algorithm cannot serve the call (a requirement unmet, or not in this build), collsim's
 * fallback serves: the first registry row of the kind that can.
 */
#ifndef COLLSIM_COLL_SELECT_H
#define COLLSIM_COLL_SELECT_H

#include <stddef.h>

#include "coll_registry.h"

/* What a call is about, as selection needs it. */
struct coll_call {
    enum coll_kind kind;
    int comm_size;
    size_t bytes;          /* the call's data volume per rank (e.g. count * type size) */
    int count;             /* items per rank (reductions: the vector's length) */
    int commutative;       /* 1 unless a non-commutative op is involved */
    int contiguous;        /* datatype has no holes */
    int node_blocks;       /* every node's ranks are consecutive in the communicator */
    int sizes_only;        /* collsim's payload none: no data moves, so a COLL_READS_DATA
                            * algorithm cannot serve */
};

/* Force `name` (with params, or the row's defaults when params is NULL) for `kind`.
 * Returns 0 and fills `why` if the name is unknown or a parameter is invalid. */
int coll_select_force(enum coll_kind kind, const char *name, const struct coll_params *params,
                      char *why, size_t why_size);
/* The name that turns the reproducible mode on, wherever an algorithm name is accepted. */
#define COLL_SELECT_REPRODUCIBLE "reproducible"

/* Turn the reproducible mode on or off (see above). */
void coll_select_set_reproducible(int on);
int coll_select_reproducible(void);
/* The algorithm the mode pins for a kind, or NULL for the kinds that do not reduce. */
const char *coll_select_reproducible_choice(enum coll_kind kind);

struct coll_decision;
/* Install a library's decision (NULL: collsim's own rules). The caller keeps it alive while it
 * is installed; coll_select_reset() does not remove it (it is a setting of the whole run, like
 * the platform, not a per-point choice). */
void coll_select_set_decision(const struct coll_decision *decision);
const struct coll_decision *coll_select_decision(void);
/* collsim's fallback: the first registry row of the call's kind that can serve it, or NULL. */
const struct coll_algorithm *coll_select_fallback(const struct coll_call *call);

/* Forget every forced choice and the mode (a new simulation). */
void coll_select_reset(void);
/* The forced row of a kind, or NULL. */
const struct coll_algorithm *coll_select_forced(enum coll_kind kind);

/*
 * The first requirement of `row` that `call` does not meet, as text ("requires commutative
 * op"), or NULL if the row can serve the call.
 */
const char *coll_select_unmet(const struct coll_algorithm *row, const struct coll_call *call);

/* Whether `call` meets every condition of `rule`. */
int coll_rule_matches(const struct coll_rule *rule, const struct coll_call *call);
/* The conditions of a rule as text, e.g. "power-of-two ranks, bytes < 512 KiB", "otherwise". */
void coll_rule_describe(const struct coll_rule *rule, char *buf, size_t size);
/* The algorithm the kind's default rules choose for `call` (the first rule that matches). */
const char *coll_rules_choice(const struct coll_call *call);

/*
 * Choose the algorithm for `call`: the forced one, else the reproducible mode's pinned one,
 * else the installed decision's, else the default rules'. When the forced
 * or pinned one cannot serve the call, returns NULL and points *refusal at the unmet
 * requirement.
 * *params receives the parameters to pass.
 */
const struct coll_algorithm *coll_select(const struct coll_call *call, struct coll_params *params,
                                         const char **refusal);

#endif
