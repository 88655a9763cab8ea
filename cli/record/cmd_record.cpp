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
#include "bn/fleet/fleet_url.h"
#include "commands.h"
#include "profile_options.h"
#include "record/agent_flags.h"
#include "record/child_process.h"
#include "record/jvm_attach.h"
#include "record/record_deadline.h"
#include "record/recording_pusher.h"

namespace bn::cli {
namespace {

namespace fs = std::filesystem;

struct RecordOptions {
  std::string output;
  AgentFlagValues agent_values;  // the agent's options, by key (agent_flags.h)
  std::string agent;             // default: libbottlenecks-agent.so beside this executable
  int pid = 0;
  std::vector<std::string> command;
  std::string push;  // a clickhouse:// store to push the recording to
  std::vector<std::string> labels;
  std::string every;  // push each snapshot's growth this often
};

// The fleet store's pusher, if --push asks for one; sets the agent's snapshot= for --every.
std::unique_ptr<RecordingPusher> pusher_for(RecordOptions& o, const fs::path& output) {
  if (o.push.empty()) {
    if (!o.labels.empty() || !o.every.empty()) throw Error("--label and --every go with --push URL");
    return nullptr;
  }
  fleet::FleetUrl url =
      parsing_option("--push", [&] { return fleet::parse_fleet_url(o.push, fleet::now_unix_seconds()); });
  const fleet::PushLabels labels = push_labels(o.labels);
  if (!o.every.empty()) {
    if (chosen_mode(o.agent_values) != "sample")
      throw Error("--every: only the sampling mode writes snapshots; the call-tree mode pushes once, at the end");
    if (const auto given = o.agent_values.find("snapshot"); given != o.agent_values.end() && !given->second.empty())
      throw Error("--every sets --snapshot: give one of them");
    o.agent_values["snapshot"] = {o.every};
  }
  return std::make_unique<RecordingPusher>(std::move(url), labels, output, !o.every.empty());
}

fs::path default_agent() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the agent: /proc/self/exe unreadable; pass --agent");
  return self.parent_path() / "libbottlenecks-agent.so";
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
  const auto value_of = [&o](std::string_view key) {
    const auto given = o.agent_values.find(key);
    return given == o.agent_values.end() || given->second.empty() ? std::string() : given->second.back();
  };
  const std::string duration = value_of("duration");
  // A recording without --duration may run for hours with nothing on the screen: say how it ends.
  std::cerr << "bottlenecks: recording process " << o.pid << " into " << output.string()
            << (duration.empty() ? " until Ctrl-C or its exit" : " for " + duration + " (Ctrl-C ends it sooner)")
            << '\n';
  const auto within = own_end_within(chosen_mode(o.agent_values), value_of("delay"), duration);
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

void run_record(RecordOptions& o, const std::vector<std::string>& extras) {
  // CLI11 lists a `--` it consumed among the extras; anything else is an option of the java command.
  for (const std::string& extra : extras)
    if (extra != "--")
      throw Error("unexpected '" + extra + "': put the java command line after --, e.g. record -o " + o.output +
                  " -- java -jar app.jar");
  const fs::path output = fs::absolute(o.output);
  const fs::path agent = o.agent.empty() ? default_agent() : fs::absolute(o.agent);
  if (!fs::exists(agent)) throw Error("cannot find the agent '" + agent.string() + "'; pass --agent");
  check_output_directory(output);
  const std::unique_ptr<RecordingPusher> pusher = pusher_for(o, output);
  const std::string options = agent_option_string(o.agent_values, output);
  if (o.pid != 0) {
    if (!o.command.empty()) throw Error("give either --pid or a command after --, not both");
    record_attached(o, agent, options, output);
    if (pusher) pusher->finish();
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
  if (pusher) pusher->finish();    // a complete profile is pushed even if the program then failed
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
  add_agent_flags(*sub, options->agent_values);
  sub->add_option("--agent", options->agent, "Path of libbottlenecks-agent.so (default: beside bottlenecks)");
  sub->add_option("--push", options->push,
                  "When the recording is complete, push it to this fleet store: clickhouse://HOST:PORT/DB "
                  "(docs/fleet.md); needs --label service=S --label version=V")
      ->group("Fleet store");
  sub->add_option("--label", options->labels, "KEY=VALUE for --push, repeatable (as `push --label`)")
      ->group("Fleet store");
  sub->add_option("--every", options->every,
                  "With --push: continuous profiling of a long recording (sampling mode): every D, e.g. 1m, push "
                  "what the recording gained since the last push (the agent's snapshot=D)")
      ->group("Fleet store");
  sub->add_option("command", options->command, "The java command line, after --");
  // Without --, CLI11 would refuse the java command's own options with a message that does not
  // say what to do; run_record names the first one and suggests --.
  sub->allow_extras();
  sub->callback([options, sub] { run_record(*options, sub->remaining()); });
}

}  // namespace bn::cli
