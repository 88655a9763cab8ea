// Causal targets (recorder-agent/src/causal/causal_targets.h, target_match.h): what target= and
// targets= accept, and the handler's matcher against a deliberately naive reading of the
// definition (docs/aspects.md: adjacent elements are consecutive frames, `..` any number of
// frames, the match anywhere in the stack), on random stacks and sequences.

#include "causal/causal_targets.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "causal/target_match.h"
#include "temp_dir.h"

using bn::agent::CompiledElement;
using bn::agent::CompiledSummary;
using bn::agent::read_causal_targets;
using bn::agent::satisfies;

namespace {

// Whether elements [e, end) match frames from `f` on, trying every split at each gap.
bool naive_from(const std::vector<std::uint64_t>& frames, std::size_t f, const CompiledSummary& s, std::size_t e) {
  if (e == s.size()) return true;
  if (s[e].gap) {
    for (std::size_t g = f; g <= frames.size(); ++g)
      if (naive_from(frames, g, s, e + 1)) return true;
    return false;
  }
  return f < frames.size() && (frames[f] >> s[e].symbol & 1) != 0 && naive_from(frames, f + 1, s, e + 1);
}

bool naive(const std::vector<std::uint64_t>& frames, const CompiledSummary& s) {
  for (std::size_t start = 0; start <= frames.size(); ++start)
    if (naive_from(frames, start, s, 0)) return true;
  return false;
}

}  // namespace

TEST_CASE("the handler's matcher agrees with the definition on random stacks and sequences") {
  std::mt19937 rng(20261129);
  for (int round = 0; round < 20000; ++round) {
    const int symbols = 1 + static_cast<int>(rng() % 4);
    std::vector<std::uint64_t> frames(rng() % 12);
    for (std::uint64_t& f : frames) f = rng() % (std::uint64_t{1} << symbols);  // a frame may be several symbols
    CompiledSummary s;
    const std::size_t length = 1 + rng() % 5;
    for (std::size_t i = 0; i < length; ++i) {
      if (rng() % 4 == 0)
        s.push_back({true, 0});
      else
        s.push_back({false, static_cast<std::uint8_t>(rng() % static_cast<unsigned>(symbols))});
    }
    INFO("round " << round);
    CHECK(satisfies(frames, s) == naive(frames, s));
  }
}

TEST_CASE("target= sequences compile into symbols, gaps and aspects from a label file") {
  const auto targets = read_causal_targets({"a.B.c;..;d.E.f", "a.B.c"}, "");
  REQUIRE(targets.status.ok());
  REQUIRE(targets.targets.size() == 2);
  CHECK(targets.targets[0].name == "a.B.c;..;d.E.f");
  CHECK_FALSE(targets.targets[0].is_label);
  REQUIRE(targets.symbols.size() == 2);  // a.B.c once
  REQUIRE(targets.compiled[0].size() == 1);
  CHECK(targets.compiled[0][0].size() == 3);
  CHECK(targets.compiled[0][0][1].gap);

  const bn::test::TempDir dir;
  const std::filesystem::path file = dir.path() / "hot.labels";
  std::ofstream(file) << "# bottlenecks labels v2\naspect io = java.io.*\nlabel parse\n  p.Parser.parse\n  ..\n"
                         "  :io\nlabel parse\n  p.Parser.lex\nlabel store\n  s.Store.put\n";
  const auto labelled = read_causal_targets({}, file.string());
  REQUIRE(labelled.status.ok());
  REQUIRE(labelled.targets.size() == 2);  // one target per label, all its summaries together
  CHECK(labelled.targets[0].name == "parse");
  CHECK(labelled.targets[0].is_label);
  CHECK(labelled.targets[0].summaries.size() == 2);
  CHECK(labelled.aspects.size() == 1);
  CHECK(labelled.symbols[1].matches("java.io.FileInputStream.read"));
  CHECK_FALSE(labelled.symbols[1].matches("java.nio.Buffer.get"));
}

TEST_CASE("bad targets are refused in one line naming the option or the file's line") {
  CHECK(read_causal_targets({"a.B.c;;d.E.f"}, "").status.message() ==
        "target='a.B.c;;d.E.f': an empty element (two ';' in a row?)");
  CHECK(read_causal_targets({"main"}, "").status.message() ==
        "target='main': 'main' is no Java method name (expected pkg.Class.method)");
  CHECK(read_causal_targets({".."}, "").status.message() == "target='..': a call sequence names no method");
  CHECK(read_causal_targets({"a.B.c;:RUN"}, "").status.message().find("':RUN' is no aspect defined here") !=
        std::string::npos);
  const bn::test::TempDir dir;
  const std::filesystem::path file = dir.path() / "bad.labels";
  std::ofstream(file) << "label x\n  a.B.c\nnonsense\n";
  CHECK(read_causal_targets({}, file.string()).status.message().find(file.string() + ":3:") == 0);
  std::ofstream(file) << "label x\n  a.B.c;d\n";
  CHECK(read_causal_targets({}, file.string()).status.message() ==
        file.string() + ":1: 'a.B.c;d' is no Java method name (expected pkg.Class.method)");
  std::string many;
  for (int i = 0; i < 65; ++i) many += (i == 0 ? "" : ";") + std::string("p.C.m") + std::to_string(i);
  CHECK(read_causal_targets({many}, "").status.message().find("more than 64 distinct methods") != std::string::npos);
}
