/*
 * ita_timing.c - the Itanium 2 timing model of real programs in IA-32 mode (ita_timing,
 * include/stream/pmu_timing.h; docs/real-programs-ita.md describes the model, every
 * parameter and every choice).
 *
 * No IA-64 toolchain or emulator exists in Debian, so the program is an IA-32 (i386) Linux
 * program run under qemu-i386, and the model is the Itanium 2's hardware IA-32 engine:
 * every record has PSR.is = 1, cpl 3, power NORMAL.  Each retired IA-32 instruction is one
 * slot (ip = its byte address, s = 0, enc = 0: docs/ita-stream-format.md, "Validation").
 *
 * The machine: an in-order engine that retires up to ia32_width instructions a cycle (the
 * retire limit of IA32_INST_RETIRED, maxincr 2 in libpfm-3.10's itanium2_events.h); a taken
 * branch ends its cycle; the stalls (records with nslots = 0) are the instruction-fetch
 * misses (L1I, ITLB), the data misses of loads (L1D, L2, L3, DTLB) and the branch
 * mispredictions.  Caches and TLBs are LRU set-associative / fully associative arrays with
 * the Itanium 2's geometry (McNairy & Soltis, "Itanium 2 Processor Microarchitecture",
 * IEEE Micro 23(2), 2003; Lyon et al., "Data Cache Design Considerations for the Itanium 2
 * Processor", ICCD 2002; the measured latencies of 7-cpu.com/cpu/Itanium2.html:
 * docs/real-programs-ita.md, "Sources").  O(1) work per instruction
 * (the loops run over a set's ways or a TLB's entries, bounded by the parameters), no
 * allocation after create.
 */
#include <stdlib.h>
#include <string.h>

#include "common/ita/ita_cycle.h"
#include "common/ita/ita_events.h"
#include "stream/pmu_timing.h"
#include "ita_stream.h"

/* ---- parameters ---------------------------------------------------------------------- */
enum {
    P_WIDTH, P_MISPRED, P_BTB_BUBBLE,
    P_L1I_SIZE, P_L1I_WAYS, P_L1I_LINE,
    P_L1D_SIZE, P_L1D_WAYS, P_L1D_LINE,
    P_L2_SIZE, P_L2_WAYS, P_L2_LINE,
    P_L3_SIZE, P_L3_WAYS, P_L3_LINE,
    P_L1D_LAT, P_L2_LAT, P_L3_LAT, P_MEM_LAT,
    P_L1DTLB, P_L2DTLB, P_L1ITLB, P_L2ITLB, P_L1TLB_PAGE, P_PAGE,
    P_L2TLB_PEN, P_VHPT_PEN,
    P_BP_ENTRIES, P_BTB_ENTRIES, P_RSB,
    P_N
};

#define MCK "McNairy & Soltis, IEEE Micro 23(2) 2003 (Itanium 2 microarchitecture)"
#define LYON "Lyon, Delano, McNairy & Mulla, ICCD 2002 (Itanium 2 data cache)"

static const pmu_timing_param ita_tparams[P_N] = {
    [P_WIDTH] = {"ia32_width", 2, 1, 2, "IA-32 instructions retired per cycle at most",
                 "libpfm-3.10 itanium2_events.h: IA32_INST_RETIRED maxincr 2"},
    [P_MISPRED] = {"mispred_penalty", 6, 0, 1000, "stall cycles after a mispredicted branch",
                   "choice (Itanium 2 IA-64 pipeline's 6-cycle branch resteer, " MCK "): docs/real-programs-ita.md"},
    [P_BTB_BUBBLE] = {"taken_bubble", 0, 0, 100, "stall cycles after every correctly predicted taken branch",
                      "choice: docs/real-programs-ita.md"},
    [P_L1I_SIZE] = {"l1i_size", 16384, 1024, 1u << 24, "L1 I-cache size, bytes", MCK},
    [P_L1I_WAYS] = {"l1i_ways", 4, 1, 32, "L1 I-cache associativity", MCK},
    [P_L1I_LINE] = {"l1i_line", 64, 16, 1024, "L1 I-cache line, bytes (power of 2)", MCK},
    [P_L1D_SIZE] = {"l1d_size", 16384, 1024, 1u << 24, "L1 D-cache size, bytes", MCK},
    [P_L1D_WAYS] = {"l1d_ways", 4, 1, 32, "L1 D-cache associativity", MCK},
    [P_L1D_LINE] = {"l1d_line", 64, 16, 1024, "L1 D-cache line, bytes (power of 2)", MCK},
    [P_L2_SIZE] = {"l2_size", 262144, 4096, 1u << 28, "L2 (unified) size, bytes", MCK},
    [P_L2_WAYS] = {"l2_ways", 8, 1, 32, "L2 associativity", MCK},
    [P_L2_LINE] = {"l2_line", 128, 16, 1024, "L2 line, bytes (power of 2)", MCK},
    [P_L3_SIZE] = {"l3_size", 3u << 20, 0, 1ull << 32, "L3 size, bytes (0: no L3)", MCK " (3 MB part)"},
    [P_L3_WAYS] = {"l3_ways", 12, 1, 32, "L3 associativity", MCK},
    [P_L3_LINE] = {"l3_line", 128, 16, 1024, "L3 line, bytes (power of 2)", MCK},
    [P_L1D_LAT] = {"l1d_lat", 1, 1, 100, "load latency of an L1D hit, cycles", LYON " (1-cycle L1D)"},
    [P_L2_LAT] = {"l2_lat", 5, 1, 1000, "latency of an L1 miss served by L2, cycles", MCK " (5-cycle L2)"},
    [P_L3_LAT] = {"l3_lat", 12, 1, 5000, "latency of an L2 miss served by L3, cycles", MCK " (12-cycle L3)"},
    [P_MEM_LAT] = {"mem_lat", 208, 1, 60000, "latency of an L3 miss (memory), cycles",
                   "7-cpu.com/cpu/Itanium2.html: RAM +160 ns at 1.3 GHz (Madison)"},
    [P_L1DTLB] = {"l1dtlb_entries", 32, 1, 1024, "L1 DTLB entries (fully associative)", MCK},
    [P_L2DTLB] = {"l2dtlb_entries", 128, 1, 4096, "L2 DTLB entries (fully associative)", MCK},
    [P_L1ITLB] = {"l1itlb_entries", 32, 1, 1024, "L1 ITLB entries (fully associative)", MCK},
    [P_L2ITLB] = {"l2itlb_entries", 128, 1, 4096, "L2 ITLB entries (fully associative)", MCK},
    [P_L1TLB_PAGE] = {"l1tlb_page", 4096, 4096, 1u << 28, "page an L1 TLB entry maps, bytes (power of 2)",
                      MCK " (the L1 TLBs hold 4 KB pages)"},
    [P_PAGE] = {"page_size", 16384, 4096, 1u << 28, "page an L2 TLB entry maps, bytes (power of 2)",
                "choice: Linux/ia64 default page size 16 KB (CONFIG_IA64_PAGE_SIZE_16KB)"},
    [P_L2TLB_PEN] = {"l2tlb_penalty", 4, 1, 1000, "stall of an L1 TLB miss that hits the L2 TLB, cycles",
                     "7-cpu.com/cpu/Itanium2.html: +4 (L1-TLB miss -> L2-TLB hit)"},
    [P_VHPT_PEN] = {"vhpt_penalty", 15, 1, 10000, "stall of an L2 TLB miss (hardware VHPT walk), cycles",
                    "7-cpu.com/cpu/Itanium2.html: +15 (L2-TLB miss -> VHPT walker to L2)"},
    [P_BP_ENTRIES] = {"bp_entries", 1024, 1, 1u << 20, "2-bit direction counters (indexed by ip)",
                      "choice: docs/real-programs-ita.md"},
    [P_BTB_ENTRIES] = {"btb_entries", 256, 1, 1u << 20, "indirect-target entries (direct-mapped, tagged by ip)",
                       "choice: docs/real-programs-ita.md"},
    [P_RSB] = {"rsb_depth", 8, 1, 64, "return stack entries", "choice: docs/real-programs-ita.md"},
};

/* ---- caches and TLBs ----------------------------------------------------------------- */
typedef struct cache {
    uint64_t *tag;    /* sets * ways, line number + 1 (0 = empty) */
    uint64_t *stamp;  /* LRU: last use */
    uint64_t sets, clock;
    unsigned ways, shift;
} cache;

typedef struct tlb {
    uint64_t *tag;    /* page number + 1 */
    uint64_t *stamp;
    uint64_t clock;
    unsigned n, shift, last; /* last: the entry of the previous hit (fast path) */
} tlb;

static unsigned log2u(uint64_t v)
{
    unsigned s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static int cache_init(cache *c, uint64_t size, uint64_t ways, uint64_t line)
{
    c->ways = (unsigned)ways;
    c->shift = log2u(line);
    c->sets = size / (ways * line);
    if (c->sets == 0)
        c->sets = 1;
    c->tag = calloc(c->sets * ways, sizeof *c->tag);
    c->stamp = calloc(c->sets * ways, sizeof *c->stamp);
    return c->tag && c->stamp ? 0 : -1;
}

/* 1 on a hit; on a miss the line is filled (when fill) over the LRU way. */
static int cache_access(cache *c, uint64_t addr, int fill)
{
    const uint64_t line = addr >> c->shift, t = line + 1;
    const uint64_t base = (line % c->sets) * c->ways;
    unsigned victim = 0;
    c->clock++;
    for (unsigned w = 0; w < c->ways; w++) {
        if (c->tag[base + w] == t) {
            c->stamp[base + w] = c->clock;
            return 1;
        }
        if (c->stamp[base + w] < c->stamp[base + victim])
            victim = w;
    }
    if (fill) {
        c->tag[base + victim] = t;
        c->stamp[base + victim] = c->clock;
    }
    return 0;
}

static int tlb_init(tlb *t, uint64_t n, uint64_t page)
{
    t->n = (unsigned)n;
    t->shift = log2u(page);
    t->tag = calloc(n, sizeof *t->tag);
    t->stamp = calloc(n, sizeof *t->stamp);
    return t->tag && t->stamp ? 0 : -1;
}

/* 1 on a hit; a miss inserts the page over the LRU entry. */
static int tlb_access(tlb *t, uint64_t addr)
{
    const uint64_t tg = (addr >> t->shift) + 1;
    t->clock++;
    if (t->tag[t->last] == tg) {
        t->stamp[t->last] = t->clock;
        return 1;
    }
    unsigned victim = 0;
    for (unsigned i = 0; i < t->n; i++) {
        if (t->tag[i] == tg) {
            t->stamp[i] = t->clock;
            t->last = i;
            return 1;
        }
        if (t->stamp[i] < t->stamp[victim])
            victim = i;
    }
    t->tag[victim] = tg;
    t->stamp[victim] = t->clock;
    t->last = victim;
    return 0;
}

/* ---- the model ----------------------------------------------------------------------- */
/* The general events it emits (stream event ids, resolved in create). */
enum { X_IA32_RET, X_L1I_FILLS, X_ITLB_L1, X_ITLB_L2, X_DTLB_XFER, X_DTLB_L2, X_L3_REF, X_L3_MISS, X_N };
static const char *const xev_names[X_N] = {
    [X_IA32_RET] = "IA32_INST_RETIRED", [X_L1I_FILLS] = "L1I_FILLS",
    [X_ITLB_L1] = "ITLB_MISSES_FETCH_L1ITLB", [X_ITLB_L2] = "ITLB_MISSES_FETCH_L2ITLB",
    [X_DTLB_XFER] = "L1DTLB_TRANSFER", [X_DTLB_L2] = "L2DTLB_MISSES",
    [X_L3_REF] = "L3_REFERENCES", [X_L3_MISS] = "L3_MISSES",
};

struct pmu_timing {
    uint64_t p[P_N];
    cache l1i, l1d, l2, l3;
    tlb l1dtlb, l2dtlb, l1itlb, l2itlb;
    uint8_t *bp;        /* 2-bit counters */
    uint64_t *btb;      /* [2*i] ip + 1, [2*i+1] target */
    uint64_t rsb[64];
    unsigned rsb_top, rsb_n;
    uint16_t xid[X_N];
    uint64_t last_iline; /* the L1I line of the previous fetch + 1 (a hit by construction) */
    ita_cycle cur;      /* the cycle being filled */
    uint16_t pid;
    pmu_timing_stats st;
};

static void cycle_base(const pmu_timing *t, ita_cycle *c)
{
    memset(c, 0, sizeof *c);
    c->cpl = 3;
    c->is = 1;
    c->power = ITA_POWER_NORMAL;
    c->pid = t->pid;
}

static int emit_rec(pmu_timing *t, const ita_cycle *c, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    t->st.cycles++;
    return emit(ctx, c, err);
}

/* Emits the cycle being filled, when it retired something. */
static int flush(pmu_timing *t, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    if (t->cur.nslots == 0)
        return 0;
    ita_cycle *c = &t->cur;
    /* IA32_INST_RETIRED: the cycle's retired IA-32 instructions, unattributed (its iar is 0). */
    c->xev[c->nxev++] = (ita_xev){t->xid[X_IA32_RET], c->nslots, ITA_XEV_NO_SLOT};
    int rc = emit_rec(t, c, emit, ctx, err);
    cycle_base(t, c);
    return rc;
}

/* n stall cycles.  The general events ev[0..nev) (unattributed) are packed into the first
 * of them, each cycle taking at most ITA_MAX_XEV and each id at most once (every event
 * emitted here has maxincr 1 or more); the cycle at index fetch_at (when < n) carries the
 * completed fetch (the I-EAR's if_addr, if_lat, if_tlb).  The caller gives at least as many
 * cycles as it has events of one id. */
static int stall(pmu_timing *t, uint64_t n, const ita_xev *ev, unsigned nev, uint64_t fetch_at,
                 const ita_cycle *fetch, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    ita_cycle c;
    uint32_t placed = 0; /* bit i: ev[i] emitted */
    for (uint64_t k = 0; k < n; k++) {
        cycle_base(t, &c);
        for (unsigned i = 0; i < nev && c.nxev < ITA_MAX_XEV; i++) {
            if (placed & (1u << i))
                continue;
            int dup = 0;
            for (unsigned j = 0; j < c.nxev; j++)
                dup |= c.xev[j].id == ev[i].id;
            if (dup)
                continue;
            c.xev[c.nxev++] = ev[i];
            placed |= 1u << i;
        }
        if (k == fetch_at) {
            c.if_addr = fetch->if_addr;
            c.if_lat = fetch->if_lat;
            c.if_tlb = fetch->if_tlb;
        }
        if (emit_rec(t, &c, emit, ctx, err) != 0)
            return -1;
    }
    return 0;
}

/* ---- IA-32 decoding ------------------------------------------------------------------ */
enum { K_OTHER, K_JCC, K_LOOP, K_JMP, K_CALL, K_JMP_IND, K_CALL_IND, K_RET, K_FP };

static unsigned classify(const pmu_rinsn *in)
{
    unsigned i = 0;
    const unsigned n = in->size < PMU_RINSN_MAX_BYTES ? in->size : PMU_RINSN_MAX_BYTES;
    /* legacy prefixes: operand/address size, rep, lock, segment overrides */
    while (i < n) {
        const uint8_t b = in->bytes[i];
        if (b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 ||
            b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65)
            i++;
        else
            break;
    }
    if (i >= n)
        return K_OTHER;
    const uint8_t op = in->bytes[i];
    if (op >= 0x70 && op <= 0x7f)
        return K_JCC;
    if (op >= 0xe0 && op <= 0xe3)
        return K_LOOP;
    if (op == 0xe9 || op == 0xeb)
        return K_JMP;
    if (op == 0xe8)
        return K_CALL;
    if (op == 0xc3 || op == 0xc2)
        return K_RET;
    if (op >= 0xd8 && op <= 0xdf)
        return K_FP; /* x87 escape */
    if (op == 0xff && i + 1 < n) {
        const unsigned reg = (in->bytes[i + 1] >> 3) & 7;
        if (reg == 2 || reg == 3)
            return K_CALL_IND;
        if (reg == 4 || reg == 5)
            return K_JMP_IND;
        return K_OTHER;
    }
    if (op == 0x0f && i + 1 < n) {
        const uint8_t op2 = in->bytes[i + 1];
        if (op2 >= 0x80 && op2 <= 0x8f)
            return K_JCC;
        /* SSE/SSE2/MMX arithmetic and moves (0F 10-17, 28-2F, 50-7F, C2-C6, D0-FF) */
        if ((op2 >= 0x10 && op2 <= 0x17) || (op2 >= 0x28 && op2 <= 0x2f) || (op2 >= 0x50 && op2 <= 0x7f) ||
            (op2 >= 0xc2 && op2 <= 0xc6) || op2 >= 0xd0)
            return K_FP;
    }
    return K_OTHER;
}

/* ---- one data access ----------------------------------------------------------------- */
typedef struct access_out {
    uint16_t lat;   /* load-to-use latency */
    uint8_t tlb;    /* enum ita_tlb */
    uint8_t l1d_miss, l2_ref, l2_miss, l3_ref, l3_miss;
    uint64_t tlb_stall;
} access_out;

static void data_access(pmu_timing *t, const pmu_rmem *m, access_out *o)
{
    memset(o, 0, sizeof *o);
    /* DTLB: the L1 DTLB (4 KB entries), behind it the L2 DTLB, then the VHPT walker. */
    if (!tlb_access(&t->l1dtlb, m->addr)) {
        if (tlb_access(&t->l2dtlb, m->addr)) {
            o->tlb = ITA_TLB_L2;
            o->tlb_stall = t->p[P_L2TLB_PEN];
        } else {
            o->tlb = ITA_TLB_VHPT;
            o->tlb_stall = t->p[P_VHPT_PEN];
        }
    }
    uint64_t lat = t->p[P_L1D_LAT];
    int go_l2;
    if (m->store) {
        /* L1D is write-through without write-allocate: every store goes to L2; a store
         * that hits L1D updates its line (its LRU is not touched). */
        go_l2 = 1;
    } else {
        go_l2 = !cache_access(&t->l1d, m->addr, 1);
        o->l1d_miss = (uint8_t)go_l2;
    }
    if (go_l2) {
        o->l2_ref = 1;
        if (!cache_access(&t->l2, m->addr, 1)) {
            o->l2_miss = 1;
            if (t->p[P_L3_SIZE]) {
                o->l3_ref = 1;
                if (!cache_access(&t->l3, m->addr, 1)) {
                    o->l3_miss = 1;
                    lat = t->p[P_MEM_LAT];
                } else {
                    lat = t->p[P_L3_LAT];
                }
            } else {
                lat = t->p[P_MEM_LAT];
            }
        } else {
            lat = t->p[P_L2_LAT];
        }
    }
    o->lat = (uint16_t)(lat > 65535 ? 65535 : lat);
}

/* ---- step ---------------------------------------------------------------------------- */
/* Whether slot s (with its events) fits the cycle being filled (docs/ita-stream-format.md,
 * "Per cycle": loads 4, stores 2, L1D read misses 2, L2 misses 1, L2 references 4, branches
 * 3; general events 4, each within its maxincr). */
static int fits(const pmu_timing *t, const ita_slot *s, unsigned nev)
{
    const ita_cycle *c = &t->cur;
    if (c->nslots == 0)
        return 1;
    if (c->nslots >= t->p[P_WIDTH] || c->nslots >= ITA_MAX_SLOTS)
        return 0;
    unsigned loads = 0, stores = 0, l1m = 0, l2m = 0, l2r = 0, l3 = 0, dtlb = 0;
    for (unsigned k = 0; k <= c->nslots; k++) {
        const ita_slot *x = k < c->nslots ? &c->slot[k] : s;
        loads += ITA_SLOT_GET(x, LOAD);
        stores += ITA_SLOT_GET(x, STORE);
        l1m += ITA_SLOT_GET(x, L1D_MISS);
        l2m += ITA_SLOT_GET(x, L2_MISS);
        l2r += ITA_SLOT_GET(x, L2_REF);
    }
    for (unsigned k = 0; k < c->nxev; k++) {
        if (c->xev[k].id == t->xid[X_L3_REF] || c->xev[k].id == t->xid[X_L3_MISS])
            l3++;
        if (c->xev[k].id == t->xid[X_DTLB_XFER])
            dtlb++;
    }
    /* The new slot's events: L3 references and L1DTLB_TRANSFER have maxincr 1. */
    const int s_l3 = ITA_SLOT_GET(s, L2_MISS) != 0;
    const int s_xfer = s->tlb == ITA_TLB_L2;
    if (loads > 4 || stores > 2 || l1m > 2 || l2m > 1 || l2r > 4)
        return 0;
    if ((l3 && s_l3) || (dtlb && s_xfer))
        return 0;
    /* + 1: IA32_INST_RETIRED, added when the cycle is emitted */
    return c->nxev + nev + 1 <= ITA_MAX_XEV;
}

static int ita_step(pmu_timing *t, const pmu_rinsn *in, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    t->st.insns++;
    t->pid = (uint16_t)in->pid; /* the record's pid is 16 bits */
    if (t->cur.nslots == 0)
        t->cur.pid = t->pid;
    else if (t->cur.pid != t->pid && flush(t, emit, ctx, err) != 0)
        return -1;

    /* ---- fetch: the ITLB, then the L1I line(s) the instruction covers ---- */
    ita_cycle fetch;
    memset(&fetch, 0, sizeof fetch);
    ita_xev fev[16]; /* at most 2 lines x (2 ITLB + 3 L1I/L3 events) */
    unsigned nfev = 0;
    uint64_t fstall = 0;
    const uint64_t first = in->pc >> t->l1i.shift;
    const uint64_t last = (in->pc + (in->size ? in->size - 1u : 0u)) >> t->l1i.shift;
    for (uint64_t line = first; line <= last; line++) {
        if (line + 1 == t->last_iline)
            continue;
        t->last_iline = line + 1;
        const uint64_t a = line << t->l1i.shift;
        if (!tlb_access(&t->l1itlb, a)) {
            t->st.itlb_misses++;
            fev[nfev++] = (ita_xev){t->xid[X_ITLB_L1], 1, ITA_XEV_NO_SLOT};
            if (tlb_access(&t->l2itlb, a)) {
                fetch.if_tlb = ITA_TLB_L2;
                fstall += t->p[P_L2TLB_PEN];
            } else {
                fetch.if_tlb = ITA_TLB_VHPT;
                fstall += t->p[P_VHPT_PEN];
                fev[nfev++] = (ita_xev){t->xid[X_ITLB_L2], 1, ITA_XEV_NO_SLOT};
            }
        }
        if (!cache_access(&t->l1i, a, 1)) {
            t->st.l1i_misses++;
            uint64_t lat = t->p[P_L2_LAT];
            fev[nfev++] = (ita_xev){t->xid[X_L1I_FILLS], 1, ITA_XEV_NO_SLOT};
            if (!cache_access(&t->l2, a, 1)) {
                lat = t->p[P_MEM_LAT];
                if (t->p[P_L3_SIZE]) {
                    const int hit3 = cache_access(&t->l3, a, 1);
                    lat = hit3 ? t->p[P_L3_LAT] : t->p[P_MEM_LAT];
                    fev[nfev++] = (ita_xev){t->xid[X_L3_REF], 1, ITA_XEV_NO_SLOT};
                    if (!hit3)
                        fev[nfev++] = (ita_xev){t->xid[X_L3_MISS], 1, ITA_XEV_NO_SLOT};
                }
            }
            fetch.if_lat = (uint16_t)(fetch.if_lat + lat > 65535 ? 65535 : fetch.if_lat + lat);
            fstall += lat;
        }
    }
    if (fetch.if_lat || fetch.if_tlb)
        fetch.if_addr = in->pc;

    /* ---- the slot ---- */
    ita_slot s;
    memset(&s, 0, sizeof s);
    s.ip = in->pc;
    const unsigned kind = classify(in);
    s.unit = ITA_UNIT_I;
    if (kind == K_FP)
        s.unit = ITA_UNIT_F;

    /* ---- data: every access goes through the DTLB and the caches; the first load (else
     * the first store) is the one the slot reports ---- */
    uint64_t dstall = 0;
    int rep = -1;
    for (unsigned k = 0; k < in->nmem && k < PMU_RINSN_MAX_MEM; k++)
        if (!in->mem[k].store) {
            rep = (int)k;
            break;
        }
    if (rep < 0 && in->nmem)
        rep = 0;
    ita_xev sev[ITA_MAX_XEV];
    unsigned nsev = 0;
    int has_load = 0, has_store = 0;
    for (unsigned k = 0; k < in->nmem && k < PMU_RINSN_MAX_MEM; k++) {
        access_out o;
        data_access(t, &in->mem[k], &o);
        if (in->mem[k].store)
            has_store = 1;
        else
            has_load = 1;
        dstall += o.tlb_stall;
        if (!in->mem[k].store && o.lat > t->p[P_L1D_LAT])
            dstall += o.lat - t->p[P_L1D_LAT];
        if ((int)k != rep)
            continue;
        s.daddr = in->mem[k].addr;
        s.lat = o.lat;
        s.tlb = o.tlb;
        if (!in->mem[k].store && o.l1d_miss)
            s.flags |= ITA_SF_L1D_MISS_MASK;
        if (o.l2_ref)
            s.flags |= ITA_SF_L2_REF_MASK;
        if (o.l2_miss)
            s.flags |= ITA_SF_L2_MISS_MASK;
        if (o.tlb == ITA_TLB_L2)
            sev[nsev++] = (ita_xev){t->xid[X_DTLB_XFER], 1, 0};
        if (o.tlb == ITA_TLB_VHPT)
            sev[nsev++] = (ita_xev){t->xid[X_DTLB_L2], 1, 0};
        if (o.l3_ref)
            sev[nsev++] = (ita_xev){t->xid[X_L3_REF], 1, 0};
        if (o.l3_miss)
            sev[nsev++] = (ita_xev){t->xid[X_L3_MISS], 1, 0};
    }
    if (in->nmem) {
        s.unit = ITA_UNIT_M;
        /* the slot is a load when it loads, a store when it stores (a read-modify-write both) */
        if (has_load)
            s.flags |= ITA_SF_LOAD_MASK;
        if (has_store)
            s.flags |= ITA_SF_STORE_MASK;
        if (!has_load)
            s.lat = 0; /* a store's latency: none (the D-EAR's cache mode takes loads only) */
    }

    /* ---- branches ---- */
    const int taken = in->next_pc != in->pc + in->size;
    int mispred = 0;
    if (kind >= K_JCC && kind <= K_RET) {
        s.unit = ITA_UNIT_B;
        unsigned br = 1, pred = 1;
        if (kind == K_RET)
            br = 2;
        else if (kind == K_JMP_IND || kind == K_CALL_IND)
            br = 3;
        if (kind == K_JCC || kind == K_LOOP) {
            t->st.branches++;
            t->st.taken += (uint64_t)taken;
            uint8_t *ctr = &t->bp[in->pc % t->p[P_BP_ENTRIES]];
            const int ptaken = *ctr >= 2;
            if (ptaken != taken)
                pred = 2;
            if (taken && *ctr < 3)
                (*ctr)++;
            else if (!taken && *ctr > 0)
                (*ctr)--;
        } else if (kind == K_RET) {
            uint64_t ptgt = 0;
            if (t->rsb_n) {
                ptgt = t->rsb[t->rsb_top];
                t->rsb_top = (t->rsb_top + (unsigned)t->p[P_RSB] - 1) % (unsigned)t->p[P_RSB];
                t->rsb_n--;
            }
            if (ptgt != in->next_pc)
                pred = 3;
        } else if (kind == K_JMP_IND || kind == K_CALL_IND) {
            uint64_t *e = &t->btb[2 * (in->pc % t->p[P_BTB_ENTRIES])];
            if (!(e[0] == in->pc + 1 && e[1] == in->next_pc))
                pred = 3;
            e[0] = in->pc + 1;
            e[1] = in->next_pc;
        }
        /* direct JMP and CALL: the target is in the instruction, predicted right (pred 1) */
        if (kind == K_CALL || kind == K_CALL_IND) {
            t->rsb_top = (t->rsb_top + 1) % (unsigned)t->p[P_RSB];
            t->rsb[t->rsb_top] = in->pc + in->size;
            if (t->rsb_n < t->p[P_RSB])
                t->rsb_n++;
        }
        mispred = pred != 1;
        t->st.mispredicts += (uint64_t)mispred;
        s.flags |= (uint16_t)(br << ITA_SF_BR_TYPE_LSB) | (uint16_t)(pred << ITA_SF_BR_PRED_LSB);
        if (taken) {
            s.flags |= ITA_SF_TAKEN_MASK;
            s.target = in->next_pc;
        }
    }

    if (ITA_SLOT_GET(&s, LOAD))
        t->st.loads++;
    if (ITA_SLOT_GET(&s, STORE))
        t->st.stores++;
    t->st.l1d_misses += ITA_SLOT_GET(&s, L1D_MISS);
    t->st.l2_misses += ITA_SLOT_GET(&s, L2_MISS);
    t->st.dtlb_misses += s.tlb != ITA_TLB_L1;

    /* ---- timing: stalls before the instruction retires, then its slot ---- */
    const uint64_t total = fstall + dstall;
    if (total || !fits(t, &s, nsev)) {
        if (flush(t, emit, ctx, err) != 0)
            return -1;
    }
    if (total) {
        const uint64_t fetch_at = (fetch.if_lat || fetch.if_tlb) ? (fstall ? fstall - 1 : 0) : UINT64_MAX;
        if (stall(t, total, fev, nfev, fetch_at, &fetch, emit, ctx, err) != 0)
            return -1;
    }
    ita_cycle *c = &t->cur;
    const uint8_t idx = c->nslots;
    c->slot[idx] = s;
    c->nslots++;
    c->pid = t->pid;
    for (unsigned k = 0; k < nsev; k++) {
        sev[k].slot = idx;
        c->xev[c->nxev++] = sev[k];
    }
    /* a taken branch ends the cycle (the fetch is redirected); a misprediction adds its
     * penalty */
    if (taken && (kind >= K_JCC && kind <= K_RET)) {
        if (flush(t, emit, ctx, err) != 0)
            return -1;
        const uint64_t pen = mispred ? t->p[P_MISPRED] : t->p[P_BTB_BUBBLE];
        if (stall(t, pen, NULL, 0, UINT64_MAX, NULL, emit, ctx, err) != 0)
            return -1;
    } else if (mispred) {
        if (flush(t, emit, ctx, err) != 0 || stall(t, t->p[P_MISPRED], NULL, 0, UINT64_MAX, NULL, emit, ctx, err) != 0)
            return -1;
    }
    return 0;
}

static int ita_finish(pmu_timing *t, pmu_timing_emit emit, void *ctx, pmu_err *err)
{
    return flush(t, emit, ctx, err);
}

static void ita_stats(const pmu_timing *t, pmu_timing_stats *s) { *s = t->st; }

static void ita_destroy(pmu_timing *t)
{
    if (!t)
        return;
    cache *cs[] = {&t->l1i, &t->l1d, &t->l2, &t->l3};
    for (unsigned i = 0; i < 4; i++) {
        free(cs[i]->tag);
        free(cs[i]->stamp);
    }
    tlb *ts[] = {&t->l1dtlb, &t->l2dtlb, &t->l1itlb, &t->l2itlb};
    for (unsigned i = 0; i < 4; i++) {
        free(ts[i]->tag);
        free(ts[i]->stamp);
    }
    free(t->bp);
    free(t->btb);
    free(t);
}

static pmu_timing *ita_create(const uint64_t *value, pmu_err *err)
{
    if (pmu_timing_check(&ita_timing, value, err))
        return NULL;
    static const unsigned pow2[] = {P_L1I_LINE, P_L1D_LINE, P_L2_LINE, P_L3_LINE, P_L1TLB_PAGE, P_PAGE};
    for (unsigned k = 0; k < sizeof pow2 / sizeof pow2[0]; k++)
        if (!is_pow2(value[pow2[k]])) {
            pmu_errf(err, PMU_E_INPUT, "timing parameter %s=%llu: expected a power of 2", ita_tparams[pow2[k]].name,
                     (unsigned long long)value[pow2[k]]);
            return NULL;
        }
    pmu_timing *t = calloc(1, sizeof *t);
    if (!t) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory for the Itanium timing model");
        return NULL;
    }
    memcpy(t->p, value, sizeof t->p);
    for (unsigned k = 0; k < X_N; k++) {
        const int id = ita_event_id_find(xev_names[k]);
        if (id < 0) {
            ita_destroy(t);
            pmu_errf(err, PMU_E_INTERNAL, "event %s missing from the Itanium event tables", xev_names[k]);
            return NULL;
        }
        t->xid[k] = (uint16_t)id;
    }
    const uint64_t *v = value;
    int bad = cache_init(&t->l1i, v[P_L1I_SIZE], v[P_L1I_WAYS], v[P_L1I_LINE]) |
              cache_init(&t->l1d, v[P_L1D_SIZE], v[P_L1D_WAYS], v[P_L1D_LINE]) |
              cache_init(&t->l2, v[P_L2_SIZE], v[P_L2_WAYS], v[P_L2_LINE]) |
              cache_init(&t->l3, v[P_L3_SIZE] ? v[P_L3_SIZE] : 1, v[P_L3_WAYS], v[P_L3_LINE]) |
              tlb_init(&t->l1dtlb, v[P_L1DTLB], v[P_L1TLB_PAGE]) | tlb_init(&t->l2dtlb, v[P_L2DTLB], v[P_PAGE]) |
              tlb_init(&t->l1itlb, v[P_L1ITLB], v[P_L1TLB_PAGE]) | tlb_init(&t->l2itlb, v[P_L2ITLB], v[P_PAGE]);
    t->bp = calloc(v[P_BP_ENTRIES], 1);
    t->btb = calloc(2 * v[P_BTB_ENTRIES], sizeof *t->btb);
    if (bad || !t->bp || !t->btb) {
        ita_destroy(t);
        pmu_errf(err, PMU_E_NOMEM, "out of memory for the Itanium timing model's caches");
        return NULL;
    }
    /* the direction counters start weakly not-taken (1) */
    memset(t->bp, 1, v[P_BP_ENTRIES]);
    cycle_base(t, &t->cur);
    return t;
}

const pmu_timing_ops ita_timing = {
    .qemu_arch = "i386",
    .elf_machine = 3, /* EM_386 */
    .elf_class = 1,   /* ELFCLASS32 */
    .sysroot = "/usr/i686-linux-gnu",
    .cc = "i686-linux-gnu-gcc",
    .packages = "qemu-user gcc-i686-linux-gnu",
    .what = "Itanium 2 in IA-32 mode (PSR.is=1): in-order IA-32 engine, up to 2 insns/cycle, "
            "L1I/L1D/L2/L3, 2-level TLBs, 2-bit predictor",
    .params = ita_tparams,
    .nparams = P_N,
    .create = ita_create,
    .step = ita_step,
    .finish = ita_finish,
    .stats = ita_stats,
    .destroy = ita_destroy,
};
