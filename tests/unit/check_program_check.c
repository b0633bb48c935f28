/*
 * check_program_check.c — unit tests of sim/engine/program_check.c on shared objects compiled
 * here with cc (the symbols each must list follow from its source), on programs that look
 * built for Open MPI, MPICH or SMPI, and on malformed files: each of those must give one
 * message naming the file, never a crash (a truncation at every length, and byte flips, are
 * read without fault).
 */
#include "config.h"

#include <check.h>
#include <elf.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mpi.h"
#include "sim/engine/program_check.h"

static gchar *tmpdir;

/* Without fsync: the byte-flip test writes the file thousands of times. */
static void
rewrite(const char *path, const char *contents, gsize length)
{
    ck_assert(g_file_set_contents_full(path, contents, (gssize)length, G_FILE_SET_CONTENTS_NONE,
                                       0644, NULL));
}

/* Writes SOURCE to NAME.c in the temporary folder, compiles it with EXTRA flags into NAME.so
 * (cc -shared -fPIC, as a user builds a program) and returns the .so's path. */
static gchar *
build(const char *name, const char *source, const char *extra)
{
    gchar *c = g_strdup_printf("%s/%s.c", tmpdir, name);
    gchar *so = g_strdup_printf("%s/%s.so", tmpdir, name);
    ck_assert(g_file_set_contents(c, source, -1, NULL));
    gchar *cmd = g_strdup_printf("cc -shared -fPIC -o %s %s %s", so, c, extra);
    gchar *err = NULL;
    gint status = -1;
    GError *error = NULL;
    ck_assert_msg(g_spawn_command_line_sync(cmd, NULL, &err, &status, &error), "%s", cmd);
    ck_assert_msg(status == 0, "%s: %s", cmd, err);
    g_free(err);
    g_free(cmd);
    g_free(c);
    return so;
}

/* A file with these bytes, in the temporary folder. */
static gchar *
write_bytes(const char *name, const void *bytes, gsize length)
{
    gchar *path = g_strdup_printf("%s/%s", tmpdir, name);
    ck_assert(g_file_set_contents(path, bytes, (gssize)length, NULL));
    return path;
}

static gboolean
has_name(GPtrArray *names, const char *name)
{
    for (guint i = 0; i < names->len; i++)
        if (strcmp(g_ptr_array_index(names, i), name) == 0)
            return TRUE;
    return FALSE;
}

static const char ordinary_program[] =
    "int MPI_Init(int *, char ***);\n"
    "int MPI_Iallreduce(const void *, void *, int, void *, void *, void *, void *);\n"
    "int MPI_Finalize(void);\n"
    "extern int MPI_Win_create() __attribute__((weak));\n"
    "int helper(int x) { return x + 1; }\n"
    "int main(int argc, char **argv) {\n"
    "    MPI_Init(&argc, &argv);\n"
    "    MPI_Iallreduce(0, 0, 0, 0, 0, 0, 0);\n"
    "    if (MPI_Win_create) MPI_Win_create();\n"
    "    return MPI_Finalize() + helper(0);\n"
    "}\n";

/* The undefined dynamic symbols, sorted, with weak ones; DT_NEEDED in file order. */
START_TEST(test_program_check_reads_symbols)
{
    gchar *so = build("ordinary", ordinary_program, "-Wl,--no-as-needed -lm");
    struct program_needs needs;
    GError *error = NULL;
    ck_assert_msg(program_needs_read(so, &needs, &error), "%s", error ? error->message : "");
    ck_assert(has_name(needs.undefined, "MPI_Init"));
    ck_assert(has_name(needs.undefined, "MPI_Iallreduce"));
    ck_assert(has_name(needs.undefined, "MPI_Finalize"));
    ck_assert(has_name(needs.undefined, "MPI_Win_create")); /* weak, but still bound */
    ck_assert(!has_name(needs.undefined, "helper"));        /* defined by the program */
    ck_assert(!has_name(needs.undefined, "main"));
    for (guint i = 1; i < needs.undefined->len; i++)
        ck_assert_int_lt(strcmp(g_ptr_array_index(needs.undefined, i - 1),
                                g_ptr_array_index(needs.undefined, i)),
                         0);
    ck_assert(has_name(needs.needed, "libm.so.6"));
    ck_assert(has_name(needs.needed, "libc.so.6"));
    program_needs_clear(&needs);
    g_free(so);
}
END_TEST

static gboolean
provides_only_init_and_finalize(const char *name, gpointer data)
{
    (void)data;
    return strcmp(name, "MPI_Init") == 0 || strcmp(name, "MPI_Finalize") == 0;
}

static gboolean
provides_all(const char *name, gpointer data)
{
    (void)name;
    (void)data;
    return TRUE;
}

/* Every missing MPI name, sorted; the functions collsim defines only to refuse their call
 * (MPI_Win_create) are no reason to refuse the program, but named in the note. */
START_TEST(test_program_check_missing_names)
{
    gchar *so = build("missing", ordinary_program, "");
    struct program_needs needs;
    ck_assert(program_needs_read(so, &needs, NULL));
    GError *error = NULL;
    gchar *note = (gchar *)"untouched";
    ck_assert(!program_needs_check(&needs, "missing.so", provides_only_init_and_finalize, NULL,
                                   &note, &error));
    ck_assert(g_error_matches(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_MISSING));
    ck_assert_str_eq(error->message,
                     "missing.so needs MPI functions collsim does not provide: MPI_Iallreduce");
    ck_assert_ptr_null(note);
    g_clear_error(&error);
    ck_assert(program_needs_check(&needs, "missing.so", provides_all, NULL, &note, &error));
    ck_assert(error == NULL);
    ck_assert_str_eq(note, "missing.so references functions collsim leaves out (see README): "
                           "one-sided communication (MPI_Win_create); it runs, and a rank that "
                           "calls one of them stops the run");
    g_free(note);
    program_needs_clear(&needs);
    g_free(so);
}
END_TEST

/* The note groups the names by part, in a fixed order, profiling names too. */
START_TEST(test_program_check_note_groups_parts)
{
    struct program_needs needs = {g_ptr_array_new_with_free_func(g_free),
                                  g_ptr_array_new_with_free_func(g_free), NULL};
    const char *names[] = {"MPI_Status_f082c", "MPI_File_close", "MPI_File_open", "MPI_Init",
                           "MPI_T_init_thread", "PMPI_Win_fence", "malloc"};
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
        g_ptr_array_add(needs.undefined, g_strdup(names[i]));
    gchar *note = NULL;
    ck_assert(program_needs_check(&needs, "p.so", provides_all, NULL, &note, NULL));
    /* MPI_Status_f082c (MPI-4) is not in mpi.h: no refusing twin, so no part of the note */
    ck_assert_str_eq(note, "p.so references functions collsim leaves out (see README): "
                           "one-sided communication (PMPI_Win_fence), MPI-IO (MPI_File_close, "
                           "MPI_File_open), MPI_T tool interface (MPI_T_init_thread); it runs, "
                           "and a rank that calls one of them stops the run");
    g_free(note);
    program_needs_clear(&needs);
}
END_TEST

/* The dynamic linker's answer: this test program links libcollsim (which defines MPI_Init)
 * and libsimgrid (which also defines MPI_Iallreduce, SMPI's): only the first is collsim's.
 * MPI_Win_create is collsim's too, as the twin that refuses its call. */
START_TEST(test_program_check_asks_the_linker)
{
    ck_assert(program_collsim_provides("MPI_Init", NULL));
    ck_assert(program_collsim_provides("MPI_Allreduce", NULL));
    ck_assert(program_collsim_provides("MPI_Win_create", NULL));
    ck_assert(program_collsim_provides("PMPI_Win_create", NULL));
    ck_assert(!program_collsim_provides("MPI_No_such_function", NULL));
    ck_assert(!program_collsim_provides("g_strdup", NULL)); /* resolves, but in GLib */
}
END_TEST

/* The refusing twins are those of mpi.h's "declared, not implemented" block, MPI_ and PMPI_,
 * each a part collsim leaves out, each collsim's own; implemented functions are not among
 * them. */
START_TEST(test_program_check_refused_at_call)
{
    ck_assert_uint_ge(sim_unprovided_count, 2 * 150);
    ck_assert_uint_eq(sim_unprovided_count % 2, 0);
    for (unsigned i = 0; i < sim_unprovided_count; i++) {
        const char *name = sim_unprovided_names[i];
        ck_assert_msg(program_out_of_scope(name) != NULL, "%s: no part named", name);
        ck_assert_msg(program_collsim_provides(name, NULL), "%s: not collsim's", name);
        ck_assert(program_refused_at_call(name));
        ck_assert(g_str_has_prefix(name, i % 2 == 0 ? "MPI_" : "PMPI_"));
    }
    ck_assert(program_refused_at_call("MPI_File_open"));
    ck_assert(program_refused_at_call("PMPI_Comm_spawn"));
    ck_assert(!program_refused_at_call("MPI_Init"));
    ck_assert(!program_refused_at_call("MPI_Comm_split_type"));
    /* the handle conversions are provided (src/fint.c), but not those of windows and files */
    ck_assert(!program_refused_at_call("MPI_Comm_f2c"));
    ck_assert(!program_refused_at_call("PMPI_Status_c2f"));
    ck_assert(program_refused_at_call("MPI_Win_c2f"));
    ck_assert(!program_refused_at_call("MPIX_Comm_revoke"));
}
END_TEST

/* A call stops the process as a fatal MPI error does (exit 3: COLLSIM_EXIT_MPI_ERROR). */
START_TEST(test_program_check_refusing_twin_stops)
{
    MPI_Win win;
    MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
}
END_TEST

static void
assert_foreign(const char *name, const char *source, const char *extra, const char *who,
               const char *evidence)
{
    gchar *so = build(name, source, extra);
    GError *error = NULL;
    ck_assert(!program_check(so, name, NULL, &error));
    ck_assert_msg(g_error_matches(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_FOREIGN), "%s",
                  error->message);
    gchar *built_for = g_strdup_printf("%s was built for %s (", name, who);
    ck_assert_msg(g_str_has_prefix(error->message, built_for), "%s", error->message);
    ck_assert_msg(strstr(error->message, evidence) != NULL, "%s", error->message);
    ck_assert_msg(g_str_has_suffix(error->message, "cc -shared -fPIC $(pkg-config --cflags "
                                                   "collsim) prog.c -o prog.so"),
                  "%s", error->message);
    g_free(built_for);
    g_error_free(error);
    g_free(so);
}

START_TEST(test_program_check_foreign)
{
    /* what Open MPI's mpi.h makes a program reference for MPI_COMM_WORLD and MPI_INT */
    assert_foreign("ompi.so",
                   "extern char ompi_mpi_comm_world[], ompi_mpi_int[];\n"
                   "int MPI_Init(int *, char ***);\n"
                   "void *use(void) { MPI_Init(0, 0); return ompi_mpi_int + "
                   "(long)ompi_mpi_comm_world; }\n",
                   "", "Open MPI", "it references ompi_mpi_comm_world, ompi_mpi_int");
    /* MPICH's predefined attribute copy function */
    assert_foreign("mpich.so", "int MPIR_Dup_fn(void);\nint f(void) { return MPIR_Dup_fn(); }\n",
                   "", "MPICH", "it references MPIR_Dup_fn");
    /* SMPI's predefined datatypes */
    assert_foreign("smpi.so",
                   "extern char smpi_MPI_INT[];\nvoid *f(void) { return smpi_MPI_INT; }\n", "",
                   "SimGrid's SMPI", "it references smpi_MPI_INT");
    /* linked with libsimgrid: its MPI would win over collsim's for any name collsim lacks */
    assert_foreign("simgrid.so", "int f(void) { return 0; }\n", "-Wl,--no-as-needed -lsimgrid",
                   "SimGrid's SMPI", "it is linked with libsimgrid.so");
}
END_TEST

/* The libraries alone decide too; the rules on names, without building anything. */
START_TEST(test_program_check_foreign_libraries)
{
    static const struct {
        const char *lib, *who;
    } cases[] = {
        {"libmpi.so.40", "Open MPI"},
        {"libmpi.so.12", "MPICH"},
        {"libmpich.so.12", "MPICH"},
        {"libsimgrid.so.3.32", "SimGrid's SMPI"},
        {"libmpi.so.99", "another MPI library"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        struct program_needs needs = {g_ptr_array_new_with_free_func(g_free),
                                      g_ptr_array_new_with_free_func(g_free), NULL};
        g_ptr_array_add(needs.needed, g_strdup("libc.so.6"));
        g_ptr_array_add(needs.needed, g_strdup(cases[i].lib));
        GError *error = NULL;
        ck_assert(!program_needs_check(&needs, "p.so", provides_all, NULL, NULL, &error));
        gchar *want = g_strdup_printf("p.so was built for %s (it is linked with %s), ",
                                      cases[i].who, cases[i].lib);
        ck_assert_msg(g_str_has_prefix(error->message, want), "%s", error->message);
        g_free(want);
        g_error_free(error);
        program_needs_clear(&needs);
    }
    /* a library merely named like one is not an MPI */
    struct program_needs needs = {g_ptr_array_new_with_free_func(g_free),
                                  g_ptr_array_new_with_free_func(g_free), NULL};
    g_ptr_array_add(needs.needed, g_strdup("libmpfr.so.6"));
    ck_assert(program_needs_check(&needs, "p.so", provides_all, NULL, NULL, NULL));
    program_needs_clear(&needs);
}
END_TEST

START_TEST(test_program_check_out_of_scope)
{
    ck_assert_str_eq(program_out_of_scope("MPI_Win_create"), "one-sided communication");
    ck_assert_str_eq(program_out_of_scope("MPI_Get"), "one-sided communication");
    ck_assert_str_eq(program_out_of_scope("MPI_Rget_accumulate"), "one-sided communication");
    ck_assert_str_eq(program_out_of_scope("PMPI_File_open"), "MPI-IO");
    ck_assert_str_eq(program_out_of_scope("MPI_Register_datarep"), "MPI-IO");
    ck_assert_str_eq(program_out_of_scope("MPI_Comm_spawn"), "dynamic processes");
    ck_assert_str_eq(program_out_of_scope("MPI_Comm_accept"), "dynamic processes");
    ck_assert_str_eq(program_out_of_scope("MPI_T_init_thread"), "MPI_T tool interface");
    ck_assert_str_eq(program_out_of_scope("MPI_Status_f082c"), "Fortran interoperability");
    ck_assert(!program_refused_at_call("MPI_Type_create_f90_real"));
    ck_assert_str_eq(program_out_of_scope("MPI_File_c2f"), "MPI-IO");
    ck_assert_ptr_null(program_out_of_scope("MPI_Get_count"));
    ck_assert_ptr_null(program_out_of_scope("MPI_Get_address"));
    ck_assert_ptr_null(program_out_of_scope("MPI_Iallreduce"));
    ck_assert_ptr_null(program_out_of_scope("MPI_Comm_split_type"));
    ck_assert_ptr_null(program_out_of_scope("MPIX_Query_cuda_support"));
    ck_assert_ptr_null(program_out_of_scope("malloc"));
}
END_TEST

static void
assert_unreadable(const char *path, const char *why)
{
    struct program_needs needs;
    GError *error = NULL;
    ck_assert_msg(!program_needs_read(path, &needs, &error), "%s read", path);
    ck_assert(g_error_matches(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_UNREADABLE));
    gchar *want = g_strdup_printf("cannot load %s: ", path);
    ck_assert_msg(g_str_has_prefix(error->message, want), "%s", error->message);
    ck_assert_msg(strstr(error->message, why) != NULL, "%s lacks '%s'", error->message, why);
    ck_assert(strchr(error->message, '\n') == NULL);
    ck_assert_uint_eq(needs.undefined->len, 0);
    program_needs_clear(&needs);
    g_free(want);
    g_error_free(error);
}

START_TEST(test_program_check_malformed)
{
    gchar *missing = g_strdup_printf("%s/no-such.so", tmpdir);
    assert_unreadable(missing, "No such file");
    assert_unreadable(tmpdir, "is a directory");
    gchar *empty = write_bytes("empty.so", "", 0);
    assert_unreadable(empty, "is empty");
    static const char text[] = "int main(void) { return 0; }\n";
    gchar *source = write_bytes("text.so", text, sizeof text - 1);
    assert_unreadable(source, "is not an ELF file");
    gchar *tiny = write_bytes("tiny.so", "\177EL", 3);
    assert_unreadable(tiny, "is not an ELF file");

    /* ELF identification bytes of other classes and byte orders, padded to a full header */
    unsigned char header[64] = {0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, 1};
    gchar *elf32 = write_bytes("elf32.so", header, sizeof header);
    assert_unreadable(elf32, "32-bit");
    header[EI_CLASS] = ELFCLASS64;
    header[EI_DATA] = ELFDATA2MSB;
    gchar *big = write_bytes("big.so", header, sizeof header);
    assert_unreadable(big, "big-endian");
    header[EI_DATA] = ELFDATA2LSB;
    gchar *half = write_bytes("half.so", header, 20);
    assert_unreadable(half, "truncated");

    /* an object file is ELF, but not a shared object */
    gchar *so = build("object", "int f(void) { return 0; }\n", "");
    gchar *obj = g_strdup_printf("%s/object.o", tmpdir);
    gchar *cmd = g_strdup_printf("cc -c -fPIC -o %s %s/object.c", obj, tmpdir);
    gint status = -1;
    ck_assert(g_spawn_command_line_sync(cmd, NULL, NULL, &status, NULL) && status == 0);
    assert_unreadable(obj, "not a shared object");

    /* the section headers sit at the end of a shared object: cut it short */
    gchar *contents;
    gsize length;
    ck_assert(g_file_get_contents(so, &contents, &length, NULL));
    gchar *cut = write_bytes("cut.so", contents, length - 10);
    assert_unreadable(cut, "truncated");
    g_free(contents);

    g_free(cmd);
    g_free(obj);
    g_free(so);
    g_free(cut);
    g_free(half);
    g_free(big);
    g_free(elf32);
    g_free(tiny);
    g_free(source);
    g_free(empty);
    g_free(missing);
}
END_TEST

/* Hostile files: every prefix of a real shared object, and the object with each byte of its
 * headers and tables flipped. Either it reads, or one message says why; never a fault. */
START_TEST(test_program_check_never_crashes)
{
    gchar *so = build("victim", ordinary_program, "");
    gchar *contents;
    gsize length;
    ck_assert(g_file_get_contents(so, &contents, &length, NULL));
    gchar *path = g_strdup_printf("%s/mangled.so", tmpdir);
    guint failures = 0;
    for (gsize cut = 0; cut < length; cut += 7) {
        rewrite(path, contents, cut);
        struct program_needs needs;
        GError *error = NULL;
        if (!program_needs_read(path, &needs, &error)) {
            ck_assert(error != NULL && error->message[0] != '\0');
            g_error_free(error);
            failures++;
        }
        program_needs_clear(&needs);
    }
    ck_assert_uint_gt(failures, 0);
    for (gsize at = 0; at < length; at++) {
        gchar saved = contents[at];
        contents[at] = (gchar)(saved ^ 0xff);
        rewrite(path, contents, length);
        contents[at] = saved;
        struct program_needs needs;
        GError *error = NULL;
        if (!program_needs_read(path, &needs, &error))
            g_error_free(error);
        program_needs_clear(&needs);
    }
    g_free(path);
    g_free(contents);
    g_free(so);
}
END_TEST

int
main(void)
{
    tmpdir = g_dir_make_tmp("check_program_check-XXXXXX", NULL);
    if (tmpdir == NULL)
        return 99;
    Suite *s = suite_create("program_check");
    TCase *tc = tcase_create("program_check");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_program_check_reads_symbols);
    tcase_add_test(tc, test_program_check_missing_names);
    tcase_add_test(tc, test_program_check_note_groups_parts);
    tcase_add_test(tc, test_program_check_asks_the_linker);
    tcase_add_test(tc, test_program_check_refused_at_call);
    tcase_add_exit_test(tc, test_program_check_refusing_twin_stops, 3);
    tcase_add_test(tc, test_program_check_foreign);
    tcase_add_test(tc, test_program_check_foreign_libraries);
    tcase_add_test(tc, test_program_check_out_of_scope);
    tcase_add_test(tc, test_program_check_malformed);
    tcase_add_test(tc, test_program_check_never_crashes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    gchar *argv[] = {"rm", "-rf", tmpdir, NULL};
    g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
    g_free(tmpdir);
    return failed == 0 ? 0 : 1;
}
