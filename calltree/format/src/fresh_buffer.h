#pragma once
// Byte buffers that are written whole once and freed before the call tree's columns are made:
// the file's bytes (read_profile) and the chunks' decompressed payloads (ChunkDecompressor).
// At 1.1M nodes these are 2.8 MB of file and 0.6, 3.1 and 1.3 MB of payload, each below the
// executable's 4 MiB huge-page threshold (repl/cli/huge_pages.cpp), so they came from malloc's heap
// as ~1,900 fresh 4 KiB pages: two thirds of the open's page faults, which cost 1.5-6 us each on
// this virtual machine (a fresh 2 MiB page, zeroed in one fault, 0.04-0.6 ms). A buffer of 1 MiB
// or more is therefore a mapping of its own, rounded up to whole 2 MiB pages and advised
// MADV_HUGEPAGE in full (bench/LOG.md, "Fresh pages for the file and the payloads"). The
// rounding adds resident memory only while the file is read, before the open's peak.
// Internal to bn_calltree.

#include <cstddef>

namespace bn::calltree {

class FreshBuffer {
 public:
  // Buffers of this many bytes or more are mapped on huge pages: zeroing a 2 MiB page costs
  // about what faulting 1 MiB of 4 KiB pages does here.
  static constexpr std::size_t kHugePagesFrom = std::size_t{1} << 20;

  FreshBuffer() = default;
  // `capacity` bytes, not initialised. Throws std::bad_alloc when no memory is left.
  explicit FreshBuffer(std::size_t capacity);
  ~FreshBuffer();
  FreshBuffer(FreshBuffer&& other) noexcept;
  FreshBuffer& operator=(FreshBuffer&& other) noexcept;
  FreshBuffer(const FreshBuffer&) = delete;
  FreshBuffer& operator=(const FreshBuffer&) = delete;

  std::byte* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }
  // Whether the bytes are a mapping of their own (for the tests).
  bool mapped() const { return mapped_bytes_ != 0; }

 private:
  void release() noexcept;

  std::byte* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t mapped_bytes_ = 0;  // the mapping's length, 0 when data_ came from new[]
};

}  // namespace bn::calltree
