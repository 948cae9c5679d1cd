/* ita_evlib_internal.h - helpers shared by the library's files (not installed). */
#ifndef ITA_EVLIB_INTERNAL_H
#define ITA_EVLIB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sw/ita/ita_evlib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill err (when not NULL) and return code. */
ita_evlib_err ita_evlib_fail(ita_evlib_error *err, ita_evlib_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ita_evlib_err ita_evlib_ok(ita_evlib_error *err);

const char *ita_evlib_model_name(ita_model m);
bool ita_evlib_event_unattributed(int ev);
/* The row of the model-free queries (ita_evlib.h): Itanium 2's, else Itanium's. */
const ita_event_row *ita_evlib_home_row(int ev);
/* Whether row r of event ev supports a qualifier: 'i' code ranges, 'o' opcode
 * matching, 'd' data ranges (never for an unattributed event). */
bool ita_evlib_row_supports(const ita_event_row *r, int ev, char qual);
/* The row's set, ITA_EVLIB_NO_SET for none. */
int ita_evlib_row_set(const ita_event_row *r);
/* A decimal or 0x-hex number filling all of s: pmu_parse_u64's syntax (include/common/pmu_num.h). */
bool ita_evlib_parse_u64(const char *s, uint64_t *out);

/* The EAR and BTB configurations a request programs (libpfm's methods 1-4,
 * docs/ita-event-library.md): which of PMC10, PMC11, PMC12 are written, and their values. */
typedef struct ita_evlib_ear_regs {
    bool iear, dear, btb;
    uint64_t pmc10, pmc11, pmc12;
} ita_evlib_ear_regs;
ita_evlib_err ita_evlib_dispatch_ears(ita_evlib_ear_regs *out, const ita_evlib_request *rq, ita_evlib_error *err);

#ifdef __cplusplus
}
#endif
#endif
