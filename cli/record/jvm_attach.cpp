#include "record/jvm_attach.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "record/child_process.h"

namespace bn::cli {
namespace {

// jcmd's whole answer is a few lines; a stack trace is a few kilobytes. Beyond this it is read
// and dropped, so that no output can grow our memory.
constexpr std::size_t kKeptOutput = std::size_t{64} * 1024;

struct Captured {
  int exit_status = 0;
  std::string output;  // stdout and stderr, interleaved as written
};

// Runs argv with stdout and stderr into one pipe; its exit status (128 + signal if killed).
Captured run_captured(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot start '") + argv[0] + "': " + std::strerror(errno));
  pid_t child = -1;
  try {
    child = start_child(argv, fds[1]);
  } catch (const Error&) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);
  Captured c;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    c.output.append(buffer,
                    std::min(static_cast<std::size_t>(n), kKeptOutput - std::min(kKeptOutput, c.output.size())));
  }
  close(fds[0]);
  c.exit_status = wait_child(child);
  return c;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// HotSpot's answer to JVMTI.agent_load when the library loaded: the agent's Agent_OnAttach
// result ("return code: -1"); empty without one.
std::string agent_return_code(const std::vector<std::string>& lines) {
  const std::string prefix = "return code: ";
  for (const std::string& line : lines)
    if (starts_with(line, prefix)) return line.substr(prefix.size());
  return "";
}

std::string process_name(int pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

}  // namespace

void check_attachable(int pid) {
  const std::string which = "--pid " + std::to_string(pid);
  if (pid <= 0) throw Error(which + ": not a process id");
  if (kill(pid, 0) != 0) {
    if (errno == ESRCH) throw Error(which + ": no such process");
    if (errno == EPERM)
      throw Error(which + ": the process belongs to another user; run record as that user (a JVM accepts " +
                  "attaching only from its own user)");
  }
  // Without read access to its maps (a hardened /proc) jcmd decides; otherwise a process with no
  // libjvm.so mapped is no HotSpot JVM, and jcmd would wait 10 s for it before failing.
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  if (!maps) return;
  for (std::string line; std::getline(maps, line);)
    if (ends_with(line, "/libjvm.so")) return;
  throw Error(which + ": process " + std::to_string(pid) + " (" + process_name(pid) +
              ") is not a Java virtual machine (no libjvm.so in its memory map)");
}

std::string attach_failure(int pid, int exit_status, const std::string& output) {
  const std::vector<std::string> lines = lines_of(output);
  const std::string process = "process " + std::to_string(pid);
  if (exit_status == 0) {
    if (const std::string code = agent_return_code(lines); !code.empty()) {
      if (code == "0") return "";
      return "the agent refused to start in " + process + " (return code " + code +
             "): a bad option, or a recording already in progress there; the reason is on that JVM's standard "
             "error";
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
      // The library's load failure, followed by dlopen's reason.
      if (ends_with(lines[i], " was not loaded.")) {
        const std::string reason = i + 1 < lines.size() ? ": " + lines[i + 1] : "";
        return "the JVM of " + process + " could not load the agent library" + reason;
      }
    }
    return "jcmd gave no answer from the JVM of " + process + (lines.empty() ? "" : ": " + lines.back());
  }
  // jcmd could not attach: the exception's message, not its stack trace.
  for (const std::string& line : lines) {
    const std::size_t at = line.find("Exception: ");
    if (at != std::string::npos && line.find(' ') > at)
      return "jcmd could not attach to " + process + ": " + line.substr(at + 11);
  }
  return "jcmd could not attach to " + process + " (exit status " + std::to_string(exit_status) + ")" +
         (lines.empty() ? "" : ": " + lines.front());
}

std::string refusal_reason(const std::string& properties) {
  const std::string key = "bottlenecks.agent.refused=";
  for (const std::string& line : lines_of(properties)) {
    if (!starts_with(line, key)) continue;
    // Properties.store escapes '\\', '=', ':', '#', '!', a leading blank, and writes \t \n \r \f;
    // the agent leaves printable ASCII only, so no \uXXXX.
    std::string value;
    for (std::size_t i = key.size(); i < line.size(); ++i) {
      if (line[i] != '\\' || i + 1 == line.size()) {
        value += line[i];
        continue;
      }
      const char c = line[++i];
      value += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f' : c;
    }
    return value;
  }
  return "";
}

void load_agent(const std::string& jcmd, int pid, const std::string& agent, const std::string& options) {
  // jcmd would split an unquoted key=value argument into a named option: quote it.
  const Captured c = run_captured({jcmd, std::to_string(pid), "JVMTI.agent_load", agent, "\"" + options + "\""});
  std::string failure = attach_failure(pid, c.exit_status, c.output);
  if (failure.empty()) return;
  if (c.exit_status == 0 && !agent_return_code(lines_of(c.output)).empty()) {  // the agent refused
    const Captured properties = run_captured({jcmd, std::to_string(pid), "VM.system_properties"});
    if (const std::string reason = refusal_reason(properties.output); properties.exit_status == 0 && !reason.empty())
      failure = "the agent refused to start in process " + std::to_string(pid) + ": " + reason;
  }
  throw Error(failure);
}

}  // namespace bn::cli
