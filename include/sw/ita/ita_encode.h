/*
 * ita_encode.h - the register encodings of the Itanium debug-register pairs (IBR/DBR)
 * and of the constraint registers (PMC8/PMC9 opcode matchers, PMC13, PMC14, PMC15):
 * pure functions of the register layout (include/common/ita/ita_regs.def) and of the
 * architecture (docs/ita-semantics.md, "Event qualification").
 *
 * One place for both users: the configuration reader of the harness (verilator/ita/)
 * and the event library (sw/ita/).  Nothing here chooses anything -- which pairs a
 * range takes, which counter an event goes on, where the library follows or corrects
 * libpfm-3 is the caller's policy.  The reference model (csim/) decodes the same
 * registers with its own code on purpose, so that the two can disagree.
 *
 * Per-pair fields are reached through their compile-time identities (enum
 * ita_field_index): a misspelt field fails the build.
 */
#ifndef ITA_ENCODE_H
#define ITA_ENCODE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/ita/ita_arch.h"
#include "common/ita/ita_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- fields by identity ------------------------------------------------------- */

/* All ones in a field's width (its largest value). */
uint64_t ita_field_ones(enum ita_field_index f);
uint64_t ita_field_get(uint64_t v, enum ita_field_index f);
/* v with field f set to x (x cut to the field's width). */
uint64_t ita_field_set(uint64_t v, enum ita_field_index f, uint64_t x);

/* ---- debug-register pairs ----------------------------------------------------- */

/* The mask field (bits 55:0) of a pair that matches one naturally aligned block of
 * 2^log2size bytes, log2size <= ITA_PAIR_MAX_BLOCK_LOG2. */
uint64_t ita_block_mask(unsigned log2size);
/* log2 of the smallest naturally aligned block holding [start, end), start < end (may
 * exceed ITA_PAIR_MAX_BLOCK_LOG2: then no pair can match it). */
unsigned ita_smallest_block_log2(uint64_t start, uint64_t end);
/* Whether [start, end) is one naturally aligned power-of-two block; *log2size its size. */
bool ita_is_block(uint64_t start, uint64_t end, unsigned *log2size);

/* Fine mode (Itanium 2, PMC14.fine): whether the bundle range [start, end) (16-byte
 * aligned) can be one fine-mode range: its first and last bundle lie in one 4 KB page
 * (an aligned whole page does). */
bool ita_fine_eligible(uint64_t start, uint64_t end);
/* The bounds a fine-mode range [start, end) programs: the lower pair's address and the
 * upper pair's (the last bundle, inclusive).  `two_bundle`: the 32-byte granularity of
 * the first Itanium 2 steppings, which compare address bits 11:5 -- the lower bound is
 * aligned down to 32 bytes and an upper bundle that starts a 32-byte block is written
 * one bundle higher (the second bundle of that block, which the compare also takes). */
void ita_fine_bounds(uint64_t start, uint64_t end, bool two_bundle, uint64_t *lower, uint64_t *upper);

/* The odd register of a pair (IBR or DBR: one layout) with its mask field and plm set. */
uint64_t ita_pair_odd(uint64_t odd, uint64_t mask, unsigned plm);
/* The privilege levels a pair matches at (bit k = cpl k); 0: the pair matches nothing. */
unsigned ita_pair_plm(uint64_t odd);
/* The addresses a bit-mask pair (address `addr`, odd register `odd`) matches when its
 * mask is contiguous: [*start, *end), *end = 0 meaning 2^64.  `code`: an IBR pair,
 * which ignores address bits 3:0.  False (outputs untouched) when the mask has holes. */
bool ita_pair_block(uint64_t addr, uint64_t odd, bool code, uint64_t *start, uint64_t *end);

/* ---- constraint registers (Itanium 2) ----------------------------------------- */

/* PMC13 cfg_dbrp_k: what qualifies a memory event through pair k. */
typedef enum ita_dbrp_cfg {
    ITA_DBRP_IBR_OPC_DBR = 0, /* code tag k (IBR and opcode) and DBR pair k */
    ITA_DBRP_IBR_OPC = 1,     /* code tag k only */
    ITA_DBRP_DBR = 2,         /* DBR pair k only */
    ITA_DBRP_NONE = 3         /* no constraint */
} ita_dbrp_cfg;

unsigned ita_pmc13_cfg(uint64_t pmc13, unsigned k);
bool ita_pmc13_enabled(uint64_t pmc13, unsigned k);
/* PMC13 with pair k's cfg_dbrp and ena_dbrp set. */
uint64_t ita_pmc13_set_pair(uint64_t pmc13, unsigned k, unsigned cfg, bool enable);

/* Whether PMC14 makes IBR pair k constrain the events of its tag (ibrp_k = 0). */
bool ita_pmc14_constrains(uint64_t pmc14, unsigned k);
/* PMC14 with ibrp_k = 0 exactly for the pairs in `constrained` (bit k = pair k) and
 * the fine-mode bit. */
uint64_t ita_pmc14_set(uint64_t pmc14, unsigned constrained, bool fine);

/* Whether PMC15 ties pair k's tag to its opcode matcher (PMC8 for even k, PMC9 for odd
 * k; ibrp<k>_pmc<n> = 0). */
bool ita_pmc15_tied(uint64_t pmc15, unsigned k);
/* PMC15 with the pairs of `pairs` tied exactly when their bit in `tied` is set. */
uint64_t ita_pmc15_set(uint64_t pmc15, unsigned pairs, unsigned tied);

/* ---- opcode matchers PMC8 / PMC9 ------------------------------------------------ */

/* Slot types a matcher matches in: bit (1 << enum ita_unit). */
#define ITA_SLOT_M (1u << ITA_UNIT_M)
#define ITA_SLOT_I (1u << ITA_UNIT_I)
#define ITA_SLOT_F (1u << ITA_UNIT_F)
#define ITA_SLOT_B (1u << ITA_UNIT_B)
#define ITA_SLOTS_ALL (ITA_SLOT_M | ITA_SLOT_I | ITA_SLOT_F | ITA_SLOT_B)

/* A matcher value with match, mask (27 bits over instruction bits {40:27,12:0}, mask
 * bit 1 = don't care) and the slot types set; other fields as in `pmc`. */
uint64_t ita_opcm_set(uint64_t pmc, uint64_t match, uint64_t mask, unsigned slots);
unsigned ita_opcm_slots(uint64_t pmc);
/* Whether every slot passes the matcher: every bit don't care, every slot type on. */
bool ita_opcm_matches_all(uint64_t pmc);

#ifdef __cplusplus
}
#endif
#endif
