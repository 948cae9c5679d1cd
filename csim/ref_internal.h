/*
 * ref_internal.h - private types of the reference model (csim/).
 *
 * A generic counter configuration register (PMC4..PMC7) is decoded into a
 * ref_counter_cfg when it is written, so that a step never searches the
 * event table: it only reads a few small fields (docs/reference-model.md).
 */
#ifndef REF_INTERNAL_H
#define REF_INTERNAL_H

#include <stdint.h>

#include "pmu_ref.h"

/* Where a counter's per-cycle event count n comes from (semantics.md, step 3). */
typedef enum ref_event_source {
    REF_SRC_NONE = 0,   /* (es, umask) not implemented, or not allowed on this counter: n = 0 */
    REF_SRC_CYCLE,      /* n = 1 */
    REF_SRC_SLOTS,      /* n = number of retired slots */
    REF_SRC_SLOT_MATCH, /* n = number of retired slots whose flags match */
    REF_SRC_RECIRC      /* n = the record's L2 recirculation count */
} ref_event_source;

/* One PMC4..PMC7 as a step needs it. */
typedef struct ref_counter_cfg {
    uint8_t plm;          /* bit k set: may count at cpl k */
    uint8_t ism;          /* bit 0 set: IA-64 cycles excluded; bit 1 set: IA-32 excluded */
    uint8_t pm;           /* 1: enabled by PSR.pp (system monitor); 0: by PSR.up */
    uint8_t oi;           /* 1: an overflow freezes and raises the interrupt */
    uint8_t thres;        /* threshold t (0: add n) */
    uint8_t power_gated;  /* 1: n = 0 outside the NORMAL and LOW_POWER states */
    uint8_t source;       /* enum ref_event_source */
    int event;            /* PMU_EV_* selected by (es, umask), or -1 */
    /* REF_SRC_SLOT_MATCH: a slot counts when (flags & all_mask) == all_value
     * and (flags & any_mask) != 0. */
    uint16_t all_mask, all_value, any_mask;
} ref_counter_cfg;

/* Decodes the stored value `pmc` of PMC`index` (4..7). */
void ref_decode_pmc(ref_counter_cfg *cfg, uint64_t pmc, unsigned index);

#endif
