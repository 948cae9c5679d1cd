/*
 * fuzz_event.c - event strings of the event library, "EVENT[:mod...]" (include/sw/ita/ita_evlib.h,
 * ita_evlib_parse_event; docs/ita-event-library.md): a string is accepted as a valid request --
 * an event, a privilege mask 1..15, a threshold below the event's maxincr -- that reads
 * back the same from its canonical spelling, or refused with a library error and a
 * one-line message.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "sw/ita/ita_evlib.h"

static const char *const ism_mod[] = {"", ":ism=both", ":ism=ia32", ":ism=ia64"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *str = fuzz_strdup(data, size); /* an embedded NUL ends the string there */
    ita_evlib_event_spec spec;
    ita_evlib_error err;
    pmu_err_clear(&err);
    ita_evlib_err e = ita_evlib_parse_event(str, &spec, &err);
    if (e != ITA_EVLIB_OK) {
        FUZZ_CHECK(e > ITA_EVLIB_OK && e < ITA_EVLIB_NERRS && err.code == (int)e, "error %d, code %d", (int)e,
                   err.code);
        fuzz_check_err(&err, NULL);
        free(str);
        return 0;
    }
    FUZZ_CHECK(err.code == PMU_OK && err.msg[0] == '\0', "success with the message '%s'", err.msg);
    FUZZ_CHECK(ita_evlib_event_valid(spec.event), "event id %d", spec.event);
    FUZZ_CHECK(spec.plm >= 1 && spec.plm <= ITA_EVLIB_PLM_ALL, "plm %u", spec.plm);
    unsigned maxincr = 0;
    FUZZ_CHECK(ita_evlib_event_maxincr(spec.event, &maxincr, NULL) == ITA_EVLIB_OK && spec.thres < maxincr,
               "threshold %u, maxincr %u", spec.thres, maxincr);
    FUZZ_CHECK(spec.ism >= ITA_EVLIB_ISM_DEFAULT && spec.ism <= ITA_EVLIB_ISM_IA64 && !spec.pm, "ism %d, pm %d",
               (int)spec.ism, (int)spec.pm);

    /* The request spelled out with every modifier reads back the same. */
    char canon[320];
    snprintf(canon, sizeof canon, "%s:plm=%u:thres=%u%s", ita_evlib_event_name(spec.event), spec.plm,
             spec.thres, ism_mod[spec.ism]);
    ita_evlib_event_spec back;
    e = ita_evlib_parse_event(canon, &back, &err);
    FUZZ_CHECK(e == ITA_EVLIB_OK, "'%s' (from '%s') does not read back: %s", canon, str, err.msg);
    FUZZ_CHECK(back.event == spec.event && back.plm == spec.plm && back.thres == spec.thres &&
                   back.ism == spec.ism && back.pm == spec.pm,
               "'%s' reads back another request than '%s'", canon, str);
    free(str);
    return 0;
}
