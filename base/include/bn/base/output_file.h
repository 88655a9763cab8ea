#pragma once
// Every file the tool writes goes through an OutputFile, so that nothing a user had is lost and
// nothing planted beside it is followed:
//  - a regular path (or one that does not exist yet) appears complete or not at all: the bytes go
//    to a fresh temporary file beside it, created exclusively (O_EXCL|O_NOFOLLOW: a symlink or file
//    planted at the temporary name is never followed or truncated), then flushed, fsynced and
//    renamed over the target;
//  - a symlink to a regular file: the file it points to is replaced as above, the link kept;
//  - an existing target that is not a regular file (a device, a FIFO) is written in place:
//    renaming over it would replace the device's name instead of writing to it;
//  - "-" and /dev/stdout are standard output, /dev/stderr standard error, /dev/fd/N and
//    /proc/self/fd/N the inherited descriptor N: written where the caller's stream stands, never
//    reopened or renamed over (as root, a rename over /dev/stdout would replace /dev's link).
// A crash, an exception or a failed write leaves a regular target untouched.

#include <cstdio>
#include <filesystem>
#include <string>

namespace bn::base {

class OutputFile {
 public:
  // Opens the output; throws bn::Error naming `target` if it cannot.
  explicit OutputFile(std::filesystem::path target);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~OutputFile();

  // Where to write, open for binary writing.
  std::FILE* stream() const { return file_; }
  // Makes the output final: flushes and, for a regular target, fsyncs, closes and renames the
  // temporary file over it. Throws bn::Error (removing the temporary file) if any step fails.
  void commit();

  const std::filesystem::path& target() const { return target_; }
  // "standard output" for "-", else the path in quotes: for messages.
  std::string describe() const;

 private:
  enum class Kind { replace, in_place, inherited };

  void open_temporary();
  void open_in_place();
  void open_inherited(int fd);
  // False for stdout and stderr, which stay open.
  bool owns_stream() const;
  // Throws "cannot write TARGET: STEP: strerror(error)" (no strerror for error 0), cleaning up.
  [[noreturn]] void fail(const char* step, int error);

  std::filesystem::path target_;
  std::filesystem::path replaced_;  // Kind::replace: the target, or the file a symlink target names
  Kind kind_ = Kind::replace;
  std::filesystem::path temp_;  // Kind::replace only
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace bn::base
