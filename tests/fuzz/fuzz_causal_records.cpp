// libFuzzer entry point for the causal experiment decoder (bn/calltree/causal_records.h): any
// sequence of "caus" chunks must decode or throw bn::Error; a crash, sanitizer report, hang or
// out-of-memory is a bug.
//
// Input: a list of [u16le length][payload]... The chunks go straight into
// LoadedProfile::extra_chunks, skipping compression, so mutations reach the decoder itself.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/causal_records.h"
#include "bn/calltree/tree_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::byte> in(reinterpret_cast<const std::byte*>(data), size);
  // The chunks name no nodes; any tree will do.
  bn::calltree::TreeBuilder builder;
  const std::vector<bn::calltree::MethodId> stack{builder.intern("a")};
  builder.add_stack(stack, 1);
  bn::calltree::LoadedProfile profile{std::move(builder).build({}), false, {}, {}};
  while (in.size() >= 2) {
    const std::size_t len = std::min<std::size_t>(
        in.size() - 2, std::to_integer<std::size_t>(in[0]) | std::to_integer<std::size_t>(in[1]) << 8);
    profile.extra_chunks.emplace_back(
        bn::calltree::kTagCausal,
        std::vector<std::byte>(in.begin() + 2, in.begin() + 2 + static_cast<std::ptrdiff_t>(len)));
    in = in.subspan(2 + len);
  }
  try {
    bn::calltree::decode_causal(profile, "fuzz");
  } catch (const bn::Error&) {
    // Refusing malformed input is the expected outcome.
  }
  return 0;
}
