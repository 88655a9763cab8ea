#include "bn/views/view_spec.h"

#include <charconv>

#include "bn/base/error.h"

namespace bn::views {
namespace {

// More CPUs than any machine the recorder runs on; bounds the denominators a model creates.
constexpr std::uint32_t kMaxCpus = 4096;

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string to_string(const Model& model) {
  switch (model.kind) {
    case Model::Kind::paper:
      return "paper";
    case Model::Kind::cpus:
      return "cpus " + std::to_string(model.cpus);
    case Model::Kind::measured:
      return "measured";
  }
  return "?";
}

Model parse_model(std::string_view text) {
  const std::string_view t = trimmed(text);
  if (t == "paper") return {Model::Kind::paper, 1};
  if (t == "measured") return {Model::Kind::measured, 1};
  if (t.substr(0, 4) == "cpus") {
    const std::string_view n = trimmed(t.substr(4));
    std::uint32_t cpus = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), cpus);
    if (t.size() > 4 && (t[4] == ' ' || t[4] == '\t') && ec == std::errc() && end == n.data() + n.size() && cpus >= 1 &&
        cpus <= kMaxCpus)
      return {Model::Kind::cpus, cpus};
  }
  throw Error("bad model '" + std::string(text) + "': expected paper, cpus N (N from 1 to " + std::to_string(kMaxCpus) +
              ") or measured");
}

std::string_view to_string(States states) {
  switch (states) {
    case States::all:
      return "all";
    case States::runnable:
      return "runnable";
    case States::running:
      return "running";
  }
  return "?";
}

States parse_states(std::string_view text) {
  const std::string_view t = trimmed(text);
  if (t == "all") return States::all;
  if (t == "runnable") return States::runnable;
  if (t == "running") return States::running;
  throw Error("bad states '" + std::string(text) + "': expected running, runnable or all");
}

std::string_view to_string(Grouping grouping) {
  switch (grouping) {
    case Grouping::by_class:
      return "class";
    case Grouping::by_name:
      return "name";
    case Grouping::by_kind:
      return "kind";
  }
  return "?";
}

Grouping parse_grouping(std::string_view text) {
  const std::string_view t = trimmed(text);
  if (t == "class") return Grouping::by_class;
  if (t == "name") return Grouping::by_name;
  if (t == "kind") return Grouping::by_kind;
  throw Error("bad thread grouping '" + std::string(text) + "': expected kind, class or name");
}

std::string describe(const ViewSpec& spec) {
  switch (spec.kind) {
    case ViewKind::tree:
      return spec.states == States::all ? "tree" : "tree (" + std::string(to_string(spec.states)) + " threads)";
    case ViewKind::server:
      return "server";
    case ViewKind::thread:
      return "thread " + spec.thread_class;
  }
  return "?";
}

}  // namespace bn::views
