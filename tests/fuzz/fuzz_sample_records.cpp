// libFuzzer entry point for the per-sample record decoder (bn/calltree/sample_records.h): any
// sequence of "thrd"/"smpl" chunks must decode or throw bn::Error against a fixed small tree; a
// crash, sanitizer report, hang or out-of-memory is a bug.
//
// Input: a list of [kind byte (even: thrd, odd: smpl)][u16le length][payload]... The chunks go
// straight into LoadedProfile::extra_chunks, skipping compression, so mutations reach the
// record decoder itself.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/sample_records.h"
#include "bn/calltree/tree_builder.h"

namespace {

bn::calltree::CallTree small_tree() {
  bn::calltree::TreeBuilder b;
  const auto a = b.intern("a"), c = b.intern("c"), d = b.intern("d");
  const std::vector<bn::calltree::MethodId> s1{a, c, d}, s2{a, d}, s3{c};
  b.add_stack(s1, 3);
  b.add_stack(s2, 1);
  b.add_stack(s3, 2);
  return std::move(b).build({});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::byte> in(reinterpret_cast<const std::byte*>(data), size);
  bn::calltree::LoadedProfile profile{small_tree(), false, {}, {}};
  while (in.size() >= 3) {
    const bool samples = (std::to_integer<unsigned>(in[0]) & 1) != 0;
    const std::size_t len = std::min<std::size_t>(
        in.size() - 3, std::to_integer<std::size_t>(in[1]) | std::to_integer<std::size_t>(in[2]) << 8);
    profile.extra_chunks.emplace_back(
        samples ? bn::calltree::kTagSamples : bn::calltree::kTagThreads,
        std::vector<std::byte>(in.begin() + 3, in.begin() + 3 + static_cast<std::ptrdiff_t>(len)));
    in = in.subspan(3 + len);
  }
  try {
    bn::calltree::decode_sample_data(profile, "fuzz");
  } catch (const bn::Error&) {
    // Refusing malformed input is the expected outcome.
  }
  return 0;
}
