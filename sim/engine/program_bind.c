/*
 * program_bind.c — see program_bind.h.
 *
 * The object's dynamic section gives its symbol and string tables and its two relocation
 * tables (DT_RELA, DT_JMPREL); each GOT slot (GLOB_DAT, JUMP_SLOT) or absolute address (64-bit
 * ABS) that names a symbol the object defines is compared with where the dynamic linker found
 * that name first in the global scope (dlsym(RTLD_DEFAULT)): if it holds that other object's
 * address, it gets the program's own. Slots in the RELRO part are made writable for the write
 * and read-only again. The dynamic linker has relocated the section's addresses in place.
 */
#include "config.h"

#include "sim/engine/program_bind.h"

#include <dlfcn.h>
#include <elf.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
#define RELOC_GOT R_X86_64_GLOB_DAT
#define RELOC_PLT R_X86_64_JUMP_SLOT
#define RELOC_ABS R_X86_64_64
#elif defined(__aarch64__)
#define RELOC_GOT R_AARCH64_GLOB_DAT
#define RELOC_PLT R_AARCH64_JUMP_SLOT
#define RELOC_ABS R_AARCH64_ABS64
#else
#error "collsim binds ELF64 programs of x86_64 and aarch64 only"
#endif

struct bind_object {
    uintptr_t base;
    const ElfW(Dyn) *dynamic;
    uintptr_t relro_start, relro_end;
};

struct find_anchor {
    uintptr_t anchor;
    struct dl_phdr_info *object;
};

static int
holds_anchor(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct find_anchor *f = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->anchor >= lo && f->anchor < lo + ph->p_memsz) {
            *f->object = *info;
            return 1;
        }
    }
    return 0;
}

gboolean
program_object_find(gconstpointer anchor, struct dl_phdr_info *object)
{
    struct find_anchor f = {(uintptr_t)anchor, object};
    return dl_iterate_phdr(holds_anchor, &f) != 0;
}

uintptr_t
program_dynamic_address(uintptr_t base, uintptr_t value)
{
    return value < base ? base + value : value;
}

static uintptr_t
dyn_address(const struct bind_object *o, uintptr_t value)
{
    return program_dynamic_address(o->base, value);
}

static void
write_slot(const struct bind_object *o, uintptr_t *slot, uintptr_t value)
{
    uintptr_t at = (uintptr_t)slot;
    gboolean relro = at >= o->relro_start && at < o->relro_end;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    void *first = (void *)(at / page * page);
    if (relro && mprotect(first, page, PROT_READ | PROT_WRITE) != 0)
        return; /* left as it was: the program runs as it did */
    *slot = value;
    if (relro)
        mprotect(first, page, PROT_READ);
}

static guint
bind_table(const struct bind_object *o, const ElfW(Rela) *rel, gsize bytes, const ElfW(Sym) *syms,
           const char *strtab)
{
    guint changed = 0;
    for (gsize i = 0; i < bytes / sizeof *rel; i++) {
        guint type = (guint)ELF64_R_TYPE(rel[i].r_info);
        gsize index = ELF64_R_SYM(rel[i].r_info);
        if ((type != RELOC_GOT && type != RELOC_PLT && type != RELOC_ABS) || index == 0)
            continue;
        const ElfW(Sym) *sym = &syms[index];
        guint kind = ELF64_ST_TYPE(sym->st_info);
        if (sym->st_shndx == SHN_UNDEF || sym->st_value == 0 ||
            ELF64_ST_BIND(sym->st_info) != STB_GLOBAL || (kind != STT_OBJECT && kind != STT_FUNC))
            continue;
        /* C++'s vague linkage (weak and unique symbols, mangled "_Z" names: inline functions,
         * template statics, typeinfo) stays shared with libstdc++'s copy, one object as in an
         * executable; a profiling layer's MPI names are program_check.h's */
        const char *name = strtab + sym->st_name;
        if (g_str_has_prefix(name, "_Z") || g_str_has_prefix(name, "MPI_") ||
            g_str_has_prefix(name, "PMPI_"))
            continue;
        void *other = dlsym(RTLD_DEFAULT, name);
        uintptr_t own = o->base + sym->st_value;
        if (other == NULL || (uintptr_t)other == own)
            continue;
        uintptr_t addend = type == RELOC_ABS ? (uintptr_t)rel[i].r_addend : 0;
        uintptr_t *slot = (uintptr_t *)(o->base + rel[i].r_offset);
        /* a call slot not bound yet (lazy binding) would bind to the other one too */
        if (type == RELOC_PLT ? *slot != own : *slot == (uintptr_t)other + addend) {
            write_slot(o, slot, own + addend);
            changed++;
        }
    }
    return changed;
}

guint
program_bind_own(gconstpointer anchor)
{
    struct dl_phdr_info info;
    if (!program_object_find(anchor, &info))
        return 0;
    struct bind_object o = {.base = info.dlpi_addr};
    for (int i = 0; i < info.dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info.dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC) {
            o.dynamic = (const ElfW(Dyn) *)(info.dlpi_addr + ph->p_vaddr);
        } else if (ph->p_type == PT_GNU_RELRO) {
            o.relro_start = info.dlpi_addr + ph->p_vaddr;
            o.relro_end = o.relro_start + ph->p_memsz;
        }
    }
    if (o.dynamic == NULL)
        return 0;
    const ElfW(Sym) *syms = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *rela = NULL, *jmprel = NULL;
    gsize rela_bytes = 0, jmprel_bytes = 0;
    gboolean plt_rela = TRUE;
    for (const ElfW(Dyn) *d = o.dynamic; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB:
            syms = (const ElfW(Sym) *)dyn_address(&o, d->d_un.d_ptr);
            break;
        case DT_STRTAB:
            strtab = (const char *)dyn_address(&o, d->d_un.d_ptr);
            break;
        case DT_RELA:
            rela = (const ElfW(Rela) *)dyn_address(&o, d->d_un.d_ptr);
            break;
        case DT_RELASZ:
            rela_bytes = d->d_un.d_val;
            break;
        case DT_JMPREL:
            jmprel = (const ElfW(Rela) *)dyn_address(&o, d->d_un.d_ptr);
            break;
        case DT_PLTRELSZ:
            jmprel_bytes = d->d_un.d_val;
            break;
        case DT_PLTREL:
            plt_rela = d->d_un.d_val == DT_RELA;
            break;
        default:
            break;
        }
    }
    if (syms == NULL || strtab == NULL)
        return 0;
    guint changed = 0;
    if (rela != NULL)
        changed += bind_table(&o, rela, rela_bytes, syms, strtab);
    if (jmprel != NULL && plt_rela)
        changed += bind_table(&o, jmprel, jmprel_bytes, syms, strtab);
    return changed;
}
