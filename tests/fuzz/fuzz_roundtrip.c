/*
 * fuzz_roundtrip.c - text to binary and back (what `pmusim conv` does both ways): every
 * record a text stream gives, with each dialect, written after the records before it in the
 * binary form and in the text form, reads back equal, with its repeat count
 * (tests/fuzz/fuzz_stream.h, fuzz_codec_check).
 */
#include "fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size && data[0] == 0x89) /* a binary stream: fuzz_stream_binary round-trips those */
        return 0;
    fuzz_read_all(data, size, "fuzz.txt", PMU_STREAM_TEXT, 1);
    return 0;
}
