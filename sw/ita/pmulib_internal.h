/* pmulib_internal.h - helpers shared by the library's files (not installed). */
#ifndef PMULIB_INTERNAL_H
#define PMULIB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ita/pmulib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill err (when not NULL) and return code. */
pmulib_err pmulib_fail(pmulib_error *err, pmulib_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
pmulib_err pmulib_ok(pmulib_error *err);

const char *pmulib_model_name(pmu_model m);
bool pmulib_event_unattributed(int ev);
/* A decimal or 0x-hex number filling all of s: pmu_parse_u64's syntax (include/pmu_num.h). */
bool pmulib_parse_u64(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
