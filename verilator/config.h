/*
 * config.h - PMU configuration files for `pmusim run --config` (docs/config-format.md).
 *
 * A configuration gives the initial value of PMU registers, either as a whole value
 * (`PMC4 = 0x800000`) or field by field (`PMC5 event=IA64_INST_RETIRED plm=0x8
 * period=100000`), and for each counter the harness-only period that the overflow
 * service reloads.  Parsing checks every value against the register layout of the
 * selected model (data/pmu_regs.def) and reports the first error as
 * "file:line: field: expected ...".
 */
#ifndef PMU_CONFIG_H
#define PMU_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "pmu_backend.h"
#include "pmu_stream.h" /* pmu_err */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_config {
    pmu_model model;
    unsigned model_line;              /* line of `model = ...`, 0 when absent */
    /* Register values by visible register (pmu_vis_table order); line 0 = not given. */
    uint64_t value[PMU_NVIS];
    unsigned line[PMU_NVIS];
    /* Per counter, index 0..3 = PMD4..PMD7. */
    uint64_t period[PMU_NCOUNTERS];   /* period=N, 0 when not given */
    uint64_t start[PMU_NCOUNTERS];    /* what the counter holds when the run starts */
    uint64_t reload[PMU_NCOUNTERS];   /* what the overflow service reloads: 2^W - period, or 0 */
} pmu_config;

/* Parses a configuration held in memory; `name` is used in messages.
 * `model` is the model to use when the text has no `model =` line; with
 * `model_fixed` set (the user chose it) a `model =` line naming another model is an
 * error.  Returns 0, or -1 with err filled. */
int pmu_config_parse(const char *text, size_t len, const char *name, pmu_model model,
                     int model_fixed, pmu_config *cfg, pmu_err *err);

/* Reads and parses a file. */
int pmu_config_load(const char *path, pmu_model model, int model_fixed, pmu_config *cfg,
                    pmu_err *err);

/* The built-in configuration used when no file is given (text in the file format):
 * four counters that show qualification at work. */
const char *pmu_config_default_text(pmu_model model);

/* Programs a reset backend: every register the configuration gives, the start value
 * of each counter with a period, and finally PMC0 = 0 (unfreeze; PMC0 resets frozen)
 * unless the configuration gives PMC0 itself. */
void pmu_config_apply(const pmu_config *cfg, pmu_backend *b);

/* Names for the run summary: the event programmed in a PMC4..7 value ("es=0x.. umask=.."
 * when it is not in the event table), and its qualifiers ("plm=user pm=0 thres=0 ism=both"). */
void pmu_config_describe_event(uint64_t pmc, char *buf, size_t size);
void pmu_config_describe_qualifiers(uint64_t pmc, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
