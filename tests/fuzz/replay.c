/*
 * replay.c - the corpus runner of `make test` (docs/fuzzing.md): runs a fuzz harness's
 * LLVMFuzzerTestOneInput on every file of the corpus directories and files it is given,
 * in name order, without libFuzzer, so that the replay needs nothing but gcc.
 *
 *   build/fuzz/replay/<harness> DIR_OR_FILE...
 *
 * Each input is its own exact-size allocation (a sanitizer build then sees every read past
 * its end).  A harness reports a broken property by aborting; a crash, an abort or a
 * sanitizer's report names the input it happened on.  Exit 0 when every input passed;
 * 1 when an argument names nothing readable or a directory holds no input (a replay of
 * nothing would pass without testing anything).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "cli/pmu_outfile.h"

/* The largest input read; the fuzzers' -max_len (docs/fuzzing.md) is far below it. */
#define REPLAY_LIMIT ((size_t)64 << 20)

/* The input being run, for the crash report. */
static const char *current = "(none)";

static void say_current(void)
{
    static const char pre[] = "replay: the failing input is ";
    ssize_t ignored = write(2, pre, sizeof pre - 1);
    ignored = write(2, current, strlen(current));
    ignored = write(2, "\n", 1);
    (void)ignored;
}

static void on_signal(int sig)
{
    say_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A sanitizer's report ends the process without a signal; its death callback (present only
 * in a sanitizer build, hence weak) names the input. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static int run_file(const char *path)
{
    char *buf;
    size_t len;
    pmu_err err;
    if (pmu_files_read(NULL, "corpus", path, REPLAY_LIMIT, "a corpus input", &buf, &len, &err)) {
        fprintf(stderr, "replay: %s\n", err.msg);
        return -1;
    }
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    if (len)
        memcpy(exact, buf, len);
    free(buf);
    current = path;
    LLVMFuzzerTestOneInput(exact, len);
    current = "(none)";
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir (not recursive), sorted; the count of inputs run, or -1. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path)
            abort();
        snprintf(path, len, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(path);
            continue;
        }
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
            if (!nn)
                abort();
            names = nn;
        }
        names[n++] = path;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    long ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (ran >= 0 && run_file(names[i]) == 0)
            ran++;
        else
            ran = -1;
        free(names[i]);
    }
    free(names);
    if (ran == 0)
        fprintf(stderr, "replay: no input in %s\n", dir);
    return ran > 0 ? ran : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_signal);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(say_current);
    long total = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long ran = -1;
        if (stat(argv[i], &st) != 0)
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
        else if (S_ISDIR(st.st_mode))
            ran = run_dir(argv[i]);
        else
            ran = run_file(argv[i]) == 0 ? 1 : -1;
        if (ran < 0)
            status = 1;
        else
            total += ran;
    }
    printf("%s: %ld inputs replayed, %s\n", argv[0], total, status ? "FAILED" : "every property held");
    return status;
}
