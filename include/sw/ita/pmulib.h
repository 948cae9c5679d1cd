/*
 * pmulib.h - the PMU event library: event lookup and attributes, event
 * strings, range restriction and dispatch (the register values that make the
 * PMU count what a request asks).  Plain C11; nothing here prints or exits:
 * every failure is a pmulib_err value with a one-line message in a
 * pmulib_error, which is pmusim's one error type pmu_err (include/common/pmu_err.h).
 * docs/ita-event-library.md describes the algorithms and where they differ from
 * libpfm-3.  The register encodings it writes are include/sw/ita/ita_encode.h's,
 * shared with the harness's configuration reader.
 *
 * Event ids are the stream event ids of include/common/ita/ita_events.h: one id per event name
 * over the full Itanium 2 (497) and Itanium (230) tables of libpfm-3.10, the same on
 * both models; pmulib_event_row() gives an id's row on a model.
 *
 * Sources: docs/sources.md.
 */
#ifndef PMULIB_H
#define PMULIB_H

#include <stdbool.h>
#include <stdint.h>

#include "sw/ita/ita_encode.h"
#include "common/ita/ita_events.h"
#include "common/ita/ita_regs.h"
#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -------------------------------------------------------------- */

typedef enum pmulib_err {
    PMULIB_OK = 0,
    PMULIB_ERR_BAD_ARG,          /* malformed argument (NULL, out of range, bad syntax) */
    PMULIB_ERR_UNKNOWN_EVENT,    /* no event of that name (message has "did you mean") */
    PMULIB_ERR_NOT_ON_MODEL,     /* the event is not implemented on the requested model */
    PMULIB_ERR_NO_COUNTER,       /* no assignment of PMC4..7 satisfies the counter masks */
    PMULIB_ERR_INCOMPATIBLE_SETS,/* events from different sets of the same group */
    PMULIB_ERR_QUALIFIER,        /* an event does not support a qualifier in use */
    PMULIB_ERR_THRESHOLD,        /* threshold >= the event's maxincr */
    PMULIB_ERR_RANGE_ALIGN,      /* code range not 16-byte aligned at both ends */
    PMULIB_ERR_TOO_MANY_RANGES,  /* more ranges than the mode or the pairs allow */
    PMULIB_ERR_RANGE_TOO_BIG,    /* the range needs a block larger than a pair can match */
    PMULIB_ERR_RANGE_INVALID,    /* start >= end */
    PMULIB_ERR_FEATURE_COMBINATION, /* features that cannot be combined */
    PMULIB_ERR_EVENT_INCOMPATIBLE, /* events that exclude each other (D-EAR TLB/ALAT with the BTB) */
    PMULIB_NERRS
} pmulib_err;

/* The library's errors are pmu_err values: `code` holds a pmulib_err (PMULIB_OK = 0 =
 * PMU_OK), `msg` one line without a trailing newline ("" when code == PMULIB_OK). */
typedef pmu_err pmulib_error;
#define PMULIB_MSG_LEN (sizeof ((pmulib_error *)0)->msg)

/* Short stable name of an error code ("unknown-event", ...); "invalid" out of range. */
const char *pmulib_err_name(pmulib_err e);
/* The pmu_err_code class of a library error, for a command's exit status: PMU_OK,
 * PMU_E_INPUT (every failure is about the request) or PMU_E_INTERNAL (out of range). */
pmu_err_code pmulib_err_class(pmulib_err e);

/* Every function that takes a `pmulib_error *err` fills it (when err is not
 * NULL) and returns the same code. */

/* ---- events -------------------------------------------------------------- */

/* Event type, numbered as libpfm-3's vcode type (pfmlib_itanium2_priv.h) and the
 * tables' TYPE column (enum ita_evt_type). */
typedef enum pmulib_event_type {
    PMULIB_EVT_NORMAL = 0,
    PMULIB_EVT_BTB = 1,
    PMULIB_EVT_IEAR_TLB = 2,
    PMULIB_EVT_IEAR_CACHE = 3,
    PMULIB_EVT_DEAR_TLB = 4,
    PMULIB_EVT_DEAR_CACHE = 5,
    PMULIB_EVT_DEAR_ALAT = 6
} pmulib_event_type;

typedef enum pmulib_ear_mode {
    PMULIB_EAR_CACHE = 0,
    PMULIB_EAR_TLB = 1,
    PMULIB_EAR_ALAT = 2
} pmulib_ear_mode;

typedef enum pmulib_group {
    PMULIB_GROUP_NONE = 0,
    PMULIB_GROUP_L1D = 1,
    PMULIB_GROUP_L2 = 2
} pmulib_group;
#define PMULIB_NO_SET (-1)

/* Ids are below pmulib_num_events(); some ids are unused (pmulib_event_valid false). */
unsigned pmulib_num_events(void);
bool pmulib_event_valid(int ev);
/* The event's row on a model (code, umask, type, counters, maxincr, qualifiers, group,
 * set), NULL when the model does not have the event or ev is not an event.  The
 * model-free queries below answer from the Itanium 2 row, or the Itanium row for an
 * event only Itanium has. */
const ita_event_row *pmulib_event_row(int ev, ita_model m);
/* Name of an event, NULL for an invalid id. */
const char *pmulib_event_name(int ev);

/* Case-insensitive lookup.  Unknown name: PMULIB_ERR_UNKNOWN_EVENT with
 * "unknown event 'X' (did you mean Y?)" when a close name exists. */
pmulib_err pmulib_find_event(const char *name, int *ev, pmulib_error *err);
/* The closest event name to `name` (edit distance or prefix), NULL if none is close. */
const char *pmulib_suggest_event(const char *name);

/* Boolean attributes; false for an invalid id. */
pmulib_event_type pmulib_event_type_of(int ev); /* NORMAL for an invalid id */
bool pmulib_is_ear(int ev);
bool pmulib_is_dear(int ev);
bool pmulib_is_dear_tlb(int ev);
bool pmulib_is_dear_cache(int ev);
bool pmulib_is_dear_alat(int ev);
bool pmulib_is_iear(int ev);
bool pmulib_is_iear_tlb(int ev);
bool pmulib_is_iear_cache(int ev);
bool pmulib_is_btb(int ev);
/* Qualifier support: the table's opm / iar / dar columns, except that an event
 * not attributed to an instruction (L2_FORCE_RECIRC_ANY) supports none,
 * because no instruction carries a tag for it (docs/ita-qualification.md). */
bool pmulib_supports_opcm(int ev);
bool pmulib_supports_iarr(int ev);
bool pmulib_supports_darr(int ev);
/* Whether the event exists on a model (it has a row there). */
bool pmulib_event_on_model(int ev, ita_model m);

/* Values; PMULIB_ERR_BAD_ARG for an invalid id or NULL output. */
pmulib_err pmulib_event_maxincr(int ev, unsigned *maxincr, pmulib_error *err);
pmulib_err pmulib_event_umask(int ev, unsigned *umask, pmulib_error *err);
pmulib_err pmulib_event_code(int ev, ita_model m, unsigned *code, pmulib_error *err); /* NOT_ON_MODEL */
/* The counters software may program the event on, for a model: bit i = PMCi (the
 * table's mask, e.g. Itanium PMC4/5 only for IA64_INST_RETIRED and NOPS_RETIRED). */
pmulib_err pmulib_event_counters(int ev, ita_model m, unsigned *counter_mask, pmulib_error *err);
pmulib_err pmulib_event_group(int ev, pmulib_group *grp, pmulib_error *err);
pmulib_err pmulib_event_set(int ev, int *set, pmulib_error *err); /* PMULIB_NO_SET when none */
/* EAR mode; PMULIB_ERR_BAD_ARG when the event is not an EAR event (as libpfm). */
pmulib_err pmulib_event_ear_mode(int ev, pmulib_ear_mode *mode, pmulib_error *err);

/* ---- event strings ------------------------------------------------------- */

/* Instruction-set selection.  DEFAULT = both sets without qualification, IA-64
 * only when a code/data range or opcode matcher is in use (IA-32 instructions
 * are not qualified, ITA-PRM §6.1.3.3). */
typedef enum pmulib_ism {
    PMULIB_ISM_DEFAULT = 0,
    PMULIB_ISM_BOTH,
    PMULIB_ISM_IA32,
    PMULIB_ISM_IA64
} pmulib_ism;

#define PMULIB_PLM_USER 0x8u   /* privilege level 3 */
#define PMULIB_PLM_KERNEL 0x1u /* privilege level 0 */
#define PMULIB_PLM_ALL 0xfu

typedef struct pmulib_event_spec {
    int event;       /* enum ita_event_id */
    unsigned plm;    /* privilege-level mask 1..15, bit k = level k */
    unsigned thres;  /* 0..maxincr-1 */
    pmulib_ism ism;
    bool pm;         /* privileged monitor (system-wide: enabled by PSR.pp); false = PSR.up */
} pmulib_event_spec;

/* "EVENT[:mod[:mod...]]": :u (plm 8), :k (plm 1), :plm=N (1..15), :thres=N,
 * :ism=ia64|ia32|both.  Privilege modifiers combine (OR); none = user level.
 * Numbers are decimal or 0x hex.  pm is left false.  :thres is checked against the
 * event's maxincr on the Itanium 2 (the home row, as pmulib_event_maxincr). */
pmulib_err pmulib_parse_event(const char *str, pmulib_event_spec *out, pmulib_error *err);
/* The same for model m: :thres against the model's own row (the tables' maxincr differ for
 * nine events, L2_MISSES 2 on Itanium and 1 on Itanium 2); NOT_ON_MODEL for an event the
 * model does not have. */
pmulib_err pmulib_parse_event_model(const char *str, ita_model m, pmulib_event_spec *out, pmulib_error *err);

/* ---- range restriction --------------------------------------------------- */

#define PMULIB_MAX_EVENTS 4
#define PMULIB_MAX_RANGES 4
#define PMULIB_NPAIRS ITA_NPAIRS             /* IBR and DBR pairs */
#define PMULIB_BUNDLE ITA_BUNDLE_BYTES        /* code ranges: 16-byte (bundle) alignment */
#define PMULIB_FINE_PAGE ITA_FINE_PAGE_BYTES  /* fine mode: both ends in one 4 KB page */

/* One debug-register pair: the even register's address and the 56-bit mask
 * of the odd register (1 = compare; bits 63:56 are always compared). */
typedef struct pmulib_br_pair {
    uint64_t addr;
    uint64_t mask;
} pmulib_br_pair;

/* A cover of one range [start, end): the hardware matches (at least) every
 * address in [start - soff, end + eoff) and nothing outside it. */
typedef struct pmulib_cover {
    unsigned npairs;
    pmulib_br_pair pair[PMULIB_NPAIRS]; /* bit-mask mode: in emission order; fine: [0] lower, [1] upper */
    uint64_t soff, eoff;
} pmulib_cover;

/* Bit-mask cover with at most max_pairs pairs (libpfm-3's do_normal_rr at the
 * root; with max_pairs = 4 the same pairs and offsets as libpfm-3, and
 * corrected where libpfm-3 would cover less than the range). */
pmulib_err pmulib_cover_bitmask(uint64_t start, uint64_t end, unsigned max_pairs,
                                pmulib_cover *out, pmulib_error *err);
/* One-pair cover: the smallest aligned block holding the range (compute_single_rr). */
pmulib_err pmulib_cover_single(uint64_t start, uint64_t end, pmulib_cover *out, pmulib_error *err);
/* Whether [start, end) (16-byte aligned) can use fine mode: its first and last
 * bundle are in one 4 KB page (an aligned full page qualifies). */
bool pmulib_fine_eligible(uint64_t start, uint64_t end);
/* Fine-mode bounds (compute_fine_rr): pair[0].addr = lower bound, pair[1].addr =
 * upper (inclusive) bundle; two_bundle = the 32-byte granularity of the first
 * Itanium 2 steppings. */
pmulib_err pmulib_cover_fine(uint64_t start, uint64_t end, bool two_bundle,
                             pmulib_cover *out, pmulib_error *err);

/* ---- dispatch ------------------------------------------------------------ */

typedef struct pmulib_range {
    uint64_t start, end; /* [start, end) */
} pmulib_range;

/* Code-range flags. */
#define PMULIB_RR_INV 0x1u          /* count outside the (single) code range */
#define PMULIB_RR_NO_FINE_MODE 0x2u /* never use fine mode */
#define PMULIB_RR_FINE_2BUNDLE 0x4u /* fine mode sees two-bundle granularity (first Itanium 2 steppings) */

/* Opcode-matcher slot-type enables (bit = 1 << enum ita_unit). */
#define PMULIB_SLOT_M ITA_SLOT_M
#define PMULIB_SLOT_I ITA_SLOT_I
#define PMULIB_SLOT_F ITA_SLOT_F
#define PMULIB_SLOT_B ITA_SLOT_B
#define PMULIB_SLOTS_ALL ITA_SLOTS_ALL

typedef struct pmulib_opcm {
    bool used;
    uint32_t match;  /* 27 bits over instruction bits {40:27,12:0} */
    uint32_t mask;   /* 27 bits, 1 = don't care */
    unsigned slots;  /* PMULIB_SLOT_* */
} pmulib_opcm;

/* An EAR's explicit configuration (libpfm's pfmlib_ita2_ear_t).  `used` = false: the EAR
 * is programmed from an EAR event of the request, if any (methods 1 and 3 of
 * docs/ita-event-library.md); true: from these fields, with or without an EAR event
 * (methods 2 and 4, free running). */
typedef struct pmulib_ear {
    bool used;
    pmulib_ear_mode mode;  /* I-EAR: CACHE or TLB; D-EAR: also ALAT (Itanium 2) */
    unsigned umask;        /* the EAR's umask (an EAR event's umask column) */
    unsigned plm;          /* 0 = the default: the first event's plm, else user level */
    pmulib_ism ism;        /* DEFAULT = both */
    bool pm;
} pmulib_ear;

/* The BTB's explicit configuration (libpfm's pfmlib_ita2_btb_t / pfmlib_ita_btb_t), with
 * the same `used` rule as pmulib_ear and BRANCH_EVENT as its event. */
typedef struct pmulib_btb {
    bool used;
    bool ds;                  /* Itanium 2: record prediction detail instead of the target */
    unsigned tm, ptm, ppm;    /* 2-bit masks (0..3) */
    unsigned brt;             /* Itanium 2: branch type 0..3 */
    bool tar, bpt, bac;       /* Itanium: predictor-source filters */
    unsigned plm;             /* 0 = the default, as pmulib_ear */
    bool pm;
} pmulib_btb;

typedef struct pmulib_request {
    ita_model model;
    unsigned nevents;                      /* 1..4; 0 when only a free-running EAR/BTB is used */
    pmulib_event_spec events[PMULIB_MAX_EVENTS];
    pmulib_opcm pmc8, pmc9;
    unsigned nirange;                      /* 0..4 */
    pmulib_range irange[PMULIB_MAX_RANGES];
    unsigned irange_flags;                 /* PMULIB_RR_* */
    unsigned ndrange;                      /* 0..4 */
    pmulib_range drange[PMULIB_MAX_RANGES];
    pmulib_ear iear, dear;
    pmulib_btb btb;
} pmulib_request;

/* The configuration register an EAR or BTB event programs by method 1 (PMC10, PMC11 or
 * PMC12 in *addr, its value in *value): the EAR's mode and umask from the event, the BTB
 * recording every branch, at the given plm, pm and ism (what a tool samples with, e.g. the
 * counting counter's).  PMULIB_ERR_BAD_ARG for a counter event. */
pmulib_err pmulib_unit_config(ita_model m, int event, unsigned plm, bool pm, pmulib_ism ism, uint16_t *addr,
                              uint64_t *value, pmulib_error *err);

/* A request with model Itanium 2, no events, no ranges, no matchers. */
pmulib_request pmulib_request_init(ita_model m);

typedef struct pmulib_reg_write {
    uint16_t addr;   /* register-port address ITA_ADDR(space, index) */
    uint64_t value;
} pmulib_reg_write;

typedef struct pmulib_range_result {
    uint64_t soff, eoff; /* the hardware covers [start - soff, end + eoff) */
    unsigned pairs;      /* bit k = debug-register pair k holds (part of) this range */
    bool fine;
} pmulib_range_result;

#define PMULIB_MAX_WRITES 40
typedef struct pmulib_dispatch {
    /* In write order: qualification PMCs (PMC8, PMC9, PMC11 pt on Itanium, PMC13..15),
     * the EAR and BTB configurations (PMC10, PMC11, PMC12), IBRs, DBRs, then the counter
     * PMCs, so a counter starts only once its qualification is in place.  Registers not
     * listed are assumed at their reset values. */
    unsigned nwrites;
    pmulib_reg_write writes[PMULIB_MAX_WRITES];
    unsigned counter[PMULIB_MAX_EVENTS]; /* PMC/PMD index 4..7 of events[i] */
    /* Itanium 2 with code ranges: event i counts the instructions tagged by IBR
     * pair tag_pair[i] (IA64_TAGGED_INST_RETIRED_IBRPk: k; other events: 0).  A
     * range's count is the sum of the events whose tag_pair is in its `pairs`
     * (one event per pair).  -1 = no code range, or Itanium (any pair tags). */
    int tag_pair[PMULIB_MAX_EVENTS];
    unsigned nirange, ndrange;
    pmulib_range_result irange[PMULIB_MAX_RANGES];
    pmulib_range_result drange[PMULIB_MAX_RANGES];
    bool irange_fine;                    /* code ranges use fine mode */
} pmulib_dispatch;

pmulib_err pmulib_dispatch_request(const pmulib_request *req, pmulib_dispatch *out,
                                   pmulib_error *err);
/* Whether a dispatched request's code ranges use fine mode (libpfm's pfm_ita2_irange_is_fine). */
bool pmulib_irange_is_fine(const pmulib_dispatch *d);
/* The value dispatch writes to addr, or false when it does not write it. */
bool pmulib_dispatch_value(const pmulib_dispatch *d, uint16_t addr, uint64_t *value);

#ifdef __cplusplus
}
#endif
#endif
