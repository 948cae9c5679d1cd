/*
 * rtrace.c - the raw trace reader (include/stream/pmu_rtrace.h): the plugin's words into
 * executed instructions, each completed with the address of the one executed after it.
 */
#include "stream/pmu_rtrace.h"

#include <stdlib.h>
#include <string.h>

typedef struct rt_def {
    uint64_t vaddr;
    uint8_t size;
    uint8_t bytes[PMU_RINSN_MAX_BYTES];
} rt_def;

struct pmu_rtrace {
    FILE *f;
    const char *name;
    uint32_t pid;
    rt_def *defs;
    uint32_t ndefs, cap;
    pmu_rinsn pending; /* the last EXEC's instruction, waiting for the next one's address */
    int have_pending;
    int ended;
    uint64_t qemu_count, exec_count, words;
    struct rt_map {
        char *path;
        uint64_t start;
    } *maps;
    unsigned nmaps;
    uint32_t buf[4096];
    size_t nbuf, pos;
};

/* The next word: 1, or 0 at the end of the data (err set when it is cut short in a word). */
static int word(pmu_rtrace *t, uint32_t *w, pmu_err *err)
{
    if (t->pos == t->nbuf) {
        size_t n = fread(t->buf, 1, sizeof t->buf, t->f);
        if (n % 4 != 0) {
            /* A short read may end mid-word on a pipe: complete the word. */
            size_t more = fread((char *)t->buf + n, 1, 4 - n % 4, t->f);
            n += more;
            if (n % 4 != 0) {
                pmu_errf(err, PMU_E_INPUT, "%s: the trace ends inside a word (word %llu)", t->name,
                         (unsigned long long)t->words);
                return -1;
            }
        }
        if (n == 0) {
            if (ferror(t->f)) {
                pmu_errf(err, PMU_E_IO, "%s: read error after word %llu", t->name, (unsigned long long)t->words);
                return -1;
            }
            return 0;
        }
        t->nbuf = n / 4;
        t->pos = 0;
    }
    *w = t->buf[t->pos++];
    t->words++;
    return 1;
}

static int need(pmu_rtrace *t, uint32_t *w, const char *what, pmu_err *err)
{
    int r = word(t, w, err);
    if (r == 0)
        pmu_errf(err, PMU_E_INPUT, "%s: the trace ends inside %s (word %llu): QEMU stopped mid-write", t->name,
                 what, (unsigned long long)t->words);
    return r == 1 ? 0 : -1;
}

pmu_rtrace *pmu_rtrace_open(FILE *f, const char *name, pmu_err *err)
{
    pmu_rtrace *t = calloc(1, sizeof *t);
    if (!t) {
        pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", name);
        return NULL;
    }
    t->f = f;
    t->name = name;
    uint32_t h[PMU_RTRACE_HEADER_WORDS];
    for (unsigned i = 0; i < PMU_RTRACE_HEADER_WORDS; i++) {
        int r = word(t, &h[i], err);
        if (r != 1) {
            if (r == 0)
                pmu_errf(err, PMU_E_INPUT, "%s: no trace header: the plugin did not start (see QEMU's message)",
                         name);
            free(t);
            return NULL;
        }
    }
    if (h[0] != PMU_RTRACE_MAGIC0 || h[1] != PMU_RTRACE_MAGIC1 || h[2] != PMU_RTRACE_VERSION) {
        pmu_errf(err, PMU_E_INPUT, "%s: not a pmusim raw trace of version %u (the plugin and pmusim differ?)",
                 name, PMU_RTRACE_VERSION);
        free(t);
        return NULL;
    }
    t->pid = h[3];
    return t;
}

static int define(pmu_rtrace *t, uint32_t w, pmu_err *err)
{
    const uint32_t id = w >> 2;
    uint32_t lo, hi, size;
    if (need(t, &lo, "a definition", err) || need(t, &hi, "a definition", err) || need(t, &size, "a definition", err))
        return -1;
    if (id != t->ndefs)
        return pmu_errf(err, PMU_E_INPUT, "%s: word %llu: defines instruction %u, expected %u", t->name,
                        (unsigned long long)t->words, id, t->ndefs);
    if (size == 0 || size > PMU_RINSN_MAX_BYTES)
        return pmu_errf(err, PMU_E_INPUT, "%s: word %llu: instruction size %u, expected 1..%u", t->name,
                        (unsigned long long)t->words, size, PMU_RINSN_MAX_BYTES);
    if (t->ndefs == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 4096;
        rt_def *d = realloc(t->defs, (size_t)cap * sizeof *d);
        if (!d)
            return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory for %u instructions", t->name, cap);
        t->defs = d;
        t->cap = cap;
    }
    rt_def *d = &t->defs[t->ndefs++];
    d->vaddr = (uint64_t)hi << 32 | lo;
    d->size = (uint8_t)size;
    uint32_t b[(PMU_RINSN_MAX_BYTES + 3) / 4];
    for (unsigned k = 0; k < (size + 3) / 4; k++)
        if (need(t, &b[k], "a definition", err))
            return -1;
    memcpy(d->bytes, b, size);
    return 0;
}

static int map(pmu_rtrace *t, pmu_err *err)
{
    uint32_t lo, hi, len;
    if (need(t, &lo, "a mapping", err) || need(t, &hi, "a mapping", err) || need(t, &len, "a mapping", err))
        return -1;
    if (len == 0 || len > PMU_RT_MAX_PATH)
        return pmu_errf(err, PMU_E_INPUT, "%s: word %llu: a mapping's path of %u bytes, expected 1..%u", t->name,
                        (unsigned long long)t->words, len, PMU_RT_MAX_PATH);
    char *path = malloc((size_t)len + 4);
    struct rt_map *m = realloc(t->maps, (t->nmaps + 1) * sizeof *m);
    if (!path || !m) {
        free(path);
        if (m)
            t->maps = m;
        return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", t->name);
    }
    t->maps = m;
    for (unsigned k = 0; k < (len + 3) / 4; k++) {
        uint32_t w;
        if (need(t, &w, "a mapping", err)) {
            free(path);
            return -1;
        }
        memcpy(path + 4 * k, &w, 4);
    }
    path[len] = '\0';
    t->maps[t->nmaps++] = (struct rt_map){path, (uint64_t)hi << 32 | lo};
    return 0;
}

const char *pmu_rtrace_map(const pmu_rtrace *t, unsigned i, uint64_t *host_start)
{
    if (i >= t->nmaps)
        return NULL;
    *host_start = t->maps[i].start;
    return t->maps[i].path;
}

int pmu_rtrace_next(pmu_rtrace *t, pmu_rinsn *out, pmu_err *err)
{
    if (t->ended)
        return 0;
    for (;;) {
        uint32_t w;
        int r = word(t, &w, err);
        if (r < 0)
            return -1;
        if (r == 0)
            return pmu_errf(err, PMU_E_INPUT, "%s: the trace ends without its END word after %llu instructions: "
                            "QEMU was killed before it could finish", t->name,
                            (unsigned long long)t->exec_count);
        switch (w & 3u) {
        case PMU_RT_DEF:
            if (define(t, w, err))
                return -1;
            break;
        case PMU_RT_MEM: {
            uint32_t lo, hi;
            if (need(t, &lo, "a memory access", err) || need(t, &hi, "a memory access", err))
                return -1;
            if (!t->have_pending)
                return pmu_errf(err, PMU_E_INPUT, "%s: word %llu: a memory access before any instruction", t->name,
                                (unsigned long long)t->words);
            if (t->pending.nmem < PMU_RINSN_MAX_MEM) {
                pmu_rmem *m = &t->pending.mem[t->pending.nmem++];
                m->addr = (uint64_t)hi << 32 | lo;
                m->store = (uint8_t)(w >> 2 & 1u);
                m->size = (uint8_t)(1u << (w >> 3 & 0xfu));
            }
            break;
        }
        case PMU_RT_EXEC: {
            const uint32_t id = w >> 2;
            if (id >= t->ndefs)
                return pmu_errf(err, PMU_E_INPUT, "%s: word %llu: executes instruction %u, defined: %u", t->name,
                                (unsigned long long)t->words, id, t->ndefs);
            const rt_def *d = &t->defs[id];
            const int had = t->have_pending;
            if (had) {
                t->pending.next_pc = d->vaddr;
                *out = t->pending;
            }
            pmu_rinsn *p = &t->pending;
            p->pc = d->vaddr;
            p->next_pc = d->vaddr + d->size;
            p->size = d->size;
            memcpy(p->bytes, d->bytes, sizeof p->bytes);
            p->nmem = 0;
            p->pid = t->pid;
            p->user = 1;
            t->have_pending = 1;
            t->exec_count++;
            if (had)
                return 1;
            break;
        }
        case PMU_RT_CTRL: {
            const unsigned what = w >> 2 & 0xffu;
            if (what == PMU_RT_THREADS)
                return pmu_errf(err, PMU_E_UNSUPPORTED, "%s: the program started a second thread after %llu "
                                "instructions: a recording follows one thread", t->name,
                                (unsigned long long)t->exec_count);
            if (what == PMU_RT_MAP) {
                if (map(t, err))
                    return -1;
                break;
            }
            if (what != PMU_RT_END)
                return pmu_errf(err, PMU_E_INPUT, "%s: word %llu: unknown control word %u", t->name,
                                (unsigned long long)t->words, what);
            uint32_t lo, hi;
            if (need(t, &lo, "the END word", err) || need(t, &hi, "the END word", err))
                return -1;
            t->qemu_count = (uint64_t)hi << 32 | lo;
            t->ended = 1;
            if (t->have_pending) {
                *out = t->pending; /* the last instruction: next_pc stays pc + size */
                t->have_pending = 0;
                return 1;
            }
            return 0;
        }
        }
    }
}

uint64_t pmu_rtrace_qemu_count(const pmu_rtrace *t) { return t->qemu_count; }
uint64_t pmu_rtrace_exec_count(const pmu_rtrace *t) { return t->exec_count; }
uint32_t pmu_rtrace_pid(const pmu_rtrace *t) { return t->pid; }

void pmu_rtrace_close(pmu_rtrace *t)
{
    if (!t)
        return;
    for (unsigned i = 0; i < t->nmaps; i++)
        free(t->maps[i].path);
    free(t->maps);
    free(t->defs);
    free(t);
}
