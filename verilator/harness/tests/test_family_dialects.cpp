// test_family_dialects.cpp - the record dialects by family name (include/stream/pmu_family_dialects.h,
// each family's stream/<family>/family_dialect.c), which the fuzz harnesses read records
// with, are the registered families' in registry order, each its descriptor's dialect.
#include <gtest/gtest.h>

#include "common/pmu_family.h"
#include "stream/pmu_family_dialects.h"

namespace {

TEST(FamilyDialects, EachFamilysIsItsDescriptorsInRegistryOrder)
{
    ASSERT_EQ(static_cast<unsigned>(PMU_NFAMILY_DIALECTS), pmu_nfamilies);
    for (unsigned i = 0; i < pmu_nfamilies; i++) {
        const pmu_dialect *d = *pmu_family_dialects[i];
        EXPECT_EQ(d, pmu_families[i]->dialect)
            << pmu_families[i]->name << ": dialect " << d->name << ", its descriptor's "
            << pmu_families[i]->dialect->name;
    }
}

} // namespace
