/*
 * stream/pmu_family_dialects.h - the record dialect of every registered family (include/common/pmu_families.def),
 * in registry order, without the families' descriptors: a descriptor brings its RTL with it,
 * and code that reads records alone (the fuzz harnesses, tests/fuzz/) must not link the RTL.
 *
 * Each family names its dialect in a file of its own, stream/<family>/family_dialect.c:
 *   const pmu_dialect *const pmu_family_dialect_<name> = &pmu_dialect_<its dialect>;
 * (the same dialect as its descriptor's, verilator/harness/tests/test_family_regmap.cpp checks), so
 * registering a family is enough for every list below, and a family that does not name its
 * dialect does not link.
 */
#ifndef PMU_FAMILY_DIALECTS_H
#define PMU_FAMILY_DIALECTS_H

#include "common/pmu_dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_FAMILY(name) extern const pmu_dialect *const pmu_family_dialect_##name;
#include "common/pmu_families.def"
#undef PMU_FAMILY

/* PMU_NFAMILY_DIALECTS: how many there are (a constant, for arrays). */
enum {
#define PMU_FAMILY(name) pmu_family_dialect_index_##name,
#include "common/pmu_families.def"
#undef PMU_FAMILY
    PMU_NFAMILY_DIALECTS
};

/* Entry i is the dialect of the i-th registered family: *pmu_family_dialects[i]. */
static const pmu_dialect *const *const pmu_family_dialects[PMU_NFAMILY_DIALECTS] = {
#define PMU_FAMILY(name) &pmu_family_dialect_##name,
#include "common/pmu_families.def"
#undef PMU_FAMILY
};

#ifdef __cplusplus
}
#endif
#endif
