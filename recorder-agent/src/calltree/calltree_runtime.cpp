#include "calltree/calltree_runtime.h"

#include "calltree/compiler_directives.h"
#include "core/agent_files.h"

namespace bn::agent {

CallTreeRuntime& CallTreeRuntime::of_jvm(std::uint64_t tree_memory) {
  // Never freed (calltree_runtime.h). Only Agent_OnLoad/OnAttach call this, one at a time.
  static CallTreeRuntime* runtime = nullptr;
  if (runtime == nullptr) runtime = new CallTreeRuntime(tree_memory);
  return *runtime;
}

Status CallTreeRuntime::load(jvmtiEnv* jvmti, JNIEnv* jni) {
  AgentFiles files;
  if (Status s = find_agent_files("calltree", files); !s.ok()) return s;
  if (Status s = java_.load(jvmti, jni, files.runtime_jar, files.transformer_jar, memory_); !s.ok()) return s;
  transformer_jit_ = keep_transformer_out_of_c2(jni);
  return Status();
}

void CallTreeRuntime::prepare_at_load(jvmtiEnv* jvmti) {
  AgentFiles files;
  if (find_agent_files("calltree", files).ok()) java_.put_on_boot_class_path(jvmti, files.runtime_jar);
}

Status CallTreeRuntime::start_recording(jvmtiEnv* jvmti, JNIEnv* jni, const Options& options,
                                        const std::vector<std::string>* methods, DrainedTrees& drained) {
  if (options.tree_memory > 0 && options.tree_memory != memory_.bound())
    return Status::error("treememory=" + std::to_string(options.tree_memory) + " differs from this JVM's " +
                         std::to_string(memory_.bound()) +
                         " bytes, set by its first call-tree recording for the threads' call trees, which stay "
                         "in the JVM: leave treememory= out, or give that value");
  if (!java_.loaded())
    if (Status s = load(jvmti, jni); !s.ok()) return s;
  if (Status s = java_.configure(jni, options.trivial, methods); !s.ok()) return s;
  if (Status s = java_.start_recording(jni); !s.ok()) return s;
  // The baseline: what the trees hold now is earlier recordings' (or made between them).
  std::vector<TreeView> trees;
  std::vector<std::string> new_names;
  if (Status s = snapshot(jni, trees, new_names); !s.ok()) return s;
  drained.start(trees, names_, memory_);
  memory_.restart_peak();
  return Status();
}

Status CallTreeRuntime::snapshot(JNIEnv* jni, std::vector<TreeView>& trees, std::vector<std::string>& new_names) {
  const std::size_t before = new_names.size();
  Status s = java_.snapshot(jni, trees, new_names);
  names_.insert(names_.end(), new_names.begin() + static_cast<std::ptrdiff_t>(before), new_names.end());
  return s;
}

}  // namespace bn::agent
