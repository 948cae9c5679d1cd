/*
 * pmusim_plugin.c - the QEMU TCG plugin `pmusim record` runs a program with
 * (docs/real-programs.md): it writes the program's executed instructions, with their
 * encodings and memory accesses, down a file descriptor as the raw trace of
 * include/stream/pmu_rtrace.h.
 *
 *   qemu-alpha -plugin build/qemu/pmusim_plugin.so,fd=N PROGRAM ...
 *
 * At translation it gives every instruction an id and writes its definition (address and
 * bytes) once; at run time an instruction's callback writes one word, its id, and each
 * memory access two more.  An inline counter QEMU keeps without calling the plugin counts
 * the executed instructions a second way; the END word carries it, so the recorder can
 * check that no instruction was lost.  Words collect in a buffer written out when full and
 * at exit.
 *
 * A recording follows one thread of one process: once a second vCPU (thread) exists, no
 * callback but the first vCPU's touches the buffer, nothing more is instrumented, and the
 * first vCPU's next instruction writes THREADS and stops the recording (QEMU runs threads
 * in parallel: the buffer has one writer); a forked child (a copy of this process) writes
 * nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu_plugin_api.h"
#include "stream/pmu_rtrace.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_API_VERSION;

#define BUF_WORDS (1u << 18) /* 1 MiB */
#define DEF_MAX_WORDS (5u + (PMU_RINSN_MAX_BYTES + 3u) / 4u)

static uint32_t buf[BUF_WORDS];
static unsigned nbuf;
static int out_fd = -1;
static pid_t owner;    /* the recorded process: a forked child writes nothing */
static int stopped;    /* a write failed, or a second thread started (the first vCPU's) */
static int threads;    /* a second vCPU exists (set by its thread: atomic) */
static uint32_t next_id;
static uint64_t inline_count; /* QEMU's own count (qemu_plugin_register_vcpu_insn_exec_inline) */

static void die(const char *what)
{
    fprintf(stderr, "pmusim_plugin: %s: %s\n", what, strerror(errno));
    stopped = 1;
}

static void flush(void)
{
    if (stopped || getpid() != owner) {
        nbuf = 0;
        return;
    }
    const char *p = (const char *)buf;
    size_t left = (size_t)nbuf * sizeof buf[0];
    while (left > 0) {
        ssize_t n = write(out_fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            die("writing the trace");
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    nbuf = 0;
}

static inline void put(uint32_t w)
{
    if (nbuf == BUF_WORDS)
        flush();
    buf[nbuf++] = w;
}

static void put64(uint64_t v)
{
    put((uint32_t)v);
    put((uint32_t)(v >> 32));
}

static void ctrl(unsigned what) { put(PMU_RT_CTRL | what << 2); }

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
    (void)id;
    if (vcpu != 0)
        __atomic_store_n(&threads, 1, __ATOMIC_RELEASE);
}

static void on_exec(unsigned int vcpu, void *id)
{
    if (vcpu != 0 || stopped)
        return;
    if (__atomic_load_n(&threads, __ATOMIC_ACQUIRE)) {
        ctrl(PMU_RT_THREADS);
        flush();
        stopped = 1;
        return;
    }
    if (nbuf == BUF_WORDS)
        flush();
    buf[nbuf++] = (uint32_t)(uintptr_t)id << 2; /* PMU_RT_EXEC */
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)udata;
    if (vcpu != 0 || stopped)
        return;
    if (nbuf + 3 > BUF_WORDS)
        flush();
    buf[nbuf++] = PMU_RT_MEM | (uint32_t)qemu_plugin_mem_is_store(info) << 2 |
                  (qemu_plugin_mem_size_shift(info) & 0xfu) << 3;
    buf[nbuf++] = (uint32_t)vaddr;
    buf[nbuf++] = (uint32_t)(vaddr >> 32);
}

static void on_translate(qemu_plugin_id_t pid, struct qemu_plugin_tb *tb)
{
    (void)pid;
    if (__atomic_load_n(&threads, __ATOMIC_ACQUIRE))
        return; /* translated while a second thread may run: not instrumented (the recording stops) */
    const size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        size_t size = qemu_plugin_insn_size(insn);
        if (size > PMU_RINSN_MAX_BYTES)
            size = PMU_RINSN_MAX_BYTES;
        if (next_id > PMU_RT_MAX_ID) {
            errno = EOVERFLOW;
            die("more translated instructions than the trace can name");
            return;
        }
        const uint32_t id = next_id++;
        uint32_t words[DEF_MAX_WORDS] = {0};
        const uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
        words[0] = PMU_RT_DEF | id << 2;
        words[1] = (uint32_t)vaddr;
        words[2] = (uint32_t)(vaddr >> 32);
        words[3] = (uint32_t)size;
        memcpy(&words[4], qemu_plugin_insn_data(insn), size);
        for (unsigned k = 0; k < 4u + ((unsigned)size + 3u) / 4u; k++)
            put(words[k]);
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)id);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &inline_count, 1);
        qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

/* The files mapped from their first byte (the program, its interpreter, its libraries), from
 * QEMU's own /proc/self/maps: QEMU user mode maps the guest's memory at guest_base + its
 * address, so the recorder finds where each library went from where the program did. */
static void put_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return;
    char line[PMU_RT_MAX_PATH + 128];
    while (fgets(line, sizeof line, f)) {
        unsigned long long start, end, off;
        char perms[8];
        int path_at = 0;
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &path_at) < 4 || path_at == 0 ||
            off != 0 || line[path_at] != '/')
            continue;
        char *path = line + path_at;
        size_t len = strcspn(path, "\n");
        if (len == 0 || len > PMU_RT_MAX_PATH)
            continue;
        uint32_t words[(PMU_RT_MAX_PATH + 3) / 4] = {0};
        memcpy(words, path, len);
        ctrl(PMU_RT_MAP);
        put64(start);
        put((uint32_t)len);
        for (unsigned k = 0; k < (len + 3) / 4; k++)
            put(words[k]);
    }
    fclose(f);
}

static void on_exit_qemu(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    if (stopped)
        return;
    if (__atomic_load_n(&threads, __ATOMIC_ACQUIRE)) {
        /* The first vCPU ran no instrumented instruction since the second thread began
         * (everything after it was translated afresh): the recording stops here. */
        ctrl(PMU_RT_THREADS);
        flush();
        return;
    }
    put_maps();
    ctrl(PMU_RT_END);
    put64(inline_count);
    flush();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    if (info->system_emulation) {
        fputs("pmusim_plugin: runs under QEMU user mode only (qemu-alpha, qemu-i386)\n", stderr);
        return -1;
    }
    for (int i = 0; i < argc; i++) {
        char *end;
        if (strncmp(argv[i], "fd=", 3) == 0) {
            errno = 0;
            long fd = strtol(argv[i] + 3, &end, 10);
            if (errno || *end || end == argv[i] + 3 || fd < 0 || fd > 65535) {
                fputs("pmusim_plugin: fd=N: expected a file descriptor number\n", stderr);
                return -1;
            }
            out_fd = (int)fd;
        } else {
            fprintf(stderr, "pmusim_plugin: unknown argument '%.100s' (expected fd=N)\n", argv[i]);
            return -1;
        }
    }
    if (out_fd < 0) {
        fputs("pmusim_plugin: expected the argument fd=N (the trace's file descriptor)\n", stderr);
        return -1;
    }
    owner = getpid();
    put(PMU_RTRACE_MAGIC0);
    put(PMU_RTRACE_MAGIC1);
    put(PMU_RTRACE_VERSION);
    put((uint32_t)owner);
    qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_qemu, NULL);
    return 0;
}
