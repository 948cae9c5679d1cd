/*
 * fuzz_symtab.c - symbol files for `pmusim profile --symbols` (include/cli/pmu_symtab.h): a text
 * is a table of disjoint named ranges, sorted, that finds each address of its ranges and
 * none outside them, or an error naming the file and the line.
 */
#include "fuzz.h"
#include "cli/pmu_symtab.h"

#define NAME "fuzz.sym"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmu_err err;
    pmu_err_clear(&err);
    drv_symtab *t = drv_symtab_parse((const char *)data, size, NAME, &err);
    if (!t) {
        fuzz_check_err(&err, NAME);
        if (err.code == PMU_E_INPUT)
            fuzz_check_err_line(&err, NAME);
        return 0;
    }
    unsigned lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    unsigned n = drv_symtab_count(t);
    FUZZ_CHECK(n <= lines, "%u functions from %u lines", n, lines);
    uint64_t prev_end = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t start, end;
        FUZZ_CHECK(drv_symtab_range(t, i, &start, &end) == 0, "function %u of %u has no range", i, n);
        FUZZ_CHECK(start < end, "function %u: [0x%llx, 0x%llx)", i, (unsigned long long)start,
                   (unsigned long long)end);
        FUZZ_CHECK(i == 0 || start >= prev_end, "function %u starts at 0x%llx, inside the one before", i,
                   (unsigned long long)start);
        prev_end = end;
        const char *name = drv_symtab_name(t, i);
        FUZZ_CHECK(name && name[0] && name[0] != ' ' && name[0] != '\t' && !strchr(name, '\n'),
                   "function %u is named '%s'", i, name ? name : "(null)");
        FUZZ_CHECK(drv_symtab_find(t, start) == (int)i && drv_symtab_find(t, end - 1) == (int)i,
                   "function %u [0x%llx, 0x%llx) is not found at its ends", i,
                   (unsigned long long)start, (unsigned long long)end);
        int after = drv_symtab_find(t, end);
        FUZZ_CHECK(end == 0 || after == -1 || after == (int)i + 1,
                   "the end 0x%llx of function %u is found in function %d", (unsigned long long)end, i,
                   after);
        if (start > 0) {
            int before = drv_symtab_find(t, start - 1);
            FUZZ_CHECK(before == -1 || before == (int)i - 1,
                       "the address before function %u is found in function %d", i, before);
        }
    }
    FUZZ_CHECK(drv_symtab_name(t, n) == NULL, "a name past the end");
    drv_symtab_free(t);
    return 0;
}
