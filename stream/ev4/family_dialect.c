/*
 * family_dialect.c - the record dialect of the Alpha 21064 family (alpha21064) by the family's name,
 * for the code that reads records without the descriptor (include/stream/pmu_family_dialects.h).
 */
#include "stream/pmu_family_dialects.h"
#include "stream/ev4/ev4_stream.h"

const pmu_dialect *const pmu_family_dialect_alpha21064 = &pmu_dialect_ev4;
