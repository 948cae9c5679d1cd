/*
 * container.c - the header of a binary stream (docs/streams.md, "The binary header"): magic,
 * format version, cycle count and the name of the record dialect, so that a reader
 * refuses a stream of another family's records before decoding any of them.
 */
#include <string.h>

#include "common/pmu_num.h"
#include "stream_internal.h"

void bin_put_u64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t bin_get_u64le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int bin_dialect_check(const pmu_dialect *d, pmu_err *err)
{
    if (!d || !d->name || strlen(d->name) > PMU_DIALECT_NAME_MAX)
        return stream_errf(err, PMU_E_INTERNAL, NULL,
                           "no record dialect, or its name is longer than %d bytes",
                           PMU_DIALECT_NAME_MAX);
    return 0;
}

void bin_header(const pmu_dialect *d, uint8_t h[BIN_HEADER_LEN])
{
    memset(h, 0, BIN_HEADER_LEN);
    memcpy(h, BIN_MAGIC, BIN_MAGIC_LEN);
    bin_put_u64le(h + BIN_VERSION_OFFSET, BIN_VERSION); /* the version, then reserved 0 */
    bin_put_u64le(h + BIN_COUNT_OFFSET, 0);
    size_t n = strlen(d->name);
    memcpy(h + BIN_DIALECT_OFFSET, d->name, n < PMU_DIALECT_NAME_MAX ? n : PMU_DIALECT_NAME_MAX);
}

int bin_header_check(const pmu_dialect *d, const uint8_t h[BIN_HEADER_LEN], const char *name,
                     uint64_t *count, pmu_err *err)
{
    if (memcmp(h, BIN_MAGIC, BIN_MAGIC_LEN) != 0)
        return stream_errf(err, PMU_E_INPUT, name,
                           "field 'magic': bad magic, not a pmusim binary stream (expected the "
                           "bytes 89 50 4d 55 43 59 43 0a)");
    uint32_t version = (uint32_t)(bin_get_u64le(h + BIN_VERSION_OFFSET) & 0xffffffffu);
    uint32_t reserved = (uint32_t)(bin_get_u64le(h + BIN_VERSION_OFFSET) >> 32);
    if (version == 1)
        return stream_errf(err, PMU_E_INPUT, name,
                           "field 'version': format version 1, expected %u (a version 1 "
                           "stream does not name its record dialect: generate it again)",
                           BIN_VERSION);
    if (version != BIN_VERSION)
        return stream_errf(err, PMU_E_INPUT, name,
                           "field 'version': format version %u, expected %u",
                           version, BIN_VERSION);
    if (reserved != 0)
        return stream_errf(err, PMU_E_INPUT, name, "field 'reserved': 0x%x, expected 0", reserved);
    const char *dialect = (const char *)h + BIN_DIALECT_OFFSET;
    size_t n = 0;
    while (n < PMU_DIALECT_NAME_MAX && dialect[n])
        n++;
    size_t want = strlen(d->name);
    int padded = 1;
    for (size_t i = n; i < PMU_DIALECT_NAME_MAX; i++)
        padded &= dialect[i] == 0;
    if (n != want || memcmp(dialect, d->name, n) != 0 || !padded) {
        char shown[4 * PMU_DIALECT_NAME_MAX + 8];
        pmu_escape(dialect, padded ? n : PMU_DIALECT_NAME_MAX, shown, sizeof shown);
        return stream_errf(err, PMU_E_INPUT, name,
                           "field 'dialect': a stream of '%s' records, expected '%s' records "
                           "(each PMU family has records of its own)",
                           shown, d->name);
    }
    *count = bin_get_u64le(h + BIN_COUNT_OFFSET);
    return 0;
}
