/*
 * fuzz_config.c - the configuration readers: the Itanium family's PMU configuration
 * (include/ita/pmu_config.h, docs/config-format.md) on both models, and the "key = value"
 * setups of the Alpha 21064 and 21264 (include/ev4/ev4_session.h, include/ev67/
 * ev67_session.h).  A text is accepted with a consistent result, or refused with an error
 * naming the file and the line.
 */
#include "ev4/ev4_session.h"
#include "ev67/ev67_session.h"
#include "fuzz.h"
#include "ita/pmu_config.h"

#define NAME "fuzz.cfg"

static unsigned count_lines(const uint8_t *data, size_t size)
{
    unsigned n = 1;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n;
}

/* Where the setups' descriptions are printed: they must not crash, nobody reads them. */
static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    FUZZ_CHECK(f != NULL, "cannot open /dev/null");
    return f;
}

static void itanium(const char *text, size_t len, unsigned nlines, pmu_model model, int fixed)
{
    static pmu_config cfg, again; /* 20 KB each: not on the stack */
    pmu_err err;
    pmu_err_clear(&err);
    if (pmu_config_parse(text, len, NAME, model, fixed, &cfg, &err) != 0) {
        fuzz_check_err_line(&err, NAME);
        FUZZ_CHECK(err.code == PMU_E_INPUT, "code %d for bad input: '%s'", err.code, err.msg);
        return;
    }
    /* The result depends on the text alone: a second parse gives the same bytes (the
     * reader clears the struct first, padding included). */
    FUZZ_CHECK(pmu_config_parse(text, len, NAME, model, fixed, &again, &err) == 0 &&
                   memcmp(&cfg, &again, sizeof cfg) == 0,
               "a second parse of the same text differs");
    FUZZ_CHECK(cfg.model == model || (!fixed && cfg.model_line), "model %d without a model line",
               (int)cfg.model);
    FUZZ_CHECK(cfg.model_line <= nlines, "model line %u of %u", cfg.model_line, nlines);
    for (unsigned v = 0; v < PMU_NVIS; v++)
        FUZZ_CHECK(cfg.line[v] <= nlines, "register %u from line %u of %u", v, cfg.line[v], nlines);
    /* docs/config-format.md: a counter with period=N starts at, and is reloaded with,
     * 2^W - N. */
    unsigned w = pmu_counter_width(cfg.model);
    uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        if (cfg.period[k]) {
            FUZZ_CHECK(cfg.reload[k] == ((0 - cfg.period[k]) & mask) && cfg.start[k] == cfg.reload[k],
                       "counter %u: period %llu, reload 0x%llx, start 0x%llx", k,
                       (unsigned long long)cfg.period[k], (unsigned long long)cfg.reload[k],
                       (unsigned long long)cfg.start[k]);
        } else {
            FUZZ_CHECK(cfg.reload[k] == 0 && cfg.start[k] <= mask, "counter %u: no period, reload 0x%llx, "
                       "start 0x%llx", k, (unsigned long long)cfg.reload[k], (unsigned long long)cfg.start[k]);
        }
    }
    /* What `pmusim run` prints and derives from any accepted configuration. */
    uint64_t vis[PMU_NVIS];
    char buf[4096];
    pmu_config_values(&cfg, vis);
    pmu_config_describe_setup(vis, cfg.model, buf, sizeof buf);
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        pmu_config_describe_tags(vis, cfg.model, k, buf, sizeof buf);
        pmu_config_describe_event(vis[PMU_VIS_PMC4 + k], cfg.model, buf, sizeof buf);
        pmu_config_describe_qualifiers(vis[PMU_VIS_PMC4 + k], buf, sizeof buf);
    }
    static pmu_config_hot hot;
    pmu_config_hot_edges(vis, cfg.model, &hot);
    FUZZ_CHECK(hot.hot.ncode <= 2 * PMU_CONFIG_PAIRS && hot.hot.ndata <= 2 * PMU_CONFIG_PAIRS &&
                   hot.hot.nopc <= 2,
               "hot edges: %u code, %u data, %u patterns", hot.hot.ncode, hot.hot.ndata, hot.hot.nopc);
}

static void alpha21064(const char *text, size_t len)
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

static void alpha21264(const char *text, size_t len)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The readers take a length: the input as it is, so that a read past its end is one past
     * the allocation, which a sanitizer reports. */
    const char *text = (const char *)data;
    unsigned nlines = count_lines(data, size);
    itanium(text, size, nlines, PMU_MODEL_ITANIUM2, 0);
    itanium(text, size, nlines, PMU_MODEL_ITANIUM, 1);
    alpha21064(text, size);
    alpha21264(text, size);
    return 0;
}
