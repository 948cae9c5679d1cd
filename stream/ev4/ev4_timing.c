/*
 * ev4_timing.c - the Alpha 21064 timing model of real programs (include/stream/pmu_timing.h):
 * the executed instructions QEMU recorded become ev4_cycle records, one per clock
 * (docs/real-programs-ev4.md describes the model, its parameters and its choices).
 *
 * Sources: docs/sources.md; the 21064 facts named here: the DECchip 21064 data sheet for the
 * TLBs, Bcache and predictor; `dc21064.h` for the primary caches (CACHE_SIZE,
 * CACHE_BLOCK_SIZE), the PAL entry offsets and the ICCSR enables (DI, BHE, JSE); the issue
 * buses, execution boxes and latencies from GCC config/alpha/ev4.md (its ev4_ib0 / ev4_ib1
 * and box reservations are the 21064's dual-issue rules written as a table); AAH Table 4-4
 * for the jump hints.  docs/real-programs-ev4.md lists each parameter with its source.
 *
 * What it models, per instruction, O(1):
 *   fetch   ITB (fully associative, round-robin), then the 8 KB direct-mapped I-cache;
 *           a miss: one imiss cycle and the fill from the Bcache or memory (stall DRY)
 *   issue   the aligned quadword pair issues together when the issue-bus table allows it
 *           (ev4_kind_bus), one instruction a cycle otherwise; an operand not ready yet
 *           (a register scoreboard with GCC ev4.md's latencies) stalls FROZEN
 *   data    DTB (fully associative, round-robin); loads probe the 8 KB direct-mapped
 *           write-through D-cache: a miss sets dmiss in the issue cycle, stalls FROZEN for
 *           the fill and re-issues the load with its replay bit; stores never allocate
 *   branch  per-instruction history bit kept with the I-cache line (static backward-taken
 *           when the line was filled), a return-address stack for RET, the JMP/JSR hint;
 *           a mispredict: mispredict=1 in the first of the penalty's DRY cycles
 *   TLB miss  the PAL flow: mode=PAL cycles at the PAL entry (dc21064.h)
 */
#include <stdlib.h>
#include <string.h>

#include "ev4_internal.h"
#include "stream/pmu_timing.h"

/* ---- parameters ---- */

enum {
    P_L1I_SIZE, P_L1D_SIZE, P_L1_LINE, P_BC_SIZE, P_BC_LINE, P_BC_CYCLES, P_MEM_CYCLES,
    P_ITB_ENTRIES, P_DTB_ENTRIES, P_PAGE_SIZE, P_ITB_PAL_CYCLES, P_DTB_PAL_CYCLES, P_PAL_BASE,
    P_DUAL_ISSUE, P_PAIR_DEP, P_BHE, P_RAS_ENTRIES, P_JMP_HINT, P_MISPREDICT_PENALTY,
    P_TAKEN_BUBBLE, P_LOAD_REPLAY, P_LAT_IOP, P_LAT_LOAD, P_LAT_IMULL, P_LAT_IMULQ, P_LAT_FOP,
    P_LAT_FDIVS, P_LAT_FDIVT, P_NPARAMS
};

static const pmu_timing_param ev4_params[P_NPARAMS] = {
    [P_L1I_SIZE] = {"l1i_size", 8192, 256, 1u << 20, "I-cache size, bytes (direct mapped; a power of 2)",
                    "dc21064.h CACHE_SIZE (8 KB); 21064 data sheet: direct mapped"},
    [P_L1D_SIZE] = {"l1d_size", 8192, 256, 1u << 20, "D-cache size, bytes (direct mapped, write-through, "
                    "no allocate on a store miss; a power of 2)", "dc21064.h CACHE_SIZE (8 KB); 21064 data sheet: direct mapped, write-through"},
    [P_L1_LINE] = {"l1_line", 32, 8, 256, "I- and D-cache line (block), bytes (a power of 2)",
                   "dc21064.h CACHE_BLOCK_SIZE (32)"},
    [P_BC_SIZE] = {"bc_size", 512u << 10, 4096, 1u << 30, "Bcache (external, direct mapped) size, bytes "
                   "(a power of 2)", "choice: docs/real-programs-ev4.md (21064 supports 128 KB..16 MB)"},
    [P_BC_LINE] = {"bc_line", 32, 8, 256, "Bcache block, bytes (a power of 2)",
                   "21064 data sheet: 32-byte Bcache block (= CACHE_BLOCK_SIZE)"},
    [P_BC_CYCLES] = {"bc_cycles", 5, 1, 1000, "cycles a primary-cache fill from the Bcache stalls",
                     "choice: docs/real-programs-ev4.md (BC_RD_SPD-programmable)"},
    [P_MEM_CYCLES] = {"mem_cycles", 40, 1, 100000, "cycles a primary-cache fill from memory (Bcache miss) "
                      "stalls", "choice: docs/real-programs-ev4.md"},
    [P_ITB_ENTRIES] = {"itb_entries", 8, 1, 64, "ITB entries (8 KB pages; fully associative, round robin)",
                       "21064 data sheet: ITB 8 entries (+4 large-page entries, unused by 8 KB user pages)"},
    [P_DTB_ENTRIES] = {"dtb_entries", 32, 1, 64, "DTB entries (fully associative, round robin)",
                       "21064 data sheet: DTB 32 entries"},
    [P_PAGE_SIZE] = {"page_size", 8192, 4096, 1u << 22, "page size, bytes (a power of 2)",
                     "21064 data sheet: 8 KB pages"},
    [P_ITB_PAL_CYCLES] = {"itb_pal_cycles", 16, 1, 10000, "cycles of the ITB-miss PAL flow (its region: 256 instructions)",
                          "choice: docs/real-programs-ev4.md"},
    [P_DTB_PAL_CYCLES] = {"dtb_pal_cycles", 20, 1, 10000, "cycles of the native DTB-miss PAL flow (its region: 64 instructions)",
                          "choice: docs/real-programs-ev4.md"},
    [P_PAL_BASE] = {"pal_base", 0, 0, 0xffffffffffffc000ull, "PAL_BASE: the PAL image's address "
                    "(the flows run at PAL_BASE + entry; 16 KB aligned)", "choice: docs/real-programs-ev4.md"},
    [P_DUAL_ISSUE] = {"dual_issue", 1, 0, 1, "1: dual issue of allowed aligned pairs (ICCSR<DI>), 0: one a cycle",
                      "dc21064.h ICCSR DI"},
    [P_PAIR_DEP] = {"pair_dep", 1, 0, 1, "1: the second of a pair does not issue with the first when it reads "
                    "a register the first writes", "choice: docs/real-programs-ev4.md (GCC ev4.md latencies >= 1)"},
    [P_BHE] = {"bhe", 1, 0, 1, "1: conditional branches use the I-cache history bit (ICCSR<BHE>), "
               "0: static prediction only (backward taken, forward not taken)", "dc21064.h ICCSR BHE"},
    [P_RAS_ENTRIES] = {"ras_entries", 4, 0, 64, "return-address (JSR) stack entries; 0: RET predicted by its "
                       "hint like JMP", "21064: 4-entry JSR stack (ICCSR<JSE>, dc21064.h)"},
    [P_JMP_HINT] = {"jmp_hint", 1, 0, 1, "1: JMP/JSR predicted at the target their hint field gives "
                    "(target<15:2>), 0: always mispredicted", "AAH Table 4-4 (jump hint)"},
    [P_MISPREDICT_PENALTY] = {"mispredict_penalty", 4, 1, 100, "bubble cycles after a mispredicted branch "
                              "(the first resolves it: mispredict=1)",
                              "choice: docs/real-programs-ev4.md (21064 7-stage pipeline)"},
    [P_TAKEN_BUBBLE] = {"taken_bubble", 1, 0, 10, "bubble cycles after a correctly predicted taken branch",
                        "GMP mpn/alpha/README (EV4: +1 cycle per taken branch)"},
    [P_LOAD_REPLAY] = {"load_replay", 1, 0, 1, "1: a load that missed the D-cache re-issues (replay bit) when "
                       "its fill arrives, 0: it does not", "docs/ev4.md (PF_LOADI counts the replay)"},
    [P_LAT_IOP] = {"lat_iop", 1, 1, 100, "cycles until an integer operate's result can be used",
                   "GCC config/alpha/ev4.md (ev4_iaddlog bypass 1)"},
    [P_LAT_LOAD] = {"lat_load", 3, 1, 100, "cycles until a D-cache hit's data can be used",
                    "GCC config/alpha/ev4.md (ev4_ld: loads complete in three cycles)"},
    [P_LAT_IMULL] = {"lat_imull", 21, 1, 1000, "cycles until a MULL result can be used",
                     "GCC config/alpha/ev4.md (ev4_imulsi 21)"},
    [P_LAT_IMULQ] = {"lat_imulq", 23, 1, 1000, "cycles until a MULQ/UMULH result can be used",
                     "GCC config/alpha/ev4.md (ev4_imuldi 23)"},
    [P_LAT_FOP] = {"lat_fop", 6, 1, 100, "cycles until an FP operate's result can be used",
                   "GCC config/alpha/ev4.md (ev4_fpop 6)"},
    [P_LAT_FDIVS] = {"lat_fdivs", 34, 1, 1000, "cycles until a single-precision FP divide's result can be used",
                     "GCC config/alpha/ev4.md (ev4_fdivsf 34)"},
    [P_LAT_FDIVT] = {"lat_fdivt", 63, 1, 1000, "cycles until a double-precision FP divide's result can be used",
                     "GCC config/alpha/ev4.md (ev4_fdivdf 63)"},
};

/* PAL entry offsets, dc21064.h PAL$ITB_MISS_ENTRY and PAL$NDTB_MISS_ENTRY (native DTB miss). */
#define EV4_PAL_ITB_MISS 0x03E0u
#define EV4_PAL_NDTB_MISS 0x08E0u

/* ---- decoding ---- */

/* What an instruction is for issue: its ev4_class and its issue kind. */
typedef enum ev4_kind {
    K_IOP,    /* integer operate, LDA/LDAH, 0x1C */
    K_FOP,    /* floating operate */
    K_ILD,    /* integer load */
    K_FLD,    /* floating load */
    K_IST,    /* integer store */
    K_FST,    /* floating store */
    K_IBR,    /* integer branch, BR/BSR, JMP/JSR/RET */
    K_FBR,    /* floating branch */
    K_PAL,    /* CALL_PAL */
    K_MB,     /* 0x18 memory barriers (MB, WMB, FETCH) */
    K_MISC,   /* the rest of 0x18, HW_*, reserved */
    K_NKINDS
} ev4_kind;

/* The issue table, GCC config/alpha/ev4.md: the issue bus(es) each kind may take (bit 0
 * IB0, bit 1 IB1) and the execution box it needs that only one instruction a cycle has
 * (ABOX the load/store unit, BBOX the branch unit, EBOX the integer unit, FBOX the FP unit).
 * Two instructions pair when they take different buses and need different boxes. */
enum { IB0 = 1, IB1 = 2, ABOX = 1, BBOX = 2, EBOX = 4, FBOX = 8 };
static const struct { uint8_t bus, box; } ev4_kind_bus[K_NKINDS] = {
    [K_IOP] = {IB0, EBOX},        /* ev4_iaddlog, ev4_shiftcm, ev4_icmp, ev4_imul*: ib0 */
    [K_FOP] = {IB1, FBOX},        /* ev4_fpop, ev4_fdiv*: ib1 */
    [K_ILD] = {IB0 | IB1, ABOX},  /* ev4_ld: ib01 + abox */
    [K_FLD] = {IB0 | IB1, ABOX},  /* ev4_ld */
    [K_IST] = {IB1, ABOX},        /* ev4_ist: ib1 + abox */
    [K_FST] = {IB0, ABOX},        /* ev4_fst: ib0 + abox */
    [K_IBR] = {IB1, BBOX},        /* ev4_ibr (ibr, jsr): ib1 + bbox */
    [K_FBR] = {IB0, BBOX},        /* ev4_fbr: ib0 + bbox */
    [K_PAL] = {IB1, BBOX},        /* ev4_callpal: ib1 + bbox */
    [K_MB] = {IB1, ABOX},         /* ev4_mb: ib1 + abox */
    [K_MISC] = {IB1, 0},          /* ev4_misc: ib1 */
};

/* Branch kinds. */
enum { BR_NONE, BR_COND, BR_UNCOND, BR_CALL, BR_JMP, BR_JSR, BR_RET, BR_JSRCO };

typedef struct ev4_dec {
    uint8_t cls, kind, br;
    uint8_t lat;         /* the parameter giving dst's latency (P_LAT_*) */
    uint8_t dst;         /* register written: 0..31 integer, 32..63 FP; 0xff none */
    uint8_t src[2];      /* registers read, 0xff none */
    int32_t disp;        /* branch displacement (instructions) / jump hint */
} ev4_dec;

#define NOREG 0xffu

static uint8_t ireg(uint32_t r) { return r == 31 ? NOREG : (uint8_t)r; }
static uint8_t freg(uint32_t r) { return r == 31 ? NOREG : (uint8_t)(32 + r); }

/* Decodes an instruction word (AAH 3.3 formats, opcode bits 31:26). */
static void ev4_decode_word(uint32_t w, ev4_dec *d)
{
    const uint32_t op = w >> 26, ra = w >> 21 & 31, rb = w >> 16 & 31, rc = w & 31;
    const int lit = (w >> 12) & 1;
    d->br = BR_NONE;
    d->dst = NOREG;
    d->src[0] = d->src[1] = NOREG;
    d->disp = 0;
    switch (op) {
    case 0x00: d->cls = EV4_CLASS_OTHER; d->kind = K_PAL; break;              /* CALL_PAL */
    case 0x08: case 0x09:                                                     /* LDA, LDAH */
        d->cls = EV4_CLASS_INTOP; d->kind = K_IOP; d->dst = ireg(ra); d->src[0] = ireg(rb); break;
    case 0x0A: case 0x0B: case 0x0C: case 0x28: case 0x29: case 0x2A: case 0x2B:
        /* LDBU, LDQ_U (UNOP when ra = 31: it issues as a load, GCC alpha.md "unop" is type ild),
         * LDWU, LDL, LDQ, LDL_L, LDQ_L */
        d->cls = EV4_CLASS_LOAD; d->kind = K_ILD; d->dst = ireg(ra); d->src[0] = ireg(rb); break;
    case 0x20: case 0x21: case 0x22: case 0x23:                               /* LDF LDG LDS LDT */
        d->cls = EV4_CLASS_LOAD; d->kind = K_FLD; d->dst = freg(ra); d->src[0] = ireg(rb); break;
    case 0x0D: case 0x0E: case 0x0F: case 0x2C: case 0x2D: case 0x2E: case 0x2F:
        /* STW STB STQ_U STL STQ STL_C STQ_C (STx_C also writes ra: the success flag); the
         * data register is not a pairing dependency: GCC ev4.md bypasses an integer result
         * to a store's data with latency 0 (store_data_bypass_p) */
        d->cls = EV4_CLASS_STORE; d->kind = K_IST; d->src[0] = ireg(rb);
        if (op >= 0x2E)
            d->dst = ireg(ra);
        break;
    case 0x24: case 0x25: case 0x26: case 0x27:                               /* STF STG STS STT */
        d->cls = EV4_CLASS_STORE; d->kind = K_FST; d->src[0] = freg(ra); d->src[1] = ireg(rb); break;
    case 0x10: case 0x11: case 0x12: case 0x13: case 0x1C:                    /* integer operate */
        d->cls = EV4_CLASS_INTOP; d->kind = K_IOP; d->dst = ireg(rc);
        d->src[0] = op == 0x1C && (w >> 5 & 0x7f) >= 0x70 ? freg(ra) : ireg(ra); /* FTOIx read Fa */
        d->src[1] = lit ? NOREG : ireg(rb);
        break;
    case 0x14:                                                                /* ITOFx, SQRTx */
        d->cls = EV4_CLASS_FPOP; d->kind = K_FOP; d->dst = freg(rc); d->src[0] = ireg(ra);
        d->src[1] = freg(rb); break;
    case 0x15: case 0x16: case 0x17:                                          /* FP operate */
        d->cls = EV4_CLASS_FPOP; d->kind = K_FOP; d->dst = freg(rc); d->src[0] = freg(ra);
        d->src[1] = freg(rb); break;
    case 0x18: {                                                              /* misc */
        const uint32_t fn = w & 0xffff;
        d->cls = EV4_CLASS_OTHER;
        d->kind = fn == 0x4000 || fn == 0x4400 || fn == 0x8000 || fn == 0xA000 ? K_MB : K_MISC;
        if (fn == 0xC000 || fn == 0xE000 || fn == 0xE800 || fn == 0xF000 || fn == 0xF800)
            d->dst = ireg(ra);                                                /* RPCC, RC, RS... */
        break;
    }
    case 0x1A:                                                                /* JMP JSR RET JSR_CO */
        d->cls = EV4_CLASS_BRANCH; d->kind = K_IBR; d->dst = ireg(ra); d->src[0] = ireg(rb);
        d->disp = (int32_t)(w & 0x3fff);
        switch (w >> 14 & 3) {
        case 0: d->br = BR_JMP; break;
        case 1: d->br = BR_JSR; break;
        case 2: d->br = BR_RET; break;
        default: d->br = BR_JSRCO; break; /* JSR_COROUTINE: pops, then pushes */
        }
        break;
    case 0x30: case 0x34:                                                     /* BR, BSR */
        d->cls = EV4_CLASS_BRANCH; d->kind = K_IBR; d->dst = ireg(ra);
        d->br = op == 0x34 ? BR_CALL : BR_UNCOND;
        d->disp = (int32_t)(w << 11) >> 11;
        break;
    case 0x31: case 0x32: case 0x33: case 0x35: case 0x36: case 0x37:         /* FBxx */
        d->cls = EV4_CLASS_BRANCH; d->kind = K_FBR; d->br = BR_COND; d->src[0] = freg(ra);
        d->disp = (int32_t)(w << 11) >> 11;
        break;
    case 0x38: case 0x39: case 0x3A: case 0x3B: case 0x3C: case 0x3D: case 0x3E: case 0x3F:
        d->cls = EV4_CLASS_BRANCH; d->kind = K_IBR; d->br = BR_COND; d->src[0] = ireg(ra);
        d->disp = (int32_t)(w << 11) >> 11;
        break;
    default:                   /* 0x01-0x07 reserved, 0x19/0x1B/0x1D-0x1F HW_* (PALmode) */
        d->cls = EV4_CLASS_OTHER; d->kind = K_MISC; break;
    }
    const uint32_t fn = w >> 5 & 0x7ff;
    d->lat = P_LAT_IOP;
    if (d->kind == K_ILD || d->kind == K_FLD)
        d->lat = P_LAT_LOAD;
    else if (op == 0x13)                                 /* MULL(/V) 0x00/0x40, MULQ, UMULH */
        d->lat = (fn & 0x7f) == 0x00 || (fn & 0x7f) == 0x40 ? P_LAT_IMULL : P_LAT_IMULQ;
    else if (d->kind == K_FOP && ((fn & 0x3f) == 0x03 || (fn & 0x3f) == 0x0B)) /* DIVx, SQRTx */
        d->lat = fn & 0x20 ? P_LAT_FDIVT : P_LAT_FDIVS;
    else if (d->kind == K_FOP)
        d->lat = P_LAT_FOP;
}

/* ---- the model ---- */

typedef struct ev4_tlb {
    uint64_t vpn[64];
    uint8_t valid[64];
    unsigned n, next;   /* entries, the round-robin victim */
    uint64_t last;      /* the last hit's vpn + 1 (0: none), a shortcut */
} ev4_tlb;

typedef struct ev4_held {   /* an instruction waiting to issue (the first of a pair) */
    pmu_rinsn in;
    ev4_dec d;
} ev4_held;

struct pmu_timing {
    uint64_t p[P_NPARAMS];
    unsigned line_shift, page_shift, bc_shift;
    uint64_t l1i_mask, l1d_mask, bc_mask;  /* index masks (lines - 1) */
    uint64_t *itag, *dtag, *btag;          /* line address + 1; 0 invalid */
    uint8_t *hist;                          /* per I-cache instruction: 0 unset, 1 NT, 2 T */
    ev4_tlb itb, dtb;
    uint64_t ras[64];
    unsigned ras_top, ras_n;
    int have_held;
    ev4_held held;
    uint32_t pid;
    uint64_t ready[64];   /* the cycle (a record index) each register's value can be used */
    pmu_timing_stats st;
};

static int ilog2u(uint64_t v) { int s = 0; while ((1ull << s) < v) s++; return (1ull << s) == v ? s : -1; }

static void ev4_timing_destroy(pmu_timing *t)
{
    if (!t)
        return;
    free(t->itag);
    free(t->dtag);
    free(t->btag);
    free(t->hist);
    free(t);
}

static pmu_timing *ev4_timing_create(const uint64_t *value, pmu_err *err)
{
    if (pmu_timing_check(&ev4_timing, value, err))
        return NULL;
    static const unsigned pow2[] = {P_L1I_SIZE, P_L1D_SIZE, P_L1_LINE, P_BC_SIZE, P_BC_LINE, P_PAGE_SIZE};
    for (unsigned k = 0; k < sizeof pow2 / sizeof pow2[0]; k++)
        if (ilog2u(value[pow2[k]]) < 0) {
            pmu_errf(err, PMU_E_INPUT, "ev4 timing: %s=%llu, expected a power of 2", ev4_params[pow2[k]].name,
                     (unsigned long long)value[pow2[k]]);
            return NULL;
        }
    if (value[P_L1_LINE] > value[P_L1I_SIZE] || value[P_L1_LINE] > value[P_L1D_SIZE] ||
        value[P_BC_LINE] > value[P_BC_SIZE]) {
        pmu_errf(err, PMU_E_INPUT, "ev4 timing: a cache line is larger than its cache");
        return NULL;
    }
    if (value[P_PAL_BASE] & 0x3fff) {
        pmu_errf(err, PMU_E_INPUT, "ev4 timing: pal_base=0x%llx, expected 16 KB aligned",
                 (unsigned long long)value[P_PAL_BASE]);
        return NULL;
    }
    pmu_timing *t = calloc(1, sizeof *t);
    if (!t) {
        pmu_errf(err, PMU_E_NOMEM, "ev4 timing: out of memory");
        return NULL;
    }
    memcpy(t->p, value, sizeof t->p);
    t->line_shift = (unsigned)ilog2u(value[P_L1_LINE]);
    t->bc_shift = (unsigned)ilog2u(value[P_BC_LINE]);
    t->page_shift = (unsigned)ilog2u(value[P_PAGE_SIZE]);
    const uint64_t ni = value[P_L1I_SIZE] >> t->line_shift, nd = value[P_L1D_SIZE] >> t->line_shift;
    const uint64_t nb = value[P_BC_SIZE] >> t->bc_shift;
    t->l1i_mask = ni - 1;
    t->l1d_mask = nd - 1;
    t->bc_mask = nb - 1;
    t->itag = calloc(ni, sizeof *t->itag);
    t->dtag = calloc(nd, sizeof *t->dtag);
    t->btag = calloc(nb, sizeof *t->btag);
    t->hist = calloc(value[P_L1I_SIZE] / 4, 1);
    if (!t->itag || !t->dtag || !t->btag || !t->hist) {
        ev4_timing_destroy(t);
        pmu_errf(err, PMU_E_NOMEM, "ev4 timing: out of memory for the caches");
        return NULL;
    }
    t->itb.n = (unsigned)value[P_ITB_ENTRIES];
    t->dtb.n = (unsigned)value[P_DTB_ENTRIES];
    return t;
}

/* The emitter and where it goes, for the duration of one step/finish. */
typedef struct ev4_out {
    pmu_timing *t;
    pmu_timing_emit emit;
    void *ctx;
    pmu_err *err;
} ev4_out;

static void cyc_init(const pmu_timing *t, ev4_cycle *c, uint64_t pc)
{
    memset(c, 0, sizeof *c);
    c->pc = pc & EV4_PC_MASK;
    c->pid = t->pid;
    c->mode = EV4_MODE_USER;
}

static int put(ev4_out *o, const ev4_cycle *c)
{
    o->t->st.cycles++;
    return o->emit(o->ctx, c, o->err);
}

/* n cycles with nothing issued at pc; the first may carry imiss / mispredict. */
static int stall(ev4_out *o, uint64_t n, uint64_t pc, uint8_t why, uint8_t imiss, uint8_t mispredict)
{
    ev4_cycle c;
    for (uint64_t k = 0; k < n; k++) {
        cyc_init(o->t, &c, pc);
        c.stall = why;
        if (k == 0) {
            c.imiss = imiss;
            c.mispredict = mispredict;
        }
        if (put(o, &c))
            return -1;
    }
    return 0;
}

/* A PAL flow: n cycles in PALmode, one PAL instruction a cycle from PAL_BASE + entry. */
static int pal_flow(ev4_out *o, uint64_t n, unsigned entry)
{
    ev4_cycle c;
    const uint64_t base = o->t->p[P_PAL_BASE] + entry;
    for (uint64_t k = 0; k < n; k++) {
        cyc_init(o->t, &c, base + 4 * k);
        c.mode = EV4_MODE_PAL;
        c.nissue = 1;
        c.cls[0] = EV4_CLASS_OTHER;
        if (put(o, &c))
            return -1;
    }
    return 0;
}

/* 1 when the TLB holds vpn; a miss loads it (round robin). */
static int tlb_lookup(ev4_tlb *tb, uint64_t vpn)
{
    if (tb->last == vpn + 1)
        return 1;
    for (unsigned k = 0; k < tb->n; k++)
        if (tb->valid[k] && tb->vpn[k] == vpn) {
            tb->last = vpn + 1;
            return 1;
        }
    tb->vpn[tb->next] = vpn;
    tb->valid[tb->next] = 1;
    tb->next = (tb->next + 1) % tb->n;
    tb->last = vpn + 1;
    return 0;
}

/* A primary-cache fill through the Bcache: the stall cycles it costs (counts a Bcache miss). */
static uint64_t bcache_fill(pmu_timing *t, uint64_t addr)
{
    const uint64_t bl = addr >> t->bc_shift, idx = bl & t->bc_mask;
    if (t->btag[idx] == bl + 1)
        return t->p[P_BC_CYCLES];
    t->btag[idx] = bl + 1;
    t->st.l2_misses++;
    return t->p[P_MEM_CYCLES];
}

/* Fetch of an instruction not in the same quadword as one just issued: ITB, then I-cache. */
static int fetch(ev4_out *o, const pmu_rinsn *in)
{
    pmu_timing *t = o->t;
    if (!tlb_lookup(&t->itb, in->pc >> t->page_shift)) {
        t->st.itlb_misses++;
        if (pal_flow(o, t->p[P_ITB_PAL_CYCLES], EV4_PAL_ITB_MISS))
            return -1;
    }
    const uint64_t line = in->pc >> t->line_shift, idx = line & t->l1i_mask;
    if (t->itag[idx] == line + 1)
        return 0;
    t->itag[idx] = line + 1;
    const unsigned per = (unsigned)(t->p[P_L1_LINE] / 4);
    memset(t->hist + idx * per, 0, per); /* the history bits are refilled with the line */
    t->st.l1i_misses++;
    return stall(o, bcache_fill(t, in->pc), in->pc, EV4_STALL_DRY, 1, 0);
}

/* The DTB for an instruction's accesses (before it issues). */
static int dtb_check(ev4_out *o, const pmu_rinsn *in)
{
    pmu_timing *t = o->t;
    for (unsigned k = 0; k < in->nmem && k < PMU_RINSN_MAX_MEM; k++)
        if (!tlb_lookup(&t->dtb, in->mem[k].addr >> t->page_shift)) {
            t->st.dtlb_misses++;
            if (pal_flow(o, t->p[P_DTB_PAL_CYCLES], EV4_PAL_NDTB_MISS))
                return -1;
        }
    return 0;
}

/* The D-cache side of an issued instruction: the stall cycles its load miss costs (0 on a
 * hit, a store or no access). */
static uint64_t dcache(pmu_timing *t, const pmu_rinsn *in, const ev4_dec *d, int *miss)
{
    uint64_t cost = 0;
    *miss = 0;
    for (unsigned k = 0; k < in->nmem && k < PMU_RINSN_MAX_MEM; k++) {
        const pmu_rmem *m = &in->mem[k];
        const uint64_t last = m->addr + (m->size ? m->size - 1u : 0u);
        for (uint64_t line = m->addr >> t->line_shift; line <= last >> t->line_shift; line++) {
            const uint64_t idx = line & t->l1d_mask;
            if (m->store || d->cls == EV4_CLASS_STORE) {
                /* write-through, no allocate on a miss; the write buffer writes the Bcache
                 * (write-back, allocating) without stalling */
                const uint64_t bl = (line << t->line_shift) >> t->bc_shift;
                t->btag[bl & t->bc_mask] = bl + 1;
                continue;
            }
            if (t->dtag[idx] == line + 1)
                continue;
            t->dtag[idx] = line + 1;
            *miss = 1;
            cost += bcache_fill(t, line << t->line_shift);
        }
    }
    return cost;
}

/* The history bit of the instruction at pc (in the I-cache line holding it). */
static uint8_t *hist_bit(const pmu_timing *t, uint64_t pc)
{
    const unsigned per = (unsigned)(t->p[P_L1_LINE] / 4);
    return &t->hist[((pc >> t->line_shift) & t->l1i_mask) * per + (pc >> 2) % per];
}

/* A conditional branch's predicted direction, 1 taken: the history bit when it is set and
 * enabled (ICCSR<BHE>), else static: backward taken, forward not taken. */
static int cond_predict(const pmu_timing *t, const pmu_rinsn *in, const ev4_dec *d)
{
    const uint8_t h = *hist_bit(t, in->pc);
    if (t->p[P_BHE] && h)
        return h == 2;
    return d->disp < 0;
}

/* The branch unit: predicts an issued branch, learns, and gives the bubble cycles after it
 * and whether it mispredicted. */
static void branch(pmu_timing *t, const pmu_rinsn *in, const ev4_dec *d, int *mispredict, uint64_t *bubble)
{
    const int taken = in->next_pc != in->pc + 4;
    int ok = 1;
    *mispredict = 0;
    *bubble = 0;
    switch (d->br) {
    case BR_COND: {
        t->st.branches++;
        t->st.taken += (uint64_t)taken;
        const int pred = cond_predict(t, in, d);
        if (t->p[P_BHE])
            *hist_bit(t, in->pc) = taken ? 2 : 1;
        ok = pred == taken;
        break;
    }
    case BR_UNCOND:
    case BR_CALL:
        ok = 1;
        break;
    case BR_JMP:
    case BR_JSR:
    case BR_RET:
    case BR_JSRCO: {
        /* AAH Table 4-4: JMP/JSR predict target<15:0> from the hint disp<13:0>; RET and
         * JSR_COROUTINE from the prediction stack */
        uint64_t pred = ((in->pc + 4) & ~0xffffull) | ((uint64_t)d->disp << 2);
        int have = t->p[P_JMP_HINT] != 0;
        if ((d->br == BR_RET || d->br == BR_JSRCO) && t->p[P_RAS_ENTRIES]) {
            have = t->ras_n > 0;
            if (have) {
                t->ras_top = (t->ras_top + (unsigned)t->p[P_RAS_ENTRIES] - 1) % (unsigned)t->p[P_RAS_ENTRIES];
                pred = t->ras[t->ras_top];
                t->ras_n--;
            }
        }
        /* a hint gives target<15:2> only (it starts the I-cache fetch): it is right when
         * those bits are; a stack entry is a whole address */
        const uint64_t cmp = d->br == BR_JMP || d->br == BR_JSR || !t->p[P_RAS_ENTRIES] ? 0xfffcull : ~0ull;
        ok = have && ((pred ^ in->next_pc) & cmp) == 0;
        break;
    }
    default:
        break;
    }
    if ((d->br == BR_CALL || d->br == BR_JSR || d->br == BR_JSRCO) && t->p[P_RAS_ENTRIES]) {
        const unsigned n = (unsigned)t->p[P_RAS_ENTRIES];
        t->ras[t->ras_top] = in->pc + 4;
        t->ras_top = (t->ras_top + 1) % n;
        if (t->ras_n < n)
            t->ras_n++;
    }
    if (!ok) {
        t->st.mispredicts++;
        *mispredict = 1;
        *bubble = t->p[P_MISPREDICT_PENALTY];
    } else if (taken) {
        *bubble = t->p[P_TAKEN_BUBBLE];
    }
}

/* The first cycle all of d's operands can be used. */
static uint64_t operands_ready(const pmu_timing *t, const ev4_dec *d)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < 2; k++)
        if (d->src[k] != NOREG && t->ready[d->src[k]] > r)
            r = t->ready[d->src[k]];
    return r;
}

/* The pair rule: b (at a.pc + 4, a falling through to it) issues with a. */
static int pairs(const pmu_timing *t, const ev4_held *a, const pmu_rinsn *bin, const ev4_dec *b)
{
    if (!t->p[P_DUAL_ISSUE] || bin->pc != a->in.pc + 4 || a->in.next_pc != bin->pc)
        return 0;
    /* a branch predicted taken sends the fetch to its target: the instruction after it
     * does not issue with it, even when the branch then falls through */
    if (a->d.br == BR_COND && cond_predict(t, &a->in, &a->d))
        return 0;
    const uint8_t ba = ev4_kind_bus[a->d.kind].bus, bb = ev4_kind_bus[b->kind].bus;
    if (ev4_kind_bus[a->d.kind].box & ev4_kind_bus[b->kind].box)
        return 0;
    if (!((ba & IB0 && bb & IB1) || (ba & IB1 && bb & IB0)))
        return 0;
    if (t->p[P_PAIR_DEP] && a->d.dst != NOREG && (b->src[0] == a->d.dst || b->src[1] == a->d.dst))
        return 0;
    /* b's other operands must be ready when a issues (after a's own wait) */
    uint64_t when = operands_ready(t, &a->d);
    if (when < t->st.cycles)
        when = t->st.cycles;
    for (unsigned k = 0; k < 2; k++)
        if (b->src[k] != NOREG && b->src[k] != a->d.dst && t->ready[b->src[k]] > when)
            return 0;
    return 1;
}

/* Issues one or two instructions in one cycle, then the cycles their misses and branches
 * cost. */
static int issue(ev4_out *o, const pmu_rinsn *const *in, const ev4_dec *const *d, unsigned n)
{
    pmu_timing *t = o->t;
    ev4_cycle c;
    /* an operand not ready yet freezes the pipe (in order: the pair waits for its first) */
    const uint64_t when = operands_ready(t, d[0]);
    if (when > t->st.cycles && stall(o, when - t->st.cycles, in[0]->pc, EV4_STALL_FROZEN, 0, 0))
        return -1;
    const uint64_t now = t->st.cycles;
    for (unsigned k = 0; k < n; k++)
        if (d[k]->dst != NOREG)
            t->ready[d[k]->dst] = now + t->p[d[k]->lat];
    cyc_init(t, &c, in[0]->pc);
    c.nissue = (uint8_t)n;
    uint64_t dcost = 0;
    int dmiss_slot = -1;
    for (unsigned k = 0; k < n; k++) {
        c.cls[k] = d[k]->cls;
        t->st.insns++;
        t->st.loads += d[k]->cls == EV4_CLASS_LOAD;
        t->st.stores += d[k]->cls == EV4_CLASS_STORE;
        int miss;
        const uint64_t cost = dcache(t, in[k], d[k], &miss);
        if (miss) { /* only one load a cycle (ABOX) */
            dmiss_slot = (int)k;
            dcost = cost;
            c.dmiss = 1;
            t->st.l1d_misses++;
        }
    }
    if (put(o, &c))
        return -1;
    if (dmiss_slot >= 0) {
        const pmu_rinsn *ld = in[dmiss_slot];
        if (stall(o, dcost, ld->pc, EV4_STALL_FROZEN, 0, 0))
            return -1;
        if (t->p[P_LOAD_REPLAY]) {
            cyc_init(t, &c, ld->pc);
            c.nissue = 1;
            c.cls[0] = EV4_CLASS_LOAD;
            c.replay = 1;
            if (put(o, &c))
                return -1;
        }
        /* the fill hands the data to the register: usable the cycle after */
        if (d[dmiss_slot]->dst != NOREG)
            t->ready[d[dmiss_slot]->dst] = t->st.cycles;
    }
    for (unsigned k = 0; k < n; k++)
        if (d[k]->cls == EV4_CLASS_BRANCH) {
            int mp;
            uint64_t bubble;
            branch(t, in[k], d[k], &mp, &bubble);
            if (stall(o, bubble, in[k]->next_pc, EV4_STALL_DRY, 0, (uint8_t)mp))
                return -1;
        }
    return 0;
}

static int issue1(ev4_out *o, const pmu_rinsn *in, const ev4_dec *d)
{
    const pmu_rinsn *ins[1] = {in};
    const ev4_dec *ds[1] = {d};
    return issue(o, ins, ds, 1);
}

static int ev4_timing_step(pmu_timing *t, const pmu_rinsn *in, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    ev4_out o = {t, emit, ctx, err};
    ev4_dec d;
    ev4_decode_word(pmu_rinsn_word(in), &d);
    /* a user-mode record needs a pid in 1..EV4_MAX_PID (docs/ev4-stream.md, "Validation") */
    t->pid = in->pid & EV4_MAX_PID ? in->pid & EV4_MAX_PID : 1;
    if (t->have_held) {
        t->have_held = 0;
        if (pairs(t, &t->held, in, &d)) {
            if (dtb_check(&o, in))
                return -1;
            const pmu_rinsn *ins[2] = {&t->held.in, in};
            const ev4_dec *ds[2] = {&t->held.d, &d};
            return issue(&o, ins, ds, 2);
        }
        if (issue1(&o, &t->held.in, &t->held.d))
            return -1;
    }
    if (fetch(&o, in) || dtb_check(&o, in))
        return -1;
    if (t->p[P_DUAL_ISSUE] && (in->pc & 7) == 0 && in->next_pc == in->pc + 4) {
        t->held.in = *in;
        t->held.d = d;
        t->have_held = 1;
        return 0;
    }
    return issue1(&o, in, &d);
}

static int ev4_timing_finish(pmu_timing *t, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    ev4_out o = {t, emit, ctx, err};
    if (t->have_held) {
        t->have_held = 0;
        return issue1(&o, &t->held.in, &t->held.d);
    }
    return 0;
}

static void ev4_timing_stats(const pmu_timing *t, pmu_timing_stats *s)
{
    *s = t->st;
}

const pmu_timing_ops ev4_timing = {
    .qemu_arch = "alpha",
    .elf_machine = 0x9026,
    .elf_class = 2,
    .sysroot = "/usr/alpha-linux-gnu",
    .cc = "alpha-linux-gnu-gcc",
    .packages = "qemu-user gcc-alpha-linux-gnu",
    .what = "Alpha 21064: in-order dual issue of aligned pairs (issue-bus table), 8 KB direct-mapped "
            "I/D caches, Bcache, ITB/DTB with PAL miss flows, history-bit branch prediction and JSR stack",
    .params = ev4_params,
    .nparams = P_NPARAMS,
    .create = ev4_timing_create,
    .step = ev4_timing_step,
    .finish = ev4_timing_finish,
    .stats = ev4_timing_stats,
    .destroy = ev4_timing_destroy,
};
