/*
 * ita_dialect.c - the Itanium family's cycle-record dialect (include/pmu_dialect.h):
 * records are struct pmu_cycle (include/ita/pmu_cycle.h), in the text and binary forms
 * of docs/stream-format.md.
 */
#include "ita/ita_family.h"
#include "ita/pmu_cycle.h"
#include "pmu_stream.h"

static int ita_validate(const void *rec, const char *where, pmu_err *err)
{
    return pmu_cycle_validate((const pmu_cycle *)rec, where, err);
}

static size_t ita_format(const void *rec, char *buf, size_t size)
{
    return pmu_cycle_format((const pmu_cycle *)rec, buf, size);
}

const pmu_dialect pmu_dialect_itanium = {
    .name = "itanium",
    .record_size = sizeof(pmu_cycle),
    .validate = ita_validate,
    .format = ita_format,
};
