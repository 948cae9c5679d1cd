/* ita_event_defs.c - the full event tables expanded from include/common/ita/ita2_events.def and
 * include/common/ita/ita_events.def (see ita_events.h), and the stream's event ids.  Every layer
 * links this object with ita_defs.c. */
#include "common/ita/ita_events.h"

#include <string.h>
#include <threads.h>

#include "common/ita/ita_regs.h"

#define ITA_EVT(name, code, umask, type, counters, maxincr, iar, opm, dar, grp, set, kind) \
    {#name,                                                                             \
     PMU_COL(CODE, code),                                                               \
     PMU_COL(UMASK, umask),                                                             \
     PMU_COL(TYPE, type),                                                               \
     PMU_COL(COUNTERS, counters),                                                       \
     PMU_COL(MAXINCR, maxincr),                                                         \
     PMU_COL(IAR, iar),                                                                 \
     PMU_COL(OPM, opm),                                                                 \
     PMU_COL(DAR, dar),                                                                 \
     PMU_COL(GROUP, grp),                                                               \
     PMU_COL(SET, set),                                                                 \
     PMU_COL(KIND, kind)},
static const ita_event_row ita2_rows[] = {
#include "common/ita/ita2_events.def"
};
static const ita_event_row ita_rows[] = {
#include "common/ita/ita_events.def"
};
#undef ITA_EVT

#define N2 (sizeof ita2_rows / sizeof ita2_rows[0])
#define N1 (sizeof ita_rows / sizeof ita_rows[0])

const ita_event_row *ita_event_rows(int model, unsigned *n)
{
    if (model == ITA_MODEL_ITANIUM) {
        *n = (unsigned)N1;
        return ita_rows;
    }
    *n = (unsigned)N2;
    return ita2_rows;
}

/* A linear search: the tables are small, and a stream resolves a name once per line. */
static const ita_event_row *search(const ita_event_row *rows, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

const ita_event_row *ita_event_find(int model, const char *name)
{
    unsigned n;
    const ita_event_row *rows = ita_event_rows(model, &n);
    return search(rows, n, name);
}

/* Ids N2 + i name Itanium row i when the Itanium 2 table does not have its name; the ids
 * of the other Itanium rows are not used (the name's Itanium 2 id stands for it). */
unsigned ita_event_id_count(void) { return (unsigned)(N2 + N1); }

int ita_event_id_find(const char *name)
{
    const ita_event_row *r = search(ita2_rows, (unsigned)N2, name);
    if (r)
        return (int)(r - ita2_rows);
    r = search(ita_rows, (unsigned)N1, name);
    return r ? (int)(N2 + (size_t)(r - ita_rows)) : -1;
}

/* Which names the two tables share, matched once: backends and the stream validator
 * resolve ids for every record, so the lookups below must not search by name. */
static int16_t ita_row_of_ita2[N2]; /* the Itanium row of Itanium 2 row i's name, or -1 */
static uint8_t ita_only[N1];        /* 1: Itanium row j's name is not an Itanium 2 event */
static once_flag shared_once = ONCE_FLAG_INIT;

static void match_shared_names(void)
{
    for (unsigned j = 0; j < N1; j++)
        ita_only[j] = 1;
    for (unsigned i = 0; i < N2; i++) {
        const ita_event_row *r = search(ita_rows, (unsigned)N1, ita2_rows[i].name);
        ita_row_of_ita2[i] = r ? (int16_t)(r - ita_rows) : (int16_t)-1;
        if (r)
            ita_only[r - ita_rows] = 0;
    }
}

const char *ita_event_id_name(unsigned id)
{
    if (id < N2)
        return ita2_rows[id].name;
    call_once(&shared_once, match_shared_names);
    if (id - N2 < N1 && ita_only[id - N2])
        return ita_rows[id - N2].name;
    return NULL;
}

const ita_event_row *ita_event_id_row(unsigned id, int model)
{
    if (id >= N2 + N1)
        return NULL;
    call_once(&shared_once, match_shared_names);
    if (model == ITA_MODEL_ITANIUM2)
        return id < N2 ? &ita2_rows[id] : NULL;
    if (id >= N2)
        return ita_only[id - N2] ? &ita_rows[id - N2] : NULL;
    return ita_row_of_ita2[id] >= 0 ? &ita_rows[ita_row_of_ita2[id]] : NULL;
}
