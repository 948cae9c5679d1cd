/*
 * cli/pmu_outfile.h - the files of one command (verilator/cli/outfile.c): every pmusim
 * command writes through it, so that no command destroys or half-writes a file.
 *
 *   - A regular file (or a new one) is written to a temporary file in its directory and
 *     renamed over it only when the command commits; a failed command leaves the old
 *     file byte-for-byte as it was and removes only its own temporary file.
 *   - A character device or a FIFO is written straight; nothing is ever removed.  An
 *     output whose writer must seek (PMU_OUT_SEEKABLE: an FST waveform) is made in a
 *     temporary file under $TMPDIR and copied into the device or FIFO at the commit.
 *   - "-" is standard output where the command allows it (PMU_OUT_STDOUT).
 *   - An output that is the same file as one of the command's inputs or outputs is
 *     refused, whatever its spelling: files are compared by device and inode (a new
 *     file by its directory's and its name).
 *   - Nothing but a regular file this process created is ever unlinked.
 *
 * Inputs are read whole with a size limit (pmu_files_read) or registered after their
 * reader opened them (pmu_files_input), so that the outputs can be checked against them.
 */
#ifndef PMU_OUTFILE_H
#define PMU_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmu_files pmu_files;
typedef struct pmu_outfile pmu_outfile;

#define PMU_OUT_STDOUT 1u   /* "-" is standard output */
#define PMU_OUT_SEEKABLE 2u /* the writer needs a regular file (it seeks, or renames) */

/* An empty set of files; NULL when out of memory. */
pmu_files *pmu_files_new(void);
/* Drops every output not committed (removing its temporary file) and frees the set. */
void pmu_files_free(pmu_files *fs);

/* Records input `path` ("-" = standard input), opened already by its reader, for the
 * same-file check; `opt` names it in messages ("--stream"). */
void pmu_files_input(pmu_files *fs, const char *opt, const char *path);

/* Reads input `path` of option `opt` ("-" = standard input) whole: at most `limit`
 * bytes, NUL-terminated (free() *data).  `what` names the kind of file in the size
 * message ("a configuration file").  fs may be NULL; otherwise the input is recorded.
 * 0, or -1 with err filled: "PATH: cannot open: <strerror>", "PATH: cannot read: Is a
 * directory", "PATH: larger than N bytes, the limit for a configuration file". */
int pmu_files_read(pmu_files *fs, const char *opt, const char *path, size_t limit,
                   const char *what, char **data, size_t *len, pmu_err *err);

/* Prepares output `path` of option `opt`: checks that it can be written and is none of
 * the inputs and outputs so far, and creates its temporary file.  NULL + err otherwise
 * ("OPT: cannot write 'PATH': <strerror>", "OPT: 'PATH' is the input of --stream").
 * Register the inputs first. */
pmu_outfile *pmu_files_output(pmu_files *fs, const char *opt, const char *path, unsigned flags,
                              pmu_err *err);
/* A file beside waveform `fst`: its path without a final ".fst", then `ext` (".gtkw"), in
 * buf.  0, or -1 with err filled when it does not fit. */
int pmu_outfile_beside(const char *fst, const char *ext, char *buf, size_t size, pmu_err *err);
/* The path the writer opens: the temporary file, the device or FIFO itself, or "-". */
const char *pmu_outfile_path(const pmu_outfile *o);
/* The path the user gave. */
const char *pmu_outfile_target(const pmu_outfile *o);
/* Replaces the temporary path in a writer's message by the path the user gave. */
void pmu_outfile_fix_msg(const pmu_outfile *o, pmu_err *err);

/* Puts the written file in place (rename, or copy into a device): 0, or -1 + err (the
 * temporary file is removed and the target left as it was).  Bytes written: *size
 * (may be NULL). */
int pmu_outfile_commit(pmu_outfile *o, uint64_t *size, pmu_err *err);
/* The writer's handle on a text output (its temporary file, or the device or FIFO): NULL
 * with err filled ("OPT: cannot write 'PATH': <strerror>"). */
FILE *pmu_outfile_fopen(const pmu_outfile *o, const char *opt, pmu_err *err);
/* Closes that handle: 0, or -1 with err filled when a write failed ("OPT: cannot write
 * 'PATH': No space left on device").  Commit afterwards. */
int pmu_outfile_fclose(const pmu_outfile *o, const char *opt, FILE *f, pmu_err *err);
/* Writes a text output whole: write(f, arg) into its temporary file, then the commit.  0,
 * or -1 with err filled ("OPT: cannot write 'PATH': <strerror>", or the commit's
 * message). */
int pmu_outfile_write(pmu_outfile *o, const char *opt, void (*write)(FILE *f, const void *arg),
                      const void *arg, pmu_err *err);
/* Commits every output of the set not yet committed, in the order they were prepared;
 * stops at the first failure (the later ones are dropped). */
int pmu_files_commit(pmu_files *fs, pmu_err *err);

#ifdef __cplusplus
}
#endif
#endif
