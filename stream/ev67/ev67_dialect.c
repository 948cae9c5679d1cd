/*
 * ev67_dialect.c - the Alpha 21264/EV67 family's cycle-record dialect
 * (include/common/pmu_dialect.h): records are ev67_cycle (include/common/ev67/ev67_cycle.h), in the text
 * and binary forms of docs/ev67-stream.md, with the workload and random generator.
 */
#include "ev67_internal.h"

const pmu_dialect pmu_dialect_ev67 = {
    .name = "ev67",
    .record_size = sizeof(ev67_cycle),
    .validate = ev67_validate,
    .format = ev67_format,
    .canon = ev67_canon,
    .equal = ev67_equal,
    .state_size = sizeof(ev67_state),
    .state_init = ev67_state_init,
    .parse_line = ev67_parse_line,
    .format_line = ev67_format_line,
    .check_repeat = ev67_check_repeat,
    .max_encoded = EV67_MAX_ENCODED,
    .encode = ev67_encode,
    .decode = ev67_decode,
    .gen_create = ev67_gen_create,
    .gen_next = ev67_gen_next,
    .gen_nfuncs = ev67_gen_nfuncs,
    .gen_func = ev67_gen_func,
    .gen_destroy = ev67_gen_destroy,
    .timing = &ev67_timing,
};
