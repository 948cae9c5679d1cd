/*
 * fuzz_stream_binary.c - the binary form of cycle streams (docs/ita-stream-format.md, "Binary
 * form"): header and records, read with every dialect (the header names one; the others
 * must refuse it by its field).  Each record decoded is valid and comes back equal through
 * the binary and text forms (tests/fuzz/fuzz_stream.h); a bad stream gets an error naming
 * the file, the record and the field.
 */
#include "fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size || data[0] != 0x89) /* the text form: fuzz_stream_text's */
        return 0;
    fuzz_read_all(data, size, "fuzz.bin", PMU_STREAM_BINARY, 1);
    return 0;
}
