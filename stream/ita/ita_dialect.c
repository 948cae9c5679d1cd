/*
 * ita_dialect.c - the Itanium family's cycle-record dialect (include/common/pmu_dialect.h):
 * records are struct ita_cycle (include/common/ita/ita_cycle.h), in the text and binary forms
 * of docs/ita-stream-format.md, with the workload and random generator.
 */
#include "harness/ita/ita_family.h"
#include "ita_stream.h"

const pmu_dialect ita_dialect = {
    .name = "itanium",
    .record_size = sizeof(ita_cycle),
    .validate = ita_validate,
    .format = ita_format,
    .canon = ita_canon,
    .equal = ita_equal,
    .state_size = sizeof(ita_state),
    .state_init = ita_state_init,
    .parse_line = ita_parse_line,
    .format_line = ita_format_line,
    .max_encoded = ITA_MAX_ENCODED,
    .encode = ita_encode,
    .decode = ita_decode,
    .gen_create = ita_gen_create,
    .gen_next = ita_gen_next,
    .gen_nfuncs = ita_gen_nfuncs,
    .gen_func = ita_gen_func,
    .gen_destroy = ita_gen_destroy,
    .timing = &ita_timing,
};
