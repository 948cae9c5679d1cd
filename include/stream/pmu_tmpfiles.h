/*
 * stream/pmu_tmpfiles.h - temporary files that a signal does not leave behind (stream/tmpfiles.c).
 *
 * The one way an output is made whole or not at all: a temporary file beside it
 * (pmu_tmpfile_make), renamed over it when complete (pmu_tmpfile_commit) or removed
 * (pmu_tmpfile_drop).  The stream writers (stream/out_file.c) and the command layer's
 * outputs (verilator/cli/outfile.c) both use it; a writer handed a file that is already
 * one of these temporary files writes it in place, so that an output is renamed once.
 *
 * Every temporary file is registered here while it exists.  SIGINT, SIGTERM
 * and SIGHUP then unlink every registered file (and remove a registered directory once its
 * registered entries are gone, to two levels) and end the process by the same signal, so
 * that the shell sees status 128 + signal as it would without the handler.  The registry
 * is a fixed table of pointers that the handler only reads: adding and removing are
 * atomic stores, and the handler calls nothing but unlink(), rmdir(), sigaction(),
 * sigprocmask() and raise() (async-signal-safe, POSIX.1-2017 XSH 2.4.3).
 */
#ifndef PMU_TMPFILES_H
#define PMU_TMPFILES_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Installs the handlers; a program calls it once, before it makes any file.  A signal
 * the program was started with ignored (nohup's SIGHUP) stays ignored. */
void pmu_tmpfiles_on_signals(void);

/* Registers temporary file `path`: the string must stay valid until pmu_tmpfiles_forget.
 * 0, or -1 when the table is full (the file is then only not removed on a signal). */
int pmu_tmpfiles_add(const char *path);

/* Holds the signals off (on = 1) while a temporary file is made and registered, so that
 * none can come between the two; on = 0 lets them through again. */
void pmu_tmpfiles_hold(int on);

/* Forgets `path` (the same pointer as added; NULL or unknown: nothing).  Call it after the
 * file was renamed into place or removed, and before the string is freed. */
void pmu_tmpfiles_forget(const char *path);

/* 1 when a registered temporary file is named `path` (the same spelling), else 0. */
int pmu_tmpfiles_holds(const char *path);

/* Makes and registers a new temporary file "DIR/.BASE.pmusim-XXXXXX" (BASE cut to 100
 * characters), mode 0600, to be renamed over a file named BASE in DIR.  Returns its
 * descriptor, open for writing, with *tmp its name (malloc'd: free it after the commit or
 * the drop); -1 with errno set (nothing made). */
int pmu_tmpfile_make(const char *dir, const char *base, char **tmp);

/* The mode open(2) gives a new file created with 0666 (the process's umask applied): a
 * temporary file's when it becomes a new file. */
mode_t pmu_tmpfile_new_mode(void);

/* Gives temporary file tmp `mode` and renames it over dest, then forgets it: 0, or -1 with
 * errno set (tmp stays, registered). */
int pmu_tmpfile_commit(const char *tmp, mode_t mode, const char *dest);

/* Removes temporary file tmp, only if it is still a regular file (NULL: nothing), and
 * forgets it. */
void pmu_tmpfile_drop(const char *tmp);

#ifdef __cplusplus
}
#endif
#endif
