/*
 * ev4_pal.c - the PALcode's part of the counters: CALL_PAL wrperfmon (0x39) and what
 * swpctx does with the PCB's PME bit (docs/ev4-pfm.md, "The PALcode").
 *
 * Sources: docs/sources.md (AAH Table E-1, the DIGITAL UNIX wrperfmon functions for the
 * 21064; dc21064.h ICCSR, HIER; OSF/1 pcb.h PCB_PME_BIT).  No EV4 PALcode source that
 * shows the PME linkage was found: the swpctx rule is pmusim's reading of pfm(7)
 * PCNTLOGSELECT (docs/ev4-pfm.md).
 *
 * Every register is read, modified in its counter fields and written back, so the bits
 * of these IPRs that belong to the rest of the chip are kept.
 */
#include "ev4_os_internal.h"

#define HIER_ENABLES (EV4_FMASK(HIER, PC0) | EV4_FMASK(HIER, PC1))
#define ICCSR_PME (EV4_FMASK(ICCSR, PME0) | EV4_FMASK(ICCSR, PME1))

/* Sets (on) or clears the bits `mask` of register addr. */
static void pal_bits(ev4_cpu *c, uint16_t addr, uint64_t mask, unsigned on)
{
    uint64_t v = pmu_read(c->b, addr);
    pmu_write(c->b, addr, on ? v | mask : v & ~mask);
}

/* PFSET: the counter fields of ICCSR from a1 (ICCSR write format); PME stays PAL's. */
static void pal_set(ev4_cpu *c, uint64_t a1)
{
    uint64_t v = pmu_read(c->b, EV4_ADDR_ICCSR);
    v = EV4_FSET(v, ICCSR, PC0, EV4_FGET(a1, ICCSR, PC0));
    v = EV4_FSET(v, ICCSR, PC1, EV4_FGET(a1, ICCSR, PC1));
    v = EV4_FSET(v, ICCSR, MUX0, EV4_FGET(a1, ICCSR, MUX0));
    v = EV4_FSET(v, ICCSR, MUX1, EV4_FGET(a1, ICCSR, MUX1));
    pmu_write(c->b, EV4_ADDR_ICCSR, v);
    c->last_pfset = a1;
}

/* The PME bits for the process current on cpu under the logging option: all processes
 * count, or those whose PCB has the PME bit (pid 0's is always clear). */
static void pal_apply_opt(ev4_os *os, unsigned cpu)
{
    ev4_cpu *c = &os->cpu[cpu];
    unsigned on = c->pal_opt == EV4_PAL_LOGALL ? 1u : (unsigned)ev4_os_pcb_pme(os, c->cur);
    pal_bits(c, EV4_ADDR_ICCSR, ICCSR_PME, on);
}

void ev4_pal_swpctx(ev4_os *os, unsigned cpu)
{
    /* Logging all: PME is already set and a switch leaves it so. */
    if (os->cpu[cpu].pal_opt == EV4_PAL_LOGSELECT)
        pal_apply_opt(os, cpu);
}

uint64_t ev4_pal_wrperfmon(ev4_os *os, unsigned cpu, uint64_t a0, uint64_t a1)
{
    if (!os || cpu >= os->ncpus)
        return 0;
    ev4_cpu *c = &os->cpu[cpu];
    switch (a0) {
    case PFDISABLE: /* both counters' interrupt enables */
        pal_bits(c, EV4_ADDR_HIER, HIER_ENABLES, 0);
        return 1;
    case PFENABLE:
        pal_bits(c, EV4_ADDR_HIER, HIER_ENABLES, 1);
        return 1;
    case PFSET:
        pal_set(c, a1);
        return 1;
    case PFOPT:
        /* AAH Table E-1: <0> log all processes, <1> log selected ones; one of them. */
        if (a1 != PFOPT_LOGALL && a1 != PFOPT_LOGSELECT)
            return 0;
        c->pal_opt = a1 == PFOPT_LOGALL ? EV4_PAL_LOGALL : EV4_PAL_LOGSELECT;
        pal_apply_opt(os, cpu);
        return 1;
    default:
        return 0;
    }
}

uint64_t ev4_pal_last_pfset(const ev4_os *os, unsigned cpu)
{
    return os && cpu < os->ncpus ? os->cpu[cpu].last_pfset : 0;
}
