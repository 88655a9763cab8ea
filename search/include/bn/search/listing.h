#pragma once
// The shown summaries of a long listing that are built only when asked for, in order: `set limit
// all` on a hot method lists 10^5 extensions, and building them all before printing the first
// took seconds. Their amounts are known before they are built (Profile::extension_amounts), so
// a renderer can size its columns up front and print each row as it is built.

#include <cstddef>

#include "bn/iface/amount.h"
#include "bn/iface/summary.h"

namespace bn::search {

class Listing {
 public:
  virtual ~Listing() = default;
  virtual std::size_t size() const = 0;
  // The cum and base of the i-th, as cum_of and base_of of its summary will give them.
  virtual iface::Amount cum(std::size_t i) = 0;
  virtual iface::Amount base(std::size_t i) = 0;
  // The i-th summary, built on first ask (with every one before it).
  virtual iface::Summary summary(std::size_t i) = 0;
};

}  // namespace bn::search
