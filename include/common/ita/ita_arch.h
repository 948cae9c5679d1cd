/*
 * ita_arch.h - architectural constants of the Itanium / Itanium 2 PMU's event
 * qualification that are not register layouts (those are in ita_regs.def): how many
 * debug-register pairs there are, which matcher each pair's tag goes with, the bundle
 * size that code addresses are compared in and the page a fine-mode range lies in.
 * Sources: docs/ita-semantics.md ("Event qualification") and docs/ita-qualification.md.
 *
 * Every part may use these constants, the reference model included: they are facts of
 * the architecture, not an implementation.
 */
#ifndef ITA_ARCH_H
#define ITA_ARCH_H

#include "common/ita/ita_regs.h"

/* Instruction-address (IBR) and data-address (DBR) pairs: IBR0/1..IBR6/7, DBR0/1..DBR6/7. */
#define ITA_NPAIRS 4u
#define ITA_ALL_PAIRS 0xfu
/* The pairs whose tag goes with opcode matcher PMC8 (k even) and PMC9 (k odd). */
#define ITA_PAIRS_OF_PMC8 0x5u
#define ITA_PAIRS_OF_PMC9 0xau

/* IA-64 bundles are 16 bytes: instruction-address compares ignore bits 3:0. */
#define ITA_BUNDLE_LOG2 4u
#define ITA_BUNDLE_BYTES (1u << ITA_BUNDLE_LOG2)
/* A fine-mode range lies in one 4 KB page (its lower bound's). */
#define ITA_FINE_PAGE_LOG2 12u
#define ITA_FINE_PAGE_BYTES (1u << ITA_FINE_PAGE_LOG2)
/* In fine mode the upper bound of the range whose lower bound is pair k is pair k + 2. */
#define ITA_FINE_UPPER_OFFSET 2u

/* The odd register of a pair holds mask bits 55:0; address bits 63:56 are always
 * compared, so no pair matches a block larger than 2^56 bytes. */
#define ITA_PAIR_MAX_BLOCK_LOG2 ((unsigned)ITA_F_IBR_MASK_MASK_WIDTH)

/* Checked by every C file that includes this header (C++ has static_assert instead). */
#ifndef __cplusplus
_Static_assert(ITA_VIS_IBR7 == ITA_VIS_IBR0 + 2 * ITA_NPAIRS - 1 &&
                   ITA_VIS_DBR7 == ITA_VIS_DBR0 + 2 * ITA_NPAIRS - 1,
               "IBR0..7 and DBR0..7 must be consecutive in the visible list");
_Static_assert(ITA_F_IBR_MASK_MASK_LSB == 0 && ITA_F_DBR_MASK_MASK_LSB == 0 &&
                   ITA_F_IBR_MASK_MASK_MSB == ITA_F_DBR_MASK_MASK_MSB &&
                   ITA_F_IBR_MASK_PLM_LSB == ITA_F_DBR_MASK_PLM_LSB &&
                   ITA_F_IBR_MASK_PLM_MSB == ITA_F_DBR_MASK_PLM_MSB,
               "IBR and DBR odd registers share the mask (55:0) and plm positions");
_Static_assert(ITA_ALL_PAIRS == (1u << ITA_NPAIRS) - 1 &&
                   (ITA_PAIRS_OF_PMC8 | ITA_PAIRS_OF_PMC9) == ITA_ALL_PAIRS,
               "every pair goes with one matcher");
#endif

#endif
