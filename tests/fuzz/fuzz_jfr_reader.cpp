// libFuzzer entry point for the JFR reader: any byte string must either load or throw
// bn::Error, within the memory libFuzzer allows (-rss_limit_mb): the reader never allocates
// from a declared size. Seed it with real recordings (tests/fuzz/README.md).

#include <cstddef>
#include <cstdint>
#include <span>

#include "bn/base/error.h"
#include "bn/calltree/jfr.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const bn::calltree::ImportOptions options{.max_decompressed_bytes = std::uint64_t{16} << 20};
  for (const char* kind : {"cpu", "monitor-enter"}) {
    try {
      bn::calltree::ImportOptions o = options;
      o.sample_type = kind;
      o.thread_frames = true;
      (void)bn::calltree::read_jfr_bytes(bytes, "fuzz input", o);
    } catch (const bn::Error&) {
    }
  }
  return 0;
}
