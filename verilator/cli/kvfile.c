/* kvfile.c - "key = value" files (include/cli/pmu_kvfile.h). */
#include "cli/pmu_kvfile.h"

#include <stdio.h>
#include <string.h>

int pmu_lines_parse(const char *text, size_t len, const char *name, pmu_line_fn fn, void *ctx, pmu_err *err)
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
        char *first = line + strspn(line, " \t\r");
        if (*first && fn(ctx, first, where, lineno, err))
            return -1;
    }
    return 0;
}

typedef struct kv_ctx {
    pmu_kv_set_fn set;
    void *ctx;
} kv_ctx;

static int kv_line(void *arg, char *key, const char *where, unsigned lineno, pmu_err *err)
{
    const kv_ctx *kv = arg;
    (void)lineno;
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
    return kv->set(kv->ctx, key, value, kwhere, err);
}

int pmu_kv_parse(const char *text, size_t len, const char *name, pmu_kv_set_fn set, void *ctx,
                 pmu_err *err)
{
    kv_ctx kv = {set, ctx};
    return pmu_lines_parse(text, len, name, kv_line, &kv, err);
}
