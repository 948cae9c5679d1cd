/*
 * cli/pmu_setup_cmds.h - the `pmusim run` hooks (include/cli/pmu_family_cmds.h: configuration
 * files and the overflow service) of a family whose configuration file is a setup of its
 * software and whose overflow service is that software's session: the Alpha 21064
 * (verilator/cli/ev4/cmds.c, docs/ev4-pfm.md "Setups") and the Alpha 21264/EV67
 * (verilator/cli/ev67/cmds.c, docs/ev67-harness.md "Setups").  The family describes its setup
 * and session once in a pmu_setup_family; verilator/cli/setup_cmds.c makes the hooks from it, so
 * the two families keep one copy of the configuration and service plumbing.  The
 * conformance hooks (`pmusim conform`) come from the same place: the harness's service
 * with the family's random register activity (pmu_setup_conform), or the family's
 * software under a random setup, run as the session above.
 *
 * A family's cmds.c defines its pmu_setup_family, then PMU_SETUP_CONFIG_HOOKS(it), and
 * starts its pmu_family_cmds initializer with PMU_SETUP_CMDS_HOOKS.
 */
#ifndef PMU_SETUP_CMDS_H
#define PMU_SETUP_CMDS_H

#include <stddef.h>
#include <stdio.h>

#include "common/pmu_family.h"
#include "cli/pmu_family_cmds.h"
#include "common/pmu_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a conformance run of the family adds (verilator/<family>/cmd_conform.c). */
typedef struct pmu_setup_conform {
    uint64_t salt; /* the run's seed ^ salt seeds its random choices */
    /* The harness's service: the block's first programming, the random register activity
     * before each record, and the service of the interrupt line, which comes a random
     * delay after the line rose (below(long_delay) one time in 4, else below(short_delay)
     * records) before or after that record's activity (service_first). */
    void (*program)(pmu_backend *b, pmu_rng *r);
    void (*activity)(pmu_backend *b, pmu_rng *r);
    void (*service)(pmu_backend *b, pmu_rng *r);
    int service_first;
    unsigned long_delay, short_delay;
    /* The software: a random setup for the model (layout: the generator behind the
     * records, NULL for none), run as the family's session (pmu_setup_family.start); then
     * the interrupts it took, and its verdict (1 exact, 0 with why printed on out). */
    void (*random_setup)(pmu_rng *r, unsigned model, const pmu_gen *layout, void *setup);
    uint64_t (*interrupts)(void *session);
    int (*check)(void *session, FILE *out);
} pmu_setup_conform;

typedef struct pmu_setup_family {
    const pmu_family *family; /* its descriptor: the models a setup may name */
    size_t setup_size;        /* bytes of the family's setup (zeroed before parse) */
    /* The setup's defaults for `model`, then `text` over them, checked; `name` is for
     * messages.  0, or non-zero with err filled. */
    int (*parse)(void *setup, unsigned model, const char *text, size_t len, const char *name, pmu_err *err);
    /* The model the setup runs; *given: 1 when its text named it. */
    unsigned (*model)(const void *setup, int *given);
    /* The lines under the run's header that say what the setup programs. */
    void (*print)(const void *setup, FILE *out);
    const char *(*builtin)(void); /* the setup used without --config, whatever the model */
    /* The session of one run on b (layout: the generator behind the records, NULL for a
     * stream file); fills the run loop's hooks.  NULL with err filled on failure. */
    void *(*start)(const void *setup, pmu_backend *b, const pmu_gen *layout, pmu_record_hooks *hooks,
                   pmu_err *err);
    /* As pmu_family_cmds.service_finish, for the session. */
    int (*finish)(void *session, int quiet, FILE *out);
    /* As pmu_family_cmds.service_json, for the session. */
    void (*json)(void *session, FILE *out);
    void (*free)(void *session);
    const pmu_setup_conform *conform;
} pmu_setup_family;

/* config_parse for the family f (the arguments as pmu_family_cmds.config_parse). */
pmu_fam_config *pmu_setup_config_parse(const pmu_setup_family *f, const char *text, size_t len, const char *name,
                                       unsigned model, int model_fixed, pmu_err *err);

unsigned pmu_setup_config_model(const pmu_fam_config *c);
const pmu_gen_hot *pmu_setup_config_hot(const pmu_fam_config *c); /* none: no address qualification */
void pmu_setup_config_print(const pmu_fam_config *c, FILE *out);
void pmu_setup_config_free(pmu_fam_config *c);
pmu_fam_service *pmu_setup_service_start(const pmu_fam_config *c, pmu_backend *b, unsigned latency,
                                         const pmu_gen *layout, pmu_record_hooks *hooks, pmu_err *err);
int pmu_setup_service_finish(pmu_fam_service *s, int quiet, FILE *out);
void pmu_setup_service_json(pmu_fam_service *s, FILE *out);
void pmu_setup_service_free(pmu_fam_service *s);

/* conform_start for the family f (the other arguments as pmu_family_cmds.conform_start;
 * qual_heavy is refused: a family of setups has no event qualifiers). */
pmu_fam_conform *pmu_setup_conform_start(const pmu_setup_family *f, pmu_backend *b, uint64_t seed,
                                         const pmu_gen *layout, int driver, int qual_heavy,
                                         const pmu_gen_hot **hot, pmu_record_hooks *hooks, pmu_err *err);
int pmu_setup_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out);
void pmu_setup_conform_free(pmu_fam_conform *c);

/* The family's config_parse, config_builtin and conform_start over its pmu_setup_family
 * `sf`: these hooks are given no family, so each family has its own (static, in its
 * cmds.c). */
#define PMU_SETUP_CONFIG_HOOKS(sf)                                                                 \
    static pmu_fam_config *config_parse(const char *text, size_t len, const char *name, unsigned model, \
                                        int model_fixed, pmu_err *err)                             \
    {                                                                                              \
        return pmu_setup_config_parse(&(sf), text, len, name, model, model_fixed, err);            \
    }                                                                                              \
    static const char *config_builtin(unsigned model)                                              \
    {                                                                                              \
        (void)model;                                                                               \
        return (sf).builtin();                                                                     \
    }                                                                                              \
    static pmu_fam_conform *conform_start(pmu_backend *b, uint64_t seed, const pmu_gen *layout,    \
                                          int workload, int driver, int qual_heavy,                \
                                          const pmu_gen_hot **hot, pmu_record_hooks *hooks,        \
                                          pmu_err *err)                                            \
    {                                                                                              \
        (void)workload;                                                                            \
        return pmu_setup_conform_start(&(sf), b, seed, layout, driver, qual_heavy, hot, hooks,     \
                                       err);                                                       \
    }

/* Every hook above, for the family's pmu_family_cmds initializer.  --irq-latency is refused
 * (the family sets service_timing: its software decides when it answers). */
#define PMU_SETUP_CMDS_HOOKS                                                                       \
    .config_parse = config_parse, .config_builtin = config_builtin,                                \
    .config_model = pmu_setup_config_model, .config_hot = pmu_setup_config_hot,                    \
    .config_print = pmu_setup_config_print, .config_free = pmu_setup_config_free,                  \
    .service_start = pmu_setup_service_start, .service_finish = pmu_setup_service_finish,          \
    .service_json = pmu_setup_service_json,                                                        \
    .service_free = pmu_setup_service_free, .conform_start = conform_start,                        \
    .conform_finish = pmu_setup_conform_finish, .conform_free = pmu_setup_conform_free

#ifdef __cplusplus
}
#endif
#endif
