/*
 * tmpfiles.c - the registry of temporary files removed on SIGINT, SIGTERM and SIGHUP
 * (include/pmu_tmpfiles.h says the rules).
 */
#define _POSIX_C_SOURCE 200809L
#include "pmu_tmpfiles.h"

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

/* A command has a handful at once: an output, its FST hierarchy, the stream writer's own
 * file under the output's, a second output. */
#define MAX_TMPFILES 64

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the handler reads the table without a lock");
static _Atomic(const char *) tmpfiles[MAX_TMPFILES];

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    for (size_t i = 0; i < MAX_TMPFILES; i++) {
        const char *path = atomic_load(&tmpfiles[i]);
        if (path)
            unlink(path);
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
