/* pmulib_internal.h - helpers shared by the library's files (not installed). */
#ifndef PMULIB_INTERNAL_H
#define PMULIB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sw/ita/pmulib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill err (when not NULL) and return code. */
pmulib_err pmulib_fail(pmulib_error *err, pmulib_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
pmulib_err pmulib_ok(pmulib_error *err);

const char *pmulib_model_name(ita_model m);
bool pmulib_event_unattributed(int ev);
/* The row of the model-free queries (pmulib.h): Itanium 2's, else Itanium's. */
const ita_event_row *pmulib_home_row(int ev);
/* Whether row r of event ev supports a qualifier: 'i' code ranges, 'o' opcode
 * matching, 'd' data ranges (never for an unattributed event). */
bool pmulib_row_supports(const ita_event_row *r, int ev, char qual);
/* The row's set, PMULIB_NO_SET for none. */
int pmulib_row_set(const ita_event_row *r);
/* A decimal or 0x-hex number filling all of s: pmu_parse_u64's syntax (include/common/pmu_num.h). */
bool pmulib_parse_u64(const char *s, uint64_t *out);

/* The EAR and BTB configurations a request programs (libpfm's methods 1-4,
 * docs/ita-event-library.md): which of PMC10, PMC11, PMC12 are written, and their values. */
typedef struct pmulib_ear_regs {
    bool iear, dear, btb;
    uint64_t pmc10, pmc11, pmc12;
} pmulib_ear_regs;
pmulib_err pmulib_dispatch_ears(pmulib_ear_regs *out, const pmulib_request *rq, pmulib_error *err);

#ifdef __cplusplus
}
#endif
#endif
