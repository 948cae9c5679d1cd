/*
 * isr.c - the minimal overflow service (see isr.h).
 */
#include "harness/ita/ita_isr.h"

#include <string.h>

static uint16_t pmc0_addr(void) { return ita_vis_table[ITA_VIS_PMC0].addr; }
static uint16_t pmd_addr(unsigned k) { return ita_vis_table[ITA_VIS_PMD4 + k].addr; }

void ita_isr_init(ita_isr *s, pmu_backend *b, const uint64_t start[ITA_NCOUNTERS],
                  const uint64_t reload[ITA_NCOUNTERS], unsigned latency)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->width = ita_counter_width(b->model);
    s->latency = latency;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        s->start[k] = start[k];
        s->reload[k] = reload[k];
    }
}

/* The count since the last load; a set overflow bit means one wrap of 2^W.  The
 * arithmetic is modulo 2^64, so count - start is right with or without the wrap. */
static uint64_t fold(const ita_isr *s, unsigned k, int wrapped)
{
    uint64_t count = pmu_read(s->b, pmd_addr(k)) & ((UINT64_C(1) << s->width) - 1);
    uint64_t span = wrapped ? UINT64_C(1) << s->width : 0;
    return span - s->start[k] + count;
}

void ita_isr_service(ita_isr *s)
{
    pmu_backend *b = s->b;
    s->pending = 0;
    s->interrupts++;

    /* 1. Freeze (already frozen by the interrupting overflow; the write makes it so
     *    whatever raised the interrupt), keeping the overflow bits. */
    uint64_t pmc0 = pmu_read(b, pmc0_addr());
    pmu_write(b, pmc0_addr(), ITA_FSET(pmc0, PMC0, FR, 1));

    /* 2. Which counters wrapped. */
    uint64_t ovf = ITA_FGET(pmu_read(b, pmc0_addr()), PMC0, OVF);

    /* 3. Fold and reload each. */
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        if (!(ovf & (UINT64_C(1) << (ITA_FIRST_COUNTER + k - ITA_F_PMC0_OVF_LSB))))
            continue;
        s->total[k] += fold(s, k, 1);
        s->overflows[k]++;
        pmu_write(b, pmd_addr(k), s->reload[k]);
        s->start[k] = s->reload[k];
    }

    /* 4. Clear the overflow bits and unfreeze. */
    pmu_write(b, pmc0_addr(), 0);
}

void ita_isr_finish(ita_isr *s)
{
    uint64_t ovf = ITA_FGET(pmu_read(s->b, pmc0_addr()), PMC0, OVF);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        int wrapped = (ovf >> (ITA_FIRST_COUNTER + k - ITA_F_PMC0_OVF_LSB)) & 1;
        s->total[k] += fold(s, k, wrapped);
        s->overflows[k] += (uint64_t)wrapped;
        s->start[k] = pmu_read(s->b, pmd_addr(k)) & ((UINT64_C(1) << s->width) - 1);
    }
    s->pending = 0;
}
