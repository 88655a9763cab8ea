#include "bn/repl/label_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "bn/iface/error.h"
#include "bn/iface/overlap.h"
#include "fake_profile.h"

namespace fs = std::filesystem;
using bn::repl::testing::FakeProfile;

namespace {

fs::path temp_file(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("bn_repl_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("labels saved as call sequences read back with their label names and their view") {
  FakeProfile p(bn::repl::testing::figure2());
  bn::repl::LabelSet labels;
  std::vector<std::string_view> cd{"c", "d"};
  labels.add("hot", *bn::iface::summary_for_path(p, cd));
  labels.add("hot", *p.method_summary("e"));
  labels.add("root", *p.method_summary("a"));
  const fs::path file = temp_file("labels.txt");
  bn::repl::save_labels(file, p, labels, "thread Sender");
  const auto read = bn::repl::read_label_file(file);
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

TEST_CASE("a label file without a view line was saved from the tree view") {
  const fs::path file = temp_file("old.txt");
  write(file, "# bottlenecks labels v1\nlabel x\n  a\n");
  CHECK(bn::repl::read_label_file(file).view == "tree");
  fs::remove_all(file.parent_path());
}

TEST_CASE("save follows no symlink planted at a temporary name beside the label file") {
  FakeProfile p(bn::repl::testing::figure2());
  bn::repl::LabelSet labels;
  labels.add("root", *p.method_summary("a"));
  const fs::path file = temp_file("planted.txt");
  const fs::path victim = temp_file("victim.txt");
  write(victim, "precious");
  // The names a predictable writer would use: FILE.tmp.PID, and numbered ones after it.
  const std::string stem = file.string() + ".tmp." + std::to_string(::getpid());
  fs::create_symlink(victim, stem);
  for (int n = 0; n < 90; ++n) fs::create_symlink(victim, stem + "." + std::to_string(n));
  bn::repl::save_labels(file, p, labels, "tree");
  std::ifstream in(victim);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "precious");
  CHECK(bn::repl::read_label_file(file).labels.size() == 1);
  fs::remove_all(file.parent_path());
}

TEST_CASE("a malformed label file is refused naming file and line") {
  const fs::path file = temp_file("bad.txt");
  write(file, "# comment\nlabel x\n  a\nnonsense\n");
  CHECK_THROWS_WITH_AS(
      bn::repl::read_label_file(file),
      (file.string() + ":4: expected `view NAME`, `aspect NAME = PATTERN`, `label NAME` or an indented method name")
          .c_str(),
      bn::Error);
  write(file, "  a\n");
  CHECK_THROWS_WITH_AS(bn::repl::read_label_file(file),
                       (file.string() + ":1: method line before the first `label NAME` line").c_str(), bn::Error);
  write(file, "label x\n  a\nview server\n");
  CHECK_THROWS_WITH_AS(bn::repl::read_label_file(file),
                       (file.string() + ":3: a `view NAME` line must come once, before the first label").c_str(),
                       bn::Error);
  write(file, "label x\nlabel y\n  a\n");
  CHECK_THROWS_WITH_AS(bn::repl::read_label_file(file), (file.string() + ":2: label 'x' has no call sequence").c_str(),
                       bn::Error);
  fs::remove_all(file.parent_path());
}

TEST_CASE("saving into a missing directory fails with one line and leaves nothing behind") {
  FakeProfile p(bn::repl::testing::figure2());
  bn::repl::LabelSet labels;
  CHECK_THROWS_AS(bn::repl::save_labels("/nonexistent-dir/x/labels.txt", p, labels, "tree"), bn::Error);
}

TEST_CASE("loading labels from a FIFO or a directory is refused at once, not waited on") {
  const fs::path fifo = temp_file("labels.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(
      bn::repl::read_label_file(fifo),
      ("cannot read labels from '" + fifo.string() + "': not a regular file of at most 64 MiB").c_str(), bn::Error);
  CHECK_THROWS_WITH_AS(bn::repl::read_label_file(fifo.parent_path()), doctest::Contains("not a regular file"),
                       bn::Error);
  fs::remove_all(fifo.parent_path());
}
