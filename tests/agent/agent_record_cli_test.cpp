// End-to-end: `bottlenecks record`, the front end of the agent, in both of its forms.

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "agent_harness.h"

using namespace std::chrono_literals;

TEST_CASE("bottlenecks record -o FILE -- java ... records the program") {
  const auto file = bn::test::work_dir("record-launch") / "run.bnp";
  const auto classes = bn::test::compiled("Hot");
  const auto r = bn::test::run_command(
      {bn::test::kCli, "record", "-o", file.string(), "--interval", "10ms", "--stacks", "handshake", "--agent",
       BN_AGENT_PATH, "--", bn::test::java_tool("java"), "-cp", classes.string(), "Hot", "800"},
      60s);
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  const auto p = bn::test::load(file);
  CHECK(p.loaded.tree.find_method("Hot.hot").has_value());
  CHECK(p.loaded.tree.metadata().sample_interval_ns == 10'000'000);
  CHECK(p.loaded.tree.metadata().find_extra("stack_method") == "handshake");
}

TEST_CASE("SIGTERM to bottlenecks record reaches the JVM, which completes the profile") {
  const auto file = bn::test::work_dir("record-term") / "run.bnp";
  const auto classes = bn::test::compiled("Ending");
  const auto r = bn::test::run_command(
      {bn::test::kCli, "record", "-o", file.string(), "--interval", "10ms", "--agent", BN_AGENT_PATH, "--",
       bn::test::java_tool("java"), "-cp", classes.string(), "Ending", "wait"},
      60s, SIGTERM, 1500ms);
  INFO("stderr: " << r.err);
  CHECK_FALSE(r.timed_out);
  CHECK(r.err.find("exited with status 143") != std::string::npos);
  const auto p = bn::test::load(file);
  CHECK_FALSE(p.loaded.unfinished);
  CHECK(p.loaded.tree.find_method("Ending.spin").has_value());
}

TEST_CASE("bottlenecks record refuses a bad interval and says which option is wrong") {
  const auto file = bn::test::work_dir("record-bad") / "run.bnp";
  const auto classes = bn::test::compiled("Hot");
  const auto r =
      bn::test::run_command({bn::test::kCli, "record", "-o", file.string(), "--interval", "fast", "--agent",
                             BN_AGENT_PATH, "--", bn::test::java_tool("java"), "-cp", classes.string(), "Hot", "100"},
                            60s);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("'interval=fast'") != std::string::npos);
}

TEST_CASE("bottlenecks record --pid attaches to a running JVM for --duration") {
  const auto file = bn::test::work_dir("record-pid") / "run.bnp";
  // Ended below once the recording is done (or by itself after a minute of spinning): a fixed
  // lifetime of 8 s ran out once on a loaded machine before the attach, the second of recording
  // and the write were done.
  bn::test::AttachTarget target("record-pid-test");
  const std::string pid = target.pid();
  REQUIRE_FALSE(pid.empty());
  const auto r = bn::test::run_command({bn::test::kCli, "record", "--pid", pid, "--duration", "1s", "-o", file.string(),
                                        "--interval", "10ms", "--agent", BN_AGENT_PATH},
                                       60s);
  const bool target_running = target.running();
  target.end();
  INFO("stderr: " << r.err << " stdout: " << r.out);
  CHECK(r.exit_code == 0);
  CHECK(target_running);                // the profile below was complete before the target ended
  const auto p = bn::test::load(file);  // complete before the target has ended
  CHECK(p.samples.ticks.size() >= 10);
}

// jcmd exits 0 when the agent refuses to start ("return code: -1"), so record used to wait for a
// profile that never came: until --duration and a minute more, or the JVM's end without it. The
// agent's reason, written on the target's stderr, is read back from its system properties.
TEST_CASE("bottlenecks record --pid tells at once, in one line, why the agent did not start") {
  const auto dir = bn::test::work_dir("record-pid-refused");
  bn::test::AttachTarget target("record-pid-refused");
  const std::string pid = target.pid();
  REQUIRE_FALSE(pid.empty());
  const auto record = [&](const std::string& name, const std::vector<std::string>& extra) {
    std::vector<std::string> argv{bn::test::kCli,        "record",  "--pid",      pid, "--duration", "1s", "-o",
                                  (dir / name).string(), "--agent", BN_AGENT_PATH};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return bn::test::run_command(argv, 50s);  // the old wait was --duration + 60 s
  };
  const auto one_line_error = [](const bn::test::JavaRun& r, const std::string& what) {
    INFO("stderr: " << r.err << " stdout: " << r.out);
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("bottlenecks: error: " + what) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  };
  // The agent's parser refuses the value, run by record before it attaches; the JVM runs on.
  one_line_error(record("bad.bnp", {"--interval", "5x"}), "--interval: bad option 'interval=5x'");
  CHECK(target.running());
  const auto recorded = record("good.bnp", {"--interval", "10ms"});
  CHECK(recorded.exit_code == 0);
  // A file that is no shared library.
  const auto not_elf = dir / "agent.txt";
  std::ofstream(not_elf) << "not a library\n";
  std::vector<std::string> argv{
      bn::test::kCli, "record",        "--pid", pid, "--duration", "1s", "-o", (dir / "lib.bnp").string(),
      "--agent",      not_elf.string()};
  one_line_error(bn::test::run_command(argv, 50s), "the JVM of process " + pid + " could not load the agent library: ");
  target.end();
  CHECK_FALSE(std::filesystem::exists(dir / "bad.bnp"));
  CHECK_FALSE(bn::test::load(dir / "good.bnp").loaded.unfinished);  // complete; its samples are another test's
}

// A server is recorded more than once: each recording ends (--duration, Ctrl-C or the agent's
// `stop`) with its file complete and the JVM running on, and the next one may then start.
TEST_CASE("bottlenecks record --pid: one recording at a time, Ctrl-C ends one early, the next follows") {
  const auto dir = bn::test::work_dir("record-pid-again");
  bn::test::AttachTarget target("record-pid-again");
  const std::string pid = target.pid();
  REQUIRE_FALSE(pid.empty());
  const auto record = [&](const std::string& name, const std::vector<std::string>& extra, int signal = 0) {
    std::vector<std::string> argv{bn::test::kCli,        "record",  "--pid",      pid, "-o",
                                  (dir / name).string(), "--agent", BN_AGENT_PATH};
    argv.insert(argv.end(), extra.begin(), extra.end());
    // Signalled after 1.5 s: before the attach or during the recording, the same outcome.
    return bn::test::run_command(argv, 50s, signal, signal != 0 ? 1500ms : 0ms);
  };
  const auto refused = [&](const bn::test::JavaRun& r, const std::string& reason) {
    INFO("stderr: " << r.err << " stdout: " << r.out);
    CHECK(r.exit_code == 1);
    CHECK(r.err == "bottlenecks: error: the agent refused to start in process " + pid + ": " + reason + "\n");
  };
  const auto recorded = [&](const bn::test::JavaRun& r, const std::string& name) {
    INFO("stderr: " << r.err << " stdout: " << r.out);
    CHECK(r.exit_code == 0);
    CHECK(target.running());            // the JVM runs on
    return bn::test::load(dir / name);  // throws unless complete
  };

  // What an ended sampling recording leaves open in the target: nothing (it read each running
  // thread's /proc/self/task/TID/schedstat through a file kept open while it recorded).
  const auto schedstat_files = [&] {
    int open = 0;
    for (const auto& fd : std::filesystem::directory_iterator("/proc/" + pid + "/fd")) {
      std::error_code ec;
      open += std::filesystem::read_symlink(fd.path(), ec).string().ends_with("/schedstat") ? 1 : 0;
    }
    return open;
  };

  // A recording without end, started by hand: another must wait for it.
  const std::string endless = (dir / "endless.bnp").string();
  CHECK(bn::test::load_agent(pid, "file=" + endless).out.find("return code: 0") != std::string::npos);
  refused(record("busy.bnp", {"--duration", "1s"}),
          "a recording is in progress in this JVM (file=" + endless + "); a new one can start when it ends");
  // `stop` ends the one it names, and returns once its file is complete.
  CHECK(bn::test::load_agent(pid, "stop,file=" + (dir / "other.bnp").string()).out.find("return code: -1") !=
        std::string::npos);
  CHECK_FALSE(bn::test::is_complete(endless));
  CHECK(bn::test::load_agent(pid, "stop,file=" + endless).out.find("return code: 0") != std::string::npos);
  CHECK(bn::test::is_complete(endless));
  CHECK(bn::test::load_agent(pid, "stop").out.find("return code: -1") != std::string::npos);  // nothing left to stop

  // Ctrl-C (SIGINT) ends a recording without --duration; the JVM runs on.
  const auto sampled = record("sampled.bnp", {"--interval", "10ms"}, SIGINT);
  CHECK(sampled.err.find("recording process " + pid + " into " + (dir / "sampled.bnp").string() +
                         " until Ctrl-C or its exit\n") != std::string::npos);
  CHECK(sampled.err.find("stopping the recording of process " + pid) != std::string::npos);
  CHECK(recorded(sampled, "sampled.bnp").loaded.tree.find_method("Ending.spin").has_value());
  CHECK(schedstat_files() == 0);

  // The call-tree mode's Ctrl-C gives the classes their original bytes back first; and it records
  // again (agent_calltree_again_test.cpp checks what each recording holds).
  const auto traced = recorded(record("traced.bnp", {"--mode", "calltree"}, SIGINT), "traced.bnp");
  CHECK(traced.loaded.tree.metadata().find_extra("stopped_by") == "stop");
  CHECK(traced.loaded.tree.metadata().find_extra("restored").value_or("").starts_with("yes"));
  const auto traced_again = recorded(record("traced-again.bnp", {"--mode", "calltree"}, SIGINT), "traced-again.bnp");
  CHECK(traced_again.loaded.tree.metadata().find_extra("stopped_by") == "stop");

  // And sampling again, with threads the earlier recordings knew: their stacks are this one's.
  const auto again_run = record("again.bnp", {"--duration", "1s", "--interval", "10ms"});
  CHECK(again_run.err == "bottlenecks: recording process " + pid + " into " + (dir / "again.bnp").string() +
                             " for 1s (Ctrl-C ends it sooner)\n");
  const auto again = recorded(again_run, "again.bnp");
  CHECK(again.loaded.tree.find_method("Ending.spin").has_value());
  CHECK(again.samples.ticks.size() >= 1);
  CHECK(schedstat_files() == 0);
  target.end();
  CHECK_FALSE(std::filesystem::exists(dir / "busy.bnp"));
}

TEST_CASE("bottlenecks record exits with the status of a program that failed, its profile complete") {
  const auto file = bn::test::work_dir("record-fail") / "run.bnp";
  const auto classes = bn::test::compiled("Hot");
  const auto r = bn::test::run_command({bn::test::kCli, "record", "-o", file.string(), "--agent", BN_AGENT_PATH, "--",
                                        bn::test::java_tool("java"), "-cp", classes.string(), "NoSuchMainClass"},
                                       60s);
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 1);  // the java launcher's status for a missing main class
  CHECK(r.err.find("the program exited with status 1") != std::string::npos);
  CHECK_FALSE(bn::test::load(file).loaded.unfinished);
}

TEST_CASE("bottlenecks record refuses, before starting anything, what it could not pass on or write") {
  const auto dir = bn::test::work_dir("record-refused");
  const std::string java = bn::test::java_tool("java");
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const Case cases[] = {
      // A ',' or '"' would inject options into the agent's comma-separated list.
      {{"-o", (dir / "p.bnp,file=x.bnp").string(), "--", java, "-version"}, "-o: '"},
      {{"-o", (dir / "p.bnp").string(), "--interval", "20ms,quiet", "--", java, "-version"},
       "--interval: '20ms,quiet' holds ','"},
      {{"-o", (dir / "q\"uote.bnp").string(), "--", java, "-version"}, "holds '\"'"},
      // -agentpath means something only to a java launcher.
      {{"-o", (dir / "p.bnp").string(), "--", "ls", "-l"}, "'ls' is not a java launcher"},
      // The output directory is checked before the program runs, not after.
      {{"-o", (dir / "missing" / "p.bnp").string(), "--", java, "-version"}, "no directory"},
      // A launcher that cannot be run: its one line, not a second about the missing profile.
      {{"-o", (dir / "p.bnp").string(), "--", (dir / "no" / "java").string(), "-version"}, "cannot run '"},
      // Without --, the java command's own options are not the recorder's.
      {{"-o", (dir / "p.bnp").string(), java, "-cp", dir.string(), "Main"}, "put the java command line after --"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv{bn::test::kCli, "record", "--agent", BN_AGENT_PATH};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const auto r = bn::test::run_command(argv, 60s);
    INFO("args: " << argv.back() << " stderr: " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(c.error) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
  }
  CHECK(std::filesystem::is_empty(dir));  // nothing recorded, nothing left behind
}
