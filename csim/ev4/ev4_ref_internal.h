/* ev4_ref_internal.h - what the parts of the Alpha 21064 reference model (csim/ev4/) share.
 * Not a public header: the harness and the tests use include/csim/ev4/ev4_ref.h. */
#ifndef EV4_REF_INTERNAL_H
#define EV4_REF_INTERNAL_H

#include "common/ev4/ev4_cycle.h"
#include "common/ev4/ev4_regs.h"

/* The increment of event kind `kind` for one cycle record, in half events (docs/ev4.md,
 * "Counting"): PF_ISSUES and PF_NONISSUES add 1 half per single-issue cycle, every other
 * kind 2 halves per occurrence.  A record's nissue above EV4_MAX_ISSUE counts as
 * EV4_MAX_ISSUE (the stream dialect rejects such a record before it gets here). */
unsigned ev4_ref_halves(ev4_kind kind, const ev4_cycle *c);

#endif
