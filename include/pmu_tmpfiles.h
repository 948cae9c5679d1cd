/*
 * pmu_tmpfiles.h - temporary files that a signal does not leave behind (stream/tmpfiles.c).
 *
 * Every temporary file a command makes before renaming it into place is registered here
 * while it exists (stream/out_file.c and verilator/cli/outfile.c do it).  SIGINT, SIGTERM
 * and SIGHUP then unlink every registered file and end the process by the same signal, so
 * that the shell sees status 128 + signal as it would without the handler.  The registry
 * is a fixed table of pointers that the handler only reads: adding and removing are
 * atomic stores, and the handler calls nothing but unlink(), sigaction(), sigprocmask() and
 * raise() (async-signal-safe, POSIX.1-2017 XSH 2.4.3).
 */
#ifndef PMU_TMPFILES_H
#define PMU_TMPFILES_H

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

#ifdef __cplusplus
}
#endif
#endif
