/*
 * ita_evlib.h - the PMU event library: event lookup and attributes, event
 * strings, range restriction and dispatch (the register values that make the
 * PMU count what a request asks).  Plain C11; nothing here prints or exits:
 * every failure is a ita_evlib_err value with a one-line message in a
 * ita_evlib_error, which is pmusim's one error type pmu_err (include/common/pmu_err.h).
 * docs/ita-event-library.md describes the algorithms and where they differ from
 * libpfm-3.  The register encodings it writes are include/sw/ita/ita_encode.h's,
 * shared with the harness's configuration reader.
 *
 * Event ids are the stream event ids of include/common/ita/ita_events.h: one id per event name
 * over the full Itanium 2 (497) and Itanium (230) tables of libpfm-3.10, the same on
 * both models; ita_evlib_event_row() gives an id's row on a model.
 *
 * Sources: docs/sources.md.
 */
#ifndef ITA_EVLIB_H
#define ITA_EVLIB_H

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

typedef enum ita_evlib_err {
    ITA_EVLIB_OK = 0,
    ITA_EVLIB_ERR_BAD_ARG,          /* malformed argument (NULL, out of range, bad syntax) */
    ITA_EVLIB_ERR_UNKNOWN_EVENT,    /* no event of that name (message has "did you mean") */
    ITA_EVLIB_ERR_NOT_ON_MODEL,     /* the event is not implemented on the requested model */
    ITA_EVLIB_ERR_NO_COUNTER,       /* no assignment of PMC4..7 satisfies the counter masks */
    ITA_EVLIB_ERR_INCOMPATIBLE_SETS,/* events from different sets of the same group */
    ITA_EVLIB_ERR_QUALIFIER,        /* an event does not support a qualifier in use */
    ITA_EVLIB_ERR_THRESHOLD,        /* threshold >= the event's maxincr */
    ITA_EVLIB_ERR_RANGE_ALIGN,      /* code range not 16-byte aligned at both ends */
    ITA_EVLIB_ERR_TOO_MANY_RANGES,  /* more ranges than the mode or the pairs allow */
    ITA_EVLIB_ERR_RANGE_TOO_BIG,    /* the range needs a block larger than a pair can match */
    ITA_EVLIB_ERR_RANGE_INVALID,    /* start >= end */
    ITA_EVLIB_ERR_FEATURE_COMBINATION, /* features that cannot be combined */
    ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, /* events that exclude each other (D-EAR TLB/ALAT with the BTB) */
    ITA_EVLIB_NERRS
} ita_evlib_err;

/* The library's errors are pmu_err values: `code` holds a ita_evlib_err (ITA_EVLIB_OK = 0 =
 * PMU_OK), `msg` one line without a trailing newline ("" when code == ITA_EVLIB_OK). */
typedef pmu_err ita_evlib_error;
#define ITA_EVLIB_MSG_LEN (sizeof ((ita_evlib_error *)0)->msg)

/* Short stable name of an error code ("unknown-event", ...); "invalid" out of range. */
const char *ita_evlib_err_name(ita_evlib_err e);
/* The pmu_err_code class of a library error, for a command's exit status: PMU_OK,
 * PMU_E_INPUT (every failure is about the request) or PMU_E_INTERNAL (out of range). */
pmu_err_code ita_evlib_err_class(ita_evlib_err e);

/* Every function that takes a `ita_evlib_error *err` fills it (when err is not
 * NULL) and returns the same code. */

/* ---- events -------------------------------------------------------------- */

/* Event type, numbered as libpfm-3's vcode type (pfmlib_itanium2_priv.h) and the
 * tables' TYPE column (enum ita_evt_type). */
typedef enum ita_evlib_event_type {
    ITA_EVLIB_EVT_NORMAL = 0,
    ITA_EVLIB_EVT_BTB = 1,
    ITA_EVLIB_EVT_IEAR_TLB = 2,
    ITA_EVLIB_EVT_IEAR_CACHE = 3,
    ITA_EVLIB_EVT_DEAR_TLB = 4,
    ITA_EVLIB_EVT_DEAR_CACHE = 5,
    ITA_EVLIB_EVT_DEAR_ALAT = 6
} ita_evlib_event_type;

typedef enum ita_evlib_ear_mode {
    ITA_EVLIB_EAR_CACHE = 0,
    ITA_EVLIB_EAR_TLB = 1,
    ITA_EVLIB_EAR_ALAT = 2
} ita_evlib_ear_mode;

typedef enum ita_evlib_group {
    ITA_EVLIB_GROUP_NONE = 0,
    ITA_EVLIB_GROUP_L1D = 1,
    ITA_EVLIB_GROUP_L2 = 2
} ita_evlib_group;
#define ITA_EVLIB_NO_SET (-1)

/* Ids are below ita_evlib_num_events(); some ids are unused (ita_evlib_event_valid false). */
unsigned ita_evlib_num_events(void);
bool ita_evlib_event_valid(int ev);
/* The event's row on a model (code, umask, type, counters, maxincr, qualifiers, group,
 * set), NULL when the model does not have the event or ev is not an event.  The
 * model-free queries below answer from the Itanium 2 row, or the Itanium row for an
 * event only Itanium has. */
const ita_event_row *ita_evlib_event_row(int ev, ita_model m);
/* Name of an event, NULL for an invalid id. */
const char *ita_evlib_event_name(int ev);

/* Case-insensitive lookup.  Unknown name: ITA_EVLIB_ERR_UNKNOWN_EVENT with
 * "unknown event 'X' (did you mean Y?)" when a close name exists. */
ita_evlib_err ita_evlib_find_event(const char *name, int *ev, ita_evlib_error *err);
/* The closest event name to `name` (edit distance or prefix), NULL if none is close. */
const char *ita_evlib_suggest_event(const char *name);

/* Boolean attributes; false for an invalid id. */
ita_evlib_event_type ita_evlib_event_type_of(int ev); /* NORMAL for an invalid id */
bool ita_evlib_is_ear(int ev);
bool ita_evlib_is_dear(int ev);
bool ita_evlib_is_dear_tlb(int ev);
bool ita_evlib_is_dear_cache(int ev);
bool ita_evlib_is_dear_alat(int ev);
bool ita_evlib_is_iear(int ev);
bool ita_evlib_is_iear_tlb(int ev);
bool ita_evlib_is_iear_cache(int ev);
bool ita_evlib_is_btb(int ev);
/* Qualifier support: the table's opm / iar / dar columns, except that an event
 * not attributed to an instruction (L2_FORCE_RECIRC_ANY) supports none,
 * because no instruction carries a tag for it (docs/ita-qualification.md). */
bool ita_evlib_supports_opcm(int ev);
bool ita_evlib_supports_iarr(int ev);
bool ita_evlib_supports_darr(int ev);
/* Whether the event exists on a model (it has a row there). */
bool ita_evlib_event_on_model(int ev, ita_model m);

/* Values; ITA_EVLIB_ERR_BAD_ARG for an invalid id or NULL output. */
ita_evlib_err ita_evlib_event_maxincr(int ev, unsigned *maxincr, ita_evlib_error *err);
ita_evlib_err ita_evlib_event_umask(int ev, unsigned *umask, ita_evlib_error *err);
ita_evlib_err ita_evlib_event_code(int ev, ita_model m, unsigned *code, ita_evlib_error *err); /* NOT_ON_MODEL */
/* The counters software may program the event on, for a model: bit i = PMCi (the
 * table's mask, e.g. Itanium PMC4/5 only for IA64_INST_RETIRED and NOPS_RETIRED). */
ita_evlib_err ita_evlib_event_counters(int ev, ita_model m, unsigned *counter_mask, ita_evlib_error *err);
ita_evlib_err ita_evlib_event_group(int ev, ita_evlib_group *grp, ita_evlib_error *err);
ita_evlib_err ita_evlib_event_set(int ev, int *set, ita_evlib_error *err); /* ITA_EVLIB_NO_SET when none */
/* EAR mode; ITA_EVLIB_ERR_BAD_ARG when the event is not an EAR event (as libpfm). */
ita_evlib_err ita_evlib_event_ear_mode(int ev, ita_evlib_ear_mode *mode, ita_evlib_error *err);

/* ---- event strings ------------------------------------------------------- */

/* Instruction-set selection.  DEFAULT = both sets without qualification, IA-64
 * only when a code/data range or opcode matcher is in use (IA-32 instructions
 * are not qualified, ITA-PRM §6.1.3.3). */
typedef enum ita_evlib_ism {
    ITA_EVLIB_ISM_DEFAULT = 0,
    ITA_EVLIB_ISM_BOTH,
    ITA_EVLIB_ISM_IA32,
    ITA_EVLIB_ISM_IA64
} ita_evlib_ism;

#define ITA_EVLIB_PLM_USER 0x8u   /* privilege level 3 */
#define ITA_EVLIB_PLM_KERNEL 0x1u /* privilege level 0 */
#define ITA_EVLIB_PLM_ALL 0xfu

typedef struct ita_evlib_event_spec {
    int event;       /* enum ita_event_id */
    unsigned plm;    /* privilege-level mask 1..15, bit k = level k */
    unsigned thres;  /* 0..maxincr-1 */
    ita_evlib_ism ism;
    bool pm;         /* privileged monitor (system-wide: enabled by PSR.pp); false = PSR.up */
} ita_evlib_event_spec;

/* "EVENT[:mod[:mod...]]": :u (plm 8), :k (plm 1), :plm=N (1..15), :thres=N,
 * :ism=ia64|ia32|both.  Privilege modifiers combine (OR); none = user level.
 * Numbers are decimal or 0x hex.  pm is left false.  :thres is checked against the
 * event's maxincr on the Itanium 2 (the home row, as ita_evlib_event_maxincr). */
ita_evlib_err ita_evlib_parse_event(const char *str, ita_evlib_event_spec *out, ita_evlib_error *err);
/* The same for model m: :thres against the model's own row (the tables' maxincr differ for
 * nine events, L2_MISSES 2 on Itanium and 1 on Itanium 2); NOT_ON_MODEL for an event the
 * model does not have. */
ita_evlib_err ita_evlib_parse_event_model(const char *str, ita_model m, ita_evlib_event_spec *out, ita_evlib_error *err);

/* ---- range restriction --------------------------------------------------- */

#define ITA_EVLIB_MAX_EVENTS 4
#define ITA_EVLIB_MAX_RANGES 4
#define ITA_EVLIB_NPAIRS ITA_NPAIRS             /* IBR and DBR pairs */
#define ITA_EVLIB_BUNDLE ITA_BUNDLE_BYTES        /* code ranges: 16-byte (bundle) alignment */
#define ITA_EVLIB_FINE_PAGE ITA_FINE_PAGE_BYTES  /* fine mode: both ends in one 4 KB page */

/* One debug-register pair: the even register's address and the 56-bit mask
 * of the odd register (1 = compare; bits 63:56 are always compared). */
typedef struct ita_evlib_br_pair {
    uint64_t addr;
    uint64_t mask;
} ita_evlib_br_pair;

/* A cover of one range [start, end): the hardware matches (at least) every
 * address in [start - soff, end + eoff) and nothing outside it. */
typedef struct ita_evlib_cover {
    unsigned npairs;
    ita_evlib_br_pair pair[ITA_EVLIB_NPAIRS]; /* bit-mask mode: in emission order; fine: [0] lower, [1] upper */
    uint64_t soff, eoff;
} ita_evlib_cover;

/* Bit-mask cover with at most max_pairs pairs (libpfm-3's do_normal_rr at the
 * root; with max_pairs = 4 the same pairs and offsets as libpfm-3, and
 * corrected where libpfm-3 would cover less than the range). */
ita_evlib_err ita_evlib_cover_bitmask(uint64_t start, uint64_t end, unsigned max_pairs,
                                ita_evlib_cover *out, ita_evlib_error *err);
/* One-pair cover: the smallest aligned block holding the range (compute_single_rr). */
ita_evlib_err ita_evlib_cover_single(uint64_t start, uint64_t end, ita_evlib_cover *out, ita_evlib_error *err);
/* Whether [start, end) (16-byte aligned) can use fine mode: its first and last
 * bundle are in one 4 KB page (an aligned full page qualifies). */
bool ita_evlib_fine_eligible(uint64_t start, uint64_t end);
/* Fine-mode bounds (compute_fine_rr): pair[0].addr = lower bound, pair[1].addr =
 * upper (inclusive) bundle; two_bundle = the 32-byte granularity of the first
 * Itanium 2 steppings. */
ita_evlib_err ita_evlib_cover_fine(uint64_t start, uint64_t end, bool two_bundle,
                             ita_evlib_cover *out, ita_evlib_error *err);

/* ---- dispatch ------------------------------------------------------------ */

typedef struct ita_evlib_range {
    uint64_t start, end; /* [start, end) */
} ita_evlib_range;

/* Code-range flags. */
#define ITA_EVLIB_RR_INV 0x1u          /* count outside the (single) code range */
#define ITA_EVLIB_RR_NO_FINE_MODE 0x2u /* never use fine mode */
#define ITA_EVLIB_RR_FINE_2BUNDLE 0x4u /* fine mode sees two-bundle granularity (first Itanium 2 steppings) */

/* Opcode-matcher slot-type enables (bit = 1 << enum ita_unit). */
#define ITA_EVLIB_SLOT_M ITA_SLOT_M
#define ITA_EVLIB_SLOT_I ITA_SLOT_I
#define ITA_EVLIB_SLOT_F ITA_SLOT_F
#define ITA_EVLIB_SLOT_B ITA_SLOT_B
#define ITA_EVLIB_SLOTS_ALL ITA_SLOTS_ALL

typedef struct ita_evlib_opcm {
    bool used;
    uint32_t match;  /* 27 bits over instruction bits {40:27,12:0} */
    uint32_t mask;   /* 27 bits, 1 = don't care */
    unsigned slots;  /* ITA_EVLIB_SLOT_* */
} ita_evlib_opcm;

/* An EAR's explicit configuration (libpfm's pfmlib_ita2_ear_t).  `used` = false: the EAR
 * is programmed from an EAR event of the request, if any (methods 1 and 3 of
 * docs/ita-event-library.md); true: from these fields, with or without an EAR event
 * (methods 2 and 4, free running). */
typedef struct ita_evlib_ear {
    bool used;
    ita_evlib_ear_mode mode;  /* I-EAR: CACHE or TLB; D-EAR: also ALAT (Itanium 2) */
    unsigned umask;        /* the EAR's umask (an EAR event's umask column) */
    unsigned plm;          /* 0 = the default: the first event's plm, else user level */
    ita_evlib_ism ism;        /* DEFAULT = both */
    bool pm;
} ita_evlib_ear;

/* The BTB's explicit configuration (libpfm's pfmlib_ita2_btb_t / pfmlib_ita_btb_t), with
 * the same `used` rule as ita_evlib_ear and BRANCH_EVENT as its event. */
typedef struct ita_evlib_btb {
    bool used;
    bool ds;                  /* Itanium 2: record prediction detail instead of the target */
    unsigned tm, ptm, ppm;    /* 2-bit masks (0..3) */
    unsigned brt;             /* Itanium 2: branch type 0..3 */
    bool tar, bpt, bac;       /* Itanium: predictor-source filters */
    unsigned plm;             /* 0 = the default, as ita_evlib_ear */
    bool pm;
} ita_evlib_btb;

typedef struct ita_evlib_request {
    ita_model model;
    unsigned nevents;                      /* 1..4; 0 when only a free-running EAR/BTB is used */
    ita_evlib_event_spec events[ITA_EVLIB_MAX_EVENTS];
    ita_evlib_opcm pmc8, pmc9;
    unsigned nirange;                      /* 0..4 */
    ita_evlib_range irange[ITA_EVLIB_MAX_RANGES];
    unsigned irange_flags;                 /* ITA_EVLIB_RR_* */
    unsigned ndrange;                      /* 0..4 */
    ita_evlib_range drange[ITA_EVLIB_MAX_RANGES];
    ita_evlib_ear iear, dear;
    ita_evlib_btb btb;
} ita_evlib_request;

/* The configuration register an EAR or BTB event programs by method 1 (PMC10, PMC11 or
 * PMC12 in *addr, its value in *value): the EAR's mode and umask from the event, the BTB
 * recording every branch, at the given plm, pm and ism (what a tool samples with, e.g. the
 * counting counter's).  ITA_EVLIB_ERR_BAD_ARG for a counter event. */
ita_evlib_err ita_evlib_unit_config(ita_model m, int event, unsigned plm, bool pm, ita_evlib_ism ism, uint16_t *addr,
                              uint64_t *value, ita_evlib_error *err);

/* A request with model Itanium 2, no events, no ranges, no matchers. */
ita_evlib_request ita_evlib_request_init(ita_model m);

typedef struct ita_evlib_reg_write {
    uint16_t addr;   /* register-port address ITA_ADDR(space, index) */
    uint64_t value;
} ita_evlib_reg_write;

typedef struct ita_evlib_range_result {
    uint64_t soff, eoff; /* the hardware covers [start - soff, end + eoff) */
    unsigned pairs;      /* bit k = debug-register pair k holds (part of) this range */
    bool fine;
} ita_evlib_range_result;

#define ITA_EVLIB_MAX_WRITES 40
typedef struct ita_evlib_dispatch {
    /* In write order: qualification PMCs (PMC8, PMC9, PMC11 pt on Itanium, PMC13..15),
     * the EAR and BTB configurations (PMC10, PMC11, PMC12), IBRs, DBRs, then the counter
     * PMCs, so a counter starts only once its qualification is in place.  Registers not
     * listed are assumed at their reset values. */
    unsigned nwrites;
    ita_evlib_reg_write writes[ITA_EVLIB_MAX_WRITES];
    unsigned counter[ITA_EVLIB_MAX_EVENTS]; /* PMC/PMD index 4..7 of events[i] */
    /* Itanium 2 with code ranges: event i counts the instructions tagged by IBR
     * pair tag_pair[i] (IA64_TAGGED_INST_RETIRED_IBRPk: k; other events: 0).  A
     * range's count is the sum of the events whose tag_pair is in its `pairs`
     * (one event per pair).  -1 = no code range, or Itanium (any pair tags). */
    int tag_pair[ITA_EVLIB_MAX_EVENTS];
    unsigned nirange, ndrange;
    ita_evlib_range_result irange[ITA_EVLIB_MAX_RANGES];
    ita_evlib_range_result drange[ITA_EVLIB_MAX_RANGES];
    bool irange_fine;                    /* code ranges use fine mode */
} ita_evlib_dispatch;

ita_evlib_err ita_evlib_dispatch_request(const ita_evlib_request *req, ita_evlib_dispatch *out,
                                   ita_evlib_error *err);
/* Whether a dispatched request's code ranges use fine mode (libpfm's pfm_ita2_irange_is_fine). */
bool ita_evlib_irange_is_fine(const ita_evlib_dispatch *d);
/* The value dispatch writes to addr, or false when it does not write it. */
bool ita_evlib_dispatch_value(const ita_evlib_dispatch *d, uint16_t addr, uint64_t *value);

#ifdef __cplusplus
}
#endif
#endif
