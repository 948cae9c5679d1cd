/*
 * config_itanium.c - the Itanium family's part of the configuration harness (fuzz_config.c):
 * its PMU configuration (include/cli/ita/ita_config.h, docs/ita-config-format.md) on both models.
 */
#include "fuzz_config.h"
#include "cli/ita/ita_config.h"

void fuzz_config_itanium(const char *text, size_t len);

static void parse(const char *text, size_t len, unsigned nlines, ita_model model, int fixed)
{
    static ita_config cfg, again; /* 20 KB each: not on the stack */
    pmu_err err;
    pmu_err_clear(&err);
    if (ita_config_parse(text, len, NAME, model, fixed, &cfg, &err) != 0) {
        fuzz_check_err_line(&err, NAME);
        FUZZ_CHECK(err.code == PMU_E_INPUT, "code %d for bad input: '%s'", err.code, err.msg);
        return;
    }
    /* The result depends on the text alone: a second parse gives the same bytes (the
     * reader clears the struct first, padding included). */
    FUZZ_CHECK(ita_config_parse(text, len, NAME, model, fixed, &again, &err) == 0 &&
                   memcmp(&cfg, &again, sizeof cfg) == 0,
               "a second parse of the same text differs");
    FUZZ_CHECK(cfg.model == model || (!fixed && cfg.model_line), "model %d without a model line",
               (int)cfg.model);
    FUZZ_CHECK(cfg.model_line <= nlines, "model line %u of %u", cfg.model_line, nlines);
    for (unsigned v = 0; v < ITA_NVIS; v++)
        FUZZ_CHECK(cfg.line[v] <= nlines, "register %u from line %u of %u", v, cfg.line[v], nlines);
    /* docs/ita-config-format.md: a counter with period=N starts at, and is reloaded with,
     * 2^W - N. */
    unsigned w = ita_counter_width(cfg.model);
    uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
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
    uint64_t vis[ITA_NVIS];
    char buf[4096];
    ita_config_values(&cfg, vis);
    ita_config_describe_setup(vis, cfg.model, buf, sizeof buf);
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        ita_config_describe_tags(vis, cfg.model, k, buf, sizeof buf);
        ita_config_describe_event(vis[ITA_VIS_PMC4 + k], cfg.model, buf, sizeof buf);
        ita_config_describe_qualifiers(vis[ITA_VIS_PMC4 + k], buf, sizeof buf);
    }
    static ita_config_hot hot;
    ita_config_hot_edges(vis, cfg.model, &hot);
    FUZZ_CHECK(hot.hot.ncode <= 2 * ITA_CONFIG_PAIRS && hot.hot.ndata <= 2 * ITA_CONFIG_PAIRS &&
                   hot.hot.nopc <= 2,
               "hot edges: %u code, %u data, %u patterns", hot.hot.ncode, hot.hot.ndata, hot.hot.nopc);
}

void fuzz_config_itanium(const char *text, size_t len)
{
    unsigned nlines = count_lines(text, len);
    parse(text, len, nlines, ITA_MODEL_ITANIUM2, 0);
    parse(text, len, nlines, ITA_MODEL_ITANIUM, 1);
}
