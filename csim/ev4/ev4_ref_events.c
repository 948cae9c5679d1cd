/*
 * ev4_ref_events.c - what each Alpha 21064 mux selection adds for one cycle record, in
 * half events: the table of docs/ev4.md, "Counting" (pfm(7) for what each event means).
 * The rest of the reference model (ev4_ref.c) never looks inside a record.
 */
#include "ev4_ref_internal.h"

/* Issued instructions of class `cls` among the first `n` slots. */
static unsigned issued_of_class(const ev4_cycle *c, unsigned n, ev4_class cls)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        k += c->cls[i] == cls;
    return k;
}

unsigned ev4_ref_halves(ev4_kind kind, const ev4_cycle *c)
{
    /* The 21064 issues at most two a cycle; slots past them do not exist in the record. */
    const unsigned n = c->nissue < EV4_MAX_ISSUE ? c->nissue : EV4_MAX_ISSUE;
    const unsigned no_issue = n == 0;

    switch (kind) {
    case EV4_KIND_ISSUES:
        /* pfm(7): 1 per dual issue, 1/2 per single issue: one half per instruction. */
        return n;
    case EV4_KIND_NONISSUES:
        /* pfm(7): the inverse of Issues: 1 per empty cycle, 1/2 per single issue. */
        return EV4_MAX_ISSUE - n;
    /* Pipe dry and pipe frozen count cycles, not instances (pfm(7) NOTES). */
    case EV4_KIND_PIPEDRY:
        return 2u * (no_issue && c->stall == EV4_STALL_DRY);
    case EV4_KIND_PIPEFROZEN:
        return 2u * (no_issue && c->stall == EV4_STALL_FROZEN);
    /* A replayed load is issued again, so its class counts it again: the replay bit
     * neither adds nor removes a count. */
    case EV4_KIND_LOADS:
        return 2u * issued_of_class(c, n, EV4_CLASS_LOAD);
    case EV4_KIND_BRANCHES:
        return 2u * issued_of_class(c, n, EV4_CLASS_BRANCH);
    case EV4_KIND_FPOPS:
        return 2u * issued_of_class(c, n, EV4_CLASS_FPOP);
    case EV4_KIND_INTOPS:
        return 2u * issued_of_class(c, n, EV4_CLASS_INTOP);
    case EV4_KIND_STORES:
        return 2u * issued_of_class(c, n, EV4_CLASS_STORE);
    case EV4_KIND_CYCLES:
        return 2u;
    case EV4_KIND_PALCYCLES:
        return 2u * (c->mode == EV4_MODE_PAL);
    case EV4_KIND_DUAL:
        return 2u * (n == EV4_MAX_ISSUE);
    case EV4_KIND_PIN0:
        return 2u * c->pin0;
    case EV4_KIND_PIN1:
        return 2u * c->pin1;
    case EV4_KIND_DCACHE:
        return 2u * c->dmiss;
    case EV4_KIND_ICACHE:
        return 2u * c->imiss;
    case EV4_KIND_MISPREDICT:
        return 2u * c->mispredict;
    case EV4_KIND_NONE:
    default:
        return 0; /* an undefined mux0 code that counts nothing (Mux0Undef = 0) */
    }
}
