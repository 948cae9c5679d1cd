/*
 * config_alpha21064.c - the Alpha 21064 family's part of the configuration harness
 * (fuzz_config.c): its "key = value" pfm setup (include/cli/ev4/ev4_session.h), checked for 1, 2
 * and 4 CPUs.
 */
#include "cli/ev4/ev4_session.h"
#include "fuzz_config.h"

void fuzz_config_alpha21064(const char *text, size_t len);

void fuzz_config_alpha21064(const char *text, size_t len)
{
    ev4_setup s;
    pmu_err err;
    pmu_err_clear(&err);
    ev4_setup_default(&s);
    if (ev4_setup_parse(&s, text, len, NAME, &err) != 0) {
        fuzz_check_err_line(&err, NAME);
        return;
    }
    for (unsigned ncpus = 1; ncpus <= 4; ncpus *= 2)
        if (ev4_setup_check(&s, ncpus, NAME, &err) != 0)
            fuzz_check_err(&err, NAME);
    ev4_setup_print(&s, "  ", sink());
}
