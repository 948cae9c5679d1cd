/*
 * family_dialect.c - the record dialect of the Itanium family (itanium) by the family's name,
 * for the code that reads records without the descriptor (include/stream/pmu_family_dialects.h).
 */
#include "stream/pmu_family_dialects.h"
#include "harness/ita/ita_family.h"

const pmu_dialect *const pmu_family_dialect_itanium = &ita_dialect;
