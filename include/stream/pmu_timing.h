/*
 * stream/pmu_timing.h - real programs as streams: a program's executed instructions, as
 * QEMU ran them (`pmusim record`, docs/real-programs.md), and the family's timing model,
 * which turns them into the family's cycle records.
 *
 * The recorder hands a timing model every executed instruction in execution order, with
 * its encoding, the addresses it loaded and stored, and where execution went next (so a
 * branch's direction and target are facts, not predictions).  The model decides what
 * the CPU did with it clock by clock: issue and retire, the caches and TLBs the
 * addresses go through, the branch predictor, and the records it emits say so.
 *
 * Every number a model uses is a parameter (pmu_timing_param): its default with the
 * manual it comes from, and `pmusim record --param NAME=VALUE` overrides it.
 */
#ifndef PMU_TIMING_H
#define PMU_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_RINSN_MAX_BYTES 15 /* the longest IA-32 instruction; Alpha's are 4 */
#define PMU_RINSN_MAX_MEM 8    /* memory accesses of one instruction the model sees */

/* One memory access of an instruction. */
typedef struct pmu_rmem {
    uint64_t addr;  /* virtual address */
    uint8_t store;  /* 1: a store, 0: a load */
    uint8_t size;   /* bytes: 1, 2, 4, 8 or 16 */
} pmu_rmem;

/* One executed instruction. */
typedef struct pmu_rinsn {
    uint64_t pc;       /* its address */
    uint64_t next_pc;  /* the next executed instruction's address: pc + size when execution
                          fell through, the target when a branch was taken; after the
                          last instruction, pc + size */
    uint8_t size;      /* bytes of the encoding */
    uint8_t bytes[PMU_RINSN_MAX_BYTES]; /* the encoding as it is in memory */
    uint8_t nmem;      /* accesses in mem[0..nmem), in program order; an instruction with
                          more (a long IA-32 string move) keeps its first PMU_RINSN_MAX_MEM */
    pmu_rmem mem[PMU_RINSN_MAX_MEM];
    uint32_t pid;      /* the process that executed it */
    uint8_t user;      /* 1: user mode (every instruction of a QEMU user-mode recording) */
} pmu_rinsn;

/* The 32-bit little-endian instruction word of an Alpha instruction. */
static inline uint32_t pmu_rinsn_word(const pmu_rinsn *i)
{
    return (uint32_t)i->bytes[0] | (uint32_t)i->bytes[1] << 8 | (uint32_t)i->bytes[2] << 16 |
           (uint32_t)i->bytes[3] << 24;
}

/* One parameter of a timing model. */
typedef struct pmu_timing_param {
    const char *name;    /* e.g. "l1d_size" */
    uint64_t def;        /* its default */
    uint64_t min, max;   /* the values the model accepts */
    const char *what;    /* what it is, with its unit: "L1 D-cache size, bytes" */
    const char *source;  /* where the default comes from: "21064 HRM 1.3, Table 1-1", or
                            "choice: docs/real-programs.md" */
} pmu_timing_param;

/* What a model counted itself, for the checks that compare it with the PMU's counts
 * (docs/real-programs.md, "Checks"): the same instructions seen from the other side. */
typedef struct pmu_timing_stats {
    uint64_t insns;        /* instructions it was given */
    uint64_t cycles;       /* records it emitted (a record with a repeat count counts each
                              cycle) */
    uint64_t branches;     /* conditional branches */
    uint64_t taken;        /* of them, taken */
    uint64_t mispredicts;  /* branches its predictor got wrong (direction or target) */
    uint64_t loads, stores;
    uint64_t l1i_misses, l1d_misses, l2_misses; /* the level after L1: Bcache or L2 */
    uint64_t itlb_misses, dtlb_misses;
    /* What the CPU makes of the instructions by their encoding alone (not by timing), so
     * that a retired-instruction count can be compared with QEMU's: the instructions it
     * fetches as two, each half retiring (the 21264's CMOV, HRM Table 6-12), and those it
     * drops before retire (the 21264's squashed NOPs and TRAPB).  Retired = insns + split -
     * squashed. */
    uint64_t split, squashed;
} pmu_timing_stats;

/* Emits one cycle record (the dialect's record_size bytes); 0, or -1 with err filled. */
typedef int (*pmu_timing_emit)(void *ctx, const void *rec, pmu_err *err);

typedef struct pmu_timing pmu_timing;

/* A family's timing model (its dialect's `timing`, include/common/pmu_dialect.h). */
typedef struct pmu_timing_ops {
    /* The program a model takes: the QEMU user-mode target (qemu-<qemu_arch>), the ELF
     * machine and class (e_machine, EI_CLASS) of its executables, the directory QEMU
     * finds the target's shared libraries in (-L), and the compiler `make real` builds
     * the sample programs with, with the Debian packages that bring them. */
    const char *qemu_arch;   /* "alpha", "i386" */
    uint16_t elf_machine;    /* EM_ALPHA (0x9026), EM_386 (3) */
    uint8_t elf_class;       /* ELFCLASS64 (2), ELFCLASS32 (1) */
    const char *sysroot;     /* "/usr/alpha-linux-gnu" */
    const char *cc;          /* "alpha-linux-gnu-gcc" */
    const char *packages;    /* "qemu-user gcc-alpha-linux-gnu" */
    const char *what;        /* one line for --help: what the model models */
    const pmu_timing_param *params;
    unsigned nparams;
    /* A model with value[k] for params[k] (each within its min..max). */
    pmu_timing *(*create)(const uint64_t *value, pmu_err *err);
    /* Feeds the next executed instruction; the model emits the records of the clocks it
     * can finish (zero or more). */
    int (*step)(pmu_timing *t, const pmu_rinsn *in, pmu_timing_emit emit, void *ctx, pmu_err *err);
    /* No more instructions: emit the rest (drain the pipeline). */
    int (*finish)(pmu_timing *t, pmu_timing_emit emit, void *ctx, pmu_err *err);
    void (*stats)(const pmu_timing *t, pmu_timing_stats *s);
    void (*destroy)(pmu_timing *t);
} pmu_timing_ops;

/* The defaults of m's parameters into value[0..m->nparams). */
void pmu_timing_defaults(const pmu_timing_ops *m, uint64_t *value);
/* 0 when every value[k] is within m->params[k].min..max (a model's create starts with it);
 * else -1 with err naming the first parameter out of range. */
int pmu_timing_check(const pmu_timing_ops *m, const uint64_t *value, pmu_err *err);
/* Applies one "NAME=VALUE" (decimal or 0x hex; k, M or G after a decimal number multiply
 * by 2^10, 2^20, 2^30) to value[]; `where` names it in messages ("--param").  0, or -1
 * with err: an unknown name (with the nearest one), a bad number, a value out of range. */
int pmu_timing_set(const pmu_timing_ops *m, uint64_t *value, const char *assignment, const char *where,
                   pmu_err *err);

#ifdef __cplusplus
}
#endif
#endif
