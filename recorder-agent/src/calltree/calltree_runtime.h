#pragma once
// What mode=calltree leaves in the JVM for good, shared by every call-tree recording of it: the
// Java side (the runtime jar on the boot class path, the transformer loaded once, TreeMemory's
// natives bound to this object's memory), the per-thread trees in that memory, and the names of
// every method the transformer registered. None of it can go when a recording ends: frames still
// running instrumented code hold their nodes and call the probes (Probe.java), and the boot class
// path cannot be taken back. So the first call-tree recording makes it, later ones reuse it, and
// it is never freed. Each recording reports only what the trees gained after its start
// (DrainedTrees::start).
//
// Touched by one recording at a time: its start (on the attach thread, or VMInit's) and its
// flusher thread; the agent starts a recording only once the one before has ended.

#include <jvmti.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bn/agent/options.h"
#include "bn/agent/status.h"
#include "calltree/drained_trees.h"
#include "calltree/java_side.h"
#include "calltree/tree_memory.h"

namespace bn::agent {

class CallTreeRuntime {
 public:
  // The JVM's runtime, made by the first call with the trees' bound `tree_memory` (treememory=,
  // or default_tree_memory()): later calls get the same one, whatever they ask (start_recording
  // refuses a different treememory=). May throw std::bad_alloc.
  static CallTreeRuntime& of_jvm(std::uint64_t tree_memory);

  CallTreeRuntime(const CallTreeRuntime&) = delete;
  CallTreeRuntime& operator=(const CallTreeRuntime&) = delete;

  // In Agent_OnLoad, for a recording started with -agentpath: the runtime jar goes on the boot
  // class path now, where the JVM takes it without a warning (JavaSide::put_on_boot_class_path).
  // If this fails, start_recording tries again.
  void prepare_at_load(jvmtiEnv* jvmti);
  // A recording starts with `options`: the Java side is loaded if it is not yet, the transformer
  // configured (trivial=, `methods`: methods=, null for every method), the clock started
  // (clock=tick) and the baseline of `drained` taken (the trees' counts as of now). A later
  // recording's treememory= other than the bound in force is refused: the trees it bounds are
  // the first recording's, and stay.
  Status start_recording(jvmtiEnv* jvmti, JNIEnv* jni, const Options& options, const std::vector<std::string>* methods,
                         DrainedTrees& drained);
  // Every tree as of now, and the names registered since the last call (also kept for the
  // baselines of later recordings): JavaSide::snapshot.
  Status snapshot(JNIEnv* jni, std::vector<TreeView>& trees, std::vector<std::string>& new_names);

  JavaSide& java() { return java_; }
  const JavaSide& java() const { return java_; }
  TreeMemory& memory() { return memory_; }
  const TreeMemory& memory() const { return memory_; }
  // keep_transformer_out_of_c2's outcome when the Java side was loaded, for the metadata.
  const std::string& transformer_jit() const { return transformer_jit_; }

 private:
  explicit CallTreeRuntime(std::uint64_t tree_memory) : memory_(tree_memory) {}
  Status load(jvmtiEnv* jvmti, JNIEnv* jni);

  TreeMemory memory_;
  JavaSide java_;
  std::vector<std::string> names_;  // every method name taken from MethodNames, by Java id
  std::string transformer_jit_;
};

}  // namespace bn::agent
