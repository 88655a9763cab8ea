#include "fresh_buffer.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace bn::calltree {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// A mapping of `bytes` (a multiple of kHugePage) starting on a huge-page boundary, or nullptr.
// mmap aligns to 4 KiB only, so one huge page more is mapped and the ends beyond the aligned
// range are unmapped again.
std::byte* map_huge_pages(std::size_t bytes) {
  void* raw = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto* start = static_cast<std::byte*>(raw);
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(start) % kHugePage;
  const std::size_t head = misalignment == 0 ? 0 : kHugePage - misalignment;
  if (head != 0) ::munmap(start, head);
  ::munmap(start + head + bytes, kHugePage - head);
#ifdef MADV_HUGEPAGE
  (void)::madvise(start + head, bytes, MADV_HUGEPAGE);  // a kernel without THP ignores it
#endif
  return start + head;
}

}  // namespace

FreshBuffer::FreshBuffer(std::size_t capacity) : capacity_(capacity) {
  if (capacity < kHugePagesFrom) {
    data_ = new std::byte[capacity];
    return;
  }
  const std::size_t bytes = (capacity + kHugePage - 1) / kHugePage * kHugePage;
  data_ = map_huge_pages(bytes);
  if (data_ == nullptr) throw std::bad_alloc();
  mapped_bytes_ = bytes;
}

FreshBuffer::~FreshBuffer() { release(); }

FreshBuffer::FreshBuffer(FreshBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      capacity_(std::exchange(other.capacity_, 0)),
      mapped_bytes_(std::exchange(other.mapped_bytes_, 0)) {}

FreshBuffer& FreshBuffer::operator=(FreshBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
    mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
  }
  return *this;
}

void FreshBuffer::release() noexcept {
  if (mapped_bytes_ != 0)
    ::munmap(data_, mapped_bytes_);
  else
    delete[] data_;
  data_ = nullptr;
  capacity_ = 0;
  mapped_bytes_ = 0;
}

}  // namespace bn::calltree
