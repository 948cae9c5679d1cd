/*
 * fuzz_config.c - the configuration reader of every registered family (include/common/pmu_families.def):
 * each family's part is its own tests/fuzz/config_<family>.c, fuzz_config_<family>(), which
 * gives an accepted text a consistent result and checks that a refused one has an error
 * naming the file and the line (docs/fuzzing.md).  A registered family without its part does
 * not link.
 */
#include "fuzz_config.h"

#define PMU_FAMILY(name) void fuzz_config_##name(const char *text, size_t len);
#include "common/pmu_families.def"
#undef PMU_FAMILY

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The readers take a length: the input as it is, so that a read past its end is one past
     * the allocation, which a sanitizer reports. */
    const char *text = (const char *)data;
#define PMU_FAMILY(name) fuzz_config_##name(text, size);
#include "common/pmu_families.def"
#undef PMU_FAMILY
    return 0;
}
