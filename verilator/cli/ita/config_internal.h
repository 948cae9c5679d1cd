/*
 * config_internal.h - what the files of the configuration reader share (not installed).
 *
 *   config_parse.c     text -> lines -> tokens, the model line, the whole file, the
 *                      counters' start and reload values, applying a configuration
 *   config_regs.c      register lines: a whole value or field by field
 *   config_qual.c      irange, drange and opcode lines, and the constraint registers
 *                      they derive after the last line
 *   config_describe.c  names for the run summary, the qualification setup, hot edges
 *   config_defaults.c  the built-in configuration text
 *   (the named instruction classes of `opcode ... class=` are include/stream/ita/ia64_enc.h)
 *
 * Register encodings shared with the event library come from include/sw/ita/ita_encode.h.
 */
#ifndef CONFIG_INTERNAL_H
#define CONFIG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sw/ita/ita_encode.h"
#include "harness/ita/ita_family.h"
#include "cli/ita/ita_config.h"
#include "common/pmu_text.h"

/* The opcode matchers see instruction bits {40:27,12:0} (include/stream/ita/ia64_enc.h). */
_Static_assert(IA64_WINDOW_LOW_BITS + IA64_WINDOW_HIGH_BITS == ITA_F_PMC_OPC_MATCH_WIDTH,
               "instruction bits {40:27,12:0} must fill PMC8/9.match");

static inline uint64_t field_ones(unsigned width) { return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1; }

/* "Itanium" or "Itanium 2", for messages. */
static inline const char *config_model_title(ita_model m) { return ita_models[m].title; }

/* ---- parsing ------------------------------------------------------------------ */

typedef struct config_parser {
    const char *name; /* the file name in messages */
    unsigned line;    /* the line being read, from 1 */
    ita_model model;  /* the model whose layout values are checked against */
    pmu_err *err;
} config_parser;

/* Fills the error as "NAME:LINE: FIELD: WHAT" (PMU_E_INPUT) and returns -1. */
int config_fail(config_parser *p, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Parses s[0..len) as an unsigned integer (include/common/pmu_num.h syntax) for `field`;
 * -1 with the error filled ("NAME:LINE: FIELD: expected ..."). */
int config_number(config_parser *p, const char *field, const char *s, size_t len, uint64_t *out);

typedef struct config_token {
    const char *s;
    size_t len;
} config_token;

#define CONFIG_MAX_TOKENS 32

/* The names given on one line: the second of a name is an error. */
#define CONFIG_NAME_MAX 24
typedef struct config_seen {
    char name[CONFIG_MAX_TOKENS][CONFIG_NAME_MAX];
    unsigned n;
} config_seen;
int config_seen_once(config_parser *p, config_seen *s, const char *name);

/* What config_each_item() calls for one token: a name=value item with `key` its name
 * lower-cased (new on the line, the value not empty), or with key NULL any other word.
 * Returns 0, or -1 with the error filled. */
typedef int (*config_item_fn)(config_parser *p, void *ctx, config_seen *seen, const config_token *t,
                              const char *key, const char *val, size_t vlen);
/* Calls fn on tok[0..ntok) in order; stops at the first error (-1). */
int config_each_item(config_parser *p, const config_token *tok, unsigned ntok, config_item_fn fn, void *ctx);

/* The register descriptor of visible register v (every visible register has one). */
const ita_reg_desc *config_reg(unsigned v);
uint64_t config_reset(unsigned v, ita_model m);

/* The event a PMC's (es, umask) selects on a model; -1 when none. */
int config_event_by_code(unsigned es, unsigned umask, ita_model m);

/* The line kinds (config_regs.c, config_qual.c); each returns 0 or -1 with the error. */
int config_register_line(config_parser *p, ita_config *cfg, unsigned v, int raw, const config_token *tok,
                         unsigned ntok);
int config_range_line(config_parser *p, ita_config *cfg, int code, const config_token *tok, unsigned ntok);
int config_opcode_line(config_parser *p, ita_config *cfg, const config_token *tok, unsigned ntok);
/* After the last line: the constraint registers that make the qualification lines
 * take effect, unless the file gives them itself. */
int config_finish_qualification(config_parser *p, ita_config *cfg);

/* ---- opcode classes and matchers ---------------------------------------------- */

/* The unit letters of `slots=` and of descriptions, in enum ita_unit order. */
#define CONFIG_UNIT_LETTERS "mifb"
/* Slot bits (ITA_SLOT_*) of a string of unit letters. */
unsigned config_slots_of_letters(const char *units, size_t len);
/* PMC8/9 field values of a class: match, mask (1 = don't care) over the 27 bits. */
void config_class_fields(const ita_opcode_class *c, uint64_t *match, uint64_t *mask);

/* ---- describing --------------------------------------------------------------- */

/* "0x1000..0x2000". */
void config_fmt_range(char *buf, size_t size, uint64_t start, uint64_t end);

#endif
