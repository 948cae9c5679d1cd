/*
 * ita_gen.h - the Itanium dialect's stream generator (docs/ita-stream-format.md, "The
 * generator"): the pieces its files share.  Not a public interface; the generator is
 * reached through ita_dialect and pmu_gen_* (include/stream/pmu_stream.h).
 *
 *   ita_gen.c         create, next, destroy, the function list, per-cycle limits
 *   ita_gen_build.c   the program builder: library, kernel and processes
 *   ita_gen_enc.c     instruction encodings (the classes of include/stream/ita/ia64_enc.h)
 *   ita_gen_run.c     the interpreter and the scheduler: WORKLOAD mode
 *   ita_gen_random.c  RANDOM mode and its hot edges
 *
 * Every draw comes from include/common/pmu_rng.h: `r` for the main sequence, `hr` for hot
 * edges, so a stream with edges is the stream without them with some fields replaced.
 */
#ifndef ITA_GEN_H
#define ITA_GEN_H

#include <stdint.h>

#include "common/ita/ita_cycle.h"
#include "common/ita/ita_regs.h"
#include "common/pmu_rng.h"
#include "stream/pmu_stream.h"

/* ---- the synthetic machine ---------------------------------------------------- */
#define MAX_LOOPS 8
#define MAX_DEPTH 48
#define MAX_PROCS 64

enum ikind {
    IK_ALU, IK_NOP, IK_LOAD, IK_STORE, IK_FPOP, IK_FLOAD, IK_FSTORE,
    IK_BR_LOOP,     /* backward ip-relative loop branch */
    IK_BR_COND,     /* forward ip-relative conditional branch */
    IK_BR_JUMP,     /* unconditional ip-relative branch within the function */
    IK_BR_CALL,     /* ip-relative call */
    IK_BR_ICALL,    /* indirect call through a function pointer */
    IK_BR_RET,      /* return */
    IK_BR_TAIL,     /* ip-relative jump to the start of another function */
    IK_BR_RESCHED,  /* call schedule() if a reschedule is pending */
    IK_BR_DISPATCH, /* indirect call of the system-call handler */
    IK_SYSCALL,     /* break 0x100000 / int 0x80: an interruption, does not retire */
    IK_RUM,         /* rum psr.up: PSR.up <- 0 */
    IK_SUM,         /* sum psr.up: PSR.up <- 1 */
    IK_RSE_FILL,    /* loadrs: register-stack-engine fill */
    IK_RFI,         /* return from interruption */
    IK_SCHED,       /* the context-switch point of schedule() */
    IK_HALT,        /* PAL_HALT_LIGHT: the idle loop stops the processor */
};

enum mempat { MP_NONE, MP_STACK, MP_STREAM, MP_RANDOM, MP_KSTACK, MP_KDATA };
enum style { ST_INT, ST_FP, ST_KERNEL };
enum owner { OWN_PROC, OWN_LIB, OWN_KERNEL };

typedef struct insn {
    uint64_t ip, enc;
    uint8_t kind, unit, slot, pat;
    uint8_t loop;       /* IK_BR_LOOP: loop index within the function */
    uint8_t predicated; /* has a qualifying predicate, so it may be squashed */
    uint16_t bias;      /* IK_BR_COND: taken probability, per mille */
    int32_t target;     /* position (loop/cond/jump) or function id (call/icall/tail) */
    int32_t target2;    /* IK_BR_ICALL: the other callee */
    uint32_t off;       /* data offset in the region */
    uint32_t stride;    /* MP_STREAM stride */
    /* a watched variable near a hot data edge (hot_data = 1 + edge index, 0 = none):
     * at edge + hot_off, or, with hot_stride, an array walked across the edge */
    uint16_t hot_data;
    int8_t hot_off;
    uint8_t hot_stride;
    /* dynamic state */
    uint32_t cursor, hot_cursor;
    int32_t last_callee;
} insn;

typedef struct func {
    char name[48];
    uint64_t start, end; /* end exclusive */
    insn *code;
    uint32_t n, cap;
    uint8_t ia32, owner;
    int proc;
    uint8_t nloops;
    uint16_t trips[MAX_LOOPS];
} func;

typedef struct frame {
    int32_t fn;
    uint32_t pos;
    int32_t loop_left[MAX_LOOPS]; /* -1: loop not active */
} frame;

typedef struct ctx {
    frame fr[MAX_DEPTH];
    int depth;
} ctx;

typedef struct task {
    uint16_t pid;
    uint8_t ia32, cpl, up;
    ctx user;           /* user code; for the idle task the idle loop */
    uint64_t heap, heap_size, stack_top, kstack;
} task;

enum entry_kind { ENTRY_NONE, ENTRY_SYSCALL, ENTRY_EXTERNAL };

typedef struct syscall_desc {
    int fn;
    unsigned weight;
    int can_block;
} syscall_desc;

/* Slots of a cycle by kind; the per-cycle limits on them (ita_gen_limits). */
typedef struct counts {
    unsigned load, store, fp, br, l1d, l2miss, l2ref;
} counts;

typedef struct ita_gen {
    pmu_gen_opts o;
    pmu_rng r;
    uint64_t produced;
    counts lim; /* ita_gen_limits(), worked out once */

    func *fn;
    int nfn, capfn;

    task tasks[MAX_PROCS + 1]; /* [0] is the idle task */
    int ntasks;
    int cur;
    int in_kernel;
    ctx kctx;

    /* CPU state */
    uint8_t psr_up, ipsr_up;
    uint64_t stall, halt_left, lowpower_left, recirc_left, timer_left;
    uint8_t halt_power;
    int pending_entry, pending_return;
    int need_resched, blocked;
    int dispatch_fn;

    /* kernel */
    int k_ivt_break, k_ivt_ext, k_leave, k_schedule, k_idle, k_timer;
    syscall_desc sys[8];
    int nsys;
    uint64_t kdata;

    /* building ran out of memory: creation fails instead of crashing */
    int oom;
    insn scratch;

    /* random mode: current sticky values */
    uint8_t rcpl, ris, rpower;
    uint16_t rpid;

    /* function list order: function indices sorted by start address */
    int *by_addr;

    /* hot edges: private copies, and the generator every hot decision draws from */
    pmu_rng hr;
    /* the fetches, ALAT misses and general events (ita_gen_extra.c): a state of its own, so
     * they never shift the main sequence */
    pmu_rng xr;
    int xev_ids[8]; /* workload mode: the general events it produces */
    unsigned nxev_ids;
    /* latency bounds and threshold counts (ita_gen_extra.c): a state of their own, so a
     * stream with them is the stream without them with some latencies and counts replaced */
    pmu_rng vr;
    pmu_gen_hot hot;
    uint64_t *hot_mem;      /* one allocation behind the arrays of `hot` */
    uint16_t *hot_vals;     /* the same for the latencies and counts */
    uint8_t *hot_units;     /* per opcode pattern: units its instruction classes use */
} ita_gen;

/* ---- per-cycle limits (maxincr of the counting events), ita_gen.c ------------------ */
counts ita_gen_limits(void);

/* A retired slot's share of the counts that the limits bound. */
static inline void ita_gen_count_slot(counts *n, const ita_slot *s)
{
    n->load += ITA_SLOT_GET(s, LOAD) != 0;
    n->store += ITA_SLOT_GET(s, STORE) != 0;
    n->fp += ITA_SLOT_GET(s, FP) != 0;
    n->br += ITA_SLOT_GET(s, BR_TYPE) != 0;
    n->l1d += ITA_SLOT_GET(s, LOAD) && ITA_SLOT_GET(s, L1D_MISS);
    n->l2miss += ITA_SLOT_GET(s, L2_MISS) != 0;
    n->l2ref += ITA_SLOT_GET(s, L2_REF) != 0;
}

#define FLAG(name) ((uint16_t)ITA_SF_##name##_MASK)
#define FIELD(name, v) ((uint16_t)(((unsigned)(v) << ITA_SF_##name##_LSB) & ITA_SF_##name##_MASK))

/* Hot edges: the share of random-mode slots aimed at an edge (per mille, for each of
 * code, data and opcode), the bytes a workload array walks across a data edge, and the
 * sizes the address-range checks care about. */
#define HOT_PERMILLE 333
#define HOT_WALK 32u
#define BUNDLE 16u
#define PAGE 0x1000u
/* IBR and DBR masks cover address bits below these; the bits above are always compared */
#define IBR_MASKED_BITS ((unsigned)ITA_F_IBR_MASK_MASK_WIDTH)
#define DBR_MASKED_BITS ((unsigned)ITA_F_DBR_MASK_MASK_WIDTH)

/* ---- the program builder, ita_gen_build.c ----------------------------------------------- */
/* Builds the library, the kernel and the processes; -1 when out of memory. */
int ita_gen_build_workload(ita_gen *g);
/* Hot data edges: marks some loads and stores to access next to an edge. */
void ita_gen_mark_hot_data(ita_gen *g);
void ita_gen_frame_enter(frame *fr, int fn);
void ita_gen_ctx_start(ctx *x, int fn);

/* ---- instruction encodings, ita_gen_enc.c ------------------------------------------------ */
/* The encoding of an instruction of kind `kind` on `unit` in a function of `style`, with
 * predicate qp (0 none): the exact encoding of its class, operands drawn from r. */
uint64_t ita_gen_encode(pmu_rng *r, int kind, int unit, int style, unsigned qp);
/* Sets the displacement of every ip-relative branch and call, once every function has
 * its address. */
void ita_gen_fix_displacements(ita_gen *g);
/* The units (1 << enum ita_unit) of the classes an opcode pattern can match; all four
 * when none can. */
unsigned ita_gen_pattern_units(uint64_t match, uint64_t care);

/* ---- the two modes --------------------------------------------------------------------- */
void ita_gen_workload_next(ita_gen *g, ita_cycle *c); /* ita_gen_run.c */
void ita_gen_random_next(ita_gen *g, ita_cycle *c);   /* ita_gen_random.c */
/* Adds the I-EAR fetch, ALAT misses and general events to a record of either mode. */
void ita_gen_extras_init(ita_gen *g);                  /* ita_gen_extra.c */
void ita_gen_extras(ita_gen *g, ita_cycle *c);
/* Aims latencies at the hot latency bounds and general-event counts at the hot counts. */
void ita_gen_hot_values(ita_gen *g, ita_cycle *c);      /* ita_gen_extra.c */

#endif
