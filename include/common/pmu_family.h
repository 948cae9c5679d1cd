/*
 * common/pmu_family.h - a PMU family as one part.
 *
 * A family (the Itanium / Itanium 2 PMU today; the Alpha 21064 and 21264/EV67 counter
 * blocks next) brings everything that is particular to it:
 *
 *   definitions   its .def (include/common/<family>/): registers, fields, events, and the
 *                 visible-state list that the lock-step checker compares
 *   dialect       the cycle record its streams carry (stream/<family>/)
 *   RTL           its Verilated top (rtl/<family>/, verilator/<family>/)
 *   reference     its C model (csim/<family>/)
 *   software      its event library and driver (sw/<family>/)
 *   commands      what `pmusim run` and friends need of it: configuration files, the
 *                 overflow service, the summary (verilator/<family>/)
 *
 * Generic code -- the backend interface, the lock-step checker, waves, streams and the
 * command layer -- reaches a family only through this descriptor.  The families are
 * listed once, in include/common/pmu_families.def (expanded by verilator/harness/family.c, and by
 * systemc/pmu_rtl_sc.cpp for their SystemC parts);
 * docs/adding-a-family.md says how to add one.
 */
#ifndef PMU_FAMILY_H
#define PMU_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_backend pmu_backend;
typedef struct pmu_dialect pmu_dialect;           /* include/common/pmu_dialect.h */
typedef struct pmu_family_cmds pmu_family_cmds;   /* include/cli/pmu_family_cmds.h */

/* One model of a family (a chip, or a stepping whose PMU differs). */
typedef struct pmu_model_desc {
    const char *name;   /* the --model value, e.g. "itanium2" */
    const char *title;  /* for people, e.g. "Itanium 2" */
} pmu_model_desc;

/* One field of a register, for reports and docs. */
typedef struct pmu_field_desc {
    const char *group, *name;
    unsigned msb, lsb;
    const char *desc;
} pmu_field_desc;

/* One register of the visible state: compared every clock, shown in reports and waves. */
typedef struct pmu_vis_desc {
    const char *name;
    uint16_t addr;            /* register-port address */
    const char *field_group;  /* the fields it has (pmu_field_desc.group); "NONE" = one count */
} pmu_vis_desc;

/* What the register port does with an address of the register map. */
typedef enum pmu_reg_access {
    PMU_REG_RW = 0,  /* read and written by software */
    PMU_REG_RO = 1,  /* read by software; writes ignored */
    PMU_REG_WO = 2,  /* written by software (e.g. a write-to-clear); reads 0 */
    PMU_REG_OBS = 3  /* the observation port: hidden state for the checker, read-only */
} pmu_reg_access;

/* One register of the register port: `span` consecutive addresses from `addr` reach it. */
typedef struct pmu_regmap_entry {
    const char *name;
    uint16_t addr, span;
    uint8_t access; /* pmu_reg_access */
} pmu_regmap_entry;

typedef struct pmu_family {
    const char *name;         /* the --family value, e.g. "itanium" */
    const char *title;        /* e.g. "Itanium / Itanium 2" */
    const pmu_model_desc *models;
    unsigned nmodels;
    unsigned default_model;

    /* Definitions (from the family's .def). */
    const pmu_vis_desc *vis;  /* the visible state, in pmu_state.reg order */
    unsigned nvis;            /* <= PMU_VIS_MAX */
    const pmu_field_desc *fields;
    unsigned nfields;
    /* The register map: every address the register port implements (from the .def);
     * addresses outside it read 0 and ignore writes. */
    const pmu_regmap_entry *regmap;
    unsigned nregmap;

    /* The cycle record its streams carry. */
    const pmu_dialect *dialect;

    /* A reset backend of model `model` (index into models), or NULL with err filled. */
    pmu_backend *(*ref_create)(unsigned model, pmu_err *err);
    pmu_backend *(*rtl_create)(unsigned model, pmu_err *err);

    /* What the commands need of the family (configuration, overflow service, summary). */
    const pmu_family_cmds *cmds;

    /* A GTKWave save file for its RTL's waveforms, or NULL: `run --waves` writes it beside
     * the FST with the view on the run's window (its [dumpfile], [timestart] and zoom
     * lines replaced). */
    const char *wave_layout;
} pmu_family;

/* The registered families (include/common/pmu_families.def, expanded in verilator/harness/family.c), in
 * the order they were registered. */
extern const pmu_family *const pmu_families[];
extern const unsigned pmu_nfamilies;

/* The family called `name` (case-insensitive), or NULL. */
const pmu_family *pmu_family_find(const char *name);
/* The index of model `name` in family f (case-insensitive), or -1. */
int pmu_family_model(const pmu_family *f, const char *name);
/* A configuration `name` that names model `named` (named_given) while --model `model` was
 * given (model_fixed): 0 when they agree or either is absent, else -1 with err filled
 * (PMU_E_INPUT, both models named). */
int pmu_family_model_agrees(const pmu_family *f, const char *name, int named_given, unsigned named,
                            int model_fixed, unsigned model, pmu_err *err);
/* "itanium, itanium2": the model names, for messages. */
void pmu_family_model_list(const pmu_family *f, char *buf, size_t size);

/* Names the fields of visible register `vis` whose bits differ in `diff`, comma
 * separated ("count" for a counter; bits outside every field as "bits 0x... (no field)"). */
void pmu_family_name_fields(const pmu_family *f, unsigned vis, uint64_t diff, char *buf,
                            size_t size);
/* The register-map entry reaching register-port address addr, or NULL. */
const pmu_regmap_entry *pmu_family_reg_of_addr(const pmu_family *f, uint16_t addr);
/* The visible register at register-port address addr, or -1. */
int pmu_family_vis_of_addr(const pmu_family *f, uint16_t addr);

#ifdef __cplusplus
}
#endif
#endif
