/*
 * coll_select.c — forced choices, the reproducible mode, and the default decision.
 *
 * The default decision of each collective is data in its home (the `rules` of
 * src/coll/<collective>/<collective>.c, each file's header says what they follow); this file
 * only walks them. `collsim list decisions` prints them all. If the rules' choice cannot serve
 * the call, the first applicable row of the kind serves. The reproducible mode (coll_select.h)
 * replaces the rules for the reductions; an installed library decision (coll_decision.h)
 * replaces them for the kinds its file covers.
 */
#include <stdio.h>
#include <limits.h>
#include <string.h>

#include "coll_decision.h"
#include "coll_select.h"

static const struct coll_algorithm *forced[COLL_KIND_COUNT];
static struct coll_params forced_params[COLL_KIND_COUNT];
static int reproducible;
static const struct coll_decision *installed_decision;

void
coll_select_set_decision(const struct coll_decision *decision)
{
    installed_decision = decision;
}

const struct coll_decision *
coll_select_decision(void)
{
    return installed_decision;
}

void
coll_select_reset(void)
{
    memset(forced, 0, sizeof forced);
    memset(forced_params, 0, sizeof forced_params);
    reproducible = 0;
}

void
coll_select_set_reproducible(int on)
{
    reproducible = on != 0;
}

int
coll_select_reproducible(void)
{
    return reproducible;
}

const char *
coll_select_reproducible_choice(enum coll_kind kind)
{
    return coll_kind_info(kind)->reproducible;
}

int
coll_select_force(enum coll_kind kind, const char *name, const struct coll_params *params,
                  char *why, size_t why_size)
{
    const struct coll_algorithm *row = coll_registry_find(kind, name);
    if (row == NULL) {
        snprintf(why, why_size, "%s has no algorithm named '%s' (see collsim list algorithms)",
                 coll_kind_mpi_name(kind), name);
        return 0;
    }
    struct coll_params p = params != NULL ? *params : row->defaults;
    if (p.segment_bytes == 0)
        p.segment_bytes = row->defaults.segment_bytes;
    if (p.radix == 0)
        p.radix = row->defaults.radix;
    if ((row->caps & COLL_SEGMENTED) && p.segment_bytes <= 0) {
        snprintf(why, why_size, "segment_bytes must be positive");
        return 0;
    }
    if ((row->caps & COLL_RADIX) && p.radix < 2) {
        snprintf(why, why_size, "radix must be at least 2");
        return 0;
    }
    forced[kind] = row;
    forced_params[kind] = p;
    return 1;
}

const struct coll_algorithm *
coll_select_forced(enum coll_kind kind)
{
    return forced[kind];
}

const char *
coll_select_unmet(const struct coll_algorithm *row, const struct coll_call *call)
{
    if ((row->requires & COLL_REQ_COMMUTATIVE) && !call->commutative)
        return "requires commutative op";
    if ((row->requires & COLL_REQ_POWER_OF_TWO) && (call->comm_size & (call->comm_size - 1)))
        return "requires power-of-two ranks";
    if ((row->requires & COLL_REQ_COUNT_GE_SIZE) && call->count < call->comm_size)
        return "requires count >= ranks";
    if ((row->requires & COLL_REQ_CONTIGUOUS) && !call->contiguous)
        return "requires contiguous datatype";
    if ((row->requires & COLL_REQ_EVEN_RANKS) && call->comm_size % 2 != 0)
        return "requires an even number of ranks";
    if ((row->requires & COLL_REQ_TWO_RANKS) && call->comm_size != 2)
        return "requires exactly two ranks";
    /* the same on every rank: the bytes of a block are (type matching) */
    if ((row->requires & COLL_REQ_TOTAL_FITS_INT) &&
        (unsigned long long)call->bytes * (unsigned long long)call->comm_size > INT_MAX)
        return "requires bytes x ranks < 2 GiB (it moves up to every rank's data in one "
               "message of int count)";
    if ((row->caps & COLL_READS_DATA) && call->sizes_only)
        return "needs payload data: it acts on values it receives (payload = data)";
    if ((row->requires & COLL_REQ_NODE_BLOCKS) && !call->commutative && !call->node_blocks)
        return "requires commutative op, or each node's ranks consecutive (block placement) "
               "to keep rank order";
    return NULL;
}

int
coll_rule_matches(const struct coll_rule *rule, const struct coll_call *call)
{
    size_t bytes = call->bytes;
    if (rule->when & COLL_RULE_TOTAL)
        bytes *= (size_t)call->comm_size;
    if ((rule->when & COLL_RULE_POF2) && (call->comm_size & (call->comm_size - 1)) != 0)
        return 0;
    if ((rule->when & COLL_RULE_NONCOMMUTATIVE) && call->commutative)
        return 0;
    if ((rule->when & COLL_RULE_COUNT_GE_SIZE) && call->count < call->comm_size)
        return 0;
    if ((rule->over_bytes != 0 && bytes <= rule->over_bytes) ||
        (rule->below_bytes != 0 && bytes >= rule->below_bytes) ||
        (rule->upto_bytes != 0 && bytes > rule->upto_bytes))
        return 0;
    if (call->comm_size < rule->min_ranks ||
        (rule->below_ranks != 0 && call->comm_size >= rule->below_ranks))
        return 0;
    return 1;
}

/* 12288 -> "12 KiB", 513 -> "513 B": exact, so the text says what the rule does. */
static void
bytes_text(size_t bytes, char *buf, size_t size)
{
    if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, size, "%zu KiB", bytes / 1024);
    else
        snprintf(buf, size, "%zu B", bytes);
}

void
coll_rule_describe(const struct coll_rule *rule, char *buf, size_t size)
{
    const char *what = (rule->when & COLL_RULE_TOTAL) ? "bytes x ranks" : "bytes";
    char parts[8][64];
    int n = 0;
    if (rule->when & COLL_RULE_NONCOMMUTATIVE)
        snprintf(parts[n++], sizeof parts[0], "non-commutative op");
    if (rule->when & COLL_RULE_POF2)
        snprintf(parts[n++], sizeof parts[0], "power-of-two ranks");
    if (rule->when & COLL_RULE_COUNT_GE_SIZE)
        snprintf(parts[n++], sizeof parts[0], "count >= ranks");
    if (rule->min_ranks > 0)
        snprintf(parts[n++], sizeof parts[0], "ranks >= %d", rule->min_ranks);
    if (rule->below_ranks > 0)
        snprintf(parts[n++], sizeof parts[0], "ranks < %d", rule->below_ranks);
    static const char *const relation[3] = {">", "<", "<="};
    const size_t bound[3] = {rule->over_bytes, rule->below_bytes, rule->upto_bytes};
    for (int i = 0; i < 3; i++) {
        if (bound[i] == 0)
            continue;
        char text[32];
        bytes_text(bound[i], text, sizeof text);
        snprintf(parts[n++], sizeof parts[0], "%s %s %s", what, relation[i], text);
    }
    size_t used = 0;
    buf[0] = '\0';
    if (n == 0)
        snprintf(buf, size, "otherwise");
    for (int i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", parts[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

const char *
coll_rules_choice(const struct coll_call *call)
{
    const struct coll_kind_desc *kind = coll_kind_info(call->kind);
    for (size_t i = 0; i < kind->rule_count; i++)
        if (coll_rule_matches(&kind->rules[i], call))
            return kind->rules[i].algorithm;
    return NULL;
}

const struct coll_algorithm *
coll_select(const struct coll_call *call, struct coll_params *params, const char **refusal)
{
    *refusal = NULL;
    const struct coll_algorithm *row = forced[call->kind];
    if (row != NULL) {
        *refusal = coll_select_unmet(row, call);
        *params = forced_params[call->kind];
        return *refusal == NULL ? row : NULL;
    }
    const char *pinned = reproducible ? coll_select_reproducible_choice(call->kind) : NULL;
    if (pinned != NULL) {
        /* no fallback: another algorithm would silently change the bits */
        row = coll_registry_find(call->kind, pinned);
        *refusal = coll_select_unmet(row, call);
        *params = row->defaults;
        return *refusal == NULL ? row : NULL;
    }
    if (installed_decision != NULL) {
        struct coll_decision_choice choice;
        if (coll_decision_choose(installed_decision, call, &choice)) {
            if (choice.row != NULL && coll_select_unmet(choice.row, call) == NULL) {
                *params = choice.params;
                return choice.row;
            }
            row = coll_select_fallback(call);
            if (row != NULL)
                *params = row->defaults;
            return row;
        }
    }
    const char *choice = coll_rules_choice(call);
    row = choice != NULL ? coll_registry_find(call->kind, choice) : NULL;
    if (row == NULL || coll_select_unmet(row, call) != NULL)
        row = coll_select_fallback(call);
    if (row != NULL)
        *params = row->defaults;
    return row;
}

const struct coll_algorithm *
coll_select_fallback(const struct coll_call *call)
{
    for (size_t i = 0; i < coll_registry_count(call->kind); i++) {
        const struct coll_algorithm *candidate = coll_registry_nth(call->kind, i);
        if (coll_select_unmet(candidate, call) == NULL)
            return candidate;
    }
    return NULL;
}
