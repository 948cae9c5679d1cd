/*
 * ev67_timing.c - the Alpha 21264/EV67 timing model of real programs
 * (include/stream/pmu_timing.h; docs/real-programs-ev67.md): the executed instructions
 * QEMU recorded become ev67_cycle records (include/common/ev67/ev67_cycle.h) that obey
 * R1-R10.
 *
 * The machine, clock by clock (HRM = Alpha 21264/EV67 Hardware Reference Manual):
 *  - fetch: up to 4 instructions a cycle from one aligned 16-byte fetch block (HRM §2.1.1,
 *    §6.10.3); a control transfer ends the block; a CMOV is two fetched instructions
 *    (CMOV1, CMOV2; HRM Table 6-12), which may split across two cycles.  The I-cache
 *    (64 KB, 2-way, 64-byte lines, HRM §2.1) is looked up at the first instruction of
 *    each block; a miss flags EV67_FF_ICM, looks up the ITB (128 entries, HRM §2.1.1.3)
 *    and stalls fetch for the fill (Bcache or memory) and any ITB refill.
 *  - map (stage 2, HRM §2.2): in order, up to map_width a cycle, two cycles after fetch,
 *    while fewer than `window` instructions are mapped and in flight (the 80 inums, HRM
 *    §2.1); an instruction that reaches map and cannot map is a map stall (R7).  Fetch
 *    waits while `fetch_buffer` fetched instructions are not yet mapped.
 *  - retire: in order, at most retire_width a cycle and within R9's backlog bound, once
 *    the instruction is `retire_depth` cycles past its (stall-free) fetch plus its
 *    latency: load-use (HRM §2.3.3: 3 cycles on a D-cache hit), FP (4), a D-cache miss
 *    (Bcache latency), a Bcache miss (memory latency), a DTB miss (Table 2-1: 13).
 *    Squashed NOPs and TRAPB (EV67_FF_SQUASH) end by a squash at the same point.
 *  - branches: the tournament predictor (HRM §2.1.1.2: local 1024 x 10-bit histories and
 *    1024 3-bit counters, global 4096 2-bit counters on a 12-bit path history, choice
 *    4096 2-bit counters), a return-address stack for RET and a target table (the line
 *    predictor trained with true targets, HRM §2.2 stage 1) for JMP/JSR.  A mispredict
 *    resolves in the execute stage (stage 5): a trap (CBR: trap_type invalid1, trap_mis 1;
 *    JMP class: invalid9, trap_mis 0 - the values the dialect's generator and ProfileMe
 *    expect, docs/ev67-profileme.md), an abort of the wrong-path instructions fetched
 *    along the predicted path (pc-only, class OTHER), and correct-path fetch resumes
 *    `mispredict_penalty` cycles after the cycle after the branch's fetch (HRM Table 2-1:
 *    7 cycles, JSR 8).
 *  - Bcache: direct-mapped, 64-byte lines; a miss sets the record's bcmiss in the cycle
 *    the access reaches the Dcache (stage 6) or the I-cache fill starts.
 *  - CALL_PAL (a system call under QEMU): its PALcode and kernel are not in the
 *    recording; fetch waits pal_penalty cycles after it.
 *
 * Every number is a parameter (ev67_timing_params).  O(1) work per instruction and per
 * cycle; no allocation after create.  Deterministic.
 */
#include <stdlib.h>
#include <string.h>

#include "ev67_internal.h"
#include "stream/pmu_timing.h"

/* ---- parameters ------------------------------------------------------------------- */
enum {
    P_L1I_SIZE, P_L1D_SIZE, P_BC_SIZE, P_ITB, P_DTB, P_PAGE_SHIFT,
    P_WINDOW, P_FETCH_BUFFER, P_MAP_WIDTH, P_RETIRE_WIDTH, P_RETIRE_DEPTH,
    P_LOAD_LAT, P_FP_LAT, P_BC_LAT, P_MEM_LAT, P_ITB_MISS, P_DTB_MISS,
    P_LHT, P_LHIST, P_GHIST, P_RESOLVE, P_MISPREDICT, P_JSR_MISPREDICT, P_RAS, P_JTB,
    P_WRONG_PATH, P_SQUASH_NOPS, P_PAL_PENALTY, P_NPARAMS
};

static const pmu_timing_param ev67_timing_params[P_NPARAMS] = {
    [P_L1I_SIZE] = {"l1i_size", 65536, 1024, 1u << 22, "I-cache size, bytes (2-way, 64-byte lines; a power of two)",
                    "HRM §2.1 (on-chip caches): 64 KB, 2-way set-associative, 64-byte blocks"},
    [P_L1D_SIZE] = {"l1d_size", 65536, 1024, 1u << 22, "D-cache size, bytes (2-way, 64-byte lines; a power of two)",
                    "HRM §2.1 (on-chip caches): 64 KB, 2-way set-associative, 64-byte blocks"},
    [P_BC_SIZE] = {"bcache_size", 4u << 20, 1u << 14, 1u << 26, "Bcache size, bytes (direct-mapped, 64-byte lines; a power of two)",
                   "HRM ch. 4 (Cbox): a direct-mapped Bcache of 1 to 16 MB; 4 MB: choice, docs/real-programs-ev67.md"},
    [P_ITB] = {"itb_entries", 128, 1, 1024, "ITB entries (fully associative, round-robin replacement)",
               "HRM §2.1.1.3: 128 entries, fully associative, round-robin"},
    [P_DTB] = {"dtb_entries", 128, 1, 1024, "DTB entries (fully associative, round-robin replacement)",
               "HRM §2.1 (Mbox): 128 entries, fully associative; round-robin as the ITB"},
    [P_PAGE_SHIFT] = {"page_shift", 13, 12, 22, "log2 of the page size the TLBs map",
                      "HRM §2.1.1.3: 8 KB pages (larger granularity hints not modelled)"},
    [P_WINDOW] = {"window", 80, 8, 160, "instructions in flight after map, at most (the inum window)",
                  "HRM §2.1: up to 80 instructions in flight (the inum space)"},
    [P_FETCH_BUFFER] = {"fetch_buffer", 12, 4, 64, "fetched instructions not yet mapped (at the start of a cycle, with the block to fetch), at most: fetch waits beyond",
                        "choice: the fetch, slot and map stages hold one 4-instruction block each (HRM §2.2 stages 0-2)"},
    [P_MAP_WIDTH] = {"map_width", 4, 1, 4, "instructions mapped a cycle", "HRM §2.2 stage 2: 4 a cycle"},
    [P_RETIRE_WIDTH] = {"retire_width", 11, 1, 11, "instructions retired a cycle, at most (R9 bounds the sustained rate to 8)",
                        "HRM §6.10.2.3: up to 11 a cycle, 8 sustained"},
    [P_RETIRE_DEPTH] = {"retire_depth", 7, 4, 40, "cycles from fetch to the earliest retire of a 1-cycle instruction",
                        "HRM §2.2: fetch stage 0 .. Dcache/write stage 6, retire the cycle after; choice"},
    [P_LOAD_LAT] = {"load_latency", 3, 1, 40, "cycles of an integer load that hits the D-cache",
                    "HRM §2.3.3 (instruction latencies): integer load 3"},
    [P_FP_LAT] = {"fp_latency", 4, 1, 60, "cycles of a floating-point operate",
                  "HRM §2.3.3 (instruction latencies): FP add/multiply 4"},
    [P_BC_LAT] = {"bcache_latency", 12, 2, 200, "extra cycles of a D-cache or I-cache miss that hits the Bcache",
                  "choice: HRM §4 (Bcache timing is set by the system); docs/real-programs-ev67.md"},
    [P_MEM_LAT] = {"mem_latency", 80, 2, 2000, "extra cycles of a Bcache miss (memory)",
                   "choice: docs/real-programs-ev67.md"},
    [P_ITB_MISS] = {"itb_miss_latency", 7, 0, 1000, "fetch stall of an ITB miss, cycles",
                    "HRM §2.2.1, Table 2-1: ITB miss 7"},
    [P_DTB_MISS] = {"dtb_miss_latency", 13, 0, 1000, "extra cycles of a load or store that misses the DTB",
                    "HRM §2.2.1, Table 2-1: DTB miss 13"},
    [P_LHT] = {"bp_local_entries", 1024, 16, 65536, "local history table entries (a power of two)",
               "HRM §2.1.1.2, Figure 2-3: 1K x 10 local history table, VPC[11:2]"},
    [P_LHIST] = {"bp_local_bits", 10, 2, 16, "local history bits; the local predictor has 2^bits 3-bit counters",
                 "HRM §2.1.1.2, Figure 2-3: 1K x 3 local predictor"},
    [P_GHIST] = {"bp_global_bits", 12, 2, 20, "path history bits; the global and choice predictors have 2^bits 2-bit counters",
                 "HRM §2.1.1.2, Figures 2-4, 2-5: 12-bit path history, 4K x 2 global and choice"},
    [P_RESOLVE] = {"branch_resolve_stage", 5, 3, 20, "pipeline stage in which a branch resolves (map is stage 2)",
                   "HRM §2.2: stage 5, execute"},
    [P_MISPREDICT] = {"mispredict_penalty", 7, 1, 100, "conditional branch mispredict: cycles from the cycle after its fetch to the target's fetch",
                      "HRM §2.2.1, Table 2-1: branch misprediction 7"},
    [P_JSR_MISPREDICT] = {"jsr_mispredict_penalty", 8, 1, 100, "JMP/JSR/RET mispredict, as mispredict_penalty",
                          "HRM §2.2.1, Table 2-1: JSR misprediction 8"},
    [P_RAS] = {"ras_entries", 32, 1, 256, "return-address stack entries",
               "choice: docs/real-programs-ev67.md"},
    [P_JTB] = {"jump_targets", 1024, 16, 65536, "JMP/JSR target table entries (a power of two): the line predictor trained with true targets",
               "HRM §2.2 (stage 1): the line predictor predicts jump targets; size: choice"},
    [P_WRONG_PATH] = {"wrong_path", 1, 0, 1, "1: fetch along the predicted path after a mispredict (aborted at resolve)",
                      "choice: docs/real-programs-ev67.md"},
    [P_SQUASH_NOPS] = {"squash_nops", 1, 0, 1, "1: NOP, UNOP, FNOP and TRAPB are squashed (EV67_FF_SQUASH)",
                       "HRM §6.10.3: squashed NOPs count as fetched, not retired"},
    [P_PAL_PENALTY] = {"pal_penalty", 30, 0, 100000, "fetch stall after a CALL_PAL (its PALcode and kernel are not recorded)",
                       "choice: docs/real-programs-ev67.md"},
};

/* ---- caches and TLBs -------------------------------------------------------------- */
typedef struct cache2 { /* 2-way, 64-byte lines, LRU */
    uint64_t *tag;      /* [set*2 + way]: line + 1, 0 invalid */
    uint8_t *lru;       /* [set]: the way to replace */
    uint64_t sets;
} cache2;

static int cache2_init(cache2 *c, uint64_t size)
{
    c->sets = size / 128u;
    c->tag = calloc(c->sets * 2u, sizeof *c->tag);
    c->lru = calloc(c->sets, 1);
    return c->tag && c->lru ? 0 : -1;
}

/* 1: hit.  Fills on a miss. */
static int cache2_access(cache2 *c, uint64_t addr)
{
    uint64_t line = addr >> 6, set = line & (c->sets - 1u), key = line + 1u;
    uint64_t *t = &c->tag[set * 2u];
    if (t[0] == key) {
        c->lru[set] = 1;
        return 1;
    }
    if (t[1] == key) {
        c->lru[set] = 0;
        return 1;
    }
    unsigned w = c->lru[set];
    t[w] = key;
    c->lru[set] = (uint8_t)(w ^ 1u);
    return 0;
}

typedef struct tlb { /* fully associative, round-robin replacement */
    uint64_t *vpn;       /* [entries]: vpn + 1, 0 invalid */
    unsigned n, next;
    uint16_t look[64];   /* a lookaside: vpn hash -> entry, checked against vpn[] */
} tlb;

static int tlb_access(tlb *t, uint64_t vpn)
{
    uint64_t key = vpn + 1u;
    unsigned h = (unsigned)((vpn * 0x9e3779b97f4a7c15ull) >> 58);
    if (t->vpn[t->look[h]] == key)
        return 1;
    for (unsigned i = 0; i < t->n; i++)
        if (t->vpn[i] == key) {
            t->look[h] = (uint16_t)i;
            return 1;
        }
    t->vpn[t->next] = key;
    t->look[h] = (uint16_t)t->next;
    t->next = (t->next + 1u) % t->n;
    return 0;
}

/* ---- the machine ------------------------------------------------------------------ */
#define RING EV67_STREAM_MAX_INFLIGHT
#define NEVER UINT64_MAX

typedef struct entry {
    uint64_t pc;
    uint64_t fetched; /* cycle */
    uint64_t ready;   /* cycle from which it may retire (set at map) */
    uint32_t tag;
    uint32_t extra;   /* latency beyond a 1-cycle operate */
    uint8_t cls, flags;
    uint8_t phantom;  /* a wrong-path instruction: never retires */
    uint8_t bc;       /* its access misses the Bcache */
} entry;

typedef struct pend { /* an instruction's fetch slot not yet fetched */
    uint64_t pc;
    uint32_t extra;
    uint8_t cls, flags, bc;
} pend;

struct pmu_timing {
    uint64_t p[P_NPARAMS];
    cache2 ic, dc;
    uint64_t *bc_tag; /* direct-mapped Bcache: line + 1 */
    uint64_t bc_lines;
    tlb itb, dtb;
    uint16_t *lht;    /* local histories */
    uint8_t *lpred, *gpred, *choice;
    uint32_t path;
    uint64_t *ras;
    unsigned ras_top, ras_n;
    uint64_t *jtb;

    uint64_t now;
    uint32_t next_tag;
    uint32_t backlog; /* R9 */
    entry ring[RING];
    uint32_t front, n, nmapped;

    pend grp[EV67_FETCH_MAX];
    unsigned ngrp;
    uint64_t grp_block;  /* the open group's 16-byte block, valid when grp_open */
    int grp_open, grp_closed;
    uint32_t grp_stall;  /* fetch stall before the group (I-cache or ITB miss) */
    uint8_t grp_stall_bc;
    uint32_t grp_after;  /* fetch stall after the group (CALL_PAL) */
    uint8_t grp_icm_pending;
    uint64_t npc;        /* the next correct-path pc after what was given */
    uint64_t fetch_ready;

    /* a mispredict in flight */
    int mis;             /* 0 none, 1 CBR, 2 JMP class */
    uint32_t mis_tag;
    uint64_t mis_resolve; /* NEVER until it maps */
    uint64_t wrong_pc;

    uint64_t bcm_mask;   /* bit k: a Bcache miss is signalled k cycles from now */
    pmu_timing_stats st;
};

static entry *at(pmu_timing *t, uint32_t i) { return &t->ring[(t->front + i) % RING]; }

static int pow2(uint64_t v) { return v && !(v & (v - 1u)); }

static void destroy(pmu_timing *t)
{
    if (!t)
        return;
    free(t->ic.tag), free(t->ic.lru), free(t->dc.tag), free(t->dc.lru), free(t->bc_tag);
    free(t->itb.vpn), free(t->dtb.vpn), free(t->lht), free(t->lpred), free(t->gpred);
    free(t->choice), free(t->ras), free(t->jtb);
    free(t);
}

static pmu_timing *create(const uint64_t *value, pmu_err *err)
{
    static const unsigned pw[] = {P_L1I_SIZE, P_L1D_SIZE, P_BC_SIZE, P_LHT, P_JTB};
    for (unsigned k = 0; k < sizeof pw / sizeof pw[0]; k++)
        if (!pow2(value[pw[k]])) {
            pmu_errf(err, PMU_E_INPUT, "ev67 timing: %s=%llu, expected a power of two",
                     ev67_timing_params[pw[k]].name, (unsigned long long)value[pw[k]]);
            return NULL;
        }
    if (pmu_timing_check(&ev67_timing, value, err))
        return NULL;
    pmu_timing *t = calloc(1, sizeof *t);
    if (!t) {
        pmu_errf(err, PMU_E_NOMEM, "ev67 timing: out of memory");
        return NULL;
    }
    memcpy(t->p, value, sizeof t->p);
    t->bc_lines = value[P_BC_SIZE] / 64u;
    t->itb.n = (unsigned)value[P_ITB];
    t->dtb.n = (unsigned)value[P_DTB];
    t->bc_tag = calloc(t->bc_lines, sizeof *t->bc_tag);
    t->itb.vpn = calloc(t->itb.n, sizeof *t->itb.vpn);
    t->dtb.vpn = calloc(t->dtb.n, sizeof *t->dtb.vpn);
    t->lht = calloc(value[P_LHT], sizeof *t->lht);
    t->lpred = malloc((size_t)1 << value[P_LHIST]);
    t->gpred = malloc((size_t)1 << value[P_GHIST]);
    t->choice = malloc((size_t)1 << value[P_GHIST]);
    t->ras = calloc(value[P_RAS], sizeof *t->ras);
    t->jtb = calloc(value[P_JTB], sizeof *t->jtb);
    if (cache2_init(&t->ic, value[P_L1I_SIZE]) || cache2_init(&t->dc, value[P_L1D_SIZE]) ||
        !t->bc_tag || !t->itb.vpn || !t->dtb.vpn || !t->lht || !t->lpred || !t->gpred ||
        !t->choice || !t->ras || !t->jtb) {
        destroy(t);
        pmu_errf(err, PMU_E_NOMEM, "ev67 timing: out of memory");
        return NULL;
    }
    /* choice: counters start weakly not-taken (local 3, global 1) and the choice weakly
       local (1) */
    memset(t->lpred, 3, (size_t)1 << value[P_LHIST]);
    memset(t->gpred, 1, (size_t)1 << value[P_GHIST]);
    memset(t->choice, 1, (size_t)1 << value[P_GHIST]);
    t->mis_resolve = NEVER;
    return t;
}

/* ---- decode ------------------------------------------------------------------------ */
typedef struct dec {
    uint8_t cls, squash, cmov, cbr, jmp_kind; /* jmp_kind: hint 0 JMP 1 JSR 2 RET 3 COR */
    uint8_t call; /* BSR: pushes the return address */
    uint8_t prefetch; /* a load to r31/f31 */
} dec;

/* Alpha Architecture Handbook, Appendix C (opcode summary); HRM Table 6-12 (CMOV). */
static dec decode(uint32_t w)
{
    dec d = {EV67_CLASS_OTHER, 0, 0, 0, 0, 0, 0};
    unsigned op = w >> 26, ra = (w >> 21) & 31u, rb = (w >> 16) & 31u, rc = w & 31u;
    unsigned ifn = (w >> 5) & 0x7fu, ffn = (w >> 5) & 0x7ffu;
    switch (op) {
    case 0x00: d.cls = EV67_CLASS_PAL; break; /* CALL_PAL */
    case 0x08: case 0x09: d.cls = EV67_CLASS_INTOP; break; /* LDA, LDAH */
    case 0x0b: /* LDQ_U; LDQ_U r31 is UNOP */
        d.cls = ra == 31 ? EV67_CLASS_NOP : EV67_CLASS_LOAD;
        d.squash = ra == 31;
        break;
    case 0x0a: case 0x0c: case 0x20: case 0x21: case 0x22: case 0x23:
    case 0x28: case 0x29: case 0x2a: case 0x2b:
        d.cls = EV67_CLASS_LOAD;
        d.prefetch = ra == 31 && op != 0x2a && op != 0x2b; /* LDx_L r31 still locks */
        break;
    case 0x0d: case 0x0e: case 0x0f: case 0x24: case 0x25: case 0x26: case 0x27:
    case 0x2c: case 0x2d: case 0x2e: case 0x2f:
        d.cls = EV67_CLASS_STORE;
        break;
    case 0x11:
        if (ifn == 0x14 || ifn == 0x16 || ifn == 0x24 || ifn == 0x26 || ifn == 0x44 ||
            ifn == 0x46 || ifn == 0x64 || ifn == 0x66) {
            d.cls = EV67_CLASS_INTOP; /* CMOVxx */
            d.cmov = 1;
            break;
        }
        if (ifn == 0x20 && ra == 31 && rb == 31 && rc == 31 && !(w & 0x1000u)) {
            d.cls = EV67_CLASS_NOP; /* NOP: BIS r31,r31,r31 */
            d.squash = 1;
            break;
        }
        d.cls = EV67_CLASS_INTOP;
        break;
    case 0x10: case 0x12: case 0x13: case 0x1c: d.cls = EV67_CLASS_INTOP; break;
    case 0x17:
        if (ffn >= 0x02a && ffn <= 0x02f) {
            d.cls = EV67_CLASS_INTOP; /* FCMOVxx: two halves, the dialect's intop class */
            d.cmov = 1;
            break;
        }
        if (ffn == 0x020 && ra == 31 && rb == 31 && rc == 31) {
            d.cls = EV67_CLASS_NOP; /* FNOP: CPYS f31,f31,f31 */
            d.squash = 1;
            break;
        }
        d.cls = EV67_CLASS_FPOP;
        break;
    case 0x14: case 0x15: case 0x16: d.cls = EV67_CLASS_FPOP; break;
    case 0x18:
        switch (w & 0xffffu) {
        case 0x0000: d.cls = EV67_CLASS_BARRIER; d.squash = 1; break; /* TRAPB */
        case 0x0400: case 0x4000: case 0x4400: d.cls = EV67_CLASS_BARRIER; break;
        case 0xc000: case 0xe000: case 0xf000: d.cls = EV67_CLASS_INTOP; break; /* RPCC RC RS */
        default: d.cls = EV67_CLASS_OTHER; break; /* FETCH, ECB, WH64 ... */
        }
        break;
    case 0x1a:
        d.cls = EV67_CLASS_JMP;
        d.jmp_kind = (uint8_t)((w >> 14) & 3u);
        break;
    case 0x30: d.cls = EV67_CLASS_BR; break;
    case 0x34: d.cls = EV67_CLASS_BR; d.call = 1; break;
    default:
        if (op >= 0x31 && op != 0x34) {
            d.cls = EV67_CLASS_CBR;
            d.cbr = 1;
        }
        break;
    }
    return d;
}

/* ---- the branch predictor (HRM §2.1.1.2) ----------------------------------------- */
static int predict_update(pmu_timing *t, uint64_t pc, int taken)
{
    uint64_t li = (pc >> 2) & (t->p[P_LHT] - 1u);
    unsigned hmask = (1u << t->p[P_LHIST]) - 1u, gmask = (1u << t->p[P_GHIST]) - 1u;
    unsigned h = t->lht[li] & hmask, g = t->path & gmask;
    int lp = t->lpred[h] >= 4, gp = t->gpred[g] >= 2, use_g = t->choice[g] >= 2;
    int pred = use_g ? gp : lp;
    if (lp != gp) {
        if (gp == taken && t->choice[g] < 3)
            t->choice[g]++;
        else if (lp == taken && t->choice[g] > 0)
            t->choice[g]--;
    }
    if (taken ? t->lpred[h] < 7 : t->lpred[h] > 0)
        t->lpred[h] = (uint8_t)(t->lpred[h] + (taken ? 1 : -1));
    if (taken ? t->gpred[g] < 3 : t->gpred[g] > 0)
        t->gpred[g] = (uint8_t)(t->gpred[g] + (taken ? 1 : -1));
    t->lht[li] = (uint16_t)(((h << 1) | (unsigned)taken) & hmask);
    t->path = ((t->path << 1) | (unsigned)taken) & gmask;
    return pred;
}

/* ---- one cycle -------------------------------------------------------------------- */
static int emit_cycle(pmu_timing *t, const pend *g, unsigned ng, pmu_timing_emit emit,
                      void *ctx, pmu_err *err)
{
    ev67_cycle c;
    memset(&c, 0, sizeof c);
    const uint64_t now = t->now;

    /* map (stage 2): fetched two cycles ago or earlier, in order */
    unsigned mapped = 0;
    while (t->nmapped < t->n) {
        entry *e = at(t, t->nmapped);
        if (e->fetched + 2u > now)
            break;
        if (mapped == t->p[P_MAP_WIDTH])
            break;
        if (t->nmapped >= t->p[P_WINDOW]) {
            /* a full window: every instruction that reached map waits (R7) */
            uint32_t k = t->nmapped, first = e->tag, ns = 0;
            while (k < t->n && ns < 255u) {
                entry *x = at(t, k);
                if (x->fetched + 2u > now || x->tag != first + ns)
                    break;
                ns++, k++;
            }
            c.nstall = (uint8_t)ns;
            c.stall_first = first;
            break;
        }
        /* ready: retire_depth after the fetch it would have had without map stalls */
        uint64_t base = now - 2u;
        e->ready = e->phantom ? NEVER : base + t->p[P_RETIRE_DEPTH] + e->extra;
        if (t->mis && e->tag == t->mis_tag) {
            t->mis_resolve = base + t->p[P_RESOLVE];
            if (e->ready <= t->mis_resolve)
                e->ready = t->mis_resolve + 1u;
        }
        if (e->bc) /* the access reaches the Dcache in stage 6 */
            t->bcm_mask |= 1ull << 4;
        t->nmapped++, mapped++;
    }

    /* fetch */
    int resolving = t->mis && t->mis_resolve == now;
    if (ng) {
        for (unsigned i = 0; i < ng; i++) {
            entry *e = at(t, t->n++);
            memset(e, 0, sizeof *e);
            e->pc = g[i].pc, e->fetched = now, e->ready = NEVER, e->tag = t->next_tag++;
            e->cls = g[i].cls, e->flags = g[i].flags, e->extra = g[i].extra, e->bc = g[i].bc;
            c.fetch[i] = (ev67_fetch){.pc = e->pc, .tag = e->tag, .cls = e->cls, .flags = e->flags};
        }
        c.nfetch = (uint8_t)ng;
    } else if (t->mis && !resolving && t->p[P_WRONG_PATH] &&
               t->n - t->nmapped + EV67_FETCH_MAX <= t->p[P_FETCH_BUFFER] &&
               t->n + EV67_FETCH_MAX < RING) {
        /* the wrong path: the predicted path's fetch block, pc only */
        unsigned k = 0;
        uint64_t pc = t->wrong_pc;
        do {
            entry *e = at(t, t->n++);
            memset(e, 0, sizeof *e);
            e->pc = pc, e->fetched = now, e->ready = NEVER, e->tag = t->next_tag++;
            e->cls = EV67_CLASS_OTHER, e->phantom = 1;
            c.fetch[k++] = (ev67_fetch){.pc = pc, .tag = e->tag, .cls = EV67_CLASS_OTHER, .flags = 0};
            pc += 4u;
        } while (k < EV67_FETCH_MAX && (pc & 15u));
        t->wrong_pc = pc;
        c.nfetch = (uint8_t)k;
    }

    /* trap: the mispredict resolves */
    int abort_from = -1;
    if (resolving) {
        c.trap = 1;
        c.trap_tag = t->mis_tag;
        c.trap_mis = t->mis == 1;
        c.trap_type = t->mis == 1 ? EV67_TRAP_INVALID1 : EV67_TRAP_INVALID9;
        for (uint32_t i = 0; i < t->n; i++)
            if (at(t, i)->tag == t->mis_tag) {
                if (i + 1u < t->n)
                    abort_from = (int)(i + 1u);
                break;
            }
        /* the target's fetch: penalty cycles after the cycle after the branch's fetch
           (HRM §2.2.1), but not before the cycle after the resolve */
        uint64_t pen = t->mis == 1 ? t->p[P_MISPREDICT] : t->p[P_JSR_MISPREDICT];
        uint64_t base = t->mis_resolve - t->p[P_RESOLVE] + 1u + pen; /* stall-free fetch + 1 + pen */
        t->fetch_ready = base > now + 1u ? base : now + 1u;
        t->mis = 0;
        t->mis_resolve = NEVER;
    }

    /* retire and squash, in order */
    uint32_t room = EV67_LIM_RETIRE_ADD_MAX + EV67_LIM_BACKLOG_MAX - t->backlog;
    uint32_t rmax = (uint32_t)t->p[P_RETIRE_WIDTH] < room ? (uint32_t)t->p[P_RETIRE_WIDTH] : room;
    while (t->n && t->nmapped) {
        entry *e = at(t, 0);
        if (e->ready > now)
            break;
        if (e->flags & EV67_FF_SQUASH) {
            if (c.nsquash == EV67_SQUASH_MAX)
                break;
            c.squash[c.nsquash++] = e->tag;
        } else {
            if (c.nretire == rmax)
                break;
            c.retire[c.nretire++] = e->tag;
        }
        t->front = (t->front + 1u) % RING;
        t->n--, t->nmapped--;
        if (abort_from > 0)
            abort_from--;
    }
    uint32_t b = t->backlog + c.nretire;
    t->backlog = b > EV67_LIM_RETIRE_ADD_MAX ? b - EV67_LIM_RETIRE_ADD_MAX : 0;

    /* abort: everything younger than the mispredicted branch */
    if (abort_from >= 0 && (uint32_t)abort_from < t->n) {
        c.abort = 1;
        c.abort_first = at(t, (uint32_t)abort_from)->tag;
        /* killed before map: the unmapped ones, a suffix (map is in order) */
        uint32_t k = t->nmapped > (uint32_t)abort_from ? t->nmapped : (uint32_t)abort_from;
        c.kbm_first = k < t->n ? at(t, k)->tag : t->next_tag;
        t->n = (uint32_t)abort_from;
        if (t->nmapped > t->n)
            t->nmapped = t->n;
    }

    c.bcmiss = (uint8_t)(t->bcm_mask & 1u);
    t->bcm_mask >>= 1;
    c.head = t->n ? at(t, 0)->tag : t->next_tag;
    c.pc = t->n ? at(t, 0)->pc : t->ngrp ? t->grp[0].pc : t->npc;
    c.pc &= EV67_PC_MASK;
    t->now++;
    t->st.cycles++;
    return emit(ctx, &c, err);
}

/* Fetches the open group: waits (empty cycles) until fetch may go on, the group's I-cache
 * or ITB stall, then the group's cycle. */
static int fetch_ready_ok(const pmu_timing *t, unsigned ng)
{
    return !t->mis && t->now >= t->fetch_ready && t->n - t->nmapped + ng <= t->p[P_FETCH_BUFFER] &&
           t->n + ng < RING;
}

static int flush(pmu_timing *t, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    if (!t->ngrp)
        return 0;
    while (!fetch_ready_ok(t, t->ngrp))
        if (emit_cycle(t, NULL, 0, emit, ctx, err))
            return -1;
    if (t->grp_stall) {
        t->fetch_ready = t->now + t->grp_stall;
        t->grp_stall = 0;
        if (t->grp_stall_bc)
            t->bcm_mask |= 1u;
        t->grp_stall_bc = 0;
        while (!fetch_ready_ok(t, t->ngrp))
            if (emit_cycle(t, NULL, 0, emit, ctx, err))
                return -1;
    }
    pend g[EV67_FETCH_MAX];
    unsigned ng = t->ngrp;
    memcpy(g, t->grp, sizeof g);
    t->ngrp = 0;
    if (emit_cycle(t, g, ng, emit, ctx, err))
        return -1;
    if (t->grp_after) {
        t->fetch_ready = t->now + t->grp_after;
        t->grp_after = 0;
    }
    return 0;
}

static int add_slot(pmu_timing *t, const pend *s, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    if (t->ngrp == EV67_FETCH_MAX && flush(t, emit, ctx, err))
        return -1;
    t->grp[t->ngrp++] = *s;
    return 0;
}

/* The Bcache behind an L1 miss: extra cycles, *bc = 1 on a Bcache miss. */
static uint32_t bcache(pmu_timing *t, uint64_t addr, uint8_t *bc)
{
    uint64_t line = addr >> 6, key = line + 1u, *slot = &t->bc_tag[line & (t->bc_lines - 1u)];
    if (*slot == key)
        return (uint32_t)t->p[P_BC_LAT];
    *slot = key;
    *bc = 1;
    t->st.l2_misses++;
    return (uint32_t)t->p[P_MEM_LAT];
}

static int step(pmu_timing *t, const pmu_rinsn *in, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    const uint64_t pc = in->pc & EV67_PC_MASK;
    const uint32_t w = pmu_rinsn_word(in);
    dec d = decode(w);
    t->st.insns++;
    if (!t->p[P_SQUASH_NOPS])
        d.squash = 0;

    /* a new fetch block: close the group; look up the I-cache and the ITB */
    uint64_t block = pc & ~15ull;
    if (t->ngrp && (t->grp_closed || block != t->grp_block)) {
        if (flush(t, emit, ctx, err))
            return -1;
    }
    if (!t->grp_open || t->grp_closed || block != t->grp_block) {
        t->grp_open = 1, t->grp_closed = 0, t->grp_block = block;
        uint8_t icm = 0;
        if (!cache2_access(&t->ic, pc)) {
            t->st.l1i_misses++;
            icm = 1;
            t->grp_stall += bcache(t, pc, &t->grp_stall_bc);
            /* the Icache is virtually addressed: the ITB is looked up on a miss only (HRM
               §2.1.1.3) */
            if (!tlb_access(&t->itb, pc >> t->p[P_PAGE_SHIFT])) {
                t->st.itlb_misses++;
                t->grp_stall += (uint32_t)t->p[P_ITB_MISS];
            }
        }
        t->grp_icm_pending = icm; /* ICM on the block's first instruction */
    }

    pend s = {pc, 0, d.cls, 0, 0};
    if (t->grp_icm_pending) {
        s.flags |= EV67_FF_ICM;
        t->grp_icm_pending = 0;
    }
    if (d.squash) {
        s.flags |= EV67_FF_SQUASH;
        t->st.squashed++;
    }

    /* the memory accesses: of loads and stores only (an UNOP's, if QEMU gives one, is not a
       load) */
    const unsigned nmem = d.cls == EV67_CLASS_LOAD || d.cls == EV67_CLASS_STORE ? in->nmem : 0;
    for (unsigned k = 0; k < nmem && k < PMU_RINSN_MAX_MEM; k++) {
        const pmu_rmem *m = &in->mem[k];
        uint32_t x = 0;
        if (m->store)
            t->st.stores++;
        else
            t->st.loads++;
        if (!tlb_access(&t->dtb, m->addr >> t->p[P_PAGE_SHIFT])) {
            t->st.dtlb_misses++;
            x += (uint32_t)t->p[P_DTB_MISS];
        }
        if (!cache2_access(&t->dc, m->addr)) {
            t->st.l1d_misses++;
            x += bcache(t, m->addr, &s.bc);
        }
        if (!m->store && x > s.extra)
            s.extra = x;
    }
    if (d.cls == EV67_CLASS_LOAD && nmem)
        s.extra += (uint32_t)t->p[P_LOAD_LAT] - 1u;
    if (d.prefetch)
        s.extra = 0; /* a load to r31/f31: a prefetch, nothing waits for it (HRM ch. 2, "Load
                       instructions to R31/F31": software-directed prefetch) */
    if (d.cls == EV67_CLASS_FPOP)
        s.extra += (uint32_t)t->p[P_FP_LAT] - 1u;

    /* control flow */
    const uint64_t fall = pc + 4u, next = in->next_pc & EV67_PC_MASK;
    int ends = next != fall, mispredicted = 0;
    uint64_t predicted = fall;
    if (d.cbr) {
        int taken = next != fall;
        uint64_t disp = (uint64_t)(int64_t)((int32_t)(w << 11) >> 11) * 4u;
        uint64_t target = fall + disp;
        t->st.branches++;
        if (taken) {
            t->st.taken++;
            s.flags |= EV67_FF_TAKEN;
        }
        int pred = predict_update(t, pc, taken);
        predicted = pred ? target : fall;
        if (pred != taken) {
            mispredicted = 1;
            t->st.mispredicts++;
        }
        ends = ends || pred; /* a predicted-taken branch ends the block too */
    } else if (d.cls == EV67_CLASS_BR) {
        ends = 1;
        if (d.call) {
            t->ras[t->ras_top] = fall;
            t->ras_top = (t->ras_top + 1u) % (unsigned)t->p[P_RAS];
        }
    } else if (d.cls == EV67_CLASS_JMP) {
        ends = 1;
        if (d.jmp_kind == 2 || d.jmp_kind == 3) { /* RET, JSR_COROUTINE: the stack */
            t->ras_top = (t->ras_top + (unsigned)t->p[P_RAS] - 1u) % (unsigned)t->p[P_RAS];
            predicted = t->ras[t->ras_top];
        } else {
            uint64_t *j = &t->jtb[(pc >> 2) & (t->p[P_JTB] - 1u)];
            /* untrained: the hint field (target bits 15:2) */
            predicted = *j ? *j : (fall & ~0xffffull) | ((uint64_t)(w & 0x3fffu) << 2);
            *j = next;
        }
        if (d.jmp_kind == 1 || d.jmp_kind == 3) {
            t->ras[t->ras_top] = fall;
            t->ras_top = (t->ras_top + 1u) % (unsigned)t->p[P_RAS];
        }
        if (predicted != next) {
            mispredicted = 2;
            t->st.mispredicts++;
        }
    } else if (d.cls == EV67_CLASS_PAL) {
        ends = 1;
    }

    if (d.cmov) {
        t->st.split++;
        s.flags |= EV67_FF_CMOV1;
        if (add_slot(t, &s, emit, ctx, err))
            return -1;
        s.flags = (uint8_t)((s.flags & ~(EV67_FF_CMOV1 | EV67_FF_ICM)) | EV67_FF_CMOV2);
        s.bc = 0;
    }
    if (add_slot(t, &s, emit, ctx, err))
        return -1;
    if (d.cls == EV67_CLASS_PAL) /* after the group that fetches it */
        t->grp_after = (uint32_t)t->p[P_PAL_PENALTY];
    t->npc = next;
    if (ends)
        t->grp_closed = 1;
    if (mispredicted) {
        if (flush(t, emit, ctx, err)) /* the branch ends its group */
            return -1;
        t->mis = mispredicted;
        t->mis_tag = t->next_tag - 1u;
        t->mis_resolve = NEVER; /* set when it maps */
        t->wrong_pc = predicted;
        while (t->mis) /* the wrong path until the resolve */
            if (emit_cycle(t, NULL, 0, emit, ctx, err))
                return -1;
    }
    return 0;
}

static int finish(pmu_timing *t, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    if (flush(t, emit, ctx, err))
        return -1;
    while (t->n || t->bcm_mask)
        if (emit_cycle(t, NULL, 0, emit, ctx, err))
            return -1;
    return 0;
}

static void stats(const pmu_timing *t, pmu_timing_stats *s) { *s = t->st; }

const pmu_timing_ops ev67_timing = {
    .qemu_arch = "alpha",
    .elf_machine = 0x9026,
    .elf_class = 2,
    .sysroot = "/usr/alpha-linux-gnu",
    .cc = "alpha-linux-gnu-gcc",
    .packages = "qemu-user gcc-alpha-linux-gnu",
    .what = "Alpha 21264/EV67: 4-wide fetch, 80-instruction window, in-order retire, "
            "tournament branch predictor, 64 KB I/D caches, Bcache, ITB/DTB",
    .params = ev67_timing_params,
    .nparams = P_NPARAMS,
    .create = create,
    .step = step,
    .finish = finish,
    .stats = stats,
    .destroy = destroy,
};
