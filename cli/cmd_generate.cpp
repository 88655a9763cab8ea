// `bottlenecks generate --nodes 1M -o FILE [--seed N] [--calls] [--deep] [--host K]`: a synthetic profile with the
// shape of seed 004's real ones (bn/calltree/synthetic_tree.h), for benchmarks and trying the REPL at scale.

#include <charconv>
#include <cmath>
#include <memory>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/synthetic_tree.h"
#include "commands.h"

namespace bn::cli {
namespace {

struct GenerateOptions {
  std::string nodes;
  std::string output;
  std::uint64_t seed = 1;
  bool calls = false;
  bool deep = false;
  std::uint64_t host = 0;
};

// "50000", "50k", "1.1M": a node count with an optional k (10^3) or M (10^6) suffix.
std::uint64_t parse_node_count(const std::string& text) {
  const auto bad = [&] { return Error("--nodes '" + text + "' is not a node count such as 50000, 50k or 1.1M"); };
  if (text.empty()) throw bad();
  double scale = 1;
  std::string_view number = text;
  if (const char s = text.back(); s == 'k' || s == 'K' || s == 'm' || s == 'M') {
    scale = (s == 'k' || s == 'K') ? 1e3 : 1e6;
    number.remove_suffix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size() || !(value >= 0) || value * scale > 1e12) throw bad();
  return static_cast<std::uint64_t>(std::llround(value * scale));
}

// "3": a host number K >= 1; the empty string if it is one, else why not.
std::string host_number(const std::string& text) {
  std::uint64_t host = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), host);
  if (ec == std::errc() && end == text.data() + text.size() && host >= 1) return "";
  return "'" + text + "' is not a host number K >= 1";
}

void run_generate(const GenerateOptions& options) {
  const calltree::CallTree tree = calltree::generate_synthetic_tree(
      {parse_node_count(options.nodes), options.seed, options.calls, options.deep, options.host});
  calltree::write_profile(tree, options.output);
}

}  // namespace

void setup_generate(CLI::App& app) {
  auto options = std::make_shared<GenerateOptions>();
  CLI::App* sub =
      app.add_subcommand("generate",
                         "Write a synthetic profile shaped like real ones (about half leaves, mean depth ~47, "
                         "out-degree 1.9, Zipf-like method popularity, recursion)");
  sub->add_option("--nodes", options->nodes, "Number of call-tree nodes, e.g. 50000, 50k, 1.1M, 10M")->required();
  sub->add_option("-o,--output", options->output, "File to write in the native format (replaced atomically)")
      ->required();
  sub->add_option("--seed", options->seed, "Seed: the same seed and size give the same profile")->capture_default_str();
  sub->add_flag("--calls", options->calls,
                "Give every node a second metric, 'calls' (unit count), besides its samples (docs/profile-format.md, "
                "\"Several metrics\")");
  sub->add_flag("--deep", options->deep,
                "The deeper shape of seed 004 Table 1 (Trade3 on WebSphere): mean depth ~66, max depth 135");
  sub->add_option("--host", options->host,
                  "Host K >= 1 of a fleet running the program of this seed: the same call tree with host K's own costs "
                  "(each node's times a factor in [1/2, 2]) and its own share of the rarely taken paths (each leaf of "
                  "cost 1 taken with a probability of its own in [1/100, 1]), so hosts share most stacks and their "
                  "union grows slowly")
      ->check(host_number, "K >= 1");
  sub->callback([options] { run_generate(*options); });
}

}  // namespace bn::cli
