// The table of profile formats (profile_formats.h), row by row: a row without its docs section,
// its sample files or a round trip fails here, so a format is never half added.

#include "bn/calltree/profile_formats.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_loader.h"
#include "stack_counts.h"
#include "temp_dir.h"

using namespace bn::calltree;
using bn::calltree::testing::StackCounts;
using bn::calltree::testing::stacks_of;

namespace {

const std::filesystem::path kSource = BN_SOURCE_DIR;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> doc_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first cell of every row of the first table after the line that starts with `after`.
std::vector<std::string> first_table_rows(const std::vector<std::string>& lines, std::string_view after) {
  auto it = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.starts_with(after); });
  REQUIRE(it != lines.end());
  it = std::find_if(it, lines.end(), [](const std::string& l) { return l.starts_with("|"); });
  std::vector<std::string> rows;
  for (it += 2; it < lines.end() && it->starts_with("|"); ++it) rows.push_back(it->substr(1, it->find('|', 1) - 1));
  return rows;
}

StackCounts figure2() { return stacks_of(open_profile(kSource / "samples/figure2/figure2.collapsed").loaded.tree); }

}  // namespace

TEST_CASE("the format table: unique names, one fallback, last, that writes") {
  const auto formats = profile_formats();
  REQUIRE(!formats.empty());
  std::set<std::string_view> names;
  for (const ProfileFormat& f : formats) {
    CAPTURE(f.name);
    CHECK(names.insert(f.name).second);
    CHECK(find_profile_format(f.name) == &f);
    CHECK(f.name == lower(f.name));  // --to and `info` spell it so
    CHECK_FALSE(f.title.empty());
    CHECK_FALSE(f.description.empty());
    CHECK(static_cast<bool>(f.read));
    CHECK((f.sniff == nullptr) == (&f == &formats.back()));
    CHECK(static_cast<bool>(f.refuse == nullptr || &f == &formats.back()));  // only the fallback tells a file is none
    for (const FileExtension& e : f.extensions) CHECK(e.suffix.starts_with("."));
  }
  CHECK(static_cast<bool>(formats.back().write));  // an output name no row claims is written as the fallback
  CHECK(find_profile_format("auto") == nullptr);   // --to's word for "by the output's name"
  CHECK(find_profile_format("nonesuch") == nullptr);
}

TEST_CASE("a text file whose first line is no stack is not a profile; one with a bad later line is malformed") {
  const bn::test::TempDir tmp;
  const auto write = [&](const char* name, const char* text) {
    std::ofstream(tmp.path() / name) << text;
    return tmp.path() / name;
  };
  const std::filesystem::path prose = write("notes.txt", "\nhello world\nthis is not a profile\n");
  CHECK_THROWS_WITH_AS(open_profile(prose),
                       ("cannot open profile '" + prose.string() +
                        "': not a profile this tool reads (native, JFR, pprof or collapsed stacks): " + prose.string() +
                        ":2: sample count 'world' is not a non-negative integer")
                           .c_str(),
                       bn::Error);
  const std::filesystem::path bad = write("bad.collapsed", "a;b 3\nhello world\n");
  CHECK_THROWS_WITH_AS(open_profile(bad),
                       (bad.string() + ":2: sample count 'world' is not a non-negative integer").c_str(), bn::Error);
  CHECK(open_profile(write("good.collapsed", "\na;b 3\n")).loaded.tree.total_cost() == 3);
}

TEST_CASE("docs/formats.md lists every format in the order it is tried, with its extensions, and has its section") {
  const auto lines = doc_lines(kSource / "docs/formats.md");
  const auto rows = first_table_rows(lines, "Every command that reads a profile");
  const auto formats = profile_formats();
  REQUIRE(rows.size() == formats.size());
  for (std::size_t i = 0; i < formats.size(); ++i) {
    const ProfileFormat& f = formats[i];
    CAPTURE(f.name);
    CAPTURE(rows[i]);
    CHECK(lower(rows[i]).starts_with(" " + lower(f.title)));
    for (const FileExtension& e : f.extensions)
      CHECK(rows[i].find("`" + std::string(e.suffix) + "`") != std::string::npos);
    CHECK(std::count_if(lines.begin(), lines.end(),
                        [&](const std::string& l) { return lower(l) == "## " + lower(f.title); }) == 1);
  }
}

TEST_CASE("every format has sample files in tests/formats/NAME that open_profile recognises as it, each figure 2") {
  const std::filesystem::path dir = kSource / "tests/formats";
  const StackCounts expected = figure2();
  for (const ProfileFormat& f : profile_formats()) {
    CAPTURE(f.name);
    const std::filesystem::path samples = dir / f.name;
    REQUIRE(std::filesystem::is_directory(samples));
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(samples)) {
      CAPTURE(entry.path());
      const OpenedProfile opened = open_profile(entry.path());
      CHECK(opened.format == &f);
      CHECK(stacks_of(opened.loaded.tree) == expected);
      ++files;
    }
    CHECK(files > 0);
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_directory()) {
      CAPTURE(entry.path());
      CHECK(find_profile_format(entry.path().filename().string()) != nullptr);
    }
}

TEST_CASE("every format that writes writes figure 2 so that it reads back as itself, under each of its names") {
  bn::test::TempDir tmp;
  const CallTree tree = open_profile(kSource / "samples/figure2/figure2.collapsed").loaded.tree;
  const StackCounts expected = stacks_of(tree);
  for (const ProfileFormat& f : profile_formats()) {
    if (f.write == nullptr) continue;
    CAPTURE(f.name);
    std::vector<std::string> names = {"plain"};
    for (const FileExtension& e : f.extensions) names.push_back("figure2" + std::string(e.suffix));
    if (f.compressed_inside.empty()) names.push_back(names.back() + ".gz");
    for (const std::string& name : names) {
      CAPTURE(name);
      const std::filesystem::path path = tmp.path() / (std::string(f.name) + "-" + name);
      if (name != "plain") CHECK(&format_for_output(path) == &f);
      f.write({tree, {}, path, output_compression(f, path), {}});
      const OpenedProfile opened = open_profile(path);
      CHECK(opened.format == &f);
      CHECK(stacks_of(opened.loaded.tree) == expected);
    }
    if (!f.compressed_inside.empty())
      CHECK_THROWS_WITH_AS(output_compression(f, "x.gz"), doctest::Contains("compressed already"), bn::Error);
  }
}

TEST_CASE("a format that keeps a whole recording writes its ancillary chunks after the tree") {
  bn::test::TempDir tmp;
  const CallTree tree = open_profile(kSource / "samples/figure2/figure2.collapsed").loaded.tree;
  const std::vector<AncillaryChunk> chunks = {{ChunkTag("xtra"), {std::byte{7}}}};
  for (const ProfileFormat& f : profile_formats()) {
    if (f.write == nullptr || !f.whole_recording) continue;
    CAPTURE(f.name);
    const std::filesystem::path path = tmp.path() / f.name;
    f.write({tree, chunks, path, Compression::none, {}});
    CHECK(open_profile(path).loaded.extra_chunks == chunks);
  }
}

TEST_CASE("an output name is compressed as it says, a bare extension as its row says, and any other is the fallback") {
  for (const ProfileFormat& f : profile_formats()) {
    CAPTURE(f.name);
    if (f.compressed_inside.empty()) {
      CHECK(output_compression(f, "x.gz") == Compression::gzip);
      CHECK(output_compression(f, "x.zst") == Compression::zstd);
    }
    CHECK(output_compression(f, "x") == Compression::none);
    CHECK(output_compression(f, "-") == Compression::none);
    for (const FileExtension& e : f.extensions) {
      const std::string name = "x" + std::string(e.suffix);
      CHECK(output_compression(f, name) == e.bare);
      for (const ProfileFormat& other : profile_formats())  // each row's own: a .pprof is gzipped as pprof only
        if (std::none_of(other.extensions.begin(), other.extensions.end(),
                         [&](const FileExtension& o) { return o.suffix == e.suffix; }))
          CHECK(output_compression(other, name) == Compression::none);
      if (f.write == nullptr) CHECK(&format_for_output(name) == &profile_formats().back());
    }
  }
  CHECK(&format_for_output("-") == &profile_formats().back());
}
