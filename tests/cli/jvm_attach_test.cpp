// What `bottlenecks record --pid` makes of jcmd's answers (repl/cli/jvm_attach.h). The outputs
// are jcmd's own (OpenJDK 17), copied from runs against a live JVM; the end-to-end cases, with a
// real JVM and a real jcmd, are in tests/agent/agent_record_cli_test.cpp.

#include "record/jvm_attach.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "bn/base/error.h"

using bn::cli::attach_failure;

TEST_CASE("jcmd's 'return code: 0' is success, and only that") {
  CHECK(attach_failure(4535, 0, "4535:\nreturn code: 0\n").empty());
  CHECK(attach_failure(4535, 0, "4535:\r\nreturn code: 0\r\n").empty());
  const std::string refused = attach_failure(4535, 0, "4535:\nreturn code: -1\n");
  CHECK(refused.find("the agent refused to start in process 4535 (return code -1)") == 0);
  CHECK(refused.find("standard error") != std::string::npos);
}

TEST_CASE("a library the JVM could not load is told with dlopen's reason") {
  CHECK(attach_failure(4535, 0,
                       "4535:\n/nonexistent.so was not loaded.\n/nonexistent.so: cannot open shared object file: No "
                       "such file or directory\n") ==
        "the JVM of process 4535 could not load the agent library: /nonexistent.so: cannot open shared object "
        "file: No such file or directory");
}

TEST_CASE("an answer without a result names what jcmd said last") {
  CHECK(attach_failure(77, 0, "77:\nJVMTI.agent_load: Unknown diagnostic command\n") ==
        "jcmd gave no answer from the JVM of process 77: JVMTI.agent_load: Unknown diagnostic command");
  CHECK(attach_failure(77, 0, "") == "jcmd gave no answer from the JVM of process 77");
}

TEST_CASE("jcmd that could not attach is told by its exception's message, not its stack trace") {
  const std::string trace =
      "com.sun.tools.attach.AttachNotSupportedException: Unable to open socket file /tmp/.java_pid4418: target "
      "process 4418 doesn't respond within 10500ms or HotSpot VM not loaded\n"
      "\tat jdk.attach/sun.tools.attach.VirtualMachineImpl.<init>(VirtualMachineImpl.java:104)\n"
      "\tat jdk.jcmd/sun.tools.jcmd.JCmd.main(JCmd.java:97)\n";
  CHECK(attach_failure(4418, 1, trace) ==
        "jcmd could not attach to process 4418: Unable to open socket file /tmp/.java_pid4418: target process 4418 "
        "doesn't respond within 10500ms or HotSpot VM not loaded");
  CHECK(attach_failure(9, 1,
                       "java.io.IOException: No such process\n\tat x.y(Z.java:1)\nCaused by: "
                       "java.lang.Exception: later\n") == "jcmd could not attach to process 9: No such process");
  CHECK(attach_failure(9, 127, "cannot run 'jcmd': No such file or directory\n") ==
        "jcmd could not attach to process 9 (exit status 127): cannot run 'jcmd': No such file or directory");
  CHECK(attach_failure(9, 1, "") == "jcmd could not attach to process 9 (exit status 1)");
}

TEST_CASE("the agent's reason is read back from the JVM's properties as java.util.Properties wrote it") {
  // jcmd 3507 VM.system_properties, after the agent refused `interval=5x` (OpenJDK 17).
  const std::string properties =
      "3507:\n#Wed Nov 25 11:18:34 UTC 2026\njava.specification.version=17\n"
      "bottlenecks.agent.refused=bad option 'interval\\=5x'\\: expected a duration from 1ms to 1h, e.g. "
      "interval\\=20ms\nuser.dir=/tmp/smoke\n";
  CHECK(bn::cli::refusal_reason(properties) ==
        "bad option 'interval=5x': expected a duration from 1ms to 1h, e.g. interval=20ms");
  CHECK(bn::cli::refusal_reason("bottlenecks.agent.refused=\\ a\\\\b\\#c\\!d\\te\n") == " a\\b#c!d\te");
  CHECK(bn::cli::refusal_reason("3507:\njava.specification.version=17\n").empty());
  CHECK(bn::cli::refusal_reason("").empty());
}

TEST_CASE("check_attachable refuses a process that is not there, or is no JVM, before jcmd runs") {
  CHECK_THROWS_WITH_AS(bn::cli::check_attachable(0), "--pid 0: not a process id", bn::Error);
  // A child that has exited and been reaped leaves its pid free (reused only after the whole
  // pid space has been handed out again).
  const pid_t gone = fork();
  REQUIRE(gone >= 0);
  if (gone == 0) _exit(0);
  REQUIRE(waitpid(gone, nullptr, 0) == gone);
  const std::string no_such = "--pid " + std::to_string(gone) + ": no such process";
  CHECK_THROWS_WITH_AS(bn::cli::check_attachable(gone), no_such.c_str(), bn::Error);
  // This test process has no JVM mapped.
  const std::string self = std::to_string(getpid());
  const std::string named = "--pid " + self + ": process " + self + " (";
  CHECK_THROWS_WITH_AS(bn::cli::check_attachable(getpid()), doctest::Contains(named.c_str()), bn::Error);
  CHECK_THROWS_WITH_AS(bn::cli::check_attachable(getpid()), doctest::Contains("is not a Java virtual machine"),
                       bn::Error);
}
