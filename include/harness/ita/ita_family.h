/* ita_family.h - the Itanium / Itanium 2 family's descriptor (verilator/ita/family.c)
 * and cycle-record dialect (stream/ita/). */
#ifndef ITA_FAMILY_H
#define ITA_FAMILY_H

#include "common/ita/ita_cycle.h"
#include "common/ita/ita_regs.h"
#include "common/pmu_dialect.h"
#include "common/pmu_family.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const pmu_family pmu_family_itanium;
/* The family's command hooks (verilator/cli/ita/cmds.c) and docs/pmusim.gtkw
 * (build/gen/ita/ita_wave_layout.c, made by tools/ita/gen_ita.c), which its descriptor names. */
extern const pmu_family_cmds ita_family_cmds;
extern const char ita_wave_layout[];
/* Its models, indexed by ita_model (verilator/ita/models.c): the descriptor's list, and the
 * names a configuration's `model =` line takes.  Apart from the descriptor, so that the
 * configuration reader links without the backends the descriptor creates. */
extern const pmu_model_desc ita_models[ITA_NMODELS];
extern const pmu_dialect ita_dialect;

#ifdef __cplusplus
}
#endif
#endif
