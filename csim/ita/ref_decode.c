/*
 * ref_decode.c - turns a generic counter configuration register (PMC4..PMC7)
 * into the form a step uses (ref_internal.h): which privilege levels and
 * instruction sets may count, which PSR bit enables the monitor, and where
 * the event count n comes from.  It runs when a PMC is written or reset,
 * never per cycle.
 *
 * The event rules below are docs/semantics.md step 3, one case per event.
 */
#include <string.h>

#include "ref_internal.h"

/* BR_MISPRED_DETAIL umask = branch type << 2 | prediction (facts section 6):
 * type 0 ALL, 1 IPREL, 2 RETURN, 3 NTRETIND; prediction 0 ALL_PRED,
 * 1 CORRECT_PRED, 2 WRONG_PATH, 3 WRONG_TARGET.  The umask layout is not in
 * data/pmu_regs.def (it is an event attribute, not a register field). */
#define BR_UMASK_PRED_BITS 2u

_Static_assert(PMU_EV_BR_MISPRED_DETAIL_NTRETIND_WRONG_TARGET -
                       PMU_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED + 1 == 16,
               "the 16 BR_MISPRED_DETAIL events must be consecutive in data/pmu_regs.def");

/* The event the model implements with this (es, umask), or -1.  es is
 * compared with the model's code (Itanium: the "Itanium code" column; an
 * event without one is not implemented there).  The first match wins:
 * IA64_INST_RETIRED and IA64_TAGGED_INST_RETIRED_IBRP0_PMC8 are one event
 * under two names. */
static int find_event(unsigned es, unsigned umask, pmu_model model)
{
    for (int id = 0; id < PMU_NEVENTS; id++)
        if (pmu_event_code(&pmu_event_table[id], model) == (int)es && pmu_event_table[id].umask == umask)
            return id;
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
    cfg->any_mask = PMU_SF_BR_TYPE_MASK;
    if (type != 0) {
        cfg->all_mask |= PMU_SF_BR_TYPE_MASK;
        cfg->all_value |= (uint16_t)(type << PMU_SF_BR_TYPE_LSB);
    }
    if (pred != 0) {
        cfg->all_mask |= PMU_SF_BR_PRED_MASK;
        cfg->all_value |= (uint16_t)(pred << PMU_SF_BR_PRED_LSB);
    }
}

/* Sets cfg->source (and its matcher) for implemented event `id`. */
static void decode_event(ref_counter_cfg *cfg, int id)
{
    if (id >= PMU_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED &&
        id <= PMU_EV_BR_MISPRED_DETAIL_NTRETIND_WRONG_TARGET) {
        count_branches(cfg, pmu_event_table[id].umask);
        return;
    }
    switch (id) {
    case PMU_EV_CPU_CYCLES:
        cfg->source = REF_SRC_CYCLE;
        cfg->power_gated = 1; /* architected: NORMAL or LOW-POWER only */
        break;
    case PMU_EV_IA64_INST_RETIRED:
    case PMU_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8:
    case PMU_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9:
    case PMU_EV_IA64_TAGGED_INST_RETIRED_IBRP2_PMC8:
    case PMU_EV_IA64_TAGGED_INST_RETIRED_IBRP3_PMC9:
        /* Nops and predicated-off included.  Umask k selects the tag of IBR
         * pair k and its opcode matcher; umask 0 is IA64_INST_RETIRED.  The
         * tagged variants are the same retirement event, so they share its
         * power gating (no valid stream retires in the halt states). */
        cfg->source = REF_SRC_SLOTS;
        cfg->power_gated = 1;
        cfg->tag_pair = pmu_event_table[id].umask;
        break;
    case PMU_EV_NOPS_RETIRED:
        count_slots_with(cfg, PMU_SF_NOP_MASK);
        break;
    case PMU_EV_PREDICATE_SQUASHED_RETIRED:
        count_slots_with(cfg, PMU_SF_PRED_OFF_MASK);
        break;
    case PMU_EV_FP_OPS_RETIRED:
        count_slots_with(cfg, PMU_SF_FP_MASK);
        break;
    case PMU_EV_LOADS_RETIRED:
        count_slots_with(cfg, PMU_SF_LOAD_MASK);
        break;
    case PMU_EV_STORES_RETIRED:
        count_slots_with(cfg, PMU_SF_STORE_MASK);
        break;
    case PMU_EV_L1D_READ_MISSES_ALL:
        count_slots_with(cfg, PMU_SF_LOAD_MASK | PMU_SF_L1D_MISS_MASK);
        break;
    case PMU_EV_L1D_READ_MISSES_RSE_FILL:
        count_slots_with(cfg, PMU_SF_LOAD_MASK | PMU_SF_L1D_MISS_MASK | PMU_SF_RSE_MASK);
        break;
    case PMU_EV_L2_MISSES:
        count_slots_with(cfg, PMU_SF_L2_MISS_MASK);
        break;
    case PMU_EV_L2_REFERENCES:
        count_slots_with(cfg, PMU_SF_L2_REF_MASK);
        break;
    case PMU_EV_L2_FORCE_RECIRC_ANY:
        cfg->source = REF_SRC_RECIRC; /* not attributed to an instruction */
        break;
    default:
        /* An event added to the .def without a rule here counts nothing; the
         * csim test EveryEventHasARule catches that. */
        cfg->source = REF_SRC_NONE;
        break;
    }
}

void ref_decode_pmc(ref_counter_cfg *cfg, uint64_t pmc, unsigned index, pmu_model model)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->plm = (uint8_t)PMU_FGET(pmc, PMC_GEN, PLM);
    cfg->ism = (uint8_t)PMU_FGET(pmc, PMC_GEN, ISM);
    cfg->pm = (uint8_t)PMU_FGET(pmc, PMC_GEN, PM);
    cfg->oi = (uint8_t)PMU_FGET(pmc, PMC_GEN, OI);
    cfg->thres = (uint8_t)PMU_FGET(pmc, PMC_GEN, THRES);

    cfg->event = find_event((unsigned)PMU_FGET(pmc, PMC_GEN, ES),
                            (unsigned)PMU_FGET(pmc, PMC_GEN, UMASK), model);
    cfg->source = REF_SRC_NONE;
    /* An event wired to a subset of the counters (its counter mask, e.g.
     * L2_FORCE_RECIRC_ANY on PMC4 only) gives n = 0 on the others. */
    if (cfg->event >= 0 && (pmu_event_table[cfg->event].counters >> index) & 1u) {
        const pmu_event_desc *e = &pmu_event_table[cfg->event];
        cfg->iar = e->iar;
        cfg->opm = e->opm;
        cfg->dar = e->dar;
        decode_event(cfg, cfg->event);
    }
}
