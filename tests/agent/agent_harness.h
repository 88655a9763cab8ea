#pragma once
// Runs the tiny Java programs of tests/agent/java under the recorder agent: compiles one with
// javac into the build tree at test time, starts the JVM with a hard timeout, optionally signals
// it, and loads the profile with the project's reader.

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "bn/calltree/sample_records.h"

namespace bn::test {

// The command-line tool of this build, which the record and repl tests run.
inline const std::string kCli = std::string(BN_BINARY_DIR) + "/bottlenecks";

struct JavaRun {
  int exit_code = -1;  // process exit status, or -signal
  bool timed_out = false;
  std::string err;  // stderr
  std::string out;  // stdout
};

struct JavaRunOptions {
  std::string main_class;
  std::vector<std::string> jvm_args;  // before the class, e.g. -Xlog options
  std::vector<std::string> args;
  std::string agent_options;  // empty: no agent
  std::string class_path;     // jars the program is compiled against and runs with, ':'-separated
  std::chrono::milliseconds timeout{60'000};
  int signal = 0;  // sent once `signal_after` has passed
  std::chrono::milliseconds signal_after{0};
};

// A fresh directory for one test's files, under the build tree.
std::filesystem::path work_dir(const std::string& name);
// Compiles tests/agent/java/<main_class>.java (once per build; against `class_path`, if not empty)
// and returns its class directory.
std::filesystem::path compiled(const std::string& main_class, const std::string& class_path = {});
// Compiles every source of samples/<sample>/src (once per build) and returns its class directory;
// `main_class` is dotted ("mail.Mailroom").
std::filesystem::path compiled_sample(const std::string& sample, const std::string& main_class);
JavaRun run_java(const JavaRunOptions& options);
// Runs any command with a timeout (jcmd, the bottlenecks CLI).
JavaRun run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout, int signal = 0,
                    std::chrono::milliseconds signal_after = {});
std::string java_tool(const std::string& name);  // e.g. "jcmd" in the JDK under test
// The pid of the running JVM whose `jcmd -l` line contains `marker`, polling for up to ~10 s
// while it starts; empty if none appears.
std::string find_jvm_pid(const std::string& marker);

struct Profile {
  calltree::LoadedProfile loaded;
  calltree::SampleData samples;
};
Profile load(const std::filesystem::path& file, bool accept_unfinished = false);
// Whether `file` holds a complete profile (its END chunk written).
bool is_complete(const std::filesystem::path& file);

// Loads this build's agent into the running JVM `pid` with `options` (jcmd JVMTI.agent_load). jcmd
// exits 0 either way: its output says "return code: 0" if the agent started, "-1" if it refused.
JavaRun load_agent(const std::string& pid, const std::string& options);

// A JVM for the tests that attach to one: by default Ending "wait" (it spins for a minute unless
// ended), else `main_class` with `args`, without the agent, run on a thread of its own and found
// in `jcmd -l` by a marker made of `name` and this process's pid (its last argument). end() sends
// it SIGTERM and waits for it; the destructor does so if the test did not, also when a REQUIRE
// throws.
class AttachTarget {
 public:
  explicit AttachTarget(const std::string& name, const std::string& main_class = "Ending",
                        const std::vector<std::string>& args = {"wait"});
  ~AttachTarget() { end(); }
  AttachTarget(const AttachTarget&) = delete;
  AttachTarget& operator=(const AttachTarget&) = delete;

  const std::string& pid() const { return pid_; }  // empty if the JVM never appeared
  bool running() const;
  const JavaRun& end();  // its exit status and output

 private:
  JavaRun run_;
  std::atomic<bool> exited_{false};  // run_java returned: the pid may be another process's now
  std::thread thread_;
  std::string pid_;
};

// Records of Java threads: the samples the recorded tree counts, one each. The JVM's own threads
// (pseudo classes "[JVM ...]": JIT compilers, GC, the sampler) have records of their CPU only
// (docs/recorder.md, "Threads that are not Java threads").
std::size_t java_samples(const calltree::SampleData& d);
// Index of the thread with this name, if it was sampled.
std::optional<std::uint32_t> thread_named(const calltree::SampleData& d, const std::string& name);
// True if `node` or one of its ancestors runs `method` (a dotted frame name).
bool stack_contains(const calltree::CallTree& tree, calltree::NodeId node, const std::string& method);

}  // namespace bn::test
