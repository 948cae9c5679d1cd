/*
 * family_dialect.c - the record dialect of the Alpha 21264 family (alpha21264) by the family's name,
 * for the code that reads records without the descriptor (include/stream/pmu_family_dialects.h).
 */
#include "stream/pmu_family_dialects.h"
#include "stream/ev67/ev67_stream.h"

const pmu_dialect *const pmu_family_dialect_alpha21264 = &pmu_dialect_ev67;
