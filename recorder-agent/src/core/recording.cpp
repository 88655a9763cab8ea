#include "core/recording.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "bn/agent/options.h"
#include "core/report.h"

namespace bn::agent {
namespace {

// Every capability either set holds. The struct is bit-fields only (jvmti.h), so a byte-wise or
// of the two is their union, reserved bits staying zero.
jvmtiCapabilities union_of(const jvmtiCapabilities& a, const jvmtiCapabilities& b) {
  unsigned char x[sizeof(jvmtiCapabilities)];
  unsigned char y[sizeof(jvmtiCapabilities)];
  std::memcpy(x, &a, sizeof x);
  std::memcpy(y, &b, sizeof y);
  for (std::size_t i = 0; i < sizeof x; ++i) x[i] |= y[i];
  jvmtiCapabilities out = no_capabilities();
  std::memcpy(&out, x, sizeof x);
  return out;
}

// The sink's parts: each kind's mode and metrics, a name an earlier part took prefixed by the
// mode (the file's metrics must differ by name: docs/profile-format.md, "MTRC").
std::vector<ProfileSink::Part> parts_of(std::span<const EngineKind* const> kinds) {
  std::vector<ProfileSink::Part> parts;
  std::vector<std::string> taken;
  for (const EngineKind* kind : kinds) {
    ProfileSink::Part part{std::string(kind->mode), {}};
    for (const EngineMetric& m : kind->metrics) {
      std::string name(m.name);
      if (std::find(taken.begin(), taken.end(), name) != taken.end()) name = part.mode + "." + name;
      taken.push_back(name);
      part.metrics.push_back({std::move(name), std::string(m.unit)});
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

bool keeps_totals(std::span<const EngineKind* const> kinds) {
  return std::any_of(kinds.begin(), kinds.end(), [](const EngineKind* k) { return k->keeps_totals; });
}

}  // namespace

void Engine::turn_events_off() const {
  if (recording_ != nullptr) recording_->release_events(part_);
}

Recording::Recording(std::span<const EngineKind* const> kinds, JavaVM* vm, jvmtiEnv* jvmti, const Options& options,
                     bool attached)
    : jvmti_(jvmti),
      file_(options.file),
      sink_(std::make_unique<ProfileSink>(options.file, parts_of(kinds), keeps_totals(kinds))) {
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    modes_.emplace_back(kinds[i]->mode);
    engines_.push_back(kinds[i]->create(EngineSetup{vm, jvmti, options, attached, *sink_, i, this}));
    Engine::Needs needs = engines_.back()->needs();
    needs_.required = union_of(needs_.required, needs.required);
    needs_.optional.insert(needs_.optional.end(), needs.optional.begin(), needs.optional.end());
    EventSet wants;
    for (const jvmtiEvent event : needs.events) {
      wants.set(static_cast<std::size_t>(event));
      if (std::find(needs_.events.begin(), needs_.events.end(), event) == needs_.events.end())
        needs_.events.push_back(event);
    }
    wants_.push_back(wants);
    events_.push_back(std::move(needs.events));
  }
  released_.assign(engines_.size(), false);
}

// Engines are never freed in the agent (agent.cpp); a test's recording is.
Recording::~Recording() = default;

void Recording::granted(const jvmtiCapabilities& possessed) {
  for (const auto& engine : engines_) engine->granted(possessed);
}

Status Recording::start(JNIEnv* jni) {
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    Status s = engines_[i]->start(jni);
    if (s.ok()) continue;
    // The engines not started write nothing; those started end, completing the file.
    for (std::size_t j = i; j < engines_.size(); ++j)
      if (Status w = sink_->withdraw(j); !w.ok()) report(w.message());
    for (std::size_t j = 0; j < i; ++j) engines_[j]->end_recording();
    if (engines_.size() == 1) return s;
    return Status::error("mode=" + modes_[i] + ": " + s.message());
  }
  return Status();
}

void Recording::stop() {
  for (const auto& engine : engines_) engine->stop();
}

void Recording::end_recording() {
  for (const auto& engine : engines_) engine->end_recording();
}

bool Recording::recording() const {
  return std::any_of(engines_.begin(), engines_.end(), [](const auto& engine) { return engine->recording(); });
}

template <class Hook>
void Recording::forward(jvmtiEvent event, Hook hook) {
  for (std::size_t i = 0; i < engines_.size(); ++i)
    if (wants_[i].test(static_cast<std::size_t>(event))) hook(*engines_[i]);
}

void Recording::thread_started(JNIEnv* jni, jthread thread) {
  forward(JVMTI_EVENT_THREAD_START, [&](Engine& e) { e.thread_started(jni, thread); });
}

void Recording::thread_ended(JNIEnv* jni, jthread thread) {
  forward(JVMTI_EVENT_THREAD_END, [&](Engine& e) { e.thread_ended(jni, thread); });
}

void Recording::class_prepared(JNIEnv* jni, jthread thread, jclass klass) {
  forward(JVMTI_EVENT_CLASS_PREPARE, [&](Engine& e) { e.class_prepared(jni, thread, klass); });
}

void Recording::monitor_contended_enter(JNIEnv* jni, jthread thread) {
  forward(JVMTI_EVENT_MONITOR_CONTENDED_ENTER, [&](Engine& e) { e.monitor_contended_enter(jni, thread); });
}

void Recording::monitor_contended_entered(JNIEnv* jni, jthread thread) {
  forward(JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, [&](Engine& e) { e.monitor_contended_entered(jni, thread); });
}

void Recording::monitor_wait(JNIEnv* jni, jthread thread) {
  forward(JVMTI_EVENT_MONITOR_WAIT, [&](Engine& e) { e.monitor_wait(jni, thread); });
}

void Recording::monitor_waited(JNIEnv* jni, jthread thread, bool timed_out) {
  forward(JVMTI_EVENT_MONITOR_WAITED, [&](Engine& e) { e.monitor_waited(jni, thread, timed_out); });
}

void Recording::native_method_bound(JNIEnv* jni, jmethodID method, void* address) {
  forward(JVMTI_EVENT_NATIVE_METHOD_BIND, [&](Engine& e) { e.native_method_bound(jni, method, address); });
}

void Recording::class_file_loaded(JNIEnv* jni, jclass being_redefined, jobject loader, const char* name, jint length,
                                  const unsigned char* data, jint* new_length, unsigned char** new_data) {
  unsigned char* replaced = nullptr;  // ours, from an engine before
  forward(JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, [&](Engine& e) {
    jint out_length = 0;
    unsigned char* out = nullptr;
    e.class_file_loaded(jni, being_redefined, loader, name, length, data, &out_length, &out);
    if (out == nullptr) return;
    if (replaced != nullptr && jvmti_ != nullptr) jvmti_->Deallocate(replaced);
    replaced = out;
    data = out;
    length = out_length;
  });
  if (replaced == nullptr) return;
  *new_data = replaced;
  *new_length = length;
}

void Recording::release_events(std::size_t part) {
  const std::lock_guard<std::mutex> lock(released_mutex_);
  released_[part] = true;
  for (const jvmtiEvent event : events_[part]) {
    bool wanted = false;
    for (std::size_t j = 0; j < engines_.size(); ++j)
      wanted = wanted || (!released_[j] && wants_[j].test(static_cast<std::size_t>(event)));
    if (!wanted && jvmti_ != nullptr) jvmti_->SetEventNotificationMode(JVMTI_DISABLE, event, nullptr);
  }
}

}  // namespace bn::agent
