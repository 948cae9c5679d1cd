/*
 * ear_btb_sw.h - programming the Itanium / Itanium 2 event address registers and branch
 * trace buffer from an EAR/BTB event, and decoding what they captured, as pfmon decodes
 * them.  docs/ita-ear-btb.md gives the registers' model; every layout comes from
 * include/common/ita/ita_regs.def (ITA_FGET/ITA_FSET).  Nothing here prints or exits.
 */
#ifndef ITA_EAR_BTB_H
#define ITA_EAR_BTB_H

#include <stdint.h>

#include "common/ita/ita_events.h"
#include "sw/ita/ita_drv.h"
#include "common/ita/ita_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The unit an event row programs (from its libpfm type), ITA_DRV_CAPTURE_NONE for a
 * counter event; and the model's event that counts the unit's captures, its table's row
 * of the unit's kind (Itanium 2 L1I_EAR_EVENTS, Itanium INSTRUCTION_EAR_EVENTS;
 * DATA_EAR_EVENTS; BRANCH_EVENT), NULL for none. */
ita_drv_capture ita_ear_unit(const ita_event_row *row);
const ita_event_row *ita_ear_counter_event(ita_model m, ita_drv_capture unit);

/* The configuration register (PMC10, PMC11 or PMC12) of an EAR/BTB event row, as the event
 * library programs it (ita_evlib_unit_config, include/sw/ita/ita_evlib.h): mode and umask from the
 * row, the BTB recording every branch, at plm, pm and ism (the PMCn.ism field: 0 both,
 * 1 IA-32 only, 2 IA-64 only).  -1 for a counter event. */
int ita_ear_config(ita_model m, const ita_event_row *row, unsigned plm, int pm, unsigned ism, uint16_t *addr,
                   uint64_t *value);

/* One I-EAR capture (PMC10, PMD0, PMD1). */
typedef struct ita_iear_sample {
    int valid;         /* Itanium 2: PMD0.stat != 0; Itanium: PMD0.v */
    int tlb_mode;      /* the EAR was in TLB mode (PMC10) */
    uint64_t addr;     /* the fetch's cache-line address */
    unsigned latency;  /* cache mode: cycles (PMD1.lat) */
    int overflow;      /* Itanium 2 cache mode: the latency did not fit */
    int rab;           /* Itanium 2 cache mode: served by the RAB (stat 3) */
    unsigned tlb;      /* TLB mode, Itanium 2: 1 L2 TLB, 2 VHPT, 3 software; Itanium: 0 (not recorded) */
} ita_iear_sample;
void ita_iear_decode(ita_model m, uint64_t pmc10, uint64_t pmd0, uint64_t pmd1, ita_iear_sample *out);

/* One D-EAR capture (PMC11, PMD2, PMD3, PMD17). */
typedef struct ita_dear_sample {
    int valid;         /* Itanium 2: PMD3.stat != 0; Itanium: PMD17.vl */
    int mode;          /* 0 cache, 1 TLB, 2 ALAT (PMC11) */
    uint64_t iaddr;    /* the instruction: bundle address | slot */
    uint64_t daddr;    /* the data address (PMD2) */
    unsigned latency;  /* cache mode: cycles */
    int overflow;      /* Itanium 2 cache mode: the latency did not fit */
    unsigned tlb;      /* TLB mode: 1 L2 DTLB, 2 VHPT, 3 fault/software */
} ita_dear_sample;
void ita_dear_decode(ita_model m, uint64_t pmc11, uint64_t pmd2, uint64_t pmd3, uint64_t pmd17,
                     ita_dear_sample *out);

/* The BTB (PMC12, PMD8..PMD16): the branches, oldest first, walking the ring from
 * `full ? bbi : 0` to bbi.  A branch record (b = 1) is followed by its target record. */
#define ITA_BTB_ENTRIES 8
typedef struct ita_btb_branch {
    uint64_t source;   /* ((addr + b1) << 4) | slot of the branch record */
    uint64_t target;   /* the target record's address; 0 when has_target is 0 */
    int has_target;    /* the branch record's next entry is a target record */
    int taken;         /* slot != 3 */
    int mispredicted;  /* mp */
    int bruflush;      /* PMD16's bruflush bit of the branch record */
} ita_btb_branch;
/* Returns the number of branches written to out[0..ITA_BTB_ENTRIES/2 * 2). */
unsigned ita_btb_decode(ita_model m, uint64_t pmc12, const uint64_t pmd8_16[9], ita_btb_branch out[ITA_BTB_ENTRIES]);

#ifdef __cplusplus
}
#endif
#endif
