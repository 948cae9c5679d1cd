/*
 * json.c - the members the --json outputs of run, count and profile share (docs/json.md):
 * what ran (family, model, backend, where the records came from), the verdicts (exact
 * totals, lock-step) and a lock-step mismatch.  Strings go through pmu_json_string
 * (common/pmu_text.h), the one JSON string writer; 64-bit register values are "0x..."
 * strings (a JSON number loses bits above 2^53 in most readers), counts are numbers.
 */
#include <inttypes.h>

#include "cli/pmu_cli.h"
#include "common/pmu_text.h"
#include "harness/pmu_cosim.h"

void pmu_cli_json_target(FILE *f, const pmu_family *fam, const pmu_backend *b, const pmu_cli_records *r)
{
    fputs("\"family\": ", f);
    pmu_json_string(f, fam->name);
    fputs(", \"model\": ", f);
    pmu_json_string(f, fam->models[b->model].name);
    fputs(", \"backend\": ", f);
    pmu_json_string(f, b->name);
    fputs(",\n  \"source\": ", f);
    if (r->stream) {
        fputs("{\"stream\": ", f);
        pmu_json_string(f, r->stream);
        if (r->cycles_given)
            fprintf(f, ", \"cycles\": %" PRIu64, r->cycles);
        fputc('}', f);
    } else {
        fprintf(f, "{\"generated\": \"%s\", \"seed\": %" PRIu64 ", \"cycles\": %" PRIu64 "}",
                pmu_gen_mode_names[r->mode], r->seed, r->cycles);
    }
}

void pmu_cli_json_verdicts(FILE *f, const pmu_backend *b, uint64_t records, int exact)
{
    /* Only a backend that keeps exact totals (a reference model runs) compares them. */
    fprintf(f, "\"exact\": %s, \"lockstep\": ", pmu_json_verdict(pmu_has_total(b) ? exact : -1));
    if (pmu_is_cosim(b))
        fprintf(f, "{\"cycles\": %" PRIu64 ", \"mismatches\": %" PRIu64 "}", records, pmu_cosim_mismatches(b));
    else
        fputs("null", f);
}

void pmu_cli_json_mismatch(FILE *f, const pmu_cosim_mismatch *m)
{
    static const char *const clocks[] = {"reset", "write", "read", "step"};
    fprintf(f, "{\"cycle\": %" PRIu64 ", \"clock\": \"%s\", \"register\": ", m->cycle, clocks[m->clock & 3]);
    pmu_json_string(f, m->reg);
    fputs(", \"fields\": ", f);
    pmu_json_string(f, m->fields);
    fprintf(f, ", \"expected\": \"0x%016" PRIx64 "\", \"actual\": \"0x%016" PRIx64 "\", \"others\": ", m->expected,
            m->actual);
    pmu_json_string(f, m->others);
    fputs(", \"record\": ", f);
    pmu_json_string(f, m->record);
    fputs(", \"where\": ", f);
    pmu_json_string(f, m->where);
    fputc('}', f);
}
