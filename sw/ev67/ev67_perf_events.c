/*
 * ev67_perf_events.c - the perf driver's events and their placement (ev67_perf_drv.h,
 * docs/ev67-perf.md "Events and pairs"): Linux alpha perf_event.c's ev67_mapping (each
 * event alone) and ev67_check_constraints (the three pairs), and the sampling-period
 * limits (its pmc_left and pmc_max_period).
 *
 * Only the placement (which counter an event uses) is Linux's policy written here; the
 * SL1 value is found in the .def's input-select rows (ev67_sel_table, HRM Table 5-16) as
 * the aggregate row in which every placed counter counts its event's input, and the
 * period limits come from the .def's counter widths and legal write maxima.
 */
#include "sw/ev67/ev67_perf_drv.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    ev67_kind kind; /* the counter input that counts it */
    unsigned pmc;   /* its counter when alone (Linux ev67_mapping idx) */
} event_table[EV67_PERF_NEVENT_IDS + 1] = {
    [EV67_CYCLES] = {"CYCLES", EV67_KIND_CYCLES, 1},
    [EV67_INSTRUCTIONS] = {"INSTRUCTIONS", EV67_KIND_RETIRED, 0},
    [EV67_BCACHEMISS] = {"BCACHEMISS", EV67_KIND_BCACHE, 1},
    [EV67_MBOXREPLAY] = {"MBOXREPLAY", EV67_KIND_MBOXREPLAY, 1},
};

/* The allowed pairs (Linux ev67_check_constraints): the event on counter 0, on counter 1. */
static const unsigned pair_table[][EV67_NCOUNTERS] = {
    {EV67_INSTRUCTIONS, EV67_CYCLES},
    {EV67_INSTRUCTIONS, EV67_BCACHEMISS},
    {EV67_CYCLES, EV67_MBOXREPLAY},
};
#define NPAIRS (sizeof pair_table / sizeof pair_table[0])

int ev67_perf_pair(unsigned i, unsigned events[EV67_NCOUNTERS])
{
    if (i >= NPAIRS)
        return 0;
    memcpy(events, pair_table[i], sizeof pair_table[i]);
    return 1;
}

static int valid_id(unsigned id) { return id >= 1 && id <= EV67_PERF_NEVENT_IDS; }

const char *ev67_perf_event_name(unsigned id) { return valid_id(id) ? event_table[id].name : NULL; }

int ev67_perf_event_find(const char *name)
{
    for (unsigned id = 1; name && id <= EV67_PERF_NEVENT_IDS; id++)
        if (strcasecmp(name, event_table[id].name) == 0)
            return (int)id;
    return -1;
}

/* "INSTRUCTIONS or MBOXREPLAY": the events the pair table lets accompany `id`. */
static void partners(unsigned id, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned p = 0; p < NPAIRS; p++)
        for (unsigned c = 0; c < EV67_NCOUNTERS; c++)
            if (pair_table[p][c] == id && len < n)
                len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " or " : "",
                                        event_table[pair_table[p][c ^ 1]].name);
}

/* The first aggregate SL1 row in which each placed counter counts its event's input. */
static int find_sl1(const ev67_perf_plan *p, const unsigned *events, pmu_err *err)
{
    for (unsigned r = 0; r < EV67_NSEL; r++) {
        const ev67_sel_desc *row = &ev67_sel_table[r];
        unsigned ok = row->mode == 0;
        for (unsigned i = 0; ok && i < p->nevents; i++)
            ok = row->ctr[p->pmc[i]] == event_table[events[i]].kind;
        if (ok)
            return (int)row->sl1;
    }
    return pmu_errf(err, PMU_E_INTERNAL,
                    "event set: no aggregate SL1 row of ev67_regs.def counts %s on PMC%u",
                    event_table[events[0]].name, p->pmc[0]);
}

int ev67_perf_plan_events(const unsigned *events, unsigned n, ev67_perf_plan *out, pmu_err *err)
{
    if (n < 1 || n > EV67_PERF_MAX_EVENTS || !events || !out)
        return pmu_errf(err, PMU_E_INPUT,
                        "event set: %u events, expected 1 or %u (the 21264/EV67 has %u counters)", n,
                        (unsigned)EV67_PERF_MAX_EVENTS, (unsigned)EV67_NCOUNTERS);
    for (unsigned i = 0; i < n; i++)
        if (!valid_id(events[i]))
            return pmu_errf(err, PMU_E_INPUT,
                            "event %u: id %u, expected 1..%u (CYCLES, INSTRUCTIONS, BCACHEMISS, "
                            "MBOXREPLAY)",
                            i, events[i], (unsigned)EV67_PERF_NEVENT_IDS);
    ev67_perf_plan p = {.nevents = n};
    if (n == 1) {
        p.pmc[0] = event_table[events[0]].pmc;
    } else {
        unsigned found = 0;
        for (unsigned r = 0; r < NPAIRS && !found; r++)
            for (unsigned first = 0; first < 2 && !found; first++)
                if (pair_table[r][0] == events[first] && pair_table[r][1] == events[first ^ 1]) {
                    p.pmc[first] = 0;
                    p.pmc[first ^ 1] = 1;
                    found = 1;
                }
        if (!found) {
            char with[96];
            partners(events[0], with, sizeof with);
            return pmu_errf(err, PMU_E_INPUT,
                            "events %s and %s conflict: %s can be paired only with %s (the two "
                            "counters share one SL1 input row)",
                            event_table[events[0]].name, event_table[events[1]].name,
                            event_table[events[0]].name, with);
        }
    }
    int sl1 = find_sl1(&p, events, err);
    if (sl1 < 0)
        return -1;
    p.sl1 = (unsigned)sl1;
    *out = p;
    return 0;
}

uint32_t ev67_perf_max_period(unsigned n)
{
    unsigned w = ev67_ctr_width(n);
    return w ? (uint32_t)((1ull << w) - 1) : 0;
}

/* 2^W - WMAX: the written value (-left) & mask stays at or below the legal write maximum
 * (HRM §6.10.2.1), i.e. out of the overflow-threshold zone (docs/ev67.md, "Precautions"). */
uint32_t ev67_perf_pmc_left(unsigned n)
{
    unsigned w = ev67_ctr_width(n);
    return w ? (uint32_t)((1ull << w) - ev67_ctr_wmax(n)) : 0;
}

uint32_t ev67_perf_clamp_period(unsigned n, uint64_t period)
{
    uint32_t lo = ev67_perf_pmc_left(n), hi = ev67_perf_max_period(n);
    if (period == 0 || period > hi)
        return hi;
    return period < lo ? lo : (uint32_t)period;
}
