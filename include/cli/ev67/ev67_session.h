/*
 * ev67_session.h - the harness's side of the Alpha 21264/EV67 family (verilator/ev67/): a
 * setup (which software runs on the counter block: the perf driver with its events and
 * periods, or the ProfileMe sampler with its period and window inputs), parsed from a
 * configuration file or a command's options, and a session that runs it on a backend
 * with the checks that compare the software's results with the reference model's
 * (docs/ev67-harness.md).
 */
#ifndef EV67_SESSION_H
#define EV67_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "common/pmu_backend.h"
#include "cli/pmu_cli.h"
#include "common/pmu_err.h"
#include "cli/pmu_symtab.h"
#include "common/ev67/ev67_cycle.h"
#include "sw/ev67/ev67_perf_drv.h"
#include "sw/ev67/ev67_pme_drv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ev67_setup_mode {
    EV67_SETUP_PERF = 0,     /* aggregate mode: the perf driver (sw/ev67/ev67_perf.c) */
    EV67_SETUP_PROFILEME = 1 /* ProfileMe mode: the sampler (sw/ev67/ev67_pme.c) */
} ev67_setup_mode;

/* A setup (docs/ev67-harness.md, "Setups"). */
typedef struct ev67_setup {
    unsigned model;     /* index into the family's models */
    int model_given;
    ev67_setup_mode mode;
    /* perf: one event or an allowed pair, each with its sampling period (0: the largest) */
    unsigned nevents;
    unsigned events[EV67_PERF_MAX_EVENTS];
    uint64_t periods[EV67_PERF_MAX_EVENTS];
    /* profileme */
    uint32_t pme_period; /* fetched instructions between samples (1..2^20-1; clamped as the
                            sampler clamps it) */
    unsigned sl1;        /* PCTR_CTL.SL1 in the window */
} ev67_setup;

/* The built-in setup's text: what `make sim` and `pmusim run` use without --config. */
const char *ev67_setup_builtin(void);
/* The defaults (the built-in setup). */
void ev67_setup_default(ev67_setup *s);
/* One setting (`where` prefixes the message).  0, or -1 with err filled (PMU_E_INPUT). */
int ev67_setup_set(ev67_setup *s, const char *key, const char *value, const char *where, pmu_err *err);
/* A configuration text (include/cli/pmu_kvfile.h), over the defaults.  0, or -1 with err. */
int ev67_setup_parse(ev67_setup *s, const char *text, size_t len, const char *name, pmu_err *err);
/* Lines saying what is set up, each starting with `prefix`. */
void ev67_setup_print(const ev67_setup *s, const char *prefix, FILE *out);

/* ---- a session: the setup's software on one counter block ---- */
typedef struct ev67_session ev67_session;

/* Starts the setup's software on the reset backend b (not owned).  NULL + err. */
ev67_session *ev67_session_start(const ev67_setup *s, pmu_backend *b, pmu_err *err);
void ev67_session_free(ev67_session *x);
/* Around each record: before it is stepped, and with the line after its clock. */
void ev67_session_before(ev67_session *x, const ev67_cycle *rec);
void ev67_session_after(ev67_session *x, uint8_t pmi);

/* The run loop's hooks (include/cli/pmu_cli.h) calling the two above. */
pmu_record_hooks ev67_session_hooks(ev67_session *x);

/* The software (NULL when the setup runs the other one). */
ev67_perf *ev67_session_perf(ev67_session *x);
ev67_pme *ev67_session_pme(ev67_session *x);
/* Interrupts the software took. */
uint64_t ev67_session_interrupts(ev67_session *x);

/* The reference model behind b (b itself, or a lock-step pair's), or NULL (the RTL
 * alone: nothing to compare with). */
pmu_backend *ev67_session_ref(pmu_backend *b);

/* Compares the software's results with the reference model's when there is one: perf,
 * each event's 64-bit count with the model's total of its counter; profileme, each
 * sample's registers with the model's record of the same window, and no window lost.
 * Prints "exact: ..." (always when not exact, with say_exact when exact).  1 exact or
 * nothing to compare, 0 not. */
int ev67_session_check(ev67_session *x, int say_exact, FILE *out);
/* perf: the counter table; profileme: the sampler's summary line. */
void ev67_session_print(ev67_session *x, FILE *out);
/* The same as one JSON object, with the interrupts taken (run --json, docs/json.md). */
void ev67_session_print_json(ev67_session *x, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
