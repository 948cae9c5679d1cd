/*
 * ev67_hw.h - register values and port sequences shared by the 21264/EV67 software in
 * sw/ev67/ (the perf driver ev67_perf.c, the ProfileMe sampler ev67_pme.c).  Internal:
 * not a public header.  Fields come from include/common/ev67/ev67_regs.def through EV67_FGET /
 * EV67_FSET; the sequences follow the HRM's precautions (§5.2.11, §6.10.1; coreboot ev6
 * start.inc) as docs/ev67.md models them.
 */
#ifndef EV67_HW_H
#define EV67_HW_H

#include <stdint.h>

#include "common/pmu_backend.h"
#include "common/pmu_err.h"
#include "common/ev67/ev67_regs.h"

/* Counter n's field of a PCTR_CTL value. */
static inline uint32_t ev67_hw_ctr_get(uint64_t pctr_ctl, unsigned n)
{
    return (uint32_t)(n == 0 ? EV67_FGET(pctr_ctl, PCTR_CTL, PCTR0) : EV67_FGET(pctr_ctl, PCTR_CTL, PCTR1));
}

static inline uint64_t ev67_hw_ctr_set(uint64_t pctr_ctl, unsigned n, uint32_t v)
{
    return n == 0 ? EV67_FSET(pctr_ctl, PCTR_CTL, PCTR0, v) : EV67_FSET(pctr_ctl, PCTR_CTL, PCTR1, v);
}

/* I_CTL: SPCE (count whatever the process's PPCE) and the enables of `mask` (bit n
 * counter n). */
static inline uint64_t ev67_hw_i_ctl(unsigned mask)
{
    uint64_t v = EV67_FSET(0, I_CTL, SPCE, 1);
    v = EV67_FSET(v, I_CTL, PCT0_EN, mask & 1u);
    return EV67_FSET(v, I_CTL, PCT1_EN, (mask >> 1) & 1u);
}

static inline unsigned ev67_hw_read_isum(pmu_backend *b)
{
    return (unsigned)EV67_FGET(pmu_read(b, EV67_ADDR_ISUM), ISUM, PC);
}

/* 0 when b is a 21264/EV67 counter block; else -1 with err naming `who` (PMU_E_INPUT). */
static inline int ev67_hw_check_block(const pmu_backend *b, const char *who, pmu_err *err)
{
    if (!b)
        return pmu_errf(err, PMU_E_INPUT, "%s: no counter block", who);
    if (b->nvis != EV67_NVIS)
        return pmu_errf(err, PMU_E_INPUT,
                        "%s: backend %s shows %u visible registers, expected %u (not a 21264/EV67 "
                        "counter block)",
                        who, b->name ? b->name : "?", b->nvis, (unsigned)EV67_NVIS);
    return 0;
}

/* The first steps of a reset (HRM §6.10.1; coreboot ev6 start.inc), docs/ev67-perf.md
 * "Reset" 1-3: nothing counts or interrupts; both counters written with `zero_ctl` (a
 * PCTR_CTL value with both counters 0) twice, since the overflow latch has two stages and
 * a PCTR_CTL write shifts it once; HW_INT_CLR for both counters twice (HRM guideline 35),
 * which also clears the PAL-exit interrupts the first write armed for a counter it found
 * at the overflow threshold. */
static inline void ev67_hw_quiesce(pmu_backend *b, uint64_t zero_ctl)
{
    const unsigned both = (1u << EV67_NCOUNTERS) - 1;
    pmu_write(b, EV67_ADDR_I_CTL, EV67_FSET(0, I_CTL, SPCE, 0));
    pmu_write(b, EV67_ADDR_IER_CM, EV67_FSET(0, IER_CM, PCEN, 0));
    pmu_write(b, EV67_ADDR_PCTR_CTL, zero_ctl);
    pmu_write(b, EV67_ADDR_PCTR_CTL, zero_ctl);
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, both));
    pmu_write(b, EV67_ADDR_HW_INT_CLR, EV67_FSET(0, HW_INT_CLR, PC, both));
}

/* The last steps of a reset: the first setup `ctl`, the interrupt enables `pcen` and the
 * counting enables `en` (bit n counter n). */
static inline void ev67_hw_start(pmu_backend *b, uint64_t ctl, unsigned pcen, unsigned en)
{
    pmu_write(b, EV67_ADDR_PCTR_CTL, ctl);
    pmu_write(b, EV67_ADDR_IER_CM, EV67_FSET(0, IER_CM, PCEN, pcen));
    pmu_write(b, EV67_ADDR_I_CTL, ev67_hw_i_ctl(en));
}

/* A handler's first steps: ISUM.PC, then the counters disabled (I_CTL with SPCE and no
 * enable), then ISUM.PC again, ORed (HRM §5.2.11: a read right after the interrupting
 * cycle may return 0).  A pmusim read takes no time, so the second read is made after the
 * disable write, a clock later; that clock also clears the disabled-read increment, so a
 * PCTR_CTL read right after it is exact (docs/ev67.md, precaution 5).  *first_zero is
 * set when the first read returned 0. */
static inline unsigned ev67_hw_isum_disable(pmu_backend *b, int *first_zero)
{
    unsigned isum = ev67_hw_read_isum(b);
    *first_zero = isum == 0;
    pmu_write(b, EV67_ADDR_I_CTL, ev67_hw_i_ctl(0));
    return isum | ev67_hw_read_isum(b);
}

#endif
