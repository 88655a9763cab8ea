#pragma once
// A file that appears at its path complete or not at all: written to a temporary file in the
// same directory, flushed, fsynced and renamed over the target (rename is atomic within a file
// system). A crash or an exception leaves the target untouched.

#include <cstdio>
#include <filesystem>

namespace bn::calltree {

class AtomicFile {
 public:
  // Creates the temporary file; throws bn::Error naming `target` if it cannot.
  explicit AtomicFile(std::filesystem::path target);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  // The temporary file, open for binary writing.
  std::FILE* stream() const { return file_; }
  // Flushes, fsyncs and closes the temporary file and renames it to the target. Throws
  // bn::Error (and removes the temporary file) if any step fails.
  void commit();

  const std::filesystem::path& target() const { return target_; }

 private:
  [[noreturn]] void fail(const char* step, int error);

  std::filesystem::path target_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace bn::calltree
