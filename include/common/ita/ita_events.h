/*
 * ita_events.h - the full Itanium and Itanium 2 event tables (include/common/ita/ita2_events.def,
 * include/common/ita/ita_events.def: every event of libpfm-3.10, with its code, umask, type,
 * counter mask, maxincr, qualifier support, group and set), and the stream's event ids.
 *
 * A stream names a general event (docs/ita-stream-format.md) by name; its record holds an
 * event id, which is the same for both models so that one stream runs on either: id i <
 * n2 is the Itanium 2 table's row i; id n2 + j is the Itanium table's row j when the
 * Itanium 2 table does not have its name (the ids of the other Itanium rows are unused).  A backend resolves an id to its model's row; a model
 * without the name has no row, and the event counts nowhere on it.
 */
#ifndef ITA_EVENTS_H
#define ITA_EVENTS_H

#include <stdint.h>

#include "common/pmu_def.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libpfm's event types: a counter event, or one of the "virtual" EAR/BTB events whose
 * umask goes into the EAR or BTB configuration (docs/ita-ear-btb.md). */
typedef enum ita_evt_type {
    ITA_EVT_NORMAL = 0,
    ITA_EVT_BTB,
    ITA_EVT_IEAR_TLB,
    ITA_EVT_IEAR_CACHE,
    ITA_EVT_DEAR_TLB,
    ITA_EVT_DEAR_CACHE,
    ITA_EVT_DEAR_ALAT
} ita_evt_type;

typedef struct ita_event_row {
    const char *name;
    uint8_t code, umask;  /* es (Itanium: 7 bits); for EAR types the EAR's umask */
    uint8_t type;         /* enum ita_evt_type */
    uint8_t counters;     /* bit i = may be programmed on PMC i */
    uint8_t maxincr;
    uint8_t iar, opm, dar;
    uint8_t group, set;   /* group 0 none, 1 L1D, 2 L2; set 0xf none */
    uint8_t kind;         /* enum ita_event_kind (include/common/ita/ita_regs.h); 0 = general event only */
} ita_event_row;

/* The table of a model (0 = Itanium, 1 = Itanium 2, as ita_model) and its length. */
const ita_event_row *ita_event_rows(int model, unsigned *n);
/* The row of `name` in a model's table, or NULL. */
const ita_event_row *ita_event_find(int model, const char *name);

/* Stream event ids (see above): every id is below ita_event_id_count(); an unused id has
 * no name. */
unsigned ita_event_id_count(void);
/* -1 when neither table has the name. */
int ita_event_id_find(const char *name);
/* NULL for an unused id. */
const char *ita_event_id_name(unsigned id);
/* The id's row on a model, or NULL when the model does not have the event. */
const ita_event_row *ita_event_id_row(unsigned id, int model);

#define PMU_COL_TYPE_TYPE(t) ITA_EVT_##t

#ifdef __cplusplus
}
#endif
#endif
