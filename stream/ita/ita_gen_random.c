/*
 * ita_gen_random.c - RANDOM mode (docs/ita-stream-format.md, "RANDOM mode"): every field
 * random within validity, for lock-step fuzzing, and the hot edges that aim a third of
 * the slots at the places where range checks and opcode matches are decided ("Hot
 * edges").
 */
#include <string.h>

#include "stream/ita/ia64_enc.h"
#include "ita_gen.h"
#include "ita_stream.h"

/* ---- RANDOM mode ----------------------------------------------------------------------- */
/* Mostly near the regions the workload uses (so IBR/DBR ranges see hits), sometimes anywhere. */
static uint64_t random_addr(pmu_rng *r)
{
    static const uint64_t bases[] = {0x4000000000000000ull, 0x2000000000000000ull,
                                     0xe000000000000000ull, 0x6000000000000000ull, 0};
    if (pmu_rng_chance(r, 400))
        return pmu_rng_next(r);
    return bases[pmu_rng_below(r, 5)] + pmu_rng_below(r, 1u << 16);
}

static void random_slot(ita_gen *g, const ita_cycle *c, ita_slot *s, counts *n,
                        const counts *lim)
{
    pmu_rng *r = &g->r;
    int ia64 = c->is == 0;
    memset(s, 0, sizeof *s);
    if (ia64)
        s->ip = random_addr(r) & ~(uint64_t)15;
    else
        s->ip = pmu_rng_chance(r, 600) ? (uint32_t)pmu_rng_next(r) : random_addr(r);
    s->slot = ia64 ? (uint8_t)pmu_rng_below(r, 3) : 0;
    s->unit = (uint8_t)pmu_rng_below(r, 4);
    if (ia64 && pmu_rng_chance(r, 900))
        s->enc = pmu_rng_next(r) & IA64_ENC_ALL;
    unsigned p = (unsigned)pmu_rng_below(r, 100);
    s->lat = (uint16_t)(p < 50 ? pmu_rng_below(r, 32) : p < 90 ? pmu_rng_below(r, 1024) : pmu_rng_below(r, 65536));
    s->tlb = (uint8_t)pmu_rng_below(r, 4);

    unsigned cls = (unsigned)pmu_rng_below(r, 100);
    if (cls < 10) {
        s->flags = (uint16_t)(FLAG(NOP) | (pmu_rng_chance(r, 200) ? FLAG(PRED_OFF) : 0));
    } else if (cls < 20) {
        s->flags = FLAG(PRED_OFF);
    } else {
        int load = pmu_rng_chance(r, 400) && n->load < lim->load;
        int store = pmu_rng_chance(r, 250) && n->store < lim->store;
        int fp = pmu_rng_chance(r, 250) && n->fp < lim->fp;
        unsigned br = pmu_rng_chance(r, 250) && n->br < lim->br ? (unsigned)pmu_rng_range(r, 1, 3) : 0;
        if (load) {
            s->flags |= FLAG(LOAD);
            if (pmu_rng_chance(r, 300) && n->l1d < lim->l1d)
                s->flags |= FLAG(L1D_MISS);
            if (pmu_rng_chance(r, 100))
                s->flags |= FLAG(RSE);
        }
        if (store)
            s->flags |= FLAG(STORE);
        if ((load || store) && pmu_rng_chance(r, 400) && n->l2ref < lim->l2ref) {
            s->flags |= FLAG(L2_REF);
            if (pmu_rng_chance(r, 300) && n->l2miss < lim->l2miss)
                s->flags |= FLAG(L2_MISS);
        }
        if (fp)
            s->flags |= FLAG(FP);
        if (br) {
            s->flags |= (uint16_t)(FIELD(BR_TYPE, br) | FIELD(BR_PRED, pmu_rng_below(r, 4)) |
                                   (pmu_rng_chance(r, 500) ? FLAG(TAKEN) : 0));
            if (ia64)
                s->unit = ITA_UNIT_B;
            if (pmu_rng_chance(r, 900))
                s->target = random_addr(r);
        }
        if ((load || store) && pmu_rng_chance(r, 900))
            s->daddr = random_addr(r);
    }
    if (!ITA_SLOT_GET(s, LOAD) && !ITA_SLOT_GET(s, STORE))
        s->lat = 0, s->tlb = 0; /* latency and TLB outcome belong to memory accesses */
    ita_gen_count_slot(n, s);
}

/* ---- hot edges in RANDOM mode ----------------------------------------------------------- */
/* Somewhere between two of the edges (the inside of a range whose bounds they are). */
static uint64_t between_edges(pmu_rng *r, const uint64_t *edges, unsigned n)
{
    uint64_t a = edges[pmu_rng_below(r, n)], b = edges[pmu_rng_below(r, n)];
    uint64_t lo = a < b ? a : b, span = (a < b ? b : a) - lo;
    return span == UINT64_MAX ? pmu_rng_next(r) : lo + pmu_rng_below(r, span + 1);
}

static uint64_t flip_bit(uint64_t v, unsigned bit) { return v ^ ((uint64_t)1 << bit); }

/* An instruction address where a range check on `edge` is decided: the bound itself,
 * the bundles either side, the bits the mask cannot hide (63:56) or can (55:4), the
 * edges of its 4 KB page (fine mode compares within one page), nearby bundles and the
 * inside of a range.  IA-32 addresses are byte addresses and also land a byte off. */
static uint64_t near_code(ita_gen *g, uint64_t edge, int ia32)
{
    pmu_rng *r = &g->hr;
    uint64_t page = edge & ~(uint64_t)(PAGE - 1), a;
    unsigned p = (unsigned)pmu_rng_below(r, 100);
    if (p < 14) {
        a = edge;
    } else if (p < 26) {
        a = edge - BUNDLE;
    } else if (p < 38) {
        a = edge + BUNDLE;
    } else if (p < 48) {
        a = flip_bit(edge, IBR_MASKED_BITS + (unsigned)pmu_rng_below(r, 64 - IBR_MASKED_BITS));
    } else if (p < 58) {
        static const uint64_t at[4] = {-(uint64_t)BUNDLE, 0, PAGE - BUNDLE, PAGE};
        a = page + at[pmu_rng_below(r, 4)];
    } else if (p < 63) {
        a = pmu_rng_chance(r, 500) ? edge + PAGE : edge - PAGE;
    } else if (p < 71) {
        a = flip_bit(edge, (unsigned)pmu_rng_range(r, 4, IBR_MASKED_BITS - 1)); /* above the bundle bits */
    } else if (p < 85) {
        a = edge + BUNDLE * (pmu_rng_below(r, 65) - 32); /* modulo 2^64: -32..32 bundles */
    } else {
        a = between_edges(r, g->hot.code, g->hot.ncode);
    }
    if (!ia32)
        return a & ~(uint64_t)(BUNDLE - 1);
    if (pmu_rng_chance(r, 250))
        a += pmu_rng_chance(r, 500) ? 1 : (uint64_t)-1;
    return a;
}

/* A data address where a DBR check on `edge` is decided (byte granular). */
static uint64_t near_data(ita_gen *g, uint64_t edge)
{
    pmu_rng *r = &g->hr;
    uint64_t page = edge & ~(uint64_t)(PAGE - 1);
    unsigned p = (unsigned)pmu_rng_below(r, 100);
    if (p < 15)
        return edge;
    if (p < 35)
        return pmu_rng_chance(r, 500) ? edge + 1 : edge - 1;
    if (p < 50)
        return pmu_rng_chance(r, 500) ? edge + 8 : edge - 8;
    if (p < 60) {
        static const uint64_t at[4] = {(uint64_t)-1, 0, PAGE - 1, PAGE};
        return page + at[pmu_rng_below(r, 4)];
    }
    if (p < 70)
        return flip_bit(edge, DBR_MASKED_BITS + (unsigned)pmu_rng_below(r, 64 - DBR_MASKED_BITS));
    if (p < 77)
        return flip_bit(edge, (unsigned)pmu_rng_below(r, DBR_MASKED_BITS));
    if (p < 88)
        return edge + (pmu_rng_below(r, 129) - 64);
    return between_edges(r, g->hot.data, g->hot.ndata);
}

static unsigned pick_set_bit(pmu_rng *r, uint64_t v)
{
    unsigned k = (unsigned)pmu_rng_below(r, (uint64_t)__builtin_popcountll(v));
    for (unsigned bit = 0;; bit++)
        if ((v >> bit) & 1 && k-- == 0)
            return bit;
}

/* An encoding that matches opcode pattern k (its don't-care bits random), or misses it
 * by one cared bit (one the matchers compare when the pattern has one), on a unit the
 * pattern's instruction classes use or, a third of the time, on another unit.  A
 * branch stays on B (an IA-64 branch retires on B). */
static void hot_encoding(ita_gen *g, ita_slot *s)
{
    pmu_rng *r = &g->hr;
    unsigned k = (unsigned)pmu_rng_below(r, g->hot.nopc);
    uint64_t care = g->hot.opc_care[k];
    uint64_t e = (g->hot.opc_match[k] & care) | (pmu_rng_next(r) & ~care & IA64_ENC_ALL);
    if (care && pmu_rng_chance(r, 333))
        e = flip_bit(e, pick_set_bit(r, care & IA64_WINDOW ? care & IA64_WINDOW : care));
    s->enc = e;
    if (ITA_SLOT_GET(s, BR_TYPE) == 0) {
        unsigned among = g->hot_units[k], outside = 0xfu & ~among;
        unsigned units = outside && pmu_rng_chance(r, 333) ? outside : among;
        s->unit = (uint8_t)pick_set_bit(r, units);
    }
}

static void hot_slot(ita_gen *g, const ita_cycle *c, ita_slot *s)
{
    pmu_rng *r = &g->hr;
    if (g->hot.ncode && pmu_rng_chance(r, HOT_PERMILLE))
        s->ip = near_code(g, g->hot.code[pmu_rng_below(r, g->hot.ncode)], c->is != 0);
    if (g->hot.ndata && (ITA_SLOT_GET(s, LOAD) || ITA_SLOT_GET(s, STORE)) &&
        pmu_rng_chance(r, HOT_PERMILLE))
        s->daddr = near_data(g, g->hot.data[pmu_rng_below(r, g->hot.ndata)]);
    if (g->hot.nopc && c->is == 0 && pmu_rng_chance(r, HOT_PERMILLE))
        hot_encoding(g, s);
}

void ita_gen_random_next(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->r;
    ita_clear_bytes(c, 0, sizeof *c);
    /* the sticky fields change now and then, as they would in a stream */
    if (pmu_rng_chance(r, 125))
        g->rcpl = (uint8_t)pmu_rng_below(r, 4);
    if (pmu_rng_chance(r, 60))
        g->ris = (uint8_t)pmu_rng_below(r, 2);
    if (pmu_rng_chance(r, 60)) {
        unsigned p = (unsigned)pmu_rng_below(r, 100);
        g->rpower = p < 50 ? ITA_POWER_NORMAL : p < 70 ? ITA_POWER_LOW_POWER
                    : p < 85 ? ITA_POWER_LIGHT_HALT : ITA_POWER_HALT;
    }
    if (pmu_rng_chance(r, 30))
        g->rpid = (uint16_t)pmu_rng_below(r, 65536);
    c->cpl = g->rcpl;
    c->is = g->ris;
    c->power = g->rpower;
    c->pid = g->rpid;
    unsigned p = (unsigned)pmu_rng_below(r, 1000);
    c->intr = p < 850 ? ITA_INTR_NONE : p < 925 ? ITA_INTR_ENTRY : ITA_INTR_RETURN;
    if (pmu_rng_chance(r, 100)) {
        c->up_we = 1;
        c->up = (uint8_t)pmu_rng_below(r, 2);
    }
    if (pmu_rng_chance(r, 100)) {
        c->pp_we = 1;
        c->pp = (uint8_t)pmu_rng_below(r, 2);
    }
    if (pmu_rng_chance(r, 300))
        c->recirc = (uint8_t)pmu_rng_range(r, 1, ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr);
    if (c->power == ITA_POWER_LIGHT_HALT || c->power == ITA_POWER_HALT)
        return; /* nothing retires while halted */
    counts n = {0, 0, 0, 0, 0, 0, 0};
    c->nslots = (uint8_t)pmu_rng_below(r, ITA_MAX_SLOTS + 1);
    for (unsigned i = 0; i < c->nslots; i++) {
        random_slot(g, c, &c->slot[i], &n, &g->lim);
        if (g->o.hot)
            hot_slot(g, c, &c->slot[i]);
    }
}

