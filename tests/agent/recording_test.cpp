// A recording of several engines (recorder-agent/src/core/recording.cpp), without a JVM: two
// fake engines, one like the sampler (a metric of samples, per-sample records naming nodes by
// file id) and one like the call-tree mode (time and calls), run in one recording. Their needs
// merge, each event reaches the engines that asked for it, the class file hook chains, an engine
// that ends turns off only the events no other engine still wants, and both engines' metrics and
// chunks land in the one file, which is complete once both have finished.

#include "core/recording.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "bn/agent/options.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/sample_records.h"
#include "core/engine_factory.h"
#include "core/profile_sink.h"

namespace {

namespace ct = bn::calltree;
using bn::agent::Engine;
using bn::agent::EngineKind;
using bn::agent::EngineMetric;
using bn::agent::EngineSetup;
using bn::agent::Recording;
using bn::agent::SinkPart;
using bn::agent::Status;

// A JVMTI environment with only what a recording calls: events turned on and off, and the
// memory a class file hook's replacement comes in.
struct FakeJvmti {
  FakeJvmti() {
    table.SetEventNotificationMode = &set_mode;
    table.Allocate = &allocate;
    table.Deallocate = &deallocate;
    env.functions = &table;
    current = this;
  }
  ~FakeJvmti() { current = nullptr; }

  static jvmtiError JNICALL set_mode(jvmtiEnv*, jvmtiEventMode mode, jvmtiEvent event, jthread, ...) {
    if (mode == JVMTI_DISABLE) current->disabled.insert(event);
    return JVMTI_ERROR_NONE;
  }
  static jvmtiError JNICALL allocate(jvmtiEnv*, jlong size, unsigned char** mem) {
    *mem = static_cast<unsigned char*>(std::malloc(static_cast<std::size_t>(size)));
    ++current->live_allocations;
    return JVMTI_ERROR_NONE;
  }
  static jvmtiError JNICALL deallocate(jvmtiEnv*, unsigned char* mem) {
    std::free(mem);
    --current->live_allocations;
    return JVMTI_ERROR_NONE;
  }

  static inline FakeJvmti* current = nullptr;
  jvmtiInterface_1_ table{};
  jvmtiEnv env{};
  std::set<jvmtiEvent> disabled;
  int live_allocations = 0;
};

// What both fakes share: counts of what reached them, a start that may fail, and a recording
// that ends by finishing its part of the sink.
class FakeEngine : public Engine {
 public:
  explicit FakeEngine(const EngineSetup& setup, std::string mode, char mark)
      : Engine(setup), jvmti_(setup.jvmti), sink_(setup.sink, setup.part), mode_(std::move(mode)), mark_(mark) {}

  Status start(JNIEnv*) override {
    ++starts;
    if (fail_start) return Status::error("cannot start " + mode_);
    recording_ = true;
    return sink_.open(metadata());
  }
  void stop() override {
    ++stops;
    end();
  }
  void end_recording() override {
    ++ends;
    end();
  }
  bool recording() const override { return recording_; }
  void thread_started(JNIEnv*, jthread) override { ++threads_started; }
  void thread_ended(JNIEnv*, jthread) override { ++threads_ended; }
  void class_prepared(JNIEnv*, jthread, jclass) override { ++classes_prepared; }
  // Appends its mark to the class bytes it is given.
  void class_file_loaded(JNIEnv*, jclass, jobject, const char*, jint length, const unsigned char* data,
                         jint* new_length, unsigned char** new_data) override {
    ++classes_loaded;
    unsigned char* out = nullptr;
    jvmti_->Allocate(length + 1, &out);
    std::memcpy(out, data, static_cast<std::size_t>(length));
    out[length] = static_cast<unsigned char>(mark_);
    *new_length = length + 1;
    *new_data = out;
  }

  // The node of `frames` (outermost first) in the recording's tree; under the tree lock.
  ct::NodeId node_of(const std::vector<std::string>& frames) {
    ct::NodeId node = ct::kRootNode;
    for (const std::string& f : frames) node = sink_.tree().child(node, sink_.tree().intern(f));
    return node;
  }

  int starts = 0, stops = 0, ends = 0;
  int threads_started = 0, threads_ended = 0, classes_prepared = 0, classes_loaded = 0;
  bool fail_start = false;

 protected:
  ct::Metadata metadata() const {
    ct::Metadata m;
    m.mode = mode_;
    m.jvm = "FakeVM";
    m.set_extra("engine", mode_);
    return m;
  }
  void end() {
    if (!recording_) return;
    if (Status s = flush(); !s.ok()) FAIL(s.message());
    if (Status s = sink_.finish(metadata()); !s.ok()) FAIL(s.message());
    turn_events_off();
    recording_ = false;
  }
  virtual Status flush() = 0;

  jvmtiEnv* jvmti_;
  SinkPart sink_;

 private:
  std::string mode_;
  char mark_;
  bool recording_ = false;
};

// Like the sampler: one sample per stack, and per-sample records that name nodes by file id.
class FakeStacks final : public FakeEngine {
 public:
  explicit FakeStacks(const EngineSetup& setup) : FakeEngine(setup, "stacks", 'S') {}

  Needs needs() const override {
    Needs n;
    n.required.can_get_monitor_info = 1;
    jvmtiCapabilities optional = bn::agent::no_capabilities();
    optional.can_get_current_contended_monitor = 1;
    n.optional.push_back(optional);
    n.events = {JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END, JVMTI_EVENT_CLASS_PREPARE,
                JVMTI_EVENT_CLASS_FILE_LOAD_HOOK};
    return n;
  }

  // One tick: thread 0 seen in `frames`.
  void sample(const std::vector<std::string>& frames) {
    const auto lock = sink_.lock_tree();
    const ct::NodeId node = node_of(frames);
    sink_.tree().add_cost(node, sink_.metric(0), 1);
    ct::SampleRecord r;
    r.node = node;
    ticks_.push_back({++time_ns_, static_cast<std::uint32_t>(records_.size()), 1});
    records_.push_back(r);
  }
  Status flush() override {
    Status s = sink_.flush([&](std::span<const ct::NodeId> new_parents) {
      std::vector<bn::agent::AncillaryChunk> chunks;
      if (!thread_written_) {
        ct::ThreadEntry main;
        main.name = "main";
        chunks.push_back({ct::kTagThreads, ct::encode_threads(std::span(&main, 1))});
        thread_written_ = true;
      }
      chunks.push_back({ct::kTagSamples, ct::encode_samples(new_parents, ticks_, records_)});
      return chunks;
    });
    ticks_.clear();
    records_.clear();
    return s;
  }

 private:
  bool thread_written_ = false;
  std::int64_t time_ns_ = 0;
  std::vector<ct::SampleTick> ticks_;
  std::vector<ct::SampleRecord> records_;
};

// Like the call-tree mode: exclusive time and calls per calling context, no chunks of its own.
class FakeCalls final : public FakeEngine {
 public:
  explicit FakeCalls(const EngineSetup& setup) : FakeEngine(setup, "calls", 'C') {}

  Needs needs() const override {
    Needs n;
    n.required.can_retransform_classes = 1;
    n.events = {JVMTI_EVENT_THREAD_START, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK};
    return n;
  }

  void call(const std::vector<std::string>& frames, ct::Cost ns, ct::Cost calls) {
    const auto lock = sink_.lock_tree();
    const ct::NodeId node = node_of(frames);
    sink_.tree().add_cost(node, sink_.metric(0), ns);
    sink_.tree().add_cost(node, sink_.metric(1), calls);
  }
  Status flush() override {
    return sink_.flush([](std::span<const ct::NodeId>) { return std::vector<bn::agent::AncillaryChunk>(); });
  }
};

template <class E>
std::unique_ptr<Engine> make(const EngineSetup& setup) {
  return std::make_unique<E>(setup);
}

constexpr EngineMetric kStackMetrics[] = {{"samples", "samples"}};
constexpr EngineMetric kCallMetrics[] = {{"time", "ns"}, {"calls", "count"}};
constexpr EngineKind kStacks{"stacks", make<FakeStacks>, kStackMetrics, /*keeps_totals=*/true};
constexpr EngineKind kCalls{"calls", make<FakeCalls>, kCallMetrics};

// A recording of both fakes writing `file`.
struct Both {
  explicit Both(const std::string& file) {
    options.file = file;
    recording = std::make_unique<Recording>(std::span(kinds), nullptr, &jvmti.env, options, false);
  }
  FakeStacks& stacks() { return static_cast<FakeStacks&>(recording->engine(0)); }
  FakeCalls& calls() { return static_cast<FakeCalls&>(recording->engine(1)); }

  FakeJvmti jvmti;
  bn::agent::Options options;
  const EngineKind* kinds[2] = {&kStacks, &kCalls};
  std::unique_ptr<Recording> recording;
};

// Per process: ctest runs the cases in parallel, and other builds may run them too.
std::string temp_file(const char* name) {
  return (std::filesystem::temp_directory_path() /
          ("bn_recording_test_" + std::to_string(getpid()) + "_" + std::string(name)))
      .string();
}

// The node at `frames` (outermost first) of a loaded tree; kNoNode if there is none.
ct::NodeId find(const ct::CallTree& tree, const std::vector<std::string>& frames) {
  ct::NodeId node = ct::kRootNode;
  for (const std::string& f : frames) {
    ct::NodeId next = ct::kNoNode;
    for (const ct::NodeId child : tree.children(node))
      if (tree.node_name(child) == f) next = child;
    if (next == ct::kNoNode) return next;
    node = next;
  }
  return node;
}

}  // namespace

TEST_CASE("a recording asks the JVM for the union of its engines' needs") {
  Both both(temp_file("needs.bnp"));
  const Engine::Needs& needs = both.recording->needs();
  CHECK(needs.required.can_get_monitor_info == 1);
  CHECK(needs.required.can_retransform_classes == 1);
  CHECK(needs.required.can_generate_all_class_hook_events == 0);
  REQUIRE(needs.optional.size() == 1);
  CHECK(needs.optional[0].can_get_current_contended_monitor == 1);
  // Each event once, in the order the engines first asked for it.
  CHECK(needs.events == std::vector<jvmtiEvent>{JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
                                                JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK});
  // Each kind's metrics follow those of the kinds before it.
  CHECK(both.recording->sink().first_metric(0) == 0);
  CHECK(both.recording->sink().first_metric(1) == 1);
}

TEST_CASE("each event reaches exactly the engines that asked for it, and class file hooks chain") {
  Both both(temp_file("events.bnp"));
  Recording& r = *both.recording;
  r.thread_started(nullptr, nullptr);
  r.thread_ended(nullptr, nullptr);
  r.class_prepared(nullptr, nullptr, nullptr);
  CHECK(both.stacks().threads_started == 1);
  CHECK(both.calls().threads_started == 1);
  CHECK(both.stacks().threads_ended == 1);
  CHECK(both.calls().threads_ended == 0);
  CHECK(both.stacks().classes_prepared == 1);
  CHECK(both.calls().classes_prepared == 0);

  // The second engine is given the first one's bytes; the first one's replacement is freed.
  const unsigned char original[] = {'k'};
  jint new_length = 0;
  unsigned char* new_data = nullptr;
  r.class_file_loaded(nullptr, nullptr, nullptr, "K", 1, original, &new_length, &new_data);
  CHECK(both.stacks().classes_loaded == 1);
  CHECK(both.calls().classes_loaded == 1);
  REQUIRE(new_length == 3);
  CHECK(std::string(reinterpret_cast<char*>(new_data), 3) == "kSC");
  CHECK(both.jvmti.live_allocations == 1);
  both.jvmti.env.Deallocate(new_data);
}

TEST_CASE("both engines' metrics and chunks land in one file, complete once both have ended") {
  const std::string file = temp_file("both.bnp");
  {
    Both both(file);
    Recording& r = *both.recording;
    REQUIRE(r.start(nullptr).ok());
    CHECK(both.stacks().starts == 1);
    CHECK(both.calls().starts == 1);
    CHECK(r.recording());

    both.stacks().sample({"main", "a"});
    both.stacks().sample({"main", "a"});
    REQUIRE(both.stacks().flush().ok());
    // Nodes only the call-tree fake reached, appended by its flush: the sampler's next chunk
    // must still carry their parents, or its records could not be mapped (decode below).
    both.calls().call({"main", "b"}, 100, 2);
    both.calls().call({"main", "a"}, 7, 1);
    REQUIRE(both.calls().flush().ok());
    both.stacks().sample({"main", "b", "c"});

    // The first engine to end leaves the file open and the events the other one wants on.
    both.stacks().end_recording();
    CHECK(r.recording());
    CHECK_FALSE(ct::ends_with_end_chunk(file));
    CHECK(both.jvmti.disabled == std::set<jvmtiEvent>{JVMTI_EVENT_THREAD_END, JVMTI_EVENT_CLASS_PREPARE});

    r.end_recording();
    CHECK(both.calls().ends == 1);
    CHECK_FALSE(r.recording());
    CHECK(both.jvmti.disabled == std::set<jvmtiEvent>{JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END,
                                                      JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK});
  }
  const ct::LoadedProfile loaded = ct::read_profile(file);
  const ct::CallTree& tree = loaded.tree;
  CHECK(tree.metadata().mode == "stacks+calls");
  CHECK(tree.metadata().metric == "samples");
  CHECK(tree.metadata().jvm == "FakeVM");
  CHECK(tree.metadata().find_extra("stacks.engine") == "stacks");
  CHECK(tree.metadata().find_extra("calls.engine") == "calls");
  REQUIRE(tree.metric_count() == 3);
  const std::size_t time = *tree.find_metric("time");
  const std::size_t calls = *tree.find_metric("calls");
  CHECK(tree.metric_spec(time).unit == "ns");

  const ct::NodeId a = find(tree, {"main", "a"});
  const ct::NodeId b = find(tree, {"main", "b"});
  const ct::NodeId c = find(tree, {"main", "b", "c"});
  REQUIRE(a != ct::kNoNode);
  REQUIRE(b != ct::kNoNode);
  REQUIRE(c != ct::kNoNode);
  CHECK(tree.cost(a) == 2);
  CHECK(tree.metric_cost(time, a) == 7);
  CHECK(tree.metric_cost(calls, a) == 1);
  CHECK(tree.cost(b) == 0);
  CHECK(tree.metric_cost(time, b) == 100);
  CHECK(tree.metric_cost(calls, b) == 2);
  CHECK(tree.cost(c) == 1);
  CHECK(tree.metric_cost(calls, c) == 0);

  const ct::SampleData samples = ct::decode_sample_data(loaded, file);
  REQUIRE(samples.records.size() == 3);
  CHECK(samples.records[0].node == a);
  CHECK(samples.records[1].node == a);
  CHECK(samples.records[2].node == c);
  std::filesystem::remove(file);
}

TEST_CASE("an engine that cannot start ends the ones started before it, and the file completes with their parts") {
  const std::string file = temp_file("failed.bnp");
  {
    Both both(file);
    both.calls().fail_start = true;
    const Status s = both.recording->start(nullptr);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() == "mode=calls: cannot start calls");
    CHECK(both.stacks().ends == 1);
    CHECK_FALSE(both.recording->recording());
  }
  const ct::LoadedProfile loaded = ct::read_profile(file);
  CHECK(loaded.tree.metadata().mode == "stacks+calls");
  CHECK(loaded.tree.metric_count() == 3);
  std::filesystem::remove(file);
}

TEST_CASE("a metric name an earlier engine took is named by the later engine's mode") {
  constexpr EngineKind second{"again", make<FakeStacks>, kStackMetrics};
  const EngineKind* kinds[] = {&kStacks, &second};
  FakeJvmti jvmti;
  bn::agent::Options options;
  options.file = temp_file("names.bnp");
  Recording r(kinds, nullptr, &jvmti.env, options, false);
  const auto& metrics = r.sink().metrics();
  REQUIRE(metrics.size() == 2);
  CHECK(metrics[0].name == "samples");
  CHECK(metrics[1].name == "again.samples");
}
