/*
 * fuzz_stream_text.c - the text form of cycle streams (docs/ita-stream-format.md, "Text form"),
 * read with every dialect: each record valid, or an error naming the file, its line and
 * the field, that the next call repeats (tests/fuzz/fuzz_stream.h).
 */
#include "fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size && data[0] == 0x89) /* the binary form: fuzz_stream_binary's */
        return 0;
    fuzz_read_all(data, size, "fuzz.txt", PMU_STREAM_TEXT, 0);
    return 0;
}
