/*
 * stream_internal.h - pieces shared by the files of stream/ (not a public interface).
 *
 * The text keys of the slot flags, their positions and widths all come from
 * data/pmu_regs.def; nothing here retypes them.
 */
#ifndef STREAM_INTERNAL_H
#define STREAM_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include "ita/pmu_regs.h"
#include "pmu_stream.h"

/* ---- slot flags, expanded from the .def ---------------------------------- */
typedef struct sf_key {
    const char *key;  /* text key, e.g. "l1d_miss" */
    const char *name; /* .def name, e.g. "L1D_MISS" */
    unsigned lsb, width;
    uint16_t mask;    /* in place */
} sf_key;
extern const sf_key sf_keys[];
extern const unsigned sf_nkeys;
/* Every bit some PMU_SLOT_FLAG defines. */
uint16_t sf_defined_mask(void);

/* ---- text form ------------------------------------------------------------ */
/* Sticky cycle fields and their initial values (docs/stream-format.md). */
typedef struct text_sticky {
    uint8_t cpl, is, power;
    uint16_t pid;
} text_sticky;
void text_sticky_init(text_sticky *s);

/* Parses one line (without its newline; comments allowed).  Returns 1 = a record
 * (c, *repeat filled, sticky updated), 0 = blank or comment only, -1 = error.
 * `where` is "file:line"; messages add the column. */
int text_parse_line(const char *line, size_t len, const char *where, text_sticky *sticky,
                    pmu_cycle *c, uint64_t *repeat, pmu_err *err);

/* Appends the text of a record to buf (NUL-terminated, truncated at size-1).
 * With `prev` NULL every sticky field is written, otherwise only those that differ
 * from *prev.  repeat > 1 adds repeat=N.  Returns the length the full line needs. */
size_t text_format(const pmu_cycle *c, const text_sticky *prev, uint64_t repeat, char *buf,
                   size_t size);

/* ---- binary form ---------------------------------------------------------- */
#define BIN_MAGIC "\x89PMUCYC\n"
#define BIN_MAGIC_LEN 8
#define BIN_VERSION 1u
#define BIN_HEADER_LEN 24u
#define BIN_COUNT_OFFSET 16u
#define BIN_ENC_CACHE 4096u
#define BIN_MAX_RECORD 320u /* no encoded record is longer (16 + 6 slots x 47 bytes) */

/* Delta-coding state that the writer and the reader keep in step. */
typedef struct bin_state {
    uint8_t cpl, is, power;
    uint16_t pid;
    uint64_t prev_ip, prev_daddr;
    struct bin_enc_entry {
        uint64_t ip, enc;
        uint8_t slot, valid;
    } enc_cache[BIN_ENC_CACHE];
} bin_state;
void bin_state_init(bin_state *s);
unsigned bin_enc_index(uint64_t ip, unsigned slot);

/* Encodes one record (repeat >= 1) into out (BIN_MAX_RECORD bytes).  Returns its length. */
size_t bin_encode(bin_state *s, const pmu_cycle *c, uint64_t repeat, uint8_t *out);

/* Byte source for the decoder: returns the next byte or -1 at the end of data. */
typedef int (*bin_getc_fn)(void *ctx);
/* Decodes one record.  Returns 1 = record, 0 = clean end of data before the first byte,
 * -1 = error (`where` is "file:record N"). */
int bin_decode(bin_state *s, bin_getc_fn get, void *ctx, const char *where, pmu_cycle *c,
               uint64_t *repeat, pmu_err *err);

void bin_put_u64le(uint8_t *p, uint64_t v);
uint64_t bin_get_u64le(const uint8_t *p);

/* ---- helpers --------------------------------------------------------------- */
/* Writes "where: " + formatted text into err (err may be NULL). Always returns -1. */
int stream_errf(pmu_err *err, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Zeroes everything a record does not use (slots past nslots, padding) so that two
 * equal records compare equal with cycle_equal and encode identically. */
void cycle_canon(const pmu_cycle *in, pmu_cycle *out);
int cycle_equal(const pmu_cycle *a, const pmu_cycle *b);

/* Form of an open reader (for `pmusim conv`). */
pmu_stream_form stream_reader_form(const pmu_stream_reader *r);

/* Names of enumerated values, indexed by value. */
extern const char *const stream_is_names[2];
extern const char *const stream_power_names[4];
extern const char *const stream_intr_names[3];
extern const char stream_unit_letters[4];

#endif
