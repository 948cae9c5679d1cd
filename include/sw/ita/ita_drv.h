/*
 * drv.h - the PMU overflow driver: 64-bit virtual counters, per-process contexts,
 * sampling.  docs/ita-driver.md describes the structure, the code sequences and why the
 * counts are exact.
 *
 * The driver plays the kernel's performance-monitoring module.  It talks to the PMU
 * only through pmu_read()/pmu_write() on a pmu_backend and through the interrupt
 * line the harness hands it after each step, so it runs unchanged on the reference
 * model, the RTL and the lock-step pair.
 *
 * Sessions (ITA-PRM §6.1.3.2, Figures 6-6..6-8; sources: docs/sources.md):
 *   PER_PROCESS  user monitors (PMCn.pm = 0, enabled by PSR.up).  Each monitored
 *                process has a context: its configuration and counters.  The
 *                context-switch hook saves the outgoing context and restores the
 *                incoming one, and sets PSR.up (and IPSR.up, what the kernel's rfi
 *                will restore) only for a monitored process.  One attached process is
 *                Figure 6-6, several Figure 6-7.  DCR.pp = 0.
 *   SYSTEM_WIDE  privileged monitors (PMCn.pm = 1, enabled by PSR.pp) over every
 *                process; DCR.pp = 1 lets interruption handlers count, 0 does not
 *                (Figure 6-8).  With `per_process` the counts are still broken down
 *                by process (a context per process, all with the one configuration).
 *
 * How the harness drives it, per cycle record (ita_drv_step() does all three):
 *   ita_drv_before_step(d, &rec)   the OS side: a record whose pid differs from the
 *                                  running one is the OS's context switch (the
 *                                  generator switches inside the kernel); the hook
 *                                  runs the switch sequence before the record is
 *                                  stepped, and applies the session's PSR policy to
 *                                  the record (see docs/ita-driver.md, "The record hook")
 *   pmu_step(b, &rec)
 *   ita_drv_after_step(d, &rec, pmi) the interrupt line: a pulse is delivered
 *                                  `latency` records later (the PMU stays frozen in
 *                                  between), then the service routine runs.
 *
 * Counters are numbered 0..3 = PMC4/PMD4..PMC7/PMD7.  Nothing here prints or exits;
 * functions that can fail return -1 (or NULL) and fill a pmu_err (include/common/pmu_err.h):
 * PMU_E_INPUT for a bad option, configuration or call, PMU_E_NOMEM when memory runs
 * out.
 */
#ifndef ITA_DRV_H
#define ITA_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "common/ita/ita_regs.h"
#include "common/ita/ita_cycle.h"
#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ITA_DRV_MAX_REGS 32        /* configuration registers of one context */
#define ITA_DRV_DEFAULT_LATENCY 4  /* records from the interrupt pulse to the service */
#define ITA_DRV_MAX_LATENCY 1000000u
#define ITA_DRV_ALL_PIDS 0x10000u  /* key of the single context of a system-wide session
                                      without per-process counts */

typedef enum ita_drv_mode { ITA_DRV_PER_PROCESS = 0, ITA_DRV_SYSTEM_WIDE = 1 } ita_drv_mode;

typedef struct ita_drv_reg {
    uint16_t addr;   /* register-port address (ITA_ADDR) */
    uint64_t value;
} ita_drv_reg;

/* What a sample of a counter reads besides the counter: the EAR or the BTB whose
 * captures the counter's event counts (L1I_EAR_EVENTS, DATA_EAR_EVENTS, BRANCH_EVENT;
 * docs/ita-ear-btb.md). */
typedef enum ita_drv_capture {
    ITA_DRV_CAPTURE_NONE = 0,
    ITA_DRV_CAPTURE_IEAR = 1,  /* PMD0, PMD1 */
    ITA_DRV_CAPTURE_DEAR = 2,  /* PMD2, PMD3, PMD17 */
    ITA_DRV_CAPTURE_BTB = 3    /* PMD8..PMD16; the BTB is emptied (PMD16 = 0) after the read */
} ita_drv_capture;
#define ITA_DRV_MAX_CAPTURE_REGS 9

/* The registers a capture kind reads, in the order a sample holds them; returns how
 * many (0 for ITA_DRV_CAPTURE_NONE or a bad kind). */
unsigned ita_drv_capture_regs(ita_drv_capture k, uint16_t addr[ITA_DRV_MAX_CAPTURE_REGS]);

/* What one context programs: its configuration registers (PMC4..7 and the
 * qualification and EAR/BTB configuration registers PMC8..15, IBR0..7, DBR0..7, e.g.
 * a ita_evlib dispatch's writes) and, per counter, a sampling period and what its samples
 * read.  A configuration register not listed is restored at its reset value.  The
 * driver sets PMCn.pm (from the session) and PMCn.oi (always: every wrap must
 * interrupt, or it could go unseen) in the counters listed.  The EAR and BTB data
 * registers (PMD0..3, PMD8..17) are no configuration: every context starts them at
 * their reset values and keeps its own across switches, as it keeps its counters. */
typedef struct ita_drv_config {
    unsigned nregs;
    ita_drv_reg reg[ITA_DRV_MAX_REGS];
    uint64_t period[ITA_NCOUNTERS];  /* 0: count only; 1..2^W: sample every period events */
    uint8_t capture[ITA_NCOUNTERS];  /* ita_drv_capture, for a sampling counter */
} ita_drv_config;

/* One sample: an overflow of a sampling counter, taken by the service routine. */
typedef struct ita_drv_sample {
    uint64_t record;   /* index of the record at the interrupt (0 = first record stepped) */
    uint64_t ip;       /* address of the last instruction retired at or before that record */
    uint32_t pid;      /* process whose context was loaded */
    uint8_t cpl;       /* privilege level of that record */
    uint8_t counter;   /* 0..3 */
    uint8_t capture;   /* the counter's ita_drv_capture */
    uint8_t nregs;     /* registers read (ita_drv_capture_regs), while the PMU was frozen */
    uint16_t addr[ITA_DRV_MAX_CAPTURE_REGS];
    uint64_t value[ITA_DRV_MAX_CAPTURE_REGS];
} ita_drv_sample;

typedef void (*ita_drv_sample_fn)(void *arg, const ita_drv_sample *s);

typedef struct ita_drv_opts {
    ita_drv_mode mode;
    int dcr_pp;              /* SYSTEM_WIDE: 1 = interruption handlers count (DCR.pp = 1) */
    int per_process;         /* SYSTEM_WIDE: keep separate counts per process */
    int every_process;       /* PER_PROCESS: monitor every process (the idle task, pid 0,
                                included) with `config` from its first switch-in; 0 =
                                only the processes given to ita_drv_attach() */
    unsigned latency;        /* records from the interrupt pulse to the service routine */
    ita_drv_config config;   /* the session's configuration (system-wide, every_process,
                                and ita_drv_attach() with cfg == NULL) */
    ita_drv_sample_fn on_sample;  /* called for each sample; NULL = samples only counted */
    void *sample_arg;
} ita_drv_opts;

/* Opts with PER_PROCESS, every_process = 0, DCR.pp = 1 for system-wide use, the
 * default latency and an empty configuration. */
ita_drv_opts ita_drv_opts_default(void);

typedef struct ita_drv ita_drv;

/* A driver for the PMU behind `b` (which it does not own).  Checks the options and
 * the configuration against b's model; NULL + err on a bad one.  Writes nothing to
 * the PMU until ita_drv_start(). */
ita_drv *ita_drv_create(pmu_backend *b, const ita_drv_opts *o, pmu_err *err);
void ita_drv_destroy(ita_drv *d);

/* PER_PROCESS: monitor process `pid` with `cfg` (NULL = the session's configuration).
 * Before ita_drv_start() only.  -1 + err on a bad configuration, a second attach of
 * the same pid, or in a system-wide session. */
int ita_drv_attach(ita_drv *d, uint16_t pid, const ita_drv_config *cfg, pmu_err *err);

/* Programs the PMU for the session with process `pid` running: freeze, DCR.pp, PSR and
 * IPSR cleared, then the switch-in of `pid`.  ita_drv_before_step() calls it with the
 * first record's pid when the harness has not.  -1 + err when already started. */
int ita_drv_start(ita_drv *d, uint16_t pid, pmu_err *err);

/* The context switch to `pid` (the save and restore sequences of docs/ita-driver.md);
 * nothing when `pid` is already running.  The record hook calls it; a harness that
 * learns of switches another way may call it between steps. */
void ita_drv_switch(ita_drv *d, uint16_t pid);

/* The record hook, before stepping `c`: starts the session on the first record,
 * switches on a pid change, then applies the PSR policy (may clear c->up_we and
 * c->pp_we: see docs/ita-driver.md). */
void ita_drv_before_step(ita_drv *d, ita_cycle *c);

/* After stepping `c`: `pmi` is the interrupt line of that step (pmu_snapshot().pmi).
 * Latches a pulse and runs the service routine when its latency has passed. */
void ita_drv_after_step(ita_drv *d, const ita_cycle *c, int pmi);

/* before_step, pmu_step, the interrupt line, after_step. */
void ita_drv_step(ita_drv *d, ita_cycle *c);

/* The overflow service routine, now (the harness delivers it through after_step). */
void ita_drv_interrupt(ita_drv *d);

/* End of the session: delivers a latched interrupt now, saves the running context,
 * leaves PSR.up = PSR.pp = 0 and the PMU frozen.  Counts stay readable. */
void ita_drv_stop(ita_drv *d);

/* The 64-bit virtual count of counter `counter` in the context of `pid` (use
 * ITA_DRV_ALL_PIDS for a system-wide session without per-process counts); live when
 * the context is loaded.  -1 when there is no such context or counter. */
int ita_drv_read(ita_drv *d, uint32_t pid, unsigned counter, uint64_t *value);
/* The sum of counter `counter` over every context (0 for a bad counter). */
uint64_t ita_drv_total(ita_drv *d, unsigned counter);

/* Contexts in the order they were created, and their pid. */
unsigned ita_drv_ncontexts(const ita_drv *d);
uint32_t ita_drv_context_pid(const ita_drv *d, unsigned i);

typedef struct ita_drv_ctx_info {
    uint32_t pid;
    int loaded;                           /* on the PMU now */
    uint64_t overflows[ITA_NCOUNTERS];    /* wraps folded by the service routine */
    uint64_t samples[ITA_NCOUNTERS];
    uint64_t switch_ins;
} ita_drv_ctx_info;
int ita_drv_context_info(const ita_drv *d, uint32_t pid, ita_drv_ctx_info *info);

typedef struct ita_drv_stats {
    uint64_t records;       /* records seen by after_step */
    uint64_t interrupts;    /* service routines run */
    uint64_t spurious;      /* ... that found no overflow bit */
    uint64_t overflows;     /* counter wraps folded */
    uint64_t samples;
    uint64_t switches;      /* pid changes */
    uint64_t saves, restores;
    uint64_t replays;       /* interrupts re-posted at a switch-in (saved PMC0.fr = 1) */
    uint64_t lost;          /* overflow bits found with no context loaded (never expected) */
} ita_drv_stats;
const ita_drv_stats *ita_drv_get_stats(const ita_drv *d);

/* The process running (the last pid switched to); -1 before start. */
int32_t ita_drv_current_pid(const ita_drv *d);
int ita_drv_started(const ita_drv *d);

#ifdef __cplusplus
}
#endif
#endif
