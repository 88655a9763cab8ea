#include "bn/base/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "bn/base/error.h"

namespace bn::base {
namespace {

// Distinguishes temporary files of concurrent writers in one process; the pid separates processes.
std::atomic<unsigned> temp_counter{0};

// Makes the rename durable: the new directory entry is on disk once this returns.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: the file itself is already synced and renamed
  (void)::fsync(fd);
  ::close(fd);
}

// The descriptor a path names when it names one the process inherited, e.g. "/dev/stdout" → 1.
std::optional<int> inherited_descriptor(const std::filesystem::path& p) {
  const std::string s = p.string();
  if (s == "-" || s == "/dev/stdout") return STDOUT_FILENO;
  if (s == "/dev/stderr") return STDERR_FILENO;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (s.size() <= prefix.size() || s.compare(0, prefix.size(), prefix) != 0) continue;
    int fd = 0;
    const char* first = s.data() + prefix.size();
    const auto [end, ec] = std::from_chars(first, s.data() + s.size(), fd);
    if (ec == std::errc() && end == s.data() + s.size()) return fd;
  }
  return std::nullopt;
}

}  // namespace

OutputFile::OutputFile(std::filesystem::path target) : target_(std::move(target)), replaced_(target_) {
  if (const auto fd = inherited_descriptor(target_)) {
    open_inherited(*fd);
    return;
  }
  struct stat st {};
  // stat follows symlinks: a FIFO or a device is written in place, a directory refused.
  if (::stat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) fail("it is a directory", 0);
    open_in_place();
    return;
  }
  // A symlink to a regular file keeps pointing at the file, which is what gets replaced.
  if (::lstat(target_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    std::error_code ec;
    replaced_ = std::filesystem::weakly_canonical(target_, ec);
    if (ec) fail("cannot follow its symlink", ec.value());
  }
  open_temporary();
}

void OutputFile::open_temporary() {
  // O_EXCL on a fresh name rather than mkstemp: the mode 0666 is then filtered by the umask like
  // any other output file, instead of mkstemp's private 0600.
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_ = replaced_;
    temp_ += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_counter++);
    const int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      const int error = errno;
      temp_.clear();
      fail("cannot create a temporary file beside it", error);
    }
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
      const int error = errno;
      ::close(fd);
      fail("cannot open the temporary file", error);
    }
    return;
  }
  temp_.clear();
  fail("cannot find a free temporary file name beside it", EEXIST);
}

void OutputFile::open_in_place() {
  kind_ = Kind::in_place;
  // No O_TRUNC and no O_CREAT: the target exists and is a device or a FIFO.
  const int fd = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open it", errno);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int error = errno;
    ::close(fd);
    fail("cannot open it", error);
  }
}

void OutputFile::open_inherited(int fd) {
  kind_ = Kind::inherited;
  // stdout and stderr keep their FILE so that their order with other output holds; another
  // descriptor is duplicated, so closing the FILE leaves the caller's open.
  if (fd == STDOUT_FILENO || fd == STDERR_FILENO) {
    file_ = fd == STDOUT_FILENO ? stdout : stderr;
    return;
  }
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) fail("it names no open descriptor", errno);
  file_ = ::fdopen(copy, "wb");
  if (!file_) {
    const int error = errno;
    ::close(copy);
    fail("cannot open it", error);
  }
}

bool OutputFile::owns_stream() const { return file_ != stdout && file_ != stderr; }

OutputFile::~OutputFile() {
  if (committed_) return;
  if (file_ && owns_stream()) std::fclose(file_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

std::string OutputFile::describe() const {
  if (target_ == "-") return "standard output";
  // Appended rather than "'" + string: GCC 12 at -O3 warns falsely on that form (-Wrestrict, GCC
  // bug 105329), which fails a Release build with BN_WERROR.
  return std::string("'").append(target_.string()).append("'");
}

void OutputFile::fail(const char* step, int error) {
  if (file_ && owns_stream()) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    temp_.clear();
  }
  throw Error("cannot write " + describe() + ": " + step +
              (error != 0 ? std::string(": ") + std::strerror(error) : ""));
}

void OutputFile::commit() {
  if (!file_) throw Error("cannot write " + describe() + ": the file was already committed or failed");
  if (std::fflush(file_) != 0 || std::ferror(file_)) fail("writing failed", errno);
  if (!owns_stream()) {
    committed_ = true;
    file_ = nullptr;
    return;
  }
  if (kind_ == Kind::replace && ::fsync(::fileno(file_)) != 0) fail("fsync failed", errno);
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) fail("closing failed", errno);
  if (kind_ == Kind::replace) {
    if (::rename(temp_.c_str(), replaced_.c_str()) != 0) fail("cannot rename the temporary file over it", errno);
    temp_.clear();
    sync_directory(replaced_.parent_path());
  }
  committed_ = true;
}

}  // namespace bn::base
