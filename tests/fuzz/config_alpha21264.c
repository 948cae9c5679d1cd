/*
 * config_alpha21264.c - the Alpha 21264 family's part of the configuration harness
 * (fuzz_config.c): its "key = value" setup (include/cli/ev67/ev67_session.h).
 */
#include "cli/ev67/ev67_session.h"
#include "fuzz_config.h"

void fuzz_config_alpha21264(const char *text, size_t len);

void fuzz_config_alpha21264(const char *text, size_t len)
{
    ev67_setup s;
    pmu_err err;
    pmu_err_clear(&err);
    ev67_setup_default(&s);
    if (ev67_setup_parse(&s, text, len, NAME, &err) != 0) {
        fuzz_check_err_line(&err, NAME);
        return;
    }
    ev67_setup_print(&s, "  ", sink());
}
