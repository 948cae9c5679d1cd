/*
 * ev4_session.h - the harness's side of the 21064 family (verilator/ev4/): a pfm setup
 * (what a tool like kprofile/uprofile asks of the pfm device), parsed from a
 * configuration file or from `pmusim pfm` options, and a session that runs it: the OS
 * model and the pfm driver of sw/ev4/ on one counter block per CPU, with the exactness
 * checks that compare what the driver reports with what the hardware did
 * (docs/ev4-pfm.md, "Exactness").
 */
#ifndef EV4_SESSION_H
#define EV4_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "common/pmu_backend.h"
#include "common/pmu_err.h"
#include "cli/pmu_outfile.h"
#include "cli/pmu_symtab.h"
#include "common/ev4/ev4_cycle.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ev4_open_mode { EV4_OPEN_ALL = 0, EV4_OPEN_EACH = 1, EV4_OPEN_ONE = 2 } ev4_open_mode;
typedef enum ev4_prof_mode { EV4_PROF_NONE = 0, EV4_PROF_KERNEL = 1, EV4_PROF_USER = 2 } ev4_prof_mode;

/* A pfm setup (docs/ev4-pfm.md, "Setups"). */
typedef struct ev4_setup {
    unsigned model;          /* index into the family's models */
    int model_given;
    ev4_open_mode open;
    uint32_t caller;         /* the process that opens the device; unless set, the generated
                                workload's shell of the bound CPU (EV4_GEN_SHELL_PID) */
    int caller_given;
    int bind;                /* the caller's CPU binding before it opens (-1: none) */
    unsigned mux[2];         /* mux codes */
    unsigned pc[2];          /* period selects (ICCSR PC0, PC1) */
    unsigned disable;        /* iccsr_disable: 0, 1 (counter 0 off) or 2 (counter 1 off) */
    unsigned items;          /* PFM_COUNTERS | PFM_IPL | PFM_PROFILING */
    int log_select;          /* PCNTLOGSELECT instead of PCNTLOGALL */
    ev4_prof_mode prof;
    uint64_t prof_start, prof_end; /* 0, 0: the workload's kernel or user text (symbols) */
    uint64_t mem_limit;      /* 0: the OS model's default */
    int enable;              /* PCNTRENABLE after the setup (default 1) */
} ev4_setup;

/* The built-in setup's text: what `make sim` and `pmusim run` use without --config. */
const char *ev4_setup_builtin(void);
/* The defaults (the built-in setup). */
void ev4_setup_default(ev4_setup *s);
/* One "key = value" setting (`key` as in the configuration file; `where` prefixes the
 * message, e.g. "cfg.txt:3" or "--mux0").  0, or -1 with err filled (PMU_E_INPUT). */
int ev4_setup_set(ev4_setup *s, const char *key, const char *value, const char *where, pmu_err *err);
/* A whole configuration text: lines "key = value", '#' comments, blank lines.  The
 * settings apply over the defaults.  0, or -1 with err filled ("name:line: ..."). */
int ev4_setup_parse(ev4_setup *s, const char *text, size_t len, const char *name, pmu_err *err);
/* The setup's own checks once every setting is in (open one needs a binding, ...). */
int ev4_setup_check(const ev4_setup *s, unsigned ncpus, const char *where, pmu_err *err);
/* Lines saying what is set up, each starting with `prefix`. */
void ev4_setup_print(const ev4_setup *s, const char *prefix, FILE *out);
/* Events per interrupt of counter n. */
uint64_t ev4_setup_period(const ev4_setup *s, unsigned n);

typedef struct ev4_session ev4_session;

/* Starts the setup on ncpus reset counter blocks (not owned): the OS model, the caller's
 * binding, open, PCNTSETITEMS, PCNTSETMUX, PCNTLOGALL/LOGSELECT, the profile range
 * (from symbols when the setup has none: syms[cpu] may be NULL), PCNTRENABLE.  NULL with
 * err filled when the setup fails (an ioctl's error names the ioctl and the errno). */
ev4_session *ev4_session_start(const ev4_setup *s, unsigned ncpus, pmu_backend *const *cpus,
                               const drv_symtab *const *syms, pmu_err *err);
/* Around each record of `cpu`: admit (the OS model's work before the record; -1 with err
 * filled when the record breaks the OS model) and after (the state after the clock). */
int ev4_session_admit(ev4_session *x, unsigned cpu, const ev4_cycle *rec, pmu_err *err);
void ev4_session_after(ev4_session *x, unsigned cpu, const ev4_cycle *rec, const pmu_state *st);
/* Ends the run: reads the driver's results (PCNTGETCNT, PCNTGETIPLHIS, PCNTGETRSIZE,
 * read) and closes the device.  0, or -1 with err filled. */
int ev4_session_finish(ev4_session *x, pmu_err *err);
/* The results, as text or as the members of one JSON object, its closing brace left to
 * the caller (after finish). */
void ev4_session_print(const ev4_session *x, FILE *out);
void ev4_session_print_json(const ev4_session *x, FILE *out);
/* The exactness checks (after finish): 1 exact, 0 not, each difference printed on out
 * (nothing printed when exact and quiet). */
int ev4_session_check(const ev4_session *x, int quiet, FILE *out);
/* --plot (docs/plots.md): the interrupts per counter, the IPL histogram and the PC profile
 * by function as bar charts into output o (after finish), committed.  0, or -1 with err
 * filled. */
int ev4_session_plot(const ev4_session *x, pmu_outfile *o, const char *title, pmu_err *err);
/* Interrupts the OS took, over every CPU and counter. */
uint64_t ev4_session_interrupts(const ev4_session *x);
void ev4_session_free(ev4_session *x);

#ifdef __cplusplus
}
#endif
#endif
