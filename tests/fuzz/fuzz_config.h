/*
 * fuzz_config.h - what the configuration harness (fuzz_config.c) and each family's part of it
 * (config_<family>.c) share: the input's name in messages, its line count, a sink for what
 * the readers print.
 */
#ifndef PMU_FUZZ_CONFIG_H
#define PMU_FUZZ_CONFIG_H

#include "fuzz.h"

#define NAME "fuzz.cfg"

static inline unsigned count_lines(const char *text, size_t size)
{
    unsigned n = 1;
    for (size_t i = 0; i < size; i++)
        n += text[i] == '\n';
    return n;
}

/* Where the setups' descriptions are printed: they must not crash, nobody reads them. */
static inline FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    FUZZ_CHECK(f != NULL, "cannot open /dev/null");
    return f;
}

#endif
