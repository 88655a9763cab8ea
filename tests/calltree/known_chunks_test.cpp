// The table of chunk tags the native reader knows (kKnownChunks): every row is documented, its
// kind matches its tag's case, and the reader and writer treat it as its row says.

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bn/calltree/profile_format.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::stream_bytes;

namespace {

std::string read_doc(const std::string& name) {
  std::ifstream in(std::string(BN_SOURCE_DIR) + "/docs/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("every known chunk has its own tag and id, and a tag that reads back to its row") {
  std::set<std::string_view> tags;
  std::set<ChunkId> ids;
  for (const KnownChunk& c : kKnownChunks) {
    CAPTURE(c.tag.view());
    CHECK(tags.insert(c.tag.view()).second);
    CHECK(ids.insert(c.id).second);
    CHECK(find_known_chunk(c.tag) == &c);
    CHECK(chunk_tag(c.id) == c.tag);
    CHECK_FALSE(c.holds.empty());
  }
  CHECK(find_known_chunk(ChunkTag("xtra")) == nullptr);
}

TEST_CASE("the tree's chunks are critical and the per-sample records ancillary") {
  // An old reader must refuse a chunk that changes the tree, and may skip the records.
  for (const KnownChunk& c : kKnownChunks) {
    CAPTURE(c.tag.view());
    CHECK(c.tag.critical() == (c.reader == ChunkReader::tree));
  }
}

TEST_CASE("docs/profile-format.md names every known chunk, and gives each of the tree's a section") {
  const std::string doc = read_doc("profile-format.md");
  for (const KnownChunk& c : kKnownChunks) {
    const std::string quoted = "`" + std::string(c.tag.view()) + "`";
    CAPTURE(quoted);
    CHECK(doc.find(quoted) != std::string::npos);
    if (c.reader == ChunkReader::tree) CHECK(doc.find("\n### " + quoted) != std::string::npos);
  }
  const std::string recorder = read_doc("recorder.md");
  for (const KnownChunk& c : kKnownChunks)
    if (c.reader == ChunkReader::sample_records) {
      CAPTURE(c.tag.view());
      CHECK(recorder.find("- `" + std::string(c.tag.view()) + "`:") != std::string::npos);
    }
}

TEST_CASE("write_chunk refuses the tree's chunks and writes the records, which the reader keeps for later") {
  std::vector<ChunkTag> records;
  for (const KnownChunk& c : kKnownChunks) {
    CAPTURE(c.tag.view());
    if (c.reader == ChunkReader::tree) {
      CHECK_THROWS_WITH(stream_bytes([&](ProfileStreamWriter& w) { w.write_chunk(c.tag, {}); }),
                        doctest::Contains("is written by its own ProfileStreamWriter method"));
    } else {
      records.push_back(c.tag);
    }
  }
  const auto bytes = stream_bytes([&](ProfileStreamWriter& w) {
    for (ChunkTag tag : records) w.write_chunk(tag, {});
    w.finish();
  });
  const LoadedProfile p = read_profile_bytes(bytes, "records");
  REQUIRE(p.extra_chunks.size() == records.size());
  for (std::size_t i = 0; i < records.size(); ++i) CHECK(p.extra_chunks[i].first == records[i]);
}
