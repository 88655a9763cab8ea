#include "bn/calltree/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "bn/iface/error.h"

namespace bn::calltree {
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

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  // O_EXCL on a fresh name rather than mkstemp: the mode 0666 is then filtered by the umask like
  // any other output file, instead of mkstemp's private 0600.
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_ = target_;
    temp_ += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_counter++);
    const int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
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

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (file_) std::fclose(file_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::fail(const char* step, int error) {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
  }
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    temp_.clear();
  }
  throw Error("cannot write '" + target_.string() + "': " + step + ": " + std::strerror(error));
}

void AtomicFile::commit() {
  if (!file_) throw Error("cannot write '" + target_.string() + "': the file was already committed or failed");
  if (std::fflush(file_) != 0 || std::ferror(file_)) fail("writing failed", errno);
  if (::fsync(::fileno(file_)) != 0) fail("fsync failed", errno);
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) fail("closing failed", errno);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot rename the temporary file over it", errno);
  committed_ = true;
  sync_directory(target_.parent_path());
}

}  // namespace bn::calltree
