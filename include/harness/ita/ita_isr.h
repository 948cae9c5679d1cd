/*
 * isr.h - the minimal performance-monitor overflow service of the harness.
 *
 * The harness plays the CPU: when the backend's interrupt line pulses after a step,
 * the interrupt is delivered `latency` steps later (the PMU stays frozen meanwhile:
 * an interrupting overflow has set PMC0.fr).  The service then runs the sequence of
 * the architecture manual (SDM2 §7.2.4.1; sources: docs/sources.md), entirely
 * through pmu_read/pmu_write so it runs unchanged on any backend:
 *
 *   1. freeze:   PMC0.fr = 1 (the overflow bits are written back unchanged)
 *   2. read PMC0: the overflow bits say which counters wrapped
 *   3. for each: fold into its 64-bit virtual total,
 *                total += 2^W - start + count   (start: the value last loaded)
 *                and reload it (2^W - period, or 0)
 *   4. clear the overflow bits and unfreeze: PMC0 = 0
 *
 * ita_isr_finish() folds the final counts the same way (an overflow bit still set,
 * with or without an interrupt, counts one wrap), so the totals are exact event
 * counts however often the counters wrapped, as long as every wrap is seen: a
 * counter with oi=0 that wraps twice between services loses 2^W.
 */
#ifndef ITA_ISR_H
#define ITA_ISR_H

#include <stdint.h>

#include "common/ita/ita_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ita_isr {
    pmu_backend *b;
    unsigned width;                     /* counter width W */
    unsigned latency;                   /* steps from the pulse to the service */
    int pending;                        /* an interrupt is latched, not yet serviced */
    unsigned wait;                      /* steps left before the service */
    uint64_t start[ITA_NCOUNTERS];      /* value each counter was last loaded with */
    uint64_t reload[ITA_NCOUNTERS];     /* value written after an overflow */
    uint64_t total[ITA_NCOUNTERS];      /* 64-bit virtual counts folded so far */
    uint64_t overflows[ITA_NCOUNTERS];  /* wraps folded */
    uint64_t interrupts;                /* services run */
} ita_isr;

/* `start`: what each counter holds now; `reload`: what to reload after a wrap. */
void ita_isr_init(ita_isr *s, pmu_backend *b, const uint64_t start[ITA_NCOUNTERS],
                  const uint64_t reload[ITA_NCOUNTERS], unsigned latency);

/* Runs the service now (steps 1-4 above). */
void ita_isr_service(ita_isr *s);

/* Call after every step with the interrupt line of that step. */
static inline void ita_isr_tick(ita_isr *s, int pmi)
{
    if (pmi && !s->pending) {
        s->pending = 1;
        s->wait = s->latency;
    }
    if (s->pending) {
        if (s->wait == 0)
            ita_isr_service(s);
        else
            s->wait--;
    }
}

/* End of run: folds every counter's count since its last load into its total. */
void ita_isr_finish(ita_isr *s);

#ifdef __cplusplus
}
#endif
#endif
