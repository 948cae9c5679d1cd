/*
 * stream/pmu_rtrace.h - the raw trace of a program run under QEMU: what the plugin
 * (qemu/pmusim_plugin.c) writes down the pipe `pmusim record` gives it, and the reader
 * that turns it into executed instructions (include/stream/pmu_timing.h, pmu_rinsn).
 *
 * The trace is a sequence of 32-bit words in the host's byte order (the plugin and the
 * recorder run on one machine), after a header of PMU_RTRACE_HEADER_WORDS words:
 *   "PMUR" "TRC1" (magic), the version, the recorded process's pid.
 * A word's two low bits are its kind:
 *   DEF  (2)  an instruction QEMU translated: id = word >> 2, then its address (two words,
 *             low first), its size in bytes, and its bytes in ceil(size / 4) words.
 *             Ids count from 0 in translation order; a retranslated instruction gets a new id.
 *   EXEC (0)  instruction id = word >> 2 executes (QEMU calls the plugin before it does).
 *   MEM  (1)  the instruction executing made an access: bit 2 a store, bits 3..6 log2 of
 *             its size; then its address (two words, low first).
 *   CTRL (3)  bits 2..9 say what: END (the last word group: then the instruction count
 *             QEMU's inline counter kept, independently of the EXEC words, two words);
 *             THREADS (the program started a second thread: the recording stops there);
 *             MAP (before END: a file mapped from its start into QEMU's process at exit,
 *             then its host address (two words), its path's length and the path in
 *             ceil(length / 4) words): where QEMU put the program and its libraries.
 */
#ifndef PMU_RTRACE_H
#define PMU_RTRACE_H

#include <stdint.h>
#include <stdio.h>

#include "common/pmu_err.h"
#include "stream/pmu_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_RTRACE_MAGIC0 0x524d5550u /* "PMUR" read as a little-endian word */
#define PMU_RTRACE_MAGIC1 0x31435254u /* "TRC1" */
#define PMU_RTRACE_VERSION 1u
#define PMU_RTRACE_HEADER_WORDS 4u

enum pmu_rtrace_kind { PMU_RT_EXEC = 0, PMU_RT_MEM = 1, PMU_RT_DEF = 2, PMU_RT_CTRL = 3 };
enum pmu_rtrace_ctrl { PMU_RT_END = 1, PMU_RT_THREADS = 2, PMU_RT_MAP = 3 };
#define PMU_RT_MAX_PATH 4096u
#define PMU_RT_MAX_ID ((1u << 30) - 1u)

typedef struct pmu_rtrace pmu_rtrace;

/* Reads the trace from f (a pipe; not closed).  `name` names it in messages. */
pmu_rtrace *pmu_rtrace_open(FILE *f, const char *name, pmu_err *err);
/* The next executed instruction into *out: 1, 0 at the END word, -1 with err on a
 * malformed trace, or one that ended without END (QEMU died: err says so). */
int pmu_rtrace_next(pmu_rtrace *t, pmu_rinsn *out, pmu_err *err);
/* After 0 from pmu_rtrace_next: the instructions QEMU's own counter counted, and how many
 * EXEC words the reader saw (equal in a whole trace). */
uint64_t pmu_rtrace_qemu_count(const pmu_rtrace *t);
uint64_t pmu_rtrace_exec_count(const pmu_rtrace *t);
/* After the END word: the files QEMU had mapped at exit (MAP words), in trace order:
 * file i's path and the host address its first byte was mapped at.  NULL past the end. */
const char *pmu_rtrace_map(const pmu_rtrace *t, unsigned i, uint64_t *host_start);
/* The recorded process's pid (the header's). */
uint32_t pmu_rtrace_pid(const pmu_rtrace *t);
void pmu_rtrace_close(pmu_rtrace *t);

#ifdef __cplusplus
}
#endif
#endif
