/*
 * tune_test_mapping.h — a test-only link between collsim's algorithms and library ids, and the
 * selection a written rules file must give at each measured point (tests/unit/check_tune_rules.c,
 * tests/tune/tune_verify.c).
 *
 * The mapping is made up, on purpose not the libraries' real catalogues (those belong to the
 * decision files): Open MPI has the registry rows of a collective whose index i has i % 3 != 2,
 * numbered i + 1; MPICH has those with i even, named "MPIR_<name>". So each library lacks some
 * algorithms, and a file must name the fastest among its own, not collsim's overall winner.
 */
#ifndef COLLSIM_TESTS_TUNE_TEST_MAPPING_H
#define COLLSIM_TESTS_TUNE_TEST_MAPPING_H

#include <stdio.h>
#include <string.h>

#include "sim/tune/tune_rules.h"
#include "src/coll/coll_kinds.h"
#include "src/coll/coll_registry.h"

static int
test_row_index(enum coll_kind kind, const char *algorithm)
{
    size_t n;
    const struct coll_algorithm *rows = coll_registry_rows(&n);
    int index = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].kind != kind)
            continue;
        if (strcmp(rows[i].name, algorithm) == 0)
            return index;
        index++;
    }
    return -1;
}

static const char *
test_library_id(enum tune_library library, enum coll_kind kind, const char *algorithm,
                gpointer data)
{
    (void)data;
    int i = test_row_index(kind, algorithm);
    char text[128];
    if (i < 0)
        return NULL;
    if (library == TUNE_LIBRARY_OMPI && i % 3 != 2)
        snprintf(text, sizeof text, "%d", i + 1);
    else if (library == TUNE_LIBRARY_MPICH && i % 2 == 0)
        snprintf(text, sizeof text, "MPIR_%s", algorithm);
    else
        return NULL;
    return g_intern_string(text);
}

static const char *
test_collsim_name(enum tune_library library, enum coll_kind kind, const char *id, gpointer data)
{
    size_t n;
    const struct coll_algorithm *rows = coll_registry_rows(&n);
    for (size_t i = 0; i < n; i++) {
        if (rows[i].kind != kind)
            continue;
        const char *mine = test_library_id(library, kind, rows[i].name, data);
        if (mine != NULL && strcmp(mine, id) == 0)
            return rows[i].name;
    }
    return NULL;
}

static const struct tune_mapping test_mapping = {test_library_id, test_collsim_name, NULL};

static guint64
test_library_key(enum tune_library library, const struct tune_point *p)
{
    return library == TUNE_LIBRARY_OMPI
               ? tune_ompi_message_size(p->kind, p->nranks, p->bytes, p->type_size)
               : tune_mpich_message_size(p->kind, p->nranks, p->bytes, p->type_size);
}

/*
 * The collsim algorithm the file must select at `p`: the fastest of the library's at p, unless
 * a smaller measured size at the same P has the same library size key (the library cannot tell
 * them apart: the smaller size's winner stands). NULL when no algorithm of the library served p
 * (nothing to check) or the library has no rules for the collective.
 */
static const char *
test_expected(const struct tune_table *table, const struct tune_mapping *mapping,
              enum tune_library library, const struct tune_point *p)
{
    if (library == TUNE_LIBRARY_OMPI && tune_ompi_collective_id(p->kind) < 0)
        return NULL;
    if (tune_point_fastest(p, library, mapping, NULL) == NULL)
        return NULL;
    guint64 key = test_library_key(library, p);
    for (guint i = 0; i < table->points->len; i++) {
        const struct tune_point *q = g_ptr_array_index(table->points, i);
        if (q->kind != p->kind || q->nranks != p->nranks || q->bytes >= p->bytes)
            continue;
        const struct tune_candidate *w = tune_point_fastest(q, library, mapping, NULL);
        if (w != NULL && test_library_key(library, q) == key)
            return w->algorithm;
    }
    return tune_point_fastest(p, library, mapping, NULL)->algorithm;
}

/* What the file selects at `p`, as a collsim name ("(fixed)" / "(none)" when it names none). */
static const char *
test_selected_ompi(const struct tune_ompi_rules *rules, const struct tune_mapping *mapping,
                   const struct tune_point *p)
{
    struct tune_ompi_choice choice;
    if (!tune_ompi_lookup(rules, tune_ompi_collective_id(p->kind), p->nranks,
                          tune_ompi_message_size(p->kind, p->nranks, p->bytes, p->type_size),
                          &choice))
        return "(no rules)";
    if (choice.algorithm == 0)
        return "(fixed)";
    char id[32];
    snprintf(id, sizeof id, "%d", choice.algorithm);
    const char *name = mapping->collsim_name(TUNE_LIBRARY_OMPI, p->kind, id, mapping->data);
    return name != NULL ? name : "(unknown id)";
}

static const char *
test_selected_mpich(const struct tune_mpich_rules *rules, const struct tune_mapping *mapping,
                    const struct tune_point *p)
{
    struct tune_mpich_call call = {.kind = p->kind,
                                   .comm_size = p->nranks,
                                   .bytes = p->bytes,
                                   .type_size = p->type_size,
                                   .commutative = TRUE};
    const char *id = tune_mpich_lookup(rules, &call);
    if (id == NULL)
        return "(none)";
    const char *name = mapping->collsim_name(TUNE_LIBRARY_MPICH, p->kind, id, mapping->data);
    return name != NULL ? name : "(unknown id)";
}

/* Read the two files back and count the measured points where one does not select its
 * expected winner under `mapping` (each printed on stderr); -1 if a file cannot be read. */
static int
test_check_files(const struct tune_table *table, const struct tune_mapping *mapping,
                 const char *ompi_path, const char *mpich_path, int *checked)
{
    GError *error = NULL;
    struct tune_ompi_rules *ompi = tune_ompi_load(ompi_path, &error);
    struct tune_mpich_rules *mpich = ompi != NULL ? tune_mpich_load(mpich_path, &error) : NULL;
    int wrong = -1;
    if (ompi == NULL || mpich == NULL) {
        fprintf(stderr, "read back: %s\n", error->message);
        g_error_free(error);
        goto out;
    }
    wrong = 0;
    *checked = 0;
    for (guint i = 0; i < table->points->len; i++) {
        const struct tune_point *p = g_ptr_array_index(table->points, i);
        for (int l = 0; l < TUNE_LIBRARY_COUNT; l++) {
            const char *want = test_expected(table, mapping, l, p);
            if (want == NULL)
                continue;
            const char *got = l == TUNE_LIBRARY_OMPI ? test_selected_ompi(ompi, mapping, p)
                                                     : test_selected_mpich(mpich, mapping, p);
            (*checked)++;
            if (strcmp(want, got) != 0) {
                wrong++;
                fprintf(stderr,
                        "%s: %s P=%d bytes=%" G_GUINT64_FORMAT ": file selects %s, "
                        "the fastest of the library's is %s\n",
                        tune_library_name(l), coll_kind_name(p->kind), p->nranks, p->bytes, got,
                        want);
            }
        }
    }
out:
    tune_ompi_rules_free(ompi);
    tune_mpich_rules_free(mpich);
    return wrong;
}

/* Write both files from `table` under `prefix` through the test mapping and check them. */
static int
test_round_trip(const struct tune_table *table, const char *prefix, int *checked)
{
    gchar *ompi_path = g_strdup_printf("%s-ompi.rules", prefix);
    gchar *mpich_path = g_strdup_printf("%s-mpich.json", prefix);
    struct tune_rules_source source = {table, &test_mapping, "the test mapping"};
    GError *error = NULL;
    int wrong = -1;
    if (!tune_ompi_write(&source, ompi_path, &error) ||
        !tune_mpich_write(&source, mpich_path, &error)) {
        fprintf(stderr, "round trip: %s\n", error->message);
        g_error_free(error);
    } else {
        wrong = test_check_files(table, &test_mapping, ompi_path, mpich_path, checked);
    }
    g_free(ompi_path);
    g_free(mpich_path);
    return wrong;
}

#endif
