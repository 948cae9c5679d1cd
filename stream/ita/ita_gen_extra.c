/*
 * ita_gen_extra.c - what both generator modes add to a record for the EARs and the general
 * events (docs/ita-stream-format.md, "The generator"): the fetch the I-EAR sees (L1I misses with
 * latencies across its bins, RAB hits, ITLB outcomes), ALAT misses on loads, and general
 * events.  Every draw comes from the generator's own `xr`, so the rest of a record is what
 * the same seed gave without them.  With hot latencies and counts (pmu_gen_hot), some
 * latencies and general-event counts are then aimed at them, from `vr`.
 */
#include "ita_gen.h"
#include "ita_stream.h"

/* The workload's general events: a plausible handful of front-end and memory events. */
static const char *const workload_events[] = {"L1I_READS", "FE_BUBBLE_ALL", "BACK_END_BUBBLE_ALL",
                                              "ITLB_MISSES_FETCH_L2ITLB", "L2_DATA_REFERENCES_L2_ALL"};

void ita_gen_extras_init(ita_gen *g)
{
    pmu_rng_seed(&g->xr, g->o.seed ^ 0x6561722b78657673ull);
    g->nxev_ids = 0;
    for (unsigned i = 0; i < sizeof workload_events / sizeof workload_events[0]; i++) {
        int id = ita_event_id_find(workload_events[i]);
        if (id >= 0 && ita_xev_general(ita_xev_row((unsigned)id)))
            g->xev_ids[g->nxev_ids++] = id;
    }
}

/* An L1I miss latency: each I-EAR bin (docs/ita-ear-btb.md: [4,8) .. [1024,4096), >= 4096) and
 * the latencies below 4 that no bin holds, equally likely. */
static uint16_t bin_latency(pmu_rng *r)
{
    static const uint16_t lo[] = {1, 4, 8, 16, 32, 128, 256, 1024, 4096};
    static const uint16_t hi[] = {3, 7, 15, 31, 127, 255, 1023, 4095, 65535};
    unsigned b = (unsigned)pmu_rng_below(r, sizeof lo / sizeof lo[0]);
    return (uint16_t)pmu_rng_range(r, lo[b], hi[b]);
}

static void random_fetch(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->xr;
    if (!pmu_rng_chance(r, 300))
        return;
    c->if_lat = pmu_rng_chance(r, 800) ? bin_latency(r) : 0;
    c->if_tlb = (uint8_t)pmu_rng_below(r, 4);
    c->if_rab = (uint8_t)pmu_rng_chance(r, 200);
    if (!c->if_lat && !c->if_tlb && !c->if_rab)
        return;
    /* not from the slots: hot edges replace slot ips from a sequence of their own */
    c->if_addr = pmu_rng_next(r) & ~(uint64_t)15;
}

/* The workload's fetches: mostly short L1I misses, now and then an L2 miss or worse, a
 * few RAB hits and ITLB misses. */
static void workload_fetch(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->xr;
    if (!c->nslots || !pmu_rng_chance(r, 30))
        return;
    unsigned p = (unsigned)pmu_rng_below(r, 1000);
    c->if_lat = (uint16_t)(p < 700 ? pmu_rng_range(r, 4, 24) : p < 950 ? pmu_rng_range(r, 100, 400)
                                                                       : pmu_rng_range(r, 1000, 6000));
    c->if_rab = (uint8_t)pmu_rng_chance(r, 100);
    if (pmu_rng_chance(r, 80))
        c->if_tlb = pmu_rng_chance(r, 150) ? ITA_TLB_VHPT : ITA_TLB_L2;
    c->if_addr = c->slot[0].ip;
}

static void alat_misses(ita_gen *g, ita_cycle *c, unsigned permille)
{
    for (unsigned i = 0; i < c->nslots; i++)
        if (ITA_SLOT_GET(&c->slot[i], LOAD) && pmu_rng_chance(&g->xr, permille))
            c->slot[i].flags |= (uint16_t)ITA_SF_ALAT_MISS_MASK;
}

/* Adds `id` with a random count within what its maxincr leaves in this cycle, attributed
 * to a random slot half the time. */
static void add_event(ita_gen *g, ita_cycle *c, unsigned id)
{
    pmu_rng *r = &g->xr;
    const ita_event_row *row = ita_xev_row(id);
    unsigned used = 0;
    for (unsigned i = 0; i < c->nxev; i++)
        if (c->xev[i].id == id)
            used += c->xev[i].count;
    if (!ita_xev_general(row) || used >= row->maxincr || c->nxev == ITA_MAX_XEV)
        return;
    ita_xev *x = &c->xev[c->nxev++];
    x->id = (uint16_t)id;
    x->count = (uint8_t)pmu_rng_range(r, 1, row->maxincr - used);
    x->slot = c->nslots && pmu_rng_chance(r, 500) ? (uint8_t)pmu_rng_below(r, c->nslots) : ITA_XEV_NO_SLOT;
}

void ita_gen_extras(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->xr;
    if (g->o.mode == PMU_GEN_RANDOM) {
        random_fetch(g, c);
        alat_misses(g, c, 100);
        if (pmu_rng_chance(r, 300)) {
            unsigned k = (unsigned)pmu_rng_range(r, 1, ITA_MAX_XEV);
            for (unsigned i = 0; i < k; i++)
                add_event(g, c, (unsigned)pmu_rng_below(r, ita_event_id_count()));
        }
        return;
    }
    if (c->power == ITA_POWER_LIGHT_HALT || c->power == ITA_POWER_HALT)
        return; /* nothing is fetched while halted */
    workload_fetch(g, c);
    alat_misses(g, c, 5);
    if (g->nxev_ids && pmu_rng_chance(r, 50))
        add_event(g, c, (unsigned)g->xev_ids[pmu_rng_below(r, g->nxev_ids)]);
}

/* ---- hot latencies and counts ----------------------------------------------------------- */
/* One of the hot latency bounds, or one below it, equally often: where a threshold
 * compare (lat >= T) or a bin's floor is decided.  A bound of 1 stays 1: a latency that
 * was there stays. */
static uint16_t hot_latency(ita_gen *g)
{
    pmu_rng *r = &g->vr;
    uint16_t b = g->hot.lat[pmu_rng_below(r, g->hot.nlat)];
    return b > 1 && pmu_rng_chance(r, 500) ? (uint16_t)(b - 1) : b;
}

/* General event i of the record counts a hot count t or t + 1, equally often (a counter
 * threshold compares n > t, or n >= t), when that fits what its maxincr leaves. */
static void hot_count(ita_gen *g, ita_cycle *c, unsigned i)
{
    pmu_rng *r = &g->vr;
    const ita_event_row *row = ita_xev_row(c->xev[i].id);
    unsigned others = 0;
    for (unsigned j = 0; j < c->nxev; j++)
        if (j != i && c->xev[j].id == c->xev[i].id)
            others += c->xev[j].count;
    unsigned v = g->hot.count[pmu_rng_below(r, g->hot.ncount)] + (unsigned)pmu_rng_chance(r, 500);
    if (v >= 1 && others + v <= row->maxincr)
        c->xev[i].count = (uint8_t)v;
}

void ita_gen_hot_values(ita_gen *g, ita_cycle *c)
{
    pmu_rng *r = &g->vr;
    if (g->hot.nlat) {
        if (c->if_lat && pmu_rng_chance(r, HOT_PERMILLE))
            c->if_lat = hot_latency(g);
        for (unsigned i = 0; i < c->nslots; i++)
            if (ITA_SLOT_GET(&c->slot[i], LOAD) && c->slot[i].lat && pmu_rng_chance(r, HOT_PERMILLE))
                c->slot[i].lat = hot_latency(g);
    }
    for (unsigned i = 0; g->hot.ncount && i < c->nxev; i++)
        if (pmu_rng_chance(r, HOT_PERMILLE))
            hot_count(g, c, i);
}
