#pragma once
// One 1-method extension of a summary with the metrics of the extended summary, as
// Profile::extension_amounts lists them.

#include <cstdint>
#include <string_view>

#include "bn/iface/amount.h"

namespace bn::iface {

struct ExtensionAmounts {
  std::string_view method;
  Amount cum = 0;
  Amount base = 0;
  // The backend's own reference to the extension, handed back by ExtensionUnion::add so that
  // adding 10^4 extensions needs no lookup by name.
  std::uint32_t tag = 0;
};

}  // namespace bn::iface
