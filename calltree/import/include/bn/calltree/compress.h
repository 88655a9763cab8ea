#pragma once
// Writing a file compressed as its name says, the counterpart of decompress.h: `.gz` gzip
// (RFC 1952), `.zst` zstd (RFC 8878, with a content checksum), anything else plain. A
// std::streambuf, so a writer that takes a std::ostream (collapsed stacks, pprof) streams through
// it without holding the whole output in memory.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <streambuf>
#include <string>

#include "bn/calltree/decompress.h"
#include "bn/calltree/import_options.h"

namespace bn::calltree {

// gzip for a name ending in `.gz`, zstd for `.zst`, none otherwise.
Compression compression_for_name(const std::filesystem::path& path);
// The name without a compression suffix: `x.pb.gz` → `x.pb`; others unchanged.
std::filesystem::path uncompressed_name(const std::filesystem::path& path);

class CompressingStreambuf : public std::streambuf {
 public:
  // Writes to `file` (not owned; the caller closes it, e.g. base::OutputFile). `name` labels errors;
  // `progress`, if set, is told the bytes written to the file so far (total 0: unknown).
  CompressingStreambuf(std::FILE* file, Compression kind, std::string name, ProgressFn progress = {});
  CompressingStreambuf(const CompressingStreambuf&) = delete;
  CompressingStreambuf& operator=(const CompressingStreambuf&) = delete;
  ~CompressingStreambuf() override;

  // Compresses what is buffered, ends the compressed stream and flushes it to the file. Throws
  // bn::Error "cannot write 'name': reason" if this or any earlier write failed.
  void finish();
  // Throws that error if a write has failed so far; a writer's own "stream failed" error is less
  // precise, so callers check this first.
  void throw_if_failed() const;

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  struct Impl;
  bool drain(bool end);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bn::calltree
