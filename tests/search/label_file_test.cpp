#include "bn/search/label_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "bn/iface/overlap.h"
#include "fake_profile.h"

namespace fs = std::filesystem;
using bn::search::testing::FakeProfile;

namespace {

fs::path temp_file(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("bn_repl_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("labels saved as call sequences read back with their label names and their view") {
  FakeProfile p(bn::search::testing::figure2());
  bn::search::LabelSet labels;
  std::vector<std::string_view> cd{"c", "d"};
  labels.add("hot", *p.path_summary(cd));
  labels.add("hot", *p.method_summary("e"));
  labels.add("root", *p.method_summary("a"));
  const fs::path file = temp_file("labels.txt");
  bn::search::save_labels(file, p, labels, "thread Sender");
  const auto read = bn::search::read_label_file(file);
  CHECK(read.view == "thread Sender");
  const auto& saved = read.labels;
  REQUIRE(saved.size() == 3);
  CHECK(saved[0].label == "hot");
  CHECK(saved[0].calls == std::vector<std::string>{"c", "d"});
  CHECK(saved[1].calls == std::vector<std::string>{"e"});
  CHECK(saved[2].label == "root");
  // The write was atomic: no temporary file is left beside it.
  CHECK(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator()) == 1);
  fs::remove_all(file.parent_path());
}

TEST_CASE("names a line cannot hold as they are round-trip through save and load exactly") {
  // Adversarial names: a newline once saved as two methods, an empty or space-led name
  // saved and then failed to load. Random call sequences and labels over an alphabet of what a
  // line or the quoting could trip on.
  const std::string alphabet[] = {"a", "b", " ", "\t", "\n", "\r", "\"", "\\", "\x1b", "\x7f", "#", "\xc3\xa9", "x"};
  std::mt19937 random(19);
  auto any_name = [&](std::size_t max_length) {
    std::string name;
    for (std::size_t n = random() % (max_length + 1); n > 0; --n) name += alphabet[random() % std::size(alphabet)];
    return name;
  };
  for (int round = 0; round < 200; ++round) {
    std::vector<std::pair<std::string, bn::iface::Amount>> stacks;
    for (int i = 0; i < 4; ++i) {
      std::string stack;
      for (std::size_t depth = 1 + random() % 4; depth > 0; --depth) stack += any_name(5) + (depth > 1 ? ";" : "");
      stacks.emplace_back(stack, 1 + static_cast<bn::iface::Amount>(random() % 9));
    }
    FakeProfile p(stacks);
    bn::search::LabelSet labels;
    for (const auto& [stack, cost] : stacks) {
      std::vector<std::string> frames;
      std::string frame;
      for (const char c : stack + ";") {
        if (c != ';') {
          frame += c;
          continue;
        }
        frames.push_back(frame);
        frame.clear();
      }
      const std::vector<std::string_view> path(frames.begin(), frames.end());
      std::string label = any_name(4);
      if (label.empty()) label = "l";
      labels.add(label, *p.path_summary(path));
    }
    const std::string view = "thread " + any_name(3);
    const fs::path file = temp_file("adversarial.labels");
    bn::search::save_labels(file, p, labels, view);
    const bn::search::LabelFile read = bn::search::read_label_file(file);
    CHECK(read.view == view);
    const std::vector<bn::search::SavedLabel> expected = bn::search::saved_labels(p, labels);
    REQUIRE(read.labels.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(read.labels[i].label == expected[i].label);
      CHECK(read.labels[i].calls == expected[i].calls);
      // And each call sequence finds the summary it was saved from.
      const std::vector<std::string_view> calls(read.labels[i].calls.begin(), read.labels[i].calls.end());
      CHECK(p.path_summary(calls).has_value());
    }
    fs::remove_all(file.parent_path());
  }
}

TEST_CASE("version 1 label files load with their names as written; a newer version is refused") {
  const fs::path file = temp_file("v1.labels");
  // Version 1 had no quoting: a quote or backslash is part of the name.
  write(file, "# bottlenecks labels v1\nlabel \"q\"\n  \"a\\n\"\n  b\\c\n");
  const bn::search::LabelFile read = bn::search::read_label_file(file);
  REQUIRE(read.labels.size() == 1);
  CHECK(read.labels[0].label == "\"q\"");
  CHECK(read.labels[0].calls == std::vector<std::string>{"\"a\\n\"", "b\\c"});
  // Version 2 reads the same text as quoted names.
  write(file, "# bottlenecks labels v2\nlabel \"q\"\n  \"a\\n\"\n  b\\c\n");
  const bn::search::LabelFile v2 = bn::search::read_label_file(file);
  CHECK(v2.labels[0].label == "q");
  CHECK(v2.labels[0].calls == std::vector<std::string>{"a\n", "b\\c"});
  write(file, "# bottlenecks labels v2\nlabel x\n  \"a\\q\"\n");
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(file), doctest::Contains(":3: unknown escape \\q in a quoted name"),
                       bn::Error);
  write(file, "# bottlenecks labels v2\nlabel x\n  \"abc\n");
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(file),
                       doctest::Contains(":3: a quoted name without its closing quote"), bn::Error);
  write(file, "# bottlenecks labels v3\nlabel x\n  a\n");
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(file),
                       doctest::Contains(":1: label file version 3; this bottlenecks reads versions 1 and 2"),
                       bn::Error);
  fs::remove_all(file.parent_path());
}

TEST_CASE("a label file without a view line was saved from the tree view") {
  const fs::path file = temp_file("old.txt");
  write(file, "# bottlenecks labels v1\nlabel x\n  a\n");
  CHECK(bn::search::read_label_file(file).view == "tree");
  fs::remove_all(file.parent_path());
}

TEST_CASE("save follows no symlink planted at a temporary name beside the label file") {
  FakeProfile p(bn::search::testing::figure2());
  bn::search::LabelSet labels;
  labels.add("root", *p.method_summary("a"));
  const fs::path file = temp_file("planted.txt");
  const fs::path victim = temp_file("victim.txt");
  write(victim, "precious");
  // The names a predictable writer would use: FILE.tmp.PID, and numbered ones after it.
  const std::string stem = file.string() + ".tmp." + std::to_string(::getpid());
  fs::create_symlink(victim, stem);
  for (int n = 0; n < 90; ++n) fs::create_symlink(victim, stem + "." + std::to_string(n));
  bn::search::save_labels(file, p, labels, "tree");
  std::ifstream in(victim);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "precious");
  CHECK(bn::search::read_label_file(file).labels.size() == 1);
  fs::remove_all(file.parent_path());
}

TEST_CASE("a malformed label file is refused naming file and line") {
  const fs::path file = temp_file("bad.txt");
  write(file, "# comment\nlabel x\n  a\nnonsense\n");
  CHECK_THROWS_WITH_AS(
      bn::search::read_label_file(file),
      (file.string() + ":4: expected `view NAME`, `aspect NAME = PATTERN`, `label NAME` or an indented method name")
          .c_str(),
      bn::Error);
  write(file, "  a\n");
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(file),
                       (file.string() + ":1: method line before the first `label NAME` line").c_str(), bn::Error);
  write(file, "label x\n  a\nview server\n");
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(file),
                       (file.string() + ":3: a `view NAME` line must come once, before the first label").c_str(),
                       bn::Error);
  write(file, "label x\nlabel y\n  a\n");
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(file),
                       (file.string() + ":2: label 'x' has no call sequence").c_str(), bn::Error);
  fs::remove_all(file.parent_path());
}

TEST_CASE("saving into a missing directory fails with one line and leaves nothing behind") {
  FakeProfile p(bn::search::testing::figure2());
  bn::search::LabelSet labels;
  CHECK_THROWS_AS(bn::search::save_labels("/nonexistent-dir/x/labels.txt", p, labels, "tree"), bn::Error);
}

TEST_CASE("loading labels from a FIFO or a directory is refused at once, not waited on") {
  const fs::path fifo = temp_file("labels.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(
      bn::search::read_label_file(fifo),
      ("cannot read labels from '" + fifo.string() + "': not a regular file of at most 64 MiB").c_str(), bn::Error);
  CHECK_THROWS_WITH_AS(bn::search::read_label_file(fifo.parent_path()), doctest::Contains("not a regular file"),
                       bn::Error);
  fs::remove_all(fifo.parent_path());
}
