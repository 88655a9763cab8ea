// libFuzzer entry point for the pprof reader: any byte string (plain, or what looks like gzip or
// zstd) must either load or throw bn::Error. A loaded tree must also survive the round trip
// write_pprof → read_pprof_bytes with the same stacks, which checks the writer against the
// reader; a mismatch aborts so libFuzzer keeps the input.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <sstream>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/pprof.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  // A small cap keeps each run fast; the cap's own behaviour is unit-tested.
  const bn::calltree::ImportOptions options{.max_decompressed_bytes = std::uint64_t{16} << 20};
  std::optional<bn::calltree::CallTree> tree;
  try {
    tree.emplace(bn::calltree::read_pprof_bytes(bytes, "fuzz input", options));
  } catch (const bn::Error&) {
    return 0;
  }
  std::ostringstream first;
  bn::calltree::write_pprof(*tree, first);
  const std::string text = first.str();
  const auto back = bn::calltree::read_pprof_bytes(std::as_bytes(std::span(text.data(), text.size())), "round trip");
  std::ostringstream second;
  bn::calltree::write_pprof(back, second);
  if (second.str() != text) std::abort();
  return 0;
}
