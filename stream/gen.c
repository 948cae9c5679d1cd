/*
 * gen.c - the seeded stream generator (pmu_gen_*), docs/stream-format.md
 * "Generator".
 *
 * WORKLOAD mode interprets a synthetic machine: each process owns a program of
 * functions (IA-64 bundles, or IA-32 byte-addressed code), the library and the
 * kernel are shared, and a small scheduler moves between them through
 * interruptions, so addresses, branch targets and encodings are consistent
 * from one visit of a loop to the next.  RANDOM mode draws every field at
 * random within validity.
 *
 * Everything is integer arithmetic on one xoshiro256** state seeded by
 * splitmix64, so a seed gives the same stream on every machine.
 *
 * Hot edges (pmu_gen_hot) draw from a second state of their own, so a stream with
 * edges is the stream without them with some ips, data addresses, encodings and
 * units replaced, and a stream without them is exactly what older builds made.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

/* ---- PRNG -------------------------------------------------------------------- */
typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias. */
static uint64_t rng_below(rng *r, uint64_t n)
{
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

static uint64_t rng_range(rng *r, uint64_t lo, uint64_t hi) { return lo + rng_below(r, hi - lo + 1); }
/* Probabilities are integers: per mille and per million. */
static int chance(rng *r, unsigned permille) { return rng_below(r, 1000) < permille; }
static int chance_ppm(rng *r, unsigned ppm) { return rng_below(r, 1000000) < ppm; }

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

struct pmu_gen {
    pmu_gen_opts o;
    rng r;
    uint64_t produced;

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

    /* building ran out of memory: pmu_gen_create fails instead of crashing */
    int oom;
    insn scratch;

    /* random mode: current sticky values */
    uint8_t rcpl, ris, rpower;
    uint16_t rpid;

    /* pmu_gen_func order: function indices sorted by start address */
    int *by_addr;

    /* hot edges: private copies, and the PRNG every hot decision draws from */
    int exact_enc;          /* the workload uses the exact encodings (always, since issue 3) */
    rng hr;
    pmu_gen_hot hot;
    uint64_t *hot_mem;      /* one allocation behind the arrays of `hot` */
    uint8_t *hot_units;     /* per opcode pattern: units its instruction classes use */
};

/* ---- per-cycle limits (maxincr of the counting events) --------------------------- */
typedef struct counts {
    unsigned load, store, fp, br, l1d, l2miss, l2ref;
} counts;

static counts limits(void)
{
    counts l;
    l.load = pmu_event_table[PMU_EV_LOADS_RETIRED].maxincr;
    l.store = pmu_event_table[PMU_EV_STORES_RETIRED].maxincr;
    l.fp = pmu_event_table[PMU_EV_FP_OPS_RETIRED].maxincr;
    l.br = pmu_event_table[PMU_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED].maxincr;
    l.l1d = pmu_event_table[PMU_EV_L1D_READ_MISSES_ALL].maxincr;
    l.l2miss = pmu_event_table[PMU_EV_L2_MISSES].maxincr;
    l.l2ref = pmu_event_table[PMU_EV_L2_REFERENCES].maxincr;
    return l;
}

/* Hot edges: the share of random-mode slots aimed at an edge (per mille, for each of
 * code, data and opcode), the bytes a workload array walks across a data edge, and the
 * sizes the address-range checks care about. */
#define HOT_PERMILLE 333
#define HOT_WALK 32u
#define BUNDLE 16u
#define PAGE 0x1000u
/* IBR and DBR masks cover address bits below these; the bits above are always compared */
#define IBR_MASKED_BITS ((unsigned)PMU_F_IBR_MASK_MASK_WIDTH)
#define DBR_MASKED_BITS ((unsigned)PMU_F_DBR_MASK_MASK_WIDTH)

#define FLAG(name) ((uint16_t)PMU_SF_##name##_MASK)
#define FIELD(name, v) ((uint16_t)(((unsigned)(v) << PMU_SF_##name##_LSB) & PMU_SF_##name##_MASK))

static void count_slot(counts *n, const pmu_slot *s)
{
    n->load += PMU_SLOT_GET(s, LOAD) != 0;
    n->store += PMU_SLOT_GET(s, STORE) != 0;
    n->fp += PMU_SLOT_GET(s, FP) != 0;
    n->br += PMU_SLOT_GET(s, BR_TYPE) != 0;
    n->l1d += PMU_SLOT_GET(s, LOAD) && PMU_SLOT_GET(s, L1D_MISS);
    n->l2miss += PMU_SLOT_GET(s, L2_MISS) != 0;
    n->l2ref += PMU_SLOT_GET(s, L2_REF) != 0;
}

/* Removes miss outcomes (the access becomes a hit) until the slot fits the limits. */
static void fit_misses(pmu_slot *s, const counts *n, const counts *lim)
{
    if (PMU_SLOT_GET(s, LOAD) && PMU_SLOT_GET(s, L1D_MISS) && n->l1d >= lim->l1d) {
        s->flags &= (uint16_t)~(FLAG(L1D_MISS) | FLAG(L2_REF) | FLAG(L2_MISS));
        s->lat = 1;
    }
    if (PMU_SLOT_GET(s, L2_REF) && n->l2ref >= lim->l2ref) {
        s->flags &= (uint16_t)~(FLAG(L1D_MISS) | FLAG(L2_REF) | FLAG(L2_MISS));
        s->lat = PMU_SLOT_GET(s, LOAD) ? 1 : 0;
    }
    if (PMU_SLOT_GET(s, L2_MISS) && n->l2miss >= lim->l2miss) {
        s->flags &= (uint16_t)~FLAG(L2_MISS);
        s->lat = PMU_SLOT_GET(s, LOAD) ? 7 : 0;
    }
}

/* ---- building the programs ---------------------------------------------------------- */
typedef struct builder {
    pmu_gen *g;
    int fid;
    int style;
    int callee_lo, callee_hi; /* own functions this one may call */
    int lib_lo, lib_hi;       /* library functions it may call */
    uint64_t ia32_ip;
} builder;

static func *func_of(builder *b) { return &b->g->fn[b->fid]; }

/* g->fn is allocated once for every function the model has (build_workload), so
 * pointers into it stay valid while building. */
static int new_func(pmu_gen *g, const char *owner, const char *name, int own, int proc, int ia32)
{
    if (g->nfn == g->capfn) {
        g->oom = 1; /* cannot happen with the capacity build_workload reserves */
        return g->nfn - 1;
    }
    func *f = &g->fn[g->nfn];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s:%s", owner, name);
    f->owner = (uint8_t)own;
    f->proc = proc;
    f->ia32 = (uint8_t)ia32;
    return g->nfn++;
}

static unsigned ia32_len(rng *r, int kind)
{
    switch (kind) {
    case IK_NOP: return 1;
    case IK_BR_RET: return 1;
    case IK_SYSCALL: return 2;
    case IK_BR_CALL: return 5;
    case IK_BR_ICALL: return 2;
    case IK_LOAD: case IK_STORE: case IK_FLOAD: case IK_FSTORE: return (unsigned)rng_range(r, 2, 6);
    case IK_BR_LOOP: case IK_BR_COND: case IK_BR_JUMP: return chance(r, 700) ? 2 : 6;
    default: return (unsigned)rng_range(r, 2, 4);
    }
}

/* A plausible 41-bit IA-64 encoding: major opcode in bits 40:37, qp in bits 5:0. */
static uint64_t make_enc(rng *r, int kind, int unit, unsigned qp)
{
    unsigned major;
    int x = -1; /* an opcode extension in bits 32:27 when fixed */
    switch (kind) {
    case IK_NOP: return unit == PMU_UNIT_B ? (2ull << 37) : (1ull << 27);
    case IK_SYSCALL: return 1ull << 36; /* break 0x100000 */
    case IK_LOAD: case IK_STORE: major = 4; break;
    case IK_FLOAD: case IK_FSTORE: major = 6; break;
    case IK_FPOP: major = (unsigned)rng_range(r, 8, 0xb); break;
    case IK_BR_CALL: major = 5; break;
    case IK_BR_ICALL: case IK_BR_DISPATCH: major = 1; break;
    case IK_BR_RET: major = 0; x = 0x21; break;
    case IK_RFI: major = 0; x = 0x08; break;
    case IK_RUM: major = 0; x = 0x05; break;
    case IK_SUM: major = 0; x = 0x04; break;
    case IK_RSE_FILL: major = 0; x = 0x0a; break;
    case IK_BR_LOOP: case IK_BR_COND: case IK_BR_JUMP: case IK_BR_TAIL: case IK_BR_RESCHED:
        major = 4;
        break;
    default: major = unit == PMU_UNIT_I ? (unsigned)rng_range(r, 5, 8) : 8; break;
    }
    uint64_t v = (uint64_t)major << 37 | (rng_next(r) & 0x1fffffffc0ull) | qp;
    if (x >= 0)
        v = (v & ~(0x3full << 27)) | (uint64_t)x << 27;
    return v;
}

/* ---- exact encodings (opts.hot given) -------------------------------------------------
 * Each instruction class fixes the bits that identify it in its IA-64 format (Intel
 * IA-64 Architecture Software Developer's Manual vol. 3, instruction formats); the
 * other bits are operand fields, taken from the legacy encoding's random bits so that
 * building the program draws exactly what it draws without `hot`.  docs/stream-format.md
 * ("Encodings") lists the same table for people who write opcode patterns. */
#define ENC_BITS(hi, lo) ((((uint64_t)2 << ((hi) - (lo))) - 1) << (lo))
#define ENC_ALL ENC_BITS(40, 0)
#define ENC_MAJOR_LSB 37              /* major opcode, bits 40:37, every format */
#define ENC_MAJOR ENC_BITS(40, 37)
#define ENC_QP ENC_BITS(5, 0)         /* qualifying predicate */
#define ENC_X6_LSB 27                 /* x6 32:27 (B4, B8, I18, M48 x4+x2, F16) */
#define ENC_X6A_LSB 30                /* x6 35:30 of the memory formats M1, M4, M6, M9 */
#define ENC_BTYPE_LSB 6               /* btype 8:6 (B1, B4); b1 of a call (B3, B5) */
#define ENC_SIGN_LSB 36               /* s: sign of an ip-relative displacement */
#define ENC_IMM20B_LSB 13             /* imm20b 32:13: ip-relative displacement / 16 */
#define ENC_IMM20B ENC_BITS(32, 13)
#define ENC_DISP (ENC_IMM20B | (1ull << ENC_SIGN_LSB))
#define ENC_A1_X4_LSB 29              /* A1 x4 32:29: 0 add, 1 sub, 3 logical */
#define ENC_WINDOW (ENC_BITS(40, 27) | ENC_BITS(12, 0)) /* what PMC8/PMC9 compare */
#define UNIT_BIT(u) (1u << (u))
#define UNITS_ALL 0xfu

enum enc_class {
    EC_NOP_MIF, EC_NOP_B, EC_BREAK_I, EC_LD, EC_ST, EC_LDF, EC_STF, EC_LOADRS, EC_RUM, EC_SUM,
    EC_FMA, EC_ALU, EC_I_SHIFT, EC_I_MM, EC_BR_COND, EC_BR, EC_BR_CLOOP, EC_BR_CTOP, EC_BR_CALL,
    EC_BR_CALL_IND, EC_BR_RET, EC_RFI, EC_NCLASSES
};

static const struct enc_class_desc {
    const char *name;
    unsigned units; /* UNIT_BIT of each unit the class retires on */
    uint64_t mask;  /* the bits the class fixes */
    uint64_t value; /* their values */
} enc_classes[EC_NCLASSES] = {
    [EC_NOP_MIF] = {"nop.m/nop.i/nop.f", UNIT_BIT(PMU_UNIT_M) | UNIT_BIT(PMU_UNIT_I) | UNIT_BIT(PMU_UNIT_F),
                    ENC_ALL, 1ull << ENC_X6_LSB},
    [EC_NOP_B] = {"nop.b", UNIT_BIT(PMU_UNIT_B), ENC_ALL, 2ull << ENC_MAJOR_LSB},
    [EC_BREAK_I] = {"break.i 0x100000", UNIT_BIT(PMU_UNIT_I), ENC_ALL, 1ull << ENC_SIGN_LSB},
    [EC_LD] = {"ld1..ld8", UNIT_BIT(PMU_UNIT_M), ENC_BITS(40, 32) | ENC_BITS(29, 27),
               4ull << ENC_MAJOR_LSB},
    [EC_ST] = {"st1..st8", UNIT_BIT(PMU_UNIT_M), ENC_BITS(40, 32) | ENC_BITS(29, 27) | ENC_BITS(12, 6),
               4ull << ENC_MAJOR_LSB | 0x30ull << ENC_X6A_LSB},
    [EC_LDF] = {"ldfe/ldf8/ldfs/ldfd", UNIT_BIT(PMU_UNIT_M), ENC_BITS(40, 32) | ENC_BITS(29, 27),
                6ull << ENC_MAJOR_LSB},
    [EC_STF] = {"stfe/stf8/stfs/stfd", UNIT_BIT(PMU_UNIT_M),
                ENC_BITS(40, 32) | ENC_BITS(29, 27) | ENC_BITS(12, 6),
                6ull << ENC_MAJOR_LSB | 0x30ull << ENC_X6A_LSB},
    [EC_LOADRS] = {"loadrs", UNIT_BIT(PMU_UNIT_M), ENC_ALL, 0x0aull << ENC_X6_LSB},
    /* the immediate is the PSR.up mask, 1 << 2: imm21a bit 2 = instruction bit 8 */
    [EC_RUM] = {"rum psr.up", UNIT_BIT(PMU_UNIT_M), ENC_ALL, 0x05ull << ENC_X6_LSB | 1ull << 8},
    [EC_SUM] = {"sum psr.up", UNIT_BIT(PMU_UNIT_M), ENC_ALL, 0x04ull << ENC_X6_LSB | 1ull << 8},
    [EC_FMA] = {"fma/fma.d/fms/fms.d", UNIT_BIT(PMU_UNIT_F), ENC_BITS(40, 39), 8ull << ENC_MAJOR_LSB},
    [EC_ALU] = {"add/sub/and/or (A1)", UNIT_BIT(PMU_UNIT_M) | UNIT_BIT(PMU_UNIT_I), ENC_BITS(40, 31),
                8ull << ENC_MAJOR_LSB},
    [EC_I_SHIFT] = {"extr/dep (major 5)", UNIT_BIT(PMU_UNIT_I), ENC_MAJOR, 5ull << ENC_MAJOR_LSB},
    [EC_I_MM] = {"multimedia (major 7)", UNIT_BIT(PMU_UNIT_I), ENC_MAJOR, 7ull << ENC_MAJOR_LSB},
    [EC_BR_COND] = {"br.cond", UNIT_BIT(PMU_UNIT_B), ENC_MAJOR | 1ull << 35 | ENC_BITS(12, 6),
                    4ull << ENC_MAJOR_LSB},
    [EC_BR] = {"br (unconditional)", UNIT_BIT(PMU_UNIT_B),
               ENC_MAJOR | 1ull << 35 | ENC_BITS(12, 6) | ENC_QP, 4ull << ENC_MAJOR_LSB},
    [EC_BR_CLOOP] = {"br.cloop", UNIT_BIT(PMU_UNIT_B), ENC_MAJOR | 1ull << 35 | ENC_BITS(12, 6) | ENC_QP,
                     4ull << ENC_MAJOR_LSB | 5ull << ENC_BTYPE_LSB},
    [EC_BR_CTOP] = {"br.ctop", UNIT_BIT(PMU_UNIT_B), ENC_MAJOR | 1ull << 35 | ENC_BITS(12, 6) | ENC_QP,
                    4ull << ENC_MAJOR_LSB | 7ull << ENC_BTYPE_LSB},
    [EC_BR_CALL] = {"br.call b0=target", UNIT_BIT(PMU_UNIT_B), ENC_MAJOR | 1ull << 35 | ENC_BITS(12, 6),
                    5ull << ENC_MAJOR_LSB},
    [EC_BR_CALL_IND] = {"br.call b0=b2", UNIT_BIT(PMU_UNIT_B),
                        ENC_BITS(40, 35) | ENC_BITS(31, 16) | ENC_BITS(12, 6) | ENC_QP,
                        1ull << ENC_MAJOR_LSB},
    [EC_BR_RET] = {"br.ret b0", UNIT_BIT(PMU_UNIT_B), ENC_BITS(40, 35) | ENC_BITS(32, 6) | ENC_QP,
                   0x21ull << ENC_X6_LSB | 4ull << ENC_BTYPE_LSB},
    [EC_RFI] = {"rfi", UNIT_BIT(PMU_UNIT_B), ENC_ALL, 0x08ull << ENC_X6_LSB},
};

/* The class of an instruction of the workload. `legacy` is make_enc's word (its major
 * opcode tells which I-unit operation an ALU filler is). */
static int enc_class_of(int kind, int unit, int style, uint64_t legacy)
{
    switch (kind) {
    case IK_NOP: return unit == PMU_UNIT_B ? EC_NOP_B : EC_NOP_MIF;
    case IK_SYSCALL: return EC_BREAK_I;
    case IK_LOAD: return EC_LD;
    case IK_STORE: return EC_ST;
    case IK_FLOAD: return EC_LDF;
    case IK_FSTORE: return EC_STF;
    case IK_RSE_FILL: return EC_LOADRS;
    case IK_RUM: return EC_RUM;
    case IK_SUM: return EC_SUM;
    case IK_RFI: return EC_RFI;
    case IK_FPOP: return EC_FMA;
    /* counted loops use ar.lc (br.cloop); software-pipelined FP loops br.ctop */
    case IK_BR_LOOP: return style == ST_FP ? EC_BR_CTOP : EC_BR_CLOOP;
    case IK_BR_COND: return EC_BR_COND;
    case IK_BR_JUMP: case IK_BR_TAIL: return EC_BR;
    case IK_BR_CALL: case IK_BR_RESCHED: return EC_BR_CALL;
    case IK_BR_ICALL: case IK_BR_DISPATCH: return EC_BR_CALL_IND;
    case IK_BR_RET: return EC_BR_RET;
    default: /* ALU fillers, and the halt and context-switch points */
        if (unit == PMU_UNIT_I) {
            unsigned major = (unsigned)(legacy >> ENC_MAJOR_LSB);
            return major == 5 ? EC_I_SHIFT : major == 7 ? EC_I_MM : EC_ALU;
        }
        return EC_ALU;
    }
}

/* The exact encoding of class `cls`: its fixed bits, the rest from `bits`, and the
 * predicate qp where the class has one (a conditional branch always has one). */
static uint64_t exact_encoding(int kind, int cls, uint64_t bits, unsigned qp)
{
    const struct enc_class_desc *d = &enc_classes[cls];
    uint64_t v = (bits & ENC_ALL & ~d->mask & ~ENC_QP) | d->value;
    if (kind == IK_BR_COND || kind == IK_BR_RESCHED) {
        if (!qp)
            qp = 1 + (unsigned)((bits >> ENC_IMM20B_LSB) % 63);
    } else if (kind == IK_BR_CALL) {
        qp = 0;
    }
    if (!(d->mask & ENC_QP))
        v |= qp & ENC_QP;
    if (cls == EC_ALU) {
        static const unsigned x4[4] = {0, 1, 3, 3}; /* add, sub, and/andcm/or/xor */
        v = (v & ~ENC_BITS(32, 29)) | (uint64_t)x4[(bits >> ENC_A1_X4_LSB) & 3] << ENC_A1_X4_LSB;
    }
    return v;
}

/* make_enc, then the exact encoding when `hot` was given; the draws are the same. */
static uint64_t encode(builder *b, int kind, int unit, unsigned qp)
{
    uint64_t v = make_enc(&b->g->r, kind, unit, qp);
    if (b->g->exact_enc)
        v = exact_encoding(kind, enc_class_of(kind, unit, b->style, v), v, qp);
    return v;
}

/* Sets the displacement fields of an ip-relative branch or call (s:imm20b, the low 21
 * bits of (target - ip) / 16, as the linker would after relocation). */
static uint64_t with_displacement(uint64_t enc, uint64_t ip, uint64_t target)
{
    uint64_t disp = (target - ip) >> 4; /* bundles, modulo 2^60: the low 21 bits are exact */
    return (enc & ~ENC_DISP) | ((disp << ENC_IMM20B_LSB) & ENC_IMM20B) |
           (((disp >> 20) & 1) << ENC_SIGN_LSB);
}

static insn *add_insn(builder *b, int kind, int unit)
{
    func *f = func_of(b);
    if (f->n == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 96;
        insn *grown = realloc(f->code, cap * sizeof *grown);
        if (!grown) {
            b->g->oom = 1;
            return &b->g->scratch;
        }
        f->code = grown;
        f->cap = cap;
    }
    insn *x = &f->code[f->n];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->unit = (uint8_t)unit;
    x->target = x->target2 = x->last_callee = -1;
    if (f->ia32) {
        x->ip = b->ia32_ip;
        b->ia32_ip += ia32_len(&b->g->r, kind);
    } else {
        x->ip = f->start + (uint64_t)(f->n / 3) * 16;
        x->slot = (uint8_t)(f->n % 3);
    }
    f->n++;
    return x;
}

/* Index of an instruction and back: the array may move while a function grows. */
static uint32_t index_of(builder *b, const insn *x)
{
    return x == &b->g->scratch ? UINT32_MAX : (uint32_t)(x - func_of(b)->code);
}

static insn *insn_at(builder *b, uint32_t at)
{
    return at < func_of(b)->n ? &func_of(b)->code[at] : &b->g->scratch;
}

static void set_mem(builder *b, insn *x, int in_loop)
{
    rng *r = &b->g->r;
    if (b->style == ST_KERNEL) {
        x->pat = (x->kind == IK_STORE || chance(r, 400)) ? MP_KSTACK : MP_KDATA;
        x->off = (uint32_t)rng_below(r, 0x800) * 8;
        if (x->pat == MP_KDATA && in_loop) {
            x->stride = 8;
            x->pat = MP_STREAM;
        }
        return;
    }
    unsigned p = (unsigned)rng_below(r, 100);
    if (in_loop)
        x->pat = p < 60 ? MP_STREAM : p < 80 ? MP_RANDOM : MP_STACK;
    else
        x->pat = p < 60 ? MP_STACK : MP_RANDOM;
    x->off = (uint32_t)rng_below(r, 0x40) * 8;
    if (x->pat == MP_STREAM) {
        static const uint32_t strides[] = {4, 8, 8, 8, 16, 32, 64};
        x->stride = strides[rng_below(r, 7)];
        x->off = (uint32_t)rng_below(r, 0x100) * 0x1000;
    }
}

/* A filler instruction for a unit, by style. */
static void fill(builder *b, int unit, int in_loop)
{
    rng *r = &b->g->r;
    int kind = IK_NOP;
    unsigned p = (unsigned)rng_below(r, 100);
    int fp = b->style == ST_FP;
    switch (unit) {
    case PMU_UNIT_M:
        if (b->style == ST_KERNEL)
            kind = p < 30 ? IK_LOAD : p < 50 ? IK_STORE : p < 85 ? IK_ALU : IK_NOP;
        else if (fp)
            kind = p < 35 ? IK_FLOAD : p < 50 ? IK_FSTORE : p < 60 ? IK_LOAD : p < 85 ? IK_ALU : IK_NOP;
        else
            kind = p < 30 ? IK_LOAD : p < 42 ? IK_STORE : p < 82 ? IK_ALU : IK_NOP;
        break;
    case PMU_UNIT_I: kind = p < 82 ? IK_ALU : IK_NOP; break;
    case PMU_UNIT_F:
        kind = fp ? (p < 85 ? IK_FPOP : IK_NOP) : (p < 12 && b->style != ST_KERNEL ? IK_FPOP : IK_NOP);
        break;
    default: kind = IK_NOP; break;
    }
    insn *x = add_insn(b, kind, unit);
    if (kind != IK_NOP && !func_of(b)->ia32 && chance(r, 120))
        x->predicated = 1; /* IA-32 has no predication */
    if (kind == IK_LOAD || kind == IK_STORE || kind == IK_FLOAD || kind == IK_FSTORE)
        set_mem(b, x, in_loop);
    if (!func_of(b)->ia32)
        x->enc = encode(b, kind, unit, x->predicated ? (unsigned)rng_range(r, 1, 63) : 0);
}

static int unit_of(char t)
{
    return t == 'M' ? PMU_UNIT_M : t == 'I' ? PMU_UNIT_I : t == 'F' ? PMU_UNIT_F : PMU_UNIT_B;
}

/* One IA-64 bundle; slot `special` (or -1) gets an instruction of kind `kind`, the
 * others are filler.  Returns the special instruction. */
static insn *bundle(builder *b, const char *tmpl, int special, int kind, int in_loop)
{
    insn *sp = NULL;
    for (int s = 0; s < 3; s++) {
        int unit = unit_of(tmpl[s]);
        if (s == special) {
            sp = add_insn(b, kind, unit);
            sp->enc = encode(b, kind, unit,
                             kind >= IK_BR_LOOP && kind <= IK_BR_RESCHED
                                 ? (unsigned)rng_range(&b->g->r, 0, 63)
                                 : 0);
        } else {
            fill(b, unit, in_loop);
        }
    }
    if (b->g->oom)
        return &b->g->scratch;
    /* `sp` may have moved with a realloc in fill(); find it again by position */
    if (special >= 0)
        sp = &func_of(b)->code[func_of(b)->n - 3 + (unsigned)special];
    return sp;
}

static const char *const straight_tmpl_int[] = {"MII", "MMI", "MFI", "MIB", "MMB", "MII", "MMI", "MMI"};
static const char *const straight_tmpl_fp[] = {"MFI", "MMF", "MFB", "MMF", "MFI", "MMI"};
static const char *const branch_tmpl[] = {"MIB", "MMB", "MFB"};

static void straight(builder *b, unsigned nb, int in_loop)
{
    rng *r = &b->g->r;
    for (unsigned i = 0; i < nb; i++) {
        if (func_of(b)->ia32) {
            fill(b, chance(r, 550) ? PMU_UNIT_M : chance(r, 800) ? PMU_UNIT_I
                    : b->style == ST_FP ? PMU_UNIT_F : PMU_UNIT_I, in_loop);
            continue;
        }
        const char *t = b->style == ST_FP ? straight_tmpl_fp[rng_below(r, 6)]
                                          : straight_tmpl_int[rng_below(r, 8)];
        if (b->style == ST_KERNEL && chance(r, 30))
            t = "BBB";
        bundle(b, t, -1, 0, in_loop);
    }
}

/* The instruction that carries a control transfer: an IA-64 bundle ending with it in
 * slot 2, or one IA-32 instruction. */
static insn *ctl_insn(builder *b, int kind, int unit_for_ia32, int in_loop)
{
    if (func_of(b)->ia32)
        return add_insn(b, kind, unit_for_ia32);
    return bundle(b, branch_tmpl[rng_below(&b->g->r, 3)], 2, kind, in_loop);
}

static uint16_t pick_trips(rng *r, int has_inner, int style)
{
    if (style == ST_KERNEL) /* kernel paths are short */
        return (uint16_t)rng_range(r, 2, 12);
    if (has_inner)
        return (uint16_t)rng_range(r, 2, 6);
    return (uint16_t)(chance(r, 500) ? rng_range(r, 4, 16) : rng_range(r, 16, 120));
}

/* Emits a body of items; returns 1 when it contains a call or a loop. */
static int body(builder *b, int level, unsigned items, int in_loop)
{
    rng *r = &b->g->r;
    int heavy = 0;
    for (unsigned i = 0; i < items; i++) {
        unsigned p = (unsigned)rng_below(r, 100);
        func *f = func_of(b);
        int can_call = b->callee_hi > b->callee_lo || b->lib_hi > b->lib_lo;
        if (p < 30 && level < 2 && f->nloops < MAX_LOOPS) {
            /* loop: head, body, backward branch */
            uint8_t id = f->nloops++;
            uint32_t head = f->n;
            straight(b, (unsigned)rng_range(r, 1, 2), 1);
            int inner = body(b, level + 1, (unsigned)rng_range(r, 0, 2), 1);
            insn *br = ctl_insn(b, IK_BR_LOOP, PMU_UNIT_B, 1);
            br->target = (int32_t)head;
            br->loop = id;
            func_of(b)->trips[id] = pick_trips(r, inner, b->style);
            heavy = 1;
        } else if (p < 50) {
            /* if: forward branch over 1..3 bundles */
            insn *br = ctl_insn(b, IK_BR_COND, PMU_UNIT_B, in_loop);
            uint32_t at = index_of(b, br);
            static const uint16_t biases[] = {20, 80, 500, 900, 970, 300, 995};
            insn_at(b, at)->bias = biases[rng_below(r, 7)];
            straight(b, (unsigned)rng_range(r, 1, 3), in_loop);
            insn_at(b, at)->target = (int32_t)func_of(b)->n;
        } else if (p < 68 && can_call) {
            int lib = b->lib_hi > b->lib_lo && (b->callee_hi == b->callee_lo || chance(r, 350));
            int lo = lib ? b->lib_lo : b->callee_lo, hi = lib ? b->lib_hi : b->callee_hi;
            int callee = lo + (int)rng_below(r, (uint64_t)(hi - lo));
            straight(b, 1, in_loop);
            if (hi - lo >= 2 && chance(r, 250)) {
                insn *br = ctl_insn(b, IK_BR_ICALL, PMU_UNIT_B, in_loop);
                br->target = callee;
                br->target2 = lo + (int)rng_below(r, (uint64_t)(hi - lo));
            } else {
                ctl_insn(b, IK_BR_CALL, PMU_UNIT_B, in_loop)->target = callee;
            }
            heavy = 1;
        } else {
            straight(b, (unsigned)rng_range(r, 1, 4), in_loop);
        }
    }
    return heavy;
}

static void begin_func(builder *b, uint64_t *next_addr)
{
    func *f = func_of(b);
    f->start = *next_addr;
    b->ia32_ip = f->start;
}

static void end_func(builder *b, uint64_t *next_addr)
{
    func *f = func_of(b);
    if (f->ia32)
        f->end = b->ia32_ip;
    else
        f->end = f->start + (uint64_t)(f->n / 3) * 16;
    /* functions are 32-byte aligned with a small gap, as a linker lays them out */
    *next_addr = (f->end + 0x20 + rng_below(&b->g->r, 8) * 0x10 + 0x1f) & ~(uint64_t)0x1f;
}

static void prologue(builder *b)
{
    if (func_of(b)->ia32) {
        straight(b, 2, 0);
        return;
    }
    bundle(b, "MII", -1, 0, 0);
}

static void epilogue(builder *b)
{
    straight(b, 1, 0);
    ctl_insn(b, IK_BR_RET, PMU_UNIT_B, 0);
}

/* A leaf that makes a system call: IA-64 break.i in slot 1 of an MII bundle. */
static void syscall_wrapper(builder *b)
{
    straight(b, 1, 0);
    if (func_of(b)->ia32)
        add_insn(b, IK_SYSCALL, PMU_UNIT_I);
    else
        bundle(b, "MII", 1, IK_SYSCALL, 0);
    straight(b, 1, 0);
    ctl_insn(b, IK_BR_RET, PMU_UNIT_B, 0);
}

/* Library (IA-64, shared by the processes): leaves, three of them system-call stubs. */
static void build_library(pmu_gen *g, int *lo, int *sys_lo, int *sys_hi)
{
    static const struct { const char *name; int style; int loops; } libf[] = {
        {"memcpy", ST_INT, 1}, {"strlen", ST_INT, 1}, {"malloc", ST_INT, 0},
        {"qsort", ST_INT, 2}, {"exp", ST_FP, 0}, {"dgemm_kernel", ST_FP, 2},
    };
    static const char *const stubs[] = {"__read", "__write", "__getpid"};
    uint64_t addr = 0x2000000000100000ull;
    *lo = g->nfn;
    for (unsigned i = 0; i < sizeof libf / sizeof libf[0]; i++) {
        builder b = {g, new_func(g, "libc", libf[i].name, OWN_LIB, -1, 0), libf[i].style, 0, 0, 0, 0, 0};
        begin_func(&b, &addr);
        prologue(&b);
        body(&b, libf[i].loops ? 0 : 2, (unsigned)rng_range(&g->r, 2, 4), 0);
        epilogue(&b);
        end_func(&b, &addr);
    }
    *sys_lo = g->nfn;
    for (unsigned i = 0; i < 3; i++) {
        builder b = {g, new_func(g, "libc", stubs[i], OWN_LIB, -1, 0), ST_INT, 0, 0, 0, 0, 0};
        begin_func(&b, &addr);
        syscall_wrapper(&b);
        end_func(&b, &addr);
    }
    *sys_hi = g->nfn;
}

static void build_kernel(pmu_gen *g)
{
    uint64_t addr = 0xe000000000400000ull;
    builder b = {g, 0, ST_KERNEL, 0, 0, 0, 0, 0};

    /* handlers first so the vectors can name them */
    static const struct { const char *name; unsigned weight; int block; int loops; } sysd[] = {
        {"sys_getpid", 30, 0, 0}, {"sys_read", 25, 1, 1}, {"sys_write", 20, 0, 1},
        {"sys_mmap", 10, 0, 1},   {"sys_futex", 15, 1, 0},
    };
    g->nsys = 0;
    for (unsigned i = 0; i < sizeof sysd / sizeof sysd[0]; i++) {
        b.fid = new_func(g, "kernel", sysd[i].name, OWN_KERNEL, -1, 0);
        begin_func(&b, &addr);
        prologue(&b);
        body(&b, sysd[i].loops ? 1 : 2, (unsigned)rng_range(&g->r, 1, 3), 0);
        epilogue(&b);
        end_func(&b, &addr);
        g->sys[g->nsys].fn = b.fid;
        g->sys[g->nsys].weight = sysd[i].weight;
        g->sys[g->nsys].can_block = sysd[i].block;
        g->nsys++;
    }

    g->k_timer = b.fid = new_func(g, "kernel", "timer_interrupt", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    prologue(&b);
    body(&b, 1, 2, 0);
    epilogue(&b);
    end_func(&b, &addr);

    g->k_schedule = b.fid = new_func(g, "kernel", "schedule", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    prologue(&b);
    body(&b, 1, 2, 0);
    bundle(&b, "MMI", 0, IK_SCHED, 0);
    straight(&b, 1, 0);
    epilogue(&b);
    end_func(&b, &addr);

    /* exit path: reschedule if asked, restore, loadrs (RSE fills), rfi */
    g->k_leave = b.fid = new_func(g, "kernel", "ia64_leave_kernel", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    bundle(&b, "MIB", 2, IK_BR_RESCHED, 0)->target = g->k_schedule;
    straight(&b, 1, 0);
    insn *fill0 = bundle(&b, "MMI", 0, IK_RSE_FILL, 0);
    fill0->pat = MP_KSTACK;
    insn *fill1 = bundle(&b, "MMI", 1, IK_RSE_FILL, 0);
    fill1->pat = MP_KSTACK;
    fill1->off = 0x100;
    straight(&b, 1, 0);
    bundle(&b, "MIB", 2, IK_RFI, 0);
    end_func(&b, &addr);

    /* the interruption vectors */
    g->k_ivt_break = b.fid = new_func(g, "kernel", "ivt_break", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    straight(&b, 2, 0);
    bundle(&b, "MIB", 2, IK_BR_DISPATCH, 0);
    bundle(&b, "MIB", 2, IK_BR_TAIL, 0)->target = g->k_leave;
    end_func(&b, &addr);

    g->k_ivt_ext = b.fid = new_func(g, "kernel", "ivt_external_interrupt", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    straight(&b, 2, 0);
    bundle(&b, "MIB", 2, IK_BR_CALL, 0)->target = g->k_timer;
    bundle(&b, "MIB", 2, IK_BR_TAIL, 0)->target = g->k_leave;
    end_func(&b, &addr);

    /* the idle loop: check for work, halt, repeat */
    g->k_idle = b.fid = new_func(g, "kernel", "cpu_idle", OWN_KERNEL, -1, 0);
    begin_func(&b, &addr);
    straight(&b, 2, 0);
    bundle(&b, "MMB", 0, IK_HALT, 0);
    bundle(&b, "MIB", 2, IK_BR_JUMP, 0)->target = 0;
    end_func(&b, &addr);
}

/* A process: main (an endless loop), worker functions (callable only by lower-numbered
 * ones, so the call graph has no cycles), a floating-point kernel, system calls through
 * the library (IA-64) or its own int 0x80 wrapper (IA-32), and in some processes a
 * region that switches user monitoring off and on again (rum ... sum). */
static void build_process(pmu_gen *g, int p, int ia32, int lib_lo, int sys_lo, int sys_hi)
{
    rng *r = &g->r;
    char owner[16];
    snprintf(owner, sizeof owner, "pid%u", g->tasks[p + 1].pid);
    uint64_t addr = ia32 ? 0x08048000ull + ((uint64_t)(p / 4) << 24)
                         : 0x4000000000000000ull + ((uint64_t)p << 28);
    int nworkers = (int)rng_range(r, 4, 7);
    int monitor_off = !ia32 && (p == 1 || chance(r, 250)); /* rum/sum are IA-64 */
    int main_id = new_func(g, owner, "main", OWN_PROC, p, ia32);
    int monoff_id = monitor_off ? new_func(g, owner, "untimed_region", OWN_PROC, p, ia32) : -1;
    int workers_lo = g->nfn;
    static const char *const wnames[] = {"parse", "update", "lookup", "hash", "compress", "sort", "scan"};
    for (int i = 0; i < nworkers; i++)
        new_func(g, owner, wnames[i], OWN_PROC, p, ia32);
    int fp_id = new_func(g, owner, ia32 ? "x87_filter" : "fp_solver", OWN_PROC, p, ia32);
    int own_sys = ia32 ? new_func(g, owner, "int80_syscall", OWN_PROC, p, ia32) : -1;
    int workers_hi = g->nfn - (ia32 ? 1 : 0); /* workers + fp kernel */

    int ids_in_order[16], n = 0;
    ids_in_order[n++] = main_id;
    if (monoff_id >= 0)
        ids_in_order[n++] = monoff_id;
    for (int i = workers_lo; i < g->nfn; i++)
        ids_in_order[n++] = i;

    for (int k = 0; k < n; k++) {
        int id = ids_in_order[k];
        builder b = {g, id, id == fp_id ? ST_FP : ST_INT, 0, 0, 0, 0, 0};
        if (!ia32) {
            b.lib_lo = lib_lo;
            b.lib_hi = sys_lo; /* system calls are made from main only */
        }
        begin_func(&b, &addr);
        if (id == main_id) {
            b.callee_lo = workers_lo;
            b.callee_hi = workers_hi;
            prologue(&b);
            uint32_t top = func_of(&b)->n;
            body(&b, 1, (unsigned)rng_range(r, 2, 4), 1);
            /* system calls, each made in some of the iterations */
            for (int s = 0; s < 2; s++) {
                insn *skip = ctl_insn(&b, IK_BR_COND, PMU_UNIT_B, 1);
                uint32_t at = index_of(&b, skip);
                /* IA-32 iterations are short: fewer calls per iteration */
                insn_at(&b, at)->bias = ia32 ? (s ? 950 : 850) : (s ? 700 : 300);
                straight(&b, 1, 1);
                int callee = ia32 ? own_sys : sys_lo + (int)rng_below(r, (uint64_t)(sys_hi - sys_lo));
                ctl_insn(&b, IK_BR_CALL, PMU_UNIT_B, 1)->target = callee;
                insn_at(&b, at)->target = (int32_t)func_of(&b)->n;
            }
            if (monoff_id >= 0) {
                /* p == 1 runs its untimed region every iteration, the others now and then */
                insn *skip = ctl_insn(&b, IK_BR_COND, PMU_UNIT_B, 1);
                uint32_t at = index_of(&b, skip);
                insn_at(&b, at)->bias = p == 1 ? 0 : 800;
                straight(&b, 1, 1);
                ctl_insn(&b, IK_BR_CALL, PMU_UNIT_B, 1)->target = monoff_id;
                insn_at(&b, at)->target = (int32_t)func_of(&b)->n;
            }
            ctl_insn(&b, IK_BR_JUMP, PMU_UNIT_B, 1)->target = (int32_t)top;
        } else if (id == monoff_id) {
            b.callee_lo = workers_lo;
            b.callee_hi = workers_hi;
            /* an I/O phase the application keeps out of its measurements: work and a
             * system call between rum and sum, so interruptions and context switches
             * happen while its PSR.up is 0 */
            bundle(&b, "MII", 0, IK_RUM, 0);
            body(&b, 0, 2, 0);
            straight(&b, 1, 0);
            ctl_insn(&b, IK_BR_CALL, PMU_UNIT_B, 0)->target =
                sys_lo + (int)rng_below(r, (uint64_t)(sys_hi - sys_lo));
            body(&b, 1, 1, 0);
            bundle(&b, "MII", 0, IK_SUM, 0);
            epilogue(&b);
        } else if (id == own_sys) {
            syscall_wrapper(&b);
        } else {
            /* workers call only higher-numbered workers: no recursion */
            b.callee_lo = id + 1;
            b.callee_hi = workers_hi > id + 1 ? workers_hi : id + 1;
            prologue(&b);
            body(&b, 0, (unsigned)rng_range(r, 2, 4), 0);
            epilogue(&b);
        }
        end_func(&b, &addr);
    }
}

static void frame_enter(frame *fr, int fn)
{
    fr->fn = fn;
    fr->pos = 0;
    for (int i = 0; i < MAX_LOOPS; i++)
        fr->loop_left[i] = -1;
}

static void ctx_start(ctx *x, int fn)
{
    x->depth = 1;
    frame_enter(&x->fr[0], fn);
}

static int build_workload(pmu_gen *g)
{
    rng *r = &g->r;
    g->ntasks = (int)g->o.nprocs + 1;
    g->kdata = 0xe000000004000000ull;
    /* pids: idle 0, processes from 1000 up, a few apart as a busy system would have */
    uint16_t pid = 1000;
    for (int t = 1; t < g->ntasks; t++) {
        pid = (uint16_t)(pid + rng_range(r, 1, 9));
        task *k = &g->tasks[t];
        int p = t - 1;
        k->pid = pid;
        k->ia32 = (uint8_t)(p % 4 == 3);
        k->cpl = 3;
        k->up = 1;
        if (k->ia32) {
            k->heap = 0x0a000000ull + ((uint64_t)(p / 4) << 26);
            k->stack_top = 0xbff00000ull - ((uint64_t)(p / 4) << 24);
        } else {
            k->heap = 0x6000000000100000ull + ((uint64_t)p << 32);
            k->stack_top = 0x600000007ff00000ull + ((uint64_t)p << 32);
        }
        k->heap_size = 16u << 20;
        k->kstack = 0xe000000010000000ull + ((uint64_t)t << 16) + 0x8000;
    }
    g->tasks[0].kstack = 0xe000000010008000ull;
    /* library 9, kernel 11, at most 11 per process */
    g->capfn = 32 + 12 * (int)g->o.nprocs;
    g->fn = calloc((size_t)g->capfn, sizeof *g->fn);
    if (!g->fn)
        return -1;

    int lib_lo, sys_lo, sys_hi;
    build_library(g, &lib_lo, &sys_lo, &sys_hi);
    build_kernel(g);
    for (int t = 1; t < g->ntasks; t++) {
        int first = g->nfn;
        build_process(g, t - 1, g->tasks[t].ia32, lib_lo, sys_lo, sys_hi);
        ctx_start(&g->tasks[t].user, first);
    }
    ctx_start(&g->tasks[0].user, g->k_idle);
    if (g->oom)
        return -1;

    g->cur = 1;
    g->timer_left = rng_range(r, 8000, 24000);
    return 0;
}

/* Exact encodings: the displacement of every ip-relative branch and call, now that
 * every function has its address. */
static void fix_displacements(pmu_gen *g)
{
    for (int i = 0; i < g->nfn; i++) {
        func *f = &g->fn[i];
        if (f->ia32)
            continue;
        for (uint32_t k = 0; k < f->n; k++) {
            insn *in = &f->code[k];
            uint64_t target;
            switch (in->kind) {
            case IK_BR_LOOP: case IK_BR_COND: case IK_BR_JUMP:
                target = (uint32_t)in->target < f->n ? f->code[in->target].ip : f->end;
                break;
            case IK_BR_CALL: case IK_BR_TAIL: case IK_BR_RESCHED:
                target = g->fn[in->target].start;
                break;
            default:
                continue;
            }
            in->enc = with_displacement(in->enc, in->ip, target);
        }
    }
}

/* Hot data edges in the workload: some loads and stores become accesses next to an
 * edge, as a program touches the variable a debugger watches.  A streaming access (one
 * in a loop) walks an array that straddles the edge; any other one reads or writes a
 * variable at a fixed small distance.  Edges, distances and strides go round in turn so
 * that each edge gets each kind. */
static void mark_hot_data(pmu_gen *g)
{
    static const int8_t offsets[] = {0, -1, 1, -8, 8};
    static const uint8_t strides[] = {1, 1, 8};
    unsigned nfixed = 0, nwalk = 0, ndata = g->hot.ndata;
    for (int i = 0; i < g->nfn; i++) {
        func *f = &g->fn[i];
        for (uint32_t k = 0; k < f->n; k++) {
            insn *in = &f->code[k];
            if (in->kind != IK_LOAD && in->kind != IK_STORE && in->kind != IK_FLOAD &&
                in->kind != IK_FSTORE)
                continue;
            if (in->pat == MP_STREAM) {
                if (!chance(&g->hr, 400))
                    continue;
                in->hot_data = (uint16_t)(1 + nwalk % ndata);
                in->hot_stride = strides[(nwalk / ndata) % sizeof strides];
                nwalk++;
            } else {
                if (!chance(&g->hr, 200))
                    continue;
                in->hot_data = (uint16_t)(1 + nfixed % ndata);
                in->hot_off = offsets[(nfixed / ndata) % sizeof offsets];
                nfixed++;
            }
        }
    }
}

/* ---- running it ----------------------------------------------------------------------- */
static uint64_t pick_lat_l2_miss(rng *r)
{
    return chance(r, 700) ? rng_range(r, 12, 20) : rng_range(r, 150, 350);
}

/* Data address and cache outcome of a memory access. */
static void mem_outcome(pmu_gen *g, insn *in, int depth, pmu_slot *s)
{
    rng *r = &g->r;
    task *t = &g->tasks[g->cur];
    int is_load = in->kind == IK_LOAD || in->kind == IK_FLOAD || in->kind == IK_RSE_FILL;
    int fp_load = in->kind == IK_FLOAD;
    uint64_t heap = t->heap ? t->heap : g->kdata, heap_size = t->heap ? t->heap_size : (1u << 20);
    unsigned l1 = 0, l2 = 0; /* l1: L1D miss, l2: L2 miss, per mille */
    switch (in->pat) {
    case MP_STACK:
        s->daddr = t->stack_top - (uint64_t)depth * 0x80 - in->off;
        l1 = 15, l2 = 50;
        break;
    case MP_STREAM: {
        uint64_t region = 1u << 20;
        s->daddr = heap + (in->off + (uint64_t)in->cursor * in->stride) % region;
        in->cursor++;
        int new_line = (s->daddr & 63) < in->stride;
        l1 = new_line ? 700 : 5;
        l2 = (s->daddr & 4095) < in->stride ? 600 : new_line ? 60 : 0;
        break;
    }
    case MP_RANDOM:
        s->daddr = heap + (rng_below(r, heap_size) & ~(uint64_t)7);
        l1 = 350, l2 = 200;
        break;
    case MP_KSTACK:
        s->daddr = t->kstack - 0x200 - in->off;
        l1 = in->kind == IK_RSE_FILL ? 400 : 20;
        l2 = 100;
        break;
    default: /* MP_KDATA */
        s->daddr = g->kdata + in->off;
        l1 = 100, l2 = 150;
        break;
    }
    if (is_load) {
        s->flags |= FLAG(LOAD);
        if (in->kind == IK_RSE_FILL)
            s->flags |= FLAG(RSE);
        if (fp_load || chance(r, l1)) {
            /* FP loads bypass L1D and go to L2 (Itanium 2) */
            if (!fp_load)
                s->flags |= FLAG(L1D_MISS);
            s->flags |= FLAG(L2_REF);
            if (chance(r, l2)) {
                s->flags |= FLAG(L2_MISS);
                s->lat = (uint16_t)pick_lat_l2_miss(r);
            } else {
                s->lat = (uint16_t)(fp_load ? rng_range(r, 6, 10) : rng_range(r, 5, 9));
            }
        } else {
            s->lat = 1;
        }
    } else {
        /* the L1D is write-through: every store references L2 */
        s->flags |= FLAG(STORE) | FLAG(L2_REF);
        if (chance(r, l2 / 4))
            s->flags |= FLAG(L2_MISS);
    }
    if (chance(r, 20))
        s->tlb = chance(r, 200) ? 2 : 1;
    if (in->hot_data) {
        /* after every draw of the access it replaces, so the run stays in step with the
         * run without hot edges; the cache outcome stays that of the replaced access */
        uint64_t edge = g->hot.data[in->hot_data - 1];
        if (in->hot_stride)
            s->daddr = edge - HOT_WALK / 2 + ((uint64_t)in->hot_cursor++ * in->hot_stride) % HOT_WALK;
        else
            s->daddr = edge + (uint64_t)(int64_t)in->hot_off;
    }
}

enum { BR_IPREL = 1, BR_RETURN = 2, BR_INDIRECT = 3 };
enum { PRED_OK = 1, PRED_PATH = 2, PRED_TARGET = 3 };

typedef struct outcome {
    int taken;
    int pred;
    uint32_t next_pos; /* when taken within the function */
    int call;          /* function to push, or -1 */
    int tail;          /* function to replace the frame with, or -1 */
    int ret;
} outcome;

static int pick_syscall(pmu_gen *g)
{
    unsigned total = 0;
    for (int i = 0; i < g->nsys; i++)
        total += g->sys[i].weight;
    unsigned x = (unsigned)rng_below(&g->r, total);
    for (int i = 0; i < g->nsys; i++) {
        if (x < g->sys[i].weight)
            return i;
        x -= g->sys[i].weight;
    }
    return 0;
}

static void branch_outcome(pmu_gen *g, ctx *x, frame *fr, insn *in, outcome *o, int *type)
{
    rng *r = &g->r;
    o->taken = 1;
    o->pred = PRED_OK;
    o->call = o->tail = -1;
    o->ret = 0;
    *type = BR_IPREL;
    switch (in->kind) {
    case IK_BR_LOOP: {
        int32_t *left = &fr->loop_left[in->loop];
        if (*left < 0)
            *left = (int32_t)g->fn[fr->fn].trips[in->loop] - 1;
        if (*left > 0) {
            (*left)--;
            o->taken = 1;
            if (chance(r, 2))
                o->pred = PRED_PATH;
        } else {
            *left = -1;
            o->taken = 0;
            if (chance(r, 600))
                o->pred = PRED_PATH; /* the exit is where loops mispredict */
        }
        o->next_pos = (uint32_t)in->target;
        break;
    }
    case IK_BR_COND: {
        o->taken = chance(r, in->bias);
        int predict_taken = in->bias > 500;
        if (o->taken != predict_taken)
            o->pred = PRED_PATH;
        else if (o->taken && chance(r, 3))
            o->pred = PRED_TARGET;
        o->next_pos = (uint32_t)in->target;
        break;
    }
    case IK_BR_JUMP:
    case IK_BR_CALL:
    case IK_BR_TAIL:
        if (chance(r, 3))
            o->pred = PRED_TARGET;
        else if (chance(r, 1))
            o->pred = PRED_PATH;
        if (in->kind == IK_BR_JUMP)
            o->next_pos = (uint32_t)in->target;
        else if (in->kind == IK_BR_CALL)
            o->call = in->target;
        else
            o->tail = in->target;
        break;
    case IK_BR_RESCHED:
        o->taken = g->need_resched;
        if (o->taken) {
            o->call = in->target;
            if (chance(r, 500))
                o->pred = PRED_PATH;
        }
        break;
    case IK_BR_RET:
        *type = BR_RETURN;
        o->ret = 1;
        if (x->depth > 8 || chance(r, 10)) /* deeper than the return stack buffer */
            o->pred = PRED_TARGET;
        else if (chance(r, 10)) /* a predicated return predicted the wrong way */
            o->pred = PRED_PATH;
        break;
    case IK_BR_ICALL:
    case IK_BR_DISPATCH: {
        *type = BR_INDIRECT;
        int callee = in->kind == IK_BR_DISPATCH ? g->dispatch_fn
                     : chance(r, 800)           ? in->target
                                                : in->target2;
        if (callee != in->last_callee)
            o->pred = PRED_TARGET;
        else if (chance(r, 20)) /* a predicated indirect call predicted the wrong way */
            o->pred = PRED_PATH;
        in->last_callee = callee;
        o->call = callee;
        break;
    }
    default:
        break;
    }
}

/* ---- scheduling ------------------------------------------------------------------------ */
static void start_lowpower(pmu_gen *g, uint64_t lo, uint64_t hi)
{
    g->lowpower_left = rng_range(&g->r, lo, hi);
}

/* The context switch of schedule(): picks the next task and puts its pid in this
 * (kernel) record.  When the idle task takes over, the interruption path is abandoned
 * and the idle loop runs from the next cycle, as a kernel thread. */
static void context_switch(pmu_gen *g, pmu_cycle *c)
{
    rng *r = &g->r;
    int nprocs = g->ntasks - 1;
    int next;
    if (g->cur == 0)
        next = 1 + (int)rng_below(r, (uint64_t)nprocs);
    else if (g->blocked && (nprocs == 1 || chance(r, 250)))
        next = 0; /* nothing else to run */
    else if (g->blocked) /* any process but the one that blocked */
        next = 1 + (int)(((uint64_t)g->cur + rng_below(r, (uint64_t)(nprocs - 1))) % (uint64_t)nprocs);
    else if (nprocs > 1 && chance(r, 750)) /* preemption: usually another process */
        next = 1 + (int)(((uint64_t)g->cur + rng_below(r, (uint64_t)(nprocs - 1))) % (uint64_t)nprocs);
    else
        next = chance(r, 200) ? 0 : g->cur;
    g->need_resched = 0;
    g->blocked = 0;
    g->cur = next;
    c->pid = g->tasks[next].pid;
    if (next == 0) {
        g->in_kernel = 0;
        start_lowpower(g, 16, 200);
    }
}

static void enter_kernel(pmu_gen *g, pmu_cycle *c)
{
    rng *r = &g->r;
    c->intr = PMU_INTR_ENTRY;
    g->ipsr_up = g->psr_up;
    g->in_kernel = 1;
    g->stall = 0;
    if (g->pending_entry == ENTRY_SYSCALL) {
        int k = pick_syscall(g);
        g->dispatch_fn = g->sys[k].fn;
        if (g->sys[k].can_block && chance(r, 250)) {
            g->need_resched = 1;
            g->blocked = 1;
        }
        ctx_start(&g->kctx, g->k_ivt_break);
    } else {
        if (g->cur == 0)
            g->need_resched = chance(r, 900); /* a wake-up usually brings work */
        else if (chance(r, 500))
            g->need_resched = 1;
        g->timer_left = rng_range(r, 8000, 24000);
        ctx_start(&g->kctx, g->k_ivt_ext);
    }
    g->pending_entry = ENTRY_NONE;
}

/* ---- one cycle of the workload ----------------------------------------------------------- */
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Static target of a branch, as the BTB would record it. */
static uint64_t branch_target(const pmu_gen *g, const ctx *x, const func *f, const insn *in,
                              const outcome *o)
{
    switch (in->kind) {
    case IK_BR_LOOP:
    case IK_BR_COND:
    case IK_BR_JUMP:
        return f->code[in->target].ip;
    case IK_BR_CALL:
    case IK_BR_TAIL:
    case IK_BR_RESCHED:
        return g->fn[in->target].start;
    case IK_BR_ICALL:
    case IK_BR_DISPATCH:
        return g->fn[o->call].start;
    default: /* IK_BR_RET: where the caller continues */
        if (x->depth > 1) {
            const frame *caller = &x->fr[x->depth - 2];
            return g->fn[caller->fn].code[caller->pos].ip;
        }
        return f->start;
    }
}

/* Retires the slots of one cycle from context x into c. */
static void retire(pmu_gen *g, pmu_cycle *c, ctx *x, int ia32)
{
    rng *r = &g->r;
    const counts lim = limits();
    counts n = {0, 0, 0, 0, 0, 0, 0};
    unsigned max_slots;
    uint32_t bundle_limit = 0;
    if (ia32) {
        unsigned p = (unsigned)rng_below(r, 100);
        max_slots = p < 40 ? 1 : p < 75 ? 2 : 3;
    } else {
        /* two bundles from where the group starts, sometimes cut short by a stop */
        uint32_t pos = x->fr[x->depth - 1].pos;
        bundle_limit = (pos / 3 + 2) * 3;
        max_slots = bundle_limit - pos;
        if (chance(r, 200))
            max_slots = (unsigned)rng_range(r, 1, max_slots);
    }
    uint64_t stall = 0;

    while (c->nslots < max_slots && c->nslots < PMU_MAX_SLOTS) {
        frame *fr = &x->fr[x->depth - 1];
        func *f = &g->fn[fr->fn];
        if (fr->pos >= f->n)
            fr->pos = 0; /* unreachable with the generated programs; keeps going regardless */
        if (!ia32 && fr->pos >= bundle_limit)
            break;
        insn *in = &f->code[fr->pos];
        int k = in->kind;

        if (k == IK_SYSCALL) {
            fr->pos++; /* the kernel resumes after the break */
            g->pending_entry = ENTRY_SYSCALL;
            break;
        }
        int loadish = k == IK_LOAD || k == IK_FLOAD || k == IK_RSE_FILL;
        int storeish = k == IK_STORE || k == IK_FSTORE;
        int branchish = k >= IK_BR_LOOP && k <= IK_BR_DISPATCH;
        if ((loadish && n.load >= lim.load) || (storeish && n.store >= lim.store) ||
            (k == IK_FPOP && n.fp >= lim.fp) || (branchish && n.br >= lim.br) ||
            ((k == IK_RUM || k == IK_SUM) && c->up_we))
            break; /* retires in the next cycle */

        pmu_slot *s = &c->slot[c->nslots];
        memset(s, 0, sizeof *s);
        s->ip = in->ip;
        s->enc = in->enc;
        s->unit = in->unit;
        s->slot = in->slot;

        int squashed = in->predicated && chance(r, 250);
        int end_group = 0;
        outcome o = {0, 0, 0, -1, -1, 0};

        if (squashed) {
            s->flags = FLAG(PRED_OFF);
        } else if (branchish) {
            int btype = 0;
            branch_outcome(g, x, fr, in, &o, &btype);
            s->flags = (uint16_t)(FIELD(BR_TYPE, btype) | FIELD(BR_PRED, o.pred) |
                                  (o.taken ? FLAG(TAKEN) : 0));
            s->target = branch_target(g, x, f, in, &o);
            if (o.pred != PRED_OK) {
                stall += rng_range(r, 5, 7); /* pipeline flush */
                end_group = 1;
            }
            if (o.taken)
                end_group = 1;
        } else if (k == IK_NOP) {
            s->flags = FLAG(NOP);
        } else if (k == IK_FPOP) {
            s->flags = FLAG(FP);
        } else if (loadish || storeish) {
            mem_outcome(g, in, x->depth, s);
            fit_misses(s, &n, &lim);
            /* a miss stalls when its consumer follows closely, not always */
            if (PMU_SLOT_GET(s, L1D_MISS) && chance(r, 400))
                stall += PMU_SLOT_GET(s, L2_MISS) ? s->lat / 2 + rng_below(r, s->lat / 2 + 1u)
                                                  : rng_below(r, s->lat / 2 + 1u);
            if (PMU_SLOT_GET(s, L2_MISS) && !g->recirc_left && chance(r, 300))
                g->recirc_left = rng_range(r, 2, 12);
        }
        count_slot(&n, s);
        c->nslots++;

        /* side effects and where execution continues */
        uint32_t next = fr->pos + 1;
        if (!squashed && (k == IK_RUM || k == IK_SUM)) {
            c->up_we = 1;
            c->up = k == IK_SUM;
            g->psr_up = c->up;
            g->tasks[g->cur].up = c->up;
        } else if (!squashed && k == IK_RFI) {
            g->pending_return = 1;
            end_group = 1;
        } else if (!squashed && k == IK_HALT) {
            g->halt_left = rng_range(r, 100, 3000);
            g->halt_power = chance(r, 850) ? PMU_POWER_LIGHT_HALT : PMU_POWER_HALT;
            g->lowpower_left = 0;
            end_group = 1;
        } else if (!squashed && k == IK_SCHED) {
            fr->pos = next;
            context_switch(g, c); /* to the idle task, x is abandoned */
            break;
        }
        if (branchish && !squashed && o.taken) {
            if (o.ret) {
                if (x->depth > 1)
                    x->depth--;
                else
                    frame_enter(fr, fr->fn);
            } else if (o.call >= 0) {
                /* the call returns to the next bundle (IA-64) or instruction (IA-32) */
                fr->pos = ia32 ? next : (fr->pos / 3 + 1) * 3;
                if (x->depth < MAX_DEPTH) {
                    frame_enter(&x->fr[x->depth], o.call);
                    x->depth++;
                }
            } else if (o.tail >= 0) {
                frame_enter(fr, o.tail);
            } else {
                fr->pos = o.next_pos;
            }
        } else {
            fr->pos = next;
        }
        if (end_group)
            break;
    }
    g->stall = min_u64(g->stall + stall, 400);
}


static void workload_next(pmu_gen *g, pmu_cycle *c)
{
    rng *r = &g->r;
    task *t = &g->tasks[g->cur];
    memset(c, 0, sizeof *c);
    c->pid = t->pid;
    c->power = g->halt_left ? g->halt_power
               : g->lowpower_left ? PMU_POWER_LOW_POWER
                                  : PMU_POWER_NORMAL;
    if (g->produced == 0) {
        /* monitoring starts on: the first record writes PSR.up and PSR.pp */
        c->up_we = c->up = c->pp_we = c->pp = 1;
        g->psr_up = 1;
    }

    if (g->halt_left) {
        c->cpl = 0;
        c->is = 0;
        if (--g->halt_left == 0)
            g->pending_entry = ENTRY_EXTERNAL; /* the interrupt that wakes the processor */
    } else if (g->pending_entry) {
        enter_kernel(g, c);
        c->cpl = 0;
        c->is = 0;
        retire(g, c, &g->kctx, 0);
    } else if (g->pending_return) {
        g->pending_return = 0;
        g->in_kernel = 0;
        c->intr = PMU_INTR_RETURN;
        g->psr_up = g->ipsr_up;
        t = &g->tasks[g->cur];
        c->cpl = t->cpl;
        c->is = t->ia32;
        if (g->cur != 0 && g->psr_up != t->up) {
            /* the kernel put this task's PSR.up into IPSR before the rfi */
            c->up_we = 1;
            c->up = t->up;
            g->psr_up = t->up;
        }
        retire(g, c, &t->user, t->ia32);
    } else {
        c->cpl = g->in_kernel ? 0 : t->cpl;
        c->is = g->in_kernel ? 0 : t->ia32;
        if (g->stall) {
            g->stall--;
        } else if (!chance(r, 60)) { /* else a front-end bubble */
            if (g->in_kernel)
                retire(g, c, &g->kctx, 0);
            else
                retire(g, c, &t->user, t->ia32);
        }
    }

    if (g->recirc_left) {
        g->recirc_left--;
        c->recirc = (uint8_t)rng_range(r, 1, pmu_event_table[PMU_EV_L2_FORCE_RECIRC_ANY].maxincr);
    }
    if (g->lowpower_left && !g->halt_left)
        g->lowpower_left--;
    else if (!g->halt_left && !g->in_kernel && g->cur != 0 && chance_ppm(r, 25))
        start_lowpower(g, 300, 3000); /* thermal throttling now and then */
    if (g->timer_left)
        g->timer_left--;
    if (!g->timer_left && !g->in_kernel && !g->halt_left && !g->pending_entry &&
        !g->pending_return)
        g->pending_entry = ENTRY_EXTERNAL;
}

/* ---- RANDOM mode ----------------------------------------------------------------------- */
/* Mostly near the regions the workload uses (so IBR/DBR ranges see hits), sometimes anywhere. */
static uint64_t random_addr(rng *r)
{
    static const uint64_t bases[] = {0x4000000000000000ull, 0x2000000000000000ull,
                                     0xe000000000000000ull, 0x6000000000000000ull, 0};
    if (chance(r, 400))
        return rng_next(r);
    return bases[rng_below(r, 5)] + rng_below(r, 1u << 16);
}

static void random_slot(pmu_gen *g, const pmu_cycle *c, pmu_slot *s, counts *n,
                        const counts *lim)
{
    rng *r = &g->r;
    int ia64 = c->is == 0;
    memset(s, 0, sizeof *s);
    if (ia64)
        s->ip = random_addr(r) & ~(uint64_t)15;
    else
        s->ip = chance(r, 600) ? (uint32_t)rng_next(r) : random_addr(r);
    s->slot = ia64 ? (uint8_t)rng_below(r, 3) : 0;
    s->unit = (uint8_t)rng_below(r, 4);
    if (ia64 && chance(r, 900))
        s->enc = rng_next(r) & ((1ull << 41) - 1);
    unsigned p = (unsigned)rng_below(r, 100);
    s->lat = (uint16_t)(p < 50 ? rng_below(r, 32) : p < 90 ? rng_below(r, 1024) : rng_below(r, 65536));
    s->tlb = (uint8_t)rng_below(r, 4);

    unsigned cls = (unsigned)rng_below(r, 100);
    if (cls < 10) {
        s->flags = (uint16_t)(FLAG(NOP) | (chance(r, 200) ? FLAG(PRED_OFF) : 0));
    } else if (cls < 20) {
        s->flags = FLAG(PRED_OFF);
    } else {
        int load = chance(r, 400) && n->load < lim->load;
        int store = chance(r, 250) && n->store < lim->store;
        int fp = chance(r, 250) && n->fp < lim->fp;
        unsigned br = chance(r, 250) && n->br < lim->br ? (unsigned)rng_range(r, 1, 3) : 0;
        if (load) {
            s->flags |= FLAG(LOAD);
            if (chance(r, 300) && n->l1d < lim->l1d)
                s->flags |= FLAG(L1D_MISS);
            if (chance(r, 100))
                s->flags |= FLAG(RSE);
        }
        if (store)
            s->flags |= FLAG(STORE);
        if ((load || store) && chance(r, 400) && n->l2ref < lim->l2ref) {
            s->flags |= FLAG(L2_REF);
            if (chance(r, 300) && n->l2miss < lim->l2miss)
                s->flags |= FLAG(L2_MISS);
        }
        if (fp)
            s->flags |= FLAG(FP);
        if (br) {
            s->flags |= (uint16_t)(FIELD(BR_TYPE, br) | FIELD(BR_PRED, rng_below(r, 4)) |
                                   (chance(r, 500) ? FLAG(TAKEN) : 0));
            if (ia64)
                s->unit = PMU_UNIT_B;
            if (chance(r, 900))
                s->target = random_addr(r);
        }
        if ((load || store) && chance(r, 900))
            s->daddr = random_addr(r);
    }
    count_slot(n, s);
}

/* ---- hot edges in RANDOM mode ----------------------------------------------------------- */
/* Somewhere between two of the edges (the inside of a range whose bounds they are). */
static uint64_t between_edges(rng *r, const uint64_t *edges, unsigned n)
{
    uint64_t a = edges[rng_below(r, n)], b = edges[rng_below(r, n)];
    uint64_t lo = a < b ? a : b, span = (a < b ? b : a) - lo;
    return span == UINT64_MAX ? rng_next(r) : lo + rng_below(r, span + 1);
}

static uint64_t flip_bit(uint64_t v, unsigned bit) { return v ^ ((uint64_t)1 << bit); }

/* An instruction address where a range check on `edge` is decided: the bound itself,
 * the bundles either side, the bits the mask cannot hide (63:56) or can (55:4), the
 * edges of its 4 KB page (fine mode compares within one page), nearby bundles and the
 * inside of a range.  IA-32 addresses are byte addresses and also land a byte off. */
static uint64_t near_code(pmu_gen *g, uint64_t edge, int ia32)
{
    rng *r = &g->hr;
    uint64_t page = edge & ~(uint64_t)(PAGE - 1), a;
    unsigned p = (unsigned)rng_below(r, 100);
    if (p < 14) {
        a = edge;
    } else if (p < 26) {
        a = edge - BUNDLE;
    } else if (p < 38) {
        a = edge + BUNDLE;
    } else if (p < 48) {
        a = flip_bit(edge, IBR_MASKED_BITS + (unsigned)rng_below(r, 64 - IBR_MASKED_BITS));
    } else if (p < 58) {
        static const uint64_t at[4] = {-(uint64_t)BUNDLE, 0, PAGE - BUNDLE, PAGE};
        a = page + at[rng_below(r, 4)];
    } else if (p < 63) {
        a = chance(r, 500) ? edge + PAGE : edge - PAGE;
    } else if (p < 71) {
        a = flip_bit(edge, (unsigned)rng_range(r, 4, IBR_MASKED_BITS - 1)); /* above the bundle bits */
    } else if (p < 85) {
        a = edge + BUNDLE * (rng_below(r, 65) - 32); /* modulo 2^64: -32..32 bundles */
    } else {
        a = between_edges(r, g->hot.code, g->hot.ncode);
    }
    if (!ia32)
        return a & ~(uint64_t)(BUNDLE - 1);
    if (chance(r, 250))
        a += chance(r, 500) ? 1 : (uint64_t)-1;
    return a;
}

/* A data address where a DBR check on `edge` is decided (byte granular). */
static uint64_t near_data(pmu_gen *g, uint64_t edge)
{
    rng *r = &g->hr;
    uint64_t page = edge & ~(uint64_t)(PAGE - 1);
    unsigned p = (unsigned)rng_below(r, 100);
    if (p < 15)
        return edge;
    if (p < 35)
        return chance(r, 500) ? edge + 1 : edge - 1;
    if (p < 50)
        return chance(r, 500) ? edge + 8 : edge - 8;
    if (p < 60) {
        static const uint64_t at[4] = {(uint64_t)-1, 0, PAGE - 1, PAGE};
        return page + at[rng_below(r, 4)];
    }
    if (p < 70)
        return flip_bit(edge, DBR_MASKED_BITS + (unsigned)rng_below(r, 64 - DBR_MASKED_BITS));
    if (p < 77)
        return flip_bit(edge, (unsigned)rng_below(r, DBR_MASKED_BITS));
    if (p < 88)
        return edge + (rng_below(r, 129) - 64);
    return between_edges(r, g->hot.data, g->hot.ndata);
}

static unsigned pick_set_bit(rng *r, uint64_t v)
{
    unsigned k = (unsigned)rng_below(r, (uint64_t)__builtin_popcountll(v));
    for (unsigned bit = 0;; bit++)
        if ((v >> bit) & 1 && k-- == 0)
            return bit;
}

/* An encoding that matches opcode pattern k (its don't-care bits random), or misses it
 * by one cared bit (one the matchers compare when the pattern has one), on a unit the
 * pattern's instruction classes use or, a third of the time, on another unit.  A
 * branch stays on B (an IA-64 branch retires on B). */
static void hot_encoding(pmu_gen *g, pmu_slot *s)
{
    rng *r = &g->hr;
    unsigned k = (unsigned)rng_below(r, g->hot.nopc);
    uint64_t care = g->hot.opc_care[k];
    uint64_t e = (g->hot.opc_match[k] & care) | (rng_next(r) & ~care & ENC_ALL);
    if (care && chance(r, 333))
        e = flip_bit(e, pick_set_bit(r, care & ENC_WINDOW ? care & ENC_WINDOW : care));
    s->enc = e;
    if (PMU_SLOT_GET(s, BR_TYPE) == 0) {
        unsigned among = g->hot_units[k], outside = UNITS_ALL & ~among;
        unsigned units = outside && chance(r, 333) ? outside : among;
        s->unit = (uint8_t)pick_set_bit(r, units);
    }
}

static void hot_slot(pmu_gen *g, const pmu_cycle *c, pmu_slot *s)
{
    rng *r = &g->hr;
    if (g->hot.ncode && chance(r, HOT_PERMILLE))
        s->ip = near_code(g, g->hot.code[rng_below(r, g->hot.ncode)], c->is != 0);
    if (g->hot.ndata && (PMU_SLOT_GET(s, LOAD) || PMU_SLOT_GET(s, STORE)) &&
        chance(r, HOT_PERMILLE))
        s->daddr = near_data(g, g->hot.data[rng_below(r, g->hot.ndata)]);
    if (g->hot.nopc && c->is == 0 && chance(r, HOT_PERMILLE))
        hot_encoding(g, s);
}

/* The units of the instruction classes an opcode pattern can match (all four when
 * none can: the pattern then suggests nothing). */
static unsigned pattern_units(uint64_t match, uint64_t care)
{
    unsigned units = 0;
    for (int c = 0; c < EC_NCLASSES; c++)
        if (((match ^ enc_classes[c].value) & care & enc_classes[c].mask) == 0)
            units |= enc_classes[c].units;
    return units ? units : UNITS_ALL;
}

static void random_next(pmu_gen *g, pmu_cycle *c)
{
    rng *r = &g->r;
    memset(c, 0, sizeof *c);
    /* the sticky fields change now and then, as they would in a stream */
    if (chance(r, 125))
        g->rcpl = (uint8_t)rng_below(r, 4);
    if (chance(r, 60))
        g->ris = (uint8_t)rng_below(r, 2);
    if (chance(r, 60)) {
        unsigned p = (unsigned)rng_below(r, 100);
        g->rpower = p < 50 ? PMU_POWER_NORMAL : p < 70 ? PMU_POWER_LOW_POWER
                    : p < 85 ? PMU_POWER_LIGHT_HALT : PMU_POWER_HALT;
    }
    if (chance(r, 30))
        g->rpid = (uint16_t)rng_below(r, 65536);
    c->cpl = g->rcpl;
    c->is = g->ris;
    c->power = g->rpower;
    c->pid = g->rpid;
    unsigned p = (unsigned)rng_below(r, 1000);
    c->intr = p < 850 ? PMU_INTR_NONE : p < 925 ? PMU_INTR_ENTRY : PMU_INTR_RETURN;
    if (chance(r, 100)) {
        c->up_we = 1;
        c->up = (uint8_t)rng_below(r, 2);
    }
    if (chance(r, 100)) {
        c->pp_we = 1;
        c->pp = (uint8_t)rng_below(r, 2);
    }
    if (chance(r, 300))
        c->recirc = (uint8_t)rng_range(r, 1, pmu_event_table[PMU_EV_L2_FORCE_RECIRC_ANY].maxincr);
    if (c->power == PMU_POWER_LIGHT_HALT || c->power == PMU_POWER_HALT)
        return; /* nothing retires while halted */
    const counts lim = limits();
    counts n = {0, 0, 0, 0, 0, 0, 0};
    c->nslots = (uint8_t)rng_below(r, PMU_MAX_SLOTS + 1);
    for (unsigned i = 0; i < c->nslots; i++) {
        random_slot(g, c, &c->slot[i], &n, &lim);
        if (g->o.hot)
            hot_slot(g, c, &c->slot[i]);
    }
}

/* ---- public interface -------------------------------------------------------------------- */
static int hot_valid(const pmu_gen_hot *h)
{
    if ((h->ncode && !h->code) || (h->ndata && !h->data) ||
        (h->nopc && (!h->opc_match || !h->opc_care)))
        return 0;
    for (unsigned i = 0; i < h->nopc; i++)
        if ((h->opc_match[i] | h->opc_care[i]) & ~ENC_ALL)
            return 0;
    return 1;
}

/* Copies the edges into one block the generator owns. */
static int hot_copy(pmu_gen *g, const pmu_gen_hot *h)
{
    size_t n = (size_t)h->ncode + h->ndata + 2 * (size_t)h->nopc;
    g->hot_mem = malloc((n ? n : 1) * sizeof *g->hot_mem);
    g->hot_units = malloc(h->nopc ? h->nopc : 1);
    if (!g->hot_mem || !g->hot_units)
        return -1;
    uint64_t *p = g->hot_mem;
    if (h->ncode)
        memcpy(p, h->code, h->ncode * sizeof *p);
    g->hot.code = p;
    g->hot.ncode = h->ncode;
    p += h->ncode;
    if (h->ndata)
        memcpy(p, h->data, h->ndata * sizeof *p);
    g->hot.data = p;
    g->hot.ndata = h->ndata;
    p += h->ndata;
    if (h->nopc) {
        memcpy(p, h->opc_match, h->nopc * sizeof *p);
        memcpy(p + h->nopc, h->opc_care, h->nopc * sizeof *p);
    }
    g->hot.opc_match = p;
    g->hot.opc_care = p + h->nopc;
    g->hot.nopc = h->nopc;
    for (unsigned i = 0; i < h->nopc; i++)
        g->hot_units[i] = (uint8_t)pattern_units(h->opc_match[i], h->opc_care[i]);
    g->o.hot = &g->hot;
    return 0;
}

static int by_start(const void *a, const void *b);

pmu_gen *pmu_gen_create(const pmu_gen_opts *o)
{
    if (!o || (o->mode != PMU_GEN_WORKLOAD && o->mode != PMU_GEN_RANDOM))
        return NULL;
    unsigned nprocs = o->nprocs ? o->nprocs : 4;
    if (nprocs > MAX_PROCS)
        return NULL;
    if (o->hot && !hot_valid(o->hot))
        return NULL;
    pmu_gen *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->o = *o;
    g->o.nprocs = nprocs;
    rng_seed(&g->r, o->seed);
    if (o->hot) {
        /* a state of its own, so hot decisions never shift the main sequence */
        rng_seed(&g->hr, o->seed ^ 0x686f742065646765ull);
        if (hot_copy(g, o->hot)) {
            pmu_gen_destroy(g);
            return NULL;
        }
    }
    /* Real encodings (br.cloop ends counted loops, branches carry their displacement), so
     * opcode patterns written against docs/stream-format.md's table match what they name. */
    g->exact_enc = 1;
    if (o->mode == PMU_GEN_WORKLOAD) {
        if (build_workload(g)) {
            pmu_gen_destroy(g);
            return NULL;
        }
        if (g->exact_enc)
            fix_displacements(g);
        if (g->hot.ndata)
            mark_hot_data(g);
        g->by_addr = malloc((size_t)g->nfn * sizeof *g->by_addr);
        if (!g->by_addr) {
            pmu_gen_destroy(g);
            return NULL;
        }
        const func **sorted = malloc((size_t)g->nfn * sizeof *sorted);
        if (!sorted) {
            pmu_gen_destroy(g);
            return NULL;
        }
        for (int i = 0; i < g->nfn; i++)
            sorted[i] = &g->fn[i];
        qsort(sorted, (size_t)g->nfn, sizeof *sorted, by_start);
        for (int i = 0; i < g->nfn; i++)
            g->by_addr[i] = (int)(sorted[i] - g->fn);
        free(sorted);
    } else {
        text_sticky t;
        text_sticky_init(&t);
        g->rcpl = t.cpl;
        g->ris = t.is;
        g->rpower = t.power;
        g->rpid = t.pid;
    }
    return g;
}

int pmu_gen_next(pmu_gen *g, pmu_cycle *c)
{
    if (g->produced >= g->o.cycles)
        return 0;
    if (g->o.mode == PMU_GEN_WORKLOAD)
        workload_next(g, c);
    else
        random_next(g, c);
    g->produced++;
    return 1;
}

static int by_start(const void *a, const void *b)
{
    const func *x = *(const func *const *)a, *y = *(const func *const *)b;
    return x->start < y->start ? -1 : x->start > y->start;
}

unsigned pmu_gen_nfuncs(const pmu_gen *g) { return g->by_addr ? (unsigned)g->nfn : 0; }

int pmu_gen_func(const pmu_gen *g, unsigned i, uint64_t *start, uint64_t *end, const char **name)
{
    if (i >= pmu_gen_nfuncs(g))
        return -1;
    const func *f = &g->fn[g->by_addr[i]];
    if (start)
        *start = f->start;
    if (end)
        *end = f->end;
    if (name)
        *name = f->name;
    return 0;
}

int pmu_gen_write_symbols(const pmu_gen *g, const char *path, pmu_err *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        return stream_errf(err, path, "cannot create: %s", strerror(errno));
    int bad = 0;
    for (unsigned i = 0; i < pmu_gen_nfuncs(g) && !bad; i++) {
        const func *fn = &g->fn[g->by_addr[i]];
        bad = fprintf(f, "%016llx %016llx %s\n", (unsigned long long)fn->start,
                      (unsigned long long)fn->end, fn->name) < 0;
    }
    if (fflush(f) != 0)
        bad = 1;
    if (f != stdout && fclose(f) != 0)
        bad = 1;
    if (bad)
        return stream_errf(err, path, "write error: %s", strerror(errno));
    return 0;
}

void pmu_gen_destroy(pmu_gen *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nfn; i++)
        free(g->fn[i].code);
    free(g->fn);
    free(g->by_addr);
    free(g->hot_mem);
    free(g->hot_units);
    free(g);
}
