/*
 * pmu_dialect.h - a family's cycle-record dialect: what one record of its streams holds
 * and how it is read, written, checked and generated.
 *
 * Generic code (stream files, the lock-step checker, the commands) holds records as
 * opaque buffers of `record_size` bytes and reaches their contents only through these
 * functions.  The Itanium dialect is stream/ita/ (record: struct pmu_cycle).
 */
#ifndef PMU_DIALECT_H
#define PMU_DIALECT_H

#include <stddef.h>
#include <stdint.h>

#include "pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pmu_dialect {
    const char *name;        /* e.g. "itanium" */
    size_t record_size;      /* bytes of one record */
    /* Checks one record against the dialect's rules; `where` prefixes the message.
     * Returns 0 when valid, -1 with err filled. */
    int (*validate)(const void *rec, const char *where, pmu_err *err);
    /* The record as one self-contained text line (every field explicit, no newline),
     * truncated to size-1.  Returns the length the full line needs. */
    size_t (*format)(const void *rec, char *buf, size_t size);
};

#ifdef __cplusplus
}
#endif
#endif
