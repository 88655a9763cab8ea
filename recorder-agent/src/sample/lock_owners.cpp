#include "sample/lock_owners.h"

#include <algorithm>

#include "core/jni_failed.h"
#include "core/local_frame.h"
#include "core/os_thread.h"

namespace bn::agent {
namespace {

jclass global_class(JNIEnv* jni, const char* name) {
  jclass local = jni->FindClass(name);
  if (failed(jni) || local == nullptr) return nullptr;
  auto global = static_cast<jclass>(jni->NewGlobalRef(local));
  jni->DeleteLocalRef(local);
  return global;
}

}  // namespace

LockOwners::LockOwners(jvmtiEnv* jvmti, ThreadRegistry& registry, int cpus)
    : jvmti_(jvmti), registry_(registry), cpus_(cpus) {}

std::uint32_t LockOwners::index_of(JNIEnv* jni, jthread owner) {
  ThreadRecord* o = registry_.find_or_add(jni, owner, nullptr, ThreadRegistry::kNoPosition);
  if (o == nullptr || o->is_sampler) return calltree::kNoThread;
  registry_.reference(o, nullptr);
  return o->entry.index;
}

std::uint32_t LockOwners::index_of_java_id(std::int64_t java_id) {
  ThreadRecord* o = java_id >= 0 ? registry_.find_by_java_id(java_id) : nullptr;
  if (o == nullptr || o->is_sampler) return calltree::kNoThread;
  registry_.reference(o, nullptr);
  return o->entry.index;
}

void LockOwners::note_blocked(JNIEnv* jni, jthread thread, const ThreadRecord& record, bool has_not_run,
                              std::size_t at) {
  if (!monitors_available_) return;
  const std::int64_t java_id = record.entry.java_id;
  auto it = std::find_if(blocked_.begin(), blocked_.end(), [&](const Blocked& b) { return b.java_id == java_id; });
  if (it == blocked_.end()) {
    it = blocked_.insert(blocked_.end(), Blocked{java_id, nullptr, tick_, {}, {}});
  } else if (it->tick != tick_) {  // blocked in the previous tick too
    it->tick = tick_;
    it->at.clear();
    if (!has_not_run && it->monitor != nullptr) {  // it ran: it may wait for another monitor now
      jni->DeleteGlobalRef(it->monitor);
      it->monitor = nullptr;
      it->owner = Owner{};
    }
  }
  it->at.push_back(at);
  if (it->monitor != nullptr) return;
  jobject monitor = nullptr;
  if (jvmti_->GetCurrentContendedMonitor(thread, &monitor) != JVMTI_ERROR_NONE || monitor == nullptr) return;
  it->monitor = jni->NewGlobalRef(monitor);
  jni->DeleteLocalRef(monitor);
}

std::uint32_t LockOwners::parked_owner(JNIEnv* jni, jthread thread, ThreadRecord& record, bool has_not_run) {
  if (has_not_run && record.parked_on == ThreadRecord::kNotOnSynchronizer) return calltree::kNoThread;
  if (!aqs_looked_up_) {
    aqs_looked_up_ = true;
    jclass thread_class = jni->FindClass("java/lang/Thread");
    if (!failed(jni) && thread_class != nullptr) {
      park_blocker_ = jni->GetFieldID(thread_class, "parkBlocker", "Ljava/lang/Object;");
      failed(jni);
      jni->DeleteLocalRef(thread_class);
    }
    synchronizer_class_ = global_class(jni, "java/util/concurrent/locks/AbstractOwnableSynchronizer");
    if (synchronizer_class_ != nullptr) {
      exclusive_owner_ = jni->GetFieldID(synchronizer_class_, "exclusiveOwnerThread", "Ljava/lang/Thread;");
      failed(jni);
    }
  }
  if (park_blocker_ == nullptr || exclusive_owner_ == nullptr) return calltree::kNoThread;
  const LocalFrame frame(jni);  // the blocker and its owner
  if (!frame) return calltree::kNoThread;
  jobject blocker = jni->GetObjectField(thread, park_blocker_);
  if (blocker == nullptr || !jni->IsInstanceOf(blocker, synchronizer_class_)) {
    record.parked_on = ThreadRecord::kNotOnSynchronizer;
    return calltree::kNoThread;
  }
  record.parked_on = ThreadRecord::kOnSynchronizer;
  jobject owner = jni->GetObjectField(blocker, exclusive_owner_);
  return owner != nullptr ? index_of(jni, owner) : calltree::kNoThread;
}

bool LockOwners::find_thread_info(JNIEnv* jni) {
  const LocalFrame frame(jni);
  if (!frame) return false;
  jclass factory = jni->FindClass("java/lang/management/ManagementFactory");
  if (failed(jni) || factory == nullptr) return false;
  jmethodID get_bean = jni->GetStaticMethodID(factory, "getThreadMXBean", "()Ljava/lang/management/ThreadMXBean;");
  if (failed(jni) || get_bean == nullptr) return false;
  jobject bean = jni->CallStaticObjectMethod(factory, get_bean);
  if (failed(jni) || bean == nullptr) return false;
  jclass bean_class = jni->FindClass("java/lang/management/ThreadMXBean");
  jclass info_class = jni->FindClass("java/lang/management/ThreadInfo");
  if (failed(jni) || bean_class == nullptr || info_class == nullptr) return false;
  get_thread_info_ = jni->GetMethodID(bean_class, "getThreadInfo", "([JI)[Ljava/lang/management/ThreadInfo;");
  get_lock_owner_id_ = jni->GetMethodID(info_class, "getLockOwnerId", "()J");
  if (failed(jni) || get_thread_info_ == nullptr || get_lock_owner_id_ == nullptr) return false;
  thread_bean_ = jni->NewGlobalRef(bean);
  return thread_bean_ != nullptr;
}

bool LockOwners::owners_by_thread_info(JNIEnv* jni, const std::vector<std::int64_t>& waiters,
                                       std::vector<std::int64_t>& out) {
  const LocalFrame frame(jni);  // the id array, the ThreadInfo array and its elements
  if (!frame) return false;
  const auto n = static_cast<jsize>(waiters.size());
  jlongArray ids = jni->NewLongArray(n);
  if (failed(jni) || ids == nullptr) return false;
  jni->SetLongArrayRegion(ids, 0, n, waiters.data());
  // maxDepth 0: no stack, so no safepoint (see the header).
  auto infos = static_cast<jobjectArray>(jni->CallObjectMethod(thread_bean_, get_thread_info_, ids, jint{0}));
  if (failed(jni) || infos == nullptr) return false;
  out.assign(waiters.size(), -1);
  for (jsize i = 0; i < n; ++i) {
    jobject info = jni->GetObjectArrayElement(infos, i);  // null if the thread has ended
    if (info == nullptr) continue;
    out[static_cast<std::size_t>(i)] = jni->CallLongMethod(info, get_lock_owner_id_);
    if (failed(jni)) out[static_cast<std::size_t>(i)] = -1;
    jni->DeleteLocalRef(info);
  }
  return true;
}

std::int64_t LockOwners::owner_by_monitor_usage(JNIEnv* jni, jobject monitor, std::int64_t& held_ns) {
  const LocalFrame frame(jni);  // the owner and the waiters
  if (!frame) return -1;
  jvmtiMonitorUsage usage{};
  const std::int64_t before = monotonic_ns();
  const jvmtiError err = jvmti_->GetObjectMonitorUsage(monitor, &usage);
  // A safepoint on JDK 17: every running thread was held for it.
  const std::int64_t stopped = monotonic_ns() - before;
  stopped_ns_ += stopped;
  held_ns += stopped * cpus_;
  if (err != JVMTI_ERROR_NONE) return -1;
  const ThreadRecord* o =
      usage.owner != nullptr ? registry_.find_or_add(jni, usage.owner, nullptr, ThreadRegistry::kNoPosition) : nullptr;
  const std::int64_t owner = o != nullptr ? o->entry.java_id : -1;
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.waiters));
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.notify_waiters));
  return owner;
}

void LockOwners::look_up(JNIEnv* jni, const std::vector<std::size_t>& first_of, const std::vector<std::size_t>& asked,
                         std::vector<std::int64_t>& owner_of, std::int64_t& held_ns) {
  // The first lookup loads and initialises java.management's classes and links the calls it
  // makes (string concatenation's bootstrap among them): tens of milliseconds of CPU, once,
  // which are set-up, not a cost per tick.
  const bool first = lookup_ == Lookup::kUnknown;
  const std::int64_t before = thread_cpu_ns();
  if (first) lookup_ = find_thread_info(jni) ? Lookup::kThreadInfo : Lookup::kMonitorUsage;
  if (lookup_ == Lookup::kThreadInfo) {
    std::vector<std::int64_t> waiters, owners;
    for (const std::size_t g : asked) waiters.push_back(blocked_[first_of[g]].java_id);
    if (owners_by_thread_info(jni, waiters, owners))
      for (std::size_t k = 0; k < asked.size(); ++k) owner_of[asked[k]] = owners[k];
  } else {
    for (const std::size_t g : asked) owner_of[g] = owner_by_monitor_usage(jni, blocked_[first_of[g]].monitor, held_ns);
  }
  lookups_ += asked.size();
  const std::int64_t spent = thread_cpu_ns() - before;
  if (first) {
    setup_ns_ = spent;
    unpaced_ns_ += spent;
  } else {
    lookup_ns_ += spent;
  }
}

std::int64_t LockOwners::clock_of(std::int64_t java_id) {
  const ThreadRecord* o = java_id >= 0 ? registry_.find_by_java_id(java_id) : nullptr;
  return o != nullptr ? o->last_cpu_ns : -1;
}

bool LockOwners::still_holds(const Owner& owner) {
  return owner.java_id >= 0 && owner.cpu_ns >= 0 && clock_of(owner.java_id) == owner.cpu_ns;
}

void LockOwners::resolve(JNIEnv* jni, std::vector<calltree::SampleRecord>& records, std::int64_t& held_ns) {
  // Threads no longer blocked let go of their monitor.
  std::erase_if(blocked_, [&](Blocked& b) {
    if (b.tick == tick_) return false;
    if (b.monitor != nullptr) jni->DeleteGlobalRef(b.monitor);
    return true;
  });
  ++tick_;
  // Groups: the first waiter of each distinct monitor stands for the others.
  std::vector<std::size_t> first_of;  // by group: index into blocked_
  std::vector<std::size_t> group(blocked_.size());
  for (std::size_t i = 0; i < blocked_.size(); ++i) {
    if (blocked_[i].monitor == nullptr) continue;
    std::size_t g = 0;
    while (g < first_of.size() && !jni->IsSameObject(blocked_[first_of[g]].monitor, blocked_[i].monitor)) ++g;
    if (g == first_of.size()) first_of.push_back(i);
    group[i] = g;
  }
  if (first_of.empty()) return;
  // A group's owner is still the one a waiter's last lookup found if that owner has not run
  // since: waiters with a monitor kept from the last tick have not run either (note_blocked).
  constexpr std::int64_t kUnknown = -2;
  std::vector<std::int64_t> owner_of(first_of.size(), kUnknown);
  for (std::size_t i = 0; i < blocked_.size(); ++i)
    if (blocked_[i].monitor != nullptr && owner_of[group[i]] == kUnknown && still_holds(blocked_[i].owner))
      owner_of[group[i]] = blocked_[i].owner.java_id;
  std::vector<std::size_t> asked;  // groups to look up
  for (std::size_t g = 0; g < first_of.size(); ++g)
    if (owner_of[g] == kUnknown) asked.push_back(g);
  reused_ += first_of.size() - asked.size();
  if (!asked.empty()) look_up(jni, first_of, asked, owner_of, held_ns);
  for (std::int64_t& owner : owner_of) owner = std::max<std::int64_t>(owner, -1);  // a failed lookup: none
  std::vector<std::uint32_t> index(first_of.size());
  for (std::size_t g = 0; g < first_of.size(); ++g) index[g] = index_of_java_id(owner_of[g]);
  for (std::size_t i = 0; i < blocked_.size(); ++i) {
    if (blocked_[i].monitor == nullptr) continue;
    const std::int64_t owner = owner_of[group[i]];
    blocked_[i].owner = Owner{owner, clock_of(owner)};
    for (const std::size_t at : blocked_[i].at) records[at].owner = index[group[i]];
  }
}

void LockOwners::describe(calltree::Metadata& m) const {
  m.set_extra("owner_lookups", std::to_string(lookups_));
  m.set_extra("owners_reused", std::to_string(reused_));
  m.set_extra("owner_lookup_cpu_ns", std::to_string(lookup_ns_));
  m.set_extra("owner_lookup_setup_cpu_ns", std::to_string(setup_ns_));
  m.set_extra("owner_lookup_vm_stopped_ns", std::to_string(stopped_ns_));
  m.set_extra("owner_lookup_method", lookup_ == Lookup::kMonitorUsage ? "GetObjectMonitorUsage"
                                     : lookup_ == Lookup::kThreadInfo ? "ThreadMXBean.getThreadInfo"
                                                                      : "none needed");
}

}  // namespace bn::agent
