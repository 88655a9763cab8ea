// Pseudo-node names and thread classes: how a view names what it adds below a stack.
#include <algorithm>

#include "bn/views/pseudo_names.h"
#include "bn/views/thread_classes.h"

namespace bn::views {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Keeps a name usable as a node name: `path` and collapsed stacks split on ';'.
std::string representable(std::string name) {
  for (char& c : name)
    if (c == ';')
      c = ',';
    else if (c == '\n' || c == '\r' || c == '\0')
      c = ' ';
  return name.empty() ? "(unnamed)" : name;
}

}  // namespace

std::string_view name_of(TimeType type) {
  static constexpr std::array<std::string_view, kTimeTypes> kNames = {":RUN", ":LOAD", ":PRIO", ":MONITOR", ":WAIT"};
  return kNames[static_cast<std::size_t>(type)];
}

std::string thread_class_node(std::string_view thread_class) {
  return std::string(kThreadNodePrefix) + std::string(thread_class);
}

std::string holder_frame(std::string_view method) { return kHolderFramePrefix + std::string(method); }

std::string fold_digits(std::string_view name) {
  std::string folded;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!is_digit(name[i])) {
      folded += name[i];
    } else if (i == 0 || !is_digit(name[i - 1])) {
      folded += '#';
    }
  }
  return folded;
}

std::optional<std::uint32_t> ThreadClasses::find(std::string_view name) const {
  const auto it = std::lower_bound(names.begin(), names.end(), name);
  if (it == names.end() || *it != name) return std::nullopt;
  return static_cast<std::uint32_t>(it - names.begin());
}

ThreadClasses group_threads(std::span<const calltree::ThreadEntry> threads, Grouping grouping) {
  ThreadClasses classes;
  std::vector<std::string> of_thread;
  of_thread.reserve(threads.size());
  for (const calltree::ThreadEntry& t : threads) {
    const bool by_class =
        grouping == Grouping::by_class || (grouping == Grouping::by_kind && !is_jdk_class(t.thread_class));
    of_thread.push_back(representable(by_class ? t.thread_class : fold_digits(t.name)));
  }
  classes.names = of_thread;
  std::sort(classes.names.begin(), classes.names.end());
  classes.names.erase(std::unique(classes.names.begin(), classes.names.end()), classes.names.end());
  classes.of_thread.reserve(threads.size());
  for (const std::string& name : of_thread) classes.of_thread.push_back(*classes.find(name));
  classes.jvm_service.assign(classes.names.size(), true);
  for (std::size_t t = 0; t < threads.size(); ++t)
    if (!is_jvm_service_thread(threads[t])) classes.jvm_service[classes.of_thread[t]] = false;
  return classes;
}

}  // namespace bn::views
