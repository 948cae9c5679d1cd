/*
 * cli/pmu_symtab.h - symbol tables for `pmusim profile` (verilator/cli/symtab.c): address
 * ranges with function names, from a symbol file or from the generator's workload.
 *
 * A symbol file has "START END NAME" lines, hexadecimal addresses (0x optional), END
 * exclusive, '#' comments and blank lines ignored: the form `pmusim gen --symbols`
 * writes.  Ranges may not overlap.  A name on several lines is one function in pieces
 * (pmusim record names each stretch of a file's code without a symbol "FILE:[no symbol]"):
 * its samples add up, and its range is the hull of its pieces.
 */
#ifndef PMU_SYMTAB_H
#define PMU_SYMTAB_H

#include <stdint.h>

#include "common/pmu_err.h"
#include "stream/pmu_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_SYMTAB_LIMIT (64u << 20) /* bytes of a symbol file */

typedef struct drv_symtab drv_symtab;
/* NULL + err ("FILE:LINE: what was expected", PMU_E_INPUT) on a bad file. */
drv_symtab *drv_symtab_load(const char *path, pmu_err *err);
/* The same from a symbol file's text in memory (text[0..len), need not end in NUL); `path`
 * names it in messages. */
drv_symtab *drv_symtab_parse(const char *text, size_t len, const char *path, pmu_err *err);
/* The functions of a generator's workload (NULL when out of memory). */
drv_symtab *drv_symtab_from_gen(const pmu_gen *g);
/* The function holding addr: its index (functions are numbered in the order of their first
 * pieces' addresses), or -1. */
int drv_symtab_find(const drv_symtab *t, uint64_t addr);
unsigned drv_symtab_count(const drv_symtab *t);
const char *drv_symtab_name(const drv_symtab *t, unsigned i); /* NULL past the end */
/* Function i's range [*start, *end), the hull of its pieces; 0, or -1 past the end. */
int drv_symtab_range(const drv_symtab *t, unsigned i, uint64_t *start, uint64_t *end);
void drv_symtab_free(drv_symtab *t);

#ifdef __cplusplus
}
#endif
#endif
