/*
 * ita_sample.h - `pmusim profile --sample` for the Itanium family (verilator/cli/ita/cmd_ear.c,
 * docs/ita-driver.md): an EAR or BTB event becomes the unit's configuration and a counter on
 * the unit's captures, and each sample's registers are decoded for printing.
 */
#ifndef ITA_SAMPLE_H
#define ITA_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/ita/ita_events.h"
#include "sw/ita/ita_drv.h"
#include "common/pmu_err.h"
#include "cli/pmu_family_cmds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* profile --sample (cmd_ear.c): the EAR/BTB event `spec` (EVENT[:mod...]) resolved to its
 * row and the counter event that counts its unit's captures, with the modifiers, into
 * buf; the unit's configuration register added to cfg (at counter k's plm and ism) and
 * its value into *pmc; a sample's registers decoded. */
int ita_sample_unit_resolve(unsigned model, const char *spec, char *buf, size_t size,
                            const ita_event_row **row, pmu_err *err);
int ita_sample_unit_program(unsigned model, const ita_event_row *row, int pm, ita_drv_config *cfg,
                            unsigned k, uint64_t *pmc, pmu_err *err);
void ita_capture_format(unsigned model, uint64_t pmc, const ita_drv_sample *s, pmu_monitor_capture *c);

#ifdef __cplusplus
}
#endif
#endif
