#pragma once
// A growable array of trivially copyable values kept with malloc/realloc, for the call-tree
// flusher's per-node state (DrainedTrees) and the agent's merged tree (FrameTree): tens of
// millions of entries on a large compilation. A std::vector doubles by allocating fresh memory
// and copying into it; above glibc's mmap threshold realloc moves the mapping instead (mremap),
// so growing touches only the new part. On this project's virtual machine a fresh page costs
// several microseconds: on javac compiling its own sources, 56% of the flusher's CPU was the
// kernel zeroing fresh pages, a third of those under these arrays (bench/LOG.md, "The
// flusher's fresh pages").

#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

namespace bn::agent {

template <class T>
requires std::is_trivially_copyable_v<T>
class RemappedArray {
 public:
  RemappedArray() = default;
  RemappedArray(const RemappedArray&) = delete;
  RemappedArray& operator=(const RemappedArray&) = delete;
  RemappedArray(RemappedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  RemappedArray& operator=(RemappedArray&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  ~RemappedArray() { std::free(data_); }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void push_back(T value) {
    if (size_ == capacity_) grow_to(size_ + 1);
    data_[size_++] = value;
  }

  // `n` entries: the first min(n, size()) kept, the others `value`.
  void resize(std::size_t n, T value) {
    if (n > capacity_) grow_to(n);
    for (std::size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }

 private:
  // Room for at least `n`, at least doubling (amortised O(1) appends, as a vector's).
  void grow_to(std::size_t n) {
    std::size_t capacity = capacity_ > n / 2 ? capacity_ * 2 : n;
    if (capacity < 16) capacity = 16;
    if (capacity > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_alloc();
    void* moved = std::realloc(data_, capacity * sizeof(T));
    if (moved == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(moved);
    capacity_ = capacity;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace bn::agent
