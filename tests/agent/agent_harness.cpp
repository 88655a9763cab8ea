#include "agent_harness.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace bn::test {
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

JavaRun run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout, int signal,
            std::chrono::milliseconds signal_after, const fs::path& dir) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
  JavaRun result;
  const auto start = std::chrono::steady_clock::now();
  bool signalled = false;
  int status = 0;
  while (true) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (signal != 0 && !signalled && elapsed >= signal_after) {
      kill(pid, signal);
      signalled = true;
    }
    if (elapsed >= timeout) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

}  // namespace

fs::path work_dir(const std::string& name) {
  const fs::path dir = fs::path(BN_BINARY_DIR) / "agent-tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string java_tool(const std::string& name) { return std::string(BN_JAVA_HOME) + "/bin/" + name; }

std::string find_jvm_pid(const std::string& marker) {
  using namespace std::chrono_literals;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::this_thread::sleep_for(100ms);
    const auto list = run_command({java_tool("jcmd"), "-l"}, 20s);
    std::istringstream lines(list.out);
    for (std::string line; std::getline(lines, line);)
      if (line.find(marker) != std::string::npos) return line.substr(0, line.find(' '));
  }
  return {};
}

AttachTarget::AttachTarget(const std::string& name, const std::string& main_class,
                           const std::vector<std::string>& args) {
  const std::string marker = name + "-" + std::to_string(getpid());
  JavaRunOptions o;
  o.main_class = main_class;
  o.args = args;
  o.args.push_back(marker);  // the programs ignore it
  thread_ = std::thread([this, o] {
    run_ = run_java(o);
    exited_ = true;
  });
  pid_ = find_jvm_pid(marker);
}

JavaRun load_agent(const std::string& pid, const std::string& options) {
  // jcmd would split an unquoted key=value argument into a named option.
  return run_command({java_tool("jcmd"), pid, "JVMTI.agent_load", BN_AGENT_PATH, "\"" + options + "\""},
                     std::chrono::seconds(50));
}

bool AttachTarget::running() const { return !pid_.empty() && !exited_ && ::kill(std::stoi(pid_), 0) == 0; }

const JavaRun& AttachTarget::end() {
  if (running()) ::kill(std::stoi(pid_), SIGTERM);
  if (thread_.joinable()) thread_.join();
  return run_;
}

namespace {

// Compiles `sources` (against `class_path`, if not empty) into BN_BINARY_DIR/agent-java/NAME (once
// per build: again only when a source is newer than `marker`, a class file it produces) and
// returns that directory.
fs::path compile(const std::string& name, const std::vector<fs::path>& sources, const fs::path& marker,
                 const std::string& class_path = {}) {
  const fs::path dir = fs::path(BN_BINARY_DIR) / "agent-java" / name;
  bool fresh_enough = fs::exists(dir / marker);
  for (const fs::path& source : sources)
    fresh_enough = fresh_enough && fs::last_write_time(dir / marker) >= fs::last_write_time(source);
  if (fresh_enough) return dir;
  // Compile beside, then rename into place: tests running in parallel (ctest -j) never see a
  // half-written class file.
  const fs::path fresh = dir.string() + ".tmp-" + std::to_string(getpid());
  fs::remove_all(fresh);
  fs::create_directories(fresh);
  std::vector<std::string> argv{java_tool("javac"), "-d", fresh.string()};
  if (!class_path.empty()) argv.insert(argv.end(), {"-cp", class_path});
  for (const fs::path& source : sources) argv.push_back(source.string());
  const JavaRun r = run(argv, std::chrono::milliseconds(120'000), 0, {}, fresh);
  if (r.exit_code != 0) throw std::runtime_error("javac failed for " + name + ": " + r.err);
  fs::remove(fresh / "stdout.txt");
  fs::remove(fresh / "stderr.txt");
  std::error_code ec;
  fs::rename(fresh, dir, ec);
  if (ec) {  // `dir` exists: a stale build (the source changed) or a parallel test's copy
    fs::copy(fresh, dir, fs::copy_options::overwrite_existing | fs::copy_options::recursive);
    fs::remove_all(fresh);
  }
  return dir;
}

}  // namespace

fs::path compiled(const std::string& main_class, const std::string& class_path) {
  return compile(main_class, {fs::path(BN_SOURCE_DIR) / "tests/agent/java" / (main_class + ".java")},
                 main_class + ".class", class_path);
}

fs::path compiled_sample(const std::string& sample, const std::string& main_class) {
  std::vector<fs::path> sources;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(BN_SOURCE_DIR) / "samples" / sample / "src"))
    if (e.path().extension() == ".java") sources.push_back(e.path());
  std::string marker = main_class;
  std::replace(marker.begin(), marker.end(), '.', '/');
  return compile("sample-" + sample, sources, marker + ".class");
}

JavaRun run_java(const JavaRunOptions& o) {
  const fs::path classes = compiled(o.main_class, o.class_path);
  std::vector<std::string> argv{java_tool("java"), "-Xmx256m"};
  if (!o.agent_options.empty()) argv.push_back("-agentpath:" + std::string(BN_AGENT_PATH) + "=" + o.agent_options);
  argv.insert(argv.end(), o.jvm_args.begin(), o.jvm_args.end());
  argv.insert(argv.end(),
              {"-cp", o.class_path.empty() ? classes.string() : classes.string() + ":" + o.class_path, o.main_class});
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  return run(argv, o.timeout, o.signal, o.signal_after, work_dir(o.main_class + "-run-" + std::to_string(getpid())));
}

JavaRun run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout, int signal,
                    std::chrono::milliseconds signal_after) {
  return run(argv, timeout, signal, signal_after, work_dir("command-" + std::to_string(getpid())));
}

Profile load(const fs::path& file, bool accept_unfinished) {
  Profile p{calltree::read_profile(file, calltree::LoadOptions{accept_unfinished}), {}};
  p.samples = calltree::decode_sample_data(p.loaded, file.string());
  return p;
}

bool is_complete(const fs::path& file) {
  try {
    return !calltree::read_profile(file, calltree::LoadOptions{true}).unfinished;
  } catch (const std::exception&) {
    return false;  // not created yet, or caught mid-write
  }
}

std::size_t java_samples(const calltree::SampleData& d) {
  std::size_t n = 0;
  for (const calltree::SampleRecord& r : d.records) n += d.threads[r.thread].thread_class.starts_with("[JVM ") ? 0 : 1;
  return n;
}

std::optional<std::uint32_t> thread_named(const calltree::SampleData& d, const std::string& name) {
  for (const calltree::ThreadEntry& t : d.threads)
    if (t.name == name) return t.index;
  return std::nullopt;
}

bool stack_contains(const calltree::CallTree& tree, calltree::NodeId node, const std::string& method) {
  for (; node != calltree::kRootNode; node = tree.parent(node))
    if (tree.node_name(node) == method) return true;
  return false;
}

}  // namespace bn::test
