/*
 * ev4_dialect.c - the Alpha 21064 family's cycle-record dialect (include/common/pmu_dialect.h):
 * records are ev4_cycle (include/common/ev4/ev4_cycle.h), in the text and binary forms of
 * docs/ev4-stream.md, with the workload and random generator.
 */
#include "ev4_internal.h"

const pmu_dialect pmu_dialect_ev4 = {
    .name = "ev4",
    .record_size = sizeof(ev4_cycle),
    .validate = ev4_validate,
    .format = ev4_format,
    .canon = ev4_canon,
    .equal = ev4_equal,
    .state_size = sizeof(ev4_state),
    .state_init = ev4_state_init,
    .parse_line = ev4_parse_line,
    .format_line = ev4_format_line,
    .max_encoded = EV4_MAX_ENCODED,
    .encode = ev4_encode,
    .decode = ev4_decode,
    .gen_create = ev4_gen_create,
    .gen_next = ev4_gen_next,
    .gen_nfuncs = ev4_gen_nfuncs,
    .gen_func = ev4_gen_func,
    .gen_destroy = ev4_gen_destroy,
    .timing = &ev4_timing,
};
