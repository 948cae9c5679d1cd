/*
 * tmpfiles.c - the registry of temporary files removed on SIGINT, SIGTERM and SIGHUP
 * (include/stream/pmu_tmpfiles.h says the rules).
 */
#define _POSIX_C_SOURCE 200809L
#include "stream/pmu_tmpfiles.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A command has a handful at once: an output, its FST hierarchy, the stream writer's own
 * file under the output's, a second output. */
#define MAX_TMPFILES 64

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the handler reads the table without a lock");
static _Atomic(const char *) tmpfiles[MAX_TMPFILES];

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    /* A registered directory (record's guest root) goes once its entries are gone: three
     * passes remove a tree two levels deep in any order of registration. */
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < MAX_TMPFILES; i++) {
            const char *path = atomic_load(&tmpfiles[i]);
            if (path && unlink(path) != 0 && errno == EISDIR)
                rmdir(path);
        }
    /* The signal's own end, so that the parent sees it (status 128 + sig in a shell). */
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void handled_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t j = 0; j < sizeof handled / sizeof handled[0]; j++)
        sigaddset(set, handled[j]);
}

void pmu_tmpfiles_on_signals(void)
{
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) {
        struct sigaction old, sa = {.sa_handler = on_signal};
        handled_set(&sa.sa_mask); /* one cleanup at a time */
        if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(handled[i], &sa, NULL);
    }
}

void pmu_tmpfiles_hold(int on)
{
    sigset_t set;
    handled_set(&set);
    sigprocmask(on ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int pmu_tmpfiles_add(const char *path)
{
    for (size_t i = 0; i < MAX_TMPFILES; i++) {
        const char *none = NULL;
        if (atomic_compare_exchange_strong(&tmpfiles[i], &none, path))
            return 0;
    }
    return -1;
}

void pmu_tmpfiles_forget(const char *path)
{
    for (size_t i = 0; path && i < MAX_TMPFILES; i++) {
        const char *p = path;
        if (atomic_compare_exchange_strong(&tmpfiles[i], &p, NULL))
            return;
    }
}

int pmu_tmpfiles_holds(const char *path)
{
    for (size_t i = 0; path && i < MAX_TMPFILES; i++) {
        const char *p = atomic_load(&tmpfiles[i]);
        if (p && strcmp(p, path) == 0)
            return 1;
    }
    return 0;
}

int pmu_tmpfile_make(const char *dir, const char *base, char **tmp)
{
    size_t size = strlen(dir) + strlen(base) + 32;
    char *name = malloc(size);
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(name, size, "%s/.%.100s.pmusim-XXXXXX", dir, base); /* room below NAME_MAX */
    pmu_tmpfiles_hold(1); /* no signal between the file and its registration */
    int fd = mkstemp(name);
    if (fd >= 0)
        pmu_tmpfiles_add(name);
    pmu_tmpfiles_hold(0);
    if (fd < 0) {
        int e = errno;
        free(name);
        errno = e;
        return -1;
    }
    *tmp = name;
    return fd;
}

mode_t pmu_tmpfile_new_mode(void)
{
    const mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int pmu_tmpfile_commit(const char *tmp, mode_t mode, const char *dest)
{
    if (chmod(tmp, mode) != 0 || rename(tmp, dest) != 0)
        return -1;
    pmu_tmpfiles_forget(tmp);
    return 0;
}

void pmu_tmpfile_drop(const char *tmp)
{
    struct stat st;
    if (tmp && lstat(tmp, &st) == 0 && S_ISREG(st.st_mode))
        unlink(tmp);
    pmu_tmpfiles_forget(tmp);
}
