/* kvfile.c - "key = value" files (include/cli/pmu_kvfile.h). */
#include "cli/pmu_kvfile.h"

#include <stdio.h>
#include <string.h>

int pmu_kv_parse(const char *text, size_t len, const char *name, pmu_kv_set_fn set, void *ctx,
                 pmu_err *err)
{
    size_t pos = 0;
    unsigned lineno = 0;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        char line[PMU_KV_LINE_MAX + 1], where[300];
        size_t n = end - pos;
        lineno++;
        snprintf(where, sizeof where, "%s:%u", name, lineno);
        if (n > PMU_KV_LINE_MAX)
            return pmu_errf(err, PMU_E_INPUT, "%s: line longer than %u characters", where, PMU_KV_LINE_MAX);
        memcpy(line, text + pos, n);
        line[n] = 0;
        pos = end + 1;
        if (memchr(line, 0, n))
            return pmu_errf(err, PMU_E_INPUT, "%s: expected text, found a NUL byte", where);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *key = line + strspn(line, " \t\r");
        if (!*key)
            continue;
        char *eq = strchr(key, '=');
        if (!eq)
            return pmu_errf(err, PMU_E_INPUT, "%s: expected 'key = value'", where);
        char *k_end = eq;
        while (k_end > key && strchr(" \t", k_end[-1]))
            k_end--;
        *k_end = 0;
        char *value = eq + 1 + strspn(eq + 1, " \t");
        size_t vl = strlen(value);
        while (vl && strchr(" \t\r", value[vl - 1]))
            value[--vl] = 0;
        char kwhere[400];
        snprintf(kwhere, sizeof kwhere, "%s: %s", where, key);
        if (set(ctx, key, value, kwhere, err))
            return -1;
    }
    return 0;
}
