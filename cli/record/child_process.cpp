#include "record/child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "bn/base/error.h"

namespace bn::cli {

pid_t start_child(const std::vector<std::string>& argv, int output_fd) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) throw Error(std::string("cannot start '") + argv[0] + "': " + std::strerror(errno));
  if (child == 0) {
    if (output_fd >= 0) {
      setpgid(0, 0);
      dup2(output_fd, STDOUT_FILENO);
      dup2(output_fd, STDERR_FILENO);
    }
    execvp(args[0], args.data());
    // On the user's terminal this is our error; captured, the caller words it.
    std::fprintf(stderr, "%scannot run '%s': %s\n", output_fd < 0 ? "bottlenecks: error: " : "", args[0],
                 std::strerror(errno));
    _exit(127);
  }
  return child;
}

int wait_child(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace bn::cli
