/*
 * ev4_pfcntr_sw.h - the 21064 part of <sys/pfcntr.h>: what a program using the OSF/1
 * `pfm` pseudo-device (pfm(7)) includes.  The names are the manual page's.  The ioctl
 * numbers and structure layouts are those of one OS version, Tru64 UNIX V5.1
 * (<sys/pfcntr.h> rev 1.1.47.1, 2001) on LP64: docs/ev4-pfm.md says why that one.
 *
 * The mux codes (PF_ISSUES ...) are expanded from include/common/ev4/ev4_regs.def, the one
 * source of the hardware encodings.
 */
#ifndef EV4_PFCNTR_SW_H
#define EV4_PFCNTR_SW_H

#include <stdint.h>

#include "common/pmu_def.h"

#ifdef __cplusplus
extern "C" {
#endif

/* struct iccsr: the software view of the ICCSR counter fields, "sparse definition ...
 * only the bits we can actually change are set".  iccsr_disable is software only: the
 * driver keeps it and never passes it to the hardware (there, bits 35/36 are PIPE/BPE).
 * Bit-fields are allocated from bit 0, as on Alpha. */
struct iccsr {
    uint64_t iccsr_pc1 : 1;
    uint64_t iccsr_ign0 : 2;
    uint64_t iccsr_pc0 : 1;
    uint64_t iccsr_ign1 : 4;
    uint64_t iccsr_mux0 : 4;
    uint64_t iccsr_ign2 : 20;
    uint64_t iccsr_mux1 : 3;
    uint64_t iccsr_disable : 2;
    uint64_t iccsr_ign3 : 27;
};

/* The driver's counts of interrupts (not the chip's counts of events) and the cycle
 * counter at the last one; the 21064 order, cycles last. */
struct pfcntrs {
    uint64_t pf_cntr0;
    uint64_t pf_cntr1;
    uint64_t pr_cycle;
};

/* IPL histogram: 0-5 IPL0-IPL5, 6 unused, 7 idle ticks, 8 user-mode ticks. */
#define PFM_NIPL 9
#define PFM_IPL_IDLE 7
#define PFM_IPL_USER 8
struct pfipls {
    uint64_t ipl[PFM_NIPL];
};

/* PCNTSETKADDR / PCNTSETUADDR: the address range to profile, [start, end). */
struct addr_range {
    uint64_t start;
    uint64_t end;
};

/* Open modes, ORed into the open flags. */
#define PCNTOPENONE 0100000
#define PCNTOPENEACH 0200000
#define PCNTOPENALL 0300000
#define PCNTOPENMASK 0300000

/* Items collected at each tick (PCNTSETITEMS). */
#define PFM_COUNTERS 1
#define PFM_IPL 2
#define PFM_PROFILING 4

/* Counter periods (ICCSR pc0 / pc1). */
#define PF_C0_INT_EVERY_65536 0
#define PF_C0_INT_EVERY_4096 1
#define PF_C1_INT_EVERY_4096 0
#define PF_C1_INT_EVERY_256 1

/* The mux codes: PF_ISSUES ... PF_EXTPIN0 for iccsr_mux0, PF_DCACHE ... PF_EXTPIN1 for
 * iccsr_mux1. */
#define PMU_COL_PFC_CODE_CODE(x) (x)
#define EV4_MUX(ctr, name, code, kind, desc) name = PMU_COL(PFC_CODE, code),
enum pfcntr_mux_code {
#include "common/ev4/ev4_regs.def"
    PF_MUX_END_
};
#undef EV4_MUX

/* OSF/Tru64 ioctl encoding (<sys/ioctl.h>): direction | (length & 0x1fff) << 16 |
 * group << 8 | number. */
#define PFM_IOC_VOID 0x20000000ul
#define PFM_IOC_OUT 0x40000000ul
#define PFM_IOC_IN 0x80000000ul
#define PFM_IOC(dir, num, len) ((dir) | (((unsigned long)(len) & 0x1fffu) << 16) | ((unsigned long)'P' << 8) | (num))

#define PCNTRDISABLE PFM_IOC(PFM_IOC_VOID, 0, 0)                           /* 0x20005000 */
#define PCNTRENABLE PFM_IOC(PFM_IOC_VOID, 1, 0)                            /* 0x20005001 */
#define PCNTSETMUX PFM_IOC(PFM_IOC_IN, 2, sizeof(struct iccsr))            /* 0x80085002 */
#define PCNTLOGALL PFM_IOC(PFM_IOC_VOID, 3, 0)                             /* 0x20005003 */
#define PCNTLOGSELECT PFM_IOC(PFM_IOC_VOID, 4, 0)                          /* 0x20005004 */
#define PCNTCLEARCNT PFM_IOC(PFM_IOC_VOID, 5, 0)                           /* 0x20005005 */
#define PCNTGETCNT PFM_IOC(PFM_IOC_IN, 6, sizeof(struct pfcntrs *))        /* 0x80085006 */
#define PCNTGETRSIZE PFM_IOC(PFM_IOC_OUT, 10, sizeof(long))                /* 0x4008500a */
#define PCNTGETIPLHIS PFM_IOC(PFM_IOC_IN, 11, sizeof(struct pfipls *))     /* 0x8008500b */
#define PCNTSETITEMS PFM_IOC(PFM_IOC_IN, 31, sizeof(long))                 /* 0x8008501f */
#define PCNTSETUADDR PFM_IOC(PFM_IOC_IN, 32, sizeof(struct addr_range))    /* 0x80105020 */
#define PCNTSETKADDR PFM_IOC(PFM_IOC_IN, 33, sizeof(struct addr_range))    /* 0x80105021 */

/* PALcode wrperfmon function codes (CALL_PAL 0x39, a0). */
#define PFDISABLE 0
#define PFENABLE 1
#define PFSET 2
#define PFOPT 3
/* PFOPT options (a1). */
#define PFOPT_LOGALL 1
#define PFOPT_LOGSELECT 2

#ifdef __cplusplus
}
#endif
#endif
