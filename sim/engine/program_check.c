/*
 * program_check.c — reads a program's ELF dynamic symbols and needed libraries, and refuses a
 * program that would bind an MPI name outside collsim (see program_check.h).
 *
 * Reading uses the section headers (SHT_DYNSYM and SHT_DYNAMIC with their linked string
 * tables): every shared object a compiler writes keeps them. Offsets and sizes come from an
 * untrusted file, so each is checked against the file's size before use, and structures are
 * copied out with memcpy (a malformed file may misalign them).
 */
#include "config.h"

#include "sim/engine/program_check.h"

#include "src/callsite.h"
#include "src/errhandler.h"
#include "src/runtime.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REBUILD_COMMAND "cc -shared -fPIC $(pkg-config --cflags collsim) prog.c -o prog.so"

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#else
#error "collsim reads ELF64 programs of x86_64 and aarch64 only"
#endif

G_DEFINE_QUARK(collsim-program-check-error-quark, program_check_error)

static gboolean
unreadable(GError **error, const char *path, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean
unreadable(GError **error, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_UNREADABLE, "cannot load %s: %s",
                path, why);
    g_free(why);
    return FALSE;
}

/* [off, off + len) lies inside a file of SIZE bytes (no overflow on hostile values) */
static gboolean
in_file(gsize size, guint64 off, guint64 len)
{
    return off <= size && len <= size - off;
}

/* A NUL-terminated string at offset OFF of the string table [tab, tab + tab_size), or NULL. */
static const char *
table_string(const char *tab, guint64 tab_size, guint64 off)
{
    if (off >= tab_size || memchr(tab + off, '\0', tab_size - off) == NULL)
        return NULL;
    return tab + off;
}

/* The string table that section LINK designates, checked; FALSE if it is not one. */
static gboolean
linked_strtab(const char *data, gsize size, const Elf64_Ehdr *eh, guint link, const char **tab,
              guint64 *tab_size)
{
    if (link == 0 || link >= eh->e_shnum)
        return FALSE;
    Elf64_Shdr sh;
    memcpy(&sh, data + eh->e_shoff + (guint64)link * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_STRTAB || !in_file(size, sh.sh_offset, sh.sh_size))
        return FALSE;
    *tab = data + sh.sh_offset;
    *tab_size = sh.sh_size;
    return TRUE;
}

static gboolean
read_dynsym(const char *data, gsize size, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
            GHashTable *names, const char *path, GError **error)
{
    const char *tab;
    guint64 tab_size;
    if (!in_file(size, sh->sh_offset, sh->sh_size) || sh->sh_entsize != sizeof(Elf64_Sym) ||
        !linked_strtab(data, size, eh, sh->sh_link, &tab, &tab_size))
        return unreadable(error, path,
                          "it is damaged: its dynamic symbol table lies outside the "
                          "file or has no string table");
    guint64 count = sh->sh_size / sizeof(Elf64_Sym);
    /* entry 0 is the reserved null symbol */
    for (guint64 i = 1; i < count; i++) {
        Elf64_Sym sym;
        memcpy(&sym, data + sh->sh_offset + i * sizeof sym, sizeof sym);
        if (sym.st_shndx != SHN_UNDEF || sym.st_name == 0)
            continue;
        const char *name = table_string(tab, tab_size, sym.st_name);
        if (name == NULL)
            return unreadable(error, path, "it is damaged: a symbol name lies outside its table");
        g_hash_table_add(names, g_strdup(name));
    }
    return TRUE;
}

static gboolean
read_dynamic(const char *data, gsize size, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
             GPtrArray *needed, const char *path, GError **error)
{
    const char *tab;
    guint64 tab_size;
    if (!in_file(size, sh->sh_offset, sh->sh_size) ||
        !linked_strtab(data, size, eh, sh->sh_link, &tab, &tab_size))
        return unreadable(error, path,
                          "it is damaged: its dynamic section lies outside the file "
                          "or has no string table");
    for (guint64 i = 0; i < sh->sh_size / sizeof(Elf64_Dyn); i++) {
        Elf64_Dyn dyn;
        memcpy(&dyn, data + sh->sh_offset + i * sizeof dyn, sizeof dyn);
        if (dyn.d_tag == DT_NULL)
            break;
        if (dyn.d_tag != DT_NEEDED)
            continue;
        const char *name = table_string(tab, tab_size, dyn.d_un.d_val);
        if (name == NULL)
            return unreadable(error, path,
                              "it is damaged: a needed library's name lies outside "
                              "its table");
        g_ptr_array_add(needed, g_strdup(name));
    }
    return TRUE;
}

/*
 * The MPI_ functions a program defines itself (a profiling layer) and calls through the
 * dynamic linker: the relocations (of `sh`, a SHT_RELA section) that name a dynamic symbol the
 * object defines. Such calls would bind to collsim's function of that name, loaded first, and
 * bypass the program's own; linking with -Bsymbolic-functions binds them inside the object and
 * leaves no relocation.
 */
static gboolean
read_self_calls(const char *data, gsize size, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
                GHashTable *self_calls, const char *path, GError **error)
{
    Elf64_Shdr symtab;
    if (sh->sh_link == 0 || sh->sh_link >= eh->e_shnum)
        return TRUE; /* not relocations against a symbol table */
    memcpy(&symtab, data + eh->e_shoff + (guint64)sh->sh_link * sizeof symtab, sizeof symtab);
    if (symtab.sh_type != SHT_DYNSYM)
        return TRUE;
    const char *tab;
    guint64 tab_size;
    if (!in_file(size, sh->sh_offset, sh->sh_size) || sh->sh_entsize != sizeof(Elf64_Rela) ||
        !in_file(size, symtab.sh_offset, symtab.sh_size) ||
        symtab.sh_entsize != sizeof(Elf64_Sym) ||
        !linked_strtab(data, size, eh, symtab.sh_link, &tab, &tab_size))
        return unreadable(error, path,
                          "it is damaged: a relocation table or its symbols lie outside the "
                          "file");
    guint64 nsyms = symtab.sh_size / sizeof(Elf64_Sym);
    for (guint64 i = 0; i < sh->sh_size / sizeof(Elf64_Rela); i++) {
        Elf64_Rela rela;
        memcpy(&rela, data + sh->sh_offset + i * sizeof rela, sizeof rela);
        guint64 index = ELF64_R_SYM(rela.r_info);
        if (index == 0 || index >= nsyms)
            continue;
        Elf64_Sym sym;
        memcpy(&sym, data + symtab.sh_offset + index * sizeof sym, sizeof sym);
        if (sym.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym.st_info) != STT_FUNC)
            continue;
        const char *name = table_string(tab, tab_size, sym.st_name);
        if (name != NULL && g_str_has_prefix(name, "MPI_"))
            g_hash_table_add(self_calls, g_strdup(name));
    }
    return TRUE;
}

/* Move the names of `set` (destroyed) into `into`. */
static void
move_names(GHashTable *set, GPtrArray *into)
{
    GHashTableIter it;
    gpointer name;
    g_hash_table_iter_init(&it, set);
    while (g_hash_table_iter_next(&it, &name, NULL)) {
        g_hash_table_iter_steal(&it);
        g_ptr_array_add(into, name);
    }
    g_hash_table_destroy(set);
}

static gboolean
read_elf(const char *data, gsize size, const char *path, struct program_needs *needs,
         GError **error)
{
    if (size < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0)
        return unreadable(error, path,
                          "it is not an ELF file (build the program with " REBUILD_COMMAND ")");
    if (size < EI_NIDENT)
        return unreadable(error, path, "it is truncated: it ends inside its ELF header");
    if (data[EI_CLASS] == ELFCLASS32)
        return unreadable(error, path, "it is a 32-bit ELF file: collsim runs 64-bit programs");
    if (data[EI_CLASS] != ELFCLASS64)
        return unreadable(error, path, "it has an unknown ELF class %d", data[EI_CLASS]);
    if (data[EI_DATA] != ELFDATA2LSB)
        return unreadable(error, path,
                          "it is a big-endian ELF file: collsim runs programs built "
                          "for this machine");
    Elf64_Ehdr eh;
    if (size < sizeof eh)
        return unreadable(error, path, "it is truncated: it ends inside its ELF header");
    memcpy(&eh, data, sizeof eh);
    if (eh.e_type != ET_DYN)
        return unreadable(error, path,
                          "it is not a shared object (build the program with " REBUILD_COMMAND ")");
    if (eh.e_machine != HOST_MACHINE)
        return unreadable(error, path, "it is built for another processor (ELF machine %u)",
                          eh.e_machine);
    if (eh.e_shoff == 0 || eh.e_shnum == 0)
        return unreadable(error, path,
                          "it has no section headers, so its symbols cannot be "
                          "checked");
    if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
        !in_file(size, eh.e_shoff, (guint64)eh.e_shnum * sizeof(Elf64_Shdr)))
        return unreadable(error, path,
                          "it is truncated: its section headers end past the end "
                          "of the file");
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTable *self_calls = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, data + eh.e_shoff + (guint64)i * sizeof sh, sizeof sh);
        if (sh.sh_type == SHT_DYNSYM)
            ok = read_dynsym(data, size, &eh, &sh, names, path, error);
        else if (sh.sh_type == SHT_DYNAMIC)
            ok = read_dynamic(data, size, &eh, &sh, needs->needed, path, error);
        else if (sh.sh_type == SHT_RELA)
            ok = read_self_calls(data, size, &eh, &sh, self_calls, path, error);
    }
    move_names(names, needs->undefined);
    move_names(self_calls, needs->self_calls);
    return ok;
}

static gint
compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

gboolean
program_needs_read(const char *path, struct program_needs *needs, GError **error)
{
    needs->undefined = g_ptr_array_new_with_free_func(g_free);
    needs->needed = g_ptr_array_new_with_free_func(g_free);
    needs->self_calls = g_ptr_array_new_with_free_func(g_free);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return unreadable(error, path, "%s", g_strerror(errno));
    struct stat st;
    gboolean ok = FALSE;
    if (fstat(fd, &st) != 0) {
        unreadable(error, path, "%s", g_strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        unreadable(error, path, "it is a directory, not a shared object");
    } else if (!S_ISREG(st.st_mode)) {
        unreadable(error, path, "it is not a regular file");
    } else if (st.st_size == 0) {
        unreadable(error, path, "it is empty, not a shared object");
    } else {
        GError *map_error = NULL;
        GMappedFile *map = g_mapped_file_new_from_fd(fd, FALSE, &map_error);
        if (map == NULL) {
            unreadable(error, path, "%s", map_error->message);
            g_error_free(map_error);
        } else {
            ok = read_elf(g_mapped_file_get_contents(map), g_mapped_file_get_length(map), path,
                          needs, error);
            g_mapped_file_unref(map);
        }
    }
    close(fd);
    if (!ok) {
        g_ptr_array_set_size(needs->undefined, 0);
        g_ptr_array_set_size(needs->needed, 0);
        g_ptr_array_set_size(needs->self_calls, 0);
        return FALSE;
    }
    g_ptr_array_sort(needs->undefined, compare_names);
    g_ptr_array_sort(needs->self_calls, compare_names);
    return TRUE;
}

void
program_needs_clear(struct program_needs *needs)
{
    if (needs->undefined != NULL)
        g_ptr_array_free(needs->undefined, TRUE);
    if (needs->needed != NULL)
        g_ptr_array_free(needs->needed, TRUE);
    if (needs->self_calls != NULL)
        g_ptr_array_free(needs->self_calls, TRUE);
    needs->undefined = needs->needed = needs->self_calls = NULL;
}

/* ---------------------------------------------------------------- which MPI names are ours */

/* An object of libcollsim itself: where collsim's code was loaded. */
static const char collsim_anchor = 1;

gboolean
program_collsim_provides(const char *name, gpointer data)
{
    (void)data;
    void *symbol = dlsym(RTLD_DEFAULT, name);
    return symbol != NULL && program_same_object(symbol, &collsim_anchor);
}

gboolean
program_same_object(const void *addr, const void *anchor)
{
    Dl_info at, of;
    return dladdr(addr, &at) != 0 && dladdr(anchor, &of) != 0 && at.dli_fbase == of.dli_fbase;
}

/* ---------------------------------------------------------------- the rules */

static const char PART_ONE_SIDED[] = "one-sided communication";
static const char PART_MPI_IO[] = "MPI-IO";
static const char PART_DYNAMIC[] = "dynamic processes";
static const char PART_TOOLS[] = "MPI_T tool interface";
static const char PART_FORTRAN[] = "Fortran interoperability";

const char *
program_out_of_scope(const char *name)
{
    static const struct {
        const char *name;
        const char *part;
    } exact[] = {
        {"MPI_Put", PART_ONE_SIDED},
        {"MPI_Get", PART_ONE_SIDED},
        {"MPI_Accumulate", PART_ONE_SIDED},
        {"MPI_Get_accumulate", PART_ONE_SIDED},
        {"MPI_Fetch_and_op", PART_ONE_SIDED},
        {"MPI_Compare_and_swap", PART_ONE_SIDED},
        {"MPI_Rput", PART_ONE_SIDED},
        {"MPI_Rget", PART_ONE_SIDED},
        {"MPI_Raccumulate", PART_ONE_SIDED},
        {"MPI_Rget_accumulate", PART_ONE_SIDED},
        {"MPI_Register_datarep", PART_MPI_IO},
        {"MPI_Comm_spawn", PART_DYNAMIC},
        {"MPI_Comm_spawn_multiple", PART_DYNAMIC},
        {"MPI_Comm_get_parent", PART_DYNAMIC},
        {"MPI_Open_port", PART_DYNAMIC},
        {"MPI_Close_port", PART_DYNAMIC},
        {"MPI_Comm_accept", PART_DYNAMIC},
        {"MPI_Comm_connect", PART_DYNAMIC},
        {"MPI_Comm_join", PART_DYNAMIC},
        {"MPI_Comm_disconnect", PART_DYNAMIC},
        {"MPI_Publish_name", PART_DYNAMIC},
        {"MPI_Unpublish_name", PART_DYNAMIC},
        {"MPI_Lookup_name", PART_DYNAMIC},
    };
    /* the profiling name of a function belongs where the function does */
    if (name[0] == 'P' && g_str_has_prefix(name, "PMPI_"))
        name++;
    if (!g_str_has_prefix(name, "MPI_"))
        return NULL;
    for (gsize i = 0; i < G_N_ELEMENTS(exact); i++)
        if (strcmp(name, exact[i].name) == 0)
            return exact[i].part;
    if (g_str_has_prefix(name, "MPI_Win_"))
        return PART_ONE_SIDED;
    if (g_str_has_prefix(name, "MPI_File_"))
        return PART_MPI_IO;
    if (g_str_has_prefix(name, "MPI_T_"))
        return PART_TOOLS;
    if (g_str_has_suffix(name, "_c2f") || g_str_has_suffix(name, "_f2c") ||
        g_str_has_suffix(name, "_f082c") || g_str_has_suffix(name, "_c2f08") ||
        g_str_has_suffix(name, "_f2f08") || g_str_has_suffix(name, "_f082f"))
        return PART_FORTRAN;
    return NULL;
}

/* Which implementation a needed library belongs to, or NULL if it is none. */
static const char *
library_implementation(const char *lib)
{
    if (g_str_has_prefix(lib, "libsimgrid") || g_str_has_prefix(lib, "libsmpi"))
        return "SimGrid's SMPI";
    if (g_str_has_prefix(lib, "libmpich") || g_str_has_prefix(lib, "libmpi.so.12"))
        return "MPICH";
    if (g_str_has_prefix(lib, "libmpi.so.40") || g_str_has_prefix(lib, "libmpi_cxx") ||
        g_str_has_prefix(lib, "libopen-"))
        return "Open MPI";
    if (g_str_has_prefix(lib, "libmpi"))
        return "another MPI library";
    return NULL;
}

/* Which implementation's mpi.h makes a program reference NAME, or NULL. Open MPI's handles are
 * its global objects (ompi_mpi_comm_world, ompi_mpi_int, ...); MPICH's internal names start
 * MPIR_ or MPII_; SMPI's predefined objects are smpi_MPI_INT and the like. */
static const char *
symbol_implementation(const char *name)
{
    if (g_str_has_prefix(name, "ompi_") || g_str_has_prefix(name, "mpi_fortran_"))
        return "Open MPI";
    if (g_str_has_prefix(name, "MPIR_") || g_str_has_prefix(name, "MPII_"))
        return "MPICH";
    if (g_str_has_prefix(name, "smpi_"))
        return "SimGrid's SMPI";
    return NULL;
}

static gboolean
is_mpi_name(const char *name)
{
    return g_str_has_prefix(name, "MPI_") || g_str_has_prefix(name, "PMPI_") ||
           g_str_has_prefix(name, "MPIX_");
}

/* FALSE, with the error, if the libraries or the symbols show another implementation's build;
 * evidence of the first implementation found only (at most three symbols, then a count). */
static gboolean
refuse_foreign(const struct program_needs *needs, const char *display, GError **error)
{
    const char *implementation = NULL;
    GString *evidence = g_string_new(NULL);
    for (guint i = 0; i < needs->needed->len; i++) {
        const char *lib = g_ptr_array_index(needs->needed, i);
        const char *which = library_implementation(lib);
        if (which == NULL || (implementation != NULL && strcmp(which, implementation) != 0))
            continue;
        implementation = which;
        g_string_append_printf(evidence, "%s%s", evidence->len == 0 ? "it is linked with " : ", ",
                               lib);
    }
    guint shown = 0, more = 0;
    for (guint i = 0; i < needs->undefined->len; i++) {
        const char *name = g_ptr_array_index(needs->undefined, i);
        const char *which = symbol_implementation(name);
        if (which == NULL || (implementation != NULL && strcmp(which, implementation) != 0))
            continue;
        implementation = which;
        if (shown == 3) {
            more++;
            continue;
        }
        if (shown > 0)
            g_string_append(evidence, ", ");
        else
            g_string_append(evidence, evidence->len == 0 ? "it references " : "; it references ");
        g_string_append(evidence, name);
        shown++;
    }
    if (more > 0)
        g_string_append_printf(evidence, " and %u more", more);
    if (implementation == NULL) {
        g_string_free(evidence, TRUE);
        return TRUE;
    }
    g_set_error(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_FOREIGN,
                "%s was built for %s (%s), not for collsim: rebuild it against collsim's mpi.h, "
                "without mpicc or an MPI library: " REBUILD_COMMAND,
                display, implementation, evidence->str);
    g_string_free(evidence, TRUE);
    return FALSE;
}

gboolean
program_refused_at_call(const char *name)
{
    for (unsigned i = 0; i < sim_unprovided_count; i++)
        if (strcmp(sim_unprovided_names[i], name) == 0)
            return TRUE;
    return FALSE;
}

void
sim_unprovided_call(const char *name, const void *caller)
{
    GString *out = g_string_new(NULL);
    g_string_printf(out, "collsim: rank %d: %s", collsim_runtime->world_rank(), name);
    collsim_callsite_describe(caller, out);
    const char *part = program_out_of_scope(name); /* each has one: check_program_check */
    g_string_append_printf(out, ": collsim does not provide this function (%s%sout of scope, "
                           "see README) [MPI_ERR_UNSUPPORTED_OPERATION]\n",
                           part != NULL ? part : "", part != NULL ? ": " : "");
    fputs(out->str, stderr);
    fflush(stderr);
    g_string_free(out, TRUE);
    collsim_runtime->abort(COLLSIM_EXIT_MPI_ERROR);
}

/* "P.so references functions collsim leaves out (see README): one-sided communication
 * (MPI_Win_create, MPI_Win_free), MPI-IO (MPI_File_open); ..." or NULL when there is none. The
 * names come sorted from the symbol table, each looked up once, and the parts in a fixed order
 * (every refused function has one: check_program_check). */
static gchar *
refused_at_call_note(const struct program_needs *needs, const char *display)
{
    static const char *const parts[] = {PART_ONE_SIDED, PART_MPI_IO, PART_DYNAMIC, PART_TOOLS,
                                        PART_FORTRAN};
    GPtrArray *refused = g_ptr_array_new();
    for (guint i = 0; i < needs->undefined->len; i++) {
        const char *name = g_ptr_array_index(needs->undefined, i);
        if (is_mpi_name(name) && program_refused_at_call(name))
            g_ptr_array_add(refused, (gpointer)name);
    }
    GString *note = g_string_new(NULL);
    for (size_t p = 0; p < G_N_ELEMENTS(parts); p++) {
        const char *sep = note->len > 0 ? "), " : "";
        guint listed = 0;
        for (guint i = 0; i < refused->len; i++) {
            const char *name = g_ptr_array_index(refused, i);
            if (program_out_of_scope(name) != parts[p])
                continue;
            if (listed++ == 0)
                g_string_append_printf(note, "%s%s (", sep, parts[p]);
            else
                g_string_append(note, ", ");
            g_string_append(note, name);
        }
    }
    g_ptr_array_free(refused, TRUE);
    if (note->len == 0) {
        g_string_free(note, TRUE);
        return NULL;
    }
    gchar *sentence = g_strdup_printf(
        "%s references functions collsim leaves out (see README): %s); it runs, and a rank "
        "that calls one of them stops the run",
        display, note->str);
    g_string_free(note, TRUE);
    return sentence;
}

gboolean
program_needs_check(const struct program_needs *needs, const char *display,
                    program_provides_fn provides, gpointer data, gchar **note, GError **error)
{
    if (note != NULL)
        *note = NULL;
    if (!refuse_foreign(needs, display, error))
        return FALSE;
    if (needs->self_calls != NULL && needs->self_calls->len > 0) {
        GString *names = g_string_new(NULL);
        for (guint i = 0; i < needs->self_calls->len; i++)
            g_string_append_printf(names, "%s%s", i > 0 ? ", " : "",
                                   (const char *)g_ptr_array_index(needs->self_calls, i));
        g_set_error(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_SELF_CALLS,
                    "%s defines %s itself (a profiling layer?) and calls %s through the dynamic "
                    "linker, which would bind %s to collsim's own function of that name: link "
                    "it with -Wl,-Bsymbolic-functions (" REBUILD_COMMAND
                    " -Wl,-Bsymbolic-functions); its PMPI_ calls reach collsim",
                    display, names->str, needs->self_calls->len == 1 ? "it" : "them",
                    needs->self_calls->len == 1 ? "the call" : "those calls");
        g_string_free(names, TRUE);
        return FALSE;
    }
    GString *missing = NULL;
    for (guint i = 0; i < needs->undefined->len; i++) {
        const char *name = g_ptr_array_index(needs->undefined, i);
        if (!is_mpi_name(name) || program_refused_at_call(name) || provides(name, data))
            continue;
        if (missing == NULL)
            missing = g_string_new(NULL);
        else
            g_string_append(missing, ", ");
        g_string_append(missing, name);
        const char *part = program_out_of_scope(name);
        if (part != NULL)
            g_string_append_printf(missing, " (%s: out of scope, see README)", part);
    }
    if (missing == NULL) {
        if (note != NULL)
            *note = refused_at_call_note(needs, display);
        return TRUE;
    }
    g_set_error(error, PROGRAM_CHECK_ERROR, PROGRAM_CHECK_ERROR_MISSING,
                "%s needs MPI functions collsim does not provide: %s", display, missing->str);
    g_string_free(missing, TRUE);
    return FALSE;
}

gboolean
program_check(const char *path, const char *display, gchar **note, GError **error)
{
    struct program_needs needs;
    if (!program_needs_read(path, &needs, error)) {
        program_needs_clear(&needs);
        return FALSE;
    }
    gboolean ok =
        program_needs_check(&needs, display, program_collsim_provides, NULL, note, error);
    program_needs_clear(&needs);
    return ok;
}
