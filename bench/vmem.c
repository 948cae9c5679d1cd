/*
 * vmem - packs register writes and a stream's cycle records into a $readmemh file
 * for the Icarus benchmark testbench (bench/tb_icarus.sv), one 1152-bit line per
 * clock.  Line layout, LSB first (the testbench unpacks the same positions):
 *   [0]        kind: 0 = register write, 1 = cycle record
 *   write:     [12:1] addr, [76:13] data
 *   record:    [2:1] cpl, [3] is, [5:4] power, [7:6] intr, [8] up_we, [9] up,
 *              [10] pp_we, [11] pp, [14:12] recirc, [17:15] nslots,
 *              slot k: ip [18+64k], idx [402+2k], enc [414+41k], unit [660+2k],
 *                      flags [672+16k], daddr [768+64k]
 *
 *   vmem --stream FILE --cycles N [--write ADDR=VALUE]... -o OUT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_stream.h"

#define LINE_BITS 1152

typedef struct { uint8_t bit[LINE_BITS]; } line_t;

static void put(line_t *l, unsigned pos, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++)
        l->bit[pos + i] = (uint8_t)((v >> i) & 1u);
}

static void emit(FILE *f, const line_t *l)
{
    for (int d = LINE_BITS / 4 - 1; d >= 0; d--) {
        unsigned nib = 0;
        for (int b = 3; b >= 0; b--)
            nib = (nib << 1) | l->bit[d * 4 + b];
        fputc("0123456789abcdef"[nib], f);
    }
    fputc('\n', f);
}

static int usage(const char *msg)
{
    fprintf(stderr, "vmem: %s\nusage: vmem --stream FILE --cycles N [--write ADDR=VALUE]... -o OUT\n", msg);
    return 2;
}

int main(int argc, char **argv)
{
    const char *stream = NULL, *out = NULL;
    unsigned long long cycles = 0;
    line_t writes[64];
    unsigned nwrites = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--stream") && v) stream = argv[++i];
        else if (!strcmp(a, "-o") && v) out = argv[++i];
        else if (!strcmp(a, "--cycles") && v) {
            char *end;
            errno = 0;
            cycles = strtoull(argv[++i], &end, 0);
            if (errno || *end || cycles == 0) return usage("--cycles: expected a positive number");
        } else if (!strcmp(a, "--write") && v) {
            char *end;
            unsigned long addr = strtoul(argv[++i], &end, 0);
            if (*end != '=' || addr >= (1u << 12)) return usage("--write: expected ADDR=VALUE, ADDR < 0x1000");
            unsigned long long val = strtoull(end + 1, &end, 0);
            if (*end) return usage("--write: VALUE is not a number");
            if (nwrites == 64) return usage("--write: at most 64 writes");
            line_t *l = &writes[nwrites++];
            memset(l, 0, sizeof *l);
            put(l, 1, 12, addr);
            put(l, 13, 64, val);
        } else
            return usage("unknown or incomplete argument");
    }
    if (!stream || !out || !cycles) return usage("--stream, --cycles and -o are required");

    pmu_err err;
    pmu_stream_reader *r = pmu_stream_open(stream, &err);
    if (!r) { fprintf(stderr, "vmem: %s\n", err.msg); return 1; }
    FILE *f = fopen(out, "w");
    if (!f) { fprintf(stderr, "vmem: %s: %s\n", out, strerror(errno)); return 1; }
    for (unsigned i = 0; i < nwrites; i++) emit(f, &writes[i]);
    pmu_cycle c;
    unsigned long long n = 0;
    int rc;
    while (n < cycles && (rc = pmu_stream_next(r, &c, &err)) == 1) {
        line_t l;
        memset(&l, 0, sizeof l);
        put(&l, 0, 1, 1);
        put(&l, 1, 2, c.cpl);
        put(&l, 3, 1, c.is);
        put(&l, 4, 2, c.power);
        put(&l, 6, 2, c.intr);
        put(&l, 8, 1, c.up_we);
        put(&l, 9, 1, c.up);
        put(&l, 10, 1, c.pp_we);
        put(&l, 11, 1, c.pp);
        put(&l, 12, 3, c.recirc);
        put(&l, 15, 3, c.nslots);
        for (unsigned k = 0; k < c.nslots; k++) {
            const pmu_slot *s = &c.slot[k];
            put(&l, 18 + 64 * k, 64, s->ip);
            put(&l, 402 + 2 * k, 2, s->slot);
            put(&l, 414 + 41 * k, 41, s->enc);
            put(&l, 660 + 2 * k, 2, s->unit);
            put(&l, 672 + 16 * k, 16, s->flags);
            put(&l, 768 + 64 * k, 64, s->daddr);
        }
        emit(f, &l);
        n++;
    }
    if (rc < 0) { fprintf(stderr, "vmem: %s\n", err.msg); fclose(f); return 1; }
    pmu_stream_close(r);
    fclose(f);
    printf("%llu\n", (unsigned long long)(n + nwrites));
    return 0;
}
