// `bottlenecks record`: the front end of the recorder agent (docs/recorder.md).
//   bottlenecks record -o FILE [options] -- java ARGS...   start a JVM with the agent
//   bottlenecks record --pid PID --duration 30s -o FILE    attach to a running JVM (jcmd)

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "commands.h"
#include "record/child_process.h"
#include "record/jvm_attach.h"
#include "record/record_deadline.h"

namespace bn::cli {
namespace {

namespace fs = std::filesystem;

struct RecordOptions {
  std::string output;
  std::string interval = "20ms";
  std::string max_overhead;
  std::string delay;
  std::string duration;
  std::string flush;
  std::string snapshot;
  std::string stacks;
  std::string mode;
  std::string include;
  std::string exclude;
  std::string trivial;
  std::string clock;
  std::string methods;  // a label file; made absolute, since the JVM's working directory may differ
  std::string tree_memory;
  std::string agent;  // default: libbottlenecks-agent.so beside this executable
  int pid = 0;
  std::vector<std::string> command;
};

fs::path default_agent() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the agent: /proc/self/exe unreadable; pass --agent");
  return self.parent_path() / "libbottlenecks-agent.so";
}

// One `,key=value` of the agent's option string. The agent splits its options at ',' and jcmd
// takes them as one double-quoted word, so a value holding either (or a control character) would
// inject options or break the command: refused, naming the command-line option.
void append_agent_option(std::string& options, const char* key, const std::string& value, const char* flag) {
  for (const char c : value)
    if (c == ',' || c == '"' || static_cast<unsigned char>(c) < 0x20)
      throw Error(std::string(flag) + ": '" + value + "' holds " +
                  (c == ','   ? "','"
                   : c == '"' ? "'\"'"
                              : "a control character") +
                  ", which the agent's comma-separated options cannot carry");
  options += std::string(options.empty() ? "" : ",") + key + "=" + value;
}

// The agent's option string. Its own parser validates the values; `strict` makes a bad one
// stop the JVM instead of running unprofiled, so `record` never silently records nothing.
std::string agent_options(const RecordOptions& o, const fs::path& output) {
  std::string s;
  append_agent_option(s, "file", output.string(), "-o");
  append_agent_option(s, "interval", o.interval, "--interval");
  const std::string methods = o.methods.empty() ? std::string() : fs::absolute(o.methods).string();
  const std::pair<const char*, const std::string*> optional[] = {
      {"maxoverhead", &o.max_overhead}, {"delay", &o.delay},     {"duration", &o.duration}, {"flush", &o.flush},
      {"snapshot", &o.snapshot},        {"stacks", &o.stacks},   {"mode", &o.mode},         {"include", &o.include},
      {"exclude", &o.exclude},          {"trivial", &o.trivial}, {"clock", &o.clock},       {"methods", &methods},
      {"treememory", &o.tree_memory}};
  const char* flags[] = {"--max-overhead", "--delay",   "--duration", "--flush", "--snapshot", "--stacks",     "--mode",
                         "--include",      "--exclude", "--trivial",  "--clock", "--methods",  "--tree-memory"};
  for (std::size_t i = 0; i < std::size(optional); ++i)
    if (!optional[i].second->empty()) append_agent_option(s, optional[i].first, *optional[i].second, flags[i]);
  return "strict," + s;
}

// Before the program runs for minutes: the profile must be creatable where it goes.
void check_output_directory(const fs::path& output) {
  const fs::path dir = output.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error("cannot record into '" + output.string() + "': no directory '" + dir.string() + "'");
  if (::access(dir.c_str(), W_OK) != 0)
    throw Error("cannot record into '" + output.string() + "': directory '" + dir.string() +
                "' is not writable: " + std::strerror(errno));
}

// `-agentpath` means something only to a java launcher; anything else would get it as an argument.
void check_java_launcher(const std::string& command) {
  const std::string name = fs::path(command).filename().string();
  if (name != "java")
    throw Error("'" + command +
                "' is not a java launcher: record runs `java ARGS...` with -agentpath (for another "
                "launcher, set JAVA_TOOL_OPTIONS=-agentpath:... or attach with --pid)");
}

// SIGINT and SIGTERM go to `handler` for the object's lifetime (`record` decides what a Ctrl-C
// means while it waits: forward it to the JVM it started, or ask an attached agent to stop).
class InterruptsHandled {
 public:
  explicit InterruptsHandled(void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptsHandled() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptsHandled(const InterruptsHandled&) = delete;
  InterruptsHandled& operator=(const InterruptsHandled&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// The child being waited for, for the signal handler below.
volatile sig_atomic_t g_child = 0;

// SIGINT/SIGTERM sent to `bottlenecks record` go to the JVM, which completes the profile as it
// shuts down; we keep waiting for it. (A terminal's Ctrl-C reaches both; the JVM gets it twice,
// which it treats as one shutdown.)
void forward_signal(int sig) {
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

// Runs argv, waits for it and returns its exit status (128 + signal if killed).
int run_and_wait(const std::vector<std::string>& argv) {
  const pid_t child = start_child(argv);
  g_child = child;
  int status = 0;
  {
    const InterruptsHandled forwarded(forward_signal);
    status = wait_child(child);
  }
  g_child = 0;
  return status;
}

std::string java_tool(const char* name) {
  const char* home = std::getenv("JAVA_HOME");
  return home != nullptr && *home != '\0' ? std::string(home) + "/bin/" + name : name;
}

// Whether `file` holds a complete profile (END chunk). Polled while a recording runs, for hours
// perhaps, beside the program recorded: the whole file is read only once its tail says END.
bool is_complete(const fs::path& file) {
  if (!calltree::ends_with_end_chunk(file)) return false;
  try {
    calltree::read_profile(file);
    return true;
  } catch (const Error&) {
    return false;  // still being written
  }
}

// The signal (SIGINT, SIGTERM) that asked `record --pid` to end the recording early; 0 if none.
volatile sig_atomic_t g_stop_signal = 0;

// The first Ctrl-C or SIGTERM asks for the recording to end (the target is no child of ours,
// so a terminal's Ctrl-C never reaches it); a second one ends `record` the usual way.
void ask_stop(int sig) {
  g_stop_signal = sig;
  struct sigaction usual {};
  usual.sa_handler = SIG_DFL;
  sigaction(SIGINT, &usual, nullptr);
  sigaction(SIGTERM, &usual, nullptr);
}

// `record --pid`: loads the agent into the running JVM and waits until `output` is complete: at
// --duration's end, when the target exits, or once a Ctrl-C (SIGINT, SIGTERM) or own_end_within()
// has asked the agent to stop (jcmd returns when the file is complete; the target runs on).
void record_attached(const RecordOptions& o, const fs::path& agent, const std::string& options,
                     const fs::path& output) {
  check_attachable(o.pid);
  const std::string jcmd = java_tool("jcmd");
  const InterruptsHandled stop_asked(ask_stop);
  g_stop_signal = 0;
  load_agent(jcmd, o.pid, agent.string(), options);
  // A recording without --duration may run for hours with nothing on the screen: say how it ends.
  std::cerr << "bottlenecks: recording process " << o.pid << " into " << output.string()
            << (o.duration.empty() ? " until Ctrl-C or its exit" : " for " + o.duration + " (Ctrl-C ends it sooner)")
            << '\n';
  const auto within = own_end_within(o.mode, o.delay, o.duration);
  const auto started = std::chrono::steady_clock::now();
  while (!is_complete(output)) {
    const bool overdue = within && std::chrono::steady_clock::now() - started >= *within;
    if (g_stop_signal != 0 || overdue) {
      if (overdue)
        std::cerr << "bottlenecks: warning: the recording of process " << o.pid
                  << " had not ended a minute after its --delay and --duration; stopping it\n";
      else
        std::cerr << "bottlenecks: stopping the recording of process " << o.pid << '\n';
      try {
        load_agent(jcmd, o.pid, agent.string(), "stop,file=" + output.string());
      } catch (const Error&) {
        if (!is_complete(output)) throw;  // else it ended by itself meanwhile
      }
      if (!is_complete(output))
        throw Error("no complete profile in '" + output.string() + "' (see the target JVM's stderr)");
      break;
    }
    // Without --duration the agent completes the file when the JVM exits.
    if (kill(o.pid, 0) != 0 && errno == ESRCH) {
      if (is_complete(output)) break;
      throw Error("no complete profile in '" + output.string() + "': process " + std::to_string(o.pid) +
                  " ended before the agent completed it (see its stderr)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::cout << "bottlenecks: recorded process " << o.pid << " into " << output.string() << '\n';
}

void run_record(const RecordOptions& o, const std::vector<std::string>& extras) {
  // CLI11 lists a `--` it consumed among the extras; anything else is an option of the java command.
  for (const std::string& extra : extras)
    if (extra != "--")
      throw Error("unexpected '" + extra + "': put the java command line after --, e.g. record -o " + o.output +
                  " -- java -jar app.jar");
  const fs::path output = fs::absolute(o.output);
  const fs::path agent = o.agent.empty() ? default_agent() : fs::absolute(o.agent);
  if (!fs::exists(agent)) throw Error("cannot find the agent '" + agent.string() + "'; pass --agent");
  check_output_directory(output);
  const std::string options = agent_options(o, output);
  if (o.pid != 0) {
    if (!o.command.empty()) throw Error("give either --pid or a command after --, not both");
    record_attached(o, agent, options, output);
    return;
  }
  if (o.command.empty()) throw Error("nothing to record: give --pid PID or -- java ARGS...");
  check_java_launcher(o.command.front());
  std::vector<std::string> argv{o.command.front(), "-agentpath:" + agent.string() + "=" + options};
  argv.insert(argv.end(), o.command.begin() + 1, o.command.end());
  const int rc = run_and_wait(argv);
  // The launcher could not be run (start_child's child said why): there is no profile to name.
  if (rc == 127 && !fs::exists(output)) throw CLI::RuntimeError(rc);
  calltree::read_profile(output);  // throws, naming the file, if the agent left no valid profile
  if (rc != 0) {
    // The profile is complete, but the program failed: say so and exit with its status.
    std::cerr << "bottlenecks: the program exited with status " << rc << "; its profile is in " << output.string()
              << '\n';
    throw CLI::RuntimeError(rc);
  }
}

}  // namespace

void setup_record(CLI::App& app) {
  auto options = std::make_shared<RecordOptions>();
  CLI::App* sub = app.add_subcommand(
      "record",
      "Record a Java program with the agent (sampling, or --mode calltree): record -o FILE -- java ARGS..., "
      "or record --pid PID --duration 30s -o FILE");
  sub->add_option("-o,--output", options->output, "Profile file to write")->required();
  sub->add_option("--pid", options->pid,
                  "Attach to this running JVM (with jcmd) instead of starting one; records until --duration, "
                  "Ctrl-C (which completes FILE and leaves the JVM running) or the JVM's end; once a recording "
                  "has ended, another may start");
  sub->add_option("--interval", options->interval, "Mean sampling interval (jittered)")->capture_default_str();
  sub->add_option("--max-overhead", options->max_overhead, "Bound on the agent's cost, e.g. 1%");
  sub->add_option("--delay", options->delay, "Wait this long before the first sample, e.g. 30s");
  sub->add_option("--duration", options->duration,
                  "Stop recording after this long, e.g. 30s (calltree: counted from the first instrumented call, "
                  "then the original classes are restored)");
  sub->add_option("--flush", options->flush, "Append to the file this often (default 1s)");
  sub->add_option("--snapshot", options->snapshot, "Also rewrite FILE.snapshot this often");
  sub->add_option("--stacks", options->stacks,
                  "How running threads' stacks are taken: signal (default, AsyncGetCallTrace) or handshake")
      ->check(CLI::IsMember({"signal", "handshake"}));
  sub->add_option("--mode", options->mode,
                  "sample (default: stacks of every thread at intervals) or calltree (every call of every "
                  "instrumented method: exact call counts and times: metrics time and calls)")
      ->check(CLI::IsMember({"sample", "calltree"}));
  sub->add_option("--include", options->include,
                  "calltree: instrument only classes matching these globs, ':'-separated, e.g. 'com.acme.*' "
                  "('*': every class, the JDK's too; default: the application's classes)");
  sub->add_option("--exclude", options->exclude, "calltree: never instrument classes matching these globs");
  sub->add_option("--trivial", options->trivial,
                  "calltree: skip (default: tiny loop-free methods that call nothing get no probes), wrappers (tiny "
                  "loop-free methods that call only their package's methods get none either: fewer calls, and the "
                  "tree no longer shows them) or count")
      ->check(CLI::IsMember({"skip", "wrappers", "count"}));
  sub->add_option("--clock", options->clock,
                  "calltree: tick (default: exact call counts, time divided among calling contexts at each 1 ms "
                  "tick) or exact (the clock read at every entry and exit: exact times, slower)")
      ->check(CLI::IsMember({"tick", "exact"}));
  sub->add_option("--methods", options->methods,
                  "calltree: instrument only the methods of this label file (saved by the REPL's save)")
      ->check(CLI::ExistingFile);
  sub->add_option("--tree-memory", options->tree_memory,
                  "calltree: bound on the per-thread call trees' memory, e.g. 2g (default: an eighth of physical "
                  "memory); past it, calls in new calling contexts are counted under '(call tree full)'");
  sub->add_option("--agent", options->agent, "Path of libbottlenecks-agent.so (default: beside bottlenecks)");
  sub->add_option("command", options->command, "The java command line, after --");
  // Without --, CLI11 would refuse the java command's own options with a message that does not
  // say what to do; run_record names the first one and suggests --.
  sub->allow_extras();
  sub->callback([options, sub] { run_record(*options, sub->remaining()); });
}

}  // namespace bn::cli
