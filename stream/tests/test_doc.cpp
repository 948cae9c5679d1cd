// docs/stream-format.md stays true: every ```stream example parses, and the annotated
// binary example is what the writer produces for the text above it.
#include "stream_test_util.h"

#ifndef STREAM_DOC
#error "STREAM_DOC (the path of docs/stream-format.md) is set by stream/stream.mk"
#endif

namespace {

struct Block {
    std::string lang, body, before; // `before`: the text between the previous block and this one
};

std::vector<Block> fenced_blocks(const std::string &doc)
{
    std::vector<Block> out;
    std::istringstream in(doc);
    std::string line, prose;
    Block cur;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            if (!inside) {
                cur = Block();
                cur.lang = line.substr(3);
                cur.before = prose;
                prose.clear();
            } else {
                out.push_back(cur);
            }
            inside = !inside;
            continue;
        }
        (inside ? cur.body : prose) += line + "\n";
    }
    return out;
}

} // namespace

TEST(Doc, StreamExamplesParse)
{
    std::string doc = slurp(STREAM_DOC);
    ASSERT_FALSE(doc.empty()) << "cannot read " << STREAM_DOC;
    int examples = 0;
    for (const Block &b : fenced_blocks(doc)) {
        if (b.lang != "stream")
            continue;
        examples++;
        ReadResult r = read_mem(b.body, "doc example");
        EXPECT_EQ(r.rc, 0) << r.err << "\n" << b.body;
        EXPECT_FALSE(r.recs.empty()) << b.body;
    }
    EXPECT_GE(examples, 4);
}

TEST(Doc, BinaryExampleMatchesTheWriter)
{
    std::vector<Block> blocks = fenced_blocks(slurp(STREAM_DOC));
    for (size_t i = 1; i < blocks.size(); i++) {
        if (blocks[i].before.find("in binary:") == std::string::npos)
            continue;
        ASSERT_EQ(blocks[i - 1].lang, "stream");
        // the bytes: leading two-digit hex tokens of each line
        std::string documented;
        std::istringstream lines(blocks[i].body);
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream toks(line);
            std::string t;
            while (toks >> t && t.size() == 2 && isxdigit((unsigned char)t[0]) &&
                   isxdigit((unsigned char)t[1]))
                documented.push_back((char)std::stoi(t, nullptr, 16));
        }
        ReadResult r = read_mem(blocks[i - 1].body, "doc example");
        ASSERT_EQ(r.rc, 0) << r.err;
        std::string path = scratch("doc.bin");
        write_stream(path, PMU_STREAM_BINARY, r.recs);
        std::string actual = slurp(path);
        remove(path.c_str());
        EXPECT_EQ(actual.size(), documented.size());
        EXPECT_TRUE(actual == documented) << "the documented bytes differ from the writer's";
        return;
    }
    FAIL() << "no binary example found";
}
