#pragma once
// Columns that a pass writes whole right after they are sized. std::vector value-initialises what
// resize() adds, a write of every element before the pass writes it again; at 10M nodes that is a
// 40 MB or 80 MB memset per column on the way to the prompt. This allocator default-initialises
// instead, which for the trivial types of a column writes nothing.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace bn::calltree {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() noexcept = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::construct_at(p, std::forward<Args>(args)...);
  }
};

// A column whose resize() leaves the new elements' values to the pass that fills them.
template <class T>
using UninitializedColumn = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace bn::calltree
