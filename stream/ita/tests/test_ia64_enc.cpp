// The one table of IA-64 instruction classes (include/stream/ita/ia64_enc.h): it is the table of
// docs/ita-stream-format.md ("Encodings"), the generator emits exactly its classes (see
// Doc.EncodingTableMatchesTheWorkload), and its offered classes, seen through the
// matchers' window (stream/ita/opcode_classes.c), are the named classes of
// docs/ita-config-format.md.
#include <set>

#include "stream/ita/ia64_enc.h"
#include "common/pmu_rng.h"
#include "stream/ita/ita_stream_test_util.h"

#ifndef CONFIG_DOC
#error "CONFIG_DOC (the path of docs/ita-config-format.md) is set by stream/stream.mk"
#endif

namespace {

std::string hex(uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// "M I F" from "mif".
std::string doc_units(const char *units)
{
    std::string out;
    for (const char *u = units; *u; u++)
        out += std::string(out.empty() ? "" : " ") + static_cast<char>(toupper(*u));
    return out;
}

} // namespace

TEST(Ia64Classes, TableIsWellFormed)
{
    std::set<std::string> names;
    unsigned offered = 0;
    for (unsigned i = 0; i < IA64_NCLASSES; i++) {
        const ia64_class &c = ia64_classes[i];
        ASSERT_NE(c.name, nullptr) << i;
        EXPECT_TRUE(names.insert(c.name).second) << "two classes named " << c.name;
        EXPECT_EQ(c.enc & ~c.care, 0u) << c.name << ": fixed bits outside its care mask";
        EXPECT_EQ(c.care & ~IA64_ENC_ALL, 0u) << c.name;
        EXPECT_NE(ia64_class_units(&c), 0u) << c.name;
        EXPECT_EQ(std::string(c.units).find_first_not_of("mifb"), std::string::npos) << c.name;
        offered += c.offered;
    }
    EXPECT_EQ(ita_opcode_nclasses, offered);
    EXPECT_EQ(ia64_class_units(&ia64_classes[IA64_CLASS_ALU]), 1u << ITA_UNIT_M | 1u << ITA_UNIT_I);
    EXPECT_EQ(ia64_class_units(&ia64_classes[IA64_CLASS_BR_RET]), 1u << ITA_UNIT_B);
}

// Every class that retires is a row of the Encodings table (MATCH/CARE and units), and
// every row a class; the system call, which does not retire, is in the text below it.
TEST(Ia64Classes, AreTheDocumentedEncodings)
{
    const std::string doc = slurp(STREAM_DOC);
    const size_t from = doc.find("### Encodings"), to = doc.find("### Hot edges");
    ASSERT_NE(from, std::string::npos);
    const std::string table = doc.substr(from, to - from);
    for (unsigned i = 0; i < IA64_NCLASSES; i++) {
        const ia64_class &c = ia64_classes[i];
        if (i == IA64_CLASS_BREAK_I) {
            EXPECT_NE(table.find("`break.i 0x100000` (`" + hex(c.enc) + "`"), std::string::npos);
            continue;
        }
        const std::string cell = "| " + doc_units(c.units) + " | `" + hex(c.enc) + "/" + hex(c.care) + "` |";
        EXPECT_NE(table.find(cell), std::string::npos) << c.name << ": no row with " << cell;
    }
    size_t rows = 0;
    std::istringstream lines(table);
    std::string line;
    while (std::getline(lines, line))
        rows += line.rfind("| ", 0) == 0 && line.find(" | `0x") != std::string::npos;
    EXPECT_EQ(rows, static_cast<size_t>(IA64_NCLASSES - 1));
}

// The configuration reader's view: the offered classes in order, care cut to the window,
// and each one the row docs/ita-config-format.md shows for it.
TEST(Ia64Classes, ConfigurationViewIsTheDocumentedTable)
{
    const std::string doc = slurp(CONFIG_DOC);
    ASSERT_FALSE(doc.empty());
    unsigned k = 0;
    for (unsigned i = 0; i < IA64_NCLASSES; i++) {
        const ia64_class &c = ia64_classes[i];
        if (!c.offered)
            continue;
        ASSERT_LT(k, ita_opcode_nclasses);
        const ita_opcode_class &v = ita_opcode_classes[k++];
        EXPECT_STREQ(v.name, c.name);
        EXPECT_STREQ(v.units, c.units);
        EXPECT_STREQ(v.desc, c.desc);
        EXPECT_EQ(v.enc, c.enc);
        EXPECT_EQ(v.care, c.care & IA64_WINDOW);
        char row[256];
        snprintf(row, sizeof row, "| `%s` | %s | `0x%x` | `0x%x` | %s |", v.name, v.units,
                 ita_opcode_bits(v.enc), ~ita_opcode_bits(v.care) & 0x7ffffffu, v.desc);
        EXPECT_NE(doc.find(row), std::string::npos) << "not in docs/ita-config-format.md: " << row;
    }
    EXPECT_EQ(k, ita_opcode_nclasses);
}

TEST(Ia64Classes, MatcherWindowBits)
{
    // {enc[40:27], enc[12:0]}: the top bit lands in bit 26, bit 12 stays, bits 26:13 vanish
    EXPECT_EQ(ia64_window_bits(1ull << 40), 1u << 26);
    EXPECT_EQ(ia64_window_bits(1ull << 27), 1u << 13);
    EXPECT_EQ(ia64_window_bits(0x1fffull), 0x1fffu);
    EXPECT_EQ(ia64_window_bits(IA64_BITS(26, 13)), 0u);
    EXPECT_EQ(ia64_window_bits(IA64_ENC_ALL), 0x7ffffffu);
    pmu_rng r;
    pmu_rng_seed(&r, 5);
    for (int i = 0; i < 10000; i++) {
        uint64_t e = pmu_rng_next(&r) & IA64_ENC_ALL;
        EXPECT_EQ(ia64_window_enc(ia64_window_bits(e)), e & IA64_WINDOW);
        EXPECT_EQ(ita_opcode_bits(e), ia64_window_bits(e));
    }
}
