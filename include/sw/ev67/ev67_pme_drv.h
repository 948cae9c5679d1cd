/*
 * ev67_pme_drv.h - a ProfileMe sampler for the Alpha 21264/EV67 counter block (sw/ev67/),
 * after Linux OProfile alpha op_model_ev67.c (docs/sources.md): the block in ProfileMe
 * mode (PCTR_CTL.SL0 = 1) selects about every period-th valid fetched instruction; at
 * the end of its window the handler reads PMPC, I_STAT and PCTR_CTL (OProfile's
 * wrperfmon 9, 8, 5), derives the instruction's attributes (retired, taken, mispredict,
 * ITB/DTB miss, replay, load-store order, unaligned, map stall, trap), adds them to a
 * per-PC table and sets up the next sample.  docs/ev67-profileme.md is its
 * specification; docs/ev67.md the block's ("ProfileMe", "Interrupts", "Precautions").
 *
 * Like the perf driver (ev67_perf_drv.h) it reaches the hardware only through a
 * pmu_backend and the interrupt line the harness passes in, so it runs unchanged on the
 * reference model, the RTL or the lock-step pair.  It never prints and never exits.
 */
#ifndef EV67_PME_DRV_H
#define EV67_PME_DRV_H

#include <stdint.h>

#include "common/pmu_backend.h"
#include "common/pmu_err.h"
#include "common/ev67/ev67_cycle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a sample says about its instruction (docs/ev67-profileme.md, "Attributes"). */
typedef enum ev67_pme_attr {
    EV67_PME_RETIRED,     /* PCTR_CTL.VAL */
    EV67_PME_TAKEN,       /* PCTR_CTL.TAK, not counted on a mispredict (OProfile) */
    EV67_PME_MISPREDICT,  /* I_STAT.TRP & MIS */
    EV67_PME_ITB_MISS,    /* redirect to the ITB-miss PALcode entry */
    EV67_PME_DTB_MISS,    /* TRP, TRAP_TYPE 2, 3, 6 */
    EV67_PME_REPLAY,      /* TRP, TRAP_TYPE 0 without LSO */
    EV67_PME_LDST_ORDER,  /* TRP, TRAP_TYPE 0 with LSO */
    EV67_PME_UNALIGNED,   /* TRP, TRAP_TYPE 5 */
    EV67_PME_MAP_STALL,   /* PCTR_CTL.PM_STALLED */
    EV67_PME_TRAP,        /* TRP, any type */
    EV67_PME_NATTRS
} ev67_pme_attr;

/* "retired", "taken", "mispredict", "itb_miss", "dtb_miss", "replay", "ldst_order",
 * "unaligned", "map_stall", "trap"; NULL out of range. */
const char *ev67_pme_attr_name(unsigned a);

/* The ITB-miss PALcode entry's offset, and the low PMPC bits it is compared with: HRM
 * Table 5-12 names the redirects by PMPC[14:0] (0581 for the ITB miss: offset 0x580 with
 * the PAL bit; docs/ev67-profileme.md, "The ITB-miss redirect"). */
#define EV67_PME_ITB_ENTRY_DEFAULT 0x580u
#define EV67_PME_PAL_OFFSET_BITS 15u
/* The sampling period when ev67_pme_opts.period is 0 (choice, docs/ev67-profileme.md). */
#define EV67_PME_DEFAULT_PERIOD 0x10000u

typedef struct ev67_pme_sample {      /* one interrupt's reads, decoded */
    uint64_t pmpc, i_stat, pctr_ctl;  /* as read */
    uint64_t pc;                      /* where it is attributed (PMPC's PC, or the
                                         interrupted pc for an ITB miss) */
    uint8_t dropped;                  /* 1: a PALmode sample, not attributed */
    uint8_t attr[EV67_PME_NATTRS];    /* 0/1 each */
    uint32_t delay;                   /* PCTR1 when SL1 = 1 (inum retire delay), else 0 */
    uint32_t pctr0, pctr1;            /* the window's counts as read */
} ev67_pme_sample;

/* A zeroed ev67_pme_opts is the defaults. */
typedef struct ev67_pme_opts {
    uint32_t period;      /* valid fetched instructions between samples: PCTR0 is set to
                             2^20 - period; 0: EV67_PME_DEFAULT_PERIOD; clamped to
                             [16, 2^20-1] as the perf driver clamps counter 0's
                             (ev67_perf_clamp_period: PCTR0 <= EV67_CTR0_WMAX) */
    unsigned sl1;         /* PCTR_CTL.SL1 during the window, 0..3 (1: cycles + inum retire
                             delay; HRM Table 5-16) */
    uint32_t itb_entry;   /* PAL offset of the ITB-miss entry, a multiple of 4 below
                             2^EV67_PME_PAL_OFFSET_BITS (0: EV67_PME_ITB_ENTRY_DEFAULT) */
    void (*on_sample)(void *arg, const ev67_pme_sample *s); /* each interrupt's sample,
                             dropped ones included; may be NULL */
    void *sample_arg;
} ev67_pme_opts;

typedef struct ev67_pme_pc {          /* per-PC totals */
    uint64_t pc, samples;
    uint64_t attr[EV67_PME_NATTRS];
    uint64_t delay;                   /* sum of delay */
} ev67_pme_pc;

typedef struct ev67_pme_stats {
    uint64_t records;     /* records seen by ev67_pme_before */
    uint64_t interrupts;  /* handler runs (the line was high) */
    uint64_t samples;     /* ... whose sample was attributed (ITB misses included) */
    uint64_t dropped_pal; /* ... whose sample was a PALmode one, not attributed */
    uint64_t spurious;    /* ... whose ISUM showed no counter-0 request: no sample */
    uint64_t isum_zero;   /* ... whose first ISUM read returned 0 (HRM §5.2.11 race) */
    uint64_t table_full;  /* attributed samples the per-PC table could not take (no memory) */
} ev67_pme_stats;

typedef struct ev67_pme ev67_pme;

/* A sampler on the counter block b (not owned) with options o (NULL: the defaults).
 * Validates o (PMU_E_INPUT naming the field), checks that b is a 21264/EV67 counter block
 * (as ev67_perf_create), resets the block following the HRM's precautions (PCTR_CTL
 * written twice, HW_INT_CLR), programs ProfileMe (SL0 = 1, SL1, PCTR0 = 2^20 - period,
 * PCTR1 = 0) and enables it (I_CTL SPCE, PCT0_EN and PCT1_EN; IER_CM.PCEN for counter
 * 0), leaving it sampling.  NULL with err filled on bad input or no memory; nothing is
 * written to b then. */
ev67_pme *ev67_pme_create(pmu_backend *b, const ev67_pme_opts *o, pmu_err *err);
void ev67_pme_destroy(ev67_pme *s);

/* The run, per record, as the perf driver's: ev67_pme_before(s, rec) before the record is
 * stepped, then ev67_pme_after(s, pmi) with the interrupt line after its clock.  A line
 * high after the previous record is taken at this record's before: the handler runs with
 * rec as the interrupted context (its pc is an ITB miss's, EXC_ADDR's role). */
void ev67_pme_before(ev67_pme *s, const ev67_cycle *rec);
void ev67_pme_after(ev67_pme *s, uint8_t pmi);

/* The per-PC table: PCs that received an attributed sample, i = 0.. in ascending pc;
 * NULL past the end.  A pointer is valid until the next ev67_pme_before. */
unsigned ev67_pme_npcs(const ev67_pme *s);
const ev67_pme_pc *ev67_pme_pc_at(const ev67_pme *s, unsigned i);
const ev67_pme_stats *ev67_pme_get_stats(const ev67_pme *s);
/* The clamped sampling period. */
uint32_t ev67_pme_period(const ev67_pme *s);

/* The handler's decoding alone (docs/ev67-profileme.md, "Attributes"): the three reads of
 * one interrupt, the interrupted context's pc and the ITB-miss entry offset (0: the
 * default) give the sample. */
void ev67_pme_decode(uint64_t pmpc, uint64_t i_stat, uint64_t pctr_ctl, uint64_t interrupted_pc,
                     uint32_t itb_entry, ev67_pme_sample *out);

#ifdef __cplusplus
}
#endif
#endif
