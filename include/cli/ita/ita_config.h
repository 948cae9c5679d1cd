/*
 * ita_config.h - PMU configuration files for `pmusim run --config` (docs/ita-config-format.md);
 * the reader is verilator/cli/ita/config_*.c.
 *
 * A configuration gives the initial value of PMU registers, either as a whole value
 * (`PMC4 = 0x800000`) or field by field (`PMC5 event=IA64_INST_RETIRED plm=0x8
 * period=100000`), and for each counter the harness-only period that the overflow
 * service reloads.  Three more line kinds program event qualification: `irange`
 * (an IBR pair: a code range), `drange` (a DBR pair: a data range) and `opcode`
 * (matcher PMC8 or PMC9, by value or by a named instruction class); they also set
 * the constraint registers (PMC8, PMC11, PMC13, PMC14, PMC15) that make the range
 * or pattern take effect, unless the file gives those registers itself.  Parsing
 * checks every value against the register layout of the selected model
 * (include/common/ita/ita_regs.def) and reports the first error as "file:line: field: expected
 * ..." (code PMU_E_INPUT; PMU_E_IO when the file cannot be read).
 */
#ifndef ITA_CONFIG_H
#define ITA_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "stream/ita/ia64_enc.h" /* named instruction classes: ita_opcode_classes */
#include "common/ita/ita_arch.h"
#include "common/ita/ita_regs.h"
#include "common/pmu_err.h"
#include "stream/pmu_stream.h" /* pmu_gen_hot */

#ifdef __cplusplus
extern "C" {
#endif

#define ITA_CONFIG_PAIRS ITA_NPAIRS /* IBR pairs IBR0/1..IBR6/7, DBR pairs DBR0/1..DBR6/7 */

/* What a range line did with one IBR or DBR pair. */
typedef struct ita_config_pair {
    unsigned line;  /* the irange/drange line that programs the pair; 0 = none */
    uint8_t fine;   /* irange: 1 = lower bound of a fine-mode range, 2 = its upper bound */
    uint8_t cfg;    /* drange on Itanium 2: the PMC13 cfg_dbrp value for the pair */
    uint8_t cfg_given;
} ita_config_pair;

typedef struct ita_config {
    ita_model model;
    unsigned model_line;              /* line of `model = ...`, 0 when absent */
    /* Register values by visible register (ita_vis_table order); line 0 = not given.
     * A register computed from irange/drange/opcode lines has derived[v] = 1 and the
     * line of the first such line; an `opcode PMCn` line counts as PMCn's own line. */
    uint64_t value[ITA_NVIS];
    unsigned line[ITA_NVIS];
    uint8_t derived[ITA_NVIS];
    ita_config_pair ipair[ITA_CONFIG_PAIRS]; /* irange lines by IBR pair */
    ita_config_pair dpair[ITA_CONFIG_PAIRS]; /* drange lines by DBR pair */
    unsigned opcode_line[2];          /* `opcode PMC8` / `opcode PMC9` lines, 0 = none */
    unsigned tie_line[2];             /* the opcode lines that give tie= (PMC15), 0 = none */
    uint8_t tie_pairs[2];             /* bit k: tie= names pair k */
    /* Per counter, index 0..3 = PMD4..PMD7. */
    uint64_t period[ITA_NCOUNTERS];   /* period=N, 0 when not given */
    uint64_t start[ITA_NCOUNTERS];    /* what the counter holds when the run starts */
    uint64_t reload[ITA_NCOUNTERS];   /* what the overflow service reloads: 2^W - period, or 0 */
} ita_config;

/* Parses a configuration held in memory; `name` is used in messages.
 * `model` is the model to use when the text has no `model =` line; with
 * `model_fixed` set (the user chose it) a `model =` line naming another model is an
 * error.  Returns 0, or -1 with err filled. */
int ita_config_parse(const char *text, size_t len, const char *name, ita_model model,
                     int model_fixed, ita_config *cfg, pmu_err *err);

/* Reads and parses a file. */
int ita_config_load(const char *path, ita_model model, int model_fixed, ita_config *cfg,
                    pmu_err *err);

/* The built-in configuration used when no file is given (text in the file format):
 * four counters that show qualification at work. */
const char *ita_config_default_text(ita_model model);

/* Programs a reset backend: every register the configuration gives or derives, the
 * start value of each counter with a period, and finally PMC0 = 0 (unfreeze; PMC0
 * resets frozen) unless the configuration gives PMC0 itself. */
void ita_config_apply(const ita_config *cfg, pmu_backend *b);

/* The visible registers as ita_config_apply() leaves them (reset values for the
 * registers the configuration does not give). */
void ita_config_values(const ita_config *cfg, uint64_t vis[ITA_NVIS]);

/* Names for the run summary: the event programmed in a PMC4..7 value on a model
 * ("es=0x.. umask=.." when it is not in the event table), and its counter qualifiers
 * ("plm=user pm=0 thres=0 ism=both"). */
void ita_config_describe_event(uint64_t pmc, ita_model model, char *buf, size_t size);
void ita_config_describe_qualifiers(uint64_t pmc, char *buf, size_t size);

/* The instruction-address, opcode and data-address constraints that apply to counter
 * `counter` (0..3 = PMD4..PMD7) given all visible registers, e.g.
 * "irange[1]=0x4000000000001000..0x4000000000002000 opcode=PMC9(nop)"; "" when
 * none constrains it.  Follows docs/ita-semantics.md, "Event qualification". */
void ita_config_describe_tags(const uint64_t vis[ITA_NVIS], ita_model model, unsigned counter,
                              char *buf, size_t size);

/* The programmed IBR/DBR pairs and opcode matchers, one line each ending in '\n'
 * ("irange[0] 0x...1000..0x...2000 plm=user (IBR0, IBR1)"); "" when nothing is
 * programmed.  Returns the length written. */
size_t ita_config_describe_setup(const uint64_t vis[ITA_NVIS], ita_model model, char *buf,
                                 size_t size);

/* Edges for the stream generator (pmu_gen_hot, docs/ita-stream-format.md "Hot edges") from
 * the programmed qualification: the bounds of each IBR range (code) and DBR range
 * (data) whose pair can match, and each opcode matcher that does not match everything
 * (its pattern over the 41 encoding bits).  `hot` points into the arrays of the same
 * struct: fill it in place and do not copy it. */
typedef struct ita_config_hot {
    uint64_t code[2 * ITA_CONFIG_PAIRS], data[2 * ITA_CONFIG_PAIRS];
    uint64_t match[2], care[2];
    pmu_gen_hot hot;
} ita_config_hot;
void ita_config_hot_edges(const uint64_t vis[ITA_NVIS], ita_model model, ita_config_hot *h);

#ifdef __cplusplus
}
#endif
#endif
