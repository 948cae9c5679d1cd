/*
 * ev67_perf_drv.h - a perf-style counting and sampling driver for the Alpha 21264/EV67
 * counter block (sw/ev67/), after Linux alpha perf_event.c (docs/sources.md): the four
 * EV67 events with Linux's names and ids, the three allowed pairs, sampling periods
 * clamped to [pmc_left, 2^20-1], 64-bit virtual counts, and an interrupt handler that
 * disables, updates, sets the period, accounts the sample and enables again.
 * docs/ev67-perf.md is its specification; docs/ev67.md the block's.
 *
 * It reaches the hardware only through a pmu_backend (register-port writes and reads of
 * EV67_ADDR_*) and the interrupt line the harness passes in, so it runs unchanged on the
 * reference model, the RTL or the lock-step pair.  It never prints and never exits:
 * errors are a pmu_err or -errno.
 */
#ifndef EV67_PERF_DRV_H
#define EV67_PERF_DRV_H

#include <stdint.h>

#include "common/pmu_backend.h"
#include "common/pmu_err.h"
#include "common/ev67/ev67_cycle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The events, with Linux alpha perf_event.c's names and ids (its raw configs 1..4). */
typedef enum ev67_perf_event {
    EV67_CYCLES = 1,
    EV67_INSTRUCTIONS = 2,
    EV67_BCACHEMISS = 3,
    EV67_MBOXREPLAY = 4
} ev67_perf_event;
#define EV67_PERF_NEVENT_IDS 4

/* At most one event per counter. */
#define EV67_PERF_MAX_EVENTS EV67_NCOUNTERS

/* "CYCLES", ... for an event id; NULL for another value. */
const char *ev67_perf_event_name(unsigned id);
/* The id of the event called `name` (case-insensitive), or -1. */
int ev67_perf_event_find(const char *name);

/* Where an event set counts: PCTR_CTL.SL1 (aggregate mode, SL0 = 0) and each event's
 * counter. */
typedef struct ev67_perf_plan {
    unsigned nevents;
    unsigned sl1;
    unsigned pmc[EV67_PERF_MAX_EVENTS]; /* counter of event i */
} ev67_perf_plan;

/* Places n events (ids): one event alone on its Linux counter, or one of the allowed
 * pairs {INSTRUCTIONS pmc0, CYCLES pmc1} SL1=00, {INSTRUCTIONS pmc0, BCACHEMISS pmc1}
 * SL1=10, {CYCLES pmc0, MBOXREPLAY pmc1} SL1=11, in either order.  0, or -1 with err
 * naming the event or the conflict (PMU_E_INPUT). */
int ev67_perf_plan_events(const unsigned *events, unsigned n, ev67_perf_plan *out, pmu_err *err);
/* The allowed pairs, in that order: pair i's event on counter 0 and on counter 1 in
 * events[0..1]; 1, or 0 when i is past the last. */
int ev67_perf_pair(unsigned i, unsigned events[EV67_NCOUNTERS]);

/* Counter n's sampling-period limits: pmc_left (the least period, 2^20 minus the legal
 * write maximum EV67_CTRn_WMAX: 16 and 4) and the largest, 2^20-1; 0 for n out of range. */
uint32_t ev67_perf_pmc_left(unsigned n);
uint32_t ev67_perf_max_period(unsigned n);
/* `period` clamped to counter n's [pmc_left, max]; 0 asks for Linux's default, the
 * largest. */
uint32_t ev67_perf_clamp_period(unsigned n, uint64_t period);

/* What the handler did, per event i (the plan's order) where indexed. */
typedef struct ev67_perf_stats {
    uint64_t records;       /* records seen by ev67_perf_before */
    uint64_t interrupts;    /* handler runs (the line was high) */
    uint64_t spurious;      /* ... that found no period elapsed */
    uint64_t isum_zero;     /* ... whose first ISUM read returned 0 (HRM §5.2.11 race) */
    uint64_t fired[EV67_PERF_MAX_EVENTS];   /* handler runs whose ISUM showed the counter */
    uint64_t samples[EV67_PERF_MAX_EVENTS]; /* periods elapsed: overflow accounting */
    uint64_t last_pc[EV67_PERF_MAX_EVENTS]; /* the interrupted record's pc at the last sample */
} ev67_perf_stats;

typedef struct ev67_perf ev67_perf;

/* A driver counting `n` events (ids) on the counter block b (not owned), with sampling
 * periods periods[i] (NULL: all default; each clamped by ev67_perf_clamp_period).  It
 * resets the block's counters (docs/ev67-perf.md, "Reset") and leaves them counting.
 * NULL with err filled on a bad event set, a backend that is not a 21264/EV67 counter
 * block, or no memory; nothing is written to b then. */
ev67_perf *ev67_perf_create(pmu_backend *b, const unsigned *events, const uint64_t *periods,
                            unsigned n, pmu_err *err);
void ev67_perf_destroy(ev67_perf *d);

/* The run, per record: ev67_perf_before(d, rec) before the record is stepped, then
 * ev67_perf_after(d, pmi) with the interrupt line after its clock.  A line that was high
 * after the previous record is taken at this record's before: the handler runs with rec
 * as the interrupted context (its pc is the sample's). */
void ev67_perf_before(ev67_perf *d, const ev67_cycle *rec);
void ev67_perf_after(ev67_perf *d, uint8_t pmi);

/* The 64-bit count of event i, the counter's current value folded in: 0, or -EINVAL for
 * i out of range or out NULL. */
int ev67_perf_read(ev67_perf *d, unsigned i, uint64_t *out);
/* Event i's (clamped) sampling period, 0 for i out of range. */
uint32_t ev67_perf_period(const ev67_perf *d, unsigned i);
const ev67_perf_plan *ev67_perf_get_plan(const ev67_perf *d);
const ev67_perf_stats *ev67_perf_get_stats(const ev67_perf *d);

#ifdef __cplusplus
}
#endif
#endif
