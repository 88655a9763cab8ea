#pragma once
// Test helper: a headless Chromium driven over the DevTools protocol through
// --remote-debugging-pipe (the browser reads commands on fd 3 and writes replies and events on
// fd 4, each a JSON message ended by a NUL byte), so no port, WebSocket or network is needed.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>

namespace bn::testing {

class DevtoolsPipe {
 public:
  // Starts `binary` with a fresh profile directory under `scratch`; its output goes to
  // scratch/chromium.log (read it when a test fails).
  DevtoolsPipe(const std::filesystem::path& binary, const std::filesystem::path& scratch) {
    int to_browser[2], from_browser[2];
    if (pipe2(to_browser, O_CLOEXEC) != 0 || pipe2(from_browser, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe failed");
    const std::string profile = "--user-data-dir=" + (scratch / "chromium-profile").string();
    const std::string log = (scratch / "chromium.log").string();
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      setpgid(0, 0);  // a group of its own, ended as a whole by the destructor
      // The pipe's own descriptors may be 3 or 4 (with close-on-exec, which dup2 onto itself would
      // keep): copy them out of the way first, then onto 3 and 4, which the browser inherits.
      const int in = fcntl(to_browser[0], F_DUPFD_CLOEXEC, 10);
      const int out_fd = fcntl(from_browser[1], F_DUPFD_CLOEXEC, 10);
      dup2(in, 3);
      dup2(out_fd, 4);
      const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out >= 0) {
        dup2(out, 1);
        dup2(out, 2);
      }
      // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
      execl(binary.c_str(), binary.c_str(), "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--disable-extensions", "--window-size=1200,800", profile.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_browser[0]);
    close(from_browser[1]);
    write_fd_ = to_browser[1];
    read_fd_ = from_browser[0];
  }
  DevtoolsPipe(const DevtoolsPipe&) = delete;
  DevtoolsPipe& operator=(const DevtoolsPipe&) = delete;
  // Asks the browser to close, then ends its process group (its helper processes too), so none
  // of them writes into the scratch directory after the test removes it.
  ~DevtoolsPipe() {
    try {
      call("Browser.close");
    } catch (const std::exception&) {
      // Already gone: the group is ended below all the same.
    }
    close(write_fd_);
    close(read_fd_);
    int status = 0;
    for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    kill(-pid_, SIGKILL);
    waitpid(pid_, &status, WNOHANG);
  }

  // Sends one command and returns its result; throws with the browser's error. Events that
  // arrive meanwhile are skipped. `session` addresses a page attached with flatten:true.
  nlohmann::json call(const std::string& method, const nlohmann::json& params = nlohmann::json::object(),
                      const std::string& session = "") {
    nlohmann::json message{{"id", ++last_id_}, {"method", method}, {"params", params}};
    if (!session.empty()) message["sessionId"] = session;
    const std::string text = message.dump() + '\0';
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = write(write_fd_, text.data() + done, text.size() - done);
      if (n <= 0) throw std::runtime_error("the browser closed its pipe (see chromium.log)");
      done += static_cast<std::size_t>(n);
    }
    while (true) {
      const nlohmann::json reply = nlohmann::json::parse(next_message());
      if (!reply.contains("id") || reply["id"] != last_id_) continue;
      if (reply.contains("error")) throw std::runtime_error(method + ": " + reply["error"].dump());
      return reply["result"];
    }
  }

 private:
  // The next NUL-ended message. A minute without one is a failure: the page is tiny, so only a
  // broken browser takes that long, even on a loaded machine.
  std::string next_message() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (true) {
      if (const std::size_t end = buffer_.find('\0'); end != std::string::npos) {
        std::string message = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return message;
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) throw std::runtime_error("no reply from the browser within 60 s");
      pollfd p{read_fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) < 0) continue;
      char chunk[65536];
      const ssize_t n = read(read_fd_, chunk, sizeof chunk);
      if (n == 0) throw std::runtime_error("the browser exited (see chromium.log)");
      if (n > 0) buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  pid_t pid_ = -1;
  int write_fd_ = -1, read_fd_ = -1;
  int last_id_ = 0;
  std::string buffer_;
};

}  // namespace bn::testing
