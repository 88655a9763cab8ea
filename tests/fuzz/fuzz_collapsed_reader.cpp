// libFuzzer entry point for the collapsed-stack reader: any byte string (plain, or what looks
// like gzip/zstd) must either load or throw bn::Error. A loaded tree must also survive the round
// trip write_collapsed → read_collapsed_bytes unchanged, which checks that frame-name
// normalisation is idempotent; a mismatch aborts so libFuzzer keeps the input.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <sstream>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/collapsed.h"

namespace {

std::string written(const bn::calltree::CallTree& tree) {
  std::ostringstream out;
  bn::calltree::write_collapsed(tree, out);
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  for (const bool keep_signatures : {false, true}) {
    // A small cap keeps each run fast; the cap's own behaviour is unit-tested.
    const bn::calltree::CollapsedOptions options{.keep_signatures = keep_signatures,
                                                 .max_decompressed_bytes = std::uint64_t{16} << 20};
    std::optional<bn::calltree::CallTree> tree;
    try {
      tree.emplace(bn::calltree::read_collapsed_bytes(bytes, "fuzz input", options));
    } catch (const bn::Error&) {
      continue;
    }
    // Outside the try: a tree the reader accepted must always be writable and read back.
    const std::string first = written(*tree);
    const auto again = std::as_bytes(std::span(first.data(), first.size()));
    if (written(bn::calltree::read_collapsed_bytes(again, "round trip", options)) != first) std::abort();
  }
  return 0;
}
