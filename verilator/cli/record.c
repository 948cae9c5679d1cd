/*
 * record.c - `pmusim record`: a real program's run as a family's stream
 * (docs/real-programs.md).  The program runs under QEMU user mode with pmusim's TCG plugin
 * (qemu/pmusim_plugin.c), which writes every executed instruction down a pipe; the family's
 * timing model (its dialect's `timing`, include/stream/pmu_timing.h) turns them into cycle
 * records as they arrive, and the stream writer compresses repeats.  The program's
 * functions come from its ELF symbol table.
 */
#define _GNU_SOURCE /* pipe2, execvp, environ */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"
#include "cli/pmu_outfile.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"
#include "stream/pmu_rtrace.h"
#include "stream/pmu_stream.h"
#include "stream/pmu_timing.h"
#include "stream/pmu_tmpfiles.h"

#define MAX_PARAMS 64
#define ELF_LIMIT (512u << 20) /* bytes of a program read for its symbols */

static void record_help(FILE *f)
{
    fprintf(f, "usage: pmusim record --family NAME -o FILE [--symbols FILE] [--format binary|text]\n"
               "                     [--param NAME=VALUE ...] [--list-params] [--print-target] [--json]\n"
               "                     -- PROGRAM [ARGS...]\n"
               "\n"
               "Runs PROGRAM under QEMU user mode (qemu-alpha for the Alpha families, qemu-i386 for\n"
               "Itanium's IA-32 mode) with pmusim's TCG plugin and writes the family's stream of it:\n"
               "the family's timing model turns each executed instruction into cycle records.\n"
               "\n"
               "  --family NAME      whose records (default: the first registered family)\n"
               "  -o, --output FILE  the stream; replaced only when it is complete\n"
               "  --symbols FILE     the program's functions from its ELF symbol table, 'START END\n"
               "                     NAME' lines (pmusim profile --symbols reads them)\n"
               "  --format F         binary (default) or text\n"
               "  --param NAME=VALUE a timing-model parameter (may be repeated; VALUE decimal, 0x hex,\n"
               "                     or with k, M, G); --list-params lists them with their sources\n"
               "  --print-target     the family's target as shell assignments: QEMU_ARCH, CC,\n"
               "                     SYSROOT, PACKAGES (what builds and runs its programs), PROFILE\n"
               "                     and CHECKS (its software and checks on recordings, make real)\n"
               "  --json             the summary as one JSON object (docs/json.md); the program's\n"
               "                     own output goes to stderr then\n"
               "  PROGRAM ARGS       the program, built for the family's architecture (after --)\n"
               "\n"
               "Environment: PMUSIM_QEMU the QEMU binary (default qemu-ARCH from PATH),\n"
               "             PMUSIM_PLUGIN the plugin (default qemu/pmusim_plugin.so beside pmusim).\n"
               "docs/real-programs.md describes the recording and each family's timing model.\n"
               "exit status: 0 ok, 1 the program failed (its recording is kept) or a write failed,\n"
               "             2 bad arguments or a program that cannot be recorded\n");
}

static const pmu_cli_cmd record_cmd = {.name = "record", .help = record_help, .max_args = 4096};

static const char *const format_names[] = {"text", "binary", NULL};

typedef struct record_opts {
    pmu_cli_target t;
    const char *out, *symbols;
    int form, list_params, print_target, json;
    const pmu_timing_ops *m;
    uint64_t value[MAX_PARAMS];
    const char *prog_args[4097];
    unsigned nprog;
} record_opts;

static int param_call(void *ctx, const char *opt, const char *value, pmu_err *err)
{
    record_opts *o = ctx;
    (void)opt;
    /* The family may come after --param: keep the text, apply it once the model is known. */
    static const char *pending[MAX_PARAMS];
    static unsigned npending;
    if (!value) { /* flush: apply every kept assignment */
        for (unsigned i = 0; i < npending; i++)
            if (pmu_timing_set(o->m, o->value, pending[i], "--param", err) != 0)
                return -1;
        npending = 0;
        return 0;
    }
    if (npending == MAX_PARAMS)
        return pmu_errf(err, PMU_E_INPUT, "--param: at most %u", MAX_PARAMS);
    pending[npending++] = value;
    return 0;
}

static int record_parse(int argc, char **argv, record_opts *o)
{
    o->form = PMU_STREAM_BINARY;
    pmu_opt opts[] = {
        {.name = "output", .key = 'o', .kind = PMU_OPT_FILE, .dest = &o->out},
        {.name = "family", .kind = PMU_OPT_TEXT, .dest = &o->t.family_name},
        {.name = "symbols", .kind = PMU_OPT_FILE, .dest = &o->symbols},
        {.name = "format", .kind = PMU_OPT_CHOICE, .dest = &o->form, .choices = format_names},
        {.name = "param", .kind = PMU_OPT_CALL, .call = param_call, .ctx = o, .repeat = 1},
        {.name = "list-params", .kind = PMU_OPT_FLAG, .dest = &o->list_params},
        {.name = "print-target", .kind = PMU_OPT_FLAG, .dest = &o->print_target},
        {.name = "json", .kind = PMU_OPT_FLAG, .dest = &o->json},
    };
    int rc = pmu_cli_parse(&record_cmd, opts, sizeof opts / sizeof opts[0], argc, argv, o->prog_args, &o->nprog);
    if (rc)
        return rc;
    o->t.records_only = 1;
    if ((rc = pmu_cli_target_resolve(&record_cmd, &o->t)) != 0)
        return rc;
    o->m = o->t.fam->dialect->timing;
    if (!o->m)
        return pmu_cli_usage(&record_cmd, "--family %s: the family has no timing model for real programs",
                             o->t.fam->name);
    if (o->m->nparams > MAX_PARAMS)
        return pmu_cli_fail(&record_cmd, PMU_EXIT_FAIL, "the timing model has more than %u parameters", MAX_PARAMS);
    pmu_timing_defaults(o->m, o->value);
    pmu_err err;
    if (param_call(o, "--param", NULL, &err) != 0)
        return pmu_cli_usage(&record_cmd, "%s", err.msg);
    if (o->list_params || o->print_target)
        return 0;
    if (!o->out)
        return pmu_cli_usage(&record_cmd, "expected -o FILE, the stream");
    if (strcmp(o->out, "-") == 0)
        return pmu_cli_usage(&record_cmd, "-o -: expected a file (the program's output goes to the terminal)");
    if (o->nprog == 0)
        return pmu_cli_usage(&record_cmd, "expected the program to record: pmusim record ... -- PROGRAM [ARGS]");
    return 0;
}

static void list_params(const record_opts *o)
{
    const pmu_timing_ops *m = o->m;
    printf("timing model of %s: %s\n", o->t.fam->name, m->what);
    for (unsigned k = 0; k < m->nparams; k++) {
        const pmu_timing_param *p = &m->params[k];
        printf("  %-22s %-12" PRIu64 " %s [%" PRIu64 "..%" PRIu64 "]; %s\n", p->name, o->value[k], p->what, p->min,
               p->max, p->source);
    }
}

static void print_target(const record_opts *o)
{
    const pmu_family_cmds *c = o->t.fam->cmds;
    printf("QEMU_ARCH=%s\nCC=%s\nSYSROOT=%s\nPACKAGES='%s'\n", o->m->qemu_arch, o->m->cc, o->m->sysroot,
           o->m->packages);
    printf("PROFILE='%s'\nCHECKS=%s\n", c && c->real_profile ? c->real_profile : "",
           c && c->real_checks ? c->real_checks : "");
}

/* ---- the program's ELF: what it is built for, and its functions ---------------------------- */

static const char *machine_name(unsigned m)
{
    switch (m) {
    case EM_386: return "IA-32 (i386)";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case EM_IA_64: return "IA-64";
    case 0x9026: return "Alpha";
    default: return "another architecture";
    }
}

typedef struct func {
    uint64_t start, end;
    const char *name;
} func;

/* A position-independent program (ET_DYN) runs where the loader puts it: its symbols are
 * offsets from that base.  The base is found in the run: the first executed instruction
 * whose bytes are those at the program's entry point, at a page-aligned distance from it. */
typedef struct pie_entry {
    int pie;               /* ET_DYN */
    uint64_t entry;        /* e_entry */
    uint8_t bytes[PMU_RINSN_MAX_BYTES];
    unsigned nbytes;       /* of the entry's bytes in the file (0: not found) */
    int found;
    uint64_t base;         /* the load base, once found */
} pie_entry;

static void pie_look(pie_entry *p, const pmu_rinsn *in)
{
    const uint64_t page = 4096;
    if (in->pc < p->entry || ((in->pc - p->entry) & (page - 1)) != 0 || in->size > p->nbytes ||
        memcmp(in->bytes, p->bytes, in->size) != 0)
        return;
    p->found = 1;
    p->base = in->pc - p->entry;
}

static int by_start(const void *a, const void *b)
{
    const func *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : strcmp(x->name, y->name);
}

/* The ELF header fields of the program's image, in host order (both targets are little-endian). */
static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* One program header of an ELF image, in host order. */
typedef struct elf_seg {
    unsigned type, flags;
    uint64_t off, va, filesz, memsz;
} elf_seg;

/* Program header i of image[0..len): 1, or 0 past the last one (or a header outside the file). */
static int elf_segment(const uint8_t *img, size_t len, unsigned i, elf_seg *sg)
{
    const int is64 = img[EI_CLASS] == ELFCLASS64;
    const uint64_t phoff = is64 ? rd(img + 32, 8) : rd(img + 28, 4);
    const unsigned phentsize = (unsigned)rd(img + (is64 ? 54 : 42), 2), phnum = (unsigned)rd(img + (is64 ? 56 : 44), 2);
    if (!phoff || phoff >= len || i >= phnum || phentsize < (is64 ? 56u : 32u) ||
        (uint64_t)(i + 1u) * phentsize > len - phoff)
        return 0;
    const uint8_t *ph = img + phoff + (uint64_t)i * phentsize;
    sg->type = (unsigned)rd(ph, 4);
    sg->flags = (unsigned)(is64 ? rd(ph + 4, 4) : rd(ph + 24, 4));
    sg->off = is64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
    sg->va = is64 ? rd(ph + 16, 8) : rd(ph + 8, 4);
    sg->filesz = is64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
    sg->memsz = is64 ? rd(ph + 40, 8) : rd(ph + 20, 4);
    return 1;
}

/* Checks that image[0..len) is an ELF program of the model's architecture, and finds its
 * entry point's bytes.  0, or -1 with err. */
static int read_elf(const char *path, const uint8_t *img, size_t len, const pmu_timing_ops *m, pie_entry *pie,
                    pmu_err *err)
{
    if (len < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG) != 0)
        return pmu_errf(err, PMU_E_INPUT, "%s: not an ELF program (expected a program built with %s)", path, m->cc);
    const int is64 = img[EI_CLASS] == ELFCLASS64;
    const size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if (len < ehsize || img[EI_DATA] != ELFDATA2LSB)
        return pmu_errf(err, PMU_E_INPUT, "%s: a truncated or big-endian ELF file", path);
    const unsigned machine = (unsigned)rd(img + 18, 2);
    if (machine != m->elf_machine || img[EI_CLASS] != m->elf_class)
        return pmu_errf(err, PMU_E_INPUT, "%s: a program for %s (%d-bit), expected %s (%d-bit): build it with %s",
                        path, machine_name(machine), is64 ? 64 : 32, machine_name(m->elf_machine),
                        m->elf_class == ELFCLASS64 ? 64 : 32, m->cc);
    /* The entry point's bytes, from the loadable segment that holds it. */
    memset(pie, 0, sizeof *pie);
    pie->pie = rd(img + 16, 2) == ET_DYN;
    pie->entry = is64 ? rd(img + 24, 8) : rd(img + 24, 4);
    elf_seg sg;
    for (unsigned i = 0; elf_segment(img, len, i, &sg); i++) {
        if (sg.type != PT_LOAD || pie->entry < sg.va || pie->entry - sg.va >= sg.filesz ||
            sg.off + (pie->entry - sg.va) >= len)
            continue;
        const uint64_t at = sg.off + (pie->entry - sg.va);
        pie->nbytes = (unsigned)(len - at < PMU_RINSN_MAX_BYTES ? len - at : PMU_RINSN_MAX_BYTES);
        memcpy(pie->bytes, img + at, pie->nbytes);
        break;
    }
    return 0;
}

/* The address the image's first byte loads at (its first loadable segment's, offset 0). */
static uint64_t elf_first_load(const uint8_t *img, size_t len)
{
    elf_seg sg;
    for (unsigned i = 0; elf_segment(img, len, i, &sg); i++)
        if (sg.type == PT_LOAD)
            return sg.va - sg.off;
    return 0;
}

/* The name of a stretch of a file's code that no symbol names. */
#define NO_SYMBOL "[no symbol]"

/* The functions being collected: names "FILE:FUNCTION", owned. */
typedef struct funcs {
    func *f;
    unsigned n, cap;
} funcs;

static int funcs_add(funcs *l, uint64_t start, uint64_t end, const char *file, const char *name, pmu_err *err)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? l->cap * 2 : 256;
        func *g = realloc(l->f, cap * sizeof *g);
        if (!g)
            return pmu_errf(err, PMU_E_NOMEM, "out of memory");
        l->f = g;
        l->cap = cap;
    }
    const size_t n = strlen(file) + strlen(name) + 2;
    char *s = malloc(n);
    if (!s)
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    snprintf(s, n, "%s:%s", file, name);
    l->f[l->n++] = (func){start, end, s};
    return 0;
}

/* The stretches of code no symbol names: each executable segment of ELF image img, moved by
 * `bias`, as a range "FILE:[no symbol]" in segs (funcs_fill keeps what no function covers:
 * a stripped library's local functions, PLT stubs).  0, or -1 with err. */
static int elf_text(const uint8_t *img, size_t len, const char *file, uint64_t bias, funcs *segs, pmu_err *err)
{
    elf_seg sg;
    for (unsigned i = 0; elf_segment(img, len, i, &sg); i++)
        if (sg.type == PT_LOAD && (sg.flags & PF_X) && sg.memsz &&
            funcs_add(segs, sg.va + bias, sg.va + sg.memsz + bias, file, NO_SYMBOL, err))
            return -1;
    return 0;
}

/* Adds to l (sorted, no overlaps: funcs_finish) the parts of segs' ranges that none of its
 * functions covers, counted in *ngaps; l stays sorted.  0, or -1 with err. */
static int funcs_fill(funcs *l, const funcs *segs, unsigned *ngaps, pmu_err *err)
{
    const unsigned nf = l->n;
    for (unsigned k = 0; k < segs->n; k++) {
        const func sg = segs->f[k];
        const char *colon = strrchr(sg.name, ':');
        const size_t flen = colon ? (size_t)(colon - sg.name) : 0;
        char file[PATH_MAX];
        snprintf(file, sizeof file, "%.*s", (int)flen, sg.name);
        unsigned lo = 0, hi = nf; /* the first function ending after the segment's start */
        while (lo < hi) {
            unsigned mid = lo + (hi - lo) / 2;
            if (l->f[mid].end <= sg.start)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint64_t at = sg.start;
        for (unsigned i = lo; i < nf && l->f[i].start < sg.end && at < sg.end; i++) {
            const uint64_t fs = l->f[i].start, fe = l->f[i].end;
            if (fs > at) {
                if (funcs_add(l, at, fs, file, NO_SYMBOL, err))
                    return -1;
                ++*ngaps;
            }
            if (fe > at)
                at = fe;
        }
        if (at < sg.end) {
            if (funcs_add(l, at, sg.end, file, NO_SYMBOL, err))
                return -1;
            ++*ngaps;
        }
    }
    if (l->n > nf)
        qsort(l->f, l->n, sizeof *l->f, by_start);
    return 0;
}

static void funcs_free(funcs *l)
{
    for (unsigned i = 0; i < l->n; i++)
        free((char *)l->f[i].name);
    free(l->f);
    memset(l, 0, sizeof *l);
}

/* Sorted, one name per address (aliases: the first in order), no overlaps. */
static void funcs_finish(funcs *l)
{
    if (l->n == 0)
        return;
    qsort(l->f, l->n, sizeof *l->f, by_start);
    unsigned n = 0;
    for (unsigned i = 0; i < l->n; i++) {
        func f = l->f[i];
        if (n > 0 && f.start < l->f[n - 1].end) {
            if (f.start == l->f[n - 1].start) {
                free((char *)f.name);
                continue;
            }
            l->f[n - 1].end = f.start;
        }
        l->f[n++] = f;
    }
    l->n = n;
}

/* Adds the functions of ELF image img (its symbol table; a stripped library's dynamic one),
 * each moved by `bias` and named FILE:NAME.  0, or -1 with err on a malformed file. */
static int elf_funcs(const char *path, const uint8_t *img, size_t len, const char *file, uint64_t bias, funcs *l,
                     pmu_err *err)
{
    const int is64 = img[EI_CLASS] == ELFCLASS64;
    const uint64_t shoff = is64 ? rd(img + 40, 8) : rd(img + 32, 4);
    const unsigned shentsize = (unsigned)rd(img + (is64 ? 58 : 46), 2), shnum = (unsigned)rd(img + (is64 ? 60 : 48), 2);
    if (shoff == 0 || shnum == 0)
        return 0; /* stripped of sections: no functions */
    if (shoff > len || (uint64_t)shentsize * shnum > len - shoff || shentsize < (is64 ? 64u : 40u))
        return pmu_errf(err, PMU_E_INPUT, "%s: its section headers lie outside the file", path);
    int have_symtab = 0;
    for (unsigned s = 0; s < shnum; s++)
        have_symtab |= rd(img + shoff + (uint64_t)s * shentsize + 4, 4) == SHT_SYMTAB;
    const unsigned want = have_symtab ? SHT_SYMTAB : SHT_DYNSYM;
    for (unsigned s = 0; s < shnum; s++) {
        const uint8_t *sh = img + shoff + (uint64_t)s * shentsize;
        if (rd(sh + 4, 4) != want)
            continue;
        const uint64_t off = is64 ? rd(sh + 24, 8) : rd(sh + 16, 4), size = is64 ? rd(sh + 32, 8) : rd(sh + 20, 4);
        const unsigned link = (unsigned)rd(sh + (is64 ? 40 : 24), 4);
        const uint64_t entsize = is64 ? 24 : 16;
        if (link >= shnum || off > len || size > len - off)
            return pmu_errf(err, PMU_E_INPUT, "%s: its symbol table lies outside the file", path);
        const uint8_t *str = img + shoff + (uint64_t)link * shentsize;
        const uint64_t stroff = is64 ? rd(str + 24, 8) : rd(str + 16, 4), strsize = is64 ? rd(str + 32, 8) : rd(str + 20, 4);
        if (stroff > len || strsize > len - stroff)
            return pmu_errf(err, PMU_E_INPUT, "%s: its string table lies outside the file", path);
        for (uint64_t k = 0; k + entsize <= size; k += entsize) {
            const uint8_t *e = img + off + k;
            const uint64_t name = rd(e, 4);
            const uint64_t value = is64 ? rd(e + 8, 8) : rd(e + 4, 4), sz = is64 ? rd(e + 16, 8) : rd(e + 8, 4);
            const unsigned info = is64 ? e[4] : e[12];
            const unsigned shndx = (unsigned)(is64 ? rd(e + 6, 2) : rd(e + 14, 2));
            if (ELF64_ST_TYPE(info) != STT_FUNC || sz == 0 || shndx == SHN_UNDEF || name >= strsize)
                continue;
            const char *nm = (const char *)img + stroff + name;
            if (!memchr(nm, '\0', strsize - name))
                continue;
            if (funcs_add(l, value + bias, value + sz + bias, file, nm, err))
                return -1;
        }
    }
    return 0;
}

static const char *base_name(const char *path) { return strrchr(path, '/') ? strrchr(path, '/') + 1 : path; }

/* The libraries' functions: the trace's MAP words say where QEMU mapped each file in its own
 * address space at exit, at guest_base + the guest's address; the program's own mapping
 * gives guest_base.  Files of another architecture (QEMU's own libraries) are skipped;
 * one that cannot be read leaves its samples without a name.  0, or -1 with err. */
static int library_funcs(const pmu_rtrace *tr, const char *prog, const uint8_t *img, size_t len, uint64_t prog_base,
                         const pmu_timing_ops *m, funcs *l, funcs *segs, unsigned *nlibs, pmu_err *err)
{
    char want[PATH_MAX], got[PATH_MAX];
    uint64_t host, guest_base = 0;
    int found = 0;
    if (!realpath(prog, want))
        return 0;
    for (unsigned i = 0; !found && pmu_rtrace_map(tr, i, &host); i++)
        if (realpath(pmu_rtrace_map(tr, i, &host), got) && strcmp(got, want) == 0) {
            guest_base = host - (prog_base + elf_first_load(img, len));
            found = 1;
        }
    if (!found)
        return 0;
    const char *path;
    for (unsigned i = 0; (path = pmu_rtrace_map(tr, i, &host)) != NULL; i++) {
        if (realpath(path, got) && strcmp(got, want) == 0)
            continue;
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t *lib = NULL;
        size_t n = 0, cap = 0;
        for (;;) {
            if (n == cap) {
                cap = cap ? cap * 2 : (1u << 20);
                uint8_t *g = cap <= ELF_LIMIT ? realloc(lib, cap) : NULL;
                if (!g)
                    break;
                lib = g;
            }
            size_t k = fread(lib + n, 1, cap - n, f);
            n += k;
            if (k == 0)
                break;
        }
        fclose(f);
        const int is64 = n > EI_CLASS && lib[EI_CLASS] == ELFCLASS64;
        int rc = 0;
        if (n >= (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)) && memcmp(lib, ELFMAG, SELFMAG) == 0 &&
            lib[EI_CLASS] == m->elf_class && rd(lib + 18, 2) == m->elf_machine) {
            const uint64_t bias = rd(lib + 16, 2) == ET_DYN ? host - guest_base - elf_first_load(lib, n) : 0;
            rc = elf_funcs(path, lib, n, base_name(path), bias, l, err) ||
                 elf_text(lib, n, base_name(path), bias, segs, err);
            ++*nlibs;
        }
        free(lib);
        if (rc)
            return -1;
    }
    return 0;
}

static int write_symbols(const char *path, const char *prog, const func *fs, unsigned n, uint64_t base,
                         unsigned nlibs, pmu_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pmu_errf(err, PMU_E_IO, "%s: cannot write: %s", path, strerror(errno));
    /* Names are FILE:FUNCTION, as the generator's workload names its processes' functions:
     * the 21064's pfm profiles one program's functions by that prefix. */
    fprintf(f, "# the functions of %s (its ELF symbol table, loaded at 0x%" PRIx64 ") and of the %u libraries "
            "QEMU loaded, written by pmusim record\n", prog, base, nlibs);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "0x%" PRIx64 " 0x%" PRIx64 " %s\n", fs[i].start, fs[i].end, fs[i].name);
    if (ferror(f) | (fclose(f) != 0))
        return pmu_errf(err, PMU_E_IO, "%s: write error", path);
    return 0;
}

/* ---- QEMU and the plugin ---------------------------------------------------------------------- */

/* `name` found in PATH into buf: 0, or -1. */
static int find_in_path(const char *name, char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 && snprintf(buf, size, "%s", name) < (int)size ? 0 : -1;
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (snprintf(buf, size, "%.*s/%s", (int)n, n ? p : ".", name) < (int)size && access(buf, X_OK) == 0)
            return 0;
        p += n + (e != NULL);
    }
    return -1;
}

/* ---- the guest's root ---------------------------------------------------------------------------
 * QEMU's -L prefix is where the guest's absolute paths are looked up first, the host's next.
 * The target's loader reads /etc/ld.so.cache: with the sysroot as the prefix (it has none)
 * that is the host's own cache, whose entries depend on what the host has installed, and
 * the loader's search through it for each library moves the program's instruction count
 * from one machine to the next.  The guest gets a root of its own for the run: a temporary
 * directory holding the sysroot's entries (as symbolic links) and an empty etc/ld.so.cache,
 * which the loader takes for no cache (it then looks in its default directories, the
 * sysroot's lib).  Every entry is registered with pmu_tmpfiles, so a signal removes it. */
#define ROOT_MAX 48

typedef struct {
    char *path[ROOT_MAX]; /* [0] the directory, then what it holds, in the order made */
    unsigned n;
} guest_root;

static void root_remove(guest_root *r)
{
    while (r->n) {
        char *p = r->path[--r->n];
        if (unlink(p) != 0 && errno == EISDIR)
            rmdir(p);
        pmu_tmpfiles_forget(p);
        free(p);
    }
}

/* Makes `name` in the root: a directory (target NULL, dir 1), an empty file (target NULL),
 * or a symbolic link to target. */
static int root_entry(guest_root *r, const char *name, int dir, const char *target, pmu_err *err)
{
    char *p = NULL;
    if (r->n == ROOT_MAX || asprintf(&p, "%s%s%s", r->path[0] ? r->path[0] : "", r->n ? "/" : "", name) < 0)
        return free(p), pmu_errf(err, PMU_E_IO, "the guest's root: too many entries in the sysroot");
    int fd = 0, rc = target ? symlink(target, p) : dir ? mkdir(p, 0700) : (fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600));
    if (rc < 0 || fd < 0) {
        pmu_errf(err, PMU_E_IO, "the guest's root: cannot make %s: %s", p, strerror(errno));
        free(p);
        return -1;
    }
    if (!target && !dir)
        close(fd);
    pmu_tmpfiles_add(p);
    r->path[r->n++] = p;
    return 0;
}

/* Links every entry of directory `from` into the root's `into` ("" its top), but `skip`. */
static int root_links(guest_root *r, const char *from, const char *into, const char *skip, pmu_err *err)
{
    DIR *d = opendir(from);
    if (!d)
        return errno == ENOENT && *into ? 0 : pmu_errf(err, PMU_E_IO, "%s: %s", from, strerror(errno));
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, skip))
            continue;
        char name[PATH_MAX], target[PATH_MAX];
        snprintf(name, sizeof name, "%s%s%s", into, *into ? "/" : "", e->d_name);
        snprintf(target, sizeof target, "%s/%s", from, e->d_name);
        rc = root_entry(r, name, 0, target, err);
    }
    closedir(d);
    return rc;
}

static int root_make(guest_root *r, const char *sysroot, pmu_err *err)
{
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], etc[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/pmusim-root.XXXXXX", tmp && *tmp ? tmp : "/tmp") >= (int)sizeof dir)
        return pmu_errf(err, PMU_E_INPUT, "TMPDIR: too long");
    pmu_tmpfiles_hold(1);
    int rc = 0;
    if (!mkdtemp(dir))
        rc = pmu_errf(err, PMU_E_IO, "cannot make the guest's root in %s: %s (TMPDIR names another directory)",
                      tmp && *tmp ? tmp : "/tmp", strerror(errno));
    else if (!(r->path[0] = strdup(dir))) {
        rmdir(dir);
        rc = pmu_errf(err, PMU_E_IO, "out of memory");
    }
    if (rc == 0) {
        pmu_tmpfiles_add(r->path[0]);
        r->n = 1;
        snprintf(etc, sizeof etc, "%s/etc", sysroot);
        rc = root_links(r, sysroot, "", "etc", err);
        if (rc == 0)
            rc = root_entry(r, "etc", 1, NULL, err);
        if (rc == 0)
            rc = root_links(r, etc, "etc", "ld.so.cache", err);
        if (rc == 0)
            rc = root_entry(r, "etc/ld.so.cache", 0, NULL, err);
        if (rc != 0)
            root_remove(r);
    }
    pmu_tmpfiles_hold(0);
    return rc;
}

static int plugin_path(char *buf, size_t size, pmu_err *err)
{
    const char *env = getenv("PMUSIM_PLUGIN");
    if (env && *env) {
        if (snprintf(buf, size, "%s", env) >= (int)size)
            return pmu_errf(err, PMU_E_INPUT, "PMUSIM_PLUGIN: too long");
    } else {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return pmu_errf(err, PMU_E_IO, "cannot find pmusim's own path (/proc/self/exe): %s", strerror(errno));
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        *slash = '\0';
        if (snprintf(buf, size, "%s/qemu/pmusim_plugin.so", exe) >= (int)size)
            return pmu_errf(err, PMU_E_INPUT, "pmusim's path is too long");
    }
    if (access(buf, R_OK) != 0)
        return pmu_errf(err, PMU_E_INPUT, "the QEMU plugin %s: %s (make builds it; PMUSIM_PLUGIN names another)",
                        buf, strerror(errno));
    return 0;
}

typedef struct emit_ctx {
    pmu_stream_writer *w;
    uint64_t records;
} emit_ctx;

static int emit(void *ctx, const void *rec, pmu_err *err)
{
    emit_ctx *e = ctx;
    e->records++;
    return pmu_stream_write(e->w, rec, err);
}

static void describe_status(int status, char *buf, size_t size)
{
    if (WIFEXITED(status))
        snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, size, "ended with wait status 0x%x", (unsigned)status);
}

/* Runs the program and feeds the model; fills *status (the wait status) and the counts.
 * 0, or -1 with err (the stream is then not kept). */
static int run_program(const record_opts *o, const char *qemu, const char *plugin, const char *root, pmu_timing *t,
                       pie_entry *pie, pmu_rtrace **trace, emit_ctx *ec, uint64_t *insns, uint64_t *qemu_count, uint32_t *pid_out, int *status,
                       pmu_err *err)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return pmu_errf(err, PMU_E_IO, "pipe: %s", strerror(errno));
    char plugarg[PATH_MAX + 32];
    snprintf(plugarg, sizeof plugarg, "%s,fd=%d", plugin, fds[1]);
    const char *argv[4096 + 8];
    unsigned a = 0;
    argv[a++] = qemu;
    argv[a++] = "-L";
    argv[a++] = root;
    argv[a++] = "-plugin";
    argv[a++] = plugarg;
    for (unsigned i = 0; i < o->nprog; i++)
        argv[a++] = o->prog_args[i];
    argv[a] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return pmu_errf(err, PMU_E_IO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        /* The write end survives exec; the read end does not (O_CLOEXEC). */
        if (fcntl(fds[1], F_SETFD, 0) != 0)
            _exit(126);
        /* No address-space randomisation (setarch -R): QEMU places the guest's stack and
         * mappings where the host's mmap puts them, so with it the data addresses, and the
         * cache and TLB misses they cause, would change from one recording to the next. */
        int pers = personality(0xffffffff);
        if (pers != -1)
            personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
        /* --json: stdout is the summary's; the program writes its output on stderr. */
        if (o->json && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
            _exit(126);
        execv(qemu, (char *const *)argv);
        fprintf(stderr, "pmusim record: cannot run %s: %s\n", qemu, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "rb");
    int rc = 0;
    pmu_rtrace *tr = in ? pmu_rtrace_open(in, "the QEMU trace", err) : NULL;
    if (!in)
        rc = pmu_errf(err, PMU_E_IO, "fdopen: %s", strerror(errno));
    else if (!tr)
        rc = -1;
    pmu_rinsn ins;
    int r = 0;
    pmu_err trace_err;
    pmu_err_clear(&trace_err);
    while (!rc && (r = pmu_rtrace_next(tr, &ins, &trace_err)) == 1) {
        if (pie->pie && !pie->found)
            pie_look(pie, &ins);
        rc = o->m->step(t, &ins, emit, ec, err);
    }
    /* Drain what QEMU still writes (after an error here) so that it is not stopped by SIGPIPE. */
    if (in) {
        char sink[65536];
        while (fread(sink, 1, sizeof sink, in) > 0)
            ;
    }
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    const int failed = !(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
    if (!rc && r < 0) {
        /* A program that crashed may end its trace without END: keep what it ran. */
        if (failed && tr && pmu_rtrace_exec_count(tr) > 0)
            r = 0;
        else {
            *err = trace_err;
            rc = -1;
        }
    }
    if (!rc && tr && pmu_rtrace_exec_count(tr) == 0) {
        char what[128];
        describe_status(*status, what, sizeof what);
        rc = pmu_errf(err, PMU_E_INPUT, "%s %s before it ran an instruction (see QEMU's message above)", o->prog_args[0],
                      what);
    }
    if (!rc)
        rc = o->m->finish(t, emit, ec, err);
    *insns = tr ? pmu_rtrace_exec_count(tr) : 0;
    *qemu_count = tr ? pmu_rtrace_qemu_count(tr) : 0;
    *pid_out = tr ? pmu_rtrace_pid(tr) : 0;
    *trace = tr; /* the caller's: the mappings, for the libraries' functions */
    if (in)
        fclose(in);
    return rc;
}

/* What a recording made, for its summary. */
typedef struct record_summary {
    const char *prog, *what; /* the program, how it ended (describe_status) */
    int status;              /* its wait status */
    uint32_t pid;
    uint64_t insns, qcount;  /* instructions traced, QEMU's own count */
    int counted;             /* QEMU's count is there (it stopped after counting) */
    uint64_t records;
    unsigned functions, libraries, gaps; /* --symbols */
} record_summary;

static void print_text(const record_opts *o, const record_summary *r, const pmu_timing_stats *st)
{
    printf("record: %s (%s, pid %u) %s\n", r->prog, o->m->qemu_arch, (unsigned)r->pid, r->what);
    if (r->counted)
        printf("instructions %" PRIu64 " (QEMU's own count %" PRIu64 ")\n", r->insns, r->qcount);
    else
        printf("instructions %" PRIu64 " (QEMU stopped before its own count)\n", r->insns);
    printf("cycles %" PRIu64 "\n", st->cycles);
    if (st->split || st->squashed)
        printf("retiring %" PRIu64 " (%" PRIu64 " fetched as two, %" PRIu64 " squashed)\n",
               r->insns + st->split - st->squashed, st->split, st->squashed);
    printf("conditional branches %" PRIu64 ", taken %" PRIu64 ", mispredicted %" PRIu64 "\n", st->branches, st->taken,
           st->mispredicts);
    printf("loads %" PRIu64 ", stores %" PRIu64 "\n", st->loads, st->stores);
    printf("misses L1I %" PRIu64 ", L1D %" PRIu64 ", L2 %" PRIu64 ", ITLB %" PRIu64 ", DTLB %" PRIu64 "\n",
           st->l1i_misses, st->l1d_misses, st->l2_misses, st->itlb_misses, st->dtlb_misses);
    printf("stream %s (%s, %s, %" PRIu64 " records)", o->out, o->t.fam->name, format_names[o->form], r->records);
    if (o->symbols)
        printf("; symbols %s (%u functions, %u libraries; %u stretches of code without a symbol)", o->symbols,
               r->functions, r->libraries, r->gaps);
    printf("\n");
}

/* The same summary as one JSON object (docs/json.md). */
static void print_json(const record_opts *o, const record_summary *r, const pmu_timing_stats *st)
{
    printf("{\"program\": ");
    pmu_json_string(stdout, r->prog);
    printf(", \"arch\": ");
    pmu_json_string(stdout, o->m->qemu_arch);
    printf(", \"family\": ");
    pmu_json_string(stdout, o->t.fam->name);
    printf(", \"pid\": %u,\n  \"exit\": {", (unsigned)r->pid);
    if (WIFEXITED(r->status))
        printf("\"status\": %d, \"signal\": null", WEXITSTATUS(r->status));
    else if (WIFSIGNALED(r->status))
        printf("\"status\": null, \"signal\": %d", WTERMSIG(r->status));
    else
        printf("\"status\": null, \"signal\": null");
    printf(", \"text\": ");
    pmu_json_string(stdout, r->what);
    printf("},\n  \"instructions\": %" PRIu64 ", \"qemu_count\": ", r->insns);
    if (r->counted)
        printf("%" PRIu64, r->qcount);
    else
        printf("null");
    printf(", \"retiring\": %" PRIu64 ", \"split\": %" PRIu64 ", \"squashed\": %" PRIu64 ", \"cycles\": %" PRIu64,
           r->insns + st->split - st->squashed, st->split, st->squashed, st->cycles);
    printf(",\n  \"branches\": {\"conditional\": %" PRIu64 ", \"taken\": %" PRIu64 ", \"mispredicted\": %" PRIu64
           "}, \"loads\": %" PRIu64 ", \"stores\": %" PRIu64,
           st->branches, st->taken, st->mispredicts, st->loads, st->stores);
    printf(",\n  \"misses\": {\"l1i\": %" PRIu64 ", \"l1d\": %" PRIu64 ", \"l2\": %" PRIu64 ", \"itlb\": %" PRIu64
           ", \"dtlb\": %" PRIu64 "}",
           st->l1i_misses, st->l1d_misses, st->l2_misses, st->itlb_misses, st->dtlb_misses);
    printf(",\n  \"stream\": {\"file\": ");
    pmu_json_string(stdout, o->out);
    printf(", \"format\": \"%s\", \"records\": %" PRIu64 "},\n  \"symbols\": ", format_names[o->form], r->records);
    if (o->symbols) {
        printf("{\"file\": ");
        pmu_json_string(stdout, o->symbols);
        printf(", \"functions\": %u, \"libraries\": %u, \"no_symbol\": %u}", r->functions, r->libraries, r->gaps);
    } else {
        printf("null");
    }
    printf("\n}\n");
}

static int record_run(record_opts *o)
{
    pmu_err err;
    const pmu_timing_ops *m = o->m;
    const char *prog = o->prog_args[0];
    char qemu[PATH_MAX], plugin[PATH_MAX], qname[64];
    snprintf(qname, sizeof qname, "qemu-%s", m->qemu_arch);
    const char *qenv = getenv("PMUSIM_QEMU");
    if (find_in_path(qenv && *qenv ? qenv : qname, qemu, sizeof qemu) != 0)
        return pmu_cli_fail(&record_cmd, PMU_EXIT_USAGE, "%s: not found; install it: apt-get install %s",
                            qenv && *qenv ? qenv : qname, m->packages);
    if (access(m->sysroot, R_OK) != 0)
        return pmu_cli_fail(&record_cmd, PMU_EXIT_USAGE, "%s: %s (the target's libraries); install them: "
                            "apt-get install %s", m->sysroot, strerror(errno), m->packages);
    if (plugin_path(plugin, sizeof plugin, &err) != 0)
        return pmu_cli_error(&record_cmd, &err);
    /* The program: it must exist, be an ELF for the model's architecture. */
    char *img = NULL;
    size_t len = 0;
    funcs fl = {NULL, 0, 0}, segs = {NULL, 0, 0};
    unsigned nlibs = 0, ngaps = 0;
    pmu_rtrace *tr = NULL;
    pie_entry pie;
    pmu_files *files = pmu_files_new();
    if (!files)
        return pmu_cli_fail(&record_cmd, PMU_EXIT_FAIL, "out of memory");
    int rc = PMU_EXIT_OK;
    if (pmu_files_read(files, "PROGRAM", prog, ELF_LIMIT, "a program", &img, &len, &err) != 0 ||
        read_elf(prog, (const uint8_t *)img, len, m, &pie, &err) != 0) {
        rc = pmu_cli_fail(&record_cmd, PMU_EXIT_USAGE, "%s", err.msg);
        goto out;
    }
    pmu_outfile *out = pmu_files_output(files, "-o", o->out, 0, &err), *syms = NULL;
    if (!out || (o->symbols && !(syms = pmu_files_output(files, "--symbols", o->symbols, 0, &err)))) {
        rc = pmu_cli_error(&record_cmd, &err);
        goto out;
    }
    pmu_timing *t = m->create(o->value, &err);
    if (!t) {
        rc = pmu_cli_error(&record_cmd, &err);
        goto out;
    }
    emit_ctx ec = {pmu_stream_create(o->t.fam->dialect, pmu_outfile_path(out), (pmu_stream_form)o->form, &err), 0};
    uint64_t insns = 0, qcount = 0;
    uint32_t tpid = 0;
    int status = 0;
    guest_root root = {{NULL}, 0};
    int bad = ec.w ? root_make(&root, m->sysroot, &err) : -1;
    if (!bad)
        bad = run_program(o, qemu, plugin, root.path[0], t, &pie, &tr, &ec, &insns, &qcount, &tpid, &status, &err);
    if (ec.w && pmu_stream_finish(ec.w, bad ? NULL : &err) != 0)
        bad = -1;
    const uint64_t prog_base = pie.pie ? pie.base : 0;
    if (!bad && syms && pie.pie && !pie.found)
        bad = pmu_errf(&err, PMU_E_INPUT, "%s: a position-independent program whose entry point never ran: "
                       "its functions' addresses are unknown", prog);
    if (!bad && syms &&
        (elf_funcs(prog, (const uint8_t *)img, len, base_name(prog), prog_base, &fl, &err) ||
         elf_text((const uint8_t *)img, len, base_name(prog), prog_base, &segs, &err) ||
         library_funcs(tr, prog, (const uint8_t *)img, len, prog_base, m, &fl, &segs, &nlibs, &err)))
        bad = -1;
    root_remove(&root); /* after library_funcs: it reads the libraries by the paths the guest mapped */
    funcs_finish(&fl);
    const unsigned nnamed = fl.n;
    if (!bad && syms && funcs_fill(&fl, &segs, &ngaps, &err))
        bad = -1;
    if (!bad && syms && write_symbols(pmu_outfile_path(syms), prog, fl.f, fl.n, prog_base, nlibs, &err) != 0)
        bad = -1;
    if (!bad && pmu_files_commit(files, &err) != 0)
        bad = -1;
    pmu_timing_stats st;
    memset(&st, 0, sizeof st);
    m->stats(t, &st);
    m->destroy(t);
    if (bad) {
        pmu_outfile_fix_msg(out, &err);
        rc = pmu_cli_error(&record_cmd, &err);
        goto out;
    }
    char what[128];
    describe_status(status, what, sizeof what);
    const int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const record_summary sum = {prog, what, status, tpid, insns, qcount, qcount || ok, ec.records, nnamed, nlibs, ngaps};
    if (o->json)
        print_json(o, &sum, &st);
    else
        print_text(o, &sum, &st);
    if ((qcount || ok) && qcount != insns) {
        rc = pmu_cli_fail(&record_cmd, PMU_EXIT_FAIL, "the trace holds %" PRIu64 " instructions but QEMU counted %"
                          PRIu64 ": instructions were lost", insns, qcount);
    } else if (!ok) {
        rc = pmu_cli_fail(&record_cmd, PMU_EXIT_FAIL, "%s %s; its recording up to there is kept in %s", prog, what,
                          o->out);
    }
out:
    funcs_free(&fl);
    funcs_free(&segs);
    pmu_rtrace_close(tr);
    free(img);
    pmu_files_free(files);
    return rc;
}

int pmusim_cmd_record(int argc, char **argv)
{
    record_opts *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(stderr, "pmusim record: out of memory\n");
        return PMU_EXIT_FAIL;
    }
    int rc = record_parse(argc, argv, o);
    if (rc == 0)
        rc = o->list_params ? (list_params(o), PMU_EXIT_OK) : o->print_target ? (print_target(o), PMU_EXIT_OK)
                                                                         : record_run(o);
    free(o);
    return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
}
