/*
 * ref_decode.c - turns a generic counter configuration register (PMC4..PMC7)
 * into the form a step uses (ref_internal.h): which privilege levels and
 * instruction sets may count, which PSR bit enables the monitor, and where
 * the event count n comes from.  It runs when a PMC is written or reset,
 * never per cycle.
 *
 * The event rules below are docs/ita-semantics.md step 3, one case per kind of
 * event (the KIND column of the model's event table, include/common/ita/ita_events.h).
 */
#include <string.h>

#include "ref_internal.h"

/* BR_MISPRED_DETAIL umask = branch type << 2 | prediction (libpfm-3
 * lib/itanium2_events.h; docs/ita-semantics.md step 3): type 0 ALL, 1 IPREL,
 * 2 RETURN, 3 NTRETIND; prediction 0 ALL_PRED, 1 CORRECT_PRED, 2 WRONG_PATH,
 * 3 WRONG_TARGET.  The umask layout is not a register field, so it is not in
 * include/common/ita/ita_regs.def. */
#define BR_UMASK_PRED_BITS 2u

/* The index in the model's event table (ita_event_rows) of the modelled row (KIND not
 * NONE) with this (es, umask), or -1.  The first match wins: IA64_INST_RETIRED and
 * IA64_TAGGED_INST_RETIRED_IBRP0_PMC8 are one event under two names. */
static int find_event(const ita_event_row *rows, unsigned n, unsigned es, unsigned umask)
{
    for (unsigned i = 0; i < n; i++)
        if (ita_event_row_modelled(&rows[i]) && rows[i].code == es && rows[i].umask == umask)
            return (int)i;
    return -1;
}

/* n = number of slots that carry every flag of `all` (and at least one, so
 * that an event is never counted on an empty slot). */
static void count_slots_with(ref_counter_cfg *cfg, unsigned all)
{
    cfg->source = REF_SRC_SLOT_MATCH;
    cfg->all_mask = (uint16_t)all;
    cfg->all_value = (uint16_t)all;
    cfg->any_mask = (uint16_t)all;
}

/* BR_MISPRED_DETAIL: slots holding a branch (BR_TYPE != 0) whose type and
 * prediction match the umask's non-zero sub-fields. */
static void count_branches(ref_counter_cfg *cfg, unsigned umask)
{
    unsigned type = umask >> BR_UMASK_PRED_BITS;
    unsigned pred = umask & ((1u << BR_UMASK_PRED_BITS) - 1u);

    cfg->source = REF_SRC_SLOT_MATCH;
    cfg->all_mask = 0;
    cfg->all_value = 0;
    cfg->any_mask = ITA_SF_BR_TYPE_MASK;
    if (type != 0) {
        cfg->all_mask |= ITA_SF_BR_TYPE_MASK;
        cfg->all_value |= (uint16_t)(type << ITA_SF_BR_TYPE_LSB);
    }
    if (pred != 0) {
        cfg->all_mask |= ITA_SF_BR_PRED_MASK;
        cfg->all_value |= (uint16_t)(pred << ITA_SF_BR_PRED_LSB);
    }
}

/* Sets cfg->source (and its matcher) for modelled event row `e`, by its kind. */
static void decode_event(ref_counter_cfg *cfg, const ita_event_row *e)
{
    switch (e->kind) {
    case ITA_KIND_CYCLES:
        cfg->source = REF_SRC_CYCLE;
        cfg->power_gated = 1; /* architected: NORMAL or LOW-POWER only */
        break;
    case ITA_KIND_INST_RET:
        /* Nops and predicated-off included.  Umask k selects the tag of IBR
         * pair k and its opcode matcher; umask 0 is IA64_INST_RETIRED.  The
         * tagged variants are the same retirement event, so they share its
         * power gating (no valid stream retires in the halt states). */
        cfg->source = REF_SRC_SLOTS;
        cfg->power_gated = 1;
        cfg->tag_pair = e->umask;
        break;
    case ITA_KIND_NOPS:
        count_slots_with(cfg, ITA_SF_NOP_MASK);
        break;
    case ITA_KIND_PRED_OFF:
        count_slots_with(cfg, ITA_SF_PRED_OFF_MASK);
        break;
    case ITA_KIND_FP_OPS:
        count_slots_with(cfg, ITA_SF_FP_MASK);
        break;
    case ITA_KIND_LOADS:
        count_slots_with(cfg, ITA_SF_LOAD_MASK);
        break;
    case ITA_KIND_STORES:
        count_slots_with(cfg, ITA_SF_STORE_MASK);
        break;
    case ITA_KIND_BR_DETAIL:
        count_branches(cfg, e->umask);
        break;
    case ITA_KIND_L1D_MISS:
        count_slots_with(cfg, ITA_SF_LOAD_MASK | ITA_SF_L1D_MISS_MASK);
        break;
    case ITA_KIND_L1D_RSE:
        count_slots_with(cfg, ITA_SF_LOAD_MASK | ITA_SF_L1D_MISS_MASK | ITA_SF_RSE_MASK);
        break;
    case ITA_KIND_L2_MISS:
        count_slots_with(cfg, ITA_SF_L2_MISS_MASK);
        break;
    case ITA_KIND_L2_REF:
        count_slots_with(cfg, ITA_SF_L2_REF_MASK);
        break;
    case ITA_KIND_RECIRC:
        cfg->source = REF_SRC_RECIRC; /* not attributed to an instruction */
        break;
    case ITA_KIND_IEAR:
        /* 1 in a cycle the unit captures; the capture was qualified by the unit. */
        cfg->source = REF_SRC_CAPTURE;
        cfg->unit = REF_UNIT_IEAR;
        break;
    case ITA_KIND_DEAR:
        cfg->source = REF_SRC_CAPTURE;
        cfg->unit = REF_UNIT_DEAR;
        break;
    case ITA_KIND_BTB:
        cfg->source = REF_SRC_CAPTURE;
        cfg->unit = REF_UNIT_BTB;
        break;
    default:
        /* A kind added to the .def without a rule here counts nothing; the
         * csim test EveryEventHasARule catches that. */
        cfg->source = REF_SRC_NONE;
        break;
    }
}

void ref_decode_pmc(ref_counter_cfg *cfg, uint64_t pmc, unsigned index, ita_model model)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->plm = (uint8_t)ITA_FGET(pmc, PMC_GEN, PLM);
    cfg->ism = (uint8_t)ITA_FGET(pmc, PMC_GEN, ISM);
    cfg->pm = (uint8_t)ITA_FGET(pmc, PMC_GEN, PM);
    cfg->oi = (uint8_t)ITA_FGET(pmc, PMC_GEN, OI);
    cfg->thres = (uint8_t)ITA_FGET(pmc, PMC_GEN, THRES);

    cfg->es = (uint8_t)ITA_FGET(pmc, PMC_GEN, ES);
    cfg->umask = (uint8_t)ITA_FGET(pmc, PMC_GEN, UMASK);
    unsigned nrows;
    const ita_event_row *rows = ita_event_rows(model, &nrows);
    cfg->event = find_event(rows, nrows, cfg->es, cfg->umask);
    cfg->source = REF_SRC_NONE;
    /* An event wired to a subset of the counters (its counter mask, e.g.
     * L2_FORCE_RECIRC_ANY on PMC4 only) gives n = 0 on the others. */
    if (cfg->event >= 0 && (rows[cfg->event].counters >> index) & 1u) {
        const ita_event_row *e = &rows[cfg->event];
        cfg->iar = e->iar;
        cfg->opm = e->opm;
        cfg->dar = e->dar;
        decode_event(cfg, e);
    }
}
