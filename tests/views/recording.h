#pragma once
// Hand-made recordings for the view tests: threads, ticks and records given by stack text
// ("T.run;T.work"), turned into the recorded CallTree and SampleData the agent would write.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/calltree/tree_builder.h"

namespace bn::test {

namespace state {
inline constexpr std::uint32_t kRunnable = calltree::thread_state::kAlive | calltree::thread_state::kRunnable;
inline constexpr std::uint32_t kNative = kRunnable | calltree::thread_state::kInNative;
inline constexpr std::uint32_t kBlocked =
    calltree::thread_state::kAlive | calltree::thread_state::kBlockedOnMonitorEnter;
inline constexpr std::uint32_t kWaiting = calltree::thread_state::kAlive | calltree::thread_state::kWaiting |
                                          calltree::thread_state::kWaitingIndefinitely |
                                          calltree::thread_state::kInObjectWait;
}  // namespace state

struct Recording {
  calltree::CallTree tree;
  calltree::SampleData samples;
};

inline std::vector<std::string> split_frames(const std::string& stack) {
  std::vector<std::string> frames;
  std::size_t start = 0;
  while (start <= stack.size()) {
    const std::size_t end = std::min(stack.find(';', start), stack.size());
    frames.push_back(stack.substr(start, end - start));
    start = end + 1;
  }
  return frames;
}

class RecordingBuilder {
 public:
  struct Record {
    std::uint32_t thread = 0;
    std::string stack;
    std::uint32_t state = state::kRunnable;
    std::int32_t nice = 0;
    std::uint32_t owner = calltree::kNoThread;
    bool has_cpu = false;
    std::uint64_t elapsed_ns = 0, run_ns = 0, wait_ns = 0;
  };

  std::uint32_t thread(const std::string& name, const std::string& thread_class) {
    calltree::ThreadEntry e;
    e.index = static_cast<std::uint32_t>(threads_.size());
    e.name = name;
    e.thread_class = thread_class;
    threads_.push_back(e);
    return e.index;
  }
  void tick(std::int64_t time_ns) { ticks_.push_back({time_ns, {}}); }
  // Adds a record to the last tick and returns it for further fields.
  Record& record(std::uint32_t thread, const std::string& stack, std::uint32_t state = state::kRunnable,
                 std::int32_t nice = 0) {
    ticks_.back().records.push_back({thread, stack, state, nice});
    return ticks_.back().records.back();
  }
  calltree::Metadata& metadata() { return metadata_; }

  Recording build() const {
    calltree::TreeBuilder builder;
    for (const Tick& t : ticks_)
      for (const Record& r : t.records) builder.add_stack(frames_of(builder, r.stack), 1);
    calltree::CallTree tree = std::move(builder).build(metadata_);
    calltree::SampleData samples;
    samples.threads = threads_;
    for (const Tick& t : ticks_) {
      samples.ticks.push_back({t.time_ns, static_cast<std::uint32_t>(samples.records.size()),
                               static_cast<std::uint32_t>(t.records.size())});
      for (const Record& r : t.records) {
        calltree::SampleRecord s;
        s.thread = r.thread;
        s.node = node_of(tree, r.stack);
        s.state = r.state;
        s.nice = r.nice;
        s.owner = r.owner;
        s.has_cpu = r.has_cpu;
        s.elapsed_ns = r.elapsed_ns;
        s.run_ns = r.run_ns;
        s.wait_ns = r.wait_ns;
        samples.records.push_back(s);
      }
    }
    return {std::move(tree), std::move(samples)};
  }

 private:
  struct Tick {
    std::int64_t time_ns = 0;
    std::vector<Record> records;
  };
  static std::vector<calltree::MethodId> frames_of(calltree::TreeBuilder& b, const std::string& stack) {
    std::vector<calltree::MethodId> ids;
    for (const std::string& f : split_frames(stack)) ids.push_back(b.intern(f));
    return ids;
  }
  static calltree::NodeId node_of(const calltree::CallTree& tree, const std::string& stack) {
    calltree::NodeId n = calltree::kRootNode;
    for (const std::string& f : split_frames(stack)) {
      calltree::NodeId next = calltree::kNoNode;
      for (calltree::NodeId c : tree.children(n))
        if (tree.node_name(c) == f) next = c;
      if (next == calltree::kNoNode) throw Error("test recording: no node for " + stack);
      n = next;
    }
    return n;
  }

  std::vector<calltree::ThreadEntry> threads_;
  std::vector<Tick> ticks_;
  calltree::Metadata metadata_ = [] {
    calltree::Metadata m;
    m.mode = "sample";
    m.metric = m.unit = "samples";
    return m;
  }();
};

}  // namespace bn::test
