/* ita_event_defs.c - the full event tables expanded from include/ita/ita2_events.def and
 * include/ita/ita_events.def (see ita_events.h), and the stream's event ids.  Every layer
 * links this object with ita_defs.c. */
#include "ita/ita_events.h"

#include <string.h>

#include "ita/pmu_regs.h"

#define PMU_EVT(name, code, umask, type, counters, maxincr, iar, opm, dar, grp, set, kind) \
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
#include "ita/ita2_events.def"
};
static const ita_event_row ita_rows[] = {
#include "ita/ita_events.def"
};
#undef PMU_EVT

#define N2 (sizeof ita2_rows / sizeof ita2_rows[0])
#define N1 (sizeof ita_rows / sizeof ita_rows[0])

const ita_event_row *ita_event_rows(int model, unsigned *n)
{
    if (model == PMU_MODEL_ITANIUM) {
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

const char *ita_event_id_name(unsigned id)
{
    if (id < N2)
        return ita2_rows[id].name;
    if (id - N2 < N1 && !search(ita2_rows, (unsigned)N2, ita_rows[id - N2].name))
        return ita_rows[id - N2].name;
    return NULL;
}

const ita_event_row *ita_event_id_row(unsigned id, int model)
{
    const char *name = ita_event_id_name(id);
    if (!name)
        return NULL;
    if (model == PMU_MODEL_ITANIUM2)
        return id < N2 ? &ita2_rows[id] : NULL;
    return id >= N2 ? &ita_rows[id - N2] : search(ita_rows, (unsigned)N1, name);
}
