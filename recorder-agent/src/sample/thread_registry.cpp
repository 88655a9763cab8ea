#include "sample/thread_registry.h"

#include <unistd.h>

#include <algorithm>

#include "core/jni_values.h"
#include "core/jvm_text.h"
#include "core/os_thread.h"

namespace bn::agent {
namespace {

// Thread-local storage value of a thread whose ThreadEnd has run: HotSpot keeps the thread in
// GetAllThreads for a moment after ThreadEnd, and its record may already be freed.
char ended_marker;
void* const kEnded = &ended_marker;

std::string dotted_class_name(const char* signature) {
  // "Ljava/lang/Thread;" → "java.lang.Thread"
  std::string s(signature != nullptr ? signature : "");
  if (s.size() >= 2 && s.front() == 'L' && s.back() == ';') s = s.substr(1, s.size() - 2);
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

// The kernel's name of the OS thread of the Java thread `name`. The launcher runs main() on a
// second thread that keeps the process name ("java"); the first thread (tid == pid) only waits
// for it and never runs Java code.
std::string kernel_name_of(const std::string& name) { return name == "main" ? "java" : kernel_thread_name(name); }

}  // namespace

ThreadRegistry::ThreadRegistry(jvmtiEnv* jvmti, std::int64_t start_ns) : jvmti_(jvmti), start_ns_(start_ns) {}

void ThreadRegistry::describe(JNIEnv* jni, jthread thread, calltree::ThreadEntry& e) {
  jvmtiThreadInfo info{};
  if (jvmti_->GetThreadInfo(thread, &info) == JVMTI_ERROR_NONE) {
    if (info.name != nullptr) e.name = standard_utf8(info.name);
    e.daemon = info.is_daemon == JNI_TRUE;
    release_thread_info(jvmti_, jni, info);
  }
  jclass klass = jni->GetObjectClass(thread);
  char* signature = nullptr;
  if (klass != nullptr && jvmti_->GetClassSignature(klass, &signature, nullptr) == JVMTI_ERROR_NONE) {
    e.thread_class = standard_utf8(dotted_class_name(signature));
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(signature));
  }
  if (tid_field_ == nullptr) {
    jclass thread_class = jni->FindClass("java/lang/Thread");
    if (thread_class != nullptr) tid_field_ = jni->GetFieldID(thread_class, "tid", "J");
    if (jni->ExceptionCheck()) jni->ExceptionClear();
    if (thread_class != nullptr) jni->DeleteLocalRef(thread_class);
  }
  if (tid_field_ != nullptr) e.java_id = jni->GetLongField(thread, tid_field_);
  if (klass != nullptr) jni->DeleteLocalRef(klass);
}

ThreadRecord* ThreadRegistry::create_locked(JNIEnv* jni, jthread thread, std::int32_t tid) {
  auto record = std::make_unique<ThreadRecord>();
  record->entry.index = calltree::kNoThread;
  record->entry.os_tid = tid;
  record->entry.start_ns = monotonic_ns() - start_ns_;
  describe(jni, thread, record->entry);
  if (tid != 0) claimed_tids_.push_back(tid);
  record->registry = this;
  ThreadRecord* raw = record.get();
  if (tid_field_ != nullptr) by_java_id_[record->entry.java_id] = raw;
  records_.push_back(std::move(record));
  jvmti_->SetThreadLocalStorage(thread, raw);
  return raw;
}

ThreadRecord* ThreadRegistry::own(void* stored) const {
  if (stored == nullptr || stored == kEnded) return nullptr;
  auto* record = static_cast<ThreadRecord*>(stored);
  return record->registry == this ? record : nullptr;
}

void ThreadRegistry::on_thread_start(JNIEnv* jni, jthread thread, std::int64_t) {
  const std::int32_t tid = current_tid();
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_) return;
  void* stored = nullptr;
  jvmti_->GetThreadLocalStorage(thread, &stored);
  if (stored == kEnded) return;
  if (ThreadRecord* record = own(stored); record != nullptr) {  // the sampler saw it before its ThreadStart ran
    if (record->entry.os_tid == 0) {
      record->entry.os_tid = tid;
      record->dirty = true;
      claimed_tids_.push_back(tid);
    }
    return;
  }
  create_locked(jni, thread, tid);
}

void ThreadRegistry::on_thread_end(std::int64_t now_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  void* stored = nullptr;
  if (jvmti_->GetThreadLocalStorage(nullptr, &stored) != JVMTI_ERROR_NONE) return;
  if (ThreadRecord* record = own(stored); record != nullptr) {
    record->ended = true;
    record->entry.end_ns = now_ns - start_ns_;
    record->dirty = true;
  }
  jvmti_->SetThreadLocalStorage(nullptr, kEnded);
}

ThreadRecord* ThreadRegistry::find_or_add(JNIEnv* jni, jthread thread, const TaskNames* names, std::size_t position) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tid_field_ != nullptr) {
    const std::int64_t java_id = jni->GetLongField(thread, tid_field_);
    ThreadRecord* found = nullptr;
    if (position < by_position_.size() && by_position_[position].first == java_id) {
      found = by_position_[position].second;
    } else if (const auto it = by_java_id_.find(java_id); it != by_java_id_.end()) {
      found = it->second;
      if (position != kNoPosition) {
        if (by_position_.size() <= position) by_position_.resize(position + 1, {0, nullptr});
        by_position_[position] = {java_id, found};
      }
    }
    // `ended` is set together with the kEnded storage value below.
    if (found != nullptr) return found->ended ? nullptr : found;
  }
  void* stored = nullptr;
  if (jvmti_->GetThreadLocalStorage(thread, &stored) != JVMTI_ERROR_NONE || stored == kEnded) return nullptr;
  if (ThreadRecord* record = own(stored); record != nullptr) return record;
  ThreadRecord* record = create_locked(jni, thread, 0);
  if (names == nullptr) return record;
  const std::string comm = kernel_name_of(record->entry.name);
  const auto it = names->find(comm);
  if (it == names->end()) return record;
  std::vector<std::int32_t> candidates;
  for (std::int32_t tid : it->second)
    if (tid != static_cast<std::int32_t>(getpid()) &&
        std::find(claimed_tids_.begin(), claimed_tids_.end(), tid) == claimed_tids_.end())
      candidates.push_back(tid);
  if (candidates.size() == 1) {  // an ambiguous name leaves the tid unknown rather than wrong
    record->entry.os_tid = candidates.front();
    claimed_tids_.push_back(candidates.front());
  }
  return record;
}

std::int32_t ThreadRegistry::reference(ThreadRecord* record, const char* current_name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!record->referenced) {
    record->referenced = true;
    record->entry.index = next_index_++;
    record->dirty = true;
  }
  if (current_name != nullptr) {
    std::string name = standard_utf8(current_name);
    if (record->entry.name != name) {
      record->entry.name = std::move(name);
      record->dirty = true;
    }
  }
  return record->entry.os_tid;
}

ThreadRecord* ThreadRegistry::find_by_java_id(std::int64_t java_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_java_id_.find(java_id);
  return it != by_java_id_.end() && !it->second->ended ? it->second : nullptr;
}

void ThreadRegistry::mark_sampler(JNIEnv* jni, jthread thread) {
  ThreadRecord* record = find_or_add(jni, thread, nullptr, kNoPosition);
  std::lock_guard<std::mutex> lock(mutex_);
  if (record != nullptr) record->is_sampler = true;
}

std::vector<calltree::ThreadEntry> ThreadRegistry::take_changed() {
  std::vector<calltree::ThreadEntry> out;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& record : records_) {
    if (record == nullptr) continue;
    if (record->referenced && record->dirty) {
      out.push_back(record->entry);
      record->dirty = false;
    }
    if (record->ended && !record->dirty) {
      by_position_.clear();  // it may point to this record
      // One claim only: the launcher's main thread, detached as `main` ends, attaches again as
      // DestroyJavaVM (JDK 17's jni_DestroyJavaVM), a new Java thread on the same task.
      if (const auto it = std::find(claimed_tids_.begin(), claimed_tids_.end(), record->entry.os_tid);
          it != claimed_tids_.end())
        claimed_tids_.erase(it);
      if (record->entry.os_tid != 0) ended_tids_.emplace_back(record->entry.os_tid, monotonic_ns());
      if (const auto it = by_java_id_.find(record->entry.java_id);
          it != by_java_id_.end() && it->second == record.get())
        by_java_id_.erase(it);
      record.reset();
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  return out;
}

std::uint32_t ThreadRegistry::allocate_index() {
  std::lock_guard<std::mutex> lock(mutex_);
  return next_index_++;
}

void ThreadRegistry::java_tids(std::vector<std::int32_t>& out) {
  // An exiting thread runs on for microseconds after its ThreadEnd; a second is far beyond that
  // even on a loaded machine, and tids are not reused that fast (pid_max).
  constexpr std::int64_t kEndedKeptNs = 1'000'000'000;
  const std::int64_t now = monotonic_ns();
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(ended_tids_, [&](const auto& e) { return now - e.second > kEndedKeptNs; });
  out.assign(claimed_tids_.begin(), claimed_tids_.end());
  for (const auto& e : ended_tids_) out.push_back(e.first);
  std::sort(out.begin(), out.end());
}

bool ThreadRegistry::names_unresolved_java_thread(const std::string& comm) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& record : records_)
    if (record != nullptr && record->entry.os_tid == 0 && !record->ended && !record->is_sampler &&
        kernel_name_of(record->entry.name) == comm)
      return true;
  return false;
}

void ThreadRegistry::release(JNIEnv* jni) {
  const std::lock_guard<std::mutex> lock(mutex_);
  released_ = true;
  jint count = 0;
  jthread* threads = nullptr;
  if (jvmti_->GetAllThreads(&count, &threads) == JVMTI_ERROR_NONE) {  // not after VMDeath: the JVM ends anyway
    for (jint i = 0; i < count; ++i) {
      void* stored = nullptr;
      if (jvmti_->GetThreadLocalStorage(threads[i], &stored) == JVMTI_ERROR_NONE && own(stored) != nullptr)
        jvmti_->SetThreadLocalStorage(threads[i], nullptr);
      jni->DeleteLocalRef(threads[i]);
    }
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(threads));
  }
  records_.clear();
  by_java_id_.clear();
  by_position_.clear();
  claimed_tids_.clear();
  ended_tids_.clear();
}

}  // namespace bn::agent
