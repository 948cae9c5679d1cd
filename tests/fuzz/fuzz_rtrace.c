/*
 * fuzz_rtrace.c - the raw trace of a program run under QEMU (include/stream/pmu_rtrace.h): the
 * reader gives executed instructions whose sizes and accesses are in range and whose next PC
 * is the following instruction's address (the last one's, its own end), and counts each, or
 * an error naming the trace; the mappings it keeps have non-empty paths.
 */
#define _GNU_SOURCE /* fmemopen */
#include "fuzz.h"
#include "stream/pmu_rtrace.h"

#define NAME "fuzz.rtrace"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmu_err err;
    pmu_err_clear(&err);
    static const uint8_t none[1];
    FILE *f = fmemopen((void *)(size ? data : none), size ? size : 1, "rb");
    FUZZ_CHECK(f != NULL, "fmemopen");
    if (size == 0)
        (void)fgetc(f);
    pmu_rtrace *t = pmu_rtrace_open(f, NAME, &err);
    if (!t) {
        fuzz_check_err(&err, NAME);
        fclose(f);
        return 0;
    }
    pmu_rinsn cur, prev;
    uint64_t n = 0;
    int r;
    while ((r = pmu_rtrace_next(t, &cur, &err)) == 1) {
        FUZZ_CHECK(cur.size >= 1 && cur.size <= PMU_RINSN_MAX_BYTES, "instruction %llu of %u bytes",
                   (unsigned long long)n, cur.size);
        FUZZ_CHECK(cur.nmem <= PMU_RINSN_MAX_MEM, "instruction %llu with %u accesses", (unsigned long long)n, cur.nmem);
        for (unsigned k = 0; k < cur.nmem; k++)
            FUZZ_CHECK(cur.mem[k].size >= 1 && cur.mem[k].store <= 1, "access %u of instruction %llu", k,
                       (unsigned long long)n);
        FUZZ_CHECK(n == 0 || prev.next_pc == cur.pc, "instruction %llu's next PC 0x%llx, the next one at 0x%llx",
                   (unsigned long long)n - 1, (unsigned long long)prev.next_pc, (unsigned long long)cur.pc);
        prev = cur;
        n++;
    }
    if (r < 0) {
        fuzz_check_err(&err, NAME);
    } else {
        FUZZ_CHECK(n == pmu_rtrace_exec_count(t), "%llu instructions, %llu executions counted", (unsigned long long)n,
                   (unsigned long long)pmu_rtrace_exec_count(t));
        FUZZ_CHECK(n == 0 || prev.next_pc == prev.pc + prev.size, "the last instruction's next PC");
        uint64_t host;
        const char *path;
        for (unsigned i = 0; (path = pmu_rtrace_map(t, i, &host)) != NULL; i++)
            FUZZ_CHECK(path[0] != '\0', "mapping %u has an empty path", i);
    }
    pmu_rtrace_close(t);
    fclose(f);
    return 0;
}
