/*
 * vmem - writes the input of the Icarus benchmark testbench (verilator/bench/tb_icarus.sv): a
 * $readmemh file with one line per clock, first the register writes that
 * `pmusim run --config FILE` makes before the first record, then the first N cycle
 * records of a stream.
 *
 *   vmem [--config FILE] --stream FILE --records N -o OUT
 *
 * The register writes are not re-derived here: the configuration is parsed and applied
 * by the same code pmusim uses (verilator/cli/ita/config_*.c), through a backend that records
 * every write, so Icarus starts from exactly the state the Verilated RTL starts from.
 *
 * Line layout, bit 0 first; each field starts where the previous one ends.  The
 * testbench declares the same layout (localparams V_*), and the benchmark's
 * cross-check of the final counters fails if the two ever disagree.
 *   kind   1   0 = register write, 1 = cycle record
 *   write:  addr ITA_ADDR_BITS, data 64
 *   record: cpl 2, is 1, power 2, intr 2, up_we 1, up 1, pp_we 1, pp 1, recirc 3,
 *           nslots 3, then per field all ITA_MAX_SLOTS slots (slot k at k*width):
 *           ip 64, idx 2, enc 41, unit 2, flags ITA_SF_WIDTH, daddr 64
 * These are the port widths of rtl/ita/ita_pmu.sv.
 *
 * On success prints "OUT: writes=W records=N lines=W+N" (the benchmark reads it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ita/ita_config.h"
#include "csim/ita/ita_ref.h"
#include "harness/ita/ita_family.h"
#include "common/pmu_num.h"
#include "cli/pmu_outfile.h"
#include "stream/pmu_stream.h"

enum {
    V_KIND = 0,
    V_W_ADDR = V_KIND + 1,
    V_W_DATA = V_W_ADDR + ITA_ADDR_BITS,
    V_CPL = V_KIND + 1,
    V_IS = V_CPL + 2,
    V_POWER = V_IS + 1,
    V_INTR = V_POWER + 2,
    V_UP_WE = V_INTR + 2,
    V_UP = V_UP_WE + 1,
    V_PP_WE = V_UP + 1,
    V_PP = V_PP_WE + 1,
    V_RECIRC = V_PP + 1,
    V_NSLOTS = V_RECIRC + 3,
    V_IP = V_NSLOTS + 3,
    V_IDX = V_IP + 64 * ITA_MAX_SLOTS,
    V_ENC = V_IDX + 2 * ITA_MAX_SLOTS,
    V_UNIT = V_ENC + 41 * ITA_MAX_SLOTS,
    V_FLAGS = V_UNIT + 2 * ITA_MAX_SLOTS,
    V_DADDR = V_FLAGS + ITA_SF_WIDTH * ITA_MAX_SLOTS,
    V_BITS = V_DADDR + 64 * ITA_MAX_SLOTS
};
#define LINE_WORDS ((V_BITS + 63) / 64)
#define LINE_DIGITS ((V_BITS + 3) / 4)

typedef struct line {
    uint64_t w[LINE_WORDS];
} line;

typedef struct packer {
    const char *where; /* record being packed, for messages */
    pmu_err *err;
    int bad;           /* a value did not fit its field */
} packer;

/* Stores v in bits [pos, pos+width) of l; a value wider than its field is an error
 * (the stream reader validates records, so this catches a layout that is too narrow). */
static void put(packer *p, line *l, unsigned pos, unsigned width, uint64_t v, const char *field)
{
    if (width < 64 && (v >> width) != 0) {
        if (!p->bad)
            snprintf(p->err->msg, sizeof p->err->msg,
                     "%s: %s: expected a value of at most %u bits, found 0x%" PRIx64, p->where,
                     field, width, v);
        p->bad = 1;
        return;
    }
    for (unsigned i = 0; i < width; i++, pos++)
        if ((v >> i) & 1u)
            l->w[pos / 64] |= UINT64_C(1) << (pos % 64);
}

static int emit(FILE *f, const line *l)
{
    char text[LINE_DIGITS + 1];
    for (unsigned d = 0; d < LINE_DIGITS; d++) {
        unsigned pos = 4 * d;
        unsigned nib = (unsigned)(l->w[pos / 64] >> (pos % 64)) & 0xfu;
        text[LINE_DIGITS - 1 - d] = "0123456789abcdef"[nib];
    }
    text[LINE_DIGITS] = '\n';
    return fwrite(text, 1, sizeof text, f) == sizeof text ? 0 : -1;
}

/* ---- a backend that records the register writes made through it --------------------- */

#define MAX_WRITES 64

typedef struct recorder {
    pmu_backend base;
    pmu_backend *inner; /* the reference model: reads see what was written */
    unsigned nwrites;
    int overflowed;
    uint16_t addr[MAX_WRITES];
    uint64_t value[MAX_WRITES];
} recorder;

static recorder *as_recorder(pmu_backend *b) { return (recorder *)b; }

static void rec_reset(pmu_backend *b)
{
    recorder *r = as_recorder(b);
    pmu_reset(r->inner);
    r->nwrites = 0;
}

static void rec_write(pmu_backend *b, uint16_t addr, uint64_t value)
{
    recorder *r = as_recorder(b);
    if (r->nwrites == MAX_WRITES) {
        r->overflowed = 1;
        return;
    }
    r->addr[r->nwrites] = addr;
    r->value[r->nwrites] = value;
    r->nwrites++;
    pmu_write(r->inner, addr, value);
}

static uint64_t rec_read(pmu_backend *b, uint16_t addr) { return pmu_read(as_recorder(b)->inner, addr); }

static void rec_step(pmu_backend *b, const void *c)
{
    pmu_step(as_recorder(b)->inner, c);
    b->cycle++;
}

static void rec_snapshot(pmu_backend *b, pmu_state *s) { pmu_snapshot(as_recorder(b)->inner, s); }

static void rec_destroy(pmu_backend *b)
{
    pmu_destroy(as_recorder(b)->inner);
    free(b);
}

static const pmu_backend_ops recorder_ops = {
    .reset = rec_reset,
    .write = rec_write,
    .read = rec_read,
    .step = rec_step,
    .snapshot = rec_snapshot,
    .destroy = rec_destroy,
};

/* ---- main ------------------------------------------------------------------------------ */

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "vmem: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: vmem [--config FILE] --stream FILE --records N -o OUT\n");
    return 2;
}

static int pack_record(packer *p, line *l, const ita_cycle *c)
{
    memset(l, 0, sizeof *l);
    put(p, l, V_KIND, 1, 1, "kind");
    put(p, l, V_CPL, 2, c->cpl, "cpl");
    put(p, l, V_IS, 1, c->is, "is");
    put(p, l, V_POWER, 2, c->power, "power");
    put(p, l, V_INTR, 2, c->intr, "intr");
    put(p, l, V_UP_WE, 1, c->up_we, "up_we");
    put(p, l, V_UP, 1, c->up, "up");
    put(p, l, V_PP_WE, 1, c->pp_we, "pp_we");
    put(p, l, V_PP, 1, c->pp, "pp");
    put(p, l, V_RECIRC, 3, c->recirc, "recirc");
    put(p, l, V_NSLOTS, 3, c->nslots, "nslots");
    for (unsigned k = 0; k < c->nslots && k < ITA_MAX_SLOTS; k++) {
        const ita_slot *s = &c->slot[k];
        put(p, l, V_IP + 64 * k, 64, s->ip, "slot ip");
        put(p, l, V_IDX + 2 * k, 2, s->slot, "slot index");
        put(p, l, V_ENC + 41 * k, 41, s->enc, "slot enc");
        put(p, l, V_UNIT + 2 * k, 2, s->unit, "slot unit");
        put(p, l, V_FLAGS + ITA_SF_WIDTH * k, ITA_SF_WIDTH, s->flags, "slot flags");
        put(p, l, V_DADDR + 64 * k, 64, s->daddr, "slot daddr");
    }
    return p->bad ? -1 : 0;
}

typedef struct vmem_args {
    const char *config, *stream, *out;
    uint64_t records;
} vmem_args;

/* Options; 0, or the exit status after the message. */
static int parse_args(int argc, char **argv, vmem_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (i + 1 >= argc)
            return usage("%s: expected a value after it", opt);
        const char *v = argv[++i];
        if (!strcmp(opt, "--config"))
            a->config = v;
        else if (!strcmp(opt, "--stream"))
            a->stream = v;
        else if (!strcmp(opt, "-o"))
            a->out = v;
        else if (!strcmp(opt, "--records")) {
            pmu_err err;
            if (pmu_parse_u64(v, 1, UINT64_MAX, "--records", &a->records, &err))
                return usage("%s", err.msg);
        } else
            return usage("unknown option '%s'", opt);
    }
    if (!a->stream)
        return usage("%s: missing", "--stream");
    if (!a->records)
        return usage("%s: missing", "--records");
    if (!a->out)
        return usage("%s: missing", "-o");
    return 0;
}

/* The register writes pmusim makes after reset for the configuration, parsed as pmusim
 * parses it; NULL after the message (*status: the exit status). */
static recorder *record_config(const char *config, const char **cfg_name, int *status)
{
    pmu_err err;
    ita_config cfg;
    *cfg_name = config ? config : "<built-in configuration>";
    const char *text = ita_config_default_text(ITA_MODEL_ITANIUM2);
    int rc = config ? ita_config_load(config, ITA_MODEL_ITANIUM2, 0, &cfg, &err)
                    : ita_config_parse(text, strlen(text), *cfg_name, ITA_MODEL_ITANIUM2, 1, &cfg, &err);
    *status = 2;
    if (rc != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    if (cfg.model != ITA_MODEL_ITANIUM2) {
        fprintf(stderr, "%s:%u: model: expected itanium2: the Icarus testbench instantiates the "
                        "Itanium 2 PMU (Model=1)\n", *cfg_name, cfg.model_line);
        return NULL;
    }
    ita_params params = ita_params_default();
    params.model = cfg.model;
    recorder *rec = calloc(1, sizeof *rec);
    if (!rec || !(rec->inner = ita_ref_create(&params))) {
        fprintf(stderr, "vmem: out of memory\n");
        free(rec);
        *status = 1;
        return NULL;
    }
    rec->base.ops = &recorder_ops;
    rec->base.name = "recorder";
    rec->base.model = params.model;
    rec->base.nvis = ITA_NVIS;
    ita_config_apply(&cfg, &rec->base);
    if (rec->overflowed) {
        fprintf(stderr, "%s: the configuration makes more than %d register writes\n", *cfg_name,
                MAX_WRITES);
        pmu_destroy(&rec->base);
        return NULL;
    }
    return rec;
}

/* The register writes, then `records` records of r, one line each, to f.  Returns the
 * exit status (0, 1 a write error, 2 a bad record or a short stream); *n: records. */
static int write_lines(FILE *f, const recorder *rec, const char *cfg_name, pmu_stream_reader *r,
                       const vmem_args *a, uint64_t *n)
{
    pmu_err err;
    int io_error = 0;
    packer p = {"", &err, 0};
    line l;
    for (unsigned i = 0; i < rec->nwrites && !p.bad; i++) {
        memset(&l, 0, sizeof l);
        p.where = cfg_name;
        put(&p, &l, V_W_ADDR, ITA_ADDR_BITS, rec->addr[i], "register address");
        put(&p, &l, V_W_DATA, 64, rec->value[i], "register value");
        io_error |= emit(f, &l);
    }
    ita_cycle c;
    for (*n = 0; !p.bad && !io_error && *n < a->records; (*n)++) {
        int got = pmu_stream_next(r, &c, &err);
        if (got < 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        if (got == 0) {
            fprintf(stderr, "%s: expected at least %" PRIu64 " records (--records), found %" PRIu64 "\n",
                    a->stream, a->records, *n);
            return 2;
        }
        p.where = pmu_stream_where(r);
        if (pack_record(&p, &l, &c) == 0)
            io_error |= emit(f, &l);
    }
    if (p.bad) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    return io_error ? 1 : 0;
}

/* The output goes through include/cli/pmu_outfile.h: written to a temporary file and renamed
 * only when complete, never the stream or the configuration it reads. */
int main(int argc, char **argv)
{
    vmem_args a;
    int status = parse_args(argc, argv, &a);
    if (status)
        return status;
    const char *cfg_name;
    recorder *rec = record_config(a.config, &cfg_name, &status);
    if (!rec)
        return status;
    pmu_err err;
    pmu_files *files = pmu_files_new();
    pmu_stream_reader *r = pmu_stream_open(&ita_dialect, a.stream, &err);
    pmu_outfile *o = NULL;
    FILE *f = NULL;
    uint64_t n = 0;
    status = 2;
    if (!files) {
        fprintf(stderr, "vmem: out of memory\n");
        status = 1;
    } else if (!r) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
        pmu_files_input(files, "--stream", a.stream);
        if (a.config)
            pmu_files_input(files, "--config", a.config);
        if (!(o = pmu_files_output(files, "-o", a.out, 0, &err)))
            fprintf(stderr, "vmem: %s\n", err.msg);
        else if (!(f = fopen(pmu_outfile_path(o), "w"))) {
            fprintf(stderr, "vmem: %s: cannot create: %s\n", a.out, strerror(errno));
            status = 1;
        }
    }
    if (f) {
        status = write_lines(f, rec, cfg_name, r, &a, &n);
        if (fclose(f) != 0 && status == 0)
            status = 1;
        if (status == 1)
            fprintf(stderr, "vmem: %s: write error: %s\n", a.out, strerror(errno));
        if (status == 0 && pmu_files_commit(files, &err)) {
            fprintf(stderr, "vmem: %s\n", err.msg);
            status = 1;
        }
    }
    if (status == 0)
        printf("%s: writes=%u records=%" PRIu64 " lines=%" PRIu64 "\n", a.out, rec->nwrites, n,
               n + rec->nwrites);
    if (r)
        pmu_stream_close(r);
    pmu_files_free(files); /* removes the temporary file of a failed run */
    pmu_destroy(&rec->base);
    return status;
}
