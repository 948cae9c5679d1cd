/*
 * cli/pmu_kvfile.h - "key = value" files, the form of the Alpha families' setups
 * (docs/ev4-pfm.md, docs/ev67-harness.md): one setting per line, '#' starts a comment,
 * blank lines are skipped, spaces around the key and the value are not part of them.
 * One reader for every family that uses the form, so that they report bad lines alike;
 * its line reader also reads run --writes schedules (include/cli/pmu_writes.h).
 */
#ifndef PMU_KVFILE_H
#define PMU_KVFILE_H

#include <stddef.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest line (without its newline). */
#define PMU_KV_LINE_MAX 511u

/* Receives one line that is not blank, its comment cut and its leading blanks skipped;
 * `where` is "NAME:LINE".  0, or -1 with err filled. */
typedef int (*pmu_line_fn)(void *ctx, char *line, const char *where, unsigned lineno, pmu_err *err);

/* Calls fn() for each such line of text[0..len) (at most PMU_KV_LINE_MAX characters, no
 * NUL byte: otherwise -1 with err filled, PMU_E_INPUT), in order; `name` names the text
 * in messages.  0, or what fn() returned. */
int pmu_lines_parse(const char *text, size_t len, const char *name, pmu_line_fn fn, void *ctx, pmu_err *err);

/* Receives one setting; `where` is "NAME:LINE: KEY" for messages.  0, or -1 with err
 * filled. */
typedef int (*pmu_kv_set_fn)(void *ctx, const char *key, const char *value, const char *where,
                             pmu_err *err);

/* Calls set() for each setting of text[0..len), in order; `name` names the text in
 * messages.  0, or -1 with err filled (PMU_E_INPUT for a line that is not a setting, or
 * what set() returned). */
int pmu_kv_parse(const char *text, size_t len, const char *name, pmu_kv_set_fn set, void *ctx,
                 pmu_err *err);

#ifdef __cplusplus
}
#endif
#endif
